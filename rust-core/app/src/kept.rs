//! Records a front end keeps in its platform's key-value store (Android's
//! SharedPreferences, iOS's UserDefaults) as Base64 text: the game to continue, Lines' game
//! to continue, Lines' best scores. One policy for every app, over the front end's
//! [`KeptStore`]:
//!
//! * a slot ([`KeptSlot`]) is **read** with the loader of its kind ([`KeptKind`]: the same
//!   code that opens the record later), and hands back the bytes to use, or nothing, with a
//!   notice to show once ([`Kept`]);
//! * **damaged** bytes (the loader refuses them as damaged, as another kind of record, or
//!   the text is not Base64) are **set aside** at `KEY.damaged` ([`set_aside_key`]; a later
//!   damage replaces an earlier one there, as the CLI's fixed `.damaged` copy of a progress
//!   record) and the slot is emptied: nothing is lost, and the slot is free for new bytes;
//! * bytes a newer Banco wrote (or refused for any reason that is not damage) **lock** the
//!   slot: they stay as they are, nothing writes over them this session
//!   ([`KeptError::Locked`]), and the notice says to update the app;
//! * a **write** or a **clear** judges the bytes in the slot first when no read did (the
//!   same policy), so that neither loses a record it did not look at.
//!
//! The command line keeps its game to continue in a file, under the same policy: its bytes
//! are judged by [`KeptKind::judge_bytes`], damaged ones copied aside
//! ([`crate::files::set_aside`]) before anything replaces them, a locked record left alone.
//!
//! The puzzle progress record has its own policy ([`SharedProgress::open`]);
//! [`open_progress`] opens it from a front end's store and sets damaged text aside the same
//! way.
//!
//! When the game to continue is replaced (a new game at the player's first move:
//! `VsState::player_moved`; a new Lines game at its first turn) is decided over the slot by
//! the FFI's `GameKeeper` and `LinesKeeper`; the slot only keeps what it is given.
//!
//! ```
//! use banco_app::kept::{KeptKind, KeptSlot, KeptStore};
//! use std::collections::HashMap;
//! use std::sync::{Arc, Mutex};
//!
//! #[derive(Default)]
//! struct Memory(Mutex<HashMap<String, String>>);
//! impl KeptStore for Memory {
//!     fn get(&self, key: &str) -> Option<String> { self.0.lock().unwrap().get(key).cloned() }
//!     fn put(&self, key: &str, value: &str) { self.0.lock().unwrap().insert(key.into(), value.into()); }
//!     fn remove(&self, key: &str) { self.0.lock().unwrap().remove(key); }
//! }
//!
//! let store = Arc::new(Memory::default());
//! store.put("lines.best", "%%% not Base64");
//! let mut slot = KeptSlot::new(store.clone(), "lines.best", KeptKind::LinesBestScores);
//! let kept = slot.read();
//! assert_eq!(kept.bytes, None);
//! assert!(kept.notice.unwrap().text().contains("set aside"));
//! assert_eq!(store.get("lines.best.damaged").as_deref(), Some("%%% not Base64"));
//! assert_eq!(store.get("lines.best"), None);
//! ```

use crate::computer::{ActionError, Settings, VsComputer};
use crate::puzzles::progress::{ProgressError, ProgressStore, SharedProgress};
use crate::save::SaveError;
use banco_game::{Color, GameKind};
use std::sync::Arc;

/// The front end's key-value store of text (SharedPreferences, UserDefaults, memory in
/// tests). Its calls are quick and do not fail (a store that cannot write loses the write).
pub trait KeptStore: Send + Sync {
    /// The text kept at `key`, if any.
    fn get(&self, key: &str) -> Option<String>;
    /// Keeps `value` at `key` in place of what was there.
    fn put(&self, key: &str, value: &str);
    /// Forgets what is kept at `key`.
    fn remove(&self, key: &str);
}

/// What a slot holds, which decides how it is read and what its notices say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeptKind {
    /// A board game to continue against the computer ([`VsComputer::resume`]'s bytes).
    Game,
    /// A Lines game to continue ([`crate::lines::LinesSession::continue_saved`]'s bytes).
    LinesGame,
    /// Lines' best-scores table ([`crate::lines::LinesSession::load_best_scores`]'s bytes).
    LinesBestScores,
}

