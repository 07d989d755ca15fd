//! This device's identity and the players whose code was confirmed ([`Trust`]'s exported
//! bytes), kept between matches — one policy for every app, over the app's own store of
//! secrets ([`TrustPlace`]: a text store the app keeps out of backups, the bytes as Base64;
//! or a store of bytes that may fail, as the iOS Keychain):
//!
//! * **load**: the bytes kept at [`TRUST_KEY`], if [`Trust::import`] reads them; bytes it
//!   cannot read (or text that is not Base64) are **set aside** at [`TRUST_SET_ASIDE`] as
//!   they were stored (the first ones: a later damage does not replace them), the key is
//!   emptied and the match starts with a fresh identity — a dead end (no match until the
//!   app's data is cleared) would be worse than remembered players seeing a new key once —
//!   and the notice [`TRUST_DAMAGED`] is to be shown once;
//! * **save**: the bytes at [`TRUST_KEY`] (after a confirmed code);
//! * **legacy**: bytes an earlier version kept as Base64 in the app's general, backed-up
//!   store move into the trust store once (at the first load or save) and leave the general
//!   store; text there that is not Base64 is set aside in the trust store, never in the
//!   general one. The secret-bearing bytes only ever go to the trust store.
//!
//! A store of bytes that fails to read makes the load fail (the caller says so, and starts
//! no match with a new identity that would replace the real one).
//!
//! ```
//! use banco_app::kept::KeptStore;
//! use banco_app::kept_trust::{TrustKeeper, TrustPlace, TRUST_KEY, TRUST_SET_ASIDE};
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
//! let own = Arc::new(Memory::default());
//! own.put(TRUST_KEY, "%%% not Base64");
//! let mut keeper = TrustKeeper::new(TrustPlace::Text(own.clone()), None);
//! assert_eq!(keeper.load()?, None, "a fresh identity");
//! assert!(keeper.take_notice().unwrap().contains("set aside"));
//! assert_eq!(own.get(TRUST_SET_ASIDE).as_deref(), Some("%%% not Base64"));
//! assert_eq!(own.get(TRUST_KEY), None);
//! # Ok::<(), banco_app::kept_trust::TrustStoreError>(())
//! ```

use crate::kept::{KeptStore, base64};
use crate::network::Trust;
use std::sync::Arc;

/// Where the trust bytes are kept, in the trust store and in a legacy store.
pub const TRUST_KEY: &str = "match.trust";

/// Where unreadable trust bytes are set aside, in the trust store.
pub const TRUST_SET_ASIDE: &str = "match.trust.damaged";

/// What the player is told when the kept bytes could not be read.
pub const TRUST_DAMAGED: &str = "This device's key and remembered players could not be read: they were set aside, \
     and this device starts with a new key (players you played before compare a code again)";

/// A store of bytes that may fail (the iOS Keychain: locked before the first unlock).
pub trait SecretStore: Send + Sync {
    /// The bytes at `key`, if any.
    ///
    /// # Errors
    /// The store's reason when it cannot be read.
    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, String>;
    /// Keeps `value` at `key` in place of what was there.
    ///
    /// # Errors
    /// The store's reason when it cannot be written.
    fn put(&self, key: &str, value: &[u8]) -> Result<(), String>;
    /// Forgets what is kept at `key`.
    ///
    /// # Errors
    /// The store's reason when it cannot be written.
    fn remove(&self, key: &str) -> Result<(), String>;
}

/// The trust store: kept out of backups and device transfers by the app, as the bytes
/// hold the device's secret key.
pub enum TrustPlace {
    /// A store of text (Android's own preferences file): the bytes as Base64.
    Text(Arc<dyn KeptStore>),
    /// A store of bytes (the iOS Keychain): the bytes as they are.
    Secrets(Arc<dyn SecretStore>),
}

/// Why the trust store could not be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TrustStoreError {
    /// The store refused a read or a write.
    #[error("this device's key store could not be used: {0}")]
    Store(String),
}

/// What a store holds at a key, as it holds it.
enum Stored {
    Text(String),
    Bytes(Vec<u8>),
}

impl Stored {
    /// The trust bytes it stands for; `None` for text that is not Base64.
    fn bytes(&self) -> Option<Vec<u8>> {
        match self {
            Stored::Text(text) => base64::decode(text),
            Stored::Bytes(bytes) => Some(bytes.clone()),
        }
    }
}

