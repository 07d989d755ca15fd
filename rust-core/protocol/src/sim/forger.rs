//! A Lines race against a peer that sends anything, scripted by bytes: the peer proposes
//! a race (the victim accepts), then plays any mix of honest and forged race messages —
//! its seed reveal or another value, legal moves of its board, moves and stops numbered
//! anyhow, cuts, resignations, raw plaintext — loses messages, lets time pass, while the
//! victim plays its own moves and may resign. [`race_against_forger`] runs a script and
//! checks after every step that what the victim holds stays consistent:
//!
//! * the result, once there is one, changes only as the protocol revises one (a late
//!   resignation, a race called off: see `revises`) and agrees with the boards: their
//!   scores (0 for a race called off) and turns, the higher score winning a finished race,
//!   the other side winning a resignation or a fault;
//! * the replica of the peer's board never goes back, and our board's turns are the moves
//!   we played;
//! * a link the peer dials again resumes the session (the victim takes it up from what
//!   the peer heard);
//! * what the victim sends is its own race: its moves numbered from 0 in order, none more
//!   than it played, none after its stop or resignation, which counts them.
//!
//! The fuzz target `race_messages` runs it on libFuzzer's inputs, the protocol suite on
//! random scripts (proptest) and on a few written out.
//!
//! ```
//! use banco_protocol::sim::race_against_forger;
//! // Options (5 balls, an hour), the peer's seed byte, then the honest reveal (op 0) and
//! // ten rounds of a legal move of the peer (op 2) and one of ours (op 8).
//! let mut script = vec![0b110, 7, 0, 0, 0];
//! for i in 0..10u8 {
//!     script.extend([2, i, i, 8, i, i]);
//! }
//! let report = race_against_forger(&script)?;
//! assert_eq!((report.peer_turns, report.our_turns), (10, 10));
//! assert!(report.result.is_none(), "both boards still have room");
//! # Ok::<(), banco_protocol::sim::ForgerFault>(())
//! ```
//!
//! A script: one byte of [`RaceOptions`] (bit 0: 3 start balls instead of 5; bits 1–2:
//! the time limit, 0, 1, 30 or 3,600 s — 0 is declined; bit 3: the preview; bit 4: the
//! spawn at landing), one byte of the peer's seed value, then steps of three bytes
//! `[op, a, b]` (op modulo 12): 0 the honest reveal; 1 another value (`a` repeated);
//! 2 a legal move of the peer's board (picked by `a` and `b`); 3 a move `a` → `b`
//! numbered `op >> 6` past the next; 4 a stop and 5 a cut numbered `a − 2` past the
//! next turn; 6 a resignation; 7 `a` bytes of the script sealed as a raw message; 8 our
//! own legal move; 9 our resignation; 10 a sequenced message lost on the way; 11 time
//! passes (`a` × 100 + `b` × 25,600 ms), the victim's timers running in order. The peer
//! answers the victim's pings and acknowledges what it sends, as a live peer does, except
//! in steps whose op has its top bit set: it is silent then, and a long silence takes the
//! link down. A step of op 11 with bit 6 set also cuts the link once the time has passed:
//! the victim loses it, and the peer dials again half a second later and resumes the
//! session from what it heard. Its messages then go on from where the victim's resume
//! says: a forger's stream, not an honest peer's resend — what it lost is replaced by what
//! it sends next, and what the victim holds out of order from before the cut comes after
//! that.

use super::{CountingGame, RawLink};
use crate::crypto::Identity;
use crate::message::{Body, CAP_LINES, Propose, game_code};
use crate::race::{RaceEnd, RaceOptions, RaceResult, proposal_params};
use crate::seed::SeedShare;
use crate::{PROTOCOL_VERSION, Session, SessionConfig};
use banco_game::{Color, GameKind, ScoreGame};
use banco_lines::{Cell, LinesGame, SpawnRule};

type Victim = Session<CountingGame>;

/// How long the peer takes to dial again after a cut, as a phone does. The victim's
/// inbound limit (a token bucket per session, checked in `Session::handle_datagram`) has
/// refilled by then for the few frames of a handshake and a resume, even after a flood on
/// the link that was cut: a peer that dialled again within the same millisecond would
/// have them dropped, as any flood's.
const REDIAL_MS: u64 = 500;

