//! FEN of every game: any text is a position or a setup error, never a panic; a position
//! read writes back a FEN that reads to the same position.
//!
//! The board games (xiangqi, chess, jieqi with its hidden pieces) come from
//! `GameKind::ALL` through the app's dispatch (`AnyGame`), so a game the dispatch gains is
//! fuzzed here at once. Lines has no FEN: its position text is the board diagram
//! (`banco_lines::Board`), read and written back the same way.
#![no_main]

use banco_app::any::AnyGame;
use banco_game::{Game, GameKind, MatchGame};
use banco_lines::Board;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let kind = GameKind::ALL[usize::from(pick) % GameKind::ALL.len()];
    if kind == GameKind::Lines {
        if let Ok(board) = text.parse::<Board>() {
            let written = board.to_string();
            assert_eq!(written.parse::<Board>().as_ref(), Ok(&board), "{written}");
        }
        return;
    }
    assert!(
        AnyGame::kinds().contains(&kind),
        "{kind:?} is not dispatched"
    );
    let Ok(game) = AnyGame::setup(kind, Some(text)) else {
        return;
    };
    let fen = MatchGame::fen(&game);
    let again = AnyGame::setup(kind, Some(&fen)).expect("a written FEN reads back");
    assert_eq!(MatchGame::fen(&again), fen);
    assert_eq!(again.hash(), game.hash());
    let _ = game.legal_move_vec();
});
