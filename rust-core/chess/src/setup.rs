//! An unvalidated chess board ([`ChessSetup`]) with every problem that keeps it from being a
//! legal position ([`ChessSetup::problems`]) — what a position editor shows while the
//! player arranges pieces. FEN reading ([`Chess::from_fen`](crate::Chess::from_fen)) stops
//! at the first problem; this lists them all. Castling rights are the standard ones (king
//! on e1/e8, rooks in the corners).
//!
//! ```
//! use banco_chess::setup::{ChessSetup, ChessProblem};
//! use banco_chess::Role;
//! use banco_game::Color;
//! let mut s = ChessSetup::empty();
//! s.put(4, Some((Color::Red, Role::King)));    // Ke1
//! s.put(8, Some((Color::Red, Role::Pawn)));    // Pa2
//! s.put(0, Some((Color::Black, Role::Pawn)));  // a black pawn on a1
//! s.castling[0][0] = true;                     // White O-O without a rook on h1
//! let problems = s.problems();
//! assert!(problems.contains(&ChessProblem::MissingKing(Color::Black)));
//! assert!(problems.contains(&ChessProblem::PawnOnBackRank(0)));
//! assert!(problems.contains(&ChessProblem::CastlingWithoutRook { color: Color::Red, king_side: true }));
//! s.put(0, None);
//! s.put(60, Some((Color::Black, Role::King)));
//! s.castling[0][0] = false;
//! assert!(s.problems().is_empty());
//! assert_eq!(s.to_fen(), "4k3/8/8/8/8/8/P7/4K3 w - - 0 1");
//! ```

use crate::fen::{self, FenError, Placement, aligned_checkers, attackers, king_square, side_name};
use crate::role::Role;
use crate::square;
use banco_game::Color;
use core::fmt;

/// A chess board that may or may not be legal: public fields, no invariants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChessSetup {
    /// Pieces by square index (a1 = 0 … h8 = 63); `Color::Red` is White.
    pub board: Placement,
    /// Side to move.
    pub turn: Color,
    /// Castling rights: `[colour index][0 king side (O-O), 1 queen side (O-O-O)]`.
    pub castling: [[bool; 2]; 2],
    /// The square a pawn just passed over with a two-square move, if any.
    pub en_passant: Option<u8>,
    /// Plies since the last capture or pawn move.
    pub halfmoves: u16,
    /// Move number.
    pub fullmoves: u16,
}

/// One problem of a [`ChessSetup`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ChessProblem {
    /// A side has no king.
    MissingKing(Color),
    /// A side has more than one king.
    TooManyKings {
        /// The side.
        color: Color,
        /// Kings found.
        count: u8,
    },
    /// A pawn on rank 1 or 8 (the square).
    PawnOnBackRank(u8),
    /// More than eight pawns.
    TooManyPawns {
        /// The side.
        color: Color,
        /// Pawns found.
        count: u8,
    },
    /// More than sixteen pieces.
    TooManyPieces {
        /// The side.
        color: Color,
        /// Pieces found.
        count: u8,
    },
    /// A castling right while the king is not on its start square.
    CastlingWithoutKing {
        /// The side.
        color: Color,
        /// King side (O-O) or queen side.
        king_side: bool,
    },
    /// A castling right while the rook is not in its corner.
    CastlingWithoutRook {
        /// The side.
        color: Color,
        /// King side (O-O) or queen side.
        king_side: bool,
    },
    /// The en-passant square is not on the rank a pawn of the side that just moved passes.
    EnPassantRank(u8),
    /// No pawn stands where a two-square move to pass the en-passant square ends.
    EnPassantNoPawn(u8),
    /// The en-passant square or the pawn's start square is occupied.
    EnPassantBlocked(u8),
    /// The side not to move is in check.
    OpponentInCheck(Color),
    /// The side to move is in check from three or more pieces.
    TooManyCheckers {
        /// The side in check.
        color: Color,
        /// Checkers.
        count: u8,
    },
    /// The side to move is in check from two pieces on opposite sides of its king on one
    /// line (squares as indices): no move gives both checks.
    AlignedCheckers {
        /// The side in check.
        color: Color,
        /// The checkers' squares.
        squares: (u8, u8),
    },
    /// A position no game can reach for another reason (as the rules library says).
    Impossible(String),
}

