//! The saved-game loader: any bytes are a game or a `SaveError`, never a panic nor an
//! unbounded allocation; a game that loads re-encodes to bytes that load to the same game.
#![no_main]

use banco_app::save::SavedGame;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(saved) = SavedGame::decode(data) else {
        return;
    };
    let Ok(bytes) = saved.encode() else {
        return;
    };
    assert_eq!(SavedGame::decode(&bytes).as_ref(), Ok(&saved));
    if let Ok((game, _rules)) = saved.restore() {
        let _ = saved.redo_moves(&game);
    }
});
