//! Bluetooth stacks that live outside Rust — Android's `BluetoothGattServer` and
//! `BluetoothGatt`, iOS's `CBPeripheralManager` and `CBCentralManager`, reached through the
//! FFI's foreign traits — drive a **hub** with their callbacks, and the hub hands out one
//! [`BleLink`] per connection, so the fragment layer, the session, pairing and resume are the
//! same Rust code as on Linux. The platform only moves ATT values:
//!
//! * [`PeripheralHub`] (the host): the platform reports each central that **subscribes** to
//!   the notify characteristic, the values it **writes**, its MTU, when it goes, and the
//!   adapter's state; the hub sends notifications through a [`PeripheralRadio`]. Every
//!   subscribed central gets **its own link** (like a TCP connection): a stranger that
//!   subscribes while a guest plays gets a link of its own, which the driver vets like any
//!   other (a handshake with a stranger costs one link, never the match), and it never takes
//!   over the guest's link. Writes from a central that has not subscribed are dropped.
//!   Links nobody took yet (the driver is busy or paused) are bounded: at most
//!   [`PENDING_LINKS`] wait, the oldest is dropped (and its central disconnected) for a
//!   newcomer, a central that leaves takes its waiting link with it, and each link's inbox
//!   holds a few kilobytes: centrals in range cannot grow the host's memory.
//! * [`CentralHub`] (the guest): the hub asks a [`CentralRadio`] to connect to a device
//!   (connect, exchange the MTU, discover the service, subscribe — all on the platform side)
//!   and waits for the platform to report it connected; notifications come in through the
//!   hub, fragments go out as writes paced by [`WritePacer`].
//!
//! **Busy stacks.** Android allows one outstanding GATT operation per connection and iOS
//! refuses `updateValue` when its queue is full. A radio answers [`Sent::Busy`] instead of
//! blocking; the hub waits for the platform's *ready* callback
//! ([`PeripheralHub::ready`], [`CentralHub::write_ready`]) and tries again (looking again
//! every [`RETRY`] in case a ready signal was missed), and gives the link up as lost after
//! [`SEND_TIMEOUT`].
//!
//! **Adapter state.** When the adapter goes off (or permission is withdrawn), every link
//! reports a reset, so the driver starts resuming; a guest's reconnection attempts fail with
//! [`AdapterState::message`] while it stays off, and succeed once it is back — the session
//! resumes the match where it was.
//!
//! ```
//! use banco_net::ble::hub::{PeripheralHub, PeripheralRadio, Sent};
//! use banco_net::{Link, LinkError};
//! use std::sync::{Arc, Mutex};
//! use std::time::Duration;
//!
//! /// A radio that records the notifications it is asked to send.
//! #[derive(Default)]
//! struct Recorder(Mutex<Vec<(String, Vec<u8>)>>);
//! impl PeripheralRadio for Recorder {
//!     fn notify(&self, central: &str, value: &[u8]) -> Result<Sent, LinkError> {
//!         self.0.lock().unwrap().push((central.to_owned(), value.to_vec()));
//!         Ok(Sent::Queued)
//!     }
//!     fn disconnect(&self, _central: &str) {}
//! }
//!
//! let radio = Arc::new(Recorder::default());
//! let hub = PeripheralHub::new(radio.clone());
//! hub.subscribed("phone-1", 23);
//! let link = hub.accept(Some(Duration::from_secs(1)))?.expect("a link per subscription");
//! // A one-fragment frame written by the central (header: start + end, sequence 0).
//! assert!(hub.written("phone-1", vec![0xc0, b'h', b'i']));
//! assert_eq!(link.recv(Some(Duration::from_secs(1)))?, Some(b"hi".to_vec()));
//! link.send(b"yo")?;
//! link.flush(Duration::from_secs(1))?; // sends are written by the link's own thread
//! assert_eq!(radio.0.lock().unwrap()[0], ("phone-1".to_owned(), vec![0xc0, b'y', b'o']));
//! # Ok::<(), LinkError>(())
//! ```

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU16, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::gatt::{DEFAULT_ATT_MTU, WriteMode, WritePacer, att_payload};
use super::inbox::{Down, Inbox, InboxTx};
use super::redial::Redial;
use super::{AttPipe, BleLink};
use crate::driver::{Connector, Role};
use crate::error::LinkError;
use crate::link::BoxLink;

