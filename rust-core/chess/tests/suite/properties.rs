//! Property tests over random legal walks: FEN round trips, UCI / SAN / wire round trips
//! for every legal move, make/unmake restoring FEN and hash, the incremental hash equal to
//! the hash of the same position read from its FEN, `is_legal` ⇔ generated; and random
//! text into every parser never panics.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use banco_chess::san::{San, SanPlus};
use banco_chess::uci::Uci;
use banco_chess::{Chess, ChessMove, ChessRules, Promotion, wire};
use banco_game::{Game, MoveList};
use proptest::prelude::*;

/// Where walks start: the standard start, positions rich in castling, promotions and en
/// passant, and a Chess960 start.
const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rkrnbbqn/pppppppp/8/8/8/8/PPPPPPPP/RKRNBBQN w CAca - 0 1",
    "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
];

/// Plays `choices` as indices into the legal moves from `STARTS[start]`; returns the games
/// met on the way (each a copy with its history).
fn walk(start: usize, choices: &[u16]) -> Vec<Chess> {
    let mut game = Chess::from_fen(STARTS[start % STARTS.len()]).unwrap();
    let mut out = vec![game.clone()];
    let mut moves = MoveList::new();
    for &c in choices {
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        game.play(moves.as_slice()[usize::from(c) % moves.len()])
            .unwrap();
        out.push(game.clone());
    }
    out
}

fn legal(game: &Chess) -> Vec<ChessMove> {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    assert!(!moves.overflowed());
    moves.as_slice().to_vec()
}

