//! The host's side of Bluetooth LE on Linux (feature `ble`): a GATT peripheral with
//! [bluer](https://docs.rs/bluer), BlueZ's own crate. It registers a GATT application with
//! the [Banco service](super::gatt) (write, notify and info characteristics) and an LE
//! advertisement of the service UUID, then hands out one [`BleLink`] per central that
//! subscribes to the notify characteristic.
//!
//! ```no_run
//! use banco_game::GameKind;
//! use banco_net::Link;
//! use banco_net::ble::peripheral::BlePeripheral;
//! use banco_net::discovery::Advertisement;
//! use std::time::Duration;
//!
//! let ad = Advertisement::new("Alice", vec![GameKind::Xiangqi], 1, "a1b2c3d4");
//! let host = BlePeripheral::start(&ad)?;
//! if let Some(link) = host.accept(Some(Duration::from_secs(60)))? {
//!     let hello = link.recv(Some(Duration::from_secs(5)))?;
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **One guest at a time, by design of BlueZ's API.** BlueZ's D-Bus GATT server
//! (`org.bluez.GattCharacteristic1`, which bluer wraps) has no per-device notification:
//! BlueZ calls `StartNotify` once when the first device subscribes and `StopNotify` when the
//! last one leaves, and a value the application notifies (bluer's `CharacteristicNotifier`,
//! or the `AcquireNotify` socket) goes to *every* subscribed device. The application is
//! not even told which devices subscribed. Two links over one notify characteristic would
//! therefore each see the other's fragments, so a second guest's handshake cannot run in
//! parallel with the first (as #16 requires of TCP, and as the phones' hub does: Android's
//! `notifyCharacteristicChanged(device, …)` and iOS's `updateValue(…, onSubscribedCentrals:)`
//! address one central). Instead the link belongs to the first device that writes after
//! the subscription; writes from any other device are dropped, so a stranger can neither
//! splice fragments into the guest's link nor take it over, and it waits until the guest
//! is gone. A new notification session (the guest reconnected) replaces the old link, which
//! reports a reset. Android and iOS hosts implement the same service in the shells, behind
//! the FFI's `BlePeripheral` foreign trait.

