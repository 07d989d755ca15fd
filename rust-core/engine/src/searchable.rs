//! [`SearchGame`]: what the search needs from a game beyond [`banco_game::Game`].
//!
//! The search is generic over this trait and monomorphised for each game, so there is no
//! dynamic dispatch per node. A `SearchGame` is built from a public game value (a
//! [`banco_game::Game`]) and its rules, and adds what a search needs and a player does not:
//! captures-only generation, null moves, a static evaluation, a move index for history
//! tables, capture ordering keys, the repetition judge on the search path, the game's
//! verdict when the side to move has no legal move, and the chance step of games with
//! hidden information (perfect-information games keep the defaults).
//!
//! ## Chance steps
//!
//! A node may await chance ([`SearchGame::awaits_chance`]): it then has no move, and
//! [`SearchGame::chance_outcomes`] lists the outcomes with integer weights. An outcome is
//! applied with [`SearchGame::make`] and taken back with [`SearchGame::unmake`], like a
//! move; the side to move does not change across it. The search values such a node as the
//! weighted mean of its children (see [`search`](crate::search)), and a chance step costs
//! neither depth nor a ply of mate distance. [`SearchGame::hash`] must tell a node awaiting
//! chance from the same position after the outcome.
//!
//! ```
//! use banco_engine::{SearchGame, XiangqiNode};
//! use banco_xiangqi::{RuleSet, Xiangqi};
//! use banco_game::MoveList;
//! let node = XiangqiNode::from_game(&Xiangqi::new(), &RuleSet::default(), &Default::default());
//! let mut moves = MoveList::new();
//! node.legal_moves(&mut moves);
//! assert_eq!(moves.len(), 44);
//! assert!(node.evaluate().abs() < 50); // the start position is balanced
//! ```

use crate::score::{mate_in, mated_in};
use banco_game::{ChanceList, Color, Game, ListCapacity, MoveList, Outcome};
use core::fmt;

/// A game-theoretic verdict on the current node from the side to move's point of view:
/// what the repetition judge says ([`SearchGame::repetition`]: the side that checked or
/// chased perpetually loses), or what having no legal move means
/// ([`SearchGame::no_move_verdict`]: checkmate loses, chess stalemate draws).
///
/// ```
/// use banco_engine::searchable::Verdict;
/// use banco_engine::score::mated_in;
/// use banco_game::{Color, DrawReason, Outcome, WinReason};
/// let mate = Outcome::Win { winner: Color::Black, reason: WinReason::Checkmate };
/// assert_eq!(Verdict::of_outcome(mate, Color::Red), Verdict::Loss);
/// assert_eq!(Verdict::Loss.mate_score(3), mated_in(3));
/// let stalemate = Outcome::Draw { reason: DrawReason::Stalemate };
/// assert_eq!(Verdict::of_outcome(stalemate, Color::Red).mate_score(3), 0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A draw.
    Draw,
    /// The side to move wins.
    Win,
    /// The side to move loses.
    Loss,
}

/// The verdict of the repetition judge (the same type as [`Verdict`]).
pub type Repetition = Verdict;

impl Verdict {
    /// The verdict on a finished game for `side`.
    #[must_use]
    pub fn of_outcome(outcome: Outcome, side: Color) -> Verdict {
        match outcome.winner() {
            None => Verdict::Draw,
            Some(w) if w == side => Verdict::Win,
            Some(_) => Verdict::Loss,
        }
    }

    /// The score of a game that ends this way `ply` plies from the root: a mate score for
    /// a win or a loss, 0 for a draw.
    #[inline]
    #[must_use]
    pub const fn mate_score(self, ply: usize) -> i32 {
        match self {
            Verdict::Draw => 0,
            Verdict::Win => mate_in(ply),
            Verdict::Loss => mated_in(ply),
        }
    }
}

