//! FEN in the xqbase form: ranks from Black's side (rank 9) down to rank 0, files a–i,
//! upper case Red; then the side to move (`w`/`r` Red, `b` Black), two unused fields
//! (`-`), the half-move clock (plies without capture) and the full-move number. `h`/`e`
//! are accepted as aliases of `n`/`b`; the trailing fields may be left out.
//!
//! ```
//! use banco_xiangqi::{fen, Position};
//! let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
//! let pos = fen::parse(start).unwrap();
//! assert_eq!(fen::to_fen(&pos), start);
//! let err = fen::parse("rnbakabnr/9/1c5c2/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w").unwrap_err();
//! assert_eq!(err.to_string(), "FEN rank 7 has 10 files, expected 9");
//! ```

use crate::piece::Piece;
use crate::position::Position;
use crate::setup::{PositionError, Setup};
use crate::square::Square;
use banco_game::Color;

/// The start position in FEN.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// What is wrong with a FEN string.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The string is empty.
    #[error("FEN is empty")]
    Empty,
    /// Not ten ranks.
    #[error("FEN has {0} ranks, expected 10")]
    RankCount(usize),
    /// A rank does not have nine files.
    #[error("FEN rank {rank} has {files} files, expected 9")]
    FileCount {
        /// Rank 0–9 from Red's side.
        rank: u8,
        /// Files found.
        files: usize,
    },
    /// A character that is neither a piece letter nor a digit 1–9.
    #[error(
        "FEN rank {rank} has `{ch}`, which is not a piece letter (KABNRCP, or H/E) or a digit 1-9"
    )]
    BadChar {
        /// Rank 0–9 from Red's side.
        rank: u8,
        /// The offending character.
        ch: char,
    },
    /// The side-to-move field is not `w`, `r` or `b`.
    #[error("FEN side to move is `{0}`, expected w (or r) for Red or b for Black")]
    BadSide(String),
    /// A counter is not a number from 0 to 65535.
    #[error("FEN {field} is `{value}`, expected a whole number from 0 to 65535")]
    BadCounter {
        /// Which field.
        field: &'static str,
        /// What was there.
        value: String,
    },
    /// The board is readable but not a legal position.
    #[error("{0}")]
    Position(#[from] PositionError),
}

/// The errors of the board field that every xiangqi-board FEN shares (xiangqi and jieqi).
pub(crate) trait PlacementError {
    /// Not ten ranks.
    fn rank_count(ranks: usize) -> Self;
    /// A rank without nine files.
    fn file_count(rank: u8, files: usize) -> Self;
}

impl PlacementError for FenError {
    fn rank_count(ranks: usize) -> Self {
        FenError::RankCount(ranks)
    }
    fn file_count(rank: u8, files: usize) -> Self {
        FenError::FileCount { rank, files }
    }
}

/// Reads the board field (ranks 9 down to 0, `/` between them, digits 1–9 for empty
/// files): `piece(square, rank, ch)` gets every character that is not a digit, with its
/// square (`None` past the ninth file, which the count then reports).
pub(crate) fn read_placement<E: PlacementError>(
    board: &str,
    mut piece: impl FnMut(Option<Square>, u8, char) -> Result<(), E>,
) -> Result<(), E> {
    let ranks = board.split('/').count();
    if ranks != 10 {
        return Err(E::rank_count(ranks));
    }
    for (text, rank) in board.split('/').zip((0..10u8).rev()) {
        let mut file = 0usize;
        for ch in text.chars() {
            if let Some(d) = ch.to_digit(10).filter(|d| (1..=9).contains(d)) {
                file += d as usize;
                continue;
            }
            let sq = u8::try_from(file)
                .ok()
                .filter(|&f| f < 9)
                .and_then(|f| Square::new(f, rank));
            piece(sq, rank, ch)?;
            file += 1;
        }
        if file != 9 {
            return Err(E::file_count(rank, file));
        }
    }
    Ok(())
}

/// Writes the board field: `piece(square)` gives the letter standing there.
pub(crate) fn write_placement(out: &mut String, piece: impl Fn(Square) -> Option<char>) {
    for rank in (0..10u8).rev() {
        let mut empty = 0;
        for file in 0..9u8 {
            match Square::new(file, rank).and_then(&piece) {
                Some(c) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
}

/// Parses a FEN into an unvalidated [`Setup`] (syntax only).
pub fn parse_setup(fen: &str) -> Result<Setup, FenError> {
    let mut fields = fen.split_whitespace();
    let board = fields.next().ok_or(FenError::Empty)?;
    let mut setup = Setup::empty();
    read_placement::<FenError>(board, |sq, rank, ch| {
        let p = Piece::from_fen_char(ch).ok_or(FenError::BadChar { rank, ch })?;
        if let Some(sq) = sq {
            setup.put(sq, Some(p));
        }
        Ok(())
    })?;
    setup.turn = match fields.next() {
        None | Some("w" | "r" | "W" | "R") => Color::Red,
        Some("b" | "B") => Color::Black,
        Some(other) => return Err(FenError::BadSide(other.to_owned())),
    };
    let _castling = fields.next();
    let _en_passant = fields.next();
    if let Some(h) = fields.next() {
        setup.halfmoves = h.parse().map_err(|_| FenError::BadCounter {
            field: "half-move clock",
            value: h.to_owned(),
        })?;
    }
    if let Some(n) = fields.next() {
        setup.fullmoves = n.parse().map_err(|_| FenError::BadCounter {
            field: "move number",
            value: n.to_owned(),
        })?;
    }
    Ok(setup)
}

/// Parses and validates a FEN.
pub fn parse(fen: &str) -> Result<Position, FenError> {
    Ok(Position::from_setup(&parse_setup(fen)?)?)
}

/// The FEN of a setup.
#[must_use]
pub fn setup_to_fen(setup: &Setup) -> String {
    let mut s = String::with_capacity(80);
    write_placement(&mut s, |sq| setup.get(sq).map(Piece::fen_char));
    let side = if setup.turn == Color::Red { 'w' } else { 'b' };
    format!("{s} {side} - - {} {}", setup.halfmoves, setup.fullmoves)
}

/// The FEN of a position.
#[must_use]
pub fn to_fen(pos: &Position) -> String {
    setup_to_fen(&pos.to_setup())
}

impl core::str::FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        parse(s)
    }
}
