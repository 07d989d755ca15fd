//! A deterministic simulator: two [`Session`]s joined by an in-memory channel with a
//! seeded [`FaultPlan`] (drop, duplicate, reorder, delay, disconnect-and-resume), playing
//! whole games of random legal moves with random undo requests, draw offers and clocks.
//!
//! [`run_soak`] plays many such games and counts what went wrong; `banco soak --games N
//! --seed S` prints its [`SoakReport`]:
//!
//! ```
//! let report = banco_protocol::sim::run_soak(3, 7);
//! assert_eq!(report.to_string(), "games 3 lost 0 duplicated 0 desync 0 failures 0");
//! ```
//!
//! [`run_soak_with`] plays any [`MatchGame`] (for example xiangqi with a rule set chosen by
//! its wire index, [`SoakConfig::game`] and [`SoakConfig::rules`]), also games with chance
//! steps settled by the fair draw ([`HiddenCards`], or jieqi).
//!
//! [`play_race`] races two honest sessions over the faulty link; [`race_against_forger`]
//! races one against a peer scripted to send anything, checking the victim after each step;
//! [`RawLink`] is such a peer's end of a link, for any test that forges messages.

mod cards;
mod counting;
mod faults;
mod forger;
mod race;
mod raw;

pub use cards::{CARD_COUNTS, CARD_POINTS, CardError, CardMove, CardRules, HiddenCards};
pub use counting::{CountingError, CountingGame, CountingRules};
pub use faults::FaultPlan;
pub use forger::{ForgerFault, ForgerReport, race_against_forger};
pub use race::{RaceSim, RaceSimReport, play_race};
pub use raw::RawLink;

use crate::message::ClockSpec;
use crate::{Event, Identity, MatchSpec, Session, SessionConfig, Timing};
use banco_game::{Color, DrawReason, Game, GameKind, MatchGame, MoveList, Outcome, WinReason};
use core::fmt;
use faults::{Channel, below, chance};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// Settings of a soak run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SoakConfig {
    /// Number of games.
    pub games: u32,
    /// Seed of everything random (keys, moves, faults).
    pub seed: u64,
    /// How the link misbehaves.
    pub faults: FaultPlan,
    /// After this many plies the side to move resigns.
    pub max_plies: u32,
    /// Virtual time after which an unfinished game counts as a failure, milliseconds.
    pub game_deadline_ms: u64,
    /// The game both sides offer and play.
    pub game: GameKind,
    /// Its rule set, by wire index ([`MatchGame::rules`]).
    pub rules: u8,
    /// Timers of both sessions.
    pub timing: Timing,
}

impl SoakConfig {
    /// `games` games of xiangqi (or what stands in for it) under rule set 0, from `seed`,
    /// on a [`FaultPlan::ROUGH`] link.
    pub fn new(games: u32, seed: u64) -> Self {
        SoakConfig {
            games,
            seed,
            faults: FaultPlan::ROUGH,
            max_plies: 300,
            game_deadline_ms: 6 * 3600 * 1000,
            game: GameKind::Xiangqi,
            rules: 0,
            timing: Timing::default(),
        }
    }
}

/// What a soak run measured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SoakReport {
    /// Games played.
    pub games: u64,
    /// Moves one side played that the other never applied.
    pub lost: u64,
    /// Moves applied twice.
    pub duplicated: u64,
    /// Games whose two sides ended in different positions or outcomes or with different
    /// records of their fair draws ([`FairTranscript`](crate::fairdraw::FairTranscript)),
    /// plus refused moves (`PeerIllegalMove`, `Desync` events, which honest peers never
    /// cause).
    pub desync: u64,
    /// Games that did not finish in time or closed unexpectedly.
    pub failures: u64,
    /// Moves in the final positions.
    pub moves: u64,
    /// Link cuts (each followed by a reconnect and `Resume`).
    pub disconnects: u64,
    /// Frames put on the simulated link.
    pub frames: u64,
    /// Undo requests accepted.
    pub undos: u64,
    /// Games lost on time.
    pub timeouts: u64,
    /// Games drawn by agreement.
    pub agreed_draws: u64,
    /// Games drawn by a claim (threefold repetition or the fifty-move rule).
    pub claimed_draws: u64,
    /// Games resigned.
    pub resignations: u64,
}

