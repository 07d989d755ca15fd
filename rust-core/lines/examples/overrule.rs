//! How often stage two overrules stage one, at two budgets over the same positions
//! (`data/tuning.md`, fortieth session): plays the bench's seeded games with budget A (the
//! games of `banco bench lines --games G --seed S --budget A`) and, every `EVERY`th turn,
//! asks budget B for the same position with the same search seed. Prints, per band of ball
//! counts and in all, the positions asked, the share where A's move differs from stage
//! one's (the closed-form judgement, budget 1), the same for B, and the share where A and
//! B agree.
//!
//! Budget 300 scored below budget 100 over 136 paired games: if stage two's means mislead,
//! the larger budget (smaller standard errors, the same margin of [`MARGIN_Z`] of them)
//! overrules stage one more often.
//!
//! ```text
//! nice cargo run --release -p banco-lines --example overrule -- 4 1 100 300 5
//! ```
//!
//! Arguments: games (4), first seed (1), budget A (100), budget B (300), every (5).
//!
//! [`MARGIN_Z`]: banco_lines::ai::search::MARGIN_Z
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    missing_docs
)]

use banco_game::ScoreGame;
use banco_lines::ai::{self, Budget, eval::Weights, search};
use banco_lines::spawn::Spawner;
use banco_lines::{LinesGame, Move, Settings};

/// Counts over one band of positions.
#[derive(Clone, Copy, Default)]
struct Tally {
    positions: u32,
    a_overrules: u32,
    b_overrules: u32,
    agree: u32,
}

impl Tally {
    fn line(&self, name: &str) -> String {
        let share = |n: u32| 100.0 * f64::from(n) / f64::from(self.positions.max(1));
        format!(
            "{name} positions {} a_overrules {:.1}% b_overrules {:.1}% agree {:.1}%",
            self.positions,
            share(self.a_overrules),
            share(self.b_overrules),
            share(self.agree)
        )
    }
}

fn main() {
    let raw: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| {
            a.parse()
                .expect("arguments are numbers: GAMES FIRST A B EVERY")
        })
        .collect();
    let arg = |i: usize, default: u64| raw.get(i).copied().unwrap_or(default);
    let (games, first, every) = (arg(0, 4), arg(1, 1), arg(4, 5).max(1));
    let budget = |i: usize, d: u64| Budget::from_playouts(usize::try_from(arg(i, d)).unwrap());
    let (a, b) = (budget(2, 100), budget(3, 300));
    let w = Weights::default();
    let mut bands = [Tally::default(); 4]; // balls before the move: <20, <40, <60, 60+
    for seed in first..first + games {
        let mut game = LinesGame::new(Settings::default(), Spawner::seed_from_u64(seed));
        while !game.is_over() {
            let number = game.turns();
            let searched = ai::turn_seed(seed, number);
            let (board, next, spots) = (*game.board(), game.next_colors(), game.spot_cells());
            let Some((ca, _)) = search::best_move_in(&board, spots, &next, &a, searched, &w) else {
                break;
            };
            if u64::from(number) % every == 0 {
                let one = search::best_candidate_in(&board, spots, Some(&next), &w).unwrap();
                let (cb, _) = search::best_move_in(&board, spots, &next, &b, searched, &w).unwrap();
                let moved = |c: &search::Candidate| (c.from, c.to);
                let t = &mut bands[(board.ball_count() / 20).min(3)];
                t.positions += 1;
                t.a_overrules += u32::from(moved(&ca) != moved(&one));
                t.b_overrules += u32::from(moved(&cb) != moved(&one));
                t.agree += u32::from(moved(&ca) == moved(&cb));
            }
            let played = Move {
                from: ca.from,
                to: ca.to,
            };
            if game.play(played).is_err() {
                break;
            }
        }
        println!("game {seed} score {} turns {}", game.score(), game.turns());
    }
    let mut all = Tally::default();
    for (i, t) in bands.iter().enumerate() {
        println!("{}", t.line(&format!("balls {}-{}", i * 20, i * 20 + 19)));
        all.positions += t.positions;
        all.a_overrules += t.a_overrules;
        all.b_overrules += t.b_overrules;
        all.agree += t.agree;
    }
    println!("{}", all.line("all"));
}
