//! The computer player's search, in two stages.
//!
//! 1. Every legal move is judged: a move that completes lines by its points and the board
//!    it leaves (no ball lands, it is our move again); any other move by the evaluation of
//!    its board with the expected effect of the three announced balls landing
//!    ([`eval::after_spawn`], closed form, no sampling).
//! 2. The best few ([`Budget::candidates`]) are played out over Monte Carlo samples of
//!    where the announced balls land and which three colours are announced next (the
//!    same samples for every move: they are compared on the same luck), by successive
//!    halving: after each round the better half goes on with twice the samples, so the
//!    budget goes to the close contenders. Each sampled board is worth the points the
//!    landing made plus the value of our next move on it with the sampled colours known:
//!    with [`Budget::replies`], the best of every legal reply judged exactly as stage 1
//!    judges our move now (a two-move look-ahead) — or, with [`Budget::shortlist`], only
//!    the best few replies of the kept move's board still legal after the landing and
//!    every reply that completes a line (a cheap playout); otherwise the better of
//!    standing still and the best reply that completes a line. A move that completes lines
//!    is followed the same way by our free next move with the same colours announced
//!    (judged once: nothing lands). Stage one's choice is never dropped; the best of the
//!    others replaces it only if it wins by more than [`MARGIN_Z`] standard errors of
//!    their paired differences.
//!
//! Where the balls land follows the game's rule as far as the player knows it
//! ([`best_move_in`]): under the rule of every new game the three spots were drawn among
//! the free cells when the balls were announced (the game's
//! [`spot_cells`](crate::LinesGame::spot_cells), public), so the cell our move leaves takes
//! no ball unless our move takes a spot; stage one weighs each cell by those odds and stage
//! two draws the spots among those cells.
//!
//! ```
//! use banco_lines::{LinesGame, Settings, ai};
//! let game = LinesGame::new(Settings::default(), [3; 32]);
//! let a = ai::search::best_move(game.board(), &game.next_colors(), &ai::Budget::fast(), 1);
//! let b = ai::search::best_move(game.board(), &game.next_colors(), &ai::Budget::fast(), 1);
//! assert_eq!(a, b); // deterministic for a seed and a budget
//! ```

use super::Budget;
use super::eval::{self, Masks, Regions, Weights};
use super::rollout;
use super::value::Value;
use crate::board::{Ball, Board, CELLS, Cell, CellSet};
use crate::lines::lines_through;
use crate::path::{neighbour_bits, spread};
use crate::score::points;

/// The bits of the board's cells in a [`CellSet`] (which can hold more).
const BOARD_BITS: u128 = (1u128 << CELLS) - 1;

/// A legal move with its stage-one value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// The ball's cell.
    pub from: Cell,
    /// The destination.
    pub to: Cell,
    /// Points the move scores at once (0 if it completes no line).
    pub points: u32,
    /// Balls it removes.
    pub cleared: CellSet,
    /// Stage one's value: points plus the evaluation (after the expected landing).
    pub heuristic: f32,
}

/// A small, fast, seeded generator (SplitMix64) for the Monte Carlo samples.
#[derive(Clone, Copy, Debug)]
pub struct SampleRng(u64);

impl SampleRng {
    /// SplitMix64's increment (2⁶⁴ divided by the golden ratio, odd): multiples of it
    /// spread small numbers (seeds, salts) over the whole 64-bit range.
    pub const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

