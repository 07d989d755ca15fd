//! Search limits: depth, nodes, move time, a clock with increment, or infinite (until the
//! stop flag is raised). Limits combine: the search ends at the first one reached.
//!
//! ```
//! use banco_engine::Limits;
//! let l = Limits::depth(6).with_nodes(100_000);
//! assert_eq!((l.depth, l.nodes), (Some(6), Some(100_000)));
//! assert!(!l.is_timed());
//! assert!(Limits::movetime(1000).is_timed());
//! ```

/// The remaining time on a clock, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left for the side to move.
    pub time_ms: u64,
    /// Increment per move.
    pub inc_ms: u64,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
    /// Milliseconds a move costs beyond the search (the interface, the pipe, the system):
    /// kept back from the clock on every move. UCI's `Move Overhead`; `None` for
    /// [`timeman::DEFAULT_OVERHEAD_MS`](crate::timeman::DEFAULT_OVERHEAD_MS).
    pub overhead_ms: Option<u64>,
}

/// When a search stops. See the module docs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration (plies).
    pub depth: Option<u32>,
    /// Nodes to search at most.
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime_ms: Option<u64>,
    /// A game clock.
    pub clock: Option<Clock>,
    /// Search until stopped (other limits are ignored but depth caps at the maximum ply).
    pub infinite: bool,
}

impl Limits {
    /// No limit but the stop flag (and the deepest ply).
    #[must_use]
    pub fn infinite() -> Limits {
        Limits {
            infinite: true,
            ..Limits::default()
        }
    }

    /// To a fixed depth.
    #[must_use]
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// At most `nodes` nodes.
    #[must_use]
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// For `ms` milliseconds.
    #[must_use]
    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime_ms: Some(ms),
            ..Limits::default()
        }
    }

    /// On a clock.
    #[must_use]
    pub fn clock(time_ms: u64, inc_ms: u64) -> Limits {
        Limits {
            clock: Some(Clock {
                time_ms,
                inc_ms,
                moves_to_go: None,
                overhead_ms: None,
            }),
            ..Limits::default()
        }
    }

    /// Adds a node limit.
    #[must_use]
    pub fn with_nodes(mut self, nodes: u64) -> Limits {
        self.nodes = Some(nodes);
        self
    }

    /// Adds a depth limit.
    #[must_use]
    pub fn with_depth(mut self, depth: u32) -> Limits {
        self.depth = Some(depth);
        self
    }

    /// True if the limits involve the wall clock (results then depend on the machine).
    #[must_use]
    pub fn is_timed(&self) -> bool {
        !self.infinite && (self.movetime_ms.is_some() || self.clock.is_some())
    }
}
