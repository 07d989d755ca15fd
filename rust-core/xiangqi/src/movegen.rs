//! Strictly legal move generation into a caller's [`MoveList`].
//!
//! ```
//! use banco_xiangqi::Position;
//! use banco_game::MoveList;
//! let pos = Position::startpos();
//! let mut moves = MoveList::new();
//! pos.generate_legal(&mut moves);
//! assert_eq!(moves.len(), 44);
//! assert_eq!(pos.count_legal(), 44);
//! ```

use crate::lines::Lines;
use crate::moves::Move;
use crate::position::{Position, ray_dir};
use crate::tables::*;
use banco_game::MoveList;

/// Which moves to generate: a const parameter of the generator, so that each kind gets
/// its own code without a test per target.
mod kind {
    pub(super) const ALL: u8 = 0;
    pub(super) const CAPTURES: u8 = 1;
    pub(super) const QUIETS: u8 = 2;
}

impl Position {
    /// Every legal move (replaces the contents of `out`).
    pub fn generate_legal(&self, out: &mut MoveList<Move>) {
        out.clear();
        self.generate::<{ kind::ALL }>(out);
        let in_check = self.in_check();
        out.retain(|&m| self.pseudo_is_legal(m, in_check));
    }

    /// Every legal capture (replaces the contents of `out`), for quiescence search.
    pub fn generate_legal_captures(&self, out: &mut MoveList<Move>) {
        out.clear();
        self.generate_captures(out);
        let in_check = self.in_check();
        out.retain(|&m| self.pseudo_is_legal(m, in_check));
    }

    /// Every pseudo-legal move: obeys piece movement but may leave the own king attacked.
    pub fn generate_pseudo(&self, out: &mut MoveList<Move>) {
        out.clear();
        self.generate::<{ kind::ALL }>(out);
    }

    /// The pseudo-legal captures (replaces the contents of `out`): a search's first stage.
    pub fn generate_pseudo_captures(&self, out: &mut MoveList<Move>) {
        out.clear();
        self.generate_captures(out);
    }

    /// The pseudo-legal moves that capture nothing (replaces the contents of `out`): a
    /// search generates them only when no capture or killer has cut the node off.
    pub fn generate_pseudo_quiets(&self, out: &mut MoveList<Move>) {
        out.clear();
        self.generate::<{ kind::QUIETS }>(out);
    }

    /// Legal moves as a new list (convenient outside hot loops).
    #[must_use]
    pub fn legal_moves(&self) -> MoveList<Move> {
        let mut l = MoveList::new();
        self.generate_legal(&mut l);
        l
    }

    /// Number of legal moves, without storing them (perft's bulk counting).
    #[must_use]
    pub fn count_legal(&self) -> usize {
        let mut l = MoveList::new();
        self.generate::<{ kind::ALL }>(&mut l);
        let in_check = self.in_check();
        l.iter()
            .filter(|&&m| self.pseudo_is_legal(m, in_check))
            .count()
    }

