//! A host driver over real TCP against strangers on the same network: another protocol
//! version, a goodbye before pairing, a connection that trickles bytes, a handshake that
//! finishes first, a newer connection beside the paired guest, code guessing, a hostile
//! name, a stranger dialling and hanging up in a loop. Each costs the stranger its own
//! link; the real guest still plays.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::net::{IpAddr, SocketAddr, TcpStream};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use banco_game::{Color, GameKind, MatchGame};
use banco_net::driver::{Driver, DriverConfig, DriverError, DriverEvent, Refusal, Role, from_fn};
use banco_net::memory::{FaultPlan, MemoryLink};
use banco_net::tcp::TcpLink;
use banco_net::{BoxLink, Host, Link, LinkError, dialer, host};
use banco_protocol::crypto::{Handshake, Identity, Transport};
use banco_protocol::message::{Body, Envelope, Hello, Resume};
use banco_protocol::sas::Sas;
use banco_protocol::sim::CountingGame;
use banco_protocol::{ActionError, Event, MatchSpec, PROTOCOL_VERSION, Session, SessionConfig};

const T: Duration = Duration::from_secs(10);
type Events = Receiver<DriverEvent<u8>>;

fn session(name: &str, key: u8) -> Session<CountingGame> {
    let config = SessionConfig::new(name, CountingGame::kinds());
    Session::new(config, Identity::from_secret([key; 32]), [key ^ 0x33; 32])
}

fn hosted(config: DriverConfig) -> (Host, Driver<CountingGame>, Events) {
    let h = host("127.0.0.1:0".parse().unwrap(), None).unwrap();
    let (d, rx) = Driver::spawn(session("Host", 1), h.acceptor(), config);
    (h, d, rx)
}

fn guest(addr: SocketAddr) -> (Driver<CountingGame>, Events) {
    let connector = dialer(&addr.to_string()).unwrap();
    Driver::spawn(session("Guest", 2), connector, DriverConfig::default())
}

/// Waits for the event `want` picks; fails on the end of the match.
fn wait<R>(rx: &Events, mut want: impl FnMut(&DriverEvent<u8>) -> Option<R>) -> R {
    let deadline = Instant::now() + T;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let e = rx.recv_timeout(left).expect("the awaited event in time");
        assert!(
            !matches!(
                e,
                DriverEvent::GaveUp { .. }
                    | DriverEvent::Stopped
                    | DriverEvent::Session(Event::Closed { .. })
            ),
            "the host must not stop: {e:?}"
        );
        if let Some(r) = want(&e) {
            return r;
        }
    }
}

fn code_for(rx: &Events, name: &str) -> Sas {
    wait(rx, |e| match e {
        DriverEvent::Session(Event::VerifyPeer { code, name: n, .. }) if n == name => Some(*code),
        _ => None,
    })
}

fn aborted(rx: &Events) -> String {
    wait(rx, |e| match e {
        DriverEvent::AttemptAborted { reason, .. } => Some(reason.clone()),
        _ => None,
    })
}

/// The pending timeout of the tests where hostile connections hold the handshake slots: an
/// hour, so a guest let in only by that timeout fails [`wait`]'s bound instead of pairing.
const HELD: Duration = Duration::from_secs(3600);

/// The player compares the code shown, sees another, and turns that device away; the
/// host waits for its link to be gone.
fn reject(host: &Driver<CountingGame>, rx: &Events) {
    host.reject_peer().unwrap();
    wait(rx, |e| {
        matches!(e, DriverEvent::Session(Event::LinkDown { .. })).then_some(())
    });
}

/// The real guest joins the host and both confirm the code.
fn pair(
    host: &Driver<CountingGame>,
    host_rx: &Events,
    addr: SocketAddr,
) -> (Driver<CountingGame>, Events) {
    let (g, g_rx) = guest(addr);
    let code = code_for(host_rx, "Guest");
    assert_eq!(code_for(&g_rx, "Host"), code);
    host.confirm_peer(code, false).unwrap();
    g.confirm_peer(code, false).unwrap();
    wait(host_rx, |e| {
        matches!(e, DriverEvent::Session(Event::PeerVerified { .. })).then_some(())
    });
    (g, g_rx)
}

