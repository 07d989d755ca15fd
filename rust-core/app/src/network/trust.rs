//! [`Trust`]: the device identity and the remembered peers (documented on the type).

use crate::files::{lock_beside, read_limited, write_private};
use banco_protocol::{Identity, KnownPeers, PublicKey};
use std::path::Path;

/// Format tag and version of [`Trust::export`].
const MAGIC: &[u8; 8] = b"BNCTRST1";
/// Largest trust file read (a few thousand remembered peers).
const MAX_BYTES: u64 = 256 * 1024;

/// Why stored trust could not be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TrustError {
    /// The bytes were not made by [`Trust::export`].
    #[error("not Banco's saved identity (bad header)")]
    BadHeader,
    /// The identity file holds bytes that are not a usable identity ([`TrustError::BadHeader`]
    /// or [`TrustError::Damaged`] read from `path`).
    #[error(
        "the identity file {path} cannot be used: {problem}. Move it away and a new \
         identity is made — players who confirmed this device will compare a code again"
    )]
    BadFile {
        /// The file.
        path: String,
        /// What is wrong with it.
        problem: String,
    },
    /// The bytes are damaged.
    #[error("Banco's saved identity is damaged: {0}")]
    Damaged(String),
    /// The file could not be read or written.
    #[error("cannot use the identity file {path}: {error}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        error: String,
    },
    /// No randomness from the system for a new key.
    #[error("no randomness from the system: {0}")]
    Entropy(String),
}

/// [`Trust::import`] of the bytes read from `path`: damage names the file.
fn import_file(path: &Path, bytes: &[u8]) -> Result<Trust, TrustError> {
    Trust::import(bytes).map_err(|e| match e {
        TrustError::BadHeader | TrustError::Damaged(_) => TrustError::BadFile {
            path: path.display().to_string(),
            problem: e.to_string(),
        },
        e => e,
    })
}

/// The device identity and the peers whose code was confirmed, kept across
/// matches and restarts, so a remembered player reconnects — also days later — without a
/// new code, and a remembered name with another key is loud ([`NetEvent::PeerKeyChanged`]).
///
/// Front ends store the bytes of [`Trust::export`] (the apps in their private storage, the
/// command line in a file written atomically, [`Trust::save`]) and pass the trust to
/// [`HostOptions::trust`] / [`NetMatch::join`]; after a confirmation they store
/// [`NetMatch::trust`] again. The bytes hold the identity's secret key: keep them private.
///
/// ```
/// use banco_app::network::Trust;
///
/// let trust = Trust::generate()?;
/// let back = Trust::import(&trust.export())?;
/// assert_eq!(back.public_key(), trust.public_key());
/// assert!(back.known_peers().is_empty());
/// assert!(Trust::import(b"something else").is_err());
/// # Ok::<(), banco_app::network::TrustError>(())
/// ```
///
/// [`NetEvent::PeerKeyChanged`]: super::NetEvent::PeerKeyChanged
/// [`HostOptions::trust`]: super::HostOptions::trust
/// [`NetMatch::join`]: super::NetMatch::join
/// [`NetMatch::trust`]: super::NetMatch::trust
#[derive(Clone, Debug)]
pub struct Trust {
    identity: Identity,
    known: KnownPeers,
}

impl Trust {
    /// A new identity (from the system's randomness) that knows nobody.
    pub fn generate() -> Result<Trust, TrustError> {
        let mut secret = [0u8; 32];
        getrandom::fill(&mut secret).map_err(|e| TrustError::Entropy(e.to_string()))?;
        Ok(Trust::new(Identity::from_secret(secret), KnownPeers::new()))
    }

    /// Trust made of an identity and remembered peers.
    pub fn new(identity: Identity, known: KnownPeers) -> Trust {
        Trust { identity, known }
    }

    /// The identity.
    pub fn identity(&self) -> &Identity {
        &self.identity
    }

    /// This device's public key (what peers remember).
    pub fn public_key(&self) -> PublicKey {
        self.identity.public()
    }

    /// The peers whose code was confirmed.
    pub fn known_peers(&self) -> &KnownPeers {
        &self.known
    }

    /// Bytes to store (they hold the secret key: keep them private).
    pub fn export(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(self.identity.secret());
        out.extend_from_slice(&self.known.export());
        out
    }

