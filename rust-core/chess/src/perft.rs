//! Perft: counts the leaf nodes of the legal-move tree. [`perft`] and [`divide`] go through
//! [`banco_game::Game`]'s `legal_moves` / `make_unchecked` / `unmake`, the path the engine
//! uses (with bulk counting at the last ply); [`perft_board`] is the fast path straight on
//! cozy-chess boards, as cozy-chess's own perft does it.
//!
//! ```
//! use banco_chess::{perft, Chess};
//! let mut game = Chess::new();
//! assert_eq!(perft::perft(&mut game, 3), 8902);
//! assert_eq!(perft::perft_board(game.board(), 3), 8902);
//! let divide = perft::divide(&mut game, 2);
//! assert_eq!(divide.len(), 20);
//! assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 400);
//! ```

use crate::game::Chess;
use crate::moves::ChessMove;
use banco_game::{Game, MoveList};
use cozy_chess::Board;

/// Leaf nodes at `depth` plies, through [`Game`] make/unmake.
pub fn perft(game: &mut Chess, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => game.count_legal() as u64,
        _ => {
            let mut moves = MoveList::new();
            game.legal_moves(&mut moves);
            let mut n = 0;
            for &mv in &moves {
                let undo = game.make_unchecked(mv);
                n += perft(game, depth - 1);
                game.unmake(mv, undo);
            }
            n
        }
    }
}

/// Per-move counts at `depth` (each move's subtree at `depth - 1`), in generation order.
pub fn divide(game: &mut Chess, depth: u32) -> Vec<(ChessMove, u64)> {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let undo = game.make_unchecked(mv);
            let n = perft(game, depth.saturating_sub(1));
            game.unmake(mv, undo);
            (mv, n)
        })
        .collect()
}

/// Leaf nodes at `depth` plies straight on cozy-chess boards (a copy per move, moves
/// generated and counted in bulk).
#[must_use]
pub fn perft_board(board: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => {
            let mut n = 0;
            board.generate_moves(|moves| {
                n += moves.len() as u64;
                false
            });
            n
        }
        _ => {
            let mut n = 0;
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    n += perft_board(&child, depth - 1);
                }
                false
            });
            n
        }
    }
}
