//! The records a shell keeps in its key-value store — the game to continue, Lines' game to
//! continue, Lines' best scores — under one policy, banco-app's `kept` module: a
//! [`KeptSlot`] over the shell's [`KeptStore`] reads a record with the loader that opens
//! it, sets damaged text aside at `KEY.damaged` before anything writes over it, and never
//! writes over a newer Banco's record (its notice says to update the app). The shell keeps
//! only its store adapter and shows the notice.
//!
//! ```
//! use banco_ffi::{KeptKind, KeptSlot, KeptStore};
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
//! let store = Arc::new(Memory::default());
//! store.put("lines.best".into(), "AQID".into()); // bytes 1, 2, 3: damaged
//! let slot = KeptSlot::new(store.clone(), "lines.best".into(), KeptKind::LinesBestScores);
//! let read = slot.read()?;
//! assert_eq!(read.bytes, None);
//! assert!(read.notice.unwrap().contains("set aside"));
//! assert_eq!(store.get("lines.best.damaged".into()).as_deref(), Some("AQID"));
//! assert!(slot.write(vec![2, 0])?, "the slot is free for new scores");
//! # Ok::<(), banco_ffi::BancoError>(())
//! ```

use crate::error::{BancoError, guard};
use banco_app::kept as k;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// The shell's key-value store of text (SharedPreferences, UserDefaults): records are kept
/// in it as Base64. Its calls are made on the thread of the [`KeptSlot`] call that needs
/// them; keep them quick (an asynchronous write, as `SharedPreferences.apply`) and do not
/// call Banco from them.
#[uniffi::export(with_foreign)]
pub trait KeptStore: Send + Sync {
    /// The text kept at `key`; null/nil when there is none.
    fn get(&self, key: String) -> Option<String>;
    /// Keeps `value` at `key` in place of what was there.
    fn put(&self, key: String, value: String);
    /// Forgets what is kept at `key`.
    fn remove(&self, key: String);
}

/// banco-app's store over the shell's.
struct Relay(Arc<dyn KeptStore>);

impl k::KeptStore for Relay {
    fn get(&self, key: &str) -> Option<String> {
        self.0.get(key.to_owned())
    }
    fn put(&self, key: &str, value: &str) {
        self.0.put(key.to_owned(), value.to_owned());
    }
    fn remove(&self, key: &str) {
        self.0.remove(key.to_owned());
    }
}

/// banco-app's store over the shell's `store`.
pub(crate) fn relay(store: Arc<dyn KeptStore>) -> Arc<dyn k::KeptStore> {
    Arc::new(Relay(store))
}

/// What a slot holds, which decides how it is read and what its notices say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum KeptKind {
    /// A board game to continue against the computer (`VsComputer.save()` bytes).
    Game,
    /// A Lines game to continue (`LinesGame.save()` bytes).
    LinesGame,
    /// Lines' best scores (`LinesGame.bestScoresBytes()`).
    LinesBestScores,
}

impl From<KeptKind> for k::KeptKind {
    fn from(kind: KeptKind) -> k::KeptKind {
        match kind {
            KeptKind::Game => k::KeptKind::Game,
            KeptKind::LinesGame => k::KeptKind::LinesGame,
            KeptKind::LinesBestScores => k::KeptKind::LinesBestScores,
        }
    }
}

/// What [`KeptSlot::read`] found.
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct KeptRead {
    /// The record's bytes, sound for its loader; null/nil when there is none to use.
    pub bytes: Option<Vec<u8>>,
    /// What to tell the player once, in Rust's words: the record was damaged and set aside,
    /// or a newer Banco's and kept as it is ("… update the app …").
    pub notice: Option<String>,
}

/// One record of the shell's store, at one key (the shell's own key, as it always kept
/// it), under the kept-record policy: see the module's docs.
#[derive(uniffi::Object)]
pub struct KeptSlot {
    slot: Mutex<k::KeptSlot>,
}

impl KeptSlot {
    fn lock(&self) -> MutexGuard<'_, k::KeptSlot> {
        self.slot.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[uniffi::export]
impl KeptSlot {
    /// The slot at `key` of `store`, holding a record of `kind`; nothing is read yet.
    #[uniffi::constructor]
    pub fn new(store: Arc<dyn KeptStore>, key: String, kind: KeptKind) -> Arc<KeptSlot> {
        Arc::new(KeptSlot {
            slot: Mutex::new(k::KeptSlot::new(relay(store), &key, kind.into())),
        })
    }

    /// True when the store holds something at the key (to offer "Continue": a read may
    /// still find it damaged or a newer Banco's); false too if the store's `get` failed.
    pub fn is_present(&self) -> bool {
        guard(|| Ok(self.lock().is_present())).unwrap_or(false)
    }

    /// True when the slot holds a newer Banco's record, found so by a read or a write: it
    /// is not written this session.
    pub fn is_locked(&self) -> bool {
        self.lock().is_locked()
    }

    /// The record, read with the loader that opens it: sound bytes come back; damaged ones
    /// are set aside at `KEY.damaged` and the slot emptied; a newer Banco's lock the slot
    /// (kept as they are). Either refusal comes with its notice. Throws only if the store
    /// failed (`Internal`).
    pub fn read(&self) -> Result<KeptRead, BancoError> {
        guard(|| {
            let kept = self.lock().read();
            Ok(KeptRead {
                bytes: kept.bytes,
                notice: kept.notice.map(|n| n.text()),
            })
        })
    }

