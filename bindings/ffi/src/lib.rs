//! # banco-ffi — Banco for Kotlin and Swift
//!
//! The only crate of Banco that depends on uniffi. It wraps the pure crates in objects,
//! records and enums that uniffi turns into idiomatic Kotlin (package `org.banco`) and Swift
//! (module `Banco`); `bindings/scripts/generate.sh` generates them from the built library.
//!
//! Everything is written once for every board game (xiangqi, jieqi, chess) through banco-app's
//! dispatch; moves are square indices (`rank × width + file`) plus an optional promotion.
//!
//! * [`VsComputer`] — a game against the computer with every rule of it in Rust: the
//!   ready-to-draw board, taps into moves, the computer's turn, undo/redo, hints, puzzles,
//!   the game to continue; [`VsListener`] hears every new [`VsState`].
//! * [`Game`] — a local game: legal moves, play in any of the game's notations, undo/redo,
//!   status and outcome, FEN, save to bytes and load; [`GameListener`].
//! * [`Engine`] — the computer for analysis: a move at a level (1–10) or in a time, hints
//!   with score and principal variation, mate puzzles; results through [`EngineListener`].
//! * [`Match`] — a networked game with another phone over TCP or Bluetooth LE: host or join, the 6-digit
//!   code to confirm, play, undo requests, draw offers, resignation; [`MatchListener`].
//! * [`BlePeripheral`] / [`BleCentral`] — the phone's Bluetooth LE, implemented by the
//!   shell; [`Match::host_ble`] / [`Match::join_ble`] play over it (see the `ble` module).
//! * [`NearbyLobby`] — one list of the players around from the LAN and Bluetooth, each once
//!   (matched by key fingerprint); [`Match::join_nearby`] prefers the LAN.
//! * [`ble_readiness`] — which Bluetooth permissions to ask for, and what to tell the player.
//! * [`Lobby`] — advertise and browse hosts on the LAN (mDNS); [`LobbyListener`].
//! * [`Editor`] — the position editor; [`PuzzleProgress`] and [`collection_puzzles`] — the
//!   puzzle collection, played in puzzle mode by [`VsComputer::try_puzzle`] (a wrong move
//!   taken back, hints counted, the record kept: the `puzzle_mode` module); [`Game::to_pgn`] / [`Game::from_pgn`] and [`render_fen_svg`] /
//!   `render_png` — game records and pictures (issue 18).
//! * [`LinesGame`] — a solo game of Lines (Color Lines): ready-to-draw cells, moves with
//!   the path to animate, undo, hints with a reason (thought about off the UI thread:
//!   [`LinesHintJob`]), best scores of each kind of game ([`LinesBestKind`], the `lines_best`
//!   module), save/continue, a new game's options
//!   ([`lines_undo_choices`], [`lines_time_limits`]) and the hint's strengths
//!   ([`lines_hint_choices`]); the Lines
//!   race is played through [`Match::propose_race`] and shown in [`MatchState::race`].
//! * [`KeptSlot`] — the records a shell keeps in its key-value store ([`KeptStore`]): the
//!   games to continue and Lines' best scores, damaged ones set aside, a newer Banco's
//!   never written over (the `kept` module); [`GameKeeper`] and [`LinesKeeper`] decide
//!   when the game on screen becomes the game to continue; [`SavedMatches`] — the saved
//!   matches kept there (the newest 20); [`TrustKeeper`] — this device's identity and
//!   remembered players in the shell's own store of secrets ([`TrustStore`]).
//! * [`BancoError`] — the error of most calls, with messages a player can read; Lines'
//!   calls have [`LinesError`], [`Game::from_pgn`] [`PgnImportError`], and [`BleError`] is
//!   what the shell's Bluetooth implementations report to Rust (the `error` module).
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
//!   UI thread (`runOnUiThread`/`Dispatchers.Main`, `DispatchQueue.main.async`). The
//!   exception is [`GameListener`]: a [`Game`] has no thread of its own, so its listener is
//!   called on the thread that changed the game, after the change. Any listener may call
//!   its object back.
//! * **No panic crosses.** Every exported function that can fail runs inside [`error`]'s
//!   `guard`, which turns a panic into [`BancoError::Internal`] (Lines' into
//!   `LinesError::Internal`); the few that cannot fail (plain reads of a view, a score, a
//!   table) reach no code that panics on any input. Calls into foreign listeners are
//!   guarded the same way. Sizes a caller picks (hash tables, thinking times, Lines' hint
//!   playouts) are bounded, so no call can ask for more memory than a phone has (an
//!   engine's table at most [`MAX_HASH_MIB`], made fallibly: see [`Engine::new`]). The
//!   `garbage` tests feed nonsense to every entry point.
//! * **Lines in the free functions about games.** Each function that takes a `GameKind`
//!   answers for Lines when Lines has an answer — its own (`validateFen` checks a Lines
//!   position string, `renderFenSvg` draws one) or none (`notations`, `pieceKinds`,
//!   `rulesPresets`, `pgnPlayerTags`, `puzzleTiersOf`, `collectionPuzzlesOf`: empty;
//!   `defaultRules`, `rulesPreset`: `null`/`nil`) — and refuses Lines with
//!   `InvalidArgument` where only a board game has one, naming what to call instead:
//!   `startFen` (a `LinesGame` deals its start), `boardShape` (`linesBoardSize`),
//!   `squareName` and `parseSquare` (`linesCellName`), `colorName` (`linesColorName`),
//!   `resultText` (a race's `RaceOutcome.text`).
//! * **Thread safety.** Every object may be used from any thread.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
// uniffi enums carry their records by value (no `Box` across the boundary).
#![allow(clippy::large_enum_variant)]

