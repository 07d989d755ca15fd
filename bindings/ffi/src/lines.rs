//! [`LinesGame`]: a solo game of Lines for a screen (documented on the type).
//!
//! Cell lists are `Vec<u8>`: Kotlin gets a `ByteArray`, which a data class compares by
//! identity, so two equal [`LinesView`]s (or hints, turns) are not `==` there: compare their
//! lists with `contentEquals` (Swift's `Data` compares by content, as Rust does below).
//!
//! ```
//! use banco_ffi::{LinesGame, LinesSettings, LinesUndo};
//! let game = LinesGame::new(LinesSettings { start_balls: 5, undo: LinesUndo::LastTurn, preview: false }, Some(7))?;
//! assert_eq!(game.view().balls, 5);
//! let hint = game.hint().expect("a move at the start");
//! let turn = game.play(hint.from, hint.to)?;
//! assert_eq!(turn.path.first(), Some(&hint.from));
//! assert_eq!(turn.path.last(), Some(&hint.to));
//! let saved = game.save()?;
//! assert_eq!(LinesGame::load(saved)?.view(), game.view());
//! # Ok::<(), banco_ffi::LinesError>(())
//! ```

use banco_app::lines::LinesSession;
use banco_app::save::SaveError;
use banco_game::ScoreGame;
use banco_lines::{
    Ball, Board, Cell, CellSet, MoveError, Settings, TurnReport, UndoError, UndoRule,
};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// Why a Lines action was refused (nothing changed). Kotlin gets `LinesException.EmptySource`
/// and friends, Swift `LinesError.emptySource(message:)`; the message reads well.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, uniffi::Error)]
#[uniffi(flat_error)]
pub enum LinesError {
    /// A cell index above 80.
    #[error("cell {0} is off the board (cells are 0 to 80, a1 to i9)")]
    OffBoard(u32),
    /// No ball on the start cell.
    #[error("{0}")]
    EmptySource(String),
    /// The target cell holds a ball.
    #[error("{0}")]
    Occupied(String),
    /// Balls wall the target off from the ball.
    #[error("{0}")]
    NoPath(String),
    /// The board is full: the game is over.
    #[error("the game is over: the board is full")]
    GameOver,
    /// The time is up ([`LinesGame::tick`]): the game ended where it stood.
    #[error("the game is over: the time is up")]
    TimeUp,
    /// Undo is off in this game's settings.
    #[error("undo is off in this game's settings")]
    UndoDisabled,
    /// No turn to take back (the start, or the one allowed undo was used).
    #[error("there is no turn to take back")]
    NothingToUndo,
    /// Text that is not a move (two cells, like `a1 e5`).
    #[error("{0}")]
    Unreadable(String),
    /// Settings out of range (a start other than 3 or 5 balls).
    #[error("{0}")]
    BadSettings(String),
    /// Saved bytes (a game or a best-scores table) that cannot be loaded: damaged, cut
    /// short, not a Banco record. (Bytes of a newer Banco are [`LinesError::NewerSave`],
    /// those of another record [`LinesError::WrongGame`]: neither is damaged.)
    #[error("{0}")]
    BadSave(String),
    /// A game or best-scores table written by a newer Banco: not damaged, so a shell keeps
    /// it, and the message says to update the app.
    #[error("{0}")]
    NewerSave(String),
    /// A sound record that is not what was asked for (a board game's save opened as a
    /// Lines game, a saved game given as the best-scores table): not damaged.
    #[error("{0}")]
    WrongGame(String),
    /// A bug inside Banco (a Rust panic caught at the boundary). Please report it.
    #[error("internal error in Banco (please report it): {0}")]
    Internal(String),
}

