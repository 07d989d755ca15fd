//! The game in progress kept for `banco play --continue`: written after every change, never
//! over a kept game the player has not played on from (a new game — a new session, or
//! `new` — replaces it only at the player's first move), and tried again after a failure
//! (a full disk, a missing folder). A kept game that cannot be continued follows the
//! policy of the apps' kept records ([`banco_app::kept`]): a damaged one is copied aside
//! (`NAME.damaged`) before it is replaced, a newer Banco's is never written over. One
//! session at a time keeps its game in a file: it holds the file's lock (`NAME.lock`
//! beside it, [`try_lock_beside`]) while it runs, and a second session on the same file
//! is told that its game is not kept there. A file that is not a game record is never
//! replaced, and the session is told once to choose another.
//!
//! `banco play --game lines` keeps its game the same way, in a file of its own
//! ([`KeptGame::Lines`]: `lines-last-game` in the data directory), so that a board game and
//! a Lines game do not replace each other.

use super::{PlayArgs, moves_text};
use crate::CliError;
use banco_app::computer::{Settings, VsComputer};
use banco_app::files::{
    FileLock, REPLACE_ADVICE, check_replaceable, read_limited, set_aside, try_lock_beside,
    write_atomic, write_record,
};
use banco_app::kept::{KeptKind, KeptVerdict};
use banco_app::save;
use banco_game::Game;
use std::path::{Path, PathBuf};

/// The file in the data directory where a session at the keyboard keeps its board game.
pub(crate) const KEPT_GAME: &str = "last-game";
/// The file in the data directory where a session at the keyboard keeps its Lines game.
pub(crate) const KEPT_LINES: &str = "lines-last-game";

/// Which game a session keeps: its file in the data directory, the kept record's policy
/// ([`KeptKind`]) and the command that goes on with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KeptGame {
    /// A board game against the computer (`banco play`, `banco edit`'s `play`).
    Board,
    /// A Lines game (`banco play --game lines`).
    Lines,
}

impl KeptGame {
    fn file_name(self) -> &'static str {
        match self {
            KeptGame::Board => KEPT_GAME,
            KeptGame::Lines => KEPT_LINES,
        }
    }

    fn kind(self) -> KeptKind {
        match self {
            KeptGame::Board => KeptKind::Game,
            KeptGame::Lines => KeptKind::LinesGame,
        }
    }

    fn command(self) -> &'static str {
        match self {
            KeptGame::Board => "banco play",
            KeptGame::Lines => "banco play --game lines",
        }
    }
}

/// A game found in the keep file as a new game starts ([`Keep::announce_waiting`]).
pub(crate) enum Found {
    /// Not played on yet: nothing to tell, and nothing lost when it is replaced.
    Unplayed,
    /// A game played on: `text` names how far (`1 move (2 plies)`, `12 turns (score 40)`).
    Played {
        /// How far it was played.
        text: String,
        /// It is over: kept for review.
        finished: bool,
    },
}

/// Why nothing is written to the keep file this session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Off {
    /// It holds a game this build must not replace (a newer Banco's, or a damaged one
    /// that could not be set aside).
    KeptGameLeft,
    /// It is not a game record (notes, another program's file): it is never replaced.
    NotARecord,
    /// Another session keeps its game there.
    OtherSession,
}

/// Where a session keeps its `game`: the file `named` with `--keep`; else at the keyboard
/// (`interactive`) its file in the data directory `data_dir` (`last-game`,
/// `lines-last-game`); else nowhere. The file's
/// lock is taken ([`Keep::claim`], said when another session holds it). `Err` is what the
/// player is told when the game cannot be kept at the keyboard: there is no data
/// directory.
pub(crate) fn session_keep(
    game: KeptGame,
    named: Option<&Path>,
    interactive: bool,
    data_dir: Option<PathBuf>,
) -> Result<Option<Keep>, String> {
    let mut keep = match (named, data_dir) {
        (Some(f), _) => Keep::new(game, f.to_path_buf(), true),
        (None, _) if !interactive => return Ok(None),
        (None, Some(dir)) => Keep::new(game, dir.join(game.file_name()), false),
        (None, None) => return Err(NO_DATA_DIR.to_owned()),
    };
    keep.claim();
    Ok(Some(keep))
}

/// Where a `banco play` session keeps its game ([`open_keep`]).
pub(crate) struct SessionKeep {
    /// The keep file (`--keep`, or at the keyboard the data directory's), its lock taken.
    pub(crate) keep: Option<Keep>,
    /// What the player is told at the start: the game cannot be kept at the keyboard.
    pub(crate) notice: Option<String>,
    /// With `--continue`: the kept game's bytes, to go on with.
    pub(crate) kept: Option<Vec<u8>>,
}

