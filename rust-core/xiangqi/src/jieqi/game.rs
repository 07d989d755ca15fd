//! [`Jieqi`]: a jieqi position with its history, implementing [`banco_game::Game`] with
//! the reveal as its chance step, and [`MatchGame`].
//!
//! ```
//! use banco_xiangqi::jieqi::{Jieqi, JieqiMove};
//! use banco_xiangqi::PieceKind;
//! use banco_game::{ChanceList, Game};
//! let mut game = Jieqi::new();
//! game.play("h2e2".parse().unwrap()).unwrap();
//! assert!(game.awaits_chance());
//! let mut outcomes = ChanceList::new();
//! game.chance_outcomes(&mut outcomes);
//! assert_eq!(outcomes.len(), 6); // rook, advisor, elephant, horse, cannon, pawn
//! assert_eq!(outcomes.total_weight(), 15); // Red's pool
//! game.play(JieqiMove::Reveal(PieceKind::Pawn)).unwrap();
//! assert!(!game.awaits_chance());
//! assert_eq!(game.ply(), 2);
//! ```

use super::fen::{JieqiFenError, START_FEN};
use super::moves::JieqiMove;
use super::position::{JieqiPosition, JieqiUndo};
use crate::game::MATCH_RULES;
use crate::history::{History, Replay};
use crate::piece::PieceKind;
use crate::rules::{RepetitionRule, RuleSet, Verdict};
use banco_game::{
    ChanceList, Color, Game, GameKind, MatchGame, MoveList, Outcome, SetupError, WinReason,
};

/// A jieqi game: the current [`JieqiPosition`] and every move and reveal that led to it.
#[derive(Clone, Debug)]
pub struct Jieqi {
    history: History<JieqiPosition>,
}

impl Replay for JieqiPosition {
    type Move = JieqiMove;
    type Undo = JieqiUndo;
    fn make(&mut self, mv: JieqiMove) -> JieqiUndo {
        JieqiPosition::make(self, mv)
    }
    fn unmake(&mut self, mv: JieqiMove, undo: JieqiUndo) {
        JieqiPosition::unmake(self, mv, undo);
    }
    fn hash(&self) -> u64 {
        JieqiPosition::hash(self)
    }
    fn in_check(&self) -> bool {
        JieqiPosition::in_check(self)
    }
    fn side_to_move(&self) -> Color {
        JieqiPosition::side_to_move(self)
    }
    /// A reveal, and a face-down piece's step, change what is known for good.
    fn irreversible(&self, mv: JieqiMove) -> bool {
        match mv {
            JieqiMove::Reveal(_) => true,
            JieqiMove::Step(_) => self.moves_hidden(mv),
        }
    }
    fn captured(undo: JieqiUndo) -> bool {
        undo.captured().is_some()
    }
}

/// Why [`Jieqi::play`](Game::play) refused a move or reveal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JieqiPlayError {
    /// A step that is not legal here (or any step while a reveal is pending).
    #[error("{0} is not a legal move in this position")]
    Illegal(JieqiMove),
    /// A reveal when none is pending, or of a kind the mover's pool no longer holds.
    #[error("{0} is not a possible reveal here")]
    BadReveal(JieqiMove),
}

/// What [`Jieqi::make_unchecked`](Game::make_unchecked) returns.
#[derive(Clone, Copy, Debug)]
pub struct JieqiGameUndo(JieqiUndo);

impl Default for Jieqi {
    fn default() -> Self {
        Jieqi::new()
    }
}

impl Jieqi {
    /// A game from the start position.
    #[must_use]
    pub fn new() -> Jieqi {
        Jieqi::from_position(JieqiPosition::startpos())
    }

    /// A game starting from `pos`.
    #[must_use]
    pub fn from_position(pos: JieqiPosition) -> Jieqi {
        Jieqi {
            history: History::new(pos),
        }
    }

    /// A game starting from a jieqi FEN.
    pub fn from_fen(text: &str) -> Result<Jieqi, JieqiFenError> {
        Ok(Jieqi::from_position(JieqiPosition::from_fen(text)?))
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &JieqiPosition {
        self.history.pos()
    }

    /// The position the game started from.
    #[must_use]
    pub fn start_position(&self) -> &JieqiPosition {
        self.history.start()
    }

    /// The moves and reveals played so far.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = JieqiMove> + '_ {
        self.history.moves()
    }

    /// FEN of the current position.
    #[must_use]
    pub fn fen(&self) -> String {
        self.position().fen()
    }

    /// Takes back the last move or reveal; `None` at the start.
    pub fn undo_move(&mut self) -> Option<JieqiMove> {
        self.history.undo_last()
    }

    /// How many times the current position has occurred (1 if never before), counting
    /// back only through moves that can repeat.
    #[must_use]
    pub fn occurrences(&self) -> usize {
        self.history.repetition_span(usize::MAX).0
    }

