//! [`Engine`]: the computer for every game — a move at a level or in a time, a hint with
//! score and principal variation, mate puzzles — on a thread Rust owns, with results through
//! [`EngineListener`]. (A game against the computer with its turns and undo is
//! [`VsComputer`](crate::VsComputer); this object is for analysis and custom front ends.)

use crate::error::{BancoError, guard, notify};
use crate::game::{Game, move_of};
use crate::types::{Move, PlayedMove};
use banco_app::any::{AnyGame, AnyMove, AnyRules};
use banco_app::engine::{AnyEngine, EngineResult};
use banco_app::mate;
use banco_app::notation as an;
use banco_engine::score::Score;
use banco_engine::smp;
use banco_engine::solve::SolveOptions;
use banco_engine::{Level, Limits};
use banco_game::Game as _;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

/// What the engine thinks of a position, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum EngineScore {
    /// Centipawns (a pawn is about 100 in chess; a pawn before the river about 30 in
    /// xiangqi).
    Centipawns {
        /// The value.
        value: i32,
    },
    /// Mate in `moves` moves (negative: the side to move is mated).
    Mate {
        /// Moves to mate.
        moves: i32,
    },
}

impl From<Score> for EngineScore {
    fn from(s: Score) -> Self {
        match s {
            Score::Cp(value) => EngineScore::Centipawns { value },
            Score::Mate(moves) => EngineScore::Mate { moves },
        }
    }
}

/// The largest transposition table an [`Engine`] takes, in MiB: a phone's memory killer
/// (iOS jetsam, Android's low-memory killer) ends apps that hold much more.
pub const MAX_HASH_MIB: u32 = 256;

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct SearchReport {
    /// The number the search call returned, to tell results apart.
    pub search_id: u64,
    /// The move to play, described; `null`/`nil` if there is none (the game is over).
    pub best_move: Option<PlayedMove>,
    /// The evaluation.
    pub score: EngineScore,
    /// The expected line, best move first.
    pub pv: Vec<Move>,
    /// The expected line in the game's main notation (Chinese, SAN).
    pub pv_text: Vec<String>,
    /// Depth reached.
    pub depth: u32,
    /// Positions searched.
    pub nodes: u64,
    /// Milliseconds taken.
    pub time_ms: u64,
    /// True if `stop()` ended the search early.
    pub stopped: bool,
}

/// A mate found by the puzzle solver.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct PuzzleSolution {
    /// The number the solve call returned.
    pub search_id: u64,
    /// Mate in this many moves of the side to move; `null`/`nil` if none was found.
    pub mate_in: Option<u32>,
    /// The main line in the game's main notation.
    pub line_text: Vec<String>,
    /// The main line as moves.
    pub line: Vec<Move>,
    /// Positions searched.
    pub nodes: u64,
    /// True if the time limit or `stop()` ended the search before it could decide.
    pub aborted: bool,
}

/// Hears from an [`Engine`]. Calls come on the engine's own thread: a UI shell hops to its
/// UI thread before touching views.
#[uniffi::export(with_foreign)]
pub trait EngineListener: Send + Sync {
    /// A deeper iteration finished (hints and timed searches; levels report only the result).
    fn on_progress(&self, report: SearchReport);
    /// The search is over: the move to play, or the hint.
    fn on_result(&self, report: SearchReport);
    /// The puzzle solver is over.
    fn on_puzzle_solved(&self, solution: PuzzleSolution);
    /// The search could not run (the message says why).
    fn on_failed(&self, search_id: u64, message: String);
}

/// The computer. One search at a time: starting a new one stops the one running.
#[derive(uniffi::Object)]
pub struct Engine {
    engine: Arc<Mutex<AnyEngine>>,
    /// The latest search: its stop flag and its thread, changed together.
    current: Mutex<Current>,
    /// The threads a search uses (also in the engine, which a search holds).
    threads: AtomicU32,
    next_id: AtomicU64,
    hash_mib: u32,
}

/// The latest search of an [`Engine`].
struct Current {
    stop: Arc<AtomicBool>,
    worker: Option<JoinHandle<()>>,
}

