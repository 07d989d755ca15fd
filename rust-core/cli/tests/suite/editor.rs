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
        "place\nplace R\nremove\ncastle KQ\nep -\ncastle\nplace red rook\nfen\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("`place` needs a square after the piece, like `place red rook e5`"),
        "{text}"
    );
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

/// Jieqi: face-down pieces by `X`, `x` or `COLOR face-down`, pieces captured face up leave
/// the pool, every problem is listed, there is no solver, and a legal position is played.
#[test]
fn a_jieqi_position_is_set_up_with_face_down_pieces_and_played() {
    let out = banco_stdin(
        &["edit", "--game", "jieqi", "--empty", "--no-color"],
        "place 帥 e0\nplace 將 d9\nplace X a0\nplace black face-down b7\nplace R c4\n\
         captured black rook 1\nfen\nplace x e5\nsolve\ncaptured red king 1\nremove e5\n\
         play 1 red\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("3k5/9/1x7/9/9/2R6/9/9/9/X3K4 w R1A2C2P5N2B2r1a2c2p5n2b2 0 1"),
        "{text}"
    );
    assert!(text.contains("black pool (14, 1 face down)"), "{text}");
    assert!(text.contains("captured face up: black rook 1"), "{text}");
    assert!(
        text.contains("the face-down piece on e5 is not on a home square of black"),
        "{text}"
    );
    assert!(
        text.contains("cannot solve: jieqi has no mate solver"),
        "{text}"
    );
    assert!(text.contains("a king is never captured"), "{text}");
    assert!(
        text.contains("play from here: you are red against level 1"),
        "{text}"
    );
    // A jieqi FEN with its pools is read back as it was.
    let fen =
        "xxxxkxxx1/9/1x5x1/x3x1x1x/9/9/X1X1X1X1X/1X2C4/9/XXXXKXXXX b R2A2C1P5N2B2r1a2c2p5n2b2 0 1";
    let out = banco_stdin(
        &["edit", "--game", "jieqi", "--fen", fen, "--no-color"],
        "fen\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(&format!("legal position: {fen}")), "{text}");
    assert!(text.contains("captured face up: black rook 1"), "{text}");
}

#[test]
fn a_loaded_position_keeps_its_move_counters_and_an_edit_restarts_the_clock() {
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 12 40";
    let out = banco_stdin(
        &["edit", "--fen", fen, "--no-color"],
        "fen\nremove e5\nfen\nplace R e5\nremove e5\nfen\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let fens: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("rnbakabnr/"))
        .collect();
    assert_eq!(fens, [fen, fen, &fen.replace(" 12 40", " 0 40")], "{text}");
}
