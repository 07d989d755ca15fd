//! # banco-ffi — Banco for Kotlin and Swift
//!
//! The only crate of Banco that depends on uniffi. It wraps the pure crates in objects,
//! records and enums that uniffi turns into idiomatic Kotlin (package `org.banco`) and Swift
//! (module `Banco`); `bindings/scripts/generate.sh` generates them from the built library.
//!
//! Everything is written once for every board game (xiangqi, chess) through banco-app's
//! dispatch; moves are square indices (`rank × width + file`) plus an optional promotion.
//!
//! * [`VsComputer`] — a game against the computer with every rule of it in Rust: the
//!   ready-to-draw board, taps into moves, the computer's turn, undo/redo, hints, puzzles,
//!   the game to continue; [`VsListener`] hears every new [`VsState`].
//! * [`Game`] — a local game: legal moves, play in any of the game's notations, undo/redo,
//!   status and outcome, FEN, save to bytes and load; [`GameListener`].
//! * [`Engine`] — the computer for analysis: a move at a level (1–10) or in a time, hints
//!   with score and principal variation, mate puzzles; results through [`EngineListener`].
//! * [`Match`] — a networked game with another phone over TCP: host or join, the 6-digit
//!   code to confirm, play, undo requests, draw offers, resignation; [`MatchListener`].
//! * [`Lobby`] — advertise and browse hosts on the LAN (mDNS); [`LobbyListener`].
//! * [`BancoError`] — the one error, with messages a player can read.
//!
//! ```
//! use banco_ffi::{Game, GameKind, Notation};
//! let game = Game::new(GameKind::Xiangqi).unwrap();
//! assert_eq!(game.legal_moves().unwrap().len(), 44);
//! let played = game.play_text("C2=5".into(), Some(Notation::Wxf)).unwrap();
//! assert_eq!(played.coordinate, "h2e2");
//! assert_eq!(played.text, "炮二平五");
//! let saved = game.save().unwrap();
//! assert_eq!(Game::load(saved).unwrap().fen().unwrap(), game.fen().unwrap());
//! ```
//!
//! ## Rules of the boundary
//!
//! * **No async functions.** Long work (engine searches, network matches, discovery) runs
//!   on threads that Rust owns and reports through listener traits that the shell
//!   implements. Listener methods are called on those Rust threads: a UI shell hops to its
//!   UI thread (`runOnUiThread`/`Dispatchers.Main`, `DispatchQueue.main.async`).
//! * **No panic crosses.** Every exported function runs inside [`error`]'s `guard`, which
//!   turns a panic into [`BancoError::Internal`]; calls into foreign listeners are guarded
//!   the same way. The `garbage` tests feed nonsense to every entry point.
//! * **Thread safety.** Every object may be used from any thread.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
// uniffi enums carry their records by value (no `Box` across the boundary).
#![allow(clippy::large_enum_variant)]

mod computer;
mod engine;
pub mod error;
mod game;
mod lobby;
mod net;
mod race;
mod types;

pub use computer::{
    Puzzle, PuzzleStatus, VsComputer, VsListener, VsSettings, VsState, builtin_puzzles,
};
pub use engine::{Engine, EngineListener, EngineScore, PuzzleSolution, SearchReport};
pub use error::BancoError;
pub use game::{
    Game, GameEvent, GameListener, GameStatus, banco_version, board_games, board_shape, color_name,
    default_rules, notations, parse_square, piece_kinds, result_text, square_name, start_fen,
    validate_fen,
};
pub use lobby::{Lobby, LobbyListener, LobbyPeer};
pub use net::{
    Match, MatchClock, MatchEvent, MatchListener, MatchOffer, MatchPhase, MatchState, new_trust,
    trust_fingerprint,
};
pub use race::{RaceBoard, RaceEnding, RaceOutcome, RaceSettings, RaceState, RaceTurn, RaceUpdate};
pub use types::{
    BoardShape, BoardView, Cell, Color, DrawReason, GameKind, Move, MoveText, Notation, Outcome,
    Piece, PieceKind, PlacedPiece, PlayedMove, RepetitionRule, Rules, TapResult, WinReason,
};

uniffi::setup_scaffolding!();

#[cfg(test)]
mod tests;
