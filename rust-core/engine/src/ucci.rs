//! The UCCI 3.0 core protocol, driven line by line with every output line flushed:
//! `ucci`, `isready`, `setoption`, `position startpos|fen FEN [moves …]`, `banmoves m1 m2
//! …` (for the next `go` only), `go [ponder|draw] depth N|infinite | nodes N | time T
//! [increment T] [movestogo N] [opptime T oppincrement T oppmovestogo N]`, `ponderhit
//! [draw]`, `stop`, `quit` (answered with `bye`; the end of the input is heard as `quit`:
//! a search still running stops at once with the best move it has), and `probe
//! startpos|fen FEN [moves …]`, answered with what the table holds for that position:
//! `pophash [bestmove M] [lowerbound V depth D] [upperbound V depth D]` (`pophash` alone
//! when it holds nothing, or while a search runs).
//! `go ponder` thinks without its clock (or node limit) until `ponderhit`, from which the
//! time counts, or `stop` (see the specification's example); a draw offer (`draw`) is
//! ignored, and so is the opponent's clock. The search answers `info depth … score … pv
//! …` lines and `bestmove M` (`bestmove M ponder R` with `setoption ponder true`), or
//! `nobestmove`. Coordinates are ICCS, a0–i9. A limit that is not a whole number is
//! taken at its least (depth 1, nodes 1, time 0) with an `info string`; a line that is not
//! UTF-8 (a GBK path from a Chinese GUI) is read with its bad bytes replaced.
//!
//! **Times.** UCCI 3.0 counts `time`, `increment`, `opptime` and `oppincrement` in
//! seconds unless the engine declares `option usemillisec` and the interface turns it on.
//! Banco declares `option usemillisec type check default true` and reads milliseconds
//! unless told `setoption usemillisec false` (then seconds): an interface that reads the
//! declaration — ElephantEye's `uccileag` sends `setoption usemillisec true` and
//! milliseconds as soon as it sees the option, and sends whole seconds to an engine that
//! does not declare it — gets what it expects, and so does one that keeps the declared
//! default, as with ElephantEye and Fairy-Stockfish, which declare the same default and
//! read milliseconds until told otherwise.
//!
//! Options: `usemillisec`, `hashsize` (MiB), `threads` (Lazy SMP, 1 by default; level 10
//! only, the levels below search on one thread), `level` (its caps and choice hold with
//! `banmoves` too), `seed` (the levels' choices repeat for a given seed; 0, the default,
//! draws a new one, as each run of the engine does), `ponder`, `moveoverhead` (milliseconds every move on a clock keeps
//! back for the interface and the system, 30 by default, [`timeman`](crate::timeman)),
//! `newgame` (a button: `setoption newgame` clears the table). The other options of the
//! specification and of ElephantEye (`batch`, `debug`, `promotion`, `usebook`,
//! `bookfiles`, …) are accepted without a word and change nothing. UCCI has no `mate`
//! token: a mate is printed as a large score, ±(30000 − plies to the mate).
//!
//! ```
//! use banco_engine::ucci;
//! let input = "ucci\nposition startpos\nbanmoves h2e2 b2e2\ngo depth 2\nquit\n";
//! let mut output = Vec::new();
//! ucci::run_to_end(input.as_bytes(), &mut output).unwrap();
//! let text = String::from_utf8(output).unwrap();
//! assert!(text.contains("option usemillisec type check default true"));
//! assert!(text.contains("ucciok"));
//! let best = text.lines().find(|l| l.starts_with("bestmove")).unwrap();
//! assert!(best != "bestmove h2e2" && best != "bestmove b2e2");
//! assert!(text.ends_with("bye\n"));
//! ```

use crate::engine_game::EngineGame;
use crate::error::EngineError;
use crate::level::Level;
use crate::limits::{Clock, Limits};
use crate::protocol::wire::{self, GoReader};
use crate::protocol::{
    DEFAULT_MOVE_OVERHEAD_MS, Dialect, MAX_HASH_MIB, MAX_MOVE_OVERHEAD_MS, Out, Session,
    number_after,
};
use crate::uci::SharedBuf;
use banco_xiangqi::{Move, Xiangqi};
use std::io::{BufRead, Write};

/// The unit of the times of a `go` command (UCCI's `usemillisec`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimeUnit {
    /// `usemillisec true`: Banco's default (it declares the option so).
    #[default]
    Milliseconds,
    /// `usemillisec false`: whole seconds, UCCI's unit without the option.
    Seconds,
}

/// The options UCCI 3.0 and ElephantEye define that Banco accepts and does without.
const IGNORED_OPTIONS: [&str; 18] = [
    "batch",
    "debug",
    "promotion",
    "usehash",
    "usebook",
    "useegtb",
    "bookfiles",
    "egtbpaths",
    "evalapi",
    "loadbook",
    "idle",
    "pruning",
    "knowledge",
    "randomness",
    "style",
    "alwayscheck",
    "drawmoves",
    "repetition",
];

