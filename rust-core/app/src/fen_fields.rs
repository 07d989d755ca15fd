//! What a FEN that leaves out its trailing fields is read as, in words, so that a front end
//! can say it.
//!
//! Banco's FEN readers take a FEN whose trailing fields are missing, as python-chess's
//! `Board(fen)` and lichess do: the side to move is White (Red), a chess position has no
//! castling rights and no en-passant square, a jieqi position empty pools, the clocks 0
//! and 1. The side to move, chess's castling rights and jieqi's pools change which moves are
//! legal, so [`assumed`] names them when they are left out; the en-passant square and the
//! clocks are left out of EPD and many diagrams, and their defaults go without a word.
//!
//! ```
//! use banco_app::fen_fields::assumed;
//! use banco_game::GameKind;
//! assert_eq!(
//!     assumed(GameKind::Chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR").as_deref(),
//!     Some("the FEN gives no side to move and no castling rights: White to move and no castling assumed")
//! );
//! assert_eq!(assumed(GameKind::Chess, "8/8/8/8/8/8/8/K6k w KQ"), None);
//! assert_eq!(
//!     assumed(GameKind::Xiangqi, "4k4/9/9/9/9/9/9/9/9/4K4").as_deref(),
//!     Some("the FEN gives no side to move: Red to move assumed")
//! );
//! ```

use banco_game::GameKind;

/// The fields of `kind`'s FEN that change which moves are legal, after the placement: what
/// the field is called and what is assumed without it.
fn telling_fields(kind: GameKind) -> &'static [(&'static str, &'static str)] {
    match kind {
        GameKind::Chess => &[
            ("side to move", "White to move"),
            ("castling rights", "no castling"),
        ],
        GameKind::Xiangqi => &[("side to move", "Red to move")],
        GameKind::Jieqi => &[("side to move", "Red to move"), ("pools", "empty pools")],
        GameKind::Lines => &[],
    }
}

/// What reading `fen` as a `kind` FEN assumes for the fields that change the legal moves
/// and that it leaves out, in words; `None` when it gives them all (or gives nothing: an
/// empty FEN is refused by the readers).
#[must_use]
pub fn assumed(kind: GameKind, fen: &str) -> Option<String> {
    let given = fen.split_whitespace().count();
    if given == 0 {
        return None;
    }
    let missing = telling_fields(kind).get(given - 1..).unwrap_or(&[]);
    if missing.is_empty() {
        return None;
    }
    let names: Vec<&str> = missing.iter().map(|(name, _)| *name).collect();
    let values: Vec<&str> = missing.iter().map(|(_, value)| *value).collect();
    Some(format!(
        "the FEN gives no {}: {} assumed",
        names.join(" and no "),
        values.join(" and ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_missing_telling_fields_are_named() {
        let board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
        assert_eq!(
            assumed(GameKind::Chess, &format!("{board} b")).as_deref(),
            Some("the FEN gives no castling rights: no castling assumed")
        );
        assert_eq!(assumed(GameKind::Chess, &format!("{board} w -")), None);
        assert_eq!(
            assumed(GameKind::Chess, &format!("{board} w KQkq - 0 1")),
            None
        );
        assert_eq!(assumed(GameKind::Chess, ""), None);
        assert_eq!(
            assumed(GameKind::Xiangqi, "4k4/9/9/9/9/9/9/9/9/4K4 b"),
            None
        );
        assert_eq!(
            assumed(GameKind::Jieqi, "4k4/9/9/9/9/9/9/9/9/4K4").as_deref(),
            Some("the FEN gives no side to move and no pools: Red to move and empty pools assumed")
        );
        assert_eq!(
            assumed(GameKind::Jieqi, "4k4/9/9/9/9/9/9/9/9/4K4 w").as_deref(),
            Some("the FEN gives no pools: empty pools assumed")
        );
        assert_eq!(assumed(GameKind::Lines, "anything"), None);
    }
}
