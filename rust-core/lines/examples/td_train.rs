//! Trains the learned value ([`Learned`]) by temporal-difference learning over afterstates,
//! as the n-tuple networks of 2048 are trained: the budget-1 player (every legal move
//! judged by its points plus the value of its afterstate) plays seeded games; after each
//! move the previous afterstate's value moves towards the points made since (its landing
//! and this move) plus `--gamma` × the new afterstate's value, by `--rate` × the error
//! (shared by the entries it selects), the rate falling linearly to `--rate-end` over the
//! run. A full board ends the sum (target: the last landing's points).
//!
//! Deterministic: one thread, training games are seeds `--seed` (1,000,000) onwards, never
//! the bench's 1–100 or the validation seeds 101–200.
//!
//! ```text
//! nice -n 19 cargo run --release -p banco-lines --example td_train -- \
//!     --games 400 --teacher 400 --report 50 --rate 0.01 --rate-end 0.002 \
//!     --window-rate 0.1 --level-rate 30 --gamma 0.99 --save /tmp/td.txt
//! nice -n 19 target/release/examples/td_train --measure --games 100 --seed 1 \
//!     --budget 1 --threads 2 --load /tmp/td.txt --beta 0.3
//! ```
//!
//! (run M of `data/tuning.md` and its measurement). `--teacher N`: the first N games are
//! played by the hand-built evaluation ([`Weights`]) while the value learns its
//! afterstates' values by watching.
//!
//! Rates: the window tables learn at `--window-rate` (0.1) × `--rate`, the `level` table
//! (free cells before the move, the same for every move of a turn: it takes the level of
//! the value, how much is left to score at this stage, and never sways a choice) at
//! `--level-rate` (30) ×, the other global tables at 1 ×; `--tables level,scored` freezes
//! every global table not listed; `--pure-only` freezes the empty and mixed window
//! entries (they move with the stage of the game, and a move changes twenty windows at
//! once: their learned biases add up to a pull that swamps the rest).
//!
//! The value is `--hand` (1) × the hand-built evaluation plus the tables (the tables learn
//! its residual; `--hand 0`: the tables alone, which need a `--teacher`).
//!
//! `--load FILE` starts from saved weights (the hand scale, then one weight per line;
//! `--load default` the built-in ones), `--save FILE` saves them, `--write FILE` writes
//! the generated source (`src/ai/learned_weights.rs`, e.g. `--games 0 --write
//! rust-core/lines/src/ai/learned_weights.rs --note TEXT` for the zero tables in place
//! today) with `--note TEXT` in its header. `--measure --games G --seed S --budget B
//! [--threads T] [--load FILE] [--beta X]` plays the bench's games with the loaded
//! weights (the tables × `--beta`, 1) and prints the bench's summary line.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    missing_docs
)]

use banco_game::ScoreGame;
use banco_lines::ai::eval::{Masks, Weights};
use banco_lines::ai::features::{FEATURES, GLOBAL, OFFSETS, Share, TABLES, WINDOW_STATES};
use banco_lines::ai::learned::{Learned, weights_source};
use banco_lines::ai::search;
use banco_lines::ai::summary::Summary;
use banco_lines::ai::value::Value;
use banco_lines::ai::{self, Budget};
use banco_lines::spawn::Spawner;
use banco_lines::{Ball, Board};
use banco_lines::{LinesGame, Move, Settings};
use std::fmt::Write as _;

struct Options {
    games: u64,
    seed: u64,
    gamma: f32,
    rate: f32,
    rate_end: f32,
    max_turns: u32,
    load: Option<String>,
    save: Option<String>,
    write: Option<String>,
    note: String,
    measure: bool,
    budget: usize,
    threads: usize,
    report: u64,
    teacher: u64,
    hand: f32,
    beta: f32,
    window_rate: f32,
    /// Each entry's rate multiplier (from `--window-rate`, `--level-rate`, `--tables`).
    scale: Vec<f32>,
}

