//! [`TrustKeeper`]: this device's identity and the players whose code was confirmed
//! (`Match.exportTrust()` bytes), kept between matches in the shell's own store of secrets
//! under banco-app's `kept_trust` policy — bytes that cannot be read are set aside (never
//! deleted) with a notice to show once, and the match starts with a fresh identity; bytes an
//! earlier version kept in the general store move once into the trust store. Pass
//! [`TrustKeeper::load`] as a match's `trust` and [`TrustKeeper::save`] as its `onTrust`.
//!
//! The shell supplies only its store, kept out of backups and device transfers (the bytes
//! hold the device's secret key): Android a [`KeptStore`] over its own preferences file
//! ([`TrustKeeper::in_text_store`], Base64 there), iOS a [`TrustStore`] over the Keychain
//! ([`TrustKeeper::in_secret_store`], the bytes as they are).
//!
//! ```
//! use banco_ffi::{KeptStore, TrustKeeper, new_trust};
//! use std::collections::HashMap;
//! use std::sync::{Arc, Mutex};
//!
//! #[derive(Default)]
//! struct Memory(Mutex<HashMap<String, String>>);
//! impl KeptStore for Memory {
//!     fn get(&self, key: String) -> Option<String> { self.0.lock().unwrap().get(&key).cloned() }
//!     fn put(&self, key: String, value: String) { self.0.lock().unwrap().insert(key, value); }
//!     fn remove(&self, key: String) { self.0.lock().unwrap().remove(&key); }
//! }
//!
//! let own = Arc::new(Memory::default());
//! let keeper = TrustKeeper::in_text_store(own.clone(), None);
//! assert_eq!(keeper.load()?, None);
//! let trust = new_trust()?;
//! keeper.save(trust.clone());
//! assert_eq!(keeper.load()?, Some(trust));
//! own.put("match.trust".into(), "AQID".into()); // bytes 1, 2, 3: damaged
//! assert_eq!(keeper.load()?, None);
//! assert!(keeper.take_notice().unwrap().contains("set aside"));
//! # Ok::<(), banco_ffi::BancoError>(())
//! ```

use crate::error::{BancoError, guard};
use crate::kept::{KeptStore, relay};
use banco_app::kept_trust as t;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// What a shell's [`TrustStore`] reports as failed (Swift: `TrustStoreError.Failed(reason:)`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, uniffi::Error)]
pub enum TrustStoreError {
    /// The store could not be read or written (the Keychain locked, …).
    #[error("{reason}")]
    Failed {
        /// The platform's words.
        reason: String,
    },
}

impl From<uniffi::UnexpectedUniFFICallbackError> for TrustStoreError {
    fn from(e: uniffi::UnexpectedUniFFICallbackError) -> Self {
        TrustStoreError::Failed { reason: e.reason }
    }
}

/// The shell's store of secrets as bytes (the iOS Keychain), whose calls may fail.
#[uniffi::export(with_foreign)]
pub trait TrustStore: Send + Sync {
    /// The bytes at `key`; null/nil when there are none.
    fn get(&self, key: String) -> Result<Option<Vec<u8>>, TrustStoreError>;
    /// Keeps `value` at `key` in place of what was there.
    fn put(&self, key: String, value: Vec<u8>) -> Result<(), TrustStoreError>;
    /// Forgets what is kept at `key`.
    fn remove(&self, key: String) -> Result<(), TrustStoreError>;
}

/// banco-app's store of secrets over the shell's.
struct Relay(Arc<dyn TrustStore>);

/// Runs a call into the shell: its error, or a panic, as the store's words.
fn call<T>(f: impl FnOnce() -> Result<T, TrustStoreError>) -> Result<T, String> {
    guard(|| Ok(f()))
        .map_err(|e| e.to_string())?
        .map_err(|e| e.to_string())
}

impl t::SecretStore for Relay {
    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, String> {
        call(|| self.0.get(key.to_owned()))
    }
    fn put(&self, key: &str, value: &[u8]) -> Result<(), String> {
        call(|| self.0.put(key.to_owned(), value.to_vec()))
    }
    fn remove(&self, key: &str) -> Result<(), String> {
        call(|| self.0.remove(key.to_owned()))
    }
}

/// The device's trust bytes in the shell's store of secrets (module docs).
#[derive(uniffi::Object)]
pub struct TrustKeeper {
    keeper: Mutex<t::TrustKeeper>,
}

impl TrustKeeper {
    fn of(place: t::TrustPlace, legacy: Option<Arc<dyn KeptStore>>) -> Arc<TrustKeeper> {
        Arc::new(TrustKeeper {
            keeper: Mutex::new(t::TrustKeeper::new(place, legacy.map(relay))),
        })
    }

    fn lock(&self) -> MutexGuard<'_, t::TrustKeeper> {
        self.keeper.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[uniffi::export]
impl TrustKeeper {
    /// The trust bytes as Base64 in `store`, a text store of their own (Android's
    /// preferences file kept out of backups); `legacy` is the general store where an
    /// earlier version kept them.
    #[uniffi::constructor]
    pub fn in_text_store(
        store: Arc<dyn KeptStore>,
        legacy: Option<Arc<dyn KeptStore>>,
    ) -> Arc<TrustKeeper> {
        TrustKeeper::of(t::TrustPlace::Text(relay(store)), legacy)
    }

