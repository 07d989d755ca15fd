//! The Lines race: two players on identical boards, moving at the same time.
//!
//! Both boards start from one seed that neither side chose alone ([`seed`](crate::seed):
//! each side commits to a random value in its per-game parameters, then reveals it), so both
//! see the same spawns in the same order, on the same cells ([`RaceOptions::spawn`]: in
//! a race between two builds that know it, each ball's cell is drawn when it is announced,
//! as in a game alone; with an older peer, when it lands, as that peer's build does) — and,
//! in a race with Lines 98's preview, the same shown spots ([`RaceOptions::preview`]). Each side plays its own board and sends every move
//! as a [`Body::RaceMove`] on the exactly-once stream; the other side replays it on a
//! replica of the sender's board (a [`LinesGame`] from the same seed), so an impossible
//! move is caught and the sender's score is computed, never claimed. The race ends when
//! both boards are full, when a player resigns, or when the agreed time limit has passed on
//! both sides ([`Body::RaceStop`]); the higher score wins, equal scores draw. Every race
//! has a time limit ([`RaceOptions::time_limit_s`]), so a player who stops moving cannot
//! keep the other from a result; a player who leaves before the end, or whose app comes back
//! without the race (killed and started again), has resigned ([`Race::on_peer_gone`]). A cheater
//! (impossible move, changed seed, a stop that does not match its moves) loses at once
//! ([`RaceEnd::Cheated`]).
//!
//! ## Wire
//!
//! * `Propose { game: lines, rules: 0, color, clock: None, fen: None, params }` with
//!   `params` = seed commitment (33 bytes) ‖ [`RaceOptions`] (3 bytes; a flags byte
//!   follows when a flag is set: [`RACE_FLAG_PREVIEW`], [`RACE_FLAG_SPOTS`]): 44 bytes in
//!   an envelope (45 with a flags byte).
//!   `Accept { params }` = the other side's seed commitment: 36 bytes.
//! * [`Body::SeedReveal`] (tag 22), sent by each side once it holds the peer's commitment
//!   (the proposer on `Accept`, the acceptor right after accepting): 34 bytes.
//! * [`Body::RaceMove`] (tag 23) `{ turn, from, to }`: 6 bytes while `turn < 16384`.
//! * [`Body::RaceStop`] (tag 24) `{ turns }`: the sender's time is up after `turns` moves.
//! * [`Body::RaceCut`] (tag 25) `{ turns }`: the sender's grace period ran out without the
//!   receiver's stop, so it counted the receiver's board after `turns` moves (see Time).
//! * `Resign { ply }` (tag 9) with the sender's turn count: the sender resigns and loses.
//!   The other side stops at once and answers with its `RaceStop`, so both sides end with
//!   the same two boards (the resigner applies the moves that crossed its resignation).
//!
//! ## Time
//!
//! Time is passed in (`now`, milliseconds). Each side starts its clock when it learns the
//! seed and stops playing `time_limit_s` seconds later; it then sends `RaceStop`. The peer's
//! clock is taken to have started when its acknowledgement of our reveal, or its first
//! move, arrived (see `race/due.rs`), so an outage at the start that holds up one side's
//! seed holds up its limit, its stop and the other side's cut of it alike. A peer
//! whose stop has not arrived [`RACE_GRACE_MS`] after its limit is taken as stopped
//! where it is (its later moves are ignored), and we send it a [`Body::RaceCut`] with the
//! moves we counted. A side that receives a cut counts its own board there too (its moves
//! the peer never saw are dropped; once its own time is up, so a cut cannot end a side's
//! race early), and revises its result if it had already ended the race. So when the link
//! is down past the grace period on both sides, each side first ends the race on what it
//! has, and once the link is back (the cuts are on the exactly-once stream) both sides hold
//! the same boards: each board counted at the lower of its own stop and the other side's
//! cut — and the same result. A cut from a peer that had acknowledged more of our moves
//! than it counts, or our stop, before it sent the cut — and before an honest cut could
//! exist — was not cut off: it is a cheat ([`RaceFault::CutAfterReceipt`], see
//! `receipts`), and a result already reached stands. If the link never comes back the two
//! results may differ: no protocol can agree without messages.
//!
//! Before that, a peer's move must arrive by its limit plus [`RACE_LATE_MS`] and the time
//! the link was down, or it is caught ([`RaceFault::MoveAfterTimeUp`]); a move after its own
//! stop is caught too ([`RaceFault::MoveAfterStop`]). The session reports every frame
//! heard from the peer ([`Race::heard`]) so the race can tell an outage from a peer that
//! plays on: see `race/due.rs` for the rules and their limits.
//!
//! ## A seed that does not come
//!
//! The peer's seed reveal must arrive [`RACE_REVEAL_MS`] and [`RACE_LATE_MS`] after the
//! race was agreed (plus the outages then, up to [`RACE_GRACE_MS`] in all). When it does
//! not, the waiting side calls the race off: it ends without a result ([`RaceEnd::NoSeed`]:
//! no winner, no board counted), so that a new race can be proposed, and tells the other
//! side with [`Body::Abort`] ([`AbortReason::NO_SEED`]) on the exactly-once stream. The
//! other side, which may have had the seed and raced alone meanwhile, ends the same way
//! when the abort arrives ([`Race::on_abort`]), even after it ended the race on its cut of
//! the silent board: both sides keep one result.
//!
//! * **Why a void, not a win.** Nothing tells a link that held the reveal up from a peer
//!   that walked away with it, and an honest player with a bad link should not lose a race
//!   it never saw start. The one who walked away gains what a player gains elsewhere by
//!   aborting a game before its first move.
//! * **Which aborts count.** An honest side calls off only while it does not know the
//!   seed, so an abort from a peer whose moves we replayed is ignored. An abort counts only
//!   while an honest one can still arrive: by the longest wait plus [`RACE_LATE_MS`] and
//!   the silences of the link that may have held it up, and no later than
//!   [`RACE_LATE_MS`] after the peer acknowledged our reveal (an honest abort is queued
//!   before that acknowledgement). It counts only for its own race: once a new proposal or
//!   acceptance came from the peer, it is dropped (an honest one comes before them, on the
//!   ordered stream), and a `NO_SEED` abort never reaches a board game.
//! * **A reveal after the wait.** One that arrives after the wait ran out, before our timer
//!   ran (an app asleep), finds the race called off, as it would have been.
//! * **Limits.** An outage only delays the abort, but an app closed for good before the link
//!   came back (or a `banco` that exits) never sends it: the other side keeps the result
//!   it reached alone. A peer that does not announce
//!   [`CAP_LINES_NO_SEED`](crate::message::CAP_LINES_NO_SEED) (an older build) is neither
//!   sent an abort nor sends one: the side that had the seed races alone and wins on its
//!   cut, while the other has called the race off. A modified client that learns the seed,
//!   acknowledges nothing and falls silent can play offline, then choose between sending
//!   its moves (believed as held up by an outage, up to the grace period, as `due`
//!   describes) and the abort (a void); one that acknowledges our reveal has
//!   [`RACE_LATE_MS`] to choose.
//!
//! ```
//! use banco_game::Color;
//! use banco_protocol::race::{Race, RaceEvent, RaceOptions};
//! use banco_protocol::seed::SeedShare;
//!
//! let options = RaceOptions { start_balls: 5, time_limit_s: 600, ..RaceOptions::default() };
//! let session = [7; 8];
//! let red = SeedShare::new([1; 32], session, Color::Red);
//! let black = SeedShare::new([2; 32], session, Color::Black);
//! let mut a = Race::new(Color::Red, options, red.clone(), black.commitment().to_vec());
//! let mut b = Race::new(Color::Black, options, black.clone(), red.commitment().to_vec());
//! let mut events = Vec::new();
//! a.on_reveal(black.value(), 0, &mut events);
//! b.on_reveal(red.value(), 0, &mut events);
//! // Same seed, same board.
//! assert_eq!(a.board(Color::Red).map(|g| *g.board()), b.board(Color::Red).map(|g| *g.board()));
//! let (from, to) = a.board(Color::Red).and_then(|g| g.any_move()).unwrap();
//! let mut send = Vec::new();
//! a.play(from, to, 10, &mut send, &mut events)?;
//! // B replays the move on its replica of A's board.
//! if let Some(banco_protocol::message::Body::RaceMove { turn, from, to }) = send.pop() {
//!     b.on_move(turn, from, to, 20, &mut events);
//! }
//! assert!(matches!(events.last(), Some(RaceEvent::OpponentMoved { turn: 0, .. })));
//! assert_eq!(a.board(Color::Red), b.board(Color::Red));
//! # Ok::<(), banco_protocol::race::RaceError>(())
//! ```

