//! Whole xiangqi games over BLE links in memory, with the faults of a real radio: the
//! default MTU of 23 (20-byte writes), writes lost when the stack's buffer is full, and the
//! link cut every few moves (phones disconnect often). Both sides must end with the same
//! moves and result, and every move must be reported exactly once on each side.
//!
//! Also the figures of the BLE module docs (`ble::gatt`): frame sizes of real encrypted moves
//! and the ATT operations they cost, measured from two sessions.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use banco_game::{Color, GameKind};
use banco_net::ble::gatt::{WriteMode, WritePacer, air_bytes, att_payload, fragments_per_frame};
use banco_net::ble::{AttPipe, BleLink, LinkPipe};
use banco_net::driver::{DriverEvent, Role, from_fn};
use banco_net::memory::{Cutter, FaultPlan, MemoryLink};
use banco_net::{BoxLink, Link, LinkError};
use banco_protocol::{Event, MatchSpec};
use common::{Report, finish, referee, spawn_pair};

/// Every move event each side reported, in order: `(side, ply, move)`.
type Played = Vec<(usize, u32, banco_xiangqi::Move)>;

fn check(report: &Report, played: &Played) {
    eprintln!(
        "result {:?} plies {} disconnects {} resumed {}",
        report.results[0],
        report.moves[0].len(),
        report.disconnects,
        report.resumed
    );
    assert!(report.bad.is_empty(), "{:?}", report.bad);
    let [a, b] = &report.results;
    assert!(a.is_some());
    assert_eq!(a, b, "both sides end with the same result");
    assert_eq!(report.moves[0], report.moves[1], "both sides, same moves");
    assert_eq!(a.map(|(_, ply)| ply as usize), Some(report.moves[0].len()));
    // No move lost or duplicated: each side reported ply 0, 1, 2, … once each, and the
    // moves it reported are the moves of the game.
    for side in 0..2 {
        let seen: Vec<(u32, banco_xiangqi::Move)> = played
            .iter()
            .filter(|(s, _, _)| *s == side)
            .map(|&(_, ply, mv)| (ply, mv))
            .collect();
        let want: Vec<(u32, banco_xiangqi::Move)> = report.moves[side]
            .iter()
            .enumerate()
            .map(|(i, &mv)| (i as u32, mv))
            .collect();
        assert_eq!(seen, want, "side {side} saw every move exactly once");
    }
}

/// Connectors over in-memory BLE links of ATT MTU `mtu` under `plan`; a new pair per dial,
/// the latest pair's cutter in the returned handle.
fn ble_connectors(
    mtu: u16,
    plan: FaultPlan,
    seed: u64,
) -> (
    impl banco_net::driver::Connector,
    impl banco_net::driver::Connector,
    Arc<Mutex<Option<Cutter>>>,
) {
    let (tx, rx) = mpsc::channel::<BoxLink>();
    let rx = Mutex::new(rx);
    let last = Arc::new(Mutex::new(None::<Cutter>));
    let cutter = Arc::clone(&last);
    let mut n = seed;
    let guest = from_fn(Role::Initiator, move |_| {
        n += 1;
        let (a, b) = MemoryLink::pair_with_limit(plan, n, att_payload(mtu));
        *cutter.lock().unwrap() = Some(a.cutter());
        tx.send(Box::new(BleLink::new(LinkPipe::new(b))))
            .map_err(|_| LinkError::Reset)?;
        Ok(Box::new(BleLink::new(LinkPipe::new(a))) as BoxLink)
    });
    let host = from_fn(Role::Responder, move |timeout| {
        rx.lock()
            .unwrap()
            .recv_timeout(timeout)
            .map_err(|_| LinkError::Timeout)
    });
    (guest, host, last)
}

