//! Chance nodes against the exact solution of the dice race ([`DiceRace`]): the race is
//! solved by value iteration (the probability that the side to move wins with best play
//! on both sides), and the engine's value and chosen move are compared with it for every
//! small state. A chance node's value is the mean of its outcomes with decisive values
//! counted as ±`CHANCE_CAP`, so an engine value `v` means a winning chance of
//! `(v / CHANCE_CAP + 1) / 2`, and a mate score a sure win.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers of tests

use banco_engine::chance::CHANCE_CAP;
use banco_engine::matchplay::{self, MatchOptions, PlayerSpec};
use banco_engine::score::{DECISIVE, INF, mated_in};
use banco_engine::toy::{DiceNode, DiceParams};
use banco_engine::{EngineGame, Limits, Searcher, bench, plain};
use banco_game::toy::{DiceMove, DiceRace, DiceRules, FACES};
use banco_game::{ChanceList, Color, Game, MoveList};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Winning chances of the side to move in every unfinished state `(red, black, side)` of
/// the race to `target`.
struct Solution {
    target: u8,
    win: HashMap<(u8, u8, Color), f64>,
}

impl Solution {
    fn new(target: u8) -> Solution {
        let mut s = Solution {
            target,
            win: HashMap::new(),
        };
        for r in 0..target {
            for b in 0..target {
                for side in Color::ALL {
                    s.win.insert((r, b, side), 0.5);
                }
            }
        }
        // Value iteration: a roll of 0 is the only step that makes no progress, so the
        // error shrinks by at least a third per sweep.
        for _ in 0..200 {
            let keys: Vec<_> = s.win.keys().copied().collect();
            for k in keys {
                let v = s.best(k.0, k.1, k.2);
                s.win.insert(k, v);
            }
        }
        s
    }

    /// The chance of the side to move in `(red, black, side)`, 0 if the race is over (the
    /// other side got there).
    fn chance(&self, red: u8, black: u8, side: Color) -> f64 {
        if red >= self.target || black >= self.target {
            0.0
        } else {
            self.win[&(red, black, side)]
        }
    }

    /// The chance of the mover after advancing `k` squares.
    fn after(&self, red: u8, black: u8, side: Color, k: u8) -> f64 {
        let (r, b) = match side {
            Color::Red => (red + k, black),
            Color::Black => (red, black + k),
        };
        1.0 - self.chance(r, b, side.other())
    }

    /// The chance of the mover after `mv`.
    fn of_move(&self, red: u8, black: u8, side: Color, mv: DiceMove) -> f64 {
        match mv {
            DiceMove::Step => self.after(red, black, side, 1),
            _ => {
                FACES
                    .iter()
                    .map(|&k| self.after(red, black, side, k))
                    .sum::<f64>()
                    / FACES.len() as f64
            }
        }
    }

    fn best(&self, red: u8, black: u8, side: Color) -> f64 {
        self.of_move(red, black, side, DiceMove::Step)
            .max(self.of_move(red, black, side, DiceMove::Roll))
    }

    /// The exact evaluation for the engine: the chance as a score.
    fn oracle(self: &Arc<Self>) -> DiceParams {
        let me = Arc::clone(self);
        DiceParams {
            oracle: Some(Arc::new(move |race: &DiceRace| {
                let p = me.chance(
                    race.square(Color::Red),
                    race.square(Color::Black),
                    race.side_to_move(),
                );
                ((2.0 * p - 1.0) * f64::from(CHANCE_CAP)).round() as i32
            })),
            ..DiceParams::default()
        }
    }
}

/// The winning chance an engine value stands for.
fn chance_of(v: i32) -> f64 {
    if v >= DECISIVE {
        1.0
    } else if v <= -DECISIVE {
        0.0
    } else {
        f64::midpoint(f64::from(v) / f64::from(CHANCE_CAP), 1.0)
    }
}

fn states(target: u8) -> impl Iterator<Item = (u8, u8, Color)> {
    (0..target).flat_map(move |r| {
        (0..target).flat_map(move |b| Color::ALL.into_iter().map(move |side| (r, b, side)))
    })
}

