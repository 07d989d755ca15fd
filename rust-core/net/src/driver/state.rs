//! The state of one driver, shared by its threads behind one mutex: the driver thread
//! (timers, connect results, shutdown), the reader thread of the current link (incoming
//! frames are handled right there, without a hop to another thread) and the callers of
//! [`Driver`](super::Driver) methods (a move is encrypted and sent on the caller's thread).

use std::cell::RefCell;
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use banco_game::MatchGame;
use banco_protocol::{Event, LinkDownReason, Session};

use super::emit::{CoreGuard, Emitter, Sink};
use super::{AddressLimiter, Connector, DriverConfig, DriverEvent, Interrupt, Refusal, Role};
use crate::error::LinkError;
use crate::link::{BoxLink, Link};

/// How long a link's reader parks after a frame at most (see [`read_link`]); no longer
/// than the session's first retransmission timeout (`Timing::rto_ms`, 300 ms by default),
/// so that a move played meanwhile needs no wake-up of the driver thread.
const COVER_MS: u64 = 250;

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
    /// Host: take connections again after too many unconfirmed codes.
    Reopen,
    /// Something changed the deadline the driver thread sleeps until.
    Wake,
    /// End the driver thread.
    Shutdown,
}

thread_local! {
    /// The drivers (their cores' addresses) whose event callbacks run on this thread, the
    /// innermost last (a callback may call another driver, whose callback runs inside).
    static IN_CALLBACK: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

/// Wakes the driver thread if `needed` (see [`Core::nudge`]); a full queue wakes it just as
/// well.
pub(super) fn wake(tx: &SyncSender<Input>, needed: bool) {
    if needed {
        let _ = tx.try_send(Input::Wake);
    }
}

/// True while this thread runs the event callback of the driver `id` (at any depth).
pub(super) fn in_callback_of(id: usize) -> bool {
    IN_CALLBACK.with(|c| c.borrow().contains(&id))
}

/// Marks this thread as running the event callback of the driver `id` until dropped.
pub(super) struct InCallback;

/// See [`InCallback`].
pub(super) fn in_callback_guard(id: usize) -> InCallback {
    IN_CALLBACK.with(|c| c.borrow_mut().push(id));
    InCallback
}

impl Drop for InCallback {
    fn drop(&mut self) {
        IN_CALLBACK.with(|c| c.borrow_mut().pop());
    }
}

/// Locks the core; the events queued while it is held are delivered when it is released
/// ([`CoreGuard`]). A panic in a user callback poisons the lock; the state is still
/// consistent enough to shut down, so the lock is taken over.
pub(super) fn lock<G: MatchGame>(shared: &Mutex<Core<G>>) -> CoreGuard<'_, G> {
    CoreGuard::new(shared.lock().unwrap_or_else(PoisonError::into_inner))
}

pub(super) struct Core<G: MatchGame> {
    pub(super) session: Session<G>,
    role: Role,
    tx: SyncSender<Input>,
    emitter: Arc<Emitter<G::Move>>,
    /// Events were queued since the lock was taken.
    emitted: bool,
    epoch: Instant,
    /// The current link and its generation (readers of older links stop).
    link: Option<(u64, Arc<dyn Link>)>,
    generation: u64,
    /// `None` while a connect thread holds it.
    connector: Option<Box<dyn Connector>>,
    /// The connect thread running now, with the way to interrupt it.
    connecting: Option<(JoinHandle<()>, Option<Interrupt>)>,
    /// When to start the next connect attempt (driver clock, ms).
    next_connect: Option<u64>,
    failures: u32,
    /// A link came up once (after that, resuming follows `max_attempts`).
    ever_linked: bool,
    config: DriverConfig,
    gave_up: bool,
    /// Why the driver gives up, when the peer's answer made trying again pointless.
    last_hopeless: Option<String>,
    /// Whether the current link completed its handshake and resume (`None` once its loss
    /// was accounted for).
    link_state: Option<bool>,
    pub(super) done: bool,
    /// The deadline the driver thread sleeps until (`None`: until an input).
    waiting_until: Option<u64>,
    /// The session deadline the current link's reader wakes at by itself, if it is parked
    /// in `recv` with a timeout (it fires the session's timers then, see [`read_link`]).
    reader_until: Option<u64>,
    readers: Vec<JoinHandle<()>>,
    /// This core, for the reader threads.
    me: Weak<Mutex<Core<G>>>,
    /// Host: connections whose handshake runs beside the current link.
    pending: Vec<Pending>,
    next_pending: u64,
    /// Host: codes of keys nobody confirmed that count towards
    /// [`DriverConfig::max_unverified`] since the last confirmation or reopening: the one on
    /// screen, and those the player rejected or that stayed on screen
    /// [`DriverConfig::code_seen_after`] before their device hung up.
    unverified: u32,
    /// Host: the unconfirmed code on screen now (it ends with its link).
    shown: Option<Shown>,
    /// Host: no new devices until the player reopens or [`Core::reopen_at`].
    paused: bool,
    /// Host, paused: when it takes devices again by itself (driver clock, ms).
    reopen_at: Option<u64>,
    limiter: AddressLimiter,
    /// Host: codes per source whose device hung up before the player could see them.
    hangups: AddressLimiter,
    /// Guest: why the host turned the current attempt away ([`Refusal`]), until reported.
    refusal: Option<&'static str>,
    /// Times [`Core::nudge`] asked for the driver thread to be woken (for tests).
    #[cfg(test)]
    pub(super) wakes_asked: u64,
}

