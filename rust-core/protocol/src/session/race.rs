//! The Lines race inside a [`Session`]: its proposal (a seed commitment and the race
//! options in the per-game parameters), the seed reveal after accepting, and the race
//! messages routed to the [`Race`] state machine. See [`race`](crate::race) for the rules
//! and the wire.

use super::Session;
use crate::message::{
    AbortReason, Accept, Body, CAP_LINES_NO_SEED, CAP_LINES_PREVIEW, CAP_LINES_SPOTS,
    DeclineReason, ErrorCode, Propose, game_code,
};
use crate::race::{
    Race, RaceEnd, RaceError, RaceEvent, RaceOptions, check_accept_params, parse_proposal_params,
    proposal_params,
};
use crate::seed::SeedShare;
use crate::session::config::MatchSpec;
use crate::session::event::{ActionError, ChannelEvent, CloseReason, Event, LinkDownReason};
use banco_game::{Color, GameKind, MatchGame};
use banco_lines::{Cell, SpawnRule, TurnReport};

/// A race proposal waiting for an answer.
#[derive(Clone, Debug)]
pub(crate) enum RaceProposal {
    /// We proposed: our message and our seed share.
    Ours(Propose, SeedShare, RaceOptions),
    /// The peer proposed.
    Theirs(Propose, RaceOptions),
}

/// The race part of a session: a pending race proposal and the race.
#[derive(Clone, Debug, Default)]
pub(crate) struct RaceSlot {
    pub(crate) proposal: Option<RaceProposal>,
    pub(crate) race: Option<Race>,
    /// The race is over and a proposal or acceptance came from the peer since: the peer's
    /// aborts and resignations from then on belong to what came after, not to the race
    /// (an honest peer sends its race's own before them, on the ordered stream).
    sealed: bool,
}

impl RaceSlot {
    /// Keeps `race` as the race of the match (a new one: nothing is sealed).
    fn set(&mut self, race: Race) {
        self.race = Some(race);
        self.sealed = false;
    }

    /// The race that ended without a seed and is not sealed: a late resignation of the
    /// peer's is its, and goes no further.
    fn called_off(&self) -> bool {
        !self.sealed
            && self
                .race
                .as_ref()
                .and_then(Race::result)
                .is_some_and(|r| r.end == RaceEnd::NoSeed)
    }

    pub(crate) fn is_running(&self) -> bool {
        self.race.as_ref().is_some_and(|r| r.result().is_none())
    }
}

fn race_spec(msg: &Propose, ours: bool, local: Vec<u8>, peer: Vec<u8>) -> MatchSpec {
    MatchSpec {
        game: GameKind::Lines,
        rules: 0,
        local_color: if ours { msg.color } else { msg.color.other() },
        clock: None,
        start_fen: None,
        local_params: local,
        peer_params: peer,
    }
}

/// `options` as proposed to a peer that announced `peer_caps`: at landing
/// ([`SpawnRule::AtLanding`]) unless the peer knows the spots drawn at announcement
/// ([`CAP_LINES_SPOTS`]) — an older build would refuse the flag, and plays at landing.
fn agreed_spawn(options: RaceOptions, peer_caps: u32) -> RaceOptions {
    if peer_caps & CAP_LINES_SPOTS == 0 {
        RaceOptions {
            spawn: SpawnRule::AtLanding,
            ..options
        }
    } else {
        options
    }
}

/// True for the channel events that end a race as the peer's resignation
/// ([`Race::on_peer_gone`]): its goodbye, or its app back without the match.
pub(super) fn peer_gone(e: &ChannelEvent) -> bool {
    matches!(
        e,
        ChannelEvent::Closed {
            reason: CloseReason::PeerLeft
        } | ChannelEvent::LinkDown {
            reason: LinkDownReason::PeerRestarted
        }
    )
}

impl<G: MatchGame> Session<G> {
    /// The peer left, or came back without the match, during a race: it resigned
    /// ([`Race::on_peer_gone`]); the result comes before the event that ends the match.
    pub(super) fn race_peer_gone(&mut self) {
        if let Some(race) = &mut self.race.race {
            let mut events = Vec::new();
            race.on_peer_gone(&mut events);
            self.events.extend(events.into_iter().map(Event::Race));
        }
    }

