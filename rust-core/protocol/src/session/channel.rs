//! The game-agnostic [`Channel`]: links (Noise handshake, resume), pairing with the short
//! authentication string, the reliable exactly-once stream, the inbox that holds messages
//! back until the peer's code is confirmed, keepalive and the inbound rate limit.
//!
//! A [`Session`](crate::Session) puts the match of a game on top of one channel; anything
//! else that needs two paired phones and an ordered stream (the Lines race) can do the
//! same. The channel knows no game: it hands every sequenced message the peer sent, in
//! order and once, out of [`Channel::poll_output`] as [`ChannelOutput::Message`], next to
//! the [`ChannelEvent`]s of the link and the pairing, in the order they happened.
//!
//! ```
//! use banco_protocol::message::Body;
//! use banco_protocol::{Channel, ChannelConfig, ChannelEvent, ChannelOutput, Identity};
//!
//! let mut a = Channel::new(ChannelConfig::new("An", 0), Identity::from_secret([1; 32]), [11; 32]);
//! let mut b = Channel::new(ChannelConfig::new("Binh", 0), Identity::from_secret([2; 32]), [22; 32]);
//! fn pump(a: &mut Channel, b: &mut Channel, now: u64) {
//!     loop {
//!         let mut moved = false;
//!         while let Some(f) = a.poll_transmit() { b.handle_datagram(&f, now); moved = true; }
//!         while let Some(f) = b.poll_transmit() { a.handle_datagram(&f, now); moved = true; }
//!         if !moved { break; }
//!     }
//! }
//! a.connect(0)?;
//! b.accept(0)?;
//! pump(&mut a, &mut b, 0);
//! assert_eq!(a.peer().unwrap().code, b.peer().unwrap().code);
//! a.confirm_peer(false)?;
//! b.confirm_peer(false)?;
//! a.send(Body::DrawOffer, 5)?; // any sequenced body
//! pump(&mut a, &mut b, 5);
//! let got: Vec<_> = std::iter::from_fn(|| b.poll_output()).collect();
//! assert!(got.contains(&ChannelOutput::Event(ChannelEvent::LinkUp { resumed: false })));
//! assert_eq!(got.last(), Some(&ChannelOutput::Message(Body::DrawOffer)));
//! # Ok::<(), banco_protocol::ActionError>(())
//! ```

use super::config::{ChannelConfig, Stats};
use super::event::{ActionError, ChannelEvent, CloseReason, LinkDownReason, Rejection};
use super::link::{Link, Phase, RateLimiter};
use super::reliable::Reliable;
use crate::crypto::{Handshake, Identity, PublicKey};
use crate::frame::MAX_FRAME_LEN;
use crate::message::{Body, Envelope, ErrorCode, MAX_NAME_LEN, offered_games};
use crate::name::clean_name;
use crate::peers::KnownPeers;
use crate::sas::Sas;
use banco_game::GameKind;
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use std::collections::VecDeque;

/// Sequenced messages held back until the peer's code is confirmed, at most.
const INBOX_MAX: usize = 32;
/// Queued outputs above which dropped-frame reports are no longer queued.
pub(crate) const REJECTION_EVENTS_MAX: usize = 64;
/// Queued link-level replies (pongs, errors) at most.
const CTRL_MAX: usize = 16;
/// Free room in the outbox a local action needs (its message and automatic replies).
const ACTION_ROOM: usize = 3;

/// Who the peer is, as far as this channel knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PeerInfo {
    /// The name the peer announced.
    pub name: String,
    /// The peer's static key.
    pub key: PublicKey,
    /// True once the code was confirmed (or the key was remembered).
    pub verified: bool,
    /// The six digits to compare (of the link on which the peer was identified, or of the
    /// latest link while the code is not confirmed).
    pub code: Sas,
    /// The capability bits the peer announced (`message::CAP_*`).
    pub caps: u32,
}

impl PeerInfo {
    /// The games the peer offers (from its capability bits).
    pub fn offers(&self) -> Vec<GameKind> {
        offered_games(self.caps)
    }

    /// True if the peer offers `game`.
    pub fn offers_game(&self, game: GameKind) -> bool {
        self.offers().contains(&game)
    }
}

/// What a [`Channel`] hands up, in the order it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChannelOutput {
    /// Something about the link or the pairing.
    Event(ChannelEvent),
    /// A sequenced message of the peer, delivered in order and exactly once, after the
    /// peer's code was confirmed.
    Message(Body),
}