/// An inconsistency [`race_against_forger`] found in the victim.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ForgerFault {
    /// The victim could not be paired with the raw peer.
    #[error("the victim did not pair with the raw peer")]
    NoPairing,
    /// The replica of the peer's board lost turns.
    #[error("the replica of the peer's board went back from {before} to {after} turns")]
    ReplicaWentBack {
        /// Turns before the step.
        before: u32,
        /// Turns after it.
        after: u32,
    },
    /// Our board's turns differ from the moves we played.
    #[error("our board has {board} turns, but we played {played} moves")]
    OurTurns {
        /// Turns on our board.
        board: u32,
        /// Moves the victim accepted from us.
        played: u32,
    },
    /// The result changed after the race had ended.
    #[error("the result changed from {before:?} to {after:?}")]
    ResultChanged {
        /// The result first reached.
        before: Box<RaceResult>,
        /// What the victim holds now.
        after: Option<Box<RaceResult>>,
    },
    /// The victim did not take up the session again when the peer dialled again.
    #[error("the victim did not resume the session on the peer's new link")]
    ResumeRefused,
    /// What the victim sent is wrong.
    #[error("the victim sent a wrong race message: {0}")]
    OurStream(String),
    /// More race moves came from the victim than it played.
    #[error("the victim sent {sent} race moves, but played {played}")]
    MovesSent {
        /// Race moves heard.
        sent: u32,
        /// Moves the victim accepted from us.
        played: u32,
    },
    /// The result disagrees with the boards or with its own end.
    #[error("the result {result:?} disagrees with the boards: {why}")]
    Inconsistent {
        /// The result.
        result: Box<RaceResult>,
        /// What disagrees.
        why: String,
    },
}

/// What a script left the victim with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForgerReport {
    /// Turns on the victim's replica of the peer's board.
    pub peer_turns: u32,
    /// Turns on the victim's own board.
    pub our_turns: u32,
    /// The race's result, if it ended.
    pub result: Option<RaceResult>,
    /// The links the peer dialled again on which the victim resumed the session.
    pub resumed: u32,
}

/// The forging peer: its end of the link, and what it heard of the victim's race.
struct Peer {
    link: RawLink,
    /// The victim's race moves heard, in order.
    moves_heard: u32,
    /// The turns of the victim's stop or resignation, once heard.
    stop_heard: Option<u32>,
    /// The first thing wrong in what the victim sent.
    fault: Option<String>,
}

impl Peer {
    /// Pairs a forging peer offering Lines with `victim`, which accepts the link.
    fn pair(victim: &mut Victim) -> Option<Peer> {
        let (link, _) = RawLink::dial(victim, PROTOCOL_VERSION, CAP_LINES, 0)?;
        let mut peer = Peer {
            link,
            moves_heard: 0,
            stop_heard: None,
            fault: None,
        };
        peer.take_up(victim, [0; 8], 0);
        Some(peer)
    }

    /// On a link just dialled: reads the victim's resume (where our sequence goes on),
    /// sends ours of `session` (zeros: a new one) from what the peer heard, then answers as
    /// a live peer.
    fn take_up(&mut self, victim: &mut Victim, session: [u8; 8], now: u64) {
        self.drain(victim, false, now);
        self.link.resume_session(victim, session, now);
        self.drain(victim, true, now);
    }

    /// Cuts the link at `*now` and, [`REDIAL_MS`] later (the victim's timers running
    /// meanwhile, `*now` moved on), dials the victim again, resuming `session` from what
    /// the peer heard; our sequence goes on from where the victim's resume says. A victim
    /// that takes no link any more (its session closed) is left alone; one whose session
    /// is open must take the link and resume. True if the session was resumed.
    fn redial(
        &mut self,
        victim: &mut Victim,
        session: [u8; 8],
        now: &mut u64,
    ) -> Result<bool, ForgerFault> {
        victim.link_lost(*now);
        self.pass_time(victim, now, *now + REDIAL_MS, false);
        let now = *now;
        let Some((link, _)) = RawLink::dial(victim, PROTOCOL_VERSION, CAP_LINES, now) else {
            return if victim.is_closed() {
                Ok(false)
            } else {
                Err(ForgerFault::ResumeRefused)
            };
        };
        self.link = RawLink {
            ack: self.link.ack,
            ..link
        };
        self.take_up(victim, session, now);
        if victim.is_link_up() {
            Ok(true)
        } else {
            Err(ForgerFault::ResumeRefused)
        }
    }

