//! Benchmark: the round trip of an encrypted move between two processes over loopback TCP,
//! through both drivers (Noise transport, framing, reader threads, event delivery).
//!
//! ```text
//! cargo build --release -p banco-net --example move_rtt && ./target/release/examples/move_rtt \
//!     [--moves N] [--interval-ms MS] [--raw|--driver]
//! ```
//!
//! By default three figures come from the same run: the baseline — a 29-byte frame (the
//! size of an encrypted move) echoed by another process over a bare
//! [`TcpLink`](banco_net::tcp::TcpLink) —, the round trip through both drivers, sampled
//! alternately with the baseline (one echo, one move, …) so both see the same load, and
//! the protocol's own CPU cost of that round trip (two sessions in this process, frames
//! handed over directly: encryption, decryption, acknowledgements, validation — no I/O, no
//! threads). The last lines give the ratio the design aims at, `driver / (raw + protocol)`
//! at p50 (goal ≤ 2), the p99s side by side (goal < 1 ms on a quiet machine) and the load
//! average. `--raw` or `--driver` measures one of the first two alone.
//!
//! The parent hosts on 127.0.0.1 and starts itself again as the guests. After pairing, the
//! parent plays a move and waits until the guest's answering move arrives (the
//! `MovePlayed` event, through the event channel, as a front end sees it); the guest
//! answers every move at once from the thread that reads its events. Moves are paced
//! (`--interval-ms`, 50 by default) to stay within the session's inbound rate limit of 50
//! frames a second, as real play does; the pacing does not enter the measured time. Prints
//! p50 and p99 in microseconds.

use std::process::{Child, Command, ExitCode};
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

/// The raw echo: a bare link to a child process that sends every frame back.
struct RawEcho {
    link: banco_net::tcp::TcpLink,
    child: Child,
}

impl RawEcho {
    fn start() -> Result<RawEcho, String> {
        let h = host("127.0.0.1:0".parse().map_err(|e| format!("{e}"))?, None)
            .map_err(|e| e.to_string())?;
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let child = Command::new(exe)
            .args(["--raw-guest", &h.local_addr().to_string()])
            .spawn()
            .map_err(|e| e.to_string())?;
        let link = h
            .accept(Some(WAIT))
            .map_err(|e| e.to_string())?
            .ok_or("no guest")?;
        Ok(RawEcho { link, child })
    }

    /// One echo of a frame the size of an encrypted move.
    fn sample(&self) -> Result<Duration, String> {
        let start = Instant::now();
        self.link.send(&[7; 29]).map_err(|e| e.to_string())?;
        self.link
            .recv(Some(WAIT))
            .map_err(|e| e.to_string())?
            .ok_or("no echo")?;
        Ok(start.elapsed())
    }

    fn finish(mut self) {
        self.link.close();
        let _ = self.child.wait();
    }
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

/// Two drivers: this process hosts, a child process joins and answers every move.
struct Match {
    driver: Driver<CountingGame>,
    events: Events,
    child: Child,
}

impl Match {
    fn start() -> Result<Match, String> {
        let h = host("127.0.0.1:0".parse().map_err(|e| format!("{e}"))?, None)
            .map_err(|e| e.to_string())?;
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let child = Command::new(exe)
            .args(["--guest", &h.local_addr().to_string()])
            .spawn()
            .map_err(|e| e.to_string())?;
        let (driver, events) =
            Driver::spawn(session("host", 1), h.acceptor(), DriverConfig::default());
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
        Ok(Match {
            driver,
            events,
            child,
        })
    }

    /// One move and the guest's answer, as the host's front end sees them.
    fn sample(&self) -> Result<Duration, String> {
        let start = Instant::now();
        self.driver.play(1).map_err(|e| e.to_string())?;
        until(&self.driver, &self.events, |e| {
            matches!(
                e,
                DriverEvent::Session(Event::MovePlayed {
                    by: Color::Black,
                    ..
                })
            )
        })?;
        Ok(start.elapsed())
    }

    fn finish(mut self) -> Result<(), String> {
        self.driver.close().map_err(|e| e.to_string())?;
        let _ = self.child.wait();
        Ok(())
    }
}

/// Runs `moves` measured rounds after [`WARMUP`] unmeasured ones, `interval` apart
/// (`round` is told whether to keep its samples).
fn measure(
    moves: usize,
    interval: Duration,
    mut round: impl FnMut(bool) -> Result<(), String>,
) -> Result<(), String> {
    for i in 0..moves + WARMUP {
        std::thread::sleep(interval);
        round(i >= WARMUP)?;
    }
    Ok(())
}

const WARMUP: usize = 10;

/// The load average of the last minute (Linux), for the record.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".into())
}

fn both(moves: usize, interval: Duration) -> Result<(), String> {
    let load_before = load_average();
    let raw = RawEcho::start()?;
    let game = Match::start()?;
    let (mut raw_samples, mut drv_samples) = (Vec::new(), Vec::new());
    measure(moves, interval, |keep| {
        let r = raw.sample()?;
        let d = game.sample()?;
        if keep {
            raw_samples.push(r);
            drv_samples.push(d);
        }
        Ok(())
    })?;
    game.finish()?;
    raw.finish();
    let (raw50, raw99) = report("raw TCP frame echo, two processes", raw_samples);
    let (drv50, drv99) = report(
        "encrypted move round trip through both drivers (TCP)",
        drv_samples,
    );
    let (cpu50, _) = in_process(moves.max(1000))
        .map(|s| report("protocol cost of a round trip, in process (no I/O)", s))?;
    println!(
        "driver p50 / (raw p50 + protocol p50) = {:.2} (goal <= 2); driver p50 / raw p50 = {:.2}",
        drv50 / (raw50 + cpu50),
        drv50 / raw50
    );
    println!(
        "p99: driver {drv99:.0} us, raw {raw99:.0} us (goal < 1000 on a quiet machine); \
         load average {load_before} before, {} after",
        load_average()
    );
    Ok(())
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
    let result = if let Some(addr) = value("--guest") {
        guest(addr)
    } else if let Some(addr) = value("--raw-guest") {
        raw_guest(addr)
    } else if args.iter().any(|a| a == "--raw") {
        RawEcho::start().and_then(|raw| {
            let mut samples = Vec::new();
            measure(moves, interval, |keep| {
                let r = raw.sample()?;
                if keep {
                    samples.push(r);
                }
                Ok(())
            })?;
            raw.finish();
            report("raw TCP frame echo, two processes", samples);
            Ok(())
        })
    } else if args.iter().any(|a| a == "--driver") {
        Match::start().and_then(|game| {
            let mut samples = Vec::new();
            measure(moves, interval, |keep| {
                let d = game.sample()?;
                if keep {
                    samples.push(d);
                }
                Ok(())
            })?;
            game.finish()?;
            report(
                "encrypted move round trip through both drivers (TCP)",
                samples,
            );
            Ok(())
        })
    } else {
        both(moves, interval)
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("move_rtt: {e}");
            ExitCode::FAILURE
        }
    }
}
