//! [`Runner`]: a [`VsComputer`] with the threads a front end needs — an engine thread that
//! runs the searches the game asks for (stopping one that is overtaken), and a notifier
//! thread that hands every new state to the front end's [`Observer`], in order. Bindings
//! and apps use it; the command line drives a `VsComputer` inline instead.
//!
//! ```
//! use banco_app::computer::{Settings, VsComputer};
//! use banco_app::runner::{Observer, Runner};
//! use banco_engine::Limits;
//! use banco_game::{Color, GameKind};
//! use std::sync::mpsc;
//!
//! struct Tx(std::sync::Mutex<mpsc::Sender<usize>>);
//! impl Observer for Tx {
//!     fn changed(&self, state: banco_app::computer::VsState) {
//!         let _ = self.0.lock().map(|t| t.send(state.moves.len()));
//!     }
//! }
//! let (tx, rx) = mpsc::channel();
//! let vs = VsComputer::new(Settings::new(GameKind::Xiangqi, Color::Red, 1)?)?;
//! let runner = Runner::new(vs, 1, Limits::depth(2), std::sync::Arc::new(Tx(tx.into())));
//! runner.act(|vs| vs.play_text("h2e2"))?;
//! // The computer answers on its own thread; the observer hears both moves.
//! while rx.recv_timeout(std::time::Duration::from_secs(30))? < 2 {}
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::computer::{SearchRequest, VsComputer, VsState};
use crate::engine::AnyEngine;
use banco_engine::Limits;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Hears the state of the game after every change, on the runner's notifier thread (a UI
/// hops to its own thread).
pub trait Observer: Send + Sync + 'static {
    /// The new state.
    fn changed(&self, state: VsState);
}

struct Inner {
    vs: VsComputer,
    /// The search running on the engine thread, and its stop flag.
    running: Option<(u64, Arc<AtomicBool>)>,
    /// Every search the engine thread finished, for the tests.
    #[cfg(test)]
    finished: Vec<Finished>,
}

/// A search the engine thread finished (tests).
#[cfg(test)]
#[derive(Clone, Debug)]
struct Finished {
    id: u64,
    job: crate::computer::Job,
    /// Its stop flag was raised: it was no longer wanted.
    stopped: bool,
    /// Nodes it searched (an engine search's).
    nodes: Option<u64>,
}

enum Work {
    Search(Box<SearchRequest>, Arc<AtomicBool>),
    Clear,
    Threads(usize),
    Quit,
}

/// A game against the computer with its threads (see the module docs). Dropping the
/// runner stops its search and ends its threads.
pub struct Runner {
    inner: Arc<Mutex<Inner>>,
    work: Sender<Work>,
    notify: Sender<VsState>,
}

fn lock(m: &Mutex<Inner>) -> MutexGuard<'_, Inner> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Runner {
    /// Starts the threads for `vs`; the engine uses `hash_mib` MiB and `base` limits (the
    /// level narrows them; a move time from the game's settings is added when `base` has
    /// no limit of its own).
    pub fn new(
        vs: VsComputer,
        hash_mib: usize,
        base: Limits,
        observer: Arc<dyn Observer>,
    ) -> Runner {
        let inner = Arc::new(Mutex::new(Inner {
            vs,
            running: None,
            #[cfg(test)]
            finished: Vec::new(),
        }));
        let (work, work_rx) = mpsc::channel::<Work>();
        let (notify, notify_rx) = mpsc::channel::<VsState>();
        spawn_notifier(notify_rx, observer);
        spawn_engine(
            work_rx,
            Arc::clone(&inner),
            notify.clone(),
            work.clone(),
            hash_mib,
            base,
        );
        let runner = Runner {
            inner,
            work,
            notify,
        };
        runner.act(|_| Ok::<(), ()>(())).ok();
        runner
    }

    /// Searches on `threads` threads from the next search on (see
    /// [`AnyEngine::set_threads`]; 1 by default).
    pub fn set_threads(&self, threads: usize) {
        let _ = self.work.send(Work::Threads(threads));
    }

    /// Runs an action on the game, then starts or stops searches as the game now needs and
    /// tells the observer the new state.
    pub fn act<R, E>(&self, f: impl FnOnce(&mut VsComputer) -> Result<R, E>) -> Result<R, E> {
        let mut inner = lock(&self.inner);
        let result = f(&mut inner.vs);
        sync(&mut inner, &self.work);
        let _ = self.notify.send(inner.vs.state());
        result
    }

    /// Reads the game without changing it.
    pub fn read<R>(&self, f: impl FnOnce(&VsComputer) -> R) -> R {
        f(&lock(&self.inner).vs)
    }

    /// The state now.
    #[must_use]
    pub fn state(&self) -> VsState {
        self.read(VsComputer::state)
    }

    /// Replaces the game (a new game, a puzzle, a continued one); the engine forgets what
    /// it learnt. A search of the old game (its move, a hint) is stopped and its answer
    /// dropped.
    pub fn replace(&self, mut vs: VsComputer) {
        let _ = self.work.send(Work::Clear);
        self.act(|old| {
            vs.number_after(old);
            *old = vs;
            Ok::<(), ()>(())
        })
        .ok();
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        if let Some((_, stop)) = lock(&self.inner).running.take() {
            stop.store(true, Ordering::Relaxed);
        }
        let _ = self.work.send(Work::Quit);
    }
}

