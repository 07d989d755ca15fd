//! `save FILE` at the match table: the game played over the network, as `banco play`
//! saves one (`.pgn`, `.txt`, or Banco's compact save), with both players' names and the
//! ending once there is one.

use std::path::Path;

use banco_app::files::write_record;
use banco_app::network::NetMatch;
use banco_app::save::SavedGame;
use banco_game::{Color, Game, GameKind};

/// Saves the match's game to `path` (the format from its extension).
pub(super) fn save_match(m: &NetMatch, my_name: &str, path: &str) {
    if path.is_empty() {
        outln!("say where: `save game.pgn` (or game.txt, or game.banco)");
        return;
    }
    let (Some(game), Some(rules)) = (m.game(), m.rules()) else {
        outln!("no game to save yet");
        return;
    };
    let state = m.state();
    let mut saved = SavedGame::of(&game, rules);
    saved.ending = state.outcome;
    if let (Some(me), Some(peer)) = (state.your_color, state.peer_name) {
        let (first, second) = match game.kind() {
            GameKind::Chess => ("White", "Black"),
            _ => ("Red", "Black"),
        };
        let (red, black) = if me == Color::Red {
            (my_name.to_owned(), peer)
        } else {
            (peer, my_name.to_owned())
        };
        saved.tags.push((first.to_owned(), red));
        saved.tags.push((second.to_owned(), black));
    }
    let path = Path::new(path);
    let ext = |e: &str| path.extension().is_some_and(|x| x.eq_ignore_ascii_case(e));
    let bytes = if ext("pgn") {
        banco_app::pgn::export_saved(&saved).map(String::into_bytes)
    } else if ext("txt") {
        banco_app::text::export(&saved).map(String::into_bytes)
    } else {
        saved.encode()
    };
    match bytes {
        Err(e) => outln!("could not save: {e}"),
        Ok(bytes) => match write_record(path, &bytes) {
            Ok(()) => outln!("saved {} ({} bytes)", path.display(), bytes.len()),
            Err(e) => outln!("could not save {}: {e}", path.display()),
        },
    }
}
