//! Lines: [`lines_through`] finds every run of at least [`MIN_LINE`] balls of one colour
//! through a cell, horizontally, vertically and on both diagonals. Several lines through
//! one cell all count (a ball at the crossing of a row and a diagonal removes both).
//!
//! ```
//! use banco_lines::{Board, lines};
//!
//! let board: Board = "
//!     .........
//!     .........
//!     .........
//!     .........
//!     RRRRR....
//!     .........
//!     .........
//!     .........
//!     .........".parse()?;
//! let found = lines::lines_through(&board, "c5".parse()?);
//! assert_eq!(found.len(), 5);
//! assert!(lines::lines_through(&board, "c4".parse()?).is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::board::{Board, Cell, CellSet};

/// Shortest run that vanishes.
pub const MIN_LINE: usize = 5;

/// The four directions of a line: along a rank, a file, and the two diagonals.
pub const DIRECTIONS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// The cells of every run of at least [`MIN_LINE`] balls of the colour on `c` that goes
/// through `c`, in all four directions (empty if `c` is empty or completes no line).
#[must_use]
pub fn lines_through(board: &Board, c: Cell) -> CellSet {
    let mut out = CellSet::EMPTY;
    let code = board.code(c.index());
    if code == 0 {
        return out;
    }
    for (df, dr) in DIRECTIONS {
        let mut run = CellSet::EMPTY;
        run.insert(c);
        for sign in [1, -1] {
            let mut cur = c;
            while let Some(n) = cur.offset(df * sign, dr * sign) {
                if board.code(n.index()) != code {
                    break;
                }
                run.insert(n);
                cur = n;
            }
        }
        if run.len() >= MIN_LINE {
            out.0 |= run.0;
        }
    }
    out
}

/// The length of the run of `c`'s colour through `c` in direction `(df, dr)` if a ball of
/// code `code` stood on `c` (used by the computer player).
#[must_use]
pub fn run_length(board: &Board, c: Cell, code: u8, df: isize, dr: isize) -> usize {
    if df == 0 && dr == 0 {
        return 1; // no direction: the run is the cell alone
    }
    let mut len = 1;
    for sign in [1, -1] {
        let mut cur = c;
        while let Some(n) = cur.offset(df.saturating_mul(sign), dr.saturating_mul(sign)) {
            if board.code(n.index()) != code {
                break;
            }
            len += 1;
            cur = n;
        }
    }
    len
}