/// Starts the search the game wants, stopping one it no longer wants.
fn sync(inner: &mut Inner, work: &Sender<Work>) {
    let want = inner.vs.pending_search();
    if inner.running.as_ref().map(|(id, _)| *id) == want {
        return;
    }
    if let Some((_, stop)) = inner.running.take() {
        stop.store(true, Ordering::Relaxed);
    }
    if let Some(request) = inner.vs.search_request() {
        let stop = Arc::new(AtomicBool::new(false));
        inner.running = Some((request.id, Arc::clone(&stop)));
        let _ = work.send(Work::Search(Box::new(request), stop));
    }
}

fn spawn_notifier(rx: Receiver<VsState>, observer: Arc<dyn Observer>) {
    let _ = std::thread::Builder::new()
        .name("banco-vs-notify".into())
        .spawn(move || {
            while let Ok(state) = rx.recv() {
                let o = Arc::clone(&observer);
                // An observer that panics must not take the notifier down.
                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| o.changed(state)));
            }
        });
}

fn spawn_engine(
    rx: Receiver<Work>,
    inner: Arc<Mutex<Inner>>,
    notify: Sender<VsState>,
    work: Sender<Work>,
    hash_mib: usize,
    base: Limits,
) {
    let inner = Arc::downgrade(&inner);
    let _ = std::thread::Builder::new()
        .name("banco-vs-engine".into())
        .spawn(move || {
            let mut engine = AnyEngine::new(hash_mib);
            while let Ok(job) = rx.recv() {
                let (request, stop) = match job {
                    Work::Quit => break,
                    Work::Clear => {
                        engine.clear();
                        continue;
                    }
                    Work::Threads(n) => {
                        engine.set_threads(n);
                        continue;
                    }
                    Work::Search(r, s) => (r, s),
                };
                if stop.load(Ordering::Relaxed) {
                    continue;
                }
                let answer = crate::answer::run(&mut engine, &request, &base, &stop);
                let Some(inner) = inner.upgrade() else { break };
                let mut guard = lock(&inner);
                #[cfg(test)]
                guard.finished.push(Finished {
                    id: request.id,
                    job: request.job,
                    stopped: stop.load(Ordering::Relaxed),
                    nodes: match &answer {
                        crate::answer::SearchAnswer::Engine(r) => Some(r.nodes),
                        _ => None,
                    },
                });
                if guard.running.as_ref().map(|(id, _)| *id) == Some(request.id) {
                    guard.running = None;
                }
                if guard.vs.answer_done(request.id, &answer) {
                    // A search the answer makes necessary is queued on this same thread.
                    sync(&mut guard, &work);
                    let _ = notify.send(guard.vs.state());
                }
            }
        });
}

#[cfg(test)]
mod tests;