impl SoakReport {
    /// True when nothing was lost, duplicated, desynchronised or failed.
    pub fn is_clean(&self) -> bool {
        self.lost == 0 && self.duplicated == 0 && self.desync == 0 && self.failures == 0
    }

    /// Adds the counts of `o` (another game or run) to these.
    pub fn add(&mut self, o: &SoakReport) {
        self.games += o.games;
        self.lost += o.lost;
        self.duplicated += o.duplicated;
        self.desync += o.desync;
        self.failures += o.failures;
        self.moves += o.moves;
        self.disconnects += o.disconnects;
        self.frames += o.frames;
        self.undos += o.undos;
        self.timeouts += o.timeouts;
        self.agreed_draws += o.agreed_draws;
        self.claimed_draws += o.claimed_draws;
        self.resignations += o.resignations;
    }
}

impl fmt::Display for SoakReport {
    /// `games N lost L duplicated D desync X failures F`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "games {} lost {} duplicated {} desync {} failures {}",
            self.games, self.lost, self.duplicated, self.desync, self.failures
        )
    }
}

/// Plays `games` counting games from `seed` on a rough link (see [`SoakConfig::new`]).
pub fn run_soak(games: u32, seed: u64) -> SoakReport {
    run_soak_with::<CountingGame>(&SoakConfig::new(games, seed))
}

/// Plays `config.games` games of `config.game` under rule set `config.rules` from its usual
/// start, both sides choosing uniformly random legal moves ([`random_move`]).
///
/// For xiangqi: `run_soak_with::<Xiangqi>(&SoakConfig::new(n, seed))`.
pub fn run_soak_with<G: MatchGame>(config: &SoakConfig) -> SoakReport {
    run_soak_custom::<G>(config, &mut random_move::<G>)
}

/// Like [`run_soak_with`], with the moves chosen by `choose(position, random)` (for example
/// an engine at low depth; `random` is a seeded number the chooser may use). Returning
/// `None` makes the side resign.
pub fn run_soak_custom<G: MatchGame>(
    config: &SoakConfig,
    choose: &mut dyn FnMut(&G, u64) -> Option<G::Move>,
) -> SoakReport {
    let mut total = SoakReport::default();
    for game_seed in game_seeds(config.seed).take(config.games as usize) {
        let r = play_game(config, game_seed, choose);
        total.add(&r);
    }
    total
}

/// The seeds of the games a soak from `seed` plays, in order: game `i` of
/// [`run_soak_with`] is [`play_game`] with the `i`-th (counting from 0), so one game of a
/// long run can be replayed alone.
///
/// ```
/// use banco_protocol::sim::{CountingGame, SoakConfig, game_seeds, play_game, random_move};
/// let config = SoakConfig::new(1, 7);
/// let third = game_seeds(7).nth(2).unwrap_or_default();
/// let report = play_game::<CountingGame>(&config, third, &mut random_move);
/// assert_eq!(report.games, 1);
/// ```
pub fn game_seeds(seed: u64) -> impl Iterator<Item = u64> {
    game_seeds_from(seed, 0)
}

/// [`game_seeds`] from game `first` on, at once however far (the stream is seeked, not
/// walked): `game_seeds_from(seed, k)` yields what `game_seeds(seed).skip(k)` does.
///
/// ```
/// use banco_protocol::sim::{game_seeds, game_seeds_from};
/// assert_eq!(game_seeds_from(7, 5).next(), game_seeds(7).nth(5));
/// assert!(game_seeds_from(7, u64::MAX).next().is_some()); // no walk to get there
/// ```
pub fn game_seeds_from(seed: u64, first: u64) -> impl Iterator<Item = u64> {
    let mut seeds = ChaCha8Rng::seed_from_u64(seed);
    // Each seed is one u64 of the stream: two of its 32-bit words.
    seeds.set_word_pos(u128::from(first) * 2);
    core::iter::repeat_with(move || seeds.next_u64())
}

