//! Where the computer player wins or loses its games: plays the bench's seeded games
//! (`banco bench lines --games G --seed S --budget B`, the same games and samples) and
//! prints, per five-ball band of the board before each move, how many moves were played
//! there, the share that completed a line and the share whose landing completed one.
//! Holding the ball count needs 3/8 = 37.5% (three balls land per move without a line,
//! five leave per line): the band where the share falls below it is where games die.
//!
//! ```text
//! nice cargo run --release -p banco-lines --example line_rate -- 100 1 1
//! ```
//!
//! Arguments: games (100), first seed (1), budget in playouts (1), weights (`name=value`
//! pairs separated by commas, as `tune --weights`; the default weights if absent).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    missing_docs
)]

mod common;

use banco_lines::CELLS;
use banco_lines::ai::summary::Summary;
use std::time::Instant;

fn main() {
    let run = common::run_from_args();
    println!("{:?}", run.budget);
    let mut moves = [0u32; CELLS + 1];
    let mut lines = [0u32; CELLS + 1];
    let mut landing = [0u32; CELLS + 1];
    let mut results = Vec::new();
    let start = Instant::now();
    for seed in run.first..run.first + run.games {
        let played = run.play(seed, |turn| {
            let (n, r) = (turn.before.ball_count(), turn.report);
            moves[n] += 1;
            lines[n] += u32::from(!r.cleared.is_empty());
            landing[n] += u32::from(!r.cleared_by_landing.is_empty());
        });
        results.push((played.score, played.turns));
    }
    for lo in (0..CELLS).step_by(5) {
        let hi = (lo + 5).min(CELLS + 1);
        let m: u32 = moves[lo..hi].iter().sum();
        if m == 0 {
            continue;
        }
        let share = |v: &[u32]| f64::from(v[lo..hi].iter().sum::<u32>()) / f64::from(m);
        println!(
            "balls {lo:2}-{:2} moves {m:6} line {:.3} landing_line {:.3}",
            hi - 1,
            share(&lines),
            share(&landing)
        );
    }
    println!(
        "{}",
        Summary::of(&results, start.elapsed().as_secs_f64() * 1000.0)
    );
}
