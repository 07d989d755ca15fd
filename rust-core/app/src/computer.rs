//! [`VsComputer`]: a game against the computer, as every front end runs it — whose turn it
//! is, when the computer must think (each search has an id; a late answer to a search that
//! was overtaken is dropped), undo and redo by whole turns, hints, resignation and claimed
//! draws, puzzles, the record to continue later, and the result from the player's side.
//!
//! It is a plain state machine: it never searches by itself. After every call, ask
//! [`VsComputer::search_request`] what should be running; answer it with
//! [`crate::answer::run`] (on a thread, or inline on a command line: the engine, or in a
//! puzzle the mate solver) and hand the answer to [`VsComputer::answer_done`]. A front end
//! that wants threads handled for it uses [`runner::Runner`](crate::runner::Runner).
//!
//! Jieqi: when a step turns a face-down piece over, its identity is the one dealt to that
//! piece when the game began ([`RevealDraw::dealt`]: OS-seeded, or
//! [`Settings::chance_seed`]) and is played as the next move; the computer is asked to
//! search only positions that await no reveal, and the deal is never in the position, so
//! it never sees an identity early. Undo takes a reveal back with its step, and follows
//! [`crate::jieqi`]'s rule: the player's own pieces stay as dealt (the same step again,
//! after undo, redo, other moves or a save and a load, turns up the same piece: undo cannot
//! draw again), while an undo that takes back a reveal of the computer's piece deals the
//! computer's face-down pieces afresh ([`RevealDraw::redeal`]), so that undo cannot show
//! the player what they are. The save keeps the player's deal (the
//! [`crate::jieqi::DEAL_TAG`] tag) and never the computer's, which loading deals afresh.
//!
//! Decisions every front end shares: undo is allowed while the computer thinks (its search
//! is dropped and the player's last move taken back); a level outside 1–10 is refused with
//! an error, never clamped silently; the player may not move or ask a hint while a puzzle is
//! solved or the game is over, but may undo after the end; after the player's resignation
//! or a claimed draw, undo withdraws that ending alone (the moves stay, the game goes on),
//! a draw claimed with a move together with that move. Draws are claimed as FIDE's Laws
//! allow, on the board or with the move that brings them about, by the player and by the
//! computer (see [`claim`]).
//! A puzzle's own rules (a wrong move taken back, hints counted, the record) are
//! [`crate::puzzle_mode`]'s.
//!
//! ```
//! use banco_app::computer::{Settings, VsComputer};
//! use banco_app::engine::AnyEngine;
//! use banco_engine::Limits;
//! use banco_game::{Color, GameKind};
//! use std::sync::atomic::AtomicBool;
//!
//! let mut vs = VsComputer::new(Settings::new(GameKind::Xiangqi, Color::Red, 2)?)?;
//! vs.play_text("炮二平五")?;
//! // The computer's turn: run the search it asks for and hand back the answer.
//! let request = vs.search_request().expect("the computer thinks");
//! let mut engine = AnyEngine::new(1);
//! let stop = AtomicBool::new(false);
//! let answer = engine.play(&request.game, &request.rules, request.level, &Limits::depth(2), request.seed, &stop);
//! assert!(vs.search_done(request.id, answer.best_move));
//! assert_eq!(vs.state().moves.len(), 2);
//! vs.undo()?; // both moves back: the player's turn again
//! assert_eq!(vs.state().moves.len(), 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::any::{AnyGame, AnyMove, AnyRules};
use crate::board::{BoardModel, BoardView, Tap};
use crate::error::MoveError;
use crate::jieqi::{DEAL_TAG, RevealDraw, pending_side, revealed_kind};
use crate::notation::{self, MoveInfo, Notation};
use crate::pieces::PieceKind;
use crate::puzzle_mode::{self, PuzzleMode, Verdict};
use crate::puzzles::Puzzle;
use crate::result::result_text;
use crate::save::{Player, SaveError, SavedGame};
use banco_engine::Level;
use banco_engine::score::Score;
use banco_game::{Color, DrawReason, Game, GameKind, Outcome, WinReason};

pub mod claim;
pub use claim::ClaimWith;
use claim::Claimant;

