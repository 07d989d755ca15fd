//! Chess in the engine: [`ChessNode`] (a stack of cozy-chess boards from the game's start
//! through the search path, implementing [`SearchGame`]), the evaluation in [`eval`] with
//! its piece-square [`tables`], the piece values and static exchange evaluation of the
//! search in [`see`], and the game as the game-free modules need it
//! ([`EngineGame`](crate::EngineGame) for [`Chess`], in [`game`]: bench positions,
//! openings, UCI moves, rules).
//!
//! cozy-chess generates legal moves only, in bulk per piece as bitboards, so the node's
//! "pseudo-legal" generators are legal already: captures (en passant and queen promotions
//! included) and quiet moves are the two halves of one generation split by target masks.
//! A move copies the top board (about 100 bytes) and plays on the copy; taking it back
//! pops the stack. Material and piece-square tables and the node's own Zobrist key
//! ([`zobrist`]) are updated move by move; the key after a move is known before it is
//! played, so the search prefetches the child's table entry.
//!
//! Draws in the search: a position repeated since the root, or for the third time counting
//! the game's history (the earlier occurrences must be within the half-move clock's reach,
//! and a null move ends the scan); the fifty-move rule (100 plies, unless the side to move
//! is checkmated); dead positions (K v K, K+minor v K, bishops all on one colour).
//! Stalemate is a draw and checkmate a loss ([`SearchGame::no_move_verdict`]).
//!
//! ```
//! use banco_engine::{ChessNode, Limits, Searcher};
//! use banco_chess::{Chess, ChessRules};
//! use std::sync::atomic::AtomicBool;
//! // Scholar's mate: the queen takes f7.
//! let game = Chess::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4").unwrap();
//! let mut searcher = Searcher::<ChessNode>::new(1);
//! let result = searcher.search(&game, &ChessRules::default(), &Limits::depth(3), &AtomicBool::new(false), |_| {});
//! assert_eq!(game.uci(result.best_move.unwrap()), "h5f7");
//! ```

pub mod eval;
pub mod game;
pub mod see;
pub mod tables;
pub mod zobrist;

use crate::searchable::{Repetition, SearchGame, Verdict};
use banco_chess::attacks;
use banco_chess::cozy_chess::{
    BitBoard, Board, Color as CozyColor, File, Piece, PieceMoves, Rank, Square, get_knight_moves,
    get_pawn_attacks,
};
use banco_chess::{Chess, ChessMove, ChessRules, Promotion};
use banco_game::{Color, MoveList};
pub use eval::ChessParams;
use eval::{Base, Psq};

/// One position on the stack.
#[derive(Clone, Debug)]
struct Frame {
    board: Board,
    /// Hash of the position ([`zobrist`]).
    key: u64,
    /// Plies since the last capture or pawn move (not capped).
    halfmoves: u16,
    /// Material and tables, White minus Black.
    base: Base,
    /// Reached by a null move.
    null: bool,
}

/// A chess position with the positions that led to it (the game's history and then the
/// search path) and the evaluation weights. See the module docs.
#[derive(Clone, Debug)]
pub struct ChessNode {
    stack: Vec<Frame>,
    /// Index of the search's root in `stack`.
    root: usize,
    params: ChessParams,
    psq: Box<Psq>,
}

#[inline(always)]
fn color_index(c: CozyColor) -> usize {
    match c {
        CozyColor::White => 0,
        CozyColor::Black => 1,
    }
}

impl ChessNode {
    #[inline(always)]
    fn top(&self) -> &Frame {
        // The stack is never empty: `from_game` pushes the start and `unmake` never pops
        // below the root.
        &self.stack[self.stack.len() - 1]
    }

