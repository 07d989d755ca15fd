//! [`LinesGame`]: one game of Lines — the board, the three announced colours, the score,
//! the seeded spawns, undo and redo (a turn taken back and played again brings the same
//! balls; the turns taken back are saved, so an undo once spent stays spent).
//!
//! A turn: move one ball along a free orthogonal path to an empty cell. If that completes
//! lines of five or more (see [`crate::lines`]), they vanish, score ([`crate::score`]) and
//! no ball comes this turn. Otherwise the three announced balls land on random empty cells
//! (all land, then every line they complete vanishes and scores, without a free move) and
//! three new colours are announced. With fewer free cells than announced balls, the balls
//! that find no cell are lost (even if a line the others complete frees cells: lines
//! vanish once all have landed, as always). The game ends when the board is full. A move that
//! empties the whole board brings the announced balls at once (there would be nothing to
//! move otherwise).
//!
//! Where the balls land ([`SpawnRule::AtAnnouncement`], every new game): the cell where
//! each announced ball will land (its spot) is drawn when it is announced, among the free
//! cells then; each ball lands on its spot, or — if the move put a ball there — on a random
//! free cell (not another ball's spot) drawn when it lands. The spots are part of the
//! [`State`]: undo, redo, replay and a saved game bring the same ones back. So every move
//! that leaves the spots free lands the same balls on the same cells, and undo cannot
//! fish for a better landing: taking a move back and playing another brings the same
//! balls to the same cells (unless the new move takes a spot). What undo still allows is
//! a peek: a player who saw the balls land, then took the move back, knows the spots —
//! inherent to any undo of a game whose spawns are fixed (turn undo off for a game
//! without it). The spots are hidden ([`LinesGame::next_spots`] is empty, and the
//! computer's hint does not read them) unless the game shows Lines 98's preview
//! ([`Settings::preview`], off by default), which shows them.
//!
//! Games saved before this rule ([`SpawnRule::AtLanding`]) keep theirs: each ball's cell
//! is drawn when it lands, among the free cells the move left, so which cell it is depends
//! on the move (see [`crate::spawn`]).
//!
//! ```
//! use banco_lines::{LinesGame, Settings};
//! use banco_game::ScoreGame;
//!
//! let mut game = LinesGame::new(Settings::default(), [1; 32]);
//! assert_eq!(game.board().ball_count(), 5);
//! let next = game.next_colors();
//! let (from, to) = game.any_move().expect("a move");
//! let report = game.play_move(from, to)?;
//! assert_eq!(report.path.from(), from);
//! assert_eq!(report.path.to(), to);
//! // No line yet, so the three announced balls landed.
//! assert_eq!(report.landed.iter().map(|&(_, b)| b).collect::<Vec<_>>(), next);
//! assert!(game.undo());
//! assert_eq!(game.next_colors(), next);
//! # Ok::<(), banco_lines::MoveError>(())
//! ```

use crate::board::{Ball, Board, Cell, CellError, CellSet};
use crate::lines::lines_through;
use crate::path::{Path, reachable, shortest_path};
use crate::score::points;
use crate::spawn::Spawner;
use banco_game::{GameKind, ScoreGame};
use serde::{Deserialize, Serialize};

pub mod data;
pub use data::GameDataError;

/// Balls announced and landing after each move without a line.
pub const NEXT: usize = 3;

/// How far a player may take turns back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum UndoRule {
    /// No undo.
    Off,
    /// The last turn only (Lines 98's rule).
    #[default]
    LastTurn,
    /// Any number of turns, back to the start.
    Unlimited,
}

/// When the cell where an announced ball lands is drawn: a property of a game, saved
/// with it (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SpawnRule {
    /// The rule of games saved before 2026-12-06 (kept so that they replay exactly): a ball's
    /// cell is drawn when it lands, as the `⌊r·e/2⁶⁴⌋`-th free cell of the board the move
    /// left — so which cell it is depends on the move, and undo could choose among them.
    AtLanding,
    /// A ball's cell (its spot) is drawn when the ball is announced, and kept in the game's
    /// [`State`], hidden unless the game shows Lines 98's preview: every move that leaves
    /// the spots free lands the balls on the same cells. The rule of every new game.
    #[default]
    AtAnnouncement,
}

