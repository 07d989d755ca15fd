//! The reliable message layer: sequence numbers, cumulative acknowledgements,
//! retransmission on timeout, duplicate suppression and in-order delivery.
//!
//! Full sequence numbers are 64-bit counters; the wire carries their low 4 bits
//! ([`Envelope`](crate::message::Envelope)). At most [`WINDOW`] = 8 messages are in flight,
//! and the crypto layer accepts a frame only if it is newer than every frame accepted
//! before, so a sequenced message that is accepted lies within `WINDOW` of the next
//! expected one on either side: 16 values tell them apart. A new link restarts the crypto
//! layer; the `Resume` exchange then resynchronises the full counters.

use crate::message::Body;
use std::collections::{BTreeMap, VecDeque};

/// Sequenced messages in flight at most.
pub(crate) const WINDOW: u64 = 8;
/// Acknowledgements that repeat the oldest message in flight (the peer holds later ones, or
/// their frames were on their way) before that message goes again without waiting for its
/// timeout ([`Reliable::on_ack`]).
pub(crate) const FAST_RETRANSMIT_ACKS: u32 = 3;

/// Messages waiting to be sent at most (a local limit; the API reports `QueueFull`).
pub(crate) const OUTBOX_MAX: usize = 64;
/// Hard limit including automatic replies to the peer (declines, error answers): a peer
/// that floods requests and never acknowledges cannot grow the outbox beyond it.
const OUTBOX_HARD_MAX: usize = OUTBOX_MAX + 16;
/// Race messages waiting to be sent at most, apart from the limits above: a race move is
/// played on our own board and must not be refused while the link is down (the race's
/// clock runs on), so the moves of a whole race may wait for the link's return — 16,384
/// is more moves than a Lines board lasts in a race's longest time limit at a human's pace
/// (and the largest turn number a move encodes in its short form).
pub(crate) const RACE_OUTBOX_MAX: usize = 16_384;

#[derive(Debug)]
struct Outgoing {
    seq: u64,
    body: Body,
    sent_at: Option<u64>,
    sent_before: bool,
    /// Sent more than once (its acknowledgement is no round-trip sample: Karn's rule).
    resent: bool,
    /// A race message, counted against [`RACE_OUTBOX_MAX`] and not the other limits.
    race: bool,
}

/// Sender and receiver state of the reliable stream (one per session, kept across links).
#[derive(Debug)]
pub(crate) struct Reliable {
    next_seq: u64,
    sent_upto: u64,
    outbox: VecDeque<Outgoing>,
    /// Race messages in the outbox ([`Reliable::push_race`]).
    race_queued: usize,
    expected: u64,
    early: BTreeMap<u64, Body>,
    /// When an acknowledgement owed to the peer must go out on its own (`None`: nothing
    /// owed). Any frame we send carries it before that.
    ack_due: Option<u64>,
    ack_delay: u64,
    rto: u64,
    rto_init: u64,
    rto_max: u64,
    /// Acknowledgements in a row that named the oldest message in flight as still missing.
    dup_acks: u32,
    /// An acknowledgement came since the last timeout: the peer is there, and the next
    /// timeout does not double (only a silent peer backs the timer off).
    heard: bool,
    /// Messages sent again.
    pub(crate) retransmissions: u64,
}

impl Reliable {
    /// A stream with the first and longest retransmission timeouts and the delay of a
    /// bare acknowledgement, in milliseconds.
    pub(crate) fn new(rto_init: u64, rto_max: u64, ack_delay: u64) -> Self {
        Reliable {
            next_seq: 0,
            sent_upto: 0,
            outbox: VecDeque::new(),
            race_queued: 0,
            expected: 0,
            early: BTreeMap::new(),
            ack_due: None,
            ack_delay,
            rto: rto_init,
            rto_init,
            rto_max,
            dup_acks: 0,
            heard: false,
            retransmissions: 0,
        }
    }

