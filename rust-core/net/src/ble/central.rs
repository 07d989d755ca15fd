//! The guest's side of Bluetooth LE (feature `ble`): a GATT central with
//! [btleplug](https://docs.rs/btleplug) — BlueZ over D-Bus on Linux, CoreBluetooth on macOS
//! and iOS, WinRT on Windows. It scans for the [Banco service](super::gatt), reads each
//! host's [info](super::info), connects, learns the MTU, subscribes to the notify
//! characteristic and gives a [`BleLink`] over writes and notifications.
//!
//! ```no_run
//! use banco_net::Link;
//! use banco_net::ble::central::BleCentral;
//! use std::time::Duration;
//!
//! let central = BleCentral::new()?;
//! // The first host whose display name is "Alice" (any host with `None`).
//! let host = central.find(Some("Alice"), Duration::from_secs(10))?;
//! println!("{} offers {:?}", host.info.name, host.info.games);
//! let link = central.connect(&host, Duration::from_secs(10))?;
//! link.send(b"hello")?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! On Android, btleplug needs JNI initialisation from the app; the shells use the platform
//! scanner instead, behind the same [`AttPipe`](super::AttPipe).

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use btleplug::api::{
    Central as _, CentralEvent, CentralState, CharPropFlags, Characteristic, Manager as _,
    Peripheral as _, ScanFilter, WriteType,
};
use btleplug::platform::{Adapter, Manager, Peripheral};
use futures_util::StreamExt;
use uuid::Uuid;

use super::gatt::{
    INFO_UUID, NOTIFY_UUID, SERVICE_UUID, WRITE_UUID, WriteMode, WritePacer, att_payload,
};
use super::info::decode_info;
use super::redial::Redial;
use super::stack::{BleError, BleRuntime, Down, Inbox, block_on_timeout};
use super::{AttPipe, BleLink};
use crate::discovery::Advertisement;
use crate::driver::{Connector, Role};
use crate::error::LinkError;
use crate::link::BoxLink;

/// How long one ATT write may take before the link counts as lost.
const WRITE_TIMEOUT: Duration = Duration::from_secs(5);
/// How often the scan looks at the peripherals the adapter has seen.
const SCAN_POLL: Duration = Duration::from_millis(100);

/// With `BANCO_BLE_DEBUG` set, says why a peer was skipped (on standard error).
fn debug(message: &str) {
    if std::env::var_os("BANCO_BLE_DEBUG").is_some() {
        eprintln!("ble: {message}");
    }
}

fn stack(e: btleplug::Error) -> BleError {
    match e {
        btleplug::Error::PermissionDenied => BleError::PermissionDenied,
        btleplug::Error::NoAdapterAvailable => BleError::NoAdapter,
        btleplug::Error::TimedOut(_) => BleError::Timeout,
        other => BleError::Stack(other.to_string()),
    }
}

/// A Banco host seen over Bluetooth: its validated [info](super::info) and how to reach it.
#[derive(Clone, Debug)]
pub struct BleHost {
    /// The platform's identifier of the peripheral (a Bluetooth address on Linux and
    /// Windows, a UUID on Apple systems).
    pub id: String,
    /// The advertised local name (`Banco Alice`), if any: a hint only.
    pub local_name: Option<String>,
    /// What the host's info characteristic says, validated.
    pub info: Advertisement,
    peripheral: Peripheral,
}

/// A GATT central on the system's first Bluetooth adapter. See the [module docs](self).
pub struct BleCentral {
    rt: Arc<BleRuntime>,
    adapter: Adapter,
}

impl std::fmt::Debug for BleCentral {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BleCentral").finish_non_exhaustive()
    }
}

fn characteristic(p: &Peripheral, uuid: u128) -> Option<Characteristic> {
    let uuid = Uuid::from_u128(uuid);
    p.characteristics()
        .into_iter()
        .find(|c| c.uuid == uuid && c.service_uuid == Uuid::from_u128(SERVICE_UUID))
}

