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
    println!("{budget:?}");
    let mut moves = [0u32; CELLS + 1];
    let mut lines = [0u32; CELLS + 1];
    let mut landing = [0u32; CELLS + 1];
    let mut scores = Vec::new();
    for seed in first..first + games {
        let mut game = LinesGame::new(Settings::default(), Spawner::seed_from_u64(seed));
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
            let n = game.board().ball_count();
            let r = game.play(mv).expect("a legal move");
            moves[n] += 1;
            lines[n] += u32::from(!r.cleared.is_empty());
            landing[n] += u32::from(!r.cleared_by_landing.is_empty());
        }
        scores.push(game.score());
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
    let mean = scores.iter().map(|&s| f64::from(s)).sum::<f64>() / scores.len() as f64;
    scores.sort_unstable();
    println!(
        "games {games} median_score {} mean_score {mean:.1}",
        scores[scores.len() / 2]
    );
}
