//! Xiangqi in the engine: [`XiangqiNode`] (a position with its path, implementing
//! [`SearchGame`]), the evaluation in [`eval`] with what it reads off the board in
//! [`features`] and the piece values of the search in [`values`], and the game as the
//! game-free modules need it ([`EngineGame`](crate::EngineGame) for
//! [`Xiangqi`], in [`game`]: bench positions, openings, moves, rules).
//!
//! ```
//! use banco_engine::{Limits, Searcher, XiangqiNode};
//! use banco_xiangqi::{RuleSet, Xiangqi};
//! use std::sync::atomic::AtomicBool;
//! // Red mates at once with the rook on the d-file.
//! let game = Xiangqi::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1").unwrap();
//! let mut searcher = Searcher::<XiangqiNode>::new(1);
//! let result = searcher.search(&game, &RuleSet::default(), &Limits::depth(3), &AtomicBool::new(false), |_| {});
//! assert_eq!(result.best_move.unwrap().to_string(), "e1d1");
//! ```

pub mod eval;
pub mod features;
pub mod game;
pub mod see;
pub mod texel;
pub mod texel_gen;
pub mod texel_io;
pub mod threats;
pub mod values;
pub mod weights;
pub mod weights_prev;

use crate::searchable::{Repetition, SearchGame, Verdict};
use banco_game::{Color, Game, MoveList};
use banco_xiangqi::{Checkers, Move, PieceKind, Position, RuleSet, Square, Undo, Xiangqi, rules};
pub use eval::XiangqiParams;
use eval::{Base, LAZY_MARGIN};

/// One move on the path from the game's start: what the repetition scan needs.
#[derive(Clone, Copy, Debug)]
struct Step {
    hash_before: u64,
    base_before: Base,
    pawns_before: u64,
    mv: Move,
    check: bool,
    null: bool,
}

/// A xiangqi position with the moves that led to it (the game's history and then the
/// search path), the rule set and the evaluation weights.
#[derive(Clone, Debug)]
pub struct XiangqiNode {
    pos: Position,
    path: Vec<Step>,
    root_check: bool,
    /// The checkers of every node in check on the path, the current one last when it is in
    /// check (a stack: pushed by a checking move, popped when it is taken back).
    checkers: Vec<Checkers>,
    base: Base,
    /// Verdicts already judged, by position and cycle (the judge is costly; a search
    /// meets the same cycles again and again).
    verdicts: Vec<(u64, Repetition)>,
    rules: RuleSet,
    params: XiangqiParams,
    /// [`Base`] contribution of every piece on every square, `[color × 7 + kind][square]`
    /// (material and tables with their scale applied once, not at every move).
    psq: Box<[[Base; 90]; 14]>,
    /// Hash of the pawns' squares (the correction history's key).
    pawns: u64,
}

