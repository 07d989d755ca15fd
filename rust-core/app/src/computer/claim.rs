//! Draws claimed in a game against the computer (chess: the threefold repetition and the
//! fifty-move rule; xiangqi's and jieqi's draws are all automatic).
//!
//! * **The player** claims on their turn, on the board as it stands
//!   ([`VsComputer::claim_draw`]), or with a move (FIDE Laws 9.2.1.1 and 9.3.1:
//!   [`VsComputer::claim_draw_with`]): when playing the move makes the position stand for
//!   the third time, or completes fifty moves of each side without a capture or a pawn
//!   move, the claim plays it and the game ends drawn; any other move is refused and
//!   nothing changes. [`VsState::claimable_with`] lists the moves a claim can be made with.
//! * **The computer** claims on its turn when its search finds its position no better than
//!   a draw: a score of at most [`CLAIM_MARGIN_CP`] centipawns, or a mate against it
//!   ([`computer_claims`]). It claims on the board when it may, else with the move it
//!   chose when that move brings a claimable draw about; otherwise it plays on. Only an
//!   engine's answer carries a score ([`VsComputer::answer_done`]): an answer given as a
//!   bare move ([`VsComputer::search_done`]) never claims, so tests that drive the
//!   computer's moves by hand decide them exactly.
//! * **Undo** withdraws the player's claim alone (the moves stay), a claim with a move
//!   together with the move; a draw the computer claimed goes with the player's last move,
//!   as the computer's move would.
//!
//! ```
//! use banco_app::computer::{Settings, VsComputer};
//! use banco_game::{Color, DrawReason, GameKind, Outcome};
//!
//! // Ninety-nine plies without a capture or a pawn move: Rb1 makes the hundredth.
//! let mut settings = Settings::new(GameKind::Chess, Color::Red, 3)?;
//! settings.fen = Some("4k3/8/8/8/8/8/p7/R3K3 w - - 99 60".into());
//! let mut vs = VsComputer::new(settings)?;
//! assert!(vs.state().claimable_with.iter().any(|c| c.mv.text(banco_app::notation::Notation::San) == "Rb1"));
//! assert!(vs.claim_draw_with_text("Rxa2").is_err()); // a capture starts the count afresh
//! vs.claim_draw_with_text("Rb1")?;
//! assert_eq!(vs.outcome(), Some(Outcome::Draw { reason: DrawReason::FiftyMoveRule }));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(doc)]
use super::VsState;
use super::{ActionError, VsComputer, main_notation};
use crate::any::AnyMove;
use crate::error::MoveError;
use crate::notation::{self, MoveInfo};
use banco_engine::score::Score;
use banco_game::{Color, DrawReason, Game, Outcome};

/// Who claimed the draw that ended a game, and how (undo withdraws each differently).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Claimant {
    /// The player, on the board as it stood.
    Player,
    /// The player, with the move that made the draw (played by the claim).
    PlayerWithMove,
    /// The computer, on the board or with its move.
    Computer,
}

/// A move of the player's that a draw may be claimed with, and the draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimWith {
    /// The move, described as [`VsComputer::claim_draw_with`] would play it.
    pub mv: MoveInfo,
    /// The draw it brings about.
    pub reason: DrawReason,
}

/// The most the computer's search may give it, in centipawns, for it to claim a draw: a
/// tenth of a pawn, the noise of an evaluation around an equal position.
pub const CLAIM_MARGIN_CP: i32 = 10;

/// True if the computer, whose search gives it `score`, claims a draw it may claim: its
/// position is no better than a draw ([`CLAIM_MARGIN_CP`], or a mate against it).
#[must_use]
pub fn computer_claims(score: Score) -> bool {
    match score {
        Score::Cp(cp) => cp <= CLAIM_MARGIN_CP,
        Score::Mate(moves) => moves <= 0,
    }
}

impl VsComputer {
    /// Ends the game drawn for `reason`, claimed by `who`.
    fn end_by_claim(&mut self, reason: DrawReason, who: Claimant) {
        self.ending = Some(Outcome::Draw { reason });
        self.claimant = Some(who);
    }

    /// Refuses a claim when the game is over or in a puzzle.
    fn may_claim(&self) -> Result<(), ActionError> {
        if let Some(o) = self.outcome() {
            return Err(ActionError::GameOver(self.result_for(o)));
        }
        if self.puzzle.is_some() {
            return Err(ActionError::InPuzzle);
        }
        Ok(())
    }

