//! Chess evaluation: material and piece-square tables blended by game phase ([`Base`],
//! kept up to date move by move by the node), plus what the tables cannot see, read off
//! cozy-chess bitboards with shifts, fills and attack lookups (no square-by-square scan):
//!
//! * **mobility** — squares each knight, bishop, rook and queen attacks that hold no own
//!   piece and no enemy pawn guards;
//! * **pawn structure** — passed pawns by rank (more in the end game, more still with the
//!   enemy king far from the pawn's path and the own king near it, less when blocked),
//!   isolated, doubled, defended and side-by-side pawns;
//! * **king safety** — the pawn shield on the king's file and its neighbours (open files
//!   there cost more), and the pieces attacking the squares around the king, counted by
//!   weight and squares hit and penalised quadratically once two of them join (halved
//!   without a queen);
//! * the **bishop pair**, **rooks on open and half-open files**, **threats** (pieces
//!   attacked by pawns, pieces attacked and not defended), a **tempo** bonus;
//! * **drawish endings** scaled down: no pawns and at most a minor piece ahead, or
//!   bishops of opposite colours with pawns only.
//!
//! The phase counts knights and bishops 1, rooks 2 and queens 4 (24 at the start).
//! [`ChessParams::plain`] is the plain reference evaluation of matches and of the
//! [`plain`](crate::plain) baseline: the seed program's material and centre, nothing else.
//!
//! ```
//! use banco_engine::chess::eval::{evaluate, ChessParams};
//! use banco_chess::Chess;
//! let start = Chess::new();
//! assert!(evaluate(start.board(), &ChessParams::default()).abs() < 30);
//! // White without the queen's knight is clearly worse.
//! let game = Chess::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1").unwrap();
//! assert!(evaluate(game.board(), &ChessParams::default()) < -250);
//! ```
//!
//! The weights were set by hand from chess practice and checked by self-play
//! (`banco match --game chess --a level=10,nodes=20000 --b level=10,nodes=20000,TERM=PCT`,
//! see [`Chess::tune`](crate::EngineGame::tune) for the terms).

use super::tables::{self, CENTRE, TABLES};
use banco_chess::attacks;
use banco_chess::cozy_chess::{
    BitBoard, Board, Color as CozyColor, Piece, Square, get_king_moves, get_knight_moves,
};
use banco_game::Color;

/// Evaluation weights (centipawns; pairs are middle game, end game). Piece arrays follow
/// cozy-chess order: pawn, knight, bishop, rook, queen, king.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChessParams {
    /// Material in the middle game.
    pub material_mg: [i32; 6],
    /// Material in the end game.
    pub material_eg: [i32; 6],
    /// Scale of the piece-square tables in percent (0 turns them off).
    pub pst_scale: i32,
    /// Mobility per safe square for knight, bishop, rook, queen.
    pub mobility: [(i32, i32); 4],
    /// Squares a knight, bishop, rook, queen is expected to reach (mobility counts from
    /// there, so a piece with fewer squares is penalised).
    pub mobility_base: [i32; 4],
    /// Passed pawn by rank from its own side (0–7).
    pub passed: [(i32, i32); 8],
    /// End-game bonus per rank of a passed pawn and per square the enemy king is further
    /// from its path than the own king (weighted 5 : 2).
    pub passed_king: i32,
    /// Isolated pawn (penalty).
    pub isolated: (i32, i32),
    /// Each pawn doubled behind another (penalty).
    pub doubled: (i32, i32),
    /// Pawn defended by a pawn.
    pub defended_pawn: (i32, i32),
    /// Pawn beside an own pawn.
    pub phalanx: (i32, i32),
    /// Two bishops.
    pub bishop_pair: (i32, i32),
    /// Rook on a file without pawns.
    pub rook_open: (i32, i32),
    /// Rook on a file without own pawns.
    pub rook_half_open: (i32, i32),
    /// King shield: the nearest own pawn in front on the king's file or a neighbouring
    /// one, one rank ahead, two ranks ahead; no own pawn in front; no pawn at all.
    pub shield: [i32; 4],
    /// King attack: weight of an attacking knight, bishop, rook, queen.
    pub attacker_weight: [i32; 4],
    /// King attack scale in percent.
    pub king_attack: i32,
    /// A knight, bishop, rook or queen attacked by a pawn.
    pub pawn_threat: (i32, i32),
    /// A knight, bishop, rook or queen attacked and not defended.
    pub hanging: (i32, i32),
    /// Bonus for the side to move.
    pub tempo: i32,
    /// The plain reference evaluation: material and centre only.
    pub plain: bool,
}

