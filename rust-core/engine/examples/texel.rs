//! The Texel tuner of the xiangqi evaluation (method: `banco_engine::xiangqi::texel`).
//!
//! ```text
//! texel gen  --out FILE [--games N] [--first G] [--seed S] [--nodes N] [--random-plies P] [--max-plies P]
//! texel import --log FILE.jsonl[,FILE...] --out FILE [--skip-plies P]
//! texel fit  --data FILE[,FILE...] --out weights.rs [--start tuned|hand] [--epochs E] [--rate R] [--min-count C] [--l2 L] [--freeze-threats] [--note TEXT]
//! ```
//! `gen` appends `FEN;result` lines (quiet positions, Red's result) for games `first ..
//! first + games` of the seeded run; `import` turns the game logs of
//! `tests/strength/xiangqi_match.py --log` (sparring matches) into the same lines, each
//! position after the first P plies (default 8) resolved to a quiet one like `gen` does;
//! `fit` fits every weight on the files and writes the
//! Rust source of the weights (`rust-core/engine/src/xiangqi/weights.rs`);
//! `--freeze-threats` holds the threat weights at their start (a fit without the threats).
use banco_engine::XiangqiParams;
use banco_engine::xiangqi::texel::{
    self, Dataset, FitOptions, Sample, fit, fit_k, from_vector, to_vector, weight_name,
};
use banco_engine::xiangqi::texel_gen::{GenOptions, play_game, quiet};
use banco_xiangqi::fen::to_fen;
use banco_xiangqi::{Position, Square};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::Write as _;
use std::time::Instant;

fn arg<T: std::str::FromStr>(args: &[String], key: &str, default: T) -> T {
    args.iter()
        .position(|a| a == key)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn text_arg(args: &[String], key: &str) -> Option<String> {
    args.iter()
        .position(|a| a == key)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.first().map(String::as_str) {
        Some("gen") => generate(&args[1..]),
        Some("fit") => tune(&args[1..]),
        Some("import") => import(&args[1..]),
        _ => Err(
            "usage: texel gen --out FILE [...] | texel fit --data FILES --out weights.rs [...]"
                .to_owned(),
        ),
    };
    if let Err(e) = code {
        eprintln!("texel: {e}");
        std::process::exit(1);
    }
}

fn generate(args: &[String]) -> Result<(), String> {
    let out = text_arg(args, "--out").ok_or("gen needs --out FILE")?;
    let games: u64 = arg(args, "--games", 100);
    let first: u64 = arg(args, "--first", 0);
    let defaults = GenOptions::default();
    let options = GenOptions {
        nodes: arg(args, "--nodes", defaults.nodes),
        random_plies: arg(args, "--random-plies", defaults.random_plies),
        max_plies: arg(args, "--max-plies", defaults.max_plies),
        seed: arg(args, "--seed", defaults.seed),
        ..defaults
    };
    let params = XiangqiParams::default();
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&out)
        .map_err(|e| format!("cannot open {out}: {e}"))?;
    let mut seen = HashSet::new();
    let (mut total, mut kept) = (0usize, 0usize);
    let mut score = [0u32; 3];
    let start = Instant::now();
    for index in first..first + games {
        let g = play_game(&options, index, &params);
        score[(g.result * 2.0) as usize] += 1;
        let mut lines = String::new();
        for pos in &g.positions {
            total += 1;
            if seen.insert(pos.hash()) {
                kept += 1;
                let _ = writeln!(lines, "{};{}", to_fen(pos), g.result);
            }
        }
        file.write_all(lines.as_bytes())
            .map_err(|e| format!("cannot write {out}: {e}"))?;
        if (index + 1 - first).is_multiple_of(10) || index + 1 == first + games {
            eprintln!(
                "game {} plies {} result {}; {kept} positions kept of {total}; red won {} drew {} lost {}; {:.0} s",
                index + 1,
                g.plies,
                g.result,
                score[2],
                score[1],
                score[0],
                start.elapsed().as_secs_f64()
            );
        }
    }
    println!(
        "games {first}..{} seed {} nodes {} random plies {}: {kept} positions ({total} before removing repeats)",
        first + games,
        options.seed,
        options.nodes,
        options.random_plies
    );
    Ok(())
}

/// The string value of `"key": "..."` in a JSON line (no escapes in the logs' values).
fn json_str<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let at = line.find(&format!("\"{key}\": \""))? + key.len() + 5;
    let len = line[at..].find('"')?;
    Some(&line[at..at + len])
}

/// The moves of `"moves": ["h2e2", ...]` in a JSON line.
fn json_moves(line: &str) -> Option<Vec<&str>> {
    let at = line.find("\"moves\": [")? + 10;
    let len = line[at..].find(']')?;
    Some(
        line[at..at + len]
            .split(',')
            .map(|m| m.trim().trim_matches('"'))
            .filter(|m| !m.is_empty())
            .collect(),
    )
}

/// The legal move `from`-`to` written as `h2e2` in `pos`.
fn find_move(pos: &Position, text: &str) -> Option<banco_xiangqi::Move> {
    let (from, to) = (text.get(..2)?, text.get(2..)?);
    let (from, to): (Square, Square) = (from.parse().ok()?, to.parse().ok()?);
    pos.legal_moves()
        .iter()
        .copied()
        .find(|m| m.from() == from && m.to() == to)
}