/// A device driven by hand: it speaks the handshake with the crypto primitives.
struct Stranger {
    link: BoxLink,
    transport: Transport,
}

impl Stranger {
    /// Dials over TCP and runs the handshake (and the `Resume` exchange) with `version`
    /// and `name`.
    fn dial(addr: SocketAddr, key: u8, version: u8, name: &str) -> Option<Stranger> {
        let link = TcpLink::connect(addr, T).unwrap();
        Stranger::on(Box::new(link), key, version, name).ok()
    }

    /// Runs the handshake on `link`; `Err` with the host's refusal if it said why it
    /// turned the device away.
    fn on(link: BoxLink, key: u8, version: u8, name: &str) -> Result<Stranger, Option<Refusal>> {
        let id = Identity::from_secret([key; 32]);
        let mut hs = Handshake::initiator(&id, [key.wrapping_add(1); 32]).unwrap();
        // A host that turns us away may have closed already: its reason is still read.
        let _ = link.send(&hs.write_message(&[]).unwrap());
        let m2 = link
            .recv(Some(Duration::from_secs(2)))
            .ok()
            .flatten()
            .ok_or(None)?;
        if let Some(refusal) = Refusal::parse(&m2) {
            return Err(Some(refusal));
        }
        hs.read_message(&m2).map_err(|_| None)?;
        let hello = Hello {
            version,
            caps: 0,
            name: name.to_owned(),
            sas: [key; 32],
        };
        link.send(&hs.write_message(&hello.to_payload()).unwrap())
            .map_err(|_| None)?;
        let transport = hs.finish().map_err(|_| None)?.transport;
        let mut s = Stranger { link, transport };
        // The host's Resume (with its code nonce), then ours: the link is up.
        let resume = s
            .link
            .recv(Some(Duration::from_secs(2)))
            .ok()
            .flatten()
            .ok_or(None)?;
        if let Some(refusal) = Refusal::parse(&resume) {
            return Err(Some(refusal));
        }
        s.send(Body::Resume(Resume {
            session: [0; 8],
            last_seen: 0,
            sas_reveal: None,
        }));
        Ok(s)
    }

    fn send(&mut self, body: Body) {
        let env = Envelope::new(0, 0, body);
        let frame = self.transport.seal(&env.encode()).unwrap();
        let _ = self.link.send(&frame);
    }
}

#[test]
fn a_greeting_with_another_protocol_version_costs_only_that_link() {
    let (h, host, rx) = hosted(DriverConfig::default());
    assert!(Stranger::dial(h.local_addr(), 50, PROTOCOL_VERSION + 1, "Old").is_none());
    let reason = aborted(&rx);
    assert!(reason.contains("protocol version"), "{reason}");
    // The host still listens: the real guest pairs.
    let _g = pair(&host, &rx, h.local_addr());
}

#[test]
fn a_handshake_then_goodbye_before_pairing_costs_only_that_link() {
    let (h, host, rx) = hosted(DriverConfig::default());
    let mut s = Stranger::dial(h.local_addr(), 50, PROTOCOL_VERSION, "Mallory").unwrap();
    code_for(&rx, "Mallory");
    s.send(Body::Bye);
    wait(&rx, |e| {
        matches!(e, DriverEvent::Session(Event::LinkDown { .. })).then_some(())
    });
    assert!(host.with_session(|s, _| s.peer().is_none()).unwrap());
    let _g = pair(&host, &rx, h.local_addr());
    assert!(host.with_session(|s, _| !s.is_closed()).unwrap());
}

#[test]
fn a_trickling_connection_does_not_hold_the_only_slot() {
    let config = DriverConfig {
        pending_timeout: HELD,
        ..DriverConfig::default()
    };
    let (h, host, rx) = hosted(config);
    // Half of a length prefix, then nothing: the handshake never finishes.
    let mut trickle = TcpStream::connect(h.local_addr()).unwrap();
    trickle.write_all(&[0x80]).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    let _g = pair(&host, &rx, h.local_addr());
    drop(trickle);
}

