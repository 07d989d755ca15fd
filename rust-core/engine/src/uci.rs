//! The UCI protocol for every game the engine plays, driven line by line: every output
//! line is flushed at once, and the search runs on its own thread so `stop`, `isready`
//! and `quit` are heard while it thinks. `setoption name UCI_Variant value NAME` switches
//! the game (`xiangqi` by default, or the game [`run_variant`] starts with; the names are
//! the games' [`EngineGame::NAME`]s: `xiangqi`, `chess`), which resets the position to the
//! game's start and its rules to their default; moves are the game's UCI text
//! ([`EngineGame::parse_move`]: xiangqi coordinates a0–i9, `h2e2`; chess standard
//! coordinates, `e2e4`, promotions `e7e8q`, castling `e1g1`). Started on chess, the loop
//! serves standard chess GUIs and match tools, which never send `UCI_Variant`.
//!
//! One loop serves every game: each game's session is the same generic code behind a small
//! object-safe trait, and the games are listed once, in `variants` (adding a game is one
//! line there).
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
//!
//! // Chess, as a chess GUI drives it.
//! let input = "uci\nposition startpos moves e2e4\ngo depth 4\n";
//! let out = uci::SharedBuf::default();
//! uci::run_variant(input.as_bytes(), out.clone(), "chess").unwrap();
//! assert!(out.text().contains("option name UCI_Variant type combo default chess"));
//! ```
//!
//! Commands: `uci`, `isready`, `setoption name Hash|Threads|Level|Seed|UCI_Variant|Rules|
//! UCI_Chess960|Ponder|Move Overhead|XiangqiRanks value V` (`Threads`: Lazy SMP, 1 by
//! default, for `Level` 10 only: the levels below search on one thread,
//! [`level`](crate::level); `Seed N`: the levels' choices, otherwise drawn afresh for
//! each run of the engine, repeat for a given N — 0, the default, draws a new seed;
//! `UCI_Chess960 true`: chess castling as the king taking its own
//! rook, `e1h1`, as Chess960 GUIs send and expect — positions that need Chess960 get it
//! anyway; `Ponder true`: `bestmove M ponder R` names the reply expected; `Move Overhead`:
//! milliseconds every move on a clock keeps back for the GUI and the system, 30 by
//! default, [`timeman`](crate::timeman); `XiangqiRanks 1-10`: xiangqi and jieqi moves
//! written and read with ranks 1–10, `h3e3`, `b3b10`, as Cute Chess and Fairy-Stockfish
//! write them under `UCI_Variant xiangqi` — the default `0-9` is ICCS, `h2e2`),
//! `ucinewgame`, `position startpos|fen FEN [moves …]`, `go [depth N] [nodes N]
//! [movetime MS] [wtime MS btime MS winc MS binc MS movestogo N] [infinite]
//! [searchmoves M…] [ponder]`, `ponderhit`, `stop`, `quit`. `go` with no limit searches
//! until `stop`; `nodes N` counts the nodes of every thread; a limit that is not a whole
//! number (`depth -3`, `movetime -5`, `depth 1.5`) is taken at its least (depth 1, nodes 1,
//! movetime 0) with an `info string`, so the search still answers. `go ponder` thinks on
//! the opponent's time, without the clock or the node limit, until `ponderhit` (the
//! search goes on under the `go` command's limits, the clock counted from the
//! `ponderhit`) or `stop` (the best move found so far); as in UCCI. Malformed commands
//! get an `info string` reply and change nothing; a line that is not UTF-8 is read with
//! its bad bytes replaced. The end of the input is heard as `quit`: a search still
//! running stops at once and prints the best move found so far.

use crate::engine_game::EngineGame;
use crate::error::EngineError;
use crate::level::Level;
use crate::limits::{Clock, Limits};
use crate::protocol::wire::{self, GoReader};
use crate::protocol::{Dialect, MAX_MOVE_OVERHEAD_MS, Out, Session, WireOptions, number_after};
use banco_chess::Chess;
use banco_game::Color;
use banco_xiangqi::Xiangqi;
use std::io::{BufRead, Write};

/// A game that `UCI_Variant` can name: its name, its rule sets and how to start a session.
struct Variant<W: Write> {
    name: &'static str,
    rule_names: &'static [&'static str],
    start: fn(Out<W>, usize, Level) -> Box<dyn UciSession<W>>,
}

