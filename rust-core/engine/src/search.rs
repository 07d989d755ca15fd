//! The search: iterative deepening over a principal-variation alpha-beta with aspiration
//! windows, a transposition table, quiescence (captures, and every evasion when in check),
//! null-move pruning with a zugzwang guard, reverse futility pruning, late-move pruning
//! (sparing checks when the game can tell them) and reductions, check extensions,
//! mate-distance pruning, and the rules' repetition judge on the search path (so a
//! perpetual checker sees its loss). Futility pruning, static-exchange pruning, singular
//! extensions, ProbCut and check extensions for safe checks only are there behind switches
//! ([`features`](crate::features), off by default: no measured gain); quiescence drops captures by the game's static exchange
//! evaluation ([`SearchGame::see_ge`]) when `qsee` is on (the default). A side without a
//! legal move is scored as the game says ([`SearchGame::no_move_verdict`]: mated, or
//! stalemated into a draw). Nodes awaiting chance are expectation nodes
//! ([`chance`](crate::chance)): the weighted mean of their outcomes, searched with Star1
//! windows, in the main search, quiescence and at the root; a chance step costs no depth
//! and no ply.
//!
//! ```
//! use banco_engine::{Limits, Searcher, XiangqiNode, score::Score};
//! use banco_xiangqi::{RuleSet, Xiangqi};
//! use std::sync::atomic::AtomicBool;
//! let game = Xiangqi::new();
//! let mut searcher = Searcher::<XiangqiNode>::new(4);
//! let mut depths = Vec::new();
//! let result = searcher.search(&game, &RuleSet::default(), &Limits::depth(4), &AtomicBool::new(false), |info| {
//!     depths.push(info.depth);
//! });
//! assert_eq!(depths, [1, 2, 3, 4]);
//! assert!(result.best_move.is_some());
//! assert!(matches!(result.score, Score::Cp(v) if v.abs() < 250)); // about balanced
//! ```
//!
//! The search runs on the caller's thread. It polls the stop flag and the clock every
//! 1,024 nodes (well under a millisecond), so raising the flag from another thread makes
//! [`Searcher::search`] return its best move at once. With depth or node limits only, the
//! search is deterministic: same position, same limits, fresh searcher → same result.

mod chance_nodes;
mod correction;
mod quiescence;
mod root;

use crate::chance::{Expectation, Step};
use crate::features::Features;
use crate::history::{Histories, Killers, NO_PIECE_TO, bonus};
use crate::limits::Limits;
use crate::movepick::{MovePicker, Stage};
use crate::score::{DECISIVE, INF, MAX_PLY, Score, mate_in, mated_in, plies_to_end};
use crate::searchable::{Repetition, SearchGame};
use crate::timeman::{Timer, soft_scale};
use crate::tt::{Bound, Table, TranspositionTable};
use banco_game::{ChanceList, Game, MoveList};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Progress of a search, reported after every completed iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo<M> {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score for the side to move.
    pub score: Score,
    /// Principal variation.
    pub pv: Vec<M>,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the start.
    pub time_ms: u64,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// Best move; `None` when the side to move has no legal move (the game is over) or the
    /// position awaits chance (there is nothing to choose: the value is the expectation
    /// over the outcomes).
    pub best_move: Option<M>,
    /// Score for the side to move.
    pub score: Score,
    /// Internal score (centipawns, or near ±[`MATE`](crate::score::MATE)).
    pub value: i32,
    /// Principal variation, starting with the best move.
    pub pv: Vec<M>,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds used (not compared by tests: it depends on the machine).
    pub time_ms: u64,
    /// Every root move with its score at the last completed iteration (exact for moves
    /// within [`SearchOptions::root_margin`] of the best, an upper bound for the others),
    /// best first.
    pub root_scores: Vec<(M, i32)>,
}

/// Options beyond the limits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchOptions<M> {
    /// Root moves not to consider (UCCI `banmoves`).
    pub excluded: Vec<M>,
    /// Score every root move within this many centipawns of the best exactly (for the
    /// human-like levels); `None` searches the root like any other node.
    pub root_margin: Option<i32>,
}

/// Correction-history entries per side.
const CORRECTION_SIZE: usize = 16_384;
/// Units of a correction entry per centipawn.
const CORRECTION_GRAIN: i32 = 256;
/// Largest correction, in entry units (64 centipawns).
const CORRECTION_MAX: i32 = CORRECTION_GRAIN * 64;

