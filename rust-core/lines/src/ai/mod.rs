//! The computer player of Lines and the hint: [`hint`] returns the move it would play and
//! why ([`Reason`]: the line it completes or builds). [`greedy_move`] is the one-move
//! greedy baseline it is measured against; [`play_out`] plays a whole seeded game.
//!
//! The player (see [`search`]) judges every legal move by [`eval`] (free area, runs of
//! each colour, lines ready to complete, the moves the cheapest lines of each colour still
//! need ([`plan`]), windows blocked by one odd ball, free regions, dead and walled-in
//! balls) with the
//! expected effect of the announced balls landing, keeps the best few, and plays each out
//! over Monte Carlo samples of where they land, followed by the best next move. Its effort
//! is a [`Budget`] of candidates, samples and replies — counts, not time, so a seed and a
//! budget always give the same move.
//!
//! The search asks a [`value::Value`] for the worth of a board after a move; the default
//! is the hand-built [`eval`] ([`eval::Weights`]). [`learned`] is the alternative learned
//! by temporal differences over [`features`] tables (`examples/td_train.rs`); no trained
//! table has beaten the hand-built evaluation yet (`data/tuning.md`), so the generated
//! [`learned_weights`] hold zero tables on top of it.
//!
//! ```
//! use banco_lines::{LinesGame, Settings, ai};
//! let game = LinesGame::new(Settings::default(), [9; 32]);
//! let hint = ai::hint(&game, &ai::Budget::fast(), 1).expect("a move");
//! assert!(game.check_move(hint.mv.from, hint.mv.to).is_ok());
//! assert!(!hint.reason.to_string().is_empty());
//! ```

pub mod eval;
pub mod features;
pub mod learned;
pub mod learned_weights;
pub mod plan;
pub mod preview;
pub mod rollout;
pub mod search;
pub mod summary;
pub mod value;

use crate::board::{Ball, Board, Cell};
use crate::game::{LinesGame, Move, NEXT, TurnReport};
use crate::lines::{DIRECTIONS, run_length};
use banco_game::ScoreGame;
use core::fmt;
use eval::Weights;
use value::Value;

/// Playouts of the apps' hint ([`Budget::hint`]): 100 playouts (16 kept moves × 66 cheap
/// playouts, halved over four rounds). Under the spawn rule of every new game it reaches a
/// median of 1,288 and a mean of 1,559.5 over the bench's seeds 1–300, +222 ± 65 points a
/// game over budget 30 paired game by game (`data/tuning.md`, thirty-fifth and
/// thirty-sixth sessions), at about 140 ms of one desktop core a move (3.1 times budget
/// 30's), spread over up to four cores. Budget 30 (8 × 40), the hint before, scored +209 ±
/// 33 over the first stage alone (seventh session); under the rule at landing more than 30
/// had bought nothing.
pub const HINT_PLAYOUTS: usize = 100;

/// How hard the computer thinks about one move: counts, never time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Moves kept from the first stage (every legal move judged in closed form) and played
    /// out over samples by successive halving.
    pub candidates: usize,
    /// Monte Carlo samples of the landing per kept move in the first round of successive
    /// halving (0: the first stage decides); each later round keeps the better half and
    /// doubles the survivors' samples, so every round costs about `candidates × samples`
    /// playouts.
    pub samples: usize,
    /// After each sample, judge every legal reply (a two-move look-ahead) rather than only
    /// the replies that complete a line.
    pub replies: bool,
    /// Turns each sample plays on after the landing by the fast policy of [`rollout`]
    /// (every candidate, line moves too, judged by rollouts through the same successive
    /// halving; the sample's value is the points made and [`rollout::TERMINAL`] times the
    /// value of the board it ends on). 0: the sample is judged by the next move alone, as
    /// [`Budget::replies`] says. No [`Budget::from_playouts`] budget uses rollouts: they
    /// measured no better than the playouts (`data/tuning.md`, seventeenth session).
    pub depth: usize,
    /// With [`Budget::replies`]: 0 judges every legal reply after each sample; otherwise a
    /// cheaper playout judges only the `shortlist` best quiet replies (chosen once per
    /// kept move, on its board before the landing, colours unknown) that are still legal
    /// after the landing, and every reply that completes a line.
    pub shortlist: usize,
    /// Threads that play stage two's samples (1: the caller's thread alone). The samples
    /// are the same and are gathered in the same order whatever the count, so the move
    /// and its value do not depend on it: more threads buy the same move sooner (at most
    /// [`search::MAX_THREADS`], and never more than a round has samples).
    pub threads: usize,
}

