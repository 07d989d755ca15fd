//! Built-in puzzles: positions where the player to move mates within a number of moves
//! against the computer at full strength (cờ thế). [`VsComputer::puzzle`](crate::computer::VsComputer::puzzle)
//! plays one.
//!
//! ```
//! use banco_app::puzzles;
//! let all = puzzles::builtin();
//! assert!(all.len() >= 4);
//! assert!(all.iter().all(|p| p.mate_in >= 1));
//! ```

use banco_game::GameKind;

/// A mate puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// A short name.
    pub name: String,
    /// The game.
    pub kind: GameKind,
    /// The position; the side to move is the solver.
    pub fen: String,
    /// The solver mates in at most this many of their own moves.
    pub mate_in: u32,
}

const BUILTIN: &[(&str, GameKind, &str, u32)] = &[
    (
        "Rook to the side",
        GameKind::Xiangqi,
        "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1",
        1,
    ),
    (
        "Cannons and rook",
        GameKind::Xiangqi,
        "1nb1ka3/4a4/4c4/2p1C4/9/3Rcr3/P8/n3C4/4Apr2/4KA3 w - - 0 1",
        5,
    ),
    (
        "Two horses and a rook",
        GameKind::Xiangqi,
        "9/9/3a1k3/9/1N5N1/4R4/1n5r1/9/3K1p3/9 w - - 0 1",
        5,
    ),
    (
        "Horse and pawn",
        GameKind::Xiangqi,
        "9/9/4Nk3/3c2p2/3r2P2/3p2B2/3p2r2/4KC3/9/9 w - - 0 1",
        5,
    ),
];

/// The puzzles that come with Banco.
#[must_use]
pub fn builtin() -> Vec<Puzzle> {
    BUILTIN
        .iter()
        .map(|&(name, kind, fen, mate_in)| Puzzle {
            name: name.to_owned(),
            kind,
            fen: fen.to_owned(),
            mate_in,
        })
        .collect()
}
