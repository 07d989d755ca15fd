//! Rollouts: a fast, noisy policy that plays a board on for some turns over random
//! landings and random announced colours, so that stage two can judge a move by what
//! the next turns make of its board rather than by one evaluation.
//!
//! The policy completes a line whenever a ball can reach the free cell of a window of
//! four (the window that removes most balls first); otherwise it moves the ball whose move
//! gains most in the five-cell windows through its two cells — a window holding balls of
//! one colour only is worth [`Policy::window`] by how many it holds, a window holding two
//! colours nothing — with a little uniform noise on every move's worth so that the
//! rollouts of one board differ. A decision costs a few microseconds: one pass over the
//! 140 windows, one over the free cells' windows, and one per free region and ball.
//!
//! ```
//! use banco_lines::{LinesGame, Settings, ai::{rollout::{self, Policy}, search::SampleRng}};
//! let game = LinesGame::new(Settings::default(), [5; 32]);
//! let mut board = *game.board();
//! let mut rng = SampleRng::new(7);
//! let before = board.ball_count();
//! let step = rollout::step(&mut board, &game.next_colors(), &Policy::default(), &mut rng);
//! assert!(step.is_some());
//! assert!(board.ball_count() >= before); // a quiet move: the three balls landed
//! ```

use super::eval::{Masks, Regions, WINDOW_CELLS, WINDOW_MASKS, WINDOWS};
use super::search::{SampleRng, land_random, random_colors};
use crate::board::{Ball, Board, CELLS, Cell};
use crate::lines::lines_through;
use crate::path::{neighbour_bits, spread};
use crate::score::points;

/// Weight of the stage-one value of the board a rollout ends on, against the points it
/// made (0.3 did best of 0, 0.1, 0.3 and 1 over 20 games at depth 10, none separable from
/// the others: `data/tuning.md`, seventeenth session).
pub const TERMINAL: f32 = 0.3;

/// No destination, in the table of each region's best destinations.
const NO_CELL: u8 = u8::MAX;

/// The rollout policy's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Policy {
    /// Worth of a window holding `k` balls of one colour and nothing else (index `k`,
    /// 0 to 4; a window of five is a line and is removed).
    pub window: [f32; 5],
    /// Width of the uniform noise added to every move's worth.
    pub noise: f32,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            window: [0.0, 0.5, 2.0, 6.0, 15.0],
            noise: 2.0,
        }
    }
}

/// For each cell, the windows through it (at most 20) and how many.
static CELL_WINDOWS: ([[u8; 20]; CELLS], [u8; CELLS]) = build_cell_windows();

const fn build_cell_windows() -> ([[u8; 20]; CELLS], [u8; CELLS]) {
    let mut list = [[0u8; 20]; CELLS];
    let mut len = [0u8; CELLS];
    let mut w = 0;
    while w < WINDOWS {
        let mut k = 0;
        while k < 5 {
            let c = WINDOW_CELLS[w][k] as usize;
            list[c][len[c] as usize] = w as u8;
            len[c] += 1;
            k += 1;
        }
        w += 1;
    }
    (list, len)
}

/// The windows through cell index `i`.
fn windows_of(i: usize) -> &'static [u8] {
    let (list, len) = &CELL_WINDOWS;
    match (list.get(i), len.get(i)) {
        (Some(l), Some(&n)) => l.get(..n as usize).unwrap_or(&[]),
        _ => &[],
    }
}

/// What a window holds: nothing, balls of one colour (`code`, `count`), or two colours.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Window {
    Empty,
    Pure(u8, u8),
    Mixed,
}

/// What one turn of a rollout did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Points the move and the landing scored.
    pub points: u32,
    /// Whether the move completed a line (then nothing landed).
    pub line: bool,
}

/// One turn by the policy on `board` with `next` announced: a line if one can be
/// completed (nothing lands), otherwise the policy's quiet move and the landing of `next`
/// on random free cells. `None` if no ball can move (the board is full or frozen).
pub fn step(
    board: &mut Board,
    next: &[Ball],
    policy: &Policy,
    rng: &mut SampleRng,
) -> Option<Step> {
    let masks = Masks::of(board);
    let regions = Regions::of(masks.empty);
    if let Some(pts) = complete_line(board, &masks, &regions) {
        return Some(Step {
            points: pts,
            line: true,
        });
    }
    let (from, to) = quiet_move(board, &masks, &regions, policy, rng)?;
    let ball = board.get(from);
    board.set(from, None);
    board.set(to, ball);
    // The policy's worth is approximate: a quiet move may still complete a line (a run
    // the line scan did not offer, e.g. a ball moved along its own line).
    let cleared = lines_through(board, to);
    if !cleared.is_empty() {
        board.clear(cleared);
        return Some(Step {
            points: points(cleared.len()),
            line: true,
        });
    }
    Some(Step {
        points: land_random(board, next, rng),
        line: false,
    })
}

