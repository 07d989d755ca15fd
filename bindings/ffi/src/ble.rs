//! Bluetooth LE on phones: the shell moves ATT values, Rust does everything else.
//!
//! The host is a GATT **peripheral**: the shell implements [`BlePeripheral`] with Android's
//! `BluetoothGattServer` + `BluetoothLeAdvertiser` or iOS's `CBPeripheralManager`, and
//! reports what happens to the [`BlePeripheralEvents`] object Rust hands it in
//! [`BlePeripheral::start`]. The guest is a GATT **central**: the shell implements
//! [`BleCentral`] with Android's `BluetoothLeScanner` + `BluetoothGatt` or iOS's
//! `CBCentralManager`, wrapped once in a [`BleGuest`] (which scans, reads each host's info
//! and lists it to a [`BleScanListener`]), and reports to [`BleCentralEvents`].
//! [`Match::host_ble`] and [`Match::join_ble`] then run the very session of a LAN match —
//! pairing code, encryption, exactly-once moves, resume — over banco-net's fragment layer
//! (`ble::hub`): one link per subscribed central (a stranger never takes over the guest's
//! link), busy stacks waited for, the adapter going off dropping the link and the match
//! resuming when it is back on (the host advertises again by itself).
//!
//! Nothing here is async: every foreign method must return quickly (start the platform
//! operation and report its end through the events object), and every event may be called
//! from any thread. A method that cannot take a value now answers `false` ("busy"); Rust
//! waits for `onReadyToNotify` / `onReadyToWrite` and asks again.
//!
//! ```
//! use banco_ffi::{BleAdapterState, ble_adapter_message, ble_service};
//! assert_eq!(ble_service().service_uuid, "becd2551-cd92-414a-b34f-80de7c697371");
//! assert_eq!(ble_adapter_message(BleAdapterState::On), None);
//! assert!(ble_adapter_message(BleAdapterState::Off).unwrap().contains("turn it on"));
//! ```

use crate::error::{BancoError, guard, notify};
use crate::net::{
    Match, MatchListener, MatchOffer, Relay, host_options, kinds, proposing, trust_of,
};
use crate::types::GameKind;
use banco_app::network::{HostOptions, NetMatch};
use banco_net::ble::gatt::{
    INFO_UUID, NOTIFY_UUID, SERVICE_UUID, WRITE_UUID, WriteMode, local_name, uuid_string,
};
use banco_net::ble::hub::{
    AdapterState, CentralHub, CentralRadio, HostFinder, HubAcceptor, PeripheralHub,
    PeripheralRadio, Sent,
};
use banco_net::ble::info::{decode_info, encode_info};
use banco_net::driver::{Connector, Role};
use banco_net::{BoxLink, LinkError};
use std::collections::{HashMap, HashSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::{Duration, Instant};

/// How long reading one host's info may take while scanning.
const INFO_TIMEOUT: Duration = Duration::from_secs(8);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The state of the Bluetooth adapter, as the shell reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum BleAdapterState {
    /// On and allowed.
    On,
    /// Switched off (or airplane mode).
    Off,
    /// Turning on or off, or resetting.
    Resetting,
    /// Permission missing: Android 12+ `BLUETOOTH_SCAN`/`CONNECT`/`ADVERTISE`, iOS Bluetooth.
    Unauthorized,
    /// No Bluetooth LE (or no advertising support) on this device.
    Unsupported,
}

impl From<BleAdapterState> for AdapterState {
    fn from(s: BleAdapterState) -> Self {
        match s {
            BleAdapterState::On => AdapterState::On,
            BleAdapterState::Off => AdapterState::Off,
            BleAdapterState::Resetting => AdapterState::Resetting,
            BleAdapterState::Unauthorized => AdapterState::Unauthorized,
            BleAdapterState::Unsupported => AdapterState::Unsupported,
        }
    }
}

/// What to tell the player about the adapter's `state` (`null`/`nil` when Bluetooth is
/// usable): the same words on Android and iOS.
#[uniffi::export]
pub fn ble_adapter_message(state: BleAdapterState) -> Option<String> {
    AdapterState::from(state).message().map(str::to_owned)
}

/// What a shell's Bluetooth code reports as failed. Kotlin: `BleException.Off(reason)`…;
/// Swift: `BleError.off(reason:)`….
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, uniffi::Error)]
pub enum BleError {
    /// Bluetooth is off.
    #[error("Bluetooth is off: {reason}")]
    Off {
        /// The platform's words.
        reason: String,
    },
    /// Permission missing.
    #[error("Bluetooth permission missing: {reason}")]
    Unauthorized {
        /// The platform's words.
        reason: String,
    },
    /// The device cannot do it (no LE, no advertising).
    #[error("Bluetooth LE not supported: {reason}")]
    Unsupported {
        /// The platform's words.
        reason: String,
    },
    /// Anything else (a GATT status, an exception).
    #[error("Bluetooth failed: {reason}")]
    Failed {
        /// The platform's words.
        reason: String,
    },
}

