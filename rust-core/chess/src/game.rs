//! [`Chess`]: a cozy-chess board with its history, implementing [`banco_game::Game`] and
//! [`banco_game::MatchGame`].
//!
//! cozy-chess's `Board` has no unmake, so the game keeps a stack of states — each board with
//! its repetition key and full half-move clock — whose top is the current position: a move
//! copies the top (about 100 bytes, as cozy-chess's own perft copies a board per move) and
//! plays on the copy; taking a move back pops it. [`Color::Red`] is White.
//!
//! ```
//! use banco_chess::{Chess, ChessRules};
//! use banco_game::{Color, Game, Outcome, WinReason};
//! let mut game = Chess::new();
//! for text in ["f2f3", "e7e5", "g2g4", "d8h4"] {
//!     let mv = game.parse_move(text)?;
//!     game.play(mv)?;
//! }
//! assert_eq!(
//!     game.outcome(&ChessRules::default()),
//!     Some(Outcome::Win { winner: Color::Black, reason: WinReason::Checkmate })
//! );
//! assert_eq!(game.undo_move().map(|m| m.to_string()), Some("d8h4".to_owned()));
//! assert_eq!(game.outcome(&ChessRules::default()), None);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::error::PlayError;
use crate::fen::{self, FenError};
use crate::moves::ChessMove;
use crate::role::{Role, color_from_cozy};
use crate::rules::{self, ChessRules, FIFTY_MOVE_PLIES, MATCH_RULES, SEVENTY_FIVE_MOVE_PLIES};
use crate::{square, wire};
use banco_game::{
    Color, DrawReason, Game, GameKind, MatchGame, MoveList, Outcome, SetupError, WinReason,
};
use cozy_chess::{Board, Piece};

/// A position of the game with what the draw rules need, and the move that led to it.
#[derive(Clone, Debug)]
struct State {
    /// The move played to reach this position (the null move at the start).
    mv: ChessMove,
    board: Board,
    /// Repetition key of `board` (see [`Chess::key_of`]).
    key: u64,
    /// Plies since the last capture or pawn move (cozy-chess stops counting at 100).
    halfmoves: u16,
}

/// A chess game: the position it started from, every move since and the position after
/// each, with what repetitions and the move-count rules need. See the module docs.
#[derive(Clone, Debug)]
pub struct Chess {
    /// The start position.
    start: State,
    /// The position after each move; the last is the current position.
    after: Vec<State>,
    chess960: bool,
}

/// What [`Chess::make_unchecked`](Game::make_unchecked) returns: nothing, as the game keeps
/// its positions on its own stack.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChessUndo;

impl Default for Chess {
    fn default() -> Self {
        Chess::new()
    }
}

impl core::str::FromStr for Chess {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Chess, FenError> {
        Chess::from_fen(s)
    }
}

impl Chess {
    /// A game from the standard start position.
    #[must_use]
    pub fn new() -> Chess {
        Chess::from_board(Board::default(), 0, false)
    }

    /// A game from a FEN (see [`fen`] for what is read). It is Chess960 when the castling
    /// rights are written as rook files (Shredder-FEN, `HAha`) or need Chess960 (a king off
    /// the e-file or a castling rook off the a/h-files); [`Chess::set_chess960`] chooses
    /// explicitly.
    pub fn from_fen(text: &str) -> Result<Chess, FenError> {
        let p = fen::parse(text)?;
        Ok(Chess::from_board(p.board, p.halfmoves, p.chess960))
    }

    /// A Chess960 game from the start position with this Scharnagl number (`0..960`; 518 is
    /// the standard setup), or `None` past 959.
    #[must_use]
    pub fn chess960(scharnagl: u32) -> Option<Chess> {
        (scharnagl < 960).then(|| Chess::from_board(Board::chess960_startpos(scharnagl), 0, true))
    }

    /// A game starting from a cozy-chess board whose half-move clock is `halfmoves` (cozy
    /// keeps at most 100; `halfmoves` counts when the board's clock is at 100).
    #[must_use]
    pub fn from_board(board: Board, halfmoves: u16, chess960: bool) -> Chess {
        let chess960 = chess960 || fen::needs_chess960(&board);
        let halfmoves = if board.halfmove_clock() < 100 {
            u16::from(board.halfmove_clock())
        } else {
            halfmoves.max(100)
        };
        Chess {
            start: State {
                mv: ChessMove::default(),
                key: Chess::key_of(&board),
                board,
                halfmoves,
            },
            after: Vec::with_capacity(256),
            chess960,
        }
    }