    /// The current board.
    #[inline]
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.top().board
    }

    /// The evaluation weights.
    #[must_use]
    pub fn params(&self) -> &ChessParams {
        &self.params
    }

    /// Plies played since the root of the search.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.stack.len() - 1 - self.root
    }

    /// The [`Base`] after `mv` (a legal move) from the current frame.
    #[inline]
    fn base_after(&self, mv: ChessMove) -> Base {
        let frame = self.top();
        let board = &frame.board;
        let mut base = frame.base;
        let us = color_index(board.side_to_move());
        let (from, to) = (see::square(mv.from()), see::square(mv.to()));
        let Some(moved) = board.piece_on(from) else {
            return base;
        };
        let own = &self.psq[us * 6..us * 6 + 6];
        let mut shift = |piece: Piece, sq: Square, sign: i32| {
            let (mg, eg) = own[piece as usize][sq as usize];
            base.mg += sign * mg;
            base.eg += sign * eg;
        };
        if board.colors(board.side_to_move()).has(to) {
            // Castling, as the king taking its own rook.
            let (king_file, rook_file) = if to.file() > from.file() {
                (File::G, File::F)
            } else {
                (File::C, File::D)
            };
            shift(Piece::King, from, -1);
            shift(Piece::Rook, to, -1);
            shift(Piece::King, Square::new(king_file, from.rank()), 1);
            shift(Piece::Rook, Square::new(rook_file, from.rank()), 1);
            return base;
        }
        shift(moved, from, -1);
        let placed = mv.to_cozy().promotion.unwrap_or(moved);
        shift(placed, to, 1);
        if let Some((victim, at)) = see::victim(board, mv) {
            let (mg, eg) = self.psq[(1 - us) * 6 + victim as usize][at as usize];
            base.mg -= mg;
            base.eg -= eg;
        }
        base
    }

    /// Generates the moves of the current position split by [`Split`].
    #[inline]
    fn generate(&self, out: &mut MoveList<ChessMove>, split: Split) {
        out.clear();
        let board = self.board();
        let us = board.side_to_move();
        let them = board.colors(!us);
        let ep = board
            .en_passant()
            .map(|f| Square::new(f, Rank::Sixth.relative_to(us)).bitboard())
            .unwrap_or_default();
        let last_rank = Rank::Eighth.relative_to(us).bitboard();
        attacks::for_each_legal(board, &mut |pm| {
            let captures = if pm.piece == Piece::Pawn {
                pm.to & (them | ep)
            } else {
                pm.to & them
            };
            let promotions = if pm.piece == Piece::Pawn {
                pm.to & !captures & last_rank
            } else {
                BitBoard::EMPTY
            };
            let quiet = pm.to & !captures & !promotions;
            let from = see::index(pm.from);
            let (batch, promote_to): (_, &[Promotion]) = match split {
                Split::Captures => (captures, &[Promotion::Queen]),
                Split::Quiets => (
                    quiet,
                    &[Promotion::Knight, Promotion::Rook, Promotion::Bishop],
                ),
            };
            for mv in (PieceMoves { to: batch, ..pm }) {
                out.push(ChessMove::from_cozy(mv));
            }
            for to in promotions {
                for &p in promote_to {
                    out.push(ChessMove::new(from, see::index(to), Some(p)));
                }
            }
            false
        });
    }
}

/// Which half of the moves [`ChessNode::generate`] lists.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Split {
    /// Captures (every promotion piece) and queen promotions.
    Captures,
    /// The rest: quiet moves, castling, under-promotions without capture.
    Quiets,
}

impl SearchGame for ChessNode {
    type Game = Chess;
    type Move = ChessMove;
    type Undo = ();
    type NullUndo = ();
    type Params = ChessParams;
    const MOVE_INDEX_SIZE: usize = 64 * 64;

    fn from_game(game: &Chess, _rules: &ChessRules, params: &ChessParams) -> ChessNode {
        let psq = eval::psq_table(params);
        let board = game.start_board().clone();
        let start = Frame {
            key: zobrist::key(&board),
            halfmoves: u16::from(board.halfmove_clock()),
            base: Base::of(&board, &psq),
            board,
            null: false,
        };
        let mut stack = Vec::with_capacity(game.moves().len() + 256);
        stack.push(start);
        let mut node = ChessNode {
            stack,
            root: 0,
            params: params.clone(),
            psq,
        };
        for mv in game.moves() {
            node.make(mv);
        }
        node.root = node.stack.len() - 1;
        node
    }

