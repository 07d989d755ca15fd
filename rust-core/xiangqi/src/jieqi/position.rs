//! The jieqi position: the xiangqi board with face-down pieces, each side's pool of
//! unrevealed pieces, and the pending reveal of a face-down piece that has just moved.
//! Move generation, legality and make/unmake; FEN lives in `fen.rs`.
//!
//! ```
//! use banco_xiangqi::jieqi::{JieqiMove, JieqiPosition};
//! use banco_xiangqi::PieceKind;
//! use banco_game::Color;
//! let mut pos = JieqiPosition::startpos();
//! assert_eq!(pos.legal_moves().len(), 44);
//! // The face-down piece on h2 moves as a cannon; then its identity is drawn.
//! let mv: JieqiMove = "h2e2".parse().unwrap();
//! let before = pos.hash();
//! let undo = pos.make(mv);
//! assert_eq!(pos.pending().map(|s| s.to_string()), Some("e2".to_owned()));
//! let reveal = JieqiMove::Reveal(PieceKind::Rook);
//! let undo2 = pos.make(reveal);
//! assert_eq!(pos.pool(Color::Red).count(PieceKind::Rook), 1);
//! pos.unmake(reveal, undo2);
//! pos.unmake(mv, undo);
//! assert_eq!(pos.hash(), before);
//! ```
//!
//! ## Representation
//!
//! The board is xiangqi's 16×16 mailbox with xiangqi's piece codes (see [`crate::raw`]); a
//! face-down piece has the code of the piece of its home square plus [`HIDDEN`], so the
//! xiangqi attack test, fed a view that masks [`HIDDEN`] off, sees every face-down piece as
//! the piece it moves as. Two attacks xiangqi never needs are added: a revealed advisor or
//! elephant may leave its palace or cross the river and so may attack a king.

use super::moves::JieqiMove;
use crate::moves::Move;
use crate::piece::{Piece, PieceKind};
use crate::position::{attacked_exactly, attacked_on};
use crate::square::Square;
use crate::tables::*;
use crate::zobrist::{SIDE_KEY, piece_key, splitmix};
use banco_game::{Color, MoveList};

/// Flag of a face-down piece's code on the raw board.
pub const HIDDEN: u8 = 32;

/// The code of the xiangqi start piece on each inner square (0 where none stands): a
/// face-down piece on that square moves as this piece.
pub(crate) static HOME: [u8; 256] = build_home();

const fn build_home() -> [u8; 256] {
    let back = [
        ROOK, HORSE, ELEPHANT, ADVISOR, KING, ADVISOR, ELEPHANT, HORSE, ROOK,
    ];
    let mut t = [0u8; 256];
    let mut f = 0;
    while f < 9 {
        // Inner squares: red rank r is row r + 3, black rank r (from its side) row 12 - r.
        t[3 * 16 + f + 3] = 8 | back[f];
        t[12 * 16 + f + 3] = 16 | back[f];
        if f == 1 || f == 7 {
            t[5 * 16 + f + 3] = 8 | CANNON;
            t[10 * 16 + f + 3] = 16 | CANNON;
        }
        if f % 2 == 0 {
            t[6 * 16 + f + 3] = 8 | PAWN;
            t[9 * 16 + f + 3] = 16 | PAWN;
        }
        f += 1;
    }
    t
}

/// Zobrist keys of jieqi's additions: a face-down piece per side and square, each pool
/// count per side and kind, and the pending reveal.
struct Keys {
    hidden: [[u64; 256]; 2],
    pool: [[[u64; 8]; 7]; 2],
    pending: u64,
}

static KEYS: Keys = {
    let mut k = Keys {
        hidden: [[0; 256]; 2],
        pool: [[[0; 8]; 7]; 2],
        pending: 0,
    };
    let mut state = 0x7E1E_C1D0_u64;
    let mut side = 0;
    while side < 2 {
        let mut s = 0;
        while s < 256 {
            let (ns, v) = splitmix(state);
            state = ns;
            k.hidden[side][s] = v;
            s += 1;
        }
        let mut kind = 0;
        while kind < 7 {
            let mut n = 0;
            while n < 8 {
                let (ns, v) = splitmix(state);
                state = ns;
                k.pool[side][kind][n] = v;
                n += 1;
            }
            kind += 1;
        }
        side += 1;
    }
    k.pending = splitmix(state).1;
    k
};

