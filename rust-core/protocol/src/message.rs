//! Wire messages: the [`Envelope`] and every [`Body`], encoded with postcard.
//!
//! The layout is frozen by golden-byte tests (`tests/suite/golden.rs`); changing it bumps
//! [`PROTOCOL_VERSION`](crate::PROTOCOL_VERSION).
//!
//! ```
//! use banco_protocol::message::{Body, Envelope, MoveMsg, Propose, game_code};
//! use banco_game::{Color, GameKind};
//!
//! let env = Envelope::new(3, 2, Body::Move(MoveMsg { ply: 4, mv: 4013, hash: 0xdead_beef, clock: 17 }));
//! let bytes = env.encode();
//! assert_eq!(bytes.len(), 10); // a move envelope, before encryption
//! assert_eq!(Envelope::decode(&bytes)?, env);
//!
//! // A proposal names the game, the rule set, the colour, the clock, the start position
//! // (none: the game's usual start) and per-game parameters.
//! let propose = Body::Propose(Propose {
//!     game: game_code(GameKind::Chess),
//!     rules: 0,
//!     color: Color::Red,
//!     clock: None,
//!     fen: Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1".into()),
//!     params: Vec::new(),
//! });
//! let bytes = Envelope::new(0, 0, propose.clone()).encode();
//! assert_eq!(Envelope::decode(&bytes)?.body, propose);
//! # Ok::<(), banco_protocol::message::WireError>(())
//! ```
//!
//! ## What a version 2 peer sends
//!
//! * `Hello.caps` lists the games the sender offers ([`caps_of`], [`offered_games`]), and
//!   with Lines whether its race knows Lines 98's preview ([`CAP_LINES_PREVIEW`]) and
//!   the spots drawn at announcement ([`CAP_LINES_SPOTS`]).
//! * `Propose` carries a start FEN (at most [`MAX_FEN_LEN`] bytes) and opaque per-game
//!   parameters (at most [`MAX_PARAMS_LEN`] bytes: jieqi's hash-chain commitment, a Lines
//!   seed commitment); `Accept` carries the answering side's parameters. Longer values are
//!   not messages of this protocol ([`WireError`]).
//! * `ClaimDraw { ply }` claims a draw the rules allow but do not impose (chess: threefold
//!   repetition, the fifty-move rule).
//!
//! ## What version 3 changed
//!
//! * `Reveal { link }` carries a 10-byte hash-chain link (version 2 reserved the tag with a
//!   32-bit ply and a 32-byte link, and never sent it); proposals and acceptances of games
//!   that use the fair draw open their parameters with an 11-byte commitment
//!   ([`fairdraw::commitment`](crate::fairdraw::commitment)).
//! * Tags 22–25 (`SeedReveal`, `RaceMove`, `RaceStop`, `RaceCut`) were appended for the Lines race
//!   ([`race`](crate::race)); they are only sent in a race both sides accepted, so peers
//!   that never offer Lines ([`CAP_LINES`]) never see them.
//! * A race side whose wait for the other's part of the seed runs out calls the race off
//!   with `Abort` ([`AbortReason::NO_SEED`]), to peers that announce
//!   [`CAP_LINES_NO_SEED`]: no new tag, and older peers are not sent it.

use banco_game::{Color, GameKind};
use serde::{Deserialize, Serialize};

