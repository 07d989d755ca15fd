//! The match layer: the position, move validation with the local rules engine, clocks,
//! undo requests, draw offers, resignation and the end of the game.
//!
//! Every received move is checked with our own [`Game`] before it is applied: syntax
//! (`decode_move`), turn, legality, then the hash of the resulting position. A refused move
//! leaves the position untouched.
//!
//! Messages that end a game (`Resign`, `Flag`, an accepted `DrawReply`, `ClaimDraw`) carry
//! the ply count of the sender's position. Moves can cross such a message on the wire; the
//! receiver then sets its position back to that ply, and ignores moves that arrive after
//! the end, so both sides finish on the same position. The move list is kept beyond the
//! cursor after an undo, so a crossing message can also move the position forward again.
//! When both sides end the game on their own at the same position (say one resigns while
//! the other's clock runs out), the outcome with the smaller [`Outcome::code`] (a stable
//! number, the same on every device) stands — so every win (`0x01…`) goes before every
//! draw (`0x02…`), and both sides settle on the same result. Once a game is over its
//! result changes only through a message that crossed our own last action: the same
//! position, exactly one ply back over our own move, or back over chance outcomes we drew
//! after the sender's position (`MatchState::end_by_message`).
//!
//! ## Draw offers
//!
//! A draw is offered after one's own move (FIDE 9.1.2.2), so an offer stands only while
//! its offerer is not to move — on both sides, in the same positions:
//!
//! * Offered on our own turn (or while a chance step before our turn awaits its outcome:
//!   [`Game::side_to_move`] is then already the side that moves next), the offer is held
//!   and sent right after our next move, in the same batch, after the `Move` (and after
//!   the `Reveal` of the chance step it starts: the peer draws that outcome before it
//!   sees the offer) — the bodies of an offer made just after moving
//!   ([`MatchState::offer_held`]). Offered on the peer's turn, it goes at once. A held
//!   offer waits across an undo (it goes with our next move) and ends with the game.
//! * A `DrawOffer` arriving while, as we see it, the peer is to move is ignored (no
//!   prompt): the peer offered on its own turn, or its offer crossed our move, which
//!   declined it.
//! * Our move declines the peer's standing offer (`DrawReply { accept: false }` before
//!   the `Move`). The peer's move ends our standing offer ([`Event::DrawDeclined`]): it
//!   declined it, or never saw it (it moved while our offer was on the way, and then
//!   ignores the offer when it arrives).
//! * An accepted undo leaves the asker to move: it ends the asker's standing offer on
//!   both sides (the acceptor closes the prompt with [`Event::DrawOfferWithdrawn`]), and
//!   so does a `Resync` setting the mover back (the offer went with the refused move).
//!
//! So no move of the offerer can cross our acceptance on the wire: once we accepted, the
//! draw stands, and a later move of the peer is ignored like any move after the end.
//! Before this rule an offer on one's own turn was a free option (review revP, finding
//! 7): the offerer could see our "yes", then void it with a move we had to take for one
//! that crossed the acceptance. `DrawOffer` carries no ply and the wire is unchanged.
//!
//! A `DrawReply` counts only while our offer stands and never replaces a result. A side
//! offers a draw, and asks to undo, at most once per move of its own
//! ([`ActionError::AskedThisMove`]; a held offer is the one of the move it goes with); a
//! repeated offer of the peer's is ignored and a repeated undo request declined at once,
//! so a peer cannot flood our player's prompts.
//!
//! ## Clocks and refused moves
//!
//! Module `clock`: a peer's claimed thinking time is raised to the time measured here
//! minus the round trip, and its flag falls here too (`TimeForfeit`). Module `resync`: a
//! refused move (illegal, or a hash mismatch) is answered with `Resync`, which sets the
//! mover back to the agreed position, or abandons the game (`Abort`) when the positions
//! cannot be reconciled or too many moves were refused.
//!
//! ## Claimed draws
//!
//! Some draws are the player's to claim (chess: threefold repetition, the fifty-move rule;
//! [`Game::claimable_draw`]). The side to move claims ([`MatchState::claim_draw`]); the
//! claim carries the ply, and the receiver checks it against its own position: the same
//! ply, the claimer to move, and a claimable draw there. A false claim is answered with
//! `Error { BAD_CLAIM }`, reported as [`Event::FalseDrawClaim`] and changes nothing.
//!
//! ## Chance steps (jieqi's reveals)
//!
//! Nothing here assumes that the sides alternate ply by ply: whose turn it is comes from
//! [`Game::side_to_move`], and the undo rules count turns, not plies. While the position
//! awaits a chance outcome ([`Game::awaits_chance`]) no move is played, local or remote
//! (`AwaitingChance`, nor is a draw claimed); offers, undo requests and resignation work as
//! usual. The outcome itself
//! comes from the fair draw: when a move leaves the position awaiting chance, each side
//! sends `Body::Reveal { link }` (the next link of the hash chain it committed to in the
//! match's `params`); once both links of that step are in, the outcome is drawn by weight,
//! without modulo bias, from a hash of both links, the step and the ply, over the outcomes of
//! [`Game::chance_outcomes`], applied with [`Game::play`] like a move and recorded in the
//! move list. The [`chance`] module does it (see [`crate::fairdraw`] for the exchange and
//! why it is fair).

