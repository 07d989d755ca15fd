//! The mate solver for every board game: [`solve`] proves a forced mate for the side to
//! move ("solve from here", the puzzle collection), [`longest_defence`] answers for the
//! side being mated with the reply that delays the mate longest (or escapes it), which is
//! how the computer defends in a puzzle. Both are thin dispatches over
//! [`banco_engine::solve`].
//!
//! ```
//! use banco_app::any::{AnyGame, AnyRules};
//! use banco_app::mate;
//! use banco_game::GameKind;
//! use std::sync::atomic::AtomicBool;
//! let game = AnyGame::from_fen(GameKind::Xiangqi, "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1")?;
//! let rules = AnyRules::usual(GameKind::Xiangqi);
//! let found = mate::solve(&game, &rules, &mate::options(3), &AtomicBool::new(false));
//! assert_eq!(found.mate, Some(1));
//! assert_eq!(found.line[0].to_string(), "e1d1");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::any::{AnyGame, AnyMove, AnyRules};
use banco_engine::solve::{self as s, SolveOptions};
use banco_game::{Game, GameKind};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateSearch {
    /// Mate in this many moves of the side to move, if proven.
    pub mate: Option<u32>,
    /// The mating line: attacker and defender moves, the defender resisting longest.
    pub line: Vec<AnyMove>,
    /// Nodes visited.
    pub nodes: u64,
    /// The search was cut short (time, nodes or the stop flag) before a mate was proven.
    pub aborted: bool,
}

/// Solver options looking for mates up to `max_mate` moves, with a node budget instead
/// of a clock so that the answer does not depend on the machine (about a second of
/// search on a phone).
#[must_use]
pub fn options(max_mate: u32) -> SolveOptions {
    SolveOptions {
        max_mate,
        time_limit: Some(Duration::from_secs(30)),
        node_limit: Some(4_000_000),
        hash_mib: 8,
    }
}

/// True when [`solve`] can prove mates in games of `kind`: xiangqi and chess. Jieqi has no
/// solver (a forced mate cannot be proven through reveals whose identities are unknown),
/// nor has Lines (no mate).
#[must_use]
pub fn has_solver(kind: GameKind) -> bool {
    matches!(kind, GameKind::Xiangqi | GameKind::Chess)
}

/// Looks for a forced mate for the side to move of `game` (none in jieqi: see
/// [`has_solver`]).
#[must_use]
pub fn solve(
    game: &AnyGame,
    rules: &AnyRules,
    options: &SolveOptions,
    stop: &AtomicBool,
) -> MateSearch {
    fn wrap<M: Copy>(r: s::SolveResult<M>, f: impl Fn(M) -> AnyMove) -> MateSearch {
        MateSearch {
            mate: r.mate,
            line: r.line.into_iter().map(f).collect(),
            nodes: r.nodes,
            aborted: r.aborted,
        }
    }
    match game {
        AnyGame::Xiangqi(g) => wrap(
            s::solve(g, &rules.xiangqi(), options, stop),
            AnyMove::Xiangqi,
        ),
        AnyGame::Chess(g) => wrap(s::solve(g, &rules.chess(), options, stop), AnyMove::Chess),
        // A forced mate cannot be proven through reveals whose identities are unknown:
        // jieqi has no mate solver (and no puzzles).
        AnyGame::Jieqi(_) => MateSearch {
            mate: None,
            line: Vec::new(),
            nodes: 0,
            aborted: false,
        },
    }
}

/// The defender's answer in a mate puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Defence {
    /// The reply (`None`: the defender has no legal move).
    pub reply: Option<AnyMove>,
    /// The attacker's shortest mate after the reply, in attacker moves, when one within
    /// the budget was proven; `None` when the reply escapes (or the search gave up).
    pub mate_after: Option<u32>,
}

impl Defence {
    /// True when the reply escapes a mate within the budget: the attacker's last move let
    /// the mate slip.
    #[must_use]
    pub fn escapes(&self) -> bool {
        self.reply.is_some() && self.mate_after.is_none()
    }
}

/// The defender (the side to move of `game`) picks the reply after which the attacker's
/// mate takes longest, or one that escapes a mate within `within` attacker moves. Each
/// reply is proven with `options` (its `max_mate` is replaced by `within`). A reply that
/// ends the game at once is an escape when the game ends drawn or won for the defender, and
/// the worst reply of all (`mate_after` 0) when the rules make the defender lose by it (a
/// repetition of perpetual check or chase).
#[must_use]
pub fn longest_defence(
    game: &AnyGame,
    rules: &AnyRules,
    within: u32,
    options: &SolveOptions,
    stop: &AtomicBool,
) -> Defence {
    let mut opts = *options;
    opts.max_mate = within.max(1);
    let defender = game.side_to_move();
    let mut best: Option<Defence> = None;
    let mut after = game.clone();
    for reply in game.legal_move_vec() {
        if after.play(reply).is_err() {
            continue;
        }
        let found = match after.outcome(rules) {
            // The reply loses by rule (a perpetual check or chase the rules punish): no
            // escape, and no delay either.
            Some(o) if o.winner().is_some_and(|w| w != defender) => Some(0),
            // The reply ends the game drawn (or won): an escape.
            Some(_) => None,
            None => solve(&after, rules, &opts, stop).mate,
        };
        after.undo_move();
        let candidate = Defence {
            reply: Some(reply),
            mate_after: found,
        };
        if candidate.escapes() {
            return candidate;
        }
        if best
            .as_ref()
            .is_none_or(|b| found.unwrap_or(0) > b.mate_after.unwrap_or(0))
        {
            best = Some(candidate);
        }
    }
    best.unwrap_or(Defence {
        reply: None,
        mate_after: None,
    })
}

