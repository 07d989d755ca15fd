//! The computer player's search: every legal move scored by a fast local heuristic (the
//! change of the run windows through the two cells it touches, and the points of a line
//! it completes); the best few by that heuristic are played out: a move that completes a
//! line is judged by its points and the board it leaves; any other move by the mean, over
//! Monte Carlo samples of where the three announced balls land, of the points they make
//! and the value of the board — that value being, with a reply width, the best of the
//! next move's candidates (a two-move look-ahead), or else the static evaluation.
//!
//! ```
//! use banco_lines::{LinesGame, Settings, ai};
//! let game = LinesGame::new(Settings::default(), [3; 32]);
//! let a = ai::search::best_move(game.board(), &game.next_colors(), &ai::Budget::fast(), 1);
//! let b = ai::search::best_move(game.board(), &game.next_colors(), &ai::Budget::fast(), 1);
//! assert_eq!(a, b); // deterministic for a seed and a budget
//! ```

use super::Budget;
use super::eval::{CELL_WINDOWS, WINDOW_CELLS, Weights, evaluate_with, window_value};
use crate::board::{Ball, Board, CELLS, Cell, CellSet};
use crate::lines::lines_through;
use crate::path::{flood, neighbour_bits, spread};
use crate::score::points;

/// A legal move with its fast heuristic value.
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
    /// The heuristic: points plus the change of the run windows.
    pub heuristic: f32,
}

/// A small, fast, seeded generator (SplitMix64) for the Monte Carlo samples.
#[derive(Clone, Copy, Debug)]
pub struct SampleRng(u64);

