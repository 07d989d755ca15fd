//! What the UCI and UCCI front ends share: a session of one game (position, options, a
//! search thread that can be stopped at any time), the parsing of `position` commands, the
//! lines printed, and the text on the wire ([`wire`]: input read as bytes, the numbers of
//! `go`, xiangqi ranks from 1).
//!
//! A `position` command that cannot be read (a bad FEN, neither `startpos` nor `fen`)
//! leaves no position: a `go` then answers at once with an `info string` and `bestmove
//! 0000` (UCCI `nobestmove`) rather than a move of the previous position. A move list
//! that goes wrong keeps the position before the bad move, as other engines do.
//!
//! The best move names the expected reply, `bestmove M ponder R` (UCI and UCCI alike),
//! when the interface turned pondering on (`Ponder`, UCCI `ponder`) and the principal
//! variation has a second move.

pub(crate) mod wire;

use crate::engine_game::{EngineGame, ParamsOf};
use crate::error::EngineError;
use crate::level::{self, Level};
use crate::limits::Limits;
use crate::score::Score;
use crate::search::{SearchInfo, SearchOptions, SearchResult, Searcher};
use crate::searchable::SearchGame;
use crate::tt::{Bound, Hit};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

/// The dialect to print in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    Uci,
    Ucci,
}

/// The largest table `Hash` (UCCI `hashsize`) gives, in MiB.
pub(crate) const MAX_HASH_MIB: usize = 4096;

/// UCI's default `Move Overhead` (UCCI `moveoverhead`), in milliseconds.
pub(crate) const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;
/// The largest `Move Overhead` accepted.
pub(crate) const MAX_MOVE_OVERHEAD_MS: u64 = 5_000;

/// Options of the protocol itself (not of the game), kept when `UCI_Variant` switches
/// the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WireOptions {
    /// `Move Overhead` (UCCI `moveoverhead`): milliseconds a move keeps back from the
    /// clock for the interface and the system ([`Clock::overhead_ms`](crate::Clock)).
    pub(crate) overhead_ms: u64,
    /// `Ponder` (UCCI `ponder`): the best move names the expected reply.
    pub(crate) ponder: bool,
    /// UCI's `XiangqiRanks 1-10`: xiangqi moves written and read with ranks 1–10.
    pub(crate) ranks_from_one: bool,
    /// `Seed` (UCCI `seed`): mixed with each position's hash into the seed of a level's
    /// choice ([`level`]), so that the levels below 10 do not play the
    /// same game every time they meet the same moves. Drawn from the system for each
    /// engine run ([`fresh_seed`]); a GUI or a test sets it to repeat a match.
    pub(crate) seed: u64,
}

impl Default for WireOptions {
    fn default() -> Self {
        WireOptions {
            overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            ponder: false,
            ranks_from_one: false,
            seed: fresh_seed(),
        }
    }
}

/// A seed the system drew (the standard library's per-process random hashing keys), never
/// 0: `setoption name Seed value 0` asks for a fresh one.
pub(crate) fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(0x6261_6e63_6f5f_7365);
    h.finish().max(1)
}

/// The seed of a level's choice in a position: its hash mixed with the run's seed (one
/// round of SplitMix64, so nearby seeds give unrelated choices).
fn level_seed(position_hash: u64, seed: u64) -> u64 {
    let mut z = position_hash ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed option's value as given: 0 draws a fresh seed; `None` if it is not a number.
pub(crate) fn seed_option(value: &str) -> Option<u64> {
    match value.trim().parse::<u64>().ok()? {
        0 => Some(fresh_seed()),
        n => Some(n),
    }
}

/// How lines are printed: the dialect and the options that shape the text.
#[derive(Clone, Copy, Debug)]
struct Wire {
    dialect: Dialect,
    ponder: bool,
    /// Ranks written from 1 (the option is on and the game counts from 0).
    ranks_from_one: bool,
}

impl Wire {
    /// A move's text as the interface reads it.
    fn out(self, text: String) -> String {
        if self.ranks_from_one {
            wire::ranks_to_one(&text)
        } else {
            text
        }
    }

    /// A line of moves' text (space-separated) as the interface reads it.
    fn out_line(self, text: String) -> String {
        if self.ranks_from_one {
            let words: Vec<String> = text.split(' ').map(wire::ranks_to_one).collect();
            words.join(" ")
        } else {
            text
        }
    }
}

/// A shared writer that flushes every line.
pub(crate) struct Out<W: Write>(Arc<Mutex<W>>);

impl<W: Write> Clone for Out<W> {
    fn clone(&self) -> Self {
        Out(Arc::clone(&self.0))
    }
}

impl<W: Write> Out<W> {
    pub(crate) fn new(w: W) -> Out<W> {
        Out(Arc::new(Mutex::new(w)))
    }

    /// Writes one line and flushes; errors (a closed pipe) are ignored, as nobody is
    /// left to hear them.
    pub(crate) fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }
}

