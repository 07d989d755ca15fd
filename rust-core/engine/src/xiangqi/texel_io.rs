//! The files of the [Texel tuner](super::texel): labelled positions read from `FEN;result`
//! lines ([`parse_samples`]) and the weights written back as the Rust source of
//! [`weights`](super::weights) ([`rust_source`], [`const_source`]).
//!
//! ```
//! use banco_engine::xiangqi::texel_io::{const_source, parse_samples};
//! use banco_engine::XiangqiParams;
//! let samples = parse_samples("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1;1-0\n").unwrap();
//! assert_eq!(samples[0].1, 1.0);
//! assert!(const_source(&XiangqiParams::default()).contains("pub const TUNED"));
//! ```

use super::eval::XiangqiParams;
use banco_xiangqi::Position;
use core::fmt::Write as _;

/// A line of a samples file that cannot be read ([`parse_samples`]), with its number
/// (from 1).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SamplesError {
    /// No `;` between the position and the result.
    #[error("line {0}: expected `FEN;result`")]
    NoResult(usize),
    /// The result is not one of the forms read.
    #[error("line {line}: result `{result}` is not 1, 0.5 or 0 (or 1-0, 1/2-1/2, 0-1)")]
    BadResult {
        /// The line.
        line: usize,
        /// The result as written.
        result: String,
    },
    /// The position cannot be read.
    #[error("line {line}: {reason}")]
    BadFen {
        /// The line.
        line: usize,
        /// Why, as the FEN reader says.
        reason: String,
    },
}

/// Reads `FEN;result` lines (result from Red's side: `1`, `0.5`, `0`, or `1-0`,
/// `1/2-1/2`, `0-1`) into samples; blank lines and lines starting with `#` are skipped.
///
/// # Errors
/// The first line that does not parse ([`SamplesError`]).
pub fn parse_samples(text: &str) -> Result<Vec<(Position, f32)>, SamplesError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (fen, result) = line.rsplit_once(';').ok_or(SamplesError::NoResult(n + 1))?;
        let result = match result.trim() {
            "1" | "1.0" | "1-0" => 1.0,
            "0.5" | "1/2-1/2" => 0.5,
            "0" | "0.0" | "0-1" => 0.0,
            other => {
                return Err(SamplesError::BadResult {
                    line: n + 1,
                    result: other.to_owned(),
                });
            }
        };
        let pos = fen
            .trim()
            .parse::<Position>()
            .map_err(|e| SamplesError::BadFen {
                line: n + 1,
                reason: e.to_string(),
            })?;
        out.push((pos, result));
    }
    Ok(out)
}

