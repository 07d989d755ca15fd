//! The search when the game shows where the announced balls land (Lines 98's preview,
//! [`crate::Settings::preview`]). Stage one judges every legal move as usual
//! ([`search::candidates`]: the landing in closed-form expectation); then the best
//! [`Budget::candidates`] (at least [`CANDIDATES`], 16) are judged again on the board the
//! KNOWN landing leaves: a move that completes lines keeps its stage-one value (nothing
//! lands, it is our move again); any other move is worth the points its landing makes
//! plus [`Value::after_landing`] of the board left. A ball whose spot the move takes lands
//! on a random free cell (not another ball's spot, as the rules say): that ball is judged
//! in exact expectation, over every cell it may land on. No sampling: the search uses only
//! what the player sees (board, colours, spots), never the game's seed, and needs none of
//! its own.
//!
//! With the known landing it scores a median of about 6,000 points (`banco bench lines
//! --preview`, 20 games) where the classic hint scores about 1,300 (300 games,
//! `data/tuning.md`).
//!
//! ```
//! use banco_lines::{LinesGame, Settings, ai};
//! let game = LinesGame::new(Settings::default().with_preview(true), [3; 32]);
//! let spots = game.next_spots();
//! let budget = ai::Budget::fast();
//! let (mv, _value) = ai::preview::best_move(game.board(), &game.next_colors(), &spots, &budget)
//!     .expect("a move");
//! assert!(game.check_move(mv.from, mv.to).is_ok());
//! ```

use super::Budget;
use super::eval::Weights;
use super::search::{self, Candidate, LOST};
use super::value::Value;
use crate::board::{Ball, Board, Cell, CellSet};
use crate::lines::lines_through;
use crate::score::points;

/// The fewest of stage one's moves judged on their known landing. 16 rather than the 8 of
/// the first experiment: over `banco bench lines --preview --games 20 --seed 1
/// --max-turns 5000`, 8 made a median of 3,442 points (mean 5,258) and 16 a median of
/// 5,959 (mean 9,211, four games at the turn limit), at 1.3 and 1.5 ms a move.
pub const CANDIDATES: usize = 16;

/// The move the computer plays on `board` with `next` announced and landing on `spots`
/// (as [`crate::LinesGame::next_spots`] gives them), with its value; `None` if no ball can
/// move. Deterministic: it draws nothing.
#[must_use]
pub fn best_move(
    board: &Board,
    next: &[Ball],
    spots: &[Cell],
    budget: &Budget,
) -> Option<(Candidate, f32)> {
    best_move_with(board, next, spots, budget, &Weights::default())
}

/// [`best_move`] with another value of boards (for tuning).
#[must_use]
pub fn best_move_with(
    board: &Board,
    next: &[Ball],
    spots: &[Cell],
    budget: &Budget,
    value: &(impl Value + ?Sized),
) -> Option<(Candidate, f32)> {
    let mut cands = Vec::with_capacity(2048);
    search::candidates(board, Some(next), value, &mut cands);
    search::prune(&mut cands, budget.bounded().candidates.max(CANDIDATES));
    let mut best: Option<(Candidate, f32)> = None;
    for c in &cands {
        let v = if c.points > 0 {
            c.heuristic
        } else {
            let mut after = *board;
            search::apply(&mut after, c);
            landing_value(&after, next, spots, value)
        };
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((*c, v));
        }
    }
    best
}

/// The value of `after` (the board after one of our moves that completed no line) once
/// `next` land on `spots`: the points the landing makes plus [`Value::after_landing`] of
/// the board left ([`LOST`] if full), in expectation over the cells of a ball whose spot
/// is taken (or that has none).
#[must_use]
pub fn landing_value(
    after: &Board,
    next: &[Ball],
    spots: &[Cell],
    value: &(impl Value + ?Sized),
) -> f32 {
    let mut fixed = *after;
    let mut landed = CellSet::EMPTY;
    let mut shown = CellSet::EMPTY;
    let mut random: Vec<Ball> = Vec::new();
    for (k, &ball) in next.iter().enumerate() {
        match spots.get(k) {
            Some(&s) if after.is_empty_cell(s) => {
                fixed.set(s, Some(ball));
                landed.insert(s);
                shown.insert(s);
            }
            _ => random.push(ball),
        }
    }
    let mut open = fixed.empties();
    open.0 &= !shown.0;
    match random.as_slice() {
        [] => settle(fixed, landed, value),
        [ball] if !open.is_empty() => {
            let mut total = 0.0;
            for cell in open.iter() {
                let mut b = fixed;
                b.set(cell, Some(*ball));
                let mut l = landed;
                l.insert(cell);
                total += settle(b, l, value);
            }
            total / open.len() as f32
        }
        _ => {
            // Several balls without a free spot (a nearly full board, or spots drawn when
            // few cells were free): the known balls land, the others in the closed-form
            // expectation.
            let pts = clear(&mut fixed, landed);
            if fixed.empty_count() <= random.len() {
                return pts as f32 + LOST;
            }
            let masks = super::eval::Masks::of(&fixed);
            pts as f32 + value.after_move(&fixed, &masks, Some(&random))
        }
    }
}

/// Removes the lines through the `landed` cells of `board`; their points.
fn clear(board: &mut Board, landed: CellSet) -> u32 {
    let mut cleared = CellSet::EMPTY;
    for c in landed.iter() {
        cleared.0 |= lines_through(board, c).0;
    }
    board.clear(cleared);
    points(cleared.len())
}

/// The points of the lines the `landed` balls complete on `board` plus the value of the
/// board they leave ([`LOST`] if it is full).
fn settle(mut board: Board, landed: CellSet, value: &(impl Value + ?Sized)) -> f32 {
    let pts = clear(&mut board, landed);
    if board.is_full() {
        return pts as f32 + LOST;
    }
    pts as f32 + value.after_landing(&board)
}