/// Capability bit: the peer offers xiangqi.
pub const CAP_XIANGQI: u32 = 1 << 0;
/// Capability bit: the peer offers jieqi, and so understands its fair-reveal messages
/// ([`Body::Reveal`]).
pub const CAP_JIEQI: u32 = 1 << 1;
/// The bit of [`CAP_JIEQI`] under its version 1 name.
pub const CAP_JIEQI_REVEAL: u32 = CAP_JIEQI;
/// Capability bit: the peer offers chess.
pub const CAP_CHESS: u32 = 1 << 2;
/// Capability bit: the peer offers the Lines race.
pub const CAP_LINES: u32 = 1 << 3;
/// Capability bit: the peer's Lines race knows Lines 98's preview (the flags byte of the
/// race options, [`RACE_FLAG_PREVIEW`](crate::race::RACE_FLAG_PREVIEW)); announced with
/// [`CAP_LINES`] by every build that has it. A preview race is not proposed to a peer
/// without it (an older app would decline the options it cannot read).
pub const CAP_LINES_PREVIEW: u32 = 1 << 4;
/// Capability bit: the peer's Lines race knows the spots drawn at announcement (the flags
/// byte's [`RACE_FLAG_SPOTS`](crate::race::RACE_FLAG_SPOTS), [`banco_lines::SpawnRule`]);
/// announced with [`CAP_LINES`] by every build that has it. A race with a peer without
/// it is proposed with the spawns at landing, which both builds play alike.
pub const CAP_LINES_SPOTS: u32 = 1 << 5;
/// Capability bit: the peer's Lines race calls a race off when its wait for our part of
/// the seed runs out, and says so ([`Body::Abort`] with [`AbortReason::NO_SEED`]), so both
/// sides end it alike ([`RaceEnd::NoSeed`](crate::race::RaceEnd::NoSeed)); announced with
/// [`CAP_LINES`] by every build that has it. A peer without it is not sent that abort (an
/// older build would answer it as an unexpected message).
pub const CAP_LINES_NO_SEED: u32 = 1 << 6;

/// Longest player name carried in [`Hello`], in bytes.
pub const MAX_NAME_LEN: usize = 64;
/// Longest start position (FEN) carried in [`Propose`], in bytes.
pub const MAX_FEN_LEN: usize = 255;
/// Longest per-game parameters carried in [`Propose`] and [`Accept`], in bytes.
pub const MAX_PARAMS_LEN: usize = 256;

/// Errors of decoding a message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    /// The bytes are not a valid message of this protocol version (unknown body, bad value,
    /// or cut short).
    #[error("malformed message: {0}")]
    Malformed(String),
    /// A valid message followed by extra bytes.
    #[error("{0} unexpected bytes after the message")]
    TrailingBytes(usize),
    /// A player name longer than [`MAX_NAME_LEN`].
    #[error("player name of {0} bytes is longer than the limit of {MAX_NAME_LEN}")]
    NameTooLong(usize),
    /// A start position longer than [`MAX_FEN_LEN`].
    #[error("start position of {0} bytes is longer than the limit of {MAX_FEN_LEN}")]
    FenTooLong(usize),
    /// Per-game parameters longer than [`MAX_PARAMS_LEN`].
    #[error("game parameters of {0} bytes are longer than the limit of {MAX_PARAMS_LEN}")]
    ParamsTooLong(usize),
}

/// One message on the wire: a 1-byte header holding the sequence number and the
/// acknowledgement (4 bits each, see below), then the body.
///
/// `seq` and `ack` are the low 4 bits of 64-bit counters kept by the session, in the style
/// of QUIC's truncated packet numbers: at most 8 sequenced messages are in flight, and the
/// crypto layer rejects stale datagrams, so the receiver always reconstructs the full
/// number unambiguously. `seq` only has a meaning for sequenced bodies
/// (see [`Body::is_sequenced`]); `ack` is the receiver's next expected sequence number and is
/// carried by every envelope.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "WireEnvelope", into = "WireEnvelope")]
pub struct Envelope {
    /// Sequence number modulo 16.
    pub seq: u8,
    /// Acknowledgement (next expected sequence number) modulo 16.
    pub ack: u8,
    /// The message.
    pub body: Body,
}

#[derive(Clone, Serialize, Deserialize)]
struct WireEnvelope {
    header: u8,
    body: Body,
}

impl From<WireEnvelope> for Envelope {
    fn from(w: WireEnvelope) -> Self {
        Envelope {
            seq: w.header >> 4,
            ack: w.header & 0x0f,
            body: w.body,
        }
    }
}

impl From<Envelope> for WireEnvelope {
    fn from(e: Envelope) -> Self {
        WireEnvelope {
            header: (e.seq & 0x0f) << 4 | (e.ack & 0x0f),
            body: e.body,
        }
    }
}