/// Position, options and the search thread of one game.
pub(crate) struct Session<W: Write + Send + 'static, G: EngineGame> {
    pub(crate) out: Out<W>,
    pub(crate) game: G,
    pub(crate) rules: G::Rules,
    pub(crate) level: Level,
    pub(crate) hash_mib: usize,
    /// Threads of a search (Lazy SMP; 1 by default).
    pub(crate) threads: usize,
    /// UCI's `UCI_Chess960`: every position set up from now on uses Chess960 notation.
    pub(crate) chess960: bool,
    pub(crate) excluded: Vec<G::Move>,
    /// Options of the protocol ([`WireOptions`]).
    pub(crate) wire: WireOptions,
    /// False after a `position` command that could not be read: `go` has nothing to
    /// search.
    has_position: bool,
    dialect: Dialect,
    searcher: Arc<Mutex<Searcher<G::Node>>>,
    stop: Arc<AtomicBool>,
    /// [`PONDERING`] while a `go ponder` search waits for `ponderhit` or `stop`,
    /// [`PONDER_HIT`] once `ponderhit` came, else [`NOT_PONDERING`].
    ponder: Arc<AtomicU8>,
    /// Stops the pondering part of a `go ponder` search (raised by `ponderhit` and `stop`).
    ponder_stop: Arc<AtomicBool>,
    worker: Option<JoinHandle<()>>,
    /// A new table being allocated ([`Session::resize`]); the next search waits for it.
    resizing: Option<JoinHandle<()>>,
}

/// No `go ponder` search, or one that `stop` ended.
const NOT_PONDERING: u8 = 0;
/// A `go ponder` search before `ponderhit`: no clock, no node limit.
const PONDERING: u8 = 1;
/// A `go ponder` search after `ponderhit`: the `go` command's limits, counted from then.
const PONDER_HIT: u8 = 2;