    fn base(&self) -> u64 {
        self.outbox.front().map_or(self.next_seq, |o| o.seq)
    }

    /// Next sequence number expected from the peer (everything below was delivered).
    pub(crate) fn expected(&self) -> u64 {
        self.expected
    }

    /// Low 4 bits of the next expected sequence number (the `ack` of the header).
    pub(crate) fn ack_nibble(&self) -> u8 {
        (self.expected & 0x0f) as u8
    }

    /// Low 4 bits of the next sequence number (the `seq` of unsequenced envelopes).
    pub(crate) fn seq_nibble(&self) -> u8 {
        (self.next_seq & 0x0f) as u8
    }

    /// Messages in the outbox other than race messages.
    fn others(&self) -> usize {
        self.outbox.len().saturating_sub(self.race_queued)
    }

    /// True when the outbox has room for `n` more messages (race messages apart).
    pub(crate) fn has_room(&self, n: usize) -> bool {
        self.others() + n <= OUTBOX_MAX
    }

    /// True when the outbox has room for `n` more race messages ([`RACE_OUTBOX_MAX`]).
    pub(crate) fn has_race_room(&self, n: usize) -> bool {
        self.race_queued + n <= RACE_OUTBOX_MAX
    }

    /// Queues a sequenced body; returns its sequence number, or `None` (and dropped)
    /// beyond the hard limit. Local actions check [`Reliable::has_room`] first, so only
    /// replies to a flooding peer are dropped.
    pub(crate) fn push(&mut self, body: Body) -> Option<u64> {
        if self.others() >= OUTBOX_HARD_MAX {
            return None;
        }
        Some(self.push_back(body, false))
    }

    /// Queues a race message of our own (a move, stop, cut, resignation, seed reveal or the
    /// abort of a race that never started),
    /// counted against [`RACE_OUTBOX_MAX`] only; `None` (and dropped) beyond it.
    pub(crate) fn push_race(&mut self, body: Body) -> Option<u64> {
        if !self.has_race_room(1) {
            return None;
        }
        self.race_queued += 1;
        Some(self.push_back(body, true))
    }

    fn push_back(&mut self, body: Body, race: bool) -> u64 {
        let seq = self.next_seq;
        self.outbox.push_back(Outgoing {
            seq,
            body,
            sent_at: None,
            sent_before: false,
            resent: false,
            race,
        });
        self.next_seq += 1;
        seq
    }

    /// Takes the oldest message out of the outbox (it was acknowledged).
    fn pop_front(&mut self) -> Option<Outgoing> {
        let o = self.outbox.pop_front()?;
        if o.race {
            self.race_queued = self.race_queued.saturating_sub(1);
        }
        Some(o)
    }

    /// How many of our sequenced messages the peer has acknowledged: every message with
    /// a smaller sequence number reached it.
    pub(crate) fn acked(&self) -> u64 {
        self.base()
    }

    /// Handles the `ack` nibble of a received envelope at `now`; returns the shortest round
    /// trip among the messages it acknowledges that were sent only once, if any.
    ///
    /// Fast retransmission: the [`FAST_RETRANSMIT_ACKS`]th acknowledgement in a row that
    /// still asks for the oldest message in flight, once that message has been out for half
    /// the first timeout, sends it again at once (the timeout and its backoff stay). The
    /// peer acknowledges every frame it takes, so repeated acknowledgements mean that later
    /// messages arrived without this one. The crypto layer refuses a frame that an
    /// overtaking frame made stale: without this, a message lost that way waited for the
    /// doubling timeout, round after round, and a race move could be held up for seconds
    /// on a live link.
    pub(crate) fn on_ack(&mut self, nibble: u8, now: u64) -> Option<u64> {
        let base = self.base();
        let d = u64::from(nibble.wrapping_sub(base as u8) & 0x0f);
        let acked = base + d;
        self.heard = true;
        if d == 0 && self.sent_upto > base {
            self.dup_acks += 1;
            let min_age = self.rto_init / 2;
            if let Some(head) = self.outbox.front_mut()
                && self.dup_acks >= FAST_RETRANSMIT_ACKS
                && head
                    .sent_at
                    .is_some_and(|t| now.saturating_sub(t) >= min_age)
            {
                head.sent_at = None;
                self.dup_acks = 0;
            }
        }
        if acked > self.sent_upto || d == 0 {
            return None;
        }
        self.dup_acks = 0;
        let mut rtt: Option<u64> = None;
        while self.outbox.front().is_some_and(|o| o.seq < acked) {
            let Some(o) = self.pop_front() else { break };
            if let (Some(at), false) = (o.sent_at, o.resent) {
                let sample = now.saturating_sub(at);
                rtt = Some(rtt.map_or(sample, |r| r.min(sample)));
            }
        }
        self.rto = self.rto_init;
        rtt
    }