/// Key of the (face-down or revealed) piece `code` on `sq`.
#[inline(always)]
fn key(code: u8, sq: u8) -> u64 {
    if code & HIDDEN != 0 {
        KEYS.hidden[code_side(code & 31) & 1][sq as usize]
    } else {
        piece_key(code, sq)
    }
}

#[inline(always)]
fn pool_key(side: usize, kind: usize, n: u8) -> u64 {
    KEYS.pool[side & 1][kind % 7][(n & 7) as usize]
}

/// One side's unrevealed pieces by kind: the identities the next reveals are drawn from.
/// It holds the side's face-down pieces on the board and the face-down pieces it lost,
/// whose identities nobody learnt (see the module front page).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pool {
    counts: [u8; 7],
}

impl Pool {
    /// The full pool at the start: every piece but the king.
    pub const FULL: Pool = Pool {
        counts: [0, 2, 2, 2, 2, 2, 5],
    };

    /// An empty pool.
    pub const EMPTY: Pool = Pool { counts: [0; 7] };

    /// How many unrevealed pieces of `kind` (never a king).
    #[must_use]
    pub const fn count(&self, kind: PieceKind) -> u8 {
        self.counts[kind as usize]
    }

    /// Number of unrevealed pieces.
    #[must_use]
    pub fn total(&self) -> u32 {
        self.counts.iter().map(|&n| u32::from(n)).sum()
    }

    /// The kinds with a non-zero count and their counts, in [`PieceKind`] order.
    pub fn iter(&self) -> impl Iterator<Item = (PieceKind, u8)> + '_ {
        PieceKind::ALL
            .into_iter()
            .filter_map(|k| (self.counts[k as usize] > 0).then_some((k, self.counts[k as usize])))
    }

    /// Number of distinct kinds in the pool.
    #[must_use]
    pub fn kinds(&self) -> u32 {
        self.counts.iter().filter(|&&n| n > 0).count() as u32
    }

    /// Sets how many unrevealed pieces of `kind` there are (a king is never in a pool:
    /// setting its count does nothing).
    pub fn set(&mut self, kind: PieceKind, n: u8) {
        if kind != PieceKind::King {
            self.counts[kind as usize] = n;
        }
    }
}

/// A piece as a player sees it: colour, the kind it is (revealed) or moves as (face down),
/// and whether it is face down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct JieqiPiece {
    /// Its side.
    pub color: Color,
    /// Revealed: its kind. Face down: the kind of its home square, which it moves as.
    pub kind: PieceKind,
    /// True while face down.
    pub hidden: bool,
}

impl JieqiPiece {
    /// The piece as a xiangqi piece (its kind, or the kind it moves as).
    #[must_use]
    pub const fn piece(self) -> Piece {
        Piece::new(self.color, self.kind)
    }

    /// FEN letter: `X`/`x` when face down, else the xiangqi letter.
    #[must_use]
    pub fn fen_char(self) -> char {
        match (self.hidden, self.color) {
            (true, Color::Red) => 'X',
            (true, Color::Black) => 'x',
            (false, _) => self.piece().fen_char(),
        }
    }
}

/// What [`JieqiPosition::make`] returns so that [`JieqiPosition::unmake`] can restore the
/// position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JieqiUndo {
    /// Step: the captured code. Reveal: the face-down code of the revealed piece.
    pub(crate) code: u8,
    /// Reveal: the inner square of the revealed piece.
    pub(crate) square: u8,
    pub(crate) halfmoves: u16,
}

impl JieqiUndo {
    /// The piece a step captured, if any (a face-down victim reads as hidden, with the kind
    /// of its home square).
    #[must_use]
    pub fn captured(self) -> Option<JieqiPiece> {
        piece_of(self.code)
    }
}

/// The piece of a raw code.
pub(crate) fn piece_of(code: u8) -> Option<JieqiPiece> {
    Piece::from_code(code & 31).map(|p| JieqiPiece {
        color: p.color,
        kind: p.kind,
        hidden: code & HIDDEN != 0,
    })
}

