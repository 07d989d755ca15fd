//! Where the computer player wins or loses its games: plays the bench's seeded games
//! (`banco bench lines --games G --seed S --budget B`, the same games and samples) and
//! prints, per five-ball band of the board before each move, how many moves were played
//! there, the share that completed a line and the share whose landing completed one.
//! Holding the ball count needs 3/8 = 37.5% (three balls land per move without a line,
//! five leave per line): the band where the share falls below it is where games die.
//!
//! Then the same shares split by the dead balls on the board (balls in no window of their
//! colour alone, [`banco_lines::ai::eval::dead_balls`]), with the band's mean count of
//! them: at one ball count the share falls steeply as dead balls take the board.
//!
//! Its last lines read the shares as a walk of the ball count (a line: five balls fewer and
//! no landing; otherwise three more, and five fewer again when their landing makes a line)
//! and print the turns that walk lasts on average from five balls until the board is full
//! (next to the games' own mean turns), then the same with the line share raised by 0.02
//! in one range of ball counts at a time (and from 20 balls up): where a better player
//! gains most.
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
// Shared with `tune`, which uses all of it.
#[allow(dead_code)]
#[path = "common/walk.rs"]
mod walk;

use walk::{Counts, walk_turns};

use banco_lines::CELLS;
use banco_lines::ai::eval::dead_balls;
use banco_lines::ai::summary::Summary;
use std::time::Instant;

/// Columns of the dead-ball table: five dead balls each, the last open-ended.
const DEAD_COLUMNS: usize = 10;

fn main() {
    let run = common::run_from_args();
    println!("{:?}", run.budget);
    let mut counts = Counts::default();
    // Moves and lines by five-ball band and dead balls (0-4, 5-9, …, 45 or more).
    let mut by_dead = [[(0u32, 0u32); DEAD_COLUMNS]; CELLS / 5 + 1];
    let mut dead_sum = [0u64; CELLS / 5 + 1];
    let mut results = Vec::new();
    let start = Instant::now();
    for seed in run.first..run.first + run.games {
        let played = run.play(seed, |turn| {
            counts.add(turn);
            let (n, r) = (turn.before.ball_count(), turn.report);
            let dead_n = dead_balls(turn.before).len();
            if let Some(sum) = dead_sum.get_mut(n / 5) {
                *sum += dead_n as u64;
            }
            let dead = (dead_n / 5).min(DEAD_COLUMNS - 1);
            if let Some(cell) = by_dead.get_mut(n / 5).and_then(|row| row.get_mut(dead)) {
                cell.0 += 1;
                cell.1 += u32::from(!r.cleared.is_empty());
            }
        });
        results.push((played.score, played.turns));
    }
    for (lo, hi, m, line, landing) in counts.bands() {
        println!("balls {lo:2}-{hi:2} moves {m:6} line {line:.3} landing_line {landing:.3}");
    }
    let (line_share, landing_share) = counts.shares();
    println!("line share by balls and dead balls (0-4, 5-9, ..., 45+; '-': under 30 moves):");
    for (band, row) in by_dead.iter().enumerate() {
        let m: u32 = row.iter().map(|c| c.0).sum();
        if m < 100 {
            continue;
        }
        let mean_dead = dead_sum.get(band).copied().unwrap_or(0) as f64 / f64::from(m);
        let cells: Vec<String> = row
            .iter()
            .map(|&(moves, lines)| {
                if moves < 30 {
                    "    -".to_string()
                } else {
                    format!("{:5.2}", f64::from(lines) / f64::from(moves))
                }
            })
            .collect();
        println!(
            "balls {:2}-{:2} dead {mean_dead:4.1} {}",
            5 * band,
            5 * band + 4,
            cells.join(" ")
        );
    }
    // The walk with the line share raised by 0.02 on `raise` ball counts.
    let walk = |raise: std::ops::RangeInclusive<usize>| {
        let mut line = line_share;
        for p in line.get_mut(raise).unwrap_or_default() {
            *p = (*p + 0.02).min(1.0);
        }
        walk_turns(&line, &landing_share)
    };
    let mean_turns =
        results.iter().map(|&(_, t)| f64::from(t)).sum::<f64>() / results.len().max(1) as f64;
    println!(
        "model: the walk of the ball count lasts {:.1} turns (these games: mean {mean_turns:.1})",
        counts.walk()
    );
    for (lo, hi) in [(20, 39), (40, 59), (60, 69), (70, CELLS), (20, CELLS)] {
        println!(
            "model: line share +0.02 at {lo}-{hi} balls: {:.1} turns",
            walk(lo..=hi)
        );
    }
    println!(
        "{}",
        Summary::of(&results, start.elapsed().as_secs_f64() * 1000.0)
    );
}