impl Budget {
    /// A quick hint (a few milliseconds).
    #[must_use]
    pub const fn fast() -> Budget {
        Budget {
            candidates: 1,
            samples: 0,
            replies: false,
            depth: 0,
            threads: 1,
            shortlist: 0,
        }
    }

    /// The budget of about `playouts` playouts per move (one playout = one landing sample
    /// of one candidate followed by a judgement of every legal reply, about a millisecond
    /// and a half on a desktop core): the bench's `--budget`. 0 or 1: the first stage alone
    /// ([`Budget::fast`]). Below [`CHEAP_FROM`]: full playouts, `candidates` = 0.4
    /// √playouts (at least 2) kept moves, halved each round over ⌈log₂ candidates⌉
    /// rounds of `candidates × samples` playouts (10 → 2 × 5 in one round). From
    /// [`CHEAP_FROM`] on: cheap playouts ([`Budget::shortlist`] = [`SHORTLIST`]), which
    /// at equal CPU time beat full ones at 30 (`data/tuning.md`, sixth session):
    /// `candidates` = (playouts + 2) / 4 (from 2 to 16), each costing a playout and a half for its
    /// shortlist, and [`CHEAP_PER_PLAYOUT`] cheap playouts for every playout left after
    /// those and stage one (30 → 8 × 40 in three rounds, 100 → 16 × 66 in four). Cheap
    /// playouts without a shortlist (only the replies that complete a line) and rollouts
    /// ([`Budget::depth`]) measured worse (`tests/suite/strength.rs`, `data/tuning.md`), so no
    /// budget uses them. More than [`MAX_PLAYOUTS`] counts as [`MAX_PLAYOUTS`] (seconds a
    /// move already; a larger count would only make the search's sample tables too big to
    /// allocate).
    #[must_use]
    pub fn from_playouts(playouts: usize) -> Budget {
        let playouts = playouts.min(MAX_PLAYOUTS);
        if playouts <= 1 {
            return Budget::fast();
        }
        if playouts >= CHEAP_FROM {
            let candidates = ((playouts + 2) / 4).clamp(2, 16);
            let spare = playouts.saturating_sub(1 + (3 * candidates).div_ceil(2));
            let samples = (spare * CHEAP_PER_PLAYOUT / halving_playouts(candidates, 1)).max(1);
            return Budget {
                candidates,
                samples,
                replies: true,
                depth: 0,
                shortlist: SHORTLIST,
                threads: 1,
            };
        }
        let candidates = ((playouts as f64).sqrt() * 0.4).round().clamp(2.0, 16.0) as usize;
        let rounds = candidates.next_power_of_two().trailing_zeros() as usize;
        let samples = (playouts / (candidates * rounds.max(1))).max(1);
        Budget {
            candidates,
            samples,
            replies: true,
            depth: 0,
            shortlist: 0,
            threads: 1,
        }
    }

    /// The hint's budget in the apps: [`HINT_PLAYOUTS`] playouts (about 140 ms of one
    /// desktop core; measured stronger than budget 30 and the first stage alone,
    /// `data/tuning.md`), its samples spread over up to four of the machine's cores.
    #[must_use]
    pub fn hint() -> Budget {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Budget::from_playouts(HINT_PLAYOUTS).with_threads(cores.min(4))
    }

    /// The same budget with stage two's samples spread over `threads` threads (at least
    /// one): the same move, sooner.
    ///
    /// ```
    /// use banco_lines::{LinesGame, Settings, ai::{self, Budget}};
    /// let game = LinesGame::new(Settings::default(), [4; 32]);
    /// let one = ai::hint(&game, &Budget::from_playouts(20), 9);
    /// let two = ai::hint(&game, &Budget::from_playouts(20).with_threads(2), 9);
    /// assert_eq!(one, two);
    /// ```
    #[must_use]
    pub const fn with_threads(self, threads: usize) -> Budget {
        Budget {
            threads: if threads == 0 { 1 } else { threads },
            ..self
        }
    }

