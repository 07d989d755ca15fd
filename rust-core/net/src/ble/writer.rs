//! The sending half of a [`BleLink`](super::BleLink): a send never blocks its caller.
//!
//! A radio may hold a write for a long time — a busy stack is waited for up to
//! [`hub::SEND_TIMEOUT`](super::hub::SEND_TIMEOUT), and a platform call (a shell's
//! `BlePeripheral.notify`, a D-Bus round trip) may simply not return. The thread that plays
//! a move holds the session's lock while it sends, so a frame's fragments are queued here
//! and written, in order, by a writer thread of the link's own (started with the first
//! send), as the TCP link's outbox does. A peer that stops taking fragments
//! costs its own link: a send fails with [`LinkError::Stalled`] (and the link is closed)
//! once more than [`SEND_BACKLOG`] bytes wait, or once one write has been under way for
//! [`STALL_TIMEOUT`]; a write that fails fails every later send.
//!
//! ```
//! use banco_net::{Link, LinkError, ble::{AttPipe, BleLink}};
//! use std::sync::mpsc::{self, Receiver};
//! use std::sync::Mutex;
//! use std::time::Duration;
//!
//! /// A radio that never returns from a write.
//! struct Stuck(Mutex<Receiver<()>>);
//! impl AttPipe for Stuck {
//!     fn write(&self, _chunk: &[u8]) -> Result<(), LinkError> {
//!         let _ = self.0.lock().unwrap().recv();
//!         Err(LinkError::Reset)
//!     }
//!     fn read(&self, _t: Option<Duration>) -> Result<Option<Vec<u8>>, LinkError> {
//!         Ok(None)
//!     }
//!     fn close(&self) {}
//! }
//!
//! let (release, rx) = mpsc::channel();
//! let link = BleLink::new(Stuck(Mutex::new(rx)));
//! // Every send returns at once; the backlog runs out and the link gives up.
//! let sent = (0..10_000).take_while(|_| link.send(&[0; 100]).is_ok()).count();
//! assert!(sent < 10_000);
//! assert!(matches!(link.send(&[0; 100]), Err(LinkError::Closed)));
//! drop(release);
//! ```

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use super::AttPipe;
use crate::error::LinkError;

/// Fragment bytes a link holds for a peer that does not take them, at most (a move is
/// about 30 bytes; a handshake message about 100); beyond it the link is given up with
/// [`LinkError::Stalled`].
pub const SEND_BACKLOG: usize = 16 * 1024;

/// How long one write may stay under way before the next send gives the link up with
/// [`LinkError::Stalled`]: twice the hub's busy-stack limit, so only a radio that does not
/// return at all hits it.
pub const STALL_TIMEOUT: Duration = Duration::from_secs(10);

/// How long closing waits for queued fragments (a goodbye) to go out.
const LINGER: Duration = Duration::from_millis(250);

#[derive(Default)]
struct State {
    /// Fragments waiting for the writer thread, in order.
    queue: VecDeque<Vec<u8>>,
    /// Their bytes.
    queued: usize,
    /// When the write under way started.
    writing_since: Option<Instant>,
    /// A write failed: every later send fails with this.
    failed: Option<LinkError>,
    /// The writer thread runs.
    started: bool,
}

struct Shared<P> {
    pipe: Arc<P>,
    state: Mutex<State>,
    /// Signalled when fragments are queued or the link closes.
    work: Condvar,
    /// Signalled when the queue empties or a write fails.
    idle: Condvar,
    closed: AtomicBool,
}

fn lock(m: &Mutex<State>) -> MutexGuard<'_, State> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The error a failed write leaves for later sends (`LinkError` is not `Clone`).
fn again(e: &LinkError) -> LinkError {
    match e {
        LinkError::Closed => LinkError::Closed,
        LinkError::Timeout => LinkError::Timeout,
        LinkError::Stalled { waiting } => LinkError::Stalled { waiting: *waiting },
        LinkError::Io(io) => LinkError::Io(std::io::Error::new(io.kind(), io.to_string())),
        _ => LinkError::Reset,
    }
}

/// The queue and writer thread of one link. See the [module docs](self).
pub(crate) struct Writer<P: AttPipe + 'static> {
    shared: Arc<Shared<P>>,
}