impl From<MoveError> for LinesError {
    fn from(e: MoveError) -> Self {
        let text = e.to_string();
        match e {
            MoveError::OutOfRange(i) => LinesError::OffBoard(u32::try_from(i).unwrap_or(u32::MAX)),
            MoveError::EmptySource(_) => LinesError::EmptySource(text),
            MoveError::Occupied(_) => LinesError::Occupied(text),
            MoveError::NoPath { .. } => LinesError::NoPath(text),
            MoveError::GameOver => LinesError::GameOver,
            MoveError::TimeUp => LinesError::TimeUp,
        }
    }
}

impl From<UndoError> for LinesError {
    fn from(e: UndoError) -> Self {
        match e {
            UndoError::Disabled => LinesError::UndoDisabled,
            UndoError::Nothing | UndoError::Spent => LinesError::NothingToUndo,
            UndoError::TimeUp => LinesError::TimeUp,
        }
    }
}

impl From<SaveError> for LinesError {
    fn from(e: SaveError) -> Self {
        match e {
            SaveError::NewerVersion(_)
            | SaveError::UnsupportedGame(_)
            | SaveError::BestScoresNewer(_) => LinesError::NewerSave(e.to_string()),
            SaveError::LinesGame | SaveError::NotLines(_) | SaveError::NotBestScores => {
                LinesError::WrongGame(e.to_string())
            }
            // The table's own damage says so, as a save that cannot be written does; a
            // game's damage is said to be the game's.
            SaveError::BestScoresDamaged(_)
            | SaveError::BestScoresTooLarge(_)
            | SaveError::TooLong(_) => LinesError::BadSave(e.to_string()),
            _ => LinesError::BadSave(format!("this saved Lines game cannot be loaded: {e}")),
        }
    }
}

/// Runs `f`, turning a panic into [`LinesError::Internal`].
pub(crate) fn guard<T>(f: impl FnOnce() -> Result<T, LinesError>) -> Result<T, LinesError> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        Err(LinesError::Internal(crate::error::panic_message(
            payload.as_ref(),
        )))
    })
}

/// How far a player may take turns back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum LinesUndo {
    /// No undo.
    Off,
    /// The last turn only (Lines 98's rule).
    LastTurn,
    /// Any number of turns, back to the start.
    Unlimited,
}

/// The settings of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct LinesSettings {
    /// Balls on the board at the start: 3 or 5.
    pub start_balls: u8,
    /// How far undo goes.
    pub undo: LinesUndo,
    /// Lines 98's preview: the board shows where the next balls land
    /// ([`LinesGame::next_spots`]); off unless given.
    #[uniffi(default = false)]
    pub preview: bool,
}

impl From<UndoRule> for LinesUndo {
    fn from(rule: UndoRule) -> Self {
        match rule {
            UndoRule::Off => LinesUndo::Off,
            UndoRule::LastTurn => LinesUndo::LastTurn,
            UndoRule::Unlimited => LinesUndo::Unlimited,
        }
    }
}

impl From<Settings> for LinesSettings {
    fn from(s: Settings) -> Self {
        LinesSettings {
            start_balls: s.start_balls,
            preview: s.preview,
            undo: s.undo.into(),
        }
    }
}

impl TryFrom<LinesSettings> for Settings {
    type Error = LinesError;
    fn try_from(s: LinesSettings) -> Result<Self, LinesError> {
        let undo = match s.undo {
            LinesUndo::Off => UndoRule::Off,
            LinesUndo::LastTurn => UndoRule::LastTurn,
            LinesUndo::Unlimited => UndoRule::Unlimited,
        };
        Settings::new(s.start_balls, undo)
            .map(|settings| settings.with_preview(s.preview))
            .map_err(|e| LinesError::BadSettings(e.to_string()))
    }
}

