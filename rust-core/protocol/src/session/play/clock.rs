//! Clocks a peer cannot cheat: its claimed thinking time is raised to what was measured
//! here, and its flag falls here too.
//!
//! Each `Move` carries the mover's own count of its thinking time (100 ms units). A peer
//! that under-reports would never run out of time, so the time charged to the peer is the
//! larger of its claim and the time measured here since its turn began (when our move was
//! played, or the game started) minus an allowance for the round trip: the shortest round
//! trip measured on the link (a peer can lengthen a round trip, never shorten it), at most
//! [`MAX_RTT_ALLOWANCE_MS`], plus one clock unit for the peer's rounding down. An honest
//! peer's claim is never raised unless the link's delay varies by more than a unit.
//!
//! When the charged time reaches the peer's remaining time — on a move's arrival, or at
//! the peer's deadline ([`MatchState::peer_flag_deadline`]) when no move comes — the peer
//! has lost on time: `Body::TimeForfeit { ply }` tells it so, and it ends the game at that
//! ply ([`MatchState::on_time_forfeit`]), even if its own clock still shows time: the
//! measuring side decides — within what the receiver measured itself. A forfeit is only
//! believed if the receiver's own measurement of that turn, plus what it cannot see of
//! the peer's (the round-trip allowance, [`MAX_RTT_ALLOWANCE_MS`] and a clock unit, the
//! time the peer's last move spent on the way, and the time our move took to reach the
//! peer when it crossed the forfeit, bounded by its acknowledgement), reaches its
//! remaining time: an honest peer's forfeit always does, a forged one early in our turn
//! does not. The peer charges each of our moves the time it measured, which includes the
//! network's delays both ways: our time left as the peer counts it may be less than
//! ours by the sum of those delays over the game ([`MatchState::delays`], an upper
//! bound from the moves' transit and acknowledgements), and the check allows for it.
//! Such a forfeit is refused (`Error { UNEXPECTED }`, the game goes on and
//! our clock keeps running, so a real flag still falls). The peer's move's time on the
//! way is its measured time minus its claimed thinking time: a peer that under-claims to
//! widen it is charged the measured time anyway ([`charged_ms`]), so a forged forfeit
//! can never take more of our time than the forger spent of its own. A forfeit in an
//! untimed game, or naming a position where the receiver was not to move while no undo,
//! refused move or unacknowledged move of the receiver's could explain it, is a false
//! claim: the forger loses the game ([`WinReason::Forfeit`]). Where such a crossing
//! cannot be ruled out, a forfeit naming a position where the receiver was not to move
//! abandons the game ([`AbortReason::CLOCKS_DIFFER`]).
//!
//! The clock runs while the link is down (as on game servers): a peer could otherwise cut
//! the link to think for free. On a bad link an honest mover therefore loses the delay
//! beyond the shortest round trip.
//!
//! After a chance step the next mover's turn starts with the outcome — except a peer's
//! whose reveal link came late: the peer had the outcome as soon as our link reached it,
//! so a peer that holds its own link back could otherwise think for free and then send
//! link and move together. Its turn runs here from when its link was due: the step's
//! start plus the round-trip allowance (our link's way there and the peer's back), or the
//! link's arrival if sooner. That is never earlier than a turn after a move of ours
//! starts (when we played it), so an honest peer on a slow or lossy link is charged no
//! more than after an ordinary move, and its own check of a forfeit allows for it as it
//! does there (the time our move spent on the way) — once the peer's game has begun
//! before our move ([`MatchState::peer_started`]: we proposed, or the peer has moved).
//! Before that, when we accepted and our first move starts a chance step, the peer
//! learns that the game began from our `Accept`, which an outage may hold back, and
//! cannot tell how long our move took to reach it: its late link is not charged then
//! (a proposer that holds its link back there thinks for free over its first move only).
//! Found by the fair-draw soak (seed 20261202, game 4205): the `Accept` and red's first
//! flip were held back 10 s by an outage, and black, charged from the flip, was flagged
//! with most of its time left as it counted it.
//!
//! Two turns start later here than on the peer's side by more than a move's time on the
//! way, and are allowed for. The proposer's first turn: it starts there when our
//! `Accept` arrives (or our first move, after it), which an outage may hold back longer
//! than the clock, so the side that accepted measures it from no earlier than the peer's
//! acknowledgement of the `Accept` ([`MatchState::await_start_ack`]; a proposer that
//! delays it thinks for free only over its first move), and the turn may have begun
//! there as early as the acceptance, or our first move. Found for the proposer moving
//! second by the fair-draw soak with acknowledgements sent at once (seed 7, game 8369):
//! red accepted and passed, an outage held both back 20 s, and red flagged black, which
//! had not seen the game begin. And the peer's turn after a chance outcome of
//! our flip: the peer may have drawn it as early as the step began here. In both, the
//! time the peer's next move spent on the way (what a forfeit it sends allows for)
//! counts from that earliest start ([`MatchState::charge_peer`]), as it does for our turn
//! after an outcome (a peer that holds back its acknowledgement or its link widens that
//! allowance, as it always could with its link). Found by the fair-draw soak (seed
//! 20261202, games 4002, 4409 and 5367): the peer's honest forfeit was refused and the
//! two sides ended differently.
//!
//! ```
//! use banco_game::{Color, GameKind};
//! use banco_protocol::message::{ClockSpec, MIN_CLOCK_BASE_MS};
//! use banco_protocol::MatchSpec;
//!
//! // The shortest clock a session proposes or accepts.
//! let spec = MatchSpec {
//!     clock: Some(ClockSpec { base_ms: MIN_CLOCK_BASE_MS, increment_ms: 0 }),
//!     ..MatchSpec::new(GameKind::Xiangqi, Color::Red)
//! };
//! assert_eq!(spec.clock.map(|c| c.base_ms), Some(10_000));
//! ```

