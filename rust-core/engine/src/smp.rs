//! Lazy SMP: a search on several threads. The helpers search the same root as the main
//! thread, each with its own history, killers and move pickers, and all of them share one
//! transposition table ([`SharedTable`](crate::tt::SharedTable), lock-free); what one
//! thread learns cuts the others' trees. Half of the helpers start one iteration deeper, so that the threads do
//! not walk in step. The main thread decides: its result is the search's, its `info` is
//! reported (with the helpers' nodes counted), and when it stops — a limit, the stop flag
//! — the helpers stop too. A node limit counts the nodes of every thread (each reports its
//! own every 1,024 nodes, so the search may overrun the limit by about that much a
//! thread): `go nodes N` searches about N nodes whatever the threads.
//!
//! The playing levels below 10 ([`level::play`](crate::level::play)) always search on one
//! thread ([`Searcher::search_single`]): their node caps are what the ladder was measured
//! with, and their moves stay repeatable; only full strength uses the threads.
//!
//! With one thread ([`Searcher::set_threads`]`(1)`, the default) nothing of this runs: the
//! searcher keeps a table of its own and is deterministic, node for node. With more, the
//! threads' timing decides which entries each finds, so results vary from run to run.
//!
//! ```
//! use banco_engine::{Limits, Searcher, XiangqiNode};
//! use banco_xiangqi::{RuleSet, Xiangqi};
//! use std::sync::atomic::AtomicBool;
//! let mut searcher = Searcher::<XiangqiNode>::new(4);
//! searcher.set_threads(2);
//! assert_eq!(searcher.threads(), 2);
//! let game = Xiangqi::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1").unwrap();
//! let stop = AtomicBool::new(false);
//! let r = searcher.search(&game, &RuleSet::default(), &Limits::depth(5), &stop, |_| {});
//! assert_eq!(game.move_text(r.best_move.unwrap()), "e1d1");
//! # use banco_engine::EngineGame;
//! ```

use crate::limits::Limits;
use crate::search::{SearchInfo, SearchOptions, SearchResult, Searcher};
use crate::searchable::SearchGame;
use crate::tt::Table;
use banco_game::Game;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Most threads a search uses.
pub const MAX_THREADS: usize = 64;

/// The number of threads for a phone (or any device) with `cores` cores: one core is
/// left to the interface and the system, and at most 4 search (beyond that a phone's small
/// cores and its heat budget add little): `min(cores − 1, 4)`, at least 1.
///
/// ```
/// use banco_engine::smp::threads_for;
/// assert_eq!(threads_for(1), 1);
/// assert_eq!(threads_for(2), 1);
/// assert_eq!(threads_for(4), 3);
/// assert_eq!(threads_for(8), 4);
/// ```
#[must_use]
pub const fn threads_for(cores: usize) -> usize {
    let t = cores.saturating_sub(1);
    if t < 1 {
        1
    } else if t > 4 {
        4
    } else {
        t
    }
}

/// [`threads_for`] this device's available parallelism (1 when it cannot be read).
#[must_use]
pub fn default_threads() -> usize {
    threads_for(std::thread::available_parallelism().map_or(1, usize::from))
}

impl<S: SearchGame> Searcher<S> {
    /// Searches on `threads` threads from the next search on (1 to [`MAX_THREADS`]; see
    /// the module docs; the levels below 10 search on one thread whatever this says).
    /// Switching between one and several threads replaces the
    /// transposition table (its entries are lost).
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.clamp(1, MAX_THREADS);
        let was_shared = self.threads > 1;
        self.threads = threads;
        if (threads > 1) != was_shared {
            self.remake_table(self.hash_mib);
        }
        self.helpers.truncate(threads - 1);
    }

    /// Threads of a search.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// [`Searcher::search_with`] on the caller's thread alone, whatever
    /// [`Searcher::threads`] says: the search of a level below 10 ([`level::play`]), whose
    /// node cap must count every node searched for the move and whose result must not
    /// depend on the threads' timing. With the same table contents it searches node for node
    /// as a one-thread searcher does.
    ///
    /// [`level::play`]: crate::level::play
    pub fn search_single(
        &mut self,
        game: &S::Game,
        rules: &<S::Game as Game>::Rules,
        limits: &Limits,
        options: &SearchOptions<S::Move>,
        stop: &AtomicBool,
        on_info: impl FnMut(&SearchInfo<S::Move>),
    ) -> SearchResult<S::Move> {
        let node = S::from_game(game, rules, &self.params);
        self.search_alone(node, limits, options, stop, on_info)
    }

    /// This thread's nodes not yet reported, added to `shared_nodes`.
    pub(crate) fn flush_nodes(&mut self) {
        self.shared_nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// The nodes of the whole search so far: every thread's reported nodes and this
    /// thread's not yet reported.
    pub(crate) fn total_nodes(&self) -> u64 {
        self.shared_nodes.load(Ordering::Relaxed) + (self.nodes - self.flushed)
    }

    /// The Lazy SMP search of `node` (not awaiting chance).
    pub(crate) fn search_smp(
        &mut self,
        node: S,
        limits: &Limits,
        options: &SearchOptions<S::Move>,
        stop: &AtomicBool,
        on_info: impl FnMut(&SearchInfo<S::Move>),
    ) -> SearchResult<S::Move> {
        let Table::Shared(shared) = &self.tt else {
            return self.search_node(node, limits, options, stop, on_info);
        };
        let shared = Arc::clone(shared);
        while self.helpers.len() < self.threads - 1 {
            let mut h = Searcher::with_params(1, self.params.clone());
            h.helper = true;
            h.first_depth = 1 + (self.helpers.len() % 2) as i32;
            self.helpers.push(h);
        }
        self.shared_nodes.store(0, Ordering::Relaxed);
        let mut helpers = std::mem::take(&mut self.helpers);
        // The helpers stop on the caller's flag (each within its own next poll, whether or
        // not the main thread is running then), or once the main thread's search ended.
        let done = Arc::new(AtomicBool::new(false));
        for h in &mut helpers {
            h.main_done = Some(Arc::clone(&done));
            h.tt = Table::Shared(Arc::clone(&shared));
            h.params.clone_from(&self.params);
            h.features = self.features;
            h.shared_nodes = Arc::clone(&self.shared_nodes);
        }
        // The helpers search until the main thread stops them, or until the nodes of all
        // the threads reach the node limit.
        let helper_limits = match limits.nodes {
            Some(n) if !limits.infinite => Limits::nodes(n),
            _ => Limits::infinite(),
        };
        let helper_limits = &helper_limits;
        let mut result = std::thread::scope(|scope| {
            for (i, h) in helpers.iter_mut().enumerate() {
                let node = node.clone();
                // A helper that cannot be started is left out: the others search on.
                let _ = std::thread::Builder::new()
                    .name(format!("banco-helper-{}", i + 1))
                    .spawn_scoped(scope, move || {
                        h.search_node(node, helper_limits, options, stop, |_| {});
                        h.flush_nodes();
                    });
            }
            let r = self.search_node(node, limits, options, stop, on_info);
            done.store(true, Ordering::Relaxed);
            r
        });
        self.helpers = helpers;
        self.flush_nodes();
        result.nodes = self.shared_nodes.load(Ordering::Relaxed);
        result
    }
}
