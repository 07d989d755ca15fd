//! WXF notation (World Xiangqi Federation): `C2.5`, `H8+7`, `R1-2`, `C+.5`, `13.2`.
//!
//! A move is a piece, which piece of that kind, a direction and a number:
//!
//! * **Piece**: `K` king, `A` advisor, `E` elephant (`B` is read too), `H` horse (`N` is read
//!   too), `R` rook, `C` cannon, `P` pawn. Lower case is read too.
//! * **Which piece**: its file, 1–9 counted from the mover's right (for Red file `i` is 1
//!   and `a` is 9, for Black `a` is 1 and `i` is 9). When two like pieces share a file,
//!   `+` names the front one (nearer the opponent) and `-` the rear one, in place of the
//!   file: `C+=5`, `R-+3` (`+C=5` is read too).
//! * **Direction**: `+` forward, `-` backward, `.` sideways (`=`, the form of some
//!   programs and of the reference table, is read too).
//! * **Number**: for a sideways move, and for the diagonal movers (advisor, elephant,
//!   horse), the destination file; for the king, rook, cannon and pawn going forward or
//!   backward, the number of ranks travelled.
//!
//! Pawns that stand three or more on one file, or two or more on each of several files, are
//! named by their place from the front (1 is the front) followed by their file, without the
//! letter: `13=2` is the front pawn on file 3 moving sideways to file 2 (`P13=2` is read
//! too, and a letter may precede the place for other kinds).
//!
//! ## Forms written
//!
//! [`Wxf::from_move`] writes the forms Fairy-Stockfish writes, with the WXF's `.` for
//! sideways where Fairy-Stockfish writes `=` (the reference table
//! `tests/data/notation/xiangqi-wxf.tsv` is reproduced row for row but for that sign):
//! letters `K A E H R C P`; the place-and-file form for pawns three or more on a file or in tandem
//! on several files; `+`/`-` for the front/rear of two like pieces on a file when the other
//! piece could geometrically make the same step (on the board, and inside its palace or own
//! half for king, advisors and elephants) — otherwise the file, which is then unambiguous
//! (`A6+5` for an advisor on d0 with another on d2). In the rare set-up where that form
//! would not name the move uniquely, the front/rear or place-and-file form is written.
//! Every legal move written reads back as itself.
//!
//! ## Forms read
//!
//! All the above, and more leniently: `+`/`-` with several tandem files or three pieces on
//! the file (front-most / rear-most), the file form for one of two pieces on a file, and the
//! place-and-file form for any number of pieces on a file — as long as exactly one legal move
//! fits. Check marks are not part of WXF and are not read.
//!
//! ```
//! use banco_xiangqi::{Position, Wxf, fen};
//! let pos = Position::startpos();
//! let wxf: Wxf = "C2.5".parse().unwrap();
//! let mv = wxf.to_move(&pos).unwrap();
//! assert_eq!(mv.to_string(), "h2e2");
//! assert_eq!(Wxf::from_move(&pos, mv).to_string(), "C2.5");
//! assert_eq!("C2=5".parse::<Wxf>().unwrap(), wxf); // `=` is read too
//! assert_eq!("H8+7".parse::<Wxf>().unwrap().to_move(&pos).unwrap().to_string(), "b0c2");
//! assert!("C2+9".parse::<Wxf>().unwrap().to_move(&pos).is_err()); // well-formed, illegal
//! assert!("C2*5".parse::<Wxf>().is_err()); // malformed
//!
//! // Two cannons on one file: the front one moves to the centre.
//! let pos = fen::parse("9/3k1P3/9/5P3/2R6/2C6/9/2C6/5K3/2R6 w - - 0 1").unwrap();
//! let mv = "C+=5".parse::<Wxf>().unwrap().to_move(&pos).unwrap();
//! assert_eq!(mv.to_string(), "c4e4");
//! assert_eq!(Wxf::from_move(&pos, mv).to_string(), "C+.5");
//! ```

use super::IllegalMove;
use super::relative::{
    Description, Direction, Origin, Place, Wording, candidates, column, file_number, in_region,
    motion, resolve, tandem_files,
};
use crate::moves::Move;
use crate::piece::PieceKind;
use crate::position::Position;
use crate::square::Square;
use core::fmt;
use core::str::FromStr;

/// Which piece of the named kind moves, in the forms WXF can write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WxfOrigin {
    /// The piece on this file (1–9 from the mover's right): the `2` of `C2=5`.
    File(u8),
    /// The front one of two like pieces on a file: the `+` of `C+=5`.
    Front,
    /// The rear one of two like pieces on a file: the `-` of `R-+3`.
    Rear,
    /// The `index`-th piece from the front (1-based) on `file`: `13=2`.
    Index {
        /// Place from the front, 1 for the front piece.
        index: u8,
        /// File, 1–9 from the mover's right.
        file: u8,
    },
}

