//! Threats for the xiangqi evaluation: a side's pieces that the enemy attacks with a less
//! valuable piece, or attacks while nothing defends them ("hanging"), counted by the
//! threatened piece's band ([`threats_of`]). Quiescence resolves the side to move's
//! captures, so at a quiet leaf the open question is mostly the side to move's own pieces
//! under attack (it can save one, not two): the evaluation counts those only (the
//! opponent's threatened pieces are what the side to move's captures just resolved).
//!
//! The enemy's attacks are gathered once into an attack map (the least exchange value of
//! its attackers on every square, [`VALUES`](super::values::VALUES)): the rooks' and
//! cannons' rays from the rank and file occupancy, the leaps of the other pieces with
//! their legs and eyes. The own side's map (which pieces are defended) is built only when
//! a piece is attacked by nothing less valuable. Pins, checks and x-rays are ignored, like
//! in a static exchange.
//!
//! ```
//! use banco_engine::xiangqi::threats::{threats, threats_of};
//! use banco_game::Color;
//! use banco_xiangqi::Position;
//! // The black horse on e7 attacks the red rook on d5: a less valuable attacker.
//! let pos: Position = "4k4/9/4n4/9/3R5/9/9/9/9/4K4 w - - 0 1".parse().unwrap();
//! let [red, black] = threats(&pos);
//! assert_eq!(red.lower, [1, 0, 0]); // the rook, attacked by a horse
//! assert_eq!(red.hanging, [0, 0, 0]);
//! assert_eq!(black.lower, [0, 0, 0]);
//! assert_eq!(red.threatened(), 1);
//! assert_eq!(threats_of(&pos, Color::Red), red);
//! ```

use super::values::EXCHANGE_BY_CODE;
use banco_game::Color;
use banco_xiangqi::Position;
use banco_xiangqi::raw::{
    self, ADVISOR, CANNON, DOWN, HORSE, HORSE_STEPS, LEFT, Lines, PAWN, RIGHT, ROOK, UP,
};

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

/// 1 on the squares of both palaces.
static PALACE: [u8; 256] = {
    let mut t = [0; 256];
    let mut i = 0;
    while i < 256 {
        let (r, c) = (i >> 4, i & 15);
        if c >= 6 && c <= 8 && ((r >= 3 && r <= 5) || (r >= 10 && r <= 12)) {
            t[i] = 1;
        }
        i += 1;
    }
    t
};

/// The diagonal steps (wrapping).
const DIAG: [u8; 4] = [15, 17, 0u8.wrapping_sub(15), 0u8.wrapping_sub(17)];

/// The off-board square that takes the hits of blocked leaps (no branch needed): never a
/// piece's square, unlike square 0, where the slot of a captured piece points.
const NOWHERE: u8 = 1;

/// `ELEPHANT[s]`: the four `(eye, target)` pairs of an elephant on inner square `s`, with
/// `(0, NOWHERE)` where the target is off the board or across the river (square 0 is off
/// the board: its code reads empty).
static ELEPHANT: [[(u8, u8); 4]; 256] = {
    let mut t = [[(0u8, NOWHERE); 4]; 256];
    let mut s = 0;
    while s < 256 {
        let (r, c) = ((s >> 4) as i32, (s & 15) as i32);
        if raw::is_board_square(s as u8) {
            let red = r < 8;
            let mut k = 0;
            while k < 4 {
                let (dr, dc) = [(1, -1), (1, 1), (-1, 1), (-1, -1)][k];
                let (tr, tc) = (r + 2 * dr, c + 2 * dc);
                let target = (tr * 16 + tc) as u8;
                if tr >= 0 && tc >= 0 && raw::is_board_square(target) && (tr < 8) == red {
                    t[s][k] = (((r + dr) * 16 + c + dc) as u8, target);
                }
                k += 1;
            }
        }
        s += 1;
    }
    t
};

