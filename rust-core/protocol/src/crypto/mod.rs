//! Pairing and encryption: the Noise `XX_25519_ChaChaPoly_BLAKE2s` handshake and the AEAD
//! transport that protects every frame after it.
//!
//! Randomness never comes from the operating system inside this crate: ephemeral keys are
//! drawn from a seed the caller provides ([`Handshake::initiator`] / [`Handshake::responder`]),
//! and static keys come from caller-provided bytes ([`Identity::from_secret`]).

mod keys;
mod noise;

pub use keys::{Identity, PublicKey};
pub use noise::{CryptoError, Handshake, HandshakeDone, NOISE_PARAMS, TAG_LEN, Transport};
