//! `banco` — the Banco command line: play xiangqi against the computer, and the tools around
//! the rules and the engine (perft, notation, repetition judge, benchmarks).
//!
//! Exit codes: 0 success, 2 bad input (a FEN, a move, an option), 1 a check that failed.

/// `println!` for the command's output on stdout, except that a closed stdout (`banco perft
/// --divide | head`) ends the process quietly with exit code 0 instead of a panic.
macro_rules! outln {
    () => {
        $crate::write_stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` with the same rule as [`outln!`] for a closed stdout.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::write_stdout(format_args!($($arg)*))
    };
}

mod cmd_ble;
mod cmd_edit;
mod cmd_engine;
mod cmd_lines;
mod cmd_net;
mod cmd_play;
mod cmd_puzzles;
mod cmd_records;
mod cmd_rules;
mod cmd_soak;
mod ui;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Banco: xiangqi and friends, against the computer or a friend nearby.
#[derive(Parser, Debug)]
#[command(name = "banco", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play against the computer: xiangqi by default (you are Red, level 5), or chess, jieqi
    /// or Lines with `--game`.
    Play(cmd_play::PlayArgs),
    /// Set up a position: place and remove pieces, side to move; every problem listed;
    /// then play or solve from it (commands from the keyboard or piped in).
    Edit(cmd_edit::EditArgs),
    /// Host a match on the LAN (advertised with mDNS unless --no-mdns), or over Bluetooth LE
    /// with --ble, and wait for a guest.
    Host(cmd_net::HostArgs),
    /// Join a match: by address (HOST:PORT) or by the host's advertised name.
    Join(cmd_net::JoinArgs),
    /// Count the leaf nodes of the legal-move tree (move generator test).
    Perft(cmd_rules::PerftArgs),
    /// Show a move (coordinates, WXF or Chinese) in all three notations.
    Move(cmd_rules::MoveArgs),
    /// Judge a sequence of moves under a rule set; last line `result R REASON`.
    Judge(cmd_rules::JudgeArgs),
    /// Soak the match protocol: many simulated games over a faulty link; last line
    /// `games N lost L duplicated D desync X failures F`.
    Soak(cmd_soak::SoakArgs),
    /// Benchmarks: `banco bench [--game chess]` searches the engine's bench positions (last
    /// line `nodes N time S nps N`); `banco bench perft` runs perft from the start position;
    /// `banco bench lines --games N --seed S --budget P` plays seeded Lines games (last line
    /// `games N median_score M mean_score A median_turns T ms_per_move X`).
    Bench(cmd_rules::BenchArgs),
    /// Game records: `banco pgn import FILE [-o SAVE]`, `banco pgn export SAVE [-o FILE]`.
    Pgn(cmd_records::PgnArgs),
    /// A picture of a position: `banco render --game G --fen F [--last MOVE] [--flip] -o board.svg`.
    Render(cmd_records::RenderArgs),
    /// The puzzle collection: harvest from self-play, prove, verify, list.
    Puzzles(cmd_puzzles::PuzzlesArgs),
    /// Prove a forced mate in a puzzle; last line `mate N FIRSTMOVE` or `none`.
    Solve(cmd_engine::SolveArgs),
    /// Engine against engine over balanced openings; W/D/L and the Elo difference.
    Match(cmd_engine::MatchArgs),
    /// Run as a UCI engine on stdin/stdout (xiangqi, or chess or jieqi with `--game`;
    /// `setoption name UCI_Variant` switches).
    Uci(cmd_engine::UciArgs),
    /// Run as a UCCI engine on stdin/stdout.
    Ucci,
}

/// Writes the command's output to stdout. When the reader went away (a pipe closed early),
/// nothing more can be shown: the process ends with exit code 0, as `head` expects of the
/// commands before it. Any other write error ends it with a message on stderr and code 1.
pub(crate) fn write_stdout(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    if let Err(e) = std::io::stdout().lock().write_fmt(args) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write to stdout: {e}");
        std::process::exit(1);
    }
}

/// An error that ends the command with a message and an exit code.
#[derive(Debug)]
pub(crate) enum CliError {
    /// Bad input from the user (exit code 2).
    Input(String),
    /// The command ran but what it checks failed (exit code 1).
    Failure(String),
}

impl CliError {
    pub(crate) fn input(msg: impl std::fmt::Display) -> CliError {
        CliError::Input(msg.to_string())
    }
}

fn main() -> ExitCode {
    // A newer Banco's record says to update `banco`, not "the app".
    banco_app::save::set_update_name("banco");
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Play(args) => cmd_play::play(&args),
        Command::Edit(args) => cmd_edit::edit_cmd(&args),
        Command::Host(args) => cmd_net::host_cmd(&args),
        Command::Join(args) => cmd_net::join_cmd(&args),
        Command::Perft(args) => cmd_rules::perft(&args),
        Command::Move(args) => cmd_rules::move_cmd(&args),
        Command::Judge(args) => cmd_rules::judge(&args),
        Command::Bench(args) => cmd_rules::bench(&args),
        Command::Pgn(args) => cmd_records::pgn_cmd(&args),
        Command::Render(args) => cmd_records::render_cmd(&args),
        Command::Puzzles(args) => cmd_puzzles::puzzles_cmd(&args),
        Command::Solve(args) => cmd_engine::solve_cmd(&args),
        Command::Match(args) => cmd_engine::match_cmd(&args),
        Command::Uci(args) => cmd_engine::uci_cmd(&args),
        Command::Ucci => cmd_engine::ucci_cmd(),
        Command::Soak(args) => cmd_soak::soak(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Input(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
        Err(CliError::Failure(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(1)
        }
    }
}
