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
    let dir = std::env::temp_dir().join(format!("banco-lines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
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
    let last = text.lines().last().unwrap();
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(words.len(), 10, "{last}");
    assert_eq!(
        [words[0], words[1], words[2], words[4], words[6], words[8]],
        [
            "games",
            "2",
            "median_score",
            "mean_score",
            "median_turns",
            "ms_per_move"
        ]
    );
    assert_eq!(words[7], "30", "both games reach the turn limit: {text}");
}
