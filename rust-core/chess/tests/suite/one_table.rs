//! cozy-chess's sliding-move table (704 KB) is a `const` read by inline functions: every
//! crate that calls them, or instantiates cozy-chess's generic move generator, compiles a
//! copy of it into the binary (the FFI library carried five, 2.3 MB of its 11.4). Every
//! Banco crate but this one goes through `banco_chess::attacks`; this test reads their
//! sources and names any call that would bring a copy back.

use std::path::{Path, PathBuf};

const FORBIDDEN: [&str; 4] = [
    "get_rook_moves(",
    "get_bishop_moves(",
    ".generate_moves(",
    ".generate_moves_for(",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_other_crate_compiles_its_own_copy_of_the_sliding_move_table() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for group in ["rust-core", "bindings"] {
        let Ok(crates) = std::fs::read_dir(root.join(group)) else {
            continue;
        };
        for krate in crates.flatten() {
            if krate.file_name() == "chess" && group == "rust-core" {
                continue;
            }
            rust_files(&krate.path().join("src"), &mut files);
        }
    }
    assert!(
        files.len() > 50,
        "the workspace's sources were not found from {}",
        root.display()
    );
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if FORBIDDEN.iter().any(|f| code.contains(f)) {
                found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "call banco_chess::attacks instead:\n{}",
        found.join("\n")
    );
}
