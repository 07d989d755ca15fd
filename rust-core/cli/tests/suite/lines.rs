//! `banco play --game lines` and `banco bench lines` as a user or a script drives them.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;
use common::banco_stdin;

/// The cell of the first ball on the drawn board (rank 9 first) and an empty cell next to it.
fn first_move(text: &str) -> String {
    for line in text.lines() {
        let mut parts = line.split_whitespace();
        let Some(rank) = parts.next().and_then(|r| r.parse::<usize>().ok()) else {
            continue;
        };
        let cells: Vec<&str> = parts.collect();
        if cells.len() != 9 {
            continue;
        }
        for (file, c) in cells.iter().enumerate() {
            if *c != "." {
                let from = format!("{}{rank}", (b'a' + file as u8) as char);
                let to_file = if file > 0 && cells[file - 1] == "." {
                    file - 1
                } else {
                    file + 1
                };
                if cells.get(to_file) == Some(&".") {
                    let to = format!("{}{rank}", (b'a' + to_file as u8) as char);
                    return format!("{from} {to}");
                }
            }
        }
    }
    panic!("no ball with a free cell beside it:\n{text}");
}

#[test]
fn play_lines_moves_shows_the_path_undoes_saves_and_loads() {
    let dir = crate::common::fresh_dir("lines");
    let file = dir.join("game.banco");
    let args = ["play", "--game", "lines", "--seed", "9", "--no-color"];
    let out = banco_stdin(&args, "quit\n");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let mv = first_move(&text);
    let script = format!(
        "{mv}\nhint\nundo\n{mv}\nsave {}\nnew\nload {}\nz9 a1\nquit\n",
        file.display(),
        file.display()
    );
    let out = banco_stdin(&args, &script);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("path "), "{text}");
    assert!(text.contains("hint: "), "{text}");
    assert!(text.contains("score 0  turn 2  next "), "{text}");
    assert!(
        text.contains(&format!("loaded {}", file.display())),
        "{text}"
    );
    assert!(text.contains("is not a move"), "{text}");
    // After the load the game is at turn 2 again, as saved.
    let after_load = text.split("loaded").nth(1).unwrap();
    assert!(after_load.contains("turn 2"), "{after_load}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bench_lines_prints_the_summary_last() {
    let out = banco_stdin(
        &[
            "bench",
            "lines",
            "--games",
            "2",
            "--seed",
            "5",
            "--budget",
            "6",
            "--max-turns",
            "30",
        ],
        "",
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    // Both games reach the turn limit.
    common::assert_lines_bench_line(&text, "2", "30");
}

/// A saved game one move before its end (greedy moves, its seed from the name), that last
/// move typed, and the final score.
fn one_move_before_the_end(dir: &std::path::Path) -> (std::path::PathBuf, String, u32) {
    near_the_end(dir, banco_lines::Settings::default(), "near-the-end.banco")
}

/// A game of `settings` (its seed made from `name`: each name its own game, as the best
/// scores enter a game's ending once) played by the greedy player to one move before its
/// end, saved as `dir/name`: the file, that last move typed and the final score.
pub(crate) fn near_the_end(
    dir: &std::path::Path,
    settings: banco_lines::Settings,
    name: &str,
) -> (std::path::PathBuf, String, u32) {
    use banco_app::lines::LinesSession;
    use banco_app::save::SavedLines;
    let mut seed = [8; 32];
    for (i, b) in name.bytes().enumerate() {
        seed[i % 32] ^= b.rotate_left(i as u32 % 8);
    }
    let mut s = LinesSession::new(settings, seed);
    while let Some(m) = banco_lines::ai::greedy_move(s.game()) {
        s.play(m.from, m.to).unwrap();
    }
    let mut saved = SavedLines::of(s.game());
    let last = saved.moves.pop().unwrap();
    let file = dir.join(name);
    std::fs::write(&file, saved.encode().unwrap()).unwrap();
    (file, format!("{} {}", last.from, last.to), s.score())
}

#[test]
fn the_best_scores_are_kept_between_sessions() {
    let dir = crate::common::fresh_dir("lines-best");
    let (game, last, score) = one_move_before_the_end(&dir);
    let best = dir.join("best");
    let best_arg = best.display().to_string();
    let args = crate::common::lines_args(&best_arg);
    let finish = format!("load {}\n{last}\n", game.display());
    let text = |out: std::process::Output| String::from_utf8_lossy(&out.stdout).to_string();

    let t = text(banco_stdin(&args, &format!("{finish}quit\n")));
    assert!(t.contains("best score #1"), "{t}");
    assert!(t.contains("the board is full"), "{t}");
    let t = text(banco_stdin(&args, "best\nquit\n"));
    assert!(t.contains(&format!(" 1. {score:>6}")), "{t}");
    // The same game finished again from its save, its balls known: not entered again.
    let t = text(banco_stdin(&args, &format!("{finish}quit\n")));
    assert!(
        t.contains(banco_app::lines::RANKING_NOTE_PLAYED_BEFORE),
        "{t}"
    );
    assert!(!t.contains("best score #"), "{t}");
    // Another game finished and its ending taken back: entered, then taken out.
    let (other, other_last, _) =
        near_the_end(&dir, banco_lines::Settings::default(), "other.banco");
    let script = format!("load {}\n{other_last}\nundo\nquit\n", other.display());
    let t = text(banco_stdin(&args, &script));
    assert!(t.contains("best score #"), "{t}");
    assert!(t.contains("its ending is out of the best scores"), "{t}");
    let t = text(banco_stdin(&args, "best\nquit\n"));
    assert!(t.contains(" 1. ") && !t.contains(" 2. "), "{t}");

    // A file that is not a best-scores table is reported and left alone.
    let junk = dir.join("junk");
    std::fs::write(&junk, b"not a table").unwrap();
    let junk_arg = junk.display().to_string();
    let t = text(banco_stdin(
        &["play", "--game", "lines", "--best-scores", &junk_arg],
        &format!("{finish}quit\n"),
    ));
    assert!(t.contains("cannot be read"), "{t}");
    // Named for what it is not, not as a table "saved by a newer Banco".
    assert!(
        t.contains("this is not a file of Lines' best scores"),
        "{t}"
    );
    assert!(!t.contains("newer"), "{t}");
    assert_eq!(std::fs::read(&junk).unwrap(), b"not a table");

    // A piped session without --best-scores leaves nothing in the data directory.
    let data = dir.join("data");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_banco"))
        .args(["play", "--game", "lines"])
        .env("BANCO_DATA_DIR", &data)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(
        &mut child.stdin.take().unwrap(),
        format!("{finish}quit\n").as_bytes(),
    )
    .unwrap();
    let t = text(child.wait_with_output().unwrap());
    assert!(t.contains("game over"), "{t}");
    assert!(!data.exists(), "{t}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn board_game_options_are_refused_for_lines() {
    let out = banco_stdin(
        &["play", "--game", "lines", "--fen", "x", "--level", "3"],
        "quit\n",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--fen, --level are for the board games, not Lines"),
        "{err}"
    );
}

/// The board games' engine options (`--movetime`, `--hash`) given to Lines are refused, not
/// ignored.
#[test]
fn engine_options_are_refused_for_lines() {
    let out = banco_stdin(
        &["play", "--game", "lines", "--movetime", "5", "--hash", "1"],
        "quit\n",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--movetime, --hash are for the board games, not Lines"),
        "{err}"
    );
}

/// The reverse: Lines' options given to a board game are refused, not ignored.
#[test]
fn lines_options_are_refused_for_the_board_games() {
    for (args, named) in [
        (&["play", "--preview"][..], "--preview is"),
        (
            &["play", "--balls", "3", "--no-undo"][..],
            "--balls, --no-undo are",
        ),
        (
            &["play", "--game", "chess", "--best-scores", "b"][..],
            "--best-scores is",
        ),
        (&["play", "--hint-playouts", "30"][..], "--hint-playouts is"),
    ] {
        let out = banco_stdin(args, "quit\n");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("{named} for Lines only: add --game lines")),
            "{err}"
        );
    }
}

