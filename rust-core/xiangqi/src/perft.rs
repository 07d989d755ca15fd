//! Perft: counts the leaf nodes of the legal-move tree, the standard test of a move
//! generator (with bulk counting at the last ply).
//!
//! ```
//! use banco_xiangqi::{perft, Position};
//! let mut pos = Position::startpos();
//! assert_eq!(perft::perft(&mut pos, 2), 1920);
//! let divide = perft::divide(&mut pos, 1);
//! assert_eq!(divide.len(), 44);
//! ```

use crate::moves::Move;
use crate::position::Position;
use banco_game::MoveList;

/// Leaf nodes at `depth` plies.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal() as u64,
        _ => {
            let mut moves = MoveList::new();
            pos.generate_legal(&mut moves);
            let mut n = 0;
            for &mv in &moves {
                let undo = pos.make(mv);
                n += perft(pos, depth - 1);
                pos.unmake(mv, undo);
            }
            n
        }
    }
}

/// Per-move counts at `depth` (each move's subtree at `depth - 1`), in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = MoveList::new();
    pos.generate_legal(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let undo = pos.make(mv);
            let n = perft(pos, depth.saturating_sub(1));
            pos.unmake(mv, undo);
            (mv, n)
        })
        .collect()
}
