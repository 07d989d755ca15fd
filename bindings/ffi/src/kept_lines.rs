//! [`LinesKeeper`]: when the Lines game on screen becomes Lines' game to continue, and when
//! it is written to its [`KeptSlot`] — one policy for both shells (as [`crate::GameKeeper`]
//! for the game against the computer).
//!
//! - A continued game ([`LinesKeeper::begin`] with `from_store`) is kept from the start; a
//!   new game only from its first turn, so a game started by mistake and left at once does
//!   not replace the one kept.
//! - Once kept, it is written after each change the shell reports
//!   ([`LinesKeeper::observe`]: a turn, an undo, a redo, the game continued) and when the
//!   screen is left ([`LinesKeeper::pause`], with its clock's time left); a finished game
//!   (board full, or the time up) empties the slot.
//!
//! The slot's own policy still applies: a newer Banco's record is never written over.
//!
//! ```
//! use banco_ffi::{KeptKind, KeptSlot, KeptStore, LinesGame, LinesKeeper, LinesSettings, LinesUndo};
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
//! let slot = KeptSlot::new(Arc::new(Memory::default()), "lines.continue".into(), KeptKind::LinesGame);
//! let keeper = LinesKeeper::new(slot.clone());
//! let settings = LinesSettings { start_balls: 5, undo: LinesUndo::LastTurn, preview: false };
//! let game = Arc::new(LinesGame::new(settings, Some(7)).unwrap());
//! keeper.begin(false);
//! assert_eq!(keeper.observe(game.clone()), None);
//! assert!(!slot.is_present(), "not kept before its first turn");
//! let hint = game.hint().unwrap();
//! game.play(hint.from, hint.to).unwrap();
//! keeper.observe(game.clone());
//! assert_eq!(slot.read()?.bytes, Some(game.save().unwrap()));
//! # Ok::<(), banco_ffi::BancoError>(())
//! ```

use crate::kept::KeptSlot;
use crate::lines::LinesGame;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Keeps the Lines game on screen as Lines' game to continue (module docs).
#[derive(uniffi::Object)]
pub struct LinesKeeper {
    slot: Arc<KeptSlot>,
    /// The game on screen is the game to continue.
    keeping: Mutex<bool>,
}

impl LinesKeeper {
    fn lock(&self) -> MutexGuard<'_, bool> {
        self.keeping.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Writes `game`; the message to show if its save failed.
    fn write(&self, game: &LinesGame) -> Option<String> {
        match game.save() {
            Ok(bytes) => {
                // False when the slot holds a newer Banco's game: it stays, by the slot's policy.
                let _written = self.slot.write(bytes);
                None
            }
            Err(e) => Some(format!("The game could not be kept to continue: {e}")),
        }
    }
}

#[uniffi::export]
impl LinesKeeper {
    /// A keeper writing to `slot` (a [`KeptSlot`] of kind `LinesGame`).
    #[uniffi::constructor]
    pub fn new(slot: Arc<KeptSlot>) -> Arc<LinesKeeper> {
        Arc::new(LinesKeeper {
            slot,
            keeping: Mutex::new(false),
        })
    }

    /// A game was started on screen: `from_store` when it is the store's game to continue
    /// (kept from the start); a new game is kept from its first turn.
    pub fn begin(&self, from_store: bool) {
        *self.lock() = from_store;
    }

    /// The game on screen changed (a turn, an undo, a redo, the time up, the game
    /// continued): it becomes the game to continue at its first turn; once it is, it is
    /// written, or the slot emptied when the game is over. The message to show if its save
    /// failed (the last good one stays).
    pub fn observe(&self, game: Arc<LinesGame>) -> Option<String> {
        let view = game.view();
        let keeping = {
            let mut k = self.lock();
            *k |= view.turns > 0;
            *k
        };
        if !keeping {
            return None;
        }
        if view.game_over {
            // False when the slot holds a newer Banco's game: it stays.
            let _cleared = self.slot.clear();
            return None;
        }
        self.write(&game)
    }

    /// The screen is left with `game` going on (its clock stopped first): written if it is
    /// the game to continue; nothing before its first turn, nor for a finished game. The
    /// message to show if its save failed.
    pub fn pause(&self, game: Arc<LinesGame>) -> Option<String> {
        if !*self.lock() || game.is_over() {
            return None;
        }
        self.write(&game)
    }

