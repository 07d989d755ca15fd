//! [`Editor`]: the position editor for the shells (documented on the type).
//!
//! ```
//! use banco_ffi::{Color, Editor, GameKind, PieceKind};
//! let ed = Editor::empty(GameKind::Xiangqi).unwrap();
//! ed.place(4, Color::Red, PieceKind::King, false).unwrap();
//! assert_eq!(ed.view().unwrap().problems.len(), 1); // Black has no king
//! ed.place(84, Color::Black, PieceKind::King, false).unwrap(); // d9
//! ed.place(13, Color::Red, PieceKind::Rook, false).unwrap(); // e1
//! assert!(ed.view().unwrap().problems.is_empty());
//! let solved = ed.solve(3).unwrap();
//! assert_eq!((solved.mate, solved.line), (Some(1), vec!["e1d1".to_owned()]));
//! ```
//!
//! Jieqi: the palette's face-down pieces (`face_down`) are placed with `face_down` set; the
//! pools follow the board (see `banco_app::editor::jieqi`).
//!
//! ```
//! use banco_ffi::{Color, Editor, GameKind, PieceKind};
//! let ed = Editor::start(GameKind::Jieqi).unwrap();
//! let view = ed.view().unwrap();
//! let down = view.palette.iter().find(|p| p.face_down).unwrap().clone();
//! assert_eq!((down.color, down.letter.as_str()), (Color::Red, "X"));
//! ed.remove(0).unwrap(); // a0
//! ed.place(0, down.color, down.kind, down.face_down).unwrap();
//! assert_eq!(ed.view().unwrap().pools[0].total, 15);
//! ed.set_captured(Color::Red, PieceKind::Rook, 1).unwrap();
//! assert_eq!(ed.view().unwrap().pools[0].total, 14); // and a face-down piece too many
//! assert_eq!(ed.problems().unwrap().len(), 1);
//! let rook = ed.view().unwrap().captured.into_iter()
//!     .find(|c| c.piece.color == Color::Red && c.piece.kind == PieceKind::Rook).unwrap();
//! assert_eq!((rook.count, rook.max), (1, 2));
//! ```

use crate::computer::{VsComputer, VsListener, VsSettings};
use crate::error::{BancoError, guard};
use crate::game::Game;
use crate::types::{Color, GameKind, Piece, PieceKind};
use banco_app::any::AnyRules;
use banco_app::editor::Brush;
use banco_app::editor::{self as ae, EditorError};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Longest mate "solve from here" looks for (a deeper search would freeze a phone).
pub const MAX_SOLVE: u32 = 9;

/// One problem of the edited position, with the square to highlight.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct EditorProblem {
    /// What is wrong, in words.
    pub text: String,
    /// The square it is about, if one.
    pub square: Option<u8>,
}

/// A cell of the editor's board as the screen shows it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct EditorCell {
    /// Screen column, 0 at the left.
    pub column: u8,
    /// Screen row, 0 at the top.
    pub row: u8,
    /// The square index.
    pub square: u8,
    /// The square's name (`e2`).
    pub name: String,
    /// The piece on it.
    pub piece: Option<Piece>,
    /// A problem is about this square (highlight it).
    pub problem: bool,
    /// A dark square of a checkered board (chess).
    pub dark: bool,
}

/// Chess castling rights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct Castling {
    /// White may castle king side.
    pub white_king_side: bool,
    /// White may castle queen side.
    pub white_queen_side: bool,
    /// Black may castle king side.
    pub black_king_side: bool,
    /// Black may castle queen side.
    pub black_queen_side: bool,
}

