//! PNG pictures (feature `png`): any SVG of [`super`] rasterised by `resvg`, its text drawn
//! with glyph outlines taken from the fonts in `rust-core/app/fonts` — subsets of Noto Serif
//! CJK SC Bold (the xiangqi pieces and the river), Noto Sans Symbols2 (the chess figures) and
//! Noto Sans Bold (ASCII), all under the SIL Open Font License 1.1 (`fonts/OFL.txt`), which
//! allows embedding in closed-source software. The outlines are generated from the fonts into
//! [`glyphs`] (`examples/glyph_outlines.rs`); the library reads no font, neither bundled nor
//! of the system, so a picture looks the same on every machine and phone, and it carries no
//! text shaper. Each `<text>` becomes a path of outlines placed as resvg placed text with
//! those fonts: at its one `x` and `y`, with its `font-size`, `font-family`, `text-anchor`,
//! `dominant-baseline` and paint, set on it or on its ancestors. What a path cannot draw as
//! that text was drawn is refused with [`PngError::UnsupportedText`]: `<tspan>`, `<textPath>`
//! and other elements inside a text, lists of positions, `dx`/`dy`/`rotate`, `textLength`,
//! letter and word spacing, vertical writing, decorations, small capitals, gradients or
//! patterns as paint of text, filters, masks and clips on a text, and in a picture with text
//! `<style>` sheets and `<use>` of a text.
//!
//! A character that none of the bundled fonts draws is refused with
//! [`PngError::MissingGlyph`] rather than drawn as a blank.
//!
//! ```
//! use banco_app::any::AnyGame;
//! use banco_app::render::{self, png, RenderOptions};
//! use banco_game::GameKind;
//! let svg = render::svg(&AnyGame::new(GameKind::Xiangqi)?, &RenderOptions::default());
//! let bytes = png::png_of_svg(&svg, 1.0)?;
//! assert_eq!(&bytes[1..4], b"PNG");
//! assert_eq!(png::png_size(&bytes), Some((608, 668)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod glyphs;
mod text;

/// The generator of [`glyphs`], whose output a test compares with the file.
#[cfg(test)]
#[path = "../../examples/glyph_outlines.rs"]
mod glyph_outlines;

use resvg::tiny_skia;
use resvg::usvg;

/// A bundled font as outlines, as [`glyphs`] holds it.
#[derive(Debug)]
pub struct Font {
    /// The family names a `font-family` list finds the font by.
    pub families: &'static [&'static str],
    /// Font units per em: at font size `s` a glyph is scaled by `s / units_per_em`.
    pub units_per_em: u16,
    /// Height of the font above the baseline, in font units (what `central` and the
    /// other baselines are placed with).
    pub ascent: i16,
    /// Depth of the font below the baseline, in font units (negative).
    pub descent: i16,
    /// Height of the lowercase letters, in font units (the `middle` baseline).
    pub x_height: i16,
    /// The glyphs, sorted by character.
    pub glyphs: &'static [Glyph],
}

impl Font {
    /// The glyph of `c`, if the font has one.
    #[must_use]
    pub fn glyph(&self, c: char) -> Option<&'static Glyph> {
        let glyphs = self.glyphs;
        glyphs
            .binary_search_by_key(&c, |g| g.ch)
            .ok()
            .and_then(|i| glyphs.get(i))
    }
}

/// One character of a bundled font.
#[derive(Debug)]
pub struct Glyph {
    /// The character.
    pub ch: char,
    /// How far the next character starts, in font units.
    pub advance: u16,
    /// The outline as SVG path data in font units, y upwards as in the font (empty for a
    /// space): commands `M`, `L`, `Q`, `C` and `Z` with absolute coordinates.
    pub path: &'static str,
}

/// Smallest and largest scale accepted.
pub const SCALES: (f32, f32) = (0.25, 8.0);