/// A move in WXF notation, not yet checked against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wxf {
    /// The kind of piece that moves.
    pub kind: PieceKind,
    /// Which piece of that kind.
    pub origin: WxfOrigin,
    /// Forward, backward or sideways.
    pub direction: Direction,
    /// Destination file (sideways moves, advisor, elephant, horse) or ranks travelled.
    pub number: u8,
}

/// A string that is not WXF notation; the message says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a WXF move: {reason}")]
pub struct ParseWxfError {
    /// The text as given.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

const SHAPE: &str = "expected a piece letter, its file (or + / - for the front / rear of \
                     two), a direction (+ - =) and a number, like C2=5, H8+7 or C+=5";

/// The kind of a WXF letter (upper case), with the FEN letters `B` and `N` as aliases.
fn kind_of_letter(c: char) -> Option<PieceKind> {
    Some(match c {
        'K' => PieceKind::King,
        'A' => PieceKind::Advisor,
        'E' | 'B' => PieceKind::Elephant,
        'H' | 'N' => PieceKind::Horse,
        'R' => PieceKind::Rook,
        'C' => PieceKind::Cannon,
        'P' => PieceKind::Pawn,
        _ => return None,
    })
}

/// The WXF letter of a kind.
fn letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        k => k.letter(),
    }
}

fn digit(c: char) -> Option<u8> {
    c.to_digit(10)
        .and_then(|d| u8::try_from(d).ok())
        .filter(|&d| d >= 1)
}

impl FromStr for Wxf {
    type Err = ParseWxfError;
    fn from_str(s: &str) -> Result<Wxf, ParseWxfError> {
        let err = |reason: &str| ParseWxfError {
            text: s.to_owned(),
            reason: reason.to_owned(),
        };
        let chars: Vec<char> = s
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| c.to_ascii_uppercase())
            .collect();
        if chars.is_empty() {
            return Err(err("it is empty; expected a move like C2=5"));
        }
        if let Some(&c) = chars.iter().find(|c| !c.is_ascii()) {
            return Err(err(&format!(
                "`{c}` is not ASCII; WXF uses letters, digits and + - = (Chinese moves are read \
                 by `Chinese`)"
            )));
        }
        let letter_kind = |c: char| {
            kind_of_letter(c).ok_or_else(|| {
                err(&format!(
                    "`{c}` is not a piece letter: use K A E H R C P (or B, N)"
                ))
            })
        };
        let index_file = |i: char, f: char| -> Result<(u8, u8), ParseWxfError> {
            let index = digit(i)
                .filter(|&d| d <= 5)
                .ok_or_else(|| err("the place of a pawn from the front must be 1 to 5"))?;
            let file = digit(f).ok_or_else(|| err("a file is a digit from 1 to 9"))?;
            Ok((index, file))
        };
        // Split into the piece-and-origin head and the two-character tail.
        let (kind, origin, tail) = match chars.as_slice() {
            [l, o, tail @ ..] if l.is_ascii_alphabetic() && tail.len() == 2 => {
                let kind = letter_kind(*l)?;
                let origin = match o {
                    '+' => WxfOrigin::Front,
                    '-' => WxfOrigin::Rear,
                    _ => WxfOrigin::File(digit(*o).ok_or_else(|| {
                        err(&format!(
                            "`{o}` is neither a file 1-9 nor + / - (front / rear)"
                        ))
                    })?),
                };
                (kind, origin, tail)
            }
            [s @ ('+' | '-'), l, tail @ ..] if tail.len() == 2 => {
                let origin = if *s == '+' {
                    WxfOrigin::Front
                } else {
                    WxfOrigin::Rear
                };
                (letter_kind(*l)?, origin, tail)
            }
            [i, f, tail @ ..] if i.is_ascii_digit() && tail.len() == 2 => {
                let (index, file) = index_file(*i, *f)?;
                (PieceKind::Pawn, WxfOrigin::Index { index, file }, tail)
            }
            [l, i @ '0'..='9', f @ '0'..='9', tail @ ..]
                if l.is_ascii_alphabetic() && tail.len() == 2 =>
            {
                let kind = letter_kind(*l)?;
                let (index, file) = index_file(*i, *f)?;
                (kind, WxfOrigin::Index { index, file }, tail)
            }
            _ => return Err(err(SHAPE)),
        };
        let [op, n] = tail else {
            return Err(err(SHAPE));
        };
        let direction = match op {
            '+' => Direction::Forward,
            '-' => Direction::Backward,
            '=' | '.' => Direction::Sideways,
            _ => {
                return Err(err(&format!(
                    "`{op}` is not a direction: use + (forward), - (backward) or = (sideways)"
                )));
            }
        };
        let number = digit(*n)
            .ok_or_else(|| err(&format!("`{n}` is not a number: it must be a digit 1-9")))?;
        if kind == PieceKind::King && !matches!(origin, WxfOrigin::File(_)) {
            return Err(err("there is only one king: give its file, like K5+1"));
        }
        Ok(Wxf {
            kind,
            origin,
            direction,
            number,
        })
    }
}