/// A legal jieqi position (see [`JieqiPosition::from_fen`](crate::jieqi::JieqiPosition)
/// for untrusted input).
#[derive(Clone, PartialEq, Eq)]
pub struct JieqiPosition {
    pub(crate) board: [u8; 256],
    pub(crate) pools: [Pool; 2],
    pub(crate) kings: [u8; 2],
    pub(crate) side: Color,
    pub(crate) hash: u64,
    pub(crate) halfmoves: u16,
    pub(crate) fullmoves: u16,
    /// Inner square of a face-down piece that has moved and awaits its identity; 0 if none.
    pub(crate) pending: u8,
}

impl core::fmt::Debug for JieqiPosition {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "JieqiPosition({})", self.fen())
    }
}

impl Default for JieqiPosition {
    fn default() -> Self {
        JieqiPosition::startpos()
    }
}

impl JieqiPosition {
    /// The start position: kings face up, every other piece face down on its home square,
    /// both pools full.
    #[must_use]
    pub fn startpos() -> JieqiPosition {
        let mut pos = JieqiPosition::empty(Color::Red, 0, 1);
        for s in 0..=255u8 {
            let h = HOME[s as usize];
            if h != 0 {
                pos.board[s as usize] = if h & 7 == KING { h } else { h | HIDDEN };
            }
        }
        pos.pools = [Pool::FULL; 2];
        pos.finish();
        pos
    }

    /// A board without pieces (kings to be placed); `finish` fills in the hash and kings.
    pub(crate) fn empty(side: Color, halfmoves: u16, fullmoves: u16) -> JieqiPosition {
        JieqiPosition {
            board: [0; 256],
            pools: [Pool::EMPTY; 2],
            kings: [0; 2],
            side,
            hash: 0,
            halfmoves,
            fullmoves: fullmoves.max(1),
            pending: 0,
        }
    }

    /// Finds the kings and computes the hash after the board was filled.
    pub(crate) fn finish(&mut self) {
        for s in 0..=255u8 {
            let c = self.board[s as usize];
            if c != 0 && c & HIDDEN == 0 && c & 7 == KING {
                self.kings[code_side(c) & 1] = s;
            }
        }
        self.hash = self.compute_hash();
    }

    /// The piece on `sq`, if any.
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<JieqiPiece> {
        piece_of(self.board[sq.to_inner() as usize])
    }

