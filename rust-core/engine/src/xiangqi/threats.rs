//! Threats for the xiangqi evaluation: each side's pieces that the enemy attacks with a
//! less valuable piece, or attacks while nothing defends them ("hanging"), counted by the
//! threatened piece's band ([`threats`]). Quiescence resolves the side to move's captures,
//! so at a quiet leaf these counts say mostly what the side to move must still answer (it
//! can save one piece, not two) and what the opponent must answer next.
//!
//! Both sides' attacks are gathered once into two attack maps (the least exchange value of
//! each side's attackers on every square, [`VALUES`](super::values::VALUES)): the rooks'
//! and cannons' rays from the rank and file occupancy, the leaps of the other pieces with
//! their legs and eyes. Pins, checks and x-rays are ignored, like in a static exchange.
//!
//! ```
//! use banco_engine::xiangqi::threats::threats;
//! use banco_xiangqi::Position;
//! // The black horse on e7 attacks the red rook on d5: a less valuable attacker.
//! let pos: Position = "4k4/9/4n4/9/3R5/9/9/9/9/4K4 w - - 0 1".parse().unwrap();
//! let [red, black] = threats(&pos);
//! assert_eq!(red.lower, [1, 0, 0]); // the rook, attacked by a horse
//! assert_eq!(red.hanging, [0, 0, 0]);
//! assert_eq!(black.lower, [0, 0, 0]);
//! assert_eq!(red.threatened(), 1);
//! ```

use super::values::EXCHANGE_BY_CODE;
use banco_xiangqi::Position;
use banco_xiangqi::raw::{DOWN, HORSE_STEPS, LEFT, Lines, RIGHT, SLOT_KIND, UP};

/// The threatened pieces of one side, by band: rooks (0), horses and cannons (1), advisors,
/// elephants and pawns (2). A piece counts once: in [`lower`](Threats::lower) when an
/// enemy piece of lower exchange value attacks it, else in [`hanging`](Threats::hanging)
/// when it is attacked and no own piece defends it. Kings never count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Threats {
    /// Pieces attacked by a less valuable enemy piece.
    pub lower: [u8; 3],
    /// Pieces attacked (by an equal or more valuable piece only) and not defended.
    pub hanging: [u8; 3],
}

impl Threats {
    /// All threatened pieces of the side.
    #[must_use]
    pub fn threatened(&self) -> u8 {
        self.lower.iter().chain(&self.hanging).sum()
    }
}

/// The band of each kind code (king, advisor, elephant, horse, rook, cannon, pawn; the
/// king's entry is never read).
pub const BAND: [usize; 7] = [2, 2, 2, 1, 0, 1, 2];

/// "Not attacked" in an attack map.
const NONE: u8 = 0xFF;

#[inline(always)]
fn in_palace(s: u8) -> bool {
    let (r, c) = (s >> 4, s & 15);
    (6..=8).contains(&c) && ((3..=5).contains(&r) || (10..=12).contains(&r))
}

/// The least exchange value of `side`'s pieces attacking every square ([`NONE`] where
/// none does). Only squares holding a piece are meaningful (off-board and empty targets
/// are written too, harmlessly).
#[inline(always)]
fn attack_map(b: &[u8; 256], lines: &Lines, list: &[u8; 16], side: usize) -> [u8; 256] {
    let mut a = [NONE; 256];
    let mut hit = |t: u8, v: u8| {
        let e = &mut a[t as usize];
        *e = (*e).min(v);
    };
    // Exchange values are at most 100: they fit a byte.
    let val = |kind: u8| EXCHANGE_BY_CODE[kind as usize] as u8;
    let king = list[0];
    if king != 0 {
        for d in [RIGHT, LEFT, UP, DOWN] {
            let t = king.wrapping_add(d);
            if in_palace(t) {
                hit(t, val(0));
            }
        }
    }
    for &s in &list[1..3] {
        if s != 0 {
            for d in [15u8, 17, 0u8.wrapping_sub(15), 0u8.wrapping_sub(17)] {
                let t = s.wrapping_add(d);
                if in_palace(t) {
                    hit(t, val(1));
                }
            }
        }
    }
    for &s in &list[3..5] {
        if s != 0 {
            for d in [15u8, 17, 0u8.wrapping_sub(15), 0u8.wrapping_sub(17)] {
                let t = s.wrapping_add(d).wrapping_add(d);
                // The eye is empty and the target on the own side of the river (rows 3–7
                // for Red, 8–12 for Black; off-board targets hold no piece).
                if b[s.wrapping_add(d) as usize] == 0 && ((t >> 4) < 8) == (side == 0) {
                    hit(t, val(2));
                }
            }
        }
    }
    for &s in &list[5..7] {
        if s != 0 {
            for pair in HORSE_STEPS.chunks_exact(2) {
                if let [(leg, d1), (_, d2)] = *pair {
                    if b[s.wrapping_add(leg) as usize] == 0 {
                        hit(s.wrapping_add(d1), val(3));
                        hit(s.wrapping_add(d2), val(3));
                    }
                }
            }
        }
    }
    let dirs = [RIGHT, LEFT, UP, DOWN];
    for &s in &list[7..9] {
        if s != 0 {
            let [right, left, up, down] = lines.runs(s);
            for t in [
                s + right + 1,
                s - left - 1,
                s + ((up + 1) << 4),
                s - ((down + 1) << 4),
            ] {
                hit(t, val(4));
            }
        }
    }
    for &s in &list[9..11] {
        if s != 0 {
            for d in dirs {
                if let Some(t) = lines.first(s, d).and_then(|screen| lines.first(screen, d)) {
                    hit(t, val(5));
                }
            }
        }
    }
    let forward = if side == 0 { UP } else { DOWN };
    for &s in &list[11..16] {
        if s != 0 {
            hit(s.wrapping_add(forward), val(6));
            if ((s >> 4) >= 8) == (side == 0) {
                hit(s + 1, val(6));
                hit(s - 1, val(6));
            }
        }
    }
    a
}