impl From<uniffi::UnexpectedUniFFICallbackError> for BleError {
    fn from(e: uniffi::UnexpectedUniFFICallbackError) -> Self {
        BleError::Failed { reason: e.reason }
    }
}

impl From<BleError> for BancoError {
    fn from(e: BleError) -> Self {
        BancoError::Network(e.to_string())
    }
}

/// Runs a call into the shell; a panic (or a foreign exception uniffi could not map) is a
/// failure, never a crash of the Rust thread.
fn call<T>(f: impl FnOnce() -> Result<T, BleError>) -> Result<T, BleError> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|p| {
        Err(BleError::Failed {
            reason: crate::error::panic_message(p.as_ref()),
        })
    })
}

fn link_error(e: BleError) -> LinkError {
    LinkError::Io(std::io::Error::other(e.to_string()))
}

/// The Banco GATT service's UUIDs (lower-case, 8-4-4-4-12).
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct BleService {
    /// The primary service, advertised.
    pub service_uuid: String,
    /// Guest → host fragments: write without response (and write).
    pub write_uuid: String,
    /// Host → guest fragments: notify.
    pub notify_uuid: String,
    /// The host's info: read.
    pub info_uuid: String,
}

/// The Banco GATT service (see banco-net `ble::gatt`).
#[uniffi::export]
pub fn ble_service() -> BleService {
    BleService {
        service_uuid: uuid_string(SERVICE_UUID),
        write_uuid: uuid_string(WRITE_UUID),
        notify_uuid: uuid_string(NOTIFY_UUID),
        info_uuid: uuid_string(INFO_UUID),
    }
}

/// What a host advertises and serves.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct BleAdvertisement {
    /// The service and characteristics to register.
    pub service: BleService,
    /// The local name for the scan response (`Banco Alice`, at most 29 bytes).
    pub local_name: String,
    /// The value of the info characteristic (answer reads at any offset with the rest).
    pub info: Vec<u8>,
}

/// The host's Bluetooth, implemented by the shell (Android `BluetoothGattServer` +
/// `BluetoothLeAdvertiser`, iOS `CBPeripheralManager`). Methods are called on Rust threads
/// and must return quickly.
#[uniffi::export(with_foreign)]
pub trait BlePeripheral: Send + Sync {
    /// Registers the service of `advertisement` and advertises it; reports everything that
    /// happens to `events` from now on (a later `start` replaces the events). Called again
    /// when the adapter comes back on after being off.
    fn start(
        &self,
        advertisement: BleAdvertisement,
        events: Arc<BlePeripheralEvents>,
    ) -> Result<(), BleError>;

    /// Notifies `value` on the notify characteristic to `central` only. `false` when the
    /// stack cannot take it now: call `events.onReadyToNotify()` once it can.
    fn notify(&self, central: String, value: Vec<u8>) -> Result<bool, BleError>;

    /// Drops the connection of `central` (Android `cancelConnection`; a no-op on iOS).
    fn disconnect(&self, central: String);

    /// Stops advertising and removes the service.
    fn stop(&self);
}

