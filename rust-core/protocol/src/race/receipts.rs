//! What the peer has received of our race, as its acknowledgements prove: our
//! `SeedReveal`, every `RaceMove` and our `RaceStop` travel on the exactly-once stream, so
//! an acknowledgement covering one of them shows the peer had it. The reveal's tells when
//! the peer's time began at the latest (see `due`). A cut ([`Race::on_cut`]) exists only for a
//! peer that went without our stop past its grace period: one that counts fewer of our
//! moves than the peer had acknowledged, or comes after the peer had acknowledged our
//! stop, is a cheat (an attempt to erase our score after the race, say) and is refused
//! ([`RaceFault::CutAfterReceipt`](super::RaceFault::CutAfterReceipt)).
//!
//! The session tells the race the sequence numbers of the messages it queued
//! ([`Race::note_sent`]) and what the peer acknowledged before each of its messages is
//! handled ([`Race::note_acked`]), so a cut is judged by what the peer had acknowledged
//! in earlier envelopes than the cut's own — and before the earliest moment an honest
//! cut could exist (our limit plus the grace period, less the tolerance: the same bound
//! [`RaceFault::EarlyCut`](super::RaceFault::EarlyCut) puts on the cut). Later
//! acknowledgements prove nothing: after a long outage both sides cut each other, and
//! when the link is back each side's transport acknowledges the moves the other queued
//! meanwhile — moves its race, already cut, ignores. Counting those would refuse the
//! other's honest cut, and the two sides would keep different results.

use super::{Race, earliest_cut};
use crate::message::Body;
use std::collections::VecDeque;

/// Our race messages in flight, and what the peer acknowledged of them.
#[derive(Clone, Debug, Default)]
pub(super) struct Receipts {
    /// Our seed reveal's sequence number, until the peer acknowledges it.
    reveal: Option<u64>,
    /// When the peer's acknowledgement of our reveal arrived.
    pub(super) reveal_acked_at: Option<u64>,
    /// Our moves not yet acknowledged: (sequence number, our turn count after it).
    moves: VecDeque<(u64, u32)>,
    /// Our stop's sequence number, once queued.
    stop: Option<u64>,
    /// Our moves the peer acknowledged.
    pub(super) moves_received: u32,
    /// The peer acknowledged our stop.
    pub(super) stop_received: bool,
}

impl Race {
    /// The session queued our race message `body` as number `seq` of the stream.
    pub fn note_sent(&mut self, body: &Body, seq: u64) {
        match body {
            Body::RaceMove { turn, .. } => {
                self.receipts.moves.push_back((seq, turn.saturating_add(1)));
            }
            Body::RaceStop { .. } => self.receipts.stop = Some(seq),
            Body::SeedReveal { .. } => self.receipts.reveal = Some(seq),
            _ => {}
        }
    }

    /// The peer has acknowledged the first `acked` messages of our stream, in an envelope
    /// that arrived at `now` (ignored from the earliest honest cut on: see the module docs).
    pub fn note_acked(&mut self, acked: u64, now: u64) {
        if self.receipts.reveal.is_some_and(|s| s < acked) {
            self.receipts.reveal = None;
            self.receipts.reveal_acked_at = Some(now);
            self.peer_started_by(now);
        }
        let frozen =
            self.boards.is_some() && self.limit_at().is_some_and(|l| now >= earliest_cut(l));
        if frozen {
            return;
        }
        let r = &mut self.receipts;
        while let Some(&(seq, turns)) = r.moves.front() {
            if seq >= acked {
                break;
            }
            r.moves.pop_front();
            r.moves_received = r.moves_received.max(turns);
        }
        if r.stop.is_some_and(|s| s < acked) {
            r.stop_received = true;
        }
    }
}
