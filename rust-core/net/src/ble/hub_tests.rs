//! Tests of the hubs: links per central, busy and stuck radios, the adapter, connecting.
#![allow(clippy::unwrap_used)]
use super::*;
use crate::link::Link;

/// A radio that records what it sends and answers busy while `busy` is set.
#[derive(Default)]
struct Radio {
    sent: Mutex<Vec<(String, Vec<u8>)>>,
    busy: AtomicBool,
    dropped: Mutex<Vec<String>>,
}

impl Radio {
    fn send(&self, to: &str, value: &[u8]) -> Result<Sent, LinkError> {
        if self.busy.load(Ordering::Relaxed) {
            return Ok(Sent::Busy);
        }
        lock(&self.sent).push((to.to_owned(), value.to_vec()));
        Ok(Sent::Queued)
    }
}

impl PeripheralRadio for Radio {
    fn notify(&self, central: &str, value: &[u8]) -> Result<Sent, LinkError> {
        self.send(central, value)
    }
    fn disconnect(&self, central: &str) {
        lock(&self.dropped).push(central.to_owned());
    }
}

impl CentralRadio for Radio {
    fn connect(&self, _device: &str) -> Result<(), LinkError> {
        Ok(())
    }
    fn write(&self, device: &str, value: &[u8], _mode: WriteMode) -> Result<Sent, LinkError> {
        self.send(device, value)
    }
    fn disconnect(&self, device: &str) {
        lock(&self.dropped).push(device.to_owned());
    }
}

const T: Option<Duration> = Some(Duration::from_secs(1));
const SHORT: Option<Duration> = Some(Duration::from_millis(20));

#[test]
fn a_stranger_gets_a_link_of_its_own_and_never_the_guests() {
    let radio = Arc::new(Radio::default());
    let hub = PeripheralHub::new(radio.clone());
    hub.subscribed("guest", 23);
    let guest = hub.accept(T).unwrap().unwrap();
    hub.subscribed("stranger", 185);
    let stranger = hub.accept(T).unwrap().unwrap();
    assert_eq!(hub.centrals(), 2);
    // Each central's writes reach its own link only.
    assert!(hub.written("guest", vec![0xc0, 1]));
    assert!(hub.written("stranger", vec![0xc0, 2]));
    assert_eq!(guest.recv(T).unwrap(), Some(vec![1]));
    assert_eq!(stranger.recv(T).unwrap(), Some(vec![2]));
    assert_eq!(guest.recv(SHORT).unwrap(), None);
    // Notifications go to the central of the link; the MTU is each one's.
    guest.send(&[9; 30]).unwrap();
    guest.flush(Duration::from_secs(1)).unwrap();
    stranger.send(&[8; 30]).unwrap();
    stranger.flush(Duration::from_secs(1)).unwrap();
    let sent = lock(&radio.sent).clone();
    assert_eq!(
        sent.len(),
        3,
        "30 bytes: two fragments at MTU 23, one at 185"
    );
    assert!(sent[..2].iter().all(|(to, _)| to == "guest"));
    assert_eq!(sent[2].0, "stranger");
    // The stranger leaving (or being dropped by the driver) leaves the guest's link up.
    stranger.close();
    assert_eq!(*lock(&radio.dropped), vec!["stranger".to_owned()]);
    hub.unsubscribed("stranger");
    assert!(hub.written("guest", vec![0xc0, 3]));
    assert_eq!(guest.recv(T).unwrap(), Some(vec![3]));
    assert_eq!(guest.peer(), "ble guest");
}

