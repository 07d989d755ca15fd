//! Runs the bench: `cargo run --release -p banco-engine --example bench [DEPTH]`.
fn main() {
    let depth = std::env::args()
        .nth(1)
        .and_then(|d| d.parse().ok())
        .unwrap_or(banco_engine::bench::DEFAULT_DEPTH);
    let r = banco_engine::bench::run_positions(banco_engine::bench::POSITIONS, depth, 16);
    for l in &r.lines {
        println!("{l}");
    }
    println!("{}", r.summary());
}
