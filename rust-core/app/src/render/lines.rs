//! The Lines grid as SVG: the 9×9 cells with their coordinates, each ball a
//! `<g class="ball COLOUR">` holding a disc and a `<text>` with its colour letter (so the
//! picture reads without colour, and tests can find every ball), the three announced
//! colours in a strip above the grid, the score when known, and the last move's start and
//! end cells marked.
//!
//! A position is read from a Lines save ([`LinesPicture::of_game`]) or from a **Lines
//! position string** ([`LinesPicture::parse`]), shaped like a FEN: the nine ranks from rank 9
//! down to rank 1, separated by `/`, each rank written file a to i with a ball letter
//! (`R` red, `G` green, `B` blue, `Y` yellow, `P` purple, `C` cyan, `O` orange, either
//! case) or a digit 1–9 for that many empty cells; then, optionally after a space, the
//! announced colours (up to three letters), and after another space the score.
//!
//! ```
//! use banco_app::render::lines::{svg_of_lines, LinesPicture};
//! let p = LinesPicture::parse("9/9/9/9/2RRRR3/9/9/9/8B GBY 40")?;
//! assert_eq!(p.position_string(), "9/9/9/9/2RRRR3/9/9/9/8B GBY 40");
//! let svg = svg_of_lines(&p);
//! assert_eq!(svg.matches("class=\"ball ").count(), 5);
//! assert_eq!(svg.matches("class=\"next ").count(), 3);
//! # Ok::<(), banco_app::render::RenderError>(())
//! ```

use super::RenderError;
use banco_lines::{Ball, Board, Cell, LinesGame, SIZE};
use std::fmt::Write as _;

/// Side of a cell, in pixels.
pub const LINES_CELL: u32 = 56;
/// Room left, right and below the grid (coordinates).
pub const LINES_MARGIN: u32 = 36;
/// Room above the grid (the announced colours and the score).
pub const LINES_TOP: u32 = 76;

/// What a Lines picture shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinesPicture {
    /// The balls.
    pub board: Board,
    /// The announced colours, in the order they will land (none, or up to three).
    pub next: Vec<Ball>,
    /// The last move's start and end cells.
    pub last_move: Option<(Cell, Cell)>,
    /// The score, when known.
    pub score: Option<u32>,
}

impl LinesPicture {
    /// The picture of a game: its board, announced colours, score and last move.
    #[must_use]
    pub fn of_game(game: &LinesGame) -> LinesPicture {
        LinesPicture {
            board: *game.board(),
            next: game.next_colors().to_vec(),
            last_move: game.moves().last().map(|m| (m.from, m.to)),
            score: Some(game.state().score),
        }
    }

    /// Reads a Lines position string (see the module docs).
    pub fn parse(text: &str) -> Result<LinesPicture, RenderError> {
        let bad = RenderError::Position;
        let mut fields = text.split_whitespace();
        let ranks_text = fields.next().ok_or_else(|| {
            bad("the Lines position is empty: write nine ranks like 9/9/9/9/4R4/9/9/9/9".into())
        })?;
        let ranks: Vec<&str> = ranks_text.split('/').collect();
        if ranks.len() != SIZE {
            return Err(bad(format!(
                "a Lines position has 9 ranks separated by /, not {}",
                ranks.len()
            )));
        }
        let mut board = Board::empty();
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = SIZE - 1 - i;
            let mut file = 0usize;
            for ch in rank_text.chars() {
                if let Some(run) = ch.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += run as usize;
                } else if let Some(ball) = Ball::from_letter(ch) {
                    if let Some(cell) = Cell::new(file, rank) {
                        board.set(cell, Some(ball));
                    }
                    file += 1;
                } else {
                    return Err(bad(format!(
                        "`{ch}` on rank {} is not a ball letter (R G B Y P C O) or a count of empty cells",
                        rank + 1
                    )));
                }
                if file > SIZE {
                    break;
                }
            }
            if file != SIZE {
                return Err(bad(format!(
                    "rank {} has {file} cells, expected 9",
                    rank + 1
                )));
            }
        }
        let mut next = Vec::new();
        let mut score = None;
        if let Some(colours) = fields.next() {
            if let Ok(n) = colours.parse::<u32>() {
                score = Some(n);
            } else {
                for ch in colours.chars() {
                    next.push(Ball::from_letter(ch).ok_or_else(|| {
                        bad(format!(
                            "`{ch}` among the announced colours is not a ball letter (R G B Y P C O)"
                        ))
                    })?);
                }
                if next.len() > 3 {
                    return Err(bad(format!("{} announced colours, at most 3", next.len())));
                }
            }
        }
        if let Some(points) = fields.next() {
            if score.is_some() {
                return Err(bad(format!("`{points}` after the score is not understood")));
            }
            score = Some(
                points
                    .parse()
                    .map_err(|_| bad(format!("the score `{points}` is not a whole number")))?,
            );
        }
        if let Some(extra) = fields.next() {
            return Err(bad(format!(
                "`{extra}` is not understood: a Lines position is ranks, colours and score"
            )));
        }
        Ok(LinesPicture {
            board,
            next,
            last_move: None,
            score,
        })
    }

    /// The position string of this picture (what [`LinesPicture::parse`] reads; the last
    /// move is not part of it).
    #[must_use]
    pub fn position_string(&self) -> String {
        let mut s = String::new();
        for rank in (0..SIZE).rev() {
            let mut empty = 0;
            for file in 0..SIZE {
                match Cell::new(file, rank).and_then(|c| self.board.get(c)) {
                    None => empty += 1,
                    Some(ball) => {
                        if empty > 0 {
                            let _ = write!(s, "{empty}");
                            empty = 0;
                        }
                        s.push(ball.letter());
                    }
                }
            }
            if empty > 0 {
                let _ = write!(s, "{empty}");
            }
            if rank > 0 {
                s.push('/');
            }
        }
        if !self.next.is_empty() {
            s.push(' ');
            s.extend(self.next.iter().map(|b| b.letter()));
        }
        if let Some(score) = self.score {
            let _ = write!(s, " {score}");
        }
        s
    }

    /// The centre of a cell, in pixels.
    #[must_use]
    pub fn centre(cell: Cell) -> (u32, u32) {
        let col = cell.file() as u32;
        let row = (SIZE - 1 - cell.rank()) as u32;
        (
            LINES_MARGIN + col * LINES_CELL + LINES_CELL / 2,
            LINES_TOP + row * LINES_CELL + LINES_CELL / 2,
        )
    }
}