mod clock;
mod draw;
mod resync;
mod undo;

use crate::message::{AbortReason, Body, ErrorCode, MoveMsg};
use crate::session::config::MatchSpec;
use crate::session::event::{ActionError, Event, IllegalReason};
use banco_game::{Color, DrawReason, Game, Outcome, WinReason};
use std::collections::VecDeque;

mod chance;

/// Units of the `clock` field of a move, in milliseconds.
pub(crate) const CLOCK_UNIT_MS: u64 = 100;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pending {
    None,
    Ours(u32),
    Theirs(u32),
}

/// Plies a refused move's `Resync` may set the mover's position back by, chance outcomes
/// included (module `resync`).
const MAX_CROSSING: u32 = 3;

/// Turns (moves, chance outcomes not counted) a game-ending message may set the position
/// back (or forward, after an undo) by: only moves in flight, or an undo accepted while
/// the message was on its way, can cross such a message, so a larger difference is a lie
/// and is ignored. Counted in turns because every move into a chance step brings its
/// outcome along: a crossing of two moves may span four plies.
const MAX_CROSSING_TURNS: usize = 3;

/// Turns (positions where a player moved, chance steps not counted) an undo may take
/// back at most: our last move and the peer's answer, plus one move in flight.
const MAX_UNDO_TURNS: usize = 3;

/// Who was to move in a position of the move list, and whether it awaited chance (then
/// the "move" played from it was a chance outcome).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Turn {
    side: Color,
    chance: bool,
}