impl TrustPlace {
    fn get(&self, key: &str) -> Result<Option<Stored>, TrustStoreError> {
        match self {
            TrustPlace::Text(s) => Ok(s.get(key).map(Stored::Text)),
            TrustPlace::Secrets(s) => Ok(s
                .get(key)
                .map_err(TrustStoreError::Store)?
                .map(Stored::Bytes)),
        }
    }

    /// Keeps `value` at `key` in this store's form (text that a store of bytes keeps as its
    /// UTF-8 bytes; bytes that a text store keeps as Base64).
    fn put(&self, key: &str, value: &Stored) -> Result<(), TrustStoreError> {
        match (self, value) {
            (TrustPlace::Text(s), Stored::Text(text)) => s.put(key, text),
            (TrustPlace::Text(s), Stored::Bytes(bytes)) => s.put(key, &base64::encode(bytes)),
            (TrustPlace::Secrets(s), Stored::Text(text)) => {
                s.put(key, text.as_bytes())
                    .map_err(TrustStoreError::Store)?;
            }
            (TrustPlace::Secrets(s), Stored::Bytes(bytes)) => {
                s.put(key, bytes).map_err(TrustStoreError::Store)?;
            }
        }
        Ok(())
    }

    fn remove(&self, key: &str) -> Result<(), TrustStoreError> {
        match self {
            TrustPlace::Text(s) => {
                s.remove(key);
                Ok(())
            }
            TrustPlace::Secrets(s) => s.remove(key).map_err(TrustStoreError::Store),
        }
    }
}

/// The trust bytes in their store, under the policy of this module.
pub struct TrustKeeper {
    place: TrustPlace,
    legacy: Option<Arc<dyn KeptStore>>,
    /// The kept bytes were set aside since the notice was last taken.
    set_aside: bool,
}

impl TrustKeeper {
    /// The trust bytes in `place`; `legacy` is the app's general store, where an earlier
    /// version kept them (Base64 at [`TRUST_KEY`]).
    #[must_use]
    pub fn new(place: TrustPlace, legacy: Option<Arc<dyn KeptStore>>) -> TrustKeeper {
        TrustKeeper {
            place,
            legacy,
            set_aside: false,
        }
    }

    /// The kept bytes, or `None` before the first confirmed code, or when they could not be
    /// read: then they are set aside and [`TrustKeeper::take_notice`] says so.
    ///
    /// # Errors
    /// The trust store could not be read or written ([`TrustPlace::Secrets`]).
    pub fn load(&mut self) -> Result<Option<Vec<u8>>, TrustStoreError> {
        self.migrate()?;
        let Some(stored) = self.place.get(TRUST_KEY)? else {
            return Ok(None);
        };
        if let Some(bytes) = stored.bytes()
            && Trust::import(&bytes).is_ok()
        {
            return Ok(Some(bytes));
        }
        self.set_aside(&stored)?;
        self.place.remove(TRUST_KEY)?;
        Ok(None)
    }

    /// Keeps `bytes` (after a confirmed code).
    ///
    /// # Errors
    /// The trust store could not be written: the last bytes kept stay.
    pub fn save(&mut self, bytes: &[u8]) -> Result<(), TrustStoreError> {
        self.migrate()?;
        self.place.put(TRUST_KEY, &Stored::Bytes(bytes.to_vec()))
    }

    /// What the player should know of the last load ([`TRUST_DAMAGED`]), once.
    pub fn take_notice(&mut self) -> Option<&'static str> {
        std::mem::take(&mut self.set_aside).then_some(TRUST_DAMAGED)
    }

    /// Sets `stored` aside, unless something already is.
    fn set_aside(&mut self, stored: &Stored) -> Result<(), TrustStoreError> {
        if self.place.get(TRUST_SET_ASIDE)?.is_none() {
            self.place.put(TRUST_SET_ASIDE, stored)?;
        }
        self.set_aside = true;
        Ok(())
    }

    /// Moves the bytes an earlier version kept in the legacy store into the trust store
    /// (written first, then removed there), unless the trust store has its own.
    fn migrate(&mut self) -> Result<(), TrustStoreError> {
        let Some(legacy) = self.legacy.clone() else {
            return Ok(());
        };
        let Some(text) = legacy.get(TRUST_KEY) else {
            return Ok(());
        };
        if self.place.get(TRUST_KEY)?.is_none() {
            match base64::decode(&text) {
                Some(bytes) => self.place.put(TRUST_KEY, &Stored::Bytes(bytes))?,
                None => self.set_aside(&Stored::Text(text))?,
            }
        }
        legacy.remove(TRUST_KEY);
        Ok(())
    }
}

#[cfg(test)]
#[path = "kept_trust_tests.rs"]
mod tests;