/// What the host's shell reports, given to it by [`BlePeripheral::start`]. Every method
/// may be called from any thread.
#[derive(uniffi::Object)]
pub struct BlePeripheralEvents {
    hub: Arc<PeripheralHub>,
    /// To advertise again when the adapter comes back.
    restart: Mutex<Option<(Arc<dyn BlePeripheral>, BleAdvertisement)>>,
    me: Weak<BlePeripheralEvents>,
}

#[uniffi::export]
impl BlePeripheralEvents {
    /// `central` (the platform's id of the device) subscribed to the notify characteristic;
    /// `mtu` is its ATT MTU (23 when not known yet).
    pub fn on_subscribed(&self, central: String, mtu: u16) {
        self.hub.subscribed(&central, mtu);
    }

    /// `central` wrote `value` to the write characteristic (answer a write request with
    /// success before or after calling this).
    pub fn on_write(&self, central: String, value: Vec<u8>) {
        self.hub.written(&central, value);
    }

    /// The ATT MTU of `central` changed.
    pub fn on_mtu_changed(&self, central: String, mtu: u16) {
        self.hub.mtu_changed(&central, mtu);
    }

    /// `central` unsubscribed or disconnected.
    pub fn on_unsubscribed(&self, central: String) {
        self.hub.unsubscribed(&central);
    }

    /// The stack can take notifications again.
    pub fn on_ready_to_notify(&self) {
        self.hub.ready();
    }

    /// The adapter's state changed. Off drops the link (the match shows it is reconnecting);
    /// back on, Rust calls [`BlePeripheral::start`] again (on a thread of its own).
    pub fn on_adapter_state(&self, state: BleAdapterState) {
        let before = self.hub.adapter_changed(state.into());
        if state != BleAdapterState::On || before == AdapterState::On {
            return;
        }
        let again = lock(&self.restart).clone();
        let (Some((peripheral, ad)), Some(me)) = (again, self.me.upgrade()) else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("banco-ble-restart".into())
            .spawn(move || {
                let _ = call(|| peripheral.start(ad, me));
            });
    }
}

/// [`PeripheralRadio`] over the shell's [`BlePeripheral`].
struct ForeignPeripheral(Arc<dyn BlePeripheral>);

impl PeripheralRadio for ForeignPeripheral {
    fn notify(&self, central: &str, value: &[u8]) -> Result<Sent, LinkError> {
        match call(|| self.0.notify(central.to_owned(), value.to_vec())) {
            Ok(true) => Ok(Sent::Queued),
            Ok(false) => Ok(Sent::Busy),
            Err(e) => Err(link_error(e)),
        }
    }

    fn disconnect(&self, central: &str) {
        notify(|| self.0.disconnect(central.to_owned()));
    }
}

/// The host's connector: the hub's links; stops the shell's peripheral when the match ends.
struct Advertising {
    acceptor: HubAcceptor,
    peripheral: Arc<dyn BlePeripheral>,
}

impl Connector for Advertising {
    fn role(&self) -> Role {
        Role::Responder
    }

    fn connect(&mut self, timeout: Duration) -> Result<BoxLink, LinkError> {
        self.acceptor.connect(timeout)
    }
}

impl Drop for Advertising {
    fn drop(&mut self) {
        notify(|| self.peripheral.stop());
    }
}

/// Starts `peripheral` serving `ad` and returns the connector of its links.
fn advertise_ble(
    peripheral: Arc<dyn BlePeripheral>,
    ad: &banco_net::discovery::Advertisement,
) -> Result<Advertising, BleError> {
    let hub = PeripheralHub::new(Arc::new(ForeignPeripheral(Arc::clone(&peripheral))));
    let advertisement = BleAdvertisement {
        service: ble_service(),
        local_name: local_name(&ad.display_name()),
        info: encode_info(ad),
    };
    let events = Arc::new_cyclic(|me| BlePeripheralEvents {
        hub: Arc::clone(&hub),
        restart: Mutex::new(Some((Arc::clone(&peripheral), advertisement.clone()))),
        me: me.clone(),
    });
    call(|| peripheral.start(advertisement, events))?;
    Ok(Advertising {
        acceptor: hub.acceptor(),
        peripheral,
    })
}

