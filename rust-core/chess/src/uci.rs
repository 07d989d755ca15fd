//! UCI long algebraic notation: `e2e4`, `e7e8q`, castling `e1g1` (or `e1h1`, king takes
//! rook, as Chess960 GUIs send it).
//!
//! Parsing is apart from legality: `"e2e5".parse::<Uci>()` succeeds, and
//! [`Uci::to_move`] then says the move is not legal. Both castling forms are read;
//! [`Uci::from_move`] writes `e1g1` in standard chess and king takes rook in Chess960.
//!
//! ```
//! use banco_chess::{Chess, uci::Uci};
//! let game = Chess::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1")?;
//! let long = "e8c8".parse::<Uci>()?.to_move(&game)?;
//! assert_eq!(long.to_string(), "e8a8");            // stored as king takes rook
//! assert_eq!(Uci::from_move(&game, long).to_string(), "e8c8");
//! assert_eq!("e8a8".parse::<Uci>()?.to_move(&game)?, long);
//! assert!("e8e6".parse::<Uci>()?.to_move(&game).is_err()); // well-formed, not legal
//! assert!("e8".parse::<Uci>().is_err());                  // malformed
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::error::IllegalMove;
use crate::game::Chess;
use crate::moves::ChessMove;
use crate::role::Promotion;
use crate::square;
use core::fmt;
use core::str::FromStr;

/// A move in UCI coordinates, not yet checked against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Uci {
    /// From-square, `0..64`.
    pub from: u8,
    /// To-square, `0..64` (for castling the king's landing square or its rook's square).
    pub to: u8,
    /// The promotion piece, if any.
    pub promotion: Option<Promotion>,
}

/// Text that is not a UCI move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a UCI move: expected a from- and a to-square and maybe a promotion letter, like e2e4 or e7e8q"
)]
pub struct ParseUciError(pub String);

impl FromStr for Uci {
    type Err = ParseUciError;
    fn from_str(s: &str) -> Result<Uci, ParseUciError> {
        let err = || ParseUciError(s.to_owned());
        let t = s.trim();
        if !t.is_ascii() || !(4..=5).contains(&t.len()) {
            return Err(err());
        }
        let from = square::parse(&t[..2]).ok_or_else(err)?;
        let to = square::parse(&t[2..4]).ok_or_else(err)?;
        let promotion = match t[4..].chars().next() {
            None => None,
            Some(c) => Some(Promotion::from_char(c).ok_or_else(err)?),
        };
        if from == to {
            return Err(err());
        }
        Ok(Uci {
            from,
            to,
            promotion,
        })
    }
}

impl fmt::Display for Uci {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", ChessMove::new(self.from, self.to, self.promotion))
    }
}

impl Uci {
    /// The legal move this names in `game` (castling in either form).
    pub fn to_move(self, game: &Chess) -> Result<ChessMove, IllegalMove> {
        game.move_from_squares(self.from, self.to, self.promotion)
    }

    /// The UCI form of `mv` in `game`: castling as the king's two-square step in standard
    /// chess, as king takes rook in Chess960.
    #[must_use]
    pub fn from_move(game: &Chess, mv: ChessMove) -> Uci {
        let to = if !game.is_chess960() && game.is_castling(mv) {
            let file = if mv.to() > mv.from() { 6 } else { 2 };
            square::at(file, square::rank(mv.from())).unwrap_or(mv.to())
        } else {
            mv.to()
        };
        Uci {
            from: mv.from(),
            to,
            promotion: mv.promotion(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax() {
        let u: Uci = "e7e8Q".parse().unwrap();
        assert_eq!(u.to_string(), "e7e8q");
        for bad in [
            "", "e2", "e2e2", "e2e9", "e2e4k", "e2e4qq", "0000", "e2-e4", "é2e4",
        ] {
            assert!(bad.parse::<Uci>().is_err(), "{bad}");
        }
        assert_eq!(
            "x".parse::<Uci>().unwrap_err().to_string(),
            "`x` is not a UCI move: expected a from- and a to-square and maybe a promotion letter, like e2e4 or e7e8q"
        );
    }
}
