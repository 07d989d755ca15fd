//! The reference puzzles (`tests/data/puzzles/xiangqi-mates.tsv`): every one solved with
//! a mate no longer than its `mate_in` column. The quick ones run in CI; the whole file is
//! `#[ignore]`d as slow (run with `cargo test --release -- --ignored`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers of tests

use banco_engine::solve::{SolveOptions, solve_fen};
use banco_game::{Game, MoveList};
use banco_xiangqi::Xiangqi;
use std::time::Duration;

struct Puzzle {
    name: String,
    fen: String,
    mate_in: u32,
}

fn puzzles() -> Vec<Puzzle> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/puzzles/xiangqi-mates.tsv"
    );
    let text = std::fs::read_to_string(path).expect("the puzzle file");
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Some(Puzzle {
                name: f.first()?.to_string(),
                fen: f.get(1)?.to_string(),
                mate_in: f.get(2)?.parse().ok()?,
            })
        })
        .collect()
}

fn check(p: &Puzzle) {
    let options = SolveOptions {
        max_mate: p.mate_in,
        time_limit: Some(Duration::from_secs(60)),
        ..SolveOptions::default()
    };
    let r = solve_fen::<Xiangqi>(&p.fen, &options).unwrap();
    let mate = r
        .mate
        .unwrap_or_else(|| panic!("{}: no mate found", p.name));
    assert!(mate <= p.mate_in, "{}: mate {mate} > {}", p.name, p.mate_in);
    // The line is legal and ends with the defender unable to move (or caught by the
    // repetition rule).
    let mut game = Xiangqi::from_fen(&p.fen).unwrap();
    for &mv in &r.line {
        game.play(mv).unwrap_or_else(|e| panic!("{}: {e}", p.name));
    }
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    assert!(
        moves.is_empty() || r.line.len() < 2 * mate as usize - 1,
        "{}: line {:?}",
        p.name,
        r.line
    );
}

#[test]
fn quick_puzzles() {
    let all = puzzles();
    assert!(all.len() >= 15);
    for p in all.iter().filter(|p| p.mate_in <= 6) {
        check(p);
    }
}

#[test]
#[ignore = "slow: run with cargo test --release -- --ignored"]
fn every_puzzle() {
    for p in &puzzles() {
        check(p);
    }
}