use std::sync::atomic::{AtomicBool, AtomicU16, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use bluer::adv::{Advertisement as LeAdvertisement, AdvertisementHandle, Type};
use bluer::gatt::local::{
    Application, ApplicationHandle, Characteristic, CharacteristicNotify,
    CharacteristicNotifyMethod, CharacteristicRead, CharacteristicWrite, CharacteristicWriteMethod,
    ReqError, Service,
};
use futures_util::FutureExt;
use tokio::sync::mpsc as tmpsc;
use uuid::Uuid;

use super::gatt::{
    DEFAULT_ATT_MTU, INFO_UUID, NOTIFY_UUID, SERVICE_UUID, WRITE_UUID, att_payload, local_name,
};
use super::info::encode_info;
use super::stack::{BleError, BleRuntime, Down, Inbox, InboxTx, block_on_timeout};
use super::{AttPipe, BleLink};
use crate::discovery::Advertisement;
use crate::driver::{Connector, Role};
use crate::error::LinkError;
use crate::link::BoxLink;

fn stack(e: bluer::Error) -> BleError {
    match e.kind {
        bluer::ErrorKind::NotFound => BleError::NoAdapter,
        bluer::ErrorKind::NotAuthorized | bluer::ErrorKind::NotPermitted => {
            BleError::PermissionDenied
        }
        bluer::ErrorKind::NotReady => BleError::PoweredOff,
        _ => BleError::Stack(e.to_string()),
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The state of the connection of one subscribed central.
struct Connection {
    feed: InboxTx,
    mtu: Arc<AtomicU16>,
    device: Arc<Mutex<Option<bluer::Address>>>,
}

/// What the GATT callbacks share with the peripheral.
struct Shared {
    current: Mutex<Option<Connection>>,
    links: Mutex<Sender<PeripheralPipe>>,
    adapter: bluer::Adapter,
}

/// A GATT peripheral serving the Banco service on the default adapter, advertising it until
/// dropped. See the [module docs](self).
pub struct BlePeripheral {
    // Dropped first: unregisters the advertisement and the application.
    _adv: AdvertisementHandle,
    _app: ApplicationHandle,
    links: Mutex<Receiver<PeripheralPipe>>,
    adapter_name: String,
    _rt: Arc<BleRuntime>,
}

impl std::fmt::Debug for BlePeripheral {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlePeripheral")
            .field("adapter", &self.adapter_name)
            .finish_non_exhaustive()
    }
}

impl BlePeripheral {
    /// Registers the Banco GATT application (its info characteristic serving `ad`) and
    /// advertises it on the default adapter.
    pub fn start(ad: &Advertisement) -> Result<BlePeripheral, BleError> {
        let rt = Arc::new(BleRuntime::new()?);
        let info = Arc::new(encode_info(ad));
        let name = local_name(&ad.display_name());
        let (tx, rx) = mpsc::channel();
        let handle = rt.handle().clone();
        let (app, adv, adapter_name) =
            block_on_timeout(rt.handle(), Duration::from_secs(10), async move {
                let session = bluer::Session::new().await.map_err(stack)?;
                let adapter = session.default_adapter().await.map_err(stack)?;
                if !adapter.is_powered().await.map_err(stack)? {
                    return Err(BleError::PoweredOff);
                }
                let shared = Arc::new(Shared {
                    current: Mutex::new(None),
                    links: Mutex::new(tx),
                    adapter: adapter.clone(),
                });
                let app = adapter
                    .serve_gatt_application(application(&shared, &info, handle))
                    .await
                    .map_err(stack)?;
                let adv = adapter
                    .advertise(LeAdvertisement {
                        advertisement_type: Type::Peripheral,
                        service_uuids: [Uuid::from_u128(SERVICE_UUID)].into(),
                        local_name: Some(name),
                        discoverable: Some(true),
                        ..LeAdvertisement::default()
                    })
                    .await
                    .map_err(stack)?;
                Ok((app, adv, adapter.name().to_owned()))
            })?;
        Ok(BlePeripheral {
            _adv: adv,
            _app: app,
            links: Mutex::new(rx),
            adapter_name,
            _rt: rt,
        })
    }

    /// The adapter serving (`hci0`).
    pub fn adapter_name(&self) -> &str {
        &self.adapter_name
    }

    /// Waits for a central to subscribe: `Ok(None)` when `timeout` passes first.
    pub fn accept(
        &self,
        timeout: Option<Duration>,
    ) -> Result<Option<BleLink<PeripheralPipe>>, LinkError> {
        let links = lock(&self.links);
        let pipe = match timeout {
            None => links.recv().map_err(|_| LinkError::Closed)?,
            Some(t) => match links.recv_timeout(t) {
                Ok(p) => p,
                Err(mpsc::RecvTimeoutError::Timeout) => return Ok(None),
                Err(mpsc::RecvTimeoutError::Disconnected) => return Err(LinkError::Closed),
            },
        };
        Ok(Some(BleLink::new(pipe)))
    }

    /// A connector for a [`Driver`](crate::driver::Driver): every link is the next central
    /// that subscribes.
    pub fn acceptor(self: &Arc<Self>) -> BleAcceptor {
        BleAcceptor {
            peripheral: Arc::clone(self),
        }
    }
}

/// True when a write from `from` belongs to the connection whose device is `owner`: the
/// first device that writes after subscribing owns the link, and a stranger's writes are
/// dropped instead of being spliced into the guest's fragments (BlueZ notifies every
/// subscribed device alike, so one guest is served at a time; a stranger cannot take over).
fn claims(owner: &Mutex<Option<bluer::Address>>, from: bluer::Address) -> bool {
    *lock(owner).get_or_insert(from) == from
}

/// The GATT application: the Banco service with its three characteristics.
fn application(
    shared: &Arc<Shared>,
    info: &Arc<Vec<u8>>,
    rt: tokio::runtime::Handle,
) -> Application {
    let info = Arc::clone(info);
    let read = CharacteristicRead {
        read: true,
        fun: Box::new(move |req| {
            let from = usize::from(req.offset).min(info.len());
            std::future::ready(Ok::<_, ReqError>(info[from..].to_vec())).boxed()
        }),
        ..CharacteristicRead::default()
    };
    let writes = Arc::clone(shared);
    let write = CharacteristicWrite {
        write: true,
        write_without_response: true,
        method: CharacteristicWriteMethod::Fun(Box::new(move |value, req| {
            if let Some(c) = lock(&writes.current).as_ref()
                && claims(&c.device, req.device_address)
            {
                c.mtu.store(req.mtu, Ordering::Relaxed);
                c.feed.chunk(value);
            }
            std::future::ready(Ok::<_, ReqError>(())).boxed()
        })),
        ..CharacteristicWrite::default()
    };
    let subscribes = Arc::clone(shared);
    let notify = CharacteristicNotify {
        notify: true,
        method: CharacteristicNotifyMethod::Fun(Box::new(move |mut notifier| {
            let shared = Arc::clone(&subscribes);
            let inbox = Inbox::new();
            let feed = inbox.sender();
            let mtu = Arc::new(AtomicU16::new(DEFAULT_ATT_MTU));
            let device = Arc::new(Mutex::new(None));
            let (out_tx, mut out_rx) = tmpsc::unbounded_channel::<Vec<u8>>();
            let previous = lock(&shared.current).replace(Connection {
                feed: feed.clone(),
                mtu: Arc::clone(&mtu),
                device: Arc::clone(&device),
            });
            if let Some(old) = previous {
                old.feed.down(Down::Reset);
            }
            let pipe = PeripheralPipe {
                inbox,
                out: out_tx,
                mtu,
                device,
                adapter: shared.adapter.clone(),
                rt: rt.clone(),
                closed: AtomicBool::new(false),
            };
            let _ = lock(&shared.links).send(pipe);
            // StartNotify is answered once this returns: the session runs in a task.
            rt.spawn(async move {
                loop {
                    tokio::select! {
                        chunk = out_rx.recv() => match chunk {
                            Some(chunk) => {
                                if notifier.notify(chunk).await.is_err() {
                                    break;
                                }
                            }
                            None => break,
                        },
                        () = notifier.stopped() => break,
                    }
                }
                feed.down(Down::Reset);
            });
            async {}.boxed()
        })),
        ..CharacteristicNotify::default()
    };
    Application {
        services: vec![Service {
            uuid: Uuid::from_u128(SERVICE_UUID),
            primary: true,
            characteristics: vec![
                Characteristic {
                    uuid: Uuid::from_u128(WRITE_UUID),
                    write: Some(write),
                    ..Characteristic::default()
                },
                Characteristic {
                    uuid: Uuid::from_u128(NOTIFY_UUID),
                    notify: Some(notify),
                    ..Characteristic::default()
                },
                Characteristic {
                    uuid: Uuid::from_u128(INFO_UUID),
                    read: Some(read),
                    ..Characteristic::default()
                },
            ],
            ..Service::default()
        }],
        ..Application::default()
    }
}

/// The [`AttPipe`] of one subscribed central: its writes in, notifications out.
pub struct PeripheralPipe {
    inbox: Inbox,
    out: tmpsc::UnboundedSender<Vec<u8>>,
    mtu: Arc<AtomicU16>,
    device: Arc<Mutex<Option<bluer::Address>>>,
    adapter: bluer::Adapter,
    rt: tokio::runtime::Handle,
    closed: AtomicBool,
}

impl std::fmt::Debug for PeripheralPipe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PeripheralPipe")
            .field("device", &*lock(&self.device))
            .finish_non_exhaustive()
    }
}

