//! The driver: runs a `banco-protocol` [`Session`] over links on a thread it owns.
//!
//! * **Threads.** One driver thread owns the session. A reader thread per link parks in
//!   [`Link::recv`] and forwards frames; a connect thread (at most one at a time) dials or
//!   accepts through the [`Connector`]. The driver thread parks on one bounded channel with a
//!   timeout equal to the session's next timer ([`Session::poll_timeout`]), so an idle match
//!   costs no CPU.
//! * **Reconnects.** When a link fails (I/O error, EOF, or the session's own `LinkDown`
//!   after a silent peer) the driver closes it, tells the session
//!   ([`Session::link_lost`]) and asks the connector for a new one — at once the first time,
//!   then with exponential backoff. On the new link the session runs a new handshake and
//!   `Resume`, and the match goes on where it stopped.
//! * **Events** come out as [`DriverEvent`]s through a channel ([`Driver::spawn`]) or a
//!   callback ([`Driver::spawn_with_callback`]); the callback runs on the driver thread and
//!   must return quickly (a UI hops to its own thread). It must not call the driver's
//!   methods: they would wait for the very thread that runs the callback, so they fail with
//!   [`DriverError::InCallback`] instead.
//! * **Calls** ([`Driver::play`], [`Driver::confirm_peer`], …) run on the driver thread and
//!   return the session's answer.
//!
//! ```
//! use banco_net::driver::{Driver, DriverConfig, DriverEvent, Role, from_fn};
//! use banco_net::{BoxLink, memory::{FaultPlan, MemoryLink}};
//! use banco_protocol::sim::CountingGame;
//! use banco_protocol::{Event, Identity, Session, SessionConfig};
//! use std::time::Duration;
//!
//! let (a, b) = MemoryLink::pair(FaultPlan::none(), 1);
//! // A connector that hands out its one link, then finds nobody.
//! fn once(link: MemoryLink, role: Role) -> impl banco_net::driver::Connector {
//!     let mut link = Some(link);
//!     from_fn(role, move |_| {
//!         let link = link.take().ok_or(banco_net::LinkError::Timeout)?;
//!         Ok(Box::new(link) as BoxLink)
//!     })
//! }
//! let session = |name: &str, k: u8| {
//!     let config = SessionConfig::new(name, CountingGame::default());
//!     Session::new(config, Identity::from_secret([k; 32]), [k; 32])
//! };
//! let config = DriverConfig::default();
//! let (host, host_events) = Driver::spawn(session("An", 1), once(a, Role::Responder), config);
//! let (guest, _events) = Driver::spawn(session("Binh", 2), once(b, Role::Initiator), config);
//! // Both sides show the same six digits.
//! let code = loop {
//!     match host_events.recv_timeout(Duration::from_secs(10)).expect("an event") {
//!         DriverEvent::Session(Event::VerifyPeer { code, .. }) => break code,
//!         _ => {}
//!     }
//! };
//! assert_eq!(Some(code), guest.with_session(|s, _| s.peer().map(|p| p.code))?);
//! # Ok::<(), banco_net::driver::DriverError>(())
//! ```
//!
//! ## Hosting and joining (what `banco host` / `banco join` do)
//!
//! ```no_run
//! use banco_net::discovery::{Advertisement, DiscoveryConfig};
//! use banco_net::driver::{Dialer, Driver, DriverConfig};
//! use banco_net::{Advertise, browse, dialer, host};
//! use banco_game::GameKind;
//! use std::time::Duration;
//! # use banco_protocol::{Session, sim::CountingGame};
//! # fn session() -> Session<CountingGame> { unimplemented!() }
//!
//! // banco host --name Alice: listen, advertise, and let the driver accept (again after cuts).
//! let ad = Advertisement::new("Alice", vec![GameKind::Xiangqi], 1, "a1b2c3");
//! let advertise = Advertise { ad, config: DiscoveryConfig::default() };
//! let h = host("0.0.0.0:7368".parse().unwrap(), Some(advertise))?;
//! let (driver, events) = Driver::spawn(session(), h.acceptor(), DriverConfig::default());
//!
//! // banco join HOST:PORT: the driver dials (again after cuts).
//! let connector = dialer("192.0.2.7:7368")?;
//! let (driver, events) = Driver::spawn(session(), connector, DriverConfig::default());
//!
//! // banco join Alice: find the host by name, then dial its addresses.
//! let browser = browse(&DiscoveryConfig::default())?;
//! let peer = browser.wait_for(Duration::from_secs(10), |p| p.name == "Alice")?;
//! browser.shutdown()?;
//! let connector = Dialer::to_peer(&peer);
//! let (driver, events) = Driver::spawn(session(), connector, DriverConfig::default());
//! # Ok::<(), banco_net::NetError>(())
//! ```

