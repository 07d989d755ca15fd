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
//! `--drift GAMES,HORIZON,LOW,HIGH,EVERY` judges by the middle game instead of whole
//! games: the default player plays GAMES games from `--seed` (budget 1), every EVERY-th
//! turn with LOW–HIGH balls is kept as a position, and each candidate plays HORIZON
//! turns from every position; its objective is the mean change of the ball count,
//! negated (a board that fills up counts as full plus three balls a turn it did not
//! play). The ball count is the walk the score follows (`data/tuning.md`, tenth session),
//! so this reads a candidate's line share where the game is decided with far less
//! noise than whole games give: every candidate meets the same positions and spawns.
//! With `--measure` it prints `position K delta D lines L` for each position,
//! `positions N drift D se E line_share L` and `walk W` (below).
//!
//! `--walk` judges instead by the turns of the walk of the ball count that the
//! candidate's line shares make (per five-ball band; `line_rate` prints the same walk for
//! whole games): over its whole games, or with `--drift` over its turns from the
//! positions. Neither proxy has found weights that win whole games (`data/tuning.md`,
//! twelfth session).
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
#[path = "common/walk.rs"]
mod walk;

use banco_game::ScoreGame;
use banco_lines::ai::search;
use banco_lines::spawn::Spawner;
use banco_lines::{CELLS, LinesGame, Settings};
use walk::Counts;

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
    walk: bool,
    drift: Option<Drift>,
}