impl Default for ChessParams {
    fn default() -> Self {
        ChessParams {
            material_mg: [82, 330, 350, 470, 1000, 0],
            material_eg: [100, 300, 320, 530, 960, 0],
            pst_scale: 100,
            mobility: [(4, 4), (5, 5), (2, 4), (1, 2)],
            mobility_base: [4, 6, 6, 12],
            passed: [
                (0, 0),
                (2, 8),
                (4, 12),
                (10, 22),
                (24, 42),
                (45, 75),
                (75, 120),
                (0, 0),
            ],
            passed_king: 3,
            isolated: (10, 14),
            doubled: (8, 20),
            defended_pawn: (8, 6),
            phalanx: (4, 4),
            bishop_pair: (28, 50),
            rook_open: (24, 8),
            rook_half_open: (12, 6),
            shield: [12, 6, -18, -12],
            attacker_weight: [3, 2, 3, 5],
            king_attack: 100,
            pawn_threat: (40, 28),
            hanging: (18, 12),
            tempo: 12,
            plain: false,
        }
    }
}

impl ChessParams {
    /// The plain reference evaluation (the seed program's design): pawn 100, knight 320,
    /// bishop 330, rook 500, queen 900, and a bonus for pieces in and around the centre.
    #[must_use]
    pub fn plain() -> ChessParams {
        ChessParams {
            material_mg: [100, 320, 330, 500, 900, 0],
            material_eg: [100, 320, 330, 500, 900, 0],
            tempo: 0,
            plain: true,
            ..ChessParams::default()
        }
    }
}

/// Material and piece-square tables for White minus Black, middle game and end game: the
/// part of the evaluation the node updates move by move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Base {
    /// Middle-game sum.
    pub mg: i32,
    /// End-game sum.
    pub eg: i32,
}

impl Base {
    /// The sum over every piece on `board`.
    #[must_use]
    pub fn of(board: &Board, psq: &Psq) -> Base {
        let mut base = Base::default();
        for (ci, color) in [CozyColor::White, CozyColor::Black].into_iter().enumerate() {
            for piece in Piece::ALL {
                for sq in board.colored_pieces(color, piece) {
                    let (mg, eg) = psq[ci * 6 + piece as usize][sq as usize];
                    base.mg += mg;
                    base.eg += eg;
                }
            }
        }
        base
    }
}

/// The [`Base`] contribution of every piece on every square, `[colour × 6 + piece][square]`
/// (White's values positive, Black's negative; material and scaled tables together).
pub type Psq = [[(i32, i32); 64]; 12];

/// The [`Psq`] table of `params`.
#[must_use]
pub fn psq_table(params: &ChessParams) -> Box<Psq> {
    let mut t = Box::new([[(0, 0); 64]; 12]);
    for (ci, color) in [Color::Red, Color::Black].into_iter().enumerate() {
        let sign = if ci == 0 { 1 } else { -1 };
        for p in 0..6 {
            for sq in 0..64 {
                let (mut mg, mut eg) = (params.material_mg[p], params.material_eg[p]);
                if params.plain {
                    if p != Piece::King as usize {
                        mg += tables::pst(&CENTRE, color, sq);
                        eg += tables::pst(&CENTRE, color, sq);
                    }
                } else {
                    mg += tables::pst(&TABLES[p].0, color, sq) * params.pst_scale / 100;
                    eg += tables::pst(&TABLES[p].1, color, sq) * params.pst_scale / 100;
                }
                t[ci * 6 + p][sq] = (sign * mg, sign * eg);
            }
        }
    }
    t
}

