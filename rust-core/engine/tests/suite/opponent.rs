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

/// The row of `tests/data/rules/repetition.tsv` whose source ends with `label`: its FEN
/// and its moves.
fn repetition_row(label: &str) -> (String, Vec<String>) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/rules/repetition.tsv"
    );
    let text = std::fs::read_to_string(path).expect("the repetition table");
    let row = text
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|f| f[0].ends_with(label))
        .unwrap();
    let moves = row[2].split_whitespace().map(str::to_owned).collect();
    (row[1].to_owned(), moves)
}

/// WXF rule book, L546: Red's knight has checked perpetually; repeating once more
/// (`b8c8`) loses by rule at once, while `d8c6` only loses to a mate in four. The engine
/// used to repeat (a loss by rule scored above any mate) and print `mate -1`; it resists
/// longest now, and says how long.
#[test]
fn a_loss_by_rule_ranks_with_mates_by_distance() {
    let (fen, moves) = repetition_row(":L546");
    let mut game = Xiangqi::from_fen(&fen).unwrap();
    let (last, before) = moves.split_last().unwrap();
    for text in before {
        let mv = game.parse_move(text).unwrap();
        game.play(mv).unwrap();
    }
    let rules = RuleSet::from_name("asian").unwrap();
    let mut s = XiangqiSearcher::new(16);
    let r = s.search(
        &game,
        &rules,
        &Limits::depth(12),
        &AtomicBool::new(false),
        |_| {},
    );
    let played = game.move_text(r.best_move.unwrap());
    assert_ne!(&played, last, "{r:?}");
    assert_eq!(played, "d8c6", "{r:?}"); // d9c7 in ranks 1–10

    assert_eq!(r.score, Score::Mate(-4), "{r:?}");
    // The repetition itself was searched and ranked below it.
    let repeat = game.parse_move(last).unwrap();
    assert!(
        r.root_scores
            .iter()
            .any(|&(m, v)| m == repeat && v < r.value),
        "{r:?}"
    );
}
