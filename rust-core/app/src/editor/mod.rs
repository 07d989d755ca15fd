//! The position editor (cờ thế set-up), once for every board game: start from an empty
//! board, the start position or a game's current position; place and remove pieces of the
//! game's palette; choose the side to move (and for chess the castling rights and the
//! en-passant square); turn the board. The board may be illegal while it is edited:
//! [`Editor::problems`] lists every problem live (xiangqi: `banco_xiangqi::Setup`'s
//! problems; chess: `banco_chess::setup::ChessSetup`'s; jieqi: [`JieqiProblem`]), and the
//! position can be played ([`Editor::vs_computer`], [`Editor::proposal`] for a friend) or
//! solved ([`Editor::solve`], not jieqi) only once it has none.
//!
//! Jieqi (揭棋) adds face-down pieces ([`Editor::place_face_down`], the palette's
//! [`Brush::FaceDown`]) and the pools of unrevealed pieces, which the editor derives: see
//! [`jieqi`] for the rule (a side's pool is its fifteen pieces less those face up on the
//! board and those marked captured face up with [`Editor::set_captured`]).
//!
//! A new game needs only its arm in the few `match`es on [`GameKind`] below (its setup
//! type and FEN) and its palette in [`crate::pieces`].
//!
//! ```
//! use banco_app::editor::Editor;
//! use banco_app::pieces::PieceKind;
//! use banco_game::{Color, GameKind};
//! let mut ed = Editor::empty(GameKind::Xiangqi)?;
//! ed.place(4, Color::Red, PieceKind::King)?;               // e0
//! assert_eq!(ed.problems().len(), 1);                        // Black has no king
//! ed.place(3 + 9 * 9, Color::Black, PieceKind::King)?;     // d9
//! ed.place(4 + 9, Color::Red, PieceKind::Rook)?;           // e1
//! assert!(ed.problems().is_empty());
//! assert_eq!(ed.fen(), "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1");
//! let solved = ed.solve(3)?;
//! assert_eq!(solved.mate, Some(1));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A jieqi position: kings face up, face-down pieces on their home squares, a revealed
//! rook; the pools follow.
//!
//! ```
//! use banco_app::editor::Editor;
//! use banco_app::pieces::PieceKind;
//! use banco_game::{Color, GameKind};
//! let mut ed = Editor::empty(GameKind::Jieqi)?;
//! let sq = |name: &str| ed.square_named(name).ok_or("no such square");
//! let (d0, e9, a0, b7, c4, e5) = (sq("d0")?, sq("e9")?, sq("a0")?, sq("b7")?, sq("c4")?, sq("e5")?);
//! ed.place(d0, Color::Red, PieceKind::King)?;
//! ed.place(e9, Color::Black, PieceKind::King)?;
//! ed.place_face_down(a0, Color::Red)?;        // moves as a rook (its home square's)
//! ed.place_face_down(b7, Color::Black)?;      // moves as a cannon
//! ed.place(c4, Color::Red, PieceKind::Rook)?; // revealed: a red rook is out of the pool
//! assert!(ed.problems().is_empty());
//! assert_eq!(
//!     ed.fen(),
//!     "4k4/9/1x7/9/9/2R6/9/9/9/X2K5 w R1A2C2P5N2B2r2a2c2p5n2b2 0 1"
//! );
//! ed.place_face_down(e5, Color::Red)?;       // e5 is no home square
//! assert_eq!(ed.problems()[0].text, "the face-down piece on e5 is not on a home square of red \
//!     (a face-down piece stands only where its side's pieces start, the king's square excepted)");
//! assert!(ed.solve(3).is_err());              // no mate solver for jieqi
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod jieqi;

pub use jieqi::{CapturedCount, JieqiProblem};

use crate::any::{AnyGame, AnyRules};
use crate::computer::{Settings, VsComputer};
use crate::jieqi::PoolView;
use crate::mate::{self, MateSearch};
use crate::pieces::{PieceInfo, PieceKind, piece_info, piece_kinds};
use banco_chess::setup::{ChessProblem, ChessSetup};
use banco_game::{Color, Game, GameKind, MatchGame};
use banco_xiangqi::{self as x, Problem, Setup};
use std::sync::atomic::AtomicBool;

