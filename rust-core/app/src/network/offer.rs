//! The other player's proposal: shown once per change (each with its
//! [`ProposalView::id`]), answered with [`NetMatch::accept_offer`] (exactly the proposal
//! shown) or [`NetMatch::decline_proposal`].
//!
//! The session keeps one pending proposal of the peer's, board game or race, the latest
//! (banco-protocol): accepting acts on it. A peer that sends the same proposal again is
//! not shown again; one that keeps changing it is cut off by the session.

use super::{NetError, NetEvent, NetMatch, Phase, ProposalView, View, lock};
use banco_game::GameKind;
use banco_net::driver::DriverError;
use banco_protocol::MatchSpec;
use std::sync::Mutex;

impl ProposalView {
    /// The proposal the session reported (`spec`, seen from this side) as shown, numbered
    /// `id`.
    fn of(spec: &MatchSpec, id: u64) -> ProposalView {
        ProposalView {
            id,
            game: spec.game,
            your_color: spec.local_color,
            rules: spec.rules,
            start_fen: spec.start_fen.clone(),
            clock: spec.clock,
            race: (spec.game == GameKind::Lines)
                .then(|| banco_protocol::race::parse_proposal_params(&spec.peer_params).ok())
                .flatten(),
        }
    }
}

/// The event for a proposal the session reported, numbered for the accept; `None` when it
/// repeats the one shown (a peer sending the same proposal again and again: the screen
/// already shows it).
pub(super) fn proposed(spec: MatchSpec, view: &Mutex<View>) -> Option<NetEvent> {
    let mut v = lock(view);
    if v.proposal.is_some() && v.offer.as_ref() == Some(&spec) {
        return None;
    }
    v.offers_shown += 1;
    let shown = ProposalView::of(&spec, v.offers_shown);
    // The view shows it from now on, with its spec: an accept never pairs the number shown
    // with another proposal's spec.
    v.phase = Some(Phase::Proposed);
    v.proposal = Some(shown.clone());
    v.offer = Some(spec);
    Some(NetEvent::Proposed(shown))
}

impl NetMatch {
    /// Accepts the other player's proposal, whichever is pending now (the latest it sent,
    /// board game or race). A screen accepts what it shows with
    /// [`NetMatch::accept_offer`] instead: the other player may replace its proposal
    /// between the display and the tap.
    pub fn accept_proposal(&self) -> Result<(), NetError> {
        self.with_driver(banco_net::driver::Driver::accept_proposal)?;
        clear(&mut lock(&self.view));
        Ok(())
    }

    /// Accepts the other player's proposal numbered `id` ([`ProposalView::id`], as shown in
    /// [`NetState::proposal`](super::NetState::proposal) or
    /// [`NetEvent::Proposed`]), and only it: refused with [`NetError::ProposalChanged`],
    /// nothing accepted, when the other player replaced it since (another game, colour,
    /// clock or start): show the new one and ask again.
    pub fn accept_offer(&self, id: u64) -> Result<(), NetError> {
        let shown = shown_spec(&lock(&self.view), id)?;
        // The session accepts only if its pending proposal is still that one.
        self.with_driver(|d| {
            d.with_session(|s, now| s.accept_shown(&shown, Vec::new(), now))?
                .map_err(DriverError::Action)
        })?;
        clear(&mut lock(&self.view));
        Ok(())
    }

    /// Declines the other player's proposal (the one pending now, which is the one shown
    /// once its event arrived).
    pub fn decline_proposal(&self) -> Result<(), NetError> {
        self.with_driver(banco_net::driver::Driver::decline_proposal)?;
        let mut v = lock(&self.view);
        clear(&mut v);
        if v.phase == Some(Phase::Proposed) {
            v.phase = Some(Phase::Waiting);
        }
        Ok(())
    }
}

/// The session's spec of the proposal shown as number `id`: refused with
/// [`NetError::ProposalChanged`] when another one is shown now (or `id` was never shown),
/// as nothing to answer when none is.
fn shown_spec(v: &View, id: u64) -> Result<MatchSpec, NetError> {
    match (&v.proposal, &v.offer) {
        (Some(p), Some(spec)) if p.id == id => Ok(spec.clone()),
        (None, _) if (1..=v.offers_shown).contains(&id) => Err(NetError::Refused(
            banco_protocol::ActionError::NothingToAnswer.to_string(),
        )),
        _ => Err(NetError::ProposalChanged),
    }
}

/// The proposal was answered (or a game started): nothing to show.
pub(super) fn clear(v: &mut View) {
    v.proposal = None;
    v.offer = None;
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)]
    use super::*;
    use banco_game::Color;
    use banco_protocol::message::ClockSpec;

    fn shown_id(e: Option<NetEvent>) -> u64 {
        match e {
            Some(NetEvent::Proposed(p)) => p.id,
            other => panic!("a proposal shown: {other:?}"),
        }
    }

    #[test]
    fn a_repeated_proposal_is_shown_once_and_a_changed_one_gets_a_new_number() {
        let view = Mutex::new(View::default());
        let xiangqi = MatchSpec::new(GameKind::Xiangqi, Color::Black);
        assert_eq!(shown_id(proposed(xiangqi.clone(), &view)), 1);
        // The same proposal again and again: nothing new for the screen.
        for _ in 0..50 {
            assert_eq!(proposed(xiangqi.clone(), &view), None);
        }
        let timed = MatchSpec {
            clock: Some(ClockSpec {
                base_ms: 60_000,
                increment_ms: 0,
            }),
            ..xiangqi.clone()
        };
        assert_eq!(shown_id(proposed(timed.clone(), &view)), 2);
        {
            let v = lock(&view);
            assert_eq!(v.phase, Some(Phase::Proposed));
            assert_eq!(
                v.proposal.as_ref().map(|p| (p.id, p.clock)),
                Some((2, timed.clock))
            );
            // Accepting binds to the proposal shown: number 2 is the timed game, number 1
            // (shown before) and 3 (not shown yet) are refused.
            assert_eq!(shown_spec(&v, 2), Ok(timed.clone()));
            assert_eq!(shown_spec(&v, 1), Err(NetError::ProposalChanged));
            assert_eq!(shown_spec(&v, 3), Err(NetError::ProposalChanged));
        }
        // Answered: a number shown is nothing to answer; the same game proposed anew is shown
        // again under a new number.
        clear(&mut lock(&view));
        assert!(matches!(
            shown_spec(&lock(&view), 2),
            Err(NetError::Refused(_))
        ));
        assert_eq!(shown_id(proposed(timed, &view)), 3);
    }
}
