//! Lines races between two [`Session`]s over the faulty in-memory channel: both sides
//! move at the same time (a greedy or random legal move every few milliseconds), the
//! link is cut and resumed, and at the end both sides must hold the same two boards and
//! the same result.
//!
//! ```
//! use banco_protocol::race::RaceOptions;
//! use banco_protocol::sim::{FaultPlan, RaceSim, play_race};
//!
//! let sim = RaceSim { options: RaceOptions { start_balls: 5, time_limit_s: 3_600, preview: false, ..RaceOptions::default() }, ..RaceSim::new(3) };
//! let report = play_race(&sim);
//! assert!(report.is_clean(), "{report:?}");
//! assert!(report.results[0].is_some());
//! ```

use super::CountingGame;
use super::faults::{Channel, FaultPlan, below, chance};
use crate::race::{RaceError, RaceEvent, RaceOptions, RaceResult};
use crate::{ActionError, Event, Identity, Session, SessionConfig};
use banco_game::{Color, GameKind, ScoreGame};
use banco_lines::{Cell, LinesGame, ai};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// One simulated race.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RaceSim {
    /// Seed of everything random (keys, seed values, faults, move choices).
    pub seed: u64,
    /// How the link misbehaves.
    pub faults: FaultPlan,
    /// The race A proposes.
    pub options: RaceOptions,
    /// Each player waits 1..=`think_ms` between moves.
    pub think_ms: u64,
    /// Per mille of moves chosen by the greedy player (the rest are random legal moves).
    pub greedy: u32,
    /// A player (0 = A, Red; 1 = B, Black) that resigns at its turn `.1`.
    pub resign: Option<(usize, u32)>,
    /// A player that stops moving after this many turns (leaving the time limit to end it).
    pub idle_after: [Option<u32>; 2],
    /// Simulated milliseconds after which the race counts as stuck.
    pub deadline_ms: u64,
}

impl RaceSim {
    /// A race of 5 start balls with an hour's time limit (both boards fill long before)
    /// over the rough link.
    pub fn new(seed: u64) -> RaceSim {
        RaceSim {
            seed,
            faults: FaultPlan::ROUGH,
            options: RaceOptions {
                start_balls: 5,
                time_limit_s: 3_600,
                preview: false,
                ..RaceOptions::default()
            },
            think_ms: 400,
            greedy: 800,
            resign: None,
            idle_after: [None, None],
            deadline_ms: 3_600_000,
        }
    }
}

/// What happened in a simulated race.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RaceSimReport {
    /// The result each side saw (A, B).
    pub results: [Option<RaceResult>; 2],
    /// Both sides hold the same two boards (their own and the replica).
    pub boards_equal: bool,
    /// Moves each side played (A, B).
    pub moves: [u32; 2],
    /// "Opponent moved" events each side saw (A, B).
    pub opponent_events: [u32; 2],
    /// Link cuts.
    pub disconnects: u32,
    /// Frames handed to the channel.
    pub frames: u64,
    /// Why the run failed (stuck, closed, a refused move of an honest player), if it did.
    pub failure: Option<String>,
}

impl RaceSimReport {
    /// True if the race ended alike on both sides with equal boards, every move seen once.
    pub fn is_clean(&self) -> bool {
        self.failure.is_none()
            && self.boards_equal
            && self.results[0].is_some()
            && self.results[0] == self.results[1]
            && self.opponent_events == [self.moves[1], self.moves[0]]
    }
}

struct Racer {
    session: Session<CountingGame>,
    next_move: Option<u64>,
    moves: u32,
    opponent_events: u32,
    result: Option<RaceResult>,
}

fn random_move(game: &LinesGame, rng: &mut ChaCha8Rng) -> Option<(Cell, Cell)> {
    let balls: Vec<Cell> = Cell::all()
        .filter(|&c| !game.reachable(c).is_empty())
        .collect();
    let from = *balls.get(below(rng, balls.len() as u64) as usize)?;
    let to: Vec<Cell> = game.reachable(from).iter().collect();
    Some((from, *to.get(below(rng, to.len() as u64) as usize)?))
}

