//! Xiangqi evaluation: material and piece-square tables blended by game phase, plus the
//! terms that decide xiangqi positions — king safety (missing advisors and elephants
//! against the enemy's rooks, horses and cannons, the king's open file), cannons behind a
//! screen on the king's file, rook pins, rooks on open files, horse and rook mobility,
//! piece pairs, pawns across the river and connected, and the side to move's threatened
//! pieces (attacked by a less valuable piece or hanging, [`threats`](super::threats)).
//!
//! ```
//! use banco_engine::xiangqi::eval::{evaluate, XiangqiParams};
//! use banco_xiangqi::Position;
//! let start = Position::startpos();
//! assert!(evaluate(&start, &XiangqiParams::default()).abs() < 50);
//! // Red without a rook is clearly worse.
//! let pos: Position = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1".parse().unwrap();
//! assert!(evaluate(&pos, &XiangqiParams::default()) < -600);
//! ```
//!
//! ## Weights and tuning
//!
//! Every weight lives in [`XiangqiParams`]: material, piece-square tables (middle and
//! end game), rook and horse mobility, missing guards against the enemy's attackers,
//! attackers near the palace (alone and times the missing guards), cannons on the king's
//! file, rooks on open and half-open files, rook pins against the king, the king's open
//! file against enemy rooks, rook / horse / cannon pairs, connected pawns, the tempo, and
//! the side to move's threatened pieces by band (the threats are only looked for when one
//! of their weights is not 0).
//! The defaults are [`weights::TUNED`](super::weights::TUNED), a generated file written by
//! the [Texel tuner](super::texel) (logistic regression of all weights on the results of
//! self-play games; method, data and the figures of the fit in its docs and in the header
//! of `weights.rs`). [`XiangqiParams::hand`] keeps the hand-set weights the tuner started
//! from (rook ≈ 2 horses ≈ 2 cannons; a crossed pawn worth about two unmoved ones; horses
//! gain and cannons lose value as the board empties).
//!
//! `banco match` accepts variants (`eval=hand|material`, `pst=`, `mobility=`, `safety=`,
//! `cannon=`, `pawns=` in percent of the default), so that a set of weights is kept only
//! when it wins games, e.g.
//! `banco match --a level=10,nodes=2000 --b level=10,nodes=2000,eval=hand --games 400
//! --random-plies 4`. The single-term runs of the hand-set weights (20 games each,
//! `level=10,nodes=10000`, W-D-L of the defaults) showed that the positional terms together
//! are worth a great deal (the material-only evaluation lost all 20 games, +636 ± 89) while
//! single terms stayed within the error bars of such short runs — the reason for fitting
//! them all at once on many positions instead.

#[cfg(test)]
use super::features::walked_mobility;
use super::features::{EvalFeatures, eval_features};
use super::threats::threats_of;
use banco_game::Color;
use banco_xiangqi::{PieceKind, Position, Square};

