//! Constant tables of the internal 16×16 board: square `(rank + 3) × 16 + file + 3`, so
//! every on-board square has a margin of three off-board squares (reads two steps away from
//! any board square stay inside the 256-entry array; Red's "forward" is `+16`).

// Kind indices as stored in the low three bits of a piece code.
/// Kind code of the king (the low three bits of a piece code).
pub const KING: u8 = 0;
/// Kind code of an advisor.
pub const ADVISOR: u8 = 1;
/// Kind code of an elephant.
pub const ELEPHANT: u8 = 2;
/// Kind code of a horse.
pub const HORSE: u8 = 3;
/// Kind code of a rook.
pub const ROOK: u8 = 4;
/// Kind code of a cannon.
pub const CANNON: u8 = 5;
/// Kind code of a pawn.
pub const PAWN: u8 = 6;

/// Code base of a side's pieces (`side` 0 Red, 1 Black): Red 8, Black 16.
#[inline(always)]
#[must_use]
pub const fn side_base(side: usize) -> u8 {
    8 << side
}

/// Side (0 Red, 1 Black) of a non-empty code.
#[inline(always)]
#[must_use]
pub const fn code_side(code: u8) -> usize {
    (code >> 4) as usize
}

const fn build_in_board() -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let (r, c) = (i >> 4, i & 15);
        t[i] = r >= 3 && r <= 12 && c >= 3 && c <= 11;
        i += 1;
    }
    t
}

const fn build_in_palace() -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let (r, c) = (i >> 4, i & 15);
        t[i] = c >= 6 && c <= 8 && ((r >= 3 && r <= 5) || (r >= 10 && r <= 12));
        i += 1;
    }
    t
}

const fn build_board_index() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let (r, c) = (i >> 4, i & 15);
        if r >= 3 && r <= 12 && c >= 3 && c <= 11 {
            t[i] = ((r - 3) * 9 + (c - 3)) as u8;
        }
        i += 1;
    }
    t
}

/// Board index (rank × 9 + file, 0–89) of each inner square; 0 off the board.
pub(crate) static BOARD_INDEX: [u8; 256] = build_board_index();

/// On-board squares.
pub(crate) static IN_BOARD: [bool; 256] = build_in_board();
/// The two palaces.
pub(crate) static IN_PALACE: [bool; 256] = build_in_palace();

/// True if `sq` (on board) is on `side`'s own half (Red ranks 0–4, Black ranks 5–9).
#[inline(always)]
pub(crate) const fn own_half(side: usize, sq: u8) -> bool {
    ((sq >> 4) < 8) == (side == 0)
}

/// Forward step of `side`.
#[inline(always)]
pub(crate) const fn forward(side: usize) -> u8 {
    if side == 0 { 16 } else { 0u8.wrapping_sub(16) }
}

/// Orthogonal steps (up, down, right, left) as wrapping `u8` deltas.
pub(crate) const ORTHO: [u8; 4] = [16, 0u8.wrapping_sub(16), 1, 0u8.wrapping_sub(1)];
/// Diagonal steps.
pub(crate) const DIAG: [u8; 4] = [17, 15, 0u8.wrapping_sub(15), 0u8.wrapping_sub(17)];

/// Horse moves as (leg, target) pairs of wrapping `u8` deltas on the inner board, the two
/// targets of each leg one after the other.
pub const HORSE_STEPS: [(u8, u8); 8] = {
    const fn m(d: i32) -> u8 {
        d as u8
    }
    [
        (m(16), m(33)),
        (m(16), m(31)),
        (m(-16), m(-33)),
        (m(-16), m(-31)),
        (m(1), m(18)),
        (m(1), m(-14)),
        (m(-1), m(14)),
        (m(-1), m(-18)),
    ]
};

/// First slot of each kind (by kind code) in a side's piece list.
pub const SLOT_BASE: [u8; 7] = [0, 1, 3, 5, 7, 9, 11];
/// Kind code of each of the 16 slots of a side's piece list.
pub const SLOT_KIND: [u8; 16] = [
    KING, ADVISOR, ADVISOR, ELEPHANT, ELEPHANT, HORSE, HORSE, ROOK, ROOK, CANNON, CANNON, PAWN,
    PAWN, PAWN, PAWN, PAWN,
];

