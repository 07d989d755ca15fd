//! `banco edit`, `banco pgn`, `banco render` and `banco puzzles` driven as a script would.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;
use common::{banco_stdin, stdout};

fn temp(name: &str) -> std::path::PathBuf {
    common::temp("records", name)
}

#[test]
fn edit_by_script_lists_problems_solves_and_plays() {
    let script = "clear\nplace K e0\nplace red advisor a1\ncheck\nplace k d9\nremove a1\nplace R e1\nfen\nsolve 3\nplay 1\ne1d1\nquit\n";
    let out = banco_stdin(&["edit", "--no-color"], script);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("  - black has no king"), "{text}");
    assert!(text.contains("  - the advisor on a1 is outside its palace"));
    assert!(text.contains("legal position: 3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"));
    assert!(text.contains("mate in 1: e1d1"));
    assert!(text.contains("red wins by checkmate"), "{text}");
    let out = banco_stdin(
        &["edit", "--game", "chess", "--no-color"],
        "remove h1\ncheck\nquit\n",
    );
    assert!(stdout(&out).contains("white may castle king side (O-O) but has no rook on h1"));
    // A typo in the castling rights is refused and changes nothing; `-` clears them.
    let out = banco_stdin(
        &["edit", "--game", "chess", "--no-color"],
        "castle KQkg
fen
castle KK
castle Kq
fen
castle -
fen
quit
",
    );
    let text = stdout(&out);
    assert!(
        text.contains("castling rights are `-` or letters of `KQkq`")
            && text.contains("not `KQkg`")
            && text.contains("not `KK`"),
        "{text}"
    );
    // The start, then the refused typo (unchanged), then `Kq`, then `-`.
    assert!(
        text.matches(" w KQkq - 0 1").count() >= 2
            && text.contains(" w Kq - 0 1")
            && text.contains(" w - - 0 1"),
        "{text}"
    );
    let bad = banco_stdin(&["edit", "--fen", "not a fen"], "");
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn edit_play_takes_level_and_colour_in_either_order() {
    let fen = "3k5/9/R8/9/9/9/9/9/9/4K4 w - 0 1";
    let out = banco_stdin(
        &["edit", "--fen", fen, "--no-color"],
        "play purple\nsolve abc\nplay black 3\nquit\n",
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("`purple` is not a level (1-10) or a colour"),
        "{text}"
    );
    assert!(text.contains("`abc` is not a number of moves"), "{text}");
    assert!(text.contains("you are black against level 3"), "{text}");
}

#[test]
fn new_keeps_the_level_the_player_set() {
    let save = temp("new-level.txt");
    let out = banco_stdin(
        &["play", "--level", "2", "--movetime", "20", "--no-color"],
        &format!("level 8\nnew\nsave {}\nquit\n", save.display()),
    );
    assert!(out.status.success(), "{}", stdout(&out));
    let saved = std::fs::read_to_string(&save).unwrap();
    assert!(saved.contains("[Level \"8\"]"), "{saved}");
}

#[test]
fn pgn_import_export_and_play_saves() {
    let pgn = temp("a.pgn");
    std::fs::write(
        &pgn,
        "[Event \"t\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 (1... c5) 2. Nf3 Nc6 *\n",
    )
    .unwrap();
    let save = temp("a.banco");
    let out = banco_stdin(
        &[
            "pgn",
            "import",
            pgn.to_str().unwrap(),
            "-o",
            save.to_str().unwrap(),
        ],
        "",
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("game 1: chess A vs B, 2 moves (4 plies), result *"),
        "{text}"
    );
    assert!(text.contains("note: 1 variation skipped"));
    let out = banco_stdin(&["pgn", "export", save.to_str().unwrap()], "");
    assert!(
        stdout(&out).contains("1. e4 e5 2. Nf3 Nc6 *"),
        "{}",
        stdout(&out)
    );
    // `banco play` saves and loads PGN.
    let game = temp("b.pgn");
    let script = format!(
        "load {}\nNc3\nsave {}\nquit\n",
        pgn.display(),
        game.display()
    );
    let out = banco_stdin(
        &[
            "play",
            "--game",
            "chess",
            "--level",
            "1",
            "--movetime",
            "20",
            "--no-color",
        ],
        &script,
    );
    assert!(stdout(&out).contains("loaded"), "{}", stdout(&out));
    let saved = std::fs::read_to_string(&game).unwrap();
    assert!(saved.contains("3. Nc3"), "{saved}");
    let bad = temp("bad.pgn");
    std::fs::write(&bad, "1. e4 e5 2. Ke3 *\n").unwrap();
    let out = banco_stdin(&["pgn", "import", bad.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).contains("move 2 (White) `Ke3` is not legal"));
}

