//! Score conventions: centipawns from the side to move's point of view, mate scores as
//! `MATE - plies`. A win by rule (the opponent's perpetual check or chase) ends the game as
//! surely as a mate and is scored the same way, by the ply where the game ends: a loss by
//! rule next move is worse than being mated in four, so the engine resists longest. For
//! people and protocols both are reported alike, in moves ([`Score::Mate`]): UCI's `score
//! mate N`.
//!
//! ```
//! use banco_engine::score::{Score, MATE, mated_in, mate_in, plies_to_end};
//! assert_eq!(Score::from_internal(mate_in(3)), Score::Mate(2));
//! assert_eq!(Score::from_internal(mated_in(4)), Score::Mate(-2));
//! assert_eq!(Score::from_internal(35), Score::Cp(35));
//! // The opponent must repeat its perpetual check 5 plies from now and loses by rule.
//! assert_eq!(Score::from_internal(mate_in(5)), Score::Mate(3));
//! assert_eq!(plies_to_end(mated_in(4)), Some(4));
//! // The side to move must repeat its own perpetual check: it loses with its next move.
//! assert_eq!(Score::from_internal(mated_in(1)), Score::Mate(-1));
//! assert_eq!(Score::from_internal(mated_in(0)), Score::Mate(0)); // mated now
//! assert_eq!(plies_to_end(120), None);
//! assert!(mate_in(1) < MATE);
//! ```

use core::fmt;

/// Larger than any score.
pub const INF: i32 = 32_000;
/// Score of giving mate right now (at ply 0).
pub const MATE: i32 = 31_000;
/// Scores at or beyond this magnitude are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Scores at or beyond this magnitude are decisive (mates, wins by rule) and are stored
/// in the transposition table relative to the node, not the root. Every other score (an
/// evaluation, a chance node's mean) stays below it.
pub const DECISIVE: i32 = 28_000;
/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;

/// Score of mating at `ply` plies from the root.
#[must_use]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// Score of being mated at `ply` plies from the root.
#[must_use]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// Converts a root-relative decisive score into a node-relative one for the table.
#[must_use]
pub const fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= DECISIVE {
        score + ply as i32
    } else if score <= -DECISIVE {
        score - ply as i32
    } else {
        score
    }
}

/// Converts a node-relative table score back to a root-relative one.
#[must_use]
pub const fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= DECISIVE {
        score - ply as i32
    } else if score <= -DECISIVE {
        score + ply as i32
    } else {
        score
    }
}

/// Plies until the game ends by force (mate, or a win by rule) for a decisive score;
/// `None` for a centipawn score.
#[must_use]
pub const fn plies_to_end(v: i32) -> Option<i32> {
    let a = v.abs();
    if a >= DECISIVE {
        Some(if MATE > a { MATE - a } else { 0 })
    } else {
        None
    }
}

/// A score for people and protocols.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns (a pawn before the river is worth about 30; a rook about 900).
    Cp(i32),
    /// Mate in this many moves of the side to move (negative: being mated, after this many
    /// moves of its own; 0: mated now), UCI's convention. A win by rule (the opponent's
    /// perpetual check or chase) is reported the same way: it ends the game as surely, this
    /// many moves from now.
    Mate(i32),
}

impl Score {
    /// The score for an internal value.
    #[must_use]
    pub const fn from_internal(v: i32) -> Score {
        match plies_to_end(v) {
            // Winning: the winner's moves, the last one included.
            Some(plies) if v > 0 => Score::Mate((plies + 1) / 2),
            // Losing: the loser's moves up to the end, its own last move included when
            // that move loses by rule (an odd number of plies: the move that repeats a
            // perpetual check). `mate 0` only when the game is over.
            Some(plies) => Score::Mate(-((plies + 1) / 2)),
            None => Score::Cp(v),
        }
    }
}

impl fmt::Display for Score {
    /// UCI form: `cp 35` or `mate -3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(v) => write!(f, "cp {v}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}
