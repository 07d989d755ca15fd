//! Coordinate notation (ICCS / UCI): `h2e2`.

use super::{IllegalMove, taken_by_own, why};
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;
use core::fmt;
use core::str::FromStr;

/// A move in coordinates, not yet checked against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Iccs(pub Move);

/// A string that is not coordinate notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a coordinate move: expected from- and to-square like h2e2")]
pub struct ParseIccsError(pub String);

impl FromStr for Iccs {
    type Err = ParseIccsError;
    fn from_str(s: &str) -> Result<Iccs, ParseIccsError> {
        let t = s.trim().to_ascii_lowercase();
        let t = t.replace('-', "");
        let err = || ParseIccsError(s.to_owned());
        if t.len() != 4 || !t.is_ascii() {
            return Err(err());
        }
        let from: Square = t[..2].parse().map_err(|_| err())?;
        let to: Square = t[2..].parse().map_err(|_| err())?;
        if from == to {
            return Err(err());
        }
        Ok(Iccs(Move::new(from, to)))
    }
}

impl fmt::Display for Iccs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl Iccs {
    /// The move, if legal in `pos`.
    pub fn to_move(self, pos: &Position) -> Result<Move, IllegalMove> {
        let mv = self.0;
        if pos.is_legal(mv) {
            return Ok(mv);
        }
        let text = mv.to_string();
        Err(match pos.piece_at(mv.from()) {
            None => IllegalMove::new(text, format!("no piece on {}", mv.from())),
            Some(p) if p.color != pos.side_to_move() => IllegalMove::new(
                text,
                format!("the {} on {} is not yours", p.kind.name(), mv.from()),
            ),
            Some(_) if pos.is_pseudo_legal(mv) => IllegalMove::new(text, why::exposes(pos, mv)),
            Some(p) => IllegalMove::new(
                text,
                taken_by_own(pos, mv.to())
                    .or_else(|| why::step(pos, mv.from(), mv.to()))
                    .unwrap_or_else(|| format!("a {} cannot move like that", p.kind.name())),
            ),
        })
    }
}

impl FromStr for Move {
    type Err = ParseIccsError;
    fn from_str(s: &str) -> Result<Move, ParseIccsError> {
        s.parse::<Iccs>().map(|i| i.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn why(text: &str) -> String {
        let pos = Position::startpos();
        text.parse::<Iccs>()
            .unwrap()
            .to_move(&pos)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn illegal_moves_say_why() {
        assert_eq!(
            why("e0d0"),
            "e0d0 is not a legal move here: d0 is taken by your own advisor"
        );
        assert_eq!(
            why("b0b1"),
            "b0b1 is not a legal move here: a horse cannot move like that"
        );
        assert_eq!(
            why("a0a3"),
            "a0a3 is not a legal move here: a3 is taken by your own pawn"
        );
        assert_eq!(
            why("h2h8"),
            "h2h8 is not a legal move here: the cannon's path is blocked by black's cannon on h7 \
             (a cannon jumps only to capture)"
        );
        assert_eq!(why("e4e5"), "e4e5 is not a legal move here: no piece on e4");
    }
}
