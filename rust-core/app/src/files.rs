//! Files that never end up half-written and never load unbounded: [`write_atomic`] writes a
//! temporary file created exclusively beside the target, syncs it, renames it over the
//! target and syncs the directory; [`read_limited`] refuses a file larger than a limit
//! before reading it. Both first remove the temporary files that saves killed midway left
//! beside the file ([`remove_stale_temps`]). A path that is a symbolic link is written
//! through: the file it points to is replaced, beside itself, and the link stays (a file
//! kept in a synced folder and linked from the data directory goes on being updated).
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
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// A temporary file older than this is stale even if its writer's process number is in use
/// again (a save takes milliseconds).
pub const STALE_TEMP_AGE: Duration = Duration::from_secs(3600);

/// Writes `bytes` to `path` atomically: a new temporary file beside it (created
/// exclusively, so two writers never share one), flushed to disk, renamed over the target,
/// and the directory flushed so the rename survives a power cut. When `path` is a symbolic
/// link, the file it points to is written (beside it), and the link stays.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_as(path, bytes, false)
}

/// [`write_atomic`] for a file only its owner may read or write (on Unix, mode 0600 from
/// the moment it exists): a device's secret key.
///
/// # Errors
/// As [`write_atomic`].
pub fn write_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_as(path, bytes, true)
}

/// [`write_atomic`] for a file the player named (a saved game, an export): it replaces
/// only what may be replaced — no file yet, an empty file, a Banco saved game
/// ([`crate::save::is_save`]) or one game record in text (PGN or Banco's `.txt`: its first
/// line, after blank lines and PGN's `%` escape lines, is a tag pair `[Name "value"]`, and
/// it holds one game). Anything else — a PGN database of several games, Banco's other
/// files (the puzzle progress, the device's identity), a document that happens to have
/// that name (an INI file's `[core]`, a JSON array), a directory, a device — is refused
/// with [`io::ErrorKind::AlreadyExists`] and left untouched. A symbolic link is judged by
/// the file it points to, which is the one written.
///
/// ```
/// use banco_app::files::write_record;
/// let dir = std::env::temp_dir().join(format!("banco-doc-record-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let notes = dir.join("notes.txt");
/// std::fs::write(&notes, "my notes")?;
/// assert!(write_record(&notes, b"[Game \"xiangqi\"]").is_err());
/// assert_eq!(std::fs::read_to_string(&notes)?, "my notes");
/// let game = dir.join("game.pgn");
/// write_record(&game, b"[Event \"?\"]")?;
/// write_record(&game, b"[Event \"again\"]")?; // a record replaces a record
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
/// As [`write_atomic`], and `AlreadyExists` for a file that is not a record.
pub fn write_record(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let path = &resolve_link(path)?;
    check_replaceable(path)?;
    write_atomic(path, bytes)
}

/// Whether [`write_record`] may replace `path`: `Ok` for no file yet or a record, the
/// error `write_record` would give otherwise (`AlreadyExists` for a file that is not a
/// game record), so that a caller can tell the player before there is anything to write.
///
/// # Errors
/// As [`write_record`], without writing.
pub fn check_replaceable(path: &Path) -> io::Result<()> {
    let path = &resolve_link(path)?;
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
        Ok(meta) => {
            let refuse = |what: &str| {
                io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!(
                        "{} already exists and {what}: {REPLACE_ADVICE}",
                        path.display()
                    ),
                )
            };
            if !meta.is_file() {
                return Err(refuse("is not a regular file"));
            }
            let mut head = Vec::new();
            File::open(path)?.take(RECORD_HEAD).read_to_end(&mut head)?;
            if !is_record(&head) {
                return Err(refuse("is not a saved game"));
            }
            if !head.is_empty() && !crate::save::is_save(&head) {
                match text_games(path, meta.len())? {
                    Some(games) if games > 1 => {
                        return Err(refuse(&format!("holds {games} games")));
                    }
                    Some(_) => {}
                    None => return Err(refuse("is larger than any game record")),
                }
            }
        }
    }
    Ok(())
}

