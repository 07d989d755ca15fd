//! A seed both sides make together, so that neither chose it alone (the Lines race: both
//! boards start from it and see the same spawns). Commit, then reveal:
//!
//! 1. Each side takes 32 random bytes `v` and sends the commitment
//!    `c = H("banco-seed-commit" ‖ session ‖ owner ‖ v)` in its per-game parameters (the
//!    proposer in `Propose.params`, the other side in `Accept.params`;
//!    [`SeedShare::commitment`], a scheme byte and the 32-byte hash).
//! 2. Once it holds the peer's commitment — never before — each side sends `v`
//!    ([`SeedShare::value`]; how is the race session's business).
//! 3. Each side checks the peer's value against its commitment and derives
//!    `seed = H("banco-seed" ‖ v_red ‖ v_black ‖ session)` ([`SeedShare::combine`]).
//!
//! `H` is BLAKE2s-256. The commitment is binding (a different value with the same
//! commitment needs a BLAKE2s collision, about 2¹²⁸ work): a peer that changes its value
//! after committing is caught ([`SeedError::Mismatch`]). It is hiding (the value is 256
//! random bits, recovering it from the hash is a preimage search): the side that commits
//! second learns nothing of the first value, and the side that reveals second can no longer
//! change its own. So the seed is uniform as long as one side is honest. The session id
//! and the owner's colour in the commitment stop a peer from mirroring our commitment back
//! (its colour differs) or reusing one from another match.
//!
//! ```
//! use banco_game::Color;
//! use banco_protocol::seed::{SeedError, SeedShare};
//!
//! let session = [4; 8];
//! let red = SeedShare::new([1; 32], session, Color::Red);
//! let black = SeedShare::new([2; 32], session, Color::Black);
//! // Commitments travel in Propose/Accept params, values afterwards.
//! let (red_c, black_c) = (red.commitment(), black.commitment());
//! let seed = red.combine(&black_c, black.value())?;
//! assert_eq!(seed, black.combine(&red_c, red.value())?);
//! // A peer that changes its value after committing is caught.
//! assert_eq!(red.combine(&black_c, [3; 32]), Err(SeedError::Mismatch));
//! # Ok::<(), SeedError>(())
//! ```

use banco_game::Color;
use blake2::{Blake2s256, Digest};

/// The scheme byte that opens a seed commitment.
pub const SEED_SCHEME: u8 = 1;

/// Bytes of a seed commitment in the per-game parameters (scheme byte and hash).
pub const SEED_COMMITMENT_LEN: usize = 33;

/// Why the shared seed cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeedError {
    /// The peer's parameters do not start with a seed commitment of a known scheme.
    #[error("the other player's app sent no valid seed commitment")]
    BadCommitment,
    /// The value the peer revealed is not the one it committed to.
    #[error(
        "the other player changed its part of the seed after committing (cheating or a broken app)"
    )]
    Mismatch,
}

/// One side's part of the shared seed: its secret value, the session and its colour.
#[derive(Clone, PartialEq, Eq)]
pub struct SeedShare {
    value: [u8; 32],
    session: [u8; 8],
    owner: Color,
}

impl core::fmt::Debug for SeedShare {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SeedShare")
            .field("owner", &self.owner)
            .finish_non_exhaustive()
    }
}

fn commit_hash(value: &[u8; 32], session: &[u8; 8], owner: Color) -> [u8; 32] {
    let mut h = Blake2s256::new();
    h.update(b"banco-seed-commit");
    h.update(session);
    h.update([owner.index() as u8]);
    h.update(value);
    h.finalize().into()
}

impl SeedShare {
    /// The part of `owner` (the colour it plays) in `session`, from 32 fresh random bytes.
    pub fn new(value: [u8; 32], session: [u8; 8], owner: Color) -> Self {
        SeedShare {
            value,
            session,
            owner,
        }
    }

    /// The commitment to put first in our per-game parameters.
    pub fn commitment(&self) -> [u8; SEED_COMMITMENT_LEN] {
        let mut out = [0u8; SEED_COMMITMENT_LEN];
        out[0] = SEED_SCHEME;
        out[1..].copy_from_slice(&commit_hash(&self.value, &self.session, self.owner));
        out
    }

    /// Our value, to send once the peer's commitment is in.
    pub fn value(&self) -> [u8; 32] {
        self.value
    }

