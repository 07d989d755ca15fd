//! Whole xiangqi games over the hubs that the phones' Bluetooth stacks drive
//! (`ble::hub`): a simulated "air" plays the platform's part — the GATT server's callbacks
//! on the host, the GATT client's on the guest — with a busy stack (every few notifications
//! and writes refused until a ready callback), the adapter switched off and on again
//! mid-game, and a stranger subscribing to the host meanwhile; and a host whose Bluetooth
//! address rotates during a cut, found again by its key fingerprint. Both sides must end
//! with the same moves, each reported once, and the stranger must never take the guest's
//! link.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use banco_net::LinkError;
use banco_net::ble::gatt::WriteMode;
use banco_net::ble::hub::{
    AdapterState, CentralHub, CentralRadio, HostFinder, PeripheralHub, PeripheralRadio, Sent,
};
use banco_net::driver::DriverEvent;
use banco_protocol::Event;
use common::{finish, referee, spawn_pair};

/// The host's name for the guest, and the guest's for the host.
const GUEST: &str = "guest-central";
const HOST: &str = "host-device";

/// The platform of both phones at once: what one side sends, the other's hub hears.
struct Air {
    host: OnceLock<Arc<PeripheralHub>>,
    guest: OnceLock<Arc<CentralHub>>,
    mtu: u16,
    /// Every `busy_every`-th send is refused as busy, and a ready callback follows.
    busy_every: u64,
    sends: AtomicU64,
    busy: AtomicU64,
    /// Whether the guest's adapter is on (connects fail while it is off).
    guest_on: Mutex<bool>,
    /// The host's Bluetooth address now (phones rotate it).
    address: Mutex<String>,
}

impl Air {
    fn new(mtu: u16, busy_every: u64) -> Arc<Air> {
        let air = Arc::new(Air {
            host: OnceLock::new(),
            guest: OnceLock::new(),
            mtu,
            busy_every,
            sends: AtomicU64::new(0),
            busy: AtomicU64::new(0),
            guest_on: Mutex::new(true),
            address: Mutex::new(HOST.to_owned()),
        });
        let host = PeripheralHub::new(Arc::new(HostRadio(Arc::clone(&air))));
        let guest = CentralHub::new(Arc::new(GuestRadio(Arc::clone(&air))));
        assert!(air.host.set(host).is_ok());
        assert!(air.guest.set(guest).is_ok());
        air
    }

    fn host(&self) -> &Arc<PeripheralHub> {
        self.host.get().unwrap()
    }

    fn guest(&self) -> &Arc<CentralHub> {
        self.guest.get().unwrap()
    }

    /// True when this send must be refused as busy; the stack "drains" a moment later and
    /// calls `ready` from its own thread, as Android and iOS do.
    fn refuse(&self, ready: impl FnOnce() + Send + 'static) -> bool {
        let n = self.sends.fetch_add(1, Ordering::Relaxed) + 1;
        if !n.is_multiple_of(self.busy_every) {
            return false;
        }
        self.busy.fetch_add(1, Ordering::Relaxed);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(2));
            ready();
        });
        true
    }

    fn address(&self) -> String {
        self.address.lock().unwrap().clone()
    }

    /// The host's address changes: the connection drops and the old address is gone.
    fn rotate(&self, to: &str) {
        let old = std::mem::replace(&mut *self.address.lock().unwrap(), to.to_owned());
        self.host().unsubscribed(GUEST);
        self.guest().disconnected(&old);
    }

    /// The guest's adapter goes off: both stacks see the connection drop.
    fn guest_adapter(&self, on: bool) {
        *self.guest_on.lock().unwrap() = on;
        if on {
            self.guest().adapter_changed(AdapterState::On);
        } else {
            self.guest().adapter_changed(AdapterState::Off);
            self.host().unsubscribed(GUEST);
            self.guest().disconnected(&self.address());
        }
    }
}

/// The guest's scanner: sees the host at its current address while the adapter is on.
struct Scanner {
    air: Arc<Air>,
    finds: AtomicU64,
}

impl HostFinder for Scanner {
    fn find(&self, fingerprint: &str, timeout: Duration) -> Option<String> {
        assert!(timeout > Duration::ZERO);
        self.finds.fetch_add(1, Ordering::Relaxed);
        let on = *self.air.guest_on.lock().unwrap();
        (on && fingerprint == HOST_FINGERPRINT).then(|| self.air.address())
    }
}

