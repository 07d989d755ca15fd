//! Zobrist keys: one random 64-bit key per (piece, square) and one for the side to move,
//! generated at compile time from a fixed seed so hashes are stable across builds and
//! platforms (the network protocol sends their low 32 bits).

pub(crate) const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Keys indexed by `[color × 7 + kind][inner square]`.
pub(crate) static PIECE_KEYS: [[u64; 256]; 14] = {
    let mut t = [[0u64; 256]; 14];
    let mut state = 0x0BA1_C0DE_5EED_u64;
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < 256 {
            let (ns, v) = splitmix(state);
            state = ns;
            t[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    t
};

/// Key XORed in when Black is to move.
pub(crate) const SIDE_KEY: u64 = splitmix(0xB1AC_u64).1;

/// Key of the piece with internal `code` on inner square `sq`.
#[inline(always)]
pub(crate) fn piece_key(code: u8, sq: u8) -> u64 {
    let idx = (code & 7) as usize + if code & 16 != 0 { 7 } else { 0 };
    PIECE_KEYS.get(idx).map_or(0, |row| row[sq as usize])
}
