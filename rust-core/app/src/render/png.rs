//! PNG pictures (feature `png`): any SVG of [`super`] rasterised by `resvg` with the fonts
//! bundled in `rust-core/app/fonts` — subsets of Noto Serif CJK SC Bold (the xiangqi
//! pieces and the river, 12 KB), Noto Sans Symbols2 (the chess figures, 5 KB) and Noto
//! Sans Bold (ASCII, 9 KB), all under the SIL Open Font License 1.1 (`fonts/OFL.txt`),
//! which allows embedding in closed-source software. System fonts are never read, so a
//! picture looks the same on every machine and phone, and no font package is needed.
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

use resvg::tiny_skia;
use resvg::usvg::{self, fontdb};
use std::collections::BTreeSet;
use std::sync::{Arc, OnceLock};

/// The bundled font subsets (see the module docs).
const FONTS: [&[u8]; 3] = [
    include_bytes!("../../fonts/banco-cjk.otf"),
    include_bytes!("../../fonts/banco-chess.ttf"),
    include_bytes!("../../fonts/banco-latin.ttf"),
];

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

/// The font database of the bundled subsets, made once.
fn fonts() -> Arc<fontdb::Database> {
    static DB: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = fontdb::Database::new();
        for data in FONTS {
            db.load_font_data(data.to_vec());
        }
        // Text whose families are all missing starts from Noto Sans; each glyph it lacks
        // falls back to the face that has it.
        db.set_serif_family("Noto Sans");
        db.set_sans_serif_family("Noto Sans");
        Arc::new(db)
    })
    .clone()
}

/// The Chinese characters of the CJK subset (what `fonts/subset.sh` keeps).
pub const CJK_GLYPHS: &str = "仕俥傌兵卒士將帥炮相砲象車馬楚河漢界暗";

/// True if one of the bundled fonts draws `c`: printable ASCII (Noto Sans), the chess
/// figures U+2654–U+265F (Noto Sans Symbols2) and [`CJK_GLYPHS`] (Noto Serif CJK); the
/// test `every_covered_glyph_has_ink` proves the fonts hold them.
#[must_use]
pub fn has_glyph(c: char) -> bool {
    (' '..='~').contains(&c) || ('\u{2654}'..='\u{265F}').contains(&c) || CJK_GLYPHS.contains(c)
}

/// The PNG of an SVG made by [`super`], `scale` times its size (1.0: one pixel per SVG
/// unit; 2.0 for sharp pictures on phones).
pub fn png_of_svg(svg: &str, scale: f32) -> Result<Vec<u8>, PngError> {
    if !(SCALES.0..=SCALES.1).contains(&scale) {
        return Err(PngError::Scale(scale));
    }
    let wanted: BTreeSet<char> = svg.chars().filter(|c| !c.is_control()).collect();
    if let Some(&c) = wanted.iter().find(|&&c| !has_glyph(c)) {
        return Err(PngError::MissingGlyph(c));
    }
    let options = usvg::Options {
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| PngError::Svg(e.to_string()))?;
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

    #[test]
    fn png_size_reads_only_pngs() {
        assert_eq!(png_size(b"GIF89a"), None);
        assert_eq!(png_size(&[]), None);
    }
}
