//! [`Xiangqi`]: a position with its history, implementing [`banco_game::Game`].
//!
//! ```
//! use banco_xiangqi::{Xiangqi, RuleSet};
//! use banco_game::Game;
//! let mut game = Xiangqi::new();
//! let mv = "h2e2".parse().unwrap();
//! game.play(mv).unwrap();
//! assert_eq!(game.ply(), 1);
//! assert!(game.play(mv).is_err()); // h2 is empty now; nothing changed
//! assert_eq!(game.ply(), 1);
//! assert_eq!(game.outcome(&RuleSet::default()), None);
//! ```

use crate::fen::{self, FenError};
use crate::history::{History, Replay};
use crate::moves::Move;
use crate::position::{Position, Undo};
use crate::rules::{self, RuleSet, Verdict};
use banco_game::{Color, Game, GameKind, MatchGame, MoveList, Outcome, SetupError, WinReason};

/// A xiangqi game: the current [`Position`] and every move that led to it from the
/// position the game started from.
#[derive(Clone, Debug)]
pub struct Xiangqi {
    history: History<Position>,
}

impl Replay for Position {
    type Move = Move;
    type Undo = Undo;
    #[inline]
    fn make(&mut self, mv: Move) -> Undo {
        Position::make(self, mv)
    }
    #[inline]
    fn unmake(&mut self, mv: Move, undo: Undo) {
        Position::unmake(self, mv, undo);
    }
    #[inline]
    fn hash(&self) -> u64 {
        Position::hash(self)
    }
    #[inline]
    fn in_check(&self) -> bool {
        Position::in_check(self)
    }
    #[inline]
    fn side_to_move(&self) -> Color {
        Position::side_to_move(self)
    }
    #[inline]
    fn irreversible(&self, _mv: Move) -> bool {
        // Only captures, as the half-move clock counts.
        false
    }
    #[inline]
    fn captured(undo: Undo) -> bool {
        undo.captured().is_some()
    }
}

/// Why [`Xiangqi::play`] refused a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The move is not legal in the current position.
    #[error("{0} is not a legal move in this position")]
    Illegal(Move),
    /// The game has already ended.
    #[error("the game is over ({0})")]
    GameOver(Outcome),
}

/// What [`Xiangqi::make_unchecked`](Game::make_unchecked) returns.
#[derive(Clone, Copy, Debug)]
pub struct XiangqiUndo(Undo);

impl Default for Xiangqi {
    fn default() -> Self {
        Xiangqi::new()
    }
}

impl Xiangqi {
    /// A game from the start position.
    #[must_use]
    pub fn new() -> Xiangqi {
        Xiangqi::from_position(Position::startpos())
    }

    /// A game starting from `pos`.
    #[must_use]
    pub fn from_position(pos: Position) -> Xiangqi {
        Xiangqi {
            history: History::new(pos),
        }
    }

    /// A game starting from a FEN.
    pub fn from_fen(text: &str) -> Result<Xiangqi, FenError> {
        Ok(Xiangqi::from_position(fen::parse(text)?))
    }

    /// The current position.
    #[inline]
    #[must_use]
    pub fn position(&self) -> &Position {
        self.history.pos()
    }

    /// The position the game started from.
    #[must_use]
    pub fn start_position(&self) -> &Position {
        self.history.start()
    }

