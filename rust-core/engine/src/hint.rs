//! Hints and analysis for players of any game: the best move, its score and the principal
//! variation for the side to move.
//!
//! ```
//! use banco_engine::{hint, Limits, XiangqiSearcher, score::Score};
//! use banco_xiangqi::{RuleSet, Xiangqi};
//! use std::sync::atomic::AtomicBool;
//! let game = Xiangqi::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1").unwrap();
//! let mut searcher = XiangqiSearcher::new(1);
//! let h = hint::hint(&mut searcher, &game, &RuleSet::default(), &Limits::depth(3), &AtomicBool::new(false)).unwrap();
//! assert_eq!(h.best_move.to_string(), "e1d1");
//! assert_eq!(h.score, Score::Mate(1));
//! assert_eq!(h.text(), "e1d1 (mate in 1)");
//! ```

use crate::limits::Limits;
use crate::score::Score;
use crate::search::Searcher;
use crate::searchable::SearchGame;
use banco_game::Game;
use core::fmt;
use std::sync::atomic::AtomicBool;

/// A hint: what the engine would play and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint<M> {
    /// The suggested move.
    pub best_move: M,
    /// Its score for the side to move.
    pub score: Score,
    /// The expected continuation, starting with the suggested move.
    pub pv: Vec<M>,
    /// Depth searched.
    pub depth: u32,
}

impl<M: fmt::Display> Hint<M> {
    /// `h2e2 (+0.35)`, `e1d1 (mate in 1)` or `a0a1 (mated in 3)`.
    #[must_use]
    pub fn text(&self) -> String {
        let score = match self.score {
            Score::Cp(v) => format!("{:+.2}", f64::from(v) / 100.0),
            Score::Mate(n) if n > 0 => format!("mate in {n}"),
            Score::Mate(n) => format!("mated in {}", -n),
        };
        format!("{} ({score})", self.best_move)
    }
}

/// Full-strength analysis of `game` for the side to move; `None` when the game is over
/// (no legal move) or awaits chance.
pub fn hint<S: SearchGame>(
    searcher: &mut Searcher<S>,
    game: &S::Game,
    rules: &<S::Game as Game>::Rules,
    limits: &Limits,
    stop: &AtomicBool,
) -> Option<Hint<S::Move>> {
    let r = searcher.search(game, rules, limits, stop, |_| {});
    Some(Hint {
        best_move: r.best_move?,
        score: r.score,
        pv: r.pv,
        depth: r.depth,
    })
}