    #[inline]
    fn side_to_move(&self) -> Color {
        match self.board().side_to_move() {
            CozyColor::White => Color::Red,
            CozyColor::Black => Color::Black,
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.top().key
    }

    #[inline]
    fn in_check(&self) -> bool {
        !self.board().checkers().is_empty()
    }

    #[inline]
    fn legal_moves(&self, out: &mut MoveList<ChessMove>) {
        out.clear();
        attacks::for_each_legal(self.board(), &mut |pm| {
            for mv in pm {
                out.push(ChessMove::from_cozy(mv));
            }
            false
        });
    }

    #[inline]
    fn count_legal_moves(&self) -> usize {
        let mut n = 0;
        attacks::for_each_legal(self.board(), &mut |pm| {
            n += pm.len();
            false
        });
        n
    }

    /// Chess: checkmate loses, stalemate draws.
    #[inline]
    fn no_move_verdict(&self, in_check: bool) -> Verdict {
        if in_check {
            Verdict::Loss
        } else {
            Verdict::Draw
        }
    }

    #[inline]
    fn pseudo_captures(&self, out: &mut MoveList<ChessMove>) {
        self.generate(out, Split::Captures);
    }

    #[inline]
    fn pseudo_quiets(&self, out: &mut MoveList<ChessMove>) {
        self.generate(out, Split::Quiets);
    }

    #[inline]
    fn legal_captures(&self, out: &mut MoveList<ChessMove>) {
        self.generate(out, Split::Captures);
    }

    #[inline]
    fn is_legal(&self, mv: ChessMove) -> bool {
        mv != ChessMove::default() && self.board().is_legal(mv.to_cozy())
    }

    const KNOWS_CHECKS: bool = true;

    /// Direct checks by the moved (or promoted, or castling) piece and discovered checks
    /// by the sliders behind it, with bitboards.
    fn gives_check(&self, mv: ChessMove) -> bool {
        let b = self.board();
        let us = b.side_to_move();
        let king = b.king(!us);
        let (from, to) = (see::square(mv.from()), see::square(mv.to()));
        let Some(piece) = b.piece_on(from) else {
            return false;
        };
        let mut occupied = b.occupied() ^ from.bitboard();
        if b.colors(us).has(to) {
            // Castling: only the rook can check, from its landing square.
            let (king_file, rook_file) = if to.file() > from.file() {
                (File::G, File::F)
            } else {
                (File::C, File::D)
            };
            let rook = Square::new(rook_file, from.rank());
            occupied = (occupied ^ to.bitboard())
                | Square::new(king_file, from.rank()).bitboard()
                | rook.bitboard();
            return attacks::rook_moves(rook, occupied).has(king);
        }
        if let Some((_, at)) = see::victim(b, mv) {
            occupied &= !at.bitboard();
        }
        occupied |= to.bitboard();
        let placed = mv.to_cozy().promotion.unwrap_or(piece);
        let direct = match placed {
            Piece::Pawn => get_pawn_attacks(to, us).has(king),
            Piece::Knight => get_knight_moves(to).has(king),
            Piece::Bishop => attacks::bishop_moves(to, occupied).has(king),
            Piece::Rook => attacks::rook_moves(to, occupied).has(king),
            Piece::Queen => {
                (attacks::bishop_moves(to, occupied) | attacks::rook_moves(to, occupied)).has(king)
            }
            Piece::King => false,
        };
        if direct {
            return true;
        }
        let own = b.colors(us) & !from.bitboard();
        let queens = b.pieces(Piece::Queen);
        let diagonal = own & (b.pieces(Piece::Bishop) | queens);
        let straight = own & (b.pieces(Piece::Rook) | queens);
        !(attacks::bishop_moves(king, occupied) & diagonal).is_empty()
            || !(attacks::rook_moves(king, occupied) & straight).is_empty()
    }

    #[inline(always)]
    fn hash_after(&self, mv: ChessMove) -> Option<u64> {
        let f = self.top();
        Some(zobrist::key_after(&f.board, f.key, mv))
    }

    #[inline]
    fn make(&mut self, mv: ChessMove) {
        let base = self.base_after(mv);
        let key = {
            let f = self.top();
            zobrist::key_after(&f.board, f.key, mv)
        };
        let board = self.board();
        let from = see::square(mv.from());
        let resets = board.pieces(Piece::Pawn).has(from) || see::victim(board, mv).is_some();
        let halfmoves = if resets {
            0
        } else {
            self.top().halfmoves.saturating_add(1)
        };
        let n = self.stack.len();
        self.stack.extend_from_within(n - 1..);
        if let Some(f) = self.stack.last_mut() {
            f.board.play_unchecked(mv.to_cozy());
            f.key = key;
            f.halfmoves = halfmoves;
            f.base = base;
            f.null = false;
        }
    }

    #[inline]
    fn unmake(&mut self, _mv: ChessMove, _undo: ()) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    fn make_null(&mut self) {
        let top = self.top();
        let board = top.board.null_move().unwrap_or_else(|| top.board.clone());
        let frame = Frame {
            key: zobrist::key_after_null(&top.board, top.key),
            halfmoves: top.halfmoves.saturating_add(1),
            base: top.base,
            board,
            null: true,
        };
        self.stack.push(frame);
    }

    fn unmake_null(&mut self, _undo: ()) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        let f = self.top();
        eval::evaluate_with(&f.board, &f.base, &self.params)
    }

