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
        "a kept game of 1 move (2 plies) is in {keep}: `banco play --continue --keep {keep}` goes on with it; this new game replaces it at your first move"
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
    assert!(
        text.contains("continuing the kept game: 1 move (2 plies)"),
        "{text}"
    );
    // The first move of a new game replaces it.
    let text = play_kept(keep, &[], "h0g2\nquit\n");
    assert!(text.contains(&waiting), "{text}");
    assert!(
        text.contains("the game is kept: `banco play --continue"),
        "{text}"
    );
    let text = play_kept(keep, &["--continue"], "fen\nquit\n");
    assert!(
        text.contains("continuing the kept game: 1 move (2 plies)"),
        "{text}"
    );
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
    assert!(
        text.contains("continuing the kept game: 1 move (2 plies)"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A failure to keep the game is said once and tried again at the next move: once the
/// obstacle is gone the game is kept again, and said so.
#[test]
fn keeping_is_tried_again_after_a_failure() {
    // Its folder's name is taken by a file: the folder cannot be made until it is gone.
    let blocked = temp("blocked");
    let _ = std::fs::remove_dir_all(&blocked);
    std::fs::write(&blocked, "my notes").unwrap();
    let kept = blocked.join("kept.banco");
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
    std::fs::remove_file(&blocked).unwrap();
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
    assert!(
        text.contains("continuing the kept game: 2 moves (4 plies)"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&blocked);
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
            "a kept game of 2 moves (4 plies) is in {keep}: `banco play --continue --keep {keep}` goes on with it; this new game replaces it at your first move"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("the kept game in {keep} is as it was")),
        "{text}"
    );
    let text = play_kept(keep, &["--continue"], "quit\n");
    assert!(
        text.contains("continuing the kept game: 2 moves (4 plies)"),
        "{text}"
    );
    // The first move of the new game replaces it.
    let text = play_kept(keep, &["--continue"], "new\nh2e2\nquit\n");
    assert!(text.contains("a kept game of 2 moves (4 plies)"), "{text}");
    let text = play_kept(keep, &["--continue"], "quit\n");
    assert!(
        text.contains("continuing the kept game: 1 move (2 plies)"),
        "{text}"
    );
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
        assert!(
            text.contains("continuing the kept game: 1 move (2 plies)"),
            "{text}"
        );
    }
    assert_eq!(std::fs::read(&first).unwrap(), &sound[..sound.len() - 3]);
    for f in [&kept, &first, &second] {
        let _ = std::fs::remove_file(f);
    }
}

/// Two sessions on one keep file: the second is told at once that its game is not kept
/// there (another session keeps its own) and how to keep it, writes nothing, and does not
/// say at the end that its game is kept; the first session's game is the one continued.
#[test]
fn a_second_session_on_the_keep_file_is_told_its_game_is_not_kept() {
    let kept = temp("shared");
    let _ = std::fs::remove_file(&kept);
    let keep = kept.to_str().unwrap();
    let mut first = common::Live::start(&[
        "play",
        "--movetime",
        "5000",
        "--seed",
        "1",
        "--level",
        "1",
        "--no-color",
        "--keep",
        keep,
    ]);
    first.send("h2e2\n", "banco plays");
    // The first session writes at its next prompt: wait until that prompt has read a line.
    first.send("fen\n", "red> fen");
    let before = std::fs::read(&kept).unwrap();
    let text = play_kept(keep, &["--game", "chess"], "e4\nquit\n");
    assert!(
        text.contains(&format!(
            "another banco session is keeping its game in {keep}: this game is not kept there (`save FILE` saves it, or choose another --keep file)"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "this game was not kept: another banco session keeps its game in {keep}"
        )),
        "{text}"
    );
    assert!(!text.contains("the game is kept"), "{text}");
    assert_eq!(std::fs::read(&kept).unwrap(), before);
    let text = first.quit();
    assert!(text.contains("the game is kept"), "{text}");
    // Once the first session has left, the file is free again.
    let text = play_kept(keep, &["--continue"], "quit\n");
    assert!(text.contains("Banco xiangqi"), "{text}");
    assert!(
        text.contains("continuing the kept game: 1 move (2 plies)"),
        "{text}"
    );
    assert!(!text.contains("another banco session"), "{text}");
    let _ = std::fs::remove_file(&kept);
}