fn options() -> Options {
    let mut o = Options {
        games: 100,
        seed: 1_000_000,
        gamma: 0.99,
        rate: 0.05,
        rate_end: 0.005,
        max_turns: 5000,
        load: None,
        save: None,
        write: None,
        note: String::new(),
        measure: false,
        budget: 1,
        threads: 1,
        report: 20,
        teacher: 0,
        hand: 1.0,
        beta: 1.0,
        window_rate: 0.1,
        scale: Vec::new(),
    };
    let mut level_rate = 30.0f32;
    let mut tables: Option<String> = None;
    let mut pure_only = false;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--games" => o.games = value.parse().expect("--games N"),
            "--seed" => o.seed = value.parse().expect("--seed N"),
            "--gamma" => o.gamma = value.parse().expect("--gamma X"),
            "--rate" => o.rate = value.parse().expect("--rate X"),
            "--rate-end" => o.rate_end = value.parse().expect("--rate-end X"),
            "--max-turns" => o.max_turns = value.parse().expect("--max-turns N"),
            "--load" => o.load = Some(value),
            "--save" => o.save = Some(value),
            "--write" => o.write = Some(value),
            "--note" => o.note = value,
            "--budget" => o.budget = value.parse().expect("--budget N"),
            "--threads" => o.threads = value.parse().expect("--threads N"),
            "--report" => o.report = value.parse().expect("--report N"),
            "--level-rate" => level_rate = value.parse().expect("--level-rate X"),
            "--tables" => tables = Some(value),
            "--window-rate" => o.window_rate = value.parse().expect("--window-rate X"),
            "--beta" => o.beta = value.parse().expect("--beta X"),
            "--hand" => o.hand = value.parse().expect("--hand X"),
            "--teacher" => o.teacher = value.parse().expect("--teacher N"),
            "--pure-only" => {
                pure_only = true;
                i += 1;
                continue;
            }
            "--measure" => {
                o.measure = true;
                i += 1;
                continue;
            }
            other => panic!("unknown option {other}"),
        }
        i += 2;
    }
    o.scale = (0..FEATURES)
        .map(|i| {
            if i < GLOBAL {
                // Empty and mixed windows stay at 0 with `--pure-only`.
                let state = i % WINDOW_STATES;
                let pure = (1..=48).contains(&state);
                return if pure_only && !pure {
                    0.0
                } else {
                    o.window_rate
                };
            }
            let t = OFFSETS.iter().rposition(|&at| at <= i).unwrap_or(0);
            let name = TABLES[t].0;
            if tables
                .as_deref()
                .is_some_and(|list| !list.split(',').any(|n| n == name))
            {
                0.0
            } else if name == "level" {
                level_rate
            } else {
                1.0
            }
        })
        .collect();
    o
}

/// Weights from `path`: the hand scale on the first line, then one weight per line.
fn load(path: Option<&str>, hand: f32) -> Learned {
    match path {
        None => Learned::zero(hand),
        Some("default") => Learned::default(),
        Some(p) => {
            let text = std::fs::read_to_string(p).expect("a weights file");
            let values: Vec<f32> = text.lines().map(|v| v.parse().expect("a number")).collect();
            assert_eq!(
                values.len(),
                FEATURES + 1,
                "{p}: 1 + {FEATURES} values expected"
            );
            let mut l = Learned::zero(values[0]);
            l.weights.copy_from_slice(&values[1..]);
            l
        }
    }
}

/// The hand-built part of the value of the afterstate `after`.
fn hand_part(model: &Learned, after: &Board, next: &[Ball], removed: usize) -> f32 {
    if model.hand == 0.0 {
        return 0.0;
    }
    let w = &model.hand_weights;
    model.hand
        * if removed > 0 {
            w.after_line(after, Some(next), removed)
        } else {
            w.after_move(after, &Masks::of(after), Some(next))
        }
}

/// One training game; returns (score, turns).
fn train_game(
    model: &mut Learned,
    seed: u64,
    o: &Options,
    rate: f32,
    teacher: Option<&Weights>,
) -> (u32, u32) {
    let mut game = LinesGame::new(Settings::default(), Spawner::seed_from_u64(seed));
    let mut prev: Vec<u16> = Vec::with_capacity(160);
    let mut cur: Vec<u16> = Vec::with_capacity(160);
    let mut have_prev = false;
    let mut pending = 0.0f32;
    let mut hand_prev = 0.0f32;
    while !game.is_over() && game.turns() < o.max_turns {
        let next = game.next_colors();
        let choice = match teacher {
            Some(w) => search::best_candidate(game.board(), Some(&next), w),
            None => search::best_candidate(game.board(), Some(&next), model),
        };
        let Some(c) = choice else {
            break;
        };
        let mut after = *game.board();
        search::apply(&mut after, &c);
        let removed = c.cleared.len();
        model.select(&after, Share::of(Some(&next)), removed, &mut cur);
        let hand_cur = hand_part(model, &after, &next, removed);
        if have_prev {
            let target = pending + c.points as f32 + o.gamma * (hand_cur + model.table_value(&cur));
            let error = target - hand_prev - model.table_value(&prev);
            model.update(&prev, error, rate, |i| o.scale[i]);
        }
        hand_prev = hand_cur;
        let before = game.score();
        if game
            .play(Move {
                from: c.from,
                to: c.to,
            })
            .is_err()
        {
            break;
        }
        pending = (game.score() - before - c.points) as f32;
        std::mem::swap(&mut prev, &mut cur);
        have_prev = true;
    }
    if have_prev && game.is_over() {
        let error = pending - hand_prev - model.table_value(&prev);
        model.update(&prev, error, rate, |i| o.scale[i]);
    }
    (game.score(), game.turns())
}