impl Envelope {
    /// An envelope; `seq` and `ack` are reduced modulo 16.
    pub fn new(seq: u8, ack: u8, body: Body) -> Self {
        Envelope {
            seq: seq & 0x0f,
            ack: ack & 0x0f,
            body,
        }
    }

    /// The postcard bytes of this envelope.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(16);
        self.encode_into(&mut out);
        out
    }

    /// Appends the postcard bytes of this envelope to `out`.
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        // Serialising these plain types into a growable vector cannot fail; an empty result
        // would be caught by the peer as a malformed message.
        if let Ok(bytes) = postcard::to_extend(self, core::mem::take(out)) {
            *out = bytes;
        }
    }

    /// Decodes one envelope; the whole input must be used.
    pub fn decode(bytes: &[u8]) -> Result<Envelope, WireError> {
        let (env, rest): (Envelope, &[u8]) =
            postcard::take_from_bytes(bytes).map_err(|e| WireError::Malformed(e.to_string()))?;
        if !rest.is_empty() {
            return Err(WireError::TrailingBytes(rest.len()));
        }
        env.body.validate()?;
        Ok(env)
    }
}

/// Every message body. The variant order is the wire tag and is frozen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Body {
    /// Tag 0. Greeting carried inside the Noise handshake (messages 2 and 3).
    Hello(Hello),
    /// Tag 1. Proposes a game.
    Propose(Propose),
    /// Tag 2. Accepts the pending proposal.
    Accept(Accept),
    /// Tag 3. Declines the pending proposal.
    Decline {
        /// Why.
        reason: DeclineReason,
    },
    /// Tag 4. A move.
    Move(MoveMsg),
    /// Tag 5. Asks to take back moves until the position has `ply` moves.
    UndoRequest {
        /// Ply count of the position to go back to.
        ply: u32,
    },
    /// Tag 6. Answers an [`Body::UndoRequest`].
    UndoReply {
        /// True to take back.
        accept: bool,
    },
    /// Tag 7. Offers a draw.
    DrawOffer,
    /// Tag 8. Answers a [`Body::DrawOffer`]; `ply` is the position the answer was given in.
    DrawReply {
        /// True to agree to the draw.
        accept: bool,
        /// Ply count of the sender's position when answering.
        ply: u32,
    },
    /// Tag 9. The sender resigns in the position with `ply` moves.
    Resign {
        /// Ply count of the sender's position.
        ply: u32,
    },
    /// Tag 10. The sender's clock ran out in the position with `ply` moves.
    Flag {
        /// Ply count of the sender's position.
        ply: u32,
    },
    /// Tag 11. Keepalive.
    Ping,
    /// Tag 12. Answer to [`Body::Ping`].
    Pong,
    /// Tag 13. First message on every link after the handshake.
    Resume(Resume),
    /// Tag 14. The sender ends the session.
    Bye,
    /// Tag 15. The sender could not handle a message.
    Error {
        /// What went wrong.
        code: ErrorCode,
    },
    /// Tag 16. Carries only the header's acknowledgement.
    Ack,
    /// Tag 17. The fair draw of a chance step (jieqi's reveals): the next link of the
    /// sender's hash chain, committed to in the match's parameters
    /// ([`fairdraw`](crate::fairdraw)). Only sent in matches of games that use the fair
    /// draw ([`CAP_JIEQI`]). 12 bytes in an envelope.
    Reveal {
        /// The next link of the sender's chain (its index is the number of links the
        /// sender released before, plus one).
        link: crate::fairdraw::Link,
    },
    /// Tag 18. The sender claims a draw that the rules allow in the position with `ply`
    /// moves, where it is the sender's turn (chess: threefold repetition, the fifty-move
    /// rule). The receiver checks the claim against its own position.
    ClaimDraw {
        /// Ply count of the position the claim is made in.
        ply: u32,
    },
    /// Tag 19. The sender refused the receiver's latest move (illegal there, or its hash
    /// differs): the sender's position has `ply` moves and this hash. The receiver sets
    /// its position back to that ply if its own position there has the same hash, and
    /// plays again; otherwise it answers [`Body::Abort`].
    Resync {
        /// Ply count of the sender's position.
        ply: u32,
        /// Low 32 bits of the sender's position hash.
        hash: u32,
    },
    /// Tag 20. The sender abandons the game without a result: the two sides could not
    /// agree on the position.
    Abort {
        /// Why.
        reason: AbortReason,
    },
    /// Tag 21. The receiver's time ran out in the position with `ply` moves, as the sender
    /// measured it (a peer's claimed thinking time is capped by the time measured on
    /// the other side).
    TimeForfeit {
        /// Ply count of the sender's position.
        ply: u32,
    },
    /// Tag 22. The sender's part of a shared seed (the Lines race), committed to in its
    /// per-game parameters ([`seed`](crate::seed), [`race`](crate::race)). 34 bytes in an
    /// envelope.
    SeedReveal {
        /// The value committed to.
        value: [u8; 32],
    },
    /// Tag 23. A move of the sender's own board in a race (both sides move at the same
    /// time; [`race`](crate::race)). 6 bytes in an envelope while `turn < 16384`.
    RaceMove {
        /// The sender's turn number (0 = first).
        turn: u32,
        /// Start cell index (0–80).
        from: u8,
        /// Destination cell index (0–80).
        to: u8,
    },
    /// Tag 24. The sender's race time is up after `turns` moves.
    RaceStop {
        /// Moves the sender played.
        turns: u32,
    },
    /// Tag 25. The receiver's stop did not arrive within the grace period after the
    /// sender's time limit: the sender counted the receiver's board after `turns` moves
    /// (the moves it had received), and the receiver counts its own board there too, so
    /// both sides end with the same result ([`race`](crate::race)).
    RaceCut {
        /// The receiver's moves the sender counted.
        turns: u32,
    },
}