impl SpawnRule {
    /// [`SpawnRule::AtLanding`]: what a record that names no rule was played with.
    #[must_use]
    pub const fn legacy() -> SpawnRule {
        SpawnRule::AtLanding
    }
}

/// The numbers of balls a game may start with ([`Settings::start_balls`]).
pub const START_BALLS: [u8; 2] = [3, 5];

/// The settings of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Settings {
    /// Balls on the board at the start: 3 or 5.
    pub start_balls: u8,
    /// How far undo goes.
    pub undo: UndoRule,
    /// Lines 98's preview: the cells where the announced balls will land are shown
    /// ([`LinesGame::next_spots`]); off by default (the classic game, whose spots are
    /// hidden). A game with the preview always draws its spots at announcement.
    #[serde(default)]
    pub preview: bool,
    /// When a ball's cell is drawn ([`SpawnRule`]): at announcement in every new game
    /// ([`Settings::new`], [`Settings::default`]); at landing in a game saved before the
    /// rule existed (a record, or serde data, without it).
    #[serde(default = "SpawnRule::legacy")]
    pub spawn: SpawnRule,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            start_balls: 5,
            undo: UndoRule::LastTurn,
            preview: false,
            spawn: SpawnRule::AtAnnouncement,
        }
    }
}

/// Why settings were refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    /// A start other than 3 or 5 balls.
    #[error("a game starts with 3 or 5 balls, not {0}")]
    StartBalls(u8),
}

impl Settings {
    /// Checked settings, without the preview ([`Settings::with_preview`] adds it), with
    /// the spots drawn at announcement ([`SpawnRule::AtAnnouncement`]).
    pub fn new(start_balls: u8, undo: UndoRule) -> Result<Settings, SettingsError> {
        if !START_BALLS.contains(&start_balls) {
            return Err(SettingsError::StartBalls(start_balls));
        }
        Ok(Settings {
            start_balls,
            undo,
            preview: false,
            spawn: SpawnRule::AtAnnouncement,
        })
    }

    /// The settings a game plays: a start other than 3 or 5 balls is 5 (the default), and
    /// a game with the preview draws its spots at announcement.
    pub(crate) const fn playable(self) -> Settings {
        let start_balls = if self.start_balls == 3 { 3 } else { 5 };
        Settings {
            start_balls,
            ..self
        }
        .playable_spawn()
    }

    /// The same settings with Lines 98's preview on or off ([`Settings::preview`]); on,
    /// the spots are drawn at announcement ([`SpawnRule::AtAnnouncement`]).
    ///
    /// ```
    /// use banco_lines::{Settings, UndoRule};
    /// let s = Settings::new(5, UndoRule::LastTurn)?.with_preview(true);
    /// assert!(s.preview && s.start_balls == 5);
    /// assert!(!Settings::default().preview);
    /// # Ok::<(), banco_lines::SettingsError>(())
    /// ```
    #[must_use]
    pub const fn with_preview(self, preview: bool) -> Settings {
        Settings { preview, ..self }.playable_spawn()
    }

    /// The same settings with the spawn rule `spawn` (the preview keeps
    /// [`SpawnRule::AtAnnouncement`]).
    ///
    /// ```
    /// use banco_lines::{Settings, SpawnRule};
    /// let old = Settings::default().with_spawn(SpawnRule::AtLanding);
    /// assert_eq!(old.spawn, SpawnRule::AtLanding);
    /// assert_eq!(Settings::default().spawn, SpawnRule::AtAnnouncement);
    /// assert_eq!(old.with_preview(true).spawn, SpawnRule::AtAnnouncement);
    /// ```
    #[must_use]
    pub const fn with_spawn(self, spawn: SpawnRule) -> Settings {
        Settings { spawn, ..self }.playable_spawn()
    }

    /// These settings with the spawn rule the preview imposes.
    const fn playable_spawn(self) -> Settings {
        if self.preview {
            Settings {
                spawn: SpawnRule::AtAnnouncement,
                ..self
            }
        } else {
            self
        }
    }

