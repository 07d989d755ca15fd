//! The link set-up of a [`Channel`]: Noise handshake messages, the `Resume` exchange and
//! the identification of the peer (known key, changed key, or a code to compare).

use super::channel::{Channel, PeerInfo, session_from_hash};
use super::link::{Link, Open, Phase};
use crate::PROTOCOL_VERSION;
use crate::crypto::{HandshakeDone, PublicKey};
use crate::message::{Body, Hello, Resume};
use crate::name::clean_name;
use crate::sas::{self, Sas};
use crate::session::event::{ChannelEvent, LinkDownReason};

impl Channel {
    pub(super) fn hello(&self, sas: [u8; 32]) -> Hello {
        Hello {
            version: PROTOCOL_VERSION,
            caps: self.config.caps,
            name: self.config.name.clone(),
            sas,
        }
    }

    pub(super) fn on_handshake_frame(&mut self, bytes: &[u8]) {
        let Some(link) = &mut self.link else { return };
        let Phase::Handshake(hs) = &mut link.phase else {
            return;
        };
        let payload = match hs.read_message(bytes) {
            Ok(p) => p,
            Err(e) => return self.reject(e.into()),
        };
        link.last_rx = self.now;
        let (initiator, my_nonce) = (link.initiator, link.my_nonce);
        if !initiator && !hs.is_finished() {
            // Message 1 read: answer with message 2, committing to our SAS nonce.
            let reply = self.hello(sas::commit(&my_nonce)).to_payload();
            let Some(Link {
                phase: Phase::Handshake(hs),
                ..
            }) = &mut self.link
            else {
                return;
            };
            match hs.write_message(&reply) {
                Ok(msg2) => self.push_frame(msg2),
                Err(_) => self.link_down(LinkDownReason::Violation("handshake could not continue")),
            }
            return;
        }
        let peer_hello = match checked_hello(&payload) {
            Ok(h) => h,
            Err(reason) => return self.link_down(reason),
        };
        if initiator {
            let msg3 = self.hello(my_nonce).to_payload();
            let Some(Link {
                phase: Phase::Handshake(hs),
                ..
            }) = &mut self.link
            else {
                return;
            };
            match hs.write_message(&msg3) {
                Ok(msg3) => self.push_frame(msg3),
                Err(_) => {
                    return self
                        .link_down(LinkDownReason::Violation("handshake could not continue"));
                }
            }
        }
        let Some(link) = self.link.take() else { return };
        let Phase::Handshake(hs) = link.phase else {
            return;
        };
        match hs.finish() {
            Ok(done) => self.handshake_done(
                link.initiator,
                link.started,
                link.my_nonce,
                done,
                peer_hello,
            ),
            Err(_) => self.link_down(LinkDownReason::Violation("handshake could not finish")),
        }
    }

    pub(super) fn handshake_done(
        &mut self,
        initiator: bool,
        started: u64,
        my_nonce: [u8; 32],
        done: HandshakeDone,
        hello: Hello,
    ) {
        let HandshakeDone {
            transport,
            handshake_hash,
            remote_static,
        } = done;
        // A listing's fingerprint is public: only the handshake's key proves who answered.
        if let Some(listed) = &self.config.expected_peer
            && !remote_static.matches_fingerprint(listed)
        {
            let reason = LinkDownReason::NotTheListedPlayer {
                listed: crate::crypto::keys::grouped_fingerprint(listed),
                found: remote_static.fingerprint(),
            };
            return self.link_down(reason);
        }
        match &self.peer {
            // Only a confirmed peer is pinned: another key on its session is refused.
            Some(peer) if peer.verified && peer.key != remote_static => {
                self.emit(ChannelEvent::PeerKeyChanged {
                    name: hello.name.clone(),
                    old: peer.key,
                    new: remote_static,
                });
                return self.link_down(LinkDownReason::WrongPeer);
            }
            // A device nobody confirmed yet is replaced by this one (which shows its own
            // code); what the first one sent is forgotten.
            Some(peer) if !peer.verified && peer.key != remote_static => self.forget_candidate(),
            _ => {}
        }
        let sas = (!initiator).then(|| sas::derive(&handshake_hash, &hello.sas, &my_nonce));
        let peer_sas = hello.sas;
        let open = Open {
            transport,
            handshake_hash,
            peer_key: remote_static,
            peer_hello: hello,
            peer_sas,
            up: false,
            resume_due: self.now + self.config.timing.rto_ms,
            sas,
        };
        self.link = Some(Link {
            initiator,
            started,
            last_rx: self.now,
            last_tx: self.now,
            my_nonce,
            phase: Phase::Open(Box::new(open)),
        });
        self.send_resume();
    }

    pub(super) fn send_resume(&mut self) {
        let Some(link) = &self.link else { return };
        if link.open().is_none() {
            return;
        }
        // A side without a session yet says so with zeros (see `on_resume`).
        let session = self.session_id.unwrap_or([0; 8]);
        let resume = Resume {
            session,
            last_seen: u32::try_from(self.reliable.expected()).unwrap_or(u32::MAX),
            sas_reveal: (!link.initiator).then_some(link.my_nonce),
        };
        self.push_ctrl(Body::Resume(resume));
    }

