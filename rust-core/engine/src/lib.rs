//! # banco-engine — the Banco AI
//!
//! One search for every game, and one small module per game.
//!
//! ## The split
//!
//! * **The search knows no game.** [`Searcher`] is monomorphised over a node type that
//!   implements [`SearchGame`]: principal-variation alpha-beta with a transposition table
//!   ([`tt`]), staged move ordering ([`movepick`], [`history`]), quiescence, pruning,
//!   limits and time management ([`limits`], [`timeman`]), expectation nodes for games
//!   with chance steps ([`chance`]), scores ([`score`]). What a position is worth when
//!   the side to move has no move is the game's verdict ([`SearchGame::no_move_verdict`]).
//! * **The tools are written once over [`EngineGame`]**, the trait a public game type
//!   implements to say how the engine reads its positions and moves and which positions
//!   it benches and opens matches with: [`bench`](mod@bench), [`hint`], graded human-like
//!   [`level`]s, the [`plain`] alpha-beta baseline, engine matches ([`matchplay`]), the
//!   mate [`solve`]r and the [`uci`] protocol (`UCI_Variant` picks the game). [`ucci`]
//!   is xiangqi's own protocol.
//! * **Each game lives in its own module**: [`xiangqi`] (the node [`XiangqiNode`], its
//!   evaluation, the features it reads off the board, its piece values and
//!   [`EngineGame`] for [`banco_xiangqi::Xiangqi`]); [`chess`] (the node [`ChessNode`]
//!   over cozy-chess boards, its tapered evaluation and tables, static exchange
//!   evaluation, Zobrist keys and [`EngineGame`] for [`banco_chess::Chess`]); [`toy`]
//!   plugs banco-game's dice race in, the test bed of chance nodes.
//!
//! ## Adding a game
//!
//! 1. In `src/<game>/`, a node type implementing [`SearchGame`] (the game's position and
//!    path, its evaluation, capture ordering and exchange test, repetition judge and
//!    no-move verdict; the chance step if the game has one), and [`EngineGame`] for the
//!    public game type (node, name, bench positions and depth, openings, FEN, UCI move
//!    text, rule names, plain reference weights, tuning options).
//! 2. One line in `uci.rs`'s `variants` so that `UCI_Variant` offers it.
//! 3. Its bench node count pinned in `tests/suite/bench.rs`.
//!
//! Everything else — levels, hints, matches against the plain baseline, the solver,
//! UCI — then works for it, as this function generic over the game shows:
//!
//! ```
//! use banco_engine::{EngineGame, Limits, Searcher};
//! use banco_game::toy::DiceRace;
//! use banco_xiangqi::Xiangqi;
//! use std::sync::atomic::AtomicBool;
//!
//! /// The engine's move in a position of any game, as UCI text.
//! fn best<G: EngineGame>(fen: &str, depth: u32) -> Option<String> {
//!     let game = G::from_fen(fen).ok()?;
//!     let mut searcher = Searcher::<G::Node>::new(1);
//!     let stop = AtomicBool::new(false);
//!     let result = searcher.search(&game, &G::Rules::default(), &Limits::depth(depth), &stop, |_| {});
//!     result.best_move.map(|mv| game.move_text(mv))
//! }
//!
//! // Xiangqi, mate in one: the rook slides to the d-file.
//! assert_eq!(best::<Xiangqi>("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1", 4).as_deref(), Some("e1d1"));
//! // Chess, mate in one on the back rank.
//! assert_eq!(best::<banco_chess::Chess>("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 3).as_deref(), Some("d1d8"));
//! // The dice race: Red needs 2 squares, Black 1, so only a roll (2 or 3) can win.
//! assert_eq!(best::<DiceRace>("5 3 4 r", 6).as_deref(), Some("roll"));
//! ```
//!
//! Everything here is deterministic except what reads the wall clock (searches limited by
//! move time or a game clock) and searches on more than one thread (Lazy SMP: the helpers'
//! timing changes the shared table, so node counts and even moves vary from run to run;
//! see [`smp`]). Tests limit by depth or nodes, on one thread.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
// `n & 1023 == 0` says "every 1,024 nodes" more plainly than `trailing_zeros`.
#![allow(clippy::verbose_bit_mask)]

pub mod bench;
pub mod bigtable;
pub mod chance;
pub mod chess;
pub mod dfpn;
pub mod engine_game;
pub mod error;
pub mod features;
pub mod hint;
pub mod history;
pub mod jieqi;
pub mod level;
pub mod limits;
pub mod matchplay;
pub mod movepick;
pub mod plain;
mod protocol;
pub mod score;
pub mod search;
pub mod searchable;
pub mod smp;
pub mod solve;
pub mod timeman;
pub mod toy;
pub mod tt;
pub mod ucci;
pub mod uci;
pub mod xiangqi;

pub use chess::{ChessNode, ChessParams};
pub use engine_game::EngineGame;
pub use error::{EngineError, TuneError};
pub use jieqi::{JieqiNode, JieqiParams};
pub use level::Level;
pub use limits::{Clock, Limits};
pub use search::{SearchInfo, SearchOptions, SearchResult, Searcher};
pub use searchable::{Repetition, SearchGame, Verdict};
pub use xiangqi::{XiangqiNode, XiangqiParams};

/// The xiangqi searcher.
pub type XiangqiSearcher = Searcher<XiangqiNode>;

/// The jieqi searcher.
pub type JieqiSearcher = Searcher<JieqiNode>;

/// The chess searcher.
pub type ChessSearcher = Searcher<ChessNode>;
