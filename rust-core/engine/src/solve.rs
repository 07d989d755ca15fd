//! The mate solver for puzzles (cờ thế): proves a forced mate for the side to move and
//! finds the shortest.
//!
//! It runs a depth-first proof-number search ([`dfpn`](crate::dfpn)) bounded by the
//! length of the mate: the attacker may play any legal move, quiet ones included (long
//! composed mates are full of them), the defender every reply. Once a mate within
//! [`SolveOptions::max_mate`] moves is proven, its proof tree is walked along real paths
//! ([`Dfpn::verify`]: every defender reply, repetitions judged as the game judges them)
//! to measure it and read the mating line; then the bound is lowered below the mate found
//! and the search runs again, until it disproves the shorter bound
//! ([`SolveResult::shortest`]) or the time or nodes run out (the mate found stands,
//! perhaps not the shortest).
//!
//! Repetitions are judged by the rules passed in, when the game judges them: a defender
//! whose only escape is perpetual check loses where the rules say so, at the occurrence
//! the rules judge (the third in xiangqi, `RuleSet::repetitions`). Until then it may go
//! round its checks again, or turn away on the way, and the mate reported counts every
//! move of that: a mate in N is reported only if every defender line is mated, or lost
//! by the game's own judgement of its perpetual check, within N moves. Any other
//! repetition — a draw, the attacker's own perpetual check, a perpetual chase — is no
//! mate (see [`dfpn`](crate::dfpn) for how path-dependent results are kept apart).
//!
//! Going round again makes the search much wider, so the search down from `max_mate`
//! judges the defender's first repetition instead
//! ([`Dfpn::prove_first_repetition`]: cheap, and a disproof there is one under the game's
//! rules too) and walks each proof under the game's rules, which measures the real mate
//! (ElephantEye's BATCH #29: 12 moves, 10 with the first repetition judged). Where the
//! defender escapes such a proof by going round again, the solver finds the bound the
//! cheaper search disproves and searches up from it under the game's rules
//! ([`Dfpn::prove`]), on a budget of its own: the first mate proven there is the
//! shortest.
//!
//! Known limit: that search under the game's rules is costly where the defender has many
//! checks (its table entries depend on the checks given since the defender's last quiet
//! move, so it needs a far larger table), and when its budget runs out the mate
//! reported, real as it is, may not be the shortest (`shortest` false; ElephantEye's
//! BATCH #127: 12 reported with `max_mate` 17 and the other options default, while a
//! search under the game's rules bounded at 10 proves a mate in 10 in 9.2 million nodes
//! with a 256 MiB table, and finds nothing in 400 million with 32). With `max_mate`
//! between that mate and the one the cheap search measures (10 or 11 there), the whole
//! time may go by without a mate reported. And a repetition the game would let go on at its second
//! occurrence — a plain one, the attacker's own checks — counts as an escape for the
//! defender, so a mate through one is not found. The solver is generic over the game
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

/// The smallest table the solver searches with, whatever [`SolveOptions::hash_mib`] asks:
/// the proof of a long mate (and its walk under the game's rules, which proves again the
/// parts the table lost) must fit. With 4–6 MiB, ElephantEye's BATCH #119 (mate in 7,
/// found in a tenth of a second with 16) went unsolved in 10 s.
pub const MIN_HASH_MIB: usize = 16;

/// Fewest nodes given to the search for a shorter mate once one is found.
const SHORTER_MIN_NODES: u64 = 250_000;
/// Fewest nodes given to the search under the game's own repetition rules, once a proof
/// with the first repetition judged is seen not to hold (the defender goes round again).
const ROUNDS_MIN_NODES: u64 = 4_000_000;

