//! Pieces as a front end draws them, for every board game: one [`PieceKind`] covering the
//! kinds of xiangqi and chess, and [`PieceInfo`] with the letter, glyph and name.
//!
//! ```
//! use banco_app::pieces::{PieceKind, piece_kinds};
//! use banco_game::GameKind;
//! assert_eq!(piece_kinds(GameKind::Xiangqi).len(), 7);
//! assert!(piece_kinds(GameKind::Chess).contains(&PieceKind::Queen));
//! assert_eq!(PieceKind::Cannon.name(), "cannon");
//! ```

use banco_game::{Color, GameKind};
use banco_xiangqi as x;

/// The kind of a piece, in any of the board games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// King (xiangqi general 帥/將, chess king).
    King,
    /// Xiangqi advisor (仕/士).
    Advisor,
    /// Xiangqi elephant (相/象).
    Elephant,
    /// Xiangqi horse (傌/馬).
    Horse,
    /// Rook (xiangqi chariot 俥/車, chess rook).
    Rook,
    /// Xiangqi cannon (炮/砲).
    Cannon,
    /// Pawn (xiangqi soldier 兵/卒, chess pawn).
    Pawn,
    /// Chess queen.
    Queen,
    /// Chess bishop.
    Bishop,
    /// Chess knight.
    Knight,
}

const XIANGQI_KINDS: [PieceKind; 7] = [
    PieceKind::King,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Rook,
    PieceKind::Cannon,
    PieceKind::Pawn,
];

const CHESS_KINDS: [PieceKind; 6] = [
    PieceKind::King,
    PieceKind::Queen,
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Knight,
    PieceKind::Pawn,
];

/// The kinds of pieces of a game (a palette for a position editor), most valuable first
/// for chess, in xiangqi's traditional order for xiangqi; empty for games without pieces.
#[must_use]
pub fn piece_kinds(game: GameKind) -> &'static [PieceKind] {
    match game {
        GameKind::Xiangqi | GameKind::Jieqi => &XIANGQI_KINDS,
        GameKind::Chess => &CHESS_KINDS,
        GameKind::Lines => &[],
    }
}

impl PieceKind {
    /// The English name in lower case (`cannon`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::King => "king",
            PieceKind::Advisor => "advisor",
            PieceKind::Elephant => "elephant",
            PieceKind::Horse => "horse",
            PieceKind::Rook => "rook",
            PieceKind::Cannon => "cannon",
            PieceKind::Pawn => "pawn",
            PieceKind::Queen => "queen",
            PieceKind::Bishop => "bishop",
            PieceKind::Knight => "knight",
        }
    }

    /// The kind of a xiangqi piece.
    #[must_use]
    pub const fn from_xiangqi(k: x::PieceKind) -> PieceKind {
        match k {
            x::PieceKind::King => PieceKind::King,
            x::PieceKind::Advisor => PieceKind::Advisor,
            x::PieceKind::Elephant => PieceKind::Elephant,
            x::PieceKind::Horse => PieceKind::Horse,
            x::PieceKind::Rook => PieceKind::Rook,
            x::PieceKind::Cannon => PieceKind::Cannon,
            x::PieceKind::Pawn => PieceKind::Pawn,
        }
    }
}

/// A piece with what a front end needs to draw and name it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PieceInfo {
    /// Its side.
    pub color: Color,
    /// Its kind.
    pub kind: PieceKind,
    /// FEN letter, upper case for the first player (`C`, `n`, `Q`).
    pub letter: char,
    /// The glyph to draw: a Chinese character for xiangqi (`炮`, `馬`), a Unicode chess
    /// symbol for chess (`♕`, `♞`); [`FACE_DOWN_GLYPH`] for a face-down jieqi piece.
    pub glyph: char,
    /// A face-down jieqi piece: draw its back in its colour. Nobody knows its identity
    /// before it is revealed (there is none yet: it is drawn from the pool at the reveal);
    /// `kind` is then the kind of its home square, which it moves as, and `letter` is
    /// `X`/`x` as in jieqi FEN.
    pub face_down: bool,
}

/// The glyph of a face-down jieqi piece (暗, "hidden").
pub const FACE_DOWN_GLYPH: char = '暗';

impl PieceInfo {
    /// A chess piece.
    #[must_use]
    pub fn chess(color: Color, role: banco_chess::Role) -> PieceInfo {
        use banco_chess::Role;
        PieceInfo {
            color,
            kind: match role {
                Role::Pawn => PieceKind::Pawn,
                Role::Knight => PieceKind::Knight,
                Role::Bishop => PieceKind::Bishop,
                Role::Rook => PieceKind::Rook,
                Role::Queen => PieceKind::Queen,
                Role::King => PieceKind::King,
            },
            letter: role.fen_char(color),
            glyph: role.glyph(color),
            face_down: false,
        }
    }

    /// A xiangqi piece.
    #[must_use]
    pub fn xiangqi(p: x::Piece) -> PieceInfo {
        PieceInfo {
            color: p.color,
            kind: PieceKind::from_xiangqi(p.kind),
            letter: p.fen_char(),
            glyph: p.chinese(),
            face_down: false,
        }
    }

    /// A jieqi piece: a revealed one as in xiangqi, a face-down one with its colour, the
    /// kind it moves as, letter `X`/`x` and [`FACE_DOWN_GLYPH`].
    #[must_use]
    pub fn jieqi(p: x::jieqi::JieqiPiece) -> PieceInfo {
        if p.hidden {
            PieceInfo {
                color: p.color,
                kind: PieceKind::from_xiangqi(p.kind),
                letter: p.fen_char(),
                glyph: FACE_DOWN_GLYPH,
                face_down: true,
            }
        } else {
            PieceInfo::xiangqi(p.piece())
        }
    }
}

impl PieceKind {
    /// The xiangqi kind of this piece, if xiangqi has it.
    #[must_use]
    pub const fn to_xiangqi(self) -> Option<x::PieceKind> {
        Some(match self {
            PieceKind::King => x::PieceKind::King,
            PieceKind::Advisor => x::PieceKind::Advisor,
            PieceKind::Elephant => x::PieceKind::Elephant,
            PieceKind::Horse => x::PieceKind::Horse,
            PieceKind::Rook => x::PieceKind::Rook,
            PieceKind::Cannon => x::PieceKind::Cannon,
            PieceKind::Pawn => x::PieceKind::Pawn,
            PieceKind::Queen | PieceKind::Bishop | PieceKind::Knight => return None,
        })
    }

    /// The chess role of this piece, if chess has it.
    #[must_use]
    pub const fn to_chess(self) -> Option<banco_chess::Role> {
        use banco_chess::Role;
        Some(match self {
            PieceKind::King => Role::King,
            PieceKind::Queen => Role::Queen,
            PieceKind::Rook => Role::Rook,
            PieceKind::Bishop => Role::Bishop,
            PieceKind::Knight => Role::Knight,
            PieceKind::Pawn => Role::Pawn,
            PieceKind::Advisor | PieceKind::Elephant | PieceKind::Horse | PieceKind::Cannon => {
                return None;
            }
        })
    }
}

/// A piece of `game` with its letter and glyph, if the game has pieces of that kind.
#[must_use]
pub fn piece_info(game: GameKind, color: Color, kind: PieceKind) -> Option<PieceInfo> {
    match game {
        GameKind::Xiangqi | GameKind::Jieqi => kind
            .to_xiangqi()
            .map(|k| PieceInfo::xiangqi(x::Piece::new(color, k))),
        GameKind::Chess => kind.to_chess().map(|r| PieceInfo::chess(color, r)),
        GameKind::Lines => None,
    }
}
