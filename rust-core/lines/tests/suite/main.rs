//! Every integration test of this crate, as modules of one test binary: one link and one
//! compilation of the generic code under test instead of one per file. Run one file's tests
//! with `cargo test -p <crate> --test suite <module>::`.

mod ai;
mod edges;
mod preview;
mod rules;
mod spawn_rule;
mod strength;
