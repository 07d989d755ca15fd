#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers of tests

use super::*;
use crate::level::Rng;
use crate::limits::Limits;
use crate::score::Score;
use crate::search::Searcher;
use banco_game::Game;
use proptest::prelude::*;
use std::sync::atomic::AtomicBool;

/// A game after up to `plies` random legal moves from the start (fewer if it ends).
fn random_game(seed: u64, plies: usize) -> Chess {
    let mut rng = Rng::new(seed);
    let mut game = Chess::new();
    let mut moves = MoveList::new();
    for _ in 0..plies {
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize];
        game.play(mv).unwrap();
    }
    game
}

/// The FEN with colours swapped and the board mirrored top to bottom.
fn mirror(fen: &str) -> String {
    let f: Vec<&str> = fen.split(' ').collect();
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let board: Vec<String> = f[0]
        .split('/')
        .rev()
        .map(|rank| rank.chars().map(swap).collect())
        .collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    let castling = if f[2] == "-" {
        "-".to_owned()
    } else {
        let mut c: Vec<char> = f[2].chars().map(swap).collect();
        c.sort_by_key(|&c| (c.is_ascii_lowercase(), c != 'K' && c != 'k'));
        c.into_iter().collect()
    };
    let ep = if f[3] == "-" {
        "-".to_owned()
    } else {
        let b = f[3].as_bytes();
        format!("{}{}", b[0] as char, if b[1] == b'3' { '6' } else { '3' })
    };
    format!(
        "{} {side} {castling} {ep} {} {}",
        board.join("/"),
        f[4],
        f[5]
    )
}

fn node(game: &Chess) -> ChessNode {
    ChessNode::from_game(game, &ChessRules::default(), &ChessParams::default())
}

fn best(fen: &str, depth: u32) -> (String, Score) {
    let game = Chess::from_fen(fen).unwrap();
    let mut s = Searcher::<ChessNode>::new(4);
    let r = s.search(
        &game,
        &ChessRules::default(),
        &Limits::depth(depth),
        &AtomicBool::new(false),
        |_| {},
    );
    (
        r.best_move.map(|m| game.uci(m)).unwrap_or_default(),
        r.score,
    )
}

#[test]
fn mirror_is_an_involution() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_eq!(mirror(&mirror(fen)), fen);
    assert_eq!(
        mirror("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"),
        "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1"
    );
}

proptest! {
    #![proptest_config(banco_game::testing::proptest_config(Some(200), 0x95))]

    /// Mirroring the board and swapping colours leaves the side to move's evaluation
    /// unchanged (White's view negates), for the full and the plain evaluation.
    #[test]
    fn evaluation_is_colour_symmetric(seed in any::<u64>(), plies in 0usize..120) {
        let game = random_game(seed, plies);
        let fen = game.fen();
        let twin = Chess::from_fen(&mirror(&fen)).unwrap();
        for params in [ChessParams::default(), ChessParams::plain()] {
            let a = eval::evaluate(game.board(), &params);
            let b = eval::evaluate(twin.board(), &params);
            prop_assert_eq!(a, b, "{} vs {}", fen, twin.fen());
        }
    }

    /// The incremental material and tables equal a fresh sum after every move and after
    /// taking every move back, and the node's evaluation equals the evaluation from
    /// scratch.
    #[test]
    fn incremental_base_matches_a_fresh_one(seed in any::<u64>()) {
        let game = random_game(seed, 160);
        let mut n = node(&Chess::new());
        let mut undone = Vec::new();
        for mv in game.moves() {
            n.make(mv);
            undone.push(mv);
            prop_assert_eq!(n.top().base, Base::of(n.board(), &n.psq));
            prop_assert_eq!(n.evaluate(), eval::evaluate(n.board(), &n.params));
            prop_assert_eq!(n.hash(), zobrist::key(n.board()));
        }
        while let Some(mv) = undone.pop() {
            n.unmake(mv, ());
        }
        prop_assert_eq!(n.stack.len(), 1);
    }

    /// Captures and quiet moves split the legal moves exactly; capture keys, table codes
    /// and move indices behave.
    #[test]
    fn generation_splits_the_legal_moves(seed in any::<u64>(), plies in 0usize..150) {
        let game = random_game(seed, plies);
        let n = node(&game);
        let (mut all, mut caps, mut quiets) = (MoveList::new(), MoveList::new(), MoveList::new());
        n.legal_moves(&mut all);
        n.pseudo_captures(&mut caps);
        n.pseudo_quiets(&mut quiets);
        prop_assert_eq!(all.len(), caps.len() + quiets.len());
        prop_assert_eq!(all.len(), n.count_legal_moves());
        for &m in &caps {
            prop_assert!(all.contains(&m));
            prop_assert!(n.capture_key(m).is_some());
        }
        for &m in &quiets {
            prop_assert!(all.contains(&m));
            prop_assert!(n.capture_key(m).is_none(), "{}", m);
            if m.promotion().is_none() {
                prop_assert_eq!(n.capture_value(m), 0);
            }
        }
        let mut child = n.clone();
        for &m in &all {
            let predicted = n.hash_after(m);
            child.make(m);
            prop_assert_eq!(n.gives_check(m), child.in_check(), "{} {}", game.fen(), m);
            prop_assert_eq!(predicted, Some(child.hash()));
            prop_assert_eq!(child.hash(), zobrist::key(child.board()), "{} {}", game.fen(), m);
            child.unmake(m, ());
        }
        if !n.in_check() {
            child.make_null();
            prop_assert_eq!(child.hash(), zobrist::key(child.board()));
        }
        for &m in &all {
            prop_assert!(n.is_legal(m));
            let code = ChessNode::tt_code(m);
            prop_assert_ne!(code, 0);
            prop_assert_eq!(ChessNode::from_tt_code(code), Some(m));
            prop_assert!(ChessNode::move_index(m) < ChessNode::MOVE_INDEX_SIZE);
        }
        prop_assert!(!n.is_legal(ChessNode::no_move()));
    }

    /// The search never answers an illegal move, at any level of effort.
    #[test]
    fn the_search_answers_legal_moves(seed in any::<u64>(), plies in 0usize..120) {
        let game = random_game(seed, plies);
        let mut s = Searcher::<ChessNode>::new(1);
        let stop = AtomicBool::new(false);
        let limits = Limits { nodes: Some(3_000), ..Limits::default() };
        let r = s.search(&game, &ChessRules::default(), &limits, &stop, |_| {});
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        match r.best_move {
            Some(m) => prop_assert!(moves.contains(&m)),
            None => prop_assert!(moves.is_empty()),
        }
    }
}

