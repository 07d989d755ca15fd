//! The computer player's judgement of a board, in points: runs of each colour (every
//! five-cell window of a rank, file or diagonal that holds balls of one colour only), free
//! area (more so on a crowded board), connectivity of the free cells (cells cut off from
//! the largest free region are worth less) and balls walled in.
//!
//! ```
//! use banco_lines::{Board, ai::eval};
//! let open = Board::empty();
//! let mut built = open;
//! for c in ["a1", "b1", "c1", "d1"] {
//!     built.set(c.parse()?, Some(banco_lines::Ball::Red));
//! }
//! let mut scattered = open;
//! for c in ["a1", "c5", "i9", "e2"] {
//!     scattered.set(c.parse()?, Some(banco_lines::Ball::Red));
//! }
//! assert!(eval::evaluate(&built) > eval::evaluate(&scattered));
//! # Ok::<(), banco_lines::CellError>(())
//! ```

use crate::board::{Board, CELLS, Cell, SIZE};
use crate::path::{flood, neighbour_bits};

/// Number of five-cell windows on the board: 45 on ranks, 45 on files, 25 on each diagonal.
pub const WINDOWS: usize = 140;

/// The five-cell windows: cell indices.
pub static WINDOW_CELLS: [[u8; 5]; WINDOWS] = build_windows();
/// For each cell, the windows through it (at most 20), padded with `u8::MAX`.
pub static CELL_WINDOWS: [[u8; 20]; CELLS] = build_cell_windows();

const fn build_windows() -> [[u8; 5]; WINDOWS] {
    let mut out = [[0u8; 5]; WINDOWS];
    let dirs: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
    let mut n = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut start = 0;
        while start < CELLS {
            let f0 = (start % SIZE) as isize;
            let r0 = (start / SIZE) as isize;
            let f4 = f0 + 4 * df;
            let r4 = r0 + 4 * dr;
            if f4 >= 0 && f4 < SIZE as isize && r4 >= 0 && r4 < SIZE as isize {
                let mut k = 0;
                while k < 5 {
                    out[n][k] =
                        ((r0 + k as isize * dr) * SIZE as isize + f0 + k as isize * df) as u8;
                    k += 1;
                }
                n += 1;
            }
            start += 1;
        }
        d += 1;
    }
    out
}

const fn build_cell_windows() -> [[u8; 20]; CELLS] {
    let windows = build_windows();
    let mut out = [[u8::MAX; 20]; CELLS];
    let mut count = [0usize; CELLS];
    let mut w = 0;
    while w < WINDOWS {
        let mut k = 0;
        while k < 5 {
            let c = windows[w][k] as usize;
            out[c][count[c]] = w as u8;
            count[c] += 1;
            k += 1;
        }
        w += 1;
    }
    out
}

/// Weights of the evaluation (points per feature).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Value of a window holding 1, 2, 3 or 4 balls of one colour and nothing else.
    pub run: [f32; 5],
    /// Value of each free cell.
    pub free: f32,
    /// Penalty per missing free cell below `crowd_at` free cells, squared.
    pub crowd: f32,
    /// Free cells below which the board counts as crowded.
    pub crowd_at: f32,
    /// Penalty per free cell outside the largest free region.
    pub pocket: f32,
    /// Penalty per ball with no free neighbour.
    pub walled: f32,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            run: [0.0, 0.05, 0.5, 2.0, 5.0],
            free: 2.0,
            crowd: 0.15,
            crowd_at: 30.0,
            pocket: 2.0,
            walled: 0.15,
        }
    }
}

/// The value of window `w`: the run weight if it holds balls of one colour only.
#[inline]
#[must_use]
pub fn window_value(board: &Board, w: usize, weights: &Weights) -> f32 {
    let mut colour = 0u8;
    let mut count = 0usize;
    for &c in &WINDOW_CELLS[w] {
        let v = board.code(c as usize);
        if v != 0 {
            if colour != 0 && v != colour {
                return 0.0;
            }
            colour = v;
            count += 1;
        }
    }
    weights.run[count.min(4)]
}

/// The sum of the window values (runs of every colour).
#[must_use]
pub fn runs(board: &Board, weights: &Weights) -> f32 {
    (0..WINDOWS).map(|w| window_value(board, w, weights)).sum()
}

/// The whole evaluation of `board` with the default weights.
#[must_use]
pub fn evaluate(board: &Board) -> f32 {
    evaluate_with(board, &Weights::default())
}

/// The whole evaluation of `board` (see the module docs).
#[must_use]
pub fn evaluate_with(board: &Board, weights: &Weights) -> f32 {
    let empties = board.empties();
    let free = empties.len() as f32;
    let mut value = weights.free * free;
    if free < weights.crowd_at {
        let d = weights.crowd_at - free;
        value -= weights.crowd * d * d;
    }
    // The largest free region; the rest sits in pockets.
    let mut rest = empties.0;
    let mut largest = 0usize;
    while rest != 0 {
        let seed = rest & rest.wrapping_neg();
        let region = flood(empties, seed).0;
        largest = largest.max(region.count_ones() as usize);
        rest &= !region;
    }
    value -= weights.pocket * (empties.len() - largest) as f32;
    // Balls with no free neighbour cannot move.
    let mut walled = 0;
    for c in Cell::all() {
        if board.code(c.index()) != 0 && neighbour_bits(c) & empties.0 == 0 {
            walled += 1;
        }
    }
    value -= weights.walled * walled as f32;
    value + runs(board, weights)
}
