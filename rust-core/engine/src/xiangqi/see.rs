//! Static exchange evaluation for xiangqi: the material a move wins or loses when both
//! sides then capture on its target square for as long as it pays, least valuable piece
//! first ([`see_ge`]). Every attacker is found again after each capture on a board that
//! the exchange has changed, so a cannon gains or loses its screen, a horse's leg or an
//! elephant's eye is blocked or freed, and a rook behind a rook (an x-ray) joins in as
//! the board says. Pins and checks are ignored, like every SEE; a king captures only when
//! the opponent has no attacker left.
//!
//! ```
//! use banco_engine::xiangqi::see::see_ge;
//! use banco_xiangqi::{Move, Position};
//! let mv = |s: &str| Move::new(s[..2].parse().unwrap(), s[2..].parse().unwrap());
//! // The red rook takes a pawn that the black horse defends: it loses a rook for a pawn.
//! let pos: Position = "4k4/9/9/9/6n2/4p4/9/9/4R4/3K5 w - - 0 1".parse().unwrap();
//! assert!(!see_ge(&pos, mv("e1e4"), 0));
//! assert!(see_ge(&pos, mv("e1e4"), -900));
//! // The same pawn undefended: a pawn won.
//! let pos: Position = "4k4/9/9/9/9/4p4/9/9/4R4/3K5 w - - 0 1".parse().unwrap();
//! assert!(see_ge(&pos, mv("e1e4"), 100));
//! assert!(!see_ge(&pos, mv("e1e4"), 101));
//! ```

use banco_xiangqi::raw::{self, ADVISOR, CANNON, ELEPHANT, HORSE, KING, PAWN, ROOK, side_base};
use banco_xiangqi::{Move, Position};

/// Exchange values in centipawns by kind code (the low three bits of a board code: king,
/// advisor, elephant, horse, rook, cannon, pawn; code 7 never occurs and reads 0).
pub const SEE_VALUES: [i32; 8] = [20_000, 140, 150, 390, 950, 480, 100, 0];

/// The slots of a side's piece list in the order the exchange tries them: least valuable
/// first (pawns, advisors, elephants, horses, cannons, rooks, king).
const SLOT_ORDER: [usize; 16] = [11, 12, 13, 14, 15, 1, 2, 3, 4, 5, 6, 9, 10, 7, 8, 0];

#[inline(always)]
fn value(code: u8) -> i32 {
    SEE_VALUES[(code & 7) as usize]
}

#[inline(always)]
fn in_palace(s: u8) -> bool {
    let (r, c) = (s >> 4, s & 15);
    (6..=8).contains(&c) && ((3..=5).contains(&r) || (10..=12).contains(&r))
}

/// Pieces strictly between `s` and `t` on a shared rank or file of board `b`; `None` when
/// the two share neither.
#[inline]
fn between(b: &[u8; 256], s: u8, t: u8) -> Option<u32> {
    let step: u8 = if s >> 4 == t >> 4 {
        if t > s { 1 } else { 0u8.wrapping_sub(1) }
    } else if s & 15 == t & 15 {
        if t > s { 16 } else { 0u8.wrapping_sub(16) }
    } else {
        return None;
    };
    let mut n = 0;
    let mut x = s.wrapping_add(step);
    while x != t {
        n += u32::from(b[x as usize] != 0);
        x = x.wrapping_add(step);
    }
    Some(n)
}

/// True if the piece `code` of `side` on `s` attacks `t` on board `b`.
#[inline]
pub(crate) fn attacks(b: &[u8; 256], code: u8, s: u8, t: u8, side: usize) -> bool {
    let d = i32::from(t) - i32::from(s);
    match code & 7 {
        PAWN => {
            let fwd = if side == 0 { 16 } else { -16 };
            let crossed = ((s >> 4) >= 8) == (side == 0);
            d == fwd || (crossed && d.abs() == 1)
        }
        ADVISOR => (d.abs() == 15 || d.abs() == 17) && in_palace(t),
        ELEPHANT => {
            (d.abs() == 30 || d.abs() == 34)
                && b[(i32::from(s) + d / 2) as usize] == 0
                && (((t >> 4) < 8) == (side == 0))
        }
        HORSE => {
            let (dr, dc) = (
                i32::from(t >> 4) - i32::from(s >> 4),
                i32::from(t & 15) - i32::from(s & 15),
            );
            let leg = match (dr.abs(), dc.abs()) {
                (2, 1) => i32::from(s) + 16 * dr.signum(),
                (1, 2) => i32::from(s) + dc.signum(),
                _ => return false,
            };
            b[leg as usize] == 0
        }
        ROOK => between(b, s, t) == Some(0),
        CANNON => between(b, s, t) == Some(1),
        KING => (d.abs() == 1 || d.abs() == 16) && in_palace(t),
        _ => false,
    }
}

/// The least valuable piece of `side` attacking `t` on board `b` (pieces found through
/// the side's piece list, skipping slots whose square no longer holds them).
#[inline]
fn least_attacker(b: &[u8; 256], list: &[u8; 16], t: u8, side: usize) -> Option<(u8, u8)> {
    let base = side_base(side);
    for slot in SLOT_ORDER {
        let s = list[slot];
        if s == 0 || s == t {
            continue;
        }
        let code = b[s as usize];
        if code != base | raw::SLOT_KIND[slot] {
            continue;
        }
        if attacks(b, code, s, t, side) {
            return Some((s, code));
        }
    }
    None
}