/// How long one notification or write may stay refused as busy before the link counts as
/// lost.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(5);
/// How often a busy send is tried again without a ready signal.
pub const RETRY: Duration = Duration::from_millis(100);
/// Links of a [`PeripheralHub`] waiting for [`PeripheralHub::accept`] at most; a newer
/// subscription drops the oldest (the driver's handshake slots are 4 as well).
pub const PENDING_LINKS: usize = 4;

/// The state of the Bluetooth adapter as the platform reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AdapterState {
    /// On and allowed: Bluetooth can be used.
    On,
    /// Switched off by the user (or airplane mode).
    Off,
    /// Starting, stopping or resetting (iOS `resetting`, Android `TURNING_ON/OFF`).
    Resetting,
    /// The user has not allowed Banco to use Bluetooth (Android 12+ nearby-devices
    /// permission, iOS Bluetooth permission).
    Unauthorized,
    /// This device has no Bluetooth LE, or not the role needed (no advertising support).
    Unsupported,
}

impl AdapterState {
    /// What to tell the player, or `None` when Bluetooth is usable. The same words on every
    /// platform.
    ///
    /// ```
    /// use banco_net::ble::hub::AdapterState;
    /// assert_eq!(AdapterState::On.message(), None);
    /// assert!(AdapterState::Off.message().unwrap().contains("turn it on"));
    /// ```
    pub fn message(self) -> Option<&'static str> {
        match self {
            AdapterState::On => None,
            AdapterState::Off => {
                Some("Bluetooth is off: turn it on to play; the game resumes when it is back")
            }
            AdapterState::Resetting => Some("Bluetooth is restarting: the game resumes shortly"),
            AdapterState::Unauthorized => Some(
                "Banco may not use Bluetooth: allow Nearby devices (Android) or Bluetooth (iOS) \
                 for Banco in the system settings",
            ),
            AdapterState::Unsupported => Some("this device cannot play over Bluetooth LE"),
        }
    }

    fn error(self) -> LinkError {
        LinkError::Io(std::io::Error::other(
            self.message().unwrap_or("Bluetooth is on"),
        ))
    }
}

/// What a platform answers when asked to send one ATT value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sent {
    /// The stack took the value.
    Queued,
    /// The stack cannot take it now (an operation is in flight, its queue is full): the hub
    /// waits for the platform's ready callback and asks again.
    Busy,
}

/// The host's radio, as the platform provides it (the FFI's `BlePeripheral`).
pub trait PeripheralRadio: Send + Sync + 'static {
    /// Sends one notification of the notify characteristic to `central`. Must not block
    /// for long: answer [`Sent::Busy`] when the stack cannot take it now.
    fn notify(&self, central: &str, value: &[u8]) -> Result<Sent, LinkError>;

    /// Drops the connection of `central` (where the platform allows it).
    fn disconnect(&self, central: &str);
}

/// The guest's radio, as the platform provides it (the FFI's `BleCentral`).
pub trait CentralRadio: Send + Sync + 'static {
    /// Starts connecting to `device`: connect, exchange the MTU, discover the Banco service,
    /// subscribe to the notify characteristic; then report [`CentralHub::connected`] (or
    /// [`CentralHub::connect_failed`]). Must not block for long.
    fn connect(&self, device: &str) -> Result<(), LinkError>;

    /// Writes one value to the write characteristic of `device`, in `mode`. Must not block
    /// for long: answer [`Sent::Busy`] when the stack cannot take it now.
    fn write(&self, device: &str, value: &[u8], mode: WriteMode) -> Result<Sent, LinkError>;

    /// Disconnects from `device`.
    fn disconnect(&self, device: &str);
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// "The stack can take more" signals, counted so a waiter never misses one.
#[derive(Debug, Default)]
struct Ready {
    generation: Mutex<u64>,
    cv: Condvar,
}

