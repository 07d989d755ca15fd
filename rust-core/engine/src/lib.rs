//! # banco-engine — the Banco AI
//!
//! A game-generic search ([`Searcher`], monomorphised over [`SearchGame`]) with a
//! per-game evaluation ([`xiangqi::eval`]), a transposition table ([`tt`]), move ordering
//! ([`movepick`], [`history`]), limits and time management ([`limits`], [`timeman`]),
//! graded human-like [`level`]s, [`hint`]s, a mate [`solve`]r for puzzles, a fixed [`bench`], engine
//! matches ([`matchplay`]) and the [`uci`] and [`ucci`] protocols.
//!
//! ```
//! use banco_engine::{Limits, Searcher, XiangqiNode, score::Score};
//! use banco_xiangqi::{RuleSet, Xiangqi};
//! use std::sync::atomic::AtomicBool;
//!
//! // Mate in one: the rook slides to the d-file.
//! let game = Xiangqi::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1").unwrap();
//! let mut searcher = Searcher::<XiangqiNode>::new(16);
//! let stop = AtomicBool::new(false);
//! let result = searcher.search(&game, &RuleSet::default(), &Limits::depth(4), &stop, |_| {});
//! assert_eq!(result.best_move.unwrap().to_string(), "e1d1");
//! assert_eq!(result.score, Score::Mate(1));
//! ```
//!
//! Everything here is deterministic except what reads the wall clock: searches limited by
//! move time or a game clock. Tests limit by depth or nodes.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
// `n & 1023 == 0` says "every 1,024 nodes" more plainly than `trailing_zeros`.
#![allow(clippy::verbose_bit_mask)]

pub mod bench;
pub mod bigtable;
pub mod chance;
pub mod engine_game;
pub mod error;
pub mod hint;
pub mod history;
pub mod level;
pub mod limits;
pub mod matchplay;
pub mod movepick;
pub mod plain;
mod protocol;
pub mod score;
pub mod search;
pub mod searchable;
pub mod solve;
pub mod timeman;
pub mod toy;
pub mod tt;
pub mod ucci;
pub mod uci;
pub mod xiangqi;

pub use engine_game::EngineGame;
pub use error::EngineError;
pub use level::Level;
pub use limits::{Clock, Limits};
pub use search::{SearchInfo, SearchOptions, SearchResult, Searcher};
pub use searchable::{Repetition, SearchGame, Verdict};
pub use xiangqi::{XiangqiNode, XiangqiParams};

/// The xiangqi searcher.
pub type XiangqiSearcher = Searcher<XiangqiNode>;