    /// This budget within the bounds every search keeps to: at most [`MAX_CANDIDATES`]
    /// kept moves, rollouts of at most [`MAX_DEPTH`] turns, and no more samples than about
    /// [`MAX_PLAYOUTS`] playouts' worth over the halving rounds, counted for the kind of
    /// sample the budget plays (a full playout, a cheap one or a rollout, as in
    /// [`Budget::playouts`]). A budget built by hand beyond them (its fields are public)
    /// counts as that much; every budget of [`Budget::from_playouts`] is within them
    /// already.
    ///
    /// ```
    /// use banco_lines::ai::{Budget, MAX_CANDIDATES, MAX_PLAYOUTS};
    /// let huge = Budget { candidates: usize::MAX, samples: usize::MAX, ..Budget::from_playouts(100) };
    /// assert_eq!(huge.bounded().candidates, MAX_CANDIDATES);
    /// assert!(huge.playouts() <= 2 * MAX_PLAYOUTS);
    /// let deep = Budget { depth: usize::MAX, ..huge };
    /// assert!(deep.playouts() <= 2 * MAX_PLAYOUTS);
    /// assert_eq!(Budget::from_playouts(MAX_PLAYOUTS).bounded(), Budget::from_playouts(MAX_PLAYOUTS));
    /// ```
    #[must_use]
    pub fn bounded(self) -> Budget {
        let candidates = self.candidates.min(MAX_CANDIDATES);
        let depth = self.depth.min(MAX_DEPTH);
        // Samples of one first round, counted over all rounds, in the unit of each kind.
        let per_sample = halving_playouts(candidates.max(2), 1);
        let most = if depth > 0 {
            MAX_PLAYOUTS * ROLLOUT_TURNS_PER_PLAYOUT / (per_sample * depth)
        } else if self.replies && self.shortlist > 0 {
            MAX_PLAYOUTS * CHEAP_PER_PLAYOUT / per_sample
        } else {
            MAX_PLAYOUTS / per_sample
        };
        Budget {
            candidates,
            samples: self.samples.min(most.max(1)),
            depth,
            ..self
        }
    }

    /// Playouts this budget spends on a move at most, in full playouts: `candidates ×
    /// samples × rounds` (1 for the first stage alone); with a shortlist, stage one, a
    /// playout and a half per candidate for its shortlist and one per
    /// [`CHEAP_PER_PLAYOUT`] cheap playouts (counted round by round: 5 candidates play
    /// 5 + 3 × 2 + 2 × 4 = 19 times `samples`); with rollouts ([`Budget::depth`]), stage
    /// one and one per [`ROLLOUT_TURNS_PER_PLAYOUT`] turns of rollouts. Counted for the
    /// budget [`Budget::bounded`] gives, as the search spends it.
    #[must_use]
    pub fn playouts(&self) -> usize {
        let b = self.bounded();
        b.count_playouts()
    }

    fn count_playouts(self) -> usize {
        if self.candidates <= 1 || self.samples == 0 {
            return 1;
        }
        let rounds = self.candidates.next_power_of_two().trailing_zeros() as usize;
        if self.depth > 0 {
            let turns = halving_playouts(self.candidates, self.samples) * self.depth;
            1 + turns.div_ceil(ROLLOUT_TURNS_PER_PLAYOUT)
        } else if self.replies && self.shortlist > 0 {
            let cheap = halving_playouts(self.candidates, self.samples);
            1 + (3 * self.candidates).div_ceil(2) + cheap.div_ceil(CHEAP_PER_PLAYOUT)
        } else {
            self.candidates * self.samples * rounds.max(1)
        }
    }
}

/// The playouts successive halving spends on `candidates` kept moves with `samples` in
/// the first round: each round every survivor gets as many new samples as it had (twice
/// the round before), the better half (rounded up) goes on, until two are left.
fn halving_playouts(candidates: usize, samples: usize) -> usize {
    let (mut alive, mut per, mut total) = (candidates, samples, 0);
    loop {
        total += alive * per;
        if alive <= 2 {
            return total;
        }
        alive = alive.div_ceil(2);
        per *= 2;
    }
}

