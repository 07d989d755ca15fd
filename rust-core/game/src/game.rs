//! The [`Game`] trait that engines and match sessions drive, and [`MatchGame`], what a
//! networked match needs on top: a game built from the kind, rules and start position a
//! proposal names.
//!
//! ```
//! use banco_game::toy::{DiceRace, DiceMove};
//! use banco_game::{ChanceList, Game, MoveList};
//!
//! let mut game = DiceRace::new(5);
//! let mut moves = MoveList::new();
//! game.legal_moves(&mut moves);
//! assert_eq!(moves.as_slice(), &[DiceMove::Step, DiceMove::Roll]);
//!
//! // A roll leaves the position awaiting chance: the die decides, by weight.
//! game.play(DiceMove::Roll)?;
//! assert!(game.awaits_chance());
//! let mut outcomes = ChanceList::new();
//! game.chance_outcomes(&mut outcomes);
//! assert_eq!(outcomes.total_weight(), 3);
//! game.play(DiceMove::Rolled(3))?;
//! assert!(!game.awaits_chance());
//! # Ok::<(), banco_game::toy::DiceError>(())
//! ```
//!
//! ## Why the trait looks the way it does
//!
//! * **Two ways to play a move.** Callers that hold untrusted input (a UI tap, a move from
//!   the wire) use [`Game::play`], which checks legality and returns a typed error without
//!   touching the state. The search uses [`Game::make_unchecked`] / [`Game::unmake`], which
//!   trust the caller; the returned `Undo` token carries what unmaking needs.
//! * **Move generation into a caller's buffer** ([`MoveList`], capacity per game): no
//!   allocation per node.
//! * **Rules are a value.** Repetition and move-count rules differ between federations and
//!   casual play, so [`Game::outcome`] takes the game's `Rules` type.
//! * **The game decides what "no legal move" means** ([`Game::no_move_outcome`]): the
//!   side to move loses in xiangqi whether in check or not; in chess checkmate loses and
//!   stalemate draws. The search asks instead of assuming.
//! * **Chance steps** (hidden pieces, dice). A move may leave the position *awaiting
//!   chance* ([`Game::awaits_chance`]); [`Game::chance_outcomes`] then lists the possible
//!   outcomes with integer weights into a caller's buffer. An outcome is a value of the
//!   game's move type: it is applied like a move ([`Game::play`] checks it,
//!   [`Game::make_unchecked`] trusts it) and [`Game::unmake`] takes it back. While awaiting
//!   chance there is no legal move, no outcome of the game, and [`Game::side_to_move`] is
//!   already the side that moves next (the chance step finishes the previous move), so a
//!   search takes the weighted mean of the children's values without negating them. A
//!   session fills the outcome in from the fair-reveal protocol, a local game from a seeded
//!   random source. Perfect-information games keep the defaults and never await chance.
//! * **Wire encoding.** [`Game::encode_move`] / [`Game::decode_move`] map a move (or a
//!   chance outcome) to a `u16`; decoding only checks the syntax, legality is checked
//!   against the position afterwards, like any other untrusted input.

use crate::movelist::{ChanceList, ListCapacity, MoveList};
use crate::vocab::{Color, DrawReason, GameKind, Outcome};
use core::fmt;

