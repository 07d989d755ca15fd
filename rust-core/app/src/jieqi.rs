//! Jieqi for front ends: the two sides' pools as a screen shows them ([`pools`]), and the
//! draw of reveals on one device ([`RevealDraw`]).
//!
//! A game against the computer has no peer to deal fairly with, so the identities of the
//! face-down pieces are dealt here, as the pieces of a real board are shuffled before they
//! are set out face down: [`RevealDraw::dealt`] deals the start position's pools onto its
//! face-down squares once per game (keeping what its moves already revealed), with a
//! ChaCha20 generator seeded from the operating system's entropy (or from a seed a test
//! injects), and a reveal turns up the piece dealt to the square the stepping piece came
//! from. Each identity is as likely as a draw from the mover's pool weighted by the counts
//! ([`RevealDraw::draw`]), but it is fixed for the game: undo, another move and the same
//! step again, or the same piece turned over later, turn up the same piece — taking moves
//! back cannot draw again. The deal lives in the session, never in the position: the
//! engine searches over the pools only and cannot learn an identity early.
//! A networked match draws through the fair reveal of banco-protocol instead.
//!
//! ```
//! use banco_app::any::AnyGame;
//! use banco_app::jieqi::{RevealDraw, pools};
//! use banco_game::{Color, Game, GameKind};
//! let mut game = AnyGame::new(GameKind::Jieqi)?;
//! assert_eq!(pools(&game)[0].total, 15);
//! let step = game.move_from_parts(7 + 2 * 9, 4 + 2 * 9, None)?; // h2e2, a face-down cannon
//! game.play(step)?;
//! assert!(game.awaits_chance());
//! let mut draw = RevealDraw::seeded(7);
//! let dealt = draw.dealt(&game);
//! assert_eq!(draw.dealt(&game), dealt, "one deal a game");
//! let drawn = draw.settle(&mut game);
//! assert_eq!(drawn, dealt.into_iter().collect::<Vec<_>>());
//! assert!(!game.awaits_chance());
//! assert_eq!(pools(&game)[0].total, 14);
//! assert_eq!(pools(&game)[0].color, Color::Red);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::any::{AnyGame, AnyMove};
use crate::pieces::{PieceInfo, PieceKind};
use banco_game::{ChanceList, Color, Game};
use banco_xiangqi::PieceKind as XqKind;
use banco_xiangqi::jieqi::{Jieqi, JieqiMove};
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

/// One kind in a pool: the piece and how many of it are still unrevealed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolEntry {
    /// The piece (face up: the kind a reveal may draw).
    pub piece: PieceInfo,
    /// How many.
    pub count: u8,
}

/// One side's pool: the identities its next reveals are drawn from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolView {
    /// The side.
    pub color: Color,
    /// The kinds with a count, in xiangqi's order (advisor, elephant, horse, rook, cannon,
    /// pawn).
    pub entries: Vec<PoolEntry>,
    /// Unrevealed pieces in all (face-down pieces captured unseen stay in the pool).
    pub total: u32,
    /// The side's face-down pieces still on the board.
    pub face_down: u32,
}

/// The two pools as a screen places them beside the board, each next to its own side's
/// pieces: `top` beside the side drawn at the top of the board (the second player's, or the
/// first player's when the board is flipped), `bottom` beside the other. On these shelves
/// the kinds all revealed (count 0) are left out; the order of the kinds is the pools'.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolSides {
    /// The pool shown above the board.
    pub top: PoolView,
    /// The pool shown below the board.
    pub bottom: PoolView,
}

/// Places `pools` (first player first, as [`pools`] gives them) beside a board drawn
/// `flipped` or not (see [`PoolSides`]); `None` without both pools (not jieqi).
#[must_use]
pub fn pool_sides(pools: &[PoolView], flipped: bool) -> Option<PoolSides> {
    let shelf = |color: Color| {
        pools.iter().find(|p| p.color == color).map(|p| PoolView {
            entries: p.entries.iter().filter(|e| e.count > 0).cloned().collect(),
            ..p.clone()
        })
    };
    let (first, second) = (shelf(Color::Red)?, shelf(Color::Black)?);
    Some(if flipped {
        PoolSides {
            top: first,
            bottom: second,
        }
    } else {
        PoolSides {
            top: second,
            bottom: first,
        }
    })
}

