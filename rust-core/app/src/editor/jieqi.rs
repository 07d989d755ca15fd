//! The jieqi (揭棋) side of the position editor: face-down pieces, the pools and the
//! problems of a jieqi position.
//!
//! ## The pools
//!
//! A jieqi position holds, for each side, the pool of its unrevealed pieces: the
//! identities its face-down pieces on the board and the face-down pieces it lost (captured
//! unseen, which stay unknown) are drawn from. The editor derives the pools rather than
//! asking for them:
//!
//! **a side's pool = its fifteen pieces (all but the king) − its pieces face up on the
//! board − its pieces marked captured face up ([`Editor::set_captured`]).**
//!
//! Every piece of a side that is not face up on the board is therefore unrevealed —
//! face down on the board or captured face down — unless the player says it was captured
//! face up. That is what a player setting up a position from a real game needs: the pieces
//! on the board as they stand, plus the revealed pieces taken off it, which a pool must not
//! draw any more (a pool counting a captured revealed rook would deal it again and give the
//! computer and the reveals the wrong odds). Pieces captured face down need nothing: they
//! stay in the pool, as in play. A pool may thus hold more pieces than its side has face
//! down, as [`JieqiPosition`] allows; it may not hold
//! fewer ([`JieqiProblem::FaceDownBeyondPool`]).
//!
//! A FEN is read back exactly: the captured counts are what its pools leave out
//! (`15 − face up − pool`, by kind), so FEN → editor → FEN gives the same pools for every
//! FEN a jieqi game accepts. (A FEN whose pool and face-up pieces of a kind exceed the set —
//! which no game accepts — keeps its face-up pieces and a pool of what is left.)
//!
//! ```
//! use banco_app::editor::Editor;
//! use banco_app::pieces::PieceKind;
//! use banco_game::{Color, GameKind};
//! let mut ed = Editor::start(GameKind::Jieqi)?;
//! assert_eq!(ed.pool(Color::Red).total(), 15);
//! // Black's revealed rook was captured: its pool keeps one rook, not two.
//! ed.set_captured(Color::Black, PieceKind::Rook, 1)?;
//! assert!(ed.fen().contains(" R2A2C2P5N2B2r1a2c2p5n2b2 "));
//! // But then Black has one face-down piece too many: a face-down piece must go.
//! assert_eq!(
//!     ed.problems()[0].text,
//!     "black has 15 face-down pieces but only 14 unrevealed (its 15 pieces less \
//!      0 face up and 1 captured face up): remove face-down pieces or pieces marked captured"
//! );
//! ed.remove(ed.square_named("a9").ok_or("a9")?)?;
//! assert!(ed.problems().is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::{Brush, Editor, EditorError};
use crate::jieqi::{PoolView, pool_view};
use crate::pieces::{FACE_DOWN_GLYPH, PieceInfo, PieceKind};
use banco_game::{Color, GameKind};
use banco_xiangqi::jieqi::{JieqiFenError, JieqiPiece, JieqiPosition, JieqiSetup, Placed, Pool};
use banco_xiangqi::{self as x, Problem, Setup, Square};

