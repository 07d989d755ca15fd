//! The match session: a sans-I/O state machine joining two players.
//!
//! The driver feeds [`Session::handle_datagram`] and [`Session::handle_timeout`], sends what
//! [`Session::poll_transmit`] returns, waits until [`Session::poll_timeout`], and shows what
//! [`Session::poll_event`] returns. Time is always passed in (milliseconds on any monotonic
//! clock); randomness comes from the seed given to [`Session::new`].
//!
//! Three layers, bottom up:
//!
//! * **Link** (one per connection). Noise XX handshake with `Hello` payloads, then each
//!   side sends `Resume { session, last_seen }` (repeated every retransmission timeout until
//!   the peer's arrives). Keepalive `Ping` after 5 s of silence from us, link declared dead
//!   after 20 s of silence from the peer, handshake timeout 10 s ([`Timing`](crate::Timing)).
//!   Inbound frames pass a token bucket (burst 100, 50 per second) before decryption.
//! * **Reliable stream** (one per session, across links). Sequenced bodies (proposals,
//!   moves, offers, replies, resignation, flag) get 64-bit sequence numbers; the header
//!   carries their low 4 bits and a cumulative acknowledgement. At most 8 are in flight;
//!   the oldest unacknowledged one is retransmitted after the RTO (300 ms, doubling to
//!   4 s); the receiver buffers early arrivals, delivers in order, and drops duplicates.
//!   After a reconnect, `Resume.last_seen` tells the sender what to replay. Until the
//!   local player confirms the peer's code, delivered messages wait in a bounded inbox.
//! * **Match**. Proposals (crossed proposals: the one from the smaller static key stands),
//!   moves validated by our own rules engine and the position hash, clocks, undo requests,
//!   draw offers, resignation and flag. Messages ending a game carry the sender's ply
//!   count; a receiver that is ahead (a move crossed the message) sets its position back,
//!   so both sides end on the same position with the same outcome.

pub(crate) mod config;
mod dispatch;
pub(crate) mod event;
mod handshake;
mod link;
mod play;
mod reliable;

use crate::crypto::{Handshake, Identity, PublicKey};
use crate::frame::MAX_FRAME_LEN;
use crate::message::{
    Body, DeclineReason, Envelope, ErrorCode, MAX_NAME_LEN, Propose, game_code, game_from_code,
};
use crate::peers::KnownPeers;
use crate::sas::Sas;
use banco_game::{Game, Outcome};
use config::{MatchSpec, SessionConfig, Stats};
use event::{ActionError, CloseReason, Event, LinkDownReason, Rejection};
use link::{Link, Phase, RateLimiter};
use play::MatchState;
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use reliable::Reliable;
use std::collections::VecDeque;

/// Sequenced messages held back until the peer's code is confirmed, at most.
const INBOX_MAX: usize = 32;
/// Queued events above which dropped-frame reports are no longer queued.
const REJECTION_EVENTS_MAX: usize = 64;
/// Queued link-level replies (pongs, errors) at most.
const CTRL_MAX: usize = 16;

/// Who the peer is, as far as this session knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PeerInfo {
    /// The name the peer announced.
    pub name: String,
    /// The peer's static key.
    pub key: PublicKey,
    /// True once the code was confirmed (or the key was remembered).
    pub verified: bool,
    /// The six digits to compare (of the link on which the peer was identified, or of the
    /// latest link while the code is not confirmed).
    pub code: Sas,
    /// The capability bits the peer announced (`message::CAP_*`).
    pub caps: u32,
}

#[derive(Clone, Copy, Debug)]
enum Proposal {
    Ours(Propose),
    Theirs(Propose),
}

/// A match session with one peer, generic over the game (see the crate docs for a full
/// example and the life cycle).
pub struct Session<G: Game> {
    config: SessionConfig<G>,
    identity: Identity,
    rng: ChaCha20Rng,
    now: u64,
    link: Option<Link>,
    reliable: Reliable,
    session_id: Option<[u8; 8]>,
    peer: Option<PeerInfo>,
    inbox: VecDeque<Body>,
    proposal: Option<Proposal>,
    current: Option<MatchState<G>>,
    ctrl: VecDeque<Body>,
    out: VecDeque<Vec<u8>>,
    events: VecDeque<Event<G::Move>>,
    limiter: RateLimiter,
    closed: Option<CloseReason>,
    stats: Stats,
}

impl<G: Game> core::fmt::Debug for Session<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Session")
            .field("local", &self.identity.public())
            .field("peer", &self.peer)
            .field("link_up", &self.is_link_up())
            .field("ply", &self.ply())
            .field("outcome", &self.outcome())
            .finish_non_exhaustive()
    }
}