/// Why a PNG cannot be made.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PngError {
    /// The scale is outside [`SCALES`].
    #[error("scale {0} is outside 0.25 to 8")]
    Scale(f32),
    /// The SVG cannot be read.
    #[error("the SVG cannot be read: {0}")]
    Svg(String),
    /// A `<text>` uses something the glyph outlines cannot draw as resvg drew text (what:
    /// the payload; the module docs list what is refused).
    #[error(
        "the picture's text uses {0}, which PNG pictures do not draw: give each <text> one x and y, its characters and plain font, anchor, baseline and paint attributes"
    )]
    UnsupportedText(String),
    /// A character the bundled fonts do not have.
    #[error("the picture needs `{0}` (U+{code:04X}), which the bundled fonts do not draw", code = u32::from(*.0))]
    MissingGlyph(char),
    /// The PNG encoder failed.
    #[error("the PNG cannot be written: {0}")]
    Encode(String),
    /// The picture would have more than [`MAX_PIXELS`] pixels.
    #[error("a {width}×{height} picture is too large (at most {max} pixels): draw it at a smaller scale", max = MAX_PIXELS)]
    TooLarge {
        /// Width in pixels, as asked.
        width: u64,
        /// Height in pixels, as asked.
        height: u64,
    },
}

/// The most pixels a PNG may have (32 Mi, 128 MiB of pixel memory): Banco's largest
/// board, xiangqi's 608×668, is 26 million pixels at the largest scale. A caller's SVG
/// asking for more is refused before any memory is taken for it.
pub const MAX_PIXELS: u64 = 32 * 1024 * 1024;

/// The pixel size of a `width`×`height` SVG drawn `scale` times its size, if it has an
/// area and at most [`MAX_PIXELS`] pixels.
fn pixel_size(width: f32, height: f32, scale: f32) -> Result<tiny_skia::IntSize, PngError> {
    // Float to integer casts saturate: an infinite or huge size is caught below.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let side = |v: f32| (v * scale).ceil().max(0.0) as u64;
    let (w, h) = (side(width), side(height));
    if w.saturating_mul(h) > MAX_PIXELS {
        return Err(PngError::TooLarge {
            width: w,
            height: h,
        });
    }
    u32::try_from(w)
        .ok()
        .zip(u32::try_from(h).ok())
        .and_then(|(w, h)| tiny_skia::IntSize::from_wh(w, h))
        .ok_or_else(|| PngError::Svg("the picture has no area".into()))
}

/// The Chinese characters of the CJK subset (what `fonts/subset.sh` keeps).
pub const CJK_GLYPHS: &str = "仕俥傌兵卒士將帥炮相砲象車馬楚河漢界暗";

/// True if one of the bundled fonts draws `c`: printable ASCII (Noto Sans), the chess
/// figures U+2654–U+265F (Noto Sans Symbols2) and [`CJK_GLYPHS`] (Noto Serif CJK); the
/// tests `the_outlines_cover_what_the_subsets_promise` and `every_covered_glyph_has_ink`
/// prove [`glyphs`] holds them.
#[must_use]
pub fn has_glyph(c: char) -> bool {
    glyphs::FONTS.iter().any(|f| f.glyph(c).is_some())
}

/// The XML of a picture, read as usvg reads it.
fn parse_xml(svg: &str) -> Result<roxmltree::Document<'_>, PngError> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    roxmltree::Document::parse_with_options(svg, options).map_err(|e| PngError::Svg(e.to_string()))
}

/// The PNG of an SVG made by [`super`], `scale` times its size (1.0: one pixel per SVG
/// unit; 2.0 for sharp pictures on phones).
pub fn png_of_svg(svg: &str, scale: f32) -> Result<Vec<u8>, PngError> {
    if !(SCALES.0..=SCALES.1).contains(&scale) {
        return Err(PngError::Scale(scale));
    }
    let doc = parse_xml(svg)?;
    let options = usvg::Options::default();
    let tree = match text::outline_text(svg, &doc)? {
        None => usvg::Tree::from_xmltree(&doc, &options),
        Some(outlined) => {
            let doc = parse_xml(&outlined)?;
            // Text only an entity made stays text: refused rather than left out.
            if doc
                .descendants()
                .any(|n| n.has_tag_name(("http://www.w3.org/2000/svg", "text")))
            {
                return Err(PngError::UnsupportedText(
                    "a <text> made by an entity".into(),
                ));
            }
            usvg::Tree::from_xmltree(&doc, &options)
        }
    }
    .map_err(|e| PngError::Svg(e.to_string()))?;
    let size = pixel_size(tree.size().width(), tree.size().height(), scale)?;
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| PngError::Svg("the picture has no area".into()))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| PngError::Encode(e.to_string()))
}