/// What to search for.
enum Job {
    Level(Level, u64),
    Time(u64),
}

/// The legal prefix of a line, as moves and in the game's main notation.
fn line_of(game: &AnyGame, line: &[AnyMove]) -> (Vec<Move>, Vec<String>) {
    let notation = banco_app::computer::main_notation(game.kind());
    let mut g = game.clone();
    let (mut moves, mut texts) = (Vec::new(), Vec::new());
    for &m in line {
        if !g.is_legal(m) {
            break;
        }
        moves.push(move_of(&g, m));
        texts.push(an::write_move(&g, m, notation));
        if g.play(m).is_err() {
            break;
        }
    }
    (moves, texts)
}

fn report_of(game: &AnyGame, r: &EngineResult, id: u64, stopped: bool) -> SearchReport {
    let (pv, pv_text) = line_of(game, &r.pv);
    SearchReport {
        search_id: id,
        best_move: r
            .best_move
            .filter(|&m| game.is_legal(m))
            .map(|m| PlayedMove::from(&an::describe(game, m))),
        score: r.score.into(),
        pv,
        pv_text,
        depth: r.depth,
        nodes: r.nodes,
        time_ms: r.time_ms,
        stopped,
    }
}

/// Waits for a search thread to end, unless it is this very thread (a listener called
/// back from it: it ends on its own once the callback returns).
fn join_unless_here(old: Option<JoinHandle<()>>) {
    if let Some(h) = old
        && h.thread().id() != std::thread::current().id()
    {
        let _ = h.join();
    }
}

impl Engine {
    fn current(&self) -> std::sync::MutexGuard<'_, Current> {
        self.current.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Stops the latest search and puts a fresh stop flag in its place (under the lock the
    /// caller holds, so that of two callers at once each stops the search before its own);
    /// the fresh flag and the stopped search's thread, not waited for.
    fn stop_latest(cur: &mut Current) -> (Arc<AtomicBool>, Option<JoinHandle<()>>) {
        cur.stop.store(true, Ordering::Relaxed);
        let fresh = Arc::new(AtomicBool::new(false));
        cur.stop = fresh.clone();
        (fresh, cur.worker.take())
    }

    /// Stops the running search, waits for its thread (not for itself, from a listener) and
    /// gives a fresh stop flag, for work on the calling thread.
    fn finish_previous(&self) -> Arc<AtomicBool> {
        let (fresh, old) = Engine::stop_latest(&mut self.current());
        join_unless_here(old);
        fresh
    }

    /// Refuses a call from a listener inside the running search (its progress report):
    /// before anything is done, so a refused call does not stop that search either.
    fn not_inside_search(&self) -> Result<(), BancoError> {
        if on_engine_thread()
            && matches!(
                self.engine.try_lock(),
                Err(std::sync::TryLockError::WouldBlock)
            )
        {
            return Err(BancoError::NotAvailable(
                "a search is running on this thread (called from its progress report)".to_owned(),
            ));
        }
        Ok(())
    }

    /// The engine's tables, unless a search holds them on this very thread (a listener
    /// called back from inside the search would wait for itself).
    fn engine_here(&self) -> Result<std::sync::MutexGuard<'_, AnyEngine>, BancoError> {
        match self.engine.try_lock() {
            Ok(g) => Ok(g),
            Err(std::sync::TryLockError::Poisoned(p)) => Ok(p.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) if on_engine_thread() => {
                Err(BancoError::NotAvailable(
                    "a search is running on this thread (called from its progress report)"
                        .to_owned(),
                ))
            }
            Err(std::sync::TryLockError::WouldBlock) => {
                Ok(self.engine.lock().unwrap_or_else(PoisonError::into_inner))
            }
        }
    }

