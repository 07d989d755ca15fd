//! The validated position: board, side to move, counters and Zobrist hash, with make/unmake
//! and attack detection. Move generation lives in `movegen.rs`, validation in `setup.rs`.
//!
//! ```
//! use banco_xiangqi::{Position, Move};
//! let mut pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 44);
//! let mv: Move = "h2e2".parse::<banco_xiangqi::Iccs>().unwrap().0;
//! let before = pos.hash();
//! let undo = pos.make(mv);
//! assert_ne!(pos.hash(), before);
//! pos.unmake(mv, undo);
//! assert_eq!(pos.hash(), before);
//! ```
//!
//! ## Representation
//!
//! A 16×16 mailbox (`[u8; 256]`, the 9×10 board with a margin of three squares) plus a
//! piece list of 16 fixed slots per side (king, 2 advisors, 2 elephants, 2 horses, 2 rooks,
//! 2 cannons, 5 pawns). Indices are `u8`, so every table lookup is bounds-check free, and
//! off-board squares read as empty, so sliding and leaping need no edge tests beyond one
//! `IN_BOARD` lookup. Legality uses a cheap pre-filter: a move that is not by the king, while
//! not in check, can only expose the king if it leaves or enters the king's rank or file or
//! leaves a horse-leg square next to the king; only those moves pay for an attack test, which
//! reads the board "as if" the move were made, without making it.

use crate::lines::Lines;
use crate::moves::Move;
use crate::piece::{Piece, PieceKind};
use crate::setup::Setup;
use crate::square::Square;
use crate::tables::*;
use crate::zobrist::{SIDE_KEY, piece_key};
use banco_game::Color;

/// A legal xiangqi position (see [`Setup`] for unvalidated input).
#[derive(Clone)]
pub struct Position {
    pub(crate) board: [u8; 256],
    pub(crate) slot: [u8; 256],
    pub(crate) lists: [[u8; 16]; 2],
    /// Rank and file occupancy for sliding pieces.
    pub(crate) lines: Lines,
    /// Each side's pieces as a bit set by board index ([`bit`]), for finding captures.
    pub(crate) occ: [u128; 2],
    pub(crate) side: Color,
    pub(crate) hash: u64,
    pub(crate) halfmoves: u16,
    pub(crate) fullmoves: u16,
}

/// What [`Position::make`] returns so that [`Position::unmake`] can restore the position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Undo {
    pub(crate) captured: u8,
    pub(crate) captured_slot: u8,
    pub(crate) halfmoves: u16,
}

impl Undo {
    /// The captured piece, if the move captured.
    #[must_use]
    pub fn captured(self) -> Option<Piece> {
        Piece::from_code(self.captured)
    }
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.halfmoves == other.halfmoves
            && self.fullmoves == other.fullmoves
    }
}
impl Eq for Position {}

impl core::fmt::Debug for Position {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Position({})", crate::fen::to_fen(self))
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl Position {
    /// The start position.
    #[must_use]
    pub fn startpos() -> Position {
        Position::from_setup_unchecked(&Setup::startpos())
    }

    /// Builds a position from a setup that is known to be within the piece counts of the
    /// game (at most one king and the start count of every kind per side). Extra pieces
    /// beyond those counts are dropped. Use [`Position::from_setup`] for untrusted input.
    pub(crate) fn from_setup_unchecked(setup: &Setup) -> Position {
        let mut pos = Position {
            board: [0; 256],
            slot: [0; 256],
            lists: [[0; 16]; 2],
            lines: Lines::default(),
            occ: [0; 2],
            side: setup.turn,
            hash: 0,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves.max(1),
        };
        let mut used = [[0u8; 7]; 2];
        for sq in Square::all() {
            if let Some(p) = setup.board[sq.index() as usize] {
                let side = p.color.index();
                let k = p.kind as usize;
                if used[side][k] >= p.kind.start_count() {
                    continue;
                }
                let slot = SLOT_BASE[k] + used[side][k];
                used[side][k] += 1;
                let i = sq.to_inner();
                let code = p.code();
                pos.board[i as usize] = code;
                pos.lines.set(i);
                pos.occ[side] |= bit(i);
                pos.slot[i as usize] = slot;
                pos.lists[side][slot as usize] = i;
                pos.hash ^= piece_key(code, i);
            }
        }
        if pos.side == Color::Black {
            pos.hash ^= SIDE_KEY;
        }
        pos
    }

    /// The unvalidated setup of this position (for editing, FEN and display).
    #[must_use]
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup::empty();
        for sq in Square::all() {
            setup.board[sq.index() as usize] = self.piece_at(sq);
        }
        setup.turn = self.side;
        setup.halfmoves = self.halfmoves;
        setup.fullmoves = self.fullmoves;
        setup
    }