    /// The trust bytes as they are in `store` (the iOS Keychain); `legacy` is the general
    /// store where an earlier version kept them (Base64).
    #[uniffi::constructor]
    pub fn in_secret_store(
        store: Arc<dyn TrustStore>,
        legacy: Option<Arc<dyn KeptStore>>,
    ) -> Arc<TrustKeeper> {
        TrustKeeper::of(t::TrustPlace::Secrets(Arc::new(Relay(store))), legacy)
    }

    /// The kept bytes, for a match's `trust`; null/nil before the first confirmed code, or
    /// when they could not be read (then set aside: [`TrustKeeper::take_notice`] says so,
    /// and the match makes a new identity). Throws `NotAvailable` when the store cannot be
    /// read (start no match then: a new identity would replace the real one).
    pub fn load(&self) -> Result<Option<Vec<u8>>, BancoError> {
        guard(|| {
            self.lock()
                .load()
                .map_err(|e| BancoError::NotAvailable(e.to_string()))
        })
    }

    /// What the last load had to do that the player should know, once; null/nil if nothing.
    pub fn take_notice(&self) -> Option<String> {
        self.lock().take_notice().map(str::to_owned)
    }

    /// Keeps `bytes` (a match's `onTrust`, after a confirmed code). A store that refuses
    /// leaves the last bytes kept, and the next confirmed code tries again.
    pub fn save(&self, bytes: Vec<u8>) {
        // Nothing to tell the player now: the next confirmed code tries again.
        let _unsaved = guard(|| Ok(self.lock().save(&bytes).is_ok()));
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// The iOS Keychain as the shell gives it: bytes, and it can be locked.
    #[derive(Default)]
    struct Keychain {
        map: Mutex<HashMap<String, Vec<u8>>>,
        locked: Mutex<bool>,
    }
    impl Keychain {
        fn check(&self) -> Result<(), TrustStoreError> {
            if *self.locked.lock().unwrap() {
                return Err(TrustStoreError::Failed {
                    reason: "errSecInteractionNotAllowed".into(),
                });
            }
            Ok(())
        }
    }
    impl TrustStore for Keychain {
        fn get(&self, key: String) -> Result<Option<Vec<u8>>, TrustStoreError> {
            self.check()?;
            Ok(self.map.lock().unwrap().get(&key).cloned())
        }
        fn put(&self, key: String, value: Vec<u8>) -> Result<(), TrustStoreError> {
            self.check()?;
            self.map.lock().unwrap().insert(key, value);
            Ok(())
        }
        fn remove(&self, key: String) -> Result<(), TrustStoreError> {
            self.check()?;
            self.map.lock().unwrap().remove(&key);
            Ok(())
        }
    }

    /// The Keychain's errors, and a panic in it, reach the shell as `NotAvailable` with
    /// the platform's words; damaged bytes are set aside there as they are.
    #[test]
    fn a_keychain_that_fails_is_an_error_and_damage_is_set_aside() {
        let keychain = Arc::new(Keychain::default());
        let keeper = TrustKeeper::in_secret_store(keychain.clone(), None);
        let trust = crate::new_trust().unwrap();
        keeper.save(trust.clone());
        assert_eq!(keeper.load().unwrap(), Some(trust.clone()));
        *keychain.locked.lock().unwrap() = true;
        match keeper.load() {
            Err(BancoError::NotAvailable(why)) => {
                assert!(why.contains("errSecInteractionNotAllowed"), "{why}");
            }
            other => panic!("{other:?}"),
        }
        keeper.save(vec![1]);
        *keychain.locked.lock().unwrap() = false;
        assert_eq!(
            keeper.load().unwrap(),
            Some(trust),
            "the refused save left them"
        );
        keychain.put("match.trust".into(), vec![7, 7, 7]).unwrap();
        assert_eq!(keeper.load().unwrap(), None);
        assert!(keeper.take_notice().unwrap().contains("set aside"));
        assert_eq!(keeper.take_notice(), None);
        assert_eq!(
            keychain.get("match.trust.damaged".into()).unwrap(),
            Some(vec![7, 7, 7])
        );

        struct Panicking;
        impl TrustStore for Panicking {
            fn get(&self, _key: String) -> Result<Option<Vec<u8>>, TrustStoreError> {
                std::panic::panic_any("the Keychain broke".to_owned())
            }
            fn put(&self, _key: String, _value: Vec<u8>) -> Result<(), TrustStoreError> {
                std::panic::panic_any("the Keychain broke".to_owned())
            }
            fn remove(&self, _key: String) -> Result<(), TrustStoreError> {
                std::panic::panic_any("the Keychain broke".to_owned())
            }
        }
        let keeper = TrustKeeper::in_secret_store(Arc::new(Panicking), None);
        assert!(matches!(keeper.load(), Err(BancoError::NotAvailable(_))));
        keeper.save(vec![1]);
    }
}