/// Both sides' pools (first player first) of a jieqi game; empty for other games.
#[must_use]
pub fn pools(game: &AnyGame) -> Vec<PoolView> {
    let Some(g) = game.as_jieqi() else {
        return Vec::new();
    };
    let pos = g.position();
    Color::ALL
        .into_iter()
        .map(|color| {
            let pool = pos.pool(color);
            PoolView {
                color,
                entries: pool
                    .iter()
                    .map(|(kind, count)| PoolEntry {
                        piece: PieceInfo::xiangqi(banco_xiangqi::Piece::new(color, kind)),
                        count,
                    })
                    .collect(),
                total: pool.total(),
                face_down: pos.hidden_count(color),
            }
        })
        .collect()
}

/// The kind a jieqi reveal draws, if `mv` is one.
#[must_use]
pub fn revealed_kind(mv: AnyMove) -> Option<PieceKind> {
    match mv {
        AnyMove::Jieqi(banco_xiangqi::jieqi::JieqiMove::Reveal(k)) => {
            Some(PieceKind::from_xiangqi(k))
        }
        _ => None,
    }
}

/// The random source of reveals on one device (see the module docs).
#[derive(Clone, Debug)]
pub struct RevealDraw {
    rng: ChaCha20Rng,
    deal: Option<Deal>,
}

/// The identities dealt to the face-down pieces of one game's start position.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Deal {
    /// The start position's hash (a deal serves one game).
    start: u64,
    /// By square index: the square the piece stood on face down at the start (each such
    /// square is one side's, so it names the side too).
    kinds: [Option<XqKind>; 90],
}

impl Deal {
    /// The reveals `game`'s moves made, each with its side and the square its piece came
    /// from.
    fn revealed(game: &Jieqi) -> Vec<(usize, u8, XqKind)> {
        let mut pos = game.start_position().clone();
        let mut origin = None;
        let mut out = Vec::new();
        for mv in game.moves() {
            match mv {
                JieqiMove::Step(m) => {
                    origin = pos
                        .piece_at(m.from())
                        .filter(|p| p.hidden)
                        .map(|p| (p.color.index(), m.from().index()));
                }
                JieqiMove::Reveal(kind) => {
                    if let Some((side, sq)) = origin.take() {
                        out.push((side, sq, kind));
                    }
                }
            }
            let _ = pos.make(mv);
        }
        out
    }

    /// True if this deal is `game`'s: the same start, every reveal made as dealt.
    fn fits(&self, game: &Jieqi) -> bool {
        self.start == game.start_position().hash()
            && Deal::revealed(game)
                .into_iter()
                .all(|(_, sq, kind)| self.kinds[sq as usize] == Some(kind))
    }

    /// Deals `game`'s start position: the identities its moves revealed kept, the rest of
    /// each pool shuffled onto the other face-down squares (a pool larger than the squares
    /// — pieces captured unseen in a set-up position — leaves some identities out).
    fn of(game: &Jieqi, draw: &mut RevealDraw) -> Deal {
        let start = game.start_position();
        let mut kinds = [None; 90];
        let mut pools = [start.pool(Color::Red), start.pool(Color::Black)]
            .map(|p| p.iter().collect::<Vec<_>>());
        for (side, sq, kind) in Deal::revealed(game) {
            if let Some(entry) = pools[side].iter_mut().find(|(k, n)| *k == kind && *n > 0) {
                entry.1 -= 1;
                kinds[sq as usize] = Some(kind);
            }
        }
        for (side, pool) in pools.iter().enumerate() {
            let mut bag: Vec<XqKind> = pool
                .iter()
                .flat_map(|&(k, n)| core::iter::repeat_n(k, n as usize))
                .collect();
            for i in (1..bag.len()).rev() {
                let j = draw.below(i as u64 + 1) as usize;
                bag.swap(i, j);
            }
            let squares = start
                .pieces()
                .filter(|(sq, p)| {
                    p.hidden && p.color.index() == side && kinds[sq.index() as usize].is_none()
                })
                .map(|(sq, _)| sq.index())
                .collect::<Vec<_>>();
            for (sq, kind) in squares.into_iter().zip(bag) {
                kinds[sq as usize] = Some(kind);
            }
        }
        Deal {
            start: start.hash(),
            kinds,
        }
    }

