//! `banco perft --game chess` and `banco bench perft --game chess`: the same output
//! contracts as for xiangqi (total last; bench's last line `nodes N time S nps X`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::{Command, Output};

fn banco(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_banco"))
        .args(args)
        .output()
        .expect("run banco")
}

fn last_line(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .to_owned()
}

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