impl Body {
    /// True for bodies carried by the reliable, ordered stream (numbered, acknowledged,
    /// retransmitted, delivered exactly once). Link-level bodies (`Hello`, `Ping`, `Pong`,
    /// `Resume`, `Bye`, `Error`, `Ack`) are not.
    pub fn is_sequenced(&self) -> bool {
        !matches!(
            self,
            Body::Hello(_)
                | Body::Ping
                | Body::Pong
                | Body::Resume(_)
                | Body::Bye
                | Body::Error { .. }
                | Body::Ack
        )
    }

    /// A short name for logs and errors.
    pub fn name(&self) -> &'static str {
        match self {
            Body::Hello(_) => "Hello",
            Body::Propose(_) => "Propose",
            Body::Accept(_) => "Accept",
            Body::Decline { .. } => "Decline",
            Body::Move(_) => "Move",
            Body::UndoRequest { .. } => "UndoRequest",
            Body::UndoReply { .. } => "UndoReply",
            Body::DrawOffer => "DrawOffer",
            Body::DrawReply { .. } => "DrawReply",
            Body::Resign { .. } => "Resign",
            Body::Flag { .. } => "Flag",
            Body::Ping => "Ping",
            Body::Pong => "Pong",
            Body::Resume(_) => "Resume",
            Body::Bye => "Bye",
            Body::Error { .. } => "Error",
            Body::Ack => "Ack",
            Body::Reveal { .. } => "Reveal",
            Body::ClaimDraw { .. } => "ClaimDraw",
            Body::Resync { .. } => "Resync",
            Body::Abort { .. } => "Abort",
            Body::TimeForfeit { .. } => "TimeForfeit",
            Body::SeedReveal { .. } => "SeedReveal",
            Body::RaceMove { .. } => "RaceMove",
            Body::RaceStop { .. } => "RaceStop",
            Body::RaceCut { .. } => "RaceCut",
        }
    }

    /// Checks the length limits of names, start positions and parameters (done by
    /// [`Envelope::decode`]; a sender checks before sending).
    pub fn validate(&self) -> Result<(), WireError> {
        match self {
            Body::Hello(h) if h.name.len() > MAX_NAME_LEN => {
                Err(WireError::NameTooLong(h.name.len()))
            }
            Body::Propose(p) => p.validate(),
            Body::Accept(a) if a.params.len() > MAX_PARAMS_LEN => {
                Err(WireError::ParamsTooLong(a.params.len()))
            }
            _ => Ok(()),
        }
    }
}