use super::{CLOCK_UNIT_MS, Events, MatchState};
use crate::message::{AbortReason, Body, ErrorCode};
use banco_game::{Game, Outcome, WinReason};

/// Longest round trip allowed for when measuring the peer's thinking time, milliseconds.
pub(crate) const MAX_RTT_ALLOWANCE_MS: u64 = 1_000;

/// What the peer's measurement of our turn may exceed ours by besides the measured
/// delays (see [`MatchState::forfeit_credible`]): the largest round-trip allowance and one
/// clock unit of rounding, twice (each side's allowance and rounding), milliseconds.
const FORFEIT_SLACK_MS: u64 = 2 * (MAX_RTT_ALLOWANCE_MS + CLOCK_UNIT_MS);

/// Our last move, as measured here: what a forfeit that crossed it is checked against.
#[derive(Clone, Copy, Debug)]
pub(super) struct OurMove {
    /// The ply count of the position it was played from.
    pub(super) from: u32,
    /// Our time left when the turn began, milliseconds.
    pub(super) left_before: u64,
    /// The time we took over it, milliseconds.
    pub(super) spent: u64,
    /// When it was played.
    pub(super) at: u64,
    /// The time the peer's move before it spent on the way ([`MatchState::peer_transit`]).
    pub(super) transit: u64,
    /// [`MatchState::delays`] before this move.
    pub(super) delays_before: u64,
    /// Its sequence number on the reliable stream, once queued.
    pub(super) seq: Option<u64>,
    /// When we first saw the peer's acknowledgement of it.
    pub(super) acked_at: Option<u64>,
}

/// What is not charged to the peer of the time measured here: the round trip, and one
/// unit for the peer's rounding down.
pub(super) fn allowance(rtt: Option<u64>) -> u64 {
    rtt.unwrap_or(MAX_RTT_ALLOWANCE_MS)
        .min(MAX_RTT_ALLOWANCE_MS)
        + CLOCK_UNIT_MS
}