impl fmt::Display for ChessProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let wing = |k: bool| {
            if k {
                "king side (O-O)"
            } else {
                "queen side (O-O-O)"
            }
        };
        match self {
            ChessProblem::MissingKing(c) => write!(f, "{} has no king", side_name(*c)),
            ChessProblem::TooManyKings { color, count } => {
                write!(f, "{} has {count} kings, one allowed", side_name(*color))
            }
            ChessProblem::PawnOnBackRank(sq) => write!(
                f,
                "the pawn on {} stands on a back rank, where pawns never stand",
                square::name(*sq)
            ),
            ChessProblem::TooManyPawns { color, count } => {
                write!(f, "{} has {count} pawns, at most 8", side_name(*color))
            }
            ChessProblem::TooManyPieces { color, count } => {
                write!(f, "{} has {count} pieces, at most 16", side_name(*color))
            }
            ChessProblem::CastlingWithoutKing { color, king_side } => write!(
                f,
                "{} may castle {} but its king is not on {}",
                side_name(*color),
                wing(*king_side),
                if *color == Color::Red { "e1" } else { "e8" }
            ),
            ChessProblem::CastlingWithoutRook { color, king_side } => {
                let back = if *color == Color::Red { '1' } else { '8' };
                let file = if *king_side { 'h' } else { 'a' };
                write!(
                    f,
                    "{} may castle {} but has no rook on {file}{back}",
                    side_name(*color),
                    wing(*king_side)
                )
            }
            ChessProblem::EnPassantRank(sq) => write!(
                f,
                "the en-passant square {} is not on the rank a pawn of the side that just moved passes",
                square::name(*sq)
            ),
            ChessProblem::EnPassantNoPawn(sq) => write!(
                f,
                "no pawn stands beyond the en-passant square {} as after a two-square move",
                square::name(*sq)
            ),
            ChessProblem::EnPassantBlocked(sq) => write!(
                f,
                "the en-passant square {} and the square the pawn came from must be empty",
                square::name(*sq)
            ),
            ChessProblem::OpponentInCheck(c) => write!(
                f,
                "{} is in check but it is not {}'s turn",
                side_name(*c),
                side_name(*c)
            ),
            ChessProblem::TooManyCheckers { color, count } => write!(
                f,
                "{} is in check from {count} pieces; no move gives more than two checks",
                side_name(*color)
            ),
            ChessProblem::AlignedCheckers { color, squares } => write!(
                f,
                "{} is in check from {} and {}, on one line through the king; no move gives both checks",
                side_name(*color),
                square::name(squares.0),
                square::name(squares.1)
            ),
            ChessProblem::Impossible(why) => write!(f, "impossible position: {why}"),
        }
    }
}

impl Default for ChessSetup {
    fn default() -> Self {
        ChessSetup::startpos()
    }
}

impl ChessSetup {
    /// An empty board, White to move, no castling.
    #[must_use]
    pub fn empty() -> ChessSetup {
        ChessSetup {
            board: [None; 64],
            turn: Color::Red,
            castling: [[false; 2]; 2],
            en_passant: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// The start position.
    #[must_use]
    pub fn startpos() -> ChessSetup {
        ChessSetup::from_fen(fen::START_FEN).unwrap_or_else(|_| ChessSetup::empty())
    }

    /// Reads a FEN without judging the position (only its syntax): an editor opens any
    /// board. Castling letters other than `KQkq` (Chess960 files) are read as the wing of
    /// the named file relative to the e-file.
    pub fn from_fen(text: &str) -> Result<ChessSetup, FenError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() > 6 {
            return Err(FenError::TooManyFields(fields.len()));
        }
        let board = fen::parse_placement(fields.first().ok_or(FenError::Empty)?)?;
        let turn = match fields.get(1).copied() {
            None | Some("w" | "W") => Color::Red,
            Some("b" | "B") => Color::Black,
            Some(other) => return Err(FenError::BadSide(other.to_owned())),
        };
        let mut castling = [[false; 2]; 2];
        let field = fields.get(2).copied().unwrap_or("-");
        for ch in field.chars().filter(|&c| c != '-') {
            let color = if ch.is_ascii_uppercase() {
                Color::Red
            } else {
                Color::Black
            };
            let king_side = match ch.to_ascii_lowercase() {
                'k' => true,
                'q' => false,
                f @ 'a'..='h' => f > 'e',
                _ => {
                    return Err(FenError::BadCastling {
                        field: field.to_owned(),
                        reason: format!("`{ch}` is not a castling letter: use K, Q, k, q or -"),
                    });
                }
            };
            castling[color.index()][usize::from(!king_side)] = true;
        }
        let en_passant = match fields.get(3).copied() {
            None | Some("-") => None,
            Some(f) => Some(square::parse(f).ok_or_else(|| FenError::BadEnPassant {
                field: f.to_owned(),
                reason: "not a square like e3 or -".to_owned(),
            })?),
        };
        let counter = |i: usize, field: &'static str, default: u16| match fields.get(i) {
            None => Ok(default),
            Some(v) => v.parse::<u16>().map_err(|_| FenError::BadCounter {
                field,
                value: (*v).to_owned(),
            }),
        };
        Ok(ChessSetup {
            board,
            turn,
            castling,
            en_passant,
            halfmoves: counter(4, "half-move clock", 0)?,
            fullmoves: counter(5, "move number", 1)?.max(1),
        })
    }