impl<W: Write + Send + 'static, G: EngineGame> Session<W, G> {
    /// A session at the start position with a table of `hash_mib` MiB.
    pub(crate) fn new(out: Out<W>, dialect: Dialect, hash_mib: usize, level: Level) -> Self {
        let hash_mib = hash_mib.clamp(1, MAX_HASH_MIB);
        Session {
            out,
            game: G::start(),
            rules: G::Rules::default(),
            level,
            hash_mib,
            threads: 1,
            chess960: false,
            excluded: Vec::new(),
            wire: WireOptions::default(),
            has_position: true,
            dialect,
            searcher: Arc::new(Mutex::new(Searcher::new(hash_mib))),
            stop: Arc::new(AtomicBool::new(false)),
            ponder: Arc::new(AtomicU8::new(NOT_PONDERING)),
            ponder_stop: Arc::new(AtomicBool::new(false)),
            worker: None,
            resizing: None,
        }
    }

    /// Stops a running search (pondering or not) and waits for its `bestmove`.
    pub(crate) fn stop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.ponder_stop.store(true, Ordering::SeqCst);
        if let Some(h) = self.worker.take() {
            let _ = h.join();
        }
    }

    /// `ponderhit`: the move pondered on was played. The search goes on under the limits
    /// of its `go ponder` command, its clock counted from now (see [`Session::go`]). False
    /// (and nothing done) when no search is pondering.
    pub(crate) fn ponderhit(&mut self) -> bool {
        let hit = self.worker.is_some()
            && self
                .ponder
                .compare_exchange(PONDERING, PONDER_HIT, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok();
        if hit {
            self.ponder_stop.store(true, Ordering::SeqCst);
        }
        hit
    }

    /// A table of `mib` MiB (1 to [`MAX_HASH_MIB`]; a size beyond is taken at the nearest
    /// and an `info string` says so). The table is allocated (and written once: about 3 s
    /// a GiB) on a thread of its own, so the session goes on reading commands — `isready`
    /// answers at once — and the next search starts when the table is ready.
    pub(crate) fn resize(&mut self, mib: usize) {
        self.stop();
        self.wait_for_table();
        let size = mib.clamp(1, MAX_HASH_MIB);
        if size != mib {
            self.out.line(&format!(
                "info string a table of {mib} MiB is out of range (1 to {MAX_HASH_MIB}): using {size} MiB"
            ));
        }
        self.hash_mib = size;
        let searcher = Arc::clone(&self.searcher);
        let (locked_tx, locked) = std::sync::mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("banco-hash".to_owned())
            .spawn(move || {
                let mut s = searcher.lock().unwrap_or_else(PoisonError::into_inner);
                // The table is ours before any later command can reach the searcher.
                let _ = locked_tx.send(());
                s.resize_hash(size);
            });
        match spawned {
            Ok(h) => {
                let _ = locked.recv();
                self.resizing = Some(h);
            }
            Err(_) => self
                .searcher
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .resize_hash(size),
        }
    }

    /// Waits until a table being allocated ([`Session::resize`]) is ready.
    fn wait_for_table(&mut self) {
        if let Some(h) = self.resizing.take() {
            let _ = h.join();
        }
    }

    /// Searches on `threads` threads from the next `go` on (clamped to 1..=64).
    pub(crate) fn set_threads(&mut self, threads: usize) {
        self.stop();
        self.threads = threads.clamp(1, crate::smp::MAX_THREADS);
        self.searcher
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .set_threads(self.threads);
    }

    /// `UCI_Chess960`: Chess960 notation for the current game and every later position.
    pub(crate) fn set_chess960(&mut self, on: bool) {
        self.stop();
        self.chess960 = on;
        self.game.set_chess960(on);
    }

    pub(crate) fn new_game(&mut self) {
        self.stop();
        self.searcher
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }

    /// A move as the interface wrote it (ranks from 1 under `XiangqiRanks 1-10`), read
    /// and checked legal in the current position.
    pub(crate) fn parse_wire_move(&self, text: &str) -> Result<G::Move, EngineError> {
        self.game.parse_move(&self.wire_in(text))
    }

    /// A move's text as the interface wrote it, in the game's own notation.
    fn wire_in<'t>(&self, text: &'t str) -> std::borrow::Cow<'t, str> {
        if self.wire.ranks_from_one && G::RANKS_FROM_ZERO {
            std::borrow::Cow::Owned(wire::ranks_from_one(text))
        } else {
            std::borrow::Cow::Borrowed(text)
        }
    }

    /// `position startpos|fen FEN… [moves m1 m2 …]` (the word `position` removed). An
    /// error before the moves leaves no position ([`Session::go`] then refuses); a bad
    /// move keeps the position before it.
    pub(crate) fn position(&mut self, args: &[&str]) -> Result<(), EngineError> {
        self.stop();
        self.has_position = false;
        let (game, result) = self.read_position(args)?;
        self.excluded.clear();
        self.game = game;
        self.has_position = true;
        result
    }

    /// The game a `position` command's arguments set up, and whether all its moves could
    /// be played: a move that cannot be played ends the list there — the game is the one
    /// before it (as other engines do) and the second result says which move and why. An
    /// error before the moves is the outer error.
    fn read_position(&self, args: &[&str]) -> Result<(G, Result<(), EngineError>), EngineError> {
        let moves_at = args
            .iter()
            .position(|&t| t == "moves")
            .unwrap_or(args.len());
        let (head, moves) = args.split_at(moves_at);
        let mut game = match head.first() {
            Some(&"startpos") => G::start(),
            Some(&"fen") => G::from_fen(&head[1..].join(" "))?,
            _ => {
                return Err(EngineError::BadPosition(
                    "expected `startpos` or `fen`".to_owned(),
                ));
            }
        };
        if self.chess960 {
            game.set_chess960(true);
        }
        let mut result = Ok(());
        for text in moves.iter().skip(1) {
            let wired = self.wire_in(text);
            let played = game.parse_move(&wired).and_then(|mv| {
                game.play(mv)
                    .map_err(|e| EngineError::BadMove(e.to_string()))
            });
            if let Err(e) = played {
                // Quoted as the interface sent it, not in the game's own rank numbering.
                result = Err(match e {
                    EngineError::BadMove(why) if *wired != **text => {
                        EngineError::BadMove(why.replace(&*wired, text))
                    }
                    other => other,
                });
                break;
            }
        }
        Ok((game, result))
    }

    /// UCCI `probe startpos|fen FEN… [moves m1 m2 …]` (the word `probe` removed): what the
    /// table holds for that position, as the `pophash` line — `pophash [bestmove M]
    /// [lowerbound V depth D] [upperbound V depth D]`, an exact value giving both bounds,
    /// `pophash` alone when the table has nothing. Values are UCCI's (mates as
    /// ±(30000 − plies)), depths in plies, from the side to move's point of view. The
    /// session's own position is left as it is. A search running holds the table: the
    /// answer is then `pophash` alone, after an `info string` (the specification sends
    /// `probe` to an idle engine); so is a position that cannot be read.
    pub(crate) fn probe(&self, args: &[&str]) -> Vec<String> {
        let game = match self.read_position(args) {
            Ok((game, Ok(()))) => game,
            Ok((_, Err(e))) | Err(e) => {
                return vec![format!("info string probe: {e}"), "pophash".to_owned()];
            }
        };
        let Ok(searcher) = self.searcher.try_lock() else {
            return vec![
                "info string probe: the engine is searching; send `probe` when it is idle"
                    .to_owned(),
                "pophash".to_owned(),
            ];
        };
        let node =
            <G::Node as SearchGame>::from_game(&game, &self.rules, &ParamsOf::<G>::default());
        let hit = searcher.tt.probe(node.hash(), 0);
        drop(searcher);
        vec![pophash_line(&game, hit, self.wire_out())]
    }

    /// How moves are written to the interface.
    fn wire_out(&self) -> Wire {
        Wire {
            dialect: self.dialect,
            ponder: self.wire.ponder,
            ranks_from_one: self.wire.ranks_from_one && G::RANKS_FROM_ZERO,
        }
    }

    /// Starts a search on its own thread; it prints `info` lines and a `bestmove`.
    ///
    /// With `ponder` (`go ponder …`, the opponent still to play the move pondered on) the
    /// search first runs without its clock and node limit (a depth limit holds) and keeps
    /// its `bestmove` until `ponderhit` or `stop`. `stop` answers with what the pondering
    /// found. `ponderhit` ends the pondering and searches again under the `go` command's
    /// limits, the clock counted from the `ponderhit` (the table keeps what the pondering
    /// learnt, so the first iterations are quick), as the UCCI specification has it: the
    /// engine's own clock only runs from then. (ElephantEye itself keeps timing from the
    /// `go`, so after a long ponder it answers at once.)
    ///
    /// Without a position (the last `position` command could not be read) the answer is
    /// at once `bestmove 0000` (UCCI `nobestmove`), after an `info string`. On a clock the
    /// `Move Overhead` option is kept back on every move.
    pub(crate) fn go(&mut self, mut limits: Limits, ponder: bool) {
        self.stop();
        let wire = self.wire_out();
        if !self.has_position {
            self.excluded.clear();
            self.out.line(
                "info string no position to search: the last `position` command could not be read",
            );
            self.out.line(no_move_line(self.dialect));
            return;
        }
        let node =
            <G::Node as SearchGame>::from_game(&self.game, &self.rules, &ParamsOf::<G>::default());
        if node.awaits_chance() {
            // Jieqi: the piece just uncovered is still to be named (the dice race: the
            // roll); there is no move to make.
            self.excluded.clear();
            self.out.line(
                "info string the position awaits a reveal (jieqi: name the piece uncovered, \
                 `h2e2=R` or `=R`; dice race: the roll): no move to search",
            );
            self.out.line(no_move_line(self.dialect));
            return;
        }
        // No legal move: the game is over and the search says how (UCI `score mate 0`).
        let game_over = {
            let mut list = banco_game::MoveList::new();
            self.game.legal_moves(&mut list);
            list.is_empty()
        };
        if let Some(c) = limits.clock.as_mut() {
            c.overhead_ms = Some(self.wire.overhead_ms);
        }
        self.stop.store(false, Ordering::SeqCst);
        self.ponder_stop.store(false, Ordering::SeqCst);
        self.ponder.store(
            if ponder { PONDERING } else { NOT_PONDERING },
            Ordering::SeqCst,
        );
        let out = self.out.clone();
        let searcher = Arc::clone(&self.searcher);
        let stop = Arc::clone(&self.stop);
        let ponder_state = Arc::clone(&self.ponder);
        let ponder_stop = Arc::clone(&self.ponder_stop);
        let game = self.game.clone();
        let rules = self.rules;
        let level = self.level;
        let seed = self.wire.seed;
        let options = SearchOptions {
            excluded: std::mem::take(&mut self.excluded),
            root_margin: None,
        };
        let spawned = std::thread::Builder::new()
            .name("banco-search".to_owned())
            .spawn(move || {
                let mut s = searcher.lock().unwrap_or_else(PoisonError::into_inner);
                let mut search = |limits: &Limits, stop: &AtomicBool| {
                    // A level below 10 keeps its caps and its choice with banned moves too.
                    if level < Level::MAX {
                        let choice = level::play_excluding(
                            &mut s,
                            &game,
                            &rules,
                            level,
                            limits,
                            &options.excluded,
                            level_seed(game.hash(), seed),
                            stop,
                            |info| out.line(&info_line(&game, info, wire)),
                        );
                        if let Some(line) = choice_line(&game, level, &choice, wire) {
                            out.line(&line);
                        }
                        choice.result
                    } else {
                        s.search_with(&game, &rules, limits, &options, stop, |info| {
                            out.line(&info_line(&game, info, wire));
                        })
                    }
                };
                let result = if ponder {
                    let pondering = limits.depth.map_or_else(Limits::infinite, Limits::depth);
                    let found = search(&pondering, &ponder_stop);
                    // The best move waits for `ponderhit` or `stop`.
                    while ponder_state.load(Ordering::SeqCst) == PONDERING
                        && !stop.load(Ordering::SeqCst)
                    {
                        std::thread::sleep(std::time::Duration::from_millis(2));
                    }
                    if stop.load(Ordering::SeqCst) {
                        found
                    } else {
                        search(&limits, &stop)
                    }
                } else {
                    search(&limits, &stop)
                };
                drop(s);
                // The whole search's nodes (the last iteration's `info` leaves out the
                // aborted one): match scripts count the effort of a move from it.
                if game_over && result.best_move.is_none() {
                    out.line(&game_over_line(&result, wire.dialect));
                }
                out.line(&final_info_line(&result, wire.dialect));
                if limits.infinite {
                    // UCI: after `go infinite` the best move waits for `stop`.
                    while !stop.load(Ordering::SeqCst) {
                        std::thread::sleep(std::time::Duration::from_millis(2));
                    }
                }
                out.line(&bestmove_line(&game, &rules, &result, wire));
            });
        match spawned {
            Ok(h) => self.worker = Some(h),
            Err(e) => self
                .out
                .line(&format!("info string cannot start the search: {e}")),
        }
    }
}

