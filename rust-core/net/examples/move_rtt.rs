//! Benchmark: the round trip of an encrypted move between two processes over loopback TCP,
//! through both drivers (Noise transport, framing, reader threads, event delivery).
//!
//! ```text
//! cargo build --release -p banco-net --example move_rtt && ./target/release/examples/move_rtt \
//!     [--moves N] [--interval-ms MS] [--raw] [--driver] [--channel] [--protocol]
//! ```
//!
//! Each round samples four probes, one after the other, so all see the same load:
//!
//! 1. **raw** — the baseline: a 29-byte frame (the size of an encrypted move) echoed by
//!    another process over a bare [`TcpLink`](banco_net::tcp::TcpLink), each side reading
//!    the socket on the thread that answers (no thread hop);
//! 2. **driver, callback** — a move through both drivers and the answering move back, each
//!    front end handling its events in the driver's event callback: the guest answers on
//!    the link's reader thread that read the move, and the time stops when the answer's
//!    `MovePlayed` reaches the host's callback (on its reader thread). No thread hop
//!    beyond the raw echo's: the goal of issue #16 is checked on this figure;
//! 3. **driver, channel** — the same, with each front end on a thread of its own woken
//!    through the event channel (what [`Driver::spawn`] gives): one wake-up more per side,
//!    for reference (the cost of the front end's own thread);
//! 4. **protocol** — the protocol's own CPU cost of a round trip (two sessions in this
//!    process, frames handed over directly: encryption, decryption, acknowledgements,
//!    validation — no I/O, no threads), under the same conditions as the others.
//!
//! Every sample comes `--interval-ms` (25 by default) after the previous one, so that each
//! meets cores that idled, as a move does after a player's thought (a probe right after
//! another would find them awake: on a virtual machine that halves a raw echo); each round
//! starts with the next probe. The pause also keeps each session under its inbound rate
//! limit of 50 frames a second, and does not enter the measured time. `--moves` rounds
//! (500 by default) are kept after 10 unmeasured ones. Then the protocol's cost once more,
//! 1,000 round trips back to back (hot caches), for comparison.
//!
//! Prints n, p50, p99, min and max in microseconds of each, the host sessions' frame
//! counters, and the goal of issue #16 for each driver figure: `driver p50 / (raw p50 +
//! protocol p50) ≤ 2` (protocol measured in the rounds; the ratio with the back-to-back
//! figure is printed too) and `driver p99 < 1 ms` on a quiet machine (it says when the
//! load average is too high for that). `--raw`, `--driver`, `--channel`, `--protocol`
//! measure only the probes named. The parent hosts on 127.0.0.1 and starts itself again
//! as the guests (one per driver probe).

use std::process::{Child, Command, ExitCode};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, OnceLock, Weak};
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

/// Answers the code and the proposal; an error if the match ended.
fn answer(driver: &Driver<CountingGame>, event: &DriverEvent<u8>) -> Result<(), String> {
    match event {
        DriverEvent::Session(Event::VerifyPeer { code, .. }) => {
            driver.confirm_peer(*code, false).map_err(|e| e.to_string())
        }
        DriverEvent::Session(Event::Proposed(_)) => {
            driver.accept_proposal().map_err(|e| e.to_string())
        }
        DriverEvent::Session(Event::Closed { .. }) | DriverEvent::Stopped => {
            Err(format!("ended early: {event:?}"))
        }
        _ => Ok(()),
    }
}

/// Where a front end handles the driver's events (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Front {
    /// In the event callback, on the driver's thread that produced the event (for a move:
    /// the link's reader, which just read it). No thread hop.
    Callback,
    /// On a front-end thread of its own, woken through a channel: one hop per side.
    Channel,
}

impl Front {
    fn flag(self) -> &'static str {
        match self {
            Front::Callback => "callback",
            Front::Channel => "channel",
        }
    }
}

