//! The bench: a game's fixed set of positions ([`EngineGame::BENCH_POSITIONS`]) searched
//! in a fixed order to a fixed depth. The total node count is a signature of the search
//! (any change to pruning, ordering or evaluation changes it); nodes per second measure
//! speed.
//!
//! ```
//! use banco_engine::{bench, EngineGame};
//! use banco_xiangqi::Xiangqi;
//! let fens = &Xiangqi::BENCH_POSITIONS[..2];
//! let report = bench::run_positions::<Xiangqi>(fens, 3, 1);
//! assert_eq!(report.positions, 2);
//! let again = bench::run_positions::<Xiangqi>(fens, 3, 1);
//! assert_eq!(report.nodes, again.nodes); // deterministic
//! assert!(report.summary().starts_with("nodes "));
//! ```

use crate::engine_game::EngineGame;
use crate::features::Features;
use crate::limits::Limits;
use crate::search::Searcher;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Default table size of `banco bench` in MiB.
pub const DEFAULT_HASH_MIB: usize = 16;

/// The outcome of a bench run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Positions searched.
    pub positions: usize,
    /// Depth of each search.
    pub depth: u32,
    /// Total nodes (the signature).
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub time_ms: u64,
    /// Nodes per second.
    pub nps: u64,
    /// One line per position: index, best move, score, nodes.
    pub lines: Vec<String>,
}

impl BenchReport {
    /// The closing line of `banco bench`: `nodes N time SECONDS nps NODES_PER_SECOND`.
    #[must_use]
    pub fn summary(&self) -> String {
        format!(
            "nodes {} time {:.3} nps {}",
            self.nodes,
            self.time_ms as f64 / 1000.0,
            self.nps
        )
    }
}

/// Runs the bench of game `G` over every position at the game's depth.
#[must_use]
pub fn run<G: EngineGame>() -> BenchReport {
    run_positions::<G>(G::BENCH_POSITIONS, G::BENCH_DEPTH, DEFAULT_HASH_MIB)
}

/// Runs the bench over `fens` at `depth` with a table of `hash_mib` MiB. Positions that
/// do not parse are skipped (the built-in ones always parse).
#[must_use]
pub fn run_positions<G: EngineGame>(fens: &[&str], depth: u32, hash_mib: usize) -> BenchReport {
    run_threaded::<G>(fens, depth, hash_mib, 1)
}

/// [`run_positions`] on `threads` threads (Lazy SMP: the node count, helpers included,
/// then varies from run to run; nodes per second is the figure to read).
#[must_use]
pub fn run_threaded<G: EngineGame>(
    fens: &[&str],
    depth: u32,
    hash_mib: usize,
    threads: usize,
) -> BenchReport {
    run_featured::<G>(fens, depth, hash_mib, threads, Features::DEFAULT)
}

/// [`run_threaded`] with some search features switched off ([`features`](crate::features)):
/// with [`Features::NONE`] the signature is the one of the search before them.
#[must_use]
pub fn run_featured<G: EngineGame>(
    fens: &[&str],
    depth: u32,
    hash_mib: usize,
    threads: usize,
    features: Features,
) -> BenchReport {
    // One searcher for the whole run: its table and history carry over from position to
    // position in a fixed order, which keeps the run deterministic.
    let mut searcher = Searcher::<G::Node>::new(hash_mib);
    searcher.set_threads(threads);
    searcher.set_features(features);
    let stop = AtomicBool::new(false);
    let rules = G::Rules::default();
    let start = Instant::now();
    let mut nodes = 0;
    let mut lines = Vec::new();
    let mut positions = 0;
    for (i, fen) in fens.iter().enumerate() {
        let Ok(game) = G::from_fen(fen) else {
            continue;
        };
        let r = searcher.search(&game, &rules, &Limits::depth(depth), &stop, |_| {});
        nodes += r.nodes;
        positions += 1;
        let best = r
            .best_move
            .map_or_else(|| "none".to_owned(), |m| game.move_text(m));
        lines.push(format!(
            "position {:2} bestmove {best} score {} nodes {}",
            i + 1,
            r.score,
            r.nodes
        ));
    }
    let time_ms = start.elapsed().as_millis() as u64;
    let nps = (nodes * 1000).checked_div(time_ms).unwrap_or(0);
    BenchReport {
        positions,
        depth,
        nodes,
        time_ms,
        nps,
        lines,
    }
}
