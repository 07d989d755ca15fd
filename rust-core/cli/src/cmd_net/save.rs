//! `save FILE` at the match table and `--save FILE`: the game played over the network, as
//! `banco play` saves one (`.pgn`, `.txt`, or Banco's compact save), dated today, with both
//! players' names and the ending once there is one.

use std::path::{Path, PathBuf};

use banco_app::files::{check_record_target, write_record};
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

/// `--save FILE` as the game ends: as [`save_match`], except that the game is not lost
/// when `FILE` cannot take it — a jieqi game named `.pgn` (the guest learns the game only
/// from the proposal) goes to `FILE.banco`, Banco's compact save; a file that cannot be
/// written now (it was checked before the match) to a new `match-DATE-N.banco` in
/// `fallback_dir` (the data directory) — and the table says where it went.
pub(super) fn save_at_end(m: &NetMatch, my_name: &str, path: &str, fallback_dir: Option<&Path>) {
    let Some(saved) = tagged(m, my_name) else {
        outln!("no game to save to {path}");
        return;
    };
    let path = Path::new(path);
    let instead = match write(path, &saved) {
        Ok(()) => return,
        Err(e @ SaveError::NoPgn(_)) => {
            outln!("cannot save {}: {e}", path.display());
            PathBuf::from(format!("{}.banco", path.display()))
        }
        Err(e) => {
            outln!("could not save {}: {e}", path.display());
            match fallback_dir.and_then(|dir| fresh_name(dir, &crate::ui::today())) {
                Some(instead) => instead,
                None => return,
            }
        }
    };
    match write(&instead, &saved) {
        Ok(()) => outln!("the game is saved in {} instead", instead.display()),
        Err(e) => outln!("could not save {} either: {e}", instead.display()),
    }
}

/// A name in `dir` that no file has yet: `match-DATE-1.banco`, `match-DATE-2.banco`, …
fn fresh_name(dir: &Path, date: &str) -> Option<PathBuf> {
    (1..1000)
        .map(|n| dir.join(format!("match-{date}-{n}.banco")))
        .find(|p| std::fs::symlink_metadata(p).is_err())
}

/// `--save FILE` checked before the match, for `game` when it is known (`host`'s game,
/// `join --game`): a Lines race has no record to save, a jieqi game no PGN, and `FILE`
/// must be a file a record can be written to now (absent, or one game record to replace,
/// in a folder that exists) — the record is written only as the match ends.
pub(super) fn check_save(path: Option<&str>, game: Option<GameKind>) -> Result<(), CliError> {
    match (path, game) {
        (Some(_), Some(GameKind::Lines)) => Err(CliError::input(
            "--save: a Lines race has no record to save (leave --save out)",
        )),
        (Some(path), Some(GameKind::Jieqi)) if is_pgn(Path::new(path)) => Err(CliError::input(
            format!("--save: {}", SaveError::NoPgn(GameKind::Jieqi.to_string())),
        )),
        (Some(path), _) => check_record_target(Path::new(path))
            .map_err(|e| CliError::input(format!("--save: {e}"))),
        (None, _) => Ok(()),
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
