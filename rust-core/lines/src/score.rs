//! Scoring: the table of GNOME Five or More (the GNOME port of Color Lines), applied once
//! per move to the total number of balls removed by that move — all its lines together.
//! A line of five scores 10, two a ball; a line of six scores 12, still two a ball (the
//! table's one step in proportion, kept as Five or More has it, so that its scores compare
//! with ours); from seven balls on, and for several lines at once (nine balls at least),
//! a move scores more than in proportion.
//!
//! | balls | 5  | 6  | 7  | 8  | 9  | 10 | 11  | 12  | 13  | 14  |
//! |-------|----|----|----|----|----|----|-----|-----|-----|-----|
//! | points| 10 | 12 | 18 | 28 | 42 | 82 | 108 | 138 | 172 | 210 |
//!
//! Past 14 balls, Five or More's own continuation: with `m = n − 5`,
//! `table[5 + m mod 5] + 72·⌊m/5⌋ + 24·(m − 5)` (15 → 274, 16 → 300, 20 → 466).
//! Source: GNOME five-or-more, `src/glines.c` (`sctab` and `addscore`, GNOME 2.x–3.2x,
//! <https://gitlab.gnome.org/GNOME/five-or-more>); the table is a fact of the game, the
//! code here is our own. Two crossing lines of five (9 balls) score 42, not 2 × 10.
//!
//! ```
//! use banco_lines::score::points;
//! assert_eq!(points(4), 0);
//! assert_eq!(points(5), 10);
//! assert_eq!(points(9), 42);
//! assert!(points(10) > 2 * points(5));
//! assert_eq!(points(6) * 5, points(5) * 6, "six balls: two a ball, as five");
//! assert!(points(7) * 5 > points(5) * 7);
//! ```

/// Points for 5 to 14 balls removed at once.
pub const TABLE: [u32; 10] = [10, 12, 18, 28, 42, 82, 108, 138, 172, 210];

/// Points for `removed` balls removed by one move (or one landing of balls); 0 below 5
/// (past the board's 81 cells, counted as 81).
#[must_use]
pub const fn points(removed: usize) -> u32 {
    // No move or landing removes more than the board's 81 balls; the cap keeps the
    // arithmetic below in range for any argument.
    let removed = if removed > crate::board::CELLS {
        crate::board::CELLS
    } else {
        removed
    };
    if removed < 5 {
        0
    } else if removed < 15 {
        TABLE[removed - 5]
    } else {
        let m = (removed - 5) as u32;
        TABLE[(m % 5) as usize] + 72 * (m / 5) + 24 * (m - 5)
    }
}
