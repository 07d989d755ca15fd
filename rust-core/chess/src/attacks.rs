//! One home for the sliding pieces' attack table: every Banco crate that needs a rook's or
//! a bishop's moves, or the legal moves of a board grouped by piece, calls these instead
//! of cozy-chess's own functions.
//!
//! cozy-chess keeps its 704 KB sliding-move table in a `const` read by `#[inline(always)]`
//! functions, so every crate that calls them (or instantiates its generic move generator)
//! compiles its own copy of the table into the binary: the stripped FFI library carried
//! five. These functions are neither inline nor generic, so the table is compiled here
//! only (and once more inside cozy-chess for its own move generator).
//!
//! ```
//! use banco_chess::attacks;
//! use banco_chess::cozy_chess::{BitBoard, Board, Square};
//! assert_eq!(attacks::rook_moves(Square::A1, BitBoard::EMPTY).len(), 14);
//! assert_eq!(attacks::bishop_moves(Square::D4, BitBoard::EMPTY).len(), 13);
//! let mut n = 0;
//! attacks::for_each_legal(&Board::default(), &mut |pm| {
//!     n += pm.len();
//!     false
//! });
//! assert_eq!(n, 20);
//! ```

use cozy_chess::{BitBoard, Board, PieceMoves, Square};

/// The squares a rook on `square` attacks with `blockers` on the board.
#[inline(never)]
#[must_use]
pub fn rook_moves(square: Square, blockers: BitBoard) -> BitBoard {
    cozy_chess::get_rook_moves(square, blockers)
}

/// The squares a bishop on `square` attacks with `blockers` on the board.
#[inline(never)]
#[must_use]
pub fn bishop_moves(square: Square, blockers: BitBoard) -> BitBoard {
    cozy_chess::get_bishop_moves(square, blockers)
}

/// Calls `listener` with the legal moves of `board`, one piece at a time, until it returns
/// `true`; returns whether it did (cozy-chess's `Board::generate_moves`).
#[inline(never)]
pub fn for_each_legal(board: &Board, listener: &mut dyn FnMut(PieceMoves) -> bool) -> bool {
    board.generate_moves(listener)
}
