//! Move-ordering memory: two killer moves per ply, a butterfly history table (side ×
//! from-to), continuation histories (the move one and two plies back × this move, both as
//! moved piece and destination: [`ContinuationHistory`]) and a capture history (moved piece
//! and destination × victim: [`CaptureHistory`]), all with gravity, so old successes fade.
//!
//! ```
//! use banco_engine::history::{History, Killers};
//! let mut h = History::new(100);
//! h.reward(0, 7, 5);
//! h.punish(0, 8, 5);
//! assert!(h.score(0, 7) > 0 && h.score(0, 8) < 0);
//! let mut k = Killers::<u16>::default();
//! k.push(3, 11);
//! k.push(3, 12);
//! assert_eq!(k.get(3), [12, 11]);
//! ```

use crate::score::MAX_PLY;

/// Largest magnitude of a history score.
pub const HISTORY_MAX: i32 = 16_384;

/// Butterfly history: a score per side and move index.
#[derive(Clone, Debug)]
pub struct History {
    /// Scores stay within ±[`HISTORY_MAX`], so 16 bits hold them (half the cache lines).
    table: Vec<i16>,
    size: usize,
}

impl History {
    /// A table for move indices below `size`.
    #[must_use]
    pub fn new(size: usize) -> History {
        History {
            table: vec![0; size * 2],
            size,
        }
    }

    /// Clears the table.
    pub fn clear(&mut self) {
        self.table.fill(0);
    }

    /// Halves every score (between searches).
    pub fn age(&mut self) {
        for v in &mut self.table {
            *v /= 2;
        }
    }

    #[inline]
    fn slot(&mut self, side: usize, index: usize) -> Option<&mut i16> {
        self.table.get_mut(side * self.size + index)
    }

    /// The score of a move.
    #[inline]
    #[must_use]
    pub fn score(&self, side: usize, index: usize) -> i32 {
        self.table
            .get(side * self.size + index)
            .map_or(0, |&v| i32::from(v))
    }

    /// Adds `bonus` (negative for a malus) with gravity.
    #[inline]
    pub fn update(&mut self, side: usize, index: usize, bonus: i32) {
        if let Some(v) = self.slot(side, index) {
            let old = i32::from(*v);
            // The gravity term keeps the score within ±HISTORY_MAX; the clamp only makes
            // the narrowing visibly lossless.
            let new =
                (old + bonus - old * bonus.abs() / HISTORY_MAX).clamp(-HISTORY_MAX, HISTORY_MAX);
            *v = new as i16;
        }
    }

    /// A quiet move that caused a cutoff at `depth`.
    #[inline]
    pub fn reward(&mut self, side: usize, index: usize, depth: i32) {
        self.update(side, index, bonus(depth));
    }

    /// A quiet move tried before the cutoff move.
    #[inline]
    pub fn punish(&mut self, side: usize, index: usize, depth: i32) {
        self.update(side, index, -bonus(depth));
    }
}

/// Scores indexed by a pair of indices (`outer × inner`), with the same gravity update as
/// [`History`]: the continuation history (outer: the piece and destination of the move one
/// or two plies back, [`SearchGame::piece_to`](crate::SearchGame::piece_to); inner: the
/// same of the move tried) and the capture history (outer: the capture's piece and
/// destination; inner: the victim, [`SearchGame::victim_index`](crate::SearchGame::victim_index)).
///
/// ```
/// use banco_engine::history::PairHistory;
/// let mut h = PairHistory::new(10, 4);
/// h.update(3, 2, 500);
/// h.update(3, 1, -500);
/// assert!(h.score(3, 2) > 0 && h.score(3, 1) < 0);
/// assert_eq!(h.score(4, 2), 0);
/// assert_eq!(h.score(99, 2), 0); // out of range: no score
/// ```
#[derive(Clone, Debug)]
pub struct PairHistory {
    table: Vec<i16>,
    inner: usize,
}

/// The continuation history (see [`PairHistory`]).
pub type ContinuationHistory = PairHistory;
/// The capture history (see [`PairHistory`]).
pub type CaptureHistory = PairHistory;

impl PairHistory {
    /// A table for `outer × inner` indices.
    #[must_use]
    pub fn new(outer: usize, inner: usize) -> PairHistory {
        PairHistory {
            table: vec![0; outer * inner],
            inner,
        }
    }

    /// Clears the table.
    pub fn clear(&mut self) {
        self.table.fill(0);
    }

    /// Halves every score (between searches).
    pub fn age(&mut self) {
        for v in &mut self.table {
            *v /= 2;
        }
    }

    #[inline]
    fn at(&self, outer: usize, inner: usize) -> Option<usize> {
        if inner >= self.inner {
            return None;
        }
        outer.checked_mul(self.inner)?.checked_add(inner)
    }

    /// The score of the pair (0 outside the table).
    #[inline]
    #[must_use]
    pub fn score(&self, outer: usize, inner: usize) -> i32 {
        self.at(outer, inner)
            .and_then(|i| self.table.get(i))
            .map_or(0, |&v| i32::from(v))
    }

    /// Adds `bonus` (negative for a malus) with gravity.
    #[inline]
    pub fn update(&mut self, outer: usize, inner: usize, bonus: i32) {
        if let Some(v) = self.at(outer, inner).and_then(|i| self.table.get_mut(i)) {
            let old = i32::from(*v);
            let new =
                (old + bonus - old * bonus.abs() / HISTORY_MAX).clamp(-HISTORY_MAX, HISTORY_MAX);
            *v = new as i16;
        }
    }
}

