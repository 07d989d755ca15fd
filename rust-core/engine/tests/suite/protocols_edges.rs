//! UCI and UCCI at the edges: a table size out of range, the rule sets offered, a jieqi
//! position awaiting a reveal, a position where the game is over.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers of tests

use crate::protocols::{Mode, start, start_mode};

/// A size beyond 1–4096 MiB is taken at the nearest, and an `info string` says so; the
/// session goes on (the table is made on a thread of its own, `isready` answers).
#[test]
fn a_table_size_out_of_range_is_reported() {
    for ucci_mode in [false, true] {
        let (mut d, handle) = start(ucci_mode);
        d.send(if ucci_mode {
            "setoption hashsize 0"
        } else {
            "setoption name Hash value 0"
        });
        let said = d.expect("info string a table of 0 MiB is out of range");
        assert!(said.ends_with("(1 to 4096): using 1 MiB"), "{said}");
        d.send("isready");
        d.expect("readyok");
        d.send("position startpos moves h2e2");
        d.send("go depth 2");
        d.expect("bestmove");
        d.send("quit");
        handle.join().unwrap();
    }
}

/// The `Rules` combo offers the current game's rule sets, and each one is accepted.
#[test]
fn the_rules_offered_are_the_games_own() {
    for (mode, offered, foreign) in [
        (Mode::Uci, ["asian", "casual"], "standard"),
        (Mode::UciChess, ["standard", "auto-claim"], "asian"),
    ] {
        let (mut d, handle) = start_mode(mode);
        d.send("uci");
        let line = d.expect("option name Rules ");
        for name in offered {
            assert!(line.contains(&format!(" var {name}")), "{line}");
        }
        assert!(!line.contains(&format!(" var {foreign}")), "{line}");
        d.expect("uciok");
        let from = d.seen;
        for name in offered {
            d.send(&format!("setoption name Rules value {name}"));
        }
        d.send("isready");
        d.expect("readyok");
        assert!(
            d.lines_since(from, "info string").is_empty(),
            "{}",
            d.out.text()
        );
        d.send("quit");
        handle.join().unwrap();
    }
}

/// Jieqi: after a move that uncovers a piece, the reveal is due; `go` answers at once
/// that it is (no search of the chance node, no move).
#[test]
fn a_pending_reveal_is_named_not_searched() {
    let (mut d, handle) = start(false);
    d.send("setoption name UCI_Variant value jieqi");
    d.send("position startpos moves h2e2");
    let from = d.seen;
    d.send("go depth 3");
    d.expect("info string the position awaits a reveal");
    assert_eq!(d.expect("bestmove"), "bestmove 0000");
    assert!(
        d.lines_since(from, "info depth").is_empty(),
        "{}",
        d.out.text()
    );
    d.send("quit");
    handle.join().unwrap();
}

/// A position without a legal move: `info depth 0 score mate 0` (lost; UCCI `-30000`) or
/// `score cp 0` (a chess stalemate, drawn) before `bestmove 0000` (UCCI `nobestmove`).
#[test]
fn a_finished_game_says_how_before_no_move() {
    let mated = "position fen 3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1";
    for (mode, position, score, none) in [
        (Mode::Uci, mated, "mate 0", "bestmove 0000"),
        (Mode::Ucci, mated, "-30000", "nobestmove"),
        (
            Mode::UciChess,
            "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            "cp 0",
            "bestmove 0000",
        ),
    ] {
        let (mut d, handle) = start_mode(mode);
        d.send(position);
        d.send("go depth 5");
        assert_eq!(
            d.expect("info depth"),
            format!("info depth 0 score {score}")
        );
        assert_eq!(d.expect(none.split(' ').next().unwrap()), none);
        d.send("quit");
        handle.join().unwrap();
    }
}