    /// The piece on square `sq` (0–63).
    #[must_use]
    pub fn get(&self, sq: u8) -> Option<(Color, Role)> {
        self.board.get(usize::from(sq)).copied().flatten()
    }

    /// Puts (or with `None` removes) a piece; a square off the board is ignored.
    pub fn put(&mut self, sq: u8, piece: Option<(Color, Role)>) {
        if let Some(cell) = self.board.get_mut(usize::from(sq)) {
            *cell = piece;
        }
    }

    fn count(&self, want: impl Fn(Color, Role) -> bool) -> u8 {
        self.board
            .iter()
            .filter(|p| p.is_some_and(|(c, r)| want(c, r)))
            .count() as u8
    }

    /// Every problem that keeps this board from being a legal position (empty if none).
    #[must_use]
    pub fn problems(&self) -> Vec<ChessProblem> {
        let mut out = Vec::new();
        for color in Color::ALL {
            match self.count(|c, r| c == color && r == Role::King) {
                0 => out.push(ChessProblem::MissingKing(color)),
                1 => {}
                count => out.push(ChessProblem::TooManyKings { color, count }),
            }
            let pawns = self.count(|c, r| c == color && r == Role::Pawn);
            if pawns > 8 {
                out.push(ChessProblem::TooManyPawns {
                    color,
                    count: pawns,
                });
            }
            let pieces = self.count(|c, _| c == color);
            if pieces > 16 {
                out.push(ChessProblem::TooManyPieces {
                    color,
                    count: pieces,
                });
            }
        }
        for sq in 0..64u8 {
            if self.get(sq).is_some_and(|(_, r)| r == Role::Pawn)
                && matches!(square::rank(sq), 0 | 7)
            {
                out.push(ChessProblem::PawnOnBackRank(sq));
            }
        }
        for color in Color::ALL {
            let back = if color == Color::Red { 0 } else { 7 };
            let on_back = |role: Role| {
                (0..8u8).filter(move |&f| {
                    square::at(f, back).and_then(|s| self.get(s)) == Some((color, role))
                })
            };
            // Chess960 as well as standard chess: the king anywhere on its back rank (e1 in
            // standard chess), a rook of its colour on the back rank on that wing's side.
            let king = on_back(Role::King).next();
            for (wing, king_side) in [(0, true), (1, false)] {
                if !self.castling[color.index()][wing] {
                    continue;
                }
                if king.is_none() {
                    out.push(ChessProblem::CastlingWithoutKing { color, king_side });
                }
                let k = king.unwrap_or(4);
                if !on_back(Role::Rook).any(|f| if king_side { f > k } else { f < k }) {
                    out.push(ChessProblem::CastlingWithoutRook { color, king_side });
                }
            }
        }
        if let Some(ep) = self.en_passant {
            self.en_passant_problems(ep, &mut out);
        }
        let waiting = self.turn.other();
        if let Some(k) = king_square(&self.board, waiting)
            && !attackers(&self.board, k, self.turn).is_empty()
        {
            out.push(ChessProblem::OpponentInCheck(waiting));
        }
        if let Some(k) = king_square(&self.board, self.turn) {
            let checkers = attackers(&self.board, k, waiting);
            let n = checkers.len();
            if n > 2 {
                out.push(ChessProblem::TooManyCheckers {
                    color: self.turn,
                    count: n as u8,
                });
            }
            if let Some((a, b)) = aligned_checkers(checkers, k) {
                out.push(ChessProblem::AlignedCheckers {
                    color: self.turn,
                    squares: (a as u8, b as u8),
                });
            }
        }
        if out.is_empty()
            && let Err(e) = fen::parse(&self.to_fen())
        {
            out.push(ChessProblem::Impossible(e.to_string()));
        }
        out
    }