/// The `TUNED` constant of `weights.rs` for `p` (the part of the file below its header),
/// one table row per line.
#[must_use]
pub fn const_source(p: &XiangqiParams) -> String {
    let list = |v: &[i32]| v.iter().map(i32::to_string).collect::<Vec<_>>().join(", ");
    let mut s = String::new();
    s.push_str("/// The tuned weights: the engine's default evaluation.\n");
    s.push_str("#[rustfmt::skip]\n");
    s.push_str("pub const TUNED: XiangqiParams = XiangqiParams {\n");
    let _ = writeln!(s, "    material_mg: [{}],", list(&p.material_mg));
    let _ = writeln!(s, "    material_eg: [{}],", list(&p.material_eg));
    let _ = writeln!(s, "    pst_scale: {},", p.pst_scale);
    let _ = writeln!(
        s,
        "    rook_mobility: ({}, {}),",
        p.rook_mobility.0, p.rook_mobility.1
    );
    let _ = writeln!(s, "    horse_mobility: [{}],", list(&p.horse_mobility));
    let _ = writeln!(
        s,
        "    missing_advisor: ({}, {}),",
        p.missing_advisor.0, p.missing_advisor.1
    );
    let _ = writeln!(
        s,
        "    missing_elephant: ({}, {}),",
        p.missing_elephant.0, p.missing_elephant.1
    );
    let _ = writeln!(s, "    cannon_file: [{}],", list(&p.cannon_file));
    let _ = writeln!(s, "    cannon_file_eg: [{}],", list(&p.cannon_file_eg));
    let _ = writeln!(s, "    connected_pawns: {},", p.connected_pawns);
    let _ = writeln!(s, "    attack: {},", p.attack);
    let _ = writeln!(s, "    tempo: {},", p.tempo);
    for (name, (m, e)) in [
        ("rook_open_file", p.rook_open_file),
        ("rook_half_open_file", p.rook_half_open_file),
        ("rook_pin", p.rook_pin),
    ] {
        let _ = writeln!(s, "    {name}: ({m}, {e}),");
    }
    let _ = writeln!(s, "    open_king_file: {},", p.open_king_file);
    let _ = writeln!(s, "    attack_guards: {},", p.attack_guards);
    let pairs = p
        .pairs
        .iter()
        .map(|(m, e)| format!("({m}, {e})"))
        .collect::<Vec<_>>()
        .join(", ");
    let _ = writeln!(s, "    pairs: [{pairs}],");
    let pair_list = |v: &[(i32, i32)]| {
        v.iter()
            .map(|(m, e)| format!("({m}, {e})"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(s, "    threat_lower: [{}],", pair_list(&p.threat_lower));
    let _ = writeln!(s, "    threat_hanging: [{}],", pair_list(&p.threat_hanging));
    let _ = writeln!(
        s,
        "    threat_multiple: ({}, {}),",
        p.threat_multiple.0, p.threat_multiple.1
    );
    let _ = writeln!(s, "    material_only: {},", p.material_only);
    s.push_str("    pst: [\n");
    const KINDS: [&str; 7] = [
        "king", "advisor", "elephant", "horse", "rook", "cannon", "pawn",
    ];
    for (k, table) in p.pst.iter().enumerate() {
        let _ = writeln!(
            s,
            "        // {} (mg, eg), rank 0 (own back rank) first",
            KINDS[k]
        );
        s.push_str("        [\n");
        for rank in table.chunks(9) {
            let row = rank
                .iter()
                .map(|(m, e)| format!("({m}, {e})"))
                .collect::<Vec<_>>()
                .join(", ");
            let _ = writeln!(s, "            {row},");
        }
        s.push_str("        ],\n");
    }
    s.push_str("    ],\n};\n");
    s
}

/// The whole `weights.rs` for `p`: a header (module docs, the `header` lines describing
/// the data and the fit) and [`const_source`].
#[must_use]
pub fn rust_source(p: &XiangqiParams, header: &[String]) -> String {
    let mut s = String::new();
    s.push_str("//! The xiangqi evaluation weights, written by the Texel tuner ([`texel`](super::texel),\n");
    s.push_str(
        "//! `tests/tune/texel.sh`): regenerate this file with the tool instead of editing it.\n",
    );
    s.push_str("//!\n");
    for line in header {
        let _ = writeln!(s, "//! {line}");
    }
    s.push_str("//!\n");
    s.push_str("//! ```\n");
    s.push_str("//! use banco_engine::xiangqi::{eval::XiangqiParams, weights::TUNED};\n");
    s.push_str("//! assert_eq!(XiangqiParams::default(), TUNED);\n");
    s.push_str("//! ```\n\n");
    s.push_str("use super::eval::XiangqiParams;\n\n");
    s.push_str(&const_source(p));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_file_is_what_the_writer_writes() {
        let file = include_str!("weights.rs");
        let at = file.find("/// The tuned weights").unwrap();
        assert_eq!(&file[at..], const_source(&XiangqiParams::default()));
    }

    #[test]
    fn samples_parse_and_bad_lines_are_named() {
        let text = "# comment\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1;1/2-1/2\n\n4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1;1\n";
        let s = parse_samples(text).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].1, s[1].1), (0.5, 1.0));
        let err = parse_samples("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1;2").unwrap_err();
        assert_eq!(
            err,
            SamplesError::BadResult {
                line: 1,
                result: "2".into()
            }
        );
        assert!(err.to_string().starts_with("line 1: "), "{err}");
        assert!(matches!(
            parse_samples("# c\nnonsense;1"),
            Err(SamplesError::BadFen { line: 2, .. })
        ));
        assert_eq!(parse_samples("\nno result"), Err(SamplesError::NoResult(2)));
    }
}
