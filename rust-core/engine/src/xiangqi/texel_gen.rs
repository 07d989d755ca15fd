//! Labelled positions for the [Texel tuner](super::texel) from self-play: games of the
//! engine at a fixed node count per move, each opened by a few random sane moves from a
//! seeded generator, every position after the opening resolved to a quiet one by a
//! capture-only quiescence search and labelled with the game's result from Red's side.
//! Deterministic: the same options give the same games and positions.
//!
//! ```
//! use banco_engine::xiangqi::texel_gen::{GenOptions, play_game};
//! use banco_engine::XiangqiParams;
//! let options = GenOptions { nodes: 300, max_plies: 40, ..GenOptions::default() };
//! let game = play_game(&options, 5, &XiangqiParams::default());
//! assert!(!game.positions.is_empty());
//! assert!([0.0, 0.5, 1.0].contains(&game.result));
//! assert_eq!(game, play_game(&options, 5, &XiangqiParams::default()));
//! ```
//!
//! A game ends by the rules (mate, stalemate, repetition verdicts of the Asian rules, the
//! move rule), by adjudication when both engines' scores agree on a winner by at least
//! [`GenOptions::resign`] for eight plies in a row, or as a draw after
//! [`GenOptions::max_plies`] (won by the side ahead when its score is above the resign
//! margin).

use super::XiangqiNode;
use super::eval::{XiangqiParams, evaluate};
use super::features::see_ok;
use super::values::value;
use crate::level::Rng;
use crate::limits::Limits;
use crate::search::Searcher;
use banco_game::{Color, Game, MoveList};
use banco_xiangqi::{Move, Position, RuleSet, Xiangqi};
use std::sync::atomic::AtomicBool;

/// How the self-play games are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenOptions {
    /// Node cap per move.
    pub nodes: u64,
    /// Random sane moves at the start of each game.
    pub random_plies: u32,
    /// Plies after which a game is adjudicated.
    pub max_plies: u32,
    /// Score (centipawns) that both sides must agree on for eight plies to end a game.
    pub resign: i32,
    /// Seed of game 0 (game `g` uses `seed + g`).
    pub seed: u64,
    /// Table size in MiB.
    pub hash_mib: usize,
}

impl Default for GenOptions {
    fn default() -> Self {
        GenOptions {
            nodes: 2_000,
            random_plies: 8,
            max_plies: 300,
            resign: 700,
            seed: 1,
            hash_mib: 8,
        }
    }
}

/// One self-play game's labelled positions.
#[derive(Clone, Debug, PartialEq)]
pub struct GameData {
    /// Quiet positions (not in check) met after the opening, in the order played.
    pub positions: Vec<Position>,
    /// Red's result: 1, 0.5 or 0.
    pub result: f32,
    /// Plies played.
    pub plies: u32,
}

/// A random sane move: a move that the static exchange test passes (no piece put en
/// prise), any legal move when there is none.
fn random_move(pos: &Position, rng: &mut Rng) -> Option<Move> {
    let moves = pos.legal_moves();
    let sane: Vec<Move> = moves.iter().copied().filter(|&m| see_ok(pos, m)).collect();
    let pool = if sane.is_empty() {
        moves.as_slice()
    } else {
        &sane
    };
    if pool.is_empty() {
        return None;
    }
    pool.get((rng.next_u64() % pool.len() as u64) as usize)
        .copied()
}

/// Capture-only quiescence search with stand-pat; `pv` receives the line that reaches
/// the quiet position. Losing captures (static exchange) are skipped.
fn qsearch(
    pos: &mut Position,
    mut alpha: i32,
    beta: i32,
    params: &XiangqiParams,
    depth: u32,
    pv: &mut Vec<Move>,
) -> i32 {
    pv.clear();
    let stand = evaluate(pos, params);
    if stand >= beta || depth == 0 {
        return stand;
    }
    alpha = alpha.max(stand);
    let mut caps = MoveList::new();
    pos.generate_legal_captures(&mut caps);
    let mut caps: Vec<Move> = caps.iter().copied().filter(|&m| see_ok(pos, m)).collect();
    caps.sort_by_key(|&m| {
        let victim = pos.captured_kind(m).map_or(0, |k| value(k).order);
        let attacker = pos.moved_kind(m).map_or(0, |k| value(k).order);
        -(victim * 16 - attacker)
    });
    let mut child = Vec::new();
    for mv in caps {
        let undo = pos.make(mv);
        let score = -qsearch(pos, -beta, -alpha, params, depth - 1, &mut child);
        pos.unmake(mv, undo);
        if score > alpha {
            alpha = score;
            pv.clear();
            pv.push(mv);
            pv.extend_from_slice(&child);
            if score >= beta {
                break;
            }
        }
    }
    alpha
}