/// The time charged for a move: the peer's claim (`claimed_units` of 100 ms), raised to
/// the time measured here (`elapsed` ms) minus the allowance.
pub(crate) fn charged_ms(claimed_units: u32, elapsed: u64, rtt: Option<u64>) -> u64 {
    let measured_units = elapsed.saturating_sub(allowance(rtt)) / CLOCK_UNIT_MS;
    u64::from(claimed_units).max(measured_units) * CLOCK_UNIT_MS
}

impl<G: Game> MatchState<G> {
    /// Charges the peer's move (claimed `units`) to its clock at `now`; false if that
    /// exhausts its time (nothing is charged then). The move's time on the way
    /// (`peer_transit`) counts from as early as its turn may have begun on its side
    /// (`peer_lag`); only the time measured here is charged.
    pub(super) fn charge_peer(&mut self, units: u32, now: u64, rtt: Option<u64>) -> bool {
        let peer = self.peer();
        let Some(c) = &mut self.clocks else {
            return true;
        };
        let elapsed = now.saturating_sub(c.turn_start);
        let spent = charged_ms(units, elapsed, rtt);
        let inc = c.increment;
        let left = c.left(peer);
        if spent >= *left {
            return false;
        }
        self.peer_transit = elapsed
            .saturating_add(self.peer_lag)
            .saturating_sub(u64::from(units) * CLOCK_UNIT_MS);
        self.peer_lag = 0;
        *left = *left - spent + inc;
        c.turn_start = now;
        true
    }

    /// When the peer's time runs out as measured here, if its clock is running.
    pub(crate) fn peer_flag_deadline(&self, rtt: Option<u64>) -> Option<u64> {
        let mut c = self.clocks?;
        if self.is_over() || self.game.side_to_move() != self.peer() {
            return None;
        }
        if self.start_seq.is_some() {
            return None; // the peer may not know yet that the game started
        }
        if self.game.awaits_chance() {
            // A fair draw in progress: a missing link is judged by the draw's own
            // deadline (`withheld_deadline`), and the peer's turn starts with the outcome.
            return None;
        }
        let rem = *c.left(self.peer());
        Some(c.turn_start + allowance(rtt) + rem.div_ceil(CLOCK_UNIT_MS) * CLOCK_UNIT_MS)
    }

    /// Ends the game if the peer's time ran out by `now`; true if it did.
    pub(crate) fn check_peer_flag(
        &mut self,
        now: u64,
        rtt: Option<u64>,
        send: &mut Vec<Body>,
        ev: &mut Events<G>,
    ) -> bool {
        if self.peer_flag_deadline(rtt).is_some_and(|d| d <= now) {
            self.time_forfeit(send, ev);
            return true;
        }
        false
    }

    /// The peer lost on time in the current position: tell it, and end the game.
    pub(super) fn time_forfeit(&mut self, send: &mut Vec<Body>, ev: &mut Events<G>) {
        send.push(Body::TimeForfeit { ply: self.ply() });
        self.finish(
            Outcome::Win {
                winner: self.local(),
                reason: WinReason::Timeout,
            },
            ev,
        );
    }