/// The threatened pieces of Red (index 0) and Black (index 1) in `pos` (see
/// [`Threats`]).
#[must_use]
pub fn threats(pos: &Position) -> [Threats; 2] {
    let b = pos.raw_board();
    let lists = pos.raw_lists();
    let lines = pos.raw_lines();
    let maps = [
        attack_map(b, lines, &lists[0], 0),
        attack_map(b, lines, &lists[1], 1),
    ];
    let mut out = [Threats::default(); 2];
    for (v, t) in out.iter_mut().enumerate() {
        let (enemy, own) = (&maps[1 - v], &maps[v]);
        for (slot, &s) in lists[v].iter().enumerate().skip(1) {
            if s == 0 {
                continue;
            }
            let a = enemy[s as usize];
            if a == NONE {
                continue;
            }
            let kind = SLOT_KIND[slot];
            let band = BAND[kind as usize];
            if i32::from(a) < EXCHANGE_BY_CODE[kind as usize] {
                t.lower[band] += 1;
            } else if own[s as usize] == NONE {
                t.hanging[band] += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Rng;
    use crate::xiangqi::see::attacks;
    use banco_game::Color;
    use banco_xiangqi::raw;

    /// [`threats`] the slow way: every pair of pieces through the static exchange's own
    /// attack test.
    fn naive(pos: &Position) -> [Threats; 2] {
        let b = pos.raw_board();
        let mut out = [Threats::default(); 2];
        for victim in Color::ALL {
            let v = victim.index();
            for (sq, kind) in pos.pieces_of(victim) {
                let k = kind as usize;
                if k == 0 {
                    continue;
                }
                let t = raw::inner(sq);
                let least = |side: usize| {
                    pos.pieces_of(if side == 0 { Color::Red } else { Color::Black })
                        .filter(|&(s, _)| {
                            let s = raw::inner(s);
                            attacks(b, b[s as usize], s, t, side)
                        })
                        .map(|(_, kk)| EXCHANGE_BY_CODE[kk as usize])
                        .min()
                };
                let Some(a) = least(1 - v) else { continue };
                if a < EXCHANGE_BY_CODE[k] {
                    out[v].lower[BAND[k]] += 1;
                } else if least(v).is_none() {
                    out[v].hanging[BAND[k]] += 1;
                }
            }
        }
        out
    }

    #[test]
    fn threats_match_a_naive_count_over_random_games() {
        let mut rng = Rng::new(0x7412);
        let mut seen = 0;
        for _ in 0..150 {
            let mut pos = Position::startpos();
            for _ in 0..160 {
                let fast = threats(&pos);
                assert_eq!(fast, naive(&pos), "{pos:?}");
                seen += usize::from(fast[0].threatened() + fast[1].threatened() > 0);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let caps: Vec<_> = moves
                    .iter()
                    .copied()
                    .filter(|&m| pos.captured_kind(m).is_some())
                    .collect();
                let mv = if !caps.is_empty() && rng.next_u64() % 3 == 0 {
                    caps[(rng.next_u64() % caps.len() as u64) as usize]
                } else {
                    moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize]
                };
                pos.make(mv);
            }
        }
        assert!(seen > 5_000, "{seen}");
    }

    #[test]
    fn set_positions() {
        // A red cannon on e2 behind the screen e5 attacks the black horse on e8, which the
        // black king does not defend (not adjacent) and nothing else does: hanging.
        let pos: Position = "3k5/9/4n4/9/9/4P4/9/4C4/9/4K4 w - - 0 1".parse().unwrap();
        let [red, black] = threats(&pos);
        assert_eq!(black.hanging, [0, 1, 0]);
        assert_eq!(black.lower, [0, 0, 0]);
        // The horse attacks none of the red pieces.
        assert_eq!(red.threatened(), 0);
        // A pawn across the river attacks a rook beside it: lower.
        let pos: Position = "4k4/9/9/9/3Pr4/9/9/9/9/3K5 b - - 0 1".parse().unwrap();
        let [red, black] = threats(&pos);
        assert_eq!(black.lower, [1, 0, 0]);
        // The black rook attacks the red pawn, which nothing defends.
        assert_eq!(red.hanging, [0, 0, 1]);
    }
}