/// One problem of a jieqi position in the editor.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JieqiProblem {
    /// A problem of the kings, as in xiangqi (missing, more than one, outside the
    /// palace, facing each other).
    #[error("{0}")]
    King(Problem),
    /// A face-down piece off its side's home squares.
    #[error(
        "the face-down piece on {square} is not on a home square of {color} (a face-down \
         piece stands only where its side's pieces start, the king's square excepted)"
    )]
    FaceDownOffHome {
        /// Where.
        square: Square,
        /// Whose.
        color: Color,
    },
    /// More pieces of a kind face up on the board and captured face up than a side has.
    #[error(
        "{color} has {} {}s face up ({face_up} on the board, {captured} marked captured), \
         at most {} allowed",
        face_up + captured,
        kind.name(),
        kind.start_count()
    )]
    TooMany {
        /// Whose.
        color: Color,
        /// Which kind.
        kind: x::PieceKind,
        /// Face up on the board.
        face_up: u8,
        /// Marked captured face up.
        captured: u8,
    },
    /// More face-down pieces on the board than unrevealed pieces left to be.
    #[error(
        "{color} has {face_down} face-down piece{} but only {pool} unrevealed (its 15 \
         pieces less {face_up} face up and {captured} captured face up): remove face-down \
         pieces or pieces marked captured",
        if *.face_down == 1 { "" } else { "s" }
    )]
    FaceDownBeyondPool {
        /// Whose.
        color: Color,
        /// Face-down pieces on the board.
        face_down: u32,
        /// Pieces in its pool.
        pool: u32,
        /// Its non-king pieces face up on the board.
        face_up: u32,
        /// Its pieces marked captured face up.
        captured: u32,
    },
    /// The side not to move is in check (its king could be taken).
    #[error("{0} is in check but it is not {0}'s turn")]
    OpponentInCheck(Color),
    /// Anything else a jieqi game refuses (a safety net: the checks above are meant to
    /// find every problem first).
    #[error("{0}")]
    Other(String),
}

impl JieqiProblem {
    /// The square the problem is about, if one.
    #[must_use]
    pub fn square(&self) -> Option<u8> {
        match self {
            JieqiProblem::King(Problem::KingOutsidePalace(s))
            | JieqiProblem::FaceDownOffHome { square: s, .. } => Some(s.index()),
            _ => None,
        }
    }
}

/// The palette's face-down piece of `color`: letter `X`/`x`, glyph [`FACE_DOWN_GLYPH`].
/// Its `kind` means nothing (it is [`PieceKind::Pawn`]): placed, the piece moves as the
/// piece of its home square.
#[must_use]
pub(super) fn palette_face_down(color: Color) -> PieceInfo {
    PieceInfo {
        color,
        kind: PieceKind::Pawn,
        letter: if color == Color::Red { 'X' } else { 'x' },
        glyph: FACE_DOWN_GLYPH,
        face_down: true,
    }
}

/// A face-down piece of `color` on `square` as the board shows it: the kind of its home
/// square, or [`PieceKind::Pawn`] off its home squares (a problem then).
pub(super) fn face_down_info(square: u8, color: Color) -> PieceInfo {
    let kind = Square::from_index(square)
        .and_then(|sq| x::jieqi::home_kind(sq, color))
        .unwrap_or(x::PieceKind::Pawn);
    PieceInfo::jieqi(JieqiPiece {
        color,
        kind,
        hidden: true,
    })
}

/// Jieqi: how many of a side's pieces of one kind are marked captured face up
/// ([`Editor::set_captured`]), as the editor's view lists them for a screen's "captured
/// face up" counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CapturedCount {
    /// The piece (face up).
    pub piece: PieceInfo,
    /// How many are marked captured face up.
    pub count: u8,
    /// The most that can be (how many of the kind a side has).
    pub max: u8,
}

/// What a side has on the board: face-up pieces by xiangqi kind, face-down pieces.
struct Count {
    face_up: [u8; 7],
    face_down: u32,
}

impl Count {
    fn face_up_non_king(&self) -> u32 {
        self.face_up.iter().skip(1).map(|&n| u32::from(n)).sum()
    }
}

/// The xiangqi kinds but the king: what pools and captures count.
fn non_king() -> impl Iterator<Item = x::PieceKind> {
    x::PieceKind::ALL
        .into_iter()
        .filter(|&k| k != x::PieceKind::King)
}