mod hosting;

use hosting::{Pending, Shown};

/// A duration in the driver clock's milliseconds.
fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl<G: MatchGame> Core<G> {
    /// The emitter, if events were queued since the lock was taken (for [`CoreGuard`]).
    pub(super) fn take_emitted(&mut self) -> Option<Arc<Emitter<G::Move>>> {
        std::mem::take(&mut self.emitted).then(|| Arc::clone(&self.emitter))
    }
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
                emitter: Emitter::new(sink, me.as_ptr() as usize),
                emitted: false,
                epoch: Instant::now(),
                link: None,
                generation: 0,
                connector: Some(connector),
                connecting: None,
                next_connect: None,
                failures: 0,
                ever_linked: false,
                config,
                gave_up: false,
                last_hopeless: None,
                link_state: None,
                done: false,
                waiting_until: None,
                reader_until: None,
                readers: Vec::new(),
                me: me.clone(),
                pending: Vec::new(),
                next_pending: 0,
                unverified: 0,
                shown: None,
                paused: false,
                reopen_at: None,
                limiter: AddressLimiter::new(config.address_burst, ms(config.address_refill)),
                hangups: AddressLimiter::new(
                    config.unanswered_per_source,
                    ms(config.unanswered_refill),
                ),
                refusal: None,
                #[cfg(test)]
                wakes_asked: 0,
            })
        })
    }

    /// The driver's clock: milliseconds since the driver started.
    pub(super) fn now(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Queues an event, delivered once the lock is released.
    fn emit(&mut self, event: DriverEvent<G::Move>) {
        self.emitter.push(event);
        self.emitted = true;
    }

    /// The next moment the driver thread must act at.
    fn deadline(&self) -> Option<u64> {
        let connect_at = self.next_connect.filter(|_| self.connector.is_some());
        let reopen_at = self.reopen_at.filter(|_| self.paused);
        [self.session.poll_timeout(), connect_at, reopen_at]
            .into_iter()
            .flatten()
            .min()
    }

    /// After a change made outside the driver thread: true if the thread must be woken
    /// ([`wake`]) because it must act earlier than it planned (or stop). The caller wakes it
    /// after releasing the lock, so the woken thread does not block on it at once.
    ///
    /// A deadline the current link's reader wakes at by itself ([`Core::reader_until`])
    /// needs no wake: a move answered within the acknowledgement delay thus crosses no
    /// thread but the reader's.
    #[must_use]
    pub(super) fn nudge(&mut self) -> bool {
        let wanted = self.deadline();
        let covered = match (self.waiting_until, self.reader_until) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let earlier = match (wanted, covered) {
            (Some(w), Some(u)) => w < u,
            (Some(_), None) => true,
            (None, _) => false,
        };
        if self.done || earlier {
            self.waiting_until = wanted;
            #[cfg(test)]
            {
                self.wakes_asked += 1;
            }
            return true;
        }
        false
    }

    /// Runs the session's timers if one is due; true if one was.
    fn fire_due_timers(&mut self) -> bool {
        let now = self.now();
        let due = self.session.poll_timeout().is_some_and(|t| t <= now);
        if due {
            self.session.handle_timeout(now);
        }
        due
    }

    /// A sender to wake the driver thread with.
    pub(super) fn waker(&self) -> SyncSender<Input> {
        self.tx.clone()
    }

    /// Handles an input of the driver thread.
    fn handle(&mut self, input: Input) {
        match input {
            Input::Connected { result, connector } => {
                self.connector = Some(connector);
                // The thread sent its last message: it is ending.
                if let Some((thread, _)) = self.connecting.take() {
                    let _ = thread.join();
                }
                self.connected(result);
            }
            Input::Disconnect => self.disconnect(),
            Input::Reconnect => self.reconnect(),
            Input::Reopen => self.reopen(),
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
                        self.ever_linked = true;
                        self.refusal = None;
                        None
                    }
                    Event::Closed { .. } => {
                        closed = true;
                        None
                    }
                    Event::PeerVerified { .. } => {
                        self.unverified = 0;
                        self.shown = None;
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
        // Only a guest gives up on a host that cannot play, or that is not the player it
        // set out to reach (dialling the same address again reaches the same impostor); a
        // host never lets a stranger end its session (another version or session costs
        // that stranger's link). The confirmed peer come back without the match (it
        // restarted) ends it on both sides.
        // A guest with another route to the host (the LAN and Bluetooth) drops the one that
        // reached an impostor and tries the next.
        let restarted = matches!(reason, Some(LinkDownReason::PeerRestarted));
        let impostor = matches!(reason, Some(LinkDownReason::NotTheListedPlayer { .. }));
        let hopeless = restarted
            || (self.role == Role::Initiator
                && reason.is_some_and(|r| {
                    matches!(
                        r,
                        LinkDownReason::Version { .. }
                            | LinkDownReason::UnknownSession
                            | LinkDownReason::RestartedHere
                    )
                }))
            || (self.role == Role::Initiator
                && impostor
                && !self.connector.as_mut().is_some_and(|c| c.drop_last_route()));
        let too_many = self.role == Role::Initiator
            && self.attempt_limit().is_some_and(|m| self.failures >= m);
        if hopeless || too_many {
            self.last_hopeless = reason
                .filter(|_| hopeless)
                .map(ToString::to_string)
                .or_else(|| self.refusal.take().map(str::to_owned));
            self.give_up();
            return;
        }
        self.schedule_connect();
        if let Some(why) = self.refusal.take() {
            // Turned away by the host: say why, as for an attempt that failed to connect.
            self.emit(DriverEvent::Reconnecting {
                attempt: self.failures,
                delay: self.config.backoff(self.failures),
                error: why.to_owned(),
            });
        }
    }

    /// Guest: a frame that may be the host's [`Refusal`] (only in place of the answers of
    /// a link still in its handshake or `Resume`).
    fn refusal_in(&self, frame: &[u8]) -> Option<Refusal> {
        if self.role != Role::Initiator || self.link_state != Some(false) {
            return None;
        }
        Refusal::parse(frame)
    }

    /// Guest: the host turned this attempt away and says why; the link goes as a failed
    /// attempt, and the reason is reported with the next attempt
    /// ([`DriverEvent::Reconnecting`]) or with giving up ([`DriverEvent::GaveUp`]).
    fn refused(&mut self, refusal: Refusal) {
        if !self.drop_link() {
            return;
        }
        self.refusal = Some(refusal.text());
        let now = self.now();
        // Queues `LinkDown`; its handling counts the failed attempt (`after_link_loss`).
        self.session.link_lost(now);
    }

    /// Failed attempts in a row after which the driver gives up (see
    /// [`DriverConfig::max_first_attempts`]: a guest's first link only).
    fn attempt_limit(&self) -> Option<u32> {
        match (self.role, self.ever_linked, self.config.max_first_attempts) {
            (Role::Initiator, false, Some(first)) => {
                Some(self.config.max_attempts.map_or(first, |m| m.min(first)))
            }
            _ => self.config.max_attempts,
        }
    }

    fn give_up(&mut self) {
        if !self.gave_up {
            self.gave_up = true;
            self.next_connect = None;
            let reason = self.last_hopeless.take();
            self.emit(DriverEvent::GaveUp {
                attempts: self.failures,
                reason,
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
        self.reader_until = None;
        match self.link.take() {
            Some((generation, link)) => {
                link.close();
                self.code_over(generation);
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
        // A guest dials when it has no link; a host listens all along (for a guest that
        // reconnects before the old link is known dead, and beside strangers), as long as a
        // handshake slot is free.
        let busy = match self.role {
            Role::Initiator => self.link.is_some(),
            // Full slots do not stop the host listening: a newcomer may take the place of
            // a handshake that sits there (see `start_pending`); nor does a pause: a
            // device that dials meanwhile is told why it is turned away.
            Role::Responder => false,
        };
        if busy || self.session.is_closed() {
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
        let interrupt = connector.interrupter();
        let spawned = thread::Builder::new()
            .name("banco-connect".into())
            .spawn(move || {
                let result = connector.connect(timeout);
                let _ = tx.send(Input::Connected { result, connector });
            });
        if let Ok(thread) = spawned {
            self.connecting = Some((thread, interrupt));
        } else {
            // Could not start a thread (resource limits): try again later. The connector
            // went with the closure; without one the driver cannot reconnect any more.
            self.failures = self.failures.saturating_add(1);
            self.give_up();
        }
    }

    fn connected(&mut self, result: Result<BoxLink, LinkError>) {
        match result {
            Ok(link) if self.role == Role::Responder => {
                if self.session.is_closed() || self.done {
                    link.close();
                    return;
                }
                self.start_pending(link);
                self.schedule_connect();
            }
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
                if self.attempt_limit().is_some_and(|m| self.failures >= m) {
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
        self.reader_until = None;
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
///
/// The reader also keeps the session's timers while it waits: it parks in `recv` until the
/// session's next deadline at most and fires it itself when no frame came first. A move
/// received thus gets its delayed acknowledgement from this thread (or a move of ours
/// carries it), and the driver thread is woken only for deadlines set by other threads
/// that come before this one ([`Core::nudge`]).
///
/// After a frame it parks [`COVER_MS`] at most, even with no timer due that soon: a move
/// played within that time (an answer) sets a retransmission deadline no earlier than the
/// reader's own, so the caller need not wake the driver thread to arm it — the answer's
/// frame goes out and no other thread runs. The price is at most one wake-up of the reader
/// when the link stays silent that long after a frame; no polling.
fn read_link<G: MatchGame>(weak: &Weak<Mutex<Core<G>>>, link: &dyn Link, generation: u64)
where
    Session<G>: Send,
{
    let Some(tx) = weak.upgrade().map(|shared| lock(&shared).waker()) else {
        return;
    };
    let mut wait = None;
    // When the last frame came (driver clock).
    let mut last_frame: Option<u64> = None;
    loop {
        let got = link.recv(wait);
        let Some(shared) = weak.upgrade() else { return };
        let mut core = lock(&shared);
        if core.done || !core.current(generation) {
            return;
        }
        core.reader_until = None;
        match got {
            Ok(Some(frame)) => {
                let now = core.now();
                last_frame = Some(now);
                match core.refusal_in(&frame) {
                    Some(refusal) => core.refused(refusal),
                    None => core.session.handle_datagram(&frame, now),
                }
            }
            Ok(None) => {}
            Err(error) => core.transport_lost(&error.to_string()),
        }
        core.fire_due_timers();
        core.pump();
        let current = core.current(generation);
        wait = None;
        if current {
            let now = core.now();
            let cover = last_frame
                .map(|t| t.saturating_add(COVER_MS))
                .filter(|&c| c > now);
            core.reader_until = match (core.session.poll_timeout(), cover) {
                (Some(d), Some(c)) => Some(d.min(c)),
                (d, c) => d.or(c),
            };
            // At least a millisecond: a timer the session did not move must not spin.
            wait = core
                .reader_until
                .map(|d| Duration::from_millis(d.saturating_sub(now).max(1)));
        }
        let needed = core.nudge();
        drop(core);
        wake(&tx, needed);
        if !current {
            return;
        }
    }
}

/// A connect thread still running when the driver thread ended.
pub(super) struct Leftover(Option<(JoinHandle<()>, Option<Interrupt>)>);

impl Leftover {
    /// Ends the connect thread, once the driver's input queue is gone (so its last message
    /// cannot block): an interruptible connector is interrupted and waited for; any other
    /// is left to end by its timeout (it then finds nobody to report to).
    pub(super) fn finish(self) {
        if let Some((thread, Some(interrupt))) = self.0 {
            interrupt.interrupt();
            let _ = thread.join();
        }
    }
}

/// The driver thread: timers, connect attempts and their results, the end. Returns the
/// connect thread still running, for [`Leftover::finish`] after the input queue is dropped.
pub(super) fn run<G: MatchGame>(
    shared: &Shared<G>,
    rx: &Receiver<Input>,
    first: Option<BoxLink>,
) -> Leftover
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
        timer_fired = core.fire_due_timers();
        core.cooled_down();
    }
    let (readers, connecting) = {
        let mut core = lock(shared);
        core.done = true;
        core.drop_link();
        core.close_pending();
        core.emit(DriverEvent::Stopped);
        (std::mem::take(&mut core.readers), core.connecting.take())
    };
    // Every link is closed, so the readers return at once.
    for reader in readers {
        let _ = reader.join();
    }
    Leftover(connecting)
}