/// The keep file of a session playing `game` (the file `--keep` names, else at the keyboard
/// the data directory's) and, with `--continue`, the game kept there; an error when
/// `--continue` has no kept game to go on with.
pub(crate) fn open_keep(
    game: KeptGame,
    args: &PlayArgs,
    interactive: bool,
) -> Result<SessionKeep, CliError> {
    let keep = session_keep(
        game,
        args.keep.as_deref(),
        interactive,
        crate::ui::data_dir(None),
    );
    let (keep, notice) = match keep {
        Ok(keep) => (keep, None),
        Err(_) if args.resume => {
            return Err(CliError::input(
                "--continue needs the game kept by the last session, and there is no data directory to keep it in (set BANCO_DATA_DIR, XDG_DATA_HOME or HOME): name the file with --keep FILE",
            ));
        }
        Err(notice) => (None, Some(notice)),
    };
    if !args.resume {
        return Ok(SessionKeep {
            keep,
            notice,
            kept: None,
        });
    }
    let Some(file) = keep.as_ref().map(Keep::path) else {
        return Err(CliError::input(
            "--continue needs the game kept by the last session: at the keyboard it is in the data directory, otherwise name it with --keep FILE",
        ));
    };
    let bytes = read_limited(file, save::MAX_BYTES as u64).map_err(|e| {
        CliError::input(format!(
            "no game kept in {} to continue ({e}): start one with `{}`",
            file.display(),
            match game {
                KeptGame::Board => "banco play",
                KeptGame::Lines => "banco play --game lines",
            }
        ))
    })?;
    Ok(SessionKeep {
        keep,
        notice,
        kept: Some(bytes),
    })
}

/// A board game found in the keep file (a sound record), as a new game tells of it.
pub(crate) fn board_found(bytes: &[u8], settings: &Settings) -> Result<Found, String> {
    let kept = VsComputer::resume(bytes, settings).map_err(|e| e.to_string())?;
    Ok(if kept.game().ply() == 0 {
        Found::Unplayed
    } else {
        Found::Played {
            text: moves_text(kept.game()),
            finished: kept.outcome().is_some(),
        }
    })
}

/// What a player at the keyboard is told when there is no data directory to keep the game in.
pub(crate) const NO_DATA_DIR: &str = "this game is not kept: there is no data directory (set BANCO_DATA_DIR, XDG_DATA_HOME or HOME), or name a file with --keep FILE; `save FILE` saves it";

/// Where a session keeps its game in progress — the file `--keep` names, or at the keyboard
/// the data directory's `last-game` — and what it wrote there.
pub(crate) struct Keep {
    /// The game kept.
    game: KeptGame,
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
    /// The game waiting in the file (see `hold`) is finished: it is there for review.
    waiting_finished: bool,
    /// The file's damaged bytes were copied aside this session: it is replaced whatever
    /// it holds (a record's guard would refuse bytes that are not one).
    set_aside: bool,
    /// Nothing is written this session, and why (said once when it is found).
    off: Option<Off>,
    /// The file's lock, held while the session runs (see [`Keep::claim`]).
    lock: Option<FileLock>,
}

impl Keep {
    /// Keeps `game` in `path`; `named`: the player named it with `--keep`.
    pub(crate) fn new(game: KeptGame, path: PathBuf, named: bool) -> Self {
        Keep {
            game,
            path,
            named,
            kept: Vec::new(),
            hold: false,
            failed: false,
            waiting_finished: false,
            set_aside: false,
            off: None,
            lock: None,
        }
    }

