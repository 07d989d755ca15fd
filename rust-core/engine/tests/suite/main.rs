//! Every integration test of this crate, as modules of one test binary: one link and one
//! compilation of the generic code under test instead of one per file. Run one file's tests
//! with `cargo test -p <crate> --test suite <module>::`.

mod bench;
mod chance;
mod game_data;
mod jieqi;
mod opponent;
mod perpetual;
mod protocols;
mod protocols_edges;
mod protocols_gui;
mod puzzles;
mod search;
mod threads;
mod verdict;
