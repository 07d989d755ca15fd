//! Writes `src/render/png/glyphs.rs`, the glyph outlines the PNG pictures draw their text
//! with, from the font subsets in `rust-core/app/fonts` (made by `fonts/subset.sh`):
//!
//! ```text
//! cargo run -p banco-app --example glyph_outlines
//! ```
//!
//! For every character a subset maps, the file holds its advance and its outline as SVG path
//! data in font units (y up, as in the font), drawn unhinted by `skrifa` exactly as resvg
//! drew the fonts' text before; for every font its family names and the metrics the
//! baselines are placed with. The test `glyphs_file_is_what_the_generator_writes` (in
//! `render::png`) fails until the file is regenerated after a font or this tool changes.
//! `skrifa` is a dev-dependency: the library holds the outlines, never a font reader.

use skrifa::outline::{DrawSettings, OutlinePen};
use skrifa::prelude::{LocationRef, Size};
use skrifa::raw::types::NameId;
use skrifa::{FontRef, MetadataProvider};
use std::fmt::Write as _;

/// The bundled subsets in fallback order (the order resvg's font database held them),
/// with the constant each becomes and what it draws.
pub const FONTS: [(&str, &str, &[u8]); 3] = [
    (
        "CJK",
        "Noto Serif CJK SC Bold (`fonts/banco-cjk.otf`): the xiangqi pieces and the river.",
        include_bytes!("../fonts/banco-cjk.otf"),
    ),
    (
        "CHESS",
        "Noto Sans Symbols2 (`fonts/banco-chess.ttf`): the chess figures U+2654–U+265F.",
        include_bytes!("../fonts/banco-chess.ttf"),
    ),
    (
        "LATIN",
        "Noto Sans Bold (`fonts/banco-latin.ttf`): printable ASCII, and the first font of text \
         whose families are all missing.",
        include_bytes!("../fonts/banco-latin.ttf"),
    ),
];

/// SVG path data in font units, numbers as short as they are exact.
#[derive(Default)]
struct PathData(String);

impl PathData {
    fn push(&mut self, command: char, points: &[f32]) {
        self.0.push(command);
        for (i, v) in points.iter().enumerate() {
            if i > 0 {
                self.0.push(' ');
            }
            // `{}` of an f32 is its shortest exact form ("12", "12.5").
            let _ = write!(self.0, "{v}");
        }
    }
}

impl OutlinePen for PathData {
    fn move_to(&mut self, x: f32, y: f32) {
        self.push('M', &[x, y]);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.push('L', &[x, y]);
    }
    fn quad_to(&mut self, cx0: f32, cy0: f32, x: f32, y: f32) {
        self.push('Q', &[cx0, cy0, x, y]);
    }
    fn curve_to(&mut self, cx0: f32, cy0: f32, cx1: f32, cy1: f32, x: f32, y: f32) {
        self.push('C', &[cx0, cy0, cx1, cy1, x, y]);
    }
    fn close(&mut self) {
        self.0.push('Z');
    }
}

/// The family names a font database finds the font by: the typographic family (name 16),
/// else the family (name 1).
fn families(font: &FontRef<'_>) -> Vec<String> {
    let mut names = Vec::new();
    for id in [NameId::TYPOGRAPHIC_FAMILY_NAME, NameId::FAMILY_NAME] {
        for name in font.localized_strings(id) {
            let name = name.to_string();
            if !name.is_empty() && !names.contains(&name) {
                names.push(name);
            }
        }
        if !names.is_empty() {
            break;
        }
    }
    names
}

/// `v` as an integer, which font units of metrics and advances are.
fn whole(v: f32, font: &str) -> Result<i32, String> {
    if v.fract() == 0.0 && v.abs() < 32_768.0 {
        Ok(v as i32)
    } else {
        Err(format!("{font}: {v} is not a whole number of font units"))
    }
}

/// The text of `glyphs.rs`.
pub fn glyphs_source() -> Result<String, String> {
    let mut s = String::from(
        "//! Glyph outlines of the fonts bundled in `rust-core/app/fonts` (subsets of Noto fonts \
         by Google,\n\
         //! SIL Open Font License 1.1: `fonts/OFL.txt`), written by `examples/glyph_outlines.rs`:\n\
         //! regenerate this file with `cargo run -p banco-app --example glyph_outlines` instead of\n\
         //! editing it.\n\
         //!\n\
         //! ```\n\
         //! use banco_app::render::png::glyphs::FONTS;\n\
         //! let piece = FONTS.iter().find_map(|font| font.glyph('帥')).ok_or(\"no 帥\")?;\n\
         //! assert!(piece.advance > 0 && piece.path.starts_with('M'));\n\
         //! # Ok::<(), &str>(())\n\
         //! ```\n\n\
         use super::{Font, Glyph};\n\n\
         /// The bundled fonts in fallback order: a character the first font of a text lacks is\n\
         /// drawn by the first of these that has it.\n\
         pub static FONTS: [Font; 3] = [CJK, CHESS, LATIN];\n",
    );
    for (name, about, data) in FONTS {
        let font = FontRef::new(data).map_err(|e| format!("{name}: {e}"))?;
        let location = LocationRef::default();
        let metrics = font.metrics(Size::unscaled(), location);
        let advances = font.glyph_metrics(Size::unscaled(), location);
        let outlines = font.outline_glyphs();
        // The vertical metrics rounded as resvg rounds them; its x-height when a font has none.
        let x_height = metrics
            .x_height
            .filter(|&x| x > 0.0)
            .unwrap_or((metrics.ascent - metrics.descent) * 0.45);
        let _ = write!(
            s,
            "\n/// {about}\n#[rustfmt::skip]\npub const {name}: Font = Font {{\n    \
             families: &{:?},\n    units_per_em: {},\n    ascent: {},\n    descent: {},\n    \
             x_height: {},\n    glyphs: &[\n",
            families(&font),
            metrics.units_per_em,
            whole(metrics.ascent.round(), name)?,
            whole(metrics.descent.round(), name)?,
            whole(x_height.round(), name)?,
        );
        let mut chars: Vec<(char, _)> = font
            .charmap()
            .mappings()
            .filter_map(|(code, glyph)| Some((char::from_u32(code)?, glyph)))
            .collect();
        chars.sort_by_key(|&(c, _)| c);
        for (c, glyph) in chars {
            let mut path = PathData::default();
            if let Some(outline) = outlines.get(glyph) {
                outline
                    .draw(
                        DrawSettings::unhinted(Size::unscaled(), location),
                        &mut path,
                    )
                    .map_err(|e| format!("{name} {c:?}: {e}"))?;
            }
            let advance = advances
                .advance_width(glyph)
                .ok_or_else(|| format!("{name} {c:?}: no advance"))?;
            let advance = whole(advance, name)?;
            if advance < 0 {
                return Err(format!("{name} {c:?}: negative advance {advance}"));
            }
            let _ = writeln!(
                s,
                "        Glyph {{ ch: {c:?}, advance: {advance}, path: {:?} }},",
                path.0
            );
        }
        s.push_str("    ],\n};\n");
    }
    Ok(s)
}

#[cfg_attr(test, allow(dead_code))]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/render/png/glyphs.rs");
    std::fs::write(path, glyphs_source()?)?;
    println!("wrote {path}");
    Ok(())
}
