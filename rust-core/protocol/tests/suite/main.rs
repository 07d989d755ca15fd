//! Every integration test of this crate, as modules of one test binary: one link and one
//! compilation of the generic code under test instead of one per file. Run one file's tests
//! with `cargo test -p <crate> --test suite <module>::`.

mod adversarial;
mod common;
mod draw_turns;
mod fairdraw;
mod fairdraw_cheats;
mod golden;
mod hardening;
mod integrity;
mod matches;
mod offers;
mod pairing;
mod props;
mod race;
mod race_cut;
mod race_forger;
mod race_hostage;
mod race_no_seed;
mod race_preview;
mod race_spawn;
mod race_start;
mod session;
mod soak;
