//! Where the balls of completed lines come from: plays the bench's seeded games and
//! counts, for every ball a move's line removes, how often it was moved since it landed
//! (0: it landed in place), and how many moves without a line moved a ball that never
//! ended in a line (wasted). Holding the ball count needs 5/3 moves without a line per line.
//! Its last line before the summary splits the points by the balls a move or a landing
//! removed at once (the score table pays 42 for nine balls against 2 × 10 for two fives).
//!
//! ```text
//! nice cargo run --release -p banco-lines --example ball_use -- 100 1 1
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
    // moved[k]: balls removed by a move's line that had been moved k times (3 = 3+).
    let mut moved = [0u64; 4];
    let (mut lines, mut quiet, mut landing_removed, mut wasted) = (0u64, 0u64, 0u64, 0u64);
    // Moves (and landings) that removed k balls at once, and their points (k ≥ 10 as 10).
    let mut by_size = [(0u64, 0u64); 11];
    let mut results = Vec::new();
    let start = Instant::now();
    for seed in run.first..run.first + run.games {
        // Times the ball on each cell was moved, and whether each move's ball was used.
        let mut count = [0u8; CELLS];
        // Non-scoring moves whose ball is still on the board (pending), by cell.
        let mut pending = [0u8; CELLS];
        let played = run.play(seed, |turn| {
            let (r, f, t) = (turn.report, turn.mv.from.index(), turn.mv.to.index());
            count[t] = count[f].saturating_add(1);
            pending[t] = pending[f];
            count[f] = 0;
            pending[f] = 0;
            if r.cleared.is_empty() {
                quiet += 1;
                pending[t] += 1;
            } else {
                lines += 1;
                for c in r.cleared.iter() {
                    moved[usize::from(count[c.index()].min(3))] += 1;
                    count[c.index()] = 0;
                    pending[c.index()] = 0;
                }
            }
            let removed = r.cleared.len() + r.cleared_by_landing.len();
            if removed > 0 {
                let entry = &mut by_size[removed.min(10)];
                entry.0 += 1;
                entry.1 += u64::from(r.points);
            }
            for &(c, _) in &r.landed {
                count[c.index()] = 0;
                pending[c.index()] = 0;
            }
            for c in r.cleared_by_landing.iter() {
                landing_removed += 1;
                count[c.index()] = 0;
                pending[c.index()] = 0;
            }
        });
        wasted += pending.iter().map(|&p| u64::from(p)).sum::<u64>();
        results.push((played.score, played.turns));
    }
    let removed: u64 = moved.iter().sum();
    println!(
        "lines {lines} quiet_moves {quiet} quiet_per_line {:.3} landing_removed {landing_removed}",
        quiet as f64 / lines as f64
    );
    println!(
        "per line: balls moved 0x {:.3} 1x {:.3} 2x {:.3} 3+x {:.3} (of {:.3})",
        moved[0] as f64 / lines as f64,
        moved[1] as f64 / lines as f64,
        moved[2] as f64 / lines as f64,
        moved[3] as f64 / lines as f64,
        removed as f64 / lines as f64
    );
    println!(
        "quiet moves whose ball was on the board at the end: {wasted} ({:.3} per line)",
        wasted as f64 / lines as f64
    );
    let all_points: u64 = by_size.iter().map(|&(_, p)| p).sum();
    let sizes: Vec<String> = (5..=10)
        .filter(|&k| by_size[k].0 > 0)
        .map(|k| {
            let (n, p) = by_size[k];
            let share = p as f64 / all_points.max(1) as f64;
            format!(
                "{k}{}: {n} ({share:.3} of points)",
                if k == 10 { "+" } else { "" }
            )
        })
        .collect();
    println!("balls removed at once: {}", sizes.join(", "));
    println!(
        "{}",
        Summary::of(&results, start.elapsed().as_secs_f64() * 1000.0)
    );
}