    /// The piece on `sq`, if any.
    #[inline]
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.board[sq.to_inner() as usize])
    }

    /// Side to move.
    #[inline]
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Zobrist hash of pieces and side to move.
    #[inline]
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash [`Position::make`] would give after the pseudo-legal move `mv`, without
    /// making it (a search uses it to fetch a table entry early).
    #[inline]
    #[must_use]
    pub fn hash_after(&self, mv: Move) -> u64 {
        let (f, t) = (mv.inner_from(), mv.to_inner());
        let piece = self.board[f as usize];
        let captured = self.board[t as usize];
        let mut h = self.hash ^ piece_key(piece, f) ^ piece_key(piece, t) ^ SIDE_KEY;
        if captured != 0 {
            h ^= piece_key(captured, t);
        }
        h
    }

    /// Plies since the last capture (FEN's half-move field).
    #[inline]
    #[must_use]
    pub fn halfmoves(&self) -> u16 {
        self.halfmoves
    }

    /// FEN's full-move number (starts at 1, grows after Black's move).
    #[inline]
    #[must_use]
    pub fn fullmoves(&self) -> u16 {
        self.fullmoves
    }

    /// Square of `color`'s king.
    #[inline]
    #[must_use]
    pub fn king_square(&self, color: Color) -> Square {
        Square::from_inner(self.king_inner(color.index()))
    }

    #[inline(always)]
    pub(crate) fn king_inner(&self, side: usize) -> u8 {
        self.lists[side][0]
    }

    /// Every piece with its square, Red's first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.lists
            .iter()
            .flat_map(|l| l.iter())
            .filter(|&&s| s != 0)
            .filter_map(|&s| {
                Piece::from_code(self.board[s as usize]).map(|p| (Square::from_inner(s), p))
            })
    }

    /// Number of pieces of `color` and `kind` on the board.
    #[must_use]
    pub fn count(&self, color: Color, kind: PieceKind) -> u8 {
        let base = SLOT_BASE[kind as usize] as usize;
        let n = kind.start_count() as usize;
        self.lists[color.index()][base..base + n]
            .iter()
            .filter(|&&s| s != 0)
            .count() as u8
    }

    /// Recomputes the hash from scratch (tests compare it with the incremental one).
    #[must_use]
    pub fn compute_hash(&self) -> u64 {
        let mut h = if self.side == Color::Black {
            SIDE_KEY
        } else {
            0
        };
        for i in 0..=255u8 {
            let c = self.board[i as usize];
            if c != 0 {
                h ^= piece_key(c, i);
            }
        }
        h
    }

    /// Plays `mv`, which must be pseudo-legal for the side to move (a move from
    /// [`Position::legal_moves`]). Returns what [`Position::unmake`] needs.
    #[inline]
    pub fn make(&mut self, mv: Move) -> Undo {
        let (f, t) = (mv.inner_from(), mv.to_inner());
        let piece = self.board[f as usize];
        let captured = self.board[t as usize];
        let side = self.side.index();
        let undo = Undo {
            captured,
            captured_slot: self.slot[t as usize],
            halfmoves: self.halfmoves,
        };
        if captured != 0 {
            self.lists[code_side(captured)][undo.captured_slot as usize & 15] = 0;
            self.occ[code_side(captured) & 1] ^= bit(t);
            self.hash ^= piece_key(captured, t);
            self.halfmoves = 0;
        } else {
            self.halfmoves = self.halfmoves.saturating_add(1);
        }
        let s = self.slot[f as usize];
        self.board[t as usize] = piece;
        self.board[f as usize] = 0;
        self.lines.clear(f);
        self.lines.set(t);
        self.occ[side] ^= bit(f) | bit(t);
        self.slot[t as usize] = s;
        self.lists[side][s as usize & 15] = t;
        self.hash ^= piece_key(piece, f) ^ piece_key(piece, t) ^ SIDE_KEY;
        if self.side == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.side = self.side.other();
        undo
    }

    /// Takes back `mv` made by [`Position::make`].
    #[inline]
    pub fn unmake(&mut self, mv: Move, undo: Undo) {
        let (f, t) = (mv.inner_from(), mv.to_inner());
        self.side = self.side.other();
        if self.side == Color::Black {
            self.fullmoves = self.fullmoves.saturating_sub(1);
        }
        let side = self.side.index();
        let piece = self.board[t as usize];
        let s = self.slot[t as usize];
        self.board[f as usize] = piece;
        self.slot[f as usize] = s;
        self.lists[side][s as usize & 15] = f;
        self.board[t as usize] = undo.captured;
        self.lines.set(f);
        if undo.captured == 0 {
            self.lines.clear(t);
        }
        self.occ[side] ^= bit(f) | bit(t);
        self.hash ^= piece_key(piece, f) ^ piece_key(piece, t) ^ SIDE_KEY;
        if undo.captured != 0 {
            self.slot[t as usize] = undo.captured_slot;
            self.lists[code_side(undo.captured)][undo.captured_slot as usize & 15] = t;
            self.occ[code_side(undo.captured) & 1] ^= bit(t);
            self.hash ^= piece_key(undo.captured, t);
        }
        self.halfmoves = undo.halfmoves;
    }

    /// Passes the move to the other side (for null-move pruning in search). Returns the
    /// previous half-move counter for [`Position::unmake_null`].
    pub fn make_null(&mut self) -> u16 {
        self.side = self.side.other();
        self.hash ^= SIDE_KEY;
        let h = self.halfmoves;
        self.halfmoves = self.halfmoves.saturating_add(1);
        h
    }

    /// Takes back [`Position::make_null`].
    pub fn unmake_null(&mut self, halfmoves: u16) {
        self.side = self.side.other();
        self.hash ^= SIDE_KEY;
        self.halfmoves = halfmoves;
    }

    /// True if the side to move is in check (including by the facing kings).
    #[inline]
    #[must_use]
    pub fn in_check(&self) -> bool {
        let side = self.side.index();
        self.attacked(self.king_inner(side), 1 - side)
    }

    /// True if `color`'s king is attacked.
    #[must_use]
    pub fn is_check_on(&self, color: Color) -> bool {
        self.attacked(self.king_inner(color.index()), 1 - color.index())
    }

    /// True if `sq` is attacked by a piece of `by`: a piece of `by` could capture there
    /// were an enemy piece on it (a king attacks its neighbours in the palace, and along
    /// an open file the other king only; advisors and elephants the squares they step to,
    /// an elephant only over an empty eye). Whether the capture would expose the capturer's
    /// own king is not asked.
    ///
    /// ```
    /// use banco_game::Color;
    /// use banco_xiangqi::{Position, Square};
    ///
    /// let pos = Position::startpos();
    /// let sq = |name: &str| name.parse::<Square>().unwrap();
    /// // The advisors guard e1, the elephants e2 and the c0 elephant a2.
    /// assert!(pos.is_attacked(sq("e1"), Color::Red));
    /// assert!(pos.is_attacked(sq("a2"), Color::Red));
    /// assert!(!pos.is_attacked(sq("e1"), Color::Black));
    /// ```
    #[must_use]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        let board = |s: u8| self.board[s as usize];
        attacked_exactly(
            &board,
            &board,
            sq.to_inner(),
            by.index(),
            |code, from| match code & 7 {
                ADVISOR => &ADVISOR_LEAPS[from as usize],
                _ => &ELEPHANT_LEAPS[from as usize],
            },
        )
    }

    #[inline(always)]
    pub(crate) fn attacked(&self, t: u8, by: usize) -> bool {
        near_attacked(&|s: u8| self.board[s as usize], t, by)
            || ORTHO.into_iter().any(|d| self.line_attacked(t, d, by))
    }

    /// [`ray_attacked`] on the real board, with the occupancy bit sets.
    #[inline(always)]
    fn line_attacked(&self, t: u8, d: u8, by: usize) -> bool {
        let base = side_base(by);
        let Some(s) = self.lines.first(t, d) else {
            return false;
        };
        let p = self.board[s as usize];
        if p == base | ROOK || (p == base | KING && (d == 16 || d == 0xF0)) {
            return true;
        }
        self.lines
            .first(s, d)
            .is_some_and(|c| self.board[c as usize] == base | CANNON)
    }

    /// Would the own king be attacked after `mv` (a pseudo-legal move of the side to move)?
    #[inline]
    pub(crate) fn exposes_king(&self, mv: Move) -> bool {
        let (f, t) = (mv.inner_from(), mv.to_inner());
        let moved = self.board[f as usize];
        let side = self.side.index();
        let k = self.king_inner(side);
        let king_after = if f == k { t } else { k };
        let view = self.view_after(f, t, moved);
        attacked_on(&view, king_after, 1 - side)
    }

    /// The board as if the piece `moved` went from `f` to `t` (whatever stood on `t` gone).
    #[inline(always)]
    fn view_after(&self, f: u8, t: u8, moved: u8) -> impl Fn(u8) -> u8 + '_ {
        move |s: u8| {
            if s == t {
                moved
            } else if s == f {
                0
            } else {
                self.board[s as usize]
            }
        }
    }

    /// Full legality of a pseudo-legal move given whether the side is in check. When not in
    /// check and the king does not move, only the attacks that the move can change are
    /// tested: the king's rays through the from- and to-squares (rooks, cannons, the facing
    /// king) and, when the from-square is a horse leg next to the king, that horse.
    #[inline(always)]
    pub(crate) fn pseudo_is_legal(&self, mv: Move, in_check: bool) -> bool {
        let (f, t) = (mv.inner_from(), mv.to_inner());
        let side = self.side.index();
        let k = self.king_inner(side);
        if in_check || f == k {
            return !self.exposes_king(mv);
        }
        let view = self.view_after(f, t, self.board[f as usize]);
        let by = 1 - side;
        let df = ray_dir(k, f);
        // Rays near the king are short: walking them beats the bit scan here.
        if df != 0 && ray_attacked(&view, k, df, by, true) {
            return false;
        }
        let dt = ray_dir(k, t);
        if dt != 0 && dt != df && ray_attacked(&view, k, dt, by, true) {
            return false;
        }
        !horse_behind_leg(&view, k, f, by)
    }

    /// True if the side to move is in check, given that `mv` was the move just made: the
    /// same answer as [`Position::in_check`], found faster. Before the move the side to
    /// move was not in check (its opponent had just moved legally), so only the attacks
    /// the move can create are examined: the king's rays through the from- and
    /// to-squares (rooks, cannons and their screens, the facing king), the moved horse or
    /// pawn, and a horse whose leg the move vacated.
    #[inline]
    #[must_use]
    pub fn in_check_after(&self, mv: Move) -> bool {
        let (f, t) = (mv.inner_from(), mv.to_inner());
        let side = self.side.index();
        let by = 1 - side;
        let k = self.king_inner(side);
        let get = |s: u8| self.board[s as usize];
        let df = ray_dir(k, f);
        if df != 0 && self.line_attacked(k, df, by) {
            return true;
        }
        let dt = ray_dir(k, t);
        if dt != 0 && dt != df && self.line_attacked(k, dt, by) {
            return true;
        }
        let moved = self.board[t as usize];
        let direct = match moved & 7 {
            HORSE => HORSE_STEPS
                .iter()
                .any(|&(leg, d)| t.wrapping_add(d) == k && get(t.wrapping_add(leg)) == 0),
            PAWN => {
                k == t.wrapping_add(forward(by))
                    || (!own_half(by, t) && (k == t.wrapping_add(1) || k == t.wrapping_sub(1)))
            }
            _ => false,
        };
        direct || horse_behind_leg(&get, k, f, by)
    }
}

