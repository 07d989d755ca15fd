//! [`EngineGame`]: a game as the game-free parts of the engine need it — its search node,
//! how to read positions and moves, its bench positions, balanced openings and the plain
//! reference evaluation. [`bench`](crate::bench), [`hint`](crate::hint),
//! [`level`](crate::level), [`plain`](crate::plain), [`matchplay`](crate::matchplay),
//! [`solve`](crate::solve) and [`uci`](crate::uci) are written once over this trait;
//! each game implements it in its own module (xiangqi in [`xiangqi`](crate::xiangqi),
//! chess in [`chess`](crate::chess), the dice race of the tests in [`toy`](crate::toy)).
//!
//! The trait is implemented on the public game type itself, so generic functions infer
//! the game from their argument:
//!
//! ```
//! use banco_engine::{EngineGame, Limits, plain};
//! use banco_xiangqi::{RuleSet, Xiangqi};
//! use std::sync::atomic::AtomicBool;
//! let game = Xiangqi::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1").unwrap();
//! let mv = game.parse_move("e1d1").unwrap();
//! assert_eq!(game.move_text(mv), "e1d1");
//! let r = plain::search(&game, &RuleSet::default(), &Limits::depth(2), &AtomicBool::new(false));
//! assert!(r.best_move.is_some());
//! assert_eq!(<Xiangqi as EngineGame>::NAME, "xiangqi");
//! ```

use crate::error::{EngineError, TuneError};
use crate::searchable::SearchGame;
use banco_game::{Game, ListCapacity};

/// The evaluation weights of a game's node.
pub type ParamsOf<G> = <<G as EngineGame>::Node as SearchGame>::Params;

/// A game the engine plays: everything the game-free modules need beyond
/// [`banco_game::Game`] and the node's [`SearchGame`]. See the module docs.
pub trait EngineGame: Game<Move: ListCapacity<Array: Send + Sync>> {
    /// The search node built from this game.
    type Node: SearchGame<Game = Self, Move = Self::Move>;

    /// The game's name in UCI's `UCI_Variant` option and on command lines: `xiangqi`,
    /// `chess`.
    const NAME: &'static str;
    /// The bench positions (FEN), searched in this order by [`bench`](crate::bench); the
    /// total node count is the game's search signature.
    const BENCH_POSITIONS: &'static [&'static str];
    /// Depth of the bench searches.
    const BENCH_DEPTH: u32;
    /// Balanced openings for engine matches: a name and the moves from the start position
    /// in UCI text ([`EngineGame::parse_move`]), each played with colours swapped.
    const OPENINGS: &'static [(&'static str, &'static str)];
    /// Names of the rule sets [`EngineGame::rules_named`] knows, the usual one first.
    const RULE_NAMES: &'static [&'static str];
    /// True when the move text numbers the ranks from 0 (xiangqi's ICCS coordinates,
    /// a0–i9): UCI's `XiangqiRanks 1-10` then writes and reads them from 1 (a1–i10), as
    /// Cute Chess and Fairy-Stockfish do. False by default (chess counts from 1 already).
    const RANKS_FROM_ZERO: bool = false;

    /// The usual start position.
    fn start() -> Self;

    /// The game from a FEN (no history).
    fn from_fen(fen: &str) -> Result<Self, EngineError>;

    /// Reads a move in UCI text and checks that it is legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, EngineError>;

    /// The UCI text of `mv`, a legal move here (or a chance outcome while awaiting chance).
    fn move_text(&self, mv: Self::Move) -> String;

    /// The rule set of that name (case-insensitive), if known.
    fn rules_named(name: &str) -> Option<Self::Rules>;

    /// UCI's `UCI_Chess960`: castling written and read as the king taking its own rook
    /// (`e1h1`) even where the position looks standard. Only chess has it; by default
    /// nothing changes.
    fn set_chess960(&mut self, on: bool) {
        let _ = on;
    }

    /// Weights of the plain reference evaluation (material and little else), the
    /// evaluation of the [`plain`](crate::plain) baseline and of match adjudication.
    fn plain_params() -> ParamsOf<Self>;

    /// Changes the weights for a tuning match (`banco match --a level=10,pst=50`): the
    /// option `key` with its `value`; an error says why it cannot. By default every
    /// option is unknown.
    fn tune(params: &mut ParamsOf<Self>, key: &str, value: &str) -> Result<(), TuneError> {
        let _ = (params, value);
        Err(TuneError::UnknownOption(key.to_owned()))
    }

    /// The text of a line of moves from this position (stops at the first move that is
    /// not legal), separated by spaces.
    fn line_text(&self, line: &[Self::Move]) -> String {
        let mut game = self.clone();
        let mut words = Vec::with_capacity(line.len());
        for &mv in line {
            words.push(game.move_text(mv));
            if game.play(mv).is_err() {
                words.pop();
                break;
            }
        }
        words.join(" ")
    }
}