    /// Time passes from `*now` to `until`: the victim's timers run in order, the peer
    /// reading what it sends between them and answering when `alive` (silent, a long
    /// silence takes the link down).
    fn pass_time(&mut self, victim: &mut Victim, now: &mut u64, until: u64, alive: bool) {
        while let Some(t) = victim.poll_timeout().filter(|&t| t <= until) {
            *now = (*now).max(t);
            victim.handle_timeout(*now);
            self.drain(victim, alive, *now);
        }
        *now = until;
        self.drain(victim, alive, *now);
    }

    /// Reads what the victim sent, acknowledging its sequenced messages in order; when
    /// `alive`, answers as a live peer does: a pong to each ping, an acknowledgement of what
    /// arrived. The victim's resume sets where our sequence goes on.
    fn drain(&mut self, victim: &mut Victim, alive: bool, now: u64) {
        let (mut ping, mut sequenced) = (false, false);
        while let Some(frame) = victim.poll_transmit() {
            if let Some((env, in_order)) = self.link.open(&frame) {
                if in_order {
                    sequenced = true;
                    self.heard(&env.body);
                }
                if let Body::Resume(r) = &env.body {
                    self.link.seq = u64::from(r.last_seen);
                }
                ping |= env.body == Body::Ping;
            }
        }
        if alive && ping {
            self.link.send(victim, Body::Pong, now);
        }
        if alive && sequenced {
            self.link.send(victim, Body::Ack, now);
        }
    }

    /// Checks the victim's next sequenced message: its race moves are numbered from 0 in
    /// order and stop at its stop or resignation, which counts them.
    fn heard(&mut self, body: &Body) {
        let why = match *body {
            Body::RaceMove { turn, .. } => {
                let why = if let Some(stop) = self.stop_heard {
                    Some(format!("its move {turn} came after its stop at {stop}"))
                } else {
                    (turn != self.moves_heard).then(|| {
                        format!("its move numbered {turn} came as move {}", self.moves_heard)
                    })
                };
                self.moves_heard += 1;
                why
            }
            Body::RaceStop { turns } | Body::Resign { ply: turns } => {
                self.stop_heard.get_or_insert(turns);
                (turns != self.moves_heard)
                    .then(|| format!("its stop counts {turns} moves, {} came", self.moves_heard))
            }
            _ => None,
        };
        if self.fault.is_none() {
            self.fault = why;
        }
    }
}

/// The options a script's first byte picks (some are declined: that is tried too).
fn options(byte: u8) -> RaceOptions {
    let limits = [0, 1, 30, 3_600];
    RaceOptions {
        start_balls: if byte & 1 == 0 { 5 } else { 3 },
        time_limit_s: limits
            .get(usize::from((byte >> 1) & 3))
            .copied()
            .unwrap_or(0),
        preview: byte & 8 != 0,
        spawn: if byte & 16 == 0 {
            SpawnRule::AtAnnouncement
        } else {
            SpawnRule::AtLanding
        },
    }
}

/// A legal move of `game` picked by two bytes (`None` if no ball can move).
fn legal_move(game: &LinesGame, ball: u8, target: u8) -> Option<(Cell, Cell)> {
    let movable: Vec<(Cell, Vec<Cell>)> = Cell::all()
        .filter(|&c| game.board().get(c).is_some())
        .map(|c| (c, game.reachable(c).iter().collect::<Vec<_>>()))
        .filter(|(_, to)| !to.is_empty())
        .collect();
    let (from, to) = movable.get(usize::from(ball) % movable.len().max(1))?;
    Some((*from, *to.get(usize::from(target) % to.len().max(1))?))
}