/// `--keep` naming a file that is not a game record: said once, at the start, with what to
/// do (choose another `--keep` file), never retried at every move, and the file is left
/// as it is (no copy set aside as if it were a damaged game).
#[test]
fn a_keep_file_that_is_not_a_record_is_refused_once() {
    let notes = temp("notes");
    std::fs::write(&notes, "my notes\n").unwrap();
    let keep = notes.to_str().unwrap();
    let text = play_kept(keep, &[], "h2e2\nh0g2\nquit\n");
    assert!(
        text.contains(&format!(
            "{keep} already exists and is not a saved game: this game is not kept there — choose another --keep file (`save FILE` saves it)"
        )),
        "{text}"
    );
    assert_eq!(text.matches("is not a saved game").count(), 1, "{text}");
    assert!(!text.contains("trying again"), "{text}");
    assert!(
        text.contains(&format!(
            "this game was not kept: {keep} is not a game record Banco may replace"
        )),
        "{text}"
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");
    assert!(!temp("notes.damaged").exists());
}

/// A finished game is kept for review, and said so: at the end of the session, by
/// `--continue` (which opens it, over) and by the next new session.
#[test]
fn a_finished_game_is_kept_for_review() {
    let kept = temp("finished");
    let _ = std::fs::remove_file(&kept);
    let keep = kept.to_str().unwrap();
    let text = play_kept(keep, &[], "h2e2\nresign\nquit\n");
    assert!(
        text.contains(&format!(
            "the finished game is kept for review: `banco play --continue --keep {keep}` opens it (undo takes moves back)"
        )),
        "{text}"
    );
    assert!(!text.contains("goes on with it"), "{text}");
    let text = play_kept(keep, &["--continue"], "quit\n");
    assert!(
        text.contains(
            "the kept game of 1 move (2 plies) is over (0-1 resignation): here it is for review"
        ),
        "{text}"
    );
    let text = play_kept(keep, &[], "quit\n");
    assert!(
        text.contains(&format!(
            "a finished game of 1 move (2 plies) is kept in {keep} for review: `banco play --continue --keep {keep}` opens it; this new game replaces it at your first move"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "the kept game in {keep} is as it was: `banco play --continue --keep {keep}` opens it for review"
        )),
        "{text}"
    );
    let _ = std::fs::remove_file(&kept);
}

/// `banco edit`'s `play` keeps its game as `banco play` does (here in the file `--keep`
/// names; at the keyboard the data directory's `last-game`), and `banco play --continue`
/// goes on with it.
#[test]
fn a_game_played_from_the_editor_is_kept() {
    let kept = temp("edited");
    let _ = std::fs::remove_file(&kept);
    let keep = kept.to_str().unwrap();
    let fen = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1";
    let o = banco_stdin(
        &["edit", "--no-color", "--fen", fen, "--keep", keep],
        "play 1\ne1e2\nquit\n",
    );
    let text = stdout(&o);
    assert!(o.status.success(), "{text}");
    assert!(
        text.contains(&format!(
            "the game is kept: `banco play --continue --keep {keep}` goes on with it"
        )),
        "{text}"
    );
    let text = play_kept(keep, &["--continue"], "fen\nquit\n");
    assert!(
        text.contains("continuing the kept game: 1 move (2 plies)"),
        "{text}"
    );
    let _ = std::fs::remove_file(&kept);
}

/// `save ~/FILE` and `load ~/FILE` at the prompt: `~` is the home folder.
#[test]
fn a_leading_tilde_is_the_home_folder() {
    let home = temp("home");
    std::fs::create_dir_all(&home).unwrap();
    let out = common::banco_env(
        &["play", "--no-color", "--level", "1", "--movetime", "50"],
        &[("HOME", home.to_str().unwrap())],
        b"save ~/x.pgn\nload ~/x.pgn\nquit\n",
    );
    let text = stdout(&out);
    assert!(
        text.contains(&format!("saved {} (", home.join("x.pgn").display())),
        "{text}"
    );
    assert!(text.contains("loaded ~/x.pgn: no moves"), "{text}");
    assert!(home.join("x.pgn").exists());
}
