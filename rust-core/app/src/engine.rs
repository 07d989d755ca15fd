//! [`AnyEngine`]: the computer player for every game — one searcher per game, made when
//! first needed, behind one call: a move at a level, or an analysis at full strength.
//!
//! ```
//! use banco_app::any::{AnyGame, AnyRules};
//! use banco_app::engine::AnyEngine;
//! use banco_engine::{Level, Limits};
//! use banco_game::GameKind;
//! use std::sync::atomic::AtomicBool;
//! let game = AnyGame::from_fen(GameKind::Xiangqi, "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1")?;
//! let mut engine = AnyEngine::new(1);
//! let stop = AtomicBool::new(false);
//! let r = engine.analyse(&game, &AnyRules::usual(GameKind::Xiangqi), &Limits::depth(3), &stop, |_| {});
//! assert_eq!(r.best_move.map(|m| m.to_string()).as_deref(), Some("e1d1"));
//! let played = engine.play(&game, &AnyRules::usual(GameKind::Xiangqi), Level::new(3)?, &Limits::depth(3), 7, &stop);
//! assert!(played.best_move.is_some());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::any::{AnyGame, AnyMove, AnyRules};
use banco_engine::score::Score;
use banco_engine::{
    ChessNode, JieqiNode, Level, Limits, SearchGame, SearchResult, Searcher, XiangqiNode, level,
};
use banco_game::{Game, GameKind};
use std::sync::atomic::AtomicBool;

/// What a search found, in the dispatch's move type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineResult {
    /// The move to play; `None` when the side to move has none.
    pub best_move: Option<AnyMove>,
    /// Score for the side to move.
    pub score: Score,
    /// Principal variation, starting with the best move.
    pub pv: Vec<AnyMove>,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds used.
    pub time_ms: u64,
}

/// Progress of an analysis (after every completed iteration).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineProgress {
    /// Iteration depth.
    pub depth: u32,
    /// Score for the side to move.
    pub score: Score,
    /// Principal variation.
    pub pv: Vec<AnyMove>,
    /// Nodes so far.
    pub nodes: u64,
    /// Milliseconds so far.
    pub time_ms: u64,
}

fn convert<M: Copy>(r: SearchResult<M>, wrap: impl Fn(M) -> AnyMove) -> EngineResult {
    EngineResult {
        best_move: r.best_move.map(&wrap),
        score: r.score,
        pv: r.pv.into_iter().map(&wrap).collect(),
        depth: r.depth,
        nodes: r.nodes,
        time_ms: r.time_ms,
    }
}

/// The searchers of every game (see the module docs).
pub struct AnyEngine {
    hash_mib: usize,
    threads: usize,
    xiangqi: Option<Searcher<XiangqiNode>>,
    chess: Option<Searcher<ChessNode>>,
    jieqi: Option<Searcher<JieqiNode>>,
}

/// A searcher with a table of `hash_mib` MiB searching on `threads` threads.
fn made<S: SearchGame>(hash_mib: usize, threads: usize) -> Searcher<S> {
    let mut s = Searcher::new(hash_mib);
    s.set_threads(threads);
    s
}

/// The level's move from `searcher` (made on first use).
fn play_with<S: SearchGame>(
    searcher: &mut Option<Searcher<S>>,
    (hash_mib, threads): (usize, usize),
    game: &S::Game,
    rules: &<S::Game as Game>::Rules,
    args: (Level, &Limits, u64, &AtomicBool),
    wrap: impl Fn(S::Move) -> AnyMove,
) -> EngineResult {
    let (level, limits, seed, stop) = args;
    let s = searcher.get_or_insert_with(|| made(hash_mib, threads));
    convert(level::play(s, game, rules, level, limits, seed, stop), wrap)
}

