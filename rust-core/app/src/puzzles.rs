//! Puzzles: positions where the player to move mates within a number of moves against the
//! computer at full strength (cờ thế).
//!
//! * [`builtin`] — a few classics the shells show first;
//! * [`collection`] — the bundled collection (over 200 xiangqi mates in difficulty tiers,
//!   each stored with the solver's proof: mate length and main line);
//! * [`progress`] — which puzzles a player solved, as a small record the front end stores;
//! * [`harvest`] — finding new puzzles in Banco's own games.
//!
//! [`VsComputer::puzzle`](crate::computer::VsComputer::puzzle) plays one: the computer
//! defends with the longest resistance, a move that lets the mate slip fails the puzzle,
//! hints reveal the next move of a mate.
//!
//! ```
//! use banco_app::puzzles;
//! let all = puzzles::builtin();
//! assert!(all.len() >= 4);
//! assert!(all.iter().all(|p| p.mate_in >= 1));
//! ```

pub mod collection;
pub mod harvest;
pub mod progress;

use crate::any::{AnyGame, AnyMove, AnyRules};
use banco_game::{Game, GameKind, Outcome};

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

/// Why a stored solution does not hold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolutionError {
    /// The position does not set up.
    #[error("the position is not legal: {0}")]
    Position(String),
    /// A move of the line is not legal where it is played.
    #[error("move {number} of the line (`{text}`) is not legal: {why}")]
    Illegal {
        /// 1-based number of the move in the line (plies).
        number: usize,
        /// The move as stored.
        text: String,
        /// Why.
        why: String,
    },
    /// The line does not end in the solver's mate.
    #[error("the line ends without mate after {plies} plies")]
    NoMate {
        /// Plies in the line.
        plies: usize,
    },
    /// The line takes more moves than the mate it claims, or fewer (the defender did not
    /// resist longest).
    #[error("the line mates in {found} moves, the puzzle says {claimed}")]
    WrongLength {
        /// Attacker moves in the line.
        found: u32,
        /// The puzzle's mate length.
        claimed: u32,
    },
    /// The solver does not prove the stored mate length again.
    #[error("the solver finds {found}, the puzzle says mate in {claimed}")]
    NotProven {
        /// What the solver found ("mate in 4", "no mate").
        found: String,
        /// The puzzle's mate length.
        claimed: u32,
    },
}

/// The moves of `line` (legal from `game` in turn) in coordinates; `None` if one is not
/// legal.
#[must_use]
pub fn line_text(game: &AnyGame, line: &[AnyMove]) -> Option<Vec<String>> {
    let mut g = game.clone();
    let mut out = Vec::with_capacity(line.len());
    for &mv in line {
        out.push(crate::notation::write_move(
            &g,
            mv,
            crate::notation::Notation::Coordinate,
        ));
        g.play(mv).ok()?;
    }
    Some(out)
}

/// Checks a stored main line: every move legal, at most `mate_in` moves of the solver's
/// side, and the last one mates (or wins by the repetition rule). A line may be shorter
/// than the proven length: the solver proves mates by classes (checks only first), and
/// after the longest defence a quicker quiet finish can appear.
pub fn check_line(puzzle: &Puzzle, line: &[String]) -> Result<(), SolutionError> {
    let mut game = AnyGame::from_fen(puzzle.kind, &puzzle.fen)
        .map_err(|e| SolutionError::Position(e.to_string()))?;
    let attacker = game.side_to_move();
    for (i, text) in line.iter().enumerate() {
        let mv =
            crate::notation::parse_move(&game, text, Some(crate::notation::Notation::Coordinate))
                .map_err(|e| SolutionError::Illegal {
                number: i + 1,
                text: text.clone(),
                why: e.to_string(),
            })?;
        game.play(mv).map_err(|e| SolutionError::Illegal {
            number: i + 1,
            text: text.clone(),
            why: e.to_string(),
        })?;
    }
    let won = matches!(
        game.outcome(&AnyRules::usual(puzzle.kind)),
        Some(Outcome::Win { winner, .. }) if winner == attacker
    );
    if !won {
        return Err(SolutionError::NoMate { plies: line.len() });
    }
    let found = line.len().div_ceil(2) as u32;
    if found > puzzle.mate_in {
        return Err(SolutionError::WrongLength {
            found,
            claimed: puzzle.mate_in,
        });
    }
    Ok(())
}