    /// Proposes a Lines race with `options`, where we play `color` (the colours only name
    /// the two boards). The session draws our seed value and puts its commitment and the
    /// options in the proposal's parameters; the race starts when the peer accepts and
    /// both values are revealed ([`RaceEvent::Started`]). A race at announcement
    /// ([`RaceOptions::spawn`]) with a peer that did not announce
    /// [`CAP_LINES_SPOTS`] is proposed at landing, the rule both builds know
    /// ([`Session::pending_race`] and the race's options say which was proposed).
    pub fn propose_race(
        &mut self,
        options: RaceOptions,
        color: Color,
        now: u64,
    ) -> Result<(), ActionError> {
        self.channel.ready(now)?;
        if self.race.is_running() || self.current.as_ref().is_some_and(|m| m.outcome().is_none()) {
            return Err(ActionError::GameRunning);
        }
        if self.proposal.is_some() || self.race.proposal.is_some() {
            return Err(ActionError::Pending);
        }
        if !self.offers.contains(&GameKind::Lines) {
            return Err(ActionError::GameNotOffered(GameKind::Lines));
        }
        if !self
            .channel
            .peer()
            .is_some_and(|p| p.offers_game(GameKind::Lines))
        {
            return Err(ActionError::PeerDoesNotOffer(GameKind::Lines));
        }
        options.check()?;
        if options.preview
            && self
                .channel
                .peer()
                .is_none_or(|p| p.caps & CAP_LINES_PREVIEW == 0)
        {
            return Err(ActionError::PeerLacksPreview);
        }
        let options = agreed_spawn(options, self.channel.peer().map_or(0, |p| p.caps));
        let session = self.channel.session_id().unwrap_or_default();
        let share = SeedShare::new(self.channel.fresh_secret(), session, color);
        let msg = Propose {
            game: game_code(GameKind::Lines),
            rules: 0,
            color,
            clock: None,
            fen: None,
            params: proposal_params(&share.commitment(), options),
        };
        self.channel.queue(Body::Propose(msg.clone()));
        self.race.proposal = Some(RaceProposal::Ours(msg, share, options));
        Ok(())
    }

    /// The race (running or over), if one was accepted.
    pub fn race(&self) -> Option<&Race> {
        self.race.race.as_ref()
    }

    /// The race options of a pending race proposal (ours or the peer's).
    pub fn pending_race(&self) -> Option<RaceOptions> {
        match &self.race.proposal {
            Some(RaceProposal::Ours(_, _, o) | RaceProposal::Theirs(_, o)) => Some(*o),
            None => None,
        }
    }

    /// Plays a move on our race board and sends it. The move is ours to make whatever the
    /// link: while it is down the moves wait for its return (up to the most a race can
    /// hold), not the outbox's usual limit ([`ActionError::QueueFull`] only beyond that).
    pub fn race_move(&mut self, from: Cell, to: Cell, now: u64) -> Result<TurnReport, RaceError> {
        self.channel.ready_race(now)?;
        let race = self.race.race.as_mut().ok_or(RaceError::NoRace)?;
        let (mut send, mut events) = (Vec::new(), Vec::new());
        let report = race.play(from, to, now, &mut send, &mut events)?;
        self.finish_race_step(send, events);
        Ok(report)
    }

    /// Resigns the race (we lose).
    pub fn race_resign(&mut self, now: u64) -> Result<(), RaceError> {
        self.channel.ready_race(now)?;
        let race = self.race.race.as_mut().ok_or(RaceError::NoRace)?;
        let (mut send, mut events) = (Vec::new(), Vec::new());
        race.resign(&mut send, &mut events)?;
        self.finish_race_step(send, events);
        Ok(())
    }

    /// Accepts the peer's race proposal: our commitment goes back, then our value.
    pub(super) fn accept_race(&mut self, now: u64) -> Result<(), ActionError> {
        self.channel.ready(now)?;
        let Some(RaceProposal::Theirs(msg, options)) = self.race.proposal.take() else {
            return Err(ActionError::NothingToAnswer);
        };
        let me = msg.color.other();
        let session = self.channel.session_id().unwrap_or_default();
        let share = SeedShare::new(self.channel.fresh_secret(), session, me);
        let params = share.commitment().to_vec();
        self.channel.queue(Body::Accept(Accept {
            params: params.clone(),
        }));
        let mut race = Race::new(me, options, share, msg.params);
        race.accepted(now);
        let reveal = race.reveal();
        if let Some(seq) = self.channel.queue_seq(reveal.clone()) {
            race.note_sent(&reveal, seq);
        }
        self.race.set(race);
        Ok(())
    }

    /// Declines the peer's race proposal.
    pub(super) fn decline_race(&mut self, now: u64) -> Result<(), ActionError> {
        self.channel.ready(now)?;
        let Some(RaceProposal::Theirs(..)) = self.race.proposal.take() else {
            return Err(ActionError::NothingToAnswer);
        };
        self.channel.queue(Body::Decline {
            reason: DeclineReason::DECLINED,
        });
        Ok(())
    }

