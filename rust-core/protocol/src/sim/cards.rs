//! [`HiddenCards`]: a tiny game with jieqi's chance step, for tests of the fair draw.
//!
//! Each side holds a face-down pool of 15 cards of six kinds, counted like a jieqi side's
//! hidden pieces: 2 rooks, 2 advisors, 2 cannons, 5 pawns, 2 horses, 2 elephants. On its
//! turn a side flips a card ([`CardMove::Flip`], while its pool is not empty) or passes.
//! A flip leaves the position awaiting chance: the outcome ([`CardMove::Card`]) is a kind
//! drawn from the flipper's pool with weight = how many of that kind are left, exactly like
//! a jieqi reveal. The card's points go to the flipper. When both pools are empty the
//! higher score wins (equal scores draw). At most 30 chance steps a game, as in jieqi.
//!
//! ```
//! use banco_game::{ChanceList, Game, MatchGame, GameKind};
//! use banco_protocol::sim::{CardMove, HiddenCards};
//!
//! let mut g = HiddenCards::setup(GameKind::Jieqi, None).unwrap();
//! g.play(CardMove::Flip).unwrap();
//! let mut pool = ChanceList::new();
//! g.chance_outcomes(&mut pool);
//! assert_eq!(pool.total_weight(), 15);
//! g.play(CardMove::Card(3)).unwrap(); // a pawn
//! assert_eq!(g.pool(banco_game::Color::Red)[3], 4);
//! ```

use banco_game::{
    ChanceList, Color, DrawReason, Game, GameKind, MatchGame, MoveList, Outcome, SetupError,
    WinReason, list_capacity,
};

/// Kinds of cards (rook, advisor, cannon, pawn, horse, elephant) and their counts per side.
pub const CARD_COUNTS: [u8; 6] = [2, 2, 2, 5, 2, 2];

/// Points of each kind.
pub const CARD_POINTS: [u16; 6] = [9, 2, 4, 1, 4, 2];

/// A move of [`HiddenCards`], or the outcome of a flip.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CardMove {
    /// Do nothing this turn.
    #[default]
    Pass,
    /// Turn over a card of one's pool (the position then awaits chance).
    Flip,
    /// The flipped card is of this kind (0..6): a chance outcome.
    Card(u8),
}

list_capacity!(CardMove, 8);

/// Error of [`HiddenCards`]' `play`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not possible here")]
pub struct CardError(pub CardMove);

/// The rules (nothing to choose).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CardRules;

/// The game (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HiddenCards {
    pools: [[u8; 6]; 2],
    scores: [u16; 2],
    side: Color,
    flipping: Option<Color>,
    ply: u32,
}

impl HiddenCards {
    /// Full pools, Red to move.
    pub fn new() -> Self {
        HiddenCards {
            pools: [CARD_COUNTS; 2],
            scores: [0; 2],
            side: Color::Red,
            flipping: None,
            ply: 0,
        }
    }

    /// The cards left in a side's pool, by kind.
    pub fn pool(&self, side: Color) -> [u8; 6] {
        self.pools[side.index()]
    }

    /// A side's points.
    pub fn score(&self, side: Color) -> u16 {
        self.scores[side.index()]
    }

    fn finished(&self) -> bool {
        self.flipping.is_none() && self.pools.iter().all(|p| p.iter().all(|n| *n == 0))
    }
}

impl Default for HiddenCards {
    fn default() -> Self {
        HiddenCards::new()
    }
}

impl Game for HiddenCards {
    type Move = CardMove;
    type Undo = HiddenCards;
    type Rules = CardRules;
    type PlayError = CardError;

