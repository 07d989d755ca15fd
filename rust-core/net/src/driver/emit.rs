//! How a driver's events leave it: queued under the session's lock, delivered after the
//! lock is released, in the order they happened.
//!
//! A thread woken by an event (the UI thread that answers a move) usually calls the driver
//! at once; if the event were delivered while the session is still locked, that call would
//! find the lock taken, sleep on it and be woken a second time. So [`CoreGuard`] — what
//! `lock` returns — releases the session first and only then hands the queued events to
//! the sink. One thread at a time delivers (the sink's own lock), taking events off a
//! queue that is filled under the session's lock, so the order is the order of the
//! session; a thread that releases the lock returns only once every event queued before
//! was delivered (by itself or by the thread delivering then). The one exception is a
//! call made from inside the callback (the sink is never called with the session locked,
//! so the callback may call the driver, say to answer a move on the thread that read
//! it): its events are queued behind the one being delivered and delivered right after.
//!
//! ```
//! # use banco_net::driver::{Driver, DriverConfig, DriverEvent, Role, from_fn};
//! # use banco_net::memory::{FaultPlan, MemoryLink};
//! # use banco_game::MatchGame;
//! # use banco_protocol::sim::CountingGame;
//! # use banco_protocol::{Event, Identity, Session, SessionConfig};
//! # use std::time::Duration;
//! let (a, _b) = MemoryLink::pair(FaultPlan::none(), 1);
//! let mut link = Some(a);
//! let connector = from_fn(Role::Initiator, move |_| {
//!     link.take().map(|l| Box::new(l) as banco_net::BoxLink).ok_or(banco_net::LinkError::Timeout)
//! });
//! let session = Session::<CountingGame>::new(
//!     SessionConfig::new("An", CountingGame::kinds()),
//!     Identity::from_secret([1; 32]),
//!     [1; 32],
//! );
//! let (driver, events) = Driver::spawn(session, connector, DriverConfig::default());
//! // The first event is the link, delivered once the driver released the session.
//! let first = events.recv_timeout(Duration::from_secs(5)).expect("an event");
//! assert!(matches!(first, DriverEvent::Connected { .. }));
//! drop(driver);
//! ```

use std::collections::VecDeque;
use std::ops::{Deref, DerefMut};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use banco_game::MatchGame;

use super::DriverEvent;
use super::state::{Core, in_callback_guard};

/// Where events go (a channel sender or the caller's callback).
pub(super) type Sink<M> = Box<dyn FnMut(DriverEvent<M>) + Send>;

fn take<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The events of one driver on their way out.
pub(super) struct Emitter<M> {
    /// Events in the order the session produced them (filled under the session's lock).
    queue: Mutex<VecDeque<DriverEvent<M>>>,
    /// The sink; held by the one thread delivering.
    sink: Mutex<Sink<M>>,
    /// The driver's id, for [`super::Driver`]'s in-callback check.
    id: usize,
}

impl<M> Emitter<M> {
    pub(super) fn new(sink: Sink<M>, id: usize) -> Arc<Emitter<M>> {
        Arc::new(Emitter {
            queue: Mutex::new(VecDeque::new()),
            sink: Mutex::new(sink),
            id,
        })
    }

    /// Queues an event (called under the session's lock, so the queue keeps its order).
    pub(super) fn push(&self, event: DriverEvent<M>) {
        take(&self.queue).push_back(event);
    }

    /// Delivers every queued event, in order (called without the session's lock).
    pub(super) fn flush(&self) {
        // Inside this driver's own callback the outer delivery goes on with what is queued.
        if super::in_callback_of(self.id) {
            return;
        }
        let mut sink = take(&self.sink);
        loop {
            let Some(event) = take(&self.queue).pop_front() else {
                break;
            };
            let _marked = in_callback_guard(self.id);
            (*sink)(event);
        }
    }
}

/// The session's lock as the driver's threads hold it: on release, the events queued
/// under it are delivered ([`Emitter::flush`]).
pub(super) struct CoreGuard<'a, G: MatchGame> {
    guard: Option<MutexGuard<'a, Core<G>>>,
}

impl<'a, G: MatchGame> CoreGuard<'a, G> {
    pub(super) fn new(guard: MutexGuard<'a, Core<G>>) -> Self {
        CoreGuard { guard: Some(guard) }
    }
}

impl<G: MatchGame> Deref for CoreGuard<'_, G> {
    type Target = Core<G>;
    fn deref(&self) -> &Core<G> {
        // Only `drop` takes the guard out.
        self.guard.as_deref().unwrap_or_else(|| unreachable!())
    }
}

impl<G: MatchGame> DerefMut for CoreGuard<'_, G> {
    fn deref_mut(&mut self) -> &mut Core<G> {
        self.guard.as_deref_mut().unwrap_or_else(|| unreachable!())
    }
}

impl<G: MatchGame> Drop for CoreGuard<'_, G> {
    fn drop(&mut self) {
        let Some(mut guard) = self.guard.take() else {
            return;
        };
        let emitter = guard.take_emitted();
        drop(guard);
        if let Some(emitter) = emitter {
            emitter.flush();
        }
    }
}