    /// The player claims a draw the rules allow on the board as it stands (chess:
    /// threefold repetition, fifty moves); refused in a puzzle.
    pub fn claim_draw(&mut self) -> Result<(), ActionError> {
        self.may_claim()?;
        let reason = self
            .game
            .claimable_draw(&self.rules)
            .ok_or(ActionError::NoDrawToClaim)?;
        self.end_by_claim(reason, Claimant::Player);
        self.after_change(self.game.history().last().copied());
        Ok(())
    }

    /// The player claims a draw with the move `mv` (see the module docs): the move is
    /// played and the game ends drawn. Refused, with nothing changed, when the game is
    /// over, in a puzzle, on the computer's turn, for an illegal move
    /// ([`ActionError::Move`]), a move that ends the game by itself
    /// ([`ActionError::MoveEndsGame`]) or one that brings no draw about
    /// ([`ActionError::NoDrawWithMove`]).
    pub fn claim_draw_with(&mut self, mv: AnyMove) -> Result<MoveInfo, ActionError> {
        self.may_claim()?;
        self.ready_to_move()?;
        if !self.game.is_legal(mv) {
            return Err(MoveError::Illegal(format!("{mv} is not a legal move here")).into());
        }
        let Some(reason) = self.game.claimable_draw_with(mv, &self.rules) else {
            let text = notation::describe(&self.game, mv).text(main_notation(self.game.kind()));
            let mut after = self.game.clone();
            let ends = after.play(mv).is_ok() && after.outcome(&self.rules).is_some();
            return Err(if ends {
                ActionError::MoveEndsGame(text)
            } else {
                ActionError::NoDrawWithMove(text)
            });
        };
        let info = self.play_move(mv)?;
        self.end_by_claim(reason, Claimant::PlayerWithMove);
        self.clear_notice();
        self.after_change(Some(mv));
        Ok(info)
    }

    /// [`VsComputer::claim_draw_with`] a move the player typed, in any of the game's
    /// notations.
    pub fn claim_draw_with_text(&mut self, text: &str) -> Result<MoveInfo, ActionError> {
        self.may_claim()?;
        self.ready_to_move()?;
        let mv = notation::parse_move(&self.game, text, None)?;
        self.claim_draw_with(mv)
    }

    /// The moves of the side to move a draw may be claimed with (see
    /// [`VsState::claimable_with`]).
    pub(super) fn claimable_with(&self) -> Vec<ClaimWith> {
        self.game
            .legal_move_vec()
            .into_iter()
            .filter_map(|mv| {
                let reason = self.game.claimable_draw_with(mv, &self.rules)?;
                Some(ClaimWith {
                    mv: notation::describe(&self.game, mv),
                    reason,
                })
            })
            .collect()
    }

    /// Who claimed the draw the game ended with, when known.
    pub(super) fn draw_claimed_by(&self) -> Option<Color> {
        match self.claimant? {
            Claimant::Player | Claimant::PlayerWithMove => Some(self.human),
            Claimant::Computer => Some(self.human.other()),
        }
    }