    /// True when the announced balls' spots are drawn at announcement (the preview shows
    /// them; [`SpawnRule::AtAnnouncement`] keeps them hidden).
    #[must_use]
    pub const fn draws_spots(self) -> bool {
        self.preview || matches!(self.spawn, SpawnRule::AtAnnouncement)
    }
}

/// A move: the ball on `from` goes to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    /// The ball's cell.
    pub from: Cell,
    /// The empty destination.
    pub to: Cell,
}

impl Move {
    /// The wire code: `from × 81 + to` (below 6561).
    #[must_use]
    pub fn encode(self) -> u16 {
        (self.from.index() * crate::board::CELLS + self.to.index()) as u16
    }

    /// The move of a wire code; syntax only, legality is checked when it is played.
    pub fn decode(code: u16) -> Result<Move, CellError> {
        let c = code as usize;
        Ok(Move {
            from: Cell::from_index(c / crate::board::CELLS)?,
            to: Cell::from_index(c % crate::board::CELLS)?,
        })
    }
}

impl core::fmt::Display for Move {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} {}", self.from, self.to)
    }
}

/// Why a move was refused; a refused move changes nothing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// A cell index off the board.
    #[error("cell {0} is off the board (cells are 0 to 80, a1 to i9)")]
    OutOfRange(usize),
    /// No ball on the start cell.
    #[error("there is no ball on {0}: pick a ball to move")]
    EmptySource(Cell),
    /// The destination already holds a ball.
    #[error("{0} already holds a ball: move to an empty cell")]
    Occupied(Cell),
    /// Balls wall the destination off.
    #[error("no free path from {from} to {to}: balls block the way")]
    NoPath {
        /// The ball's cell.
        from: Cell,
        /// The destination.
        to: Cell,
    },
    /// The board is full.
    #[error("the game is over: the board is full")]
    GameOver,
    /// The game was played against the clock and its time is up (a front end's rule:
    /// the game itself never ends on time).
    #[error("the game is over: the time is up")]
    TimeUp,
}

/// Why a turn cannot be taken back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UndoError {
    /// The settings forbid undo.
    #[error("undo is off in this game's settings")]
    Disabled,
    /// No turn to take back: the game's start (or a game loaded as it stood).
    #[error("there is no turn to take back")]
    Nothing,
    /// Only the last turn can be taken back ([`UndoRule::LastTurn`]), and it was.
    #[error("only the last turn can be taken back, and it was: play on")]
    Spent,
    /// The game's time is up: it ended where it stood.
    #[error("the time is up: the game ended where it stood")]
    TimeUp,
}

/// Everything that changes in a turn: saved before each turn for undo.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct State {
    /// The balls.
    pub board: Board,
    /// Points so far.
    pub score: u32,
    /// Balls drawn from the spawner so far (the announced ones are the next three).
    pub drawn: u64,
    /// Turns played.
    pub turns: u32,
    /// Where each announced ball will land, in order, when the game draws its spots at
    /// announcement ([`Settings::draws_spots`]; `None` past the free cells there were, and
    /// always under [`SpawnRule::AtLanding`]). Hidden unless the game shows the preview:
    /// what a player may see is [`LinesGame::next_spots`].
    #[serde(default)]
    pub spots: [Option<Cell>; NEXT],
    /// The cells the announced balls' spots were drawn among: the free cells when they
    /// were announced (empty when the game draws each landing after the move). Public
    /// knowledge, unlike the spots: see [`LinesGame::spot_cells`].
    #[serde(default, with = "cell_bits")]
    pub spot_cells: CellSet,
}

/// [`State::spot_cells`] as its 81 bits.
mod cell_bits {
    use crate::board::CellSet;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub(super) fn serialize<S: Serializer>(set: &CellSet, s: S) -> Result<S::Ok, S::Error> {
        set.0.serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<CellSet, D::Error> {
        u128::deserialize(d).map(|bits| CellSet(bits & ((1u128 << crate::board::CELLS) - 1)))
    }
}

/// What one turn did, in order: the ball's path, the lines it completed, or else the balls
/// that landed and the lines they completed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnReport {
    /// The path the ball took, start and destination included (for the animation).
    pub path: Path,
    /// The balls the move removed (lines through the destination).
    pub cleared: CellSet,
    /// The balls that landed after the move, in order, with their colours.
    pub landed: Vec<(Cell, Ball)>,
    /// The balls removed by lines the landing completed, less any cell a later ball of
    /// the turn landed on again (when those lines emptied the board, the next balls land at
    /// once): the cells to empty after showing [`TurnReport::landed`]. [`TurnReport::points`]
    /// counts every ball removed.
    pub cleared_by_landing: CellSet,
    /// Points this turn.
    pub points: u32,
    /// True if the board is now full.
    pub game_over: bool,
}

