//! The baseline: plain alpha-beta as the seed apps played it — iterative deepening over a
//! fixed-depth negamax with alpha-beta, captures tried first, the game's plain reference
//! evaluation ([`EngineGame::plain_params`]: material only for xiangqi, material and centre
//! for chess), no table, no quiescence, no pruning. `banco match --b plain` measures the
//! real engine against it. Chance nodes are plain expectations over the outcomes.
//!
//! ```
//! use banco_engine::{plain, Limits, score::Score};
//! use banco_xiangqi::{RuleSet, Xiangqi};
//! use std::sync::atomic::AtomicBool;
//! let game = Xiangqi::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1").unwrap();
//! let r = plain::search(&game, &RuleSet::default(), &Limits::depth(2), &AtomicBool::new(false));
//! // e1d1 mates; e1e8 stalemates, which also wins in xiangqi.
//! assert_eq!(r.score, Score::Mate(1));
//! ```

use crate::chance::CHANCE_CAP;
use crate::engine_game::EngineGame;
use crate::limits::Limits;
use crate::score::{DECISIVE, INF, Score};
use crate::search::SearchResult;
use crate::searchable::{Repetition, SearchGame};
use crate::timeman::Timer;
use banco_game::{ChanceList, MoveList};
use std::sync::atomic::{AtomicBool, Ordering};

struct Plain<'a> {
    nodes: u64,
    node_limit: u64,
    timer: Timer,
    stop: &'a AtomicBool,
    aborted: bool,
}

impl Plain<'_> {
    fn negamax<S: SearchGame>(
        &mut self,
        node: &mut S,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.node_limit
            || (self.nodes & 1023 == 0
                && (self.stop.load(Ordering::Relaxed) || self.timer.hard_expired()))
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        if node.awaits_chance() {
            return self.expectation(node, depth, ply);
        }
        if ply > 0
            && let Some(r) = node.repetition()
        {
            return match r {
                Repetition::Draw => 0,
                Repetition::Win => 20_000,
                Repetition::Loss => -20_000,
            };
        }
        let mut moves = MoveList::new();
        node.legal_moves(&mut moves);
        if moves.is_empty() {
            return node.no_move_verdict(node.in_check()).mate_score(ply);
        }
        if depth <= 0 {
            return node.evaluate();
        }
        moves
            .as_mut_slice()
            .sort_by_key(|&m| -node.capture_key(m).unwrap_or(-1));
        let mut best = -INF;
        for &mv in &moves {
            let u = node.make(mv);
            let v = -self.negamax(node, depth - 1, -beta, -alpha, ply + 1);
            node.unmake(mv, u);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The mean of the outcomes' values (decisive ones counted as ±`CHANCE_CAP`), or the
    /// least (greatest) of them when all are decisive wins (losses), as in the real search.
    fn expectation<S: SearchGame>(&mut self, node: &mut S, depth: i32, ply: usize) -> i32 {
        let mut outcomes = ChanceList::new();
        node.chance_outcomes(&mut outcomes);
        let (mut sum, mut total) = (0i64, 0i64);
        let (mut lo, mut hi) = (i32::MAX, i32::MIN);
        for w in outcomes.as_slice() {
            let u = node.make(w.outcome);
            let v = self.negamax(node, depth, -INF, INF, ply);
            node.unmake(w.outcome, u);
            if self.aborted {
                return 0;
            }
            (lo, hi) = (lo.min(v), hi.max(v));
            sum += i64::from(w.weight) * i64::from(v.clamp(-CHANCE_CAP, CHANCE_CAP));
            total += i64::from(w.weight);
        }
        if total == 0 {
            0
        } else if lo >= DECISIVE {
            lo
        } else if hi <= -DECISIVE {
            hi
        } else {
            sum.div_euclid(total) as i32
        }
    }
}

/// Plain alpha-beta under `limits` (see the module docs), with the game's plain reference
/// evaluation.
#[must_use]
pub fn search<G: EngineGame>(
    game: &G,
    rules: &G::Rules,
    limits: &Limits,
    stop: &AtomicBool,
) -> SearchResult<G::Move> {
    let mut node = G::Node::from_game(game, rules, &G::plain_params());
    let mut s = Plain {
        nodes: 0,
        node_limit: limits.nodes.unwrap_or(u64::MAX),
        timer: Timer::start(limits),
        stop,
        aborted: false,
    };
    let mut roots = MoveList::new();
    node.legal_moves(&mut roots);
    let mut result = SearchResult {
        best_move: roots.as_slice().first().copied(),
        score: Score::Cp(0),
        value: 0,
        pv: roots.as_slice().first().copied().into_iter().collect(),
        depth: 0,
        nodes: 0,
        time_ms: 0,
        root_scores: Vec::new(),
    };
    let max_depth = if limits.infinite {
        64
    } else {
        limits.depth.unwrap_or(64).clamp(1, 64)
    };
    for depth in 1..=max_depth as i32 {
        let mut alpha = -INF;
        let mut best = None;
        // Previous best first.
        if let Some(b) = result.best_move
            && let Some(i) = roots.iter().position(|&m| m == b)
        {
            roots.as_mut_slice().swap(0, i);
        }
        for &mv in &roots {
            let u = node.make(mv);
            let v = -s.negamax(&mut node, depth - 1, -INF, -alpha, 1);
            node.unmake(mv, u);
            if s.aborted {
                break;
            }
            if v > alpha || best.is_none() {
                alpha = v;
                best = Some(mv);
            }
        }
        if s.aborted {
            break;
        }
        result.best_move = best;
        result.pv = best.into_iter().collect();
        result.value = alpha;
        result.score = Score::from_internal(alpha);
        result.depth = depth as u32;
        if s.timer.soft_expired(50) {
            break;
        }
    }
    result.nodes = s.nodes;
    result.time_ms = s.timer.elapsed_ms();
    result
}