impl Ready {
    fn signal(&self) {
        *lock(&self.generation) += 1;
        self.cv.notify_all();
    }

    fn generation(&self) -> u64 {
        *lock(&self.generation)
    }

    /// Waits until a signal after `seen`, for at most `timeout`.
    fn wait_past(&self, seen: u64, timeout: Duration) {
        let guard = lock(&self.generation);
        let _ = self
            .cv
            .wait_timeout_while(guard, timeout, |g| *g == seen)
            .unwrap_or_else(PoisonError::into_inner);
    }
}

/// Sends with `attempt` until the stack takes the value, waiting for ready signals while it
/// is busy; `alive` says whether the connection still exists.
fn send_paced(
    ready: &Ready,
    alive: impl Fn() -> bool,
    mut attempt: impl FnMut() -> Result<Sent, LinkError>,
) -> Result<(), LinkError> {
    let deadline = Instant::now() + SEND_TIMEOUT;
    loop {
        let seen = ready.generation();
        if attempt()? == Sent::Queued {
            return Ok(());
        }
        let now = Instant::now();
        if !alive() || now >= deadline {
            return Err(LinkError::Reset);
        }
        ready.wait_past(seen, RETRY.min(deadline - now));
    }
}

/// One connection's state in a hub.
struct Conn {
    serial: u64,
    feed: InboxTx,
    mtu: Arc<AtomicU16>,
}

/// What a [`PeripheralHub`] shares with its pipes.
struct PeripheralShared {
    radio: Arc<dyn PeripheralRadio>,
    ready: Ready,
    state: Mutex<PeripheralState>,
    /// Signalled when a link is queued.
    queued: Condvar,
}

struct PeripheralState {
    centrals: HashMap<String, Conn>,
    adapter: AdapterState,
    serial: u64,
    /// Links not accepted yet, oldest first (at most [`PENDING_LINKS`]).
    links: VecDeque<HubPeripheralPipe>,
    stray_writes: u64,
}

/// The host's side, driven by the platform's GATT server callbacks. See the
/// [module docs](self).
pub struct PeripheralHub {
    shared: Arc<PeripheralShared>,
}

impl std::fmt::Debug for PeripheralHub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = lock(&self.shared.state);
        f.debug_struct("PeripheralHub")
            .field("centrals", &s.centrals.len())
            .field("adapter", &s.adapter)
            .finish_non_exhaustive()
    }
}

impl PeripheralHub {
    /// A hub sending through `radio`; the adapter counts as on until told otherwise.
    pub fn new(radio: Arc<dyn PeripheralRadio>) -> Arc<PeripheralHub> {
        Arc::new(PeripheralHub {
            shared: Arc::new(PeripheralShared {
                radio,
                ready: Ready::default(),
                state: Mutex::new(PeripheralState {
                    centrals: HashMap::new(),
                    adapter: AdapterState::On,
                    serial: 0,
                    links: VecDeque::new(),
                    stray_writes: 0,
                }),
                queued: Condvar::new(),
            }),
        })
    }