/// A full-strength search with `searcher` (made on first use).
fn analyse_with<S: SearchGame>(
    searcher: &mut Option<Searcher<S>>,
    (hash_mib, threads): (usize, usize),
    game: &S::Game,
    rules: &<S::Game as Game>::Rules,
    args: (&Limits, &AtomicBool),
    on_progress: &mut dyn FnMut(&EngineProgress),
    wrap: impl Fn(S::Move) -> AnyMove,
) -> EngineResult {
    let (limits, stop) = args;
    let s = searcher.get_or_insert_with(|| made(hash_mib, threads));
    let r = s.search(game, rules, limits, stop, |i| {
        on_progress(&EngineProgress {
            depth: i.depth,
            score: i.score,
            pv: i.pv.iter().copied().map(&wrap).collect(),
            nodes: i.nodes,
            time_ms: i.time_ms,
        });
    });
    convert(r, wrap)
}

impl AnyEngine {
    /// An engine whose searcher uses `hash_mib` MiB (1–1024) of transposition table. One
    /// searcher is kept at a time, for the game searched last: a search of another game
    /// drops it before making its own, so the tables never take more than `hash_mib` MiB
    /// whichever games are searched.
    #[must_use]
    pub fn new(hash_mib: usize) -> AnyEngine {
        AnyEngine {
            hash_mib: hash_mib.clamp(1, 1024),
            threads: 1,
            xiangqi: None,
            chess: None,
            jieqi: None,
        }
    }

