//! Driver behaviour beyond whole games: giving up and retrying, reconnect on request,
//! calls from the callback.

// Helpers outside `#[test]` functions fail loudly too.
#![allow(clippy::expect_used)]

use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use banco_game::{Color, Game, GameKind, MatchGame};
use banco_net::LinkError;
use banco_net::driver::{Driver, DriverConfig, DriverError, DriverEvent, Role, from_fn};
use banco_net::memory::{self, FaultPlan, MemoryLink};
use banco_protocol::sim::CountingGame;
use banco_protocol::{Event, Identity, LinkDownReason, MatchSpec, Session, SessionConfig, Timing};

const T: Duration = Duration::from_secs(10);

fn session(name: &str, key: u8) -> Session<CountingGame> {
    let config = SessionConfig::new(name, CountingGame::kinds());
    Session::new(config, Identity::from_secret([key; 32]), [key; 32])
}

fn quick() -> DriverConfig {
    DriverConfig {
        connect_timeout: Duration::from_millis(200),
        backoff_min: Duration::from_millis(10),
        backoff_max: Duration::from_millis(40),
        max_attempts: Some(3),
        ..DriverConfig::default()
    }
}

fn wait_for<M: std::fmt::Debug>(
    rx: &Receiver<DriverEvent<M>>,
    mut want: impl FnMut(&DriverEvent<M>) -> bool,
) -> DriverEvent<M> {
    loop {
        let e = rx.recv_timeout(T).expect("an event in time");
        if want(&e) {
            return e;
        }
    }
}

/// A guest whose host never answered gives up after `max_first_attempts` even when it
/// would try for ever to resume a match (a mistyped address must not hang the app).
#[test]
fn a_host_that_never_answered_is_given_up_after_the_first_attempts() {
    let connector = from_fn(Role::Initiator, |_| {
        Err::<banco_net::BoxLink, _>(LinkError::Reset)
    });
    let config = DriverConfig {
        max_attempts: None,
        max_first_attempts: Some(4),
        ..quick()
    };
    let (_driver, rx) = Driver::spawn(session("A", 1), connector, config);
    let gave_up = wait_for(&rx, |e| matches!(e, DriverEvent::GaveUp { .. }));
    assert!(
        matches!(gave_up, DriverEvent::GaveUp { attempts: 4, .. }),
        "{gave_up:?}"
    );
}

#[test]
fn gives_up_after_max_attempts_then_retries_on_request() {
    let connector = from_fn(Role::Initiator, |_| {
        Err::<banco_net::BoxLink, _>(LinkError::Reset)
    });
    let (driver, rx) = Driver::spawn(session("A", 1), connector, quick());
    let mut attempts = Vec::new();
    let gave_up = wait_for(&rx, |e| {
        if let DriverEvent::Reconnecting { attempt, .. } = e {
            attempts.push(*attempt);
        }
        matches!(e, DriverEvent::GaveUp { .. })
    });
    assert_eq!(
        gave_up,
        DriverEvent::GaveUp {
            attempts: 3,
            reason: None
        }
    );
    assert_eq!(attempts, vec![1, 2]);
    // Nothing more happens until asked.
    assert!(rx.recv_timeout(Duration::from_millis(100)).is_err());
    driver.reconnect().unwrap();
    let again = wait_for(&rx, |e| matches!(e, DriverEvent::Reconnecting { .. }));
    assert!(matches!(
        again,
        DriverEvent::Reconnecting { attempt: 1, .. }
    ));
    assert!(driver.shutdown().is_some());
}