    /// The current position.
    #[inline]
    fn state(&self) -> &State {
        self.after.last().unwrap_or(&self.start)
    }

    /// The repetition key of a board: cozy-chess's Zobrist hash, without the en-passant
    /// file when no en-passant capture is legal.
    #[inline]
    fn key_of(board: &Board) -> u64 {
        if board.en_passant().is_some() && fen::capturable_ep(board).is_none() {
            board.hash_without_ep()
        } else {
            board.hash()
        }
    }

    /// The current board, for evaluation and anything else cozy-chess answers.
    #[inline]
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.state().board
    }

    /// The board this game started from.
    #[must_use]
    pub fn start_board(&self) -> &Board {
        &self.start.board
    }

    /// FEN of the current position.
    #[must_use]
    pub fn fen(&self) -> String {
        let now = self.state();
        fen::write(&now.board, now.halfmoves, self.chess960)
    }

    /// FEN of the position this game started from.
    #[must_use]
    pub fn start_fen(&self) -> String {
        fen::write(&self.start.board, self.start.halfmoves, self.chess960)
    }

    /// True for Chess960 (Fischer random): castling is then written king takes rook in UCI
    /// and by rook files in FEN.
    #[must_use]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Chooses Chess960 notation (on) or standard notation (off). Turning it off is ignored
    /// when the castling rights of the start or current position need Chess960.
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 =
            on || fen::needs_chess960(&self.start.board) || fen::needs_chess960(self.board());
    }

    /// The moves played so far, oldest first.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = ChessMove> + '_ {
        self.after.iter().map(|s| s.mv)
    }

    /// The last move played, if any.
    #[must_use]
    pub fn last_move(&self) -> Option<ChessMove> {
        self.after.last().map(|s| s.mv)
    }

    /// Takes back the last move; `None` at the start.
    pub fn undo_move(&mut self) -> Option<ChessMove> {
        let mv = self.after.last()?.mv;
        self.after.pop();
        Some(mv)
    }

    /// The piece on square `sq` (`0..64`, a1 = 0) and its colour ([`Color::Red`] is White).
    #[must_use]
    pub fn piece_at(&self, sq: u8) -> Option<(Color, Role)> {
        if sq >= 64 {
            return None;
        }
        let s = square::to_cozy(sq);
        let board = self.board();
        let piece = board.piece_on(s)?;
        let color = board.color_on(s)?;
        Some((color_from_cozy(color), Role::from_cozy(piece)))
    }

    /// Plies since the last capture or pawn move (not capped at 100).
    #[must_use]
    pub fn halfmove_clock(&self) -> u16 {
        self.state().halfmoves
    }

    /// The FEN move number (1 at the start, +1 after each Black move).
    #[must_use]
    pub fn fullmove_number(&self) -> u16 {
        self.board().fullmove_number()
    }

    /// How many times the current position has occurred in this game, this time included
    /// (positions compared FIDE-style, see [`rules`]). Only positions since the last
    /// capture or pawn move can match.
    #[must_use]
    pub fn occurrences(&self) -> usize {
        let now = self.state();
        occurrences_in(self.history().skip(1), now)
    }

    /// Every position of the game, newest (the current one) first, back to the start.
    fn history(&self) -> impl Iterator<Item = &State> {
        self.after.iter().rev().chain(core::iter::once(&self.start))
    }

    /// The position after `mv` (legal here), as the stack would keep it.
    fn next_state(&self, mv: ChessMove) -> State {
        let now = self.state();
        let mut board = now.board.clone();
        board.play_unchecked(mv.to_cozy());
        let halfmoves = if board.halfmove_clock() == 0 {
            0
        } else {
            now.halfmoves.saturating_add(1)
        };
        State {
            mv,
            key: Chess::key_of(&board),
            board,
            halfmoves,
        }
    }

    /// See [`Game::claimable_draw_with`] (the impl below).
    fn claim_with(&self, mv: ChessMove, rules: &ChessRules) -> Option<DrawReason> {
        if rules.auto_claim || !self.is_legal(mv) {
            return None;
        }
        let next = self.next_state(mv);
        // A capture or a pawn move repeats nothing and starts the count afresh.
        if next.halfmoves == 0 {
            return None;
        }
        let occurrences = occurrences_in(self.history(), &next);
        let reason = claim_of(occurrences, next.halfmoves)?;
        automatic_outcome_of(&next.board, occurrences, next.halfmoves)
            .is_none()
            .then_some(reason)
    }

    /// True if neither side can ever mate (see [`rules`]).
    #[must_use]
    pub fn is_insufficient_material(&self) -> bool {
        rules::insufficient_material(self.board())
    }

    /// True if the side to move has a legal move.
    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        self.board().generate_moves(|_| true)
    }

    /// The number of legal moves (counted in bulk, without listing them).
    #[must_use]
    pub fn count_legal(&self) -> usize {
        let mut n = 0;
        self.board().generate_moves(|moves| {
            n += moves.len();
            false
        });
        n
    }

    /// True if `mv` (in the canonical form) is a castling move here: the king takes its own
    /// rook.
    #[must_use]
    pub fn is_castling(&self, mv: ChessMove) -> bool {
        let board = self.board();
        let side = board.side_to_move();
        board.colors(side).has(square::to_cozy(mv.to()))
            && board.king(side) == square::to_cozy(mv.from())
            && board.pieces(Piece::Rook).has(square::to_cozy(mv.to()))
    }

    /// True if playing `mv` here captures (en passant included, castling not).
    #[must_use]
    pub fn is_capture(&self, mv: ChessMove) -> bool {
        let board = self.board();
        let them = board.colors(!board.side_to_move());
        them.has(square::to_cozy(mv.to()))
            || (board.pieces(Piece::Pawn).has(square::to_cozy(mv.from()))
                && square::file(mv.from()) != square::file(mv.to()))
    }

    /// Plays a move known to be legal, recording it. A move that could corrupt cozy-chess's
    /// board (no own piece on its from-square, a king capture, landing on an own piece other
    /// than by castling) is recorded without changing the board, so unchecked play never
    /// panics.
    #[inline]
    fn push(&mut self, mv: ChessMove) {
        // Copy the current position straight into a new top of the stack, then play there.
        match self.after.len() {
            0 => self.after.push(self.start.clone()),
            n => self.after.extend_from_within(n - 1..),
        }
        let Some(next) = self.after.last_mut() else {
            return;
        };
        next.mv = mv;
        let cmv = mv.to_cozy();
        if well_formed(&next.board, cmv) {
            next.board.play_unchecked(cmv);
            next.halfmoves = if next.board.halfmove_clock() == 0 {
                0
            } else {
                next.halfmoves.saturating_add(1)
            };
            next.key = Chess::key_of(&next.board);
        }
    }

    /// The outcome on the board alone, before any claim.
    fn automatic_outcome(&self, occurrences: usize) -> Option<Outcome> {
        automatic_outcome_of(self.board(), occurrences, self.halfmove_clock())
    }

    /// The draw the side to move may claim now.
    fn claim(&self, occurrences: usize) -> Option<DrawReason> {
        claim_of(occurrences, self.halfmove_clock())
    }
}