/// The value of `race` searched to `depth` moves by a full expectimax without any pruning,
/// under the engine's conventions: chance steps cost no depth and average their outcomes
/// as the [`chance`](banco_engine::chance) module says, a finished race is a mate at its
/// ply (or a sure loss, `−CHANCE_CAP`, when the depth is spent), other leaves `eval`.
fn expectimax(race: &mut DiceRace, depth: i32, ply: usize, eval: &dyn Fn(&DiceRace) -> i32) -> i32 {
    if race.awaits_chance() {
        let mut outcomes = ChanceList::new();
        race.chance_outcomes(&mut outcomes);
        let mut values = Vec::new();
        for w in outcomes.as_slice() {
            let undo = race.make_unchecked(w.outcome);
            values.push((expectimax(race, depth, ply, eval), i64::from(w.weight)));
            race.unmake(w.outcome, undo);
        }
        if values.iter().all(|v| v.0 >= DECISIVE) {
            return values.iter().map(|v| v.0).min().unwrap();
        }
        if values.iter().all(|v| v.0 <= -DECISIVE) {
            return values.iter().map(|v| v.0).max().unwrap();
        }
        let total: i64 = values.iter().map(|v| v.1).sum();
        let sum: i64 = values
            .iter()
            .map(|v| v.1 * i64::from(v.0.clamp(-CHANCE_CAP, CHANCE_CAP)))
            .sum();
        return sum.div_euclid(total) as i32;
    }
    if depth <= 0 {
        if race.outcome(&DiceRules).is_some() {
            return -CHANCE_CAP;
        }
        return eval(race);
    }
    let mut moves = MoveList::new();
    race.legal_moves(&mut moves);
    if moves.is_empty() {
        return mated_in(ply);
    }
    let mut best = -INF;
    for &m in &moves {
        let undo = race.make_unchecked(m);
        best = best.max(-expectimax(race, depth - 1, ply + 1, eval));
        race.unmake(m, undo);
    }
    best
}

#[test]
fn search_equals_a_full_expectimax_exactly() {
    // With the exact evaluation every pruning of the search is sound, so alpha-beta with
    // Star1 windows, the table and the move ordering must give the expectimax value
    // exactly, with a fresh searcher and with one that carries its table over.
    let stop = AtomicBool::new(false);
    let mut compared = 0;
    for target in [4, 5] {
        let solution = Arc::new(Solution::new(target));
        let params = solution.oracle();
        let eval = params.oracle.clone().unwrap();
        let mut shared = Searcher::<DiceNode>::with_params(1, params.clone());
        for (r, b, side) in states(target) {
            for depth in 1..=6 {
                let mut race = DiceRace::from_state(target, r, b, side);
                let want = expectimax(&mut race, depth, 0, &*eval);
                let limits = Limits::depth(depth as u32);
                let mut fresh = Searcher::<DiceNode>::with_params(1, params.clone());
                let got = fresh.search(&race, &DiceRules, &limits, &stop, |_| {});
                assert_eq!(
                    got.value, want,
                    "race to {target}, {r}-{b} {side:?}, depth {depth}"
                );
                let got = shared.search(&race, &DiceRules, &limits, &stop, |_| {});
                assert_eq!(
                    got.value, want,
                    "race to {target}, {r}-{b} {side:?}, depth {depth}"
                );
                compared += 2;
            }
        }
    }
    assert!(compared > 500);
}

#[test]
fn exact_evaluation_gives_the_exact_value_and_a_best_move_at_every_depth() {
    let stop = AtomicBool::new(false);
    let mut checked = 0;
    for target in 2..=7 {
        let solution = Arc::new(Solution::new(target));
        // One searcher per race: its table carries over from state to state and depth to
        // depth, and must stay sound.
        let mut searcher = Searcher::<DiceNode>::with_params(1, solution.oracle());
        for (i, (r, b, side)) in states(target).enumerate() {
            let game = DiceRace::from_state(target, r, b, side);
            let depth = 1 + (i % 5) as u32;
            let res = searcher.search(&game, &DiceRules, &Limits::depth(depth), &stop, |_| {});
            let exact = solution.chance(r, b, side);
            let got = chance_of(res.value);
            assert!(
                (got - exact).abs() < 1e-3,
                "race to {target}, {r}-{b} {side:?}, depth {depth}: {got} but exactly {exact}"
            );
            let mv = res.best_move.unwrap();
            let of_move = solution.of_move(r, b, side, mv);
            assert!(
                of_move > exact - 1e-3,
                "race to {target}, {r}-{b} {side:?}: {mv:?} wins {of_move}, best {exact}"
            );
            checked += 1;
        }
    }
    assert!(checked > 200);
}

