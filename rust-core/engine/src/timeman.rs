//! Time management: turns [`Limits`] into a soft deadline (do not start another
//! iteration after it) and a hard deadline (abort the search), both measured from the
//! start of the search. The wall clock is read only when the limits ask for time.
//!
//! ```
//! use banco_engine::{Limits, timeman::Budget};
//! let b = Budget::from_limits(&Limits::clock(60_000, 1_000));
//! assert!(b.soft_ms.unwrap() < b.hard_ms.unwrap());
//! assert!(b.hard_ms.unwrap() < 60_000 / 4);
//! assert_eq!(Budget::from_limits(&Limits::depth(5)).hard_ms, None);
//! ```

use crate::limits::Limits;
use std::time::Instant;

/// Time kept in reserve for the protocol and the operating system.
const OVERHEAD_MS: u64 = 15;

/// Soft and hard deadlines in milliseconds from the start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// No new iteration after this.
    pub soft_ms: Option<u64>,
    /// Abort after this.
    pub hard_ms: Option<u64>,
}

impl Budget {
    /// The budget for `limits`.
    #[must_use]
    pub fn from_limits(limits: &Limits) -> Budget {
        if limits.infinite {
            return Budget::default();
        }
        let mut b = Budget::default();
        if let Some(ms) = limits.movetime_ms {
            let t = ms.saturating_sub(OVERHEAD_MS).max(1);
            b.soft_ms = Some(t);
            b.hard_ms = Some(t);
        }
        if let Some(c) = limits.clock {
            let left = c.time_ms.saturating_sub(OVERHEAD_MS).max(1);
            let moves = u64::from(c.moves_to_go.unwrap_or(30).clamp(1, 40));
            let soft = (left / moves + c.inc_ms * 3 / 4).min(left / 3).max(1);
            let hard = (soft * 4).min(left / 5 + c.inc_ms / 2).min(left).max(soft);
            b.soft_ms = Some(b.soft_ms.map_or(soft, |s| s.min(soft)));
            b.hard_ms = Some(b.hard_ms.map_or(hard, |h| h.min(hard)));
        }
        b
    }
}

/// The running clock of one search.
#[derive(Clone, Copy, Debug)]
pub struct Timer {
    start: Option<Instant>,
    budget: Budget,
}

impl Timer {
    /// Starts timing. The clock only decides anything when the budget has deadlines;
    /// otherwise it is read for reports (time, nodes per second) only.
    #[must_use]
    pub fn start(limits: &Limits) -> Timer {
        Timer {
            start: Some(Instant::now()),
            budget: Budget::from_limits(limits),
        }
    }

    /// Milliseconds since the start.
    #[must_use]
    pub fn elapsed_ms(&self) -> u64 {
        self.start.map_or(0, |s| s.elapsed().as_millis() as u64)
    }

    /// True when the hard deadline has passed.
    #[must_use]
    pub fn hard_expired(&self) -> bool {
        self.budget.hard_ms.is_some_and(|h| self.elapsed_ms() >= h)
    }

    /// True when no new iteration should start; `scale` (percent) stretches the soft
    /// deadline when the best move is unstable.
    #[must_use]
    pub fn soft_expired(&self, scale: u64) -> bool {
        self.budget
            .soft_ms
            .is_some_and(|s| self.elapsed_ms() >= s * scale / 100)
    }
}
