//! [`GameKeeper`]: when the game against the computer on screen becomes the game to
//! continue, and when it is written to its [`KeptSlot`] — one policy for both shells.
//!
//! - A continued game is kept from the start; a new game, a set-up position or a record
//!   opened from a share only from the player's first move in it (`VsState.playerMoved`),
//!   so a game started by mistake and left at once does not replace the one kept.
//! - It is written when what its save holds changes (the moves, the ending, the level), not
//!   for every state the computer's thinking sends; a finished game empties the slot.
//! - Paused before it is kept, its bytes are held here (not in the store) for
//!   [`GameKeeper::take_held`]. Puzzles are never kept.
//!
//! The slot's own policy still applies: a newer Banco's record is never written over.

use crate::computer::{VsComputer, VsState};
use crate::error::{BancoError, guard};
use crate::kept::KeptSlot;
use crate::types::Outcome;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// What a save holds that a state can change.
#[derive(Clone, PartialEq, Eq)]
struct Mark {
    moves: Vec<String>,
    outcome: Option<Outcome>,
    level: u8,
}

impl Mark {
    fn of(s: &VsState) -> Mark {
        Mark {
            moves: s.moves.clone(),
            outcome: s.outcome,
            level: s.level,
        }
    }
}

#[derive(Default)]
struct Keeping {
    keeping: bool,
    puzzle: bool,
    last: Option<Mark>,
    held: Option<Vec<u8>>,
}

/// Keeps the game against the computer on screen as the game to continue (module docs).
#[derive(uniffi::Object)]
pub struct GameKeeper {
    slot: Arc<KeptSlot>,
    state: Mutex<Keeping>,
}

impl GameKeeper {
    fn lock(&self) -> MutexGuard<'_, Keeping> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Writes `game` (or empties the slot once it is over); the message to show if its
    /// save failed.
    fn write(&self, game: &VsComputer, over: bool) -> Option<String> {
        if over {
            let _ = self.slot.clear();
            return None;
        }
        match game.save() {
            Ok(bytes) => {
                let _ = self.slot.write(bytes);
                None
            }
            Err(e) => Some(format!("The game could not be kept to continue: {e}")),
        }
    }
}

#[uniffi::export]
impl GameKeeper {
    /// A keeper writing to `slot` (a [`KeptSlot`] of kind `Game`).
    #[uniffi::constructor]
    pub fn new(slot: Arc<KeptSlot>) -> Arc<GameKeeper> {
        Arc::new(GameKeeper {
            slot,
            state: Mutex::new(Keeping::default()),
        })
    }

    /// A game was started on screen: `from_store` when it is the store's game to continue
    /// (kept from the start), `puzzle` for a puzzle (never kept). Forgets any held game;
    /// then judges `game`'s first state as [`GameKeeper::observe`] does.
    pub fn begin(
        &self,
        game: Arc<VsComputer>,
        from_store: bool,
        puzzle: bool,
    ) -> Result<Option<String>, BancoError> {
        *self.lock() = Keeping {
            keeping: from_store && !puzzle,
            puzzle,
            last: None,
            held: None,
        };
        let first = game.state()?;
        Ok(self.observe(game, first))
    }

    /// A new state of the game on screen: it becomes the game to continue at the player's
    /// first move, and is written when its moves, ending or level changed. The message to
    /// show if its save failed.
    pub fn observe(&self, game: Arc<VsComputer>, state: VsState) -> Option<String> {
        guard(|| {
            let mark = Mark::of(&state);
            let write = {
                let mut k = self.lock();
                if k.puzzle {
                    return Ok(None);
                }
                let was = k.keeping;
                k.keeping |= state.player_moved;
                let changed = !was || k.last.as_ref() != Some(&mark);
                k.last = Some(mark);
                k.keeping && changed
            };
            Ok(if write {
                self.write(&game, state.outcome.is_some())
            } else {
                None
            })
        })
        .unwrap_or_else(|e| Some(e.to_string()))
    }

