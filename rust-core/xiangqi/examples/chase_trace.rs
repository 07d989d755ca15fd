//! Prints, move by move, whether each move gave check and which pieces the mover chases
//! before and after it — the inputs of the repetition judge.
//!
//! `cargo run --example chase_trace -p banco-xiangqi -- "FEN" "m1 m2 …"`
#![allow(clippy::unwrap_used, clippy::expect_used)]

use banco_game::Game;
use banco_xiangqi::{RuleSet, Xiangqi};

fn main() {
    let mut args = std::env::args().skip(1);
    let fen = args.next().expect("a FEN");
    let moves = args.next().unwrap_or_default();
    let mut game = Xiangqi::from_fen(&fen).expect("a legal FEN");
    for text in moves.split_whitespace() {
        let mover = game.side_to_move();
        let before = game.position().chased_by(mover);
        game.play(text.parse().expect("a move")).expect("legal");
        let after = game.position().chased_by(mover);
        let show = |v: &[banco_xiangqi::Square]| {
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(",")
        };
        println!(
            "{mover:5} {text} check {:5} chases before [{}] after [{}]",
            game.last_move_gave_check(),
            show(&before),
            show(&after)
        );
    }
    println!(
        "occurrences {} outcome {:?}",
        game.occurrences(),
        game.outcome(&RuleSet::asian())
    );
}