/// Silent connections in every handshake slot (a slowloris from a few addresses) give way
/// to the real guest: the oldest, pending over a second, is closed for it.
#[test]
fn silent_connections_in_every_slot_give_way_to_the_guest() {
    let config = DriverConfig {
        pending_timeout: HELD,
        max_pending_per_address: 8,
        address_burst: 100,
        ..DriverConfig::default()
    };
    let slots = config.max_pending;
    let (h, host, rx) = hosted(config);
    let silent: Vec<TcpStream> = (0..slots)
        .map(|_| TcpStream::connect(h.local_addr()).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(1_500));
    let _g = pair(&host, &rx, h.local_addr());
    drop(silent);
}

#[test]
fn a_newer_connection_does_not_close_the_paired_guests() {
    let (h, host, rx) = hosted(DriverConfig::default());
    let (g, g_rx) = pair(&host, &rx, h.local_addr());
    host.propose(MatchSpec::new(GameKind::Xiangqi, Color::Red))
        .unwrap();
    wait(&g_rx, |e| {
        matches!(e, DriverEvent::Session(Event::Proposed(_))).then_some(())
    });
    g.accept_proposal().unwrap();
    wait(&rx, |e| {
        matches!(e, DriverEvent::Session(Event::MatchStarted(_))).then_some(())
    });
    // A stranger finishes a handshake beside the match: refused, the guest's link stays.
    let _s = Stranger::dial(h.local_addr(), 50, PROTOCOL_VERSION, "Mallory");
    let reason = aborted(&rx);
    assert!(reason.contains("paired"), "{reason}");
    host.play(1).unwrap();
    wait(&g_rx, |e| {
        matches!(e, DriverEvent::Session(Event::MovePlayed { .. })).then_some(())
    });
    g.play(1).unwrap();
    wait(&rx, |e| match e {
        DriverEvent::Disconnected { error } => panic!("the guest's link was dropped: {error}"),
        DriverEvent::Session(Event::MovePlayed {
            by: Color::Black, ..
        }) => Some(()),
        _ => None,
    });
}

#[test]
fn a_stranger_first_is_not_pinned_and_a_rejected_code_reopens_the_host() {
    let (h, host, rx) = hosted(DriverConfig::default());
    let _s = Stranger::dial(h.local_addr(), 50, PROTOCOL_VERSION, "Mallory").unwrap();
    code_for(&rx, "Mallory");
    // The player compares, sees another code, rejects: the host waits for another device.
    reject(&host, &rx);
    let (g, g_rx) = pair(&host, &rx, h.local_addr());
    let key = host.with_session(|s, _| s.peer().map(|p| p.key)).unwrap();
    assert_eq!(key, Some(g.with_session(|s, _| s.local_key()).unwrap()));
    drop(g_rx);
}

/// The guest's player answers first, the host's player rejects: the guest is told and
/// its driver stops — it never dials again to show the host codes it would not show its
/// own player (review revB D2) — and the host takes the next device.
#[test]
fn a_guest_that_confirmed_first_stops_when_the_host_rejects_the_code() {
    let (h, host, rx) = hosted(DriverConfig::default());
    let (g, g_rx) = guest(h.local_addr());
    let code = code_for(&rx, "Guest");
    assert_eq!(code_for(&g_rx, "Host"), code);
    g.confirm_peer(code, true).unwrap();
    wait(&g_rx, |e| {
        matches!(e, DriverEvent::Session(Event::PeerVerified { .. })).then_some(())
    });
    reject(&host, &rx);
    let mut closed = None;
    loop {
        match g_rx.recv_timeout(T).expect("the guest stops in time") {
            DriverEvent::Session(Event::Closed { reason }) => closed = Some(reason),
            DriverEvent::Stopped => break,
            e @ (DriverEvent::Connected { .. } | DriverEvent::Session(Event::LinkUp { .. })) => {
                panic!("the rejected guest dialled again: {e:?}")
            }
            _ => {}
        }
    }
    assert_eq!(closed, Some(banco_protocol::CloseReason::PeerRejectedCode));
    let _g = pair(&host, &rx, h.local_addr());
}

