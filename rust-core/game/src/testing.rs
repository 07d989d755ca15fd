//! What every crate's property tests share (feature `testing`, for dev-dependencies):
//! [`proptest_config`] fixes each property's seed, so a test run checks the same cases
//! every time, while `PROPTEST_RNG_SEED` still chooses others and `BANCO_PROPTEST_CASES`
//! more cases for the properties that name no count of their own, as `tests/nightly.sh`
//! does. (Proptest applies its own `PROPTEST_CASES` over every property's configuration,
//! also over a count named here: a costly property would then run that many cases too.)
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

/// The configuration of a property: `cases` cases (`None`: `BANCO_PROPTEST_CASES` if it
/// is set to a number, else proptest's default), from the fixed `seed` unless
/// `PROPTEST_RNG_SEED` names another.
#[must_use]
pub fn proptest_config(cases: Option<u32>, seed: u64) -> Config {
    // `Config::default` has read the environment's `PROPTEST_*` variables.
    let mut config = Config::default();
    let scaled = std::env::var("BANCO_PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok());
    if let Some(cases) = cases.or(scaled) {
        config.cases = cases;
    }
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        config.rng_seed = RngSeed::Fixed(seed);
    }
    config
}
