//! What the command-line tests share: running `banco` with arguments (and piped input), its
//! last line of output, and two-process matches (a host started, its address read, its
//! output drained; a child waited for with a deadline).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Reads `out` line by line into `seen` up to the first line containing `needle`, and
/// returns that line; panics, naming `who` and everything seen, if the output ends first.
pub fn read_until(out: &mut impl BufRead, needle: &str, seen: &mut String, who: &str) -> String {
    loop {
        let mut line = String::new();
        assert!(
            out.read_line(&mut line).unwrap() > 0,
            "{who} ended before `{needle}`:\n{seen}"
        );
        seen.push_str(&line);
        if line.contains(needle) {
            return line;
        }
    }
}

/// The standard output of a run, as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The temporary folder of this test process for `tag`: `banco-TAG-PID` under the
/// temporary directory (not created).
pub fn process_dir(tag: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("banco-{tag}-{}", std::process::id()))
}

/// A path named `name` in a temporary folder of this test process for the tests of
/// `group` (created).
pub fn temp(group: &str, name: &str) -> std::path::PathBuf {
    let dir = process_dir(group);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A fresh, empty temporary folder of this test process for the test `tag`
/// ([`process_dir`]), emptied of an earlier run's files.
pub fn fresh_dir(tag: &str) -> std::path::PathBuf {
    let dir = process_dir(tag);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The arguments of `banco play --game lines --no-color --best-scores BEST`.
pub fn lines_args(best: &str) -> [&str; 6] {
    [
        "play",
        "--game",
        "lines",
        "--no-color",
        "--best-scores",
        best,
    ]
}

/// Runs `banco` with `args` and no input.
pub fn banco(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_banco"))
        .args(args)
        .output()
        .expect("run banco")
}

/// Runs `banco` with `args`, `input` piped to its standard input.
pub fn banco_stdin(args: &[&str], input: &str) -> Output {
    banco_bytes(args, input.as_bytes())
}

/// Runs `banco` with `args`, the bytes `input` (UTF-8 or not) piped to its standard input.
pub fn banco_bytes(args: &[&str], input: &[u8]) -> Output {
    banco_env(args, &[], input)
}

/// Runs `banco` with `args` and the environment variables `env` set, the bytes `input`
/// piped to its standard input.
pub fn banco_env(args: &[&str], env: &[(&str, &str)], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_banco"))
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run banco");
    // A command that refuses its arguments exits without reading: the pipe may be closed
    // before the input is written (EPIPE), which is no failure of the command.
    let _ = child.stdin.take().unwrap().write_all(input);
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

/// Checks the LAST line of `banco bench lines` (`games N median_score M mean_score A
/// median_turns T ms_per_move X`, the contract) for `games` games whose median
/// game lasted `turns` turns.
pub fn assert_lines_bench_line(text: &str, games: &str, turns: &str) {
    let last = text.lines().last().unwrap_or_default();
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(words.len(), 10, "{last}");
    assert_eq!(
        [words[0], words[1], words[2], words[4], words[6], words[8]],
        [
            "games",
            games,
            "median_score",
            "mean_score",
            "median_turns",
            "ms_per_move"
        ]
    );
    assert_eq!(words[7], turns, "the median game's turns: {text}");
}

/// Collects a child's remaining output on a thread (a full pipe would stall the child).
pub fn drain(mut r: impl Read + Send + 'static) -> JoinHandle<String> {
    std::thread::spawn(move || {
        let mut s = String::new();
        let _ = r.read_to_string(&mut s);
        s
    })
}

/// Waits for `child` until `deadline`; kills it past that.
pub fn wait_until(child: &mut Child, deadline: Instant) -> Option<ExitStatus> {
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Starts `banco host` as configured in `host` (stdout piped), reads its first line
/// `listening on ADDR`, and drains the rest: the child, the address, the rest of its output.
pub fn spawn_host(mut host: Command) -> (Child, String, JoinHandle<String>) {
    let mut child = host
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let addr = first
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("{first}"))
        .to_owned();
    (child, addr, drain(out))
}

/// Two computers race at Lines over loopback (`banco host --game lines … --ai 1` with
/// `host_args` after `--game lines`, and `banco join … --ai 1`, both `--yes`): both must
/// end successfully within two minutes. Their outputs, host's first.
pub fn ai_race(tag: &str, host_args: &[&str]) -> (String, String) {
    let base = process_dir(tag);
    let _ = std::fs::remove_dir_all(&base);
    let exe = env!("CARGO_BIN_EXE_banco");
    let common = ["--ai", "1", "--yes", "--no-color", "--movetime", "40"];
    let mut cmd = Command::new(exe);
    cmd.env("BANCO_DATA_DIR", base.join("host"))
        .args(["host", "--game", "lines"])
        .args(host_args)
        .args(["--no-mdns", "--port", "0", "--bind", "127.0.0.1"])
        .args(["--name", "Host"])
        .args(common);
    let (mut host, addr, host_out) = spawn_host(cmd);
    let mut guest = Command::new(exe)
        .env("BANCO_DATA_DIR", base.join("guest"))
        .args(["join", &addr, "--game", "lines", "--name", "Guest"])
        .args(common)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let guest_out = drain(guest.stdout.take().unwrap());
    let deadline = Instant::now() + Duration::from_secs(120);
    let guest_status = wait_until(&mut guest, deadline);
    let host_status = wait_until(&mut host, deadline + Duration::from_secs(5));
    let (h, g) = (host_out.join().unwrap(), guest_out.join().unwrap());
    let _ = std::fs::remove_dir_all(&base);
    assert!(guest_status.is_some_and(|s| s.success()), "guest:\n{g}");
    assert!(host_status.is_some_and(|s| s.success()), "host:\n{h}");
    (h, g)
}

/// `banco` with `args` on piped input, driven a line at a time: its output is read on a
/// thread, and every wait has a deadline (a test that fails does not hang).
pub struct Live {
    child: Child,
    input: Option<std::process::ChildStdin>,
    lines: Receiver<String>,
    /// The output read so far.
    pub text: String,
}

impl Live {
    /// Starts `banco args`.
    pub fn start(args: &[&str]) -> Live {
        let mut child = Command::new(env!("CARGO_BIN_EXE_banco"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("run banco");
        let input = child.stdin.take();
        let output = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in output.lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Live {
            child,
            input,
            lines,
            text: String::new(),
        }
    }

    /// Types `lines`, then reads until a line contains `until` (30 s at most); that line.
    pub fn send(&mut self, lines: &str, until: &str) -> String {
        let input = self.input.as_mut().unwrap();
        input.write_all(lines.as_bytes()).unwrap();
        input.flush().unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.text.push_str(&line);
                    self.text.push('\n');
                    if line.contains(until) {
                        return line;
                    }
                }
                Err(e) => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    let why = match e {
                        RecvTimeoutError::Timeout => "no such line within 30 s",
                        RecvTimeoutError::Disconnected => "the output ended",
                    };
                    panic!("waiting for `{until}`: {why}:\n{}", self.text);
                }
            }
        }
    }

    /// Types `quit`, waits for the end (30 s at most): the whole output, the command
    /// having succeeded.
    pub fn quit(mut self) -> String {
        let mut input = self.input.take().unwrap();
        let _ = input.write_all(b"quit\n");
        drop(input);
        let status = wait_until(&mut self.child, Instant::now() + Duration::from_secs(30));
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(5)) {
            self.text.push_str(&line);
            self.text.push('\n');
        }
        assert!(status.is_some_and(|s| s.success()), "{}", self.text);
        std::mem::take(&mut self.text)
    }
}

