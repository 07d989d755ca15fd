//! The root of a search: iterative deepening from depth 1 up to the limits, each iteration
//! searched through aspiration windows around the last score, the root moves kept in order
//! (best first) from one iteration to the next, and the time management's stop between
//! iterations (best-move stability, score drops).

#[allow(clippy::wildcard_imports)] // the parent's search types, as if written there
use super::*;

/// A move at the root with its score at the iteration under way.
#[derive(Clone, Copy, Debug)]
pub(super) struct RootMove<M> {
    pub(super) mv: M,
    pub(super) score: i32,
}

impl<S: SearchGame> Searcher<S> {
    /// [`Searcher::search_with`] from a node, on this thread.
    pub(crate) fn search_node(
        &mut self,
        mut node: S,
        limits: &Limits,
        options: &SearchOptions<S::Move>,
        stop: &AtomicBool,
        mut on_info: impl FnMut(&SearchInfo<S::Move>),
    ) -> SearchResult<S::Move> {
        if !self.helper {
            self.tt.new_search();
        }
        self.history.age();
        self.killers.clear();
        self.nodes = 0;
        self.node_limit = if limits.infinite {
            u64::MAX
        } else {
            limits.nodes.unwrap_or(u64::MAX)
        };
        self.aborted = false;
        self.flushed = 0;
        let timer = Timer::start(limits);
        self.timer = Some(timer);
        let max_depth = if limits.infinite {
            MAX_PLY as u32 - 8
        } else {
            limits
                .depth
                .unwrap_or(MAX_PLY as u32 - 8)
                .clamp(1, MAX_PLY as u32 - 8)
        };

        if node.awaits_chance() {
            return self.chance_root(&mut node, max_depth, limits, timer, stop, on_info);
        }
        let mut list = MoveList::new();
        node.legal_moves(&mut list);
        let mut roots: Vec<RootMove<S::Move>> = list
            .iter()
            .filter(|m| !options.excluded.contains(m))
            .map(|&mv| RootMove { mv, score: -INF })
            .collect();
        if roots.is_empty() {
            // No legal move: the game says what that means (or every move is banned).
            let value = if list.is_empty() {
                node.no_move_verdict(node.in_check()).mate_score(0)
            } else {
                0
            };
            return SearchResult {
                best_move: None,
                score: Score::from_internal(value),
                value,
                pv: Vec::new(),
                depth: 0,
                nodes: 0,
                time_ms: 0,
                root_scores: Vec::new(),
            };
        }
        // Played only if the search is stopped before it scores any root move: the
        // table's move for this position if it has one (else the generator's first).
        let fallback = self
            .tt
            .probe(node.hash(), 0)
            .and_then(|h| S::from_tt_code(h.mv))
            .filter(|m| roots.iter().any(|r| r.mv == *m))
            .unwrap_or(roots[0].mv);
        let mut result = SearchResult {
            best_move: Some(roots[0].mv),
            score: Score::Cp(0),
            value: 0,
            pv: vec![roots[0].mv],
            depth: 0,
            nodes: 0,
            time_ms: 0,
            root_scores: Vec::new(),
        };
        let mut prev: i32 = 0;
        let mut stability = 0u32;
        // The score of the last completed iteration (time management: score drops).
        let mut prev_value = None;
        for depth in self.first_depth.clamp(1, max_depth as i32)..=max_depth as i32 {
            self.root_depth = depth;
            self.seldepth = 0;
            let use_aspiration =
                depth >= 4 && options.root_margin.is_none() && prev.abs() < DECISIVE;
            let mut delta = 30;
            let (mut alpha, mut beta) = if use_aspiration {
                (prev - delta, prev + delta)
            } else {
                (-INF, INF)
            };
            let mut value;
            loop {
                value = self.root(
                    &mut node,
                    &mut roots,
                    depth,
                    alpha,
                    beta,
                    options.root_margin,
                    stop,
                );
                if self.aborted {
                    break;
                }
                if value <= alpha {
                    beta = i32::midpoint(alpha, beta);
                    alpha = (value - delta).max(-INF);
                } else if value >= beta {
                    beta = (value + delta).min(INF);
                } else {
                    break;
                }
                delta += delta;
                if delta > 1000 {
                    alpha = -INF;
                    beta = INF;
                }
            }
            if self.aborted {
                // A partial iteration still counts when it found a better root move (the
                // first one too: a root move searched is better than the generator's order).
                if roots[0].score > -INF
                    && self.pv_len[0] > 0
                    && Some(roots[0].mv) != result.best_move
                {
                    result.best_move = Some(roots[0].mv);
                    result.pv = self.pv[0][..self.pv_len[0]].to_vec();
                } else if result.depth == 0 && roots[0].score == -INF {
                    result.best_move = Some(fallback);
                    result.pv = vec![fallback];
                }
                break;
            }
            if result.best_move == Some(roots[0].mv) {
                stability += 1;
            } else {
                stability = 0;
            }
            prev = value;
            let time_ms = timer.elapsed_ms();
            result.best_move = Some(roots[0].mv);
            result.pv = self.pv[0][..self.pv_len[0].max(1)].to_vec();
            if result.pv.first() != Some(&roots[0].mv) {
                result.pv = vec![roots[0].mv];
            }
            result.value = value;
            result.score = Score::from_internal(value);
            result.depth = depth as u32;
            result.root_scores = roots.iter().map(|r| (r.mv, r.score)).collect();
            on_info(&SearchInfo {
                depth: depth as u32,
                seldepth: self.seldepth as u32,
                score: result.score,
                pv: result.pv.clone(),
                nodes: self.total_nodes(),
                nps: (self.total_nodes() * 1000)
                    .checked_div(time_ms)
                    .unwrap_or(0),
                time_ms,
                hashfull: self.tt.hashfull(),
            });
            // A forced end (mate, or a win by rule) seen well within the depth: deeper
            // iterations only repeat it (and would report depths up to the ply limit).
            let settled = plies_to_end(value).is_some_and(|p| depth > 2 * p.max(0) + 2);
            if settled && (limits.infinite || limits.is_timed() || limits.nodes.is_some()) {
                break;
            }
            if limits.infinite {
                continue;
            }
            if roots.len() == 1 && limits.is_timed() {
                break;
            }
            let drop = prev_value
                .filter(|p: &i32| p.abs() < DECISIVE && value.abs() < DECISIVE)
                .map_or(0, |p| p - value);
            prev_value = Some(value);
            if timer.soft_expired(soft_scale(stability, drop)) {
                break;
            }
        }
        result.nodes = self.nodes;
        result.time_ms = timer.elapsed_ms();
        result
    }

