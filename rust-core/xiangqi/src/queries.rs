//! Board queries beyond the rules that a search and a user interface both use: the pieces
//! of one side, the pieces between two squares, what a move moves and captures, and checks.
//! (Evaluation notions — mobility, exchange values, positional features — live in the
//! engine, which reads the board through [`raw`](crate::raw).)
//!
//! ```
//! use banco_xiangqi::{Position, PieceKind, Square};
//! use banco_game::Color;
//! let pos = Position::startpos();
//! assert_eq!(pos.pieces_of(Color::Red).filter(|&(_, k)| k == PieceKind::Pawn).count(), 5);
//! let (a, b) = ("e0".parse().unwrap(), "e9".parse().unwrap());
//! assert_eq!(pos.pieces_between(a, b), Some(2)); // the two central pawns
//! ```

use crate::moves::Move;
use crate::piece::PieceKind;
use crate::position::Position;
use crate::square::Square;
use crate::tables::*;
use banco_game::{Color, MoveList};

impl Position {
    /// Every piece of `color` with its square, in piece-list order (king first).
    #[inline]
    pub fn pieces_of(&self, color: Color) -> impl Iterator<Item = (Square, PieceKind)> + '_ {
        self.lists[color.index()]
            .iter()
            .enumerate()
            .filter(|&(_, &s)| s != 0)
            .filter_map(|(slot, &s)| {
                PieceKind::from_index(SLOT_KIND[slot]).map(|k| (Square::from_inner(s), k))
            })
    }

    /// Number of pieces strictly between `a` and `b` when they share a rank or a file;
    /// `None` when they do not (or are the same square).
    #[must_use]
    pub fn pieces_between(&self, a: Square, b: Square) -> Option<u32> {
        let (x, y) = (a.to_inner(), b.to_inner());
        let d: u8 = if x == y {
            return None;
        } else if x & 0xF0 == y & 0xF0 {
            if y > x { 1 } else { 0u8.wrapping_sub(1) }
        } else if x & 0x0F == y & 0x0F {
            if y > x { 16 } else { 0u8.wrapping_sub(16) }
        } else {
            return None;
        };
        let mut n = 0;
        let mut s = x.wrapping_add(d);
        while s != y {
            n += u32::from(self.board[s as usize] != 0);
            s = s.wrapping_add(d);
        }
        Some(n)
    }

    /// Kind of the piece that `mv` captures, if any (no legality check).
    #[inline]
    #[must_use]
    pub fn captured_kind(&self, mv: Move) -> Option<PieceKind> {
        let c = self.board[mv.to_inner() as usize];
        if c == 0 {
            None
        } else {
            PieceKind::from_index(c & 7)
        }
    }

    /// Kind of the piece that `mv` moves, if any.
    #[inline]
    #[must_use]
    pub fn moved_kind(&self, mv: Move) -> Option<PieceKind> {
        let c = self.board[mv.inner_from() as usize];
        if c == 0 {
            None
        } else {
            PieceKind::from_index(c & 7)
        }
    }

    /// True if `mv`, a pseudo-legal move of the side to move (from
    /// [`Position::generate_pseudo`]), does not leave the own king attacked; `in_check`
    /// tells whether the side to move is in check now. Lets a search test legality only
    /// for the moves it actually tries.
    #[inline]
    #[must_use]
    pub fn pseudo_move_is_legal(&self, mv: Move, in_check: bool) -> bool {
        self.pseudo_is_legal(mv, in_check)
    }

    /// True if the legal move `mv` gives check.
    #[must_use]
    pub fn gives_check(&mut self, mv: Move) -> bool {
        let undo = self.make(mv);
        let check = self.in_check();
        self.unmake(mv, undo);
        check
    }

    /// Every legal move that gives check (replaces the contents of `out`).
    pub fn generate_legal_checks(&mut self, out: &mut MoveList<Move>) {
        self.generate_legal(out);
        let mut all = out.clone();
        all.retain(|&m| {
            let undo = self.make(m);
            let c = self.in_check();
            self.unmake(m, undo);
            c
        });
        *out = all;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks() {
        let mut pos: Position = "4k4/9/9/9/6n2/4p4/9/9/4R4/3K5 w - - 0 1".parse().unwrap();
        let mv = Move::new("e1".parse().unwrap(), "e4".parse().unwrap());
        assert_eq!(pos.captured_kind(mv), Some(PieceKind::Pawn));
        assert_eq!(pos.moved_kind(mv), Some(PieceKind::Rook));
        assert!(pos.gives_check(mv)); // the e-file opens onto the black king
        let mut checks = MoveList::new();
        pos.generate_legal_checks(&mut checks);
        assert!(!checks.is_empty());
        assert!(checks.iter().all(|&m| pos.gives_check(m)));
    }
}
