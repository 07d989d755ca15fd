//! A jieqi board read for its syntax only ([`JieqiSetup`]): what a position editor holds
//! while the position may still be illegal. [`JieqiPosition::from_fen`](super::JieqiPosition::from_fen) reads a FEN into a
//! setup and then validates it; [`JieqiSetup::to_fen`] writes one back in the same form as
//! [`JieqiPosition::fen`](super::JieqiPosition::fen).
//!
//! ```
//! use banco_xiangqi::jieqi::{self, JieqiSetup, Placed, home_kind};
//! use banco_xiangqi::{PieceKind, Square};
//! use banco_game::Color;
//! let setup = JieqiSetup::parse(jieqi::START_FEN)?;
//! let b0: Square = "b0".parse()?;
//! assert_eq!(setup.board[b0.index() as usize], Some(Placed::FaceDown(Color::Red)));
//! assert_eq!(home_kind(b0, Color::Red), Some(PieceKind::Horse));
//! assert_eq!(home_kind(b0, Color::Black), None);
//! assert_eq!(setup.to_fen(), jieqi::START_FEN);
//! // An illegal board is read all the same: a face-down piece off its home squares.
//! let odd = JieqiSetup::parse("4k4/9/9/9/4X4/9/9/9/9/4K4 w R1 0 1")?;
//! assert_eq!(odd.pools[0].count(PieceKind::Rook), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::fen::{JieqiFenError, parse_pool, write_pools};
use super::position::{HOME, Pool};
use crate::fen::{read_placement, write_placement};
use crate::piece::{Piece, PieceKind};
use crate::square::Square;
use crate::tables::{KING, code_side};
use banco_game::Color;
use core::fmt::Write as _;

/// What stands on a square of a [`JieqiSetup`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Placed {
    /// A revealed piece (or a king, which is never face down).
    FaceUp(Piece),
    /// A face-down piece of this colour: it moves as the piece of its home square
    /// ([`home_kind`]); its identity is drawn from its side's pool when it is revealed.
    FaceDown(Color),
}

impl Placed {
    /// Its side.
    #[must_use]
    pub const fn color(self) -> Color {
        match self {
            Placed::FaceUp(p) => p.color,
            Placed::FaceDown(c) => c,
        }
    }
}

/// The kind a face-down piece of `color` on `sq` moves as: the piece of `color` that starts
/// on `sq` in xiangqi. `None` where a face-down piece of `color` may not stand (not one of
/// its fifteen home squares; the king's square is not one, as the king is never face down).
#[must_use]
pub fn home_kind(sq: Square, color: Color) -> Option<PieceKind> {
    let home = HOME[sq.to_inner() as usize];
    if home == 0 || home & 7 == KING || code_side(home) != color.index() {
        return None;
    }
    Piece::from_code(home).map(|p| p.kind)
}

/// A jieqi board with its pools, side to move and counters, read for its syntax only: no
/// invariant holds (a face-down piece may stand off its home squares, a pool may be short).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JieqiSetup {
    /// What stands on each square, by square index (`file + 9 × rank`).
    pub board: [Option<Placed>; 90],
    /// The pools of unrevealed pieces, the first player's first.
    pub pools: [Pool; 2],
    /// Side to move.
    pub turn: Color,
    /// Plies since the last capture.
    pub halfmoves: u16,
    /// Full-move number.
    pub fullmoves: u16,
}

impl JieqiSetup {
    /// An empty board, empty pools, Red to move.
    #[must_use]
    pub fn empty() -> JieqiSetup {
        JieqiSetup {
            board: [None; 90],
            pools: [Pool::EMPTY; 2],
            turn: Color::Red,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// Reads a jieqi FEN (the form of [`super::fen`]) for its syntax only.
    pub fn parse(fen: &str) -> Result<JieqiSetup, JieqiFenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let board = fields.first().ok_or(JieqiFenError::Empty)?;
        let turn = match fields.get(1).copied() {
            None | Some("w" | "r" | "W" | "R") => Color::Red,
            Some("b" | "B") => Color::Black,
            Some(other) => return Err(JieqiFenError::BadSide(other.to_owned())),
        };
        let pools = match fields.get(2) {
            Some(text) => parse_pool(text)?,
            None => [Pool::EMPTY; 2],
        };
        // Pikafish's five fields, or the xiangqi layout with an unused `-` before the clock.
        let rest = if fields.len() == 6 && fields[3] == "-" {
            &fields[4..]
        } else {
            fields.get(3..).unwrap_or(&[])
        };
        let halfmoves = rest
            .first()
            .map_or(Ok(0), |v| counter("half-move clock", v))?;
        let fullmoves = rest.get(1).map_or(Ok(1), |v| counter("move number", v))?;
        let mut setup = JieqiSetup {
            turn,
            pools,
            halfmoves,
            fullmoves: fullmoves.max(1),
            ..JieqiSetup::empty()
        };
        read_placement::<JieqiFenError>(board, |sq, rank, ch| {
            let placed = match ch {
                'X' => Placed::FaceDown(Color::Red),
                'x' => Placed::FaceDown(Color::Black),
                _ => Placed::FaceUp(
                    Piece::from_fen_char(ch).ok_or(JieqiFenError::BadChar { rank, ch })?,
                ),
            };
            if let Some(sq) = sq {
                setup.board[sq.index() as usize] = Some(placed);
            }
            Ok(())
        })?;
        Ok(setup)
    }

    /// What stands on `sq`.
    #[must_use]
    pub fn get(&self, sq: Square) -> Option<Placed> {
        self.board[sq.index() as usize]
    }

    /// The FEN of this setup, in the form of [`JieqiPosition::fen`](super::JieqiPosition::fen)
    /// (pools written in full, zero counts included).
    #[must_use]
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(100);
        write_placement(&mut s, |sq| {
            self.get(sq).map(|p| match p {
                Placed::FaceUp(p) => p.fen_char(),
                Placed::FaceDown(Color::Red) => 'X',
                Placed::FaceDown(Color::Black) => 'x',
            })
        });
        s.push(' ');
        s.push(if self.turn == Color::Red { 'w' } else { 'b' });
        s.push(' ');
        write_pools(&mut s, &self.pools);
        let _ = write!(s, " {} {}", self.halfmoves, self.fullmoves);
        s
    }
}

fn counter(field: &'static str, value: &str) -> Result<u16, JieqiFenError> {
    value.parse().map_err(|_| JieqiFenError::BadCounter {
        field,
        value: value.to_owned(),
    })
}