    /// The shared seed from the peer's parameters (starting with its commitment) and the
    /// value it revealed; fails if the value is not the one committed to.
    pub fn combine(&self, peer_params: &[u8], peer_value: [u8; 32]) -> Result<[u8; 32], SeedError> {
        let (committed, _) = parse_seed_commitment(peer_params)?;
        let peer = self.owner.other();
        if commit_hash(&peer_value, &self.session, peer) != committed {
            return Err(SeedError::Mismatch);
        }
        let (red, black) = match self.owner {
            Color::Red => (self.value, peer_value),
            Color::Black => (peer_value, self.value),
        };
        let mut h = Blake2s256::new();
        h.update(b"banco-seed");
        h.update(red);
        h.update(black);
        h.update(self.session);
        Ok(h.finalize().into())
    }
}

/// Splits per-game parameters into the seed commitment and the parameters after it.
pub fn parse_seed_commitment(params: &[u8]) -> Result<([u8; 32], &[u8]), SeedError> {
    match params.split_first() {
        Some((&SEED_SCHEME, rest)) if rest.len() >= 32 => {
            let (hash, app) = rest.split_at(32);
            let mut c = [0u8; 32];
            c.copy_from_slice(hash);
            Ok((c, app))
        }
        _ => Err(SeedError::BadCommitment),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(a: u8, b: u8, session: [u8; 8]) -> (SeedShare, SeedShare) {
        (
            SeedShare::new([a; 32], session, Color::Red),
            SeedShare::new([b; 32], session, Color::Black),
        )
    }

    #[test]
    fn both_sides_derive_the_same_seed_and_it_depends_on_both_values() {
        let (r, b) = pair(1, 2, [0; 8]);
        let seed = r.combine(&b.commitment(), b.value()).unwrap_or_default();
        assert_eq!(Ok(seed), b.combine(&r.commitment(), r.value()));
        let (r2, b2) = pair(1, 3, [0; 8]);
        assert_ne!(Ok(seed), r2.combine(&b2.commitment(), b2.value()));
        let (r3, b3) = pair(5, 2, [0; 8]);
        assert_ne!(Ok(seed), b3.combine(&r3.commitment(), r3.value()));
        let (r4, b4) = pair(1, 2, [1; 8]);
        assert_ne!(Ok(seed), r4.combine(&b4.commitment(), b4.value()));
    }

    #[test]
    fn a_changed_value_or_a_mirrored_commitment_is_caught() {
        let (r, b) = pair(1, 2, [0; 8]);
        let mut changed = b.value();
        changed[31] ^= 0x80;
        assert_eq!(
            r.combine(&b.commitment(), changed),
            Err(SeedError::Mismatch)
        );
        // Black copies red's commitment and value: its colour is not red's.
        assert_eq!(
            r.combine(&r.commitment(), r.value()),
            Err(SeedError::Mismatch)
        );
        // A commitment from another session does not count here.
        let other = SeedShare::new([2; 32], [9; 8], Color::Black);
        assert_eq!(
            r.combine(&other.commitment(), other.value()),
            Err(SeedError::Mismatch)
        );
    }

    #[test]
    fn commitments_parse_with_the_parameters_after_them() {
        let (r, _) = pair(1, 2, [0; 8]);
        let mut params = r.commitment().to_vec();
        params.extend_from_slice(b"lines");
        let (c, rest) = parse_seed_commitment(&params).unwrap_or_default();
        assert_eq!(&c[..], &r.commitment()[1..]);
        assert_eq!(rest, b"lines");
        assert_eq!(parse_seed_commitment(&[]), Err(SeedError::BadCommitment));
        assert_eq!(
            parse_seed_commitment(&params[..32]),
            Err(SeedError::BadCommitment)
        );
        params[0] = 7;
        assert_eq!(
            parse_seed_commitment(&params),
            Err(SeedError::BadCommitment)
        );
        assert_eq!(r.combine(&params, [1; 32]), Err(SeedError::BadCommitment));
    }

    #[test]
    fn the_commitment_hides_the_value() {
        // Two values differing in one bit give unrelated commitments (no visible structure).
        let a = SeedShare::new([0; 32], [0; 8], Color::Red).commitment();
        let mut v = [0; 32];
        v[0] = 1;
        let b = SeedShare::new(v, [0; 8], Color::Red).commitment();
        let same = a.iter().zip(&b).skip(1).filter(|(x, y)| x == y).count();
        assert!(same < 8, "{same} equal bytes");
        assert!(!a.windows(32).any(|w| w == [0; 32]));
    }
}