mod due;
mod options;
mod receipts;

pub use due::{RACE_LATE_MS, RACE_QUIET_MS, RACE_REVEAL_MS};
pub use options::{
    RACE_FLAG_PREVIEW, RACE_FLAG_SPOTS, RACE_OPTIONS_LEN, RaceOptions, RaceParamsError,
    check_accept_params, limit_text, parse_proposal_params, proposal_params,
};

use crate::message::{AbortReason, Body};
use crate::seed::{SeedError, SeedShare};
use banco_game::{Color, ScoreGame};
use banco_lines::{Cell, LinesGame, MoveError, TurnReport};

/// How long after our own time limit we wait for the peer's [`Body::RaceStop`] before
/// taking its board as final where it is (two minutes: a link cut and resume fit in it).
pub const RACE_GRACE_MS: u64 = 120_000;

/// How a peer broke the race rules (it loses).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RaceFault {
    /// Its revealed value is not the one it committed to, or it committed to nothing valid.
    #[error("{0}")]
    Seed(SeedError),
    /// A move that is impossible on its board (the board both sides hold).
    #[error("the other player's move {turn} ({from} to {to}) is impossible on its board: {why}")]
    ImpossibleMove {
        /// The turn (0 = first).
        turn: u32,
        /// The start cell index sent.
        from: u8,
        /// The destination cell index sent.
        to: u8,
        /// Why it is impossible.
        why: String,
    },
    /// A move numbered out of order.
    #[error("the other player's move is numbered {got}, expected {expected}")]
    WrongTurn {
        /// The turn number we expected.
        expected: u32,
        /// The turn number sent.
        got: u32,
    },
    /// A move or stop before its seed value.
    #[error("the other player moved before revealing its part of the seed")]
    MoveBeforeSeed,
    /// A move after its own [`Body::RaceStop`], its resignation or its full board.
    #[error("the other player moved after it had stopped")]
    MoveAfterStop,
    /// A move that arrived after its time was up, later than [`RACE_LATE_MS`] after its time
    /// limit (plus the time the link was down): it kept playing instead of stopping.
    #[error(
        "the other player kept moving after the time was up: its move {turn} came {late_s} s after its time limit"
    )]
    MoveAfterTimeUp {
        /// The turn of the late move (0 = first).
        turn: u32,
        /// How many seconds after the peer's time limit it arrived.
        late_s: u64,
    },
    /// A stop whose move count is not the number of moves it sent.
    #[error("the other player stopped claiming {claimed} moves but sent {played}")]
    BadStop {
        /// The count it claimed.
        claimed: u32,
        /// The moves we received.
        played: u32,
    },
    /// A cut counting more of our moves than we played, or a cut in a race without a
    /// time limit.
    #[error("the other player counted {claimed} of your moves, but you played {played}")]
    BadCut {
        /// The count it claimed.
        claimed: u32,
        /// The moves we played.
        played: u32,
    },
    /// A cut counting fewer of our moves than the peer had acknowledged receiving, or
    /// sent after it had acknowledged our stop: the peer was not cut off from us (an
    /// attempt to erase moves it had seen, or our score after the race).
    #[error(
        "the other player counted {claimed} of your moves after it had received {received}{}",
        if *stop { " and your stop" } else { "" }
    )]
    CutAfterReceipt {
        /// The count it claimed.
        claimed: u32,
        /// Our moves it had acknowledged.
        received: u32,
        /// It had acknowledged our stop.
        stop: bool,
    },
    /// A cut long before the peer could have made one: it counts our board only when its
    /// wait for our stop ran out, [`RACE_GRACE_MS`] after our time limit as it measures it
    /// (from its acknowledgement of our reveal: no sooner than ours, see `race/due.rs`). An
    /// early "cut" would only erase moves it had seen.
    #[error(
        "the other player counted your board {early_s} s before it could have (to erase your moves)"
    )]
    EarlyCut {
        /// How many seconds before the earliest honest cut it came.
        early_s: u64,
    },
}