/// The guest's Bluetooth, implemented by the shell (Android `BluetoothLeScanner` +
/// `BluetoothGatt`, iOS `CBCentralManager`); wrapped once in a [`BleGuest`]. Methods are
/// called on Rust threads and must return quickly.
#[uniffi::export(with_foreign)]
pub trait BleCentral: Send + Sync {
    /// Reports everything that happens to `events` from now on, starting with the
    /// adapter's state.
    fn start(&self, events: Arc<BleCentralEvents>) -> Result<(), BleError>;

    /// Scans for devices advertising `service.serviceUuid`; report **every** advertisement
    /// with `onDiscovered` (Android's default; iOS: `CBCentralManagerScanOptionAllowDuplicatesKey`):
    /// a host not seen for 30 s leaves the lobby.
    fn scan(&self, service: BleService) -> Result<(), BleError>;

    /// Stops scanning.
    fn stop_scan(&self);

    /// Connects to `device` if needed and reads the info characteristic (the whole value,
    /// long reads included): report `onInfo` or `onInfoFailed`. May disconnect afterwards.
    fn read_info(&self, device: String) -> Result<(), BleError>;

    /// Connects to `device`, asks for the largest MTU, discovers the service and subscribes
    /// to the notify characteristic: report `onConnected` (or `onConnectFailed`).
    fn connect(&self, device: String) -> Result<(), BleError>;

    /// Writes `value` to the write characteristic of `device`, without response unless
    /// `with_response`. `false` when the stack cannot take it now: call
    /// `events.onReadyToWrite()` once it can.
    fn write(&self, device: String, value: Vec<u8>, with_response: bool) -> Result<bool, BleError>;

    /// Disconnects from `device`.
    fn disconnect(&self, device: String);
}

/// [`CentralRadio`] over the shell's [`BleCentral`].
struct ForeignCentral(Arc<dyn BleCentral>);

impl CentralRadio for ForeignCentral {
    fn connect(&self, device: &str) -> Result<(), LinkError> {
        call(|| self.0.connect(device.to_owned())).map_err(link_error)
    }

    fn write(&self, device: &str, value: &[u8], mode: WriteMode) -> Result<Sent, LinkError> {
        let with_response = mode == WriteMode::WithResponse;
        match call(|| {
            self.0
                .write(device.to_owned(), value.to_vec(), with_response)
        }) {
            Ok(true) => Ok(Sent::Queued),
            Ok(false) => Ok(Sent::Busy),
            Err(e) => Err(link_error(e)),
        }
    }

    fn disconnect(&self, device: &str) {
        notify(|| self.0.disconnect(device.to_owned()));
    }
}

/// A Banco host found over Bluetooth, with its validated info.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct BlePeer {
    /// The platform's id of the device (pass it to [`Match::join_ble`]).
    pub device: String,
    /// The player's display name (validated: no invisible or control characters).
    pub name: String,
    /// Games offered.
    pub games: Vec<GameKind>,
    /// Protocol version spoken.
    pub protocol_version: u16,
    /// Short fingerprint of the host's key (hex), or empty.
    pub fingerprint: String,
}

/// Hears about hosts found by [`BleGuest::scan`], on a Rust thread.
#[uniffi::export(with_foreign)]
pub trait BleScanListener: Send + Sync {
    /// A host (each device once per scan; again if its info changed).
    fn on_peer_found(&self, peer: BlePeer);
    /// A device advertised the service but its info was refused or unreadable.
    fn on_error(&self, message: String);
}

/// Where a device of the scan in progress stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sighting {
    /// Its info is being read (or queued to be).
    Reading,
    /// Reported to the listener.
    Listed,
    /// Its info was refused or unreadable: not read again in this scan.
    Failed,
}

/// Told of every advertisement of a device already listed; answers whether the device is
/// still listed (false: it was dropped as stale, so its info is read again).
pub(crate) type SeenHook = Arc<dyn Fn(&str) -> bool + Send + Sync>;

