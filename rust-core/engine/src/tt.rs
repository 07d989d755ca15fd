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
//! ## Shared between threads
//!
//! [`SharedTable`] is the same table for Lazy SMP: the searching threads probe and store
//! into one table without locks. Each entry is two `AtomicU64`, the key XORed with the
//! data and the data (the lockless-hashing trick of Hyatt and Mann): a probe that reads
//! halves of two different stores finds a key that does not match and misses, so a torn
//! entry is never believed. It lives on the ordinary heap (no huge pages: atomics cannot
//! be laid over a memory map without `unsafe`), so one thread keeps the faster
//! [`TranspositionTable`]; [`Table`] is whichever of the two a searcher uses.
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

use crate::bigtable::{BigTable, TableTooBig};
use crate::score::{from_tt, to_tt};
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

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

impl Entry {
    /// Everything but the key, in one word.
    #[inline]
    fn data(&self) -> u64 {
        u64::from(self.mv)
            | u64::from(self.score as u16) << 16
            | u64::from(self.eval as u16) << 32
            | u64::from(self.depth as u8) << 48
            | u64::from(self.flags) << 56
    }

    /// The entry of `key` with `data` ([`Entry::data`]).
    #[inline]
    fn unpack(key: u64, data: u64) -> Entry {
        Entry {
            key,
            mv: data as u16,
            score: (data >> 16) as u16 as i16,
            eval: (data >> 32) as u16 as i16,
            depth: (data >> 48) as u8 as i8,
            flags: (data >> 56) as u8,
        }
    }
}

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

/// A search result to store: depth, score, evaluation, bound, move and ply.
type Stored = (i32, i32, i32, Bound, u16, usize);

/// The entry of a probe hit.
#[inline]
fn hit(e: &Entry, ply: usize) -> Hit {
    Hit {
        score: from_tt(i32::from(e.score), ply),
        eval: i32::from(e.eval),
        depth: i32::from(e.depth),
        bound: match e.flags & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        },
        mv: e.mv,
    }
}

