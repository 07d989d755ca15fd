//! One save format for every front end: a game saved by `banco play` loads in the bindings
//! (what the apps use), and a game saved by the bindings loads in `banco play` — for xiangqi
//! and chess, with the same position on both sides.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use banco_ffi::{Game, GameKind, Notation};
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

/// Runs `banco play` with a script; returns its standard output.
fn play(game: &str, script: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_banco"))
        .args([
            "play",
            "--game",
            game,
            "--level",
            "1",
            "--movetime",
            "20",
            "--no-color",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The last line that is a FEN of this game.
fn last_fen(text: &str) -> String {
    text.lines()
        .rfind(|l| l.matches('/').count() >= 7 && !l.starts_with("result"))
        .unwrap_or_else(|| panic!("no FEN in\n{text}"))
        .to_owned()
}

fn round_trip(kind: GameKind, name: &str, moves: &[&str], dir: &Path) {
    // The command line saves; the bindings load.
    let from_cli = dir.join(format!("{name}-cli.banco"));
    let script = format!("{}\nfen\nsave {}\n", moves.join("\n"), from_cli.display());
    let out = play(name, &script);
    let cli_fen = last_fen(&out);
    let game = Game::load(std::fs::read(&from_cli).unwrap()).unwrap();
    assert_eq!(game.kind().unwrap(), kind);
    assert_eq!(game.fen().unwrap(), cli_fen);

    // The bindings save; the command line loads.
    game.undo().unwrap();
    let reply = game.legal_moves().unwrap()[0];
    game.play(reply).unwrap();
    let from_ffi = dir.join(format!("{name}-ffi.banco"));
    std::fs::write(&from_ffi, game.save().unwrap()).unwrap();
    let out = play(name, &format!("load {}\nfen\n", from_ffi.display()));
    assert_eq!(last_fen(&out), game.fen().unwrap(), "{out}");
    assert!(
        out.contains(&format!("loaded {}", from_ffi.display())),
        "{out}"
    );
    let _ = game.history_text(Notation::Coordinate).unwrap();
}

#[test]
fn saves_cross_the_command_line_and_the_bindings() {
    let dir = crate::common::fresh_dir("saves");
    round_trip(GameKind::Xiangqi, "xiangqi", &["h2e2"], &dir);
    round_trip(GameKind::Chess, "chess", &["e4"], &dir);
    // A damaged file is refused by both with a reason, and nothing is loaded.
    let bad = dir.join("bad.banco");
    std::fs::write(&bad, b"\x89BANCO\r\n\x01garbage").unwrap();
    assert!(Game::load(std::fs::read(&bad).unwrap()).is_err());
    let out = play("xiangqi", &format!("load {}\n", bad.display()));
    assert!(out.contains("could not load"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn saves_from_play_are_dated_today() {
    // $BANCO_TODAY fixes "today" (else the local date); every format carries it, and a
    // loaded game saved again is dated again.
    let dir = crate::common::fresh_dir("dated");
    let (pgn, txt, save) = (dir.join("a.pgn"), dir.join("a.txt"), dir.join("a.banco"));
    let script = format!(
        "h2e2\nsave {}\nsave {}\nsave {}\nquit\n",
        pgn.display(),
        txt.display(),
        save.display()
    );
    let args = ["play", "--level", "1", "--movetime", "20", "--no-color"];
    let out = crate::common::banco_env(&args, &[("BANCO_TODAY", "2026-12-06")], script.as_bytes());
    assert!(out.status.success(), "{}", crate::common::stdout(&out));
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();
    assert!(pgn_text.contains("[Date \"2026.12.06\"]"), "{pgn_text}");
    assert!(pgn_text.contains("[Event \"Banco game\"]"), "{pgn_text}");
    let txt_text = std::fs::read_to_string(&txt).unwrap();
    assert!(txt_text.contains("[Date \"2026.12.06\"]"), "{txt_text}");
    let again = dir.join("b.pgn");
    let script = format!("load {}\nsave {}\nquit\n", save.display(), again.display());
    crate::common::banco_env(&args, &[("BANCO_TODAY", "2027-01-02")], script.as_bytes());
    let again_text = std::fs::read_to_string(&again).unwrap();
    assert!(again_text.contains("[Date \"2027.01.02\"]"), "{again_text}");
    assert_eq!(again_text.matches("[Date ").count(), 1, "{again_text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_game_shared_from_a_phone_loads_with_its_player_and_level() {
    // A chess game the phones shared before `Human` and `Level` (the player's own name
    // against `Banco (level 3)`), one the command line wrote (`Player` against `Banco level
    // 3`) and one written as every front end now writes it: imported and loaded in a game
    // set up for level 7 as Black, each goes on with the record's player, and says so again
    // when saved.
    let dir = crate::common::fresh_dir("roster");
    let moves = "\n1. e4 e5 2. Nf3 *\n";
    for (name, roster) in [
        ("phone", "[White \"An\"]\n[Black \"Banco (level 3)\"]\n"),
        ("cli", "[White \"Player\"]\n[Black \"Banco level 3\"]\n"),
        (
            "now",
            "[White \"An\"]\n[Black \"Banco level 3\"]\n[Human \"White\"]\n[Level \"3\"]\n",
        ),
    ] {
        let pgn = dir.join(format!("{name}.pgn"));
        std::fs::write(&pgn, format!("[Event \"Banco game\"]\n{roster}{moves}")).unwrap();
        let save = dir.join(format!("{name}.banco"));
        let out = crate::common::banco(&[
            "pgn",
            "import",
            pgn.to_str().unwrap(),
            "-o",
            save.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", crate::common::stdout(&out));
        let (again, txt) = (
            dir.join(format!("{name}-again.pgn")),
            dir.join(format!("{name}.txt")),
        );
        let script = format!(
            "load {}\nsave {}\nsave {}\nquit\n",
            save.display(),
            again.display(),
            txt.display()
        );
        let args = [
            "play",
            "--game",
            "chess",
            "--level",
            "7",
            "--color",
            "black",
            "--movetime",
            "20",
            "--no-color",
        ];
        let out =
            crate::common::banco_env(&args, &[("BANCO_TODAY", "2026-12-06")], script.as_bytes());
        assert!(out.status.success(), "{}", crate::common::stdout(&out));
        let again_text = std::fs::read_to_string(&again).unwrap();
        for tag in [
            // The command line names its player `Player`.
            "[White \"Player\"]",
            "[Black \"Banco level 3\"]",
            "[Human \"White\"]",
            "[Level \"3\"]",
            "[Date \"2026.12.06\"]",
        ] {
            assert!(again_text.contains(tag), "{name}: {tag} in {again_text}");
        }
        assert_eq!(again_text.matches("[Level ").count(), 1, "{again_text}");
        let txt_text = std::fs::read_to_string(&txt).unwrap();
        assert!(
            txt_text.contains("[Human \"White\"]") && txt_text.contains("[Level \"3\"]"),
            "{name}: {txt_text}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `load` says the side and level the loaded file puts in effect (they replace the
/// session's): a game saved at level 8 loaded in a level-2 session.
#[test]
fn load_says_the_side_and_level_in_effect() {
    let file = std::env::temp_dir().join(format!("banco-saves-level-{}.banco", std::process::id()));
    let _ = std::fs::remove_file(&file);
    let o = crate::common::banco_stdin(
        &[
            "play",
            "--no-color",
            "--level",
            "8",
            "--color",
            "black",
            "--movetime",
            "20",
        ],
        &format!("save {}\nquit\n", file.display()),
    );
    assert!(o.status.success());
    let o = crate::common::banco_stdin(
        &["play", "--no-color", "--level", "2", "--movetime", "20"],
        &format!("load {}\nquit\n", file.display()),
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains(&format!(
            "loaded {}: 1 move (1 ply); you play black against level 8",
            file.display()
        )),
        "{text}"
    );
    let _ = std::fs::remove_file(&file);
}
