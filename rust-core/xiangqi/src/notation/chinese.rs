//! Chinese notation: `炮二平五`, `马8进7`, `前炮平五`, `後俥進二`.
//!
//! A move is a piece, which piece of that kind, a verb and a number, told from the mover's
//! seat like WXF:
//!
//! * **Files** are counted 1–9 from the mover's right: Red writes Chinese numerals 一 … 九,
//!   Black writes digits 1–9.
//! * **Verbs**: 进 forward, 退 backward, 平 sideways.
//! * **Number**: for 平 and for the diagonal movers (仕 相 马) the destination file; for the
//!   king, rook, cannon and pawn going forward or backward, the number of ranks travelled.
//! * **Like pieces on one file**: 前 (front, nearer the opponent) and 后 (rear) stand before
//!   the piece name in place of the file: `前炮平五`. Three pawns on a file are 前兵, 中兵,
//!   后兵; four or five are 一兵 二兵 三兵 四兵 五兵 from the front. When pawns stand two or more
//!   on each of several files, the file replaces the piece name: `前七平六` (the front
//!   pawn on file 7), `中3进1`.
//!
//! ## Forms written
//!
//! [`Chinese::from_move`] writes simplified characters with each side's conventional
//! glyphs — Red 帅 仕 相 马 车 炮 兵, Black 将 士 象 马 车 炮 卒 — the verbs 进 退 平, Chinese
//! numerals for Red and ASCII digits for Black (place numerals 一 … 五 are Chinese for both).
//! Two like horses, rooks, cannons or pawns on a file are always told apart by 前/后;
//! advisors and elephants keep their file (`相三进五`), since the file and direction already
//! say which one moves (if a set-up makes it ambiguous, 前/后 is written). Every legal move
//! written reads back as itself.
//!
//! ## Forms read
//!
//! Traditional and simplified characters, either side's glyphs for either side:
//! 帥 帅 將 将, 仕 士, 相 象, 馬 马 傌, 車 车 俥, 炮 砲, 兵 卒; verbs 进 進 退 平; 后 or 後;
//! numerals 一 … 九, digits 1–9 and full-width １–９. Which numerals are used is not checked
//! against the side to move (sources differ); it only sets [`Chinese::color`], the style
//! [`Chinese`]'s `Display` writes back. Also read: a place with both piece and file
//! (`前马七进六`), a place numeral with a file (`二七平六`), and the place forms for any number
//! of pieces on a file, as long as exactly one legal move fits. Spaces are ignored.
//!
//! ```
//! use banco_xiangqi::{Chinese, Position, fen};
//! let pos = Position::startpos();
//! let mv = "炮二平五".parse::<Chinese>().unwrap().to_move(&pos).unwrap();
//! assert_eq!(mv.to_string(), "h2e2");
//! assert_eq!(Chinese::from_move(&pos, mv).to_string(), "炮二平五");
//! assert_eq!("傌二進三".parse::<Chinese>().unwrap().to_move(&pos).unwrap().to_string(), "h0g2");
//! assert!("炮二进九".parse::<Chinese>().unwrap().to_move(&pos).is_err()); // illegal here
//! assert!("炮二走五".parse::<Chinese>().is_err()); // malformed
//!
//! // Black answers with digits; two rooks on a file are told apart by 前/后.
//! let pos = fen::parse("3k5/9/9/9/9/9/r8/r8/4K4/9 b - - 0 1").unwrap();
//! let mv = "后车平5".parse::<Chinese>().unwrap().to_move(&pos).unwrap();
//! assert_eq!(mv.to_string(), "a3e3");
//! assert_eq!(Chinese::from_move(&pos, mv).to_string(), "后车平5");
//! ```

use super::IllegalMove;
use super::relative::{
    Description, Direction, Origin, Place, Wording, candidates, column, file_number, motion,
    resolve, tandem_files,
};
use crate::moves::Move;
use crate::piece::PieceKind;
use crate::position::Position;
use banco_game::Color;
use core::fmt;
use core::str::FromStr;