mod ble;
mod ble_status;
mod clock;
mod collection;
mod computer;
mod editor;
mod engine;
pub mod error;
mod game;
mod jieqi;
mod kept;
mod kept_game;
mod kept_lines;
mod kept_trust;
mod lines;
mod lines_best;
mod lines_board;
mod lines_hint;
mod lines_options;
mod lobby;
mod nearby;
mod net;
mod net_event;
mod puzzle_mode;
mod race;
mod records;
mod saved_matches;
mod settings;
mod types;

pub use ble::{
    BleAdapterState, BleAdvertisement, BleCentral, BleCentralEvents, BleError, BleGuest, BlePeer,
    BlePeripheral, BlePeripheralEvents, BleScanListener, BleService, ble_adapter_message,
    ble_service,
};
pub use ble_status::{BlePermission, BlePlatform, BleReadiness, BleRole, BleStep, ble_readiness};
pub use clock::{
    ClockFace, ClockFaces, ClockPreset, clock_preset, clock_presets, clock_text, offer_clock_text,
    parse_clock,
};
pub use collection::{
    CollectionPuzzle, PuzzleProgress, PuzzleRecord, PuzzleTier, PuzzleTierInfo, TierProgress,
    collection_puzzle, collection_puzzles, collection_puzzles_of, puzzle_games, puzzle_tiers,
    puzzle_tiers_of,
};
pub use computer::{
    ClaimableMove, Puzzle, VsComputer, VsListener, VsSettings, VsState, builtin_puzzles,
};
pub use editor::{
    CapturedCount, Castling, Editor, EditorCell, EditorProblem, EditorSolution, EditorTap,
    EditorView, MAX_SOLVE, editor_games,
};
pub use engine::{
    Engine, EngineListener, EngineScore, MAX_HASH_MIB, PuzzleSolution, SearchReport,
    recommended_threads,
};
pub use error::BancoError;
pub use game::{
    Game, GameEvent, GameListener, GameStatus, banco_version, board_games, board_shape, color_name,
    default_rules, notations, parse_square, piece_kinds, result_text, square_name, start_fen,
    validate_fen,
};
pub use jieqi::{Pool, PoolEntry, PoolSides};
pub use kept::{KeptKind, KeptRead, KeptSlot, KeptStore};
pub use kept_game::GameKeeper;
pub use kept_lines::LinesKeeper;
pub use kept_trust::{TrustKeeper, TrustStore, TrustStoreError};
pub use lines::{
    LinesBall, LinesBestScore, LinesError, LinesGame, LinesSettings, LinesTap, LinesTurn,
    LinesUndo, LinesView,
};
pub use lines_best::{LinesBestKind, LinesBestTable};
pub use lines_board::{
    LinesBoardSize, lines_board_size, lines_cell_name, lines_color_name, lines_start_balls,
};
pub use lines_hint::{LinesHint, LinesHintJob};
pub use lines_options::{
    LinesHintChoice, LinesOptions, LinesTimeLimit, LinesUndoChoice, lines_default_options,
    lines_hint_choices, lines_hint_playouts_or_default, lines_time_limits, lines_undo_choices,
    lines_undo_named, race_time_limits,
};
pub use lobby::{Lobby, LobbyListener, LobbyPeer};
pub use nearby::{
    Hosting, NearbyListener, NearbyLobby, NearbyPlayer, NearbyTransport, TransportNotOpen,
};
pub use net::{
    Match, MatchClock, MatchEvent, MatchListener, MatchOffer, MatchPhase, MatchState, new_trust,
    player_display_name, trust_fingerprint,
};
pub use puzzle_mode::{PuzzleNotice, PuzzleStatus, PuzzleStore, puzzle_notice_text};
pub use race::{
    RaceBoard, RaceEnding, RaceOutcome, RaceSettings, RaceState, RaceTurn, RaceUpdate, race_offer,
};
#[cfg(feature = "png")]
pub use records::render_png;
pub use records::{
    PgnImportError, PgnTag, pgn_file_name, pgn_import_error_text, pgn_of_saved, pgn_player_tags,
    pgn_record_tags, pgn_vs_computer_tags, render_fen_svg, render_game_svg, saved_game_summary,
};
pub use saved_matches::{SavedMatch, SavedMatches, saved_matches_limit};
pub use settings::{
    DefaultSettings, LevelRange, RulesPreset, default_settings, level_range, rules_preset,
    rules_presets,
};
pub use types::{
    BoardShape, BoardView, Cell, Color, DrawReason, GameKind, Move, MoveText, Notation, Outcome,
    Piece, PieceKind, PlacedPiece, PlayedMove, RepetitionRule, Rules, TapResult, WinReason,
};

uniffi::setup_scaffolding!();

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_claim;
#[cfg(test)]
mod tests_editor_jieqi;
#[cfg(test)]
mod tests_game;
#[cfg(test)]
mod tests_jieqi;
#[cfg(test)]
mod tests_lines;
#[cfg(test)]
mod tests_lines_kind;
#[cfg(test)]
mod tests_lines_preview;
#[cfg(test)]
mod tests_match;
#[cfg(test)]
mod tests_refusals;
#[cfg(test)]
mod tests_save_errors;
#[cfg(test)]
mod tests_solve;