    /// Starts the next search on a new engine thread, stopping the one before in the same
    /// step (none is left running that `stop` cannot reach). The new thread first waits for
    /// the old one, so the old search's result is reported before the new one's first report.
    fn spawn(&self, work: impl FnOnce(Arc<AtomicBool>) + Send + 'static) -> Result<(), BancoError> {
        let mut cur = self.current();
        let (flag, old) = Engine::stop_latest(&mut cur);
        let handle = std::thread::Builder::new()
            .name("banco-engine".into())
            .spawn(move || {
                join_unless_here(old);
                work(flag);
            })
            .map_err(|e| BancoError::Internal(format!("cannot start the engine thread: {e}")))?;
        cur.worker = Some(handle);
        Ok(())
    }

    fn run(
        &self,
        game: &Game,
        job: Job,
        listener: Arc<dyn EngineListener>,
        progress: bool,
    ) -> Result<u64, BancoError> {
        let (snapshot, rules, ending) = game.snapshot_ended();
        if ending.is_some() {
            return Err(BancoError::GameOver(
                "there is no move to look for".to_owned(),
            ));
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        let engine = self.engine.clone();
        self.spawn(move |stop| {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let mut engine = engine.lock().unwrap_or_else(PoisonError::into_inner);
                search(&mut engine, &snapshot, &rules, &job, &stop, id, |r| {
                    if progress {
                        notify(|| listener.on_progress(r));
                    }
                })
            }));
            match outcome {
                Ok(report) => notify(|| listener.on_result(report)),
                Err(p) => {
                    let msg = crate::error::panic_message(p.as_ref());
                    notify(|| listener.on_failed(id, format!("internal error: {msg}")));
                }
            }
        })?;
        Ok(id)
    }
}

/// True on an engine thread (where a search may hold the engine's tables).
fn on_engine_thread() -> bool {
    std::thread::current().name() == Some("banco-engine")
}

/// One search, blocking.
fn search(
    engine: &mut AnyEngine,
    game: &AnyGame,
    rules: &AnyRules,
    job: &Job,
    stop: &AtomicBool,
    id: u64,
    mut on_progress: impl FnMut(SearchReport),
) -> SearchReport {
    let result = match *job {
        Job::Level(lvl, ms) => {
            let seed = game.hash() ^ u64::from(game.ply()).rotate_left(32) ^ id;
            engine.play(game, rules, lvl, &Limits::movetime(ms), seed, stop)
        }
        Job::Time(ms) => engine.analyse(game, rules, &Limits::movetime(ms), stop, |info| {
            let partial = EngineResult {
                best_move: info.pv.first().copied(),
                score: info.score,
                pv: info.pv.clone(),
                depth: info.depth,
                nodes: info.nodes,
                time_ms: info.time_ms,
            };
            on_progress(report_of(game, &partial, id, false));
        }),
    };
    report_of(game, &result, id, stop.load(Ordering::Relaxed))
}

fn check_level(level: u8) -> Result<Level, BancoError> {
    Level::new(level).map_err(|_| {
        BancoError::InvalidArgument(format!(
            "level {level} does not exist: levels go from {} (beginner) to {} (full strength)",
            Level::MIN.number(),
            Level::MAX.number()
        ))
    })
}

fn check_time(ms: u64) -> Result<u64, BancoError> {
    if (1..=3_600_000).contains(&ms) {
        Ok(ms)
    } else {
        Err(BancoError::InvalidArgument(format!(
            "a thinking time of {ms} ms is out of range (1 ms to 1 hour)"
        )))
    }
}