    /// Takes the file's lock for the session; when another session holds it, nothing is
    /// written this session ([`Keep::tell_off`] says so). A lock that cannot be taken at
    /// all (a read-only folder) is let be: the writes say why they fail.
    pub(crate) fn claim(&mut self) {
        if self.lock.is_some() {
            return;
        }
        // The lock file lies beside the game's: its folder is made now (the first session
        // ever at the keyboard has no data directory yet).
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            let _ = std::fs::create_dir_all(dir);
        }
        match try_lock_beside(&self.path) {
            Ok(Some(lock)) => self.lock = Some(lock),
            Ok(None) => self.off = Some(Off::OtherSession),
            Err(_) => {}
        }
    }

    /// The file the game is kept in.
    pub(crate) fn path(&self) -> &std::path::Path {
        &self.path
    }

    /// The command that goes on with the kept game.
    pub(crate) fn continue_command(&self) -> String {
        let command = self.game.command();
        if self.named {
            format!("{command} --continue --keep {}", self.path.display())
        } else {
            format!("{command} --continue")
        }
    }

    /// As the session starts: tells the player when their game cannot be kept in the file
    /// at all — another session keeps its game there, or the file is not a game record —
    /// and how to keep it.
    pub(crate) fn tell_off(&mut self) {
        let path = self.path.display();
        if self.off == Some(Off::OtherSession) {
            outln!(
                "another banco session is keeping its game in {path}: this game is not kept there (`save FILE` saves it, or {})",
                self.instead(Off::OtherSession)
            );
            return;
        }
        if self.off.is_some() {
            return;
        }
        // The data directory's file is Banco's own: whatever it holds is a damaged kept
        // game, copied aside and replaced ([`Keep::announce_waiting`]). A file the player
        // named may be anything: one that is not a record is never replaced.
        if self.named
            && let Err(e) = check_replaceable(&self.path)
            && e.kind() == std::io::ErrorKind::AlreadyExists
        {
            self.off = Some(Off::NotARecord);
            self.refuse(&e);
        }
    }

    /// The file is not a record `write_record` may replace (`why`): nothing is written this
    /// session, and the player is told once why and what to do.
    fn refuse(&mut self, why: &std::io::Error) {
        self.off = Some(Off::NotARecord);
        let why = why.to_string();
        let why = why
            .strip_suffix(REPLACE_ADVICE)
            .map_or(why.as_str(), |w| w.trim_end_matches([':', ' ']));
        outln!(
            "{why}: this game is not kept there — {} (`save FILE` saves it)",
            self.instead(Off::NotARecord)
        );
    }

    /// How the player keeps the game elsewhere when it cannot be kept in the file.
    fn instead(&self, off: Off) -> &'static str {
        match (self.named, off) {
            (true, _) => "choose another --keep file",
            (false, Off::NotARecord) => "move that file away, or start with --keep OTHER-FILE",
            (false, _) => "start with --keep OTHER-FILE",
        }
    }

    /// At the start of a new game (a session without `--continue`, or `new`): tells of the
    /// game kept in the file — how far it was played (`found` reads it: a sound record of
    /// the kept kind), how to go on with it, that the new game replaces it at the player's
    /// first move — and holds every write until then. A damaged kept game is first copied
    /// aside; a newer Banco's locks the file for the session (said once).
    pub(crate) fn announce_waiting(&mut self, found: &dyn Fn(&[u8]) -> Result<Found, String>) {
        if self.off.is_some() {
            return;
        }
        self.waiting_finished = false;
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
        match self.game.kind().judge_bytes(&bytes) {
            KeptVerdict::Sound => match found(&bytes) {
                Ok(Found::Unplayed) => {}
                Ok(Found::Played {
                    text,
                    finished: true,
                }) => {
                    self.hold = true;
                    self.waiting_finished = true;
                    outln!(
                        "a finished game of {text} is kept in {path} for review: `{}` opens it; this new game replaces it at your first move",
                        self.continue_command()
                    );
                }
                Ok(Found::Played { text, .. }) => {
                    self.hold = true;
                    self.waiting_finished = false;
                    outln!(
                        "a kept game of {text} is in {path}: `{}` goes on with it; this new game replaces it at your first move",
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
                    self.set_aside = true;
                    outln!(
                        "the kept game in {path} cannot be continued ({why}); a copy of it is kept in {}: this game replaces it at your first move",
                        aside.display()
                    );
                }
                Err(e) => {
                    self.off = Some(Off::KeptGameLeft);
                    outln!(
                        "the kept game in {path} cannot be continued ({why}), and setting it aside failed ({e}): it is left as it is, and this game is not kept (`save FILE` saves it)"
                    );
                }
            },
            KeptVerdict::Locked(why) => {
                self.off = Some(Off::KeptGameLeft);
                outln!(
                    "the kept game in {path} cannot be continued here ({why}): it is left as it is, and this game is not kept (`save FILE` saves it)"
                );
            }
        }
    }

    /// `new` in a session: the game in progress, kept at the last prompt, waits in the file
    /// until the player's first move in the new game, as a new session's kept game does
    /// ([`Keep::announce_waiting`]; a game already waiting stays, told of once).
    pub(crate) fn new_game(&mut self, found: &dyn Fn(&[u8]) -> Result<Found, String>) {
        if !self.hold {
            self.announce_waiting(found);
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
    /// too — except over a file that is not a game record, which no retry can replace: the
    /// player is told to choose another file, and nothing more is tried.
    pub(crate) fn write(&mut self, bytes: Vec<u8>) {
        if self.hold || self.off.is_some() || bytes == self.kept {
            return;
        }
        let dir = self.path.parent().filter(|d| !d.as_os_str().is_empty());
        let result = match dir.map(std::fs::create_dir_all) {
            Some(Err(e)) => Err(e),
            // A damaged file copied aside is replaced whatever it holds.
            _ if self.set_aside => write_atomic(&self.path, &bytes),
            // Guarded as `save` is: a file that is not a game record is never replaced.
            _ => match write_record(&self.path, &bytes) {
                // Not a record Banco may replace (notes, a database of games, a folder):
                // no later try can succeed.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    self.refuse(&e);
                    return;
                }
                other => other,
            },
        };
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

    /// What the player is told as the session ends after a game of `ply` plies (turns),
    /// `finished` or not: where the game is kept (a finished one for review), that the
    /// earlier kept game is still there, or why this game was not kept.
    pub(crate) fn farewell(&self, ply: u32, finished: bool) {
        let path = self.path.display();
        match self.off {
            Some(Off::KeptGameLeft) => {
                outln!("the kept game in {path} is as it was; this game was not kept");
            }
            Some(Off::NotARecord) => {
                outln!("this game was not kept: {path} is not a game record Banco may replace");
            }
            Some(Off::OtherSession) => {
                outln!("this game was not kept: another banco session keeps its game in {path}");
            }
            None => self.farewell_kept(ply, finished),
        }
    }

    fn farewell_kept(&self, ply: u32, finished: bool) {
        if self.hold {
            outln!(
                "the kept game in {} is as it was: `{}` {}",
                self.path.display(),
                self.continue_command(),
                if self.waiting_finished {
                    "opens it for review"
                } else {
                    "goes on with it"
                }
            );
        } else if !self.failed && ply > 0 && finished {
            outln!(
                "the finished game is kept for review: `{}` opens it{}",
                self.continue_command(),
                match self.game {
                    KeptGame::Board => " (undo takes moves back)",
                    KeptGame::Lines => "",
                }
            );
        } else if !self.failed && ply > 0 {
            outln!(
                "the game is kept: `{}` goes on with it",
                self.continue_command()
            );
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::{Keep, KeptGame, NO_DATA_DIR, session_keep};

    /// The data directory's `last-game` is Banco's own file: bytes that are no saved game
    /// at all (review revE F1) are a damaged kept game — copied aside, then replaced at the
    /// first move; they were refused as "not a saved game" and no game was kept again. A
    /// file the player named that is not a record is still never replaced.
    #[test]
    fn garbage_in_the_data_directorys_kept_game_is_set_aside_and_replaced() {
        let dir = std::env::temp_dir().join(format!("banco-keep-garbage-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let settings = banco_app::computer::Settings::new(
            banco_game::GameKind::Xiangqi,
            banco_game::Color::Red,
            1,
        )
        .unwrap();
        let garbage = b"not a game at all \x00\x01".to_vec();
        let game = banco_app::save::MAGIC.to_vec();
        for named in [false, true] {
            let file = dir.join(if named { "named" } else { "last-game" });
            std::fs::write(&file, &garbage).unwrap();
            let mut keep = Keep::new(KeptGame::Board, file.clone(), named);
            keep.claim();
            keep.tell_off();
            keep.announce_waiting(&|b| crate::cmd_play::board_found(b, &settings));
            keep.release();
            keep.write(game.clone());
            let now = std::fs::read(&file).unwrap();
            if named {
                assert_eq!(now, garbage, "a named file that is no record stays");
            } else {
                assert_eq!(now, game, "Banco's own file is replaced");
                assert_eq!(
                    std::fs::read(file.with_extension("damaged")).unwrap(),
                    garbage
                );
            }
        }
        std::fs::remove_dir_all(&dir).ok();
    }

    /// At the keyboard with no data directory the game cannot be kept: the player is told
    /// so, with the variables that name one and `--keep`; a piped session keeps nothing
    /// and says nothing; a named file is kept whatever the data directory.
    #[test]
    fn no_data_directory_is_said_at_the_keyboard() {
        let told = session_keep(KeptGame::Board, None, true, None).err();
        assert_eq!(told.as_deref(), Some(NO_DATA_DIR));
        for name in ["BANCO_DATA_DIR", "XDG_DATA_HOME", "HOME", "--keep FILE"] {
            assert!(NO_DATA_DIR.contains(name), "{name}");
        }
        assert!(matches!(
            session_keep(KeptGame::Board, None, false, None),
            Ok(None)
        ));
        let dir = std::env::temp_dir().join(format!("banco-keep-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).ok();
        let named = dir.join("kept");
        let keep = session_keep(KeptGame::Board, Some(&named), true, None);
        assert!(matches!(keep, Ok(Some(ref k)) if k.path() == named));
        let at_keyboard = session_keep(KeptGame::Board, None, true, Some(dir.clone()));
        assert!(matches!(at_keyboard, Ok(Some(ref k)) if k.path() == dir.join("last-game")));
        // A Lines game has a file of its own: a board game and a Lines game do not
        // replace each other.
        let lines = session_keep(KeptGame::Lines, None, true, Some(dir.clone()));
        assert!(matches!(lines, Ok(Some(ref k)) if k.path() == dir.join("lines-last-game")));
        drop((keep, at_keyboard, lines));
        std::fs::remove_dir_all(&dir).ok();
    }
}
