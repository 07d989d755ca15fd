//! The engine's error type.
//!
//! ```
//! use banco_engine::{EngineError, Level};
//! let err = Level::new(11).unwrap_err();
//! assert_eq!(err, EngineError::BadLevel(11));
//! assert_eq!(err.to_string(), "level 11 is out of range: levels go from 1 to 10");
//! ```

/// What can go wrong when driving the engine from outside.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// A level outside 1–10.
    #[error("level {0} is out of range: levels go from 1 to 10")]
    BadLevel(u8),
    /// A position that could not be read.
    #[error("bad position: {0}")]
    BadPosition(String),
    /// A move that could not be read or is illegal.
    #[error("bad move: {0}")]
    BadMove(String),
    /// A player specification for `banco match` that could not be read.
    #[error("bad player spec `{spec}`: {reason}")]
    BadSpec {
        /// The spec as given.
        spec: String,
        /// What is wrong.
        reason: String,
    },
    /// Reading or writing failed.
    #[error("i/o error: {0}")]
    Io(String),
}

impl From<std::io::Error> for EngineError {
    fn from(e: std::io::Error) -> Self {
        EngineError::Io(e.to_string())
    }
}
