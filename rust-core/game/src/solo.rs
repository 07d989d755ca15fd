//! [`ScoreGame`], the small trait of one-player score games (Lines): no opponent, no
//! outcome but a final score, turns that may be taken back when the rules allow it.
//!
//! The two-player [`Game`](crate::Game) trait is about sides, legality for a search and
//! outcomes; a solo score game needs much less, and its chance (the balls that land after a
//! move) belongs to the game itself rather than to a chance step that a search expands.
//!
//! ```
//! use banco_game::ScoreGame;
//!
//! /// Count to ten, one point per step.
//! struct Steps(u32, Vec<u32>);
//!
//! impl ScoreGame for Steps {
//!     type Move = ();
//!     type Report = u32;
//!     type PlayError = &'static str;
//!     fn kind(&self) -> banco_game::GameKind { banco_game::GameKind::Lines }
//!     fn score(&self) -> u32 { self.0 }
//!     fn turns(&self) -> u32 { self.0 }
//!     fn is_over(&self) -> bool { self.0 >= 10 }
//!     fn play(&mut self, _: ()) -> Result<u32, &'static str> {
//!         if self.is_over() { return Err("the game is over"); }
//!         self.1.push(self.0);
//!         self.0 += 1;
//!         Ok(1)
//!     }
//!     fn can_undo(&self) -> bool { !self.1.is_empty() }
//!     fn undo(&mut self) -> bool {
//!         match self.1.pop() { Some(s) => { self.0 = s; true } None => false }
//!     }
//! }
//!
//! let mut g = Steps(0, Vec::new());
//! assert_eq!(g.play(()), Ok(1));
//! assert!(g.undo());
//! assert_eq!(g.score(), 0);
//! ```

use crate::vocab::GameKind;

/// A one-player game played for a score (see the module docs).
pub trait ScoreGame {
    /// What the player does in one turn.
    type Move: Copy;
    /// What a turn did (for a front end to animate and announce).
    type Report;
    /// Why a move was refused; a refused move changes nothing.
    type PlayError;

    /// Which game this is.
    fn kind(&self) -> GameKind;

    /// The score so far.
    fn score(&self) -> u32;

    /// Turns played so far (taken-back turns not counted).
    fn turns(&self) -> u32;

    /// True once no move can be played any more.
    fn is_over(&self) -> bool;

    /// Plays one turn after checking the move.
    fn play(&mut self, mv: Self::Move) -> Result<Self::Report, Self::PlayError>;

    /// True if [`ScoreGame::undo`] would take a turn back now (the rules allow it and
    /// there is a turn to take back).
    fn can_undo(&self) -> bool;

    /// Takes the last turn back, restoring the exact state before it (chance included);
    /// false if it cannot.
    fn undo(&mut self) -> bool;
}
