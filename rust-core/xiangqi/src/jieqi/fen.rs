//! Jieqi FEN, as Pikafish's jieqi branch writes it: the xiangqi board with `X`/`x` for
//! face-down pieces, the side to move, the pools of unrevealed pieces (`R2A2C2P5N2B2` for
//! Red, then lower case for Black; a letter without a count means one, `-` means both
//! pools are empty), the half-move clock and the move number. A fourth field `-` between
//! the pools and the clock (the xiangqi FEN layout) is accepted too.
//!
//! ```
//! use banco_xiangqi::jieqi::{self, JieqiPosition};
//! let pos = JieqiPosition::from_fen(jieqi::START_FEN).unwrap();
//! assert_eq!(pos.fen(), jieqi::START_FEN);
//! let err = JieqiPosition::from_fen("4k4/9/9/9/4X4/9/9/9/9/4K4 w R1 0 1").unwrap_err();
//! assert_eq!(err.to_string(), "the face-down piece on e5 is not on a home square of red");
//! ```

use super::position::{HIDDEN, HOME, JieqiPiece, JieqiPosition, Pool};
use super::setup::{JieqiSetup, Placed, home_kind};
use crate::fen::{PlacementError, write_placement};
use crate::piece::{Piece, PieceKind};
use crate::square::Square;
use crate::tables::*;
use banco_game::Color;
use core::fmt::Write as _;

/// The start position.
pub const START_FEN: &str =
    "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2A2C2P5N2B2r2a2c2p5n2b2 0 1";

/// The order of kinds in a written pool.
const POOL_ORDER: [PieceKind; 6] = [
    PieceKind::Rook,
    PieceKind::Advisor,
    PieceKind::Cannon,
    PieceKind::Pawn,
    PieceKind::Horse,
    PieceKind::Elephant,
];

/// What is wrong with a jieqi FEN.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JieqiFenError {
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
    /// A character that is not a piece letter, `X`/`x` or a digit 1–9.
    #[error(
        "FEN rank {rank} has `{ch}`, which is not a piece letter (KABNRCP, H/E, X for a face-down piece) or a digit 1-9"
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
    /// The pool field is missing or unreadable.
    #[error(
        "FEN pool `{0}` is not a list of piece letters with counts like R2A2C2P5N2B2r2a2c2p5n2b2 (or -)"
    )]
    BadPool(String),
    /// A counter is not a number from 0 to 65535.
    #[error("FEN {field} is `{value}`, expected a whole number from 0 to 65535")]
    BadCounter {
        /// Which field.
        field: &'static str,
        /// What was there.
        value: String,
    },
    /// A face-down piece stands where none of its side starts.
    #[error("the face-down piece on {square} is not on a home square of {color}")]
    HiddenOffHome {
        /// Where.
        square: Square,
        /// Whose.
        color: Color,
    },
    /// Not exactly one king.
    #[error("{color} has {count} kings, expected 1")]
    Kings {
        /// Whose.
        color: Color,
        /// How many.
        count: u8,
    },
    /// A king outside its palace.
    #[error("the king on {0} is outside its palace")]
    KingOutsidePalace(Square),
    /// More pieces of a kind face up and in the pool than a side has.
    #[error("{color} has {count} {kind}s face up and in its pool, at most {max}", kind = kind.name())]
    TooMany {
        /// Whose.
        color: Color,
        /// Which kind.
        kind: PieceKind,
        /// Face up plus pool.
        count: u8,
        /// The start count.
        max: u8,
    },
    /// Fewer identities in the pool than face-down pieces on the board.
    #[error(
        "{color} has {hidden} face-down piece{} but only {pool} in its pool",
        if *.hidden == 1 { "" } else { "s" }
    )]
    PoolShort {
        /// Whose.
        color: Color,
        /// Face-down pieces on the board.
        hidden: u32,
        /// Pieces in the pool.
        pool: u32,
    },
    /// The side that just moved is in check.
    #[error("{0} is in check but it is not to move")]
    CheckNotToMove(Color),
    /// The two kings face each other on an open file.
    #[error("the two kings face each other on an open file")]
    KingsFacing,
}

impl PlacementError for JieqiFenError {
    fn rank_count(ranks: usize) -> Self {
        JieqiFenError::RankCount(ranks)
    }
    fn file_count(rank: u8, files: usize) -> Self {
        JieqiFenError::FileCount { rank, files }
    }
}

