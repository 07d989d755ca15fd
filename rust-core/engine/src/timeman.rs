//! Time management: turns [`Limits`] into a soft deadline (do not start another
//! iteration after it) and a hard deadline (abort the search), both measured from the
//! start of the search. The wall clock is read only when the limits ask for time.
//!
//! On a clock ([`Clock`](crate::Clock)), every move first keeps back the clock's overhead
//! (what a move costs beyond the search: UCI's `Move Overhead`, [`DEFAULT_OVERHEAD_MS`]
//! when not given). Of the rest a move takes about the time left shared among the moves
//! to go (30 when the interface does not say) plus most of the increment, and at most a
//! fifth of the time left. With 1 to 5 moves to the end of the time control the caps are
//! 80 %, 70 %, 60 %, 50 %, 40 % of the time left (ElephantEye allows 100 % to 60 %; a
//! move that ends the control all of it, which lost on time under load). Short of time
//! without a time control — less than [`LOW_TIME_OVERHEADS`] overheads on the clock — a
//! move takes at most half the increment (or a twentieth of the time left, if more), so
//! the increment builds the clock back up instead of the moves draining it. A fixed move
//! time keeps back [`DEFAULT_OVERHEAD_MS`].
//!
//! The soft deadline stretches with the state of the search ([`soft_scale`]): a best move
//! that keeps changing or a score that just fell earns more time, a best move that has
//! stayed the same for several iterations less. The decision is a pure function of the
//! elapsed time ([`Budget::soft_passed`]), so it is tested with time passed in.
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

/// Milliseconds a move keeps back for the protocol and the operating system when its
/// clock does not say ([`Clock::overhead_ms`](crate::Clock::overhead_ms)), and on a fixed
/// move time.
pub const DEFAULT_OVERHEAD_MS: u64 = 15;

/// Below this many overheads on the clock (and no time control), a move takes at most
/// half the increment: 300 ms with UCI's default `Move Overhead` of 30 ms.
pub const LOW_TIME_OVERHEADS: u64 = 10;

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
            let t = ms.saturating_sub(DEFAULT_OVERHEAD_MS).max(1);
            b.soft_ms = Some(t);
            b.hard_ms = Some(t);
        }
        if let Some(c) = limits.clock {
            let (soft, hard) = clock_deadlines(&c);
            b.soft_ms = Some(b.soft_ms.map_or(soft, |s| s.min(soft)));
            b.hard_ms = Some(b.hard_ms.map_or(hard, |h| h.min(hard)));
        }
        b
    }
}

/// `a × num / den` without overflow (a GUI's times may be absurd), saturated at `u64::MAX`.
fn mul_div(a: u64, num: u64, den: u64) -> u64 {
    let q = u128::from(a) * u128::from(num) / u128::from(den.max(1));
    u64::try_from(q).unwrap_or(u64::MAX)
}

/// The soft and hard deadlines of a move on clock `c` (see the module docs).
fn clock_deadlines(c: &crate::Clock) -> (u64, u64) {
    let overhead = c.overhead_ms.unwrap_or(DEFAULT_OVERHEAD_MS);
    let left = c.time_ms.saturating_sub(overhead).max(1);
    if let Some(m @ 1..=5) = c.moves_to_go {
        // Few moves to the end of the time control: 80 % of the time left for the last
        // one, 10 points less for each move more.
        let m = u64::from(m);
        let hard = mul_div(left, 9 - m, 10).max(1);
        let soft = (left / (m + 1))
            .saturating_add(mul_div(c.inc_ms, 3, 4))
            .min(hard)
            .max(1);
        return (soft, hard);
    }
    let moves = u64::from(c.moves_to_go.unwrap_or(30).clamp(1, 40));
    let soft = (left / moves)
        .saturating_add(mul_div(c.inc_ms, 3, 4))
        .min(left / 3)
        .max(1);
    let mut hard = soft
        .saturating_mul(4)
        .min((left / 5).saturating_add(c.inc_ms / 2))
        .min(left)
        .max(soft);
    if c.moves_to_go.is_none() && c.time_ms < overhead.saturating_mul(LOW_TIME_OVERHEADS) {
        // Short of time with nothing but the increment to come: spend less than it.
        hard = hard.min((c.inc_ms / 2).max(left / 20)).max(1);
    }
    (soft.min(hard), hard)
}

impl Budget {
    /// True when a search `elapsed_ms` into its budget should start no new iteration,
    /// the soft deadline stretched by `scale` percent ([`soft_scale`]) but never past the
    /// hard deadline.
    #[must_use]
    pub fn soft_passed(&self, elapsed_ms: u64, scale: u64) -> bool {
        self.soft_ms.is_some_and(|s| {
            let stretched = mul_div(s, scale, 100);
            elapsed_ms >= self.hard_ms.map_or(stretched, |h| stretched.min(h))
        })
    }
}