    fn en_passant_problems(&self, ep: u8, out: &mut Vec<ChessProblem>) {
        let (want_rank, step): (u8, i8) = if self.turn == Color::Red {
            (5, -1)
        } else {
            (2, 1)
        };
        if square::rank(ep) != want_rank {
            out.push(ChessProblem::EnPassantRank(ep));
            return;
        }
        let file = square::file(ep);
        let pawn = square::at(file, (want_rank as i8 + step) as u8);
        let from = square::at(file, (want_rank as i8 - step) as u8);
        if pawn.and_then(|s| self.get(s)) != Some((self.turn.other(), Role::Pawn)) {
            out.push(ChessProblem::EnPassantNoPawn(ep));
        }
        if self.get(ep).is_some() || from.and_then(|s| self.get(s)).is_some() {
            out.push(ChessProblem::EnPassantBlocked(ep));
        }
    }

    /// The FEN of this board as it stands (legal or not).
    #[must_use]
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..8u8).rev() {
            let mut empty = 0u8;
            for file in 0..8u8 {
                match square::at(file, rank).and_then(|sq| self.get(sq)) {
                    Some((c, r)) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(r.fen_char(c));
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.turn == Color::Red {
            " w "
        } else {
            " b "
        });
        let mut any = false;
        for (color, wing, letter) in [(0, 0, 'K'), (0, 1, 'Q'), (1, 0, 'k'), (1, 1, 'q')] {
            if self.castling[color][wing] {
                s.push(letter);
                any = true;
            }
        }
        if !any {
            s.push('-');
        }
        s.push(' ');
        match self.en_passant {
            Some(sq) => s.push_str(&square::name(sq)),
            None => s.push('-'),
        }
        s.push(' ');
        s.push_str(&self.halfmoves.to_string());
        s.push(' ');
        s.push_str(&self.fullmoves.max(1).to_string());
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(fen: &str) -> Vec<String> {
        ChessSetup::from_fen(fen).map_or_else(
            |e| vec![e.to_string()],
            |s| s.problems().iter().map(ToString::to_string).collect(),
        )
    }

    #[test]
    fn every_problem_is_listed() {
        let p = problems("4k2P/8/8/8/8/8/8/K3K3 w KQkq e6 0 1");
        assert_eq!(
            p,
            vec![
                "white has 2 kings, one allowed",
                "the pawn on h8 stands on a back rank, where pawns never stand",
                "white may castle king side (O-O) but has no rook on h1",
                "white may castle queen side (O-O-O) but has no rook on a1",
                "black may castle king side (O-O) but has no rook on h8",
                "black may castle queen side (O-O-O) but has no rook on a8",
                "no pawn stands beyond the en-passant square e6 as after a two-square move",
            ]
        );
        assert_eq!(
            problems("4k2R/8/8/8/8/8/8/4K3 w - - 0 1"),
            vec!["black is in check but it is not black's turn"]
        );
        assert_eq!(
            problems("4k3/8/8/8/1b6/3n4/8/r3K3 w - - 0 1"),
            vec!["white is in check from 3 pieces; no move gives more than two checks"]
        );
        assert_eq!(
            problems("4k3/8/2r5/2K5/8/8/8/2q5 w - - 0 1"),
            vec![
                "white is in check from c1 and c6, on one line through the king; no move gives both checks"
            ]
        );
        assert_eq!(
            problems("4k3/8/8/8/8/8/8/4K3 w K - 0 1"),
            vec!["white may castle king side (O-O) but has no rook on h1"]
        );
        assert_eq!(
            problems("4k3/8/8/8/8/8/4K3/8 w K - 0 1"),
            vec![
                "white may castle king side (O-O) but its king is not on e1",
                "white may castle king side (O-O) but has no rook on h1"
            ]
        );
        // Chess960 castling rights (a king off e1, rooks off a1 and h1) are not problems:
        // only the real one (the check) is listed.
        assert_eq!(
            problems("k7/8/8/8/8/8/8/RK5R w HA - 0 1"),
            vec!["black is in check but it is not black's turn"]
        );
        assert!(problems("k7/8/8/8/8/8/8/1R2K1R1 w KQ - 0 1").is_empty());
        assert!(problems(fen::START_FEN).is_empty());
        assert_eq!(ChessSetup::startpos().to_fen(), fen::START_FEN);
    }

    #[test]
    fn legal_setups_read_as_fen() {
        let s =
            ChessSetup::from_fen("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1").unwrap_or_default();
        assert!(s.problems().is_empty(), "{:?}", s.problems());
        assert!(crate::Chess::from_fen(&s.to_fen()).is_ok());
    }
}