    /// `central` subscribed to the notify characteristic (its MTU so far, 23 if unknown): a
    /// new link for [`PeripheralHub::accept`]. A central that subscribes again (it
    /// reconnected) replaces its own previous link, which reports a reset (or, not taken
    /// yet, is dropped); other centrals' links are untouched, except that with
    /// [`PENDING_LINKS`] links waiting the oldest is dropped and its central disconnected.
    pub fn subscribed(&self, central: &str, mtu: u16) {
        let inbox = Inbox::new();
        let mtu = Arc::new(AtomicU16::new(mtu));
        let mut s = lock(&self.shared.state);
        s.serial += 1;
        let serial = s.serial;
        let conn = Conn {
            serial,
            feed: inbox.sender(),
            mtu: Arc::clone(&mtu),
        };
        if let Some(old) = s.centrals.insert(central.to_owned(), conn) {
            old.feed.down(Down::Reset);
        }
        let pipe = HubPipe {
            side: Arc::clone(&self.shared) as Arc<dyn Side>,
            key: central.to_owned(),
            serial,
            inbox,
            mtu,
            pacer: None,
            closed: AtomicBool::new(false),
        };
        // This central's own link not taken yet is replaced, not kept beside the new one.
        s.links.retain(|p| p.key != central);
        let oldest = (s.links.len() >= PENDING_LINKS)
            .then(|| s.links.pop_front())
            .flatten();
        s.links.push_back(pipe);
        drop(s);
        self.shared.queued.notify_one();
        if let Some(old) = oldest {
            // Forgets its central and disconnects it (outside the lock: `close` takes it).
            old.close();
        }
    }

    /// `central` wrote `value` to the write characteristic. False (and the value dropped)
    /// when it has not subscribed: only subscribed centrals have a link.
    pub fn written(&self, central: &str, value: Vec<u8>) -> bool {
        let mut s = lock(&self.shared.state);
        if let Some(c) = s.centrals.get(central) {
            return c.feed.chunk(value);
        }
        s.stray_writes += 1;
        false
    }

    /// The ATT MTU of `central` changed (Android's `onMtuChanged`; iOS's
    /// `maximumUpdateValueLength + 3`).
    pub fn mtu_changed(&self, central: &str, mtu: u16) {
        if let Some(c) = lock(&self.shared.state).centrals.get(central) {
            c.mtu.store(mtu, Ordering::Relaxed);
        }
    }

    /// `central` unsubscribed or disconnected: its link reports a reset, or, not taken
    /// yet, is dropped with what the central wrote.
    pub fn unsubscribed(&self, central: &str) {
        let mut s = lock(&self.shared.state);
        if let Some(c) = s.centrals.remove(central) {
            c.feed.down(Down::Reset);
        }
        s.links.retain(|p| p.key != central);
    }

    /// The stack can take notifications again (Android `onNotificationSent`, iOS
    /// `peripheralManagerIsReady(toUpdateSubscribers:)`).
    pub fn ready(&self) {
        self.shared.ready.signal();
    }

    /// The adapter's state changed; returns the previous one. Anything but
    /// [`AdapterState::On`] drops every connection (their links report a reset).
    pub fn adapter_changed(&self, state: AdapterState) -> AdapterState {
        let mut s = lock(&self.shared.state);
        let before = std::mem::replace(&mut s.adapter, state);
        if state != AdapterState::On {
            for (_, c) in s.centrals.drain() {
                c.feed.down(Down::Reset);
            }
        }
        before
    }

    /// The adapter's state as last reported.
    pub fn adapter(&self) -> AdapterState {
        lock(&self.shared.state).adapter
    }

    /// Centrals subscribed now.
    pub fn centrals(&self) -> usize {
        lock(&self.shared.state).centrals.len()
    }

    /// Links waiting for [`PeripheralHub::accept`] (at most [`PENDING_LINKS`]).
    pub fn waiting(&self) -> usize {
        lock(&self.shared.state).links.len()
    }

    /// Writes dropped because their central had not subscribed.
    pub fn stray_writes(&self) -> u64 {
        lock(&self.shared.state).stray_writes
    }