/// Why an editing action was refused (the board is unchanged).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EditorError {
    /// The game has no position editor.
    #[error("{0} has no position editor")]
    Unsupported(&'static str),
    /// A square index off the board.
    #[error("square {0} is not on the board")]
    OffBoard(u8),
    /// A piece the game does not have.
    #[error("{game} has no {piece}")]
    NotInPalette {
        /// The game's name.
        game: &'static str,
        /// The piece's name.
        piece: &'static str,
    },
    /// A FEN that cannot be read at all.
    #[error("{0}")]
    Fen(String),
    /// The position has problems (all listed).
    #[error("the position is not legal: {}", .0.join("; "))]
    Illegal(Vec<String>),
    /// Setting up the game or the computer failed.
    #[error("{0}")]
    Setup(String),
    /// The game has no mate solver.
    #[error("{0} has no mate solver: no mate can be proven through pieces still face down")]
    NoSolver(&'static str),
    /// Captured pieces are counted only in jieqi (for its pools).
    #[error("{0} has no pools of face-down pieces: captured pieces are counted only in jieqi")]
    NoPools(&'static str),
    /// A king marked captured (the game ends before a king can be taken).
    #[error("a king is never captured: the game ends with a mate before")]
    KingCaptured,
    /// More captured pieces of a kind than a side has.
    #[error("a side has {max} {piece}s: {count} cannot have been captured")]
    CapturedCount {
        /// The piece's name.
        piece: &'static str,
        /// The count asked for.
        count: u8,
        /// The most there can be.
        max: u8,
    },
}

/// What a tap places, or what stands on a square: a piece of the palette.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Brush {
    /// A piece face up (every piece in xiangqi and chess).
    Piece(Color, PieceKind),
    /// A face-down jieqi piece of this colour: it moves as the piece of its home square.
    FaceDown(Color),
}

impl Brush {
    /// The brush of a palette piece ([`PieceInfo::face_down`] gives a face-down brush).
    #[must_use]
    pub fn of(piece: &PieceInfo) -> Brush {
        if piece.face_down {
            Brush::FaceDown(piece.color)
        } else {
            Brush::Piece(piece.color, piece.kind)
        }
    }

    /// Its side.
    #[must_use]
    pub fn color(self) -> Color {
        match self {
            Brush::Piece(c, _) | Brush::FaceDown(c) => c,
        }
    }
}

impl From<(Color, PieceKind)> for Brush {
    fn from((color, kind): (Color, PieceKind)) -> Brush {
        Brush::Piece(color, kind)
    }
}

/// One problem of the edited position, with the square it is about (to highlight).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditorProblem {
    /// What is wrong, in words.
    pub text: String,
    /// The square it is about, if one.
    pub square: Option<u8>,
}

/// A cell of the editor's board as the screen shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditorCell {
    /// Screen column, 0 at the left.
    pub column: u8,
    /// Screen row, 0 at the top.
    pub row: u8,
    /// The square index (rank × width + file).
    pub square: u8,
    /// The square's name (`e2`).
    pub name: String,
    /// The piece on it.
    pub piece: Option<PieceInfo>,
    /// A problem is about this square.
    pub problem: bool,
    /// A dark square of a checkered board (chess).
    pub dark: bool,
}

