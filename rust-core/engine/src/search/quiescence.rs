//! ProbCut and the quiescence search of [`Searcher`]: the capture-only (and check-evasion)
//! search at the horizon, with the exchange evaluation deciding which captures are worth it.

#[allow(clippy::wildcard_imports)] // the parent's search types, as if written there
use super::*;

impl<S: SearchGame> Searcher<S> {
    /// ProbCut: a capture that wins enough material by exchange and whose reduced search
    /// still beats `beta` by a margin cuts the node; the value to return, if any.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn probcut(
        &mut self,
        node: &mut S,
        depth: i32,
        beta: i32,
        eval: i32,
        raw_eval: i32,
        hit: Option<crate::tt::Hit>,
        ply: usize,
        stop: &AtomicBool,
    ) -> Option<i32> {
        let pc_beta = beta + 200;
        // The table already says that a search at about this depth stays below.
        if hit.is_some_and(|h| h.depth >= depth - 3 && h.score < pc_beta) {
            return None;
        }
        let in_check = false;
        self.pickers[ply].reset_captures(i32::MIN);
        while let Some((mv, _)) = self.pickers[ply].next(node, &self.history) {
            if !node.see_ge(mv, pc_beta - eval) || !node.pseudo_is_legal(mv, in_check) {
                continue;
            }
            self.piece_to[ply] = node.piece_to(mv);
            self.double_ext[ply + 1] = self.double_ext[ply];
            let undo = node.make(mv);
            self.nodes += 1;
            let mut v = -self.qsearch(node, -pc_beta, -pc_beta + 1, ply + 1, stop);
            if v >= pc_beta && !self.aborted {
                v = -self.negamax(
                    node,
                    depth - 4,
                    -pc_beta,
                    -pc_beta + 1,
                    ply + 1,
                    false,
                    stop,
                );
            }
            node.unmake(mv, undo);
            if self.aborted {
                return None;
            }
            if v >= pc_beta {
                let key = node.hash();
                self.tt.store(
                    key,
                    depth - 3,
                    v,
                    raw_eval,
                    Bound::Lower,
                    S::tt_code(mv),
                    ply,
                );
                return Some(v);
            }
        }
        None
    }

    pub(super) fn qsearch(
        &mut self,
        node: &mut S,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        stop: &AtomicBool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if self.should_abort(stop) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if node.awaits_chance() {
            if let Some(v) = node.chance_estimate() {
                return v;
            }
            return self.chance(node, 0, alpha, beta, ply, false, stop);
        }
        if ply >= MAX_PLY - 2 {
            return node.evaluate();
        }
        // In check every evasion is searched from -INF; otherwise the side may stand pat and
        // only captures that can raise alpha (delta and SEE pruning) are searched.
        let in_check = node.in_check();
        let stand = if in_check {
            let prev = self.prev_keys(ply);
            self.pickers[ply].reset(S::no_move(), [S::no_move(); 2], prev);
            None
        } else {
            let corr = self.correction(node);
            let stand = node
                .lazy_evaluate(alpha.saturating_sub(corr), beta.saturating_sub(corr))
                .unwrap_or_else(|| node.evaluate())
                + corr;
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            // Captures that cannot lift the score above alpha are never loaded (the same
            // delta test as below, against the alpha of now, which only rises).
            self.pickers[ply].reset_captures(alpha.saturating_sub(stand).saturating_sub(149));
            Some(stand)
        };
        let mut best = stand.unwrap_or(-INF);
        let mut legal = 0usize;
        while let Some((mv, _)) = self.pickers[ply].next(node, &self.history) {
            if let Some(stand) = stand {
                let bad = if self.features.qsearch_see {
                    !node.see_ge(mv, 0)
                } else {
                    !node.see_ok(mv)
                };
                if stand + node.capture_value(mv) + 150 <= alpha || bad {
                    continue;
                }
            }
            if !node.pseudo_is_legal(mv, in_check) {
                continue;
            }
            legal += 1;
            self.piece_to[ply] = node.piece_to(mv);
            let undo = node.make(mv);
            self.nodes += 1;
            let v = -self.qsearch(node, -beta, -alpha, ply + 1, stop);
            node.unmake(mv, undo);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && legal == 0 {
            return node.no_move_verdict(true).mate_score(ply);
        }
        best
    }
}