/// The board of `color` as the victim holds it.
fn board(victim: &Victim, color: Color) -> Option<&LinesGame> {
    victim.race().and_then(|r| r.board(color))
}

/// Turns on `color`'s board as the victim holds it (0 before the race starts).
fn turns(victim: &Victim, color: Color) -> u32 {
    board(victim, color).map_or(0, ScoreGame::turns)
}

/// Checks `result` against the boards and against its own end.
fn check_result(victim: &Victim, result: &RaceResult) -> Result<(), ForgerFault> {
    let bad = |why: String| {
        Err(ForgerFault::Inconsistent {
            result: Box::new(result.clone()),
            why,
        })
    };
    if result.end == RaceEnd::NoSeed {
        if result.scores != [0, 0] || result.turns != [0, 0] || result.winner.is_some() {
            return bad("a race called off counts no board and has no winner".into());
        }
        return Ok(());
    }
    for (i, color) in [Color::Red, Color::Black].into_iter().enumerate() {
        if let (Some(game), Some(&score), Some(&played)) = (
            board(victim, color),
            result.scores.get(i),
            result.turns.get(i),
        ) && (score, played) != (game.score(), game.turns())
        {
            return bad(format!(
                "{color:?}'s board has {} points in {} turns",
                game.score(),
                game.turns()
            ));
        }
    }
    let [red, black] = result.scores;
    let higher = (red != black).then_some(if red > black {
        Color::Red
    } else {
        Color::Black
    });
    let winner = match result.end {
        RaceEnd::Finished => higher,
        RaceEnd::Resigned(c) | RaceEnd::Cheated(c, _) => Some(c.other()),
        RaceEnd::BothResigned | RaceEnd::NoSeed => None,
    };
    if result.winner != winner {
        return bad(format!("the winner should be {winner:?}"));
    }
    Ok(())
}

/// True if a race that ended on `before` may end on `after` instead, as the protocol
/// allows: a late resignation of the peer after we counted its board at our cut
/// ([`Race::takes_late_resign`](crate::race::Race::takes_late_resign)), or the peer
/// calling off a race that never started on its side ([`RaceEnd::NoSeed`]), which
/// overrides any end but a fault.
fn revises(before: &RaceResult, after: Option<&RaceResult>) -> bool {
    let Some(after) = after else {
        return false;
    };
    match (&before.end, &after.end) {
        // Called off: over any end but a fault.
        (RaceEnd::Cheated(..) | RaceEnd::NoSeed, _) => false,
        (_, RaceEnd::NoSeed) => true,
        // The peer's late resignation: it loses a race that ended on time, and a race we
        // had resigned is drawn (the two resignations crossed).
        (RaceEnd::Finished, RaceEnd::Resigned(Color::Black))
        | (RaceEnd::Resigned(Color::Red), RaceEnd::BothResigned) => true,
        _ => false,
    }
}

