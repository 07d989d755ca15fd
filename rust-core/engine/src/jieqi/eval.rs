//! The jieqi evaluation: revealed pieces at their values, face-down pieces at the
//! expectation of their owner's pool, and what makes a reveal good or bad.
//!
//! * **Material.** A revealed piece is worth its kind's value; revealed advisors and
//!   elephants are worth more than in xiangqi because nothing confines them. A face-down
//!   piece is worth the mean value of its owner's pool (weighted by the counts: exactly the
//!   expected value of its identity), less a small discount: until it moves it is
//!   undeveloped, and the search sees that revealing it gains the difference.
//! * **Mobility.** Revealed rooks, horses and cannons by the squares they reach; a
//!   face-down piece by the moves it has as the piece of its home square (a blocked one
//!   cannot be revealed usefully soon).
//! * **Pawns** across the river gain, more near the enemy palace.
//! * **King safety: rooks against missing guards.** Each advisor or elephant a side lacks
//!   at home (revealed there, or still face down on a guard's square) is worth a bonus to
//!   the enemy per enemy rook, and more when the enemy has both rooks — the classic "two
//!   rooks against missing advisors" of jieqi.
//!
//! The plain reference weights ([`JieqiParams::plain`]) are material only with one fixed
//! value for every face-down piece, as the seed apps played.
//!
//! ```
//! use banco_engine::jieqi::eval::{JieqiParams, evaluate};
//! use banco_xiangqi::jieqi::JieqiPosition;
//! let start = JieqiPosition::startpos();
//! assert_eq!(evaluate(&start, &JieqiParams::default()), JieqiParams::default().tempo);
//! assert_eq!(evaluate(&start, &JieqiParams::plain()), 0);
//! ```

use banco_game::Color;
use banco_xiangqi::jieqi::{HIDDEN, JieqiPosition};
use banco_xiangqi::raw::{
    ADVISOR, CANNON, ELEPHANT, HORSE, HORSE_STEPS, KING, PAWN, ROOK, code_side, is_board_square,
};

/// Evaluation weights of jieqi.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JieqiParams {
    /// Value of a revealed piece by kind (king, advisor, elephant, horse, rook, cannon,
    /// pawn).
    pub material: [i32; 7],
    /// A face-down piece is worth this percentage of its pool's mean value.
    pub hidden_pct: i32,
    /// Plain weights: every face-down piece is worth [`JieqiParams::hidden_value`] and
    /// nothing but material counts.
    pub plain: bool,
    /// The fixed value of a face-down piece under plain weights.
    pub hidden_value: i32,
    /// Per square a revealed rook reaches.
    pub rook_mobility: i32,
    /// Per square a revealed horse reaches.
    pub horse_mobility: i32,
    /// Per square a revealed cannon reaches.
    pub cannon_mobility: i32,
    /// Per move a face-down piece has.
    pub hidden_mobility: i32,
    /// A pawn across the river; twice that on the enemy's last three ranks.
    pub pawn_crossed: i32,
    /// Per missing guard of the enemy, per own rook.
    pub rook_vs_guards: i32,
    /// Per missing guard of the enemy, extra when both own rooks are on the board.
    pub two_rooks_vs_guards: i32,
    /// For the side to move.
    pub tempo: i32,
}

impl Default for JieqiParams {
    fn default() -> Self {
        JieqiParams {
            material: [0, 200, 200, 400, 900, 450, 90],
            hidden_pct: 95,
            plain: false,
            hidden_value: 0,
            rook_mobility: 5,
            horse_mobility: 8,
            cannon_mobility: 3,
            hidden_mobility: 3,
            pawn_crossed: 50,
            rook_vs_guards: 30,
            two_rooks_vs_guards: 25,
            tempo: 10,
        }
    }
}

impl JieqiParams {
    /// The plain reference weights: material only, face-down pieces at one fixed value
    /// (the mean of a full pool, 330), xiangqi's seed values for revealed pieces.
    #[must_use]
    pub fn plain() -> JieqiParams {
        JieqiParams {
            material: [0, 120, 120, 400, 900, 450, 60],
            plain: true,
            hidden_value: 330,
            tempo: 0,
            ..JieqiParams::default()
        }
    }

    /// Mean value of `color`'s pool (0 for an empty pool).
    #[must_use]
    pub fn pool_mean(&self, pos: &JieqiPosition, color: Color) -> i32 {
        let pool = pos.pool(color);
        let total = pool.total() as i32;
        if total == 0 {
            return 0;
        }
        let sum: i32 = pool
            .iter()
            .map(|(k, n)| self.material[k as usize] * i32::from(n))
            .sum();
        sum / total
    }

