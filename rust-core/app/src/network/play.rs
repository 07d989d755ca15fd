//! Moves on the board of a match: taps, the promotion piece, moves given as squares or
//! typed, each checked here against whose turn it is before both sides' rules check it.
//!
//! ```no_run
//! # fn demo(m: &banco_app::network::NetMatch) -> Result<(), banco_app::network::NetError> {
//! // On our turn, a move typed in any of the game's notations:
//! let info = m.play_text("h2e2")?;
//! println!("played {}", info.text(banco_app::notation::Notation::Coordinate));
//! # Ok(()) }
//! ```

use super::{NetError, NetMatch, lock};
use crate::any::AnyGame;
use crate::board::Tap;
use crate::error::MoveError;
use crate::notation::{self, MoveInfo};
use crate::pieces::PieceKind;
use banco_game::Game;
use banco_protocol::MatchSnapshot;

impl NetMatch {
    /// A tap on a screen cell of the board; a completed move is sent.
    pub fn tap(&self, column: u8, row: u8) -> Result<Tap, NetError> {
        let snap = self.board_snapshot()?;
        let mover = my_turn(&snap).then_some(snap.spec.local_color);
        let tap = lock(&self.view).board.tap(&snap.game, column, row, mover);
        if let Tap::Move(mv) = tap {
            self.with_driver(|d| d.play(mv))?;
        }
        Ok(tap)
    }

    /// The promotion piece, after a tap answered [`Tap::ChoosePromotion`].
    pub fn choose_promotion(&self, piece: PieceKind) -> Result<Tap, NetError> {
        let snap = self.board_snapshot()?;
        let tap = lock(&self.view).board.choose_promotion(&snap.game, piece)?;
        if let Tap::Move(mv) = tap {
            self.with_driver(|d| d.play(mv))?;
        }
        Ok(tap)
    }

    fn checked_turn(&self) -> Result<MatchSnapshot<AnyGame>, NetError> {
        // A match left (or closed) refuses moves as closed, whatever its last snapshot says.
        if lock(&self.driver).is_none() {
            return Err(NetError::Closed);
        }
        let snap = self.board_snapshot()?;
        if let Some(o) = snap.outcome {
            return Err(NetError::Move(MoveError::GameOver(o.to_string())));
        }
        if !my_turn(&snap) {
            return Err(NetError::NotYourTurn);
        }
        Ok(snap)
    }

    /// Plays a move given as squares (checked here, then by both sides' rules).
    pub fn play_squares(
        &self,
        from: u8,
        to: u8,
        promotion: Option<PieceKind>,
    ) -> Result<MoveInfo, NetError> {
        let snap = self.checked_turn()?;
        let mv = snap.game.move_from_parts(from, to, promotion)?;
        let info = notation::describe(&snap.game, mv);
        self.with_driver(|d| d.play(mv))?;
        Ok(info)
    }

    /// Plays a move typed in any of the game's notations.
    pub fn play_text(&self, text: &str) -> Result<MoveInfo, NetError> {
        let snap = self.checked_turn()?;
        let mv = notation::parse_move(&snap.game, text, None)?;
        let info = notation::describe(&snap.game, mv);
        self.with_driver(|d| d.play(mv))?;
        Ok(info)
    }
}

/// This side moves now: the game goes on, no jieqi reveal is being drawn, and the side
/// to move is ours.
fn my_turn(snap: &MatchSnapshot<AnyGame>) -> bool {
    snap.outcome.is_none()
        && !snap.game.awaits_chance()
        && snap.game.side_to_move() == snap.spec.local_color
}
