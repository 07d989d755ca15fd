//! Settings of a [`Session`](crate::Session) and of a [`Channel`](crate::Channel), the
//! description of a game ([`MatchSpec`]), a copy of a match's state ([`MatchSnapshot`]) and
//! counters ([`Stats`]).

use crate::fairdraw::FairTranscript;
use crate::message::{AbortReason, ClockSpec, caps_of};
use crate::peers::KnownPeers;
use banco_game::{Color, DrawReason, Game, GameKind, Outcome};

/// Timers of a session, in milliseconds. The defaults suit phones on BLE or Wi-Fi.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// First retransmission timeout (doubled on each retry).
    pub rto_ms: u64,
    /// Longest retransmission timeout.
    pub rto_max_ms: u64,
    /// Send a `Ping` after this long without sending anything.
    pub keepalive_ms: u64,
    /// Declare the link dead after this long without hearing from the peer.
    pub dead_peer_ms: u64,
    /// Give up a link whose handshake and resume exchange take longer than this.
    pub handshake_timeout_ms: u64,
    /// Hold an acknowledgement this long for a message of our own to carry it (a move
    /// answered at once then costs one frame each way, not two); 0 acknowledges every
    /// message at once with a frame of its own. Keep it well under `rto_ms`.
    pub ack_delay_ms: u64,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            rto_ms: 300,
            rto_max_ms: 4_000,
            keepalive_ms: 5_000,
            dead_peer_ms: 20_000,
            handshake_timeout_ms: 10_000,
            ack_delay_ms: 5,
        }
    }
}

/// What a [`Session`](crate::Session) needs to know before the first link.
///
/// ```
/// use banco_game::GameKind;
/// use banco_protocol::SessionConfig;
/// use banco_protocol::message::{CAP_CHESS, CAP_XIANGQI};
///
/// let config = SessionConfig::new("An", &[GameKind::Xiangqi, GameKind::Chess]);
/// assert_eq!(config.caps(), CAP_XIANGQI | CAP_CHESS);
/// ```
#[derive(Clone, Debug)]
pub struct SessionConfig {
    /// The local player's display name (cut to 64 bytes).
    pub name: String,
    /// The games this side offers, announced to the peer in `Hello` (as capability bits)
    /// and on the LAN. Either side may propose any game both offer; a proposal of another
    /// game is declined. Games the session's type cannot be
    /// ([`MatchGame::kinds`](banco_game::MatchGame::kinds)) are dropped by
    /// [`Session::new`](crate::Session::new).
    pub offers: Vec<GameKind>,
    /// Remembered peers: a peer whose key is here skips the code comparison.
    pub known_peers: KnownPeers,
    /// The key fingerprint of the player this side means to reach, as a lobby listed it
    /// (mDNS, Bluetooth info; see [`PublicKey::matches_fingerprint`]), or `None`. A
    /// listing is unauthenticated — anyone nearby can copy a fingerprint into a record of
    /// their own — so the handshake checks it: a link whose peer has another key goes down
    /// at once ([`LinkDownReason::NotTheListedPlayer`]) before any code is shown.
    ///
    /// [`PublicKey::matches_fingerprint`]: crate::crypto::PublicKey::matches_fingerprint
    /// [`LinkDownReason::NotTheListedPlayer`]: crate::LinkDownReason::NotTheListedPlayer
    pub expected_peer: Option<String>,
    /// Timers.
    pub timing: Timing,
}

impl SessionConfig {
    /// A configuration offering `offers`, with no known peers and default timers.
    pub fn new(name: &str, offers: &[GameKind]) -> Self {
        SessionConfig {
            name: name.to_owned(),
            offers: offers.to_vec(),
            known_peers: KnownPeers::new(),
            expected_peer: None,
            timing: Timing::default(),
        }
    }

    /// The capability bits announced in `Hello`: one per offered game
    /// ([`caps_of`]).
    pub fn caps(&self) -> u32 {
        caps_of(&self.offers)
    }
}

