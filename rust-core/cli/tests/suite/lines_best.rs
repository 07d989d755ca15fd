//! `banco play --game lines`'s best scores by kind of game: `best` shows the table of the
//! game on the board under its kind in words, `best all` every kind's; a game of other
//! rules does not compete; a table written before the kinds shows as the earlier games.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::{banco_stdin, stdout};
use banco_lines::{Settings, UndoRule};
use std::path::{Path, PathBuf};

/// A game of `settings` saved one move before its end (greedy moves from seed 8), and
/// that last move typed.
fn near_the_end(dir: &Path, settings: Settings, name: &str) -> (PathBuf, String) {
    let (file, last, _) = crate::lines::near_the_end(dir, settings, name);
    (file, last)
}

const CLASSIC: &str = "best scores — classic, 5 balls, undo of the last turn, untimed";
const NO_UNDO: &str = "best scores — classic, 5 balls, no undo, untimed";

#[test]
fn each_kind_of_game_has_its_own_table() {
    let dir = crate::common::fresh_dir("lines-kinds");
    let best = dir.join("best");
    let best_arg = best.to_str().unwrap();
    let args = crate::common::lines_args(best_arg);
    let no_undo: Vec<&str> = args.iter().copied().chain(["--no-undo"]).collect();
    let t = stdout(&banco_stdin(&args, "best\nbest all\nquit\n"));
    assert!(t.contains(CLASSIC), "{t}");
    assert!(t.contains("no finished game of this kind yet"), "{t}");
    assert!(t.contains("no finished game yet"), "{t}");

    // A game of the usual settings, then the same game without undo: each first of its kind.
    let (usual, last) = near_the_end(&dir, Settings::default(), "usual.banco");
    let t = stdout(&banco_stdin(
        &args,
        &format!("load {}\n{last}\nquit\n", usual.display()),
    ));
    assert!(
        t.contains("best score #1 (classic, 5 balls, undo of the last turn, untimed)"),
        "{t}"
    );
    let strict = Settings::new(5, UndoRule::Off).unwrap();
    let (strict, last) = near_the_end(&dir, strict, "strict.banco");
    let t = stdout(&banco_stdin(
        &args,
        &format!("load {}\n{last}\nbest\nquit\n", strict.display()),
    ));
    assert!(
        t.contains("best score #1 (classic, 5 balls, no undo, untimed)"),
        "{t}"
    );
    // `best` shows the loaded game's kind: its one entry.
    let shown = t.split(NO_UNDO).nth(1).expect(NO_UNDO);
    assert!(shown.contains(" 1. ") && !shown.contains(" 2. "), "{t}");

    // A new session of each kind shows its own table; `best all` both.
    let t = stdout(&banco_stdin(&no_undo, "best\nquit\n"));
    assert!(t.contains(NO_UNDO) && !t.contains(CLASSIC), "{t}");
    assert!(t.contains(" 1. ") && !t.contains(" 2. "), "{t}");
    let t = stdout(&banco_stdin(&args, "best\nbest all\nbest twice\nquit\n"));
    let all = t.split("best scores — ").count() - 1;
    assert_eq!(all, 3, "this kind's, then both:\n{t}");
    let all = t.split("best all").nth(1).unwrap();
    let no_undo_at = all.find(NO_UNDO).expect(NO_UNDO);
    assert!(
        all.find(CLASSIC).is_some_and(|at| at > no_undo_at),
        "the strictest undo first:\n{t}"
    );
    assert!(t.contains("`best all` every kind's"), "{t}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_table_written_before_the_kinds_shows_as_earlier_games() {
    let dir = crate::common::fresh_dir("lines-v2");
    let best = dir.join("best");
    std::fs::write(
        &best,
        include_bytes!("../../../../tests/data/lines/best-scores-v2.bin"),
    )
    .unwrap();
    let args = crate::common::lines_args(best.to_str().unwrap());
    let t = stdout(&banco_stdin(&args, "best\nbest all\nquit\n"));
    assert!(t.contains("no finished game of this kind yet"), "{t}");
    assert!(
        t.contains("(`best all` shows the other kinds of game)"),
        "{t}"
    );
    let earlier = t
        .split("best scores — earlier games (rules not recorded)\n")
        .nth(1)
        .expect("the earlier games");
    assert!(
        earlier.contains(" 1.     82     44 turns  2026-12-04"),
        "{t}"
    );
    assert!(earlier.contains(" 6. ") && !earlier.contains(" 7. "), "{t}");
    // A game finished now enters its own kind; the file is then of version 5 with both.
    let (game, last) = near_the_end(&dir, Settings::default(), "usual.banco");
    let t = stdout(&banco_stdin(
        &args,
        &format!("load {}\n{last}\nquit\n", game.display()),
    ));
    assert!(t.contains("best score #1 (classic"), "{t}");
    let bytes = std::fs::read(&best).unwrap();
    assert_eq!(bytes[0], 6);
    let t = stdout(&banco_stdin(&args, "best all\nquit\n"));
    assert!(t.contains(CLASSIC) && t.contains("earlier games"), "{t}");
    let _ = std::fs::remove_dir_all(&dir);
}

const HINT_NOTE: &str = "(hints used: this game ranks among games played with hints)";
const HINTED: &str = "classic, 5 balls, undo of the last turn, untimed, with hints";

/// A game in which the player asked for a hint: the first hint says so, once; kept and
/// continued, or saved and loaded, the game says so again; it enters the table of games with hints, which `best`
/// shows under its kind, and another game played without a hint enters the usual table.
#[test]
fn a_game_with_hints_ranks_among_games_with_hints() {
    let dir = crate::common::fresh_dir("lines-hints");
    let best = dir.join("best");
    let hinted = dir.join("hinted.banco");
    let args = crate::common::lines_args(best.to_str().unwrap());
    let (game, last) = near_the_end(&dir, Settings::default(), "usual.banco");
    let script = format!(
        "load {}\nhint\nhint\nsave {}\nquit\n",
        game.display(),
        hinted.display()
    );
    let kept = dir.join("kept.banco");
    let keep = [&args[..], &["--keep", kept.to_str().unwrap()]].concat();
    let t = stdout(&banco_stdin(&keep, &script));
    assert_eq!(t.matches("hint: ").count(), 2, "{t}");
    assert_eq!(t.matches(HINT_NOTE).count(), 1, "said once:\n{t}");
    let continued = [&keep[..], &["--continue"]].concat();
    let t = stdout(&banco_stdin(&continued, "quit\n"));
    assert_eq!(
        t.matches(HINT_NOTE).count(),
        1,
        "said of the kept game:\n{t}"
    );
    let script = format!("load {}\n{last}\nbest\nquit\n", hinted.display());
    let t = stdout(&banco_stdin(&args, &script));
    assert_eq!(
        t.matches(HINT_NOTE).count(),
        1,
        "said of the loaded game:\n{t}"
    );
    assert!(t.contains(&format!("best score #1 ({HINTED})")), "{t}");
    let shown = t
        .split(&format!("best scores — {HINTED}\n"))
        .nth(1)
        .expect("the table of games with hints");
    assert!(shown.contains(" 1. ") && !shown.contains(" 2. "), "{t}");
    // Another game without a hint: first of the usual kind, which the game with hints did
    // not enter; `best all` lists the games with hints after.
    let (plain, last) = near_the_end(&dir, Settings::default(), "plain.banco");
    let script = format!("load {}\n{last}\nbest all\nquit\n", plain.display());
    let t = stdout(&banco_stdin(&args, &script));
    assert!(!t.contains(HINT_NOTE), "{t}");
    assert!(
        t.contains("best score #1 (classic, 5 balls, undo of the last turn, untimed)"),
        "{t}"
    );
    let all = t.split("best all").nth(1).unwrap_or(&t);
    let usual_at = all.find(CLASSIC).expect(CLASSIC);
    assert!(
        all.find(&format!("best scores — {HINTED}"))
            .is_some_and(|at| at > usual_at),
        "{t}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game an app saved against the clock, loaded in the terminal (which keeps no time),
/// goes on untimed, says so, and its ending ranks among untimed games (whose players had
/// all the time they wanted), not under its time limit; one saved with no time left loads
/// over, on time.
#[test]
fn a_game_saved_against_the_clock_goes_on_untimed_in_the_terminal() {
    use banco_app::lines::LinesSession;
    let dir = crate::common::fresh_dir("lines-timed");
    let (game, last) = near_the_end(&dir, Settings::default(), "timed-from.banco");
    let mut s = LinesSession::load(&std::fs::read(&game).unwrap()).unwrap();
    s.start_clock(180_000, 0);
    assert_eq!(s.tick(60_000), Some(120_000));
    let timed = dir.join("timed.banco");
    std::fs::write(&timed, s.save().unwrap()).unwrap();
    assert_eq!(s.tick(180_000), Some(0));
    let spent = dir.join("spent.banco");
    std::fs::write(&spent, s.save().unwrap()).unwrap();

    let best = dir.join("best");
    let args = crate::common::lines_args(best.to_str().unwrap());
    let t = stdout(&banco_stdin(
        &args,
        &format!("load {}\n{last}\nquit\n", timed.display()),
    ));
    assert!(t.contains("it goes on untimed"), "{t}");
    assert!(
        t.contains("best score #1 (classic, 5 balls, undo of the last turn, untimed)"),
        "{t}"
    );
    let t = stdout(&banco_stdin(
        &args,
        &format!("load {}\n{last}\nquit\n", spent.display()),
    ));
    assert!(!t.contains("it goes on untimed"), "{t}");
    assert!(t.contains("the time is up"), "{t}");
    assert!(!t.contains("best score #"), "{t}");
}
