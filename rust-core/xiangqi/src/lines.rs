//! Occupancy of every rank and file as bit sets, kept up to date by make/unmake, so that
//! sliding pieces find their first and second blockers with one bit scan instead of a walk
//! along the board.
//!
//! Rows and columns are those of the internal 16×16 board: `rows[square >> 4]` has bit
//! `square & 15` set for each occupied square of that rank, `cols[square & 15]` has bit
//! `square >> 4` set for each occupied square of that file. Off-board bits are never set.

use crate::position::Position;

/// The step right (toward file i) on the inner board.
pub const RIGHT: u8 = 1;
/// The step left (toward file a), a wrapping −1.
pub const LEFT: u8 = 0xFF;
/// The step up (toward Black's side).
pub const UP: u8 = 16;
/// The step down (toward Red's side), a wrapping −16: the remaining (`_`) case of every
/// match below.
pub const DOWN: u8 = 0xF0;

/// The bits of the off-board squares just beyond the edges: files 2 and 12 of a rank,
/// ranks 2 and 13 of a file. Or-ed into a line's occupancy, they stop every scan at the
/// edge, so that [`Lines::runs`] always finds one.
const ROW_EDGES: u16 = (1 << 2) | (1 << 12);
/// See [`ROW_EDGES`].
const COL_EDGES: u16 = (1 << 2) | (1 << 13);

/// Rank and file occupancy: `rows[s >> 4]` has bit `s & 15` set for each occupied inner
/// square `s` of that rank, `cols[s & 15]` bit `s >> 4` for each of that file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lines {
    rows: [u16; 16],
    cols: [u16; 16],
}

impl Lines {
    /// Marks inner square `s` occupied.
    #[inline(always)]
    pub(crate) fn set(&mut self, s: u8) {
        self.rows[(s >> 4) as usize] |= 1 << (s & 15);
        self.cols[(s & 15) as usize] |= 1 << (s >> 4);
    }

    /// Marks inner square `s` empty.
    #[inline(always)]
    pub(crate) fn clear(&mut self, s: u8) {
        self.rows[(s >> 4) as usize] &= !(1 << (s & 15));
        self.cols[(s & 15) as usize] &= !(1 << (s >> 4));
    }

    /// The first occupied square from `s` (exclusive) in direction `d` (one of the four
    /// orthogonal steps: 1 right, 0xFF left, 16 up, 0xF0 down), if any before the edge.
    #[inline(always)]
    #[must_use]
    pub fn first(&self, s: u8, d: u8) -> Option<u8> {
        scan(self.line(s, d), s, d)
    }

    /// The occupied squares beyond `s` each way, as line bit sets: right and left as bits
    /// of the rank (bit = file nibble), up and down as bits of the file (bit = rank
    /// nibble). The nearest piece is the lowest bit of `right` and `up`, the highest of
    /// `left` and `down`.
    #[inline(always)]
    pub(crate) fn beyond(&self, s: u8) -> [u16; 4] {
        let (r, c) = (u32::from(s >> 4), u32::from(s & 15));
        let row = u32::from(self.rows[r as usize]);
        let col = u32::from(self.cols[c as usize]);
        // Nibbles are at most 15, so no shift overflows a u32.
        [
            (row >> (c + 1)) << (c + 1),
            row & ((1 << c) - 1),
            (col >> (r + 1)) << (r + 1),
            col & ((1 << r) - 1),
        ]
        .map(|x| x as u16)
    }

    /// The number of empty squares from the board square `s` (exclusive) to the first
    /// piece or the edge in each direction: right, left, up, down. The ray in direction `d`
    /// thus stops on `s + (run + 1) × d`, a piece or the off-board square just past the edge
    /// (which reads as empty on the board).
    #[inline(always)]
    #[must_use]
    pub fn runs(&self, s: u8) -> [u8; 4] {
        let (r, c) = (u32::from(s >> 4), u32::from(s & 15));
        let row = u32::from(self.rows[r as usize] | ROW_EDGES);
        let col = u32::from(self.cols[c as usize] | COL_EDGES);
        // Board squares have both nibbles in 3..=12, so each side of `s` holds an edge bit
        // at least; the extra bit 31 (above) or 0 (below every edge bit) changes no count
        // and only spares the compiler a zero test.
        let right = ((row >> (c + 1)) | 1 << 31).trailing_zeros();
        let left = ((row << (32 - c)) | 1).leading_zeros();
        let up = ((col >> (r + 1)) | 1 << 31).trailing_zeros();
        let down = ((col << (32 - r)) | 1).leading_zeros();
        [right, left, up, down].map(|n| n as u8)
    }

    /// Number of pieces strictly between the squares `a` and `b` of one file.
    #[inline(always)]
    #[must_use]
    pub fn between_on_file(&self, a: u8, b: u8) -> u32 {
        let (lo, hi) = if a < b {
            (a >> 4, b >> 4)
        } else {
            (b >> 4, a >> 4)
        };
        // Rows lo+1 ..= hi-1.
        let mask = (1u16 << hi).wrapping_sub(2u16 << lo);
        (self.cols[(a & 15) as usize] & mask).count_ones()
    }

    /// The occupancy of the rank (horizontal `d`) or file (vertical `d`) of `s`.
    #[inline(always)]
    fn line(&self, s: u8, d: u8) -> u16 {
        if d == RIGHT || d == LEFT {
            self.rows[(s >> 4) as usize]
        } else {
            self.cols[(s & 15) as usize]
        }
    }

