//! Pictures of a position as SVG, written by hand (no dependency): the xiangqi board with
//! its river (楚河 漢界), palaces and point marks, pieces as discs with their Chinese
//! characters (red and black have different ones); the chess board checkered with its
//! coordinates, pieces as Unicode chess figures. The last move and a king in check are
//! marked; the board can be turned. Each piece is a `<g class="piece …">` placed with
//! `transform="translate(x y)"` and holding a `<text>` with its glyph, so pictures stay
//! small, searchable and testable. The command line's `banco render`, the README's
//! illustrations and the shells' "share a position" use it.
//!
//! The Lines grid is drawn by [`lines`] from a Lines game or a Lines position string
//! ([`svg_of_fen`] reads one for [`GameKind::Lines`]). With the `png` feature, the `png` module
//! turns any of these pictures into PNG bytes, their text drawn with glyph outlines of the
//! bundled fonts.
//!
//! ```
//! use banco_app::any::AnyGame;
//! use banco_app::render::{self, RenderOptions};
//! use banco_game::GameKind;
//! let game = AnyGame::new(GameKind::Xiangqi)?;
//! let svg = render::svg(&game, &RenderOptions::default());
//! assert!(svg.starts_with("<svg"));
//! assert_eq!(svg.matches("class=\"piece ").count(), 32);
//! assert!(svg.contains(">帥</text>") && svg.contains(">將</text>"));
//! assert!(svg.contains("楚") && svg.contains("漢"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::any::AnyGame;
use crate::editor::Editor;
use crate::pieces::PieceInfo;
use banco_game::{Color, Game, GameKind};
use std::fmt::Write as _;

pub mod lines;
#[cfg(feature = "png")]
pub mod png;

/// Distance between two points (xiangqi) or the side of a square (chess), in pixels.
pub const CELL: u32 = 60;
/// Room around the chess board for the coordinates.
pub const MARGIN: u32 = 40;
/// Room around the xiangqi board: the pieces stand on its edge lines, the coordinates
/// outside them.
pub const XIANGQI_MARGIN: u32 = 64;

/// Why a picture cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    /// The game's pieces cannot be drawn this way (a Lines board is drawn by [`lines`]).
    #[error("{0} positions are not drawn from pieces: use render::lines")]
    Unsupported(&'static str),
    /// The position cannot be read.
    #[error("{0}")]
    Position(String),
    /// The last move is not a move of the position before it.
    #[error("the last move `{0}` is not two squares of this board like h2e2")]
    BadMove(String),
}

/// How to draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RenderOptions {
    /// The second player's side at the bottom.
    pub flipped: bool,
    /// The last move's from and to squares, marked (by default the game's last move).
    pub last_move: Option<(u8, u8)>,
}

/// What a picture shows: any board game's pieces by square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// The game.
    pub kind: GameKind,
    /// Files.
    pub width: u8,
    /// Ranks.
    pub height: u8,
    /// Pieces by square index (rank × width + file).
    pub pieces: Vec<(u8, PieceInfo)>,
    /// Squares of the last move.
    pub last_move: Option<(u8, u8)>,
    /// The square of a king in check.
    pub check: Option<u8>,
    /// The second player's side at the bottom.
    pub flipped: bool,
}

impl Picture {
    /// The picture of a game's position (its last move marked unless `options` say
    /// another).
    #[must_use]
    pub fn of_game(game: &AnyGame, options: &RenderOptions) -> Picture {
        let last = options.last_move.or_else(|| {
            let mut before = game.clone();
            let mv = before.undo_move()?;
            let (f, t, _) = before.move_parts(mv);
            Some((f, t))
        });
        Picture {
            kind: game.kind(),
            width: game.width(),
            height: game.height(),
            pieces: (0..game.squares())
                .filter_map(|s| game.piece_at(s).map(|p| (s, p)))
                .collect(),
            last_move: last,
            check: game.checked_king(),
            flipped: options.flipped,
        }
    }