#[test]
fn render_writes_svg() {
    let svg = temp("x.svg");
    let out = banco_stdin(
        &[
            "render",
            "--game",
            "xiangqi",
            "--last",
            "h2e2",
            "--flip",
            "-o",
            svg.to_str().unwrap(),
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(text.matches("class=\"piece ").count(), 32);
    let gif = temp("x.gif");
    let out = banco_stdin(&["render", "-o", gif.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
}

/// Width and height from a PNG header.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let word = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

#[test]
fn render_png_at_two_scales() {
    let png = temp("x.png");
    let out = banco_stdin(
        &["render", "--game", "chess", "-o", png.to_str().unwrap()],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(png_size(&std::fs::read(&png).unwrap()), (560, 560));
    let out = banco_stdin(&["render", "--scale", "2", "-o", png.to_str().unwrap()], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(png_size(&std::fs::read(&png).unwrap()), (1216, 1336));
    let out = banco_stdin(
        &["render", "--scale", "50", "-o", png.to_str().unwrap()],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("scale 50 is outside"));
}

#[test]
fn render_lines_from_a_position_string_and_a_save() {
    let svg = temp("lines.svg");
    let out = banco_stdin(
        &[
            "render",
            "--game",
            "lines",
            "--fen",
            "9/9/9/9/2RRRR3/9/9/9/8B GBY 40",
            "--last",
            "i5i1",
            "-o",
            svg.to_str().unwrap(),
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(text.matches("class=\"ball ").count(), 5);
    assert!(text.contains("class=\"ball blue\" data-cell=\"i1\""));
    assert!(text.contains("data-from=\"i5\" data-to=\"i1\""));
    let out = banco_stdin(
        &[
            "render",
            "--game",
            "lines",
            "--fen",
            "9/9/9",
            "-o",
            svg.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("9 ranks"));
    // A save of a new Lines game: its five start balls and three announced colours.
    let save = temp("lines.banco");
    let out = banco_stdin(
        &["play", "--game", "lines", "--seed", "9", "--no-color"],
        &format!("save {}\nquit\n", save.display()),
    );
    assert!(out.status.success());
    let out = banco_stdin(
        &[
            "render",
            "--load",
            save.to_str().unwrap(),
            "-o",
            svg.to_str().unwrap(),
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(text.matches("class=\"ball ").count(), 5, "{text}");
    assert_eq!(text.matches("class=\"next ").count(), 3);
}

#[test]
fn puzzles_list_counts_every_tier() {
    let out = banco_stdin(&["puzzles", "list"], "");
    let text = stdout(&out);
    assert!(out.status.success());
    let total: usize = text
        .lines()
        .last()
        .and_then(|l| l.strip_prefix("total "))
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(total >= 200, "{text}");
}

#[test]
fn pgn_and_text_saves_keep_the_player_rules_and_ending() {
    // A PGN saved as Black at level 3 under casual rules loads as that game: the computer
    // does not play the player's move.
    let pgn = temp("as-black.pgn");
    let again = temp("as-black-again.txt");
    let out = banco_stdin(
        &[
            "play",
            "--color",
            "black",
            "--level",
            "3",
            "--rules",
            "casual",
            "--movetime",
            "20",
            "--no-color",
        ],
        &format!("save {}\nquit\n", pgn.display()),
    );
    assert!(out.status.success(), "{}", stdout(&out));
    let out = banco_stdin(
        &["play", "--level", "1", "--movetime", "20", "--no-color"],
        &format!("load {}\nsave {}\nquit\n", pgn.display(), again.display()),
    );
    let text = stdout(&out);
    let after_load = text.split("loaded").nth(1).unwrap_or_default();
    assert!(!after_load.contains("banco plays"), "{text}");
    let saved = std::fs::read_to_string(&again).unwrap();
    for tag in ["[Rules \"casual\"]", "[Human \"Black\"]", "[Level \"3\"]"] {
        assert!(saved.contains(tag), "{tag} in {saved}");
    }
    // A resigned game saved as text loads finished.
    let resigned = temp("resigned.txt");
    let out = banco_stdin(
        &["play", "--level", "1", "--movetime", "20", "--no-color"],
        &format!("h2e2\nresign\nsave {}\nquit\n", resigned.display()),
    );
    assert!(out.status.success(), "{}", stdout(&out));
    let out = banco_stdin(
        &["play", "--level", "1", "--movetime", "20", "--no-color"],
        &format!("load {}\nh0g2\nquit\n", resigned.display()),
    );
    let text = stdout(&out);
    assert!(text.contains("black wins by resignation"), "{text}");
    assert!(!text.contains("you play h0g2"), "{text}");
}

#[test]
fn a_collection_puzzle_is_played_with_its_hint_and_the_progress_is_kept() {
    let progress = temp("puzzles-progress");
    let _ = std::fs::remove_file(&progress);
    let file = progress.to_str().unwrap();
    let common_args = ["--progress", file, "--movetime", "50", "--no-color"];
    let run = |id: Option<&str>, script: &str| {
        let mut args = vec!["puzzles", "play"];
        args.extend(id);
        args.extend(common_args);
        stdout(&banco_stdin(&args, script))
    };
    // The next unsolved puzzle (the collection's first, a mate in 1): the hint is its move.
    let text = run(None, "hint\nquit\n");
    let id = text
        .lines()
        .find_map(|l| l.strip_prefix("Puzzle "))
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or_else(|| panic!("{text}"))
        .to_owned();
    assert!(text.contains("mates in 1"), "{text}");
    let mv = text
        .lines()
        .find_map(|l| l.split_once("hint: ").map(|(_, m)| m))
        .and_then(|m| m.split_whitespace().next())
        .unwrap_or_else(|| panic!("{text}"))
        .to_owned();
    // Tried again and solved with that move; the progress file keeps it.
    let text = run(Some(&id), &format!("{mv}\nquit\n"));
    assert!(text.contains("solved! (hints 0, wrong moves 0)"), "{text}");
    let text = run(None, "quit\n");
    assert!(
        !text.contains(&format!("Puzzle {id} ")),
        "a solved puzzle is not offered again:\n{text}"
    );
    // A stray byte at the end of the progress file loses nothing: the record before it
    // is kept, and a copy of the damaged file is set aside before anything writes.
    let mut damaged = std::fs::read(&progress).unwrap();
    damaged.push(b'X');
    std::fs::write(&progress, &damaged).unwrap();
    let text = run(None, "quit\n");
    let aside = progress.with_extension("damaged");
    assert!(text.contains("could not be read whole"), "{text}");
    assert_eq!(std::fs::read(&aside).unwrap(), damaged);
    assert!(
        !text.contains(&format!("Puzzle {id} ")),
        "the solved puzzle is still solved:\n{text}"
    );
    // A puzzle of another game, or no such id, is refused.
    let out = banco_stdin(&["puzzles", "play", "nope", "--no-color"], "");
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_file(&progress);
    let _ = std::fs::remove_file(&aside);
}

#[test]
fn an_empty_file_is_not_loaded_and_no_document_is_overwritten() {
    let empty = temp("empty.banco");
    std::fs::write(&empty, "").unwrap();
    let notes = temp("notes.md");
    std::fs::write(&notes, "precious").unwrap();
    let out = banco_stdin(
        &["play", "--level", "1", "--movetime", "20", "--no-color"],
        &format!(
            "h2e2\nload {}\nsave {}\nfen\nquit\n",
            empty.display(),
            notes.display()
        ),
    );
    let text = stdout(&out);
    assert!(text.contains("the file is empty"), "{text}");
    assert!(text.contains("is not a saved game"), "{text}");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "precious");
    // The game in progress is still the one on the board (h2e2 and the reply).
    assert!(!text.contains("loaded "), "{text}");
    let _ = std::fs::remove_file(&empty);
    let _ = std::fs::remove_file(&notes);
}

#[test]
fn the_game_in_progress_is_kept_and_continued() {
    let kept = temp("kept-game");
    let _ = std::fs::remove_file(&kept);
    let keep = kept.to_str().unwrap();
    // A seed, and a move time the level's node cap always ends first: the computer's
    // reply repeats (a capture would reset the move counter checked below).
    let out = banco_stdin(
        &[
            "play",
            "--level",
            "2",
            "--movetime",
            "5000",
            "--seed",
            "1",
            "--no-color",
            "--keep",
            keep,
        ],
        "h2e2\nquit\n",
    );
    let text = stdout(&out);
    // The way to go on names the file: without it `--continue` would take the data
    // directory's kept game.
    assert!(
        text.contains(&format!(
            "the game is kept: `banco play --continue --keep {keep}` goes on with it"
        )),
        "{text}"
    );
    // The next session goes on from there: the two moves, the level kept with them.
    let out = banco_stdin(
        &[
            "play",
            "--continue",
            "--movetime",
            "20",
            "--no-color",
            "--keep",
            keep,
        ],
        "fen\nquit\n",
    );
    let text = stdout(&out);
    assert!(
        text.contains("continuing the kept game: 1 move (2 plies)"),
        "{text}"
    );
    assert!(text.contains("against level 2"), "{text}");
    assert!(text.contains(" w - - 2 2"), "{text}");
    // Nothing kept: a clear error, exit 2.
    let _ = std::fs::remove_file(&kept);
    let out = banco_stdin(&["play", "--continue", "--keep", keep], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no game kept"));
}

/// `--keep FILE` replaces only a game record, as `save` does: a document of that name is
/// left as it was, and the player is told.
#[test]
fn keep_never_replaces_a_document() {
    let notes = temp("keep-notes.txt");
    std::fs::write(&notes, "my notes").unwrap();
    let out = banco_stdin(
        &[
            "play",
            "--level",
            "1",
            "--movetime",
            "20",
            "--no-color",
            "--keep",
            notes.to_str().unwrap(),
        ],
        "h2e2\nquit\n",
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains(
            "is not a saved game: this game is not kept there — choose another --keep file"
        ),
        "{text}"
    );
    assert!(!text.contains("the game is kept"), "{text}");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes");
    let _ = std::fs::remove_file(&notes);
}

/// `pgn import -o` follows `save`'s rule for the name: a `.pgn` name gets PGN, not the
/// binary record; a Banco save given to `pgn import` is named as one.
#[test]
fn pgn_import_writes_pgn_to_a_pgn_name_and_names_a_banco_save() {
    let pgn = temp("import-src.pgn");
    std::fs::write(&pgn, "[Event \"t\"]\n\n1. e4 e5 2. Nf3 *\n").unwrap();
    let out_pgn = temp("import-out.pgn");
    let out_save = temp("import-out.banco");
    for out in [&out_pgn, &out_save] {
        let _ = std::fs::remove_file(out);
        let o = banco_stdin(
            &[
                "pgn",
                "import",
                pgn.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
            ],
            "",
        );
        assert!(o.status.success(), "{}", stdout(&o));
    }
    let written = std::fs::read_to_string(&out_pgn).unwrap();
    assert!(written.starts_with("[Event "), "{written}");
    assert!(written.contains("1. e4 e5 2. Nf3"), "{written}");
    assert!(std::fs::read(&out_save).unwrap().starts_with(b"\x89BANCO"));
    // A saved game is no PGN: say what it is and how to get PGN from it.
    let o = banco_stdin(&["pgn", "import", out_save.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("is a Banco saved game, not PGN"), "{err}");
    assert!(err.contains("banco pgn export"), "{err}");
    assert!(!err.contains("is not legal"), "{err}");
    // Loaded in `play`: one ply is `1 move (1 ply)`, and the side and level in effect are said.
    let one = temp("one-move.pgn");
    std::fs::write(&one, "[Event \"t\"]\n\n1. e4 *\n").unwrap();
    let o = banco_stdin(
        &["play", "--game", "chess", "--color", "black", "--no-color"],
        &format!("load {}\nsave\nquit\n", one.display()),
    );
    let text = stdout(&o);
    assert!(
        text.contains(&format!(
            "loaded {}: 1 move (1 ply); you play black against level 5\n",
            one.display()
        )),
        "{text}"
    );
    assert!(text.contains("mygame.pgn for PGN"), "{text}");
    for f in [&pgn, &out_pgn, &out_save, &one] {
        let _ = std::fs::remove_file(f);
    }
}

/// A database game (its own event, site, date and players) loaded in `play`, played on and
/// saved keeps its tags: the moves played since are appended and the result is the game's
/// now; a record of Banco's own roster is still written with the roster of today's game.
#[test]
fn a_loaded_database_game_keeps_its_tags() {
    let db = temp("lichess.pgn");
    let out = temp("lichess-resaved.pgn");
    let _ = std::fs::remove_file(&out);
    std::fs::write(
        &db,
        "[Event \"Rated Blitz game\"]\n[Site \"https://lichess.org/abc\"]\n[Date \"2020.01.02\"]\n[White \"alice\"]\n[Black \"bob\"]\n[Result \"*\"]\n[WhiteElo \"1500\"]\n\n1. e4 e5 *\n",
    )
    .unwrap();
    let o = banco_stdin(
        &[
            "play",
            "--game",
            "chess",
            "--no-color",
            "--level",
            "1",
            "--seed",
            "1",
        ],
        &format!(
            "load {}\nNf3\nresign\nsave {}\nquit\n",
            db.display(),
            out.display()
        ),
    );
    let text = stdout(&o);
    assert!(o.status.success(), "{text}");
    let saved = std::fs::read_to_string(&out).unwrap();
    for tag in [
        "[Event \"Rated Blitz game\"]",
        "[Site \"https://lichess.org/abc\"]",
        "[Date \"2020.01.02\"]",
        "[White \"alice\"]",
        "[Black \"bob\"]",
        "[WhiteElo \"1500\"]",
        "[Result \"0-1\"]",
    ] {
        assert!(saved.contains(tag), "{tag}:\n{saved}");
    }
    assert!(saved.contains("1. e4 e5 2. Nf3"), "{saved}");
    assert!(!saved.contains("Banco level"), "{saved}");
    // Read back: the player's side and level, and the tags again.
    let again = temp("lichess-again.pgn");
    let o = banco_stdin(
        &["play", "--game", "chess", "--no-color"],
        &format!("load {}\nsave {}\nquit\n", out.display(), again.display()),
    );
    assert!(o.status.success(), "{}", stdout(&o));
    assert_eq!(std::fs::read_to_string(&again).unwrap(), saved);
    for f in [&db, &out, &again] {
        let _ = std::fs::remove_file(f);
    }
}

/// `banco render` draws any diagram the FEN reader can place, legal or not (an empty
/// board, a study without a king, kings facing), in every game it draws; a FEN it cannot
/// read is still refused.
#[test]
fn render_draws_any_setup() {
    let svg = temp("setup.svg");
    for (game, fen, pieces) in [
        ("chess", "8/8/8/8/8/8/8/8 w - - 0 1", 0),
        ("chess", "8/8/8/8/8/8/8/4K2R w K - 0 1", 2),
        ("xiangqi", "9/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1", 2),
        ("xiangqi", "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", 2),
        ("jieqi", "9/9/9/9/9/9/9/9/4R4/9 w - 0 1", 1),
    ] {
        let out = banco_stdin(
            &[
                "render",
                "--game",
                game,
                "--fen",
                fen,
                "--last",
                "e1e2",
                "-o",
                svg.to_str().unwrap(),
            ],
            "",
        );
        assert!(
            out.status.success(),
            "{fen}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = std::fs::read_to_string(&svg).unwrap();
        assert_eq!(text.matches("class=\"piece ").count(), pieces, "{fen}");
        assert!(!text.contains("check"), "{fen}: nothing judged");
    }
    let out = banco_stdin(
        &[
            "render",
            "--game",
            "chess",
            "--fen",
            "9/8/8/8/8/8/8/8",
            "-o",
            svg.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let _ = std::fs::remove_file(&svg);
}

/// A PGN's comments and annotations are not kept by Banco's saved game: `pgn import -o`
/// and `pgn export` of a PGN file say so, as the skipped variations are said.
#[test]
fn comments_left_out_of_a_save_are_said() {
    let pgn = temp("commented.pgn");
    let save = temp("commented.banco");
    std::fs::write(
        &pgn,
        "[Event \"x\"]\n\n1. e4 {best by test} e5 2. Nf3 (2. f4 exf4) Nc6 $1 *\n",
    )
    .unwrap();
    let out = banco_stdin(
        &[
            "pgn",
            "import",
            pgn.to_str().unwrap(),
            "-o",
            save.to_str().unwrap(),
        ],
        "",
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("note: 1 variation skipped"), "{text}");
    assert!(
        text.contains("note: 1 comment and 1 annotation not kept: a Banco saved game keeps the moves, not the comments"),
        "{text}"
    );
    let out = banco_stdin(&["pgn", "export", pgn.to_str().unwrap()], "");
    assert!(out.status.success(), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("note: 1 comment and 1 annotation not kept"),
        "{out:?}"
    );
    assert!(stdout(&out).contains("1. e4 e5 2. Nf3 Nc6"), "{out:?}");
    // Nothing left out, nothing said.
    let out = banco_stdin(&["pgn", "export", save.to_str().unwrap()], "");
    assert!(String::from_utf8_lossy(&out.stderr).is_empty(), "{out:?}");
    for f in [&pgn, &save] {
        let _ = std::fs::remove_file(f);
    }
}