fn train(o: &Options) -> Learned {
    let mut model = load(o.load.as_deref(), o.hand);
    println!(
        "td(0): {} games from seed {}, gamma {}, rate {} -> {} (windows x {}), max {} turns, start {}",
        o.games,
        o.seed,
        o.gamma,
        o.rate,
        o.rate_end,
        o.window_rate,
        o.max_turns,
        o.load.as_deref().unwrap_or("zero")
    );
    let hand = Weights::default();
    let mut window: Vec<(u32, u32)> = Vec::new();
    let mut moves = 0u64;
    let start = std::time::Instant::now();
    for g in 0..o.games {
        let progress = g as f32 / o.games.max(1) as f32;
        let rate = o.rate + (o.rate_end - o.rate) * progress;
        let teacher = (g < o.teacher).then_some(&hand);
        let r = train_game(&mut model, o.seed + g, o, rate, teacher);
        moves += u64::from(r.1);
        window.push(r);
        if window.len() as u64 == o.report || g + 1 == o.games {
            let mut scores: Vec<u32> = window.iter().map(|w| w.0).collect();
            scores.sort_unstable();
            let mean = scores.iter().map(|&s| f64::from(s)).sum::<f64>() / scores.len() as f64;
            println!(
                "games {}..{} median {} mean {mean:.1} moves {moves} rate {rate:.4} {:.0}s",
                o.seed + g + 1 - window.len() as u64,
                o.seed + g,
                scores[scores.len() / 2],
                start.elapsed().as_secs_f64()
            );
            window.clear();
        }
    }
    model
}

fn play(model: &Learned, budget: &Budget, seed: u64) -> (u32, u32) {
    let game = LinesGame::new(Settings::default(), Spawner::seed_from_u64(seed));
    let played = ai::play_out_with(game, budget, model, seed, u32::MAX, |_| {});
    (played.score, played.turns)
}

fn measure(o: &Options) {
    let mut model = load(o.load.as_deref(), o.hand);
    for w in &mut model.weights {
        *w *= o.beta;
    }
    let budget = Budget::from_playouts(o.budget);
    println!("{budget:?}");
    let seeds: Vec<u64> = (0..o.games).map(|k| o.seed + k).collect();
    let threads = o.threads.max(1);
    let start = std::time::Instant::now();
    let mut results = vec![(0u32, 0u32); seeds.len()];
    std::thread::scope(|scope| {
        let chunk = seeds.len().div_ceil(threads);
        for (out, seeds) in results.chunks_mut(chunk).zip(seeds.chunks(chunk)) {
            let model = &model;
            let budget = &budget;
            scope.spawn(move || {
                for (o, &s) in out.iter_mut().zip(seeds) {
                    *o = play(model, budget, s);
                }
            });
        }
    });
    let cpu_ms = start.elapsed().as_secs_f64() * 1000.0 * threads as f64;
    for (k, (score, turns)) in results.iter().enumerate() {
        println!(
            "game {} seed {} score {score} turns {turns}",
            k + 1,
            seeds[k]
        );
    }
    println!("{}", Summary::of(&results, cpu_ms));
}

fn main() {
    let o = options();
    if o.measure {
        measure(&o);
        return;
    }
    let model = train(&o);
    if let Some(path) = &o.save {
        let mut text = format!("{:?}\n", model.hand);
        text.extend(model.weights.iter().map(|w| format!("{w:?}\n")));
        std::fs::write(path, text).expect("write the weights");
    }
    if let Some(path) = &o.write {
        let mut header = String::from(
            "//! The learned weights of the computer player's value ([`Learned`](super::learned::Learned)),\n\
             //! written by `examples/td_train.rs`: regenerate this file with the tool instead of editing it.\n//!\n",
        );
        for line in o.note.lines() {
            writeln!(header, "//! {line}").expect("a string");
        }
        header.push_str(
            "//!\n//! ```\n//! use banco_lines::ai::{learned::Learned, learned_weights::LEARNED};\n\
             //! assert_eq!(Learned::default().weights, LEARNED);\n//! ```\n\n\
             use super::features::FEATURES;\n\n",
        );
        header.push_str(&weights_source(&model));
        std::fs::write(path, header).expect("write the source");
    }
}
