//! What the xiangqi evaluation and move ordering read off the board, computed straight
//! from the rules crate's low-level view ([`banco_xiangqi::raw`]): the per-side
//! [`EvalFeatures`] of a static evaluation in one pass ([`eval_features`]) and a cheap
//! static exchange test for captures ([`see_ok`]).
//!
//! ```
//! use banco_engine::xiangqi::features::{eval_features, see_ok};
//! use banco_xiangqi::{Move, Position};
//! use banco_game::Color;
//! let f = eval_features(&Position::startpos(), Color::Red);
//! assert_eq!((f.advisors, f.elephants, f.horses, f.rooks, f.cannons), (2, 2, 2, 2, 2));
//! assert_eq!(f.rook_mobility, 4); // a1, a2, i1, i2
//! assert_eq!(f.horse_mobility, [2, 2]);
//! assert_eq!(f.cannon_screens, [0, 0, 0]);
//! assert_eq!((f.attackers, f.connected_pawns), (0, 0));
//!
//! // The red rook takes a pawn defended by the black horse: a losing capture.
//! let pos: Position = "4k4/9/9/9/6n2/4p4/9/9/4R4/3K5 w - - 0 1".parse().unwrap();
//! assert!(!see_ok(&pos, Move::new("e1".parse().unwrap(), "e4".parse().unwrap())));
//! ```

use super::values::EXCHANGE_BY_CODE;
use banco_game::Color;
use banco_xiangqi::raw::{self, DOWN, HORSE_STEPS, LEFT, Lines, PAWN, RIGHT, UP, side_base};
use banco_xiangqi::{Move, Position};

/// The positional features of one side that a static evaluation weighs, counted in one pass
/// over the side's piece list by [`eval_features`]. Plain counts, no weights.
///
/// "Near the enemy palace" means on files c–g (2–6) and at most three ranks from the enemy
/// king's rank. "Pseudo-mobility" is the number of squares a piece could move to, ignoring
/// whether its own king would be left in check; captures count like quiet moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvalFeatures {
    /// Advisors on the board (0–2).
    pub advisors: u8,
    /// Elephants on the board (0–2).
    pub elephants: u8,
    /// Horses on the board (0–2).
    pub horses: u8,
    /// Rooks on the board (0–2).
    pub rooks: u8,
    /// Cannons on the board (0–2).
    pub cannons: u8,
    /// Sum of the rooks' pseudo-mobilities.
    pub rook_mobility: u8,
    /// Pseudo-mobility (0–8) of each horse on the board: the first
    /// [`horses`](EvalFeatures::horses) entries are used, the rest are 0.
    pub horse_mobility: [u8; 2],
    /// Cannons on the enemy king's file with exactly 0, 1 or 2 pieces between them and the
    /// king (cannons with more pieces between are not counted).
    pub cannon_screens: [u8; 3],
    /// Rooks, horses, cannons and pawns across the river that stand near the enemy palace.
    pub attackers: u8,
    /// Pawns across the river with an own pawn on the next file to their right (toward
    /// file i) on the same rank: the number of side-by-side pairs.
    pub connected_pawns: u8,
    /// Rooks on a file without any pawn (open file).
    pub rooks_open: u8,
    /// Rooks on a file without an own pawn but with an enemy pawn (half-open file).
    pub rooks_half_open: u8,
    /// Rooks on the enemy king's file or rank with exactly one piece between them and the
    /// king (a pin, or a discovered check when the piece between is the rook's own).
    pub rook_pins: u8,
    /// 1 when no piece stands in front of the own king on its file (toward the enemy):
    /// an enemy rook reaching the file checks at once.
    pub king_file_open: u8,
}

/// 0xFF on off-board squares, 0 on the board: `board[t] | WALL[t]` is 0 exactly on an empty
/// board square, and has the bits of both sides' codes off the board.
static WALL: [u8; 256] = {
    let mut t = [0xFF; 256];
    let mut i = 0;
    while i < 256 {
        if raw::is_board_square(i as u8) {
            t[i] = 0;
        }
        i += 1;
    }
    t
};

/// `NEAR[row][sq]` is 1 when the inner square `sq` is near the palace of an enemy king on
/// inner row `row`: on files c–g (2–6) and at most three ranks from the king's rank.
static NEAR: [[u8; 256]; 16] = {
    let mut t = [[0; 256]; 16];
    let mut row = 0;
    while row < 16 {
        let mut i = 0;
        while i < 256 {
            let (r, c) = (i >> 4, i & 15);
            if raw::is_board_square(i as u8) && c >= 5 && c <= 9 && r + 3 >= row && r <= row + 3 {
                t[row][i] = 1;
            }
            i += 1;
        }
        row += 1;
    }
    t
};