/// The squares a leaping piece (king, advisor, elephant, horse, pawn) can reach from one
/// square, each with the square that must be empty on the way (an elephant's eye, a
/// horse's leg; square 0, which is off the board and always empty, for the others).
/// Precomputed so that generation needs no board-edge, palace or river test.
#[derive(Clone, Copy)]
pub(crate) struct Leaps {
    pub(crate) len: u8,
    pub(crate) to: [u8; 8],
    pub(crate) via: [u8; 8],
}

impl Leaps {
    /// No leap at all (sliding pieces).
    pub(crate) const NONE: Leaps = Leaps::EMPTY;

    const EMPTY: Leaps = Leaps {
        len: 0,
        to: [0; 8],
        via: [0; 8],
    };

    const fn push(mut self, to: u8, via: u8) -> Leaps {
        self.to[self.len as usize] = to;
        self.via[self.len as usize] = via;
        self.len += 1;
        self
    }

    /// The (target, via) pairs.
    #[inline(always)]
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        self.to
            .iter()
            .copied()
            .zip(self.via.iter().copied())
            .take(self.len as usize)
    }
}

/// Kind codes of the leap tables' builder: king, advisor, elephant, horse, red pawn, black
/// pawn, and jieqi's free advisor and elephant ([`FREE_ADVISOR`], [`FREE_ELEPHANT`]).
const fn build_leaps(kind: u8) -> [Leaps; 256] {
    let in_board = build_in_board();
    let in_palace = build_in_palace();
    let mut t = [Leaps::EMPTY; 256];
    let mut f = 0;
    while f < 256 {
        if in_board[f] {
            let s = f as u8;
            let mut l = Leaps::EMPTY;
            let mut i = 0;
            while i < 8 {
                match kind {
                    KING | ADVISOR => {
                        if i < 4 {
                            let d = if kind == KING { ORTHO[i] } else { DIAG[i] };
                            let to = s.wrapping_add(d);
                            if in_palace[f] && in_palace[to as usize] {
                                l = l.push(to, 0);
                            }
                        }
                    }
                    ELEPHANT => {
                        if i < 4 {
                            let eye = s.wrapping_add(DIAG[i]);
                            let to = eye.wrapping_add(DIAG[i]);
                            // An elephant never crosses the river.
                            if in_board[to as usize] && (to >> 4 < 8) == (s >> 4 < 8) {
                                l = l.push(to, eye);
                            }
                        }
                    }
                    FREE_ADVISOR => {
                        if i < 4 {
                            let to = s.wrapping_add(DIAG[i]);
                            if in_board[to as usize] {
                                l = l.push(to, 0);
                            }
                        }
                    }
                    FREE_ELEPHANT => {
                        if i < 4 {
                            let eye = s.wrapping_add(DIAG[i]);
                            let to = eye.wrapping_add(DIAG[i]);
                            if in_board[to as usize] {
                                l = l.push(to, eye);
                            }
                        }
                    }
                    HORSE => {
                        let (leg, d) = HORSE_STEPS[i];
                        let to = s.wrapping_add(d);
                        if in_board[to as usize] {
                            l = l.push(to, s.wrapping_add(leg));
                        }
                    }
                    _ => {
                        // Pawns: kind PAWN for Red, PAWN + 1 for Black.
                        let side = (kind - PAWN) as usize;
                        if i == 0 {
                            let to = s.wrapping_add(forward(side));
                            if in_board[to as usize] {
                                l = l.push(to, 0);
                            }
                        } else if i < 3 && !own_half(side, s) {
                            let to = if i == 1 {
                                s.wrapping_add(1)
                            } else {
                                s.wrapping_sub(1)
                            };
                            if in_board[to as usize] {
                                l = l.push(to, 0);
                            }
                        }
                    }
                }
                i += 1;
            }
            t[f] = l;
        }
        f += 1;
    }
    t
}