/// The scan in progress.
#[derive(Default)]
struct Scan {
    listener: Option<Arc<dyn BleScanListener>>,
    seen_hook: Option<SeenHook>,
    seen: HashMap<String, Sighting>,
    /// Devices whose info is to be read, to the reading thread.
    queue: Option<Sender<String>>,
    /// A reconnecting guest looking for a host by fingerprint: every device seen goes here.
    hunt: Option<Sender<String>>,
}

/// What the guest's shell reports, given to it by [`BleCentral::start`]. Every method may
/// be called from any thread.
#[derive(uniffi::Object)]
pub struct BleCentralEvents {
    hub: Arc<CentralHub>,
    scan: Mutex<Scan>,
    infos: Mutex<HashMap<String, InfoWaiter>>,
    /// The key fingerprint each device's info carried, as read.
    fingerprints: Mutex<HashMap<String, String>>,
}

/// Where the answer to one info read goes: the value, or why it failed.
type InfoWaiter = Sender<Result<Vec<u8>, String>>;

#[uniffi::export]
impl BleCentralEvents {
    /// A device advertising the Banco service was seen (`local_name` from its scan
    /// response, a hint only).
    pub fn on_discovered(&self, device: String, local_name: Option<String>) {
        let _ = local_name;
        let mut scan = lock(&self.scan);
        if let Some(h) = &scan.hunt {
            let _ = h.send(device.clone());
        }
        if scan.listener.is_none() {
            return;
        }
        match scan.seen.get(&device) {
            None => {}
            Some(Sighting::Reading | Sighting::Failed) => return,
            Some(Sighting::Listed) => {
                let Some(hook) = scan.seen_hook.clone() else {
                    return;
                };
                drop(scan);
                if hook(&device) {
                    return;
                }
                scan = lock(&self.scan);
                if scan.seen.get(&device) != Some(&Sighting::Listed) {
                    return;
                }
            }
        }
        scan.seen.insert(device.clone(), Sighting::Reading);
        if let Some(q) = &scan.queue {
            let _ = q.send(device);
        }
    }

    /// The info characteristic of `device` reads `value`.
    pub fn on_info(&self, device: String, value: Vec<u8>) {
        if let Some(tx) = lock(&self.infos).remove(&device) {
            let _ = tx.send(Ok(value));
        }
    }

    /// Reading the info of `device` failed.
    pub fn on_info_failed(&self, device: String, reason: String) {
        if let Some(tx) = lock(&self.infos).remove(&device) {
            let _ = tx.send(Err(reason));
        }
    }

    /// `device` is connected and subscribed, with ATT MTU `mtu`.
    pub fn on_connected(&self, device: String, mtu: u16) {
        self.hub.connected(&device, mtu);
    }

    /// Connecting to `device` failed.
    pub fn on_connect_failed(&self, device: String, reason: String) {
        self.hub.connect_failed(&device, &reason);
    }

    /// `device` notified `value` on the notify characteristic.
    pub fn on_notification(&self, device: String, value: Vec<u8>) {
        self.hub.notified(&device, value);
    }

    /// The ATT MTU of the connection to `device` changed.
    pub fn on_mtu_changed(&self, device: String, mtu: u16) {
        self.hub.mtu_changed(&device, mtu);
    }

    /// The stack can take writes again.
    pub fn on_ready_to_write(&self) {
        self.hub.write_ready();
    }

    /// `device` disconnected.
    pub fn on_disconnected(&self, device: String) {
        self.hub.disconnected(&device);
    }

    /// The adapter's state changed: off drops the link; the match reconnects when it is
    /// back on.
    pub fn on_adapter_state(&self, state: BleAdapterState) {
        self.hub.adapter_changed(state.into());
    }
}

/// Finds a host again by its key fingerprint through the shell's scanner: what a
/// reconnecting [`Match::join_ble`] uses, since phones rotate their Bluetooth addresses.
struct Rescan {
    central: Arc<dyn BleCentral>,
    events: Arc<BleCentralEvents>,
}

