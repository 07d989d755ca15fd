//! After a refused move the game must not stall: the refusing side asks to resynchronise,
//! and if the two positions cannot be reconciled both sides abandon the game.
//!
//! The peer's `Move` was acknowledged by the stream before the match layer refused it, so
//! the peer believes it was played and waits for our answer. The refusing side therefore
//! sends `Body::Resync { ply, hash }` (sequenced, so it arrives) with its own position:
//!
//! * The mover checks that everything after `ply` in its position is its own moves (at
//!   most [`MAX_CROSSING`] plies, chance steps included) and that its
//!   position at `ply` has the same hash. Then it sets its position back to `ply`, reports
//!   [`Event::MoveRefused`], and its player moves again — unless its refused move ended
//!   the game (by its rules): then it abandons the game and keeps that result, so a peer
//!   cannot take back a mate it does not like by calling the mating move illegal.
//! * Otherwise the positions cannot be reconciled: it sends `Body::Abort` with
//!   [`AbortReason::POSITIONS_DIFFER`], and both sides report [`Event::MatchAborted`].
//! * Each side counts the refusals of a game (sent and received); beyond
//!   [`MAX_REFUSALS`] the game is abandoned with [`AbortReason::TOO_MANY_REFUSALS`], so
//!   two apps whose rules disagree on a move cannot loop for ever. When most of them were
//!   the peer's refusals of our moves, the abandon is reported as the peer's
//!   (`by_peer: true`).
//! * A `Resync` only answers our last move, right when the peer received it: the
//!   refusing side queues it as it takes the move in, so its envelope is the first to
//!   acknowledge that move. A `Resync` coming after an earlier envelope had already
//!   acknowledged our move (the peer took it in and went on) is no answer to it: it is
//!   refused (`Error { UNEXPECTED }`) and our move stands.
//! * A peer's `Abort` ends a running game only; once the game has a result it is ignored
//!   (no event: a peer cannot turn our win into "abandoned"). A peer's abort this side
//!   cannot corroborate — a refusal exchange in this game for
//!   [`AbortReason::POSITIONS_DIFFER`] and [`AbortReason::TOO_MANY_REFUSALS`]; nothing
//!   for any other reason — is the peer leaving the game: reported as
//!   [`AbortReason::ABANDONED`], `by_peer: true`.
//!
//! An abandoned game keeps a result it already had (a peer cannot erase our win by
//! abandoning afterwards); a running one ends without a result, and a new game can be
//! proposed.
//!
//! ```
//! use banco_protocol::message::{AbortReason, MAX_REFUSALS};
//! assert_eq!(MAX_REFUSALS, 3);
//! assert_eq!(AbortReason::POSITIONS_DIFFER.text(), "the two devices disagree on the position");
//! ```

use super::{Events, MAX_CROSSING, MatchState, Pending};
use crate::message::{AbortReason, Body, ErrorCode, MAX_REFUSALS};
use crate::session::event::Event;
use banco_game::Game;

impl<G: Game> MatchState<G> {
    /// We refused the peer's move (`refused` says why): report it and ask the peer to
    /// resynchronise to our position, or abandon the game after too many refusals.
    pub(super) fn refuse(
        &mut self,
        refused: Event<G::Move>,
        send: &mut Vec<Body>,
        ev: &mut Events<G>,
    ) {
        ev.push_back(refused);
        self.refusals += 1;
        if self.refusals > MAX_REFUSALS {
            return self.abort(AbortReason::TOO_MANY_REFUSALS, send, ev);
        }
        send.push(Body::Resync {
            ply: self.ply(),
            hash: self.game.hash() as u32,
        });
    }

    /// The hash of the position with `ply` moves of our move list.
    fn hash_at(&self, ply: usize) -> Option<u64> {
        let mut game = self.start.clone();
        for mv in self.history.get(..ply)? {
            game.play(*mv).ok()?;
        }
        Some(game.hash())
    }

    /// The peer refused our latest move(s): its position has `ply` moves and `hash`.
    /// `acked_before`: an earlier envelope of the peer's had already acknowledged our last
    /// move (the peer took it in without refusing it).
    pub(crate) fn on_resync(
        &mut self,
        ply: u32,
        hash: u32,
        acked_before: bool,
        now: u64,
        send: &mut Vec<Body>,
        ev: &mut Events<G>,
    ) {
        if self.aborted.is_some() {
            return;
        }
        if acked_before && ply < self.ply() {
            send.push(Body::Error {
                code: ErrorCode::UNEXPECTED,
            });
            return;
        }
        self.refusals += 1;
        if ply < self.ply() {
            self.refused_by_peer += 1;
        }
        if self.refusals > MAX_REFUSALS {
            let by_peer = 2 * self.refused_by_peer > self.refusals;
            send.push(Body::Abort {
                reason: AbortReason::TOO_MANY_REFUSALS,
            });
            return self.abandon(AbortReason::TOO_MANY_REFUSALS, by_peer, ev);
        }
        let here = self.ply();
        let only_ours = ply <= here
            && here - ply <= MAX_CROSSING
            && self
                .turns
                .get(ply as usize..here as usize)
                .is_some_and(|t| t.iter().all(|t| t.chance || t.side == self.local()));
        let same = self.hash_at(ply as usize).map(|h| h as u32) == Some(hash);
        if !(only_ours && same) {
            return self.abort(AbortReason::POSITIONS_DIFFER, send, ev);
        }
        if ply == here {
            return; // the positions agree already
        }
        if self.outcome.is_some() {
            // Our own move ended the game by our rules and the peer refused it: setting
            // the position back would let a peer erase any win it does not like. The game
            // is abandoned and keeps the result we reached.
            return self.abort(AbortReason::POSITIONS_DIFFER, send, ev);
        }
        if !self.set_cursor(ply as usize, now) {
            return self.abort(AbortReason::POSITIONS_DIFFER, send, ev);
        }
        self.outcome = None;
        self.accepted_at = None;
        self.undo = Pending::None;
        // Our offer went with the refused move (the peer, still to move, ignored it): we
        // are to move again, and an offer stands only while the peer is.
        self.our_offer = false;
        ev.push_back(Event::MoveRefused { to_ply: ply });
    }

    /// We abandon the game: tell the peer, and report it.
    pub(super) fn abort(&mut self, reason: AbortReason, send: &mut Vec<Body>, ev: &mut Events<G>) {
        send.push(Body::Abort { reason });
        self.abandon(reason, false, ev);
    }

    /// The peer abandoned the game: only a running one (a result stands), and for a
    /// reason we cannot corroborate it is reported as the peer leaving the game.
    pub(crate) fn on_abort(&mut self, reason: AbortReason, ev: &mut Events<G>) {
        if self.is_over() {
            return;
        }
        let corroborated = self.refusals > 0
            && (reason == AbortReason::POSITIONS_DIFFER
                || reason == AbortReason::TOO_MANY_REFUSALS);
        let reason = if corroborated {
            reason
        } else {
            AbortReason::ABANDONED
        };
        self.abandon(reason, true, ev);
    }

    fn abandon(&mut self, reason: AbortReason, by_peer: bool, ev: &mut Events<G>) {
        self.aborted = Some(reason);
        self.undo = Pending::None;
        self.our_offer = false;
        self.offer_held = false;
        self.their_offer = false;
        ev.push_back(Event::MatchAborted { reason, by_peer });
    }
}
