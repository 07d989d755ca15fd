//! The match session: a sans-I/O state machine joining two players.
//!
//! The driver feeds [`Session::handle_datagram`] and [`Session::handle_timeout`], sends what
//! [`Session::poll_transmit`] returns, waits until [`Session::poll_timeout`], and shows what
//! [`Session::poll_event`] returns. Time is always passed in (milliseconds on any monotonic
//! clock); randomness comes from the seed given to [`Session::new`].
//!
//! Two parts: a game-agnostic [`Channel`] (module [`channel`]) and, on top, the match of
//! whichever game a proposal named. Three layers, bottom up:
//!
//! * **Link** (one per connection, in the channel). Noise XX handshake with `Hello`
//!   payloads, then each side sends `Resume { session, last_seen }` (repeated every
//!   retransmission timeout until the peer's arrives). Keepalive `Ping` after 5 s of
//!   silence from us, link declared dead after 20 s of silence from the peer, handshake
//!   timeout 10 s ([`Timing`](crate::Timing)). Inbound frames pass a token bucket (burst
//!   100, 50 per second) before decryption.
//! * **Reliable stream** (one per session, across links, in the channel). Sequenced bodies
//!   (proposals, moves, offers, replies, resignation, flag, claims) get 64-bit sequence
//!   numbers; the header carries their low 4 bits and a cumulative acknowledgement. At
//!   most 8 are in flight; the oldest unacknowledged one is retransmitted after the RTO
//!   (300 ms, doubling to 4 s), or at once when three acknowledgements in a row still ask
//!   for it (fast retransmission); the receiver buffers early arrivals, delivers in order, and
//!   drops duplicates. After a reconnect, `Resume.last_seen` tells the sender what to
//!   replay. Until the local player confirms the peer's code, delivered messages wait in a
//!   bounded inbox.
//! * **Match** (`Session<G>`). Each side offers games ([`SessionConfig::offers`],
//!   announced as capability bits; [`PeerInfo::offers`] lists the peer's). Either side
//!   proposes any game both offer, with its rule set, start position, clock and
//!   parameters; the receiver checks the proposal and builds the game with
//!   [`MatchGame::setup`] (crossed proposals: the one from the smaller static key stands).
//!   Then moves validated by our own rules engine and the position hash, clocks, undo
//!   requests, draw offers and claims, resignation and flag. Messages ending a game carry
//!   the sender's ply count; a receiver that is ahead (a move crossed the message) sets its
//!   position back, so both sides end on the same position with the same outcome.
//!
//! A link survives a cut: the second connection resumes the session where it stopped.
//!
//! ```
//! use banco_protocol::sim::CountingGame;
//! use banco_protocol::{Event, Identity, Session, SessionConfig};
//! use banco_game::GameKind;
//!
//! let config = |name| SessionConfig::new(name, &[GameKind::Xiangqi]);
//! let mut a: Session<CountingGame> = Session::new(config("An"), Identity::from_secret([1; 32]), [11; 32]);
//! let mut b: Session<CountingGame> = Session::new(config("Binh"), Identity::from_secret([2; 32]), [22; 32]);
//! let pump = |a: &mut Session<CountingGame>, b: &mut Session<CountingGame>, now| loop {
//!     let mut moved = false;
//!     while let Some(f) = a.poll_transmit() { b.handle_datagram(&f, now); moved = true; }
//!     while let Some(f) = b.poll_transmit() { a.handle_datagram(&f, now); moved = true; }
//!     if !moved { break; }
//! };
//! a.connect(0)?;
//! b.accept(0)?;
//! pump(&mut a, &mut b, 0);
//! a.confirm_peer(true)?;
//! b.confirm_peer(true)?;
//! pump(&mut a, &mut b, 0);
//! // The connection drops; both sides are told, then a new one resumes the session.
//! a.link_lost(100);
//! b.link_lost(100);
//! a.connect(200)?;
//! b.accept(200)?;
//! pump(&mut a, &mut b, 200);
//! let resumed = std::iter::from_fn(|| a.poll_event())
//!     .any(|e| matches!(e, Event::LinkUp { resumed: true }));
//! assert!(resumed);
//! assert!(a.peer().unwrap().verified, "no code to compare again");
//! # Ok::<(), banco_protocol::ActionError>(())
//! ```

