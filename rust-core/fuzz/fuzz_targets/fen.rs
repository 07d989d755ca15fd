//! FEN of every game: any text is a position or a setup error, never a panic; a position
//! read writes back a FEN that reads to the same position.
//!
//! The games come from `GameKind::ALL` through the app's dispatch (`AnyGame`), so jieqi
//! and Lines are fuzzed here as soon as `AnyGame::kinds()` lists them (the hook: nothing
//! to add but that arm).
#![no_main]

use banco_app::any::AnyGame;
use banco_game::{Game, GameKind, MatchGame};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let kind = GameKind::ALL[usize::from(pick) % GameKind::ALL.len()];
    if !AnyGame::kinds().contains(&kind) {
        return; // jieqi, Lines: not dispatched by the app yet
    }
    let Ok(game) = AnyGame::setup(kind, Some(text)) else {
        return;
    };
    let fen = MatchGame::fen(&game);
    let again = AnyGame::setup(kind, Some(&fen)).expect("a written FEN reads back");
    assert_eq!(MatchGame::fen(&again), fen);
    assert_eq!(again.hash(), game.hash());
    let _ = game.legal_move_vec();
});
