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

/// Why a weight option of a tuning match (`banco match --a level=10,pst=50`) cannot be
/// applied ([`EngineGame::tune`](crate::EngineGame::tune)).
///
/// ```
/// use banco_engine::{EngineGame, TuneError, XiangqiParams};
/// use banco_xiangqi::Xiangqi;
/// let mut p = XiangqiParams::default();
/// assert_eq!(
///     Xiangqi::tune(&mut p, "pst", "half"),
///     Err(TuneError::NotANumber { key: "pst".into(), value: "half".into() })
/// );
/// assert_eq!(
///     Xiangqi::tune(&mut p, "eval", "best").unwrap_err().to_string(),
///     "option `eval` has no value `best`"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TuneError {
    /// The game has no option of that name.
    #[error("unknown option `{0}`")]
    UnknownOption(String),
    /// The option takes a whole number (most: a percentage of the default weight).
    #[error("option `{key}` takes a whole number, not `{value}`")]
    NotANumber {
        /// The option.
        key: String,
        /// The value given.
        value: String,
    },
    /// The option takes one of a few words (`eval=default`), and this is none of them.
    #[error("option `{key}` has no value `{value}`")]
    UnknownValue {
        /// The option.
        key: String,
        /// The value given.
        value: String,
    },
}

impl TuneError {
    /// The value `value` that option `key` does not have.
    pub(crate) fn unknown_value(key: &str, value: &str) -> TuneError {
        TuneError::UnknownValue {
            key: key.to_owned(),
            value: value.to_owned(),
        }
    }

    /// `value` as the whole number option `key` takes.
    pub(crate) fn number(key: &str, value: &str) -> Result<i32, TuneError> {
        value.trim().parse().map_err(|_| TuneError::NotANumber {
            key: key.to_owned(),
            value: value.to_owned(),
        })
    }
}
