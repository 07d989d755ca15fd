//! [`BancoError`], the error of most calls of the bindings, and `guard`, which runs every
//! entry point so that a Rust panic comes out as a `BancoError` instead of crossing the
//! boundary. Three errors beside it each belong to one kind of call, so that a shell acts on
//! their cases without string matching: [`LinesError`](crate::LinesError) (a Lines game),
//! [`PgnImportError`](crate::PgnImportError) ([`Game::from_pgn`](crate::Game::from_pgn)),
//! and [`BleError`](crate::BleError), which no Banco call throws: the shell's
//! [`BlePeripheral`](crate::BlePeripheral) and [`BleCentral`](crate::BleCentral)
//! implementations throw it to Rust.
//!
//! ```
//! use banco_ffi::{BancoError, Game, GameKind};
//! let game = Game::new(GameKind::Xiangqi)?;
//! let err = game.play_text("zz9".into(), None).unwrap_err();
//! assert!(matches!(err, BancoError::BadMoveText(_)));
//! assert!(err.to_string().contains("coordinates (h2e2)"), "{err}");
//! // Nothing was played: the game is as it was.
//! assert_eq!(game.status()?.ply, 0);
//! # Ok::<(), BancoError>(())
//! ```
//!
//! The error is *flat* on the foreign side: Kotlin gets `BancoException.IllegalMove` and
//! friends whose `message` is the readable text below; Swift gets
//! `BancoError.IllegalMove(message:)` (the cases keep these names), whose readable text is
//! `e.message` or `bancoMessage(e)` from `BancoMessages.swift`, shipped with the generated
//! Swift (uniffi's `localizedDescription` is a reflection dump).

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
    /// A square index outside the board.
    #[error("there is no square {index} on a {width}x{height} board: squares go 0 to {last}")]
    BadSquare {
        /// The index given.
        index: u8,
        /// Board width.
        width: u8,
        /// Board height.
        height: u8,
        /// The last valid index.
        last: u16,
    },
    /// Saved-game bytes that cannot be loaded: damaged, cut short, not a Banco record. (A
    /// record of a newer Banco is [`BancoError::NewerSave`], one of another game
    /// [`BancoError::WrongGame`]: neither is damaged.)
    #[error("this saved game cannot be loaded: {0}")]
    BadSave(String),
    /// A record written by a newer Banco (a newer format, or a game this version does not
    /// play): not damaged, so a shell keeps it, and the message says to update the app.
    #[error("{0}")]
    NewerSave(String),
    /// A sound record of another game than the one asked for (a Lines game opened as a
    /// board game): not damaged; the message says where it opens.
    #[error("{0}")]
    WrongGame(String),
    /// A game or feature this build does not have yet.
    #[error("{0} is not available in this version of Banco")]
    Unsupported(String),
    /// A value out of its range (a level, a time, a code).
    #[error("{0}")]
    InvalidArgument(String),
    /// Not possible now: it is not the player's turn (`VsComputer`: "it is the computer's
    /// turn"; `Match`: "it is not your turn" — the same case for both), no move to undo, no
    /// engine search running, …
    #[error("{0}")]
    NotAvailable(String),
    /// A network problem (connection refused, peer gone, discovery failed).
    #[error("network problem: {0}")]
    Network(String),
    /// The networked match refused the action (no game yet, a Lines race on, waiting for
    /// the peer, the match closed, …; not the player's turn is `NotAvailable`, as in
    /// `VsComputer`).
    #[error("{0}")]
    Match(String),
    /// A bug inside Banco (a Rust panic caught at the boundary). Please report it.
    #[error("internal error in Banco (please report it): {0}")]
    Internal(String),
}

/// Runs `f`, turning a panic into [`BancoError::Internal`]. Every exported function and
/// method that can fail goes through here (see the crate's rules of the boundary).
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

