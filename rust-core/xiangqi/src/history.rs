//! The history behind a game on the xiangqi board (xiangqi and jieqi alike): the start
//! position, the current one, and every ply played with what taking it back and the
//! repetition judge need. [`crate::Xiangqi`] and [`crate::jieqi::Jieqi`] are this history
//! plus their rules.

use crate::rules::{Verdict, perpetual_check_verdict};
use banco_game::Color;

/// A position the history can play on.
pub(crate) trait Replay: Clone {
    /// A ply.
    type Move: Copy;
    /// What [`Replay::make`] returns for [`Replay::unmake`].
    type Undo: Copy;
    /// Plays a legal ply.
    fn make(&mut self, mv: Self::Move) -> Self::Undo;
    /// Takes back the ply `make` returned `undo` for.
    fn unmake(&mut self, mv: Self::Move, undo: Self::Undo);
    /// The position's hash (what repetitions compare).
    fn hash(&self) -> u64;
    /// The side to move is in check.
    fn in_check(&self) -> bool;
    /// The side to move.
    fn side_to_move(&self) -> Color;
    /// True if no position before `mv` (about to be played here) can come back after it,
    /// whatever it captures (captures are irreversible anyway).
    fn irreversible(&self, mv: Self::Move) -> bool;
    /// True if the ply `undo` belongs to captured a piece.
    fn captured(undo: Self::Undo) -> bool;
}

/// One ply played, with what undoing it and the repetition judge need.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Played<M, U> {
    pub(crate) mv: M,
    pub(crate) undo: U,
    /// Hash of the position before the ply.
    pub(crate) hash_before: u64,
    /// After the ply the side to move is in check.
    pub(crate) check: bool,
    /// No earlier position can come back (a capture, or what [`Replay::irreversible`] says).
    pub(crate) irreversible: bool,
}

/// A position with the plies that led to it from where the game started.
#[derive(Clone, Debug)]
pub(crate) struct History<P: Replay> {
    pos: P,
    start: P,
    plies: Vec<Played<P::Move, P::Undo>>,
}

impl<P: Replay> History<P> {
    /// A history starting (and standing) at `pos`.
    pub(crate) fn new(pos: P) -> History<P> {
        History {
            start: pos.clone(),
            pos,
            plies: Vec::with_capacity(256),
        }
    }

    /// The current position.
    #[inline]
    pub(crate) fn pos(&self) -> &P {
        &self.pos
    }

    /// The position the game started from.
    pub(crate) fn start(&self) -> &P {
        &self.start
    }

    /// The moves played, oldest first.
    pub(crate) fn moves(&self) -> impl ExactSizeIterator<Item = P::Move> + '_ {
        self.plies.iter().map(|p| p.mv)
    }

    /// Plays a legal ply and records it.
    #[inline]
    pub(crate) fn push(&mut self, mv: P::Move) -> P::Undo {
        let hash_before = self.pos.hash();
        let irreversible = self.pos.irreversible(mv);
        let undo = self.pos.make(mv);
        self.plies.push(Played {
            mv,
            undo,
            hash_before,
            check: self.pos.in_check(),
            irreversible: irreversible || P::captured(undo),
        });
        undo
    }

    /// Takes back the last ply, which was `mv` with `undo`.
    #[inline]
    pub(crate) fn pop(&mut self, mv: P::Move, undo: P::Undo) {
        self.plies.pop();
        self.pos.unmake(mv, undo);
    }

    /// Takes back the last ply; `None` at the start.
    pub(crate) fn undo_last(&mut self) -> Option<P::Move> {
        let p = self.plies.pop()?;
        self.pos.unmake(p.mv, p.undo);
        Some(p.mv)
    }

    /// True if the last ply left the side to move in check; `None` at the start.
    #[inline]
    pub(crate) fn last_check(&self) -> Option<bool> {
        self.plies.last().map(|p| p.check)
    }

    /// Plies played.
    pub(crate) fn len(&self) -> usize {
        self.plies.len()
    }

    /// Walks back through the reversible plies, the same side to move each time: the
    /// occurrences of the current position found (1 for itself) until `wanted` are found,
    /// and the span in plies back to the last one found (0 if none).
    pub(crate) fn repetition_span(&self, wanted: usize) -> (usize, usize) {
        let key = self.pos.hash();
        let reversible = self
            .plies
            .iter()
            .rev()
            .take_while(|p| !p.irreversible)
            .count();
        let mut found = 1;
        let mut span = 0;
        let mut d = 2;
        while d <= reversible && found < wanted {
            if self
                .plies
                .get(self.plies.len() - d)
                .is_some_and(|p| p.hash_before == key)
            {
                found += 1;
                span = d;
            }
            d += 2;
        }
        (found, span)
    }

    /// The last `span` plies (a repetition cycle).
    pub(crate) fn cycle(&self, span: usize) -> &[Played<P::Move, P::Undo>] {
        &self.plies[self.plies.len().saturating_sub(span)..]
    }

    /// Who played ply `i` of the last `span` plies.
    pub(crate) fn mover_in_cycle(&self, span: usize, i: usize) -> Color {
        let now = self.pos.side_to_move();
        if (span - i).is_multiple_of(2) {
            now
        } else {
            now.other()
        }
    }

    /// The perpetual-check verdict over the last `span` plies: a side that checked with
    /// every one of its plies loses (both sides: a draw); `None` if neither did.
    pub(crate) fn perpetual_check(&self, span: usize) -> Option<Verdict> {
        let mut checks = [true; 2];
        for (i, p) in self.cycle(span).iter().enumerate() {
            if !p.check {
                checks[self.mover_in_cycle(span, i).index()] = false;
            }
        }
        perpetual_check_verdict(checks)
    }
}
