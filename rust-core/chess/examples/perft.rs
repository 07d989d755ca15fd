//! Perft from the command line, for timing the two paths against each other:
//! `cargo run --release -p banco-chess --example perft -- 6 [FEN] [--board]`.
//! Without `--board` it counts through `Game` make/unmake (the engine's path, as
//! `banco bench perft --game chess` does); with it, straight on cozy-chess boards.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use banco_chess::{Chess, perft};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let board_path = args.iter().any(|a| a == "--board");
    let mut rest = args.iter().filter(|a| *a != "--board");
    let depth: u32 = rest.next().map_or(6, |d| d.parse().expect("depth"));
    let mut game = rest
        .next()
        .map_or_else(Chess::new, |f| Chess::from_fen(f).expect("FEN"));
    let start = Instant::now();
    let nodes = if board_path {
        perft::perft_board(game.board(), depth)
    } else {
        perft::perft(&mut game, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!(
        "nodes {nodes} time {secs:.3} nps {}",
        (nodes as f64 / secs.max(1e-9)) as u64
    );
}
