//! The state of one driver, shared by its threads behind one mutex: the driver thread
//! (timers, connect results, shutdown), the reader thread of the current link (incoming
//! frames are handled right there, without a hop to another thread) and the callers of
//! [`Driver`](super::Driver) methods (a move is encrypted and sent on the caller's thread).

use std::cell::Cell;
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use banco_game::MatchGame;
use banco_protocol::{Event, LinkDownReason, Session};

use super::{Connector, DriverConfig, DriverEvent, Role};
use crate::error::LinkError;
use crate::link::{BoxLink, Link};

/// Where events go (a channel sender or the caller's callback).
pub(super) type Sink<M> = Box<dyn FnMut(DriverEvent<M>) + Send>;
/// The core as the threads share it.
pub(super) type Shared<G> = Arc<Mutex<Core<G>>>;

/// What only the driver thread does.
pub(super) enum Input {
    /// A connect attempt ended; the connector comes back with it.
    Connected {
        result: Result<BoxLink, LinkError>,
        connector: Box<dyn Connector>,
    },
    /// Drop the current link and make a new one (queued from inside a callback).
    Disconnect,
    /// Retry after giving up (queued from inside a callback).
    Reconnect,
    /// Something changed the deadline the driver thread sleeps until.
    Wake,
    /// End the driver thread.
    Shutdown,
}

thread_local! {
    /// The driver (its core's address) whose event callback runs on this thread, or 0.
    static IN_CALLBACK: Cell<usize> = const { Cell::new(0) };
}

/// True while this thread runs the event callback of the driver `id`.
pub(super) fn in_callback_of(id: usize) -> bool {
    IN_CALLBACK.with(|c| c.get() == id)
}

/// Locks the core. A panic in a user callback poisons the lock; the state is still
/// consistent enough to shut down, so the lock is taken over.
pub(super) fn lock<G: MatchGame>(shared: &Mutex<Core<G>>) -> MutexGuard<'_, Core<G>> {
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}

pub(super) struct Core<G: MatchGame> {
    pub(super) session: Session<G>,
    role: Role,
    tx: SyncSender<Input>,
    sink: Sink<G::Move>,
    epoch: Instant,
    /// The current link and its generation (readers of older links stop).
    link: Option<(u64, Arc<dyn Link>)>,
    generation: u64,
    /// `None` while a connect thread holds it.
    connector: Option<Box<dyn Connector>>,
    /// When to start the next connect attempt (driver clock, ms).
    next_connect: Option<u64>,
    failures: u32,
    config: DriverConfig,
    gave_up: bool,
    /// Whether the current link completed its handshake and resume (`None` once its loss
    /// was accounted for).
    link_state: Option<bool>,
    pub(super) done: bool,
    /// The deadline the driver thread sleeps until (`None`: until an input).
    waiting_until: Option<u64>,
    readers: Vec<JoinHandle<()>>,
    /// This core, for the reader threads.
    me: Weak<Mutex<Core<G>>>,
}