/// A move in Chinese notation, not yet checked against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chinese {
    /// Whose numerals are written: Chinese numerals are Red's, digits Black's. Set from the
    /// text by parsing and from the side to move by [`Chinese::from_move`]; not checked
    /// against the position by [`Chinese::to_move`].
    pub color: Color,
    /// The kind of piece that moves.
    pub kind: PieceKind,
    /// Which piece of that kind.
    pub origin: Origin,
    /// 进, 退 or 平.
    pub direction: Direction,
    /// Destination file (平, advisor, elephant, horse) or ranks travelled.
    pub number: u8,
}

/// A string that is not Chinese notation; the message says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a Chinese move: {reason}")]
pub struct ParseChineseError {
    /// The text as given.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The value and style of a numeral: Chinese numerals are Red's, digits Black's.
fn numeral(c: char) -> Option<(u8, Color)> {
    if let Some(i) = RED_NUMERALS.iter().position(|&n| n == c) {
        return Some((i as u8 + 1, Color::Red));
    }
    let d = match c {
        '1'..='9' => c as u32 - '0' as u32,
        '１'..='９' => c as u32 - '１' as u32 + 1,
        _ => return None,
    };
    Some((d as u8, Color::Black))
}

/// The kind of a piece glyph of either side, traditional or simplified.
fn kind_of_glyph(c: char) -> Option<PieceKind> {
    Some(match c {
        '帥' | '帅' | '將' | '将' => PieceKind::King,
        '仕' | '士' => PieceKind::Advisor,
        '相' | '象' => PieceKind::Elephant,
        '馬' | '马' | '傌' => PieceKind::Horse,
        '車' | '车' | '俥' => PieceKind::Rook,
        '炮' | '砲' => PieceKind::Cannon,
        '兵' | '卒' => PieceKind::Pawn,
        _ => return None,
    })
}

/// The simplified glyph of a kind for a side.
fn glyph(color: Color, kind: PieceKind) -> char {
    match (color, kind) {
        (Color::Red, PieceKind::King) => '帅',
        (Color::Black, PieceKind::King) => '将',
        (Color::Red, PieceKind::Advisor) => '仕',
        (Color::Black, PieceKind::Advisor) => '士',
        (Color::Red, PieceKind::Elephant) => '相',
        (Color::Black, PieceKind::Elephant) => '象',
        (_, PieceKind::Horse) => '马',
        (_, PieceKind::Rook) => '车',
        (_, PieceKind::Cannon) => '炮',
        (Color::Red, PieceKind::Pawn) => '兵',
        (Color::Black, PieceKind::Pawn) => '卒',
    }
}

fn verb(c: char) -> Option<Direction> {
    match c {
        '进' | '進' => Some(Direction::Forward),
        '退' => Some(Direction::Backward),
        '平' => Some(Direction::Sideways),
        _ => None,
    }
}

fn place_word(c: char) -> Option<Place> {
    match c {
        '前' => Some(Place::Front),
        '中' => Some(Place::Middle),
        '后' | '後' => Some(Place::Rear),
        _ => None,
    }
}

/// Writes a numeral in `color`'s style.
fn write_numeral(f: &mut fmt::Formatter<'_>, color: Color, n: u8) -> fmt::Result {
    match (color, RED_NUMERALS.get(usize::from(n).wrapping_sub(1))) {
        (Color::Red, Some(c)) => write!(f, "{c}"),
        _ => write!(f, "{n}"),
    }
}

impl FromStr for Chinese {
    type Err = ParseChineseError;
    fn from_str(s: &str) -> Result<Chinese, ParseChineseError> {
        let err = |reason: &str| ParseChineseError {
            text: s.to_owned(),
            reason: reason.to_owned(),
        };
        let chars: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
        if chars.is_empty() {
            return Err(err("it is empty; expected a move like 炮二平五"));
        }
        let unexpected = |c: char| {
            err(&format!(
                "`{c}` is not part of a Chinese move: expected a piece (炮), its file (二 or 2), \
                 a verb (进 退 平) and a number, like 炮二平五 or 马8进7"
            ))
        };
        let mut i = 0;
        let at = |i: usize| chars.get(i).copied();
        // A place among like pieces on a file: 前 中 后, or a numeral before anything but a verb.
        let mut place = None;
        if let Some(p) = at(0).and_then(place_word) {
            place = Some(p);
            i = 1;
        } else if let (Some((n, _)), Some(next)) = (at(0).and_then(numeral), at(1))
            && verb(next).is_none()
        {
            if !(1..=5).contains(&n) {
                return Err(err("the place of a pawn from the front is 一 to 五"));
            }
            place = Some(Place::Nth(n));
            i = 1;
        }
        let kind = at(i).and_then(kind_of_glyph);
        if kind.is_some() {
            i += 1;
        }
        let file = at(i).and_then(numeral).map(|(n, _)| n);
        if file.is_some() {
            i += 1;
        }
        let direction = match at(i) {
            Some(c) => match verb(c) {
                Some(d) => d,
                None if kind.is_none() && place.is_none() => return Err(unexpected(c)),
                None if kind_of_glyph(c).is_some() || numeral(c).is_some() => {
                    return Err(err("expected a verb after the piece and file: 进 退 or 平"));
                }
                None => return Err(unexpected(c)),
            },
            None => {
                return Err(err(
                    "the verb is missing: 进 (forward), 退 (backward) or 平 (sideways)",
                ));
            }
        };
        let (number, color) = match at(i + 1) {
            Some(c) => numeral(c).ok_or_else(|| {
                err(&format!(
                    "`{c}` is not a number: write 一 … 九 or 1 … 9 after the verb"
                ))
            })?,
            None => return Err(err("the number after the verb is missing")),
        };
        if let Some(c) = at(i + 2) {
            return Err(err(&format!("unexpected `{c}` after the number")));
        }
        let kind = match (kind, place, file) {
            (Some(k), _, _) => k,
            (None, None, _) => return Err(err("name the piece, like 炮二平五")),
            (None, Some(_), Some(_)) => PieceKind::Pawn,
            (None, Some(_), None) => {
                return Err(err(
                    "after 前/中/后 name the piece (前炮) or, for pawns, their file (前七)",
                ));
            }
        };
        let origin = match (place, file) {
            (None, Some(n)) => Origin::File(n),
            (Some(place), file) => Origin::Tandem { place, file },
            (None, None) => {
                return Err(err("give the file the piece stands on, like 炮二平五"));
            }
        };
        if kind == PieceKind::King && place.is_some() {
            return Err(err("there is only one king: give its file, like 帅五进一"));
        }
        Ok(Chinese {
            color,
            kind,
            origin,
            direction,
            number,
        })
    }
}

impl fmt::Display for Chinese {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = glyph(self.color, self.kind);
        match self.origin {
            Origin::File(n) => {
                write!(f, "{g}")?;
                write_numeral(f, self.color, n)?;
            }
            Origin::Tandem { place, file } => {
                match place {
                    Place::Front => write!(f, "前")?,
                    Place::Middle => write!(f, "中")?,
                    Place::Rear => write!(f, "后")?,
                    Place::Nth(n) => write_numeral(f, Color::Red, n)?,
                }
                if self.kind != PieceKind::Pawn || file.is_none() {
                    write!(f, "{g}")?;
                }
                if let Some(n) = file {
                    write_numeral(f, self.color, n)?;
                }
            }
        }
        let v = match self.direction {
            Direction::Forward => '进',
            Direction::Backward => '退',
            Direction::Sideways => '平',
        };
        write!(f, "{v}")?;
        write_numeral(f, self.color, self.number)
    }
}