#[test]
fn every_table_code_is_safe() {
    // Any 16-bit value from a table entry either names no move or a move that is_legal
    // judges without panicking.
    let n = node(
        &Chess::from_fen("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1")
            .unwrap(),
    );
    let mut legal = 0;
    for code in 0..=u16::MAX {
        if let Some(m) = ChessNode::from_tt_code(code) {
            legal += usize::from(n.is_legal(m));
        }
    }
    assert_eq!(legal, n.count_legal_moves());
}

#[test]
fn mates_are_found() {
    // (position, best move, mate in N moves)
    let cases = [
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8", 1),
        ("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", "a1a6", 2),
        (
            "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10",
            "d5f6",
            2,
        ),
        (
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
            "g3g6",
            2,
        ),
        // En passant mates.
        (
            "r1bq1r2/pp2n3/4N2k/3pPppP/1b1n2Q1/2N5/PP3PP1/R1B1K2R w KQ g6 0 1",
            "h5g6",
            1,
        ),
    ];
    for (fen, mv, n) in cases {
        let (found, score) = best(fen, 2 * n as u32 + 2);
        assert_eq!(found, mv, "{fen}");
        assert_eq!(score, Score::Mate(n), "{fen}");
    }
}

#[test]
fn a_mate_in_three() {
    // Ra6+ Bxa6... the rook check on the sixth opens the long diagonal.
    let (found, score) = best("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 8);
    assert_eq!(score, Score::Mate(3), "{found}");
    assert_eq!(found, "f6a6");
}

#[test]
fn stalemate_is_avoided_when_winning_and_sought_when_losing() {
    // A queen up, White must not play Qf7 (stalemate) but Qf8 (mate).
    let (found, score) = best("7k/8/6K1/8/8/8/5Q2/8 w - - 0 1", 6);
    assert_eq!((found.as_str(), score), ("f2f8", Score::Mate(1)));
    // Qxc7, winning the last pawn, stalemates; Kxc7 mates in two.
    let (found, score) = best("k7/2p5/1K6/8/8/8/8/2Q5 w - - 0 1", 6);
    assert_eq!((found.as_str(), score), ("b6c7", Score::Mate(2)));
    // Black, a queen down, saves the game by stalemating itself: the rook gives itself up
    // with check, and the king must take it.
    let (found, score) = best("k7/p1Q5/P7/8/8/8/6PP/r5RK b - - 0 1", 6);
    assert_eq!((found.as_str(), score), ("a1g1", Score::Cp(0)));
    // A stalemate on the board scores 0 and has no move.
    let (found, score) = best("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 4);
    assert_eq!((found.as_str(), score), ("", Score::Cp(0)));
}

#[test]
fn fifty_moves_and_repetitions_draw() {
    // Rook up with two plies left before the fifty-move rule and no mate in reach: 0.
    let (_, score) = best("8/8/4k3/8/8/3RK3/8/8 w - - 98 120", 6);
    assert_eq!(score, Score::Cp(0));
    // The same position with a fresh clock is winning.
    let (_, score) = best("8/8/4k3/8/8/3RK3/8/8 w - - 0 120", 6);
    assert!(matches!(score, Score::Cp(v) if v > 300) || matches!(score, Score::Mate(_)));
    // A mate on the hundredth ply still counts.
    let (found, score) = best("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 99 80", 3);
    assert_eq!((found.as_str(), score), ("d1d8", Score::Mate(1)));

    // Repetition: after Nf3 Nf6 Ng1 Ng8 twice the start position has occurred three times.
    let mut game = Chess::new();
    for mv in "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8".split(' ') {
        game.play(game.parse_move(mv).unwrap()).unwrap();
    }
    let mut n = node(&game);
    // At the root nothing is judged; one ply down the positions after Nf3 has been seen
    // twice before the root: a third time is a draw.
    let mv = game.parse_move("g1f3").unwrap();
    n.make(mv);
    assert_eq!(n.repetition(), Some(Repetition::Draw));
    n.unmake(mv, ());
    // A position seen once before the root is not yet a draw.
    let mut game = Chess::new();
    for mv in "g1f3 g8f6 f3g1 f6g8".split(' ') {
        game.play(game.parse_move(mv).unwrap()).unwrap();
    }
    let mut n = node(&game);
    n.make(mv);
    assert_eq!(n.repetition(), None);
    // ... but a repetition inside the search is.
    for m in ["g8f6", "f3g1", "f6g8", "g1f3"] {
        n.make(game_move(&n, m));
    }
    assert_eq!(n.repetition(), Some(Repetition::Draw));
}

/// The move named by UCI text in the node's current position.
fn game_move(n: &ChessNode, text: &str) -> ChessMove {
    let mut moves = MoveList::new();
    n.legal_moves(&mut moves);
    moves
        .iter()
        .copied()
        .find(|m| m.to_string() == text)
        .unwrap()
}

#[test]
fn dead_positions_are_draws() {
    let n = node(&Chess::from_fen("8/8/4k3/8/8/3BK3/8/8 w - - 0 1").unwrap());
    assert!(n.rule_draw());
    let n = node(&Chess::from_fen("8/8/4k3/8/8/3RK3/8/8 w - - 0 1").unwrap());
    assert!(!n.rule_draw());
}

#[test]
fn null_moves_and_big_pieces() {
    let mut n = node(&Chess::new());
    let h = n.hash();
    n.make_null();
    assert_eq!(n.side_to_move(), Color::Black);
    assert_ne!(n.hash(), h);
    assert_eq!(n.repetition(), None);
    n.unmake_null(());
    assert_eq!(n.hash(), h);
    assert!(n.has_big_pieces());
    let n = node(&Chess::from_fen("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1").unwrap());
    assert!(!n.has_big_pieces());
}

#[test]
fn ordering_keys() {
    let game = Chess::from_fen("4k3/8/8/3q4/4P3/8/1p6/R3K3 b - - 0 1").unwrap();
    let n = node(&game);
    let key = |t: &str| n.capture_key(game.parse_move(t).unwrap());
    // Pawn takes rook with promotion beats the queen taking a pawn.
    assert!(key("bxa1=Q") > key("Qxe4"));
    // A non-capturing queen promotion is ordered with the captures; an under-promotion
    // without capture is quiet.
    assert!(key("b1=Q").is_some());
    assert!(key("b1=N").is_none());
    assert!(key("Kd7").is_none());
    assert!(!n.see_ok(game.parse_move("bxa1=N").unwrap()));
    assert!(n.see_ok(game.parse_move("Qxe4").unwrap()));
}

#[test]
fn lower_levels_play_plausible_moves() {
    use crate::level::{self, Level};
    // A queen hangs to a pawn: every level from 3 up takes it; every level keeps away
    // from moves that lose more than their margin.
    let game =
        Chess::from_fen("rnb1kbnr/pppp1ppp/8/4p3/3q4/2P5/PP1PPPPP/RNBQKBNR w KQkq - 0 3").unwrap();
    let stop = AtomicBool::new(false);
    for n in 3..=10 {
        let mut s = Searcher::<ChessNode>::new(1);
        for seed in 0..4 {
            let limits = Limits {
                nodes: Some(50_000),
                ..Limits::default()
            };
            let r = level::play(
                &mut s,
                &game,
                &ChessRules::default(),
                Level::new(n).unwrap(),
                &limits,
                seed,
                &stop,
            );
            assert_eq!(
                game.uci(r.best_move.unwrap()),
                "c3d4",
                "level {n} seed {seed}"
            );
        }
    }
}

#[test]
fn keys_after_every_move_of_the_bench_positions() {
    // Castling rights lost by king and rook moves and by captures on the rook squares,
    // en passant, promotions: the predicted key equals the key computed from scratch.
    for fen in game::BENCH_POSITIONS.iter().chain(&[
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "r3k2r/1P6/8/8/3pP3/8/8/R3K2R b KQkq e3 0 1",
        "1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1",
    ]) {
        let n = node(&Chess::from_fen(fen).unwrap());
        let mut moves = MoveList::new();
        n.legal_moves(&mut moves);
        for &m in &moves {
            let mut child = n.clone();
            child.make(m);
            assert_eq!(n.hash_after(m), Some(child.hash()), "{fen} {m}");
            assert_eq!(child.hash(), zobrist::key(child.board()), "{fen} {m}");
        }
    }
}