    /// Trust stored by [`Trust::export`].
    pub fn import(bytes: &[u8]) -> Result<Trust, TrustError> {
        let rest = bytes
            .strip_prefix(&MAGIC[..])
            .ok_or(TrustError::BadHeader)?;
        let secret: [u8; 32] = rest
            .get(..32)
            .and_then(|s| s.try_into().ok())
            .ok_or_else(|| TrustError::Damaged("the key is cut short".to_owned()))?;
        let known =
            KnownPeers::import(&rest[32..]).map_err(|e| TrustError::Damaged(e.to_string()))?;
        Ok(Trust::new(Identity::from_secret(secret), known))
    }

    /// The trust stored at `path`, or a new identity when there is no file yet (a damaged
    /// file is an error, never silently replaced: peers would see a changed key).
    pub fn load_or_generate(path: &Path) -> Result<Trust, TrustError> {
        match read_limited(path, MAX_BYTES) {
            Ok(bytes) => import_file(path, &bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Trust::generate(),
            Err(e) => Err(io_error(path, &e)),
        }
    }

    /// Stores the trust at `path` atomically (a temporary file beside it, synced, renamed),
    /// creating the directory if needed.
    pub fn save(&self, path: &Path) -> Result<(), TrustError> {
        create_dir_of(path)?;
        // It holds the secret key: readable by its owner only.
        write_private(path, &self.export()).map_err(|e| io_error(path, &e))
    }

    /// The trust stored at `path`, or a new identity stored there at once when there is no
    /// file yet — under the file's lock ([`lock_beside`]), so that two sessions starting
    /// together get the same identity (the later one reads what the first stored).
    pub fn open(path: &Path) -> Result<Trust, TrustError> {
        create_dir_of(path)?;
        let _lock = lock_beside(path).map_err(|e| io_error(path, &e))?;
        match read_limited(path, MAX_BYTES) {
            Ok(bytes) => import_file(path, &bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let trust = Trust::generate()?;
                trust.save(path)?;
                Ok(trust)
            }
            Err(e) => Err(io_error(path, &e)),
        }
    }

    /// Stores at `path` that `peer_name` was confirmed with the key this trust knows for
    /// it, keeping what other sessions stored there meanwhile: under the file's lock the
    /// stored trust is read again, the peer added to it, and it is written back (a file
    /// not there any more gets this trust whole). A peer this trust does not know changes
    /// nothing.
    pub fn remember(&self, path: &Path, peer_name: &str) -> Result<(), TrustError> {
        let Some(key) = self.known.get(peer_name) else {
            return Ok(());
        };
        create_dir_of(path)?;
        let _lock = lock_beside(path).map_err(|e| io_error(path, &e))?;
        let mut stored = match read_limited(path, MAX_BYTES) {
            Ok(bytes) => import_file(path, &bytes)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => self.clone(),
            Err(e) => return Err(io_error(path, &e)),
        };
        stored.known.insert(peer_name, *key);
        stored.save(path)
    }

    /// Takes back what [`Trust::remember`] stored at `path` for `peer_name` (confirmed
    /// with `key`) once this trust no longer knows the peer by that key: the pairing
    /// failed after the confirmation (the host rejected the code, and the session forgot
    /// the key). Under the file's lock, a stored `key` for `peer_name` is replaced by the
    /// key this trust knows for the name (the one the confirmation replaced), or removed;
    /// anything else stored is kept.
    pub fn forget(&self, path: &Path, peer_name: &str, key: &PublicKey) -> Result<(), TrustError> {
        if self.known.get(peer_name) == Some(key) {
            return Ok(());
        }
        let _lock = lock_beside(path).map_err(|e| io_error(path, &e))?;
        let mut stored = match read_limited(path, MAX_BYTES) {
            Ok(bytes) => import_file(path, &bytes)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(io_error(path, &e)),
        };
        if stored.known.get(peer_name) != Some(key) {
            return Ok(());
        }
        match self.known.get(peer_name) {
            Some(before) => stored.known.insert(peer_name, *before),
            None => stored.known.remove(peer_name),
        };
        stored.save(path)
    }
}

/// Creates the folder of `path` if needed.
fn create_dir_of(path: &Path) -> Result<(), TrustError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| io_error(dir, &e))?;
    }
    Ok(())
}

/// Equal when the identity and the remembered peers are.
impl PartialEq for Trust {
    fn eq(&self, other: &Trust) -> bool {
        self.public_key() == other.public_key() && self.known == other.known
    }
}