    /// The next central's link, in the order they subscribed; `Ok(None)` when `timeout`
    /// passes first.
    pub fn accept(
        &self,
        timeout: Option<Duration>,
    ) -> Result<Option<BleLink<HubPeripheralPipe>>, LinkError> {
        let deadline = timeout.and_then(|t| Instant::now().checked_add(t));
        let mut s = lock(&self.shared.state);
        loop {
            if let Some(pipe) = s.links.pop_front() {
                return Ok(Some(BleLink::new(pipe)));
            }
            s = match deadline {
                None => self
                    .shared
                    .queued
                    .wait(s)
                    .unwrap_or_else(PoisonError::into_inner),
                Some(d) => {
                    let left = d.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Ok(None);
                    }
                    self.shared
                        .queued
                        .wait_timeout(s, left)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0
                }
            };
        }
    }

    /// A connector for a [`Driver`](crate::driver::Driver): every link is the next central
    /// that subscribes.
    pub fn acceptor(self: &Arc<Self>) -> HubAcceptor {
        HubAcceptor {
            hub: Arc::clone(self),
        }
    }
}

/// One side of a hub, as its pipes see it: which connections are current, how one value
/// is sent, how a connection is let go. Keyed by the platform's id of the other device.
trait Side: Send + Sync + 'static {
    /// The stack's "can take more" signals.
    fn ready(&self) -> &Ready;
    /// Whether `key`'s connection is still the one of `serial`.
    fn is_current(&self, key: &str, serial: u64) -> bool;
    /// Sends one value to `key` (a notification, or a write in `mode`).
    fn send(&self, key: &str, value: &[u8], mode: WriteMode) -> Result<Sent, LinkError>;
    /// Forgets `key`'s connection if it is still the one of `serial`; true when it was.
    fn forget(&self, key: &str, serial: u64) -> bool;
    /// Drops the platform's connection with `key`.
    fn disconnect(&self, key: &str);
}

/// Removes `key` from `conns` when it is still the connection of `serial`.
fn forget_in(conns: &mut HashMap<String, Conn>, key: &str, serial: u64) -> bool {
    let current = conns.get(key).is_some_and(|c| c.serial == serial);
    if current {
        conns.remove(key);
    }
    current
}

impl Side for PeripheralShared {
    fn ready(&self) -> &Ready {
        &self.ready
    }
    fn is_current(&self, key: &str, serial: u64) -> bool {
        lock(&self.state)
            .centrals
            .get(key)
            .is_some_and(|c| c.serial == serial)
    }
    fn send(&self, key: &str, value: &[u8], _mode: WriteMode) -> Result<Sent, LinkError> {
        self.radio.notify(key, value)
    }
    fn forget(&self, key: &str, serial: u64) -> bool {
        forget_in(&mut lock(&self.state).centrals, key, serial)
    }
    fn disconnect(&self, key: &str) {
        self.radio.disconnect(key);
    }
}

impl Side for CentralShared {
    fn ready(&self) -> &Ready {
        &self.ready
    }
    fn is_current(&self, key: &str, serial: u64) -> bool {
        lock(&self.state)
            .devices
            .get(key)
            .is_some_and(|c| c.serial == serial)
    }
    fn send(&self, key: &str, value: &[u8], mode: WriteMode) -> Result<Sent, LinkError> {
        self.radio.write(key, value, mode)
    }
    fn forget(&self, key: &str, serial: u64) -> bool {
        forget_in(&mut lock(&self.state).devices, key, serial)
    }
    fn disconnect(&self, key: &str) {
        self.radio.disconnect(key);
    }
}

/// The [`AttPipe`] of one connection of a hub: a subscribed central of a
/// [`PeripheralHub`] ([`HubPeripheralPipe`]: notifications out) or a [`CentralHub`]'s
/// connection to one host ([`HubCentralPipe`]: writes out, paced by [`WritePacer`]).
pub struct HubPipe {
    side: Arc<dyn Side>,
    /// The platform's id of the other device.
    key: String,
    serial: u64,
    inbox: Inbox,
    mtu: Arc<AtomicU16>,
    /// Write modes, on a central's connection.
    pacer: Option<Mutex<WritePacer>>,
    closed: AtomicBool,
}

