//! Pairing and encryption: the Noise `XX_25519_ChaChaPoly_BLAKE2s` handshake and the AEAD
//! transport that protects every frame after it.
//!
//! Randomness never comes from the operating system inside this crate: ephemeral keys are
//! drawn from a seed the caller provides ([`Handshake::initiator`] / [`Handshake::responder`]),
//! and static keys come from caller-provided bytes ([`Identity::from_secret`]).
//!
//! ```
//! use banco_protocol::crypto::{Handshake, Identity};
//!
//! let (an, binh) = (Identity::from_secret([1; 32]), Identity::from_secret([2; 32]));
//! let mut i = Handshake::initiator(&an, [3; 32])?;
//! let mut r = Handshake::responder(&binh, [4; 32])?;
//! // XX: three messages, the last two carrying payloads under encryption.
//! r.read_message(&i.write_message(&[])?)?;
//! assert_eq!(i.read_message(&r.write_message(b"hello from Binh")?)?, b"hello from Binh");
//! assert_eq!(r.read_message(&i.write_message(b"hello from An")?)?, b"hello from An");
//! let (mut a, mut b) = (i.finish()?, r.finish()?);
//! // Each side learnt the other's static key; the handshake hashes agree (no one between).
//! assert_eq!(a.remote_static, binh.public());
//! assert_eq!(a.handshake_hash, b.handshake_hash);
//! let frame = a.transport.seal(b"h2e2")?;
//! assert_eq!(b.transport.open(&frame)?, b"h2e2");
//! // A replayed frame is refused.
//! assert!(b.transport.open(&frame).is_err());
//! # Ok::<(), banco_protocol::crypto::CryptoError>(())
//! ```

pub(crate) mod keys;
mod noise;

pub use keys::{Identity, PublicKey};
pub use noise::{CryptoError, Handshake, HandshakeDone, NOISE_PARAMS, TAG_LEN, Transport};
