//! What the search asks of a value function: [`Value`], the value of the board after one
//! of our moves. Two implement it: the hand-built evaluation [`Weights`] (closed-form
//! expectation of the landing, tuned by the cross-entropy method) and the [`Learned`]
//! tables (trained by temporal differences over afterstates).
//!
//! ```
//! use banco_lines::{Ball, Board, ai::{eval::{Masks, Weights}, learned::Learned, value::Value}};
//! let board = Board::empty();
//! let next = [Ball::Red, Ball::Blue, Ball::Red];
//! for v in [&Weights::default() as &dyn Value, &Learned::default()] {
//!     let a = v.after_move(&board, &Masks::of(&board), Some(&next));
//!     assert!(a.is_finite());
//! }
//! ```

use super::eval::{self, Masks, Weights};
use super::features::Share;
use super::learned::Learned;
use crate::board::{Ball, Board};

/// A value of the board after our move, in points to come (the points the move itself
/// scored are added by the search). `Sync`: the search may judge samples on several
/// threads at once ([`super::Budget::threads`]).
pub trait Value: Sync {
    /// The value of `board` after a move that completed no line, before the balls `next`
    /// land on it (`None`: colours not announced yet); `masks` are `board`'s.
    fn after_move(&self, board: &Board, masks: &Masks, next: Option<&[Ball]>) -> f32;

    /// The value of `board` after a move that completed lines and removed `removed`
    /// balls (nothing lands: it is our move again with `next` still announced).
    fn after_line(&self, board: &Board, next: Option<&[Ball]>, removed: usize) -> f32;

    /// The value of `board` after the announced balls landed on it, when it is our move
    /// and the next colours are not known yet (the preview's search,
    /// [`super::preview`]).
    fn after_landing(&self, board: &Board) -> f32;

    /// What a move that completes lines is worth over its points and the value of our
    /// next move (the search adds it when it plays that next move out; 0 by default).
    fn line_bonus(&self) -> f32 {
        0.0
    }
}

impl Value for Weights {
    fn after_move(&self, board: &Board, masks: &Masks, next: Option<&[Ball]>) -> f32 {
        eval::after_spawn_masks(board, masks, next, self)
    }

    fn after_line(&self, board: &Board, _next: Option<&[Ball]>, _removed: usize) -> f32 {
        self.complete + eval::evaluate_with(board, self)
    }

    fn after_landing(&self, board: &Board) -> f32 {
        eval::evaluate_with(board, self)
    }

    fn line_bonus(&self) -> f32 {
        self.complete
    }
}

impl Value for Learned {
    fn after_move(&self, board: &Board, masks: &Masks, next: Option<&[Ball]>) -> f32 {
        let hand = if self.hand == 0.0 {
            0.0
        } else {
            self.hand * self.hand_weights.after_move(board, masks, next)
        };
        hand + self.value_masks(board, masks, Share::of(next), 0)
    }

    fn after_line(&self, board: &Board, next: Option<&[Ball]>, removed: usize) -> f32 {
        let hand = if self.hand == 0.0 {
            0.0
        } else {
            self.hand * self.hand_weights.after_line(board, next, removed)
        };
        hand + self.value(board, Share::of(next), removed)
    }

    fn after_landing(&self, board: &Board) -> f32 {
        let hand = if self.hand == 0.0 {
            0.0
        } else {
            self.hand * self.hand_weights.after_landing(board)
        };
        hand + self.value(board, Share::Unknown, 0)
    }

    fn line_bonus(&self) -> f32 {
        self.hand * self.hand_weights.complete
    }
}