#[test]
fn resubscribing_replaces_only_that_centrals_link_and_strays_are_dropped() {
    let hub = PeripheralHub::new(Arc::new(Radio::default()));
    assert!(!hub.written("nobody", vec![0xc0]));
    assert_eq!(hub.stray_writes(), 1);
    hub.subscribed("guest", 23);
    let old = hub.accept(T).unwrap().unwrap();
    hub.subscribed("guest", 23);
    let new = hub.accept(T).unwrap().unwrap();
    assert!(matches!(old.recv(T), Err(LinkError::Reset)));
    old.send(b"x").unwrap();
    assert!(matches!(old.flush(T.unwrap()), Err(LinkError::Reset)));
    assert!(matches!(old.send(b"x"), Err(LinkError::Reset)));
    // Closing the replaced link does not drop the new one.
    old.close();
    assert!(hub.written("guest", vec![0xc0, 7]));
    assert_eq!(new.recv(T).unwrap(), Some(vec![7]));
    hub.unsubscribed("guest");
    assert!(matches!(new.recv(T), Err(LinkError::Reset)));
    assert_eq!(hub.accept(SHORT).unwrap().map(|_| ()), None);
}

#[test]
fn a_busy_stack_is_waited_for_and_a_stuck_one_loses_the_link() {
    let radio = Arc::new(Radio::default());
    let hub = PeripheralHub::new(radio.clone());
    hub.subscribed("guest", 23);
    let link = Arc::new(hub.accept(T).unwrap().unwrap());
    radio.busy.store(true, Ordering::Relaxed);
    // The send returns at once; the link's writer waits for the stack.
    link.send(b"wait for me").unwrap();
    assert!(matches!(
        link.flush(Duration::from_millis(30)),
        Err(LinkError::Timeout)
    ));
    assert!(lock(&radio.sent).is_empty());
    radio.busy.store(false, Ordering::Relaxed);
    hub.ready();
    link.flush(Duration::from_secs(2)).unwrap();
    assert_eq!(lock(&radio.sent).len(), 1);
    // Still busy when the central goes: the write gives up at once, not after 5 s, and
    // later sends say the link is lost.
    radio.busy.store(true, Ordering::Relaxed);
    link.send(b"never").unwrap();
    std::thread::sleep(Duration::from_millis(30));
    hub.unsubscribed("guest");
    assert!(matches!(
        link.flush(Duration::from_secs(2)),
        Err(LinkError::Reset)
    ));
    assert!(matches!(link.send(b"again"), Err(LinkError::Reset)));
}

#[test]
fn a_radio_that_never_returns_costs_its_link_never_the_sender() {
    /// A platform whose notify call does not return until released.
    struct Stuck {
        gate: Mutex<mpsc::Receiver<()>>,
        calls: AtomicU16,
        dropped: Mutex<Vec<String>>,
    }
    impl PeripheralRadio for Stuck {
        fn notify(&self, _central: &str, _value: &[u8]) -> Result<Sent, LinkError> {
            self.calls.fetch_add(1, Ordering::SeqCst);
            let _ = lock(&self.gate).recv();
            Ok(Sent::Queued)
        }
        fn disconnect(&self, central: &str) {
            lock(&self.dropped).push(central.to_owned());
        }
    }
    let (release, gate) = mpsc::channel();
    let radio = Arc::new(Stuck {
        gate: Mutex::new(gate),
        calls: AtomicU16::new(0),
        dropped: Mutex::new(Vec::new()),
    });
    let hub = PeripheralHub::new(radio.clone());
    hub.subscribed("guest", 185);
    let link = hub.accept(T).unwrap().unwrap();
    link.send(&[7; 100]).unwrap();
    let start = Instant::now();
    while radio.calls.load(Ordering::SeqCst) == 0 && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(1));
    }
    // More sends on a thread of their own, so one that blocked fails the test, not hangs
    // it.
    let (done, sends) = mpsc::channel();
    std::thread::spawn(move || {
        let mut ok = 1usize;
        let e = loop {
            match link.send(&[7; 100]) {
                Ok(()) => ok += 1,
                Err(e) => break e,
            }
        };
        let _ = done.send((ok, e, link.send(&[1])));
    });
    let (ok, e, after) = sends
        .recv_timeout(Duration::from_secs(20))
        .expect("no send blocks on a stuck radio");
    // One 101-byte fragment per frame at MTU 185, until the backlog is full.
    use crate::ble::writer::SEND_BACKLOG;
    assert_eq!(ok, SEND_BACKLOG / 101);
    assert!(
        matches!(e, LinkError::Stalled { waiting } if waiting > SEND_BACKLOG),
        "{e}"
    );
    assert!(matches!(after, Err(LinkError::Closed)));
    assert_eq!(radio.calls.load(Ordering::SeqCst), 1, "one write under way");
    assert_eq!(
        *lock(&radio.dropped),
        ["guest"],
        "the stuck central is let go"
    );
    assert_eq!(hub.centrals(), 0);
    drop(release);
}

