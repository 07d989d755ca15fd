//! The mate solver for puzzles (cờ thế): proves a forced mate in at most N moves.
//!
//! An AND/OR depth-first search with iterative deepening on the number of attacker moves
//! (so the mate found is the shortest in its move class) and a proof table. It runs in
//! passes with a growing budget of quiet moves: first the attacker may only give check
//! (evading when in check itself) — the shape of most classical compositions, and a tiny
//! tree — then checks plus one quiet move anywhere in the line, then two, and so on until
//! a mate is proven or the time is up. Attacker moves are tried in order of the defender's number of replies
//! (fewest first), which makes proofs quick. Repetitions are judged by the rules: a
//! defender who checks or chases perpetually loses, an attacker who does so fails.
//!
//! The solver is generic over the game ([`EngineGame`]): a defender without a legal move is
//! mated only when the game says so ([`SearchGame::no_move_verdict`]: a chess stalemate is
//! no mate), and a chance step is an AND node — a mate is forced only if it follows every
//! outcome.
//!
//! ```
//! use banco_engine::solve::{solve_fen, SolveOptions};
//! use banco_xiangqi::Xiangqi;
//! let r = solve_fen::<Xiangqi>("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1", &SolveOptions::default()).unwrap();
//! assert_eq!(r.mate, Some(1));
//! assert_eq!(r.line[0].to_string(), "e1d1");
//! assert_eq!(r.last_line(), "mate 1 e1d1");
//! ```

use crate::engine_game::EngineGame;
use crate::error::EngineError;
use crate::searchable::{Repetition, SearchGame, Verdict};
use banco_game::{ChanceList, ListCapacity, MoveList};
use core::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Options of the solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// Longest mate to look for, in moves of the attacker.
    pub max_mate: u32,
    /// Give up after this long (`None`: no limit but the stop flag).
    pub time_limit: Option<Duration>,
    /// Give up after this many nodes.
    pub node_limit: Option<u64>,
    /// Most quiet (non-checking) attacker moves allowed in a line.
    pub max_quiet: u32,
    /// Table size in MiB.
    pub hash_mib: usize,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            max_mate: 15,
            time_limit: Some(Duration::from_secs(10)),
            node_limit: None,
            max_quiet: 4,
            hash_mib: 16,
        }
    }
}

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveResult<M> {
    /// Mate in this many attacker moves, if proven.
    pub mate: Option<u32>,
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

#[derive(Clone, Copy, Debug, Default)]
struct Entry<M> {
    key: u64,
    /// Mate proven within this many moves (0: not proven).
    proven: u8,
    /// No mate within this many moves.
    disproven: u8,
    mv: M,
}

struct Solver<'a, M> {
    table: Vec<Entry<M>>,
    nodes: u64,
    start: Instant,
    options: SolveOptions,
    salt: u64,
    aborted: bool,
    stop: &'a AtomicBool,
}