/// Connects (if needed) and discovers the services of `p`.
async fn ensure_connected(p: &Peripheral) -> Result<(), BleError> {
    if !p.is_connected().await.map_err(stack)? {
        p.connect().await.map_err(stack)?;
    }
    if characteristic(p, WRITE_UUID).is_none() {
        p.discover_services().await.map_err(stack)?;
    }
    Ok(())
}

/// Connects to `p`, reads and validates its info.
async fn probe(p: Peripheral) -> Result<BleHost, BleError> {
    ensure_connected(&p).await?;
    let info_char = characteristic(&p, INFO_UUID).ok_or(BleError::MissingCharacteristic("info"))?;
    let value = p.read(&info_char).await.map_err(stack)?;
    let info = decode_info(&value)?;
    let local_name = p
        .properties()
        .await
        .map_err(stack)?
        .and_then(|props| props.local_name);
    Ok(BleHost {
        id: p.id().to_string(),
        local_name,
        info,
        peripheral: p,
    })
}

impl BleCentral {
    /// A central on the first adapter. Fails with [`BleError::NoAdapter`] without one and
    /// [`BleError::PoweredOff`] when it is off.
    pub fn new() -> Result<BleCentral, BleError> {
        let rt = BleRuntime::new()?;
        let adapter = block_on_timeout(rt.handle(), Duration::from_secs(10), async {
            let manager = Manager::new().await.map_err(stack)?;
            let adapter = manager
                .adapters()
                .await
                .map_err(stack)?
                .into_iter()
                .next()
                .ok_or(BleError::NoAdapter)?;
            if adapter.adapter_state().await.map_err(stack)? == CentralState::PoweredOff {
                return Err(BleError::PoweredOff);
            }
            Ok(adapter)
        })?;
        Ok(BleCentral {
            rt: Arc::new(rt),
            adapter,
        })
    }