    /// Searches on `threads` threads from the next search on (Lazy SMP; 1 to
    /// [`MAX_THREADS`](banco_engine::smp::MAX_THREADS); 1, deterministic, by default).
    /// [`banco_engine::smp::default_threads`] is the usual choice on a phone. Analysis and
    /// level 10 use them; the levels below always search on one thread
    /// ([`banco_engine::level`]: their caps and moves stay the ladder's).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, banco_engine::smp::MAX_THREADS);
        if let Some(s) = &mut self.xiangqi {
            s.set_threads(self.threads);
        }
        if let Some(s) = &mut self.chess {
            s.set_threads(self.threads);
        }
        if let Some(s) = &mut self.jieqi {
            s.set_threads(self.threads);
        }
    }

    /// Threads of a search.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Forgets everything learnt (tables, histories): call between unrelated games.
    pub fn clear(&mut self) {
        if let Some(s) = &mut self.xiangqi {
            s.clear();
        }
        if let Some(s) = &mut self.chess {
            s.clear();
        }
        if let Some(s) = &mut self.jieqi {
            s.clear();
        }
    }

    /// Drops the searchers of every game but `kind`'s (see [`AnyEngine::new`]).
    fn keep_only(&mut self, kind: GameKind) {
        if kind != GameKind::Xiangqi {
            self.xiangqi = None;
        }
        if kind != GameKind::Chess {
            self.chess = None;
        }
        if kind != GameKind::Jieqi {
            self.jieqi = None;
        }
    }

    /// The move the computer plays at `level` (lower levels search less and choose among
    /// the near-best moves with the seeded draw of `seed`). Rules of another game than
    /// `game`'s are replaced by the game's usual rules.
    pub fn play(
        &mut self,
        game: &AnyGame,
        rules: &AnyRules,
        level: Level,
        limits: &Limits,
        seed: u64,
        stop: &AtomicBool,
    ) -> EngineResult {
        let args = (level, limits, seed, stop);
        self.keep_only(game.kind());
        match game {
            AnyGame::Xiangqi(g) => play_with(
                &mut self.xiangqi,
                (self.hash_mib, self.threads),
                g,
                &rules.xiangqi(),
                args,
                AnyMove::Xiangqi,
            ),
            AnyGame::Chess(g) => play_with(
                &mut self.chess,
                (self.hash_mib, self.threads),
                g,
                &rules.chess(),
                args,
                AnyMove::Chess,
            ),
            AnyGame::Jieqi(g) => play_with(
                &mut self.jieqi,
                (self.hash_mib, self.threads),
                g,
                &rules.xiangqi(),
                args,
                AnyMove::Jieqi,
            ),
        }
    }

    /// Full-strength analysis for the side to move; `on_progress` hears every iteration.
    pub fn analyse(
        &mut self,
        game: &AnyGame,
        rules: &AnyRules,
        limits: &Limits,
        stop: &AtomicBool,
        mut on_progress: impl FnMut(&EngineProgress),
    ) -> EngineResult {
        let args = (limits, stop);
        self.keep_only(game.kind());
        match game {
            AnyGame::Xiangqi(g) => analyse_with(
                &mut self.xiangqi,
                (self.hash_mib, self.threads),
                g,
                &rules.xiangqi(),
                args,
                &mut on_progress,
                AnyMove::Xiangqi,
            ),
            AnyGame::Chess(g) => analyse_with(
                &mut self.chess,
                (self.hash_mib, self.threads),
                g,
                &rules.chess(),
                args,
                &mut on_progress,
                AnyMove::Chess,
            ),
            AnyGame::Jieqi(g) => analyse_with(
                &mut self.jieqi,
                (self.hash_mib, self.threads),
                g,
                &rules.xiangqi(),
                args,
                &mut on_progress,
                AnyMove::Jieqi,
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn chess_engine_finds_mate() {
        // Scholar's mate pattern: Qxf7 mates.
        let game = AnyGame::from_fen(
            GameKind::Chess,
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        )
        .unwrap();
        let mut e = AnyEngine::new(1);
        let r = e.analyse(
            &game,
            &AnyRules::usual(GameKind::Chess),
            &Limits::depth(3),
            &AtomicBool::new(false),
            |_| {},
        );
        assert_eq!(
            r.best_move.map(|m| game.move_parts(m)),
            Some((21, 53, None))
        );
        assert_eq!(r.score, Score::Mate(1));
    }

    #[test]
    fn threads_apply_to_every_searcher() {
        let mut e = AnyEngine::new(1);
        assert_eq!(e.threads(), 1);
        let game =
            AnyGame::from_fen(GameKind::Xiangqi, "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1").unwrap();
        let rules = AnyRules::usual(GameKind::Xiangqi);
        let stop = AtomicBool::new(false);
        e.analyse(&game, &rules, &Limits::depth(2), &stop, |_| {});
        // Set after the xiangqi searcher exists, and before the chess one does.
        e.set_threads(2);
        assert_eq!(e.xiangqi.as_ref().map(Searcher::threads), Some(2));
        let r = e.analyse(&game, &rules, &Limits::depth(4), &stop, |_| {});
        assert_eq!(r.score, Score::Mate(1));
        let chess =
            AnyGame::from_fen(GameKind::Chess, "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
        let r = e.analyse(
            &chess,
            &AnyRules::usual(GameKind::Chess),
            &Limits::depth(3),
            &stop,
            |_| {},
        );
        assert_eq!(r.score, Score::Mate(1));
        assert_eq!(e.chess.as_ref().map(Searcher::threads), Some(2));
        e.set_threads(0);
        assert_eq!(e.threads(), 1);
    }

    /// revB: one engine used for xiangqi, chess and jieqi used to keep a table for each
    /// (3 × the size asked for).
    #[test]
    fn one_table_at_a_time_whatever_the_games() {
        let mut e = AnyEngine::new(1);
        let stop = AtomicBool::new(false);
        let tables = |e: &AnyEngine| {
            [e.xiangqi.is_some(), e.chess.is_some(), e.jieqi.is_some()]
                .into_iter()
                .filter(|&t| t)
                .count()
        };
        for kind in [GameKind::Xiangqi, GameKind::Chess, GameKind::Jieqi] {
            let game = AnyGame::new(kind).unwrap();
            let rules = AnyRules::usual(kind);
            e.analyse(&game, &rules, &Limits::depth(1), &stop, |_| {});
            let level = Level::new(1).unwrap();
            e.play(&game, &rules, level, &Limits::depth(1), 1, &stop);
            assert_eq!(tables(&e), 1, "{kind}");
        }
        assert!(e.jieqi.is_some());
    }
}
