//! Moves: a from-square and a to-square.
//!
//! ```
//! use banco_xiangqi::{Move, Square};
//! let mv = Move::new("h2".parse().unwrap(), "e2".parse().unwrap());
//! assert_eq!(mv.to_string(), "h2e2");
//! assert_eq!(Move::from_wire(mv.to_wire()), Some(mv));
//! assert_eq!(mv.to_wire(), 25 * 90 + 22);
//! ```

use crate::square::Square;
use core::fmt;

/// A move from one square to another. Whether it is legal depends on a position.
/// The default value (a0a0) is a null move that is never legal.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move {
    from: u8,
    to: u8,
}

// At most 119 pseudo-legal moves with the standard piece counts (two rooks and cannons of
// 17 targets each, two horses of 8, two advisors and elephants of 4, the king's 4, five
// pawns of 3), which every position is held to.
banco_game::list_capacity!(Move, 128);

impl Move {
    /// The move from `from` to `to`.
    #[inline]
    #[must_use]
    pub const fn new(from: Square, to: Square) -> Move {
        Move {
            from: from.to_inner(),
            to: to.to_inner(),
        }
    }

    /// Builds from internal indices.
    #[inline]
    pub(crate) const fn inner(from: u8, to: u8) -> Move {
        Move { from, to }
    }

    /// Internal from-index.
    #[inline]
    pub(crate) const fn inner_from(self) -> u8 {
        self.from
    }

    /// Internal to-index.
    #[inline]
    pub(crate) const fn to_inner(self) -> u8 {
        self.to
    }

    /// A compact 16-bit code for tables inside a program (not the wire format, which is
    /// [`Move::to_wire`]); never 0 for a real move.
    #[inline]
    #[must_use]
    pub const fn to_packed(self) -> u16 {
        ((self.from as u16) << 8) | self.to as u16
    }

    /// The move of a [`Move::to_packed`] code. Any code gives some value, which may not be
    /// a move of the board: test it with [`Position::is_legal`](crate::Position::is_legal)
    /// before playing it.
    #[inline]
    #[must_use]
    pub const fn from_packed(code: u16) -> Move {
        Move {
            from: (code >> 8) as u8,
            to: code as u8,
        }
    }

    /// Board indices (rank × 9 + file, 0–89) of the origin and destination, by table
    /// lookup (0 for the parts of a null or invalid move).
    #[inline]
    #[must_use]
    pub fn indices(self) -> (u8, u8) {
        (
            crate::tables::BOARD_INDEX[self.from as usize],
            crate::tables::BOARD_INDEX[self.to as usize],
        )
    }

    /// True for the default (null) value.
    #[inline]
    #[must_use]
    pub const fn is_null(self) -> bool {
        self.from == 0 && self.to == 0
    }

    /// Origin square.
    #[inline]
    #[must_use]
    pub const fn from(self) -> Square {
        if self.from == 0 {
            Square::from_inner(0x33)
        } else {
            Square::from_inner(self.from)
        }
    }

    /// Destination square.
    #[inline]
    #[must_use]
    pub const fn to(self) -> Square {
        if self.to == 0 {
            Square::from_inner(0x33)
        } else {
            Square::from_inner(self.to)
        }
    }

    /// Wire encoding: `from × 90 + to` (0–8099).
    #[must_use]
    pub const fn to_wire(self) -> u16 {
        self.from().index() as u16 * 90 + self.to().index() as u16
    }

    /// Decodes a wire value; `None` above 8099 or for a move that does not move.
    #[must_use]
    pub fn from_wire(code: u16) -> Option<Move> {
        let from = Square::from_index(u8::try_from(code / 90).ok()?)?;
        let to = Square::from_index((code % 90) as u8)?;
        (from != to).then(|| Move::new(from, to))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}