mod connector;

pub use connector::{Acceptor, Connector, Dialer, FnConnector, Role, from_fn};

use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use banco_game::Game;
use banco_protocol::{ActionError, Event, LinkDownReason, MatchSpec, Session};

use crate::error::LinkError;
use crate::link::{BoxLink, Link};

/// Inputs queued for the driver thread at most (frames, calls, connect results); a peer
/// that floods faster than the session digests blocks its own reader thread.
const INPUT_QUEUE: usize = 256;

/// Settings of a driver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DriverConfig {
    /// Time a connect (or accept) attempt may take.
    pub connect_timeout: Duration,
    /// Delay before the second attempt after a failure (the first one is immediate).
    pub backoff_min: Duration,
    /// Longest delay between attempts.
    pub backoff_max: Duration,
    /// Failed attempts in a row after which the driver gives up ([`DriverEvent::GaveUp`]);
    /// `None` tries for ever. Accepts that time out with nobody calling do not count.
    pub max_attempts: Option<u32>,
}

impl Default for DriverConfig {
    fn default() -> Self {
        DriverConfig {
            connect_timeout: Duration::from_secs(5),
            backoff_min: Duration::from_millis(100),
            backoff_max: Duration::from_secs(5),
            max_attempts: None,
        }
    }
}

impl DriverConfig {
    /// The delay before attempt number `failures + 1` after `failures` failures in a row.
    pub fn backoff(&self, failures: u32) -> Duration {
        if failures == 0 {
            return Duration::ZERO;
        }
        let factor = 1u32 << (failures - 1).min(16);
        self.backoff_min
            .saturating_mul(factor)
            .min(self.backoff_max)
    }
}

/// What a driver reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DriverEvent<M> {
    /// An event of the session.
    Session(Event<M>),
    /// A transport link is up (the handshake starts now); `peer` describes it.
    Connected {
        /// The peer's address or name.
        peer: String,
    },
    /// The transport link failed or was dropped; a new one is being made.
    Disconnected {
        /// Why, in words.
        error: String,
    },
    /// An attempt to make a link failed; the next one comes after `delay`.
    Reconnecting {
        /// Failed attempts in a row.
        attempt: u32,
        /// Wait before the next attempt.
        delay: Duration,
        /// Why the attempt failed.
        error: String,
    },
    /// [`DriverConfig::max_attempts`] failed in a row; the driver waits for
    /// [`Driver::reconnect`] or the end.
    GaveUp {
        /// Failed attempts in a row.
        attempts: u32,
    },
    /// The driver thread ended (after the session closed, or on shutdown).
    Stopped,
}

/// Errors of the calls on a [`Driver`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DriverError {
    /// The session refused the action.
    #[error(transparent)]
    Action(#[from] ActionError),
    /// The driver thread has stopped.
    #[error("the match driver has stopped")]
    Stopped,
    /// A driver method was called from the driver's own event callback (it would wait for
    /// itself); hand the event to another thread first.
    #[error("driver method called from its own event callback")]
    InCallback,
}

type Call<G> = Box<dyn FnOnce(&mut Session<G>, u64) + Send>;
type Sink<M> = Box<dyn FnMut(DriverEvent<M>) + Send>;

enum Input<G: Game> {
    Frame {
        generation: u64,
        frame: Vec<u8>,
    },
    LinkFailed {
        generation: u64,
        error: LinkError,
    },
    Connected {
        result: Result<BoxLink, LinkError>,
        connector: Box<dyn Connector>,
    },
    Call(Call<G>),
    Disconnect,
    Reconnect,
    Shutdown,
}