impl<G: MatchGame> Core<G>
where
    Session<G>: Send,
{
    pub(super) fn new_shared(
        session: Session<G>,
        connector: Box<dyn Connector>,
        config: DriverConfig,
        sink: Sink<G::Move>,
        tx: SyncSender<Input>,
    ) -> Shared<G> {
        Arc::new_cyclic(|me| {
            Mutex::new(Core {
                session,
                role: connector.role(),
                tx,
                sink,
                epoch: Instant::now(),
                link: None,
                generation: 0,
                connector: Some(connector),
                next_connect: None,
                failures: 0,
                config,
                gave_up: false,
                link_state: None,
                done: false,
                waiting_until: None,
                readers: Vec::new(),
                me: me.clone(),
            })
        })
    }

    /// The driver's clock: milliseconds since the driver started.
    pub(super) fn now(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn id(&self) -> usize {
        self.me.as_ptr() as usize
    }

    fn emit(&mut self, event: DriverEvent<G::Move>) {
        let id = self.id();
        let outer = IN_CALLBACK.with(|c| c.replace(id));
        (self.sink)(event);
        IN_CALLBACK.with(|c| c.set(outer));
    }

    /// The next moment the driver thread must act at.
    fn deadline(&self) -> Option<u64> {
        let connect_at = self.next_connect.filter(|_| self.connector.is_some());
        [self.session.poll_timeout(), connect_at]
            .into_iter()
            .flatten()
            .min()
    }

    /// After a change made outside the driver thread: wakes it if it must act earlier than
    /// it planned (or stop).
    pub(super) fn nudge(&mut self) {
        let wanted = self.deadline();
        let earlier = match (wanted, self.waiting_until) {
            (Some(w), Some(u)) => w < u,
            (Some(_), None) => true,
            (None, _) => false,
        };
        if self.done || earlier {
            self.waiting_until = wanted;
            // A full queue wakes the thread just as well.
            let _ = self.tx.try_send(Input::Wake);
        }
    }

    /// Handles an input of the driver thread.
    fn handle(&mut self, input: Input) {
        match input {
            Input::Connected { result, connector } => {
                self.connector = Some(connector);
                self.connected(result);
            }
            Input::Disconnect => self.disconnect(),
            Input::Reconnect => self.reconnect(),
            Input::Wake => {}
            Input::Shutdown => self.done = true,
        }
    }

    pub(super) fn disconnect(&mut self) {
        if self.link.is_some() {
            self.transport_lost("disconnected on request");
        }
    }

    pub(super) fn reconnect(&mut self) {
        self.failures = 0;
        self.gave_up = false;
        if self.link.is_none() {
            self.schedule_connect();
        }
    }

    fn current(&self, generation: u64) -> bool {
        self.link.as_ref().is_some_and(|(g, _)| *g == generation)
    }

    /// Sends what the session wants sent and reports its events, until it is quiet.
    pub(super) fn pump(&mut self) {
        let mut closed = false;
        loop {
            let mut progressed = false;
            while let Some(frame) = self.session.poll_transmit() {
                progressed = true;
                // Without a link the frame belongs to a dead link's keys: drop it; the
                // session retransmits whatever matters after `Resume`.
                let Some((_, link)) = &self.link else {
                    continue;
                };
                if let Err(e) = link.send(&frame) {
                    self.transport_lost(&e.to_string());
                }
            }
            while let Some(event) = self.session.poll_event() {
                progressed = true;
                let link_down = match &event {
                    Event::LinkDown { reason } => Some(reason.clone()),
                    Event::LinkUp { .. } => {
                        self.link_state = Some(true);
                        self.failures = 0;
                        None
                    }
                    Event::Closed { .. } => {
                        closed = true;
                        None
                    }
                    _ => None,
                };
                self.emit(DriverEvent::Session(event));
                if let Some(reason) = link_down {
                    self.session_link_down(&reason);
                }
            }
            if !progressed {
                break;
            }
        }
        if closed || self.session.is_closed() {
            self.drop_link();
            self.done = true;
        }
    }

    /// The session gave the link up (silent peer, failed handshake, refused peer): close it
    /// at our end and make a new one, unless retrying cannot help.
    fn session_link_down(&mut self, reason: &LinkDownReason) {
        if self.drop_link() {
            self.emit(DriverEvent::Disconnected {
                error: reason.to_string(),
            });
        }
        self.after_link_loss(Some(reason));
    }

    /// Counts a link that never came up as a failed attempt (once per link), then plans the
    /// next one or gives up.
    fn after_link_loss(&mut self, reason: Option<&LinkDownReason>) {
        if self.link_state.take() == Some(false) {
            self.failures = self.failures.saturating_add(1);
        }
        let hopeless = reason.is_some_and(|r| {
            matches!(
                r,
                LinkDownReason::Version { .. } | LinkDownReason::UnknownSession
            )
        });
        if hopeless || self.config.max_attempts.is_some_and(|m| self.failures >= m) {
            self.give_up();
            return;
        }
        self.schedule_connect();
    }

    fn give_up(&mut self) {
        if !self.gave_up {
            self.gave_up = true;
            self.next_connect = None;
            self.emit(DriverEvent::GaveUp {
                attempts: self.failures,
            });
        }
    }

    /// The transport failed: close it, tell the session, plan a new link.
    fn transport_lost(&mut self, error: &str) {
        if !self.drop_link() {
            return;
        }
        self.emit(DriverEvent::Disconnected {
            error: error.to_owned(),
        });
        let now = self.now();
        // Queues `LinkDown`, reported with the session's other events.
        self.session.link_lost(now);
        self.after_link_loss(None);
    }

    /// Closes the current link; true if there was one.
    fn drop_link(&mut self) -> bool {
        match self.link.take() {
            Some((_, link)) => {
                link.close();
                true
            }
            None => false,
        }
    }

    fn schedule_connect(&mut self) {
        if self.session.is_closed() || self.gave_up || self.next_connect.is_some() {
            return;
        }
        let delay = match self.role {
            Role::Initiator => self.config.backoff(self.failures),
            // Accepting waits by itself.
            Role::Responder => Duration::ZERO,
        };
        let delay = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX);
        self.next_connect = Some(self.now().saturating_add(delay));
    }

    /// Starts a connect thread when one is due.
    fn maybe_connect(&mut self, now: u64) {
        if self.link.is_some() || self.session.is_closed() {
            self.next_connect = None;
            return;
        }
        if self.next_connect.is_none_or(|t| t > now) {
            return;
        }
        let Some(mut connector) = self.connector.take() else {
            return;
        };
        self.next_connect = None;
        let tx = self.tx.clone();
        let timeout = self.config.connect_timeout;
        let spawned = thread::Builder::new()
            .name("banco-connect".into())
            .spawn(move || {
                let result = connector.connect(timeout);
                let _ = tx.send(Input::Connected { result, connector });
            });
        if spawned.is_err() {
            // Could not start a thread (resource limits): try again later. The connector
            // went with the closure; without one the driver cannot reconnect any more.
            self.failures = self.failures.saturating_add(1);
            self.give_up();
        }
    }

    fn connected(&mut self, result: Result<BoxLink, LinkError>) {
        match result {
            Ok(link) => {
                if self.link.is_some() || self.session.is_closed() || self.done {
                    link.close();
                    return;
                }
                self.install(link);
            }
            Err(LinkError::Timeout) if self.role == Role::Responder => self.schedule_connect(),
            Err(e) => {
                self.failures = self.failures.saturating_add(1);
                if self.config.max_attempts.is_some_and(|m| self.failures >= m) {
                    self.give_up();
                    return;
                }
                let delay = self.config.backoff(self.failures);
                self.emit(DriverEvent::Reconnecting {
                    attempt: self.failures,
                    delay,
                    error: e.to_string(),
                });
                self.schedule_connect();
            }
        }
    }

    /// Starts using `link`: a reader thread, then the session's handshake.
    pub(super) fn install(&mut self, link: BoxLink) {
        let link: Arc<dyn Link> = Arc::from(link);
        self.generation += 1;
        let generation = self.generation;
        self.readers.retain(|r| !r.is_finished());
        let reader = {
            let link = Arc::clone(&link);
            let core = self.me.clone();
            thread::Builder::new()
                .name("banco-link-reader".into())
                .spawn(move || read_link(&core, &*link, generation))
        };
        let Ok(handle) = reader else {
            link.close();
            self.failures = self.failures.saturating_add(1);
            self.schedule_connect();
            return;
        };
        self.readers.push(handle);
        self.emit(DriverEvent::Connected { peer: link.peer() });
        self.link = Some((generation, link));
        self.link_state = Some(false);
        let now = self.now();
        let started = match self.role {
            Role::Initiator => self.session.connect(now),
            Role::Responder => self.session.accept(now),
        };
        if started.is_err() {
            // The session is closed: nothing more to do on any link.
            self.drop_link();
        }
    }
}

