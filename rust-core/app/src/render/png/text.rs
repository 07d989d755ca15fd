//! The text of an SVG as glyph outlines: before resvg draws a picture, each `<text>` element
//! is replaced, byte for byte in place, by a `<path>` carrying the outlines of its characters
//! from [`glyphs`](super::glyphs), laid out as resvg lays out text: at its one `x` and `y`,
//! scaled to its `font-size`, moved along by `text-anchor` (start, middle, end) and across by
//! `dominant-baseline` (alphabetic by default, central, middle, hanging …) with the metrics of
//! its first font, each character drawn by the first font of its `font-family` list that has
//! it, else by the first bundled font that has it. Font properties are resolved from the
//! ancestors; the path keeps the text's other attributes, so fill, stroke, opacity, transform
//! and class apply as they did, and the rest of the SVG is untouched.
//!
//! What plain text cannot mean is refused with [`PngError::UnsupportedText`] rather than
//! drawn differently: `<tspan>`, `<textPath>` and other elements inside a text, lists of
//! positions, `dx`/`dy`/`rotate`, `textLength`, letter and word spacing, vertical writing,
//! decorations, small capitals, gradients or patterns as paint of text, filters, masks and
//! clips on a text, `<style>` sheets and `<use>` of a text in a picture with text.
//!
//! ```
//! use banco_app::render::png::{png_of_svg, PngError};
//! let plain = r#"<svg xmlns="http://www.w3.org/2000/svg" width="60" height="40">
//!     <text x="30" y="20" font-size="20" text-anchor="middle" dominant-baseline="central">a1</text></svg>"#;
//! assert!(png_of_svg(plain, 1.0).is_ok());
//! let spans = plain.replace(">a1<", "><tspan>a</tspan>1<");
//! assert!(matches!(png_of_svg(&spans, 1.0), Err(PngError::UnsupportedText(_))));
//! ```

use super::glyphs::FONTS;
use super::{Font, Glyph, PngError};
use roxmltree::{Document, Node};
use std::fmt::Write as _;
use std::ops::Range;

const SVG_NS: &str = "http://www.w3.org/2000/svg";
const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";
const XLINK_NS: &str = "http://www.w3.org/1999/xlink";

/// The font size of text that sets none (resvg's default).
const DEFAULT_FONT_SIZE: f32 = 12.0;
/// Pixels per inch, for lengths in inches, centimetres and points (resvg's default).
const DPI: f32 = 96.0;
/// The font of text whose families are all missing, and of the generic `serif` and
/// `sans-serif`: Noto Sans, as resvg's font database of the bundled fonts was set.
pub(super) const DEFAULT_FONT: usize = 2;

/// The text's attributes a path must not carry: positions, and the ones the path sets itself.
const DROPPED: [&str; 13] = [
    "x",
    "y",
    "dx",
    "dy",
    "rotate",
    "textLength",
    "lengthAdjust",
    "d",
    "fill-rule",
    "shape-rendering",
    "marker-start",
    "marker-mid",
    "marker-end",
];
/// Properties the path sets itself, so a `style` declaring one is rewritten without it.
const OVERRIDDEN: [&str; 6] = [
    "fill-rule",
    "shape-rendering",
    "marker",
    "marker-start",
    "marker-mid",
    "marker-end",
];

fn unsupported(what: impl Into<String>) -> PngError {
    PngError::UnsupportedText(what.into())
}

fn is_svg(node: Node<'_, '_>, name: &str) -> bool {
    node.is_element()
        && node.tag_name().namespace() == Some(SVG_NS)
        && node.tag_name().name() == name
}

/// `svg`, parsed as `doc`, with every `<text>` replaced by a `<path>` of glyph outlines;
/// `None` if it has no text.
pub(super) fn outline_text(svg: &str, doc: &Document<'_>) -> Result<Option<String>, PngError> {
    let texts: Vec<Node<'_, '_>> = doc.descendants().filter(|&n| is_svg(n, "text")).collect();
    if texts.is_empty() {
        return Ok(None);
    }
    check_document(doc)?;
    let mut out = String::with_capacity(svg.len() + 2048 * texts.len());
    // A text an entity declared has its source in the DTD, before the root element.
    let mut done = doc.root_element().range().start;
    out.push_str(svg.get(..done).unwrap_or_default());
    for text in texts {
        let range = text.range();
        let before = svg
            .get(done..range.start)
            .filter(|_| svg.get(range.clone()).is_some_and(|s| s.starts_with('<')))
            .ok_or_else(|| unsupported("a <text> made by an entity"))?;
        out.push_str(before);
        write_text(svg, text, &mut out)?;
        done = range.end;
    }
    out.push_str(svg.get(done..).unwrap_or_default());
    Ok(Some(out))
}

