//! The errors of playing and resolving moves: [`IllegalMove`] for a well-formed move that no
//! legal move matches (from UCI, SAN or a UI's squares), [`PlayError`] for
//! [`Game::play`](banco_game::Game::play).
//!
//! ```
//! use banco_chess::{Chess, IllegalMove};
//! let game = Chess::from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")?;
//! let err = game.move_from_squares(48, 56, None).unwrap_err(); // a7a8 without a piece
//! assert!(matches!(err, IllegalMove::PromotionNeeded { .. }));
//! assert_eq!(err.to_string(), "a7a8 promotes a pawn: choose the new piece (queen, rook, bishop or knight)");
//! # Ok::<(), banco_chess::fen::FenError>(())
//! ```

use crate::moves::ChessMove;

/// A well-formed move that no legal move of the position matches.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// No legal move fits.
    #[error("{text} is not a legal move here: {reason}")]
    NoSuchMove {
        /// The move as written.
        text: String,
        /// Why, in words ("no piece on e3", "it would leave your king in check").
        reason: String,
    },
    /// Several legal moves fit (SAN without enough disambiguation).
    #[error("{text} is ambiguous: {} fit; say which", candidates.join(", "))]
    Ambiguous {
        /// The move as written.
        text: String,
        /// The legal moves that fit, in SAN.
        candidates: Vec<String>,
    },
    /// A pawn reaches the last rank but no promotion piece was given.
    #[error("{text} promotes a pawn: choose the new piece (queen, rook, bishop or knight)")]
    PromotionNeeded {
        /// The move as written.
        text: String,
    },
    /// A promotion piece was given for a move that does not promote.
    #[error("{text} is not a promotion: leave the promotion piece out")]
    NotAPromotion {
        /// The move as written.
        text: String,
    },
}

/// Why [`Game::play`](banco_game::Game::play) refused a move of a [`Chess`](crate::Chess)
/// game (the game is unchanged).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The move is not legal in the current position (castling must be given as king takes
    /// rook: see [`ChessMove`]).
    #[error("{0} is not a legal move in this position")]
    Illegal(ChessMove),
}