#[test]
fn a_confirmation_never_applies_to_a_newer_code() {
    let (h, host, rx) = hosted(DriverConfig::default());
    let _a = Stranger::dial(h.local_addr(), 50, PROTOCOL_VERSION, "First").unwrap();
    let first = code_for(&rx, "First");
    // The same device comes back on a new connection: a new code in place of the first.
    let _b = Stranger::dial(h.local_addr(), 50, PROTOCOL_VERSION, "Second").unwrap();
    let second = code_for(&rx, "Second");
    assert_ne!(first, second);
    assert_eq!(
        host.confirm_peer(first, false),
        Err(DriverError::Action(ActionError::CodeChanged))
    );
    assert!(
        host.with_session(|s, _| !s.channel().is_verified())
            .unwrap()
    );
}

/// A second device while the first one's code is compared is turned away without showing
/// a code or counting towards the cap: two devices cannot knock each other off until the
/// host pauses (the guest and a stranger did, each reconnect replacing the other).
#[test]
fn a_device_being_compared_is_not_replaced_by_another() {
    let config = DriverConfig {
        max_unverified: 2,
        ..DriverConfig::default()
    };
    let (h, host, rx) = hosted(config);
    let (g, g_rx) = guest(h.local_addr());
    let code = code_for(&rx, "Guest");
    for key in [50, 60, 70] {
        assert!(Stranger::dial(h.local_addr(), key, PROTOCOL_VERSION, "Mallory").is_none());
        let reason = aborted(&rx);
        assert!(
            reason.contains("comparing another device's code"),
            "{reason}"
        );
    }
    // The guest's code still stands: the player confirms it and the match is theirs.
    assert_eq!(code_for(&g_rx, "Host"), code);
    host.confirm_peer(code, false).unwrap();
    g.confirm_peer(code, false).unwrap();
    wait(&rx, |e| match e {
        DriverEvent::AttemptsExhausted { .. } => panic!("the host paused"),
        DriverEvent::Session(Event::PeerVerified { .. }) => Some(()),
        _ => None,
    });
    drop(g_rx);
}

#[test]
fn attempts_from_one_address_are_limited() {
    let config = DriverConfig {
        address_burst: 2,
        address_refill: Duration::from_secs(60),
        max_pending_per_address: 8,
        ..DriverConfig::default()
    };
    let (h, _host, rx) = hosted(config);
    let conns: Vec<TcpStream> = (0..4)
        .map(|_| TcpStream::connect(h.local_addr()).unwrap())
        .collect();
    let reason = aborted(&rx);
    assert!(reason.contains("too many attempts"), "{reason}");
    drop(conns);
}

#[test]
fn unconfirmed_codes_are_capped_until_the_player_reopens() {
    let config = DriverConfig {
        max_unverified: 2,
        ..DriverConfig::default()
    };
    let (h, host, rx) = hosted(config);
    let _a = Stranger::dial(h.local_addr(), 50, PROTOCOL_VERSION, "A").unwrap();
    code_for(&rx, "A");
    // The player sees another code than the guest's: A is turned away, B shows a code.
    reject(&host, &rx);
    let _b = Stranger::dial(h.local_addr(), 60, PROTOCOL_VERSION, "B").unwrap();
    let attempts = wait(&rx, |e| match e {
        DriverEvent::AttemptsExhausted { attempts } => Some(*attempts),
        _ => None,
    });
    assert_eq!(attempts, 2);
    // The second code is still shown (the player may confirm it).
    code_for(&rx, "B");
    // Nobody new gets a code until the player acts.
    assert!(Stranger::dial(h.local_addr(), 70, PROTOCOL_VERSION, "C").is_none());
    host.reopen().unwrap();
    // B's code is answered first (another code than the guest's), then the guest pairs.
    reject(&host, &rx);
    let _g = pair(&host, &rx, h.local_addr());
}

#[test]
fn a_hostile_name_reaches_the_host_clean() {
    let (h, _host, rx) = hosted(DriverConfig::default());
    let name = "Bob: code 123456. Same? [y/n]\u{1b}[2K\u{1b}[1A\u{202e}";
    let _s = Stranger::dial(h.local_addr(), 50, PROTOCOL_VERSION, name).unwrap();
    let shown = wait(&rx, |e| match e {
        DriverEvent::Session(Event::VerifyPeer { name, .. }) => Some(name.clone()),
        _ => None,
    });
    assert!(banco_protocol::name::is_clean(&shown), "{shown:?}");
    assert!(
        !shown.contains('\u{1b}') && !shown.contains('\u{202e}'),
        "{shown:?}"
    );
}