/// Refuses what would style or place text from elsewhere: a style sheet, or a `<use>` of an
/// element holding text (its properties would come from the `<use>`).
fn check_document(doc: &Document<'_>) -> Result<(), PngError> {
    if doc.descendants().any(|n| is_svg(n, "style")) {
        return Err(unsupported(
            "a <style> sheet (set the text's attributes instead)",
        ));
    }
    for usage in doc.descendants().filter(|&n| is_svg(n, "use")) {
        let href = usage
            .attribute((XLINK_NS, "href"))
            .or_else(|| usage.attribute("href"))
            .and_then(|h| h.trim().strip_prefix('#'));
        let Some(id) = href else { continue };
        let target = doc.descendants().find(|n| n.attribute("id") == Some(id));
        if target.is_some_and(|t| t.descendants().any(|n| is_svg(n, "text"))) {
            return Err(unsupported("a <use> of an element holding a <text>"));
        }
    }
    Ok(())
}

/// The value of property `name` set on `node` itself: in its `style` attribute, else as an
/// attribute.
fn own<'a>(node: Node<'a, '_>, name: &str) -> Option<&'a str> {
    let declared = node.attribute("style").and_then(|style| {
        style
            .split(';')
            .filter_map(|d| d.split_once(':'))
            .filter(|(k, _)| k.trim() == name)
            .map(|(_, v)| v.trim())
            .next_back()
    });
    declared.or_else(|| node.attribute(name).map(str::trim))
}

/// The value of inherited property `name` at `node`: its own, else its nearest ancestor's.
fn inherited<'a>(node: Node<'a, '_>, name: &str) -> Option<&'a str> {
    node.ancestors()
        .filter(Node::is_element)
        .find_map(|n| own(n, name).filter(|&v| v != "inherit"))
}

/// A number and its unit (`""`, `px`, `em`, `%` …).
fn length(value: &str) -> Option<(f32, &str)> {
    let value = value.trim();
    let number_end = value
        .rfind(|c: char| !(c.is_ascii_alphabetic() || c == '%'))
        .map_or(0, |i| i + 1);
    let (number, unit) = value.split_at(number_end);
    let n: f32 = number.parse().ok()?;
    n.is_finite().then_some((n, unit))
}

/// A length in user units, `em` and `ex` relative to `font_size`; `None` for percentages and
/// anything unknown.
fn absolute(n: f32, unit: &str, font_size: f32) -> Option<f32> {
    Some(match unit {
        "" | "px" => n,
        "em" => n * font_size,
        "ex" => n * font_size / 2.0,
        "in" => n * DPI,
        "cm" => n * DPI / 2.54,
        "mm" => n * DPI / 25.4,
        "pt" => n * DPI / 72.0,
        "pc" => n * DPI / 6.0,
        _ => return None,
    })
}

/// The font size at `text`, resolved from the root down as resvg does.
fn font_size(text: Node<'_, '_>) -> Result<f32, PngError> {
    let chain: Vec<Node<'_, '_>> = text.ancestors().filter(Node::is_element).collect();
    let mut size = DEFAULT_FONT_SIZE;
    for node in chain.into_iter().rev() {
        let Some(value) = own(node, "font-size").filter(|&v| v != "inherit") else {
            continue;
        };
        let step = match value {
            "xx-small" => Some(-3),
            "x-small" => Some(-2),
            "small" | "smaller" => Some(-1),
            "medium" => Some(0),
            "large" | "larger" => Some(1),
            "x-large" => Some(2),
            "xx-large" => Some(3),
            _ => None,
        };
        size = match (step, length(value)) {
            (Some(step), _) => size * 1.2f32.powi(step),
            (None, Some((n, "%"))) => n * size * 0.01,
            (None, Some((n, unit))) => absolute(n, unit, size)
                .ok_or_else(|| unsupported(format!("font-size {value:?}")))?,
            (None, None) => return Err(unsupported(format!("font-size {value:?}"))),
        };
    }
    Ok(size)
}

