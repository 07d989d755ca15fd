//! Reading a move written in any supported notation.
//!
//! ```
//! use banco_xiangqi::{notation::{parse_any, MoveTextError}, Position};
//! let pos = Position::startpos();
//! let a = parse_any(&pos, "h2e2").unwrap();
//! assert_eq!(parse_any(&pos, "C2.5").unwrap(), a);
//! assert_eq!(parse_any(&pos, "C2=5").unwrap(), a);
//! assert_eq!(parse_any(&pos, "炮二平五").unwrap(), a);
//! assert!(matches!(parse_any(&pos, "hello"), Err(MoveTextError::Unreadable(_))));
//! assert!(matches!(parse_any(&pos, "h2h8"), Err(MoveTextError::Illegal(_))));
//! ```

use super::{Chinese, Iccs, IllegalMove, Wxf};
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;

/// Why a typed move could not be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    /// The text is not a move in any notation Banco reads.
    #[error(
        "`{0}` is not a move: write coordinates (h2e2), WXF (C2.5, H8+7) or Chinese (炮二平五)"
    )]
    Unreadable(String),
    /// The text is a well-formed move that is not legal in this position.
    #[error("{0}")]
    Illegal(#[from] IllegalMove),
}

/// Reads `text` as coordinates, WXF or Chinese notation and resolves it against `pos`.
/// Syntax is tried first in that order; the first notation that reads the text decides
/// legality.
pub fn parse_any(pos: &Position, text: &str) -> Result<Move, MoveTextError> {
    let text = text.trim();
    if let Ok(iccs) = text.parse::<Iccs>() {
        return Ok(iccs.to_move(pos)?);
    }
    if let Ok(wxf) = text.parse::<Wxf>() {
        return Ok(wxf.to_move(pos)?);
    }
    if let Ok(chinese) = text.parse::<Chinese>() {
        return Ok(chinese.to_move(pos)?);
    }
    // `h2h2`: coordinates, but of no move.
    let squares = text.get(..2).zip(text.get(2..));
    if let Some((from, to)) = squares
        && let (Ok(from), Ok(to)) = (from.parse::<Square>(), to.parse::<Square>())
        && from == to
    {
        return Err(IllegalMove::new(text, "a move must change square").into());
    }
    Err(MoveTextError::Unreadable(text.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_of_no_move_say_so() {
        let err = parse_any(&Position::startpos(), "h2h2").unwrap_err();
        assert_eq!(
            err.to_string(),
            "h2h2 is not a legal move here: a move must change square"
        );
    }

    #[test]
    fn every_notation_says_the_kings_square_is_taken() {
        let pos = Position::startpos();
        for text in ["e0d0", "K5=6", "K5.6", "帅五平六", "帥5平6"] {
            let err = parse_any(&pos, text).unwrap_err();
            assert!(matches!(err, MoveTextError::Illegal(_)), "{text}: {err:?}");
            assert!(
                err.to_string()
                    .ends_with(": d0 is taken by your own advisor"),
                "{text}: {err}"
            );
        }
    }

    #[test]
    fn a_horse_moving_sideways_is_illegal_not_unreadable() {
        let pos = Position::startpos();
        for text in ["H2.3", "H2=3", "马二平三"] {
            let err = parse_any(&pos, text).unwrap_err();
            assert!(matches!(err, MoveTextError::Illegal(_)), "{text}: {err:?}");
            assert!(
                err.to_string().contains("never moves sideways"),
                "{text}: {err}"
            );
        }
        assert!(matches!(
            parse_any(&pos, "H2*3"),
            Err(MoveTextError::Unreadable(_))
        ));
    }
}