/// The [`Variant`] of game `G`.
fn variant<W: Write + Send + 'static, G: EngineGame>() -> Variant<W> {
    Variant {
        name: G::NAME,
        rule_names: G::RULE_NAMES,
        start: |out, hash_mib, level| {
            Box::new(Session::<W, G>::new(out, Dialect::Uci, hash_mib, level))
        },
    }
}

/// Every game UCI plays, the default first. Adding a game is one line here.
fn variants<W: Write + Send + 'static>() -> Vec<Variant<W>> {
    #[allow(unused_mut)] // the unit tests add the dice race
    let mut all = vec![
        variant::<W, Xiangqi>(),
        variant::<W, Chess>(),
        variant::<W, banco_xiangqi::jieqi::Jieqi>(),
    ];
    #[cfg(test)]
    all.push(variant::<W, banco_game::toy::DiceRace>());
    all
}

/// What the UCI loop asks of a session, whatever its game.
trait UciSession<W: Write> {
    fn out(&self) -> &Out<W>;
    fn name(&self) -> &'static str;
    fn hash_mib(&self) -> usize;
    fn threads(&self) -> usize;
    fn set_threads(&mut self, threads: usize);
    fn chess960(&self) -> bool;
    fn set_chess960(&mut self, on: bool);
    fn level(&self) -> Level;
    fn set_level(&mut self, level: Level);
    /// Sets the rules of that name; false if the game has none of that name.
    fn set_rules(&mut self, name: &str) -> bool;
    fn resize(&mut self, mib: usize);
    fn new_game(&mut self);
    fn position(&mut self, args: &[&str]) -> Result<(), EngineError>;
    fn go(&mut self, args: &[&str]);
    /// `ponderhit`; false when no search is pondering.
    fn ponderhit(&mut self) -> bool;
    fn stop(&mut self);
    /// The protocol's own options ([`WireOptions`]), kept across `UCI_Variant`.
    fn wire_options(&self) -> WireOptions;
    fn set_wire_options(&mut self, options: WireOptions);
}

impl<W: Write + Send + 'static, G: EngineGame> UciSession<W> for Session<W, G> {
    fn out(&self) -> &Out<W> {
        &self.out
    }
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn hash_mib(&self) -> usize {
        self.hash_mib
    }
    fn threads(&self) -> usize {
        self.threads
    }
    fn set_threads(&mut self, threads: usize) {
        Session::set_threads(self, threads);
    }
    fn chess960(&self) -> bool {
        self.chess960
    }
    fn set_chess960(&mut self, on: bool) {
        Session::set_chess960(self, on);
    }
    fn level(&self) -> Level {
        self.level
    }
    fn set_level(&mut self, level: Level) {
        self.level = level;
    }
    fn set_rules(&mut self, name: &str) -> bool {
        G::rules_named(name).map(|r| self.rules = r).is_some()
    }
    fn resize(&mut self, mib: usize) {
        Session::resize(self, mib);
    }
    fn new_game(&mut self) {
        Session::new_game(self);
    }
    fn position(&mut self, args: &[&str]) -> Result<(), EngineError> {
        Session::position(self, args)
    }
    fn go(&mut self, args: &[&str]) {
        let (limits, notes) = read_go(args, self.game.side_to_move());
        for note in notes {
            self.out.line(&format!("info string {note}"));
        }
        // `searchmoves m1 m2 …`: the root moves not listed are left out.
        if let Some(at) = args.iter().position(|&t| t == "searchmoves") {
            let listed: Vec<G::Move> = args[at + 1..]
                .iter()
                .take_while(|t| !is_go_word(t))
                .filter_map(|t| self.parse_wire_move(t).ok())
                .collect();
            if !listed.is_empty() {
                let mut legal = banco_game::MoveList::new();
                self.game.legal_moves(&mut legal);
                self.excluded = legal
                    .iter()
                    .copied()
                    .filter(|m| !listed.contains(m))
                    .collect();
            }
        }
        Session::go(self, limits, args.contains(&"ponder"));
    }
    fn ponderhit(&mut self) -> bool {
        Session::ponderhit(self)
    }
    fn stop(&mut self) {
        Session::stop(self);
    }
    fn wire_options(&self) -> WireOptions {
        self.wire
    }
    fn set_wire_options(&mut self, options: WireOptions) {
        self.wire = options;
    }
}

