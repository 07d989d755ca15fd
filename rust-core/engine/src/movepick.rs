//! Move ordering: a staged picker that generates moves only when their turn comes and
//! hands them out best first — the transposition-table move (before any generation),
//! captures by most valuable victim / least valuable attacker (those that lose material at
//! first sight set aside), the two killers, quiet moves by history, and the captures set
//! aside last. Quiet moves are scored by the butterfly history plus the continuation
//! histories of the moves one and two plies back, captures by victim and attacker plus the
//! capture history. A node that is cut off by the table move, a capture or a killer never
//! generates its quiet moves.
//!
//! A picker owns its buffers and is reused from node to node (the search keeps one per
//! ply), so no per-node array is initialised or copied.
//!
//! ```
//! use banco_engine::movepick::MovePicker;
//! use banco_engine::history::{Histories, NO_PIECE_TO};
//! use banco_engine::{SearchGame, XiangqiNode};
//! use banco_xiangqi::{RuleSet, Xiangqi};
//! use banco_game::MoveList;
//! let node = XiangqiNode::from_game(&Xiangqi::new(), &RuleSet::default(), &Default::default());
//! let mut moves = MoveList::new();
//! node.legal_moves(&mut moves);
//! let tt_move = moves.as_slice()[10];
//! let history = Histories::new(XiangqiNode::MOVE_INDEX_SIZE, XiangqiNode::PIECE_TO_SIZE, XiangqiNode::VICTIM_SIZE);
//! let mut picker = MovePicker::<XiangqiNode>::new();
//! picker.reset(tt_move, [XiangqiNode::no_move(); 2], [NO_PIECE_TO; 2]);
//! assert_eq!(picker.next(&node, &history).map(|(m, _)| m), Some(tt_move));
//! let mut n = 1;
//! while let Some((m, _)) = picker.next(&node, &history) {
//!     assert!(node.pseudo_is_legal(m, false)); // the start position has only legal moves
//!     n += 1;
//! }
//! assert_eq!(n, 44); // no move lost, none twice
//! ```

use crate::history::{Histories, NO_PIECE_TO};
use crate::searchable::SearchGame;
use banco_game::MoveList;

/// Entries of a picker: at least the move-list capacity of every game (checked when a
/// picker is made).
const MAX_MOVES: usize = 256;

/// Quiet moves picked by selection before the rest is sorted once.
const SELECT_PICKS: usize = 3;

/// What kind of move the picker handed out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The table move (checked legal by the picker).
    TtMove,
    /// A capture that does not lose material at first sight.
    GoodCapture,
    /// A killer (checked legal by the picker).
    Killer,
    /// Another quiet move.
    Quiet,
    /// A capture that seems to lose material.
    BadCapture,
}

impl Stage {
    /// True for the stages whose moves the picker has already checked for full legality
    /// (the others come from pseudo-legal generation and need
    /// [`SearchGame::pseudo_is_legal`]).
    #[must_use]
    pub fn checked_legal(self) -> bool {
        matches!(self, Stage::TtMove | Stage::Killer)
    }
}

/// Where the picker is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    TtMove,
    GenCaptures,
    GoodCaptures,
    Killer(usize),
    GenQuiets,
    Quiets,
    BadCaptures,
    /// Quiescence: every capture by victim and attacker, no exchange test.
    QuiescenceGen,
    Quiescence,
    Done,
}

/// A staged, reusable move picker for the nodes of `S`. See the module docs.
pub struct MovePicker<S: SearchGame> {
    /// Scored moves: captures from 0 (the ones set aside are moved to `0..bad_end`), quiet
    /// moves after the captures.
    entries: [(i32, S::Move); MAX_MOVES],
    /// Generation buffer.
    generated: MoveList<S::Move>,
    phase: Phase,
    cur: usize,
    end: usize,
    bad_end: usize,
    quiet_picks: usize,
    skip_quiets: bool,
    tt_move: S::Move,
    killers: [S::Move; 2],
    yielded_killers: [bool; 2],
    /// Piece-to keys of the moves one and two plies back (continuation history).
    prev: [usize; 2],
    /// Smallest victim value loaded in quiescence.
    min_value: i32,
}

impl<S: SearchGame> Clone for MovePicker<S> {
    fn clone(&self) -> Self {
        MovePicker {
            entries: self.entries,
            generated: self.generated.clone(),
            ..*self
        }
    }
}

