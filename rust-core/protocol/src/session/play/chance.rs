//! The match's side of the fair draw ([`crate::fairdraw`]): when a position awaits chance,
//! release our next link, verify the peer's, draw the outcome from both and apply it like a
//! move; end the match on a fault.
//!
//! The session drives it through a few hooks: [`MatchState::start_fair_draw`] at match
//! start, [`MatchState::settle_chance`] after every move applied (ours or the peer's),
//! [`MatchState::on_reveal`] for the peer's links, [`MatchState::abandon_chance`] when the
//! position is set elsewhere (undo), and [`MatchState::check_withheld`] from the timers.
//! Links travel on the reliable stream, so after a cut the resume replays them and both
//! sides draw the same outcomes.
//!
//! ```
//! use banco_game::{Color, GameKind};
//! use banco_protocol::sim::HiddenCards;
//! use banco_protocol::{Event, Identity, MatchSpec, Session, SessionConfig};
//!
//! let new = |name: &str, k: u8| {
//!     Session::<HiddenCards>::new(SessionConfig::new(name, &[GameKind::Jieqi]), Identity::from_secret([k; 32]), [k; 32])
//! };
//! let (mut a, mut b) = (new("A", 1), new("B", 2));
//! # fn pump(a: &mut Session<HiddenCards>, b: &mut Session<HiddenCards>) {
//! #     loop {
//! #         let mut moved = false;
//! #         while let Some(f) = a.poll_transmit() { b.handle_datagram(&f, 0); moved = true; }
//! #         while let Some(f) = b.poll_transmit() { a.handle_datagram(&f, 0); moved = true; }
//! #         if !moved { break; }
//! #     }
//! # }
//! a.connect(0)?;
//! b.accept(0)?;
//! pump(&mut a, &mut b);
//! a.confirm_peer(false)?;
//! b.confirm_peer(false)?;
//! a.propose(MatchSpec::new(GameKind::Jieqi, Color::Red), 0)?; // the session adds its commitment
//! pump(&mut a, &mut b);
//! b.accept_proposal(0)?; // and so does the other side's
//! pump(&mut a, &mut b);
//! a.play(banco_protocol::sim::CardMove::Flip, 0)?; // the position awaits chance
//! pump(&mut a, &mut b); // both links cross; both sides draw the same card
//! assert_eq!(a.game(), b.game());
//! let drawn = std::iter::from_fn(|| b.poll_event()).find_map(|e| match e {
//!     Event::ChanceDrawn { outcome, step, .. } => Some((outcome, step)),
//!     _ => None,
//! });
//! assert_eq!(drawn.map(|d| d.1), Some(1));
//! # Ok::<(), banco_protocol::ActionError>(())
//! ```

use super::{Events, MatchState, Turn, clock};
use crate::fairdraw::{
    ChainVerifier, DrawFault, DrawRecord, FairTranscript, HashChain, draw_ticket, parse_commitment,
};
use crate::message::Body;
use crate::session::event::Event;
use banco_game::{ChanceList, Color, Game, Outcome, WinReason};

/// How long past the peer's remaining time we wait for a withheld link, in milliseconds:
/// covers the retransmissions of an honest link lost on the way. On a lossy radio link a
/// frame can be lost, or overtaken by a later frame and refused, many times in a row while
/// the retransmission timeout doubles from 300 ms to 4 s: the simulator's rough link shows
/// honest stalls beyond 30 s about once in 10,000 draws. Two minutes hold about 30
/// retransmissions, or an outage that long (the wait runs while the link is down). A
/// withholder gains nothing from the grace: it only stalls the match.
pub(crate) const REVEAL_GRACE_MS: u64 = 120_000;

/// A chance step waiting for its draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Waiting {
    /// The step (1-based, over the whole match): the index of both links.
    step: u32,
    /// Ply count of the position awaiting chance.
    ply: u32,
    /// When the wait for the peer's link began here (restarted while that link is on
    /// its way, see [`MatchState::restart_reveal_wait`]).
    since: u64,
    /// When the step began here.
    began: u64,
    /// The peer's game had begun when the step began here
    /// ([`MatchState::peer_started`]): a late link of the peer's is then charged to it.
    charge_late: bool,
}

