//! Teaches the first stage (every legal move judged by the evaluation in closed form) what
//! stage two's playouts think of the same moves: expert iteration with 23 weights.
//!
//! `gen` plays seeded games with the budget-1 player and, every `--every` turns, keeps
//! the position with the `--cands` best moves by stage one and `--random` other legal
//! moves, each valued by `--samples` playouts of the hint's kind
//! ([`search::playout_means`]: the same landings for every move). One line per position:
//! the 81 cell codes and the 3 announced colours, then `from:to:value` per move.
//!
//! `fit` searches the weights (noisy cross-entropy, as `tune` does) that minimise the
//! *regret* of stage one's choice on those positions: the teacher's best value minus the
//! teacher's value of the move the weights put first among the stored ones, smoothed as a
//! softmax over the stage-one values at temperature `--tau` (points). A fifth of the
//! positions (every fifth line) is held out and reported, never fitted. `score` prints
//! the regret of given weights.
//!
//! Weights are specs as `Weights::apply_spec` reads: `--weights` (the player's, over the
//! default), `--teacher-weights` (the playouts', over the player's) and `--start` (the
//! fit's first mean, over the default).
//!
//! ```text
//! nice target/release/examples/distill gen --games 60 --seed 5000000 --out /tmp/d1.txt
//! nice target/release/examples/distill fit --data /tmp/d1.txt,/tmp/d2.txt --threads 2
//! target/release/examples/distill score --data /tmp/d1.txt --weights plan1=12
//! ```
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    missing_docs
)]

use banco_lines::ai::eval::{Masks, WEIGHT_COUNT, Weights};
use banco_lines::ai::search::{self, Candidate, LOST, SampleRng};
use banco_lines::ai::value::Value;
use banco_lines::ai::{self, Budget};
use banco_lines::lines::lines_through;
use banco_lines::score::points;
use banco_lines::spawn::Spawner;
use banco_lines::{Ball, Board, Cell, LinesGame, Settings};
use std::io::Write;

fn arg<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> T {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map_or(default, |v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{name}: `{v}` is not a number"))
        })
}

fn text(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

/// The weights `name` gives (a spec as `Weights::apply_spec` reads), or `default`.
fn weights_arg(args: &[String], name: &str, default: Weights) -> Weights {
    text(args, name).map_or(default, |s| {
        let mut w = default;
        w.apply_spec(&s).unwrap_or_else(|e| panic!("{name}: {e}"));
        w
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("gen") => generate(&args),
        Some("fit") => fit(&args),
        Some("score") => score(&args),
        _ => {
            eprintln!("usage: distill gen|fit|score [options] (see the module docs)");
            std::process::exit(2);
        }
    }
}

fn generate(args: &[String]) {
    let games: u64 = arg(args, "--games", 10);
    let first: u64 = arg(args, "--seed", 5_000_000);
    let keep: usize = arg(args, "--cands", 12);
    let random: usize = arg(args, "--random", 8);
    let samples: usize = arg(args, "--samples", 48);
    let every: u32 = arg(args, "--every", 3);
    let budget = Budget::from_playouts(arg(args, "--teacher", 30));
    let weights = weights_arg(args, "--weights", Weights::default());
    let teacher = weights_arg(args, "--teacher-weights", weights);
    let out = text(args, "--out").expect("--out FILE");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&out).unwrap());
    let mut all = Vec::with_capacity(2048);
    let mut positions = 0;
    for seed in first..first + games {
        let game = LinesGame::new(Settings::default(), Spawner::seed_from_u64(seed));
        let played = ai::play_out_with(game, &Budget::fast(), &weights, seed, u32::MAX, |turn| {
            if turn.number % every != 0 {
                return;
            }
            // The position before the move, and the seed its move was searched with.
            let (board, next, s) = (turn.before, &turn.next, turn.seed);
            search::candidates(board, Some(next), &weights, &mut all);
            all.sort_by(|a, b| b.heuristic.total_cmp(&a.heuristic));
            let mut set: Vec<Candidate> = all.iter().take(keep).copied().collect();
            let mut rest: Vec<Candidate> = all.iter().skip(keep).copied().collect();
            let mut rng = SampleRng::new(s ^ 0xD15);
            for _ in 0..random {
                if rest.is_empty() {
                    break;
                }
                let i = rng.below(rest.len());
                set.push(rest.swap_remove(i));
            }
            if set.len() < 2 {
                return;
            }
            let q = search::playout_means(board, next, &set, &budget, samples, s, &teacher);
            let codes: String = board.codes().iter().map(|c| char::from(b'0' + c)).collect();
            let nc: String = next
                .iter()
                .map(|b| char::from(b'1' + b.index() as u8))
                .collect();
            write!(file, "{codes}{nc}").unwrap();
            for (c, v) in set.iter().zip(&q) {
                write!(file, " {}:{}:{v:.3}", c.from.index(), c.to.index()).unwrap();
            }
            writeln!(file).unwrap();
            positions += 1;
        });
        file.flush().unwrap();
        println!(
            "game {seed} score {} turns {} positions {positions}",
            played.score, played.turns
        );
    }
}

