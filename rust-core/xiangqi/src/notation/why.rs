//! Why a move is not legal, in a player's words: the rule of the piece that the step
//! breaks, or the piece in the way — a hobbled horse's leg (蹩马腿), an elephant's blocked
//! eye (塞象眼), a rook's blocked path, a cannon without exactly one screen — and the
//! flying-general rule when a move would leave the two kings facing each other.
//!
//! ```
//! use banco_xiangqi::{Iccs, Position};
//! let pos = Position::startpos();
//! let why = |t: &str| t.parse::<Iccs>().unwrap().to_move(&pos).unwrap_err().to_string();
//! assert!(why("b0d1").ends_with("the horse's leg is blocked by the elephant on c0"));
//! assert!(why("i0i5").ends_with("the rook's path is blocked by the pawn on i3"));
//! ```

use crate::Position;
use crate::moves::Move;
use crate::piece::PieceKind;
use crate::square::Square;
use banco_game::Color;

/// The squares strictly between `from` and `to` on one file or rank (none otherwise).
fn between(from: Square, to: Square) -> Vec<Square> {
    let (ff, fr) = (i32::from(from.file()), i32::from(from.rank()));
    let (tf, tr) = (i32::from(to.file()), i32::from(to.rank()));
    if ff != tf && fr != tr {
        return Vec::new();
    }
    let (df, dr) = ((tf - ff).signum(), (tr - fr).signum());
    let mut out = Vec::new();
    let (mut f, mut r) = (ff + df, fr + dr);
    while (f, r) != (tf, tr) {
        if let (Ok(f8), Ok(r8)) = (u8::try_from(f), u8::try_from(r))
            && let Some(sq) = Square::new(f8, r8)
        {
            out.push(sq);
        }
        f += df;
        r += dr;
    }
    out
}

/// "the pawn on i3": the piece standing on `sq`, with its colour when it is the opponent's.
fn named(pos: &Position, sq: Square) -> String {
    match pos.piece_at(sq) {
        Some(p) if p.color == pos.side_to_move() => format!("the {} on {sq}", p.kind.name()),
        Some(p) => format!("{}'s {} on {sq}", p.color, p.kind.name()),
        None => format!("{sq}"),
    }
}

fn own_half(color: Color, sq: Square) -> bool {
    match color {
        Color::Red => sq.rank() <= 4,
        Color::Black => sq.rank() >= 5,
    }
}

fn in_palace(color: Color, sq: Square) -> bool {
    own_half(color, sq) && (3..=5).contains(&sq.file()) && matches!(sq.rank(), 0..=2 | 7..=9)
}

/// Why the piece on `from` cannot step to `to` (the step is not one of its moves here), or
/// `None` when no rule more telling than "cannot move like that" applies.
pub(crate) fn step(pos: &Position, from: Square, to: Square) -> Option<String> {
    let p = pos.piece_at(from)?;
    let (df, dr) = (
        i32::from(to.file()) - i32::from(from.file()),
        i32::from(to.rank()) - i32::from(from.rank()),
    );
    let (af, ar) = (df.abs(), dr.abs());
    if (af, ar) == (0, 0) {
        return Some("a move must change square".to_owned());
    }
    let forward = p.color.sign();
    let square_at = |f: i32, r: i32| -> Option<Square> {
        Square::new(u8::try_from(f).ok()?, u8::try_from(r).ok()?)
    };
    let blocked_line = |what: &str| {
        between(from, to)
            .into_iter()
            .find(|&s| pos.piece_at(s).is_some())
            .map(|s| format!("the {what}'s path is blocked by {}", named(pos, s)))
    };
    match p.kind {
        PieceKind::Horse if (af, ar) == (1, 2) || (af, ar) == (2, 1) => {
            let leg = if ar == 2 {
                square_at(i32::from(from.file()), i32::from(from.rank()) + dr.signum())
            } else {
                square_at(i32::from(from.file()) + df.signum(), i32::from(from.rank()))
            }?;
            pos.piece_at(leg)
                .map(|_| format!("the horse's leg is blocked by {}", named(pos, leg)))
        }
        PieceKind::Elephant if (af, ar) == (2, 2) => {
            if !own_half(p.color, to) {
                return Some("an elephant never crosses the river".to_owned());
            }
            let eye = square_at(
                i32::from(from.file()) + df.signum(),
                i32::from(from.rank()) + dr.signum(),
            )?;
            pos.piece_at(eye)
                .map(|_| format!("the elephant's eye is blocked by {}", named(pos, eye)))
        }
        PieceKind::Advisor if (af, ar) == (1, 1) && !in_palace(p.color, to) => {
            Some("an advisor never leaves its palace".to_owned())
        }
        PieceKind::King if af + ar == 1 && !in_palace(p.color, to) => {
            Some("the king never leaves its palace".to_owned())
        }
        PieceKind::Rook if af == 0 || ar == 0 => blocked_line("rook"),
        PieceKind::Cannon if af == 0 || ar == 0 => {
            let screens = between(from, to)
                .into_iter()
                .filter(|&s| pos.piece_at(s).is_some())
                .count();
            match pos.piece_at(to) {
                Some(_) => Some(format!(
                    "a cannon captures by jumping over exactly one piece ({screens} in between)"
                )),
                None => {
                    blocked_line("cannon").map(|b| format!("{b} (a cannon jumps only to capture)"))
                }
            }
        }
        PieceKind::Pawn if dr * forward < 0 => Some("a pawn never moves backwards".to_owned()),
        PieceKind::Pawn if ar == 0 && af == 1 && own_half(p.color, from) => {
            Some("a pawn moves sideways only once it has crossed the river".to_owned())
        }
        _ => None,
    }
}

