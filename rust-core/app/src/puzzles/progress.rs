//! A player's progress through the puzzle collection: which puzzles were solved, how many
//! tries and hints each took. A small record the front end stores (as bytes, with its own
//! magic and version, like the saved game) and hands back at the next start.
//!
//! [`SharedProgress`] is the record as the app holds it: one copy, shared by the collection
//! screen and the puzzle being played ([`crate::puzzle_mode`] writes into it), written to the
//! front end's [`ProgressStore`] after every change, so no front end has to remember to.
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
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// The first bytes of a progress record.
pub const MAGIC: [u8; 8] = *b"\x89BANCP\r\n";
/// The format version written: the record is followed by the CRC-32 of every byte before
/// it, magic and version included (as a saved game's). Version 1 (no checksum) is still
/// read; a build that reads only version 1 says "saved by a newer Banco".
pub const VERSION: u8 = 2;
/// The first version whose record ends with a checksum.
const VERSION_CHECKSUM: u8 = 2;
/// Largest record read.
pub const MAX_BYTES: usize = 1 << 20;

/// Why a progress record cannot be read or written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProgressError {
    /// Not a progress record.
    #[error("this is not a Banco puzzle progress record")]
    NotProgress,
    /// Written by a newer Banco.
    #[error(
        "the puzzle progress was saved by a newer Banco (format {0}); update {app}",
        app = crate::save::update_name()
    )]
    NewerVersion(u8),
    /// Too large or damaged.
    #[error("the puzzle progress is damaged: {0}")]
    Damaged(String),
    /// The store could not read what it holds (a file's permissions, a disk error): the
    /// record is left as it is and this session's progress is not stored.
    #[error(
        "the puzzle progress cannot be read ({0}): it is left as it is, and this session's progress is not kept"
    )]
    Unreadable(String),
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

    /// The first unsolved puzzle of `entries` after the one with id `current` (in their
    /// order, going round to the start), never `current` itself; `None` when every other
    /// puzzle is solved. An id that is not in `entries` starts the search at the start.
    #[must_use]
    pub fn next_unsolved_after<'a>(
        &self,
        entries: &'a [Entry],
        current: &str,
    ) -> Option<&'a Entry> {
        let at = entries
            .iter()
            .position(|e| e.id == current)
            .map_or(0, |i| i + 1);
        let (before, after) = entries.split_at(at.min(entries.len()));
        after
            .iter()
            .chain(before)
            .find(|e| e.id != current && !self.is_solved(&e.id))
    }

    /// The record as bytes.
    pub fn encode(&self) -> Result<Vec<u8>, ProgressError> {
        let mut out = MAGIC.to_vec();
        out.push(VERSION);
        let body =
            postcard::to_allocvec(self).map_err(|e| ProgressError::Damaged(e.to_string()))?;
        out.extend_from_slice(&body);
        Ok(crate::save::seal(out))
    }

    /// Reads a record written by [`Progress::encode`].
    pub fn decode(bytes: &[u8]) -> Result<Progress, ProgressError> {
        let (p, tail) = Progress::decode_prefix(bytes)?;
        if tail > 0 {
            return Err(ProgressError::Damaged(format!(
                "{tail} bytes after the record"
            )));
        }
        Ok(p)
    }

    /// The record at the start of `bytes` and how many bytes follow it (damage a reader
    /// may salvage the record from).
    fn decode_prefix(bytes: &[u8]) -> Result<(Progress, usize), ProgressError> {
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
        if version >= VERSION_CHECKSUM
            && let Some(sealed) = crate::save::unseal(bytes)
        {
            let body = sealed.get(MAGIC.len() + 1..).unwrap_or_default();
            let (p, tail) = postcard::take_from_bytes::<Progress>(body)
                .map_err(|e| ProgressError::Damaged(crate::save::damage_of(&e)))?;
            return Ok((p, tail.len()));
        }
        let (p, tail) = postcard::take_from_bytes::<Progress>(body)
            .map_err(|e| ProgressError::Damaged(crate::save::damage_of(&e)))?;
        if version < VERSION_CHECKSUM {
            return Ok((p, tail.len()));
        }
        // Not sealed as a whole: the record and its checksum followed by stray bytes (the
        // record is salvaged from those), or damage.
        let end = bytes.len() - tail.len() + crate::save::CHECKSUM_LEN;
        let sealed = bytes
            .get(..end)
            .ok_or_else(|| ProgressError::Damaged(crate::save::CUT_SHORT.to_owned()))?;
        crate::save::unseal(sealed)
            .ok_or_else(|| ProgressError::Damaged(crate::save::CHECKSUM_MISMATCH.to_owned()))?;
        Ok((p, bytes.len() - end))
    }
}

