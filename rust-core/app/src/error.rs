//! The errors of banco-app, one small enum per purpose. Each says what is wrong in words
//! a player can act on, and a refused action changes nothing.
//!
//! ```
//! use banco_app::computer::{ActionError, Settings, VsComputer};
//! use banco_app::error::MoveError;
//! use banco_game::{Color, GameKind, MatchGame};
//!
//! let mut vs = VsComputer::new(Settings::new(GameKind::Xiangqi, Color::Red, 1)?)?;
//! let before = vs.game().fen();
//! let err = vs.play_text("a0a5").unwrap_err(); // the pawn on a3 is in the way
//! assert!(matches!(err, ActionError::Move(MoveError::Illegal(_))));
//! println!("{err}"); // why, in words
//! assert_eq!(vs.game().fen(), before, "nothing was played");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

/// Why a move could not be read or played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move in any notation of this game.
    #[error("`{text}` is not a move: write {hint}")]
    Unreadable {
        /// What was typed (cut to 64 characters).
        text: String,
        /// The notations the game reads, with an example each.
        hint: &'static str,
    },
    /// A well-formed move that is not legal in this position (with the reason).
    #[error("{0}")]
    Illegal(String),
    /// A square index off the board.
    #[error("that square is not on the board")]
    OffBoard,
    /// The notation is not one of this game's.
    #[error("{notation} notation is not used in {game}")]
    WrongNotation {
        /// The notation's name.
        notation: &'static str,
        /// The game's name.
        game: &'static str,
    },
    /// The game is over.
    #[error("the game is over ({0})")]
    GameOver(String),
    /// A promotion piece the pending promotion does not offer (the choice stays pending).
    #[error("a pawn cannot become a {piece}: choose {choices}")]
    NotAChoice {
        /// The piece asked for.
        piece: &'static str,
        /// The pieces offered, in words (`knight, bishop, rook or queen`).
        choices: String,
    },
}