/// Plays a game at `mtu` losing `drop` of the writes, cutting the link every `cut_every`
/// moves (at most `max_cuts` times).
fn game(mtu: u16, drop: f64, cut_every: u32, max_cuts: u32, seed: u64) {
    let (guest, host, last) = ble_connectors(mtu, FaultPlan::none().with_drop(drop), seed);
    let (drivers, events) = spawn_pair(host, guest);
    let mut played = Played::new();
    let mut cuts = 0;
    let report = referee(
        &drivers,
        &events,
        seed,
        Duration::from_secs(90),
        |side, e| {
            if let DriverEvent::Session(Event::MovePlayed { ply, mv, .. }) = e {
                played.push((side, *ply, *mv));
                if side == 0
                    && (ply + 1) % cut_every == 0
                    && cuts < max_cuts
                    && let Some(c) = last.lock().unwrap().as_ref()
                {
                    c.cut();
                    cuts += 1;
                }
            }
        },
    );
    check(&report, &played);
    assert_eq!(cuts, max_cuts, "the game was long enough for every cut");
    assert!(report.resumed >= 1, "{report:?}");
    finish(drivers, &events, false);
}

#[test]
fn game_at_mtu_23_with_lost_writes_and_a_cut_every_9_moves() {
    game(23, 0.03, 9, 6, 1500);
}

#[test]
fn game_at_mtu_185_with_lost_writes_and_a_cut_every_7_moves() {
    game(185, 0.05, 7, 6, 1600);
}

/// An ATT pipe with the flow control of a real stack: at most `BUFFER` writes are queued
/// unread; a write without response beyond that is dropped silently, a write with response
/// waits until the peer has read everything before it (the ATT response). Writes follow a
/// [`WritePacer`], as the btleplug central's do.
struct StackPipe {
    tx: Arc<Queue>,
    rx: Arc<Queue>,
    pacer: Option<Mutex<WritePacer>>,
    overflows: Arc<AtomicU64>,
}

#[derive(Default)]
struct Queue {
    chunks: Mutex<(VecDeque<Vec<u8>>, bool)>,
    cond: Condvar,
}

const BUFFER: usize = WritePacer::BURST;

impl StackPipe {
    /// A pair; `paced` pipes follow a [`WritePacer`], unpaced ones only write without
    /// response.
    fn pair(paced: bool) -> (StackPipe, StackPipe, Arc<AtomicU64>) {
        let (ab, ba) = (Arc::new(Queue::default()), Arc::new(Queue::default()));
        let overflows = Arc::new(AtomicU64::new(0));
        let make = |tx: &Arc<Queue>, rx: &Arc<Queue>| StackPipe {
            tx: Arc::clone(tx),
            rx: Arc::clone(rx),
            pacer: paced.then(|| Mutex::new(WritePacer::new(true))),
            overflows: Arc::clone(&overflows),
        };
        (make(&ab, &ba), make(&ba, &ab), overflows)
    }
}

impl AttPipe for StackPipe {
    fn write(&self, chunk: &[u8]) -> Result<(), LinkError> {
        let mode = self.pacer.as_ref().map_or(WriteMode::WithoutResponse, |p| {
            p.lock().unwrap().next_mode()
        });
        let mut q = self.tx.chunks.lock().unwrap();
        if q.1 {
            return Err(LinkError::Closed);
        }
        if mode == WriteMode::WithResponse {
            // Wait until the peer drained the buffer (bounded: a closed peer wakes us).
            let deadline = Instant::now() + Duration::from_secs(2);
            while !q.0.is_empty() && !q.1 {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(LinkError::Timeout);
                }
                q = self.tx.cond.wait_timeout(q, left).unwrap().0;
            }
        } else if q.0.len() >= BUFFER {
            self.overflows.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
        q.0.push_back(chunk.to_vec());
        self.tx.cond.notify_all();
        Ok(())
    }

    fn read(&self, timeout: Option<Duration>) -> Result<Option<Vec<u8>>, LinkError> {
        let deadline = timeout.map(|t| Instant::now() + t);
        let mut q = self.rx.chunks.lock().unwrap();
        loop {
            if let Some(c) = q.0.pop_front() {
                self.rx.cond.notify_all();
                return Ok(Some(c));
            }
            if q.1 {
                return Err(LinkError::Closed);
            }
            match deadline {
                None => q = self.rx.cond.wait(q).unwrap(),
                Some(d) => {
                    let left = d.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Ok(None);
                    }
                    q = self.rx.cond.wait_timeout(q, left).unwrap().0;
                }
            }
        }
    }

    fn close(&self) {
        for q in [&self.tx, &self.rx] {
            q.chunks.lock().unwrap().1 = true;
            q.cond.notify_all();
        }
    }
}