    /// One iteration over the root moves at `depth` in the window (`alpha`, `beta`); with a
    /// `margin`, every move within it of the best is scored exactly.
    fn root(
        &mut self,
        node: &mut S,
        roots: &mut [RootMove<S::Move>],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        margin: Option<i32>,
        stop: &AtomicBool,
    ) -> i32 {
        self.nodes += 1;
        self.pv_len[0] = 0;
        let mut best = -INF;
        let key = node.hash();
        let mut best_mv = None;
        for r in roots.iter_mut() {
            r.score = -INF;
        }
        for i in 0..roots.len() {
            let mv = roots[i].mv;
            self.piece_to[0] = node.piece_to(mv);
            let undo = node.make(mv);
            self.nodes += 1;
            let check = node.in_check();
            let new_depth = depth - 1 + i32::from(check);
            let v = if i == 0 {
                -self.negamax(node, new_depth, -beta, -alpha, 1, true, stop)
            } else {
                let floor = margin.map_or(alpha, |m| (best - m).min(alpha).max(-INF + 1));
                let mut v = -self.negamax(node, new_depth, -floor - 1, -floor, 1, false, stop);
                if v > floor && v < beta && !self.aborted {
                    v = -self.negamax(node, new_depth, -beta, -floor, 1, true, stop);
                }
                // A fail-low only bounds the score from above, possibly at the floor
                // itself: record it strictly below, so that it never passes for a move
                // within the margin.
                if v <= floor { v.min(floor - 1) } else { v }
            };
            node.unmake(mv, undo);
            if self.aborted {
                break;
            }
            roots[i].score = v;
            if v > best {
                best = v;
            }
            if v > alpha {
                alpha = v;
                best_mv = Some(mv);
                self.update_pv(0, mv);
                // Move the new best to the front, keeping the order of the others.
                roots[..=i].rotate_right(1);
                if v >= beta {
                    break;
                }
            }
        }
        if !self.aborted {
            // Best first for the next iteration; a stable sort keeps the search order.
            roots.sort_by_key(|r| core::cmp::Reverse(r.score));
            if let Some(mv) = best_mv {
                let bound = if best >= beta {
                    Bound::Lower
                } else {
                    Bound::Exact
                };
                self.tt.store(key, depth, best, 0, bound, S::tt_code(mv), 0);
            }
        }
        best
    }
}