    /// Scans for Banco hosts for up to `timeout`, connecting to each new one to read its
    /// info; stops early when `stop` returns true for a host (that host is kept connected
    /// and returned last). Hosts whose info is refused are skipped. Others are disconnected
    /// after the read.
    pub fn scan(
        &self,
        timeout: Duration,
        mut stop: impl FnMut(&BleHost) -> bool,
    ) -> Result<Vec<BleHost>, BleError> {
        let adapter = self.adapter.clone();
        let service = Uuid::from_u128(SERVICE_UUID);
        self.rt.handle().block_on(async move {
            adapter
                .start_scan(ScanFilter {
                    services: vec![service],
                })
                .await
                .map_err(stack)?;
            let deadline = crate::deadline_after(timeout);
            let mut tried = HashSet::new();
            let mut found = Vec::new();
            'scan: while Instant::now() < deadline {
                for p in adapter.peripherals().await.map_err(stack)? {
                    let id = p.id();
                    if tried.contains(&id) {
                        continue;
                    }
                    let advertises = match p.properties().await {
                        Ok(props) => props.is_some_and(|props| props.services.contains(&service)),
                        Err(e) => {
                            debug(&format!("{id}: no properties: {e}"));
                            false
                        }
                    };
                    if !advertises {
                        continue;
                    }
                    tried.insert(id.clone());
                    let left = deadline.saturating_duration_since(Instant::now());
                    let host = match tokio::time::timeout(left, probe(p.clone())).await {
                        Ok(Ok(host)) => host,
                        Ok(Err(e)) => {
                            debug(&format!("{id}: skipped: {e}"));
                            let _ = p.disconnect().await;
                            continue;
                        }
                        Err(_) => {
                            let _ = p.disconnect().await;
                            continue;
                        }
                    };
                    if stop(&host) {
                        found.push(host);
                        break 'scan;
                    }
                    let _ = p.disconnect().await;
                    found.push(host);
                }
                tokio::time::sleep(SCAN_POLL).await;
            }
            let _ = adapter.stop_scan().await;
            Ok(found)
        })
    }

    /// The first host whose display name is `name` (ignoring case), or any host with
    /// `None`; it stays connected for [`BleCentral::connect`].
    pub fn find(&self, name: Option<&str>, timeout: Duration) -> Result<BleHost, BleError> {
        let wanted = |h: &BleHost| name.is_none_or(|n| h.info.name.eq_ignore_ascii_case(n));
        self.scan(timeout, wanted)?
            .into_iter()
            .rfind(|h| wanted(h))
            .ok_or(BleError::NotFound)
    }

    /// Connects to `host`, subscribes to its notifications and returns the link. The MTU is
    /// the one the stack negotiated (fragments of `MTU − 3` bytes).
    pub fn connect(
        &self,
        host: &BleHost,
        timeout: Duration,
    ) -> Result<BleLink<CentralPipe>, BleError> {
        let p = host.peripheral.clone();
        let adapter = self.adapter.clone();
        let inbox = Inbox::new();
        let feed = inbox.sender();
        let handle = self.rt.handle().clone();
        let (write, tasks) = block_on_timeout(self.rt.handle(), timeout, async move {
            // Streams first, so no notification or disconnect is missed.
            let mut events = adapter.events().await.map_err(stack)?;
            ensure_connected(&p).await?;
            let write =
                characteristic(&p, WRITE_UUID).ok_or(BleError::MissingCharacteristic("write"))?;
            let notify =
                characteristic(&p, NOTIFY_UUID).ok_or(BleError::MissingCharacteristic("notify"))?;
            let mut values = p.notifications().await.map_err(stack)?;
            p.subscribe(&notify).await.map_err(stack)?;
            let id = p.id();
            let feed_values = feed.clone();
            let notifications = handle.spawn(async move {
                while let Some(n) = values.next().await {
                    if n.uuid == Uuid::from_u128(NOTIFY_UUID) && !feed_values.chunk(n.value) {
                        return;
                    }
                }
                feed_values.down(Down::Reset);
            });
            let disconnects = handle.spawn(async move {
                while let Some(event) = events.next().await {
                    if matches!(event, CentralEvent::DeviceDisconnected(ref d) if *d == id) {
                        break;
                    }
                }
                feed.down(Down::Reset);
            });
            Ok((write, vec![notifications, disconnects]))
        })?;
        let without_response = write
            .properties
            .contains(CharPropFlags::WRITE_WITHOUT_RESPONSE);
        let pipe = CentralPipe {
            rt: Arc::clone(&self.rt),
            peripheral: host.peripheral.clone(),
            write,
            pacer: Mutex::new(WritePacer::new(without_response)),
            inbox,
            tasks,
            closed: AtomicBool::new(false),
            peer: format!("ble {}", host.id),
        };
        Ok(BleLink::new(pipe))
    }

    /// The host whose info carries the key `fingerprint`, seen within `timeout` (kept
    /// connected for [`BleCentral::connect`]); `None` when none was, or scanning failed.
    pub fn find_fingerprint(&self, fingerprint: &str, timeout: Duration) -> Option<BleHost> {
        let wanted = |h: &BleHost| h.info.fingerprint == fingerprint;
        match self.scan(timeout, wanted) {
            Ok(hosts) => hosts.into_iter().rfind(|h| wanted(h)),
            Err(e) => {
                debug(&format!("looking for {fingerprint} again: {e}"));
                None
            }
        }
    }

    /// A connector for a [`Driver`](crate::driver::Driver): connects to `host` first and,
    /// after every cut, looks for it again by its key fingerprint (a phone's or a privacy
    /// enabled BlueZ's address rotates) before connecting to wherever it is now — to the
    /// last address when the scan finds nothing ([`Redial`](super::redial::Redial)).
    pub fn dialer(self: &Arc<Self>, host: BleHost) -> BleDialer {
        let fingerprint = host.info.fingerprint.clone();
        BleDialer {
            central: Arc::clone(self),
            redial: Redial::new(host, &fingerprint),
        }
    }
}