    pub(super) fn on_resume(&mut self, r: Resume) {
        let Some(link) = &mut self.link else { return };
        let initiator = link.initiator;
        let my_nonce = link.my_nonce;
        let Phase::Open(open) = &mut link.phase else {
            return;
        };
        if open.up {
            // The peer missed our Resume.
            return self.send_resume();
        }
        if initiator {
            let Some(reveal) = r.sas_reveal else {
                return self.link_down(LinkDownReason::Violation(
                    "the peer did not reveal its code nonce",
                ));
            };
            if sas::commit(&reveal) != open.peer_sas {
                return self.link_down(LinkDownReason::Violation(
                    "the peer's code nonce does not match its commitment",
                ));
            }
            open.sas = Some(sas::derive(&open.handshake_hash, &my_nonce, &reveal));
        }
        // Session identifiers: zeros mean "no session yet". Two new sides derive the
        // identifier from this link's handshake hash; a new side adopts the peer's; a side
        // with a session accepts a new peer only if nothing was exchanged yet (the first
        // link died before the peer saw our Resume).
        let fresh = [0u8; 8];
        let expected = match (self.session_id, r.session) {
            (None, theirs) if theirs == fresh => session_from_hash(&open.handshake_hash),
            // A new side cannot take up a session whose peer already heard from it: that
            // was an earlier run of this app (it restarted and lost the match).
            (None, _) if r.last_seen > 0 => {
                // Our `Resume` (zeros: no session) still goes out: it tells the peer.
                return self.link_down_telling(LinkDownReason::RestartedHere);
            }
            (None, theirs) => theirs,
            (Some(ours), theirs) if theirs == ours => ours,
            (Some(ours), theirs)
                if theirs == fresh && r.last_seen == 0 && self.reliable.expected() == 0 =>
            {
                ours
            }
            // The confirmed peer itself, starting afresh: it restarted and lost this match,
            // which cannot go on (a stranger, without that key, could not say so).
            (Some(_), theirs)
                if theirs == fresh
                    && self
                        .peer
                        .as_ref()
                        .is_some_and(|p| p.verified && p.key == open.peer_key) =>
            {
                return self.link_down(LinkDownReason::PeerRestarted);
            }
            (Some(_), _) => return self.link_down(LinkDownReason::UnknownSession),
        };
        if !self.reliable.resume(u64::from(r.last_seen)) {
            return self.link_down(LinkDownReason::Violation(
                "the peer resumed from a position we never sent",
            ));
        }
        open.up = true;
        let (key, name, code) = (open.peer_key, open.peer_hello.name.clone(), open.sas);
        let caps = open.peer_hello.caps;
        let resumed = self.session_id.is_some();
        self.session_id = Some(expected);
        self.emit(ChannelEvent::LinkUp { resumed });
        let Some(code) = code else { return };
        match &mut self.peer {
            None => self.identify_peer(name, key, code, caps),
            Some(peer) if !peer.verified && peer.code != code => {
                // Not confirmed yet: show this link's code, which the other phone shows too
                // (the key is the same: another one was forgotten in `handshake_done`).
                peer.code = code;
                peer.name.clone_from(&name);
                peer.caps = caps;
                self.show_code(code, name, key);
            }
            Some(_) => {}
        }
    }

    pub(super) fn identify_peer(&mut self, name: String, key: PublicKey, code: Sas, caps: u32) {
        let known = &self.config.known_peers;
        let changed = known.get(&name).filter(|old| **old != key).copied();
        let trusted = changed.is_none() && known.name_of(&key).is_some();
        if let Some(old) = changed {
            self.emit(ChannelEvent::PeerKeyChanged {
                name: name.clone(),
                old,
                new: key,
            });
        }
        self.peer = Some(PeerInfo {
            name: name.clone(),
            key,
            verified: trusted,
            code,
            caps,
        });
        if trusted {
            self.emit(ChannelEvent::PeerVerified {
                name,
                key,
                known: true,
            });
        } else {
            self.show_code(code, name, key);
        }
    }
}

/// The peer's greeting from a handshake payload: decoded, of our protocol version, its name
/// cleaned for display ([`clean_name`]) — the one place a greeting is checked on receipt.
pub(super) fn checked_hello(payload: &[u8]) -> Result<Hello, LinkDownReason> {
    let Ok(mut hello) = Hello::from_payload(payload) else {
        return Err(LinkDownReason::Violation(
            "the peer's greeting is malformed",
        ));
    };
    if hello.version != PROTOCOL_VERSION {
        return Err(LinkDownReason::Version {
            peer: hello.version,
            ours: PROTOCOL_VERSION,
        });
    }
    hello.name = clean_name(&hello.name);
    Ok(hello)
}
