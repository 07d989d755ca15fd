//! Squares of the 9×10 board.
//!
//! A [`Square`] is a number 0–89: `file + 9 × rank`, files a–i (0–8) from Red's left,
//! ranks 0–9 from Red's side, the coordinates of ICCS/UCI notation (`h2` is file h, rank 2).
//!
//! ```
//! use banco_xiangqi::Square;
//! let sq: Square = "h2".parse().unwrap();
//! assert_eq!((sq.file(), sq.rank()), (7, 2));
//! assert_eq!(sq.to_string(), "h2");
//! assert_eq!(Square::new(4, 0), Some("e0".parse().unwrap()));
//! ```

use core::fmt;
use core::str::FromStr;

/// Number of files.
pub const FILES: u8 = 9;
/// Number of ranks.
pub const RANKS: u8 = 10;

/// A square of the board, 0–89 (`file + 9 × rank`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(u8);

/// Error parsing a square name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a square: expected a file a-i followed by a rank 0-9, like h2")]
pub struct ParseSquareError(pub String);

impl Square {
    /// The square on `file` (0–8) and `rank` (0–9), if both are on the board.
    #[must_use]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(file + FILES * rank))
        } else {
            None
        }
    }

    /// The square with this index (0–89), if valid.
    #[must_use]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 90 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// Index 0–89.
    #[inline]
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// File 0–8 (a–i).
    #[inline]
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// Rank 0–9 from Red's side.
    #[inline]
    #[must_use]
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// Every square, a0 first, then b0 … i9.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..90).map(Square)
    }

    /// True if kings on `self` and `other` would face each other (the flying-general
    /// rule): the same file with no square strictly between them `occupied`.
    pub(crate) fn faces(self, other: Square, occupied: impl Fn(Square) -> bool) -> bool {
        let (lo, hi) = (self.rank().min(other.rank()), self.rank().max(other.rank()));
        self.file() == other.file()
            && (lo + 1..hi)
                .filter_map(|r| Square::new(self.file(), r))
                .all(|s| !occupied(s))
    }

    /// Index into the internal padded 16×16 board.
    #[inline]
    pub(crate) const fn to_inner(self) -> u8 {
        ((self.rank() + 3) << 4) | (self.file() + 3)
    }

    /// Square of an internal index known to be on the board.
    #[inline]
    pub(crate) const fn from_inner(i: u8) -> Square {
        Square(((i >> 4) - 3) * FILES + ((i & 15) - 3))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let b = s.as_bytes();
        if let [f @ b'a'..=b'i', r @ b'0'..=b'9'] = b {
            Ok(Square((f - b'a') + FILES * (r - b'0')))
        } else {
            Err(ParseSquareError(s.to_owned()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inner_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::from_inner(sq.to_inner()), sq);
            assert_eq!(sq.to_string().parse::<Square>().unwrap(), sq);
        }
        assert!("j0".parse::<Square>().is_err());
        assert!("a10".parse::<Square>().is_err());
        assert_eq!(Square::new(9, 0), None);
    }

    #[test]
    fn kings_face_on_an_open_file_either_way_round() {
        let sq = |t: &str| t.parse::<Square>().unwrap();
        let (e0, e9, e4, d9) = (sq("e0"), sq("e9"), sq("e4"), sq("d9"));
        assert!(e0.faces(e9, |_| false) && e9.faces(e0, |_| false));
        assert!(!e0.faces(e9, |s| s == e4) && !e9.faces(e0, |s| s == e4));
        assert!(!e0.faces(d9, |_| false));
        // The kings' own squares are not between them.
        assert!(e0.faces(e9, |s| s == e0 || s == e9));
    }
}