/// One game of Lines (see the module docs). Read back through serde, it is rebuilt from
/// its seed and moves and checked ([`data`]): altered data gives a [`GameDataError`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "data::GameData")]
pub struct LinesGame {
    settings: Settings,
    spawner: Spawner,
    start: State,
    state: State,
    /// The states before each turn that undo may restore, oldest first.
    undo_stack: Vec<State>,
    /// Every move played (taken-back ones removed), for saving.
    moves: Vec<Move>,
    /// The moves taken back since the last move played, the next to redo last (saved, so
    /// that a game whose one undo was spent loads without it).
    #[serde(default)]
    taken_back: Vec<Move>,
}

impl LinesGame {
    /// A new game: the first `start_balls` balls of `seed` land on the empty board and three
    /// colours are announced. Settings built field by field with a start other than 3 or
    /// 5 balls (which [`Settings::new`] refuses) start with 5, and the game's
    /// [`settings`](LinesGame::settings) say 5: what the game keeps, and saves, is what it
    /// played.
    ///
    /// ```
    /// use banco_lines::{LinesGame, Settings};
    /// let odd = Settings { start_balls: 4, ..Settings::default() };
    /// let game = LinesGame::new(odd, [7; 32]);
    /// assert_eq!(game.settings().start_balls, 5);
    /// assert_eq!(game.board().ball_count(), 5);
    /// ```
    #[must_use]
    pub fn new(settings: Settings, seed: [u8; 32]) -> LinesGame {
        let settings = settings.playable();
        let spawner = Spawner::new(seed);
        let mut state = State {
            board: Board::empty(),
            score: 0,
            drawn: 0,
            turns: 0,
            spots: [None; NEXT],
            spot_cells: CellSet::EMPTY,
        };
        land(
            &spawner,
            &mut state,
            usize::from(settings.start_balls),
            settings.draws_spots(),
        );
        LinesGame::from_start(settings, spawner, state)
    }

    /// A game set up on `board` (tests, puzzles): score 0, the seed's first balls
    /// announced. The common save format stores games started with [`LinesGame::new`].
    #[must_use]
    pub fn with_board(settings: Settings, seed: [u8; 32], board: Board) -> LinesGame {
        let settings = settings.playable();
        let spawner = Spawner::new(seed);
        let mut state = State {
            board,
            score: 0,
            drawn: 0,
            turns: 0,
            spots: [None; NEXT],
            spot_cells: CellSet::EMPTY,
        };
        if settings.draws_spots() {
            announce(&spawner, &mut state);
        }
        LinesGame::from_start(settings, spawner, state)
    }

    /// A game about to start from `start` (no move played, nothing to undo).
    const fn from_start(settings: Settings, spawner: Spawner, start: State) -> LinesGame {
        LinesGame {
            settings,
            spawner,
            start,
            state: start,
            undo_stack: Vec::new(),
            moves: Vec::new(),
            taken_back: Vec::new(),
        }
    }

    /// A game replayed from its settings, seed and moves; the first refused move is
    /// reported with its 1-based number.
    pub fn replay(
        settings: Settings,
        seed: [u8; 32],
        moves: &[Move],
    ) -> Result<LinesGame, (usize, MoveError)> {
        LinesGame::new(settings, seed).resumed(moves, &[])
    }

    /// A game replayed from its settings, seed and moves, with the turns that were taken
    /// back after them (the next to redo last), as [`LinesGame::taken_back`] gives them:
    /// each must be playable again in turn. With [`UndoRule::LastTurn`], turns taken back
    /// mean the one undo was spent, so the game resumes without it. The first refused move
    /// is reported with its 1-based number, the taken-back ones counted after `moves`.
    pub fn resume(
        settings: Settings,
        seed: [u8; 32],
        moves: &[Move],
        taken_back: &[Move],
    ) -> Result<LinesGame, (usize, MoveError)> {
        LinesGame::new(settings, seed).resumed(moves, taken_back)
    }