/// A uniformly random legal move (`random` picks it), or `None` when there is none.
pub fn random_move<G: Game>(game: &G, random: u64) -> Option<G::Move> {
    let mut list = MoveList::<G::Move>::new();
    game.legal_moves(&mut list);
    let n = list.len() as u64;
    if n == 0 {
        return None;
    }
    list.as_slice().get((random % n) as usize).copied()
}

struct Player<G: MatchGame> {
    session: Session<G>,
    line: Vec<G::Move>,
    next_action: Option<u64>,
    is_a: bool,
    proposed: bool,
    bad_events: u64,
}

fn random_bytes(rng: &mut ChaCha8Rng) -> [u8; 32] {
    let mut b = [0u8; 32];
    rng.fill_bytes(&mut b);
    b
}

/// Plays one game with `seed` and reports it (`games` is 1).
pub fn play_game<G: MatchGame>(
    config: &SoakConfig,
    seed: u64,
    choose: &mut dyn FnMut(&G, u64) -> Option<G::Move>,
) -> SoakReport {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let plan = config.faults;
    let mut players = [true, false].map(|is_a| {
        let mut cfg = SessionConfig::new(if is_a { "A" } else { "B" }, &[config.game]);
        cfg.timing = config.timing;
        let session = Session::new(
            cfg,
            Identity::from_secret(random_bytes(&mut rng)),
            random_bytes(&mut rng),
        );
        Player {
            session,
            line: Vec::new(),
            next_action: None,
            is_a,
            proposed: false,
            bad_events: 0,
        }
    });
    let mut report = SoakReport {
        games: 1,
        ..SoakReport::default()
    };
    let mut chan = Channel::default();
    let mut now = 0u64;
    let mut link_at = Some(0u64);
    loop {
        if now > config.game_deadline_ms {
            report.failures += 1;
            break;
        }
        let mut cut = false;
        if link_at.is_some_and(|t| t <= now) {
            link_at = None;
            chan.cut();
            let first = usize::from(chance(&mut rng, 500));
            for (i, p) in players.iter_mut().enumerate() {
                let r = if i == first {
                    p.session.connect(now)
                } else {
                    p.session.accept(now)
                };
                if r.is_err() {
                    report.failures += 1;
                }
            }
        }
        while let Some((to_b, bytes)) = chan.pop_due(now) {
            let [a, b] = &mut players;
            let target = if to_b { b } else { a };
            target.session.handle_datagram(&bytes, now);
            if chance(&mut rng, plan.disconnect) {
                cut = true;
                break;
            }
        }
        for p in &mut players {
            if p.session.poll_timeout().is_some_and(|t| t <= now) {
                p.session.handle_timeout(now);
            }
        }
        for p in &mut players {
            cut |= handle_events(p, config, now, &mut rng, &mut report);
            act(p, now, &mut rng, config.max_plies, choose);
        }
        if players.iter().any(|p| p.session.is_closed()) {
            report.failures += 1;
            break;
        }
        if cut && link_at.is_none() {
            chan.cut();
            for p in &mut players {
                p.session.link_lost(now);
                let _ = handle_events(p, config, now, &mut rng, &mut report);
            }
            report.disconnects += 1;
            link_at = Some(now + 50 + below(&mut rng, 1000));
        }
        for (i, p) in players.iter_mut().enumerate() {
            while let Some(frame) = p.session.poll_transmit() {
                chan.send(&mut rng, &plan, now, i == 0, frame);
            }
        }
        let [a, b] = &players;
        let settled = |p: &Player<G>| {
            p.session.outcome().is_some() && p.session.unacked() == 0 && p.next_action.is_none()
        };
        if settled(a)
            && settled(b)
            && chan.is_empty()
            && link_at.is_none()
            && a.session.is_link_up()
        {
            break;
        }
        let next = [
            chan.next_due(),
            a.session.poll_timeout(),
            b.session.poll_timeout(),
            link_at,
            a.next_action,
            b.next_action,
        ]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(now + 1000);
        now = next.max(now + 1);
    }
    if report.failures > 0 && std::env::var_os("BANCO_SIM_DEBUG").is_some() {
        for p in &players {
            eprintln!(
                "seed {seed} failed: {} at ply {:?} outcome {:?} aborted {:?} closed {}",
                if p.is_a { "A" } else { "B" },
                p.session.ply(),
                p.session.outcome(),
                p.session.aborted(),
                p.session.is_closed()
            );
        }
    }
    for p in &players {
        let moves = p.session.moves().map_or(0, <[G::Move]>::len);
        trace(
            now,
            p,
            format_args!("ends: {moves} moves, {:?}", p.session.outcome()),
        );
    }
    judge(&players, &mut report);
    report.frames = chan.sent;
    report
}