    /// The value of a face-down piece of `color` here.
    #[must_use]
    pub fn hidden(&self, pos: &JieqiPosition, color: Color) -> i32 {
        if self.plain {
            self.hidden_value
        } else {
            self.pool_mean(pos, color) * self.hidden_pct / 100
        }
    }
}

const ORTHO: [u8; 4] = [16, 0u8.wrapping_sub(16), 1, 0u8.wrapping_sub(1)];

/// Squares a rook (cannon: `cannon`) on `f` reaches: empties and the first enemy (cannon:
/// over a screen).
fn slider_reach(b: &[u8; 256], f: u8, enemy: u8, cannon: bool) -> i32 {
    let mut n = 0;
    for d in ORTHO {
        let mut t = f.wrapping_add(d);
        while is_board_square(t) && b[t as usize] == 0 {
            n += 1;
            t = t.wrapping_add(d);
        }
        if !is_board_square(t) {
            continue;
        }
        if cannon {
            t = t.wrapping_add(d);
            while is_board_square(t) && b[t as usize] == 0 {
                t = t.wrapping_add(d);
            }
        }
        if is_board_square(t) && b[t as usize] & enemy != 0 {
            n += 1;
        }
    }
    n
}

/// Squares a horse on `f` reaches (leg free, target not own).
fn horse_reach(b: &[u8; 256], f: u8, own: u8) -> i32 {
    HORSE_STEPS
        .iter()
        .filter(|&&(leg, d)| {
            let t = f.wrapping_add(d);
            is_board_square(t) && b[f.wrapping_add(leg) as usize] == 0 && b[t as usize] & own == 0
        })
        .count() as i32
}

/// Is the inner square `s` on `side`'s own half?
fn own_half(side: usize, s: u8) -> bool {
    ((s >> 4) < 8) == (side == 0)
}

/// Static evaluation for the side to move, in centipawns.
#[must_use]
pub fn evaluate(pos: &JieqiPosition, p: &JieqiParams) -> i32 {
    let b = pos.raw_board();
    let hidden = [p.hidden(pos, Color::Red), p.hidden(pos, Color::Black)];
    let mut score = [0i32; 2];
    let mut rooks = [0i32; 2];
    let mut guards = [0i32; 2];
    for s in 0..=255u8 {
        let c = b[s as usize];
        if c == 0 {
            continue;
        }
        let side = code_side(c & 31) & 1;
        let own = 8u8 << side;
        let enemy = 8u8 << (1 - side);
        let kind = c & 7;
        if c & HIDDEN != 0 {
            score[side] += hidden[side];
            if kind == ADVISOR || kind == ELEPHANT {
                guards[side] += 1;
            }
            if !p.plain {
                let moves = match kind {
                    ROOK => slider_reach(b, s, enemy, false).min(4),
                    CANNON => slider_reach(b, s, enemy, true).min(4),
                    HORSE => horse_reach(b, s, own),
                    _ => 1,
                };
                score[side] += p.hidden_mobility * moves;
            }
            continue;
        }
        score[side] += p.material[kind as usize];
        if p.plain {
            continue;
        }
        match kind {
            ROOK => {
                rooks[side] += 1;
                score[side] += p.rook_mobility * slider_reach(b, s, enemy, false);
            }
            CANNON => score[side] += p.cannon_mobility * slider_reach(b, s, enemy, true),
            HORSE => score[side] += p.horse_mobility * horse_reach(b, s, own),
            PAWN if !own_half(side, s) => {
                // The enemy's last three ranks: rows 10-12 for Red, 3-5 for Black.
                let deep = if side == 0 { s >> 4 >= 10 } else { s >> 4 <= 5 };
                score[side] += p.pawn_crossed * if deep { 2 } else { 1 };
            }
            ADVISOR | ELEPHANT if own_half(side, s) => guards[side] += 1,
            KING => {}
            _ => {}
        }
    }
    if !p.plain {
        for side in 0..2 {
            let missing = (4 - guards[1 - side]).max(0);
            let mut bonus = missing * p.rook_vs_guards * rooks[side];
            if rooks[side] >= 2 {
                bonus += missing * p.two_rooks_vs_guards;
            }
            score[side] += bonus;
        }
    }
    let me = pos.side_to_move().index();
    score[me] - score[1 - me] + p.tempo
}