impl HostFinder for Rescan {
    fn find(&self, fingerprint: &str, timeout: Duration) -> Option<String> {
        let deadline = banco_net::deadline_after(timeout);
        let (tx, rx) = mpsc::channel();
        let lobby_scanning = {
            let mut scan = lock(&self.events.scan);
            scan.hunt = Some(tx);
            scan.listener.is_some()
        };
        let mut found = None;
        if lobby_scanning || call(|| self.central.scan(ble_service())).is_ok() {
            let mut checked = HashSet::new();
            while let Some(left) = deadline.checked_duration_since(Instant::now()) {
                let Ok(device) = rx.recv_timeout(left) else {
                    break;
                };
                if !checked.insert(device.clone()) {
                    continue;
                }
                let known = lock(&self.events.fingerprints).get(&device).cloned();
                let seen = match known {
                    Some(fp) => Some(fp),
                    None => read_info(&self.central, &self.events, &device)
                        .ok()
                        .map(|p| p.fingerprint),
                };
                if seen.as_deref() == Some(fingerprint) {
                    found = Some(device);
                    break;
                }
            }
        }
        let lobby_scanning = {
            let mut scan = lock(&self.events.scan);
            scan.hunt = None;
            scan.listener.is_some()
        };
        if !lobby_scanning {
            notify(|| self.central.stop_scan());
        }
        found
    }
}

/// The guest's Bluetooth: the shell's [`BleCentral`], started once; scans for hosts and
/// joins them with [`Match::join_ble`].
#[derive(uniffi::Object)]
pub struct BleGuest {
    central: Arc<dyn BleCentral>,
    events: Arc<BleCentralEvents>,
}

/// Reads one device's info through the shell.
fn read_info(
    central: &Arc<dyn BleCentral>,
    events: &BleCentralEvents,
    device: &str,
) -> Result<BlePeer, String> {
    let (tx, rx) = mpsc::channel();
    lock(&events.infos).insert(device.to_owned(), tx);
    if let Err(e) = call(|| central.read_info(device.to_owned())) {
        lock(&events.infos).remove(device);
        return Err(e.to_string());
    }
    let Ok(answer) = rx.recv_timeout(INFO_TIMEOUT) else {
        lock(&events.infos).remove(device);
        return Err(String::from("its info could not be read in time"));
    };
    let value = answer?;
    let ad = decode_info(&value).map_err(|e| e.to_string())?;
    lock(&events.fingerprints).insert(device.to_owned(), ad.fingerprint.clone());
    Ok(BlePeer {
        device: device.to_owned(),
        name: ad.name,
        games: ad.games.into_iter().map(GameKind::from).collect(),
        protocol_version: ad.protocol_version,
        fingerprint: ad.fingerprint,
    })
}

#[uniffi::export]
impl BleGuest {
    /// Starts the shell's central (it reports the adapter's state first).
    #[uniffi::constructor]
    pub fn new(central: Arc<dyn BleCentral>) -> Result<Arc<BleGuest>, BancoError> {
        guard(|| {
            let hub = CentralHub::new(Arc::new(ForeignCentral(Arc::clone(&central))));
            let events = Arc::new(BleCentralEvents {
                hub,
                scan: Mutex::new(Scan::default()),
                infos: Mutex::new(HashMap::new()),
                fingerprints: Mutex::new(HashMap::new()),
            });
            call(|| central.start(Arc::clone(&events)))?;
            Ok(Arc::new(BleGuest { central, events }))
        })
    }

    /// Scans for Banco hosts: each one's info is read (one at a time) and reported to
    /// `listener`. Scanning again replaces the listener and reports every host again.
    pub fn scan(&self, listener: Arc<dyn BleScanListener>) -> Result<(), BancoError> {
        guard(|| self.scan_with(listener, None))
    }

    /// Stops scanning.
    pub fn stop_scan(&self) -> Result<(), BancoError> {
        guard(|| {
            let hunting = {
                let mut scan = lock(&self.events.scan);
                let hunt = scan.hunt.take();
                *scan = Scan {
                    hunt,
                    ..Scan::default()
                };
                scan.hunt.is_some()
            };
            // A reconnecting match still needs the radio scanning; it stops it when done.
            if !hunting {
                notify(|| self.central.stop_scan());
            }
            Ok(())
        })
    }

