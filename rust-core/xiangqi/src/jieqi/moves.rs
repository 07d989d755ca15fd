//! [`JieqiMove`]: a step of a piece, or the identity drawn for a face-down piece that has
//! just moved (the chance outcome of a reveal), with its text and `u16` wire forms.
//!
//! ```
//! use banco_xiangqi::jieqi::JieqiMove;
//! use banco_xiangqi::PieceKind;
//! let step: JieqiMove = "h2e2".parse().unwrap();
//! assert_eq!(step.to_wire(), 25 * 90 + 22); // as in xiangqi: from × 90 + to
//! let reveal: JieqiMove = "=R".parse().unwrap();
//! assert_eq!(reveal, JieqiMove::Reveal(PieceKind::Rook));
//! assert_eq!(reveal.to_string(), "=R");
//! assert_eq!(reveal.to_wire(), 8100 + 4);
//! assert_eq!(JieqiMove::from_wire(8104), Some(reveal));
//! assert_eq!(JieqiMove::from_wire(8100), None); // no king is ever face down
//! ```

use crate::moves::Move;
use crate::piece::{Piece, PieceKind};
use core::fmt;
use core::str::FromStr;

/// First wire code of a reveal: `REVEAL_BASE + kind` (advisor 1 … pawn 6, the order of
/// [`PieceKind`]); steps use `from × 90 + to` (0–8099) like xiangqi.
pub const REVEAL_BASE: u16 = 8100;

/// A jieqi move: a step, or the chance outcome that reveals the face-down piece that has
/// just moved. The default value is the null step (a0a0), never legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JieqiMove {
    /// A piece goes from one square to another (a face-down one is then revealed).
    Step(Move),
    /// The face-down piece that has just moved turns out to be of this kind (never a
    /// king).
    Reveal(PieceKind),
}

impl Default for JieqiMove {
    fn default() -> Self {
        JieqiMove::Step(Move::default())
    }
}

// Face-down pieces move as the xiangqi piece of their square and revealed advisors and
// elephants have at most four moves each, so xiangqi's bound holds.
banco_game::list_capacity!(JieqiMove, 128);

impl JieqiMove {
    /// Wire code: a step `from × 90 + to` (0–8099), a reveal [`REVEAL_BASE`]` + kind`.
    #[must_use]
    pub fn to_wire(self) -> u16 {
        match self {
            JieqiMove::Step(m) => m.to_wire(),
            JieqiMove::Reveal(k) => REVEAL_BASE + k as u16,
        }
    }

    /// Decodes a wire code (syntax only: legality is checked against a position).
    #[must_use]
    pub fn from_wire(code: u16) -> Option<JieqiMove> {
        if code >= REVEAL_BASE {
            let k = PieceKind::from_index(u8::try_from(code - REVEAL_BASE).ok()?)?;
            (k != PieceKind::King).then_some(JieqiMove::Reveal(k))
        } else {
            Move::from_wire(code).map(JieqiMove::Step)
        }
    }

    /// The step, if this is one.
    #[must_use]
    pub fn step(self) -> Option<Move> {
        match self {
            JieqiMove::Step(m) => Some(m),
            JieqiMove::Reveal(_) => None,
        }
    }
}

impl From<Move> for JieqiMove {
    fn from(m: Move) -> Self {
        JieqiMove::Step(m)
    }
}

impl fmt::Display for JieqiMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JieqiMove::Step(m) => write!(f, "{m}"),
            JieqiMove::Reveal(k) => write!(f, "={}", k.letter()),
        }
    }
}

/// Error parsing a [`JieqiMove`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a jieqi move: expected a step like h2e2 or a reveal like =R (A, B, N, R, C or P)"
)]
pub struct ParseJieqiMoveError(pub String);

impl FromStr for JieqiMove {
    type Err = ParseJieqiMoveError;
    fn from_str(s: &str) -> Result<JieqiMove, ParseJieqiMoveError> {
        let bad = || ParseJieqiMoveError(s.to_owned());
        let t = s.trim();
        if let Some(letter) = t.strip_prefix('=') {
            let mut chars = letter.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                return Err(bad());
            };
            let kind = Piece::from_fen_char(c).ok_or_else(bad)?.kind;
            return if kind == PieceKind::King {
                Err(bad())
            } else {
                Ok(JieqiMove::Reveal(kind))
            };
        }
        t.parse::<crate::notation::Iccs>()
            .map(|i| JieqiMove::Step(i.0))
            .map_err(|_| bad())
    }
}
