//! An in-memory [`Link`] pair with a seeded fault plan, for tests.
//!
//! Each direction draws its faults from its own ChaCha RNG seeded from the pair's seed, so the
//! same plan, seed and sequence of sends always produce the same drops, duplicates, reorders,
//! delays and cuts.
//!
//! ```
//! use banco_net::{Link, LinkError, memory::{FaultPlan, MemoryLink}};
//! use std::time::Duration;
//!
//! let plan = FaultPlan::none().with_cut_after(3);
//! let (a, b) = MemoryLink::pair(plan, 7);
//! a.send(b"1")?;
//! a.send(b"2")?;
//! assert!(matches!(a.send(b"3"), Err(LinkError::Reset)));
//! assert!(matches!(b.recv(Some(Duration::from_millis(10))), Err(LinkError::Reset)));
//! # Ok::<(), LinkError>(())
//! ```

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

use crate::error::LinkError;
use crate::link::{Link, MAX_FRAME_SIZE};

mod exchange;

pub use exchange::{LastLink, MemoryAcceptor, MemoryDialer, connectors};

/// Frames that may be queued in one direction before `send` blocks.
const DEFAULT_CAPACITY: usize = 256;
/// The longest a reordered frame waits for a successor before it is released anyway.
const MIN_HOLD: Duration = Duration::from_millis(20);

/// Which faults a [`MemoryLink`] pair injects. Probabilities are per frame sent, in `0.0..=1.0`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FaultPlan {
    /// Probability that a frame is lost.
    pub drop: f64,
    /// Probability that a frame is delivered twice.
    pub duplicate: f64,
    /// Probability that a frame is held back and delivered after the next one.
    pub reorder: f64,
    /// Probability that a frame is delayed by a uniform random time up to `max_delay`.
    pub delay: f64,
    /// Longest delay of a delayed frame.
    pub max_delay: Duration,
    /// Probability that sending a frame cuts the link (both ends then fail with
    /// [`LinkError::Reset`]).
    pub cut: f64,
    /// Cut the link when one direction sends its `n`-th frame (that frame is lost).
    pub cut_after: Option<u64>,
}

impl FaultPlan {
    /// A perfect link.
    pub fn none() -> FaultPlan {
        FaultPlan::default()
    }

    /// Sets the drop probability.
    pub fn with_drop(mut self, p: f64) -> FaultPlan {
        self.drop = p;
        self
    }

    /// Sets the duplicate probability.
    pub fn with_duplicate(mut self, p: f64) -> FaultPlan {
        self.duplicate = p;
        self
    }

    /// Sets the reorder probability.
    pub fn with_reorder(mut self, p: f64) -> FaultPlan {
        self.reorder = p;
        self
    }

    /// Sets the delay probability and the longest delay.
    pub fn with_delay(mut self, p: f64, max_delay: Duration) -> FaultPlan {
        self.delay = p;
        self.max_delay = max_delay;
        self
    }

    /// Sets the per-frame cut probability.
    pub fn with_cut(mut self, p: f64) -> FaultPlan {
        self.cut = p;
        self
    }

    /// Cuts the link at the `n`-th frame sent in one direction.
    pub fn with_cut_after(mut self, n: u64) -> FaultPlan {
        self.cut_after = Some(n);
        self
    }
}

/// What the fault plan did so far, counted over both directions of a pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FaultStats {
    /// Frames handed to `send` (and accepted).
    pub sent: u64,
    /// Frames returned by `recv`.
    pub delivered: u64,
    /// Frames lost on purpose.
    pub dropped: u64,
    /// Extra copies delivered.
    pub duplicated: u64,
    /// Frames held back behind their successor.
    pub reordered: u64,
    /// Frames delayed.
    pub delayed: u64,
    /// Whether the link was cut.
    pub cut: bool,
}

#[derive(Debug)]
struct Pending {
    at: Instant,
    seq: u64,
    frame: Vec<u8>,
}

#[derive(Debug)]
struct Direction {
    queue: Vec<Pending>,
    held: Option<(Instant, Vec<u8>)>,
    rng: ChaCha8Rng,
    sent: u64,
    next_seq: u64,
}

impl Direction {
    fn new(seed: u64) -> Direction {
        Direction {
            queue: Vec::new(),
            held: None,
            rng: ChaCha8Rng::seed_from_u64(seed),
            sent: 0,
            next_seq: 0,
        }
    }

    /// A uniform draw in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn push(&mut self, at: Instant, frame: Vec<u8>) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.queue.push(Pending { at, seq, frame });
    }

    /// Index of the frame due first, if it is due at `now`; else when the first one is due.
    fn next_due(&self, now: Instant) -> Result<usize, Option<Instant>> {
        let first = self
            .queue
            .iter()
            .enumerate()
            .min_by_key(|(_, p)| (p.at, p.seq));
        match first {
            Some((i, p)) if p.at <= now => Ok(i),
            Some((_, p)) => Err(Some(p.at)),
            None => Err(None),
        }
    }
}