/// A [`PeripheralHub`]'s pipe to one subscribed central.
pub type HubPeripheralPipe = HubPipe;
/// A [`CentralHub`]'s pipe to one host.
pub type HubCentralPipe = HubPipe;

impl std::fmt::Debug for HubPipe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HubPipe")
            .field("peer", &self.key)
            .finish_non_exhaustive()
    }
}

impl AttPipe for HubPipe {
    fn mtu_payload(&self) -> usize {
        att_payload(self.mtu.load(Ordering::Relaxed))
    }

    fn write(&self, chunk: &[u8]) -> Result<(), LinkError> {
        if self.closed.load(Ordering::Acquire) {
            return Err(LinkError::Closed);
        }
        let side = &*self.side;
        let alive = || side.is_current(&self.key, self.serial);
        if !alive() {
            return Err(LinkError::Reset);
        }
        let mode = match &self.pacer {
            Some(p) => lock(p).next_mode(),
            None => WriteMode::WithoutResponse,
        };
        send_paced(side.ready(), alive, || side.send(&self.key, chunk, mode))
    }

    fn read(&self, timeout: Option<Duration>) -> Result<Option<Vec<u8>>, LinkError> {
        self.inbox.read(timeout)
    }

    fn idle(&self) {
        if let Some(p) = &self.pacer {
            lock(p).idle();
        }
    }

    fn close(&self) {
        if self.closed.swap(true, Ordering::AcqRel) {
            return;
        }
        self.inbox.down(Down::Closed);
        if self.side.forget(&self.key, self.serial) {
            self.side.disconnect(&self.key);
        }
    }

    fn peer(&self) -> String {
        format!("ble {}", self.key)
    }

    fn peer_device(&self) -> Option<String> {
        Some(self.key.clone())
    }
}

/// A [`Connector`] taking every link from a [`PeripheralHub`].
#[derive(Debug)]
pub struct HubAcceptor {
    hub: Arc<PeripheralHub>,
}

impl HubAcceptor {
    /// The hub.
    pub fn hub(&self) -> &Arc<PeripheralHub> {
        &self.hub
    }
}

impl Connector for HubAcceptor {
    fn role(&self) -> Role {
        Role::Responder
    }

    fn connect(&mut self, timeout: Duration) -> Result<BoxLink, LinkError> {
        match self.hub.accept(Some(timeout))? {
            Some(link) => Ok(Box::new(link)),
            None => Err(LinkError::Timeout),
        }
    }
}

/// What a [`CentralHub`] shares with its pipes.
struct CentralShared {
    radio: Arc<dyn CentralRadio>,
    ready: Ready,
    state: Mutex<CentralState>,
}

/// A connection being made: the caller waits on `done`.
struct Pending {
    conn: Conn,
    done: Sender<Result<(), String>>,
}

struct CentralState {
    devices: HashMap<String, Conn>,
    pending: HashMap<String, Pending>,
    adapter: AdapterState,
    serial: u64,
}

/// The guest's side, driven by the platform's GATT client callbacks. See the
/// [module docs](self).
pub struct CentralHub {
    shared: Arc<CentralShared>,
}

impl std::fmt::Debug for CentralHub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = lock(&self.shared.state);
        f.debug_struct("CentralHub")
            .field("devices", &s.devices.len())
            .field("adapter", &s.adapter)
            .finish_non_exhaustive()
    }
}

impl CentralHub {
    /// A hub connecting through `radio`; the adapter counts as on until told otherwise.
    pub fn new(radio: Arc<dyn CentralRadio>) -> Arc<CentralHub> {
        Arc::new(CentralHub {
            shared: Arc::new(CentralShared {
                radio,
                ready: Ready::default(),
                state: Mutex::new(CentralState {
                    devices: HashMap::new(),
                    pending: HashMap::new(),
                    adapter: AdapterState::On,
                    serial: 0,
                }),
            }),
        })
    }

