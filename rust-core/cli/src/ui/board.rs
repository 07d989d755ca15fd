//! Drawing any game's board in the terminal from banco-app's ready-to-draw view: xiangqi with
//! Chinese glyphs, the river and the palaces; chess with Unicode pieces on checkered
//! squares; jieqi like xiangqi with its face-down pieces as `Ｘ` (red) and `ｘ` (black),
//! reversed in colour, and the pools under the board ([`render_pools`]). Coordinates on
//! all sides; the last move highlighted (with colours: a yellow background; without: a `*`
//! after both squares).

use banco_app::board::{BoardView, CellView};
use banco_game::{Color, GameKind};
use std::fmt::Write as _;
use std::io::IsTerminal;

/// How to draw.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Style {
    /// ANSI colours.
    pub(crate) color: bool,
}

impl Style {
    /// Colours when stdout is a terminal and `NO_COLOR` is not set.
    pub(crate) fn detect(no_color: bool) -> Style {
        let color =
            !no_color && std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal();
        Style { color }
    }
}

const RESET: &str = "\x1b[0m";
const RED: &str = "\x1b[1;31m";
const BLACK: &str = "\x1b[1;37;40m";
const HIGHLIGHT: &str = "\x1b[43m";
const DARK: &str = "\x1b[100m";
const DIM: &str = "\x1b[2m";
const REVERSE: &str = "\x1b[7m";

/// The file letters across the top, in screen order.
fn header(view: &BoardView) -> String {
    (0..view.width).fold(String::new(), |mut h, column| {
        let file = if view.flipped {
            view.width - 1 - column
        } else {
            column
        };
        let _ = write!(h, " {} ", char::from(b'a' + file));
        h
    })
}

/// The rank label of a screen row (xiangqi ranks 0–9, chess 1–8).
fn rank_label(view: &BoardView, row: u8) -> String {
    let rank = if view.flipped {
        row
    } else {
        view.height - 1 - row
    };
    match view.kind {
        GameKind::Chess => (rank + 1).to_string(),
        _ => rank.to_string(),
    }
}

/// What an empty point looks like (two columns wide, like a glyph).
fn empty(view: &BoardView, cell: &CellView) -> &'static str {
    if view.kind == GameKind::Chess {
        return "  ";
    }
    let (file, rank) = (cell.square % 9, cell.square / 9);
    let in_palace = (3..=5).contains(&file) && (rank <= 2 || rank >= 7);
    if in_palace { "+ " } else { "· " }
}

/// A piece glyph, two columns wide (Chinese characters are wide; chess symbols are not),
/// its colour, and whether it is face down (full-width `Ｘ`/`ｘ`: the colour shows without
/// ANSI colours too).
fn glyph(view: &BoardView, cell: &CellView) -> Option<(String, Color, bool)> {
    let p = cell.piece.as_ref()?;
    let g = match view.kind {
        _ if p.face_down && p.color == Color::Red => "Ｘ".to_owned(),
        _ if p.face_down => "ｘ".to_owned(),
        GameKind::Chess => format!("{} ", p.glyph),
        _ => p.glyph.to_string(),
    };
    Some((g, p.color, p.face_down))
}

/// Jieqi: both pools, one line each (`red pool (14, 13 face down): A2 B2 N2 R2 C1 P5`);
/// nothing for other games.
pub(crate) fn render_pools(view: &BoardView) -> String {
    let mut out = String::new();
    for pool in &view.pools {
        let side = banco_app::any::color_name(view.kind, pool.color).to_lowercase();
        let kinds: Vec<String> = pool
            .entries
            .iter()
            .map(|e| format!("{}{}", e.piece.letter.to_ascii_uppercase(), e.count))
            .collect();
        let _ = writeln!(
            out,
            "{side} pool ({}, {} face down): {}",
            pool.total,
            pool.face_down,
            if kinds.is_empty() {
                "empty".to_owned()
            } else {
                kinds.join(" ")
            }
        );
    }
    out
}