#[uniffi::export]
impl Engine {
    /// An engine with a transposition table of `hash_mib` MiB (1–[`MAX_HASH_MIB`], 256;
    /// 16 is plenty on a phone, and games against the computer use 16), searching on
    /// [`recommended_threads`] threads. It keeps one table, for the game searched last
    /// (searching another game replaces it), so its tables never take more than `hash_mib`
    /// MiB; the mate solver ([`Engine::solve_puzzle`]) uses a table of its own of at most
    /// 64 MiB while it runs.
    ///
    /// **Memory.** The constructor allocates no table. The first search of a game makes
    /// it, on the engine thread, and writes all of it at once (it is resident from then
    /// on, and a large one takes a moment to make); when the memory cannot be had, the
    /// largest half, quarter, … of it that can is used instead of failing. [`Engine::think`],
    /// [`Engine::set_threads`] (between one and several threads, which replaces the table)
    /// and [`Engine::clear`] (which writes it) work on the calling thread: call them off the
    /// UI thread with a large table.
    #[uniffi::constructor]
    pub fn new(hash_mib: u32) -> Result<Arc<Engine>, BancoError> {
        guard(|| {
            if !(1..=MAX_HASH_MIB).contains(&hash_mib) {
                return Err(BancoError::InvalidArgument(format!(
                    "a hash table of {hash_mib} MiB is out of range (1 to {MAX_HASH_MIB}: \
                     a phone cannot spare more; 16 is plenty)"
                )));
            }
            let mut engine = AnyEngine::new(hash_mib as usize);
            engine.set_threads(smp::default_threads());
            Ok(Arc::new(Engine {
                engine: Arc::new(Mutex::new(engine)),
                current: Mutex::new(Current {
                    stop: Arc::new(AtomicBool::new(false)),
                    worker: None,
                }),
                threads: AtomicU32::new(smp::default_threads() as u32),
                next_id: AtomicU64::new(0),
                hash_mib,
            }))
        })
    }

    /// Looks for a move at `level` (1 beginner … 10 full strength) on the engine thread;
    /// `listener.on_result` gets it. Returns the search id.
    pub fn best_move(
        &self,
        game: Arc<Game>,
        level: u8,
        listener: Arc<dyn EngineListener>,
    ) -> Result<u64, BancoError> {
        guard(|| {
            self.run(
                &game,
                Job::Level(check_level(level)?, 5_000),
                listener,
                false,
            )
        })
    }

    /// Looks for the best move at full strength for `movetime_ms` milliseconds; reports each
    /// deeper iteration to `on_progress` and the move to `on_result`.
    pub fn best_move_timed(
        &self,
        game: Arc<Game>,
        movetime_ms: u64,
        listener: Arc<dyn EngineListener>,
    ) -> Result<u64, BancoError> {
        guard(|| self.run(&game, Job::Time(check_time(movetime_ms)?), listener, true))
    }

    /// A hint for the side to move: the best move with its score and expected line, found in
    /// `movetime_ms` milliseconds (same reports as [`Engine::best_move_timed`]).
    pub fn hint(
        &self,
        game: Arc<Game>,
        movetime_ms: u64,
        listener: Arc<dyn EngineListener>,
    ) -> Result<u64, BancoError> {
        self.best_move_timed(game, movetime_ms, listener)
    }

