//! Every integration test of this crate, as modules of one test binary: one link and one
//! compilation of the generic code under test instead of one per file. Run one file's tests
//! with `cargo test -p <crate> --test suite <module>::`.

mod ble_devices;
mod ble_game;
mod ble_hub;
mod common;
mod driver_behaviour;
mod driver_game;
mod driver_threads;
mod hostile_peers;
