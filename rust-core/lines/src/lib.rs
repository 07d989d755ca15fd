//! # banco-lines — Color Lines
//!
//! The ball game of Color Lines (1992) and Lines 98: a 9×9 board, seven colours, a ball
//! moves along a free orthogonal path, five or more in a row vanish and score, otherwise
//! three announced balls land. This crate holds the rules and the computer player:
//!
//! * [`board`] — cells (`a1`…`i9`), ball colours, the board, cell sets.
//! * [`path`] — shortest free path (breadth-first, no allocation), reachable cells.
//! * [`lines`] — lines of five or more through a cell, in all four directions.
//! * [`score`] — the scoring table (GNOME Five or More's).
//! * [`spawn`] — seeded spawns (ChaCha8, one stream per ball).
//! * [`game`] — [`LinesGame`]: turns, landing, undo, game over; implements
//!   [`banco_game::ScoreGame`].
//! * [`best`] — the best-scores table: each kind of game ([`best::BestKind`]: start balls,
//!   undo, preview, spawn rule, time limit, hints) ranked on its own.
//! * [`ai`] — the computer player and the hint ([`ai::hint`]), and a greedy baseline.
//!
//! Where the announced balls will land is drawn when they are announced, and kept hidden
//! ([`SpawnRule::AtAnnouncement`]): undo and another move bring the same balls to the same
//! cells, so undo cannot fish for a landing (games saved before keep
//! [`SpawnRule::AtLanding`]; see [`game`]).
//!
//! Lines 98's preview is an optional rule ([`Settings::with_preview`], off by default): the
//! board shows where the announced balls will land ([`LinesGame::next_spots`]), each lands
//! there unless the move takes its cell, and the hint plans with it ([`ai::preview`]). It is
//! available wherever Lines is played: `banco play --game lines --preview` and `banco bench
//! lines --preview`; the race (`banco host --game lines --preview`, banco-protocol's
//! `RaceOptions::preview`: both boards and both replicas land on the spots of the shared
//! seed); the bindings (`LinesSettings.preview` with `LinesView.nextSpots`,
//! `RaceSettings.preview` with `RaceBoard.nextSpots`); and the Android and iOS shells, as a
//! setting for a new Lines game.
//!
//! ```
//! use banco_lines::{LinesGame, Settings, ai};
//! use banco_game::ScoreGame;
//!
//! let mut game = LinesGame::new(Settings::default(), [42; 32]);
//! for _ in 0..5 {
//!     let hint = ai::hint(&game, &ai::Budget::fast(), 7).expect("a move");
//!     game.play(hint.mv)?;
//! }
//! assert_eq!(game.turns(), 5);
//!
//! // With the preview the next three balls' cells are shown.
//! let preview = LinesGame::new(Settings::default().with_preview(true), [42; 32]);
//! assert_eq!(preview.next_spots().len(), 3);
//! assert!(game.next_spots().is_empty());
//! # Ok::<(), banco_lines::MoveError>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod ai;
pub mod best;
pub mod board;
pub mod game;
pub mod lines;
pub mod path;
pub mod score;
pub mod spawn;

pub use board::{Ball, Board, BoardError, CELLS, Cell, CellError, CellSet, SIZE};
pub use game::{
    GameDataError, LinesGame, Move, MoveError, NEXT, Settings, SettingsError, SpawnRule, State,
    TurnReport, UndoError, UndoRule,
};
pub use path::Path;