/// Evaluation weights (centipawns). Indexing by [`PieceKind`] order: king, advisor,
/// elephant, horse, rook, cannon, pawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XiangqiParams {
    /// Material in the middle game.
    pub material_mg: [i32; 7],
    /// Material in the end game.
    pub material_eg: [i32; 7],
    /// Scale of the piece-square tables in percent (0 turns them off).
    pub pst_scale: i32,
    /// Rook mobility per square above 6 (middle game, end game).
    pub rook_mobility: (i32, i32),
    /// Horse mobility by the number of squares it can reach (0–8).
    pub horse_mobility: [i32; 9],
    /// Penalty per missing advisor per enemy rook / horse.
    pub missing_advisor: (i32, i32),
    /// Penalty per missing elephant per enemy cannon / rook.
    pub missing_elephant: (i32, i32),
    /// Cannon on the enemy king's file with nothing between (hollow cannon), one screen,
    /// two pieces between (middle game).
    pub cannon_file: [i32; 3],
    /// The same in the end game.
    pub cannon_file_eg: [i32; 3],
    /// Bonus per pair of crossed pawns side by side.
    pub connected_pawns: i32,
    /// Bonus per own attacking piece (rook, horse, cannon, crossed pawn) near the enemy
    /// palace, scaled by the attackers' count.
    pub attack: i32,
    /// Bonus for the side to move.
    pub tempo: i32,
    /// Rook on a file without any pawn (middle game, end game).
    pub rook_open_file: (i32, i32),
    /// Rook on a file without an own pawn but with an enemy pawn.
    pub rook_half_open_file: (i32, i32),
    /// Rook on the enemy king's file or rank with exactly one piece between.
    pub rook_pin: (i32, i32),
    /// Penalty (middle game) for a king with no piece in front of it on its file, per
    /// enemy rook.
    pub open_king_file: i32,
    /// Penalty (middle game) per enemy attacker near the palace per missing guard
    /// (advisor or elephant).
    pub attack_guards: i32,
    /// Bonus for keeping both rooks, both horses, both cannons: `[(mg, eg); 3]`.
    pub pairs: [(i32, i32); 3],
    /// The side to move's pieces attacked by a less valuable enemy piece
    /// ([`threats`](super::threats)), per piece by band: rook, horse or cannon,
    /// advisor/elephant/pawn; `(mg, eg)`, counted for the side to move (a penalty is
    /// negative).
    pub threat_lower: [(i32, i32); 3],
    /// The side to move's pieces attacked (not by a less valuable piece) and not defended,
    /// per piece by band like [`threat_lower`](XiangqiParams::threat_lower).
    pub threat_hanging: [(i32, i32); 3],
    /// Two or more of the side to move's pieces threatened (either way above).
    pub threat_multiple: (i32, i32),
    /// Only material counts (the seed apps' evaluation; a baseline for matches).
    pub material_only: bool,
    /// Piece-square tables `(mg, eg)` by kind and square seen from the piece's own side
    /// (rank 0 is its own back rank), scaled by [`pst_scale`](XiangqiParams::pst_scale).
    pub pst: [[(i32, i32); 90]; 7],
}

impl Default for XiangqiParams {
    /// The tuned weights ([`weights::TUNED`](super::weights::TUNED), written by the
    /// [Texel tuner](super::texel)).
    fn default() -> Self {
        super::weights::TUNED
    }
}

impl XiangqiParams {
    /// The weights set by hand from xiangqi practice before any tuning: the tuner's
    /// starting point and the reference of tuning matches (`eval=hand`).
    #[must_use]
    pub fn hand() -> Self {
        XiangqiParams {
            material_mg: [0, 120, 120, 400, 900, 450, 30],
            material_eg: [0, 110, 110, 450, 950, 420, 50],
            pst_scale: 100,
            rook_mobility: (4, 6),
            horse_mobility: [-50, -25, -8, 0, 6, 10, 14, 16, 18],
            missing_advisor: (25, 10),
            missing_elephant: (20, 8),
            cannon_file: [60, 25, 8],
            cannon_file_eg: [30, 12, 4],
            connected_pawns: 15,
            attack: 6,
            tempo: 10,
            rook_open_file: (0, 0),
            rook_half_open_file: (0, 0),
            rook_pin: (0, 0),
            open_king_file: 0,
            attack_guards: 0,
            pairs: [(0, 0); 3],
            threat_lower: [(0, 0); 3],
            threat_hanging: [(0, 0); 3],
            threat_multiple: (0, 0),
            material_only: false,
            pst: build_pst(),
        }
    }

    /// The weights of the previous tuning round
    /// ([`weights_prev::PREVIOUS`](super::weights_prev::PREVIOUS)): the reference of the
    /// next round's matches (`eval=prev`).
    #[must_use]
    pub fn previous() -> Self {
        super::weights_prev::PREVIOUS
    }

    /// True when a threat weight is not 0 (else the evaluation skips finding threats).
    #[inline]
    #[must_use]
    pub fn has_threats(&self) -> bool {
        self.threat_lower != [(0, 0); 3]
            || self.threat_hanging != [(0, 0); 3]
            || self.threat_multiple != (0, 0)
    }