/// Everything an editor screen shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditorView {
    /// The game.
    pub kind: GameKind,
    /// Columns on screen.
    pub width: u8,
    /// Rows on screen.
    pub height: u8,
    /// True when the second player's side is at the bottom.
    pub flipped: bool,
    /// Cells row by row from the top left.
    pub cells: Vec<EditorCell>,
    /// The pieces to place, the first player's first.
    pub palette: Vec<PieceInfo>,
    /// The side to move.
    pub side_to_move: Color,
    /// Chess castling rights `[colour][0 king side, 1 queen side]` (all false in xiangqi).
    pub castling: [[bool; 2]; 2],
    /// Chess en-passant square.
    pub en_passant: Option<u8>,
    /// Every problem; empty when the position can be played.
    pub problems: Vec<EditorProblem>,
    /// The position as FEN (also while illegal).
    pub fen: String,
    /// Jieqi: the two pools of unrevealed pieces, the first player's first, as the editor
    /// derives them (see [`jieqi`]); empty in other games.
    pub pools: Vec<PoolView>,
    /// Jieqi: the pieces marked captured face up, by side and kind
    /// ([`Editor::captured_counts`]); empty in other games.
    pub captured: Vec<CapturedCount>,
}

/// What a tap on the editor's board did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditTap {
    /// Off the board.
    Ignored,
    /// The piece was placed (replacing whatever stood there).
    Placed(u8),
    /// The piece on the square was removed.
    Removed(u8),
}

/// A match against a friend from the edited position: what
/// [`NetMatch::propose`](crate::network::NetMatch::propose) takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proposal {
    /// The game.
    pub game: GameKind,
    /// The proposer's colour.
    pub your_color: Color,
    /// Rules index (0 the usual rules).
    pub rules: u8,
    /// The start position.
    pub start_fen: String,
}

/// The position editor (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Editor {
    kind: GameKind,
    width: u8,
    height: u8,
    cells: Vec<Option<Brush>>,
    side: Color,
    /// Jieqi: pieces captured face up, `[colour][xiangqi kind]` (see [`jieqi`]).
    captured: [[u8; 7]; 2],
    castling: [[bool; 2]; 2],
    en_passant: Option<u8>,
    /// The FEN's move counters: plies since the last capture (or pawn move in chess), kept
    /// as read until an edit sets it to 0, and the full-move number, kept as read.
    halfmoves: u16,
    fullmoves: u16,
    flipped: bool,
}

/// The games the editor sets up (xiangqi, chess and jieqi), in the order of
/// [`AnyGame::kinds`](banco_game::MatchGame::kinds): a screen's list of them.
///
/// ```
/// use banco_game::GameKind;
/// assert_eq!(
///     banco_app::editor::games(),
///     [GameKind::Xiangqi, GameKind::Chess, GameKind::Jieqi]
/// );
/// ```
#[must_use]
pub fn games() -> Vec<GameKind> {
    AnyGame::kinds()
        .iter()
        .copied()
        .filter(|&k| shape(k).is_ok())
        .collect()
}

fn shape(kind: GameKind) -> Result<(u8, u8), EditorError> {
    match kind {
        GameKind::Xiangqi | GameKind::Jieqi => Ok((9, 10)),
        GameKind::Chess => Ok((8, 8)),
        other @ GameKind::Lines => Err(EditorError::Unsupported(other.name())),
    }
}

impl Editor {
    /// An empty board of `kind`, the first player to move.
    pub fn empty(kind: GameKind) -> Result<Editor, EditorError> {
        let (width, height) = shape(kind)?;
        Ok(Editor {
            kind,
            width,
            height,
            cells: vec![None; usize::from(width) * usize::from(height)],
            side: Color::Red,
            captured: [[0; 7]; 2],
            castling: [[false; 2]; 2],
            en_passant: None,
            halfmoves: 0,
            fullmoves: 1,
            flipped: false,
        })
    }

    /// The start position of `kind`.
    pub fn start(kind: GameKind) -> Result<Editor, EditorError> {
        let fen = AnyGame::new(kind)
            .map_err(|e| EditorError::Setup(e.to_string()))?
            .fen();
        Editor::from_fen(kind, &fen)
    }

    /// The current position of a game.
    pub fn from_game(game: &AnyGame) -> Result<Editor, EditorError> {
        Editor::from_fen(game.kind(), &game.fen())
    }

