//! Tunes the computer player's evaluation weights ([`Weights`]) by the noisy cross-entropy
//! method over seeded self-play games, as for Tetris evaluations: each generation draws
//! `--population` weight vectors from a Gaussian (mean = the current weights, one
//! standard deviation per weight), plays every one on the same `--games` seeded games
//! (the budget-1 player: every legal move judged with the closed-form landing), keeps the
//! `--elite` best by mean score and refits the Gaussian to them, adding a little noise
//! that shrinks to zero by the last generation (so the search does not collapse early).
//! Games are cut at `--max-turns` so that a strong candidate does not cost forever.
//!
//! Deterministic: the training games of generation `g` are seeds `--seed + g × games`
//! onwards (disjoint from the bench's seeds 1–100), and the Gaussian draws come from a
//! fixed seed, so the same command prints the same weights whatever `--threads`.
//!
//! ```text
//! nice cargo run --release -p banco-lines --example tune -- \
//!     --generations 10 --population 24 --elite 6 --games 8 --max-turns 800 --threads 2
//! ```
//!
//! `--spread X` sets the first standard deviations (X × |weight|, at least 0.6 X; 0.5
//! by default) and `--log` judges by the mean of `ln(score + 100)`.
//!
//! `--measure --games 100 --seed 1 --budget B [--weights <spec>]` plays the bench's games
//! instead (on `--threads` threads; `ms_per_move` is wall time × threads) and prints the
//! bench's summary line; `--candidates`, `--samples`, `--depth` and `--shortlist` override
//! the parts of the budget; `--search-threads N` spreads each move's samples over N
//! threads (the same moves; `ms_per_move` is then wall time × `--threads`, not CPU time).
//! `--salt K` (K > 0) seeds the samples of stage two differently (the search's seed is
//! the game's seed XOR K × `SampleRng::GAMMA`) while the spawns stay the game's: the same
//! games played with another draw of samples, to tell a budget's gain from sample luck
//! (`data/tuning.md`, seventh session). `--salt 0`, the default, replays the bench.
//!
//! Every generation prints one line (the best and elite means, the mean weights'
//! spread); the last line is `weights <spec>`, the form `Weights::set` reads (and
//! `LINES_WEIGHTS` of the strength test). `--start <spec>` starts from other weights
//! than `Weights::default`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    missing_docs
)]

use banco_lines::ai::eval::{WEIGHT_COUNT, Weights};
use banco_lines::ai::search::SampleRng;
use banco_lines::ai::summary::Summary;
use banco_lines::ai::{self, Budget};
use banco_lines::spawn::Spawner;
use banco_lines::{LinesGame, Settings};

struct Options {
    generations: usize,
    population: usize,
    elite: usize,
    games: u64,
    max_turns: Option<u32>,
    seed: u64,
    threads: usize,
    start: Weights,
    measure: bool,
    budget: usize,
    candidates: Option<usize>,
    samples: Option<usize>,
    depth: Option<usize>,
    search_threads: usize,
    shortlist: Option<usize>,
    salt: u64,
    spread: f64,
    log: bool,
}

