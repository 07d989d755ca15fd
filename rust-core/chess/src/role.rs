//! [`Role`]: the six kinds of chess pieces, with their FEN letters, Unicode glyphs and
//! names, and [`Promotion`]: the four a pawn may become.
//!
//! ```
//! use banco_chess::{Promotion, Role};
//! use banco_game::Color;
//! assert_eq!(Role::Knight.letter(), 'N');
//! assert_eq!(Role::Knight.glyph(Color::Red), '♘');   // Red is White
//! assert_eq!(Role::Knight.glyph(Color::Black), '♞');
//! assert_eq!(Role::Queen.name(), "queen");
//! assert_eq!(Promotion::from_char('q'), Some(Promotion::Queen));
//! assert_eq!(Promotion::Rook.role(), Role::Rook);
//! ```

use banco_game::Color;
use cozy_chess::Piece;

/// A kind of chess piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Pawn.
    Pawn,
    /// Knight.
    Knight,
    /// Bishop.
    Bishop,
    /// Rook.
    Rook,
    /// Queen.
    Queen,
    /// King.
    King,
}

impl Role {
    /// Every role, pawn first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// The FEN and SAN letter, upper case (`P N B R Q K`); FEN writes Black's in lower case.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
        }
    }

    /// The FEN character of this role for `color` (upper case White, lower case Black).
    #[must_use]
    pub const fn fen_char(self, color: Color) -> char {
        match color {
            Color::Red => self.letter(),
            Color::Black => self.letter().to_ascii_lowercase(),
        }
    }

    /// The role and colour of a FEN character (`N` a white knight, `n` a black one).
    #[must_use]
    pub fn from_fen_char(ch: char) -> Option<(Color, Role)> {
        let role = Role::ALL
            .into_iter()
            .find(|r| r.letter() == ch.to_ascii_uppercase())?;
        let color = if ch.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        Some((color, role))
    }

    /// The Unicode chess symbol: ♔♕♖♗♘♙ for White ([`Color::Red`]), ♚♛♜♝♞♟ for Black.
    #[must_use]
    pub const fn glyph(self, color: Color) -> char {
        match (color, self) {
            (Color::Red, Role::King) => '♔',
            (Color::Red, Role::Queen) => '♕',
            (Color::Red, Role::Rook) => '♖',
            (Color::Red, Role::Bishop) => '♗',
            (Color::Red, Role::Knight) => '♘',
            (Color::Red, Role::Pawn) => '♙',
            (Color::Black, Role::King) => '♚',
            (Color::Black, Role::Queen) => '♛',
            (Color::Black, Role::Rook) => '♜',
            (Color::Black, Role::Bishop) => '♝',
            (Color::Black, Role::Knight) => '♞',
            (Color::Black, Role::Pawn) => '♟',
        }
    }

    /// The English name in lower case (`knight`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        }
    }

    /// The piece a pawn becomes when promoting to this role, if it may.
    #[must_use]
    pub const fn promotion(self) -> Option<Promotion> {
        match self {
            Role::Knight => Some(Promotion::Knight),
            Role::Bishop => Some(Promotion::Bishop),
            Role::Rook => Some(Promotion::Rook),
            Role::Queen => Some(Promotion::Queen),
            Role::Pawn | Role::King => None,
        }
    }

    #[inline]
    pub(crate) const fn from_cozy(piece: Piece) -> Role {
        match piece {
            Piece::Pawn => Role::Pawn,
            Piece::Knight => Role::Knight,
            Piece::Bishop => Role::Bishop,
            Piece::Rook => Role::Rook,
            Piece::Queen => Role::Queen,
            Piece::King => Role::King,
        }
    }

    #[inline]
    pub(crate) const fn to_cozy(self) -> Piece {
        match self {
            Role::Pawn => Piece::Pawn,
            Role::Knight => Piece::Knight,
            Role::Bishop => Piece::Bishop,
            Role::Rook => Piece::Rook,
            Role::Queen => Piece::Queen,
            Role::King => Piece::King,
        }
    }
}

/// What a pawn reaching the last rank becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Promotion {
    /// Knight (under-promotion).
    Knight,
    /// Bishop (under-promotion).
    Bishop,
    /// Rook (under-promotion).
    Rook,
    /// Queen.
    Queen,
}

impl Promotion {
    /// The four, knight first (the order of the wire code's piece number).
    pub const ALL: [Promotion; 4] = [
        Promotion::Knight,
        Promotion::Bishop,
        Promotion::Rook,
        Promotion::Queen,
    ];

    /// The role the pawn becomes.
    #[must_use]
    pub const fn role(self) -> Role {
        match self {
            Promotion::Knight => Role::Knight,
            Promotion::Bishop => Role::Bishop,
            Promotion::Rook => Role::Rook,
            Promotion::Queen => Role::Queen,
        }
    }

    /// 0 knight, 1 bishop, 2 rook, 3 queen.
    #[must_use]
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The promotion with this [`Promotion::index`].
    #[must_use]
    pub const fn from_index(index: u8) -> Option<Promotion> {
        match index {
            0 => Some(Promotion::Knight),
            1 => Some(Promotion::Bishop),
            2 => Some(Promotion::Rook),
            3 => Some(Promotion::Queen),
            _ => None,
        }
    }

    /// The UCI letter, lower case (`q`).
    #[must_use]
    pub const fn uci_char(self) -> char {
        self.role().letter().to_ascii_lowercase()
    }

    /// The promotion named by a letter of either case (`q`, `Q`, `n`, …).
    #[must_use]
    pub fn from_char(ch: char) -> Option<Promotion> {
        match ch.to_ascii_lowercase() {
            'n' => Some(Promotion::Knight),
            'b' => Some(Promotion::Bishop),
            'r' => Some(Promotion::Rook),
            'q' => Some(Promotion::Queen),
            _ => None,
        }
    }

    #[inline]
    pub(crate) const fn to_cozy(self) -> Piece {
        self.role().to_cozy()
    }
}

/// Converts between cozy-chess colours and Banco's ([`Color::Red`] is White).
#[inline]
pub(crate) const fn color_from_cozy(c: cozy_chess::Color) -> Color {
    match c {
        cozy_chess::Color::White => Color::Red,
        cozy_chess::Color::Black => Color::Black,
    }
}

/// Converts a Banco colour to cozy-chess's ([`Color::Red`] is White).
#[inline]
pub(crate) const fn color_to_cozy(c: Color) -> cozy_chess::Color {
    match c {
        Color::Red => cozy_chess::Color::White,
        Color::Black => cozy_chess::Color::Black,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        for role in Role::ALL {
            for color in Color::ALL {
                assert_eq!(
                    Role::from_fen_char(role.fen_char(color)),
                    Some((color, role))
                );
            }
            assert_eq!(Role::from_cozy(role.to_cozy()), role);
        }
        assert_eq!(Role::from_fen_char('x'), None);
        for p in Promotion::ALL {
            assert_eq!(Promotion::from_index(p.index()), Some(p));
            assert_eq!(Promotion::from_char(p.uci_char()), Some(p));
            assert_eq!(p.role().promotion(), Some(p));
        }
        assert_eq!(Role::King.promotion(), None);
    }
}