    /// Any board a FEN describes, legal or not (only its syntax must be right).
    pub fn from_fen(kind: GameKind, fen: &str) -> Result<Editor, EditorError> {
        let mut ed = Editor::empty(kind)?;
        let bad = |e: &dyn std::fmt::Display| EditorError::Fen(e.to_string());
        match kind {
            GameKind::Xiangqi => {
                let setup = x::fen::parse_setup(fen).map_err(|e| bad(&e))?;
                for (i, p) in setup.board.iter().enumerate() {
                    ed.cells[i] = p.map(|p| Brush::Piece(p.color, PieceKind::from_xiangqi(p.kind)));
                }
                ed.side = setup.turn;
                (ed.halfmoves, ed.fullmoves) = (setup.halfmoves, setup.fullmoves);
            }
            GameKind::Chess => {
                let setup = ChessSetup::from_fen(fen).map_err(|e| bad(&e))?;
                for (i, p) in setup.board.iter().enumerate() {
                    ed.cells[i] = p.map(|(c, r)| Brush::Piece(c, PieceInfo::chess(c, r).kind));
                }
                ed.side = setup.turn;
                ed.castling = setup.castling;
                ed.en_passant = setup.en_passant;
                (ed.halfmoves, ed.fullmoves) = (setup.halfmoves, setup.fullmoves);
            }
            GameKind::Jieqi => ed.read_jieqi(fen)?,
            other @ GameKind::Lines => return Err(EditorError::Unsupported(other.name())),
        }
        Ok(ed)
    }

    /// The game.
    #[must_use]
    pub fn kind(&self) -> GameKind {
        self.kind
    }

    /// Board width in files.
    #[must_use]
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Board height in ranks.
    #[must_use]
    pub fn height(&self) -> u8 {
        self.height
    }

    /// The pieces that can be placed: every kind of the game, the first player's first;
    /// in jieqi each side's kinds are followed by its face-down piece (see `jieqi::palette_face_down`).
    #[must_use]
    pub fn palette(&self) -> Vec<PieceInfo> {
        Color::ALL
            .iter()
            .flat_map(|&c| {
                piece_kinds(self.kind)
                    .iter()
                    .filter_map(move |&k| piece_info(self.kind, c, k))
                    .chain((self.kind == GameKind::Jieqi).then(|| jieqi::palette_face_down(c)))
            })
            .collect()
    }

    fn cell(&self, square: u8) -> Result<usize, EditorError> {
        let i = usize::from(square);
        if i < self.cells.len() {
            Ok(i)
        } else {
            Err(EditorError::OffBoard(square))
        }
    }

    /// The piece on a square.
    #[must_use]
    pub fn piece_at(&self, square: u8) -> Option<PieceInfo> {
        match (*self.cells.get(usize::from(square))?)? {
            Brush::Piece(c, k) => piece_info(self.kind, c, k),
            Brush::FaceDown(c) => Some(jieqi::face_down_info(square, c)),
        }
    }

    /// The name of a square (`e2`).
    #[must_use]
    pub fn square_name(&self, square: u8) -> String {
        let file = char::from(b'a' + square % self.width);
        let rank = square / self.width;
        match self.kind {
            GameKind::Chess => format!("{file}{}", rank + 1),
            _ => format!("{file}{rank}"),
        }
    }

    /// The square a name (`e2`) stands for.
    #[must_use]
    pub fn square_named(&self, name: &str) -> Option<u8> {
        let mut chars = name.trim().chars();
        let file = chars.next()?.to_ascii_lowercase();
        let rank: u8 = chars.as_str().parse().ok()?;
        let file = u8::try_from(u32::from(file).checked_sub(u32::from('a'))?).ok()?;
        let rank = if self.kind == GameKind::Chess {
            rank.checked_sub(1)?
        } else {
            rank
        };
        (file < self.width && rank < self.height).then(|| rank * self.width + file)
    }

    /// Puts a piece on a square (replacing what stood there). Any square is allowed: the
    /// problems say what is wrong.
    pub fn place(&mut self, square: u8, color: Color, kind: PieceKind) -> Result<(), EditorError> {
        let i = self.cell(square)?;
        if piece_info(self.kind, color, kind).is_none() {
            return Err(EditorError::NotInPalette {
                game: self.kind.name(),
                piece: kind.name(),
            });
        }
        self.set_cell(i, Some(Brush::Piece(color, kind)));
        Ok(())
    }

