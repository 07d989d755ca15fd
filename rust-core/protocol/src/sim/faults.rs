//! A seeded fault plan and the in-memory channel that applies it.

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;

/// How badly the simulated link behaves. Probabilities are per mille, per frame (or per
/// delivered frame for disconnects).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FaultPlan {
    /// Frames lost.
    pub drop: u32,
    /// Frames delivered twice.
    pub duplicate: u32,
    /// Frames held back long enough to arrive after later ones.
    pub reorder: u32,
    /// Usual one-way latency, milliseconds (each frame gets 1..=latency).
    pub latency_ms: u64,
    /// Extra delay of a reordered frame, at most, milliseconds.
    pub reorder_ms: u64,
    /// Link cut after a delivered frame (then a reconnect and `Resume`).
    pub disconnect: u32,
}

impl FaultPlan {
    /// No faults: a perfect link with 1–10 ms latency.
    pub const NONE: FaultPlan = FaultPlan {
        drop: 0,
        duplicate: 0,
        reorder: 0,
        latency_ms: 10,
        reorder_ms: 0,
        disconnect: 0,
    };

    /// A rough radio link: 5 % drops, 3 % duplicates, 5 % reordering, 0.5 % disconnects.
    pub const ROUGH: FaultPlan = FaultPlan {
        drop: 50,
        duplicate: 30,
        reorder: 50,
        latency_ms: 30,
        reorder_ms: 300,
        disconnect: 5,
    };
}

impl Default for FaultPlan {
    fn default() -> Self {
        FaultPlan::ROUGH
    }
}

/// A uniform number in `0..n` (`n > 0`).
pub(crate) fn below(rng: &mut ChaCha8Rng, n: u64) -> u64 {
    rng.next_u64() % n.max(1)
}

/// True with probability `per_mille / 1000`.
pub(crate) fn chance(rng: &mut ChaCha8Rng, per_mille: u32) -> bool {
    below(rng, 1000) < u64::from(per_mille)
}

#[derive(Debug)]
struct InFlight {
    at: u64,
    order: u64,
    to_b: bool,
    bytes: Vec<u8>,
}

/// Frames in flight between A and B on the current link.
#[derive(Debug, Default)]
pub(crate) struct Channel {
    flight: Vec<InFlight>,
    order: u64,
    /// Frames handed to the channel.
    pub(crate) sent: u64,
}

impl Channel {
    /// Sends a frame, applying the plan.
    pub(crate) fn send(
        &mut self,
        rng: &mut ChaCha8Rng,
        plan: &FaultPlan,
        now: u64,
        to_b: bool,
        bytes: Vec<u8>,
    ) {
        self.sent += 1;
        if chance(rng, plan.drop) {
            return;
        }
        let copies = if chance(rng, plan.duplicate) { 2 } else { 1 };
        for _ in 0..copies {
            let mut delay = 1 + below(rng, plan.latency_ms.max(1));
            if chance(rng, plan.reorder) {
                delay += below(rng, plan.reorder_ms.max(1));
            }
            self.order += 1;
            self.flight.push(InFlight {
                at: now + delay,
                order: self.order,
                to_b,
                bytes: bytes.clone(),
            });
        }
    }

    /// The next frame due at `now`: (to B?, bytes).
    pub(crate) fn pop_due(&mut self, now: u64) -> Option<(bool, Vec<u8>)> {
        let (i, _) = self
            .flight
            .iter()
            .enumerate()
            .filter(|(_, f)| f.at <= now)
            .min_by_key(|(_, f)| (f.at, f.order))?;
        let f = self.flight.swap_remove(i);
        Some((f.to_b, f.bytes))
    }

    /// When the next frame is due.
    pub(crate) fn next_due(&self) -> Option<u64> {
        self.flight.iter().map(|f| f.at).min()
    }

    /// Drops everything in flight (the link was cut).
    pub(crate) fn cut(&mut self) {
        self.flight.clear();
    }

    /// True when nothing is in flight.
    pub(crate) fn is_empty(&self) -> bool {
        self.flight.is_empty()
    }
}