/// The one `x` or `y` of a text (0 if absent).
fn position(text: Node<'_, '_>, name: &str, font_size: f32) -> Result<f32, PngError> {
    let Some(value) = text.attribute(name) else {
        return Ok(0.0);
    };
    let mut values = value
        .split(|c: char| c == ',' || c.is_ascii_whitespace())
        .filter(|v| !v.is_empty());
    let (first, more) = (values.next(), values.next());
    match (first.and_then(length), more) {
        (None, None) => Ok(0.0),
        (Some((n, unit)), None) => {
            absolute(n, unit, font_size).ok_or_else(|| unsupported(format!("{name}={value:?}")))
        }
        _ => Err(unsupported(format!(
            "{name}={value:?} (one position per text)"
        ))),
    }
}

/// The index in [`FONTS`] of the text's first font: the first family of its `font-family`
/// list that a bundled font has, `serif` and `sans-serif` being Noto Sans.
fn first_font(text: Node<'_, '_>) -> usize {
    let list = inherited(text, "font-family").unwrap_or_default();
    for family in list.split(',') {
        let family = family.trim();
        let quoted = family.len() >= 2
            && (family.starts_with('\'') && family.ends_with('\'')
                || family.starts_with('"') && family.ends_with('"'));
        let name = if quoted {
            family[1..family.len() - 1].to_string()
        } else {
            match family {
                "serif" | "sans-serif" => return DEFAULT_FONT,
                _ => family
                    .split_ascii_whitespace()
                    .collect::<Vec<_>>()
                    .join(" "),
            }
        };
        if let Some(i) = FONTS
            .iter()
            .position(|f| f.families.contains(&name.as_str()))
        {
            return i;
        }
    }
    DEFAULT_FONT
}

/// A baseline's distance below the alphabetic one in `font` at `size` (resvg's formulas, in
/// its order of operations).
fn baseline_shift(font: &Font, size: f32, baseline: &str) -> Option<f32> {
    let scale = size / f32::from(font.units_per_em);
    let ascent = f32::from(font.ascent) * scale;
    let descent = f32::from(font.descent) * scale;
    Some(match baseline {
        "auto" | "baseline" | "alphabetic" | "use-script" | "no-change" | "reset-size" => 0.0,
        "before-edge" | "text-before-edge" => ascent,
        "middle" => f32::from(font.x_height) * scale * 0.5,
        "central" => ascent - (ascent - descent) * 0.5,
        "after-edge" | "text-after-edge" | "ideographic" => descent,
        "hanging" => ascent * 0.8,
        "mathematical" => ascent * 0.5,
        _ => return None,
    })
}

/// The glyph of each character, chosen as resvg chose them: from the first font if it has
/// them; else, for the first character missing, from the first other font that has it —
/// all of them if that font has them all, else the missing ones — and so on.
fn choose_glyphs(
    chars: &[char],
    first: usize,
) -> Result<Vec<(&'static Font, &'static Glyph)>, PngError> {
    let pick = |font: usize, c: char| Some((&FONTS[font], FONTS[font].glyph(c)?));
    let mut chosen: Vec<_> = chars.iter().map(|&c| pick(first, c)).collect();
    let mut used = vec![first];
    while let Some(i) = chosen.iter().position(Option::is_none) {
        let c = chars[i];
        let fallback = (0..FONTS.len())
            .find(|f| !used.contains(f) && pick(*f, c).is_some())
            .ok_or(PngError::MissingGlyph(c))?;
        if chars.iter().all(|&c| pick(fallback, c).is_some()) {
            chosen = chars.iter().map(|&c| pick(fallback, c)).collect();
        } else {
            for (slot, &c) in chosen.iter_mut().zip(chars) {
                if slot.is_none() {
                    *slot = pick(fallback, c);
                }
            }
            used.push(fallback);
        }
    }
    Ok(chosen.into_iter().flatten().collect())
}