/// A running match driver. See the [module docs](self). Dropping it stops the thread
/// (without a goodbye to the peer; call [`Driver::close`] first for that).
pub struct Driver<G: Game> {
    tx: SyncSender<Input<G>>,
    thread: Option<JoinHandle<Session<G>>>,
    thread_id: Option<thread::ThreadId>,
}

impl<G: Game> std::fmt::Debug for Driver<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Driver")
            .field("running", &self.thread.is_some())
            .finish()
    }
}

impl<G: Game> Driver<G>
where
    Session<G>: Send,
{
    /// Starts a driver that makes its first link with `connector`; events come out of the
    /// returned channel.
    pub fn spawn(
        session: Session<G>,
        connector: impl Connector,
        config: DriverConfig,
    ) -> (Driver<G>, Receiver<DriverEvent<G::Move>>) {
        let (tx, rx) = mpsc::channel();
        let driver = Driver::start(
            session,
            Box::new(connector),
            None,
            config,
            Box::new(move |e| {
                let _ = tx.send(e);
            }),
        );
        (driver, rx)
    }

    /// Starts a driver whose events go to `callback` (called on the driver thread).
    pub fn spawn_with_callback(
        session: Session<G>,
        connector: impl Connector,
        config: DriverConfig,
        callback: impl FnMut(DriverEvent<G::Move>) + Send + 'static,
    ) -> Driver<G> {
        Driver::start(
            session,
            Box::new(connector),
            None,
            config,
            Box::new(callback),
        )
    }

    /// Starts a driver on an already connected first link (for example the guest the host
    /// just accepted); `connector` makes the later ones.
    pub fn spawn_on_link(
        session: Session<G>,
        first: BoxLink,
        connector: impl Connector,
        config: DriverConfig,
        callback: impl FnMut(DriverEvent<G::Move>) + Send + 'static,
    ) -> Driver<G> {
        Driver::start(
            session,
            Box::new(connector),
            Some(first),
            config,
            Box::new(callback),
        )
    }

    fn start(
        session: Session<G>,
        connector: Box<dyn Connector>,
        first: Option<BoxLink>,
        config: DriverConfig,
        sink: Sink<G::Move>,
    ) -> Driver<G> {
        let (tx, rx) = mpsc::sync_channel(INPUT_QUEUE);
        let runner = Runner {
            role: connector.role(),
            session,
            rx,
            tx: tx.clone(),
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
        };
        let thread = thread::Builder::new()
            .name("banco-driver".into())
            .spawn(move || runner.run(first))
            .ok();
        let thread_id = thread.as_ref().map(|t| t.thread().id());
        Driver {
            tx,
            thread,
            thread_id,
        }
    }

    /// Runs `f` on the driver thread with the session and the driver's clock (`now` in
    /// milliseconds) and returns its result. Frames and events the call produces go out
    /// right after.
    pub fn with_session<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Session<G>, u64) -> R + Send + 'static,
    ) -> Result<R, DriverError> {
        if self.on_driver_thread() {
            return Err(DriverError::InCallback);
        }
        let (reply, answer) = mpsc::sync_channel(1);
        let call: Call<G> = Box::new(move |s, now| {
            let _ = reply.send(f(s, now));
        });
        self.tx
            .send(Input::Call(call))
            .map_err(|_| DriverError::Stopped)?;
        answer.recv().map_err(|_| DriverError::Stopped)
    }

    fn act(
        &self,
        f: impl FnOnce(&mut Session<G>, u64) -> Result<(), ActionError> + Send + 'static,
    ) -> Result<(), DriverError> {
        Ok(self.with_session(f)??)
    }

    /// Plays a local move ([`Session::play`]).
    pub fn play(&self, mv: G::Move) -> Result<(), DriverError> {
        self.act(move |s, now| s.play(mv, now))
    }

    /// The player confirmed the code ([`Session::confirm_peer`]).
    pub fn confirm_peer(&self, remember: bool) -> Result<(), DriverError> {
        self.act(move |s, _| s.confirm_peer(remember))
    }

    /// The player saw different codes ([`Session::reject_peer`]).
    pub fn reject_peer(&self) -> Result<(), DriverError> {
        self.with_session(|s, _| s.reject_peer())
    }

    /// Proposes a game ([`Session::propose`]).
    pub fn propose(&self, spec: MatchSpec) -> Result<(), DriverError> {
        self.act(move |s, now| s.propose(spec, now))
    }

    /// Accepts the peer's proposal.
    pub fn accept_proposal(&self) -> Result<(), DriverError> {
        self.act(|s, now| s.accept_proposal(now))
    }

    /// Declines the peer's proposal.
    pub fn decline_proposal(&self) -> Result<(), DriverError> {
        self.act(|s, now| s.decline_proposal(now))
    }

    /// Asks to take back our last move.
    pub fn request_undo(&self) -> Result<(), DriverError> {
        self.act(|s, now| s.request_undo(now))
    }

    /// Answers an undo request.
    pub fn reply_undo(&self, accept: bool) -> Result<(), DriverError> {
        self.act(move |s, now| s.reply_undo(accept, now))
    }

    /// Offers a draw.
    pub fn offer_draw(&self) -> Result<(), DriverError> {
        self.act(|s, now| s.offer_draw(now))
    }

    /// Answers a draw offer.
    pub fn reply_draw(&self, accept: bool) -> Result<(), DriverError> {
        self.act(move |s, now| s.reply_draw(accept, now))
    }

    /// Resigns.
    pub fn resign(&self) -> Result<(), DriverError> {
        self.act(|s, now| s.resign(now))
    }

    /// Drops the current link as if it had failed; the driver reconnects (a "reconnect"
    /// button, and fault injection in tests).
    pub fn disconnect(&self) -> Result<(), DriverError> {
        self.post(Input::Disconnect)
    }

    /// Tries again after [`DriverEvent::GaveUp`] (counting failures from zero).
    pub fn reconnect(&self) -> Result<(), DriverError> {
        self.post(Input::Reconnect)
    }

    /// Queues an input without waiting for its effect. From the driver's own thread it must
    /// not block on a full queue (that thread is the one that drains it).
    fn post(&self, input: Input<G>) -> Result<(), DriverError> {
        if self.on_driver_thread() {
            return self.tx.try_send(input).map_err(|e| match e {
                mpsc::TrySendError::Full(_) => DriverError::InCallback,
                mpsc::TrySendError::Disconnected(_) => DriverError::Stopped,
            });
        }
        self.tx.send(input).map_err(|_| DriverError::Stopped)
    }

    /// Ends the session with a goodbye to the peer; the driver thread stops after sending it
    /// ([`DriverEvent::Stopped`]).
    pub fn close(&self) -> Result<(), DriverError> {
        self.with_session(|s, now| s.close(now))
    }

    /// Stops the driver thread (after [`Driver::close`] it has usually stopped already) and
    /// returns the session.
    pub fn shutdown(mut self) -> Option<Session<G>> {
        self.stop()
    }
}