/// A notice about a kept record, to show once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeptNotice {
    /// The record was damaged: it was set aside at `set_aside_at` and the slot emptied.
    SetAside {
        /// The kind of record.
        kind: KeptKind,
        /// Why it could not be read (the loader's words).
        why: String,
        /// Where its text now is.
        set_aside_at: String,
    },
    /// A newer Banco's record (or one refused for another reason than damage): left as it
    /// is, and never written over this session.
    Locked {
        /// The kind of record.
        kind: KeptKind,
        /// Why it could not be read (the loader's words: "update the app …").
        why: String,
    },
}

impl KeptNotice {
    /// The words to show the player.
    #[must_use]
    pub fn text(&self) -> String {
        match self {
            KeptNotice::SetAside {
                kind: KeptKind::Game | KeptKind::LinesGame,
                why,
                ..
            }
            | KeptNotice::Locked {
                kind: KeptKind::Game | KeptKind::LinesGame,
                why,
            } => format!("The saved game could not be continued: {why}"),
            KeptNotice::SetAside {
                kind: KeptKind::LinesBestScores,
                why,
                ..
            } => format!(
                "The best scores could not be read ({why}): they were set aside, and new ones are kept from now on."
            ),
            KeptNotice::Locked {
                kind: KeptKind::LinesBestScores,
                why,
            } => format!(
                "The best scores could not be read ({why}): this session's scores are not kept."
            ),
        }
    }
}

/// What a read of a slot gives.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Kept {
    /// The record's bytes, ready for its loader; `None` when there is none to use.
    pub bytes: Option<Vec<u8>>,
    /// What the player should be told, once.
    pub notice: Option<KeptNotice>,
}

/// Why a slot refused a write or a clear.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KeptError {
    /// The slot holds a newer Banco's record: it is kept as it is this session.
    #[error("{key} holds a record of a newer Banco ({why}): it is not written over")]
    Locked {
        /// The slot's key.
        key: String,
        /// Why the record could not be read.
        why: String,
    },
}

/// The key where the damaged text of slot `key` is set aside.
#[must_use]
pub fn set_aside_key(key: &str) -> String {
    format!("{key}.damaged")
}

/// How the policy of this module judges a record's bytes ([`KeptKind::judge_bytes`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeptVerdict {
    /// The loader of the kind opens them.
    Sound,
    /// Damaged (or another kind of record): to set aside before anything replaces them.
    Damaged(String),
    /// A newer Banco's record (or refused for another reason than damage): never to be
    /// written over this session.
    Locked(String),
}

/// How the loader judged a slot's text.
enum Verdict {
    /// Sound: these bytes.
    Good(Vec<u8>),
    /// Damaged (or another kind of record, or not Base64): safe to set aside and replace.
    Damaged(String),
    /// A newer Banco's, or refused for another reason: to be left alone.
    Keep(String),
}

/// A saved game refused as damaged (or of another kind) or not: a newer Banco's, or one
/// this build does not play, is not damage.
fn save_verdict(e: SaveError, prefix: &str) -> KeptVerdict {
    match e {
        SaveError::NewerVersion(_)
        | SaveError::UnsupportedGame(_)
        | SaveError::BestScoresNewer(_) => KeptVerdict::Locked(e.to_string()),
        SaveError::LinesGame | SaveError::NotLines(_) | SaveError::NotBestScores => {
            KeptVerdict::Damaged(e.to_string())
        }
        SaveError::NoPgn(_) | SaveError::TooLong(_) => KeptVerdict::Locked(e.to_string()),
        other => KeptVerdict::Damaged(format!("{prefix}{other}")),
    }
}