    /// The picture of an editor's board (legal or not).
    #[must_use]
    pub fn of_editor(ed: &Editor) -> Picture {
        Picture {
            kind: ed.kind(),
            width: ed.width(),
            height: ed.height(),
            pieces: (0..ed.width() * ed.height())
                .filter_map(|s| ed.piece_at(s).map(|p| (s, p)))
                .collect(),
            last_move: None,
            check: None,
            flipped: ed.flipped(),
        }
    }

    /// Screen column and row of a square.
    fn cell(&self, square: u8) -> (u32, u32) {
        let (file, rank) = (square % self.width, square / self.width);
        let (c, r) = if self.flipped {
            (self.width - 1 - file, rank)
        } else {
            (file, self.height - 1 - rank)
        };
        (u32::from(c), u32::from(r))
    }

    /// The centre of a square's piece, in pixels.
    #[must_use]
    pub fn centre(&self, square: u8) -> (u32, u32) {
        let (c, r) = self.cell(square);
        match self.kind {
            GameKind::Chess => (MARGIN + c * CELL + CELL / 2, MARGIN + r * CELL + CELL / 2),
            _ => (XIANGQI_MARGIN + c * CELL, XIANGQI_MARGIN + r * CELL),
        }
    }
}

/// The SVG of a game's position.
#[must_use]
pub fn svg(game: &AnyGame, options: &RenderOptions) -> String {
    svg_of_picture(&Picture::of_game(game, options)).unwrap_or_default()
}

/// The SVG of a position given as FEN (for Lines, a Lines position string, see
/// [`lines`]), with an optional last move in coordinates (`h2e2`, `e2e4`, Lines `a1e5`).
/// A Lines grid has no sides: `flipped` leaves it as it is.
///
/// Any diagram the FEN reader can place is drawn: a set-up that is no legal position (an
/// empty board, a study without kings, kings facing) is drawn as the editor reads it, with
/// nothing judged (no check mark); only a FEN that cannot be read is refused.
pub fn svg_of_fen(
    kind: GameKind,
    fen: &str,
    last_move: Option<&str>,
    flipped: bool,
) -> Result<String, RenderError> {
    if kind == GameKind::Lines {
        let mut picture = lines::LinesPicture::parse(fen)?;
        if let Some(text) = last_move {
            let (from, to) = crate::lines::parse_move(text)
                .map_err(|_| RenderError::BadMove(text.chars().take(32).collect()))?;
            picture.last_move = Some((from, to));
        }
        return Ok(lines::svg_of_lines(&picture));
    }
    let options = RenderOptions {
        flipped,
        last_move: None,
    };
    let mut picture = match AnyGame::from_fen(kind, fen) {
        Ok(game) => Picture::of_game(&game, &options),
        Err(not_legal) => {
            let ed = Editor::from_fen(kind, fen)
                .map_err(|_| RenderError::Position(not_legal.to_string()))?;
            Picture {
                flipped,
                ..Picture::of_editor(&ed)
            }
        }
    };
    if let Some(text) = last_move {
        let squares = squares_of(kind, picture.width, picture.height, text)
            .ok_or_else(|| RenderError::BadMove(text.into()))?;
        picture.last_move = Some(squares);
    }
    svg_of_picture(&picture)
}

/// The two squares of a coordinate move (`h2e2`, `e7e8q`) on `game`'s board, if it names
/// two squares of it.
#[must_use]
pub fn move_squares(game: &AnyGame, text: &str) -> Option<(u8, u8)> {
    squares_of(game.kind(), game.width(), game.height(), text)
}

