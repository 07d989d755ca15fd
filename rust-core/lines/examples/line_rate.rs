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

use banco_lines::CELLS;
use banco_lines::ai::eval::dead_balls;
use banco_lines::ai::summary::Summary;
use std::time::Instant;

/// Columns of the dead-ball table: five dead balls each, the last open-ended.
const DEAD_COLUMNS: usize = 10;

fn main() {
    let run = common::run_from_args();
    println!("{:?}", run.budget);
    let mut moves = [0u32; CELLS + 1];
    let mut lines = [0u32; CELLS + 1];
    let mut landing = [0u32; CELLS + 1];
    // Moves and lines by five-ball band and dead balls (0-4, 5-9, …, 45 or more).
    let mut by_dead = [[(0u32, 0u32); DEAD_COLUMNS]; CELLS / 5 + 1];
    let mut dead_sum = [0u64; CELLS / 5 + 1];
    let mut results = Vec::new();
    let start = Instant::now();
    for seed in run.first..run.first + run.games {
        let played = run.play(seed, |turn| {
            let (n, r) = (turn.before.ball_count(), turn.report);
            moves[n] += 1;
            lines[n] += u32::from(!r.cleared.is_empty());
            landing[n] += u32::from(!r.cleared_by_landing.is_empty());
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
    // The shares of each ball count's five-ball band.
    let mut line_share = [0.0f64; CELLS + 1];
    let mut landing_share = [0.0f64; CELLS + 1];
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
        line_share[lo..hi].fill(share(&lines));
        landing_share[lo..hi].fill(share(&landing));
    }
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
        walk_turns(&line_share, &landing_share)
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

/// The mean number of turns from five balls until the board is full, of the walk where a
/// turn on `n` balls completes a line with probability `line[n]` (five balls fewer, nothing
/// lands) and otherwise lands three balls, which complete a line with probability
/// `landing[n]` (net two fewer). Solved exactly: one linear equation per ball count.
fn walk_turns(line: &[f64; CELLS + 1], landing: &[f64; CELLS + 1]) -> f64 {
    const N: usize = CELLS + 1;
    // a · turns = b, turns[CELLS] = 0 (full).
    let mut a = vec![[0.0f64; N]; N];
    let mut b = [0.0f64; N];
    for n in 0..N {
        a[n][n] = 1.0;
        if n == CELLS {
            continue;
        }
        let (p, l) = (line[n], landing[n]);
        b[n] = 1.0;
        a[n][n.saturating_sub(5)] -= p;
        a[n][(n + 3).saturating_sub(5)] -= (1.0 - p) * l;
        a[n][(n + 3).min(CELLS)] -= (1.0 - p) * (1.0 - l);
    }
    // Gaussian elimination with partial pivoting.
    for col in 0..N {
        let pivot = (col..N)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap();
        a.swap(col, pivot);
        b.swap(col, pivot);
        let pivot_row = a[col];
        for row in col + 1..N {
            let f = a[row][col] / pivot_row[col];
            if f != 0.0 {
                for (x, p) in a[row][col..].iter_mut().zip(&pivot_row[col..]) {
                    *x -= f * p;
                }
                b[row] -= f * b[col];
            }
        }
    }
    let mut x = [0.0f64; N];
    for row in (0..N).rev() {
        let tail: f64 = (row + 1..N).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - tail) / a[row][row];
    }
    x[5]
}
