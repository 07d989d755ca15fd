//! [`RawLink`]: a peer driven by hand over the real handshake and transport, for tests and
//! fuzzing that send what an honest session never would — forged, replayed, misnumbered
//! or illegal messages. It keeps its own sequence and acknowledgement counters, so it can
//! also skip or take back numbers.
//!
//! ```
//! use banco_game::GameKind;
//! use banco_protocol::message::Body;
//! use banco_protocol::sim::{CountingGame, RawLink};
//! use banco_protocol::{Identity, PROTOCOL_VERSION, Session, SessionConfig};
//!
//! let mut victim = Session::<CountingGame>::new(
//!     SessionConfig::new("victim", &[GameKind::Xiangqi]),
//!     Identity::from_secret([1; 32]),
//!     [2; 32],
//! );
//! let (mut raw, _sas_commitment) = RawLink::dial(&mut victim, PROTOCOL_VERSION, 0, 0).unwrap();
//! raw.resume(&mut victim, 0);
//! assert!(victim.is_link_up());
//! while victim.poll_transmit().is_some() {} // its resume
//! raw.send(&mut victim, Body::Ping, 0);
//! let frame = victim.poll_transmit().unwrap();
//! let (answer, in_order) = raw.open(&frame).unwrap();
//! assert_eq!((answer.body, in_order), (Body::Pong, false), "a pong is not sequenced");
//! ```

use crate::Session;
use crate::crypto::{Handshake, Identity, Transport};
use crate::message::{Body, Envelope, Hello, Resume};
use banco_game::MatchGame;

/// The identity every raw peer dials with.
const RAW_SECRET: [u8; 32] = [77; 32];

/// A hand-driven peer's end of a link (see the module docs).
pub struct RawLink {
    /// The transport keys of the link.
    pub transport: Transport,
    /// The sequence number of our next sequenced message.
    pub seq: u64,
    /// The victim's sequenced messages heard in order (the acknowledgement we send).
    pub ack: u64,
}

impl RawLink {
    /// Dials `victim` (which accepts the link at `now`) announcing protocol `version` and
    /// the capability bits `caps`; returns the link, handshake done, and the SAS
    /// commitment of the victim's hello. The victim's first message on the link (its
    /// resume) is left for the caller to read; ours is [`RawLink::resume`]. `None` if the
    /// victim refused the link.
    pub fn dial<G: MatchGame>(
        victim: &mut Session<G>,
        version: u8,
        caps: u32,
        now: u64,
    ) -> Option<(RawLink, [u8; 32])> {
        let id = Identity::from_secret(RAW_SECRET);
        let mut hs = Handshake::initiator(&id, [78; 32]).ok()?;
        victim.accept(now).ok()?;
        victim.handle_datagram(&hs.write_message(&[]).ok()?, now);
        let m2 = victim.poll_transmit()?;
        let commitment = Hello::from_payload(&hs.read_message(&m2).ok()?).ok()?.sas;
        let hello = Hello {
            version,
            caps,
            name: "raw".into(),
            sas: [79; 32],
        };
        victim.handle_datagram(&hs.write_message(&hello.to_payload()).ok()?, now);
        let transport = hs.finish().ok()?.transport;
        let link = RawLink {
            transport,
            seq: 0,
            ack: 0,
        };
        Some((link, commitment))
    }

    /// Sends our resume of a new session (nothing heard yet, no SAS nonce).
    pub fn resume<G: MatchGame>(&mut self, victim: &mut Session<G>, now: u64) -> Option<Vec<u8>> {
        self.resume_session(victim, [0; 8], now)
    }

    /// Sends our resume of `session` (zeros: a new one) on a link dialled again: the
    /// victim's messages heard so far ([`RawLink::ack`]) are those it need not send again.
    pub fn resume_session<G: MatchGame>(
        &mut self,
        victim: &mut Session<G>,
        session: [u8; 8],
        now: u64,
    ) -> Option<Vec<u8>> {
        let resume = Body::Resume(Resume {
            session,
            last_seen: u32::try_from(self.ack).unwrap_or(u32::MAX),
            sas_reveal: None,
        });
        self.send(victim, resume, now)
    }

    /// Seals `body` in an envelope numbered by our counters (the next sequence number if
    /// it is sequenced) and delivers it to `victim` at `now`; returns the frame (`None` if
    /// it could not be sealed).
    pub fn send<G: MatchGame>(
        &mut self,
        victim: &mut Session<G>,
        body: Body,
        now: u64,
    ) -> Option<Vec<u8>> {
        let seq = if body.is_sequenced() {
            self.seq += 1;
            self.seq - 1
        } else {
            self.seq
        };
        let env = Envelope::new((seq & 15) as u8, (self.ack & 15) as u8, body);
        self.send_plain(victim, &env.encode(), now)
    }

    /// Seals `plain` as it is (any bytes) and delivers it to `victim` at `now`.
    pub fn send_plain<G: MatchGame>(
        &mut self,
        victim: &mut Session<G>,
        plain: &[u8],
        now: u64,
    ) -> Option<Vec<u8>> {
        let frame = self.transport.seal(plain).ok()?;
        victim.handle_datagram(&frame, now);
        Some(frame)
    }

    /// Opens one frame the victim sent and counts a sequenced message heard in order
    /// (which our next messages acknowledge); returns the envelope and whether it was new
    /// and in order. `None` if the frame does not open or decode.
    pub fn open(&mut self, frame: &[u8]) -> Option<(Envelope, bool)> {
        let env = Envelope::decode(&self.transport.open(frame).ok()?).ok()?;
        let in_order = env.body.is_sequenced() && u64::from(env.seq) == self.ack % 16;
        if in_order {
            self.ack += 1;
        }
        Some((env, in_order))
    }
}