/// Where a front end keeps the progress bytes (a key-value store, a file). Called with the
/// record locked: an implementation stores the bytes and must not call back into Banco.
pub trait ProgressStore: Send + Sync {
    /// The bytes stored last, or `None` when nothing was stored yet.
    ///
    /// # Errors
    /// Why the stored bytes cannot be read, in words (a file's permissions, a disk
    /// error): the record then opens without its store, so that nothing overwrites it
    /// ([`SharedProgress::open`]).
    fn load(&self) -> Result<Option<Vec<u8>>, String>;
    /// Keeps `bytes` in place of what was stored.
    fn save(&self, bytes: Vec<u8>);
}

/// The player's progress as the app holds it (see the module docs): safe to share between
/// threads; every change through [`SharedProgress::update`] is written to its store.
///
/// ```
/// use banco_app::puzzles::progress::{Progress, SharedProgress};
/// let shared = SharedProgress::new(Progress::default(), None);
/// shared.update(|p| p.attempted("sp-1"));
/// assert_eq!(shared.read(|p| p.record("sp-1")).map(|r| r.attempts), Some(1));
/// ```
pub struct SharedProgress {
    record: Mutex<Progress>,
    store: Option<Arc<dyn ProgressStore>>,
}

impl std::fmt::Debug for SharedProgress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedProgress")
            .field("record", &*self.lock())
            .field("store", &self.store.is_some())
            .finish()
    }
}

impl SharedProgress {
    /// `record`, written to `store` (if any) after every change.
    #[must_use]
    pub fn new(record: Progress, store: Option<Arc<dyn ProgressStore>>) -> Arc<SharedProgress> {
        Arc::new(SharedProgress {
            record: Mutex::new(record),
            store,
        })
    }

