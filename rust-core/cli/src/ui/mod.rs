//! The terminal user interface shared by `play`, `host` and `join`: the drawn board (saves are
//! written by banco-app's `files`).

pub(crate) mod board;

use crate::CliError;
use std::io::{BufRead, Write};

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