    /// Connects to `device` through the radio and waits (at most `timeout`) for the
    /// platform to report it connected and subscribed.
    pub fn connect(
        &self,
        device: &str,
        timeout: Duration,
    ) -> Result<BleLink<HubCentralPipe>, LinkError> {
        let inbox = Inbox::new();
        let mtu = Arc::new(AtomicU16::new(DEFAULT_ATT_MTU));
        let (done, wait) = mpsc::channel();
        let serial = {
            let mut s = lock(&self.shared.state);
            if s.adapter != AdapterState::On {
                return Err(s.adapter.error());
            }
            s.serial += 1;
            let serial = s.serial;
            let conn = Conn {
                serial,
                feed: inbox.sender(),
                mtu: Arc::clone(&mtu),
            };
            if let Some(old) = s.pending.insert(device.to_owned(), Pending { conn, done }) {
                let _ = old
                    .done
                    .send(Err(String::from("a newer connection attempt")));
            }
            serial
        };
        let forget = || {
            let mut s = lock(&self.shared.state);
            if s.pending
                .get(device)
                .is_some_and(|p| p.conn.serial == serial)
            {
                s.pending.remove(device);
            }
        };
        if let Err(e) = self.shared.radio.connect(device) {
            forget();
            return Err(e);
        }
        match wait.recv_timeout(timeout) {
            Ok(Ok(())) => {}
            Ok(Err(reason)) => {
                return Err(LinkError::Io(std::io::Error::other(format!(
                    "cannot connect over Bluetooth: {reason}"
                ))));
            }
            Err(_) => {
                forget();
                self.shared.radio.disconnect(device);
                return Err(LinkError::Timeout);
            }
        }
        let without_response = true;
        Ok(BleLink::new(HubPipe {
            side: Arc::clone(&self.shared) as Arc<dyn Side>,
            key: device.to_owned(),
            serial,
            inbox,
            mtu,
            pacer: Some(Mutex::new(WritePacer::new(without_response))),
            closed: AtomicBool::new(false),
        }))
    }

    /// `device` is connected and subscribed, with ATT MTU `mtu`: the waiting
    /// [`CentralHub::connect`] returns its link. Ignored when nobody asked to connect.
    pub fn connected(&self, device: &str, mtu: u16) {
        let mut s = lock(&self.shared.state);
        let Some(p) = s.pending.remove(device) else {
            return;
        };
        p.conn.mtu.store(mtu, Ordering::Relaxed);
        let done = p.done;
        if let Some(old) = s.devices.insert(device.to_owned(), p.conn) {
            old.feed.down(Down::Reset);
        }
        let _ = done.send(Ok(()));
    }

    /// Connecting to `device` failed, for `reason` (the platform's words).
    pub fn connect_failed(&self, device: &str, reason: &str) {
        if let Some(p) = lock(&self.shared.state).pending.remove(device) {
            let _ = p.done.send(Err(reason.to_owned()));
        }
    }

    /// `device` notified `value`. False (dropped) when it is not connected.
    pub fn notified(&self, device: &str, value: Vec<u8>) -> bool {
        match lock(&self.shared.state).devices.get(device) {
            Some(c) => c.feed.chunk(value),
            None => false,
        }
    }

    /// The ATT MTU of the connection to `device` changed.
    pub fn mtu_changed(&self, device: &str, mtu: u16) {
        let s = lock(&self.shared.state);
        if let Some(c) = s.devices.get(device) {
            c.mtu.store(mtu, Ordering::Relaxed);
        } else if let Some(p) = s.pending.get(device) {
            p.conn.mtu.store(mtu, Ordering::Relaxed);
        }
    }

    /// The stack can take writes again (Android `onCharacteristicWrite`, iOS
    /// `peripheralIsReady(toSendWriteWithoutResponse:)`).
    pub fn write_ready(&self) {
        self.shared.ready.signal();
    }

