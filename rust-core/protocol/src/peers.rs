//! Remembered peers: player name → static public key.
//!
//! A peer whose key was confirmed once (the players compared the six digits) can be
//! remembered; a later session with the same key skips the comparison. If a known name
//! shows up with a different key the session reports
//! [`Event::PeerKeyChanged`](crate::Event::PeerKeyChanged) and asks for the comparison again.
//!
//! ```
//! use banco_protocol::{KnownPeers, PublicKey};
//! let mut peers = KnownPeers::new();
//! peers.insert("Lan", PublicKey([9; 32]));
//! let saved = peers.export();
//! let back = KnownPeers::import(&saved)?;
//! assert_eq!(back.get("Lan"), Some(&PublicKey([9; 32])));
//! # Ok::<(), banco_protocol::PeersError>(())
//! ```

use crate::crypto::PublicKey;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Format tag of [`KnownPeers::export`].
const EXPORT_MAGIC: [u8; 4] = *b"BKP1";

/// Errors of [`KnownPeers::import`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PeersError {
    /// The bytes were not made by [`KnownPeers::export`].
    #[error("not a saved list of known peers (bad header)")]
    BadHeader,
    /// The list is damaged.
    #[error("the saved list of known peers is damaged: {0}")]
    Damaged(String),
}

/// Remembered peers (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnownPeers {
    peers: BTreeMap<String, PublicKey>,
}

impl KnownPeers {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }

    /// Remembers `key` under `name`, replacing an older key; returns the old key.
    pub fn insert(&mut self, name: &str, key: PublicKey) -> Option<PublicKey> {
        self.peers.insert(name.to_owned(), key)
    }

    /// Forgets a name.
    pub fn remove(&mut self, name: &str) -> Option<PublicKey> {
        self.peers.remove(name)
    }

    /// The key remembered for `name`.
    pub fn get(&self, name: &str) -> Option<&PublicKey> {
        self.peers.get(name)
    }

    /// The name under which `key` is remembered, if any.
    pub fn name_of(&self, key: &PublicKey) -> Option<&str> {
        self.peers
            .iter()
            .find(|(_, k)| *k == key)
            .map(|(n, _)| n.as_str())
    }

    /// Every remembered peer, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &PublicKey)> {
        self.peers.iter().map(|(n, k)| (n.as_str(), k))
    }

    /// Number of remembered peers.
    pub fn len(&self) -> usize {
        self.peers.len()
    }

    /// True when nobody is remembered.
    pub fn is_empty(&self) -> bool {
        self.peers.is_empty()
    }

    /// Compact bytes to store the list (a 4-byte header, then postcard).
    pub fn export(&self) -> Vec<u8> {
        let mut out = EXPORT_MAGIC.to_vec();
        if let Ok(bytes) = postcard::to_extend(self, out.clone()) {
            out = bytes;
        }
        out
    }

    /// The list stored by [`KnownPeers::export`].
    pub fn import(bytes: &[u8]) -> Result<KnownPeers, PeersError> {
        let rest = bytes
            .strip_prefix(&EXPORT_MAGIC[..])
            .ok_or(PeersError::BadHeader)?;
        let (peers, tail): (KnownPeers, &[u8]) =
            postcard::take_from_bytes(rest).map_err(|e| PeersError::Damaged(e.to_string()))?;
        if !tail.is_empty() {
            return Err(PeersError::Damaged(format!("{} extra bytes", tail.len())));
        }
        Ok(peers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn import_rejects_garbage() {
        assert_eq!(KnownPeers::import(b"nope"), Err(PeersError::BadHeader));
        assert!(matches!(
            KnownPeers::import(b"BKP1\x05"),
            Err(PeersError::Damaged(_))
        ));
    }

    #[test]
    fn lookup_by_key() {
        let mut p = KnownPeers::new();
        assert!(p.is_empty());
        p.insert("a", PublicKey([1; 32]));
        assert_eq!(p.insert("a", PublicKey([2; 32])), Some(PublicKey([1; 32])));
        assert_eq!(p.name_of(&PublicKey([2; 32])), Some("a"));
        assert_eq!(p.name_of(&PublicKey([1; 32])), None);
        assert_eq!(p.len(), 1);
    }
}