/// `--drift`: candidates are judged by the ball count's drift over `horizon` turns from
/// middle-game positions instead of by whole games.
#[derive(Clone, Copy)]
struct Drift {
    /// Games (seeds `--seed`..) the default player plays to give the positions.
    games: u64,
    /// Turns each candidate plays from a position.
    horizon: u32,
    /// Ball counts of the positions kept, inclusive.
    band: (usize, usize),
    /// One position every `every` turns of a game (in the band).
    every: u32,
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
        walk: false,
        drift: None,
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
            "--drift" => {
                let v: Vec<u64> = value
                    .split(',')
                    .map(|x| x.parse().expect("--drift GAMES,HORIZON,LOW,HIGH,EVERY"))
                    .collect();
                let [games, horizon, low, high, every] = v[..] else {
                    panic!("--drift GAMES,HORIZON,LOW,HIGH,EVERY");
                };
                o.drift = Some(Drift {
                    games,
                    horizon: horizon as u32,
                    band: (low as usize, high as usize),
                    every: every.max(1) as u32,
                });
            }
            "--walk" => {
                o.walk = true;
                i += 1;
                continue;
            }
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

/// `f` of every item, in order, on `threads` threads.
fn parallel<T: Sync, R: Send + Default + Clone>(
    items: &[T],
    threads: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let mut out = vec![R::default(); items.len()];
    let chunk = items.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let f = &f;
        let handles: Vec<_> = out
            .chunks_mut(chunk)
            .zip(items.chunks(chunk))
            .map(|(out, items)| {
                scope.spawn(move || {
                    for (o, item) in out.iter_mut().zip(items) {
                        *o = f(item);
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().expect("a worker");
        }
    });
    out
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
    per_candidate(cands, seeds, threads, |w, &s| {
        play(w, budget, s, salt, max_turns)
    })
}

/// `f` of every candidate on every item (candidate-major), on `threads` threads.
fn per_candidate<T: Sync, R: Send + Default + Clone>(
    cands: &[Weights],
    items: &[T],
    threads: usize,
    f: impl Fn(&Weights, &T) -> R + Sync,
) -> Vec<R> {
    let jobs: Vec<(usize, usize)> = (0..cands.len())
        .flat_map(|c| (0..items.len()).map(move |i| (c, i)))
        .collect();
    parallel(&jobs, threads, |&(c, i)| f(&cands[c], &items[i]))
}

/// The positions of `--drift`: every `every`-th turn, with a ball count in the band, of
/// the default player's games from seeds `seed`.. (in seed order).
fn positions(d: &Drift, seed: u64, threads: usize) -> Vec<LinesGame> {
    let seeds: Vec<u64> = (0..d.games).map(|k| seed + k).collect();
    let weights = Weights::default();
    let per_game = parallel(&seeds, threads, |&s| {
        let mut game = LinesGame::new(Settings::default(), Spawner::seed_from_u64(s));
        let mut kept = Vec::new();
        while !game.is_over() {
            let balls = game.board().ball_count();
            if game.turns().is_multiple_of(d.every) && (d.band.0..=d.band.1).contains(&balls) {
                kept.push(game.clone());
            }
            let next = game.next_colors();
            let Some((c, _)) =
                search::best_move_with(game.board(), &next, &Budget::fast(), 0, &weights)
            else {
                break;
            };
            if game.play_move(c.from, c.to).is_err() {
                break;
            }
        }
        kept
    });
    per_game.into_iter().flatten().collect()
}

/// What a candidate does from one position of `--drift` in `horizon` turns (played by
/// [`ai::play_out_with`]): the change of the ball count (a board that fills up counts as
/// full plus three balls for every turn it did not play) and its turns' counts.
fn drift_from(weights: &Weights, start: &LinesGame, horizon: u32) -> (i32, Counts) {
    let first = start.board().ball_count() as i32;
    let mut counts = Counts::default();
    let mut last = first;
    let end = start.turns() + horizon;
    let played = ai::play_out_with(start.clone(), &Budget::fast(), weights, 0, end, |t| {
        counts.add(t);
        last = balls_after(t);
    });
    let delta = if played.finished {
        CELLS as i32 - first + 3 * end.saturating_sub(played.turns) as i32
    } else {
        last - first
    };
    (delta, counts)
}

/// The balls on the board after `turn` (nothing lands after a line).
fn balls_after(turn: &ai::Turn<'_>) -> i32 {
    let r = turn.report;
    (turn.before.ball_count() + r.landed.len() - r.cleared.len() - r.cleared_by_landing.len())
        as i32
}

/// `--drift`: each candidate's mean drift over every position (balls gained per
/// position's horizon, negated: higher is better), or with `walk` the turns of the walk
/// its line shares over all those turns make ([`Counts::walk`]).
fn drift_all(
    cands: &[Weights],
    games: &[LinesGame],
    horizon: u32,
    threads: usize,
    walk: bool,
) -> Vec<f64> {
    per_candidate(cands, games, threads, |w, g| drift_from(w, g, horizon))
        .chunks(games.len().max(1))
        .map(|c| {
            if walk {
                merged(c.iter().map(|r| &r.1)).walk()
            } else {
                -f64::from(c.iter().map(|r| r.0).sum::<i32>()) / c.len() as f64
            }
        })
        .collect()
}

/// All of `counts` together.
fn merged<'a>(counts: impl Iterator<Item = &'a Counts>) -> Counts {
    let mut all = Counts::default();
    for c in counts {
        all.merge(c);
    }
    all
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

/// `--walk`: each candidate's walk turns ([`Counts::walk`]) from the line shares of its
/// moves over the games `seeds` (budget 1).
fn walk_all(cands: &[Weights], seeds: &[u64], max_turns: u32, threads: usize) -> Vec<f64> {
    per_candidate(cands, seeds, threads, |w, &s| {
        let game = LinesGame::new(Settings::default(), Spawner::seed_from_u64(s));
        let mut counts = Counts::default();
        ai::play_out_with(game, &Budget::fast(), w, s, max_turns, |t| {
            counts.add(t);
        });
        counts
    })
    .chunks(seeds.len())
    .map(|games| merged(games.iter()).walk())
    .collect()
}

/// `--measure`: the weights `--weights` over games `--seed`.. with `--budget` playouts,
/// printed as `banco bench lines` prints them.
fn measure(o: &Options) {
    if let Some(d) = o.drift {
        measure_drift(o, &d);
        return;
    }
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

/// `--measure --drift`: the weights `--weights` from every position, one line each, then
/// `positions N drift D se E line_share L` (balls gained per horizon; lines per turn).
fn measure_drift(o: &Options, d: &Drift) {
    let games = positions(d, o.seed, o.threads);
    let results = parallel(&games, o.threads, |g| drift_from(&o.start, g, d.horizon));
    for (k, (delta, counts)) in results.iter().enumerate() {
        let lines: u32 = counts.lines.iter().sum();
        println!("position {} delta {delta} lines {lines}", k + 1);
    }
    let n = results.len().max(1) as f64;
    let mean = results.iter().map(|r| f64::from(r.0)).sum::<f64>() / n;
    let var = results
        .iter()
        .map(|r| (f64::from(r.0) - mean).powi(2))
        .sum::<f64>()
        / (n - 1.0).max(1.0);
    let all = merged(results.iter().map(|r| &r.1));
    let lines = f64::from(all.lines.iter().sum::<u32>());
    println!(
        "positions {} drift {mean:.3} se {:.3} line_share {:.4}",
        results.len(),
        (var / n).sqrt(),
        lines / (n * f64::from(d.horizon))
    );
    println!("walk {:.1}", all.walk());
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
    let drift = o.drift.map(|d| {
        let games = positions(&d, o.seed, o.threads);
        println!(
            "drift: {} positions of {}..{} balls, every {} turns of {} games, horizon {}",
            games.len(),
            d.band.0,
            d.band.1,
            d.every,
            d.games,
            d.horizon
        );
        (d, games)
    });
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
        let scores = match &drift {
            Some((d, games)) => drift_all(&cands, games, d.horizon, o.threads, o.walk),
            None if o.walk => walk_all(&cands, &seeds, max_turns, o.threads),
            None => judge_all(&cands, &seeds, max_turns, o.threads, o.log),
        };
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
        let judged_on = if drift.is_some() {
            "the positions".to_string()
        } else {
            format!("seeds {}..{}", seeds[0], seeds[seeds.len() - 1])
        };
        println!(
            "generation {} {judged_on} previous_mean_weights {:.1} best {:.1} elite {:.1} spread {:.3}",
            g + 1,
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