impl<S: SearchGame> Default for MovePicker<S> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: SearchGame> MovePicker<S> {
    /// An idle picker (call [`MovePicker::reset`] or [`MovePicker::reset_captures`]).
    #[must_use]
    pub fn new() -> MovePicker<S> {
        debug_assert!(banco_game::capacity::<S::Move>() <= MAX_MOVES);
        MovePicker {
            entries: [(0, S::no_move()); MAX_MOVES],
            generated: MoveList::new(),
            phase: Phase::Done,
            cur: 0,
            end: 0,
            bad_end: 0,
            quiet_picks: 0,
            skip_quiets: false,
            tt_move: S::no_move(),
            killers: [S::no_move(); 2],
            yielded_killers: [false; 2],
            prev: [NO_PIECE_TO; 2],
            min_value: i32::MIN,
        }
    }

    /// Starts a node of the main search: every move, the table move and the killers first
    /// (pass [`SearchGame::no_move`] for none); `prev` are the piece-to keys
    /// ([`SearchGame::piece_to`]) of the moves one and two plies back
    /// ([`NO_PIECE_TO`] for none).
    #[inline]
    pub fn reset(&mut self, tt_move: S::Move, killers: [S::Move; 2], prev: [usize; 2]) {
        self.phase = Phase::TtMove;
        self.prev = prev;
        self.tt_move = tt_move;
        self.killers = killers;
        self.yielded_killers = [false; 2];
        self.skip_quiets = false;
        self.quiet_picks = 0;
        self.bad_end = 0;
    }

    /// Starts a quiescence node: captures only, best victim first, and only those whose
    /// victim is worth at least `min_value` ([`SearchGame::capture_value`]; pass
    /// `i32::MIN` for all).
    #[inline]
    pub fn reset_captures(&mut self, min_value: i32) {
        self.phase = Phase::QuiescenceGen;
        self.min_value = min_value;
        self.tt_move = S::no_move();
        self.killers = [S::no_move(); 2];
        self.yielded_killers = [false; 2];
    }

    /// Hands out no further quiet moves (late-move pruning has given up on them); the
    /// captures set aside still come.
    #[inline]
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// The move the next call to [`MovePicker::next`] will probably hand out, when the
    /// picker knows it without work (the sorted quiet moves, a killer, a set-aside
    /// capture): a hint for prefetching, which may name a move that is then skipped.
    #[inline]
    #[must_use]
    pub fn peek(&self) -> Option<S::Move> {
        let mv = match self.phase {
            Phase::Quiets if self.quiet_picks > SELECT_PICKS && !self.skip_quiets => {
                self.upcoming(1).next()?
            }
            Phase::Killer(i) => *self.killers.get(i)?,
            Phase::BadCaptures => self.upcoming(1).next()?,
            _ => return None,
        };
        (mv != S::no_move()).then_some(mv)
    }