/// The two squares of a coordinate move on a `kind` board of `width` × `height`.
fn squares_of(kind: GameKind, width: u8, height: u8, text: &str) -> Option<(u8, u8)> {
    let t = text.trim().to_ascii_lowercase();
    // `get`: the text may start with a character of several bytes (`炮二平五`), or be empty.
    let split = t.get(1..)?.find(|c: char| c.is_ascii_alphabetic())? + 1;
    let sq = |s: &str| {
        let mut ch = s.chars();
        let file = u8::try_from(u32::from(ch.next()?).checked_sub(u32::from('a'))?).ok()?;
        let digits: String = ch.take_while(char::is_ascii_digit).collect();
        let rank: u8 = digits.parse().ok()?;
        let rank = if kind == GameKind::Chess {
            rank.checked_sub(1)?
        } else {
            rank
        };
        (file < width && rank < height).then(|| rank * width + file)
    };
    Some((sq(t.get(..split)?)?, sq(t.get(split..)?)?))
}

/// The SVG of an editor's board.
#[must_use]
pub fn svg_of_editor(ed: &Editor) -> String {
    svg_of_picture(&Picture::of_editor(ed)).unwrap_or_default()
}

/// The SVG of a picture.
pub fn svg_of_picture(p: &Picture) -> Result<String, RenderError> {
    match p.kind {
        GameKind::Xiangqi | GameKind::Jieqi => Ok(xiangqi(p)),
        GameKind::Chess => Ok(chess(p)),
        // A Lines board has balls, not pieces: see `lines::svg_of_lines`.
        GameKind::Lines => Err(RenderError::Unsupported(p.kind.name())),
    }
}

fn header(s: &mut String, w: u32, h: u32, font: &str) {
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"{font}\">"
    );
}