    /// The reveal dealt for the piece whose step `game` awaits the reveal of.
    fn reveal(&self, game: &Jieqi) -> Option<JieqiMove> {
        let JieqiMove::Step(step) = game.moves().last()? else {
            return None;
        };
        let kind = self.kinds[step.from().index() as usize]?;
        let mv = JieqiMove::Reveal(kind);
        game.position().is_legal(mv).then_some(mv)
    }
}

/// The operating system gave no randomness.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no randomness from the system for the reveals: {0}")]
pub struct EntropyError(pub String);

impl RevealDraw {
    /// A source seeded from the operating system's entropy.
    pub fn from_os() -> Result<RevealDraw, EntropyError> {
        let mut seed = [0u8; 32];
        getrandom::fill(&mut seed).map_err(|e| EntropyError(e.to_string()))?;
        Ok(RevealDraw {
            rng: ChaCha20Rng::from_seed(seed),
            deal: None,
        })
    }

    /// A source replaying the draws of `seed` (tests, reproducible games).
    #[must_use]
    pub fn seeded(seed: u64) -> RevealDraw {
        RevealDraw {
            rng: ChaCha20Rng::seed_from_u64(seed),
            deal: None,
        }
    }

    /// A number in `0..n` (`n ≥ 1`), every value equally likely (no modulo bias).
    fn below(&mut self, n: u64) -> u64 {
        let n = n.max(1);
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.rng.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }

    /// The outcome of the chance step `game` awaits, drawn by weight; `None` when it
    /// awaits none.
    pub fn draw(&mut self, game: &AnyGame) -> Option<AnyMove> {
        if !game.awaits_chance() {
            return None;
        }
        let mut outcomes = ChanceList::new();
        game.chance_outcomes(&mut outcomes);
        let ticket = self.below(outcomes.total_weight());
        outcomes.pick(ticket)
    }

    /// The outcome of the chance step `game` awaits, as dealt (see the module docs): in
    /// jieqi the piece dealt to the square the stepping piece came from, the game's deal
    /// made on its first reveal (and again when `game` is another game); a fresh
    /// [`RevealDraw::draw`] where the deal names none. `None` when it awaits none.
    pub fn dealt(&mut self, game: &AnyGame) -> Option<AnyMove> {
        if !game.awaits_chance() {
            return None;
        }
        if let AnyGame::Jieqi(j) = game {
            if !self.deal.as_ref().is_some_and(|d| d.fits(j)) {
                self.deal = Some(Deal::of(j, self));
            }
            if let Some(mv) = self.deal.as_ref().and_then(|d| d.reveal(j)) {
                return Some(AnyMove::Jieqi(mv));
            }
        }
        self.draw(game)
    }