    /// Every piece with its square, a0 first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, JieqiPiece)> + '_ {
        Square::all().filter_map(|sq| self.piece_at(sq).map(|p| (sq, p)))
    }

    /// The unrevealed pieces of `color`.
    #[must_use]
    pub fn pool(&self, color: Color) -> Pool {
        self.pools[color.index()]
    }

    /// Number of face-down pieces of `color` on the board.
    #[must_use]
    pub fn hidden_count(&self, color: Color) -> u32 {
        self.pieces()
            .filter(|(_, p)| p.hidden && p.color == color)
            .count() as u32
    }

    /// Side to move (while a reveal is pending: the side that moves after it).
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The square of the face-down piece that has just moved and awaits its identity.
    #[must_use]
    pub fn pending(&self) -> Option<Square> {
        (self.pending != 0).then(|| Square::from_inner(self.pending))
    }

    /// Zobrist hash: pieces (face-down ones apart from revealed ones), pools, side to move
    /// and a pending reveal.
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Plies since the last capture.
    #[must_use]
    pub fn halfmoves(&self) -> u16 {
        self.halfmoves
    }

    /// FEN's full-move number.
    #[must_use]
    pub fn fullmoves(&self) -> u16 {
        self.fullmoves
    }

    /// Square of `color`'s king.
    #[must_use]
    pub fn king_square(&self, color: Color) -> Square {
        Square::from_inner(self.kings[color.index()])
    }

    /// The raw board (xiangqi's inner layout and codes, [`HIDDEN`] on face-down pieces),
    /// for evaluation code.
    #[must_use]
    pub fn raw_board(&self) -> &[u8; 256] {
        &self.board
    }

    /// Recomputes the hash from scratch (tests compare it with the incremental one).
    #[must_use]
    pub fn compute_hash(&self) -> u64 {
        let mut h = if self.side == Color::Black {
            SIDE_KEY
        } else {
            0
        };
        for s in 0..=255u8 {
            let c = self.board[s as usize];
            if c != 0 {
                h ^= key(c, s);
            }
        }
        for side in 0..2 {
            for kind in 0..7 {
                h ^= pool_key(side, kind, self.pools[side].counts[kind]);
            }
        }
        if self.pending != 0 {
            h ^= KEYS.pending;
        }
        h
    }

    /// True if `side`'s king is attacked by the other side.
    #[inline]
    fn king_attacked(&self, side: usize) -> bool {
        let view = |s: u8| self.board[s as usize] & 31;
        attacked(&view, self.kings[side & 1], 1 - side)
    }

    /// True if the side to move is in check (false while a reveal is pending: the check
    /// depends on the identity still to be drawn).
    #[must_use]
    pub fn in_check(&self) -> bool {
        self.pending == 0 && self.king_attacked(self.side.index())
    }

    /// True if `color`'s king is attacked.
    #[must_use]
    pub fn is_check_on(&self, color: Color) -> bool {
        self.king_attacked(color.index())
    }

    /// Would the mover's king be attacked after the step `f`→`t`? The moved piece's
    /// identity does not matter: it stands on `t` as a blocker either way.
    #[inline]
    fn exposes_king(&self, f: u8, t: u8) -> bool {
        self.step_exposes(self.side.index(), f, t)
    }

    /// Would `side`'s king be attacked after its step `f`→`t`, whoever is to move (the
    /// repetition judge asks it for both sides)?
    #[inline]
    pub(crate) fn step_exposes(&self, side: usize, f: u8, t: u8) -> bool {
        let moved = self.board[f as usize] & 31;
        let k = if f == self.kings[side] {
            t
        } else {
            self.kings[side]
        };
        let view = |s: u8| {
            if s == t {
                moved
            } else if s == f {
                0
            } else {
                self.board[s as usize] & 31
            }
        };
        attacked(&view, k, 1 - side)
    }

    /// True if `sq` is attacked by a piece of `by`: a piece of `by` could capture there
    /// were an enemy piece on it, face-down pieces moving as the piece of their home square
    /// (a face-down advisor only inside its palace, a face-down elephant on its own half),
    /// revealed advisors and elephants anywhere; a king along an open file attacks only the
    /// other king. Whether the capture would expose the capturer's own king is not asked.
    #[must_use]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        let view = |s: u8| self.board[s as usize] & 31;
        let board = |s: u8| self.board[s as usize];
        // Advisors and elephants as they move: face down as in xiangqi, revealed anywhere.
        attacked_exactly(
            &view,
            &board,
            sq.to_inner(),
            by.index(),
            |code, from| match (code & 7 == ADVISOR, code & HIDDEN != 0) {
                (true, true) => &ADVISOR_LEAPS[from as usize],
                (true, false) => &FREE_ADVISOR_LEAPS[from as usize],
                (false, true) => &ELEPHANT_LEAPS[from as usize],
                (false, false) => &FREE_ELEPHANT_LEAPS[from as usize],
            },
        )
    }

    /// The piece a step would capture, if any.
    #[must_use]
    pub fn captured_by(&self, mv: JieqiMove) -> Option<JieqiPiece> {
        mv.step()
            .and_then(|m| piece_of(self.board[m.to_inner() as usize]))
    }

    /// The piece a step moves, if any.
    #[must_use]
    pub fn moved_by(&self, mv: JieqiMove) -> Option<JieqiPiece> {
        mv.step()
            .and_then(|m| piece_of(self.board[m.inner_from() as usize]))
    }

    /// Passes the move to the other side (null-move pruning); not while a reveal is
    /// pending. Returns the half-move counter for [`JieqiPosition::unmake_null`].
    pub fn make_null(&mut self) -> u16 {
        self.side = self.side.other();
        self.hash ^= SIDE_KEY;
        let h = self.halfmoves;
        self.halfmoves = self.halfmoves.saturating_add(1);
        h
    }

    /// Takes back [`JieqiPosition::make_null`].
    pub fn unmake_null(&mut self, halfmoves: u16) {
        self.side = self.side.other();
        self.hash ^= SIDE_KEY;
        self.halfmoves = halfmoves;
    }

    /// Every pseudo-legal step of the side to move (none while a reveal is pending).
    pub fn generate_pseudo(&self, out: &mut MoveList<JieqiMove>) {
        out.clear();
        if self.pending != 0 {
            return;
        }
        let side = self.side.index();
        let own = side_base(side);
        for &f in INNER_OF.iter().take(90) {
            let c = self.board[f as usize];
            if c & own != 0 {
                self.gen_piece(f, c, side, out);
            }
        }
    }

    /// Appends the pseudo-legal steps of the piece `c` of `side` standing on `f` (whoever
    /// is to move).
    pub(crate) fn gen_piece(&self, f: u8, c: u8, side: usize, out: &mut MoveList<JieqiMove>) {
        let b = &self.board;
        let enemy = side_base(1 - side);
        let hidden = c & HIDDEN != 0;
        let kind = c & 7;
        let mut add = |t: u8| {
            let v = b[t as usize];
            if v == 0 || v & enemy != 0 {
                out.push(JieqiMove::Step(Move::inner(f, t)));
            }
        };
        let leaps = match kind {
            KING => &KING_LEAPS[f as usize],
            ADVISOR if hidden => &ADVISOR_LEAPS[f as usize],
            ADVISOR => &FREE_ADVISOR_LEAPS[f as usize],
            ELEPHANT if hidden => &ELEPHANT_LEAPS[f as usize],
            ELEPHANT => &FREE_ELEPHANT_LEAPS[f as usize],
            HORSE => &HORSE_LEAPS[f as usize],
            PAWN => &PAWN_LEAPS[side & 1][f as usize],
            _ => &Leaps::NONE,
        };
        for (t, via) in leaps.iter() {
            if b[via as usize] == 0 {
                add(t);
            }
        }
        if kind == ROOK || kind == CANNON {
            for d in ORTHO {
                let mut t = f.wrapping_add(d);
                while IN_BOARD[t as usize] && b[t as usize] == 0 {
                    add(t);
                    t = t.wrapping_add(d);
                }
                if !IN_BOARD[t as usize] {
                    continue;
                }
                if kind == ROOK {
                    add(t);
                    continue;
                }
                t = t.wrapping_add(d);
                while IN_BOARD[t as usize] && b[t as usize] == 0 {
                    t = t.wrapping_add(d);
                }
                if IN_BOARD[t as usize] && b[t as usize] & enemy != 0 {
                    add(t);
                }
            }
        }
    }

    /// Every legal step (replaces the contents of `out`; none while a reveal is pending).
    pub fn generate_legal(&self, out: &mut MoveList<JieqiMove>) {
        self.generate_pseudo(out);
        out.retain(|m| match *m {
            JieqiMove::Step(mv) => !self.exposes_king(mv.inner_from(), mv.to_inner()),
            JieqiMove::Reveal(_) => false,
        });
    }

    /// The legal steps as a new list.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList<JieqiMove> {
        let mut out = MoveList::new();
        self.generate_legal(&mut out);
        out
    }

    /// True if the side to move has a legal step.
    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        !self.legal_moves().is_empty()
    }

    /// True if `mv` can be played now: a legal step, or while a reveal is pending, a kind
    /// left in the mover's pool.
    #[must_use]
    pub fn is_legal(&self, mv: JieqiMove) -> bool {
        match mv {
            JieqiMove::Reveal(kind) => {
                self.pending != 0
                    && kind != PieceKind::King
                    && self.pools[self.side.other().index()].count(kind) > 0
            }
            JieqiMove::Step(m) => {
                if self.pending != 0 || m.is_null() {
                    return false;
                }
                let (f, t) = (m.inner_from(), m.to_inner());
                let c = self.board[f as usize];
                if c & side_base(self.side.index()) == 0 {
                    return false;
                }
                let mut moves = MoveList::new();
                self.gen_piece(f, c, self.side.index(), &mut moves);
                moves.contains(&mv) && !self.exposes_king(f, t)
            }
        }
    }

    /// True if the step `mv` moves a face-down piece (its reveal follows).
    #[must_use]
    pub fn moves_hidden(&self, mv: JieqiMove) -> bool {
        match mv {
            JieqiMove::Step(m) => self.board[m.inner_from() as usize] & HIDDEN != 0,
            JieqiMove::Reveal(_) => false,
        }
    }

    /// Plays `mv`, which must be legal ([`JieqiPosition::is_legal`]). Returns what
    /// [`JieqiPosition::unmake`] needs.
    pub fn make(&mut self, mv: JieqiMove) -> JieqiUndo {
        match mv {
            JieqiMove::Step(m) => self.make_step(m.inner_from(), m.to_inner()),
            JieqiMove::Reveal(kind) => self.make_reveal(kind),
        }
    }

    fn make_step(&mut self, f: u8, t: u8) -> JieqiUndo {
        let piece = self.board[f as usize];
        let captured = self.board[t as usize];
        let undo = JieqiUndo {
            code: captured,
            square: t,
            halfmoves: self.halfmoves,
        };
        if captured != 0 {
            self.hash ^= key(captured, t);
            self.halfmoves = 0;
        } else {
            self.halfmoves = self.halfmoves.saturating_add(1);
        }
        self.board[t as usize] = piece;
        self.board[f as usize] = 0;
        self.hash ^= key(piece, f) ^ key(piece, t) ^ SIDE_KEY;
        let side = self.side.index();
        if f == self.kings[side] {
            self.kings[side] = t;
        }
        if piece & HIDDEN != 0 {
            self.pending = t;
            self.hash ^= KEYS.pending;
        }
        if self.side == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.side = self.side.other();
        undo
    }

    fn make_reveal(&mut self, kind: PieceKind) -> JieqiUndo {
        let t = self.pending;
        let code = self.board[t as usize];
        let mover = code_side(code & 31) & 1;
        let k = kind as usize;
        let n = self.pools[mover].counts[k];
        let revealed = side_base(mover) | kind as u8;
        self.hash ^= key(code, t) ^ key(revealed, t) ^ KEYS.pending;
        self.hash ^= pool_key(mover, k, n) ^ pool_key(mover, k, n.saturating_sub(1));
        self.pools[mover].counts[k] = n.saturating_sub(1);
        self.board[t as usize] = revealed;
        self.pending = 0;
        JieqiUndo {
            code,
            square: t,
            halfmoves: self.halfmoves,
        }
    }

    /// Takes back `mv` made by [`JieqiPosition::make`].
    pub fn unmake(&mut self, mv: JieqiMove, undo: JieqiUndo) {
        match mv {
            JieqiMove::Step(m) => {
                let (f, t) = (m.inner_from(), m.to_inner());
                self.side = self.side.other();
                if self.side == Color::Black {
                    self.fullmoves = self.fullmoves.saturating_sub(1);
                }
                let piece = self.board[t as usize];
                if self.pending == t {
                    self.pending = 0;
                    self.hash ^= KEYS.pending;
                }
                let side = self.side.index();
                if t == self.kings[side] {
                    self.kings[side] = f;
                }
                self.board[f as usize] = piece;
                self.board[t as usize] = undo.code;
                self.hash ^= key(piece, f) ^ key(piece, t) ^ SIDE_KEY;
                if undo.code != 0 {
                    self.hash ^= key(undo.code, t);
                }
                self.halfmoves = undo.halfmoves;
            }
            JieqiMove::Reveal(kind) => {
                let t = undo.square;
                let mover = code_side(undo.code & 31) & 1;
                let k = kind as usize;
                let n = self.pools[mover].counts[k];
                self.hash ^= key(self.board[t as usize], t) ^ key(undo.code, t) ^ KEYS.pending;
                self.hash ^= pool_key(mover, k, n) ^ pool_key(mover, k, n + 1);
                self.pools[mover].counts[k] = n + 1;
                self.board[t as usize] = undo.code;
                self.pending = t;
            }
        }
    }
}

/// The attack test of jieqi over a board view whose codes have [`HIDDEN`] masked off:
/// xiangqi's (rooks, cannons, horses, pawns, the facing king; face-down pieces as the
/// piece of their home square) plus revealed advisors and elephants, which may stand next
/// to the enemy king in jieqi. Face-down advisors and elephants never reach the enemy
/// palace, so they need no exception.
#[inline]
pub(crate) fn attacked(get: &impl Fn(u8) -> u8, t: u8, by: usize) -> bool {
    if attacked_on(get, t, by) {
        return true;
    }
    let base = side_base(by);
    DIAG.into_iter().any(|d| {
        let eye = t.wrapping_add(d);
        get(eye) == base | ADVISOR
            || (get(eye) == 0
                && IN_BOARD[eye as usize]
                && get(eye.wrapping_add(d)) == base | ELEPHANT)
    })
}