/// The game-agnostic part of a session (see the [module docs](self)).
pub struct Channel {
    pub(super) config: ChannelConfig,
    pub(super) identity: Identity,
    rng: ChaCha20Rng,
    pub(super) now: u64,
    pub(super) link: Option<Link>,
    pub(super) reliable: Reliable,
    pub(super) session_id: Option<[u8; 8]>,
    pub(super) peer: Option<PeerInfo>,
    inbox: VecDeque<Body>,
    ctrl: VecDeque<Body>,
    out: VecDeque<Vec<u8>>,
    outputs: VecDeque<ChannelOutput>,
    limiter: RateLimiter,
    closed: Option<CloseReason>,
    pub(super) stats: Stats,
    /// Shortest acknowledgement round trip measured on the current link.
    rtt_min: Option<u64>,
    /// When the last frame from the peer that opened on an open link arrived (a handshake
    /// frame, a replay or garbage does not count): how the Lines race sees the link down.
    heard_at: Option<u64>,
    /// The codes shown to compare, the latest last (at most [`SHOWN_CODES`]): a
    /// confirmation of one of them that is not the current code is stale, not mistyped.
    shown: VecDeque<Sas>,
    /// The name under which the player's confirmation remembered the peer's key, and the
    /// key it replaced there: undone if the host then rejects the code
    /// ([`Channel::on_code_rejected`]).
    remembered: Option<(String, Option<PublicKey>)>,
}

/// How many codes shown a channel remembers (see [`Channel::confirm_code`]).
const SHOWN_CODES: usize = 16;

impl core::fmt::Debug for Channel {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Channel")
            .field("local", &self.identity.public())
            .field("peer", &self.peer)
            .field("link_up", &self.is_link_up())
            .field("closed", &self.closed)
            .finish_non_exhaustive()
    }
}

impl Channel {
    /// A channel for the local player `identity`. `seed` must be 32 bytes of fresh secret
    /// randomness from the platform (it makes every ephemeral key and nonce); tests pass a
    /// fixed seed to replay a channel exactly.
    pub fn new(mut config: ChannelConfig, identity: Identity, seed: [u8; 32]) -> Self {
        config.name = clean_name(&config.name);
        if config.name.len() > MAX_NAME_LEN {
            let mut cut = MAX_NAME_LEN;
            while !config.name.is_char_boundary(cut) {
                cut -= 1;
            }
            config.name.truncate(cut);
        }
        let t = config.timing;
        let reliable = Reliable::new(t.rto_ms, t.rto_max_ms, t.ack_delay_ms);
        Channel {
            config,
            identity,
            rng: ChaCha20Rng::from_seed(seed),
            now: 0,
            link: None,
            reliable,
            session_id: None,
            peer: None,
            inbox: VecDeque::new(),
            ctrl: VecDeque::new(),
            out: VecDeque::new(),
            outputs: VecDeque::new(),
            limiter: RateLimiter::new(),
            closed: None,
            stats: Stats::default(),
            rtt_min: None,
            heard_at: None,
            shown: VecDeque::new(),
            remembered: None,
        }
    }

    // ----- links -------------------------------------------------------------------------

    /// Starts a new link as the initiator (the side that dialled). Any previous link is
    /// dropped; the stream continues on the new one.
    pub fn connect(&mut self, now: u64) -> Result<(), ActionError> {
        self.start_link(true, now)
    }

    /// Starts a new link as the responder (the side that accepted the connection).
    pub fn accept(&mut self, now: u64) -> Result<(), ActionError> {
        self.start_link(false, now)
    }

    fn start_link(&mut self, initiator: bool, now: u64) -> Result<(), ActionError> {
        self.ensure_open()?;
        self.now = now;
        self.clear_outgoing();
        let (seed, my_nonce) = self.fresh_link_secrets();
        let hs = if initiator {
            Handshake::initiator(&self.identity, seed)
        } else {
            Handshake::responder(&self.identity, seed)
        };
        // Building a handshake only fails if snow lacks a primitive, a build problem.
        let Ok(mut hs) = hs else {
            return Err(ActionError::Unsupported);
        };
        if initiator {
            let Ok(msg1) = hs.write_message(&[]) else {
                return Err(ActionError::Unsupported);
            };
            self.push_frame(msg1);
        }
        self.stats.links += 1;
        self.rtt_min = None;
        self.link = Some(Link {
            initiator,
            started: now,
            last_rx: now,
            last_tx: now,
            my_nonce,
            phase: Phase::Handshake(Box::new(hs)),
        });
        Ok(())
    }

