//! The value of a node awaiting chance, and the alpha-beta windows of its children: an
//! expectation node searched the Star1 way (Ballard 1983), with the windows derived
//! exactly in integer arithmetic.
//!
//! ## The value
//!
//! Children are the positions after each outcome; their values are from the same side's
//! point of view as the chance node (the side to move does not change across a chance
//! step), with integer weights `w_i` summing to `W`. With `U` = [`CHANCE_CAP`]
//! (just below [`DECISIVE`]):
//!
//! * if **every** child is a decisive win (a mate, or a win by rule: `v ≥ DECISIVE`), the
//!   node is a decisive win, worth the *least* of them (a forced mate only if every outcome
//!   mates, as slow as the slowest);
//! * if every child is a decisive loss, the node is a decisive loss worth the greatest of
//!   them (the longest resistance);
//! * otherwise the node is worth `⌊Σ w_i · clamp(v_i, −U, U) / W⌋`: the weighted mean of the
//!   children with decisive values counted as ±`U`. Mixed outcomes are never decisive, so
//!   a mate score always means a forced mate; a node that wins in 2 outcomes out of 3 and
//!   draws in the third is worth about `2U/3`, more than any material edge.
//!
//! The value is monotone in every child's value, so bounds pass through it.
//!
//! ## The windows (Star1)
//!
//! Children are searched in order; before each, the part already known and the most and
//! least the rest can add (±`U` each) give the narrowest window for this child that still
//! decides the node: a child value at or below the window's low edge proves the node at or
//! below alpha whatever the rest do, one at or above the high edge proves it at or above
//! beta, so the node is cut off at once. Windows of the mean are clipped to `−U − 1 … U + 1`:
//! a child that fails there is known to be a decisive loss or win, which is all the mean
//! needs. Windows entirely above `U` (or below `−U`) only admit the all-decisive case,
//! whose value is a minimum (maximum) over the children: every child is searched with the
//! node's own window and the first one at or below alpha (at or above beta) decides.
//!
//! ```
//! use banco_engine::chance::{CHANCE_CAP, Expectation, Step};
//! // Two equally likely outcomes worth +100 and −40, searched with a full window.
//! let mut e = Expectation::new(-32_000, 32_000, 2);
//! for v in [100, -40] {
//!     let (alpha, beta) = e.window(1).unwrap();
//!     assert!(alpha < v && v < beta);
//!     assert_eq!(e.feed(v), None);
//! }
//! assert_eq!(e.finish(), Step::Value(30));
//! // With a window above 80, the first outcome already needs more than the cap can give.
//! let mut e = Expectation::new(80, 81, 2);
//! let (_, beta) = e.window(1).unwrap();
//! assert!(beta > CHANCE_CAP);
//! ```

use crate::score::DECISIVE;

/// The magnitude that decisive values count for in the mean of a chance node (see the
/// module docs); every non-decisive node value lies within ±`CHANCE_CAP`.
pub const CHANCE_CAP: i32 = DECISIVE - 1;

/// What [`Expectation::finish`] says once every child has been fed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The node's value, with the usual fail-soft meaning against the window it was made
    /// with (at or below alpha: an upper bound; at or above beta: a lower bound; between:
    /// exact).
    Value(i32),
    /// Every child turned out decisive the same way, and the window needs the exact
    /// extreme: search the children again with a new [`Expectation`] over this window (its
    /// result is the node's value).
    Research(i32, i32),
}

/// Which part of the value function the window can reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Only the all-wins case lies above alpha: a minimum over the children.
    Wins,
    /// Only the all-losses case lies below beta: a maximum over the children.
    Losses,
    /// The mean (Star1).
    Mean,
}

/// The state of one chance node during its search: feed it the children's values in order
/// (see the module docs and [`Searcher`](crate::Searcher)'s use of it).
#[derive(Clone, Debug)]
pub struct Expectation {
    mode: Mode,
    alpha: i32,
    beta: i32,
    /// Total weight `W`.
    total: i64,
    /// Weight of the children not yet fed, the current one excluded once its window is
    /// asked for.
    rest: i64,
    /// `Σ w_i · c_i` over the children fed.
    known: i64,
    /// Weight of the current child.
    weight: i64,
    /// The current child's window and whether its edges decide the node.
    child: (i32, i32),
    low_decides: bool,
    high_decides: bool,
    /// Every child fed so far was a decisive win (loss) in the mean mode.
    all_win: bool,
    all_loss: bool,
    /// Least (greatest) child value fed: the extreme of the all-wins (all-losses) case.
    min_value: i32,
    max_value: i32,
}

/// `⌊a / b⌋` for `b > 0`.
#[inline]
fn floor_div(a: i64, b: i64) -> i64 {
    a.div_euclid(b)
}

/// `⌈a / b⌉` for `b > 0`.
#[inline]
fn ceil_div(a: i64, b: i64) -> i64 {
    -(-a).div_euclid(b)
}

/// A value that fits the search's `i32` scores (every clamp here is to `±2·DECISIVE`).
#[inline]
fn narrow(v: i64) -> i32 {
    v.clamp(-2 * i64::from(DECISIVE), 2 * i64::from(DECISIVE)) as i32
}

