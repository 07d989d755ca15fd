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
//!
//! Two sessions sharing a table: each brings its own changes into the other's copy.
//!
//! ```
//! use banco_lines::best::BestScores;
//! let mut stored = BestScores::new(3);
//! stored.record(100, 50, "2026-12-01");
//! let (mut a, mut b) = (stored.clone(), stored.clone());
//! let (_, from_a) = a.enter(0, 26, "2026-12-06").unwrap();
//! let (_, from_b) = b.enter(0, 26, "2026-12-06").unwrap();
//! b.apply(&from_a); // b read the table a wrote, then made its own change again
//! assert_eq!(b.entries().len(), 3);
//! b.apply(&from_b.inverse()); // b's ending taken back: a's entry stays
//! assert_eq!(b.entries().len(), 2);
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

    /// [`BestScores::record`], with what it changed: the rank and the change, to take it
    /// back or to bring it into another copy of the table ([`BestScores::apply`]).
    pub fn enter(&mut self, score: u32, turns: u32, date: &str) -> Option<(usize, BestChange)> {
        // A full table loses its last entry to a game that enters.
        let last = (self.entries.len() >= self.capacity)
            .then(|| self.entries.last().cloned())
            .flatten();
        let rank = self.record(score, turns, date)?;
        let entry = self.entries.get(rank)?.clone();
        Some((
            rank,
            BestChange::Entered {
                entry,
                pushed_out: last,
            },
        ))
    }

    /// Makes `change` in this table — the same table or another copy of it, which other
    /// sessions may have changed meanwhile: an entry entered is recorded (where its score
    /// ranks it), one withdrawn is taken out (the first equal entry, if any) and the entry
    /// its entering pushed out of a full table comes back, if it fits.
    pub fn apply(&mut self, change: &BestChange) {
        match change {
            BestChange::Entered { entry, .. } => {
                self.record(entry.score, entry.turns, &entry.date);
            }
            BestChange::Withdrawn { entry, pushed_out } => {
                if let Some(rank) = self.entries.iter().position(|e| e == entry) {
                    self.entries.remove(rank);
                }
                if let Some(e) = pushed_out {
                    self.record(e.score, e.turns, &e.date);
                }
            }
        }
    }
}

/// A change of a [`BestScores`] table, as [`BestScores::enter`] reports it: kept to be taken
/// back ([`BestChange::inverse`]) or made again in a copy of the table that another
/// session changed ([`BestScores::apply`]), so that sessions sharing a table lose none of
/// each other's entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BestChange {
    /// A finished game entered.
    Entered {
        /// Its entry.
        entry: BestScore,
        /// The entry it pushed out of a full table.
        pushed_out: Option<BestScore>,
    },
    /// A game's entry taken back out (its ending taken back by undo).
    Withdrawn {
        /// The entry.
        entry: BestScore,
        /// The entry that comes back in its place.
        pushed_out: Option<BestScore>,
    },
}

impl BestChange {
    /// The change that undoes this one.
    #[must_use]
    pub fn inverse(&self) -> BestChange {
        match self.clone() {
            BestChange::Entered { entry, pushed_out } => {
                BestChange::Withdrawn { entry, pushed_out }
            }
            BestChange::Withdrawn { entry, pushed_out } => {
                BestChange::Entered { entry, pushed_out }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn scores(t: &BestScores) -> Vec<u32> {
        t.entries().iter().map(|e| e.score).collect()
    }

    /// An entry that pushed the last one out of a full table, taken back: the pushed-out
    /// entry comes back; the same change made in a copy that another session changed keeps
    /// that session's entries.
    #[test]
    fn a_change_is_taken_back_and_made_in_another_copy() {
        let mut t = BestScores::new(2);
        t.record(100, 10, "a");
        t.record(50, 10, "b");
        let (rank, change) = t.enter(70, 10, "c").unwrap();
        assert_eq!(rank, 1);
        assert_eq!(scores(&t), [100, 70]);
        t.apply(&change.inverse());
        assert_eq!(scores(&t), [100, 50]);
        assert_eq!(t.enter(10, 1, "d"), None, "not entered: no change");
        // Another copy that gained an entry meanwhile.
        let mut other = BestScores::new(3);
        other.record(100, 10, "a");
        other.record(80, 10, "x");
        other.apply(&change);
        assert_eq!(scores(&other), [100, 80, 70]);
        other.apply(&change.inverse());
        assert_eq!(scores(&other), [100, 80, 50]);
    }
}