/// The `option` lines of the `uci` answer; `current` is the variant played now. `Rules`
/// offers the current game's rule sets only (`setoption name Rules` refuses the others; a
/// GUI that switches `UCI_Variant` asks `uci` again to see the new game's).
fn option_lines<W: Write>(variants: &[Variant<W>], current: &str) -> Vec<String> {
    let names: Vec<String> = variants.iter().map(|v| format!("var {}", v.name)).collect();
    let rules: &[&str] = variants
        .iter()
        .find(|v| v.name.eq_ignore_ascii_case(current))
        .map_or(&[], |v| v.rule_names);
    let default_rules = rules.first().copied().unwrap_or("default");
    let rules: Vec<String> = rules.iter().map(|r| format!("var {r}")).collect();
    vec![
        format!(
            "option name UCI_Variant type combo default {current} {}",
            names.join(" ")
        ),
        format!(
            "option name Hash type spin default 16 min 1 max {}",
            crate::protocol::MAX_HASH_MIB
        ),
        format!(
            "option name Threads type spin default 1 min 1 max {}",
            crate::smp::MAX_THREADS
        ),
        "option name Level type spin default 10 min 1 max 10".to_owned(),
        "option name UCI_Chess960 type check default false".to_owned(),
        format!(
            "option name Rules type combo default {default_rules} {}",
            rules.join(" ")
        ),
        "option name Ponder type check default false".to_owned(),
        "option name Seed type spin default 0 min 0 max 4294967295".to_owned(),
        format!(
            "option name Move Overhead type spin default {} min 0 max {MAX_MOVE_OVERHEAD_MS}",
            crate::protocol::DEFAULT_MOVE_OVERHEAD_MS
        ),
        "option name XiangqiRanks type combo default 0-9 var 0-9 var 1-10".to_owned(),
    ]
}

/// Runs a UCI session until `quit` or the end of the input, playing xiangqi until
/// `UCI_Variant` names another game.
pub fn run<R: BufRead, W: Write + Send + 'static>(input: R, output: W) -> Result<(), EngineError> {
    run_variant(input, output, "xiangqi")
}

/// [`run`] starting with the game named `variant` (an [`EngineGame::NAME`], any case; an
/// unknown name starts with xiangqi): `chess` serves standard chess GUIs, which never set
/// `UCI_Variant`.
pub fn run_variant<R: BufRead, W: Write + Send + 'static>(
    input: R,
    output: W,
    variant: &str,
) -> Result<(), EngineError> {
    let variants = variants::<W>();
    let out = Out::new(output);
    let Some(first) = variants
        .iter()
        .find(|v| v.name.eq_ignore_ascii_case(variant))
        .or(variants.first())
    else {
        return Ok(());
    };
    let mut session = (first.start)(out.clone(), 16, Level::MAX);
    let mut input = input;
    let mut buf = Vec::new();
    while let Some(line) = wire::read_line(&mut input, &mut buf)? {
        let args: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, rest)) = args.split_first() else {
            continue;
        };
        match cmd {
            "uci" => {
                out.line("id name Banco");
                out.line("id author Banco developers");
                for l in option_lines(&variants, session.name()) {
                    out.line(&l);
                }
                out.line("uciok");
            }
            "isready" => out.line("readyok"),
            "ucinewgame" => session.new_game(),
            "setoption" => set_option(&mut session, &variants, rest),
            "position" => {
                if let Err(e) = session.position(rest) {
                    out.line(&format!("info string {e}"));
                }
            }
            "go" => session.go(rest),
            "ponderhit" => {
                if !session.ponderhit() {
                    out.line("info string ponderhit: no search is pondering");
                }
            }
            "stop" => session.stop(),
            "quit" => {
                session.stop();
                break;
            }
            _ => out.line(&format!("info string unknown command `{cmd}`")),
        }
    }
    // The end of the input (the GUI is gone) is `quit`: a search still running stops now
    // and prints the best move it has, rather than thinking on to its limit for nobody.
    session.stop();
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