/// Everything a screen shows of the game. Kotlin: compare views by fields, the lists with
/// `contentEquals` (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct LinesView {
    /// 81 cells, index = rank × 9 + file from a1: 0 empty, 1–7 the colour + 1.
    pub cells: Vec<u8>,
    /// The three announced colours (0–6), in landing order.
    pub next_colors: Vec<u8>,
    /// With the preview ([`LinesSettings::preview`]): the cells (0–80) where the announced
    /// balls will land, in the order of `next_colors` (as [`LinesGame::next_spots`]) — draw
    /// a small ball of that colour in each. Empty in a classic game; fewer than three only
    /// on a nearly full board.
    pub next_spots: Vec<u8>,
    /// The score.
    pub score: u32,
    /// Moves played.
    pub turns: u32,
    /// Balls on the board.
    pub balls: u32,
    /// The game is over: the board is full, or the time is up ([`LinesGame::tick`]).
    pub game_over: bool,
    /// A turn can be taken back now.
    pub can_undo: bool,
    /// A turn taken back can be played again now ([`LinesGame::redo`]).
    pub can_redo: bool,
    /// The settings.
    pub settings: LinesSettings,
    /// The best score of this kind of game (0 when none), for "best: …" beside the score.
    pub best_score: u32,
    /// The kind of game, as the best scores rank it: its `label` heads the best-scores
    /// table of this game ([`LinesGame::best_scores_of_game`]).
    pub best_kind: crate::LinesBestKind,
    /// The hints asked in this game ([`LinesGame::hint`], [`LinesGame::hint_job`]), each
    /// position counted once; kept by undo and the save, 0 in a new game. Above 0 the game
    /// ranks only among games with hints (`best_kind.hints`).
    pub hints_used: u32,
    /// The player could know the game's seed ([`LinesGame::mark_seed_known`]): the game is
    /// not ranked.
    pub seed_known: bool,
    /// What to show beside the score of how this game ranks, in words, or `null`/`nil` for
    /// a game that enters the best scores as usual: played to its end before (a save of
    /// it, or the same seed — [`LinesGame::played_before`]: it does not enter), its seed
    /// known, or played with hints (it ranks among games with hints).
    pub ranking_note: Option<String>,
}

/// A ball that landed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct LinesBall {
    /// Its cell.
    pub cell: u8,
    /// Its colour (0–6).
    pub color: u8,
}

/// What one turn did, in the order a screen animates it. Kotlin: its lists are
/// `ByteArray`s, compared with `contentEquals` (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct LinesTurn {
    /// The cells the ball passes, start and target included, in order (a shortest path).
    pub path: Vec<u8>,
    /// The moved ball's colour (0–6).
    pub color: u8,
    /// Cells cleared by the lines the move completed (then no ball lands, unless those
    /// lines emptied the board: then the next balls land at once, after them).
    pub cleared: Vec<u8>,
    /// The balls that landed after the move, in order.
    pub landed: Vec<LinesBall>,
    /// Cells cleared by lines the landing completed, to empty after showing `landed`: a
    /// cell a later ball of the turn landed on again (those lines emptied the board) is
    /// left out, though `points` counts its ball.
    pub cleared_by_landing: Vec<u8>,
    /// Points this turn.
    pub points: u32,
    /// The score after the turn.
    pub score: u32,
    /// The board is now full: the game is over.
    pub game_over: bool,
    /// The board to draw while the ball walks its `path` (cells as [`LinesView::cells`]):
    /// as it was before the turn, the moved ball lifted off its start — so a line it
    /// completes stays whole until it arrives, and the landed balls wait. Once it arrived,
    /// the board after the turn (the view's cells).
    pub walk_cells: Vec<u8>,
}

/// What a tap on a Lines board did ([`LinesGame::tap`], `Match.raceTap`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum LinesTap {
    /// A ball is picked now (the first, or another instead): ring `cell`, mark `reachable`.
    Selected {
        /// The picked ball's cell.
        cell: u8,
        /// The empty cells it can reach.
        reachable: Vec<u8>,
    },
    /// The picked ball was tapped again: nothing is picked now.
    Deselected,
    /// The picked ball moved: the turn, with the path to animate.
    Moved {
        /// What the turn did.
        turn: LinesTurn,
    },
    /// Balls wall the tapped cell off: the ball stays picked; show `message`.
    Unreachable {
        /// Why, in words ("no free path from a1 to c3: balls block the way").
        message: String,
    },
    /// Nothing to do: an empty cell with nothing picked, or a finished game.
    Ignored,
}