/// One stored move: the board it leaves and what the first stage needs to judge it.
struct Judged {
    after: Board,
    masks: Masks,
    /// Points and balls removed (0: a quiet move).
    pts: u32,
    removed: usize,
    lost: bool,
    q: f32,
}

struct Position {
    board: Board,
    next: [Ball; 3],
    cells: Vec<(usize, usize)>,
    moves: Vec<Judged>,
    best_q: f32,
}

fn load(paths: &str) -> Vec<Position> {
    let mut out = Vec::new();
    for path in paths.split(',') {
        for line in std::fs::read_to_string(path).unwrap().lines() {
            let mut parts = line.split(' ');
            let head = parts.next().unwrap().as_bytes();
            let codes: Vec<u8> = head[..81].iter().map(|c| c - b'0').collect();
            let board = Board::from_codes(&codes).unwrap();
            let next: Vec<Ball> = head[81..84]
                .iter()
                .map(|c| Ball::from_index(usize::from(c - b'1')).unwrap())
                .collect();
            let free = board.empty_count();
            let mut moves = Vec::new();
            let mut cells = Vec::new();
            for m in parts {
                let mut f = m.split(':');
                let from = Cell::from_index(f.next().unwrap().parse().unwrap()).unwrap();
                let to = Cell::from_index(f.next().unwrap().parse().unwrap()).unwrap();
                let q: f32 = f.next().unwrap().parse().unwrap();
                cells.push((from.index(), to.index()));
                let mut after = board;
                let ball = after.get(from);
                after.set(from, None);
                after.set(to, ball);
                let cleared = lines_through(&after, to);
                after.clear(cleared);
                moves.push(Judged {
                    masks: Masks::of(&after),
                    after,
                    pts: points(cleared.len()),
                    removed: cleared.len(),
                    lost: cleared.is_empty() && free <= 3,
                    q,
                });
            }
            let best_q = moves.iter().map(|m| m.q).fold(f32::MIN, f32::max);
            out.push(Position {
                board,
                cells,
                next: [next[0], next[1], next[2]],
                moves,
                best_q,
            });
        }
    }
    out
}

fn heuristic(m: &Judged, next: &[Ball], w: &Weights) -> f32 {
    if m.lost {
        LOST
    } else if m.removed == 0 {
        w.after_move(&m.after, &m.masks, Some(next))
    } else {
        m.pts as f32 + w.after_line(&m.after, Some(next), m.removed)
    }
}

/// (smoothed regret, hard regret, share of positions where the first stage picks the
/// teacher's best) over `positions`.
fn regret(positions: &[&Position], w: &Weights, tau: f32, cap: f32) -> (f64, f64, f64) {
    let mut soft = 0.0;
    let mut hard = 0.0;
    let mut agree = 0.0;
    let mut h = Vec::new();
    for p in positions {
        h.clear();
        h.extend(p.moves.iter().map(|m| heuristic(m, &p.next, w)));
        let top = h.iter().copied().fold(f32::MIN, f32::max);
        let mut z = 0.0f64;
        let mut e = 0.0f64;
        for (hv, m) in h.iter().zip(&p.moves) {
            let x = f64::from((hv - top) / tau).exp();
            z += x;
            e += x * f64::from((p.best_q - m.q).min(cap));
        }
        soft += e / z;
        let pick = h
            .iter()
            .enumerate()
            .fold((0, f32::MIN), |b, (i, &v)| if v > b.1 { (i, v) } else { b })
            .0;
        let r = f64::from((p.best_q - p.moves[pick].q).min(cap));
        hard += r;
        if r == 0.0 {
            agree += 1.0;
        }
    }
    let n = positions.len().max(1) as f64;
    (soft / n, hard / n, agree / n)
}

fn split(data: &[Position]) -> (Vec<&Position>, Vec<&Position>) {
    let mut train = Vec::new();
    let mut test = Vec::new();
    for (i, p) in data.iter().enumerate() {
        if i % 5 == 4 {
            test.push(p);
        } else {
            train.push(p);
        }
    }
    (train, test)
}

