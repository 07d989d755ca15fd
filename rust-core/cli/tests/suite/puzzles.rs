//! `banco puzzles play` and `banco puzzles list` as a player or a script drives them: what
//! a wrong move prints, the status on every turn, the commands a puzzle refuses or
//! redefines, the tiers and the kept progress.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;
use common::{banco_stdin, stdout};

fn temp(name: &str) -> std::path::PathBuf {
    common::temp("puzzles", name)
}

/// Every notice `A lets the mate slip (Y escapes)` comes right after the line `banco
/// plays Y …` (the reply that was played, not the move left last on the board); at least
/// one notice.
fn assert_replies_named(text: &str) {
    let lines: Vec<&str> = text.lines().collect();
    let mut notices = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some((_, rest)) = line.split_once(" lets the mate slip (") else {
            continue;
        };
        notices += 1;
        let reply = rest.split_whitespace().next().unwrap();
        let said = lines[..i]
            .iter()
            .rev()
            .find(|l| l.starts_with("banco plays "))
            .unwrap_or_else(|| panic!("no `banco plays` before {line}:\n{text}"));
        assert!(
            said.starts_with(&format!("banco plays {reply} ")),
            "{said} / {line}:\n{text}"
        );
    }
    assert!(notices > 0, "{text}");
}

/// `banco puzzles play sp1018-63` (a mate in 2, f6d6 first) with `input` typed: its
/// output, the command having succeeded.
fn play_sp1018_63(input: &str) -> String {
    let out = banco_stdin(
        &[
            "puzzles",
            "play",
            "sp1018-63",
            "--movetime",
            "50",
            "--no-color",
        ],
        input,
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    text
}

#[test]
fn a_wrong_move_names_the_reply_played_and_the_status_stays_true() {
    // Mate in 2 (f6d6 first): e5f7 then f6d6 does not mate; the reply that escapes is
    // played and both moves are taken back.
    let text = play_sp1018_63("e5f7\nf6d6\nquit\n");
    assert_replies_named(&text);
    assert!(!text.contains("mate in 0 more moves"), "{text}");
}

#[test]
fn a_puzzle_refuses_resign_and_new_starts_it_afresh() {
    // Mate in 1 (c7c8): h5h6 is not mate, taken back with the reply that escaped.
    let out = banco_stdin(
        &[
            "puzzles",
            "play",
            "sp1019-173",
            "--movetime",
            "50",
            "--no-color",
        ],
        "h5h6\nresign\nhelp\nnew\nc7c8\nquit\n",
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert_replies_named(&text);
    // Right after the move that failed to mate (the defender's turn) the status says so.
    assert!(!text.contains("mate in 0 more moves"), "{text}");
    assert!(
        text.contains("puzzle mate in 1 #sp1019-173: no mate with your last move: it will be taken back (hints 0, wrong moves 0)"),
        "{text}"
    );
    assert!(
        text.contains("a puzzle cannot be resigned or drawn"),
        "{text}"
    );
    assert!(!text.contains("the game is already over"), "{text}");
    assert!(
        text.contains("puzzle:    new starts this puzzle afresh"),
        "{text}"
    );
    // `new` starts the same puzzle again (its wrong move forgotten), not a game.
    let after_new = text
        .split("Puzzle sp1019-173 again: Red mates in 1.")
        .nth(1)
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        after_new
            .contains("puzzle mate in 1 #sp1019-173: mate in 1 more move (hints 0, wrong moves 0)"),
        "{text}"
    );
    assert!(
        after_new.contains("solved! (hints 0, wrong moves 0)"),
        "{text}"
    );
}

#[test]
fn puzzles_list_refuses_missing_tiers_and_marks_the_solved() {
    for tier in ["0", "5", "7", "99"] {
        let out = banco_stdin(&["puzzles", "list", "--tier", tier], "");
        assert_eq!(out.status.code(), Some(2), "tier {tier}: {}", stdout(&out));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&format!("no tier {tier}")), "{err}");
    }
    // Solve sp1019-173 (mate in 1) with a progress file, then list with it.
    let progress = temp("progress");
    let _ = std::fs::remove_file(&progress);
    let file = progress.to_str().unwrap();
    let out = banco_stdin(
        &[
            "puzzles",
            "play",
            "sp1019-173",
            "--progress",
            file,
            "--movetime",
            "50",
            "--no-color",
        ],
        "c7c8\nquit\n",
    );
    assert!(stdout(&out).contains("solved!"), "{}", stdout(&out));
    let out = banco_stdin(&["puzzles", "list", "--tier", "1", "--progress", file], "");
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    let marked: Vec<&str> = text.lines().filter(|l| l.ends_with("\tsolved")).collect();
    assert_eq!(marked.len(), 1, "{text}");
    assert!(marked[0].starts_with("sp1019-173\t1\t"), "{text}");
    let out = banco_stdin(&["puzzles", "list", "--progress", file], "");
    let text = stdout(&out);
    assert!(
        text.lines()
            .any(|l| l.starts_with("mate in 1 ") && l.ends_with("solved 1")),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("mate in 2 ") && l.ends_with("solved 0")),
        "{text}"
    );
    assert!(text.lines().last().unwrap().starts_with("total "), "{text}");
    // A stray byte after the record: listed as `puzzles play` reads it, solved mark kept,
    // and the file is left as it is.
    let mut damaged = std::fs::read(&progress).unwrap();
    damaged.push(b'X');
    std::fs::write(&progress, &damaged).unwrap();
    let out = banco_stdin(&["puzzles", "list", "--tier", "1", "--progress", file], "");
    let text = stdout(&out);
    assert!(text.contains("could not be read whole"), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.ends_with("\tsolved")).count(),
        1,
        "{text}"
    );
    assert_eq!(std::fs::read(&progress).unwrap(), damaged);
    let _ = std::fs::remove_file(&progress);
}