    /// What to tell the player about Bluetooth now (`null`/`nil` when it is usable).
    pub fn adapter_message(&self) -> Option<String> {
        self.events.hub.adapter().message().map(str::to_owned)
    }
}

impl BleGuest {
    /// The way to the host `device` and the key fingerprint its info gave, if read: when
    /// it was read, every later attempt looks for the host again by that fingerprint
    /// (phones rotate their Bluetooth addresses), else it dials `device`.
    pub(crate) fn route_to(&self, device: &str) -> (Box<dyn Connector>, Option<String>) {
        let fingerprint = lock(&self.events.fingerprints)
            .get(device)
            .filter(|fp| !fp.is_empty())
            .cloned();
        let dialer = match &fingerprint {
            Some(fp) => {
                let finder = Arc::new(Rescan {
                    central: Arc::clone(&self.central),
                    events: Arc::clone(&self.events),
                });
                self.events.hub.dialer_by_fingerprint(device, fp, finder)
            }
            None => self.events.hub.dialer(device),
        };
        (Box::new(dialer), fingerprint)
    }

    /// [`BleGuest::scan`], telling `seen_hook` of every advertisement of a host already
    /// listed (the [`NearbyLobby`](crate::NearbyLobby) keeps hosts fresh with it, and has
    /// a host it dropped as stale read again).
    pub(crate) fn scan_with(
        &self,
        listener: Arc<dyn BleScanListener>,
        seen_hook: Option<SeenHook>,
    ) -> Result<(), BancoError> {
        let (tx, rx) = mpsc::channel::<String>();
        {
            let mut scan = lock(&self.events.scan);
            let hunt = scan.hunt.take();
            *scan = Scan {
                listener: Some(Arc::clone(&listener)),
                seen_hook,
                seen: HashMap::new(),
                queue: Some(tx),
                hunt,
            };
        }
        let central = Arc::clone(&self.central);
        let events = Arc::clone(&self.events);
        std::thread::Builder::new()
            .name("banco-ble-scan".into())
            .spawn(move || {
                // Ends when the scan is stopped or replaced (its queue dropped).
                while let Ok(device) = rx.recv() {
                    let read = read_info(&central, &events, &device);
                    let sighting = match &read {
                        Ok(_) => Sighting::Listed,
                        Err(_) => Sighting::Failed,
                    };
                    let current = {
                        let mut scan = lock(&events.scan);
                        let current = scan
                            .listener
                            .as_ref()
                            .is_some_and(|l| Arc::ptr_eq(l, &listener));
                        if current {
                            scan.seen.insert(device.clone(), sighting);
                        }
                        current
                    };
                    if !current {
                        continue;
                    }
                    match read {
                        Ok(peer) => notify(|| listener.on_peer_found(peer)),
                        Err(e) => notify(|| {
                            listener.on_error(format!("Bluetooth device {device}: {e}"));
                        }),
                    }
                }
            })
            .map_err(|e| BancoError::Internal(format!("cannot start the scan thread: {e}")))?;
        Ok(call(|| self.central.scan(ble_service()))?)
    }
}

#[uniffi::export]
impl Match {
    /// Hosts a match over Bluetooth LE: `peripheral` (the shell's GATT server) advertises
    /// the Banco service under `player_name` with the games `offers` (empty: every game);
    /// with `proposal`, that game is proposed once a guest confirmed the code. `trust` as
    /// in [`Match::host`]. Everything after is the same as a LAN match (`address()` is
    /// "Bluetooth LE"); leaving stops the peripheral.
    #[uniffi::constructor(default(trust = None))]
    pub fn host_ble(
        player_name: String,
        peripheral: Arc<dyn BlePeripheral>,
        offers: Vec<GameKind>,
        proposal: Option<MatchOffer>,
        listener: Arc<dyn MatchListener>,
        trust: Option<Vec<u8>>,
    ) -> Result<Arc<Match>, BancoError> {
        guard(|| {
            let unused = std::net::SocketAddr::from(([0, 0, 0, 0], 0));
            let mut options = HostOptions::new(&player_name, unused, kinds(&offers));
            options.advertise = false;
            options.trust = trust_of(trust)?;
            if let Some(p) = &proposal {
                options = proposing(options, p)?;
            }
            let inner = NetMatch::host_with(
                options,
                "Bluetooth LE",
                |ad| advertise_ble(peripheral, ad).map_err(|e| e.to_string()),
                Arc::new(Relay(listener)),
            )?;
            Ok(Arc::new(Match { inner }))
        })
    }