#[test]
fn disconnect_on_request_resumes_the_match() {
    let (dialer, acceptor) = memory::connectors(FaultPlan::none(), 3);
    let (host, host_rx) = Driver::spawn(session("Host", 1), acceptor, DriverConfig::default());
    let (guest, guest_rx) = Driver::spawn(session("Guest", 2), dialer, DriverConfig::default());
    for (d, rx) in [(&host, &host_rx), (&guest, &guest_rx)] {
        let DriverEvent::Session(Event::VerifyPeer { code, .. }) = wait_for(rx, |e| {
            matches!(e, DriverEvent::Session(Event::VerifyPeer { .. }))
        }) else {
            unreachable!()
        };
        d.confirm_peer(code, false).unwrap();
    }
    wait_for(&host_rx, |e| {
        matches!(e, DriverEvent::Session(Event::PeerVerified { .. }))
    });
    // The guest sees the host's games and the host proposes the second one.
    let offers = guest
        .with_session(|s, _| s.peer().map(|p| p.offers()))
        .unwrap();
    assert_eq!(offers, Some(vec![GameKind::Xiangqi, GameKind::Chess]));
    let spec = MatchSpec::new(GameKind::Chess, Color::Red);
    host.propose(spec).unwrap();
    wait_for(&guest_rx, |e| {
        matches!(e, DriverEvent::Session(Event::Proposed(_)))
    });
    guest.accept_proposal().unwrap();
    wait_for(&host_rx, |e| {
        matches!(e, DriverEvent::Session(Event::MatchStarted(_)))
    });
    host.play(2).unwrap();
    wait_for(&guest_rx, |e| {
        matches!(e, DriverEvent::Session(Event::MovePlayed { .. }))
    });

    guest.disconnect().unwrap();
    wait_for(&guest_rx, |e| matches!(e, DriverEvent::Disconnected { .. }));
    wait_for(&guest_rx, |e| {
        matches!(e, DriverEvent::Session(Event::LinkUp { resumed: true }))
    });
    wait_for(&host_rx, |e| {
        matches!(e, DriverEvent::Session(Event::LinkUp { resumed: true }))
    });
    guest.play(3).unwrap();
    wait_for(&host_rx, |e| {
        matches!(
            e,
            DriverEvent::Session(Event::MovePlayed {
                by: Color::Black,
                ..
            })
        )
    });
    let moves = |d: &Driver<CountingGame>| {
        d.with_session(|s, _| s.moves().map(<[u8]>::to_vec))
            .unwrap()
            .unwrap()
    };
    assert_eq!(moves(&host), vec![2, 3]);
    assert_eq!(moves(&guest), vec![2, 3]);
    // What a front end draws comes from the session's own game.
    let snap = guest.snapshot().expect("running").expect("a game");
    assert_eq!(snap.moves, vec![2, 3]);
    assert_eq!(snap.spec.game, GameKind::Chess);
    assert_eq!(snap.spec.local_color, Color::Black);
    assert_eq!((snap.game.kind(), snap.game.total()), (GameKind::Chess, 5));
    assert_eq!(snap.outcome, None);
    assert_eq!(
        Some(&snap.game),
        host.snapshot().expect("running").as_ref().map(|s| &s.game)
    );
    host.close().unwrap();
    wait_for(&guest_rx, |e| {
        matches!(e, DriverEvent::Session(Event::Closed { .. }))
    });
    wait_for(&guest_rx, |e| matches!(e, DriverEvent::Stopped));
    assert!(guest.shutdown().is_some_and(|s| s.is_closed()));
    assert!(host.shutdown().is_some_and(|s| s.is_closed()));
}

#[test]
fn calls_from_the_callback_get_the_sessions_answer() {
    type Shared = Arc<Mutex<Option<Arc<Driver<CountingGame>>>>>;
    let slot: Shared = Arc::default();
    let (tx, rx) = mpsc::channel();
    let callback = {
        let slot = Arc::clone(&slot);
        move |_e: DriverEvent<u8>| {
            let driver = slot.lock().unwrap().clone();
            if let Some(d) = driver {
                let _ = tx.send((d.offer_draw(), d.disconnect()));
            }
        }
    };
    let failing = from_fn(Role::Initiator, |_| {
        Err::<banco_net::BoxLink, _>(LinkError::Reset)
    });
    let config = DriverConfig {
        backoff_min: Duration::from_millis(50),
        ..quick()
    };
    let driver = Arc::new(Driver::spawn_with_callback(
        session("A", 1),
        failing,
        config,
        callback,
    ));
    *slot.lock().unwrap() = Some(Arc::clone(&driver));
    let (call, post) = rx.recv_timeout(T).unwrap();
    // No game to offer a draw in: the session says so (before, the call was refused).
    assert!(matches!(call, Err(DriverError::Action(_))), "{call:?}");
    assert_eq!(post, Ok(()));
    slot.lock().unwrap().take();
    // The test holds the last handle: dropping it stops the thread.
    drop(driver);
}

