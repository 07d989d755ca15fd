//! The wire form of a chess move: a `u16` below 2¹⁴, so postcard's varint takes two bytes.
//!
//! | codes | meaning |
//! |---|---|
//! | `0..4096` | a move without promotion: `from + 64 × to` (squares a1 = 0 … h8 = 63; castling as king takes rook, see [`ChessMove`]); `from == to` is refused |
//! | `4096..5120` | a promotion: `4096 + 256 × piece + 128 × side + 16 × from_file + (delta + 1)` |
//! | `5120..` | not a move |
//!
//! In a promotion `piece` is 0 knight, 1 bishop, 2 rook, 3 queen; `side` 0 is White (from
//! rank 7 to rank 8), 1 Black (rank 2 to rank 1); `from_file` 0 (a) to 7 (h); `delta` the
//! file step −1, 0 or +1 (so the low four bits are 0, 1 or 2; other values, and a step off
//! the board, are refused). The ranks follow from the side.
//!
//! Decoding checks only this layout; whether the move is legal is checked against the
//! position afterwards, like any untrusted input. [`Chess`](crate::Chess)'s
//! [`Game::decode_move`](banco_game::Game::decode_move) also accepts castling written as the
//! king's two-square step. Every legal move round-trips; a move no pawn can make as a
//! promotion (a promotion piece on a move that does not go from the seventh to the eighth
//! rank) encodes as [`INVALID`], which decodes to nothing, so it can never arrive as some
//! other legal move.
//!
//! ```
//! use banco_chess::{wire, ChessMove, Promotion};
//! let e2e4 = ChessMove::new(12, 28, None);
//! assert_eq!(wire::encode(e2e4), 12 + 64 * 28);
//! let exd8q = ChessMove::new(52, 59, Some(Promotion::Queen)); // e7xd8=Q
//! assert_eq!(wire::encode(exd8q), 4096 + 3 * 256 + 0 * 128 + 4 * 16 + 0);
//! assert_eq!(wire::decode(wire::encode(exd8q)), Some(exd8q));
//! assert_eq!(wire::decode(5120), None);
//! ```

use crate::moves::ChessMove;
use crate::role::Promotion;
use crate::square;

/// First promotion code.
pub const PROMOTION_BASE: u16 = 4096;
/// First code past the layout.
pub const END: u16 = 5120;
/// The code of a move that has no wire form (see the module docs); decodes to nothing.
pub const INVALID: u16 = 0x3FFF;

/// The wire code of `mv` (see the module docs).
#[must_use]
pub fn encode(mv: ChessMove) -> u16 {
    let (from, to) = (mv.from(), mv.to());
    let Some(piece) = mv.promotion() else {
        return u16::from(from) | u16::from(to) << 6;
    };
    let side = match (square::rank(from), square::rank(to)) {
        (6, 7) => 0,
        (1, 0) => 1,
        _ => return INVALID,
    };
    let delta = i16::from(square::file(to)) - i16::from(square::file(from));
    if delta.abs() > 1 {
        return INVALID;
    }
    PROMOTION_BASE
        + 256 * u16::from(piece.index())
        + 128 * side
        + 16 * u16::from(square::file(from))
        + (delta + 1) as u16
}

/// The move of a wire code, if the code follows the layout (legality is not checked).
#[must_use]
pub fn decode(code: u16) -> Option<ChessMove> {
    if code < PROMOTION_BASE {
        let from = (code & 63) as u8;
        let to = (code >> 6) as u8;
        return (from != to).then(|| ChessMove::new(from, to, None));
    }
    if code >= END {
        return None;
    }
    let x = code - PROMOTION_BASE;
    let piece = Promotion::from_index((x >> 8) as u8)?;
    let white = x & 128 == 0;
    let from_file = ((x >> 4) & 7) as u8;
    let delta = x & 15;
    if delta > 2 {
        return None;
    }
    let to_file = (from_file + delta as u8).checked_sub(1)?;
    let (from_rank, to_rank) = if white { (6, 7) } else { (1, 0) };
    let from = square::at(from_file, from_rank)?;
    let to = square::at(to_file, to_rank)?;
    Some(ChessMove::new(from, to, Some(piece)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_decodes_or_is_refused_and_round_trips() {
        let mut moves = 0;
        for code in 0..=u16::MAX {
            if let Some(mv) = decode(code) {
                assert_eq!(encode(mv), code, "{mv}");
                assert!(code < END);
                moves += 1;
            }
        }
        // 64 × 63 plain moves; promotions: 4 pieces × 2 sides × (8 pushes + 14 captures).
        assert_eq!(moves, 64 * 63 + 4 * 2 * 22);
        assert_eq!(decode(INVALID), None);
    }

    #[test]
    fn golden_codes() {
        let g7h8n = ChessMove::new(54, 63, Some(Promotion::Knight));
        assert_eq!(encode(g7h8n), 4096 + 6 * 16 + 2);
        let a2a1r = ChessMove::new(8, 0, Some(Promotion::Rook));
        assert_eq!(encode(a2a1r), 4096 + 2 * 256 + 128 + 1);
        let castle = ChessMove::new(4, 7, None); // e1h1
        assert_eq!(encode(castle), 4 + 7 * 64);
        assert_eq!(
            encode(ChessMove::new(12, 28, Some(Promotion::Queen))),
            INVALID
        );
        assert_eq!(
            encode(ChessMove::new(48, 59, Some(Promotion::Queen))),
            INVALID
        );
    }
}
