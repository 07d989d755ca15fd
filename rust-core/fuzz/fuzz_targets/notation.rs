//! Move notations (xiangqi: ICCS, WXF, Chinese; chess: SAN, UCI): any text typed in any
//! position of a short random game is a legal move or an error, never a panic; a move read
//! is legal and written back in every notation reads to the same move.
#![no_main]

use banco_app::any::AnyGame;
use banco_app::notation::{notations, parse_move, write_move};
use banco_game::{Game, GameKind};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [pick, plies, rest @ ..] = data else {
        return;
    };
    let kind = if pick % 2 == 0 {
        GameKind::Xiangqi
    } else {
        GameKind::Chess
    };
    let Ok(mut game) = AnyGame::new(kind) else {
        return;
    };
    // A few plies chosen by the following bytes reach varied positions.
    let (choices, text) = rest.split_at(usize::from(*plies % 16).min(rest.len()));
    for &c in choices {
        let moves = game.legal_move_vec();
        if moves.is_empty() {
            break;
        }
        let _ = game.play(moves[usize::from(c) % moves.len()]);
    }
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let Ok(mv) = parse_move(&game, text, None) else {
        return;
    };
    assert!(
        game.legal_move_vec().contains(&mv),
        "{text:?} read as an illegal move"
    );
    for &n in notations(kind) {
        let written = write_move(&game, mv, n);
        assert_eq!(
            parse_move(&game, &written, Some(n)).ok(),
            Some(mv),
            "{written:?} in {n:?}"
        );
    }
});
