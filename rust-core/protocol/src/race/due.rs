//! When the peer's reveal and moves are due, and how the link's outages extend that.
//!
//! A race message carries no clock (a peer could fake one anyway), so the receiver judges
//! by when a message arrives, by its own clock:
//!
//! * **The peer's start.** Each side's time begins when the other's seed value reaches it,
//!   so the peer's began by the time its acknowledgement of our reveal, or its first move,
//!   arrived here: the first of the two is taken as its start. Until then it is
//!   taken as starting at our acceptance (we are the acceptor: the proposer could know the
//!   seed from then) or with us (the proposer). An outage that holds up our reveal starts
//!   the peer's time that much after ours, and its acknowledgement, held up as long, says
//!   so; without that, our cut of its board would come before its stop. The start is taken
//!   no later than the race's agreement plus [`RACE_LATE_MS`] and the outages that began
//!   while a reveal could still be awaited ([`RACE_REVEAL_MS`] + [`RACE_LATE_MS`] after the
//!   agreement), and never more than [`RACE_REVEAL_MS`] + [`RACE_GRACE_MS`] after it (the
//!   longest a side waits for a reveal): a peer heard from all along had our value within
//!   a round trip, and an outage later in the race cannot move its start.
//! * **Moves.** The peer's move must arrive by its time limit (as measured here: from its
//!   start) plus [`RACE_LATE_MS`]. A later move, while the link stayed up, was made
//!   after the peer's time was up: it is not counted, and the peer loses
//!   ([`RaceFault::MoveAfterTimeUp`](super::RaceFault::MoveAfterTimeUp)). From [`RACE_GRACE_MS`] after its limit the peer is
//!   taken as stopped anyway (and told with a cut) — while our reveal is unacknowledged
//!   and the peer has sent no move, not before the latest its start could be
//!   plus its time and the grace period, so a start held up by an outage longer than a
//!   short race is not cut before it could know.
//! * **The reveal.** The peer's part of the seed must arrive [`RACE_REVEAL_MS`] (plus
//!   [`RACE_LATE_MS`]) after the race was agreed here (our acceptance, or its acceptance's
//!   arrival). Otherwise the race is called off on both sides
//!   ([`RaceEnd::NoSeed`](super::RaceEnd::NoSeed), see the race's module docs) and a new
//!   race can be proposed: a proposer that dislikes the seed it learnt cannot keep the
//!   acceptor waiting.
//!
//! **Link outages.** A stretch longer than [`RACE_QUIET_MS`] without a frame from the peer
//! (the link down, or silent before the keepalive gave up on it) is added in full to both
//! allowances, as long as it began while the peer's moves were still due: the moves made
//! before the limit and held up by the outage arrive with the link's return (the frames
//! queued during a cut are sent again on the resumed link). An outage that held up the
//! peer's start is counted once: the later start moves its limit, and that much of the
//! outage no longer adds to its moves' allowance. After such a stretch the peer also has
//! [`RACE_LATE_MS`] from the link's return, and a new outage in that time counts too (found
//! by the race soak: a link back for 44 ms and down again for 10 s before the held-up moves
//! got through). While the peer is silent at the reveal's due time, the reveal waits at
//! most [`RACE_GRACE_MS`] more.
//!
//! A peer cannot be told from an outage: a modified client that cuts the link (or falls
//! silent for more than [`RACE_QUIET_MS`] at a time) and plays on meanwhile is believed,
//! up to the grace period, as before; one that keeps the link up and does not stop is
//! caught within [`RACE_LATE_MS`] of its limit. One that falls silent at the start, our
//! value in hand, and acknowledges it only later, is believed to have started later: its
//! time to play is as long as anyone's, but it had that much more time (at most
//! [`RACE_REVEAL_MS`] + [`RACE_GRACE_MS`]) to work out its moves — with the seed known,
//! as every side knows it, the spawns to come hold no secret from a modified client.

use super::{RACE_GRACE_MS, Race};

/// How late after the peer's time limit (as measured here) its move may arrive while the
/// link stays up: 10 s. It covers the round trip and the two clocks' start a message apart
/// (under a second on a working link) and a frame lost a few times on a lossy link (the
/// retransmission back-off reaches 4 s by default) or a lost keepalive.
pub const RACE_LATE_MS: u64 = 10_000;

/// A stretch without any frame from the peer longer than this, 6 s, is taken as the link
/// down (an idle peer still sends a keepalive every 5 s by default).
pub const RACE_QUIET_MS: u64 = 6_000;