    /// Hosts a match on the LAN (as [`Match::host`]) and, with `peripheral`, over Bluetooth
    /// LE at the same time (as [`Match::host_ble`]): one match, one key, so a
    /// [`NearbyLobby`](crate::NearbyLobby) shows the host once, and the guest comes by
    /// whichever way it found the host — and after a cut may come back the other way.
    /// `address()` is the LAN address.
    ///
    /// It opens what it can: when the peripheral cannot start (Bluetooth off, permission
    /// missing, no advertising on this phone) the match is hosted on the LAN alone. Without
    /// `peripheral` it is hosted on the LAN alone too, and `bluetooth_unavailable` (the
    /// shell's reason for not passing one: the gate's message) is why Bluetooth is not
    /// open. [`Match::hosting`] tells the screen where it is open and why not elsewhere.
    #[uniffi::constructor(default(trust = None))]
    #[allow(clippy::too_many_arguments)]
    pub fn host_nearby(
        player_name: String,
        listen_address: String,
        advertise: bool,
        peripheral: Option<Arc<dyn BlePeripheral>>,
        bluetooth_unavailable: Option<String>,
        offers: Vec<GameKind>,
        proposal: Option<MatchOffer>,
        listener: Arc<dyn MatchListener>,
        trust: Option<Vec<u8>>,
    ) -> Result<Arc<Match>, BancoError> {
        let reason = match (&peripheral, bluetooth_unavailable) {
            (None, None) => {
                return Match::host(
                    player_name,
                    listen_address,
                    advertise,
                    offers,
                    proposal,
                    listener,
                    trust,
                );
            }
            (_, reason) => reason,
        };
        guard(|| {
            let options = host_options(
                &player_name,
                &listen_address,
                advertise,
                &offers,
                proposal.as_ref(),
                trust,
            )?;
            let also = match (peripheral, reason) {
                (Some(p), _) => Ok(p),
                (None, reason) => Err(reason.unwrap_or_default()),
            }
            .map(|p| move |ad: &_| advertise_ble(p, ad).map_err(|e| e.to_string()));
            let inner = NetMatch::host_also(options, also, Arc::new(Relay(listener)))?;
            Ok(Arc::new(Match { inner }))
        })
    }

    /// Joins the host `device` (a [`BlePeer`]'s device) through `guest`, with the stored
    /// `trust` (see [`Match::host`]). The link is made again after every cut: when `guest`
    /// has read the host's info (it was scanned), by scanning for the host's key
    /// fingerprint first — phones rotate their Bluetooth addresses — else to `device`.
    /// That fingerprint is also checked in the handshake: a device that copied it into its
    /// own info but has another key is refused before any code is shown, and the match
    /// ends with `Closed` saying that it is not the player listed.
    #[uniffi::constructor(default(trust = None))]
    pub fn join_ble(
        player_name: String,
        guest: Arc<BleGuest>,
        device: String,
        listener: Arc<dyn MatchListener>,
        trust: Option<Vec<u8>>,
    ) -> Result<Arc<Match>, BancoError> {
        guard(|| {
            let trust = trust_of(trust)?;
            let (dialer, fingerprint) = guest.route_to(&device);
            let inner = NetMatch::join_with(
                &player_name,
                dialer,
                fingerprint.as_deref(),
                &[],
                trust,
                Arc::new(Relay(listener)),
            )?;
            Ok(Arc::new(Match { inner }))
        })
    }
}

#[cfg(test)]
#[path = "ble_tests.rs"]
mod tests;
