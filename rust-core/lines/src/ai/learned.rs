//! The learned value of an afterstate: the sum of the [`features`] table entries a board
//! selects, trained by temporal-difference learning over seeded self-play
//! (`examples/td_train.rs`; method and figures in `data/tuning.md`). The defaults are
//! [`LEARNED`], a file the training tool writes ([`weights_source`]).
//!
//! TD(0) over afterstates, as for 2048: after each move, the value of the previous
//! afterstate moves towards the points made since (its landing, our move) plus the
//! discounted value of the new afterstate; the board filling up ends the sum.
//!
//! ```
//! use banco_lines::{Board, ai::learned::Learned, ai::features::Share};
//! let mut v = Learned::zero(0.0);
//! let board = Board::empty();
//! assert_eq!(v.value(&board, Share::Unknown, 0), 0.0);
//! let mut active = Vec::new();
//! v.select(&board, Share::Known([0; 8]), 0, &mut active);
//! v.update(&active, 10.0, 0.5, |_| 1.0);
//! assert!((v.value(&board, Share::Known([0; 8]), 0) - 5.0).abs() < 1e-3);
//! ```

use super::eval::Masks;
use super::eval::Weights;
use super::features::{self, FEATURES, Share};
use super::learned_weights::{LEARNED, LEARNED_HAND};
use crate::board::Board;
use core::fmt::Write as _;

/// The learned value: `hand` × the hand-built evaluation ([`Weights::default`], with its
/// closed-form landing) plus one learned weight per table entry — the tables learn what
/// the hand-built evaluation misjudges (a residual), so training starts from its play.
#[derive(Clone, Debug, PartialEq)]
pub struct Learned {
    /// The weights, indexed by table entry ([`features::entry_name`]).
    pub weights: [f32; FEATURES],
    /// Scale of the hand-built evaluation (0: the tables alone).
    pub hand: f32,
    /// The hand-built evaluation's weights.
    pub hand_weights: Weights,
}

/// The trained weights ([`LEARNED`], [`LEARNED_HAND`]).
impl Default for Learned {
    fn default() -> Learned {
        Learned {
            weights: LEARNED,
            hand: LEARNED_HAND,
            hand_weights: Weights::default(),
        }
    }
}

impl Learned {
    /// Every table weight 0 on `hand` × the hand-built evaluation (where training starts).
    #[must_use]
    pub fn zero(hand: f32) -> Learned {
        Learned {
            weights: [0.0; FEATURES],
            hand,
            hand_weights: Weights::default(),
        }
    }

    /// The tables' part of the value of an afterstate whose entries are `active`.
    #[must_use]
    pub fn table_value(&self, active: &[u16]) -> f32 {
        active
            .iter()
            .filter_map(|&i| self.weights.get(i as usize))
            .sum()
    }

    /// The tables' part of the value of the afterstate `board` with the announced colours
    /// `share`; `removed`: the balls the move removed (0: it completed no line).
    #[must_use]
    pub fn value(&self, board: &Board, share: Share, removed: usize) -> f32 {
        self.value_masks(board, &Masks::of(board), share, removed)
    }

    /// [`Learned::value`] for a board whose [`Masks`] the caller already holds.
    #[must_use]
    pub fn value_masks(&self, board: &Board, masks: &Masks, share: Share, removed: usize) -> f32 {
        let mut v = 0.0;
        features::visit_masks(board, masks, share, removed, |i, c| {
            if let Some(w) = self.weights.get(i) {
                v += w * c;
            }
        });
        v
    }

    /// The entries `board` selects (known colours: each with coefficient 1), into
    /// `active` (cleared first).
    pub fn select(&self, board: &Board, share: Share, removed: usize, active: &mut Vec<u16>) {
        active.clear();
        features::visit(board, share, removed, |i, _| active.push(i as u16));
    }