/// The characters of a text as resvg reads them: tabs and line ends are spaces; unless
/// `xml:space="preserve"`, runs of spaces are one and a leading and a trailing space go.
fn characters(text: Node<'_, '_>) -> Result<Vec<char>, PngError> {
    let mut raw = String::new();
    for child in text.children() {
        if child.is_text() {
            raw.push_str(child.text().unwrap_or_default());
        } else if child.is_element()
            && child.tag_name().namespace() == Some(SVG_NS)
            && !matches!(child.tag_name().name(), "title" | "desc" | "metadata")
        {
            return Err(unsupported(format!(
                "<{}> inside <text>",
                child.tag_name().name()
            )));
        }
    }
    let preserve = text
        .ancestors()
        .find_map(|n| n.attribute((XML_NS, "space")))
        == Some("preserve");
    let mut chars: Vec<char> = Vec::with_capacity(raw.len());
    for c in raw.chars() {
        let c = if matches!(c, '\r' | '\n' | '\t') {
            ' '
        } else {
            c
        };
        if !preserve && c == ' ' && chars.last() == Some(&' ') {
            continue;
        }
        chars.push(c);
    }
    if !preserve {
        if chars.last() == Some(&' ') {
            chars.pop();
        }
        if chars.first() == Some(&' ') {
            chars.remove(0);
        }
    }
    Ok(chars)
}

/// Refuses what a path cannot draw as the text was drawn.
fn check_text(text: Node<'_, '_>) -> Result<(), PngError> {
    for name in ["dx", "dy", "rotate", "textLength"] {
        if text.attribute(name).is_some() {
            return Err(unsupported(format!("{name} on <text>")));
        }
    }
    for name in ["filter", "mask", "clip-path"] {
        if own(text, name).is_some_and(|v| v != "none") {
            return Err(unsupported(format!("{name} on <text>")));
        }
    }
    if let Some(mode) = inherited(text, "writing-mode")
        .filter(|m| matches!(*m, "tb" | "tb-rl" | "vertical-rl" | "vertical-lr"))
    {
        return Err(unsupported(format!("writing-mode {mode:?}")));
    }
    for name in ["letter-spacing", "word-spacing"] {
        if let Some(v) = inherited(text, name).filter(|&v| v != "normal")
            && length(v).is_none_or(|(n, _)| n != 0.0)
        {
            return Err(unsupported(format!("{name} {v:?}")));
        }
    }
    if inherited(text, "font-variant") == Some("small-caps") {
        return Err(unsupported("small capitals"));
    }
    let decorated = text.ancestors().filter(Node::is_element).any(|n| {
        own(n, "text-decoration").is_some_and(|v| {
            v.split_ascii_whitespace()
                .any(|d| matches!(d, "underline" | "overline" | "line-through"))
        })
    });
    if decorated {
        return Err(unsupported("text-decoration"));
    }
    for name in ["fill", "stroke"] {
        if inherited(text, name).is_some_and(|v| v.contains("url(")) {
            return Err(unsupported(format!("a gradient or pattern as {name}")));
        }
    }
    Ok(())
}

/// The byte range of `text`'s start tag without its closing `>` or `/>`.
fn start_tag(svg: &str, text: Node<'_, '_>) -> Option<Range<usize>> {
    let range = text.range();
    let whole = svg.get(range.clone())?;
    let end = match text.first_child() {
        Some(child) => child.range().start,
        None if whole.ends_with("/>") => range.end,
        None => range.start + whole.rfind("</")?,
    };
    let tag = svg.get(range.start..end)?;
    let tag = tag.strip_suffix("/>").or_else(|| tag.strip_suffix('>'))?;
    Some(range.start..range.start + tag.len())
}

