//! The Lines board for a shell: its size ([`lines_board_size`]: no shell writes 9 or 81)
//! and the names of its cells and colours.
//!
//! ```
//! use banco_ffi::{lines_board_size, lines_cell_name, lines_color_name};
//! let size = lines_board_size();
//! assert_eq!((size.side, size.cells), (9, 81));
//! assert_eq!(lines_cell_name(size.cells - 1).as_deref(), Some("i9"));
//! assert_eq!(lines_color_name(0).as_deref(), Some("red"));
//! assert_eq!(banco_ffi::lines_start_balls(), [3, 5]);
//! ```

use banco_lines::{Ball, CELLS, Cell, SIZE};

/// The size of a Lines board (solo or race).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct LinesBoardSize {
    /// Cells along a side: files a–i, ranks 1–9.
    pub side: u8,
    /// Cells in all: indices `rank × side + file`, 0 (a1) to `cells − 1` (i9).
    pub cells: u8,
}

/// The size of the Lines board (9 × 9: 81 cells).
#[uniffi::export]
pub fn lines_board_size() -> LinesBoardSize {
    // 9 and 81: cell indices are bytes everywhere in the bindings.
    LinesBoardSize {
        side: SIZE as u8,
        cells: CELLS as u8,
    }
}

/// The numbers of balls a Lines game or race may start with (3 and 5), for a settings
/// screen: no shell writes them.
#[uniffi::export]
pub fn lines_start_balls() -> Vec<u8> {
    banco_lines::game::START_BALLS.to_vec()
}

/// The English name of a Lines colour 0–6 (`"red"`); `None` for another number.
#[uniffi::export]
pub fn lines_color_name(color: u8) -> Option<String> {
    Ball::from_index(usize::from(color)).map(|b| b.name().to_owned())
}

/// The name of a cell index (`"a1"` for 0, `"i9"` for 80); `None` off the board.
#[uniffi::export]
pub fn lines_cell_name(cell: u8) -> Option<String> {
    Cell::from_index(usize::from(cell))
        .ok()
        .map(|c| c.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_size() {
        assert_eq!(lines_color_name(0).as_deref(), Some("red"));
        assert_eq!(lines_color_name(7), None);
        let size = lines_board_size();
        assert_eq!(
            u16::from(size.side) * u16::from(size.side),
            u16::from(size.cells)
        );
        assert_eq!(lines_cell_name(size.cells - 1).as_deref(), Some("i9"));
        assert_eq!(lines_cell_name(size.cells), None);
    }
}