    /// The record kept in `store`, with the reason when it was not read whole: a record
    /// followed by stray bytes is kept (the next change writes it back clean); a record of
    /// a newer Banco, or a store that cannot read what it holds
    /// ([`ProgressError::Unreadable`]), starts afresh and is never overwritten (this
    /// session's progress is not stored); any other damage starts afresh, and the store
    /// keeps the damaged bytes until the first change (a front end that can should set
    /// them aside first, as the CLI does).
    #[must_use]
    pub fn open(store: Arc<dyn ProgressStore>) -> (Arc<SharedProgress>, Option<ProgressError>) {
        let bytes = match store.load() {
            Ok(Some(bytes)) => bytes,
            Ok(None) => return (SharedProgress::new(Progress::default(), Some(store)), None),
            Err(why) => {
                return (
                    SharedProgress::new(Progress::default(), None),
                    Some(ProgressError::Unreadable(why)),
                );
            }
        };
        match Progress::decode_prefix(&bytes) {
            Ok((p, 0)) => (SharedProgress::new(p, Some(store)), None),
            Ok((p, tail)) => (
                SharedProgress::new(p, Some(store)),
                Some(ProgressError::Damaged(format!(
                    "{tail} stray bytes after the record; the record is kept"
                ))),
            ),
            Err(e @ ProgressError::NewerVersion(_)) => {
                (SharedProgress::new(Progress::default(), None), Some(e))
            }
            Err(e) => (
                SharedProgress::new(Progress::default(), Some(store)),
                Some(e),
            ),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Progress> {
        self.record.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Reads the record.
    pub fn read<R>(&self, f: impl FnOnce(&Progress) -> R) -> R {
        f(&self.lock())
    }

    /// Changes the record and writes it to the store.
    pub fn update(&self, f: impl FnOnce(&mut Progress)) {
        let mut record = self.lock();
        f(&mut record);
        if let Some(store) = &self.store
            && let Ok(bytes) = record.encode()
        {
            store.save(bytes);
        }
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

    #[test]
    fn next_after_goes_on_in_order_and_round() {
        let all = &collection::xiangqi()[..4];
        let ids: Vec<&str> = all.iter().map(|e| e.id.as_str()).collect();
        let mut p = Progress::default();
        let next = |p: &Progress, at: &str| p.next_unsolved_after(all, at).map(|e| e.id.as_str());
        assert_eq!(next(&p, ids[0]), Some(ids[1]));
        p.solved(ids[1]);
        assert_eq!(
            next(&p, ids[0]),
            Some(ids[2]),
            "a solved one is passed over"
        );
        assert_eq!(next(&p, ids[3]), Some(ids[0]), "round to the start");
        assert_eq!(next(&p, "not an id"), Some(ids[0]));
        p.solved(ids[0]);
        p.solved(ids[2]);
        assert_eq!(next(&p, ids[3]), None, "only the current one is left");
        p.solved(ids[3]);
        assert_eq!(next(&p, ids[3]), None);
    }

    #[derive(Default)]
    struct Memory(Mutex<Option<Vec<u8>>>);
    impl ProgressStore for Memory {
        fn load(&self) -> Result<Option<Vec<u8>>, String> {
            Ok(self.0.lock().unwrap().clone())
        }
        fn save(&self, bytes: Vec<u8>) {
            *self.0.lock().unwrap() = Some(bytes);
        }
    }

    #[test]
    fn shared_progress_is_stored_after_every_change() {
        let store = Arc::new(Memory::default());
        let (shared, damage) = SharedProgress::open(store.clone());
        assert_eq!(damage, None);
        assert!(
            store.load().unwrap().is_none(),
            "nothing written before a change"
        );
        shared.update(|p| p.solved("a"));
        let (again, damage) = SharedProgress::open(store.clone());
        assert_eq!(damage, None);
        assert!(again.read(|p| p.is_solved("a")));
        // Damaged bytes: afresh, with the reason; the bytes stay until the first change.
        store.save(b"garbage".to_vec());
        let (fresh, damage) = SharedProgress::open(store.clone());
        assert_eq!(damage, Some(ProgressError::NotProgress));
        assert!(!fresh.read(|p| p.is_solved("a")));
        assert_eq!(store.load().unwrap().as_deref(), Some(&b"garbage"[..]));
        fresh.update(|p| p.attempted("b"));
        assert!(Progress::decode(&store.load().unwrap().unwrap()).is_ok());
        assert!(format!("{fresh:?}").contains("store: true"));
    }

    #[test]
    fn a_record_followed_by_stray_bytes_is_kept() {
        let store = Arc::new(Memory::default());
        let mut p = Progress::default();
        p.solved("a");
        let mut bytes = p.encode().unwrap();
        bytes.push(b'X');
        store.save(bytes);
        let (shared, damage) = SharedProgress::open(store.clone());
        assert!(
            matches!(damage, Some(ProgressError::Damaged(_))),
            "{damage:?}"
        );
        assert!(
            shared.read(|p| p.is_solved("a")),
            "the solved puzzle is kept"
        );
        shared.update(|p| p.attempted("b"));
        let clean = Progress::decode(&store.load().unwrap().unwrap()).unwrap();
        assert!(clean.is_solved("a"));
    }

    #[test]
    fn a_newer_record_is_never_overwritten() {
        let store = Arc::new(Memory::default());
        let mut newer = MAGIC.to_vec();
        newer.push(VERSION + 1);
        newer.extend_from_slice(b"whatever the newer format holds");
        store.save(newer.clone());
        let (shared, damage) = SharedProgress::open(store.clone());
        assert_eq!(damage, Some(ProgressError::NewerVersion(VERSION + 1)));
        shared.update(|p| p.solved("a"));
        assert_eq!(store.load(), Ok(Some(newer)), "the newer record stays");
    }

    /// A store that cannot read what it holds: saves are counted, never made.
    #[derive(Default)]
    struct Unreadable(Mutex<u32>);
    impl ProgressStore for Unreadable {
        fn load(&self) -> Result<Option<Vec<u8>>, String> {
            Err("Permission denied (os error 13)".into())
        }
        fn save(&self, _bytes: Vec<u8>) {
            *self.0.lock().unwrap() += 1;
        }
    }

    #[test]
    fn a_store_that_cannot_be_read_is_never_written() {
        let store = Arc::new(Unreadable::default());
        let (shared, damage) = SharedProgress::open(store.clone());
        assert_eq!(
            damage.map(|e| e.to_string()),
            Some("the puzzle progress cannot be read (Permission denied (os error 13)): it is left as it is, and this session's progress is not kept".into())
        );
        shared.update(|p| p.solved("a"));
        assert!(shared.read(|p| p.is_solved("a")), "kept for the session");
        assert_eq!(
            *store.0.lock().unwrap(),
            0,
            "nothing written over the record"
        );
    }

    #[test]
    fn a_cut_record_says_so_in_words() {
        let mut p = Progress::default();
        p.solved("some-puzzle");
        let bytes = p.encode().unwrap();
        let e = Progress::decode(&bytes[..bytes.len() - 3]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the puzzle progress is damaged: the file ends before the record does (it was cut short)"
        );
    }

    proptest! {
        #![proptest_config(banco_game::testing::proptest_config(None, 0x9E55))]

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
