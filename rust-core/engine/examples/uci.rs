//! A UCI engine without the CLI (the same session as `banco uci`), for fixed-node
//! self-play matches against another build: `cargo build --profile test -p banco-engine
//! --example uci`, then `tests/strength/xiangqi_match.py --banco target/debug/examples/uci
//! --opponent "OTHER_BUILD uci" --nodes 2000`. Arguments are ignored (the script passes `uci`).
fn main() {
    let stdin = std::io::stdin();
    if let Err(e) = banco_engine::uci::run(stdin.lock(), std::io::stdout()) {
        eprintln!("{e}");
    }
}