/// Everything an editor screen shows.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct EditorView {
    /// The game.
    pub kind: GameKind,
    /// Columns on screen.
    pub width: u8,
    /// Rows on screen.
    pub height: u8,
    /// The second player's side is at the bottom.
    pub flipped: bool,
    /// Cells row by row from the top left.
    pub cells: Vec<EditorCell>,
    /// The pieces to place, the first player's first.
    pub palette: Vec<Piece>,
    /// The side to move.
    pub side_to_move: Color,
    /// Chess castling rights (all false in xiangqi).
    pub castling: Castling,
    /// Chess en-passant square.
    pub en_passant: Option<u8>,
    /// Every problem; empty when the position can be played or solved.
    pub problems: Vec<EditorProblem>,
    /// The position as FEN (also while illegal).
    pub fen: String,
    /// Jieqi: the two pools of unrevealed pieces (the first player's first) as the editor
    /// derives them from the board and the pieces marked captured; empty in other games.
    #[uniffi(default = [])]
    pub pools: Vec<crate::jieqi::Pool>,
    /// Jieqi: the pieces marked captured face up ([`Editor::set_captured`]), for each side
    /// (the first player's first) every kind but the king, in the pools' order; empty in
    /// other games. A screen shows each with − and + buttons.
    #[uniffi(default = [])]
    pub captured: Vec<CapturedCount>,
}

/// Jieqi: how many of a side's pieces of one kind the editor has marked captured face up.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct CapturedCount {
    /// The piece (its colour and kind are what [`Editor::set_captured`] takes).
    pub piece: Piece,
    /// How many are marked captured face up.
    pub count: u8,
    /// The most that can be (how many of the kind a side has).
    pub max: u8,
}

/// What a tap on the editor's board did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum EditorTap {
    /// Off the board.
    Ignored,
    /// The brush's piece was placed on this square.
    Placed {
        /// The square.
        square: u8,
    },
    /// The piece on this square was removed.
    Removed {
        /// The square.
        square: u8,
    },
}

/// What "solve from here" found.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct EditorSolution {
    /// Mate in this many moves of the side to move, if one was proven.
    pub mate: Option<u32>,
    /// The mating line in coordinates, the defender resisting longest.
    pub line: Vec<String>,
    /// The search ran out of its budget, or was stopped ([`Editor::stop_solve`]), before
    /// proving a mate (there may be a longer one).
    pub aborted: bool,
    /// Positions searched.
    #[uniffi(default = 0)]
    pub nodes: u64,
}

/// Refuses a setting of chess's (`what`: castling, en passant) in another game's editor.
fn chess_only(ed: &ae::Editor, what: &str) -> Result<(), BancoError> {
    if ed.kind() == banco_game::GameKind::Chess {
        Ok(())
    } else {
        Err(BancoError::InvalidArgument(format!(
            "{} has no {what}",
            ed.kind().name()
        )))
    }
}

/// The brush of a palette piece's parts.
fn brush(color: Color, kind: PieceKind, face_down: bool) -> Brush {
    if face_down {
        Brush::FaceDown(color.into())
    } else {
        Brush::Piece(color.into(), kind.into())
    }
}

impl From<EditorError> for BancoError {
    fn from(e: EditorError) -> Self {
        match e {
            EditorError::Unsupported(k) if k == banco_game::GameKind::Lines.name() => {
                crate::error::lines_elsewhere()
            }
            EditorError::Unsupported(k) => BancoError::Unsupported(format!("a {k} editor")),
            EditorError::NoSolver(_) => BancoError::Unsupported(e.to_string()),
            EditorError::OffBoard(_)
            | EditorError::NotInPalette { .. }
            | EditorError::NoPools(_)
            | EditorError::KingCaptured
            | EditorError::CapturedCount { .. } => BancoError::InvalidArgument(e.to_string()),
            EditorError::Fen(_) | EditorError::Illegal(_) | EditorError::Setup(_) => {
                BancoError::InvalidPosition(e.to_string())
            }
        }
    }
}