/// Fill colour and letter colour of a ball.
fn paint(ball: Ball) -> (&'static str, &'static str) {
    match ball {
        Ball::Red => ("#e53935", "#fff"),
        Ball::Green => ("#43a047", "#fff"),
        Ball::Blue => ("#1e63d6", "#fff"),
        Ball::Yellow => ("#fdd835", "#333"),
        Ball::Purple => ("#8e24aa", "#fff"),
        Ball::Cyan => ("#26c6da", "#123"),
        Ball::Orange => ("#fb8c00", "#fff"),
    }
}

fn ball(s: &mut String, class: &str, ball: Ball, x: u32, y: u32, radius: u32, cell: Option<Cell>) {
    let (fill, ink) = paint(ball);
    let _ = write!(s, "<g class=\"{class} {}\"", ball.name());
    if let Some(c) = cell {
        let _ = write!(s, " data-cell=\"{c}\"");
    }
    let _ = write!(
        s,
        " transform=\"translate({x} {y})\"><circle r=\"{radius}\" fill=\"{fill}\" stroke=\"#00000055\" stroke-width=\"1.5\"/><circle cx=\"-{h}\" cy=\"-{h}\" r=\"{g}\" fill=\"#ffffff\" fill-opacity=\"0.35\"/><text font-size=\"{f}\" font-weight=\"bold\" fill=\"{ink}\" text-anchor=\"middle\" dominant-baseline=\"central\">{}</text></g>",
        ball.letter(),
        h = radius / 3,
        g = radius / 4,
        f = radius * 9 / 10,
    );
}

/// The SVG of a Lines picture.
#[must_use]
pub fn svg_of_lines(p: &LinesPicture) -> String {
    let n = SIZE as u32;
    let width = 2 * LINES_MARGIN + n * LINES_CELL;
    let height = LINES_TOP + n * LINES_CELL + LINES_MARGIN;
    let mut s = String::with_capacity(10_000);
    super::header(&mut s, width, height, "'DejaVu Sans',sans-serif");
    let _ = write!(
        s,
        "<rect class=\"board\" width=\"{width}\" height=\"{height}\" fill=\"#37474f\"/>"
    );
    s.push_str("<g class=\"cells\" fill=\"#cfd8dc\" stroke=\"#90a4ae\" stroke-width=\"1\">");
    let marked = |c: Cell| p.last_move.is_some_and(|(f, t)| f == c || t == c);
    for cell in Cell::all() {
        let (cx, cy) = LinesPicture::centre(cell);
        let fill = if marked(cell) {
            " fill=\"#fff59d\""
        } else {
            ""
        };
        let _ = write!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"4\"{fill}/>",
            cx - LINES_CELL / 2 + 1,
            cy - LINES_CELL / 2 + 1,
            LINES_CELL - 2,
            LINES_CELL - 2
        );
    }
    s.push_str("</g>");
    if let Some((from, to)) = p.last_move {
        let _ = write!(
            s,
            "<g class=\"last-move\" data-from=\"{from}\" data-to=\"{to}\"/>"
        );
    }
    // Coordinates: files below, ranks at the left.
    s.push_str("<g class=\"coordinates\" font-size=\"15\" fill=\"#cfd8dc\" text-anchor=\"middle\" dominant-baseline=\"central\">");
    for i in 0..SIZE {
        if let Some(cell) = Cell::new(i, i) {
            let (x, y) = LinesPicture::centre(cell);
            let _ = write!(
                s,
                "<text x=\"{x}\" y=\"{}\">{}</text><text x=\"{}\" y=\"{y}\">{}</text>",
                height - LINES_MARGIN / 2,
                char::from(b'a' + i as u8),
                LINES_MARGIN / 2,
                i + 1
            );
        }
    }
    s.push_str("</g>");
    // The announced colours and the score.
    let strip_y = LINES_TOP / 2;
    if !p.next.is_empty() {
        let _ = write!(
            s,
            "<text x=\"{LINES_MARGIN}\" y=\"{strip_y}\" font-size=\"20\" fill=\"#eceff1\" dominant-baseline=\"central\">next</text>"
        );
        for (i, &b) in p.next.iter().enumerate() {
            ball(
                &mut s,
                "next",
                b,
                LINES_MARGIN + 80 + 40 * i as u32,
                strip_y,
                16,
                None,
            );
        }
    }
    if let Some(score) = p.score {
        let _ = write!(
            s,
            "<text class=\"score\" x=\"{}\" y=\"{strip_y}\" font-size=\"24\" font-weight=\"bold\" fill=\"#eceff1\" text-anchor=\"end\" dominant-baseline=\"central\">{score}</text>",
            width - LINES_MARGIN
        );
    }
    for cell in Cell::all() {
        if let Some(b) = p.board.get(cell) {
            let (cx, cy) = LinesPicture::centre(cell);
            ball(&mut s, "ball", b, cx, cy, LINES_CELL * 2 / 5, Some(cell));
        }
    }
    s.push_str("</svg>\n");
    s
}