/// Completes the line that removes most balls, if a ball can reach the free cell of a
/// window of four of its colour; returns its points.
fn complete_line(board: &mut Board, masks: &Masks, regions: &Regions) -> Option<u32> {
    let mut best: Option<(Cell, Cell, usize)> = None;
    for &mask in &WINDOW_MASKS {
        let occ = mask & !masks.empty;
        if occ.count_ones() != 4 {
            continue;
        }
        let code = board.code(occ.trailing_zeros() as usize) as usize & 7;
        let same = masks.color.get(code).copied().unwrap_or(0);
        if occ & !same != 0 {
            continue;
        }
        let hole_bit = mask & masks.empty;
        let movers = spread(regions.containing(hole_bit)) & same & !occ;
        if movers == 0 {
            continue;
        }
        let (Ok(from), Ok(hole)) = (
            Cell::from_index(movers.trailing_zeros() as usize),
            Cell::from_index(hole_bit.trailing_zeros() as usize),
        ) else {
            continue;
        };
        let mut b = *board;
        let ball = b.get(from);
        b.set(from, None);
        b.set(hole, ball);
        let n = lines_through(&b, hole).len();
        if n >= 5 && best.is_none_or(|(_, _, m)| n > m) {
            best = Some((from, hole, n));
        }
    }
    let (from, hole, _) = best?;
    let ball = board.get(from);
    board.set(from, None);
    board.set(hole, ball);
    let cleared = lines_through(board, hole);
    board.clear(cleared);
    Some(points(cleared.len()))
}

/// The policy's quiet move: the best (noisy) worth of the windows gained at the
/// destination and lost (or freed of an odd ball) at the origin.
fn quiet_move(
    board: &Board,
    masks: &Masks,
    regions: &Regions,
    policy: &Policy,
    rng: &mut SampleRng,
) -> Option<(Cell, Cell)> {
    let f = &policy.window;
    let worth = |k: u8| f.get(k as usize).copied().unwrap_or(f[4]);
    let mut state = [Window::Empty; WINDOWS];
    for (s, &mask) in state.iter_mut().zip(&WINDOW_MASKS) {
        let occ = mask & !masks.empty;
        if occ != 0 {
            let code = board.code(occ.trailing_zeros() as usize) & 7;
            let same = masks.color.get(code as usize).copied().unwrap_or(0);
            *s = if occ & !same == 0 {
                Window::Pure(code, occ.count_ones() as u8)
            } else {
                Window::Mixed
            };
        }
    }
    // Per free region and colour: the best destination's worth (noise included).
    let sets = regions.sets();
    // `NO_CELL`: no destination found (yet); a worth that is no number (a hand-built
    // policy's NaN) never replaces it.
    let mut best_to = [[(f32::NEG_INFINITY, NO_CELL); 8]; 41];
    let noise = policy.noise;
    let mut draw = || (rng.next_u64() >> 40) as f32 * (noise / (1u64 << 24) as f32);
    for (r, &set) in sets.iter().enumerate() {
        let Some(slot) = best_to.get_mut(r) else {
            break;
        };
        let mut rest = set;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let mut base = 0.0;
            let mut add = [0.0f32; 8];
            for &w in windows_of(i) {
                match state.get(w as usize) {
                    Some(Window::Empty) => base += worth(1) - worth(0),
                    Some(&Window::Pure(c, k)) => {
                        base -= worth(k);
                        if let Some(a) = add.get_mut(c as usize) {
                            *a += worth(k + 1);
                        }
                    }
                    _ => {}
                }
            }
            for code in 1..8 {
                if masks.color.get(code).copied().unwrap_or(0) == 0 {
                    continue;
                }
                let v = base + add.get(code).copied().unwrap_or(0.0) + draw();
                if let Some(b) = slot.get_mut(code)
                    && v > b.0
                {
                    *b = (v, i as u8);
                }
            }
        }
    }
    let mut best: Option<(f32, usize, u8)> = None;
    let mut balls = !masks.empty & ((1u128 << CELLS) - 1);
    while balls != 0 {
        let i = balls.trailing_zeros() as usize;
        balls &= balls - 1;
        let bit = 1u128 << i;
        let near = neighbour_bits_of(i);
        if near & masks.empty == 0 {
            continue;
        }
        let code = board.code(i) & 7;
        let same = masks.color.get(code as usize).copied().unwrap_or(0);
        let mut loss = 0.0;
        for &w in windows_of(i) {
            match state.get(w as usize) {
                Some(&Window::Pure(_, k)) => loss += worth(k - 1) - worth(k),
                Some(Window::Mixed) => {
                    // The odd ball of a window of two colours leaves it to the other.
                    let mask = WINDOW_MASKS.get(w as usize).copied().unwrap_or(0);
                    let occ = mask & !masks.empty;
                    if occ & same == bit {
                        let rest = occ & !bit;
                        let c2 = board.code(rest.trailing_zeros() as usize) & 7;
                        let other = masks.color.get(c2 as usize).copied().unwrap_or(0);
                        if rest & !other == 0 {
                            loss += worth(rest.count_ones() as u8);
                        }
                    }
                }
                _ => {}
            }
        }
        let extra = draw();
        for (r, &set) in sets.iter().enumerate() {
            if set & near == 0 {
                continue;
            }
            let Some(&(gain, to)) = best_to.get(r).and_then(|s| s.get(code as usize)) else {
                continue;
            };
            if to == NO_CELL {
                continue;
            }
            let v = gain + loss + extra;
            if best.is_none_or(|(bv, _, _)| v > bv) {
                best = Some((v, i, to));
            }
        }
    }
    let (_, from, to) = best?;
    Some((
        Cell::from_index(from).ok()?,
        Cell::from_index(to as usize).ok()?,
    ))
}

