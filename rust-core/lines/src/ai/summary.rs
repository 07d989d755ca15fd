//! The summary of a run of seeded games, printed as the last line of `banco bench lines`
//! (a contract: `games N median_score M mean_score A median_turns T ms_per_move X`) and by
//! the tuning examples that play the bench's games.
//!
//! ```
//! use banco_lines::ai::summary::Summary;
//! let s = Summary::of(&[(10, 20), (30, 40), (20, 30)], 90.0);
//! assert_eq!(
//!     s.to_string(),
//!     "games 3 median_score 20 mean_score 20.0 median_turns 30 ms_per_move 1.000"
//! );
//! ```

use core::fmt;

/// Median and mean over a run of games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Games played.
    pub games: usize,
    /// Median final score (the mean of the middle two for an even count).
    pub median_score: f64,
    /// Mean final score.
    pub mean_score: f64,
    /// Median number of turns.
    pub median_turns: f64,
    /// Milliseconds per move: `ms` over every game's turns.
    pub ms_per_move: f64,
}

impl Summary {
    /// The summary of `results` (final score, turns) that took `ms` milliseconds in all.
    #[must_use]
    pub fn of(results: &[(u32, u32)], ms: f64) -> Summary {
        let mut scores: Vec<u32> = results.iter().map(|r| r.0).collect();
        let mut turns: Vec<u32> = results.iter().map(|r| r.1).collect();
        let total: f64 = turns.iter().map(|&t| f64::from(t)).sum();
        let mean = scores.iter().map(|&s| f64::from(s)).sum::<f64>() / scores.len().max(1) as f64;
        scores.sort_unstable();
        turns.sort_unstable();
        Summary {
            games: results.len(),
            median_score: median(&scores),
            mean_score: mean,
            median_turns: median(&turns),
            ms_per_move: ms / total.max(1.0),
        }
    }
}

/// Median of sorted values (0 when empty).
fn median(v: &[u32]) -> f64 {
    let n = v.len();
    match (v.get(n / 2), n.checked_sub(1).and_then(|i| v.get(i / 2))) {
        (Some(&hi), Some(&lo)) if n.is_multiple_of(2) => {
            f64::midpoint(f64::from(lo), f64::from(hi))
        }
        (Some(&mid), _) => f64::from(mid),
        _ => 0.0,
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "games {} median_score {} mean_score {:.1} median_turns {} ms_per_move {:.3}",
            self.games, self.median_score, self.mean_score, self.median_turns, self.ms_per_move
        )
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // exact small values
mod tests {
    use super::*;

    #[test]
    fn medians_of_odd_even_and_empty_runs() {
        assert_eq!(
            Summary::of(&[(5, 1), (1, 9), (3, 4)], 0.0).median_score,
            3.0
        );
        let even = Summary::of(&[(10, 2), (20, 4), (40, 6), (30, 8)], 20.0);
        assert_eq!((even.median_score, even.median_turns), (25.0, 5.0));
        assert_eq!(even.mean_score, 25.0);
        assert_eq!(even.ms_per_move, 1.0);
        let none = Summary::of(&[], 5.0);
        assert_eq!(
            (none.games, none.median_score, none.mean_score),
            (0, 0.0, 0.0)
        );
    }
}