/// What a [`Channel`](crate::Channel) needs to know before the first link.
#[derive(Clone, Debug)]
pub struct ChannelConfig {
    /// The local player's display name (cut to 64 bytes).
    pub name: String,
    /// Capability bits announced in `Hello` (`message::CAP_*`).
    pub caps: u32,
    /// Remembered peers: a peer whose key is here skips the code comparison.
    pub known_peers: KnownPeers,
    /// The listed fingerprint of the peer to reach ([`SessionConfig::expected_peer`]).
    pub expected_peer: Option<String>,
    /// Timers.
    pub timing: Timing,
}

impl ChannelConfig {
    /// A configuration announcing `caps`, with no known peers and default timers.
    pub fn new(name: &str, caps: u32) -> Self {
        ChannelConfig {
            name: name.to_owned(),
            caps,
            known_peers: KnownPeers::new(),
            expected_peer: None,
            timing: Timing::default(),
        }
    }
}

/// A game as proposed or agreed, seen from the local side.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MatchSpec {
    /// The game.
    pub game: GameKind,
    /// Index of the rule set of that game
    /// ([`MatchGame::rules`](banco_game::MatchGame::rules); 0 is the usual rules).
    pub rules: u8,
    /// The colour the local player plays.
    pub local_color: Color,
    /// The clock, or `None` for an untimed game.
    pub clock: Option<ClockSpec>,
    /// The start position (the game's FEN), or `None` for the game's usual start. A
    /// proposal sends the position as the game writes it back
    /// ([`MatchGame::fen`](banco_game::MatchGame::fen)), so both sides hold the same text.
    pub start_fen: Option<String>,
    /// The local side's per-game parameters (sent in `Propose` or `Accept`; at most 256
    /// bytes; empty for games without any). In games with the fair draw
    /// ([`uses_fair_draw`](crate::fairdraw::uses_fair_draw)) the session puts its 11-byte
    /// commitment first: give only the application's own parameters to
    /// [`Session::propose`](crate::Session::propose); the agreed spec shows the bytes sent.
    pub local_params: Vec<u8>,
    /// The peer's per-game parameters (empty until it sent them).
    pub peer_params: Vec<u8>,
}

impl MatchSpec {
    /// The usual start of `game` under rule set 0, untimed, without parameters.
    pub fn new(game: GameKind, local_color: Color) -> Self {
        MatchSpec {
            game,
            rules: 0,
            local_color,
            clock: None,
            start_fen: None,
            local_params: Vec::new(),
            peer_params: Vec::new(),
        }
    }
}

/// A copy of the match state at one moment (what
/// [`Session::snapshot`](crate::Session::snapshot) returns): what a front end draws.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSnapshot<G: Game> {
    /// The game as agreed.
    pub spec: MatchSpec,
    /// The current position (the session's own, validated game).
    pub game: G,
    /// The moves from the start position to the current one.
    pub moves: Vec<G::Move>,
    /// How the game ended, if it did with a result.
    pub outcome: Option<Outcome>,
    /// Why the game was abandoned without a result, if it was.
    pub aborted: Option<AbortReason>,
    /// Remaining time of `[red, black]` in milliseconds, for timed games.
    pub clocks: Option<[u64; 2]>,
    /// The side whose clock runs (none in untimed games, once the game is over, and never
    /// both): the side to move, or the peer while a fair draw waits for its link.
    pub running_clock: Option<Color>,
    /// A draw the local player may claim now ([`Session::claim_draw`](crate::Session::claim_draw)).
    pub claimable_draw: Option<DrawReason>,
    /// Our draw offer, made on our own turn, waits for our next move, which sends it
    /// ([`Session::offer_draw`](crate::Session::offer_draw)).
    pub draw_offer_held: bool,
    /// The fair draws of the match so far, for games that use it (both commitments and
    /// the draw of every chance outcome in `moves`; [`FairTranscript::verify`] checks
    /// them).
    pub fair_draws: Option<FairTranscript>,
}

/// Counters of a session, for diagnostics and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Frames handed to the driver.
    pub frames_sent: u64,
    /// Frames received from the driver.
    pub frames_received: u64,
    /// Frames dropped (all reasons).
    pub frames_rejected: u64,
    /// Frames dropped by the rate limit.
    pub rate_limited: u64,
    /// Sequenced messages sent again after a timeout or a reconnect.
    pub retransmissions: u64,
    /// Links started.
    pub links: u64,
}