fn xiangqi(p: &Picture) -> String {
    const M: u32 = XIANGQI_MARGIN;
    let (w, h) = (u32::from(p.width), u32::from(p.height));
    let (width, height) = (2 * M + (w - 1) * CELL, 2 * M + (h - 1) * CELL);
    let mut s = String::with_capacity(12_000);
    header(
        &mut s,
        width,
        height,
        "'Noto Serif CJK SC','Noto Sans CJK SC','WenQuanYi Zen Hei','AR PL UMing CN',serif",
    );
    let _ = write!(
        s,
        "<rect class=\"board\" width=\"{width}\" height=\"{height}\" fill=\"#e8c88c\"/>"
    );
    let x = |c: u32| M + c * CELL;
    let (right, bottom) = (x(w - 1), x(h - 1));
    s.push_str("<g class=\"lines\" stroke=\"#5a3a1a\" stroke-width=\"2\" fill=\"none\">");
    let _ = write!(
        s,
        "<rect x=\"{m}\" y=\"{m}\" width=\"{}\" height=\"{}\" stroke-width=\"3\"/>",
        right - M,
        bottom - M,
        m = M
    );
    for r in 1..h - 1 {
        let _ = write!(
            s,
            "<line x1=\"{M}\" y1=\"{0}\" x2=\"{right}\" y2=\"{0}\"/>",
            x(r)
        );
    }
    let river = h / 2 - 1; // the river runs between screen rows 4 and 5
    for c in 1..w - 1 {
        let _ = write!(
            s,
            "<line x1=\"{0}\" y1=\"{M}\" x2=\"{0}\" y2=\"{1}\"/><line x1=\"{0}\" y1=\"{2}\" x2=\"{0}\" y2=\"{bottom}\"/>",
            x(c),
            x(river),
            x(river + 1)
        );
    }
    // Palaces: files d–f, the three rows at each end.
    for top in [0, h - 3] {
        let _ = write!(
            s,
            "<line x1=\"{a}\" y1=\"{t}\" x2=\"{b}\" y2=\"{u}\"/><line x1=\"{b}\" y1=\"{t}\" x2=\"{a}\" y2=\"{u}\"/>",
            a = x(3),
            b = x(5),
            t = x(top),
            u = x(top + 2)
        );
    }
    // Point marks where cannons and pawns start.
    let mut marks = Vec::new();
    for r in [2, h - 3] {
        marks.extend([(1, r), (w - 2, r)]);
    }
    for r in [3, h - 4] {
        marks.extend((0..w).step_by(2).map(|c| (c, r)));
    }
    for (c, r) in marks {
        point_mark(&mut s, x(c), x(r), c > 0, c < w - 1);
    }
    s.push_str("</g>");
    let mid = u32::midpoint(x(river), x(river + 1));
    let (left_text, right_text) = if p.flipped {
        ("漢 界", "楚 河")
    } else {
        ("楚 河", "漢 界")
    };
    let _ = write!(
        s,
        "<g class=\"river\" font-size=\"34\" fill=\"#5a3a1a\" text-anchor=\"middle\" dominant-baseline=\"central\"><text x=\"{}\" y=\"{mid}\">{left_text}</text><text x=\"{}\" y=\"{mid}\">{right_text}</text></g>",
        x(2),
        x(w - 3)
    );
    coordinates(&mut s, p, x, x, 18, bottom + M - 18);
    if let Some((from, to)) = p.last_move {
        s.push_str("<g class=\"last-move\" fill=\"none\" stroke=\"#1565c0\" stroke-width=\"3\">");
        for sq in [from, to] {
            let (cx, cy) = p.centre(sq);
            let _ = write!(s, "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"29\"/>");
        }
        s.push_str("</g>");
    }
    for (sq, piece) in &p.pieces {
        let (cx, cy) = p.centre(*sq);
        let (ink, side) = if piece.color == Color::Red {
            ("#c62828", "red")
        } else {
            ("#212121", "black")
        };
        let checked = p.check == Some(*sq);
        let _ = write!(
            s,
            "<g class=\"piece {side}{}\" data-square=\"{}\" transform=\"translate({cx} {cy})\"><circle r=\"26\" fill=\"#fbeccb\" stroke=\"{}\" stroke-width=\"{}\"/><circle r=\"21\" fill=\"none\" stroke=\"{ink}\" stroke-width=\"1.5\"/><text font-size=\"30\" fill=\"{ink}\" text-anchor=\"middle\" dominant-baseline=\"central\">{}</text></g>",
            if checked { " check" } else { "" },
            square_name(p, *sq),
            if checked { "#ff1744" } else { ink },
            if checked { 5 } else { 2 },
            piece.glyph
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The little corner marks around a point (left and right arms where the board goes on).
fn point_mark(s: &mut String, x: u32, y: u32, left: bool, right: bool) {
    let (g, l) = (5i64, 12i64);
    let (x, y) = (i64::from(x), i64::from(y));
    for (dx, on) in [(-1i64, left), (1, right)] {
        if !on {
            continue;
        }
        for dy in [-1i64, 1] {
            let (px, py) = (x + dx * g, y + dy * g);
            let _ = write!(
                s,
                "<polyline points=\"{} {py} {px} {py} {px} {}\" stroke-width=\"1.5\"/>",
                px + dx * l,
                py + dy * l
            );
        }
    }
}

fn square_name(p: &Picture, sq: u8) -> String {
    let file = char::from(b'a' + sq % p.width);
    let rank = sq / p.width;
    match p.kind {
        GameKind::Chess => format!("{file}{}", rank + 1),
        _ => format!("{file}{rank}"),
    }
}

/// File letters below the board and rank numbers at its left.
fn coordinates(
    s: &mut String,
    p: &Picture,
    col_x: impl Fn(u32) -> u32,
    row_y: impl Fn(u32) -> u32,
    rank_x: u32,
    file_y: u32,
) {
    s.push_str("<g class=\"coordinates\" font-family=\"'DejaVu Sans',sans-serif\" font-size=\"16\" fill=\"#5a3a1a\" text-anchor=\"middle\" dominant-baseline=\"central\">");
    for c in 0..u32::from(p.width) {
        let file = if p.flipped {
            u32::from(p.width) - 1 - c
        } else {
            c
        };
        let letter = char::from(b'a' + file as u8);
        let _ = write!(s, "<text x=\"{}\" y=\"{file_y}\">{letter}</text>", col_x(c));
    }
    for r in 0..u32::from(p.height) {
        let rank = if p.flipped {
            r
        } else {
            u32::from(p.height) - 1 - r
        };
        let label = if p.kind == GameKind::Chess {
            rank + 1
        } else {
            rank
        };
        let _ = write!(s, "<text x=\"{rank_x}\" y=\"{}\">{label}</text>", row_y(r));
    }
    s.push_str("</g>");
}

fn chess(p: &Picture) -> String {
    let n = u32::from(p.width);
    let side = 2 * MARGIN + n * CELL;
    let mut s = String::with_capacity(8_000);
    header(
        &mut s,
        side,
        side,
        "'DejaVu Sans','Noto Sans Symbols2',sans-serif",
    );
    let _ = write!(
        s,
        "<rect class=\"board\" width=\"{side}\" height=\"{side}\" fill=\"#f4efe6\"/>"
    );
    s.push_str("<g class=\"squares\">");
    for sq in 0..(p.width * p.height) {
        let (c, r) = p.cell(sq);
        let dark = (sq % p.width + sq / p.width).is_multiple_of(2);
        let fill = match (dark, p.last_move.is_some_and(|(f, t)| f == sq || t == sq)) {
            (true, true) => "#aaa23a",
            (false, true) => "#cdd26a",
            (true, false) => "#b58863",
            (false, false) => "#f0d9b5",
        };
        let _ = write!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\"/>",
            MARGIN + c * CELL,
            MARGIN + r * CELL
        );
    }
    s.push_str("</g>");
    if let Some((from, to)) = p.last_move {
        let _ = write!(
            s,
            "<g class=\"last-move\" data-from=\"{}\" data-to=\"{}\"/>",
            square_name(p, from),
            square_name(p, to)
        );
    }
    let centre = |c: u32| MARGIN + c * CELL + CELL / 2;
    coordinates(&mut s, p, centre, centre, MARGIN / 2, side - MARGIN / 2);
    for (sq, piece) in &p.pieces {
        let (cx, cy) = p.centre(*sq);
        let colour = if piece.color == Color::Red {
            "white"
        } else {
            "black"
        };
        let checked = p.check == Some(*sq);
        let _ = write!(
            s,
            "<g class=\"piece {colour}{}\" data-square=\"{}\" transform=\"translate({cx} {cy})\">",
            if checked { " check" } else { "" },
            square_name(p, *sq)
        );
        if checked {
            s.push_str("<circle r=\"28\" fill=\"#ff1744\" fill-opacity=\"0.55\"/>");
        }
        let _ = write!(
            s,
            "<text font-size=\"46\" fill=\"#000\" text-anchor=\"middle\" dominant-baseline=\"central\">{}</text></g>",
            piece.glyph
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// Every piece of the SVG: class, square name, x, y and glyph.
    fn pieces(svg: &str) -> Vec<(String, String, f64, f64, String)> {
        let doc = roxmltree::Document::parse(svg).unwrap();
        doc.descendants()
            .filter(|n| {
                n.has_tag_name("g")
                    && n.attribute("class")
                        .is_some_and(|c| c.starts_with("piece "))
            })
            .map(|g| {
                let t = g.attribute("transform").unwrap();
                let nums: Vec<f64> = t
                    .trim_start_matches("translate(")
                    .trim_end_matches(')')
                    .split(' ')
                    .map(|v| v.parse().unwrap())
                    .collect();
                let text = g
                    .children()
                    .find(|c| c.has_tag_name("text"))
                    .and_then(|c| c.text())
                    .unwrap()
                    .to_owned();
                (
                    g.attribute("class").unwrap().to_owned(),
                    g.attribute("data-square").unwrap().to_owned(),
                    nums[0],
                    nums[1],
                    text,
                )
            })
            .collect()
    }

    fn find<'a>(
        all: &'a [(String, String, f64, f64, String)],
        square: &str,
    ) -> &'a (String, String, f64, f64, String) {
        all.iter().find(|p| p.1 == square).unwrap()
    }

    #[test]
    fn xiangqi_pieces_stand_on_their_points() {
        let svg = svg_of_fen(
            GameKind::Xiangqi,
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
            Some("h2e2"),
            false,
        )
        .unwrap();
        let all = pieces(&svg);
        assert_eq!(all.len(), 32);
        // e0 (Red's king) at the bottom centre, a9 (Black's rook) top left.
        let m = f64::from(XIANGQI_MARGIN);
        let c = f64::from(CELL);
        assert_eq!(
            find(&all, "e0"),
            &(
                "piece red".into(),
                "e0".into(),
                m + 4.0 * c,
                m + 9.0 * c,
                "帥".into()
            )
        );
        assert_eq!(find(&all, "a9").4, "車");
        assert_eq!((find(&all, "a9").2, find(&all, "a9").3), (m, m));
        assert_eq!(find(&all, "e2").4, "炮");
        assert_eq!(find(&all, "b7").4, "砲");
        assert_eq!(find(&all, "a3").4, "兵");
        assert_eq!(find(&all, "a6").4, "卒");
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let marks = doc
            .descendants()
            .find(|n| n.attribute("class") == Some("last-move"))
            .unwrap();
        assert_eq!(
            marks
                .children()
                .filter(|n| n.has_tag_name("circle"))
                .count(),
            2
        );
        // Turned around: e0 at the top.
        let flipped =
            svg_of_fen(GameKind::Xiangqi, banco_xiangqi::fen::START_FEN, None, true).unwrap();
        let all = pieces(&flipped);
        assert_eq!((find(&all, "e0").2, find(&all, "e0").3), (m + 4.0 * c, m));
        assert_eq!((find(&all, "a0").2, find(&all, "a0").3), (m + 8.0 * c, m));
    }

    #[test]
    fn chess_and_check() {
        let svg = svg_of_fen(
            GameKind::Chess,
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            Some("d8h4"),
            false,
        )
        .unwrap();
        let all = pieces(&svg);
        assert_eq!(all.len(), 32);
        let m = f64::from(MARGIN);
        let c = f64::from(CELL);
        let king = find(&all, "e1");
        assert_eq!(king.0, "piece white check");
        assert_eq!((king.2, king.3), (m + 4.5 * c, m + 7.5 * c));
        assert_eq!(king.4, "♔");
        assert_eq!(find(&all, "h4").4, "♛");
        assert!(svg.contains("data-from=\"d8\" data-to=\"h4\""));
        assert!(matches!(
            svg_of_fen(GameKind::Chess, "x", None, false),
            Err(RenderError::Position(_))
        ));
        assert!(matches!(
            svg_of_fen(
                GameKind::Chess,
                banco_chess::fen::START_FEN,
                Some("z9"),
                false
            ),
            Err(RenderError::BadMove(_))
        ));
        assert!(matches!(
            svg_of_fen(GameKind::Lines, "", None, false),
            Err(RenderError::Position(_))
        ));
    }

    /// A set-up that is no legal position is drawn as placed, nothing judged: an empty
    /// chess board, a xiangqi study without the black king (a rook "giving check" to no
    /// one), kings facing each other, a jieqi board without kings; flipped and with a
    /// last move as asked.
    #[test]
    fn any_setup_the_fen_reader_places_is_drawn() {
        let empty = svg_of_fen(GameKind::Chess, "8/8/8/8/8/8/8/8 w - - 0 1", None, false).unwrap();
        assert!(!empty.contains("class=\"piece"), "{empty}");
        let study = "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1";
        let kingless = "9/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1";
        for (kind, fen) in [
            (GameKind::Xiangqi, kingless),
            (GameKind::Xiangqi, "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"),
            (GameKind::Jieqi, "9/9/9/9/9/9/9/9/4R4/9 w - 0 1"),
            (GameKind::Chess, "8/8/8/8/8/8/8/4K3 w - - 0 1"),
        ] {
            assert!(AnyGame::from_fen(kind, fen).is_err(), "{fen} is not legal");
            let svg = svg_of_fen(kind, fen, None, false).unwrap();
            assert!(svg.contains("class=\"piece"), "{fen}: {svg}");
            assert!(!svg.contains("check"), "{fen}: nothing judged");
        }
        let svg = svg_of_fen(GameKind::Xiangqi, kingless, Some("e0e1"), true).unwrap();
        assert!(svg.contains("class=\"last-move\""), "{svg}");
        assert_eq!(
            svg,
            svg_of_picture(&Picture {
                flipped: true,
                last_move: Some((4, 13)),
                ..Picture::of_editor(&Editor::from_fen(GameKind::Xiangqi, kingless).unwrap())
            })
            .unwrap()
        );
        // A legal position still marks its check.
        let check = svg_of_fen(GameKind::Xiangqi, study, None, false).unwrap();
        assert!(check.contains("check"), "{check}");
    }

    #[test]
    fn a_last_move_in_other_notations_or_empty_is_refused() {
        for (kind, text) in [
            (GameKind::Xiangqi, "炮二平五"),
            (GameKind::Xiangqi, "é2e4"),
            (GameKind::Chess, ""),
            (GameKind::Chess, "   "),
            (GameKind::Chess, "e"),
        ] {
            let fen = banco_game::MatchGame::fen(&AnyGame::new(kind).unwrap());
            assert!(
                matches!(
                    svg_of_fen(kind, &fen, Some(text), false),
                    Err(RenderError::BadMove(_))
                ),
                "{text:?}"
            );
        }
    }

    proptest::proptest! {
        #![proptest_config(banco_game::testing::proptest_config(None, 0x5E7))]

        /// Any text is an answer or `None`, never a panic; every legal move's squares are
        /// read back as they are.
        #[test]
        fn move_squares_reads_any_text(kind in 0usize..3, text in "\\PC{0,8}", pick in 0usize..64) {
            let kind = [GameKind::Xiangqi, GameKind::Chess, GameKind::Jieqi][kind];
            let game = AnyGame::new(kind).unwrap();
            let _ = move_squares(&game, &text);
            let moves = game.legal_move_vec();
            let mv = moves[pick % moves.len()];
            let (from, to, _) = game.move_parts(mv);
            let coord = format!("{}{}", game.square_name(from), game.square_name(to));
            proptest::prop_assert_eq!(move_squares(&game, &coord), Some((from, to)));
        }
    }

    #[test]
    fn a_rank_far_off_the_board_is_no_square() {
        // The bound is checked before the square is computed (u8 arithmetic: 92 × 9).
        let xiangqi = AnyGame::new(GameKind::Xiangqi).unwrap();
        assert_eq!(move_squares(&xiangqi, "h92e2"), None);
        assert_eq!(move_squares(&xiangqi, "h2e255"), None);
        let chess = AnyGame::new(GameKind::Chess).unwrap();
        assert_eq!(move_squares(&chess, "a40a1"), None);
        for kind in [GameKind::Xiangqi, GameKind::Chess] {
            let ed = Editor::empty(kind).unwrap();
            assert_eq!(ed.square_named("e99"), None);
            assert_eq!(ed.square_named("i255"), None);
        }
    }

    #[test]
    fn an_editor_board_draws_as_it_stands() {
        let mut ed = Editor::empty(GameKind::Xiangqi).unwrap();
        ed.place(0, Color::Red, crate::pieces::PieceKind::King)
            .unwrap(); // illegal: a0
        let all = pieces(&svg_of_editor(&ed));
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].1, "a0");
    }
}
