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
    table: Vec<i32>,
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
    fn slot(&mut self, side: usize, index: usize) -> Option<&mut i32> {
        self.table.get_mut(side * self.size + index)
    }

    /// The score of a move.
    #[inline]
    #[must_use]
    pub fn score(&self, side: usize, index: usize) -> i32 {
        self.table
            .get(side * self.size + index)
            .copied()
            .unwrap_or(0)
    }

    fn update(&mut self, side: usize, index: usize, bonus: i32) {
        if let Some(v) = self.slot(side, index) {
            *v += bonus - *v * bonus.abs() / HISTORY_MAX;
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

/// Two killer moves per ply.
#[derive(Clone, Debug)]
pub struct Killers<M> {
    table: [[M; 2]; MAX_PLY + 8],
}

impl<M: Copy + Default> Default for Killers<M> {
    fn default() -> Self {
        Killers {
            table: [[M::default(); 2]; MAX_PLY + 8],
        }
    }
}

impl<M: Copy + Default + PartialEq> Killers<M> {
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
        self.table.get(ply).copied().unwrap_or([M::default(); 2])
    }

    /// Forgets every killer.
    pub fn clear(&mut self) {
        self.table.fill([M::default(); 2]);
    }
}