/// Greeting exchanged inside the Noise handshake.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    /// The sender's [`PROTOCOL_VERSION`](crate::PROTOCOL_VERSION).
    pub version: u8,
    /// Capability bits (`CAP_*`).
    pub caps: u32,
    /// The sender's display name (at most [`MAX_NAME_LEN`] bytes).
    pub name: String,
    /// Short-authentication-string material: the responder's commitment to its nonce
    /// (handshake message 2) or the initiator's nonce (message 3). See [`crate::sas`].
    pub sas: [u8; 32],
}

impl Hello {
    /// The bytes carried as a Noise handshake payload: the postcard encoding of
    /// `Body::Hello(self)`.
    pub fn to_payload(&self) -> Vec<u8> {
        postcard::to_allocvec(&Body::Hello(self.clone())).unwrap_or_default()
    }

    /// Decodes a handshake payload made by [`Hello::to_payload`].
    pub fn from_payload(bytes: &[u8]) -> Result<Hello, WireError> {
        let (body, rest): (Body, &[u8]) =
            postcard::take_from_bytes(bytes).map_err(|e| WireError::Malformed(e.to_string()))?;
        if !rest.is_empty() {
            return Err(WireError::TrailingBytes(rest.len()));
        }
        body.validate()?;
        match body {
            Body::Hello(h) => Ok(h),
            other => Err(WireError::Malformed(format!(
                "expected Hello in the handshake, got {}",
                other.name()
            ))),
        }
    }
}

/// A game proposal: everything both sides need to set the game up the same way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Propose {
    /// The game, see [`game_code`].
    pub game: u8,
    /// Index of the rule set of that game, as both applications number them
    /// ([`MatchGame::rules`](banco_game::MatchGame::rules); 0 is the usual rules).
    pub rules: u8,
    /// The colour the proposer plays.
    #[serde(with = "color_serde")]
    pub color: Color,
    /// The clock, or `None` for an untimed game.
    pub clock: Option<ClockSpec>,
    /// The start position in the game's FEN (at most [`MAX_FEN_LEN`] bytes), or `None`
    /// for the game's usual start.
    pub fen: Option<String>,
    /// Per-game parameters of the proposer (at most [`MAX_PARAMS_LEN`] bytes; empty for
    /// games that have none, such as xiangqi and chess).
    pub params: Vec<u8>,
}

impl Propose {
    fn validate(&self) -> Result<(), WireError> {
        if let Some(fen) = &self.fen
            && fen.len() > MAX_FEN_LEN
        {
            return Err(WireError::FenTooLong(fen.len()));
        }
        if self.params.len() > MAX_PARAMS_LEN {
            return Err(WireError::ParamsTooLong(self.params.len()));
        }
        Ok(())
    }
}

/// The answer that starts the proposed game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Accept {
    /// Per-game parameters of the accepting side (at most [`MAX_PARAMS_LEN`] bytes; empty
    /// for games that have none).
    pub params: Vec<u8>,
}

/// A clock setting: base time plus an increment per move (Fischer).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ClockSpec {
    /// Starting time of each side, in milliseconds.
    pub base_ms: u32,
    /// Time added after each move, in milliseconds.
    pub increment_ms: u32,
}

/// A move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveMsg {
    /// Low 8 bits of the ply count of the position the move is played in (0 for the first
    /// move): a check on ordering, both sides know the full count.
    pub ply: u8,
    /// The move in the game's `u16` wire encoding.
    pub mv: u16,
    /// Low 32 bits of the position hash after the move, sent as 4 fixed bytes.
    #[serde(with = "fixed_u32")]
    pub hash: u32,
    /// The mover's thinking time for this move in units of 100 ms (0 in untimed games).
    pub clock: u32,
}

/// First message on every link after the handshake, repeated until the peer's arrives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resume {
    /// Session identifier (derived from the first link's handshake hash).
    pub session: [u8; 8],
    /// Number of sequenced messages received in order so far (the next expected one).
    pub last_seen: u32,
    /// The responder's SAS nonce, revealed after the initiator's nonce is known
    /// (`None` from the initiator).
    pub sas_reveal: Option<[u8; 32]>,
}