/// Writes the `<path>` standing for `text`.
fn write_text(svg: &str, text: Node<'_, '_>, out: &mut String) -> Result<(), PngError> {
    let chars = characters(text)?;
    let first = first_font(text);
    let glyphs = choose_glyphs(&chars, first)?;
    check_text(text)?;
    let size = font_size(text)?;
    let (x, y) = (position(text, "x", size)?, position(text, "y", size)?);
    let dominant = inherited(text, "dominant-baseline").unwrap_or("auto");
    // `alignment-baseline` is not inherited, but resvg takes it from the parent too.
    let alignment = own(text, "alignment-baseline")
        .or_else(|| {
            text.parent_element()
                .and_then(|p| own(p, "alignment-baseline"))
        })
        .filter(|&a| a != "inherit")
        .unwrap_or("auto");
    let baseline = if matches!(alignment, "auto" | "baseline") {
        dominant
    } else {
        alignment
    };
    let font = &FONTS[first];
    let shift = baseline_shift(font, size, baseline)
        .ok_or_else(|| unsupported(format!("baseline {baseline:?}")))?;
    let anchor = match inherited(text, "text-anchor").unwrap_or("start") {
        "start" => 0.0,
        "middle" => 0.5,
        "end" => 1.0,
        other => return Err(unsupported(format!("text-anchor {other:?}"))),
    };
    let crisp = inherited(text, "text-rendering") == Some("optimizeSpeed");
    let markers = text.ancestors().filter(Node::is_element).any(|n| {
        ["marker", "marker-start", "marker-mid", "marker-end"]
            .iter()
            .any(|m| own(n, m).is_some())
    });

    // The tag: `<path` (with the text's prefix, if any) and the text's other attributes.
    let tag = start_tag(svg, text).ok_or_else(|| unsupported("a <text> made by an entity"))?;
    let source = svg.get(tag.clone()).unwrap_or_default();
    let name_end = source
        .find(|c: char| c.is_ascii_whitespace())
        .unwrap_or(source.len());
    let prefix = source
        .get(1..name_end)
        .and_then(|name| name.strip_suffix("text"))
        .unwrap_or_default();
    out.push('<');
    out.push_str(prefix);
    out.push_str("path");
    let mut copied = tag.start + name_end;
    let mut style = None;
    for attribute in text.attributes() {
        let drop = attribute.namespace().is_none()
            && (DROPPED.contains(&attribute.name())
                || attribute.name() == "style"
                    && OVERRIDDEN
                        .iter()
                        .any(|&p| own_declares(attribute.value(), p)));
        if drop {
            let r = attribute.range();
            out.push_str(svg.get(copied..r.start).unwrap_or_default());
            copied = r.end;
            if attribute.name() == "style" {
                style = Some(attribute.value());
            }
        }
    }
    out.push_str(svg.get(copied..tag.end).unwrap_or_default());
    if let Some(style) = style {
        out.push_str(" style=\"");
        let kept = style
            .split(';')
            .filter(|d| !OVERRIDDEN.iter().any(|&p| own_declares(d, p)))
            .collect::<Vec<_>>()
            .join(";");
        escape(&kept, out);
        out.push('"');
    }
    out.push_str(" fill-rule=\"nonzero\" shape-rendering=\"");
    out.push_str(if crisp {
        "crispEdges"
    } else {
        "geometricPrecision"
    });
    out.push('"');
    if markers {
        out.push_str(" marker-start=\"none\" marker-mid=\"none\" marker-end=\"none\"");
    }
    out.push_str(" d=\"");
    if size > 0.0 {
        let width: f32 = glyphs
            .iter()
            .map(|(f, g)| f32::from(g.advance) * (size / f32::from(f.units_per_em)))
            .sum();
        let mut pen = -width * anchor;
        for (f, g) in glyphs {
            let scale = size / f32::from(f.units_per_em);
            write_outline(g.path, (x + pen, y + shift), scale, out);
            pen += f32::from(g.advance) * scale;
        }
    }
    out.push_str("\"/>");
    Ok(())
}

/// True if the CSS declarations `style` declare `property`.
fn own_declares(style: &str, property: &str) -> bool {
    style
        .split(';')
        .filter_map(|d| d.split_once(':'))
        .any(|(k, _)| k.trim() == property)
}

/// `value` escaped for an attribute in double quotes.
fn escape(value: &str, out: &mut String) {
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
}