    /// The peer says our time ran out in its position with `ply` moves, as it measured
    /// it. The measuring side decides (that is what caps a peer's claims), within what we
    /// measured ourselves ([`MatchState::forfeit_credible`]: otherwise the forfeit is
    /// refused with `Error { UNEXPECTED }` and the game goes on), so the forfeit
    /// is believed wherever we were to move: in our current position, or where our own
    /// move crossed the forfeit on the wire (the move, and the chance outcome it led to,
    /// are taken back), or in the position we just took back by accepting the peer's undo
    /// request, or where our move crossed the forfeit before we accepted it (its flag
    /// judgement crossed our acceptance: the undone moves are played again up to the
    /// forfeit's position, as the peer never took them back). A
    /// forfeit naming a position where we were not to move, or in an untimed game, cannot
    /// come from an honest peer: with nothing in flight that could explain it
    /// ([`MatchState::nothing_in_flight`]) it is a false claim, and the peer loses the
    /// game ([`WinReason::Forfeit`], as for a wrong link of the fair draw: a player about
    /// to lose cannot void the result with it); otherwise the game is abandoned
    /// ([`AbortReason::CLOCKS_DIFFER`]) rather than left stalled.
    pub(crate) fn on_time_forfeit(
        &mut self,
        ply: u32,
        now: u64,
        send: &mut Vec<Body>,
        ev: &mut Events<G>,
    ) {
        let here = self.ply();
        let our_move_crossed = self.crossed_our_move(ply);
        let our_turn =
            ply == here && !self.game.awaits_chance() && self.game.side_to_move() == self.local();
        // Found by the soak on a very bad link: the peer asked to undo, we accepted, and
        // its flag for us fell in the position before the undo while our acceptance was
        // on its way. Found by the fair-draw soak with acknowledgements sent at once
        // (seed 20261202, game 5786): the flag fell where we were to move, our move (a
        // flip, into a chance step) crossed it, and then we accepted the undo.
        if self.clocks.is_none() || !(our_move_crossed || our_turn || self.crossed_our_undo(ply)) {
            if self.is_over() {
                return;
            }
            if self.nothing_in_flight() {
                // A false claim, provably: the peer loses the game (as for a wrong link of
                // the fair draw), and is told its claim was refused.
                send.push(Body::Error {
                    code: ErrorCode::UNEXPECTED,
                });
                let outcome = Outcome::Win {
                    winner: self.local(),
                    reason: WinReason::Forfeit,
                };
                return self.finish(outcome, ev);
            }
            return self.abort(AbortReason::CLOCKS_DIFFER, send, ev);
        }
        let credible = if our_turn {
            self.forfeit_credible_now(now)
        } else if our_move_crossed {
            self.forfeit_credible_crossing(ply, now)
        } else {
            true // judged in the position of our accepted undo (see `crossed_our_undo`)
        };
        if !credible {
            // Not a flag that fell: refused, and the clocks go on (ours too, so a real
            // flag still falls).
            send.push(Body::Error {
                code: ErrorCode::UNEXPECTED,
            });
            return;
        }
        let outcome = Outcome::Win {
            winner: self.peer(),
            reason: WinReason::Timeout,
        };
        self.end_by_message(ply, outcome, now, ev);
    }

    /// True when no honest forfeit can name a position we were not to move in: an
    /// untimed game, or a timed one where nothing could make the peer's positions differ
    /// from ours — no undo asked or accepted and unanswered, no move refused in this game,
    /// and our last move (if any) acknowledged. Otherwise a crossing nobody foresaw
    /// cannot be ruled out, and the game is abandoned instead.
    fn nothing_in_flight(&self) -> bool {
        self.clocks.is_none()
            || (self.undo == super::Pending::None
                && self.undone_from.is_none()
                && self.refusals == 0
                && self.last_move.is_none_or(|m| m.acked_at.is_some()))
    }
}

impl<G: Game> MatchState<G> {
    /// A record of our move from the position with `ply` moves at `now`, before its
    /// clock figures are filled in.
    pub(super) fn our_move_from(&self, ply: u32, now: u64) -> OurMove {
        OurMove {
            from: ply,
            left_before: 0,
            spent: 0,
            at: now,
            transit: self.peer_transit,
            delays_before: self.delays,
            seq: None,
            acked_at: None,
        }
    }

    /// Our message `body` was queued on the reliable stream as number `seq`.
    pub(crate) fn note_sent(&mut self, body: &Body, seq: u64) {
        if let Body::Move(m) = body
            && let Some(ours) = self.last_move.as_mut().filter(|o| o.from as u8 == m.ply)
        {
            ours.seq = Some(seq);
        }
    }

    /// True once the peer acknowledged our last move.
    pub(crate) fn our_move_acked(&self) -> bool {
        self.last_move.is_some_and(|m| m.acked_at.is_some())
    }