    /// The screen is left with `game` going on: written if it is kept, else its bytes are
    /// held for [`GameKeeper::take_held`]. Nothing for a puzzle or a finished game.
    pub fn pause(&self, game: Arc<VsComputer>) -> Option<String> {
        let (keeping, puzzle) = {
            let k = self.lock();
            (k.keeping, k.puzzle)
        };
        if puzzle || game.state().is_ok_and(|s| s.outcome.is_some()) {
            return None;
        }
        if keeping {
            return self.write(&game, false);
        }
        self.lock().held = game.save().ok();
        None
    }

    /// The bytes of the game paused before it was kept (once); `null`/`nil` when the game
    /// to continue is the store's ([`KeptSlot::read`]).
    pub fn take_held(&self) -> Option<Vec<u8>> {
        self.lock().held.take()
    }

    /// True once the game on screen is the game to continue.
    pub fn is_keeping(&self) -> bool {
        self.lock().keeping
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::kept::tests::Memory;
    use crate::tests::States;
    use crate::*;

    fn game() -> Arc<VsComputer> {
        let (tx, _rx) = std::sync::mpsc::channel();
        VsComputer::new(g_settings(), Arc::new(States(Mutex::new(tx)))).unwrap()
    }

    /// A new game replaces the kept one only at the player's first move; paused before it,
    /// it is held, not written; a continued game is kept from the start; a puzzle never.
    #[test]
    fn a_new_game_is_kept_from_the_players_first_move() {
        let store = Arc::new(Memory::default());
        let slot = KeptSlot::new(store.clone(), "game.continue".into(), KeptKind::Game);
        let keeper = GameKeeper::new(slot.clone());
        let old = game();
        old.play_text("h2e2".into()).unwrap();
        let old_bytes = old.save().unwrap();
        slot.write(old_bytes.clone()).unwrap();
        let kept = || slot.read().unwrap().bytes;

        let g = game();
        assert_eq!(keeper.begin(g.clone(), false, false).unwrap(), None);
        assert!(!keeper.is_keeping());
        assert_eq!(keeper.pause(g.clone()), None);
        assert_eq!(
            kept(),
            Some(old_bytes.clone()),
            "paused before moving: not written"
        );
        let held = keeper.take_held().expect("held");
        assert_eq!(keeper.take_held(), None, "taken once");

        let g = VsComputer::resume(held, g_settings(), listener()).unwrap();
        keeper.begin(g.clone(), false, false).unwrap();
        keeper.observe(g.clone(), g.state().unwrap());
        assert_eq!(kept(), Some(old_bytes.clone()), "no move of the player yet");
        g.play_text("b2e2".into()).unwrap();
        keeper.observe(g.clone(), g.state().unwrap());
        assert!(keeper.is_keeping());
        assert_eq!(
            kept(),
            Some(g.save().unwrap()),
            "replaced at the first move"
        );

        // The store's game is kept from the start; a puzzle never writes.
        let c = VsComputer::resume(kept().unwrap(), g_settings(), listener()).unwrap();
        keeper.begin(c.clone(), true, false).unwrap();
        assert!(keeper.is_keeping());
        store.remove("game.continue".into());
        keeper.begin(c.clone(), false, true).unwrap();
        c.play_text("h0g2".into()).ok();
        keeper.observe(c.clone(), c.state().unwrap());
        assert!(!keeper.is_keeping());
        assert_eq!(kept(), None, "a puzzle is never kept");
    }

    fn g_settings() -> VsSettings {
        VsSettings {
            kind: GameKind::Xiangqi,
            human: Color::Red,
            level: 1,
            rules: None,
            movetime_ms: 5_000,
            fen: None,
            chance_seed: Some(1),
        }
    }

    fn listener() -> Arc<States> {
        let (tx, _rx) = std::sync::mpsc::channel();
        Arc::new(States(Mutex::new(tx)))
    }
}
