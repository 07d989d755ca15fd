//! [`BestScores`]: the table of the best games (top N), kept by the front end between
//! games. The date is passed in (this crate reads no clock).
//!
//! ```
//! use banco_lines::best::BestScores;
//! let mut table = BestScores::new(3);
//! assert_eq!(table.record(120, 80, "2026-12-01"), Some(0));
//! assert_eq!(table.record(300, 150, "2026-12-02"), Some(0));
//! assert_eq!(table.record(120, 90, "2026-12-03"), Some(2)); // ties go after older games
//! assert_eq!(table.record(50, 30, "2026-12-04"), None); // the table is full
//! assert_eq!(table.entries()[0].score, 300);
//! assert_eq!(table.remove(0).map(|e| e.score), Some(300));
//! assert_eq!(table.entries()[0].score, 120);
//! ```

use serde::{Deserialize, Serialize};

/// Longest date text kept, in bytes.
pub const MAX_DATE: usize = 32;
/// Most entries a table may hold.
pub const MAX_ENTRIES: usize = 100;

/// One finished game in the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BestScore {
    /// Final score.
    pub score: u32,
    /// Turns played.
    pub turns: u32,
    /// When it was played, as the front end wrote it (e.g. `2026-12-01`).
    pub date: String,
}

/// The best scores, highest first; equal scores keep the older game first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BestScores {
    capacity: usize,
    entries: Vec<BestScore>,
}

impl Default for BestScores {
    fn default() -> BestScores {
        BestScores::new(10)
    }
}

impl BestScores {
    /// An empty table of `capacity` entries (1 to [`MAX_ENTRIES`]).
    #[must_use]
    pub fn new(capacity: usize) -> BestScores {
        BestScores {
            capacity: capacity.clamp(1, MAX_ENTRIES),
            entries: Vec::new(),
        }
    }

    /// The entries, best first.
    #[must_use]
    pub fn entries(&self) -> &[BestScore] {
        &self.entries
    }

    /// How many entries the table keeps.
    #[must_use]
    pub const fn capacity(&self) -> usize {
        self.capacity
    }

    /// The rank (0 = best) a game with `score` would take, or `None` if it would not enter.
    #[must_use]
    pub fn rank_of(&self, score: u32) -> Option<usize> {
        let rank = self.entries.partition_point(|e| e.score >= score);
        (rank < self.capacity).then_some(rank)
    }

    /// Enters a finished game; returns its rank, or `None` if it did not make the table.
    pub fn record(&mut self, score: u32, turns: u32, date: &str) -> Option<usize> {
        let rank = self.rank_of(score)?;
        let mut end = date.len().min(MAX_DATE);
        while !date.is_char_boundary(end) {
            end -= 1;
        }
        self.entries.insert(
            rank,
            BestScore {
                score,
                turns,
                date: date.get(..end).unwrap_or_default().to_owned(),
            },
        );
        self.entries.truncate(self.capacity);
        Some(rank)
    }

    /// Takes out the entry at `rank` (a finished game taken back by undo); `None` if the
    /// table has no such rank.
    pub fn remove(&mut self, rank: usize) -> Option<BestScore> {
        (rank < self.entries.len()).then(|| self.entries.remove(rank))
    }
}
