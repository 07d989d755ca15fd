//! The bench: a fixed set of positions searched in a fixed order to a fixed depth.
//! The total node count is a signature of the search (any change to pruning, ordering or
//! evaluation changes it); nodes per second measure speed.
//!
//! ```
//! use banco_engine::bench;
//! let report = bench::run_positions(&bench::POSITIONS[..2], 3, 1);
//! assert_eq!(report.positions, 2);
//! let again = bench::run_positions(&bench::POSITIONS[..2], 3, 1);
//! assert_eq!(report.nodes, again.nodes); // deterministic
//! assert!(report.summary().starts_with("nodes "));
//! ```

use crate::limits::Limits;
use crate::search::Searcher;
use crate::xiangqi::XiangqiNode;
use banco_xiangqi::{RuleSet, Xiangqi};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Default depth of `banco bench`.
pub const DEFAULT_DEPTH: u32 = 9;
/// Default table size of `banco bench` in MiB.
pub const DEFAULT_HASH_MIB: usize = 16;

/// The bench positions (FEN): openings, middle games, end games and mate puzzles.
pub const POSITIONS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
    "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3",
    "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
    "rnbakabnr/9/1c2c4/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/2P6/P3P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4NC1/9/RNBAKAB1R b - - 1 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2B2C1/9/RN1AKABNR b - - 1 1",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 6 4",
    "1rbakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/1RBAKAB1R w - - 8 5",
    "4C4/4a4/b2ank2b/9/9/1RNR1crC1/3r1p3/3cKA3/4A4/4n4 w - - 0 1",
    "9/4a4/3k1a3/2R3r2/1N5n1/C7c/1N5n1/2R3r2/3p1p3/4K4 w - - 0 1",
    "9/9/4Nk3/3c2p2/3r2P2/3p2B2/3p2r2/4KC3/9/9 w - - 0 1",
    "9/9/3a1k3/9/1N5N1/4R4/1n5r1/9/3K1p3/9 w - - 0 1",
    "1nb1ka3/4a4/4c4/2p1C4/9/3Rcr3/P8/n3C4/4Apr2/4KA3 w - - 0 1",
    "1PP1kab2/1R2a4/4b3R/4C4/1C7/r8/9/2n6/3p1r3/4K4 w - - 0 1",
    "3aka3/3P5/7R1/4r2C1/6C2/6R2/9/3p1n3/4p4/3K5 w - - 0 1",
    "4k1b2/4CP3/4b4/4p4/4P4/9/4n4/3KB4/4r4/4n1rC1 w - - 0 1",
    "3a1k3/1C7/3a1P3/4N4/9/3n2C2/9/9/1rp1p4/3K5 w - - 0 1",
    "4kar2/4a2nn/4bc3/RN1r5/2bC5/9/4p4/9/4p4/3p1K3 w - - 0 1",
    "9/3R5/2C1k4/9/1N2P4/9/9/5n3/1r2p4/3K5 w - - 0 1",
    "9/5k3/3R5/9/2N6/9/6N2/9/1pp1p1c2/CrBK5 w - - 0 1",
    "3akab2/1C6c/N3b4/9/1N7/9/9/C8/n4p3/rc2K1p2 w - - 0 1",
    "4kab2/1N1Pa4/4b4/3N2p2/6Pn1/9/2P6/2n6/2p1Ap3/3AK2p1 w - - 0 1",
    "2ba1kbRC/2N1a4/9/4p4/4c1p2/9/9/1p2B1r2/4r1n2/3K2B2 w - - 0 1",
    "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1",
    "4k4/4a4/4b4/9/9/9/9/4B4/4A4/3RK4 w - - 0 1",
    "3ak4/4a4/4b4/p8/9/9/P8/4B4/4A4/2C1K4 w - - 0 1",
    "4k4/9/9/9/4p4/9/9/4B4/4A4/3NK4 w - - 0 1",
    "2bak4/4a4/4b4/9/2p6/9/2P6/4B4/4A4/1R2KA3 b - - 0 1",
    "r2akab2/9/2n1b1n2/p3p3p/2p3p2/9/P1P1P1P1P/2N1B1N2/4A4/R2AK1B2 w - - 0 8",
    "2bakab2/9/2n1c1n2/p1p1p1p1p/9/9/P1P1P1P1P/2N1C1N2/9/2BAKAB2 w - - 0 10",
];

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

/// Runs the bench over every position at the default depth.
#[must_use]
pub fn run() -> BenchReport {
    run_positions(POSITIONS, DEFAULT_DEPTH, DEFAULT_HASH_MIB)
}

/// Runs the bench over `fens` at `depth` with a table of `hash_mib` MiB. Positions that
/// do not parse are skipped (the built-in ones always parse).
#[must_use]
pub fn run_positions(fens: &[&str], depth: u32, hash_mib: usize) -> BenchReport {
    // One searcher for the whole run: its table and history carry over from position to
    // position in a fixed order, which keeps the run deterministic.
    let mut searcher = Searcher::<XiangqiNode>::new(hash_mib);
    let stop = AtomicBool::new(false);
    let rules = RuleSet::default();
    let start = Instant::now();
    let mut nodes = 0;
    let mut lines = Vec::new();
    let mut positions = 0;
    for (i, fen) in fens.iter().enumerate() {
        let Ok(game) = Xiangqi::from_fen(fen) else {
            continue;
        };
        let r = searcher.search(&game, &rules, &Limits::depth(depth), &stop, |_| {});
        nodes += r.nodes;
        positions += 1;
        let best = r
            .best_move
            .map_or_else(|| "none".to_owned(), |m| m.to_string());
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