    /// Material only, with the seed apps' values (for the plain alpha-beta baseline).
    #[must_use]
    pub fn material_only() -> XiangqiParams {
        XiangqiParams {
            material_mg: [0, 120, 120, 400, 900, 450, 60],
            material_eg: [0, 120, 120, 400, 900, 450, 60],
            material_only: true,
            tempo: 0,
            ..XiangqiParams::hand()
        }
    }
}

/// Total phase of the start position: rooks count 6, horses and cannons 3.
pub(crate) const PHASE_MAX: i32 = 2 * (2 * 6 + 4 * 3);

/// Square index seen from `color` (Red's own view: rank 0 is the own back rank).
#[inline(always)]
pub(crate) const fn relative(sq: u8, color: Color) -> usize {
    match color {
        Color::Red => sq as usize,
        Color::Black => {
            let (f, r) = (sq % 9, sq / 9);
            (f + 9 * (9 - r)) as usize
        }
    }
}

const fn abs(x: i32) -> i32 {
    if x < 0 { -x } else { x }
}

/// Piece-square value for Red of `kind` on `(file, rank)`: (middle game, end game).
const fn pst_value(kind: usize, file: i32, rank: i32) -> (i32, i32) {
    let center = 4 - abs(file - 4); // 0 at the edge, 4 on the e-file
    match kind {
        0 => {
            // King: stay home; stepping up is risky in the middle game.
            let up = rank * 12;
            let side = if file == 4 { 0 } else { 6 };
            (-up - side, -up / 2)
        }
        1 | 2 => {
            // Guards: central squares protect best.
            (if file == 4 { 6 } else { 0 }, 0)
        }
        3 => {
            // Horse: central and advanced, not on the edge; strong near the enemy palace.
            let adv = match rank {
                0 => -10,
                1 => -4,
                2..=4 => 4,
                5 => 10,
                6 | 7 => 20,
                8 => 12,
                _ => 0,
            };
            let edge = if file == 0 || file == 8 { -15 } else { 0 };
            (center * 4 + adv + edge, center * 3 + adv / 2 + edge)
        }
        4 => {
            // Rook: open central files and the ribs; the enemy's pawn rank.
            let adv = match rank {
                0 => -8,
                1 => 0,
                2..=4 => 4,
                5 => 6,
                6 => 14,
                7 => 10,
                8 => 10,
                _ => 4,
            };
            let rib = if file == 3 || file == 5 { 6 } else { 0 };
            (center * 2 + rib + adv, center + adv / 2)
        }
        5 => {
            // Cannon: the central file early on; its home rank and the river are fine.
            let file_bonus = if file == 4 { 16 } else { center * 2 };
            let adv = match rank {
                0 => 0,
                1 | 2 => 4,
                3 | 4 => 2,
                5 | 6 => 0,
                7 => 6,
                _ => -4,
            };
            (file_bonus + adv, center + adv / 2)
        }
        _ => {
            // Pawn: worth little at home, much more across the river, most near the palace.
            if rank < 5 {
                let home = if rank == 4 && (file == 2 || file == 4 || file == 6) {
                    6
                } else {
                    0
                };
                (home, home)
            } else {
                let c = match center {
                    4 => 24,
                    3 => 20,
                    2 => 12,
                    1 => 6,
                    _ => 0,
                };
                let adv = match rank {
                    5 => 10,
                    6 => 26,
                    7 => 36,
                    8 => 30,
                    _ => -10,
                };
                (40 + c + adv, 60 + c + adv)
            }
        }
    }
}

pub(super) const fn build_pst() -> [[(i32, i32); 90]; 7] {
    let mut t = [[(0, 0); 90]; 7];
    let mut k = 0;
    while k < 7 {
        let mut s = 0;
        while s < 90 {
            t[k][s] = pst_value(k, (s % 9) as i32, (s / 9) as i32);
            s += 1;
        }
        k += 1;
    }
    t
}

