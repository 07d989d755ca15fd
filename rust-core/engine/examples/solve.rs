//! Solves the puzzles of a TSV file: `cargo run --release -p banco-engine --example solve FILE`.
use banco_engine::solve::{SolveOptions, solve_fen};
use banco_xiangqi::Xiangqi;
fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "tests/data/puzzles/xiangqi-mates.tsv".to_owned());
    let Ok(text) = std::fs::read_to_string(&path) else {
        return;
    };
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 3 {
            continue;
        }
        let max: u32 = f[2].parse().unwrap_or(15);
        let Ok(r) = solve_fen::<Xiangqi>(
            f[1],
            &SolveOptions {
                max_mate: max,
                ..SolveOptions::default()
            },
        ) else {
            continue;
        };
        println!(
            "{}\tmate_in {}\t{}\tnodes {}\t{} ms",
            f[0],
            max,
            r.last_line(),
            r.nodes,
            r.time_ms
        );
    }
}
