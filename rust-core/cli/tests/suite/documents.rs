//! What `save`, `--keep` and `banco pgn import -o` may write over (one game record, never
//! a PGN database nor Banco's other files), and how files that are not plain UTF-8 or not
//! whole are read or refused.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;
use common::{banco_stdin, stdout};

fn temp(name: &str) -> std::path::PathBuf {
    common::temp("documents", name)
}

/// One chess game in PGN; `n` of them make a database.
fn chess_game(n: usize) -> String {
    format!(
        "[Event \"g{n}\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
    )
}

/// A PGN database (its first line a tag pair, as a game record's) and the puzzle progress
/// (a Banco file, not a game) are not replaced by `save`, `--keep` nor `pgn import -o`,
/// which name why; a file of one game is.
#[test]
fn only_a_single_game_record_is_replaced() {
    let db = temp("db.pgn");
    let games: String = (1..=3).map(chess_game).collect();
    std::fs::write(&db, &games).unwrap();
    let progress = temp("progress");
    let mut bytes = b"\x89BANCP\r\n\x02".to_vec();
    bytes.extend_from_slice(&[0; 12]);
    std::fs::write(&progress, &bytes).unwrap();
    let out = banco_stdin(
        &["play", "--game", "chess", "--no-color", "--movetime", "20"],
        &format!(
            "e4\nsave {}\nsave {}\nquit\n",
            db.display(),
            progress.display()
        ),
    );
    let text = stdout(&out);
    assert!(
        text.contains(&format!(
            "could not save {}: {} already exists and holds 3 games: choose another name",
            db.display(),
            db.display()
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "{} already exists and is not a saved game",
            progress.display()
        )),
        "{text}"
    );
    assert!(!text.contains("\nsaved "), "{text}");
    assert_eq!(std::fs::read_to_string(&db).unwrap(), games);
    assert_eq!(std::fs::read(&progress).unwrap(), bytes);
    // `--keep` at the database: refused the same way.
    let out = banco_stdin(
        &[
            "play",
            "--game",
            "chess",
            "--no-color",
            "--movetime",
            "20",
            "--keep",
            db.to_str().unwrap(),
        ],
        "e4\nquit\n",
    );
    let text = stdout(&out);
    assert!(text.contains("holds 3 games"), "{text}");
    assert_eq!(std::fs::read_to_string(&db).unwrap(), games);
    // `pgn import X -o X`: the database lists its games and stays whole.
    let out = banco_stdin(
        &[
            "pgn",
            "import",
            db.to_str().unwrap(),
            "-o",
            db.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stdout(&out).contains("game 3: chess a vs b"),
        "{}",
        stdout(&out)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("holds 3 games: choose another name"), "{err}");
    assert_eq!(std::fs::read_to_string(&db).unwrap(), games);
    // A file of one game is a record: replaced.
    let one = temp("one.pgn");
    std::fs::write(&one, chess_game(1)).unwrap();
    let out = banco_stdin(
        &[
            "pgn",
            "import",
            one.to_str().unwrap(),
            "-o",
            one.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(stdout(&out).contains("saved "), "{}", stdout(&out));
    for f in [&db, &progress, &one] {
        let _ = std::fs::remove_file(f);
    }
}

/// An xqbase-style xiangqi PGN in GBK (Chinese names and movetext), as the UTF-8 one.
const XQ_PGN: &str = "[Game \"Chinese Chess\"]\n[Event \"测试\"]\n[Red \"胡荣华\"]\n[Black \"杨官璘\"]\n[Format \"Chinese\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\n";

/// A GBK file (xqbase's encoding, review revA D3 / revC F7) reads as its UTF-8 twin in
/// `banco pgn import` and `load`; bytes that are neither UTF-8 nor GBK are said to be.
#[test]
fn a_gbk_pgn_is_imported_and_loaded() {
    let (gbk, _, unmappable) = encoding_rs::GBK.encode(XQ_PGN);
    assert!(!unmappable);
    assert!(std::str::from_utf8(&gbk).is_err());
    let file = temp("xq-gbk.pgn");
    std::fs::write(&file, &gbk).unwrap();
    let out = banco_stdin(&["pgn", "import", file.to_str().unwrap()], "");
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("game 1: xiangqi 胡荣华 vs 杨官璘, 2 moves (4 plies), result *"),
        "{text}"
    );
    assert!(
        text.contains("moves 炮二平五 马8进7 马二进三 车9平8"),
        "{text}"
    );
    let fen = "rnbakabr1/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w";
    assert!(text.contains(fen), "{text}");
    let out = banco_stdin(
        &["play", "--no-color", "--movetime", "20", "--level", "1"],
        &format!("load {}\nfen\nquit\n", file.display()),
    );
    let text = stdout(&out);
    assert!(
        text.contains(&format!("loaded {}: 2 moves (4 plies)", file.display())),
        "{text}"
    );
    assert!(text.contains(fen), "{text}");
    // Neither UTF-8 nor GBK: said so, nothing garbled.
    std::fs::write(&file, b"[Event \"\xff\xfe\x80\"]\n\n1. h2e2 *\n").unwrap();
    let out = banco_stdin(&["pgn", "import", file.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the file is neither UTF-8 nor GBK"), "{err}");
    let out = banco_stdin(
        &["play", "--no-color", "--movetime", "20", "--level", "1"],
        &format!("load {}\nquit\n", file.display()),
    );
    assert!(
        stdout(&out).contains("the file is neither UTF-8 nor GBK"),
        "{}",
        stdout(&out)
    );
    let _ = std::fs::remove_file(&file);
}

/// A save cut short is said to be cut short, not to have a changed byte (review revC F6.2).
#[test]
fn a_save_cut_short_is_called_cut_short() {
    let save = temp("cut.banco");
    let _ = std::fs::remove_file(&save);
    let out = banco_stdin(
        &["play", "--no-color", "--movetime", "20", "--level", "1"],
        &format!("h2e2\nsave {}\nquit\n", save.display()),
    );
    assert!(stdout(&out).contains("saved "), "{}", stdout(&out));
    let bytes = std::fs::read(&save).unwrap();
    std::fs::write(&save, &bytes[..bytes.len() / 2]).unwrap();
    let out = banco_stdin(
        &["play", "--no-color", "--movetime", "20", "--level", "1"],
        &format!("load {}\nquit\n", save.display()),
    );
    let text = stdout(&out);
    assert!(
        text.contains("the file ends before the record does (it was cut short)"),
        "{text}"
    );
    assert!(!text.contains("checksum"), "{text}");
    let _ = std::fs::remove_file(&save);
}