/// The orthogonal neighbours of cell index `i`, as bits.
fn neighbour_bits_of(i: usize) -> u128 {
    Cell::from_index(i).map_or(0, neighbour_bits)
}

/// A rollout of `turns` turns from `board` with `next` announced (our move), colours
/// announced after those drawn from `colors`, landings and the policy's noise from `rng`:
/// the points scored and the board it ends on (`None` if the board filled or froze).
pub fn play(
    mut board: Board,
    next: &[Ball],
    turns: usize,
    policy: &Policy,
    rng: &mut SampleRng,
    colors: &mut SampleRng,
) -> (u32, Option<(Board, [Ball; 3])>) {
    let mut known = [Ball::Red; 3];
    let len = next.len().min(3);
    if let (Some(dst), Some(src)) = (known.get_mut(..len), next.get(..len)) {
        dst.copy_from_slice(src);
    }
    let mut total = 0;
    for _ in 0..turns {
        let Some(s) = step(&mut board, &known, policy, rng) else {
            return (total, None);
        };
        total += s.points;
        if !s.line {
            known = random_colors(colors);
        }
        if board.is_full() {
            return (total, None);
        }
    }
    (total, Some((board, known)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{LinesGame, Settings};

    #[test]
    fn every_cell_is_in_its_windows() {
        for i in 0..CELLS {
            let ws = windows_of(i);
            assert!(!ws.is_empty() && ws.len() <= 20);
            for &w in ws {
                assert!(WINDOW_MASKS[w as usize] & (1u128 << i) != 0);
            }
        }
        // A corner is in three windows (rank, file, one diagonal); the centre in 20.
        assert_eq!(windows_of(0).len(), 3);
        assert_eq!(windows_of(40).len(), 20);
    }

    #[test]
    fn a_ready_line_is_completed() {
        let mut board: Board = "
            .........
            .........
            .........
            .........
            RRRR.....
            .........
            .........
            ........R
            ........."
            .parse()
            .unwrap();
        let mut rng = SampleRng::new(1);
        let s = step(&mut board, &[Ball::Blue; 3], &Policy::default(), &mut rng).unwrap();
        assert!(s.line);
        assert_eq!(s.points, 10);
        assert_eq!(board.ball_count(), 0);
    }

    #[test]
    fn rollouts_play_legal_moves_until_the_board_fills() {
        for seed in 0..20u64 {
            let game = LinesGame::new(Settings::default(), [seed as u8; 32]);
            let mut board = *game.board();
            let mut rng = SampleRng::new(seed);
            let mut colors = SampleRng::new(!seed);
            let (pts, end) = play(
                board,
                &game.next_colors(),
                2000,
                &Policy::default(),
                &mut rng,
                &mut colors,
            );
            assert!(
                end.is_none(),
                "a rollout of 2,000 turns ends with a full board"
            );
            assert!(pts > 0);
            // Each step keeps the ball counts honest.
            let mut rng = SampleRng::new(seed);
            for _ in 0..30 {
                let before = board.ball_count();
                let Some(s) = step(
                    &mut board,
                    &[Ball::Red, Ball::Green, Ball::Blue],
                    &Policy::default(),
                    &mut rng,
                ) else {
                    break;
                };
                if s.line {
                    assert!(board.ball_count() + 4 <= before);
                } else {
                    assert!(board.ball_count() <= before + 3);
                }
            }
        }
    }
}