impl Chinese {
    fn description(self) -> Description {
        Description {
            kind: self.kind,
            origin: self.origin,
            direction: self.direction,
            number: self.number,
        }
    }

    /// The move, if exactly one legal move in `pos` fits (for the side to move, whichever
    /// numerals were written).
    pub fn to_move(self, pos: &Position) -> Result<Move, IllegalMove> {
        resolve(
            pos,
            &self.description(),
            &self.to_string(),
            &Wording {
                which: "前 or 后 (front or rear)",
                forward_backward: "进 or 退 (forward or backward)",
            },
        )
    }

    /// The Chinese notation of `mv`, a legal move in `pos`, in the forms described in the
    /// module docs. (For any other move the result describes its geometry and does not
    /// resolve.)
    #[must_use]
    pub fn from_move(pos: &Position, mv: Move) -> Chinese {
        let color = pos.side_to_move();
        let from = mv.from();
        let kind = pos.piece_at(from).map_or(PieceKind::King, |p| p.kind);
        let (direction, number) = motion(color, kind, mv);
        let col = column(pos, color, kind, from.file());
        let index = col.iter().position(|&s| s == from).unwrap_or(0);
        let file = file_number(color, from.file());
        let place = match (col.len(), index) {
            (2 | 3, 0) => Place::Front,
            (3, 1) => Place::Middle,
            (2 | 3, _) => Place::Rear,
            (_, i) => Place::Nth(i as u8 + 1),
        };
        let multi = tandem_files(pos, color, kind) >= 2;
        let tandem = Origin::Tandem {
            place,
            file: multi.then_some(file),
        };
        let keeps_file = matches!(kind, PieceKind::Advisor | PieceKind::Elephant);
        let origin = if col.len() < 2 || keeps_file {
            Origin::File(file)
        } else {
            tandem
        };
        let chinese = Chinese {
            color,
            kind,
            origin,
            direction,
            number,
        };
        if col.len() < 2 || candidates(pos, &chinese.description()) == [mv] {
            return chinese;
        }
        let fallback = Chinese {
            origin: tandem,
            ..chinese
        };
        if candidates(pos, &fallback.description()) == [mv] {
            return fallback;
        }
        let origin = Origin::Tandem {
            place: Place::Nth(index as u8 + 1),
            file: Some(file),
        };
        Chinese { origin, ..chinese }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen;
    use proptest::prelude::*;

    fn play(pos: &Position, s: &str) -> String {
        s.parse::<Chinese>()
            .unwrap()
            .to_move(pos)
            .unwrap()
            .to_string()
    }

    #[test]
    fn start_position_in_every_script() {
        let pos = Position::startpos();
        for s in ["炮二平五", "砲二平五", "炮 二 平 五", "炮2平5", "炮２平５"] {
            assert_eq!(play(&pos, s), "h2e2", "{s}");
        }
        for s in ["马二进三", "馬二進三", "傌二进三"] {
            assert_eq!(play(&pos, s), "h0g2", "{s}");
        }
        assert_eq!(play(&pos, "車一進一"), "i0i1");
        assert_eq!(play(&pos, "俥九进二"), "a0a2");
        assert_eq!(play(&pos, "相三进五"), "g0e2");
        assert_eq!(play(&pos, "象七进五"), "c0e2");
        assert_eq!(play(&pos, "仕四进五"), "f0e1");
        assert_eq!(play(&pos, "帥五进一"), "e0e1");
        assert_eq!(play(&pos, "兵七进一"), "c3c4");
        let black =
            fen::parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b").unwrap();
        assert_eq!(play(&black, "马8进7"), "h9g7");
        assert_eq!(play(&black, "炮8平5"), "h7e7");
        assert_eq!(play(&black, "卒3进1"), "c6c5");
        let mv = "h9g7".parse().unwrap();
        assert_eq!(Chinese::from_move(&black, mv).to_string(), "马8进7");
    }

    #[test]
    fn tandem_forms() {
        let pos = fen::parse("9/3k1P3/9/5P3/2R6/2C6/9/2C6/5K3/2R6 w - - 0 1").unwrap();
        assert_eq!(play(&pos, "前炮平五"), "c4e4");
        assert_eq!(play(&pos, "後炮平五"), "c2e2");
        assert_eq!(play(&pos, "后俥進一"), "c0c1");
        assert_eq!(
            Chinese::from_move(&pos, "c2e2".parse().unwrap()).to_string(),
            "后炮平五"
        );
        // Five pawns on one file: places 一 … 五 from the front.
        let pos = fen::parse("6P2/4C1P2/4k1P2/6P2/6P2/9/9/4C1R2/9/3K5 w - - 0 1").unwrap();
        assert_eq!(play(&pos, "一兵平四"), "g9f9");
        assert_eq!(play(&pos, "五兵平四"), "g5f5");
        assert_eq!(play(&pos, "前兵平四"), "g9f9");
        assert_eq!(
            Chinese::from_move(&pos, "g6f6".parse().unwrap()).to_string(),
            "四兵平四"
        );
        // Pawns in tandem on two files: the file replaces the piece name.
        let pos = fen::parse("7h1/3k3h1/9/9/9/1p7/1p2p4/8p/5K3/4p4 b - - 0 1").unwrap();
        assert_eq!(play(&pos, "前2平3"), "b3c3");
        assert_eq!(play(&pos, "前卒2平3"), "b3c3");
        assert_eq!(play(&pos, "一2平3"), "b3c3");
        assert_eq!(
            Chinese::from_move(&pos, "b3c3".parse().unwrap()).to_string(),
            "前2平3"
        );
        assert_eq!(
            Chinese::from_move(&pos, "b4a4".parse().unwrap()).to_string(),
            "后2平1"
        );
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let e = |s: &str| s.parse::<Chinese>().unwrap_err().to_string();
        assert!(e("").contains("empty"));
        assert!(e("炮二走五").contains("verb"), "{}", e("炮二走五"));
        assert!(e("炮平五").contains("file"));
        assert!(e("二平五").contains("name the piece"), "{}", e("二平五"));
        assert!(e("炮二平").contains("missing"));
        assert!(e("炮二平五五").contains("unexpected"));
        assert!(e("前帅进一").contains("only one king"));
        assert!(e("C2=5").contains("not part of a Chinese move"));
        let pos = Position::startpos();
        let i = |s: &str| {
            s.parse::<Chinese>()
                .unwrap()
                .to_move(&pos)
                .unwrap_err()
                .to_string()
        };
        assert!(i("炮三平五").contains("no cannon on file 3"));
        assert!(i("前炮平五").contains("no cannon"));
        // Well-formed but impossible for the piece: illegal, with what to write instead.
        assert_eq!(
            i("马二平三"),
            "马二平三 is not a legal move here: a horse never moves sideways along a rank: \
             write 进 or 退 (forward or backward) and its destination file"
        );
        // A step onto one's own piece names the piece and its square.
        assert_eq!(
            i("帅五平四"),
            "帅五平四 is not a legal move here: f0 is taken by your own advisor"
        );
        assert_eq!(
            i("车一进三"),
            "车一进三 is not a legal move here: i3 is taken by your own pawn"
        );
        assert_eq!(
            i("车一退一"),
            "车一退一 is not a legal move here: the rook cannot move like that"
        );
        let black =
            fen::parse("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR b - - 0 1")
                .unwrap();
        let b = |s: &str| {
            s.parse::<Chinese>()
                .unwrap()
                .to_move(&black)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            b("将5平4"),
            "将5平4 is not a legal move here: d9 is taken by your own advisor"
        );
    }

    proptest! {
        #![proptest_config(banco_game::testing::proptest_config(None, 0xC41))]

        #[test]
        fn parsing_never_panics(s in "\\PC{0,8}") {
            if let Ok(c) = s.parse::<Chinese>() {
                let _ = c.to_move(&Position::startpos());
            }
        }

        #[test]
        fn parsing_chinese_like_text_never_panics(
            s in "[前中后後帥帅將将仕士相象馬马傌車车俥炮砲兵卒一二三四五六七八九1-9１-９进進退平]{0,6}"
        ) {
            if let Ok(c) = s.parse::<Chinese>() {
                prop_assert_eq!(c.to_string().parse::<Chinese>(), Ok(c));
                let _ = c.to_move(&Position::startpos());
            }
        }
    }
}
