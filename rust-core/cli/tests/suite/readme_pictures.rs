//! The README's pictures (`rust-core/cli/doc/pictures/`) are what `banco render` makes of the
//! rows of `pictures.tsv` now: each row is rendered again and compared byte for byte with the
//! committed SVG, and the README shows every one of them. When the renderer changes on
//! purpose, `tests/docs/render-readme.sh` regenerates them.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// One row of `pictures.tsv`: the picture's name and the `banco render` arguments it takes.
struct Row {
    name: String,
    args: Vec<String>,
}

fn pictures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("doc/pictures")
}

/// The rows of the manifest, the way tests/docs/render-readme.sh reads them.
fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(pictures_dir().join("pictures.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("name\t"))
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            assert_eq!(cols.len(), 4, "name, game, position, last: {line:?}");
            let mut args = vec!["render".to_owned(), "--game".to_owned(), cols[1].to_owned()];
            let is_pgn = Path::new(cols[2])
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
            let source = if is_pgn { "--load" } else { "--fen" };
            args.extend([source.to_owned(), cols[2].to_owned()]);
            if cols[3] != "-" {
                args.extend(["--last".to_owned(), cols[3].to_owned()]);
            }
            Row {
                name: cols[0].to_owned(),
                args,
            }
        })
        .collect()
}

#[test]
fn the_committed_pictures_are_what_banco_render_makes_now() {
    let out_dir = crate::common::fresh_dir("readme");
    let rows = rows();
    assert!(rows.len() >= 4, "the README shows several games");
    for row in &rows {
        let out = out_dir.join(format!("{}.svg", row.name));
        let status = Command::new(env!("CARGO_BIN_EXE_banco"))
            .args(&row.args)
            .arg("-o")
            .arg(&out)
            .current_dir(pictures_dir())
            .output()
            .unwrap();
        assert!(
            status.status.success(),
            "banco {:?}: {}",
            row.args,
            String::from_utf8_lossy(&status.stderr)
        );
        let fresh = std::fs::read_to_string(&out).unwrap();
        let committed = pictures_dir().join(format!("{}.svg", row.name));
        let committed = std::fs::read_to_string(&committed).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; run tests/docs/render-readme.sh",
                committed.display()
            )
        });
        assert!(
            fresh == committed,
            "{}.svg is not what `banco {}` makes now: run tests/docs/render-readme.sh and commit",
            row.name,
            row.args.join(" ")
        );
        assert!(fresh.contains("class=\"piece ") || fresh.contains("class=\"ball "));
    }
    std::fs::remove_dir_all(&out_dir).unwrap();
}

#[test]
fn the_readme_shows_every_picture() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .unwrap();
    for row in rows() {
        let path = format!("rust-core/cli/doc/pictures/{}.svg", row.name);
        assert!(readme.contains(&path), "README.md does not show {path}");
    }
}
