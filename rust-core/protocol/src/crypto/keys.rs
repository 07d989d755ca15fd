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

    /// True when `advertised` is this key's fingerprint as discovery carries it (mDNS TXT
    /// record, Bluetooth info: the 16 hex digits of [`PublicKey::fingerprint`], in any case,
    /// with or without separators). A shorter or longer run of digits never matches: an
    /// advertised fingerprint binds a listing to a key only when it is whole.
    ///
    /// ```
    /// use banco_protocol::Identity;
    /// let key = Identity::from_secret([7; 32]).public();
    /// let fp = key.fingerprint();
    /// assert!(key.matches_fingerprint(&fp));
    /// assert!(key.matches_fingerprint(&fp.replace('-', "").to_uppercase()));
    /// assert!(!key.matches_fingerprint(&fp[..9]));
    /// assert!(!key.matches_fingerprint(""));
    /// ```
    pub fn matches_fingerprint(&self, advertised: &str) -> bool {
        fingerprint_digits(advertised) == fingerprint_digits(&self.fingerprint())
    }
}

/// The hex digits of a fingerprint as written anywhere, lower-case.
fn fingerprint_digits(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_hexdigit)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// An advertised fingerprint written as [`PublicKey::fingerprint`] writes one (lower-case
/// hex digits in groups of 4), to show next to a key's.
pub(crate) fn grouped_fingerprint(advertised: &str) -> String {
    let digits: Vec<char> = fingerprint_digits(advertised).chars().collect();
    let groups: Vec<String> = digits.chunks(4).map(|c| c.iter().collect()).collect();
    groups.join("-")
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