    /// Puts a face-down jieqi piece on a square (replacing what stood there): it moves as
    /// the piece of its home square. Any square is allowed: off its side's home squares it
    /// is a problem. Refused in other games.
    pub fn place_face_down(&mut self, square: u8, color: Color) -> Result<(), EditorError> {
        let i = self.cell(square)?;
        if self.kind != GameKind::Jieqi {
            return Err(EditorError::NotInPalette {
                game: self.kind.name(),
                piece: "face-down piece",
            });
        }
        self.set_cell(i, Some(Brush::FaceDown(color)));
        Ok(())
    }

    /// Puts a brush's piece on a square ([`Editor::place`] or [`Editor::place_face_down`]).
    pub fn put(&mut self, square: u8, brush: Brush) -> Result<(), EditorError> {
        match brush {
            Brush::Piece(c, k) => self.place(square, c, k),
            Brush::FaceDown(c) => self.place_face_down(square, c),
        }
    }

    /// Removes the piece on a square; the piece that stood there.
    pub fn remove(&mut self, square: u8) -> Result<Option<PieceInfo>, EditorError> {
        let i = self.cell(square)?;
        let was = self.piece_at(square);
        self.set_cell(i, None);
        Ok(was)
    }

    /// Empties the board (side to move, the full-move number and orientation stay; castling
    /// rights, the en-passant square and jieqi's captured pieces go).
    pub fn clear(&mut self) {
        self.cells.iter_mut().for_each(|c| *c = None);
        self.captured = [[0; 7]; 2];
        self.castling = [[false; 2]; 2];
        self.en_passant = None;
        self.halfmoves = 0;
    }

    /// Sets a cell; a change is an edit, which restarts the half-move clock.
    fn set_cell(&mut self, i: usize, brush: Option<Brush>) {
        if let Some(cell) = self.cells.get_mut(i)
            && *cell != brush
        {
            *cell = brush;
            self.halfmoves = 0;
        }
    }

    /// The FEN's half-move clock (plies since the last capture, or pawn move in chess): as
    /// the FEN read gave it, 0 once the position is edited.
    #[must_use]
    pub fn halfmoves(&self) -> u16 {
        self.halfmoves
    }

    /// The FEN's full-move number: as the FEN read gave it, kept through edits.
    #[must_use]
    pub fn fullmoves(&self) -> u16 {
        self.fullmoves
    }

    /// Sets up the start position (the orientation stays).
    pub fn reset_to_start(&mut self) -> Result<(), EditorError> {
        let flipped = self.flipped;
        *self = Editor::start(self.kind)?;
        self.flipped = flipped;
        Ok(())
    }