/// Sends 40 frames of up to 4 KiB over a [`StackPipe`] pair; returns the frames received,
/// the frames the reassembler lost and the writes the stack dropped.
fn burst_over_stack(paced: bool) -> (Vec<Vec<u8>>, Vec<Vec<u8>>, u64, u64) {
    let (a, b, overflows) = StackPipe::pair(paced);
    let (a, b) = (BleLink::new(a), BleLink::new(b));
    let reader = std::thread::spawn(move || {
        let mut got = Vec::new();
        while let Ok(Some(f)) = b.recv(Some(Duration::from_millis(500))) {
            got.push(f);
            if got.len() == 40 {
                break;
            }
        }
        (got, b.frames_lost())
    });
    let frames: Vec<Vec<u8>> = (0..40u16)
        .map(|i| vec![i as u8; usize::from(i) * 97 % 4096])
        .collect();
    for f in &frames {
        a.send(f).unwrap();
        // A pause between frames (the reader drains the buffer), none inside one. The
        // send only queues the fragments: wait until the link's writer has written them,
        // so a slow machine cannot pile frames past the link's backlog.
        a.flush(Duration::from_secs(10)).unwrap();
        std::thread::sleep(Duration::from_millis(3));
    }
    let (got, lost) = reader.join().unwrap();
    (frames, got, lost, overflows.load(Ordering::Relaxed))
}

#[test]
fn unpaced_bursts_overflow_the_stack_and_lose_whole_frames_only() {
    let (frames, got, lost, overflows) = burst_over_stack(false);
    assert!(overflows > 0 && lost > 0, "{overflows} {lost}");
    assert!(got.len() < frames.len());
    // What arrived is intact and in order.
    let mut it = frames.iter();
    for g in &got {
        assert!(it.any(|f| f == g));
    }
}

#[test]
fn paced_writes_never_overflow_a_stack_buffer_of_one_burst() {
    // Frames of up to 4 KiB (216 fragments at MTU 23) cross a stack that buffers only
    // BURST writes: the pacer's periodic write with response keeps every fragment.
    let (frames, got, lost, overflows) = burst_over_stack(true);
    assert_eq!(got, frames);
    assert_eq!(lost, 0);
    assert_eq!(overflows, 0);
    let fragments: usize = frames
        .iter()
        .map(|f| fragments_per_frame(f.len(), 23))
        .sum();
    assert!(fragments > 40 * BUFFER, "{fragments}");
}