proptest! {
    // Deterministic: a fixed seed (a one-off run with 1,500 cases per property passed too).
    #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..banco_game::testing::proptest_config(Some(96), 0xC4E55)
    })]

    #[test]
    fn fen_round_trips_and_hash_matches(start in 0usize..16, choices in prop::collection::vec(any::<u16>(), 0..80)) {
        for game in walk(start, &choices) {
            let fen = game.fen();
            let again = Chess::from_fen(&fen).unwrap();
            prop_assert_eq!(again.fen(), fen.clone());
            prop_assert_eq!(again.hash(), game.hash(), "{}", fen);
            // A Chess960 game whose castling rights are gone reads back as plain chess.
            prop_assert!(!again.is_chess960() || game.is_chess960());
        }
    }

    #[test]
    fn every_legal_move_round_trips(start in 0usize..16, choices in prop::collection::vec(any::<u16>(), 0..60)) {
        for game in walk(start, &choices) {
            for mv in legal(&game) {
                prop_assert!(game.is_legal(mv));
                // UCI.
                let uci = game.uci(mv);
                let back = uci.parse::<Uci>().unwrap().to_move(&game);
                prop_assert_eq!(back, Ok(mv), "{} in {}", uci, game.fen());
                prop_assert_eq!(game.parse_move(&uci), Ok(mv));
                // Both castling forms read.
                prop_assert_eq!(game.move_from_squares(mv.from(), mv.to(), mv.promotion()), Ok(mv));
                // SAN with its suffix.
                let san = game.san(mv);
                let parsed: SanPlus = san.parse().unwrap();
                prop_assert_eq!(parsed, SanPlus::from_move(&game, mv));
                prop_assert_eq!(parsed.san.to_move(&game), Ok(mv), "{} in {}", san, game.fen());
                prop_assert_eq!(game.parse_move(&san), Ok(mv), "{} in {}", san, game.fen());
                // Wire.
                let code = game.encode_move(mv);
                prop_assert!(code < 1 << 14);
                prop_assert_eq!(game.decode_move(code), Some(mv));
                prop_assert_eq!(wire::decode(code), Some(mv));
            }
        }
    }

    #[test]
    fn make_unmake_restores(start in 0usize..16, choices in prop::collection::vec(any::<u16>(), 0..60)) {
        for mut game in walk(start, &choices) {
            let fen = game.fen();
            let hash = game.hash();
            let ply = game.ply();
            for mv in legal(&game) {
                let undo = game.make_unchecked(mv);
                prop_assert_eq!(game.ply(), ply + 1);
                // The incremental key equals the key of the same position read afresh.
                let fresh = Chess::from_fen(&game.fen()).unwrap();
                prop_assert_eq!(fresh.hash(), game.hash(), "{} after {}", fen, mv);
                game.unmake(mv, undo);
                prop_assert_eq!(game.fen(), fen.clone());
                prop_assert_eq!(game.hash(), hash);
            }
        }
    }

    #[test]
    fn is_legal_iff_generated(start in 0usize..16, choices in prop::collection::vec(any::<u16>(), 0..60)) {
        let games = walk(start, &choices);
        // Every eighth position and the last: all from-squares of the side to move, every
        // to-square, every promotion choice.
        for game in games.iter().step_by(8).chain(games.last()) {
            let moves = legal(game);
            let side = game.side_to_move();
            for from in (0..64u8).filter(|&s| game.piece_at(s).is_some_and(|(c, _)| c == side)) {
                for to in 0..64u8 {
                    for promo in [None].into_iter().chain(Promotion::ALL.map(Some)) {
                        let mv = ChessMove::new(from, to, promo);
                        prop_assert_eq!(game.is_legal(mv), moves.contains(&mv), "{} in {}", mv, game.fen());
                    }
                }
            }
        }
    }

    #[test]
    fn any_wire_code_is_safe(start in 0usize..16, choices in prop::collection::vec(any::<u16>(), 0..40), codes in prop::collection::vec(any::<u16>(), 1..64)) {
        let mut game = walk(start, &choices).pop().unwrap();
        let moves = legal(&game);
        for code in codes {
            if let Some(mv) = game.decode_move(code) {
                if game.is_legal(mv) {
                    prop_assert!(moves.contains(&mv));
                    prop_assert!(game.play(mv).is_ok());
                    game.undo_move();
                } else {
                    prop_assert!(game.play(mv).is_err());
                }
            }
        }
    }

    #[test]
    fn random_text_never_panics(text in ".{0,100}") {
        let game = Chess::new();
        if let Ok(read) = Chess::from_fen(&text) {
            prop_assert_eq!(Chess::from_fen(&read.fen()).map(|g| g.fen()), Ok(read.fen()));
        }
        for mv in [
            text.parse::<Uci>().ok().and_then(|u| u.to_move(&game).ok()),
            text.parse::<San>().ok().and_then(|s| s.to_move(&game).ok()),
            game.parse_move(&text).ok(),
        ]
        .into_iter()
        .flatten()
        {
            prop_assert!(game.is_legal(mv));
        }
    }

    #[test]
    fn fen_like_text_never_panics(
        board in "[rnbqkpRNBQKP1-9/]{0,72}",
        side in "[wbx]?",
        castling in "[KQkqA-Ha-hX-]{0,5}",
        ep in "[a-h1-8-]{0,3}",
        half in "[0-9]{0,4}",
        full in "[0-9]{0,6}",
    ) {
        let text = format!("{board} {side} {castling} {ep} {half} {full}");
        if let Ok(game) = Chess::from_fen(&text) {
            // Whatever reads must write back to something that reads the same.
            let again = Chess::from_fen(&game.fen()).unwrap();
            prop_assert_eq!(again.fen(), game.fen());
            prop_assert_eq!(again.outcome(&ChessRules::default()), game.outcome(&ChessRules::default()));
        }
    }

    #[test]
    fn move_like_text_never_panics(start in 0usize..16, choices in prop::collection::vec(any::<u16>(), 0..40), text in "[KQRBNPkqrbnpa-hx1-9=+#!?O0o:()/-]{0,9}") {
        let game = walk(start, &choices).pop().unwrap();
        if let Ok(mv) = game.parse_move(&text) {
            prop_assert!(game.is_legal(mv), "{} read as {}", text, mv);
        }
    }
}