    /// The side to move.
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Chooses the side to move (a change is an edit: the half-move clock restarts, the
    /// full-move number stays, so that the move the new side makes has that number).
    pub fn set_side_to_move(&mut self, side: Color) {
        if self.side != side {
            self.side = side;
            self.halfmoves = 0;
        }
    }

    /// Chess castling rights `[colour index][0 king side, 1 queen side]`.
    #[must_use]
    pub fn castling(&self) -> [[bool; 2]; 2] {
        self.castling
    }

    /// Gives or takes a chess castling right (ignored in other games).
    pub fn set_castling(&mut self, color: Color, king_side: bool, allowed: bool) {
        if self.kind == GameKind::Chess {
            let right = &mut self.castling[color.index()][usize::from(!king_side)];
            if *right != allowed {
                *right = allowed;
                self.halfmoves = 0;
            }
        }
    }

    /// The chess en-passant square.
    #[must_use]
    pub fn en_passant(&self) -> Option<u8> {
        self.en_passant
    }

    /// Sets or clears the chess en-passant square (ignored in other games).
    pub fn set_en_passant(&mut self, square: Option<u8>) -> Result<(), EditorError> {
        if let Some(s) = square {
            self.cell(s)?;
        }
        if self.kind == GameKind::Chess && self.en_passant != square {
            self.en_passant = square;
            self.halfmoves = 0;
        }
        Ok(())
    }

    /// True when the second player's side is at the bottom.
    #[must_use]
    pub fn flipped(&self) -> bool {
        self.flipped
    }

    /// Turns the board around on screen.
    pub fn flip(&mut self) {
        self.flipped = !self.flipped;
    }

    fn xiangqi_setup(&self) -> Setup {
        let mut s = Setup::empty();
        for (sq, cell) in x::Square::all().zip(&self.cells) {
            let piece = match *cell {
                Some(Brush::Piece(c, k)) => k.to_xiangqi().map(|k| x::Piece::new(c, k)),
                _ => None,
            };
            s.put(sq, piece);
        }
        s.turn = self.side;
        (s.halfmoves, s.fullmoves) = (self.halfmoves, self.fullmoves);
        s
    }

    fn chess_setup(&self) -> ChessSetup {
        let mut s = ChessSetup::empty();
        for (i, cell) in self.cells.iter().enumerate() {
            let piece = match *cell {
                Some(Brush::Piece(c, k)) => k.to_chess().map(|r| (c, r)),
                _ => None,
            };
            s.put(i as u8, piece);
        }
        s.turn = self.side;
        s.castling = self.castling;
        s.en_passant = self.en_passant;
        (s.halfmoves, s.fullmoves) = (self.halfmoves, self.fullmoves);
        s
    }

    /// The position as FEN, as it stands (legal or not).
    #[must_use]
    pub fn fen(&self) -> String {
        match self.kind {
            GameKind::Chess => self.chess_setup().to_fen(),
            GameKind::Jieqi => self.jieqi_setup().to_fen(),
            _ => x::fen::setup_to_fen(&self.xiangqi_setup()),
        }
    }

    /// Every problem of the position; empty when it can be played.
    #[must_use]
    pub fn problems(&self) -> Vec<EditorProblem> {
        match self.kind {
            GameKind::Chess => self
                .chess_setup()
                .problems()
                .into_iter()
                .map(|p| EditorProblem {
                    text: p.to_string(),
                    square: chess_problem_square(&p),
                })
                .collect(),
            GameKind::Jieqi => self
                .jieqi_problems()
                .into_iter()
                .map(|p| EditorProblem {
                    text: p.to_string(),
                    square: p.square(),
                })
                .collect(),
            _ => self
                .xiangqi_setup()
                .problems()
                .into_iter()
                .map(|p| EditorProblem {
                    text: p.to_string(),
                    square: xiangqi_problem_square(p),
                })
                .collect(),
        }
    }

    /// The game from this position, or every problem.
    pub fn game(&self) -> Result<AnyGame, EditorError> {
        let problems = self.problems();
        if !problems.is_empty() {
            return Err(EditorError::Illegal(
                problems.into_iter().map(|p| p.text).collect(),
            ));
        }
        AnyGame::from_fen(self.kind, &self.fen()).map_err(|e| EditorError::Setup(e.to_string()))
    }

    /// The FEN of a legal position, or every problem.
    pub fn valid_fen(&self) -> Result<String, EditorError> {
        self.game().map(|g| g.fen())
    }

    /// Play from here against the computer: the player takes `human`, the computer plays
    /// at `level` (1–10).
    pub fn vs_computer(&self, human: Color, level: u8) -> Result<VsComputer, EditorError> {
        let fen = self.valid_fen()?;
        let mut settings = Settings::new(self.kind, human, level)
            .map_err(|e| EditorError::Setup(e.to_string()))?;
        settings.fen = Some(fen);
        VsComputer::new(settings).map_err(|e| EditorError::Setup(e.to_string()))
    }

    /// Play from here against a friend: the proposal to send.
    pub fn proposal(&self, your_color: Color) -> Result<Proposal, EditorError> {
        Ok(Proposal {
            game: self.kind,
            your_color,
            rules: 0,
            start_fen: self.valid_fen()?,
        })
    }

    /// Solve from here: a forced mate for the side to move within `max_mate` moves, with
    /// its main line (the defender resisting longest). Refused for jieqi
    /// ([`EditorError::NoSolver`]: see [`mate::has_solver`]).
    pub fn solve(&self, max_mate: u32) -> Result<MateSearch, EditorError> {
        self.solve_until(max_mate, &AtomicBool::new(false))
    }

    /// [`Editor::solve`], given up as soon as `stop` is set (from another thread): the
    /// answer then says `aborted`, with no mate unless one was proven before.
    pub fn solve_until(&self, max_mate: u32, stop: &AtomicBool) -> Result<MateSearch, EditorError> {
        if !mate::has_solver(self.kind) {
            return Err(EditorError::NoSolver(self.kind.name()));
        }
        let game = self.game()?;
        let rules = AnyRules::usual(self.kind);
        let options = mate::options(max_mate);
        let mut found = mate::solve(&game, &rules, &options, stop);
        if let Some(n) = found.mate
            && let Some(line) = mate::main_line(&game, &rules, n, &options, stop)
        {
            found.line = line;
        }
        Ok(found)
    }

    /// The square under screen cell `(column, row)` (row 0 at the top).
    #[must_use]
    pub fn square_at(&self, column: u8, row: u8) -> Option<u8> {
        let (w, h) = (self.width, self.height);
        if column >= w || row >= h {
            return None;
        }
        let (file, rank) = if self.flipped {
            (w - 1 - column, row)
        } else {
            (column, h - 1 - row)
        };
        Some(rank * w + file)
    }

    /// A tap on the board with `brush` chosen from the palette: places that piece, or
    /// removes it when the same piece already stands there; with no brush, removes.
    pub fn tap(
        &mut self,
        column: u8,
        row: u8,
        brush: Option<Brush>,
    ) -> Result<EditTap, EditorError> {
        let Some(square) = self.square_at(column, row) else {
            return Ok(EditTap::Ignored);
        };
        let here = self.cells[usize::from(square)];
        match brush {
            Some(b) if here != Some(b) => {
                self.put(square, b)?;
                Ok(EditTap::Placed(square))
            }
            _ => {
                self.remove(square)?;
                Ok(EditTap::Removed(square))
            }
        }
    }

    /// Everything to draw.
    #[must_use]
    pub fn view(&self) -> EditorView {
        let problems = self.problems();
        let mut cells = Vec::with_capacity(self.cells.len());
        for row in 0..self.height {
            for column in 0..self.width {
                let Some(square) = self.square_at(column, row) else {
                    continue;
                };
                let (file, rank) = (square % self.width, square / self.width);
                cells.push(EditorCell {
                    column,
                    row,
                    square,
                    name: self.square_name(square),
                    piece: self.piece_at(square),
                    problem: problems.iter().any(|p| p.square == Some(square)),
                    dark: self.kind == GameKind::Chess && (file + rank) % 2 == 0,
                });
            }
        }
        EditorView {
            kind: self.kind,
            width: self.width,
            height: self.height,
            flipped: self.flipped,
            cells,
            palette: self.palette(),
            side_to_move: self.side,
            castling: self.castling,
            en_passant: self.en_passant,
            problems,
            fen: self.fen(),
            pools: self.pools(),
            captured: self.captured_counts(),
        }
    }
}

fn xiangqi_problem_square(p: Problem) -> Option<u8> {
    match p {
        Problem::KingOutsidePalace(s)
        | Problem::AdvisorOutsidePalace(s)
        | Problem::ElephantOffPoints(s)
        | Problem::PawnBehindStart(s)
        | Problem::PawnOffFile(s) => Some(s.index()),
        _ => None,
    }
}

fn chess_problem_square(p: &ChessProblem) -> Option<u8> {
    match *p {
        ChessProblem::PawnOnBackRank(s)
        | ChessProblem::EnPassantRank(s)
        | ChessProblem::EnPassantNoPawn(s)
        | ChessProblem::EnPassantBlocked(s) => Some(s),
        _ => None,
    }
}

#[cfg(test)]
mod jieqi_tests;
#[cfg(test)]
mod tests;
