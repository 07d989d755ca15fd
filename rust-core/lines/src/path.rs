//! Free paths: [`shortest_path`] (breadth-first search over fixed-size arrays, no
//! allocation) returns a shortest orthogonal path of empty cells — the path a front end
//! animates — and [`reachable`] the cells a ball can reach.
//!
//! ```
//! use banco_lines::{Ball, Board, Cell, path};
//!
//! let mut board = Board::empty();
//! let a1: Cell = "a1".parse()?;
//! board.set(a1, Some(Ball::Blue));
//! board.set("a2".parse()?, Some(Ball::Red)); // a wall above a1
//! let p = path::shortest_path(&board, a1, "a3".parse()?).expect("a path");
//! let names: Vec<String> = p.cells().iter().map(|c| c.to_string()).collect();
//! assert_eq!(names, ["a1", "b1", "b2", "b3", "a3"]);
//! assert_eq!(p.steps(), 4);
//! # Ok::<(), banco_lines::CellError>(())
//! ```

use crate::board::{Board, CELLS, Cell, CellSet};

/// A path from a ball's cell to its destination, both included; consecutive cells are
/// orthogonal neighbours and every cell after the first is empty. Fixed size, no heap.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Path {
    cells: [Cell; CELLS],
    len: u8,
}

impl Path {
    /// The cells, start first.
    #[must_use]
    pub fn cells(&self) -> &[Cell] {
        &self.cells[..self.len as usize]
    }

    /// Number of steps (cells minus one).
    #[must_use]
    pub fn steps(&self) -> usize {
        (self.len as usize).saturating_sub(1)
    }

    /// Where the path starts.
    #[must_use]
    pub fn from(&self) -> Cell {
        self.cells[0]
    }

    /// Where the path ends.
    #[must_use]
    pub fn to(&self) -> Cell {
        self.cells[(self.len as usize).saturating_sub(1)]
    }
}

impl core::fmt::Debug for Path {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.cells()).finish()
    }
}

/// The orthogonal neighbours of `c`.
fn neighbours(c: Cell) -> impl Iterator<Item = Cell> {
    [(0, 1), (1, 0), (0, -1), (-1, 0)]
        .into_iter()
        .filter_map(move |(df, dr)| c.offset(df, dr))
}

const NONE: u8 = u8::MAX;

/// A shortest path of empty cells from `from` to `to` (both cells' contents are not
/// looked at: the caller checks that `from` holds a ball and `to` is empty), or `None`
/// if there is none. The search runs breadth-first backwards from `to`, trying each
/// cell's neighbours up, right, down, left; among shortest paths it returns the one whose
/// cells were reached first from `to` (from a1 to b2 on an empty board: a1, b1, b2).
///
/// ```
/// use banco_lines::{Board, path::shortest_path};
/// let path = shortest_path(&Board::empty(), "a1".parse()?, "b2".parse()?).expect("a path");
/// let names: Vec<String> = path.cells().iter().map(|c| c.to_string()).collect();
/// assert_eq!(names, ["a1", "b1", "b2"]);
/// # Ok::<(), banco_lines::CellError>(())
/// ```
#[must_use]
pub fn shortest_path(board: &Board, from: Cell, to: Cell) -> Option<Path> {
    if from == to {
        return None;
    }
    let mut prev = [NONE; CELLS];
    let mut queue = [0u8; CELLS];
    let (mut head, mut tail) = (0usize, 0usize);
    // Search backwards from `to` so that following `prev` from `from` gives the path in
    // order without reversing.
    prev[to.index()] = to.index() as u8;
    queue[tail] = to.index() as u8;
    tail += 1;
    while head < tail {
        let c = Cell::from_index(queue[head] as usize).ok()?;
        head += 1;
        for n in neighbours(c) {
            if n == from {
                prev[n.index()] = c.index() as u8;
                return Some(follow(&prev, from, to));
            }
            if prev[n.index()] == NONE && board.is_empty_cell(n) {
                prev[n.index()] = c.index() as u8;
                queue[tail] = n.index() as u8;
                tail += 1;
            }
        }
    }
    None
}

fn follow(prev: &[u8; CELLS], from: Cell, to: Cell) -> Path {
    let mut path = Path {
        cells: [from; CELLS],
        len: 1,
    };
    let mut c = from;
    while c != to && (path.len as usize) < CELLS {
        let next = prev[c.index()] as usize;
        let Ok(n) = Cell::from_index(next) else { break };
        path.cells[path.len as usize] = n;
        path.len += 1;
        c = n;
    }
    path
}

/// The empty cells a ball on `from` can reach (`from`'s own content is not looked at).
#[must_use]
pub fn reachable(board: &Board, from: Cell) -> CellSet {
    flood(board.empties(), neighbour_bits(from) & board.empties().0)
}

/// Every cell of `open` connected (orthogonally, through `open`) to a cell of `seed`.
#[must_use]
pub fn flood(open: CellSet, seed: u128) -> CellSet {
    let mut set = seed & open.0;
    loop {
        let grown = (set | spread(set)) & open.0;
        if grown == set {
            return CellSet(set);
        }
        set = grown;
    }
}

const FILE_A: u128 = {
    let mut m = 0u128;
    let mut r = 0;
    while r < 9 {
        m |= 1u128 << (r * 9);
        r += 1;
    }
    m
};
const FILE_I: u128 = FILE_A << 8;
const BOARD: u128 = (1u128 << CELLS) - 1;

/// The orthogonal neighbours of every cell of `set` (bitwise, on the board).
#[must_use]
pub const fn spread(set: u128) -> u128 {
    let up = set << 9;
    let down = set >> 9;
    let right = (set & !FILE_I) << 1;
    let left = (set & !FILE_A) >> 1;
    (up | down | right | left) & BOARD
}

/// The orthogonal neighbours of `c` as bits.
#[must_use]
pub const fn neighbour_bits(c: Cell) -> u128 {
    spread(1u128 << c.index())
}
