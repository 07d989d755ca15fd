//! Each game's bench node count is pinned: it is the signature of the search (pruning,
//! ordering, evaluation), so a change that should leave the search alone — moving code
//! between crates, making a module generic — must leave it alone, and a change that means
//! to alter the search updates the number here on purpose. (Speed is measured with
//! `banco bench`, never asserted.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers of tests

use banco_chess::Chess;
use banco_engine::bench;
use banco_game::toy::DiceRace;
use banco_xiangqi::Xiangqi;

/// (1,221,904 before a loss by rule was scored as a mate at the same distance instead of
/// below every mate: perpetual checks inside the bench's trees now rank by distance.)
#[test]
fn xiangqi_bench_signature() {
    let report = bench::run::<Xiangqi>();
    assert_eq!(report.positions, 32);
    assert_eq!(report.nodes, 1_181_331, "{}", report.lines.join("\n"));
}

/// Every switchable search feature off: the search as it was before them, with today's
/// evaluation (2,468,116 with the first Texel round's weights, 1,671,049 with the second
/// round's, 1,488,899 with the third round's, issue #17; 1,344,019 before losses by rule
/// were scored as mates at the same distance).
#[test]
fn xiangqi_bench_without_features_is_the_old_search() {
    use banco_engine::EngineGame;
    use banco_engine::features::Features;
    let report = bench::run_featured::<Xiangqi>(
        Xiangqi::BENCH_POSITIONS,
        Xiangqi::BENCH_DEPTH,
        bench::DEFAULT_HASH_MIB,
        1,
        Features::NONE,
    );
    assert_eq!(report.nodes, 1_362_048, "{}", report.lines.join("\n"));
}

#[test]
fn chess_bench_signature() {
    let report = bench::run::<Chess>();
    assert_eq!(report.positions, 32);
    assert_eq!(report.nodes, 4_508_210, "{}", report.lines.join("\n"));
}

#[test]
fn dice_race_bench_signature() {
    // Chance nodes: a perfect-information bench would not notice a change to them.
    let report = bench::run::<DiceRace>();
    assert_eq!(report.nodes, 167_914, "{}", report.lines.join("\n"));
}

#[test]
fn jieqi_bench_signature() {
    // Chance nodes at every reveal, the pool in the table key. (106,637 before the
    // capture test stopped counting a face-down advisor's or a king's reach it does not
    // have: `JieqiPosition::is_attacked`, 2026-12-05.)
    let report = bench::run::<banco_xiangqi::jieqi::Jieqi>();
    assert_eq!(report.positions, 16);
    assert_eq!(report.nodes, 117_820, "{}", report.lines.join("\n"));
}
