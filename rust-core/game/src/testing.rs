//! What every crate's property tests share (feature `testing`, for dev-dependencies):
//! [`proptest_config`] fixes each property's seed, so a test run checks the same cases
//! every time, while `PROPTEST_RNG_SEED` (and `PROPTEST_CASES` for properties that take
//! proptest's default count) still choose others, as `tests/nightly.sh` does.
//!
//! ```
//! use banco_game::testing::proptest_config;
//! use proptest::test_runner::RngSeed;
//!
//! let config = proptest_config(Some(64), 0xBA1C0);
//! assert_eq!(config.cases, 64);
//! if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
//!     assert_eq!(config.rng_seed, RngSeed::Fixed(0xBA1C0));
//! }
//! ```

use proptest::test_runner::{Config, RngSeed};

/// The configuration of a property: `cases` cases (`None`: proptest's default, which
/// `PROPTEST_CASES` sets), from the fixed `seed` unless `PROPTEST_RNG_SEED` names another.
#[must_use]
pub fn proptest_config(cases: Option<u32>, seed: u64) -> Config {
    // `Config::default` has read the environment's `PROPTEST_*` variables.
    let mut config = Config::default();
    if let Some(cases) = cases {
        config.cases = cases;
    }
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        config.rng_seed = RngSeed::Fixed(seed);
    }
    config
}