impl fmt::Display for Wxf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let l = letter(self.kind);
        match self.origin {
            WxfOrigin::File(n) => write!(f, "{l}{n}")?,
            WxfOrigin::Front => write!(f, "{l}+")?,
            WxfOrigin::Rear => write!(f, "{l}-")?,
            WxfOrigin::Index { index, file } if self.kind == PieceKind::Pawn => {
                write!(f, "{index}{file}")?;
            }
            WxfOrigin::Index { index, file } => write!(f, "{l}{index}{file}")?,
        }
        let op = match self.direction {
            Direction::Forward => '+',
            Direction::Backward => '-',
            Direction::Sideways => '.',
        };
        write!(f, "{op}{}", self.number)
    }
}

impl Wxf {
    fn description(self) -> Description {
        let origin = match self.origin {
            WxfOrigin::File(n) => Origin::File(n),
            WxfOrigin::Front => Origin::Tandem {
                place: Place::Front,
                file: None,
            },
            WxfOrigin::Rear => Origin::Tandem {
                place: Place::Rear,
                file: None,
            },
            WxfOrigin::Index { index, file } => Origin::Tandem {
                place: Place::Nth(index),
                file: Some(file),
            },
        };
        Description {
            kind: self.kind,
            origin,
            direction: self.direction,
            number: self.number,
        }
    }

    /// The move, if exactly one legal move in `pos` fits.
    pub fn to_move(self, pos: &Position) -> Result<Move, IllegalMove> {
        resolve(
            pos,
            &self.description(),
            &self.to_string(),
            &Wording {
                which: "+ or - (front or rear)",
                forward_backward: "+ or -",
            },
        )
    }

    /// The WXF of `mv`, a legal move in `pos`, in the forms described in the module docs.
    /// (For any other move the result describes its geometry and does not resolve.)
    #[must_use]
    pub fn from_move(pos: &Position, mv: Move) -> Wxf {
        let color = pos.side_to_move();
        let from = mv.from();
        let kind = pos.piece_at(from).map_or(PieceKind::King, |p| p.kind);
        let (direction, number) = motion(color, kind, mv);
        let col = column(pos, color, kind, from.file());
        let index = col.iter().position(|&s| s == from).unwrap_or(0);
        let file = file_number(color, from.file());
        let by_index = WxfOrigin::Index {
            index: index as u8 + 1,
            file,
        };
        let by_place = if index == 0 {
            WxfOrigin::Front
        } else {
            WxfOrigin::Rear
        };
        let origin = match col.len() {
            k if k >= 3 || (k == 2 && tandem_files(pos, color, kind) >= 2) => by_index,
            2 if other_can_follow(&col, index, mv, color, kind) => by_place,
            _ => WxfOrigin::File(file),
        };
        let wxf = Wxf {
            kind,
            origin,
            direction,
            number,
        };
        if col.len() < 2 || candidates(pos, &wxf.description()) == [mv] {
            return wxf;
        }
        let origin = if kind == PieceKind::Pawn {
            by_index
        } else {
            by_place
        };
        Wxf { origin, ..wxf }
    }
}