impl Expectation {
    /// A chance node searched with the window `alpha..beta` (`alpha < beta`) whose
    /// outcomes' weights sum to `total` (at least 1).
    #[must_use]
    pub fn new(alpha: i32, beta: i32, total: u64) -> Expectation {
        let cap = CHANCE_CAP;
        let mode = if alpha >= cap {
            Mode::Wins
        } else if beta <= -cap {
            Mode::Losses
        } else {
            Mode::Mean
        };
        let total = i64::try_from(total.max(1)).unwrap_or(i64::MAX);
        Expectation {
            mode,
            alpha,
            beta,
            total,
            rest: total,
            known: 0,
            weight: 1,
            child: (alpha, beta),
            low_decides: false,
            high_decides: false,
            all_win: true,
            all_loss: true,
            min_value: i32::MAX,
            max_value: i32::MIN,
        }
    }

    /// The window to search the next child with, whose weight is `weight`; or the node's
    /// value when it is decided without that child (`Err`, a bound outside the window).
    pub fn window(&mut self, weight: u32) -> Result<(i32, i32), i32> {
        let w = i64::from(weight.max(1));
        self.weight = w;
        self.rest = (self.rest - w).max(0);
        if self.mode != Mode::Mean {
            self.child = (self.alpha, self.beta);
            return Ok(self.child);
        }
        let (u, l) = (i64::from(CHANCE_CAP), -i64::from(CHANCE_CAP));
        let (k, r, total) = (self.known, self.rest, self.total);
        // c ≤ a ⇒ ⌊(K + w·c + R·U) / W⌋ ≤ alpha; c ≥ b ⇒ ⌊(K + w·c + R·L) / W⌋ ≥ beta.
        let a = floor_div((i64::from(self.alpha) + 1) * total - 1 - k - r * u, w);
        let b = ceil_div(i64::from(self.beta) * total - k - r * l, w);
        if a >= u {
            // Even the most this child can count for leaves the node at or below alpha.
            return Err(narrow(floor_div(k + (w + r) * u, total)));
        }
        if b <= l {
            return Err(narrow(floor_div(k + (w + r) * l, total)));
        }
        self.low_decides = a >= l;
        self.high_decides = b <= u;
        self.child = (narrow(a.max(l - 1)), narrow(b.min(u + 1)));
        Ok(self.child)
    }

    /// Takes the value the current child's search returned (fail-soft against the window
    /// of [`Expectation::window`]); the node's value when that decides it.
    pub fn feed(&mut self, v: i32) -> Option<i32> {
        self.min_value = self.min_value.min(v);
        self.max_value = self.max_value.max(v);
        let (lo, hi) = self.child;
        match self.mode {
            Mode::Wins => (v <= lo).then(|| v.max(CHANCE_CAP)),
            Mode::Losses => (v >= hi).then(|| v.min(-CHANCE_CAP)),
            Mode::Mean => {
                let (u, l) = (i64::from(CHANCE_CAP), -i64::from(CHANCE_CAP));
                let c = i64::from(v).clamp(l, u);
                let (k, w, r, total) = (self.known, self.weight, self.rest, self.total);
                if v <= lo && self.low_decides {
                    return Some(narrow(floor_div(k + w * c + r * u, total)));
                }
                if v >= hi && self.high_decides {
                    return Some(narrow(floor_div(k + w * c + r * l, total)));
                }
                // Exact within the clipped window (never decisive), or a decisive loss
                // (win) known from a fail at the clipped edge.
                self.all_win &= v >= DECISIVE;
                self.all_loss &= v <= -DECISIVE;
                self.known += w * c;
                None
            }
        }
    }