/// Why a step of the piece's own (pseudo-legal) is not legal: the flying-general rule when
/// it leaves the two kings facing each other, else the check it leaves.
pub(crate) fn exposes(pos: &Position, mv: Move) -> String {
    let mut after = pos.clone();
    after.make(mv);
    let (red, black) = (
        after.king_square(Color::Red),
        after.king_square(Color::Black),
    );
    let facing = red.faces(black, |s| after.piece_at(s).is_some());
    let name = pos.piece_at(mv.from()).map_or("piece", |p| p.kind.name());
    if facing {
        format!("moving the {name} would leave the two kings facing each other on an open file")
    } else {
        format!("moving the {name} would leave your king in check")
    }
}

#[cfg(test)]
mod tests {
    use crate::{Iccs, fen};

    fn why(fen_text: &str, text: &str) -> String {
        let pos = fen::parse(fen_text).unwrap();
        let e = text.parse::<Iccs>().unwrap().to_move(&pos).unwrap_err();
        e.to_string()
    }

    #[test]
    fn each_rule_broken_is_named() {
        let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        for (text, reason) in [
            ("b0d1", "the horse's leg is blocked by the elephant on c0"),
            ("i0i5", "the rook's path is blocked by the pawn on i3"),
            (
                "b2b7",
                "a cannon captures by jumping over exactly one piece (0 in between)",
            ),
            ("a3a2", "a pawn never moves backwards"),
            (
                "a3b3",
                "a pawn moves sideways only once it has crossed the river",
            ),
            ("d0c1", "an advisor never leaves its palace"),
        ] {
            assert!(
                why(start, text).ends_with(reason),
                "{text}: {}",
                why(start, text)
            );
        }
        // An elephant's eye, the river, and the king's palace.
        let fen = "4k4/9/9/9/9/2E6/9/9/4A4/3K5 w - - 0 1";
        assert!(why(fen, "c4a6").ends_with("an elephant never crosses the river"));
        assert!(why(fen, "d0c0").ends_with("the king never leaves its palace"));
        let fen = "4k4/9/9/9/9/9/9/9/3H5/2EK5 w - - 0 1";
        assert!(
            why(fen, "c0e2").ends_with("the elephant's eye is blocked by the horse on d1"),
            "{}",
            why(fen, "c0e2")
        );
    }

    #[test]
    fn the_flying_general_rule_is_named() {
        // The red cannon on e4 screens the kings: moving it away leaves them facing.
        let fen = "4k4/9/9/9/9/4C4/9/9/9/4K4 w - - 0 1";
        assert!(
            why(fen, "e4a4").ends_with(
                "moving the cannon would leave the two kings facing each other on an open file"
            ),
            "{}",
            why(fen, "e4a4")
        );
    }
}