impl<G: Game> Session<G> {
    /// A session for the local player `identity`. `seed` must be 32 bytes of fresh secret
    /// randomness from the platform (it makes every ephemeral key and nonce of the session);
    /// tests pass a fixed seed to replay a session exactly.
    pub fn new(mut config: SessionConfig<G>, identity: Identity, seed: [u8; 32]) -> Self {
        if config.name.len() > MAX_NAME_LEN {
            let mut cut = MAX_NAME_LEN;
            while !config.name.is_char_boundary(cut) {
                cut -= 1;
            }
            config.name.truncate(cut);
        }
        if config.rules.is_empty() {
            config.rules.push(G::Rules::default());
        }
        let reliable = Reliable::new(config.timing.rto_ms, config.timing.rto_max_ms);
        Session {
            config,
            identity,
            rng: ChaCha20Rng::from_seed(seed),
            now: 0,
            link: None,
            reliable,
            session_id: None,
            peer: None,
            inbox: VecDeque::new(),
            proposal: None,
            current: None,
            ctrl: VecDeque::new(),
            out: VecDeque::new(),
            events: VecDeque::new(),
            limiter: RateLimiter::new(),
            closed: None,
            stats: Stats::default(),
        }
    }

    // ----- links -------------------------------------------------------------------------

    /// Starts a new link as the initiator (the side that dialled). Any previous link is
    /// dropped; the match continues on the new one.
    pub fn connect(&mut self, now: u64) -> Result<(), ActionError> {
        self.start_link(true, now)
    }

    /// Starts a new link as the responder (the side that accepted the connection).
    pub fn accept(&mut self, now: u64) -> Result<(), ActionError> {
        self.start_link(false, now)
    }

    fn start_link(&mut self, initiator: bool, now: u64) -> Result<(), ActionError> {
        self.ensure_open()?;
        self.now = now;
        self.out.clear();
        self.ctrl.clear();
        let mut seed = [0u8; 32];
        self.rng.fill_bytes(&mut seed);
        let mut my_nonce = [0u8; 32];
        self.rng.fill_bytes(&mut my_nonce);
        let hs = if initiator {
            Handshake::initiator(&self.identity, seed)
        } else {
            Handshake::responder(&self.identity, seed)
        };
        // Building a handshake only fails if snow lacks a primitive, a build problem.
        let Ok(mut hs) = hs else {
            return Err(ActionError::Unsupported);
        };
        if initiator {
            let Ok(msg1) = hs.write_message(&[]) else {
                return Err(ActionError::Unsupported);
            };
            self.push_frame(msg1);
        }
        self.stats.links += 1;
        self.link = Some(Link {
            initiator,
            started: now,
            last_rx: now,
            last_tx: now,
            my_nonce,
            phase: Phase::Handshake(Box::new(hs)),
        });
        Ok(())
    }

    /// The driver saw the link close (EOF, BLE disconnect). The match waits for a new link.
    pub fn link_lost(&mut self, now: u64) {
        self.now = now;
        if self.link.is_some() {
            self.link_down(LinkDownReason::Closed);
        }
    }

    fn link_down(&mut self, reason: LinkDownReason) {
        self.link = None;
        self.out.clear();
        self.ctrl.clear();
        self.events.push_back(Event::LinkDown { reason });
    }

    /// True while a link is up (handshake and resume exchange done).
    pub fn is_link_up(&self) -> bool {
        self.link.as_ref().is_some_and(Link::is_up)
    }

    // ----- driver interface --------------------------------------------------------------

    /// Handles one frame received on the current link (without the stream length prefix).
    /// Bad frames are dropped and reported as [`Event::FrameRejected`]; nothing panics and
    /// the game state is untouched.
    pub fn handle_datagram(&mut self, bytes: &[u8], now: u64) {
        self.now = now;
        if self.closed.is_some() {
            return;
        }
        self.stats.frames_received += 1;
        if bytes.len() > MAX_FRAME_LEN {
            return self.reject(Rejection::Oversized(bytes.len()));
        }
        if !self.limiter.allow(now) {
            self.stats.rate_limited += 1;
            if !self.limiter.reported {
                self.limiter.reported = true;
                self.reject(Rejection::RateLimited);
            } else {
                self.stats.frames_rejected += 1;
            }
            return;
        }
        let Some(link) = &mut self.link else {
            return self.reject(Rejection::NoLink);
        };
        match &mut link.phase {
            Phase::Handshake(_) => self.on_handshake_frame(bytes),
            Phase::Open(open) => match open.transport.open(bytes) {
                Err(e) => self.reject(e.into()),
                Ok(plain) => {
                    link.last_rx = now;
                    match Envelope::decode(&plain) {
                        Ok(env) => self.on_envelope(env),
                        Err(e) => {
                            self.reject(e.into());
                            self.push_ctrl(Body::Error {
                                code: ErrorCode::MALFORMED,
                            });
                        }
                    }
                }
            },
        }
    }

