//! Every integration test of this crate, as modules of one test binary: one link and one
//! compilation of the generic code under test instead of one per file. Run one file's tests
//! with `cargo test -p <crate> --test suite <module>::`.

mod chess_rules;
mod commands;
mod common;
mod documents;
mod editor;
mod jieqi;
mod keep;
mod lan;
mod lines;
mod lines_best;
mod lines_preview;
mod match_table;
mod puzzles;
mod race;
mod race_end;
mod readme_pictures;
mod records;
mod saves;
