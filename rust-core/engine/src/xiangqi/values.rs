//! The xiangqi piece values of the search, in one table: how a capture is ordered (most
//! valuable victim, least valuable attacker) and how an exchange is judged. Material for
//! the evaluation is a tunable weight instead ([`XiangqiParams`](super::XiangqiParams)).
//!
//! ```
//! use banco_engine::xiangqi::values::{VALUES, value};
//! use banco_xiangqi::PieceKind;
//! assert!(value(PieceKind::Rook).order > value(PieceKind::Cannon).order);
//! assert_eq!(value(PieceKind::Horse).exchange, value(PieceKind::Cannon).exchange);
//! assert_eq!(VALUES.len(), 7);
//! ```

use banco_xiangqi::PieceKind;

/// The values of one piece kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceValue {
    /// Ordering value (victims by it, attackers against it): king 1000, rook 90, cannon 45,
    /// horse 40, advisor and elephant 20, pawn 10.
    pub order: i32,
    /// Exchange value of the static exchange test (pawn 1, advisor and elephant 2, horse
    /// and cannon 4, rook 9, king large): a capture by a piece worth more than its victim
    /// is bad when the destination is defended.
    pub exchange: i32,
}

const fn v(order: i32, exchange: i32) -> PieceValue {
    PieceValue { order, exchange }
}

/// The values by [`PieceKind`] order: king, advisor, elephant, horse, rook, cannon, pawn.
pub const VALUES: [PieceValue; 7] = [
    v(1000, 100),
    v(20, 2),
    v(20, 2),
    v(40, 4),
    v(90, 9),
    v(45, 4),
    v(10, 1),
];

/// The values of `kind`.
#[inline(always)]
#[must_use]
pub const fn value(kind: PieceKind) -> PieceValue {
    VALUES[kind as usize]
}

/// Exchange values by kind code (the low three bits of a board code; code 7 never occurs
/// on a board and reads 0): an 8-entry table needs no bounds check.
pub(crate) static EXCHANGE_BY_CODE: [i32; 8] = {
    let mut t = [0; 8];
    let mut k = 0;
    while k < 7 {
        t[k] = VALUES[k].exchange;
        k += 1;
    }
    t
};
