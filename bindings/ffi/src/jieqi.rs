//! Jieqi on the boundary: the pools a board shows ([`Pool`], in `BoardView.pools`, and
//! placed beside the board in `BoardView.poolSides`, [`PoolSides`]). The
//! rest of jieqi rides on the common records — a face-down piece is a `Piece` with
//! `faceDown`, a reveal a `PlayedMove` with `revealed` and `announcement`, and a reveal in
//! a match the `MatchEvent.PieceRevealed` event; a game against the computer draws reveals
//! from the system's randomness (`VsSettings.chanceSeed` makes them repeat).

use crate::types::{Color, Piece};
use banco_app::jieqi::{PoolEntry as AppEntry, PoolSides as AppSides, PoolView};

/// One kind in a pool and how many of it are unrevealed.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct PoolEntry {
    /// The piece (face up).
    pub piece: Piece,
    /// How many.
    pub count: u8,
}

/// One side's pool: the identities its next reveals are drawn from.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct Pool {
    /// The side.
    pub color: Color,
    /// The kinds with a count (advisor, elephant, horse, rook, cannon, pawn order).
    pub entries: Vec<PoolEntry>,
    /// Unrevealed pieces in all (face-down pieces captured unseen stay in the pool).
    pub total: u32,
    /// The side's face-down pieces still on the board.
    pub face_down: u32,
    /// The pool's heading on a screen: the side and its unrevealed pieces (`Red: 15 hidden`).
    pub title: String,
}

/// The two pools placed beside the board, each next to its own side's pieces: `top`
/// above the board (the second player's, or the first player's when the board is flipped),
/// `bottom` below it. Kinds all revealed are left out; the kinds keep the pools' order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct PoolSides {
    /// The pool shown above the board.
    pub top: Pool,
    /// The pool shown below the board.
    pub bottom: Pool,
}

impl From<&AppSides> for PoolSides {
    fn from(s: &AppSides) -> Self {
        PoolSides {
            top: Pool::from(&s.top),
            bottom: Pool::from(&s.bottom),
        }
    }
}

impl From<&AppEntry> for PoolEntry {
    fn from(e: &AppEntry) -> Self {
        PoolEntry {
            piece: Piece::from(&e.piece),
            count: e.count,
        }
    }
}

impl From<&PoolView> for Pool {
    fn from(p: &PoolView) -> Self {
        Pool {
            color: p.color.into(),
            entries: p.entries.iter().map(PoolEntry::from).collect(),
            total: p.total,
            face_down: p.face_down,
            title: p.title.clone(),
        }
    }
}