impl<M: Copy + Default + PartialEq + ListCapacity> Solver<'_, M> {
    fn slot(&self, key: u64) -> usize {
        ((u128::from(key) * self.table.len() as u128) >> 64) as usize
    }

    fn entry(&self, key: u64) -> Option<Entry<M>> {
        let key = key ^ self.salt;
        let e = self.table[self.slot(key)];
        (e.key == key).then_some(e)
    }

    fn store(&mut self, key: u64, proven: Option<(u8, M)>, disproven: u8) {
        let key = key ^ self.salt;
        let i = self.slot(key);
        let e = &mut self.table[i];
        if e.key != key {
            *e = Entry {
                key,
                ..Entry::default()
            };
        }
        if let Some((n, mv)) = proven {
            if e.proven == 0 || n < e.proven {
                e.proven = n;
                e.mv = mv;
            }
        }
        e.disproven = e.disproven.max(disproven);
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            let late = self
                .options
                .time_limit
                .is_some_and(|t| self.start.elapsed() >= t);
            if late || self.stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        if self.options.node_limit.is_some_and(|n| self.nodes >= n) {
            self.aborted = true;
        }
        self.aborted
    }

    /// Ordering key of `mv` (number of defender replies, checks first) and whether it
    /// is quiet (neither a check nor an evasion); `None` when a quiet move is not wanted.
    /// A reply count of 0 means mate on the board; a move into a chance step counts as
    /// many replies as it has outcomes, a stalemate as a poor move.
    fn replies<S: SearchGame<Move = M>>(
        node: &mut S,
        mv: M,
        in_check: bool,
        want_quiet: bool,
    ) -> Option<(u32, bool)> {
        let undo = node.make(mv);
        let check = node.in_check();
        let quiet = !check && !in_check;
        let count = || {
            if node.awaits_chance() {
                let mut outcomes = ChanceList::new();
                node.chance_outcomes(&mut outcomes);
                return outcomes.len().max(1) as u32;
            }
            match node.count_legal_moves() {
                0 if node.no_move_verdict(check) != Verdict::Loss => 500,
                n => n as u32,
            }
        };
        let r = if quiet && !want_quiet {
            None
        } else if quiet {
            Some((1000 + count(), true))
        } else {
            let n = count();
            Some((n * 2 + if check { 0 } else { 1000 }, quiet))
        };
        node.unmake(mv, undo);
        r
    }

    /// True if every outcome of the chance step at `node` satisfies `prove` (an AND node:
    /// luck must not save the defender).
    fn every_outcome<S: SearchGame<Move = M>>(
        &mut self,
        node: &mut S,
        mut prove: impl FnMut(&mut Self, &mut S) -> bool,
    ) -> bool {
        let mut outcomes = ChanceList::new();
        node.chance_outcomes(&mut outcomes);
        for w in outcomes.as_slice() {
            let undo = node.make(w.outcome);
            let ok = prove(self, node);
            node.unmake(w.outcome, undo);
            if !ok || self.aborted {
                return false;
            }
        }
        !outcomes.is_empty()
    }

    /// Can the side to move (the attacker) mate within `n` moves using at most `quiet`
    /// quiet moves?
    fn attack<S: SearchGame<Move = M>>(&mut self, node: &mut S, n: u32, quiet: u32) -> bool {
        if n == 0 || self.tick() {
            return false;
        }
        if node.awaits_chance() {
            return self.every_outcome(node, |s, node| s.attack(node, n, quiet));
        }
        match node.repetition() {
            Some(Repetition::Win) => return true,
            Some(_) => return false,
            None => {}
        }
        let key = node.hash();
        if let Some(e) = self.entry(key) {
            if e.proven != 0 && u32::from(e.proven) <= n {
                return true;
            }
            if u32::from(e.disproven) >= n {
                return false;
            }
        }
        let in_check = node.in_check();
        let mut moves = MoveList::new();
        node.legal_moves(&mut moves);
        let mut scored: Vec<(u32, bool, M)> = Vec::with_capacity(moves.len());
        for &m in &moves {
            if let Some((k, q)) = Self::replies(node, m, in_check, quiet > 0 && n > 1) {
                if n == 1 && k == 0 {
                    // Mate on the board: no need to look further.
                    self.store(key, Some((1, m)), 0);
                    return true;
                }
                scored.push((k, q, m));
            }
        }
        scored.sort_by_key(|&(r, _, _)| r);
        for (_, q, mv) in scored {
            let undo = node.make(mv);
            let ok = self.defend(node, n, quiet - u32::from(q));
            node.unmake(mv, undo);
            if self.aborted {
                return false;
            }
            if ok {
                self.store(key, Some((n as u8, mv)), 0);
                return true;
            }
        }
        self.store(key, None, n as u8);
        false
    }

    /// Is the side to move (the defender) mated within `n` attacker moves, the one just
    /// played included?
    fn defend<S: SearchGame<Move = M>>(&mut self, node: &mut S, n: u32, quiet: u32) -> bool {
        if self.tick() {
            return false;
        }
        if node.awaits_chance() {
            return self.every_outcome(node, |s, node| s.defend(node, n, quiet));
        }
        match node.repetition() {
            Some(Repetition::Loss) => return true,
            Some(_) => return false,
            None => {}
        }
        let mut moves = MoveList::new();
        node.legal_moves(&mut moves);
        if moves.is_empty() {
            return node.no_move_verdict(node.in_check()) == Verdict::Loss;
        }
        if n <= 1 || node.rule_draw() {
            return false;
        }
        // Captures and king moves first: they are the likeliest escapes.
        let mut order: Vec<(i32, M)> = moves
            .iter()
            .map(|&m| (node.capture_key(m).unwrap_or(0), m))
            .collect();
        order.sort_by_key(|&(k, _)| -k);
        for (_, mv) in order {
            let undo = node.make(mv);
            let ok = self.attack(node, n - 1, quiet);
            node.unmake(mv, undo);
            if !ok || self.aborted {
                return false;
            }
        }
        true
    }

    /// The shortest mate for the attacker to move, if within `n`.
    fn shortest<S: SearchGame<Move = M>>(
        &mut self,
        node: &mut S,
        n: u32,
        quiet: u32,
    ) -> Option<u32> {
        (1..=n).find(|&k| self.attack(node, k, quiet))
    }

    /// The mating line from an attacker node proven within `n`.
    fn line<S: SearchGame<Move = M>>(
        &mut self,
        node: &mut S,
        n: u32,
        quiet: u32,
        out: &mut Vec<M>,
    ) {
        if n == 0 || out.len() > 200 || node.awaits_chance() {
            return;
        }
        let Some(e) = self.entry(node.hash()) else {
            return;
        };
        if e.proven == 0 || !node.is_legal(e.mv) {
            return;
        }
        let mv = e.mv;
        let n = u32::from(e.proven);
        out.push(mv);
        let undo = node.make(mv);
        let mut moves = MoveList::new();
        node.legal_moves(&mut moves);
        if node.repetition().is_none() && !moves.is_empty() && n > 1 {
            // The defender picks the reply that lasts longest.
            let mut best: Option<(u32, M)> = None;
            for &r in &moves {
                let u = node.make(r);
                let known = self.entry(node.hash()).map_or(0, |e| u32::from(e.proven));
                let len = if known > 0 {
                    known
                } else {
                    self.shortest(node, n - 1, quiet).unwrap_or(0)
                };
                node.unmake(r, u);
                if best.is_none_or(|(b, _)| len > b) {
                    best = Some((len, r));
                }
            }
            if let Some((len, r)) = best {
                out.push(r);
                let u = node.make(r);
                self.line(node, len, quiet, out);
                node.unmake(r, u);
            }
        }
        node.unmake(mv, undo);
    }
}

