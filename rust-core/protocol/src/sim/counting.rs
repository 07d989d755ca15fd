//! [`CountingGame`]: a tiny deterministic game for tests, examples and the soak.
//!
//! Players take turns adding 1, 2 or 3 to a running total; whoever reaches the target
//! ([`CountingRules::target`]) wins. Small, but it has everything the session needs: legal
//! and illegal moves, a position hash, an outcome, and make/unmake.

use banco_game::{Color, Game, GameKind, MatchGame, MoveList, Outcome, SetupError, WinReason};

/// The rules: the total to reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountingRules {
    /// The winning total.
    pub target: u16,
}

impl Default for CountingRules {
    fn default() -> Self {
        CountingRules { target: 60 }
    }
}

/// The counting game (see the module docs). Moves are 1, 2 and 3.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CountingGame {
    total: u16,
    ply: u32,
    /// Highest total allowed: [`CountingRules::target`] of the rules the game is played with.
    limit: Option<u16>,
}

/// Error of [`CountingGame::play`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("illegal counting move {0}")]
pub struct CountingError(pub u8);

impl CountingGame {
    /// A game whose moves may not pass `target` (the default target is 60).
    pub fn with_target(target: u16) -> Self {
        CountingGame {
            total: 0,
            ply: 0,
            limit: Some(target),
        }
    }

    /// The running total.
    pub fn total(&self) -> u16 {
        self.total
    }

    fn limit(&self) -> u16 {
        self.limit.unwrap_or(CountingRules::default().target)
    }
}

impl Game for CountingGame {
    type Move = u8;
    type Undo = ();
    type Rules = CountingRules;
    type PlayError = CountingError;

    fn kind(&self) -> GameKind {
        // The counting game stands in for xiangqi in tests.
        GameKind::Xiangqi
    }

    fn side_to_move(&self) -> Color {
        if self.ply % 2 == 0 {
            Color::Red
        } else {
            Color::Black
        }
    }

    fn legal_moves(&self, moves: &mut MoveList<u8>) {
        moves.clear();
        for k in 1..=3u8 {
            if self.is_legal(k) {
                moves.push(k);
            }
        }
    }

    fn is_legal(&self, mv: u8) -> bool {
        (1..=3).contains(&mv)
            && self.total < self.limit()
            && self.total + u16::from(mv) <= self.limit()
    }

    fn play(&mut self, mv: u8) -> Result<(), CountingError> {
        if !self.is_legal(mv) {
            return Err(CountingError(mv));
        }
        self.make_unchecked(mv);
        Ok(())
    }

    fn make_unchecked(&mut self, mv: u8) {
        self.total = self.total.saturating_add(u16::from(mv));
        self.ply += 1;
    }

    fn unmake(&mut self, mv: u8, (): ()) {
        self.total = self.total.saturating_sub(u16::from(mv));
        self.ply = self.ply.saturating_sub(1);
    }

    fn in_check(&self) -> bool {
        false
    }

    fn outcome(&self, rules: &CountingRules) -> Option<Outcome> {
        (self.total >= rules.target).then(|| Outcome::Win {
            winner: self.side_to_move().other(),
            reason: WinReason::Checkmate,
        })
    }

    fn hash(&self) -> u64 {
        // splitmix64 of (total, side to move)
        let mut z = (u64::from(self.total) << 1 | u64::from(self.ply % 2))
            .wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn encode_move(&self, mv: u8) -> u16 {
        u16::from(mv)
    }

    fn decode_move(&self, code: u16) -> Option<u8> {
        u8::try_from(code).ok().filter(|m| (1..=3).contains(m))
    }

    fn no_move_outcome(&self) -> Outcome {
        Outcome::Win {
            winner: self.side_to_move().other(),
            reason: WinReason::Checkmate,
        }
    }
}

impl MatchGame for CountingGame {
    fn kinds() -> &'static [GameKind] {
        // The counting game stands in for xiangqi in tests.
        &[GameKind::Xiangqi]
    }

    /// The start "FEN" of the counting game is its running total in decimal.
    fn setup(kind: GameKind, fen: Option<&str>) -> Result<CountingGame, SetupError> {
        if kind != GameKind::Xiangqi {
            return Err(SetupError::Unsupported(kind));
        }
        let total = match fen {
            None => 0,
            Some(t) => t
                .parse::<u16>()
                .map_err(|_| SetupError::BadPosition(format!("{t:?} is not a total")))?,
        };
        Ok(CountingGame {
            total,
            ..CountingGame::default()
        })
    }

    fn rules(kind: GameKind, index: u8) -> Option<CountingRules> {
        (kind == GameKind::Xiangqi && index == 0).then(CountingRules::default)
    }

    fn fen(&self) -> String {
        self.total.to_string()
    }

    fn start_fen(&self) -> String {
        "0".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_to_the_target() {
        let mut g = CountingGame::with_target(5);
        let rules = CountingRules { target: 5 };
        g.play(3).unwrap();
        assert!(g.play(3).is_err());
        g.play(2).unwrap();
        assert_eq!(
            g.outcome(&rules),
            Some(Outcome::Win {
                winner: Color::Black,
                reason: WinReason::Checkmate
            })
        );
        let mut l = MoveList::new();
        g.legal_moves(&mut l);
        assert!(l.is_empty());
        g.unmake(2, ());
        assert_eq!(g.total(), 3);
        assert_eq!(g.decode_move(4), None);
    }
}