    /// A generator from a seed.
    #[must_use]
    pub const fn new(seed: u64) -> SampleRng {
        SampleRng(seed ^ Self::GAMMA)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(Self::GAMMA);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A standard normal draw (Box–Muller over two uniform draws), for the tuning
    /// examples' Gaussian search.
    pub fn gaussian(&mut self) -> f64 {
        let u1 = ((self.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
        let u2 = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    /// Uniform in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// Value of a full board (the game is over): far below anything else.
pub const LOST: f32 = -10_000.0;

/// Every legal move of `board` judged as in stage one, into `out` (cleared first);
/// `next`: the announced colours (`None`: not known yet).
pub fn candidates(
    board: &Board,
    next: Option<&[Ball]>,
    weights: &(impl Value + ?Sized),
    out: &mut Vec<Candidate>,
) {
    candidates_in(board, CellSet::EMPTY, next, weights, out);
}

/// [`candidates`] when the announced balls' spots were drawn among `spots` (see
/// [`best_move_in`]).
pub fn candidates_in(
    board: &Board,
    spots: CellSet,
    next: Option<&[Ball]>,
    weights: &(impl Value + ?Sized),
    out: &mut Vec<Candidate>,
) {
    out.clear();
    for_each_candidate_in(board, spots, next, weights, |c| out.push(c));
}

/// The best legal move of `board` by its stage-one value (ties: the first in board
/// order), without storing the others: the budget-1 player.
#[must_use]
pub fn best_candidate(
    board: &Board,
    next: Option<&[Ball]>,
    weights: &(impl Value + ?Sized),
) -> Option<Candidate> {
    best_candidate_in(board, CellSet::EMPTY, next, weights)
}

/// [`best_candidate`] when the announced balls' spots were drawn among `spots` (see
/// [`best_move_in`]).
#[must_use]
pub fn best_candidate_in(
    board: &Board,
    spots: CellSet,
    next: Option<&[Ball]>,
    weights: &(impl Value + ?Sized),
) -> Option<Candidate> {
    let mut best: Option<Candidate> = None;
    for_each_candidate_in(board, spots, next, weights, |c| {
        if best.is_none_or(|b| c.heuristic > b.heuristic) {
            best = Some(c);
        }
    });
    best
}

/// Calls `visit` with every legal move of `board` judged as in stage one, in board order
/// (by origin, then destination). No allocation: the board's bit sets are updated move by
/// move.
pub fn for_each_candidate(
    board: &Board,
    next: Option<&[Ball]>,
    weights: &(impl Value + ?Sized),
    visit: impl FnMut(Candidate),
) {
    for_each_candidate_in(board, CellSet::EMPTY, next, weights, visit);
}

/// [`for_each_candidate`] when the announced balls' spots were drawn among `spots` (see
/// [`best_move_in`]; empty: they land on random free cells after the move).
pub fn for_each_candidate_in(
    board: &Board,
    spots: CellSet,
    next: Option<&[Ball]>,
    weights: &(impl Value + ?Sized),
    mut visit: impl FnMut(Candidate),
) {
    let mut masks = Masks::of(board);
    masks.spots = spots.0 & BOARD_BITS; // only the board's cells can be spots
    let regions = Regions::of(masks.empty);
    let free = masks.empty.count_ones();
    for from in Cell::all() {
        let fi = from.index();
        let code = board.code(fi);
        if code == 0 {
            continue;
        }
        let reach = regions.reach(neighbour_bits(from));
        if reach == 0 {
            continue;
        }
        let ball = Ball::from_index(code as usize - 1);
        let mut after = *board;
        after.set(from, None);
        let mut lifted = masks;
        let from_bit = 1u128 << fi;
        lifted.color[code as usize] &= !from_bit;
        lifted.color[0] |= from_bit;
        lifted.empty |= from_bit;
        for to in CellSet(reach).iter() {
            after.set(to, ball);
            let cleared = lines_through(&after, to);
            let pts = points(cleared.len());
            let heuristic = if cleared.is_empty() {
                if free <= 3 {
                    LOST
                } else {
                    let to_bit = 1u128 << to.index();
                    let mut m = lifted;
                    m.color[code as usize] |= to_bit;
                    m.color[0] &= !to_bit;
                    m.empty &= !to_bit;
                    weights.after_move(&after, &m, next)
                }
            } else {
                let mut b = after;
                b.clear(cleared);
                pts as f32 + weights.after_line(&b, next, cleared.len())
            };
            visit(Candidate {
                from,
                to,
                points: pts,
                cleared,
                heuristic,
            });
            after.set(to, None);
        }
    }
}

/// Keeps the `k` best candidates by stage-one value, best first (stable: ties keep board
/// order).
pub fn prune(cands: &mut Vec<Candidate>, k: usize) {
    cands.sort_by(|a, b| b.heuristic.total_cmp(&a.heuristic));
    cands.truncate(k.max(1));
}

/// Plays `c` on `board`: moves the ball and removes its lines.
pub fn apply(board: &mut Board, c: &Candidate) {
    let ball = board.get(c.from);
    board.set(c.from, None);
    board.set(c.to, ball);
    board.clear(c.cleared);
}

/// Lands `balls` on random empty cells of `board`, removes the lines they complete and
/// returns the points. Each ball draws cells of the whole board until one is empty
/// (uniform over the empty cells): two boards that differ in a few cells, sampled with
/// the same generator, see the balls land on the same cells wherever both are empty —
/// candidates are compared on the same luck.
pub fn land_random(board: &mut Board, balls: &[Ball], rng: &mut SampleRng) -> u32 {
    let mut landed = CellSet::EMPTY;
    for &b in balls {
        if board.is_full() {
            break;
        }
        loop {
            let i = rng.below(CELLS);
            if board.code(i) == 0 {
                if let Ok(c) = Cell::from_index(i) {
                    board.set(c, Some(b));
                    landed.insert(c);
                }
                break;
            }
        }
    }
    let mut cleared = CellSet::EMPTY;
    for c in landed.iter() {
        cleared.0 |= lines_through(board, c).0;
    }
    board.clear(cleared);
    points(cleared.len())
}

/// Lands `balls` as the game does when their spots were drawn among `spots` (the free
/// cells when they were announced; empty: [`land_random`]): each ball's spot is drawn
/// among those cells (distinct; none once they run out), the ball lands there if it is
/// free, else on a random free cell other than the later balls' spots; then the lines
/// they complete are removed. Returns the points. The spots are drawn first, from `spots`
/// alone: boards that differ only in where a move went see the same spots.
pub fn land_spots(board: &mut Board, spots: CellSet, balls: &[Ball], rng: &mut SampleRng) -> u32 {
    if spots.is_empty() {
        return land_random(board, balls, rng);
    }
    // Only the board's cells: a set with bits beyond them (which `CellSet` allows) would
    // leave draws that can never hit.
    let mut left = spots.0 & BOARD_BITS;
    let mut drawn = [None::<usize>; 3];
    for slot in drawn.iter_mut().take(balls.len()) {
        if left == 0 {
            break;
        }
        loop {
            let i = rng.below(CELLS);
            if left & (1u128 << i) != 0 {
                left &= !(1u128 << i);
                *slot = Some(i);
                break;
            }
        }
    }
    let mut landed = CellSet::EMPTY;
    for (k, &b) in balls.iter().enumerate().take(drawn.len()) {
        if board.is_full() {
            break;
        }
        let spot = drawn.get(k).copied().flatten();
        let mut cell = spot.filter(|&i| board.code(i) == 0);
        if cell.is_none() {
            let later = drawn
                .iter()
                .skip(k + 1)
                .flatten()
                .fold(0u128, |acc, &i| acc | (1u128 << i));
            let free = board.empties().0;
            let open = if free & !later != 0 {
                free & !later
            } else {
                free
            };
            cell = loop {
                let i = rng.below(CELLS);
                if open & (1u128 << i) != 0 {
                    break Some(i);
                }
            };
        }
        if let Some(c) = cell.and_then(|i| Cell::from_index(i).ok()) {
            board.set(c, Some(b));
            landed.insert(c);
        }
    }
    let mut cleared = CellSet::EMPTY;
    for c in landed.iter() {
        cleared.0 |= lines_through(board, c).0;
    }
    board.clear(cleared);
    points(cleared.len())
}

/// How a playout judges our reply on its sampled board.
#[derive(Clone, Copy, Debug)]
enum Replies<'a> {
    /// The better of standing still and every reply that completes a line.
    Lines,
    /// Every legal reply.
    All,
    /// The shortlisted replies still legal and every reply that completes a line.
    Shortlist(&'a [Reply]),
}

impl<'a> Replies<'a> {
    /// How `budget` judges a playout's reply, `shortlist` being the kept move's.
    fn of(budget: &Budget, shortlist: &'a [Reply]) -> Replies<'a> {
        match (budget.replies, budget.shortlist) {
            (false, _) => Replies::Lines,
            (true, 0) => Replies::All,
            (true, _) => Replies::Shortlist(shortlist),
        }
    }

    /// Every reply rather than only the lines ([`Replies::Lines`] is for quiet moves'
    /// samples; a line move's free reply is always judged in full or by the shortlist).
    fn or_all(self) -> Replies<'a> {
        match self {
            Replies::Lines => Replies::All,
            other => other,
        }
    }
}

/// A shortlisted reply: the ball of colour `code` on `from` moves to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Reply {
    from: Cell,
    to: Cell,
    code: u8,
}

/// The `k` best replies on `board` by stage-one value with the colours unknown, those
/// that complete a line left out (a playout finds those on its own board), best first.
fn shortlist(
    board: &Board,
    k: usize,
    weights: &(impl Value + ?Sized),
    scratch: &mut Vec<Candidate>,
) -> Vec<Reply> {
    candidates(board, None, weights, scratch);
    scratch.retain(|c| c.points == 0);
    scratch.sort_by(|a, b| b.heuristic.total_cmp(&a.heuristic));
    scratch
        .iter()
        .take(k)
        .map(|c| Reply {
            from: c.from,
            to: c.to,
            code: board.code(c.from.index()),
        })
        .collect()
}

/// The value of `board` when it is our move with `next` announced (`None`: not known),
/// by the replies `replies` says: the best stage-one value of every legal reply, of the
/// shortlisted replies still legal and those that complete a line, or the better of
/// standing still (the evaluation after the expected landing) and every move that
/// completes a line at once.
fn value_to_move(
    board: &Board,
    spots: CellSet,
    next: Option<&[Ball]>,
    replies: Replies<'_>,
    weights: &(impl Value + ?Sized),
    scratch: &mut Vec<Candidate>,
) -> f32 {
    if board.is_full() {
        return LOST;
    }
    let list = match replies {
        Replies::All => {
            candidates_in(board, spots, next, weights, scratch);
            return scratch.iter().map(|c| c.heuristic).fold(LOST, f32::max);
        }
        Replies::Lines => None,
        Replies::Shortlist(list) => Some(list),
    };
    let mut masks = Masks::of(board);
    masks.spots = spots.0 & BOARD_BITS; // only the board's cells can be spots
    let regions = Regions::of(masks.empty);
    let mut best = LOST;
    if let Some(list) = list {
        for r in list {
            let legal = board.code(r.from.index()) == r.code
                && regions.reach(neighbour_bits(r.from)) & (1u128 << r.to.index()) != 0;
            if legal {
                best = best.max(judge_reply(board, &masks, r, next, weights));
            }
        }
    }
    if best == LOST && board.empty_count() > 3 {
        // Standing still: the evaluation after the expected landing (also when no
        // shortlisted reply is legal any more).
        best = weights.after_move(board, &masks, next);
    }
    best.max(best_line_reply(board, &masks, &regions, next, weights))
}

/// The stage-one value of the reply `r` on `board` (whose masks are `masks`).
fn judge_reply(
    board: &Board,
    masks: &Masks,
    r: &Reply,
    next: Option<&[Ball]>,
    weights: &(impl Value + ?Sized),
) -> f32 {
    let code = r.code as usize & 7;
    let mut after = *board;
    after.set(r.from, None);
    after.set(r.to, Ball::from_index(code.wrapping_sub(1)));
    let cleared = lines_through(&after, r.to);
    if cleared.is_empty() {
        if masks.empty.count_ones() <= 3 {
            return LOST;
        }
        let (from_bit, to_bit) = (1u128 << r.from.index(), 1u128 << r.to.index());
        let mut m = *masks;
        m.color[code] = (m.color[code] & !from_bit) | to_bit;
        m.color[0] = (m.color[0] | from_bit) & !to_bit;
        m.empty = m.color[0];
        weights.after_move(&after, &m, next)
    } else {
        after.clear(cleared);
        points(cleared.len()) as f32 + weights.after_line(&after, next, cleared.len())
    }
}

/// The best stage-one value of the moves of `board` that complete a line at once
/// ([`LOST`] if none does): only windows holding four balls of one colour and a free cell
/// are looked at.
fn best_line_reply(
    board: &Board,
    masks: &Masks,
    regions: &Regions,
    next: Option<&[Ball]>,
    weights: &(impl Value + ?Sized),
) -> f32 {
    let mut best = LOST;
    let mut tried = [0u128; CELLS];
    for &mask in &eval::WINDOW_MASKS {
        let occ = mask & !masks.empty;
        if occ.count_ones() != 4 {
            continue;
        }
        let code = board.code(occ.trailing_zeros() as usize) as usize & 7;
        if occ & !masks.color[code] != 0 {
            continue;
        }
        let hole_bit = mask & masks.empty;
        let hole = hole_bit.trailing_zeros() as usize;
        let Ok(hole_cell) = Cell::from_index(hole) else {
            continue;
        };
        let region = regions.containing(hole_bit);
        let Some(tried_here) = tried.get_mut(hole) else {
            continue;
        };
        let movers = spread(region) & masks.color[code] & !occ & !*tried_here;
        *tried_here |= movers;
        for from in CellSet(movers).iter() {
            let mut b = *board;
            b.set(from, None);
            b.set(hole_cell, Ball::from_index(code - 1));
            let cleared = lines_through(&b, hole_cell);
            if cleared.is_empty() {
                continue;
            }
            b.clear(cleared);
            let v = points(cleared.len()) as f32 + weights.after_line(&b, next, cleared.len());
            best = best.max(v);
        }
    }
    best
}

/// The move the computer plays on `board` with `next` announced, with its expected value;
/// `None` if no ball can move. Deterministic for a seed and a budget.
#[must_use]
pub fn best_move(
    board: &Board,
    next: &[Ball],
    budget: &Budget,
    seed: u64,
) -> Option<(Candidate, f32)> {
    best_move_with(board, next, budget, seed, &Weights::default())
}

/// [`best_move`] with other evaluation weights (for tuning).
#[must_use]
pub fn best_move_with(
    board: &Board,
    next: &[Ball],
    budget: &Budget,
    seed: u64,
    weights: &(impl Value + ?Sized),
) -> Option<(Candidate, f32)> {
    best_move_in(board, CellSet::EMPTY, next, budget, seed, weights)
}

/// [`best_move_with`] when the announced balls' spots were drawn among `spots`, the free
/// cells when they were announced ([`LinesGame::spot_cells`](crate::LinesGame::spot_cells);
/// empty: each ball lands on a random free cell after the move, the rule at landing). The
/// player knows where the spots can be, not where they are: a ball lands on its spot,
/// or on a random free cell if a ball took it.
///
/// ```
/// use banco_lines::{LinesGame, Settings, ai::{Budget, eval::Weights, search}};
/// let game = LinesGame::new(Settings::default(), [3; 32]);
/// let (board, next) = (game.board(), game.next_colors());
/// let w = Weights::default();
/// let here = search::best_move_in(board, game.spot_cells(), &next, &Budget::fast(), 1, &w);
/// assert!(here.is_some());
/// ```
#[must_use]
pub fn best_move_in(
    board: &Board,
    spots: CellSet,
    next: &[Ball],
    budget: &Budget,
    seed: u64,
    weights: &(impl Value + ?Sized),
) -> Option<(Candidate, f32)> {
    let budget = &budget.bounded();
    if budget.candidates <= 1 || budget.samples == 0 {
        return best_candidate_in(board, spots, Some(next), weights).map(|c| (c, c.heuristic));
    }
    let mut cands = Vec::with_capacity(2048);
    candidates_in(board, spots, Some(next), weights, &mut cands);
    if cands.is_empty() {
        return None;
    }
    prune(&mut cands, budget.candidates);
    if budget.samples == 0 || cands.len() == 1 {
        return cands.first().map(|c| (*c, c.heuristic));
    }
    Some(successive_halving(
        board, spots, next, &cands, budget, seed, weights,
    ))
}

/// A candidate in stage two: its board after the move and the value of each sample so far
/// (one exact value for a move that completes lines: nothing lands).
struct Contender {
    cand: Candidate,
    after: Board,
    exact: Option<f32>,
    values: Vec<f32>,
    /// The replies a cheap playout judges ([`Budget::shortlist`]; empty otherwise).
    shortlist: Vec<Reply>,
}

impl Contender {
    /// The value of sample `i`.
    fn value(&self, i: usize) -> f32 {
        self.exact
            .unwrap_or_else(|| self.values.get(i).copied().unwrap_or(LOST))
    }

    /// The mean over the samples so far.
    fn mean(&self) -> f32 {
        self.exact
            .unwrap_or_else(|| self.values.iter().sum::<f32>() / self.values.len().max(1) as f32)
    }
}

/// The contenders of stage two: each candidate's board after it, its shortlist (a cheap
/// playout's replies) and, for a move that completes lines, its one exact value.
fn contenders(
    board: &Board,
    spots: CellSet,
    next: &[Ball],
    cands: &[Candidate],
    budget: &Budget,
    weights: &(impl Value + ?Sized),
    scratch: &mut Vec<Candidate>,
) -> Vec<Contender> {
    cands
        .iter()
        .map(|c| {
            let mut after = *board;
            apply(&mut after, c);
            let shortlist = if budget.replies && budget.shortlist > 0 {
                shortlist(&after, budget.shortlist, weights, scratch)
            } else {
                Vec::new()
            };
            // A line move's free reply is judged as a playout judges one (every reply, or
            // the shortlist and the lines): the same kind of value as the quiet moves'.
            let exact = (c.points > 0 && budget.depth == 0).then(|| {
                let replies = Replies::of(budget, &shortlist).or_all();
                c.points as f32
                    + weights.line_bonus()
                    + value_to_move(&after, spots, Some(next), replies, weights, scratch)
            });
            Contender {
                cand: *c,
                after,
                exact,
                values: Vec::new(),
                shortlist,
            }
        })
        .collect()
}

/// The mean value of each of `cands` over `samples` playouts of the kind `budget` plays
/// (no more than a search spends: [`Budget::bounded`]; the same samples for every
/// candidate, as stage two draws them), without halving: what
/// stage two would think of every one of them, for teaching the first stage
/// (`examples/distill.rs`). A move that completes lines gets its one exact value.
#[must_use]
pub fn playout_means(
    board: &Board,
    next: &[Ball],
    cands: &[Candidate],
    budget: &Budget,
    samples: usize,
    seed: u64,
    weights: &(impl Value + ?Sized),
) -> Vec<f32> {
    let spots = CellSet::EMPTY;
    // As many samples as a search could spend (`Budget::bounded`), not an argument's worth.
    let budget = &Budget { samples, ..*budget }.bounded();
    let mut scratch = Vec::with_capacity(2048);
    let mut all = contenders(board, spots, next, cands, budget, weights, &mut scratch);
    for entry in &mut all {
        if entry.exact.is_none() {
            let replies = Replies::of(budget, &entry.shortlist);
            entry.values = (0..budget.samples.max(1))
                .map(|i| {
                    let after = &entry.after;
                    sample_value(after, spots, next, seed, i, replies, weights, &mut scratch)
                })
                .collect();
        }
    }
    all.iter().map(Contender::mean).collect()
}

/// At most this many threads play a round's samples, whatever [`Budget::threads`] asks.
pub const MAX_THREADS: usize = 64;

/// Standard errors by which a challenger's mean must beat stage one's choice, paired
/// sample by sample, before stage two overrules it (`data/tuning.md`, fifth session).
pub const MARGIN_Z: f32 = 1.0;

/// Stage two by successive halving: every kept candidate gets [`Budget::samples`]
/// landing samples, the better half (by mean value, rounded up) goes on, and each round
/// spends about as much as the first (the survivors' samples double), until two are
/// left. Stage one's choice (the first candidate) is never dropped: the others challenge
/// it. Sample `i` is the same landing and the same next colours for every candidate, so
/// the candidates are compared on the same luck, sample by sample; the best challenger
/// replaces stage one's choice only if the mean of those paired differences is above
/// [`MARGIN_Z`] standard errors (stage two overrules the closed form only where its
/// samples are sure; more samples, smaller errors). A candidate that completes a line is
/// judged once, exactly (no ball lands: our free move with the same colours announced).
fn successive_halving(
    board: &Board,
    spots: CellSet,
    next: &[Ball],
    cands: &[Candidate],
    budget: &Budget,
    seed: u64,
    weights: &(impl Value + ?Sized),
) -> (Candidate, f32) {
    let mut scratch = Vec::with_capacity(2048);
    let mut alive = contenders(board, spots, next, cands, budget, weights, &mut scratch);
    let mut per_round = budget.samples.max(1);
    let mut target = 0;
    let mut jobs: Vec<(usize, usize)> = Vec::new();
    let mut values: Vec<f32> = Vec::new();
    loop {
        target += per_round;
        // This round's samples: (contender, sample index), in contender order.
        jobs.clear();
        for (k, entry) in alive.iter().enumerate() {
            if entry.exact.is_none() {
                jobs.extend((entry.values.len()..target).map(|i| (k, i)));
            }
        }
        values.clear();
        values.resize(jobs.len(), LOST);
        let sample = |&(k, i): &(usize, usize), scratch: &mut Vec<Candidate>| {
            alive.get(k).map_or(LOST, |e: &Contender| {
                if budget.depth > 0 {
                    let c = &e.cand;
                    return rollout_value(c, &e.after, spots, next, seed, i, budget.depth, weights);
                }
                let replies = Replies::of(budget, &e.shortlist);
                sample_value(&e.after, spots, next, seed, i, replies, weights, scratch)
            })
        };
        let threads = budget.threads.min(MAX_THREADS).clamp(1, jobs.len().max(1));
        if threads == 1 {
            for (job, v) in jobs.iter().zip(values.iter_mut()) {
                *v = sample(job, &mut scratch);
            }
        } else {
            let chunk = jobs.len().div_ceil(threads);
            std::thread::scope(|scope| {
                for (part, out) in jobs.chunks(chunk).zip(values.chunks_mut(chunk)) {
                    scope.spawn(|| {
                        let mut scratch = Vec::with_capacity(2048);
                        for (job, v) in part.iter().zip(out.iter_mut()) {
                            *v = sample(job, &mut scratch);
                        }
                    });
                }
            });
        }
        for (&(k, _), &v) in jobs.iter().zip(&values) {
            if let Some(entry) = alive.get_mut(k) {
                entry.values.push(v);
            }
        }
        if alive.len() <= 2 {
            break;
        }
        // Stage one's choice stays first; the challengers best first (ties keep stage
        // one's order: the sort is stable), the better half of the field goes on.
        if let Some(challengers) = alive.get_mut(1..) {
            challengers.sort_by(|a, b| b.mean().total_cmp(&a.mean()));
        }
        alive.truncate(alive.len().div_ceil(2));
        per_round *= 2;
    }
    let Some((incumbent, challengers)) = alive.split_first() else {
        return (cands[0], cands[0].heuristic);
    };
    let Some(challenger) = challengers
        .iter()
        .reduce(|best, e| if e.mean() > best.mean() { e } else { best })
    else {
        return (incumbent.cand, incumbent.mean());
    };
    let n = target;
    let diffs = (0..n).map(|i| challenger.value(i) - incumbent.value(i));
    let mean_d = diffs.clone().sum::<f32>() / n as f32;
    let var = diffs.map(|d| (d - mean_d) * (d - mean_d)).sum::<f32>() / (n.max(2) - 1) as f32;
    let se = (var / n as f32).sqrt();
    if mean_d > MARGIN_Z * se {
        (challenger.cand, challenger.mean())
    } else {
        (incumbent.cand, incumbent.mean())
    }
}

/// The value of sample `i` of the board `after` one of our moves (no line) with `next`
/// announced: the colours announced after the landing are drawn first (a fixed number of
/// draws: every candidate sees the same colours in sample `i`), uniform over the seven as
/// the spawn draws them; then the balls land, and the board is worth the points the
/// landing made plus our best next move judged with those colours known, exactly as
/// stage one judges our move now.
#[allow(clippy::too_many_arguments)]
fn sample_value(
    after: &Board,
    spots: CellSet,
    next: &[Ball],
    seed: u64,
    i: usize,
    replies: Replies<'_>,
    weights: &(impl Value + ?Sized),
    scratch: &mut Vec<Candidate>,
) -> f32 {
    let mut rng = SampleRng::new(sample_seed(seed, i));
    let colors = random_colors(&mut rng);
    let mut b = *after;
    let pts = land_spots(&mut b, spots, next, &mut rng);
    // The next spots are drawn among the free cells after this landing (when the game
    // draws them at announcement).
    let now = if spots.is_empty() {
        CellSet::EMPTY
    } else {
        b.empties()
    };
    pts as f32 + value_to_move(&b, now, Some(&colors), replies, weights, scratch)
}

/// The seed of sample `i` (the same for every candidate: they are compared on the same
/// luck).
fn sample_seed(seed: u64, i: usize) -> u64 {
    seed ^ (i as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93)
}

/// Random colours announced for a turn of a rollout.
pub(crate) fn random_colors(rng: &mut SampleRng) -> [Ball; 3] {
    core::array::from_fn(|_| Ball::ALL[rng.below(Ball::COUNT)])
}

/// The value of sample `i` of a rollout of `depth` turns by the fast policy
/// ([`super::rollout`]) from `after`, the board after the candidate `c`: its points, the
/// landing of `next` (unless `c` completed lines: then it is our free move), the points of
/// the rollout and [`rollout::TERMINAL`] times the stage-one value of standing still on
/// the board it ends on ([`LOST`] if the board filled). Sample `i` draws the same colours
/// for every candidate.
#[allow(clippy::too_many_arguments)]
fn rollout_value(
    c: &Candidate,
    after: &Board,
    spots: CellSet,
    next: &[Ball],
    seed: u64,
    i: usize,
    depth: usize,
    weights: &(impl Value + ?Sized),
) -> f32 {
    let mut rng = SampleRng::new(sample_seed(seed, i));
    let mut colors = SampleRng::new(sample_seed(!seed, i));
    let mut board = *after;
    let mut total = c.points;
    let drawn;
    let known = if c.points == 0 {
        total += land_spots(&mut board, spots, next, &mut rng);
        if board.is_full() {
            return total as f32 + LOST;
        }
        drawn = random_colors(&mut colors);
        &drawn[..]
    } else {
        next
    };
    let policy = rollout::Policy::default();
    let (pts, end) = rollout::play(board, known, depth, &policy, &mut rng, &mut colors);
    total += pts;
    match end {
        None => total as f32 + LOST,
        Some((b, n)) => {
            total as f32 + rollout::TERMINAL * weights.after_move(&b, &Masks::of(&b), Some(&n))
        }
    }
}