impl KeptKind {
    /// Judges `text` with the loader of this kind.
    fn judge(self, text: &str) -> Verdict {
        let Some(bytes) = base64::decode(text) else {
            return Verdict::Damaged(
                match self {
                    KeptKind::Game | KeptKind::LinesGame => "it is not a saved game",
                    KeptKind::LinesBestScores => "they are not Base64",
                }
                .to_owned(),
            );
        };
        match self.judge_bytes(&bytes) {
            KeptVerdict::Sound => Verdict::Good(bytes),
            KeptVerdict::Damaged(why) => Verdict::Damaged(why),
            KeptVerdict::Locked(why) => Verdict::Keep(why),
        }
    }

    /// Judges `bytes`, a record as a file holds it, with the loader of this kind, under the
    /// policy of this module: a front end that keeps the record in a file of its own (the
    /// command line's kept game) sets damaged bytes aside before replacing them, and never
    /// writes over a locked record.
    #[must_use]
    pub fn judge_bytes(self, bytes: &[u8]) -> KeptVerdict {
        let checked = match self {
            KeptKind::Game => match resume(bytes) {
                Ok(()) => Ok(()),
                Err(ActionError::Save(e)) => {
                    Err(save_verdict(e, "this saved game cannot be loaded: "))
                }
                Err(other) => Err(KeptVerdict::Locked(other.to_string())),
            },
            KeptKind::LinesGame => crate::lines::check_saved(bytes)
                .map_err(|e| save_verdict(e, "this saved Lines game cannot be loaded: ")),
            KeptKind::LinesBestScores => {
                crate::lines::check_best_scores(bytes).map_err(|e| save_verdict(e, ""))
            }
        };
        checked.err().unwrap_or(KeptVerdict::Sound)
    }
}

/// Opens a game to continue as the front end will ([`VsComputer::resume`]), and drops it.
fn resume(bytes: &[u8]) -> Result<(), ActionError> {
    // Only a record without a player falls back on these (its colour and level).
    let fallback = Settings::new(GameKind::Xiangqi, Color::Red, 1)?;
    VsComputer::resume(bytes, &fallback).map(|_| ())
}

/// One record in the front end's store, at one key, under the policy of this module.
pub struct KeptSlot {
    store: Arc<dyn KeptStore>,
    key: String,
    kind: KeptKind,
    /// The text at `key` was judged this session (read, written or cleared): what is there
    /// now is this session's or sound.
    judged: bool,
    /// Why the slot is not written this session (a newer Banco's record), once judged so.
    locked: Option<String>,
}

impl KeptSlot {
    /// The slot at `key` of `store`, holding a record of `kind`; nothing is read yet.
    #[must_use]
    pub fn new(store: Arc<dyn KeptStore>, key: &str, kind: KeptKind) -> KeptSlot {
        KeptSlot {
            store,
            key: key.to_owned(),
            kind,
            judged: false,
            locked: None,
        }
    }

    /// The slot's key.
    #[must_use]
    pub fn key(&self) -> &str {
        &self.key
    }

    /// True when the store holds something at the key (to offer "Continue"; reading it may
    /// still find it damaged or a newer Banco's).
    #[must_use]
    pub fn is_present(&self) -> bool {
        self.store.get(&self.key).is_some()
    }

    /// True when the slot holds a newer Banco's record, judged so: it is not written this
    /// session.
    #[must_use]
    pub fn is_locked(&self) -> bool {
        self.locked.is_some()
    }

    /// The record's bytes, judged by the loader of the slot's kind: sound bytes come back;
    /// damaged ones are set aside (at [`set_aside_key`]) and the slot emptied; a newer
    /// Banco's lock the slot. Either refusal comes with its notice. Each read judges what
    /// the store holds now (a lock holds while a newer Banco's record is there).
    pub fn read(&mut self) -> Kept {
        let Some(text) = self.store.get(&self.key) else {
            self.judged = true;
            self.locked = None;
            return Kept::default();
        };
        match self.kind.judge(&text) {
            Verdict::Good(bytes) => {
                self.judged = true;
                self.locked = None;
                Kept {
                    bytes: Some(bytes),
                    notice: None,
                }
            }
            Verdict::Damaged(why) => Kept {
                bytes: None,
                notice: Some(self.set_aside(&text, why)),
            },
            Verdict::Keep(why) => Kept {
                bytes: None,
                notice: Some(self.lock(why)),
            },
        }
    }