/// The guest: answers pairing and the proposal from its main thread, and every move of the
/// host at once, either from the event callback (on the reader thread that read the move)
/// or from its main thread (woken through the event channel).
fn guest(addr: &str, front: Front) -> Result<(), String> {
    let connector = dialer(addr).map_err(|e| e.to_string())?;
    let slot: Arc<OnceLock<Weak<Driver<CountingGame>>>> = Arc::default();
    let (tx, events) = mpsc::channel();
    let callback = {
        let slot = Arc::clone(&slot);
        move |e: DriverEvent<u8>| {
            let answer_here = front == Front::Callback
                && matches!(
                    e,
                    DriverEvent::Session(Event::MovePlayed { by: Color::Red, .. })
                );
            // Moves come only after the main thread accepted the game: the slot is set.
            if let Some(d) = slot.get().and_then(Weak::upgrade).filter(|_| answer_here)
                && let Err(err) = d.play(1)
            {
                eprintln!("move_rtt guest: {err}");
            }
            // Answered here: the main thread need not wake (a raw echo wakes nobody else).
            if front == Front::Channel
                || !matches!(e, DriverEvent::Session(Event::MovePlayed { .. }))
            {
                let _ = tx.send(e);
            }
        }
    };
    let driver = Arc::new(Driver::spawn_with_callback(
        session("guest", 2),
        connector,
        DriverConfig::default(),
        callback,
    ));
    let _ = slot.set(Arc::downgrade(&driver));
    // No time limit: in callback mode this thread hears nothing while the moves go on.
    while let Ok(event) = events.recv() {
        match event {
            DriverEvent::Session(Event::Closed { .. }) => return Ok(()),
            DriverEvent::Session(Event::MovePlayed { by: Color::Red, .. }) => {
                driver.play(1).map_err(|e| e.to_string())?;
            }
            other => answer(&driver, &other)?,
        }
    }
    Err("the driver stopped".into())
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

/// The protocol's CPU cost of a move round trip: two sessions in this process, frames
/// handed over directly (no sockets, no threads).
struct InProcess {
    host: Session<CountingGame>,
    guest: Session<CountingGame>,
    /// Simulated time: moves 50 ms apart keep both sides under the inbound rate limit.
    now: u64,
}

impl InProcess {
    fn start() -> Result<InProcess, String> {
        let (mut host, mut guest) = (session("host", 1), session("guest", 2));
        let now = 1_000;
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
        Ok(InProcess { host, guest, now })
    }

    /// One move and its answer.
    fn sample(&mut self) -> Result<Duration, String> {
        self.now += 50;
        let (host, guest, now) = (&mut self.host, &mut self.guest, self.now);
        let start = Instant::now();
        host.play(1, now).map_err(|e| e.to_string())?;
        if !exchange(host, guest, now, Some(Color::Red)) {
            return Err("the guest did not see the move".into());
        }
        guest.play(1, now).map_err(|e| e.to_string())?;
        if !exchange(host, guest, now, Some(Color::Black)) {
            return Err("the host did not see the answer".into());
        }
        Ok(start.elapsed())
    }
}

/// The protocol's cost with hot caches: `moves` round trips back to back.
fn in_process(moves: usize) -> Result<Vec<Duration>, String> {
    let mut p = InProcess::start()?;
    for _ in 0..WARMUP {
        p.sample()?;
    }
    (0..moves).map(|_| p.sample()).collect()
}

/// Two drivers: this process hosts, a child process joins and answers every move.
struct Match {
    driver: Driver<CountingGame>,
    /// Each event with the moment the driver delivered it to the callback.
    events: Receiver<(Instant, DriverEvent<u8>)>,
    front: Front,
    child: Child,
}

impl Match {
    fn start(front: Front) -> Result<Match, String> {
        let h = host("127.0.0.1:0".parse().map_err(|e| format!("{e}"))?, None)
            .map_err(|e| e.to_string())?;
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let child = Command::new(exe)
            .args([
                "--guest",
                &h.local_addr().to_string(),
                "--answer",
                front.flag(),
            ])
            .spawn()
            .map_err(|e| e.to_string())?;
        let (tx, events) = mpsc::channel();
        // What `Driver::spawn` does, with the delivery time kept.
        let driver = Driver::spawn_with_callback(
            session("host", 1),
            h.acceptor(),
            DriverConfig::default(),
            move |e| {
                let _ = tx.send((Instant::now(), e));
            },
        );
        let game = Match {
            driver,
            events,
            front,
            child,
        };
        game.until(|e| matches!(e, DriverEvent::Session(Event::PeerVerified { .. })))?;
        // A long game: the counting game's start position names its target.
        let spec = MatchSpec {
            start_fen: Some(format!("0/{TARGET}")),
            ..MatchSpec::new(GameKind::Xiangqi, Color::Red)
        };
        game.driver.propose(spec).map_err(|e| e.to_string())?;
        game.until(|e| matches!(e, DriverEvent::Session(Event::MatchStarted(_))))?;
        Ok(game)
    }

    /// Answers pairing and proposals until an event `stop` accepts; returns when that
    /// event was delivered.
    fn until(&self, mut stop: impl FnMut(&DriverEvent<u8>) -> bool) -> Result<Instant, String> {
        loop {
            let (delivered, event) = self
                .events
                .recv_timeout(WAIT)
                .map_err(|e| format!("no event: {e}"))?;
            if stop(&event) {
                return Ok(delivered);
            }
            answer(&self.driver, &event)?;
        }
    }

    /// One move and the guest's answer, up to the moment the answer reaches the host's
    /// front end: the event callback ([`Front::Callback`]) or the thread that reads the
    /// event channel ([`Front::Channel`]).
    fn sample(&self) -> Result<Duration, String> {
        let start = Instant::now();
        self.driver.play(1).map_err(|e| e.to_string())?;
        let delivered = self.until(|e| {
            matches!(
                e,
                DriverEvent::Session(Event::MovePlayed {
                    by: Color::Black,
                    ..
                })
            )
        })?;
        let seen = match self.front {
            Front::Callback => delivered,
            Front::Channel => Instant::now(),
        };
        Ok(seen.duration_since(start))
    }

    /// Ends the match; the host session's counters (a retransmission or a frame dropped by
    /// the rate limit would explain a slow round).
    fn finish(mut self) -> Result<String, String> {
        let stats = self
            .driver
            .read_session(|s, _| s.stats())
            .map_err(|e| e.to_string())?;
        self.driver.close().map_err(|e| e.to_string())?;
        let _ = self.child.wait();
        Ok(format!(
            "{} sent {}, received {}, retransmitted {}, rate-limited {}",
            self.front.flag(),
            stats.frames_sent,
            stats.frames_received,
            stats.retransmissions,
            stats.rate_limited
        ))
    }
}

const WARMUP: usize = 10;

/// The load average under which the machine counts as quiet (for the p99 goal).
const QUIET_LOAD: f64 = 1.5;

/// The load average of the last minute (Linux), for the record.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".into())
}