impl Waiting {
    /// When the peer's link became overdue here, if its lateness is the peer's to pay
    /// for: one round-trip allowance ([`clock::allowance`]) after the step began — it
    /// took our link that long, at least, to reach the peer and the peer's to come back.
    /// None when the peer's game had not begun by then (module `clock`).
    fn overdue_at(&self, rtt: Option<u64>) -> Option<u64> {
        self.charge_late
            .then(|| self.began.saturating_add(clock::allowance(rtt)))
    }
}

/// The fair-draw state of one match.
pub(crate) struct FairState {
    session: [u8; 8],
    chain: HashChain,
    peer: ChainVerifier,
    /// Chance steps entered so far (= links of ours released).
    entered: u32,
    waiting: Option<Waiting>,
    /// The last step dropped before its draw (an undo), while the moves up to it are kept.
    abandoned: Option<Waiting>,
    fault: Option<DrawFault>,
    /// The draws of the chance outcomes in the move list, the moves kept beyond the cursor
    /// after an undo included (see [`MatchState::forget_draws_from`]).
    draws: Vec<DrawRecord>,
}

impl<G: Game> MatchState<G> {
    /// Sets up the fair draw of this match: our `chain`, and the peer's commitment at the
    /// start of `peer_params`. A missing or malformed commitment is a fault (the session
    /// ends the match).
    pub(crate) fn start_fair_draw(
        &mut self,
        session: [u8; 8],
        chain: HashChain,
        peer_params: &[u8],
    ) -> Result<(), DrawFault> {
        let (head, _) = parse_commitment(peer_params)?;
        self.fair = Some(FairState {
            session,
            chain,
            peer: ChainVerifier::new(head, session, self.peer()),
            entered: 0,
            waiting: None,
            abandoned: None,
            fault: None,
            draws: Vec::new(),
        });
        Ok(())
    }

    /// The fault that ended the match, once (the session closes with it).
    pub(crate) fn take_fault(&mut self) -> Option<DrawFault> {
        self.fair.as_mut().and_then(|f| f.fault.take())
    }

    /// True if this match settles chance steps with the fair draw.
    pub(crate) fn has_fair_draw(&self) -> bool {
        self.fair.is_some()
    }

    /// True while a chance step of the fair draw waits for links.
    pub(crate) fn chance_waiting(&self) -> bool {
        self.fair.as_ref().is_some_and(|f| f.waiting.is_some())
    }

    /// True while the peer's link for the waiting step is missing.
    pub(crate) fn peer_link_missing(&self) -> bool {
        self.fair
            .as_ref()
            .and_then(|f| f.waiting.map(|w| f.peer.received() < w.step))
            .unwrap_or(false)
    }

    /// The public record of the draws that led to the moves of the current position (for
    /// snapshots and audits): the same on both sides once they agree on the moves, whatever
    /// steps one side drew and took back (an undo or a crossing end) before the other saw
    /// them.
    pub(crate) fn fair_transcript(&self) -> Option<FairTranscript> {
        let f = self.fair.as_ref()?;
        let here = self.ply();
        let (red, black) = match self.local() {
            Color::Red => (f.chain.head(), f.peer.head()),
            Color::Black => (f.peer.head(), f.chain.head()),
        };
        Some(FairTranscript {
            session: f.session,
            red_head: red,
            black_head: black,
            draws: f.draws.iter().filter(|d| d.ply < here).copied().collect(),
        })
    }

    /// The moves from position `ply` on are replaced: the records of the draws that led to
    /// them go too (kept until then, for a crossing message that moves the position
    /// forward again over the kept moves).
    pub(crate) fn forget_draws_from(&mut self, ply: usize) {
        if let Some(f) = &mut self.fair {
            f.draws.retain(|d| (d.ply as usize) < ply);
        }
    }