/// The part of the evaluation that a move changes locally — material and piece-square
/// values (Red minus Black) and the game phase — kept up to date by the search with
/// [`Base::add`] / [`Base::remove`] instead of being recomputed at every node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Base {
    /// Middle-game sum, Red minus Black.
    pub mg: i32,
    /// End-game sum, Red minus Black.
    pub eg: i32,
    /// Phase: rooks count 6, horses and cannons 3 (48 at the start).
    pub phase: i32,
}

/// Phase weight of each kind.
pub(crate) const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 3, 6, 3, 0];

impl Base {
    /// The base of `pos` computed from scratch.
    #[must_use]
    pub fn of(pos: &Position, p: &XiangqiParams) -> Base {
        let mut b = Base::default();
        for color in Color::ALL {
            for (sq, kind) in pos.pieces_of(color) {
                b.add(color, kind, sq, p);
            }
        }
        b
    }

    #[inline(always)]
    fn value(color: Color, kind: PieceKind, sq: Square, p: &XiangqiParams) -> (i32, i32) {
        let k = kind as usize;
        let (mut m, mut e) = (p.material_mg[k], p.material_eg[k]);
        if !p.material_only {
            let (pm, pe) = p.pst[k][relative(sq.index(), color)];
            m += pm * p.pst_scale / 100;
            e += pe * p.pst_scale / 100;
        }
        match color {
            Color::Red => (m, e),
            Color::Black => (-m, -e),
        }
    }

    /// A piece appears on `sq`.
    #[inline]
    pub fn add(&mut self, color: Color, kind: PieceKind, sq: Square, p: &XiangqiParams) {
        let (m, e) = Base::value(color, kind, sq, p);
        self.mg += m;
        self.eg += e;
        self.phase += PHASE_WEIGHT[kind as usize];
    }

    /// A piece leaves `sq`.
    #[inline]
    pub fn remove(&mut self, color: Color, kind: PieceKind, sq: Square, p: &XiangqiParams) {
        let (m, e) = Base::value(color, kind, sq, p);
        self.mg -= m;
        self.eg -= e;
        self.phase -= PHASE_WEIGHT[kind as usize];
    }
}

/// Per-side sums of the positional terms.
#[derive(Default, Clone, Copy)]
struct Side {
    mg: i32,
    eg: i32,
    rooks: i32,
    horses: i32,
    cannons: i32,
    advisors: i32,
    elephants: i32,
    /// Attacking pieces near the enemy palace.
    attackers: i32,
    /// 1 when the own king's file is empty in front of it.
    king_file_open: i32,
}

/// Largest swing of the positional terms (mobility, safety, cannons, pawns) that lazy
/// evaluation may ignore when the base alone is far outside the window.
pub const LAZY_MARGIN: i32 = 320;