/// Runs `script` (see the module docs) against a fresh victim; the first inconsistency
/// found ends it.
pub fn race_against_forger(script: &[u8]) -> Result<ForgerReport, ForgerFault> {
    let mut victim = Victim::new(
        SessionConfig::new("victim", &[GameKind::Lines]),
        Identity::from_secret([1; 32]),
        [2; 32],
    );
    let [opts, seed_byte, steps @ ..] = script else {
        return Ok(ForgerReport {
            peer_turns: 0,
            our_turns: 0,
            result: None,
            resumed: 0,
        });
    };
    let mut peer = Peer::pair(&mut victim).ok_or(ForgerFault::NoPairing)?;
    let _ = victim.confirm_peer(false);
    let session = victim.session_id().ok_or(ForgerFault::NoPairing)?;
    let share = SeedShare::new([*seed_byte; 32], session, Color::Black);
    let propose = Body::Propose(Propose {
        game: game_code(GameKind::Lines),
        rules: 0,
        color: Color::Black,
        clock: None,
        fen: None,
        params: proposal_params(&share.commitment(), options(*opts)),
    });
    peer.link.send(&mut victim, propose, 0);
    let _ = victim.accept_proposal(0);
    peer.drain(&mut victim, true, 0);
    while victim.poll_event().is_some() {}

    let mut rest = steps;
    let mut now = 1;
    let mut result: Option<RaceResult> = None;
    let (mut peer_turns, mut our_turns, mut resumed) = (0, 0, 0);
    while let [op, a, b, tail @ ..] = rest {
        rest = tail;
        let until = step(
            &mut victim,
            &mut peer,
            &share,
            [*op, *a, *b],
            &mut rest,
            now,
            &mut our_turns,
        );
        // The peer is silent when the step says so.
        peer.pass_time(&mut victim, &mut now, until, *op & 0x80 == 0);
        if *op % 12 == 11 && *op & 0x40 != 0 && peer.redial(&mut victim, session, &mut now)? {
            resumed += 1;
        }
        while victim.poll_event().is_some() {}

        let theirs = turns(&victim, Color::Black);
        if theirs < peer_turns {
            return Err(ForgerFault::ReplicaWentBack {
                before: peer_turns,
                after: theirs,
            });
        }
        peer_turns = theirs;
        if let Some(why) = peer.fault.take() {
            return Err(ForgerFault::OurStream(why));
        }
        if peer.moves_heard > our_turns {
            return Err(ForgerFault::MovesSent {
                sent: peer.moves_heard,
                played: our_turns,
            });
        }
        let ours = turns(&victim, Color::Red);
        if victim.race().is_some() && ours != our_turns {
            return Err(ForgerFault::OurTurns {
                board: ours,
                played: our_turns,
            });
        }
        let reached = victim.race().and_then(|r| r.result()).cloned();
        if let Some(before) = &result
            && reached.as_ref() != Some(before)
            && !revises(before, reached.as_ref())
        {
            return Err(ForgerFault::ResultChanged {
                before: Box::new(before.clone()),
                after: reached.map(Box::new),
            });
        }
        if let Some(r) = &reached {
            check_result(&victim, r)?;
        }
        result = reached;
    }
    Ok(ForgerReport {
        peer_turns,
        our_turns,
        result,
        resumed,
    })
}

/// One step `[op, a, b]` of a script at `t`; `rest` is what follows it (op 7 seals some
/// of it). Returns the time the step lasts until.
fn step(
    victim: &mut Victim,
    peer: &mut Peer,
    share: &SeedShare,
    [op, a, b]: [u8; 3],
    rest: &mut &[u8],
    t: u64,
    our_turns: &mut u32,
) -> u64 {
    let next = turns(victim, Color::Black);
    // What the peer sends this step (nothing for our own actions and for time).
    let body = match op % 12 {
        0 => Some(Body::SeedReveal {
            value: share.value(),
        }),
        1 => Some(Body::SeedReveal { value: [a; 32] }),
        2 => board(victim, Color::Black)
            .and_then(|g| legal_move(g, a, b))
            .map(|(from, to)| Body::RaceMove {
                turn: next,
                from: from.index() as u8,
                to: to.index() as u8,
            }),
        3 => Some(Body::RaceMove {
            turn: next.wrapping_add(u32::from(op >> 6)),
            from: a,
            to: b,
        }),
        4 | 5 => {
            let turns = next.wrapping_add(u32::from(a)).wrapping_sub(2);
            Some(if op % 12 == 4 {
                Body::RaceStop { turns }
            } else {
                Body::RaceCut { turns }
            })
        }
        6 => Some(Body::Resign { ply: u32::from(a) }),
        7 => {
            let (plain, after) = rest.split_at(usize::from(a).min(rest.len()));
            *rest = after;
            peer.link.send_plain(victim, plain, t);
            None
        }
        8 => {
            let me = victim.race().map(|r| r.me());
            let picked = me
                .and_then(|me| board(victim, me))
                .and_then(|g| legal_move(g, a, b));
            if let Some((from, to)) = picked
                && victim.race_move(from, to, t).is_ok()
            {
                *our_turns += 1;
            }
            None
        }
        9 => {
            let _ = victim.race_resign(t);
            None
        }
        10 => {
            peer.link.seq += 1;
            None
        }
        _ => return t + u64::from(a) * 100 + u64::from(b) * 25_600,
    };
    if let Some(body) = body {
        peer.link.send(victim, body, t);
    }
    t
}