    /// Material and tables when they alone put the score [`eval::LAZY_MARGIN`] outside
    /// the window (always, for the plain evaluation, which has nothing else).
    #[inline]
    fn lazy_evaluate(&self, lo: i32, hi: i32) -> Option<i32> {
        let f = self.top();
        let q = eval::quick(&f.board, &f.base) + self.params.tempo;
        (self.params.plain || q + eval::LAZY_MARGIN <= lo || q - eval::LAZY_MARGIN >= hi)
            .then_some(q)
    }

    #[inline]
    fn capture_key(&self, mv: ChessMove) -> Option<i32> {
        let board = self.board();
        let promoted = mv
            .to_cozy()
            .promotion
            .map_or(0, |p| see::value(p) - see::PAWN);
        let victim = see::victim(board, mv).map(|(p, _)| see::value(p));
        if victim.is_none() && promoted < see::value(Piece::Queen) - see::PAWN {
            return None;
        }
        let attacker = board.piece_on(see::square(mv.from())).map_or(0, see::value);
        Some((victim.unwrap_or(0) + promoted) * 16 - attacker / 16)
    }

    #[inline]
    fn capture_value(&self, mv: ChessMove) -> i32 {
        let board = self.board();
        let m = &self.params.material_mg;
        let promoted = mv
            .to_cozy()
            .promotion
            .map_or(0, |p| m[p as usize] - m[Piece::Pawn as usize]);
        see::victim(board, mv).map_or(0, |(p, _)| m[p as usize]) + promoted
    }

    #[inline]
    fn see_ok(&self, mv: ChessMove) -> bool {
        match mv.promotion() {
            Some(Promotion::Queen) | None => see::see_ok(self.board(), mv),
            Some(_) => false,
        }
    }

    #[inline]
    fn see_ge(&self, mv: ChessMove, threshold: i32) -> bool {
        match mv.promotion() {
            Some(Promotion::Queen) | None => see::see(self.board(), mv) >= threshold,
            Some(_) => false,
        }
    }

    #[inline]
    fn tt_code(mv: ChessMove) -> u16 {
        let promo = mv.promotion().map_or(0, |p| u16::from(p.index()) + 1);
        u16::from(mv.from()) | u16::from(mv.to()) << 6 | promo << 12
    }

    #[inline]
    fn from_tt_code(code: u16) -> Option<ChessMove> {
        if code == 0 {
            return None;
        }
        let promo = match code >> 12 {
            0 => None,
            p => Some(*Promotion::ALL.get(usize::from(p - 1))?),
        };
        Some(ChessMove::new(
            (code & 63) as u8,
            (code >> 6 & 63) as u8,
            promo,
        ))
    }

    #[inline]
    fn move_index(mv: ChessMove) -> usize {
        usize::from(mv.from()) * 64 + usize::from(mv.to())
    }

    fn repetition(&mut self) -> Option<Repetition> {
        let n = self.stack.len() - 1;
        let now = &self.stack[n];
        let reach = usize::from(now.halfmoves).min(n);
        let mut before_root = 0;
        let mut d = 2;
        while d <= reach {
            let j = n - d;
            if self.stack[j + 1].null || self.stack[j + 2].null {
                return None;
            }
            if self.stack[j].key == now.key {
                if j >= self.root {
                    return Some(Repetition::Draw);
                }
                before_root += 1;
                if before_root >= 2 {
                    return Some(Repetition::Draw);
                }
            }
            d += 2;
        }
        None
    }

    #[inline]
    fn rule_draw(&self) -> bool {
        let f = self.top();
        if banco_chess::rules::insufficient_material(&f.board) {
            return true;
        }
        // Fifty moves, unless this very move mated.
        f.halfmoves >= 100 && (f.board.checkers().is_empty() || self.count_legal_moves() > 0)
    }

    #[inline]
    fn has_big_pieces(&self) -> bool {
        let b = self.board();
        let own = b.colors(b.side_to_move());
        !(own & !b.pieces(Piece::Pawn) & !b.pieces(Piece::King)).is_empty()
    }
}

#[cfg(test)]
mod tests;