    /// The node's value once every child has been fed without a cutoff.
    #[must_use]
    pub fn finish(&self) -> Step {
        match self.mode {
            Mode::Wins => Step::Value(self.min_value),
            Mode::Losses => Step::Value(self.max_value),
            Mode::Mean if self.all_win => {
                if self.beta <= self.min_value {
                    Step::Value(self.min_value)
                } else {
                    Step::Research(CHANCE_CAP, self.beta)
                }
            }
            Mode::Mean if self.all_loss => {
                if self.alpha >= self.max_value {
                    Step::Value(self.max_value)
                } else {
                    Step::Research(self.alpha, -CHANCE_CAP)
                }
            }
            Mode::Mean => Step::Value(narrow(floor_div(self.known, self.total))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Rng;
    use crate::score::{INF, MATE, mate_in, mated_in};

    /// The value of the module docs, computed directly.
    fn exact(values: &[(i32, u32)]) -> i32 {
        if values.iter().all(|&(v, _)| v >= DECISIVE) {
            return values.iter().map(|&(v, _)| v).min().unwrap_or(0);
        }
        if values.iter().all(|&(v, _)| v <= -DECISIVE) {
            return values.iter().map(|&(v, _)| v).max().unwrap_or(0);
        }
        let total: i64 = values.iter().map(|&(_, w)| i64::from(w)).sum();
        let sum: i64 = values
            .iter()
            .map(|&(v, w)| i64::from(w) * i64::from(v.clamp(-CHANCE_CAP, CHANCE_CAP)))
            .sum();
        sum.div_euclid(total) as i32
    }

    /// A child search: the exact value inside the window, else a fail-soft bound
    /// somewhere between the window's edge and the exact value.
    fn child(v: i32, alpha: i32, beta: i32, rng: &mut Rng) -> i32 {
        let jitter = |span: i64, rng: &mut Rng| (rng.next_u64() % (span.max(0) as u64 + 1)) as i32;
        if v <= alpha {
            v + jitter(i64::from(alpha) - i64::from(v), rng)
        } else if v >= beta {
            v - jitter(i64::from(v) - i64::from(beta), rng)
        } else {
            v
        }
    }

    /// Runs a chance node over `values` with the window `alpha..beta` as the search does.
    fn run(values: &[(i32, u32)], alpha: i32, beta: i32, rng: &mut Rng) -> (i32, usize) {
        let total = values.iter().map(|&(_, w)| u64::from(w)).sum();
        let mut window = (alpha, beta);
        let mut searched = 0;
        loop {
            let mut e = Expectation::new(window.0, window.1, total);
            let mut decided = None;
            for &(v, w) in values {
                match e.window(w) {
                    Err(r) => {
                        decided = Some(r);
                        break;
                    }
                    Ok((a, b)) => {
                        assert!(a < b, "window {a}..{b}");
                        searched += 1;
                        if let Some(r) = e.feed(child(v, a, b, rng)) {
                            decided = Some(r);
                            break;
                        }
                    }
                }
            }
            match decided.map_or_else(|| e.finish(), Step::Value) {
                Step::Value(r) => return (r, searched),
                Step::Research(a, b) => window = (a, b),
            }
        }
    }

    fn random_value(rng: &mut Rng) -> i32 {
        let r = rng.next_u64();
        let edges = [
            CHANCE_CAP,
            -CHANCE_CAP,
            CHANCE_CAP - 1,
            1 - CHANCE_CAP,
            DECISIVE,
            -DECISIVE,
            DECISIVE + 3,
            -DECISIVE - 3,
        ];
        match r % 8 {
            0 => mate_in((r >> 8) as usize % 40),
            1 => mated_in((r >> 8) as usize % 40),
            2 => edges[(r >> 8) as usize % edges.len()],
            _ => ((r >> 8) % 4001) as i32 - 2000,
        }
    }

    #[test]
    fn star1_bounds_are_sound_and_exact_inside_the_window() {
        let mut rng = Rng::new(99);
        let mut cut = 0;
        for case in 0..40_000 {
            let n = 1 + (rng.next_u64() % 5) as usize;
            let all_mates = case % 7 == 0;
            let values: Vec<(i32, u32)> = (0..n)
                .map(|_| {
                    let v = if all_mates {
                        mate_in(1 + (rng.next_u64() % 30) as usize)
                    } else {
                        random_value(&mut rng)
                    };
                    let w = 1 + (rng.next_u64() % if case % 3 == 0 { 1000 } else { 4 }) as u32;
                    (if all_mates && case % 2 == 0 { -v } else { v }, w)
                })
                .collect();
            let f = exact(&values);
            let (alpha, beta) = match case % 4 {
                0 => (-INF, INF),
                1 => {
                    let a = random_value(&mut rng).clamp(-MATE, MATE - 1);
                    (a, a + 1)
                }
                2 => {
                    let a = f - (rng.next_u64() % 50) as i32;
                    (a, a + 1 + (rng.next_u64() % 100) as i32)
                }
                _ => {
                    let a = random_value(&mut rng);
                    let b = random_value(&mut rng);
                    if a == b {
                        (a, a + 1)
                    } else {
                        (a.min(b), a.max(b))
                    }
                }
            };
            let (r, searched) = run(&values, alpha, beta, &mut rng);
            if r <= alpha {
                assert!(f <= r, "{values:?} {alpha}..{beta}: {r} but exactly {f}");
            } else if r >= beta {
                assert!(f >= r, "{values:?} {alpha}..{beta}: {r} but exactly {f}");
            } else {
                assert_eq!(r, f, "{values:?} {alpha}..{beta}");
            }
            cut += usize::from(searched < n);
        }
        assert!(cut > 5_000, "only {cut} cutoffs");
    }

    #[test]
    fn forced_mates_need_every_outcome() {
        let mut rng = Rng::new(1);
        // Every outcome mates: the slowest mate.
        let mates = [(mate_in(3), 1), (mate_in(5), 2)];
        assert_eq!(run(&mates, -INF, INF, &mut rng).0, mate_in(5));
        // One outcome only draws: no mate, but far better than any material edge.
        let mixed = [(mate_in(3), 2), (0, 1)];
        let (v, _) = run(&mixed, -INF, INF, &mut rng);
        assert_eq!(v, 2 * CHANCE_CAP / 3);
        assert!(v < DECISIVE);
        let lost = [(mated_in(2), 1), (mated_in(6), 1)];
        assert_eq!(run(&lost, -INF, INF, &mut rng).0, mated_in(6));
    }
}
