//! Cheap queries that a search and an evaluation need and that read the board (and, for
//! rooks and cannons, the rank and file occupancy bit sets) directly: the pieces of one
//! side, pseudo-mobility of a piece, pieces between two squares, the per-side features of a
//! static evaluation in one pass ([`Position::eval_features`]), and a static exchange test
//! for capture ordering.
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

use crate::lines::{DOWN, LEFT, Lines, RIGHT, UP};
use crate::moves::Move;
use crate::piece::PieceKind;
use crate::position::Position;
use crate::square::Square;
use crate::tables::*;
use banco_game::{Color, MoveList};

/// Exchange values used by [`Position::see_sign`] (pawn 1, advisor/elephant 2, horse and
/// cannon 4, rook 9, king large).
const SEE_VALUE: [i32; 7] = [100, 2, 2, 4, 9, 4, 1];

/// The positional features of one side that a static evaluation weighs, counted in one pass
/// over the side's piece list by [`Position::eval_features`]. Plain counts, no weights.
///
/// "Near the enemy palace" means on files c–g (2–6) and at most three ranks from the enemy
/// king's rank.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvalFeatures {
    /// Advisors on the board (0–2).
    pub advisors: u8,
    /// Elephants on the board (0–2).
    pub elephants: u8,
    /// Horses on the board (0–2).
    pub horses: u8,
    /// Rooks on the board (0–2).
    pub rooks: u8,
    /// Cannons on the board (0–2).
    pub cannons: u8,
    /// Sum of the rooks' [pseudo-mobilities](Position::pseudo_mobility).
    pub rook_mobility: u8,
    /// [Pseudo-mobility](Position::pseudo_mobility) (0–8) of each horse on the board: the
    /// first [`horses`](EvalFeatures::horses) entries are used, the rest are 0.
    pub horse_mobility: [u8; 2],
    /// Cannons on the enemy king's file with exactly 0, 1 or 2 pieces between them and the
    /// king (cannons with more pieces between are not counted).
    pub cannon_screens: [u8; 3],
    /// Rooks, horses, cannons and pawns across the river that stand near the enemy palace.
    pub attackers: u8,
    /// Pawns across the river with an own pawn on the next file to their right (toward
    /// file i) on the same rank: the number of side-by-side pairs.
    pub connected_pawns: u8,
}

/// 0xFF on off-board squares, 0 on the board: `board[t] | WALL[t]` is 0 exactly on an empty
/// board square, and has the bits of both sides' codes off the board.
static WALL: [u8; 256] = {
    let mut t = [0xFF; 256];
    let mut i = 0;
    while i < 256 {
        if IN_BOARD[i] {
            t[i] = 0;
        }
        i += 1;
    }
    t
};

/// `NEAR[row][sq]` is 1 when the inner square `sq` is near the palace of an enemy king on
/// inner row `row`: on files c–g (2–6) and at most three ranks from the king's rank.
static NEAR: [[u8; 256]; 16] = {
    let mut t = [[0; 256]; 16];
    let mut row = 0;
    while row < 16 {
        let mut i = 0;
        while i < 256 {
            let (r, c) = (i >> 4, i & 15);
            if IN_BOARD[i] && c >= 5 && c <= 9 && r + 3 >= row && r <= row + 3 {
                t[row][i] = 1;
            }
            i += 1;
        }
        row += 1;
    }
    t
};

/// The four directions of [`rays`], in the order of its stops.
const RAY_DIRS: [u8; 4] = [RIGHT, LEFT, UP, DOWN];

/// The stops of the four rays from the board square `f` (first piece or off-board square,
/// in [`RAY_DIRS`] order) and the number of empty squares before them.
#[inline(always)]
fn rays(lines: &Lines, f: u8) -> ([u8; 4], u8) {
    let [right, left, up, down] = lines.runs(f);
    let stops = [
        f + right + 1,
        f - left - 1,
        f + ((up + 1) << 4),
        f - ((down + 1) << 4),
    ];
    (stops, right + left + up + down)
}

