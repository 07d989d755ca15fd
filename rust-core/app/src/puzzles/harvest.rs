//! Harvesting mate puzzles from Banco's own games: the computer plays itself at mixed
//! levels (seeded, so a run is reproducible), and every game that ends in a mate is walked
//! back from its end, position by position of the winner, while the solver still proves a
//! forced mate; the longest mate and shorter finishes of other difficulty tiers (up to
//! three per game) become candidates. Xiangqi
//! candidates are turned so that Red is to move (the convention of problem books) and
//! solved again in that form, so the stored line is the solver's own.
//!
//! `banco puzzles harvest` runs it; `banco puzzles verify` re-proves a collection.
//!
//! ```no_run
//! use banco_app::puzzles::harvest::{harvest, HarvestOptions};
//! use banco_game::GameKind;
//! let found = harvest(&HarvestOptions::new(GameKind::Xiangqi, 4, 1), |_| {});
//! for c in &found {
//!     println!("{}\t{}\t{}", c.fen, c.mate_in, c.line.join(" "));
//! }
//! ```

use crate::any::{AnyGame, AnyRules};
use crate::engine::AnyEngine;
use crate::mate;
use banco_engine::{Level, Limits};
use banco_game::{Color, Game, GameKind, MatchGame, Outcome};
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

/// How to harvest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HarvestOptions {
    /// The game.
    pub kind: GameKind,
    /// Games to play.
    pub games: u32,
    /// Seed of the first game (game `i` uses `seed + i`).
    pub seed: u64,
    /// Lowest and highest level of the players (each game draws one per side).
    pub levels: (u8, u8),
    /// Longest game, in plies.
    pub max_plies: u32,
    /// Longest mate looked for, in moves of the winner.
    pub max_mate: u32,
    /// Node budget of each proof.
    pub solve_nodes: u64,
    /// Most puzzles taken from one game (each of another tier).
    pub per_game: usize,
}

impl HarvestOptions {
    /// `games` games from `seed`, levels 3–6, mates of up to 9 moves.
    #[must_use]
    pub fn new(kind: GameKind, games: u32, seed: u64) -> HarvestOptions {
        HarvestOptions {
            kind,
            games,
            seed,
            levels: (3, 6),
            max_plies: 240,
            max_mate: 9,
            solve_nodes: 500_000,
            per_game: 3,
        }
    }
}

/// A harvested puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The position (xiangqi: Red to move), in FEN.
    pub fen: String,
    /// The solver's mate length, in moves of the side to move.
    pub mate_in: u32,
    /// The solver's line in coordinates (attacker and defender moves).
    pub line: Vec<String>,
    /// Where it came from: seed, ply and levels.
    pub source: String,
}

