//! The planning term of the evaluation: how many moves the cheapest lines of each colour
//! still need. For every colour, every five-cell window holding only balls of that colour
//! (two at least) and free cells costs one move per free cell, plus one per free cell no
//! spare ball of the colour can reach (a ball outside the window next to the free region
//! of that cell) and one per missing spare ball (fewer spare balls than free cells: a
//! landing must bring it). The windows are taken cheapest first; a window that shares a
//! ball with one already taken is an alternative to it and is skipped, and the spare balls
//! a taken window needs are reserved for it (not counted for the next). The value is, per
//! colour, `cost_value[cost]` for the first window taken, times `decay` for the second,
//! `decay²` for the third (at most [`MAX_PER_COLOR`] windows).
//!
//! ```
//! use banco_lines::{Ball, Board, ai::{eval::{Masks, Regions}, plan}};
//! let mut board = Board::empty();
//! for c in ["a1", "b1", "c1", "d1", "e3"] {
//!     board.set(c.parse()?, Some(Ball::Red));
//! }
//! let m = Masks::of(&board);
//! let costs = plan::cheapest(&m, &Regions::of(m.empty));
//! // Red: a1–e1 needs one move (the spare on e3 reaches e1).
//! assert_eq!(costs[Ball::Red.index()][0], 1);
//! # Ok::<(), banco_lines::CellError>(())
//! ```

use super::eval::{Masks, Regions, WINDOW_MASKS};
use crate::board::Ball;

/// Windows taken per colour.
pub const MAX_PER_COLOR: usize = 3;

/// Costs above this are not counted.
pub const MAX_COST: u8 = 3;

/// Per colour (index 0–6), the costs of the windows taken, cheapest first (0: none).
pub type Costs = [[u8; MAX_PER_COLOR]; Ball::COUNT];

/// The cost of a window whose free cells the spare balls `reach[i]` can reach (one set per
/// free cell: the balls of the colour outside the window next to that cell's free region):
/// one move per free cell, one more per free cell no spare reaches, one more per missing
/// spare.
#[must_use]
pub fn window_cost(reach: &[u128]) -> u8 {
    // Saturating: any cost past `MAX_COST` counts the same (a window has 5 cells, but the
    // function is public and takes any slice).
    let h = u8::try_from(reach.len()).unwrap_or(u8::MAX);
    let mut cost = h;
    let mut all = 0u128;
    for &r in reach {
        if r == 0 {
            cost = cost.saturating_add(1);
        }
        all |= r;
    }
    let have = u8::try_from(all.count_ones()).unwrap_or(u8::MAX);
    cost.saturating_add(h.saturating_sub(have))
}

/// The windows of each colour cheap enough to count ([`MAX_COST`] at most), gathered one
/// by one ([`Windows::add`]) — by the evaluation during its own scan of the 140 windows,
/// so that the board is scanned once — then chosen from by [`Windows::cheapest`].
#[derive(Clone, Debug)]
pub struct Windows {
    /// Per colour: (cost, window index).
    found: [[(u8, u8); 48]; Ball::COUNT],
    n: [usize; Ball::COUNT],
}

impl Default for Windows {
    fn default() -> Windows {
        Windows::new()
    }
}

impl Windows {
    /// No window yet.
    #[must_use]
    pub const fn new() -> Windows {
        Windows {
            found: [[(0, 0); 48]; Ball::COUNT],
            n: [0; Ball::COUNT],
        }
    }

    /// Window `wi` (an index of [`WINDOW_MASKS`]), holding two balls at least, all of
    /// colour `code` (1–7), at `cost` ([`window_cost`]); ignored above [`MAX_COST`].
    pub fn add(&mut self, wi: usize, code: usize, cost: u8) {
        if cost > MAX_COST || !(1..=Ball::COUNT).contains(&code) || wi >= WINDOW_MASKS.len() {
            return;
        }
        let i = code - 1;
        if let (Some(slot), Ok(w)) = (self.found[i].get_mut(self.n[i]), u8::try_from(wi)) {
            *slot = (cost, w);
            self.n[i] += 1;
        }
    }

    /// The costs of the windows taken per colour (see the module docs); `m`: the board's
    /// masks.
    #[must_use]
    pub fn cheapest(mut self, m: &Masks) -> Costs {
        let empty = m.empty;
        let mut out = [[0u8; MAX_PER_COLOR]; Ball::COUNT];
        for (i, (taken, (found, &n))) in out
            .iter_mut()
            .zip(self.found.iter_mut().zip(&self.n))
            .enumerate()
        {
            let list = &mut found[..n];
            list.sort_unstable();
            let code = i + 1;
            let mut taken_balls = 0u128;
            let mut reserved = 0u32;
            let mut k = 0;
            for &(cost, wi) in list.iter() {
                if k == MAX_PER_COLOR {
                    break;
                }
                let Some(&mask) = WINDOW_MASKS.get(usize::from(wi)) else {
                    continue; // `add` takes only windows of the table
                };
                let occ = mask & !empty;
                if occ & taken_balls != 0 {
                    continue;
                }
                let holes = (mask & empty).count_ones();
                let spares = (m.color[code] & !taken_balls & !occ).count_ones();
                let extra = (reserved + holes).saturating_sub(spares) as u8;
                let cost = cost.saturating_add(extra.min(holes as u8));
                if cost > MAX_COST {
                    continue;
                }
                taken_balls |= occ;
                reserved += holes;
                taken[k] = cost;
                k += 1;
            }
            taken[..k].sort_unstable();
        }
        out
    }
}

/// The cheapest windows of every colour (see the module docs), by a scan of its own over
/// the windows (the evaluation gathers them during its scan instead).
#[must_use]
pub fn cheapest(m: &Masks, regions: &Regions) -> Costs {
    let mut windows = Windows::new();
    let empty = m.empty;
    for (wi, &mask) in WINDOW_MASKS.iter().enumerate() {
        let occ = mask & !empty;
        if occ.count_ones() < 2 {
            continue;
        }
        let code = (1..8).find(|&c| occ & !m.color[c] == 0);
        let Some(code) = code else { continue };
        let holes = mask & empty;
        if holes == 0 {
            continue;
        }
        let spares = m.color[code] & !occ;
        let mut reach = [0u128; 3];
        let mut h = 0;
        let mut rest = holes;
        while rest != 0 && h < reach.len() {
            let bit = rest & rest.wrapping_neg();
            rest &= !bit;
            reach[h] = regions.near(bit) & spares;
            h += 1;
        }
        windows.add(wi, code, window_cost(&reach[..h]));
    }
    windows.cheapest(m)
}

/// The planning value of `costs`: `cost_value[c - 1]` for a window of cost `c`, times
/// `decay` for each window of its colour before it.
#[must_use]
pub fn value(costs: &Costs, cost_value: &[f32; MAX_COST as usize], decay: f32) -> f32 {
    let mut v = 0.0;
    for colour in costs {
        let mut f = 1.0;
        for &c in colour {
            if c == 0 {
                break;
            }
            // A cost past `MAX_COST` is not counted (as `Windows::add` keeps none).
            v += f * cost_value.get(usize::from(c) - 1).copied().unwrap_or(0.0);
            f *= decay;
        }
    }
    v
}