/// The position editor (cờ thế set-up) of banco-app for the shells — an empty board, the start
/// position or a game's position; the palette of the game's pieces; place and remove by square or
/// by tapping with a brush; side to move, chess castling and en passant; turning the board; the
/// live list of problems; the FEN; then "play from here" against the computer
/// ([`Editor::play_vs_computer`]) or a friend ([`Editor::to_game`]) and "solve from here"
/// ([`Editor::solve`]).
///
/// Every method may be called from any thread.
#[derive(uniffi::Object)]
pub struct Editor {
    inner: Mutex<ae::Editor>,
    /// The stop flag of the latest "solve from here" ([`Editor::stop_solve`]).
    solving: Mutex<Arc<AtomicBool>>,
}

impl Editor {
    fn wrap(ed: ae::Editor) -> Arc<Editor> {
        Arc::new(Editor {
            inner: Mutex::new(ed),
            solving: Mutex::new(Arc::new(AtomicBool::new(false))),
        })
    }

    fn solving(&self) -> MutexGuard<'_, Arc<AtomicBool>> {
        self.solving.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn lock(&self) -> MutexGuard<'_, ae::Editor> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

fn view_of(ed: &ae::Editor) -> EditorView {
    let v = ed.view();
    EditorView {
        kind: v.kind.into(),
        width: v.width,
        height: v.height,
        flipped: v.flipped,
        cells: v
            .cells
            .iter()
            .map(|c| EditorCell {
                column: c.column,
                row: c.row,
                square: c.square,
                name: c.name.clone(),
                piece: c.piece.as_ref().map(Piece::from),
                problem: c.problem,
                dark: c.dark,
            })
            .collect(),
        palette: v.palette.iter().map(Piece::from).collect(),
        side_to_move: v.side_to_move.into(),
        castling: Castling {
            white_king_side: v.castling[0][0],
            white_queen_side: v.castling[0][1],
            black_king_side: v.castling[1][0],
            black_queen_side: v.castling[1][1],
        },
        en_passant: v.en_passant,
        problems: v
            .problems
            .iter()
            .map(|p| EditorProblem {
                text: p.text.clone(),
                square: p.square,
            })
            .collect(),
        fen: v.fen,
        pools: v.pools.iter().map(crate::jieqi::Pool::from).collect(),
        captured: v
            .captured
            .iter()
            .map(|c| CapturedCount {
                piece: Piece::from(&c.piece),
                count: c.count,
                max: c.max,
            })
            .collect(),
    }
}

/// The games the position editor sets up (xiangqi, chess, jieqi), for the editor's list of
/// games: no shell writes it ([`Editor::empty`] refuses the others).
#[uniffi::export]
pub fn editor_games() -> Vec<GameKind> {
    ae::games().into_iter().map(Into::into).collect()
}

#[uniffi::export]
impl Editor {
    /// An empty board of `kind` (xiangqi, chess or jieqi), the first player to move.
    #[uniffi::constructor]
    pub fn empty(kind: GameKind) -> Result<Arc<Editor>, BancoError> {
        guard(|| Ok(Editor::wrap(ae::Editor::empty(kind.into())?)))
    }

    /// The start position of `kind`.
    #[uniffi::constructor]
    pub fn start(kind: GameKind) -> Result<Arc<Editor>, BancoError> {
        guard(|| Ok(Editor::wrap(ae::Editor::start(kind.into())?)))
    }

    /// A FEN of `kind`, which may describe an illegal position (its problems are listed).
    #[uniffi::constructor]
    pub fn from_fen(kind: GameKind, fen: String) -> Result<Arc<Editor>, BancoError> {
        guard(|| Ok(Editor::wrap(ae::Editor::from_fen(kind.into(), &fen)?)))
    }

    /// The current position of a game.
    #[uniffi::constructor]
    pub fn from_game(game: Arc<Game>) -> Result<Arc<Editor>, BancoError> {
        guard(|| Ok(Editor::wrap(ae::Editor::from_game(&game.snapshot().0)?)))
    }

    /// Everything to draw.
    pub fn view(&self) -> Result<EditorView, BancoError> {
        guard(|| Ok(view_of(&self.lock())))
    }

