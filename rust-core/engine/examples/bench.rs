//! Runs the bench: `cargo run --release -p banco-engine --example bench [DEPTH]`.
use banco_engine::{EngineGame, bench};
use banco_xiangqi::Xiangqi;

fn main() {
    let depth = std::env::args()
        .nth(1)
        .and_then(|d| d.parse().ok())
        .unwrap_or(Xiangqi::BENCH_DEPTH);
    let r = bench::run_positions::<Xiangqi>(Xiangqi::BENCH_POSITIONS, depth, 16);
    for l in &r.lines {
        println!("{l}");
    }
    println!("{}", r.summary());
}
