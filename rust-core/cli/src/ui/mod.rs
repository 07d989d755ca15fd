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

/// Prints `prompt`, reads one line into `line` and returns it trimmed, echoed when the input
/// is not a terminal (so a piped session reads like a typed one); `None` at the end of the
/// input (a new line is printed so the shell prompt starts on its own line).
pub(crate) fn read_command<'a>(
    input: &mut dyn BufRead,
    prompt: &str,
    line: &'a mut String,
    echo: bool,
) -> Result<Option<&'a str>, CliError> {
    out!("{prompt}");
    let _ = std::io::stdout().flush();
    line.clear();
    let read = input
        .read_line(line)
        .map_err(|e| CliError::input(e.to_string()))?;
    if read == 0 {
        outln!();
        return Ok(None);
    }
    let text = line.trim();
    if echo {
        outln!("{text}");
    }
    Ok(Some(text))
}