impl AttPipe for PeripheralPipe {
    fn mtu_payload(&self) -> usize {
        att_payload(self.mtu.load(Ordering::Relaxed))
    }

    fn write(&self, chunk: &[u8]) -> Result<(), LinkError> {
        if self.closed.load(Ordering::Acquire) {
            return Err(LinkError::Closed);
        }
        self.out.send(chunk.to_vec()).map_err(|_| LinkError::Reset)
    }

    fn read(&self, timeout: Option<Duration>) -> Result<Option<Vec<u8>>, LinkError> {
        self.inbox.read(timeout)
    }

    fn close(&self) {
        if self.closed.swap(true, Ordering::AcqRel) {
            return;
        }
        self.inbox.down(Down::Closed);
        let device = (*lock(&self.device)).and_then(|addr| self.adapter.device(addr).ok());
        if let Some(device) = device {
            self.rt.spawn(async move {
                let _ = device.disconnect().await;
            });
        }
    }

    fn peer(&self) -> String {
        match *lock(&self.device) {
            Some(addr) => format!("ble {addr}"),
            None => String::from("ble central"),
        }
    }

    fn peer_device(&self) -> Option<String> {
        (*lock(&self.device)).map(|addr| addr.to_string())
    }
}

/// A [`Connector`] that takes every link from a [`BlePeripheral`].
#[derive(Debug)]
pub struct BleAcceptor {
    peripheral: Arc<BlePeripheral>,
}

impl Connector for BleAcceptor {
    fn role(&self) -> Role {
        Role::Responder
    }

    fn connect(&mut self, timeout: Duration) -> Result<BoxLink, LinkError> {
        match self.peripheral.accept(Some(timeout))? {
            Some(link) => Ok(Box::new(link)),
            None => Err(LinkError::Timeout),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_writer_owns_the_link_and_strangers_are_dropped() {
        let owner = Mutex::new(None);
        let guest = bluer::Address::new([0x0a, 0, 0, 0, 0, 1]);
        let stranger = bluer::Address::new([0x0b, 0, 0, 0, 0, 2]);
        assert!(claims(&owner, guest));
        assert!(claims(&owner, guest));
        assert!(!claims(&owner, stranger));
        assert_eq!(*lock(&owner), Some(guest));
    }
}