/// What one round samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Probe {
    Raw,
    Driver(Front),
    /// The protocol's cost of a round trip, in this process, sampled in the rounds like
    /// the others (so its code and data meet the same caches).
    Protocol,
}

impl Probe {
    fn label(self) -> &'static str {
        match self {
            Probe::Raw => "raw TCP frame echo, two processes",
            Probe::Driver(Front::Callback) => "driver round trip, answered in the event callback",
            Probe::Driver(Front::Channel) => "driver round trip, front ends on own threads",
            Probe::Protocol => "protocol cost of a round trip, in process, in the rounds",
        }
    }
}

/// A started probe.
enum Running {
    Raw(RawEcho),
    Driver(Match),
    Protocol(Box<InProcess>),
}

impl Running {
    fn sample(&mut self) -> Result<Duration, String> {
        match self {
            Running::Raw(r) => r.sample(),
            Running::Driver(m) => m.sample(),
            Running::Protocol(p) => p.sample(),
        }
    }

    /// Ends the probe; what the host driver's session counted, if any.
    fn finish(self) -> Result<Option<String>, String> {
        match self {
            Running::Raw(r) => {
                r.finish();
                Ok(None)
            }
            Running::Driver(m) => m.finish().map(Some),
            Running::Protocol(_) => Ok(None),
        }
    }
}