/// The main line of a proven mate in `mate_in`, built move by move: the attacker's
/// move from a fresh proof of the remaining mate, the defender's from
/// [`longest_defence`]. Unlike the solver's own line (read back from its table, which a
/// long search may have overwritten) it always reaches the mate; `None` if a step cannot
/// be proven again within `options`.
#[must_use]
pub fn main_line(
    game: &AnyGame,
    rules: &AnyRules,
    mate_in: u32,
    options: &SolveOptions,
    stop: &AtomicBool,
) -> Option<Vec<AnyMove>> {
    let attacker = game.side_to_move();
    let mut g = game.clone();
    let mut line = Vec::new();
    let mut n = mate_in;
    loop {
        let mut o = *options;
        o.max_mate = n.max(1);
        let found = solve(&g, rules, &o, stop);
        n = found.mate?;
        let mv = *found.line.first()?;
        g.play(mv).ok()?;
        line.push(mv);
        if let Some(outcome) = g.outcome(rules) {
            return (outcome.winner() == Some(attacker)).then_some(line);
        }
        let d = longest_defence(&g, rules, n.saturating_sub(1), options, stop);
        let reply = d.reply?;
        n = d.mate_after?;
        g.play(reply).ok()?;
        line.push(reply);
        if let Some(outcome) = g.outcome(rules) {
            // Every reply loses by rule (the defender's perpetual check): the line ends here.
            return (outcome.winner() == Some(attacker)).then_some(line);
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use banco_game::MatchGame;

    /// BATCH #119: after g1c1 Black's only defence is perpetual check with the rook,
    /// which loses under the usual (Asian) rules.
    #[test]
    fn a_reply_that_loses_by_perpetual_check_is_no_escape() {
        let rules = AnyRules::usual(GameKind::Xiangqi);
        let stop = AtomicBool::new(false);
        let mut g = AnyGame::from_fen(
            GameKind::Xiangqi,
            "3ak2P1/4aP3/9/9/9/9/9/9/2r2rC2/c3K4 w - - 0 1",
        )
        .unwrap();
        let found = solve(&g, &rules, &options(7), &stop);
        assert_eq!(found.mate, Some(7), "{found:?}");
        // Play the line of Black's perpetual check (the proof itself mates by e0f0: the
        // game judges the checks only at their third repetition, too late for 7 moves);
        // its end repeats an earlier position.
        let line: Vec<AnyMove> = "g1c1 f1f0 e0e1 f0c0 h9g9 c0c1 e1e0 c1c0 e0e1 c0c1"
            .split(' ')
            .map(|m| AnyMove::Xiangqi(m.parse().unwrap()))
            .collect();
        let key = |g: &AnyGame| g.fen().split(' ').take(2).collect::<Vec<_>>().join(" ");
        let mut keys = vec![key(&g)];
        for &mv in &line {
            g.play(mv).unwrap();
            keys.push(key(&g));
        }
        let last = keys.last().unwrap().clone();
        let start = keys[..keys.len() - 1]
            .iter()
            .rposition(|k| *k == last)
            .expect("the line ends in a repetition");
        let cycle = line[start..].to_vec();
        // Go round the cycle until the defender's next check would lose by rule.
        let mut tested = false;
        'outer: for _ in 0..4 {
            for &mv in &cycle {
                let mut next = g.clone();
                next.play(mv).unwrap();
                let loses = next
                    .outcome(&rules)
                    .is_some_and(|o| o.winner() == Some(banco_game::Color::Red));
                if loses && g.side_to_move() == banco_game::Color::Black {
                    let d = longest_defence(&g, &rules, 7, &options(7), &stop);
                    assert!(!d.escapes(), "{d:?}: a losing perpetual is no escape");
                    if d.reply == Some(mv) {
                        assert_eq!(d.mate_after, Some(0));
                    }
                    tested = true;
                    break 'outer;
                }
                if next.outcome(&rules).is_some() {
                    break 'outer;
                }
                g = next;
            }
        }
        assert!(
            tested,
            "no position where the defender's check loses by rule"
        );
    }

    #[test]
    fn the_defender_delays_and_escapes() {
        let rules = AnyRules::usual(GameKind::Xiangqi);
        let stop = AtomicBool::new(false);
        // Horse and pawn, mate in 5: after Red's right first move every reply still loses.
        let mut g = AnyGame::from_fen(
            GameKind::Xiangqi,
            "9/9/4Nk3/3c2p2/3r2P2/3p2B2/3p2r2/4KC3/9/9 w - - 0 1",
        )
        .unwrap();
        let found = solve(&g, &rules, &options(5), &stop);
        assert_eq!(found.mate, Some(5));
        g.play(found.line[0]).unwrap();
        let d = longest_defence(&g, &rules, 4, &options(4), &stop);
        assert!(!d.escapes());
        assert_eq!(d.mate_after, Some(4));
        // Some first moves let Black escape.
        let start = AnyGame::from_fen(
            GameKind::Xiangqi,
            "9/9/4Nk3/3c2p2/3r2P2/3p2B2/3p2r2/4KC3/9/9 w - - 0 1",
        )
        .unwrap();
        let escapes = start
            .legal_move_vec()
            .into_iter()
            .filter(|&mv| {
                let mut g = start.clone();
                g.play(mv).unwrap();
                longest_defence(&g, &rules, 4, &options(4), &stop).escapes()
            })
            .count();
        assert!(escapes > 0);
        assert!(escapes < start.legal_move_vec().len());
    }
}
