//! Jieqi engine games: a few short games between the engine and the plain baseline end
//! legally (every reveal drawn from the pool, no illegal move); the strength matches are
//! `#[ignore]`d (run by hand or by `tests/nightly.sh`) and print W/D/L with the Elo
//! difference and its 95 % error.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use banco_engine::matchplay::{self, MatchOptions, PlayerSpec};
use banco_xiangqi::RuleSet;
use banco_xiangqi::jieqi::Jieqi;

fn options(games: u32, max_plies: u32, seed: u64) -> MatchOptions<RuleSet> {
    MatchOptions {
        games,
        max_plies,
        seed,
        ..MatchOptions::default()
    }
}

#[test]
fn short_games_end_legally() {
    let a: PlayerSpec<Jieqi> = "level=10,nodes=1500".parse().unwrap();
    let b: PlayerSpec<Jieqi> = "plain,depth=1".parse().unwrap();
    let mut reasons = Vec::new();
    let report = matchplay::run(&a, &b, &options(4, 60, 7), |g| {
        reasons.push(g.reason.clone());
        assert!(g.plies > 0);
    });
    assert_eq!(report.games(), 4);
    for r in &reasons {
        assert!(
            !r.starts_with("illegal") && r != "no chance outcome" && r != "no move",
            "{reasons:?}"
        );
    }
}

fn strength(a: &str, b: &str, games: u32) {
    let a: PlayerSpec<Jieqi> = a.parse().unwrap();
    let b: PlayerSpec<Jieqi> = b.parse().unwrap();
    let report = matchplay::run(&a, &b, &options(games, 200, 2026), |g| {
        println!(
            "game {} {} {:.1} {}",
            g.index, g.opening, g.a_score, g.reason
        );
    });
    println!("{} vs {}: {}", a.name, b.name, report.summary());
    assert!(
        report.wins > report.losses,
        "{} must beat {}: {}",
        a.name,
        b.name,
        report.summary()
    );
}

/// Level 10 against the plain alpha-beta with the seed's values.
#[test]
#[ignore = "slow (minutes): a 20-game strength match; run by tests/nightly.sh strength"]
fn level_10_against_plain() {
    strength("level=10,nodes=20000", "plain,depth=2", 20);
}

/// Level 10 against level 5.
#[test]
#[ignore = "slow (minutes): a 20-game strength match; run by tests/nightly.sh strength"]
fn level_10_against_level_5() {
    strength("level=10,nodes=20000", "level=5,nodes=20000", 20);
}
