//! [`DiceRace`]: a tiny game with a chance step, for testing engines and sessions against
//! the chance part of [`Game`] before a real hidden-information game exists.
//!
//! Two runners race to a target square. On a turn a runner either **steps** one square or
//! **rolls** a three-sided die worth 0, 2 or 3 squares (equal weights); a roll leaves the
//! position awaiting chance until the die's outcome is applied. The first runner on or past
//! the target wins. Rolling is worth 5/3 squares on average, stepping 1, so a searcher
//! that weighs outcomes prefers rolling until stepping is sure to win.
//!
//! ```
//! use banco_game::toy::{DiceMove, DiceRace};
//! use banco_game::{Color, Game};
//! let mut g = DiceRace::new(3);
//! g.play(DiceMove::Roll)?;
//! g.play(DiceMove::Rolled(3))?; // red reaches the target
//! assert_eq!(g.outcome(&Default::default()).and_then(|o| o.winner()), Some(Color::Red));
//! # Ok::<(), banco_game::toy::DiceError>(())
//! ```

use crate::game::Game;
use crate::list_capacity;
use crate::movelist::{ChanceList, MoveList};
use crate::vocab::{Color, GameKind, Outcome, WinReason};

/// A move of [`DiceRace`], or the outcome of its die.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DiceMove {
    /// Advance one square.
    #[default]
    Step,
    /// Throw the die (the position then awaits its outcome).
    Roll,
    /// The die showed this many squares (0, 2 or 3): a chance outcome.
    Rolled(u8),
}

list_capacity!(DiceMove, 8);

/// The faces of the die, each with weight 1.
pub const FACES: [u8; 3] = [0, 2, 3];

/// The rules of [`DiceRace`] (there is nothing to choose).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DiceRules;

/// A refused [`DiceRace`] move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiceError(pub DiceMove);

impl core::fmt::Display for DiceError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:?} is not possible here", self.0)
    }
}

impl std::error::Error for DiceError {}

/// The race (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DiceRace {
    target: u8,
    at: [u8; 2],
    side: Color,
    /// The runner whose die is in the air.
    rolling: Option<Color>,
    ply: u32,
}

/// What [`DiceRace::make_unchecked`](Game::make_unchecked) returns: the state before.
#[derive(Clone, Copy, Debug)]
pub struct DiceUndo(DiceRace);

impl DiceRace {
    /// A race to `target` (at least 1), both runners at 0, Red to move.
    #[must_use]
    pub fn new(target: u8) -> DiceRace {
        DiceRace {
            target: target.max(1),
            at: [0, 0],
            side: Color::Red,
            rolling: None,
            ply: 0,
        }
    }

    /// A race from a given state: the squares of Red and Black and the side to move.
    #[must_use]
    pub fn from_state(target: u8, red: u8, black: u8, side: Color) -> DiceRace {
        DiceRace {
            target: target.max(1),
            at: [red, black],
            side,
            rolling: None,
            ply: 0,
        }
    }

    /// The square of a runner.
    #[must_use]
    pub fn square(&self, c: Color) -> u8 {
        self.at[c.index()]
    }

    fn winner(&self) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|c| self.at[c.index()] >= self.target)
    }
}

impl Game for DiceRace {
    type Move = DiceMove;
    type Undo = DiceUndo;
    type Rules = DiceRules;
    type PlayError = DiceError;

