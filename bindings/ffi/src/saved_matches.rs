//! [`SavedMatches`]: the matches the player saved, newest first, the newest
//! [`saved_matches_limit`] kept in the shell's key-value store — banco-app's
//! `saved_matches` policy (its format, what a save drops and the words that say so, damaged
//! records left out of the list), labelled by [`crate::saved_game_summary`]. The shell keeps
//! only its store adapter and shows the words and the list.
//!
//! ```
//! use banco_ffi::{Game, GameKind, KeptStore, SavedMatches};
//! use std::collections::HashMap;
//! use std::sync::{Arc, Mutex};
//!
//! #[derive(Default)]
//! struct Memory(Mutex<HashMap<String, String>>);
//! impl KeptStore for Memory {
//!     fn get(&self, key: String) -> Option<String> { self.0.lock().unwrap().get(&key).cloned() }
//!     fn put(&self, key: String, value: String) { self.0.lock().unwrap().insert(key, value); }
//!     fn remove(&self, key: String) { self.0.lock().unwrap().remove(&key); }
//! }
//!
//! let records = SavedMatches::new(Arc::new(Memory::default()));
//! let game = Game::new(GameKind::Chess).unwrap();
//! game.play_text("e4".into(), None).unwrap();
//! assert_eq!(records.save(game.save().unwrap()), "Saved (Saved matches)");
//! assert_eq!(records.list()[0].label, "Chess · unfinished · 1 ply");
//! ```

use crate::error::{BancoError, guard};
use crate::kept::{KeptStore, relay};
use banco_app::saved_matches as s;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// A saved match as the list shows it.
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct SavedMatch {
    /// Its label, Rust's ("Chess · 0-1 resignation · 12 plies").
    pub label: String,
    /// Its record: open it as a shared record (`Game.load`).
    pub saved: Vec<u8>,
}

/// The most matches kept (20).
#[uniffi::export]
pub fn saved_matches_limit() -> u32 {
    u32::try_from(s::SAVED_MATCHES_LIMIT).unwrap_or(u32::MAX)
}

/// The list of saved matches in the shell's store, at the key both shells always used
/// (`match.records`): see the module's docs.
#[derive(uniffi::Object)]
pub struct SavedMatches {
    /// One save or read at a time (a save reads the list, then writes it).
    list: Mutex<s::SavedMatches>,
}

impl SavedMatches {
    fn lock(&self) -> MutexGuard<'_, s::SavedMatches> {
        self.list.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Rust's label of a saved record; `None` when it cannot be read (damaged).
fn label(bytes: &[u8]) -> Option<String> {
    crate::saved_game_summary(bytes.to_vec()).ok()
}

#[uniffi::export]
impl SavedMatches {
    /// The list kept in `store`.
    #[uniffi::constructor]
    pub fn new(store: Arc<dyn KeptStore>) -> Arc<SavedMatches> {
        Arc::new(SavedMatches {
            list: Mutex::new(s::SavedMatches::new(relay(store), s::SAVED_MATCHES_KEY)),
        })
    }

    /// Keeps `saved` (a match's record, `Match.game()` / a controller's `saved()`) first;
    /// the oldest beyond [`saved_matches_limit`] go. The words to show: "Saved (Saved
    /// matches)", and which match made room if one did ("…; 20 are kept, so the oldest
    /// went: …"); if the store failed, that it was not saved.
    pub fn save(&self, saved: Vec<u8>) -> String {
        guard(|| Ok(self.lock().save(&saved, label)))
            .unwrap_or_else(|e: BancoError| format!("The match could not be saved: {e}"))
    }

    /// The saved matches, newest first, each with Rust's label; damaged ones are left out
    /// (empty if the store failed).
    pub fn list(&self) -> Vec<SavedMatch> {
        guard(|| {
            Ok(self
                .lock()
                .list(label)
                .into_iter()
                .map(|m| SavedMatch {
                    label: m.label,
                    saved: m.saved,
                })
                .collect())
        })
        .unwrap_or_default()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::kept::tests::Memory;
    use crate::{Game, GameKind};

    /// A chess game of the first `plies` (up to 21) of a Ruy Lopez, saved.
    fn saved(plies: usize) -> Vec<u8> {
        const RUY_LOPEZ: [&str; 21] = [
            "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3",
            "d6", "c3", "O-O", "h3", "Nb8", "d4", "Nbd7", "c4",
        ];
        let game = Game::new(GameKind::Chess).unwrap();
        for mv in RUY_LOPEZ.iter().take(plies) {
            game.play_text((*mv).into(), None).unwrap();
        }
        game.save().unwrap()
    }

    /// Real records, labelled by Rust: the 21st save names the oldest; a damaged record
    /// is left out of the list and named when it goes.
    #[test]
    fn saved_matches_keep_twenty_and_say_what_went() {
        let store = Arc::new(Memory::default());
        let records = SavedMatches::new(store.clone());
        assert_eq!(records.save(vec![1, 2, 3]), "Saved (Saved matches)");
        assert_eq!(records.list(), vec![], "a damaged record is left out");
        for plies in 1..=19 {
            assert_eq!(records.save(saved(plies)), "Saved (Saved matches)");
        }
        assert_eq!(records.list().len(), 19);
        assert_eq!(
            records.save(saved(20)),
            "Saved (Saved matches); 20 are kept, so the oldest went: a damaged record"
        );
        assert_eq!(
            records.save(saved(21)),
            "Saved (Saved matches); 20 are kept, so the oldest went: Chess · unfinished · 1 ply"
        );
        let list = records.list();
        assert_eq!(list.len(), 20);
        assert_eq!(list[0].label, "Chess · unfinished · 21 plies");
        assert_eq!(list[0].saved, saved(21));
        assert_eq!(list[19].label, "Chess · unfinished · 2 plies");
        assert!(store.get("match.records".into()).is_some());
        assert_eq!(saved_matches_limit(), 20);
    }

    /// A store that throws is said, not a crash.
    #[test]
    fn a_store_that_throws_is_said() {
        struct Throwing;
        impl KeptStore for Throwing {
            fn get(&self, _key: String) -> Option<String> {
                std::panic::panic_any("the store is locked".to_owned())
            }
            fn put(&self, _key: String, _value: String) {}
            fn remove(&self, _key: String) {}
        }
        let records = SavedMatches::new(Arc::new(Throwing));
        assert!(
            records
                .save(saved(1))
                .starts_with("The match could not be saved")
        );
        assert_eq!(records.list(), vec![]);
    }
}