    /// The square just beyond the board edge from `s` in direction `d`.
    #[inline(always)]
    pub(crate) fn edge(s: u8, d: u8) -> u8 {
        match d {
            RIGHT => (s & 0xF0) | 0x0C,
            LEFT => (s & 0xF0) | 0x02,
            UP => 0xD0 | (s & 0x0F),
            _ => 0x20 | (s & 0x0F),
        }
    }
}

/// The first set bit of the line occupancy `occ` of `s` beyond `s` in direction `d`, as
/// a square.
#[inline(always)]
fn scan(occ: u16, s: u8, d: u8) -> Option<u8> {
    let (r, c) = (s >> 4, s & 15);
    match d {
        RIGHT => {
            let occ = occ >> (c + 1);
            (occ != 0).then(|| s + 1 + occ.trailing_zeros() as u8)
        }
        LEFT => {
            let occ = occ & ((1u16 << c) - 1);
            (occ != 0).then(|| (s & 0xF0) | occ.ilog2() as u8)
        }
        UP => {
            let occ = occ >> (r + 1);
            (occ != 0).then(|| s + 16 * (1 + occ.trailing_zeros() as u8))
        }
        _ => {
            let occ = occ & ((1u16 << r) - 1);
            (occ != 0).then(|| ((occ.ilog2() as u8) << 4) | c)
        }
    }
}

impl Position {
    /// The occupancy bit sets recomputed from the board (tests compare them with the
    /// incremental ones).
    #[cfg(test)]
    pub(crate) fn compute_lines(&self) -> Lines {
        let mut l = Lines::default();
        for s in 0..=255u8 {
            if self.board[s as usize] != 0 {
                l.set(s);
            }
        }
        l
    }

    /// Each side's occupancy set recomputed from the board.
    #[cfg(test)]
    pub(crate) fn compute_occ(&self) -> [u128; 2] {
        let mut occ = [0; 2];
        for s in 0..=255u8 {
            let p = self.board[s as usize];
            if p != 0 {
                occ[crate::tables::code_side(p)] |= crate::tables::bit(s);
            }
        }
        occ
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::{IN_BOARD, ORTHO};
    use banco_game::MoveList;

    /// The first blocker by walking, for comparison.
    fn walk(pos: &Position, s: u8, d: u8) -> Option<u8> {
        let mut x = s.wrapping_add(d);
        while IN_BOARD[x as usize] {
            if pos.board[x as usize] != 0 {
                return Some(x);
            }
            x = x.wrapping_add(d);
        }
        None
    }

    #[test]
    fn blockers_match_a_walk_along_random_games() {
        let mut pos = Position::startpos();
        let mut moves: MoveList<crate::Move> = MoveList::new();
        let mut seed = 12345u64;
        for _ in 0..3000 {
            assert_eq!(pos.lines, pos.compute_lines());
            assert_eq!(pos.occ, pos.compute_occ());
            pos.generate_legal(&mut moves);
            if moves.is_empty() || pos.halfmoves() > 100 {
                pos = Position::startpos();
                continue;
            }
            for s in 0..=255u8 {
                if IN_BOARD[s as usize] {
                    for d in ORTHO {
                        assert_eq!(pos.lines.first(s, d), walk(&pos, s, d), "{s} {d}");
                        // `beyond`: the nearest piece each way is its nearest bit.
                        let [right, left, up, down] = pos.lines.beyond(s);
                        let near = match d {
                            RIGHT => {
                                (right != 0).then(|| (s & 0xF0) | right.trailing_zeros() as u8)
                            }
                            LEFT => left.checked_ilog2().map(|i| (s & 0xF0) | i as u8),
                            UP => (up != 0).then(|| ((up.trailing_zeros() as u8) << 4) | (s & 15)),
                            _ => down.checked_ilog2().map(|i| ((i as u8) << 4) | (s & 15)),
                        };
                        assert_eq!(near, walk(&pos, s, d), "{s} {d}");
                        let stop = walk(&pos, s, d).unwrap_or(Lines::edge(s, d));
                        let i = [RIGHT, LEFT, UP, DOWN].iter().position(|&x| x == d);
                        let run = pos.lines.runs(s)[i.unwrap()];
                        assert_eq!(stop, s.wrapping_add(d.wrapping_mul(run + 1)), "{s} {d}");
                        let e = Lines::edge(s, d);
                        assert!(!IN_BOARD[e as usize] && IN_BOARD[e.wrapping_sub(d) as usize]);
                    }
                    // Every other square of the file: pieces strictly between, by walking.
                    let mut x = s.wrapping_add(UP);
                    let mut n = 0;
                    while IN_BOARD[x as usize] {
                        assert_eq!(pos.lines.between_on_file(s, x), n, "{s} {x}");
                        assert_eq!(pos.lines.between_on_file(x, s), n, "{x} {s}");
                        n += u32::from(pos.board[x as usize] != 0);
                        x = x.wrapping_add(UP);
                    }
                }
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mv = moves.as_slice()[(seed >> 33) as usize % moves.len()];
            let before = pos.clone();
            let undo = pos.make(mv);
            if seed & (1 << 20) != 0 {
                pos.unmake(mv, undo);
                assert_eq!(pos.lines, before.lines);
                assert_eq!(pos.occ, before.occ);
                pos.make(mv);
            }
        }
    }
}