impl Editor {
    /// Reads a jieqi FEN (syntax only) into this empty editor; the captured counts are
    /// what its pools leave out (see the module docs).
    pub(super) fn read_jieqi(&mut self, fen: &str) -> Result<(), EditorError> {
        let setup = JieqiSetup::parse(fen).map_err(|e| EditorError::Fen(e.to_string()))?;
        for (cell, placed) in self.cells.iter_mut().zip(setup.board) {
            *cell = placed.map(|p| match p {
                Placed::FaceUp(p) => Brush::Piece(p.color, PieceKind::from_xiangqi(p.kind)),
                Placed::FaceDown(c) => Brush::FaceDown(c),
            });
        }
        self.side = setup.turn;
        (self.halfmoves, self.fullmoves) = (setup.halfmoves, setup.fullmoves);
        for color in Color::ALL {
            let count = self.count(color);
            let pool = setup.pools[color.index()];
            for kind in non_king() {
                self.captured[color.index()][kind as usize] = kind
                    .start_count()
                    .saturating_sub(count.face_up[kind as usize])
                    .saturating_sub(pool.count(kind));
            }
        }
        Ok(())
    }

    fn count(&self, color: Color) -> Count {
        let mut count = Count {
            face_up: [0; 7],
            face_down: 0,
        };
        for cell in self.cells.iter().flatten() {
            match *cell {
                Brush::Piece(c, k) if c == color => {
                    if let Some(k) = k.to_xiangqi() {
                        count.face_up[k as usize] = count.face_up[k as usize].saturating_add(1);
                    }
                }
                Brush::FaceDown(c) if c == color => count.face_down += 1,
                _ => {}
            }
        }
        count
    }

    fn pool_of(&self, color: Color, count: &Count) -> Pool {
        let mut pool = Pool::EMPTY;
        for kind in non_king() {
            let gone = count.face_up[kind as usize]
                .saturating_add(self.captured[color.index()][kind as usize]);
            pool.set(kind, kind.start_count().saturating_sub(gone));
        }
        pool
    }

    /// Jieqi: `color`'s pool of unrevealed pieces as the editor derives it (see the module
    /// docs); empty in other games.
    #[must_use]
    pub fn pool(&self, color: Color) -> Pool {
        if self.kind != GameKind::Jieqi {
            return Pool::EMPTY;
        }
        self.pool_of(color, &self.count(color))
    }

    /// Jieqi: both pools, the first player's first, as a screen shows them; empty in other
    /// games.
    #[must_use]
    pub fn pools(&self) -> Vec<PoolView> {
        if self.kind != GameKind::Jieqi {
            return Vec::new();
        }
        Color::ALL
            .into_iter()
            .map(|color| {
                let count = self.count(color);
                pool_view(color, self.pool_of(color, &count), count.face_down)
            })
            .collect()
    }

    /// Jieqi: every kind a side can have marked captured face up (all but the king), both
    /// sides, the first player's first, kinds in the pools' order, with their counts;
    /// empty in other games.
    #[must_use]
    pub fn captured_counts(&self) -> Vec<CapturedCount> {
        if self.kind != GameKind::Jieqi {
            return Vec::new();
        }
        Color::ALL
            .into_iter()
            .flat_map(|color| {
                non_king().map(move |kind| CapturedCount {
                    piece: PieceInfo::xiangqi(x::Piece::new(color, kind)),
                    count: self.captured[color.index()][kind as usize],
                    max: kind.start_count(),
                })
            })
            .collect()
    }

    /// Jieqi: how many of `color`'s pieces of `kind` are marked captured face up.
    #[must_use]
    pub fn captured(&self, color: Color, kind: PieceKind) -> u8 {
        kind.to_xiangqi()
            .map_or(0, |k| self.captured[color.index()][k as usize])
    }