    /// The position was set elsewhere (undo, a crossing end): a waiting step is dropped.
    /// Its links stay used; the next step takes the next ones.
    pub(crate) fn abandon_chance(&mut self) {
        if let Some(f) = &mut self.fair
            && let Some(w) = f.waiting.take()
        {
            f.abandoned = Some(w);
        }
    }

    /// True when the chance step of the position with `ply` moves was dropped before its
    /// draw (an undo) and is the last position of the move list.
    pub(crate) fn dropped_step_at(&self, ply: usize) -> bool {
        self.fair
            .as_ref()
            .and_then(|f| f.abandoned)
            .is_some_and(|w| w.ply as usize == ply && self.history.len() == ply)
    }

    /// Before the position moves forward to `ply`, beyond the moves known here (a message
    /// ending the game crossed our undo): a chance step this side dropped but the peer
    /// drew is drawn here too, from the same links, so both sides reach the same position.
    pub(crate) fn redraw_abandoned(&mut self, ply: usize) {
        let Some(f) = &mut self.fair else { return };
        let Some(w) = f.abandoned else { return };
        if ply <= self.history.len() || self.history.len() != w.ply as usize {
            return;
        }
        let (Some(ours), Some(theirs)) = (f.chain.link(w.step), f.peer.link(w.step)) else {
            return;
        };
        let mut game = self.start.clone();
        for mv in &self.history {
            if game.play(*mv).is_err() {
                return;
            }
        }
        if !game.awaits_chance() {
            return;
        }
        let (red, black) = match self.spec.local_color {
            Color::Red => (ours, theirs),
            Color::Black => (theirs, ours),
        };
        let mut outcomes = ChanceList::new();
        game.chance_outcomes(&mut outcomes);
        let total = outcomes.total_weight();
        let ticket = draw_ticket(f.session, w.step, w.ply, &red, &black, total);
        let Some(outcome) = outcomes.pick(ticket) else {
            return;
        };
        f.abandoned = None;
        f.draws.push(DrawRecord {
            step: w.step,
            ply: w.ply,
            red,
            black,
            total,
            ticket,
        });
        self.turns.push(Turn::of(&game));
        self.history.push(outcome);
    }

    /// Ends the game with the peer losing for `reason`, and records the fault.
    fn fault(&mut self, fault: DrawFault, reason: WinReason, ev: &mut Events<G>) {
        if self.outcome.is_none() {
            let winner = self.local();
            self.finish(Outcome::Win { winner, reason }, ev);
        }
        if let Some(f) = &mut self.fair {
            f.fault.get_or_insert(fault);
        }
    }

    /// After the position changed: while it awaits chance, enter the step (release our
    /// link) and draw once both links are in. Loops for games with several chance steps
    /// in a row.
    pub(crate) fn settle_chance(
        &mut self,
        now: u64,
        rtt: Option<u64>,
        send: &mut Vec<Body>,
        ev: &mut Events<G>,
    ) {
        while self.outcome.is_none() && self.game.awaits_chance() {
            let ply = self.ply();
            let local = self.spec.local_color;
            let charge_late = self.peer_started;
            let Some(f) = &mut self.fair else { return };
            if f.fault.is_some() {
                return;
            }
            let Some(w) = f.waiting else {
                f.entered += 1;
                f.abandoned = None;
                let Some(link) = f.chain.link(f.entered) else {
                    // No player is to blame: the match stops without a result.
                    f.fault = Some(DrawFault::ChainExhausted);
                    return;
                };
                f.waiting = Some(Waiting {
                    step: f.entered,
                    ply,
                    since: now,
                    began: now,
                    charge_late,
                });
                send.push(Body::Reveal { link });
                continue;
            };
            let (Some(ours), Some(theirs)) = (f.chain.link(w.step), f.peer.link(w.step)) else {
                return; // the peer's link is still on its way
            };
            let (red, black) = match local {
                Color::Red => (ours, theirs),
                Color::Black => (theirs, ours),
            };
            let mut outcomes = ChanceList::new();
            self.game.chance_outcomes(&mut outcomes);
            let total = outcomes.total_weight();
            let ticket = draw_ticket(f.session, w.step, ply, &red, &black, total);
            f.waiting = None;
            let Some(outcome) = outcomes.pick(ticket) else {
                return; // a game awaiting chance with no outcome: nothing to draw
            };
            let drawn = DrawRecord {
                step: w.step,
                ply,
                red,
                black,
                total,
                ticket,
            };
            let before = Turn::of(&self.game);
            if self.game.play(outcome).is_err() {
                return;
            }
            let peer_next = self.game.side_to_move() != local;
            // The next mover's time starts with the outcome; but a peer to move next whose
            // link came after it was due (module `clock`) had the outcome on its side by
            // then: the time it held its link back is its own.
            let start = match w.overdue_at(rtt) {
                Some(due) if peer_next => now.min(due),
                _ => now,
            };
            if let Some(c) = &mut self.clocks {
                c.turn_start = start;
            }
            self.record(outcome, before);
            // The peer may have drawn the outcome, and started the next mover's clock, as
            // early as the step began here: a forfeit allows for it (module `clock`).
            if peer_next {
                // Found by the fair-draw soak (seed 20261202, game 5367): the peer's
                // link and its next move came together after an outage; the move's time
                // on the way, measured from the outcome, looked like nothing.
                self.peer_lag = start.saturating_sub(w.began);
            } else {
                let waited = now.saturating_sub(w.began);
                self.peer_transit = self.peer_transit.saturating_add(waited);
            }
            if let Some(f) = &mut self.fair {
                f.draws.push(drawn);
            }
            ev.push_back(Event::ChanceDrawn {
                ply,
                outcome,
                step: w.step,
            });
            self.check_end(ev);
        }
    }

