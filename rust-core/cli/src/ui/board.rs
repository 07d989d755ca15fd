//! Drawing the board in the terminal: Chinese glyphs, Red in red, coordinates on all sides,
//! the river, and the last move highlighted (with colours: a yellow background; without:
//! a `*` after both squares).

use banco_game::Color;
use banco_xiangqi::{Move, Position, Square};
use std::fmt::Write as _;
use std::io::IsTerminal;

/// How to draw.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Style {
    /// ANSI colours.
    pub(crate) color: bool,
    /// Draw from Black's side.
    pub(crate) flipped: bool,
}

impl Style {
    /// Colours when stdout is a terminal and `NO_COLOR` is not set.
    pub(crate) fn detect(no_color: bool) -> Style {
        let color =
            !no_color && std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal();
        Style {
            color,
            flipped: false,
        }
    }
}

const RESET: &str = "\x1b[0m";
const RED: &str = "\x1b[1;31m";
const BLACK: &str = "\x1b[1;37;40m";
const HIGHLIGHT: &str = "\x1b[43m";
const DIM: &str = "\x1b[2m";

/// The board as text, one line per rank, ending with a newline.
pub(crate) fn render(pos: &Position, last: Option<Move>, style: Style) -> String {
    let files: Vec<u8> = if style.flipped {
        (0..9).rev().collect()
    } else {
        (0..9).collect()
    };
    let ranks: Vec<u8> = if style.flipped {
        (0..10).collect()
    } else {
        (0..10).rev().collect()
    };
    let header: String = files.iter().fold(String::new(), |mut h, &f| {
        let _ = write!(h, " {} ", char::from(b'a' + f));
        h
    });
    let mut out = String::new();
    let _ = writeln!(out, "   {header}");
    for &rank in &ranks {
        let _ = write!(out, "{rank}  ");
        for &file in &files {
            let Some(sq) = Square::new(file, rank) else {
                continue;
            };
            let marked = last.is_some_and(|m| m.from() == sq || m.to() == sq);
            let glyph = pos.piece_at(sq).map(|p| (p.chinese().to_string(), p.color));
            if style.color {
                if marked {
                    out.push_str(HIGHLIGHT);
                }
                match &glyph {
                    Some((g, Color::Red)) => {
                        let _ = write!(out, "{RED}{g}{RESET}");
                    }
                    Some((g, Color::Black)) => {
                        let _ = write!(out, "{BLACK}{g}{RESET}");
                    }
                    None => {
                        let _ = write!(out, "{DIM}{}{RESET}", empty_point(sq));
                    }
                }
                if marked {
                    out.push_str(RESET);
                }
                out.push(' ');
            } else {
                match &glyph {
                    Some((g, _)) => out.push_str(g),
                    None => out.push_str(empty_point(sq)),
                }
                out.push(if marked { '*' } else { ' ' });
            }
        }
        let _ = writeln!(out, " {rank}");
        let river_after = if style.flipped { 4 } else { 5 };
        if rank == river_after {
            let _ = writeln!(out, "   {:^27}", "~~~~  楚 河      漢 界  ~~~~");
        }
    }
    let _ = writeln!(out, "   {header}");
    out
}

/// What an empty point looks like (two columns wide, like a glyph): palace points are
/// marked so the palace stays visible.
fn empty_point(sq: Square) -> &'static str {
    let in_palace = (3..=5).contains(&sq.file()) && (sq.rank() <= 2 || sq.rank() >= 7);
    if in_palace { "+ " } else { "· " }
}

/// One line naming whose turn it is.
pub(crate) fn turn_line(pos: &Position) -> String {
    match pos.side_to_move() {
        Color::Red => "Red (帥) to move".to_owned(),
        Color::Black => "Black (將) to move".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_board_marks_last_move() {
        let mut pos = Position::startpos();
        let mv: Move = "h2e2".parse().unwrap();
        pos.make(mv);
        let text = render(
            &pos,
            Some(mv),
            Style {
                color: false,
                flipped: false,
            },
        );
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].contains(" a ") && lines[0].contains(" i "));
        // Rank 2 holds both cannons; the moved one on e2 is marked, h2 is marked empty.
        let rank2 = lines.iter().find(|l| l.starts_with("2 ")).unwrap();
        assert!(rank2.contains("炮*"), "{rank2}");
        assert_eq!(rank2.matches('*').count(), 2, "{rank2}");
        assert!(text.contains("楚 河"));
        let flipped = render(
            &pos,
            Some(mv),
            Style {
                color: false,
                flipped: true,
            },
        );
        assert!(flipped.lines().nth(1).unwrap().starts_with("0 "));
    }
}