/// Runs a UCCI session until `quit` or the end of the input.
pub fn run<R: BufRead, W: Write + Send + 'static>(input: R, output: W) -> Result<(), EngineError> {
    let mut session = Session::<W, Xiangqi>::new(Out::new(output), Dialect::Ucci, 16, Level::MAX);
    let mut unit = TimeUnit::default();
    let mut input = input;
    let mut buf = Vec::new();
    while let Some(line) = wire::read_line(&mut input, &mut buf)? {
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
                    .line("option usemillisec type check default true");
                session.out.line(&format!(
                    "option hashsize type spin min 1 max {MAX_HASH_MIB} default 16"
                ));
                session.out.line(&format!(
                    "option threads type spin min 1 max {} default 1",
                    crate::smp::MAX_THREADS
                ));
                session
                    .out
                    .line("option level type spin min 1 max 10 default 10");
                session.out.line("option ponder type check default false");
                session
                    .out
                    .line("option seed type spin min 0 max 4294967295 default 0");
                session.out.line(&format!(
                    "option moveoverhead type spin min 0 max {MAX_MOVE_OVERHEAD_MS} default {DEFAULT_MOVE_OVERHEAD_MS}"
                ));
                session.out.line("option newgame type button");
                session.out.line("ucciok");
            }
            "isready" => session.out.line("readyok"),
            "setoption" => set_option(&mut session, &mut unit, rest),
            "position" => {
                if let Err(e) = session.position(rest) {
                    session.out.line(&format!("info string {e}"));
                }
            }
            "banmoves" => {
                session.stop();
                let mut moves: Vec<Move> = Vec::new();
                for t in rest {
                    match session.game.parse_move(t) {
                        Ok(m) => moves.push(m),
                        Err(e) => session
                            .out
                            .line(&format!("info string banmoves: `{t}` left out: {e}")),
                    }
                }
                session.excluded = moves;
            }
            "go" => {
                // `go ponder …`: think on the opponent's time until `ponderhit` or `stop`;
                // `go draw …` (a draw offer) is heard as a plain `go`.
                let ponder = rest.first() == Some(&"ponder");
                let (limits, notes) = read_go(rest, unit);
                for note in notes {
                    session.out.line(&format!("info string {note}"));
                }
                session.go(limits, ponder);
            }
            // `ponderhit draw` likewise: Banco neither offers nor accepts draws.
            "ponderhit" => {
                if !session.ponderhit() {
                    session
                        .out
                        .line("info string ponderhit: no search is pondering");
                }
            }
            "probe" => {
                for line in session.probe(rest) {
                    session.out.line(&line);
                }
            }
            "stop" => session.stop(),
            "quit" => break,
            _ => session
                .out
                .line(&format!("info string unknown command `{cmd}`")),
        }
    }
    // `quit`, or the end of the input (the interface is gone): a search still running
    // stops now and prints the best move it has.
    session.stop();
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