/// Why a proposal was declined (forward compatible: unknown values decode).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DeclineReason(pub u8);

impl DeclineReason {
    /// The player said no.
    pub const DECLINED: DeclineReason = DeclineReason(0);
    /// The game is not supported by the peer.
    pub const UNSUPPORTED_GAME: DeclineReason = DeclineReason(1);
    /// The rule set index is unknown to the peer.
    pub const UNSUPPORTED_RULES: DeclineReason = DeclineReason(2);
    /// The peer is in a game.
    pub const BUSY: DeclineReason = DeclineReason(3);
    /// The start position is not a position of the game the peer can play (bad FEN, or a
    /// game that is already over).
    pub const BAD_POSITION: DeclineReason = DeclineReason(4);
    /// Never sent: reported locally when our proposal crossed the peer's and the peer's
    /// stands (the order of the static keys decides, the same on both sides).
    pub const CROSSED: DeclineReason = DeclineReason(5);
    /// The per-game parameters are not what the game expects (for games that have some).
    pub const BAD_PARAMS: DeclineReason = DeclineReason(6);
    /// The clock's base time is below [`MIN_CLOCK_BASE_MS`].
    pub const CLOCK_TOO_SHORT: DeclineReason = DeclineReason(7);
    /// A Lines race without a time limit (from an older app): every race has one, so that
    /// a player who stops moving cannot keep the other from a result.
    pub const RACE_UNTIMED: DeclineReason = DeclineReason(8);

    /// A few words for people.
    pub fn text(self) -> &'static str {
        match self.0 {
            0 => "the other player declined",
            1 => "the other player does not offer this game",
            2 => "the other player's app does not know these rules",
            3 => "the other player is in a game",
            4 => "the other player's app cannot start from this position",
            5 => "your proposal crossed the other player's, which stands",
            6 => {
                "the other player's app refused the game's parameters (an older app may not \
                 know an option such as Lines 98's preview: update it, or leave the option out)"
            }
            7 => "the clock is shorter than the minimum of 10 seconds",
            8 => {
                "the other player's app plays Lines races with a time limit only (2 minutes to \
                 an hour): propose one with a limit"
            }
            _ => "declined for an unknown reason",
        }
    }
}

/// Why a game was abandoned without a result ([`Body::Abort`]; forward compatible:
/// unknown values decode).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AbortReason(pub u8);

impl AbortReason {
    /// The two sides' positions differ at the ply one of them asked to resynchronise to.
    pub const POSITIONS_DIFFER: AbortReason = AbortReason(0);
    /// Too many moves were refused in this game (see [`MAX_REFUSALS`]).
    pub const TOO_MANY_REFUSALS: AbortReason = AbortReason(1);
    /// The other side declared this side's time out in a position where this side was
    /// not to move, while a crossing on the wire (an undo, a refused move, a move still
    /// unacknowledged) could not be ruled out; without one, the claim is false and its
    /// sender loses the game instead.
    pub const CLOCKS_DIFFER: AbortReason = AbortReason(2);
    /// The other player left the game without a result, for no reason this side could
    /// corroborate (see the session's `resync` module). Reported by the receiving
    /// session; a peer that sends it says as much.
    pub const ABANDONED: AbortReason = AbortReason(3);
    /// A Lines race that never started: the sender's wait for the receiver's part of the
    /// seed ran out, and it called the race off without a result
    /// ([`RaceEnd::NoSeed`](crate::race::RaceEnd::NoSeed)). Sent only to a peer that
    /// announced [`CAP_LINES_NO_SEED`].
    pub const NO_SEED: AbortReason = AbortReason(4);

    /// A few words for people.
    pub fn text(self) -> &'static str {
        match self.0 {
            0 => "the two devices disagree on the position",
            1 => "too many moves were refused by the other device",
            2 => "the two devices' clocks disagree",
            3 => "the other player left the game",
            4 => "the race never started: a part of the seed did not arrive in time",
            _ => "abandoned for an unknown reason",
        }
    }
}