fn options() -> Options {
    let mut o = Options {
        generations: 10,
        population: 24,
        elite: 6,
        games: 8,
        max_turns: None,
        seed: 1_000_000,
        threads: 1,
        start: Weights::default(),
        measure: false,
        budget: 1,
        candidates: None,
        samples: None,
        depth: None,
        search_threads: 1,
        shortlist: None,
        salt: 0,
        spread: 0.5,
        log: false,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--generations" => o.generations = value.parse().expect("--generations N"),
            "--population" => o.population = value.parse().expect("--population N"),
            "--elite" => o.elite = value.parse().expect("--elite N"),
            "--games" => o.games = value.parse().expect("--games N"),
            "--max-turns" => o.max_turns = Some(value.parse().expect("--max-turns N")),
            "--seed" => o.seed = value.parse().expect("--seed N"),
            "--threads" => o.threads = value.parse().expect("--threads N"),
            "--start" | "--weights" => o.start = parse_spec(&value),
            "--budget" => o.budget = value.parse().expect("--budget N"),
            "--candidates" => o.candidates = Some(value.parse().expect("--candidates N")),
            "--samples" => o.samples = Some(value.parse().expect("--samples N")),
            "--depth" => o.depth = Some(value.parse().expect("--depth N")),
            "--search-threads" => o.search_threads = value.parse().expect("--search-threads N"),
            "--shortlist" => o.shortlist = Some(value.parse().expect("--shortlist K")),
            "--salt" => o.salt = value.parse().expect("--salt K"),
            "--spread" => o.spread = value.parse().expect("--spread X"),
            "--log" => {
                o.log = true;
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
    o
}

/// Weights from `name=value,name=value` over the defaults (exits with the reason if the
/// spec cannot be read).
fn parse_spec(spec: &str) -> Weights {
    Weights::from_spec(spec).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    })
}

/// Score and turns of one game played with `weights` and `budget` (with salt 0 the
/// samples are seeded as `ai::play_out` seeds them, so that the default weights replay
/// `banco bench lines`; another salt draws other samples on the same spawns).
fn play(weights: &Weights, budget: &Budget, seed: u64, salt: u64, max_turns: u32) -> (u32, u32) {
    let game = LinesGame::new(Settings::default(), Spawner::seed_from_u64(seed));
    let search_seed = seed ^ salt.wrapping_mul(SampleRng::GAMMA);
    let played = ai::play_out_with(game, budget, weights, search_seed, max_turns, |_| {});
    (played.score, played.turns)
}

/// Score and turns of every candidate on every game of `seeds` (candidate-major), on
/// `threads` threads.
fn play_all(
    cands: &[Weights],
    budget: &Budget,
    seeds: &[u64],
    salt: u64,
    max_turns: u32,
    threads: usize,
) -> Vec<(u32, u32)> {
    let jobs: Vec<(usize, u64)> = (0..cands.len())
        .flat_map(|c| seeds.iter().map(move |&s| (c, s)))
        .collect();
    let mut scores = vec![(0u32, 0u32); jobs.len()];
    let threads = threads.max(1);
    std::thread::scope(|scope| {
        let chunks: Vec<_> = scores
            .chunks_mut(jobs.len().div_ceil(threads))
            .zip(jobs.chunks(jobs.len().div_ceil(threads)))
            .map(|(out, jobs)| {
                scope.spawn(move || {
                    for (o, &(c, s)) in out.iter_mut().zip(jobs) {
                        *o = play(&cands[c], budget, s, salt, max_turns);
                    }
                })
            })
            .collect();
        for h in chunks {
            h.join().expect("a worker");
        }
    });
    scores
}

/// Mean score of each candidate over the games `seeds` (budget 1); with `log`, the mean
/// of `ln(score + 100)` instead (less swayed by one lucky game).
fn judge_all(
    cands: &[Weights],
    seeds: &[u64],
    max_turns: u32,
    threads: usize,
    log: bool,
) -> Vec<f64> {
    let value = |s: u32| {
        if log {
            (f64::from(s) + 100.0).ln()
        } else {
            f64::from(s)
        }
    };
    play_all(cands, &Budget::fast(), seeds, 0, max_turns, threads)
        .chunks(seeds.len())
        .map(|c| c.iter().map(|&(s, _)| value(s)).sum::<f64>() / c.len() as f64)
        .collect()
}