pub mod channel;
pub(crate) mod config;
mod dispatch;
pub(crate) mod event;
mod handshake;
mod link;
pub mod pending;
mod play;
mod proposal;
pub use proposal::check_proposal;
mod race;
mod reliable;

use crate::crypto::{Identity, PublicKey};
use crate::fairdraw::{COMMITMENT_LEN, HashChain, commitment, uses_fair_draw};
use crate::message::{AbortReason, Accept, Body, DeclineReason, MAX_PARAMS_LEN, caps_of};
use crate::peers::KnownPeers;
use crate::sas::Sas;
use banco_game::{Color, DrawReason, GameKind, MatchGame, Outcome};
use channel::{Channel, ChannelOutput, PeerInfo, REJECTION_EVENTS_MAX};
use config::{ChannelConfig, MatchSnapshot, MatchSpec, SessionConfig, Stats};
use event::{ActionError, ChannelEvent, CloseReason, Event};
use play::MatchState;
use proposal::{Proposal, prepare_ours, spec_of};
use std::collections::VecDeque;

/// A match session with one peer: a [`Channel`] and the match of whichever game a
/// proposal named, among the games `G` can be ([`MatchGame`]; a dispatch enum over several
/// games plays any of them). See the crate docs for a full example and the life cycle.
pub struct Session<G: MatchGame> {
    channel: Channel,
    offers: Vec<GameKind>,
    proposal: Option<Proposal<G>>,
    current: Option<MatchState<G>>,
    events: VecDeque<Event<G::Move>>,
    /// Our hash chain for the fair draw of the game being proposed or accepted.
    chain: Option<HashChain>,
    /// The Lines race, its proposal first ([`race`](crate::race)).
    race: race::RaceSlot,
    /// How often the peer replaced its pending proposal since our player last had none
    /// to answer ([`proposal::MAX_PROPOSAL_CHANGES`]).
    proposal_changes: u8,
}

impl<G: MatchGame> core::fmt::Debug for Session<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Session")
            .field("channel", &self.channel)
            .field("offers", &self.offers)
            .field("ply", &self.ply())
            .field("outcome", &self.outcome())
            .finish_non_exhaustive()
    }
}

impl<G: MatchGame> Session<G> {
    /// A session for the local player `identity`. `seed` must be 32 bytes of fresh secret
    /// randomness from the platform (it makes every ephemeral key and nonce of the session);
    /// tests pass a fixed seed to replay a session exactly. Offered games that `G` cannot
    /// be are dropped (see [`Session::offers`]).
    pub fn new(config: SessionConfig, identity: Identity, seed: [u8; 32]) -> Self {
        let mut offers = Vec::new();
        for kind in config.offers {
            // The Lines race is played by the session itself, whatever `G` is.
            let playable = G::kinds().contains(&kind) || kind == GameKind::Lines;
            if playable && !offers.contains(&kind) {
                offers.push(kind);
            }
        }
        let channel_config = ChannelConfig {
            name: config.name,
            caps: caps_of(&offers),
            known_peers: config.known_peers,
            expected_peer: config.expected_peer,
            timing: config.timing,
        };
        Session {
            channel: Channel::new(channel_config, identity, seed),
            offers,
            proposal: None,
            current: None,
            events: VecDeque::new(),
            chain: None,
            race: race::RaceSlot::default(),
            proposal_changes: 0,
        }
    }

    // ----- links -------------------------------------------------------------------------

    /// Starts a new link as the initiator (the side that dialled). Any previous link is
    /// dropped; the match continues on the new one.
    pub fn connect(&mut self, now: u64) -> Result<(), ActionError> {
        let r = self.channel.connect(now);
        self.drain();
        r
    }

