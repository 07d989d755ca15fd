//! A seeded fault plan and the in-memory channel that applies it.
//!
//! The channel behaves like the links Banco runs on (TCP, BLE GATT): each direction
//! delivers in order, every frame after a random latency but never before the frame sent
//! ahead of it. Only the plan's `reorder` fault holds a frame back so that later frames
//! overtake it (the transport then refuses it and the reliable layer sends it again).
//! Independent latencies per frame would reorder every burst of frames sent within one
//! latency, which no real link does and which starves a stream of many messages in flight
//! (the Lines race).

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
    /// Usual one-way latency, milliseconds (each frame gets 1..=latency, in order: a frame
    /// never arrives before the one sent ahead of it unless that one was reordered).
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
    /// Arrival time of the last in-order frame per direction (to A, to B).
    last_at: [u64; 2],
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
            let delay = 1 + below(rng, plan.latency_ms.max(1));
            let at = if chance(rng, plan.reorder) {
                // Held back: later frames overtake it.
                now + delay + below(rng, plan.reorder_ms.max(1))
            } else {
                let last = &mut self.last_at[usize::from(to_b)];
                *last = (*last).max(now + delay);
                *last
            };
            self.order += 1;
            self.flight.push(InFlight {
                at,
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
        self.last_at = [0; 2];
    }

    /// True when nothing is in flight.
    pub(crate) fn is_empty(&self) -> bool {
        self.flight.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::SeedableRng;

    fn deliver(plan: &FaultPlan) -> Vec<u8> {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut chan = Channel::default();
        for i in 0..100u8 {
            // A burst: many frames within one latency.
            chan.send(&mut rng, plan, u64::from(i / 10), true, vec![i]);
        }
        let mut got = Vec::new();
        let mut now = 0;
        while !chan.is_empty() {
            now = chan.next_due().unwrap_or(now).max(now);
            while let Some((to_b, bytes)) = chan.pop_due(now) {
                assert!(to_b);
                got.extend(bytes);
            }
        }
        got
    }

    #[test]
    fn each_direction_delivers_in_order_unless_a_frame_is_reordered() {
        let in_order = FaultPlan {
            reorder: 0,
            ..FaultPlan::ROUGH
        };
        let got = deliver(&in_order);
        assert!(got.windows(2).all(|w| w[0] <= w[1]), "{got:?}");
        assert!(got.len() > 80, "most frames arrive: {}", got.len());
        let reordering = FaultPlan {
            reorder: 200,
            ..FaultPlan::ROUGH
        };
        let got = deliver(&reordering);
        let overtaken = got.windows(2).filter(|w| w[0] > w[1]).count();
        assert!(overtaken > 0, "{got:?}");
        assert!(
            overtaken < 40,
            "only the reordered frames are late: {overtaken}"
        );
    }
}
