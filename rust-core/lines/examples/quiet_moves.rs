#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    missing_docs
)]
//! Scratch: what the quiet moves do.
use banco_game::ScoreGame;
use banco_lines::ai::{
    self, Budget, Reason,
    eval::{Masks, Regions},
    plan,
};
use banco_lines::spawn::Spawner;
use banco_lines::{LinesGame, Settings};

fn min_cost(b: &banco_lines::Board) -> u8 {
    let m = Masks::of(b);
    let c = plan::cheapest(&m, &Regions::of(m.empty));
    c.iter()
        .map(|x| if x[0] == 0 { 9 } else { x[0] })
        .min()
        .unwrap()
}

fn main() {
    let budget = Budget::fast();
    // [min cost before 1..3,9][reason length 0(opens),2,3,4]
    let mut tab = [[0u32; 5]; 10];
    let mut after = [[0u32; 10]; 10];
    for seed in 1..51u64 {
        let mut game = LinesGame::new(Settings::default(), Spawner::seed_from_u64(seed));
        while !game.is_over() {
            let s = seed ^ (u64::from(game.turns()) << 32);
            let h = ai::hint(&game, &budget, s).unwrap();
            let before = min_cost(game.board());
            let n = game.board().ball_count();
            let mut b = *game.board();
            let ball = b.get(h.mv.from);
            b.set(h.mv.from, None);
            b.set(h.mv.to, ball);
            let mc_after_move = min_cost(&b);
            let r = game.play(h.mv).unwrap();
            if r.cleared.is_empty() && (35..65).contains(&n) {
                let k = match h.reason {
                    Reason::Builds { length, .. } => length,
                    _ => 0,
                };
                tab[before as usize][k] += 1;
                after[before as usize][mc_after_move as usize] += 1;
            }
        }
    }
    for (i, row) in tab.iter().enumerate() {
        if row.iter().sum::<u32>() > 0 {
            println!(
                "min cost before {i}: opens {} builds2 {} builds3 {} builds4 {} | min cost after move {:?}",
                row[0], row[2], row[3], row[4], after[i]
            );
        }
    }
}
