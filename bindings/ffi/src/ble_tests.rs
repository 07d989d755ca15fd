//! A whole match over the BLE foreign traits, implemented here by test doubles that pipe
//! ATT values between a "host phone" and a "guest phone" in one process — the same doubles
//! the Kotlin and Swift tests write in their languages.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::*;
use crate::NearbyTransport;
use crate::net::{MatchEvent, MatchPhase};
use crate::tests_match::{listener, next};
use crate::types::{Color, Outcome, WinReason};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

const HOST_DEVICE: &str = "AA:BB:CC:00:00:01";
const GUEST_CENTRAL: &str = "guest-phone";

/// Both phones' radios.
#[derive(Default)]
struct Air {
    peripheral_events: Mutex<Option<Arc<BlePeripheralEvents>>>,
    central_events: OnceLock<Arc<BleCentralEvents>>,
    advertised: Mutex<Option<BleAdvertisement>>,
    starts: AtomicU32,
    stopped: AtomicBool,
    /// Every third notification is refused as busy first.
    notifies: AtomicU32,
    mtu: u16,
}

impl Air {
    /// Fresh air whose links negotiate `mtu`.
    fn with_mtu(mtu: u16) -> Arc<Air> {
        Arc::new(Air {
            mtu,
            ..Air::default()
        })
    }

    fn host(&self) -> Arc<BlePeripheralEvents> {
        lock(&self.peripheral_events).clone().expect("started")
    }
    fn guest(&self) -> &Arc<BleCentralEvents> {
        self.central_events.get().expect("started")
    }
}

struct PipePeripheral(Arc<Air>);

impl BlePeripheral for PipePeripheral {
    fn start(
        &self,
        ad: BleAdvertisement,
        events: Arc<BlePeripheralEvents>,
    ) -> Result<(), BleError> {
        self.0.starts.fetch_add(1, Ordering::SeqCst);
        *lock(&self.0.advertised) = Some(ad);
        *lock(&self.0.peripheral_events) = Some(events);
        Ok(())
    }
    fn notify(&self, central: String, value: Vec<u8>) -> Result<bool, BleError> {
        assert_eq!(central, GUEST_CENTRAL);
        if self.0.notifies.fetch_add(1, Ordering::SeqCst) % 3 == 2 {
            let host = self.0.host();
            std::thread::spawn(move || host.on_ready_to_notify());
            return Ok(false);
        }
        self.0.guest().on_notification(HOST_DEVICE.into(), value);
        Ok(true)
    }
    fn disconnect(&self, central: String) {
        self.0.host().on_unsubscribed(central);
        self.0.guest().on_disconnected(HOST_DEVICE.into());
    }
    fn stop(&self) {
        self.0.stopped.store(true, Ordering::SeqCst);
    }
}

struct PipeCentral(Arc<Air>);

impl BleCentral for PipeCentral {
    fn start(&self, events: Arc<BleCentralEvents>) -> Result<(), BleError> {
        events.on_adapter_state(BleAdapterState::On);
        assert!(self.0.central_events.set(events).is_ok());
        Ok(())
    }
    fn scan(&self, service: BleService) -> Result<(), BleError> {
        let ad = lock(&self.0.advertised).clone();
        if let Some(ad) = ad.filter(|ad| ad.service == service) {
            self.0.guest().on_discovered("stranger-tv".into(), None);
            self.0
                .guest()
                .on_discovered(HOST_DEVICE.into(), Some(ad.local_name));
            self.0.guest().on_discovered(HOST_DEVICE.into(), None);
        }
        Ok(())
    }
    fn stop_scan(&self) {}
    fn read_info(&self, device: String) -> Result<(), BleError> {
        let events = Arc::clone(self.0.guest());
        match lock(&self.0.advertised).clone() {
            Some(ad) if device == HOST_DEVICE => events.on_info(device, ad.info),
            _ => events.on_info_failed(device, "GATT error 133".into()),
        }
        Ok(())
    }
    fn connect(&self, device: String) -> Result<(), BleError> {
        assert_eq!(device, HOST_DEVICE);
        let air = Arc::clone(&self.0);
        std::thread::spawn(move || {
            air.host().on_subscribed(GUEST_CENTRAL.into(), 23);
            air.host().on_mtu_changed(GUEST_CENTRAL.into(), air.mtu);
            air.guest().on_connected(HOST_DEVICE.into(), air.mtu);
        });
        Ok(())
    }
    fn write(
        &self,
        device: String,
        value: Vec<u8>,
        _with_response: bool,
    ) -> Result<bool, BleError> {
        assert_eq!(device, HOST_DEVICE);
        self.0.host().on_write(GUEST_CENTRAL.into(), value);
        Ok(true)
    }
    fn disconnect(&self, device: String) {
        self.0.guest().on_disconnected(device);
        self.0.host().on_unsubscribed(GUEST_CENTRAL.into());
    }
}

