//! Where the balls of completed lines come from: plays the bench's seeded games and
//! counts, for every ball a move's line removes, how often it was moved since it landed
//! (0: it landed in place), and how many moves without a line moved a ball that never
//! ended in a line (wasted). Holding the ball count needs 5/3 moves without a line per line.
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

use banco_game::ScoreGame;
use banco_lines::ai::{Budget, eval::Weights, search};
use banco_lines::spawn::Spawner;
use banco_lines::{CELLS, LinesGame, Move, Settings};

fn main() {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let mut weights = Weights::default();
    if let Some(spec) = raw.get(3) {
        for pair in spec.split(',').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').expect("name=value");
            assert!(
                weights.set(name, value.parse().expect("a number")),
                "{name}?"
            );
        }
    }
    let args: Vec<u64> = raw
        .iter()
        .take(3)
        .map(|a| a.parse().expect("a number"))
        .collect();
    let games = args.first().copied().unwrap_or(100);
    let first = args.get(1).copied().unwrap_or(1);
    let budget = Budget::from_playouts(args.get(2).copied().unwrap_or(1) as usize);
    // moved[k]: balls removed by a move's line that had been moved k times (3 = 3+).
    let mut moved = [0u64; 4];
    let (mut lines, mut quiet, mut landing_removed, mut wasted) = (0u64, 0u64, 0u64, 0u64);
    let mut scores = Vec::new();
    for seed in first..first + games {
        let mut game = LinesGame::new(Settings::default(), Spawner::seed_from_u64(seed));
        // Times the ball on each cell was moved, and whether each move's ball was used.
        let mut count = [0u8; CELLS];
        // Non-scoring moves whose ball is still on the board (pending), by cell.
        let mut pending = [0u8; CELLS];
        while !game.is_over() {
            let s = seed ^ (u64::from(game.turns()) << 32);
            let Some((c, _)) =
                search::best_move_with(game.board(), &game.next_colors(), &budget, s, &weights)
            else {
                break;
            };
            let mv = Move {
                from: c.from,
                to: c.to,
            };
            let (f, t) = (mv.from.index(), mv.to.index());
            let r = game.play(mv).expect("a legal move");
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
            for &(c, _) in &r.landed {
                count[c.index()] = 0;
                pending[c.index()] = 0;
            }
            for c in r.cleared_by_landing.iter() {
                landing_removed += 1;
                count[c.index()] = 0;
                pending[c.index()] = 0;
            }
        }
        wasted += pending.iter().map(|&p| u64::from(p)).sum::<u64>();
        scores.push(game.score());
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
    let mean = scores.iter().map(|&s| f64::from(s)).sum::<f64>() / scores.len() as f64;
    scores.sort_unstable();
    println!(
        "games {games} median_score {} mean_score {mean:.1}",
        scores[scores.len() / 2]
    );
}
