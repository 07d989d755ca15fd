//! A local [`Game`]'s endings the moves do not show: undo withdraws them first (revB #7), and a
//! listener that withdraws a claimed draw at once does not make the claim fail (revB #8).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::game::{Game, GameEvent, GameListener};
use crate::tests::Recorder;
use crate::types::{DrawReason, GameKind, Outcome};
use std::sync::{Arc, Mutex, Weak};

/// A chess game where the side to move may claim a threefold repetition.
fn repeated() -> Arc<Game> {
    let game = Game::new(GameKind::Chess).unwrap();
    for m in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
        game.play_text(m.to_owned(), None).unwrap();
    }
    game
}

const CLAIMED: Outcome = Outcome::Draw {
    reason: DrawReason::ThreefoldRepetition,
};

#[test]
fn undo_after_a_claimed_draw_withdraws_only_the_draw() {
    let game = repeated();
    let kept = Arc::new(Recorder::default());
    game.set_listener(Some(kept.clone())).unwrap();
    assert_eq!(game.claim_draw().unwrap(), CLAIMED);
    let before = game.fen().unwrap();
    assert!(game.status().unwrap().can_undo);
    // The draw goes, the position stays (it used to take back move 8 with it).
    assert_eq!(game.undo().unwrap(), None);
    let status = game.status().unwrap();
    assert_eq!((status.ply, status.outcome), (8, None));
    assert_eq!(status.claimable_draw, Some(DrawReason::ThreefoldRepetition));
    assert_eq!(game.fen().unwrap(), before);
    // The next undo takes back a move.
    assert!(game.undo().unwrap().is_some());
    assert_eq!(game.status().unwrap().ply, 7);
    let events = kept.0.lock().unwrap().clone();
    assert!(
        matches!(
            events[0],
            GameEvent::GameOver {
                outcome: CLAIMED,
                ..
            }
        ),
        "{events:?}"
    );
    assert_eq!(events[1], GameEvent::EndingWithdrawn { ply: 8 });
    assert!(
        matches!(events[2], GameEvent::MoveUndone { ply: 7, .. }),
        "{events:?}"
    );
    // A saved resignation is withdrawn the same way.
    let mut saved = banco_app::save::SavedGame::decode(&repeated().save().unwrap()).unwrap();
    saved.ending = Some(banco_game::Outcome::Win {
        winner: banco_game::Color::Black,
        reason: banco_game::WinReason::Resignation,
    });
    let resigned = Game::load(saved.encode().unwrap()).unwrap();
    assert!(resigned.status().unwrap().outcome.is_some());
    assert_eq!(resigned.undo().unwrap(), None);
    assert_eq!(resigned.status().unwrap().ply, 8);
}

/// Undoes the game as soon as it ends.
struct UndoesAtOnce(Mutex<Weak<Game>>);

impl GameListener for UndoesAtOnce {
    fn on_event(&self, event: GameEvent) {
        if let GameEvent::GameOver { .. } = event
            && let Some(game) = self.0.lock().unwrap().upgrade()
        {
            game.undo().unwrap();
        }
    }
}

#[test]
fn a_listener_that_withdraws_the_draw_does_not_fail_the_claim() {
    let game = repeated();
    let listener = Arc::new(UndoesAtOnce(Mutex::new(Arc::downgrade(&game))));
    game.set_listener(Some(listener)).unwrap();
    // It used to answer Internal("the claimed draw did not end the game").
    assert_eq!(game.claim_draw().unwrap(), CLAIMED);
    let status = game.status().unwrap();
    assert_eq!((status.ply, status.outcome), (8, None));
}
