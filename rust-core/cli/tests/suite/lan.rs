//! Two `banco` processes play a whole match over loopback TCP: `banco host --ai 2` and
//! `banco join 127.0.0.1:PORT --ai 2`, both accepting the pairing code with `--yes`. No
//! multicast: the host runs with `--no-mdns`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;
use common::banco;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn last_line(text: &str) -> &str {
    text.lines().last().unwrap_or_default()
}

/// Fresh data directories for the host and the guest (their identities).
fn data_dirs(tag: &str) -> [std::path::PathBuf; 2] {
    common::data_dirs("lan", tag)
}

#[test]
fn host_and_join_play_to_the_end() {
    play_over_loopback("xiangqi", &[], &data_dirs("xiangqi"));
}

#[test]
fn host_and_join_play_chess_to_the_end() {
    let (h, g) = play_over_loopback("chess", &[], &data_dirs("chess"));
    assert!(g.contains("Pairing code"), "{g}");
    assert!(h.contains("the chess game starts: you play white"), "{h}");
    assert!(g.contains("the other player proposes chess"), "{g}");
}

#[test]
fn host_and_join_play_jieqi_to_the_end_with_fair_reveals() {
    let (h, g) = play_over_loopback("jieqi", &[], &data_dirs("jieqi"));
    assert!(h.contains("the jieqi game starts: you play red"), "{h}");
    assert!(g.contains("the other player proposes jieqi"), "{g}");
    // Every reveal is announced on both sides, as one side's and as the other's.
    let count = |text: &str, who: &str| {
        text.lines()
            .filter(|l| l.starts_with(who) && l.contains(" revealed: "))
            .count()
    };
    let (mine_h, theirs_h) = (count(&h, "your "), count(&h, "their "));
    assert!(mine_h > 0 && theirs_h > 0, "{h}");
    assert_eq!(
        (mine_h, theirs_h),
        (count(&g, "their "), count(&g, "your "))
    );
    // Face-down pieces and the pools are drawn.
    assert!(h.contains("ｘ") && h.contains("red pool ("), "{h}");
}

#[test]
fn a_bad_start_position_is_refused_before_anyone_joins() {
    for (game, fen) in [
        ("xiangqi", "garbage"),
        (
            "chess",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        ),
    ] {
        let dir = crate::common::process_dir("badfen");
        let data = dir.to_string_lossy();
        let out = banco(&[
            "host",
            "--no-mdns",
            "--port",
            "0",
            "--data-dir",
            &data,
            "--game",
            game,
            "--fen",
            fen,
        ]);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(out.status.code(), Some(2), "{game} {fen}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--fen"), "{err}");
    }
}

#[test]
fn a_second_match_with_the_same_identities_skips_the_code() {
    // Black mates at once (fool's mate): a short game, twice.
    let fool = [
        "--fen",
        "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
        "--color",
        "black",
    ];
    let dirs = data_dirs("again");
    let (h, g) = play_over_loopback("chess", &fool, &dirs);
    assert!(
        h.contains("Pairing code") && g.contains("Pairing code"),
        "{h}\n{g}"
    );
    let (h, g) = play_over_loopback("chess", &fool, &dirs);
    assert!(!h.contains("Pairing code"), "the host asked again:\n{h}");
    assert!(!g.contains("Pairing code"), "the guest asked again:\n{g}");
    assert!(
        h.contains("paired with Guest") && g.contains("paired with Host"),
        "{h}\n{g}"
    );
    let _ = std::fs::remove_dir_all(dirs[0].parent().unwrap());
}

