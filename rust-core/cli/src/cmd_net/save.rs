//! `save FILE` at the match table and `--save FILE`: the game played over the network, as
//! `banco play` saves one (`.pgn`, `.txt`, or Banco's compact save), dated today, with both
//! players' names and the ending once there is one.

use std::path::{Path, PathBuf};

use banco_app::files::write_record;
use banco_app::network::NetMatch;
use banco_app::save::{SaveError, SavedGame};
use banco_app::tags::{dated_tags, record_tags};
use banco_game::GameKind;

use crate::CliError;
use crate::cmd_records::is_pgn;

/// Saves the match's game to `path` (the format from its extension, as `banco play`'s
/// `save`: [`crate::cmd_records::record_for`]).
pub(super) fn save_match(m: &NetMatch, my_name: &str, path: &str) {
    if path.is_empty() {
        outln!("say where: `save game.pgn` (or game.txt, or game.banco)");
        return;
    }
    let Some(saved) = tagged(m, my_name) else {
        outln!("no game to save yet");
        return;
    };
    let path = crate::ui::expand_home(path);
    if let Err(e) = write(&path, &saved) {
        outln!("could not save: {e}");
    }
}

/// `--save FILE` as the game ends: as [`save_match`], except that a game the name's format
/// cannot hold is not lost — a jieqi game named `.pgn` (the guest learns the game only from
/// the proposal) goes to `FILE.banco`, Banco's compact save, and the table says so.
pub(super) fn save_at_end(m: &NetMatch, my_name: &str, path: &str) {
    let Some(saved) = tagged(m, my_name) else {
        outln!("no game to save to {path}");
        return;
    };
    let path = Path::new(path);
    match write(path, &saved) {
        Ok(()) => {}
        Err(e @ SaveError::NoPgn(_)) => {
            let instead = PathBuf::from(format!("{}.banco", path.display()));
            outln!("cannot save {}: {e}", path.display());
            if let Err(e) = write(&instead, &saved) {
                outln!("could not save: {e}");
            }
        }
        Err(e) => outln!("could not save: {e}"),
    }
}

/// `--save FILE` checked before the match, for `game` when it is known (`host`'s game,
/// `join --game`): a Lines race has no record to save, and a jieqi game no PGN.
pub(super) fn check_save(path: Option<&str>, game: Option<GameKind>) -> Result<(), CliError> {
    match (path, game) {
        (Some(_), Some(GameKind::Lines)) => Err(CliError::input(
            "--save: a Lines race has no record to save (leave --save out)",
        )),
        (Some(path), Some(GameKind::Jieqi)) if is_pgn(Path::new(path)) => Err(CliError::input(
            format!("--save: {}", SaveError::NoPgn(GameKind::Jieqi.to_string())),
        )),
        _ => Ok(()),
    }
}

/// The match's game, dated, with both players' names, from one snapshot; `None` before a game.
fn tagged(m: &NetMatch, my_name: &str) -> Option<SavedGame> {
    // The game, its rules and an ending its moves do not show, from one snapshot.
    let mut saved = m.saved()?;
    let state = m.state();
    let (event, today) = ("Banco match", crate::ui::today());
    saved
        .tags
        .extend(match (state.your_color, state.peer_name) {
            (Some(me), Some(peer)) => record_tags(saved.kind, event, &today, me, my_name, &peer),
            _ => dated_tags(event, &today),
        });
    Some(saved)
}

/// Writes `saved` to `path` in the name's format and says so.
fn write(path: &Path, saved: &SavedGame) -> Result<(), SaveError> {
    let bytes = saved
        .encode()
        .and_then(|record| crate::cmd_records::record_for(path, record))?;
    match write_record(path, &bytes) {
        Ok(()) => outln!("saved {} ({} bytes)", path.display(), bytes.len()),
        Err(e) => outln!("could not save {}: {e}", path.display()),
    }
    Ok(())
}