    /// The moves played so far.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.history.moves()
    }

    /// FEN of the current position.
    #[must_use]
    pub fn fen(&self) -> String {
        fen::to_fen(self.history.pos())
    }

    pub(crate) fn history(&self) -> &History<Position> {
        &self.history
    }

    /// Takes back the last move; `None` at the start.
    pub fn undo_move(&mut self) -> Option<Move> {
        self.history.undo_last()
    }

    /// How many times the current position has occurred (1 if never before), counting
    /// back only through moves that can repeat (no capture in between).
    #[must_use]
    pub fn occurrences(&self) -> usize {
        self.history.repetition_span(usize::MAX).0
    }

    /// The verdict of the repetition judge if the current position has occurred at least
    /// `min_occurrences` times (2 lets a search treat the first repetition as final).
    #[must_use]
    pub fn repetition_verdict(&self, rules: &RuleSet, min_occurrences: usize) -> Option<Verdict> {
        rules::judge(self, rules, min_occurrences)
    }

    /// True if the move just played gave check (false at the start).
    #[must_use]
    pub fn last_move_gave_check(&self) -> bool {
        self.history.last_check().unwrap_or(false)
    }

    /// True if neither side has a rook, horse, cannon or pawn.
    #[must_use]
    pub fn insufficient_material(&self) -> bool {
        use crate::piece::PieceKind::{Cannon, Horse, Pawn, Rook};
        Color::ALL.iter().all(|&c| {
            [Rook, Horse, Cannon, Pawn]
                .iter()
                .all(|&k| self.position().count(c, k) == 0)
        })
    }
}

impl Game for Xiangqi {
    type Move = Move;
    type Undo = XiangqiUndo;
    type Rules = RuleSet;
    type PlayError = PlayError;

    fn kind(&self) -> GameKind {
        GameKind::Xiangqi
    }

    #[inline]
    fn side_to_move(&self) -> Color {
        self.position().side_to_move()
    }

    #[inline]
    fn legal_moves(&self, moves: &mut MoveList<Move>) {
        self.position().generate_legal(moves);
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.position().is_legal(mv)
    }

    fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        if !self.position().is_legal(mv) {
            return Err(PlayError::Illegal(mv));
        }
        self.history.push(mv);
        Ok(())
    }

    #[inline]
    fn make_unchecked(&mut self, mv: Move) -> XiangqiUndo {
        XiangqiUndo(self.history.push(mv))
    }

    #[inline]
    fn unmake(&mut self, mv: Move, undo: XiangqiUndo) {
        self.history.pop(mv, undo.0);
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.history
            .last_check()
            .unwrap_or_else(|| self.position().in_check())
    }

    fn outcome(&self, rules: &RuleSet) -> Option<Outcome> {
        let pos = self.position();
        rules::board_outcome(
            (!pos.has_legal_move()).then(|| self.no_move_outcome()),
            || rules::judge(self, rules, rules.repetitions as usize),
            pos.halfmoves(),
            rules,
            || self.insufficient_material(),
        )
    }

    fn hash(&self) -> u64 {
        self.position().hash()
    }

    fn ply(&self) -> u32 {
        self.history.len() as u32
    }

    fn encode_move(&self, mv: Move) -> u16 {
        mv.to_wire()
    }

    fn decode_move(&self, code: u16) -> Option<Move> {
        Move::from_wire(code)
    }

    fn no_move_outcome(&self) -> Outcome {
        // In xiangqi the side without a move loses, in check or not.
        let reason = if self.in_check() {
            WinReason::Checkmate
        } else {
            WinReason::Stalemate
        };
        Outcome::Win {
            winner: self.position().side_to_move().other(),
            reason,
        }
    }
}

/// The rule sets a match can name, by wire index: 0 Asian (the usual tournament rules),
/// 1 casual.
pub const MATCH_RULES: [RuleSet; 2] = [RuleSet::asian(), RuleSet::casual()];

impl MatchGame for Xiangqi {
    fn kinds() -> &'static [GameKind] {
        &[GameKind::Xiangqi]
    }

    fn setup(kind: GameKind, fen: Option<&str>) -> Result<Xiangqi, SetupError> {
        if kind != GameKind::Xiangqi {
            return Err(SetupError::Unsupported(kind));
        }
        match fen {
            None => Ok(Xiangqi::new()),
            Some(text) => {
                Xiangqi::from_fen(text).map_err(|e| SetupError::BadPosition(e.to_string()))
            }
        }
    }

    fn rules(kind: GameKind, index: u8) -> Option<RuleSet> {
        if kind != GameKind::Xiangqi {
            return None;
        }
        MATCH_RULES.get(usize::from(index)).copied()
    }

    fn fen(&self) -> String {
        Xiangqi::fen(self)
    }

    fn start_fen(&self) -> String {
        fen::to_fen(self.history.start())
    }
}