/// Whether [`write_record`] could write a record at `path` now: the file is absent or a
/// record it may replace ([`check_replaceable`]), and its folder exists — checked before a
/// match whose record is written only as it ends, so that a bad name is said while it can
/// still be changed.
///
/// ```
/// use banco_app::files::check_record_target;
/// let dir = std::env::temp_dir().join(format!("banco-doc-target-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// assert!(check_record_target(&dir.join("game.pgn")).is_ok());
/// let missing = check_record_target(&dir.join("no-such-folder/game.pgn")).unwrap_err();
/// assert!(missing.to_string().contains("does not exist"), "{missing}");
/// std::fs::write(dir.join("notes.txt"), "my notes")?;
/// assert!(check_record_target(&dir.join("notes.txt")).is_err());
/// assert!(check_record_target(&dir).is_err()); // a folder
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
/// As [`check_replaceable`], and `NotFound` for a folder that does not exist.
pub fn check_record_target(path: &Path) -> io::Result<()> {
    let path = resolve_link(path)?;
    check_replaceable(&path)?;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if folder.is_dir() {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!(
                "the folder {} does not exist: create it, or choose another place",
                folder.display()
            ),
        ))
    }
}

/// What the refusal of [`write_record`] (and [`check_replaceable`]) ends with: a caller
/// that gives its own advice drops it.
pub const REPLACE_ADVICE: &str = "choose another name, or move it away first";

/// Copies the damaged `file` (the puzzle progress, the command line's kept game) to a new
/// file beside it — `NAME.damaged` (`NAME` without its extension), else `NAME.2.damaged`,
/// `NAME.3.damaged`, … — never over an earlier copy, before anything replaces it; returns
/// the copy's name.
///
/// # Errors
/// The file cannot be read or the copy written (a read-only folder, a full disk), or 999
/// copies are already there.
pub fn set_aside(file: &Path) -> io::Result<PathBuf> {
    let mut from = File::open(file)?;
    for n in 1..1000 {
        let aside = if n == 1 {
            file.with_extension("damaged")
        } else {
            file.with_extension(format!("{n}.damaged"))
        };
        match OpenOptions::new().write(true).create_new(true).open(&aside) {
            Ok(mut to) => {
                let copied = io::copy(&mut from, &mut to).and_then(|_| to.sync_all());
                if let Err(e) = copied {
                    let _ = std::fs::remove_file(&aside);
                    return Err(e);
                }
                return Ok(aside);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "999 damaged copies are already there",
    ))
}

/// An advisory lock on a file that several sessions read, merge and write (Lines' best
/// scores, the trust store): held from the read to the write, so that no session writes
/// over what another wrote in between; released when dropped.
#[derive(Debug)]
pub struct FileLock {
    _file: File,
}

/// Takes the lock of `path` — on the file `NAME.lock` beside it (beside the file a
/// symbolic link points to), created if needed and left in place — waiting while another
/// session holds it. The lock is advisory: it keeps out only the sessions that take it.
///
/// ```
/// use banco_app::files::{lock_beside, write_atomic};
/// let dir = std::env::temp_dir().join(format!("banco-doc-lock-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let table = dir.join("lines-best");
/// {
///     let _lock = lock_beside(&table)?;
///     // read the table, merge, then write it
///     write_atomic(&table, b"merged")?;
/// }
/// assert!(dir.join("lines-best.lock").exists());
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
/// The lock file cannot be created or locked (a read-only folder).
pub fn lock_beside(path: &Path) -> io::Result<FileLock> {
    let file = lock_file(path)?;
    file.lock()?;
    Ok(FileLock { _file: file })
}

/// [`lock_beside`] without waiting: the lock of `path` if no other session holds it,
/// `None` if one does (a file one session keeps writing for as long as it runs: the
/// command line's kept game).
///
/// ```
/// use banco_app::files::try_lock_beside;
/// let dir = std::env::temp_dir().join(format!("banco-doc-try-lock-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let kept = dir.join("last-game");
/// let first = try_lock_beside(&kept)?;
/// assert!(first.is_some());
/// assert!(try_lock_beside(&kept)?.is_none()); // held by `first`
/// drop(first);
/// assert!(try_lock_beside(&kept)?.is_some());
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
/// As [`lock_beside`].
pub fn try_lock_beside(path: &Path) -> io::Result<Option<FileLock>> {
    let file = lock_file(path)?;
    match file.try_lock() {
        Ok(()) => Ok(Some(FileLock { _file: file })),
        Err(std::fs::TryLockError::WouldBlock) => Ok(None),
        Err(std::fs::TryLockError::Error(e)) => Err(e),
    }
}

/// The open lock file `NAME.lock` of `path` (see [`lock_beside`]), created if needed.
fn lock_file(path: &Path) -> io::Result<File> {
    let path = resolve_link(path)?;
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy());
    let lock = path.with_file_name(format!("{name}.lock"));
    OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(&lock)
}