/// Why an action on a [`VsComputer`] was refused (the state is unchanged).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The move could not be read or is not legal.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// It is the computer's turn.
    #[error("it is the computer's turn")]
    NotYourTurn,
    /// The game is over.
    #[error("the game is over: {0}")]
    GameOver(String),
    /// No move of the player's to take back.
    #[error("there is no move of yours to take back")]
    NothingToUndo,
    /// Nothing taken back to play again.
    #[error("there is nothing to redo")]
    NothingToRedo,
    /// A draw can only be claimed when the rules allow it.
    #[error("there is no draw to claim in this position")]
    NoDrawToClaim,
    /// A draw claimed with a move that brings none about (the move is not played).
    #[error(
        "there is no draw to claim with {0}: the position after it would not stand for the \
         third time, nor would it end fifty moves of each side without a capture or a pawn \
         move; play it as a move, or claim with another"
    )]
    NoDrawWithMove(String),
    /// A draw claimed with a move that ends the game by itself (a mate, a stalemate, an
    /// automatic draw): the move is not played.
    #[error("{0} ends the game by itself: play it without a claim")]
    MoveEndsGame(String),
    /// A level outside 1–10.
    #[error("level {0} does not exist: choose 1 (beginner) to 10 (full strength)")]
    BadLevel(u8),
    /// The game cannot be set up.
    #[error("{0}")]
    Setup(String),
    /// A saved game that cannot be continued.
    #[error(transparent)]
    Save(#[from] SaveError),
    /// Resigning or claiming a draw in a puzzle.
    #[error("a puzzle cannot be resigned or drawn: leave it, or ask for a hint")]
    InPuzzle,
}

/// How a game against the computer is set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The game.
    pub kind: GameKind,
    /// The player's colour.
    pub human: Color,
    /// The computer's level, 1–10.
    pub level: u8,
    /// The rules (the game's usual rules by default).
    pub rules: AnyRules,
    /// Longest time the computer thinks per move, in milliseconds.
    pub movetime_ms: u64,
    /// A set-up start position (FEN), or `None` for the usual start.
    pub fen: Option<String>,
    /// Seed of the computer's choices among near-equal moves.
    pub seed: u64,
    /// Jieqi: seed of the reveals' draws, for tests and reproducible games; `None` (the
    /// default) seeds them from the operating system's entropy.
    pub chance_seed: Option<u64>,
}

impl Settings {
    /// Usual rules, one second per computer move, the usual start; refuses a level outside
    /// 1–10.
    pub fn new(kind: GameKind, human: Color, level: u8) -> Result<Settings, ActionError> {
        check_level(level)?;
        Ok(Settings {
            kind,
            human,
            level,
            rules: AnyRules::usual(kind),
            movetime_ms: 1000,
            fen: None,
            seed: 0x5EED,
            chance_seed: None,
        })
    }
}

fn check_level(level: u8) -> Result<Level, ActionError> {
    Level::new(level).map_err(|_| ActionError::BadLevel(level))
}

/// What the computer is asked to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    /// Its own move, at the game's level.
    Move,
    /// A hint for the player, at full strength.
    Hint,
}

/// A search the front end should run (see the module docs).
#[derive(Clone, Debug)]
pub struct SearchRequest {
    /// Its id: hand it back with the answer.
    pub id: u64,
    /// Its purpose.
    pub job: Job,
    /// The position to search (a copy).
    pub game: AnyGame,
    /// Its rules.
    pub rules: AnyRules,
    /// The level (full strength for hints and puzzles).
    pub level: Level,
    /// Time for the search, in milliseconds.
    pub movetime_ms: u64,
    /// Seed of the level's choice.
    pub seed: u64,
    /// In a puzzle: the moves the player has left to mate. The computer's move is then
    /// the longest defence ([`crate::mate::longest_defence`], answered through
    /// [`VsComputer::defence_done`]) and a hint the next move of a proven mate.
    pub mate_within: Option<u32>,
}

pub use crate::puzzle_mode::PuzzleStatus;