impl SampleRng {
    /// A generator from a seed.
    #[must_use]
    pub const fn new(seed: u64) -> SampleRng {
        SampleRng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// Every legal move of `board` with its heuristic, into `out` (cleared first).
pub fn candidates(board: &Board, weights: &Weights, out: &mut Vec<Candidate>) {
    out.clear();
    let empties = board.empties();
    // Free regions, as bit masks.
    let mut regions = [0u128; CELLS];
    let mut n_regions = 0;
    let mut rest = empties.0;
    while rest != 0 {
        let seed = rest & rest.wrapping_neg();
        let region = flood(empties, seed).0;
        regions[n_regions] = region;
        n_regions += 1;
        rest &= !region;
    }
    for from in Cell::all() {
        let fi = from.index();
        let code = board.code(fi);
        if code == 0 {
            continue;
        }
        let nb = neighbour_bits(from);
        let mut reach = 0u128;
        for r in &regions[..n_regions] {
            if r & nb != 0 {
                reach |= r;
            }
        }
        let mut after = *board;
        after.set(from, None);
        for to in CellSet(reach).iter() {
            after.set(to, Ball::from_index(code as usize - 1));
            let cleared = lines_through(&after, to);
            let pts = points(cleared.len());
            let mut delta = 0.0;
            for &w in &CELL_WINDOWS[to.index()] {
                if w == u8::MAX {
                    break;
                }
                delta += window_value(&after, w as usize, weights)
                    - window_value(board, w as usize, weights);
            }
            for &w in &CELL_WINDOWS[fi] {
                if w == u8::MAX {
                    break;
                }
                if CELL_WINDOWS[to.index()].contains(&w) {
                    continue;
                }
                delta += window_value(&after, w as usize, weights)
                    - window_value(board, w as usize, weights);
            }
            out.push(Candidate {
                from,
                to,
                points: pts,
                cleared,
                heuristic: pts as f32 + delta,
            });
            after.set(to, None);
        }
    }
}

/// Keeps the `k` best candidates by heuristic, best first (stable: ties keep board order).
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
/// returns the points.
pub fn land_random(board: &mut Board, balls: &[Ball], rng: &mut SampleRng) -> u32 {
    let mut landed = CellSet::EMPTY;
    for &b in balls {
        let e = board.empty_count();
        if e == 0 {
            break;
        }
        if let Some(c) = board.nth_empty(rng.below(e)) {
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

/// Value of a full board (the game is over): far below anything else.
const LOST: f32 = -10_000.0;

/// The value of `board` when it is our move with unknown balls announced. With `width`
/// 0: the better of a quiet move (the static evaluation, minus the three balls that will
/// then land) and every move that completes a line at once (found from the windows
/// holding four of a colour and a free cell another ball of that colour can reach). With
/// a `width`: the best of that many candidate moves by the fast heuristic.
fn value_to_move(
    board: &Board,
    width: usize,
    weights: &Weights,
    scratch: &mut Vec<Candidate>,
) -> f32 {
    if board.is_full() {
        return LOST;
    }
    if width == 0 {
        return quiet_or_complete(board, weights);
    }
    candidates(board, weights, scratch);
    prune(scratch, width);
    let mut best = f32::NEG_INFINITY;
    for c in scratch.iter() {
        let mut b = *board;
        apply(&mut b, c);
        let v = if c.points > 0 {
            c.points as f32 + evaluate_with(&b, weights)
        } else {
            evaluate_with(&b, weights) - spawn_cost(&b, weights)
        };
        best = best.max(v);
    }
    best
}

fn quiet_or_complete(board: &Board, weights: &Weights) -> f32 {
    let empties = board.empties();
    let mut best = evaluate_with(board, weights) - spawn_cost(board, weights);
    let mut by_color = [0u128; 8];
    for c in Cell::all() {
        by_color[board.code(c.index()) as usize] |= 1u128 << c.index();
    }
    let mut tried = [0u128; CELLS];
    for cells in &WINDOW_CELLS {
        let mut colour = 0u8;
        let mut count = 0;
        let mut hole = usize::MAX;
        let mut mask = 0u128;
        for &c in cells {
            let v = board.code(c as usize);
            mask |= 1u128 << c;
            if v == 0 {
                hole = c as usize;
            } else if colour == 0 || v == colour {
                colour = v;
                count += 1;
            }
        }
        if count != 4 || hole == usize::MAX {
            continue;
        }
        let Ok(hole_cell) = Cell::from_index(hole) else {
            continue;
        };
        let region = flood(empties, 1u128 << hole).0;
        let movers = spread(region) & by_color[colour as usize] & !mask & !tried[hole];
        tried[hole] |= movers;
        for from in CellSet(movers).iter() {
            let mut b = *board;
            b.set(from, None);
            b.set(hole_cell, Ball::from_index(colour as usize - 1));
            let cleared = lines_through(&b, hole_cell);
            if cleared.is_empty() {
                continue;
            }
            b.clear(cleared);
            let v = points(cleared.len()) as f32 + evaluate_with(&b, weights);
            best = best.max(v);
        }
    }
    best
}

/// What three more balls are expected to cost a board (in evaluation points): three free
/// cells and the crowding they add.
fn spawn_cost(board: &Board, weights: &Weights) -> f32 {
    let free = board.empty_count() as f32;
    if free <= 3.0 {
        return -LOST;
    }
    let crowd = |f: f32| {
        if f < weights.crowd_at {
            weights.crowd * (weights.crowd_at - f) * (weights.crowd_at - f)
        } else {
            0.0
        }
    };
    3.0 * weights.free + crowd(free - 3.0) - crowd(free)
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
    weights: &Weights,
) -> Option<(Candidate, f32)> {
    let weights = *weights;
    let mut cands = Vec::with_capacity(1024);
    candidates(board, &weights, &mut cands);
    if cands.is_empty() {
        return None;
    }
    prune(&mut cands, budget.candidates);
    let mut scratch = Vec::with_capacity(1024);
    let mut best: Option<(Candidate, f32)> = None;
    for c in &cands {
        let mut after = *board;
        apply(&mut after, c);
        let value = if c.points > 0 {
            // No balls land: our move again with the same colours announced.
            c.points as f32 + value_to_move(&after, budget.reply, &weights, &mut scratch)
        } else {
            let n = budget.samples.max(1);
            let mut sum = 0.0;
            for i in 0..n {
                // The same samples for every candidate (common random numbers): the
                // candidates are compared on the same luck.
                let mut rng = SampleRng::new(seed ^ (i as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93));
                let mut b = after;
                let pts = land_random(&mut b, next, &mut rng);
                sum += pts as f32 + value_to_move(&b, budget.reply, &weights, &mut scratch);
            }
            sum / n as f32
        };
        if best.is_none_or(|(_, v)| value > v) {
            best = Some((*c, value));
        }
    }
    best
}