impl<G: Game> Driver<G> {
    fn on_driver_thread(&self) -> bool {
        self.thread_id == Some(thread::current().id())
    }

    fn stop(&mut self) -> Option<Session<G>> {
        if self.on_driver_thread() {
            // Dropped inside its own callback: ask the thread to end, do not wait for it.
            let _ = self.tx.try_send(Input::Shutdown);
            return None;
        }
        let thread = self.thread.take()?;
        let _ = self.tx.send(Input::Shutdown);
        thread.join().ok()
    }
}

impl<G: Game> Drop for Driver<G> {
    fn drop(&mut self) {
        let _ = self.stop();
    }
}

/// The state of the driver thread.
struct Runner<G: Game> {
    session: Session<G>,
    role: Role,
    rx: Receiver<Input<G>>,
    tx: SyncSender<Input<G>>,
    sink: Sink<G::Move>,
    epoch: Instant,
    /// The current link and its generation (frames of older links are ignored).
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
    done: bool,
}

impl<G: Game> Runner<G> {
    fn now(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn run(mut self, first: Option<BoxLink>) -> Session<G> {
        match first {
            Some(link) => self.install(link),
            None => self.next_connect = Some(0),
        }
        let mut timer_fired = false;
        while !self.done {
            self.pump();
            if self.done {
                break;
            }
            let now = self.now();
            self.maybe_connect(now);
            let connect_at = self.next_connect.filter(|_| self.connector.is_some());
            let deadline = [self.session.poll_timeout(), connect_at]
                .into_iter()
                .flatten()
                .min();
            let input = match deadline {
                None => self.rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
                Some(d) => {
                    let mut wait = d.saturating_sub(now);
                    if wait == 0 && timer_fired {
                        // The session did not move its timer: do not spin.
                        wait = 1;
                    }
                    if wait == 0 {
                        Err(RecvTimeoutError::Timeout)
                    } else {
                        self.rx.recv_timeout(Duration::from_millis(wait))
                    }
                }
            };
            match input {
                Ok(input) => self.handle(input),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            let now = self.now();
            timer_fired = false;
            if self.session.poll_timeout().is_some_and(|t| t <= now) {
                self.session.handle_timeout(now);
                timer_fired = true;
            }
        }
        self.drop_link();
        (self.sink)(DriverEvent::Stopped);
        self.session
    }

    fn handle(&mut self, input: Input<G>) {
        match input {
            Input::Frame { generation, frame } => {
                if self.current(generation) {
                    let now = self.now();
                    self.session.handle_datagram(&frame, now);
                }
            }
            Input::LinkFailed { generation, error } => {
                if self.current(generation) {
                    self.transport_lost(&error.to_string());
                }
            }
            Input::Connected { result, connector } => {
                self.connector = Some(connector);
                self.connected(result);
            }
            Input::Call(call) => {
                let now = self.now();
                call(&mut self.session, now);
            }
            Input::Disconnect => {
                if self.link.is_some() {
                    self.transport_lost("disconnected on request");
                }
            }
            Input::Reconnect => {
                self.failures = 0;
                self.gave_up = false;
                if self.link.is_none() {
                    self.schedule_connect();
                }
            }
            Input::Shutdown => self.done = true,
        }
    }

    fn current(&self, generation: u64) -> bool {
        self.link.as_ref().is_some_and(|(g, _)| *g == generation)
    }

    /// Sends what the session wants sent and reports its events, until it is quiet.
    fn pump(&mut self) {
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
                (self.sink)(DriverEvent::Session(event));
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
            (self.sink)(DriverEvent::Disconnected {
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
            (self.sink)(DriverEvent::GaveUp {
                attempts: self.failures,
            });
        }
    }

    /// The transport failed: close it, tell the session, plan a new link.
    fn transport_lost(&mut self, error: &str) {
        if !self.drop_link() {
            return;
        }
        (self.sink)(DriverEvent::Disconnected {
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
        let now = self.now();
        self.next_connect =
            Some(now.saturating_add(u64::try_from(delay.as_millis()).unwrap_or(u64::MAX)));
    }

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
            // Could not start a thread (resource limits): try again later.
            self.failures = self.failures.saturating_add(1);
            self.schedule_connect();
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
                (self.sink)(DriverEvent::Reconnecting {
                    attempt: self.failures,
                    delay,
                    error: e.to_string(),
                });
                self.schedule_connect();
            }
        }
    }

    /// Starts using `link`: a reader thread, then the session's handshake.
    fn install(&mut self, link: BoxLink) {
        let link: Arc<dyn Link> = Arc::from(link);
        self.generation += 1;
        let generation = self.generation;
        let reader = {
            let link = Arc::clone(&link);
            let tx = self.tx.clone();
            thread::Builder::new()
                .name("banco-link-reader".into())
                .spawn(move || {
                    loop {
                        match link.recv(None) {
                            Ok(Some(frame)) => {
                                if tx.send(Input::Frame { generation, frame }).is_err() {
                                    return;
                                }
                            }
                            Ok(None) => {}
                            Err(error) => {
                                let _ = tx.send(Input::LinkFailed { generation, error });
                                return;
                            }
                        }
                    }
                })
        };
        if reader.is_err() {
            link.close();
            self.failures = self.failures.saturating_add(1);
            self.schedule_connect();
            return;
        }
        (self.sink)(DriverEvent::Connected { peer: link.peer() });
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let c = DriverConfig::default();
        assert_eq!(c.backoff(0), Duration::ZERO);
        assert_eq!(c.backoff(1), Duration::from_millis(100));
        assert_eq!(c.backoff(2), Duration::from_millis(200));
        assert_eq!(c.backoff(4), Duration::from_millis(800));
        assert_eq!(c.backoff(10), Duration::from_secs(5));
        assert_eq!(c.backoff(u32::MAX), Duration::from_secs(5));
    }
}