    /// Starts a new link as the responder (the side that accepted the connection).
    pub fn accept(&mut self, now: u64) -> Result<(), ActionError> {
        let r = self.channel.accept(now);
        self.drain();
        r
    }

    /// The driver saw the link close (EOF, BLE disconnect). The match waits for a new link.
    pub fn link_lost(&mut self, now: u64) {
        self.channel.link_lost(now);
        self.drain();
    }

    /// True while a link is up (handshake and resume exchange done).
    pub fn is_link_up(&self) -> bool {
        self.channel.is_link_up()
    }

    // ----- driver interface --------------------------------------------------------------

    /// Handles one frame received on the current link (without the stream length prefix).
    /// Bad frames are dropped and reported as [`Event::FrameRejected`]; nothing panics and
    /// the game state is untouched.
    pub fn handle_datagram(&mut self, bytes: &[u8], now: u64) {
        self.channel.handle_datagram(bytes, now);
        if self.channel.heard_at() == Some(now) {
            self.race_heard(now);
        }
        self.drain();
        self.note_acks();
    }

    /// The next frame to send on the current link, if any. Stream drivers add the length
    /// prefix with [`frame::encode_frame`](crate::frame::encode_frame).
    pub fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.channel.poll_transmit()
    }

    /// The next event, if any.
    pub fn poll_event(&mut self) -> Option<Event<G::Move>> {
        self.drain();
        self.events.pop_front()
    }

    /// When [`Session::handle_timeout`] should be called next, if ever.
    pub fn poll_timeout(&self) -> Option<u64> {
        if self.channel.is_closed() {
            return None;
        }
        let flag = self.current.as_ref().and_then(MatchState::flag_deadline);
        let withheld = self
            .current
            .as_ref()
            .and_then(MatchState::withheld_deadline);
        let rtt = self.channel.rtt();
        let peer_flag = self
            .current
            .as_ref()
            .and_then(|m| m.peer_flag_deadline(rtt));
        [
            self.channel.poll_timeout(),
            flag,
            withheld,
            peer_flag,
            self.race_deadline(),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// Runs the timers due at `now`: retransmission, keepalive, dead-peer and handshake
    /// timeouts, our own clock flag, and the peer's flag as measured here (the peer is told
    /// with `TimeForfeit`).
    pub fn handle_timeout(&mut self, now: u64) {
        self.channel.handle_timeout(now);
        self.drain();
        if self.channel.is_closed() {
            return;
        }
        self.race_tick(now);
        let rtt = self.channel.rtt();
        if let Some(m) = &mut self.current {
            let mut send = Vec::new();
            if !m.check_flag(now, &mut send, &mut self.events) {
                m.check_peer_flag(now, rtt, &mut send, &mut self.events);
            }
            // A peer whose later messages already arrived may have sent its link before
            // them: it may be on its way again, so the wait starts over (for a while only:
            // a gap can be kept open on purpose). The wait is judged whatever the link's
            // state: a player who cuts the link during a chance step loses on time as it
            // would on its move (and a past deadline never stays put).
            if self.channel.peer_stream_has_gap() {
                m.restart_reveal_wait(now);
            }
            m.check_withheld(now, &mut self.events);
            self.queue_match(send);
        }
        self.check_fairness();
    }

    /// Ends the session if the fair draw of the match failed (the match already ended
    /// the game).
    fn check_fairness(&mut self) {
        if let Some(fault) = self.current.as_mut().and_then(MatchState::take_fault) {
            self.channel.close_with(CloseReason::UnfairDraw(fault));
            self.drain();
        }
    }

    /// A fresh chain for the fair draw of a `kind` game where we play `color`, and the
    /// parameters that commit to it followed by `params`; `params` alone for other games.
    fn commit_params(&mut self, kind: GameKind, color: Color, params: Vec<u8>) -> Vec<u8> {
        if !uses_fair_draw(kind) {
            self.chain = None;
            return params;
        }
        let secret = self.channel.fresh_secret();
        let session = self.channel.session_id().unwrap_or_default();
        let chain = HashChain::new(secret, session, color);
        let mut out = commitment(&chain.head()).to_vec();
        out.extend_from_slice(&params);
        self.chain = Some(chain);
        out
    }

    /// Hands the channel's outputs on, in order: events to the application, the peer's
    /// messages to the match.
    fn drain(&mut self) {
        while let Some(out) = self.channel.poll_output() {
            match out {
                ChannelOutput::Event(ChannelEvent::FrameRejected { .. })
                    if self.events.len() >= REJECTION_EVENTS_MAX => {}
                ChannelOutput::Event(e) => {
                    if race::peer_gone(&e) {
                        self.race_peer_gone();
                    }
                    self.events.push_back(e.into());
                }
                ChannelOutput::Message(body) => self.dispatch(body),
            }
        }
    }

    // ----- pairing -----------------------------------------------------------------------

    /// The player confirmed that both phones show the same code. With `remember`, the
    /// peer's key is added to [`Session::known_peers`] so later sessions skip the code.
    pub fn confirm_peer(&mut self, remember: bool) -> Result<(), ActionError> {
        let r = self.channel.confirm_peer(remember);
        self.drain();
        r
    }

    /// The player confirmed `code`, the code they compared ([`Channel::confirm_code`]):
    /// refused with [`ActionError::CodeChanged`] if a newer link shows another code.
    pub fn confirm_code(&mut self, code: Sas, remember: bool) -> Result<(), ActionError> {
        let r = self.channel.confirm_code(code, remember);
        self.drain();
        r
    }

    /// Starts a responder handshake beside the current link ([`pending`]).
    pub fn pending_accept(&mut self, now: u64) -> Result<pending::PendingAccept, ActionError> {
        self.channel.pending_accept(now)
    }

    /// Makes a finished handshake the session's link ([`Channel::adopt`]).
    pub fn adopt(&mut self, accepted: pending::AcceptedLink, now: u64) -> Result<(), ActionError> {
        let r = self.channel.adopt(accepted, now);
        self.drain();
        r
    }

    /// The player saw different codes: someone may be in the middle. The host forgets that
    /// device and waits for another ([`Channel::reject_peer`]); a guest says goodbye and
    /// closes the session.
    pub fn reject_peer(&mut self) {
        self.channel.reject_peer();
        self.drain();
    }

    /// Ends the session (sends `Bye` if a link is up).
    pub fn close(&mut self, now: u64) {
        self.channel.close(now);
        self.drain();
    }

    // ----- proposals ---------------------------------------------------------------------

    /// Proposes a game: `spec.game` must be offered by both sides, `spec.rules` a rule set
    /// of that game ([`MatchGame::rules`]), `spec.start_fen` (if any) a position the game
    /// accepts and that is not over, `spec.clock` (if any) a base time of at least
    /// [`MIN_CLOCK_BASE_MS`](crate::message::MIN_CLOCK_BASE_MS), and `spec.local_params` at
    /// most 256 bytes (`spec.peer_params` is ignored). The start position is sent as the
    /// game writes it back ([`MatchGame::fen`]). For games with chance steps settled by the
    /// fair draw ([`uses_fair_draw`]) the session makes a fresh hash chain and puts its
    /// commitment before `spec.local_params` (11 bytes, counted in the limit).
    pub fn propose(&mut self, spec: MatchSpec, now: u64) -> Result<(), ActionError> {
        self.channel.ready(now)?;
        if self.current.as_ref().is_some_and(|m| !m.is_over()) || self.race.is_running() {
            return Err(ActionError::GameRunning);
        }
        if self.proposal.is_some() || self.race.proposal.is_some() {
            return Err(ActionError::Pending);
        }
        if !self.offers.contains(&spec.game) {
            return Err(ActionError::GameNotOffered(spec.game));
        }
        if !self
            .channel
            .peer()
            .is_some_and(|p| p.offers_game(spec.game))
        {
            return Err(ActionError::PeerDoesNotOffer(spec.game));
        }
        let mut spec = spec;
        if uses_fair_draw(spec.game) && spec.local_params.len() + COMMITMENT_LEN > MAX_PARAMS_LEN {
            return Err(ActionError::ParamsTooLong(
                spec.local_params.len() + COMMITMENT_LEN,
            ));
        }
        let chain = self.chain.take();
        spec.local_params = self.commit_params(
            spec.game,
            spec.local_color,
            core::mem::take(&mut spec.local_params),
        );
        let prepared = match prepare_ours::<G>(&spec, &self.offers) {
            Ok(p) => p,
            Err(e) => {
                self.chain = chain;
                return Err(e);
            }
        };
        self.channel.queue(Body::Propose(prepared.msg.clone()));
        self.proposal = Some(Proposal::Ours(prepared));
        Ok(())
    }

    /// Accepts the peer's proposal, whichever is pending now; the game starts. The peer
    /// has one pending proposal at a time, board game or race: the latest it sent
    /// ([`Event::Proposed`]). To accept only the one the player was shown, use
    /// [`Session::accept_shown`].
    pub fn accept_proposal(&mut self, now: u64) -> Result<(), ActionError> {
        self.accept_proposal_with(Vec::new(), now)
    }

    /// Accepts the peer's proposal with this side's per-game parameters (at most 256
    /// bytes in all); the game starts. For games with the fair draw
    /// ([`uses_fair_draw`]) the session puts its commitment first (11 bytes).
    pub fn accept_proposal_with(&mut self, params: Vec<u8>, now: u64) -> Result<(), ActionError> {
        if self.race_answer_pending() {
            return self.accept_race(now);
        }
        self.channel.ready(now)?;
        let Some(Proposal::Theirs(theirs)) = &self.proposal else {
            return Err(ActionError::NothingToAnswer);
        };
        let (kind, color) = (theirs.kind, theirs.msg.color.other());
        let extra = if uses_fair_draw(kind) {
            COMMITMENT_LEN
        } else {
            0
        };
        if params.len() + extra > MAX_PARAMS_LEN {
            return Err(ActionError::ParamsTooLong(params.len() + extra));
        }
        let params = self.commit_params(kind, color, params);
        let Some(Proposal::Theirs(prepared)) = self.proposal.take() else {
            return Err(ActionError::NothingToAnswer);
        };
        let seq = self.channel.queue_seq(Body::Accept(Accept {
            params: params.clone(),
        }));
        self.start_match(prepared, false, params);
        if let (Some(seq), Some(m)) = (seq, &mut self.current) {
            m.await_start_ack(seq);
        }
        Ok(())
    }

    /// Accepts the peer's proposal only if it is still `shown`, the spec of the
    /// [`Event::Proposed`] the player saw (as [`Session::pending_proposal`] gives it), with
    /// this side's parameters as [`Session::accept_proposal_with`] takes them. Refused with
    /// [`ActionError::ProposalChanged`] when the peer replaced it since (another game,
    /// clock, colour or start), with nothing accepted: show the new one.
    pub fn accept_shown(
        &mut self,
        shown: &MatchSpec,
        params: Vec<u8>,
        now: u64,
    ) -> Result<(), ActionError> {
        match self.pending_proposal() {
            Some((pending, false)) if pending == *shown => self.accept_proposal_with(params, now),
            Some((_, false)) => Err(ActionError::ProposalChanged),
            _ => Err(ActionError::NothingToAnswer),
        }
    }

    /// Declines the peer's proposal (the one pending now, board game or race).
    pub fn decline_proposal(&mut self, now: u64) -> Result<(), ActionError> {
        if self.race_answer_pending() {
            return self.decline_race(now);
        }
        self.channel.ready(now)?;
        let Some(Proposal::Theirs(_)) = self.proposal else {
            return Err(ActionError::NothingToAnswer);
        };
        self.proposal = None;
        self.channel.queue(Body::Decline {
            reason: DeclineReason::DECLINED,
        });
        Ok(())
    }

    // ----- match actions -----------------------------------------------------------------

    /// Plays a local move after checking it with the rules engine.
    pub fn play(&mut self, mv: G::Move, now: u64) -> Result<(), ActionError> {
        let rtt = self.channel.rtt();
        self.with_match(now, |m, send, ev| m.play_local(mv, now, rtt, send, ev))
    }

    /// Asks the peer to take back our last move (and its answer, if it played one).
    pub fn request_undo(&mut self, now: u64) -> Result<(), ActionError> {
        self.with_match(now, |m, send, _| m.request_undo(send))
    }

    /// Answers the peer's undo request.
    pub fn reply_undo(&mut self, accept: bool, now: u64) -> Result<(), ActionError> {
        self.with_match(now, |m, send, ev| m.reply_undo(accept, now, send, ev))
    }

    /// Offers a draw, after one's own move (FIDE 9.1.2.2): on the peer's turn it is sent
    /// at once; on our own turn (or while the chance step before it awaits its outcome)
    /// it is held and sent right after our next move ([`Session::draw_offer_held`]),
    /// unless the game ends first. A second offer while one is held or standing is
    /// [`ActionError::Pending`].
    pub fn offer_draw(&mut self, now: u64) -> Result<(), ActionError> {
        self.with_match(now, |m, send, _| m.offer_draw(send))
    }

    /// Answers the peer's draw offer.
    pub fn reply_draw(&mut self, accept: bool, now: u64) -> Result<(), ActionError> {
        self.with_match(now, |m, send, ev| m.reply_draw(accept, send, ev))
    }

    /// Claims the draw the rules allow in the current position, on our turn (chess:
    /// threefold repetition, the fifty-move rule; see [`Session::claimable_draw`]). The
    /// game ends at once; the peer checks the claim against its own position.
    pub fn claim_draw(&mut self, now: u64) -> Result<(), ActionError> {
        self.with_match(now, |m, send, ev| m.claim_draw(now, send, ev))
    }

    /// Resigns the game.
    pub fn resign(&mut self, now: u64) -> Result<(), ActionError> {
        self.with_match(now, |m, send, ev| m.resign(send, ev))
    }

    fn with_match(
        &mut self,
        now: u64,
        f: impl FnOnce(
            &mut MatchState<G>,
            &mut Vec<Body>,
            &mut VecDeque<Event<G::Move>>,
        ) -> Result<(), ActionError>,
    ) -> Result<(), ActionError> {
        self.channel.ready(now)?;
        let m = self.current.as_mut().ok_or(ActionError::NoGame)?;
        let mut send = Vec::new();
        let result = f(m, &mut send, &mut self.events);
        self.queue_match(send);
        self.check_fairness();
        result
    }

    /// Queues the match layer's messages, telling it the sequence numbers of those whose
    /// acknowledgement it uses (see [`MatchState::note_sent`]).
    fn queue_match(&mut self, send: Vec<Body>) {
        for b in send {
            let tracked = matches!(b, Body::Move(_)).then(|| b.clone());
            let seq = self.channel.queue_seq(b);
            if let (Some(b), Some(seq), Some(m)) = (tracked, seq, &mut self.current) {
                m.note_sent(&b, seq);
            }
        }
    }

    /// Tells the match what the peer has acknowledged so far (the envelope of a message
    /// being delivered included).
    fn note_acks(&mut self) {
        let (acked, now) = (self.channel.peer_acked(), self.channel.now());
        if let Some(m) = &mut self.current {
            m.note_acked(acked, now);
        }
        if let Some(r) = &mut self.race.race {
            r.note_acked(acked, now);
        }
    }

    // ----- accessors ---------------------------------------------------------------------

    /// The games this side offers.
    pub fn offers(&self) -> &[GameKind] {
        &self.offers
    }

    /// The proposal waiting for an answer, seen from the local side, and whether it is
    /// ours.
    pub fn pending_proposal(&self) -> Option<(MatchSpec, bool)> {
        match &self.proposal {
            None => self.pending_race_spec(),
            Some(Proposal::Ours(p)) => {
                Some((spec_of(p, true, p.msg.params.clone(), Vec::new()), true))
            }
            Some(Proposal::Theirs(p)) => {
                Some((spec_of(p, false, Vec::new(), p.msg.params.clone()), false))
            }
        }
    }

    /// The current (or last) game's position: the session's own game, validated move by
    /// move (read it instead of keeping a copy).
    pub fn game(&self) -> Option<&G> {
        self.current.as_ref().map(MatchState::game)
    }

    /// The rules of the current (or last) game.
    pub fn rules(&self) -> Option<&G::Rules> {
        self.current.as_ref().map(MatchState::rules)
    }

    /// Number of moves in the current game's position.
    pub fn ply(&self) -> Option<u32> {
        self.current.as_ref().map(MatchState::ply)
    }

    /// The moves of the current game, from its start position to the position shown.
    pub fn moves(&self) -> Option<&[G::Move]> {
        self.current.as_ref().map(MatchState::moves)
    }

    /// How the current game ended, if it did with a result.
    pub fn outcome(&self) -> Option<Outcome> {
        self.current.as_ref().and_then(MatchState::outcome)
    }

    /// Why the current game was abandoned without a result, if it was (see
    /// [`Event::MatchAborted`]).
    pub fn aborted(&self) -> Option<AbortReason> {
        self.current.as_ref().and_then(MatchState::aborted)
    }

    /// The current game, seen from the local side.
    pub fn match_spec(&self) -> Option<&MatchSpec> {
        self.current.as_ref().map(|m| &m.spec)
    }

    /// Remaining time in milliseconds of `[red, black]` at `now`, for timed games.
    pub fn clocks(&self, now: u64) -> Option<[u64; 2]> {
        self.current.as_ref().and_then(|m| m.clocks(now))
    }

    /// The draw the local player may claim now with [`Session::claim_draw`], if any.
    pub fn claimable_draw(&self) -> Option<DrawReason> {
        self.current.as_ref().and_then(MatchState::claimable)
    }

    /// Our draw offer waits for our next move, which sends it ([`Session::offer_draw`]).
    pub fn draw_offer_held(&self) -> bool {
        self.current.as_ref().is_some_and(MatchState::offer_held)
    }

    /// A copy of the current (or last) game's state at `now`.
    pub fn snapshot(&self, now: u64) -> Option<MatchSnapshot<G>> {
        let m = self.current.as_ref()?;
        Some(MatchSnapshot {
            spec: m.spec.clone(),
            game: m.game().clone(),
            moves: m.moves().to_vec(),
            outcome: m.outcome(),
            aborted: m.aborted(),
            clocks: m.clocks(now),
            running_clock: m.running_clock(),
            claimable_draw: m.claimable(),
            draw_offer_held: m.offer_held(),
            fair_draws: m.fair_transcript(),
        })
    }

    /// The channel under the match (link, pairing, stream).
    pub fn channel(&self) -> &Channel {
        &self.channel
    }

    /// The peer, once a link was set up.
    pub fn peer(&self) -> Option<&PeerInfo> {
        self.channel.peer()
    }

    /// The code of the current link, once known.
    pub fn link_code(&self) -> Option<Sas> {
        self.channel.link_code()
    }

    /// Remembered peers, including any added by [`Session::confirm_peer`]; export them with
    /// [`KnownPeers::export`].
    pub fn known_peers(&self) -> &KnownPeers {
        self.channel.known_peers()
    }

    /// The local player's display name.
    pub fn name(&self) -> &str {
        self.channel.name()
    }

    /// The local static key.
    pub fn local_key(&self) -> PublicKey {
        self.channel.local_key()
    }

    /// The session identifier (from the first link).
    pub fn session_id(&self) -> Option<[u8; 8]> {
        self.channel.session_id()
    }

    /// Counters.
    pub fn stats(&self) -> Stats {
        self.channel.stats()
    }

    /// Sequenced messages not yet acknowledged by the peer.
    pub fn unacked(&self) -> usize {
        self.channel.unacked()
    }

    /// True once the session is closed.
    pub fn is_closed(&self) -> bool {
        self.channel.is_closed()
    }
}