/// A host on loopback (identity in `dir`) whose engine plays `game` at `level`, accepting
/// the code and proposing `game`; its address and output.
fn spawn_engine_host(
    dir: &std::path::Path,
    game: &str,
    level: &str,
    extra: &[&str],
) -> (std::process::Child, String, std::thread::JoinHandle<String>) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_banco"));
    cmd.env("BANCO_DATA_DIR", dir)
        .args([
            "host",
            "--game",
            game,
            "--ai",
            level,
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
        .args(extra);
    common::spawn_host(cmd)
}

/// Plays `game` between two processes keeping their identities in `dirs`; returns both
/// outputs (already checked to end with the same result line).
fn play_over_loopback(
    game: &str,
    host_args: &[&str],
    dirs: &[std::path::PathBuf; 2],
) -> (String, String) {
    let exe = env!("CARGO_BIN_EXE_banco");
    // Both remember the other (`--yes` alone never does): a second match skips the code.
    let host_args = [host_args, &["--remember"]].concat();
    let (mut host, addr, host_out) = spawn_engine_host(&dirs[0], game, "2", &host_args);
    let mut guest = Command::new(exe)
        .env("BANCO_DATA_DIR", &dirs[1])
        .args([
            "join",
            &addr,
            "--ai",
            "2",
            "--yes",
            "--remember",
            "--name",
            "Guest",
            "--no-color",
            "--movetime",
            "50",
            // Once connected the join never gives up (revA D5): the games here last
            // longer than these 5 s, which leave a loaded machine time to connect.
            "--give-up-secs",
            "5",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let guest_out = common::drain(guest.stdout.take().unwrap());
    let deadline = Instant::now() + Duration::from_secs(180);
    let guest_status = common::wait_until(&mut guest, deadline);
    let host_status = common::wait_until(&mut host, deadline + Duration::from_secs(5));
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
    (h, g)
}

#[test]
fn quitting_a_game_in_progress_resigns_it() {
    leaving_resigns(false);
}

/// The end of the input is `quit`: the game is resigned, the result comes as the last
/// line and `--save` writes the game (the end of the input used to leave at once: no
/// result line, nothing saved).
#[test]
fn the_end_of_the_input_resigns_a_game_in_progress_as_quit_does() {
    leaving_resigns(true);
}

/// A guest (a person) leaves its game in progress by `quit`, or by closing its input
/// (`by_eof`): the game is resigned and both sides print the result.
fn leaving_resigns(by_eof: bool) {
    use std::io::{BufReader, Write};
    let dirs = data_dirs(if by_eof { "eof" } else { "quit" });
    let exe = env!("CARGO_BIN_EXE_banco");
    let (mut host, addr, host_out) = spawn_engine_host(&dirs[0], "xiangqi", "1", &[]);
    // `--save`: the finished game is written as it ends (the table closes then).
    let at_end = dirs[1].parent().unwrap().join("end.txt");
    let at_end_arg = at_end.display().to_string();
    let mut guest = Command::new(exe)
        .env("BANCO_DATA_DIR", &dirs[1])
        .args(["join", &addr, "--yes", "--no-color", "--save", &at_end_arg])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = guest.stdin.take().unwrap();
    let mut out = BufReader::new(guest.stdout.take().unwrap());
    let mut seen = String::new();
    // Once the game is on, the guest (a person) types `quit`.
    common::read_until(&mut out, "game starts", &mut seen, "the guest");
    // The game so far is saved with both players' names (a networked game is exported
    // as one against the computer is).
    let pgn = dirs[1].parent().unwrap().join("net.pgn");
    writeln!(input, "help").unwrap();
    writeln!(input, "save {}", pgn.display()).unwrap();
    if by_eof {
        drop(input);
    } else {
        writeln!(input, "quit").unwrap();
    }
    let guest_out = common::drain(out);
    let deadline = Instant::now() + Duration::from_secs(60);
    let guest_status = common::wait_until(&mut guest, deadline);
    let host_status = common::wait_until(&mut host, deadline + Duration::from_secs(5));
    let (h, g) = (host_out.join().unwrap(), guest_out.join().unwrap());
    assert!(g.contains("leaving resigns the game in progress"), "{g}");
    // `help` lists the table's commands (it is not taken for a move).
    assert!(g.contains("commands:  undo (asks the other player)"), "{g}");
    assert!(!g.contains("`help` is not"), "{g}");
    assert!(guest_status.is_some_and(|s| s.success()), "{seen}{g}");
    assert!(host_status.is_some_and(|s| s.success()), "{h}");
    // The host (red) is told it won, by resignation, as its last line says.
    assert!(h.contains("red wins by resignation"), "{h}");
    assert!(last_line(&h).starts_with("result 1-0 "), "{h}");
    assert!(last_line(&g).starts_with("result 1-0 "), "{g}");
    assert!(g.contains("saved "), "{g}");
    let saved = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        saved.contains("[Red \"Host\"]") && saved.contains("[Black \""),
        "{saved}"
    );
    let ended = std::fs::read_to_string(&at_end).unwrap();
    assert!(
        ended.contains("1-0") && ended.contains("[Red \"Host\"]"),
        "{ended}"
    );
    let _ = std::fs::remove_dir_all(dirs[0].parent().unwrap());
}

/// While the host compares the guest's code, a stranger's connection is turned away (it
/// used to replace the guest's, and the two knocked each other off until the host paused):
/// the player's "yes" pairs the guest.
#[test]
fn a_stranger_does_not_replace_the_code_being_compared() {
    use std::io::{BufReader, Write};
    let dirs = data_dirs("compared");
    let stranger_dir = dirs[0].parent().unwrap().join("stranger");
    let exe = env!("CARGO_BIN_EXE_banco");
    let mut host = Command::new(exe)
        .env("BANCO_DATA_DIR", &dirs[0])
        .args(["host", "--no-mdns", "--port", "0", "--bind", "127.0.0.1"])
        .args(["--name", "Host", "--no-color"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = host.stdin.take().unwrap();
    let mut out = BufReader::new(host.stdout.take().unwrap());
    let mut seen = String::new();
    let mut wait_for =
        |what: &str, seen: &mut String| common::read_until(&mut out, what, seen, "the host");
    let first = wait_for("listening on ", &mut seen);
    let addr = first.trim().trim_start_matches("listening on ").to_owned();
    // Guests played by the computer stay in the match (a person would be typing).
    let join = |dir: &std::path::Path, name: &str| {
        Command::new(exe)
            .env("BANCO_DATA_DIR", dir)
            .args([
                "join",
                &addr,
                "--yes",
                "--ai",
                "1",
                "--name",
                name,
                "--no-color",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    let mut guest = join(&dirs[1], "Guest");
    wait_for("(calling itself \"Guest\")", &mut seen);
    let mut stranger = join(&stranger_dir, "Stranger");
    wait_for("comparing another device's code", &mut seen);
    writeln!(input, "y").unwrap();
    let paired = wait_for("paired with", &mut seen);
    assert!(paired.contains("paired with Guest"), "{seen}");
    assert!(!seen.contains("calling itself \"Stranger\""), "{seen}");
    writeln!(input, "quit").unwrap();
    drop(input);
    // The stranger would keep knocking: it is stopped; the others end with the match.
    let _ = stranger.kill();
    let _ = stranger.wait();
    let deadline = Instant::now() + Duration::from_secs(20);
    for child in [&mut host, &mut guest] {
        if common::wait_until(child, deadline).is_none() {
            let _ = child.kill();
        }
    }
    let _ = std::fs::remove_dir_all(dirs[0].parent().unwrap());
}

/// `--yes` confirms a code without remembering the device (before, every device it paired
/// with was remembered, one entry per name a stranger picked), and never confirms a device
/// presenting another key than the remembered player of its name (before, any device
/// calling itself "Alice" replaced Alice's key right after the DIFFERENT KEY warning).
#[test]
fn yes_never_remembers_a_device_nor_accepts_a_changed_key() {
    use std::io::{BufRead, BufReader};
    let dirs = data_dirs("unattended");
    let base = dirs[0].parent().unwrap().to_owned();
    let [host_dir, alice] = dirs;
    let impostor = base.join("impostor");
    let identity = host_dir.join("identity");
    let exe = env!("CARGO_BIN_EXE_banco");
    // One pairing: the host (`--yes`, plus `extra`) and a guest named Alice from `guest`;
    // the host's output up to the line containing `until`, then both are stopped.
    let pairing = |extra: &[&str], guest: &std::path::Path, until: &str| -> String {
        let mut host = Command::new(exe)
            .env("BANCO_DATA_DIR", &host_dir)
            .args(["host", "--yes", "--ai", "1", "--no-mdns", "--port", "0"])
            .args(["--bind", "127.0.0.1", "--name", "Host", "--no-color"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut out = BufReader::new(host.stdout.take().unwrap());
        let mut seen = String::new();
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        let addr = line.trim().trim_start_matches("listening on ").to_owned();
        let mut join = Command::new(exe)
            .env("BANCO_DATA_DIR", guest)
            .args(["join", &addr, "--yes", "--ai", "1", "--name", "Alice"])
            .arg("--no-color")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        common::read_until(&mut out, until, &mut seen, "the host");
        for child in [&mut join, &mut host] {
            let _ = child.kill();
            let _ = child.wait();
        }
        seen
    };
    let remembers_alice = || {
        std::fs::read(&identity)
            .unwrap()
            .windows(5)
            .any(|w| w == b"Alice")
    };
    pairing(&[], &alice, "paired with Alice");
    assert!(!remembers_alice(), "--yes alone remembered the device");
    pairing(&["--remember"], &alice, "paired with Alice");
    assert!(remembers_alice(), "--yes --remember");
    let trusted = std::fs::read(&identity).unwrap();
    // Another device calls itself Alice: warned, turned away, Alice's key kept.
    let seen = pairing(&[], &impostor, "turned away; waiting for another");
    assert!(seen.contains("DIFFERENT KEY"), "{seen}");
    assert!(
        seen.contains("no (--yes never accepts a changed key)"),
        "{seen}"
    );
    assert!(!seen.contains("paired with"), "{seen}");
    assert_eq!(std::fs::read(&identity).unwrap(), trusted);
    let _ = std::fs::remove_dir_all(base);
}

/// The guest's player confirms the code first (`--yes --remember`: stored at once), the
/// host's player answers "n": the guest stops (it used to reconnect and say the match goes
/// on) and takes the host back out of its stored players (review revB D2).
#[test]
fn a_guest_rejected_after_confirming_stops_and_forgets_the_host() {
    use std::io::{BufRead, BufReader, Write};
    let [host_dir, guest_dir] = data_dirs("rejected");
    let exe = env!("CARGO_BIN_EXE_banco");
    let mut host = Command::new(exe)
        .env("BANCO_DATA_DIR", &host_dir)
        .args([
            "host",
            "--ai",
            "1",
            "--no-mdns",
            "--port",
            "0",
            "--bind",
            "127.0.0.1",
        ])
        .args(["--name", "Host", "--no-color"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut host_out = BufReader::new(host.stdout.take().unwrap());
    let mut line = String::new();
    host_out.read_line(&mut line).unwrap();
    let addr = line.trim().trim_start_matches("listening on ").to_owned();
    let mut join = Command::new(exe)
        .env("BANCO_DATA_DIR", &guest_dir)
        .args([
            "join",
            &addr,
            "--yes",
            "--remember",
            "--ai",
            "1",
            "--name",
            "Guest",
        ])
        .arg("--no-color")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut guest_out = BufReader::new(join.stdout.take().unwrap());
    let mut seen = String::new();
    common::read_until(&mut guest_out, "paired with Host", &mut seen, "the guest");
    let identity = guest_dir.join("identity");
    let remembers_host = || {
        std::fs::read(&identity)
            .unwrap()
            .windows(4)
            .any(|w| w == b"Host")
    };
    assert!(remembers_host(), "--remember stored the host");
    let mut host_seen = String::new();
    common::read_until(&mut host_out, "Same code?", &mut host_seen, "the host");
    let mut stdin = host.stdin.take().unwrap();
    stdin.write_all(b"n\n").unwrap();
    stdin.flush().unwrap();
    common::read_until(
        &mut guest_out,
        "the match is closed",
        &mut seen,
        "the guest",
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    while join.try_wait().unwrap().is_none() {
        assert!(
            Instant::now() < deadline,
            "the rejected guest did not stop:\n{seen}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = host.kill();
    let _ = host.wait();
    assert!(
        seen.contains("the other player said the codes differ"),
        "{seen}"
    );
    assert!(!seen.contains("connection back"), "{seen}");
    assert!(
        !remembers_host(),
        "the rejected host is still stored:\n{seen}"
    );
    drop(stdin);
    let _ = std::fs::remove_dir_all(host_dir.parent().unwrap());
}

/// A host listening on every interface (`--bind 0.0.0.0`) prints, after its `listening on
/// 0.0.0.0:PORT` line (unchanged), where a guest can dial it: `join with: banco join
/// ADDR:PORT`, a real address of this machine; and a guest typing it reaches the host.
#[test]
fn a_host_on_every_interface_says_what_to_type() {
    use std::io::{BufRead, BufReader};
    let dirs = data_dirs("reachable");
    let exe = env!("CARGO_BIN_EXE_banco");
    let mut host = Command::new(exe)
        .env("BANCO_DATA_DIR", &dirs[0])
        .args(["host", "--no-mdns", "--port", "0", "--bind", "0.0.0.0"])
        .args(["--name", "Host", "--no-color"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(host.stdout.take().unwrap());
    let mut line = || {
        let mut l = String::new();
        let read = out.read_line(&mut l).unwrap();
        assert!(read > 0, "the host ended");
        l.trim_end().to_owned()
    };
    let listening = line();
    let port = listening
        .strip_prefix("listening on 0.0.0.0:")
        .unwrap_or_else(|| panic!("{listening}"))
        .to_owned();
    let join_with = line();
    let first = join_with
        .strip_prefix("join with: banco join ")
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("{join_with}"))
        .to_owned();
    let at: std::net::SocketAddr = first.parse().unwrap();
    assert!(
        !at.ip().is_unspecified() && at.port().to_string() == port,
        "{join_with}"
    );
    assert!(
        line().starts_with("offering "),
        "the next lines are unchanged"
    );
    let mut guest = Command::new(exe)
        .env("BANCO_DATA_DIR", &dirs[1])
        .args(["join", &first, "--name", "Guest", "--no-color"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    while !line().contains("(calling itself \"Guest\")") {}
    for child in [&mut guest, &mut host] {
        let _ = child.kill();
        let _ = child.wait();
    }
    let _ = std::fs::remove_dir_all(dirs[0].parent().unwrap());
}

/// revB D3: `--clock` is read, or refused with what to type, before anyone joins (and a
/// lines race has no clock); an untimed jieqi host is told what it risks.
#[test]
fn a_bad_clock_is_refused_before_anyone_joins() {
    let dir = crate::common::process_dir("badclock");
    let data = dir.to_string_lossy();
    let host = |extra: &[&str]| {
        let args = [
            &["host", "--no-mdns", "--port", "0", "--data-dir", &data],
            extra,
        ]
        .concat();
        banco(&args)
    };
    for (clock, words) in [
        ("0.1", "shorter than the minimum of 10 s"),
        ("5:00", "write MINUTES or MINUTES+SECONDS"),
        ("1441", "longer than 24 hours"),
        ("5+7200", "more than an hour added per move"),
    ] {
        let out = host(&["--clock", clock]);
        assert_eq!(out.status.code(), Some(2), "{clock}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--clock: ") && err.contains(words),
            "{clock}: {err}"
        );
    }
    let out = host(&["--game", "lines", "--clock", "5"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--race-secs"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// revB D3: a jieqi match on a clock (`--clock 0.5+1`): the guest sees the clock in the
/// proposal, both tables show both clocks after the moves, and the game ends with the same
/// result line on both sides.
#[test]
fn a_timed_jieqi_match_shows_its_clocks_and_ends_alike() {
    let (h, g) = play_over_loopback("jieqi", &["--clock", "0.5+1"], &data_dirs("timed"));
    assert!(
        g.contains("the other player proposes jieqi (asian rules), clock 30 s + 1 s per move"),
        "{g}"
    );
    for text in [&h, &g] {
        assert!(
            text.lines()
                .any(|l| l.starts_with("clocks: you ") && l.contains(" · opponent ")),
            "{text}"
        );
        assert!(text.contains(" (running)"), "{text}");
    }
}

/// revB D3: a player who never moves loses on time: the host's engine (red) plays its
/// first move, the guest (a person whose input stays open) types nothing, and after the
/// guest's 10 s both sides print the loss on time and the same `result 1-0` line.
#[test]
fn a_player_who_never_moves_loses_on_time() {
    let dirs = data_dirs("flag");
    let (mut host, addr, host_out) =
        spawn_engine_host(&dirs[0], "xiangqi", "1", &["--clock", "10s"]);
    let guest_dir = dirs[1].display().to_string();
    let mut guest = common::Live::start(&[
        "join",
        &addr,
        "--yes",
        "--no-color",
        "--name",
        "Guest",
        "--data-dir",
        &guest_dir,
    ]);
    guest.send("", "clock 10 s");
    let clocks = guest.send("", "clocks: you ");
    // Waiting for the flag: the guest's clock runs (no assertion on how long it took).
    let result = guest.send("", "result ");
    let g = guest.quit();
    let deadline = Instant::now() + Duration::from_secs(30);
    let host_status = common::wait_until(&mut host, deadline);
    let h = host_out.join().unwrap();
    assert!(host_status.is_some_and(|s| s.success()), "{h}");
    assert!(
        clocks.starts_with("clocks: you 0:") && clocks.contains(" · opponent 0:"),
        "{clocks}"
    );
    assert!(g.contains("game over: red wins by timeout"), "{g}");
    assert!(h.contains("game over: red wins by timeout"), "{h}");
    assert!(result.starts_with("result 1-0 fen "), "{result}");
    assert_eq!(last_line(&h), result, "{h}");
    let _ = std::fs::remove_dir_all(dirs[0].parent().unwrap());
}

/// revB D5: a set-up start is shown to the guest before it answers — the board as the
/// table draws it, from the guest's side, and the FEN — not only "from a set-up
/// position" (here a lone red king against a full black army).
#[test]
fn the_guest_sees_a_set_up_start_before_accepting_it() {
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/9/9/4K4 w - - 0 1";
    let host_args = ["--fen", fen, "--color", "black"];
    let (_, g) = play_over_loopback("xiangqi", &host_args, &data_dirs("setup"));
    let at = |needle: &str| g.find(needle).unwrap_or_else(|| panic!("{needle}:\n{g}"));
    let shown = at("the proposed start position:");
    let fen_line = at(&format!("start fen {fen}"));
    let asked = at("from a set-up position, untimed, you play red. Accept?");
    assert!(shown < fen_line && fen_line < asked, "{g}");
    // The board between: black's army at the top, the lone red king at the bottom.
    let board = &g[shown..fen_line];
    assert!(board.contains("車 馬 象 士 將 士 象 馬 車"), "{board}");
    assert_eq!(board.matches('帥').count(), 1, "{board}");
}
