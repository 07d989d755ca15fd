//! The mate solver for puzzles (cờ thế): proves a forced mate for the side to move and
//! finds the shortest.
//!
//! It runs a depth-first proof-number search ([`dfpn`](crate::dfpn)) bounded by the
//! length of the mate: the attacker may play any legal move, quiet ones included (long
//! composed mates are full of them), the defender every reply. Once a mate within
//! [`SolveOptions::max_mate`] moves is proven, its proof tree is walked along real paths
//! ([`Dfpn::verify`]: every defender reply, repetitions judged) to measure it and read
//! the mating line; then the bound is lowered below the mate found and the search runs
//! again, until it disproves the shorter bound ([`SolveResult::shortest`]) or the time or
//! nodes run out (the mate found stands, perhaps not the shortest).
//!
//! Repetitions are judged by the rules passed in: a defender whose only escape is
//! perpetual check loses where the rules say so, and that line counts as mated (it ends at
//! the first repetition); any other repetition — a draw, the attacker's own perpetual
//! check, a perpetual chase — is no mate (see [`dfpn`](crate::dfpn) for how
//! path-dependent results are kept apart).
//!
//! Known limit: the game itself judges a repetition only at its third occurrence
//! (`RuleSet::repetitions`), so a defender may repeat its checks once more and then turn
//! away. Where the defender can delay that way, the real forced mate is longer than the
//! one reported, and a `max_mate` between the two reports a mate the defender can delay
//! past it (ElephantEye's BATCH #29: reported 10, really 12). The solver is generic over the game
//! ([`EngineGame`]): a defender without a legal move is mated only when the game says so
//! ([`SearchGame::no_move_verdict`]: a chess stalemate is no mate), and a chance step is
//! an AND node — a mate is forced only if it follows every outcome.
//!
//! ```
//! use banco_engine::solve::{solve_fen, SolveOptions};
//! use banco_xiangqi::Xiangqi;
//! let r = solve_fen::<Xiangqi>("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1", &SolveOptions::default()).unwrap();
//! assert_eq!(r.mate, Some(1));
//! assert_eq!(r.line[0].to_string(), "e1d1");
//! assert_eq!(r.last_line(), "mate 1 e1d1");
//! ```

use crate::dfpn::Dfpn;
use crate::engine_game::EngineGame;
use crate::error::EngineError;
use crate::searchable::SearchGame;
use core::fmt;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Fewest nodes given to the search for a shorter mate once one is found.
const SHORTER_MIN_NODES: u64 = 250_000;

/// Options of the solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// Longest mate to look for, in moves of the attacker (at most 100).
    pub max_mate: u32,
    /// Give up after this long (`None`: no limit but the stop flag). Once a mate is
    /// found, the search for a shorter one gets four times the nodes spent so far (at
    /// least 250,000), within this limit.
    pub time_limit: Option<Duration>,
    /// Give up after this many nodes.
    pub node_limit: Option<u64>,
    /// Table size in MiB.
    pub hash_mib: usize,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            max_mate: 40,
            time_limit: Some(Duration::from_secs(10)),
            node_limit: None,
            hash_mib: 32,
        }
    }
}

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveResult<M> {
    /// Mate in this many attacker moves, if proven.
    pub mate: Option<u32>,
    /// True when no shorter mate exists (the search disproved one): `mate` is the
    /// shortest. False when time or nodes ran out first.
    pub shortest: bool,
    /// The mating line (attacker and defender moves; the defender resists longest; it
    /// stops before a chance step).
    pub line: Vec<M>,
    /// Nodes visited.
    pub nodes: u64,
    /// Milliseconds used.
    pub time_ms: u64,
    /// True if the search was cut short by time, nodes or the stop flag.
    pub aborted: bool,
}

impl<M: fmt::Display> SolveResult<M> {
    /// The closing line of `banco solve`: `mate N FIRSTMOVE`, or `none`.
    #[must_use]
    pub fn last_line(&self) -> String {
        match (self.mate, self.line.first()) {
            (Some(n), Some(mv)) => format!("mate {n} {mv}"),
            _ => "none".to_owned(),
        }
    }
}

/// Looks for the shortest forced mate for the side to move in `game` (see the module
/// docs).
#[must_use]
pub fn solve<G: EngineGame>(
    game: &G,
    rules: &G::Rules,
    options: &SolveOptions,
    stop: &AtomicBool,
) -> SolveResult<G::Move> {
    let start = Instant::now();
    let mut node = G::Node::from_game(game, rules, &G::plain_params());
    let mut dfpn = Dfpn::new(options.hash_mib, stop);
    let deadline = options.time_limit.map(|t| start + t);
    let node_limit = options.node_limit.unwrap_or(u64::MAX);
    let mut bound = options.max_mate.clamp(1, 100);
    let mut found: Option<(u32, Vec<G::Move>)> = None;
    let mut shortest = false;
    loop {
        dfpn.set_deadline(deadline);
        // Looking for a shorter mate gets four times the nodes spent so far (and at least
        // a quarter million), within the limits: a few seconds at most on a phone.
        let budget = if found.is_some() {
            dfpn.nodes()
                .saturating_add(dfpn.nodes().saturating_mul(4).max(SHORTER_MIN_NODES))
        } else {
            u64::MAX
        };
        dfpn.set_node_limit(node_limit.min(budget));
        match dfpn.prove(&mut node, bound) {
            Some(true) => {
                // The proof stands: reading it is not cut short by the limits (the stop
                // flag still counts).
                dfpn.set_deadline(None);
                dfpn.set_node_limit(u64::MAX);
                let Some((moves, line)) = dfpn.verify(&mut node, bound) else {
                    break;
                };
                let improved = found.as_ref().is_none_or(|(m, _)| moves < *m);
                if improved {
                    found = Some((moves, line));
                }
                if !improved || moves <= 1 {
                    shortest = moves <= 1;
                    break;
                }
                bound = moves - 1;
            }
            Some(false) => {
                shortest = found.is_some();
                break;
            }
            None => break,
        }
    }
    let aborted = found.is_none() && dfpn.aborted();
    let (mate, line) = found.map_or((None, Vec::new()), |(m, l)| (Some(m), l));
    SolveResult {
        mate,
        shortest,
        line,
        nodes: dfpn.nodes(),
        time_ms: start.elapsed().as_millis() as u64,
        aborted,
    }
}

/// [`solve`] from a FEN of game `G` under the default rules.
pub fn solve_fen<G: EngineGame>(
    fen: &str,
    options: &SolveOptions,
) -> Result<SolveResult<G::Move>, EngineError> {
    let game = G::from_fen(fen)?;
    Ok(solve(
        &game,
        &G::Rules::default(),
        options,
        &AtomicBool::new(false),
    ))
}