/// The quiet position that `pos` resolves to (the end of the quiescence search's line),
/// or `None` when it, or that position, is in check.
#[must_use]
pub fn quiet(pos: &Position, params: &XiangqiParams) -> Option<Position> {
    if pos.in_check() {
        return None;
    }
    let mut work = pos.clone();
    let mut pv = Vec::new();
    qsearch(&mut work, -100_000, 100_000, params, 12, &mut pv);
    let mut leaf = pos.clone();
    for mv in pv {
        leaf.make(mv);
    }
    (!leaf.in_check()).then_some(leaf)
}

/// Plays game number `index` of a run (seed `options.seed + index`) with `params`.
#[must_use]
pub fn play_game(options: &GenOptions, index: u64, params: &XiangqiParams) -> GameData {
    let mut searcher = Searcher::<XiangqiNode>::with_params(options.hash_mib, params.clone());
    let rules = RuleSet::default();
    let mut rng = Rng::new(options.seed.wrapping_add(index));
    let stop = AtomicBool::new(false);
    let mut game = Xiangqi::new();
    let mut positions = Vec::new();
    let mut streak: (i32, u32) = (0, 0);
    let result = loop {
        if let Some(o) = game.outcome(&rules) {
            break match o.winner() {
                Some(Color::Red) => 1.0,
                Some(Color::Black) => 0.0,
                None => 0.5,
            };
        }
        if game.ply() >= options.max_plies {
            break match streak.0 {
                s if s > 0 && streak.1 > 0 => 1.0,
                s if s < 0 && streak.1 > 0 => 0.0,
                _ => 0.5,
            };
        }
        let mv = if game.ply() < options.random_plies {
            random_move(game.position(), &mut rng)
        } else {
            if let Some(q) = quiet(game.position(), params) {
                positions.push(q);
            }
            let r = searcher.search(&game, &rules, &Limits::nodes(options.nodes), &stop, |_| {});
            // The score from Red's side; a streak of agreeing clear scores ends the game.
            let red = if game.side_to_move() == Color::Red {
                r.value
            } else {
                -r.value
            };
            let sign = if red >= options.resign {
                1
            } else if red <= -options.resign {
                -1
            } else {
                0
            };
            streak = if sign != 0 && sign == streak.0 {
                (sign, streak.1 + 1)
            } else {
                (sign, u32::from(sign != 0))
            };
            if streak.1 >= 8 {
                break if sign > 0 { 1.0 } else { 0.0 };
            }
            r.best_move
        };
        let Some(mv) = mv else {
            // No legal move: the side to move has lost (caught by the rules above first).
            break if game.side_to_move() == Color::Red {
                0.0
            } else {
                1.0
            };
        };
        if game.play(mv).is_err() {
            break 0.5;
        }
    };
    GameData {
        positions,
        result,
        plies: game.ply(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiet_positions_have_no_winning_capture_left() {
        let params = XiangqiParams::default();
        // Red's rook can take a loose black horse: the quiet position is after the capture.
        let pos: Position = "4k4/9/9/9/2n6/9/9/9/2R6/3K5 w - - 0 1".parse().unwrap();
        let q = quiet(&pos, &params).unwrap();
        assert_eq!(q.count(Color::Black, banco_xiangqi::PieceKind::Horse), 0);
        // In check: no sample.
        let check: Position = "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1".parse().unwrap();
        assert!(quiet(&check, &params).is_none());
        // A quiet position stays as it is.
        let start = Position::startpos();
        assert_eq!(quiet(&start, &params), Some(start));
    }

    #[test]
    fn games_differ_by_seed_and_repeat_by_seed() {
        let options = GenOptions {
            nodes: 200,
            max_plies: 30,
            ..GenOptions::default()
        };
        let p = XiangqiParams::default();
        let a = play_game(&options, 0, &p);
        let b = play_game(&options, 1, &p);
        assert_ne!(a.positions, b.positions);
        assert_eq!(a, play_game(&options, 0, &p));
        assert_eq!(a.plies, 30);
        assert!(a.positions.iter().all(|q| !q.in_check()));
    }
}