    /// `device` disconnected: its link reports a reset (and a connection being made fails).
    pub fn disconnected(&self, device: &str) {
        let mut s = lock(&self.shared.state);
        if let Some(c) = s.devices.remove(device) {
            c.feed.down(Down::Reset);
        }
        if let Some(p) = s.pending.remove(device) {
            let _ = p.done.send(Err(String::from("the device disconnected")));
        }
    }

    /// The adapter's state changed; returns the previous one. Anything but
    /// [`AdapterState::On`] drops every connection and fails those being made.
    pub fn adapter_changed(&self, state: AdapterState) -> AdapterState {
        let mut s = lock(&self.shared.state);
        let before = std::mem::replace(&mut s.adapter, state);
        if state != AdapterState::On {
            for (_, c) in s.devices.drain() {
                c.feed.down(Down::Reset);
            }
            let reason = state.message().unwrap_or_default();
            for (_, p) in s.pending.drain() {
                let _ = p.done.send(Err(reason.to_owned()));
            }
        }
        before
    }

    /// The adapter's state as last reported.
    pub fn adapter(&self) -> AdapterState {
        lock(&self.shared.state).adapter
    }

    /// A connector for a [`Driver`](crate::driver::Driver): connects to `device` again
    /// after every cut.
    pub fn dialer(self: &Arc<Self>, device: &str) -> HubDialer {
        HubDialer {
            hub: Arc::clone(self),
            redial: Redial::new(device.to_owned(), ""),
            finder: None,
        }
    }

    /// A connector that connects to `device` first and, on every later attempt, looks for
    /// the host again by its key `fingerprint` through `finder` (phones rotate their
    /// Bluetooth addresses, so the id a host had may be gone after a cut), then connects
    /// to wherever it is now — to the last id when the scan finds nothing.
    pub fn dialer_by_fingerprint(
        self: &Arc<Self>,
        device: &str,
        fingerprint: &str,
        finder: Arc<dyn HostFinder>,
    ) -> HubDialer {
        HubDialer {
            hub: Arc::clone(self),
            redial: Redial::new(device.to_owned(), fingerprint),
            finder: Some(finder),
        }
    }
}

/// Finds a host again by its key fingerprint: scans for the Banco service and reads the
/// info of what it sees (the FFI's `BleGuest` implements it with the shell's scanner).
pub trait HostFinder: Send + Sync + 'static {
    /// The device id of a host whose info carries `fingerprint`, seen within `timeout`;
    /// `None` when none was.
    fn find(&self, fingerprint: &str, timeout: Duration) -> Option<String>;
}

/// A [`Connector`] that connects a [`CentralHub`] to one host, again after every cut: to
/// the same device id ([`CentralHub::dialer`]) or to wherever a scan finds the host's key
/// fingerprint ([`CentralHub::dialer_by_fingerprint`]).
pub struct HubDialer {
    hub: Arc<CentralHub>,
    redial: Redial<String>,
    finder: Option<Arc<dyn HostFinder>>,
}

impl std::fmt::Debug for HubDialer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HubDialer")
            .field("device", self.redial.device())
            .field("fingerprint", &self.redial.fingerprint())
            .finish_non_exhaustive()
    }
}

impl HubDialer {
    /// The device id the next attempt starts from (the last one the host was found at).
    pub fn device(&self) -> &str {
        self.redial.device()
    }
}

impl Connector for HubDialer {
    fn role(&self) -> Role {
        Role::Initiator
    }

    fn connect(&mut self, timeout: Duration) -> Result<BoxLink, LinkError> {
        let start = Instant::now();
        // The first attempt uses the id just scanned; later ones look again (redial.rs).
        let radio_on = self.finder.is_some() && self.hub.adapter() == AdapterState::On;
        let finder = self.finder.clone();
        let device = self.redial.attempt(timeout, radio_on, |fp, budget| {
            finder.and_then(|f| f.find(fp, budget))
        });
        let left = timeout.saturating_sub(start.elapsed());
        Ok(Box::new(self.hub.connect(device, left)?))
    }
}

#[cfg(test)]
#[path = "hub_tests.rs"]
mod tests;