#[test]
fn the_adapter_going_off_drops_every_link() {
    let hub = PeripheralHub::new(Arc::new(Radio::default()));
    hub.subscribed("a", 23);
    hub.subscribed("b", 23);
    let (a, b) = (
        hub.accept(T).unwrap().unwrap(),
        hub.accept(T).unwrap().unwrap(),
    );
    assert_eq!(hub.adapter_changed(AdapterState::Off), AdapterState::On);
    assert!(matches!(a.recv(T), Err(LinkError::Reset)));
    assert!(matches!(b.recv(T), Err(LinkError::Reset)));
    assert_eq!(hub.centrals(), 0);
    assert_eq!(hub.adapter(), AdapterState::Off);
}

#[test]
fn a_central_connects_when_the_platform_says_so() {
    let radio = Arc::new(Radio::default());
    let hub = CentralHub::new(radio.clone());
    // Nobody answers: a time-out, and the attempt is cancelled.
    assert!(matches!(
        hub.connect("host", Duration::from_millis(20)),
        Err(LinkError::Timeout)
    ));
    assert_eq!(*lock(&radio.dropped), vec!["host".to_owned()]);
    let waiter = {
        let hub = Arc::clone(&hub);
        std::thread::spawn(move || hub.connect("host", Duration::from_secs(2)))
    };
    std::thread::sleep(Duration::from_millis(20));
    hub.mtu_changed("host", 185);
    hub.connected("host", 185);
    let link = waiter.join().unwrap().unwrap();
    assert_eq!(link.pipe().mtu_payload(), 182);
    assert!(hub.notified("host", vec![0xc0, 5]));
    assert!(!hub.notified("other", vec![0xc0, 5]));
    assert_eq!(link.recv(T).unwrap(), Some(vec![5]));
    link.send(&[1; 200]).unwrap();
    link.flush(Duration::from_secs(1)).unwrap();
    assert_eq!(
        lock(&radio.sent).len(),
        2,
        "200 bytes in 181-byte fragments"
    );
    hub.disconnected("host");
    assert!(matches!(link.recv(T), Err(LinkError::Reset)));
    // A refusal carries the platform's reason; a connection while off says so.
    let waiter = {
        let hub = Arc::clone(&hub);
        std::thread::spawn(move || hub.connect("host", Duration::from_secs(2)))
    };
    std::thread::sleep(Duration::from_millis(20));
    hub.connect_failed("host", "GATT error 133");
    let e = waiter.join().unwrap().unwrap_err().to_string();
    assert!(e.contains("GATT error 133"), "{e}");
    hub.adapter_changed(AdapterState::Off);
    let e = hub.connect("host", Duration::from_secs(1)).unwrap_err();
    assert!(e.to_string().contains("Bluetooth is off"), "{e}");
    hub.adapter_changed(AdapterState::Unauthorized);
    let e = hub.connect("host", Duration::from_secs(1)).unwrap_err();
    assert!(e.to_string().contains("Nearby devices"), "{e}");
}

