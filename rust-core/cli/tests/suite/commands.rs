//! The `banco` command line driven as a user or a script would: output formats that tests
//! and users rely on (the LAST line contracts) and exit codes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;
use common::{banco, banco_bytes, banco_stdin, last_line, stdout, temp};

#[test]
fn perft_prints_total_last() {
    let out = banco(&["perft", "--depth", "3"]);
    assert!(out.status.success());
    assert_eq!(last_line(&out), "79666");
    let out = banco(&["perft", "--depth", "2", "--divide"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().count(), 45);
    assert!(text.contains("h2e2: "));
    assert_eq!(last_line(&out), "1920");
}

#[test]
fn jieqi_perft_prints_the_same_format() {
    let out = banco(&["perft", "--game", "jieqi", "--depth", "2"]);
    assert!(out.status.success());
    assert_eq!(last_line(&out), "66462");
    let out = banco(&["perft", "--game", "jieqi", "--depth", "1", "--divide"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().count(), 45);
    assert!(text.contains("h2e2: 6"), "{text}");
    assert!(text.contains("e0e1: 1"), "{text}");
    assert_eq!(last_line(&out), "259");
    let out = banco(&[
        "perft",
        "--game",
        "jieqi",
        "--fen",
        "4k4/9/9/9/4X4/9/9/9/9/3K5 w R1 0 1",
        "--depth",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not on a home square of red"), "{err}");
}

#[test]
fn perft_bad_fen_exits_2_with_one_line() {
    let out = banco(&[
        "perft",
        "--fen",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",
        "--depth",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("FEN rank 0 has 8 files, expected 9"), "{err}");
}

#[test]
fn move_in_every_notation() {
    for text in ["h2e2", "C2.5", "C2=5", "炮二平五"] {
        let out = banco(&["move", text]);
        assert!(out.status.success(), "{text}");
        assert_eq!(last_line(&out), "iccs h2e2 wxf C2.5 chinese 炮二平五");
    }
    let black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";
    let out = banco(&["move", "--fen", black, "H8+7"]);
    assert_eq!(last_line(&out), "iccs h9g7 wxf H8+7 chinese 马8进7");
}

#[test]
fn move_errors_say_which() {
    let out = banco(&["move", "zz9"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unparsable"));
    let out = banco(&["move", "h2h8"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("illegal"));
}

#[test]
fn judge_results() {
    let out = banco(&[
        "judge",
        "--fen",
        "9/4k4/9/9/9/9/9/9/2p6/3K1RBc1 w - - 0 1",
        "f0e0",
        "e8f8",
        "e0f0",
        "f8e8",
        "f0e0",
        "e8f8",
        "e0f0",
        "f8e8",
        "f0e0",
        "e8f8",
        "e0f0",
    ]);
    assert!(out.status.success());
    assert_eq!(last_line(&out), "result 0-1 perpetual check");
    let out = banco(&["judge", "h2e2", "h9g7"]);
    assert_eq!(last_line(&out), "result * game goes on");
    let out = banco(&[
        "judge",
        "--fen",
        "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1",
        "e1d1",
    ]);
    assert_eq!(last_line(&out), "result 1-0 checkmate");
    let out = banco(&[
        "judge", "--rules", "casual", "h2e2", "h9g7", "h0g2", "g7h9", "g2h0", "h9g7", "h0g2",
        "g7h9", "g2h0",
    ]);
    assert_eq!(last_line(&out), "result 1/2-1/2 repetition");
    // Moves played after the end do not change the verdict (perpetual check after move
    // 8; the repetition the later moves make is not judged).
    let mut moves = vec!["judge", "--fen", "9/4k4/9/9/9/9/9/9/9/3K1R3 w - - 0 1"];
    let cycle = ["f0e0", "e8f8", "e0f0", "f8e8"];
    moves.extend(cycle.iter().chain(&cycle));
    moves.extend(["d0d1", "e8e9", "d1d0", "e9e8"]);
    moves.extend(cycle.iter().chain(&cycle));
    let out = banco(&moves);
    assert!(out.status.success());
    assert_eq!(last_line(&out), "result 0-1 perpetual check");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("the game ended after move 8 (0-1 perpetual check): the 12 moves after it are not judged"),
        "{text}"
    );
    let out = banco(&["judge", "h2e2", "h9g7", "e2e9"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("move 3") && err.contains("e2e9"), "{err}");
}

/// The moves after the game's end are still read and checked legal where they are played
/// (the verdict stays the first ending's).
#[test]
fn judge_reads_the_moves_after_the_end() {
    let draw = [
        "judge", "h0g2", "h9g7", "g2h0", "g7h9", "h0g2", "h9g7", "g2h0", "g7h9",
    ];
    let with = |more: &[&'static str]| {
        let mut args = draw.to_vec();
        args.extend_from_slice(more);
        banco(&args)
    };
    // The reviewer's case: `a0a9` (blocked by the pawn on a3) and `zzzz` went unnoticed.
    let out = with(&["a0a9", "zzzz"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("move 9") && err.contains("a0a9"), "{err}");
    let out = with(&["a0a1", "zzzz"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("move 10") && err.contains("zzzz"), "{err}");
    // Illegal where it is played: the rook left a0 with move 9.
    let out = with(&["a0a1", "a9a8", "a0a1"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("move 11") && err.contains("a0a1"), "{err}");
    // Legal moves after the end: the first ending stays the verdict.
    let out = with(&["a0a1", "a9a8"]);
    assert!(out.status.success());
    assert_eq!(last_line(&out), "result 1/2-1/2 repetition");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "the game ended after move 8 (1/2-1/2 repetition): the 2 moves after it are not judged"
        ),
        "{text}"
    );
}

#[test]
fn bench_perft_last_line() {
    let out = banco(&["bench", "perft", "--depth", "3"]);
    assert!(out.status.success());
    let line = last_line(&out);
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words.len(), 6, "{line}");
    assert_eq!(
        (words[0], words[1], words[2], words[4]),
        ("nodes", "79666", "time", "nps")
    );
    assert!(
        words[3].parse::<f64>().is_ok() && words[5].parse::<u64>().is_ok(),
        "{line}"
    );
}

/// Options that would be ignored are refused: `--depth` of the search bench (its depths
/// are fixed), a match of no games.
#[test]
fn bench_and_match_refuse_options_they_would_ignore() {
    let out = banco(&["bench", "--depth", "3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--depth is for `bench perft`"));
    let out = banco(&["match", "--a", "plain", "--b", "plain", "--games", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--games"));
}

#[test]
fn play_script_mode() {
    let dir = crate::common::fresh_dir("play");
    let save = dir.join("g.banco");
    let text = dir.join("g.txt");
    let script = format!(
        "h2e2\nnonsense\nh2h8\nundo\nredo\nfen\nsave {}\nsave {}\nundo\nload {}\nfen\nlevel 11\nlevel 2\nresign\nh0g2\n",
        save.display(),
        text.display(),
        save.display()
    );
    let out = banco_stdin(
        &[
            "play",
            "--level",
            "1",
            "--movetime",
            "50",
            "--seed",
            "7",
            "--no-color",
        ],
        &script,
    );
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("you play h2e2 (C2.5 炮二平五)"), "{stdout}");
    assert!(stdout.contains("`nonsense` is not a move"), "{stdout}");
    assert!(stdout.contains("illegal move: h2h8"), "{stdout}");
    assert!(stdout.contains("say a level from 1 to 10"), "{stdout}");
    assert!(
        stdout.contains("game over: black wins by resignation"),
        "{stdout}"
    );
    assert!(stdout.contains("the game is over"), "{stdout}");
    // The FEN printed after redo equals the one printed after load.
    let fens: Vec<&str> = stdout
        .lines()
        .filter(|l| l.ends_with(" w - - 2 2") || l.contains(" w - - "))
        .filter(|l| !l.starts_with("result"))
        .collect();
    assert!(fens.len() >= 2, "{stdout}");
    assert_eq!(fens[0], fens[1]);
    assert!(stdout.lines().any(|l| l.starts_with("result 0-1 fen ")));
    let text_export = std::fs::read_to_string(&text).unwrap();
    assert!(
        text_export.starts_with("[Game \"xiangqi\"]"),
        "{text_export}"
    );
    assert!(text_export.contains("1. h2e2 {C2.5}"), "{text_export}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn illegal_moves_in_every_notation_say_why() {
    // The king's step onto its own advisor names the advisor and its square, in every
    // notation; a horse moving sideways is illegal (not unreadable) and says what to write.
    let out = banco_stdin(
        &["play", "--level", "1", "--movetime", "20", "--no-color"],
        "e0d0\nK5=6\nK5.6\n帅五平六\nH2.3\n马二平三\nH2*3\nquit\n",
    );
    let stdout = stdout(&out);
    assert!(out.status.success(), "{stdout}");
    for text in ["e0d0", "K5.6", "K5.6", "帅五平六"] {
        let line = format!(
            "illegal move: {text} is not a legal move here: d0 is taken by your own advisor"
        );
        assert!(stdout.contains(&line), "{line}\n{stdout}");
    }
    assert!(
        stdout.contains(
            "illegal move: H2.3 is not a legal move here: a horse never moves sideways along a \
             rank: write + or - and its destination file"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "illegal move: 马二平三 is not a legal move here: a horse never moves sideways along a \
             rank: write 进 or 退 (forward or backward) and its destination file"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("`H2*3` is not a move"), "{stdout}");
}

#[test]
fn a_line_that_is_not_utf8_is_refused_and_the_game_goes_on() {
    // 炮二平五 typed in a GBK terminal, then a save: the game is not lost. A script that
    // starts with a byte-order mark reads its first move.
    let dir = crate::common::fresh_dir("utf8");
    let save = dir.join("g.txt");
    let mut input = b"\xef\xbb\xbfh2e2\n\xc5\xda\xb6\xfe\xc6\xbd\xce\xe5\nsave ".to_vec();
    input.extend_from_slice(save.to_str().unwrap().as_bytes());
    input.extend_from_slice(b"\nquit\n");
    let out = banco_bytes(&["play", "--level", "1", "--movetime", "20"], &input);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("you play h2e2"), "{text}");
    assert!(text.contains("that line is not UTF-8 text"), "{text}");
    let saved = std::fs::read_to_string(&save).unwrap();
    assert!(saved.contains("h2e2") || saved.contains("C2.5"), "{saved}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn play_rejects_bad_setup_with_every_problem() {
    let out = banco_stdin(&["play", "--fen", "4k4/9/9/9/9/9/9/9/R8/RRA1A4 w"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("red has no king") && err.contains("3 rooks"),
        "{err}"
    );
    // Chess lists them all too: both kings missing, a pawn on a back rank.
    let out = banco_stdin(
        &[
            "play",
            "--game",
            "chess",
            "--fen",
            "8/8/8/8/8/8/8/P7 w - - 0 1",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("3 problems"), "{err}");
    assert!(
        err.contains("white") && err.contains("black") && err.contains("back rank"),
        "{err}"
    );
}

#[test]
fn play_from_setup_position_as_black() {
    // Red (the computer) mates at once; black gets the result line.
    let out = banco_stdin(
        &[
            "play",
            "--fen",
            "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1",
            "--color",
            "black",
            "--level",
            "10",
            "--movetime",
            "200",
            "--no-color",
        ],
        "",
    );
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("banco plays e1d1"), "{stdout}");
    assert!(
        stdout.contains("game over: red wins by checkmate"),
        "{stdout}"
    );
}

/// A king in check is said in words, and a loss by one's own perpetual check names who
/// checked ("black wins by perpetual check" read as if Black had checked).
#[test]
fn check_is_said_and_a_perpetual_check_names_the_checker() {
    let out = banco_stdin(
        &[
            "play",
            "--fen",
            "4k4/R8/4c4/9/9/9/9/9/9/3K5 w - - 0 1",
            "--level",
            "3",
            "--movetime",
            "50",
            "--no-color",
        ],
        "a8a9\na9a8\na8a9\na9a8\na8a9\n",
    );
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("check (将军): the Black king on e9 is attacked"),
        "{stdout}"
    );
    assert!(
        stdout.contains("game over: black wins: perpetual check by red"),
        "{stdout}"
    );
}

#[test]
fn soak_last_line() {
    for game in ["xiangqi", "chess"] {
        let out = banco(&["soak", "--games", "20", "--seed", "5", "--game", game]);
        assert!(
            out.status.success(),
            "{game}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            last_line(&out),
            "games 20 lost 0 duplicated 0 desync 0 failures 0",
            "{game}"
        );
    }
    let out = banco(&["soak", "--games", "1", "--game", "go"]);
    assert_eq!(out.status.code(), Some(2));
}

/// A reader that stops early (`banco play < moves | head -1`) closes the pipe: the command
/// ends quietly with exit code 0, as the commands before `head` in a shell pipeline do, not
/// with a panic about a broken pipe. (The session asks for far more output than a pipe
/// holds, so its writes do meet the closed pipe.)
#[test]
fn a_reader_that_stops_early_ends_the_command_quietly() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_banco"))
        .arg("play")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // About 700 KB of help pages, ten times what a pipe buffers.
    stdin.write_all("help\n".repeat(2000).as_bytes()).unwrap();
    drop(stdin);
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("Banco xiangqi"), "{first}");
    // The reader is dropped here: the pipe is closed with most of the output still to come.
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn undo_after_resigning_withdraws_the_resignation_only() {
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let out = banco_stdin(
        // A seed and a move time the level's node cap always ends first: the computer's
        // reply repeats (one on row 2 or in the horse's way would upset the checks below).
        &[
            "play",
            "--level",
            "1",
            "--movetime",
            "5000",
            "--seed",
            "1",
            "--no-color",
        ],
        "h2e2\nresign\nundo\nfen\nh0g2\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("red wins by resignation") || text.contains("black wins by resignation"),
        "{text}"
    );
    // The fen after undo is the position just before the resignation (both moves on the
    // board), and the game goes on.
    let after_undo = text
        .split("> fen")
        .nth(1)
        .unwrap_or_else(|| panic!("{text}"));
    let fen = after_undo.lines().nth(1).unwrap_or_default();
    assert!(
        fen.ends_with(" w - - 2 2") || fen.ends_with(" w - - 0 2"),
        "{fen}\n{text}"
    );
    assert_ne!(fen, start, "{text}");
    assert!(fen.contains("/1C2C4/"), "the cannon stays on e2: {fen}");
    assert!(after_undo.contains("you play h0g2"), "{text}");
}

#[test]
fn play_refuses_rules_chess_does_not_have_and_names_every_game() {
    let out = banco(&["play", "--game", "chess", "--rules", "nonsense"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--rules nonsense is for xiangqi and jieqi"),
        "{err}"
    );
    let out = banco(&["play", "--game", "go"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown game `go`: use xiangqi or chess or jieqi or lines"),
        "{err}"
    );
}

/// The rule sets every command takes are the presets the phones offer (banco_app's), named
/// alike, the other names of the Asian rules too; a name they do not have is refused with
/// the presets' names.
#[test]
fn rule_sets_are_the_presets_the_phones_offer() {
    for command in [
        &["judge", "--rules", "chinese", "h2e2"][..],
        &["play", "--game", "jieqi", "--rules", "chinese"][..],
        &[
            "host",
            "--rules",
            "chinese",
            "--bind",
            "127.0.0.1",
            "--no-mdns",
        ][..],
    ] {
        let out = banco(command);
        assert_eq!(out.status.code(), Some(2), "{command:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("unknown rule set `chinese`: use asian or casual"),
            "{command:?}: {err}"
        );
    }
    for name in ["Casual", "asian", "wxf"] {
        let out = banco(&["judge", "--rules", name, "h2e2", "h9g7"]);
        assert!(out.status.success(), "{name}");
        assert_eq!(last_line(&out), "result * game goes on");
    }
}

#[test]
fn solve_says_a_finished_position_is_over() {
    // Black to move is already checkmated: nothing to solve, last line `none`.
    let out = banco(&[
        "solve",
        "--fen",
        "3a5/2Rk5/bN1a5/9/6PP1/9/pp7/9/4A4/4KAB2 b - - 1 1",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("the game is already over (Red won: checkmate): nothing to solve"),
        "{text}"
    );
    assert!(!text.contains("no mate in"), "{text}");
    assert_eq!(last_line(&out), "none");
}

#[test]
fn solve_refuses_a_table_out_of_range() {
    // It was taken as 4096 MiB without a word (and the allocation overran `--time`).
    let out = banco(&[
        "solve",
        "--fen",
        "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1",
        "--hash",
        "100000000",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--hash") && err.contains("1..=4096"), "{err}");
}

/// `--time` beyond what a clock can count panicked in the solver (`1e19`); `inf` got the
/// standard library's words, which name no flag; `NaN` was taken as 0 s without a word.
#[test]
fn solve_refuses_a_time_that_is_not_a_number_of_seconds() {
    for bad in ["1e19", "inf", "NaN", "-1", "soon"] {
        let time = format!("--time={bad}");
        let out = banco(&[
            "solve",
            "--fen",
            "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1",
            &time,
        ]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--time") && err.contains("not a number of seconds from 0 to 86400"),
            "{bad}: {err}"
        );
    }
    let out = banco(&[
        "solve",
        "--fen",
        "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1",
        "--time",
        "2.5",
    ]);
    assert!(out.status.success());
    assert_eq!(last_line(&out), "mate 1 e1d1");
}

/// Every row of the reference WXF table through the command line: the `wxf` column reads
/// as the `move` column, and Banco writes it back (with `.` for sideways). 501 of the
/// table's diagrams cannot arise in play (the kings face each other, or the side not to
/// move is in check); `banco move` describes their moves anyway and says so on stderr.
#[test]
fn move_reads_and_writes_every_row_of_the_wxf_table() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/notation/xiangqi-wxf.tsv"
    );
    let table = std::fs::read_to_string(path).unwrap();
    let mut rows = 0;
    let mut noted = 0;
    for line in table.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [fen, mv, wxf] = cols[..] else {
            panic!("a row of three columns: {line}")
        };
        let out = banco(&["move", "--fen", fen, wxf]);
        assert!(
            out.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got = last_line(&out);
        let want = format!("iccs {mv} wxf {} chinese ", wxf.replace('=', "."));
        assert!(got.starts_with(&want), "{line}: {got}");
        if String::from_utf8_lossy(&out.stderr).contains("cannot arise in play") {
            noted += 1;
        }
        rows += 1;
    }
    assert_eq!((rows, noted), (1247, 501));
}

/// Small refusals a player meets: an empty PGN file is said to hold no game (it listed
/// nothing and exited 0), a `--movetime` of 0 or beyond a day is refused (a level-10 search
/// could think for years), and xiangqi's help offers no draw claim (its repetition and
/// 120-ply rules are judged as the game goes; "the fiftieth move" is chess's).
#[test]
fn empty_pgn_movetime_bounds_and_xiangqi_help() {
    let dir = crate::common::fresh_dir("small");
    let empty = dir.join("empty.pgn");
    std::fs::write(&empty, "\n  \n").unwrap();
    let out = banco(&["pgn", "import", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("there is no game in"));
    for ms in ["0", "86400001"] {
        let out = banco_stdin(&["play", "--movetime", ms, "--no-color"], "quit\n");
        assert_eq!(out.status.code(), Some(2), "--movetime {ms}");
    }
    let out = banco_stdin(&["play", "--no-color", "--movetime", "20"], "help\nquit\n");
    let text = stdout(&out);
    assert!(text.contains("resign, new, help, quit"), "{text}");
    assert!(!text.contains("fiftieth"), "{text}");
    let out = banco_stdin(
        &["play", "--game", "chess", "--no-color", "--movetime", "20"],
        "help\nquit\n",
    );
    assert!(stdout(&out).contains("the fiftieth move"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `banco host` refuses a rule set for a game that has none (it was accepted silently) and
/// names every game it hosts, the Lines race included, when a game is unknown.
#[test]
fn host_refuses_rules_of_another_game_and_names_every_game() {
    let out = banco_stdin(
        &[
            "host",
            "--game",
            "chess",
            "--rules",
            "casual",
            "--no-mdns",
            "--port",
            "0",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("chess has one set of rules"));
    let out = banco_stdin(
        &["host", "--offer", "chess,foo", "--no-mdns", "--port", "0"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("unknown game `foo`: use xiangqi or chess or jieqi or lines")
    );
}

/// What `host`/`join` would find out only later is refused before anything opens: a level
/// out of range (the host was listening, and advertised, first), and a `--save` file that
/// cannot take the record (found out as the match ended, and the game lost).
#[test]
fn host_and_join_refuse_a_bad_level_and_save_file_before_opening() {
    let dir = temp("net-checks", "x");
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data");
    let data = data.to_str().unwrap();
    for ai in ["0", "11"] {
        let out = banco_stdin(
            &[
                "host",
                "--no-mdns",
                "--port",
                "0",
                "--data-dir",
                data,
                "--ai",
                ai,
            ],
            "",
        );
        assert_eq!(out.status.code(), Some(2), "--ai {ai}");
        assert!(
            !stdout(&out).contains("listening"),
            "--ai {ai}: {}",
            stdout(&out)
        );
        let out = banco_stdin(&["join", "127.0.0.1:1", "--data-dir", data, "--ai", ai], "");
        assert_eq!(out.status.code(), Some(2), "join --ai {ai}");
    }
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "my notes").unwrap();
    let missing = dir.join("no-such-folder/game.pgn");
    for (file, says) in [
        (notes.to_str().unwrap(), "is not a saved game"),
        (missing.to_str().unwrap(), "does not exist"),
        (dir.to_str().unwrap(), "is not a regular file"),
    ] {
        for cmd in ["host", "join"] {
            let mut args = vec![cmd, "--data-dir", data, "--save", file];
            args.extend(if cmd == "host" {
                ["--no-mdns", "--port", "0"]
            } else {
                ["127.0.0.1:1", "--give-up-secs", "1"]
            });
            let out = banco_stdin(&args, "");
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{cmd} --save {file}: {err}");
            assert!(err.contains("--save") && err.contains(says), "{err}");
            assert!(!stdout(&out).contains("listening"));
        }
    }
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `perft --depth` is bounded (a huge depth overflowed the stack and aborted), and `soak
/// --first` seeks to its game at once (it walked there, for ever for a huge number).
#[test]
fn perft_depth_is_bounded_and_soak_first_seeks() {
    for args in [
        &["perft", "--depth", "4294967295"][..],
        &["perft", "--game", "chess", "--depth", "31"],
        &["bench", "perft", "--depth", "100000"],
    ] {
        let out = banco(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("30"),
            "{args:?}"
        );
    }
    let out = banco(&["perft", "--depth", "2"]);
    assert_eq!(last_line(&out), "1920");
    let out = banco(&[
        "soak",
        "--game",
        "counting",
        "--games",
        "1",
        "--first",
        "18446744073709551615",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        last_line(&out).starts_with("games 1 "),
        "{}",
        last_line(&out)
    );
}

/// A FEN that leaves out the side to move, chess's castling rights or jieqi's pools is read
/// as python-chess reads it (White/Red to move, no castling, empty pools), and stderr says
/// what was assumed, in every command that takes `--fen`; a full FEN gets no note.
#[test]
fn a_fen_without_its_telling_fields_says_what_it_assumed() {
    let chess = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    let svg = common::temp("commands", "placement-only.svg");
    let svg = svg.to_str().unwrap();
    let said = "note: the FEN gives no side to move and no castling rights: White to move and no castling assumed";
    for args in [
        &["perft", "--game", "chess", "--fen", chess, "--depth", "1"][..],
        &["move", "--game", "chess", "--fen", chess, "e4"][..],
        &["render", "--game", "chess", "--fen", chess, "-o", svg][..],
    ] {
        let out = banco(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {err}");
        assert!(err.contains(said), "{args:?}: {err}");
    }
    let out = banco(&[
        "move",
        "--game",
        "chess",
        "--fen",
        &format!("{chess} w KQkq"),
        "e4",
    ]);
    assert!(String::from_utf8_lossy(&out.stderr).is_empty(), "{out:?}");
    let xiangqi = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    let out = banco(&["perft", "--fen", xiangqi, "--depth", "1"]);
    assert_eq!(last_line(&out), "44");
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("note: the FEN gives no side to move: Red to move assumed"),
        "{out:?}"
    );
    let out = banco(&["move", "--fen", &format!("{xiangqi} w"), "h2e2"]);
    assert!(String::from_utf8_lossy(&out.stderr).is_empty(), "{out:?}");
    let out = banco(&[
        "perft",
        "--game",
        "jieqi",
        "--fen",
        "4k4/9/9/9/9/9/9/9/9/3K5 b",
        "--depth",
        "1",
    ]);
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("note: the FEN gives no pools: empty pools assumed"),
        "{out:?}"
    );
}
