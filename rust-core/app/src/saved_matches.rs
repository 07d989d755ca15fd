//! The matches the player saved (a networked match's record, `Match.game()`'s bytes), kept
//! in the front end's key-value store ([`KeptStore`]) — one list, one policy and one set of
//! words for every app:
//!
//! * the list is kept at one key as the records' Base64 joined by commas, newest first (the
//!   format both phone shells wrote before this module, read as it is);
//! * at most [`SAVED_MATCHES_LIMIT`] are kept: a save beyond it drops the oldest, and its
//!   words name what went ("Saved (Saved matches); 20 are kept, so the oldest went: …"),
//!   never silently;
//! * a record the labeller cannot read (damaged) is left out of the list, and named "a
//!   damaged record" when it goes; so is text between commas that is not Base64 (a store
//!   that altered it), which is kept as it is until then: nothing goes unsaid.
//!
//! What a record's label says is the caller's labeller (the FFI's `savedGameSummary`).
//!
//! ```
//! use banco_app::kept::KeptStore;
//! use banco_app::saved_matches::SavedMatches;
//! use std::collections::HashMap;
//! use std::sync::{Arc, Mutex};
//!
//! #[derive(Default)]
//! struct Memory(Mutex<HashMap<String, String>>);
//! impl KeptStore for Memory {
//!     fn get(&self, key: &str) -> Option<String> { self.0.lock().unwrap().get(key).cloned() }
//!     fn put(&self, key: &str, value: &str) { self.0.lock().unwrap().insert(key.into(), value.into()); }
//!     fn remove(&self, key: &str) { self.0.lock().unwrap().remove(key); }
//! }
//!
//! let label = |bytes: &[u8]| (bytes.first() != Some(&0)).then(|| format!("{} bytes", bytes.len()));
//! let records = SavedMatches::new(Arc::new(Memory::default()), "match.records");
//! assert_eq!(records.save(&[1, 2, 3], label), "Saved (Saved matches)");
//! records.save(&[0], label); // damaged: kept, but not listed
//! records.save(&[4, 5], label);
//! let list = records.list(label);
//! assert_eq!(list.len(), 2);
//! assert_eq!((list[0].label.as_str(), list[0].saved.as_slice()), ("2 bytes", &[4, 5][..]));
//! ```

use crate::kept::{KeptStore, base64};
use std::sync::Arc;

/// The most matches kept.
pub const SAVED_MATCHES_LIMIT: usize = 20;

/// The key both shells keep the list at.
pub const SAVED_MATCHES_KEY: &str = "match.records";

/// A saved match as a list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedMatch {
    /// Its label ("Chess · 0-1 resignation · 12 plies").
    pub label: String,
    /// Its record, to open.
    pub saved: Vec<u8>,
}

/// The list of saved matches in a front end's store (module docs).
pub struct SavedMatches {
    store: Arc<dyn KeptStore>,
    key: String,
}

impl SavedMatches {
    /// The list kept at `key` of `store`.
    #[must_use]
    pub fn new(store: Arc<dyn KeptStore>, key: &str) -> SavedMatches {
        SavedMatches {
            store,
            key: key.to_owned(),
        }
    }

    /// Keeps `saved` first; the oldest beyond [`SAVED_MATCHES_LIMIT`] go. The words to show:
    /// "Saved", and which match made room if one did (by `label`, "a damaged record" when
    /// it has none).
    pub fn save(&self, saved: &[u8], label: impl Fn(&[u8]) -> Option<String>) -> String {
        let mut old = self.pieces();
        let dropped = old.split_off(old.len().min(SAVED_MATCHES_LIMIT - 1));
        let text = std::iter::once(base64::encode(saved))
            .chain(old.iter().map(|piece| match piece {
                Piece::Record(bytes) => base64::encode(bytes),
                Piece::Unreadable(text) => text.clone(),
            }))
            .collect::<Vec<_>>()
            .join(",");
        self.store.put(&self.key, &text);
        if dropped.is_empty() {
            return "Saved (Saved matches)".to_owned();
        }
        let names: Vec<String> = dropped
            .iter()
            .map(|piece| match piece {
                Piece::Record(bytes) => label(bytes),
                Piece::Unreadable(_) => None,
            })
            .map(|name| name.unwrap_or_else(|| "a damaged record".to_owned()))
            .collect();
        format!(
            "Saved (Saved matches); {SAVED_MATCHES_LIMIT} are kept, so the oldest went: {}",
            names.join("; ")
        )
    }

    /// The saved matches, newest first; one `label` cannot read (damaged) is left out.
    #[must_use]
    pub fn list(&self, label: impl Fn(&[u8]) -> Option<String>) -> Vec<SavedMatch> {
        self.pieces()
            .into_iter()
            .filter_map(|piece| match piece {
                Piece::Record(saved) => label(&saved).map(|label| SavedMatch { label, saved }),
                Piece::Unreadable(_) => None,
            })
            .collect()
    }

