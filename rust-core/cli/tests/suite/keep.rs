//! `banco play --keep` / `--continue`: the game in progress is kept after every change, a
//! new game never replaces a kept one before the player's first move, a missing folder is
//! created, and a failure to keep is tried again.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;
use common::{banco_stdin, stdout};

fn temp(name: &str) -> std::path::PathBuf {
    common::temp("keep", name)
}

/// `banco play --movetime 20 --no-color --keep FILE` and `extra` (`--level 1` unless it
/// names a level), `script` piped.
fn play_kept(keep: &str, extra: &[&str], script: &str) -> String {
    // The computer's replies repeat: a seed, and a move time its level's node cap always
    // ends first (20 ms could end level 1's search early on a loaded machine, and then
    // another reply could upset the positions checked below).
    let mut args = vec![
        "play",
        "--movetime",
        "5000",
        "--seed",
        "1",
        "--no-color",
        "--keep",
        keep,
    ];
    if !extra.contains(&"--level") {
        args.extend_from_slice(&["--level", "1"]);
    }
    args.extend_from_slice(extra);
    let out = banco_stdin(&args, script);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    text
}

/// A new game started without `--continue` says that a game is kept and how to go on with
/// it, and leaves it alone until the player moves: quitting at once, or as Black after the
/// computer's first move, keeps the old game; the first move replaces it.
#[test]
fn a_new_game_replaces_the_kept_one_only_at_the_first_move() {
    let kept = temp("kept.banco");
    let _ = std::fs::remove_file(&kept);
    let keep = kept.to_str().unwrap();
    play_kept(keep, &[], "h2e2\nquit\n");
    let before = std::fs::read(&kept).unwrap();
    let waiting = format!(
        "a kept game of 2 moves is in {keep}: `banco play --continue --keep {keep}` goes on with it; this new game replaces it at your first move"
    );
    for extra in [&[][..], &["--color", "black"][..]] {
        let text = play_kept(keep, extra, "quit\n");
        assert!(text.contains(&waiting), "{text}");
        assert!(
            text.contains(&format!("the kept game in {keep} is as it was")),
            "{text}"
        );
        assert_eq!(std::fs::read(&kept).unwrap(), before, "{text}");
    }
    // `--continue` still has the two moves.
    let text = play_kept(keep, &["--continue"], "quit\n");
    assert!(text.contains("continuing the kept game: 2 moves"), "{text}");
    // The first move of a new game replaces it.
    let text = play_kept(keep, &[], "h0g2\nquit\n");
    assert!(text.contains(&waiting), "{text}");
    assert!(
        text.contains("the game is kept: `banco play --continue"),
        "{text}"
    );
    let text = play_kept(keep, &["--continue"], "fen\nquit\n");
    assert!(text.contains("continuing the kept game: 2 moves"), "{text}");
    assert!(text.contains("/1C4NC1/9/RNBAKAB1R w"), "{text}");
    let _ = std::fs::remove_file(&kept);
}

/// `--continue` with `--game`, `--level` or `--color` of another game: the kept game's
/// apply, and the player is told so.
#[test]
fn continue_names_the_options_that_do_not_apply() {
    let kept = temp("kept-options.banco");
    let _ = std::fs::remove_file(&kept);
    let keep = kept.to_str().unwrap();
    play_kept(
        keep,
        &["--game", "chess", "--color", "black", "--level", "2"],
        "e5\nquit\n",
    );
    let text = play_kept(
        keep,
        &[
            "--continue",
            "--game",
            "jieqi",
            "--level",
            "9",
            "--color",
            "red",
        ],
        "quit\n",
    );
    assert!(
        text.contains("--game jieqi, --level 9 do not apply with --continue: the kept game is chess, you play black at level 2 (`level N` changes the level)"),
        "{text}"
    );
    // The same values as the kept game's: nothing to say.
    let text = play_kept(keep, &["--continue", "--level", "2"], "quit\n");
    assert!(!text.contains("do not apply"), "{text}");
    let _ = std::fs::remove_file(&kept);
}