fn set_option<W: Write + Send + 'static>(
    session: &mut Box<dyn UciSession<W>>,
    variants: &[Variant<W>],
    args: &[&str],
) {
    let name_at = args.iter().position(|&t| t.eq_ignore_ascii_case("name"));
    let value_at = args.iter().position(|&t| t.eq_ignore_ascii_case("value"));
    let out = session.out().clone();
    let (Some(n), Some(v)) = (name_at, value_at) else {
        out.line("info string setoption needs `name … value …`");
        return;
    };
    let name = args.get(n + 1..v).map(|s| s.join(" ")).unwrap_or_default();
    let value = args.get(v + 1..).map(|s| s.join(" ")).unwrap_or_default();
    match name.to_ascii_lowercase().as_str() {
        "hash" => match value.parse::<usize>() {
            Ok(mib) => session.resize(mib),
            Err(_) => out.line(&format!("info string Hash `{value}` is not a number")),
        },
        "threads" => match value.parse::<usize>() {
            Ok(n) if (1..=crate::smp::MAX_THREADS).contains(&n) => session.set_threads(n),
            _ => out.line(&format!(
                "info string Threads `{value}` is not a number from 1 to {}",
                crate::smp::MAX_THREADS
            )),
        },
        "uci_chess960" => match value.to_ascii_lowercase().as_str() {
            "true" => session.set_chess960(true),
            "false" => session.set_chess960(false),
            _ => out.line(&format!(
                "info string UCI_Chess960 `{value}` is not true or false"
            )),
        },
        "level" => match value
            .parse::<u8>()
            .map_err(|_| EngineError::BadLevel(0))
            .and_then(Level::new)
        {
            Ok(l) => session.set_level(l),
            Err(e) => out.line(&format!("info string {e}")),
        },
        "uci_variant" => {
            match variants
                .iter()
                .find(|v| v.name.eq_ignore_ascii_case(&value))
            {
                Some(v) if v.name == session.name() => {}
                Some(v) => {
                    session.stop();
                    let (hash_mib, level) = (session.hash_mib(), session.level());
                    let (threads, chess960) = (session.threads(), session.chess960());
                    let wire = session.wire_options();
                    *session = (v.start)(out, hash_mib, level);
                    session.set_wire_options(wire);
                    if threads > 1 {
                        session.set_threads(threads);
                    }
                    if chess960 {
                        session.set_chess960(true);
                    }
                }
                None => {
                    let known: Vec<&str> = variants.iter().map(|v| v.name).collect();
                    out.line(&format!(
                        "info string variant `{value}` is not supported ({}); playing {}",
                        known.join(", "),
                        session.name()
                    ));
                }
            }
        }
        "rules" => {
            if !session.set_rules(&value) {
                out.line(&format!("info string unknown rules `{value}`"));
            }
        }
        "ponder" => match value.to_ascii_lowercase().as_str() {
            "true" => wire_option(session, |w| w.ponder = true),
            "false" => wire_option(session, |w| w.ponder = false),
            _ => out.line(&format!("info string Ponder `{value}` is not true or false")),
        },
        "move overhead" => match value.parse::<u64>() {
            Ok(ms) if ms <= MAX_MOVE_OVERHEAD_MS => wire_option(session, |w| w.overhead_ms = ms),
            _ => out.line(&format!(
                "info string Move Overhead `{value}` is not a number from 0 to {MAX_MOVE_OVERHEAD_MS}"
            )),
        },
        "seed" => match crate::protocol::seed_option(&value) {
            Some(seed) => wire_option(session, |w| w.seed = seed),
            None => out.line(&format!(
                "info string Seed `{value}` is not a whole number (0 draws a new one)"
            )),
        },
        "xiangqiranks" => match value.as_str() {
            "0-9" => wire_option(session, |w| w.ranks_from_one = false),
            "1-10" => wire_option(session, |w| w.ranks_from_one = true),
            _ => out.line(&format!(
                "info string XiangqiRanks `{value}` is not 0-9 or 1-10"
            )),
        },
        _ => out.line(&format!("info string unknown option `{name}`")),
    }
}

/// Changes the protocol options of `session` with `change`.
fn wire_option<W: Write>(
    session: &mut Box<dyn UciSession<W>>,
    change: impl FnOnce(&mut WireOptions),
) {
    let mut w = session.wire_options();
    change(&mut w);
    session.set_wire_options(w);
}

/// The words of a UCI `go` command that take a value after them.
const GO_VALUED: [&str; 9] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
];

/// The words of a UCI `go` command that stand alone.
const GO_FLAGS: [&str; 2] = ["ponder", "infinite"];

/// Whether `t` is a word of a UCI `go` command (where a `searchmoves` list ends).
fn is_go_word(t: &str) -> bool {
    t == "searchmoves" || GO_VALUED.contains(&t) || GO_FLAGS.contains(&t)
}

