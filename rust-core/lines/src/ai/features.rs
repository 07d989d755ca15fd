//! The features of the learned value ([`super::learned`]): colour-agnostic lookup tables
//! over an *afterstate* — the board after our move and its line clear, before the
//! announced balls land — as the n-tuple networks of 2048 look up tables over tiles.
//!
//! * Each of the 140 five-cell windows ([`super::eval::WINDOW_CELLS`]) selects one entry
//!   of its class's table (class: rank/file or diagonal × ring of its middle cell, 10
//!   classes). The entry: empty; mixed (two colours: dead) by its free cells; or pure
//!   (balls of one colour only) by how many balls it holds (1–4), how many other balls of
//!   that colour border the free regions of its holes (0–3+: can the line be completed?)
//!   and how many of the announced balls have that colour (0, 1, 2+: will the landing
//!   feed it?).
//! * One entry each of the global tables: free cells before the move (0–81: the same
//!   for every move of a turn, so it only holds the level of the value — how much is
//!   left to score at this stage — and never sways the choice), free cells outside the
//!   largest free region, free regions, balls with no free neighbour, balls in no window
//!   that could still become a line, balls in no window shared with one of their colour,
//!   colours with a line ready (a window of four whose hole a fifth ball can reach),
//!   ready windows, and whether the move completed a line (our move again, nothing
//!   lands).
//!
//! `removed`: the balls the move removed (0: it completed no line).
//!
//! The value is the sum of the selected entries, so it is linear in the tables; with the
//! colours not announced yet ([`Share::Unknown`]) each pure window's entry is the exact
//! expectation over the colours of three random balls.
//!
//! ```
//! use banco_lines::{Board, ai::features::{self, Share}};
//! let board: Board = Board::empty();
//! let mut selected = Vec::new();
//! features::visit(&board, Share::Known([0; 8]), 0, |i, coef| selected.push((i, coef)));
//! // 140 windows and 9 global tables, one entry each.
//! assert_eq!(selected.len(), 140 + 9);
//! assert!(selected.iter().all(|&(i, c)| i < features::FEATURES && c == 1.0));
//! ```

use super::eval::{Masks, Regions, WINDOW_CELLS, WINDOW_MASKS, WINDOWS};
use crate::board::{Ball, Board, CELLS, SIZE};
use crate::path::spread;

/// Window classes: rank/file or diagonal × ring of the middle cell (0 on the edge, 4 in
/// the centre). A diagonal window's middle cell is at least two cells from every edge, so
/// classes 5 and 6 (diagonal, rings 0–1) are never selected and their entries stay 0.
pub const CLASSES: usize = 10;
/// Entries of one window class's table: empty, 48 pure states, 4 mixed states.
pub const WINDOW_STATES: usize = 53;
const PURE: usize = 1;
const MIXED: usize = 49;

/// A global table: its name and its number of entries, in [`TABLES`] order.
pub const TABLES: [(&str, usize); 9] = [
    ("level", 82),
    ("pocket", 8),
    ("regions", 6),
    ("walled", 8),
    ("dead", 16),
    ("lonely", 16),
    ("ready_colors", 5),
    ("ready_windows", 8),
    ("scored", 2),
];

/// Where the global tables start (after the window tables).
pub const GLOBAL: usize = CLASSES * WINDOW_STATES;

const fn table_offsets() -> [usize; 9] {
    let mut out = [0; 9];
    let mut at = GLOBAL;
    let mut i = 0;
    while i < 9 {
        out[i] = at;
        at += TABLES[i].1;
        i += 1;
    }
    out
}

/// The first entry of each global table.
pub const OFFSETS: [usize; 9] = table_offsets();

/// Number of entries of all tables together: the length of the learned weights.
pub const FEATURES: usize = OFFSETS[8] + TABLES[8].1;

/// Most entries one afterstate selects with known colours (140 windows, 9 globals).
pub const ACTIVE: usize = WINDOWS + TABLES.len();

