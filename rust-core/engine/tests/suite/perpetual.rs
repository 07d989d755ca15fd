//! The mate solver and the defender's perpetual check: under rules where perpetual check
//! loses, a defender whose only escape is checking forever is lost, and the solver counts
//! that line as won — once the game judges the repetition, at its third occurrence, so the
//! defender may go round again first; the attacker's own perpetual check never is.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers of tests

use banco_engine::solve::{SolveOptions, SolveResult, solve};
use banco_game::{Color, Game, Outcome, WinReason};
use banco_xiangqi::{Move, RuleSet, Xiangqi};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

/// BATCH #119: after the recapture g1c1 Black's only defence against mate is perpetual
/// check with the rook (Fairy-Stockfish: mate in 7).
const BATCH_119: &str = "3ak2P1/4aP3/9/9/9/9/9/9/2r2rC2/c3K4 w - - 0 1";

fn solve_under(fen: &str, rules: &RuleSet, max_mate: u32) -> SolveResult<Move> {
    solve_under_limit(fen, rules, max_mate, 20_000_000)
}

fn solve_under_limit(fen: &str, rules: &RuleSet, max_mate: u32, nodes: u64) -> SolveResult<Move> {
    let game = Xiangqi::from_fen(fen).unwrap();
    let options = SolveOptions {
        max_mate,
        time_limit: None,
        node_limit: Some(nodes),
        hash_mib: 16,
    };
    solve(&game, rules, &options, &AtomicBool::new(false))
}

/// Plays `line` from `fen`; then, while the game is undecided and the line's end repeats
/// an earlier position, plays the cycle again (the defender keeps checking) until the
/// rules decide. The outcome under `rules`.
fn play_out(fen: &str, line: &[Move], rules: &RuleSet) -> Option<Outcome> {
    let mut game = Xiangqi::from_fen(fen).unwrap();
    // The board and the side to move (the FEN without its counters).
    let key = |g: &Xiangqi| g.fen().split(' ').take(2).collect::<Vec<_>>().join(" ");
    let mut keys = vec![key(&game)];
    for &mv in line {
        game.play(mv).unwrap();
        keys.push(key(&game));
    }
    let last = keys.last().unwrap().clone();
    let Some(start) = keys[..keys.len() - 1].iter().rposition(|k| *k == last) else {
        return game.outcome(rules);
    };
    let cycle = &line[start..];
    for _ in 0..4 {
        if let Some(o) = game.outcome(rules) {
            return Some(o);
        }
        for &mv in cycle {
            game.play(mv).unwrap();
        }
    }
    game.outcome(rules)
}

fn assert_mate_in_7(rules: &RuleSet) {
    let r = solve_under(BATCH_119, rules, 40);
    assert_eq!(r.mate, Some(7), "{r:?}");
    // The search for a shorter mate runs out of its budget here: disprove it on its own.
    let six = solve_under(BATCH_119, rules, 6);
    assert!(six.mate.is_none() && !six.aborted, "{six:?}");
    assert_eq!(
        r.line.first().map(ToString::to_string).as_deref(),
        Some("g1c1")
    );
    let outcome = play_out(BATCH_119, &r.line, rules);
    assert!(
        matches!(
            outcome,
            Some(Outcome::Win {
                winner: Color::Red,
                reason: WinReason::Checkmate | WinReason::Stalemate | WinReason::PerpetualCheck
            })
        ),
        "line {:?} ends in {outcome:?}",
        r.line.iter().map(ToString::to_string).collect::<Vec<_>>()
    );
}

#[test]
fn defender_perpetual_check_is_mate_under_asian_rules() {
    assert_mate_in_7(&RuleSet::asian());
}

#[test]
fn casual_rules_judge_perpetual_check_too() {
    // Casual rules only differ on perpetual chase: a perpetual check still loses.
    assert_mate_in_7(&RuleSet::casual());
}

#[test]
fn attackers_perpetual_check_is_not_mate() {
    // Red can check forever from f0/e0 but cannot mate (the rules' own example).
    let r = solve_under(
        "9/4k4/9/9/9/9/9/9/2p6/3K1RBc1 w - - 0 1",
        &RuleSet::asian(),
        10,
    );
    assert_eq!(r.mate, None, "{r:?}");
    assert!(!r.aborted);
}

/// BATCH #29 (`tests/data/puzzles/xiangqi-mates.tsv`): after c8e7 Black's rook checks the
/// shuttling king. Judging its first repetition, Red mates in 10; but the game judges only
/// the third occurrence, so Black goes round once more and then turns away (e0d0): the
/// mate takes 12 moves, as the book says.
const BATCH_29: &str = "2ba1kbRC/2N1a4/9/4p4/4c1p2/9/9/1p2B1r2/4r1n2/3K2B2 w - - 0 1";

#[test]
fn the_defender_goes_round_again_before_turning_away() {
    let rules = RuleSet::asian();
    let r = solve_under(BATCH_29, &rules, 12);
    assert_eq!(r.mate, Some(12), "{r:?}");
    // The line, played by the game under its own rules, is decided at its last move
    // only: Red wins; on the way Black's checks bring a position back.
    let mut game = Xiangqi::from_fen(BATCH_29).unwrap();
    let mut seen = HashMap::new();
    for (i, &mv) in r.line.iter().enumerate() {
        assert_eq!(
            game.outcome(&rules),
            None,
            "decided before move {i}: {:?}",
            r.line
        );
        game.play(mv).unwrap();
        *seen.entry(game.position().hash()).or_insert(0) += 1;
    }
    assert_eq!(
        game.outcome(&rules).and_then(|o| o.winner()),
        Some(Color::Red),
        "{:?}",
        r.line
    );
    assert!(seen.values().any(|&n| n >= 2), "no round: {:?}", r.line);
    assert!(r.line.len() > 2 * 10, "{:?}", r.line);
    // Within 11 moves Black escapes by going round again: no mate to report (the first
    // repetition judged, this was a mate in 10).
    let eleven = solve_under_limit(BATCH_29, &rules, 11, 3_000_000);
    assert_eq!(eleven.mate, None, "{eleven:?}");
}

/// A small table (`hash_mib` 4) still finds BATCH #119's mate in 7: the solver searches
/// with at least `MIN_HASH_MIB` (with 4 MiB the proof did not fit and 10 s found nothing;
/// the solver before the game's repetition count found it in a tenth of a second).
#[test]
fn a_small_table_still_finds_the_mate() {
    let game = Xiangqi::from_fen(BATCH_119).unwrap();
    let options = SolveOptions {
        max_mate: 8,
        time_limit: None,
        node_limit: Some(40_000_000),
        hash_mib: 4,
    };
    let r = solve(
        &game,
        &RuleSet::default(),
        &options,
        &AtomicBool::new(false),
    );
    assert_eq!(r.mate, Some(7), "{r:?}");
}
