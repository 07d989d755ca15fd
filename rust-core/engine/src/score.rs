//! Score conventions: centipawns from the side to move's point of view, mate scores as
//! `MATE - plies`, wins by rule (perpetual check or chase) just below the mate band.
//!
//! ```
//! use banco_engine::score::{Score, MATE, mated_in, mate_in};
//! assert_eq!(Score::from_internal(mate_in(3)), Score::Mate(2));
//! assert_eq!(Score::from_internal(mated_in(4)), Score::Mate(-2));
//! assert_eq!(Score::from_internal(35), Score::Cp(35));
//! assert!(mate_in(1) < MATE);
//! ```

use core::fmt;

/// Larger than any score.
pub const INF: i32 = 32_000;
/// Score of giving mate right now (at ply 0).
pub const MATE: i32 = 31_000;
/// Scores at or beyond this magnitude are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Score of winning by rule (the opponent's perpetual check or chase) at ply 0.
pub const RULE_WIN: i32 = 29_000;
/// Scores at or beyond this magnitude are decisive (mates or wins by rule) and are stored
/// in the transposition table relative to the node, not the root.
pub const DECISIVE: i32 = RULE_WIN - 1_000;
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

/// A score for people and protocols.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns (a pawn before the river is worth about 30; a rook about 900). Wins by
    /// rule are reported as ±`RULE_WIN`-ish centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// The score for an internal value.
    #[must_use]
    pub const fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-((MATE + v) / 2))
        } else {
            Score::Cp(v)
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