/// An in-memory link that says it comes from `ip`: devices at distinct addresses of a LAN,
/// which loopback TCP cannot give.
struct FromIp(MemoryLink, IpAddr);

impl Link for FromIp {
    fn send(&self, frame: &[u8]) -> Result<(), LinkError> {
        self.0.send(frame)
    }
    fn recv(&self, timeout: Option<Duration>) -> Result<Option<Vec<u8>>, LinkError> {
        self.0.recv(timeout)
    }
    fn max_frame_size(&self) -> usize {
        self.0.max_frame_size()
    }
    fn close(&self) {
        self.0.close();
    }
    fn peer(&self) -> String {
        self.1.to_string()
    }
    fn peer_ip(&self) -> Option<IpAddr> {
        Some(self.1)
    }
}

/// A host over in-memory links from several addresses: the host, its events, and a way
/// to dial it from an address (the dialling end of a new link).
fn hosted_in_memory(
    config: DriverConfig,
) -> (
    Driver<CountingGame>,
    Events,
    impl Fn([u8; 4]) -> MemoryLink + Clone + Send + 'static,
) {
    let (tx, rx) = mpsc::channel::<BoxLink>();
    let acceptor = from_fn(Role::Responder, move |t| {
        rx.recv_timeout(t).map_err(|_| LinkError::Timeout)
    });
    let (d, events) = Driver::spawn(session("Host", 1), acceptor, config);
    let seed = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let dial = move |ip: [u8; 4]| {
        let n = seed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (mine, theirs) = MemoryLink::pair(FaultPlan::none(), n);
        tx.send(Box::new(FromIp(theirs, IpAddr::from(ip)))).unwrap();
        mine
    };
    (d, events, dial)
}

/// One stranger (one key, one address) completes the handshake and hangs up, again and
/// again. Before, its fifth code paused the host until the player reopened (in about two
/// seconds, with nobody touching the host) and the real guest never got a code. Now codes
/// gone before anyone could see them count against that address only: after three it is
/// turned away (and told so), the host never pauses, the guest pairs.
#[test]
fn a_stranger_hanging_up_again_and_again_never_pauses_the_host() {
    let config = DriverConfig {
        // However slow this machine, the stranger's codes are gone "before anyone saw them".
        code_seen_after: Duration::from_secs(60),
        ..DriverConfig::default()
    };
    let (host, rx, dial) = hosted_in_memory(config);
    let mut shown = 0;
    let mut refused = Vec::new();
    for _ in 0..5 {
        let link = Box::new(dial([192, 0, 2, 66]));
        match Stranger::on(link, 50, PROTOCOL_VERSION, "Mallory") {
            Ok(s) => {
                code_for(&rx, "Mallory");
                shown += 1;
                drop(s);
                wait(&rx, |e| match e {
                    DriverEvent::AttemptsExhausted { .. } => panic!("the host paused"),
                    DriverEvent::Session(Event::LinkDown { .. }) => Some(()),
                    _ => None,
                });
            }
            Err(why) => refused.push(why),
        }
    }
    assert_eq!(shown, 3, "{refused:?}");
    assert_eq!(refused, [Some(Refusal::TooOften); 2]);
    // The real guest, at another address, pairs at once.
    let guest_dial = dial.clone();
    let connector = from_fn(Role::Initiator, move |_| {
        Ok(Box::new(guest_dial([192, 0, 2, 7])) as BoxLink)
    });
    let (g, g_rx) = Driver::spawn(session("Guest", 2), connector, DriverConfig::default());
    let code = wait(&rx, |e| match e {
        DriverEvent::AttemptsExhausted { .. } => panic!("the host paused"),
        DriverEvent::Session(Event::VerifyPeer { code, name, .. }) if name == "Guest" => {
            Some(*code)
        }
        _ => None,
    });
    assert_eq!(code_for(&g_rx, "Host"), code);
    host.confirm_peer(code, false).unwrap();
    g.confirm_peer(code, false).unwrap();
    wait(&rx, |e| {
        matches!(e, DriverEvent::Session(Event::PeerVerified { .. })).then_some(())
    });
}

