//! The chess piece-square tables: what a piece is worth on each square beyond its
//! material, in the middle game and in the end game (the evaluation blends the two by
//! phase). Written for this engine from common chess principles — knights and bishops
//! belong in the centre and off the rim, rooks on the seventh rank, the king tucked away
//! behind its pawns while queens are on the board and in the centre once they are gone,
//! pawns pushed in the centre early and everywhere late.
//!
//! Tables are laid out as a board diagram seen from White: the first row is the eighth
//! rank, so the table index of a White piece on square `sq` (a1 = 0) is `sq ^ 56`, and a
//! Black piece reads the same table with its square as is (the board mirrored).
//!
//! ```
//! use banco_engine::chess::tables::{pst, KNIGHT};
//! use banco_game::Color;
//! // A knight is better on e4 (28) than on a1 (0), for either colour seen from its side.
//! assert!(pst(&KNIGHT.0, Color::Red, 28) > pst(&KNIGHT.0, Color::Red, 0));
//! assert_eq!(pst(&KNIGHT.0, Color::Red, 28), pst(&KNIGHT.0, Color::Black, 28 ^ 56));
//! ```

use banco_game::Color;

/// One table: 64 values, eighth rank first (see the module docs).
pub type Table = [i32; 64];

/// The value in `table` of a piece of `color` on square `sq` (a1 = 0).
#[inline(always)]
#[must_use]
pub const fn pst(table: &Table, color: Color, sq: usize) -> i32 {
    match color {
        Color::Red => table[(sq ^ 0o70) & 0o77],
        Color::Black => table[sq & 0o77],
    }
}