/// Writes the outline `path` (font units, y up) with its origin at `origin` (user units, y
/// down), `scale` user units per font unit. The outlines are generated: commands `MLQCZ`,
/// numbers with an optional sign and fraction; nothing else occurs in them.
fn write_outline(path: &str, origin: (f32, f32), scale: f32, out: &mut String) {
    let mut number: Option<(f32, bool, f32)> = None; // (value, negative, fraction step)
    let mut x: Option<f32> = None;
    let mut flush = |number: &mut Option<(f32, bool, f32)>, out: &mut String| {
        if let Some((v, negative, _)) = number.take() {
            let v = if negative { -v } else { v };
            match x.take() {
                None => x = Some(origin.0 + scale * v),
                Some(px) => {
                    let py = origin.1 - scale * v;
                    if !out.ends_with(|c: char| c.is_ascii_alphabetic()) {
                        out.push(' ');
                    }
                    write_number(px, out);
                    out.push(' ');
                    write_number(py, out);
                }
            }
        }
    };
    for c in path.chars() {
        match c {
            '0'..='9' => {
                let d = f32::from(c as u8 - b'0');
                let (v, _, step) = number.get_or_insert((0.0, false, 0.0));
                if *step > 0.0 {
                    *v += d * *step;
                    *step /= 10.0;
                } else {
                    *v = *v * 10.0 + d;
                }
            }
            '.' => number.get_or_insert((0.0, false, 0.0)).2 = 0.1,
            '-' => {
                flush(&mut number, out);
                number = Some((0.0, true, 0.0));
            }
            c if c.is_ascii_alphabetic() => {
                flush(&mut number, out);
                out.push(c);
            }
            _ => flush(&mut number, out),
        }
    }
    flush(&mut number, out);
}

