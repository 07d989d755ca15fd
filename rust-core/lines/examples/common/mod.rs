//! The arguments of the measuring examples (`line_rate`, `ball_use`): games (100), first
//! seed (1), budget in playouts (1), weights (a spec as `Weights::apply_spec` reads; the
//! default weights if absent) — the games of `banco bench lines --games G --seed S
//! --budget B`.

use banco_lines::ai::{self, Budget, PlayedGame, Turn, eval::Weights};
use banco_lines::spawn::Spawner;
use banco_lines::{LinesGame, Settings};

/// What to play.
pub struct Run {
    /// Games.
    pub games: u64,
    /// The first game's seed.
    pub first: u64,
    /// The computer's budget.
    pub budget: Budget,
    /// The weights measured.
    pub weights: Weights,
}

impl Run {
    /// Plays the bench's game of `seed` to its end with the run's budget and weights,
    /// calling `on_turn` after every turn.
    pub fn play(&self, seed: u64, on_turn: impl FnMut(&Turn<'_>)) -> PlayedGame {
        let game = LinesGame::new(Settings::default(), Spawner::seed_from_u64(seed));
        ai::play_out_with(game, &self.budget, &self.weights, seed, u32::MAX, on_turn)
    }
}

/// The run the command line asks for (exits with a message on a bad argument).
pub fn run_from_args() -> Run {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: u64| {
        raw.get(i).map_or(default, |a| {
            a.parse()
                .unwrap_or_else(|_| fail(&format!("argument {}: `{a}` is not a number", i + 1)))
        })
    };
    let weights = raw.get(3).map_or_else(Weights::default, |spec| {
        Weights::from_spec(spec).unwrap_or_else(|e| fail(&e.to_string()))
    });
    Run {
        games: number(0, 100),
        first: number(1, 1),
        budget: Budget::from_playouts(usize::try_from(number(2, 1)).unwrap_or(usize::MAX)),
        weights,
    }
}

fn fail(message: &str) -> ! {
    eprintln!("{message}\nusage: GAMES FIRST_SEED BUDGET [WEIGHTS]");
    std::process::exit(2)
}