/// A small seeded generator (SplitMix64) for the levels of each game.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The xiangqi position turned around: ranks reversed, colours swapped, the other side to
/// move (the same problem, seen from the other player). Other games are left as they are.
#[must_use]
pub fn mirror_xiangqi_fen(fen: &str) -> String {
    let mut fields = fen.split_whitespace();
    let placement = fields.next().unwrap_or_default();
    let side = fields.next().unwrap_or("w");
    let ranks: Vec<String> = placement
        .split('/')
        .rev()
        .map(|r| {
            r.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    let side = if side == "b" { "w" } else { "b" };
    format!("{} {side} - - 0 1", ranks.join("/"))
}

/// Plays one self-play game; the game at its end.
fn self_play(
    options: &HarvestOptions,
    engine: &mut AnyEngine,
    seed: u64,
    levels: (Level, Level),
) -> Option<AnyGame> {
    let mut game = AnyGame::new(options.kind).ok()?;
    let rules = AnyRules::usual(options.kind);
    let stop = AtomicBool::new(false);
    engine.clear();
    while game.ply() < options.max_plies && game.outcome(&rules).is_none() {
        let level = if game.side_to_move() == Color::Red {
            levels.0
        } else {
            levels.1
        };
        let r = engine.play(
            &game,
            &rules,
            level,
            &Limits::depth(32),
            seed ^ u64::from(game.ply()),
            &stop,
        );
        let mv = r.best_move?;
        game.play(mv).ok()?;
    }
    Some(game)
}

/// The position of `fen` without its move counters (`… w - - 0 1`): a puzzle starts
/// afresh.
fn plain_fen(fen: &str) -> String {
    let mut f = fen.split_whitespace();
    format!(
        "{} {} - - 0 1",
        f.next().unwrap_or_default(),
        f.next().unwrap_or("w")
    )
}

/// The winner's positions from which the solver proves a forced mate, walking back from
/// the end of `game` until one is not proven: each position (without history), the ply
/// it was reached at and the mate length, shortest first.
fn walk_back(options: &HarvestOptions, game: &AnyGame) -> Vec<(AnyGame, u32, u32)> {
    let rules = AnyRules::usual(options.kind);
    let winner = match game.outcome(&rules) {
        Some(Outcome::Win { winner, .. }) if game.legal_move_vec().is_empty() => winner,
        _ => return Vec::new(),
    };
    let stop = AtomicBool::new(false);
    let mut back = game.clone();
    let mut out = Vec::new();
    let mut steps = 0;
    while back.undo_move().is_some() {
        if back.side_to_move() != winner {
            continue;
        }
        steps += 1;
        if steps > options.max_mate {
            break;
        }
        let Ok(start) = AnyGame::from_fen(options.kind, &plain_fen(&back.fen())) else {
            break;
        };
        let mut o = mate::options((steps + 2).min(options.max_mate));
        o.node_limit = Some(options.solve_nodes);
        o.hash_mib = 4;
        match mate::solve(&start, &rules, &o, &stop).mate {
            Some(n) => out.push((start, back.ply(), n)),
            None => break,
        }
    }
    out
}

/// The candidate as stored: turned to Red to move (xiangqi) and solved again.
fn candidate(options: &HarvestOptions, start: &AnyGame, source: String) -> Option<Candidate> {
    let fen = match (options.kind, start.side_to_move()) {
        (GameKind::Xiangqi, Color::Black) => mirror_xiangqi_fen(&start.fen()),
        _ => start.fen(),
    };
    let game = AnyGame::from_fen(options.kind, &fen).ok()?;
    let rules = AnyRules::usual(options.kind);
    let mut o = mate::options(options.max_mate);
    o.node_limit = Some(options.solve_nodes);
    o.hash_mib = 4;
    let stop = AtomicBool::new(false);
    let found = mate::solve(&game, &rules, &o, &stop);
    let mate_in = found.mate?;
    let puzzle = crate::puzzles::Puzzle {
        name: source.clone(),
        kind: options.kind,
        fen: game.fen(),
        mate_in,
    };
    // The solver's own line when it reaches the mate (cheap), else one built move by move.
    let line = crate::puzzles::line_text(&game, &found.line)
        .filter(|l| crate::puzzles::check_line(&puzzle, l).is_ok())
        .or_else(|| {
            let line = mate::main_line(&game, &rules, mate_in, &o, &stop)?;
            crate::puzzles::line_text(&game, &line)
        })?;
    Some(Candidate {
        fen: game.fen(),
        mate_in,
        line,
        source,
    })
}

/// Plays `options.games` games and returns the candidates, each position once;
/// `on_found` hears each as it is found (a long run can print as it goes).
pub fn harvest(options: &HarvestOptions, mut on_found: impl FnMut(&Candidate)) -> Vec<Candidate> {
    let mut engine = AnyEngine::new(16);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let (lo, hi) = (options.levels.0.clamp(1, 10), options.levels.1.clamp(1, 10));
    let (lo, hi) = (lo.min(hi), lo.max(hi));
    let span = u64::from(hi - lo) + 1;
    for i in 0..options.games {
        let seed = options.seed.wrapping_add(u64::from(i));
        let r = mix(seed);
        let pick = |x: u64| Level::new(lo + (x % span) as u8).ok();
        let (Some(red), Some(black)) = (pick(r), pick(r >> 32)) else {
            continue;
        };
        let Some(game) = self_play(options, &mut engine, seed, (red, black)) else {
            continue;
        };
        // Up to `per_game` puzzles of different tiers: the longest mate first, then the
        // shorter finishes of the same game for the easier tiers.
        let mut found = walk_back(options, &game);
        found.sort_by_key(|&(_, _, n)| core::cmp::Reverse(n));
        let mut tiers = HashSet::new();
        let mut taken = 0;
        for (start, ply, n) in found {
            if taken >= options.per_game || !tiers.insert(super::collection::Tier::of_mate(n)) {
                continue;
            }
            let source = format!(
                "Banco self-play seed {seed} ply {ply} (levels {}/{})",
                red.number(),
                black.number()
            );
            let Some(c) = candidate(options, &start, source) else {
                continue;
            };
            let key: String = c
                .fen
                .split_whitespace()
                .take(2)
                .collect::<Vec<_>>()
                .join(" ");
            if seen.insert(key) {
                taken += 1;
                on_found(&c);
                out.push(c);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn mirroring_keeps_the_problem() {
        let fen = "9/9/4Nk3/3c2p2/3r2P2/3p2B2/3p2r2/4KC3/9/9 w - - 0 1";
        let m = mirror_xiangqi_fen(fen);
        assert_eq!(m, "9/9/4kc3/3P2R2/3P2b2/3R2p2/3C2P2/4nK3/9/9 b - - 0 1");
        assert_eq!(mirror_xiangqi_fen(&m), fen);
        let rules = AnyRules::usual(GameKind::Xiangqi);
        let stop = AtomicBool::new(false);
        let a = mate::solve(
            &AnyGame::from_fen(GameKind::Xiangqi, fen).unwrap(),
            &rules,
            &mate::options(5),
            &stop,
        );
        let b = mate::solve(
            &AnyGame::from_fen(GameKind::Xiangqi, &m).unwrap(),
            &rules,
            &mate::options(5),
            &stop,
        );
        assert_eq!(a.mate, b.mate);
    }

    #[test]
    fn a_short_harvest_finds_proven_mates() {
        let mut options = HarvestOptions::new(GameKind::Xiangqi, 2, 11);
        options.levels = (1, 2);
        options.max_plies = 200;
        let found = harvest(&options, |_| {});
        assert!(!found.is_empty());
        for c in &found {
            let p = crate::puzzles::Puzzle {
                name: c.source.clone(),
                kind: GameKind::Xiangqi,
                fen: c.fen.clone(),
                mate_in: c.mate_in,
            };
            crate::puzzles::check_line(&p, &c.line).unwrap();
            assert!(c.fen.contains(" w "), "Red to move: {}", c.fen);
        }
    }
}