/// How far the positional terms are assumed never to move the score: beyond it, material
/// and tables alone decide a quiescence stand-pat ([`quick`]).
pub const LAZY_MARGIN: i32 = 450;

/// Phase at the start position.
pub const PHASE_MAX: i32 = 24;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

#[inline(always)]
fn count(b: u64) -> i32 {
    b.count_ones() as i32
}

#[inline(always)]
fn north_fill(mut b: u64) -> u64 {
    b |= b << 8;
    b |= b << 16;
    b | b << 32
}

#[inline(always)]
fn south_fill(mut b: u64) -> u64 {
    b |= b >> 8;
    b |= b >> 16;
    b | b >> 32
}

/// Squares attacked by the pawns `p` of `color`.
#[inline(always)]
fn pawn_attacks(p: u64, color: CozyColor) -> u64 {
    match color {
        CozyColor::White => ((p & !FILE_A) << 7) | ((p & !FILE_H) << 9),
        CozyColor::Black => ((p & !FILE_A) >> 9) | ((p & !FILE_H) >> 7),
    }
}

/// The squares strictly in front of the pawns `p` of `color` on their files.
#[inline(always)]
fn front_span(p: u64, color: CozyColor) -> u64 {
    match color {
        CozyColor::White => north_fill(p << 8),
        CozyColor::Black => south_fill(p >> 8),
    }
}

/// Spreads a set of squares to the neighbouring files.
#[inline(always)]
fn widen(b: u64) -> u64 {
    b | ((b & !FILE_A) >> 1) | ((b & !FILE_H) << 1)
}

#[inline(always)]
fn distance(a: usize, b: usize) -> i32 {
    let df = (a % 8) as i32 - (b % 8) as i32;
    let dr = (a / 8) as i32 - (b / 8) as i32;
    df.abs().max(dr.abs())
}

/// Phase of `board`: knights and bishops 1, rooks 2, queens 4, at most [`PHASE_MAX`].
#[inline]
#[must_use]
pub fn phase(board: &Board) -> i32 {
    let minors = count((board.pieces(Piece::Knight) | board.pieces(Piece::Bishop)).0);
    let rooks = count(board.pieces(Piece::Rook).0);
    let queens = count(board.pieces(Piece::Queen).0);
    (minors + 2 * rooks + 4 * queens).min(PHASE_MAX)
}

/// Blends a middle-game and an end-game score by phase.
#[inline(always)]
fn taper(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
}

/// The evaluation for the side to move, from scratch.
#[must_use]
pub fn evaluate(board: &Board, params: &ChessParams) -> i32 {
    let psq = psq_table(params);
    evaluate_with(board, &Base::of(board, &psq), params)
}

/// A quick estimate for the side to move: material and tables only.
#[inline]
#[must_use]
pub fn quick(board: &Board, base: &Base) -> i32 {
    let v = taper(base.mg, base.eg, phase(board));
    if board.side_to_move() == CozyColor::White {
        v
    } else {
        -v
    }
}

/// Per-side facts gathered in the first pass.
#[derive(Clone, Copy, Default)]
struct Side {
    /// Squares attacked by any own piece.
    attacks: u64,
    /// Squares attacked by own pawns.
    pawn_attacks: u64,
    /// Attack weight against the enemy king zone, and the number of attackers.
    king_units: i32,
    king_attackers: i32,
}

/// The evaluation for the side to move, given the board's [`Base`].
#[must_use]
pub fn evaluate_with(board: &Board, base: &Base, params: &ChessParams) -> i32 {
    let phase = phase(board);
    let (mut mg, mut eg) = (base.mg, base.eg);
    if !params.plain {
        let (m, e) = positional(board, params);
        mg += m;
        eg += e;
        eg = scale_endgame(board, eg);
    }
    let v = taper(mg, eg, phase);
    if board.side_to_move() == CozyColor::White {
        v + params.tempo
    } else {
        -v + params.tempo
    }
}