/// How many times `now` stands in a game: once for itself, and once for each position of
/// `earlier` (the positions before it, newest first) that is the same, the same side to
/// move (see [`Chess::occurrences`]).
fn occurrences_in<'a>(earlier: impl Iterator<Item = &'a State>, now: &State) -> usize {
    // Positions one ply back have the other side to move; before the last capture or pawn
    // move nothing can match.
    1 + earlier
        .take(usize::from(now.halfmoves))
        .skip(1)
        .step_by(2)
        .filter(|p| p.key == now.key && p.board.same_position(&now.board))
        .count()
}

/// The outcome on `board` alone, before any claim, when it has stood `occurrences` times
/// with `halfmoves` plies since the last capture or pawn move.
fn automatic_outcome_of(board: &Board, occurrences: usize, halfmoves: u16) -> Option<Outcome> {
    if !board.generate_moves(|_| true) {
        return Some(no_move_outcome_of(board));
    }
    let reason = if rules::insufficient_material(board) {
        DrawReason::InsufficientMaterial
    } else if occurrences >= 5 {
        DrawReason::FivefoldRepetition
    } else if halfmoves >= SEVENTY_FIVE_MOVE_PLIES {
        DrawReason::SeventyFiveMoveRule
    } else {
        return None;
    };
    Some(Outcome::Draw { reason })
}

