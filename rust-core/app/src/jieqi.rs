//! Jieqi for front ends: the two sides' pools as a screen shows them ([`pools`]), and the
//! draw of reveals on one device ([`RevealDraw`]).
//!
//! A game against the computer has no peer to deal fairly with, so the identities of the
//! face-down pieces are dealt here, as the pieces of a real board are shuffled before they
//! are set out face down: [`RevealDraw::deal`] deals the start position's pools onto its
//! face-down squares (keeping what its moves already revealed), with a ChaCha20 generator
//! seeded from the operating system's entropy (or from a seed a test injects), and a
//! reveal turns up the piece dealt to the square the stepping piece came from. Each
//! identity is as likely as a draw from the mover's pool weighted by the counts
//! ([`RevealDraw::draw`]). The deal lives in the session, never in the position: the
//! engine searches over the pools only and cannot learn an identity early.
//!
//! Taking moves back follows one rule: it can neither draw a reveal again nor show the
//! player a piece they have not seen in the line on the board.
//!
//! - The player's own pieces stay as dealt for the whole game: the same step again, after
//!   undo, redo, other moves, or a save and a load, turns up the same piece, so undo cannot
//!   fish for a better one. (Undo lets the player learn their own pieces; the computer
//!   never sees an identity, and fixed pieces are the price of not drawing again.)
//! - The computer's pieces are dealt afresh ([`RevealDraw::redeal`]) whenever a reveal of
//!   one of them is taken back, from what its pool holds beyond the pieces the line on the
//!   board revealed: what the player saw in the line taken back says nothing about the
//!   pieces still face down. Redo plays the line taken back as it was (the player saw it)
//!   and the deal follows it. The price: the computer's piece in a line played again may
//!   come out differently, since it cannot be both unseen and fixed.
//! - A saved game keeps the player's deal in its [`DEAL_TAG`] tag
//!   ([`RevealDraw::deal_tag`], read back by [`RevealDraw::keep_deal`]) and never the
//!   computer's: loading deals the computer's face-down pieces afresh, as an undo does.
//!   The tag is plain text the player can read; it names only their own pieces, which undo
//!   already shows them, so the file tells them nothing that play does not (a single-player
//!   game on the player's own device cannot hide more from a determined reader, and a
//!   seed would have let them compute the computer's pieces too). A record without the
//!   tag (saved before it existed) deals the player's pieces afresh once, keeping every
//!   piece its moves and redo list revealed.
//!
//! - A two-player game on one device (the bindings' local `Game`) keeps both sides' deals,
//!   a [`DEAL_TAG`] tag each ([`RevealDraw::keep_deals`] reads them back): neither side
//!   has an opponent on the device to hide from, and save and load must not draw again.
//!
//! A seeded source ([`RevealDraw::seeded`], the command line's `--seed`) repeats all of
//! this, deals included: a game with a known seed is reproducible, not secret.
//!
//! A networked match draws through the fair reveal of banco-protocol instead.
//!
//! ```
//! use banco_app::any::AnyGame;
//! use banco_app::jieqi::{DEAL_TAG, RevealDraw, pools};
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
//! // What a save keeps: the player's deal, read back as it was.
//! let (name, text) = draw.deal_tag(&game, Color::Red).expect("dealt");
//! assert_eq!(name, DEAL_TAG);
//! assert!(text.starts_with("red a0="));
//! let mut loaded = RevealDraw::seeded(8);
//! loaded.keep_deal(&game, Color::Red, &text)?;
//! assert_eq!(loaded.deal_tag(&game, Color::Red), Some((name, text)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::any::{AnyGame, AnyMove};
use crate::pieces::{PieceInfo, PieceKind};
use banco_game::{ChanceList, Color, Game, GameKind};
use banco_xiangqi::PieceKind as XqKind;
use banco_xiangqi::jieqi::{Jieqi, JieqiMove, Pool};
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use std::fmt::Write as _;

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
    /// The pool's heading on a screen: the side and its unrevealed pieces (`Red: 15 hidden`).
    pub title: String,
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
        .map(|color| pool_view(color, pos.pool(color), pos.hidden_count(color)))
        .collect()
}