/// Plays one race and reports it.
pub fn play_race(sim: &RaceSim) -> RaceSimReport {
    let mut rng = ChaCha8Rng::seed_from_u64(sim.seed);
    let mut bytes = || {
        let mut b = [0u8; 32];
        rng.fill_bytes(&mut b);
        b
    };
    let mut racers = ["A", "B"].map(|name| Racer {
        session: Session::new(
            SessionConfig::new(name, &[GameKind::Lines]),
            Identity::from_secret(bytes()),
            bytes(),
        ),
        next_move: None,
        moves: 0,
        opponent_events: 0,
        result: None,
    });
    let plan = sim.faults;
    let mut report = RaceSimReport::default();
    let mut chan = Channel::default();
    let mut now = 0u64;
    let mut link_at = Some(0u64);
    let mut proposed = false;
    loop {
        if now > sim.deadline_ms {
            report.failure = Some(format!("not over after {now} ms"));
            break;
        }
        if link_at.is_some_and(|t| t <= now) {
            link_at = None;
            chan.cut();
            let first = usize::from(chance(&mut rng, 500));
            for (i, r) in racers.iter_mut().enumerate() {
                let done = if i == first {
                    r.session.connect(now)
                } else {
                    r.session.accept(now)
                };
                if let Err(e) = done {
                    report.failure = Some(format!("link: {e}"));
                }
            }
        }
        let mut cut = false;
        while let Some((to_b, frame)) = chan.pop_due(now) {
            racers[usize::from(to_b)]
                .session
                .handle_datagram(&frame, now);
            if chance(&mut rng, plan.disconnect) {
                cut = true;
                break;
            }
        }
        for r in &mut racers {
            if r.session.poll_timeout().is_some_and(|t| t <= now) {
                r.session.handle_timeout(now);
            }
        }
        for (i, r) in racers.iter_mut().enumerate() {
            while let Some(ev) = r.session.poll_event() {
                if std::env::var_os("BANCO_SIM_DEBUG").is_some() {
                    let turns = r
                        .session
                        .race()
                        .map(|x| Color::ALL.map(|c| x.board(c).map_or(0, ScoreGame::turns)));
                    eprintln!(
                        "{now} {i} {ev:?} unacked {} turns {turns:?}",
                        r.session.unacked()
                    );
                }
                match ev {
                    Event::VerifyPeer { .. } => {
                        let _ = r.session.confirm_peer(false);
                    }
                    Event::Proposed(_) => {
                        let _ = r.session.accept_proposal(now);
                    }
                    Event::Race(RaceEvent::Started { .. }) => r.next_move = Some(now + 1),
                    Event::Race(RaceEvent::OpponentMoved { .. }) => r.opponent_events += 1,
                    Event::Race(RaceEvent::Over(result)) => r.result = Some(result),
                    Event::LinkDown { .. } => cut = true,
                    Event::Closed { reason } => {
                        report.failure = Some(format!("{i} closed: {reason:?}"));
                    }
                    _ => {}
                }
            }
            if i == 0 && !proposed && r.session.peer().is_some_and(|p| p.verified) {
                proposed = r.session.propose_race(sim.options, Color::Red, now).is_ok();
            }
            if r.next_move.is_some_and(|t| t <= now) {
                r.next_move = Some(now + 1 + below(&mut rng, sim.think_ms.max(1)));
                if sim.idle_after[i].is_some_and(|n| r.moves >= n) {
                    r.next_move = None;
                    continue;
                }
                if sim
                    .resign
                    .is_some_and(|(who, at)| who == i && r.moves >= at)
                {
                    match r.session.race_resign(now) {
                        // Done or final: our time ran out or our board filled first;
                        // the race ends on the boards.
                        Ok(()) | Err(RaceError::Done | RaceError::Final | RaceError::Over) => {
                            r.next_move = None;
                        }
                        Err(RaceError::Session(_)) => {}
                        Err(e) => report.failure = Some(format!("resign: {e}")),
                    }
                    continue;
                }
                let Some(game) = r.session.race().and_then(|x| x.board(x.me())) else {
                    continue;
                };
                let choice = if chance(&mut rng, sim.greedy) {
                    ai::greedy_move(game).map(|m| (m.from, m.to))
                } else {
                    random_move(game, &mut rng)
                };
                let Some((from, to)) = choice else {
                    r.next_move = None;
                    continue;
                };
                match r.session.race_move(from, to, now) {
                    Ok(_) => r.moves += 1,
                    Err(RaceError::Session(ActionError::QueueFull | ActionError::Closed)) => {}
                    Err(RaceError::Done | RaceError::Over) => r.next_move = None,
                    Err(e) => report.failure = Some(format!("{i} move {from} {to}: {e}")),
                }
            }
        }
        if racers.iter().any(|r| r.session.is_closed()) && report.failure.is_none() {
            report.failure = Some("a session closed".into());
        }
        if report.failure.is_some() {
            break;
        }
        if cut && link_at.is_none() {
            chan.cut();
            for r in &mut racers {
                r.session.link_lost(now);
                // The link-down events of our own cut.
                while let Some(ev) = r.session.poll_event() {
                    if let Event::Race(RaceEvent::Over(result)) = ev {
                        r.result = Some(result);
                    }
                }
            }
            report.disconnects += 1;
            if std::env::var_os("BANCO_SIM_DEBUG").is_some() {
                eprintln!("{now} cut");
            }
            link_at = Some(now + 50 + below(&mut rng, 1000));
        }
        for (i, r) in racers.iter_mut().enumerate() {
            while let Some(frame) = r.session.poll_transmit() {
                chan.send(&mut rng, &plan, now, i == 0, frame);
            }
        }
        let settled = |r: &Racer| r.result.is_some() && r.session.unacked() == 0;
        if racers.iter().all(settled)
            && chan.is_empty()
            && link_at.is_none()
            && racers[0].session.is_link_up()
        {
            break;
        }
        let next = [
            chan.next_due(),
            racers[0].session.poll_timeout(),
            racers[1].session.poll_timeout(),
            link_at,
            racers[0].next_move,
            racers[1].next_move,
        ]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(now + 1000);
        now = next.max(now + 1);
    }
    let [a, b] = &racers;
    report.boards_equal = match (a.session.race(), b.session.race()) {
        (Some(x), Some(y)) => Color::ALL.into_iter().all(|c| x.board(c) == y.board(c)),
        _ => false,
    };
    report.moves = [a.moves, b.moves];
    report.opponent_events = [a.opponent_events, b.opponent_events];
    report.results = [a.result.clone(), b.result.clone()];
    report.frames = chan.sent;
    // The scores in the result are the ones each side computed from the moves.
    if let (Some(x), Some(r)) = (a.session.race(), &a.result) {
        let computed = Color::ALL.map(|c| x.board(c).map_or(0, ScoreGame::score));
        if computed != r.scores {
            report.failure = Some("the result's scores are not the boards'".into());
        }
    }
    report
}
