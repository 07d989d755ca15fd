//! The 9×9 board: [`Cell`] (named `a1`…`i9`, files left to right, ranks bottom to top),
//! the seven [`Ball`] colours, the [`Board`] itself and [`CellSet`], a set of cells in one
//! `u128`.
//!
//! ```
//! use banco_lines::{Ball, Board, Cell};
//!
//! let e5: Cell = "e5".parse()?;
//! assert_eq!((e5.file(), e5.rank()), (4, 4));
//! let mut board = Board::empty();
//! board.set(e5, Some(Ball::Red));
//! assert_eq!(board.get(e5), Some(Ball::Red));
//! assert_eq!(board.ball_count(), 1);
//! assert_eq!(board.to_string().lines().next(), Some("........."));
//! # Ok::<(), banco_lines::CellError>(())
//! ```

use core::fmt;
use core::str::FromStr;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Files and ranks of the board.
pub const SIZE: usize = 9;
/// Cells of the board.
pub const CELLS: usize = SIZE * SIZE;

/// One cell of the board, by index `rank × 9 + file` (0 = `a1`, 80 = `i9`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Cell(u8);

/// Why a cell name or index was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CellError {
    /// An index at or past 81.
    #[error("cell {0} is off the board (cells are 0 to 80)")]
    OutOfRange(usize),
    /// Text that is not a cell name.
    #[error("`{0}` is not a cell: write a file a-i and a rank 1-9, like e5")]
    BadName(String),
}

/// Why a board (its 81 codes, or its nine rows of text) was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// Not 81 codes.
    #[error("a board has 81 cells, not {0}")]
    CellCount(usize),
    /// A code past the seven colours.
    #[error("{0} is not a ball colour (0 to 7)")]
    BadCode(u8),
    /// Not nine rows of text.
    #[error("a board has 9 rows, not {0}")]
    RowCount(usize),
    /// A row of another length (its rank, 1–9, and its length).
    #[error("rank {rank} has {cells} cells, expected 9")]
    RowLength {
        /// The rank, 1 to 9.
        rank: usize,
        /// Its cells.
        cells: usize,
    },
    /// A character that is neither a ball letter nor `.`.
    #[error("`{letter}` on rank {rank} is not a ball letter")]
    BadLetter {
        /// The character.
        letter: char,
        /// The rank, 1 to 9.
        rank: usize,
    },
}

impl Cell {
    /// The cell at `file` (0 = a) and `rank` (0 = 1), if both are below 9.
    #[must_use]
    pub const fn new(file: usize, rank: usize) -> Option<Cell> {
        if file < SIZE && rank < SIZE {
            Some(Cell((rank * SIZE + file) as u8))
        } else {
            None
        }
    }

    /// The cell with this index (0–80).
    pub const fn from_index(index: usize) -> Result<Cell, CellError> {
        if index < CELLS {
            Ok(Cell(index as u8))
        } else {
            Err(CellError::OutOfRange(index))
        }
    }

    /// Every cell, `a1` first.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELLS as u8).map(Cell)
    }

    /// Index 0–80.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0–8 (a–i).
    #[must_use]
    pub const fn file(self) -> usize {
        self.0 as usize % SIZE
    }

    /// Rank 0–8 (1–9).
    #[must_use]
    pub const fn rank(self) -> usize {
        self.0 as usize / SIZE
    }

    /// The cell `df` files and `dr` ranks away, if on the board.
    #[must_use]
    pub const fn offset(self, df: isize, dr: isize) -> Option<Cell> {
        let (Some(f), Some(r)) = (
            (self.file() as isize).checked_add(df),
            (self.rank() as isize).checked_add(dr),
        ) else {
            return None;
        };
        if f >= 0 && r >= 0 && f < SIZE as isize && r < SIZE as isize {
            Some(Cell((r as usize * SIZE + f as usize) as u8))
        } else {
            None
        }
    }
}

impl TryFrom<u8> for Cell {
    type Error = CellError;
    fn try_from(v: u8) -> Result<Cell, CellError> {
        Cell::from_index(v as usize)
    }
}

impl From<Cell> for u8 {
    fn from(c: Cell) -> u8 {
        c.0
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file() as u8) as char,
            self.rank() + 1
        )
    }
}

