//! Files that never end up half-written and never load unbounded: [`write_atomic`] writes a
//! temporary file created exclusively beside the target, syncs it, renames it over the
//! target and syncs the directory; [`read_limited`] refuses a file larger than a limit
//! before reading it.
//!
//! ```
//! use banco_app::files::{read_limited, write_atomic};
//! let dir = std::env::temp_dir().join(format!("banco-doc-files-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let path = dir.join("game.banco");
//! write_atomic(&path, b"hello")?;
//! assert_eq!(read_limited(&path, 1024)?, b"hello");
//! assert!(read_limited(&path, 3).is_err());
//! std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), std::io::Error>(())
//! ```

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::Path;

/// Writes `bytes` to `path` atomically: a new temporary file beside it (created
/// exclusively, so two writers never share one), flushed to disk, renamed over the target,
/// and the directory flushed so the rename survives a power cut.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map_or_else(|| "save".into(), |n| n.to_string_lossy());
    let mut attempt = 0u32;
    let (tmp, mut file) = loop {
        let tmp = dir.join(format!(".{name}.{}.{attempt}.tmp", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => break (tmp, f),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 100 => attempt += 1,
            Err(e) => return Err(e),
        }
    };
    let result = (|| {
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, path)?;
        sync_dir(dir)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(unix)]
fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> io::Result<()> {
    Ok(())
}

/// Reads a whole file of at most `limit` bytes; a larger file is refused before any of it
/// is read (and a file that grows while being read is cut off at the limit and refused).
pub fn read_limited(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = File::open(path)?;
    let len = file.metadata()?.len();
    if len > limit {
        return Err(too_big(len, limit));
    }
    let mut out = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.take(limit + 1).read_to_end(&mut out)?;
    if out.len() as u64 > limit {
        return Err(too_big(out.len() as u64, limit));
    }
    Ok(out)
}

fn too_big(len: u64, limit: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("the file has {len} bytes, more than the {limit} a saved game may have"),
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn replaces_and_leaves_nothing_behind() {
        let dir = std::env::temp_dir().join(format!("banco-app-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("game.banco");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(read_limited(&path, 10).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        assert!(write_atomic(&dir.join("missing/x"), b"z").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
