//! The pieces giving check, and a fast legality test for moves made while in check: a
//! move other than the king's can only be legal if it deals with every checker —
//! captures it, or blocks it (a piece arriving between a rook, the facing king or a
//! cannon and the king, or on a checking horse's leg), or takes away a cannon's screen.
//! Moves that deal with none are rejected at once; the others get the full attack test.
//!
//! ```
//! use banco_xiangqi::{Move, Position};
//! use banco_game::MoveList;
//! // The black rook on e8 checks the red king on e0.
//! let pos: Position = "4k4/4r4/9/9/9/9/9/9/3R5/4K4 w - - 0 1".parse().unwrap();
//! let checkers = pos.checkers();
//! assert_eq!(checkers.len(), 1);
//! let mut moves = MoveList::new();
//! pos.generate_pseudo(&mut moves);
//! let legal: Vec<Move> = moves.iter().copied().filter(|&m| pos.evasion_is_legal(m, &checkers)).collect();
//! assert_eq!(legal.len(), pos.legal_moves().len());
//! ```

use crate::moves::Move;
use crate::position::{Position, ray_dir};
use crate::tables::*;
use banco_game::MoveList;

/// The squares of the pieces giving check to the side to move (at most four are
/// possible; a list that is full keeps the first four).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checkers {
    squares: [u8; 4],
    len: u8,
    /// With a single checker: the squares a move may go to to deal with it (the checker,
    /// the squares between it and the king, a horse's leg) ...
    to: u128,
    /// ... and the square a move may leave to deal with it (a cannon's screen).
    from: u128,
}

/// Bit of an inner square in the 90-bit masks of [`Checkers`] (only called for squares on
/// the board).
#[inline(always)]
fn bit(s: u8) -> u128 {
    1u128 << BOARD_INDEX[s as usize]
}

impl Checkers {
    /// No checker.
    pub const EMPTY: Checkers = Checkers {
        squares: [0; 4],
        len: 0,
        to: 0,
        from: 0,
    };

    /// Number of checking pieces (0 when not in check).
    #[must_use]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// True when nothing gives check.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn push(&mut self, sq: u8) {
        if let Some(s) = self.squares.get_mut(usize::from(self.len)) {
            *s = sq;
            self.len += 1;
        }
    }

    fn iter(&self) -> impl Iterator<Item = u8> + '_ {
        self.squares.iter().take(usize::from(self.len)).copied()
    }
}