    /// Up to `n` moves of the current stage's list that have not been handed out yet, in
    /// no particular order (a prefetch hint when a stage starts: most of them will be
    /// searched unless a cutoff comes first).
    #[inline]
    pub fn upcoming(&self, n: usize) -> impl Iterator<Item = S::Move> + '_ {
        let range = match self.phase {
            Phase::GoodCaptures | Phase::Quiets | Phase::Quiescence => self.cur..self.end,
            Phase::BadCaptures => self.cur..self.bad_end,
            _ => 0..0,
        };
        self.entries
            .get(range)
            .unwrap_or(&[])
            .iter()
            .take(n)
            .map(|e| e.1)
    }

    /// Moves the best entry of `cur..end` to `cur` and returns it.
    #[inline]
    fn select(&mut self) -> (i32, S::Move) {
        let mut best = self.cur;
        for i in self.cur + 1..self.end {
            if self.entries[i].0 > self.entries[best].0 {
                best = i;
            }
        }
        self.entries.swap(self.cur, best);
        let e = self.entries[self.cur];
        self.cur += 1;
        e
    }

    /// Copies the generated moves to `entries[start..]` with their capture keys.
    #[inline]
    fn load_captures(&mut self, node: &S, history: &Histories, start: usize) {
        let mut end = start;
        for (e, &mv) in self.entries[start..].iter_mut().zip(self.generated.iter()) {
            let learnt = history
                .capture
                .score(node.piece_to(mv), node.victim_index(mv));
            *e = (node.capture_key(mv).unwrap_or(0) + learnt / 64, mv);
            end += 1;
        }
        self.cur = start;
        self.end = end;
    }

    /// The next move and its stage, or `None` when the node has no more.
    #[inline(always)]
    pub fn next(&mut self, node: &S, history: &Histories) -> Option<(S::Move, Stage)> {
        let null = S::no_move();
        loop {
            match self.phase {
                Phase::TtMove => {
                    self.phase = Phase::GenCaptures;
                    if self.tt_move != null && node.is_legal(self.tt_move) {
                        return Some((self.tt_move, Stage::TtMove));
                    }
                    self.tt_move = null;
                }
                Phase::GenCaptures => {
                    node.pseudo_captures(&mut self.generated);
                    self.load_captures(node, history, 0);
                    self.phase = Phase::GoodCaptures;
                }
                Phase::GoodCaptures => {
                    while self.cur < self.end {
                        let (_, mv) = self.select();
                        if mv == self.tt_move {
                            continue;
                        }
                        if !node.see_ok(mv) {
                            // Set aside, in victim order, over an entry already handed out.
                            self.entries[self.bad_end] = (0, mv);
                            self.bad_end += 1;
                            continue;
                        }
                        return Some((mv, Stage::GoodCapture));
                    }
                    self.phase = Phase::Killer(0);
                }
                Phase::Killer(i) => {
                    self.phase = if i == 0 {
                        Phase::Killer(1)
                    } else {
                        Phase::GenQuiets
                    };
                    let k = self.killers[i];
                    if k != null
                        && k != self.tt_move
                        && node.capture_key(k).is_none()
                        && node.is_legal(k)
                    {
                        self.yielded_killers[i] = true;
                        return Some((k, Stage::Killer));
                    }
                }
                Phase::GenQuiets => {
                    if self.skip_quiets {
                        self.phase = Phase::BadCaptures;
                        self.cur = 0;
                        continue;
                    }
                    node.pseudo_quiets(&mut self.generated);
                    let side = node.side_to_move().index();
                    let start = self.end;
                    let mut end = start;
                    for (e, &mv) in self.entries[start..].iter_mut().zip(self.generated.iter()) {
                        let score = history.quiet_score(
                            side,
                            S::move_index(mv),
                            node.piece_to(mv),
                            self.prev,
                        );
                        *e = (score, mv);
                        end += 1;
                    }
                    self.cur = start;
                    self.end = end;
                    self.phase = Phase::Quiets;
                }
                Phase::Quiets => {
                    while self.cur < self.end && !self.skip_quiets {
                        let mv = if self.quiet_picks < SELECT_PICKS {
                            self.quiet_picks += 1;
                            self.select().1
                        } else {
                            if self.quiet_picks == SELECT_PICKS {
                                // Past the first few picks (where a cutoff usually
                                // happens) one sort is cheaper than selecting each time.
                                self.quiet_picks += 1;
                                insertion_sort(&mut self.entries[self.cur..self.end]);
                            }
                            self.cur += 1;
                            self.entries[self.cur - 1].1
                        };
                        if mv == self.tt_move
                            || (mv == self.killers[0] && self.yielded_killers[0])
                            || (mv == self.killers[1] && self.yielded_killers[1])
                        {
                            continue;
                        }
                        return Some((mv, Stage::Quiet));
                    }
                    self.phase = Phase::BadCaptures;
                    self.cur = 0;
                }
                Phase::BadCaptures => {
                    if self.cur < self.bad_end {
                        self.cur += 1;
                        return Some((self.entries[self.cur - 1].1, Stage::BadCapture));
                    }
                    self.phase = Phase::Done;
                }
                Phase::QuiescenceGen => {
                    node.pseudo_captures(&mut self.generated);
                    if self.min_value > i32::MIN {
                        let min = self.min_value;
                        self.generated.retain(|&m| node.capture_value(m) >= min);
                    }
                    self.load_captures(node, history, 0);
                    self.phase = Phase::Quiescence;
                }
                Phase::Quiescence => {
                    if self.cur < self.end {
                        return Some((self.select().1, Stage::GoodCapture));
                    }
                    self.phase = Phase::Done;
                }
                Phase::Done => return None,
            }
        }
    }
}

/// Sorts best first, keeping generation order among equal scores. Insertion sort: most
/// quiet moves share a history score of zero, so few entries move.
#[inline]
fn insertion_sort<M: Copy>(entries: &mut [(i32, M)]) {
    for i in 1..entries.len() {
        let e = entries[i];
        let mut j = i;
        while j > 0 && entries[j - 1].0 < e.0 {
            entries[j] = entries[j - 1];
            j -= 1;
        }
        entries[j] = e;
    }
}
