//! `save FILE` and `load FILE` at `banco play`'s prompt: a record in Banco's format, PGN
//! or Banco's readable text, by the file's name; a leading `~` is the home folder.

use super::{Session, moves_text, side_and_level};
use banco_app::computer::{ActionError, VsComputer};
use banco_app::files::{read_limited, write_record};
use banco_app::{save, text};

impl Session {
    /// `save FILE`: the game as a dated record, exported by the file's name.
    pub(super) fn save(&self, path: &str) {
        if path.is_empty() {
            outln!(
                "say where: `save mygame.banco` (or mygame.pgn for PGN, mygame.txt for a readable text)"
            );
            return;
        }
        let path = &crate::ui::expand_home(path);
        let dated = self.vs.save().map_err(|e| e.to_string()).and_then(|b| {
            crate::cmd_records::dated(b, &crate::ui::today()).map_err(|e| e.to_string())
        });
        let bytes = match dated {
            Ok(b) => b,
            Err(e) => {
                outln!("could not save: {e}");
                return;
            }
        };
        let bytes = match crate::cmd_records::record_for(path, bytes) {
            Ok(b) => b,
            Err(e) => {
                outln!("could not export: {e}");
                return;
            }
        };
        match write_record(path, &bytes) {
            Ok(()) => outln!("saved {} ({} bytes)", path.display(), bytes.len()),
            Err(e) => outln!("could not save {}: {e}", path.display()),
        }
    }

    /// `load FILE`: a saved game, PGN or Banco's text; its side and level apply.
    pub(super) fn load(&mut self, path: &str) {
        if path.is_empty() {
            outln!("say which file: `load mygame.banco`");
            return;
        }
        let file = crate::ui::expand_home(path);
        let bytes = match read_limited(&file, save::MAX_BYTES as u64) {
            Ok(b) => b,
            Err(e) => {
                outln!("could not read {path}: {e}");
                return;
            }
        };
        let record = if save::is_save(&bytes) {
            Ok(bytes)
        } else {
            let t = match banco_app::encoding::decode_text(&bytes) {
                Ok(t) => t,
                Err(e) => {
                    outln!("could not load {path}: {e}");
                    return;
                }
            };
            if crate::cmd_records::is_pgn(&file) {
                match banco_app::pgn::import_saved(&t) {
                    Ok(s) => s.encode(),
                    Err(e) => {
                        outln!("could not load {path}: {e}");
                        return;
                    }
                }
            } else {
                text::import(&t).and_then(|s| s.encode())
            }
        };
        match record
            .map_err(ActionError::from)
            .and_then(|b| VsComputer::resume(&b, &self.settings))
        {
            Ok(vs) => {
                self.vs = vs;
                self.announced = false;
                self.played_on();
                // The side and level come from the file: say which are in effect now.
                outln!(
                    "loaded {path}: {}; {}",
                    moves_text(self.vs.game()),
                    side_and_level(&self.vs)
                );
                self.show();
            }
            Err(e) => outln!("could not load {path}: {e}"),
        }
    }
}