/// Pseudo-mobility of a rook on the board square `f` whose enemy has code base `enemy`:
/// the empty squares of its rays plus the enemy pieces that stop them.
#[inline(always)]
fn rook_mobility(b: &[u8; 256], lines: &Lines, f: u8, enemy: u8) -> u8 {
    let (stops, empty) = rays(lines, f);
    // Off-board squares hold 0, like an own piece for this test.
    empty
        + stops
            .into_iter()
            .map(|t| u8::from(b[t as usize] & enemy != 0))
            .sum::<u8>()
}

/// Pseudo-mobility of a horse of the side with code base `own` on inner square `f`.
#[inline(always)]
fn horse_mobility(b: &[u8; 256], f: u8, own: u8) -> u8 {
    let free = |t: u8| u8::from((b[t as usize] | WALL[t as usize]) & own == 0);
    let mut n = 0u8;
    // HORSE_STEPS lists the two targets of each leg one after the other.
    for pair in HORSE_STEPS.chunks_exact(2) {
        if let [(leg, d1), (_, d2)] = *pair {
            if b[f.wrapping_add(leg) as usize] == 0 {
                n += free(f.wrapping_add(d1)) + free(f.wrapping_add(d2));
            }
        }
    }
    n
}

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

    /// The positional features of `color`'s pieces (see [`EvalFeatures`]), read straight
    /// from the fixed piece-list slots of each kind: a fast pass for static evaluation.
    /// Rook rays and the pieces between a cannon and the enemy king come from the rank and
    /// file occupancy bit sets, with no walk along the board. Always inlined: the
    /// evaluation calls it once per side, with the side known.
    ///
    /// ```
    /// use banco_xiangqi::Position;
    /// use banco_game::Color;
    /// let f = Position::startpos().eval_features(Color::Red);
    /// assert_eq!((f.advisors, f.elephants, f.horses, f.rooks, f.cannons), (2, 2, 2, 2, 2));
    /// assert_eq!(f.rook_mobility, 4); // a1, a2, i1, i2
    /// assert_eq!(f.horse_mobility, [2, 2]);
    /// assert_eq!(f.cannon_screens, [0, 0, 0]);
    /// assert_eq!((f.attackers, f.connected_pawns), (0, 0));
    /// ```
    #[inline(always)]
    #[must_use]
    pub fn eval_features(&self, color: Color) -> EvalFeatures {
        let side = color.index();
        let own = side_base(side);
        let enemy = side_base(1 - side);
        let b = &self.board;
        let l = &self.lists[side];
        let ek = self.lists[1 - side][0];
        let near_table = &NEAR[usize::from(ek >> 4)];
        let near = |s: u8| near_table[s as usize];
        let mut f = EvalFeatures {
            advisors: u8::from(l[1] != 0) + u8::from(l[2] != 0),
            elephants: u8::from(l[3] != 0) + u8::from(l[4] != 0),
            ..EvalFeatures::default()
        };
        for &s in &l[5..7] {
            if s != 0 {
                f.horse_mobility[usize::from(f.horses & 1)] = horse_mobility(b, s, own);
                f.horses += 1;
                f.attackers += near(s);
            }
        }
        for &s in &l[7..9] {
            if s != 0 {
                f.rooks += 1;
                f.rook_mobility += rook_mobility(b, &self.lines, s, enemy);
                f.attackers += near(s);
            }
        }
        for &s in &l[9..11] {
            if s != 0 {
                f.cannons += 1;
                f.attackers += near(s);
                if s & 15 == ek & 15 {
                    let n = self.lines.between_on_file(s, ek) as usize;
                    if let Some(c) = f.cannon_screens.get_mut(n) {
                        *c += 1;
                    }
                }
            }
        }
        let pawn = own | PAWN;
        // Across the river: inner rows 8–12 for Red (0x80 and up), rows 3–7 for Black (1 to
        // 0x7F, as 0 marks a captured pawn), so one wrapping subtraction and compare each.
        let (first, span) = if side == 0 {
            (0x80u8, 0x80u8)
        } else {
            (1, 0x7F)
        };
        for &s in &l[11..16] {
            if s.wrapping_sub(first) < span {
                f.attackers += near(s);
                f.connected_pawns += u8::from(b[s.wrapping_add(1) as usize] == pawn);
            }
        }
        f
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
            ROOK => n = u32::from(rook_mobility(b, &self.lines, f, side_base(1 - side))),
            CANNON => {
                let (stops, empty) = rays(&self.lines, f);
                n = u32::from(empty);
                for (t, d) in stops.into_iter().zip(RAY_DIRS) {
                    // A screen (not the edge, where the board holds 0), then a target beyond.
                    if b[t as usize] != 0 {
                        if let Some(x) = self.lines.first(t, d) {
                            n += u32::from(b[x as usize] & own == 0);
                        }
                    }
                }
            }
            HORSE => n = u32::from(horse_mobility(b, f, own)),
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

    /// Rook, cannon and horse pseudo-mobility square by square (for rooks and cannons,
    /// the walks that the occupancy bit sets replaced).
    fn walked_mobility(pos: &Position, f: u8) -> u32 {
        let b = &pos.board;
        let p = b[f as usize];
        let own = side_base(code_side(p));
        let mut n = 0;
        if p & 7 == HORSE {
            for (leg, d) in HORSE_STEPS {
                let t = f.wrapping_add(d);
                if b[f.wrapping_add(leg) as usize] == 0
                    && IN_BOARD[t as usize]
                    && b[t as usize] & own == 0
                {
                    n += 1;
                }
            }
            return n;
        }
        for d in ORTHO {
            let mut t = f.wrapping_add(d);
            while IN_BOARD[t as usize] && b[t as usize] == 0 {
                n += 1;
                t = t.wrapping_add(d);
            }
            if !IN_BOARD[t as usize] {
                continue;
            }
            if p & 7 == ROOK {
                n += u32::from(b[t as usize] & own == 0);
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
        n
    }

    #[test]
    fn rook_cannon_and_horse_mobility_match_a_walk_along_random_games() {
        let mut pos = Position::startpos();
        let mut moves: MoveList<Move> = MoveList::new();
        let mut seed = 777u64;
        let mut checked = 0;
        for _ in 0..4000 {
            // Every empty board square too, as a rook, a cannon and a horse of either side.
            for f in 0..=255u8 {
                let p = pos.board[f as usize];
                if IN_BOARD[f as usize] && (p == 0 || matches!(p & 7, ROOK | CANNON | HORSE)) {
                    let mut probe = pos.clone();
                    let codes = if p == 0 {
                        [ROOK, CANNON, HORSE].map(|k| [8 | k, 16 | k]).concat()
                    } else {
                        vec![p]
                    };
                    for code in codes {
                        probe.board[f as usize] = code;
                        probe.lines.set(f);
                        let sq = Square::from_inner(f);
                        assert_eq!(probe.pseudo_mobility(sq), walked_mobility(&probe, f));
                        checked += 1;
                    }
                }
            }
            pos.generate_legal(&mut moves);
            if moves.is_empty() || pos.halfmoves() > 100 {
                pos = Position::startpos();
                continue;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // Prefer captures half of the time, so that games reach sparse boards.
            let captures: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| pos.captured_kind(m).is_some())
                .collect();
            let r = (seed >> 33) as usize;
            let mv = if r & 1 == 1 && !captures.is_empty() {
                captures[(r >> 1) % captures.len()]
            } else {
                moves.as_slice()[(r >> 1) % moves.len()]
            };
            pos.make(mv);
        }
        assert!(checked > 100_000);
    }

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