    /// Puts a piece on a square (replacing what stood there): a palette piece's `color`,
    /// `kind` and `face_down` (a face-down jieqi piece, whose `kind` is ignored: it moves
    /// as the piece of its home square; refused in other games).
    #[uniffi::method(default(face_down = false))]
    pub fn place(
        &self,
        square: u8,
        color: Color,
        kind: PieceKind,
        face_down: bool,
    ) -> Result<(), BancoError> {
        guard(|| {
            let mut ed = self.lock();
            let square = crate::game::square_within(square, ed.width(), ed.height())?;
            Ok(ed.put(square, brush(color, kind, face_down))?)
        })
    }

    /// Jieqi: marks `count` of `color`'s pieces of `kind` as captured face up, which takes
    /// them out of its pool (a side's pool is its fifteen pieces less those face up on the
    /// board and those marked captured). Refused (`InvalidArgument`) in other games, for the
    /// king and for more pieces than a side has.
    pub fn set_captured(&self, color: Color, kind: PieceKind, count: u8) -> Result<(), BancoError> {
        guard(|| Ok(self.lock().set_captured(color.into(), kind.into(), count)?))
    }

    /// Jieqi: how many of `color`'s pieces of `kind` are marked captured face up.
    pub fn captured(&self, color: Color, kind: PieceKind) -> Result<u8, BancoError> {
        guard(|| Ok(self.lock().captured(color.into(), kind.into())))
    }

    /// Empties a square; the piece that stood there.
    pub fn remove(&self, square: u8) -> Result<Option<Piece>, BancoError> {
        guard(|| {
            let mut ed = self.lock();
            let square = crate::game::square_within(square, ed.width(), ed.height())?;
            Ok(ed.remove(square)?.as_ref().map(Piece::from))
        })
    }

    /// A tap on screen cell (`column`, `row`) with a brush from the palette (its colour,
    /// kind and `face_down`): places it, or removes the piece when the same one already
    /// stands there; no brush removes.
    #[uniffi::method(default(brush_face_down = false))]
    pub fn tap(
        &self,
        column: u8,
        row: u8,
        brush_color: Option<Color>,
        brush_kind: Option<PieceKind>,
        brush_face_down: bool,
    ) -> Result<EditorTap, BancoError> {
        guard(|| {
            let brush = match (brush_color, brush_kind) {
                (Some(c), Some(k)) => Some(brush(c, k, brush_face_down)),
                (None, None) => None,
                _ => {
                    return Err(BancoError::InvalidArgument(
                        "a brush needs both a colour and a piece kind".to_owned(),
                    ));
                }
            };
            Ok(match self.lock().tap(column, row, brush)? {
                ae::EditTap::Ignored => EditorTap::Ignored,
                ae::EditTap::Placed(square) => EditorTap::Placed { square },
                ae::EditTap::Removed(square) => EditorTap::Removed { square },
            })
        })
    }

    /// Empties the board.
    pub fn clear(&self) -> Result<(), BancoError> {
        guard(|| {
            self.lock().clear();
            Ok(())
        })
    }

    /// Puts the start position back.
    pub fn reset_to_start(&self) -> Result<(), BancoError> {
        guard(|| Ok(self.lock().reset_to_start()?))
    }

    /// Chooses the side to move.
    pub fn set_side_to_move(&self, side: Color) -> Result<(), BancoError> {
        guard(|| {
            self.lock().set_side_to_move(side.into());
            Ok(())
        })
    }

    /// Allows or forbids one chess castling (`king_side` false: queen side); refused
    /// (`InvalidArgument`) in a game without castling.
    pub fn set_castling(
        &self,
        color: Color,
        king_side: bool,
        allowed: bool,
    ) -> Result<(), BancoError> {
        guard(|| {
            let mut ed = self.lock();
            chess_only(&ed, "castling")?;
            ed.set_castling(color.into(), king_side, allowed);
            Ok(())
        })
    }

