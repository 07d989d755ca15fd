//! Every row of the reference perft table (Fairy-Stockfish counts, cross-checked).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

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
