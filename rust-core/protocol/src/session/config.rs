//! Settings of a [`Session`](crate::Session), the description of a game ([`MatchSpec`]) and
//! counters ([`Stats`]).

use crate::message::{CAP_CHESS, CAP_JIEQI_REVEAL, CAP_XIANGQI, ClockSpec};
use crate::peers::KnownPeers;
use banco_game::{Color, Game, GameKind};

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
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            rto_ms: 300,
            rto_max_ms: 4_000,
            keepalive_ms: 5_000,
            dead_peer_ms: 20_000,
            handshake_timeout_ms: 10_000,
        }
    }
}

/// What a [`Session`](crate::Session) needs to know before the first link.
#[derive(Clone, Debug)]
pub struct SessionConfig<G: Game> {
    /// The local player's display name (cut to 64 bytes).
    pub name: String,
    /// The start position of every game.
    pub start: G,
    /// The rule sets the application offers, by wire index (both applications must use the
    /// same list; for xiangqi e.g. `[Asian, casual]`). Never empty.
    pub rules: Vec<G::Rules>,
    /// Remembered peers: a peer whose key is here skips the code comparison.
    pub known_peers: KnownPeers,
    /// Capability bits announced in `Hello` (`message::CAP_*`).
    pub caps: u32,
    /// Timers.
    pub timing: Timing,
}

impl<G: Game> SessionConfig<G> {
    /// A configuration with one rule set (the game's default), no known peers, default
    /// timers, and the capability bit of the game.
    pub fn new(name: &str, start: G) -> Self {
        let caps = match start.kind() {
            GameKind::Xiangqi => CAP_XIANGQI,
            GameKind::Jieqi => CAP_XIANGQI | CAP_JIEQI_REVEAL,
            GameKind::Chess => CAP_CHESS,
            GameKind::Lines => 0,
        };
        SessionConfig {
            name: name.to_owned(),
            start,
            rules: vec![G::Rules::default()],
            known_peers: KnownPeers::new(),
            caps,
            timing: Timing::default(),
        }
    }
}

/// A game as both players agreed on it, seen from the local side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MatchSpec {
    /// The game.
    pub game: GameKind,
    /// Index of the rule set in [`SessionConfig::rules`].
    pub rules: u8,
    /// The colour the local player plays.
    pub local_color: Color,
    /// The clock, or `None` for an untimed game.
    pub clock: Option<ClockSpec>,
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