    /// This game, not yet played, with `moves` played and the turns `taken_back` after
    /// them (see [`LinesGame::resume`]).
    fn resumed(
        mut self,
        moves: &[Move],
        taken_back: &[Move],
    ) -> Result<LinesGame, (usize, MoveError)> {
        for (i, mv) in moves.iter().enumerate() {
            self.play_move(mv.from, mv.to).map_err(|e| (i + 1, e))?;
        }
        let mut check = self.clone();
        for (i, mv) in taken_back.iter().rev().enumerate() {
            check
                .play_move(mv.from, mv.to)
                .map_err(|e| (moves.len() + i + 1, e))?;
        }
        self.taken_back = taken_back.to_vec();
        if self.settings.undo == UndoRule::LastTurn && !taken_back.is_empty() {
            self.forgo_undo();
        }
        Ok(self)
    }

    /// The settings.
    #[must_use]
    pub const fn settings(&self) -> Settings {
        self.settings
    }

    /// The seed of the spawns.
    #[must_use]
    pub const fn seed(&self) -> [u8; 32] {
        self.spawner.seed()
    }

    /// The board.
    #[must_use]
    pub const fn board(&self) -> &Board {
        &self.state.board
    }

    /// The current state (board, score, balls drawn, turns).
    #[must_use]
    pub const fn state(&self) -> &State {
        &self.state
    }

    /// The three announced colours, in the order they will land.
    #[must_use]
    pub fn next_colors(&self) -> [Ball; NEXT] {
        let d = self.state.drawn;
        [
            self.spawner.color(d),
            self.spawner.color(d + 1),
            self.spawner.color(d + 2),
        ]
    }

    /// The cells among which the announced balls' spots were drawn: the free cells when
    /// they were announced (after the last landing). Public knowledge, unlike the spots
    /// themselves — a player who watched the game knows the board then — and what tells
    /// the landing's odds: a ball lands on one of these cells, or, when a move has put a
    /// ball on its spot, on any free cell. So the cell a move leaves, or a line it
    /// clears, takes no ball this turn unless a spot was taken. Empty when the game
    /// draws each landing among the free cells after the move
    /// ([`SpawnRule::AtLanding`]).
    ///
    /// ```
    /// use banco_lines::{LinesGame, Settings};
    /// let game = LinesGame::new(Settings::default(), [3; 32]);
    /// assert_eq!(game.spot_cells(), game.board().empties());
    /// # let mut game = game;
    /// let (from, to) = game.any_move().expect("a move");
    /// let report = game.play_move(from, to)?;
    /// if report.cleared.is_empty() {
    ///     // The balls landed, three more were announced among the free cells now.
    ///     assert_eq!(game.spot_cells(), game.board().empties());
    /// } else {
    ///     // A line: the same balls are still announced, on spots drawn before the move.
    ///     assert!(game.spot_cells().contains(to));
    ///     assert!(!game.spot_cells().contains(from));
    /// }
    /// # Ok::<(), banco_lines::MoveError>(())
    /// ```
    #[must_use]
    pub const fn spot_cells(&self) -> CellSet {
        self.state.spot_cells
    }

    /// With the preview ([`Settings::preview`]): the cells where the announced balls will
    /// land, in the order of [`LinesGame::next_colors`] (fewer than three only when the
    /// board has fewer free cells; a ball whose cell the next move takes lands on a random
    /// free cell instead). Empty without the preview, even when the game has drawn them
    /// ([`SpawnRule::AtAnnouncement`]: they are hidden).
    ///
    /// ```
    /// use banco_lines::{LinesGame, Settings};
    /// let mut game = LinesGame::new(Settings::default().with_preview(true), [3; 32]);
    /// let spots = game.next_spots();
    /// assert_eq!(spots.len(), 3);
    /// // A move onto none of the spots: the balls land there.
    /// let (from, to) = game.any_move().expect("a move");
    /// let to = game.reachable(from).iter().find(|c| !spots.contains(c)).unwrap_or(to);
    /// let report = game.play_move(from, to)?;
    /// if report.cleared.is_empty() {
    ///     let landed: Vec<_> = report.landed.iter().map(|&(c, _)| c).collect();
    ///     assert_eq!(landed, spots);
    /// }
    /// assert!(LinesGame::new(Settings::default(), [3; 32]).next_spots().is_empty());
    /// # Ok::<(), banco_lines::MoveError>(())
    /// ```
    #[must_use]
    pub fn next_spots(&self) -> Vec<Cell> {
        if !self.settings.preview {
            return Vec::new();
        }
        self.state.spots.iter().map_while(|&s| s).collect()
    }