    /// Jieqi: marks `count` of `color`'s pieces of `kind` as captured face up, which takes
    /// them out of its pool (see the module docs). Refused in other games, for the king
    /// and for more pieces than a side has.
    pub fn set_captured(
        &mut self,
        color: Color,
        kind: PieceKind,
        count: u8,
    ) -> Result<(), EditorError> {
        if self.kind != GameKind::Jieqi {
            return Err(EditorError::NoPools(self.kind.name()));
        }
        let Some(k) = kind.to_xiangqi() else {
            return Err(EditorError::NotInPalette {
                game: self.kind.name(),
                piece: kind.name(),
            });
        };
        if k == x::PieceKind::King {
            return Err(EditorError::KingCaptured);
        }
        if count > k.start_count() {
            return Err(EditorError::CapturedCount {
                piece: kind.name(),
                count,
                max: k.start_count(),
            });
        }
        let was = &mut self.captured[color.index()][k as usize];
        if *was != count {
            *was = count;
            self.halfmoves = 0;
        }
        Ok(())
    }

    /// The board as a jieqi setup, with the derived pools.
    pub(super) fn jieqi_setup(&self) -> JieqiSetup {
        let mut s = JieqiSetup::empty();
        for (slot, cell) in s.board.iter_mut().zip(&self.cells) {
            *slot = match *cell {
                Some(Brush::Piece(c, k)) => {
                    k.to_xiangqi().map(|k| Placed::FaceUp(x::Piece::new(c, k)))
                }
                Some(Brush::FaceDown(c)) => Some(Placed::FaceDown(c)),
                None => None,
            };
        }
        for color in Color::ALL {
            s.pools[color.index()] = self.pool_of(color, &self.count(color));
        }
        s.turn = self.side;
        (s.halfmoves, s.fullmoves) = (self.halfmoves, self.fullmoves);
        s
    }

    /// Every problem of the jieqi position, typed; empty when a jieqi game accepts it.
    #[must_use]
    pub fn jieqi_problems(&self) -> Vec<JieqiProblem> {
        let setup = self.jieqi_setup();
        // The kings' rules are xiangqi's: its setup judges them, every other piece standing
        // in as a blocker (its own problems are not jieqi's and are left out).
        let mut kings = Setup::empty();
        for sq in Square::all() {
            kings.put(
                sq,
                setup.get(sq).map(|p| match p {
                    Placed::FaceUp(p) if p.kind == x::PieceKind::King => p,
                    other => x::Piece::new(other.color(), x::PieceKind::Rook),
                }),
            );
        }
        let mut problems: Vec<JieqiProblem> = kings
            .problems()
            .into_iter()
            .filter(|p| match p {
                Problem::MissingKing(_) | Problem::KingOutsidePalace(_) | Problem::KingsFacing => {
                    true
                }
                Problem::TooMany { kind, .. } => *kind == x::PieceKind::King,
                _ => false,
            })
            .map(JieqiProblem::King)
            .collect();
        for sq in Square::all() {
            if let Some(Placed::FaceDown(color)) = setup.get(sq)
                && x::jieqi::home_kind(sq, color).is_none()
            {
                problems.push(JieqiProblem::FaceDownOffHome { square: sq, color });
            }
        }
        for color in Color::ALL {
            let count = self.count(color);
            let captured = self.captured[color.index()];
            for kind in non_king() {
                let (face_up, captured) = (count.face_up[kind as usize], captured[kind as usize]);
                if face_up.saturating_add(captured) > kind.start_count() {
                    problems.push(JieqiProblem::TooMany {
                        color,
                        kind,
                        face_up,
                        captured,
                    });
                }
            }
            let pool = setup.pools[color.index()].total();
            if count.face_down > pool {
                problems.push(JieqiProblem::FaceDownBeyondPool {
                    color,
                    face_down: count.face_down,
                    pool,
                    face_up: count.face_up_non_king(),
                    captured: captured.iter().map(|&n| u32::from(n)).sum(),
                });
            }
        }
        if problems.is_empty() {
            match JieqiPosition::from_setup(&setup) {
                Ok(_) => {}
                Err(JieqiFenError::CheckNotToMove(c)) => {
                    problems.push(JieqiProblem::OpponentInCheck(c));
                }
                Err(e) => problems.push(JieqiProblem::Other(e.to_string())),
            }
        }
        problems
    }
}