/// The stops of the four rays from the board square `f` (first piece or off-board square:
/// right, left, up, down) and the number of empty squares before them.
#[inline(always)]
fn rays(lines: &Lines, f: u8) -> ([u8; 4], u8) {
    let [right, left, up, down] = lines.runs(f);
    let stops = [
        f + right + 1,
        f - left - 1,
        f + ((up + 1) << 4),
        f - ((down + 1) << 4),
    ];
    (stops, right + left + up + down)
}

/// Pseudo-mobility of a rook on the board square `f` whose enemy has code base `enemy`:
/// the empty squares of its rays plus the enemy pieces that stop them.
#[inline(always)]
fn rook_mobility(b: &[u8; 256], lines: &Lines, f: u8, enemy: u8) -> u8 {
    let (stops, empty) = rays(lines, f);
    // Off-board squares hold 0, like an own piece for this test.
    empty
        + stops
            .into_iter()
            .map(|t| u8::from(b[t as usize] & enemy != 0))
            .sum::<u8>()
}

/// Pseudo-mobility of a horse of the side with code base `own` on inner square `f`.
#[inline(always)]
fn horse_mobility(b: &[u8; 256], f: u8, own: u8) -> u8 {
    let free = |t: u8| u8::from((b[t as usize] | WALL[t as usize]) & own == 0);
    let mut n = 0u8;
    // HORSE_STEPS lists the two targets of each leg one after the other.
    for pair in HORSE_STEPS.chunks_exact(2) {
        if let [(leg, d1), (_, d2)] = *pair
            && b[f.wrapping_add(leg) as usize] == 0
        {
            n += free(f.wrapping_add(d1)) + free(f.wrapping_add(d2));
        }
    }
    n
}

/// The positional features of `color`'s pieces in `pos` (see [`EvalFeatures`]), read
/// straight from the fixed piece-list slots of each kind: a fast pass for static
/// evaluation. Rook rays and the pieces between a cannon and the enemy king come from the
/// rank and file occupancy bit sets, with no walk along the board. Always inlined: the
/// evaluation calls it once per side, with the side known.
#[inline(always)]
#[must_use]
pub fn eval_features(pos: &Position, color: Color) -> EvalFeatures {
    let side = color.index();
    let own = side_base(side);
    let enemy = side_base(1 - side);
    let b = pos.raw_board();
    let lists = pos.raw_lists();
    let lines = pos.raw_lines();
    let l = &lists[side];
    let ek = lists[1 - side][0];
    let near_table = &NEAR[usize::from(ek >> 4)];
    let near = |s: u8| near_table[s as usize];
    let king = l[0];
    let [_, _, up, down] = lines.runs(king);
    // Inner rows 3–12 are ranks 0–9: the run reaches the edge when it covers every rank
    // beyond the king.
    let open = if side == 0 {
        up == 12 - (king >> 4)
    } else {
        down == (king >> 4) - 3
    };
    let mut f = EvalFeatures {
        advisors: u8::from(l[1] != 0) + u8::from(l[2] != 0),
        elephants: u8::from(l[3] != 0) + u8::from(l[4] != 0),
        king_file_open: u8::from(open),
        ..EvalFeatures::default()
    };
    for &s in &l[5..7] {
        if s != 0 {
            f.horse_mobility[usize::from(f.horses & 1)] = horse_mobility(b, s, own);
            f.horses += 1;
            f.attackers += near(s);
        }
    }
    if l[7] | l[8] != 0 {
        // Files (bit = file nibble) holding a pawn of each side.
        let files = |list: &[u8; 16]| {
            list[11..16]
                .iter()
                .fold(0u16, |m, &s| m | (u16::from(s != 0) << (s & 15)))
        };
        let (own_pawns, enemy_pawns) = (files(l), files(&lists[1 - side]));
        for &s in &l[7..9] {
            if s != 0 {
                f.rooks += 1;
                f.rook_mobility += rook_mobility(b, lines, s, enemy);
                f.attackers += near(s);
                let bit = 1u16 << (s & 15);
                if own_pawns & bit == 0 {
                    if enemy_pawns & bit == 0 {
                        f.rooks_open += 1;
                    } else {
                        f.rooks_half_open += 1;
                    }
                }
                f.rook_pins += u8::from(pins(lines, s, ek));
            }
        }
    }
    for &s in &l[9..11] {
        if s != 0 {
            f.cannons += 1;
            f.attackers += near(s);
            if s & 15 == ek & 15 {
                let n = lines.between_on_file(s, ek) as usize;
                if let Some(c) = f.cannon_screens.get_mut(n) {
                    *c += 1;
                }
            }
        }
    }
    let pawn = own | PAWN;
    // Across the river: inner rows 8–12 for Red (0x80 and up), rows 3–7 for Black (1 to
    // 0x7F, as 0 marks a captured pawn), so one wrapping subtraction and compare each.
    let (first, span) = if side == 0 {
        (0x80u8, 0x80u8)
    } else {
        (1, 0x7F)
    };
    for &s in &l[11..16] {
        if s.wrapping_sub(first) < span {
            f.attackers += near(s);
            f.connected_pawns += u8::from(b[s.wrapping_add(1) as usize] == pawn);
        }
    }
    f
}

