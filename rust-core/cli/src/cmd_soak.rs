//! `banco soak`: the match protocol's fault-injection soak (two sessions over a simulated
//! link that drops, duplicates, reorders, delays and cuts frames).

use crate::CliError;
use banco_chess::Chess;
use banco_game::GameKind;
use banco_game::MatchGame;
use banco_protocol::sim::{
    CountingGame, SoakConfig, SoakReport, game_seeds_from, play_game, random_move,
};
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
    /// Game played with random legal moves: xiangqi, chess, jieqi, or counting (a tiny test
    /// game).
    #[arg(long, default_value = "xiangqi")]
    game: String,
    /// Start at game N of the run (counting from 0): `--first N --games 1` replays the game
    /// a run printed as `game N (seed S)`.
    #[arg(long, default_value_t = 0)]
    first: u64,
}

/// The games `first..first + config.games` of the run from `config.seed`, one by one
/// ([`game_seeds_from`]): the same games as `run_soak_with`, each unclean one printed with its
/// number and seed.
fn games<G: MatchGame>(config: &SoakConfig, first: u64) -> SoakReport {
    let mut total = SoakReport::default();
    let seeds = game_seeds_from(config.seed, first).take(config.games as usize);
    for (j, seed) in seeds.enumerate() {
        let i = first.saturating_add(j as u64);
        let report = play_game::<G>(config, seed, &mut random_move::<G>);
        if !report.is_clean() {
            outln!("game {i} (seed {seed}): {report}");
        }
        total.add(&report);
    }
    total
}

pub(crate) fn soak(args: &SoakArgs) -> Result<(), CliError> {
    let config = SoakConfig::new(args.games, args.seed);
    let report = match args.game.as_str() {
        // Rule set 0 of xiangqi: the Asian rules.
        "xiangqi" => games::<Xiangqi>(&config, args.first),
        // Rule set 0 of chess: the standard rules.
        "chess" => games::<Chess>(
            &SoakConfig {
                game: GameKind::Chess,
                ..config
            },
            args.first,
        ),
        // Rule set 0 of jieqi: the Asian rules; every reveal drawn fairly by both sides.
        "jieqi" => games::<banco_xiangqi::jieqi::Jieqi>(
            &SoakConfig {
                game: GameKind::Jieqi,
                ..config
            },
            args.first,
        ),
        "counting" => games::<CountingGame>(&config, args.first),
        other => {
            return Err(CliError::input(format!(
                "unknown game `{other}`: use xiangqi, chess, jieqi or counting"
            )));
        }
    };
    outln!(
        "moves {} disconnects {} frames {} undos {}",
        report.moves,
        report.disconnects,
        report.frames,
        report.undos
    );
    outln!("{report}");
    if report.is_clean() {
        Ok(())
    } else {
        Err(CliError::Failure(format!(
            "the soak found problems: {report}"
        )))
    }
}
