//! Undo requests of a match: a side asks to take back its last move (and the peer's reply
//! to it), the peer accepts or declines, and both positions go back to the same ply.
//! An accepted undo leaves the asker to move, which ends the asker's standing draw offer
//! on both sides (a draw offer stands only while its offerer is not to move).

use super::{Events, MatchState, Pending};
use crate::message::Body;
use crate::session::event::{ActionError, Event};
use banco_game::Game;

impl<G: Game> MatchState<G> {
    /// Asks to take back our last move (and the peer's reply to it, if any).
    pub(crate) fn request_undo(&mut self, send: &mut Vec<Body>) -> Result<(), ActionError> {
        self.playing()?;
        if self.undo != Pending::None {
            return Err(ActionError::Pending);
        }
        if self.we_asked_undo {
            return Err(ActionError::AskedThisMove);
        }
        // Back to the position of our last move (taking the peer's answer back too).
        let target = self
            .last_turn_of(self.local())
            .ok_or(ActionError::NothingToUndo)?;
        self.undo = Pending::Ours(target);
        self.we_asked_undo = true;
        send.push(Body::UndoRequest { ply: target });
        Ok(())
    }

    pub(crate) fn on_undo_request(
        &mut self,
        target: u32,
        send: &mut Vec<Body>,
        ev: &mut Events<G>,
    ) {
        // One request per move of the peer's: a repeated one after our "no" is declined
        // at once, so a peer cannot flood our player's prompt.
        let valid = !self.is_over()
            && self.undo == Pending::None
            && !self.peer_asked_undo
            && self.is_recent_turn_of(target, self.peer());
        if valid {
            self.peer_asked_undo = true;
            self.undo = Pending::Theirs(target);
            ev.push_back(Event::UndoRequested { to_ply: target });
        } else if !self.is_over() {
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
        let from = self.ply();
        if accept && self.set_cursor(target as usize, now) {
            self.undone_from = Some(from);
            ev.push_back(Event::Undone { to_ply: target });
            // The peer is to move again: its offer, made after the move it takes back,
            // ends here as on its side (`on_undo_reply`).
            if std::mem::take(&mut self.their_offer) {
                ev.push_back(Event::DrawOfferWithdrawn);
            }
        }
        Ok(())
    }

    pub(crate) fn on_undo_reply(&mut self, accept: bool, now: u64, ev: &mut Events<G>) {
        let Pending::Ours(target) = self.undo else {
            // The end of the game set our request aside and the peer accepted it before
            // our end reached it: our end stands on both sides (the peer goes forward to
            // it), so the peer's own end in the undo's position is ignored from now on.
            if accept && self.outcome.is_some() {
                self.accepted_after_end = self.undo_at_end;
            }
            return;
        };
        self.undo = Pending::None;
        if !accept {
            ev.push_back(Event::UndoDeclined);
        } else if self.set_cursor(target as usize, now) {
            // Only a game ended by its rules keeps our request pending (`check_end`): the
            // move that ended it is taken back, so the game is on again.
            self.outcome = None;
            // We are to move again: our offer ends, as on the peer's side (`reply_undo`).
            self.our_offer = false;
            ev.push_back(Event::Undone { to_ply: target });
        }
    }
}