/// The computer defends as in the apps (banco-app's `answer::run`): a move that lets the
/// mate slip is taken back at once, not after the puzzle's last move, and the hint is the
/// next move of a proven mate. sp1018-63 is a mate in 2; after e5c6 Black escapes.
#[test]
fn a_slip_is_taken_back_at_once_and_the_hint_keeps_the_mate() {
    use banco_app::any::{AnyGame, AnyRules};
    use banco_app::{mate, notation};
    use banco_game::{Game, GameKind};
    let fen = "3aka3/4n4/4b2r1/3r1R2p/p3N1b2/9/P5p1P/8B/2nNC4/3AKA3 w - - 0 1";
    let text = play_sp1018_63("fen\ne5c6\nhint\nquit\n");
    assert!(text.contains(fen), "the puzzle's position changed:\n{text}");
    assert!(text.contains("e5c6 lets the mate slip ("), "{text}");
    assert_replies_named(&text);
    assert!(
        text.contains("puzzle mate in 2 #sp1018-63: mate in 2 more moves (hints 0, wrong moves 1)"),
        "{text}"
    );
    // The hint, on the position taken back to, keeps a mate in 1 against every defence.
    let hint = text
        .lines()
        .find_map(|l| l.strip_prefix("hint: "))
        .and_then(|m| m.split_whitespace().next())
        .unwrap_or_else(|| panic!("no hint:\n{text}"));
    let mut game = AnyGame::from_fen(GameKind::Xiangqi, fen).unwrap();
    let mv = notation::parse_move(&game, hint, None).unwrap();
    game.play(mv).unwrap();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let rules = AnyRules::usual(GameKind::Xiangqi);
    let defence = mate::longest_defence(&game, &rules, 1, &mate::options(1), &stop);
    assert!(
        !defence.escapes(),
        "hint {hint} lets the mate slip: {defence:?}"
    );
}