/// How much sooner than [`RACE_GRACE_MS`] after our limit a peer's cut may come: earlier, it
/// is a cheat ([`RaceFault::EarlyCut`]). An honest peer takes our clock as starting when
/// our acknowledgement of its reveal arrived, a message after our start (see
/// `race/due.rs`), so its cut comes no sooner than that; the tolerance covers an older
/// build, which took our clock as starting with its own or at its acceptance, and a start
/// beyond the bounds `race/due.rs` puts on it.
pub const CUT_TOLERANCE_MS: u64 = RACE_GRACE_MS / 2;

/// The earliest an honest peer's cut can come, our time limit being `limit`: sooner, it
/// is a cheat ([`RaceFault::EarlyCut`]), and the peer's acknowledgements from then on prove
/// no receipt (see `receipts`).
const fn earliest_cut(limit: u64) -> u64 {
    (limit + RACE_GRACE_MS).saturating_sub(CUT_TOLERANCE_MS)
}

/// How a race ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RaceEnd {
    /// Both boards full, or the time limit passed: the higher score wins.
    Finished,
    /// This colour resigned (and lost).
    Resigned(Color),
    /// Both players resigned, their resignations crossing on the wire: a draw, whatever
    /// the scores (each side saw the other's resignation after its own).
    BothResigned,
    /// This colour broke the rules (and lost).
    Cheated(Color, RaceFault),
    /// The race never started on one side: a part of the seed did not arrive in time
    /// ([`RACE_REVEAL_MS`] and [`RACE_LATE_MS`] after the agreement, plus the outages then,
    /// up to [`RACE_GRACE_MS`]). Called off without a winner and counting no board (scores
    /// and turns 0, whatever was played alone meanwhile): by the side that waited, and by
    /// the other when its abort arrives — on both sides once the link carries it, unless
    /// the peer is an older build (see the module docs, "A seed that does not come").
    NoSeed,
}