/// Could the other of two like pieces on the file make the same step (staying on the
/// board and inside its region)? If not, the file names the moving piece unambiguously.
fn other_can_follow(
    col: &[Square],
    index: usize,
    mv: Move,
    color: banco_game::Color,
    kind: PieceKind,
) -> bool {
    let Some(&other) = col.get(1 - index.min(1)) else {
        return false;
    };
    let df = i32::from(mv.to().file()) - i32::from(mv.from().file());
    let dr = i32::from(mv.to().rank()) - i32::from(mv.from().rank());
    let (f, r) = (i32::from(other.file()) + df, i32::from(other.rank()) + dr);
    let target = u8::try_from(f)
        .ok()
        .zip(u8::try_from(r).ok())
        .and_then(|(f, r)| Square::new(f, r));
    target.is_some_and(|t| in_region(color, kind, t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen;
    use proptest::prelude::*;

    fn wxf(pos: &Position, s: &str) -> String {
        s.parse::<Wxf>().unwrap().to_move(pos).unwrap().to_string()
    }

    #[test]
    fn start_position() {
        let pos = Position::startpos();
        assert_eq!(wxf(&pos, "C2.5"), "h2e2");
        assert_eq!(wxf(&pos, "c2=5"), "h2e2");
        assert_eq!(wxf(&pos, "H2+3"), "h0g2");
        assert_eq!(wxf(&pos, "N2+3"), "h0g2");
        assert_eq!(wxf(&pos, "E3+5"), "g0e2");
        assert_eq!(wxf(&pos, "B7+5"), "c0e2");
        assert_eq!(wxf(&pos, "A4+5"), "f0e1");
        assert_eq!(wxf(&pos, "R1+2"), "i0i2");
        assert_eq!(wxf(&pos, "P7+1"), "c3c4");
        assert_eq!(wxf(&pos, "K5+1"), "e0e1");
        let black =
            fen::parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b").unwrap();
        assert_eq!(wxf(&black, "H8+7"), "h9g7");
        assert_eq!(wxf(&black, "C2=5"), "b7e7");
        assert_eq!(wxf(&black, "R1+1"), "a9a8");
    }

    #[test]
    fn tandem_and_index_forms() {
        let pos = fen::parse("9/3k1P3/9/5P3/2R6/2C6/9/2C6/5K3/2R6 w - - 0 1").unwrap();
        assert_eq!(wxf(&pos, "+C.5"), "c4e4");
        assert_eq!(wxf(&pos, "C-=5"), "c2e2");
        let pos = fen::parse("6P2/4C1P2/4k1P2/6P2/6P2/9/9/4C1R2/9/3K5 w - - 0 1").unwrap();
        assert_eq!(wxf(&pos, "13=4"), "g9f9");
        assert_eq!(wxf(&pos, "P13=4"), "g9f9");
        assert_eq!(wxf(&pos, "P+=4"), "g9f9");
        assert_eq!(wxf(&pos, "P-=4"), "g5f5");
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let e = |s: &str| s.parse::<Wxf>().unwrap_err().to_string();
        assert!(e("").contains("empty"));
        assert!(e("X2=5").contains("not a piece letter"));
        assert!(e("C2*5").contains("not a direction"));
        assert!(e("C2=0").contains("not a number"));
        assert!(e("K+=4").contains("only one king"));
        assert!(e("C2=55").contains("expected"));
        assert!(e("炮二平五").contains("ASCII"));
        let pos = Position::startpos();
        let i = |s: &str| {
            s.parse::<Wxf>()
                .unwrap()
                .to_move(&pos)
                .unwrap_err()
                .to_string()
        };
        assert!(i("C3=5").contains("no cannon on file 3"), "{}", i("C3=5"));
        assert!(i("R1+9").contains("the rook's path is blocked by the pawn on i3"));
        assert!(i("C+=5").contains("no cannon"));
        // Well-formed but impossible for the piece: illegal, with what to write instead.
        for text in ["H2.3", "H2=3", "E3=5", "A4=5"] {
            assert!(
                i(text).contains(
                    "never moves sideways along a rank: write + or - and its destination file"
                ),
                "{text}: {}",
                i(text)
            );
        }
        // A step onto one's own piece names the piece and its square.
        assert_eq!(
            i("K5=4"),
            "K5.4 is not a legal move here: f0 is taken by your own advisor"
        );
        assert_eq!(
            i("K5.6"),
            "K5.6 is not a legal move here: d0 is taken by your own advisor"
        );
        assert_eq!(
            i("R9=8"),
            "R9.8 is not a legal move here: b0 is taken by your own horse"
        );
        assert_eq!(
            i("R1+3"),
            "R1+3 is not a legal move here: i3 is taken by your own pawn"
        );
        assert_eq!(
            i("E3-5"),
            "E3-5 is not a legal move here: the elephant cannot move like that"
        );
    }

    proptest! {
        #![proptest_config(banco_game::testing::proptest_config(None, 0x3F))]

        #[test]
        fn parsing_never_panics(s in "\\PC{0,8}") {
            if let Ok(w) = s.parse::<Wxf>() {
                let _ = w.to_move(&Position::startpos());
            }
        }

        #[test]
        fn parsing_wxf_like_text_never_panics(s in "[KAEBHNRCPkp0-9+=.-]{0,6}") {
            if let Ok(w) = s.parse::<Wxf>() {
                prop_assert_eq!(w.to_string().parse::<Wxf>(), Ok(w));
                let _ = w.to_move(&Position::startpos());
            }
        }
    }
}