    /// True once the game on screen is the game to continue.
    pub fn is_keeping(&self) -> bool {
        *self.lock()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::kept::tests::Memory;
    use crate::{KeptKind, KeptStore, LinesSettings, LinesUndo};

    fn game(seed: u64) -> Arc<LinesGame> {
        let settings = LinesSettings {
            start_balls: 5,
            undo: LinesUndo::LastTurn,
            preview: false,
        };
        Arc::new(LinesGame::new(settings, Some(seed)).unwrap())
    }

    fn play_hint(g: &LinesGame) {
        let h = g.hint().unwrap();
        g.play(h.from, h.to).unwrap();
    }

    /// A new game replaces the kept one only from its first turn (a pause before it writes
    /// nothing); a continued game is kept from the start; the end of a game empties the slot.
    #[test]
    fn a_new_lines_game_is_kept_from_its_first_turn() {
        let store = Arc::new(Memory::default());
        let slot = KeptSlot::new(store.clone(), "lines.continue".into(), KeptKind::LinesGame);
        let keeper = LinesKeeper::new(slot.clone());
        let old = game(1);
        play_hint(&old);
        let old_bytes = old.save().unwrap();
        assert!(slot.write(old_bytes.clone()).unwrap());
        let kept = || slot.read().unwrap().bytes;

        let g = game(2);
        keeper.begin(false);
        assert_eq!(keeper.observe(g.clone()), None);
        assert_eq!(keeper.pause(g.clone()), None);
        assert!(!keeper.is_keeping());
        assert_eq!(
            kept(),
            Some(old_bytes.clone()),
            "no turn yet: the old game stays"
        );
        play_hint(&g);
        assert_eq!(keeper.observe(g.clone()), None);
        assert!(keeper.is_keeping());
        assert_eq!(
            kept(),
            Some(g.save().unwrap()),
            "replaced at its first turn"
        );
        g.undo().unwrap();
        keeper.observe(g.clone());
        assert!(keeper.is_keeping(), "taking the turn back keeps it kept");
        assert_eq!(kept(), Some(g.save().unwrap()));
        g.start_clock(60_000, 0);
        g.pause_clock(1_000);
        keeper.pause(g.clone());
        assert_eq!(kept(), Some(g.save().unwrap()), "written on pause");

        // The store's game is kept from the start, and the time up empties the slot.
        let c = game(3);
        c.restore(kept().unwrap()).unwrap();
        keeper.begin(true);
        assert!(keeper.is_keeping());
        c.resume_clock(2_000);
        assert_eq!(c.tick(100_000), Some(0));
        keeper.observe(c.clone());
        assert!(
            !slot.is_present(),
            "a finished game is not kept to continue"
        );
        assert_eq!(keeper.pause(c.clone()), None);
        assert!(!slot.is_present(), "nor written on pause");

        // A finished new game that was never kept leaves the kept one alone.
        assert!(slot.write(old_bytes.clone()).unwrap());
        let n = game(4);
        keeper.begin(false);
        n.start_clock(1_000, 0);
        assert_eq!(n.tick(5_000), Some(0));
        keeper.observe(n.clone());
        assert_eq!(kept(), Some(old_bytes));
    }

    /// A newer Banco's game in the slot is never written over, kept or not.
    #[test]
    fn a_newer_bancos_lines_game_is_not_written_over() {
        let store = Arc::new(Memory::default());
        let mut newer = game(5).save().unwrap();
        newer[8] = 200;
        let writer = KeptSlot::new(store.clone(), "k".into(), KeptKind::LinesGame);
        assert!(
            writer.write(newer).unwrap(),
            "an empty slot takes any bytes"
        );
        let text = store.get("k".into()).unwrap();
        let slot = KeptSlot::new(store.clone(), "k".into(), KeptKind::LinesGame);
        let keeper = LinesKeeper::new(slot.clone());
        let g = game(6);
        keeper.begin(false);
        play_hint(&g);
        assert_eq!(keeper.observe(g.clone()), None);
        assert!(keeper.is_keeping() && slot.is_locked());
        assert_eq!(keeper.pause(g.clone()), None);
        assert_eq!(store.get("k".into()), Some(text), "never written over");
    }
}
