//! Two `banco` processes race at Lines over loopback TCP: `banco host --game lines
//! --race-secs 3 --ai 1` and `banco join 127.0.0.1:PORT --ai 1`, both accepting the code
//! and the race with `--yes`. Both boards start from the seed both made, both computers
//! play at once, and the race ends at the time limit with the same last line on both
//! sides: `result R-B scores RED:BLACK turns RED:BLACK end finished`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

/// The numbers `A:B` after `key ` in the result line.
fn pair(line: &str, key: &str) -> [u32; 2] {
    let field = line
        .split(&format!("{key} "))
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("no {key} in {line:?}"));
    let mut it = field.split(':').map(|n| n.parse::<u32>().unwrap());
    [it.next().unwrap(), it.next().unwrap()]
}

#[test]
fn host_and_join_race_to_the_time_limit() {
    let (h, g) = common::ai_race("race", &["--race-secs", "3", "--balls", "5"]);
    assert!(
        g.contains("the other player proposes a lines race (5 balls, 3 s). Accept? yes"),
        "{g}"
    );
    assert!(
        h.contains("the race starts (5 balls, 3 s): your board is red"),
        "{h}"
    );
    assert!(g.contains("your board is black"), "{g}");
    // The opponent's live line, and our board with the opponent's score under it.
    assert!(h.contains("they: move 1 score") && g.contains("they: move 1 score"));
    assert!(h.contains("|  opponent score"), "{h}");
    let (hl, gl) = (
        h.lines().last().unwrap_or_default(),
        g.lines().last().unwrap_or_default(),
    );
    assert!(
        hl.starts_with("result ") && hl.ends_with(" end finished"),
        "{hl:?}"
    );
    assert_eq!(hl, gl, "both sides print the same result line");
    let turns = pair(hl, "turns");
    assert!(turns[0] > 0 && turns[1] > 0, "both computers played: {hl}");
    // Each side's count of its own moves is the one the other side replayed.
    let own = |out: &str| out.lines().filter(|l| l.starts_with("you play ")).count() as u32;
    assert_eq!([own(&h), own(&g)], turns, "{hl}");
    let [r, b] = pair(hl, "scores");
    let expected = match r.cmp(&b) {
        std::cmp::Ordering::Greater => "result 1-0 ",
        std::cmp::Ordering::Less => "result 0-1 ",
        std::cmp::Ordering::Equal => "result 1/2-1/2 ",
    };
    assert!(hl.starts_with(expected), "the higher score wins: {hl}");
}