/// The largest budget [`Budget::from_playouts`] gives: 10,000 playouts, some seconds a move
/// on a desktop core (budget 100 takes about 140 ms a move, budget 30 about 46: `data/tuning.md`,
/// thirty-fifth session).
pub const MAX_PLAYOUTS: usize = 10_000;

/// The most moves stage two keeps ([`Budget::bounded`]): [`Budget::from_playouts`] keeps
/// 16 at most.
pub const MAX_CANDIDATES: usize = 64;

/// The longest rollout, in turns ([`Budget::depth`], [`Budget::bounded`]).
pub const MAX_DEPTH: usize = 1_000;

/// The smallest [`Budget::from_playouts`] budget that spends cheap playouts (below it, too
/// few playouts are left after the candidates' shortlists; 10 plays full playouts as
/// before, cheap ones were measured at 30).
pub const CHEAP_FROM: usize = 20;

/// The replies a cheap playout of [`Budget::from_playouts`] re-judges ([`Budget::shortlist`]).
pub const SHORTLIST: usize = 10;

/// Cheap playouts per full playout in [`Budget::from_playouts`]: one costs about 1/77 of a
/// full one alone (`data/tuning.md`, sixth session); 57 leaves room for the sampling and
/// the bookkeeping, and makes 30 the measured 8 × 40.
pub const CHEAP_PER_PLAYOUT: usize = 57;

/// Turns of a rollout ([`rollout::step`], about 5.4 µs of a desktop core) that cost as
/// much as one full playout (about 875 µs, `data/tuning.md`, sixth and seventeenth
/// sessions).
pub const ROLLOUT_TURNS_PER_PLAYOUT: usize = 150;

/// Why the computer suggests a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The move completes lines.
    Completes {
        /// Lines completed (2 when the moved ball crosses two, …).
        lines: usize,
        /// Balls removed (the moved one included).
        balls: usize,
        /// Colour of the lines.
        color: Ball,
        /// Points scored.
        points: u32,
    },
    /// The move adds a ball to a line in the making: the five cells from `start` to
    /// `end` (a rank, file or diagonal) then hold `length` balls of its colour and no
    /// other ball.
    Builds {
        /// Balls of the colour in those five cells, the moved one included (2 to 4).
        length: usize,
        /// Its colour.
        color: Ball,
        /// The first of the five cells (lowest index).
        start: Cell,
        /// The last of the five cells.
        end: Cell,
    },
    /// The move makes room or keeps the board open rather than build a run.
    Opens {
        /// The colour moved.
        color: Ball,
    },
    /// The board has no more free cells than balls to land, and no move builds or
    /// completes a line: the landing fills it (unless the balls that land complete one).
    Fills {
        /// The colour moved.
        color: Ball,
        /// Free cells left.
        free: usize,
    },
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Reason::Completes {
                lines: 0 | 1,
                balls,
                color,
                points,
            } => write!(f, "completes a line of {balls} {color} ({points} points)"),
            Reason::Completes {
                lines,
                balls,
                color,
                points,
            } => write!(
                f,
                "completes {lines} lines at once: {balls} {color} balls ({points} points)"
            ),
            Reason::Builds {
                length,
                color,
                start,
                end,
            } => write!(
                f,
                "builds a line of {color}: {length} of 5 on {start} to {end}"
            ),
            Reason::Opens { color } => write!(f, "moves {color} aside to keep the board open"),
            Reason::Fills { color, free } => write!(
                f,
                "moves {color}: with {free} free {} left, the balls that land fill the board \
                 unless they complete a line",
                if free == 1 { "cell" } else { "cells" }
            ),
        }
    }
}

/// The computer's suggestion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hint {
    /// The move.
    pub mv: Move,
    /// Why.
    pub reason: Reason,
    /// The expected value the search gave it (points plus evaluation).
    pub value: f32,
}

