//! The engine's commands: `banco solve`, `banco match`, `banco uci`, `banco ucci`, and the
//! search part of `banco bench` (`match`, `uci` and `bench` for xiangqi, chess or jieqi, `--game`).
//! The logic lives in banco-engine; this file only reads the arguments and prints.

use crate::CliError;
use crate::cmd_rules::RulesGame;
use banco_chess::{Chess, ChessRules};
use banco_engine::matchplay::{self, MatchOptions, PlayerSpec};
use banco_engine::solve::{SolveOptions, solve};
use banco_engine::{EngineGame, bench, ucci, uci};
use banco_game::{Color, GameKind};
use banco_xiangqi::jieqi::Jieqi;
use banco_xiangqi::{RuleSet, Xiangqi};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// `banco solve`.
#[derive(clap::Args, Debug)]
pub(crate) struct SolveArgs {
    /// The game.
    #[arg(long, value_enum, default_value = "xiangqi")]
    game: RulesGame,
    /// The puzzle position (FEN; the side to move mates).
    #[arg(long)]
    fen: String,
    /// Longest mate to look for, in moves of the attacker (1 to 100).
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(1..=100))]
    max_mate: u32,
    /// Give up after this many seconds (0 to 86400; fractions allowed).
    #[arg(long, default_value_t = 10.0, value_parser = solve_seconds)]
    time: f64,
    /// Table size of the proof-number search, in MiB (1 to 4096).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=4096))]
    hash: u32,
}

/// The longest `--time` of `banco solve`: a day.
const MAX_SOLVE_SECS: f64 = 86_400.0;

/// `--time`: a number of seconds from 0 to a day (not `inf`, not `NaN`).
fn solve_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(t) if (0.0..=MAX_SOLVE_SECS).contains(&t) => Ok(t),
        _ => Err(format!(
            "`{text}` is not a number of seconds from 0 to {MAX_SOLVE_SECS}"
        )),
    }
}

pub(crate) fn solve_cmd(args: &SolveArgs) -> Result<(), CliError> {
    match args.game {
        RulesGame::Xiangqi => solve_game::<Xiangqi>(args, GameKind::Xiangqi),
        RulesGame::Chess => solve_game::<Chess>(args, GameKind::Chess),
        RulesGame::Jieqi => {
            // A mate cannot be proven through reveals nobody knows: jieqi is solved only
            // with every piece face up (the editor's `solve` refuses jieqi for this reason).
            let game = <Jieqi as EngineGame>::from_fen(&args.fen).map_err(CliError::input)?;
            crate::ui::note_fen(GameKind::Jieqi, &args.fen);
            let down: u32 = [Color::Red, Color::Black]
                .into_iter()
                .map(|c| game.position().hidden_count(c))
                .sum();
            if down > 0 {
                return Err(CliError::input(format!(
                    "cannot solve: no mate can be proven through pieces still face down \
                     ({down} here); jieqi is solved with every piece face up"
                )));
            }
            solve_game::<Jieqi>(args, GameKind::Jieqi)
        }
    }
}

fn solve_game<G: EngineGame>(args: &SolveArgs, kind: GameKind) -> Result<(), CliError> {
    let game = G::from_fen(&args.fen).map_err(CliError::input)?;
    if kind != GameKind::Jieqi {
        crate::ui::note_fen(kind, &args.fen);
    }
    if let Some(outcome) = game.outcome(&G::Rules::default()) {
        // Nothing to solve: say how the game ended; the last line is `none` (no mate to
        // play), as for a position without a mate.
        outln!(
            "the game is already over ({}): nothing to solve",
            banco_app::result::result_text(kind, outcome, None)
        );
        outln!("none");
        return Ok(());
    }
    let time = Duration::try_from_secs_f64(args.time.clamp(0.0, MAX_SOLVE_SECS))
        .map_err(CliError::input)?;
    let options = SolveOptions {
        max_mate: args.max_mate,
        time_limit: Some(time),
        hash_mib: args.hash as usize,
        ..SolveOptions::default()
    };
    let r = solve(
        &game,
        &G::Rules::default(),
        &options,
        &AtomicBool::new(false),
    );
    if let Some(n) = r.mate {
        let shortest = if r.shortest {
            "the shortest"
        } else {
            "perhaps not the shortest"
        };
        outln!("mate in {n} ({shortest}): {}", game.line_text(&r.line));
    } else if r.aborted {
        outln!("no mate found in {:.1} s ({} nodes)", args.time, r.nodes);
    } else {
        outln!("no mate in {} or fewer", args.max_mate);
    }
    outln!("nodes {} time {:.3}", r.nodes, r.time_ms as f64 / 1000.0);
    match (r.mate, r.line.first()) {
        (Some(n), Some(&first)) => outln!("mate {n} {}", game.move_text(first)),
        _ => outln!("none"),
    }
    Ok(())
}

