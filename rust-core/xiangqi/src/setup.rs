//! Unvalidated positions ([`Setup`]) and their validation into a [`Position`], with a
//! [`PositionError`] that lists every problem found — what a position editor (cờ thế set-up)
//! shows its user.
//!
//! ```
//! use banco_xiangqi::{Setup, Position, Piece, PieceKind, Problem, Square};
//! use banco_game::Color;
//! let mut setup = Setup::empty();
//! setup.put("e0".parse().unwrap(), Some(Piece::new(Color::Red, PieceKind::King)));
//! setup.put("a1".parse().unwrap(), Some(Piece::new(Color::Red, PieceKind::Advisor)));
//! let err = Position::from_setup(&setup).unwrap_err();
//! assert!(err.problems().contains(&Problem::MissingKing(Color::Black)));
//! assert!(err.problems().contains(&Problem::AdvisorOutsidePalace("a1".parse().unwrap())));
//! println!("{err}"); // "2 problems: black has no king; the advisor on a1 is outside its palace"
//! ```

use crate::piece::{Piece, PieceKind};
use crate::position::Position;
use crate::square::Square;
use banco_game::Color;
use core::fmt;

/// A board that may or may not be a legal position: public fields, no invariants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Pieces by square index (`file + 9 × rank`).
    pub board: [Option<Piece>; 90],
    /// Side to move.
    pub turn: Color,
    /// Plies since the last capture.
    pub halfmoves: u16,
    /// Full-move number.
    pub fullmoves: u16,
}

impl Default for Setup {
    fn default() -> Self {
        Setup::startpos()
    }
}

impl Setup {
    /// An empty board, Red to move.
    #[must_use]
    pub fn empty() -> Setup {
        Setup {
            board: [None; 90],
            turn: Color::Red,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// The start position.
    #[must_use]
    pub fn startpos() -> Setup {
        let mut s = Setup::empty();
        let back = [
            PieceKind::Rook,
            PieceKind::Horse,
            PieceKind::Elephant,
            PieceKind::Advisor,
            PieceKind::King,
            PieceKind::Advisor,
            PieceKind::Elephant,
            PieceKind::Horse,
            PieceKind::Rook,
        ];
        for (file, kind) in (0u8..).zip(back) {
            s.set(file, 0, Piece::new(Color::Red, kind));
            s.set(file, 9, Piece::new(Color::Black, kind));
        }
        for file in [1, 7] {
            s.set(file, 2, Piece::new(Color::Red, PieceKind::Cannon));
            s.set(file, 7, Piece::new(Color::Black, PieceKind::Cannon));
        }
        for file in [0, 2, 4, 6, 8] {
            s.set(file, 3, Piece::new(Color::Red, PieceKind::Pawn));
            s.set(file, 6, Piece::new(Color::Black, PieceKind::Pawn));
        }
        s
    }

    fn set(&mut self, file: u8, rank: u8, p: Piece) {
        if let Some(sq) = Square::new(file, rank) {
            self.put(sq, Some(p));
        }
    }

    /// The piece on `sq`.
    #[must_use]
    pub fn get(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index() as usize]
    }

    /// Puts (or with `None` removes) a piece.
    pub fn put(&mut self, sq: Square, piece: Option<Piece>) {
        self.board[sq.index() as usize] = piece;
    }

    /// Every problem that keeps this setup from being a legal position (empty if none).
    #[must_use]
    pub fn problems(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let count = Square::all()
                    .filter(|&sq| self.get(sq) == Some(Piece::new(color, kind)))
                    .count() as u8;
                if kind == PieceKind::King && count == 0 {
                    problems.push(Problem::MissingKing(color));
                } else if count > kind.start_count() {
                    problems.push(Problem::TooMany { color, kind, count });
                }
            }
        }
        for sq in Square::all() {
            let Some(p) = self.get(sq) else { continue };
            // Ranks counted from the piece's own side.
            let rank = if p.color == Color::Red {
                sq.rank()
            } else {
                9 - sq.rank()
            };
            let file = sq.file();
            let in_palace = (3..=5).contains(&file) && rank <= 2;
            match p.kind {
                PieceKind::King if !in_palace => problems.push(Problem::KingOutsidePalace(sq)),
                PieceKind::Advisor if !(in_palace && (file + rank) % 2 == 1) => {
                    problems.push(Problem::AdvisorOutsidePalace(sq));
                }
                PieceKind::Elephant if !matches!((file, rank), (2 | 6, 0 | 4) | (0 | 4 | 8, 2)) => {
                    problems.push(Problem::ElephantOffPoints(sq));
                }
                PieceKind::Pawn if rank < 3 => problems.push(Problem::PawnBehindStart(sq)),
                PieceKind::Pawn if rank < 5 && file % 2 == 1 => {
                    problems.push(Problem::PawnOffFile(sq));
                }
                _ => {}
            }
        }
        // Every pair of kings (with two of a side, the extra one is a problem of its own
        // and must not hide this one).
        let kings_of = |c: Color| {
            Square::all().filter(move |&sq| self.get(sq) == Some(Piece::new(c, PieceKind::King)))
        };
        let facing = kings_of(Color::Red).any(|red| {
            kings_of(Color::Black).any(|black| red.faces(black, |sq| self.get(sq).is_some()))
        });
        if facing {
            problems.push(Problem::KingsFacing);
        }
        if problems.is_empty() {
            let pos = Position::from_setup_unchecked(self);
            if pos.is_check_on(self.turn.other()) {
                problems.push(Problem::OpponentInCheck(self.turn.other()));
            }
        }
        problems
    }
}