    /// The ephemeral-key seed and the code nonce of a new link.
    pub(super) fn fresh_link_secrets(&mut self) -> ([u8; 32], [u8; 32]) {
        let mut seed = [0u8; 32];
        self.rng.fill_bytes(&mut seed);
        let mut my_nonce = [0u8; 32];
        self.rng.fill_bytes(&mut my_nonce);
        (seed, my_nonce)
    }

    /// Drops the frames queued for the current link (a new one replaces it).
    pub(super) fn clear_outgoing(&mut self) {
        self.out.clear();
        self.ctrl.clear();
    }

    /// The driver saw the link close (EOF, BLE disconnect). The stream waits for a new link.
    pub fn link_lost(&mut self, now: u64) {
        self.now = now;
        if self.link.is_some() {
            self.link_down(LinkDownReason::Closed);
        }
    }

    pub(super) fn link_down(&mut self, reason: LinkDownReason) {
        self.out.clear();
        self.drop_link(reason);
    }

    /// [`Self::link_down`] that first seals what is queued for the link and keeps it for
    /// the driver to send (it sends a session's frames before it reads its events): our
    /// own `Resume`, when it alone tells the peer why the link ends — this side restarted
    /// and has no session, which the peer may not have heard yet if the driver read the
    /// peer's `Resume` before sending ours.
    pub(super) fn link_down_telling(&mut self, reason: LinkDownReason) {
        self.fill_out();
        self.drop_link(reason);
    }

    /// Drops the link and its pending control messages and says why; what is sealed for
    /// the driver is the callers' to keep or clear.
    fn drop_link(&mut self, reason: LinkDownReason) {
        self.link = None;
        self.ctrl.clear();
        self.emit(ChannelEvent::LinkDown { reason });
    }

    /// True while a link is up (handshake and resume exchange done).
    pub fn is_link_up(&self) -> bool {
        self.link.as_ref().is_some_and(Link::is_up)
    }

    // ----- driver interface --------------------------------------------------------------

    /// Handles one frame received on the current link (without the stream length prefix).
    /// Bad frames are dropped and reported as [`ChannelEvent::FrameRejected`]; nothing
    /// panics.
    pub fn handle_datagram(&mut self, bytes: &[u8], now: u64) {
        self.now = now;
        if self.closed.is_some() {
            return;
        }
        self.stats.frames_received += 1;
        if bytes.len() > MAX_FRAME_LEN {
            return self.reject(Rejection::Oversized(bytes.len()));
        }
        if !self.limiter.allow(now) {
            self.stats.rate_limited += 1;
            if !self.limiter.reported {
                self.limiter.reported = true;
                self.reject(Rejection::RateLimited);
            } else {
                self.stats.frames_rejected += 1;
            }
            return;
        }
        let Some(link) = &mut self.link else {
            return self.reject(Rejection::NoLink);
        };
        match &mut link.phase {
            Phase::Handshake(_) => self.on_handshake_frame(bytes),
            Phase::Open(open) => match open.transport.open(bytes) {
                Err(e) => self.reject(e.into()),
                Ok(plain) => {
                    link.last_rx = now;
                    self.heard_at = Some(now);
                    match Envelope::decode(&plain) {
                        Ok(env) => self.on_envelope(env),
                        Err(e) => {
                            self.reject(e.into());
                            self.push_ctrl(Body::Error {
                                code: ErrorCode::MALFORMED,
                            });
                        }
                    }
                }
            },
        }
    }

