//! Seeded spawns: ball number `n` of a game (counting from the first ball of the start
//! position) takes its colour and its landing draw from ChaCha8 stream `n` of the game's
//! 32-byte seed. The whole random state is therefore the seed and a counter (the announced
//! balls' spots follow from them and the board), saved with the game: undo puts the
//! counter back (the same balls come again, on the same cells: undo cannot fish for
//! better ones), a saved game continues with the same balls, and two boards on one seed
//! see the same colours in the same order whatever their players do (the race).
//!
//! A landing draw `r` (a `u64`) picks the `⌊r · e / 2⁶⁴⌋`-th of the `e` empty cells, in
//! index order (`a1` first). In every new game
//! ([`SpawnRule::AtAnnouncement`](crate::SpawnRule)) the landing draw picks the ball's
//! spot among the free cells when the ball is announced (kept in the game's state, shown
//! only with Lines 98's preview), and a third draw ([`Spawner::relanding`]) its cell if
//! the player's move takes that spot: the cells do not depend on the move, so undo cannot
//! fish for them either (it can only peek: see [`crate::game`]). In games saved before
//! that rule ([`SpawnRule::AtLanding`](crate::SpawnRule)) the landing draw picks among the
//! free cells when the ball lands, after the move — the `k`-th free cell of a board the
//! move changed, so each move gave other cells.
//!
//! ```
//! use banco_lines::spawn::Spawner;
//! let a = Spawner::new([7; 32]);
//! let b = Spawner::new([7; 32]);
//! assert_eq!(a.color(12), b.color(12));
//! assert_eq!(a.landing(12, 40), b.landing(12, 40));
//! assert!(a.landing(12, 40) < 40);
//! ```

use crate::board::Ball;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use serde::{Deserialize, Serialize};

/// The random source of one game: a seed; ball `n` reads stream `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Spawner {
    seed: [u8; 32],
}

impl Spawner {
    /// The spawner of `seed`.
    #[must_use]
    pub const fn new(seed: [u8; 32]) -> Spawner {
        Spawner { seed }
    }

    /// A 32-byte seed from a `u64` (little-endian, zero-padded), for tests and benches.
    #[must_use]
    pub fn seed_from_u64(seed: u64) -> [u8; 32] {
        let mut s = [0u8; 32];
        s[..8].copy_from_slice(&seed.to_le_bytes());
        s
    }

    /// The seed.
    #[must_use]
    pub const fn seed(&self) -> [u8; 32] {
        self.seed
    }

    fn stream(&self, n: u64) -> ChaCha8Rng {
        let mut rng = ChaCha8Rng::from_seed(self.seed);
        rng.set_stream(n);
        rng
    }

    /// The colour of ball `n`.
    #[must_use]
    pub fn color(&self, n: u64) -> Ball {
        let r = self.stream(n).next_u64();
        let i = ((r as u128 * Ball::COUNT as u128) >> 64) as usize;
        Ball::from_index(i).unwrap_or(Ball::Red)
    }

    /// Which of `empties` empty cells ball `n` lands on (0-based; 0 if there is none).
    #[must_use]
    pub fn landing(&self, n: u64, empties: usize) -> usize {
        let mut rng = self.stream(n);
        let _colour = rng.next_u64();
        let r = rng.next_u64();
        ((r as u128 * empties as u128) >> 64) as usize
    }

    /// When the spots are drawn at announcement: which of `empties` free cells ball `n`
    /// lands on when its spot was taken (the third draw of its stream; 0-based, 0 if there
    /// is none).
    #[must_use]
    pub fn relanding(&self, n: u64, empties: usize) -> usize {
        let mut rng = self.stream(n);
        let _colour = rng.next_u64();
        let _spot = rng.next_u64();
        let r = rng.next_u64();
        ((r as u128 * empties as u128) >> 64) as usize
    }
}