/// The draw that may be claimed in a position that has stood `occurrences` times, with
/// `halfmoves` plies since the last capture or pawn move.
fn claim_of(occurrences: usize, halfmoves: u16) -> Option<DrawReason> {
    if occurrences >= 3 {
        Some(DrawReason::ThreefoldRepetition)
    } else if halfmoves >= FIFTY_MOVE_PLIES {
        Some(DrawReason::FiftyMoveRule)
    } else {
        None
    }
}

/// Checkmate or stalemate on `board`, whose side to move has no legal move.
fn no_move_outcome_of(board: &Board) -> Outcome {
    if board.checkers().is_empty() {
        Outcome::Draw {
            reason: DrawReason::Stalemate,
        }
    } else {
        Outcome::Win {
            winner: color_from_cozy(!board.side_to_move()),
            reason: WinReason::Checkmate,
        }
    }
}

/// See [`Chess::push`]: a few mask tests on the raw bit sets.
#[inline]
fn well_formed(board: &Board, mv: cozy_chess::Move) -> bool {
    let own = board.colors(board.side_to_move()).0;
    let kings = board.pieces(Piece::King).0;
    let (from, to) = (mv.from.bitboard().0, mv.to.bitboard().0);
    if own & from == 0 || kings & to != 0 {
        return false;
    }
    // Onto an own piece only as castling: the own king takes an own rook.
    own & to == 0 || (kings & from != 0 && board.pieces(Piece::Rook).0 & to != 0)
}

impl Game for Chess {
    type Move = ChessMove;
    type Undo = ChessUndo;
    type Rules = ChessRules;
    type PlayError = PlayError;

    fn kind(&self) -> GameKind {
        GameKind::Chess
    }

    #[inline]
    fn side_to_move(&self) -> Color {
        color_from_cozy(self.board().side_to_move())
    }

    #[inline]
    fn legal_moves(&self, moves: &mut MoveList<ChessMove>) {
        moves.clear();
        crate::attacks::for_each_legal(self.board(), &mut |piece_moves| {
            for mv in piece_moves {
                moves.push(ChessMove::from_cozy(mv));
            }
            false
        });
    }

    #[inline]
    fn is_legal(&self, mv: ChessMove) -> bool {
        self.board().is_legal(mv.to_cozy())
    }

    fn play(&mut self, mv: ChessMove) -> Result<(), PlayError> {
        if !self.is_legal(mv) {
            return Err(PlayError::Illegal(mv));
        }
        self.push(mv);
        Ok(())
    }

    #[inline]
    fn make_unchecked(&mut self, mv: ChessMove) -> ChessUndo {
        self.push(mv);
        ChessUndo
    }

    #[inline]
    fn unmake(&mut self, _mv: ChessMove, _undo: ChessUndo) {
        self.undo_move();
    }

    #[inline]
    fn in_check(&self) -> bool {
        !self.board().checkers().is_empty()
    }

    fn no_move_outcome(&self) -> Outcome {
        no_move_outcome_of(self.board())
    }

    fn outcome(&self, rules: &ChessRules) -> Option<Outcome> {
        let occurrences = self.occurrences();
        if let Some(o) = self.automatic_outcome(occurrences) {
            return Some(o);
        }
        if rules.auto_claim {
            return self
                .claim(occurrences)
                .map(|reason| Outcome::Draw { reason });
        }
        None
    }

    fn claimable_draw(&self, _rules: &ChessRules) -> Option<DrawReason> {
        self.claim(self.occurrences())
    }

    /// The draw the side to move may claim by declaring `mv`, the claim FIDE's Laws allow
    /// with a move (9.2.1.1 for a threefold repetition, 9.3.1 for the fifty-move rule):
    /// `mv` is legal and the position after it stands for the third time, or completes
    /// fifty moves of each side without a capture or a pawn move. `None` as well when
    /// playing `mv` ends the game by itself (a mate, a stalemate, the fivefold repetition,
    /// the seventy-five-move rule, or a claim the rules make automatically): then the move
    /// is simply played.
    fn claimable_draw_with(&self, mv: ChessMove, rules: &ChessRules) -> Option<DrawReason> {
        self.claim_with(mv, rules)
    }

    /// The repetition key: cozy-chess's Zobrist hash of pieces, side, castling rights and
    /// the en-passant file, the last only when an en-passant capture is legal.
    #[inline]
    fn hash(&self) -> u64 {
        self.state().key
    }

    fn ply(&self) -> u32 {
        self.after.len() as u32
    }

