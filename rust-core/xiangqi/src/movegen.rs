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

use crate::moves::Move;
use crate::position::Position;
use crate::tables::*;
use banco_game::MoveList;

/// Which moves to generate.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    All,
    Captures,
}

impl Position {
    /// Every legal move (replaces the contents of `out`).
    pub fn generate_legal(&self, out: &mut MoveList<Move>) {
        out.clear();
        self.generate(out, Kind::All);
        let in_check = self.in_check();
        out.retain(|&m| self.pseudo_is_legal(m, in_check));
    }

    /// Every legal capture (replaces the contents of `out`), for quiescence search.
    pub fn generate_legal_captures(&self, out: &mut MoveList<Move>) {
        out.clear();
        self.generate(out, Kind::Captures);
        let in_check = self.in_check();
        out.retain(|&m| self.pseudo_is_legal(m, in_check));
    }

    /// Every pseudo-legal move: obeys piece movement but may leave the own king attacked.
    pub fn generate_pseudo(&self, out: &mut MoveList<Move>) {
        out.clear();
        self.generate(out, Kind::All);
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
        self.generate(&mut l, Kind::All);
        let in_check = self.in_check();
        l.iter()
            .filter(|&&m| self.pseudo_is_legal(m, in_check))
            .count()
    }

    /// True if the side to move has at least one legal move.
    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        let mut l = MoveList::new();
        self.generate(&mut l, Kind::All);
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
        let mut l = MoveList::new();
        self.gen_piece(f, p & 7, side, &mut l, Kind::All);
        l.contains(&mv)
    }

    /// Pseudo-legal captures by the piece on inner square `from` (of either side).
    pub(crate) fn piece_captures(&self, from: u8, out: &mut MoveList<Move>) {
        let p = self.board[from as usize];
        if p != 0 {
            self.gen_piece(
                from,
                p & 7,
                crate::tables::code_side(p),
                out,
                Kind::Captures,
            );
        }
    }

    fn generate(&self, out: &mut MoveList<Move>, kind: Kind) {
        let side = self.side.index();
        for (slot, &sq) in self.lists[side].iter().enumerate() {
            if sq != 0 {
                self.gen_piece(sq, SLOT_KIND[slot], side, out, kind);
            }
        }
    }

    #[inline(always)]
    fn gen_piece(&self, f: u8, piece: u8, side: usize, out: &mut MoveList<Move>, kind: Kind) {
        let b = &self.board;
        let own = side_base(side);
        let enemy = side_base(1 - side);
        // A target is fine if empty (quiet, unless captures only) or an enemy piece.
        let mut add = |t: u8| {
            let c = b[t as usize];
            if (c == 0 && kind == Kind::All) || c & enemy != 0 {
                out.push(Move::inner(f, t));
            }
        };
        match piece {
            KING => {
                for d in ORTHO {
                    let t = f.wrapping_add(d);
                    if IN_PALACE[t as usize] {
                        add(t);
                    }
                }
            }
            ADVISOR => {
                for d in DIAG {
                    let t = f.wrapping_add(d);
                    if IN_PALACE[t as usize] {
                        add(t);
                    }
                }
            }
            ELEPHANT => {
                for d in DIAG {
                    let eye = f.wrapping_add(d);
                    let t = eye.wrapping_add(d);
                    if IN_BOARD[t as usize] && own_half(side, t) && b[eye as usize] == 0 {
                        add(t);
                    }
                }
            }
            HORSE => {
                for (leg, d) in HORSE_STEPS {
                    let t = f.wrapping_add(d);
                    if IN_BOARD[t as usize] && b[f.wrapping_add(leg) as usize] == 0 {
                        add(t);
                    }
                }
            }
            ROOK => {
                for d in ORTHO {
                    let mut t = f.wrapping_add(d);
                    while IN_BOARD[t as usize] {
                        let c = b[t as usize];
                        if c == 0 {
                            if kind == Kind::All {
                                out.push(Move::inner(f, t));
                            }
                        } else {
                            if c & own == 0 {
                                out.push(Move::inner(f, t));
                            }
                            break;
                        }
                        t = t.wrapping_add(d);
                    }
                }
            }
            CANNON => {
                for d in ORTHO {
                    let mut t = f.wrapping_add(d);
                    while IN_BOARD[t as usize] && b[t as usize] == 0 {
                        if kind == Kind::All {
                            out.push(Move::inner(f, t));
                        }
                        t = t.wrapping_add(d);
                    }
                    if !IN_BOARD[t as usize] {
                        continue;
                    }
                    t = t.wrapping_add(d);
                    while IN_BOARD[t as usize] {
                        let c = b[t as usize];
                        if c != 0 {
                            if c & enemy != 0 {
                                out.push(Move::inner(f, t));
                            }
                            break;
                        }
                        t = t.wrapping_add(d);
                    }
                }
            }
            _ => {
                // Pawn.
                let t = f.wrapping_add(forward(side));
                if IN_BOARD[t as usize] {
                    add(t);
                }
                if !own_half(side, f) {
                    for t in [f.wrapping_add(1), f.wrapping_sub(1)] {
                        if IN_BOARD[t as usize] {
                            add(t);
                        }
                    }
                }
            }
        }
    }
}
