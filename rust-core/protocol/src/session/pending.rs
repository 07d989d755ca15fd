//! Handshakes a host runs **beside** its current link: several devices may dial at once, and
//! none of them holds the session until its handshake is complete.
//!
//! [`Channel::pending_accept`] starts one responder handshake ([`PendingAccept`]) that the
//! driver runs on the new connection by itself, without the session; a connection that
//! trickles bytes or never finishes costs only its own slot. A finished one
//! ([`AcceptedLink`]) shows who dialled ([`AcceptedLink::peer_key`]) so the driver can
//! decide, and [`Channel::adopt`] makes it the session's link (the `Resume` exchange and the
//! code follow as on any link).
//!
//! ```
//! use banco_protocol::session::pending::AcceptStep;
//! use banco_protocol::{Channel, ChannelConfig, Identity};
//!
//! let mut host = Channel::new(ChannelConfig::new("An", 0), Identity::from_secret([1; 32]), [11; 32]);
//! let mut guest = Channel::new(ChannelConfig::new("Binh", 0), Identity::from_secret([2; 32]), [22; 32]);
//! let mut pending = host.pending_accept(0)?;
//! guest.connect(0)?;
//! let mut accepted = None;
//! while accepted.is_none() {
//!     let frame = guest.poll_transmit().expect("a handshake message");
//!     match pending.handle(&frame).expect("a good handshake") {
//!         AcceptStep::Reply(reply) => guest.handle_datagram(&reply, 1),
//!         AcceptStep::Done(link) => accepted = Some(link),
//!     }
//! }
//! let link = accepted.unwrap();
//! assert_eq!(link.peer_key(), guest.local_key());
//! assert_eq!(link.peer_name(), "Binh");
//! host.adopt(*link, 2)?;
//! // From here on the link is the host's own: Resume, then the code.
//! while let Some(f) = host.poll_transmit() { guest.handle_datagram(&f, 3); }
//! while let Some(f) = guest.poll_transmit() { host.handle_datagram(&f, 3); }
//! assert!(host.is_link_up());
//! assert_eq!(host.peer().unwrap().code, guest.peer().unwrap().code);
//! # Ok::<(), banco_protocol::ActionError>(())
//! ```

use super::channel::Channel;
use super::handshake::checked_hello;
use crate::crypto::{Handshake, HandshakeDone, PublicKey};
use crate::message::Hello;
use crate::sas;
use crate::session::event::{ActionError, LinkDownReason};

/// A responder handshake in progress on a connection of its own (see the [module
/// docs](self)).
pub struct PendingAccept {
    /// `None` once finished.
    hs: Option<Box<Handshake>>,
    my_nonce: [u8; 32],
    started: u64,
    /// Our greeting for message 2 (with the commitment to our code nonce).
    reply: Vec<u8>,
}

impl core::fmt::Debug for PendingAccept {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PendingAccept")
            .field("started", &self.started)
            .finish_non_exhaustive()
    }
}

/// What a handshake message to a [`PendingAccept`] led to.
pub enum AcceptStep {
    /// Send this frame back (handshake message 2).
    Reply(Vec<u8>),
    /// The handshake is complete: decide, then [`Channel::adopt`] it or drop it.
    Done(Box<AcceptedLink>),
}

/// A finished responder handshake, not yet the session's link.
pub struct AcceptedLink {
    done: HandshakeDone,
    hello: Hello,
    my_nonce: [u8; 32],
    started: u64,
}

impl core::fmt::Debug for AcceptedLink {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("AcceptedLink")
            .field("peer_key", &self.done.remote_static)
            .field("peer_name", &self.hello.name)
            .finish_non_exhaustive()
    }
}

impl AcceptedLink {
    /// The static key of the device that dialled.
    pub fn peer_key(&self) -> PublicKey {
        self.done.remote_static
    }

    /// The name it announced (cleaned, see [`crate::name`]).
    pub fn peer_name(&self) -> &str {
        &self.hello.name
    }
}

impl PendingAccept {
    /// When the handshake started (the time passed to [`Channel::pending_accept`]).
    pub fn started(&self) -> u64 {
        self.started
    }

    /// Handles one handshake message from the dialling side. An error means the connection
    /// must be dropped (only it: the session is untouched); so does any message after
    /// [`AcceptStep::Done`].
    pub fn handle(&mut self, bytes: &[u8]) -> Result<AcceptStep, LinkDownReason> {
        const FAILED: LinkDownReason = LinkDownReason::Violation("handshake could not continue");
        let hs = self.hs.as_mut().ok_or(FAILED)?;
        if bytes.len() > crate::frame::MAX_FRAME_LEN {
            return Err(FAILED);
        }
        let payload = hs
            .read_message(bytes)
            .map_err(|_| LinkDownReason::Violation("a handshake message was refused"))?;
        if !hs.is_finished() {
            let reply = hs.write_message(&self.reply).map_err(|_| FAILED)?;
            return Ok(AcceptStep::Reply(reply));
        }
        let hello = checked_hello(&payload);
        let done = self.hs.take().ok_or(FAILED)?.finish().map_err(|_| FAILED)?;
        Ok(AcceptStep::Done(Box::new(AcceptedLink {
            done,
            hello: hello?,
            my_nonce: self.my_nonce,
            started: self.started,
        })))
    }
}

impl Channel {
    /// Starts a responder handshake beside the current link (see the [module docs](self)).
    pub fn pending_accept(&mut self, now: u64) -> Result<PendingAccept, ActionError> {
        self.ensure_open()?;
        let (seed, my_nonce) = self.fresh_link_secrets();
        let hs =
            Handshake::responder(&self.identity, seed).map_err(|_| ActionError::Unsupported)?;
        let reply = self.hello(sas::commit(&my_nonce)).to_payload();
        Ok(PendingAccept {
            hs: Some(Box::new(hs)),
            my_nonce,
            started: now,
            reply,
        })
    }

    /// Makes a finished handshake the session's link, replacing the current one: the
    /// `Resume` exchange follows, then the code (or the peer is known). A link from another
    /// key than the confirmed peer's goes down at once ([`LinkDownReason::WrongPeer`]).
    pub fn adopt(&mut self, accepted: AcceptedLink, now: u64) -> Result<(), ActionError> {
        self.ensure_open()?;
        self.now = now;
        self.clear_outgoing();
        self.stats.links += 1;
        let AcceptedLink {
            done,
            hello,
            my_nonce,
            started,
        } = accepted;
        self.link = None;
        self.handshake_done(false, started, my_nonce, done, hello);
        Ok(())
    }
}