impl From<banco_app::error::MoveError> for BancoError {
    fn from(e: banco_app::error::MoveError) -> Self {
        use banco_app::error::MoveError as M;
        match e {
            M::Unreadable { .. } | M::WrongNotation { .. } => {
                BancoError::BadMoveText(e.to_string())
            }
            M::Illegal(_) | M::OffBoard => BancoError::IllegalMove(e.to_string()),
            M::GameOver(why) => BancoError::GameOver(why),
            M::NotAChoice { .. } => BancoError::InvalidArgument(e.to_string()),
        }
    }
}

/// The refusal of Lines by the board-game objects (`Game`, `VsComputer`, `Editor`): Lines
/// has its own object.
pub(crate) fn lines_elsewhere() -> BancoError {
    BancoError::InvalidArgument("Lines is played with LinesGame".to_owned())
}

/// `kind` for a free function made for board games (`function`, its name as Kotlin and
/// Swift call it), or for Lines its refusal: `InvalidArgument` naming the function, Lines,
/// and `instead`, what to call for Lines (see the crate's rules of the boundary).
pub(crate) fn board_game(
    kind: crate::types::GameKind,
    function: &str,
    instead: &str,
) -> Result<banco_game::GameKind, BancoError> {
    match kind.into() {
        banco_game::GameKind::Lines => Err(BancoError::InvalidArgument(format!(
            "{function} is for board games, not Lines: {instead}"
        ))),
        board => Ok(board),
    }
}

impl From<banco_app::any::AnyPlayError> for BancoError {
    fn from(e: banco_app::any::AnyPlayError) -> Self {
        BancoError::IllegalMove(e.to_string())
    }
}

impl From<banco_game::SetupError> for BancoError {
    fn from(e: banco_game::SetupError) -> Self {
        match e {
            banco_game::SetupError::Unsupported(banco_game::GameKind::Lines) => lines_elsewhere(),
            banco_game::SetupError::Unsupported(k) => BancoError::Unsupported(k.to_string()),
            banco_game::SetupError::BadPosition(why) => BancoError::InvalidPosition(why),
        }
    }
}

impl From<banco_app::save::SaveError> for BancoError {
    fn from(e: banco_app::save::SaveError) -> Self {
        use banco_app::save::SaveError as S;
        match e {
            // Not a damaged save: a record this game has no form of (jieqi as PGN).
            S::NoPgn(game) => BancoError::Unsupported(format!(
                "PGN of a {game} game (no PGN reader takes its reveals; `save` keeps them)"
            )),
            e @ (S::NewerVersion(_) | S::UnsupportedGame(_) | S::BestScoresNewer(_)) => {
                BancoError::NewerSave(e.to_string())
            }
            e @ (S::LinesGame | S::NotLines(_) | S::NotBestScores) => {
                BancoError::WrongGame(e.to_string())
            }
            other => BancoError::BadSave(other.to_string()),
        }
    }
}

impl From<banco_app::computer::ActionError> for BancoError {
    fn from(e: banco_app::computer::ActionError) -> Self {
        use banco_app::computer::ActionError as A;
        match e {
            A::Move(m) => m.into(),
            A::GameOver(why) => BancoError::GameOver(why),
            A::BadLevel(_) => BancoError::InvalidArgument(e.to_string()),
            A::Setup(why) => BancoError::InvalidPosition(why),
            A::Save(s) => s.into(),
            A::NotYourTurn
            | A::NothingToUndo
            | A::NothingToRedo
            | A::NoDrawToClaim
            | A::NoDrawWithMove(_)
            | A::MoveEndsGame(_)
            | A::InPuzzle => BancoError::NotAvailable(e.to_string()),
        }
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
        let e = BancoError::BadSquare {
            index: 90,
            width: 9,
            height: 10,
            last: 89,
        };
        assert_eq!(
            e.to_string(),
            "there is no square 90 on a 9x10 board: squares go 0 to 89"
        );
    }
}