/// Everything a screen shows of a game against the computer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VsState {
    /// The game.
    pub kind: GameKind,
    /// The board, ready to draw.
    pub board: BoardView,
    /// The side to move.
    pub side_to_move: Color,
    /// The player's colour.
    pub human: Color,
    /// The computer's level.
    pub level: u8,
    /// The computer is thinking about its move.
    pub thinking: bool,
    /// A hint is being looked for.
    pub hinting: bool,
    /// Undo has something to take back: the player's move (and the reply), or the
    /// player's resignation or claimed draw.
    pub can_undo: bool,
    /// Taken-back moves can be played again.
    pub can_redo: bool,
    /// The player has moved (or redone a move) since this game was started, resumed or
    /// opened here — not the computer's first move, not the moves a resumed record brought.
    /// A front end keeps a game as "the game to continue" from then on, so that a new game
    /// started by mistake, or a record opened to look at, does not replace it.
    pub player_moved: bool,
    /// The side to move is in check.
    pub in_check: bool,
    /// It is the player's turn and the game goes on.
    pub your_turn: bool,
    /// How the game ended.
    pub outcome: Option<Outcome>,
    /// The end from the player's side ("You won: checkmate").
    pub result: Option<String>,
    /// A draw the player may claim now (chess: threefold repetition, fifty moves).
    pub claimable_draw: Option<DrawReason>,
    /// The player's moves a draw may be claimed with ([`VsComputer::claim_draw_with`]):
    /// each would make the position stand for the third time or complete fifty moves
    /// (chess; empty when it is not the player's turn).
    pub claimable_with: Vec<ClaimWith>,
    /// Who claimed the draw that ended the game (`None` for any other end, and for a
    /// claim in a game continued from a record, which does not say).
    pub draw_claimed_by: Option<Color>,
    /// The moves so far in the game's main notation.
    pub moves: Vec<String>,
    /// The same moves as a move list shows them, a full move a line, numbered from the
    /// position ([`notation::numbered_lines`]: `7... Kd8` when the second player moved first).
    pub move_list: Vec<String>,
    /// The last move, described.
    pub last_move: Option<MoveInfo>,
    /// The hint found, described.
    pub hint: Option<MoveInfo>,
    /// Puzzle progress, in puzzle mode.
    pub puzzle: Option<PuzzleStatus>,
    /// The position as FEN.
    pub fen: String,
}

/// A game against the computer (see the module docs).
#[derive(Clone, Debug)]
pub struct VsComputer {
    game: AnyGame,
    rules: AnyRules,
    human: Color,
    level: Level,
    movetime_ms: u64,
    seed: u64,
    redo: Vec<AnyMove>,
    /// An ending the moves do not show (resignation, claimed draw).
    ending: Option<Outcome>,
    /// Who claimed the draw in `ending`, and how (for undo).
    claimant: Option<Claimant>,
    /// The player has moved (or redone a move) on this object: see [`VsState::player_moved`].
    player_moved: bool,
    board: BoardModel,
    pending: Option<(u64, Job)>,
    last_id: u64,
    hint: Option<AnyMove>,
    puzzle: Option<PuzzleMode>,
    reveals: RevealDraw,
    /// The free tags of the record the game was continued from (its event, site, date,
    /// players…) when it has its own roster ([`crate::tags::has_own_roster`]: a database
    /// game), written again by [`VsComputer::save`].
    record_tags: Vec<(String, String)>,
}

/// The reveals' source for a game of `kind` (OS-seeded jieqi unless a seed is given).
fn reveal_source(kind: GameKind, seed: Option<u64>) -> Result<RevealDraw, ActionError> {
    match (kind, seed) {
        (_, Some(s)) => Ok(RevealDraw::seeded(s)),
        (GameKind::Jieqi, None) => {
            RevealDraw::from_os().map_err(|e| ActionError::Setup(e.to_string()))
        }
        (_, None) => Ok(RevealDraw::seeded(0)),
    }
}

/// The reveals' source of a game continued from `saved` (`game`, its `redo` moves taken
/// back), the player playing `human`: the player's deal as the record keeps it (or, in a
/// record from before the deal was kept, dealt afresh keeping every piece its moves and
/// redo list revealed), the computer's dealt afresh (see [`crate::jieqi`]).
fn resumed_deal(
    saved: &SavedGame,
    game: &AnyGame,
    redo: &[AnyMove],
    human: Color,
    seed: Option<u64>,
) -> Result<RevealDraw, ActionError> {
    let mut reveals = reveal_source(saved.kind, seed)?;
    if saved.kind != GameKind::Jieqi {
        return Ok(reveals);
    }
    let line = crate::jieqi::line_with_redo(game, redo);
    // The player's deal (a two-player game's record holds a tag for each side); a record
    // whose only deal is another side's is refused by `keep_deal`.
    let deals = || saved.tags.iter().filter(|(k, _)| k == DEAL_TAG);
    let kept = deals()
        .find(|(_, text)| RevealDraw::tag_side(text) == Some(human))
        .or_else(|| deals().next());
    match kept {
        Some((_, text)) => reveals
            .keep_deal(&line, human, text)
            .map_err(|e| SaveError::Damaged(e.to_string()))?,
        None => reveals.deal(&line),
    }
    reveals.redeal(game, human.other());
    Ok(reveals)
}