impl<P: AttPipe + 'static> Writer<P> {
    pub(crate) fn new(pipe: Arc<P>) -> Writer<P> {
        Writer {
            shared: Arc::new(Shared {
                pipe,
                state: Mutex::new(State::default()),
                work: Condvar::new(),
                idle: Condvar::new(),
                closed: AtomicBool::new(false),
            }),
        }
    }

    /// Queues the fragments of one frame, after earlier ones, without blocking.
    pub(crate) fn send(&self, chunks: Vec<Vec<u8>>) -> Result<(), LinkError> {
        let s = &*self.shared;
        let mut state = lock(&s.state);
        if s.closed.load(Ordering::Acquire) {
            return Err(LinkError::Closed);
        }
        if let Some(e) = &state.failed {
            return Err(again(e));
        }
        let bytes: usize = chunks.iter().map(Vec::len).sum();
        let waiting = state.queued + bytes;
        let stuck = state
            .writing_since
            .is_some_and(|t| t.elapsed() >= STALL_TIMEOUT);
        if waiting > SEND_BACKLOG || stuck {
            state.failed = Some(LinkError::Stalled { waiting });
            drop(state);
            self.close_now();
            return Err(LinkError::Stalled { waiting });
        }
        state.queue.extend(chunks);
        state.queued = waiting;
        if !state.started {
            let shared = Arc::clone(&self.shared);
            thread::Builder::new()
                .name("banco-ble-writer".into())
                .spawn(move || write_queued(&shared))
                .map_err(LinkError::Io)?;
            state.started = true;
        }
        s.work.notify_one();
        Ok(())
    }

    /// Waits until every queued fragment was written (at most `timeout`): `Ok` when they
    /// were, the write's error when one failed, [`LinkError::Timeout`] otherwise.
    pub(crate) fn flush(&self, timeout: Duration) -> Result<(), LinkError> {
        let s = &*self.shared;
        let state = lock(&s.state);
        let (state, _) = s
            .idle
            .wait_timeout_while(state, timeout, |st| {
                st.failed.is_none() && (!st.queue.is_empty() || st.writing_since.is_some())
            })
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(e) = &state.failed {
            return Err(again(e));
        }
        if state.queue.is_empty() && state.writing_since.is_none() {
            Ok(())
        } else {
            Err(LinkError::Timeout)
        }
    }

    /// Closes the link: waits briefly for queued fragments to go out, then closes the pipe
    /// (waking its reader) and ends the writer thread. Idempotent.
    pub(crate) fn close(&self) {
        if !self.shared.closed.load(Ordering::Acquire) {
            let _ = self.flush(LINGER);
        }
        self.close_now();
    }

    fn close_now(&self) {
        let s = &*self.shared;
        if !s.closed.swap(true, Ordering::AcqRel) {
            s.pipe.close();
        }
        // Taking the lock orders the flag before the writer's next check.
        lock(&s.state).queue.clear();
        s.work.notify_all();
        s.idle.notify_all();
    }
}

impl<P: AttPipe + 'static> Drop for Writer<P> {
    fn drop(&mut self) {
        // Ends the writer thread once the queue is written; the pipe is left as it is.
        let s = &*self.shared;
        let _guard = lock(&s.state);
        s.closed.store(true, Ordering::Release);
        s.work.notify_all();
    }
}

/// The writer thread: writes queued fragments in order until the link closes (after the
/// queue is written, when the link was dropped) or a write fails.
fn write_queued<P: AttPipe>(s: &Shared<P>) {
    loop {
        let chunk = {
            let mut state = lock(&s.state);
            let mut told_idle = false;
            loop {
                if let Some(chunk) = state.queue.pop_front() {
                    state.writing_since = Some(Instant::now());
                    break chunk;
                }
                s.idle.notify_all();
                if s.closed.load(Ordering::Acquire) || state.failed.is_some() {
                    return;
                }
                if !told_idle {
                    // The frames queued so far are out: the next one starts a new burst.
                    told_idle = true;
                    drop(state);
                    s.pipe.idle();
                    state = lock(&s.state);
                    continue;
                }
                state = s.work.wait(state).unwrap_or_else(PoisonError::into_inner);
            }
        };
        let written = s.pipe.write(&chunk);
        let mut state = lock(&s.state);
        state.writing_since = None;
        state.queued = state.queued.saturating_sub(chunk.len());
        if let Err(e) = written {
            state.failed.get_or_insert(e);
            state.queue.clear();
            state.queued = 0;
            s.idle.notify_all();
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// Records what the writer asks of it.
    #[derive(Default)]
    struct Recording(Mutex<Vec<String>>);

    impl AttPipe for Recording {
        fn write(&self, chunk: &[u8]) -> Result<(), LinkError> {
            self.0
                .lock()
                .unwrap()
                .push(format!("w{}", chunk.first().copied().unwrap_or(0)));
            Ok(())
        }
        fn read(&self, _timeout: Option<Duration>) -> Result<Option<Vec<u8>>, LinkError> {
            Ok(None)
        }
        fn close(&self) {}
        fn idle(&self) {
            self.0.lock().unwrap().push("idle".into());
        }
    }

    #[test]
    fn the_pipe_is_told_when_a_frame_is_out() {
        let pipe = Arc::new(Recording::default());
        let w = Writer::new(Arc::clone(&pipe));
        w.send(vec![vec![1], vec![2], vec![3]]).unwrap();
        w.flush(Duration::from_secs(5)).unwrap();
        // The writer tells the pipe once the queue is empty (after the flush returned, it
        // may still be on its way).
        let deadline = Instant::now() + Duration::from_secs(5);
        while !pipe.0.lock().unwrap().contains(&"idle".to_owned()) && Instant::now() < deadline {
            std::thread::yield_now();
        }
        w.send(vec![vec![4], vec![5]]).unwrap();
        w.flush(Duration::from_secs(5)).unwrap();
        let seen = pipe.0.lock().unwrap().clone();
        assert_eq!(&seen[..5], ["w1", "w2", "w3", "idle", "w4"], "{seen:?}");
        assert_eq!(seen.get(5).map(String::as_str), Some("w5"), "{seen:?}");
    }
}