/// The terms beyond material and tables, White minus Black.
fn positional(board: &Board, p: &ChessParams) -> (i32, i32) {
    let colors = [CozyColor::White, CozyColor::Black];
    let occupied = board.occupied();
    let pawns = [
        board.colored_pieces(CozyColor::White, Piece::Pawn).0,
        board.colored_pieces(CozyColor::Black, Piece::Pawn).0,
    ];
    let mut side = [Side::default(); 2];
    for (i, &c) in colors.iter().enumerate() {
        side[i].pawn_attacks = pawn_attacks(pawns[i], c);
    }
    let kings = [board.king(CozyColor::White), board.king(CozyColor::Black)];
    // The king zones: around each king and one rank further towards the enemy.
    let zones = [
        {
            let z = get_king_moves(kings[0]).0 | kings[0].bitboard().0;
            z | z << 8
        },
        {
            let z = get_king_moves(kings[1]).0 | kings[1].bitboard().0;
            z | z >> 8
        },
    ];
    let (mut mg, mut eg) = (0, 0);
    for (i, &c) in colors.iter().enumerate() {
        let sign = if i == 0 { 1 } else { -1 };
        let own = board.colors(c).0;
        let area = !own & !side[1 - i].pawn_attacks;
        let enemy_zone = zones[1 - i];
        let (mut smg, mut seg) = (0, 0);
        let mut attacks = side[i].pawn_attacks | get_king_moves(kings[i]).0;
        let all_pawns = pawns[0] | pawns[1];
        for (k, piece) in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen]
            .into_iter()
            .enumerate()
        {
            for sq in board.colored_pieces(c, piece) {
                let a = match piece {
                    Piece::Knight => get_knight_moves(sq).0,
                    Piece::Bishop => attacks::bishop_moves(sq, occupied).0,
                    Piece::Rook => attacks::rook_moves(sq, occupied).0,
                    _ => {
                        (attacks::bishop_moves(sq, occupied) | attacks::rook_moves(sq, occupied)).0
                    }
                };
                attacks |= a;
                let n = count(a & area) - p.mobility_base[k];
                smg += n * p.mobility[k].0;
                seg += n * p.mobility[k].1;
                let hits = a & enemy_zone;
                if hits != 0 {
                    side[i].king_attackers += 1;
                    side[i].king_units += p.attacker_weight[k] + count(hits);
                }
                if piece == Piece::Rook {
                    let file = FILE_A << (sq as usize % 8);
                    if file & all_pawns == 0 {
                        smg += p.rook_open.0;
                        seg += p.rook_open.1;
                    } else if file & pawns[i] == 0 {
                        smg += p.rook_half_open.0;
                        seg += p.rook_half_open.1;
                    }
                }
            }
        }
        side[i].attacks = attacks;
        if count(board.colored_pieces(c, Piece::Bishop).0) >= 2 {
            smg += p.bishop_pair.0;
            seg += p.bishop_pair.1;
        }
        let (pm, pe) = pawn_structure(board, p, i, c, pawns, kings);
        smg += pm + shield(p, c, kings[i], pawns[i], pawns[1 - i]);
        seg += pe;
        mg += sign * smg;
        eg += sign * seg;
    }
    for (i, &c) in colors.iter().enumerate() {
        let sign = if i == 0 { 1 } else { -1 };
        let them = !c;
        // King attack by side i on the enemy king.
        let s = &side[i];
        if s.king_attackers >= 2 {
            let mut danger = s.king_units * s.king_units * p.king_attack / 100;
            if board.colored_pieces(c, Piece::Queen).is_empty() {
                danger /= 2;
            }
            mg += sign * danger.min(900);
            eg += sign * danger.min(900) / 4;
        }
        // Threats against the enemy's pieces.
        let targets =
            (board.colors(them) & !board.pieces(Piece::Pawn) & !board.pieces(Piece::King)).0;
        let by_pawns = count(targets & s.pawn_attacks);
        let hanging = count(targets & s.attacks & !side[1 - i].attacks);
        mg += sign * (by_pawns * p.pawn_threat.0 + hanging * p.hanging.0);
        eg += sign * (by_pawns * p.pawn_threat.1 + hanging * p.hanging.1);
    }
    (mg, eg)
}