/// The class of each window.
static WINDOW_CLASS: [u8; WINDOWS] = build_classes();

const fn build_classes() -> [u8; WINDOWS] {
    let mut out = [0u8; WINDOWS];
    let mut w = 0;
    while w < WINDOWS {
        let mid = WINDOW_CELLS[w][2] as usize;
        let (f, r) = (mid % SIZE, mid / SIZE);
        let mut ring = f;
        if SIZE - 1 - f < ring {
            ring = SIZE - 1 - f;
        }
        if r < ring {
            ring = r;
        }
        if SIZE - 1 - r < ring {
            ring = SIZE - 1 - r;
        }
        // Windows 0–89 lie on ranks and files, 90–139 on diagonals.
        let diagonal = if w >= 90 { 5 } else { 0 };
        out[w] = (diagonal + ring) as u8;
        w += 1;
    }
    out
}

/// The announced colours as the features see them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Share {
    /// How many of the balls about to land have each colour (index = colour code 1–7).
    Known([u8; 8]),
    /// Not announced yet: three balls of random colours.
    Unknown,
}

impl Share {
    /// The share of `next` (`None`: not announced).
    #[must_use]
    pub fn of(next: Option<&[Ball]>) -> Share {
        match next {
            Some(balls) => {
                let mut out = [0u8; 8];
                for b in balls {
                    out[b.index() + 1] = out[b.index() + 1].saturating_add(1);
                }
                Share::Known(out)
            }
            None => Share::Unknown,
        }
    }
}

/// Probability that 0, 1 or 2+ of three random balls have a given colour (of seven).
const UNKNOWN_SHARE: [f32; 3] = [
    216.0 / 343.0,
    108.0 / 343.0,
    1.0 - 216.0 / 343.0 - 108.0 / 343.0,
];

/// Calls `visit(entry, coefficient)` for every table entry `board` selects (coefficient 1;
/// with [`Share::Unknown`] a pure window selects its three announced-colour entries with
/// their probabilities). `removed`: the balls the move that led here removed (0: it
/// completed no line; otherwise nothing lands before our next move).
pub fn visit(board: &Board, share: Share, removed: usize, visit: impl FnMut(usize, f32)) {
    visit_masks(board, &Masks::of(board), share, removed, visit);
}

/// [`visit`] for a board whose [`Masks`] the caller already holds.
pub fn visit_masks(
    board: &Board,
    m: &Masks,
    share: Share,
    removed: usize,
    mut visit: impl FnMut(usize, f32),
) {
    let empty = m.empty;
    let free = empty.count_ones() as usize;
    let regions = Regions::of(empty);
    let largest = regions
        .sets()
        .iter()
        .map(|s| s.count_ones() as usize)
        .max()
        .unwrap_or(0);
    let codes = board.codes();
    let mut live = 0u128;
    let mut paired = 0u128;
    let mut ready_colors = 0u8;
    let mut ready_windows = 0usize;
    for (w, &mask) in WINDOW_MASKS.iter().enumerate() {
        let base = WINDOW_CLASS[w] as usize * WINDOW_STATES;
        let occ = mask & !empty;
        if occ == 0 {
            visit(base, 1.0);
            continue;
        }
        let code = codes[occ.trailing_zeros() as usize] as usize & 7;
        let holes = mask & empty;
        if occ & !m.color[code] != 0 {
            visit(base + MIXED + (holes.count_ones() as usize).min(3), 1.0);
            continue;
        }
        live |= occ;
        let k = (occ.count_ones() as usize).clamp(1, 4);
        if k >= 2 {
            paired |= occ;
        }
        let mut reach = 0u128;
        for &s in regions.sets() {
            if s & holes != 0 {
                reach |= s;
            }
        }
        let spares = (spread(reach) & m.color[code] & !occ).count_ones() as usize;
        if k == 4 && spares > 0 {
            ready_windows += 1;
            ready_colors |= 1 << code;
        }
        let state = base + PURE + ((k - 1) * 4 + spares.min(3)) * 3;
        match share {
            Share::Known(s) => visit(state + (s[code] as usize).min(2), 1.0),
            Share::Unknown => {
                for (i, &p) in UNKNOWN_SHARE.iter().enumerate() {
                    visit(state + i, p);
                }
            }
        }
    }
    let balls = !empty & ((1u128 << CELLS) - 1);
    let walled = (balls & !spread(empty)).count_ones() as usize;
    let dead = (balls & !live).count_ones() as usize;
    let lonely = (balls & live & !paired).count_ones() as usize;
    let pocket = free - largest;
    let pocket = match pocket {
        0..=4 => pocket,
        5..=6 => 5,
        7..=9 => 6,
        _ => 7,
    };
    let entries = [
        free.saturating_sub(removed).min(81),
        pocket,
        regions.sets().len().min(5),
        walled.min(7),
        dead.min(15),
        lonely.min(15),
        (ready_colors.count_ones() as usize).min(4),
        ready_windows.min(7),
        usize::from(removed > 0),
    ];
    for (i, e) in entries.into_iter().enumerate() {
        visit(OFFSETS[i] + e, 1.0);
    }
}