    /// The next frame to send on the current link, if any. Stream drivers add the length
    /// prefix with [`frame::encode_frame`](crate::frame::encode_frame).
    pub fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        if self.out.is_empty() {
            self.fill_out();
        }
        self.out.pop_front()
    }

    /// The next event or delivered message, if any.
    pub fn poll_output(&mut self) -> Option<ChannelOutput> {
        self.outputs.pop_front()
    }

    /// When [`Channel::handle_timeout`] should be called next, if ever.
    pub fn poll_timeout(&self) -> Option<u64> {
        if self.closed.is_some() {
            return None;
        }
        let t = &self.config.timing;
        let link = self.link.as_ref()?;
        let deadlines = match link.open() {
            Some(open) if open.up => [
                Some(link.last_rx + t.dead_peer_ms),
                Some(link.last_tx + t.keepalive_ms),
                self.reliable.deadline(),
                self.reliable.ack_due(),
            ],
            Some(open) => [
                Some(link.started + t.handshake_timeout_ms),
                Some(open.resume_due),
                None,
                None,
            ],
            None => [
                Some(link.started + t.handshake_timeout_ms),
                None,
                None,
                None,
            ],
        };
        deadlines.into_iter().flatten().min()
    }

    /// Runs the timers due at `now`: retransmission, a delayed acknowledgement, keepalive,
    /// dead-peer and handshake timeouts.
    pub fn handle_timeout(&mut self, now: u64) {
        self.now = now;
        if self.closed.is_some() {
            return;
        }
        let t = self.config.timing;
        let Some(link) = &mut self.link else { return };
        let since_start = now.saturating_sub(link.started);
        let mut down = None;
        let mut resume = false;
        let mut ping = false;
        match &mut link.phase {
            Phase::Handshake(_) => {
                if since_start >= t.handshake_timeout_ms {
                    down = Some(LinkDownReason::HandshakeTimeout);
                }
            }
            Phase::Open(open) if !open.up => {
                if since_start >= t.handshake_timeout_ms {
                    down = Some(LinkDownReason::HandshakeTimeout);
                } else if now >= open.resume_due {
                    open.resume_due = now + t.rto_ms;
                    resume = true;
                }
            }
            Phase::Open(_) => {
                if now >= link.last_rx + t.dead_peer_ms {
                    down = Some(LinkDownReason::PeerSilent);
                } else {
                    self.reliable.on_timeout(now);
                    ping = now >= link.last_tx + t.keepalive_ms;
                }
            }
        }
        if let Some(reason) = down {
            self.link_down(reason);
        } else if resume {
            self.send_resume();
        } else if ping {
            self.push_ctrl(Body::Ping);
        }
    }

    // ----- pairing -----------------------------------------------------------------------

    /// The player confirmed that both phones show the same code. With `remember`, the
    /// peer's key is added to [`Channel::known_peers`] so later sessions skip the code.
    /// Messages held back until now are delivered.
    pub fn confirm_peer(&mut self, remember: bool) -> Result<(), ActionError> {
        self.ensure_open()?;
        let peer = self.peer.as_mut().ok_or(ActionError::NothingToConfirm)?;
        if peer.verified {
            return Err(ActionError::NothingToConfirm);
        }
        peer.verified = true;
        let (name, key) = (peer.name.clone(), peer.key);
        if remember {
            let before = self.config.known_peers.insert(&name, key);
            self.remembered = Some((name.clone(), before));
        }
        self.emit(ChannelEvent::PeerVerified {
            name,
            key,
            known: false,
        });
        while let Some(b) = self.inbox.pop_front() {
            self.outputs.push_back(ChannelOutput::Message(b));
        }
        Ok(())
    }

    /// The player confirmed `code`, the code they compared: like
    /// [`Channel::confirm_peer`], but refused with [`ActionError::CodeChanged`] when the code
    /// to compare is another one by now (a newer link showed a new code), so a confirmation
    /// never applies to a code the player did not see, and with [`ActionError::NotTheCode`]
    /// when `code` was never shown (mistyped: no false warning of another device).
    pub fn confirm_code(&mut self, code: Sas, remember: bool) -> Result<(), ActionError> {
        self.ensure_open()?;
        let peer = self.peer.as_ref().ok_or(ActionError::NothingToConfirm)?;
        if !peer.verified && peer.code != code {
            return Err(if self.shown.contains(&code) {
                ActionError::CodeChanged
            } else {
                ActionError::NotTheCode
            });
        }
        self.confirm_peer(remember)
    }

    /// Shows the code to compare with the peer `name` (its key `key`), and remembers it.
    pub(super) fn show_code(&mut self, code: Sas, name: String, key: PublicKey) {
        if self.shown.len() == SHOWN_CODES {
            self.shown.pop_front();
        }
        self.shown.push_back(code);
        self.emit(ChannelEvent::VerifyPeer { code, name, key });
    }

    /// The player saw different codes: someone may be in the middle. A side that accepted
    /// the link (the host) forgets that device and waits for another
    /// ([`LinkDownReason::Rejected`]): a stranger cannot end a hosted session. A side that
    /// dialled says goodbye and closes the channel.
    pub fn reject_peer(&mut self) {
        let unverified = self.peer.as_ref().is_some_and(|p| !p.verified);
        let responder = self.link.as_ref().is_some_and(|l| !l.initiator);
        if unverified && responder && self.closed.is_none() {
            // The device is told why, in the last frame of its link, so that it stops
            // instead of dialling again only to show another code.
            let farewell = if self.is_link_up() {
                self.out.clear();
                self.seal(
                    Body::Error {
                        code: ErrorCode::CODE_REJECTED,
                    },
                    None,
                );
                std::mem::take(&mut self.out)
            } else {
                VecDeque::new()
            };
            self.forget_candidate();
            self.link_down(LinkDownReason::Rejected);
            self.out = farewell;
            return;
        }
        self.close_with(CloseReason::CodeMismatch);
    }

    /// Forgets a peer whose code was never confirmed, and everything it shaped: its key
    /// (so another device may pair), the session identifier of its link and whatever it
    /// sent (held back in the inbox). Only a confirmed peer pins the session.
    pub(super) fn forget_candidate(&mut self) {
        if self.peer.as_ref().is_some_and(|p| p.verified) {
            return;
        }
        self.peer = None;
        if self.reliable.unacked() == 0 {
            self.session_id = None;
            let t = self.config.timing;
            self.reliable = Reliable::new(t.rto_ms, t.rto_max_ms, t.ack_delay_ms);
            self.inbox.clear();
        }
    }

    /// Ends the channel (sends `Bye` if a link is up, after whatever was queued).
    pub fn close(&mut self, now: u64) {
        self.now = now;
        self.close_with(CloseReason::Local);
    }

    /// True when later sequenced messages of the peer arrived before an earlier one that is
    /// still missing (being retransmitted).
    pub(crate) fn peer_stream_has_gap(&self) -> bool {
        self.reliable.has_gap()
    }

    /// 32 fresh secret bytes from the channel's random source (fair-draw chains).
    pub(crate) fn fresh_secret(&mut self) -> [u8; 32] {
        let mut b = [0u8; 32];
        self.rng.fill_bytes(&mut b);
        b
    }

    pub(crate) fn close_with(&mut self, reason: CloseReason) {
        if self.closed.is_some() {
            return;
        }
        if self.is_link_up() {
            // Whatever is queued (a last move, an acknowledgement) still goes out before
            // the farewell: closing right after playing must not swallow the move.
            self.fill_out();
            self.seal(Body::Bye, None);
        }
        self.closed = Some(reason.clone());
        self.link = None;
        self.emit(ChannelEvent::Closed { reason });
    }

    // ----- sending -----------------------------------------------------------------------

    /// Sends a sequenced body ([`Body::is_sequenced`]) on the reliable stream: it reaches
    /// the peer once, in order, across reconnects. Needs a confirmed peer and room in the
    /// outbox; link-level bodies are refused with [`ActionError::Unsupported`].
    pub fn send(&mut self, body: Body, now: u64) -> Result<(), ActionError> {
        self.ready(now)?;
        if !body.is_sequenced() || body.validate().is_err() {
            return Err(ActionError::Unsupported);
        }
        self.queue(body);
        Ok(())
    }

    /// Checks that a local action may send now: open, peer confirmed, room in the outbox.
    pub(crate) fn ready(&mut self, now: u64) -> Result<(), ActionError> {
        self.now = now;
        self.ensure_open()?;
        if !self.peer.as_ref().is_some_and(|p| p.verified) {
            return Err(ActionError::NotVerified);
        }
        if !self.reliable.has_room(ACTION_ROOM) {
            return Err(ActionError::QueueFull);
        }
        Ok(())
    }

    /// Checks that a race action of ours may send now: open, peer confirmed, and room for
    /// one more race message ([`RACE_OUTBOX_MAX`](super::reliable::RACE_OUTBOX_MAX)) — not
    /// the outbox's usual limit, so a race goes on while the link is down.
    pub(crate) fn ready_race(&mut self, now: u64) -> Result<(), ActionError> {
        self.now = now;
        self.ensure_open()?;
        if !self.peer.as_ref().is_some_and(|p| p.verified) {
            return Err(ActionError::NotVerified);
        }
        if !self.reliable.has_race_room(1) {
            return Err(ActionError::QueueFull);
        }
        Ok(())
    }

    /// Queues a race message of ours on the reliable stream (see [`Channel::ready_race`]);
    /// its sequence number, `None` if it was dropped.
    pub(crate) fn queue_race(&mut self, body: Body) -> Option<u64> {
        self.reliable.push_race(body)
    }

    pub(crate) fn ensure_open(&self) -> Result<(), ActionError> {
        if self.closed.is_some() {
            Err(ActionError::Closed)
        } else {
            Ok(())
        }
    }

    /// Queues a body: sequenced ones on the reliable stream, the others as link replies.
    pub(crate) fn queue(&mut self, body: Body) {
        let _ = self.queue_seq(body);
    }

    /// [`Channel::queue`], returning the sequence number of a sequenced body.
    pub(crate) fn queue_seq(&mut self, body: Body) -> Option<u64> {
        if body.is_sequenced() {
            // Dropped only when a peer floods requests without acknowledging anything.
            self.reliable.push(body)
        } else {
            self.push_ctrl(body);
            None
        }
    }

    /// How many of our sequenced messages the peer has acknowledged so far (the
    /// envelope of a message being delivered has been counted): each one with a smaller
    /// sequence number ([`Channel::queue_seq`]) had reached the peer.
    pub(crate) fn peer_acked(&self) -> u64 {
        self.reliable.acked()
    }

    // ----- accessors ---------------------------------------------------------------------

    /// The peer, once a link was set up.
    pub fn peer(&self) -> Option<&PeerInfo> {
        self.peer.as_ref()
    }

    /// True once the peer's code was confirmed (or its key remembered).
    pub fn is_verified(&self) -> bool {
        self.peer.as_ref().is_some_and(|p| p.verified)
    }

    /// The code of the current link, once known.
    pub fn link_code(&self) -> Option<Sas> {
        self.link.as_ref().and_then(Link::open).and_then(|o| o.sas)
    }

    /// Remembered peers, including any added by [`Channel::confirm_peer`].
    pub fn known_peers(&self) -> &KnownPeers {
        &self.config.known_peers
    }

    /// The local player's display name (as sent, cut to 64 bytes).
    pub fn name(&self) -> &str {
        &self.config.name
    }

    /// The capability bits this side announces.
    pub fn caps(&self) -> u32 {
        self.config.caps
    }

    /// The local static key.
    pub fn local_key(&self) -> PublicKey {
        self.identity.public()
    }

    /// The session identifier (from the first link).
    pub fn session_id(&self) -> Option<[u8; 8]> {
        self.session_id
    }

    /// The shortest round trip (a sequenced message to its acknowledgement, sent once)
    /// measured on the current link, in milliseconds; `None` before the first. A peer can
    /// only lengthen a round trip, never shorten it, so the minimum is what bounds the time
    /// it may claim ([`Session`](crate::Session) caps a peer's claimed thinking time with
    /// it).
    pub fn rtt(&self) -> Option<u64> {
        self.rtt_min
    }

    /// When the last authenticated frame from the peer arrived (a handshake frame, a
    /// replay or garbage does not count), if one did.
    pub(crate) fn heard_at(&self) -> Option<u64> {
        self.heard_at
    }

    /// The time of the latest call, as passed in.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// Counters.
    pub fn stats(&self) -> Stats {
        Stats {
            retransmissions: self.reliable.retransmissions,
            ..self.stats
        }
    }

    /// Sequenced messages not yet acknowledged by the peer.
    pub fn unacked(&self) -> usize {
        self.reliable.unacked()
    }

    /// True once the channel is closed.
    pub fn is_closed(&self) -> bool {
        self.closed.is_some()
    }

    // ----- internals ---------------------------------------------------------------------

    pub(super) fn emit(&mut self, event: ChannelEvent) {
        self.outputs.push_back(ChannelOutput::Event(event));
    }

    fn on_envelope(&mut self, env: Envelope) {
        let up = self.is_link_up();
        match env.body {
            Body::Resume(r) => return self.on_resume(r),
            Body::Bye if !self.is_verified() => {
                // Only the confirmed peer may end the session; an unconfirmed one only
                // leaves its link.
                self.forget_candidate();
                return self.link_down(LinkDownReason::Abandoned);
            }
            Body::Bye => {
                self.closed = Some(CloseReason::PeerLeft);
                self.link = None;
                self.emit(ChannelEvent::Closed {
                    reason: CloseReason::PeerLeft,
                });
                return;
            }
            _ if !up => return, // the peer's Resume is still missing; it will come again
            _ => {}
        }
        if let Some(rtt) = self.reliable.on_ack(env.ack, self.now) {
            self.rtt_min = Some(self.rtt_min.map_or(rtt, |r| r.min(rtt)));
        }
        match env.body {
            Body::Ping => self.push_ctrl(Body::Pong),
            Body::Pong | Body::Ack | Body::Hello(_) => {}
            Body::Error { code } => {
                self.emit(ChannelEvent::PeerError { code });
                if code == ErrorCode::CODE_REJECTED {
                    self.on_code_rejected();
                }
            }
            body if body.is_sequenced() => {
                if !self.is_verified() && self.inbox.len() >= INBOX_MAX {
                    return; // not acknowledged: the peer sends it again later
                }
                for b in self.reliable.on_data(env.seq, body, self.now) {
                    if self.is_verified() {
                        self.outputs.push_back(ChannelOutput::Message(b));
                    } else {
                        self.inbox.push_back(b);
                    }
                }
            }
            _ => {}
        }
    }

    /// The host turned us away over the code: the pairing failed, whether or not our
    /// player had confirmed the code (the guest often answers first, and its "yes" may
    /// have been to a device in the middle). The attempt ends
    /// ([`CloseReason::PeerRejectedCode`]: a guest that went on would dial again and
    /// use up the host's attempts on codes it never shows), and a key this pairing
    /// remembered is forgotten (the key it replaced, if any, comes back). The error comes
    /// on the link of the key we hold, so a stranger cannot send it. Believed only
    /// before the host sent anything on the reliable stream: a host says it only while
    /// its own player has not confirmed, and sends nothing sequenced (no proposal, no
    /// move) before that — so a match's game never ends this way.
    fn on_code_rejected(&mut self) {
        let initiator = self.link.as_ref().is_some_and(|l| l.initiator);
        if !initiator || self.reliable.expected() > 0 {
            return;
        }
        if let Some((name, before)) = self.remembered.take() {
            let key = self.peer.as_ref().map(|p| p.key);
            if key.is_some() && self.config.known_peers.get(&name) == key.as_ref() {
                match before {
                    Some(old) => self.config.known_peers.insert(&name, old),
                    None => self.config.known_peers.remove(&name),
                };
            }
        }
        self.close_with(CloseReason::PeerRejectedCode);
    }

    pub(super) fn push_ctrl(&mut self, body: Body) {
        if self.ctrl.len() < CTRL_MAX {
            self.ctrl.push_back(body);
        }
    }

    pub(super) fn push_frame(&mut self, frame: Vec<u8>) {
        self.stats.frames_sent += 1;
        if let Some(link) = &mut self.link {
            link.last_tx = self.now;
        }
        self.out.push_back(frame);
    }

    /// Encrypts one envelope onto the output queue.
    fn seal(&mut self, body: Body, seq: Option<u8>) {
        let env = Envelope::new(
            seq.unwrap_or_else(|| self.reliable.seq_nibble()),
            self.reliable.ack_nibble(),
            body,
        );
        let Some(Link {
            phase: Phase::Open(open),
            ..
        }) = &mut self.link
        else {
            return;
        };
        match open.transport.seal(&env.encode()) {
            Ok(frame) => {
                self.reliable.ack_sent();
                self.push_frame(frame);
            }
            Err(_) => self.link_down(LinkDownReason::Violation("nonces exhausted")),
        }
    }

    fn fill_out(&mut self) {
        let now = self.now;
        let Some(link) = &self.link else { return };
        if link.open().is_none() {
            return;
        }
        let up = link.is_up();
        while let Some(body) = self.ctrl.pop_front() {
            self.seal(body, None);
        }
        if up {
            while let Some((seq, body)) = self.reliable.next_to_send(now) {
                self.seal(body, Some(seq));
            }
            // Nothing else went out to carry the acknowledgement, and it is due.
            if self.reliable.ack_overdue(now) {
                self.seal(Body::Ack, None);
            }
        }
    }

    pub(super) fn reject(&mut self, reason: Rejection) {
        self.stats.frames_rejected += 1;
        if self.outputs.len() < REJECTION_EVENTS_MAX {
            self.emit(ChannelEvent::FrameRejected { reason });
        }
    }
}

pub(super) fn session_from_hash(h: &[u8; 32]) -> [u8; 8] {
    let mut id = [0u8; 8];
    id.copy_from_slice(&h[..8]);
    id
}
