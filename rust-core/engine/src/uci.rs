//! The UCI protocol (with `UCI_Variant` for xiangqi), driven line by line: every output
//! line is flushed at once, and the search runs on its own thread so `stop`, `isready`
//! and `quit` are heard while it thinks. Coordinates are a0–i9 (`h2e2`).
//!
//! ```
//! use banco_engine::uci;
//! let input = "uci\nisready\nposition startpos moves h2e2\ngo depth 3\nquit\n";
//! let mut output = Vec::new();
//! uci::run_to_end(input.as_bytes(), &mut output).unwrap();
//! let text = String::from_utf8(output).unwrap();
//! assert!(text.contains("uciok"));
//! assert!(text.contains("readyok"));
//! assert!(text.lines().any(|l| l.starts_with("bestmove ")));
//! ```
//!
//! Commands: `uci`, `isready`, `setoption name Hash|Level|UCI_Variant|Rules value V`,
//! `ucinewgame`, `position startpos|fen FEN [moves …]`, `go [depth N] [nodes N]
//! [movetime MS] [wtime MS btime MS winc MS binc MS movestogo N] [infinite]`, `stop`,
//! `quit`. `go` with no limit searches until `stop`. Malformed commands get an
//! `info string` reply and change nothing.

use crate::error::EngineError;
use crate::level::Level;
use crate::limits::{Clock, Limits};
use crate::protocol::{Dialect, Session, number_after};
use banco_game::{Color, Game};
use banco_xiangqi::RuleSet;
use std::io::{BufRead, Write};

/// Runs a UCI session until `quit` or the end of the input.
pub fn run<R: BufRead, W: Write + Send + 'static>(input: R, output: W) -> Result<(), EngineError> {
    let mut session = Session::new(output, Dialect::Uci);
    for line in input.lines() {
        let line = line?;
        let args: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, rest)) = args.split_first() else {
            continue;
        };
        match cmd {
            "uci" => {
                session.out.line("id name Banco");
                session.out.line("id author Banco developers");
                session
                    .out
                    .line("option name UCI_Variant type combo default xiangqi var xiangqi");
                session
                    .out
                    .line("option name Hash type spin default 16 min 1 max 4096");
                session
                    .out
                    .line("option name Level type spin default 10 min 1 max 10");
                session
                    .out
                    .line("option name Rules type combo default asian var asian var casual");
                session.out.line("uciok");
            }
            "isready" => session.out.line("readyok"),
            "ucinewgame" => session.new_game(),
            "setoption" => set_option(&mut session, rest),
            "position" => {
                if let Err(e) = session.position(rest) {
                    session.out.line(&format!("info string {e}"));
                }
            }
            "go" => {
                let limits = go_limits(rest, session.game.side_to_move());
                session.go(limits);
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
    Ok(())
}

/// [`run`] with a borrowed writer: waits for the session to end (for tests and tools).
pub fn run_to_end<R: BufRead>(input: R, output: &mut Vec<u8>) -> Result<(), EngineError> {
    let shared = SharedBuf::default();
    let result = run(input, shared.clone());
    output.extend_from_slice(&shared.take());
    result
}

/// An in-memory writer that can be shared with the search thread.
#[derive(Clone, Debug, Default)]
pub struct SharedBuf(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl SharedBuf {
    /// Everything written so far (leaving the buffer empty).
    #[must_use]
    pub fn take(&self) -> Vec<u8> {
        std::mem::take(
            &mut *self
                .0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
    }

    /// Everything written so far, as text (the buffer keeps it).
    #[must_use]
    pub fn text(&self) -> String {
        String::from_utf8_lossy(
            &self
                .0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
        .into_owned()
    }
}

impl Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn set_option<W: Write + Send + 'static>(session: &mut Session<W>, args: &[&str]) {
    let name_at = args.iter().position(|&t| t.eq_ignore_ascii_case("name"));
    let value_at = args.iter().position(|&t| t.eq_ignore_ascii_case("value"));
    let (Some(n), Some(v)) = (name_at, value_at) else {
        session
            .out
            .line("info string setoption needs `name … value …`");
        return;
    };
    let name = args.get(n + 1..v).map(|s| s.join(" ")).unwrap_or_default();
    let value = args.get(v + 1..).map(|s| s.join(" ")).unwrap_or_default();
    match name.to_ascii_lowercase().as_str() {
        "hash" => match value.parse::<usize>() {
            Ok(mib) => session.resize(mib),
            Err(_) => session
                .out
                .line(&format!("info string Hash `{value}` is not a number")),
        },
        "level" => match value
            .parse::<u8>()
            .map_err(|_| EngineError::BadLevel(0))
            .and_then(Level::new)
        {
            Ok(l) => session.level = l,
            Err(e) => session.out.line(&format!("info string {e}")),
        },
        "uci_variant" => {
            if !value.eq_ignore_ascii_case("xiangqi") {
                session.out.line(&format!(
                    "info string variant `{value}` is not supported; playing xiangqi"
                ));
            }
        }
        "rules" => match RuleSet::from_name(&value) {
            Some(r) => session.rules = r,
            None => session
                .out
                .line(&format!("info string unknown rules `{value}`")),
        },
        _ => session
            .out
            .line(&format!("info string unknown option `{name}`")),
    }
}

/// Limits of a UCI `go` command for the side to move.
#[must_use]
pub fn go_limits(args: &[&str], side: Color) -> Limits {
    let mut l = Limits {
        depth: number_after(args, "depth"),
        nodes: number_after(args, "nodes"),
        movetime_ms: number_after(args, "movetime"),
        ..Limits::default()
    };
    let (t, i) = match side {
        Color::Red => ("wtime", "winc"),
        Color::Black => ("btime", "binc"),
    };
    if let Some(time_ms) = number_after::<u64>(args, t) {
        l.clock = Some(Clock {
            time_ms,
            inc_ms: number_after(args, i).unwrap_or(0),
            moves_to_go: number_after(args, "movestogo"),
        });
    }
    if args.contains(&"infinite")
        || (l.depth.is_none() && l.nodes.is_none() && l.movetime_ms.is_none() && l.clock.is_none())
    {
        l.infinite = true;
    }
    l
}
