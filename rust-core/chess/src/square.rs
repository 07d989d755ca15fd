//! Squares as plain indices `0..64`: a1 = 0, b1 = 1, …, h1 = 7, a2 = 8, …, h8 = 63 (the
//! order cozy-chess uses), so `file = sq % 8` and `rank = sq / 8`, both from 0.
//!
//! ```
//! use banco_chess::square;
//! assert_eq!(square::parse("e4"), Some(28));
//! assert_eq!(square::name(28), "e4");
//! assert_eq!((square::file(28), square::rank(28)), (4, 3));
//! assert_eq!(square::parse("i9"), None);
//! ```

use cozy_chess::{File, Rank, Square};

/// The file of a square, 0 (a) to 7 (h).
#[inline]
#[must_use]
pub const fn file(sq: u8) -> u8 {
    sq % 8
}

/// The rank of a square, 0 (rank 1) to 7 (rank 8).
#[inline]
#[must_use]
pub const fn rank(sq: u8) -> u8 {
    sq / 8 % 8
}

/// The square on `file` and `rank` (both 0..8); `None` off the board.
#[inline]
#[must_use]
pub const fn at(file: u8, rank: u8) -> Option<u8> {
    if file < 8 && rank < 8 {
        Some(rank * 8 + file)
    } else {
        None
    }
}

/// The name of a square (`e4`); squares past 63 are named as `sq % 64`.
#[must_use]
pub fn name(sq: u8) -> String {
    let mut s = String::with_capacity(2);
    s.push(char::from(b'a' + file(sq)));
    s.push(char::from(b'1' + rank(sq)));
    s
}

/// The square named by two characters like `e4` (the file letter may be upper case).
#[must_use]
pub fn parse(text: &str) -> Option<u8> {
    match text.as_bytes() {
        &[f, r] => {
            let f = f.to_ascii_lowercase();
            if (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r) {
                at(f - b'a', r - b'1')
            } else {
                None
            }
        }
        _ => None,
    }
}

/// The cozy-chess square of an index (taken modulo 64).
#[inline]
#[must_use]
pub(crate) fn to_cozy(sq: u8) -> Square {
    Square::ALL[usize::from(sq & 63)]
}

/// The index of a cozy-chess square.
#[inline]
#[must_use]
pub(crate) fn from_cozy(sq: Square) -> u8 {
    sq as u8
}

/// The cozy-chess file of a file index (taken modulo 8).
#[inline]
pub(crate) fn cozy_file(file: u8) -> File {
    File::ALL[usize::from(file & 7)]
}

/// The cozy-chess rank of a rank index (taken modulo 8).
#[inline]
pub(crate) fn cozy_rank(rank: u8) -> Rank {
    Rank::ALL[usize::from(rank & 7)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_match_cozy() {
        for sq in 0..64u8 {
            let c = to_cozy(sq);
            assert_eq!(from_cozy(c), sq);
            assert_eq!(c.to_string(), name(sq));
            assert_eq!(parse(&name(sq)), Some(sq));
            assert_eq!(cozy_file(file(sq)), c.file());
            assert_eq!(cozy_rank(rank(sq)), c.rank());
        }
        assert_eq!(parse("E4"), Some(28));
        for bad in ["", "e", "e9", "j1", "e44", "é4"] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }
}
