//! Benchmark: the round trip of an encrypted move between two processes over loopback TCP,
//! through both drivers (Noise transport, framing, reader threads, driver threads).
//!
//! ```text
//! cargo run --release -p banco-net --example move_rtt -- [--moves N] [--interval-ms MS] [--raw|--driver]
//! ```
//!
//! By default three figures come from the same run, side by side: the baseline — a 29-byte
//! frame (the size of an encrypted move) echoed by the other process over a bare
//! [`TcpLink`](banco_net::tcp::TcpLink) —, the round trip through both drivers, and the
//! protocol's own CPU cost of that round trip (two sessions in this process, frames handed
//! over directly: encryption, decryption, acknowledgements, validation — no I/O, no
//! threads). `--raw` or `--driver` measures one of the first two only.
//!
//! The parent hosts on 127.0.0.1 and starts itself again as the guest. After pairing, the
//! parent plays a move and waits until the guest's answering move arrives; the guest answers
//! every move at once. Moves are paced (`--interval-ms`, 50 by default) to stay within the
//! session's inbound rate limit of 50 frames a second, as real play does; the pacing does not
//! enter the measured time. Prints p50 and p99 in microseconds.

use std::process::{Command, ExitCode};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use banco_game::Color;
use banco_game::GameKind;
use banco_net::driver::{Driver, DriverConfig, DriverEvent};
use banco_net::{Link, dialer, host};
use banco_protocol::sim::CountingGame;
use banco_protocol::{Event, Identity, MatchSpec, Session, SessionConfig};

const TARGET: u16 = 60_000;
const WAIT: Duration = Duration::from_secs(10);

fn session(name: &str, key: u8) -> Session<CountingGame> {
    let config = SessionConfig::new(name, &[GameKind::Xiangqi]);
    Session::new(config, Identity::from_secret([key; 32]), [key ^ 0x5a; 32])
}

type Events = Receiver<DriverEvent<u8>>;

/// Answers pairing and proposals; returns at the first event `stop` accepts.
fn until(
    driver: &Driver<CountingGame>,
    events: &Events,
    mut stop: impl FnMut(&DriverEvent<u8>) -> bool,
) -> Result<DriverEvent<u8>, String> {
    loop {
        let event = events
            .recv_timeout(WAIT)
            .map_err(|e| format!("no event: {e}"))?;
        if stop(&event) {
            return Ok(event);
        }
        match &event {
            DriverEvent::Session(Event::VerifyPeer { code, .. }) => {
                driver
                    .confirm_peer(*code, false)
                    .map_err(|e| e.to_string())?;
            }
            DriverEvent::Session(Event::Proposed(_)) => {
                driver.accept_proposal().map_err(|e| e.to_string())?;
            }
            DriverEvent::Session(Event::Closed { .. }) | DriverEvent::Stopped => {
                return Err(format!("ended early: {event:?}"));
            }
            _ => {}
        }
    }
}

fn guest(addr: &str) -> Result<(), String> {
    let connector = dialer(addr).map_err(|e| e.to_string())?;
    let (driver, events) = Driver::spawn(session("guest", 2), connector, DriverConfig::default());
    loop {
        let event = until(&driver, &events, |e| {
            matches!(
                e,
                DriverEvent::Session(
                    Event::MovePlayed { by: Color::Red, .. } | Event::Closed { .. }
                )
            )
        })?;
        if matches!(event, DriverEvent::Session(Event::Closed { .. })) {
            return Ok(());
        }
        driver.play(1).map_err(|e| e.to_string())?;
    }
}