impl FromStr for Cell {
    type Err = CellError;
    fn from_str(s: &str) -> Result<Cell, CellError> {
        let bad = || CellError::BadName(s.chars().take(16).collect());
        let t = s.trim().as_bytes();
        let [f, r] = t else { return Err(bad()) };
        let file = f.to_ascii_lowercase().wrapping_sub(b'a') as usize;
        let rank = r.wrapping_sub(b'1') as usize;
        Cell::new(file, rank).ok_or_else(bad)
    }
}

/// The seven ball colours, each with a letter so that a board reads without colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Ball {
    /// Red (`R`).
    Red,
    /// Green (`G`).
    Green,
    /// Blue (`B`).
    Blue,
    /// Yellow (`Y`).
    Yellow,
    /// Purple (`P`).
    Purple,
    /// Cyan (`C`).
    Cyan,
    /// Orange (`O`).
    Orange,
}

impl Ball {
    /// Number of colours.
    pub const COUNT: usize = 7;
    /// Every colour, in index order.
    pub const ALL: [Ball; 7] = [
        Ball::Red,
        Ball::Green,
        Ball::Blue,
        Ball::Yellow,
        Ball::Purple,
        Ball::Cyan,
        Ball::Orange,
    ];

    /// Index 0–6.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour with index `i` (0–6).
    #[must_use]
    pub const fn from_index(i: usize) -> Option<Ball> {
        if i < Ball::COUNT {
            Some(Ball::ALL[i])
        } else {
            None
        }
    }

    /// Upper-case letter (`R G B Y P C O`).
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Ball::Red => 'R',
            Ball::Green => 'G',
            Ball::Blue => 'B',
            Ball::Yellow => 'Y',
            Ball::Purple => 'P',
            Ball::Cyan => 'C',
            Ball::Orange => 'O',
        }
    }

    /// The colour of a letter, either case.
    #[must_use]
    pub fn from_letter(c: char) -> Option<Ball> {
        Ball::ALL
            .into_iter()
            .find(|b| b.letter() == c.to_ascii_uppercase())
    }

    /// Lower-case English name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Ball::Red => "red",
            Ball::Green => "green",
            Ball::Blue => "blue",
            Ball::Yellow => "yellow",
            Ball::Purple => "purple",
            Ball::Cyan => "cyan",
            Ball::Orange => "orange",
        }
    }
}

impl fmt::Display for Ball {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of cells, one bit per cell index. Bits past the last cell (81 and up) are no
/// cell: [`CellSet::iter`] and [`CellSet::len`] leave them out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CellSet(pub u128);

/// The bits of the 81 cells.
const CELL_BITS: u128 = (1u128 << CELLS) - 1;

impl CellSet {
    /// No cell.
    pub const EMPTY: CellSet = CellSet(0);

    /// Adds a cell.
    pub fn insert(&mut self, c: Cell) {
        self.0 |= 1u128 << c.index();
    }

    /// True if `c` is in the set.
    #[must_use]
    pub const fn contains(self, c: Cell) -> bool {
        self.0 >> c.index() & 1 == 1
    }

    /// Number of cells.
    #[must_use]
    pub const fn len(self) -> usize {
        (self.0 & CELL_BITS).count_ones() as usize
    }

    /// True if no cell.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 & CELL_BITS == 0
    }

    /// The cells, lowest index first.
    ///
    /// ```
    /// use banco_lines::CellSet;
    /// let set = CellSet(1 | 1 << 80 | 1 << 100);
    /// assert_eq!(set.iter().map(|c| c.index()).collect::<Vec<_>>(), [0, 80]);
    /// assert_eq!(set.len(), 2);
    /// assert!(CellSet(1 << 100).is_empty());
    /// ```
    pub fn iter(self) -> impl Iterator<Item = Cell> {
        let mut bits = self.0 & CELL_BITS;
        core::iter::from_fn(move || {
            if bits == 0 {
                None
            } else {
                let i = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                Some(Cell(i))
            }
        })
    }
}

/// The board: each cell empty or holding one ball. Copying it is cheap (81 bytes).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    /// 0 = empty, 1 + colour index otherwise.
    cells: [u8; CELLS],
}

impl Default for Board {
    fn default() -> Board {
        Board::empty()
    }
}

impl Board {
    /// A board with no ball.
    #[must_use]
    pub const fn empty() -> Board {
        Board { cells: [0; CELLS] }
    }