    /// A link from the peer: verified against its chain, then used if a step waits.
    /// A bad link ends the game (the peer forfeits) and the match.
    pub(crate) fn on_reveal(
        &mut self,
        link: crate::fairdraw::Link,
        now: u64,
        rtt: Option<u64>,
        send: &mut Vec<Body>,
        ev: &mut Events<G>,
    ) {
        let Some(f) = &mut self.fair else { return };
        if f.fault.is_some() {
            return;
        }
        if let Err(fault) = f.peer.accept(link) {
            return self.fault(fault, WinReason::Forfeit, ev);
        }
        self.settle_chance(now, rtt, send, ev);
    }

    /// The peer's link is on its way (later messages of the peer's already arrived): the
    /// wait for it starts over — but never later than one [`REVEAL_GRACE_MS`] after the
    /// step began. A peer can keep a gap in its stream open on purpose (one sequence
    /// number never sent, later messages still coming); without the cap its wait would
    /// start over for ever, and a withholder who knows the outcome would never lose on time.
    pub(crate) fn restart_reveal_wait(&mut self, now: u64) {
        if let Some(w) = self.fair.as_mut().and_then(|f| f.waiting.as_mut()) {
            let latest = w.began.saturating_add(REVEAL_GRACE_MS);
            w.since = w.since.max(now.min(latest));
        }
    }

    /// When we stop waiting for a withheld link: the peer's remaining time (plus a grace
    /// for retransmissions and outages, [`REVEAL_GRACE_MS`]) after the step began. Only
    /// in timed games. The wait runs while the link is down too, as the move clocks do: a
    /// player who has seen our link, and so the outcome, cannot cut the link to escape it.
    pub(crate) fn withheld_deadline(&self) -> Option<u64> {
        if self.outcome.is_some() || !self.peer_link_missing() {
            return None;
        }
        let w = self.fair.as_ref()?.waiting?;
        let c = self.clocks?;
        let left = c.remaining.get(self.peer().index()).copied()?;
        Some(w.since + left + REVEAL_GRACE_MS)
    }

    /// The peer held its link back past its time: it loses on time, and the match ends.
    pub(crate) fn check_withheld(&mut self, now: u64, ev: &mut Events<G>) {
        if self.withheld_deadline().is_some_and(|d| d <= now) {
            let step = self
                .fair
                .as_ref()
                .and_then(|f| f.waiting.map(|w| w.step))
                .unwrap_or(0);
            self.fault(DrawFault::Withheld { step }, WinReason::Timeout, ev);
        }
    }
}
