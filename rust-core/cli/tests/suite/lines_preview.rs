//! `banco play --game lines --preview`, `banco bench lines --preview` and the race `banco
//! host --game lines --preview` / `banco join`: Lines 98's preview shows where the next
//! balls land, and they land there.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;
use common::banco_stdin;

/// The entries of the last line starting with `word` (`next Rc5 Gd7 Ba1`).
fn last_entries(text: &str, word: &str) -> Vec<String> {
    let line = text
        .lines()
        .rev()
        .find_map(|l| l.split(word).nth(1).filter(|_| l.contains(word)))
        .unwrap_or_else(|| panic!("no `{word}` in:\n{text}"));
    line.split_whitespace()
        .take_while(|w| w.len() >= 3 && w.chars().next().unwrap().is_ascii_uppercase())
        .map(str::to_owned)
        .collect()
}

/// The spots drawn on the board: colour letter (upper case) and cell, in board order.
fn drawn_spots(rows: &[Vec<String>]) -> Vec<String> {
    let mut out = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        for (f, c) in row.iter().enumerate() {
            if c.chars().all(|ch| ch.is_ascii_lowercase()) {
                out.push(format!(
                    "{}{}",
                    c.to_ascii_uppercase(),
                    common::cell_name(f, r)
                ));
            }
        }
    }
    out
}

#[test]
fn play_lines_preview_shows_the_spots_and_the_balls_land_there() {
    let args = [
        "play",
        "--game",
        "lines",
        "--seed",
        "9",
        "--no-color",
        "--preview",
    ];
    let out = banco_stdin(&args, "quit\n");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let rows = common::last_board(&text);
    let next = last_entries(&text, "next ");
    assert_eq!(next.len(), 3, "{text}");
    let mut shown = drawn_spots(&rows);
    let mut named = next.clone();
    shown.sort();
    named.sort();
    assert_eq!(
        shown, named,
        "the board shows the cells the next line names:\n{text}"
    );
    let mv = common::quiet_lines_move(&rows);
    let out = banco_stdin(&args, &format!("{mv}\nquit\n"));
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(!text.contains("line of"), "{text}");
    assert_eq!(last_entries(&text, "landed "), next, "{text}");
    // Without --preview the board and the next line are as they always were.
    let classic = banco_stdin(&args[..6], "quit\n");
    let classic = String::from_utf8_lossy(&classic.stdout).to_string();
    assert!(
        drawn_spots(&common::last_board(&classic)).is_empty(),
        "{classic}"
    );
    let line = classic.lines().find(|l| l.contains("next ")).unwrap();
    let colours: Vec<&str> = line.split("next ").nth(1).unwrap().split(' ').collect();
    assert!(colours.iter().all(|c| c.len() == 1), "{line}");
}

#[test]
fn bench_lines_preview_prints_the_summary_last() {
    let out = banco_stdin(
        &[
            "bench",
            "lines",
            "--games",
            "2",
            "--seed",
            "5",
            "--preview",
            "--max-turns",
            "30",
        ],
        "",
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("preview"), "{text}");
    // Both games reach the turn limit.
    common::assert_lines_bench_line(&text, "2", "30");
}

/// `text` up to its first race status line (`score …  next Rc5 Gd7 Ba1  …  |  opponent …`),
/// under the board shown when the race starts (no path marked on it).
fn up_to_first_status(text: &str) -> &str {
    let end = text
        .find("|  opponent score")
        .unwrap_or_else(|| panic!("no race status in:\n{text}"));
    &text[..end]
}

#[test]
fn a_race_with_the_preview_is_proposed_and_both_boards_show_their_spots() {
    let (h, g) = common::ai_race("race-preview", &["--race-secs", "2", "--preview"]);
    // The guest learns the preview from the proposal.
    assert!(
        g.contains("the other player proposes a lines race (5 balls, 2 s, preview). Accept? yes"),
        "{g}"
    );
    assert!(
        h.contains("the race starts (5 balls, 2 s, preview): your board is red"),
        "{h}"
    );
    assert!(g.contains("the race starts (5 balls, 2 s, preview): your board is black"));
    // Each side's board shows the spots its status line names, as `play --preview`.
    for text in [&h, &g] {
        let before = up_to_first_status(text);
        let mut named = last_entries(before, "next ");
        let mut shown = drawn_spots(&common::last_board(before));
        assert_eq!(named.len(), 3, "{text}");
        named.sort();
        shown.sort();
        assert_eq!(
            shown, named,
            "the board shows the cells the status names:\n{text}"
        );
    }
    let (hl, gl) = (h.lines().last(), g.lines().last());
    assert!(hl.is_some_and(|l| l.starts_with("result ")), "{h}");
    assert_eq!(hl, gl, "both sides print the same result line");
}

#[test]
fn the_preview_is_refused_for_a_board_game() {
    let out = common::banco(&["host", "--game", "chess", "--preview", "--no-mdns"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--preview is a rule of the Lines race (--game lines), not of chess"),
        "{err}"
    );
}