    fn kind(&self) -> GameKind {
        GameKind::Jieqi
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn legal_moves(&self, moves: &mut MoveList<CardMove>) {
        moves.clear();
        if self.flipping.is_some() || self.finished() {
            return;
        }
        if self.pools[self.side.index()].iter().any(|n| *n > 0) {
            moves.push(CardMove::Flip);
        }
        moves.push(CardMove::Pass);
    }

    fn is_legal(&self, mv: CardMove) -> bool {
        match (mv, self.flipping) {
            (CardMove::Card(k), Some(who)) => self.pools[who.index()]
                .get(k as usize)
                .is_some_and(|n| *n > 0),
            (CardMove::Card(_), None) | (_, Some(_)) => false,
            (CardMove::Pass, None) => !self.finished(),
            (CardMove::Flip, None) => self.pools[self.side.index()].iter().any(|n| *n > 0),
        }
    }

    fn play(&mut self, mv: CardMove) -> Result<(), CardError> {
        if !self.is_legal(mv) {
            return Err(CardError(mv));
        }
        self.make_unchecked(mv);
        Ok(())
    }

    fn make_unchecked(&mut self, mv: CardMove) -> HiddenCards {
        let before = *self;
        match mv {
            CardMove::Pass => self.side = self.side.other(),
            CardMove::Flip => {
                self.flipping = Some(self.side);
                self.side = self.side.other();
            }
            CardMove::Card(k) => {
                if let Some(who) = self.flipping.take()
                    && let Some(n) = self.pools[who.index()].get_mut(k as usize)
                {
                    *n = n.saturating_sub(1);
                    let points = CARD_POINTS.get(k as usize).copied().unwrap_or(0);
                    self.scores[who.index()] += points;
                }
            }
        }
        self.ply += 1;
        before
    }

    fn unmake(&mut self, _mv: CardMove, undo: HiddenCards) {
        *self = undo;
    }

    fn in_check(&self) -> bool {
        false
    }

    fn no_move_outcome(&self) -> Outcome {
        self.outcome(&CardRules).unwrap_or(Outcome::Draw {
            reason: DrawReason::Stalemate,
        })
    }

    fn outcome(&self, _rules: &CardRules) -> Option<Outcome> {
        if !self.finished() {
            return None;
        }
        let [red, black] = self.scores;
        Some(match red.cmp(&black) {
            core::cmp::Ordering::Greater => Outcome::Win {
                winner: Color::Red,
                reason: WinReason::Checkmate,
            },
            core::cmp::Ordering::Less => Outcome::Win {
                winner: Color::Black,
                reason: WinReason::Checkmate,
            },
            core::cmp::Ordering::Equal => Outcome::Draw {
                reason: DrawReason::Stalemate,
            },
        })
    }

    fn hash(&self) -> u64 {
        let mut z = 0xcbf2_9ce4_8422_2325u64;
        let flip = match self.flipping {
            None => 0,
            Some(c) => 1 + c.index() as u8,
        };
        let bytes = self.pools[0]
            .iter()
            .chain(&self.pools[1])
            .copied()
            .chain([self.side.index() as u8, flip]);
        for b in bytes {
            z = (z ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        z ^ (u64::from(self.scores[0]) << 32 | u64::from(self.scores[1]) << 48)
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn encode_move(&self, mv: CardMove) -> u16 {
        match mv {
            CardMove::Pass => 1,
            CardMove::Flip => 2,
            CardMove::Card(k) => 16 + u16::from(k),
        }
    }

    fn decode_move(&self, code: u16) -> Option<CardMove> {
        match code {
            1 => Some(CardMove::Pass),
            2 => Some(CardMove::Flip),
            16..=21 => Some(CardMove::Card((code - 16) as u8)),
            _ => None,
        }
    }

    fn awaits_chance(&self) -> bool {
        self.flipping.is_some()
    }

    fn chance_outcomes(&self, out: &mut ChanceList<CardMove>) {
        out.clear();
        if let Some(who) = self.flipping {
            for (k, n) in self.pools[who.index()].iter().enumerate() {
                out.push(CardMove::Card(k as u8), u32::from(*n));
            }
        }
    }
}

impl MatchGame for HiddenCards {
    fn kinds() -> &'static [GameKind] {
        &[GameKind::Jieqi]
    }

    fn setup(kind: GameKind, fen: Option<&str>) -> Result<Self, SetupError> {
        match (kind, fen) {
            (GameKind::Jieqi, None) => Ok(HiddenCards::new()),
            (GameKind::Jieqi, Some(f)) => Err(SetupError::BadPosition(format!(
                "hidden cards always start from full pools, not {f:?}"
            ))),
            (other, _) => Err(SetupError::Unsupported(other)),
        }
    }

    fn rules(kind: GameKind, index: u8) -> Option<CardRules> {
        (kind == GameKind::Jieqi && index == 0).then_some(CardRules)
    }

    fn fen(&self) -> String {
        format!(
            "{:?}/{:?} {}-{} {:?}",
            self.pools[0], self.pools[1], self.scores[0], self.scores[1], self.side
        )
    }

    fn start_fen(&self) -> String {
        HiddenCards::new().fen()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flip_draws_from_the_flippers_pool_by_count() {
        let mut g = HiddenCards::new();
        g.play(CardMove::Flip).unwrap_or_default();
        assert!(g.awaits_chance());
        assert!(!g.is_legal(CardMove::Pass));
        let mut list = ChanceList::new();
        g.chance_outcomes(&mut list);
        let weights: Vec<u32> = list.as_slice().iter().map(|w| w.weight).collect();
        assert_eq!(weights, [2, 2, 2, 5, 2, 2]);
        let h = g.hash();
        let undo = g.make_unchecked(CardMove::Card(0));
        assert_eq!((g.score(Color::Red), g.pool(Color::Red)[0]), (9, 1));
        assert_ne!(g.hash(), h);
        g.unmake(CardMove::Card(0), undo);
        assert_eq!(g.hash(), h);
        for k in 0..6u8 {
            assert_eq!(
                g.decode_move(g.encode_move(CardMove::Card(k))),
                Some(CardMove::Card(k))
            );
        }
        assert_eq!(g.decode_move(22), None);
    }

    #[test]
    fn the_game_ends_when_both_pools_are_empty() {
        let mut g = HiddenCards::new();
        for _ in 0..2 {
            for (k, n) in CARD_COUNTS.iter().enumerate() {
                for _ in 0..*n {
                    assert!(g.outcome(&CardRules).is_none());
                    g.play(CardMove::Flip).unwrap_or_default();
                    assert!(g.play(CardMove::Card(k as u8)).is_ok());
                }
            }
        }
        // The sides alternate, so each flipped half of each pass: both pools are empty
        // and the scores equal.
        assert_eq!(g.pool(Color::Red), [0; 6]);
        assert_eq!(g.pool(Color::Black), [0; 6]);
        assert_eq!(
            g.outcome(&CardRules),
            Some(Outcome::Draw {
                reason: DrawReason::Stalemate
            })
        );
        let mut moves = MoveList::new();
        g.legal_moves(&mut moves);
        assert!(moves.is_empty());
    }
}