const HOST_FINGERPRINT: &str = "a1b2c3d4e5f60718";

struct HostRadio(Arc<Air>);

impl PeripheralRadio for HostRadio {
    fn notify(&self, central: &str, value: &[u8]) -> Result<Sent, LinkError> {
        let air = Arc::clone(&self.0);
        if self.0.refuse(move || air.host().ready()) {
            return Ok(Sent::Busy);
        }
        if central == GUEST {
            self.0.guest().notified(&self.0.address(), value.to_vec());
        }
        Ok(Sent::Queued)
    }

    fn disconnect(&self, central: &str) {
        self.0.host().unsubscribed(central);
        if central == GUEST {
            self.0.guest().disconnected(&self.0.address());
        }
    }
}

struct GuestRadio(Arc<Air>);

impl CentralRadio for GuestRadio {
    fn connect(&self, device: &str) -> Result<(), LinkError> {
        let air = Arc::clone(&self.0);
        let device = device.to_owned();
        // The platform connects, exchanges the MTU, subscribes, then calls back.
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(3));
            if !*air.guest_on.lock().unwrap() {
                air.guest().connect_failed(&device, "adapter off");
                return;
            }
            if device != air.address() {
                air.guest()
                    .connect_failed(&device, "GATT error 133 (no such device)");
                return;
            }
            air.host().subscribed(GUEST, air.mtu);
            air.guest().connected(&device, air.mtu);
        });
        Ok(())
    }

    fn write(&self, device: &str, value: &[u8], _mode: WriteMode) -> Result<Sent, LinkError> {
        if device != self.0.address() {
            // Into the void: that address is gone.
            return Ok(Sent::Queued);
        }
        let air = Arc::clone(&self.0);
        if self.0.refuse(move || air.guest().write_ready()) {
            return Ok(Sent::Busy);
        }
        self.0.host().written(GUEST, value.to_vec());
        Ok(Sent::Queued)
    }

    fn disconnect(&self, device: &str) {
        self.0.guest().disconnected(device);
        self.0.host().unsubscribed(GUEST);
    }
}

#[test]
fn game_over_the_hubs_with_a_busy_stack_an_adapter_off_and_a_stranger() {
    let air = Air::new(23, 7);
    let (drivers, events) = spawn_pair(air.host().acceptor(), air.guest().dialer(HOST));
    let mut off_at = None;
    let mut stranger_at = None;
    let mut adapter_errors = 0;
    let mut strangers_turned_away = 0;
    let mut played = 0;
    let report = referee(
        &drivers,
        &events,
        42,
        Duration::from_secs(120),
        |side, e| match e {
            DriverEvent::Session(Event::MovePlayed { ply, .. }) if side == 0 => {
                played += 1;
                if *ply == 20 && off_at.is_none() {
                    off_at = Some(*ply);
                    air.guest_adapter(false);
                    // Back after the guest has failed to reconnect a few times.
                    let air = Arc::clone(&air);
                    std::thread::spawn(move || {
                        std::thread::sleep(Duration::from_millis(400));
                        air.guest_adapter(true);
                    });
                }
                if *ply == 40 && stranger_at.is_none() {
                    // A stranger subscribes and writes garbage and a fake frame start.
                    stranger_at = Some(*ply);
                    air.host().subscribed("stranger", 23);
                    assert!(air.host().written("stranger", vec![0xc0, 1, 2, 3]));
                    // The host may already have turned the stranger away after the first
                    // write (its link then refuses more); either way it is vetted once.
                    let _ = air.host().written("stranger", vec![0x81; 20]);
                }
            }
            DriverEvent::Reconnecting { error, .. } if error.contains("Bluetooth is off") => {
                adapter_errors += 1;
            }
            DriverEvent::AttemptAborted { peer, .. } if peer == "ble stranger" => {
                strangers_turned_away += 1;
            }
            _ => {}
        },
    );
    assert!(report.bad.is_empty(), "{:?}", report.bad);
    let [a, b] = &report.results;
    assert!(a.is_some());
    assert_eq!(a, b, "both sides end with the same result");
    assert_eq!(report.moves[0], report.moves[1], "both sides, same moves");
    assert_eq!(
        off_at,
        Some(20),
        "the game was long enough for the adapter to go off"
    );
    assert_eq!(stranger_at, Some(40), "and for the stranger to come");
    assert!(report.resumed >= 1, "{report:?}");
    assert!(
        adapter_errors >= 1,
        "reconnecting while the adapter was off said so"
    );
    assert_eq!(
        strangers_turned_away, 1,
        "the host vetted the stranger's link"
    );
    assert!(air.busy.load(Ordering::Relaxed) > 10, "the stack was busy");
    eprintln!(
        "plies {} disconnects {} resumed {} busy {} of {} sends, adapter errors {adapter_errors}, moves seen {played}",
        report.moves[0].len(),
        report.disconnects,
        report.resumed,
        air.busy.load(Ordering::Relaxed),
        air.sends.load(Ordering::Relaxed)
    );
    finish(drivers, &events, true);
}