/// The move the computer would play in `game`, with its reason; `None` when the game is
/// over. Deterministic for a seed and a budget; it uses only what the player sees (the
/// board, the announced colours and, with the preview, where they land), never the game's
/// own random source. With the preview the search judges its best moves on their known
/// landing ([`preview`]).
#[must_use]
pub fn hint(game: &LinesGame, budget: &Budget, seed: u64) -> Option<Hint> {
    if game.is_over() {
        return None;
    }
    let board = game.board();
    let (c, value) = choose(game, budget, seed, &Weights::default())?;
    let color = board.get(c.from)?;
    let mut after = *board;
    after.set(c.from, None);
    let code = color.index() as u8 + 1;
    let reason = if c.points > 0 {
        let lines = crate::lines::DIRECTIONS
            .iter()
            .filter(|&&(df, dr)| {
                crate::lines::run_length(&after, c.to, code, df, dr) >= crate::lines::MIN_LINE
            })
            .count();
        Reason::Completes {
            lines,
            balls: c.cleared.len(),
            color,
            points: c.points,
        }
    } else {
        let (length, start, end) = best_window(&after, c.to, code);
        let free = board.empty_count();
        if length >= 2 {
            Reason::Builds {
                length,
                color,
                start,
                end,
            }
        } else if free <= NEXT {
            Reason::Fills { color, free }
        } else {
            Reason::Opens { color }
        }
    };
    Some(Hint {
        mv: Move {
            from: c.from,
            to: c.to,
        },
        reason,
        value,
    })
}

/// The computer's move in `game` and its value: the preview's search when the game shows
/// where the balls land, the two-stage search otherwise.
fn choose(
    game: &LinesGame,
    budget: &Budget,
    seed: u64,
    value: &(impl Value + ?Sized),
) -> Option<(search::Candidate, f32)> {
    let next = game.next_colors();
    let spots = game.next_spots();
    if spots.is_empty() {
        let spots = game.spot_cells();
        search::best_move_in(game.board(), spots, &next, budget, seed, value)
    } else {
        preview::best_move_with(game.board(), &next, &spots, budget, value)
    }
}

/// The five-cell window through `at` holding most balls of colour `code` and no other
/// colour (as if a ball of that colour stood on `at`): the count and its end cells,
/// lowest first; `(1, at, at)` if every window through `at` holds another colour.
fn best_window(board: &crate::board::Board, at: Cell, code: u8) -> (usize, Cell, Cell) {
    let mut best = (1, at, at);
    for cells in &eval::WINDOW_CELLS {
        if !cells.contains(&(at.index() as u8)) {
            continue;
        }
        let mut count = 0;
        let mut pure = true;
        for &c in cells {
            match board.code(c as usize) {
                _ if c as usize == at.index() => count += 1,
                0 => {}
                v if v == code => count += 1,
                _ => pure = false,
            }
        }
        let lo = cells.iter().copied().min().unwrap_or(0);
        let hi = cells.iter().copied().max().unwrap_or(0);
        if let (true, Ok(a), Ok(b)) = (
            pure && count > best.0,
            Cell::from_index(lo as usize),
            Cell::from_index(hi as usize),
        ) {
            best = (count, a, b);
        }
    }
    best
}

/// The greedy one-move player: the move that scores most now, else the one that makes
/// the longest run of its colour (ties: the first in board order). The baseline the
/// computer player must beat.
#[must_use]
pub fn greedy_move(game: &LinesGame) -> Option<Move> {
    if game.is_over() {
        return None;
    }
    let board = game.board();
    let mut best: Option<(Move, (u32, usize))> = None;
    for from in Cell::all() {
        let Some(ball) = board.get(from) else {
            continue;
        };
        let mut after = *board;
        after.set(from, None);
        let code = ball.index() as u8 + 1;
        for to in game.reachable(from).iter() {
            after.set(to, Some(ball));
            let pts = crate::score::points(crate::lines::lines_through(&after, to).len());
            let run = DIRECTIONS
                .iter()
                .map(|&(df, dr)| run_length(&after, to, code, df, dr))
                .max()
                .unwrap_or(1);
            after.set(to, None);
            if best.is_none_or(|(_, k)| (pts, run) > k) {
                best = Some((Move { from, to }, (pts, run)));
            }
        }
    }
    best.map(|(m, _)| m)
}

