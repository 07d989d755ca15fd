//! The terminal user interface shared by `play`, `host` and `join`: the drawn board and
//! safe file writes.

pub(crate) mod board;
pub(crate) mod files;