/// `banco match`.
#[derive(clap::Args, Debug)]
pub(crate) struct MatchArgs {
    /// The game.
    #[arg(long, value_enum, default_value = "xiangqi")]
    game: RulesGame,
    /// Player A: `level=N[,nodes=N][,depth=N][,eval=…|TERM=PERCENT]` or `plain`.
    #[arg(long)]
    a: String,
    /// Player B (same form as A).
    #[arg(long)]
    b: String,
    /// Number of games (colours alternate; each opening is played twice), at least 1.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Milliseconds per move (without it: the players' node caps, deterministic).
    #[arg(long)]
    time: Option<u64>,
    /// Adjudicate on material after this many plies.
    #[arg(long, default_value_t = 300)]
    max_plies: u32,
    /// Seed of the levels' choices and of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random moves after each book opening (the same for both games of a pair): with
    /// them a deterministic match of hundreds of games plays hundreds of distinct pairs.
    #[arg(long, default_value_t = 0)]
    random_plies: u32,
}

pub(crate) fn match_cmd(args: &MatchArgs) -> Result<(), CliError> {
    match args.game {
        RulesGame::Xiangqi => run_match::<Xiangqi>(args, RuleSet::default()),
        // Engines claim every draw they can: the 50-move rule and threefold repetition end
        // the game.
        RulesGame::Chess => run_match::<Chess>(args, ChessRules::AUTO_CLAIM),
        RulesGame::Jieqi => run_match::<Jieqi>(args, RuleSet::default()),
    }
}

fn run_match<G: EngineGame>(args: &MatchArgs, rules: G::Rules) -> Result<(), CliError> {
    let a: PlayerSpec<G> = args.a.parse().map_err(CliError::input)?;
    let b: PlayerSpec<G> = args.b.parse().map_err(CliError::input)?;
    let options = MatchOptions {
        games: args.games,
        movetime_ms: args.time,
        max_plies: args.max_plies,
        seed: args.seed,
        random_plies: args.random_plies,
        rules,
    };
    let (first, second) = match args.game {
        RulesGame::Xiangqi | RulesGame::Jieqi => ("red", "black"),
        RulesGame::Chess => ("white", "black"),
    };
    let report = matchplay::run(&a, &b, &options, |g| {
        let colour = if g.a_first { first } else { second };
        outln!(
            "game {:3} A {colour:5} {:26} {:>3} plies  A scores {}  ({})",
            g.index + 1,
            g.opening,
            g.plies,
            g.a_score,
            g.reason
        );
    });
    outln!("{} vs {}", args.a, args.b);
    outln!("{}", report.summary());
    Ok(())
}

/// `banco uci`.
#[derive(clap::Args, Debug)]
pub(crate) struct UciArgs {
    /// The game played until `setoption name UCI_Variant` names another (`chess` for
    /// standard chess GUIs, which never send UCI_Variant).
    #[arg(long, value_enum, default_value = "xiangqi")]
    game: RulesGame,
}

pub(crate) fn uci_cmd(args: &UciArgs) -> Result<(), CliError> {
    let game = match args.game {
        RulesGame::Xiangqi => <Xiangqi as EngineGame>::NAME,
        RulesGame::Chess => <Chess as EngineGame>::NAME,
        RulesGame::Jieqi => <Jieqi as EngineGame>::NAME,
    };
    uci::run_variant(std::io::stdin().lock(), std::io::stdout(), game)
        .map_err(|e| CliError::Failure(e.to_string()))
}

pub(crate) fn ucci_cmd() -> Result<(), CliError> {
    ucci::run(std::io::stdin().lock(), std::io::stdout())
        .map_err(|e| CliError::Failure(e.to_string()))
}

/// `banco bench` without an argument: the engine bench of game `G`; last line `nodes N
/// time S nps N`.
pub(crate) fn bench_search<G: EngineGame>(threads: usize) -> Result<(), CliError> {
    let report = if threads > 1 {
        bench::run_threaded::<G>(
            G::BENCH_POSITIONS,
            G::BENCH_DEPTH,
            bench::DEFAULT_HASH_MIB,
            threads,
        )
    } else {
        bench::run::<G>()
    };
    for line in &report.lines {
        outln!("{line}");
    }
    outln!("{}", report.summary());
    Ok(())
}
