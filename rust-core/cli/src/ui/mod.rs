//! The terminal user interface shared by `play`, `host` and `join`: the drawn board (saves are
//! written by banco-app's `files`).

pub(crate) mod board;