    /// What the list holds, newest first.
    fn pieces(&self) -> Vec<Piece> {
        self.store
            .get(&self.key)
            .map(|text| {
                text.split(',')
                    .filter(|piece| !piece.is_empty())
                    .map(|piece| {
                        base64::decode(piece)
                            .map_or_else(|| Piece::Unreadable(piece.to_owned()), Piece::Record)
                    })
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// One entry of the stored list.
enum Piece {
    /// A record's bytes.
    Record(Vec<u8>),
    /// Text that is not Base64, kept as it is.
    Unreadable(String),
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    use crate::kept::tests::Memory;

    /// Records `[n, n]` read as "match n"; a record starting with 0 is damaged.
    fn label(bytes: &[u8]) -> Option<String> {
        match bytes {
            [0, ..] | [] => None,
            [n, ..] => Some(format!("match {n}")),
        }
    }

    fn labels(list: &[SavedMatch]) -> Vec<String> {
        list.iter().map(|m| m.label.clone()).collect()
    }

    /// Twenty are kept, newest first; the 21st save drops the oldest and names it.
    #[test]
    fn the_21st_save_drops_the_oldest_and_says_which() {
        let store = Arc::new(Memory::default());
        let records = SavedMatches::new(store.clone(), SAVED_MATCHES_KEY);
        assert_eq!(records.list(label), vec![]);
        for n in 1..=20u8 {
            assert_eq!(records.save(&[n, n], label), "Saved (Saved matches)");
        }
        let list = records.list(label);
        assert_eq!(list.len(), SAVED_MATCHES_LIMIT);
        assert_eq!(list[0].label, "match 20", "newest first");
        assert_eq!(list[0].saved, vec![20, 20]);
        assert_eq!(list[19].label, "match 1");
        assert_eq!(
            records.save(&[21, 21], label),
            "Saved (Saved matches); 20 are kept, so the oldest went: match 1"
        );
        let list = records.list(label);
        assert_eq!(list.len(), SAVED_MATCHES_LIMIT);
        assert_eq!(list[0].label, "match 21");
        assert_eq!(list[19].label, "match 2");
    }

    /// A damaged record is kept in its place but left out of the list, and named "a damaged
    /// record" when it goes; so is text that is not Base64, kept as it is until then.
    #[test]
    fn damaged_records_are_left_out_and_named_when_they_go() {
        let store = Arc::new(Memory::default());
        let records = SavedMatches::new(store.clone(), SAVED_MATCHES_KEY);
        records.save(&[0, 1], label);
        for n in 2..=20u8 {
            records.save(&[n], label);
        }
        assert_eq!(records.list(label).len(), 19, "the damaged one is left out");
        assert_eq!(
            records.save(&[21], label),
            "Saved (Saved matches); 20 are kept, so the oldest went: a damaged record"
        );
        assert_eq!(records.list(label).len(), 20);

        let text = store.get(SAVED_MATCHES_KEY).unwrap();
        store.put(SAVED_MATCHES_KEY, &format!("%%% not Base64,,{text}"));
        assert_eq!(records.list(label).len(), 20, "not Base64: not listed");
        // It counts as an entry: 21 now, so the two oldest records go.
        assert_eq!(
            records.save(&[22], label),
            "Saved (Saved matches); 20 are kept, so the oldest went: match 3; match 2"
        );
        let kept = store.get(SAVED_MATCHES_KEY).unwrap();
        assert!(
            kept.starts_with("Fg==,%%% not Base64,"),
            "kept as it is: {kept}"
        );
        for n in 23..=40u8 {
            records.save(&[n], label);
        }
        assert_eq!(
            records.save(&[41], label),
            "Saved (Saved matches); 20 are kept, so the oldest went: a damaged record"
        );
        assert!(!store.get(SAVED_MATCHES_KEY).unwrap().contains('%'));
    }

    /// The list as the shells stored it (Java's `Base64.getEncoder()`, Swift's
    /// `base64EncodedString()`: padded, joined by commas) reads as it is, and a save keeps
    /// that format.
    #[test]
    fn a_list_the_shells_saved_reads_as_it_is() {
        // [1, 1, 1], [2], [3, 3]: "AQEB", "Ag==", "AwM=".
        let store = Arc::new(Memory::default());
        store.put(SAVED_MATCHES_KEY, "AQEB,Ag==,AwM=");
        let records = SavedMatches::new(store.clone(), SAVED_MATCHES_KEY);
        let list = records.list(label);
        assert_eq!(labels(&list), ["match 1", "match 2", "match 3"]);
        assert_eq!(list[1].saved, vec![2]);
        records.save(&[4], label);
        assert_eq!(
            store.get(SAVED_MATCHES_KEY).as_deref(),
            Some("BA==,AQEB,Ag==,AwM=")
        );
    }
}