/// A game as the engine and the match session see it: a deterministic state machine with
/// legal-move generation, checked and unchecked play, an optional chance step, an outcome
/// under a rule set, a 64-bit hash and a `u16` wire encoding of moves. See the module docs.
pub trait Game: Clone + Send + 'static {
    /// A move (or the outcome of a chance step). Small and `Copy`; `Default` gives a null
    /// value used to fill buffers; its [`ListCapacity`] is the game's move-list capacity.
    type Move: Copy + Eq + Default + fmt::Debug + Send + Sync + ListCapacity + 'static;
    /// What [`Game::make_unchecked`] returns so that [`Game::unmake`] can restore the state.
    type Undo: Copy + fmt::Debug;
    /// The rule set that decides outcomes (repetition, move-count limits, …).
    type Rules: Copy + Default + fmt::Debug + PartialEq + Send + Sync + 'static;
    /// The error of [`Game::play`].
    type PlayError: std::error::Error + Send + Sync + 'static;

    /// Which game this is.
    fn kind(&self) -> GameKind;

    /// The side to move (while awaiting chance: the side that moves after the outcome).
    fn side_to_move(&self) -> Color;

    /// Replaces the contents of `moves` with every legal move (none while awaiting chance).
    fn legal_moves(&self, moves: &mut MoveList<Self::Move>);

    /// True if `mv` is legal here (while awaiting chance: if it is a possible outcome).
    fn is_legal(&self, mv: Self::Move) -> bool;

    /// Plays a move, or applies a chance outcome, after checking it; on error the state is
    /// unchanged.
    fn play(&mut self, mv: Self::Move) -> Result<(), Self::PlayError>;

    /// Plays a move (or applies a chance outcome) known to be legal. Playing an illegal
    /// move this way leaves the state unspecified but never panics.
    fn make_unchecked(&mut self, mv: Self::Move) -> Self::Undo;

    /// Takes back the move or chance outcome made by the matching
    /// [`Game::make_unchecked`].
    fn unmake(&mut self, mv: Self::Move, undo: Self::Undo);

    /// True if the side to move is in check.
    fn in_check(&self) -> bool;

    /// The outcome when the side to move has no legal move (checkmate or stalemate, as this
    /// game counts them). Only meaningful when [`Game::legal_moves`] is empty and the
    /// position does not await chance.
    fn no_move_outcome(&self) -> Outcome;

    /// How the game has ended under `rules`, or `None` while it goes on (always `None`
    /// while awaiting chance). Takes the whole history into account.
    fn outcome(&self, rules: &Self::Rules) -> Option<Outcome>;

    /// A draw the side to move may claim now but that does not end the game by itself
    /// (chess: threefold repetition, the fifty-move rule); `None` by default.
    fn claimable_draw(&self, rules: &Self::Rules) -> Option<DrawReason> {
        let _ = rules;
        None
    }

    /// A draw the side to move may claim by declaring the legal move `mv` (which the claim
    /// then plays): the draw [`Game::claimable_draw`] would give the other side once `mv`
    /// is played (chess, FIDE Laws 9.2.1.1 and 9.3.1). `None` for an illegal move, for a
    /// move that ends the game by itself, and by default (games whose draws are all
    /// automatic).
    fn claimable_draw_with(&self, mv: Self::Move, rules: &Self::Rules) -> Option<DrawReason> {
        let _ = (mv, rules);
        None
    }

    /// 64-bit hash of the position (pieces, side to move, a pending chance step; not the
    /// history).
    fn hash(&self) -> u64;

    /// Number of moves (and chance outcomes) played since the start position of this game.
    fn ply(&self) -> u32;

    /// Encodes a move or chance outcome for the wire.
    fn encode_move(&self, mv: Self::Move) -> u16;

    /// Decodes a wire move of this game; `None` if the value is not a move of this game at
    /// all. The result still has to be checked for legality.
    fn decode_move(&self, code: u16) -> Option<Self::Move>;

    /// True while the position waits for the outcome of a chance step (see the module
    /// docs). False by default.
    fn awaits_chance(&self) -> bool {
        false
    }

    /// Replaces the contents of `out` with the possible outcomes of the pending chance step
    /// and their weights; empty when the position does not await chance (the default).
    fn chance_outcomes(&self, out: &mut ChanceList<Self::Move>) {
        out.clear();
    }
}

/// Why [`MatchGame::setup`] cannot start a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// This build does not play that game.
    Unsupported(GameKind),
    /// The start position is not a legal position of the game.
    BadPosition(String),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Unsupported(k) => write!(f, "{k} is not played here"),
            SetupError::BadPosition(why) => write!(f, "bad start position: {why}"),
        }
    }
}

impl std::error::Error for SetupError {}

/// A game that a networked match can be proposed in: built from the kind, the rule-set
/// index and the start position that a proposal names. A dispatch over several games
/// (banco-app's) implements it once for all of them.
pub trait MatchGame: Game {
    /// The games this type can be.
    fn kinds() -> &'static [GameKind];

    /// The game of `kind` starting from `fen`, or from the usual start when `None`.
    fn setup(kind: GameKind, fen: Option<&str>) -> Result<Self, SetupError>;

    /// The rules of `kind` with wire index `index` (0 is the usual rules), if known.
    fn rules(kind: GameKind, index: u8) -> Option<Self::Rules>;

    /// FEN of the current position.
    fn fen(&self) -> String;

    /// FEN of the position this game started from.
    fn start_fen(&self) -> String;
}
