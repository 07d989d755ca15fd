//! The computer opponent's choices: a level's node cap never leaves its first iteration
//! unfinished, and a loss by rule ranks with mates by distance.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers of tests

use banco_chess::{Chess, ChessRules};
use banco_engine::score::Score;
use banco_engine::{
    ChessSearcher, EngineGame, Level, Limits, SearchResult, XiangqiSearcher, level,
};
use banco_game::{Game, MoveList};
use banco_xiangqi::{RuleSet, Xiangqi};
use std::sync::atomic::AtomicBool;

/// Ply 44 of a level 1 – level 10 game: level 1's 400-node cap used to end its one-ply
/// search early (a whole ply needs about 600 nodes) and it played the generator's first
/// move, the king step `e0f0`, with `g8g9` (a check winning material) on the board.
const PLY_44: &str = "2bnka3/6C2/3aC3c/prP3n2/8p/3N2BR1/c3P3P/6N2/4A4/2BAK4 w - - 0 1";
/// Kiwipete: level 1 answered `a2a3`, the generator's first move, unsearched.
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Every legal move has a score from a completed iteration, and the move played is one
/// the level may choose: within its margin of the best.
fn assert_searched<M: Copy + PartialEq + core::fmt::Debug>(
    r: &SearchResult<M>,
    legal: usize,
    margin: i32,
) {
    assert!(r.depth >= 1, "no iteration completed: {r:?}");
    assert_eq!(r.root_scores.len(), legal, "{r:?}");
    let best = r.root_scores.iter().map(|s| s.1).max().unwrap();
    let played = r.best_move.unwrap();
    let score = r.root_scores.iter().find(|s| s.0 == played).unwrap().1;
    assert!(
        score >= best - margin,
        "{played:?} scored {score}, best {best}"
    );
}

#[test]
fn level_1_finishes_its_first_ply_xiangqi() {
    let game = Xiangqi::from_fen(PLY_44).unwrap();
    let mut legal = MoveList::new();
    game.legal_moves(&mut legal);
    let margin = Level::MIN.config().margin;
    for seed in 0..6 {
        let mut s = XiangqiSearcher::new(4);
        let stop = AtomicBool::new(false);
        let r = level::play(
            &mut s,
            &game,
            &RuleSet::default(),
            Level::MIN,
            &Limits::default(),
            seed,
            &stop,
        );
        assert_searched(&r, legal.len(), margin);
        assert_ne!(game.move_text(r.best_move.unwrap()), "e0f0");
    }
    // `go nodes 1` at full strength: the best move of a whole ply (g8g9 wins material).
    let mut s = XiangqiSearcher::new(4);
    let r = s.search(
        &game,
        &RuleSet::default(),
        &Limits::nodes(1),
        &AtomicBool::new(false),
        |_| {},
    );
    assert_searched(&r, legal.len(), 0);
    assert_eq!(game.move_text(r.best_move.unwrap()), "g8g9");
    assert!(matches!(r.score, Score::Cp(v) if v > 300), "{:?}", r.score);
}

#[test]
fn level_1_finishes_its_first_ply_chess() {
    let game = Chess::from_fen(KIWIPETE).unwrap();
    let mut legal = MoveList::new();
    game.legal_moves(&mut legal);
    let margin = Level::MIN.config().margin;
    for seed in 0..4 {
        let mut s = ChessSearcher::new(4);
        let stop = AtomicBool::new(false);
        let r = level::play(
            &mut s,
            &game,
            &ChessRules::default(),
            Level::MIN,
            &Limits::default(),
            seed,
            &stop,
        );
        assert_searched(&r, legal.len(), margin);
    }
    let mut s = ChessSearcher::new(4);
    let r = s.search(
        &game,
        &ChessRules::default(),
        &Limits::nodes(0),
        &AtomicBool::new(false),
        |_| {},
    );
    assert_searched(&r, legal.len(), 0);
}