/// True if `f`, a square diagonally next to the king on `k`, is the (empty) leg of a horse
/// of `by` two steps beyond it that therefore attacks the king.
#[inline(always)]
fn horse_behind_leg(get: &impl Fn(u8) -> u8, k: u8, f: u8, by: usize) -> bool {
    let d = f.wrapping_sub(k);
    if !matches!(d, 15 | 17 | 0xF1 | 0xEF) || get(f) != 0 {
        return false;
    }
    let vert = if d == 15 || d == 17 {
        16
    } else {
        0u8.wrapping_sub(16)
    };
    let horiz = d.wrapping_sub(vert);
    let horse = side_base(by) | HORSE;
    get(f.wrapping_add(vert)) == horse || get(f.wrapping_add(horiz)) == horse
}

/// The step from `k` towards `s` if they share a rank or file (0 otherwise or if equal).
#[inline(always)]
pub(crate) fn ray_dir(k: u8, s: u8) -> u8 {
    if s == k {
        0
    } else if (s ^ k) & 0xF0 == 0 {
        if s > k { 1 } else { 0xFF }
    } else if (s ^ k).trailing_zeros() >= 4 {
        if s > k { 16 } else { 0xF0 }
    } else {
        0
    }
}

/// Is `t` attacked along the ray in direction `d` by a rook, a cannon over one screen, or
/// (along a file, if `king_counts`) the other king?
#[inline(always)]
fn ray_attacked(get: &impl Fn(u8) -> u8, t: u8, d: u8, by: usize, king_counts: bool) -> bool {
    let base = side_base(by);
    let mut s = t.wrapping_add(d);
    while IN_BOARD[s as usize] && get(s) == 0 {
        s = s.wrapping_add(d);
    }
    if !IN_BOARD[s as usize] {
        return false;
    }
    let p = get(s);
    if p == base | ROOK || (king_counts && p == base | KING && (d == 16 || d == 0xF0)) {
        return true;
    }
    s = s.wrapping_add(d);
    while IN_BOARD[s as usize] && get(s) == 0 {
        s = s.wrapping_add(d);
    }
    IN_BOARD[s as usize] && get(s) == base | CANNON
}