/// Options of the solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// Longest mate to look for, in moves of the attacker (at most 100).
    pub max_mate: u32,
    /// Give up after this long (`None`: no limit but the stop flag). Once a mate is
    /// found, the search for a shorter one gets four times the nodes spent so far (at
    /// least 250,000; at least 4,000,000 for the search under the game's repetition
    /// rules, see the module docs), within this limit; walking a proof found may run a
    /// quarter of it past (so a mate found just in time is not lost).
    pub time_limit: Option<Duration>,
    /// Give up after this many nodes.
    pub node_limit: Option<u64>,
    /// Table size in MiB (at least [`MIN_HASH_MIB`] is used).
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
    let mut dfpn = Dfpn::new(options.hash_mib.max(MIN_HASH_MIB), stop);
    // A time limit too long for the clock to count is no limit.
    let deadline = options.time_limit.and_then(|t| start.checked_add(t));
    let node_limit = options.node_limit.unwrap_or(u64::MAX);
    let max = options.max_mate.clamp(1, 100);
    let mut found: Option<(u32, Vec<G::Move>)> = None;
    // No mate within `floor` moves; `settled` once that is proven.
    let (mut floor, mut settled) = (0, false);
    // Nodes `nodes` plus four times as many (and at least `least`).
    let more = |nodes: u64, least: u64| nodes.saturating_add(nodes.saturating_mul(4).max(least));
    // Once a mate is found, looking for a shorter one gets four times the nodes spent so
    // far (and at least a quarter million), within the limits: a few seconds at most on a
    // phone.
    let mut budget = u64::MAX;
    // Walking a proof may run a quarter of the time limit past it (a proof that holds
    // walks in no time; one the defender escapes is proven again in parts), and what it
    // proves again gets at most as many nodes as were spent so far (at least a quarter
    // million), within the budget and the node limit (the stop flag still counts).
    let walk_deadline =
        deadline.and_then(|d| d.checked_add(options.time_limit.unwrap_or_default() / 4));
    let walk_limit = |dfpn: &mut Dfpn<'_, G::Move>, budget: u64| {
        dfpn.set_deadline(walk_deadline);
        let nodes = dfpn.nodes();
        dfpn.set_node_limit(
            node_limit
                .min(budget)
                .min(nodes.saturating_add(nodes.max(SHORTER_MIN_NODES))),
        );
    };
    // Down from `max`: proofs with the first repetition judged (cheap to find), each
    // walked under the game's rules, then below the mate it measured; a disproof there
    // holds under the game's rules too and settles the floor.
    let mut bound = max;
    let mut walking = true;
    loop {
        dfpn.set_deadline(deadline);
        dfpn.set_node_limit(node_limit.min(budget));
        match dfpn.prove_first_repetition(&mut node, bound) {
            Some(true) if walking => {
                walk_limit(&mut dfpn, budget);
                if let Some((moves, line)) = dfpn.verify(&mut node, bound) {
                    if found.as_ref().is_none_or(|(m, _)| moves < *m) {
                        found = Some((moves, line));
                        budget = more(dfpn.nodes(), SHORTER_MIN_NODES);
                    }
                    bound = moves - 1;
                } else {
                    // The defender escapes it by going round again: find the floor, then
                    // search up from it under the game's rules, on a budget of its own.
                    walking = false;
                    if found.is_some() {
                        budget = more(dfpn.nodes(), ROUNDS_MIN_NODES);
                    }
                    bound -= 1;
                }
            }
            Some(true) => bound -= 1,
            Some(false) => {
                (floor, settled) = (bound, true);
                break;
            }
            None => break,
        }
        if bound == 0 {
            settled = true;
            break;
        }
    }
    // Up from the floor under the game's rules, when the mate found (if any) is longer
    // than the floor allows: the first proof there is the shortest mate.
    let top = found.as_ref().map_or(max, |(m, _)| m - 1);
    if settled && floor < top {
        for b in floor + 1..=top {
            dfpn.set_deadline(deadline);
            dfpn.set_node_limit(node_limit.min(budget));
            match dfpn.prove(&mut node, b) {
                Some(true) => {
                    walk_limit(&mut dfpn, budget);
                    if let Some(mate) = dfpn.verify(&mut node, b) {
                        found = Some(mate);
                    }
                    break;
                }
                Some(false) => floor = b,
                None => break,
            }
        }
    }
    let shortest = found.as_ref().is_some_and(|(m, _)| *m == floor + 1);
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
