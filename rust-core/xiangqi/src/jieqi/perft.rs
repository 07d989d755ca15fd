//! Jieqi perft: the leaf count of the move tree where a reveal has one child per distinct
//! kind in the mover's pool (no weights) and does not use up depth, with bulk counting at
//! the last ply.
//!
//! ```
//! use banco_xiangqi::jieqi::{perft, JieqiPosition};
//! let mut pos = JieqiPosition::startpos();
//! assert_eq!(perft::perft(&mut pos, 1), 259);
//! ```

use super::moves::JieqiMove;
use super::position::JieqiPosition;
use crate::piece::PieceKind;
use banco_game::MoveList;

/// The reveals possible now (one per distinct kind in the mover's pool).
fn reveals(pos: &JieqiPosition) -> impl Iterator<Item = JieqiMove> + use<> {
    let pool = pos.pool(pos.side_to_move().other());
    PieceKind::ALL
        .into_iter()
        .filter(move |&k| k != PieceKind::King && pool.count(k) > 0)
        .map(JieqiMove::Reveal)
}

/// Leaf nodes at `depth` plies.
pub fn perft(pos: &mut JieqiPosition, depth: u32) -> u64 {
    if pos.pending().is_some() {
        let mut n = 0;
        for r in reveals(pos) {
            let undo = pos.make(r);
            n += perft(pos, depth);
            pos.unmake(r, undo);
        }
        return n;
    }
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    pos.generate_legal(&mut moves);
    if depth == 1 {
        let kinds = u64::from(pos.pool(pos.side_to_move()).kinds());
        return moves
            .iter()
            .map(|&m| if pos.moves_hidden(m) { kinds } else { 1 })
            .sum();
    }
    let mut n = 0;
    for &mv in &moves {
        let undo = pos.make(mv);
        n += perft(pos, depth - 1);
        pos.unmake(mv, undo);
    }
    n
}

/// Per-move counts at `depth` (each step's subtree at `depth - 1`, its reveals included),
/// in generation order.
pub fn divide(pos: &mut JieqiPosition, depth: u32) -> Vec<(JieqiMove, u64)> {
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