/// Attack test over any board view (the real board, or the board as if a move were made).
#[inline(always)]
pub(crate) fn attacked_on(get: &impl Fn(u8) -> u8, t: u8, by: usize) -> bool {
    // Lines: rooks, the facing king along a file, cannons over one screen.
    near_attacked(get, t, by) || ORTHO.into_iter().any(|d| ray_attacked(get, t, d, by, true))
}

/// The exact attack test behind the public `is_attacked` of xiangqi and jieqi: could a
/// piece of `by` capture on `t`? Unlike [`attacked_on`] (made for checks: it counts a
/// king along an open file whatever stands on `t`), a king attacks along a file only the
/// other king, and advisors and elephants count ([`guard_attacked`]). `view` is the board
/// with jieqi's face-down bit masked off, `raw` the board itself.
#[inline]
pub(crate) fn attacked_exactly(
    view: &impl Fn(u8) -> u8,
    raw: &impl Fn(u8) -> u8,
    t: u8,
    by: usize,
    leaps: impl Fn(u8, u8) -> &'static Leaps,
) -> bool {
    let king_here = view(t) == side_base(1 - by) | KING;
    near_attacked(view, t, by)
        || ORTHO
            .into_iter()
            .any(|d| ray_attacked(view, t, d, by, king_here))
        || guard_attacked(raw, t, by, leaps)
}