    /// The moves played, oldest first.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The turns taken back since the last move played, the next to redo last.
    #[must_use]
    pub fn taken_back(&self) -> &[Move] {
        &self.taken_back
    }

    /// The cells the ball on `from` can reach (empty if `from` holds no ball).
    #[must_use]
    pub fn reachable(&self, from: Cell) -> CellSet {
        if self.state.board.is_empty_cell(from) {
            CellSet::EMPTY
        } else {
            reachable(&self.state.board, from)
        }
    }

    /// Some legal move (the lowest ball that can move, to its lowest reachable cell), or
    /// `None` when the game is over.
    #[must_use]
    pub fn any_move(&self) -> Option<(Cell, Cell)> {
        if self.is_over() {
            return None;
        }
        Cell::all()
            .filter(|&c| !self.state.board.is_empty_cell(c))
            .find_map(|c| self.reachable(c).iter().next().map(|t| (c, t)))
    }

    /// Checks a move without playing it and returns the path the ball would take.
    pub fn check_move(&self, from: Cell, to: Cell) -> Result<Path, MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        if self.state.board.is_empty_cell(from) {
            return Err(MoveError::EmptySource(from));
        }
        if !self.state.board.is_empty_cell(to) {
            return Err(MoveError::Occupied(to));
        }
        shortest_path(&self.state.board, from, to).ok_or(MoveError::NoPath { from, to })
    }

    /// Plays a move given as cell indices (0–80), as from a tap or the wire.
    pub fn play_indices(&mut self, from: usize, to: usize) -> Result<TurnReport, MoveError> {
        let f = Cell::from_index(from).map_err(|_| MoveError::OutOfRange(from))?;
        let t = Cell::from_index(to).map_err(|_| MoveError::OutOfRange(to))?;
        self.play_move(f, t)
    }

    /// Plays one turn (see the module docs).
    pub fn play_move(&mut self, from: Cell, to: Cell) -> Result<TurnReport, MoveError> {
        let path = self.check_move(from, to)?;
        let before = self.state;
        let st = &mut self.state;
        let ball = st.board.get(from);
        st.board.set(from, None);
        st.board.set(to, ball);
        st.turns += 1;
        let cleared = lines_through(&st.board, to);
        st.board.clear(cleared);
        let mut pts = points(cleared.len());
        st.score += pts;
        let mut landed = Vec::new();
        let mut cleared_by_landing = CellSet::EMPTY;
        if cleared.is_empty() || st.board.ball_count() == 0 {
            let (l, c, p) = land(&self.spawner, st, NEXT, self.settings.draws_spots());
            landed = l;
            cleared_by_landing = c;
            pts += p;
        }
        match self.settings.undo {
            UndoRule::Off => {}
            UndoRule::LastTurn => {
                self.undo_stack.clear();
                self.undo_stack.push(before);
            }
            UndoRule::Unlimited => self.undo_stack.push(before),
        }
        self.moves.push(Move { from, to });
        self.taken_back.clear();
        Ok(TurnReport {
            path,
            cleared,
            landed,
            cleared_by_landing,
            points: pts,
            game_over: self.state.board.is_full(),
        })
    }

    /// Takes the last turn back, with a reason when it cannot.
    pub fn try_undo(&mut self) -> Result<(), UndoError> {
        if self.settings.undo == UndoRule::Off {
            return Err(UndoError::Disabled);
        }
        let Some(prev) = self.undo_stack.pop() else {
            let spent = self.settings.undo == UndoRule::LastTurn && !self.taken_back.is_empty();
            return Err(if spent {
                UndoError::Spent
            } else {
                UndoError::Nothing
            });
        };
        self.state = prev;
        if let Some(mv) = self.moves.pop() {
            self.taken_back.push(mv);
        }
        Ok(())
    }

    /// Plays the last turn taken back again (the same balls land as the first time): its
    /// report, or `None` if no turn was taken back since the last move played.
    pub fn redo(&mut self) -> Option<TurnReport> {
        let mv = self.taken_back.pop()?;
        let rest = core::mem::take(&mut self.taken_back);
        let report = self.play_move(mv.from, mv.to);
        self.taken_back = rest;
        if report.is_err() {
            // Not reachable: the state is the one the move was played from.
            self.taken_back.push(mv);
        }
        report.ok()
    }

    /// Gives up every undo the game still has (a finished game loaded, or the one undo of
    /// [`UndoRule::LastTurn`] already spent before the game was saved).
    pub fn forgo_undo(&mut self) {
        self.undo_stack.clear();
    }

    /// The state the game started from.
    #[must_use]
    pub const fn start_state(&self) -> &State {
        &self.start
    }
}