/// Width and height of a PNG, read from its header (`None` if `bytes` is not a PNG).
#[must_use]
pub fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.get(..8)? != b"\x89PNG\r\n\x1a\n" || bytes.get(12..16)? != b"IHDR" {
        return None;
    }
    let word = |at: usize| -> Option<u32> {
        Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
    };
    Some((word(16)?, word(20)?))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::any::AnyGame;
    use crate::render::{RenderOptions, lines, svg, svg_of_fen};
    use banco_game::GameKind;

    /// Decoded RGBA pixels of a PNG made here.
    fn pixels(png: &[u8]) -> tiny_skia::Pixmap {
        tiny_skia::Pixmap::decode_png(png).unwrap()
    }

    fn colour_at(p: &tiny_skia::Pixmap, x: u32, y: u32) -> (u8, u8, u8) {
        let c = p.pixel(x, y).unwrap().demultiply();
        (c.red(), c.green(), c.blue())
    }

    /// Pixels within a square around (x, y) whose colour is near `rgb`.
    fn count_near(p: &tiny_skia::Pixmap, x: u32, y: u32, half: u32, rgb: (u8, u8, u8)) -> usize {
        let mut n = 0;
        for yy in y - half..y + half {
            for xx in x - half..x + half {
                let (r, g, b) = colour_at(p, xx, yy);
                let d = u32::from(r.abs_diff(rgb.0))
                    + u32::from(g.abs_diff(rgb.1))
                    + u32::from(b.abs_diff(rgb.2));
                if d < 60 {
                    n += 1;
                }
            }
        }
        n
    }

    /// Colour of an SVG `#rrggbb` or `#rgb` paint.
    fn rgb(paint: &str) -> (u8, u8, u8) {
        let hex = paint.trim_start_matches('#');
        let digits: Vec<u8> = if hex.len() == 3 {
            hex.chars()
                .map(|c| u8::from_str_radix(&format!("{c}{c}"), 16).unwrap())
                .collect()
        } else {
            (0..3)
                .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
                .collect()
        };
        (digits[0], digits[1], digits[2])
    }

    fn distance(a: (u8, u8, u8), b: (u8, u8, u8)) -> u32 {
        u32::from(a.0.abs_diff(b.0)) + u32::from(a.1.abs_diff(b.1)) + u32::from(a.2.abs_diff(b.2))
    }

    /// The ink of a glyph drawn `ink` on `ground` within `radius` pixels of `centre`: how
    /// many pixels are nearer the ink than the ground, and the centre and size of their box.
    struct Ink {
        pixels: usize,
        centre: (f32, f32),
        size: (f32, f32),
    }

    fn ink(
        p: &tiny_skia::Pixmap,
        centre: (f32, f32),
        radius: f32,
        ink: (u8, u8, u8),
        ground: (u8, u8, u8),
    ) -> Ink {
        let (mut pixels, mut low, mut high) = (0, (f32::MAX, f32::MAX), (f32::MIN, f32::MIN));
        for y in 0..p.height() {
            for x in 0..p.width() {
                let (fx, fy) = (x as f32 + 0.5, y as f32 + 0.5);
                if (fx - centre.0).hypot(fy - centre.1) > radius {
                    continue;
                }
                let c = colour_at(p, x, y);
                if distance(c, ink) < distance(c, ground) {
                    pixels += 1;
                    low = (low.0.min(fx), low.1.min(fy));
                    high = (high.0.max(fx), high.1.max(fy));
                }
            }
        }
        Ink {
            pixels,
            centre: (
                f32::midpoint(low.0, high.0) - centre.0,
                f32::midpoint(low.1, high.1) - centre.1,
            ),
            size: (high.0 - low.0 + 1.0, high.1 - low.1 + 1.0),
        }
    }

    /// A piece or ball of a picture.
    struct Drawn {
        /// Its place (from its `translate`).
        at: (f32, f32),
        /// The character of its text.
        ch: String,
        /// The paint of its text.
        paint: (u8, u8, u8),
        /// The `fill` of its first circle, if it has one.
        disc: Option<(u8, u8, u8)>,
    }

    /// Each `<g class="piece …">`, `<g class="ball …">` or `<g class="next …">` of a picture.
    fn glyphs_of(svg: &str) -> Vec<Drawn> {
        let doc = roxmltree::Document::parse(svg).unwrap();
        doc.descendants()
            .filter(|n| {
                n.attribute("class").is_some_and(|c| {
                    ["piece ", "ball ", "next "]
                        .iter()
                        .any(|k| c.starts_with(k))
                })
            })
            .map(|g| {
                let at: Vec<f32> = g
                    .attribute("transform")
                    .unwrap()
                    .trim_start_matches("translate(")
                    .trim_end_matches(')')
                    .split(' ')
                    .map(|v| v.parse().unwrap())
                    .collect();
                let text = g.children().find(|n| n.has_tag_name("text")).unwrap();
                let disc = g
                    .children()
                    .find(|n| n.has_tag_name("circle"))
                    .and_then(|c| c.attribute("fill"))
                    .map(rgb);
                Drawn {
                    at: (at[0], at[1]),
                    ch: text.text().unwrap().to_string(),
                    paint: rgb(text.attribute("fill").unwrap()),
                    disc,
                }
            })
            .collect()
    }

    #[test]
    fn xiangqi_characters_sit_in_the_middle_of_their_discs() {
        let svg = svg(
            &AnyGame::new(GameKind::Xiangqi).unwrap(),
            &RenderOptions::default(),
        );
        for scale in [1.0, 2.0] {
            let p = pixels(&png_of_svg(&svg, scale).unwrap());
            let pieces = glyphs_of(&svg);
            assert_eq!(pieces.len(), 32);
            let mut wrong = Vec::new();
            for Drawn {
                at: (x, y),
                ch: c,
                paint,
                disc,
            } in pieces
            {
                // Inside the inner ring (radius 21).
                let i = ink(
                    &p,
                    (x * scale, y * scale),
                    19.0 * scale,
                    paint,
                    disc.unwrap(),
                );
                let (dx, dy) = (i.centre.0 / scale, i.centre.1 / scale);
                let (w, h) = (i.size.0 / scale, i.size.1 / scale);
                let strokes = i.pixels as f32 / (scale * scale);
                // Measured when the fonts drew them: 150 to 390 pixels, 26 to 28 wide and high,
                // the box's centre 1 to 2 pixels below the disc's.
                if !(strokes > 140.0
                    && dx.abs() <= 1.0
                    && (0.5..=2.5).contains(&dy)
                    && w > 24.0
                    && h > 24.0)
                {
                    wrong.push(format!(
                        "{c} at ({x} {y}): {strokes} pixels, centre off by ({dx} {dy}), {w}×{h}"
                    ));
                }
            }
            assert!(wrong.is_empty(), "scale {scale}: {wrong:#?}");
        }
    }

    #[test]
    fn chess_figures_sit_in_the_middle_of_their_squares() {
        let svg = svg(
            &AnyGame::new(GameKind::Chess).unwrap(),
            &RenderOptions::default(),
        );
        let p = pixels(&png_of_svg(&svg, 1.0).unwrap());
        let cell = crate::render::CELL as f32;
        let mut wrong = Vec::new();
        for Drawn {
            at: (x, y),
            ch: c,
            paint,
            ..
        } in glyphs_of(&svg)
        {
            // The square under the figure: light or dark.
            let (col, row) = (
                ((x - cell / 2.0 - crate::render::MARGIN as f32) / cell) as u32,
                ((y - cell / 2.0 - crate::render::MARGIN as f32) / cell) as u32,
            );
            let ground = if (col + row) % 2 == 0 {
                rgb("#f0d9b5")
            } else {
                rgb("#b58863")
            };
            let i = ink(&p, (x, y), 29.0, paint, ground);
            let (dx, dy) = i.centre;
            // Measured when the fonts drew them: outline figures 240 to 440 pixels, filled ones
            // 420 to 660, 28 to 34 wide, 33 to 37 high, 6 to 7.5 pixels above the middle.
            let filled = "♚♛♜♝♞♟".contains(c.as_str());
            let enough = if filled { 380 } else { 200 };
            if !(i.pixels > enough
                && dx.abs() <= 1.0
                && (-8.5..=-5.0).contains(&dy)
                && i.size.0 > 24.0
                && i.size.1 > 32.0)
            {
                wrong.push(format!(
                    "{c} at ({x} {y}): {} pixels, centre off by ({dx} {dy}), {:?}",
                    i.pixels, i.size
                ));
            }
        }
        assert!(wrong.is_empty(), "{wrong:#?}");
    }

    #[test]
    fn lines_letters_sit_in_the_middle_of_their_balls_and_the_score_at_the_right() {
        let pic = lines::LinesPicture::parse("9/9/9/9/2RRRR3/9/9/9/8B GBY 1234").unwrap();
        let svg = lines::svg_of_lines(&pic);
        let p = pixels(&png_of_svg(&svg, 1.0).unwrap());
        let balls = glyphs_of(&svg);
        assert_eq!(balls.len(), 8);
        // Measured when the fonts drew them: 33 to 102 pixels, 8 to 11 wide, 10 to 14 high,
        // centred to half a pixel.
        for Drawn {
            at: (x, y),
            ch: c,
            paint,
            disc: ball,
        } in balls
        {
            let i = ink(&p, (x, y), 12.0, paint, ball.unwrap());
            assert!(
                i.pixels > 25
                    && i.centre.0.abs() <= 1.0
                    && i.centre.1.abs() <= 1.5
                    && i.size.0 >= 7.0
                    && i.size.1 >= 9.0,
                "{c} at ({x} {y}): {} pixels, centre off by {:?}, {:?}",
                i.pixels,
                i.centre,
                i.size
            );
        }
        // The score ends at its x (text-anchor end), its middle on its y.
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let score = doc
            .descendants()
            .find(|n| n.attribute("class") == Some("score"))
            .unwrap();
        let right: f32 = score.attribute("x").unwrap().parse().unwrap();
        let mid: f32 = score.attribute("y").unwrap().parse().unwrap();
        let i = ink(
            &p,
            (right - 28.0, mid),
            30.0,
            rgb("#eceff1"),
            colour_at(&p, 2, 2),
        );
        let ends = right - 28.0 + i.centre.0 + i.size.0 / 2.0;
        assert!(
            i.pixels > 300
                && (ends - right).abs() <= 2.0
                && i.centre.1.abs() <= 2.0
                && (14.0..=22.0).contains(&i.size.1),
            "score: {} pixels, ends at {ends} (x {right}), centre off by {:?}, {:?}",
            i.pixels,
            i.centre,
            i.size
        );
    }

    #[test]
    fn every_glyph_banco_draws_is_bundled() {
        let mut missing = Vec::new();
        for game in [GameKind::Xiangqi, GameKind::Chess] {
            let svg = svg(&AnyGame::new(game).unwrap(), &RenderOptions::default());
            missing.extend(svg.chars().filter(|&c| !c.is_control() && !has_glyph(c)));
        }
        for c in "帥將仕士相象馬傌車俥炮砲兵卒楚河漢界♔♕♖♗♘♙♚♛♜♝♞♟abcdefghi0123456789next".chars()
        {
            if !has_glyph(c) {
                missing.push(c);
            }
        }
        assert!(missing.is_empty(), "not in the bundled fonts: {missing:?}");
        assert!(!has_glyph('犬'));
        assert_eq!(
            png_of_svg(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><text>犬</text></svg>",
                1.0
            ),
            Err(PngError::MissingGlyph('犬'))
        );
    }

    #[test]
    fn glyphs_file_is_what_the_generator_writes() {
        let file = include_str!("png/glyphs.rs");
        assert!(
            file == glyph_outlines::glyphs_source().unwrap(),
            "src/render/png/glyphs.rs is not what the fonts give: regenerate it with \
             `cargo run -p banco-app --example glyph_outlines`"
        );
    }

    #[test]
    fn the_outlines_cover_what_the_subsets_promise() {
        let mut covered: Vec<char> = glyphs::FONTS
            .iter()
            .flat_map(|f| f.glyphs.iter().map(|g| g.ch))
            .collect();
        covered.sort_unstable();
        let mut promised: Vec<char> = (' '..='~')
            .chain('\u{2654}'..='\u{265F}')
            .chain(CJK_GLYPHS.chars())
            .collect();
        promised.sort_unstable();
        assert_eq!(covered, promised);
        for font in &glyphs::FONTS {
            // Sorted, one glyph a character: what `Font::glyph` searches.
            assert!(
                font.glyphs.windows(2).all(|w| w[0].ch < w[1].ch),
                "{:?}",
                font.families
            );
            for g in font.glyphs {
                assert_eq!(font.glyph(g.ch).map(|h| h.ch), Some(g.ch));
                // Outlines hold only what `text::write_outline` reads.
                assert!(
                    g.path.chars().all(|c| "MLQCZ -.0123456789".contains(c)),
                    "{:?}",
                    g.ch
                );
                assert_eq!(g.path.is_empty(), g.ch == ' ', "{:?}", g.ch);
            }
        }
        assert_eq!(glyphs::FONTS[text::DEFAULT_FONT].families, ["Noto Sans"]);
    }

    #[test]
    fn every_covered_glyph_has_ink() {
        let all = (' '..='~')
            .chain('\u{2654}'..='\u{265F}')
            .chain(CJK_GLYPHS.chars())
            .filter(|c| !c.is_whitespace() && !"<&>".contains(*c));
        let mut blank = Vec::new();
        for c in all {
            let svg = format!(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"40\"><text x=\"20\" y=\"20\" font-family=\"serif\" font-size=\"30\" text-anchor=\"middle\" dominant-baseline=\"central\">{c}</text></svg>"
            );
            let p = pixels(&png_of_svg(&svg, 1.0).unwrap());
            if count_near(&p, 20, 20, 19, (0, 0, 0)) < 3 {
                blank.push(c);
            }
        }
        assert!(blank.is_empty(), "drawn blank: {blank:?}");
    }

    #[test]
    fn xiangqi_png_has_its_size_and_draws_the_pieces() {
        let svg = svg_of_fen(
            GameKind::Xiangqi,
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
            Some("h2e2"),
            false,
        )
        .unwrap();
        let png = png_of_svg(&svg, 1.0).unwrap();
        assert_eq!(png_size(&png), Some((608, 668)));
        let p = pixels(&png);
        // Red ink of 帥 inside the disc at e0 (bottom centre), black ink of 將 at e9.
        let m = crate::render::XIANGQI_MARGIN;
        let c = crate::render::CELL;
        let red = count_near(&p, m + 4 * c, m + 9 * c, 14, (0xc6, 0x28, 0x28));
        let black = count_near(&p, m + 4 * c, m, 14, (0x21, 0x21, 0x21));
        assert!(red > 60, "red strokes of 帥: {red}");
        assert!(black > 60, "black strokes of 將: {black}");
        // An empty point (e4) holds no piece ink; the board colour is there.
        assert_eq!(
            count_near(&p, m + 4 * c + 20, m + 5 * c + 20, 4, (0xc6, 0x28, 0x28)),
            0
        );
        // Twice the size.
        let big = png_of_svg(&svg, 2.0).unwrap();
        assert_eq!(png_size(&big), Some((1216, 1336)));
        assert_eq!(png_of_svg(&svg, 0.0), Err(PngError::Scale(0.0)));
        assert!(matches!(png_of_svg("<svg", 1.0), Err(PngError::Svg(_))));
    }

    #[test]
    fn chess_and_lines_pngs() {
        let chess = svg(
            &AnyGame::new(GameKind::Chess).unwrap(),
            &RenderOptions::default(),
        );
        let png = png_of_svg(&chess, 1.0).unwrap();
        let side = 2 * crate::render::MARGIN + 8 * crate::render::CELL;
        assert_eq!(png_size(&png), Some((side, side)));
        let p = pixels(&png);
        // The black king's figure on e8 puts near-black pixels in its square.
        let m = crate::render::MARGIN;
        let cell = crate::render::CELL;
        assert!(count_near(&p, m + 4 * cell + cell / 2, m + cell / 2, 20, (0, 0, 0)) > 40);
        // e4 is empty: no black there.
        assert_eq!(
            count_near(
                &p,
                m + 4 * cell + cell / 2,
                m + 4 * cell + cell / 2,
                20,
                (0, 0, 0)
            ),
            0
        );

        let pic = lines::LinesPicture::parse("9/9/9/9/2RRRR3/9/9/9/8B GBY 40").unwrap();
        let png = png_of_svg(&lines::svg_of_lines(&pic), 1.0).unwrap();
        let p = pixels(&png);
        let (x, y) = lines::LinesPicture::centre("c5".parse().unwrap());
        assert!(count_near(&p, x, y, 10, (0xe5, 0x39, 0x35)) > 200);
        let (x, y) = lines::LinesPicture::centre("i1".parse().unwrap());
        assert!(count_near(&p, x, y, 10, (0x1e, 0x63, 0xd6)) > 200);
        let (x, y) = lines::LinesPicture::centre("a1".parse().unwrap());
        assert_eq!(count_near(&p, x, y, 10, (0xe5, 0x39, 0x35)), 0);
    }

    #[test]
    fn a_picture_larger_than_a_phone_can_hold_is_refused() {
        // Height enormous, width small: what a caller's own SVG may ask for.
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="10000" height="10000000"/>"#;
        assert!(matches!(
            png_of_svg(svg, 1.0),
            Err(PngError::TooLarge {
                width: 10_000,
                height: 10_000_000
            })
        ));
        assert!(matches!(
            pixel_size(f32::MAX, 1.0, 8.0),
            Err(PngError::TooLarge { .. })
        ));
        assert!(matches!(pixel_size(0.0, 10.0, 1.0), Err(PngError::Svg(_))));
        // Banco's largest board at the largest scale still fits.
        assert!(pixel_size(608.0, 668.0, SCALES.1).is_ok());
    }

    /// What a picture costs: `cargo test -p banco-app --features png --lib -- --ignored
    /// --nocapture png_timing` (no assertion on time; `tests/nightly.sh speed` runs it).
    #[test]
    #[ignore = "a timing to read, not a check: tests/nightly.sh speed runs it"]
    fn png_timing() {
        let xiangqi = svg(
            &AnyGame::new(GameKind::Xiangqi).unwrap(),
            &RenderOptions::default(),
        );
        for _ in 0..3 {
            let mut times: Vec<f64> = (0..21)
                .map(|_| {
                    let start = std::time::Instant::now();
                    assert!(!png_of_svg(&xiangqi, 2.0).unwrap().is_empty());
                    start.elapsed().as_secs_f64() * 1000.0
                })
                .collect();
            times.sort_by(f64::total_cmp);
            println!("xiangqi at scale 2: {:.2} ms (median of 21)", times[10]);
        }
    }

    #[test]
    fn png_size_reads_only_pngs() {
        assert_eq!(png_size(b"GIF89a"), None);
        assert_eq!(png_size(&[]), None);
    }
}