    /// Keeps `bytes` (as Base64) in the slot; false, writing nothing, when the slot holds
    /// a newer Banco's record. Text no read judged yet is judged first (damaged text set
    /// aside). Throws only if the store failed (`Internal`).
    pub fn write(&self, bytes: Vec<u8>) -> Result<bool, BancoError> {
        guard(|| Ok(self.lock().write(&bytes).is_ok()))
    }

    /// Empties the slot (a finished game is not continued); false, changing nothing, when
    /// it holds a newer Banco's record. Throws only if the store failed (`Internal`).
    pub fn clear(&self) -> Result<bool, BancoError> {
        guard(|| Ok(self.lock().clear().is_ok()))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
pub(crate) mod tests {
    use super::*;
    use std::collections::HashMap;

    /// An in-memory store, the tests' platform store (shared by the keepers' tests).
    #[derive(Default)]
    pub(crate) struct Memory(Mutex<HashMap<String, String>>);
    impl KeptStore for Memory {
        fn get(&self, key: String) -> Option<String> {
            self.0.lock().unwrap().get(&key).cloned()
        }
        fn put(&self, key: String, value: String) {
            self.0.lock().unwrap().insert(key, value);
        }
        fn remove(&self, key: String) {
            self.0.lock().unwrap().remove(&key);
        }
    }

    /// A shell's store that throws (a panic on the Rust side).
    struct Throwing;
    impl KeptStore for Throwing {
        fn get(&self, _key: String) -> Option<String> {
            std::panic::panic_any("the store is locked".to_owned())
        }
        fn put(&self, _key: String, _value: String) {
            std::panic::panic_any("the store is locked".to_owned())
        }
        fn remove(&self, _key: String) {
            std::panic::panic_any("the store is locked".to_owned())
        }
    }

    #[test]
    fn a_game_saved_by_a_newer_banco_is_kept_and_not_written() {
        let game = crate::Game::new(crate::GameKind::Xiangqi).unwrap();
        let mut bytes = game.save().unwrap();
        let store = Arc::new(Memory::default());
        let slot = KeptSlot::new(store.clone(), "game.continue".into(), KeptKind::Game);
        assert!(!slot.is_present());
        assert!(slot.write(bytes.clone()).unwrap());
        assert_eq!(slot.read().unwrap().bytes, Some(bytes.clone()));
        bytes[8] = 200;
        let again = KeptSlot::new(store.clone(), "game.continue".into(), KeptKind::Game);
        assert!(
            again.write(bytes.clone()).unwrap(),
            "sound bytes are replaced"
        );
        let third = KeptSlot::new(store.clone(), "game.continue".into(), KeptKind::Game);
        let read = third.read().unwrap();
        assert_eq!(read.bytes, None);
        assert!(read.notice.unwrap().contains("update the app"));
        assert!(third.is_locked() && third.is_present());
        let before = store.get("game.continue".into());
        assert!(!third.write(vec![1]).unwrap());
        assert!(!third.clear().unwrap());
        assert_eq!(store.get("game.continue".into()), before);
    }

    /// Base64 as the shells write it (the store's text is checked against Rust's reading).
    fn base64(bytes: &[u8]) -> String {
        let store = Arc::new(Memory::default());
        let slot = KeptSlot::new(store.clone(), "b".into(), KeptKind::LinesGame);
        assert!(slot.write(bytes.to_vec()).unwrap());
        store.get("b".into()).unwrap()
    }

    #[test]
    fn garbage_in_the_store_is_read_without_a_panic() {
        let game = crate::Game::new(crate::GameKind::Xiangqi)
            .unwrap()
            .save()
            .unwrap();
        let lines = crate::LinesGame::new(
            crate::LinesSettings {
                start_balls: 5,
                undo: crate::LinesUndo::LastTurn,
                preview: false,
            },
            Some(1),
        )
        .unwrap();
        let samples = [
            (KeptKind::Game, game),
            (KeptKind::LinesGame, lines.save().unwrap()),
            (
                KeptKind::LinesBestScores,
                lines.best_scores_bytes().unwrap(),
            ),
        ];
        for (kind, good) in samples {
            let mut texts: Vec<String> = [
                "",
                "=",
                "====",
                "A",
                "🐉",
                "\0",
                "x".repeat(100_000).as_str(),
            ]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
            for i in 0..good.len() {
                let mut bad = good.clone();
                bad[i] ^= 0x5A;
                texts.push(base64(&bad));
                texts.push(base64(&good[..i]));
            }
            for text in texts {
                let store = Arc::new(Memory::default());
                store.put("k".into(), text.clone());
                let slot = KeptSlot::new(store.clone(), "k".into(), kind);
                let read = slot.read().unwrap();
                // Either sound, or refused with a notice (set aside, or kept and locked).
                assert!(
                    read.bytes.is_some() != read.notice.is_some(),
                    "{kind:?} {text:.40}"
                );
                if read.bytes.is_none() && !slot.is_locked() {
                    assert_eq!(store.get("k.damaged".into()), Some(text));
                }
            }
        }
    }

    #[test]
    fn a_store_that_throws_is_an_error_not_a_panic() {
        let slot = KeptSlot::new(Arc::new(Throwing), "k".into(), KeptKind::LinesGame);
        assert!(!slot.is_present());
        assert!(matches!(slot.read(), Err(BancoError::Internal(_))));
        assert!(matches!(slot.write(vec![1]), Err(BancoError::Internal(_))));
        assert!(matches!(slot.clear(), Err(BancoError::Internal(_))));
        assert!(!slot.is_locked());
    }
}