/// The board as text, one line per row, ending with a newline.
pub(crate) fn render_view(view: &BoardView, style: Style) -> String {
    let header = header(view);
    let mut out = String::new();
    let _ = writeln!(out, "   {header}");
    for row in 0..view.height {
        let label = rank_label(view, row);
        let _ = write!(out, "{label:<2} ");
        for column in 0..view.width {
            let Some(cell) = view.cell(column, row) else {
                continue;
            };
            let marked = cell.last_move;
            let g = glyph(view, cell);
            if style.color {
                if marked {
                    out.push_str(HIGHLIGHT);
                } else if cell.dark {
                    out.push_str(DARK);
                }
                match &g {
                    Some((g, color, down)) => {
                        let ink = if *color == Color::Red { RED } else { BLACK };
                        let back = if *down { REVERSE } else { "" };
                        let _ = write!(out, "{ink}{back}{g}{RESET}");
                    }
                    None => {
                        let _ = write!(out, "{DIM}{}{RESET}", empty(view, cell));
                    }
                }
                out.push(' ');
            } else {
                // A piece that moved is marked after it; the square it left shows the mark
                // in place of its dot (after the dot, it read as marking the next piece).
                match &g {
                    Some((g, _, _)) => {
                        out.push_str(g);
                        out.push(if marked { '*' } else { ' ' });
                    }
                    None if marked => out.push_str("*  "),
                    None if view.kind == GameKind::Chess && cell.dark => out.push_str(":  "),
                    None if view.kind == GameKind::Chess => out.push_str(".  "),
                    None => {
                        out.push_str(empty(view, cell));
                        out.push(' ');
                    }
                }
            }
        }
        let _ = writeln!(out, " {label}");
        if view.kind != GameKind::Chess && row == 4 {
            let _ = writeln!(out, "   {:^27}", "~~~~  楚 河      漢 界  ~~~~");
        }
    }
    let _ = writeln!(out, "   {header}");
    // A king in check is said in words (the board marks only the last move).
    if let Some((cell, piece)) = view
        .cells
        .iter()
        .find(|c| c.check)
        .and_then(|c| c.piece.as_ref().map(|p| (c, p)))
    {
        let side = banco_app::any::color_name(view.kind, piece.color);
        let call = if view.kind == GameKind::Chess {
            ""
        } else {
            " (将军)"
        };
        let _ = writeln!(
            out,
            "check{call}: the {side} king on {} is attacked",
            cell.name
        );
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use banco_app::any::AnyGame;
    use banco_app::board::BoardModel;
    use banco_game::Game;

    #[test]
    fn a_king_in_check_is_said_in_words() {
        let game =
            AnyGame::from_fen(GameKind::Xiangqi, "R3k4/9/4c4/9/9/9/9/9/9/3K5 b - - 0 1").unwrap();
        let text = render_view(&BoardModel::new(false).view(&game), Style { color: false });
        assert!(
            text.contains("check (将军): the Black king on e9 is attacked"),
            "{text}"
        );
        let calm = AnyGame::new(GameKind::Chess).unwrap();
        let text = render_view(&BoardModel::new(false).view(&calm), Style { color: false });
        assert!(!text.contains("check"), "{text}");
    }

    #[test]
    fn plain_board_marks_last_move() {
        let mut game = AnyGame::new(GameKind::Xiangqi).unwrap();
        let mv = banco_app::notation::parse_move(&game, "h2e2", None).unwrap();
        game.play(mv).unwrap();
        let mut model = BoardModel::new(false);
        model.set_last_move(&game, Some(mv));
        let plain = Style { color: false };
        let text = render_view(&model.view(&game), plain);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].contains(" a ") && lines[0].contains(" i "));
        // Rank 2 holds both cannons; the moved one on e2 is marked, h2 is marked empty.
        let rank2 = lines.iter().find(|l| l.starts_with("2 ")).unwrap();
        assert!(rank2.contains("炮*"), "{rank2}");
        assert_eq!(rank2.matches('*').count(), 2, "{rank2}");
        // The square left shows the mark in its dot's place, never against the next piece.
        assert!(rank2.contains("*  ·"), "{rank2}");
        assert!(!rank2.contains("· *"), "{rank2}");
        assert!(text.contains("楚 河"));
        model.set_flipped(true);
        let flipped = render_view(&model.view(&game), plain);
        assert!(flipped.lines().nth(1).unwrap().starts_with("0 "));
    }
}