impl LinesTap {
    /// The tap of banco-app on `before` (the board the tap was made on), `score` the
    /// score after a move.
    pub(crate) fn of(tap: banco_app::lines_pick::LinesTap, before: &Board, score: u32) -> LinesTap {
        use banco_app::lines_pick::LinesTap as App;
        match tap {
            App::Selected { cell, reachable } => LinesTap::Selected {
                cell: u8::from(cell),
                reachable: cells(reachable),
            },
            App::Deselected => LinesTap::Deselected,
            App::Moved(report) => LinesTap::Moved {
                turn: turn_of(&report, before, score),
            },
            App::Unreachable(e) => LinesTap::Unreachable {
                message: e.to_string(),
            },
            App::Ignored => LinesTap::Ignored,
        }
    }
}

/// One entry of the best-scores table ([`LinesGame::best_scores_of_game`],
/// [`LinesGame::best_tables`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct LinesBestScore {
    /// Its place among the games of its kind, 0 = best (as [`LinesGame::record_result`]
    /// answers).
    pub rank: u32,
    /// Final score.
    pub score: u32,
    /// Turns played.
    pub turns: u32,
    /// When, as the front end wrote it.
    pub date: String,
    /// The row as a list shows it: `"1. 1240 points, 312 turns (2026-12-02)"`.
    pub text: String,
    /// The kind of game it was made in (its rank is among games of that kind).
    pub kind: crate::LinesBestKind,
}

fn cells(set: CellSet) -> Vec<u8> {
    set.iter().map(u8::from).collect()
}

fn color(b: Ball) -> u8 {
    b.index() as u8
}

fn cell_of(index: u8) -> Result<Cell, LinesError> {
    Cell::from_index(usize::from(index)).map_err(|_| LinesError::OffBoard(u32::from(index)))
}

/// Each cell of `board` as the views give it: 0 empty, else the ball's colour + 1.
pub(crate) fn cell_codes(board: &Board) -> Vec<u8> {
    Cell::all()
        .map(|c| board.get(c).map_or(0, |b| color(b) + 1))
        .collect()
}

/// The turn `t` played on `before`, `score` the score after it.
fn turn_of(t: &TurnReport, before: &Board, score: u32) -> LinesTurn {
    let start = t.path.cells().first().copied();
    let mut walk = *before;
    if let Some(c) = start {
        walk.set(c, None);
    }
    LinesTurn {
        path: t.path.cells().iter().map(|&c| u8::from(c)).collect(),
        color: start.and_then(|c| before.get(c)).map_or(0, color),
        cleared: cells(t.cleared),
        landed: t
            .landed
            .iter()
            .map(|&(c, b)| LinesBall {
                cell: u8::from(c),
                color: color(b),
            })
            .collect(),
        cleared_by_landing: cells(t.cleared_by_landing),
        points: t.points,
        score,
        game_over: t.game_over,
        walk_cells: cell_codes(&walk),
    }
}

/// The seed of a game: `seed`'s 8 little-endian bytes then zeros (the same seed always
/// gives the same balls), or 32 bytes from the system's randomness.
fn seed_bytes(seed: Option<u64>) -> Result<[u8; 32], LinesError> {
    let mut bytes = [0; 32];
    match seed {
        Some(s) => bytes[..8].copy_from_slice(&s.to_le_bytes()),
        None => getrandom::fill(&mut bytes)
            .map_err(|e| LinesError::Internal(format!("no system randomness: {e}")))?,
    }
    Ok(bytes)
}