    /// Plays dealt outcomes ([`RevealDraw::dealt`]) while `game` awaits chance; the
    /// outcomes played.
    pub fn settle(&mut self, game: &mut AnyGame) -> Vec<AnyMove> {
        let mut played = Vec::new();
        while let Some(mv) = self.dealt(game) {
            if game.play(mv).is_err() {
                break;
            }
            played.push(mv);
        }
        played
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use banco_game::GameKind;

    #[test]
    fn draws_follow_the_pool_weights() {
        let mut game = AnyGame::new(GameKind::Jieqi).unwrap();
        let step = game.move_from_parts(25, 22, None).unwrap(); // h2e2
        game.play(step).unwrap();
        let mut draw = RevealDraw::seeded(1);
        let mut counts = [0u32; 7];
        let n = 15_000;
        for _ in 0..n {
            let kind = revealed_kind(draw.draw(&game).unwrap()).unwrap();
            counts[kind.to_xiangqi().unwrap() as usize] += 1;
        }
        assert_start_pool_weights(&counts, n);
    }

    /// `counts` (by xiangqi kind) of `n` identities follow the start pool's weights:
    /// advisor, elephant, horse, rook, cannon 2 each, pawn 5, of 15, never a king.
    fn assert_start_pool_weights(counts: &[u32; 7], n: u32) {
        let expected = [0.0, 2.0, 2.0, 2.0, 2.0, 2.0, 5.0].map(|w| w / 15.0 * f64::from(n));
        let chi2: f64 = (1..7)
            .map(|k| (f64::from(counts[k]) - expected[k]).powi(2) / expected[k])
            .sum();
        assert_eq!(counts[0], 0, "never a king");
        // 5 degrees of freedom: 20.5 is the 0.999 quantile.
        assert!(chi2 < 20.5, "chi-square {chi2} for {counts:?}");
    }

    #[test]
    fn dealt_identities_follow_the_pool_weights() {
        // Over many deals, the piece on h2 is each kind as often as the pool says.
        let mut game = AnyGame::new(GameKind::Jieqi).unwrap();
        let step = game.move_from_parts(25, 22, None).unwrap(); // h2e2
        game.play(step).unwrap();
        let mut counts = [0u32; 7];
        let n: u32 = 6_000;
        for seed in 0..u64::from(n) {
            let kind = revealed_kind(RevealDraw::seeded(seed).dealt(&game).unwrap()).unwrap();
            counts[kind.to_xiangqi().unwrap() as usize] += 1;
        }
        assert_start_pool_weights(&counts, n);
    }

    #[test]
    fn seeded_draws_repeat_and_settle_plays_them() {
        let play = |seed| {
            let mut game = AnyGame::new(GameKind::Jieqi).unwrap();
            let mut draw = RevealDraw::seeded(seed);
            for (f, t) in [(25, 22), (64, 67), (19, 37)] {
                let mv = game.move_from_parts(f, t, None).unwrap();
                game.play(mv).unwrap();
                assert_eq!(draw.settle(&mut game).len(), 1);
            }
            game.history()
        };
        assert_eq!(play(5), play(5));
        assert_eq!(play(5).len(), 6);
        let differ = (0..8).any(|s| play(s) != play(5));
        assert!(differ, "other seeds draw other pieces");
        // Nothing to settle when no reveal is pending.
        let mut game = AnyGame::new(GameKind::Jieqi).unwrap();
        assert!(RevealDraw::seeded(1).settle(&mut game).is_empty());
        assert!(RevealDraw::from_os().unwrap().draw(&game).is_none());
    }

    #[test]
    fn pool_sides_follow_the_board_and_drop_revealed_kinds() {
        // Both pools at the start, one kind of Red's used up (as after two reveals).
        let mut p = pools(&AnyGame::new(GameKind::Jieqi).unwrap());
        p[0].entries[0].count = 0;
        let sides = pool_sides(&p, false).unwrap();
        assert_eq!(
            (sides.top.color, sides.bottom.color),
            (Color::Black, Color::Red),
            "the first player below"
        );
        let flipped = pool_sides(&p, true).unwrap();
        assert_eq!(
            (flipped.top.color, flipped.bottom.color),
            (Color::Red, Color::Black)
        );
        assert_eq!(flipped.bottom, sides.top);
        assert_eq!(
            (sides.bottom.entries.len(), sides.top.entries.len()),
            (5, 6),
            "the used-up kind is left out"
        );
        for (side, pool) in [(&sides.bottom, &p[0]), (&sides.top, &p[1])] {
            assert!(side.entries.iter().all(|e| e.count > 0));
            let kept: Vec<_> = pool.entries.iter().filter(|e| e.count > 0).collect();
            assert_eq!(side.entries.iter().collect::<Vec<_>>(), kept, "same order");
            assert_eq!((side.total, side.face_down), (pool.total, pool.face_down));
        }
        assert!(pool_sides(&[], false).is_none());
        assert!(pool_sides(&p[..1], false).is_none());
    }

    #[test]
    fn pools_of_both_sides() {
        let game = AnyGame::new(GameKind::Jieqi).unwrap();
        let p = pools(&game);
        assert_eq!(p.len(), 2);
        assert_eq!(
            (p[1].color, p[1].total, p[1].face_down),
            (Color::Black, 15, 15)
        );
        assert_eq!(p[0].entries.len(), 6);
        assert_eq!(p[0].entries[5].count, 5);
        assert_eq!(p[0].entries[5].piece.kind, PieceKind::Pawn);
        assert!(pools(&AnyGame::new(GameKind::Xiangqi).unwrap()).is_empty());
    }
}
