//! [`PuzzleMode`]: the rules of one try at a puzzle, kept by
//! [`VsComputer`](crate::computer::VsComputer) so that no front end writes them again.
//!
//! * **Moves.** The player takes the side to move and must mate within the puzzle's number
//!   of moves; the computer defends at full strength with the longest resistance.
//! * **A wrong move is taken back at once.** A move is wrong when the defence escapes the
//!   mate, when the player runs out of moves, or when the game ends any other way than the
//!   player's mate (stalemate, a draw). The computer's reply is played (so it is known), then
//!   both are taken back in the same step and the player is to move again where they were:
//!   a puzzle never sits in a lost position waiting for a button. The wrong move counts
//!   ([`PuzzleStatus::wrong_moves`]) and a one-shot [`PuzzleNotice::WrongMoveTakenBack`]
//!   names the move and the reply that escaped. The wrong line cannot be redone (it would
//!   only fail again); the player may still undo their good moves by hand.
//! * **Hints count once per position.** A hint counts when it is shown (found and legal),
//!   once per position in a try: asking again where a hint was shown — also after a wrong
//!   move brought the player back there — counts nothing more.
//! * **The record.** With a [`SharedProgress`], the mode itself records the try when it
//!   starts, every counted hint, and the solve ([`PuzzleNotice::Solved`]), so a front end
//!   cannot forget one; the record writes itself to its store.
//! * **Notices** are typed, shown once: they stay in the status until the front end calls
//!   [`VsComputer::clear_notice`](crate::computer::VsComputer::clear_notice) or the player's
//!   next action (move, hint, undo, redo) replaces them.
//! * Resigning and claiming a draw are refused in a puzzle (leave it instead).
//!
//! ```
//! use banco_app::computer::VsComputer;
//! use banco_app::puzzle_mode::{PuzzleMode, PuzzleNotice};
//! use banco_app::puzzles::{self, progress::{Progress, SharedProgress}};
//! use banco_game::Game;
//! let progress = SharedProgress::new(Progress::default(), None);
//! let p = &puzzles::builtin()[0]; // mate in one
//! let mut vs = VsComputer::start_puzzle(PuzzleMode::recorded("one", p.clone(), progress.clone()), 100)?;
//! vs.play_text("e1e2")?; // not mate: the computer answers, and both moves are taken back
//! let request = vs.search_request().expect("the computer defends");
//! let reply = request.game.legal_move_vec()[0];
//! vs.search_done(request.id, Some(reply));
//! let status = vs.state().puzzle.expect("a puzzle");
//! assert_eq!((status.wrong_moves, vs.game().ply()), (1, 0));
//! assert!(matches!(status.notice, Some(PuzzleNotice::WrongMoveTakenBack { .. })));
//! vs.play_text("e1d1")?; // mate
//! assert!(vs.state().puzzle.expect("a puzzle").solved);
//! assert!(progress.read(|r| r.is_solved("one")));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::any::{AnyGame, AnyRules};
use crate::notation::{self, MoveInfo};
use crate::puzzles::Puzzle;
use crate::puzzles::collection;
use crate::puzzles::progress::SharedProgress;
use banco_game::{Color, Game, GameKind, Outcome};
use std::collections::BTreeSet;
use std::sync::Arc;

/// Something to tell the player once (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PuzzleNotice {
    /// The player's move let the mate slip; it was taken back with the computer's reply.
    WrongMoveTakenBack {
        /// The wrong move.
        played: MoveInfo,
        /// The computer's reply that escaped (`None` when the move itself ended the game,
        /// e.g. stalemate).
        reply: Option<MoveInfo>,
    },
    /// Mated in time.
    Solved {
        /// Hints counted in this try.
        hints_used: u32,
        /// Wrong moves taken back in this try.
        wrong_moves: u32,
    },
}

impl PuzzleNotice {
    /// The notice in words for the player (moves in the game's main notation): see
    /// [`wrong_move_text`] and [`solved_text`].
    #[must_use]
    pub fn text(&self) -> String {
        match self {
            PuzzleNotice::WrongMoveTakenBack { played, reply } => wrong_move_text(
                &played.main_text(),
                reply.as_ref().map(MoveInfo::main_text).as_deref(),
            ),
            PuzzleNotice::Solved {
                hints_used,
                wrong_moves,
            } => solved_text(*hints_used, *wrong_moves),
        }
    }
}

