//! A read-only, low-level view of a [`Position`] for evaluation code outside this crate
//! (banco-engine's xiangqi evaluation): the internal board with its piece codes, the piece
//! lists, the rank and file occupancy, and the attack test over a board view. Fast and
//! unchecked — no [`Square`] conversions, no bounds to trust beyond the layout below. Rules
//! code never needs it; callers that want squares and pieces use [`Position::piece_at`] and
//! friends instead.
//!
//! ## Layout
//!
//! * **Inner squares.** The 9×10 board sits in a 16×16 array with a margin of three
//!   off-board squares: square `(rank + 3) × 16 + file + 3` ([`inner`]). Off-board entries
//!   always read 0, and every square two steps away from a board square is still inside
//!   the array, so leaps need no edge test. Red's "forward" is `+16`.
//! * **Codes.** A piece is `side base | kind`: the side base is 8 for Red and 16 for Black
//!   ([`side_base`]), the kind is [`KING`] … [`PAWN`] (the order of [`PieceKind`](crate::PieceKind)). 0 is an
//!   empty (or off-board) square, so `code & side_base(s) != 0` tests the owner.
//! * **Piece lists.** Each side has 16 fixed slots ([`SLOT_KIND`]): king, two advisors, two
//!   elephants, two horses, two rooks, two cannons, five pawns. A slot holds the piece's
//!   inner square, 0 once it is captured.
//! * **Lines.** [`Lines`] keeps the occupancy of every rank and file as bit sets, so rays
//!   are measured with a bit scan instead of a walk.
//!
//! ```
//! use banco_xiangqi::{raw, Position, PieceKind};
//! let pos = Position::startpos();
//! let board = pos.raw_board();
//! let e0 = raw::inner("e0".parse().unwrap());
//! assert_eq!(board[e0 as usize], raw::side_base(0) | raw::KING);
//! // The red rook on a0 sees two empty squares up the file, none elsewhere.
//! let a0 = raw::inner("a0".parse().unwrap());
//! assert_eq!(pos.raw_lines().runs(a0), [0, 0, 2, 0]); // right, left, up, down
//! assert_eq!(pos.raw_lists()[0][7], a0); // slot 7: the first rook
//! assert_eq!(raw::SLOT_KIND[7], PieceKind::Rook as u8);
//! ```

use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;

pub use crate::lines::{DOWN, LEFT, Lines, RIGHT, UP};
pub use crate::tables::{
    ADVISOR, CANNON, ELEPHANT, HORSE, HORSE_STEPS, KING, PAWN, ROOK, SLOT_BASE, SLOT_KIND,
    code_side, side_base,
};

/// True if the inner square `s` is on the board (usable in `const` table builders).
#[inline(always)]
#[must_use]
pub const fn is_board_square(s: u8) -> bool {
    let (r, c) = (s >> 4, s & 15);
    r >= 3 && r <= 12 && c >= 3 && c <= 11
}

/// The inner square of `sq`.
#[inline(always)]
#[must_use]
pub const fn inner(sq: Square) -> u8 {
    sq.to_inner()
}

/// The square of the inner square `s`, which must be on the board
/// ([`is_board_square`]); other values give an unspecified square.
#[inline(always)]
#[must_use]
pub fn square(s: u8) -> Square {
    if is_board_square(s) {
        Square::from_inner(s)
    } else {
        Square::from_inner(0x33)
    }
}

/// The inner from- and to-squares of `mv`.
#[inline(always)]
#[must_use]
pub const fn move_squares(mv: Move) -> (u8, u8) {
    (mv.inner_from(), mv.to_inner())
}

/// True if the inner square `t` is attacked by side `by` (0 Red, 1 Black) on the board
/// that `get` describes (`get(s)` is the code on inner square `s`): the real board, or the
/// board as if a move were made. Made for checks: kings attack their neighbours in the
/// palace and, along an open file, whatever stands at its end (the other king, when the
/// test asks about a king); advisors and elephants never count (they never reach the
/// enemy king). [`Position::is_attacked`] is the exact test for any square.
#[inline(always)]
pub fn attacked_on(get: &impl Fn(u8) -> u8, t: u8, by: usize) -> bool {
    crate::position::attacked_on(get, t, by)
}

impl Position {
    /// The internal board: the code of every inner square (see [`raw`](crate::raw)).
    #[inline(always)]
    #[must_use]
    pub fn raw_board(&self) -> &[u8; 256] {
        &self.board
    }

    /// The piece lists of Red (index 0) and Black (index 1): the inner square of the piece
    /// in each fixed slot, 0 when captured (see [`raw`](crate::raw)).
    #[inline(always)]
    #[must_use]
    pub fn raw_lists(&self) -> &[[u8; 16]; 2] {
        &self.lists
    }

    /// The rank and file occupancy.
    #[inline(always)]
    #[must_use]
    pub fn raw_lines(&self) -> &Lines {
        &self.lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::IN_BOARD;

    #[test]
    fn board_squares_and_conversions_agree() {
        for s in 0..=255u8 {
            assert_eq!(is_board_square(s), IN_BOARD[s as usize]);
        }
        for sq in Square::all() {
            assert_eq!(square(inner(sq)), sq);
        }
    }
}
