//! Every Lines race over the network ends with a result: `--race-secs 0` is refused (a
//! player who stops moving could hold an untimed race hostage); a player whose board is
//! full and who leaves forfeits (the other gets the result line and the win); a player
//! whose app is killed and started again has resigned. And a typed race shows what each
//! move did, as solo play does, and says that a race has no hint or undo.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The test's directory and its host's and guest's data directories (as text).
fn racer_dirs(tag: &str) -> (std::path::PathBuf, String, String) {
    let [h, g] = common::data_dirs("race-end", tag);
    let dir = h.parent().map(std::path::Path::to_path_buf).unwrap();
    (dir, h.display().to_string(), g.display().to_string())
}

/// `banco host --game lines` arguments on loopback with `extra`, its data in `dir`.
fn host_args<'a>(dir: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "host",
        "--game",
        "lines",
        "--yes",
        "--no-color",
        "--no-mdns",
        "--port",
        "0",
        "--bind",
        "127.0.0.1",
        "--name",
        "Host",
        "--data-dir",
        dir,
    ];
    args.extend_from_slice(extra);
    args
}

fn join_args<'a>(addr: &'a str, dir: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "join",
        addr,
        "--yes",
        "--no-color",
        "--name",
        "Guest",
        "--data-dir",
        dir,
    ];
    args.extend_from_slice(extra);
    args
}

#[test]
fn a_race_without_a_time_limit_is_refused() {
    let (dir, d, _) = racer_dirs("untimed");
    let out = common::banco(&host_args(&d, &["--race-secs", "0"]));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("--race-secs 0: a race needs a time limit"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// F9: `hint` and `undo` in a race say there are none (in any case), `save` and `load`
/// that a race is not saved; a typed move shows its path and
/// the balls that landed before the board, as `banco play --game lines` does.
#[test]
fn a_typed_race_move_shows_what_landed_and_a_race_has_no_hint_or_undo() {
    let (dir, hd, gd) = racer_dirs("typed");
    let mut host = common::Live::start(&host_args(
        &hd,
        &["--race-secs", "600", "--ai", "1", "--movetime", "500"],
    ));
    let listening = host.send("", "listening on ");
    let addr = listening
        .trim()
        .strip_prefix("listening on ")
        .unwrap()
        .to_owned();
    let mut guest = common::Live::start(&join_args(&addr, &gd, &[]));
    guest.send("", "your move (a1 e5)");
    for word in ["hint", "undo", "Hint", "UNDO"] {
        let said = guest.send(&format!("{word}\n"), "no hint or undo");
        assert!(said.starts_with("no hint or undo in a race"), "{said}");
    }
    for line in ["save race.banco", "Load x"] {
        let said = guest.send(&format!("{line}\n"), "a race is not saved");
        assert!(said.starts_with("a race is not saved"), "{said}");
    }
    let mv = common::quiet_lines_move(&common::last_board(&guest.text));
    let path = guest.send(&format!("{mv}\n"), "path ");
    let (from, to) = mv.split_once(' ').unwrap();
    assert_eq!(path, format!("path {from} {to}"));
    let landed = guest.send("", "landed ");
    assert_eq!(
        landed.split_whitespace().count(),
        4,
        "three balls: {landed}"
    );
    guest.send("", "|  opponent score");
    // Leaving with a board that can still move resigns the race.
    let g = guest.quit();
    assert!(
        g.contains("result 1-0 ") && g.contains(" end resigned-black"),
        "{g}"
    );
    let h = host.quit();
    assert!(h.contains(" end resigned-black"), "{h}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// F1: the host fills its board (typed moves that make no line) while the guest never
/// moves. The host need not wait for the guest's hour: it cannot resign a final board, but
/// leaving forfeits the race, and the guest gets the result line and the win — the race
/// is not void.
#[test]
fn leaving_with_a_full_board_while_the_other_idles_forfeits_with_a_result() {
    let (dir, hd, gd) = racer_dirs("full");
    let mut host = common::Live::start(&host_args(&hd, &["--race-secs", "3600"]));
    let listening = host.send("", "listening on ");
    let addr = listening
        .trim()
        .strip_prefix("listening on ")
        .unwrap()
        .to_owned();
    let mut guest = common::Live::start(&join_args(&addr, &gd, &[]));
    host.send("", "your move (a1 e5)");
    for _ in 0..200 {
        let rows = common::last_board(&host.text);
        if rows.iter().flatten().all(|c| c != ".") {
            break;
        }
        host.send(
            &format!("{}\n", common::quiet_lines_move(&rows)),
            "|  opponent score",
        );
        // The board again, without the path's marks.
        host.send("board\n", "|  opponent score");
    }
    // The guest sees the host's board full (81 balls), and types nothing.
    guest.send("", "balls 81");
    let said = host.send("resign\n", "final");
    assert!(said.contains("leaving now forfeits the race"), "{said}");
    let h = host.quit();
    assert!(
        h.contains("leaving before the race's end forfeits it: the other player wins"),
        "{h}"
    );
    let result = guest.send("", "result ");
    assert!(
        result.starts_with("result 0-1 ") && result.ends_with(" end resigned-red"),
        "{result}"
    );
    let g = guest.quit();
    assert!(
        g.contains("You won the race: the other player resigned"),
        "{g}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// F3: the guest's app is killed mid-race and started again with its data (same key, no
/// race): the host ends the race with the guest's resignation and the result line.
#[test]
fn a_racer_whose_app_is_killed_and_restarted_has_resigned() {
    let (dir, hd, gd) = racer_dirs("killed");
    let exe = env!("CARGO_BIN_EXE_banco");
    let slow = ["--ai", "1", "--movetime", "300"];
    let mut cmd = Command::new(exe);
    cmd.args(host_args(&hd, &["--race-secs", "600"])).args(slow);
    let (mut host, addr, host_out) = common::spawn_host(cmd);
    let guest_cmd = || {
        let mut c = Command::new(exe);
        c.args(join_args(&addr, &gd, &slow))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        c
    };
    let mut guest = guest_cmd().spawn().unwrap();
    let mut seen = String::new();
    let mut out = std::io::BufReader::new(guest.stdout.take().unwrap());
    common::read_until(&mut out, "they: move 2 ", &mut seen, "guest");
    guest.kill().unwrap();
    guest.wait().unwrap();
    let mut again = guest_cmd().spawn().unwrap();
    let again_out = common::drain(again.stdout.take().unwrap());
    let deadline = Instant::now() + Duration::from_secs(60);
    let host_status = common::wait_until(&mut host, deadline);
    let h = host_out.join().unwrap();
    common::wait_until(&mut again, Instant::now() + Duration::from_secs(30));
    let g2 = again_out.join().unwrap();
    assert!(
        host_status.is_some_and(|s| s.success()),
        "host:\n{h}\nguest 2:\n{g2}"
    );
    let result = h
        .lines()
        .find(|l| l.starts_with("result "))
        .unwrap_or_else(|| panic!("{h}"));
    assert!(
        result.starts_with("result 1-0 ") && result.ends_with(" end resigned-black"),
        "{result}"
    );
    // The restarted guest has no race (it never plays one).
    assert!(!g2.contains("the race starts"), "{g2}");
    let _ = std::fs::remove_dir_all(&dir);
}