/// The [`AttPipe`] of a connected central: writes to the host's write characteristic,
/// notifications from its notify characteristic.
pub struct CentralPipe {
    // Shared with the central: the link may outlive it.
    rt: Arc<BleRuntime>,
    peripheral: Peripheral,
    write: Characteristic,
    pacer: Mutex<WritePacer>,
    inbox: Inbox,
    tasks: Vec<tokio::task::JoinHandle<()>>,
    closed: AtomicBool,
    peer: String,
}

impl std::fmt::Debug for CentralPipe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CentralPipe")
            .field("peer", &self.peer)
            .finish_non_exhaustive()
    }
}

impl CentralPipe {
    fn write_once(&self, chunk: &[u8], mode: WriteMode) -> Result<(), BleError> {
        let kind = match mode {
            WriteMode::WithResponse => WriteType::WithResponse,
            WriteMode::WithoutResponse => WriteType::WithoutResponse,
        };
        block_on_timeout(self.rt.handle(), WRITE_TIMEOUT, async {
            self.peripheral
                .write(&self.write, chunk, kind)
                .await
                .map_err(stack)
        })
    }
}

impl AttPipe for CentralPipe {
    fn mtu_payload(&self) -> usize {
        att_payload(self.peripheral.mtu())
    }

    fn write(&self, chunk: &[u8]) -> Result<(), LinkError> {
        if self.closed.load(Ordering::Acquire) {
            return Err(LinkError::Closed);
        }
        let mode = self
            .pacer
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .next_mode();
        match self.write_once(chunk, mode) {
            Ok(()) => Ok(()),
            Err(BleError::Timeout) => Err(LinkError::Reset),
            Err(_) if mode == WriteMode::WithoutResponse => {
                // The stack refused a write without response (buffer full, or not
                // supported after all): fall back to writes with response for good.
                self.pacer
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .refused();
                self.write_once(chunk, WriteMode::WithResponse)
                    .map_err(|_| LinkError::Reset)
            }
            Err(_) => Err(LinkError::Reset),
        }
    }

    fn read(&self, timeout: Option<Duration>) -> Result<Option<Vec<u8>>, LinkError> {
        self.inbox.read(timeout)
    }

    fn idle(&self) {
        self.pacer
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .idle();
    }

    fn close(&self) {
        if self.closed.swap(true, Ordering::AcqRel) {
            return;
        }
        self.inbox.down(Down::Closed);
        let p = self.peripheral.clone();
        self.rt.handle().spawn(async move {
            let _ = p.disconnect().await;
        });
    }

    fn peer(&self) -> String {
        self.peer.clone()
    }
}

impl Drop for CentralPipe {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

/// A [`Connector`] that connects a [`BleCentral`] to one host, again after every cut.
#[derive(Debug)]
pub struct BleDialer {
    central: Arc<BleCentral>,
    redial: Redial<BleHost>,
}

impl BleDialer {
    /// The host as last found (its id is where the next attempt starts).
    pub fn host(&self) -> &BleHost {
        self.redial.device()
    }
}

impl Connector for BleDialer {
    fn role(&self) -> Role {
        Role::Initiator
    }

    fn connect(&mut self, timeout: Duration) -> Result<BoxLink, LinkError> {
        let start = Instant::now();
        let central = Arc::clone(&self.central);
        let host = self.redial.attempt(timeout, true, |fp, budget| {
            let found = central.find_fingerprint(fp, budget);
            if let Some(h) = &found {
                debug(&format!("host {fp} found again at {}", h.id));
            }
            found
        });
        let left = timeout.saturating_sub(start.elapsed());
        let link = self.central.connect(host, left)?;
        Ok(Box::new(link))
    }
}
