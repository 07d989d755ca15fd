//! Draw offers of a match: offered after one's own move (held until then when offered on
//! one's own turn), answered by the peer, declined by a move; the rules are in the parent
//! module's docs, "Draw offers".

use super::{Events, MatchState};
use crate::message::Body;
use crate::session::event::{ActionError, Event};
use banco_game::{DrawReason, Game, Outcome};

impl<G: Game> MatchState<G> {
    /// Offers a draw: at once on the peer's turn, or held until right after our next
    /// move on our own turn (FIDE 9.1.2.2; module docs, "Draw offers").
    pub(crate) fn offer_draw(&mut self, send: &mut Vec<Body>) -> Result<(), ActionError> {
        self.playing()?;
        if self.their_offer {
            return Err(ActionError::NothingToAnswer);
        }
        if self.our_offer || self.offer_held {
            return Err(ActionError::Pending);
        }
        if self.game.side_to_move() == self.local() {
            // The offer of our next move: one per move still (`we_offered` restarts then).
            self.offer_held = true;
            return Ok(());
        }
        if self.we_offered {
            return Err(ActionError::AskedThisMove);
        }
        self.send_offer(send);
        Ok(())
    }

    /// Sends our draw offer from the current position, the peer to move.
    pub(super) fn send_offer(&mut self, send: &mut Vec<Body>) {
        self.our_offer = true;
        self.we_offered = true;
        self.offered_at = self.ply();
        send.push(Body::DrawOffer);
    }

    /// True while our draw offer waits for our next move ([`MatchState::offer_draw`]).
    pub(crate) fn offer_held(&self) -> bool {
        self.offer_held
    }

    /// The peer offers a draw: shown once per move of the peer's (a repeated offer
    /// after our "no" is ignored, so a peer cannot flood our player's prompt), and only
    /// while we are to move (or the chance step before our turn awaits its outcome). An
    /// offer arriving while the peer is to move is ignored: made on the peer's own turn
    /// (against FIDE 9.1.2.2, and a free option: module docs, "Draw offers"), or crossed
    /// by our move, which declined it (the peer ends its offer when our move arrives).
    pub(crate) fn on_draw_offer(&mut self, ev: &mut Events<G>) {
        if self.is_over() || self.peer_offered || self.game.side_to_move() != self.local() {
            return;
        }
        self.peer_offered = true;
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
            self.accepted_at = Some(self.ply());
            self.finish(
                Outcome::Draw {
                    reason: DrawReason::Agreement,
                },
                ev,
            );
        }
        Ok(())
    }

    /// The peer's answer to our draw offer, given in its position with `ply` moves. It
    /// counts only while our offer stands (not after an undo or a `Resync` ended it: the
    /// peer ended it too) and not after the end of the game — a `DrawReply` does not replace a result, unless the
    /// peer answered before a chance outcome we drew since (see
    /// [`MatchState::end_by_message`]).
    pub(crate) fn on_draw_reply(&mut self, accept: bool, ply: u32, now: u64, ev: &mut Events<G>) {
        // The peer answers our standing offer from where it stood (it had seen the moves
        // up to our offer) or, when an accepted undo set our position back since, from
        // the undo's position. An answer from in between answers an older offer our move
        // withdrew: found by `banco soak --game xiangqi --seed 30072` (game 1255), where
        // such an answer, sent after the peer's own move crossed that older offer, was
        // taken for the answer to our next offer once our acceptance of the peer's undo
        // had set our position back; the peer's later acceptance of the new offer was
        // ignored, and the game went on here and was over there.
        if !self.our_offer || (ply < self.offered_at && ply != self.ply()) {
            return; // an answer to nothing standing: never offered, or ended since
        }
        self.our_offer = false;
        // Nobody moved since we offered, so the peer's position is ours, ahead when an
        // accepted undo crossed the answer (the moves beyond the cursor are kept), or
        // behind by chance outcomes only: we offered with our move into a chance step,
        // the peer answered while that step waited for our link, and we drew the outcome
        // since. Then the answer came first, whatever we did or the rules decided since.
        let here = self.ply();
        let before_our_draws = self.before_our_draws(ply);
        if self.aborted.is_some() || (self.outcome.is_some() && !before_our_draws) {
            return;
        }
        if !accept {
            if self.outcome.is_none() {
                ev.push_back(Event::DrawDeclined);
            }
            return;
        }
        let ply = if before_our_draws { ply } else { ply.max(here) };
        self.end_by_message(
            ply,
            Outcome::Draw {
                reason: DrawReason::Agreement,
            },
            now,
            ev,
        );
    }
}