/// Whether an advisor or elephant of `by` could capture on `t` (left out of
/// [`attacked_on`]: in xiangqi neither ever attacks the enemy king). `get(s)` is the code on inner
/// square `s` (jieqi's [`HIDDEN`](crate::jieqi::HIDDEN) bit allowed: it is masked off to
/// find the piece); `leaps(code, s)` the leaps of the advisor or elephant with that code on
/// `s`, as the move generator has them.
#[inline]
pub(crate) fn guard_attacked(
    get: &impl Fn(u8) -> u8,
    t: u8,
    by: usize,
    leaps: impl Fn(u8, u8) -> &'static Leaps,
) -> bool {
    let base = side_base(by);
    DIAG.into_iter().any(|d| {
        let eye = t.wrapping_add(d);
        let c = get(eye);
        if c & 31 == base | ADVISOR {
            return leaps(c, eye).iter().any(|(to, _)| to == t);
        }
        let far = eye.wrapping_add(d);
        let e = get(far);
        c == 0
            && IN_BOARD[eye as usize]
            && e & 31 == base | ELEPHANT
            && leaps(e, far).iter().any(|(to, via)| to == t && via == eye)
    })
}

/// The short-range part of [`attacked_on`]: pawns, horses and king steps.
#[inline(always)]
fn near_attacked(get: &impl Fn(u8) -> u8, t: u8, by: usize) -> bool {
    let base = side_base(by);
    let (pawn, horse, king) = (base | PAWN, base | HORSE, base | KING);
    // Pawns: from straight behind (in the attacker's direction), or sideways once across.
    if get(t.wrapping_sub(forward(by))) == pawn {
        return true;
    }
    if !own_half(by, t) && (get(t.wrapping_add(1)) == pawn || get(t.wrapping_sub(1)) == pawn) {
        return true;
    }
    // Horses: the leg is the square diagonally next to the target.
    for d in DIAG {
        let leg = t.wrapping_add(d);
        if get(leg) == 0 {
            let vert = if d == 17 || d == 15 {
                16
            } else {
                0u8.wrapping_sub(16)
            };
            let horiz = d.wrapping_sub(vert);
            if get(leg.wrapping_add(vert)) == horse || get(leg.wrapping_add(horiz)) == horse {
                return true;
            }
        }
    }
    // King steps inside the palace.
    if IN_PALACE[t as usize] {
        for d in ORTHO {
            if get(t.wrapping_add(d)) == king {
                return true;
            }
        }
    }
    false
}