fn score(args: &[String]) {
    let data = load(&text(args, "--data").expect("--data FILES"));
    let tau: f32 = arg(args, "--tau", 2.0);
    let cap: f32 = arg(args, "--cap", 100.0);
    let w = weights_arg(args, "--weights", Weights::default());
    let (train, test) = split(&data);
    let a = regret(&train, &w, tau, cap);
    let b = regret(&test, &w, tau, cap);
    let outside = data
        .iter()
        .filter(|p| {
            search::best_candidate(&p.board, Some(&p.next), &w)
                .is_some_and(|c| !p.cells.contains(&(c.from.index(), c.to.index())))
        })
        .count();
    println!(
        "first choice outside the stored moves: {outside} of {}",
        data.len()
    );
    println!(
        "positions {} train soft {:.3} hard {:.3} agree {:.3} | held out soft {:.3} hard {:.3} agree {:.3}",
        data.len(),
        a.0,
        a.1,
        a.2,
        b.0,
        b.1,
        b.2
    );
}

fn to_weights(v: &[f64]) -> Weights {
    let mut a = [0f32; WEIGHT_COUNT];
    for (o, &x) in a.iter_mut().zip(v) {
        *o = x as f32;
    }
    Weights::from_array(&a)
}

fn fit(args: &[String]) {
    let data = load(&text(args, "--data").expect("--data FILES"));
    let tau: f32 = arg(args, "--tau", 2.0);
    let cap: f32 = arg(args, "--cap", 100.0);
    let generations: usize = arg(args, "--generations", 30);
    let population: usize = arg(args, "--population", 32);
    let elite: usize = arg(args, "--elite", 8);
    let spread: f64 = arg(args, "--spread", 0.3);
    let threads: usize = arg(args, "--threads", 2);
    let hard = args.iter().any(|a| a == "--hard");
    let fixed: Vec<String> = text(args, "--fixed")
        .map(|s| s.split(',').map(str::to_string).collect())
        .unwrap_or_default();
    let start = weights_arg(args, "--start", Weights::default());
    let (train, test) = split(&data);
    let mut mean: Vec<f64> = start.to_array().iter().map(|&v| f64::from(v)).collect();
    let frozen: Vec<bool> = Weights::NAMES
        .iter()
        .map(|n| fixed.iter().any(|f| f == n))
        .collect();
    let floor: Vec<f64> = mean.iter().map(|m| (0.05 * m.abs()).max(0.02)).collect();
    let mut sd: Vec<f64> = mean
        .iter()
        .zip(&frozen)
        .map(|(m, &f)| {
            if f {
                0.0
            } else {
                (spread * m.abs()).max(0.5 * spread)
            }
        })
        .collect();
    let mut rng = SampleRng::new(0x0D15_7111);
    let s0 = regret(&train, &start, tau, cap);
    let t0 = regret(&test, &start, tau, cap);
    println!(
        "positions {} (train {}, held out {}), tau {tau}; start train {:.3}/{:.3}/{:.3} held out {:.3}/{:.3}/{:.3}",
        data.len(),
        train.len(),
        test.len(),
        s0.0,
        s0.1,
        s0.2,
        t0.0,
        t0.1,
        t0.2
    );
    for g in 0..generations {
        let mut draws = vec![mean.clone()];
        for _ in 1..population {
            draws.push(
                (0..WEIGHT_COUNT)
                    .map(|i| mean[i] + sd[i] * rng.gaussian())
                    .collect(),
            );
        }
        let scores: Vec<f64> = {
            let chunk = draws.len().div_ceil(threads.max(1));
            let train = &train;
            std::thread::scope(|scope| {
                let handles: Vec<_> = draws
                    .chunks(chunk)
                    .map(|part| {
                        scope.spawn(move || {
                            part.iter()
                                .map(|v| {
                                    let r = regret(train, &to_weights(v), tau, cap);
                                    if hard { r.1 } else { r.0 }
                                })
                                .collect::<Vec<f64>>()
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .flat_map(|h| h.join().unwrap())
                    .collect()
            })
        };
        let mut order: Vec<usize> = (0..draws.len()).collect();
        order.sort_by(|&a, &b| scores[a].total_cmp(&scores[b]));
        let best = &order[..elite.clamp(2, draws.len())];
        let shrink = 1.0 - (g as f64 + 1.0) / generations as f64;
        for i in 0..WEIGHT_COUNT {
            if frozen[i] {
                continue;
            }
            let m = best.iter().map(|&e| draws[e][i]).sum::<f64>() / best.len() as f64;
            let var =
                best.iter().map(|&e| (draws[e][i] - m).powi(2)).sum::<f64>() / best.len() as f64;
            mean[i] = m;
            sd[i] = (var + (floor[i] * shrink).powi(2)).sqrt();
        }
        let w = to_weights(&mean);
        let a = regret(&train, &w, tau, cap);
        let b = regret(&test, &w, tau, cap);
        println!(
            "generation {} best {:.3} mean train {:.3}/{:.3}/{:.3} held out {:.3}/{:.3}/{:.3}",
            g + 1,
            scores[order[0]],
            a.0,
            a.1,
            a.2,
            b.0,
            b.1,
            b.2
        );
    }
    println!("weights {}", to_weights(&mean).to_spec());
}
