//! A player's progress through the puzzle collection: which puzzles were solved, how many
//! tries and hints each took. A small record the front end stores (as bytes, with its own
//! magic and version, like the saved game) and hands back at the next start.
//!
//! ```
//! use banco_app::puzzles::progress::Progress;
//! let mut p = Progress::default();
//! p.attempted("sp-12");
//! p.hint_used("sp-12");
//! p.solved("sp-12");
//! let bytes = p.encode()?;
//! let back = Progress::decode(&bytes)?;
//! assert!(back.is_solved("sp-12"));
//! assert_eq!(back.record("sp-12").map(|r| r.hints), Some(1));
//! # Ok::<(), banco_app::puzzles::progress::ProgressError>(())
//! ```

use super::collection::{Entry, Tier};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The first bytes of a progress record.
pub const MAGIC: [u8; 8] = *b"\x89BANCP\r\n";
/// The format version written.
pub const VERSION: u8 = 1;
/// Largest record read.
pub const MAX_BYTES: usize = 1 << 20;

/// Why a progress record cannot be read or written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProgressError {
    /// Not a progress record.
    #[error("this is not a Banco puzzle progress record")]
    NotProgress,
    /// Written by a newer Banco.
    #[error("the puzzle progress was saved by a newer Banco (format {0}); update the app")]
    NewerVersion(u8),
    /// Too large or damaged.
    #[error("the puzzle progress is damaged: {0}")]
    Damaged(String),
}

/// What one puzzle took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleRecord {
    /// Solved at least once.
    pub solved: bool,
    /// Tries started.
    pub attempts: u32,
    /// Hints asked for.
    pub hints: u32,
}

/// Progress through the collection, by puzzle id.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    records: BTreeMap<String, PuzzleRecord>,
}

impl Progress {
    fn entry(&mut self, id: &str) -> &mut PuzzleRecord {
        self.records.entry(id.to_owned()).or_default()
    }

    /// A try of puzzle `id` started.
    pub fn attempted(&mut self, id: &str) {
        self.entry(id).attempts += 1;
    }

    /// A hint was asked for in puzzle `id`.
    pub fn hint_used(&mut self, id: &str) {
        self.entry(id).hints += 1;
    }

    /// Puzzle `id` was solved.
    pub fn solved(&mut self, id: &str) {
        self.entry(id).solved = true;
    }

    /// True if puzzle `id` was solved.
    #[must_use]
    pub fn is_solved(&self, id: &str) -> bool {
        self.records.get(id).is_some_and(|r| r.solved)
    }

    /// What puzzle `id` took so far.
    #[must_use]
    pub fn record(&self, id: &str) -> Option<PuzzleRecord> {
        self.records.get(id).copied()
    }

    /// Solved puzzles among `entries` of `tier`, and how many there are.
    #[must_use]
    pub fn tier_count(&self, entries: &[Entry], tier: Tier) -> (usize, usize) {
        let of_tier = entries.iter().filter(|e| e.tier() == tier);
        let total = of_tier.clone().count();
        (of_tier.filter(|e| self.is_solved(&e.id)).count(), total)
    }

    /// The first unsolved puzzle of `entries` (in their order), easiest first.
    #[must_use]
    pub fn next_unsolved<'a>(&self, entries: &'a [Entry]) -> Option<&'a Entry> {
        entries.iter().find(|e| !self.is_solved(&e.id))
    }

    /// The record as bytes.
    pub fn encode(&self) -> Result<Vec<u8>, ProgressError> {
        let mut out = MAGIC.to_vec();
        out.push(VERSION);
        let body =
            postcard::to_allocvec(self).map_err(|e| ProgressError::Damaged(e.to_string()))?;
        out.extend_from_slice(&body);
        Ok(out)
    }

    /// Reads a record written by [`Progress::encode`].
    pub fn decode(bytes: &[u8]) -> Result<Progress, ProgressError> {
        if bytes.len() > MAX_BYTES {
            return Err(ProgressError::Damaged(format!("{} bytes", bytes.len())));
        }
        let rest = bytes
            .strip_prefix(&MAGIC)
            .ok_or(ProgressError::NotProgress)?;
        let (&version, body) = rest
            .split_first()
            .ok_or_else(|| ProgressError::Damaged("no version".into()))?;
        if version > VERSION {
            return Err(ProgressError::NewerVersion(version));
        }
        let (p, tail) = postcard::take_from_bytes::<Progress>(body)
            .map_err(|e| ProgressError::Damaged(e.to_string()))?;
        if !tail.is_empty() {
            return Err(ProgressError::Damaged("bytes after the record".into()));
        }
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::puzzles::collection;
    use proptest::prelude::*;

    #[test]
    fn counts_and_next() {
        let all = collection::xiangqi();
        let mut p = Progress::default();
        let first = p.next_unsolved(all).unwrap().id.clone();
        p.solved(&first);
        assert_ne!(p.next_unsolved(all).unwrap().id, first);
        let (solved, total) = p.tier_count(all, all[0].tier());
        assert_eq!(solved, 1);
        assert!(total >= 1);
        assert_eq!(Progress::decode(b"nope"), Err(ProgressError::NotProgress));
        let mut newer = MAGIC.to_vec();
        newer.push(9);
        assert_eq!(
            Progress::decode(&newer),
            Err(ProgressError::NewerVersion(9))
        );
    }

    proptest! {
        #[test]
        fn random_bytes_never_panic(tail in proptest::collection::vec(any::<u8>(), 0..64)) {
            let mut bytes = MAGIC.to_vec();
            bytes.push(VERSION);
            bytes.extend(tail);
            let _ = Progress::decode(&bytes);
        }

        #[test]
        fn round_trips(ids in proptest::collection::vec("[a-z0-9-]{1,8}", 0..20)) {
            let mut p = Progress::default();
            for (i, id) in ids.iter().enumerate() {
                p.attempted(id);
                if i % 2 == 0 { p.solved(id); }
            }
            prop_assert_eq!(Progress::decode(&p.encode().unwrap()).unwrap(), p);
        }
    }
}