#[test]
fn figures_of_a_move_over_ble() {
    use banco_protocol::Session;
    use banco_xiangqi::Xiangqi;

    let mut host = common::session("Host", 1);
    let mut guest = common::session("Guest", 2);
    // Carries frames both ways until quiet; returns the sizes sent by (host, guest).
    fn pump(
        h: &mut Session<Xiangqi>,
        g: &mut Session<Xiangqi>,
        now: u64,
    ) -> (Vec<usize>, Vec<usize>) {
        let mut sizes = (Vec::new(), Vec::new());
        loop {
            let mut moved = false;
            while let Some(f) = h.poll_transmit() {
                sizes.0.push(f.len());
                g.handle_datagram(&f, now);
                moved = true;
            }
            while let Some(f) = g.poll_transmit() {
                sizes.1.push(f.len());
                h.handle_datagram(&f, now);
                moved = true;
            }
            if !moved {
                return sizes;
            }
        }
    }
    guest.connect(0).unwrap();
    host.accept(0).unwrap();
    let hello = pump(&mut host, &mut guest, 0);
    guest.confirm_peer(false).unwrap();
    host.confirm_peer(false).unwrap();
    pump(&mut host, &mut guest, 1);
    host.propose(MatchSpec::new(GameKind::Xiangqi, Color::Red), 2)
        .unwrap();
    pump(&mut host, &mut guest, 2);
    guest.accept_proposal(3).unwrap();
    pump(&mut host, &mut guest, 3);

    // Up to 200 plies of real moves, each answered half a second later (within the test
    // sessions' keepalive): every move frame and the standalone ack it draws.
    let mut move_sizes = Vec::new();
    let mut ack_sizes = Vec::new();
    let mut now = 10;
    for ply in 0..200u32 {
        let (mover, other) = if ply % 2 == 0 {
            (&mut host, &mut guest)
        } else {
            (&mut guest, &mut host)
        };
        if mover.outcome().is_some() {
            break;
        }
        let game = mover.game().unwrap().clone();
        let mut list = banco_game::MoveList::new();
        banco_game::Game::legal_moves(&game, &mut list);
        // A move picked by the position, so the game wanders (the first legal move each
        // time repeats the position within a few plies).
        let moves = list.as_slice();
        if moves.is_empty() {
            break;
        }
        let mv = moves[(banco_game::Game::hash(&game) >> 17) as usize % moves.len()];
        mover.play(mv, now).unwrap();
        let out: Vec<Vec<u8>> = std::iter::from_fn(|| mover.poll_transmit()).collect();
        assert_eq!(out.len(), 1, "one frame per move");
        move_sizes.push(out[0].len());
        for f in &out {
            other.handle_datagram(f, now);
        }
        // Not answered within the acknowledgement delay: the ack goes on its own then.
        assert_eq!(
            other.poll_transmit(),
            None,
            "the ack waits for a frame to ride on"
        );
        let due = now + banco_protocol::Timing::default().ack_delay_ms;
        assert_eq!(other.poll_timeout(), Some(due));
        other.handle_timeout(due);
        let acks: Vec<Vec<u8>> = std::iter::from_fn(|| other.poll_transmit()).collect();
        assert_eq!(acks.len(), 1, "one standalone ack per move");
        ack_sizes.push(acks[0].len());
        for f in &acks {
            mover.handle_datagram(f, now);
        }
        now += 500;
    }
    let (min, max) = (
        *move_sizes.iter().min().unwrap(),
        *move_sizes.iter().max().unwrap(),
    );
    let typical = move_sizes[move_sizes.len() - 1];
    eprintln!("handshake frames host {:?} guest {:?}", hello.0, hello.1);
    eprintln!(
        "move frames: {} of {min}..={max} bytes (last {typical}); acks {:?}..={:?}",
        move_sizes.len(),
        ack_sizes.iter().min(),
        ack_sizes.iter().max()
    );
    for mtu in [23u16, 185] {
        let per_move = fragments_per_frame(typical, mtu);
        let per_ack = fragments_per_frame(ack_sizes[ack_sizes.len() - 1], mtu);
        eprintln!(
            "MTU {mtu}: move {per_move} fragment(s) {} bytes on air, ack {per_ack} fragment(s) {} bytes; \
             ATT ops per move {} per round trip {}",
            air_bytes(typical, mtu),
            air_bytes(ack_sizes[ack_sizes.len() - 1], mtu),
            per_move + per_ack,
            2 * (per_move + per_ack)
        );
    }
    // The figures the module docs state (ble::gatt): keep them true.
    assert!(move_sizes.len() >= 100, "a long game: {}", move_sizes.len());
    assert_eq!((min, max, typical), (26, 27, 27), "{move_sizes:?}");
    let ack = ack_sizes[ack_sizes.len() - 1];
    assert!(ack_sizes.iter().all(|&a| a == 19), "{ack_sizes:?}");
    assert_eq!(fragments_per_frame(typical, 23), 2);
    assert_eq!(fragments_per_frame(ack, 23), 1);
    assert_eq!(fragments_per_frame(typical + 1, 23), 2);
    assert_eq!(fragments_per_frame(ack + 1, 23), 2);
    assert_eq!(fragments_per_frame(typical, 185), 1);
    assert_eq!(fragments_per_frame(ack, 185), 1);
    assert_eq!(air_bytes(typical, 23) + air_bytes(ack, 23), 112);
    assert_eq!(air_bytes(typical, 185) + air_bytes(ack, 185), 90);
}