    /// On the computer's turn, with its search's `best` move and `score`: claims a draw
    /// when it may and [`computer_claims`] says so, on the board or with `best`. True if
    /// it claimed (the game is then over).
    pub(super) fn computer_claims(&mut self, best: Option<AnyMove>, score: Option<Score>) -> bool {
        if self.puzzle.is_some() || !score.is_some_and(computer_claims) {
            return false;
        }
        if let Some(reason) = self.game.claimable_draw(&self.rules) {
            self.end_by_claim(reason, Claimant::Computer);
            self.after_change(self.game.history().last().copied());
            return true;
        }
        let Some(mv) = best else {
            return false;
        };
        let Some(reason) = self.game.claimable_draw_with(mv, &self.rules) else {
            return false;
        };
        if self.game.play(mv).is_err() {
            return false;
        }
        self.redo.clear();
        self.end_by_claim(reason, Claimant::Computer);
        self.after_change(Some(mv));
        true
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::answer::{self, SearchAnswer};
    use crate::computer::Settings;
    use crate::engine::{AnyEngine, EngineResult};
    use banco_engine::Limits;
    use banco_game::{GameKind, MatchGame};
    use std::sync::atomic::AtomicBool;

    /// The reviewer's position: White (the player here) shuffles Ka1-a2, Black's king
    /// can only go h8-g8 and back.
    const SHUFFLE: &str = "7k/7p/7P/8/8/8/8/K4R2 w - - 0 1";

    fn chess(fen: &str, human: Color) -> VsComputer {
        let mut settings = Settings::new(GameKind::Chess, human, 3).unwrap();
        settings.fen = Some(fen.into());
        VsComputer::new(settings).unwrap()
    }

    /// Answers the computer's search with `text`, as a bare move (no claim).
    fn reply(vs: &mut VsComputer, text: &str) {
        let r = vs.search_request().expect("the computer thinks");
        let mv = notation::parse_move(vs.game(), text, None).unwrap();
        assert!(vs.search_done(r.id, Some(mv)));
    }

    /// Answers the computer's search with `text` and an engine's `score` for it.
    fn reply_scored(vs: &mut VsComputer, text: &str, score: Score) -> bool {
        let r = vs.search_request().expect("the computer thinks");
        let mv = notation::parse_move(vs.game(), text, None).unwrap();
        let found = SearchAnswer::Engine(EngineResult {
            best_move: Some(mv),
            score,
            pv: vec![mv],
            depth: 1,
            nodes: 1,
            time_ms: 0,
        });
        vs.answer_done(r.id, &found)
    }

    /// Plays the player's and the computer's moves in turn, the computer's as bare moves.
    fn shuffle(vs: &mut VsComputer, moves: &[&str]) {
        for (i, text) in moves.iter().enumerate() {
            if i % 2 == 0 {
                vs.play_text(text).unwrap();
            } else {
                reply(vs, text);
            }
        }
    }

    fn texts(claims: &[ClaimWith]) -> Vec<(String, DrawReason)> {
        claims
            .iter()
            .map(|c| (c.mv.text(notation::Notation::San), c.reason))
            .collect()
    }

    #[test]
    fn the_player_claims_a_repetition_with_the_move_that_makes_it() {
        let mut vs = chess(SHUFFLE, Color::Red);
        shuffle(&mut vs, &["Ka2", "Kg8", "Ka1", "Kh8"]);
        // The second Ka2 would make the second occurrence only.
        assert!(vs.state().claimable_with.is_empty());
        assert_eq!(
            vs.claim_draw_with_text("Ka2"),
            Err(ActionError::NoDrawWithMove("Ka2".into()))
        );
        shuffle(&mut vs, &["Ka2", "Kg8", "Ka1", "Kh8"]);
        let s = vs.state();
        assert_eq!(
            texts(&s.claimable_with),
            [("Ka2".to_owned(), DrawReason::ThreefoldRepetition)]
        );
        // A claim with a move that repeats nothing is refused and changes nothing.
        let before = (vs.game().fen(), vs.game().ply(), vs.state());
        assert_eq!(
            vs.claim_draw_with_text("Kb1"),
            Err(ActionError::NoDrawWithMove("Kb1".into()))
        );
        assert!(matches!(
            vs.claim_draw_with_text("Kc3"),
            Err(ActionError::Move(_))
        ));
        assert_eq!((vs.game().fen(), vs.game().ply(), vs.state()), before);
        // The fifth Ka2, declared: played, and the game is drawn.
        let info = vs.claim_draw_with_text("Ka2").unwrap();
        assert_eq!(info.text(notation::Notation::San), "Ka2");
        assert_eq!(vs.game().ply(), 9);
        assert_eq!(
            vs.outcome(),
            Some(Outcome::Draw {
                reason: DrawReason::ThreefoldRepetition
            })
        );
        let s = vs.state();
        assert_eq!(s.draw_claimed_by, Some(Color::Red));
        assert!(!s.thinking && vs.search_request().is_none());
        assert_eq!(s.result.as_deref(), Some("Draw: threefold repetition"));
        // Undo withdraws the claim with its move; redo plays the move again, unclaimed.
        vs.undo().unwrap();
        assert_eq!(vs.game().ply(), 8);
        assert_eq!(vs.outcome(), None);
        assert!(vs.your_turn());
        vs.redo().unwrap();
        assert_eq!(vs.game().ply(), 9);
        assert_eq!(vs.outcome(), None);
        // On the computer's turn the player claims nothing.
        assert_eq!(
            vs.claim_draw_with_text("Kg8"),
            Err(ActionError::NotYourTurn)
        );
    }

    #[test]
    fn the_fifty_move_claim_with_the_hundredth_ply() {
        let mut vs = chess("4k3/8/8/8/8/8/p7/R3K3 w - - 99 60", Color::Red);
        let s = vs.state();
        assert_eq!(s.claimable_draw, None);
        let claims = texts(&s.claimable_with);
        assert!(claims.contains(&("Rb1".to_owned(), DrawReason::FiftyMoveRule)));
        assert!(claims.iter().all(|(m, _)| m != "Rxa2"), "{claims:?}");
        let fen = vs.game().fen();
        assert_eq!(
            vs.claim_draw_with_text("Rxa2"),
            Err(ActionError::NoDrawWithMove("Rxa2".into()))
        );
        assert_eq!(vs.game().fen(), fen);
        vs.claim_draw_with_text("Rb1").unwrap();
        assert_eq!(
            vs.outcome(),
            Some(Outcome::Draw {
                reason: DrawReason::FiftyMoveRule
            })
        );
        assert!(matches!(
            vs.claim_draw_with_text("Kd2"),
            Err(ActionError::GameOver(_))
        ));
        // A mate on the hundredth ply is no draw: play it.
        let mut vs = chess("k7/8/1K6/8/8/8/8/7R w - - 99 80", Color::Red);
        assert_eq!(
            vs.claim_draw_with_text("Rh8"),
            Err(ActionError::MoveEndsGame("Rh8#".into()))
        );
        assert_eq!(vs.game().ply(), 0);
        // Xiangqi has nothing to claim.
        let mut vs =
            VsComputer::new(Settings::new(GameKind::Xiangqi, Color::Red, 3).unwrap()).unwrap();
        assert!(vs.state().claimable_with.is_empty());
        assert_eq!(
            vs.claim_draw_with_text("h2e2"),
            Err(ActionError::NoDrawWithMove("炮二平五".into()))
        );
    }

    #[test]
    fn the_computer_claims_when_it_is_no_better_than_a_draw() {
        assert!(computer_claims(Score::Cp(CLAIM_MARGIN_CP)));
        assert!(computer_claims(Score::Mate(-3)));
        assert!(!computer_claims(Score::Cp(CLAIM_MARGIN_CP + 1)));
        assert!(!computer_claims(Score::Mate(2)));
        // With its move: 4... Kh8 brings the start position back for the third time.
        let moves = ["Ka2", "Kg8", "Ka1", "Kh8", "Ka2", "Kg8", "Ka1"];
        let mut vs = chess(SHUFFLE, Color::Red);
        shuffle(&mut vs, &moves);
        let mut better = vs.clone();
        assert!(reply_scored(&mut vs, "Kh8", Score::Cp(-900)));
        assert_eq!(vs.game().ply(), 8);
        assert_eq!(
            vs.outcome(),
            Some(Outcome::Draw {
                reason: DrawReason::ThreefoldRepetition
            })
        );
        assert_eq!(vs.state().draw_claimed_by, Some(Color::Black));
        // Undo takes the player's move back with the computer's claim and move.
        vs.undo().unwrap();
        assert_eq!((vs.game().ply(), vs.outcome()), (6, None));
        assert!(vs.your_turn());
        // Better than a draw, it plays on.
        assert!(reply_scored(&mut better, "Kh8", Score::Cp(200)));
        assert_eq!((better.game().ply(), better.outcome()), (8, None));

        // On the board: the player's fifth Ka2, unclaimed, makes the third occurrence.
        let mut vs = chess(SHUFFLE, Color::Red);
        shuffle(&mut vs, &moves);
        reply(&mut vs, "Kh8");
        vs.play_text("Ka2").unwrap();
        assert!(reply_scored(&mut vs, "Kg8", Score::Cp(-900)));
        assert_eq!(vs.game().ply(), 9, "claimed without moving");
        assert_eq!(
            vs.outcome(),
            Some(Outcome::Draw {
                reason: DrawReason::ThreefoldRepetition
            })
        );
        vs.undo().unwrap();
        assert_eq!((vs.game().ply(), vs.outcome()), (8, None));
    }

    #[test]
    fn the_engine_claims_a_lost_position() {
        let mut vs = chess(SHUFFLE, Color::Red);
        shuffle(&mut vs, &["Ka2", "Kg8", "Ka1", "Kh8", "Ka2", "Kg8", "Ka1"]);
        let r = vs.search_request().unwrap();
        let mut engine = AnyEngine::new(1);
        let found = answer::run(&mut engine, &r, &Limits::depth(4), &AtomicBool::new(false));
        assert!(vs.answer_done(r.id, &found));
        assert_eq!(
            vs.outcome(),
            Some(Outcome::Draw {
                reason: DrawReason::ThreefoldRepetition
            }),
            "{found:?}"
        );
        assert_eq!(MatchGame::fen(vs.game()), "7k/7p/7P/8/8/8/8/K4R2 w - - 8 5");
    }
}
