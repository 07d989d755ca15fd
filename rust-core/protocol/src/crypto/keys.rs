//! Static keys: the local [`Identity`] and a peer's [`PublicKey`].

use core::fmt;
use serde::{Deserialize, Serialize};
use snow::params::DHChoice;
use snow::resolvers::{CryptoResolver, DefaultResolver};

/// An X25519 static public key: who a peer is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PublicKey(pub [u8; 32]);

impl PublicKey {
    /// The raw bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The key from a slice of exactly 32 bytes.
    pub fn from_slice(bytes: &[u8]) -> Option<PublicKey> {
        <[u8; 32]>::try_from(bytes).ok().map(PublicKey)
    }

    /// A short fingerprint for people: the first 8 bytes in hex, grouped by 4 digits.
    pub fn fingerprint(&self) -> String {
        let hex: Vec<String> = self.0[..8]
            .chunks(2)
            .map(|c| {
                c.iter()
                    .fold(String::new(), |acc, b| acc + &format!("{b:02x}"))
            })
            .collect();
        hex.join("-")
    }
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PublicKey({})", self.fingerprint())
    }
}

impl fmt::Display for PublicKey {
    /// All 32 bytes in lower-case hex.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

/// The local player's static key pair. Keep the secret bytes in the platform key store;
/// the public key is what peers remember.
///
/// ```
/// use banco_protocol::Identity;
/// let id = Identity::from_secret([7; 32]);
/// assert_eq!(Identity::from_secret(*id.secret()).public(), id.public());
/// ```
#[derive(Clone)]
pub struct Identity {
    secret: [u8; 32],
    public: PublicKey,
}

impl Identity {
    /// The identity for 32 secret bytes (from the platform's secure random source; any 32
    /// bytes are a valid X25519 secret).
    pub fn from_secret(secret: [u8; 32]) -> Identity {
        let mut public = [0u8; 32];
        if let Some(mut dh) = DefaultResolver.resolve_dh(&DHChoice::Curve25519) {
            dh.set(&secret);
            if let Some(p) = PublicKey::from_slice(dh.pubkey()) {
                public = p.0;
            }
        }
        Identity {
            secret,
            public: PublicKey(public),
        }
    }

    /// The public key.
    pub fn public(&self) -> PublicKey {
        self.public
    }

    /// The secret bytes, to store them.
    pub fn secret(&self) -> &[u8; 32] {
        &self.secret
    }
}

impl fmt::Debug for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Identity")
            .field("public", &self.public)
            .finish_non_exhaustive()
    }
}