/// How much of an existing file [`write_record`] reads to tell whether it is a record.
const RECORD_HEAD: u64 = 1024;

/// How many games the text record at `path` (of `len` bytes) holds, as PGN reading splits
/// them; `None` when it is larger than any PGN text Banco reads.
fn text_games(path: &Path, len: u64) -> io::Result<Option<usize>> {
    let limit = crate::pgn::MAX_BYTES as u64;
    if len > limit {
        return Ok(None);
    }
    let mut bytes = Vec::new();
    File::open(path)?.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Ok(None);
    }
    let text =
        crate::encoding::decode_text(&bytes).unwrap_or_else(|_| String::from_utf8_lossy(&bytes));
    Ok(Some(crate::pgn::count_games(&text)))
}

/// True when `head`, the start of a file, is that of a record [`write_record`] may
/// replace: nothing, a Banco saved game ([`crate::save::is_save`]: not Banco's other
/// binary files), or a game record in text — its first line that is not blank nor a PGN
/// escape (`%…`), after a byte-order mark, is a tag pair `[Name "value"]` (a line cut
/// short by the end of `head` is judged on what it shows).
fn is_record(head: &[u8]) -> bool {
    if head.is_empty() || crate::save::is_save(head) {
        return true;
    }
    let text = String::from_utf8_lossy(head);
    let text = text.trim_start_matches('\u{feff}');
    let complete = text.ends_with('\n') || (head.len() as u64) < RECORD_HEAD;
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('%') {
            continue;
        }
        let whole = complete || lines.peek().is_some();
        return is_tag_pair(line, whole);
    }
    false
}

/// True when `line` is a PGN tag pair (`[Event "x"]`, more on the line allowed); a line
/// that is not `whole` only has to begin as one (up to the value's opening quote).
fn is_tag_pair(line: &str, whole: bool) -> bool {
    let Some(rest) = line.strip_prefix('[') else {
        return false;
    };
    let rest = rest.trim_start();
    let name_len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || "_+#=:-".contains(c)))
        .unwrap_or(rest.len());
    let (name, value) = rest.split_at(name_len);
    let value = value.trim_start();
    let opens = name.starts_with(|c: char| c.is_ascii_alphanumeric()) && value.starts_with('"');
    // A whole line also closes the value and the tag.
    opens && (!whole || (value.len() >= 3 && value.trim_end().ends_with("\"]")))
}

/// The file a write to `path` replaces: `path` itself, or the file a symbolic link points
/// to (through a chain of links; a link to no file yet names the file to create).
fn resolve_link(path: &Path) -> io::Result<PathBuf> {
    let mut file = path.to_path_buf();
    // Linux's limit of links followed in one lookup.
    for _ in 0..40 {
        match std::fs::symlink_metadata(&file) {
            Ok(meta) if meta.file_type().is_symlink() => {
                // A relative target is relative to the link's folder; an absolute one
                // replaces it in `join`.
                let target = std::fs::read_link(&file)?;
                file = dir_of(&file).join(target);
            }
            _ => return Ok(file),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "{} is a chain of too many symbolic links (a loop?)",
            path.display()
        ),
    ))
}

/// The start of the names of `path`'s temporary files, `.NAME.`: the file's name cut to
/// [`TEMP_NAME_BYTES`] so that the temporary name (`.NAME.PID.ATTEMPT.tmp`) stays within
/// the 255 bytes a file name may have, however long the file's own name.
fn temp_prefix(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_string_lossy().into_owned();
    let mut end = name.len().min(TEMP_NAME_BYTES);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    Some(format!(".{}.", &name[..end]))
}

/// How much of a file's name its temporary files' names keep: 255 bytes less the dot, the
/// process number (up to 10 digits), the attempt (up to 3), three more dots and `tmp`.
const TEMP_NAME_BYTES: usize = 255 - 1 - 10 - 3 - 3 - 3;

