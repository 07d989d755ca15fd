//! What a [`Session`] does with each message the channel delivers: proposals and their
//! answers here, everything of a running game in the match layer.

use super::Session;
use super::proposal::{MAX_PROPOSAL_CHANGES, Prepared, Proposal, prepare, spec_of};
use crate::fairdraw::{DrawFault, uses_fair_draw};
use crate::message::DeclineReason;
use crate::message::{Body, ErrorCode, Propose};
use crate::session::event::{CloseReason, Event, IllegalReason};
use crate::session::play::MatchState;
use banco_game::MatchGame;

impl<G: MatchGame> Session<G> {
    /// Handles one sequenced message of the peer (delivered in order, once, verified).
    pub(super) fn dispatch(&mut self, body: Body) {
        // The race judges a cut by what earlier envelopes acknowledged (race `receipts`).
        let race = self.race_dispatch(body);
        let acked_before = self
            .current
            .as_ref()
            .is_some_and(MatchState::our_move_acked);
        self.note_acks();
        let Some(body) = race else {
            return;
        };
        let now = self.channel.now();
        let rtt = self.channel.rtt();
        let mut send = Vec::new();
        match body {
            Body::Propose(p) => self.on_propose(p),
            Body::Accept(a) => match self.proposal.take() {
                Some(Proposal::Ours(prepared)) => self.start_match(prepared, true, a.params),
                other => {
                    self.proposal = other;
                    send.push(Body::Error {
                        code: ErrorCode::UNEXPECTED,
                    });
                }
            },
            Body::Decline { reason } => {
                if let Some(Proposal::Ours(_)) = self.proposal {
                    self.proposal = None;
                    self.events.push_back(Event::ProposalDeclined { reason });
                }
            }
            Body::Reveal { link } => match &mut self.current {
                Some(m) if m.has_fair_draw() => {
                    m.on_reveal(link, now, rtt, &mut send, &mut self.events);
                }
                _ => send.push(Body::Error {
                    code: ErrorCode::UNEXPECTED,
                }),
            },
            body => match &mut self.current {
                None => {
                    if let Body::Move(m) = body {
                        let ev = Event::PeerIllegalMove {
                            ply: 0,
                            code: m.mv,
                            reason: IllegalReason::NoGame,
                        };
                        self.events.push_back(ev);
                    }
                    send.push(Body::Error {
                        code: ErrorCode::UNEXPECTED,
                    });
                }
                Some(m) => {
                    let ev = &mut self.events;
                    match body {
                        Body::Move(mv) => m.on_move(mv, now, rtt, &mut send, ev),
                        Body::UndoRequest { ply } => m.on_undo_request(ply, &mut send, ev),
                        Body::UndoReply { accept } => m.on_undo_reply(accept, now, ev),
                        Body::DrawOffer => m.on_draw_offer(ev),
                        Body::DrawReply { accept, ply } => m.on_draw_reply(accept, ply, now, ev),
                        Body::Resign { ply } => m.on_resign(ply, now, ev),
                        Body::Flag { ply } => m.on_flag(ply, now, ev),
                        Body::ClaimDraw { ply } => m.on_claim_draw(ply, now, &mut send, ev),
                        Body::Resync { ply, hash } => {
                            m.on_resync(ply, hash, acked_before, now, &mut send, ev);
                        }
                        Body::Abort { reason } => m.on_abort(reason, ev),
                        Body::TimeForfeit { ply } => m.on_time_forfeit(ply, now, &mut send, ev),
                        _ => {}
                    }
                }
            },
        }
        self.queue_match(send);
        self.check_fairness();
    }

