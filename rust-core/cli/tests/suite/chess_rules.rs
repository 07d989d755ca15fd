//! `banco perft --game chess`, `banco bench [perft] --game chess`, `banco solve`, `banco
//! match` and `banco uci` for chess: the same output contracts as for xiangqi (total last;
//! bench's last line `nodes N time S nps X`; solve's `mate N FIRSTMOVE`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;
use common::{banco, last_line};
use std::process::Command;

#[test]
fn chess_perft_prints_total_last() {
    let out = banco(&["perft", "--game", "chess", "--depth", "3"]);
    assert!(out.status.success());
    assert_eq!(last_line(&out), "8902");
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let out = banco(&[
        "perft", "--game", "chess", "--fen", kiwipete, "--depth", "2", "--divide",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().count(), 49);
    // Castling in standard UCI.
    assert!(text.contains("e1g1: ") && text.contains("e1c1: "), "{text}");
    assert_eq!(last_line(&out), "2039");
}

#[test]
fn chess_perft_bad_fen_exits_2_with_one_line() {
    let out = banco(&[
        "perft",
        "--game",
        "chess",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
        "--depth",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("FEN rank 1 has 7 files, expected 8"), "{err}");
}

#[test]
fn chess_bench_perft_last_line() {
    let out = banco(&["bench", "perft", "--game", "chess", "--depth", "4"]);
    assert!(out.status.success());
    let line = last_line(&out);
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words.len(), 6, "{line}");
    assert_eq!(
        (words[0], words[1], words[2], words[4]),
        ("nodes", "197281", "time", "nps")
    );
    assert!(
        words[3].parse::<f64>().is_ok() && words[5].parse::<u64>().is_ok(),
        "{line}"
    );
}

#[test]
fn chess_move_in_every_notation() {
    let out = banco(&["move", "--game", "chess", "Nf3"]);
    assert!(out.status.success());
    assert_eq!(last_line(&out), "uci g1f3 san Nf3");
    let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let out = banco(&["move", "--game", "chess", "--fen", castle, "e1c1"]);
    assert_eq!(last_line(&out), "uci e1c1 san O-O-O");
    let out = banco(&["move", "--game", "chess", "e2e5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("illegal move"));
    let out = banco(&["move", "--game", "go", "e4"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn chess_play_script() {
    let dir = crate::common::fresh_dir("chess-play");
    let save = dir.join("g.banco");
    let pgn = dir.join("g.pgn");
    let script = format!(
        "e4\nNf9\nundo\nd4\nsave {}\nsave {}\nnew\nload {}\nfen\nload {}\nfen\nresign\n",
        save.display(),
        pgn.display(),
        save.display(),
        pgn.display()
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_banco"))
        .args([
            "play",
            "--game",
            "chess",
            "--level",
            "1",
            "--movetime",
            "20",
            "--no-color",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Banco chess — you play white"), "{text}");
    assert!(text.contains("you play e2e4 (e4)"), "{text}");
    assert!(text.contains("♔"), "{text}");
    assert!(text.contains("`Nf9` is not a move"), "{text}");
    // The FEN after loading the binary save equals the one after loading the PGN export.
    let fens: Vec<&str> = text
        .lines()
        .filter(|l| l.contains(" w ") && l.contains('/') && !l.starts_with("result"))
        .collect();
    assert!(fens.len() >= 2, "{text}");
    assert_eq!(fens[0], fens[1]);
    assert!(
        text.contains("game over: black wins by resignation"),
        "{text}"
    );
    let export = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        export.starts_with("[Event \"Banco game\"]")
            && export.contains("[White \"Player\"]")
            && export.contains("1. d4 "),
        "{export}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn chess_search_bench_last_line() {
    let out = banco(&["bench", "--game", "chess"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("position")).count(),
        32
    );
    let line = last_line(&out);
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words.len(), 6, "{line}");
    assert_eq!((words[0], words[2], words[4]), ("nodes", "time", "nps"));
    assert!(words[1].parse::<u64>().unwrap() > 100_000, "{line}");
}

#[test]
fn chess_solve_and_match() {
    let out = banco(&[
        "solve",
        "--game",
        "chess",
        "--fen",
        "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1",
        "--max-mate",
        "3",
    ]);
    assert!(out.status.success());
    assert_eq!(last_line(&out), "mate 2 a1a6");
    let out = banco(&[
        "match",
        "--game",
        "chess",
        "--a",
        "level=10,nodes=2000",
        "--b",
        "plain,depth=2",
        "--games",
        "2",
        "--max-plies",
        "40",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("A white Italian") && text.contains("A black Italian"),
        "{text}"
    );
    assert!(last_line(&out).starts_with("W "), "{text}");
}

#[test]
fn chess_uci_answers_a_chess_gui() {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_banco"))
        .args(["uci", "--game", "chess"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"uci\nisready\nposition startpos moves e2e4 e7e5\ngo depth 5\n")
        .unwrap();
    // The end of the input is heard as `quit`: the search stops and still answers with a
    // legal move (the best found so far).
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("option name UCI_Variant type combo default chess"),
        "{text}"
    );
    let best = text.lines().find(|l| l.starts_with("bestmove ")).unwrap();
    assert_eq!(best.len(), "bestmove g1f3".len(), "{text}");
}

/// `banco play --game chess` from `fen` at level 1, `input` typed.
fn play_chess(fen: &str, input: &str) -> String {
    let out = crate::common::banco_stdin(
        &[
            "play",
            "--game",
            "chess",
            "--fen",
            fen,
            "--level",
            "1",
            "--movetime",
            "20",
            "--no-color",
        ],
        input,
    );
    crate::common::stdout(&out)
}

#[test]
fn a_draw_the_player_may_claim_is_offered() {
    // A hundred plies without a capture or a pawn move: a claim now, or with any move.
    let text = play_chess("8/8/4k3/8/8/3RK3/8/8 w - - 100 80", "claim\n");
    assert!(
        text.contains(
            "you may claim a draw (fifty-move rule): type claim, or with your next move: \
             claim MOVE with "
        ),
        "{text}"
    );
    assert!(text.contains("draw by fifty-move rule"), "{text}");
}

#[test]
fn the_computer_claims_the_draw_its_move_brings_about() {
    // Fifty moves without a capture or a pawn move are complete with the computer's
    // reply: a lone king, it claims at once.
    let text = play_chess("8/8/4k3/8/8/3RK3/8/8 w - - 98 80", "Rd2\nclaim\n");
    assert!(
        text.contains("banco claims a draw (fifty-move rule)"),
        "{text}"
    );
    assert!(text.contains("draw by fifty-move rule"), "{text}");
    assert!(text.contains("the game is over"), "{text}");
}

#[test]
fn claim_move_plays_the_move_and_claims_the_draw_it_makes() {
    // The reviewer's shuffle, one move short of the fifty: the hundredth ply is yours.
    let fen = "8/8/4k3/8/8/3RK3/8/8 w - - 99 80";
    let text = play_chess(fen, "claim Kxd3\nclaim Rd7\n");
    assert!(
        text.contains(
            "you may claim a draw with your next move: claim MOVE with Rd1, Rd2, Ra3, Rb3 \
             or 13 other moves (fifty-move rule)"
        ),
        "{text}"
    );
    assert!(text.contains("illegal move: "), "{text}");
    assert!(
        text.contains("you play d3d7 (Rd7)\nand claim a draw"),
        "{text}"
    );
    assert!(
        text.contains("game over: draw by fifty-move rule"),
        "{text}"
    );
    assert!(
        text.contains("fen 8/3R4/4k3/8/8/4K3/8/8 b - - 100 80"),
        "{text}"
    );
    // A move that makes no draw is refused and not played.
    let text = play_chess("8/8/4k3/8/8/3RK3/8/8 w - - 97 80", "claim Rd1\nfen\nhelp\n");
    assert!(
        text.contains("there is no draw to claim with Rd1: the position after it"),
        "{text}"
    );
    assert!(!text.contains("you play d3d1"), "{text}");
    assert!(
        text.contains("\n8/8/4k3/8/8/3RK3/8/8 w - - 97 80\n"),
        "{text}"
    );
    assert!(
        text.contains("claim MOVE (play MOVE, claiming the draw"),
        "{text}"
    );
}

#[test]
fn the_computer_claims_a_repetition_when_it_is_lost() {
    // The reviewer's shuffle: Black's king can only go h8-g8 and back, a rook down; its
    // fourth Kh8 brings the start position back for the third time, and it claims.
    let text = play_chess(
        "7k/7p/7P/8/8/8/8/K4R2 w - - 0 1",
        "Ka2\nKa1\nKa2\nKa1\nKa2\n",
    );
    assert!(
        text.contains("banco plays g8h8 (Kh8)")
            && text.contains("banco claims a draw (threefold repetition)"),
        "{text}"
    );
    assert!(
        text.contains("result 1/2-1/2 fen 7k/7p/7P/8/8/8/8/K4R2 w - - 8 5"),
        "{text}"
    );
    assert!(text.contains("the game is over"), "{text}");
}