/// The hash of a pawn of `side` (0 Red, 1 Black) on square index `sq`.
#[inline]
fn pawn_hash(side: usize, sq: usize) -> u64 {
    // SplitMix64 of the (side, square) pair: a few multiplies, only for pawn moves.
    let mut z = ((side * 90 + sq) as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The pawn hash of a whole position.
fn pawns_of(pos: &Position) -> u64 {
    pos.pieces()
        .filter(|(_, p)| p.kind == PieceKind::Pawn)
        .fold(0, |h, (sq, p)| {
            h ^ pawn_hash(p.color.index(), usize::from(sq.index()))
        })
}

/// Entries of the verdict cache.
const VERDICT_CACHE: usize = 2048;

impl XiangqiNode {
    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The evaluation weights.
    #[must_use]
    pub fn params(&self) -> &XiangqiParams {
        &self.params
    }

    /// The pieces giving check now.
    #[inline]
    fn checkers(&self) -> &Checkers {
        const NONE: &Checkers = &Checkers::EMPTY;
        self.checkers.last().unwrap_or(NONE)
    }

    fn verdict(&self, span: usize) -> Option<rules::Verdict> {
        let mut game = Xiangqi::from_position(self.pos.clone());
        for s in &self.path[self.path.len() - span..] {
            if !game.position().is_legal(s.mv) {
                return None;
            }
            game.make_unchecked(s.mv);
        }
        game.repetition_verdict(&self.rules, 2)
    }
}

/// Adds (`sign` 1) or removes (`sign` -1) one piece's contribution to a [`Base`].
#[inline(always)]
fn shift(base: &mut Base, piece: &Base, sign: i32) {
    base.mg += sign * piece.mg;
    base.eg += sign * piece.eg;
    base.phase += sign * piece.phase;
}

impl SearchGame for XiangqiNode {
    type Game = Xiangqi;
    type Move = Move;
    type Undo = Undo;
    type NullUndo = u16;
    type Params = XiangqiParams;
    const MOVE_INDEX_SIZE: usize = 90 * 90;

    fn from_game(game: &Xiangqi, rules: &RuleSet, params: &XiangqiParams) -> XiangqiNode {
        let mut pos = game.start_position().clone();
        let mut path = Vec::with_capacity(game.moves().len() + 160);
        for mv in game.moves() {
            let hash_before = pos.hash();
            pos.make(mv);
            let check = pos.in_check();
            let base_before = Base::default();
            path.push(Step {
                hash_before,
                base_before,
                pawns_before: 0,
                mv,
                check,
                null: false,
            });
        }
        let root_check = pos.in_check();
        let mut checkers = Vec::with_capacity(256);
        if root_check {
            checkers.push(pos.checkers());
        }
        let base = Base::of(&pos, params);
        let pawns = pawns_of(&pos);
        let verdicts = vec![(0, Repetition::Draw); VERDICT_CACHE];
        let mut psq = Box::new([[Base::default(); 90]; 14]);
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let row = &mut psq[color.index() * 7 + kind as usize];
                for (i, b) in row.iter_mut().enumerate() {
                    if let Some(sq) = Square::from_index(i as u8) {
                        b.add(color, kind, sq, params);
                    }
                }
            }
        }
        XiangqiNode {
            pos,
            path,
            root_check,
            checkers,
            base,
            verdicts,
            rules: *rules,
            params: params.clone(),
            psq,
            pawns,
        }
    }

    #[inline]
    fn side_to_move(&self) -> Color {
        self.pos.side_to_move()
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.pos.hash()
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.path.last().map_or(self.root_check, |s| s.check)
    }

    #[inline]
    fn legal_moves(&self, out: &mut MoveList<Move>) {
        self.pos.generate_legal(out);
    }

    #[inline]
    fn count_legal_moves(&self) -> usize {
        self.pos.count_legal()
    }

    /// Xiangqi: the side without a move loses, stalemated or mated.
    #[inline]
    fn no_move_verdict(&self, _in_check: bool) -> Verdict {
        Verdict::Loss
    }

    #[inline]
    fn pseudo_captures(&self, out: &mut MoveList<Move>) {
        self.pos.generate_pseudo_captures(out);
        if self.in_check() {
            self.pos.retain_evasion_candidates(out, self.checkers());
        }
    }

    #[inline]
    fn pseudo_quiets(&self, out: &mut MoveList<Move>) {
        self.pos.generate_pseudo_quiets(out);
        if self.in_check() {
            self.pos.retain_evasion_candidates(out, self.checkers());
        }
    }

    #[inline]
    fn pseudo_is_legal(&self, mv: Move, in_check: bool) -> bool {
        if in_check {
            self.pos.evasion_is_legal(mv, self.checkers())
        } else {
            self.pos.pseudo_move_is_legal(mv, false)
        }
    }

    #[inline]
    fn legal_captures(&self, out: &mut MoveList<Move>) {
        self.pos.generate_legal_captures(out);
    }

    #[inline]
    fn is_legal(&self, mv: Move) -> bool {
        self.pos.is_pseudo_legal(mv) && self.pseudo_is_legal(mv, self.in_check())
    }

    #[inline(always)]
    fn hash_after(&self, mv: Move) -> Option<u64> {
        Some(self.pos.hash_after(mv))
    }

    #[inline]
    fn make(&mut self, mv: Move) -> Undo {
        let hash_before = self.pos.hash();
        let base_before = self.base;
        let pawns_before = self.pawns;
        let side = self.pos.side_to_move().index();
        let (from, to) = mv.indices();
        let (from, to) = (usize::from(from), usize::from(to));
        if let Some(k) = self.pos.moved_kind(mv) {
            let row = &self.psq[side * 7 + k as usize];
            shift(&mut self.base, &row[from], -1);
            shift(&mut self.base, &row[to], 1);
            if k == PieceKind::Pawn {
                self.pawns ^= pawn_hash(side, from) ^ pawn_hash(side, to);
            }
        }
        if let Some(c) = self.pos.captured_kind(mv) {
            shift(
                &mut self.base,
                &self.psq[(1 - side) * 7 + c as usize][to],
                -1,
            );
            if c == PieceKind::Pawn {
                self.pawns ^= pawn_hash(1 - side, to);
            }
        }
        let undo = self.pos.make(mv);
        let check = self.pos.in_check_after(mv);
        if check {
            self.checkers.push(self.pos.checkers());
        }
        self.path.push(Step {
            hash_before,
            base_before,
            pawns_before,
            mv,
            check,
            null: false,
        });
        undo
    }

    #[inline]
    fn unmake(&mut self, mv: Move, undo: Undo) {
        if let Some(s) = self.path.pop() {
            self.base = s.base_before;
            self.pawns = s.pawns_before;
            if s.check {
                self.checkers.pop();
            }
        }
        self.pos.unmake(mv, undo);
    }

    fn make_null(&mut self) -> u16 {
        let hash_before = self.pos.hash();
        let h = self.pos.make_null();
        let (base_before, mv) = (self.base, Move::default());
        self.path.push(Step {
            hash_before,
            base_before,
            pawns_before: self.pawns,
            mv,
            check: false,
            null: true,
        });
        h
    }

    fn unmake_null(&mut self, undo: u16) {
        self.path.pop();
        self.pos.unmake_null(undo);
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        eval::evaluate_with(&self.pos, &self.base, &self.params)
    }

    #[inline]
    fn lazy_evaluate(&self, lo: i32, hi: i32) -> Option<i32> {
        let q = eval::quick(&self.pos, &self.base, &self.params);
        (q + LAZY_MARGIN <= lo || q - LAZY_MARGIN >= hi).then_some(q)
    }

    #[inline]
    fn capture_key(&self, mv: Move) -> Option<i32> {
        let victim = self.pos.captured_kind(mv)?;
        let attacker = self
            .pos
            .moved_kind(mv)
            .map_or(0, |k| values::value(k).order);
        Some(values::value(victim).order * 16 - attacker / 8)
    }

    #[inline]
    fn capture_value(&self, mv: Move) -> i32 {
        self.pos
            .captured_kind(mv)
            .map_or(0, |k| self.params.material_mg[k as usize])
    }

    #[inline]
    fn see_ok(&self, mv: Move) -> bool {
        features::see_ok(&self.pos, mv)
    }

    #[inline]
    fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        see::see_ge(&self.pos, mv, threshold)
    }

    #[inline]
    fn tt_code(mv: Move) -> u16 {
        mv.to_packed()
    }

    #[inline]
    fn from_tt_code(code: u16) -> Option<Move> {
        Some(Move::from_packed(code))
    }

    #[inline]
    fn move_index(mv: Move) -> usize {
        let (from, to) = mv.indices();
        usize::from(from) * 90 + usize::from(to)
    }

    const PIECE_TO_SIZE: usize = 14 * 90;

    #[inline]
    fn piece_to(&self, mv: Move) -> usize {
        let kind = self.pos.moved_kind(mv).map_or(0, |k| k as usize);
        (self.pos.side_to_move().index() * 7 + kind) * 90 + usize::from(mv.indices().1)
    }

    const VICTIM_SIZE: usize = 7;

    #[inline]
    fn correction_key(&self) -> Option<u64> {
        Some(self.pawns)
    }

    #[inline]
    fn victim_index(&self, mv: Move) -> usize {
        self.pos.captured_kind(mv).map_or(0, |k| k as usize)
    }

    fn repetition(&mut self) -> Option<Repetition> {
        let key = self.pos.hash();
        let len = self.path.len();
        let reversible = (self.pos.halfmoves() as usize).min(len);
        let mut d = 2;
        while d <= reversible {
            let (a, b) = (&self.path[len - d], &self.path[len - d + 1]);
            if a.null || b.null {
                return None;
            }
            if a.hash_before == key {
                let cycle = self.path[len - d..].iter().fold(key ^ d as u64, |h, s| {
                    (h ^ s.hash_before).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1
                });
                let slot = (cycle >> 53) as usize % VERDICT_CACHE;
                if let Some(&(k, r)) = self.verdicts.get(slot)
                    && k == cycle
                {
                    return Some(r);
                }
                let me = self.pos.side_to_move();
                let r = match self.verdict(d) {
                    None | Some(rules::Verdict::Draw) => Repetition::Draw,
                    Some(v) if v.loser() == Some(me) => Repetition::Loss,
                    Some(_) => Repetition::Win,
                };
                if let Some(e) = self.verdicts.get_mut(slot) {
                    *e = (cycle, r);
                }
                return Some(r);
            }
            d += 2;
        }
        None
    }

    fn repetitions_judged(&self) -> usize {
        usize::from(self.rules.repetitions)
    }

    #[inline]
    fn rule_draw(&self) -> bool {
        self.rules.no_capture_plies > 0 && self.pos.halfmoves() >= self.rules.no_capture_plies
    }

    #[inline]
    fn has_big_pieces(&self) -> bool {
        let c = self.pos.side_to_move();
        [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon]
            .iter()
            .any(|&k| self.pos.count(c, k) > 0)
    }
}

