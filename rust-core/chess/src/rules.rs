//! How a chess game ends: [`ChessRules`] and the draw rules behind
//! [`Game::outcome`](banco_game::Game::outcome) and
//! [`Game::claimable_draw`](banco_game::Game::claimable_draw).
//!
//! * **Checkmate** wins; **stalemate** draws
//!   ([`DrawReason::Stalemate`](banco_game::DrawReason::Stalemate)); both take precedence
//!   over every draw rule below (FIDE 9.6: a mate on the 75th move stands).
//! * **Dead positions** draw at once. The common subset of FIDE's "no series of legal moves
//!   can mate" is recognised: no pawns, rooks or queens, and either at most one knight or
//!   bishop on the whole board (K v K, K+N v K, K+B v K), or only bishops, all on squares of
//!   one colour (K+B v K+B with same-coloured bishops, and any number of such bishops).
//!   K+N v K+N, K+B v K+N and K+N+N v K can still mate with help and go on.
//! * **Automatic draws**: the 75-move rule (150 plies without a capture or pawn move) and
//!   the fivefold repetition.
//! * **Claimable draws** ([`Game::claimable_draw`](banco_game::Game::claimable_draw)): the
//!   50-move rule (100 plies) and the threefold repetition of the current position. A UI
//!   offers the claim; [`Game::outcome`](banco_game::Game::outcome) ends the game on them
//!   only with [`ChessRules::auto_claim`] (engine matches, where nobody would refuse).
//!   The side to move may also claim with the move that brings the draw about
//!   ([`Game::claimable_draw_with`](banco_game::Game::claimable_draw_with), FIDE 9.2.1.1
//!   and 9.3.1): the claim plays the move and ends the game.
//!
//! Positions repeat FIDE-style: same pieces on the same squares, same side to move, same
//! castling rights, and the same en-passant possibility — an en-passant square counts only
//! when an en-passant capture is legal (cozy-chess's hash would count every double step).
//!
//! ```
//! use banco_chess::{Chess, ChessRules};
//! use banco_game::{DrawReason, Game, Outcome};
//! let game = Chess::from_fen("8/8/4k3/8/8/3BK3/8/8 w - - 0 1")?;
//! assert_eq!(
//!     game.outcome(&ChessRules::default()),
//!     Some(Outcome::Draw { reason: DrawReason::InsufficientMaterial })
//! );
//! let game = Chess::from_fen("8/8/4k3/8/8/3RK3/8/8 w - - 100 80")?;
//! assert_eq!(game.claimable_draw(&ChessRules::default()), Some(DrawReason::FiftyMoveRule));
//! assert_eq!(game.outcome(&ChessRules::default()), None);
//! assert!(game.outcome(&ChessRules { auto_claim: true }).is_some());
//! # Ok::<(), banco_chess::fen::FenError>(())
//! ```

use cozy_chess::{BitBoard, Board, Piece};

/// The rule set of a chess game: whether claimable draws end the game by themselves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ChessRules {
    /// End the game on the 50-move rule and on threefold repetition as if a player had
    /// claimed the draw (engine matches, self-play). False: they are only offered through
    /// [`Game::claimable_draw`](banco_game::Game::claimable_draw).
    pub auto_claim: bool,
}

impl ChessRules {
    /// FIDE rules with draws claimed by the players (the default).
    pub const STANDARD: ChessRules = ChessRules { auto_claim: false };
    /// FIDE rules with every claimable draw taken at once.
    pub const AUTO_CLAIM: ChessRules = ChessRules { auto_claim: true };
}

/// The rule sets a match can name, by wire index: 0 standard (claims by the players).
pub const MATCH_RULES: [ChessRules; 1] = [ChessRules::STANDARD];

/// Plies without capture or pawn move after which a player may claim a draw.
pub const FIFTY_MOVE_PLIES: u16 = 100;
/// Plies without capture or pawn move after which the game is drawn.
pub const SEVENTY_FIVE_MOVE_PLIES: u16 = 150;

/// True if neither side can ever mate (see the module docs for the cases recognised).
#[must_use]
pub fn insufficient_material(board: &Board) -> bool {
    let heavy = board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    if !heavy.is_empty() {
        return false;
    }
    let knights = board.pieces(Piece::Knight);
    let bishops = board.pieces(Piece::Bishop);
    if (knights | bishops).len() <= 1 {
        return true;
    }
    knights.is_empty()
        && (bishops.is_subset(BitBoard::DARK_SQUARES) || bishops.is_subset(BitBoard::LIGHT_SQUARES))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dead(fen: &str) -> bool {
        insufficient_material(&fen.parse::<Board>().unwrap())
    }

    #[test]
    fn dead_positions() {
        assert!(dead("8/8/4k3/8/8/4K3/8/8 w - - 0 1"));
        assert!(dead("8/8/4k3/8/8/4K3/8/6N1 w - - 0 1"));
        assert!(dead("8/8/4k3/8/8/4K3/8/6n1 b - - 0 1"));
        assert!(dead("8/8/4k3/8/8/4K3/8/5B2 w - - 0 1"));
        // Same-coloured bishops (f1 and c8 are both light squares).
        assert!(dead("2b5/8/4k3/8/8/4K3/8/5B2 w - - 0 1"));
        assert!(dead("2b5/8/4k3/8/8/4K3/8/3B1B2 w - - 0 1"));
        // Opposite-coloured bishops, knights, or anything heavier can mate.
        assert!(!dead("1b6/8/4k3/8/8/4K3/8/5B2 w - - 0 1"));
        assert!(!dead("8/8/4k3/8/8/4K3/8/5BN1 w - - 0 1"));
        assert!(!dead("8/8/4k3/8/8/4K3/8/5NN1 w - - 0 1"));
        assert!(!dead("6n1/8/4k3/8/8/4K3/8/6N1 w - - 0 1"));
        assert!(!dead("8/8/4k3/8/8/4K3/4P3/8 w - - 0 1"));
        assert!(!dead("8/8/4k3/8/8/4K3/8/7R w - - 0 1"));
    }
}