impl<W: Write + Send + 'static, G: EngineGame> Drop for Session<W, G> {
    fn drop(&mut self) {
        self.stop();
        self.wait_for_table();
    }
}

fn info_line<G: EngineGame>(game: &G, info: &SearchInfo<G::Move>, wire: Wire) -> String {
    let dialect = wire.dialect;
    let score = match dialect {
        Dialect::Uci => info.score.to_string(),
        Dialect::Ucci => ucci_value(info.score).to_string(),
    };
    // No principal variation at a position awaiting chance: no `pv` field then.
    let pv = wire.out_line(game.line_text(&info.pv));
    let pv = if pv.is_empty() {
        pv
    } else {
        format!(" pv {pv}")
    };
    match dialect {
        Dialect::Uci => format!(
            "info depth {} seldepth {} score {score} nodes {} nps {} time {} hashfull {}{pv}",
            info.depth, info.seldepth, info.nodes, info.nps, info.time_ms, info.hashfull,
        ),
        Dialect::Ucci => format!(
            "info depth {} score {score} nodes {} time {}{pv}",
            info.depth, info.nodes, info.time_ms,
        ),
    }
}

/// The `info string` saying that a level plays another move than its search's best
/// (`info string level 3 plays c3c4 score cp 12 (best h2e2 score cp 35)`), if it does: the
/// `info depth` lines before it give the search's best line.
fn choice_line<G: EngineGame>(
    game: &G,
    level: Level,
    choice: &level::Choice<G::Move>,
    wire: Wire,
) -> Option<String> {
    let (best, best_score) = choice.passed_over?;
    let played = choice.result.best_move?;
    let text = |score: Score| match wire.dialect {
        Dialect::Uci => score.to_string(),
        Dialect::Ucci => ucci_value(score).to_string(),
    };
    Some(format!(
        "info string level {} plays {} score {} (best {} score {})",
        level.number(),
        wire.out(game.move_text(played)),
        text(choice.result.score),
        wire.out(game.move_text(best)),
        text(best_score),
    ))
}