/// The least exchange value of `side`'s pieces attacking every square ([`NONE`] where
/// none does), into `a` (filled with [`NONE`] before). Only squares holding a piece are
/// meaningful: blocked leaps hit [`NOWHERE`] instead of a branch, and empty and
/// off-board targets are written too, harmlessly. Square 0, where captured pieces' slots
/// point, is never hit (every leap from it lands elsewhere off the board), so it reads
/// "not attacked".
#[inline(always)]
fn attack_map(a: &mut [u8; 256], b: &[u8; 256], lines: &Lines, list: &[u8; 16], side: usize) {
    // The pieces go from the most valuable to the least, so that a plain store leaves the
    // least value on every square.
    let mut hit = |t: u8, v: u8| a[t as usize] = v;
    // Exchange values are at most 100: they fit a byte.
    let val = |kind: u8| EXCHANGE_BY_CODE[kind as usize] as u8;
    let king = list[0];
    for d in [RIGHT, LEFT, UP, DOWN] {
        let t = king.wrapping_add(d);
        hit(if PALACE[t as usize] != 0 { t } else { NOWHERE }, val(0));
    }
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
    for &s in &list[5..7] {
        for pair in HORSE_STEPS.chunks_exact(2) {
            if let [(leg, d1), (_, d2)] = *pair {
                let free = b[s.wrapping_add(leg) as usize] == 0;
                hit(if free { s.wrapping_add(d1) } else { NOWHERE }, val(3));
                hit(if free { s.wrapping_add(d2) } else { NOWHERE }, val(3));
            }
        }
    }
    for &s in &list[9..11] {
        if s != 0 {
            let [right, left, up, down] = lines.runs(s);
            // The first piece each way is the screen; the next one beyond it is attacked.
            for (screen, d) in [
                (s + right + 1, RIGHT),
                (s - left - 1, LEFT),
                (s + ((up + 1) << 4), UP),
                (s - ((down + 1) << 4), DOWN),
            ] {
                if b[screen as usize] != 0
                    && let Some(t) = lines.first(screen, d)
                {
                    hit(t, val(5));
                }
            }
        }
    }
    for &s in &list[1..3] {
        // An advisor on the palace's centre reaches its four corners, one on a corner
        // the centre only.
        if s & 15 == 7 {
            for d in DIAG {
                hit(s.wrapping_add(d), val(1));
            }
        } else if s != 0 {
            let centre = if side == 0 { 0x47 } else { 0xB7 };
            hit(centre, val(1));
        }
    }
    for &s in &list[3..5] {
        for (eye, t) in ELEPHANT[s as usize] {
            hit(if b[eye as usize] == 0 { t } else { NOWHERE }, val(2));
        }
    }
    let forward = if side == 0 { UP } else { DOWN };
    for &s in &list[11..16] {
        hit(s.wrapping_add(forward), val(6));
        // Sideways once across the river (square 0 is on neither side's half).
        let crossed = ((s >> 4) >= 8) == (side == 0) && s != 0;
        hit(if crossed { s + 1 } else { NOWHERE }, val(6));
        hit(if crossed { s - 1 } else { NOWHERE }, val(6));
    }
}

/// The threatened pieces of `color` in `pos` (see [`Threats`]).
#[inline]
#[must_use]
pub fn threats_of(pos: &Position, color: Color) -> Threats {
    let v = color.index();
    let b = pos.raw_board();
    let lists = pos.raw_lists();
    let mut enemy = [NONE; 256];
    attack_map(&mut enemy, b, pos.raw_lines(), &lists[1 - v], 1 - v);
    let own = &lists[v];
    let val = |kind: u8| EXCHANGE_BY_CODE[kind as usize] as u8;
    let mut lower = [0u8; 3];
    // Pieces attacked by nothing less valuable: hanging unless defended, which is asked
    // after the loop (a second attack map, the own side's, only when there are any).
    let mut unsure = [(0u8, 0usize); 15];
    let mut n = 0;
    for (slots, value, band) in [
        (7..9, val(ROOK), 0),
        (5..7, val(HORSE), 1),
        (9..11, val(CANNON), 1),
        (1..5, val(ADVISOR), 2),
        (11..16, val(PAWN), 2),
    ] {
        for &s in &own[slots] {
            // A captured piece's square 0 is never attacked.
            let a = enemy[s as usize];
            if a < value {
                lower[band] += 1;
            } else if a != NONE {
                unsure[n] = (s, band);
                n += 1;
            }
        }
    }
    let mut hanging = [0u8; 3];
    if n > 0 {
        let mut defence = [NONE; 256];
        attack_map(&mut defence, b, pos.raw_lines(), own, v);
        for &(s, band) in &unsure[..n] {
            hanging[band] += u8::from(defence[s as usize] == NONE);
        }
    }
    Threats { lower, hanging }
}

/// The threatened pieces of Red (index 0) and Black (index 1) in `pos`.
#[must_use]
pub fn threats(pos: &Position) -> [Threats; 2] {
    [threats_of(pos, Color::Red), threats_of(pos, Color::Black)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Rng;
    use crate::xiangqi::see::attacks;

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
                let Some(mv) = crate::xiangqi::random_move(&pos, &mut rng, 3) else {
                    break;
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
