//! How a game's end reads from a player's side: "You won: checkmate", "You lost: …",
//! "Draw: threefold repetition", or for onlookers "White won: resignation"; and as the
//! command line announces it ("red wins by checkmate"). A win by the other side's
//! perpetual check or chase names who did it ("You won: perpetual check by Red"):
//! "Black won: perpetual check" would read as if Black had checked.
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
use banco_game::{Color, GameKind, Outcome, WinReason};

/// The end of a game as the player of `me` reads it (`None`: an onlooker).
///
/// ```
/// use banco_app::result::result_text;
/// use banco_game::{Color, GameKind, Outcome, WinReason};
/// let o = Outcome::Win { winner: Color::Black, reason: WinReason::PerpetualCheck };
/// assert_eq!(result_text(GameKind::Xiangqi, o, Some(Color::Black)), "You won: perpetual check by Red");
/// assert_eq!(result_text(GameKind::Xiangqi, o, Some(Color::Red)), "You lost: perpetual check");
/// assert_eq!(result_text(GameKind::Xiangqi, o, None), "Black won: perpetual check by Red");
/// ```
#[must_use]
pub fn result_text(kind: GameKind, outcome: Outcome, me: Option<Color>) -> String {
    match (outcome.winner(), me) {
        (Some(w), Some(me)) if w == me => format!("You won: {}", win_reason(kind, outcome)),
        (Some(_), Some(_)) => format!("You lost: {}", outcome.reason_text()),
        (Some(w), None) => format!("{} won: {}", color_name(kind, w), win_reason(kind, outcome)),
        (None, _) => format!("Draw: {}", outcome.reason_text()),
    }
}

/// The end of a game as the command line announces it: `red wins by checkmate`, `black
/// wins: perpetual check by red`, `draw by repetition` (colours in lower case).
///
/// ```
/// use banco_app::result::announcement;
/// use banco_game::{Color, DrawReason, GameKind, Outcome, WinReason};
/// let mate = Outcome::Win { winner: Color::Red, reason: WinReason::Checkmate };
/// assert_eq!(announcement(GameKind::Xiangqi, mate), "red wins by checkmate");
/// let chase = Outcome::Win { winner: Color::Red, reason: WinReason::PerpetualChase };
/// assert_eq!(announcement(GameKind::Xiangqi, chase), "red wins: perpetual chase by black");
/// let told = Outcome::Win { winner: Color::Red, reason: WinReason::Unknown };
/// assert_eq!(announcement(GameKind::Chess, told), "white wins (the record gives no reason)");
/// let draw = Outcome::Draw { reason: DrawReason::Repetition };
/// assert_eq!(announcement(GameKind::Chess, draw), "draw by repetition");
/// ```
#[must_use]
pub fn announcement(kind: GameKind, outcome: Outcome) -> String {
    match outcome.winner() {
        Some(w) if names_the_loser(outcome) => format!(
            "{} wins: {}",
            color_name(kind, w).to_lowercase(),
            win_reason(kind, outcome).to_lowercase()
        ),
        Some(w)
            if matches!(
                outcome,
                Outcome::Win {
                    reason: WinReason::Unknown,
                    ..
                }
            ) =>
        {
            format!(
                "{} wins (the record gives no reason)",
                color_name(kind, w).to_lowercase()
            )
        }
        Some(w) => format!(
            "{} wins by {}",
            color_name(kind, w).to_lowercase(),
            outcome.reason_text()
        ),
        None => format!("draw by {}", outcome.reason_text()),
    }
}

/// Whether the reason of a win is something the loser did over and over (a perpetual
/// check or chase), to be named with the loser's colour.
fn names_the_loser(outcome: Outcome) -> bool {
    matches!(
        outcome,
        Outcome::Win {
            reason: WinReason::PerpetualCheck | WinReason::PerpetualChase,
            ..
        }
    )
}

/// The reason of a win as the winner or an onlooker reads it: "perpetual check by Red"
/// when the loser did it, else the reason's words.
fn win_reason(kind: GameKind, outcome: Outcome) -> String {
    match outcome.winner() {
        Some(w) if names_the_loser(outcome) => {
            format!(
                "{} by {}",
                outcome.reason_text(),
                color_name(kind, w.other())
            )
        }
        _ => outcome.reason_text(),
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
