//! Engine match without the CLI: `cargo run --release -p banco-engine --example match -- A B GAMES [MS] [MAX_PLIES] [SEED] [RANDOM_PLIES]`.
use banco_engine::matchplay::{self, MatchOptions, PlayerSpec};
use banco_xiangqi::Xiangqi;
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(a), Some(b)) = (args.first(), args.get(1)) else {
        eprintln!("usage: match A B GAMES [MS] [MAX_PLIES]");
        return;
    };
    let (Ok(pa), Ok(pb)) = (
        a.parse::<PlayerSpec<Xiangqi>>(),
        b.parse::<PlayerSpec<Xiangqi>>(),
    ) else {
        eprintln!("bad spec");
        return;
    };
    let options = MatchOptions {
        games: args.get(2).and_then(|g| g.parse().ok()).unwrap_or(10),
        movetime_ms: args.get(3).and_then(|t| t.parse().ok()).filter(|&t| t > 0),
        max_plies: args.get(4).and_then(|t| t.parse().ok()).unwrap_or(300),
        seed: args.get(5).and_then(|t| t.parse().ok()).unwrap_or(1),
        random_plies: args.get(6).and_then(|t| t.parse().ok()).unwrap_or(0),
        ..MatchOptions::default()
    };
    let report = matchplay::run(&pa, &pb, &options, |g| {
        println!(
            "game {:3} a_first {} {:28} plies {:3} a_score {} ({})",
            g.index + 1,
            g.a_first,
            g.opening,
            g.plies,
            g.a_score,
            g.reason
        );
    });
    println!("{a} vs {b}");
    println!("{}", report.summary());
}