    /// Keeps `bytes` (as Base64) in the slot; refused when it holds a newer Banco's record.
    /// Bytes no read judged yet are judged first (damaged ones set aside).
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), KeptError> {
        self.ready()?;
        self.store.put(&self.key, &base64::encode(bytes));
        Ok(())
    }

    /// Empties the slot (a finished game is not continued); refused when it holds a newer
    /// Banco's record. Bytes no read judged yet are judged first (damaged ones set aside).
    pub fn clear(&mut self) -> Result<(), KeptError> {
        self.ready()?;
        self.store.remove(&self.key);
        Ok(())
    }

    /// Before a write: judges what the slot holds if no read did; refuses a locked slot.
    fn ready(&mut self) -> Result<(), KeptError> {
        if !self.judged {
            // What the read says is for a read; a write only needs its verdict.
            let _verdict = self.read();
        }
        match &self.locked {
            Some(why) => Err(KeptError::Locked {
                key: self.key.clone(),
                why: why.clone(),
            }),
            None => Ok(()),
        }
    }

    /// Sets damaged `text` aside and empties the slot.
    fn set_aside(&mut self, text: &str, why: String) -> KeptNotice {
        let aside = set_aside_key(&self.key);
        self.store.put(&aside, text);
        self.store.remove(&self.key);
        self.judged = true;
        self.locked = None;
        KeptNotice::SetAside {
            kind: self.kind,
            why,
            set_aside_at: aside,
        }
    }

    /// Locks the slot: its record is left as it is.
    fn lock(&mut self, why: String) -> KeptNotice {
        self.judged = true;
        self.locked = Some(why.clone());
        KeptNotice::Locked {
            kind: self.kind,
            why,
        }
    }
}

/// The player's puzzle progress kept in `store` at `key` (Base64; text that is not Base64
/// is handed over as it is, and read as damaged), opened by [`SharedProgress::open`], which
/// has the progress record's own policy: a record of a newer Banco (or one the store cannot
/// read) is never written over, any other damage starts afresh. Text that did not read
/// whole is first copied aside at [`set_aside_key`] (as the CLI's `.damaged` copy), before
/// the first change writes over it; the reason comes back to be shown once.
#[must_use]
pub fn open_progress(
    store: Arc<dyn KeptStore>,
    key: &str,
) -> (Arc<SharedProgress>, Option<ProgressError>) {
    let relay = Arc::new(ProgressSlot {
        store: Arc::clone(&store),
        key: key.to_owned(),
    });
    let (progress, damage) = SharedProgress::open(relay);
    if damage.is_some()
        && let Some(text) = store.get(key)
    {
        store.put(&set_aside_key(key), &text);
    }
    (progress, damage)
}

/// The progress record's store over a slot of the front end's.
struct ProgressSlot {
    store: Arc<dyn KeptStore>,
    key: String,
}

impl ProgressStore for ProgressSlot {
    fn load(&self) -> Result<Option<Vec<u8>>, String> {
        Ok(self
            .store
            .get(&self.key)
            .map(|text| base64::decode(&text).unwrap_or_else(|| text.into_bytes())))
    }

    fn save(&self, bytes: Vec<u8>) {
        self.store.put(&self.key, &base64::encode(&bytes));
    }
}

/// Base64 as the apps store records: the standard alphabet, padded (Java's
/// `Base64.getEncoder()`, Swift's `base64EncodedString()`); padding is optional when read.
pub(crate) mod base64 {
    use base64::Engine as _;
    use base64::alphabet::STANDARD;
    use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

    const APPS: GeneralPurpose = GeneralPurpose::new(
        &STANDARD,
        GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
    );

    /// `bytes` as Base64 text.
    pub(crate) fn encode(bytes: &[u8]) -> String {
        APPS.encode(bytes)
    }

    /// The bytes of Base64 `text`; `None` when it is not Base64.
    pub(crate) fn decode(text: &str) -> Option<Vec<u8>> {
        APPS.decode(text).ok()
    }
}

#[cfg(test)]
#[path = "kept_tests.rs"]
pub(crate) mod tests;