    /// The repetition verdict if the current position has occurred `min_occurrences`
    /// times, as in xiangqi: a side that checked with every move of the cycle loses (both:
    /// draw); otherwise, under [`RepetitionRule::Asian`], a side that chased one piece with
    /// every move loses (both: draw; how face-down pieces are judged: [`super::chase`]);
    /// otherwise a draw.
    #[must_use]
    pub fn repetition_verdict(&self, rules: &RuleSet, min_occurrences: usize) -> Option<Verdict> {
        let wanted = min_occurrences.max(2);
        let (found, span) = self.history.repetition_span(wanted);
        if found < wanted || span == 0 {
            return None;
        }
        if let Some(v) = self.history.perpetual_check(span) {
            return Some(v);
        }
        Some(match rules.repetition {
            RepetitionRule::Casual => Verdict::Draw,
            RepetitionRule::Asian => super::chase::perpetual_chase(&self.history, span),
        })
    }

    /// True if neither side has a piece besides its king (face-down pieces count: they
    /// may be anything).
    #[must_use]
    pub fn insufficient_material(&self) -> bool {
        self.position()
            .pieces()
            .all(|(_, p)| p.kind == PieceKind::King && !p.hidden)
    }
}

impl Game for Jieqi {
    type Move = JieqiMove;
    type Undo = JieqiGameUndo;
    type Rules = RuleSet;
    type PlayError = JieqiPlayError;

    fn kind(&self) -> GameKind {
        GameKind::Jieqi
    }

    fn side_to_move(&self) -> Color {
        self.position().side_to_move()
    }

    fn legal_moves(&self, moves: &mut MoveList<JieqiMove>) {
        self.position().generate_legal(moves);
    }

    fn is_legal(&self, mv: JieqiMove) -> bool {
        self.position().is_legal(mv)
    }

    fn play(&mut self, mv: JieqiMove) -> Result<(), JieqiPlayError> {
        if !self.position().is_legal(mv) {
            return Err(match mv {
                JieqiMove::Step(_) => JieqiPlayError::Illegal(mv),
                JieqiMove::Reveal(_) => JieqiPlayError::BadReveal(mv),
            });
        }
        self.history.push(mv);
        Ok(())
    }

    fn make_unchecked(&mut self, mv: JieqiMove) -> JieqiGameUndo {
        JieqiGameUndo(self.history.push(mv))
    }

    fn unmake(&mut self, mv: JieqiMove, undo: JieqiGameUndo) {
        self.history.pop(mv, undo.0);
    }

    fn in_check(&self) -> bool {
        self.position().in_check()
    }

    fn no_move_outcome(&self) -> Outcome {
        let reason = if self.position().in_check() {
            WinReason::Checkmate
        } else {
            WinReason::Stalemate
        };
        Outcome::Win {
            winner: self.position().side_to_move().other(),
            reason,
        }
    }

    fn outcome(&self, rules: &RuleSet) -> Option<Outcome> {
        let pos = self.position();
        if pos.pending().is_some() {
            return None;
        }
        crate::rules::board_outcome(
            (!pos.has_legal_move()).then(|| self.no_move_outcome()),
            || self.repetition_verdict(rules, rules.repetitions as usize),
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

    fn encode_move(&self, mv: JieqiMove) -> u16 {
        mv.to_wire()
    }

    fn decode_move(&self, code: u16) -> Option<JieqiMove> {
        JieqiMove::from_wire(code)
    }

    fn awaits_chance(&self) -> bool {
        self.position().pending().is_some()
    }

    fn chance_outcomes(&self, out: &mut ChanceList<JieqiMove>) {
        out.clear();
        if self.position().pending().is_none() {
            return;
        }
        let mover = self.position().side_to_move().other();
        for (kind, n) in self.position().pool(mover).iter() {
            out.push(JieqiMove::Reveal(kind), u32::from(n));
        }
    }
}

impl MatchGame for Jieqi {
    fn kinds() -> &'static [GameKind] {
        &[GameKind::Jieqi]
    }

    fn setup(kind: GameKind, fen: Option<&str>) -> Result<Jieqi, SetupError> {
        if kind != GameKind::Jieqi {
            return Err(SetupError::Unsupported(kind));
        }
        match fen {
            None => Ok(Jieqi::new()),
            Some(text) => Jieqi::from_fen(text).map_err(|e| SetupError::BadPosition(e.to_string())),
        }
    }

    fn rules(kind: GameKind, index: u8) -> Option<RuleSet> {
        if kind != GameKind::Jieqi {
            return None;
        }
        MATCH_RULES.get(usize::from(index)).copied()
    }

    fn fen(&self) -> String {
        self.position().fen()
    }

    fn start_fen(&self) -> String {
        let start = self.history.start();
        if *start == JieqiPosition::startpos() {
            START_FEN.to_owned()
        } else {
            start.fen()
        }
    }
}