    fn encode_move(&self, mv: ChessMove) -> u16 {
        wire::encode(mv)
    }

    fn decode_move(&self, code: u16) -> Option<ChessMove> {
        wire::decode(code).map(|mv| self.normalize_castling(mv))
    }
}

impl MatchGame for Chess {
    fn kinds() -> &'static [GameKind] {
        &[GameKind::Chess]
    }

    fn setup(kind: GameKind, fen: Option<&str>) -> Result<Chess, SetupError> {
        if kind != GameKind::Chess {
            return Err(SetupError::Unsupported(kind));
        }
        match fen {
            None => Ok(Chess::new()),
            Some(text) => Chess::from_fen(text).map_err(|e| {
                // A board that reads but is not legal: every problem, not the first only.
                let problems = crate::setup::ChessSetup::from_fen(text)
                    .map(|s| s.problems())
                    .unwrap_or_default();
                SetupError::BadPosition(match &problems[..] {
                    [] => e.to_string(),
                    [one] => format!("illegal position: {one}"),
                    many => format!(
                        "illegal position, {} problems: {}",
                        many.len(),
                        many.iter()
                            .map(ToString::to_string)
                            .collect::<Vec<_>>()
                            .join("; ")
                    ),
                })
            }),
        }
    }

    fn rules(kind: GameKind, index: u8) -> Option<ChessRules> {
        if kind != GameKind::Chess {
            return None;
        }
        MATCH_RULES.get(usize::from(index)).copied()
    }

    fn fen(&self) -> String {
        Chess::fen(self)
    }

    fn start_fen(&self) -> String {
        Chess::start_fen(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position() {
        let g = Chess::new();
        assert_eq!(g.fen(), fen::START_FEN);
        assert_eq!(g.start_fen(), fen::START_FEN);
        assert_eq!(g.count_legal(), 20);
        assert_eq!(g.piece_at(4), Some((Color::Red, Role::King)));
        assert_eq!(g.piece_at(59), Some((Color::Black, Role::Queen)));
        assert_eq!(g.piece_at(28), None);
        assert_eq!(g.piece_at(64), None);
        assert!(!g.is_chess960());
        assert_eq!(g.kind(), GameKind::Chess);
        assert_eq!(g.side_to_move(), Color::Red);
    }

    #[test]
    fn hash_is_frozen() {
        // Peers compare hashes: a cozy-chess upgrade that changed its Zobrist keys would
        // break matches between versions, so the value is pinned.
        assert_eq!(Chess::new().hash(), Board::default().hash());
        assert_eq!(Chess::new().hash(), 0x33ab_452b_8705_6e0f);
    }

    #[test]
    fn the_most_moves_fit() {
        let g = Chess::from_fen("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1").unwrap();
        let mut moves = MoveList::new();
        g.legal_moves(&mut moves);
        assert_eq!(moves.len(), 218);
        assert!(!moves.overflowed());
        assert_eq!(g.count_legal(), 218);
    }

    #[test]
    fn match_game() {
        assert_eq!(Chess::kinds(), &[GameKind::Chess]);
        assert_eq!(
            Chess::rules(GameKind::Chess, 0),
            Some(ChessRules::default())
        );
        assert_eq!(Chess::rules(GameKind::Chess, 1), None);
        assert_eq!(Chess::rules(GameKind::Xiangqi, 0), None);
        assert!(matches!(
            Chess::setup(GameKind::Xiangqi, None),
            Err(SetupError::Unsupported(GameKind::Xiangqi))
        ));
        let g = Chess::setup(GameKind::Chess, Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1")).unwrap();
        assert_eq!(MatchGame::fen(&g), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        assert!(matches!(
            Chess::setup(GameKind::Chess, Some("nonsense")),
            Err(SetupError::BadPosition(_))
        ));
    }

    #[test]
    fn unchecked_garbage_never_panics() {
        let mut g = Chess::new();
        let mut moves = MoveList::new();
        for code in 0..=u16::MAX {
            let mv = ChessMove::new((code & 63) as u8, (code >> 6 & 63) as u8, None);
            let before = g.fen();
            g.make_unchecked(mv);
            assert_eq!(g.ply(), 1);
            g.legal_moves(&mut moves);
            assert!(!moves.overflowed());
            std::hint::black_box((g.outcome(&ChessRules::default()), g.fen(), g.in_check()));
            g.unmake(mv, ChessUndo);
            assert_eq!(g.fen(), before);
        }
    }
}