/// Samples every probe in turn each round (so all see the same load), reports each, and
/// with the raw echo and the callback driver both there, checks the goal of issue #16.
fn run(probes: &[Probe], moves: usize, interval: Duration) -> Result<(), String> {
    let load_before = load_average();
    let mut running = Vec::new();
    for probe in probes {
        running.push(match probe {
            Probe::Raw => Running::Raw(RawEcho::start()?),
            Probe::Driver(front) => Running::Driver(Match::start(*front)?),
            Probe::Protocol => Running::Protocol(Box::new(InProcess::start()?)),
        });
    }
    let mut samples = vec![Vec::with_capacity(moves); probes.len()];
    // `moves` measured rounds after WARMUP unmeasured ones. Each sample comes after a pause
    // of its own, so that every probe meets cores that idled (as a move does after a
    // player's thought; a probe right after another would find them awake and fast).
    // Each round starts with the next probe, against any other order effect.
    for i in 0..moves + WARMUP {
        for k in 0..probes.len() {
            std::thread::sleep(interval);
            let p = (i + k) % probes.len();
            let d = running[p].sample()?;
            if i >= WARMUP {
                samples[p].push(d);
            }
        }
    }
    let mut counters = Vec::new();
    for r in running {
        counters.extend(r.finish()?);
    }
    let load_after = load_average();
    println!(
        "{moves} rounds after {WARMUP} unmeasured; each round samples every probe in turn, \
         {} ms after the previous sample, starting with the next probe each round:",
        interval.as_millis()
    );
    let mut figures = Vec::new();
    for (probe, kept) in probes.iter().zip(samples) {
        figures.push((*probe, report(probe.label(), kept)));
    }
    if !counters.is_empty() {
        println!("host session, {}", counters.join("; "));
    }
    let figure = |p: Probe| figures.iter().find(|(q, _)| *q == p).map(|(_, f)| *f);
    let Some((raw50, raw99)) = figure(Probe::Raw) else {
        return Ok(());
    };
    let (hot50, _) = in_process(moves.max(1000))
        .map(|s| report("protocol cost of a round trip, in process, back to back", s))?;
    // The goal's "crypto cost": the protocol's cost where it runs in the rounds (cold
    // caches after each pause, as in the driver's round trip); else the hot figure.
    let cold50 = figure(Probe::Protocol).map(|f| f.0);
    let cpu50 = cold50.unwrap_or(hot50);
    let met = |ok: bool| if ok { "met" } else { "NOT met" };
    for front in [Front::Callback, Front::Channel] {
        let Some((drv50, drv99)) = figure(Probe::Driver(front)) else {
            continue;
        };
        let ratio = drv50 / (raw50 + cpu50);
        let hops = match front {
            Front::Callback => "no thread hop beyond the raw echo's",
            Front::Channel => "+1 thread wake-up per side: for reference",
        };
        println!("driver, {} ({hops}):", front.flag());
        println!(
            "  p50 {drv50:.1} us / (raw {raw50:.1} + protocol {cpu50:.1}) = {ratio:.2}  \
             [goal <= 2: {}]",
            met(ratio <= 2.0)
        );
        if cold50.is_some() {
            println!(
                "  (with the protocol's back-to-back cost {hot50:.1} us instead: {:.2})",
                drv50 / (raw50 + hot50)
            );
        }
        println!(
            "  p99 {drv99:.0} us (raw p99 {raw99:.0} us)  [goal < 1000 us on a quiet machine: {}]",
            met(drv99 < 1000.0)
        );
    }
    println!("load average (1 min): {load_before} before, {load_after} after");
    let busy = [&load_before, &load_after]
        .iter()
        .any(|l| l.parse::<f64>().map_or(true, |l| l >= QUIET_LOAD));
    if busy {
        println!(
            "the machine was not quiet (load >= {QUIET_LOAD}): these p99s do not judge the goal; \
             run again with nothing else running"
        );
    }
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
        .unwrap_or(500)
        .max(1);
    let interval = Duration::from_millis(
        value("--interval-ms")
            .and_then(|v| v.parse().ok())
            .unwrap_or(25),
    );
    let front = match value("--answer") {
        Some("channel") => Front::Channel,
        _ => Front::Callback,
    };
    let only: Vec<Probe> = [
        ("--raw", Probe::Raw),
        ("--driver", Probe::Driver(Front::Callback)),
        ("--channel", Probe::Driver(Front::Channel)),
        ("--protocol", Probe::Protocol),
    ]
    .into_iter()
    .filter(|(flag, _)| args.iter().any(|a| a == flag))
    .map(|(_, p)| p)
    .collect();
    let result = if let Some(addr) = value("--guest") {
        guest(addr, front)
    } else if let Some(addr) = value("--raw-guest") {
        raw_guest(addr)
    } else if only.is_empty() {
        run(
            &[
                Probe::Raw,
                Probe::Driver(Front::Callback),
                Probe::Driver(Front::Channel),
                Probe::Protocol,
            ],
            moves,
            interval,
        )
    } else {
        run(&only, moves, interval)
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("move_rtt: {e}");
            ExitCode::FAILURE
        }
    }
}