#[test]
fn a_guest_finds_its_host_again_by_fingerprint_when_its_address_rotates() {
    let air = Air::new(185, 11);
    let scanner = Arc::new(Scanner {
        air: Arc::clone(&air),
        finds: AtomicU64::new(0),
    });
    let dialer = air
        .guest()
        .dialer_by_fingerprint(HOST, HOST_FINGERPRINT, scanner.clone());
    let (drivers, events) = spawn_pair(air.host().acceptor(), dialer);
    let mut rotated = 0;
    let mut no_such_device = 0;
    let report = referee(
        &drivers,
        &events,
        7,
        Duration::from_secs(120),
        |side, e| match e {
            DriverEvent::Session(Event::MovePlayed { ply, .. }) if side == 0 => {
                // A cut with a new address; then one with the adapter off meanwhile.
                if *ply == 16 && rotated == 0 {
                    rotated = 1;
                    air.rotate("host-device-2");
                }
                if *ply == 36 && rotated == 1 {
                    rotated = 2;
                    air.guest_adapter(false);
                    air.rotate("host-device-3");
                    let air = Arc::clone(&air);
                    std::thread::spawn(move || {
                        std::thread::sleep(Duration::from_millis(300));
                        air.guest_adapter(true);
                    });
                }
            }
            DriverEvent::Reconnecting { error, .. } if error.contains("no such device") => {
                no_such_device += 1;
            }
            _ => {}
        },
    );
    assert!(report.bad.is_empty(), "{:?}", report.bad);
    let [a, b] = &report.results;
    assert!(a.is_some());
    assert_eq!(a, b, "both sides end with the same result");
    assert_eq!(report.moves[0], report.moves[1], "both sides, same moves");
    assert_eq!(rotated, 2, "the game was long enough for both cuts");
    assert!(report.resumed >= 2, "{report:?}");
    assert!(scanner.finds.load(Ordering::Relaxed) >= 2);
    assert_eq!(
        no_such_device, 0,
        "never dialled a gone address: the scan found the new one first"
    );
    finish(drivers, &events, true);
}

#[test]
fn without_a_fingerprint_a_rotated_host_is_dialled_at_its_gone_address() {
    // The control: the plain dialer keeps the old id and cannot get back.
    let air = Air::new(185, 1_000);
    let mut dialer = air.guest().dialer(HOST);
    let link = banco_net::driver::Connector::connect(&mut dialer, Duration::from_secs(2));
    assert!(link.is_ok());
    air.rotate("host-device-2");
    let again = banco_net::driver::Connector::connect(&mut dialer, Duration::from_secs(2));
    let e = again.err().expect("the old address is gone").to_string();
    assert!(e.contains("no such device"), "{e}");
    // By fingerprint, the second attempt scans and connects to the new address.
    let scanner = Arc::new(Scanner {
        air: Arc::clone(&air),
        finds: AtomicU64::new(0),
    });
    let mut dialer = air
        .guest()
        .dialer_by_fingerprint(HOST, HOST_FINGERPRINT, scanner.clone());
    assert_eq!(dialer.device(), HOST);
    let e = banco_net::driver::Connector::connect(&mut dialer, Duration::from_secs(2));
    assert!(e.is_err(), "the first attempt trusts the id it was given");
    assert_eq!(scanner.finds.load(Ordering::Relaxed), 0);
    let link = banco_net::driver::Connector::connect(&mut dialer, Duration::from_secs(2));
    assert!(link.is_ok());
    assert_eq!(dialer.device(), "host-device-2");
    assert_eq!(scanner.finds.load(Ordering::Relaxed), 1);
}
