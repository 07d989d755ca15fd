//! # Jieqi (揭棋, cờ úp): xiangqi with face-down pieces
//!
//! ```
//! use banco_xiangqi::jieqi::{Jieqi, JieqiMove};
//! use banco_xiangqi::{PieceKind, RuleSet};
//! use banco_game::{Color, Game};
//! let mut game = Jieqi::new();
//! // The face-down piece on b0 moves as a horse (its home square's piece) …
//! game.play("b0c2".parse()?)?;
//! // … and is then revealed: the chance step, filled in by whoever deals fairly.
//! assert!(game.awaits_chance());
//! game.play(JieqiMove::Reveal(PieceKind::Rook))?;
//! assert_eq!(game.position().pool(Color::Red).count(PieceKind::Rook), 1);
//! assert_eq!(game.side_to_move(), Color::Black);
//! assert_eq!(game.outcome(&RuleSet::default()), None);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Rules
//!
//! * **Start.** Kings face up on their squares; each side's other fifteen pieces face down
//!   on the fifteen home squares of xiangqi's start position. Nothing is dealt in advance:
//!   a piece's identity is drawn only when it is revealed, which is the same game (every
//!   arrangement equally likely) and leaves no secret to keep.
//! * **Face-down pieces** move as the piece of their home square (a face-down piece on a
//!   cannon square moves and captures as a cannon); a face-down advisor stays in the
//!   palace and a face-down elephant on its own half, as in xiangqi. They also attack
//!   (give check) as that piece.
//! * **Reveal.** A face-down piece that moves is turned over on arrival: the game then
//!   *awaits chance* ([`banco_game::Game::awaits_chance`]) and the outcome
//!   ([`JieqiMove::Reveal`]) is a kind drawn from the mover's pool with weights equal to
//!   the counts ([`banco_game::Game::chance_outcomes`]). Legality never depends on the
//!   identity drawn: the piece stands on its new square as a blocker whatever it is.
//! * **Revealed pieces** move as their kind. Revealed advisors and elephants are not
//!   confined (advisors leave the palace, elephants cross the river, both may attack the
//!   king); pawns keep their rules (sideways only across the river, so a pawn revealed on
//!   its own back rank walks forward only); kings stay in the palace.
//! * **A captured face-down piece stays face down: nobody learns its identity, and it
//!   stays in its owner's pool.** This is the rule of Pikafish's jieqi branch when the
//!   capturer's knowledge is not modelled and of the rules text pychess-variants first
//!   published ("no one knows which real materials the captured covered pieces are"); the
//!   later variant in which only the capturer sees it needs private information between
//!   two devices, which this fair-reveal design deliberately avoids. Consequences: a
//!   pool may hold more pieces than its side has face down on the board (FEN accepts
//!   `pool ≥ face-down count`), later reveals are drawn from the whole pool — by
//!   symmetry exactly the probabilities of a physical deal — and a capture of a
//!   face-down piece is no chance step. The perft table `tests/data/perft/jieqi.tsv`
//!   agrees: at depth 1 from the start the two cannon captures of face-down horses count
//!   six children each (the capturer's reveals), not thirty-six.
//! * **Everything else as in xiangqi**: check, the facing kings, mate and stalemate lose,
//!   the no-capture rule ([`crate::RuleSet`]'s `no_capture_plies`, plies since the last
//!   capture; reveals are not plies of their own for it), repetition: xiangqi's judge
//!   ([`crate::rules`]) — perpetual check loses, and under Asian rules perpetual chase
//!   loses — on the jieqi board. A cycle never spans a reveal, a face-down piece's step or
//!   a capture, which cannot be undone, so only revealed pieces move in it; face-down
//!   pieces standing still can attack (as the piece they move as) and be chased. As
//!   victims their worth is unknown: a face-down piece is chased only when it is
//!   unprotected (no "stronger piece" exception, no pawn exemption), and a face-down
//!   attacker chases only unprotected pieces. The details and an example: [`chase`].
//!
//! ## The engine never sees a face-down identity
//!
//! There is no identity to see: the position holds only the pools, and an identity exists
//! from the moment its reveal is applied. A search explores every outcome of a chance
//! step weighted by the pool; a session fills the outcome in from the fair-reveal
//! protocol, a game against the computer from a seeded random source.
//!
//! ## Encoding
//!
//! FEN as Pikafish's jieqi branch ([`fen`]); moves in ICCS (`h2e2`) and reveals as `=R`;
//! wire codes `from × 90 + to` for steps and `8100 + kind` for reveals
//! ([`moves::REVEAL_BASE`]); the Zobrist hash covers face-down pieces (keys of their own),
//! both pools and a pending reveal.

pub mod chase;
pub mod fen;
mod game;
pub mod moves;
pub mod perft;
mod position;
pub mod setup;

pub use fen::{JieqiFenError, START_FEN};
pub use game::{Jieqi, JieqiGameUndo, JieqiPlayError};
pub use moves::{JieqiMove, ParseJieqiMoveError};
pub use position::{HIDDEN, JieqiPiece, JieqiPosition, JieqiUndo, Pool};
pub use setup::{JieqiSetup, Placed, home_kind};