/// Pawn structure of side `i` (colour `c`): passed, isolated, doubled, defended, phalanx.
fn pawn_structure(
    board: &Board,
    p: &ChessParams,
    i: usize,
    c: CozyColor,
    pawns: [u64; 2],
    kings: [Square; 2],
) -> (i32, i32) {
    let (own, theirs) = (pawns[i], pawns[1 - i]);
    let (mut mg, mut eg) = (0, 0);
    // Files with own pawns, as a byte, and the isolated ones.
    let files = (south_fill(own) & 0xFF) as u8;
    let isolated_files = files & !(files << 1 | files >> 1);
    let isolated = count(own & u64::from(isolated_files).wrapping_mul(FILE_A));
    let doubled = count(own & north_fill(own << 8));
    let defended = count(own & pawn_attacks(own, c));
    let phalanx = count(own & (((own & !FILE_A) >> 1) | ((own & !FILE_H) << 1)));
    mg += defended * p.defended_pawn.0 + phalanx * p.phalanx.0
        - isolated * p.isolated.0
        - doubled * p.doubled.0;
    eg += defended * p.defended_pawn.1 + phalanx * p.phalanx.1
        - isolated * p.isolated.1
        - doubled * p.doubled.1;
    // Passed: no enemy pawn ahead on its file or the neighbouring ones, no own pawn ahead.
    let blocked = widen(front_span(theirs, !c)) | front_span(own, c);
    let passed = own & !blocked;
    let occupied = board.occupied().0;
    for sq in BitBoard(passed) {
        let s = sq as usize;
        let (rank, ahead) = match c {
            CozyColor::White => (s / 8, s + 8),
            CozyColor::Black => (7 - s / 8, s.wrapping_sub(8)),
        };
        let (bm, be) = p.passed[rank];
        let mut bonus_eg = be;
        if ahead < 64 {
            let w = rank as i32 - 2;
            if w > 0 {
                let d_them = distance(kings[1 - i] as usize, ahead);
                let d_us = distance(kings[i] as usize, ahead);
                bonus_eg += (5 * d_them - 2 * d_us) * w * p.passed_king;
            }
            if occupied & (1 << ahead) != 0 {
                bonus_eg /= 2;
            }
        }
        mg += bm;
        eg += bonus_eg;
    }
    (mg, eg)
}

/// The pawn shield of a king of colour `c` on `king` (middle game only).
fn shield(p: &ChessParams, c: CozyColor, king: Square, own: u64, theirs: u64) -> i32 {
    let (kf, kr) = (king as usize % 8, king as usize / 8);
    let ahead = match c {
        CozyColor::White if kr < 7 => u64::MAX << (8 * (kr + 1)),
        CozyColor::Black => (1u64 << (8 * kr)) - 1,
        CozyColor::White => 0,
    };
    let mut v = 0;
    for f in kf.saturating_sub(1)..=(kf + 1).min(7) {
        let file = FILE_A << f;
        let mine = own & file & ahead;
        if mine == 0 {
            v += p.shield[2];
            if theirs & file == 0 {
                v += p.shield[3];
            }
            continue;
        }
        let nearest = match c {
            CozyColor::White => mine.trailing_zeros() as usize / 8,
            CozyColor::Black => (63 - mine.leading_zeros() as usize) / 8,
        };
        match nearest.abs_diff(kr) {
            1 => v += p.shield[0],
            2 => v += p.shield[1],
            _ => {}
        }
    }
    v
}