/// A solo game of Lines (Color Lines) for a screen — a thin skin over banco-app's [`LinesSession`]:
/// the board as 81 ready-to-draw cells, the three announced colours, a move returning the path the
/// ball takes (cells in order, for the animation) with the balls it cleared, the balls that landed
/// and the points, undo as the settings allow, the computer's hint with its reason, the best-scores
/// table, save/continue in the one save format, and a new game with a seed and 3 or 5 start balls.
///
/// Cells are indices `rank × 9 + file` from a1 (0) to i9 (80); colours are 0–6 (red,
/// green, blue, yellow, purple, cyan, orange — [`crate::lines_color_name`]); a board cell holds 0
/// when empty, else the colour + 1. Refused actions raise a [`LinesError`] naming what is
/// wrong (an empty start cell, an occupied target, no free path) and change nothing.
///
/// Every method may be called from any thread.
#[derive(uniffi::Object)]
pub struct LinesGame {
    inner: Mutex<LinesSession>,
}

impl LinesGame {
    pub(crate) fn lock(&self) -> MutexGuard<'_, LinesSession> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn view_of(s: &LinesSession) -> LinesView {
        let game = s.game();
        let board = game.board();
        LinesView {
            cells: cell_codes(board),
            next_colors: game.next_colors().iter().map(|&b| color(b)).collect(),
            next_spots: game.next_spots().into_iter().map(u8::from).collect(),
            score: game.score(),
            turns: game.turns(),
            balls: board.ball_count() as u32,
            game_over: s.is_over(),
            can_undo: game.can_undo() && !s.is_time_up(),
            can_redo: !game.taken_back().is_empty() && !s.is_time_up(),
            settings: game.settings().into(),
            best_score: s.best_scores_of_game().first().map_or(0, |e| e.score),
            best_kind: crate::lines_best::kind_of(s.best_kind()),
            hints_used: s.hints_used(),
            seed_known: s.seed_known(),
            ranking_note: s.ranking_note().map(str::to_owned),
        }
    }
}

#[uniffi::export]
impl LinesGame {
    /// A new game with `settings`; `seed` makes the balls repeat (tests, a shared
    /// challenge: mark such a game with [`LinesGame::mark_seed_known`] when the player can
    /// know the seed, so that it is not ranked), `null`/`nil` draws them from the system's
    /// randomness.
    #[uniffi::constructor]
    pub fn new(settings: LinesSettings, seed: Option<u64>) -> Result<LinesGame, LinesError> {
        guard(|| {
            let settings = Settings::try_from(settings)?;
            Ok(LinesGame {
                inner: Mutex::new(LinesSession::new(settings, seed_bytes(seed)?)),
            })
        })
    }

    /// Continues a game saved by [`LinesGame::save`] (an empty best-scores table: load it
    /// with [`LinesGame::load_best_scores`]).
    #[uniffi::constructor]
    pub fn load(bytes: Vec<u8>) -> Result<LinesGame, LinesError> {
        guard(|| {
            Ok(LinesGame {
                inner: Mutex::new(LinesSession::load(&bytes)?),
            })
        })
    }

    /// Starts a new game, keeping the best scores; `settings` `null`/`nil` keeps the
    /// current ones. The new game has no clock: a game against the clock calls
    /// [`LinesGame::start_clock`] again.
    pub fn new_game(
        &self,
        settings: Option<LinesSettings>,
        seed: Option<u64>,
    ) -> Result<(), LinesError> {
        guard(|| {
            let settings = settings.map(Settings::try_from).transpose()?;
            let seed = seed_bytes(seed)?;
            self.lock().new_game(settings, seed);
            Ok(())
        })
    }

    /// The screen: board, next colours, score, game over.
    pub fn view(&self) -> LinesView {
        LinesGame::view_of(&self.lock())
    }

    /// The score.
    pub fn score(&self) -> u32 {
        self.lock().score()
    }

