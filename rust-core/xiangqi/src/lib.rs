//! # banco-xiangqi — the rules of xiangqi (Chinese chess, cờ tướng)
//!
//! A fast, strictly legal move generator with make/unmake and incremental Zobrist hashing,
//! validated set-up positions, FEN, the repetition judge with selectable rule sets, and the
//! coordinate, WXF and Chinese notations.
//!
//! ```
//! use banco_xiangqi::{Xiangqi, RuleSet, Iccs};
//! use banco_game::{Game, Outcome, Color, WinReason};
//!
//! // The rook checks on the d-file; the king cannot step onto the e-file, where it would
//! // face the red king.
//! let mut game = Xiangqi::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1").unwrap();
//! let mv = "e1d1".parse::<Iccs>().unwrap().to_move(game.position()).unwrap();
//! game.play(mv).unwrap();
//! assert_eq!(
//!     game.outcome(&RuleSet::default()),
//!     Some(Outcome::Win { winner: Color::Red, reason: WinReason::Checkmate })
//! );
//! ```
//!
//! Layers, from the bottom: [`Square`], [`Piece`], [`Move`]; [`Setup`] (unvalidated) →
//! [`Position`] (legal, with move generation and make/unmake); [`Xiangqi`] (a position with
//! its history, implementing [`banco_game::Game`], judging repetitions under a [`RuleSet`]).
//! The hidden-piece variant jieqi lives in [`jieqi`].
//! Engines read the board through the low-level view in [`raw`]; evaluation itself
//! (mobility, exchange values, positional features) lives in banco-engine.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod checkers;
pub mod fen;
mod game;
mod history;
pub mod jieqi;
mod lines;
mod movegen;
mod moves;
pub mod notation;
pub mod perft;
mod piece;
mod position;
mod queries;
pub mod raw;
pub mod record;
pub mod rules;
mod setup;
mod square;
mod tables;
mod zobrist;

pub use checkers::Checkers;
pub use game::{MATCH_RULES, PlayError, Xiangqi, XiangqiUndo};
pub use moves::Move;
pub use notation::{
    Chinese, Direction, Iccs, IllegalMove, Origin, ParseChineseError, ParseIccsError,
    ParseWxfError, Place, Wxf, WxfOrigin,
};
pub use piece::{Piece, PieceKind};
pub use position::{Position, Undo};
pub use rules::{RepetitionRule, RuleSet};
pub use setup::{PositionError, Problem, Setup};
pub use square::{ParseSquareError, Square};