    /// The peer proposes a game. Crossed proposals (both sides proposed before seeing the
    /// other's) are settled first, by the order of the static keys: the proposal of the
    /// smaller key stands on both sides. Then the proposal is checked: a game we offer, a
    /// rule set it knows, a start position our rules engine accepts.
    fn on_propose(&mut self, p: Propose) {
        if self.current.as_ref().is_some_and(|m| !m.is_over()) {
            return self.channel.queue(Body::Decline {
                reason: DeclineReason::BUSY,
            });
        }
        if let Some(Proposal::Ours(_)) = &self.proposal {
            let ours_stands = self
                .channel
                .peer()
                .is_some_and(|peer| self.channel.local_key() < peer.key);
            if ours_stands {
                return; // the peer drops its own proposal and answers ours
            }
            self.proposal = None;
            self.events.push_back(Event::ProposalDeclined {
                reason: DeclineReason::CROSSED,
            });
        }
        if !self.room_for_theirs() {
            return;
        }
        match prepare::<G>(p, &self.offers) {
            Err(refusal) => self.channel.queue(Body::Decline {
                reason: refusal.decline(),
            }),
            Ok(prepared) => {
                let spec = spec_of(&prepared, false, Vec::new(), prepared.msg.params.clone());
                self.drop_theirs();
                self.proposal = Some(Proposal::Theirs(prepared));
                self.events.push_back(Event::Proposed(spec));
            }
        }
    }

    /// True if the peer has a proposal waiting for our player's answer (a board game or a
    /// race: one at a time).
    pub(super) fn theirs_pending(&self) -> bool {
        matches!(self.proposal, Some(Proposal::Theirs(_))) || self.race_answer_pending()
    }

    /// Whether a new proposal of the peer's may be taken: always when none of theirs is
    /// pending; while one is, only [`MAX_PROPOSAL_CHANGES`] times before our player answers
    /// (the new one is declined as busy, the pending one stays, so nothing floods the
    /// player's prompt).
    pub(super) fn room_for_theirs(&mut self) -> bool {
        if !self.theirs_pending() {
            self.proposal_changes = 0;
            return true;
        }
        if self.proposal_changes < MAX_PROPOSAL_CHANGES {
            return true;
        }
        self.channel.queue(Body::Decline {
            reason: DeclineReason::BUSY,
        });
        false
    }

    /// A new proposal of the peer's was taken: it replaces the pending one of theirs,
    /// whatever its kind (board game or race), so the answer of our player always goes to
    /// the latest, which is the one shown ([`Event::Proposed`]).
    pub(super) fn drop_theirs(&mut self) {
        if self.theirs_pending() {
            self.proposal_changes = self.proposal_changes.saturating_add(1);
        }
        if matches!(self.proposal, Some(Proposal::Theirs(_))) {
            self.proposal = None;
        }
        self.drop_race_theirs();
    }

    /// Starts the game of an accepted proposal; `answer_params` are the accepting side's.
    pub(super) fn start_match(&mut self, p: Prepared<G>, ours: bool, answer_params: Vec<u8>) {
        let spec = if ours {
            spec_of(&p, true, p.msg.params.clone(), answer_params)
        } else {
            spec_of(&p, false, answer_params, p.msg.params.clone())
        };
        let now = self.channel.now();
        let kind = p.kind;
        let mut m = MatchState::new(spec.clone(), p.rules, p.start, now);
        if ours {
            m.proposed_here();
        }
        let chain = self.chain.take();
        let fair = match chain {
            Some(chain) if uses_fair_draw(kind) => {
                let session = self.channel.session_id().unwrap_or_default();
                m.start_fair_draw(session, chain, &spec.peer_params)
            }
            _ if uses_fair_draw(kind) => Err(DrawFault::BadCommitment),
            _ => Ok(()),
        };
        self.current = Some(m);
        self.events.push_back(Event::MatchStarted(spec));
        if let Err(fault) = fair {
            self.channel.close_with(CloseReason::UnfairDraw(fault));
            return;
        }
        // A start position may already await chance.
        let mut send = Vec::new();
        if let Some(m) = &mut self.current {
            m.settle_chance(now, self.channel.rtt(), &mut send, &mut self.events);
        }
        self.queue_match(send);
        self.check_fairness();
    }
}
