//! The UCCI 3.0 core protocol, driven line by line with every output line flushed:
//! `ucci`, `isready`, `setoption`, `position startpos|fen FEN [moves …]`, `banmoves m1 m2
//! …` (for the next `go` only), `go [ponder|draw] depth N | nodes N | time MS [increment
//! MS] [movestogo N]`, `ponderhit [draw]`, `stop`, `quit` (answered with `bye`).
//! `go ponder` thinks without its clock (or node limit) until `ponderhit`, from which the
//! time counts, or `stop` (see the specification's example); a draw offer (`draw`) is
//! ignored. The search answers `info
//! depth … score … pv …` lines and `bestmove M` (or `nobestmove`). Times are in
//! milliseconds; coordinates a0–i9. Options: `hashsize` (MiB), `threads` (Lazy SMP, 1 by
//! default; level 10 only, the levels below search on one thread), `level` (its caps and
//! choice hold with `banmoves` too). UCCI has no `mate` token: a mate is printed as a large score,
//! ±(30000 − plies to the mate).
//!
//! ```
//! use banco_engine::ucci;
//! let input = "ucci\nposition startpos\nbanmoves h2e2 b2e2\ngo depth 2\nquit\n";
//! let mut output = Vec::new();
//! ucci::run_to_end(input.as_bytes(), &mut output).unwrap();
//! let text = String::from_utf8(output).unwrap();
//! assert!(text.contains("ucciok"));
//! let best = text.lines().find(|l| l.starts_with("bestmove")).unwrap();
//! assert!(best != "bestmove h2e2" && best != "bestmove b2e2");
//! assert!(text.ends_with("bye\n"));
//! ```

use crate::engine_game::EngineGame;
use crate::error::EngineError;
use crate::level::Level;
use crate::limits::{Clock, Limits};
use crate::protocol::{Dialect, Out, Session, number_after};
use crate::uci::SharedBuf;
use banco_xiangqi::{Move, Xiangqi};
use std::io::{BufRead, Write};

/// Runs a UCCI session until `quit` or the end of the input.
pub fn run<R: BufRead, W: Write + Send + 'static>(input: R, output: W) -> Result<(), EngineError> {
    let mut session = Session::<W, Xiangqi>::new(Out::new(output), Dialect::Ucci, 16, Level::MAX);
    for line in input.lines() {
        let line = line?;
        let args: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, rest)) = args.split_first() else {
            continue;
        };
        match cmd {
            "ucci" => {
                session.out.line("id name Banco");
                session.out.line("id author Banco developers");
                session
                    .out
                    .line("option hashsize type spin min 1 max 4096 default 16");
                session.out.line(&format!(
                    "option threads type spin min 1 max {} default 1",
                    crate::smp::MAX_THREADS
                ));
                session
                    .out
                    .line("option level type spin min 1 max 10 default 10");
                session.out.line("ucciok");
            }
            "isready" => session.out.line("readyok"),
            "setoption" => set_option(&mut session, rest),
            "position" => {
                if let Err(e) = session.position(rest) {
                    session.out.line(&format!("info string {e}"));
                }
            }
            "banmoves" => {
                session.stop();
                let moves: Vec<Move> = rest
                    .iter()
                    .filter_map(|t| session.game.parse_move(t).ok())
                    .collect();
                session.excluded = moves;
            }
            "go" => {
                // `go ponder …`: think on the opponent's time until `ponderhit` or `stop`;
                // `go draw …` (a draw offer) is heard as a plain `go`.
                let ponder = rest.first() == Some(&"ponder");
                session.go(go_limits(rest), ponder);
            }
            // `ponderhit draw` likewise: Banco neither offers nor accepts draws.
            "ponderhit" => {
                if !session.ponderhit() {
                    session
                        .out
                        .line("info string ponderhit: no search is pondering");
                }
            }
            "stop" => session.stop(),
            "quit" => {
                session.stop();
                break;
            }
            _ => session
                .out
                .line(&format!("info string unknown command `{cmd}`")),
        }
    }
    session.wait_or_stop();
    session.out.line("bye");
    Ok(())
}

/// [`run`] with a borrowed writer: waits for the session to end (for tests and tools).
pub fn run_to_end<R: BufRead>(input: R, output: &mut Vec<u8>) -> Result<(), EngineError> {
    let shared = SharedBuf::default();
    let result = run(input, shared.clone());
    output.extend_from_slice(&shared.take());
    result
}

fn set_option<W: Write + Send + 'static>(session: &mut Session<W, Xiangqi>, args: &[&str]) {
    let (Some(name), Some(value)) = (args.first(), args.get(1)) else {
        session
            .out
            .line("info string setoption needs a name and a value");
        return;
    };
    match name.to_ascii_lowercase().as_str() {
        "hashsize" => match value.parse::<usize>() {
            Ok(mib) => session.resize(mib),
            Err(_) => session
                .out
                .line(&format!("info string hashsize `{value}` is not a number")),
        },
        "threads" => match value.parse::<usize>() {
            Ok(n) if (1..=crate::smp::MAX_THREADS).contains(&n) => session.set_threads(n),
            _ => session.out.line(&format!(
                "info string threads `{value}` is not a number from 1 to {}",
                crate::smp::MAX_THREADS
            )),
        },
        "level" => match value
            .parse::<u8>()
            .map_err(|_| EngineError::BadLevel(0))
            .and_then(Level::new)
        {
            Ok(l) => session.level = l,
            Err(e) => session.out.line(&format!("info string {e}")),
        },
        _ => session
            .out
            .line(&format!("info string unknown option `{name}`")),
    }
}

/// Limits of a UCCI `go` command (`ponder` and `draw` aside). `time MS` with neither
/// `movestogo` nor `increment` is read as `movestogo 1`, as ElephantEye does: the move may
/// take up to the whole time left ([`timeman`](crate::timeman)).
///
/// ```
/// use banco_engine::ucci::go_limits;
/// let clock = |args: &[&str]| go_limits(args).clock.unwrap();
/// assert_eq!(clock(&["time", "9000"]).moves_to_go, Some(1));
/// assert_eq!(clock(&["time", "9000", "increment", "0"]).moves_to_go, None);
/// assert_eq!(clock(&["time", "9000", "movestogo", "20"]).moves_to_go, Some(20));
/// ```
#[must_use]
pub fn go_limits(args: &[&str]) -> Limits {
    let mut l = Limits {
        depth: number_after(args, "depth"),
        nodes: number_after(args, "nodes"),
        ..Limits::default()
    };
    if let Some(time_ms) = number_after::<u64>(args, "time") {
        let inc_ms = number_after(args, "increment");
        // Neither `movestogo` nor `increment`: the time is for this move's control alone,
        // as ElephantEye, the protocol's reference engine, reads it (`movestogo 1`).
        let moves_to_go = number_after(args, "movestogo").or(inc_ms.is_none().then_some(1));
        l.clock = Some(Clock {
            time_ms,
            inc_ms: inc_ms.unwrap_or(0),
            moves_to_go,
        });
    }
    if args.contains(&"infinite") || (l.depth.is_none() && l.nodes.is_none() && l.clock.is_none()) {
        l.infinite = true;
    }
    l
}
