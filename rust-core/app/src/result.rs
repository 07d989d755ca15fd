//! How a game's end reads from a player's side: "You won: checkmate", "You lost: …",
//! "Draw: threefold repetition", or for onlookers "White won: resignation".
//!
//! ```
//! use banco_app::result::{result_text, saved_summary};
//! use banco_game::{Color, GameKind, Outcome, WinReason};
//! let o = Outcome::Win { winner: Color::Black, reason: WinReason::Checkmate };
//! assert_eq!(result_text(GameKind::Xiangqi, o, Some(Color::Black)), "You won: checkmate");
//! assert_eq!(result_text(GameKind::Chess, o, Some(Color::Red)), "You lost: checkmate");
//! assert_eq!(result_text(GameKind::Chess, o, None), "Black won: checkmate");
//! assert_eq!(saved_summary(GameKind::Chess, Some(o), 1), "Chess · 0-1 checkmate · 1 ply");
//! assert_eq!(saved_summary(GameKind::Xiangqi, None, 12), "Xiangqi · unfinished · 12 plies");
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

/// A saved game in a list of saved games: its game, how it ended (`0-1 resignation`, or
/// `unfinished`) and its length in plies (`Chess · 0-1 resignation · 12 plies`, `1 ply`).
#[must_use]
pub fn saved_summary(kind: GameKind, outcome: Option<Outcome>, plies: u32) -> String {
    let name = kind.name();
    let mut game = name.chars();
    let game: String = game
        .next()
        .map(|c| c.to_uppercase().chain(game).collect())
        .unwrap_or_default();
    let ending = outcome.map_or_else(|| "unfinished".to_owned(), |o| o.to_string());
    let unit = if plies == 1 { "ply" } else { "plies" };
    format!("{game} · {ending} · {plies} {unit}")
}

#[cfg(test)]
mod tests {
    use super::saved_summary;
    use banco_game::{Color, GameKind, Outcome, WinReason};

    #[test]
    fn a_saved_game_reads_its_game_its_ending_and_its_plies_in_singular_or_plural() {
        let won = Outcome::Win {
            winner: Color::Red,
            reason: WinReason::Resignation,
        };
        assert_eq!(
            saved_summary(GameKind::Jieqi, Some(won), 12),
            format!("Jieqi · {won} · 12 plies")
        );
        assert_eq!(
            saved_summary(GameKind::Chess, None, 1),
            "Chess · unfinished · 1 ply"
        );
        assert_eq!(
            saved_summary(GameKind::Xiangqi, None, 0),
            "Xiangqi · unfinished · 0 plies"
        );
    }
}