fn judge<G: MatchGame>(players: &[Player<G>; 2], report: &mut SoakReport) {
    let [a, b] = players;
    report.desync += a.bad_events + b.bad_events;
    let (ma, mb) = (
        a.session.moves().unwrap_or(&[]),
        b.session.moves().unwrap_or(&[]),
    );
    report.moves += ma.len().max(mb.len()) as u64;
    if report.failures > 0 {
        return;
    }
    match a.session.outcome() {
        Some(Outcome::Win {
            reason: WinReason::Timeout,
            ..
        }) => report.timeouts += 1,
        Some(Outcome::Win {
            reason: WinReason::Resignation,
            ..
        }) => report.resignations += 1,
        Some(Outcome::Draw {
            reason: DrawReason::Agreement,
        }) => report.agreed_draws += 1,
        Some(Outcome::Draw {
            reason: DrawReason::FiftyMoveRule | DrawReason::ThreefoldRepetition,
        }) => report.claimed_draws += 1,
        _ => {}
    }
    let same_end = a.session.outcome() == b.session.outcome()
        && a.session.game().map(Game::hash) == b.session.game().map(Game::hash);
    if ma == mb && same_end {
        // The same moves: the records of the fair draws that led to them agree too.
        let fair = |p: &Player<G>| p.session.snapshot(0).and_then(|s| s.fair_draws);
        if fair(a) != fair(b) {
            if std::env::var_os("BANCO_SIM_DEBUG").is_some() {
                eprintln!("fair draws differ:\n A {:?}\n B {:?}", fair(a), fair(b));
            }
            report.desync += 1;
        }
        return;
    }
    let (short, long) = if ma.len() <= mb.len() {
        (ma, mb)
    } else {
        (mb, ma)
    };
    if long.starts_with(short) {
        report.lost += (long.len() - short.len()) as u64;
    } else {
        report.desync += 1;
    }
}

/// With `BANCO_SIM_TRACE` set, prints a line to stderr for every event and action of a
/// soak game: time, side (A or B), what happened, and the side's ply after it. For one
/// game replayed alone (`banco soak --first N --games 1`).
fn trace<G: MatchGame>(now: u64, p: &Player<G>, what: fmt::Arguments<'_>) {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *ON.get_or_init(|| std::env::var_os("BANCO_SIM_TRACE").is_some()) {
        let side = if p.is_a { "A" } else { "B" };
        eprintln!("{now} {side} {what} (ply {:?})", p.session.ply());
    }
}