fn io_error(path: &Path, e: &std::io::Error) -> TrustError {
    TrustError::Io {
        path: path.display().to_string(),
        error: e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn round_trip_with_peers_and_damaged_bytes() {
        let mut known = KnownPeers::new();
        known.insert("Lan", PublicKey([9; 32]));
        let t = Trust::new(Identity::from_secret([3; 32]), known);
        let bytes = t.export();
        let back = Trust::import(&bytes).unwrap();
        assert_eq!(back.public_key(), t.public_key());
        assert_eq!(back.known_peers(), t.known_peers());
        assert_eq!(Trust::import(b"nope"), Err(TrustError::BadHeader));
        assert!(matches!(
            Trust::import(&bytes[..20]),
            Err(TrustError::Damaged(_))
        ));
        assert!(matches!(
            Trust::import(&bytes[..bytes.len() - 1]),
            Err(TrustError::Damaged(_))
        ));
    }

    #[test]
    fn a_file_is_made_once_and_read_back() {
        let dir = std::env::temp_dir().join(format!("banco-trust-{}", std::process::id()));
        let path = dir.join("sub/identity");
        let _ = std::fs::remove_dir_all(&dir);
        let first = Trust::load_or_generate(&path).unwrap();
        first.save(&path).unwrap();
        let again = Trust::load_or_generate(&path).unwrap();
        assert_eq!(again.public_key(), first.public_key());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "the secret key is its owner's alone");
        }
        std::fs::write(&path, b"garbage").unwrap();
        let e = Trust::load_or_generate(&path).unwrap_err();
        assert!(matches!(&e, TrustError::BadFile { path: p, .. } if p.ends_with("identity")));
        let said = e.to_string();
        assert!(said.contains(&path.display().to_string()), "{said}");
        assert!(
            said.contains("bad header") && said.contains("compare a code again"),
            "{said}"
        );
        std::fs::write(&path, &first.export()[..30]).unwrap();
        let said = Trust::open(&path).unwrap_err().to_string();
        assert!(
            said.contains("cut short") && said.contains("identity file"),
            "{said}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Two sessions open the same file (one identity for both), each confirms another
    /// player and remembers it: the file keeps both players.
    #[test]
    fn two_sessions_remember_both_players() {
        let dir = std::env::temp_dir().join(format!("banco-trust-two-{}", std::process::id()));
        let path = dir.join("sub/identity");
        let _ = std::fs::remove_dir_all(&dir);
        let mut a = Trust::open(&path).unwrap();
        let mut b = Trust::open(&path).unwrap();
        assert_eq!(a.public_key(), b.public_key(), "one identity");
        a.known.insert("Ann", PublicKey([1; 32]));
        b.known.insert("Bob", PublicKey([2; 32]));
        a.remember(&path, "Ann").unwrap();
        b.remember(&path, "Bob").unwrap();
        let stored = Trust::load_or_generate(&path).unwrap();
        assert_eq!(stored.public_key(), a.public_key());
        assert_eq!(stored.known_peers().get("Ann"), Some(&PublicKey([1; 32])));
        assert_eq!(stored.known_peers().get("Bob"), Some(&PublicKey([2; 32])));
        // A damaged file is not written over.
        std::fs::write(&path, b"garbage").unwrap();
        assert!(matches!(
            a.remember(&path, "Ann"),
            Err(TrustError::BadFile { .. })
        ));
        assert_eq!(std::fs::read(&path).unwrap(), b"garbage");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A confirmation stored Bob's new key; the host then rejected the code and the
    /// session forgot it (Bob's old key back): the file follows, and keeps Ann.
    #[test]
    fn a_confirmation_taken_back_is_forgotten_in_the_file() {
        let dir = std::env::temp_dir().join(format!("banco-trust-forget-{}", std::process::id()));
        let path = dir.join("identity");
        let _ = std::fs::remove_dir_all(&dir);
        let mut t = Trust::open(&path).unwrap();
        t.known.insert("Ann", PublicKey([1; 32]));
        t.known.insert("Bob", PublicKey([2; 32]));
        t.remember(&path, "Ann").unwrap();
        t.remember(&path, "Bob").unwrap();
        t.known.insert("Bob", PublicKey([3; 32]));
        t.remember(&path, "Bob").unwrap();
        // Still known by that key: nothing to take back.
        t.forget(&path, "Bob", &PublicKey([3; 32])).unwrap();
        let stored = || Trust::load_or_generate(&path).unwrap();
        assert_eq!(stored().known_peers().get("Bob"), Some(&PublicKey([3; 32])));
        t.known.insert("Bob", PublicKey([2; 32]));
        t.forget(&path, "Bob", &PublicKey([3; 32])).unwrap();
        assert_eq!(stored().known_peers().get("Bob"), Some(&PublicKey([2; 32])));
        t.known.remove("Ann");
        t.forget(&path, "Ann", &PublicKey([1; 32])).unwrap();
        assert_eq!(stored().known_peers().get("Ann"), None);
        assert_eq!(stored().known_peers().len(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