/// `banco puzzles play sp1019-173` (a mate in 1) with `--progress file`, `input` typed.
fn play_with_progress(file: &std::path::Path, input: &str) -> String {
    let out = banco_stdin(
        &[
            "puzzles",
            "play",
            "sp1019-173",
            "--progress",
            file.to_str().unwrap(),
            "--movetime",
            "50",
            "--no-color",
        ],
        input,
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    text
}

/// Progress the store cannot read (here larger than a record may be; a file without read
/// permission or a disk error are the same case) is not taken for "nothing stored yet":
/// the player is told, and the session's progress never overwrites the file.
#[test]
fn unreadable_progress_is_said_and_never_overwritten() {
    let progress = temp("progress-unreadable");
    let big = vec![b'x'; (2 << 20) + 1];
    std::fs::write(&progress, &big).unwrap();
    let text = play_with_progress(&progress, "hint\nc7c8\nquit\n");
    assert!(
        text.contains(&format!(
            "cannot read the puzzle progress in {} (",
            progress.display()
        )),
        "{text}"
    );
    assert!(
        text.contains("it is left as it is, and this session's progress is not kept"),
        "{text}"
    );
    assert!(text.contains("solved!"), "{text}");
    assert!(
        std::fs::read(&progress).unwrap() == big,
        "the file was written over"
    );
    let _ = std::fs::remove_file(&progress);
}

/// Damaged progress is set aside before it is written over, each time in a new file: a
/// second damage never replaces the first one's copy.
#[test]
fn each_damaged_progress_is_set_aside_in_its_own_file() {
    let progress = temp("progress-damaged.bin");
    let first = temp("progress-damaged.damaged");
    let second = temp("progress-damaged.2.damaged");
    for f in [&first, &second] {
        let _ = std::fs::remove_file(f);
    }
    std::fs::write(&progress, "damage one").unwrap();
    let text = play_with_progress(&progress, "quit\n");
    assert!(
        text.contains(&format!("a copy of it is kept in {}", first.display())),
        "{text}"
    );
    std::fs::write(&progress, "damage two").unwrap();
    let text = play_with_progress(&progress, "quit\n");
    assert!(
        text.contains(&format!("a copy of it is kept in {}", second.display())),
        "{text}"
    );
    assert_eq!(std::fs::read_to_string(&first).unwrap(), "damage one");
    assert_eq!(std::fs::read_to_string(&second).unwrap(), "damage two");
    for f in [&progress, &first, &second] {
        let _ = std::fs::remove_file(f);
    }
}

/// A wrong move that is not the puzzle's last: no status line promises a mate for it
/// before the defence shows it slipped; after a solve the board is drawn once, so the
/// mating move's check is said once.
#[test]
fn each_puzzle_line_is_said_once_and_true() {
    // sp1018-61 is a mate in 3; a3a4 lets it slip.
    let out = banco_stdin(
        &[
            "puzzles",
            "play",
            "sp1018-61",
            "--movetime",
            "50",
            "--no-color",
        ],
        "a3a4\nquit\n",
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("a3a4 lets the mate slip ("), "{text}");
    assert!(!text.contains("mate in 2 more moves"), "{text}");
    assert!(
        text.contains("puzzle mate in 3 #sp1018-61: mate in 3 more moves (hints 0, wrong moves 1)"),
        "{text}"
    );
    // sp1019-173: c7c8 mates at once.
    let text = play_sp1019_173("c7c8\nquit\n");
    let after = text.split("you play c7c8").nth(1).unwrap();
    assert_eq!(after.matches("check (将军)").count(), 1, "{text}");
    assert_eq!(after.matches("楚 河").count(), 1, "one board:\n{text}");
    assert!(after.contains("solved! (hints 0, wrong moves 0)"), "{text}");
}

/// `banco puzzles play sp1019-173` (a mate in 1, c7c8) with `input` typed, nothing kept.
fn play_sp1019_173(input: &str) -> String {
    let out = banco_stdin(
        &[
            "puzzles",
            "play",
            "sp1019-173",
            "--movetime",
            "50",
            "--no-color",
        ],
        input,
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    text
}

/// `next` goes on to the collection's next unsolved puzzle (in its order, after this one),
/// also after a solve; when every puzzle is solved it says so. `help` lists it.
#[test]
fn next_goes_on_to_the_next_unsolved_puzzle() {
    use banco_app::puzzles::collection;
    use banco_app::puzzles::progress::Progress;
    let all = collection::xiangqi();
    let at = all.iter().position(|e| e.id == "sp1019-173").unwrap();
    // The puzzle right after is solved already: `next` passes over it.
    let mut p = Progress::default();
    p.solved(&all[at + 1].id);
    let progress = temp("progress-next");
    std::fs::write(&progress, p.encode().unwrap()).unwrap();
    let text = play_with_progress(&progress, "help\nc7c8\nnext\nfen\nquit\n");
    assert!(
        text.contains("next goes on to the next unsolved one"),
        "{text}"
    );
    let want = &all[at + 2];
    assert!(text.contains(&format!("Puzzle {}: ", want.id)), "{text}");
    let after = text.split(&format!("Puzzle {}: ", want.id)).nth(1).unwrap();
    assert!(after.contains(&want.puzzle.fen), "{text}");
    // Every puzzle solved: `next` says so and the solved puzzle stays on the board.
    let mut p = Progress::default();
    for e in all {
        p.solved(&e.id);
    }
    std::fs::write(&progress, p.encode().unwrap()).unwrap();
    let text = play_with_progress(&progress, "next\nquit\n");
    assert!(
        text.contains("every xiangqi puzzle of the collection is solved"),
        "{text}"
    );
    let _ = std::fs::remove_file(&progress);
}
