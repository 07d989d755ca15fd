//! # banco-protocol — the match protocol of Banco
//!
//! Two phones that meet on the LAN or over Bluetooth agree on a game, exchange moves in a
//! handful of bytes, survive dropped links and keep out anyone who does not belong. This
//! crate is that protocol as pure logic: **no I/O, no threads, no clock, no OS randomness**.
//! In the sans-I/O style of quinn-proto, a [`Session`] consumes frames and the time
//! (`now`, milliseconds of any monotonic clock) and produces frames, events and a timer
//! deadline; the same code runs over TCP, BLE or the in-memory link of the [`sim`]ulator.
//!
//! ```
//! use banco_protocol::sim::CountingGame;
//! use banco_protocol::{Event, Identity, MatchSpec, Session, SessionConfig};
//! use banco_game::{Color, GameKind};
//!
//! // An offers two games (the counting game stands in for xiangqi and chess), Binh one.
//! let both = SessionConfig::new("An", &[GameKind::Xiangqi, GameKind::Chess]);
//! let one = SessionConfig::new("Binh", &[GameKind::Chess]);
//! let mut a: Session<CountingGame> = Session::new(both, Identity::from_secret([1; 32]), [11; 32]);
//! let mut b: Session<CountingGame> = Session::new(one, Identity::from_secret([2; 32]), [22; 32]);
//!
//! // The driver: carry frames both ways until both sides are quiet.
//! fn pump(a: &mut Session<CountingGame>, b: &mut Session<CountingGame>, now: u64) {
//!     loop {
//!         let mut moved = false;
//!         while let Some(f) = a.poll_transmit() { b.handle_datagram(&f, now); moved = true; }
//!         while let Some(f) = b.poll_transmit() { a.handle_datagram(&f, now); moved = true; }
//!         if !moved { break; }
//!     }
//! }
//!
//! a.connect(0)?; // a dialled, b accepted
//! b.accept(0)?;
//! pump(&mut a, &mut b, 0);
//!
//! // Both sides show the six digits; the players compare them and confirm.
//! let code_a = a.peer().unwrap().code;
//! assert_eq!(code_a, b.peer().unwrap().code);
//! a.confirm_peer(true)?;
//! b.confirm_peer(true)?;
//!
//! // Binh sees which games An offers, and proposes chess from a position of its own.
//! assert_eq!(b.peer().unwrap().offers(), [GameKind::Xiangqi, GameKind::Chess]);
//! let spec = MatchSpec { start_fen: Some("40".into()), ..MatchSpec::new(GameKind::Chess, Color::Black) };
//! b.propose(spec, 10)?;
//! pump(&mut a, &mut b, 10);
//! a.accept_proposal(20)?;
//! pump(&mut a, &mut b, 20);
//! assert_eq!(a.match_spec().unwrap().local_color, Color::Red);
//!
//! a.play(2, 30)?; // red adds 2
//! pump(&mut a, &mut b, 30);
//! assert_eq!(b.game().unwrap(), a.game().unwrap());
//! assert_eq!(b.game().unwrap().total(), 42);
//! let played: Vec<_> = std::iter::from_fn(|| b.poll_event())
//!     .filter(|e| matches!(e, Event::MovePlayed { .. }))
//!     .collect();
//! assert_eq!(played, vec![Event::MovePlayed { ply: 0, mv: 2, by: Color::Red }]);
//! # Ok::<(), banco_protocol::ActionError>(())
//! ```
//!
//! ## Life cycle of a session
//!
//! 1. **Link.** The driver opens a connection and calls [`Session::connect`] (dialling side)
//!    or [`Session::accept`]. Three Noise `XX_25519_ChaChaPoly_BLAKE2s` messages follow;
//!    their payloads carry [`Hello`](message::Hello) (version, capabilities, name, SAS
//!    material). Then each side sends [`Resume`](message::Resume) until the peer's arrives:
//!    [`Event::LinkUp`].
//! 2. **Pairing.** On the first link both sides show a six-digit code
//!    ([`Event::VerifyPeer`], see [`sas`]); the game waits for [`Session::confirm_peer`].
//!    A peer remembered in [`KnownPeers`] skips this ([`Event::PeerVerified`] with
//!    `known: true`); a remembered name with a new key raises [`Event::PeerKeyChanged`].
//! 3. **Match.** Each side offers games ([`SessionConfig::offers`]; the peer's are in
//!    [`PeerInfo::offers`]). Either side proposes one both offer with [`Session::propose`]
//!    ([`MatchSpec`]: game, rule set, who is Red, clock, start position, per-game
//!    parameters); the other checks it and answers with [`Session::accept_proposal`] or
//!    [`Session::decline_proposal`] (a proposal it cannot play is declined with a precise
//!    [`DeclineReason`](message::DeclineReason)). Moves go through [`Session::play`]; the
//!    peer's moves are validated with our own rules engine and reported as
//!    [`Event::MovePlayed`], or refused as [`Event::PeerIllegalMove`] / [`Event::Desync`]
//!    without touching the position. In games with chance steps (jieqi) the session
//!    settles each one with the peer by the fair draw and reports [`Event::ChanceDrawn`];
//!    a cheating peer ends the match with [`CloseReason::UnfairDraw`]. Undo, draw offers and claims, resignation, clock flag;
//!    [`Event::GameOver`] with the same outcome on both sides. [`Session::game`] is the
//!    position, validated by the session: front ends read it rather than keep a copy.
//! 4. **Reconnects.** When a link dies ([`Event::LinkDown`], or [`Session::link_lost`] from
//!    the driver) the driver makes a new one with `connect`/`accept` on the same session:
//!    a new handshake (new keys), then `Resume { session, last_seen }` replays whatever the
//!    peer missed. A match survives any number of disconnects.
//! 5. **End.** [`Session::close`] sends `Bye`; [`Event::Closed`].
//!
//! ## Driving a session (what `banco-net` does)
//!
//! * After any call, send every frame from [`Session::poll_transmit`] and show every event
//!   from [`Session::poll_event`]; then sleep until [`Session::poll_timeout`] (or until
//!   input) and call [`Session::handle_timeout`].
//! * **Stream links (TCP):** write `frame::encode_frame(&frame, &mut buf)`; feed received
//!   bytes, in whatever chunks they come, to a [`frame::FrameDecoder`] and each complete
//!   frame to [`Session::handle_datagram`]. A [`frame::FrameError`] means the stream is
//!   corrupt or hostile: close the socket and call [`Session::link_lost`].
//! * **Datagram or message links (BLE characteristic writes, after reassembly):** one frame
//!   per message, no prefix.
//! * **Reconnect:** when the link dies ([`Event::LinkDown`] or a socket error), open a new
//!   one and call [`Session::connect`] (dialling side) or [`Session::accept`] on the *same*
//!   session. The peer is checked to be the same key; the match continues.
//! * **Entropy:** pass 32 fresh bytes from the OS to [`Session::new`] and keep the
//!   [`Identity`] secret in the platform key store.
//!
//! ## Messages and sizes
//!
//! One message is one frame: `varint(nonce) ‖ ChaCha20-Poly1305(postcard(Envelope))`. The
//! [`Envelope`](message::Envelope) is a one-byte header (`seq` and `ack`, 4 bits each) and
//! a [`Body`](message::Body) with a one-byte tag. Sizes before encryption (frozen by
//! `tests/suite/golden.rs`):
//!
//! | body | bytes | note |
//! |---|---|---|
//! | `Move{ply, mv, hash, clock}` | **9–10** | 10 for xiangqi (`from × 90 + to` < 8100) and chess (codes < 16384) moves thought about for < 12.8 s; 11 when longer |
//! | `Ack`, `Ping`, `Pong`, `DrawOffer`, `Bye` | 2 | |
//! | `Accept{params}` | 3 + params | 3 for games without parameters, 14 for jieqi (the commitment) |
//! | `UndoRequest{ply}`, `UndoReply`, `Resign{ply}`, `Flag{ply}`, `ClaimDraw{ply}`, `Decline`, `Error` | 3–4 | |
//! | `DrawReply{accept, ply}` | 4–5 | |
//! | `Propose{game, rules, color, clock, fen, params}` | 8 + clock + FEN + params | 8 untimed from the usual start; a clock adds 2–10, a FEN its length + 1–2, parameters their length (jieqi: 19 untimed, the 11-byte fair-draw commitment) |
//! | `Resume{session, last_seen, sas_reveal}` | 12–44 | once per link (44 with the SAS reveal) |
//! | `Hello{version, caps, name, sas}` | 37 + name | inside the handshake |
//! | `Reveal{link}` | **12** | a fair draw's hash-chain link (jieqi's reveals; [`fairdraw`]) |
//!
//! A move frame on the link is the 10-byte envelope + 16-byte tag + 1–3-byte nonce. A
//! chess move, e2e4 (wire code `12 | 28 << 6` = 1804), is 10 bytes before encryption,
//! like a xiangqi move. A chess proposal with a 30-character FEN and 3 bytes of parameters
//! is 42 bytes (golden sample `propose_chess_fen_params`).
//!
//! Stream links (TCP) prefix every frame with its varint length ([`frame`]); frames are at
//! most [`frame::MAX_FRAME_LEN`] = 4 KiB, checked before any allocation.
//!
//! ## What is protected, and what is not
//!
//! * **Protected:** confidentiality and integrity of every frame after the handshake
//!   (forged, truncated, replayed and reordered frames are dropped by the crypto layer);
//!   the identity of the peer once the code is compared (a man in the middle produces two
//!   different codes; the commit-reveal of the SAS nonces stops it from grinding keys
//!   until they match); exactly-once, in-order delivery of moves and offers; validation of
//!   every received move by our own rules engine and the position hash; bounded memory
//!   against floods (frame size limit, rate limit, bounded queues); chance outcomes
//!   (jieqi's hidden pieces) that neither side knows before the draw nor can bias, each
//!   checked by both ([`fairdraw`]: hash-chain commitments, the security argument and its
//!   bounds).
//! * **Not protected:** traffic analysis (frame sizes and timing are visible); the player
//!   names in `Hello` are sent before the peer is authenticated (encrypted, but to a peer
//!   not yet verified); denial of service by someone who can drop radio traffic; a peer
//!   lying about its own thinking time, or a modified app that never flags its own clock
//!   (each side trusts the mover's clock, as with any clock without a referee; the other
//!   player can only leave); a remembered key is trust on first use, as good as the first
//!   comparison of the code; the security of the stored [`Identity`] secret, which is the
//!   platform's job.
//!
//! ## Modules
//!
//! * [`message`] — wire types and their postcard encoding; [`PROTOCOL_VERSION`].
//! * [`frame`] — varint length framing with a streaming decoder for TCP.
//! * [`crypto`] — Noise handshake and the AEAD transport (explicit nonces).
//! * [`sas`] — the six-digit short authentication string.
//! * [`fairdraw`] — the fair draw of chance steps (jieqi's hidden pieces): hash-chain
//!   commitments, link verification, unbiased tickets, and the security argument.
//! * [`seed`] — a seed both sides make together (commit–reveal; the Lines race).
//! * [`race`] — the Lines race: both players on boards from one shared seed, moving at the
//!   same time, each move replayed and checked on a replica of the sender's board
//!   ([`Session::propose_race`], [`Session::race_move`], [`Event::Race`]).
//! * [`peers`] — remembered peers, export/import.
//! * [`session`] — the state machine: the game-agnostic [`Channel`] and the [`Session`] of
//!   a match on top of it ([`Event`]).
//! * [`sim`] — a seeded fault-injecting simulator and soak runner ([`sim::run_soak`],
//!   races with [`sim::play_race`]).
#![forbid(unsafe_code)]