    /// With the preview ([`LinesSettings::preview`]): the cells (0–80) where the announced
    /// balls will land, in the order of `view().next_colors` — draw a small ball of that
    /// colour there. A ball whose cell the player's move takes lands on a random free cell
    /// instead. Empty without the preview; fewer than three only on a nearly full board.
    /// The view carries the same cells (`view().next_spots`).
    pub fn next_spots(&self) -> Vec<u8> {
        self.lock()
            .game()
            .next_spots()
            .into_iter()
            .map(u8::from)
            .collect()
    }

    /// True once the board is full, or the time is up ([`LinesGame::tick`]).
    pub fn is_over(&self) -> bool {
        self.lock().is_over()
    }

    /// Plays this game against the clock: `limit_ms` from `now_ms` (milliseconds of a
    /// monotonic clock the shell passes to every clock call). The clock's time left is
    /// kept in [`LinesGame::save`] (as last counted) and comes back stopped with a loaded
    /// game: call [`LinesGame::resume_clock`] when it shows.
    pub fn start_clock(&self, limit_ms: u64, now_ms: u64) {
        self.lock().start_clock(limit_ms, now_ms);
    }

    /// Counts the clock at `now_ms` (call it about once a second, and after an undo): the
    /// time left, or `null`/`nil` without a clock. A full board stops the clock, and the
    /// first call after an undo that frees the board starts it again. At 0 the game ends
    /// where it stands — moves, undo, redo and hints are refused or empty,
    /// `view().game_over` is true — and [`LinesGame::record_result`] enters its score in
    /// the best scores (unless it has no point yet, or is marked
    /// [`LinesGame::mark_seed_known`]).
    pub fn tick(&self, now_ms: u64) -> Option<u64> {
        self.lock().tick(now_ms)
    }

    /// Stops the clock (the screen is left).
    pub fn pause_clock(&self, now_ms: u64) {
        self.lock().pause_clock(now_ms);
    }

    /// Starts a stopped clock again (a continued game on screen).
    pub fn resume_clock(&self, now_ms: u64) {
        self.lock().resume_clock(now_ms);
    }

    /// The empty cells the ball on `from` can reach (to highlight after a tap); empty when
    /// `from` holds no ball.
    pub fn reachable(&self, from: u8) -> Result<Vec<u8>, LinesError> {
        guard(|| {
            let from = cell_of(from)?;
            let s = self.lock();
            if s.game().board().is_empty_cell(from) {
                return Ok(Vec::new());
            }
            Ok(cells(s.game().reachable(from)))
        })
    }

    /// Moves the ball on `from` to `to`: the path to animate, the lines cleared, the balls
    /// landed and the points. Refused (nothing changes) for an empty `from`, an occupied
    /// `to`, no free path, or a full board. In a game against the clock, call
    /// [`LinesGame::tick`] first: the time is counted at a tick, so a move made after the
    /// limit but before the next tick would count.
    pub fn play(&self, from: u8, to: u8) -> Result<LinesTurn, LinesError> {
        guard(|| {
            let (from, to) = (cell_of(from)?, cell_of(to)?);
            let mut s = self.lock();
            let before = *s.game().board();
            let report = s.play(from, to)?;
            Ok(turn_of(&report, &before, s.score()))
        })
    }

    /// Plays a typed move (`"a1 e5"`, `"a1e5"`, `"a1-e5"`).
    pub fn play_text(&self, text: String) -> Result<LinesTurn, LinesError> {
        guard(|| {
            let (from, to) = banco_app::lines::parse_move(&text).map_err(|e| match e {
                banco_app::lines::LinesInputError::Move(m) => LinesError::from(m),
                other @ banco_app::lines::LinesInputError::Unreadable(_) => {
                    LinesError::Unreadable(other.to_string())
                }
            })?;
            self.play(u8::from(from), u8::from(to))
        })
    }