    /// One temporal-difference step (normalised least mean squares): moves the value of
    /// the afterstate whose entries are `active` by `rate × error`, entry `i` learning at
    /// `scale(i)` × the rate (0: frozen). An entry may repeat (several windows of one
    /// class in one state): the step is shared by the sum of the squared counts, each
    /// weighted by its scale up to 1 (an entry learning faster than 1 takes more of the
    /// error without slowing the others, but never more than half of it).
    pub fn update(&mut self, active: &[u16], error: f32, rate: f32, scale: impl Fn(usize) -> f32) {
        let mut sorted = [0u16; features::ACTIVE];
        let n = active.len().min(sorted.len());
        sorted[..n].copy_from_slice(&active[..n]);
        let sorted = &mut sorted[..n];
        sorted.sort_unstable();
        let mut norm = 0.0f32;
        let mut run = 0usize;
        for (i, &v) in sorted.iter().enumerate() {
            run = if i > 0 && sorted[i - 1] == v {
                run + 1
            } else {
                1
            };
            // Summed over a run of length r, 2·run − 1 makes r².
            norm += (2 * run - 1) as f32 * scale(v as usize).min(1.0);
        }
        if norm <= 0.0 {
            return;
        }
        let step = rate / norm;
        for &i in active {
            if let Some(w) = self.weights.get_mut(i as usize) {
                // An entry never takes more than half the error (no overshoot).
                *w += (step * scale(i as usize)).min(0.5) * error;
            }
        }
    }
}

/// The text of `learned_weights.rs` from its marker line on: what the training tool
/// writes after its header (a test holds the file to it).
#[must_use]
pub fn weights_source(learned: &Learned) -> String {
    let weights = &learned.weights;
    let mut s = format!(
        "/// The learned weights: the default value of the computer player.\n\
         #[rustfmt::skip]\n\
         pub const LEARNED_HAND: f32 = {:?};\n\n\
         /// The learned table weights, by entry ([`features::entry_name`](super::features::entry_name)).\n\
         #[rustfmt::skip]\n\
         pub const LEARNED: [f32; FEATURES] = [\n",
        learned.hand
    );
    for (row, chunk) in weights.chunks(6).enumerate() {
        s.push_str("   ");
        for w in chunk {
            let _ = write!(s, " {w:?},");
        }
        let _ = writeln!(s, " // {}", features::entry_name(row * 6));
    }
    s.push_str("];\n");
    s
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn weights_file_is_what_the_writer_writes() {
        let file = include_str!("learned_weights.rs");
        let at = file.find("/// The learned weights").unwrap();
        assert_eq!(&file[at..], weights_source(&Learned::default()));
    }

    #[test]
    fn the_value_is_the_sum_of_the_selected_entries() {
        let mut v = Learned::default();
        for (i, w) in v.weights.iter_mut().enumerate() {
            *w += (i % 7) as f32 * 0.25;
        }
        let board: Board = "RRRR.....\n.G.......\n..B.B....\n.........\n....G....\n.........\n...O.....\n.........\n........Y"
            .parse()
            .unwrap();
        let share = Share::Known([0, 1, 0, 2, 0, 0, 0, 0]);
        let mut active = Vec::new();
        v.select(&board, share, 0, &mut active);
        let sum: f32 = active.iter().map(|&i| v.weights[i as usize]).sum();
        assert!((sum - v.value(&board, share, 0)).abs() < 1e-2);
    }

    #[test]
    fn zero_tables_play_as_the_hand_built_evaluation() {
        use crate::ai::search;
        use crate::{LinesGame, Settings, spawn::Spawner};
        use banco_game::ScoreGame;
        let zero = Learned::zero(1.0);
        let hand = Weights::default();
        let mut game = LinesGame::new(Settings::default(), Spawner::seed_from_u64(5));
        for _ in 0..40 {
            let next = game.next_colors();
            let a = search::best_candidate(game.board(), Some(&next), &zero).unwrap();
            let b = search::best_candidate(game.board(), Some(&next), &hand).unwrap();
            assert_eq!((a.from, a.to), (b.from, b.to));
            assert!((a.heuristic - b.heuristic).abs() < 1e-3);
            game.play(crate::Move {
                from: a.from,
                to: a.to,
            })
            .unwrap();
            if game.is_over() {
                break;
            }
        }
    }
}
