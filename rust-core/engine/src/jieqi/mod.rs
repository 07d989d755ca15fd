//! Jieqi in the engine: [`JieqiNode`] (a jieqi position with its path, implementing
//! [`SearchGame`] with the reveal as its chance step), the evaluation in [`eval`], and
//! [`EngineGame`](crate::EngineGame) for [`Jieqi`] in [`game`].
//!
//! The search takes the expectation over every identity a reveal may draw, weighted by
//! the pool (the generic chance nodes of [`chance`](crate::chance), Star1 windows), and
//! the transposition key is the position's hash, which covers the pools and a pending
//! reveal. **The engine never reads the identity of a face-down piece:** the position has
//! none to read — an identity exists only once its reveal is applied.
//!
//! ```
//! use banco_engine::{JieqiNode, Limits, Searcher};
//! use banco_xiangqi::RuleSet;
//! use banco_xiangqi::jieqi::Jieqi;
//! use std::sync::atomic::AtomicBool;
//! // Red's rook takes the undefended black rook.
//! let game = Jieqi::from_fen("3k4r/9/9/9/9/9/9/9/9/4K3R w - 0 1").unwrap();
//! let mut searcher = Searcher::<JieqiNode>::new(1);
//! let r = searcher.search(&game, &RuleSet::default(), &Limits::depth(3), &AtomicBool::new(false), |_| {});
//! assert_eq!(r.best_move.unwrap().to_string(), "i0i9");
//! ```

pub mod eval;
pub mod game;

use crate::searchable::{Repetition, SearchGame, Verdict};
use banco_game::{ChanceList, Color, Game, MoveList};
use banco_xiangqi::jieqi::{Jieqi, JieqiMove, JieqiPiece, JieqiPosition, JieqiUndo};
use banco_xiangqi::{Move, PieceKind, RepetitionRule, RuleSet};
pub use eval::JieqiParams;

/// One step of the path: what the repetition scan needs.
#[derive(Clone, Copy, Debug)]
struct Step {
    /// The move (a null move: a reveal's code, behind a barrier, never replayed).
    mv: JieqiMove,
    hash_before: u64,
    check: bool,
    /// A capture, a face-down piece's step, a reveal or a null move: the scan stops.
    barrier: bool,
}

/// A jieqi position with the moves that led to it (the game's history and then the search
/// path), the rule set and the evaluation weights.
#[derive(Clone, Debug)]
pub struct JieqiNode {
    pos: JieqiPosition,
    path: Vec<Step>,
    root_check: bool,
    rules: RuleSet,
    params: JieqiParams,
}

impl JieqiNode {
    /// The current position.
    #[must_use]
    pub fn position(&self) -> &JieqiPosition {
        &self.pos
    }

    /// The value of a piece for ordering and exchanges: its kind's, or its pool's mean
    /// when face down.
    fn worth(&self, p: JieqiPiece) -> i32 {
        if p.hidden {
            self.params.pool_mean(&self.pos, p.color).max(1)
        } else if p.kind == PieceKind::King {
            10_000
        } else {
            self.params.material[p.kind as usize]
        }
    }

    /// The chase verdict on the cycle of the last `span` plies, from the side to move's
    /// view: the cycle replayed from here (it comes back here) for the game's judge.
    fn chase(&self, span: usize) -> Repetition {
        if self.rules.repetition != RepetitionRule::Asian {
            return Repetition::Draw;
        }
        let mut game = Jieqi::from_position(self.pos.clone());
        for s in &self.path[self.path.len() - span..] {
            if !game.position().is_legal(s.mv) {
                return Repetition::Draw;
            }
            game.make_unchecked(s.mv);
        }
        match game
            .repetition_verdict(&self.rules, 2)
            .and_then(|v| v.loser())
        {
            Some(loser) if loser == self.pos.side_to_move() => Repetition::Loss,
            Some(_) => Repetition::Win,
            None => Repetition::Draw,
        }
    }
}

impl SearchGame for JieqiNode {
    type Game = Jieqi;
    type Move = JieqiMove;
    type Undo = JieqiUndo;
    type NullUndo = u16;
    type Params = JieqiParams;
    const MOVE_INDEX_SIZE: usize = 90 * 90 + 7;

    fn from_game(game: &Jieqi, rules: &RuleSet, params: &JieqiParams) -> JieqiNode {
        let mut pos = game.start_position().clone();
        let mut path = Vec::with_capacity(game.moves().len() + 160);
        for mv in game.moves() {
            let hash_before = pos.hash();
            let barrier = !matches!(mv, JieqiMove::Step(_))
                || pos.moves_hidden(mv)
                || pos.captured_by(mv).is_some();
            pos.make(mv);
            path.push(Step {
                mv,
                hash_before,
                check: pos.in_check(),
                barrier,
            });
        }
        JieqiNode {
            root_check: pos.in_check(),
            pos,
            path,
            rules: *rules,
            params: params.clone(),
        }
    }