fn import(args: &[String]) -> Result<(), String> {
    let logs = text_arg(args, "--log").ok_or("import needs --log FILE.jsonl[,FILE...]")?;
    let out = text_arg(args, "--out").ok_or("import needs --out FILE")?;
    let skip: usize = arg(args, "--skip-plies", 8);
    let params = XiangqiParams::default();
    let mut seen = HashSet::new();
    let (mut games, mut kept) = (0usize, 0usize);
    let mut lines = String::new();
    for path in logs.split(',').filter(|p| !p.is_empty()) {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        for (n, line) in text.lines().enumerate() {
            let bad = |what: &str| format!("{path} line {}: {what}", n + 1);
            let result = match json_str(line, "result").ok_or_else(|| bad("no result"))? {
                "1-0" => 1.0,
                "0-1" => 0.0,
                "1/2-1/2" => 0.5,
                other => return Err(bad(&format!("result `{other}`"))),
            };
            let fen = json_str(line, "fen").ok_or_else(|| bad("no fen"))?;
            let mut pos: Position = fen.parse().map_err(|e| bad(&format!("{e}")))?;
            let moves = json_moves(line).ok_or_else(|| bad("no moves"))?;
            games += 1;
            for (ply, text) in moves.iter().enumerate() {
                if ply >= skip
                    && let Some(q) = quiet(&pos, &params)
                    && seen.insert(q.hash())
                {
                    kept += 1;
                    let _ = writeln!(lines, "{};{}", to_fen(&q), result);
                }
                let mv = find_move(&pos, text)
                    .ok_or_else(|| bad(&format!("move {} `{text}` is not legal", ply + 1)))?;
                pos.make(mv);
            }
        }
    }
    std::fs::write(&out, lines).map_err(|e| format!("cannot write {out}: {e}"))?;
    println!("{games} games: {kept} distinct quiet positions written to {out}");
    Ok(())
}

fn tune(args: &[String]) -> Result<(), String> {
    let files = text_arg(args, "--data").ok_or("fit needs --data FILE[,FILE...]")?;
    let out = text_arg(args, "--out").ok_or("fit needs --out weights.rs")?;
    let start_params = match text_arg(args, "--start").as_deref() {
        None | Some("tuned") => XiangqiParams::default(),
        Some("hand") => XiangqiParams::hand(),
        Some(other) => return Err(format!("--start {other}: expected tuned or hand")),
    };
    let defaults = FitOptions::default();
    let options = FitOptions {
        epochs: arg(args, "--epochs", defaults.epochs),
        rate: arg(args, "--rate", defaults.rate),
        min_count: arg(args, "--min-count", defaults.min_count),
        l2: arg(args, "--l2", defaults.l2),
        freeze_threats: args.iter().any(|a| a == "--freeze-threats"),
    };
    let (mut train, mut hold) = (Dataset::default(), Dataset::default());
    let mut seen = HashSet::new();
    for path in files.split(',').filter(|p| !p.is_empty()) {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        for (pos, result) in texel::parse_samples(&text).map_err(|e| format!("{path}: {e}"))? {
            let h = pos.hash();
            if !seen.insert(h) {
                continue;
            }
            let sample = Sample::of(&pos, result);
            // One block of 1,000 positions in ten is held out: the positions of a game are
            // together in a file, so the two sets share few games.
            if (train.len() + hold.len()) / 1000 % 10 == 9 {
                hold.push(&sample);
            } else {
                train.push(&sample);
            }
        }
    }
    eprintln!(
        "{} training positions, {} held out",
        train.len(),
        hold.len()
    );
    let mut w = to_vector(&start_params);
    let k = fit_k(&train, &w);
    let (train0, hold0) = (train.mse(&w, k), hold.mse(&w, k));
    eprintln!("K {k:.4}; start error {train0:.6} (held out {hold0:.6})");
    let start = Instant::now();
    fit(&train, &mut w, k, &options, |epoch, e| {
        eprintln!(
            "epoch {epoch}: error {e:.6}; {:.0} s",
            start.elapsed().as_secs_f64()
        );
    });
    let tuned = from_vector(&w);
    let w = to_vector(&tuned);
    let (train1, hold1) = (train.mse(&w, k), hold.mse(&w, k));
    eprintln!("end error {train1:.6} (held out {hold1:.6})");
    let before = to_vector(&start_params);
    let mut moved: Vec<(f64, usize)> = (0..w.len())
        .map(|i| ((w[i] - before[i]).abs(), i))
        .collect();
    moved.sort_by(|a, b| b.0.total_cmp(&a.0));
    for &(d, i) in moved.iter().take(20) {
        eprintln!(
            "  {:40} {:6.0} -> {:6.0} ({d:+.0})",
            weight_name(i),
            before[i],
            w[i]
        );
    }
    let mut header: Vec<String> = text_arg(args, "--note").into_iter().collect();
    header.splice(
        0..0,
        [format!(
            "Data: {} ({} positions, {} of them held out for validation).",
            files,
            train.len() + hold.len(),
            hold.len()
        )],
    );
    header.extend([
        format!(
            "Fit: K = {k:.4}; {} epochs of Adam, step {}, ridge {:e}, weights in fewer than {} positions frozen.",
            options.epochs, options.rate, options.l2, options.min_count
        ) + if options.freeze_threats {
            " Threat weights held at their start (--freeze-threats)."
        } else {
            ""
        },
        format!(
            "Mean squared error: training {train0:.6} -> {train1:.6}, held out {hold0:.6} -> {hold1:.6}."
        ),
    ]);
    std::fs::write(&out, texel::rust_source(&tuned, &header))
        .map_err(|e| format!("cannot write {out}: {e}"))?;
    println!("wrote {out}");
    Ok(())
}
