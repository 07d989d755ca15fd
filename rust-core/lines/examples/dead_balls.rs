//! Where dead balls come from: plays the bench's seeded games and counts, per band of balls
//! on the board before the move, how many balls a move and the landing after it make dead
//! (in no window of their colour alone, [`banco_lines::ai::eval::dead_balls`]) or bring
//! back. A move without a line (quiet) is judged from the board before it to the board
//! after it; its landing from there to the board before the next move; a line's move
//! revives the balls whose windows its clearing opens.
//!
//! ```text
//! nice cargo run --release -p banco-lines --example dead_balls -- 100 1 1
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

use banco_lines::ai::eval::dead_balls;
use banco_lines::ai::summary::Summary;
use banco_lines::{Board, CELLS};
use std::time::Instant;

/// The bands of balls on the board before the move.
const BANDS: [(usize, usize); 3] = [(20, 39), (40, 59), (60, 81)];

/// Counts of one band.
#[derive(Default)]
struct Band {
    quiet: u64,
    line_moves: u64,
    /// Quiet moves: other balls made dead, dead balls brought back, moves of a dead ball,
    /// moved balls dead where they stop.
    kill: u64,
    revive: u64,
    moved_dead: u64,
    stops_dead: u64,
    /// Line moves: dead balls brought back.
    line_revive: u64,
    /// Landings: landed balls dead at once, balls on the board made dead, brought back.
    land_new_dead: u64,
    land_kill: u64,
    land_revive: u64,
}

/// The cells that hold a ball.
fn balls(board: &Board) -> u128 {
    !board.empties().0 & ((1u128 << CELLS) - 1)
}

fn main() {
    let run = common::run_from_args();
    let mut bands: Vec<Band> = BANDS.iter().map(|_| Band::default()).collect();
    let band_of = |n: usize| BANDS.iter().position(|&(lo, hi)| (lo..=hi).contains(&n));
    let mut results = Vec::new();
    let start = Instant::now();
    for seed in run.first..run.first + run.games {
        // After the last quiet move (before its landing): its balls, its dead balls, band.
        let mut pending: Option<(u128, u128, usize)> = None;
        let played = run.play(seed, |turn| {
            let before = *turn.before;
            let dead0 = dead_balls(&before).0;
            if let Some((old, dead1, b)) = pending.take() {
                let band = &mut bands[b];
                band.land_new_dead += u64::from((dead0 & !old).count_ones());
                band.land_kill += u64::from((dead0 & old & !dead1).count_ones());
                band.land_revive += u64::from((dead1 & old & !dead0).count_ones());
            }
            let Some(b) = band_of(before.ball_count()) else {
                return;
            };
            let mut after = before;
            let ball = after.get(turn.mv.from);
            after.set(turn.mv.from, None);
            after.set(turn.mv.to, ball);
            after.clear(turn.report.cleared);
            let dead1 = dead_balls(&after).0;
            let (from, to) = (1u128 << turn.mv.from.index(), 1u128 << turn.mv.to.index());
            let on_board = balls(&after);
            let stayed = on_board & !to;
            let band = &mut bands[b];
            let revived = u64::from((dead0 & stayed & !dead1).count_ones());
            if turn.report.cleared.is_empty() {
                band.quiet += 1;
                band.kill += u64::from((dead1 & stayed & !dead0).count_ones());
                band.revive += revived;
                band.moved_dead += u64::from(dead0 & from != 0);
                band.stops_dead += u64::from(dead1 & to != 0);
                pending = Some((on_board, dead1, b));
            } else {
                band.line_moves += 1;
                band.line_revive += revived;
            }
        });
        results.push((played.score, played.turns));
    }
    for (&(lo, hi), b) in BANDS.iter().zip(&bands) {
        let q = b.quiet.max(1) as f64;
        let per = |v: u64| v as f64 / q;
        println!(
            "balls {lo}-{hi}: quiet moves {}, line moves {}",
            b.quiet, b.line_moves
        );
        println!(
            "  quiet move: makes {:.3} other balls dead, brings back {:.3}; moves a dead ball {:.3}, which stops dead {:.3}",
            per(b.kill),
            per(b.revive),
            per(b.moved_dead),
            per(b.stops_dead)
        );
        println!(
            "  its landing: {:.3} of the 3 balls land dead, makes {:.3} balls dead, brings back {:.3}",
            per(b.land_new_dead),
            per(b.land_kill),
            per(b.land_revive)
        );
        println!(
            "  line move: brings back {:.3} dead balls",
            b.line_revive as f64 / b.line_moves.max(1) as f64
        );
    }
    println!(
        "{}",
        Summary::of(&results, start.elapsed().as_secs_f64() * 1000.0)
    );
}