    fn side_to_move(&self) -> Color {
        self.pos.side_to_move()
    }

    fn hash(&self) -> u64 {
        self.pos.hash()
    }

    fn in_check(&self) -> bool {
        self.path.last().map_or(self.root_check, |s| s.check)
    }

    fn legal_moves(&self, out: &mut MoveList<JieqiMove>) {
        self.pos.generate_legal(out);
    }

    /// Jieqi, like xiangqi: the side without a move loses.
    fn no_move_verdict(&self, _in_check: bool) -> Verdict {
        Verdict::Loss
    }

    fn awaits_chance(&self) -> bool {
        self.pos.pending().is_some()
    }

    fn chance_outcomes(&self, out: &mut ChanceList<JieqiMove>) {
        out.clear();
        if self.pos.pending().is_some() {
            for (kind, n) in self.pos.pool(self.pos.side_to_move().other()).iter() {
                out.push(JieqiMove::Reveal(kind), u32::from(n));
            }
        }
    }

    /// The evaluation with the moved piece still face down: it counts at its pool's mean,
    /// which is the expectation of the reveal's material.
    fn chance_estimate(&self) -> Option<i32> {
        Some(eval::evaluate(&self.pos, &self.params))
    }

    fn legal_captures(&self, out: &mut MoveList<JieqiMove>) {
        self.pos.generate_legal(out);
        out.retain(|&m| self.pos.captured_by(m).is_some());
    }

    fn is_legal(&self, mv: JieqiMove) -> bool {
        self.pos.is_legal(mv)
    }

    fn make(&mut self, mv: JieqiMove) -> JieqiUndo {
        let hash_before = self.pos.hash();
        let barrier = !matches!(mv, JieqiMove::Step(_))
            || self.pos.moves_hidden(mv)
            || self.pos.captured_by(mv).is_some();
        let undo = self.pos.make(mv);
        self.path.push(Step {
            mv,
            hash_before,
            check: self.pos.in_check(),
            barrier,
        });
        undo
    }

    fn unmake(&mut self, mv: JieqiMove, undo: JieqiUndo) {
        self.path.pop();
        self.pos.unmake(mv, undo);
    }

    fn make_null(&mut self) -> u16 {
        let hash_before = self.pos.hash();
        let h = self.pos.make_null();
        self.path.push(Step {
            mv: JieqiMove::Reveal(PieceKind::Pawn),
            hash_before,
            check: false,
            barrier: true,
        });
        h
    }

    fn unmake_null(&mut self, undo: u16) {
        self.path.pop();
        self.pos.unmake_null(undo);
    }

    fn evaluate(&self) -> i32 {
        eval::evaluate(&self.pos, &self.params)
    }

    fn capture_key(&self, mv: JieqiMove) -> Option<i32> {
        let victim = self.pos.captured_by(mv)?;
        let attacker = self.pos.moved_by(mv).map_or(0, |p| self.worth(p));
        Some(self.worth(victim) * 16 - attacker / 8)
    }

    fn capture_value(&self, mv: JieqiMove) -> i32 {
        self.pos.captured_by(mv).map_or(0, |p| self.worth(p))
    }

    /// A capture is fine at first sight if the victim is worth at least the attacker or
    /// the destination is not defended.
    fn see_ok(&self, mv: JieqiMove) -> bool {
        let (Some(victim), Some(attacker), Some(step)) =
            (self.pos.captured_by(mv), self.pos.moved_by(mv), mv.step())
        else {
            return true;
        };
        self.worth(victim) >= self.worth(attacker) || !self.pos.is_attacked(step.to(), victim.color)
    }

    fn tt_code(mv: JieqiMove) -> u16 {
        match mv {
            JieqiMove::Step(m) => m.to_packed(),
            JieqiMove::Reveal(k) => k as u16,
        }
    }

    fn from_tt_code(code: u16) -> Option<JieqiMove> {
        if code < 256 {
            PieceKind::from_index(code as u8)
                .filter(|&k| k != PieceKind::King)
                .map(JieqiMove::Reveal)
        } else {
            Some(JieqiMove::Step(Move::from_packed(code)))
        }
    }