/// The folder of the kept game is created (a fresh install has no data folder yet), and
/// `--continue` finds the game there.
#[test]
fn the_kept_games_folder_is_created() {
    let dir = temp("fresh");
    let _ = std::fs::remove_dir_all(&dir);
    let kept = dir.join("data/banco/last-game");
    let keep = kept.to_str().unwrap();
    let text = play_kept(keep, &[], "h2e2\nquit\n");
    assert!(!text.contains("could not keep"), "{text}");
    let text = play_kept(keep, &["--continue"], "quit\n");
    assert!(text.contains("continuing the kept game: 2 moves"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A failure to keep the game is said once and tried again at the next move: once the
/// obstacle is gone the game is kept again, and said so.
#[test]
fn keeping_is_tried_again_after_a_failure() {
    let kept = temp("blocked.banco");
    std::fs::write(&kept, "my notes").unwrap();
    let keep = kept.to_str().unwrap();
    let args = [
        "play",
        "--level",
        "1",
        "--movetime",
        "20",
        "--no-color",
        "--keep",
        keep,
    ];
    let mut session = common::Live::start(&args);
    let line = session.send("h2e2\n", "could not keep the game in");
    assert!(line.contains("trying again at your next move"), "{line}");
    std::fs::remove_file(&kept).unwrap();
    session.send("h0g2\n", "banco plays");
    let text = session.quit();
    assert_eq!(text.matches("could not keep").count(), 1, "{text}");
    assert!(
        text.contains(&format!("the game is kept again in {}", kept.display())),
        "{text}"
    );
    assert!(
        text.contains("the game is kept: `banco play --continue"),
        "{text}"
    );
    let text = play_kept(kept.to_str().unwrap(), &["--continue"], "quit\n");
    assert!(text.contains("continuing the kept game: 4 moves"), "{text}");
    let _ = std::fs::remove_file(&kept);
}

/// `new` in a session holds the game in progress as a new session does (review revC F4):
/// said with the same notice, kept in the file until the player's first move in the new
/// game, and still there when the player leaves before one.
#[test]
fn new_keeps_the_game_in_progress_until_the_first_move() {
    let kept = temp("kept-new.banco");
    let _ = std::fs::remove_file(&kept);
    let keep = kept.to_str().unwrap();
    let text = play_kept(keep, &[], "h2e2\nh0g2\nnew\nundo\nquit\n");
    assert!(
        text.contains(&format!(
            "a kept game of 4 moves is in {keep}: `banco play --continue --keep {keep}` goes on with it; this new game replaces it at your first move"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("the kept game in {keep} is as it was")),
        "{text}"
    );
    let text = play_kept(keep, &["--continue"], "quit\n");
    assert!(text.contains("continuing the kept game: 4 moves"), "{text}");
    // The first move of the new game replaces it.
    let text = play_kept(keep, &["--continue"], "new\nh2e2\nquit\n");
    assert!(text.contains("a kept game of 4 moves"), "{text}");
    let text = play_kept(keep, &["--continue"], "quit\n");
    assert!(text.contains("continuing the kept game: 2 moves"), "{text}");
    let _ = std::fs::remove_file(&kept);
}

/// A kept game this build cannot continue is never lost (review revC F5), as the apps'
/// kept records: a newer Banco's is not written over in the session (said once, with
/// `banco` to update); a damaged one is copied to `NAME.damaged` (an earlier copy kept,
/// the next one beside it) before the first move replaces it.
#[test]
fn a_kept_game_that_cannot_be_continued_is_never_lost() {
    let kept = temp("last-game");
    let _ = std::fs::remove_file(&kept);
    let keep = kept.to_str().unwrap();
    play_kept(keep, &[], "h2e2\nquit\n");
    let sound = std::fs::read(&kept).unwrap();
    let mut newer = sound.clone();
    newer[8] = 7;
    std::fs::write(&kept, &newer).unwrap();
    let text = play_kept(keep, &[], "h2e2\nh0g2\nnew\nh2e2\nquit\n");
    assert!(
        text.contains(&format!(
            "the kept game in {keep} cannot be continued here (this game was saved by a newer Banco (format 7); update banco to open it): it is left as it is, and this game is not kept"
        )),
        "{text}"
    );
    assert_eq!(text.matches("newer Banco").count(), 1, "{text}");
    assert!(!text.contains("update the app"), "{text}");
    assert!(!text.contains("the game is kept"), "{text}");
    assert_eq!(std::fs::read(&kept).unwrap(), newer);
    // Damaged (cut short): copied aside, then replaced at the first move.
    let first = temp("last-game.damaged");
    let second = temp("last-game.2.damaged");
    let _ = std::fs::remove_file(&first);
    let _ = std::fs::remove_file(&second);
    for (cut, aside) in [(3, &first), (5, &second)] {
        let damaged = &sound[..sound.len() - cut];
        std::fs::write(&kept, damaged).unwrap();
        let text = play_kept(keep, &[], "h2e2\nquit\n");
        assert!(
            text.contains(&format!(
                "the kept game in {keep} cannot be continued (this saved game cannot be loaded: the saved game is damaged: the file ends before the record does (it was cut short)); a copy of it is kept in {}: this game replaces it at your first move",
                aside.display()
            )),
            "{text}"
        );
        assert_eq!(std::fs::read(aside).unwrap(), damaged);
        let text = play_kept(keep, &["--continue"], "quit\n");
        assert!(text.contains("continuing the kept game: 2 moves"), "{text}");
    }
    assert_eq!(std::fs::read(&first).unwrap(), &sound[..sound.len() - 3]);
    for f in [&kept, &first, &second] {
        let _ = std::fs::remove_file(f);
    }
}
