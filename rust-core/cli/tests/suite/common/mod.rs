//! What the command-line tests share: running `banco` with arguments (and piped input), and
//! its last line of output.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `banco` with `args` and no input.
pub fn banco(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_banco"))
        .args(args)
        .output()
        .expect("run banco")
}

/// Runs `banco` with `args`, `input` piped to its standard input.
pub fn banco_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_banco"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run banco");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// The last line `banco` printed on standard output.
pub fn last_line(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .to_owned()
}
