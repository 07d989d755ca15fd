//! `banco play --game jieqi` from a script: face-down pieces and pools drawn, reveals
//! announced, undo that cannot draw again, save and load replaying the reveals; and
//! `banco uci` switched to jieqi by `UCI_Variant`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use common::{banco_stdin, last_line};

#[test]
fn play_jieqi_from_a_script() {
    let dir = crate::common::fresh_dir("jieqi-play");
    let file = dir.join("game.banco");
    let path = file.to_str().unwrap();
    let script = format!("h2e2\nundo\nh2e2\nsave {path}\nload {path}\nfen\nquit\n");
    let args = [
        "play",
        "--game",
        "jieqi",
        "--seed",
        "7",
        "--level",
        "1",
        // A move time the level's node cap always ends first: with the seed, the
        // computer's reply repeats (in 20 ms a loaded machine could cut its search short,
        // and a king step reveals nothing).
        "--movetime",
        "5000",
        "--no-color",
    ];
    let out = banco_stdin(&args, &script);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    // The start: thirty face-down pieces, both pools full.
    assert_eq!(
        text.lines()
            .take(14)
            .map(|l| l.matches('Ｘ').count() + l.matches('ｘ').count())
            .sum::<usize>(),
        30,
        "{text}"
    );
    assert!(
        text.contains("red pool (15, 15 face down): A2 B2 N2 R2 C2 P5"),
        "{text}"
    );
    // The reveal, announced; undo and the same step turn up the same piece.
    let reveals: Vec<&str> = text
        .lines()
        .filter(|l| l.trim_start().starts_with("cannon h2 revealed: "))
        .collect();
    assert_eq!(reveals.len(), 2, "{text}");
    assert_eq!(reveals[0], reveals[1]);
    assert!(text.contains("red pool (14, 14 face down)"), "{text}");
    assert!(text.contains("banco plays "), "{text}");
    // Two steps, each with its reveal: two moves, as a player counts them.
    assert!(
        text.contains(&format!("loaded {path}: 1 move (2 plies)")),
        "{text}"
    );
    // The FEN after loading: Red to move, 14 face-down pieces a side, pools of 14.
    let fen = text
        .lines()
        .find(|l| l.split('/').count() == 10 && l.contains(" w "))
        .unwrap_or_else(|| panic!("{text}"));
    let board = fen.split(' ').next().unwrap();
    assert_eq!(board.matches('X').count(), 14, "{fen}");
    assert_eq!(board.matches('x').count(), 14, "{fen}");
    assert!(fen.contains(" w "), "{fen}");
    assert!(last_line(&out).ends_with("quit"), "{}", last_line(&out));
    // `pgn export -o NAME.txt` writes Banco's text, as `save NAME.txt` does (jieqi has no
    // PGN); it loads back as the same game.
    let txt = dir.join("game.txt");
    let out = banco_stdin(&["pgn", "export", path, "-o", txt.to_str().unwrap()], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let exported = std::fs::read_to_string(&txt).unwrap();
    assert!(exported.starts_with("[Game \"jieqi\"]"), "{exported}");
    let out = banco_stdin(&args, &format!("load {}\nquit\n", txt.display()));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("loaded {}: 1 move (2 plies)", txt.display())),
        "{text}"
    );
    // Without `.txt`, PGN still: refused for jieqi, saying what to do.
    let out = banco_stdin(&["pgn", "export", path], "");
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn uci_plays_jieqi_when_asked() {
    let out = banco_stdin(
        &["uci"],
        "uci\nsetoption name UCI_Variant value jieqi\nisready\nposition fen xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2A2C2P5N2B2r2a2c2p5n2b2 0 1\ngo depth 2\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("var jieqi"), "{text}");
    let best = text
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("{text}"));
    assert_eq!(best.split_whitespace().next().unwrap().len(), 4, "{text}");
}