    /// Drops the peer's pending race proposal, if any (a newer proposal replaced it).
    pub(super) fn drop_race_theirs(&mut self) {
        if self.race_answer_pending() {
            self.race.proposal = None;
        }
    }

    /// True if the peer's race proposal waits for our answer.
    pub(super) fn race_answer_pending(&self) -> bool {
        matches!(self.race.proposal, Some(RaceProposal::Theirs(..)))
    }

    /// The pending race proposal as a [`MatchSpec`] and whether it is ours.
    pub(super) fn pending_race_spec(&self) -> Option<(MatchSpec, bool)> {
        match &self.race.proposal {
            Some(RaceProposal::Ours(m, _, _)) => {
                Some((race_spec(m, true, m.params.clone(), Vec::new()), true))
            }
            Some(RaceProposal::Theirs(m, _)) => {
                Some((race_spec(m, false, Vec::new(), m.params.clone()), false))
            }
            None => None,
        }
    }

    /// A frame from the peer arrived at `now`, before it is handled: the race counts the
    /// link's outages from the gaps ([`Race::heard`]).
    pub(super) fn race_heard(&mut self, now: u64) {
        if let Some(race) = &mut self.race.race {
            race.heard(now);
        }
    }

    /// When the race's reveal or time limit needs [`Session::handle_timeout`].
    pub(super) fn race_deadline(&self) -> Option<u64> {
        self.race.race.as_ref().and_then(Race::deadline)
    }

    /// Runs the race's reveal deadline and time limit at `now`.
    pub(super) fn race_tick(&mut self, now: u64) {
        if let Some(race) = &mut self.race.race {
            let (mut send, mut events) = (Vec::new(), Vec::new());
            race.tick(now, &mut send, &mut events);
            self.finish_race_step(send, events);
        }
    }

    fn finish_race_step(&mut self, send: Vec<Body>, events: Vec<RaceEvent>) {
        for b in send {
            let tracked = matches!(
                b,
                Body::RaceMove { .. } | Body::RaceStop { .. } | Body::SeedReveal { .. }
            )
            .then(|| b.clone());
            // The race's own messages wait for the link however many there are (bounded by
            // the race itself); replies to the peer (a busy decline) count as usual.
            let seq = match b {
                // Calling off a race that never started: only a peer that knows the
                // reason hears of it (an older build would answer an unexpected message).
                Body::Abort { .. } if !self.peer_knows_no_seed() => None,
                Body::RaceMove { .. }
                | Body::Abort { .. }
                | Body::RaceStop { .. }
                | Body::RaceCut { .. }
                | Body::Resign { .. }
                | Body::SeedReveal { .. } => self.channel.queue_race(b),
                b => self.channel.queue_seq(b),
            };
            if let (Some(b), Some(seq), Some(r)) = (tracked, seq, &mut self.race.race) {
                r.note_sent(&b, seq);
            }
        }
        self.events.extend(events.into_iter().map(Event::Race));
    }

    /// True if the peer announced [`CAP_LINES_NO_SEED`]: it is told when we call a race off
    /// for want of its seed.
    fn peer_knows_no_seed(&self) -> bool {
        self.channel
            .peer()
            .is_some_and(|p| p.caps & CAP_LINES_NO_SEED != 0)
    }