fn write_atomic_as(path: &Path, bytes: &[u8], private: bool) -> io::Result<()> {
    let path = &resolve_link(path)?;
    let dir = dir_of(path);
    let prefix = temp_prefix(path).unwrap_or_else(|| ".save.".to_owned());
    remove_stale_temps(path);
    let mut attempt = 0u32;
    let (tmp, mut file) = loop {
        let tmp = dir.join(format!("{prefix}{}.{attempt}.tmp", std::process::id()));
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        if private {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        #[cfg(not(unix))]
        let _ = private;
        match options.open(&tmp) {
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

fn dir_of(path: &Path) -> &Path {
    path.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Removes the temporary files of [`write_atomic`] that an interrupted save of `path` left
/// beside it: those whose writing process is gone (where the system tells: Linux, Android)
/// or that are older than [`STALE_TEMP_AGE`]. A save running in another process keeps its
/// file. Returns how many were removed; errors (a read-only directory) only leave them.
/// For a symbolic link, the temporary files are those beside the file it points to.
pub fn remove_stale_temps(path: &Path) -> usize {
    let resolved = resolve_link(path);
    let path = resolved.as_deref().unwrap_or(path);
    let Some(prefix) = temp_prefix(path) else {
        return 0;
    };
    let Ok(entries) = std::fs::read_dir(dir_of(path)) else {
        return 0;
    };
    let now = SystemTime::now();
    let mut removed = 0;
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(pid) = file
            .to_str()
            .and_then(|f| f.strip_prefix(&prefix))
            .and_then(|rest| rest.strip_suffix(".tmp"))
            .and_then(temp_pid)
        else {
            continue;
        };
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| now.duration_since(t).ok())
            .is_some_and(|age| age > STALE_TEMP_AGE);
        if (old || writer_gone(pid)) && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// The process number in the `PID.ATTEMPT` part of a temporary file's name.
fn temp_pid(rest: &str) -> Option<u32> {
    let (pid, attempt) = rest.split_once('.')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(attempt) {
        return None;
    }
    digits(pid).then(|| pid.parse().ok()).flatten()
}

/// True when process `pid` is known to have ended (never this process).
fn writer_gone(pid: u32) -> bool {
    if pid == std::process::id() {
        // Our own writes are never in progress while we clean (one save at a time per
        // path is the callers' rule); a leftover of ours is from a failed rename.
        return true;
    }
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        let proc = Path::new("/proc");
        proc.is_dir() && !proc.join(pid.to_string()).exists()
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        false
    }
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
    remove_stale_temps(path);
    let file = File::open(path)?;
    let len = file.metadata()?.len();
    if len > limit {
        return Err(too_big(len, limit));
    }
    let mut out = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.take(limit + 1).read_to_end(&mut out)?;
    if out.len() as u64 > limit {
        // Read up to the cap (a device, a file still growing): its size is not known.
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "the file has more than the {} a saved game may have",
                bytes_text(limit)
            ),
        ));
    }
    Ok(out)
}

fn too_big(len: u64, limit: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "the file has {len} bytes, more than the {} a saved game may have",
            bytes_text(limit)
        ),
    )
}

