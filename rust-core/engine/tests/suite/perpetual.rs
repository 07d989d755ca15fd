//! The mate solver and the defender's perpetual check: under rules where perpetual check
//! loses, a defender whose only escape is checking forever is lost, and the solver counts
//! that line as won; the attacker's own perpetual check never is.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers of tests

use banco_engine::solve::{SolveOptions, SolveResult, solve};
use banco_game::{Color, Game, Outcome, WinReason};
use banco_xiangqi::{Move, RuleSet, Xiangqi};
use std::sync::atomic::AtomicBool;

/// BATCH #119: after the recapture g1c1 Black's only defence against mate is perpetual
/// check with the rook (Fairy-Stockfish: mate in 7).
const BATCH_119: &str = "3ak2P1/4aP3/9/9/9/9/9/9/2r2rC2/c3K4 w - - 0 1";

fn solve_under(fen: &str, rules: &RuleSet, max_mate: u32) -> SolveResult<Move> {
    let game = Xiangqi::from_fen(fen).unwrap();
    let options = SolveOptions {
        max_mate,
        time_limit: None,
        node_limit: Some(20_000_000),
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