/// A wrong move taken back, in words: "Not that move: 車二進一 lets the king escape after
/// 將5平4. Try another." (`reply`: the computer's escape, if it had one).
#[must_use]
pub fn wrong_move_text(played: &str, reply: Option<&str>) -> String {
    let after = reply.map(|r| format!(" after {r}")).unwrap_or_default();
    format!("Not that move: {played} lets the king escape{after}. Try another.")
}

/// A puzzle solved, in words: "Solved! Clean." without help, else with the hints and the
/// wrong moves it took ("Solved! (1 hint, 2 wrong moves)").
///
/// ```
/// use banco_app::puzzle_mode::{solved_text, wrong_move_text};
/// assert_eq!(solved_text(0, 0), "Solved! Clean.");
/// assert_eq!(solved_text(1, 2), "Solved! (1 hint, 2 wrong moves)");
/// assert_eq!(
///     wrong_move_text("e1d1", Some("d9e9")),
///     "Not that move: e1d1 lets the king escape after d9e9. Try another."
/// );
/// ```
#[must_use]
pub fn solved_text(hints_used: u32, wrong_moves: u32) -> String {
    if hints_used == 0 && wrong_moves == 0 {
        return "Solved! Clean.".to_owned();
    }
    let count = |n: u32, one: &str| {
        let s = if n == 1 { "" } else { "s" };
        format!("{n} {one}{s}")
    };
    format!(
        "Solved! ({}, {})",
        count(hints_used, "hint"),
        count(wrong_moves, "wrong move")
    )
}

/// A try at a puzzle as a screen shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleStatus {
    /// The puzzle's name.
    pub name: String,
    /// Its id in the collection (`None` for a puzzle from elsewhere, which is not recorded).
    pub id: Option<String>,
    /// Mate in this many moves.
    pub mate_in: u32,
    /// Moves of the player's left to mate.
    pub moves_left: u32,
    /// Mated in time.
    pub solved: bool,
    /// Hints counted in this try (once per position).
    pub hints_used: u32,
    /// Wrong moves taken back in this try.
    pub wrong_moves: u32,
    /// Something to tell the player once.
    pub notice: Option<PuzzleNotice>,
}

impl PuzzleStatus {
    /// What the player is to do, in words, as every front end shows it: "mate in 2 more
    /// moves", "mate in 1 more move"; "solved"; and, after a last move that did not mate
    /// (the computer answers, then the move is taken back), "no mate with your last move:
    /// it will be taken back" — never "mate in 0".
    #[must_use]
    pub fn goal(&self) -> String {
        match (self.solved, self.moves_left) {
            (true, _) => "solved".to_owned(),
            (false, 0) => "no mate with your last move: it will be taken back".to_owned(),
            (false, 1) => "mate in 1 more move".to_owned(),
            (false, n) => format!("mate in {n} more moves"),
        }
    }
}

/// Where a try stands after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Still going.
    Going,
    /// The player mated in time.
    Solved,
    /// The player's last move failed (to be taken back).
    Failed,
}

/// One try at a puzzle (see the module docs); hand it to
/// [`VsComputer::start_puzzle`](crate::computer::VsComputer::start_puzzle).
#[derive(Clone, Debug)]
pub struct PuzzleMode {
    puzzle: Puzzle,
    id: Option<String>,
    progress: Option<Arc<SharedProgress>>,
    /// The player's last move let the mate slip (the defence escaped).
    slipped: bool,
    /// The positions (FEN) where a hint was counted.
    hinted: BTreeSet<String>,
    wrong_moves: u32,
    notice: Option<PuzzleNotice>,
}

/// Why a puzzle cannot be started.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    /// No puzzle of the collection has this id.
    #[error("there is no puzzle `{0}` in the collection")]
    UnknownId(String),
    /// [`PuzzleMode::next`] of a puzzle that is not one of the collection's.
    #[error("this puzzle is not one of the collection: there is no next one")]
    NotInCollection,
    /// [`PuzzleMode::next`] when every puzzle of the game's collection is solved.
    #[error("every {0} puzzle of the collection is solved")]
    AllSolved(GameKind),
    /// [`PuzzleMode::next`] when the puzzle being tried is the only one left unsolved.
    #[error("every other {0} puzzle of the collection is solved: this one is the last left")]
    LastUnsolved(GameKind),
}

