//! `save FILE` at the match table: the game played over the network, as `banco play`
//! saves one (`.pgn`, `.txt`, or Banco's compact save), dated today, with both players' names
//! and the ending once there is one.

use std::path::Path;

use banco_app::files::write_record;
use banco_app::network::NetMatch;
use banco_app::tags::{dated_tags, record_tags};

/// Saves the match's game to `path` (the format from its extension, as `banco play`'s
/// `save`: [`crate::cmd_records::record_for`]).
pub(super) fn save_match(m: &NetMatch, my_name: &str, path: &str) {
    if path.is_empty() {
        outln!("say where: `save game.pgn` (or game.txt, or game.banco)");
        return;
    }
    // The game, its rules and an ending its moves do not show, from one snapshot.
    let Some(mut saved) = m.saved() else {
        outln!("no game to save yet");
        return;
    };
    let state = m.state();
    let (event, today) = ("Banco match", crate::ui::today());
    saved
        .tags
        .extend(match (state.your_color, state.peer_name) {
            (Some(me), Some(peer)) => record_tags(saved.kind, event, &today, me, my_name, &peer),
            _ => dated_tags(event, &today),
        });
    let path = Path::new(path);
    match saved
        .encode()
        .and_then(|record| crate::cmd_records::record_for(path, record))
    {
        Err(e) => outln!("could not save: {e}"),
        Ok(bytes) => match write_record(path, &bytes) {
            Ok(()) => outln!("saved {} ({} bytes)", path.display(), bytes.len()),
            Err(e) => outln!("could not save {}: {e}", path.display()),
        },
    }
}