struct Found(Mutex<Sender<Result<BlePeer, String>>>);

impl BleScanListener for Found {
    fn on_peer_found(&self, peer: BlePeer) {
        let _ = lock(&self.0).send(Ok(peer));
    }
    fn on_error(&self, message: String) {
        let _ = lock(&self.0).send(Err(message));
    }
}

#[test]
fn a_chess_match_crosses_the_foreign_ble_traits() {
    let air = Air::with_mtu(23);
    let (host_events, host_rx) = listener();
    let chess = MatchOffer {
        game: GameKind::Chess,
        your_color: Color::Red,
        rules: None,
        start_fen: None,
        clock: None,
        race: None,
    };
    let host = Match::host_ble(
        "An".into(),
        Arc::new(PipePeripheral(Arc::clone(&air))),
        vec![],
        Some(chess),
        host_events,
        None,
    )
    .unwrap();
    assert_eq!(host.address().unwrap(), "Bluetooth LE");
    let ad = lock(&air.advertised).clone().unwrap();
    assert_eq!(ad.local_name, "Banco An");
    assert_eq!(ad.service, ble_service());

    // The guest scans: the host is listed once with its info; the stranger's info fails.
    let guest_radio = BleGuest::new(Arc::new(PipeCentral(Arc::clone(&air)))).unwrap();
    assert_eq!(guest_radio.adapter_message(), None);
    let (tx, found) = mpsc::channel();
    guest_radio.scan(Arc::new(Found(Mutex::new(tx)))).unwrap();
    let mut results: Vec<Result<BlePeer, String>> = (0..2)
        .map(|_| found.recv_timeout(Duration::from_secs(10)).unwrap())
        .collect();
    results.sort_by_key(Result::is_ok);
    let err = results[0].clone().unwrap_err();
    assert!(err.contains("stranger-tv") && err.contains("133"), "{err}");
    let peer = results[1].clone().unwrap();
    assert_eq!(peer.device, HOST_DEVICE);
    assert_eq!(peer.name, "An");
    // Every board game, and the Lines race (the host's default offers).
    let mut every: Vec<GameKind> = <banco_app::any::AnyGame as banco_game::MatchGame>::kinds()
        .iter()
        .map(|&k| k.into())
        .collect();
    every.push(GameKind::Lines);
    assert_eq!(peer.games, every);
    assert_eq!(peer.fingerprint.len(), 16);
    assert!(
        found.recv_timeout(Duration::from_millis(100)).is_err(),
        "each device once"
    );
    guest_radio.stop_scan().unwrap();

    let (guest_events, guest_rx) = listener();
    let guest = Match::join_ble(
        "Binh".into(),
        Arc::clone(&guest_radio),
        peer.device,
        guest_events,
        None,
    )
    .unwrap();
    let code = |e: &MatchEvent| match e {
        MatchEvent::VerifyCode { code, peer_name } => Some((code.clone(), peer_name.clone())),
        _ => None,
    };
    let (hc, hn) = next(&host_rx, code);
    let (gc, gn) = next(&guest_rx, code);
    assert_eq!(hc, gc, "both phones show the same code");
    assert_eq!((hn.as_str(), gn.as_str()), ("Binh", "An"));
    host.confirm_code(hc).unwrap();
    guest.confirm_code(gc).unwrap();
    next(&guest_rx, |e| {
        matches!(e, MatchEvent::Proposed { .. }).then_some(())
    });
    // The proposal in the words every accept prompt shows.
    assert_eq!(
        guest.state().unwrap().offered_terms.as_deref(),
        Some("You play Black\nClock: untimed")
    );
    guest.accept_proposal().unwrap();
    let started = |e: &MatchEvent| matches!(e, MatchEvent::Started { .. }).then_some(());
    next(&host_rx, started);
    next(&guest_rx, started);
    let moved = |e: &MatchEvent| match e {
        MatchEvent::MovePlayed { played, .. } => Some(played.text.clone()),
        _ => None,
    };
    // Fool's mate, moves alternating over the link.
    for (i, mv) in ["f3", "e5", "g4", "Qh4#"].into_iter().enumerate() {
        let side = if i % 2 == 0 { &host } else { &guest };
        side.play_text(mv.into()).unwrap();
        assert_eq!(next(&host_rx, moved), mv);
        assert_eq!(next(&guest_rx, moved), mv);
    }
    let over = |e: &MatchEvent| match e {
        MatchEvent::GameOver { outcome, text } => Some((*outcome, text.clone())),
        _ => None,
    };
    let (outcome, text) = next(&guest_rx, over);
    assert_eq!(
        outcome,
        Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Checkmate
        }
    );
    assert_eq!(text, "You won: checkmate");
    assert_eq!(next(&host_rx, over).1, "You lost: checkmate");
    assert_eq!(host.state().unwrap().phase, MatchPhase::Over);
    assert!(air.notifies.load(Ordering::SeqCst) > 10);

    // The guest's adapter goes off: both see the link drop; back on, the match resumes.
    air.guest().on_adapter_state(BleAdapterState::Off);
    air.host().on_unsubscribed(GUEST_CENTRAL.into());
    assert!(
        guest_radio
            .adapter_message()
            .is_some_and(|m| m.contains("Bluetooth is off"))
    );
    let disconnected = |e: &MatchEvent| matches!(e, MatchEvent::Disconnected { .. }).then_some(());
    next(&guest_rx, disconnected);
    air.guest().on_adapter_state(BleAdapterState::On);
    // The host's adapter cycles too: it advertises again by itself.
    air.host().on_adapter_state(BleAdapterState::Off);
    air.host().on_adapter_state(BleAdapterState::On);
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while air.starts.load(Ordering::SeqCst) < 2 {
        assert!(std::time::Instant::now() < deadline, "advertising again");
        std::thread::sleep(Duration::from_millis(5));
    }
    host.propose(MatchOffer {
        game: GameKind::Xiangqi,
        your_color: Color::Black,
        rules: None,
        start_fen: None,
        clock: None,
        race: None,
    })
    .unwrap();
    next(&guest_rx, |e| {
        matches!(e, MatchEvent::Proposed { .. }).then_some(())
    });
    guest.leave().unwrap();
    host.leave().unwrap();
    drop(host);
    // The connector thread ends its wait for a central (5 s at most), then stops advertising.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !air.stopped.load(Ordering::SeqCst) {
        assert!(
            std::time::Instant::now() < deadline,
            "leaving stops the peripheral"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn failures_of_the_shell_are_errors_not_crashes() {
    struct Broken;
    impl BlePeripheral for Broken {
        fn start(&self, _: BleAdvertisement, _: Arc<BlePeripheralEvents>) -> Result<(), BleError> {
            Err(BleError::Unauthorized {
                reason: "BLUETOOTH_ADVERTISE denied".into(),
            })
        }
        fn notify(&self, _: String, _: Vec<u8>) -> Result<bool, BleError> {
            panic!("never called")
        }
        fn disconnect(&self, _: String) {}
        fn stop(&self) {}
    }
    let (events, _rx) = listener();
    let err = Match::host_ble("An".into(), Arc::new(Broken), vec![], None, events, None)
        .err()
        .unwrap();
    assert!(
        matches!(&err, BancoError::Network(m) if m.contains("BLUETOOTH_ADVERTISE")),
        "{err:?}"
    );
    struct Panicky;
    impl BleCentral for Panicky {
        fn start(&self, _: Arc<BleCentralEvents>) -> Result<(), BleError> {
            panic!("shell bug")
        }
        fn scan(&self, _: BleService) -> Result<(), BleError> {
            Ok(())
        }
        fn stop_scan(&self) {}
        fn read_info(&self, _: String) -> Result<(), BleError> {
            Ok(())
        }
        fn connect(&self, _: String) -> Result<(), BleError> {
            Ok(())
        }
        fn write(&self, _: String, _: Vec<u8>, _: bool) -> Result<bool, BleError> {
            Ok(true)
        }
        fn disconnect(&self, _: String) {}
    }
    let err = BleGuest::new(Arc::new(Panicky)).err().unwrap();
    assert!(
        matches!(&err, BancoError::Network(m) if m.contains("shell bug")),
        "{err:?}"
    );
    for (state, words) in [
        (BleAdapterState::Off, "turn it on"),
        (BleAdapterState::Unauthorized, "Nearby devices"),
        (BleAdapterState::Resetting, "restarting"),
        (BleAdapterState::Unsupported, "cannot play"),
    ] {
        assert!(
            ble_adapter_message(state).unwrap().contains(words),
            "{state:?}"
        );
    }
}

/// A host named `name` on loopback and over `peripheral` (or, without one, for `reason`),
/// proposing `proposal` once paired; its events.
fn host_nearby_with(
    name: &str,
    peripheral: Option<Arc<dyn BlePeripheral>>,
    reason: Option<&str>,
    proposal: Option<MatchOffer>,
) -> (Arc<Match>, std::sync::mpsc::Receiver<MatchEvent>) {
    let (events, rx) = listener();
    let host = Match::host_nearby(
        name.into(),
        "127.0.0.1:0".into(),
        false,
        peripheral,
        reason.map(Into::into),
        vec![],
        proposal,
        events,
        None,
    )
    .unwrap();
    (host, rx)
}

/// A host named `name` on loopback and over `air`'s host radio.
fn host_nearby_over(
    air: &Arc<Air>,
    name: &str,
    proposal: Option<MatchOffer>,
) -> (Arc<Match>, std::sync::mpsc::Receiver<MatchEvent>) {
    host_nearby_with(
        name,
        Some(Arc::new(PipePeripheral(Arc::clone(air)))),
        None,
        proposal,
    )
}

/// The first host the guest radio's scan finds (a device whose read fails skipped); the
/// scan is stopped.
fn scan_for_host(guest_radio: &BleGuest) -> BlePeer {
    let (tx, found) = mpsc::channel();
    guest_radio.scan(Arc::new(Found(Mutex::new(tx)))).unwrap();
    let peer = loop {
        if let Ok(p) = found.recv_timeout(Duration::from_secs(10)).unwrap() {
            break p;
        }
    };
    guest_radio.stop_scan().unwrap();
    peer
}

/// A host on the LAN and Bluetooth at once: the advertised key is the match's; a guest
/// comes over Bluetooth to one such host and over TCP to another; a peripheral that cannot
/// start leaves the host on the LAN alone, with its reason in `hosting()`.
#[test]
fn hosting_nearby_takes_the_guest_over_bluetooth_or_the_lan() {
    let code = |e: &MatchEvent| match e {
        MatchEvent::VerifyCode { code, .. } => Some(code.clone()),
        _ => None,
    };
    let air = Air::with_mtu(185);
    let (host, host_rx) = host_nearby_over(&air, "An", None);
    assert!(host.address().unwrap().starts_with("127.0.0.1:"));
    assert_eq!(
        host.hosting(),
        Some(crate::Hosting {
            open_on: vec![NearbyTransport::Lan, NearbyTransport::Ble],
            not_open: vec![]
        })
    );
    let guest_radio = BleGuest::new(Arc::new(PipeCentral(Arc::clone(&air)))).unwrap();
    let peer = scan_for_host(&guest_radio);
    assert_eq!(peer.name, "An");
    let (guest_events, guest_rx) = listener();
    let guest =
        Match::join_ble("Binh".into(), guest_radio, peer.device, guest_events, None).unwrap();
    let (hc, gc) = (next(&host_rx, code), next(&guest_rx, code));
    assert_eq!(hc, gc, "the same code over Bluetooth");
    host.confirm_code(hc).unwrap();
    guest.confirm_code(gc).unwrap();
    let verified = |e: &MatchEvent| matches!(e, MatchEvent::PeerVerified { .. }).then_some(());
    next(&host_rx, verified);
    next(&guest_rx, verified);
    guest.leave().unwrap();
    host.leave().unwrap();
    drop(host);
    // Leaving interrupts the wait for a guest on both transports: advertising stops soon.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !air.stopped.load(Ordering::SeqCst) {
        assert!(
            std::time::Instant::now() < deadline,
            "leaving stops the peripheral"
        );
        std::thread::sleep(Duration::from_millis(10));
    }

    // Another host: this guest dials its LAN address while it also advertises over Bluetooth.
    let air = Air::with_mtu(23);
    let (host, host_rx) = host_nearby_over(&air, "Chi", None);
    assert_eq!(
        air.starts.load(Ordering::SeqCst),
        1,
        "advertised over Bluetooth"
    );
    let (guest_events, guest_rx) = listener();
    let guest = Match::join("Binh".into(), host.address().unwrap(), guest_events, None).unwrap();
    assert_eq!(
        next(&host_rx, code),
        next(&guest_rx, code),
        "the same code over TCP"
    );
    guest.leave().unwrap();
    host.leave().unwrap();

    struct Off;
    impl BlePeripheral for Off {
        fn start(&self, _: BleAdvertisement, _: Arc<BlePeripheralEvents>) -> Result<(), BleError> {
            Err(BleError::Off {
                reason: "the adapter is off".into(),
            })
        }
        fn notify(&self, _: String, _: Vec<u8>) -> Result<bool, BleError> {
            panic!("never called")
        }
        fn disconnect(&self, _: String) {}
        fn stop(&self) {}
    }
    // A peripheral that cannot start: hosted on the LAN alone, and the reason said.
    let (host, _rx) = host_nearby_with("An", Some(Arc::new(Off)), None, None);
    let hosting = host.hosting().unwrap();
    assert_eq!(hosting.open_on, vec![NearbyTransport::Lan]);
    assert_eq!(hosting.not_open.len(), 1);
    assert_eq!(hosting.not_open[0].transport, NearbyTransport::Ble);
    assert!(
        hosting.not_open[0].reason.contains("Bluetooth is off"),
        "{hosting:?}"
    );
    assert!(host.address().unwrap().starts_with("127.0.0.1:"));
    host.leave().unwrap();
    // No peripheral, with the shell's reason: the LAN alone, that reason.
    let (host, _rx) = host_nearby_with("An", None, Some("Bluetooth permission missing"), None);
    assert_eq!(
        host.hosting().unwrap().not_open[0].reason,
        "Bluetooth permission missing"
    );
    host.leave().unwrap();
    // No peripheral and no reason: a plain LAN host.
    let (host, _rx) = host_nearby_with("An", None, None, None);
    assert_eq!(
        host.hosting(),
        Some(crate::Hosting {
            open_on: vec![NearbyTransport::Lan],
            not_open: vec![]
        })
    );
    host.leave().unwrap();
}