/// True when the rook on `s` shares a file or rank with the enemy king on `ek` with
/// exactly one piece between them.
#[inline(always)]
fn pins(lines: &Lines, s: u8, ek: u8) -> bool {
    let d = if s & 15 == ek & 15 {
        if s < ek { UP } else { DOWN }
    } else if s >> 4 == ek >> 4 {
        if s < ek { RIGHT } else { LEFT }
    } else {
        return false;
    };
    lines
        .first(s, d)
        .and_then(|p| lines.first(p, d))
        .is_some_and(|q| q == ek)
}

/// A cheap static-exchange test for a capture `mv` of the side to move in `pos`: false
/// when the capture loses material at first sight — the capturing piece is worth more than
/// its victim (exchange values of [`VALUES`](super::values::VALUES)) and the destination
/// is defended by the opponent after the capture. Meant for captures (a quiet move counts
/// as losing when its destination is attacked).
#[inline]
#[must_use]
pub fn see_ok(pos: &Position, mv: Move) -> bool {
    let board = pos.raw_board();
    let (f, t) = raw::move_squares(mv);
    let attacker = board[f as usize];
    let victim = board[t as usize];
    if attacker == 0 {
        return true;
    }
    let av = EXCHANGE_BY_CODE[(attacker & 7) as usize];
    let vv = if victim == 0 {
        0
    } else {
        EXCHANGE_BY_CODE[(victim & 7) as usize]
    };
    if vv >= av {
        return true;
    }
    let view = |s: u8| {
        if s == t {
            attacker
        } else if s == f {
            0
        } else {
            board[s as usize]
        }
    };
    !raw::attacked_on(&view, t, 1 - raw::code_side(attacker))
}