/// The end of a race, the same on both sides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaceResult {
    /// Scores by colour index (Red first), each computed from the moves.
    pub scores: [u32; 2],
    /// Turns played by colour index.
    pub turns: [u32; 2],
    /// The winner; `None` for a draw (equal scores, or both resigned) and for a race called
    /// off ([`RaceEnd::NoSeed`]).
    pub winner: Option<Color>,
    /// Why it ended.
    pub end: RaceEnd,
}

/// What a race reports to the application (inside [`Event::Race`](crate::Event::Race)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RaceEvent {
    /// The seed is agreed: both boards are set up and the clock runs.
    Started {
        /// The agreed options.
        options: RaceOptions,
    },
    /// The opponent played a move (validated on our replica of its board).
    OpponentMoved {
        /// Its turn number (0 = first).
        turn: u32,
        /// Its score now.
        score: u32,
        /// Balls on its board now.
        balls: u32,
    },
    /// Our own time is up: we can no longer move (the race ends when the peer's is too).
    TimeUp,
    /// The race is over.
    Over(RaceResult),
}

/// Why a local race action was refused (nothing changed).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RaceError {
    /// No race was proposed and accepted in this match.
    #[error("no race is on: propose one, or accept the other player's")]
    NoRace,
    /// The race was accepted but its seed is not agreed yet.
    #[error("the race has not started yet (waiting for the other player's seed)")]
    NotStarted,
    /// The race is over.
    #[error("the race is over")]
    Over,
    /// Our time or board is done.
    #[error("your race is done (time up or board full)")]
    Done,
    /// A resignation once our board is final (full, or our time up): the peer may already
    /// have ended the race on it, so it is refused; leaving the match forfeits the race
    /// instead ([`Race::on_peer_gone`] on the peer's side).
    #[error(
        "your board is final: the race ends when the other player's is (its board full or its time up); leaving now forfeits the race"
    )]
    Final,
    /// The move is not legal on our board.
    #[error("{0}")]
    Move(#[from] MoveError),
    /// The session cannot send now (closed, peer not confirmed, queue full).
    #[error("{0}")]
    Session(#[from] crate::session::event::ActionError),
}

/// One side's race (see the module docs): both boards, indexed by colour.
#[derive(Clone, Debug)]
pub struct Race {
    me: Color,
    options: RaceOptions,
    share: SeedShare,
    peer_params: Vec<u8>,
    boards: Option<[LinesGame; 2]>,
    started_at: u64,
    /// When we accepted (the acceptor): the proposer learns the seed from our acceptance,
    /// so until it acknowledges our reveal its time counts from then.
    accepted_at: Option<u64>,
    /// When the peer's time began, by our clock, as the acknowledgement of our reveal
    /// shows it (see `due`); `None` until it arrives.
    peer_start: Option<u64>,
    done: [bool; 2],
    /// Who resigned, by colour index: one side, [`RaceEnd::Resigned`]; both (the
    /// resignations crossed), [`RaceEnd::BothResigned`] ([`Race::check_end`]).
    resigned: [bool; 2],
    result: Option<RaceResult>,
    /// The peer's cut of our board, applied once our own time is up.
    peer_cut: Option<u32>,
    /// True once we took the peer as stopped ([`RACE_GRACE_MS`], sending a cut): its moves
    /// still on the way are dropped, not held against it.
    cut_peer: bool,
    /// What this side knows of the link (see [`due`]).
    link: due::LinkWatch,
    /// What the peer acknowledged of our moves and stop (see [`receipts`]).
    receipts: receipts::Receipts,
}

impl Race {
    /// The race of `me` with `options`, our seed share and the peer's parameters
    /// (starting with its commitment).
    pub fn new(me: Color, options: RaceOptions, share: SeedShare, peer_params: Vec<u8>) -> Race {
        Race {
            me,
            options,
            share,
            peer_params,
            boards: None,
            started_at: 0,
            accepted_at: None,
            peer_start: None,
            done: [false; 2],
            resigned: [false; 2],
            result: None,
            peer_cut: None,
            cut_peer: false,
            link: due::LinkWatch::default(),
            receipts: receipts::Receipts::default(),
        }
    }

    /// We accepted the race at `now` (our value goes with the acceptance): from then the
    /// proposer can know the seed, so its time is counted from then until its
    /// acknowledgement of our value shows when it had it (see `due`). A proposer that
    /// holds its reveal back to plan with the spawns known spends its own time doing so:
    /// its transport acknowledged our value on arrival (a modified client that holds the
    /// acknowledgement back too gains the bounded time `due` describes).
    pub fn accepted(&mut self, now: u64) {
        self.accepted_at = Some(now);
        self.link.agreed(now);
    }

    /// The message revealing our value (send once the peer's commitment is in).
    pub fn reveal(&self) -> Body {
        Body::SeedReveal {
            value: self.share.value(),
        }
    }

    /// Our colour.
    pub fn me(&self) -> Color {
        self.me
    }

    /// The agreed options.
    pub fn options(&self) -> RaceOptions {
        self.options
    }

    /// The board of `color` (ours, or our replica of the peer's), once the seed is agreed.
    pub fn board(&self, color: Color) -> Option<&LinesGame> {
        self.boards.as_ref().map(|b| &b[color.index()])
    }

    /// The result, once over.
    pub fn result(&self) -> Option<&RaceResult> {
        self.result.as_ref()
    }

    /// True once the seed is agreed.
    pub fn is_started(&self) -> bool {
        self.boards.is_some()
    }

    /// True if `color` can play no more (board full, time up or over).
    pub fn is_done(&self, color: Color) -> bool {
        self.result.is_some() || self.done[color.index()]
    }

    fn limit_at(&self) -> Option<u64> {
        self.limit_from(self.started_at)
    }

    /// The peer's time limit by our clock: its start (see [`Race::peer_started_at`]) plus
    /// the time limit.
    fn peer_limit_at(&self) -> Option<u64> {
        self.limit_from(self.peer_started_at())
    }

    /// The time limit of a side whose time began at `start` (`None`: no limit).
    fn limit_from(&self, start: u64) -> Option<u64> {
        (self.options.time_limit_s > 0)
            .then(|| start.saturating_add(u64::from(self.options.time_limit_s) * 1000))
    }

    /// Milliseconds of our time left at `now` (`None`: no limit or not started).
    pub fn time_left(&self, now: u64) -> Option<u64> {
        self.boards.as_ref()?;
        self.limit_at().map(|t| t.saturating_sub(now))
    }

    /// When [`Race::tick`] should run next.
    pub fn deadline(&self) -> Option<u64> {
        if self.result.is_some() {
            return None;
        }
        if self.boards.is_none() {
            return self.reveal_due();
        }
        let limit = self.limit_at()?;
        let peer_cut = self.peer_cut_at()?;
        let mine = (!self.done[self.me.index()]).then_some(limit);
        let peers = (!self.done[self.me.other().index()]).then_some(peer_cut);
        mine.into_iter().chain(peers).min()
    }

    /// The peer revealed its value: check it against its commitment and set up both
    /// boards; a changed value ends the race (the peer cheated).
    pub fn on_reveal(&mut self, value: [u8; 32], now: u64, events: &mut Vec<RaceEvent>) {
        if self.boards.is_some() || self.result.is_some() {
            return;
        }
        match self.share.combine(&self.peer_params, value) {
            Err(e) => self.cheated(self.me.other(), RaceFault::Seed(e), events),
            Ok(seed) => {
                let s = self.options.settings();
                self.boards = Some([LinesGame::new(s, seed), LinesGame::new(s, seed)]);
                self.started_at = now;
                events.push(RaceEvent::Started {
                    options: self.options,
                });
            }
        }
    }

    /// Plays our move on our board and queues it for the peer.
    pub fn play(
        &mut self,
        from: Cell,
        to: Cell,
        now: u64,
        send: &mut Vec<Body>,
        events: &mut Vec<RaceEvent>,
    ) -> Result<TurnReport, RaceError> {
        if self.result.is_some() {
            return Err(RaceError::Over);
        }
        let me = self.me.index();
        if self.done[me] || self.limit_at().is_some_and(|t| now >= t) {
            return Err(RaceError::Done);
        }
        let board = match &mut self.boards {
            Some(b) => &mut b[me],
            None => return Err(RaceError::NotStarted),
        };
        let turn = board.turns();
        let report = board.play_move(from, to)?;
        send.push(Body::RaceMove {
            turn,
            from: u8::from(from),
            to: u8::from(to),
        });
        if report.game_over {
            self.done[me] = true;
            self.apply_cut();
            self.check_end(events);
        }
        Ok(report)
    }

    /// We resign (and lose). The race is over once the peer's stop arrives (its moves
    /// that crossed the resignation still count on its board). Only while we can still
    /// move: once our time is up or our board is full our board is final and the peer may
    /// already have ended the race on it, so a late resignation is refused
    /// ([`RaceError::Final`]) rather than judged differently on the two sides: leaving
    /// the match then forfeits the race ([`Race::on_peer_gone`]).
    pub fn resign(
        &mut self,
        send: &mut Vec<Body>,
        events: &mut Vec<RaceEvent>,
    ) -> Result<(), RaceError> {
        if self.result.is_some() {
            return Err(RaceError::Over);
        }
        if self.resigned.contains(&true) {
            return Err(RaceError::Done);
        }
        if self.done[self.me.index()] {
            return Err(RaceError::Final);
        }
        let turns = self.board(self.me).map_or(0, ScoreGame::turns);
        send.push(Body::Resign { ply: turns });
        self.resigned[self.me.index()] = true;
        self.done[self.me.index()] = true;
        self.check_end(events);
        Ok(())
    }

    /// The peer resigned after `turns` moves: we stop too (queuing our count). If we had
    /// resigned too (the two resignations crossed), the race is drawn on both sides
    /// ([`RaceEnd::BothResigned`]).
    ///
    /// A resignation that arrives after we ended the race on our cut of the peer's board
    /// ([`Race::takes_late_resign`]: the link was down past the grace period, and the peer
    /// resigned before its time was up) revises our result to its resignation, as the
    /// resigner's side ends it: the resigner loses on both sides — or, if we had resigned
    /// too, the two resignations crossed and the race is drawn, as without the outage.
    pub fn on_resign(&mut self, turns: u32, send: &mut Vec<Body>, events: &mut Vec<RaceEvent>) {
        let peer = self.me.other();
        let played = self.board(peer).map_or(0, ScoreGame::turns);
        if self.takes_late_resign() {
            // Its board stays counted at our cut (the resigner counts it there too, on our
            // cut); a resignation claiming fewer moves than we counted is no honest one.
            if turns >= played {
                self.result = None;
                self.resigned[peer.index()] = true;
                self.check_end(events);
            }
            return;
        }
        if self.result.is_some() || self.resigned[peer.index()] {
            return;
        }
        if turns != played && !self.done[peer.index()] {
            return self.cheated(
                peer,
                RaceFault::BadStop {
                    claimed: turns,
                    played,
                },
                events,
            );
        }
        self.done[peer.index()] = true;
        self.resigned[peer.index()] = true;
        // Our stop, unless we had resigned (then the two resignations crossed: a draw).
        self.stop_me(send, events);
        self.check_end(events);
    }

    /// True when the race ended with the peer's board counted at our cut (the peer never
    /// stopped within the grace period), on time or on our own resignation, and the peer's
    /// resignation never reached us: arriving now, it still counts ([`Race::on_resign`]).
    #[must_use]
    pub fn takes_late_resign(&self) -> bool {
        self.cut_peer
            && !self.resigned[self.me.other().index()]
            && self
                .result
                .as_ref()
                .is_some_and(|r| matches!(r.end, RaceEnd::Finished | RaceEnd::Resigned(_)))
    }

    /// The peer is gone from the race for good: it left the match (its goodbye) or its
    /// app came back without it (restarted), while the race was on. That is its
    /// resignation ([`RaceEnd::Resigned`]): we win, whatever the scores and whether or not
    /// its board was full — leaving before the end forfeits a race, so neither a player
    /// behind nor an app killed and started again can void one. Nothing is sent (the peer
    /// is not there to hear it); the scores are the boards as they stand here.
    pub fn on_peer_gone(&mut self, events: &mut Vec<RaceEvent>) {
        if self.result.is_some() {
            return;
        }
        let peer = self.me.other();
        self.resigned = Color::ALL.map(|c| c == peer);
        self.done = [true, true];
        self.end(RaceEnd::Resigned(peer), Some(self.me), events);
    }

    fn stop_me(&mut self, send: &mut Vec<Body>, _events: &mut Vec<RaceEvent>) {
        let me = self.me.index();
        if !self.done[me] {
            self.done[me] = true;
            let turns = self.board(self.me).map_or(0, ScoreGame::turns);
            send.push(Body::RaceStop { turns });
        }
    }

    /// The peer's move number `turn`, arrived at `now`: replayed on our replica of its
    /// board. A move after the peer's own stop, or arriving after its time was up (see
    /// [`RACE_LATE_MS`]), is not counted and the peer loses; a move after we took it as
    /// stopped ([`RACE_GRACE_MS`]) is dropped.
    pub fn on_move(&mut self, turn: u32, from: u8, to: u8, now: u64, events: &mut Vec<RaceEvent>) {
        if self.result.is_some() {
            return;
        }
        let peer = self.me.other();
        if self.done[peer.index()] {
            if self.cut_peer {
                // Taken as stopped after the grace period: its moves still on the way are
                // dropped (our cut tells it where we counted its board).
                return;
            }
            // After its own stop, resignation or full board: no honest app sends one.
            return self.cheated(peer, RaceFault::MoveAfterStop, events);
        }
        if self.boards.is_none() {
            return self.cheated(peer, RaceFault::MoveBeforeSeed, events);
        }
        // It had our value by now (if its acknowledgement has not shown it already).
        self.peer_started_by(now);
        match self.move_time(now) {
            due::MoveTime::InTime => {}
            // The tick takes it as stopped where it is.
            due::MoveTime::CutDue => return,
            due::MoveTime::Late(late_s) => {
                return self.cheated(peer, RaceFault::MoveAfterTimeUp { turn, late_s }, events);
            }
        }
        let Some(boards) = &mut self.boards else {
            return;
        };
        let board = &mut boards[peer.index()];
        let expected = board.turns();
        if turn != expected {
            return self.cheated(
                peer,
                RaceFault::WrongTurn {
                    expected,
                    got: turn,
                },
                events,
            );
        }
        match board.play_indices(usize::from(from), usize::from(to)) {
            Err(e) => {
                let why = e.to_string();
                self.cheated(
                    peer,
                    RaceFault::ImpossibleMove {
                        turn,
                        from,
                        to,
                        why,
                    },
                    events,
                );
            }
            Ok(report) => {
                events.push(RaceEvent::OpponentMoved {
                    turn,
                    score: board.score(),
                    balls: board.board().ball_count() as u32,
                });
                if report.game_over {
                    self.done[peer.index()] = true;
                    self.check_end(events);
                }
            }
        }
    }

    /// The peer's time is up after `turns` moves.
    pub fn on_stop(&mut self, turns: u32, events: &mut Vec<RaceEvent>) {
        if self.result.is_some() {
            return;
        }
        let peer = self.me.other();
        let Some(played) = self.board(peer).map(ScoreGame::turns) else {
            return self.cheated(peer, RaceFault::MoveBeforeSeed, events);
        };
        if self.done[peer.index()] && turns >= played {
            return; // already taken as stopped (grace) or full
        }
        if turns != played {
            return self.cheated(
                peer,
                RaceFault::BadStop {
                    claimed: turns,
                    played,
                },
                events,
            );
        }
        self.done[peer.index()] = true;
        self.check_end(events);
    }

    /// Runs the time limit at `now`: stops us (queuing [`Body::RaceStop`]) and, after the
    /// grace period, the peer (queuing [`Body::RaceCut`]). Before the seed, once the wait
    /// for the peer's reveal has run out, calls the race off ([`RaceEnd::NoSeed`]) and
    /// queues [`Body::Abort`] with [`AbortReason::NO_SEED`] to tell the peer.
    pub fn tick(&mut self, now: u64, send: &mut Vec<Body>, events: &mut Vec<RaceEvent>) {
        if self.result.is_some() {
            return;
        }
        if self.boards.is_none() {
            if self.reveal_due().is_some_and(|d| now >= d) {
                self.call_off(events);
                send.push(Body::Abort {
                    reason: AbortReason::NO_SEED,
                });
            }
            return;
        }
        let Some(limit) = self.limit_at() else { return };
        let me = self.me.index();
        if !self.done[me] && now >= limit {
            self.stop_me(send, events);
            events.push(RaceEvent::TimeUp);
        }
        if now >= limit {
            self.apply_cut();
        }
        let peer = self.me.other();
        let peer_cut = self.peer_cut_at().unwrap_or(limit + RACE_GRACE_MS);
        if !self.done[peer.index()] && now >= peer_cut {
            self.done[peer.index()] = true;
            self.cut_peer = true;
            let turns = self.board(peer).map_or(0, ScoreGame::turns);
            send.push(Body::RaceCut { turns });
        }
        self.check_end(events);
    }

    /// The peer counted our board after `turns` moves (its grace period ran out before our
    /// stop arrived): we count it there too — at once if our time is up, else when it is —
    /// and revise a result we had already reached. Not when the peer had acknowledged
    /// more of our moves, or our stop, before ([`RaceFault::CutAfterReceipt`]): a cheat.
    pub fn on_cut(&mut self, turns: u32, now: u64, events: &mut Vec<RaceEvent>) {
        let peer = self.me.other();
        // A race that ended on a cheat, or was called off for want of a seed, stays ended
        // as it is: the cut changes nothing, not even its reason. One that ended on time or
        // by resignations that crossed the cut (the link was down past the grace period)
        // counts our board at the cut, as the peer counted it, and ends as it did.
        if self
            .result
            .as_ref()
            .is_some_and(|r| matches!(r.end, RaceEnd::Cheated(..) | RaceEnd::NoSeed))
        {
            return;
        }
        let Some(played) = self.board(self.me).map(ScoreGame::turns) else {
            if self.result.is_none() {
                self.cheated(peer, RaceFault::MoveBeforeSeed, events);
            }
            return;
        };
        let Some(limit) = self.limit_at() else {
            if self.result.is_none() {
                self.cheated(
                    peer,
                    RaceFault::BadCut {
                        claimed: turns,
                        played,
                    },
                    events,
                );
            }
            return;
        };
        if turns > played {
            if self.result.is_none() {
                self.cheated(
                    peer,
                    RaceFault::BadCut {
                        claimed: turns,
                        played,
                    },
                    events,
                );
            }
            return;
        }
        let (received, stop) = (self.receipts.moves_received, self.receipts.stop_received);
        if stop || turns < received {
            if self.result.is_none() {
                let fault = RaceFault::CutAfterReceipt {
                    claimed: turns,
                    received,
                    stop,
                };
                self.cheated(peer, fault, events);
            }
            return;
        }
        let earliest = earliest_cut(limit);
        if now < earliest {
            if self.result.is_none() {
                let early_s = (earliest - now).div_ceil(1000);
                self.cheated(peer, RaceFault::EarlyCut { early_s }, events);
            }
            return;
        }
        self.peer_cut = Some(turns);
        if now >= limit || self.done[self.me.index()] {
            let me = self.me.index();
            self.done[me] = true;
            if self.apply_cut() && self.result.is_some() {
                self.result = None;
            }
            self.check_end(events);
        }
    }

    /// Counts our board at the peer's cut, if one came and drops moves; true if it did.
    fn apply_cut(&mut self) -> bool {
        let Some(turns) = self.peer_cut.take() else {
            return false;
        };
        let me = self.me.index();
        let Some(boards) = &mut self.boards else {
            return false;
        };
        let board = &boards[me];
        let Some(kept) = board.moves().get(..turns as usize) else {
            return false;
        };
        if kept.len() == board.moves().len() {
            return false;
        }
        match LinesGame::replay(board.settings(), board.seed(), kept) {
            Ok(g) => {
                boards[me] = g;
                true
            }
            Err(_) => false,
        }
    }

    fn check_end(&mut self, events: &mut Vec<RaceEvent>) {
        if self.result.is_none() && self.done == [true, true] {
            let [r, b] = self.scores();
            let winner = match r.cmp(&b) {
                core::cmp::Ordering::Greater => Some(Color::Red),
                core::cmp::Ordering::Less => Some(Color::Black),
                core::cmp::Ordering::Equal => None,
            };
            match self.resigned {
                [true, true] => self.end(RaceEnd::BothResigned, None, events),
                [false, false] => self.end(RaceEnd::Finished, winner, events),
                [red, _] => {
                    let c = if red { Color::Red } else { Color::Black };
                    self.end(RaceEnd::Resigned(c), Some(c.other()), events);
                }
            }
        }
    }

    fn scores(&self) -> [u32; 2] {
        Color::ALL.map(|c| self.board(c).map_or(0, ScoreGame::score))
    }

    /// The peer called the race off ([`AbortReason::NO_SEED`]), arriving at `now`: its wait
    /// for our part of the seed ran out before our reveal reached it. We end the race as
    /// it did, without a result ([`RaceEnd::NoSeed`]) — also when we had ended it already,
    /// on our cut of its board or on resignations, so that both sides keep one result.
    ///
    /// Ignored when the peer has moved (an honest side calls the race off only while it
    /// does not know the seed), when the race ended on its cheat or is called off here
    /// already, and when it comes later than an honest one can: the longest wait for a
    /// reveal after the agreement ([`RACE_REVEAL_MS`] + [`RACE_GRACE_MS`]) plus
    /// [`RACE_LATE_MS`] and the silences of the link that may have held it up, and no
    /// later than [`RACE_LATE_MS`] after the peer acknowledged our reveal (see `due`). So
    /// a peer that had the seed and never moved can void the race only while a held-up
    /// reveal could explain it: not once it has watched the race with the link up.
    pub fn on_abort(&mut self, now: u64, events: &mut Vec<RaceEvent>) {
        let peer = self.me.other();
        let moved = self.board(peer).is_some_and(|g| g.turns() > 0);
        let kept = self
            .result
            .as_ref()
            .is_some_and(|r| matches!(r.end, RaceEnd::Cheated(..) | RaceEnd::NoSeed));
        if moved || kept || self.abort_due().is_some_and(|d| now > d) {
            return;
        }
        self.call_off(events);
    }

    /// Ends the race without a result: the seed was not agreed in time on one side. The
    /// result counts no board (scores and turns 0): the side without the seed has none,
    /// and both sides report the same result.
    fn call_off(&mut self, events: &mut Vec<RaceEvent>) {
        self.done = [true, true];
        let result = RaceResult {
            scores: [0, 0],
            turns: [0, 0],
            winner: None,
            end: RaceEnd::NoSeed,
        };
        self.result = Some(result.clone());
        events.push(RaceEvent::Over(result));
    }

    fn cheated(&mut self, by: Color, fault: RaceFault, events: &mut Vec<RaceEvent>) {
        self.end(RaceEnd::Cheated(by, fault), Some(by.other()), events);
    }

    fn end(&mut self, end: RaceEnd, winner: Option<Color>, events: &mut Vec<RaceEvent>) {
        let result = RaceResult {
            scores: self.scores(),
            turns: Color::ALL.map(|c| self.board(c).map_or(0, ScoreGame::turns)),
            winner,
            end,
        };
        self.result = Some(result.clone());
        events.push(RaceEvent::Over(result));
    }
}
