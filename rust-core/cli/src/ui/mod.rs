//! The terminal user interface shared by `play`, `host` and `join`: the drawn board (saves are
//! written by banco-app's `files`).

pub(crate) mod board;

use crate::CliError;
use std::io::{BufRead, Write};
use std::path::PathBuf;

/// Where the command keeps its files (this device's identity, the Lines best scores):
/// `explicit` if given, else $BANCO_DATA_DIR, else $XDG_DATA_HOME/banco, else
/// ~/.local/share/banco; `None` when none of them is set.
pub(crate) fn data_dir(explicit: Option<&PathBuf>) -> Option<PathBuf> {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    explicit
        .cloned()
        .or_else(|| var("BANCO_DATA_DIR"))
        .or_else(|| var("XDG_DATA_HOME").map(|d| d.join("banco")))
        .or_else(|| var("HOME").map(|h| h.join(".local/share/banco")))
}

/// The path a player typed at a prompt (`save`, `load`): a leading `~` or `~/` is the home
/// folder ($HOME), as a shell reads it; any other text is the path as typed (`~user` is
/// not expanded, nor `~` when $HOME is unset).
pub(crate) fn expand_home(typed: &str) -> PathBuf {
    home_path(typed, std::env::var_os("HOME").filter(|h| !h.is_empty()))
}

/// [`expand_home`] with the home folder `home`.
fn home_path(typed: &str, home: Option<std::ffi::OsString>) -> PathBuf {
    match (typed.strip_prefix('~'), home) {
        (Some(""), Some(home)) => PathBuf::from(home),
        (Some(rest), Some(home)) if rest.starts_with('/') => {
            PathBuf::from(home).join(rest.trim_start_matches('/'))
        }
        _ => PathBuf::from(typed),
    }
}

/// Says on stderr what a `--fen` of `kind` that leaves out fields is read as (banco-app's
/// [`fen_fields::assumed`](banco_app::fen_fields::assumed)): nothing when it gives them all.
pub(crate) fn note_fen(kind: banco_game::GameKind, fen: &str) {
    if let Some(text) = banco_app::fen_fields::assumed(kind, fen) {
        eprintln!("note: {text}");
    }
}

/// Today's local date, ISO `2026-12-06` (the system time zone: $TZ or /etc/localtime; UTC
/// when neither can be read), to date records and best scores; $BANCO_TODAY instead when it
/// is set (a fixed date for scripts and tests).
pub(crate) fn today() -> String {
    match std::env::var("BANCO_TODAY") {
        Ok(date) if !date.trim().is_empty() => date.trim().to_owned(),
        _ => jiff::Zoned::now().date().to_string(),
    }
}

/// Prints `prompt`, reads one line into `line` and returns it trimmed, echoed when the input
/// is not a terminal (so a piped session reads like a typed one); `None` at the end of the
/// input (a new line is printed so the shell prompt starts on its own line). A line that is
/// not UTF-8 text (a terminal in another encoding) is refused with a note and read as an
/// empty line, so the session and its game go on; a byte-order mark is dropped.
pub(crate) fn read_command<'a>(
    input: &mut dyn BufRead,
    prompt: &str,
    line: &'a mut String,
    echo: bool,
) -> Result<Option<&'a str>, CliError> {
    out!("{prompt}");
    let _ = std::io::stdout().flush();
    line.clear();
    let mut bytes = Vec::new();
    let read = input
        .read_until(b'\n', &mut bytes)
        .map_err(|e| CliError::input(e.to_string()))?;
    if read == 0 {
        outln!();
        return Ok(None);
    }
    match String::from_utf8(bytes) {
        Ok(text) => *line = text,
        Err(e) => {
            let shown = String::from_utf8_lossy(e.as_bytes()).trim().to_owned();
            if echo {
                outln!("{shown}");
            }
            outln!(
                "that line is not UTF-8 text (byte {} of it): set the terminal to UTF-8 and type it again",
                e.utf8_error().valid_up_to() + 1
            );
            return Ok(Some(""));
        }
    }
    let text = line.trim().trim_start_matches('\u{feff}');
    if echo {
        outln!("{text}");
    }
    Ok(Some(text))
}

#[cfg(test)]
mod tests {
    use super::home_path;
    use std::path::PathBuf;

    /// `~` and `~/…` are the home folder; `~user`, a `~` inside a path, and `~` without a
    /// home are left as typed.
    #[test]
    fn a_leading_tilde_is_the_home_folder() {
        let home = || Some("/home/an".into());
        assert_eq!(
            home_path("~/x.pgn", home()),
            PathBuf::from("/home/an/x.pgn")
        );
        assert_eq!(home_path("~", home()), PathBuf::from("/home/an"));
        assert_eq!(home_path("~/", home()), PathBuf::from("/home/an"));
        assert_eq!(home_path("~bob/x", home()), PathBuf::from("~bob/x"));
        assert_eq!(home_path("a/~/x", home()), PathBuf::from("a/~/x"));
        assert_eq!(home_path("~/x", None), PathBuf::from("~/x"));
    }
}
