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
use crate::moves::Move;
use crate::position::{Position, Undo};
use crate::rules::{self, RuleSet, Verdict};
use banco_game::{
    Color, DrawReason, Game, GameKind, MatchGame, MoveList, Outcome, SetupError, WinReason,
};

/// One played move with what is needed to take it back and to judge repetitions.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Played {
    pub(crate) mv: Move,
    pub(crate) undo: Undo,
    /// Hash of the position before the move.
    pub(crate) hash_before: u64,
    /// The move gave check.
    pub(crate) check: bool,
}

/// A xiangqi game: the current [`Position`] and every move that led to it from the
/// position the game started from.
#[derive(Clone, Debug)]
pub struct Xiangqi {
    pos: Position,
    start: Position,
    history: Vec<Played>,
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
            start: pos.clone(),
            pos,
            history: Vec::with_capacity(256),
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
        &self.pos
    }

    /// The position the game started from.
    #[must_use]
    pub fn start_position(&self) -> &Position {
        &self.start
    }

    /// The moves played so far.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.history.iter().map(|p| p.mv)
    }

    /// FEN of the current position.
    #[must_use]
    pub fn fen(&self) -> String {
        fen::to_fen(&self.pos)
    }

    pub(crate) fn history(&self) -> &[Played] {
        &self.history
    }

    /// Takes back the last move; `None` at the start.
    pub fn undo_move(&mut self) -> Option<Move> {
        let p = self.history.pop()?;
        self.pos.unmake(p.mv, p.undo);
        Some(p.mv)
    }

    /// Plays a move without checking legality, recording it in the history.
    #[inline]
    fn push(&mut self, mv: Move) -> Undo {
        let hash_before = self.pos.hash();
        let undo = self.pos.make(mv);
        let check = self.pos.in_check();
        self.history.push(Played {
            mv,
            undo,
            hash_before,
            check,
        });
        undo
    }

    /// How many times the current position has occurred (1 if never before), counting
    /// back only through moves that can repeat (no capture in between).
    #[must_use]
    pub fn occurrences(&self) -> usize {
        let key = self.pos.hash();
        let reversible = (self.pos.halfmoves() as usize).min(self.history.len());
        let recent = &self.history[self.history.len() - reversible..];
        1 + recent
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|p| p.hash_before == key)
            .count()
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
        self.history.last().is_some_and(|p| p.check)
    }

    /// True if neither side has a rook, horse, cannon or pawn.
    #[must_use]
    pub fn insufficient_material(&self) -> bool {
        use crate::piece::PieceKind::{Cannon, Horse, Pawn, Rook};
        Color::ALL.iter().all(|&c| {
            [Rook, Horse, Cannon, Pawn]
                .iter()
                .all(|&k| self.pos.count(c, k) == 0)
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
        self.pos.side_to_move()
    }

    #[inline]
    fn legal_moves(&self, moves: &mut MoveList<Move>) {
        self.pos.generate_legal(moves);
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.pos.is_legal(mv)
    }

    fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        if !self.pos.is_legal(mv) {
            return Err(PlayError::Illegal(mv));
        }
        self.push(mv);
        Ok(())
    }

    #[inline]
    fn make_unchecked(&mut self, mv: Move) -> XiangqiUndo {
        XiangqiUndo(self.push(mv))
    }

    #[inline]
    fn unmake(&mut self, mv: Move, undo: XiangqiUndo) {
        self.history.pop();
        self.pos.unmake(mv, undo.0);
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.history
            .last()
            .map_or_else(|| self.pos.in_check(), |p| p.check)
    }

    fn outcome(&self, rules: &RuleSet) -> Option<Outcome> {
        if !self.pos.has_legal_move() {
            return Some(self.no_move_outcome());
        }
        if let Some(v) = rules::judge(self, rules, rules.repetitions as usize) {
            return Some(v.outcome());
        }
        if rules.no_capture_plies > 0 && self.pos.halfmoves() >= rules.no_capture_plies {
            return Some(Outcome::Draw {
                reason: DrawReason::NoCapture(rules.no_capture_plies),
            });
        }
        if self.insufficient_material() {
            return Some(Outcome::Draw {
                reason: DrawReason::InsufficientMaterial,
            });
        }
        None
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.pos.hash()
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
            winner: self.pos.side_to_move().other(),
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
        fen::to_fen(&self.start)
    }
}