/// Builder codes of jieqi's revealed advisor and elephant, which go anywhere on the board.
const FREE_ADVISOR: u8 = 8;
/// See [`FREE_ADVISOR`].
const FREE_ELEPHANT: u8 = 9;

/// Jieqi: a revealed advisor's steps (one diagonal step, anywhere on the board).
pub(crate) static FREE_ADVISOR_LEAPS: [Leaps; 256] = build_leaps(FREE_ADVISOR);
/// Jieqi: a revealed elephant's leaps (two diagonal steps over an empty eye, across the
/// river too).
pub(crate) static FREE_ELEPHANT_LEAPS: [Leaps; 256] = build_leaps(FREE_ELEPHANT);

/// Leaps of each kind from each square; pawns by side.
pub(crate) static KING_LEAPS: [Leaps; 256] = build_leaps(KING);
pub(crate) static ADVISOR_LEAPS: [Leaps; 256] = build_leaps(ADVISOR);
pub(crate) static ELEPHANT_LEAPS: [Leaps; 256] = build_leaps(ELEPHANT);
pub(crate) static HORSE_LEAPS: [Leaps; 256] = build_leaps(HORSE);
pub(crate) static PAWN_LEAPS: [[Leaps; 256]; 2] = [build_leaps(PAWN), build_leaps(PAWN + 1)];

const fn build_inner_of() -> [u8; 128] {
    let mut t = [0u8; 128];
    let mut i = 0;
    while i < 90 {
        t[i] = (((i / 9) + 3) * 16 + (i % 9) + 3) as u8;
        i += 1;
    }
    t
}

/// Inner square of each board index 0–89 (the inverse of [`BOARD_INDEX`]); entries
/// 90–127 are 0 (off the board), so any bit index of a `u128` masked with 127 is a valid
/// index.
pub(crate) static INNER_OF: [u8; 128] = build_inner_of();

/// The bit of board square `s` in a side's occupancy set ([`Position::occ`]: bit = board
/// index). `s` must be on the board.
///
/// [`Position::occ`]: crate::position::Position
#[inline(always)]
pub(crate) fn bit(s: u8) -> u128 {
    1u128 << BOARD_INDEX[s as usize]
}

/// The squares of the set bits of an occupancy set, lowest board index first.
#[inline(always)]
pub(crate) fn bit_squares(mut set: u128) -> impl Iterator<Item = u8> {
    core::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let i = set.trailing_zeros();
        set &= set - 1;
        Some(INNER_OF[(i & 127) as usize])
    })
}

const fn build_leap_bits(kind: u8) -> [u128; 90] {
    let leaps = build_leaps(kind);
    let index = build_board_index();
    let inner = build_inner_of();
    let mut t = [0u128; 90];
    let mut i = 0;
    while i < 90 {
        let l = &leaps[inner[i] as usize];
        let mut j = 0;
        while j < l.len as usize {
            t[i] |= 1u128 << index[l.to[j] as usize];
            j += 1;
        }
        i += 1;
    }
    t
}

/// The targets of a leaping piece from each board index as occupancy bits (whatever the
/// legs and eyes): king, advisor, elephant, horse, red pawn, black pawn. And-ed with the
/// enemy's pieces they leave the candidate captures, usually none.
pub(crate) static LEAP_BITS: [[u128; 90]; 6] = [
    build_leap_bits(KING),
    build_leap_bits(ADVISOR),
    build_leap_bits(ELEPHANT),
    build_leap_bits(HORSE),
    build_leap_bits(PAWN),
    build_leap_bits(PAWN + 1),
];

const fn build_horse_legs() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 8 {
        let (leg, d) = HORSE_STEPS[i];
        t[d as usize] = leg;
        i += 1;
    }
    t
}

/// The leg of a horse's leap, by the leap's delta (`to − from`, wrapping): the square
/// `from + HORSE_LEG[delta]` must be empty.
pub(crate) static HORSE_LEG: [u8; 256] = build_horse_legs();