/// The view of `color`'s `pool` with `face_down` pieces on the board.
pub(crate) fn pool_view(color: Color, pool: Pool, face_down: u32) -> PoolView {
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
        face_down,
        title: format!(
            "{}: {} hidden",
            crate::any::color_name(GameKind::Jieqi, color),
            pool.total()
        ),
    }
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

/// The name of the tag in which a saved game keeps the player's deal (see the module
/// docs): their colour, then each of their face-down start squares with the piece dealt to
/// it, as `red a0=R b0=N c0=B …` (letters of the reveals: A B N R C P).
pub const DEAL_TAG: &str = "Deal";

/// The random source of reveals on one device (see the module docs).
#[derive(Clone, Debug)]
pub struct RevealDraw {
    rng: ChaCha20Rng,
    deal: Option<Deal>,
}

/// A reveal a game's moves made: the side, the square its piece stood on face down, and
/// what it turned up.
type Revealed = (usize, u8, XqKind);

/// The identities dealt to the face-down pieces of one game's start position.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Deal {
    /// The start position's hash (a deal serves one game).
    start: u64,
    /// By square index: the square the piece stood on face down at the start (each such
    /// square is one side's, so it names the side too).
    kinds: [Option<XqKind>; 90],
    /// By side: its pieces are dealt.
    dealt: [bool; 2],
}

impl Deal {
    /// A deal of `game`'s start with neither side dealt yet.
    fn empty(game: &Jieqi) -> Deal {
        Deal {
            start: game.start_position().hash(),
            kinds: [None; 90],
            dealt: [false; 2],
        }
    }

