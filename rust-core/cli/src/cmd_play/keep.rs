//! The game in progress kept for `banco play --continue`: written after every change, never
//! over a kept game the player has not played on from (a new game — a new session, or
//! `new` — replaces it only at the player's first move), and tried again after a failure
//! (a full disk, a missing folder). A kept game that cannot be continued follows the
//! policy of the apps' kept records ([`banco_app::kept`]): a damaged one is copied aside
//! (`NAME.damaged`) before it is replaced, a newer Banco's is never written over.

use super::moves_text;
use banco_app::computer::{Settings, VsComputer};
use banco_app::files::{read_limited, set_aside, write_record};
use banco_app::kept::{KeptKind, KeptVerdict};
use banco_app::save;
use banco_game::Game;
use std::path::PathBuf;

/// Where a session keeps its game in progress — the file `--keep` names, or at the keyboard
/// the data directory's `last-game` — and what it wrote there.
pub(crate) struct Keep {
    path: PathBuf,
    /// Named with `--keep`: the next session must name it too to go on with it.
    named: bool,
    /// What is in the file as far as this session knows: its own last write, or the game
    /// it started with (so that an unchanged game is not written).
    kept: Vec<u8>,
    /// A game kept by an earlier session waits in the file and this session's game has no
    /// move of the player's yet: nothing is written.
    hold: bool,
    /// The last write failed (said once; the next change tries again).
    failed: bool,
    /// The file holds a game this build cannot continue and must not replace (a newer
    /// Banco's): nothing is written this session.
    locked: bool,
}

impl Keep {
    /// Keeps the game in `path`; `named`: the player named it with `--keep`.
    pub(crate) fn new(path: PathBuf, named: bool) -> Self {
        Keep {
            path,
            named,
            kept: Vec::new(),
            hold: false,
            failed: false,
            locked: false,
        }
    }

    /// The file the game is kept in.
    pub(crate) fn path(&self) -> &std::path::Path {
        &self.path
    }

    /// The command that goes on with the kept game.
    pub(crate) fn continue_command(&self) -> String {
        if self.named {
            format!("banco play --continue --keep {}", self.path.display())
        } else {
            "banco play --continue".to_owned()
        }
    }

    /// At the start of a new game (a session without `--continue`, or `new`): tells of the
    /// game kept in the file — its moves, how to go on with it, that the new game replaces
    /// it at the player's first move — and holds every write until then. A damaged kept
    /// game is first copied aside; a newer Banco's locks the file for the session (said
    /// once).
    pub(crate) fn announce_waiting(&mut self, settings: &Settings) {
        if self.locked {
            return;
        }
        let bytes = match read_limited(&self.path, save::MAX_BYTES as u64) {
            Ok(bytes) if bytes.is_empty() => return,
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return,
            Err(e) => {
                self.hold = true;
                outln!(
                    "the kept game in {} cannot be read ({e}): this game replaces it at your first move",
                    self.path.display()
                );
                return;
            }
        };
        let path = self.path.display();
        match KeptKind::Game.judge_bytes(&bytes) {
            KeptVerdict::Sound => match VsComputer::resume(&bytes, settings) {
                Ok(kept) if kept.game().ply() == 0 => {}
                Ok(kept) => {
                    self.hold = true;
                    outln!(
                        "a kept game of {} is in {path}: `{}` goes on with it; this new game replaces it at your first move",
                        moves_text(kept.game()),
                        self.continue_command()
                    );
                }
                Err(e) => {
                    self.hold = true;
                    outln!(
                        "the kept game in {path} cannot be continued ({e}): this game replaces it at your first move"
                    );
                }
            },
            // Nothing is lost: the damaged bytes are copied aside before anything writes.
            KeptVerdict::Damaged(why) => match set_aside(&self.path) {
                Ok(aside) => {
                    self.hold = true;
                    outln!(
                        "the kept game in {path} cannot be continued ({why}); a copy of it is kept in {}: this game replaces it at your first move",
                        aside.display()
                    );
                }
                Err(e) => {
                    self.locked = true;
                    outln!(
                        "the kept game in {path} cannot be continued ({why}), and setting it aside failed ({e}): it is left as it is, and this game is not kept (`save FILE` saves it)"
                    );
                }
            },
            KeptVerdict::Locked(why) => {
                self.locked = true;
                outln!(
                    "the kept game in {path} cannot be continued here ({why}): it is left as it is, and this game is not kept (`save FILE` saves it)"
                );
            }
        }
    }

    /// `new` in a session: the game in progress, kept at the last prompt, waits in the file
    /// until the player's first move in the new game, as a new session's kept game does
    /// ([`Keep::announce_waiting`]; a game already waiting stays, told of once).
    pub(crate) fn new_game(&mut self, settings: &Settings) {
        if !self.hold {
            self.announce_waiting(settings);
        }
    }

    /// The game the session starts with, as saved: written only once it changes.
    pub(crate) fn start(&mut self, bytes: Vec<u8>) {
        self.kept = bytes;
    }

    /// The player played on (a move, a `load`): the game is written from now on.
    pub(crate) fn release(&mut self) {
        self.hold = false;
    }

    /// Writes `bytes`, the game now, when it changed (creating the file's folder first); a
    /// failure is said once and the next change tries again, a success after one is said
    /// too.
    pub(crate) fn write(&mut self, bytes: Vec<u8>) {
        if self.hold || self.locked || bytes == self.kept {
            return;
        }
        let result = match self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            Some(dir) => std::fs::create_dir_all(dir),
            None => Ok(()),
        }
        // Guarded as `save` is: a file that is not a game record is never replaced.
        .and_then(|()| write_record(&self.path, &bytes));
        match result {
            Ok(()) => {
                self.kept = bytes;
                if self.failed {
                    self.failed = false;
                    outln!("the game is kept again in {}", self.path.display());
                }
            }
            Err(e) => {
                if !self.failed {
                    self.failed = true;
                    outln!(
                        "could not keep the game in {} ({e}): trying again at your next move",
                        self.path.display()
                    );
                }
            }
        }
    }

    /// What the player is told as the session ends after a game of `ply` plies: where the
    /// game is kept, or that the earlier kept game is still there.
    pub(crate) fn farewell(&self, ply: u32) {
        if self.locked {
            outln!(
                "the kept game in {} is as it was; this game was not kept",
                self.path.display()
            );
        } else if self.hold {
            outln!(
                "the kept game in {} is as it was: `{}` goes on with it",
                self.path.display(),
                self.continue_command()
            );
        } else if !self.failed && ply > 0 {
            outln!(
                "the game is kept: `{}` goes on with it",
                self.continue_command()
            );
        }
    }
}