impl VsComputer {
    /// A new game.
    pub fn new(settings: Settings) -> Result<VsComputer, ActionError> {
        let level = check_level(settings.level)?;
        let game = match &settings.fen {
            Some(f) => AnyGame::from_fen(settings.kind, f),
            None => AnyGame::new(settings.kind),
        }
        .map_err(|e| ActionError::Setup(e.to_string()))?;
        let rules = if settings.rules.kind() == settings.kind {
            settings.rules
        } else {
            AnyRules::usual(settings.kind)
        };
        let mut vs = VsComputer {
            game,
            rules,
            human: settings.human,
            level,
            movetime_ms: settings.movetime_ms.max(1),
            seed: settings.seed,
            redo: Vec::new(),
            ending: None,
            claimant: None,
            player_moved: false,
            board: BoardModel::new(settings.human == Color::Black),
            pending: None,
            last_id: 0,
            hint: None,
            puzzle: None,
            reveals: reveal_source(settings.kind, settings.chance_seed)?,
            record_tags: Vec::new(),
        };
        // Dealt at once, so that a save before the first reveal keeps the deal.
        vs.reveals.deal(&vs.game);
        vs.after_change(None);
        Ok(vs)
    }

    /// A puzzle, recorded nowhere: the player takes the side to move of the puzzle's
    /// position and must mate in time against the computer at full strength.
    pub fn puzzle(puzzle: &Puzzle, movetime_ms: u64) -> Result<VsComputer, ActionError> {
        VsComputer::start_puzzle(PuzzleMode::new(puzzle.clone()), movetime_ms)
    }

    /// A try at a puzzle with its rules (see [`crate::puzzle_mode`]); the try is recorded
    /// once the position is set up.
    pub fn start_puzzle(mode: PuzzleMode, movetime_ms: u64) -> Result<VsComputer, ActionError> {
        let p = mode.puzzle();
        if p.mate_in == 0 {
            return Err(ActionError::Setup(format!(
                "puzzle `{}` mates in 0 moves: a puzzle mates in 1 or more",
                p.name
            )));
        }
        let game =
            AnyGame::from_fen(p.kind, &p.fen).map_err(|e| ActionError::Setup(e.to_string()))?;
        let mut settings = Settings::new(p.kind, game.side_to_move(), 10)?;
        settings.fen = Some(p.fen.clone());
        settings.movetime_ms = movetime_ms;
        let mut vs = VsComputer::new(settings)?;
        mode.started();
        vs.puzzle = Some(mode);
        Ok(vs)
    }

    /// Continues a saved game (see [`VsComputer::save`]); `fallback` gives the colour and
    /// level when the file does not say.
    pub fn resume(bytes: &[u8], fallback: &Settings) -> Result<VsComputer, ActionError> {
        let saved = SavedGame::decode(bytes)?;
        let (game, rules) = saved.restore()?;
        let (human, level) = match saved.player {
            Some(p) => (p.color(), p.level),
            None => (fallback.human, fallback.level),
        };
        let level = check_level(level)?;
        let redo = saved.redo_moves(&game);
        let reveals = resumed_deal(&saved, &game, &redo, human, fallback.chance_seed)?;
        // A record with its own roster keeps its tags; one of Banco's own roster is written
        // with the roster of the game then. The player's deal is written afresh by `save`,
        // and the record's own tags (`Human`, `Level`…) are not free.
        let record_tags = if crate::tags::has_own_roster(&saved.tags) {
            saved
                .tags
                .iter()
                .filter(|(k, _)| k != DEAL_TAG && !crate::tags::is_own(k))
                .cloned()
                .collect()
        } else {
            Vec::new()
        };
        let mut vs = VsComputer {
            game,
            rules,
            human,
            level,
            movetime_ms: fallback.movetime_ms.max(1),
            seed: fallback.seed,
            redo,
            ending: saved.ending,
            claimant: None,
            player_moved: false,
            board: BoardModel::new(human == Color::Black),
            pending: None,
            last_id: 0,
            hint: None,
            puzzle: None,
            reveals,
            record_tags,
        };
        let last = vs.game.history().last().copied();
        vs.after_change(last);
        Ok(vs)
    }

