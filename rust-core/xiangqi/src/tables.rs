//! Constant tables of the internal 16×16 board: square `(rank + 3) × 16 + file + 3`, so
//! every on-board square has a margin of three off-board squares (reads two steps away from
//! any board square stay inside the 256-entry array; Red's "forward" is `+16`).

/// Kind indices as stored in the low three bits of a piece code.
pub(crate) const KING: u8 = 0;
pub(crate) const ADVISOR: u8 = 1;
pub(crate) const ELEPHANT: u8 = 2;
pub(crate) const HORSE: u8 = 3;
pub(crate) const ROOK: u8 = 4;
pub(crate) const CANNON: u8 = 5;
pub(crate) const PAWN: u8 = 6;

/// Code base of a side's pieces: Red 8, Black 16.
#[inline(always)]
pub(crate) const fn side_base(side: usize) -> u8 {
    8 << side
}

/// Side (0 Red, 1 Black) of a non-empty code.
#[inline(always)]
pub(crate) const fn code_side(code: u8) -> usize {
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

/// Horse moves as (leg, target) pairs of deltas.
pub(crate) const HORSE_STEPS: [(u8, u8); 8] = {
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

/// First slot of each kind in a side's piece list and how many slots it has.
pub(crate) const SLOT_BASE: [u8; 7] = [0, 1, 3, 5, 7, 9, 11];
/// Kind of each of the 16 slots.
pub(crate) const SLOT_KIND: [u8; 16] = [
    KING, ADVISOR, ADVISOR, ELEPHANT, ELEPHANT, HORSE, HORSE, ROOK, ROOK, CANNON, CANNON, PAWN,
    PAWN, PAWN, PAWN, PAWN,
];