/// The name of entry `i` (for the generated weights file and diagnostics), e.g.
/// `window diagonal ring 2 pure 4 spares 1 share 0` or `level 40`.
#[must_use]
pub fn entry_name(i: usize) -> String {
    if i < GLOBAL {
        let class = i / WINDOW_STATES;
        let state = i % WINDOW_STATES;
        let dir = if class >= 5 { "diagonal" } else { "straight" };
        let ring = class % 5;
        let what = match state {
            0 => "empty".to_string(),
            s if s >= MIXED => format!("mixed {} free", s - MIXED),
            s => {
                let p = s - PURE;
                format!("pure {} spares {} share {}", p / 12 + 1, (p / 3) % 4, p % 3)
            }
        };
        return format!("window {dir} ring {ring} {what}");
    }
    for (t, &(name, len)) in TABLES.iter().enumerate() {
        if i < OFFSETS[t] + len {
            return format!("{name} {}", i - OFFSETS[t]);
        }
    }
    format!("unused {i}")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn every_board_selects_one_entry_per_table() {
        let board: Board = "RRRR.....\n.........\n..B.B....\n.........\n....G....\n.........\n.........\n.........\n........Y"
            .parse()
            .unwrap();
        let mut per_table = [0usize; 9];
        let mut windows = 0;
        visit(&board, Share::of(Some(&[Ball::Red; 3])), 5, |i, c| {
            assert!(i < FEATURES);
            assert!((c - 1.0).abs() < f32::EPSILON);
            if i < GLOBAL {
                windows += 1;
            } else {
                let t = OFFSETS.iter().rposition(|&o| o <= i).unwrap();
                per_table[t] += 1;
            }
        });
        assert_eq!(windows, WINDOWS);
        assert_eq!(per_table, [1; 9]);
    }

    #[test]
    fn unknown_colours_are_an_expectation() {
        let board: Board = "RRRR.....\n.........\n.........\n.........\n.........\n.........\n.........\n.........\n........."
            .parse()
            .unwrap();
        let mut total = 0.0;
        visit(&board, Share::Unknown, 0, |_, c| total += c);
        assert!((total - (WINDOWS + TABLES.len()) as f32).abs() < 1e-3);
        assert!((UNKNOWN_SHARE.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn names_cover_every_entry() {
        assert_eq!(entry_name(0), "window straight ring 0 empty");
        assert_eq!(entry_name(OFFSETS[0] + 40), "level 40");
        assert_eq!(entry_name(FEATURES - 1), "scored 1");
        assert!(entry_name(PURE + 3 * 12 + 3 + 2).contains("pure 4 spares 1 share 2"));
    }
}
