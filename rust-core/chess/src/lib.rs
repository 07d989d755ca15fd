//! # banco-chess — the rules of chess, as an adapter over cozy-chess
//!
//! [cozy-chess](https://crates.io/crates/cozy-chess) (MIT) generates the legal moves; this
//! crate adds what Banco's other layers need around it: a game with history and
//! make/unmake ([`Chess`], implementing [`banco_game::Game`] and [`banco_game::MatchGame`]),
//! every way a game ends ([`rules`]: checkmate, stalemate, dead positions, the 50/75-move
//! rules, threefold/fivefold repetition), FEN with actionable errors ([`fen`]), UCI
//! ([`uci`]) and SAN ([`san`]), a 14-bit wire move ([`wire`]), helpers for UIs
//! ([`Chess::move_from_squares`], [`Chess::targets_from`]) and [`perft`]. Chess960 is
//! supported throughout (Shredder-/X-FEN castling rights, castling as king takes rook).
//!
//! ```
//! use banco_chess::{Chess, ChessRules};
//! use banco_game::{Game, MoveList};
//!
//! let mut game = Chess::new();
//! let mv = game.parse_move("Nf3")?;          // SAN or UCI
//! assert_eq!(game.uci(mv), "g1f3");
//! game.play(mv)?;
//! let mut moves = MoveList::new();
//! game.legal_moves(&mut moves);
//! assert_eq!(moves.len(), 20);
//! assert_eq!(game.fen(), "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
//! assert_eq!(game.outcome(&ChessRules::default()), None);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Squares are indices `0..64` (a1 = 0, b1 = 1, …, h8 = 63, see [`square`]);
//! [`banco_game::Color::Red`] is White. A castling move is stored as the king taking its own
//! rook (see [`ChessMove`] for why, and for the two forms accepted on input).
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod attacks;
mod error;
pub mod fen;
mod game;
mod input;
mod moves;
pub mod perft;
mod role;
pub mod rules;
pub mod san;
pub mod setup;
pub mod square;
pub mod uci;
pub mod wire;

pub use cozy_chess;
pub use error::{IllegalMove, PlayError};
pub use fen::FenError;
pub use game::{Chess, ChessUndo};
pub use input::MoveTextError;
pub use moves::ChessMove;
pub use role::{Promotion, Role};
pub use rules::{ChessRules, MATCH_RULES};