    /// The reveals `game`'s moves made.
    fn revealed(game: &Jieqi) -> Vec<Revealed> {
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

    /// The face-down squares of `side` in `game`'s start position, a0 first.
    fn squares(game: &Jieqi, side: usize) -> Vec<u8> {
        game.start_position()
            .pieces()
            .filter(|(_, p)| p.hidden && p.color.index() == side)
            .map(|(sq, _)| sq.index())
            .collect()
    }

    /// True if `side` is dealt and each of its reveals in `revealed` came out as dealt.
    fn fits(&self, revealed: &[Revealed], side: usize) -> bool {
        self.dealt[side]
            && revealed
                .iter()
                .filter(|r| r.0 == side)
                .all(|&(_, sq, kind)| self.kinds[sq as usize] == Some(kind))
    }

    /// Deals `side`'s face-down squares of `game`'s start afresh: the identities
    /// `revealed` names kept, the rest of its pool shuffled onto the other squares (a pool
    /// larger than the squares — pieces captured unseen in a set-up position — leaves some
    /// identities out).
    fn deal_side(
        &mut self,
        game: &Jieqi,
        revealed: &[Revealed],
        side: usize,
        rng: &mut RevealDraw,
    ) {
        let squares = Deal::squares(game, side);
        for &sq in &squares {
            self.kinds[sq as usize] = None;
        }
        let mut pool = game
            .start_position()
            .pool(Color::ALL[side])
            .iter()
            .collect::<Vec<_>>();
        for &(_, sq, kind) in revealed.iter().filter(|r| r.0 == side) {
            if let Some(entry) = pool.iter_mut().find(|(k, n)| *k == kind && *n > 0) {
                entry.1 -= 1;
                self.kinds[sq as usize] = Some(kind);
            }
        }
        let mut bag: Vec<XqKind> = pool
            .iter()
            .flat_map(|&(k, n)| core::iter::repeat_n(k, n as usize))
            .collect();
        for i in (1..bag.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            bag.swap(i, j);
        }
        let open = squares
            .into_iter()
            .filter(|&sq| self.kinds[sq as usize].is_none())
            .collect::<Vec<_>>();
        for (sq, kind) in open.into_iter().zip(bag) {
            self.kinds[sq as usize] = Some(kind);
        }
        self.dealt[side] = true;
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

/// A [`DEAL_TAG`] that cannot be the player's deal of the game it came with (the saved
/// game is refused; see [`RevealDraw::keep_deal`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the `{DEAL_TAG}` tag {0}")]
pub struct DealError(pub String);

/// `game` with its `redo` moves played again (the next to redo last, as a saved record
/// keeps them): the line whose every reveal the player saw, which a deal read back from a
/// record must agree with ([`RevealDraw::keep_deal`]).
#[must_use]
pub fn line_with_redo(game: &AnyGame, redo: &[AnyMove]) -> AnyGame {
    let mut line = game.clone();
    for &mv in redo.iter().rev() {
        if line.play(mv).is_err() {
            break;
        }
    }
    line
}

/// The side whose face-down piece `game` awaits the identity of (jieqi only).
pub(crate) fn pending_side(game: &AnyGame) -> Option<Color> {
    let pos = game.as_jieqi()?.position();
    pos.piece_at(pos.pending()?).map(|p| p.color)
}

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

    /// Makes `game`'s deal now, if it has none yet (nothing for other games): each side
    /// not dealt, or whose reveals in `game` did not come out as dealt (a line taken back
    /// and redone after [`RevealDraw::redeal`], another game), is dealt afresh, keeping
    /// what `game`'s moves revealed.
    pub fn deal(&mut self, game: &AnyGame) {
        if let AnyGame::Jieqi(j) = game {
            self.fit(j);
        }
    }

    fn fit(&mut self, game: &Jieqi) {
        let revealed = Deal::revealed(game);
        let mut deal = match self.deal.take() {
            Some(d) if d.start == game.start_position().hash() => d,
            _ => Deal::empty(game),
        };
        for side in 0..2 {
            if !deal.fits(&revealed, side) {
                deal.deal_side(game, &revealed, side, self);
            }
        }
        self.deal = Some(deal);
    }

    /// Deals `side`'s face-down pieces afresh from what its pool holds beyond the pieces
    /// `game`'s moves revealed (those stay): after a reveal of one of them was taken back,
    /// so that what was seen in that line says nothing of the pieces still face down (see
    /// the module docs). Nothing for other games.
    pub fn redeal(&mut self, game: &AnyGame, side: Color) {
        let AnyGame::Jieqi(j) = game else {
            return;
        };
        self.fit(j);
        if let Some(mut deal) = self.deal.take() {
            deal.deal_side(j, &Deal::revealed(j), side.index(), self);
            self.deal = Some(deal);
        }
    }

    /// The [`DEAL_TAG`] tag of `side`'s deal in `game` (`None` for other games or before
    /// the deal is made): what a saved game keeps so that loading it cannot draw again.
    #[must_use]
    pub fn deal_tag(&self, game: &AnyGame, side: Color) -> Option<(String, String)> {
        let j = game.as_jieqi()?;
        let deal = self
            .deal
            .as_ref()
            .filter(|d| d.start == j.start_position().hash() && d.dealt[side.index()])?;
        let mut text = side.to_string();
        for sq in Deal::squares(j, side.index()) {
            if let (Some(kind), Some(square)) = (
                deal.kinds[sq as usize],
                banco_xiangqi::Square::from_index(sq),
            ) {
                let _ = write!(text, " {square}={}", kind.letter());
            }
        }
        Some((DEAL_TAG.to_owned(), text))
    }

    /// The side whose deal the text of a [`DEAL_TAG`] tag names (its first word), if any.
    #[must_use]
    pub fn tag_side(text: &str) -> Option<Color> {
        let first = text.split_whitespace().next()?;
        Color::ALL.into_iter().find(|c| c.to_string() == first)
    }

    /// Takes the deals of every [`DEAL_TAG`] tag among `tags` (a saved game's) for the
    /// game `line`, as [`RevealDraw::keep_deal`] does each: a two-player game on one
    /// device keeps both sides' deals. Tags of other names are passed over.
    ///
    /// # Errors
    /// [`DealError`] when a tag names no side, names one twice, or is refused by
    /// [`RevealDraw::keep_deal`]; the deal this source held stays then.
    pub fn keep_deals(
        &mut self,
        line: &AnyGame,
        tags: &[(String, String)],
    ) -> Result<(), DealError> {
        let before = self.deal.clone();
        let mut seen = Vec::new();
        let result = tags
            .iter()
            .filter(|(k, _)| k == DEAL_TAG)
            .try_for_each(|(_, text)| {
                let side = RevealDraw::tag_side(text).ok_or_else(|| {
                    DealError("names no side: it starts with neither red nor black".to_owned())
                })?;
                if seen.contains(&side) {
                    return Err(DealError(format!("is given twice for {side}")));
                }
                seen.push(side);
                self.keep_deal(line, side, text)
            });
        if result.is_err() {
            self.deal = before;
        }
        result
    }

    /// Takes `side`'s deal from the text of a [`DEAL_TAG`] tag ([`RevealDraw::deal_tag`])
    /// for the game `line` (the saved game with its redo moves played, so that every reveal
    /// the player saw is checked). The other side's deal of the same game, if this source
    /// holds one (the other side's tag read first), stays; otherwise that side is dealt
    /// when the game asks.
    ///
    /// # Errors
    /// [`DealError`] (nothing changed) when `line` is no jieqi game or the text is not a
    /// deal of `side`'s face-down start squares from its pool, or disagrees with a reveal
    /// `line` made.
    pub fn keep_deal(&mut self, line: &AnyGame, side: Color, text: &str) -> Result<(), DealError> {
        let j = line
            .as_jieqi()
            .ok_or_else(|| DealError("belongs to jieqi games only".to_owned()))?;
        let mut words = text.split_whitespace();
        let colour = words.next().unwrap_or_default();
        if colour != side.to_string() {
            return Err(DealError(format!(
                "names `{colour}`'s pieces, but the player plays {side}"
            )));
        }
        let s = side.index();
        let squares = Deal::squares(j, s);
        // The other side's deal of this game, if one is made (a tag of each side read in
        // turn), stays.
        let mut deal = match &self.deal {
            Some(d) if d.start == j.start_position().hash() => d.clone(),
            _ => Deal::empty(j),
        };
        for &sq in &squares {
            deal.kinds[sq as usize] = None;
        }
        let mut left = j.start_position().pool(side).iter().collect::<Vec<_>>();
        for word in words {
            let bad = || DealError(format!("has `{word}`, not a square and a piece like h2=C"));
            let (sq, letter) = word.split_once('=').ok_or_else(bad)?;
            let sq: banco_xiangqi::Square = sq.parse().map_err(|_| bad())?;
            let mut letters = letter.chars();
            let (Some(c), None) = (letters.next(), letters.next()) else {
                return Err(bad());
            };
            let kind = banco_xiangqi::Piece::from_fen_char(c).ok_or_else(bad)?.kind;
            let slot = &mut deal.kinds[sq.index() as usize];
            if !squares.contains(&sq.index()) || slot.is_some() {
                return Err(DealError(format!(
                    "names {sq} twice or where {side} had no face-down piece"
                )));
            }
            let entry = left
                .iter_mut()
                .find(|(k, n)| *k == kind && *n > 0)
                .ok_or_else(|| DealError(format!("deals more {}s than {side} has", kind.name())))?;
            entry.1 -= 1;
            *slot = Some(kind);
        }
        if let Some(sq) = squares
            .iter()
            .find(|&&sq| deal.kinds[sq as usize].is_none())
        {
            let square = banco_xiangqi::Square::from_index(*sq).map(|q| q.to_string());
            return Err(DealError(format!(
                "deals nothing to {}",
                square.unwrap_or_default()
            )));
        }
        deal.dealt[s] = true;
        if !deal.fits(&Deal::revealed(j), s) {
            return Err(DealError(
                "disagrees with a piece the moves revealed".to_owned(),
            ));
        }
        self.deal = Some(deal);
        Ok(())
    }

    /// The outcome of the chance step `game` awaits, as dealt (see the module docs): in
    /// jieqi the piece dealt to the square the stepping piece came from (the deal made
    /// first if need be, [`RevealDraw::deal`]); a fresh [`RevealDraw::draw`] where the deal
    /// names none. `None` when it awaits none.
    pub fn dealt(&mut self, game: &AnyGame) -> Option<AnyMove> {
        if !game.awaits_chance() {
            return None;
        }
        if let AnyGame::Jieqi(j) = game {
            self.fit(j);
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

    /// [`RevealDraw::settle`] for a game with moves to redo: a reveal `game` awaits is the
    /// one undo took back when the last of `redo` is that reveal again (redo plays the line
    /// as it was; it is taken off `redo`), else the piece dealt (and `redo` is dropped: the
    /// line has left it). The last reveal played, if any.
    pub fn settle_redo(&mut self, game: &mut AnyGame, redo: &mut Vec<AnyMove>) -> Option<AnyMove> {
        let mut last = None;
        while game.awaits_chance() {
            let again = redo
                .last()
                .copied()
                .filter(|&m| revealed_kind(m).is_some() && game.is_legal(m));
            let mv = if let Some(m) = again {
                redo.pop();
                m
            } else {
                redo.clear();
                self.dealt(game)?
            };
            game.play(mv).ok()?;
            last = Some(mv);
        }
        last
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

    /// Plays `step` (coordinates) and settles its reveal from `draw`.
    fn step(game: &mut AnyGame, draw: &mut RevealDraw, step: &str) {
        let mv = crate::notation::parse_move(game, step, None).unwrap();
        game.play(mv).unwrap();
        assert_eq!(draw.settle(game).len(), 1);
    }

    /// `side`'s deal as its words (`a0=R`…), and its letters sorted (the pool dealt).
    fn dealt(draw: &RevealDraw, game: &AnyGame, side: Color) -> (Vec<String>, Vec<char>) {
        let (name, text) = draw.deal_tag(game, side).unwrap();
        assert_eq!(name, DEAL_TAG);
        let words: Vec<String> = text.split(' ').skip(1).map(str::to_owned).collect();
        let mut letters: Vec<char> = words.iter().filter_map(|w| w.chars().last()).collect();
        letters.sort_unstable();
        (words, letters)
    }

    #[test]
    fn redeal_deals_one_side_again_from_its_whole_pool() {
        let mut game = AnyGame::new(GameKind::Jieqi).unwrap();
        let mut draw = RevealDraw::seeded(2);
        draw.deal(&game);
        step(&mut game, &mut draw, "h2e2");
        step(&mut game, &mut draw, "a6a5");
        let red = draw.deal_tag(&game, Color::Red).unwrap();
        let (black, pool) = dealt(&draw, &game, Color::Black);
        assert_eq!(pool.len(), 15);
        let a6 = black.iter().find(|w| w.starts_with("a6=")).unwrap().clone();
        let mut changed = false;
        for _ in 0..8 {
            draw.redeal(&game, Color::Black);
            assert_eq!(draw.deal_tag(&game, Color::Red), Some(red.clone()));
            let (now, letters) = dealt(&draw, &game, Color::Black);
            assert!(now.contains(&a6), "the revealed piece stays");
            assert_eq!(letters, pool, "the same pool, dealt again");
            changed |= now != black;
        }
        assert!(changed, "the other pieces are dealt afresh");
    }

    #[test]
    fn a_side_whose_line_came_out_otherwise_is_dealt_again_around_it() {
        // A line redone after a redeal shows the computer's piece as it came out then: the
        // deal follows it, for that side only.
        let mut game = AnyGame::new(GameKind::Jieqi).unwrap();
        let mut draw = RevealDraw::seeded(5);
        draw.deal(&game);
        step(&mut game, &mut draw, "h2e2");
        let red = draw.deal_tag(&game, Color::Red);
        let (black, pool) = dealt(&draw, &game, Color::Black);
        let a6 = black.iter().find(|w| w.starts_with("a6=")).unwrap();
        let other = if a6.ends_with('P') { "=R" } else { "=P" };
        let mv = crate::notation::parse_move(&game, "a6a5", None).unwrap();
        game.play(mv).unwrap();
        let reveal = crate::notation::parse_move(&game, other, None).unwrap();
        game.play(reveal).unwrap();
        draw.deal(&game);
        assert_eq!(
            draw.deal_tag(&game, Color::Red),
            red,
            "the player's side is kept"
        );
        let (now, letters) = dealt(&draw, &game, Color::Black);
        assert!(now.contains(&format!("a6{other}")), "{now:?}");
        assert_eq!(letters, pool);
    }

    #[test]
    fn keep_deal_belongs_to_jieqi() {
        let game = AnyGame::new(GameKind::Xiangqi).unwrap();
        let mut draw = RevealDraw::seeded(1);
        assert!(draw.keep_deal(&game, Color::Red, "red").is_err());
        draw.deal(&game);
        assert_eq!(draw.deal_tag(&game, Color::Red), None);
        draw.redeal(&game, Color::Red);
        assert_eq!(draw.deal_tag(&game, Color::Red), None);
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