#[test]
fn deep_search_with_the_plain_lead_finds_the_solved_moves() {
    let stop = AtomicBool::new(false);
    let mut decided = 0;
    for target in 2..=6 {
        let solution = Solution::new(target);
        let mut searcher = Searcher::<DiceNode>::new(4);
        for (r, b, side) in states(target) {
            let game = DiceRace::from_state(target, r, b, side);
            let res = searcher.search(&game, &DiceRules, &Limits::depth(16), &stop, |_| {});
            let exact = solution.chance(r, b, side);
            let got = chance_of(res.value);
            assert!(
                (got - exact).abs() < 0.03,
                "race to {target}, {r}-{b} {side:?}: {got} but exactly {exact}"
            );
            let step = solution.of_move(r, b, side, DiceMove::Step);
            let roll = solution.of_move(r, b, side, DiceMove::Roll);
            if (step - roll).abs() > 0.05 {
                let want = if step > roll {
                    DiceMove::Step
                } else {
                    DiceMove::Roll
                };
                assert_eq!(
                    res.best_move,
                    Some(want),
                    "race to {target}, {r}-{b} {side:?}: step {step}, roll {roll}"
                );
                decided += 1;
            }
            // A sure win is a mate, and a mate a sure win.
            assert_eq!(
                res.value >= DECISIVE,
                exact > 1.0 - 1e-12,
                "race to {target}, {r}-{b} {side:?}: {} for {exact}",
                res.value
            );
        }
    }
    assert!(decided > 30, "only {decided} states with a clear best move");
}

#[test]
fn a_root_awaiting_chance_is_the_mean_of_its_outcomes() {
    let solution = Arc::new(Solution::new(6));
    let stop = AtomicBool::new(false);
    for (r, b) in [(0, 0), (3, 4), (5, 2), (1, 5)] {
        let mut game = DiceRace::from_state(6, r, b, Color::Red);
        game.play(DiceMove::Roll).unwrap();
        assert!(game.awaits_chance());
        let mut s = Searcher::<DiceNode>::with_params(1, solution.oracle());
        let res = s.search(&game, &DiceRules, &Limits::depth(3), &stop, |_| {});
        assert_eq!(res.best_move, None);
        // Black moves next: the root's value is Black's chance.
        let black = 1.0 - solution.of_move(r, b, Color::Red, DiceMove::Roll);
        assert!((chance_of(res.value) - black).abs() < 1e-3, "{r}-{b}");
        assert!(res.depth >= 1);
    }
}

#[test]
fn plain_alpha_beta_weighs_the_die_too() {
    let stop = AtomicBool::new(false);
    // Red needs 2 squares and Black 1: only a roll can win.
    let game = DiceRace::from_state(5, 3, 4, Color::Red);
    let r = plain::search(&game, &DiceRules, &Limits::depth(4), &stop);
    assert_eq!(r.best_move, Some(DiceMove::Roll));
    // Red needs 1: stepping wins at once.
    let game = DiceRace::from_state(5, 4, 0, Color::Red);
    let r = plain::search(&game, &DiceRules, &Limits::depth(4), &stop);
    assert_eq!(r.best_move, Some(DiceMove::Step));
    assert!(r.value >= DECISIVE);
}

#[test]
fn matches_draw_the_die_from_the_seed() {
    let a: PlayerSpec<DiceRace> = "level=10,depth=6".parse().unwrap();
    let b: PlayerSpec<DiceRace> = "level=2".parse().unwrap();
    let options = MatchOptions {
        games: 6,
        max_plies: 200,
        seed: 5,
        ..MatchOptions::default()
    };
    let mut first = Vec::new();
    let report = matchplay::run(&a, &b, &options, |g| first.push(g.clone()));
    assert_eq!(report.games(), 6);
    let mut second = Vec::new();
    matchplay::run(&a, &b, &options, |g| second.push(g.clone()));
    assert_eq!(first, second);
    assert!(first.iter().all(|g| g.outcome.is_some()), "{first:?}");
}

#[test]
fn the_dice_race_plugs_into_every_game_free_module() {
    let game = DiceRace::start();
    let mv = game.parse_move("roll").unwrap();
    assert_eq!(game.move_text(mv), "roll");
    assert!(game.parse_move("d2").is_err()); // no die in the air
    let report = bench::run::<DiceRace>();
    assert_eq!(report.positions, DiceRace::BENCH_POSITIONS.len());
    assert_eq!(report.nodes, bench::run::<DiceRace>().nodes);
}
