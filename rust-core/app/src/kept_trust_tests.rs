//! The trust store's policy, branch by branch, in a text store and in a store of bytes.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use banco_protocol::{Identity, KnownPeers};
use std::collections::BTreeMap;
use std::sync::Mutex;

/// A text store in memory.
use crate::kept::tests::Memory as Text;

/// A store of bytes in memory that can be locked (every call fails).
#[derive(Default)]
struct Secrets {
    map: Mutex<BTreeMap<String, Vec<u8>>>,
    locked: Mutex<bool>,
}

impl Secrets {
    fn check(&self) -> Result<(), String> {
        if *self.locked.lock().unwrap() {
            Err("the Keychain is locked".into())
        } else {
            Ok(())
        }
    }
    fn at(&self, key: &str) -> Option<Vec<u8>> {
        self.map.lock().unwrap().get(key).cloned()
    }
}

impl SecretStore for Secrets {
    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, String> {
        self.check()?;
        Ok(self.at(key))
    }
    fn put(&self, key: &str, value: &[u8]) -> Result<(), String> {
        self.check()?;
        self.map.lock().unwrap().insert(key.into(), value.to_vec());
        Ok(())
    }
    fn remove(&self, key: &str) -> Result<(), String> {
        self.check()?;
        self.map.lock().unwrap().remove(key);
        Ok(())
    }
}

/// Sound trust bytes (a fixed identity).
fn trust(seed: u8) -> Vec<u8> {
    Trust::new(Identity::from_secret([seed; 32]), KnownPeers::new()).export()
}

/// Text store: sound bytes load and save as Base64; damaged ones (not Base64, or bytes
/// Trust refuses) are set aside as they were stored — the first ones only — with the
/// notice once, and the key is free for a new identity.
#[test]
fn a_text_store_loads_saves_and_sets_damaged_bytes_aside() {
    let own = Arc::new(Text::default());
    let mut keeper = TrustKeeper::new(TrustPlace::Text(own.clone()), None);
    assert_eq!(
        keeper.load().unwrap(),
        None,
        "nothing before the first code"
    );
    assert_eq!(keeper.take_notice(), None);
    let sound = trust(1);
    keeper.save(&sound).unwrap();
    assert_eq!(own.get(TRUST_KEY), Some(base64::encode(&sound)));
    assert_eq!(keeper.load().unwrap(), Some(sound.clone()));
    assert_eq!(keeper.take_notice(), None);

    own.put(TRUST_KEY, "%%% not Base64");
    assert_eq!(keeper.load().unwrap(), None);
    assert_eq!(keeper.take_notice(), Some(TRUST_DAMAGED));
    assert_eq!(keeper.take_notice(), None, "said once");
    assert_eq!(own.get(TRUST_SET_ASIDE).as_deref(), Some("%%% not Base64"));
    assert_eq!(own.get(TRUST_KEY), None);

    // Base64 of bytes Trust refuses: damaged too; the first set-aside stays.
    own.put(TRUST_KEY, &base64::encode(&[1, 2, 3]));
    assert_eq!(keeper.load().unwrap(), None);
    assert_eq!(keeper.take_notice(), Some(TRUST_DAMAGED));
    assert_eq!(own.get(TRUST_SET_ASIDE).as_deref(), Some("%%% not Base64"));
    assert_eq!(own.get(TRUST_KEY), None);
    keeper.save(&sound).unwrap();
    assert_eq!(keeper.load().unwrap(), Some(sound));
}

/// Store of bytes: the bytes as they are; damaged ones set aside as they are; a store that
/// fails makes the load fail (no fresh identity over the real one) and the save fail.
#[test]
fn a_store_of_bytes_keeps_raw_bytes_and_its_failures_are_errors() {
    let secrets = Arc::new(Secrets::default());
    let mut keeper = TrustKeeper::new(TrustPlace::Secrets(secrets.clone()), None);
    let sound = trust(2);
    keeper.save(&sound).unwrap();
    assert_eq!(secrets.at(TRUST_KEY), Some(sound.clone()));
    assert_eq!(keeper.load().unwrap(), Some(sound.clone()));

    *secrets.locked.lock().unwrap() = true;
    assert!(matches!(keeper.load(), Err(TrustStoreError::Store(_))));
    assert!(keeper.save(&trust(3)).is_err());
    assert_eq!(keeper.take_notice(), None);
    *secrets.locked.lock().unwrap() = false;
    assert_eq!(secrets.at(TRUST_KEY), Some(sound), "the last bytes stay");

    secrets.put(TRUST_KEY, &[9, 9]).unwrap();
    assert_eq!(keeper.load().unwrap(), None);
    assert_eq!(keeper.take_notice(), Some(TRUST_DAMAGED));
    assert_eq!(secrets.at(TRUST_SET_ASIDE), Some(vec![9, 9]));
    assert_eq!(secrets.at(TRUST_KEY), None);
}

/// Legacy: Base64 in the general store moves once into the trust store (a text store keeps
/// the same text) and leaves the general one; the trust store's own bytes win; text that is
/// not Base64 is set aside in the trust store, never left in the general one.
#[test]
fn bytes_of_an_earlier_version_move_out_of_the_general_store() {
    let sound = trust(4);
    let text = base64::encode(&sound);

    let general = Arc::new(Text::default());
    general.put(TRUST_KEY, &text);
    let own = Arc::new(Text::default());
    let mut keeper = TrustKeeper::new(TrustPlace::Text(own.clone()), Some(general.clone()));
    assert_eq!(keeper.load().unwrap(), Some(sound.clone()));
    assert_eq!(
        general.get(TRUST_KEY),
        None,
        "gone from the backed-up store"
    );
    assert_eq!(own.get(TRUST_KEY), Some(text.clone()), "the same text");

    // The trust store's own bytes win over a stale legacy copy, which goes.
    general.put(TRUST_KEY, &base64::encode(&trust(5)));
    assert_eq!(keeper.load().unwrap(), Some(sound.clone()));
    assert_eq!(general.get(TRUST_KEY), None);

    // Into a store of bytes: decoded; a save also moves them first.
    let secrets = Arc::new(Secrets::default());
    general.put(TRUST_KEY, &text);
    let mut keeper = TrustKeeper::new(TrustPlace::Secrets(secrets.clone()), Some(general.clone()));
    keeper.save(&trust(6)).unwrap();
    assert_eq!(general.get(TRUST_KEY), None);
    assert_eq!(keeper.load().unwrap(), Some(trust(6)));

    // Not Base64: set aside in the trust store (as UTF-8 bytes there), said once.
    let secrets = Arc::new(Secrets::default());
    general.put(TRUST_KEY, "%%% not Base64");
    let mut keeper = TrustKeeper::new(TrustPlace::Secrets(secrets.clone()), Some(general.clone()));
    assert_eq!(keeper.load().unwrap(), None);
    assert_eq!(keeper.take_notice(), Some(TRUST_DAMAGED));
    assert_eq!(
        secrets.at(TRUST_SET_ASIDE),
        Some(b"%%% not Base64".to_vec())
    );
    assert_eq!(general.get(TRUST_KEY), None);
    assert_eq!(
        general.get(TRUST_SET_ASIDE),
        None,
        "never set aside in the general store"
    );

    // A locked store of bytes: the legacy copy stays where it is until it can move.
    general.put(TRUST_KEY, &text);
    *secrets.locked.lock().unwrap() = true;
    assert!(keeper.load().is_err());
    assert_eq!(general.get(TRUST_KEY), Some(text));
}