    fn kind(&self) -> GameKind {
        // Stands in for a hidden-information game in tests.
        GameKind::Jieqi
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn legal_moves(&self, moves: &mut MoveList<DiceMove>) {
        moves.clear();
        if self.rolling.is_none() && self.winner().is_none() {
            moves.push(DiceMove::Step);
            moves.push(DiceMove::Roll);
        }
    }

    fn is_legal(&self, mv: DiceMove) -> bool {
        match mv {
            DiceMove::Rolled(k) => self.rolling.is_some() && FACES.contains(&k),
            _ => self.rolling.is_none() && self.winner().is_none(),
        }
    }

    fn play(&mut self, mv: DiceMove) -> Result<(), DiceError> {
        if !self.is_legal(mv) {
            return Err(DiceError(mv));
        }
        self.make_unchecked(mv);
        Ok(())
    }

    fn make_unchecked(&mut self, mv: DiceMove) -> DiceUndo {
        let before = *self;
        match mv {
            DiceMove::Step => {
                let i = self.side.index();
                self.at[i] = self.at[i].saturating_add(1);
                self.side = self.side.other();
            }
            DiceMove::Roll => {
                self.rolling = Some(self.side);
                self.side = self.side.other();
            }
            DiceMove::Rolled(k) => {
                if let Some(r) = self.rolling.take() {
                    let i = r.index();
                    self.at[i] = self.at[i].saturating_add(k);
                }
            }
        }
        self.ply += 1;
        DiceUndo(before)
    }

    fn unmake(&mut self, _mv: DiceMove, undo: DiceUndo) {
        *self = undo.0;
    }

    fn in_check(&self) -> bool {
        false
    }

    fn no_move_outcome(&self) -> Outcome {
        Outcome::Win {
            winner: self.winner().unwrap_or(self.side.other()),
            reason: WinReason::Checkmate,
        }
    }

    fn outcome(&self, _rules: &DiceRules) -> Option<Outcome> {
        if self.rolling.is_some() {
            return None;
        }
        self.winner().map(|winner| Outcome::Win {
            winner,
            reason: WinReason::Checkmate,
        })
    }

    fn hash(&self) -> u64 {
        let rolling = match self.rolling {
            None => 0,
            Some(Color::Red) => 1,
            Some(Color::Black) => 2,
        };
        let raw = u64::from(self.at[0])
            | u64::from(self.at[1]) << 8
            | (self.side.index() as u64) << 16
            | rolling << 17
            | u64::from(self.target) << 24;
        // A 64-bit mix so that nearby states land far apart in hash tables.
        let mut z = raw.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn encode_move(&self, mv: DiceMove) -> u16 {
        match mv {
            DiceMove::Step => 1,
            DiceMove::Roll => 2,
            DiceMove::Rolled(k) => 16 + u16::from(k),
        }
    }

    fn decode_move(&self, code: u16) -> Option<DiceMove> {
        match code {
            1 => Some(DiceMove::Step),
            2 => Some(DiceMove::Roll),
            16..=19 => Some(DiceMove::Rolled((code - 16) as u8)),
            _ => None,
        }
    }

    fn awaits_chance(&self) -> bool {
        self.rolling.is_some()
    }

    fn chance_outcomes(&self, out: &mut ChanceList<DiceMove>) {
        out.clear();
        if self.rolling.is_some() {
            for k in FACES {
                out.push(DiceMove::Rolled(k), 1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chance_step_round_trip() {
        let mut g = DiceRace::new(10);
        let start = g;
        let u1 = g.make_unchecked(DiceMove::Roll);
        assert!(g.awaits_chance());
        assert_eq!(g.side_to_move(), Color::Black);
        let mut moves = MoveList::new();
        g.legal_moves(&mut moves);
        assert!(moves.is_empty());
        assert!(g.outcome(&DiceRules).is_none());
        assert!(!g.is_legal(DiceMove::Step));
        assert!(g.is_legal(DiceMove::Rolled(2)));
        assert!(!g.is_legal(DiceMove::Rolled(1)));
        let h = g.hash();
        let u2 = g.make_unchecked(DiceMove::Rolled(2));
        assert_ne!(g.hash(), h);
        assert_eq!(g.square(Color::Red), 2);
        g.unmake(DiceMove::Rolled(2), u2);
        assert_eq!(g.hash(), h);
        g.unmake(DiceMove::Roll, u1);
        assert_eq!(g, start);
    }

    #[test]
    fn wire_codes_round_trip() {
        let g = DiceRace::new(4);
        for m in [
            DiceMove::Step,
            DiceMove::Roll,
            DiceMove::Rolled(0),
            DiceMove::Rolled(3),
        ] {
            assert_eq!(g.decode_move(g.encode_move(m)), Some(m));
        }
        assert_eq!(g.decode_move(0), None);
    }
}