/// Reductions for late moves, by depth and move number.
fn lmr(depth: i32, moves: usize) -> i32 {
    let d = (depth.clamp(1, 63)) as f64;
    let m = (moves.clamp(1, 63)) as f64;
    (0.5 + d.ln() * m.ln() / 2.2) as i32
}

/// A searcher for one game type: transposition table, history, killers and evaluation
/// weights, kept from one search to the next.
pub struct Searcher<S: SearchGame> {
    pub(crate) tt: Table,
    pub(crate) hash_mib: usize,
    /// Threads of a search: this one and `threads − 1` helpers ([`smp`](crate::smp)).
    pub(crate) threads: usize,
    /// The helpers of a Lazy SMP search, kept from one search to the next.
    pub(crate) helpers: Vec<Searcher<S>>,
    /// True for a helper: it leaves the shared table's age alone.
    pub(crate) helper: bool,
    /// A helper's second stop flag, raised when the main thread's search ends (a helper
    /// also watches the caller's flag itself, so that a stop reaches every thread within
    /// its own next poll, however the threads are scheduled).
    pub(crate) main_done: Option<Arc<AtomicBool>>,
    /// First iteration depth (helpers start at different depths).
    pub(crate) first_depth: i32,
    /// Nodes of the current search reported so far by all its threads (each adds its own
    /// every 1,024 nodes, [`Searcher::flush_nodes`]): what a node limit counts when several
    /// threads search.
    pub(crate) shared_nodes: Arc<AtomicU64>,
    /// This thread's nodes already added to `shared_nodes`.
    pub(crate) flushed: u64,
    history: Histories,
    killers: Killers<S::Move>,
    pub(crate) params: S::Params,
    /// The switchable search features in use.
    pub(crate) features: Features,
    pv: Vec<[S::Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    evals: [i32; MAX_PLY + 1],
    null_move: [bool; MAX_PLY + 2],
    /// Piece-to key ([`SearchGame::piece_to`]) of the move played at each ply.
    piece_to: [usize; MAX_PLY + 2],
    pub(crate) nodes: u64,
    node_limit: u64,
    seldepth: usize,
    root_depth: i32,
    aborted: bool,
    timer: Option<Timer>,
    lmr_table: [[i8; 64]; 64],
    /// One move picker per ply, reused from node to node.
    pickers: Vec<MovePicker<S>>,
    /// Quiet moves searched at each ply (history maluses on a cutoff).
    tried: Vec<MoveList<S::Move>>,
    /// Captures searched at each ply (capture-history maluses on a cutoff).
    tried_captures: Vec<MoveList<S::Move>>,
    /// Correction history: side × [`SearchGame::correction_key`] slot, in
    /// 1/[`CORRECTION_GRAIN`] centipawns.
    corrections: Vec<i32>,
    /// The move a singular-extension search at each ply leaves out ([`SearchGame::no_move`]
    /// for none).
    excluded: Vec<S::Move>,
    /// Double extensions on the path to each ply.
    double_ext: [u8; MAX_PLY + 2],
}

impl<S: SearchGame> Searcher<S> {
    /// A searcher with a transposition table of `hash_mib` MiB and default weights.
    #[must_use]
    pub fn new(hash_mib: usize) -> Searcher<S> {
        Searcher::with_params(hash_mib, S::Params::default())
    }

