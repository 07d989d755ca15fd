//! Move notations. Each is parsed apart from legality: parsing a string gives a syntactic
//! value (a parse error if the text is malformed), and resolving it against a position
//! gives a [`Move`](crate::Move) (an [`IllegalMove`] error if no legal move matches).
//!
//! * [`Iccs`] — coordinates, `h2e2` (ICCS/UCI; files a–i from Red's left, ranks 0–9 from
//!   Red's side; `H2-E2` is also read).
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

mod iccs;

pub use iccs::{Iccs, ParseIccsError};

/// A well-formed move that is not legal in the position it was resolved against.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text} is not a legal move here{}", reason.as_deref().map(|r| format!(": {r}")).unwrap_or_default())]
pub struct IllegalMove {
    /// The move as written.
    pub text: String,
    /// Why, when it can be told (e.g. "no piece on h5", "two rooks fit; say which").
    pub reason: Option<String>,
}

impl IllegalMove {
    /// An illegal move with a reason.
    #[must_use]
    pub fn new(text: impl Into<String>, reason: impl Into<String>) -> IllegalMove {
        IllegalMove { text: text.into(), reason: Some(reason.into()) }
    }
}
