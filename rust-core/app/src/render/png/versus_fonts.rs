//! The outlines against resvg's own text with the bundled fonts: how many pixels differ.
//! Run once, before resvg's `text` feature left the build (the figures are in the commit).

#![allow(clippy::unwrap_used)]

use super::*;
use crate::any::AnyGame;
use crate::render::{RenderOptions, lines, svg};
use banco_game::GameKind;
use resvg::usvg::fontdb;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

const FONT_FILES: [&[u8]; 3] = [
    include_bytes!("../../../fonts/banco-cjk.otf"),
    include_bytes!("../../../fonts/banco-chess.ttf"),
    include_bytes!("../../../fonts/banco-latin.ttf"),
];

fn fonts() -> Arc<fontdb::Database> {
    static DB: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = fontdb::Database::new();
        for data in FONT_FILES {
            db.load_font_data(data.to_vec());
        }
        db.set_serif_family("Noto Sans");
        db.set_sans_serif_family("Noto Sans");
        Arc::new(db)
    })
    .clone()
}

/// `png_of_svg` as it was: text by usvg with the fonts.
fn old_png_of_svg(svg: &str, scale: f32) -> Result<Vec<u8>, PngError> {
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
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| PngError::Encode(e.to_string()))
}

/// (pixels differing at all, by more than 16 in a channel, by more than 64, largest difference)
fn difference(a: &[u8], b: &[u8]) -> (usize, usize, usize, u8) {
    let a = tiny_skia::Pixmap::decode_png(a).unwrap();
    let b = tiny_skia::Pixmap::decode_png(b).unwrap();
    assert_eq!((a.width(), a.height()), (b.width(), b.height()));
    let (mut any, mut over16, mut over64, mut most) = (0, 0, 0, 0);
    for (p, q) in a.data().chunks(4).zip(b.data().chunks(4)) {
        let d = p.iter().zip(q).map(|(x, y)| x.abs_diff(*y)).max().unwrap();
        most = most.max(d);
        any += usize::from(d > 0);
        over16 += usize::from(d > 16);
        over64 += usize::from(d > 64);
    }
    (any, over16, over64, most)
}

fn pictures() -> Vec<(&'static str, String)> {
    let xiangqi = svg(
        &AnyGame::new(GameKind::Xiangqi).unwrap(),
        &RenderOptions::default(),
    );
    let flipped = svg(
        &AnyGame::new(GameKind::Xiangqi).unwrap(),
        &RenderOptions {
            flipped: true,
            ..RenderOptions::default()
        },
    );
    let chess = svg(
        &AnyGame::new(GameKind::Chess).unwrap(),
        &RenderOptions::default(),
    );
    let pic = lines::LinesPicture::parse("9/9/9/9/2RRRR3/9/9/9/8B GBY 40").unwrap();
    let mut sheet = String::from(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\" height=\"400\" font-family=\"serif\">",
    );
    let all: Vec<char> = (' '..='~')
        .chain('\u{2654}'..='\u{265F}')
        .chain(CJK_GLYPHS.chars())
        .filter(|c| !c.is_whitespace() && !"<&>".contains(*c))
        .collect();
    for (i, c) in all.iter().enumerate() {
        let (x, y) = (20 + (i % 20) * 38, 20 + (i / 20) * 50);
        let anchor = ["start", "middle", "end"][i % 3];
        let base = ["central", "auto", "middle", "hanging"][i % 4];
        let _ = write!(
            sheet,
            "<text x=\"{x}\" y=\"{y}\" font-size=\"30\" text-anchor=\"{anchor}\" dominant-baseline=\"{base}\">{c}</text>"
        );
    }
    sheet.push_str(
        "<g font-family=\"'Noto Serif CJK SC'\" font-size=\"22\"><text x=\"10\" y=\"380\">a 帥 b ♔</text>\
         <text x=\"400\" y=\"380\" text-anchor=\"end\" fill=\"red\" stroke=\"blue\" stroke-width=\"1\">楚河 xy</text></g>\
         <text x=\"790\" y=\"380\" font-family=\"'Noto Sans Symbols2'\" text-anchor=\"end\" font-size=\"2em\">♛Kq</text></svg>",
    );
    vec![
        ("xiangqi", xiangqi),
        ("xiangqi flipped", flipped),
        ("chess", chess),
        ("lines", lines::svg_of_lines(&pic)),
        ("glyph sheet", sheet),
    ]
}

#[test]
fn outlines_draw_the_pictures_as_the_fonts_did() {
    let mut worst = 0;
    for (name, svg) in pictures() {
        for scale in [1.0, 2.0] {
            let old = old_png_of_svg(&svg, scale).unwrap();
            let new = png_of_svg(&svg, scale).unwrap();
            let (any, over16, over64, most) = difference(&old, &new);
            let size = png_size(&new).unwrap();
            println!(
                "{name} at {scale}: {}×{} pixels, {any} differ, {over16} by more than 16, {over64} by more than 64, at most {most}",
                size.0, size.1
            );
            worst = worst.max(over64);
        }
    }
    assert!(worst < 50, "{worst}");
}

#[test]
#[ignore = "timing: cargo test -p banco-app --features png --release -- --ignored --nocapture timing"]
fn timing_old_and_new() {
    let xiangqi = svg(
        &AnyGame::new(GameKind::Xiangqi).unwrap(),
        &RenderOptions::default(),
    );
    let median = |f: &dyn Fn() -> Vec<u8>| {
        let mut times: Vec<f64> = (0..21)
            .map(|_| {
                let t = Instant::now();
                assert!(!f().is_empty());
                t.elapsed().as_secs_f64() * 1000.0
            })
            .collect();
        times.sort_by(f64::total_cmp);
        times[times.len() / 2]
    };
    for _ in 0..3 {
        let old = median(&|| old_png_of_svg(&xiangqi, 2.0).unwrap());
        let new = median(&|| png_of_svg(&xiangqi, 2.0).unwrap());
        println!("xiangqi at 2: fonts {old:.2} ms, outlines {new:.2} ms (median of 21)");
    }
}
