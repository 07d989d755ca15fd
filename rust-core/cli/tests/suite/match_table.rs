//! The match table's contract for scripts (README's `host`/`join` rows): the first line of
//! `banco host` is `listening on ADDR:PORT` even with `--yes`; `quit` followed by the end of
//! the input still ends with the result line and `--save`; `--save` that cannot hold the
//! game is refused before the match (a race, a jieqi PGN) or falls back to Banco's save; the
//! race's options are refused for a board game; and `banco solve --game jieqi` refuses
//! pieces still face down.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;
use common::banco;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A fresh folder for one test's data directories and files.
fn base(tag: &str) -> PathBuf {
    common::fresh_dir(&format!("table-{tag}"))
}

/// revD A4: `--yes` without `--ai` warned on stdout before `listening on`, so a script
/// reading the port from the first line read the warning. The warning is on stderr.
#[test]
fn the_first_line_of_host_yes_is_where_it_listens() {
    let dir = base("yes");
    let mut host = Command::new(env!("CARGO_BIN_EXE_banco"))
        .env("BANCO_DATA_DIR", &dir)
        .args([
            "host",
            "--yes",
            "--no-mdns",
            "--port",
            "0",
            "--bind",
            "127.0.0.1",
        ])
        .args(["--no-color"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(host.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let _ = host.kill();
    let _ = host.wait();
    let err = common::drain(host.stderr.take().unwrap()).join().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(first.starts_with("listening on 127.0.0.1:"), "{first:?}");
    assert!(
        err.contains("WARNING: --yes accepts the pairing code"),
        "{err}"
    );
}

/// A host whose engine plays `game` (identity in `dir`): its address and output.
fn engine_host(
    dir: &Path,
    game: &str,
) -> (std::process::Child, String, std::thread::JoinHandle<String>) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_banco"));
    cmd.env("BANCO_DATA_DIR", dir)
        .args(["host", "--game", game, "--ai", "1", "--yes", "--no-mdns"])
        .args(["--port", "0", "--bind", "127.0.0.1", "--name", "Host"])
        .args(["--no-color", "--movetime", "50"]);
    common::spawn_host(cmd)
}

/// A guest (a person, `--yes`, `--save save`) joins a `game` hosted by the engine and, once
/// the game is on, types `quit` and closes its input at once, as a script does. Both
/// outputs, host's first, once both ended well.
fn quit_then_end_of_input(tag: &str, game: &str, save: &str) -> (String, String, PathBuf) {
    let dir = base(tag);
    let (mut host, addr, host_out) = engine_host(&dir.join("host"), game);
    let save = dir.join(save);
    let mut guest = Command::new(env!("CARGO_BIN_EXE_banco"))
        .env("BANCO_DATA_DIR", dir.join("guest"))
        .args(["join", &addr, "--yes", "--no-color", "--name", "Guest"])
        .args(["--save", save.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = guest.stdin.take().unwrap();
    let mut out = BufReader::new(guest.stdout.take().unwrap());
    let mut seen = String::new();
    common::read_until(&mut out, "game starts", &mut seen, "the guest");
    writeln!(input, "quit").unwrap();
    drop(input);
    let guest_out = common::drain(out);
    let deadline = Instant::now() + Duration::from_secs(60);
    let guest_status = common::wait_until(&mut guest, deadline);
    let host_status = common::wait_until(&mut host, deadline + Duration::from_secs(5));
    let (h, g) = (host_out.join().unwrap(), guest_out.join().unwrap());
    let g = seen + &g;
    assert!(guest_status.is_some_and(|s| s.success()), "{g}");
    assert!(host_status.is_some_and(|s| s.success()), "{h}");
    (h, g, dir)
}

/// revD A1: `quit` then the end of the input took the end of the input for a second `quit`
/// that left at once: no result line and no `--save` on the side that quit.
#[test]
fn quit_then_the_end_of_the_input_ends_with_the_result_and_the_save() {
    let (h, g, dir) = quit_then_end_of_input("quit-eof", "xiangqi", "end.txt");
    assert!(g.contains("leaving resigns the game in progress"), "{g}");
    assert!(h.contains("red wins by resignation"), "{h}");
    let last = g.lines().last().unwrap_or_default();
    assert!(last.starts_with("result 1-0 fen "), "{g}");
    let saved = std::fs::read_to_string(dir.join("end.txt")).unwrap();
    assert!(
        saved.contains("1-0") && saved.contains("[Red \"Host\"]"),
        "{saved}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// revD A2: a guest learns the game from the proposal; a jieqi game with `--save F.pgn`
/// (jieqi has no PGN) was lost at the end. Banco's compact save goes to `F.pgn.banco`.
#[test]
fn a_jieqi_game_saved_at_the_end_to_a_pgn_name_falls_back_to_the_compact_save() {
    let (_h, g, dir) = quit_then_end_of_input("jieqi-pgn", "jieqi", "game.pgn");
    assert!(g.contains("jieqi games have no PGN form"), "{g}");
    assert!(!dir.join("game.pgn").exists());
    let bytes = std::fs::read(dir.join("game.pgn.banco")).unwrap();
    assert!(bytes.starts_with(b"\x89BANCO\r\n"), "{:?}", &bytes[..8]);
    assert!(g.contains("saved ") && g.contains("game.pgn.banco"), "{g}");
    assert!(
        g.lines()
            .last()
            .unwrap_or_default()
            .starts_with("result 1-0 "),
        "{g}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// revD A2: `--save` that cannot hold the game is refused before the match when the game is
/// known (the host's, `join --game`): a race has no record, jieqi no PGN.
#[test]
fn save_is_refused_at_the_start_for_a_race_and_a_jieqi_pgn() {
    let dir = base("save-refused");
    let data = dir.to_str().unwrap();
    let host = |game: &str, file: &str| {
        banco(&[
            "host",
            "--no-mdns",
            "--port",
            "0",
            "--bind",
            "127.0.0.1",
            "--data-dir",
            data,
            "--game",
            game,
            "--save",
            file,
        ])
    };
    let join = |game: &str, file: &str| {
        banco(&[
            "join",
            "127.0.0.1:9",
            "--data-dir",
            data,
            "--game",
            game,
            "--save",
            file,
        ])
    };
    for (out, says) in [
        (
            host("lines", "race.txt"),
            "a Lines race has no record to save",
        ),
        (
            host("lines", "race.banco"),
            "a Lines race has no record to save",
        ),
        (
            join("lines", "race.banco"),
            "a Lines race has no record to save",
        ),
        (host("jieqi", "game.pgn"), "jieqi games have no PGN form"),
        (join("jieqi", "game.PGN"), "jieqi games have no PGN form"),
    ] {
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("--save: ") && err.contains(says), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// revD B2: `--balls` and `--race-secs` were ignored for a board game (`--preview` was
/// refused): all three are the race's own.
#[test]
fn the_race_options_are_refused_for_a_board_game() {
    for flag in [["--balls", "3"], ["--race-secs", "10"]] {
        let out = banco(&["host", "--no-mdns", "--port", "0", flag[0], flag[1]]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains(&format!(
                "{} is a rule of the Lines race (--game lines), not of xiangqi",
                flag[0]
            )),
            "{err}"
        );
    }
}

/// revD B3: `banco solve --game jieqi` searched positions with face-down pieces (and found
/// nothing) while the editor refuses them: no mate can be proven through unknown reveals.
/// With every piece face up it solves.
#[test]
fn solve_refuses_jieqi_pieces_face_down_and_solves_them_face_up() {
    // The start position: thirty pieces face down.
    let fen = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2A2C2P5N2B2r2a2c2p5n2b2 0 1";
    let out = banco(&["solve", "--game", "jieqi", "--fen", fen]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("no mate can be proven through pieces still face down (30 here)"),
        "{err}"
    );
    let out = banco(&[
        "solve",
        "--game",
        "jieqi",
        "--fen",
        "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(common::last_line(&out), "mate 1 e1d1");
}

/// revP 7: a draw is offered after one's own move (FIDE 9.1.2.2). The host (red, a person)
/// types `draw` on its own turn: the table says the offer goes with its next move, the
/// guest is not asked until that move arrives, then accepts, and both sides end drawn.
#[test]
fn a_draw_offered_on_ones_turn_goes_with_the_next_move() {
    let dir = base("draw");
    let exe = env!("CARGO_BIN_EXE_banco");
    let mut host = Command::new(exe)
        .env("BANCO_DATA_DIR", dir.join("host"))
        .args(["host", "--game", "xiangqi", "--yes", "--no-mdns"])
        .args(["--port", "0", "--bind", "127.0.0.1", "--name", "Host"])
        .args(["--no-color"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut host_in = host.stdin.take().unwrap();
    let mut host_out = BufReader::new(host.stdout.take().unwrap());
    let mut hs = String::new();
    let first = common::read_until(&mut host_out, "listening on", &mut hs, "the host");
    let addr = first
        .trim()
        .strip_prefix("listening on ")
        .unwrap()
        .to_owned();
    let mut guest = Command::new(exe)
        .env("BANCO_DATA_DIR", dir.join("guest"))
        .args(["join", &addr, "--yes", "--no-color", "--name", "Guest"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut guest_in = guest.stdin.take().unwrap();
    let mut guest_out = BufReader::new(guest.stdout.take().unwrap());
    let mut gs = String::new();
    common::read_until(&mut host_out, "game starts", &mut hs, "the host");
    common::read_until(&mut guest_out, "game starts", &mut gs, "the guest");
    writeln!(host_in, "draw").unwrap();
    common::read_until(&mut host_out, "draw offer", &mut hs, "the host");
    assert!(hs.contains("draw offer sent with your next move"), "{hs}");
    writeln!(host_in, "h2e2").unwrap();
    common::read_until(&mut guest_out, "they offer a draw", &mut gs, "the guest");
    let (moved, asked) = (gs.find("h2e2").or(gs.find("C2.5")), gs.find("they offer"));
    assert!(
        moved.is_some() && asked > moved,
        "asked after the move: {gs}"
    );
    writeln!(guest_in, "y").unwrap();
    // Both sides end the game before their input ends (the end of the input would resign).
    common::read_until(&mut guest_out, "result ", &mut gs, "the guest");
    common::read_until(&mut host_out, "result ", &mut hs, "the host");
    drop(guest_in);
    drop(host_in);
    let (h, g) = (common::drain(host_out), common::drain(guest_out));
    let deadline = Instant::now() + Duration::from_secs(60);
    let guest_status = common::wait_until(&mut guest, deadline);
    let host_status = common::wait_until(&mut host, deadline + Duration::from_secs(5));
    let (h, g) = (hs + &h.join().unwrap(), gs + &g.join().unwrap());
    let _ = std::fs::remove_dir_all(&dir);
    assert!(guest_status.is_some_and(|s| s.success()), "{g}");
    assert!(host_status.is_some_and(|s| s.success()), "{h}");
    for out in [&h, &g] {
        let last = out.lines().last().unwrap_or_default();
        assert!(last.starts_with("result 1/2-1/2 "), "{out}");
    }
}

/// revA D5: `banco join` to an address where nobody listens, its input at its end, exits 1
/// with the reason (it printed "end of input: leaving the match" and exited 0).
#[test]
fn a_join_that_never_connected_fails_with_the_reason_at_the_end_of_its_input() {
    let dir = base("unreached-eof");
    let data = dir.display().to_string();
    let out = banco(&["join", "127.0.0.1:1", "--yes", "--data-dir", &data]);
    let _ = std::fs::remove_dir_all(&dir);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("could not reach 127.0.0.1:1: connection refused"),
        "{err}"
    );
}

/// revA D5: an unattended join (`--ai`) that never reaches its host gives up after
/// `--give-up-secs` (30 s by default; it retried for ever) and exits 1 with the reason.
#[test]
fn an_unattended_join_that_never_connects_gives_up() {
    let dir = base("unreached-ai");
    let mut join = Command::new(env!("CARGO_BIN_EXE_banco"))
        .env("BANCO_DATA_DIR", &dir)
        .args([
            "join",
            "127.0.0.1:1",
            "--ai",
            "1",
            "--yes",
            "--give-up-secs",
            "1",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The input stays open: the join gives up on its own.
    let _input = join.stdin.take();
    let err = common::drain(join.stderr.take().unwrap());
    let status = common::wait_until(&mut join, Instant::now() + Duration::from_secs(60));
    let err = err.join().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(status.and_then(|s| s.code()), Some(1), "{err}");
    assert!(
        err.contains("could not reach 127.0.0.1:1: connection refused (gave up after 1 s)"),
        "{err}"
    );
}