pub(crate) fn parse_pool(text: &str) -> Result<[Pool; 2], JieqiFenError> {
    let bad = || JieqiFenError::BadPool(text.to_owned());
    let mut pools = [Pool::EMPTY; 2];
    if text == "-" {
        return Ok(pools);
    }
    let mut seen = [[false; 7]; 2];
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let p = Piece::from_fen_char(c).ok_or_else(bad)?;
        if p.kind == PieceKind::King || seen[p.color.index()][p.kind as usize] {
            return Err(bad());
        }
        seen[p.color.index()][p.kind as usize] = true;
        let mut n: Option<u8> = None;
        while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
            chars.next();
            n = Some(n.unwrap_or(0).saturating_mul(10).saturating_add(d as u8));
        }
        pools[p.color.index()].set(p.kind, n.unwrap_or(1));
    }
    Ok(pools)
}

impl JieqiPosition {
    /// Parses and validates a jieqi FEN (see the module docs); errors name the first
    /// problem found.
    pub fn from_fen(fen: &str) -> Result<JieqiPosition, JieqiFenError> {
        JieqiPosition::from_setup(&JieqiSetup::parse(fen)?)
    }

    /// Validates a [`JieqiSetup`]; the error names the first problem found.
    pub fn from_setup(setup: &JieqiSetup) -> Result<JieqiPosition, JieqiFenError> {
        let side = setup.turn;
        let mut pos = JieqiPosition::empty(side, setup.halfmoves, setup.fullmoves);
        pos.pools = setup.pools;
        for sq in Square::all() {
            let code = match setup.get(sq) {
                None => continue,
                Some(Placed::FaceUp(p)) => p.code(),
                Some(Placed::FaceDown(color)) => {
                    let home = HOME[sq.to_inner() as usize];
                    if home_kind(sq, color).is_none() {
                        return Err(JieqiFenError::HiddenOffHome { square: sq, color });
                    }
                    home | HIDDEN
                }
            };
            pos.board[sq.to_inner() as usize] = code;
        }
        pos.validate()?;
        pos.finish();
        let (red, black) = (pos.king_square(Color::Red), pos.king_square(Color::Black));
        if red.faces(black, |s| pos.piece_at(s).is_some()) {
            return Err(JieqiFenError::KingsFacing);
        }
        if pos.is_check_on(side.other()) {
            return Err(JieqiFenError::CheckNotToMove(side.other()));
        }
        Ok(pos)
    }

    fn validate(&self) -> Result<(), JieqiFenError> {
        for color in Color::ALL {
            let mut revealed = [0u8; 7];
            let mut hidden = 0u32;
            for (sq, p) in self.pieces().filter(|(_, p)| p.color == color) {
                if p.hidden {
                    hidden += 1;
                    continue;
                }
                revealed[p.kind as usize] += 1;
                let i = sq.to_inner() as usize;
                if p.kind == PieceKind::King
                    && !(IN_PALACE[i] && own_half(color.index(), sq.to_inner()))
                {
                    return Err(JieqiFenError::KingOutsidePalace(sq));
                }
            }
            if revealed[0] != 1 {
                return Err(JieqiFenError::Kings {
                    color,
                    count: revealed[0],
                });
            }
            let pool = self.pools[color.index()];
            for kind in PieceKind::ALL.into_iter().skip(1) {
                let count = revealed[kind as usize].saturating_add(pool.count(kind));
                if count > kind.start_count() {
                    return Err(JieqiFenError::TooMany {
                        color,
                        kind,
                        count,
                        max: kind.start_count(),
                    });
                }
            }
            if pool.total() < hidden {
                return Err(JieqiFenError::PoolShort {
                    color,
                    hidden,
                    pool: pool.total(),
                });
            }
        }
        Ok(())
    }

    /// The FEN of this position (Pikafish's jieqi form, the pools written in full with
    /// zero counts). While a reveal is pending the moved piece is written face down off
    /// its home square, which [`JieqiPosition::from_fen`] refuses: such a FEN is for
    /// display only.
    #[must_use]
    pub fn fen(&self) -> String {
        let mut s = String::with_capacity(100);
        write_placement(&mut s, |sq| self.piece_at(sq).map(JieqiPiece::fen_char));
        s.push(' ');
        s.push(if self.side == Color::Red { 'w' } else { 'b' });
        s.push(' ');
        write_pools(&mut s, &self.pools);
        let _ = write!(s, " {} {}", self.halfmoves, self.fullmoves);
        s
    }
}

/// Writes both pools in full (zero counts included), the first player's first.
pub(crate) fn write_pools(s: &mut String, pools: &[Pool; 2]) {
    for color in Color::ALL {
        for kind in POOL_ORDER {
            s.push(Piece::new(color, kind).fen_char());
            let _ = write!(s, "{}", pools[color.index()].count(kind));
        }
    }
}

impl core::str::FromStr for JieqiPosition {
    type Err = JieqiFenError;
    fn from_str(s: &str) -> Result<JieqiPosition, JieqiFenError> {
        JieqiPosition::from_fen(s)
    }
}
