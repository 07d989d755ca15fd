//! # banco-app — what every Banco front end needs and no platform provides
//!
//! The command line and the Kotlin/Swift bindings sit on this crate; the shells keep only
//! drawing and platform services. Everything here is written once for every game through
//! the dispatch [`any::AnyGame`]:
//!
//! * [`any`] — the dispatch enum over the games (`Game` + `MatchGame`), moves as square
//!   indices plus a promotion.
//! * [`notation`] — every game's move notations, reading and writing, [`notation::describe`].
//! * [`board`] — the board model: ready-to-draw cells, taps into moves, promotion choice.
//! * [`computer`] — a game against the computer (turns, searches with ids, undo/redo by
//!   turns, hints, puzzles, resignation, claimed draws, results from the player's side);
//!   [`runner`] gives it threads; [`engine`] is the computer for every game; [`answer`]
//!   answers its searches (the engine, or in a puzzle the mate solver).
//! * [`save`] — the one saved-game format (and the older ones, read); [`files`] writes
//!   atomically and reads with a size limit.
//! * [`jieqi`] — jieqi's pools and the reveals drawn on one device.
//! * [`kept`] — the records an app keeps in its key-value store (the games to continue,
//!   Lines' best scores): damaged ones set aside, a newer Banco's never written over;
//!   [`saved_matches`] — the list of saved matches (the newest 20) kept there;
//!   [`kept_trust`] — this device's identity and remembered players in the app's own store
//!   of secrets.
//! * [`lines`] — a solo game of Lines (undo, hint, best scores, save/continue);
//!   [`lines_pick`] turns taps on a Lines board (solo or race) into picks and moves;
//!   [`lines_options`] — what a settings screen offers for a new Lines game.
//! * [`puzzle_mode`] — the rules of a try at a puzzle (a wrong move taken back, hints
//!   counted once per position, typed notices, the player's record kept up to date);
//!   [`puzzles`] — the puzzles and the record.
//! * [`network`] — [`network::NetMatch`], the networked match every front end runs (host
//!   or join on the LAN or over Bluetooth, the code to compare, proposals, moves, undo and
//!   draw requests, resignation, reconnection, the Lines race), with its state ready to show.
//! * [`editor`] — the position editor (set-up positions for every board game, every
//!   problem listed); [`mate`] — the mate solver ("solve from here", puzzles, the
//!   defender's longest reply).
//! * [`pgn`] — chess PGN and the xiangqi dialect, read and written; [`text`] — the readable
//!   text export and its import; [`tags`] — what a record carries beyond its moves;
//!   [`encoding`] — a record file's text (UTF-8, or GBK as xqbase's files are).
//! * [`render`] — pictures of a position (SVG, and PNG with the `png` feature).
//! * [`presets`] — the rules presets a settings screen offers, for every game.
//! * [`result`] — a game's end in words; [`pieces`] — pieces as a front end draws them;
//!   [`error`] — the crate's errors, one small enum per purpose.
//!
//! ```
//! use banco_app::computer::{Settings, VsComputer};
//! use banco_game::{Color, GameKind};
//! let mut vs = VsComputer::new(Settings::new(GameKind::Xiangqi, Color::Red, 5)?)?;
//! vs.play_text("h2e2")?;
//! assert!(vs.state().thinking); // the computer's turn: run vs.search_request()
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod answer;
pub mod any;
pub mod board;
pub mod computer;
pub mod editor;
pub mod encoding;
pub mod engine;
pub mod error;
pub mod fen_fields;
pub mod files;
pub mod jieqi;
pub mod kept;
pub mod kept_trust;
mod legacy;
pub mod lines;
pub mod lines_options;
pub mod lines_pick;
pub mod mate;
pub mod network;
pub mod notation;
pub mod pgn;
pub mod pieces;
pub mod presets;
pub mod puzzle_mode;
pub mod puzzles;
pub mod render;
pub mod result;
pub mod runner;
pub mod save;
pub mod saved_matches;
pub mod tags;
pub mod text;