#[inline(always)]
fn blend(mg: i32, eg: i32, phase: i32) -> i32 {
    let phase = phase.clamp(0, PHASE_MAX);
    (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
}

/// The evaluation from the base alone (material and tables), for the side to move.
#[inline]
#[must_use]
pub fn quick(pos: &Position, base: &Base, p: &XiangqiParams) -> i32 {
    let v = blend(base.mg, base.eg, base.phase);
    (if pos.side_to_move() == Color::Red {
        v
    } else {
        -v
    }) + p.tempo
}

/// Evaluation of `pos` in centipawns for the side to move.
#[must_use]
pub fn evaluate(pos: &Position, p: &XiangqiParams) -> i32 {
    evaluate_with(pos, &Base::of(pos, p), p)
}

/// Evaluation of `pos` given its up-to-date [`Base`].
#[must_use]
pub fn evaluate_with(pos: &Position, base: &Base, p: &XiangqiParams) -> i32 {
    if p.material_only {
        return quick(pos, base, p);
    }
    let red = side_terms(&eval_features(pos, Color::Red), p);
    let black = side_terms(&eval_features(pos, Color::Black), p);
    let mut mg = base.mg + red.mg - black.mg + safety(&black, &red, p) - safety(&red, &black, p);
    let mut eg = base.eg + red.eg - black.eg;
    if p.has_threats() {
        let (m, e) = threat_terms(pos, p);
        mg += m;
        eg += e;
    }
    let v = blend(mg, eg, base.phase);
    (if pos.side_to_move() == Color::Red {
        v
    } else {
        -v
    }) + p.tempo
}

/// The weighted positional terms of one side from its [`EvalFeatures`].
#[inline(always)]
fn side_terms(f: &EvalFeatures, p: &XiangqiParams) -> Side {
    let rooks = i32::from(f.rooks);
    // Each rook scores (mobility − 6) × weight.
    let rook_mob = i32::from(f.rook_mobility) - 6 * rooks;
    let mut mg = rook_mob * p.rook_mobility.0;
    let mut eg = rook_mob * p.rook_mobility.1;
    for &m in &f.horse_mobility[..usize::from(f.horses.min(2))] {
        let h = p.horse_mobility[usize::from(m.min(8))];
        mg += h;
        eg += h;
    }
    if f.cannon_screens != [0; 3] {
        for ((&n, &b), &e) in f
            .cannon_screens
            .iter()
            .zip(&p.cannon_file)
            .zip(&p.cannon_file_eg)
        {
            let n = i32::from(n);
            mg += n * b;
            eg += n * e;
        }
    }
    if f.rooks != 0 {
        let (open, half, pins) = (
            i32::from(f.rooks_open),
            i32::from(f.rooks_half_open),
            i32::from(f.rook_pins),
        );
        mg += open * p.rook_open_file.0 + half * p.rook_half_open_file.0 + pins * p.rook_pin.0;
        eg += open * p.rook_open_file.1 + half * p.rook_half_open_file.1 + pins * p.rook_pin.1;
    }
    for (n, &(m, e)) in [f.rooks, f.horses, f.cannons].into_iter().zip(&p.pairs) {
        if n >= 2 {
            mg += m;
            eg += e;
        }
    }
    let connected = i32::from(f.connected_pawns) * p.connected_pawns;
    Side {
        mg: mg + connected,
        eg: eg + connected,
        rooks,
        horses: i32::from(f.horses),
        cannons: i32::from(f.cannons),
        advisors: i32::from(f.advisors),
        elephants: i32::from(f.elephants),
        attackers: i32::from(f.attackers),
        king_file_open: i32::from(f.king_file_open),
    }
}

/// The threat terms (middle game, end game), Red minus Black: the side to move's
/// threatened pieces.
fn threat_terms(pos: &Position, p: &XiangqiParams) -> (i32, i32) {
    let to_move = pos.side_to_move();
    let t = threats_of(pos, to_move);
    let (mut m, mut e) = (0, 0);
    for band in 0..3 {
        let (lower, hanging) = (i32::from(t.lower[band]), i32::from(t.hanging[band]));
        let (lm, le) = p.threat_lower[band];
        let (hm, he) = p.threat_hanging[band];
        m += lower * lm + hanging * hm;
        e += lower * le + hanging * he;
    }
    if t.threatened() >= 2 {
        m += p.threat_multiple.0;
        e += p.threat_multiple.1;
    }
    if to_move == Color::Red {
        (m, e)
    } else {
        (-m, -e)
    }
}

/// Danger to `me`'s king from `them`: missing guards against their attacking pieces, and
/// their pieces gathered near my palace.
fn safety(me: &Side, them: &Side, p: &XiangqiParams) -> i32 {
    let missing_adv = 2 - me.advisors.min(2);
    let missing_ele = 2 - me.elephants.min(2);
    let guards = missing_adv
        * (p.missing_advisor.0 * them.rooks + p.missing_advisor.1 * them.horses)
        + missing_ele * (p.missing_elephant.0 * them.cannons + p.missing_elephant.1 * them.rooks);
    let attack = them.attackers
        * (p.attack * them.attackers + p.attack_guards * (missing_adv + missing_ele));
    guards + attack + p.open_king_file * me.king_file_open * them.rooks
}

/// The straightforward evaluation that [`evaluate_with`] replaced (the reference of the
/// tests: both must agree on every position).
#[cfg(test)]
fn reference_evaluate_with(pos: &Position, base: &Base, p: &XiangqiParams) -> i32 {
    if p.material_only {
        return quick(pos, base, p);
    }
    let mut sides = [Side::default(); 2];
    let kings = [pos.king_square(Color::Red), pos.king_square(Color::Black)];
    for color in Color::ALL {
        let s = &mut sides[color.index()];
        let enemy_king = kings[color.other().index()];
        let king = kings[color.index()];
        let forward = if color == Color::Red { 1 } else { -1 };
        s.king_file_open = i32::from(
            (1..10)
                .map_while(|d| {
                    Square::new(
                        king.file(),
                        (king.rank() as i32 + forward * d).try_into().ok()?,
                    )
                })
                .all(|sq| pos.piece_at(sq).is_none()),
        );
        let pawn_on = |c: Color, file: u8| {
            pos.pieces_of(c)
                .any(|(sq, k)| k == PieceKind::Pawn && sq.file() == file)
        };
        for (sq, kind) in pos.pieces_of(color) {
            let near_palace = || {
                abs(sq.file() as i32 - 4) <= 2
                    && abs(sq.rank() as i32 - enemy_king.rank() as i32) <= 3
            };
            match kind {
                PieceKind::King => {}
                PieceKind::Advisor => s.advisors += 1,
                PieceKind::Elephant => s.elephants += 1,
                PieceKind::Rook => {
                    s.rooks += 1;
                    let mob = walked_mobility(pos, sq) as i32 - 6;
                    s.mg += mob * p.rook_mobility.0;
                    s.eg += mob * p.rook_mobility.1;
                    s.attackers += i32::from(near_palace());
                    let (m, e) =
                        match (pawn_on(color, sq.file()), pawn_on(color.other(), sq.file())) {
                            (false, false) => p.rook_open_file,
                            (false, true) => p.rook_half_open_file,
                            _ => (0, 0),
                        };
                    s.mg += m;
                    s.eg += e;
                    if pos.pieces_between(sq, enemy_king) == Some(1) {
                        s.mg += p.rook_pin.0;
                        s.eg += p.rook_pin.1;
                    }
                }
                PieceKind::Horse => {
                    s.horses += 1;
                    let mob = p.horse_mobility[walked_mobility(pos, sq).min(8) as usize];
                    s.mg += mob;
                    s.eg += mob;
                    s.attackers += i32::from(near_palace());
                }
                PieceKind::Cannon => {
                    s.cannons += 1;
                    if sq.file() == enemy_king.file() {
                        let n = pos.pieces_between(sq, enemy_king).map(|n| n as usize);
                        if let Some((&b, &e)) =
                            n.and_then(|n| Some((p.cannon_file.get(n)?, p.cannon_file_eg.get(n)?)))
                        {
                            s.mg += b;
                            s.eg += e;
                        }
                    }
                    s.attackers += i32::from(near_palace());
                }
                PieceKind::Pawn => {
                    let crossed = if color == Color::Red {
                        sq.rank() >= 5
                    } else {
                        sq.rank() <= 4
                    };
                    if crossed {
                        s.attackers += i32::from(near_palace());
                        let right = Square::new(sq.file() + 1, sq.rank());
                        if right
                            .and_then(|r| pos.piece_at(r))
                            .is_some_and(|q| q.color == color && q.kind == PieceKind::Pawn)
                        {
                            s.mg += p.connected_pawns;
                            s.eg += p.connected_pawns;
                        }
                    }
                }
            }
        }
    }
    for color in Color::ALL {
        let s = &mut sides[color.index()];
        for (kind, &(m, e)) in [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon]
            .into_iter()
            .zip(&p.pairs)
        {
            if pos.count(color, kind) == 2 {
                s.mg += m;
                s.eg += e;
            }
        }
    }
    let [red, black] = sides;
    let (tm, te) = threat_terms(pos, p);
    let mg = base.mg + red.mg - black.mg + safety(&black, &red, p) - safety(&red, &black, p) + tm;
    let eg = base.eg + red.eg - black.eg + te;
    let v = blend(mg, eg, base.phase);
    (if pos.side_to_move() == Color::Red {
        v
    } else {
        -v
    }) + p.tempo
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Rng;

    /// Random weights for every positional term, so that a term swapped with another or
    /// counted twice shows up in the sum.
    fn random_params(rng: &mut Rng) -> XiangqiParams {
        let mut r = |lo: i32, hi: i32| lo + (rng.next_u64() % (hi - lo + 1) as u64) as i32;
        XiangqiParams {
            rook_mobility: (r(1, 13), r(1, 13)),
            horse_mobility: core::array::from_fn(|_| r(-60, 40)),
            missing_advisor: (r(1, 40), r(1, 40)),
            missing_elephant: (r(1, 40), r(1, 40)),
            cannon_file: core::array::from_fn(|_| r(-30, 90)),
            cannon_file_eg: core::array::from_fn(|_| r(-30, 90)),
            connected_pawns: r(-20, 30),
            attack: r(1, 15),
            tempo: r(0, 20),
            pst_scale: r(0, 150),
            rook_open_file: (r(-20, 30), r(-20, 30)),
            rook_half_open_file: (r(-20, 30), r(-20, 30)),
            rook_pin: (r(-20, 40), r(-20, 40)),
            open_king_file: r(-10, 40),
            attack_guards: r(-5, 10),
            pairs: core::array::from_fn(|_| (r(-30, 30), r(-30, 30))),
            threat_lower: core::array::from_fn(|_| (r(-90, 20), r(-90, 20))),
            threat_hanging: core::array::from_fn(|_| (r(-90, 20), r(-90, 20))),
            threat_multiple: (r(-90, 20), r(-90, 20)),
            ..XiangqiParams::default()
        }
    }

    #[test]
    fn fast_evaluation_equals_the_reference_over_random_games() {
        let mut rng = Rng::new(0x00C0_FFEE);
        let mut checked = 0;
        for game in 0..300 {
            let params = if game % 3 == 0 {
                XiangqiParams::default()
            } else {
                random_params(&mut rng)
            };
            let mut pos = Position::startpos();
            for _ in 0..200 {
                let base = Base::of(&pos, &params);
                assert_eq!(
                    evaluate_with(&pos, &base, &params),
                    reference_evaluate_with(&pos, &base, &params),
                    "{pos:?}"
                );
                checked += 1;
                let Some(mv) = crate::xiangqi::random_move(&pos, &mut rng, 2) else {
                    break;
                };
                pos.make(mv);
            }
        }
        assert!(checked > 20_000);
    }

    #[test]
    fn fast_evaluation_equals_the_reference_on_set_positions() {
        let params = XiangqiParams::default();
        for fen in [
            // Hollow cannon, one screen, two screens, three pieces between.
            "4k4/9/9/9/9/9/9/9/4C4/3K5 w - - 0 1",
            "4k4/9/9/4p4/9/9/9/9/4C4/3K5 b - - 0 1",
            "4k4/9/9/4p4/4P4/9/9/9/4C4/3K5 w - - 0 1",
            "4k4/9/4n4/4p4/4P4/9/9/9/4C4/3K5 b - - 0 1",
            // Connected crossed pawns on both sides, pawns on the edge files.
            "3k5/9/2PPP4/P7P/9/9/p7p/4ppp2/9/4K4 w - - 0 1",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        ] {
            let pos: Position = fen.parse().unwrap();
            let base = Base::of(&pos, &params);
            assert_eq!(
                evaluate_with(&pos, &base, &params),
                reference_evaluate_with(&pos, &base, &params),
                "{fen}"
            );
        }
    }
}
