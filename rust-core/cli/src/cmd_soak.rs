//! `banco soak`: the match protocol's fault-injection soak (two sessions over a simulated
//! link that drops, duplicates, reorders, delays and cuts frames).

use crate::CliError;
use banco_chess::Chess;
use banco_game::GameKind;
use banco_protocol::sim::{CountingGame, SoakConfig, run_soak_with};
use banco_xiangqi::Xiangqi;
use clap::Args;

/// `banco soak`.
#[derive(Args, Debug)]
pub(crate) struct SoakArgs {
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    games: u32,
    /// Seed of everything random (keys, moves, faults).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Game played with random legal moves: xiangqi, chess, or counting (a tiny test game).
    #[arg(long, default_value = "xiangqi")]
    game: String,
}

pub(crate) fn soak(args: &SoakArgs) -> Result<(), CliError> {
    let config = SoakConfig::new(args.games, args.seed);
    let report = match args.game.as_str() {
        // Rule set 0 of xiangqi: the Asian rules.
        "xiangqi" => run_soak_with::<Xiangqi>(&config),
        // Rule set 0 of chess: the standard rules.
        "chess" => run_soak_with::<Chess>(&SoakConfig {
            game: GameKind::Chess,
            ..config
        }),
        "counting" => run_soak_with::<CountingGame>(&config),
        other => {
            return Err(CliError::input(format!(
                "unknown game `{other}`: use xiangqi, chess or counting"
            )));
        }
    };
    println!(
        "moves {} disconnects {} frames {} undos {}",
        report.moves, report.disconnects, report.frames, report.undos
    );
    println!("{report}");
    if report.is_clean() {
        Ok(())
    } else {
        Err(CliError::Failure(format!(
            "the soak found problems: {report}"
        )))
    }
}
