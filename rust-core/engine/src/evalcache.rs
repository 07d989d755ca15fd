//! Evaluation cache: static evaluations remembered by position hash, so that a position
//! met again (in the next iteration, through another move order, in a re-search) is not
//! evaluated twice. Direct-mapped, one 8-byte entry per slot (32 bits of the key, the
//! evaluation), small enough to stay in the second-level cache.
//!
//! The evaluation depends only on the position and the searcher's weights, which never
//! change during a searcher's life, so a cached value is always the value the evaluation
//! would return (up to a 1-in-2³¹ key clash per probe); results stay deterministic.
//!
//! ```
//! use banco_engine::evalcache::EvalCache;
//! let mut cache = EvalCache::new();
//! assert_eq!(cache.probe(0x1234_5678_9ABC_DEF0), None);
//! cache.store(0x1234_5678_9ABC_DEF0, -42);
//! assert_eq!(cache.probe(0x1234_5678_9ABC_DEF0), Some(-42));
//! assert_eq!(cache.probe(0x9999_5678_9ABC_DEF0), None); // same slot, other key
//! ```

/// Slots (a power of two): 16,384 × 8 bytes = 128 KiB.
const SLOTS: usize = 1 << 14;

/// The cache. See the module docs.
#[derive(Clone, Debug)]
pub struct EvalCache {
    /// Key check in the high 32 bits (low bit always set, so 0 is an empty slot), the
    /// evaluation in the low 32.
    slots: Box<[u64]>,
}

impl Default for EvalCache {
    fn default() -> Self {
        Self::new()
    }
}

impl EvalCache {
    /// An empty cache.
    #[must_use]
    pub fn new() -> EvalCache {
        EvalCache {
            slots: vec![0; SLOTS].into_boxed_slice(),
        }
    }

    /// Size in bytes.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.slots.len() * size_of::<u64>()
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.slots.fill(0);
    }

    #[inline(always)]
    fn check(key: u64) -> u64 {
        (key | 1 << 32) & !0xFFFF_FFFF
    }

    /// The evaluation stored for `key`, if any.
    #[inline]
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<i32> {
        let e = *self.slots.get(key as usize & (SLOTS - 1))?;
        (e & !0xFFFF_FFFF == Self::check(key)).then_some(e as u32 as i32)
    }

    /// Remembers `eval` for `key` (replacing whatever shared its slot).
    #[inline]
    pub fn store(&mut self, key: u64, eval: i32) {
        if let Some(e) = self.slots.get_mut(key as usize & (SLOTS - 1)) {
            *e = Self::check(key) | u64::from(eval as u32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes_any_value_and_key() {
        let mut c = EvalCache::new();
        for (i, v) in [i32::MIN, -1, 0, 1, i32::MAX].into_iter().enumerate() {
            // Keys with the low bit of the high half clear and set, and a zero high half.
            for key in [
                i as u64,
                (i as u64) | 1 << 32,
                (i as u64) | 0xFFFF_FFFE << 32,
            ] {
                c.store(key, v);
                assert_eq!(c.probe(key), Some(v), "{key:x}");
            }
        }
        c.clear();
        assert_eq!(c.probe(1 << 32), None);
        // A fresh slot never matches, even for a key whose check is all zero.
        assert_eq!(EvalCache::new().probe(0), None);
        assert_eq!(c.bytes(), 128 << 10);
    }
}
