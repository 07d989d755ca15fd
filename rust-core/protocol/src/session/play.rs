//! The match layer: the position, move validation with the local rules engine, clocks,
//! undo requests, draw offers, resignation and the end of the game.
//!
//! Every received move is checked with our own [`Game`] before it is applied: syntax
//! (`decode_move`), turn, legality, then the hash of the resulting position. A refused move
//! leaves the position untouched.
//!
//! Messages that end a game (`Resign`, `Flag`, an accepted `DrawReply`) carry the ply count
//! of the sender's position. Moves can cross such a message on the wire; the receiver
//! then sets its position back to that ply, and ignores moves that arrive after the end,
//! so both sides finish on the same position. The move list is kept beyond the cursor
//! after an undo, so a crossing message can also move the position forward again.

use crate::message::{Body, ErrorCode, MoveMsg};
use crate::session::config::MatchSpec;
use crate::session::event::{ActionError, Event, IllegalReason};
use banco_game::{Color, DrawReason, Game, Outcome, WinReason};
use std::collections::VecDeque;

/// Units of the `clock` field of a move, in milliseconds.
pub(crate) const CLOCK_UNIT_MS: u64 = 100;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pending {
    None,
    Ours(u32),
    Theirs(u32),
}

/// Plies a game-ending message may set the position back (or forward) by: only moves in
/// flight can cross such a message, so a larger difference is a lie and is ignored.
const MAX_CROSSING: u32 = 3;

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
    cursor: usize,
    outcome: Option<Outcome>,
    clocks: Option<Clocks>,
    undo: Pending,
    /// We offered a draw and no "no" came back (kept after the end of the game: an
    /// acceptance may cross the end).
    our_offer: bool,
    /// The peer offered a draw and we did not answer.
    their_offer: bool,
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
            cursor: 0,
            outcome: None,
            clocks,
            undo: Pending::None,
            our_offer: false,
            their_offer: false,
        }
    }

    pub(crate) fn game(&self) -> &G {
        &self.game
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

    fn local(&self) -> Color {
        self.spec.local_color
    }

    fn peer(&self) -> Color {
        self.spec.local_color.other()
    }

    fn side_at(&self, ply: u32) -> Color {
        let first = self.start.side_to_move();
        if ply % 2 == 0 { first } else { first.other() }
    }

    /// Remaining time of (red, black) at `now`, counting the running clock.
    pub(crate) fn clocks(&self, now: u64) -> Option<[u64; 2]> {
        let c = self.clocks?;
        let mut r = c.remaining;
        if self.outcome.is_none() {
            let side = self.game.side_to_move().index();
            if let Some(slot) = r.get_mut(side) {
                *slot = slot.saturating_sub(now.saturating_sub(c.turn_start));
            }
        }
        Some(r)
    }

    /// When our clock runs out, if it is running.
    pub(crate) fn flag_deadline(&self) -> Option<u64> {
        let mut c = self.clocks?;
        if self.outcome.is_some() || self.game.side_to_move() != self.local() {
            return None;
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
        self.undo = Pending::None;
        self.their_offer = false;
        ev.push_back(Event::GameOver {
            outcome,
            ply: self.ply(),
        });
    }

    fn check_end(&mut self, ev: &mut Events<G>) {
        if let Some(o) = self.game.outcome(&self.rules) {
            self.finish(o, ev);
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
        if let Some(c) = &mut self.clocks {
            c.turn_start = now;
        }
        true
    }

    fn playing(&self) -> Result<(), ActionError> {
        if self.outcome.is_some() {
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
        send: &mut Vec<Body>,
        ev: &mut Events<G>,
    ) -> Result<(), ActionError> {
        self.playing()?;
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
        // Playing answers pending requests of the peer with "no".
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
        if self.game.play(mv).is_err() {
            return Err(ActionError::IllegalMove);
        }
        let spent = match &mut self.clocks {
            Some(c) => {
                // Not flagged (checked above), so the time spent is below the time left.
                let units = c.spent_units(now);
                let inc = c.increment;
                let left = c.left(self.spec.local_color);
                *left = left.saturating_sub(units * CLOCK_UNIT_MS) + inc;
                c.turn_start = now;
                units
            }
            None => 0,
        };
        let ply = self.ply();
        self.history.truncate(self.cursor);
        self.history.push(mv);
        self.cursor += 1;
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
        Ok(())
    }

    /// A move from the peer.
    pub(crate) fn on_move(
        &mut self,
        m: MoveMsg,
        now: u64,
        send: &mut Vec<Body>,
        ev: &mut Events<G>,
    ) {
        if self.outcome.is_some() {
            return; // crossed the end of the game; the peer sets its position back
        }
        let ply = self.ply();
        let mut refuse = |reason: IllegalReason, send: &mut Vec<Body>| {
            ev.push_back(Event::PeerIllegalMove {
                ply,
                code: m.mv,
                reason,
            });
            send.push(Body::Error {
                code: ErrorCode::ILLEGAL_MOVE,
            });
        };
        if self.game.side_to_move() != self.peer() {
            return refuse(IllegalReason::NotTheirTurn, send);
        }
        if m.ply != ply as u8 {
            return refuse(IllegalReason::WrongPly, send);
        }
        let Some(mv) = self.game.decode_move(m.mv) else {
            return refuse(IllegalReason::Undecodable, send);
        };
        if !self.game.is_legal(mv) {
            return refuse(IllegalReason::Illegal, send);
        }
        let undo = self.game.make_unchecked(mv);
        let local = self.game.hash() as u32;
        if local != m.hash {
            self.game.unmake(mv, undo);
            ev.push_back(Event::Desync {
                ply,
                local,
                remote: m.hash,
            });
            send.push(Body::Error {
                code: ErrorCode::DESYNC,
            });
            return;
        }
        if let Some(c) = &mut self.clocks {
            let inc = c.increment;
            let spent = u64::from(m.clock) * CLOCK_UNIT_MS;
            let left = c.left(self.spec.local_color.other());
            if spent >= *left {
                self.game.unmake(mv, undo);
                self.finish(
                    Outcome::Win {
                        winner: self.spec.local_color,
                        reason: WinReason::Timeout,
                    },
                    ev,
                );
                return;
            }
            *left = *left - spent + inc;
            c.turn_start = now;
        }
        self.history.truncate(self.cursor);
        self.history.push(mv);
        self.cursor += 1;
        ev.push_back(Event::MovePlayed {
            ply,
            mv,
            by: self.peer(),
        });
        self.check_end(ev);
    }

    /// Asks to take back our last move (and the peer's reply to it, if any).
    pub(crate) fn request_undo(&mut self, send: &mut Vec<Body>) -> Result<(), ActionError> {
        self.playing()?;
        if self.undo != Pending::None {
            return Err(ActionError::Pending);
        }
        let back = if self.game.side_to_move() == self.local() {
            2
        } else {
            1
        };
        let target = self
            .ply()
            .checked_sub(back)
            .ok_or(ActionError::NothingToUndo)?;
        if self.side_at(target) != self.local() {
            return Err(ActionError::NothingToUndo);
        }
        self.undo = Pending::Ours(target);
        send.push(Body::UndoRequest { ply: target });
        Ok(())
    }

    pub(crate) fn on_undo_request(
        &mut self,
        target: u32,
        send: &mut Vec<Body>,
        ev: &mut Events<G>,
    ) {
        let valid = self.outcome.is_none()
            && self.undo == Pending::None
            && target < self.ply()
            && self.ply() - target <= 3
            && self.side_at(target) == self.peer();
        if valid {
            self.undo = Pending::Theirs(target);
            ev.push_back(Event::UndoRequested { to_ply: target });
        } else if self.outcome.is_none() {
            send.push(Body::UndoReply { accept: false });
        }
    }

    pub(crate) fn reply_undo(
        &mut self,
        accept: bool,
        now: u64,
        send: &mut Vec<Body>,
        ev: &mut Events<G>,
    ) -> Result<(), ActionError> {
        let Pending::Theirs(target) = self.undo else {
            return Err(ActionError::NothingToAnswer);
        };
        self.undo = Pending::None;
        send.push(Body::UndoReply { accept });
        if accept && self.set_cursor(target as usize, now) {
            ev.push_back(Event::Undone { to_ply: target });
        }
        Ok(())
    }

    pub(crate) fn on_undo_reply(&mut self, accept: bool, now: u64, ev: &mut Events<G>) {
        let Pending::Ours(target) = self.undo else {
            return;
        };
        self.undo = Pending::None;
        if !accept {
            ev.push_back(Event::UndoDeclined);
        } else if self.set_cursor(target as usize, now) {
            ev.push_back(Event::Undone { to_ply: target });
        }
    }

    pub(crate) fn offer_draw(&mut self, send: &mut Vec<Body>) -> Result<(), ActionError> {
        self.playing()?;
        if self.their_offer {
            return Err(ActionError::NothingToAnswer);
        }
        if self.our_offer {
            return Err(ActionError::Pending);
        }
        self.our_offer = true;
        send.push(Body::DrawOffer);
        Ok(())
    }

    pub(crate) fn on_draw_offer(&mut self, ev: &mut Events<G>) {
        if self.outcome.is_some() {
            return;
        }
        // Offers may cross: then each side may accept the other's.
        self.their_offer = true;
        ev.push_back(Event::DrawOffered);
    }

    pub(crate) fn reply_draw(
        &mut self,
        accept: bool,
        send: &mut Vec<Body>,
        ev: &mut Events<G>,
    ) -> Result<(), ActionError> {
        if !self.their_offer {
            return Err(ActionError::NothingToAnswer);
        }
        self.their_offer = false;
        send.push(Body::DrawReply {
            accept,
            ply: self.ply(),
        });
        if accept {
            self.finish(
                Outcome::Draw {
                    reason: DrawReason::Agreement,
                },
                ev,
            );
        }
        Ok(())
    }

    pub(crate) fn on_draw_reply(&mut self, accept: bool, ply: u32, now: u64, ev: &mut Events<G>) {
        if !self.our_offer {
            return; // an answer to nothing: a draw needs our offer
        }
        if accept {
            self.end_by_message(
                ply,
                Outcome::Draw {
                    reason: DrawReason::Agreement,
                },
                now,
                ev,
            );
        } else {
            self.our_offer = false;
            if self.outcome.is_none() {
                ev.push_back(Event::DrawDeclined);
            }
        }
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

    /// A message ended the game in the sender's position with `ply` moves.
    fn end_by_message(&mut self, ply: u32, outcome: Outcome, now: u64, ev: &mut Events<G>) {
        let here = self.ply();
        let ply = if ply.abs_diff(here) > MAX_CROSSING {
            here
        } else {
            ply
        };
        let replace = match self.outcome {
            None => true,
            // Both ended the game on their own: the earlier position wins, and at the same
            // position an order both sides compute alike.
            Some(current) => ply < here || (ply == here && canonical(outcome) < canonical(current)),
        };
        if !replace || (self.outcome.is_some() && ply > here) {
            return;
        }
        if ply != here && self.set_cursor(ply as usize, now) {
            ev.push_back(Event::Undone { to_ply: ply });
        }
        self.finish(outcome, ev);
    }
}

fn canonical(o: Outcome) -> String {
    format!("{o:?}")
}