/// Where a result for `key` goes in a bucket holding `entries`, and the entry to write
/// there (see the module docs); `None` keeps the bucket as it is.
#[inline]
fn replace(
    entries: &[Entry; BUCKET],
    key: u64,
    generation: u8,
    (depth, score, eval, bound, mv, ply): Stored,
) -> Option<(usize, Entry)> {
    let age = |e: &Entry| i32::from((generation.wrapping_sub(e.flags >> 2)) & 63);
    let mut victim = 0;
    let mut worst = i32::MAX;
    for (i, e) in entries.iter().enumerate() {
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
    let e = &entries[victim];
    let same = e.key == key && e.flags & 3 != 0;
    if same
        && bound != Bound::Exact
        && age(e) == 0
        && i32::from(e.depth) > depth + 2
        && e.flags & 3 == 1
    {
        return None;
    }
    let mv = if mv == 0 && same { e.mv } else { mv };
    let b = match bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    Some((
        victim,
        Entry {
            key,
            mv,
            score: to_tt(score, ply).clamp(-32_000, 32_000) as i16,
            eval: eval.clamp(-32_000, 32_000) as i16,
            depth: depth.clamp(-1, 127) as i8,
            flags: (generation << 2) | b,
        },
    ))
}

/// The transposition table. See the module docs.
#[derive(Clone, Debug)]
pub struct TranspositionTable {
    /// In huge pages where the system allows ([`BigTable`]).
    buckets: BigTable<Bucket>,
    generation: u8,
}

impl TranspositionTable {
    /// A table of `mib` MiB (at least one bucket). Aborts when the memory cannot be had:
    /// where the size comes from a caller, use [`TranspositionTable::try_new`].
    #[must_use]
    pub fn new(mib: usize) -> TranspositionTable {
        TranspositionTable {
            buckets: BigTable::zeroed(buckets_in::<Bucket>(mib)),
            generation: 0,
        }
    }

    /// A table of `mib` MiB, or [`TableTooBig`] when the memory cannot be had (instead of
    /// aborting). The table is written through once here (see [`BigTable`]): all of it is
    /// resident when this returns, and making a large one takes a while.
    ///
    /// ```
    /// use banco_engine::tt::TranspositionTable;
    /// assert!(TranspositionTable::try_new(usize::MAX / 2).is_err());
    /// assert_eq!(TranspositionTable::try_new(1).unwrap().bytes(), 1 << 20);
    /// ```
    pub fn try_new(mib: usize) -> Result<TranspositionTable, TableTooBig> {
        Ok(TranspositionTable {
            buckets: BigTable::try_zeroed(buckets_in::<Bucket>(mib))?,
            generation: 0,
        })
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
            .map(|e| hit(e, ply))
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
        let result = (depth, score, eval, bound, mv, ply);
        if let Some((victim, entry)) = replace(&bucket.0, key, generation, result) {
            bucket.0[victim] = entry;
        }
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

/// One bucket of the shared table: four entries of two words each (key ^ data, data).
#[derive(Default)]
#[repr(C, align(64))]
struct AtomicBucket([AtomicU64; 2 * BUCKET]);

impl AtomicBucket {
    /// The four entries; a torn one reads as another key.
    #[inline]
    fn load(&self) -> [Entry; BUCKET] {
        core::array::from_fn(|i| {
            let check = self.0[2 * i].load(Ordering::Relaxed);
            let data = self.0[2 * i + 1].load(Ordering::Relaxed);
            Entry::unpack(check ^ data, data)
        })
    }
}

/// The transposition table shared by the threads of a Lazy SMP search (see the module
/// docs): the same buckets, replacement and scores as [`TranspositionTable`], in atomics.
///
/// ```
/// use banco_engine::tt::{Bound, SharedTable};
/// use std::sync::Arc;
/// let tt = Arc::new(SharedTable::new(1));
/// let other = Arc::clone(&tt);
/// std::thread::spawn(move || other.store(7, 3, 55, 10, Bound::Exact, 9, 0)).join().unwrap();
/// assert_eq!(tt.probe(7, 0).map(|h| (h.score, h.depth, h.mv)), Some((55, 3, 9)));
/// ```
pub struct SharedTable {
    buckets: Vec<AtomicBucket>,
    generation: AtomicU8,
}

impl SharedTable {
    /// A table of `mib` MiB (at least one bucket). Aborts when the memory cannot be had:
    /// where the size comes from a caller, use [`SharedTable::try_new`].
    #[must_use]
    pub fn new(mib: usize) -> SharedTable {
        let n = buckets_in::<AtomicBucket>(mib);
        SharedTable {
            buckets: (0..n).map(|_| AtomicBucket::default()).collect(),
            generation: AtomicU8::new(0),
        }
    }

    /// A table of `mib` MiB, or [`TableTooBig`] when the memory cannot be had (instead of
    /// aborting); every bucket is written here.
    ///
    /// ```
    /// use banco_engine::tt::SharedTable;
    /// assert!(SharedTable::try_new(usize::MAX / 2).is_err());
    /// assert_eq!(SharedTable::try_new(1).unwrap().bytes(), 1 << 20);
    /// ```
    pub fn try_new(mib: usize) -> Result<SharedTable, TableTooBig> {
        let n = buckets_in::<AtomicBucket>(mib);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(n).map_err(|_| TableTooBig {
            bytes: n.saturating_mul(size_of::<AtomicBucket>()),
        })?;
        buckets.extend((0..n).map(|_| AtomicBucket::default()));
        Ok(SharedTable {
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    /// Size in bytes.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.buckets.len() * size_of::<AtomicBucket>()
    }

    /// Empties the table (while no thread searches).
    pub fn clear(&self) {
        for b in &self.buckets {
            for w in &b.0 {
                w.store(0, Ordering::Relaxed);
            }
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search (ages the entries); called by the main thread only.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store((g + 1) & 63, Ordering::Relaxed);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize
    }

    /// Starts fetching the bucket of `key` into the cache (see
    /// [`TranspositionTable::prefetch`]).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse"))]
        if let Some(b) = self.buckets.get(self.index(key)) {
            safe_arch::prefetch_t0(b);
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse")))]
        let _ = key;
    }

    /// The entry for `key`, with its score made relative to the root from `ply`.
    #[inline]
    #[must_use]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        let bucket = self.buckets.get(self.index(key))?;
        bucket
            .load()
            .iter()
            .find(|e| e.key == key && e.flags & 3 != 0)
            .map(|e| hit(e, ply))
    }

    /// Stores a search result for `key` found at `ply`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        depth: i32,
        score: i32,
        eval: i32,
        bound: Bound,
        mv: u16,
        ply: usize,
    ) {
        let Some(bucket) = self.buckets.get(self.index(key)) else {
            return;
        };
        let generation = self.generation.load(Ordering::Relaxed);
        let entries = bucket.load();
        if let Some((i, e)) = replace(
            &entries,
            key,
            generation,
            (depth, score, eval, bound, mv, ply),
        ) {
            let data = e.data();
            bucket.0[2 * i].store(key ^ data, Ordering::Relaxed);
            bucket.0[2 * i + 1].store(data, Ordering::Relaxed);
        }
    }

    /// Permille of the first thousand buckets' entries written by the current search.
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let n = self.buckets.len().min(250);
        let used = self
            .buckets
            .iter()
            .take(n)
            .flat_map(|b| b.load())
            .filter(|e| e.flags & 3 != 0 && e.flags >> 2 == generation)
            .count();
        (used * 1000 / (n * BUCKET).max(1)) as u32
    }
}

/// `make(mib)`, halving `mib` while it fails, down to 1 MiB; `None` when even that fails.
fn largest_with<T>(
    mib: usize,
    make: impl Fn(usize) -> Result<T, TableTooBig>,
) -> Option<(T, usize)> {
    let mut m = mib.max(1);
    loop {
        match make(m) {
            Ok(t) => return Some((t, m)),
            Err(_) if m > 1 => m /= 2,
            Err(_) => return None,
        }
    }
}

/// The table a searcher uses: its own ([`TranspositionTable`], one thread) or one shared
/// with helper threads ([`SharedTable`], Lazy SMP).
pub enum Table {
    /// A table of this searcher's own.
    Own(TranspositionTable),
    /// A table shared with other threads.
    Shared(Arc<SharedTable>),
}

/// Buckets of type `B` in a table of `mib` MiB (at least one).
fn buckets_in<B>(mib: usize) -> usize {
    let bytes = mib.max(1).saturating_mul(1 << 20);
    (bytes / size_of::<B>()).max(1)
}

impl Table {
    /// A table of `mib` MiB, shared between threads or not, or [`TableTooBig`].
    pub fn try_new(mib: usize, shared: bool) -> Result<Table, TableTooBig> {
        Ok(if shared {
            Table::Shared(Arc::new(SharedTable::try_new(mib)?))
        } else {
            Table::Own(TranspositionTable::try_new(mib)?)
        })
    }

    /// The largest table of at most `mib` MiB the memory allows, and its size in MiB: when
    /// `mib` cannot be had (a `Hash` option larger than the machine, a phone short of
    /// memory), half of it is tried, and so on down to 1 MiB — a search never aborts the
    /// process for its table.
    pub fn largest(mib: usize, shared: bool) -> (Table, usize) {
        largest_with(mib, |m| Table::try_new(m, shared)).unwrap_or_else(|| {
            // Not even 1 MiB: nothing can run; the aborting allocation says so.
            let t = if shared {
                Table::Shared(Arc::new(SharedTable::new(1)))
            } else {
                Table::Own(TranspositionTable::new(1))
            };
            (t, 1)
        })
    }

    /// Size in bytes.
    #[must_use]
    pub fn bytes(&self) -> usize {
        match self {
            Table::Own(t) => t.bytes(),
            Table::Shared(t) => t.bytes(),
        }
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        match self {
            Table::Own(t) => t.clear(),
            Table::Shared(t) => t.clear(),
        }
    }

    /// Starts a new search.
    pub fn new_search(&mut self) {
        match self {
            Table::Own(t) => t.new_search(),
            Table::Shared(t) => t.new_search(),
        }
    }

    /// See [`TranspositionTable::prefetch`].
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        match self {
            Table::Own(t) => t.prefetch(key),
            Table::Shared(t) => t.prefetch(key),
        }
    }

    /// See [`TranspositionTable::probe`].
    #[inline]
    #[must_use]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        match self {
            Table::Own(t) => t.probe(key, ply),
            Table::Shared(t) => t.probe(key, ply),
        }
    }

    /// See [`TranspositionTable::store`].
    #[inline]
    #[allow(clippy::too_many_arguments)]
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
        match self {
            Table::Own(t) => t.store(key, depth, score, eval, bound, mv, ply),
            Table::Shared(t) => t.store(key, depth, score, eval, bound, mv, ply),
        }
    }

    /// See [`TranspositionTable::hashfull`].
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        match self {
            Table::Own(t) => t.hashfull(),
            Table::Shared(t) => t.hashfull(),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_table_that_cannot_be_had_is_refused_or_halved_never_aborted() {
        use super::*;
        assert_eq!(
            TranspositionTable::try_new(usize::MAX / 2).err(),
            Some(TableTooBig {
                bytes: (usize::MAX / size_of::<Bucket>()) * size_of::<Bucket>()
            })
        );
        assert!(SharedTable::try_new(usize::MAX / 2).is_err());
        assert!(Table::try_new(usize::MAX / 2, true).is_err());
        // Only 8 MiB to be had: 64 MiB asked for gives 8; nothing at all gives `None`.
        let fake = |m: usize| {
            if m <= 8 {
                Ok(m)
            } else {
                Err(TableTooBig { bytes: m << 20 })
            }
        };
        assert_eq!(largest_with(64, fake), Some((8, 8)));
        assert_eq!(largest_with(100, fake), Some((6, 6)));
        assert_eq!(largest_with(0, fake), Some((1, 1)));
        let none = |m: usize| Err::<usize, _>(TableTooBig { bytes: m });
        assert_eq!(largest_with(16, none), None);
        let (t, mib) = Table::largest(2, false);
        assert_eq!((t.bytes(), mib), (2 << 20, 2));
    }

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
    fn shared_table_matches_the_own_table() {
        // The same stores give the same probes, torn entries aside.
        let mut own = TranspositionTable::new(1);
        let shared = SharedTable::new(1);
        let n = own.buckets.len() as u64;
        for i in 0..3000u64 {
            let key = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            let depth = (i % 13) as i32 - 1;
            let score = if i % 7 == 0 {
                mated_in(5)
            } else {
                (i as i32 % 900) - 450
            };
            let bound = [Bound::Exact, Bound::Lower, Bound::Upper][(i % 3) as usize];
            let (mv, ply) = ((i % 5) as u16 * 1000, (i % 9) as usize);
            own.store(key, depth, score, -77, bound, mv, ply);
            shared.store(key, depth, score, -77, bound, mv, ply);
            if i % 1000 == 999 {
                own.new_search();
                shared.new_search();
            }
        }
        for i in 0..3000u64 {
            let key = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            assert_eq!(own.probe(key, 2), shared.probe(key, 2), "{i}");
        }
        assert!(n > 0 && shared.hashfull() == own.hashfull());
        let e = Entry {
            key: 5,
            mv: 0xBEEF,
            score: -31_000,
            eval: 1234,
            depth: -1,
            flags: 0xFD,
        };
        let back = Entry::unpack(5, e.data());
        assert_eq!(
            (back.mv, back.score, back.eval, back.depth, back.flags),
            (0xBEEF, -31_000, 1234, -1, 0xFD)
        );
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