/// A score as UCCI writes it: centipawns, or a mate as ±(30000 − plies to the end).
fn ucci_value(score: Score) -> i32 {
    match score {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => 30_000 - 2 * n + 1,
        Score::Mate(n) => -30_000 - 2 * n,
    }
}

/// UCCI's answer to `probe` ([`Session::probe`]): the table's entry for `game`, if any.
fn pophash_line<G: EngineGame>(game: &G, hit: Option<Hit>, wire: Wire) -> String {
    let Some(hit) = hit else {
        return "pophash".to_owned();
    };
    let mut words = vec!["pophash".to_owned()];
    // The stored move, if it is one of this position (a table entry is only a hash).
    let best = <G::Node as SearchGame>::from_tt_code(hit.mv)
        .map(|mv| game.move_text(mv))
        .filter(|text| game.parse_move(text).is_ok());
    if let Some(text) = best {
        words.push(format!("bestmove {}", wire.out(text)));
    }
    let value = ucci_value(Score::from_internal(hit.score));
    let depth = hit.depth.max(0);
    if matches!(hit.bound, Bound::Exact | Bound::Lower) {
        words.push(format!("lowerbound {value} depth {depth}"));
    }
    if matches!(hit.bound, Bound::Exact | Bound::Upper) {
        words.push(format!("upperbound {value} depth {depth}"));
    }
    words.join(" ")
}