/// True when the side to move in `pos`, playing `mv` (a pseudo-legal move) and then
/// trading on its target square as long as trading pays, gains at least `threshold`
/// centipawns ([`SEE_VALUES`]). A quiet move gains 0 at best.
#[must_use]
pub fn see_ge(pos: &Position, mv: Move, threshold: i32) -> bool {
    let (f, t) = raw::move_squares(mv);
    let board = pos.raw_board();
    let attacker = board[f as usize];
    if attacker == 0 {
        return threshold <= 0;
    }
    let mut swap = value(board[t as usize]) - threshold;
    if swap < 0 {
        return false;
    }
    swap = value(attacker) - swap;
    if swap <= 0 {
        return true;
    }
    let mut b = *board;
    b[f as usize] = 0;
    b[t as usize] = attacker;
    let lists = pos.raw_lists();
    let mut side = 1 - raw::code_side(attacker);
    let mut res = 1;
    while let Some((s, code)) = least_attacker(&b, &lists[side], t, side) {
        res ^= 1;
        b[s as usize] = 0;
        b[t as usize] = code;
        if code & 7 == KING {
            // The king takes only when nothing defends the square any more.
            let defended = least_attacker(&b, &lists[1 - side], t, 1 - side).is_some();
            return (if defended { res ^ 1 } else { res }) != 0;
        }
        swap = value(code) - swap;
        if swap < res {
            break;
        }
        side = 1 - side;
    }
    res != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_game::MoveList;

    fn mv(s: &str) -> Move {
        Move::new(s[..2].parse().unwrap(), s[2..].parse().unwrap())
    }

    fn pos(fen: &str) -> Position {
        fen.parse().unwrap()
    }

    /// The exchange value of `mv` the slow way: make the capture, then let each side
    /// choose between stopping and recapturing on the square with any of its pieces
    /// (pseudo-legal captures by the rules crate, kings excepted unless the square is then
    /// safe), minimax.
    fn naive_see(p: &Position, m: Move) -> i32 {
        fn gain(p: &Position, t: banco_xiangqi::Square) -> i32 {
            let mut moves = MoveList::new();
            p.generate_legal(&mut moves);
            let mut best = 0;
            for &r in &moves {
                if r.to() != t {
                    continue;
                }
                let victim = p.piece_at(t).map_or(0, |q| SEE_VALUES[q.kind as usize]);
                let mut after = p.clone();
                after.make(r);
                best = best.max(victim - gain(&after, t));
            }
            best
        }
        let victim = p
            .piece_at(m.to())
            .map_or(0, |q| SEE_VALUES[q.kind as usize]);
        let mut after = p.clone();
        after.make(m);
        victim - gain(&after, m.to())
    }

    #[test]
    fn exchanges_follow_screens_legs_and_eyes() {
        // (fen, move, expected gain)
        let cases = [
            // A cannon defends over a screen (the horse): the rook's capture loses it.
            (
                "4k4/9/4c4/4n4/9/4p4/9/9/4R4/3K5 w - - 0 1",
                "e1e4",
                100 - 950,
            ),
            // A horse with its leg blocked does not defend.
            ("4k4/9/9/9/5n3/5p3/4p4/9/4R4/3K5 w - - 0 1", "e1e3", 100),
            // An elephant defends over an empty eye, not over a blocked one.
            ("2b1k4/9/4n4/9/9/9/9/9/4R4/3K5 w - - 0 1", "e1e7", 390 - 950),
            ("2b1k4/3n5/4n4/9/9/9/9/9/4R4/3K5 w - - 0 1", "e1e7", 390),
            // An advisor defends inside its palace.
            ("3k1n3/4a4/9/9/9/9/9/9/9/4KR3 w - - 0 1", "f0f9", 390 - 950),
            // A pawn taking a defended horse wins the horse for the pawn.
            ("4k4/9/9/9/4n4/4P4/9/9/9/3K5 w - - 0 1", "e4e5", 390),
            // The cannon takes the horse over the other cannon; the rook takes back.
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
                "b2b9",
                390 - 480,
            ),
            // A rook behind a rook joins the exchange (x-ray): the pawn is won.
            ("3kr4/9/9/9/4p4/9/9/9/4R4/4RK3 w - - 0 1", "e1e5", 100),
        ];
        for (fen, m, want) in cases {
            let p = pos(fen);
            let m = mv(m);
            assert!(see_ge(&p, m, want), "{fen} {m}: ≥ {want}");
            assert!(!see_ge(&p, m, want + 1), "{fen} {m}: < {}", want + 1);
        }
    }

    #[test]
    fn every_capture_agrees_with_a_naive_exchange_search() {
        let fens = [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 1",
            "3k5/4r4/4c4/9/4p4/4R4/9/4C4/9/5K3 b - - 0 1",
            "3k5/9/4c4/4n4/4p4/4R4/4R4/9/4C4/5K3 w - - 0 1",
        ];
        for fen in fens {
            let p = pos(fen);
            let mut moves = MoveList::new();
            p.generate_legal(&mut moves);
            for &m in &moves {
                if p.piece_at(m.to()).is_none() {
                    continue;
                }
                let want = naive_see(&p, m);
                assert!(see_ge(&p, m, want), "{fen} {m}: ≥ {want}");
                assert!(!see_ge(&p, m, want + 1), "{fen} {m}: < {}", want + 1);
            }
        }
    }
}