/// `limit` bytes as a reader says them: `1 MiB`, `4 MiB` for whole mebibytes (the limits
/// Banco reads), else `N bytes`.
fn bytes_text(limit: u64) -> String {
    const MIB: u64 = 1 << 20;
    if limit >= MIB && limit.is_multiple_of(MIB) {
        format!("{} MiB", limit / MIB)
    } else {
        format!("{limit} bytes")
    }
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

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    /// Temporary files of saves killed midway are removed by the next save or load; a
    /// save running in a live process and other files are kept.
    #[test]
    fn stale_temporary_files_go_at_the_next_save_or_load() {
        let dir = std::env::temp_dir().join(format!("banco-app-stale-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("game.banco");
        let touch = |name: &str, age: Duration| {
            let f = File::create(dir.join(name)).unwrap();
            f.set_modified(SystemTime::now() - age).unwrap();
        };
        // An old leftover (of any process), and a fresh one of this process (a failed
        // rename): both stale.
        touch(".game.banco.4000000.0.tmp", STALE_TEMP_AGE * 2);
        touch(
            &format!(".game.banco.{}.3.tmp", std::process::id()),
            Duration::ZERO,
        );
        // A fresh one whose process is alive (the parent of this test): kept.
        let live = format!(".game.banco.{}.0.tmp", parent_pid());
        touch(&live, Duration::ZERO);
        // Not ours: kept.
        touch(".other.banco.1.0.tmp", STALE_TEMP_AGE * 2);
        touch(".game.banco.x.0.tmp", STALE_TEMP_AGE * 2);
        touch("notes.txt", STALE_TEMP_AGE * 2);
        write_atomic(&path, b"saved").unwrap();
        assert_eq!(
            names(&dir),
            [
                live.as_str(),
                ".game.banco.x.0.tmp",
                ".other.banco.1.0.tmp",
                "game.banco",
                "notes.txt"
            ]
        );
        // A load cleans up as well.
        touch(".game.banco.4000001.0.tmp", STALE_TEMP_AGE * 2);
        assert_eq!(read_limited(&path, 100).unwrap(), b"saved");
        assert!(!names(&dir).contains(&".game.banco.4000001.0.tmp".to_owned()));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Only what begins as a game record (or a Banco file, or nothing) may be replaced:
    /// a text whose first line is a tag pair, not any text that begins with `[`.
    #[test]
    fn a_record_begins_with_a_tag_pair() {
        let records: [&[u8]; 8] = [
            b"",
            b"\x89BANCO\r\n\x01",
            b"[Event \"?\"]\n[Site \"?\"]\n\n1. e4 *\n",
            b"\xef\xbb\xbf\r\n\n[Game \"xiangqi\"]\r\n",
            b"% exported by a program\n\n  [White \"A \\\"B\\\"\"] [Black \"C\"]\n",
            b"[Event\"x\"]",
            b"[ FEN \"\"]",
            b"[Round \"1\"]",
        ];
        for head in records {
            assert!(is_record(head), "{:?}", String::from_utf8_lossy(head));
        }
        let documents: [&[u8]; 10] = [
            b"[core]\n x=0\n",
            b"[\"a\"]\n",
            b"[1, 2]",
            b"[]",
            b"[Event]\n",
            b"[Event \"unclosed\n",
            b"[Event \"]\n",
            b"my notes\n[Event \"?\"]\n",
            b"% only an escape line\n",
            b"\x89PNG\r\n",
        ];
        for head in documents {
            assert!(!is_record(head), "{:?}", String::from_utf8_lossy(head));
        }
        // A first line longer than what is read: judged on its beginning.
        let mut long = b"[Annotator \"".to_vec();
        long.resize(RECORD_HEAD as usize, b'x');
        assert!(is_record(&long));
        long[1] = b' ';
        long[2] = b'"';
        assert!(!is_record(&long));
    }

    #[test]
    fn write_record_leaves_other_documents_alone() {
        let dir = std::env::temp_dir().join(format!("banco-app-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in [("app.ini", "[core]\n x=0\n"), ("d.json", "[\"a\"]\n")] {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            let e = write_record(&path, b"\x89BANCO").unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
            assert!(e.to_string().contains("is not a saved game"), "{e}");
            assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        }
        let pgn = dir.join("game.pgn");
        std::fs::write(&pgn, "[Event \"?\"]\n\n1. e4 *\n").unwrap();
        write_record(&pgn, b"[Event \"again\"]\n").unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Only a game is replaced: not a PGN database of several games (its first line is a
    /// tag pair too), nor Banco's other binary files (the puzzle progress, the device's
    /// identity and trusted peers); a saved game of either format is.
    #[test]
    fn write_record_replaces_one_game_only() {
        let dir = std::env::temp_dir().join(format!("banco-app-one-game-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let game = "[Event \"g\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n";
        let database = dir.join("db.pgn");
        std::fs::write(&database, game.repeat(3)).unwrap();
        let e = write_record(&database, b"[Event \"x\"]\n").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        assert!(
            e.to_string()
                .contains("db.pgn already exists and holds 3 games: choose another name"),
            "{e}"
        );
        assert_eq!(std::fs::read_to_string(&database).unwrap(), game.repeat(3));
        let mut progress = crate::puzzles::progress::MAGIC.to_vec();
        progress.extend_from_slice(b"\x01 solved puzzles");
        let mut trust = b"BNCTRST1".to_vec();
        trust.extend_from_slice(&[7; 32]);
        for (name, bytes) in [("progress", progress), ("trust", trust)] {
            let path = dir.join(name);
            std::fs::write(&path, &bytes).unwrap();
            let e = write_record(&path, &crate::save::MAGIC).unwrap_err();
            assert!(e.to_string().contains("is not a saved game"), "{e}");
            assert_eq!(std::fs::read(&path).unwrap(), bytes);
        }
        // One game in text, a save, an older `BNCO` save: replaced.
        let one = dir.join("one.pgn");
        std::fs::write(&one, game).unwrap();
        write_record(&one, b"[Event \"again\"]\n").unwrap();
        for old in [&b"\x89BANCO\r\n\x05damaged"[..], b"BNCO\x01"] {
            let save = dir.join("game.banco");
            std::fs::write(&save, old).unwrap();
            write_record(&save, &crate::save::MAGIC).unwrap();
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A symbolic link is written through: the file it points to gets the bytes (its
    /// temporary file beside it), the link stays a link; a link to no file yet creates the
    /// file; `write_record` judges the file the link points to.
    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_is_written_through() {
        use std::os::unix::fs::symlink;
        let dir = std::env::temp_dir().join(format!("banco-app-link-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("synced")).unwrap();
        let target = dir.join("synced/lines-best");
        std::fs::write(&target, b"\x89BANCO\r\nold").unwrap();
        let link = dir.join("best");
        symlink("synced/lines-best", &link).unwrap();
        write_atomic(&link, b"\x89BANCO\r\nnew").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&target).unwrap(), b"\x89BANCO\r\nnew");
        write_record(&link, b"\x89BANCO\r\nnewer").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(read_limited(&link, 100).unwrap(), b"\x89BANCO\r\nnewer");
        assert_eq!(names(&dir.join("synced")), ["lines-best"]);
        // A link to a file not there yet (a chain of two links): the file is created.
        let dangling = dir.join("kept");
        symlink(dir.join("synced/last-game"), dir.join("hop")).unwrap();
        symlink("hop", &dangling).unwrap();
        write_private(&dangling, b"key").unwrap();
        assert_eq!(std::fs::read(dir.join("synced/last-game")).unwrap(), b"key");
        assert!(
            std::fs::symlink_metadata(&dangling)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        // A link to a document: refused, the document left alone.
        std::fs::write(dir.join("synced/notes"), "my notes").unwrap();
        symlink("synced/notes", dir.join("notes")).unwrap();
        let e = write_record(&dir.join("notes"), b"\x89BANCO").unwrap_err();
        assert!(e.to_string().contains("is not a saved game"), "{e}");
        assert_eq!(
            std::fs::read_to_string(dir.join("synced/notes")).unwrap(),
            "my notes"
        );
        // A loop is refused, not followed for ever.
        symlink("loop-b", dir.join("loop-a")).unwrap();
        symlink("loop-a", dir.join("loop-b")).unwrap();
        assert!(write_atomic(&dir.join("loop-a"), b"x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A file name as long as a name may be (255 bytes) is written: the temporary file's
    /// name is cut to fit, and its leftovers are still recognised as stale.
    #[test]
    fn a_long_file_name_is_written() {
        let dir = std::env::temp_dir().join(format!("banco-app-long-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // Multi-byte characters: the cut falls on a character's boundary.
        let name = format!("{}.banco", "é".repeat(124));
        assert_eq!(name.len(), 254);
        let path = dir.join(&name);
        write_atomic(&path, b"long").unwrap();
        assert_eq!(read_limited(&path, 10).unwrap(), b"long");
        let stale = format!("{}4000000.0.tmp", temp_prefix(&path).unwrap());
        assert!(stale.len() <= 255, "{}", stale.len());
        let f = File::create(dir.join(&stale)).unwrap();
        f.set_modified(SystemTime::now() - STALE_TEMP_AGE * 2)
            .unwrap();
        assert_eq!(remove_stale_temps(&path), 1);
        assert_eq!(names(&dir), [name]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A file with no size (a device) read up to the cap is said to be larger than the
    /// limit, not to have the cap's byte count; a file whose size is known says it.
    #[cfg(unix)]
    #[test]
    fn a_file_read_to_the_cap_has_more_than_the_limit() {
        let e = read_limited(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the file has more than the 1 MiB a saved game may have"
        );
        let dir = std::env::temp_dir().join(format!("banco-app-cap-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let big = dir.join("big");
        std::fs::write(&big, [0u8; 11]).unwrap();
        let e = read_limited(&big, 10).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the file has 11 bytes, more than the 10 bytes a saved game may have"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A process that is alive while the test runs.
    fn parent_pid() -> u32 {
        #[cfg(unix)]
        {
            std::os::unix::process::parent_id()
        }
        #[cfg(not(unix))]
        {
            std::process::id() + 1
        }
    }
}