    /// The ball on `c`, if any.
    #[must_use]
    pub const fn get(&self, c: Cell) -> Option<Ball> {
        match self.cells[c.index()] {
            0 => None,
            v => Ball::from_index(v as usize - 1),
        }
    }

    /// The raw code of the cell of index `index` (0–80): 0 empty, 1–7 a colour (for fast
    /// loops over `0..CELLS`); 0 past the last cell (no cell, no ball).
    #[must_use]
    pub const fn code(&self, index: usize) -> u8 {
        if index < CELLS { self.cells[index] } else { 0 }
    }

    /// Puts a ball on `c` (or empties it).
    pub fn set(&mut self, c: Cell, ball: Option<Ball>) {
        self.cells[c.index()] = ball.map_or(0, |b| b.index() as u8 + 1);
    }

    /// True if `c` holds no ball.
    #[must_use]
    pub const fn is_empty_cell(&self, c: Cell) -> bool {
        self.cells[c.index()] == 0
    }

    /// Number of balls.
    #[must_use]
    pub fn ball_count(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// Number of empty cells.
    #[must_use]
    pub fn empty_count(&self) -> usize {
        CELLS - self.ball_count()
    }

    /// True when every cell holds a ball.
    #[must_use]
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The empty cells as a set.
    #[must_use]
    pub fn empties(&self) -> CellSet {
        let mut s = CellSet::EMPTY;
        for (i, &v) in self.cells.iter().enumerate() {
            if v == 0 {
                s.0 |= 1u128 << i;
            }
        }
        s
    }

    /// The `n`-th empty cell (0-based, index order), if there are that many.
    #[must_use]
    pub fn nth_empty(&self, n: usize) -> Option<Cell> {
        self.cells
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v == 0)
            .nth(n)
            .map(|(i, _)| Cell(i as u8))
    }

    /// Empties every cell of `set`.
    pub fn clear(&mut self, set: CellSet) {
        for c in set.iter() {
            self.cells[c.index()] = 0;
        }
    }

    /// The board from 81 codes (0 empty, 1–7 a colour), as [`Board`]'s serde form.
    pub fn from_codes(codes: &[u8]) -> Result<Board, BoardError> {
        if codes.len() != CELLS {
            return Err(BoardError::CellCount(codes.len()));
        }
        if let Some(&bad) = codes.iter().find(|&&v| v as usize > Ball::COUNT) {
            return Err(BoardError::BadCode(bad));
        }
        let mut cells = [0; CELLS];
        cells.copy_from_slice(codes);
        Ok(Board { cells })
    }

    /// The 81 codes (0 empty, 1–7 a colour), `a1` first.
    #[must_use]
    pub const fn codes(&self) -> &[u8; CELLS] {
        &self.cells
    }
}

/// Rank 9 first, one letter per ball, `.` for an empty cell.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..SIZE).rev() {
            for file in 0..SIZE {
                let v = self.cells[rank * SIZE + file];
                let ch = Ball::from_index((v as usize).wrapping_sub(1)).map_or('.', Ball::letter);
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Board {
    type Err = BoardError;
    /// Nine rows (rank 9 first) of nine characters: a colour letter or `.`; blank lines
    /// and surrounding spaces are ignored.
    fn from_str(s: &str) -> Result<Board, BoardError> {
        let rows: Vec<&str> = s.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        if rows.len() != SIZE {
            return Err(BoardError::RowCount(rows.len()));
        }
        let mut board = Board::empty();
        for (i, row) in rows.iter().enumerate() {
            let rank = SIZE - 1 - i;
            let chars: Vec<char> = row.chars().collect();
            if chars.len() != SIZE {
                return Err(BoardError::RowLength {
                    rank: rank + 1,
                    cells: chars.len(),
                });
            }
            for (file, &ch) in chars.iter().enumerate() {
                let ball = match ch {
                    '.' => None,
                    other => Some(Ball::from_letter(other).ok_or(BoardError::BadLetter {
                        letter: other,
                        rank: rank + 1,
                    })?),
                };
                board.cells[rank * SIZE + file] = ball.map_or(0, |b| b.index() as u8 + 1);
            }
        }
        Ok(board)
    }
}

impl Serialize for Board {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.cells.iter())
    }
}

impl<'de> Deserialize<'de> for Board {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Board, D::Error> {
        let bytes: Vec<u8> = Vec::deserialize(d)?;
        Board::from_codes(&bytes).map_err(serde::de::Error::custom)
    }
}