/// The reader thread of one link: each frame is handled on this thread, under the lock.
fn read_link<G: MatchGame>(weak: &Weak<Mutex<Core<G>>>, link: &dyn Link, generation: u64)
where
    Session<G>: Send,
{
    loop {
        let got = link.recv(None);
        let Some(shared) = weak.upgrade() else { return };
        let mut core = lock(&shared);
        if core.done || !core.current(generation) {
            return;
        }
        match got {
            Ok(Some(frame)) => {
                let now = core.now();
                core.session.handle_datagram(&frame, now);
            }
            Ok(None) => {}
            Err(error) => core.transport_lost(&error.to_string()),
        }
        core.pump();
        core.nudge();
        if !core.current(generation) {
            return;
        }
    }
}

/// The driver thread: timers, connect attempts and their results, the end.
pub(super) fn run<G: MatchGame>(shared: &Shared<G>, rx: &Receiver<Input>, first: Option<BoxLink>)
where
    Session<G>: Send,
{
    {
        let mut core = lock(shared);
        match first {
            Some(link) => core.install(link),
            None => core.next_connect = Some(0),
        }
    }
    let mut timer_fired = false;
    loop {
        let wait = {
            let mut core = lock(shared);
            core.pump();
            if core.done {
                break;
            }
            let now = core.now();
            core.maybe_connect(now);
            let deadline = core.deadline();
            core.waiting_until = deadline;
            deadline.map(|d| {
                // If the session did not move its timer after firing it: do not spin.
                d.saturating_sub(now).max(u64::from(timer_fired))
            })
        };
        let input = match wait {
            None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
            Some(0) => Err(RecvTimeoutError::Timeout),
            Some(ms) => rx.recv_timeout(Duration::from_millis(ms)),
        };
        let mut core = lock(shared);
        match input {
            Ok(input) => core.handle(input),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => core.done = true,
        }
        let now = core.now();
        timer_fired = false;
        if core.session.poll_timeout().is_some_and(|t| t <= now) {
            core.session.handle_timeout(now);
            timer_fired = true;
        }
    }
    let readers = {
        let mut core = lock(shared);
        core.done = true;
        core.drop_link();
        core.emit(DriverEvent::Stopped);
        std::mem::take(&mut core.readers)
    };
    // Every link is closed, so the readers return at once.
    for reader in readers {
        let _ = reader.join();
    }
}