/// Lands up to `count` announced balls on `state` (see [`crate::spawn`]), then removes and
/// scores the lines they complete. A landing that leaves the board empty (its balls
/// completed a line with every ball there was) is followed by the next announced balls at
/// once, as a move that empties the board is: the game always has a ball to move. With
/// `spots_drawn` (the game draws the spots at announcement, [`Settings::draws_spots`]), each ball
/// lands as [`preview_cell`] says and the next balls' spots are drawn after each landing
/// ([`announce`]); without, each lands on the free cell its landing draw picks now. Returns the balls landed, the cells cleared
/// (less those a later landing filled again) and the points.
fn land(
    spawner: &Spawner,
    state: &mut State,
    count: usize,
    spots_drawn: bool,
) -> (Vec<(Cell, Ball)>, CellSet, u32) {
    let mut landed = Vec::with_capacity(count);
    let mut cleared = CellSet::EMPTY;
    let mut points_won = 0;
    let mut count = count;
    loop {
        let first = landed.len();
        let spots = core::mem::take(&mut state.spots);
        for k in 0..count {
            let n = state.drawn;
            state.drawn += 1;
            let empties = state.board.empty_count();
            if empties == 0 {
                continue;
            }
            let cell = if spots_drawn {
                preview_cell(spawner, &state.board, n, k, &spots)
            } else {
                state.board.nth_empty(spawner.landing(n, empties))
            };
            let Some(cell) = cell else {
                continue;
            };
            let ball = spawner.color(n);
            state.board.set(cell, Some(ball));
            landed.push((cell, ball));
        }
        let mut now_cleared = CellSet::EMPTY;
        for &(c, _) in landed.get(first..).unwrap_or_default() {
            now_cleared.0 |= lines_through(&state.board, c).0;
        }
        state.board.clear(now_cleared);
        let p = points(now_cleared.len());
        state.score += p;
        points_won += p;
        cleared.0 |= now_cleared.0;
        if spots_drawn {
            announce(spawner, state);
        }
        if state.board.ball_count() > 0 || landed.len() == first {
            break;
        }
        count = NEXT;
    }
    // A cell cleared and then landed on again holds a ball: it is not reported cleared.
    cleared.0 &= state.board.empties().0;
    (landed, cleared, points_won)
}

/// Where ball `n`, the `k`-th of a landing, lands when the spots were drawn at
/// announcement (shown with the preview, hidden without): on its spot if the
/// spot is free; otherwise (the move took it, or it has none) on a random free cell other
/// than the later balls' spots when there is one, drawn from ball `n`'s stream — its third
/// draw if it had a spot (the second drew the spot), its second if it had none (the start
/// balls, which land as in the classic game).
fn preview_cell(
    spawner: &Spawner,
    board: &Board,
    n: u64,
    k: usize,
    spots: &[Option<Cell>; NEXT],
) -> Option<Cell> {
    let spot = spots.get(k).copied().flatten();
    if let Some(s) = spot
        && board.is_empty_cell(s)
    {
        return Some(s);
    }
    let mut free = board.empties();
    let mut open = free;
    for s in spots.iter().skip(k + 1).flatten() {
        open.0 &= !(1u128 << s.index());
    }
    if !open.is_empty() {
        free = open;
    }
    let i = match spot {
        Some(_) => spawner.relanding(n, free.len()),
        None => spawner.landing(n, free.len()),
    };
    free.iter().nth(i)
}

