//! Transposition table: a fixed-size array of 64-byte buckets of four entries, sized in
//! MiB (16 by default), allocated once, in huge pages where the system has them
//! ([`BigTable`]).
//!
//! ## Replacement
//!
//! A store goes to the bucket of the key. Inside it, the entry with the same key is
//! overwritten (keeping its move if the new store has none, and keeping a deeper exact
//! result of the current search over a shallower bound); otherwise the entry with the
//! lowest `depth − 4 × age` is replaced, where `age` counts the searches since the entry
//! was written. Old, shallow entries go first; deep entries of the current search stay.
//!
//! Scores at or beyond [`DECISIVE`](crate::score::DECISIVE) (mates, wins by rule) are
//! stored relative to the node ([`to_tt`]) and made relative to the
//! root again on probing, so a mate found through a transposition keeps its true distance.
//!
//! ```
//! use banco_engine::tt::{Bound, TranspositionTable};
//! use banco_engine::score::mate_in;
//! let mut tt = TranspositionTable::new(1);
//! // A mate 5 plies from the root, found at ply 2 (3 plies below the node)...
//! tt.store(0xABCD, 4, mate_in(5), 10, Bound::Exact, 77, 2);
//! // ...is a mate 4 plies below the root when the node is reached at ply 1.
//! let hit = tt.probe(0xABCD, 1).unwrap();
//! assert_eq!((hit.score, hit.mv, hit.depth), (mate_in(4), 77, 4));
//! ```

use crate::bigtable::BigTable;
use crate::score::{from_tt, to_tt};

/// What kind of bound a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact value.
    Exact,
    /// At least this (the search failed high).
    Lower,
    /// At most this (the search failed low).
    Upper,
}

/// One entry, 16 bytes.
#[derive(Clone, Copy, Debug, Default, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
struct Entry {
    key: u64,
    mv: u16,
    score: i16,
    eval: i16,
    depth: i8,
    /// Bound in the low 2 bits (0 empty), generation in the high 6.
    flags: u8,
}

const BUCKET: usize = 4;

/// A bucket of four entries: one cache line.
#[derive(Clone, Copy, Debug, Default, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C, align(64))]
struct Bucket([Entry; BUCKET]);

/// A probe hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Score, relative to the root.
    pub score: i32,
    /// Static evaluation stored with it.
    pub eval: i32,
    /// Depth it was searched to.
    pub depth: i32,
    /// Bound kind.
    pub bound: Bound,
    /// The best move's wire code (0 for none).
    pub mv: u16,
}

/// The transposition table. See the module docs.
#[derive(Clone, Debug)]
pub struct TranspositionTable {
    /// In huge pages where the system allows ([`BigTable`]).
    buckets: BigTable<Bucket>,
    generation: u8,
}

impl TranspositionTable {
    /// A table of `mib` MiB (at least one bucket).
    #[must_use]
    pub fn new(mib: usize) -> TranspositionTable {
        let bytes = mib.max(1).saturating_mul(1 << 20);
        let n = (bytes / size_of::<Bucket>()).max(1);
        TranspositionTable {
            buckets: BigTable::zeroed(n),
            generation: 0,
        }
    }