/// Who plays a game out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// The computer player with a budget.
    Computer(Budget),
    /// The greedy baseline.
    Greedy,
}

/// How a played-out game went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// Final score.
    pub score: u32,
    /// Turns played.
    pub turns: u32,
    /// True if the board filled up (false: stopped at the turn limit).
    pub finished: bool,
}

impl PlayedGame {
    /// How `game` stands now.
    fn of(game: &LinesGame) -> PlayedGame {
        PlayedGame {
            score: game.score(),
            turns: game.turns(),
            finished: game.is_over(),
        }
    }
}

/// Plays `game` out with `player` until the board is full or `max_turns` turns were
/// played; the computer's samples are seeded from `seed` and the turn number.
#[must_use]
pub fn play_out(mut game: LinesGame, player: Player, seed: u64, max_turns: u32) -> PlayedGame {
    match player {
        Player::Computer(budget) => {
            play_out_with(game, &budget, &Weights::default(), seed, max_turns, |_| {})
        }
        Player::Greedy => {
            while !game.is_over() && game.turns() < max_turns {
                let Some(mv) = greedy_move(&game) else { break };
                if game.play(mv).is_err() {
                    break;
                }
            }
            PlayedGame::of(&game)
        }
    }
}

/// One turn of a game played out by [`play_out_with`], as its callback sees it.
#[derive(Clone, Copy, Debug)]
pub struct Turn<'a> {
    /// The turn's number (0: the game's first move).
    pub number: u32,
    /// The seed the computer's search for this move was given ([`turn_seed`] of
    /// [`play_out_with`]'s seed and the turn number): the same seed replays the search.
    pub seed: u64,
    /// The board before the move.
    pub before: &'a Board,
    /// The colours announced before the move (they landed unless the move made a line).
    pub next: [Ball; NEXT],
    /// The move played.
    pub mv: Move,
    /// What the turn did.
    pub report: &'a TurnReport,
}

/// The seed of the computer's search for turn `number` of a game played out from `seed`
/// ([`play_out`], [`play_out_with`], the bench): each turn samples its own landings.
///
/// ```
/// use banco_lines::ai::turn_seed;
/// assert_eq!(turn_seed(7, 0), 7);
/// assert_ne!(turn_seed(7, 1), turn_seed(7, 2));
/// ```
#[must_use]
pub const fn turn_seed(seed: u64, number: u32) -> u64 {
    seed ^ ((number as u64) << 32)
}

/// Plays `game` out as [`play_out`] does with the computer at `budget`, judging boards by
/// `value` (the evaluation weights to measure, or a learned value), and calls `on_turn`
/// after each move with the [`Turn`] (for the tuning and diagnostic examples).
///
/// ```
/// use banco_lines::{LinesGame, Settings, ai::{self, Budget, eval::Weights}};
/// let game = LinesGame::new(Settings::default(), [5; 32]);
/// let mut lines = 0;
/// let played = ai::play_out_with(game.clone(), &Budget::fast(), &Weights::default(), 7, 30,
///     |turn| lines += u32::from(!turn.report.cleared.is_empty()));
/// let same = ai::play_out(game, ai::Player::Computer(Budget::fast()), 7, 30);
/// assert_eq!(played, same);
/// assert!(played.turns <= 30 && lines <= played.turns);
/// ```
pub fn play_out_with(
    mut game: LinesGame,
    budget: &Budget,
    value: &(impl Value + ?Sized),
    seed: u64,
    max_turns: u32,
    mut on_turn: impl FnMut(&Turn<'_>),
) -> PlayedGame {
    while !game.is_over() && game.turns() < max_turns {
        let number = game.turns();
        let searched = turn_seed(seed, number);
        let before = *game.board();
        let next = game.next_colors();
        let Some((c, _)) = choose(&game, budget, searched, value) else {
            break;
        };
        let mv = Move {
            from: c.from,
            to: c.to,
        };
        let Ok(report) = game.play(mv) else { break };
        on_turn(&Turn {
            number,
            seed: searched,
            before: &before,
            next,
            mv,
            report: &report,
        });
    }
    PlayedGame::of(&game)
}
