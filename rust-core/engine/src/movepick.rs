//! Move ordering: a picker that scores a generated move list once and hands the moves out
//! best first by selection — the transposition-table move, winning and equal captures by
//! most valuable victim / least valuable attacker, the two killers, quiet moves by
//! history, and captures that lose material last.
//!
//! ```
//! use banco_engine::movepick::MovePicker;
//! use banco_engine::history::{History, Killers};
//! use banco_engine::{SearchGame, XiangqiNode};
//! use banco_xiangqi::{RuleSet, Xiangqi};
//! use banco_game::MoveList;
//! let node = XiangqiNode::from_game(&Xiangqi::new(), &RuleSet::default(), &Default::default());
//! let mut moves = MoveList::new();
//! node.legal_moves(&mut moves);
//! let tt_move = moves.as_slice()[10];
//! let history = History::new(XiangqiNode::MOVE_INDEX_SIZE);
//! let mut picker = MovePicker::new(&node, moves, tt_move, [Default::default(); 2], &history);
//! assert_eq!(picker.pick().map(|(m, _)| m), Some(tt_move));
//! let mut n = 1;
//! while picker.pick().is_some() { n += 1; }
//! assert_eq!(n, 44); // no move lost
//! ```

use crate::history::History;
use crate::searchable::SearchGame;
use banco_game::{MAX_MOVES, MoveList};

/// Ordering score bands.
const TT_MOVE: i32 = 30_000_000;
const GOOD_CAPTURE: i32 = 20_000_000;
const KILLER: i32 = 10_000_000;
const BAD_CAPTURE: i32 = -10_000_000;
/// Picks made by selection before the rest is sorted.
const SELECT_PICKS: usize = 3;

/// What kind of move the picker handed out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The table move.
    TtMove,
    /// A capture that does not lose material at first sight.
    GoodCapture,
    /// A killer.
    Killer,
    /// Another quiet move.
    Quiet,
    /// A capture that seems to lose material.
    BadCapture,
}

/// Hands out a move list best first. See the module docs.
pub struct MovePicker<M> {
    moves: MoveList<M>,
    scores: [i32; MAX_MOVES],
    next: usize,
}

impl<M: Copy + Default + PartialEq> MovePicker<M> {
    /// Scores `moves` (legal moves of `node`) for picking.
    pub fn new<S: SearchGame<Move = M>>(
        node: &S,
        moves: MoveList<M>,
        tt_move: M,
        killers: [M; 2],
        history: &History,
    ) -> MovePicker<M> {
        let mut scores = [0; MAX_MOVES];
        let side = node.side_to_move().index();
        let null = M::default();
        for (s, &mv) in scores.iter_mut().zip(moves.iter()) {
            *s = if mv == tt_move && mv != null {
                TT_MOVE
            } else if let Some(key) = node.capture_key(mv) {
                if node.see_ok(mv) {
                    GOOD_CAPTURE + key
                } else {
                    BAD_CAPTURE + key
                }
            } else if mv == killers[0] && mv != null {
                KILLER + 1
            } else if mv == killers[1] && mv != null {
                KILLER
            } else {
                history.score(side, S::move_index(mv))
            };
        }
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    /// Captures for quiescence, by most valuable victim / least valuable attacker.
    pub fn captures<S: SearchGame<Move = M>>(node: &S, moves: MoveList<M>) -> MovePicker<M> {
        let mut scores = [0; MAX_MOVES];
        for (s, &mv) in scores.iter_mut().zip(moves.iter()) {
            *s = node.capture_key(mv).unwrap_or(0);
        }
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    /// The next best move and its stage.
    #[inline]
    pub fn pick(&mut self) -> Option<(M, Stage)> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let scores = &mut self.scores[..n];
        if self.next == SELECT_PICKS {
            // Past the first few picks (where a cutoff usually happens) sorting the rest
            // once is cheaper than selecting each time.
            let moves = self.moves.as_mut_slice();
            for i in self.next + 1..n {
                let (s, m) = (scores[i], moves[i]);
                let mut j = i;
                while j > self.next && scores[j - 1] < s {
                    scores[j] = scores[j - 1];
                    moves[j] = moves[j - 1];
                    j -= 1;
                }
                scores[j] = s;
                moves[j] = m;
            }
        } else if self.next < SELECT_PICKS {
            let mut best = self.next;
            for i in self.next + 1..n {
                if scores[i] > scores[best] {
                    best = i;
                }
            }
            scores.swap(self.next, best);
            self.moves.as_mut_slice().swap(self.next, best);
        }
        let s = scores[self.next];
        let mv = self.moves.as_slice()[self.next];
        self.next += 1;
        let stage = if s >= TT_MOVE {
            Stage::TtMove
        } else if s >= GOOD_CAPTURE {
            Stage::GoodCapture
        } else if s >= KILLER {
            Stage::Killer
        } else if s <= BAD_CAPTURE + 1_000_000 {
            Stage::BadCapture
        } else {
            Stage::Quiet
        };
        Some((mv, stage))
    }

    /// Number of moves in the list.
    #[must_use]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// True if there are no moves at all.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}