/// Test support: a random legal move of `pos` (None when there is none), a capture with
/// probability about `1 / capture_one_in` when there is one, so that random games reach
/// sparse boards. The same generator draws give the same moves.
#[cfg(test)]
pub(crate) fn random_move(
    pos: &banco_xiangqi::Position,
    rng: &mut crate::level::Rng,
    capture_one_in: u64,
) -> Option<banco_xiangqi::Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let captures: Vec<_> = moves
        .iter()
        .copied()
        .filter(|&m| pos.captured_kind(m).is_some())
        .collect();
    let pick = |n: usize, rng: &mut crate::level::Rng| (rng.next_u64() % n as u64) as usize;
    Some(
        if !captures.is_empty() && rng.next_u64().is_multiple_of(capture_one_in) {
            captures[pick(captures.len(), rng)]
        } else {
            moves.as_slice()[pick(moves.len(), rng)]
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pawn hash kept by make/unmake (and null moves) is the one computed from scratch,
    /// along a seeded random walk with captures of pawns and pawn moves.
    #[test]
    fn pawn_hash_follows_the_moves() {
        let game = Xiangqi::new();
        let mut node =
            XiangqiNode::from_game(&game, &RuleSet::default(), &XiangqiParams::default());
        let mut seed = 7u64;
        let mut undos = Vec::new();
        let mut changed = 0;
        for _ in 0..400 {
            let mut moves = MoveList::new();
            node.legal_moves(&mut moves);
            if moves.is_empty() || undos.len() > 60 {
                while let Some((mv, u)) = undos.pop() {
                    node.unmake(mv, u);
                    assert_eq!(node.pawns, pawns_of(&node.pos));
                }
                continue;
            }
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let mv = moves.as_slice()[(seed >> 33) as usize % moves.len()];
            let before = node.pawns;
            let u = node.make(mv);
            changed += usize::from(node.pawns != before);
            assert_eq!(node.pawns, pawns_of(&node.pos));
            let n = node.make_null();
            assert_eq!(node.pawns, pawns_of(&node.pos));
            node.unmake_null(n);
            undos.push((mv, u));
        }
        assert!(changed > 10, "only {changed} moves touched a pawn");
    }

    #[test]
    fn perpetual_checker_sees_the_loss() {
        // Red's rook can only check from f0/e0; repeating the check cycle loses for Red.
        let mut game = Xiangqi::from_fen("9/4k4/9/9/9/9/9/9/2p6/3K1RBc1 w - - 0 1").unwrap();
        for mv in "f0e0 e8f8 e0f0 f8e8".split(' ') {
            game.play(mv.parse().unwrap()).unwrap();
        }
        let mut node = XiangqiNode::from_game(&game, &RuleSet::asian(), &XiangqiParams::default());
        // The start position has come back once: Black (to move after Red's checks)...
        assert_eq!(node.side_to_move(), Color::Red);
        assert_eq!(node.repetition(), Some(Repetition::Loss));
        let mv: Move = "f0e0".parse().unwrap();
        let u = node.make(mv);
        assert_eq!(node.repetition(), Some(Repetition::Win));
        node.unmake(mv, u);
    }

    #[test]
    fn incremental_base_matches_a_fresh_one() {
        let mut game = Xiangqi::new();
        for mv in "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 e2e6 c7e6".split(' ') {
            game.play(mv.parse().unwrap()).unwrap();
        }
        let params = XiangqiParams::default();
        let mut node = XiangqiNode::from_game(&Xiangqi::new(), &RuleSet::default(), &params);
        let mut undos = Vec::new();
        for mv in game.moves() {
            undos.push((mv, node.make(mv)));
            assert_eq!(node.base, Base::of(&node.pos, &params));
            assert_eq!(node.evaluate(), eval::evaluate(&node.pos, &params));
        }
        while let Some((mv, u)) = undos.pop() {
            node.unmake(mv, u);
            assert_eq!(node.base, Base::of(&node.pos, &params));
        }
    }
}