    /// The next frame to send on the current link, if any. Stream drivers add the length
    /// prefix with [`frame::encode_frame`](crate::frame::encode_frame).
    pub fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        if self.out.is_empty() {
            self.fill_out();
        }
        self.out.pop_front()
    }

    /// The next event, if any.
    pub fn poll_event(&mut self) -> Option<Event<G::Move>> {
        self.events.pop_front()
    }

    /// When [`Session::handle_timeout`] should be called next, if ever.
    pub fn poll_timeout(&self) -> Option<u64> {
        if self.closed.is_some() {
            return None;
        }
        let t = &self.config.timing;
        let mut best: Option<u64> = None;
        let mut consider = |d: Option<u64>| {
            if let Some(d) = d {
                best = Some(best.map_or(d, |b| b.min(d)));
            }
        };
        if let Some(link) = &self.link {
            match link.open() {
                Some(open) if open.up => {
                    consider(Some(link.last_rx + t.dead_peer_ms));
                    consider(Some(link.last_tx + t.keepalive_ms));
                    consider(self.reliable.deadline());
                }
                Some(open) => {
                    consider(Some(link.started + t.handshake_timeout_ms));
                    consider(Some(open.resume_due));
                }
                None => consider(Some(link.started + t.handshake_timeout_ms)),
            }
        }
        consider(self.current.as_ref().and_then(MatchState::flag_deadline));
        best
    }

    /// Runs the timers due at `now`: retransmission, keepalive, dead-peer and handshake
    /// timeouts, and our own clock flag.
    pub fn handle_timeout(&mut self, now: u64) {
        self.now = now;
        if self.closed.is_some() {
            return;
        }
        let t = self.config.timing;
        if let Some(link) = &mut self.link {
            let since_start = now.saturating_sub(link.started);
            let mut down = None;
            let mut resume = false;
            let mut ping = false;
            match &mut link.phase {
                Phase::Handshake(_) => {
                    if since_start >= t.handshake_timeout_ms {
                        down = Some(LinkDownReason::HandshakeTimeout);
                    }
                }
                Phase::Open(open) if !open.up => {
                    if since_start >= t.handshake_timeout_ms {
                        down = Some(LinkDownReason::HandshakeTimeout);
                    } else if now >= open.resume_due {
                        open.resume_due = now + t.rto_ms;
                        resume = true;
                    }
                }
                Phase::Open(_) => {
                    if now >= link.last_rx + t.dead_peer_ms {
                        down = Some(LinkDownReason::PeerSilent);
                    } else {
                        self.reliable.on_timeout(now);
                        ping = now >= link.last_tx + t.keepalive_ms;
                    }
                }
            }
            if let Some(reason) = down {
                self.link_down(reason);
            } else if resume {
                self.send_resume();
            } else if ping {
                self.push_ctrl(Body::Ping);
            }
        }
        if let Some(m) = &mut self.current {
            let mut send = Vec::new();
            m.check_flag(now, &mut send, &mut self.events);
            self.send_all(send);
        }
    }

    // ----- pairing -----------------------------------------------------------------------

    /// The player confirmed that both phones show the same code. With `remember`, the
    /// peer's key is added to [`Session::known_peers`] so later sessions skip the code.
    pub fn confirm_peer(&mut self, remember: bool) -> Result<(), ActionError> {
        self.ensure_open()?;
        let peer = self.peer.as_mut().ok_or(ActionError::NothingToConfirm)?;
        if peer.verified {
            return Err(ActionError::NothingToConfirm);
        }
        peer.verified = true;
        let (name, key) = (peer.name.clone(), peer.key);
        if remember {
            self.config.known_peers.insert(&name, key);
        }
        self.events.push_back(Event::PeerVerified {
            name,
            key,
            known: false,
        });
        self.drain_inbox();
        Ok(())
    }

    /// The player saw different codes: someone may be in the middle. Says goodbye and
    /// closes the session.
    pub fn reject_peer(&mut self) {
        self.close_with(CloseReason::CodeMismatch);
    }

    /// Ends the session (sends `Bye` if a link is up).
    pub fn close(&mut self, now: u64) {
        self.now = now;
        self.close_with(CloseReason::Local);
    }

    fn close_with(&mut self, reason: CloseReason) {
        if self.closed.is_some() {
            return;
        }
        if self.is_link_up() {
            // Whatever is queued (a last move, an acknowledgement) still goes out before
            // the farewell: closing right after playing must not swallow the move.
            self.fill_out();
            self.seal(Body::Bye, None);
        }
        self.closed = Some(reason.clone());
        self.link = None;
        self.events.push_back(Event::Closed { reason });
    }

    // ----- match actions -----------------------------------------------------------------

    /// Proposes a game. `spec.game` must be the game of this session and `spec.rules` an
    /// index into [`SessionConfig::rules`].
    pub fn propose(&mut self, spec: MatchSpec, now: u64) -> Result<(), ActionError> {
        self.ready(now)?;
        if self.current.as_ref().is_some_and(|m| m.outcome().is_none()) {
            return Err(ActionError::GameRunning);
        }
        if self.proposal.is_some() {
            return Err(ActionError::Pending);
        }
        if spec.game != self.config.start.kind()
            || usize::from(spec.rules) >= self.config.rules.len()
        {
            return Err(ActionError::Unsupported);
        }
        let p = Propose {
            game: game_code(spec.game),
            rules: spec.rules,
            color: spec.local_color,
            clock: spec.clock,
        };
        self.proposal = Some(Proposal::Ours(p));
        self.send_all(vec![Body::Propose(p)]);
        Ok(())
    }

    /// Accepts the peer's proposal; the game starts.
    pub fn accept_proposal(&mut self, now: u64) -> Result<(), ActionError> {
        self.ready(now)?;
        let Some(Proposal::Theirs(p)) = self.proposal else {
            return Err(ActionError::NothingToAnswer);
        };
        self.proposal = None;
        self.send_all(vec![Body::Accept]);
        self.start_match(p, false);
        Ok(())
    }

    /// Declines the peer's proposal.
    pub fn decline_proposal(&mut self, now: u64) -> Result<(), ActionError> {
        self.ready(now)?;
        let Some(Proposal::Theirs(_)) = self.proposal else {
            return Err(ActionError::NothingToAnswer);
        };
        self.proposal = None;
        self.send_all(vec![Body::Decline {
            reason: DeclineReason::DECLINED,
        }]);
        Ok(())
    }

    /// Plays a local move after checking it with the rules engine.
    pub fn play(&mut self, mv: G::Move, now: u64) -> Result<(), ActionError> {
        self.with_match(now, |m, send, ev| m.play_local(mv, now, send, ev))
    }

    /// Asks the peer to take back our last move.
    pub fn request_undo(&mut self, now: u64) -> Result<(), ActionError> {
        self.with_match(now, |m, send, _| m.request_undo(send))
    }

    /// Answers the peer's undo request.
    pub fn reply_undo(&mut self, accept: bool, now: u64) -> Result<(), ActionError> {
        self.with_match(now, |m, send, ev| m.reply_undo(accept, now, send, ev))
    }

    /// Offers a draw.
    pub fn offer_draw(&mut self, now: u64) -> Result<(), ActionError> {
        self.with_match(now, |m, send, _| m.offer_draw(send))
    }

    /// Answers the peer's draw offer.
    pub fn reply_draw(&mut self, accept: bool, now: u64) -> Result<(), ActionError> {
        self.with_match(now, |m, send, ev| m.reply_draw(accept, send, ev))
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
        self.ready(now)?;
        let m = self.current.as_mut().ok_or(ActionError::NoGame)?;
        let mut send = Vec::new();
        let result = f(m, &mut send, &mut self.events);
        self.send_all(send);
        result
    }

    fn ensure_open(&self) -> Result<(), ActionError> {
        if self.closed.is_some() {
            Err(ActionError::Closed)
        } else {
            Ok(())
        }
    }

    fn ready(&mut self, now: u64) -> Result<(), ActionError> {
        self.now = now;
        self.ensure_open()?;
        if !self.peer.as_ref().is_some_and(|p| p.verified) {
            return Err(ActionError::NotVerified);
        }
        if !self.reliable.has_room(3) {
            return Err(ActionError::QueueFull);
        }
        Ok(())
    }

    // ----- accessors ---------------------------------------------------------------------

    /// The start position of every game of this session.
    pub fn start_position(&self) -> &G {
        &self.config.start
    }

    /// The current (or last) game's position.
    pub fn game(&self) -> Option<&G> {
        self.current.as_ref().map(MatchState::game)
    }

    /// Number of moves in the current game's position.
    pub fn ply(&self) -> Option<u32> {
        self.current.as_ref().map(MatchState::ply)
    }

    /// The moves of the current game, from its start position to the position shown.
    pub fn moves(&self) -> Option<&[G::Move]> {
        self.current.as_ref().map(MatchState::moves)
    }

    /// How the current game ended, if it did.
    pub fn outcome(&self) -> Option<Outcome> {
        self.current.as_ref().and_then(MatchState::outcome)
    }

    /// The current game, seen from the local side.
    pub fn match_spec(&self) -> Option<MatchSpec> {
        self.current.as_ref().map(|m| m.spec)
    }

    /// Remaining time in milliseconds of `[red, black]` at `now`, for timed games.
    pub fn clocks(&self, now: u64) -> Option<[u64; 2]> {
        self.current.as_ref().and_then(|m| m.clocks(now))
    }

    /// The peer, once a link was set up.
    pub fn peer(&self) -> Option<&PeerInfo> {
        self.peer.as_ref()
    }

    /// The code of the current link, once known.
    pub fn link_code(&self) -> Option<Sas> {
        self.link.as_ref().and_then(Link::open).and_then(|o| o.sas)
    }

    /// Remembered peers, including any added by [`Session::confirm_peer`]; export them with
    /// [`KnownPeers::export`].
    pub fn known_peers(&self) -> &KnownPeers {
        &self.config.known_peers
    }

    /// The local static key.
    pub fn local_key(&self) -> PublicKey {
        self.identity.public()
    }

    /// The session identifier (from the first link).
    pub fn session_id(&self) -> Option<[u8; 8]> {
        self.session_id
    }

    /// Counters.
    pub fn stats(&self) -> Stats {
        Stats {
            retransmissions: self.reliable.retransmissions,
            ..self.stats
        }
    }

    /// Sequenced messages not yet acknowledged by the peer.
    pub fn unacked(&self) -> usize {
        self.reliable.unacked()
    }

    /// True once the session is closed.
    pub fn is_closed(&self) -> bool {
        self.closed.is_some()
    }

    // ----- internals: output -------------------------------------------------------------

    fn send_all(&mut self, bodies: Vec<Body>) {
        for b in bodies {
            if b.is_sequenced() {
                // Dropped only when a peer floods requests without acknowledging anything.
                let _ = self.reliable.push(b);
            } else {
                self.push_ctrl(b);
            }
        }
    }

    fn push_ctrl(&mut self, body: Body) {
        if self.ctrl.len() < CTRL_MAX {
            self.ctrl.push_back(body);
        }
    }

    fn push_frame(&mut self, frame: Vec<u8>) {
        self.stats.frames_sent += 1;
        if let Some(link) = &mut self.link {
            link.last_tx = self.now;
        }
        self.out.push_back(frame);
    }

    /// Encrypts one envelope onto the output queue.
    fn seal(&mut self, body: Body, seq: Option<u8>) {
        let env = Envelope::new(
            seq.unwrap_or_else(|| self.reliable.seq_nibble()),
            self.reliable.ack_nibble(),
            body,
        );
        let Some(Link {
            phase: Phase::Open(open),
            ..
        }) = &mut self.link
        else {
            return;
        };
        match open.transport.seal(&env.encode()) {
            Ok(frame) => {
                self.reliable.ack_pending = false;
                self.push_frame(frame);
            }
            Err(_) => self.link_down(LinkDownReason::Violation("nonces exhausted")),
        }
    }

    fn fill_out(&mut self) {
        let now = self.now;
        let Some(link) = &self.link else { return };
        if link.open().is_none() {
            return;
        }
        let up = link.is_up();
        while let Some(body) = self.ctrl.pop_front() {
            self.seal(body, None);
        }
        if up {
            while let Some((seq, body)) = self.reliable.next_to_send(now) {
                self.seal(body, Some(seq));
            }
            if self.reliable.ack_pending {
                self.seal(Body::Ack, None);
            }
        }
    }

    fn reject(&mut self, reason: Rejection) {
        self.stats.frames_rejected += 1;
        if self.events.len() < REJECTION_EVENTS_MAX {
            self.events.push_back(Event::FrameRejected { reason });
        }
    }
}

fn session_from_hash(h: &[u8; 32]) -> [u8; 8] {
    let mut id = [0u8; 8];
    id.copy_from_slice(&h[..8]);
    id
}

fn spec_of(p: Propose, ours: bool) -> MatchSpec {
    MatchSpec {
        game: game_from_code(p.game).unwrap_or(banco_game::GameKind::Xiangqi),
        rules: p.rules,
        local_color: if ours { p.color } else { p.color.other() },
        clock: p.clock,
    }
}