    /// When a bare acknowledgement is due, if one is owed.
    pub(crate) fn ack_due(&self) -> Option<u64> {
        self.ack_due
    }

    /// True when the acknowledgement owed must go out on its own at `now`.
    pub(crate) fn ack_overdue(&self, now: u64) -> bool {
        self.ack_due.is_some_and(|d| d <= now)
    }

    /// A frame carrying the current `ack` nibble went out: nothing is owed any more.
    pub(crate) fn ack_sent(&mut self) {
        self.ack_due = None;
    }

    /// Handles a sequenced body with the `seq` nibble at `now`; returns the bodies now
    /// deliverable in order (none for a duplicate). An acknowledgement is owed from now
    /// on, due [`Reliable::ack_due`].
    pub(crate) fn on_data(&mut self, nibble: u8, body: Body, now: u64) -> Vec<Body> {
        if self.ack_due.is_none() {
            self.ack_due = Some(now.saturating_add(self.ack_delay));
        }
        let d = u64::from(nibble.wrapping_sub(self.expected as u8) & 0x0f);
        if d >= WINDOW {
            return Vec::new(); // an old duplicate: the ack tells the peer again
        }
        if d > 0 {
            self.early.entry(self.expected + d).or_insert(body);
            return Vec::new();
        }
        let mut out = vec![body];
        self.expected += 1;
        while let Some(next) = self.early.remove(&self.expected) {
            out.push(next);
            self.expected += 1;
        }
        out
    }

    /// The next sequenced message to put on the link now, as (seq nibble, body).
    pub(crate) fn next_to_send(&mut self, now: u64) -> Option<(u8, Body)> {
        let limit = self.base() + WINDOW;
        let o = self
            .outbox
            .iter_mut()
            .take_while(|o| o.seq < limit)
            .find(|o| o.sent_at.is_none())?;
        o.sent_at = Some(now);
        if o.sent_before {
            self.retransmissions += 1;
            o.resent = true;
        }
        o.sent_before = true;
        self.sent_upto = self.sent_upto.max(o.seq + 1);
        Some(((o.seq & 0x0f) as u8, o.body.clone()))
    }

    /// When the oldest message in flight should be sent again.
    pub(crate) fn deadline(&self) -> Option<u64> {
        self.outbox
            .iter()
            .filter_map(|o| o.sent_at)
            .min()
            .map(|t| t + self.rto)
    }

    /// Marks everything in flight for retransmission if the timer expired. The timeout
    /// doubles (up to the longest) unless an acknowledgement came since the last one: a
    /// peer that answers is reachable, and its messages lost one after another must not
    /// wait longer and longer (a race move held up beyond the race's allowance).
    pub(crate) fn on_timeout(&mut self, now: u64) {
        if self.deadline().is_some_and(|d| d <= now) {
            for o in &mut self.outbox {
                o.sent_at = None;
            }
            if !self.heard {
                self.rto = (self.rto * 2).min(self.rto_max);
            }
            self.heard = false;
        }
    }