/// How long after the race was agreed here the peer's part of the seed may take, 30 s
/// (plus [`RACE_LATE_MS`] and any outage): an app reveals at once, without asking its
/// player.
pub const RACE_REVEAL_MS: u64 = 30_000;

/// What a race knows of the link to the peer.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct LinkWatch {
    /// When the race was agreed here (our acceptance, or the peer's acceptance's arrival).
    agreed_at: Option<u64>,
    /// When we last heard from the peer (or the race was agreed, if later).
    last_heard: Option<u64>,
    /// Milliseconds of outages counted in the peer's favour.
    forgiven: u64,
    /// When the last outage counted ended (0: none).
    outage_end: u64,
    /// Milliseconds of outages that began while a reveal could still be awaited: what
    /// may have held up the peer's start.
    start_outage: u64,
    /// Milliseconds of `forgiven` that the peer's later start already makes up for.
    absorbed: u64,
    /// Milliseconds of silences that began while the peer's call-off could still be on its
    /// way: before its acknowledgement of our reveal (and [`RACE_LATE_MS`] after it).
    /// Counted apart from `forgiven`, which stops counting once the peer's moves are no
    /// longer due (a short race), while a call-off held up by the link is due until the
    /// link brings it.
    abort_outage: u64,
    /// When the last silence counted in `abort_outage` ended.
    abort_outage_end: u64,
}

impl LinkWatch {
    /// The race was agreed at `now` (the first call counts).
    pub(super) fn agreed(&mut self, now: u64) {
        if self.agreed_at.is_none() {
            self.agreed_at = Some(now);
            self.last_heard = Some(now);
        }
    }
}

impl Race {
    /// The peer had our seed value by `now`: its acknowledgement of our reveal, or its
    /// first move, arrived. The first such moment, bounded (see the module docs),
    /// is taken as its start.
    pub(super) fn peer_started_by(&mut self, now: u64) {
        if self.peer_start.is_some() {
            return;
        }
        let Some(agreed) = self.link.agreed_at else {
            return;
        };
        let allowance = self
            .link
            .start_outage
            .saturating_add(RACE_LATE_MS)
            .min(RACE_REVEAL_MS + RACE_GRACE_MS);
        let start = now.max(agreed).min(agreed.saturating_add(allowance));
        self.peer_start = Some(start);
        // The outage that held the start up is made up for by the later limit: as much of
        // it as the start is after the agreement (not after our own start, which the same
        // outage may have held up too).
        let shift = start.saturating_sub(agreed);
        self.link.absorbed = self.link.start_outage.min(shift);
    }

    /// When the peer's time began, by our clock (see the module docs).
    pub(super) fn peer_started_at(&self) -> u64 {
        self.peer_start.unwrap_or_else(|| self.assumed_peer_start())
    }

    /// The peer's start assumed until it is known: our acceptance (the acceptor), or our
    /// own start (the proposer).
    fn assumed_peer_start(&self) -> u64 {
        self.accepted_at.unwrap_or(self.started_at)
    }

    /// When the peer is taken as stopped (and cut): [`RACE_GRACE_MS`] after its limit —
    /// and, while nothing shows when it started, not before the latest it could have
    /// started (see the module docs).
    pub(super) fn peer_cut_at(&self) -> Option<u64> {
        let limit = self.peer_limit_at()?;
        let cut = limit.saturating_add(RACE_GRACE_MS);
        let latest = match (self.peer_start, self.link.agreed_at) {
            (None, Some(agreed)) => agreed
                .saturating_add(RACE_REVEAL_MS + RACE_GRACE_MS)
                .saturating_add(u64::from(self.options.time_limit_s) * 1000)
                .saturating_add(RACE_GRACE_MS),
            _ => 0,
        };
        Some(cut.max(latest))
    }
}

/// When a peer's move arrived, against its time.
pub(super) enum MoveTime {
    /// In time (or no time limit).
    InTime,
    /// At or after the grace period: the peer is taken as stopped where it is.
    CutDue,
    /// Late, the link up: `late_s` seconds after its limit.
    Late(u64),
}

impl Race {
    /// A frame from the peer arrived at `now` (the session calls it for every authenticated
    /// frame, before handling it; the first call after the peer's acceptance also marks when
    /// the race was agreed). A long silence before it counts as the link down (see
    /// [`RACE_QUIET_MS`]).
    pub fn heard(&mut self, now: u64) {
        self.link.agreed(now);
        let since = self.link.last_heard.unwrap_or(now);
        let gap = now.saturating_sub(since);
        if gap > RACE_QUIET_MS && self.abort_may_be_held_up(since) {
            self.link.abort_outage = self.link.abort_outage.saturating_add(gap);
            self.link.abort_outage_end = now;
        }
        if gap > RACE_QUIET_MS && self.outage_counts(since) {
            self.link.forgiven = self.link.forgiven.saturating_add(gap);
            self.link.outage_end = now;
            let reveal_awaited = self
                .link
                .agreed_at
                .is_some_and(|a| since < a.saturating_add(RACE_REVEAL_MS + RACE_LATE_MS));
            if reveal_awaited {
                self.link.start_outage = self.link.start_outage.saturating_add(gap);
            }
        }
        self.link.last_heard = Some(now);
    }