/// Limits of a UCI `go` command for the side to move. A clock given for either side makes
/// it a clock game: the side to move's time (0 when only the other side's is given, or
/// negative, as some interfaces send once the flag fell) makes the search answer at once.
/// `mate N` looks `2N - 1` plies deep (a mate in N is found there), unless a depth is given.
/// A limit that is not a whole number (`depth -3`, `depth 1.5`, `movetime -5`, a key with
/// nothing after it) is taken at its least — depth 1, nodes 1, movetime 0 — so that the
/// search still answers (it used to be dropped, leaving a search without end).
///
/// ```
/// use banco_engine::uci::go_limits;
/// use banco_game::Color;
/// let l = go_limits(&["movetime", "-5"], Color::Red);
/// assert_eq!((l.movetime_ms, l.infinite), (Some(0), false));
/// assert_eq!(go_limits(&["depth", "1.5"], Color::Red).depth, Some(1));
/// ```
#[must_use]
pub fn go_limits(args: &[&str], side: Color) -> Limits {
    read_go(args, side).0
}

/// [`go_limits`] and a note for each limit that was not a whole number, and for each word
/// that is not one of `go`'s.
fn read_go(args: &[&str], side: Color) -> (Limits, Vec<String>) {
    let mut r = GoReader::default();
    let mut l = Limits {
        depth: r.depth(args, "depth"),
        nodes: r.count(args, "nodes", 1),
        movetime_ms: r.count(args, "movetime", 0),
        ..Limits::default()
    };
    r.unknown_words(args, &GO_VALUED, &GO_FLAGS, Some("searchmoves"));
    let mate = r.depth(args, "mate");
    if l.depth.is_none() {
        l.depth = mate.map(|n| n.max(1).saturating_mul(2) - 1);
    }
    let (t, i) = match side {
        Color::Red => ("wtime", "winc"),
        Color::Black => ("btime", "binc"),
    };
    let ms = |key: &str| number_after::<i64>(args, key).map(|v| u64::try_from(v).unwrap_or(0));
    if args.contains(&"wtime") || args.contains(&"btime") {
        l.clock = Some(Clock {
            time_ms: ms(t).unwrap_or(0),
            inc_ms: ms(i).unwrap_or(0),
            moves_to_go: number_after(args, "movestogo"),
            overhead_ms: None,
        });
    }
    if args.contains(&"infinite")
        || (l.depth.is_none() && l.nodes.is_none() && l.movetime_ms.is_none() && l.clock.is_none())
    {
        l.infinite = true;
    }
    (l, r.notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(input: &str) -> String {
        let mut output = Vec::new();
        run_to_end(input.as_bytes(), &mut output).unwrap();
        String::from_utf8(output).unwrap()
    }

    #[test]
    fn an_unknown_word_of_go_is_said() {
        let (l, notes) = read_go(&["movetme", "300"], Color::Red);
        assert!(l.infinite);
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(
            notes[0].contains("`movetme` is not a word of go"),
            "{notes:?}"
        );
        let (_, notes) = read_go(
            &[
                "ponder",
                "wtime",
                "9",
                "btime",
                "9",
                "winc",
                "1",
                "binc",
                "1",
                "movestogo",
                "3",
                "searchmoves",
                "e2e4",
                "d2d4",
                "depth",
                "3",
            ],
            Color::Red,
        );
        assert!(notes.is_empty(), "{notes:?}");
    }

    #[test]
    fn jieqi_over_uci() {
        // A step of a face-down piece, its reveal, and Black's answer.
        let text = session(
            "uci\n\
             setoption name UCI_Variant value jieqi\n\
             position startpos moves h2e2 =R\n\
             go depth 2\n\
             quit\n",
        );
        let best: Vec<&str> = text.lines().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(best.len(), 1, "{text}");
        assert_eq!(best[0].len(), "bestmove h9g7".len(), "{text}");
    }

    #[test]
    fn uci_variant_switches_the_game() {
        let text = session(
            "uci\n\
             setoption name UCI_Variant value dice-race\n\
             position startpos moves roll d2\n\
             go depth 3\n\
             setoption name UCI_Variant value go\n\
             setoption name Rules value asian\n\
             setoption name UCI_Variant value xiangqi\n\
             setoption name Rules value asian\n\
             position startpos moves h2e2\n\
             go depth 2\n\
             quit\n",
        );
        assert!(
            text.contains(
                "option name UCI_Variant type combo default xiangqi var xiangqi var chess var jieqi var dice-race"
            ),
            "{text}"
        );
        let best: Vec<&str> = text.lines().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(best.len(), 2, "{text}");
        assert!(
            ["bestmove step", "bestmove roll"].contains(&best[0]),
            "{text}"
        );
        assert_eq!(best[1].len(), "bestmove h9g7".len(), "{text}");
        assert!(text.contains(
            "variant `go` is not supported (xiangqi, chess, jieqi, dice-race); playing dice-race"
        ));
        // The dice race has no Asian rules; xiangqi has.
        assert_eq!(text.matches("unknown rules `asian`").count(), 1, "{text}");
    }

    #[test]
    fn a_position_awaiting_chance_has_no_best_move() {
        let text = session(
            "setoption name UCI_Variant value dice-race\n\
             position startpos moves roll\n\
             go depth 2\n\
             quit\n",
        );
        // Answered at once: no search of the chance node.
        assert!(
            text.contains("info string the position awaits a reveal"),
            "{text}"
        );
        assert!(text.contains("bestmove 0000"), "{text}");
        assert!(!text.contains("info depth"), "{text}");
    }

    #[test]
    fn every_go_is_finite_unless_infinite() {
        // Mate in N looks 2N - 1 plies deep.
        let l = go_limits(&["mate", "1"], Color::Red);
        assert_eq!((l.depth, l.infinite), (Some(1), false));
        let l = go_limits(&["mate", "3", "depth", "9"], Color::Red);
        assert_eq!(l.depth, Some(9));
        // A fallen flag (negative time) or a clock given only for the other side: a clock
        // game with no time left, answered at once.
        for args in [
            &["wtime", "-50", "btime", "1000"][..],
            &["btime", "1000", "binc", "0"][..],
        ] {
            let l = go_limits(args, Color::Red);
            assert!(!l.infinite, "{args:?}");
            assert_eq!(l.clock.map(|c| c.time_ms), Some(0), "{args:?}");
        }
        let l = go_limits(
            &["wtime", "60000", "btime", "1000", "winc", "-5"],
            Color::Red,
        );
        assert_eq!(l.clock.map(|c| (c.time_ms, c.inc_ms)), Some((60_000, 0)));
        assert!(go_limits(&[], Color::Red).infinite);
        assert!(go_limits(&["infinite"], Color::Black).infinite);
    }

    /// `go movetime -5`, `go depth -3`, `go depth 1.5` dropped the limit and searched
    /// until `stop`: such a limit is taken at its least and noted.
    #[test]
    fn a_limit_that_is_not_a_number_is_bounded() {
        for (args, depth, nodes, movetime) in [
            (&["movetime", "-5"][..], None, None, Some(0)),
            (&["depth", "-3"][..], Some(1), None, None),
            (&["depth", "1.5"][..], Some(1), None, None),
            (&["depth"][..], Some(1), None, None),
            (&["nodes", "many"][..], None, Some(1), None),
            (&["mate", "0"][..], Some(1), None, None),
        ] {
            let (l, notes) = read_go(args, Color::Red);
            assert_eq!(
                (l.depth, l.nodes, l.movetime_ms),
                (depth, nodes, movetime),
                "{args:?}"
            );
            assert!(!l.infinite, "{args:?}");
            assert_eq!(
                notes.len(),
                usize::from(args[0] != "mate"),
                "{args:?}: {notes:?}"
            );
        }
        // `depth infinite` is no limit, as UCCI has it.
        let (l, notes) = read_go(&["depth", "infinite"], Color::Red);
        assert!(l.infinite && notes.is_empty());
    }

    #[test]
    fn searchmoves_and_a_bad_position_command() {
        let text = session(
            "position startpos\n\
             go searchmoves a0a1 i3i4 depth 3\n\
             position startpos moves h2e2 zzzz h9g7\n\
             go depth 2\n\
             quit\n",
        );
        let best: Vec<&str> = text.lines().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(best.len(), 2, "{text}");
        assert!(
            ["bestmove a0a1", "bestmove i3i4"].contains(&best[0]),
            "{text}"
        );
        // Played up to the bad move: Black to move after h2e2.
        let rank = best[1].as_bytes()["bestmove h9".len()];
        assert!(rank >= b'5', "{text}");
        assert!(text.contains("info string"), "{text}");
    }
}