    /// A tap on cell `cell` (0–80): picks a ball, picks another, puts the picked one down,
    /// or moves it to an empty cell (see [`LinesTap`]); an off-board cell is refused. In a
    /// game against the clock, call [`LinesGame::tick`] first (see [`LinesGame::play`]).
    pub fn tap(&self, cell: u8) -> Result<LinesTap, LinesError> {
        guard(|| {
            let c = cell_of(cell)?;
            let mut s = self.lock();
            let before = *s.game().board();
            let tap = s.tap(c);
            Ok(LinesTap::of(tap, &before, s.score()))
        })
    }

    /// The picked ball's cell, if a ball is picked.
    pub fn selected(&self) -> Option<u8> {
        self.lock().selected().map(u8::from)
    }

    /// Puts the picked ball down (the time is up, the screen is left).
    pub fn clear_selection(&self) {
        self.lock().clear_selection();
    }

    /// Takes the last turn back (as the settings allow); the same balls come again.
    /// Taking back the last turn of a finished game takes its ending out of the best scores
    /// too, as [`LinesGame::record_result`] entered it: write
    /// [`LinesGame::best_scores_bytes`] again after such an undo.
    pub fn undo(&self) -> Result<(), LinesError> {
        guard(|| Ok(self.lock().undo()?))
    }

    /// Plays the last turn taken back again (the same balls land as the first time): what
    /// it did, as [`LinesGame::play`] reports it, or `null`/`nil` when no turn was taken
    /// back since the last move.
    pub fn redo(&self) -> Option<LinesTurn> {
        let mut s = self.lock();
        let before = *s.game().board();
        let report = s.redo()?;
        Some(turn_of(&report, &before, s.score()))
    }

    /// Enters the finished game (a full board, or ended on time) in the best scores of its
    /// kind ([`LinesGame::best_kind`]), once (`date` as the shell writes it, e.g.
    /// `2026-12-02`): its rank among the games of its kind (0 = best;
    /// [`LinesGame::best_scores_of_game`] lists them), or `null`/`nil` while the game goes
    /// on, when it was entered already, when it did not make the table, or when it is not
    /// ranked: it scored no point, its seed was known ([`LinesGame::mark_seed_known`]), or
    /// it was played to its end before ([`LinesGame::played_before`]). Whatever it
    /// answers, the table now remembers the game as played to its end, so a save of it
    /// played again does not enter: write [`LinesGame::best_scores_bytes`] after every
    /// call, not only when it gives a rank.
    pub fn record_result(&self, date: String) -> Option<u32> {
        self.lock().record_result(&date).map(|r| r as u32)
    }

    /// True when the best scores remember an ending of this very game that this object did
    /// not record — an entry of it, or its ending however it scored: the game was played to
    /// its end before (from a save of it, or the same seed: its balls known this time), so
    /// its ending does not enter again ([`LinesGame::record_result`]).
    pub fn played_before(&self) -> bool {
        self.lock().played_before()
    }

    /// The best-scores table as bytes for the shell to keep (a file, preferences).
    pub fn best_scores_bytes(&self) -> Result<Vec<u8>, LinesError> {
        guard(|| Ok(self.lock().best_scores_bytes()?))
    }

    /// Loads a table written by [`LinesGame::best_scores_bytes`].
    pub fn load_best_scores(&self, bytes: Vec<u8>) -> Result<(), LinesError> {
        guard(|| Ok(self.lock().load_best_scores(&bytes)?))
    }

    /// The game in the one save format (continue it with [`LinesGame::load`] or
    /// [`LinesGame::restore`]).
    pub fn save(&self) -> Result<Vec<u8>, LinesError> {
        guard(|| Ok(self.lock().save()?))
    }

    /// Replaces the game by a saved one, keeping the best scores (as `Game.restore`).
    pub fn restore(&self, bytes: Vec<u8>) -> Result<(), LinesError> {
        guard(|| Ok(self.lock().continue_saved(&bytes)?))
    }
}