    fn move_index(mv: JieqiMove) -> usize {
        match mv {
            JieqiMove::Step(m) => {
                let (from, to) = m.indices();
                usize::from(from) * 90 + usize::from(to)
            }
            JieqiMove::Reveal(k) => 90 * 90 + k as usize,
        }
    }

    /// The first repetition on the path counts: the side that checked with every move of
    /// the cycle loses; otherwise, under Asian rules, the side that chased one piece with
    /// every move (the game's judge, [`Jieqi::repetition_verdict`]); any other cycle is a
    /// draw.
    fn repetition(&mut self) -> Option<Repetition> {
        let key = self.pos.hash();
        let len = self.path.len();
        let mut d = 2;
        while d <= len {
            let (a, b) = (&self.path[len - d], &self.path[len - d + 1]);
            if a.barrier || b.barrier {
                return None;
            }
            if a.hash_before == key {
                // path[len - d + i] was played by the side to move when i is even.
                let mut checks = [true, true];
                for (i, s) in self.path[len - d..].iter().enumerate() {
                    if !s.check {
                        checks[i % 2] = false;
                    }
                }
                return Some(match checks {
                    [true, false] => Repetition::Loss,
                    [false, true] => Repetition::Win,
                    [true, true] => Repetition::Draw,
                    [false, false] => self.chase(d),
                });
            }
            d += 2;
        }
        None
    }

    fn repetitions_judged(&self) -> usize {
        usize::from(self.rules.repetitions)
    }

    fn rule_draw(&self) -> bool {
        self.rules.no_capture_plies > 0 && self.pos.halfmoves() >= self.rules.no_capture_plies
    }

    /// Revealed rooks, horses or cannons, or face-down pieces (any may be one).
    fn has_big_pieces(&self) -> bool {
        let me = self.pos.side_to_move();
        self.pos.pieces().any(|(_, p)| {
            p.color == me
                && (p.hidden
                    || matches!(
                        p.kind,
                        PieceKind::Rook | PieceKind::Horse | PieceKind::Cannon
                    ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perpetual_checker_sees_the_loss() {
        let mut game = Jieqi::from_fen("9/4k4/9/9/9/9/9/9/2p6/3K1RBc1 w - 0 1").unwrap();
        for mv in "f0e0 e8f8 e0f0 f8e8".split(' ') {
            game.play(mv.parse().unwrap()).unwrap();
        }
        let mut node = JieqiNode::from_game(&game, &RuleSet::asian(), &JieqiParams::default());
        assert_eq!(node.side_to_move(), Color::Red);
        assert_eq!(node.repetition(), Some(Repetition::Loss));
        let mv: JieqiMove = "f0e0".parse().unwrap();
        let u = node.make(mv);
        assert_eq!(node.repetition(), Some(Repetition::Win));
        node.unmake(mv, u);
    }

    #[test]
    fn perpetual_chaser_sees_the_loss() {
        // Red's rook steps i3-h3-i3, a new attack on the unprotected horse each time.
        let mut game = Jieqi::from_fen("5k3/9/8n/9/9/9/8R/9/9/3K4R w - 0 1").unwrap();
        for mv in "i3h3 f9f8 h3i3 f8f9".split(' ') {
            game.play(mv.parse().unwrap()).unwrap();
        }
        let mut node = JieqiNode::from_game(&game, &RuleSet::asian(), &JieqiParams::default());
        assert_eq!(node.repetition(), Some(Repetition::Loss));
        let casual = JieqiNode::from_game(&game, &RuleSet::casual(), &JieqiParams::default());
        assert_eq!(casual.clone().repetition(), Some(Repetition::Draw));
        let mv: JieqiMove = "i3h3".parse().unwrap();
        let u = node.make(mv);
        assert_eq!(node.repetition(), Some(Repetition::Win));
        node.unmake(mv, u);
    }

    #[test]
    fn tt_codes_and_indices_round_trip() {
        let node =
            JieqiNode::from_game(&Jieqi::new(), &RuleSet::default(), &JieqiParams::default());
        let mut moves = MoveList::new();
        node.legal_moves(&mut moves);
        let mut all: Vec<JieqiMove> = moves.iter().copied().collect();
        all.extend([PieceKind::Advisor, PieceKind::Pawn].map(JieqiMove::Reveal));
        for mv in all {
            assert_ne!(JieqiNode::tt_code(mv), 0);
            assert_eq!(JieqiNode::from_tt_code(JieqiNode::tt_code(mv)), Some(mv));
            assert!(JieqiNode::move_index(mv) < JieqiNode::MOVE_INDEX_SIZE);
        }
        assert!(!node.is_legal(JieqiNode::no_move()));
    }
}