    /// A searcher with the given evaluation weights.
    #[must_use]
    pub fn with_params(hash_mib: usize, params: S::Params) -> Searcher<S> {
        let (table, hash_mib) = Table::largest(hash_mib, false);
        let mut lmr_table = [[0i8; 64]; 64];
        for (d, row) in lmr_table.iter_mut().enumerate() {
            for (m, v) in row.iter_mut().enumerate() {
                *v = lmr(d as i32, m) as i8;
            }
        }
        Searcher {
            tt: table,
            hash_mib,
            threads: 1,
            helpers: Vec::new(),
            helper: false,
            main_done: None,
            first_depth: 1,
            shared_nodes: Arc::new(AtomicU64::new(0)),
            flushed: 0,
            history: Histories::new(S::MOVE_INDEX_SIZE, S::PIECE_TO_SIZE, S::VICTIM_SIZE),
            killers: Killers::new(S::no_move()),
            params,
            features: Features::DEFAULT,
            pv: vec![[S::Move::default(); MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            evals: [0; MAX_PLY + 1],
            null_move: [false; MAX_PLY + 2],
            piece_to: [NO_PIECE_TO; MAX_PLY + 2],
            nodes: 0,
            node_limit: u64::MAX,
            seldepth: 0,
            root_depth: 0,
            aborted: false,
            timer: None,
            lmr_table,
            pickers: vec![MovePicker::new(); MAX_PLY + 2],
            tried: vec![MoveList::new(); MAX_PLY + 2],
            tried_captures: vec![MoveList::new(); MAX_PLY + 2],
            corrections: vec![0; 2 * CORRECTION_SIZE],
            excluded: vec![S::no_move(); MAX_PLY + 2],
            double_ext: [0; MAX_PLY + 2],
        }
    }

    /// Replaces the transposition table with one of `hash_mib` MiB — or, when the memory
    /// cannot be had, the largest half, quarter, … of it that can ([`Table::largest`]: never
    /// an abort; [`Searcher::hash_mib`] says what was had).
    pub fn resize_hash(&mut self, hash_mib: usize) {
        self.remake_table(hash_mib);
    }

    /// The size of the transposition table, in MiB.
    #[must_use]
    pub fn hash_mib(&self) -> usize {
        self.hash_mib
    }

    /// A new table of `hash_mib` MiB (at most), shared when several threads search. The old
    /// table goes first, so that the two never take memory at once.
    pub(crate) fn remake_table(&mut self, hash_mib: usize) {
        self.tt = Table::Own(TranspositionTable::new(1));
        let (tt, had) = Table::largest(hash_mib, self.threads > 1);
        self.tt = tt;
        self.hash_mib = had;
    }

    /// Forgets everything learnt (table, history, killers): the next search behaves like
    /// a fresh searcher's.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.clear();
        self.killers.clear();
        self.corrections.fill(0);
        for h in &mut self.helpers {
            h.history.clear();
            h.killers.clear();
            h.corrections.fill(0);
        }
    }

    /// Switches search features on or off ([`features`](crate::features)); helpers of a
    /// Lazy SMP search follow.
    pub fn set_features(&mut self, features: Features) {
        self.features = features;
    }

    /// The search features in use.
    #[must_use]
    pub fn features(&self) -> Features {
        self.features
    }

    /// The evaluation weights.
    pub fn params(&self) -> &S::Params {
        &self.params
    }

    /// Bytes of memory this searcher holds (table included).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.tt.bytes()
            + self.history.bytes()
            + self.corrections.len() * size_of::<i32>()
            + self.pv.len() * size_of::<[S::Move; MAX_PLY + 1]>()
            + self.pickers.len() * size_of::<MovePicker<S>>()
            + (self.tried.len() + self.tried_captures.len()) * size_of::<MoveList<S::Move>>()
            + size_of::<Self>()
            + self
                .helpers
                .iter()
                .map(|h| h.memory_bytes() - h.tt.bytes())
                .sum::<usize>()
    }

    /// Searches `game` under `rules` until a limit is reached or `stop` is raised;
    /// `on_info` hears about every completed iteration.
    pub fn search(
        &mut self,
        game: &S::Game,
        rules: &<S::Game as Game>::Rules,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: impl FnMut(&SearchInfo<S::Move>),
    ) -> SearchResult<S::Move> {
        self.search_with(
            game,
            rules,
            limits,
            &SearchOptions::default(),
            stop,
            on_info,
        )
    }

    /// [`Searcher::search`] with options.
    pub fn search_with(
        &mut self,
        game: &S::Game,
        rules: &<S::Game as Game>::Rules,
        limits: &Limits,
        options: &SearchOptions<S::Move>,
        stop: &AtomicBool,
        on_info: impl FnMut(&SearchInfo<S::Move>),
    ) -> SearchResult<S::Move> {
        let node = S::from_game(game, rules, &self.params);
        if self.threads > 1 && !node.awaits_chance() {
            return self.search_smp(node, limits, options, stop, on_info);
        }
        self.search_alone(node, limits, options, stop, on_info)
    }

    /// A search of `node` on this thread alone (its node counter starting afresh).
    pub(crate) fn search_alone(
        &mut self,
        node: S,
        limits: &Limits,
        options: &SearchOptions<S::Move>,
        stop: &AtomicBool,
        on_info: impl FnMut(&SearchInfo<S::Move>),
    ) -> SearchResult<S::Move> {
        self.shared_nodes.store(0, Ordering::Relaxed);
        self.search_node(node, limits, options, stop, on_info)
    }

    #[inline]
    fn should_abort(&mut self, stop: &AtomicBool) -> bool {
        if self.aborted {
            return true;
        }
        let polled = self.nodes & 1023 == 0 && self.poll(stop);
        self.aborted = polled || (self.nodes >= self.node_limit && self.root_depth > 1);
        self.aborted
    }

