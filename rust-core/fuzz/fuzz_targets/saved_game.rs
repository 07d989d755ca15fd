//! The saved-game loader of every kind (board games and Lines, through `decode_any`, the
//! one entry point a front end calls): any bytes are a game or a `SaveError`, never a
//! panic nor an unbounded allocation; a game that loads re-encodes to bytes that load to
//! the same game, and replaying it fails cleanly or gives a game.
#![no_main]

use banco_app::save::{AnySave, SavedGame, SavedLines, decode_any};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match decode_any(data) {
        Ok(AnySave::Board(saved)) => board(saved),
        Ok(AnySave::Lines(saved)) => lines(saved),
        Err(_) => {}
    }
});

fn board(saved: SavedGame) {
    let Ok(bytes) = saved.encode() else {
        return;
    };
    assert_eq!(SavedGame::decode(&bytes).as_ref(), Ok(&saved));
    if let Ok((game, _rules)) = saved.restore() {
        let _ = saved.redo_moves(&game);
    }
}

fn lines(saved: SavedLines) {
    let Ok(bytes) = saved.encode() else {
        return;
    };
    assert_eq!(SavedLines::decode(&bytes).as_ref(), Ok(&saved));
    assert_eq!(decode_any(&bytes), Ok(AnySave::Lines(saved.clone())));
    let _ = saved.restore();
}