/// The line before `bestmove 0000` (UCCI `nobestmove`) at a position without a legal
/// move: `info depth 0 score mate 0` when the side to move has lost (UCCI `score -30000`),
/// `score cp 0` when the game is drawn, as GUIs expect to show the result.
fn game_over_line<M>(result: &SearchResult<M>, dialect: Dialect) -> String {
    let score = match dialect {
        Dialect::Uci => result.score.to_string(),
        Dialect::Ucci => ucci_value(result.score).to_string(),
    };
    format!("info depth 0 score {score}")
}

/// The line printed after a search, before the best move: its nodes and time in total.
fn final_info_line<M>(result: &SearchResult<M>, dialect: Dialect) -> String {
    let nps = (result.nodes * 1000)
        .checked_div(result.time_ms)
        .unwrap_or(0);
    match dialect {
        Dialect::Uci => format!(
            "info nodes {} nps {nps} time {}",
            result.nodes, result.time_ms
        ),
        Dialect::Ucci => format!("info time {} nodes {}", result.time_ms, result.nodes),
    }
}

/// The answer when there is no move to give.
fn no_move_line(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Uci => "bestmove 0000",
        Dialect::Ucci => "nobestmove",
    }
}

fn bestmove_line<G: EngineGame>(
    game: &G,
    rules: &G::Rules,
    result: &SearchResult<G::Move>,
    wire: Wire,
) -> String {
    let Some(best) = result.best_move else {
        return no_move_line(wire.dialect).to_owned();
    };
    let best_text = wire.out(game.move_text(best));
    match ponder_move(game, rules, result).filter(|_| wire.ponder) {
        Some(reply) => format!("bestmove {best_text} ponder {}", wire.out(reply)),
        None => format!("bestmove {best_text}"),
    }
}