/// Reacts to a player's events; returns true if the link should be cut.
fn handle_events<G: MatchGame>(
    p: &mut Player<G>,
    config: &SoakConfig,
    now: u64,
    rng: &mut ChaCha8Rng,
    report: &mut SoakReport,
) -> bool {
    let mut cut = false;
    while let Some(ev) = p.session.poll_event() {
        trace(now, p, format_args!("{ev:?}"));
        match ev {
            Event::VerifyPeer { .. } => {
                let _ = p.session.confirm_peer(false);
                propose_once(p, config, now, rng);
            }
            Event::PeerVerified { .. } => propose_once(p, config, now, rng),
            Event::Proposed(_) => {
                let _ = p.session.accept_proposal(now);
            }
            Event::MatchStarted(_) => p.line.clear(),
            Event::MovePlayed { ply, mv, .. }
            | Event::ChanceDrawn {
                ply, outcome: mv, ..
            } => {
                let ply = ply as usize;
                if ply < p.line.len() {
                    report.duplicated += 1;
                    p.line.truncate(ply);
                } else if ply > p.line.len() {
                    report.lost += (ply - p.line.len()) as u64;
                    p.line = p
                        .session
                        .moves()
                        .map(<[G::Move]>::to_vec)
                        .unwrap_or_default();
                    continue;
                }
                p.line.push(mv);
            }
            Event::Undone { to_ply } => {
                if !p.is_a {
                    report.undos += 1;
                }
                p.line = p
                    .session
                    .moves()
                    .map(<[G::Move]>::to_vec)
                    .unwrap_or_default();
                p.line.truncate(to_ply as usize);
            }
            Event::UndoRequested { .. } => {
                let _ = p.session.reply_undo(chance(rng, 600), now);
            }
            Event::DrawOffered => {
                let _ = p.session.reply_draw(chance(rng, 200), now);
            }
            Event::PeerIllegalMove { .. } | Event::Desync { .. } => p.bad_events += 1,
            Event::Closed { reason } if std::env::var_os("BANCO_SIM_DEBUG").is_some() => {
                eprintln!(
                    "{now} {} closed: {reason:?}",
                    if p.is_a { "A" } else { "B" }
                );
            }
            Event::LinkDown { reason } => {
                if std::env::var_os("BANCO_SIM_DEBUG").is_some() {
                    eprintln!(
                        "{now} {} link down: {reason}",
                        if p.is_a { "A" } else { "B" }
                    );
                }
                cut = true;
            }
            _ => {}
        }
    }
    cut
}

fn propose_once<G: MatchGame>(
    p: &mut Player<G>,
    config: &SoakConfig,
    now: u64,
    rng: &mut ChaCha8Rng,
) {
    if !p.is_a || p.proposed || !p.session.peer().is_some_and(|i| i.verified) {
        return;
    }
    p.proposed = true;
    let clock = match below(rng, 10) {
        0..=5 => None,
        6..=8 => Some(ClockSpec {
            base_ms: 120_000,
            increment_ms: 2_000,
        }),
        _ => Some(ClockSpec {
            base_ms: 10_000,
            increment_ms: 0,
        }),
    };
    let local_color = if chance(rng, 500) {
        Color::Red
    } else {
        Color::Black
    };
    let spec = MatchSpec {
        rules: config.rules,
        clock,
        ..MatchSpec::new(config.game, local_color)
    };
    let _ = p.session.propose(spec, now);
}

/// Schedules and takes the player's actions.
fn act<G: MatchGame>(
    p: &mut Player<G>,
    now: u64,
    rng: &mut ChaCha8Rng,
    max_plies: u32,
    choose: &mut dyn FnMut(&G, u64) -> Option<G::Move>,
) {
    let Some(local) = p.session.match_spec().map(|s| s.local_color) else {
        return;
    };
    let Some(game) = p.session.game() else { return };
    // While a chance step waits for its draw, nobody moves.
    let my_turn =
        p.session.outcome().is_none() && game.side_to_move() == local && !game.awaits_chance();
    match p.next_action {
        None if my_turn => p.next_action = Some(now + 20 + below(rng, 400)),
        Some(t) if t <= now => {
            p.next_action = None;
            if !my_turn {
                return;
            }
            if p.session.ply().unwrap_or(0) >= max_plies || chance(rng, 3) {
                trace(now, p, format_args!("resigns"));
                let _ = p.session.resign(now);
                return;
            }
            if p.session.claimable_draw().is_some() && chance(rng, 300) {
                let _ = p.session.claim_draw(now);
                return;
            }
            let choice = choose(game, rng.next_u64());
            let offer = chance(rng, 20);
            let Some(mv) = choice else {
                let _ = p.session.resign(now);
                return;
            };
            if p.session.play(mv, now).is_ok() {
                // A draw is offered after moving (a move withdraws an offer made before).
                if offer {
                    let _ = p.session.offer_draw(now);
                }
                trace(now, p, format_args!("played, offers a draw: {offer}"));
                if chance(rng, 40) {
                    let asked = p.session.request_undo(now);
                    trace(now, p, format_args!("asks to undo: {asked:?}"));
                }
            }
        }
        _ => {}
    }
}