#[derive(Debug)]
struct State {
    /// `dirs[i]` carries frames sent by side `i`.
    dirs: [Direction; 2],
    closed: [bool; 2],
    cut: bool,
    stats: FaultStats,
}

#[derive(Debug)]
struct Shared {
    plan: FaultPlan,
    max_frame: usize,
    capacity: usize,
    state: Mutex<State>,
    cond: Condvar,
    id: u64,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding this lock cannot leave the queues inconsistent in a way that
        // matters to a test link, so a poisoned lock is simply taken over.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn hold_limit(&self) -> Duration {
        self.plan.max_delay.max(MIN_HOLD)
    }

    fn cut(&self) {
        let mut st = self.lock();
        cut_state(&mut st);
        drop(st);
        self.cond.notify_all();
    }
}

fn cut_state(st: &mut State) {
    st.cut = true;
    st.stats.cut = true;
    for d in &mut st.dirs {
        d.queue.clear();
        d.held = None;
    }
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// One end of an in-memory link pair. See the [module docs](self).
#[derive(Debug)]
pub struct MemoryLink {
    shared: Arc<Shared>,
    side: usize,
}

/// A handle that cuts a [`MemoryLink`] pair from outside (for tests that inject a cut at a
/// chosen moment while the links themselves are owned by drivers).
#[derive(Clone, Debug)]
pub struct Cutter {
    shared: Arc<Shared>,
}

impl Cutter {
    /// Cuts the link: queued frames are lost, both ends fail with [`LinkError::Reset`].
    pub fn cut(&self) {
        self.shared.cut();
    }

    /// What the fault plan did so far.
    pub fn stats(&self) -> FaultStats {
        self.shared.lock().stats
    }
}

impl MemoryLink {
    /// A connected pair with the default 4 KiB frame limit.
    pub fn pair(plan: FaultPlan, seed: u64) -> (MemoryLink, MemoryLink) {
        MemoryLink::pair_with_limit(plan, seed, MAX_FRAME_SIZE)
    }

    /// A connected pair with a chosen frame limit (20 for an ATT-sized pipe, say).
    pub fn pair_with_limit(
        plan: FaultPlan,
        seed: u64,
        max_frame: usize,
    ) -> (MemoryLink, MemoryLink) {
        let state = State {
            dirs: [
                Direction::new(seed),
                Direction::new(seed ^ 0x9e37_79b9_7f4a_7c15),
            ],
            closed: [false; 2],
            cut: false,
            stats: FaultStats::default(),
        };
        let shared = Arc::new(Shared {
            plan,
            max_frame,
            capacity: DEFAULT_CAPACITY,
            state: Mutex::new(state),
            cond: Condvar::new(),
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        });
        (
            MemoryLink {
                shared: Arc::clone(&shared),
                side: 0,
            },
            MemoryLink { shared, side: 1 },
        )
    }

    /// A handle that can cut this pair later.
    pub fn cutter(&self) -> Cutter {
        Cutter {
            shared: Arc::clone(&self.shared),
        }
    }

    /// Cuts the pair now (see [`Cutter::cut`]).
    pub fn cut(&self) {
        self.shared.cut();
    }

    /// What the fault plan did so far (both directions).
    pub fn stats(&self) -> FaultStats {
        self.shared.lock().stats
    }
}

impl Link for MemoryLink {
    fn send(&self, frame: &[u8]) -> Result<(), LinkError> {
        let shared = &*self.shared;
        if frame.len() > shared.max_frame {
            return Err(LinkError::FrameTooLarge {
                len: frame.len(),
                max: shared.max_frame,
            });
        }
        let plan = shared.plan;
        let mut st = shared.lock();
        loop {
            if st.cut {
                return Err(LinkError::Reset);
            }
            if st.closed[self.side] || st.closed[1 - self.side] {
                return Err(LinkError::Closed);
            }
            if st.dirs[self.side].queue.len() < shared.capacity {
                break;
            }
            st = shared
                .cond
                .wait(st)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
        let now = Instant::now();
        let dir = &mut st.dirs[self.side];
        dir.sent += 1;
        // Always draw every roll so one fault never shifts the others' random stream.
        let cut_roll = dir.unit();
        let drop_roll = dir.unit();
        let dup_roll = dir.unit();
        let reorder_roll = dir.unit();
        let delay_roll = dir.unit();
        let delay_amount = dir.unit();
        if plan.cut_after == Some(dir.sent) || cut_roll < plan.cut {
            cut_state(&mut st);
            drop(st);
            shared.cond.notify_all();
            return Err(LinkError::Reset);
        }
        st.stats.sent += 1;
        if drop_roll < plan.drop {
            st.stats.dropped += 1;
            return Ok(());
        }
        let at = if delay_roll < plan.delay {
            st.stats.delayed += 1;
            now + plan.max_delay.mul_f64(delay_amount)
        } else {
            now
        };
        let duplicate = dup_roll < plan.duplicate;
        let reorder = reorder_roll < plan.reorder;
        let dir = &mut st.dirs[self.side];
        if reorder && dir.held.is_none() {
            dir.held = Some((at, frame.to_vec()));
            st.stats.reordered += 1;
        } else {
            dir.push(at, frame.to_vec());
            if let Some((held_at, held)) = dir.held.take() {
                dir.push(held_at.max(at), held);
            }
        }
        if duplicate {
            st.dirs[self.side].push(at, frame.to_vec());
            st.stats.duplicated += 1;
        }
        drop(st);
        shared.cond.notify_all();
        Ok(())
    }

    fn recv(&self, timeout: Option<Duration>) -> Result<Option<Vec<u8>>, LinkError> {
        let shared = &*self.shared;
        let deadline = timeout.and_then(|t| Instant::now().checked_add(t));
        let hold_limit = shared.hold_limit();
        let peer = 1 - self.side;
        let mut st = shared.lock();
        loop {
            if st.cut {
                return Err(LinkError::Reset);
            }
            if st.closed[self.side] {
                return Err(LinkError::Closed);
            }
            let now = Instant::now();
            let dir = &mut st.dirs[peer];
            // A reordered frame whose successor never came is released after a while.
            let mut release_at = None;
            if let Some((since, _)) = &dir.held {
                let due = *since + hold_limit;
                if due <= now {
                    if let Some((at, frame)) = dir.held.take() {
                        dir.push(at, frame);
                    }
                } else {
                    release_at = Some(due);
                }
            }
            let wake = match dir.next_due(now) {
                Ok(i) => {
                    let frame = dir.queue.swap_remove(i).frame;
                    st.stats.delivered += 1;
                    drop(st);
                    shared.cond.notify_all();
                    return Ok(Some(frame));
                }
                Err(next) => next,
            };
            if st.closed[peer] && st.dirs[peer].queue.is_empty() && st.dirs[peer].held.is_none() {
                return Err(LinkError::Closed);
            }
            let wake = [wake, release_at, deadline].into_iter().flatten().min();
            if deadline.is_some_and(|d| d <= now) {
                return Ok(None);
            }
            st = match wake {
                Some(w) => {
                    shared
                        .cond
                        .wait_timeout(st, w.saturating_duration_since(now))
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .0
                }
                None => shared
                    .cond
                    .wait(st)
                    .unwrap_or_else(std::sync::PoisonError::into_inner),
            };
        }
    }

    fn max_frame_size(&self) -> usize {
        self.shared.max_frame
    }

    fn close(&self) {
        let mut st = self.shared.lock();
        st.closed[self.side] = true;
        drop(st);
        self.shared.cond.notify_all();
    }

    fn peer(&self) -> String {
        format!("memory #{}.{}", self.shared.id, 1 - self.side)
    }
}

impl Drop for MemoryLink {
    fn drop(&mut self) {
        self.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::thread;

    const T: Option<Duration> = Some(Duration::from_secs(5));

    fn drain(link: &MemoryLink, wait: Duration) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        while let Ok(Some(f)) = link.recv(Some(wait)) {
            out.push(f);
        }
        out
    }

    #[test]
    fn perfect_link_delivers_in_order_both_ways() {
        let (a, b) = MemoryLink::pair(FaultPlan::none(), 0);
        for i in 0..100u8 {
            a.send(&[i]).unwrap();
            b.send(&[i, i]).unwrap();
        }
        for i in 0..100u8 {
            assert_eq!(b.recv(T).unwrap(), Some(vec![i]));
            assert_eq!(a.recv(T).unwrap(), Some(vec![i, i]));
        }
        assert_eq!(a.recv(Some(Duration::ZERO)).unwrap(), None);
        assert_eq!(a.stats().delivered, 200);
    }

    #[test]
    fn frame_limit() {
        let (a, _b) = MemoryLink::pair_with_limit(FaultPlan::none(), 0, 20);
        assert!(matches!(
            a.send(&[0; 21]),
            Err(LinkError::FrameTooLarge { len: 21, max: 20 })
        ));
        a.send(&[0; 20]).unwrap();
    }

    fn run_plan(plan: FaultPlan, seed: u64) -> (Vec<Vec<u8>>, FaultStats) {
        let (a, b) = MemoryLink::pair(plan, seed);
        for i in 0..200u16 {
            a.send(&i.to_le_bytes()).unwrap();
        }
        let got = drain(&b, Duration::from_millis(60));
        (got, b.stats())
    }

    #[test]
    fn faults_are_deterministic() {
        let plan = FaultPlan::none()
            .with_drop(0.1)
            .with_duplicate(0.1)
            .with_reorder(0.1);
        let (got1, stats1) = run_plan(plan, 42);
        let (got2, stats2) = run_plan(plan, 42);
        assert_eq!(got1, got2);
        assert_eq!(stats1, stats2);
        assert!(
            stats1.dropped > 5 && stats1.duplicated > 5 && stats1.reordered > 5,
            "{stats1:?}"
        );
        assert_eq!(got1.len() as u64, 200 - stats1.dropped + stats1.duplicated);
        let (got3, _) = run_plan(plan, 43);
        assert_ne!(got1, got3);
    }

    #[test]
    fn reorder_swaps_with_successor() {
        let (got, stats) = run_plan(FaultPlan::none().with_reorder(0.2), 5);
        assert_eq!(got.len(), 200);
        let order: Vec<u16> = got
            .iter()
            .map(|f| u16::from_le_bytes([f[0], f[1]]))
            .collect();
        let inversions = order.windows(2).filter(|w| w[0] > w[1]).count();
        assert!(inversions > 0 && inversions as u64 <= stats.reordered);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..200).collect::<Vec<_>>());
    }

    #[test]
    fn delays_hold_frames_back() {
        let plan = FaultPlan::none().with_delay(1.0, Duration::from_millis(30));
        let (a, b) = MemoryLink::pair(plan, 9);
        let start = Instant::now();
        for i in 0..5u8 {
            a.send(&[i]).unwrap();
        }
        let got = drain(&b, Duration::from_millis(100));
        assert_eq!(got.len(), 5);
        assert!(start.elapsed() >= Duration::from_millis(1));
        assert_eq!(b.stats().delayed, 5);
    }

    #[test]
    fn a_lone_reordered_frame_is_released() {
        let (a, b) = MemoryLink::pair(FaultPlan::none().with_reorder(1.0), 1);
        a.send(b"x").unwrap();
        assert_eq!(
            b.recv(Some(Duration::from_secs(2))).unwrap(),
            Some(b"x".to_vec())
        );
    }

    #[test]
    fn close_wakes_a_blocked_receiver_and_drains_first() {
        let (a, b) = MemoryLink::pair(FaultPlan::none(), 0);
        a.send(b"last").unwrap();
        a.close();
        assert_eq!(b.recv(T).unwrap(), Some(b"last".to_vec()));
        assert!(matches!(b.recv(T), Err(LinkError::Closed)));
        assert!(matches!(b.send(b"x"), Err(LinkError::Closed)));

        let (c, d) = MemoryLink::pair(FaultPlan::none(), 0);
        let c = Arc::new(c);
        let reader = {
            let c = Arc::clone(&c);
            thread::spawn(move || c.recv(None))
        };
        thread::sleep(Duration::from_millis(20));
        c.close();
        assert!(matches!(reader.join().unwrap(), Err(LinkError::Closed)));
        drop(d);
    }

    #[test]
    fn cutter_resets_both_ends() {
        let (a, b) = MemoryLink::pair(FaultPlan::none(), 0);
        let cutter = a.cutter();
        a.send(b"lost").unwrap();
        let b = Arc::new(b);
        let reader = {
            let b = Arc::clone(&b);
            thread::spawn(move || (b.recv(T), b.recv(None)))
        };
        thread::sleep(Duration::from_millis(20));
        cutter.cut();
        let (first, second) = reader.join().unwrap();
        assert_eq!(first.unwrap(), Some(b"lost".to_vec()));
        assert!(matches!(second, Err(LinkError::Reset)));
        assert!(matches!(a.send(b"x"), Err(LinkError::Reset)));
        assert!(cutter.stats().cut);
    }

    #[test]
    fn random_cut_is_reproducible() {
        let plan = FaultPlan::none().with_cut(0.05);
        let count = |seed| {
            let (a, _b) = MemoryLink::pair(plan, seed);
            (0..1000).take_while(|_| a.send(b"m").is_ok()).count()
        };
        let n = count(3);
        assert!(n < 1000);
        assert_eq!(n, count(3));
    }

    #[test]
    fn full_queue_blocks_sender_until_read() {
        let (a, b) = MemoryLink::pair(FaultPlan::none(), 0);
        let a = Arc::new(a);
        let writer = {
            let a = Arc::clone(&a);
            thread::spawn(move || {
                for i in 0..(DEFAULT_CAPACITY as u32 + 10) {
                    a.send(&i.to_le_bytes()).unwrap();
                }
            })
        };
        let mut n = 0;
        while n < DEFAULT_CAPACITY + 10 {
            if b.recv(T).unwrap().is_some() {
                n += 1;
            }
        }
        writer.join().unwrap();
    }
}
