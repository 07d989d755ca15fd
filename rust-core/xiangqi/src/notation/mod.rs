//! Move notations. Each is parsed apart from legality: parsing a string gives a syntactic
//! value (a parse error if the text is malformed), and resolving it against a position
//! gives a [`Move`](crate::Move) (an [`IllegalMove`] error if no legal move matches).
//!
//! * [`Iccs`] — coordinates, `h2e2` (ICCS/UCI; files a–i from Red's left, ranks 0–9 from
//!   Red's side; `H2-E2` is also read).
//! * [`Wxf`] — WXF, `C2.5`, `H8+7`, `C+.5`, `13.2` (module [`wxf`]).
//! * [`Chinese`] — `炮二平五`, `马8进7`, `前炮平五` (module [`chinese`]).
//!
//! WXF and Chinese tell a move from the mover's seat (files 1–9 from the mover's right,
//! forward / backward / sideways, front and rear of like pieces on a file); they share
//! [`Direction`]. Chinese names the moving piece with an [`Origin`] (file, or a [`Place`]
//! among like pieces on a file), WXF with the narrower [`WxfOrigin`]. Each writer
//! (`from_move`) gives a text that its parser reads back as the same move, for every legal
//! move; the WXF writer reproduces Fairy-Stockfish's WXF but for `.` in place of its `=`.
//! An illegal move says why in a player's words (the piece in the way, the rule broken).
//!
//! ```
//! use banco_xiangqi::{Iccs, Position};
//! let pos = Position::startpos();
//! let iccs: Iccs = "h2e2".parse().unwrap();
//! assert!(iccs.to_move(&pos).is_ok());
//! let far: Iccs = "h2h8".parse().unwrap(); // well-formed, but not legal here
//! assert!(far.to_move(&pos).is_err());
//! assert!("h2".parse::<Iccs>().is_err()); // malformed
//! ```

mod any;
pub mod chinese;
mod iccs;
mod relative;
mod why;
pub mod wxf;

pub use any::{MoveTextError, parse_any};
pub use chinese::{Chinese, ParseChineseError};
pub use iccs::{Iccs, ParseIccsError};
pub use relative::{Direction, Origin, Place};
pub use wxf::{ParseWxfError, Wxf, WxfOrigin};

/// A well-formed move that is not legal in the position it was resolved against.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text} is not a legal move here{}", reason.as_deref().map(|r| format!(": {r}")).unwrap_or_default())]
pub struct IllegalMove {
    /// The move as written.
    pub text: String,
    /// Why, when it can be told (e.g. "no piece on h5", "two rooks fit; say which").
    pub reason: Option<String>,
}

/// Why a move to `to` cannot be made when the side to move has a piece there:
/// "d0 is taken by your own advisor".
pub(crate) fn taken_by_own(pos: &crate::Position, to: crate::Square) -> Option<String> {
    pos.piece_at(to)
        .filter(|p| p.color == pos.side_to_move())
        .map(|p| format!("{to} is taken by your own {}", p.kind.name()))
}

impl IllegalMove {
    /// An illegal move with a reason.
    #[must_use]
    pub fn new(text: impl Into<String>, reason: impl Into<String>) -> IllegalMove {
        IllegalMove {
            text: text.into(),
            reason: Some(reason.into()),
        }
    }
}
