//! A referee for driver tests: two drivers play xiangqi with seeded random legal moves; the
//! main thread answers their events (confirm the code, propose, accept, move).

#![allow(dead_code, clippy::unwrap_used, clippy::panic)]

use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use banco_game::{Color, Game, GameKind, MoveList, Outcome};
use banco_net::driver::{Connector, Driver, DriverConfig, DriverError, DriverEvent};
use banco_protocol::{ActionError, Event, Identity, MatchSpec, Session, SessionConfig, Timing};
use banco_xiangqi::{Move, Xiangqi};

/// The side to move resigns at this ply (random games can go on for ever).
pub const MAX_PLIES: u32 = 120;
/// Thinking time per move: keeps both sides under the session's inbound rate limit (50
/// frames a second), as real players are.
pub const THINK: Duration = Duration::from_millis(15);

pub type Ev = (usize, DriverEvent<Move>);

pub fn session(name: &str, key: u8) -> Session<Xiangqi> {
    let mut config = SessionConfig::new(name, &[GameKind::Xiangqi]);
    // Quick to notice a dead link in tests.
    config.timing = Timing {
        rto_ms: 150,
        rto_max_ms: 600,
        keepalive_ms: 1_000,
        dead_peer_ms: 3_000,
        // A lost handshake message is not retransmitted: the link is retried after this.
        handshake_timeout_ms: 1_000,
        ..Timing::default()
    };
    Session::new(
        config,
        Identity::from_secret([key; 32]),
        [key.wrapping_mul(7); 32],
    )
}

pub fn config() -> DriverConfig {
    DriverConfig {
        connect_timeout: Duration::from_millis(500),
        backoff_min: Duration::from_millis(20),
        backoff_max: Duration::from_millis(200),
        max_attempts: None,
        ..DriverConfig::default()
    }
}

/// Spawns the host (index 0) and the guest (index 1); both report to one channel.
pub fn spawn_pair(
    host: impl Connector,
    guest: impl Connector,
) -> ([Driver<Xiangqi>; 2], Receiver<Ev>) {
    let (tx, rx) = mpsc::channel::<Ev>();
    let sink = |side: usize, tx: Sender<Ev>| {
        move |e| {
            let _ = tx.send((side, e));
        }
    };
    let h = Driver::spawn_with_callback(session("Host", 1), host, config(), sink(0, tx.clone()));
    let g = Driver::spawn_with_callback(session("Guest", 2), guest, config(), sink(1, tx));
    ([h, g], rx)
}

/// What a referee saw.
#[derive(Debug, Default)]
pub struct Report {
    pub results: [Option<(Outcome, u32)>; 2],
    pub moves: [Vec<Move>; 2],
    pub disconnects: usize,
    pub resumed: usize,
    pub bad: Vec<String>,
}

/// A move chosen from the position only (so a repeated decision picks the same move).
fn choose(game: &Xiangqi, seed: u64) -> Option<Move> {
    let mut list = MoveList::new();
    game.legal_moves(&mut list);
    if list.is_empty() {
        return None;
    }
    let mut x = game.hash() ^ seed;
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    list.as_slice()
        .get((x % list.len() as u64) as usize)
        .copied()
}

fn maybe_move(driver: &Driver<Xiangqi>, seed: u64) {
    let state = driver
        .with_session(|s, _| {
            let spec = s.match_spec()?;
            let game = s.game()?;
            (s.outcome().is_none() && game.side_to_move() == spec.local_color).then(|| game.clone())
        })
        .ok()
        .flatten();
    let Some(game) = state else { return };
    std::thread::sleep(THINK);
    if game.ply() >= MAX_PLIES {
        let _ = driver.resign();
        return;
    }
    match choose(&game, seed) {
        Some(mv) => {
            let _ = driver.play(mv);
        }
        None => {
            let _ = driver.resign();
        }
    }
}

