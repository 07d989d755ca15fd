//! Scratch: solver and search on a FEN. `cargo run --release --example probe FEN`
use banco_engine::solve::{SolveOptions, solve_fen};
use banco_engine::{Limits, XiangqiSearcher};
use banco_xiangqi::{RuleSet, Xiangqi};
use std::sync::atomic::AtomicBool;
fn main() {
    for fen in std::env::args().skip(1) {
        let r = solve_fen(&fen, &SolveOptions::default());
        let Ok(game) = Xiangqi::from_fen(&fen) else {
            println!("bad fen");
            continue;
        };
        let mut s = XiangqiSearcher::new(16);
        let res = s.search(
            &game,
            &RuleSet::default(),
            &Limits::depth(8),
            &AtomicBool::new(false),
            |_| {},
        );
        println!(
            "{fen}: solver {:?} search {} {:?} {:?}",
            r.map(|r| r.last_line()),
            res.score,
            res.best_move,
            res.pv
        );
    }
}
