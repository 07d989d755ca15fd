//! The learned weights of the computer player's value ([`Learned`](super::learned::Learned)),
//! written by `examples/td_train.rs`: regenerate this file with the tool instead of editing it.
//!
//! Zero tables: the hand-built evaluation alone. Every temporal-difference run so far played worse than it (data/tuning.md), so none is kept.
//!
//! ```
//! use banco_lines::ai::{learned::Learned, learned_weights::LEARNED};
//! assert_eq!(Learned::default().weights, LEARNED);
//! ```

use super::features::FEATURES;

/// The learned weights: the default value of the computer player.
#[rustfmt::skip]
pub const LEARNED_HAND: f32 = 1.0;

/// The learned table weights, by entry ([`features::entry_name`](super::features::entry_name)).
#[rustfmt::skip]
pub const LEARNED: [f32; FEATURES] = [
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 0 empty
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 0 pure 1 spares 1 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 0 pure 1 spares 3 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 0 pure 2 spares 1 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 0 pure 2 spares 3 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 0 pure 3 spares 1 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 0 pure 3 spares 3 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 0 pure 4 spares 1 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 0 pure 4 spares 3 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 1 pure 1 spares 0 share 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 1 pure 1 spares 2 share 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 1 pure 2 spares 0 share 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 1 pure 2 spares 2 share 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 1 pure 3 spares 0 share 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 1 pure 3 spares 2 share 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 1 pure 4 spares 0 share 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 1 pure 4 spares 2 share 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 1 mixed 0 free
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 2 pure 1 spares 0 share 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 2 pure 1 spares 2 share 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 2 pure 2 spares 0 share 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 2 pure 2 spares 2 share 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 2 pure 3 spares 0 share 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 2 pure 3 spares 2 share 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 2 pure 4 spares 0 share 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 2 pure 4 spares 2 share 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 2 mixed 1 free
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 3 pure 1 spares 0 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 3 pure 1 spares 2 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 3 pure 2 spares 0 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 3 pure 2 spares 2 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 3 pure 3 spares 0 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 3 pure 3 spares 2 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 3 pure 4 spares 0 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 3 pure 4 spares 2 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 3 mixed 2 free
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 4 pure 1 spares 1 share 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 4 pure 1 spares 3 share 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 4 pure 2 spares 1 share 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 4 pure 2 spares 3 share 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 4 pure 3 spares 1 share 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 4 pure 3 spares 3 share 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 4 pure 4 spares 1 share 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 4 pure 4 spares 3 share 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window straight ring 4 mixed 3 free
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 0 pure 1 spares 1 share 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 0 pure 1 spares 3 share 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 0 pure 2 spares 1 share 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 0 pure 2 spares 3 share 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 0 pure 3 spares 1 share 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 0 pure 3 spares 3 share 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 0 pure 4 spares 1 share 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 0 pure 4 spares 3 share 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 1 empty
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 1 pure 1 spares 1 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 1 pure 1 spares 3 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 1 pure 2 spares 1 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 1 pure 2 spares 3 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 1 pure 3 spares 1 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 1 pure 3 spares 3 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 1 pure 4 spares 1 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 1 pure 4 spares 3 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 2 pure 1 spares 0 share 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 2 pure 1 spares 2 share 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 2 pure 2 spares 0 share 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 2 pure 2 spares 2 share 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 2 pure 3 spares 0 share 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 2 pure 3 spares 2 share 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 2 pure 4 spares 0 share 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 2 pure 4 spares 2 share 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 2 mixed 0 free
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 3 pure 1 spares 0 share 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 3 pure 1 spares 2 share 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 3 pure 2 spares 0 share 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 3 pure 2 spares 2 share 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 3 pure 3 spares 0 share 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 3 pure 3 spares 2 share 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 3 pure 4 spares 0 share 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 3 pure 4 spares 2 share 1
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 3 mixed 1 free
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 4 pure 1 spares 0 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 4 pure 1 spares 2 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 4 pure 2 spares 0 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 4 pure 2 spares 2 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 4 pure 3 spares 0 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 4 pure 3 spares 2 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 4 pure 4 spares 0 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 4 pure 4 spares 2 share 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // window diagonal ring 4 mixed 2 free
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // level 4
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // level 10
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // level 16
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // level 22
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // level 28
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // level 34
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // level 40
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // level 46
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // level 52
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // level 58
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // level 64
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // level 70
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // level 76
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // pocket 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // pocket 6
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // regions 4
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // walled 4
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // dead 2
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // dead 8
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // dead 14
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // lonely 4
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // lonely 10
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // ready_colors 0
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, // ready_windows 1
    0.0, 0.0, 0.0, // ready_windows 7
];