/// Looks for a forced mate for the side to move in `game`.
#[must_use]
pub fn solve<G: EngineGame>(
    game: &G,
    rules: &G::Rules,
    options: &SolveOptions,
    stop: &AtomicBool,
) -> SolveResult<G::Move> {
    let mut node = G::Node::from_game(game, rules, &G::plain_params());
    let entries = (options.hash_mib.max(1) << 20) / size_of::<Entry<G::Move>>();
    let mut solver = Solver {
        table: vec![Entry::default(); entries.max(1)],
        nodes: 0,
        start: Instant::now(),
        options: *options,
        salt: 0,
        aborted: false,
        stop,
    };
    let max = options.max_mate.min(60);
    let mut found = None;
    'passes: for quiet in 0..=options.max_quiet.min(max.saturating_sub(1)) {
        solver.salt = u64::from(quiet).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for n in quiet + 1..=max {
            if solver.attack(&mut node, n, quiet) {
                found = Some((n, quiet));
                break 'passes;
            }
            if solver.aborted {
                break 'passes;
            }
        }
    }
    let mut line = Vec::new();
    if let Some((n, quiet)) = found {
        solver.aborted = false;
        solver.options.time_limit = None;
        solver.options.node_limit = None;
        solver.line(&mut node, n, quiet, &mut line);
    }
    let found = found.map(|(n, _)| n);
    SolveResult {
        mate: found,
        line,
        nodes: solver.nodes,
        time_ms: solver.start.elapsed().as_millis() as u64,
        aborted: found.is_none() && solver.aborted,
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