    /// A new link: the peer has received everything below `last_seen`. Returns false if the
    /// peer claims more than was ever sent (queued messages never put on a link count as
    /// unsent, as in [`Reliable::on_ack`]).
    pub(crate) fn resume(&mut self, last_seen: u64) -> bool {
        if last_seen < self.base() || last_seen > self.sent_upto {
            // Below base: the peer forgot messages it acknowledged (it cannot happen with an
            // honest peer, and they are gone). Above: more than was ever sent.
            return false;
        }
        while self.outbox.front().is_some_and(|o| o.seq < last_seen) {
            self.pop_front();
        }
        for o in &mut self.outbox {
            o.sent_at = None;
        }
        self.sent_upto = self.sent_upto.max(last_seen);
        self.rto = self.rto_init;
        true
    }

    /// True when later messages of the peer wait for an earlier one (a gap in its stream).
    pub(crate) fn has_gap(&self) -> bool {
        !self.early.is_empty()
    }

    /// Messages waiting or in flight.
    pub(crate) fn unacked(&self) -> usize {
        self.outbox.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(n: u32) -> Body {
        Body::UndoRequest { ply: n }
    }

    #[test]
    fn in_order_and_duplicates() {
        let mut r = Reliable::new(100, 1000, 0);
        assert_eq!(r.on_data(0, mv(0), 0), vec![mv(0)]);
        assert_eq!(r.on_data(0, mv(0), 0), vec![]); // duplicate
        assert_eq!(r.on_data(2, mv(2), 0), vec![]); // early
        assert_eq!(r.on_data(1, mv(1), 0), vec![mv(1), mv(2)]);
        assert_eq!(r.expected(), 3);
        assert_eq!(r.on_data(1, mv(1), 0), vec![]);
    }

    #[test]
    fn wraps_around_sixteen() {
        let mut a = Reliable::new(100, 1000, 0);
        let mut b = Reliable::new(100, 1000, 0);
        for i in 0..100 {
            a.push(mv(i));
            let (s, body) = a.next_to_send(0).unwrap();
            assert_eq!(b.on_data(s, body, 0), vec![mv(i)]);
            a.on_ack(b.ack_nibble(), 0);
            assert_eq!(a.unacked(), 0);
        }
    }

    #[test]
    fn an_acknowledgement_waits_for_a_frame_to_ride_on_or_its_delay() {
        let mut r = Reliable::new(100, 1000, 5);
        assert_eq!(r.ack_due(), None);
        r.on_data(0, mv(0), 10);
        assert_eq!(r.ack_due(), Some(15));
        // A second message does not push the deadline back.
        r.on_data(1, mv(1), 13);
        assert_eq!(r.ack_due(), Some(15));
        assert!(!r.ack_overdue(14));
        assert!(r.ack_overdue(15));
        r.ack_sent();
        assert_eq!(r.ack_due(), None);
        // A duplicate is acknowledged again (the peer missed our acknowledgement).
        r.on_data(0, mv(0), 20);
        assert_eq!(r.ack_due(), Some(25));
        // Without a delay, it is due at once.
        let mut now = Reliable::new(100, 1000, 0);
        now.on_data(0, mv(0), 7);
        assert!(now.ack_overdue(7));
    }

    #[test]
    fn race_messages_wait_beyond_the_usual_limit_and_leave_its_room_to_the_rest() {
        let mut a = Reliable::new(100, 1000, 0);
        for i in 0..(OUTBOX_HARD_MAX as u32 + 100) {
            assert!(a.push_race(mv(i)).is_some(), "race message {i}");
        }
        // The rest still has its own room, and its own hard limit.
        assert!(a.has_room(OUTBOX_MAX));
        for i in 0..OUTBOX_HARD_MAX as u32 {
            assert!(a.push(mv(i)).is_some());
        }
        assert!(a.push(mv(0)).is_none());
        assert!(!a.has_room(1) && a.has_race_room(1));
        // Acknowledged race messages give their room back.
        let mut b = Reliable::new(100, 1000, 0);
        for _ in 0..40 {
            let (s, body) = a.next_to_send(0).unwrap();
            b.on_data(s, body, 0);
            a.on_ack(b.ack_nibble(), 0);
        }
        assert_eq!(a.race_queued, OUTBOX_HARD_MAX + 100 - 40);
        let mut c = Reliable::new(100, 1000, 0);
        while c.has_race_room(1) {
            c.push_race(mv(0));
        }
        assert_eq!(c.unacked(), RACE_OUTBOX_MAX);
        assert!(c.push_race(mv(0)).is_none());
    }

    #[test]
    fn repeated_acknowledgements_send_the_missing_message_again_before_its_timeout() {
        let mut a = Reliable::new(100, 1000, 0);
        for i in 0..4 {
            a.push(mv(i));
        }
        while a.next_to_send(0).is_some() {}
        // The peer took 1–3 without 0 (the frame of 0 was lost or refused as stale): every
        // frame it sends still asks for 0.
        a.on_ack(0, 10);
        a.on_ack(0, 20);
        a.on_ack(0, 30);
        assert_eq!(
            a.next_to_send(30),
            None,
            "out for less than half the timeout"
        );
        for _ in 0..FAST_RETRANSMIT_ACKS {
            a.on_ack(0, 60);
        }
        assert_eq!(
            a.next_to_send(60).map(|(seq, _)| seq),
            Some(0),
            "0 again at once"
        );
        assert_eq!(a.next_to_send(60), None, "only the missing one");
        assert_eq!(a.retransmissions, 1);
        assert_eq!(
            a.deadline(),
            Some(100),
            "the timeout of the others runs on, no backoff"
        );
        // An acknowledgement that moves on starts the count again.
        a.on_ack(2, 70);
        a.on_ack(2, 200);
        a.on_ack(2, 200);
        assert_eq!(a.next_to_send(200), None);
        a.on_ack(2, 200);
        assert_eq!(a.next_to_send(200).map(|(seq, _)| seq), Some(2));
        // Nothing in flight: repeated acknowledgements are no sign of loss.
        a.on_ack(4, 210);
        for _ in 0..10 {
            a.on_ack(4, 400);
        }
        a.push(mv(9));
        assert_eq!(a.next_to_send(400).map(|(seq, _)| seq), Some(4));
        assert_eq!(a.next_to_send(400), None);
    }

    #[test]
    fn the_timeout_backs_off_only_while_the_peer_is_silent() {
        let mut a = Reliable::new(100, 1000, 0);
        a.push(mv(0));
        a.push(mv(1));
        while a.next_to_send(0).is_some() {}
        a.on_ack(0, 50); // the peer answers, still without 0
        a.on_timeout(100);
        while a.next_to_send(100).is_some() {}
        assert_eq!(a.deadline(), Some(200), "heard: the same timeout");
        a.on_timeout(200);
        while a.next_to_send(200).is_some() {}
        assert_eq!(a.deadline(), Some(400), "silent since: doubled");
    }

    #[test]
    fn window_and_retransmit() {
        let mut a = Reliable::new(100, 1000, 0);
        for i in 0..10 {
            a.push(mv(i));
        }
        let mut sent = 0;
        while a.next_to_send(0).is_some() {
            sent += 1;
        }
        assert_eq!(sent, WINDOW);
        assert_eq!(a.deadline(), Some(100));
        a.on_timeout(100);
        assert!(a.next_to_send(100).is_some());
        assert_eq!(a.retransmissions, 1);
        assert_eq!(a.deadline(), Some(300)); // backoff doubled
        a.on_ack(3, 0);
        assert_eq!(a.unacked(), 7);
        // Messages 8 and 9 were queued, never sent: a peer cannot claim them.
        assert!(!a.resume(9));
        assert_eq!(a.unacked(), 7);
        assert!(a.resume(5));
        assert_eq!(a.unacked(), 5);
        assert!(!a.resume(2));
        assert!(!a.resume(11));
    }
}