    /// True if the side to move has at least one legal move.
    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        let mut l = MoveList::new();
        self.generate::<{ kind::ALL }>(&mut l);
        let in_check = self.in_check();
        l.iter().any(|&m| self.pseudo_is_legal(m, in_check))
    }

    /// True if `mv` is legal in this position (any value, even garbage, is safe to test).
    #[must_use]
    pub fn is_legal(&self, mv: Move) -> bool {
        self.is_pseudo_legal(mv) && self.pseudo_is_legal(mv, self.in_check())
    }

    /// True if `mv` obeys the movement of the piece on its from-square, which must belong to
    /// the side to move (the own king may be left attacked).
    #[must_use]
    pub fn is_pseudo_legal(&self, mv: Move) -> bool {
        let (f, t) = (mv.inner_from(), mv.to_inner());
        if !IN_BOARD[f as usize] || !IN_BOARD[t as usize] || f == t {
            return false;
        }
        let p = self.board[f as usize];
        let side = self.side.index();
        if p == 0 || code_side(p) != side {
            return false;
        }
        let c = self.board[t as usize];
        if c != 0 && code_side(c) == side {
            return false;
        }
        let b = &self.board;
        let d = t.wrapping_sub(f);
        match p & 7 {
            KING => IN_PALACE[t as usize] && ORTHO.contains(&d),
            ADVISOR => IN_PALACE[t as usize] && DIAG.contains(&d),
            ELEPHANT => DIAG.iter().any(|&e| {
                e.wrapping_add(e) == d && b[f.wrapping_add(e) as usize] == 0 && own_half(side, t)
            }),
            HORSE => HORSE_STEPS
                .iter()
                .any(|&(leg, step)| step == d && b[f.wrapping_add(leg) as usize] == 0),
            ROOK | CANNON => {
                let step = ray_dir(f, t);
                if step == 0 {
                    return false;
                }
                let mut between = 0;
                let mut s = f.wrapping_add(step);
                while s != t {
                    between += u32::from(b[s as usize] != 0);
                    s = s.wrapping_add(step);
                }
                match (p & 7 == ROOK, c == 0) {
                    (true, _) | (false, true) => between == 0,
                    (false, false) => between == 1,
                }
            }
            _ => d == forward(side) || (!own_half(side, f) && (d == 1 || d == 0u8.wrapping_sub(1))),
        }
    }

    /// Pseudo-legal captures by the piece on inner square `from` (of either side).
    pub(crate) fn piece_captures(&self, from: u8, out: &mut MoveList<Move>) {
        let p = self.board[from as usize];
        if p != 0 {
            self.gen_piece::<{ kind::CAPTURES }>(from, p & 7, crate::tables::code_side(p), out);
        }
    }

    fn generate<const K: u8>(&self, out: &mut MoveList<Move>) {
        let side = self.side.index();
        for (slot, &sq) in self.lists[side].iter().enumerate() {
            if sq != 0 {
                self.gen_piece::<K>(sq, SLOT_KIND[slot], side, out);
            }
        }
    }

    /// The pseudo-legal captures, piece by piece in slot order. A leaping piece's targets
    /// are one mask and-ed with the enemy's pieces (usually nothing is left, and no target
    /// square is read); a rook or cannon finds its victim by the rank and file bit sets.
    fn generate_captures(&self, out: &mut MoveList<Move>) {
        let side = self.side.index() & 1;
        let enemy = self.occ[1 - side];
        let enemy_code = side_base(1 - side);
        let list = &self.lists[side];
        let b = &self.board;
        let targets = |f: u8, kind: usize| {
            LEAP_BITS[kind]
                .get(BOARD_INDEX[f as usize] as usize)
                .map_or(0, |&m| m & enemy)
        };
        for (slot, &f) in list.iter().enumerate().take(5) {
            if f == 0 {
                continue;
            }
            // King, advisors (no leg), elephants (the eye must be empty).
            let kind = usize::from(SLOT_KIND[slot]);
            for t in bit_squares(targets(f, kind)) {
                let eye = ((u16::from(f) + u16::from(t)) >> 1) as u8;
                if kind != ELEPHANT as usize || b[eye as usize] == 0 {
                    out.push(Move::inner(f, t));
                }
            }
        }
        for &f in &list[5..7] {
            if f != 0 {
                for t in bit_squares(targets(f, HORSE as usize)) {
                    if b[f.wrapping_add(HORSE_LEG[t.wrapping_sub(f) as usize]) as usize] == 0 {
                        out.push(Move::inner(f, t));
                    }
                }
            }
        }
        for (i, &f) in list[7..11].iter().enumerate() {
            if f == 0 {
                continue;
            }
            // The first piece each way is a rook's victim, a cannon's screen; the second
            // is a cannon's victim.
            let [mut right, mut left, mut up, mut down] = self.lines.beyond(f);
            if i >= 2 {
                right &= right.wrapping_sub(1);
                up &= up.wrapping_sub(1);
                left &= !0x8000u16.checked_shr(left.leading_zeros()).unwrap_or(0);
                down &= !0x8000u16.checked_shr(down.leading_zeros()).unwrap_or(0);
            }
            let mut victim = |t: u8| {
                if b[t as usize] & enemy_code != 0 {
                    out.push(Move::inner(f, t));
                }
            };
            if up != 0 {
                victim(((up.trailing_zeros() as u8) << 4) | (f & 15));
            }
            if down != 0 {
                victim(((15 - down.leading_zeros() as u8) << 4) | (f & 15));
            }
            if right != 0 {
                victim((f & 0xF0) | right.trailing_zeros() as u8);
            }
            if left != 0 {
                victim((f & 0xF0) | (15 - left.leading_zeros() as u8));
            }
        }
        for &f in &list[11..16] {
            if f != 0 {
                for t in bit_squares(targets(f, 4 + side)) {
                    out.push(Move::inner(f, t));
                }
            }
        }
    }

    #[inline(always)]
    fn gen_piece<const K: u8>(&self, f: u8, piece: u8, side: usize, out: &mut MoveList<Move>) {
        let b = &self.board;
        let enemy = side_base(1 - side);
        // A target is fine if empty (quiet, unless captures only) or an enemy piece.
        let mut add = |t: u8| {
            let c = b[t as usize];
            if (c == 0 && K != kind::CAPTURES) || (c & enemy != 0 && K != kind::QUIETS) {
                out.push(Move::inner(f, t));
            }
        };
        let leaps = match piece {
            KING => &KING_LEAPS[f as usize],
            ADVISOR => &ADVISOR_LEAPS[f as usize],
            ELEPHANT => &ELEPHANT_LEAPS[f as usize],
            HORSE => &HORSE_LEAPS[f as usize],
            PAWN => &PAWN_LEAPS[side & 1][f as usize],
            _ => &Leaps::NONE,
        };
        for (t, via) in leaps.iter() {
            if b[via as usize] == 0 {
                add(t);
            }
        }
        match piece {
            ROOK | CANNON => {
                for d in ORTHO {
                    let first = self.lines.first(f, d);
                    if K != kind::CAPTURES {
                        let stop = first.unwrap_or_else(|| Lines::edge(f, d));
                        let mut t = f.wrapping_add(d);
                        while t != stop {
                            out.push(Move::inner(f, t));
                            t = t.wrapping_add(d);
                        }
                    }
                    if K == kind::QUIETS {
                        continue;
                    }
                    let target = if piece == ROOK {
                        first
                    } else {
                        first.and_then(|screen| self.lines.first(screen, d))
                    };
                    if let Some(t) = target
                        && b[t as usize] & enemy != 0
                    {
                        out.push(Move::inner(f, t));
                    }
                }
            }
            _ => {}
        }
    }
}