impl core::fmt::Display for AbortReason {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.text())
    }
}

/// Refused moves ([`Body::Resync`]) a game survives; the next refusal abandons it
/// ([`AbortReason::TOO_MANY_REFUSALS`]), so a peer whose rules disagree with ours cannot
/// loop for ever.
pub const MAX_REFUSALS: u32 = 3;

/// The shortest base time of a clock a session plays or proposes, in milliseconds: a
/// proposal below it is declined with [`DeclineReason::CLOCK_TOO_SHORT`] (a host offering
/// 100 ms would win every game on time).
pub const MIN_CLOCK_BASE_MS: u32 = 10_000;

/// Error codes of [`Body::Error`] (forward compatible: unknown values decode).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ErrorCode(pub u16);

impl ErrorCode {
    /// A message could not be decoded.
    pub const MALFORMED: ErrorCode = ErrorCode(1);
    /// The protocol versions differ.
    pub const VERSION: ErrorCode = ErrorCode(2);
    /// The session of a `Resume` is unknown.
    pub const UNKNOWN_SESSION: ErrorCode = ErrorCode(3);
    /// A move was illegal.
    pub const ILLEGAL_MOVE: ErrorCode = ErrorCode(4);
    /// A move's hash differed from ours.
    pub const DESYNC: ErrorCode = ErrorCode(5);
    /// A message made no sense in the current state.
    pub const UNEXPECTED: ErrorCode = ErrorCode(6);
    /// The peer is sending too fast.
    pub const RATE_LIMITED: ErrorCode = ErrorCode(7);
    /// The message is known but not supported.
    pub const UNSUPPORTED: ErrorCode = ErrorCode(8);
    /// A draw claim that our position does not allow; it was ignored.
    pub const BAD_CLAIM: ErrorCode = ErrorCode(9);
    /// The host's player said the codes differ: the device that dialled is turned away
    /// and should stop (it would only show a new code on the next link).
    pub const CODE_REJECTED: ErrorCode = ErrorCode(10);

    /// A few words for people.
    pub fn text(self) -> &'static str {
        match self.0 {
            1 => "malformed message",
            2 => "protocol version mismatch",
            3 => "unknown session",
            4 => "illegal move",
            5 => "positions differ (desync)",
            6 => "unexpected message",
            7 => "rate limited",
            8 => "unsupported message",
            9 => "draw claim refused",
            10 => "the other player said the codes differ",
            _ => "unknown error",
        }
    }
}

/// The wire code of a game kind.
pub fn game_code(kind: GameKind) -> u8 {
    match kind {
        GameKind::Xiangqi => 0,
        GameKind::Jieqi => 1,
        GameKind::Chess => 2,
        GameKind::Lines => 3,
    }
}

/// The game kind of a wire code, if known.
pub fn game_from_code(code: u8) -> Option<GameKind> {
    match code {
        0 => Some(GameKind::Xiangqi),
        1 => Some(GameKind::Jieqi),
        2 => Some(GameKind::Chess),
        3 => Some(GameKind::Lines),
        _ => None,
    }
}

/// The capability bit announcing that a game is offered.
pub fn cap_of(kind: GameKind) -> u32 {
    match kind {
        GameKind::Xiangqi => CAP_XIANGQI,
        GameKind::Jieqi => CAP_JIEQI,
        GameKind::Chess => CAP_CHESS,
        GameKind::Lines => CAP_LINES,
    }
}

/// The capability bits announcing `games` (what [`Hello::caps`] carries): with Lines,
/// [`CAP_LINES_PREVIEW`], [`CAP_LINES_SPOTS`] and [`CAP_LINES_NO_SEED`] too.
///
/// ```
/// use banco_game::GameKind;
/// use banco_protocol::message::*;
/// assert_eq!(caps_of(&[GameKind::Chess]), CAP_CHESS);
/// assert_eq!(
///     caps_of(&[GameKind::Lines]),
///     CAP_LINES | CAP_LINES_PREVIEW | CAP_LINES_SPOTS | CAP_LINES_NO_SEED
/// );
/// ```
pub fn caps_of(games: &[GameKind]) -> u32 {
    games.iter().fold(0, |caps, g| match g {
        GameKind::Lines => {
            caps | CAP_LINES | CAP_LINES_PREVIEW | CAP_LINES_SPOTS | CAP_LINES_NO_SEED
        }
        g => caps | cap_of(*g),
    })
}