fn set_option<W: Write + Send + 'static>(
    session: &mut Session<W, Xiangqi>,
    unit: &mut TimeUnit,
    args: &[&str],
) {
    let Some(name) = args.first() else {
        session.out.line("info string setoption needs an option");
        return;
    };
    let name = name.to_ascii_lowercase();
    // `newgame` is a button; the options Banco does without need no value.
    if name == "newgame" {
        session.new_game();
        return;
    }
    if IGNORED_OPTIONS.contains(&name.as_str()) {
        return;
    }
    let Some(value) = args.get(1) else {
        session
            .out
            .line(&format!("info string setoption {name} needs a value"));
        return;
    };
    let check = |value: &str| match value.to_ascii_lowercase().as_str() {
        "true" | "on" | "1" => Some(true),
        "false" | "off" | "0" => Some(false),
        _ => None,
    };
    match name.as_str() {
        "usemillisec" => match check(value) {
            Some(true) => *unit = TimeUnit::Milliseconds,
            Some(false) => *unit = TimeUnit::Seconds,
            None => session.out.line(&format!(
                "info string usemillisec `{value}` is not true or false"
            )),
        },
        "ponder" => match check(value) {
            Some(on) => session.wire.ponder = on,
            None => session
                .out
                .line(&format!("info string ponder `{value}` is not true or false")),
        },
        "moveoverhead" => match value.parse::<u64>() {
            Ok(ms) if ms <= MAX_MOVE_OVERHEAD_MS => session.wire.overhead_ms = ms,
            _ => session.out.line(&format!(
                "info string moveoverhead `{value}` is not a number from 0 to {MAX_MOVE_OVERHEAD_MS}"
            )),
        },
        "seed" => match crate::protocol::seed_option(value) {
            Some(seed) => session.wire.seed = seed,
            None => session.out.line(&format!(
                "info string seed `{value}` is not a whole number (0 draws a new one)"
            )),
        },
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

/// Limits of a UCCI `go` command (`ponder` and `draw` aside), times in milliseconds
/// ([`go_limits_in`] for seconds). `time T` with neither `movestogo` nor `increment` is
/// read as `movestogo 1`, as ElephantEye does: the move may take most of the time left
/// ([`timeman`](crate::timeman)). A limit that is not a whole number is taken at its least
/// (depth 1, nodes 1, time 0); `depth infinite` searches until `stop`.
///
/// ```
/// use banco_engine::ucci::go_limits;
/// let clock = |args: &[&str]| go_limits(args).clock.unwrap();
/// assert_eq!(clock(&["time", "9000"]).moves_to_go, Some(1));
/// assert_eq!(clock(&["time", "9000", "increment", "0"]).moves_to_go, None);
/// assert_eq!(clock(&["time", "9000", "movestogo", "20"]).moves_to_go, Some(20));
/// assert_eq!(clock(&["time", "-5"]).time_ms, 0);
/// assert!(go_limits(&["depth", "infinite"]).infinite);
/// ```
#[must_use]
pub fn go_limits(args: &[&str]) -> Limits {
    go_limits_in(args, TimeUnit::Milliseconds)
}

/// [`go_limits`] with the times (`time`, `increment`) in `unit`.
///
/// ```
/// use banco_engine::ucci::{TimeUnit, go_limits_in};
/// let l = go_limits_in(&["time", "300", "increment", "3"], TimeUnit::Seconds);
/// let c = l.clock.unwrap();
/// assert_eq!((c.time_ms, c.inc_ms), (300_000, 3_000));
/// ```
#[must_use]
pub fn go_limits_in(args: &[&str], unit: TimeUnit) -> Limits {
    read_go(args, unit).0
}

/// [`go_limits_in`] and a note for each limit that was not a whole number, and for each
/// word that is not one of `go`'s.
fn read_go(args: &[&str], unit: TimeUnit) -> (Limits, Vec<String>) {
    let mut r = GoReader::default();
    let mut l = Limits {
        depth: r.depth(args, "depth"),
        nodes: r.count(args, "nodes", 1),
        ..Limits::default()
    };
    let scale = match unit {
        TimeUnit::Milliseconds => 1,
        TimeUnit::Seconds => 1_000,
    };
    if let Some(time) = r.count(args, "time", 0) {
        let inc = r.count(args, "increment", 0);
        // Neither `movestogo` nor `increment`: the time is for this move's control alone,
        // as ElephantEye, the protocol's reference engine, reads it (`movestogo 1`).
        let moves_to_go = number_after(args, "movestogo").or(inc.is_none().then_some(1));
        l.clock = Some(Clock {
            time_ms: time.saturating_mul(scale),
            inc_ms: inc.unwrap_or(0).saturating_mul(scale),
            moves_to_go,
            overhead_ms: None,
        });
    }
    // `movetime` is not UCCI 3.0's, but UCI-minded drivers send it: read as UCI does.
    l.movetime_ms = r
        .count(args, "movetime", 0)
        .map(|t| t.saturating_mul(scale));
    r.unknown_words(
        args,
        &[
            "time",
            "increment",
            "movestogo",
            "opptime",
            "oppincrement",
            "oppmovestogo",
            "depth",
            "nodes",
            "movetime",
        ],
        &["ponder", "draw", "infinite"],
        None,
    );
    if args.contains(&"infinite")
        || (l.depth.is_none() && l.nodes.is_none() && l.clock.is_none() && l.movetime_ms.is_none())
    {
        l.infinite = true;
    }
    (l, r.notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_is_read_and_an_unknown_word_is_said() {
        let (l, notes) = read_go(&["movetime", "300"], TimeUnit::Milliseconds);
        assert_eq!((l.movetime_ms, l.infinite), (Some(300), false));
        assert!(notes.is_empty(), "{notes:?}");
        let (l, _) = read_go(&["movetime", "2"], TimeUnit::Seconds);
        assert_eq!(l.movetime_ms, Some(2_000));
        let (l, notes) = read_go(&["movetme", "300"], TimeUnit::Milliseconds);
        assert!(l.infinite);
        assert_eq!(
            notes,
            [
                "go: `movetme` is not a word of go here; ignored",
                "go: `300` is not a word of go here; ignored"
            ]
        );
        let (_, notes) = read_go(
            &[
                "ponder",
                "draw",
                "time",
                "9",
                "increment",
                "1",
                "opptime",
                "9",
                "oppincrement",
                "1",
                "depth",
                "infinite",
            ],
            TimeUnit::Milliseconds,
        );
        assert!(notes.is_empty(), "{notes:?}");
    }

    #[test]
    fn a_banned_move_that_cannot_be_read_is_said() {
        let mut out = Vec::new();
        run_to_end(
            "ucci\nposition startpos\nbanmoves zz h2e2\nquit\n".as_bytes(),
            &mut out,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("info string banmoves: `zz` left out"),
            "{text}"
        );
    }
}