/// A game state that the search can drive. See the module docs.
pub trait SearchGame: Clone + Send + 'static {
    /// The public game this state is built from.
    type Game: Game<Move = Self::Move>;
    /// Moves, the same as the game's.
    type Move: Copy
        + Eq
        + Default
        + fmt::Debug
        + Send
        + Sync
        + ListCapacity<Array: Send + Sync>
        + 'static;
    /// Token to unmake a move.
    type Undo: Copy;
    /// Token to unmake a null move.
    type NullUndo: Copy;
    /// Evaluation weights.
    type Params: Clone + Default + fmt::Debug + Send + Sync + 'static;
    /// Size of the range of [`SearchGame::move_index`].
    const MOVE_INDEX_SIZE: usize;

    /// The state of `game` (position and history) under `rules`.
    fn from_game(
        game: &Self::Game,
        rules: &<Self::Game as Game>::Rules,
        params: &Self::Params,
    ) -> Self;
    /// Side to move.
    fn side_to_move(&self) -> Color;
    /// Hash of the position.
    fn hash(&self) -> u64;
    /// True if the side to move is in check. At a node awaiting chance, what the game says
    /// (the search reads it there only to extend the move that led to it).
    fn in_check(&self) -> bool;
    /// Every legal move (none while awaiting chance).
    fn legal_moves(&self, out: &mut MoveList<Self::Move>);
    /// Number of legal moves; by default the length of [`SearchGame::legal_moves`] (the
    /// mate solver calls it for every move it orders).
    fn count_legal_moves(&self) -> usize {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves.len()
    }
    /// What it means that the side to move has no legal move (the node does not await
    /// chance); `in_check` is [`SearchGame::in_check`]. Xiangqi: a loss either way; chess:
    /// a loss in check, a draw otherwise. [`Verdict::of_outcome`] derives it from
    /// [`Game::no_move_outcome`].
    fn no_move_verdict(&self, in_check: bool) -> Verdict;
    /// True while the node waits for the outcome of a chance step (see the module docs).
    /// False by default.
    #[inline(always)]
    fn awaits_chance(&self) -> bool {
        false
    }
    /// Replaces the contents of `out` with the outcomes of the pending chance step and
    /// their weights (see the module docs); empty by default.
    fn chance_outcomes(&self, out: &mut ChanceList<Self::Move>) {
        out.clear();
    }
    /// A static value of a node awaiting chance, for quiescence: when `Some`, quiescence
    /// takes it instead of searching every outcome. Games whose chance steps chain through
    /// captures (jieqi: every capture by a face-down piece is followed by a reveal) would
    /// otherwise multiply the quiescence tree by the number of outcomes at each capture.
    /// From the point of view of the side to move, like the outcomes' values. `None` by
    /// default: the outcomes are searched.
    fn chance_estimate(&self) -> Option<i32> {
        None
    }
    /// Captures that may still leave the own king attacked (each one must pass
    /// [`SearchGame::pseudo_is_legal`] before it is played); replaces the contents of
    /// `out`. By default the legal captures.
    fn pseudo_captures(&self, out: &mut MoveList<Self::Move>) {
        self.legal_captures(out);
    }
    /// The moves that capture nothing, pseudo-legal like [`SearchGame::pseudo_captures`];
    /// replaces the contents of `out`. By default the legal ones.
    fn pseudo_quiets(&self, out: &mut MoveList<Self::Move>) {
        self.legal_moves(out);
        out.retain(|&m| self.capture_key(m).is_none());
    }
    /// True if a move from [`SearchGame::pseudo_captures`] or
    /// [`SearchGame::pseudo_quiets`] is legal; `in_check` is [`SearchGame::in_check`] of
    /// the current node.
    fn pseudo_is_legal(&self, mv: Self::Move, in_check: bool) -> bool {
        let _ = (mv, in_check);
        true
    }
    /// Every legal capture.
    fn legal_captures(&self, out: &mut MoveList<Self::Move>);
    /// True if `mv` (any value, e.g. from the transposition table) is legal.
    fn is_legal(&self, mv: Self::Move) -> bool;
    /// The hash after `mv` (a move about to be played), if the game can tell without
    /// playing it; the search then fetches the child's table entry early.
    fn hash_after(&self, mv: Self::Move) -> Option<u64> {
        let _ = mv;
        None
    }
    /// True when [`SearchGame::gives_check`] answers; false by default, and then the
    /// search assumes that no quiet move gives check.
    const KNOWS_CHECKS: bool = false;
    /// True if `mv` (a legal move) gives check. Only asked when
    /// [`SearchGame::KNOWS_CHECKS`]: the search then spares checking moves from late-move
    /// pruning (chess mates often start with a quiet check). False by default.
    #[inline(always)]
    fn gives_check(&self, mv: Self::Move) -> bool {
        let _ = mv;
        false
    }
    /// Plays a legal move, or applies an outcome of the pending chance step.
    fn make(&mut self, mv: Self::Move) -> Self::Undo;
    /// Takes back a move or a chance outcome.
    fn unmake(&mut self, mv: Self::Move, undo: Self::Undo);
    /// Passes.
    fn make_null(&mut self) -> Self::NullUndo;
    /// Takes back a pass.
    fn unmake_null(&mut self, undo: Self::NullUndo);
    /// Static evaluation in centipawns for the side to move.
    fn evaluate(&self) -> i32;
    /// A cheap estimate of the static evaluation when only its relation to the window
    /// `lo..hi` matters and the estimate is clearly outside it (lazy evaluation); `None`
    /// when the full [`SearchGame::evaluate`] is needed. By default always `None`.
    fn lazy_evaluate(&self, lo: i32, hi: i32) -> Option<i32> {
        let _ = (lo, hi);
        None
    }
    /// Ordering key of a capture (most valuable victim, least valuable attacker), or
    /// `None` for a quiet move.
    fn capture_key(&self, mv: Self::Move) -> Option<i32>;
    /// Value of the piece `mv` captures (0 for a quiet move), for delta pruning.
    fn capture_value(&self, mv: Self::Move) -> i32;
    /// False when a capture loses material at first sight (static exchange).
    fn see_ok(&self, mv: Self::Move) -> bool;
    /// True when `mv` (a capture or a quiet move), followed by the best exchange on its
    /// target square, wins at least `threshold` centipawns (static exchange evaluation;
    /// a quiet move wins 0 at best). By default [`SearchGame::see_ok`] for a threshold
    /// of at most 0 and false above.
    fn see_ge(&self, mv: Self::Move, threshold: i32) -> bool {
        threshold <= 0 && self.see_ok(mv)
    }
    /// A value of the move type that is never a legal move nor a chance outcome: what the
    /// search stores for "no move" (a table entry or killer slot without one). By default
    /// `Move::default()`, right for games whose default move is a null move (xiangqi's
    /// a0a0); a game whose default is a real move returns another value.
    #[inline(always)]
    fn no_move() -> Self::Move {
        Self::Move::default()
    }
    /// Compact code of a move for the transposition table (0 means none).
    fn tt_code(mv: Self::Move) -> u16;
    /// The move of a [`SearchGame::tt_code`] (the search tests it for legality before
    /// playing it).
    fn from_tt_code(code: u16) -> Option<Self::Move>;
    /// Index of a move in `0..MOVE_INDEX_SIZE` for history tables.
    fn move_index(mv: Self::Move) -> usize;
    /// Size of the range of [`SearchGame::piece_to`]; 1 by default (no continuation
    /// history: every move has index 0).
    const PIECE_TO_SIZE: usize = 1;
    /// Index in `0..PIECE_TO_SIZE` of the piece `mv` moves (with its colour) and its
    /// destination, `mv` being a move of the side to move here: the key of the
    /// continuation and capture histories. 0 by default.
    #[inline(always)]
    fn piece_to(&self, mv: Self::Move) -> usize {
        let _ = mv;
        0
    }
    /// Size of the range of [`SearchGame::victim_index`]; 1 by default.
    const VICTIM_SIZE: usize = 1;
    /// Index in `0..VICTIM_SIZE` of the kind of piece `mv` captures (the capture
    /// history's second key). 0 by default.
    #[inline(always)]
    fn victim_index(&self, mv: Self::Move) -> usize {
        let _ = mv;
        0
    }
    /// The key of the static evaluation's correction history (positions that share it
    /// tend to share the evaluation's error, e.g. the pawn structure), or `None` for no
    /// correction (the default).
    #[inline(always)]
    fn correction_key(&self) -> Option<u64> {
        None
    }
    /// Judges a repetition of the current position on the path (the first repetition
    /// counts); `None` when the position has not occurred before.
    fn repetition(&mut self) -> Option<Repetition>;
    /// How many occurrences of a position make the rules judge its repetition (xiangqi's
    /// `RuleSet::repetitions`, 3 by default); until then the game goes on. 2 by default:
    /// the first repetition. The mate solver lets a defender whose perpetual check the
    /// rules punish go round again until then.
    fn repetitions_judged(&self) -> usize {
        2
    }
    /// True when a rule other than repetition draws the game here (e.g. no capture for
    /// too long).
    fn rule_draw(&self) -> bool;
    /// True when the side to move has pieces besides king, guards and pawns (null-move
    /// pruning is unsafe without them: zugzwang).
    fn has_big_pieces(&self) -> bool;
}