pub mod crypto;
pub mod fairdraw;
pub mod frame;
pub mod message;
pub mod name;
pub mod peers;
pub mod race;
pub mod sas;
pub mod seed;
pub mod session;
pub mod sim;

pub use crypto::{Identity, PublicKey};
pub use peers::{KnownPeers, PeersError};
pub use session::channel::{Channel, ChannelOutput, PeerInfo};
pub use session::config::{ChannelConfig, MatchSnapshot, MatchSpec, SessionConfig, Stats, Timing};
pub use session::event::{
    ActionError, ChannelEvent, CloseReason, Event, IllegalReason, LinkDownReason, Rejection,
};
pub use session::{Session, check_proposal};

/// Version of the wire protocol, sent in `Hello`. Any change of the byte layout (see the
/// golden tests) bumps it; peers with different versions refuse each other with
/// [`LinkDownReason::Version`].
///
/// Version 2: proposals name the start position and carry per-game parameters, `Accept`
/// carries the answering side's parameters, `ClaimDraw`, and `Hello.caps` lists the games
/// offered. Version 3: `Reveal { link }` with a 10-byte link, and the fair-draw commitment
/// opening the parameters of games with chance steps ([`fairdraw`]).
pub const PROTOCOL_VERSION: u8 = 3;

#[cfg(test)]
mod tests {
    /// The driver may move a session to its own thread.
    #[test]
    fn sessions_are_send() {
        fn send<T: Send>() {}
        send::<crate::Session<crate::sim::CountingGame>>();
        send::<crate::Channel>();
        send::<crate::frame::FrameDecoder>();
        send::<crate::KnownPeers>();
    }
}