    /// Every 1,024 nodes: this thread's nodes reported, then the stop flag, the node limit
    /// counted over every thread of the search (within 1,024 nodes a thread), the clock.
    ///
    /// The node limit never cuts the first iteration: a search always ends with every
    /// root move searched one ply deep (and its quiescence) unless it is stopped or out of
    /// time — a level's cap or `go nodes 1` still plays a searched move, not the move
    /// generator's first.
    fn poll(&mut self, stop: &AtomicBool) -> bool {
        self.flush_nodes();
        stop.load(Ordering::Relaxed)
            || self
                .main_done
                .as_ref()
                .is_some_and(|d| d.load(Ordering::Relaxed))
            || (self.shared_nodes.load(Ordering::Relaxed) >= self.node_limit && self.root_depth > 1)
            || self.timer.is_some_and(|t| t.hard_expired())
    }

    /// The piece-to keys of the moves one and two plies before `ply`.
    #[inline]
    fn prev_keys(&self, ply: usize) -> [usize; 2] {
        if !self.features.cont_history {
            return [NO_PIECE_TO; 2];
        }
        [
            ply.checked_sub(1).map_or(NO_PIECE_TO, |p| self.piece_to[p]),
            ply.checked_sub(2).map_or(NO_PIECE_TO, |p| self.piece_to[p]),
        ]
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, mv: S::Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let row = &mut head[ply];
        row[ply] = mv;
        let child = &tail[0];
        let end = child_len.min(MAX_PLY);
        if end > ply + 1 {
            row[ply + 1..end].copy_from_slice(&child[ply + 1..end]);
        }
        self.pv_len[ply] = child_len.min(MAX_PLY);
    }

