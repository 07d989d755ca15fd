//! Every integration test of this crate, as modules of one test binary: one link and one
//! compilation of the generic code under test instead of one per file. Run one file's tests
//! with `cargo test -p <crate> --test suite <module>::`.

mod common;
mod decoder_props;
mod jieqi;
mod lines_best;
mod lines_spawn;
mod net_race;
mod network;
mod network_cut;
mod network_jieqi;
mod network_listing;
mod save_checksum;
mod save_props;