/// A coordinate to a thousandth of a unit, as short as it goes.
fn write_number(v: f32, out: &mut String) {
    let rounded = (f64::from(v) * 1000.0).round() / 1000.0;
    let _ = write!(out, "{rounded}");
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn svg(body: &str) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"60\">{body}</svg>"
        )
    }

    fn outlined(svg: &str) -> Result<String, PngError> {
        let doc = super::super::parse_xml(svg)?;
        Ok(outline_text(svg, &doc)?.unwrap_or_else(|| svg.to_string()))
    }

    /// The `d` of the first path of an outlined SVG.
    fn path_data(svg: &str) -> String {
        let out = outlined(svg).unwrap();
        let doc = roxmltree::Document::parse(&out).unwrap();
        let path = doc.descendants().find(|n| n.has_tag_name("path")).unwrap();
        path.attribute("d").unwrap().to_string()
    }

    /// The first point of a path's data.
    fn first_point(d: &str) -> (f32, f32) {
        let mut numbers = d[1..].split(|c: char| c == ' ' || c.is_ascii_alphabetic());
        let x = numbers.next().unwrap().parse().unwrap();
        let y = numbers.next().unwrap().parse().unwrap();
        (x, y)
    }

    #[test]
    fn each_text_becomes_a_path_and_the_rest_stays_byte_for_byte() {
        let before = "<!-- a comment --><rect  width='10' height=\"10\"/>";
        let between = "<g class=\"x\" >\n</g>";
        let input = svg(&format!(
            "{before}<text id=\"one\" x=\"10\" y=\"20\" class=\"c\" fill=\"#123\" opacity=\"0.5\">a</text>{between}<text/>"
        ));
        let out = outlined(&input).unwrap();
        let first = out.find("<path").unwrap();
        let first_end = first + out[first..].find("/>").unwrap() + 2;
        let second = out.rfind("<path").unwrap();
        let second_end = second + out[second..].find("/>").unwrap() + 2;
        let head = &input[..input.find("<text").unwrap()];
        assert_eq!(&out[..first], head);
        assert!(out[first_end..second].starts_with(between));
        assert_eq!(&out[second_end..], "</svg>");
        let path = &out[first..first_end];
        for kept in [
            "id=\"one\"",
            "class=\"c\"",
            "fill=\"#123\"",
            "opacity=\"0.5\"",
            "fill-rule=\"nonzero\"",
        ] {
            assert!(path.contains(kept), "{kept} in {path}");
        }
        assert!(
            !path.contains("x=\"10\"") && !path.contains(" y="),
            "{path}"
        );
        // The empty text draws nothing.
        assert!(out[second..second_end].contains("d=\"\""));
        // No text, no copy.
        let plain = svg("<rect width=\"5\" height=\"5\"/>");
        let doc = super::super::parse_xml(&plain).unwrap();
        assert_eq!(outline_text(&plain, &doc).unwrap(), None);
    }

    #[test]
    fn glyphs_are_placed_by_anchor_size_and_baseline() {
        // `H` of Noto Sans starts at its left side bearing; at 10 units per em of font size
        // 10 (scale 1/100) the outline's first point is that point, y flipped.
        let latin = &FONTS[DEFAULT_FONT];
        let h = latin.glyph('H').unwrap();
        let (px, py) = first_point(&h.path.replace(['M'], " "));
        let at = |body: &str| first_point(&path_data(&svg(body)));
        let start = at("<text x=\"10\" y=\"50\" font-size=\"100\">H</text>");
        assert!(
            (start.0 - (10.0 + px / 10.0)).abs() < 0.01
                && (start.1 - (50.0 - py / 10.0)).abs() < 0.01,
            "{start:?}"
        );
        let width = f32::from(h.advance) / 10.0;
        let middle =
            at("<text x=\"10\" y=\"50\" font-size=\"100\" text-anchor=\"middle\">H</text>");
        assert!(
            (middle.0 - (start.0 - width / 2.0)).abs() < 0.01,
            "{middle:?}"
        );
        let end =
            at("<g text-anchor=\"end\"><text x=\"10\" y=\"50\" font-size=\"100\">H</text></g>");
        assert!((end.0 - (start.0 - width)).abs() < 0.01, "{end:?}");
        // Central: half way between the font's ascent and descent, resolved from ancestors.
        let central = at(
            "<g dominant-baseline=\"central\" font-size=\"50\"><text x=\"10\" y=\"50\" style=\"font-size:100px\">H</text></g>",
        );
        let shift = f32::from(latin.ascent + latin.descent) / 2.0 / 10.0;
        assert!((central.1 - (start.1 + shift)).abs() < 0.01, "{central:?}");
        // Font sizes relative to the parent's.
        let em = at("<g font-size=\"50\"><text x=\"10\" y=\"50\" font-size=\"2em\">H</text></g>");
        let percent =
            at("<g font-size=\"50\"><text x=\"10\" y=\"50\" font-size=\"200%\">H</text></g>");
        assert_eq!(em, start);
        assert_eq!(percent, start);
        // Characters follow each other by their advances; white space is collapsed.
        let two = path_data(&svg(
            "<text x=\"10\" y=\"50\" font-size=\"100\">\n  H  H </text>",
        ));
        let second = first_point(&two[two.rfind('M').unwrap()..]);
        assert!(
            (second.0
                - start.0
                - 2.0 * width
                - f32::from(latin.glyph(' ').unwrap().advance) / 10.0
                + width)
                .abs()
                < 0.01
        );
    }

    #[test]
    fn the_first_font_comes_from_the_family_list_and_each_character_from_a_font_having_it() {
        let cjk = FONTS
            .iter()
            .position(|f| f.families.contains(&"Noto Serif CJK SC"))
            .unwrap();
        let chess = FONTS
            .iter()
            .position(|f| f.families.contains(&"Noto Sans Symbols2"))
            .unwrap();
        let families = |list: &str| {
            let input = svg(&format!("<g font-family=\"{list}\"><text>a</text></g>"));
            let doc = roxmltree::Document::parse(&input).unwrap();
            first_font(doc.descendants().find(|n| n.has_tag_name("text")).unwrap())
        };
        assert_eq!(
            families("'DejaVu Sans','Noto Sans Symbols2',sans-serif"),
            chess
        );
        assert_eq!(families("Noto  Serif CJK SC, serif"), cjk);
        assert_eq!(families("monospace, 'Noto Serif CJK SC'"), cjk);
        assert_eq!(
            families("'WenQuanYi Zen Hei',serif,'Noto Serif CJK SC'"),
            DEFAULT_FONT
        );
        assert_eq!(families(""), DEFAULT_FONT);
        // 帥 and ♔ are found in the fonts that have them; a space in the CJK text comes from
        // Noto Sans.
        let glyphs = choose_glyphs(&['帥', ' ', '♔', 'a'], cjk).unwrap();
        let fonts: Vec<usize> = glyphs
            .iter()
            .map(|(f, _)| FONTS.iter().position(|g| std::ptr::eq(*f, g)).unwrap())
            .collect();
        assert_eq!(fonts, [cjk, DEFAULT_FONT, chess, DEFAULT_FONT]);
        assert_eq!(
            choose_glyphs(&['a', '犬'], DEFAULT_FONT).unwrap_err(),
            PngError::MissingGlyph('犬')
        );
    }

    #[test]
    fn what_plain_text_cannot_mean_is_refused() {
        let refused = [
            "<text>a<tspan>b</tspan></text>",
            "<text><textPath href=\"#p\">a</textPath></text>",
            "<text><a href=\"#\">a</a></text>",
            "<text dx=\"3\">a</text>",
            "<text rotate=\"30\">a</text>",
            "<text x=\"1 2 3\">abc</text>",
            "<text x=\"50%\">a</text>",
            "<text textLength=\"40\">a</text>",
            "<g letter-spacing=\"2\"><text>a</text></g>",
            "<text style=\"word-spacing: 1em\">a b</text>",
            "<g writing-mode=\"tb\"><text>a</text></g>",
            "<g text-decoration=\"underline\"><text>a</text></g>",
            "<text font-variant=\"small-caps\">a</text>",
            "<text fill=\"url(#g)\">a</text>",
            "<text filter=\"url(#f)\">a</text>",
            "<text text-anchor=\"left\">a</text>",
            "<text dominant-baseline=\"top\">a</text>",
            "<text font-size=\"big\">a</text>",
            "<style>text { fill: red }</style><text>a</text>",
            "<defs><g id=\"t\"><text>a</text></g></defs><use href=\"#t\"/>",
        ];
        for body in refused {
            let result = png_of(&svg(body));
            assert!(
                matches!(result, Err(PngError::UnsupportedText(_))),
                "{body}: {result:?}"
            );
        }
        // A text an entity declared has no place of its own in the source.
        let entity = "<?xml version=\"1.0\"?><!DOCTYPE svg [<!ENTITY t \"<text>a</text>\">]>\
            <!-- <text>a</text> -->\
            <svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\">&t;</svg>";
        assert_eq!(
            png_of(entity),
            Err(unsupported("a <text> made by an entity"))
        );
        // What changes nothing is accepted.
        for body in [
            "<text letter-spacing=\"0\" word-spacing=\"normal\" writing-mode=\"lr\">a<title>t</title><!-- c --></text>",
            "<text xml:space=\"preserve\"> a  b </text>",
            "<text style=\"fill:#f00;fill-rule:evenodd\" fill-rule=\"evenodd\">a</text>",
            "<g marker-end=\"url(#m)\"><text>a</text></g><use href=\"#nothing\"/>",
            "<text x=\"1em\" y=\"12pt\" font-size=\"large\" text-rendering=\"optimizeSpeed\">a</text>",
        ] {
            assert!(png_of(&svg(body)).is_ok(), "{body}");
        }
    }

    fn png_of(svg: &str) -> Result<Vec<u8>, PngError> {
        super::super::png_of_svg(svg, 1.0)
    }

    #[test]
    fn the_path_overrides_what_text_ignores() {
        let out = outlined(&svg(
            "<g marker-end=\"url(#m)\"><text style=\"fill:#f00; fill-rule:evenodd\" text-rendering=\"optimizeSpeed\">a</text></g>",
        ))
        .unwrap();
        let doc = roxmltree::Document::parse(&out).unwrap();
        let path = doc.descendants().find(|n| n.has_tag_name("path")).unwrap();
        assert_eq!(path.attribute("style"), Some("fill:#f00"));
        assert_eq!(path.attribute("fill-rule"), Some("nonzero"));
        assert_eq!(path.attribute("shape-rendering"), Some("crispEdges"));
        assert_eq!(path.attribute("marker-end"), Some("none"));
        // A prefixed text stays in its namespace.
        let prefixed = "<s:svg xmlns:s=\"http://www.w3.org/2000/svg\" width=\"9\" height=\"9\"><s:text>a</s:text></s:svg>";
        let out = outlined(prefixed).unwrap();
        assert!(out.contains("<s:path") && !out.contains("s:text"), "{out}");
        assert!(png_of(prefixed).is_ok());
    }

    #[test]
    fn outlines_are_copied_exactly() {
        let mut out = String::new();
        write_outline(
            "M1 -2.5L30 4Q5 6 -7 8C1 2 3 4 5 6Z",
            (10.0, 20.0),
            2.0,
            &mut out,
        );
        assert_eq!(out, "M12 25L70 12Q20 8 -4 4C12 16 16 12 20 8Z");
    }
}