/// The text of the reply the principal variation expects after the best move, if it has
/// one and it is a move of the opponent (not a chance outcome such as a jieqi reveal).
fn ponder_move<G: EngineGame>(
    game: &G,
    rules: &G::Rules,
    result: &SearchResult<G::Move>,
) -> Option<String> {
    let (&best, &reply) = (result.pv.first()?, result.pv.get(1)?);
    if result.best_move != Some(best) {
        return None;
    }
    let mut after = game.clone();
    after.play(best).ok()?;
    let node = <G::Node as SearchGame>::from_game(&after, rules, &ParamsOf::<G>::default());
    if node.awaits_chance() {
        return None;
    }
    let text = after.move_text(reply);
    after.parse_move(&text).ok().map(|_| text)
}

/// Reads the number after `key` in `args`.
pub(crate) fn number_after<T: core::str::FromStr>(args: &[&str], key: &str) -> Option<T> {
    args.iter()
        .position(|&t| t == key)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::score::MATE;
    use banco_xiangqi::Xiangqi;

    fn line(value: i32, dialect: Dialect) -> String {
        let game = Xiangqi::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1").unwrap();
        let info = SearchInfo {
            depth: 7,
            seldepth: 9,
            score: Score::from_internal(value),
            pv: vec![game.parse_move("e1d1").unwrap()],
            nodes: 100,
            nps: 1000,
            time_ms: 100,
            hashfull: 0,
        };
        let wire = Wire {
            dialect,
            ponder: false,
            ranks_from_one: false,
        };
        info_line(&game, &info, wire)
    }

    /// `UCI_Chess960` reaches the game being played and every position set up after it —
    /// the standard set-up included (Chess960 position 518) — until it is turned off.
    #[test]
    fn uci_chess960_applies_to_every_later_position() {
        use banco_chess::Chess;
        let out = Out::new(Vec::new());
        let mut s = Session::<Vec<u8>, Chess>::new(out, Dialect::Uci, 1, Level::MAX);
        let castle = |s: &Session<Vec<u8>, Chess>| {
            let mv = s.game.parse_move("e1g1").unwrap();
            s.game.move_text(mv)
        };
        let castles = ["fen", "r3k2r/8/8/8/8/8/8/R3K2R", "w", "KQkq", "-", "0", "1"];
        s.position(&castles).unwrap();
        assert_eq!(castle(&s), "e1g1");
        s.set_chess960(true);
        assert_eq!(castle(&s), "e1h1", "the game being played");
        s.position(&castles).unwrap();
        assert_eq!(castle(&s), "e1h1", "a position set up after");
        s.position(&[
            "startpos", "moves", "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6",
        ])
        .unwrap();
        assert_eq!(castle(&s), "e1h1", "the standard set-up");
        s.set_chess960(false);
        s.position(&castles).unwrap();
        assert_eq!(castle(&s), "e1g1");
    }

    #[test]
    fn decisive_scores_are_printed_in_moves() {
        // Mate in one (one ply), being mated in two moves (four plies).
        assert!(line(MATE - 1, Dialect::Uci).contains("depth 7 seldepth 9 score mate 1 "));
        assert!(line(-MATE + 4, Dialect::Uci).contains("score mate -2 "));
        assert!(line(MATE - 5, Dialect::Uci).contains("score mate 3 "));
        assert!(line(123, Dialect::Uci).contains("score cp 123 "));
        // UCCI has no `mate` token: a large score, 30000 minus the plies to the end.
        assert!(line(MATE - 1, Dialect::Ucci).contains("depth 7 score 29999 "));
        assert!(line(-MATE + 4, Dialect::Ucci).contains("score -29996 "));
        assert!(line(123, Dialect::Ucci).contains("score 123 "));
    }
}