fn raw_guest(addr: &str) -> Result<(), String> {
    let link = banco_net::join(addr, WAIT).map_err(|e| e.to_string())?;
    while let Ok(Some(frame)) = link.recv(None) {
        link.send(&frame).map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn raw_parent(moves: usize, interval: Duration) -> Result<Vec<Duration>, String> {
    let h = host("127.0.0.1:0".parse().map_err(|e| format!("{e}"))?, None)
        .map_err(|e| e.to_string())?;
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut child = Command::new(exe)
        .args(["--raw-guest", &h.local_addr().to_string()])
        .spawn()
        .map_err(|e| e.to_string())?;
    let link = h
        .accept(Some(WAIT))
        .map_err(|e| e.to_string())?
        .ok_or("no guest")?;
    let mut samples = Vec::with_capacity(moves);
    for i in 0..moves + 10 {
        std::thread::sleep(interval);
        let start = Instant::now();
        link.send(&[7; 29]).map_err(|e| e.to_string())?;
        link.recv(Some(WAIT))
            .map_err(|e| e.to_string())?
            .ok_or("no echo")?;
        if i >= 10 {
            samples.push(start.elapsed());
        }
    }
    link.close();
    let _ = child.wait();
    Ok(samples)
}

/// p50 and p99 in microseconds (fractions kept for the in-process cost).
fn report(what: &str, mut samples: Vec<Duration>) -> (f64, f64) {
    samples.sort_unstable();
    let pick =
        |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize].as_nanos() as f64 / 1e3;
    println!(
        "{what:<58} n={:>5} p50={:>8.1} us p99={:>8.1} us min={:>8.1} us max={:>8.1} us",
        samples.len(),
        pick(0.5),
        pick(0.99),
        pick(0.0),
        pick(1.0)
    );
    (pick(0.5), pick(0.99))
}

/// Hands every frame each session wants sent to the other, answering the code and the
/// proposal, until both are quiet; true once a move of `by` was reported to the other side.
fn exchange(
    a: &mut Session<CountingGame>,
    b: &mut Session<CountingGame>,
    now: u64,
    by: Option<Color>,
) -> bool {
    let mut seen = false;
    loop {
        let mut quiet = true;
        while let Some(frame) = a.poll_transmit() {
            quiet = false;
            b.handle_datagram(&frame, now);
        }
        while let Some(frame) = b.poll_transmit() {
            quiet = false;
            a.handle_datagram(&frame, now);
        }
        for s in [&mut *a, &mut *b] {
            while let Some(e) = s.poll_event() {
                quiet = false;
                match e {
                    Event::VerifyPeer { code, .. } => {
                        let _ = s.confirm_code(code, false);
                    }
                    Event::Proposed(_) => {
                        let _ = s.accept_proposal(now);
                    }
                    Event::MovePlayed { by: who, .. } if Some(who) == by => seen = true,
                    _ => {}
                }
            }
        }
        if quiet {
            return seen;
        }
    }
}

/// The protocol's CPU cost of one move round trip: two sessions in this process, frames
/// handed over directly (no sockets, no threads).
fn in_process(moves: usize) -> Result<Vec<Duration>, String> {
    let (mut host, mut guest) = (session("host", 1), session("guest", 2));
    let mut now = 1_000;
    guest.connect(now).map_err(|e| e.to_string())?;
    host.accept(now).map_err(|e| e.to_string())?;
    exchange(&mut host, &mut guest, now, None);
    exchange(&mut host, &mut guest, now, None);
    let spec = MatchSpec {
        start_fen: Some(format!("0/{TARGET}")),
        ..MatchSpec::new(GameKind::Xiangqi, Color::Red)
    };
    host.propose(spec, now).map_err(|e| e.to_string())?;
    exchange(&mut host, &mut guest, now, None);
    let mut samples = Vec::with_capacity(moves);
    for i in 0..moves + 10 {
        // Simulated time between moves keeps both sides under the inbound rate limit.
        now += 50;
        let start = Instant::now();
        host.play(1, now).map_err(|e| e.to_string())?;
        if !exchange(&mut host, &mut guest, now, Some(Color::Red)) {
            return Err("the guest did not see the move".into());
        }
        guest.play(1, now).map_err(|e| e.to_string())?;
        if !exchange(&mut host, &mut guest, now, Some(Color::Black)) {
            return Err("the host did not see the answer".into());
        }
        if i >= 10 {
            samples.push(start.elapsed());
        }
    }
    Ok(samples)
}

fn parent(moves: usize, interval: Duration) -> Result<Vec<Duration>, String> {
    let h = host("127.0.0.1:0".parse().map_err(|e| format!("{e}"))?, None)
        .map_err(|e| e.to_string())?;
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut child = Command::new(exe)
        .args(["--guest", &h.local_addr().to_string()])
        .spawn()
        .map_err(|e| e.to_string())?;
    let (driver, events) = Driver::spawn(session("host", 1), h.acceptor(), DriverConfig::default());
    until(&driver, &events, |e| {
        matches!(e, DriverEvent::Session(Event::PeerVerified { .. }))
    })?;
    // A long game: the counting game's start position names its target.
    let spec = MatchSpec {
        start_fen: Some(format!("0/{TARGET}")),
        ..MatchSpec::new(GameKind::Xiangqi, Color::Red)
    };
    driver.propose(spec).map_err(|e| e.to_string())?;
    until(&driver, &events, |e| {
        matches!(e, DriverEvent::Session(Event::MatchStarted(_)))
    })?;
    let warmup = 10;
    let mut samples = Vec::with_capacity(moves);
    for i in 0..moves + warmup {
        std::thread::sleep(interval);
        let start = Instant::now();
        driver.play(1).map_err(|e| e.to_string())?;
        until(&driver, &events, |e| {
            matches!(
                e,
                DriverEvent::Session(Event::MovePlayed {
                    by: Color::Black,
                    ..
                })
            )
        })?;
        if i >= warmup {
            samples.push(start.elapsed());
        }
    }
    driver.close().map_err(|e| e.to_string())?;
    let _ = child.wait();
    Ok(samples)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .map(String::as_str)
    };
    let moves = value("--moves")
        .and_then(|v| v.parse().ok())
        .unwrap_or(200)
        .max(1);
    let interval = Duration::from_millis(
        value("--interval-ms")
            .and_then(|v| v.parse().ok())
            .unwrap_or(50),
    );
    let raw =
        || raw_parent(moves, interval).map(|s| report("raw TCP frame echo, two processes", s));
    let driver = || {
        parent(moves, interval)
            .map(|s| report("encrypted move round trip through both drivers (TCP)", s))
    };
    let result = if let Some(addr) = value("--guest") {
        guest(addr)
    } else if let Some(addr) = value("--raw-guest") {
        raw_guest(addr)
    } else if args.iter().any(|a| a == "--raw") {
        raw().map(drop)
    } else if args.iter().any(|a| a == "--driver") {
        driver().map(drop)
    } else {
        (|| {
            let (raw50, raw99) = raw()?;
            let (drv50, drv99) = driver()?;
            let (cpu50, _) = in_process(moves.max(1000))
                .map(|s| report("protocol cost of a round trip, in process (no I/O)", s))?;
            println!(
                "driver p50 / (raw p50 + protocol p50) = {:.2} (goal <= 2); p99 {:.0} us vs raw \
                 {:.0} us (goal < 1000 on a quiet machine)",
                drv50 / (raw50 + cpu50),
                drv99,
                raw99
            );
            Ok(())
        })()
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("move_rtt: {e}");
            ExitCode::FAILURE
        }
    }
}
