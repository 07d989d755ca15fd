//! Dispatch of received messages to the reliable layer and the match layer, and the
//! proposal exchange.

use super::play::MatchState;
use super::{INBOX_MAX, Proposal, Session, spec_of};
use crate::message::{Body, DeclineReason, Envelope, ErrorCode, Propose, game_from_code};
use crate::session::event::{CloseReason, Event, IllegalReason};
use banco_game::Game;

impl<G: Game> Session<G> {
    pub(super) fn on_envelope(&mut self, env: Envelope) {
        let up = self.is_link_up();
        match env.body {
            Body::Resume(r) => return self.on_resume(r),
            Body::Bye => {
                self.closed = Some(CloseReason::PeerLeft);
                self.link = None;
                self.events.push_back(Event::Closed {
                    reason: CloseReason::PeerLeft,
                });
                return;
            }
            _ if !up => return, // the peer's Resume is still missing; it will come again
            _ => {}
        }
        self.reliable.on_ack(env.ack);
        match env.body {
            Body::Ping => self.push_ctrl(Body::Pong),
            Body::Pong | Body::Ack | Body::Hello(_) => {}
            Body::Error { code } => self.events.push_back(Event::PeerError { code }),
            body if body.is_sequenced() => {
                let verified = self.peer.as_ref().is_some_and(|p| p.verified);
                if !verified && self.inbox.len() >= INBOX_MAX {
                    return; // not acknowledged: the peer sends it again later
                }
                for b in self.reliable.on_data(env.seq, body) {
                    if self.peer.as_ref().is_some_and(|p| p.verified) {
                        self.dispatch(b);
                    } else {
                        self.inbox.push_back(b);
                    }
                }
            }
            _ => {}
        }
    }

    pub(super) fn drain_inbox(&mut self) {
        while let Some(b) = self.inbox.pop_front() {
            self.dispatch(b);
        }
    }

    pub(super) fn dispatch(&mut self, body: Body) {
        let now = self.now;
        let mut send = Vec::new();
        match body {
            Body::Propose(p) => self.on_propose(p),
            Body::Accept => match self.proposal {
                Some(Proposal::Ours(p)) => {
                    self.proposal = None;
                    self.start_match(p, true);
                }
                _ => send.push(Body::Error {
                    code: ErrorCode::UNEXPECTED,
                }),
            },
            Body::Decline { reason } => {
                if let Some(Proposal::Ours(_)) = self.proposal {
                    self.proposal = None;
                    self.events.push_back(Event::ProposalDeclined { reason });
                }
            }
            Body::Reveal { .. } => send.push(Body::Error {
                code: ErrorCode::UNSUPPORTED,
            }),
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
                        Body::Move(mv) => m.on_move(mv, now, &mut send, ev),
                        Body::UndoRequest { ply } => m.on_undo_request(ply, &mut send, ev),
                        Body::UndoReply { accept } => m.on_undo_reply(accept, now, ev),
                        Body::DrawOffer => m.on_draw_offer(ev),
                        Body::DrawReply { accept, ply } => m.on_draw_reply(accept, ply, now, ev),
                        Body::Resign { ply } => m.on_resign(ply, now, ev),
                        Body::Flag { ply } => m.on_flag(ply, now, ev),
                        _ => {}
                    }
                }
            },
        }
        self.send_all(send);
    }

    pub(super) fn on_propose(&mut self, p: Propose) {
        let reason = if self.current.as_ref().is_some_and(|m| m.outcome().is_none()) {
            Some(DeclineReason::BUSY)
        } else if game_from_code(p.game) != Some(self.config.start.kind()) {
            Some(DeclineReason::UNSUPPORTED_GAME)
        } else if usize::from(p.rules) >= self.config.rules.len() {
            Some(DeclineReason::UNSUPPORTED_RULES)
        } else {
            None
        };
        if let Some(reason) = reason {
            return self.send_all(vec![Body::Decline { reason }]);
        }
        if let (Some(Proposal::Ours(_)), Some(peer)) = (self.proposal, &self.peer)
            && self.identity.public() < peer.key
        {
            // Crossed proposals: the one from the smaller key stands, on both sides.
            return;
        }
        self.proposal = Some(Proposal::Theirs(p));
        self.events.push_back(Event::Proposed(spec_of(p, false)));
    }

    pub(super) fn start_match(&mut self, p: Propose, ours: bool) {
        let spec = spec_of(p, ours);
        let rules = self
            .config
            .rules
            .get(usize::from(p.rules))
            .copied()
            .unwrap_or_default();
        self.current = Some(MatchState::new(
            spec,
            rules,
            self.config.start.clone(),
            self.now,
        ));
        self.events.push_back(Event::MatchStarted(spec));
    }
}
