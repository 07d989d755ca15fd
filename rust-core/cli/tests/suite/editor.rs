//! `banco edit` driven as a script would: a refused command changes nothing, pieces are
//! typed as the board draws them.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;
use common::banco_stdin;

#[test]
fn a_bad_en_passant_square_changes_nothing() {
    let fen = "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2";
    let out = banco_stdin(
        &["edit", "--game", "chess", "--fen", fen, "--no-color"],
        "ep z9\nfen\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("`z9` is not a square of this board"),
        "{text}"
    );
    let fens: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("rnbqkbnr/"))
        .collect();
    assert!(!fens.is_empty(), "{text}");
    for f in fens {
        assert!(f.contains(" w KQkq d6 "), "{f}\n{text}");
    }
}

#[test]
fn pieces_are_placed_by_the_characters_the_board_draws() {
    let out = banco_stdin(
        &["edit", "--empty", "--no-color"],
        "place 帥 e0\nplace 將 d9\nplace 車 e5\nplace 俥 a0\nplace 马 i9\nplace 炮 b2\nplace R e5 e6\nplace red rook e5 e6\nplace 龍 e4\nfen\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("3k4n/9/9/9/4r4/9/9/1C7/9/R3K4 w - - 0 1"),
        "{text}"
    );
    assert_eq!(
        text.matches("`place` takes a piece and one square").count(),
        2,
        "{text}"
    );
    assert!(!text.contains("`R e5` is not a piece"), "{text}");
    assert!(text.contains("`龍` is not a piece of xiangqi"), "{text}");
    let out = banco_stdin(
        &["edit", "--game", "chess", "--empty", "--no-color"],
        "place ♕ d1\nplace ♚ e8\nfen\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("4k3/8/8/8/8/8/8/3Q4 w - - 0 1"), "{text}");
}

/// A command given too few words is told how it is said; chess's commands say so in
/// xiangqi (where they changed nothing and redrew the board).
#[test]
fn a_command_without_its_words_shows_its_usage_and_chess_commands_are_chess_only() {
    let out = banco_stdin(
        &["edit", "--no-color"],
        "place\nplace R\nremove\ncastle KQ\nep -\ncastle\nfen\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert_eq!(
        text.matches("say `place PIECE SQUARE`").count(),
        2,
        "{text}"
    );
    assert!(text.contains("say `remove SQUARE`"), "{text}");
    assert_eq!(
        text.matches("is for chess only: xiangqi has no castling or en passant")
            .count(),
        3,
        "{text}"
    );
    assert!(!text.contains("unknown command"), "{text}");
    // In chess a castle without its rights is told how it is said.
    let out = banco_stdin(&["edit", "--game", "chess", "--no-color"], "castle\nquit\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("say `castle KQkq`"), "{text}");
}