    /// Size in bytes.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.buckets.len() * size_of::<Bucket>()
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.buckets.as_mut_slice().fill(Bucket::default());
        self.generation = 0;
    }

    /// Starts a new search (ages the entries).
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize
    }

    /// Starts fetching the bucket of `key` into the cache, so that
    /// [`TranspositionTable::probe`] finds it there a little later: a prefetch instruction
    /// on x86-64 (through `safe_arch`). Elsewhere nothing: safe Rust has no portable
    /// prefetch, and a plain load would wait for the memory (perf showed such a load
    /// stalling a quarter of the bench), worse still for the look-ahead hints of moves
    /// that may never be searched.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse"))]
        if let Some(b) = self.buckets.as_slice().get(self.index(key)) {
            safe_arch::prefetch_t0(b);
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse")))]
        let _ = key;
    }

    /// The entry for `key`, with its score made relative to the root from `ply`.
    #[inline]
    #[must_use]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        let bucket = self.buckets.as_slice().get(self.index(key))?;
        bucket
            .0
            .iter()
            .find(|e| e.key == key && e.flags & 3 != 0)
            .map(|e| Hit {
                score: from_tt(i32::from(e.score), ply),
                eval: i32::from(e.eval),
                depth: i32::from(e.depth),
                bound: match e.flags & 3 {
                    1 => Bound::Exact,
                    2 => Bound::Lower,
                    _ => Bound::Upper,
                },
                mv: e.mv,
            })
    }

    /// Stores a search result for `key` found at `ply` (see the module docs).
    #[inline]
    pub fn store(
        &mut self,
        key: u64,
        depth: i32,
        score: i32,
        eval: i32,
        bound: Bound,
        mv: u16,
        ply: usize,
    ) {
        let generation = self.generation;
        let index = self.index(key);
        let Some(bucket) = self.buckets.as_mut_slice().get_mut(index) else {
            return;
        };
        let age = |e: &Entry| i32::from((generation.wrapping_sub(e.flags >> 2)) & 63);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, e) in bucket.0.iter().enumerate() {
            if e.key == key || e.flags & 3 == 0 {
                victim = i;
                break;
            }
            let value = i32::from(e.depth) - 4 * age(e);
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        let e = &mut bucket.0[victim];
        let same = e.key == key && e.flags & 3 != 0;
        if same
            && bound != Bound::Exact
            && age(e) == 0
            && i32::from(e.depth) > depth + 2
            && e.flags & 3 == 1
        {
            return;
        }
        let mv = if mv == 0 && same { e.mv } else { mv };
        let b = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        *e = Entry {
            key,
            mv,
            score: to_tt(score, ply).clamp(-32_000, 32_000) as i16,
            eval: eval.clamp(-32_000, 32_000) as i16,
            depth: depth.clamp(-1, 127) as i8,
            flags: (generation << 2) | b,
        };
    }

    /// Permille of the first thousand buckets' entries written by the current search.
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let n = self.buckets.len().min(250);
        let used = self
            .buckets
            .as_slice()
            .iter()
            .take(n)
            .flat_map(|b| b.0.iter())
            .filter(|e| e.flags & 3 != 0 && e.flags >> 2 == self.generation)
            .count();
        (used * 1000 / (n * BUCKET).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{mate_in, mated_in};

    #[test]
    fn mate_scores_round_trip() {
        let mut tt = TranspositionTable::new(1);
        tt.store(1, 5, mated_in(9), 0, Bound::Upper, 0, 3);
        let hit = tt.probe(1, 5).unwrap();
        assert_eq!(hit.score, mated_in(11));
        assert_eq!(hit.bound, Bound::Upper);
        tt.store(2, 5, 123, 0, Bound::Lower, 9, 3);
        assert_eq!(tt.probe(2, 40).unwrap().score, 123);
        assert_eq!(tt.probe(3, 0), None);
        tt.store(4, 1, mate_in(1), 0, Bound::Exact, 1, 0);
        assert_eq!(tt.probe(4, 6).unwrap().score, mate_in(7));
    }

    #[test]
    fn replacement_keeps_deep_entries() {
        let mut tt = TranspositionTable::new(1);
        let n = tt.buckets.len() as u64;
        // Keys mapping to bucket 0: multiples that keep (key * n) >> 64 == 0.
        let keys: Vec<u64> = (1..=6u64).collect();
        for (i, &k) in keys.iter().enumerate() {
            tt.store(k, 10 - i as i32, 0, 0, Bound::Exact, 0, 0);
        }
        assert!(n > 4);
        // Bucket 0 holds four entries; the two shallowest stores lost to the deeper ones.
        assert!(tt.probe(1, 0).is_some());
        assert!(tt.probe(6, 0).is_some());
        tt.clear();
        assert_eq!(tt.probe(1, 0), None);
        assert!(tt.bytes() == 1 << 20);
    }
}