    /// We accepted the match with our `Accept`, sequence number `seq`: the peer's first
    /// turn runs here no earlier than its acknowledgement of that message (module docs),
    /// whether it moves first or after our first move.
    pub(crate) fn await_start_ack(&mut self, seq: u64) {
        if self.clocks.is_some() && self.history.is_empty() {
            self.start_seq = Some(seq);
        }
    }

    /// The peer has acknowledged our first `acked` sequenced messages by `now`.
    pub(crate) fn note_acked(&mut self, acked: u64, now: u64) {
        if self.start_seq.is_some_and(|s| s < acked) {
            self.start_seq = None;
            let peers_first_turn = self.game.side_to_move() == self.peer()
                && !self.game.awaits_chance()
                && !self.peer_started;
            if let Some(c) = &mut self.clocks
                && peers_first_turn
            {
                // The peer's first turn is measured from now; it may have begun as early
                // as our acceptance, or our first move (module docs). Found by the soak on
                // a very bad link (seed 99, game 168): the acknowledgement came with the
                // peer's first move, held back by an outage, whose time on the way looked
                // like nothing.
                self.peer_lag = now.saturating_sub(c.turn_start);
                c.turn_start = now;
            }
        }
        if let Some(ours) = &mut self.last_move
            && ours.acked_at.is_none()
            && ours.seq.is_some_and(|s| s < acked)
        {
            ours.acked_at = Some(now);
            let delay = now.saturating_sub(ours.at).saturating_add(ours.transit);
            self.delays = self.delays.saturating_add(delay);
        }
    }

    /// True when a peer that measured `peer_view` ms of our turn (at most) may have seen
    /// our `left` ms run out: [`FORFEIT_SLACK_MS`] and the delay of the peer's move
    /// (`transit`) are what its measurement may exceed ours by.
    fn forfeit_credible(peer_view: u64, transit: u64, left: u64) -> bool {
        peer_view
            .saturating_add(transit)
            .saturating_add(FORFEIT_SLACK_MS)
            >= left
    }

    /// A forfeit in our current position at `now`: our time in this turn so far, against
    /// our time left as the peer may have counted it.
    fn forfeit_credible_now(&mut self, now: u64) -> bool {
        let local = self.local();
        let (transit, delays) = (self.peer_transit, self.delays);
        let Some(c) = &mut self.clocks else {
            return false;
        };
        let elapsed = now.saturating_sub(c.turn_start);
        Self::forfeit_credible(elapsed, transit, c.left(local).saturating_sub(delays))
    }

    /// A forfeit in the position our last move was played from, which crossed it: the
    /// time we took over the move, plus the time it took to reach the peer — at most
    /// until we saw its acknowledgement, or `now` (a forfeit sent after the peer had our
    /// move names a position it had seen us leave in time).
    fn forfeit_credible_crossing(&self, ply: u32, now: u64) -> bool {
        let Some(m) = self.last_move.filter(|m| m.from == ply) else {
            return true; // not a move of ours we measured (set back since)
        };
        let reached = m.acked_at.unwrap_or(now).min(now).saturating_sub(m.at);
        let left = m.left_before.saturating_sub(m.delays_before);
        Self::forfeit_credible(m.spent.saturating_add(reached), m.transit, left)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_charge_is_the_claim_raised_to_the_measured_time() {
        // An honest claim (2.3 s measured, 20 ms round trip, 2.2 s claimed) stands.
        assert_eq!(charged_ms(22, 2_300, Some(20)), 2_200);
        // A claim of nothing after 5 s is raised to 5 s minus round trip and rounding.
        assert_eq!(charged_ms(0, 5_000, Some(20)), 4_800);
        // Without a measured round trip, or a huge one, at most 1 s is allowed for it.
        assert_eq!(charged_ms(0, 5_000, None), 3_900);
        assert_eq!(charged_ms(0, 5_000, Some(60_000)), 3_900);
        // Over-claiming only costs the claimer.
        assert_eq!(charged_ms(90, 1_000, Some(20)), 9_000);
    }
}