/// `.txt` and `.pgn` names are the board games' readable exports: a Lines game, which
/// has none, is not written there in its binary format.
#[test]
fn a_lines_game_is_not_saved_under_an_export_name() {
    let dir = crate::common::fresh_dir("lines-export");
    let (txt, pgn) = (dir.join("l.txt"), dir.join("l.pgn"));
    let out = banco_stdin(
        &["play", "--game", "lines", "--seed", "3", "--no-color"],
        &format!("save {}\nsave {}\nquit\n", txt.display(), pgn.display()),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert_eq!(
        text.matches("a Lines game has no readable export").count(),
        2,
        "{text}"
    );
    assert!(!txt.exists() && !pgn.exists(), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A save that cannot be written names the file, as a load that cannot be read does.
#[test]
fn a_failed_save_names_the_file() {
    let dir = crate::common::process_dir("lines-nodir");
    let file = dir.join("missing").join("g.banco");
    let out = banco_stdin(
        &["play", "--game", "lines", "--seed", "3", "--no-color"],
        &format!("save {}\nquit\n", file.display()),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains(&format!("cannot save to {}: ", file.display())),
        "{text}"
    );
    assert!(!file.exists());
}

/// Two sessions share the best-scores file: both read it at the start, then each finishes
/// a game in turn. Each write merges with what the file holds then: no entry is lost.
#[test]
fn two_sessions_sharing_the_best_scores_keep_both_entries() {
    let dir = crate::common::fresh_dir("lines-race");
    let finish = |name: &str| {
        let (game, last, _) = near_the_end(&dir, banco_lines::Settings::default(), name);
        format!("load {}\n{last}\n", game.display())
    };
    let best = dir.join("best");
    let best_arg = best.display().to_string();
    let args = crate::common::lines_args(&best_arg);
    // One entry already.
    let out = banco_stdin(&args, &format!("{}quit\n", finish("first.banco")));
    assert!(String::from_utf8_lossy(&out.stdout).contains("best score #1"));
    // Both sessions have read the table (the board is drawn after it is read).
    let mut a = common::Live::start(&args);
    a.send("board\n", "score 0");
    let mut b = common::Live::start(&args);
    b.send("board\n", "score 0");
    a.send(&finish("a.banco"), "game over");
    b.send(&finish("b.banco"), "game over");
    // b's table shows a's entry as well.
    b.send("best\n", " 3. ");
    let (a, b) = (a.quit(), b.quit());
    assert!(
        !a.contains("cannot keep") && !b.contains("cannot keep"),
        "{a}\n{b}"
    );
    let out = banco_stdin(&args, "best\nquit\n");
    let t = String::from_utf8_lossy(&out.stdout);
    assert!(
        t.contains(" 3. ") && !t.contains(" 4. "),
        "three games, three rows:\n{t}"
    );
    assert!(best.with_file_name("best.lock").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `banco play --game lines --seed S --no-color --keep FILE` and `extra`, `script` piped.
fn play_lines_kept(keep: &str, seed: &str, extra: &[&str], script: &str) -> String {
    let mut args = vec![
        "play",
        "--game",
        "lines",
        "--seed",
        seed,
        "--no-color",
        "--keep",
        keep,
    ];
    args.extend_from_slice(extra);
    let out = banco_stdin(&args, script);
    let text = common::stdout(&out);
    assert!(out.status.success(), "{text}");
    text
}

/// A Lines game is kept as a board game is (review revD F7): after every move, so that
/// the end of the input (or Ctrl-C) loses nothing; `--continue` goes on with it; a new game
/// says that a game is kept and replaces it only at the player's first move (`new` too);
/// a damaged kept game is copied aside first.
#[test]
fn a_lines_game_is_kept_and_continued() {
    let kept = common::temp("lines-keep", "kept.banco");
    let aside = common::temp("lines-keep", "kept.damaged");
    let _ = std::fs::remove_file(&kept);
    let _ = std::fs::remove_file(&aside);
    let keep = kept.to_str().unwrap();
    let mv = first_move(&play_lines_kept(keep, "9", &[], "quit\n"));
    assert!(!kept.exists(), "no move: nothing kept");
    // The input ends without `quit`: the game is kept all the same.
    let text = play_lines_kept(keep, "9", &[], &format!("{mv}\n"));
    let go_on = format!("`banco play --game lines --continue --keep {keep}` goes on with it");
    assert!(
        text.contains(&format!("the game is kept: {go_on}")),
        "{text}"
    );
    let one_turn = std::fs::read(&kept).unwrap();
    // A new game, left before its first move (or after `new`): the kept game stays.
    let waiting = format!(
        "a kept game of 1 turn (score 0) is in {keep}: {go_on}; this new game replaces it at your first move"
    );
    for script in ["quit\n", "new\nquit\n"] {
        let text = play_lines_kept(keep, "5", &[], script);
        assert!(text.contains(&waiting), "{text}");
        assert!(
            text.contains(&format!("the kept game in {keep} is as it was: {go_on}")),
            "{text}"
        );
        assert_eq!(std::fs::read(&kept).unwrap(), one_turn, "{text}");
    }
    // `--continue` goes on with it (its settings, not the options given).
    let text = play_lines_kept(keep, "5", &["--continue", "--balls", "3"], "quit\n");
    assert!(
        text.contains("continuing the kept game: 1 turn (score 0)"),
        "{text}"
    );
    assert!(text.contains("score 0  turn 2  next "), "{text}");
    assert!(
        text.contains("--balls does not apply with --continue"),
        "{text}"
    );
    // A move in it is kept too, and the next `--continue` is at turn 3.
    let mv2 = first_move(&text);
    play_lines_kept(keep, "5", &["--continue"], &format!("{mv2}\nquit\n"));
    let text = play_lines_kept(keep, "5", &["--continue"], "quit\n");
    assert!(text.contains("continuing the kept game: 2 turns"), "{text}");
    // `new` (seed 10 after seed 9) and a first move: the new game replaces the kept one.
    let seed_10 = banco_stdin(&["play", "--game", "lines", "--seed", "10"], "quit\n");
    let mv10 = first_move(&common::stdout(&seed_10));
    let text = play_lines_kept(keep, "9", &["--continue"], &format!("new\n{mv10}\nquit\n"));
    assert!(text.contains("a kept game of 2 turns"), "{text}");
    let text = play_lines_kept(keep, "5", &["--continue"], "quit\n");
    assert!(text.contains("continuing the kept game: 1 turn"), "{text}");
    // Damaged: copied aside before the first move replaces it.
    let damaged = &one_turn[..one_turn.len() - 3];
    std::fs::write(&kept, damaged).unwrap();
    let text = play_lines_kept(keep, "9", &[], &format!("{mv}\nquit\n"));
    assert!(
        text.contains(&format!(
            "the kept game in {keep} cannot be continued (this saved Lines game cannot be loaded: "
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("a copy of it is kept in {}", aside.display())),
        "{text}"
    );
    assert_eq!(std::fs::read(&aside).unwrap(), damaged);
    assert_eq!(std::fs::read(&kept).unwrap(), one_turn);
    // Nothing kept to continue: said, with how to start one.
    let none = common::temp("lines-keep", "none.banco");
    let _ = std::fs::remove_file(&none);
    let out = banco_stdin(
        &[
            "play",
            "--game",
            "lines",
            "--continue",
            "--keep",
            none.to_str().unwrap(),
        ],
        "quit\n",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("start one with `banco play --game lines`"),
        "{err}"
    );
    let _ = std::fs::remove_file(&kept);
    let _ = std::fs::remove_file(&aside);
}

/// A saved game one move before its end without a point (seed 6, each turn the first
/// move that scores nothing), that last move typed.
fn pointless_but_one_move(dir: &std::path::Path) -> (std::path::PathBuf, String) {
    use banco_app::save::SavedLines;
    use banco_game::ScoreGame;
    use banco_lines::{Cell, LinesGame, Move, Settings};
    let mut game = LinesGame::new(Settings::default(), [6; 32]);
    while !game.is_over() {
        let next = Cell::all()
            .filter(|&c| game.board().get(c).is_some())
            .flat_map(|from| Cell::all().map(move |to| (from, to)))
            .find_map(|(from, to)| {
                let mut t = game.clone();
                (t.play(Move { from, to }).is_ok() && t.score() == 0).then_some(t)
            });
        game = next.expect("a move without a point");
    }
    let mut saved = SavedLines::of(&game);
    let last = saved.moves.pop().unwrap();
    let file = dir.join("pointless.banco");
    std::fs::write(&file, saved.encode().unwrap()).unwrap();
    (file, format!("{} {}", last.from, last.to))
}

/// The best scores rank real records only (review revD F5): a game without a point is not
/// entered, nor a game of a chosen `--seed` (every ball known in advance; said once at
/// the start), nor, later, a save of a game either played to its end.
#[test]
fn pointless_and_seeded_games_are_not_ranked() {
    let dir = crate::common::fresh_dir("lines-ranked");
    let best = dir.join("best");
    let best_arg = best.to_str().unwrap();
    let (pointless, last) = pointless_but_one_move(&dir);
    let args = crate::common::lines_args(best_arg);
    let out = banco_stdin(
        &args,
        &format!("load {}\n{last}\nquit\n", pointless.display()),
    );
    let t = common::stdout(&out);
    assert!(t.contains("game over: score 0 in "), "{t}");
    assert!(!t.contains("best score #"), "{t}");
    assert!(!t.contains("not ranked"), "{t}");
    // The table remembers the game played to its end, and has no entry.
    assert!(no_entry(&best), "{t}");

    let (game, last, _) = one_move_before_the_end(&dir);
    let script = format!("load {}\n{last}\nnew\nquit\n", game.display());
    let mut seeded = args.to_vec();
    seeded.extend_from_slice(&["--seed", "4"]);
    let t = common::stdout(&banco_stdin(&seeded, &script));
    assert!(t.contains("game over: score "), "{t}");
    assert!(!t.contains("best score #"), "{t}");
    assert_eq!(
        t.matches("a game with a chosen seed is not ranked").count(),
        1,
        "{t}"
    );
    assert!(no_entry(&best), "{t}");
    // The same game without --seed does not enter either: the seeded session played it to
    // its end. Another game does.
    let t = common::stdout(&banco_stdin(&args, &script));
    assert!(!t.contains("best score #"), "{t}");
    assert!(t.contains("played to its end before"), "{t}");
    let (other, last, _) = near_the_end(&dir, banco_lines::Settings::default(), "other.banco");
    let script = format!("load {}\n{last}\nquit\n", other.display());
    let t = common::stdout(&banco_stdin(&args, &script));
    assert!(t.contains("best score #1"), "{t}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// True when the best scores in `best` hold no entry (the file may hold endings).
fn no_entry(best: &std::path::Path) -> bool {
    let args = crate::common::lines_args(best.to_str().unwrap());
    common::stdout(&banco_stdin(&args, "best all\nquit\n")).contains("no finished game yet")
}

/// A game of a session with `--seed` stays unranked when it is kept and continued in a
/// session without it, or saved and loaded there: the mark travels with the game.
#[test]
fn a_seeded_game_stays_unranked_when_continued() {
    let dir = crate::common::fresh_dir("lines-seeded");
    let best = dir.join("best");
    let kept = dir.join("kept.banco");
    let saved = dir.join("saved.banco");
    let (game, last, _) = one_move_before_the_end(&dir);
    let base = ["play", "--game", "lines", "--no-color", "--best-scores"];
    let mut seeded: Vec<&str> = base.to_vec();
    seeded.extend_from_slice(&[best.to_str().unwrap(), "--seed", "4", "--keep"]);
    seeded.push(kept.to_str().unwrap());
    let script = format!("load {}\nsave {}\nquit\n", game.display(), saved.display());
    let t = common::stdout(&banco_stdin(&seeded, &script));
    assert!(t.contains("a game with a chosen seed is not ranked"), "{t}");
    assert!(kept.exists() && saved.exists(), "{t}");
    // Continued without --seed: said, and not ranked.
    let mut plain: Vec<&str> = base.to_vec();
    plain.extend_from_slice(&[best.to_str().unwrap(), "--continue", "--keep"]);
    plain.push(kept.to_str().unwrap());
    let t = common::stdout(&banco_stdin(&plain, &format!("{last}\nquit\n")));
    assert!(t.contains(banco_app::lines::RANKING_NOTE_SEED_KNOWN), "{t}");
    assert!(t.contains("game over: score "), "{t}");
    assert!(!t.contains("best score #"), "{t}");
    assert!(no_entry(&best), "{t}");
    // Loaded in a session without --seed: the same.
    let plain = [&base[..], &[best.to_str().unwrap()]].concat();
    let script = format!("load {}\n{last}\nquit\n", saved.display());
    let t = common::stdout(&banco_stdin(&plain, &script));
    assert!(t.contains(banco_app::lines::RANKING_NOTE_SEED_KNOWN), "{t}");
    assert!(
        t.contains("game over: score ") && !t.contains("best score #"),
        "{t}"
    );
    assert!(no_entry(&best), "{t}");
    // The game it was loaded from, unmarked, was played to its end by now (its balls
    // known): it does not enter either.
    let script = format!("load {}\n{last}\nquit\n", game.display());
    let t = common::stdout(&banco_stdin(&plain, &script));
    assert!(!t.contains("best score #"), "{t}");
    assert!(t.contains("played to its end before"), "{t}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The Lines game is written at the prompt after every move, so a session killed (as by
/// Ctrl-C) loses nothing; while it runs, a second session on the same file is told that
/// its game is not kept there.
#[test]
fn a_killed_lines_session_loses_no_move() {
    let kept = common::temp("lines-keep", "killed.banco");
    let _ = std::fs::remove_file(&kept);
    let keep = kept.to_str().unwrap();
    let args = [
        "play",
        "--game",
        "lines",
        "--seed",
        "9",
        "--no-color",
        "--keep",
        keep,
    ];
    let mut live = common::Live::start(&args);
    live.send("board\n", "lines> board");
    let mv = first_move(&live.text);
    live.send(&format!("{mv}\n"), "path ");
    // Written at the next prompt: wait until that prompt has read a line.
    live.send("board\n", "lines> board");
    let other = play_lines_kept(keep, "5", &[], "quit\n");
    assert!(
        other.contains(&format!(
            "another banco session is keeping its game in {keep}: this game is not kept there"
        )),
        "{other}"
    );
    drop(live);
    let text = play_lines_kept(keep, "5", &["--continue"], "quit\n");
    assert!(
        text.contains("continuing the kept game: 1 turn (score 0)"),
        "{text}"
    );
    let _ = std::fs::remove_file(&kept);
}

/// `--hint-playouts` sets how hard the hint thinks: the quickest judgement and the default
/// disagree on some seed's first position, and a strength past the largest is refused.
#[test]
fn the_hint_thinks_as_hard_as_asked() {
    let hint_of = |seed: &str, extra: &[&str]| {
        let mut args = vec!["play", "--game", "lines", "--no-color", "--seed", seed];
        args.extend_from_slice(extra);
        let out = banco_stdin(&args, "hint\nquit\n");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let line = text.lines().find(|l| l.starts_with("hint: "));
        line.map_or_else(|| panic!("no hint:\n{text}"), str::to_owned)
    };
    let differs = (1..=20).map(|s| s.to_string()).any(|seed| {
        let quick = hint_of(&seed, &["--hint-playouts", "1"]);
        assert_eq!(
            quick,
            hint_of(&seed, &["--hint-playouts", "0"]),
            "0 and 1 alike"
        );
        quick != hint_of(&seed, &[])
    });
    assert!(differs, "--hint-playouts 1 changed no hint of seeds 1–20");
    let out = banco_stdin(
        &["play", "--game", "lines", "--hint-playouts", "10001"],
        "quit\n",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("10001") && err.contains("--hint-playouts"),
        "{err}"
    );
}

/// A session from a pipe without `--seed` begins its games with the fixed seed 0x5EED (the
/// same balls every run, so known in advance): played to its end, such a game does not
/// enter the best scores (said once at the start), though it scored.
#[test]
fn games_begun_from_a_pipe_without_a_seed_are_not_ranked() {
    use banco_game::ScoreGame;
    let dir = crate::common::fresh_dir("lines-fixed-seed");
    let best = dir.join("best");
    let args = crate::common::lines_args(best.to_str().unwrap());
    // The session's first game, played by the greedy player to its end.
    let settings = banco_lines::Settings::default();
    let mut game =
        banco_lines::LinesGame::new(settings, banco_lines::spawn::Spawner::seed_from_u64(0x5EED));
    let mut script = String::new();
    while let Some(m) = banco_lines::ai::greedy_move(&game) {
        game.play(m).unwrap();
        script += &[
            m.from.to_string(),
            " ".into(),
            m.to.to_string(),
            "\n".into(),
        ]
        .concat();
    }
    assert!(game.score() > 0);
    let t = common::stdout(&banco_stdin(&args, &format!("{script}best all\nquit\n")));
    assert!(
        t.contains(&format!("game over: score {} in ", game.score())),
        "{t}"
    );
    assert!(!t.contains("best score #"), "{t}");
    assert_eq!(t.matches("have a fixed seed").count(), 1, "{t}");
    assert!(t.contains("no finished game yet"), "{t}");
    std::fs::remove_dir_all(&dir).unwrap();
}