/// Draws the spots of the three balls announced next (`state.drawn` onwards): ball
/// `n`'s landing draw picks among the free cells not yet picked, as a classic landing
/// picks among the free cells (none once no free cell is left).
fn announce(spawner: &Spawner, state: &mut State) {
    let mut free = state.board.empties();
    state.spot_cells = free;
    let drawn = state.drawn;
    state.spots = core::array::from_fn(|k| {
        let n = drawn + k as u64;
        let cell = free.iter().nth(spawner.landing(n, free.len()))?;
        free.0 &= !(1u128 << cell.index());
        Some(cell)
    });
}

impl ScoreGame for LinesGame {
    type Move = Move;
    type Report = TurnReport;
    type PlayError = MoveError;

    fn kind(&self) -> GameKind {
        GameKind::Lines
    }

    fn score(&self) -> u32 {
        self.state.score
    }

    fn turns(&self) -> u32 {
        self.state.turns
    }

    fn is_over(&self) -> bool {
        self.state.board.is_full()
    }

    fn play(&mut self, mv: Move) -> Result<TurnReport, MoveError> {
        self.play_move(mv.from, mv.to)
    }

    fn can_undo(&self) -> bool {
        self.settings.undo != UndoRule::Off && !self.undo_stack.is_empty()
    }

    fn undo(&mut self) -> bool {
        self.try_undo().is_ok()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;
    use crate::board::CELLS;

    /// Four balls of the first announced colour on a board, placed so that the first
    /// landing completes their line of five: found by trying every window of five.
    fn four_waiting_for_the_first_ball(spawner: &Spawner) -> Board {
        let colour = spawner.color(0);
        let at = spawner.landing(0, CELLS - 4);
        for (df, dr) in [(1isize, 0isize), (0, 1), (1, 1), (1, -1)] {
            for start in 0..CELLS {
                let cells: Option<Vec<Cell>> = (0..5)
                    .map(|k| {
                        let f = usize::try_from((start % 9) as isize + k * df).ok()?;
                        let r = usize::try_from((start / 9) as isize + k * dr).ok()?;
                        Cell::new(f, r)
                    })
                    .collect();
                let Some(cells) = cells else { continue };
                for missing in 0..5 {
                    let mut board = Board::empty();
                    for (k, &c) in cells.iter().enumerate() {
                        if k != missing {
                            board.set(c, Some(colour));
                        }
                    }
                    if board.nth_empty(at) == Some(cells[missing]) {
                        return board;
                    }
                }
            }
        }
        panic!("no window of five takes the first landing");
    }

    #[test]
    fn a_landing_that_empties_the_board_brings_the_next_balls() {
        for seed in 0..20u8 {
            let spawner = Spawner::new([seed; 32]);
            let mut state = State {
                board: four_waiting_for_the_first_ball(&spawner),
                score: 0,
                drawn: 0,
                turns: 0,
                spots: [None; NEXT],
                spot_cells: CellSet::EMPTY,
            };
            let (landed, cleared, points_won) = land(&spawner, &mut state, 1, false);
            // The first ball made five and emptied the board; the next three came at once.
            assert_eq!(landed.len(), 1 + NEXT, "seed {seed}");
            assert_eq!(state.drawn, 1 + NEXT as u64);
            assert!(state.board.ball_count() > 0, "seed {seed}");
            assert!(points_won >= points(5) && state.score == points_won);
            // What is reported cleared is empty now, and every ball on the board landed.
            assert_eq!(cleared.0 & !state.board.empties().0, 0);
            for c in (0..CELLS).filter_map(|i| Cell::from_index(i).ok()) {
                if !state.board.is_empty_cell(c) {
                    assert!(landed.iter().any(|&(l, _)| l == c), "seed {seed}");
                }
            }
        }
    }
}