    /// Handles the race's share of the peer's messages; gives back any other message.
    pub(super) fn race_dispatch(&mut self, body: Body) -> Option<Body> {
        let now = self.channel.now();
        let (mut send, mut events) = (Vec::new(), Vec::new());
        if matches!(body, Body::Propose(_) | Body::Accept(_))
            && self
                .race
                .race
                .as_ref()
                .is_some_and(|r| r.result().is_some())
        {
            self.race.sealed = true;
        }
        match body {
            Body::Propose(p) if self.race.is_running() => {
                let _ = p;
                send.push(Body::Decline {
                    reason: DeclineReason::BUSY,
                });
            }
            Body::Propose(p) if p.game == game_code(GameKind::Lines) => self.on_race_propose(p),
            Body::Propose(p) => {
                if !self.race_crossed() {
                    return Some(Body::Propose(p));
                }
            }
            Body::Accept(a) if matches!(self.race.proposal, Some(RaceProposal::Ours(..))) => {
                if let Some(RaceProposal::Ours(msg, share, options)) = self.race.proposal.take() {
                    if check_accept_params(&a.params).is_err() {
                        // Its commitment is unusable: the race cannot be fair.
                        let mut race = Race::new(msg.color, options, share, a.params);
                        race.on_reveal([0; 32], now, &mut events);
                        self.race.set(race);
                    } else {
                        let mut race = Race::new(msg.color, options, share, a.params);
                        // Agreed now: the acceptor's reveal is due from here.
                        race.heard(now);
                        send.push(race.reveal());
                        self.race.set(race);
                    }
                }
            }
            Body::Decline { reason }
                if matches!(self.race.proposal, Some(RaceProposal::Ours(..))) =>
            {
                self.race.proposal = None;
                self.events.push_back(Event::ProposalDeclined { reason });
            }
            body @ (Body::SeedReveal { .. }
            | Body::RaceMove { .. }
            | Body::RaceStop { .. }
            | Body::RaceCut { .. }) => match (&mut self.race.race, body) {
                (Some(r), Body::SeedReveal { value }) => {
                    // A reveal after the wait ran out (our timer had not run since: the
                    // app was asleep) finds the race called off, as the peer is told.
                    r.tick(now, &mut send, &mut events);
                    r.on_reveal(value, now, &mut events);
                }
                (Some(r), Body::RaceMove { turn, from, to }) => {
                    r.on_move(turn, from, to, now, &mut events);
                }
                (Some(r), Body::RaceStop { turns }) => r.on_stop(turns, &mut events),
                (Some(r), Body::RaceCut { turns }) => {
                    r.on_cut(turns, now, &mut events);
                }
                _ => send.push(Body::Error {
                    code: ErrorCode::UNEXPECTED,
                }),
            },
            // The peer called off a race that never started on its side. Never a board
            // game's: one sealed by a later proposal or acceptance, or without a race, is
            // dropped.
            Body::Abort {
                reason: AbortReason::NO_SEED,
            } => {
                if let Some(r) = self.race.race.as_mut().filter(|_| !self.race.sealed) {
                    r.on_abort(now, &mut events);
                }
            }
            // A resignation sent before the peer learnt that we called the race off: its
            // race ended without a result here as there.
            Body::Resign { .. } if self.race.called_off() => {}
            Body::Resign { ply }
                if self.race.is_running()
                    || (!self.race.sealed
                        && self.race.race.as_ref().is_some_and(Race::takes_late_resign)) =>
            {
                if let Some(r) = &mut self.race.race {
                    r.on_resign(ply, &mut send, &mut events);
                }
            }
            other => return Some(other),
        }
        self.finish_race_step(send, events);
        None
    }

    /// A board-game proposal from the peer crossed our race proposal: settled like crossed
    /// proposals (the smaller key's stands). True if ours stands and theirs is dropped.
    fn race_crossed(&mut self) -> bool {
        if !matches!(self.race.proposal, Some(RaceProposal::Ours(..))) {
            return false;
        }
        let ours_stands = self
            .channel
            .peer()
            .is_some_and(|peer| self.channel.local_key() < peer.key);
        if !ours_stands {
            self.race.proposal = None;
            self.events.push_back(Event::ProposalDeclined {
                reason: DeclineReason::CROSSED,
            });
        }
        ours_stands
    }

    /// The peer proposes a race: check the options and its commitment.
    fn on_race_propose(&mut self, p: Propose) {
        if self.race_crossed() {
            return;
        }
        if matches!(self.proposal, Some(super::proposal::Proposal::Ours(_))) {
            let ours_stands = self
                .channel
                .peer()
                .is_some_and(|peer| self.channel.local_key() < peer.key);
            if ours_stands {
                return;
            }
            self.proposal = None;
            self.events.push_back(Event::ProposalDeclined {
                reason: DeclineReason::CROSSED,
            });
        }
        if self.current.as_ref().is_some_and(|m| m.outcome().is_none()) {
            return self.channel.queue(Body::Decline {
                reason: DeclineReason::BUSY,
            });
        }
        if !self.room_for_theirs() {
            return;
        }
        if !self.offers.contains(&GameKind::Lines) || p.rules != 0 {
            return self.channel.queue(Body::Decline {
                reason: if p.rules != 0 {
                    DeclineReason::UNSUPPORTED_RULES
                } else {
                    DeclineReason::UNSUPPORTED_GAME
                },
            });
        }
        match parse_proposal_params(&p.params) {
            Err(_) => self.channel.queue(Body::Decline {
                reason: DeclineReason::BAD_PARAMS,
            }),
            // An older app's untimed race: every race has a time limit here.
            Ok(options) if options.time_limit_s == 0 => self.channel.queue(Body::Decline {
                reason: DeclineReason::RACE_UNTIMED,
            }),
            Ok(options) => {
                let spec = race_spec(&p, false, Vec::new(), p.params.clone());
                self.drop_theirs();
                self.race.proposal = Some(RaceProposal::Theirs(p, options));
                self.events.push_back(Event::Proposed(spec));
            }
        }
    }
}
