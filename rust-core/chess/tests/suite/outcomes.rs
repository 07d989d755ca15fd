//! Every way a chess game ends, from constructed positions: checkmate, stalemate, dead
//! positions, the 50-move claim and the 75-move rule, threefold claim and fivefold
//! repetition, and en passant deciding whether positions repeat. Also castling in both
//! input forms and the Chess960 start positions.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use banco_chess::{Chess, ChessMove, ChessRules, perft, square};
use banco_game::{Color, DrawReason, Game, Outcome, WinReason};

const STANDARD: ChessRules = ChessRules::STANDARD;
const AUTO: ChessRules = ChessRules::AUTO_CLAIM;

fn game(fen: &str) -> Chess {
    Chess::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Plays moves in UCI or SAN.
fn play(game: &mut Chess, moves: &str) {
    for text in moves.split_whitespace() {
        let mv = game
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{text} in {}: {e}", game.fen()));
        game.play(mv).unwrap();
    }
}

fn draw(reason: DrawReason) -> Option<Outcome> {
    Some(Outcome::Draw { reason })
}

fn sq(name: &str) -> u8 {
    square::parse(name).unwrap()
}

#[test]
fn checkmate() {
    let mut g = Chess::new();
    play(&mut g, "f3 e5 g4 Qh4#");
    let mate = Some(Outcome::Win {
        winner: Color::Black,
        reason: WinReason::Checkmate,
    });
    assert!(g.in_check());
    assert!(!g.has_legal_move());
    assert_eq!(g.outcome(&STANDARD), mate);
    assert_eq!(Some(g.no_move_outcome()), mate);
    // Mate takes precedence over the 75-move rule reached on the same move.
    let mut g = game("6k1/5ppp/8/8/8/8/8/R3K3 w - - 149 120");
    play(&mut g, "Ra8#");
    assert_eq!(g.halfmove_clock(), 150);
    assert_eq!(
        g.outcome(&STANDARD),
        Some(Outcome::Win {
            winner: Color::Red,
            reason: WinReason::Checkmate
        })
    );
}

#[test]
fn stalemate_is_a_draw() {
    let g = game("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(!g.in_check());
    assert_eq!(g.outcome(&STANDARD), draw(DrawReason::Stalemate));
    assert_eq!(
        g.no_move_outcome(),
        Outcome::Draw {
            reason: DrawReason::Stalemate
        }
    );
}

#[test]
fn dead_positions() {
    for fen in [
        "8/8/4k3/8/8/4K3/8/8 w - - 0 1",
        "8/8/4k3/8/8/4K3/8/6N1 b - - 0 1",
        "8/8/4k3/8/8/4K3/8/5b2 w - - 0 1",
        "2b5/8/4k3/8/8/4K3/8/5B2 w - - 0 1",
    ] {
        assert_eq!(
            game(fen).outcome(&STANDARD),
            draw(DrawReason::InsufficientMaterial),
            "{fen}"
        );
    }
    for fen in [
        "1b6/8/4k3/8/8/4K3/8/5B2 w - - 0 1",
        "6n1/8/4k3/8/8/4K3/8/6N1 w - - 0 1",
        "8/8/4k3/8/8/4K3/8/5NN1 w - - 0 1",
        "8/8/4k3/8/8/4K3/4P3/8 w - - 0 1",
    ] {
        assert_eq!(game(fen).outcome(&STANDARD), None, "{fen}");
    }
    // Capturing the last pawn ends the game at once.
    let mut g = game("8/8/4k3/8/8/4K3/4p3/8 w - - 0 1");
    play(&mut g, "Kxe2");
    assert_eq!(g.outcome(&STANDARD), draw(DrawReason::InsufficientMaterial));
}

#[test]
fn fifty_move_claim_and_seventy_five_move_rule() {
    let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 98 60");
    play(&mut g, "Ra2");
    assert_eq!(g.halfmove_clock(), 99);
    assert_eq!(g.claimable_draw(&STANDARD), None);
    play(&mut g, "Kd8");
    assert_eq!(g.halfmove_clock(), 100);
    assert_eq!(g.claimable_draw(&STANDARD), Some(DrawReason::FiftyMoveRule));
    assert_eq!(g.outcome(&STANDARD), None);
    assert_eq!(g.outcome(&AUTO), draw(DrawReason::FiftyMoveRule));
    assert_eq!(g.fen(), "3k4/8/8/8/8/8/R7/4K3 w - - 100 61");
    // Past cozy-chess's cap of 100 the clock goes on counting.
    let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 148 90");
    play(&mut g, "Ra2");
    assert_eq!(g.outcome(&STANDARD), None);
    play(&mut g, "Kd8");
    assert_eq!(g.halfmove_clock(), 150);
    assert_eq!(g.outcome(&STANDARD), draw(DrawReason::SeventyFiveMoveRule));
    assert!(g.fen().ends_with(" 150 91"));
    g.undo_move();
    assert_eq!(g.halfmove_clock(), 149);
    assert_eq!(g.outcome(&STANDARD), None);
    // A capture or a pawn move resets the clock.
    let mut g = game("4k3/8/8/8/8/8/p7/R3K3 w - - 120 90");
    play(&mut g, "Rxa2");
    assert_eq!(g.halfmove_clock(), 0);
    let mut g = game("4k3/8/8/8/8/8/P7/R3K3 w - - 120 90");
    play(&mut g, "a3");
    assert_eq!(g.halfmove_clock(), 0);
}

#[test]
fn threefold_claim_and_fivefold_repetition() {
    let mut g = Chess::new();
    let shuffle = "Nf3 Nf6 Ng1 Ng8";
    play(&mut g, shuffle);
    assert_eq!(g.occurrences(), 2);
    assert_eq!(g.claimable_draw(&STANDARD), None);
    play(&mut g, shuffle);
    assert_eq!(g.occurrences(), 3);
    assert_eq!(
        g.claimable_draw(&STANDARD),
        Some(DrawReason::ThreefoldRepetition)
    );
    assert_eq!(g.outcome(&STANDARD), None);
    assert_eq!(g.outcome(&AUTO), draw(DrawReason::ThreefoldRepetition));
    play(&mut g, shuffle);
    assert_eq!(g.outcome(&STANDARD), None);
    play(&mut g, shuffle);
    assert_eq!(g.occurrences(), 5);
    assert_eq!(g.outcome(&STANDARD), draw(DrawReason::FivefoldRepetition));
    // Positions before a pawn move never repeat after it.
    play(&mut g, "e4");
    assert_eq!(g.occurrences(), 1);
}

#[test]
fn castling_rights_tell_positions_apart() {
    // The kings go out and back: same pieces, but the castling rights are gone.
    let mut g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut g, "Kf1 Kf8 Ke1 Ke8");
    assert_eq!(g.occurrences(), 1);
    play(&mut g, "Kf1 Kf8 Ke1 Ke8");
    assert_eq!(g.occurrences(), 2);
}

#[test]
fn en_passant_counts_only_when_it_can_be_taken() {
    // After e2-e4 a black pawn on d4 can take en passant: that position has a right the
    // later ones lack, so it does not repeat.
    let mut g = game("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
    play(&mut g, "e4");
    let first = g.hash();
    assert!(g.fen().contains(" e3 "));
    play(&mut g, "Kd7 Kd2 Ke8 Ke1");
    assert_ne!(g.hash(), first);
    assert_eq!(g.occurrences(), 1);
    play(&mut g, "Kd7 Kd2 Ke8 Ke1");
    assert_eq!(g.occurrences(), 2);

    // With the black pawn on a4 nobody can take en passant: the square is noise.
    let mut g = game("4k3/8/8/8/p7/8/4P3/4K3 w - - 0 1");
    play(&mut g, "e4");
    let first = g.hash();
    assert!(g.fen().contains(" - "));
    assert_ne!(g.board().en_passant(), None); // cozy-chess still records it
    play(&mut g, "Kd7 Kd2 Ke8 Ke1");
    assert_eq!(g.hash(), first);
    assert_eq!(g.occurrences(), 2);
    // Nor when taking would expose the taker's king: dxe3 would open the fourth rank to
    // the rook on h4.
    let mut g = game("8/8/8/8/k2p3R/8/4P3/7K w - - 0 1");
    play(&mut g, "e4");
    assert!(g.fen().contains(" - "), "{}", g.fen());
    assert_eq!(g.hash(), g.board().hash_without_ep());
}

#[test]
fn castling_in_both_forms() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let g = game(fen);
    let short = ChessMove::new(sq("e1"), sq("h1"), None);
    let long = ChessMove::new(sq("e1"), sq("a1"), None);
    for (text, mv) in [
        ("e1g1", short),
        ("e1h1", short),
        ("e1c1", long),
        ("e1a1", long),
        ("O-O", short),
        ("0-0-0", long),
    ] {
        assert_eq!(g.parse_move(text), Ok(mv), "{text}");
    }
    assert_eq!(g.move_from_squares(sq("e1"), sq("g1"), None), Ok(short));
    assert_eq!(g.move_from_squares(sq("e1"), sq("c1"), None), Ok(long));
    assert_eq!(g.uci(short), "e1g1");
    assert_eq!(g.uci(long), "e1c1");
    assert_eq!(
        g.targets_from(sq("e1")),
        ["c1", "d1", "f1", "g1", "d2", "e2", "f2"].map(sq).to_vec()
    );
    let mut after = g.clone();
    after.play(short).unwrap();
    assert_eq!(after.fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    // The wire carries the canonical form; a two-square code is read too.
    assert_eq!(g.decode_move(g.encode_move(short)), Some(short));
    assert_eq!(
        g.decode_move(u16::from(sq("e1")) | u16::from(sq("g1")) << 6),
        Some(short)
    );
    // Game::play takes only the canonical form.
    assert!(
        g.clone()
            .play(ChessMove::new(sq("e1"), sq("g1"), None))
            .is_err()
    );

    // Chess960: king on b1, rooks on a1 and c1 (the rook already stands where a
    // king-two-squares form would point).
    let g = game("rkrnbbqn/pppppppp/8/8/8/8/PPPPPPPP/RKRNBBQN w CAca - 0 1");
    assert!(g.is_chess960());
    assert_eq!(g.count_legal(), 19); // the back rank is full: no castling yet
    let g = game("rk5r/8/8/8/8/8/8/RK2R3 w EAha - 0 1");
    let long = ChessMove::new(sq("b1"), sq("a1"), None);
    let short = ChessMove::new(sq("b1"), sq("e1"), None);
    assert_eq!(g.parse_move("b1a1"), Ok(long));
    assert_eq!(g.parse_move("b1e1"), Ok(short));
    assert_eq!(g.parse_move("b1g1"), Ok(short));
    assert_eq!(g.parse_move("O-O-O"), Ok(long));
    assert_eq!(g.uci(short), "b1e1");
    assert_eq!(g.san(short), "O-O");
    assert!(g.targets_from(sq("b1")).contains(&sq("e1")));
    let mut after = g.clone();
    after.play(short).unwrap();
    assert_eq!(after.fen(), "rk5r/8/8/8/8/8/8/R4RK1 b ha - 1 1");
    // "b1c1" is a plain king step, not long castling.
    assert_eq!(
        g.parse_move("b1c1"),
        Ok(ChessMove::new(sq("b1"), sq("c1"), None))
    );
}

#[test]
fn chess960_start_positions() {
    for n in 0..960 {
        let g = Chess::chess960(n).unwrap();
        assert!(g.is_chess960());
        let fen = g.fen();
        let again = game(&fen);
        assert_eq!(again.board(), g.board(), "{n}: {fen}");
        assert_eq!(again.fen(), fen);
        // The same rights in X-FEN (KQkq: the outermost rooks).
        let mut fields: Vec<&str> = fen.split(' ').collect();
        fields[2] = "KQkq";
        let x_fen = fields.join(" ");
        assert_eq!(game(&x_fen).board(), g.board(), "{n}: {x_fen}");
        let mut g = g;
        assert_eq!(perft::perft(&mut g, 2), perft::perft_board(g.board(), 2));
    }
    assert!(Chess::chess960(960).is_none());
    assert_eq!(Chess::chess960(518).unwrap().board(), Chess::new().board());
}

/// FIDE 9.2.1.1 and 9.3.1: the draw a move would bring about may be claimed with it.
#[test]
fn a_draw_is_claimed_with_the_move_that_makes_it() {
    // The reviewer's shuffle: after 1. Ka2 Kg8 2. Ka1 Kh8 3. Ka2 Kg8 4. Ka1 Kh8, a fifth
    // Ka2 makes the position with Black to move stand for the third time.
    let mut g = game("7k/7p/7P/8/8/8/8/K4R2 w - - 0 1");
    play(&mut g, "Ka2 Kg8 Ka1 Kh8 Ka2 Kg8 Ka1 Kh8");
    let ka2 = g.parse_move("a1a2").unwrap();
    let kb1 = g.parse_move("a1b1").unwrap();
    assert_eq!(
        g.claimable_draw_with(ka2, &STANDARD),
        Some(DrawReason::ThreefoldRepetition)
    );
    assert_eq!(g.claimable_draw_with(kb1, &STANDARD), None);
    // With the rules claiming by themselves, the move simply ends the game.
    assert_eq!(g.claimable_draw_with(ka2, &AUTO), None);
    play(&mut g, "Ka2");
    assert_eq!(g.occurrences(), 3);
    assert_eq!(g.outcome(&AUTO), draw(DrawReason::ThreefoldRepetition));
    // One repetition earlier the same move makes only the second occurrence.
    let mut g = game("7k/7p/7P/8/8/8/8/K4R2 w - - 0 1");
    play(&mut g, "Ka2 Kg8 Ka1 Kh8");
    let ka2 = g.parse_move("a1a2").unwrap();
    assert_eq!(g.claimable_draw_with(ka2, &STANDARD), None);

    // The hundredth ply without a capture or a pawn move; a capture or a pawn move resets.
    let g = game("4k3/8/8/8/8/8/p7/R3K3 w - - 99 60");
    let rb1 = g.parse_move("a1b1").unwrap();
    assert_eq!(
        g.claimable_draw_with(rb1, &STANDARD),
        Some(DrawReason::FiftyMoveRule)
    );
    assert_eq!(
        g.claimable_draw_with(g.parse_move("a1a2").unwrap(), &STANDARD),
        None
    );
    assert_eq!(
        g.claimable_draw_with(g.parse_move("e1e2").unwrap(), &STANDARD),
        Some(DrawReason::FiftyMoveRule)
    );
    // An illegal move claims nothing.
    assert_eq!(
        g.claimable_draw_with(ChessMove::new(0, 63, None), &STANDARD),
        None
    );
    let g = game("4k3/8/8/8/8/8/8/R3K3 w - - 98 60");
    assert_eq!(
        g.claimable_draw_with(g.parse_move("a1a3").unwrap(), &STANDARD),
        None
    );
    // A mate on the hundredth ply ends the game by itself (FIDE 9.3: it takes precedence).
    let g = game("k7/8/1K6/8/8/8/8/7R w - - 99 80");
    assert_eq!(
        g.claimable_draw_with(g.parse_move("h1h8").unwrap(), &STANDARD),
        None
    );
    assert_eq!(
        g.claimable_draw_with(g.parse_move("h1h7").unwrap(), &STANDARD),
        Some(DrawReason::FiftyMoveRule)
    );
}
