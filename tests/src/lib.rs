//! # banco-tests — cross-crate and data-driven tests
//!
//! The test files live in `tests/tests/`; the reference data they read lives in
//! `tests/data/` (copied from the shared reference data, never edited). This library holds
//! the helpers they share: locating and reading the TSV tables.
//!
//! ```
//! let rows = banco_tests::read_tsv("perft/xiangqi.tsv").unwrap();
//! assert!(rows.len() > 10);
//! assert_eq!(rows[0]["label"], "cpw1_startpos");
//! ```

use std::collections::HashMap;
use std::path::PathBuf;

/// The `tests/data` directory.
#[must_use]
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data")
}

/// Reads a tab-separated table under `tests/data` into rows keyed by the header's names.
pub fn read_tsv(relative: &str) -> std::io::Result<Vec<HashMap<String, String>>> {
    let text = std::fs::read_to_string(data_dir().join(relative))?;
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<String> = lines
        .next()
        .unwrap_or_default()
        .split('\t')
        .map(str::to_owned)
        .collect();
    Ok(lines
        .map(|l| {
            header
                .iter()
                .cloned()
                .zip(l.split('\t').map(str::to_owned))
                .collect()
        })
        .collect())
}
