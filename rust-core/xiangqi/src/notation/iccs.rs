//! Coordinate notation (ICCS / UCI): `h2e2`.

use super::IllegalMove;
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
            Some(p) if pos.is_pseudo_legal(mv) => IllegalMove::new(
                text,
                format!(
                    "moving the {} would leave your king in check",
                    p.kind.name()
                ),
            ),
            Some(p) => IllegalMove::new(text, format!("a {} cannot move like that", p.kind.name())),
        })
    }
}

impl FromStr for Move {
    type Err = ParseIccsError;
    fn from_str(s: &str) -> Result<Move, ParseIccsError> {
        s.parse::<Iccs>().map(|i| i.0)
    }
}