impl Turn {
    fn of<G: Game>(game: &G) -> Turn {
        Turn {
            side: game.side_to_move(),
            chance: game.awaits_chance(),
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Clocks {
    increment: u64,
    remaining: [u64; 2],
    turn_start: u64,
}

impl Clocks {
    fn spent_units(&self, now: u64) -> u64 {
        now.saturating_sub(self.turn_start) / CLOCK_UNIT_MS
    }

    fn left(&mut self, side: Color) -> &mut u64 {
        let [red, black] = &mut self.remaining;
        match side {
            Color::Red => red,
            Color::Black => black,
        }
    }
}

type Events<G> = VecDeque<Event<<G as Game>::Move>>;

/// One game between the two players.
pub(crate) struct MatchState<G: Game> {
    pub(crate) spec: MatchSpec,
    rules: G::Rules,
    start: G,
    game: G,
    history: Vec<G::Move>,
    /// `turns[i]`: the position `history[i]` was played from.
    turns: Vec<Turn>,
    cursor: usize,
    outcome: Option<Outcome>,
    clocks: Option<Clocks>,
    undo: Pending,
    /// We offered a draw, no answer came back and the peer did not move since (its move
    /// ends it). It stands only while the peer is to move (module docs, "Draw offers").
    our_offer: bool,
    /// We offered a draw on our own turn: it is sent right after our next move (FIDE
    /// 9.1.2.2), unless the game ends first.
    offer_held: bool,
    /// Ply count of our position when we made the standing offer. An answer from an
    /// earlier position answers an older offer (withdrawn by our move since) and is
    /// ignored, unless an accepted undo has set our position back there since (the peer
    /// answered after the undo).
    offered_at: u32,
    /// The peer offered a draw, we did not answer and the peer did not move since.
    their_offer: bool,
    /// The fair draw of chance steps, in games that use it ([`chance`]).
    fair: Option<chance::FairState>,
    /// We accepted the peer's draw offer in the position with this many moves: an end the
    /// peer reached there on its own stands over our acceptance (it ignores acceptances
    /// once its game is over; [`MatchState::end_by_message`]).
    accepted_at: Option<u32>,
    /// We accepted the peer's undo request in the position with this many moves, and no
    /// move was played since: a time forfeit the peer judged there, or any end of the game
    /// it reached there, crossed our acceptance (see [`MatchState::on_time_forfeit`] and
    /// [`MatchState::end_by_message`]).
    undone_from: Option<u32>,
    /// Our undo request (its target) still unanswered when the game last ended here (the
    /// end sets it aside; cleared by the next move).
    undo_at_end: Option<u32>,
    /// The peer accepted that request (`undo_at_end`) after our game had ended: it plays
    /// the undone moves again when our end reaches it ([`MatchState::end_by_message`]),
    /// so its own end in the undo's position, which follows its acceptance on the wire,
    /// is ignored here.
    accepted_after_end: Option<u32>,
    /// The game was abandoned without a result.
    aborted: Option<AbortReason>,
    /// Moves refused in this game, by either side (see the `resync` module).
    refusals: u32,
    /// Our moves the peer refused in this game (`Resync`s we followed; module `resync`).
    refused_by_peer: u32,
    /// Our last move as measured here, to check a forfeit that crossed it (module
    /// `clock`).
    last_move: Option<clock::OurMove>,
    /// The time the peer's last move spent on the way as measured here (its measured
    /// time minus its claimed thinking time), milliseconds.
    peer_transit: u64,
    /// How much earlier than our `turn_start` the peer's current turn may have begun on
    /// its side, milliseconds: it may have drawn the chance outcome that gave it the move
    /// as early as the step began here, or had our `Accept` as early as we sent it
    /// (module `clock`, [`MatchState::charge_peer`]).
    peer_lag: u64,
    /// We accepted the match: the peer's first turn is measured from no earlier than its
    /// acknowledgement of our `Accept`, this sequence number (module `clock`,
    /// [`MatchState::await_start_ack`]).
    start_seq: Option<u64>,
    /// The peer's game has begun before any move of ours it is still to measure: we
    /// proposed (its game began when it accepted, before ours), or it has moved. Until
    /// then it learns that the game began from our `Accept`, which an outage may hold
    /// back, and cannot measure how long our first move took to reach it; so a late
    /// reveal link of its is not charged to it (module `clock`).
    pub(super) peer_started: bool,
    /// How much more of our time the peer may have charged than we did, at most (module
    /// `clock`): for each of our moves acknowledged so far, the time until we saw the
    /// acknowledgement plus the transit of the peer's move before it, milliseconds.
    delays: u64,
    /// The peer offered a draw since its last move (one offer per move).
    peer_offered: bool,
    /// We offered a draw since our last move (one offer per move).
    we_offered: bool,
    /// The peer asked to undo since its last move (one request per move).
    peer_asked_undo: bool,
    /// We asked to undo since our last move (one request per move).
    we_asked_undo: bool,
}

impl<G: Game> MatchState<G> {
    pub(crate) fn new(spec: MatchSpec, rules: G::Rules, start: G, now: u64) -> Self {
        let clocks = spec.clock.map(|c| Clocks {
            increment: u64::from(c.increment_ms),
            remaining: [u64::from(c.base_ms); 2],
            turn_start: now,
        });
        MatchState {
            spec,
            rules,
            game: start.clone(),
            start,
            history: Vec::new(),
            turns: Vec::new(),
            cursor: 0,
            outcome: None,
            clocks,
            undo: Pending::None,
            our_offer: false,
            offer_held: false,
            offered_at: 0,
            their_offer: false,
            fair: None,
            accepted_at: None,
            undone_from: None,
            undo_at_end: None,
            accepted_after_end: None,
            aborted: None,
            refusals: 0,
            refused_by_peer: 0,
            last_move: None,
            peer_transit: 0,
            peer_lag: 0,
            start_seq: None,
            peer_started: false,
            delays: 0,
            peer_offered: false,
            we_offered: false,
            peer_asked_undo: false,
            we_asked_undo: false,
        }
    }

    /// We proposed this match: the peer's game began when it accepted, before ours
    /// ([`MatchState::peer_started`]).
    pub(crate) fn proposed_here(&mut self) {
        self.peer_started = true;
    }

    pub(crate) fn game(&self) -> &G {
        &self.game
    }

    pub(crate) fn rules(&self) -> &G::Rules {
        &self.rules
    }

    pub(crate) fn ply(&self) -> u32 {
        self.cursor as u32
    }

    /// The moves from the start position to the current one.
    pub(crate) fn moves(&self) -> &[G::Move] {
        self.history.get(..self.cursor).unwrap_or(&[])
    }

    pub(crate) fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Why the game was abandoned without a result, if it was.
    pub(crate) fn aborted(&self) -> Option<AbortReason> {
        self.aborted
    }

    /// True once the game ended, with a result or abandoned.
    pub(crate) fn is_over(&self) -> bool {
        self.outcome.is_some() || self.aborted.is_some()
    }

    fn local(&self) -> Color {
        self.spec.local_color
    }

    fn peer(&self) -> Color {
        self.spec.local_color.other()
    }

    /// The latest position before the current one where `side` had a move to make (not
    /// a chance step), if it lies within [`MAX_UNDO_TURNS`] turns.
    fn last_turn_of(&self, side: Color) -> Option<u32> {
        let turns = self.turns.get(..self.cursor)?;
        let mut seen = 0;
        for (ply, turn) in turns.iter().enumerate().rev() {
            if turn.chance {
                continue;
            }
            seen += 1;
            if seen > MAX_UNDO_TURNS {
                return None;
            }
            if turn.side == side {
                return u32::try_from(ply).ok();
            }
        }
        None
    }

    /// True if `target` is a position where `side` had a move to make, at most
    /// [`MAX_UNDO_TURNS`] turns back.
    fn is_recent_turn_of(&self, target: u32, side: Color) -> bool {
        let Some(turns) = self.turns.get(..self.cursor) else {
            return false;
        };
        let Some(at) = turns.get(target as usize) else {
            return false;
        };
        let back = turns
            .iter()
            .skip(target as usize)
            .filter(|t| !t.chance)
            .count();
        *at == (Turn {
            side,
            chance: false,
        }) && back <= MAX_UNDO_TURNS
    }

    /// Appends a move played from the current position (already applied to `game`). The
    /// moves beyond the cursor (kept after an undo) are dropped, and so are the records of
    /// the fair draws that led to them.
    fn record(&mut self, mv: G::Move, before: Turn) {
        self.undone_from = None;
        self.undo_at_end = None;
        self.accepted_after_end = None;
        self.history.truncate(self.cursor);
        self.turns.truncate(self.cursor);
        self.forget_draws_from(self.cursor);
        self.history.push(mv);
        self.turns.push(before);
        self.cursor += 1;
        if !before.chance {
            if before.side == self.local() {
                self.we_offered = false;
                self.we_asked_undo = false;
            } else {
                self.peer_offered = false;
                self.peer_asked_undo = false;
            }
        }
    }

    /// A draw the local player may claim now.
    pub(crate) fn claimable(&self) -> Option<DrawReason> {
        if self.is_over() || self.game.awaits_chance() || self.game.side_to_move() != self.local() {
            return None;
        }
        self.game.claimable_draw(&self.rules)
    }

    /// Remaining time of (red, black) at `now`, counting the running clock. Once the game
    /// is over the clocks stand still, and the side that lost on time shows 0 (whoever
    /// judged it: its own session, the peer's measurement, or a flag that crossed a move).
    pub(crate) fn clocks(&self, now: u64) -> Option<[u64; 2]> {
        let c = self.clocks?;
        let mut r = c.remaining;
        if let Some(Outcome::Win {
            winner,
            reason: WinReason::Timeout,
        }) = self.outcome
            && let Some(slot) = r.get_mut(winner.other().index())
        {
            *slot = 0;
        }
        if let Some(side) = self.running_clock()
            && let Some(slot) = r.get_mut(side.index())
        {
            *slot = slot.saturating_sub(now.saturating_sub(c.turn_start));
        }
        Some(r)
    }

    /// The side whose clock runs: none in untimed games and once the game is over. While a
    /// fair draw waits for the peer's link, the peer's clock is the one running (ours
    /// stopped when our link went out); otherwise the side to move's.
    pub(crate) fn running_clock(&self) -> Option<Color> {
        if self.clocks.is_none() || self.is_over() {
            None
        } else if self.peer_link_missing() {
            Some(self.peer())
        } else {
            Some(self.game.side_to_move())
        }
    }

    /// When our clock runs out, if it is running.
    pub(crate) fn flag_deadline(&self) -> Option<u64> {
        let mut c = self.clocks?;
        if self.is_over() || self.game.side_to_move() != self.local() {
            return None;
        }
        if self.chance_waiting() {
            return None; // our link is out: waiting for the draw costs us nothing
        }
        let rem = *c.left(self.local());
        Some(c.turn_start + rem.div_ceil(CLOCK_UNIT_MS) * CLOCK_UNIT_MS)
    }

    /// Flags our own side if our time is up; returns true if it did.
    pub(crate) fn check_flag(
        &mut self,
        now: u64,
        send: &mut Vec<Body>,
        ev: &mut Events<G>,
    ) -> bool {
        if self.flag_deadline().is_some_and(|d| d <= now) {
            send.push(Body::Flag { ply: self.ply() });
            self.finish(
                Outcome::Win {
                    winner: self.peer(),
                    reason: WinReason::Timeout,
                },
                ev,
            );
            return true;
        }
        false
    }

    fn finish(&mut self, outcome: Outcome, ev: &mut Events<G>) {
        self.outcome = Some(outcome);
        self.undo_at_end = match self.undo {
            Pending::Ours(target) => Some(target),
            _ => None,
        };
        self.undo = Pending::None;
        self.their_offer = false;
        self.offer_held = false;
        ev.push_back(Event::GameOver {
            outcome,
            ply: self.ply(),
        });
    }

    fn check_end(&mut self, ev: &mut Events<G>) {
        if let Some(o) = self.game.outcome(&self.rules) {
            // Our undo request may have crossed the move that ended the game; the peer may
            // still accept it, and then the game goes on from the undo's position, as it
            // does on the peer's side (`on_undo_reply`).
            let ours = self.undo;
            self.finish(o, ev);
            if let Pending::Ours(_) = ours {
                self.undo = ours;
            }
        }
    }

    fn set_cursor(&mut self, ply: usize, now: u64) -> bool {
        if ply > self.history.len() {
            return false;
        }
        let mut game = self.start.clone();
        for mv in self.history.iter().take(ply) {
            if game.play(*mv).is_err() {
                return false;
            }
        }
        self.game = game;
        self.cursor = ply;
        self.abandon_chance();
        if let Some(c) = &mut self.clocks {
            c.turn_start = now;
        }
        self.peer_lag = 0;
        true
    }

    fn playing(&self) -> Result<(), ActionError> {
        if let Some(reason) = self.aborted {
            Err(ActionError::Aborted(reason))
        } else if self.outcome.is_some() {
            Err(ActionError::GameOver)
        } else {
            Ok(())
        }
    }

    /// The local player's move.
    pub(crate) fn play_local(
        &mut self,
        mv: G::Move,
        now: u64,
        rtt: Option<u64>,
        send: &mut Vec<Body>,
        ev: &mut Events<G>,
    ) -> Result<(), ActionError> {
        self.playing()?;
        if self.game.awaits_chance() {
            return Err(ActionError::AwaitingChance);
        }
        if self.game.side_to_move() != self.local() {
            return Err(ActionError::NotYourTurn);
        }
        if matches!(self.undo, Pending::Ours(_)) {
            return Err(ActionError::Pending);
        }
        if self.check_flag(now, send, ev) {
            return Err(ActionError::OutOfTime);
        }
        if !self.game.is_legal(mv) {
            return Err(ActionError::IllegalMove);
        }
        // Playing answers pending requests of the peer with "no" (our own offer cannot
        // stand on our turn: the peer's move ended it).
        self.our_offer = false;
        if self.their_offer {
            self.their_offer = false;
            send.push(Body::DrawReply {
                accept: false,
                ply: self.ply(),
            });
        }
        if matches!(self.undo, Pending::Theirs(_)) {
            self.undo = Pending::None;
            send.push(Body::UndoReply { accept: false });
        }
        let before = Turn::of(&self.game);
        if self.game.play(mv).is_err() {
            return Err(ActionError::IllegalMove);
        }
        let ply = self.ply();
        let mut ours = self.our_move_from(ply, now);
        let spent = match &mut self.clocks {
            Some(c) => {
                // Not flagged (checked above), so the time spent is below the time left.
                let units = c.spent_units(now);
                let inc = c.increment;
                ours.spent = now.saturating_sub(c.turn_start);
                let left = c.left(self.spec.local_color);
                ours.left_before = *left;
                *left = left.saturating_sub(units * CLOCK_UNIT_MS) + inc;
                c.turn_start = now;
                units
            }
            None => 0,
        };
        self.last_move = Some(ours);
        self.record(mv, before);
        send.push(Body::Move(MoveMsg {
            ply: ply as u8,
            mv: self.game.encode_move(mv),
            hash: self.game.hash() as u32,
            clock: u32::try_from(spent).unwrap_or(u32::MAX),
        }));
        ev.push_back(Event::MovePlayed {
            ply,
            mv,
            by: self.local(),
        });
        self.check_end(ev);
        self.settle_chance(now, rtt, send, ev);
        if std::mem::take(&mut self.offer_held) && !self.is_over() {
            // Right after the move (and the link of the chance step it started): the
            // same bodies as an offer made just after moving.
            self.send_offer(send);
        }
        Ok(())
    }

    /// A move from the peer. `rtt` is the shortest round trip measured on the link: the
    /// peer's claimed thinking time is raised to at least the time measured here since its
    /// turn began, minus that round trip (see the `clock` module).
    ///
    /// The move withdraws the peer's draw offer, if one is open, and ends ours (module
    /// docs, "Draw offers"). After the end of the game a move is ignored: it crossed the
    /// end (the peer sets its position back), or it is a move from the position where we
    /// accepted the peer's offer, which the peer could not make honestly — an offer stands
    /// only while its offerer is not to move — so the agreed draw stands.
    pub(crate) fn on_move(
        &mut self,
        m: MoveMsg,
        now: u64,
        rtt: Option<u64>,
        send: &mut Vec<Body>,
        ev: &mut Events<G>,
    ) {
        if self.aborted.is_some() {
            return;
        }
        if m.ply == self.ply() as u8 {
            // A move from the position our accepted undo went back to shows the peer saw
            // the acceptance, even if the move is refused or comes after the end: a later
            // end it names further on is in a new position, not the one we took back (the
            // xiangqi soak, seed 1 game 4947 and seed 20261202 game 8454).
            self.undone_from = None;
        }
        if self.outcome.is_some() {
            return; // crossed the end of the game, or came after our acceptance
        }
        if self.their_offer {
            self.their_offer = false;
            ev.push_back(Event::DrawOfferWithdrawn);
        }
        let ply = self.ply();
        let mv = match self.check_peer_move(&m) {
            Ok(mv) => mv,
            Err(reason) => {
                let refused = Event::PeerIllegalMove {
                    ply,
                    code: m.mv,
                    reason,
                };
                return self.refuse(refused, send, ev);
            }
        };
        let before = Turn::of(&self.game);
        let undo = self.game.make_unchecked(mv);
        let local = self.game.hash() as u32;
        if local != m.hash {
            self.game.unmake(mv, undo);
            let refused = Event::Desync {
                ply,
                local,
                remote: m.hash,
            };
            return self.refuse(refused, send, ev);
        }
        if !self.charge_peer(m.clock, now, rtt) {
            self.game.unmake(mv, undo);
            return self.time_forfeit(send, ev);
        }
        self.peer_started = true;
        if self.our_offer {
            // The peer moved with our offer standing: it moved before our offer reached
            // it (and ignores the offer when it comes), as its "no" comes before its move.
            self.our_offer = false;
            ev.push_back(Event::DrawDeclined);
        }
        self.record(mv, before);
        ev.push_back(Event::MovePlayed {
            ply,
            mv,
            by: self.peer(),
        });
        self.check_end(ev);
        self.settle_chance(now, rtt, send, ev);
    }

    /// Turns (moves, not chance outcomes) between the positions with `a` and `b` moves.
    /// Plies beyond our move list count as turns, except a chance step we dropped at its
    /// end, which [`MatchState::redraw_abandoned`] draws when the position moves forward.
    fn turns_between(&self, a: u32, b: u32) -> usize {
        let (lo, hi) = (a.min(b) as usize, a.max(b) as usize);
        let known = self.turns.len().clamp(lo, hi);
        let moves = self
            .turns
            .get(lo..known)
            .map_or(0, |t| t.iter().filter(|t| !t.chance).count());
        let mut beyond = hi - known;
        if beyond > 0 && self.dropped_step_at(self.turns.len()) {
            beyond -= 1;
        }
        moves + beyond
    }

    /// True when a message from the peer naming the position with `ply` moves crossed our
    /// last move on the wire: that position is where we moved from, and nothing but our
    /// move (and the chance outcome it led to, in games with chance steps) came after it.
    pub(crate) fn crossed_our_move(&self, ply: u32) -> bool {
        self.crossed_our_move_before(ply, self.ply())
    }

    /// [`MatchState::crossed_our_move`] as it was in the position with `here` moves (the
    /// moves beyond the cursor are kept after an undo).
    fn crossed_our_move_before(&self, ply: u32, here: u32) -> bool {
        let (from, here) = (ply as usize, here as usize);
        let ours = self
            .turns
            .get(from)
            .is_some_and(|t| t.side == self.local() && !t.chance);
        let rest_is_chance = self
            .turns
            .get(from + 1..here)
            .is_some_and(|rest| rest.len() <= 1 && rest.iter().all(|t| t.chance));
        from < here && ours && rest_is_chance
    }

    /// True when the peer's message naming the position with `ply` moves was sent before
    /// our acceptance of its undo reached it: `ply` is where our acceptance took the game
    /// back from ([`MatchState::undone_from`]); or one ply before it when the ply between
    /// was our own move (it crossed the peer's request on the wire, and the acceptance took
    /// it back too: the soak, seed 30006 game 4017); or one ply after it when that ply is
    /// the chance step of our last move, which our acceptance dropped before its draw and
    /// the peer drew (the fair-draw soak, seed 50009 game 8603: the peer's clock ran out
    /// there; [`MatchState::redraw_abandoned`] draws the same outcome here).
    fn crossed_our_undo(&self, ply: u32) -> bool {
        ply > self.ply()
            && self.undone_from.is_some_and(|from| {
                from == ply
                    || self.crossed_our_move_before(ply, from)
                    || (ply == from + 1 && self.dropped_step_at(from as usize))
            })
    }

    /// Syntax, turn, ply number and legality of a peer's move in our position.
    fn check_peer_move(&self, m: &MoveMsg) -> Result<G::Move, IllegalReason> {
        if self.game.awaits_chance() {
            return Err(IllegalReason::AwaitingChance);
        }
        if self.game.side_to_move() != self.peer() {
            return Err(IllegalReason::NotTheirTurn);
        }
        if m.ply != self.ply() as u8 {
            return Err(IllegalReason::WrongPly);
        }
        let mv = self
            .game
            .decode_move(m.mv)
            .ok_or(IllegalReason::Undecodable)?;
        if !self.game.is_legal(mv) {
            return Err(IllegalReason::Illegal);
        }
        Ok(mv)
    }

    /// True when the peer's position with `ply` moves is ours before chance outcomes only:
    /// the peer sent its message while its step waited for our link, and we drew the
    /// outcome since. Nothing the peer sent later can have seen that outcome.
    fn before_our_draws(&self, ply: u32) -> bool {
        let here = self.ply();
        ply < here
            && self
                .turns
                .get(ply as usize..here as usize)
                .is_some_and(|t| t.iter().all(|t| t.chance))
    }

    pub(crate) fn resign(
        &mut self,
        send: &mut Vec<Body>,
        ev: &mut Events<G>,
    ) -> Result<(), ActionError> {
        self.playing()?;
        send.push(Body::Resign { ply: self.ply() });
        self.finish(
            Outcome::Win {
                winner: self.peer(),
                reason: WinReason::Resignation,
            },
            ev,
        );
        Ok(())
    }

    pub(crate) fn on_resign(&mut self, ply: u32, now: u64, ev: &mut Events<G>) {
        let o = Outcome::Win {
            winner: self.local(),
            reason: WinReason::Resignation,
        };
        self.end_by_message(ply, o, now, ev);
    }

    pub(crate) fn on_flag(&mut self, ply: u32, now: u64, ev: &mut Events<G>) {
        let o = Outcome::Win {
            winner: self.local(),
            reason: WinReason::Timeout,
        };
        self.end_by_message(ply, o, now, ev);
    }

    /// The local player claims the draw the rules allow in the current position.
    pub(crate) fn claim_draw(
        &mut self,
        now: u64,
        send: &mut Vec<Body>,
        ev: &mut Events<G>,
    ) -> Result<(), ActionError> {
        self.playing()?;
        if self.game.awaits_chance() {
            return Err(ActionError::AwaitingChance);
        }
        if self.game.side_to_move() != self.local() {
            return Err(ActionError::NotYourTurn);
        }
        if matches!(self.undo, Pending::Ours(_)) {
            return Err(ActionError::Pending);
        }
        if self.check_flag(now, send, ev) {
            return Err(ActionError::OutOfTime);
        }
        let reason = self
            .game
            .claimable_draw(&self.rules)
            .ok_or(ActionError::NoDrawToClaim)?;
        send.push(Body::ClaimDraw { ply: self.ply() });
        self.finish(Outcome::Draw { reason }, ev);
        Ok(())
    }

    /// The peer claims a draw in its position with `ply` moves: checked against ours.
    pub(crate) fn on_claim_draw(
        &mut self,
        ply: u32,
        now: u64,
        send: &mut Vec<Body>,
        ev: &mut Events<G>,
    ) {
        let valid = ply == self.ply()
            && !self.game.awaits_chance()
            && self.game.side_to_move() == self.peer();
        if let Some(reason) = self.game.claimable_draw(&self.rules).filter(|_| valid) {
            self.end_by_message(ply, Outcome::Draw { reason }, now, ev);
        } else {
            ev.push_back(Event::FalseDrawClaim { ply });
            send.push(Body::Error {
                code: ErrorCode::BAD_CLAIM,
            });
        }
    }

    /// A message ended the game in the sender's position with `ply` moves.
    ///
    /// While the game runs, the position is set back (or forward, after an undo) to the
    /// sender's if it lies within [`MAX_CROSSING_TURNS`] turns; a larger difference is a
    /// lie and the game ends where it is. Once the game is over, the result changes only when the
    /// message crossed our own last action on the wire:
    ///
    /// * the same position (`ply` is ours): both ended the game on their own (the smaller
    ///   [`Outcome::code`] stands on both sides), or the end is our acceptance of the
    ///   peer's draw offer (the peer ignores acceptances once it ended the game, so its end
    ///   stands);
    /// * exactly one ply back, and that ply was our own move: our move crossed the message
    ///   (a one-ply crossing), and the position is set back by that move.
    /// * behind by chance outcomes only ([`MatchState::before_our_draws`]): the peer ended
    ///   the game while its chance step waited for our link, and we drew the outcome (and
    ///   perhaps ended the game by the rules or on our own) since. The peer ignores what
    ///   we did after its end, so its end stands and the outcome is taken back here.
    /// * the position our accepted undo took back ([`MatchState::undone_from`], no move
    ///   since; or the one before it when the ply between was our own move, which crossed
    ///   the request; or the one after it by the chance step of our last move, which the
    ///   peer drew: see [`MatchState::crossed_our_undo`]): the peer ended the game there
    ///   before our acceptance reached it, and it ignores the acceptance (and our end in
    ///   the undo's position, see [`MatchState::accepted_after_end`]) once its game is
    ///   over, so its end stands and the undone moves are played again here. Found by
    ///   the xiangqi soak (seed 20261204, game 3213): black asked to take back its move,
    ///   red accepted, the link went out, and black's clock ran out on both sides — in
    ///   black's own session two plies ahead, in red's measurement in the undo's
    ///   position.
    ///
    /// Anything else after the end is ignored, and so is an end in the position of our
    /// undo request that the peer accepted after our game had ended (it comes after that
    /// acceptance, which a one-ply crossing of our move would otherwise take it for).
    fn end_by_message(&mut self, ply: u32, outcome: Outcome, now: u64, ev: &mut Events<G>) {
        if self.aborted.is_some() {
            return;
        }
        let here = self.ply();
        let ply = match self.outcome {
            None if self.turns_between(ply, here) > MAX_CROSSING_TURNS => here,
            None => ply,
            Some(_) if self.accepted_after_end == Some(ply) => return,
            Some(current) => {
                let same = ply == here
                    && (outcome.code() < current.code() || self.accepted_at == Some(here));
                if !(same
                    || self.crossed_our_undo(ply)
                    || self.crossed_our_move(ply)
                    || self.before_our_draws(ply))
                {
                    return;
                }
                ply
            }
        };
        self.redraw_abandoned(ply as usize);
        if ply != here && self.set_cursor(ply as usize, now) {
            ev.push_back(Event::Undone { to_ply: ply });
        }
        self.accepted_at = None;
        self.finish(outcome, ev);
    }
}
