//! Chance nodes of [`Searcher`]: a position awaiting a chance step (a jieqi reveal, a die)
//! searched as an expectation over its outcomes with Star1 windows, and the root of such a
//! position.

#[allow(clippy::wildcard_imports)] // the parent's search types, as if written there
use super::*;

impl<S: SearchGame> Searcher<S> {
    /// A node awaiting chance, searched as an expectation over its outcomes with Star1
    /// windows ([`chance`](crate::chance)); quiescence when `depth <= 0`. The outcomes are
    /// children at the same ply and depth: a chance step costs neither. Its table entries
    /// carry no move and no evaluation.
    pub(super) fn chance(
        &mut self,
        node: &mut S,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        stop: &AtomicBool,
    ) -> i32 {
        let quiescence = depth <= 0;
        let key = node.hash();
        if !quiescence
            && !pv_node
            && let Some(h) = self.tt.probe(key, ply)
        {
            let cut = h.depth >= depth
                && match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => h.score >= beta,
                    Bound::Upper => h.score <= alpha,
                };
            if cut {
                return h.score;
            }
        }
        let mut outcomes = ChanceList::new();
        node.chance_outcomes(&mut outcomes);
        let total = outcomes.total_weight();
        if total == 0 {
            // A chance step without outcomes: nothing can happen, call it even.
            return 0;
        }
        let mut window = (alpha, beta);
        let value = loop {
            let mut e = Expectation::new(window.0, window.1, total);
            let mut decided = None;
            for w in outcomes.as_slice() {
                let (a, b) = match e.window(w.weight) {
                    Ok(ab) => ab,
                    Err(v) => {
                        decided = Some(v);
                        break;
                    }
                };
                let undo = node.make(w.outcome);
                self.nodes += 1;
                let v = if quiescence {
                    self.qsearch(node, a, b, ply, stop)
                } else {
                    self.negamax(node, depth, a, b, ply, pv_node && b - a > 1, stop)
                };
                node.unmake(w.outcome, undo);
                if self.aborted {
                    return 0;
                }
                if let Some(v) = e.feed(v) {
                    decided = Some(v);
                    break;
                }
            }
            match decided.map_or_else(|| e.finish(), Step::Value) {
                Step::Value(v) => break v,
                Step::Research(a, b) => window = (a, b),
            }
        };
        // The principal variation stops before the chance step.
        self.pv_len[ply] = ply;
        if !quiescence {
            // A re-search narrows the window: its bounds hold for the narrower one.
            let (lo, hi) = (alpha.max(window.0), beta.min(window.1));
            let bound = if value <= lo {
                Bound::Upper
            } else if value >= hi {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.tt.store(key, depth, value, 0, bound, 0, ply);
        }
        value
    }

    /// Iterative deepening on a root that awaits chance: its expectation, no move.
    pub(super) fn chance_root(
        &mut self,
        node: &mut S,
        max_depth: u32,
        limits: &Limits,
        timer: Timer,
        stop: &AtomicBool,
        mut on_info: impl FnMut(&SearchInfo<S::Move>),
    ) -> SearchResult<S::Move> {
        let mut result = SearchResult {
            best_move: None,
            score: Score::Cp(0),
            value: 0,
            pv: Vec::new(),
            depth: 0,
            nodes: 0,
            time_ms: 0,
            root_scores: Vec::new(),
        };
        for depth in 1..=max_depth as i32 {
            self.root_depth = depth;
            self.seldepth = 0;
            let value = self.chance(node, depth, -INF, INF, 0, true, stop);
            if self.aborted {
                break;
            }
            let time_ms = timer.elapsed_ms();
            result.value = value;
            result.score = Score::from_internal(value);
            result.depth = depth as u32;
            on_info(&SearchInfo {
                depth: depth as u32,
                seldepth: self.seldepth as u32,
                score: result.score,
                pv: Vec::new(),
                nodes: self.nodes,
                nps: (self.nodes * 1000).checked_div(time_ms).unwrap_or(0),
                time_ms,
                hashfull: self.tt.hashfull(),
            });
            if !limits.infinite && timer.soft_expired(100) {
                break;
            }
        }
        result.nodes = self.nodes;
        result.time_ms = timer.elapsed_ms();
        result
    }
}