/// Pawns (middle game, end game): central pawns pushed early; any pawn closer to
/// promotion late (passed pawns earn more in the evaluation proper).
#[rustfmt::skip]
pub const PAWN: (Table, Table) = (
    [
          0,   0,   0,   0,   0,   0,   0,   0,
         45,  50,  50,  55,  55,  50,  50,  45,
         12,  16,  22,  32,  32,  22,  16,  12,
          2,   6,  12,  26,  26,  12,   6,   2,
         -4,   0,   6,  20,  20,   4,   0,  -4,
         -4,  -2,   2,   8,   8,  -4,  -2,  -4,
         -6,   0,  -4, -16, -16,   6,   6,  -6,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    [
          0,   0,   0,   0,   0,   0,   0,   0,
         55,  52,  48,  45,  45,  48,  52,  55,
         32,  30,  26,  22,  22,  26,  30,  32,
         15,  13,  10,   6,   6,  10,  13,  15,
          6,   5,   2,   0,   0,   2,   5,   6,
          0,   0,  -2,  -3,  -3,  -2,   0,   0,
          0,   0,   0,   0,   0,   0,   0,   0,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
);

/// Knights: the centre, and never the rim.
#[rustfmt::skip]
pub const KNIGHT: (Table, Table) = (
    [
        -62, -32, -24, -18, -18, -24, -32, -62,
        -30, -14,   2,   6,   6,   2, -14, -30,
        -18,   6,  16,  22,  22,  16,   6, -18,
        -14,  10,  20,  26,  26,  20,  10, -14,
        -14,   6,  16,  20,  20,  16,   6, -14,
        -20,   0,  10,  12,  12,  10,   0, -20,
        -30, -16,  -2,   4,   4,  -2, -16, -30,
        -56, -26, -20, -16, -16, -20, -26, -56,
    ],
    [
        -50, -36, -26, -20, -20, -26, -36, -50,
        -34, -16,  -6,   0,   0,  -6, -16, -34,
        -24,  -4,  10,  15,  15,  10,  -4, -24,
        -20,   0,  15,  21,  21,  15,   0, -20,
        -20,   0,  15,  21,  21,  15,   0, -20,
        -24,  -4,  10,  15,  15,  10,  -4, -24,
        -34, -16,  -6,   0,   0,  -6, -16, -34,
        -50, -36, -26, -20, -20, -26, -36, -50,
    ],
);

/// Bishops: long diagonals and the squares in front of the own pawns.
#[rustfmt::skip]
pub const BISHOP: (Table, Table) = (
    [
        -20, -10, -10, -10, -10, -10, -10, -20,
        -10,   0,   0,   2,   2,   0,   0, -10,
        -10,   4,   6,  10,  10,   6,   4, -10,
         -6,  10,   6,  12,  12,   6,  10,  -6,
         -6,   6,  12,  12,  12,  12,   6,  -6,
          0,  10,  10,  10,  10,  10,  10,   0,
          0,  14,   6,   4,   4,   6,  14,   0,
        -16,  -6, -12,  -6,  -6, -12,  -6, -16,
    ],
    [
        -16, -10,  -8,  -6,  -6,  -8, -10, -16,
        -10,  -4,   0,   2,   2,   0,  -4, -10,
         -8,   0,   5,   6,   6,   5,   0,  -8,
         -6,   2,   6,  10,  10,   6,   2,  -6,
         -6,   2,   6,  10,  10,   6,   2,  -6,
         -8,   0,   5,   6,   6,   5,   0,  -8,
        -10,  -4,   0,   2,   2,   0,  -4, -10,
        -16, -10,  -8,  -6,  -6,  -8, -10, -16,
    ],
);

/// Rooks: the seventh rank, the central files, not the corners of the own half.
#[rustfmt::skip]
pub const ROOK: (Table, Table) = (
    [
          6,   6,   8,  10,  10,   8,   6,   6,
         20,  24,  26,  26,  26,  26,  24,  20,
          0,   4,   6,   6,   6,   6,   4,   0,
         -6,   0,   0,   2,   2,   0,   0,  -6,
         -8,  -2,   0,   0,   0,   0,  -2,  -8,
        -10,  -4,  -2,   0,   0,  -2,  -4, -10,
        -16,  -6,  -2,   0,   0,  -2,  -6, -16,
         -6,  -4,   4,  10,  10,   6,  -4,  -6,
    ],
    [
          8,   8,   8,   8,   8,   8,   8,   8,
         14,  14,  14,  14,  14,  14,  14,  14,
          4,   4,   4,   4,   4,   4,   4,   4,
          0,   0,   2,   2,   2,   2,   0,   0,
          0,   0,   2,   2,   2,   2,   0,   0,
         -2,   0,   0,   0,   0,   0,   0,  -2,
         -4,  -2,   0,   0,   0,   0,  -2,  -4,
         -6,  -2,   0,   2,   2,   0,  -2,  -6,
    ],
);

/// Queens: not out too early, central late.
#[rustfmt::skip]
pub const QUEEN: (Table, Table) = (
    [
        -20, -10, -10,  -6,  -6, -10, -10, -20,
        -10, -12,  -6,  -4,  -4,  -6, -12, -10,
        -10,  -6,   0,   0,   0,   0,  -6, -10,
         -6,   0,   3,   4,   4,   3,   0,  -6,
         -6,   0,   4,   6,   6,   4,   0,  -6,
         -8,   2,   4,   4,   4,   4,   2,  -8,
        -10,   0,   4,   2,   2,   0,   0, -10,
        -20, -10,  -8,   2,  -4, -10, -10, -20,
    ],
    [
        -30, -20, -14, -10, -10, -14, -20, -30,
        -20,  -8,   0,   4,   4,   0,  -8, -20,
        -14,   0,  10,  14,  14,  10,   0, -14,
        -10,   4,  14,  20,  20,  14,   4, -10,
        -10,   4,  14,  20,  20,  14,   4, -10,
        -14,   0,  10,  14,  14,  10,   0, -14,
        -20,  -8,   0,   4,   4,   0,  -8, -20,
        -30, -20, -14, -10, -10, -14, -20, -30,
    ],
);

/// The king: castled behind its pawns in the middle game, in the centre in the end game.
#[rustfmt::skip]
pub const KING: (Table, Table) = (
    [
        -60, -60, -60, -65, -65, -60, -60, -60,
        -55, -55, -55, -60, -60, -55, -55, -55,
        -50, -50, -50, -55, -55, -50, -50, -50,
        -45, -45, -48, -52, -52, -48, -45, -45,
        -40, -42, -45, -50, -50, -45, -42, -40,
        -25, -30, -32, -38, -38, -32, -30, -25,
          2,   2,  -8, -20, -20, -10,   6,   6,
         16,  30,  12, -10,   0, -10,  34,  22,
    ],
    [
        -60, -42, -32, -26, -26, -32, -42, -60,
        -36, -16,  -6,   0,   0,  -6, -16, -36,
        -26,  -4,  14,  20,  20,  14,  -4, -26,
        -20,   0,  20,  30,  30,  20,   0, -20,
        -20,   0,  20,  30,  30,  20,   0, -20,
        -26,  -4,  14,  20,  20,  14,  -4, -26,
        -36, -16,  -6,   0,   0,  -6, -16, -36,
        -60, -42, -32, -26, -26, -32, -42, -60,
    ],
);

/// The tables by cozy-chess piece order: pawn, knight, bishop, rook, queen, king.
pub const TABLES: [&(Table, Table); 6] = [&PAWN, &KNIGHT, &BISHOP, &ROOK, &QUEEN, &KING];

/// The plain evaluation's centre bonus (the seed program's design): the four central
/// squares, then the ring around them.
#[rustfmt::skip]
pub const CENTRE: Table = [
    0, 0, 0,  0,  0, 0, 0, 0,
    0, 0, 0,  0,  0, 0, 0, 0,
    0, 0, 5,  5,  5, 5, 0, 0,
    0, 0, 5, 12, 12, 5, 0, 0,
    0, 0, 5, 12, 12, 5, 0, 0,
    0, 0, 5,  5,  5, 5, 0, 0,
    0, 0, 0,  0,  0, 0, 0, 0,
    0, 0, 0,  0,  0, 0, 0, 0,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_where_they_should_be() {
        // Knights, bishops' end game and kings' end game: the same on mirrored files.
        for t in [&KNIGHT.1, &BISHOP.1, &KING.1, &QUEEN.1, &CENTRE] {
            for sq in 0..64 {
                assert_eq!(t[sq], t[sq ^ 7], "{sq}");
            }
        }
        for t in [&PAWN.0, &PAWN.1] {
            assert!(t[..8].iter().chain(&t[56..]).all(|&v| v == 0));
        }
    }
}
