//! Every row of the reference perft tables: xiangqi (Fairy-Stockfish counts,
//! cross-checked), chess (Stockfish counts) and jieqi (a reveal counts one child per
//! distinct kind in the mover's pool).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use banco_chess::Chess;
use banco_xiangqi::{fen, perft};

#[test]
fn perft_table() {
    let rows = banco_tests::read_tsv("perft/xiangqi.tsv").expect("perft table");
    assert!(rows.len() >= 100, "perft table has {} rows", rows.len());
    let mut failures = Vec::new();
    for row in &rows {
        let mut pos = fen::parse(&row["fen"]).unwrap_or_else(|e| panic!("{}: {e}", row["label"]));
        let depth: u32 = row["depth"].parse().expect("depth");
        let want: u64 = row["nodes"].parse().expect("nodes");
        let got = perft::perft(&mut pos, depth);
        if got != want {
            failures.push(format!(
                "{} depth {depth}: got {got}, want {want}",
                row["label"]
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
}

/// Every chess row, through the `Game` make/unmake path and the fast board path (with bulk
/// counting at the last ply both take about 2.5 s in all at the test profile's opt-level 3,
/// most of it kiwipete depth 5 with 193 M nodes, so no row needs to be left to an ignored
/// test).
#[test]
fn chess_perft_table() {
    let rows = banco_tests::read_tsv("perft/chess.tsv").expect("chess perft table");
    assert!(
        rows.len() >= 39,
        "chess perft table has {} rows",
        rows.len()
    );
    let mut failures = Vec::new();
    for row in &rows {
        let mut game =
            Chess::from_fen(&row["fen"]).unwrap_or_else(|e| panic!("{}: {e}", row["label"]));
        let depth: u32 = row["depth"].parse().expect("depth");
        let want: u64 = row["nodes"].parse().expect("nodes");
        let got = banco_chess::perft::perft(&mut game, depth);
        let fast = banco_chess::perft::perft_board(game.board(), depth);
        if got != want || fast != want {
            failures.push(format!(
                "{} depth {depth}: got {got} (board path {fast}), want {want}",
                row["label"]
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "chess perft mismatches:\n{}",
        failures.join("\n")
    );
}

/// Every jieqi row (under a second at the test profile's opt-level 3, depth 3 included).
#[test]
fn jieqi_perft_table() {
    use banco_xiangqi::jieqi::{JieqiPosition, perft};
    let rows = banco_tests::read_tsv("perft/jieqi.tsv").expect("jieqi perft table");
    assert!(rows.len() >= 6, "jieqi perft table has {} rows", rows.len());
    let mut failures = Vec::new();
    for row in &rows {
        let depth: u32 = row["depth"].parse().expect("depth");
        let mut pos = JieqiPosition::from_fen(&row["fen"])
            .unwrap_or_else(|e| panic!("{}: {e}", row["label"]));
        let want: u64 = row["nodes"].parse().expect("nodes");
        let hash = pos.hash();
        let got = perft::perft(&mut pos, depth);
        assert_eq!(pos.hash(), hash, "{}: perft changed the hash", row["label"]);
        if got != want {
            failures.push(format!(
                "{} depth {depth}: got {got}, want {want}",
                row["label"]
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "jieqi perft mismatches:\n{}",
        failures.join("\n")
    );
}