/// Referees until both sides saw the game end (or `limit` passes), calling `on_event` for
/// every event (fault injection hooks in there).
pub fn referee(
    drivers: &[Driver<Xiangqi>; 2],
    rx: &Receiver<Ev>,
    seed: u64,
    limit: Duration,
    mut on_event: impl FnMut(usize, &DriverEvent<Move>),
) -> Report {
    let start = Instant::now();
    let mut report = Report::default();
    let mut proposed = false;
    while report.results.iter().any(Option::is_none) {
        let left = limit.saturating_sub(start.elapsed());
        let Ok((side, event)) = rx.recv_timeout(left) else {
            panic!("no result in {limit:?}: {report:?}");
        };
        on_event(side, &event);
        let d = &drivers[side];
        match event {
            DriverEvent::Session(Event::VerifyPeer { code, .. }) => {
                // A newer link may already show a newer code (its event follows).
                match d.confirm_peer(code, false) {
                    Ok(()) | Err(DriverError::Action(ActionError::CodeChanged)) => {}
                    Err(e) => panic!("confirming {code}: {e}"),
                }
            }
            DriverEvent::Session(Event::PeerVerified { .. }) if side == 0 && !proposed => {
                proposed = true;
                let spec = MatchSpec::new(GameKind::Xiangqi, Color::Red);
                d.propose(spec).unwrap();
            }
            DriverEvent::Session(Event::Proposed(_)) => d.accept_proposal().unwrap(),
            DriverEvent::Session(Event::MatchStarted(_) | Event::MovePlayed { .. }) => {
                maybe_move(d, seed);
            }
            DriverEvent::Session(Event::GameOver { outcome, ply }) => {
                report.results[side] = Some((outcome, ply));
            }
            DriverEvent::Session(Event::LinkUp { resumed: true }) => report.resumed += 1,
            DriverEvent::Session(
                e @ (Event::PeerIllegalMove { .. }
                | Event::Desync { .. }
                | Event::Closed { .. }
                | Event::PeerKeyChanged { .. }),
            ) => report.bad.push(format!("{side}: {e:?}")),
            DriverEvent::Disconnected { .. } => report.disconnects += 1,
            DriverEvent::GaveUp { .. } | DriverEvent::Stopped => {
                report.bad.push(format!("{side}: {event:?}"));
            }
            _ => {}
        }
    }
    for (i, d) in drivers.iter().enumerate() {
        report.moves[i] = d
            .with_session(|s, _| s.moves().map(<[Move]>::to_vec))
            .unwrap()
            .unwrap_or_default();
    }
    report
}

/// Closes the match in order: once both sides are linked, the host says goodbye, the guest
/// sees `Closed`, both stop. On a lossy link the goodbye itself may be lost (the guest then
/// keeps trying to reconnect), so `strict` says whether the guest must have closed.
pub fn finish(drivers: [Driver<Xiangqi>; 2], rx: &Receiver<Ev>, strict: bool) {
    let [h, g] = drivers;
    let deadline = Instant::now() + Duration::from_secs(10);
    while !(h.with_session(|s, _| s.is_link_up()).unwrap()
        && g.with_session(|s, _| s.is_link_up()).unwrap())
    {
        assert!(Instant::now() < deadline, "the link did not come back");
        std::thread::sleep(Duration::from_millis(5));
    }
    h.close().unwrap();
    let mut stopped = [false; 2];
    while stopped != [true, true] {
        let mut left = deadline.saturating_duration_since(Instant::now());
        if !strict && stopped[0] {
            // The goodbye may have been lost: give the guest a moment, not the full wait.
            left = left.min(Duration::from_secs(1));
        }
        match rx.recv_timeout(left) {
            Ok((side, DriverEvent::Stopped)) => stopped[side] = true,
            Ok(_) => {}
            Err(_) if !strict && stopped[0] => break,
            Err(e) => panic!("drivers did not stop: {e:?} {stopped:?}"),
        }
    }
    assert!(h.shutdown().is_some_and(|s| s.is_closed()));
    let guest = g.shutdown();
    if strict {
        assert!(guest.is_some_and(|s| s.is_closed()));
    }
}
