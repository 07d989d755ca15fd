//! How a game's end reads from a player's side: "You won: checkmate", "You lost: …",
//! "Draw: threefold repetition", or for onlookers "White won: resignation".
//!
//! ```
//! use banco_app::result::result_text;
//! use banco_game::{Color, GameKind, Outcome, WinReason};
//! let o = Outcome::Win { winner: Color::Black, reason: WinReason::Checkmate };
//! assert_eq!(result_text(GameKind::Xiangqi, o, Some(Color::Black)), "You won: checkmate");
//! assert_eq!(result_text(GameKind::Chess, o, Some(Color::Red)), "You lost: checkmate");
//! assert_eq!(result_text(GameKind::Chess, o, None), "Black won: checkmate");
//! ```

use crate::any::color_name;
use banco_game::{Color, GameKind, Outcome};

/// The end of a game as the player of `me` reads it (`None`: an onlooker).
#[must_use]
pub fn result_text(kind: GameKind, outcome: Outcome, me: Option<Color>) -> String {
    let why = outcome.reason_text();
    match (outcome.winner(), me) {
        (Some(w), Some(me)) if w == me => format!("You won: {why}"),
        (Some(_), Some(_)) => format!("You lost: {why}"),
        (Some(w), None) => format!("{} won: {why}", color_name(kind, w)),
        (None, _) => format!("Draw: {why}"),
    }
}