impl Drop for Live {
    /// A test that failed midway leaves no session behind.
    fn drop(&mut self) {
        if self.input.is_some() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The name of the cell on file `file` (0 = a) of board row `row` (0 = rank 9), as
/// [`last_board`] numbers them.
pub fn cell_name(file: usize, row: usize) -> String {
    format!("{}{}", (b'a' + file as u8) as char, 9 - row)
}

/// A Lines move typed as `a1 b1`: a ball (upper case) with a free cell (`.`, no spot)
/// beside it on its rank, in the rows of [`last_board`].
pub fn quiet_lines_move(rows: &[Vec<String>]) -> String {
    for (r, row) in rows.iter().enumerate() {
        for (f, c) in row.iter().enumerate() {
            if !c.chars().all(|ch| ch.is_ascii_uppercase()) {
                continue;
            }
            for to in [f.wrapping_sub(1), f + 1] {
                if row.get(to).map(String::as_str) == Some(".") {
                    return format!("{} {}", cell_name(f, r), cell_name(to, r));
                }
            }
        }
    }
    panic!("no ball with a free cell beside it: {rows:?}");
}

/// Fresh data directories (their identities) for the host and the guest of a test of
/// `group`: `banco-GROUP-TAG-PID/host` and `…/guest` under the temporary directory.
pub fn data_dirs(group: &str, tag: &str) -> [std::path::PathBuf; 2] {
    let base = process_dir(&format!("{group}-{tag}"));
    let _ = std::fs::remove_dir_all(&base);
    [base.join("host"), base.join("guest")]
}

/// The rows of the last Lines board drawn in `text` (rank 9 first), nine cells each.
pub fn last_board(text: &str) -> Vec<Vec<String>> {
    let mut rows: Vec<Vec<String>> = Vec::new();
    for line in text.lines() {
        let mut parts = line.split_whitespace();
        let Some(rank) = parts.next().and_then(|r| r.parse::<usize>().ok()) else {
            continue;
        };
        let cells: Vec<String> = parts.map(str::to_owned).collect();
        if cells.len() != 9 || !(1..=9).contains(&rank) {
            continue;
        }
        if rank == 9 {
            rows.clear();
        }
        rows.push(cells);
    }
    assert_eq!(rows.len(), 9, "no board in:\n{text}");
    rows
}