impl PuzzleMode {
    /// A try at `puzzle` that records nothing.
    #[must_use]
    pub fn new(puzzle: Puzzle) -> PuzzleMode {
        PuzzleMode {
            puzzle,
            id: None,
            progress: None,
            slipped: false,
            hinted: BTreeSet::new(),
            wrong_moves: 0,
            notice: None,
        }
    }

    /// A try at `puzzle`, recorded under `id` in `progress`.
    #[must_use]
    pub fn recorded(id: &str, puzzle: Puzzle, progress: Arc<SharedProgress>) -> PuzzleMode {
        PuzzleMode {
            id: Some(id.to_owned()),
            progress: Some(progress),
            ..PuzzleMode::new(puzzle)
        }
    }

    /// A try at the collection's puzzle `id`, recorded in `progress`.
    pub fn from_collection(
        id: &str,
        progress: Arc<SharedProgress>,
    ) -> Result<PuzzleMode, PuzzleError> {
        let entry = collection::find(id).ok_or_else(|| PuzzleError::UnknownId(id.to_owned()))?;
        Ok(PuzzleMode::recorded(id, entry.puzzle.clone(), progress))
    }

    /// A try at the next unsolved puzzle of the collection after this one (in the
    /// collection's order, going round to its start; the same game), recorded in the same
    /// progress; an error says why there is none.
    pub fn next(&self) -> Result<PuzzleMode, PuzzleError> {
        let (Some(id), Some(progress)) = (&self.id, &self.progress) else {
            return Err(PuzzleError::NotInCollection);
        };
        let kind = self.puzzle.kind;
        let all = collection::of_game(kind);
        match progress.read(|p| p.next_unsolved_after(all, id)) {
            Some(e) => Ok(PuzzleMode::recorded(
                &e.id,
                e.puzzle.clone(),
                progress.clone(),
            )),
            None if progress.read(|p| p.is_solved(id)) => Err(PuzzleError::AllSolved(kind)),
            None => Err(PuzzleError::LastUnsolved(kind)),
        }
    }

    /// The puzzle's id in the collection (`None` for a puzzle from elsewhere).
    #[must_use]
    pub fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    /// The puzzle.
    #[must_use]
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    fn record(&self, f: impl FnOnce(&mut crate::puzzles::progress::Progress, &str)) {
        if let (Some(progress), Some(id)) = (&self.progress, &self.id) {
            progress.update(|p| f(p, id));
        }
    }

    /// The try started (the game is set up).
    pub(crate) fn started(&self) {
        self.record(|p, id| p.attempted(id));
    }

    /// Moves of the player's left in `game`.
    pub(crate) fn moves_left(&self, game: &AnyGame) -> u32 {
        self.puzzle.mate_in.saturating_sub(game.ply().div_ceil(2))
    }

    /// Where the try stands in `game` (`outcome` counts a resignation or a claimed draw).
    pub(crate) fn verdict(
        &self,
        game: &AnyGame,
        rules: &AnyRules,
        human: Color,
        outcome: Option<Outcome>,
    ) -> Verdict {
        let won = game
            .outcome(rules)
            .and_then(Outcome::winner)
            .is_some_and(|w| w == human);
        let out_of_moves = self.moves_left(game) == 0 && game.side_to_move() == human;
        if won {
            Verdict::Solved
        } else if self.slipped || out_of_moves || outcome.is_some() {
            Verdict::Failed
        } else {
            Verdict::Going
        }
    }

    /// The status to show.
    pub(crate) fn status(
        &self,
        game: &AnyGame,
        rules: &AnyRules,
        human: Color,
        outcome: Option<Outcome>,
    ) -> PuzzleStatus {
        PuzzleStatus {
            name: self.puzzle.name.clone(),
            id: self.id.clone(),
            mate_in: self.puzzle.mate_in,
            moves_left: self.moves_left(game),
            solved: self.verdict(game, rules, human, outcome) == Verdict::Solved,
            hints_used: self.hints_used(),
            wrong_moves: self.wrong_moves,
            notice: self.notice.clone(),
        }
    }

