//! [`ChessMove`]: a move as from- and to-square (`0..64`, a1 = 0, h8 = 63) and an optional
//! [`Promotion`], packed in 16 bits.
//!
//! ## Castling: one canonical form
//!
//! A castling move is stored as **the king taking its own rook** (`e1h1` for White's short
//! castling in standard chess, `b1a1` for a Chess960 king on b1 castling long with the rook on
//! a1) — cozy-chess's form. It is the only form that is unambiguous in Chess960 (a king on f1
//! castling short with the rook on h1 lands on g1, where a plain king step also goes), so the
//! same move value means the same thing in both variants and in every layer (search, wire,
//! saves). Legal-move lists, [`banco_game::Game::is_legal`] and [`banco_game::Game::play`] use
//! this form only.
//!
//! Input accepts both forms: the king's two-square step (`e1g1`) is turned into the
//! canonical move by [`Chess::move_from_squares`](crate::Chess::move_from_squares),
//! [`uci::Uci::to_move`](crate::uci::Uci::to_move) and the wire decoder. Output in UCI
//! ([`uci::Uci::from_move`](crate::uci::Uci::from_move), [`Chess::uci`](crate::Chess::uci))
//! writes the standard `e1g1` in standard chess and the king-takes-rook form in Chess960,
//! as UCI GUIs expect. `Display` of a bare move has no position to look at and writes the
//! stored squares, so a castling move reads `e1h1` there: use [`Chess::uci`](crate::Chess::uci)
//! for text meant for a UCI peer.
//!
//! ```
//! use banco_chess::{ChessMove, Promotion};
//! let mv = ChessMove::new(52, 60, Some(Promotion::Queen)); // e7e8q
//! assert_eq!(mv.to_string(), "e7e8q");
//! assert_eq!((mv.from(), mv.to(), mv.promotion()), (52, 60, Some(Promotion::Queen)));
//! assert_eq!(ChessMove::default().to_string(), "a1a1"); // the null value that fills buffers
//! ```

use crate::role::Promotion;
use crate::square;
use core::fmt;

/// A chess move (see the module docs for castling). `Default` is the null value `a1a1`,
/// which is never legal.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct ChessMove(u16);

banco_game::list_capacity!(ChessMove, 256);

impl ChessMove {
    /// The move from `from` to `to` (indices taken modulo 64) with an optional promotion.
    #[inline]
    #[must_use]
    pub const fn new(from: u8, to: u8, promotion: Option<Promotion>) -> ChessMove {
        let p = match promotion {
            None => 0,
            Some(p) => p as u16 + 1,
        };
        ChessMove((from & 63) as u16 | ((to & 63) as u16) << 6 | p << 12)
    }

    /// The square the piece leaves (the king's square for castling).
    #[inline]
    #[must_use]
    pub const fn from(self) -> u8 {
        (self.0 & 63) as u8
    }

    /// The square the piece goes to (the castling rook's square for castling).
    #[inline]
    #[must_use]
    pub const fn to(self) -> u8 {
        (self.0 >> 6 & 63) as u8
    }

    /// The piece a pawn becomes, if this is a promotion.
    #[inline]
    #[must_use]
    pub const fn promotion(self) -> Option<Promotion> {
        match self.0 >> 12 {
            0 => None,
            p => Promotion::from_index(p as u8 - 1),
        }
    }

    /// The same move as a cozy-chess move.
    #[inline]
    #[must_use]
    pub fn to_cozy(self) -> cozy_chess::Move {
        cozy_chess::Move {
            from: square::to_cozy(self.from()),
            to: square::to_cozy(self.to()),
            promotion: self.promotion().map(Promotion::to_cozy),
        }
    }

    /// The move of a cozy-chess move (a king or pawn "promotion", which cozy-chess never
    /// generates, is dropped).
    #[inline]
    #[must_use]
    pub fn from_cozy(mv: cozy_chess::Move) -> ChessMove {
        use cozy_chess::Piece;
        let promotion = match mv.promotion {
            Some(Piece::Knight) => Some(Promotion::Knight),
            Some(Piece::Bishop) => Some(Promotion::Bishop),
            Some(Piece::Rook) => Some(Promotion::Rook),
            Some(Piece::Queen) => Some(Promotion::Queen),
            _ => None,
        };
        ChessMove::new(
            square::from_cozy(mv.from),
            square::from_cozy(mv.to),
            promotion,
        )
    }
}

impl From<cozy_chess::Move> for ChessMove {
    fn from(mv: cozy_chess::Move) -> ChessMove {
        ChessMove::from_cozy(mv)
    }
}

impl From<ChessMove> for cozy_chess::Move {
    fn from(mv: ChessMove) -> cozy_chess::Move {
        mv.to_cozy()
    }
}

impl fmt::Display for ChessMove {
    /// The stored squares in coordinates (`e2e4`, `e7e8q`; castling as king takes rook).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&square::name(self.from()))?;
        f.write_str(&square::name(self.to()))?;
        if let Some(p) = self.promotion() {
            write!(f, "{}", p.uci_char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for ChessMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ChessMove({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip() {
        for from in 0..64u8 {
            for to in 0..64u8 {
                for p in [None]
                    .into_iter()
                    .chain(Promotion::ALL.into_iter().map(Some))
                {
                    let mv = ChessMove::new(from, to, p);
                    assert_eq!((mv.from(), mv.to(), mv.promotion()), (from, to, p));
                    assert_eq!(ChessMove::from_cozy(mv.to_cozy()), mv);
                    assert_eq!(mv.to_cozy().to_string(), mv.to_string());
                }
            }
        }
        assert_eq!(banco_game::capacity::<ChessMove>(), 256);
        assert_eq!(core::mem::size_of::<ChessMove>(), 2);
    }
}
