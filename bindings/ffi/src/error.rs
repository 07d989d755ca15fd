//! [`BancoError`], the one error of the bindings, and [`guard`], which runs every entry
//! point so that a Rust panic comes out as a `BancoError` instead of crossing the boundary.
//!
//! The error is *flat* on the foreign side: Kotlin gets `BancoException.IllegalMove` and
//! friends whose `message` is the readable text below; Swift gets
//! `BancoError.illegalMove(message:)`.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// What went wrong, in words a player can read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, uniffi::Error)]
#[uniffi(flat_error)]
pub enum BancoError {
    /// The text is not a move in the notation asked for.
    #[error("{0}")]
    BadMoveText(String),
    /// The move is well formed but not legal in the position.
    #[error("{0}")]
    IllegalMove(String),
    /// The game is over: no more moves.
    #[error("the game is over ({0})")]
    GameOver(String),
    /// A FEN that cannot be read or whose position is not legal; every problem is listed.
    #[error("{0}")]
    InvalidPosition(String),
    /// A square outside the board (files a–i are 0–8, ranks 0–9).
    #[error("there is no square at file {file}, rank {rank}: files go 0-8 (a-i) and ranks 0-9")]
    BadSquare {
        /// The file given.
        file: u8,
        /// The rank given.
        rank: u8,
    },
    /// Saved-game bytes that cannot be loaded.
    #[error("this saved game cannot be loaded: {0}")]
    BadSave(String),
    /// A game or feature this build does not have yet.
    #[error("{0} is not available in this version of Banco")]
    Unsupported(String),
    /// A value out of its range (a level, a time, a code).
    #[error("{0}")]
    InvalidArgument(String),
    /// Nothing to do: e.g. no engine search is running, no move to undo.
    #[error("{0}")]
    NotAvailable(String),
    /// A network problem (connection refused, peer gone, discovery failed).
    #[error("network problem: {0}")]
    Network(String),
    /// The networked match refused the action (not your turn, waiting for the peer, …).
    #[error("{0}")]
    Match(String),
    /// A bug inside Banco (a Rust panic caught at the boundary). Please report it.
    #[error("internal error in Banco (please report it): {0}")]
    Internal(String),
}

/// Runs `f`, turning a panic into [`BancoError::Internal`]. Every exported function and
/// method goes through here.
pub(crate) fn guard<T>(f: impl FnOnce() -> Result<T, BancoError>) -> Result<T, BancoError> {
    catch_unwind(AssertUnwindSafe(f))
        .unwrap_or_else(|payload| Err(BancoError::Internal(panic_message(payload.as_ref()))))
}

/// Runs a call into foreign code (a listener) so that neither a Rust panic nor anything
/// the callback does can take down the Rust thread that made it.
pub(crate) fn notify(f: impl FnOnce()) {
    let _ignored = catch_unwind(AssertUnwindSafe(f));
}

/// The text of a panic payload.
pub(crate) fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_owned()
    }
}

impl From<banco_xiangqi::PlayError> for BancoError {
    fn from(e: banco_xiangqi::PlayError) -> Self {
        match e {
            banco_xiangqi::PlayError::Illegal(_) => BancoError::IllegalMove(e.to_string()),
            banco_xiangqi::PlayError::GameOver(o) => BancoError::GameOver(o.to_string()),
        }
    }
}

impl From<banco_xiangqi::IllegalMove> for BancoError {
    fn from(e: banco_xiangqi::IllegalMove) -> Self {
        BancoError::IllegalMove(e.to_string())
    }
}

impl From<banco_xiangqi::fen::FenError> for BancoError {
    fn from(e: banco_xiangqi::fen::FenError) -> Self {
        BancoError::InvalidPosition(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_internal_error() {
        let r: Result<u8, BancoError> = guard(|| panic!("boom"));
        assert_eq!(r, Err(BancoError::Internal("boom".to_owned())));
        let r: Result<u8, BancoError> = guard(|| {
            let v: Vec<u8> = Vec::new();
            Ok(v[3])
        });
        match r {
            Err(BancoError::Internal(m)) => assert!(m.contains("index out of bounds"), "{m}"),
            other => panic!("expected an internal error, got {other:?}"),
        }
        notify(|| panic!("a listener bug stays on its side"));
    }

    #[test]
    fn messages_read_well() {
        let e = BancoError::BadSquare { file: 9, rank: 0 };
        assert_eq!(
            e.to_string(),
            "there is no square at file 9, rank 0: files go 0-8 (a-i) and ranks 0-9"
        );
    }
}