/// A player listed on both transports whose LAN record is an impostor's (it copied the
/// player's fingerprint): `join_nearby` leaves the impostor and reaches the player over
/// Bluetooth; the impostor never shows a code.
#[test]
fn join_nearby_falls_back_to_bluetooth_when_the_lan_record_is_an_impostor() {
    let code = |e: &MatchEvent| match e {
        MatchEvent::VerifyCode { code, .. } => Some(code.clone()),
        _ => None,
    };
    let air = Air::with_mtu(185);
    let (host, host_rx) = host_nearby_over(&air, "An", None);
    let guest_radio = BleGuest::new(Arc::new(PipeCentral(Arc::clone(&air)))).unwrap();
    let peer = scan_for_host(&guest_radio);
    let (evil, evil_rx) = host_nearby_with("An", None, None, None);
    let evil_port: u16 = evil
        .address()
        .unwrap()
        .rsplit(':')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let player = crate::NearbyPlayer {
        key: format!("fp:{}", peer.fingerprint),
        name: "An".into(),
        games: peer.games.clone(),
        protocol_version: Some(peer.protocol_version),
        fingerprint: peer.fingerprint.clone(),
        transports: vec![NearbyTransport::Lan, NearbyTransport::Ble],
        preferred: NearbyTransport::Lan,
        lan: Some(crate::LobbyPeer {
            id: "An._banco._tcp.local.".into(),
            name: "An".into(),
            games: peer.games.clone(),
            protocol_version: Some(peer.protocol_version),
            fingerprint: peer.fingerprint.clone(),
            host: "evil.local.".into(),
            port: evil_port,
            addresses: vec![evil.address().unwrap()],
        }),
        ble_device: Some(peer.device.clone()),
    };
    let (guest_events, guest_rx) = listener();
    let guest =
        Match::join_nearby("Binh".into(), player, Some(guest_radio), guest_events, None).unwrap();
    let (hc, gc) = (next(&host_rx, code), next(&guest_rx, code));
    assert_eq!(hc, gc, "the guest reached the listed player over Bluetooth");
    assert!(
        evil_rx
            .try_iter()
            .all(|e| !matches!(e, MatchEvent::VerifyCode { .. })),
        "the impostor never shows a code"
    );
    guest.leave().unwrap();
    host.leave().unwrap();
    evil.leave().unwrap();
}

#[path = "ble_race_tests.rs"]
mod race;
