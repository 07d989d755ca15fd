//! Quiet-move ordering memory: two killer moves per ply and a butterfly history table
//! (side × from-to) with gravity, so old successes fade.
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

    fn update(&mut self, side: usize, index: usize, bonus: i32) {
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
        self.update(side, index, (depth * depth).min(400) * 8);
    }

    /// A quiet move tried before the cutoff move.
    #[inline]
    pub fn punish(&mut self, side: usize, index: usize, depth: i32) {
        self.update(side, index, -(depth * depth).min(400) * 8);
    }
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
        if let Some(k) = self.table.get_mut(ply) {
            if k[0] != mv {
                k[1] = k[0];
                k[0] = mv;
            }
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