    /// Looks for the shortest forced mate of the side to move in at most `max_moves` moves
    /// (1–60; quiet moves allowed: a proof-number search), for at most `time_limit_ms`;
    /// `listener.on_puzzle_solved` gets the answer. Xiangqi and chess (the solver of
    /// [`crate::Editor::solve`]); jieqi is refused (`Unsupported`): no mate can be proven
    /// through pieces still face down.
    pub fn solve_puzzle(
        &self,
        game: Arc<Game>,
        max_moves: u32,
        time_limit_ms: u64,
        listener: Arc<dyn EngineListener>,
    ) -> Result<u64, BancoError> {
        guard(|| {
            if !(1..=60).contains(&max_moves) {
                return Err(BancoError::InvalidArgument(format!(
                    "mate in {max_moves} is out of range (1 to 60)"
                )));
            }
            let ms = check_time(time_limit_ms)?;
            let (snapshot, rules) = game.snapshot();
            if !mate::has_solver(snapshot.kind()) {
                return Err(BancoError::Unsupported(format!(
                    "the mate solver for {} (no mate can be proven through pieces still face down)",
                    snapshot.kind()
                )));
            }
            let id = self.next_id.fetch_add(1, Ordering::Relaxed) + 1;
            let options = SolveOptions {
                max_mate: max_moves,
                time_limit: Some(Duration::from_millis(ms)),
                hash_mib: (self.hash_mib as usize).min(64),
                ..SolveOptions::default()
            };
            self.spawn(move |stop| {
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    mate::solve(&snapshot, &rules, &options, &stop)
                }));
                match r {
                    Ok(r) => {
                        let (line, line_text) = line_of(&snapshot, &r.line);
                        let solution = PuzzleSolution {
                            search_id: id,
                            mate_in: r.mate,
                            line_text,
                            line,
                            nodes: r.nodes,
                            aborted: r.aborted,
                        };
                        notify(|| listener.on_puzzle_solved(solution));
                    }
                    Err(p) => {
                        let msg = crate::error::panic_message(p.as_ref());
                        notify(|| listener.on_failed(id, format!("internal error: {msg}")));
                    }
                }
            })?;
            Ok(id)
        })
    }

    /// Looks for a move at `level` and waits for it (blocks the calling thread: never call
    /// it on a UI thread). `movetime_ms` caps the time (the level caps the depth). A search
    /// running on the engine thread is stopped first; called from that search's own
    /// progress report it is refused (`NotAvailable`) and that search goes on.
    pub fn think(
        &self,
        game: Arc<Game>,
        level: u8,
        movetime_ms: u64,
    ) -> Result<SearchReport, BancoError> {
        guard(|| {
            let lvl = check_level(level)?;
            let ms = check_time(movetime_ms)?;
            let (snapshot, rules, ending) = game.snapshot_ended();
            if ending.is_some() {
                return Err(BancoError::GameOver(
                    "there is no move to look for".to_owned(),
                ));
            }
            self.not_inside_search()?;
            let stop = self.finish_previous();
            let id = self.next_id.fetch_add(1, Ordering::Relaxed) + 1;
            let mut engine = self.engine_here()?;
            let report = search(
                &mut engine,
                &snapshot,
                &rules,
                &Job::Level(lvl, ms),
                &stop,
                id,
                |_| {},
            );
            // `stopped` when `stop()` (or a search started meanwhile) cut it short.
            Ok(report)
        })
    }

    /// Asks the running search to stop now; its result still arrives, marked `stopped`.
    pub fn stop(&self) -> Result<(), BancoError> {
        guard(|| {
            self.current().stop.store(true, Ordering::Relaxed);
            Ok(())
        })
    }

    /// True while a search runs on the engine thread.
    pub fn is_searching(&self) -> Result<bool, BancoError> {
        guard(|| {
            Ok(self
                .current()
                .worker
                .as_ref()
                .is_some_and(|h| !h.is_finished()))
        })
    }

    /// Searches on `threads` threads (1–64) from the next search on: Lazy SMP, helper
    /// threads sharing one table; 1 is deterministic. A running search is stopped first
    /// (from a listener, the search calling it cannot be: `NotAvailable`).
    /// The default is [`recommended_threads`].
    pub fn set_threads(&self, threads: u32) -> Result<(), BancoError> {
        guard(|| {
            if !(1..=smp::MAX_THREADS as u32).contains(&threads) {
                return Err(BancoError::InvalidArgument(format!(
                    "{threads} threads is out of range (1 to {})",
                    smp::MAX_THREADS
                )));
            }
            self.not_inside_search()?;
            self.finish_previous();
            self.engine_here()?.set_threads(threads as usize);
            self.threads.store(threads, Ordering::Relaxed);
            Ok(())
        })
    }

    /// Threads of a search (answered at once, even while a search runs).
    pub fn threads(&self) -> Result<u32, BancoError> {
        guard(|| Ok(self.threads.load(Ordering::Relaxed)))
    }

    /// Forgets what earlier searches learnt (a new game).
    pub fn clear(&self) -> Result<(), BancoError> {
        guard(|| {
            self.not_inside_search()?;
            self.finish_previous();
            self.engine_here()?.clear();
            Ok(())
        })
    }
}

/// The number of search threads for this device: one core is left to the interface and
/// the system, and at most 4 search (a phone's further, smaller cores and its heat budget
/// add little): `min(cores − 1, 4)`, at least 1. [`Engine`]s and games against the
/// computer start with it.
#[uniffi::export]
pub fn recommended_threads() -> u32 {
    smp::default_threads() as u32
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.current().stop.store(true, Ordering::Relaxed);
    }
}