    fn hints_used(&self) -> u32 {
        u32::try_from(self.hinted.len()).unwrap_or(u32::MAX)
    }

    /// The defence escaped the mate (or a take-back cleared that).
    pub(crate) fn set_slipped(&mut self, slipped: bool) {
        self.slipped = slipped;
    }

    /// A hint was shown in `game`'s position: counted unless one was counted there.
    pub(crate) fn hint_shown(&mut self, game: &AnyGame) {
        if self.hinted.insert(banco_game::MatchGame::fen(game)) {
            self.record(|p, id| p.hint_used(id));
        }
    }

    /// The player mated in time.
    pub(crate) fn solved(&mut self) {
        self.record(|p, id| p.solved(id));
        self.notice = Some(PuzzleNotice::Solved {
            hints_used: self.hints_used(),
            wrong_moves: self.wrong_moves,
        });
    }

    /// A wrong move was taken back.
    pub(crate) fn wrong_move(&mut self, played: MoveInfo, reply: Option<MoveInfo>) {
        self.wrong_moves = self.wrong_moves.saturating_add(1);
        self.notice = Some(PuzzleNotice::WrongMoveTakenBack { played, reply });
    }

    /// The notice was shown (or the player acted).
    pub(crate) fn clear_notice(&mut self) {
        self.notice = None;
    }
}