/// A front end may answer from inside the callback: this guest confirms the code, accepts
/// the game and answers every move there, on the link's reader thread that read the move
/// (no hop to another thread, as `move_rtt` measures); the events of those calls are
/// delivered right after the event being handled, in order.
#[test]
fn the_callback_can_answer_a_move_on_the_thread_that_read_it() {
    type Slot = Arc<Mutex<Option<Arc<Driver<CountingGame>>>>>;
    let slot: Slot = Arc::default();
    let (tx, seen) = mpsc::channel();
    let callback = {
        let slot = Arc::clone(&slot);
        move |e: DriverEvent<u8>| {
            let Some(d) = slot.lock().unwrap().clone() else {
                return;
            };
            let answer = match &e {
                DriverEvent::Session(Event::VerifyPeer { code, .. }) => {
                    Some(d.confirm_peer(*code, false))
                }
                DriverEvent::Session(Event::Proposed(_)) => Some(d.accept_proposal()),
                DriverEvent::Session(Event::MovePlayed { by: Color::Red, .. }) => Some(d.play(1)),
                _ => None,
            };
            let thread = std::thread::current().name().map(str::to_owned);
            let _ = tx.send((e, answer, thread));
        }
    };
    let (dialer, acceptor) = memory::connectors(FaultPlan::none(), 5);
    // The guest's handle is in its slot before anything can reach it.
    let guest = Arc::new(Driver::spawn_with_callback(
        session("Guest", 2),
        dialer,
        DriverConfig::default(),
        callback,
    ));
    *slot.lock().unwrap() = Some(Arc::clone(&guest));
    let (host, host_rx) = Driver::spawn(session("Host", 1), acceptor, DriverConfig::default());
    let DriverEvent::Session(Event::VerifyPeer { code, .. }) = wait_for(&host_rx, |e| {
        matches!(e, DriverEvent::Session(Event::VerifyPeer { .. }))
    }) else {
        unreachable!()
    };
    host.confirm_peer(code, false).unwrap();
    wait_for(&host_rx, |e| {
        matches!(e, DriverEvent::Session(Event::PeerVerified { .. }))
    });
    host.propose(MatchSpec::new(GameKind::Xiangqi, Color::Red))
        .unwrap();
    wait_for(&host_rx, |e| {
        matches!(e, DriverEvent::Session(Event::MatchStarted(_)))
    });
    for _ in 0..5 {
        host.play(2).unwrap();
        wait_for(&host_rx, |e| {
            matches!(
                e,
                DriverEvent::Session(Event::MovePlayed {
                    by: Color::Black,
                    ..
                })
            )
        });
        // Within the session's inbound rate limit, as players are.
        std::thread::sleep(Duration::from_millis(25));
    }
    let moves = |d: &Driver<CountingGame>| d.snapshot().unwrap().unwrap().moves;
    assert_eq!(moves(&host), [2, 1].repeat(5));
    assert_eq!(moves(&guest), [2, 1].repeat(5));
    slot.lock().unwrap().take();
    // What the guest's callback saw: every call succeeded; each move was answered on the
    // reader thread, and the answer's own event came right after the move's.
    let log: Vec<_> = seen.try_iter().collect();
    let mut answered = 0;
    for (i, (event, answer, thread)) in log.iter().enumerate() {
        if let Some(answer) = answer {
            assert_eq!(answer, &Ok(()), "{event:?}");
        }
        if let DriverEvent::Session(Event::MovePlayed { by: Color::Red, .. }) = event {
            answered += 1;
            assert_eq!(thread.as_deref(), Some("banco-link-reader"));
            assert!(
                matches!(
                    log.get(i + 1),
                    Some((
                        DriverEvent::Session(Event::MovePlayed {
                            by: Color::Black,
                            ..
                        }),
                        None,
                        _
                    ))
                ),
                "{:?}",
                log.get(i + 1)
            );
        }
    }
    assert_eq!(answered, 5);
    drop(host);
    drop(guest);
}

#[test]
fn links_that_never_come_up_count_as_failures() {
    // Every link reaches a peer that never answers the handshake.
    let mut silent = Vec::new();
    let connector = from_fn(Role::Initiator, move |_| {
        let (ours, theirs) = MemoryLink::pair(FaultPlan::none(), 0);
        silent.push(theirs);
        Ok(Box::new(ours) as banco_net::BoxLink)
    });
    let mut config = SessionConfig::new("A", CountingGame::kinds());
    config.timing = Timing {
        handshake_timeout_ms: 100,
        ..Timing::default()
    };
    let session = Session::<CountingGame>::new(config, Identity::from_secret([1; 32]), [1; 32]);
    let (driver, rx) = Driver::spawn(session, connector, quick());
    let mut timeouts = 0;
    let gave_up = wait_for(&rx, |e| {
        if matches!(
            e,
            DriverEvent::Session(Event::LinkDown {
                reason: LinkDownReason::HandshakeTimeout
            })
        ) {
            timeouts += 1;
        }
        matches!(e, DriverEvent::GaveUp { .. })
    });
    assert_eq!(
        gave_up,
        DriverEvent::GaveUp {
            attempts: 3,
            reason: None
        }
    );
    assert_eq!(timeouts, 3);
    assert!(
        rx.recv_timeout(Duration::from_millis(300)).is_err(),
        "no more dialling"
    );
    assert!(driver.shutdown().is_some());
}
