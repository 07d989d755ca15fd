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
use crate::piece::PieceKind;
use crate::rules::{RuleSet, Verdict};
use banco_game::{
    ChanceList, Color, DrawReason, Game, GameKind, MatchGame, MoveList, Outcome, SetupError,
    WinReason,
};

/// One played move or reveal, with what undoing and the repetition judge need.
#[derive(Clone, Copy, Debug)]
struct Played {
    mv: JieqiMove,
    undo: JieqiUndo,
    /// Hash of the position before it.
    hash_before: u64,
    /// After it (and a step's reveal) the side to move is in check.
    check: bool,
    /// No earlier position can come back: a capture, a face-down piece's step, a reveal.
    irreversible: bool,
}

/// A jieqi game: the current [`JieqiPosition`] and every move and reveal that led to it.
#[derive(Clone, Debug)]
pub struct Jieqi {
    pos: JieqiPosition,
    start: JieqiPosition,
    history: Vec<Played>,
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
            start: pos.clone(),
            pos,
            history: Vec::with_capacity(256),
        }
    }

    /// A game starting from a jieqi FEN.
    pub fn from_fen(text: &str) -> Result<Jieqi, JieqiFenError> {
        Ok(Jieqi::from_position(JieqiPosition::from_fen(text)?))
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &JieqiPosition {
        &self.pos
    }

    /// The position the game started from.
    #[must_use]
    pub fn start_position(&self) -> &JieqiPosition {
        &self.start
    }

    /// The moves and reveals played so far.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = JieqiMove> + '_ {
        self.history.iter().map(|p| p.mv)
    }

    /// FEN of the current position.
    #[must_use]
    pub fn fen(&self) -> String {
        self.pos.fen()
    }

    /// Takes back the last move or reveal; `None` at the start.
    pub fn undo_move(&mut self) -> Option<JieqiMove> {
        let p = self.history.pop()?;
        self.pos.unmake(p.mv, p.undo);
        Some(p.mv)
    }

    fn push(&mut self, mv: JieqiMove) -> JieqiUndo {
        let hash_before = self.pos.hash();
        let irreversible = match mv {
            JieqiMove::Reveal(_) => true,
            JieqiMove::Step(_) => self.pos.moves_hidden(mv),
        };
        let undo = self.pos.make(mv);
        let check = self.pos.in_check();
        self.history.push(Played {
            mv,
            undo,
            hash_before,
            check,
            irreversible: irreversible || undo.captured().is_some(),
        });
        undo
    }

    /// How many times the current position has occurred (1 if never before), counting
    /// back only through moves that can repeat.
    #[must_use]
    pub fn occurrences(&self) -> usize {
        self.repetition_span(usize::MAX).0
    }

    /// Walks back through the reversible moves: the occurrences of the current position
    /// found before reaching `wanted`, and the span (in plies) back to the last one found.
    fn repetition_span(&self, wanted: usize) -> (usize, usize) {
        let key = self.pos.hash();
        let reversible = self
            .history
            .iter()
            .rev()
            .take_while(|p| !p.irreversible)
            .count();
        let mut found = 1;
        let mut span = 0;
        let mut d = 2;
        while d <= reversible && found < wanted {
            if self.history[self.history.len() - d].hash_before == key {
                found += 1;
                span = d;
            }
            d += 2;
        }
        (found, span)
    }

    /// The repetition verdict if the current position has occurred `min_occurrences`
    /// times: a side that checked with every move of the cycle loses (both: draw),
    /// otherwise a draw. Jieqi does not judge perpetual chases (see the module docs).
    #[must_use]
    pub fn repetition_verdict(&self, _rules: &RuleSet, min_occurrences: usize) -> Option<Verdict> {
        let (found, span) = self.repetition_span(min_occurrences.max(2));
        if found < min_occurrences.max(2) || span == 0 {
            return None;
        }
        let cycle = &self.history[self.history.len() - span..];
        let mut checks = [true; 2];
        for (i, p) in cycle.iter().enumerate() {
            // cycle[i] was played by the side to move `span - i` plies before now.
            let mover = if (span - i) % 2 == 0 {
                self.pos.side_to_move()
            } else {
                self.pos.side_to_move().other()
            };
            if !p.check {
                checks[mover.index()] = false;
            }
        }
        Some(crate::rules::perpetual_check_verdict(checks).unwrap_or(Verdict::Draw))
    }

    /// True if neither side has a piece besides its king (face-down pieces count: they
    /// may be anything).
    #[must_use]
    pub fn insufficient_material(&self) -> bool {
        self.pos
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
        self.pos.side_to_move()
    }

    fn legal_moves(&self, moves: &mut MoveList<JieqiMove>) {
        self.pos.generate_legal(moves);
    }

    fn is_legal(&self, mv: JieqiMove) -> bool {
        self.pos.is_legal(mv)
    }

    fn play(&mut self, mv: JieqiMove) -> Result<(), JieqiPlayError> {
        if !self.pos.is_legal(mv) {
            return Err(match mv {
                JieqiMove::Step(_) => JieqiPlayError::Illegal(mv),
                JieqiMove::Reveal(_) => JieqiPlayError::BadReveal(mv),
            });
        }
        self.push(mv);
        Ok(())
    }

    fn make_unchecked(&mut self, mv: JieqiMove) -> JieqiGameUndo {
        JieqiGameUndo(self.push(mv))
    }

    fn unmake(&mut self, mv: JieqiMove, undo: JieqiGameUndo) {
        self.history.pop();
        self.pos.unmake(mv, undo.0);
    }

    fn in_check(&self) -> bool {
        self.pos.in_check()
    }

    fn no_move_outcome(&self) -> Outcome {
        let reason = if self.pos.in_check() {
            WinReason::Checkmate
        } else {
            WinReason::Stalemate
        };
        Outcome::Win {
            winner: self.pos.side_to_move().other(),
            reason,
        }
    }

    fn outcome(&self, rules: &RuleSet) -> Option<Outcome> {
        if self.pos.pending().is_some() {
            return None;
        }
        if !self.pos.has_legal_move() {
            return Some(self.no_move_outcome());
        }
        if let Some(v) = self.repetition_verdict(rules, rules.repetitions as usize) {
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

    fn hash(&self) -> u64 {
        self.pos.hash()
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
        self.pos.pending().is_some()
    }

    fn chance_outcomes(&self, out: &mut ChanceList<JieqiMove>) {
        out.clear();
        if self.pos.pending().is_none() {
            return;
        }
        let mover = self.pos.side_to_move().other();
        for (kind, n) in self.pos.pool(mover).iter() {
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
        self.pos.fen()
    }

    fn start_fen(&self) -> String {
        if self.start == JieqiPosition::startpos() {
            START_FEN.to_owned()
        } else {
            self.start.fen()
        }
    }
}
