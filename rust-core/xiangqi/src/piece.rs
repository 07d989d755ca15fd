//! Pieces: a [`PieceKind`] and a [`Color`].
//!
//! ```
//! use banco_xiangqi::{Piece, PieceKind};
//! use banco_game::Color;
//! let p = Piece::from_fen_char('C').unwrap();
//! assert_eq!(p, Piece::new(Color::Red, PieceKind::Cannon));
//! assert_eq!(p.fen_char(), 'C');
//! assert_eq!(p.chinese(), '炮');
//! assert_eq!(Piece::from_fen_char('h'), Some(Piece::new(Color::Black, PieceKind::Horse)));
//! ```

use banco_game::Color;

/// The seven kinds of xiangqi pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// General / king (帥 將), confined to the palace.
    King = 0,
    /// Advisor (仕 士), diagonal steps in the palace.
    Advisor = 1,
    /// Elephant (相 象), two diagonal steps, blocked at the eye, never across the river.
    Elephant = 2,
    /// Horse (馬 傌), one orthogonal then one diagonal step, blocked at the leg.
    Horse = 3,
    /// Rook / chariot (車 俥).
    Rook = 4,
    /// Cannon (炮 砲): moves like a rook, captures by jumping exactly one screen.
    Cannon = 5,
    /// Pawn / soldier (兵 卒): forward, and sideways once across the river.
    Pawn = 6,
}

impl PieceKind {
    /// All kinds in order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::King,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Rook,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];

    /// How many of this kind each side has at the start.
    #[must_use]
    pub const fn start_count(self) -> u8 {
        match self {
            PieceKind::King => 1,
            PieceKind::Pawn => 5,
            _ => 2,
        }
    }

    /// The kind with this index (0–6).
    #[must_use]
    pub const fn from_index(i: u8) -> Option<PieceKind> {
        match i {
            0 => Some(PieceKind::King),
            1 => Some(PieceKind::Advisor),
            2 => Some(PieceKind::Elephant),
            3 => Some(PieceKind::Horse),
            4 => Some(PieceKind::Rook),
            5 => Some(PieceKind::Cannon),
            6 => Some(PieceKind::Pawn),
            _ => None,
        }
    }

    /// Upper-case FEN / WXF letter (`K A B N R C P`; WXF writes `E` and `H` for B and N).
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Rook => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
        }
    }

    /// English name.
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
        }
    }
}

/// A piece: colour and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Its kind.
    pub kind: PieceKind,
}

impl Piece {
    /// A piece of `color` and `kind`.
    #[must_use]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// The piece of a FEN letter: upper case Red, lower case Black; `h`/`e` are accepted as
    /// aliases of `n`/`b`.
    #[must_use]
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        let kind = match c.to_ascii_lowercase() {
            'k' => PieceKind::King,
            'a' => PieceKind::Advisor,
            'b' | 'e' => PieceKind::Elephant,
            'n' | 'h' => PieceKind::Horse,
            'r' => PieceKind::Rook,
            'c' => PieceKind::Cannon,
            'p' => PieceKind::Pawn,
            _ => return None,
        };
        Some(Piece { color, kind })
    }

    /// FEN letter (upper case for Red).
    #[must_use]
    pub fn fen_char(self) -> char {
        let c = self.kind.letter();
        if self.color == Color::Red {
            c
        } else {
            c.to_ascii_lowercase()
        }
    }

    /// The traditional Chinese glyph (Red and Black differ).
    #[must_use]
    pub const fn chinese(self) -> char {
        match (self.color, self.kind) {
            (Color::Red, PieceKind::King) => '帥',
            (Color::Red, PieceKind::Advisor) => '仕',
            (Color::Red, PieceKind::Elephant) => '相',
            (Color::Red, PieceKind::Horse) => '傌',
            (Color::Red, PieceKind::Rook) => '俥',
            (Color::Red, PieceKind::Cannon) => '炮',
            (Color::Red, PieceKind::Pawn) => '兵',
            (Color::Black, PieceKind::King) => '將',
            (Color::Black, PieceKind::Advisor) => '士',
            (Color::Black, PieceKind::Elephant) => '象',
            (Color::Black, PieceKind::Horse) => '馬',
            (Color::Black, PieceKind::Rook) => '車',
            (Color::Black, PieceKind::Cannon) => '砲',
            (Color::Black, PieceKind::Pawn) => '卒',
        }
    }

    /// Compact code used on the internal board: 0 is empty, Red 8–14, Black 16–22.
    #[inline]
    pub(crate) const fn code(self) -> u8 {
        (8 << self.color as u8) | self.kind as u8
    }

    /// The piece of an internal code (non-zero).
    #[inline]
    pub(crate) const fn from_code(code: u8) -> Option<Piece> {
        let color = if code & 8 != 0 {
            Color::Red
        } else if code & 16 != 0 {
            Color::Black
        } else {
            return None;
        };
        match PieceKind::from_index(code & 7) {
            Some(kind) => Some(Piece { color, kind }),
            None => None,
        }
    }
}