/// The player's last move in `game` and the reply after it, described; `None` if the
/// player has not moved.
pub(crate) fn wrong_line(game: &AnyGame, human: Color) -> Option<(MoveInfo, Option<MoveInfo>)> {
    let mut g = game.clone();
    let mut after = Vec::new();
    loop {
        let mv = g.undo_move()?;
        if g.side_to_move() == human && !g.awaits_chance() {
            let played = notation::describe(&g, mv);
            let reply = after.last().map(|&r| {
                let mut a = g.clone();
                let _ = a.play(mv);
                notation::describe(&a, r)
            });
            return Some((played, reply));
        }
        after.push(mv);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::computer::{ActionError, VsComputer};
    use crate::mate;
    use crate::puzzles::progress::{Progress, PuzzleRecord};
    use crate::puzzles::{self, collection};
    use std::sync::atomic::AtomicBool;

    fn shared() -> Arc<SharedProgress> {
        SharedProgress::new(Progress::default(), None)
    }

    fn record(p: &SharedProgress, id: &str) -> PuzzleRecord {
        p.read(|r| r.record(id)).unwrap_or_default()
    }

    /// Answers the computer's move with its first legal move (a mate in one has no defence
    /// worth searching).
    fn answer_first(vs: &mut VsComputer) {
        let r = vs.search_request().expect("a search");
        let mv = r.game.legal_move_vec()[0];
        assert!(vs.search_done(r.id, Some(mv)));
    }

    /// Answers the computer's move with the longest defence, as the runner does.
    fn defend(vs: &mut VsComputer) -> mate::Defence {
        let stop = AtomicBool::new(false);
        let r = vs.search_request().unwrap();
        let n = r.mate_within.unwrap();
        let d = mate::longest_defence(&r.game, &r.rules, n, &mate::options(n), &stop);
        assert!(vs.defence_done(r.id, &d));
        d
    }

    /// Answers a hint search with `mv`.
    fn show_hint(vs: &mut VsComputer, mv: &str) {
        vs.hint().unwrap();
        let r = vs.search_request().unwrap();
        let m = notation::parse_move(&r.game, mv, None).unwrap();
        assert!(vs.search_done(r.id, Some(m)));
    }

    #[test]
    fn a_mate_in_one_with_a_wrong_move_taken_back() {
        let progress = shared();
        let p = &puzzles::builtin()[0];
        let mut vs = VsComputer::start_puzzle(
            PuzzleMode::recorded("one", p.clone(), progress.clone()),
            100,
        )
        .unwrap();
        assert_eq!(record(&progress, "one").attempts, 1);
        let s = vs.state().puzzle.unwrap();
        assert_eq!((s.moves_left, s.wrong_moves, s.hints_used), (1, 0, 0));
        assert_eq!(s.goal(), "mate in 1 more move");
        assert_eq!(s.id.as_deref(), Some("one"));
        // A move that does not mate: the computer answers, then both are taken back.
        vs.play_text("e1e2").unwrap();
        assert!(vs.state().thinking);
        let s = vs.state().puzzle.unwrap();
        assert_eq!(s.moves_left, 0);
        assert_eq!(
            s.goal(),
            "no mate with your last move: it will be taken back",
            "never \"mate in 0\""
        );
        answer_first(&mut vs);
        let s = vs.state();
        assert_eq!(vs.game().ply(), 0);
        assert!(s.your_turn && !s.can_redo, "the wrong line is not redone");
        let status = s.puzzle.unwrap();
        assert_eq!(status.wrong_moves, 1);
        match status.notice {
            Some(PuzzleNotice::WrongMoveTakenBack { played, reply }) => {
                assert_eq!(played.ply, 1);
                assert_eq!(reply.map(|r| r.ply), Some(2));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(vs.redo(), Err(ActionError::NothingToRedo));
        vs.clear_notice();
        assert_eq!(vs.state().puzzle.unwrap().notice, None);
        vs.play_text("e1d1").unwrap();
        let s = vs.state();
        let status = s.puzzle.unwrap();
        assert!(status.solved);
        assert_eq!(status.goal(), "solved");
        assert_eq!(
            status.notice,
            Some(PuzzleNotice::Solved {
                hints_used: 0,
                wrong_moves: 1
            })
        );
        assert_eq!(s.result.as_deref(), Some("You won: checkmate"));
        assert!(vs.search_request().is_none());
        assert_eq!(
            record(&progress, "one"),
            PuzzleRecord {
                solved: true,
                attempts: 1,
                hints: 0
            }
        );
    }

    #[test]
    fn hints_count_once_per_position() {
        let progress = shared();
        let e = &collection::tier(collection::Tier::MateIn2)[0];
        let mode = PuzzleMode::from_collection(&e.id, progress.clone()).unwrap();
        let mut vs = VsComputer::start_puzzle(mode, 100).unwrap();
        show_hint(&mut vs, &e.line[0]);
        show_hint(&mut vs, &e.line[0]);
        assert_eq!(vs.state().puzzle.unwrap().hints_used, 1, "same position");
        assert_eq!(record(&progress, &e.id).hints, 1);
        // A hint search that finds nothing (or an illegal move) counts nothing.
        vs.hint().unwrap();
        let r = vs.search_request().unwrap();
        assert!(vs.search_done(r.id, None));
        assert_eq!(vs.state().puzzle.unwrap().hints_used, 1);
        // The next position counts again; back at the start (undo) it does not.
        vs.play_text(&e.line[0]).unwrap();
        defend(&mut vs);
        let here = vs.game().clone();
        let next = mate::solve(
            &here,
            &vs.rules(),
            &mate::options(1),
            &AtomicBool::new(false),
        )
        .line[0];
        let next = notation::write_move(&here, next, notation::Notation::Coordinate);
        show_hint(&mut vs, &next);
        assert_eq!(vs.state().puzzle.unwrap().hints_used, 2);
        vs.undo().unwrap();
        show_hint(&mut vs, &e.line[0]);
        let s = vs.state().puzzle.unwrap();
        assert_eq!((s.hints_used, s.wrong_moves), (2, 0));
        assert_eq!(record(&progress, &e.id).hints, 2);
        assert!(!record(&progress, &e.id).solved);
    }

    #[test]
    fn a_move_that_lets_the_mate_slip_is_taken_back_at_once() {
        let p = &puzzles::builtin()[3]; // horse and pawn, mate in 5
        let mut vs = VsComputer::puzzle(p, 100).unwrap();
        vs.play_text("g5f5").unwrap();
        assert_eq!(vs.search_request().unwrap().mate_within, Some(4));
        assert!(!defend(&mut vs).escapes());
        let s = vs.state().puzzle.unwrap();
        assert_eq!((vs.game().ply(), s.wrong_moves, s.moves_left), (2, 0, 4));
        let mut vs = VsComputer::puzzle(p, 100).unwrap();
        vs.play_text("e2e1").unwrap();
        assert!(defend(&mut vs).escapes());
        let s = vs.state();
        assert_eq!(vs.game().ply(), 0);
        assert!(s.your_turn && vs.search_request().is_none());
        let status = s.puzzle.unwrap();
        assert_eq!((status.wrong_moves, status.id), (1, None));
        assert!(matches!(
            status.notice,
            Some(PuzzleNotice::WrongMoveTakenBack { reply: Some(_), .. })
        ));
        // The player's next action replaces the notice.
        vs.play_text("g5f5").unwrap();
        assert_eq!(vs.state().puzzle.unwrap().notice, None);
    }

    #[test]
    fn next_is_the_following_unsolved_puzzle() {
        let progress = shared();
        let all = collection::xiangqi();
        let (a, b, c) = (&all[0].id, &all[1].id, &all[2].id);
        progress.update(|p| p.solved(b));
        let mode = PuzzleMode::from_collection(a, progress.clone()).unwrap();
        let next = mode.next().unwrap();
        assert_eq!(next.id(), Some(c.as_str()), "the solved one is passed over");
        assert_eq!(next.puzzle(), &all[2].puzzle);
        // Everything else solved: the last one says so; solved too, all are.
        progress.update(|p| {
            for e in all.iter().filter(|e| &e.id != a) {
                p.solved(&e.id);
            }
        });
        assert_eq!(
            mode.next().unwrap_err(),
            PuzzleError::LastUnsolved(GameKind::Xiangqi)
        );
        progress.update(|p| p.solved(a));
        let err = mode.next().unwrap_err();
        assert_eq!(err, PuzzleError::AllSolved(GameKind::Xiangqi));
        assert_eq!(
            err.to_string(),
            "every xiangqi puzzle of the collection is solved"
        );
        // A puzzle from elsewhere has no next one.
        let loose = PuzzleMode::new(puzzles::builtin()[0].clone());
        assert_eq!(loose.next().unwrap_err(), PuzzleError::NotInCollection);
    }

    #[test]
    fn bad_input_changes_nothing() {
        let progress = shared();
        assert_eq!(
            PuzzleMode::from_collection("no such id", progress.clone()).unwrap_err(),
            PuzzleError::UnknownId("no such id".into())
        );
        // A puzzle that does not set up (or mates in 0) records no try.
        let bad = Puzzle {
            name: "bad".into(),
            kind: banco_game::GameKind::Xiangqi,
            fen: "not a fen".into(),
            mate_in: 1,
        };
        let mode = PuzzleMode::recorded("bad", bad.clone(), progress.clone());
        assert!(matches!(
            VsComputer::start_puzzle(mode, 100),
            Err(ActionError::Setup(_))
        ));
        let zero = Puzzle {
            mate_in: 0,
            ..puzzles::builtin()[0].clone()
        };
        let mode = PuzzleMode::recorded("zero", zero, progress.clone());
        assert!(matches!(
            VsComputer::start_puzzle(mode, 100),
            Err(ActionError::Setup(_))
        ));
        assert_eq!(progress.read(Clone::clone), Progress::default());
        // Refused actions: no count, no notice, no record.
        let p = &puzzles::builtin()[0];
        let mut vs = VsComputer::start_puzzle(
            PuzzleMode::recorded("one", p.clone(), progress.clone()),
            100,
        )
        .unwrap();
        let before = (vs.state(), progress.read(Clone::clone));
        assert!(vs.play_text("a0a1").is_err());
        assert!(vs.play_text("nonsense").is_err());
        assert_eq!(vs.resign(), Err(ActionError::InPuzzle));
        assert_eq!(vs.claim_draw(), Err(ActionError::InPuzzle));
        assert_eq!(vs.undo(), Err(ActionError::NothingToUndo));
        assert_eq!(vs.redo(), Err(ActionError::NothingToRedo));
        vs.clear_notice();
        assert_eq!((vs.state(), progress.read(Clone::clone)), before);
        // While the computer thinks: no hint, no move.
        vs.play_text("e1e2").unwrap();
        assert_eq!(vs.hint(), Err(ActionError::NotYourTurn));
        assert_eq!(vs.state().puzzle.unwrap().hints_used, 0);
    }
}