/// No move (a null move, or before the root): the continuation key that scores nothing.
pub const NO_PIECE_TO: usize = usize::MAX;

/// Every history table of a searcher: butterfly, continuation and capture.
///
/// ```
/// use banco_engine::history::{Histories, NO_PIECE_TO};
/// let mut h = Histories::new(100, 20, 4);
/// h.cont.update(5, 7, 1000);
/// assert!(h.quiet_score(0, 3, 7, [5, NO_PIECE_TO]) > 0);
/// assert_eq!(h.quiet_score(0, 3, 7, [NO_PIECE_TO, NO_PIECE_TO]), 0);
/// ```
#[derive(Clone, Debug)]
pub struct Histories {
    /// Side × from-to.
    pub main: History,
    /// Piece-to of a move one or two plies back × piece-to of this move.
    pub cont: ContinuationHistory,
    /// Piece-to of a capture × victim.
    pub capture: CaptureHistory,
}

impl Histories {
    /// Tables for a game's move-index, piece-to and victim ranges
    /// ([`SearchGame`](crate::SearchGame) constants).
    #[must_use]
    pub fn new(move_index_size: usize, piece_to_size: usize, victim_size: usize) -> Histories {
        Histories {
            main: History::new(move_index_size),
            cont: PairHistory::new(piece_to_size, piece_to_size),
            capture: PairHistory::new(piece_to_size, victim_size),
        }
    }

    /// Clears every table.
    pub fn clear(&mut self) {
        self.main.clear();
        self.cont.clear();
        self.capture.clear();
    }

    /// Halves every score (between searches).
    pub fn age(&mut self) {
        self.main.age();
        self.cont.age();
        self.capture.age();
    }

    /// Bytes of the tables.
    #[must_use]
    pub fn bytes(&self) -> usize {
        (self.main.table.len() + self.cont.table.len() + self.capture.table.len())
            * size_of::<i16>()
    }

    /// The ordering score of a quiet move: its butterfly score plus its continuation
    /// scores after the moves one and two plies back (`prev`, [`NO_PIECE_TO`] for none).
    #[inline]
    #[must_use]
    pub fn quiet_score(&self, side: usize, index: usize, piece_to: usize, prev: [usize; 2]) -> i32 {
        self.main.score(side, index)
            + self.cont.score(prev[0], piece_to)
            + self.cont.score(prev[1], piece_to)
    }

    /// Rewards (`bonus > 0`) or punishes a quiet move in every table.
    #[inline]
    pub fn update_quiet(
        &mut self,
        side: usize,
        index: usize,
        piece_to: usize,
        prev: [usize; 2],
        bonus: i32,
    ) {
        self.main.update(side, index, bonus);
        self.cont.update(prev[0], piece_to, bonus);
        self.cont.update(prev[1], piece_to, bonus);
    }
}

/// The history bonus of a cutoff at `depth` (the malus is its negation).
#[inline]
#[must_use]
pub fn bonus(depth: i32) -> i32 {
    (depth * depth).min(400) * 8
}

/// Two killer moves per ply; empty slots hold the game's "no move"
/// ([`SearchGame::no_move`](crate::SearchGame::no_move)).
#[derive(Clone, Debug)]
pub struct Killers<M> {
    table: [[M; 2]; MAX_PLY + 8],
    none: M,
}

impl<M: Copy + Default> Default for Killers<M> {
    /// Killers whose "no move" is `M::default()`.
    fn default() -> Self {
        Killers::new(M::default())
    }
}

impl<M: Copy> Killers<M> {
    /// No killers yet; `none` (never a legal move) fills the empty slots.
    #[must_use]
    pub fn new(none: M) -> Self {
        Killers {
            table: [[none; 2]; MAX_PLY + 8],
            none,
        }
    }
}

impl<M: Copy + PartialEq> Killers<M> {
    /// Records a quiet cutoff move at `ply`.
    #[inline]
    pub fn push(&mut self, ply: usize, mv: M) {
        if let Some(k) = self.table.get_mut(ply)
            && k[0] != mv
        {
            k[1] = k[0];
            k[0] = mv;
        }
    }

    /// The killers at `ply`, most recent first.
    #[inline]
    #[must_use]
    pub fn get(&self, ply: usize) -> [M; 2] {
        self.table.get(ply).copied().unwrap_or([self.none; 2])
    }

    /// Forgets every killer.
    pub fn clear(&mut self) {
        self.table.fill([self.none; 2]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 16-bit table gives exactly what 32-bit arithmetic gives, and stays in bounds.
    #[test]
    fn scores_stay_in_bounds_and_exact() {
        let mut h = History::new(4);
        let mut reference = [0i32; 8];
        let mut seed = 99u64;
        for _ in 0..100_000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let (side, index) = ((seed >> 40) as usize % 2, (seed >> 45) as usize % 4);
            let depth = (seed >> 50) as i32 % 40;
            let good = seed & (1 << 20) != 0;
            let bonus = (depth * depth).min(400) * 8 * if good { 1 } else { -1 };
            let r = &mut reference[side * 4 + index];
            *r += bonus - *r * bonus.abs() / HISTORY_MAX;
            if good {
                h.reward(side, index, depth);
            } else {
                h.punish(side, index, depth);
            }
            assert_eq!(h.score(side, index), *r);
            assert!(r.abs() <= HISTORY_MAX);
        }
        h.age();
        assert_eq!(h.score(0, 0), reference[0] / 2);
    }
}
