//! How a [`SearchRequest`] of a [`VsComputer`] is answered — decided here once, for the
//! runner's engine thread and the command line alike: in a puzzle the computer's move is
//! the longest defence ([`mate::longest_defence`]) and a hint the next move of a proven mate
//! ([`mate::solve`]); otherwise the engine plays at the level, or analyses at full strength
//! for a hint. [`run`] finds the answer, [`VsComputer::answer_done`] hands it back.
//!
//! ```
//! use banco_app::answer::{self, SearchAnswer};
//! use banco_app::computer::{Settings, VsComputer};
//! use banco_app::engine::AnyEngine;
//! use banco_engine::Limits;
//! use banco_game::{Color, GameKind};
//! use std::sync::atomic::AtomicBool;
//!
//! let mut vs = VsComputer::new(Settings::new(GameKind::Xiangqi, Color::Red, 2)?)?;
//! vs.play_text("h2e2")?;
//! let request = vs.search_request().expect("the computer thinks");
//! let mut engine = AnyEngine::new(1);
//! let found = answer::run(&mut engine, &request, &Limits::depth(2), &AtomicBool::new(false));
//! assert!(matches!(found, SearchAnswer::Engine(_)));
//! assert!(vs.answer_done(request.id, &found));
//! assert_eq!(vs.state().moves.len(), 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::any::AnyMove;
#[cfg(doc)]
use crate::computer::VsComputer;
use crate::computer::{Job, SearchRequest};
use crate::engine::{AnyEngine, EngineResult};
use crate::mate::{self, Defence, MateSearch};
use banco_engine::Limits;
use std::sync::atomic::AtomicBool;

/// The answer to a [`SearchRequest`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchAnswer {
    /// The engine's search: the computer's move at its level, or a hint at full strength.
    Engine(EngineResult),
    /// A puzzle's defence: the reply that delays the mate longest, or one that escapes it.
    Defence(Defence),
    /// A puzzle's hint: the proven mate, whose first move is the hint (none when no mate
    /// was proven within the budget).
    Mate(MateSearch),
}

impl SearchAnswer {
    /// The move found: the computer's move or the hint.
    #[must_use]
    pub fn best_move(&self) -> Option<AnyMove> {
        match self {
            SearchAnswer::Engine(r) => r.best_move,
            SearchAnswer::Defence(d) => d.reply,
            SearchAnswer::Mate(m) => m.line.first().copied(),
        }
    }
}

/// Answers `request` (see the module docs). The engine searches within `base`, with the
/// request's move time added when `base` sets no limit of its own; a puzzle's mate searches
/// use [`mate::options`] (a node budget, so that the answer does not depend on the machine).
/// `stop` ends the search early.
pub fn run(
    engine: &mut AnyEngine,
    request: &SearchRequest,
    base: &Limits,
    stop: &AtomicBool,
) -> SearchAnswer {
    let mut limits = *base;
    if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime_ms.is_none() {
        limits.movetime_ms = Some(request.movetime_ms);
    }
    let (game, rules) = (&request.game, &request.rules);
    match (request.job, request.mate_within) {
        (Job::Move, Some(n)) => SearchAnswer::Defence(mate::longest_defence(
            game,
            rules,
            n,
            &mate::options(n),
            stop,
        )),
        (Job::Hint, Some(n)) => {
            SearchAnswer::Mate(mate::solve(game, rules, &mate::options(n), stop))
        }
        (Job::Move, None) => SearchAnswer::Engine(engine.play(
            game,
            rules,
            request.level,
            &limits,
            request.seed,
            stop,
        )),
        (Job::Hint, None) => {
            SearchAnswer::Engine(engine.analyse(game, rules, &limits, stop, |_| {}))
        }
    }
}