impl Position {
    /// The pieces that give check to the side to move.
    #[must_use]
    pub fn checkers(&self) -> Checkers {
        let side = self.side.index();
        let by = 1 - side;
        let k = self.king_inner(side);
        let mut out = Checkers::default();
        // Looked for from the king outwards: the first piece and the one beyond it on each
        // line, the horses behind each leg square, the pawns next to the king.
        let base = side_base(by);
        for d in ORTHO {
            if let Some(s) = self.lines.first(k, d) {
                let p = self.board[s as usize];
                if p == base | ROOK || (p == base | KING && (d == 16 || d == 0xF0)) {
                    out.push(s);
                }
                // Whatever the first piece is, it screens a cannon beyond it.
                if let Some(c) = self.lines.first(s, d)
                    && self.board[c as usize] == base | CANNON
                {
                    out.push(c);
                }
            }
        }
        for d in DIAG {
            let leg = k.wrapping_add(d);
            if self.board[leg as usize] == 0 {
                // The two squares a horse can attack the king from over this leg.
                let vert = if d == 15 || d == 17 { 16 } else { 0xF0 };
                for h in [
                    leg.wrapping_add(vert),
                    leg.wrapping_add(d.wrapping_sub(vert)),
                ] {
                    if self.board[h as usize] == base | HORSE {
                        out.push(h);
                    }
                }
            }
        }
        // The king stands on its own half, so an enemy pawn beside it has crossed the river.
        for s in [
            k.wrapping_sub(forward(by)),
            k.wrapping_add(1),
            k.wrapping_sub(1),
        ] {
            if self.board[s as usize] == base | PAWN {
                out.push(s);
            }
        }
        if out.len == 1 {
            let c = out.squares[0];
            out.to = bit(c);
            let p = self.board[c as usize];
            match p & 7 {
                ROOK | KING | CANNON => {
                    let d = ray_dir(c, k);
                    let mut s = c.wrapping_add(d);
                    while s != k && IN_BOARD[s as usize] {
                        out.to |= bit(s);
                        if self.board[s as usize] != 0 {
                            out.from |= bit(s);
                        }
                        s = s.wrapping_add(d);
                    }
                }
                HORSE => {
                    for (leg, d) in HORSE_STEPS {
                        if c.wrapping_add(d) == k {
                            out.to |= bit(c.wrapping_add(leg));
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// True if the piece on inner square `s` attacks inner square `k` (which holds a piece
    /// of the other side): the piece-by-piece reference for the tests.
    #[cfg(test)]
    fn attacks_from(&self, s: u8, k: u8) -> bool {
        let p = self.board[s as usize];
        let by = code_side(p);
        match p & 7 {
            ROOK | KING | CANNON => {
                let d = ray_dir(s, k);
                // The king attacks along a file only, and (in its palace) by one step.
                let king_step = p & 7 == KING && ORTHO.contains(&k.wrapping_sub(s));
                if d == 0 || (p & 7 == KING && (d == 1 || d == 0xFF)) {
                    return king_step;
                }
                let between = self.count_between(s, k, d);
                king_step
                    || if p & 7 == CANNON {
                        between == 1
                    } else {
                        between == 0
                    }
            }
            HORSE => HORSE_STEPS.iter().any(|&(leg, d)| {
                s.wrapping_add(d) == k && self.board[s.wrapping_add(leg) as usize] == 0
            }),
            PAWN => {
                k == s.wrapping_add(forward(by))
                    || (!own_half(by, s) && (k == s.wrapping_add(1) || k == s.wrapping_sub(1)))
            }
            _ => false,
        }
    }

    /// Pieces strictly between `a` and `b`, walking from `a` in step `d`.
    #[cfg(test)]
    fn count_between(&self, a: u8, b: u8, d: u8) -> u32 {
        let mut n = 0;
        let mut s = a.wrapping_add(d);
        while s != b && IN_BOARD[s as usize] {
            n += u32::from(self.board[s as usize] != 0);
            s = s.wrapping_add(d);
        }
        n
    }

    /// Full legality of `mv`, a pseudo-legal move of the side to move, given the
    /// [`Position::checkers`] of this position (the same answer as
    /// [`Position::pseudo_move_is_legal`]; faster when in check).
    #[must_use]
    pub fn evasion_is_legal(&self, mv: Move, checkers: &Checkers) -> bool {
        if checkers.is_empty() {
            return self.pseudo_is_legal(mv, false);
        }
        let (f, t) = (mv.inner_from(), mv.to_inner());
        let k = self.king_inner(self.side.index());
        if f != k {
            let may = if checkers.len == 1 {
                (checkers.to & bit(t)) | (checkers.from & bit(f)) != 0
            } else {
                checkers.iter().all(|c| self.may_resolve(k, c, f, t))
            };
            if !may {
                return false;
            }
        }
        !self.exposes_king(mv)
    }

    /// Keeps in `moves` (pseudo-legal moves of the side to move) only those that may deal
    /// with every checker: king moves, and moves that capture, block or unscreen (the
    /// quick part of [`Position::evasion_is_legal`]; the full test is still needed).
    pub fn retain_evasion_candidates(&self, moves: &mut MoveList<Move>, checkers: &Checkers) {
        if checkers.is_empty() {
            return;
        }
        let k = self.king_inner(self.side.index());
        if checkers.len == 1 {
            moves.retain(|m| {
                let (f, t) = (m.inner_from(), m.to_inner());
                f == k || (checkers.to & bit(t)) | (checkers.from & bit(f)) != 0
            });
        } else {
            moves.retain(|m| {
                let (f, t) = (m.inner_from(), m.to_inner());
                f == k || checkers.iter().all(|c| self.may_resolve(k, c, f, t))
            });
        }
    }

    /// Can a move from `f` to `t` (not by the king on `k`) stop the check from `c`?
    fn may_resolve(&self, k: u8, c: u8, f: u8, t: u8) -> bool {
        if t == c {
            return true;
        }
        let p = self.board[c as usize];
        match p & 7 {
            ROOK | KING | CANNON => {
                let d = ray_dir(k, c);
                let between = |s: u8| d != 0 && ray_dir(k, s) == d && (s < c) == (k < c);
                between(t) || (p & 7 == CANNON && between(f))
            }
            HORSE => HORSE_STEPS
                .iter()
                .any(|&(leg, d)| c.wrapping_add(d) == k && c.wrapping_add(leg) == t),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkers_match_a_piece_by_piece_search() {
        let mut seed = 99u64;
        let mut checks = 0;
        for _ in 0..400 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Prefer checking moves, so that many positions are in check.
                let mut list: Vec<Move> = moves.iter().copied().collect();
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                if seed & (1 << 40) != 0 {
                    let checking: Vec<Move> = list
                        .iter()
                        .copied()
                        .filter(|&m| pos.clone().gives_check(m))
                        .collect();
                    if !checking.is_empty() {
                        list = checking;
                    }
                }
                let mv = list[(seed >> 33) as usize % list.len()];
                pos.make(mv);
                let side = pos.side.index();
                let k = pos.king_inner(side);
                let mut want: Vec<u8> = pos.lists[1 - side]
                    .iter()
                    .copied()
                    .filter(|&s| s != 0 && pos.attacks_from(s, k))
                    .collect();
                let got = pos.checkers();
                let mut have: Vec<u8> = got.iter().collect();
                want.sort_unstable();
                have.sort_unstable();
                assert_eq!(have, want, "{pos:?}");
                checks += usize::from(!want.is_empty());
            }
        }
        assert!(checks > 100, "only {checks} positions in check");
    }
}