/// The games that capability bits announce, in [`GameKind::ALL`] order (unknown bits are
/// ignored).
pub fn offered_games(caps: u32) -> Vec<GameKind> {
    GameKind::ALL
        .into_iter()
        .filter(|g| caps & cap_of(*g) != 0)
        .collect()
}

mod color_serde {
    use banco_game::Color;
    use serde::{Deserialize, Deserializer, Serializer, de::Error as _};

    pub(super) fn serialize<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(c.index() as u8)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        match u8::deserialize(d)? {
            0 => Ok(Color::Red),
            1 => Ok(Color::Black),
            other => Err(D::Error::custom(format_args!(
                "colour {other} is neither red (0) nor black (1)"
            ))),
        }
    }
}

mod fixed_u32 {
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(v: &u32, s: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(&v.to_le_bytes(), s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        Ok(u32::from_le_bytes(<[u8; 4]>::deserialize(d)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_packs_nibbles() {
        let e = Envelope::new(0x1f, 0x23, Body::Ack);
        assert_eq!((e.seq, e.ack), (0xf, 0x3));
        assert_eq!(e.encode(), vec![0xf3, 16]);
    }

    #[test]
    fn trailing_bytes_rejected() {
        let mut b = Envelope::new(1, 1, Body::Ping).encode();
        b.push(0);
        assert_eq!(Envelope::decode(&b), Err(WireError::TrailingBytes(1)));
    }

    #[test]
    fn long_name_rejected() {
        let h = Hello {
            version: 1,
            caps: 0,
            name: "x".repeat(65),
            sas: [0; 32],
        };
        let b = Envelope::new(0, 0, Body::Hello(h)).encode();
        assert_eq!(Envelope::decode(&b), Err(WireError::NameTooLong(65)));
    }

    #[test]
    fn game_codes_round_trip() {
        for k in GameKind::ALL {
            assert_eq!(game_from_code(game_code(k)), Some(k));
            assert_eq!(offered_games(cap_of(k)), vec![k]);
        }
        assert_eq!(game_from_code(9), None);
        let both = caps_of(&[GameKind::Chess, GameKind::Xiangqi]);
        assert_eq!(both, CAP_XIANGQI | CAP_CHESS);
        assert_eq!(
            offered_games(both | 1 << 30),
            [GameKind::Xiangqi, GameKind::Chess]
        );
    }

    #[test]
    fn long_fen_and_params_rejected() {
        let p = Propose {
            game: 2,
            rules: 0,
            color: Color::Red,
            clock: None,
            fen: Some("8".repeat(MAX_FEN_LEN + 1)),
            params: Vec::new(),
        };
        let b = Envelope::new(0, 0, Body::Propose(p.clone())).encode();
        assert_eq!(
            Envelope::decode(&b),
            Err(WireError::FenTooLong(MAX_FEN_LEN + 1))
        );
        let p = Propose {
            fen: None,
            params: vec![7; MAX_PARAMS_LEN + 1],
            ..p
        };
        let b = Envelope::new(0, 0, Body::Propose(p)).encode();
        assert_eq!(
            Envelope::decode(&b),
            Err(WireError::ParamsTooLong(MAX_PARAMS_LEN + 1))
        );
        let a = Accept {
            params: vec![0; MAX_PARAMS_LEN + 1],
        };
        let b = Envelope::new(0, 0, Body::Accept(a)).encode();
        assert_eq!(
            Envelope::decode(&b),
            Err(WireError::ParamsTooLong(MAX_PARAMS_LEN + 1))
        );
        let a = Accept {
            params: vec![0; MAX_PARAMS_LEN],
        };
        let b = Envelope::new(0, 0, Body::Accept(a.clone())).encode();
        assert_eq!(Envelope::decode(&b).map(|e| e.body), Ok(Body::Accept(a)));
    }
}
