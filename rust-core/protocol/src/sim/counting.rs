//! [`CountingGame`]: a tiny deterministic game for tests, examples and the soak.
//!
//! Players take turns adding 1, 2 or 3 to a running total; whoever reaches the target
//! (60 unless the position says otherwise) wins. Small, but it has everything the session
//! needs: legal and illegal moves, a position hash, an outcome, make/unmake, a start
//! position written as text, two rule sets (the second with draws a player may claim) and
//! two kinds, so one session type can offer two games.
//!
//! ```
//! use banco_game::{Game, GameKind, MatchGame};
//! use banco_protocol::sim::CountingGame;
//!
//! // "total/target": 50 on the board, first to 70 wins; rule set 1 allows draw claims.
//! let mut g = CountingGame::setup(GameKind::Chess, Some("50/70"))?;
//! let rules = CountingGame::rules(GameKind::Chess, 1).unwrap();
//! assert!(g.claimable_draw(&rules).is_some()); // 50 is a multiple of 10
//! g.play(3).unwrap();
//! assert_eq!((g.fen(), g.start_fen()), ("53/70".to_owned(), "50/70".to_owned()));
//! # Ok::<(), banco_game::SetupError>(())
//! ```

use banco_game::{
    Color, DrawReason, Game, GameKind, MatchGame, MoveList, Outcome, SetupError, WinReason,
};

/// The usual target.
const DEFAULT_TARGET: u16 = 60;

/// The rules, by wire index: 0 plain, 1 with claimable draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CountingRules {
    /// A draw may be claimed by the side to move whenever the total is a positive multiple
    /// of 10 (stands in for chess's threefold repetition and fifty-move rule).
    pub draw_claims: bool,
}

/// The counting game (see the module docs). Moves are 1, 2 and 3.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountingGame {
    kind: GameKind,
    total: u16,
    start: u16,
    target: u16,
    ply: u32,
}

impl Default for CountingGame {
    fn default() -> Self {
        CountingGame::with_target(DEFAULT_TARGET)
    }
}

/// Error of [`CountingGame::play`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("illegal counting move {0}")]
pub struct CountingError(pub u8);

impl CountingGame {
    /// A game from 0 whose moves may not pass `target` (the default target is 60).
    pub fn with_target(target: u16) -> Self {
        CountingGame {
            kind: GameKind::Xiangqi,
            total: 0,
            start: 0,
            target: target.max(1),
            ply: 0,
        }
    }

    /// The running total.
    pub fn total(&self) -> u16 {
        self.total
    }

    /// The total to reach.
    pub fn target(&self) -> u16 {
        self.target
    }
}

impl Game for CountingGame {
    type Move = u8;
    type Undo = ();
    type Rules = CountingRules;
    type PlayError = CountingError;

    fn kind(&self) -> GameKind {
        self.kind
    }

    fn side_to_move(&self) -> Color {
        if self.ply.is_multiple_of(2) {
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
            && self.total < self.target
            && self.total + u16::from(mv) <= self.target
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

    fn outcome(&self, _rules: &CountingRules) -> Option<Outcome> {
        (self.total >= self.target).then(|| Outcome::Win {
            winner: self.side_to_move().other(),
            reason: WinReason::Checkmate,
        })
    }

    fn claimable_draw(&self, rules: &CountingRules) -> Option<DrawReason> {
        (rules.draw_claims
            && self.total > 0
            && self.total.is_multiple_of(10)
            && self.total < self.target)
            .then_some(DrawReason::FiftyMoveRule)
    }

    fn hash(&self) -> u64 {
        // splitmix64 of (kind, target, total, side to move)
        let kind = GameKind::ALL
            .iter()
            .position(|k| *k == self.kind)
            .unwrap_or(0) as u64;
        let raw = kind << 48 | u64::from(self.target) << 24 | u64::from(self.total) << 1;
        let mut z = (raw | u64::from(self.ply % 2)).wrapping_add(0x9e37_79b9_7f4a_7c15);
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
        // The counting game stands in for xiangqi and for chess in tests.
        &[GameKind::Xiangqi, GameKind::Chess]
    }

    /// The "FEN" of the counting game is the running total, optionally followed by `/`
    /// and the target (`"12"`, `"12/100"`); Red is to move.
    fn setup(kind: GameKind, fen: Option<&str>) -> Result<CountingGame, SetupError> {
        if !Self::kinds().contains(&kind) {
            return Err(SetupError::Unsupported(kind));
        }
        let (total, target) = match fen {
            None => (0, DEFAULT_TARGET),
            Some(text) => {
                let number = |t: &str| {
                    t.parse::<u16>()
                        .map_err(|_| SetupError::BadPosition(format!("{t:?} is not a number")))
                };
                match text.split_once('/') {
                    None => (number(text)?, DEFAULT_TARGET),
                    Some((total, target)) => (number(total)?, number(target)?),
                }
            }
        };
        if target == 0 || total > target {
            return Err(SetupError::BadPosition(format!(
                "a total of {total} does not fit a target of {target}"
            )));
        }
        Ok(CountingGame {
            kind,
            total,
            start: total,
            target,
            ply: 0,
        })
    }

    fn rules(kind: GameKind, index: u8) -> Option<CountingRules> {
        if !Self::kinds().contains(&kind) {
            return None;
        }
        match index {
            0 => Some(CountingRules { draw_claims: false }),
            1 => Some(CountingRules { draw_claims: true }),
            _ => None,
        }
    }

    fn fen(&self) -> String {
        format!("{}/{}", self.total, self.target)
    }

    fn start_fen(&self) -> String {
        format!("{}/{}", self.start, self.target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_to_the_target() {
        let mut g = CountingGame::with_target(5);
        let rules = CountingRules::default();
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

    #[test]
    fn setup_reads_its_fen() {
        let g = CountingGame::setup(GameKind::Xiangqi, Some("7")).unwrap();
        assert_eq!((g.total(), g.target(), g.fen()), (7, 60, "7/60".to_owned()));
        let back = CountingGame::setup(GameKind::Xiangqi, Some(&g.fen())).unwrap();
        assert_eq!(back, g);
        for bad in ["", "x", "7/", "70/60", "1/0", "99999"] {
            assert!(
                matches!(
                    CountingGame::setup(GameKind::Xiangqi, Some(bad)),
                    Err(SetupError::BadPosition(_))
                ),
                "{bad:?}"
            );
        }
        assert_eq!(
            CountingGame::setup(GameKind::Jieqi, None),
            Err(SetupError::Unsupported(GameKind::Jieqi))
        );
        let chess = CountingGame::setup(GameKind::Chess, None).unwrap();
        assert_eq!(chess.kind(), GameKind::Chess);
        assert_ne!(chess.hash(), CountingGame::default().hash());
        assert_eq!(CountingGame::rules(GameKind::Chess, 2), None);
    }

    #[test]
    fn draws_are_claimable_on_tens_with_the_second_rules() {
        let claims = CountingRules { draw_claims: true };
        let mut g = CountingGame::default();
        assert_eq!(g.claimable_draw(&claims), None);
        for _ in 0..5 {
            g.play(2).unwrap();
        }
        assert_eq!(g.claimable_draw(&claims), Some(DrawReason::FiftyMoveRule));
        assert_eq!(g.claimable_draw(&CountingRules::default()), None);
    }
}