/// One problem of a [`Setup`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Problem {
    /// A side has no king.
    MissingKing(Color),
    /// A side has more pieces of a kind than the game has.
    TooMany {
        /// Side.
        color: Color,
        /// Kind.
        kind: PieceKind,
        /// How many were found.
        count: u8,
    },
    /// A king outside its palace.
    KingOutsidePalace(Square),
    /// An advisor off the five advisor points of its palace.
    AdvisorOutsidePalace(Square),
    /// An elephant off its seven points (or across the river).
    ElephantOffPoints(Square),
    /// A pawn behind its start rank.
    PawnBehindStart(Square),
    /// A pawn on its own half but off the files pawns start on (it cannot have got there).
    PawnOffFile(Square),
    /// The two kings face each other on an open file.
    KingsFacing,
    /// The side that is not to move is in check (it could be captured).
    OpponentInCheck(Color),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Problem::MissingKing(c) => write!(f, "{c} has no king"),
            Problem::TooMany { color, kind, count } => write!(
                f,
                "{color} has {count} {}s, at most {} allowed",
                kind.name(),
                kind.start_count()
            ),
            Problem::KingOutsidePalace(sq) => write!(f, "the king on {sq} is outside its palace"),
            Problem::AdvisorOutsidePalace(sq) => {
                write!(f, "the advisor on {sq} is outside its palace")
            }
            Problem::ElephantOffPoints(sq) => {
                write!(f, "the elephant on {sq} is not on one of its seven points")
            }
            Problem::PawnBehindStart(sq) => write!(f, "the pawn on {sq} is behind its start rank"),
            Problem::PawnOffFile(sq) => {
                write!(
                    f,
                    "the pawn on {sq} has not crossed the river but is off its start files"
                )
            }
            Problem::KingsFacing => f.write_str("the two kings face each other on an open file"),
            Problem::OpponentInCheck(c) => {
                write!(f, "{c} is in check but it is not {c}'s turn")
            }
        }
    }
}

/// The problems that keep a [`Setup`] from being a [`Position`], all of them.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct PositionError {
    problems: Vec<Problem>,
}

impl PositionError {
    /// Every problem found.
    #[must_use]
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let [one] = &self.problems[..] {
            return write!(f, "illegal position: {one}");
        }
        write!(f, "illegal position, {} problems: ", self.problems.len())?;
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl Position {
    /// Validates a setup. The error lists every problem, not just the first.
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        let problems = setup.problems();
        if problems.is_empty() {
            Ok(Position::from_setup_unchecked(setup))
        } else {
            Err(PositionError { problems })
        }
    }

    /// Like [`Position::from_setup`], but tolerates the two problems that make a position
    /// unreachable in play while leaving its moves well defined — the kings facing each
    /// other, and the side not to move in check — and returns them beside the position.
    /// For describing a move of a diagram in another notation (a problem book's or another
    /// program's position, as in the reference WXF table), never for playing from it.
    ///
    /// ```
    /// use banco_game::Color;
    /// use banco_xiangqi::{Iccs, Position, Problem, Wxf, fen};
    /// // Red to move, but Black's king stands in the red rook's line.
    /// let setup = fen::parse_setup("4k4/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1").unwrap();
    /// assert!(Position::from_setup(&setup).is_err());
    /// let (pos, tolerated) = Position::from_setup_for_notation(&setup).unwrap();
    /// assert_eq!(tolerated, [Problem::OpponentInCheck(Color::Black)]);
    /// let mv = "R5=4".parse::<Wxf>().unwrap().to_move(&pos).unwrap();
    /// assert_eq!(Iccs(mv).to_string(), "e1f1"); // files count from Red's right
    /// ```
    ///
    /// # Errors
    /// Any other problem, listed with the tolerated ones.
    pub fn from_setup_for_notation(
        setup: &Setup,
    ) -> Result<(Position, Vec<Problem>), PositionError> {
        let problems = setup.problems();
        let drawable =
            |p: &Problem| matches!(p, Problem::KingsFacing | Problem::OpponentInCheck(_));
        if problems.iter().all(drawable) {
            Ok((Position::from_setup_unchecked(setup), problems))
        } else {
            Err(PositionError { problems })
        }
    }
}