/// The soft deadline's scale in percent: from the best move's `stability` (completed
/// iterations in a row that kept the same best move) and the `score_drop` of the last
/// iteration against the one before (centipawns, positive when the score fell; 0 when
/// either score is a mate). A changing best move or a falling score earns time (up to
/// 2.6× for a new best move whose score fell by a pawn or more); a best move stable for
/// four iterations or more stops at 70 %.
///
/// ```
/// use banco_engine::timeman::soft_scale;
/// assert!(soft_scale(0, 0) > soft_scale(4, 0));
/// assert!(soft_scale(4, 60) > soft_scale(4, 0));
/// assert_eq!(soft_scale(4, -50), soft_scale(4, 0)); // a rising score earns nothing
/// ```
#[must_use]
pub fn soft_scale(stability: u32, score_drop: i32) -> u64 {
    let base: u64 = match stability {
        0 => 160,
        1 => 120,
        2 | 3 => 90,
        _ => 70,
    };
    // +1 % per 1.6 centipawns of drop, up to +62 % at a pawn (100 cp).
    let drop = u64::try_from(score_drop.clamp(0, 100)).unwrap_or(0);
    base * (160 + drop) / 160
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

    /// True when no new iteration should start; `scale` (percent, [`soft_scale`])
    /// stretches the soft deadline ([`Budget::soft_passed`]).
    #[must_use]
    pub fn soft_expired(&self, scale: u64) -> bool {
        self.budget.soft_ms.is_some() && self.budget.soft_passed(self.elapsed_ms(), scale)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// Time passed in: 60 s on the clock, 30 moves to go.
    #[test]
    fn soft_deadline_follows_stability_and_score() {
        let b = Budget::from_limits(&Limits::clock(60_000, 0));
        let (soft, hard) = (b.soft_ms.unwrap(), b.hard_ms.unwrap());
        assert!(soft < hard);
        // A best move stable for 4 iterations stops at 70 % of the soft deadline...
        assert!(b.soft_passed(soft * 7 / 10, soft_scale(4, 0)));
        assert!(!b.soft_passed(soft * 7 / 10 - 1, soft_scale(4, 0)));
        // ...a new best move goes on to 160 %, and further when the score fell.
        assert!(!b.soft_passed(soft * 3 / 2, soft_scale(0, 0)));
        assert!(b.soft_passed(soft * 16 / 10, soft_scale(0, 0)));
        assert!(!b.soft_passed(soft * 16 / 10, soft_scale(0, 80)));
        // A falling score earns time even with a stable move; a rising one does not.
        assert!(b.soft_passed(soft * 3 / 4, soft_scale(4, 0)));
        assert!(!b.soft_passed(soft * 3 / 4, soft_scale(4, 50)));
        assert!(b.soft_passed(soft * 3 / 4, soft_scale(4, -200)));
        // Never past the hard deadline, however unstable.
        assert!(b.soft_passed(hard, soft_scale(0, 1_000)));
        // The scale grows with the drop and shrinks with stability.
        for d in 0..100 {
            assert!(soft_scale(0, d + 1) >= soft_scale(0, d));
        }
        for s in 0..6 {
            assert!(soft_scale(s + 1, 0) <= soft_scale(s, 0));
        }
        // No clock, no deadline.
        assert!(!Budget::from_limits(&Limits::depth(5)).soft_passed(u64::MAX, 100));
    }

    /// `go wtime 10000 btime 10000 movestogo 1` used 2,496 ms: the soft and hard deadlines
    /// were capped at a third of the time left although this move ends the control. (It
    /// may not use all of it either: 80 %, see
    /// `a_clock_short_of_time_is_not_drained`.)
    #[test]
    fn the_last_move_of_a_control_may_use_the_time_left() {
        let clock = |moves_to_go| Limits {
            clock: Some(crate::limits::Clock {
                time_ms: 10_000,
                inc_ms: 0,
                moves_to_go,
                overhead_ms: None,
            }),
            ..Limits::default()
        };
        let b = Budget::from_limits(&clock(Some(1)));
        let (soft, hard) = (b.soft_ms.unwrap(), b.hard_ms.unwrap());
        assert_eq!(hard, (10_000 - DEFAULT_OVERHEAD_MS) * 8 / 10);
        assert!(soft >= 4_000 && soft < hard, "{b:?}");
        // An unsettled search goes on to the hard deadline, a stable one stops earlier.
        assert!(!b.soft_passed(hard - 1, soft_scale(0, 100)));
        assert!(b.soft_passed(soft, soft_scale(4, 0)));
        // Fewer moves to go, more time; from 6 moves on the usual fifth at most.
        let hards: Vec<u64> = (1..=6)
            .map(|m| Budget::from_limits(&clock(Some(m))).hard_ms.unwrap())
            .collect();
        assert!(hards.windows(2).all(|w| w[0] > w[1]), "{hards:?}");
        assert_eq!(hards[5], (10_000 - DEFAULT_OVERHEAD_MS) / 5);
        assert_eq!(
            Budget::from_limits(&clock(None)),
            Budget::from_limits(&Limits::clock(10_000, 0))
        );
    }

    proptest::proptest! {
        #![proptest_config(banco_game::testing::proptest_config(None, 0x7143))]

        /// Any clock a GUI sends (`go wtime 1000 winc 9223372036854775807`, UCCI
        /// `increment 18446744073709551615`, `movetime` near `u64::MAX`) gives deadlines
        /// in order within the time left, and no overflow (a panic in debug builds, a
        /// wrong deadline in release before).
        #[test]
        fn any_clock_gives_ordered_deadlines(
            time_ms in proptest::prelude::any::<u64>(),
            inc_ms in proptest::prelude::any::<u64>(),
            moves in proptest::option::of(0u32..60),
            overhead in proptest::option::of(proptest::prelude::any::<u64>()),
            movetime in proptest::option::of(proptest::prelude::any::<u64>()),
            scale in 0u64..400,
        ) {
            let b = Budget::from_limits(&Limits {
                clock: Some(crate::limits::Clock { time_ms, inc_ms, moves_to_go: moves, overhead_ms: overhead }),
                movetime_ms: movetime,
                ..Limits::default()
            });
            let (soft, hard) = (b.soft_ms.unwrap(), b.hard_ms.unwrap());
            proptest::prop_assert!(1 <= soft && soft <= hard, "{b:?}");
            proptest::prop_assert!(hard <= time_ms.max(1), "{b:?}");
            let _ = b.soft_passed(u64::MAX, scale);
            proptest::prop_assert!(b.soft_passed(hard, scale));
        }
    }

    /// The deadlines of a move on a clock, as a pure function of the clock.
    fn deadlines(time_ms: u64, inc_ms: u64, moves_to_go: Option<u32>, overhead: u64) -> (u64, u64) {
        let b = Budget::from_limits(&Limits {
            clock: Some(crate::limits::Clock {
                time_ms,
                inc_ms,
                moves_to_go,
                overhead_ms: Some(overhead),
            }),
            ..Limits::default()
        });
        (b.soft_ms.unwrap(), b.hard_ms.unwrap())
    }

    /// The reviewer's `go wtime 100 btime 100 winc 10 binc 10` took 7 to 22 ms a move
    /// (Stockfish 0 to 5), one 15 ms reserve for the whole search, and `movestogo 1` took
    /// the time left minus 15 ms, which lost on time under load. Now every move keeps
    /// back the overhead (UCI's `Move Overhead`, 30 ms by default), a move short of time
    /// takes at most half the increment, and the last move of a control 80 %.
    #[test]
    fn a_clock_short_of_time_is_not_drained() {
        // 100 ms and 10 ms a move: 5 ms at most (it was 22).
        assert_eq!(deadlines(100, 10, None, 30), (5, 5));
        // Short of time (under 10 overheads), a move spends less than the increment, so
        // the clock grows back; with no increment a twentieth of what is left.
        for time in (0..300).step_by(7) {
            for inc in [0, 10, 40, 100] {
                let (soft, hard) = deadlines(time, inc, None, 30);
                let left = time.saturating_sub(30);
                assert!(soft <= hard, "{time} {inc}");
                assert!(
                    hard <= (inc / 2).max(left / 20).max(1),
                    "{time} {inc}: {hard}"
                );
            }
        }
        // The overhead is kept back on every move: a move never reaches into it.
        for time in [0, 20, 31, 100, 299, 300, 1_000, 60_000] {
            for inc in [0, 10, 1_000] {
                for mtg in [None, Some(1), Some(2), Some(5), Some(20)] {
                    let (_, hard) = deadlines(time, inc, mtg, 30);
                    assert!(
                        hard <= time.saturating_sub(30).max(1),
                        "{time} {inc} {mtg:?}"
                    );
                }
            }
        }
        // More overhead, less time: a fifth of the time left (and half the increment),
        // the overhead taken off first.
        assert_eq!(deadlines(10_000, 1_000, None, 0).1, 2_500);
        assert_eq!(deadlines(10_000, 1_000, None, 500).1, 2_400);
        // `movestogo 1`: 80 % of what the overhead leaves (it was all of it, less 15 ms).
        assert_eq!(deadlines(300, 0, Some(1), 30).1, 216);
        assert_eq!(deadlines(10_000, 0, Some(1), 30).1, 7_976);
        // Above the floor the increment counts as before: 1 s and 10 ms a move.
        assert_eq!(deadlines(1_000, 10, None, 30), (39, 156));
    }
}