/// Pseudo-mobility of the rook or horse on `sq` counted the slow, obvious way, square by
/// square through the public board queries (the reference of the tests); 0 for other
/// pieces and empty squares.
#[cfg(test)]
pub(crate) fn walked_mobility(pos: &Position, sq: banco_xiangqi::Square) -> u32 {
    use banco_xiangqi::{PieceKind, Square};
    let Some(piece) = pos.piece_at(sq) else {
        return 0;
    };
    let at = |df: i32, dr: i32| {
        let (f, r) = (i32::from(sq.file()) + df, i32::from(sq.rank()) + dr);
        Square::new(u8::try_from(f).ok()?, u8::try_from(r).ok()?)
    };
    let own = |s: Square| pos.piece_at(s).is_some_and(|q| q.color == piece.color);
    let mut n = 0;
    match piece.kind {
        PieceKind::Rook => {
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let mut k = 1;
                while let Some(s) = at(df * k, dr * k) {
                    if pos.piece_at(s).is_none() {
                        n += 1;
                        k += 1;
                        continue;
                    }
                    n += u32::from(!own(s));
                    break;
                }
            }
        }
        PieceKind::Horse => {
            for (df, dr) in [
                (1, 2),
                (-1, 2),
                (1, -2),
                (-1, -2),
                (2, 1),
                (2, -1),
                (-2, 1),
                (-2, -1),
            ] {
                let leg = at(df / 2, dr / 2);
                if let (Some(leg), Some(t)) = (leg, at(df, dr))
                    && pos.piece_at(leg).is_none()
                    && !own(t)
                {
                    n += 1;
                }
            }
        }
        _ => {}
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_game::MoveList;
    use banco_xiangqi::{Piece, PieceKind, Square};
    use proptest::prelude::*;

    /// [`eval_features`] computed the slow, obvious way from the public queries.
    fn naive_features(pos: &Position, color: Color) -> EvalFeatures {
        let ek = pos.king_square(color.other());
        let near = |sq: Square| {
            u8::from((2..=6).contains(&sq.file()) && sq.rank().abs_diff(ek.rank()) <= 3)
        };
        let mut f = EvalFeatures::default();
        let king = pos.king_square(color);
        let ahead = |r: u8| {
            if color == Color::Red {
                r > king.rank()
            } else {
                r < king.rank()
            }
        };
        f.king_file_open = u8::from(
            (0..10)
                .filter(|&r| ahead(r))
                .all(|r| pos.piece_at(Square::new(king.file(), r).unwrap()).is_none()),
        );
        let pawn_on = |c: Color, file: u8| {
            (0..10).any(|r| {
                pos.piece_at(Square::new(file, r).unwrap()) == Some(Piece::new(c, PieceKind::Pawn))
            })
        };
        for (sq, kind) in pos.pieces_of(color) {
            match kind {
                PieceKind::King => {}
                PieceKind::Advisor => f.advisors += 1,
                PieceKind::Elephant => f.elephants += 1,
                PieceKind::Horse => {
                    f.horse_mobility[usize::from(f.horses)] = walked_mobility(pos, sq) as u8;
                    f.horses += 1;
                    f.attackers += near(sq);
                }
                PieceKind::Rook => {
                    f.rooks += 1;
                    f.rook_mobility += walked_mobility(pos, sq) as u8;
                    f.attackers += near(sq);
                    if !pawn_on(color, sq.file()) {
                        if pawn_on(color.other(), sq.file()) {
                            f.rooks_half_open += 1;
                        } else {
                            f.rooks_open += 1;
                        }
                    }
                    f.rook_pins += u8::from(pos.pieces_between(sq, ek) == Some(1));
                }
                PieceKind::Cannon => {
                    f.cannons += 1;
                    f.attackers += near(sq);
                    if sq.file() == ek.file() {
                        let n = pos.pieces_between(sq, ek).unwrap() as usize;
                        if n < 3 {
                            f.cannon_screens[n] += 1;
                        }
                    }
                }
                PieceKind::Pawn => {
                    let crossed = (sq.rank() >= 5) == (color == Color::Red);
                    if crossed {
                        f.attackers += near(sq);
                        let right =
                            Square::new(sq.file() + 1, sq.rank()).and_then(|r| pos.piece_at(r));
                        f.connected_pawns +=
                            u8::from(right == Some(Piece::new(color, PieceKind::Pawn)));
                    }
                }
            }
        }
        f
    }

    /// The static exchange test the slow way: a capture by a piece worth more than its
    /// victim is bad when, after it, the opponent attacks the destination — as the cheap
    /// test counts attacks ([`raw::attacked_on`]: no advisors or elephants, a king along an
    /// open file), on the board after the move is made.
    fn naive_see(pos: &Position, mv: Move) -> bool {
        use super::super::values::value;
        let Some(attacker) = pos.moved_kind(mv) else {
            return true;
        };
        let victim = pos.captured_kind(mv).map_or(0, |k| value(k).exchange);
        if victim >= value(attacker).exchange {
            return true;
        }
        let mut after = pos.clone();
        after.make(mv);
        let board = after.raw_board();
        !raw::attacked_on(
            &|s: u8| board[s as usize],
            raw::move_squares(mv).1,
            after.side_to_move().index(),
        )
    }

    /// Positions met while playing `choices` as indices into the legal moves; an odd
    /// choice plays a capture when there is one, so that walks reach sparse boards.
    fn capture_walk(choices: &[u16]) -> Vec<Position> {
        let mut pos = Position::startpos();
        let mut out = vec![pos.clone()];
        let mut moves = MoveList::new();
        for &c in choices {
            pos.generate_legal(&mut moves);
            if moves.is_empty() {
                break;
            }
            let c = usize::from(c);
            let mut captures = moves.clone();
            captures.retain(|&m| pos.captured_kind(m).is_some());
            let mv = if c % 2 == 1 && !captures.is_empty() {
                captures.as_slice()[c / 2 % captures.len()]
            } else {
                moves.as_slice()[c % moves.len()]
            };
            pos.make(mv);
            out.push(pos.clone());
        }
        out
    }

    proptest! {
        #![proptest_config(banco_game::testing::proptest_config(Some(64), 0x476))]

        #[test]
        fn eval_features_match_a_naive_count(
            choices in proptest::collection::vec(any::<u16>(), 0..160)
        ) {
            for pos in capture_walk(&choices) {
                for color in Color::ALL {
                    prop_assert_eq!(
                        eval_features(&pos, color), naive_features(&pos, color), "{:?}", pos
                    );
                }
            }
        }

        #[test]
        fn see_matches_a_naive_exchange_test(
            choices in proptest::collection::vec(any::<u16>(), 0..160)
        ) {
            for pos in capture_walk(&choices) {
                for mv in pos.legal_moves().iter().copied() {
                    if pos.captured_kind(mv).is_some() {
                        prop_assert_eq!(see_ok(&pos, mv), naive_see(&pos, mv), "{} in {:?}", mv, pos);
                    }
                }
            }
        }
    }
}