    #[allow(clippy::too_many_lines)]
    fn negamax(
        &mut self,
        node: &mut S,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        stop: &AtomicBool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if self.should_abort(stop) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if node.awaits_chance() {
            return self.chance(node, depth, alpha, beta, ply, pv_node, stop);
        }
        if let Some(r) = node.repetition() {
            return match r {
                Repetition::Draw => 0,
                // The game ends here, as it would by mate (see `score`).
                Repetition::Win => mate_in(ply),
                Repetition::Loss => mated_in(ply),
            };
        }
        if node.rule_draw() {
            return 0;
        }
        // Mate-distance pruning.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        if ply >= MAX_PLY - 2 {
            return node.evaluate();
        }
        let in_check = node.in_check();
        if depth <= 0 {
            return self.qsearch(node, alpha, beta, ply, stop);
        }
        let key = node.hash();
        let hit = self.tt.probe(key, ply);
        let excluded = self.excluded[ply];
        // A singular-extension search of this node without its table move.
        let singular_search = excluded != S::no_move();
        let mut tt_move = S::no_move();
        if let Some(h) = hit {
            if let Some(m) = S::from_tt_code(h.mv) {
                tt_move = m;
            }
            if !pv_node && !singular_search && h.depth >= depth {
                let cut = match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => h.score >= beta,
                    Bound::Upper => h.score <= alpha,
                };
                if cut {
                    return h.score;
                }
            }
        }
        let raw_eval = if in_check {
            -INF
        } else if let Some(h) = hit {
            h.eval
        } else {
            node.evaluate()
        };
        let eval = if in_check {
            -INF
        } else {
            (raw_eval + self.correction(node)).clamp(-DECISIVE + 1, DECISIVE - 1)
        };
        self.evals[ply] = eval;
        let improving = ply >= 2 && !in_check && eval > self.evals[ply - 2];
        if !pv_node && !in_check && !singular_search && beta.abs() < DECISIVE {
            // Reverse futility: far above beta at low depth.
            if depth <= 6 && eval - 80 * depth + if improving { 30 } else { 0 } >= beta {
                return eval;
            }
            // Null move, guarded against zugzwang and not twice in a row.
            if depth >= 3 && eval >= beta && node.has_big_pieces() && !self.null_move[ply] {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(2);
                let u = node.make_null();
                self.piece_to[ply] = NO_PIECE_TO;
                self.nodes += 1;
                self.null_move[ply + 1] = true;
                let v = -self.negamax(node, depth - 1 - r, -beta, -beta + 1, ply + 1, false, stop);
                node.unmake_null(u);
                self.null_move[ply + 1] = false;
                if self.aborted {
                    return 0;
                }
                if v >= beta {
                    return if v >= DECISIVE { beta } else { v };
                }
            }
            if self.features.probcut && depth >= 5 {
                if let Some(v) = self.probcut(node, depth, beta, eval, raw_eval, hit, ply, stop) {
                    return v;
                }
                if self.aborted {
                    return 0;
                }
            }
        }
        // Internal iterative reduction: no table move at a deep node.
        if tt_move == S::no_move() && depth >= 6 {
            depth -= 1;
        }
        // Singular extension: when every move but the table move fails well below the
        // table's score, the table move is extended; when even without it the node
        // beats beta, it is cut (multi-cut).
        let mut tt_ext = 0;
        if self.features.singular
            && !singular_search
            && depth >= 6
            && tt_move != S::no_move()
            && let Some(h) = hit.filter(|h| {
                h.depth >= depth - 3 && h.bound != Bound::Upper && h.score.abs() < DECISIVE
            })
        {
            let s_beta = h.score - 2 * depth;
            self.excluded[ply] = tt_move;
            let v = self.negamax(node, (depth - 1) / 2, s_beta - 1, s_beta, ply, false, stop);
            self.excluded[ply] = S::no_move();
            if self.aborted {
                return 0;
            }
            if v < s_beta {
                tt_ext = if !pv_node && v < s_beta - 40 && self.double_ext[ply] < 6 {
                    2
                } else {
                    1
                };
            } else if s_beta >= beta {
                return s_beta;
            } else if h.score >= beta {
                tt_ext = -1;
            }
        }
        let killers = self.killers.get(ply);
        let null = S::no_move();
        // The picker tries the table move before any generation, then captures, killers
        // and quiet moves, generating each kind only when its turn comes; generated moves
        // are tested for legality only when they are tried.
        let prev = self.prev_keys(ply);
        self.pickers[ply].reset(if singular_search { null } else { tt_move }, killers, prev);
        self.tried[ply].clear();
        self.tried_captures[ply].clear();
        let side = node.side_to_move().index();
        let mut best = -INF;
        let mut best_move = null;
        let mut searched = 0usize;
        let mut legal = 0usize;
        let original_alpha = alpha;
        let mut last_stage = Stage::TtMove;
        while let Some((mv, stage)) = self.pickers[ply].next(node, &self.history) {
            if depth >= 2 {
                // The child probes the table first thing: start fetching its entry now,
                // as early as possible (a move found illegal or pruned below wastes only
                // a prefetch), and the entry of the move after it too, whose fetch then
                // has this whole subtree's time to arrive.
                if let Some(h) = node.hash_after(mv) {
                    self.tt.prefetch(h);
                }
                if stage != last_stage {
                    // A new stage: the moves after this one are likely searched too.
                    for n in self.pickers[ply].upcoming(4) {
                        if let Some(h) = node.hash_after(n) {
                            self.tt.prefetch(h);
                        }
                    }
                } else if let Some(h) = self.pickers[ply].peek().and_then(|n| node.hash_after(n)) {
                    self.tt.prefetch(h);
                }
                last_stage = stage;
            }
            if mv == excluded {
                continue;
            }
            if !stage.checked_legal() && !node.pseudo_is_legal(mv, in_check) {
                continue;
            }
            legal += 1;
            let quiet = matches!(stage, Stage::Quiet | Stage::Killer)
                || (stage == Stage::TtMove && node.capture_key(mv).is_none());
            // Late-move pruning of quiet moves at shallow depth (checks spared when the game
            // can tell them).
            if !pv_node
                && !in_check
                && quiet
                && depth <= 3
                && best > -DECISIVE
                && searched >= (4 + 3 * depth * depth) as usize / if improving { 1 } else { 2 } + 2
            {
                if !S::KNOWS_CHECKS {
                    // Every later quiet move would be pruned too.
                    self.pickers[ply].skip_quiets();
                    continue;
                }
                if !node.gives_check(mv) {
                    continue;
                }
            }
            // Futility pruning: quiet moves cannot lift a static evaluation far below
            // alpha at low depth.
            if self.features.futility
                && !pv_node
                && !in_check
                && quiet
                && depth <= 6
                && best > -DECISIVE
                && eval + 100 + 90 * depth <= alpha
                && !(S::KNOWS_CHECKS && node.gives_check(mv))
            {
                if !S::KNOWS_CHECKS {
                    self.pickers[ply].skip_quiets();
                }
                continue;
            }
            // Static-exchange pruning at low depth: captures that lose more than a
            // depth-scaled amount, quiet moves that put a piece where it is lost.
            if !in_check && best > -DECISIVE && depth <= 6 {
                let prune = if quiet {
                    self.features.see_quiets && !node.see_ge(mv, -20 * depth * depth)
                } else {
                    self.features.see_pruning && !node.see_ge(mv, -120 * depth)
                };
                if prune {
                    continue;
                }
            }
            let pt = node.piece_to(mv);
            let stat = if quiet {
                self.history.quiet_score(side, S::move_index(mv), pt, prev)
            } else {
                0
            };
            self.piece_to[ply] = pt;
            let mut undo = node.make(mv);
            self.nodes += 1;
            let check = node.in_check();
            let room = ply < 2 * self.root_depth as usize + 8;
            let mut extend_check = check && room;
            if extend_check && self.features.safe_check_ext && !pv_node {
                // A check that loses material by static exchange earns no extension (the
                // move is taken back for the exchange to be judged from before it).
                node.unmake(mv, undo);
                extend_check = node.see_ge(mv, 0);
                undo = node.make(mv);
            }
            let mut ext = i32::from(extend_check);
            if mv == tt_move && tt_ext != 0 {
                ext = if tt_ext > 0 {
                    ext.max(if room { tt_ext } else { 0 })
                } else {
                    ext + tt_ext
                };
            }
            self.double_ext[ply + 1] = self.double_ext[ply] + u8::from(ext >= 2);
            let new_depth = depth - 1 + ext;
            let mut v;
            if searched == 0 {
                v = -self.negamax(node, new_depth, -beta, -alpha, ply + 1, pv_node, stop);
            } else {
                let mut r = 0;
                if depth >= 3 && searched >= 2 && quiet && !in_check && !check {
                    r = i32::from(self.lmr_table[depth.min(63) as usize][searched.min(63)]);
                    if pv_node {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if stage == Stage::Killer {
                        r -= 1;
                    }
                    if self.features.history_lmr {
                        r -= stat / 12_000;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                v = -self.negamax(
                    node,
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                    stop,
                );
                if v > alpha && r > 0 && !self.aborted {
                    v = -self.negamax(node, new_depth, -alpha - 1, -alpha, ply + 1, false, stop);
                }
                if v > alpha && v < beta && pv_node && !self.aborted {
                    v = -self.negamax(node, new_depth, -beta, -alpha, ply + 1, true, stop);
                }
            }
            node.unmake(mv, undo);
            if self.aborted {
                return 0;
            }
            searched += 1;
            if v > best {
                best = v;
                if v > alpha {
                    best_move = mv;
                    alpha = v;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if v >= beta {
                        let b = bonus(depth);
                        if quiet {
                            self.killers.push(ply, mv);
                            self.history
                                .update_quiet(side, S::move_index(mv), pt, prev, b);
                            for &q in &self.tried[ply] {
                                self.history.update_quiet(
                                    side,
                                    S::move_index(q),
                                    node.piece_to(q),
                                    prev,
                                    -b,
                                );
                            }
                        } else if self.features.capture_history {
                            self.history.capture.update(pt, node.victim_index(mv), b);
                        }
                        if self.features.capture_history {
                            for &c in &self.tried_captures[ply] {
                                self.history.capture.update(
                                    node.piece_to(c),
                                    node.victim_index(c),
                                    -b,
                                );
                            }
                        }
                        break;
                    }
                }
            }
            if quiet {
                self.tried[ply].push(mv);
            } else {
                self.tried_captures[ply].push(mv);
            }
        }
        if legal == 0 {
            if singular_search {
                // Only the table move: it is singular.
                return alpha;
            }
            // Checkmate, or stalemate: the game says what it is worth.
            return node.no_move_verdict(in_check).mate_score(ply);
        }
        if singular_search {
            // Its verdict holds without the table move only: not for the table.
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let code = if best_move == S::no_move() {
            0
        } else {
            S::tt_code(best_move)
        };
        // The search's verdict corrects the static evaluation when it is informative: not
        // in check, no capture as the best move, a bound on the right side of the eval.
        if !in_check
            && best.abs() < DECISIVE
            && (best_move == S::no_move() || node.capture_key(best_move).is_none())
            && !(bound == Bound::Lower && best <= eval)
            && !(bound == Bound::Upper && best >= eval)
        {
            self.update_correction(node, best - raw_eval, depth);
        }
        self.tt.store(
            key,
            depth,
            best,
            if in_check { 0 } else { raw_eval },
            bound,
            code,
            ply,
        );
        best
    }
}
