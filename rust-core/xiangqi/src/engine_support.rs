//! Cheap queries that a search and an evaluation need and that read the board directly:
//! the pieces of one side, pseudo-mobility of a piece, pieces between two squares, and a
//! static exchange test for capture ordering.
//!
//! ```
//! use banco_xiangqi::{Position, PieceKind, Square};
//! use banco_game::Color;
//! let pos = Position::startpos();
//! let rook: Square = "a0".parse().unwrap();
//! assert_eq!(pos.pseudo_mobility(rook), 2); // a1, a2
//! let horse: Square = "b0".parse().unwrap();
//! assert_eq!(pos.pseudo_mobility(horse), 2); // a2, c2
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

/// Exchange values used by [`Position::see_sign`] (pawn 1, advisor/elephant 2, horse and
/// cannon 4, rook 9, king large).
const SEE_VALUE: [i32; 7] = [100, 2, 2, 4, 9, 4, 1];

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

    /// Number of squares the piece on `sq` could move to, ignoring whether its own king
    /// would be left in check (0 for an empty square). Captures count like quiet moves.
    #[must_use]
    pub fn pseudo_mobility(&self, sq: Square) -> u32 {
        let f = sq.to_inner();
        let p = self.board[f as usize];
        if p == 0 {
            return 0;
        }
        let side = code_side(p);
        let own = side_base(side);
        let b = &self.board;
        let free = |t: u8| IN_BOARD[t as usize] && b[t as usize] & own == 0;
        let mut n = 0u32;
        match p & 7 {
            ROOK => {
                for d in ORTHO {
                    let mut t = f.wrapping_add(d);
                    while IN_BOARD[t as usize] && b[t as usize] == 0 {
                        n += 1;
                        t = t.wrapping_add(d);
                    }
                    if IN_BOARD[t as usize] && b[t as usize] & own == 0 {
                        n += 1;
                    }
                }
            }
            CANNON => {
                for d in ORTHO {
                    let mut t = f.wrapping_add(d);
                    while IN_BOARD[t as usize] && b[t as usize] == 0 {
                        n += 1;
                        t = t.wrapping_add(d);
                    }
                    if !IN_BOARD[t as usize] {
                        continue;
                    }
                    t = t.wrapping_add(d);
                    while IN_BOARD[t as usize] && b[t as usize] == 0 {
                        t = t.wrapping_add(d);
                    }
                    if IN_BOARD[t as usize] && b[t as usize] & own == 0 {
                        n += 1;
                    }
                }
            }
            HORSE => {
                for (leg, d) in HORSE_STEPS {
                    let t = f.wrapping_add(d);
                    if b[f.wrapping_add(leg) as usize] == 0 && free(t) {
                        n += 1;
                    }
                }
            }
            KING | ADVISOR => {
                let steps = if p & 7 == KING { ORTHO } else { DIAG };
                for d in steps {
                    let t = f.wrapping_add(d);
                    if IN_PALACE[t as usize] && free(t) {
                        n += 1;
                    }
                }
            }
            ELEPHANT => {
                for d in DIAG {
                    let eye = f.wrapping_add(d);
                    let t = eye.wrapping_add(d);
                    if b[eye as usize] == 0 && free(t) && own_half(side, t) {
                        n += 1;
                    }
                }
            }
            _ => {
                let t = f.wrapping_add(forward(side));
                n += u32::from(free(t));
                if !own_half(side, f) {
                    n += u32::from(free(f.wrapping_add(1))) + u32::from(free(f.wrapping_sub(1)));
                }
            }
        }
        n
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

    /// A cheap static-exchange test for a capture `mv` of the side to move: false when the
    /// capture loses material at first sight — the capturing piece is worth more than its
    /// victim and the destination is defended by the opponent after the capture.
    #[must_use]
    pub fn see_sign(&self, mv: Move) -> bool {
        let (f, t) = (mv.inner_from(), mv.to_inner());
        let attacker = self.board[f as usize];
        let victim = self.board[t as usize];
        if attacker == 0 {
            return true;
        }
        let av = SEE_VALUE[(attacker & 7) as usize];
        let vv = if victim == 0 {
            0
        } else {
            SEE_VALUE[(victim & 7) as usize]
        };
        if vv >= av {
            return true;
        }
        let view = |s: u8| {
            if s == t {
                attacker
            } else if s == f {
                0
            } else {
                self.board[s as usize]
            }
        };
        !crate::position::attacked_on(&view, t, 1 - code_side(attacker))
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
    fn see_and_checks() {
        // The red rook takes a pawn defended by the black horse: a losing capture.
        let mut pos: Position = "4k4/9/9/9/6n2/4p4/9/9/4R4/3K5 w - - 0 1".parse().unwrap();
        let mv = Move::new("e1".parse().unwrap(), "e4".parse().unwrap());
        assert!(!pos.see_sign(mv));
        assert!(pos.gives_check(mv)); // the e-file opens onto the black king
        let mut checks = MoveList::new();
        pos.generate_legal_checks(&mut checks);
        assert!(checks.iter().all(|&m| pos.gives_check(m)));
    }
}