    /// The record to continue this game later (the one save format), with the tags of the
    /// record it was continued from.
    pub fn save(&self) -> Result<Vec<u8>, ActionError> {
        let mut s = SavedGame::of(&self.game, self.rules);
        s.redo = self
            .redo
            .iter()
            .map(|&m| self.game.encode_move(m))
            .collect();
        s.ending = self.ending;
        s.player = Some(Player {
            color: self.human.index() as u8,
            level: self.level.number(),
        });
        s.tags.clone_from(&self.record_tags);
        s.tags.extend(self.reveals.deal_tag(&self.game, self.human));
        Ok(s.encode()?)
    }

    /// The game.
    #[must_use]
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> AnyRules {
        self.rules
    }

    /// The player's colour.
    #[must_use]
    pub fn human(&self) -> Color {
        self.human
    }

    /// How the game ended, if it did.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.ending.or_else(|| self.game.outcome(&self.rules))
    }

    fn over(&self) -> bool {
        self.outcome().is_some() || self.verdict() == Some(Verdict::Failed)
    }

    fn verdict(&self) -> Option<Verdict> {
        let mode = self.puzzle.as_ref()?;
        Some(mode.verdict(&self.game, &self.rules, self.human, self.outcome()))
    }

    /// True when it is the player's turn and the game goes on.
    #[must_use]
    pub fn your_turn(&self) -> bool {
        !self.over() && self.game.side_to_move() == self.human
    }

    /// The search that should be running now, if any (see the module docs).
    #[must_use]
    pub fn search_request(&self) -> Option<SearchRequest> {
        let (id, job) = self.pending?;
        let full = self.puzzle.is_some() || job == Job::Hint;
        Some(SearchRequest {
            id,
            job,
            game: self.game.clone(),
            rules: self.rules,
            level: if full { Level::MAX } else { self.level },
            movetime_ms: self.movetime_ms,
            seed: self.seed ^ u64::from(self.game.ply()).wrapping_mul(0x9E37_79B9),
            mate_within: self
                .puzzle
                .as_ref()
                .map(|p| p.moves_left(&self.game).max(1)),
        })
    }

    /// The answer of a puzzle's defence search `id` (see [`SearchRequest::mate_within`]):
    /// the reply is played, and a reply that escapes the mate fails the puzzle.
    pub fn defence_done(&mut self, id: u64, defence: &crate::mate::Defence) -> bool {
        if self.pending != Some((id, Job::Move)) {
            return false;
        }
        let done = self.answer(id, defence.reply, None);
        if done && defence.escapes() {
            if let Some(p) = &mut self.puzzle {
                p.set_slipped(true);
            }
            self.pending = None;
        }
        if done {
            self.settle_puzzle();
        }
        done
    }

    /// The answer of search `id` as [`crate::answer::run`] found it: a puzzle's defence
    /// through [`VsComputer::defence_done`], any other as [`VsComputer::search_done`] takes
    /// it, an engine's with its score (which lets the computer claim a draw, [`claim`]).
    pub fn answer_done(&mut self, id: u64, answer: &crate::answer::SearchAnswer) -> bool {
        use crate::answer::SearchAnswer;
        match answer {
            SearchAnswer::Defence(d) => self.defence_done(id, d),
            SearchAnswer::Engine(r) => self.move_done(id, r.best_move, Some(r.score)),
            SearchAnswer::Mate(_) => self.move_done(id, answer.best_move(), None),
        }
    }

    /// The id of the search being waited for.
    #[must_use]
    pub fn pending_search(&self) -> Option<u64> {
        self.pending.map(|(id, _)| id)
    }

    /// The answer of search `id`: the computer's move is played, a hint is shown. Returns
    /// false (and changes nothing) for a search that is no longer wanted or a move that is
    /// not legal here. Without the search's score the computer claims no draw: hand an
    /// engine's answer to [`VsComputer::answer_done`] for that ([`claim`]).
    pub fn search_done(&mut self, id: u64, best: Option<AnyMove>) -> bool {
        self.move_done(id, best, None)
    }

    /// [`VsComputer::search_done`] with the search's score, if known.
    fn move_done(&mut self, id: u64, best: Option<AnyMove>, score: Option<Score>) -> bool {
        let done = self.answer(id, best, score);
        if done {
            self.settle_puzzle();
        }
        done
    }

    /// The answer of search `id`; `score`, the search's score for the computer, lets it
    /// claim a draw ([`claim`]).
    fn answer(&mut self, id: u64, best: Option<AnyMove>, score: Option<Score>) -> bool {
        let Some((want, job)) = self.pending else {
            return false;
        };
        if want != id {
            return false;
        }
        self.pending = None;
        match job {
            Job::Hint => {
                self.hint = best.filter(|&m| self.game.is_legal(m));
                self.board.set_hint(&self.game, self.hint);
                if let (Some(p), Some(_)) = (&mut self.puzzle, self.hint) {
                    p.hint_shown(&self.game);
                }
                true
            }
            Job::Move if self.computer_claims(best, score) => true,
            Job::Move => match best {
                Some(mv) if self.game.play(mv).is_ok() => {
                    self.redo.clear();
                    self.after_change(Some(mv));
                    true
                }
                _ => {
                    // No move (the game is over) or a bad one: look again next time.
                    self.after_change(self.game.history().last().copied());
                    false
                }
            },
        }
    }

    /// A tap on a screen cell of the board; a completed move is played.
    pub fn tap(&mut self, column: u8, row: u8) -> Result<Tap, ActionError> {
        let mover = self.your_turn().then_some(self.human);
        let tap = self.board.tap(&self.game, column, row, mover);
        self.finish_tap(tap)
    }

    /// The promotion piece chosen after [`Tap::ChoosePromotion`].
    pub fn choose_promotion(&mut self, piece: PieceKind) -> Result<Tap, ActionError> {
        let tap = self.board.choose_promotion(&self.game, piece)?;
        self.finish_tap(tap)
    }

    fn finish_tap(&mut self, tap: Tap) -> Result<Tap, ActionError> {
        if let Tap::Move(mv) = tap {
            self.play(mv)?;
        }
        Ok(tap)
    }

    /// Plays the player's move.
    pub fn play(&mut self, mv: AnyMove) -> Result<MoveInfo, ActionError> {
        let info = self.play_move(mv)?;
        self.clear_notice();
        self.settle_puzzle();
        Ok(info)
    }

    /// Refuses a move of the player's when the game is over or it is the computer's turn:
    /// checked before the move is read, so that a move typed on the computer's turn hears
    /// whose turn it is, not why the move would be wrong.
    ///
    /// # Errors
    /// [`ActionError::GameOver`], [`ActionError::NotYourTurn`].
    pub fn ready_to_move(&self) -> Result<(), ActionError> {
        if let Some(o) = self.outcome() {
            return Err(ActionError::GameOver(self.result_for(o)));
        }
        if !self.your_turn() {
            return Err(ActionError::NotYourTurn);
        }
        Ok(())
    }

    fn play_move(&mut self, mv: AnyMove) -> Result<MoveInfo, ActionError> {
        self.ready_to_move()?;
        if !self.game.is_legal(mv) {
            return Err(MoveError::Illegal(format!("{mv} is not a legal move here")).into());
        }
        let info = notation::describe(&self.game, mv);
        self.game
            .play(mv)
            .map_err(|e| MoveError::Illegal(e.to_string()))?;
        if self.redo.last() == Some(&mv) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        self.player_moved = true;
        self.after_change(Some(mv));
        if self
            .game
            .history()
            .last()
            .copied()
            .is_some_and(|m| revealed_kind(m).is_some())
        {
            // The step turned a piece over: describe it with what it revealed.
            return Ok(notation::describe_last(&self.game).unwrap_or(info));
        }
        Ok(info)
    }

    /// Plays a move the player typed, in any of the game's notations.
    pub fn play_text(&mut self, text: &str) -> Result<MoveInfo, ActionError> {
        self.ready_to_move()?;
        let mv = notation::parse_move(&self.game, text, None)?;
        self.play(mv)
    }

    /// Plays a move given as squares (and a promotion piece).
    pub fn play_squares(
        &mut self,
        from: u8,
        to: u8,
        promotion: Option<PieceKind>,
    ) -> Result<MoveInfo, ActionError> {
        self.ready_to_move()?;
        let mv = self.game.move_from_parts(from, to, promotion)?;
        self.play(mv)
    }

    /// True if undo has something to take back: the player's resignation or a claimed draw,
    /// or a move of the player's.
    #[must_use]
    pub fn can_undo(&self) -> bool {
        if self.ending_to_withdraw() {
            return true;
        }
        let mut g = self.game.clone();
        while g.undo_move().is_some() {
            if self.players_turn_in(&g) {
                return true;
            }
        }
        false
    }

    /// True when `g` is a position where the player moves (not awaiting a chance outcome).
    fn players_turn_in(&self, g: &AnyGame) -> bool {
        g.side_to_move() == self.human && !g.awaits_chance()
    }

    /// True when the game ended by the player's resignation or a draw claimed or agreed:
    /// an ending the moves do not show, which undo withdraws on its own.
    fn ending_to_withdraw(&self) -> bool {
        match self.ending {
            Some(Outcome::Win { winner, reason }) => {
                winner != self.human && reason == WinReason::Resignation
            }
            // The computer's claim goes with the player's last move, as its move would.
            Some(Outcome::Draw { .. }) => self.claimant != Some(Claimant::Computer),
            None => false,
        }
    }

    /// Takes back the player's last action: a resignation or a claimed draw is withdrawn
    /// (the game goes on from the same position; a draw claimed with a move is withdrawn
    /// with that move, which redo plays again); otherwise moves are taken back until it
    /// is the player's turn again, the player's last move included (so also while the
    /// computer thinks, and after the end of the game, a draw the computer claimed
    /// included).
    pub fn undo(&mut self) -> Result<(), ActionError> {
        if self.ending_to_withdraw() {
            self.ending = None;
            if self.claimant.take() == Some(Claimant::PlayerWithMove)
                && let Some(mv) = self.game.undo_move()
            {
                self.redo.push(mv);
            }
            self.clear_notice();
            self.after_change(self.game.history().last().copied());
            return Ok(());
        }
        if !self.can_undo() {
            return Err(ActionError::NothingToUndo);
        }
        self.ending = None;
        self.claimant = None;
        self.clear_notice();
        if let Some(p) = &mut self.puzzle {
            p.set_slipped(false);
        }
        let computer = self.human.other();
        let mut seen_theirs = false;
        while let Some(mv) = self.game.undo_move() {
            seen_theirs |=
                revealed_kind(mv).is_some() && pending_side(&self.game) == Some(computer);
            self.redo.push(mv);
            if self.players_turn_in(&self.game) {
                break;
            }
        }
        if seen_theirs {
            // What the player saw of the computer's pieces must not outlive the line.
            self.reveals.redeal(&self.game, computer);
        }
        let last = self.game.history().last().copied();
        self.after_change(last);
        Ok(())
    }

    /// True if taken-back moves can be played again.
    #[must_use]
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty() && self.pending.is_none_or(|(_, j)| j == Job::Hint)
    }

    /// Plays again what undo took back, up to the player's next turn.
    pub fn redo(&mut self) -> Result<(), ActionError> {
        if !self.can_redo() || !self.your_turn() {
            return Err(ActionError::NothingToRedo);
        }
        let mut last = None;
        while let Some(mv) = self.redo.pop() {
            if self.game.play(mv).is_err() {
                self.redo.clear();
                break;
            }
            last = Some(mv);
            self.player_moved = true;
            if self.players_turn_in(&self.game) || self.outcome().is_some() {
                break;
            }
        }
        self.clear_notice();
        self.after_change(last);
        self.settle_puzzle();
        Ok(())
    }

    /// Asks for a hint (a full-strength search for the player's move).
    pub fn hint(&mut self) -> Result<(), ActionError> {
        if let Some(o) = self.outcome() {
            return Err(ActionError::GameOver(self.result_for(o)));
        }
        if !self.your_turn() {
            return Err(ActionError::NotYourTurn);
        }
        if self.pending.is_none() {
            self.pending = Some((self.next_id(), Job::Hint));
        }
        self.clear_notice();
        Ok(())
    }

    /// The player resigns (refused in a puzzle).
    pub fn resign(&mut self) -> Result<(), ActionError> {
        if let Some(o) = self.outcome() {
            return Err(ActionError::GameOver(self.result_for(o)));
        }
        if self.puzzle.is_some() {
            return Err(ActionError::InPuzzle);
        }
        self.ending = Some(Outcome::Win {
            winner: self.human.other(),
            reason: WinReason::Resignation,
        });
        self.claimant = None;
        self.after_change(self.game.history().last().copied());
        Ok(())
    }

    /// Changes the computer's level (1–10; anything else is refused).
    pub fn set_level(&mut self, level: u8) -> Result<(), ActionError> {
        self.level = check_level(level)?;
        Ok(())
    }

    /// The puzzle's notice was shown (see [`crate::puzzle_mode`]).
    pub fn clear_notice(&mut self) {
        if let Some(p) = &mut self.puzzle {
            p.clear_notice();
        }
    }

    /// Clears the selection and a pending promotion choice.
    pub fn clear_selection(&mut self) {
        self.board.clear_selection();
    }

    /// Turns the board around.
    pub fn flip(&mut self) {
        let f = self.board.flipped();
        self.board.set_flipped(!f);
    }

    /// Everything to draw.
    #[must_use]
    pub fn state(&self) -> VsState {
        let outcome = self.outcome();
        let puzzle =
            (self.puzzle.as_ref()).map(|p| p.status(&self.game, &self.rules, self.human, outcome));
        let moves = notation::history_text(&self.game, main_notation(self.game.kind()));
        VsState {
            kind: self.game.kind(),
            board: self.board.view(&self.game),
            side_to_move: self.game.side_to_move(),
            human: self.human,
            level: self.level.number(),
            thinking: matches!(self.pending, Some((_, Job::Move))),
            hinting: matches!(self.pending, Some((_, Job::Hint))),
            can_undo: self.can_undo(),
            can_redo: self.can_redo() && self.your_turn(),
            player_moved: self.player_moved,
            in_check: self.game.in_check(),
            your_turn: self.your_turn(),
            outcome,
            result: outcome.map(|o| self.result_for(o)),
            claimable_draw: if outcome.is_none() && self.your_turn() {
                self.game.claimable_draw(&self.rules)
            } else {
                None
            },
            claimable_with: if outcome.is_none() && self.your_turn() {
                self.claimable_with()
            } else {
                Vec::new()
            },
            draw_claimed_by: self.draw_claimed_by(),
            move_list: notation::numbered_lines(&self.game, &moves),
            moves,
            last_move: notation::describe_last(&self.game),
            hint: self.hint.map(|m| notation::describe(&self.game, m)),
            puzzle,
            fen: banco_game::MatchGame::fen(&self.game),
        }
    }

    fn result_for(&self, o: Outcome) -> String {
        result_text(self.game.kind(), o, Some(self.human))
    }

    /// In a puzzle, after a move: a mate is recorded, a failed move taken back at once with
    /// its notice ([`crate::puzzle_mode`]).
    fn settle_puzzle(&mut self) {
        match self.verdict() {
            Some(Verdict::Solved) => {
                if let Some(p) = &mut self.puzzle {
                    p.solved();
                }
            }
            Some(Verdict::Failed) => {
                let line = puzzle_mode::wrong_line(&self.game, self.human);
                if self.undo().is_ok() {
                    self.redo.clear();
                    if let (Some(p), Some((played, reply))) = (&mut self.puzzle, line) {
                        p.wrong_move(played, reply);
                    }
                }
            }
            Some(Verdict::Going) | None => {}
        }
    }

    /// Numbers this game's searches after those of `before`, the game it replaces on one
    /// [`runner::Runner`](crate::runner::Runner): an answer to a search of the old game then
    /// never passes for one of this game's (and the old search is stopped, not taken for
    /// the one this game wants).
    pub(crate) fn number_after(&mut self, before: &VsComputer) {
        let base = before.last_id;
        self.last_id += base;
        if let Some((id, _)) = &mut self.pending {
            *id += base;
        }
    }

    fn next_id(&mut self) -> u64 {
        self.last_id += 1;
        self.last_id
    }

    /// Settles a pending jieqi reveal: the taken-back reveal when the same step was played
    /// again (see the module docs), else a fresh draw. The last outcome played, if any.
    fn settle_chance(&mut self) -> Option<AnyMove> {
        self.reveals.settle_redo(&mut self.game, &mut self.redo)
    }

    /// After any change of the position: settle a pending reveal, clear the selection and
    /// hint, mark the last move, and ask for the computer's move when it is its turn.
    fn after_change(&mut self, last: Option<AnyMove>) {
        let last = self.settle_chance().or(last);
        self.board.clear_selection();
        self.board.set_last_move(&self.game, last);
        self.hint = None;
        self.board.set_hint(&self.game, None);
        self.pending = None;
        if !self.over() && self.game.side_to_move() != self.human {
            self.pending = Some((self.next_id(), Job::Move));
        }
    }
}

/// The notation a game's moves are listed in.
#[must_use]
pub fn main_notation(kind: GameKind) -> Notation {
    notation::notations(kind)
        .first()
        .copied()
        .unwrap_or(Notation::Coordinate)
}

#[cfg(test)]
mod tests;