    /// The chess en-passant square (the square a pawn passed over), or none; refused
    /// (`InvalidArgument`) in a game without en passant.
    pub fn set_en_passant(&self, square: Option<u8>) -> Result<(), BancoError> {
        guard(|| {
            let mut ed = self.lock();
            chess_only(&ed, "en passant")?;
            Ok(ed.set_en_passant(square)?)
        })
    }

    /// Turns the board around.
    pub fn flip(&self) -> Result<(), BancoError> {
        guard(|| {
            self.lock().flip();
            Ok(())
        })
    }

    /// The position as FEN, legal or not.
    pub fn fen(&self) -> Result<String, BancoError> {
        guard(|| Ok(self.lock().fen()))
    }

    /// Every problem of the position now (empty when it can be played).
    pub fn problems(&self) -> Result<Vec<EditorProblem>, BancoError> {
        guard(|| {
            Ok(self
                .lock()
                .problems()
                .into_iter()
                .map(|p| EditorProblem {
                    text: p.text,
                    square: p.square,
                })
                .collect())
        })
    }

    /// Play from here against a friend on this phone (or to propose over the network):
    /// a [`Game`] from the position, refused with every problem while it is illegal.
    pub fn to_game(&self) -> Result<Arc<Game>, BancoError> {
        guard(|| {
            let ed = self.lock();
            Game::from_any(ed.game()?, AnyRules::usual(ed.kind()))
        })
    }

    /// Play from here against the computer: the player takes `human`, the computer plays
    /// at `level` (1–10) thinking at most `movetime_ms` per move.
    pub fn play_vs_computer(
        &self,
        human: Color,
        level: u8,
        movetime_ms: u64,
        listener: Arc<dyn VsListener>,
    ) -> Result<Arc<VsComputer>, BancoError> {
        let (kind, fen) = guard(|| {
            let ed = self.lock();
            Ok((ed.kind(), ed.valid_fen()?))
        })?;
        VsComputer::new(
            VsSettings {
                kind: kind.into(),
                human,
                level,
                rules: None,
                movetime_ms,
                fen: Some(fen),
                chance_seed: None,
            },
            listener,
        )
    }

    /// Solve from here: a forced mate for the side to move within `max_mate` moves (1 to
    /// [`MAX_SOLVE`]), with its main line; jieqi is refused (`Unsupported`). Blocks for up to a second or two (at most 4
    /// million positions per proof; 30 s on a slow device): call it off the UI thread, and
    /// [`Editor::stop_solve`] when the screen closes. Starting another solve stops this
    /// one. A stopped solve answers `aborted`.
    pub fn solve(&self, max_mate: u32) -> Result<EditorSolution, BancoError> {
        guard(|| {
            if !(1..=MAX_SOLVE).contains(&max_mate) {
                return Err(BancoError::InvalidArgument(format!(
                    "mates of 1 to {MAX_SOLVE} moves can be looked for, not {max_mate}"
                )));
            }
            let stop = {
                let mut current = self.solving();
                current.store(true, Ordering::Relaxed);
                let fresh = Arc::new(AtomicBool::new(false));
                *current = Arc::clone(&fresh);
                fresh
            };
            let ed = self.lock().clone();
            let game = ed.game()?;
            let found = ed.solve_until(max_mate, &stop)?;
            Ok(EditorSolution {
                mate: found.mate,
                line: banco_app::puzzles::line_text(&game, &found.line).unwrap_or_default(),
                aborted: found.aborted,
                nodes: found.nodes,
            })
        })
    }

    /// Stops the running [`Editor::solve`] (from any thread): it returns at once with
    /// `aborted`. Nothing happens when none runs.
    pub fn stop_solve(&self) -> Result<(), BancoError> {
        guard(|| {
            self.solving().store(true, Ordering::Relaxed);
            Ok(())
        })
    }

    /// The SVG picture of the board as it stands (legal or not).
    pub fn render_svg(&self) -> Result<String, BancoError> {
        guard(|| Ok(banco_app::render::svg_of_editor(&self.lock())))
    }
}