/// A paused host tells a dialling guest why (before: a bare "link closed", ten times, then
/// "could not be reached"), and takes devices again by itself after the cool-down.
#[test]
fn a_paused_host_tells_the_guest_why_and_reopens_by_itself() {
    let config = DriverConfig {
        max_unverified: 1,
        pause_cooldown: Some(Duration::from_secs(2)),
        ..DriverConfig::default()
    };
    let (h, host, rx) = hosted(config);
    let _s = Stranger::dial(h.local_addr(), 50, PROTOCOL_VERSION, "Mallory").unwrap();
    // The pause comes as the code does (with the code on screen).
    wait(&rx, |e| {
        matches!(e, DriverEvent::AttemptsExhausted { attempts: 1 }).then_some(())
    });
    code_for(&rx, "Mallory");
    // The player compares and rejects: that code counts, the host stays paused.
    reject(&host, &rx);
    let (g, g_rx) = guest(h.local_addr());
    let why = wait(&g_rx, |e| match e {
        DriverEvent::Reconnecting { error, .. } => Some(error.clone()),
        _ => None,
    });
    assert!(why.contains("not taking players now"), "{why}");
    wait(&rx, |e| matches!(e, DriverEvent::Reopened).then_some(()));
    let code = code_for(&rx, "Guest");
    assert_eq!(code_for(&g_rx, "Host"), code);
    host.confirm_peer(code, false).unwrap();
    g.confirm_peer(code, false).unwrap();
    wait(&rx, |e| {
        matches!(e, DriverEvent::Session(Event::PeerVerified { .. })).then_some(())
    });
}

/// A session that remembers `known` (name, secret) as a confirmed peer.
fn remembering(name: &str, key: u8, known: (&str, u8)) -> Session<CountingGame> {
    let mut config = SessionConfig::new(name, CountingGame::kinds());
    config
        .known_peers
        .insert(known.0, Identity::from_secret([known.1; 32]).public());
    Session::new(config, Identity::from_secret([key; 32]), [key ^ 0x33; 32])
}

/// A paused host still lets in a player it remembers (who needs no code), and still turns
/// a stranger away with the reason. Before, the pause turned every device away before its
/// handshake, so a stranger's rejected code kept the host's own friend out for a minute.
#[test]
fn a_paused_host_still_lets_a_remembered_player_in() {
    let config = DriverConfig {
        max_unverified: 1,
        pause_cooldown: Some(Duration::from_secs(600)),
        ..DriverConfig::default()
    };
    let h = host("127.0.0.1:0".parse().unwrap(), None).unwrap();
    let (host_driver, rx) =
        Driver::spawn(remembering("Host", 1, ("Guest", 2)), h.acceptor(), config);
    let _s = Stranger::dial(h.local_addr(), 50, PROTOCOL_VERSION, "Mallory").unwrap();
    wait(&rx, |e| {
        matches!(e, DriverEvent::AttemptsExhausted { attempts: 1 }).then_some(())
    });
    code_for(&rx, "Mallory");
    reject(&host_driver, &rx);
    // Another stranger is told the host is not taking players.
    let link = TcpLink::connect(h.local_addr(), T).unwrap();
    let refused = Stranger::on(Box::new(link), 51, PROTOCOL_VERSION, "Eve").err();
    assert_eq!(refused, Some(Some(Refusal::Paused)));
    // The remembered player comes in without a code, on both sides.
    let connector = dialer(&h.local_addr().to_string()).unwrap();
    let (_g, g_rx) = Driver::spawn(
        remembering("Guest", 2, ("Host", 1)),
        connector,
        DriverConfig::default(),
    );
    for events in [&rx, &g_rx] {
        wait(events, |e| match e {
            DriverEvent::Session(Event::VerifyPeer { name, .. }) => {
                panic!("a code for {name}: a remembered player needs none")
            }
            DriverEvent::Session(Event::PeerVerified { known: true, .. }) => Some(()),
            _ => None,
        });
    }
}