/// Scales the end-game score of drawish material down.
fn scale_endgame(board: &Board, eg: i32) -> i32 {
    let strong = if eg > 0 {
        CozyColor::White
    } else {
        CozyColor::Black
    };
    let weak = !strong;
    let minor_major = |c: CozyColor| {
        3 * count(
            (board.colored_pieces(c, Piece::Knight) | board.colored_pieces(c, Piece::Bishop)).0,
        ) + 5 * count(board.colored_pieces(c, Piece::Rook).0)
            + 9 * count(board.colored_pieces(c, Piece::Queen).0)
    };
    if board.colored_pieces(strong, Piece::Pawn).is_empty() {
        let (s, w) = (minor_major(strong), minor_major(weak));
        if s - w <= 3 {
            return eg / 8;
        }
    }
    let bishops = board.pieces(Piece::Bishop);
    let only_bishops =
        (board.pieces(Piece::Knight) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen))
            .is_empty();
    if only_bishops
        && board.colored_pieces(CozyColor::White, Piece::Bishop).len() == 1
        && board.colored_pieces(CozyColor::Black, Piece::Bishop).len() == 1
    {
        const DARK: u64 = 0xAA55_AA55_AA55_AA55;
        let dark = count(bishops.0 & DARK);
        if dark == 1 {
            return eg / 2;
        }
    }
    eg
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_chess::Chess;

    fn eval(fen: &str) -> i32 {
        evaluate(
            Chess::from_fen(fen).unwrap().board(),
            &ChessParams::default(),
        )
    }

    #[test]
    fn fills_and_spans() {
        // A white pawn on e4 (28) and a black one on d6 (43): the white pawn is not passed.
        let w = 1u64 << 28;
        let b = 1u64 << 43;
        assert_ne!(widen(front_span(b, CozyColor::Black)) & w, 0);
        assert_eq!(pawn_attacks(w, CozyColor::White), 1 << 35 | 1 << 37);
        assert_eq!(pawn_attacks(1 << 8, CozyColor::White), 1 << 17); // a2 attacks b3
        assert_eq!(pawn_attacks(1 << 55, CozyColor::Black), 1 << 46); // h7 attacks g6
    }

    #[test]
    fn terms_point_the_right_way() {
        // A passed pawn on the seventh is worth much more than one on the second.
        assert!(
            eval("4k3/P7/8/8/8/8/8/4K3 w - - 0 1") > eval("4k3/8/8/8/8/8/P7/4K3 w - - 0 1") + 100
        );
        // Doubled, isolated pawns are worse than healthy ones.
        assert!(
            eval("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1") > eval("4k3/pp6/8/8/8/P7/P7/4K3 w - - 0 1")
        );
        // A castled king with its shield beats one with the shield pushed away.
        let safe = "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 1";
        let bare = "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2NPP/PPPP1P2/R1BQ1RK1 w - - 0 1";
        assert!(
            eval(safe) > eval(bare) - 40,
            "{} {}",
            eval(safe),
            eval(bare)
        );
        // The bishop pair.
        assert!(
            eval("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1") > eval("4k3/8/8/8/8/8/8/2N1KB2 w - - 0 1")
        );
    }

    #[test]
    fn drawish_endings_are_scaled() {
        // Rook against bishop, no pawns: far less than a rook's worth of advantage.
        assert!(eval("4k3/8/8/3b4/8/8/8/3RK3 w - - 0 1") < 60);
        // Opposite bishops with a pawn up: halved, unlike same-coloured bishops.
        let opposite = eval("4k3/8/4b3/8/8/2B5/P7/4K3 w - - 0 1");
        let same = eval("4k3/8/5b2/8/8/2B5/P7/4K3 w - - 0 1");
        assert!(opposite < same - 30, "{opposite} {same}");
    }

    #[test]
    fn incremental_base_equals_fresh() {
        let p = ChessParams::default();
        let psq = psq_table(&p);
        let start = Base::of(Chess::new().board(), &psq);
        assert_eq!(start, Base::default());
    }
}
