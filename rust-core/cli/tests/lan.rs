//! Two `banco` processes play a whole match over loopback TCP: `banco host --ai 2` and
//! `banco join 127.0.0.1:PORT --ai 2`, both accepting the pairing code with `--yes`. No
//! multicast: the host runs with `--no-mdns`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

fn last_line(text: &str) -> &str {
    text.lines().last().unwrap_or_default()
}

/// Collects a child's remaining output on a thread (a full pipe would stall the child).
fn drain(mut r: impl Read + Send + 'static) -> JoinHandle<String> {
    std::thread::spawn(move || {
        let mut s = String::new();
        let _ = r.read_to_string(&mut s);
        s
    })
}

/// Waits for `child` until `deadline`; kills it past that.
fn wait_until(child: &mut Child, deadline: Instant) -> Option<std::process::ExitStatus> {
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

#[test]
fn host_and_join_play_to_the_end() {
    play_over_loopback("xiangqi");
}

#[test]
fn host_and_join_play_chess_to_the_end() {
    let (h, g) = play_over_loopback("chess");
    assert!(h.contains("the chess game starts: you play white"), "{h}");
    assert!(g.contains("the other player proposes chess"), "{g}");
}

/// Plays `game` between two processes; returns both outputs (already checked to end with
/// the same result line).
fn play_over_loopback(game: &str) -> (String, String) {
    let exe = env!("CARGO_BIN_EXE_banco");
    let mut host = Command::new(exe)
        .args([
            "host",
            "--game",
            game,
            "--ai",
            "2",
            "--yes",
            "--no-mdns",
            "--port",
            "0",
            "--bind",
            "127.0.0.1",
            "--name",
            "Host",
            "--no-color",
            "--movetime",
            "50",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(host.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let addr = first
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("{first}"))
        .to_owned();
    let host_out = drain(out);
    let mut guest = Command::new(exe)
        .args([
            "join",
            &addr,
            "--ai",
            "2",
            "--yes",
            "--name",
            "Guest",
            "--no-color",
            "--movetime",
            "50",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let guest_out = drain(guest.stdout.take().unwrap());
    let deadline = Instant::now() + Duration::from_secs(180);
    let guest_status = wait_until(&mut guest, deadline);
    let host_status = wait_until(&mut host, deadline + Duration::from_secs(5));
    let (h, g) = (host_out.join().unwrap(), guest_out.join().unwrap());
    assert!(
        guest_status.is_some_and(|s| s.success()),
        "guest did not finish well:\n{g}"
    );
    assert!(
        host_status.is_some_and(|s| s.success()),
        "host did not finish well:\n{h}"
    );
    let (hl, gl) = (last_line(&h), last_line(&g));
    assert!(
        hl.starts_with("result ") && hl.contains(" fen "),
        "host ended with {hl:?}"
    );
    assert_eq!(hl, gl, "both sides print the same result line");
    assert!(
        hl.split(" fen ")
            .nth(1)
            .is_some_and(|f| !f.trim().is_empty()),
        "the result line names the final position: {hl:?}"
    );
    assert!(g.contains("Pairing code"), "{g}");
    (h, g)
}