    /// True if an outage that began at `from` may have held up the peer's moves or reveal:
    /// it began while they were still due (before the seed, or by the time allowed for
    /// its moves so far — a link that comes back for a moment and goes down again before
    /// the moves held up get through counts both times).
    fn outage_counts(&self, from: u64) -> bool {
        match (&self.boards, self.peer_limit_at()) {
            (Some(_), Some(limit)) => from <= self.allowed_until(limit, self.moves_forgiven()),
            _ => true,
        }
    }

    /// The outages that extend the peer's moves' allowance: those its later start does
    /// not already make up for.
    fn moves_forgiven(&self) -> u64 {
        self.link.forgiven.saturating_sub(self.link.absorbed)
    }

    /// Until when something due at `base` may arrive: [`RACE_LATE_MS`] after `base` and
    /// the outages `forgiven`, and after the last outage's end.
    fn allowed_until(&self, base: u64, forgiven: u64) -> u64 {
        base.saturating_add(forgiven)
            .max(self.link.outage_end)
            .saturating_add(RACE_LATE_MS)
    }

    /// When the race ends for want of the peer's reveal, while it is awaited here.
    pub(super) fn reveal_due(&self) -> Option<u64> {
        if self.boards.is_some() || self.result.is_some() {
            return None;
        }
        let base = self.link.agreed_at?.saturating_add(RACE_REVEAL_MS);
        let cap = base.saturating_add(RACE_GRACE_MS);
        let due = self.allowed_until(base, self.link.forgiven).min(cap);
        // Silent at that time: the link is down, and the outage will be counted when it ends.
        let silent = self
            .link
            .last_heard
            .is_some_and(|h| h.saturating_add(RACE_QUIET_MS) < due);
        Some(if silent { cap } else { due })
    }

    /// The latest an honest peer's call-off can arrive: sent when its wait for our reveal
    /// ran out (the longest wait after the agreement), plus [`RACE_LATE_MS`] and the
    /// silences that may have held it up (`None` before the agreement). Once the peer has
    /// acknowledged our reveal, no later than [`RACE_LATE_MS`] after that (or after the
    /// last silence counted): an honest peer queues its call-off before it has our reveal
    /// to acknowledge, so a peer that acknowledged it at once can no longer void the race
    /// by the time it has watched a minute of our moves.
    pub(super) fn abort_due(&self) -> Option<u64> {
        let sent_by = self
            .link
            .agreed_at?
            .saturating_add(RACE_REVEAL_MS + RACE_GRACE_MS);
        let held = self.link.forgiven.max(self.link.abort_outage);
        let end = self.link.outage_end.max(self.link.abort_outage_end);
        let due = sent_by
            .saturating_add(held)
            .max(end)
            .saturating_add(RACE_LATE_MS);
        Some(match self.receipts.reveal_acked_at {
            Some(acked) => due.min(
                acked
                    .max(self.link.abort_outage_end)
                    .saturating_add(RACE_LATE_MS),
            ),
            None => due,
        })
    }

    /// True if a silence that began at `from` may have held up the peer's call-off: it
    /// began before the peer acknowledged our reveal, or within [`RACE_LATE_MS`] after (an
    /// honest call-off is sent before that acknowledgement, and may have been lost and
    /// sent again).
    fn abort_may_be_held_up(&self, from: u64) -> bool {
        self.receipts
            .reveal_acked_at
            .is_none_or(|a| from < a.saturating_add(RACE_LATE_MS))
    }

    /// How a peer's move arriving at `now` stands against its time.
    pub(super) fn move_time(&self, now: u64) -> MoveTime {
        let (Some(limit), Some(cut)) = (
            self.peer_limit_at().filter(|_| self.boards.is_some()),
            self.peer_cut_at(),
        ) else {
            return MoveTime::InTime;
        };
        if now >= cut {
            MoveTime::CutDue
        } else if now > self.allowed_until(limit, self.moves_forgiven()) {
            MoveTime::Late((now - limit).div_ceil(1000))
        } else {
            MoveTime::InTime
        }
    }
}