/// `--measure`: the weights `--weights` over games `--seed`.. with `--budget` playouts,
/// printed as `banco bench lines` prints them.
fn measure(o: &Options) {
    let mut budget = Budget::from_playouts(o.budget);
    budget.candidates = o.candidates.unwrap_or(budget.candidates);
    budget.samples = o.samples.unwrap_or(budget.samples);
    budget.depth = o.depth.unwrap_or(budget.depth);
    budget.shortlist = o.shortlist.unwrap_or(budget.shortlist);
    let budget = budget.with_threads(o.search_threads);
    println!("{budget:?}");
    let seeds: Vec<u64> = (0..o.games).map(|k| o.seed + k).collect();
    let start = std::time::Instant::now();
    let max_turns = o.max_turns.unwrap_or(100_000);
    let results = play_all(&[o.start], &budget, &seeds, o.salt, max_turns, o.threads);
    let cpu_ms = start.elapsed().as_secs_f64() * 1000.0 * o.threads as f64;
    for (k, (score, turns)) in results.iter().enumerate() {
        println!(
            "game {} seed {} score {score} turns {turns}",
            k + 1,
            seeds[k]
        );
    }
    let best = results.iter().map(|r| r.0).max().unwrap_or(0);
    let worst = results.iter().map(|r| r.0).min().unwrap_or(0);
    println!("best {best} worst {worst}");
    println!("{}", Summary::of(&results, cpu_ms));
}

fn main() {
    let o = options();
    let max_turns = o.max_turns.unwrap_or(800);
    if o.measure {
        measure(&o);
        return;
    }
    let mut mean: Vec<f64> = o.start.to_array().iter().map(|&v| f64::from(v)).collect();
    let floor: Vec<f64> = mean.iter().map(|m| (0.1 * m.abs()).max(0.05)).collect();
    let mut sd: Vec<f64> = mean
        .iter()
        .map(|m| (o.spread * m.abs()).max(0.6 * o.spread))
        .collect();
    let mut rng = SampleRng::new(0x0005_EED1_14E5);
    println!(
        "cross-entropy: {} generations × {} candidates × {} games (max {} turns), elite {}, seed {}, spread {}, log {}",
        o.generations, o.population, o.games, max_turns, o.elite, o.seed, o.spread, o.log
    );
    println!("start {}", o.start.to_spec());
    for g in 0..o.generations {
        let seeds: Vec<u64> = (0..o.games)
            .map(|k| o.seed + g as u64 * o.games + k)
            .collect();
        let mut cands = vec![to_weights(&mean)];
        let mut draws = vec![mean.clone()];
        for _ in 1..o.population {
            let v: Vec<f64> = (0..WEIGHT_COUNT)
                .map(|i| mean[i] + sd[i] * rng.gaussian())
                .collect();
            cands.push(to_weights(&v));
            draws.push(v);
        }
        let scores = judge_all(&cands, &seeds, max_turns, o.threads, o.log);
        let mut order: Vec<usize> = (0..cands.len()).collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
        let elite = &order[..o.elite.clamp(2, cands.len())];
        let shrink = 1.0 - (g as f64 + 1.0) / o.generations as f64;
        for i in 0..WEIGHT_COUNT {
            let m = elite.iter().map(|&e| draws[e][i]).sum::<f64>() / elite.len() as f64;
            let var = elite
                .iter()
                .map(|&e| (draws[e][i] - m).powi(2))
                .sum::<f64>()
                / elite.len() as f64;
            mean[i] = m;
            sd[i] = (var + (floor[i] * shrink).powi(2)).sqrt();
        }
        let elite_mean = elite.iter().map(|&e| scores[e]).sum::<f64>() / elite.len() as f64;
        println!(
            "generation {} seeds {}..{} previous_mean_weights {:.1} best {:.1} elite {:.1} spread {:.3}",
            g + 1,
            seeds[0],
            seeds[seeds.len() - 1],
            scores[0],
            scores[order[0]],
            elite_mean,
            sd.iter()
                .zip(&mean)
                .map(|(s, m)| s / m.abs().max(0.3))
                .sum::<f64>()
                / WEIGHT_COUNT as f64
        );
        println!("mean {}", to_weights(&mean).to_spec());
    }
    println!("weights {}", to_weights(&mean).to_spec());
}

fn to_weights(v: &[f64]) -> Weights {
    let mut a = [0f32; WEIGHT_COUNT];
    for (o, &x) in a.iter_mut().zip(v) {
        *o = x as f32;
    }
    Weights::from_array(&a)
}
