//! The short authentication string (SAS): six digits both players compare.
//!
//! The Noise XX handshake authenticates keys, not people: a man in the middle can run one
//! handshake with each phone. The two handshakes then have different handshake hashes, and
//! the six digits derived from them differ. To stop a middle man from grinding ephemeral
//! keys until the two codes collide, the code also mixes two nonces in a commit-then-reveal
//! order (as Bluetooth numeric comparison does):
//!
//! 1. handshake message 2: the responder sends `commit = BLAKE2s("banco-sas-commit" ‖ Nr)`;
//! 2. handshake message 3: the initiator sends its nonce `Ni`;
//! 3. first encrypted message (`Resume`): the responder reveals `Nr`, the initiator checks it
//!    against the commitment.
//!
//! `code = BLAKE2s("banco-sas-v1" ‖ h ‖ Ni ‖ Nr)` read as a little-endian `u64`, modulo 10⁶.
//! Each side fixes its nonce before it sees the other's, so a middle man matches the two
//! codes with probability 10⁻⁶ per attempt, and every attempt is visible to a player.
//!
//! ```
//! use banco_protocol::sas::{commit, derive, Sas};
//! let code = derive(&[1; 32], &[2; 32], &[3; 32]);
//! assert_eq!(code.to_string().len(), 6);
//! assert_ne!(commit(&[3; 32]), [3; 32]);
//! # let _: Sas = code;
//! ```

use blake2::{Blake2s256, Digest};
use core::fmt;

/// A six-digit short authentication string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sas(u32);

impl Sas {
    /// The code as a number below 1 000 000.
    pub fn value(self) -> u32 {
        self.0
    }
}

/// A code that is not six digits (the text given, cut to its first 64 characters).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a six-digit code")]
pub struct BadCode(pub String);

impl BadCode {
    /// The error for `text`, echoed cut to 64 characters (a message never grows with
    /// what was pasted).
    fn of(text: &str) -> BadCode {
        BadCode(text.chars().take(64).collect())
    }
}

impl core::str::FromStr for Sas {
    type Err = BadCode;

    /// Six ASCII digits, as [`Sas`] displays them (spaces around are ignored).
    fn from_str(s: &str) -> Result<Sas, BadCode> {
        let t = s.trim();
        if t.len() != 6 || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(BadCode::of(s));
        }
        t.parse().map(Sas).map_err(|_| BadCode::of(s))
    }
}

impl fmt::Display for Sas {
    /// Six digits with leading zeros, e.g. `042917`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:06}", self.0)
    }
}

/// The responder's commitment to its nonce.
pub fn commit(nonce: &[u8; 32]) -> [u8; 32] {
    let mut h = Blake2s256::new();
    h.update(b"banco-sas-commit");
    h.update(nonce);
    h.finalize().into()
}

/// The code from the handshake hash and both nonces.
pub fn derive(
    handshake_hash: &[u8],
    initiator_nonce: &[u8; 32],
    responder_nonce: &[u8; 32],
) -> Sas {
    let mut h = Blake2s256::new();
    h.update(b"banco-sas-v1");
    h.update(handshake_hash);
    h.update(initiator_nonce);
    h.update(responder_nonce);
    let digest: [u8; 32] = h.finalize().into();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    Sas((u64::from_le_bytes(first) % 1_000_000) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leading_zeros() {
        assert_eq!(Sas(42).to_string(), "000042");
        assert_eq!("000042".parse(), Ok(Sas(42)));
        assert_eq!(" 123456 ".parse(), Ok(Sas(123_456)));
        for bad in ["42", "1234567", "12345a", "+12345", ""] {
            assert!(bad.parse::<Sas>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_long_paste_is_echoed_cut() {
        let long = "1".repeat(1_000_000);
        let err = long.parse::<Sas>().unwrap_err();
        assert_eq!(err.0, "1".repeat(64));
        assert!(err.to_string().len() < 100, "{}", err.to_string().len());
        assert_eq!(
            "12a".parse::<Sas>().unwrap_err().to_string(),
            "`12a` is not a six-digit code"
        );
    }

    #[test]
    fn every_input_matters() {
        let base = derive(&[1; 32], &[2; 32], &[3; 32]);
        assert_eq!(base, derive(&[1; 32], &[2; 32], &[3; 32]));
        assert_ne!(base, derive(&[9; 32], &[2; 32], &[3; 32]));
        assert_ne!(base, derive(&[1; 32], &[9; 32], &[3; 32]));
        assert_ne!(base, derive(&[1; 32], &[2; 32], &[9; 32]));
    }
}