/// Centrals that subscribe while nobody accepts (the host paused, its slots busy) cannot
/// grow the host's memory: before, every subscription queued a link for ever (with up to
/// half a megabyte of writes each), also after its central left.
#[test]
fn links_nobody_accepts_are_bounded_and_go_with_their_central() {
    let radio = Arc::new(Radio::default());
    let hub = PeripheralHub::new(radio.clone());
    // One central subscribing, writing and leaving again and again: nothing stays.
    for _ in 0..50 {
        hub.subscribed("roamer", 517);
        for _ in 0..64 {
            hub.written("roamer", vec![0x80; 514]);
        }
        hub.unsubscribed("roamer");
    }
    assert_eq!((hub.waiting(), hub.centrals()), (0, 0));
    // Subscribing again replaces that central's own waiting link.
    hub.subscribed("again", 23);
    hub.subscribed("again", 23);
    assert_eq!(hub.waiting(), 1);
    hub.unsubscribed("again");
    // Many centrals: the newest few wait, the oldest are dropped and disconnected.
    for i in 0..20 {
        hub.subscribed(&format!("c{i}"), 23);
    }
    assert_eq!(hub.waiting(), PENDING_LINKS);
    assert_eq!(hub.centrals(), PENDING_LINKS);
    let dropped = lock(&radio.dropped).clone();
    assert_eq!(dropped.len(), 20 - PENDING_LINKS);
    assert_eq!(dropped[0], "c0");
    // The newest are taken in order, and still work.
    let first = hub.accept(T).unwrap().unwrap();
    assert_eq!(first.peer(), format!("ble c{}", 20 - PENDING_LINKS));
    assert_eq!(first.peer_device().as_deref(), Some("c16"));
    assert!(hub.written("c16", vec![0xc0, 5]));
    assert_eq!(first.recv(T).unwrap(), Some(vec![5]));
    assert!(
        !hub.written("c0", vec![0xc0, 5]),
        "dropped: not a central any more"
    );
}

/// A Bluetooth central is limited by its device id as a TCP peer is by its address:
/// before, links without an IP address escaped every per-address limit.
#[test]
fn a_host_limits_attempts_from_one_central_by_its_device_id() {
    use crate::driver::{Driver, DriverConfig, DriverEvent};
    use banco_game::MatchGame;
    use banco_protocol::sim::CountingGame;
    use banco_protocol::{Identity, Session, SessionConfig};
    let hub = PeripheralHub::new(Arc::new(Radio::default()));
    let config = SessionConfig::new("Host", CountingGame::kinds());
    let session = Session::<CountingGame>::new(config, Identity::from_secret([1; 32]), [1; 32]);
    let (_host, events) = Driver::spawn(session, hub.acceptor(), DriverConfig::default());
    let next = |want: &dyn Fn(&DriverEvent<u8>) -> bool| loop {
        let e = events.recv_timeout(Duration::from_secs(10)).unwrap();
        if want(&e) {
            return e;
        }
    };
    let burst = DriverConfig::default().address_burst;
    for i in 0..burst {
        // Subscribing again drops the central's last link; the driver learns of the loss
        // on its own thread. Wait for it too, so that the links at once from this central
        // stay under their own limit and only the attempts count.
        hub.subscribed("mallory", 23);
        let (mut connected, mut lost) = (false, i == 0);
        while !(connected && lost) {
            match next(&|_| true) {
                DriverEvent::Connected { .. } => connected = true,
                DriverEvent::AttemptAborted { reason, .. } if reason == "connection lost" => {
                    lost = true;
                }
                other => panic!("attempt {i}: {other:?}"),
            }
        }
    }
    hub.subscribed("mallory", 23);
    let e = next(
        &|e| matches!(e, DriverEvent::AttemptAborted { reason, .. } if reason.contains("too many attempts")),
    );
    assert!(
        matches!(&e, DriverEvent::AttemptAborted { peer, .. } if peer == "ble mallory"),
        "{e:?}"
    );
    // Another central is not affected.
    hub.subscribed("guest", 23);
    let e = next(&|e| matches!(e, DriverEvent::Connected { .. }));
    assert_eq!(
        e,
        DriverEvent::Connected {
            peer: "ble guest".into()
        }
    );
}
