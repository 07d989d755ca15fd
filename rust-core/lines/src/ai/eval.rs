//! The computer player's judgement of a board, in points (a line of five is 10), built
//! for survival: free cells (and a growing penalty as the board crowds), runs of each
//! colour (every five-cell window of a rank, file or diagonal that holds balls of one
//! colour only, valued by how many it holds), windows of four whose free cell a ball of
//! that colour can reach (a line ready to complete), windows of three whose two free cells
//! two more balls of that colour can reach, free cells cut off from the largest
//! free region, dead balls (in no window that could still become a line) and balls walled
//! in; windows of four or five balls all of one colour but one (the odd ball moved out,
//! a run of three or four again); and the planning term of [`super::plan`]: for each
//! colour, how many moves its cheapest disjoint windows still need, given which spare
//! balls can reach their free cells.
//!
//! [`after_spawn`] adds, in closed form, what the three announced balls are expected to do
//! when they land on random free cells: each one that lands in a window of its own colour
//! extends the run (or completes it), each one of another colour spoils it. That gives
//! every move an expectation over the landing without sampling; the search samples only
//! the few best moves.
//!
//! ```
//! use banco_lines::{Board, ai::eval};
//! let open = Board::empty();
//! let mut built = open;
//! for c in ["a1", "b1", "c1", "d1"] {
//!     built.set(c.parse()?, Some(banco_lines::Ball::Red));
//! }
//! let mut scattered = open;
//! for c in ["a1", "c5", "i9", "e2"] {
//!     scattered.set(c.parse()?, Some(banco_lines::Ball::Red));
//! }
//! assert!(eval::evaluate(&built) > eval::evaluate(&scattered));
//! # Ok::<(), banco_lines::CellError>(())
//! ```

use crate::board::{Ball, Board, CELLS, CellSet, SIZE};
use crate::path::{flood, spread};

/// Number of five-cell windows on the board: 45 on ranks, 45 on files, 25 on each diagonal.
pub const WINDOWS: usize = 140;

/// The five-cell windows: cell indices.
pub static WINDOW_CELLS: [[u8; 5]; WINDOWS] = build_windows();
/// The five-cell windows as cell sets.
pub static WINDOW_MASKS: [u128; WINDOWS] = build_masks();

const fn build_windows() -> [[u8; 5]; WINDOWS] {
    let mut out = [[0u8; 5]; WINDOWS];
    let dirs: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
    let mut n = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut start = 0;
        while start < CELLS {
            let f0 = (start % SIZE) as isize;
            let r0 = (start / SIZE) as isize;
            let f4 = f0 + 4 * df;
            let r4 = r0 + 4 * dr;
            if f4 >= 0 && f4 < SIZE as isize && r4 >= 0 && r4 < SIZE as isize {
                let mut k = 0;
                while k < 5 {
                    out[n][k] =
                        ((r0 + k as isize * dr) * SIZE as isize + f0 + k as isize * df) as u8;
                    k += 1;
                }
                n += 1;
            }
            start += 1;
        }
        d += 1;
    }
    out
}

const fn build_masks() -> [u128; WINDOWS] {
    let cells = build_windows();
    let mut out = [0u128; WINDOWS];
    let mut w = 0;
    while w < WINDOWS {
        let mut k = 0;
        while k < 5 {
            out[w] |= 1u128 << cells[w][k];
            k += 1;
        }
        w += 1;
    }
    out
}

/// `RINGS[i]`: the cells at least `i + 1` rings away from the edge (a ball on ring `d`
/// is in `d` of these sets).
static RINGS: [u128; 4] = build_rings();

const fn build_rings() -> [u128; 4] {
    let mut out = [0u128; 4];
    let mut c = 0;
    while c < CELLS {
        let f = c % SIZE;
        let r = c / SIZE;
        let mut d = f;
        if SIZE - 1 - f < d {
            d = SIZE - 1 - f;
        }
        if r < d {
            d = r;
        }
        if SIZE - 1 - r < d {
            d = SIZE - 1 - r;
        }
        let mut i = 0;
        while i < d {
            out[i] |= 1u128 << c;
            i += 1;
        }
        c += 1;
    }
    out
}

/// Weights of the evaluation (points per feature). [`Weights::default`] holds the values
/// tuned by the noisy cross-entropy method over seeded games (`examples/tune.rs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Value of a window holding 0, 1, 2, 3 or 4 balls of one colour and nothing else.
    pub run: [f32; 5],
    /// Extra value of a window of four whose free cell a ball of its colour can reach.
    pub ready: f32,
    /// Value of each free cell.
    pub free: f32,
    /// Penalty per missing free cell below `crowd_at` free cells, squared.
    pub crowd: f32,
    /// Free cells below which the board counts as crowded.
    pub crowd_at: f32,
    /// Penalty per free cell outside the largest free region.
    pub pocket: f32,
    /// Penalty per ball in no window that could still become a line.
    pub dead: f32,
    /// Penalty per ball with no free neighbour.
    pub walled: f32,
    /// Value of a line completed by a landing ball, in the closed-form expectation.
    pub landing_line: f32,
    /// Scale of the expected effect of the landing balls on the windows (1: as computed).
    pub landing: f32,
    /// Bonus of a move that completes lines, over its points: a line in hand is worth
    /// more than the windows it came from (which the landing balls may spoil).
    pub complete: f32,
    /// Penalty per ball and ring away from the edge (0 on the edge, 4 in the centre):
    /// balls in the middle cut the free paths.
    pub center: f32,
    /// Extra value of a window of three whose two free cells balls of its colour (two at
    /// least) can reach.
    pub ready3: f32,
    /// Penalty per free region beyond the first.
    pub regions: f32,
    /// Penalty per ball in no window shared with another ball of its colour (and no
    /// other colour): a ball that starts no line where it stands.
    pub lonely: f32,
    /// Planning term ([`super::plan`]): value of a window one move from a line.
    pub plan1: f32,
    /// Planning term: value of a window two moves from a line.
    pub plan2: f32,
    /// Planning term: value of a window three moves from a line.
    pub plan3: f32,
    /// Planning term: factor for each further window of the same colour.
    pub plan_decay: f32,
    /// Value of a window holding three balls of one colour, one ball of another and a
    /// free cell (the odd ball moved out, it is one move from a window of four).
    pub mixed3: f32,
    /// Value of a window holding four balls of one colour and one of another.
    pub mixed4: f32,
}

/// A weights spec ([`Weights::apply_spec`]) that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeightSpecError {
    /// A pair without `=`.
    #[error("weight `{0}` has no value: write name=value")]
    NoValue(String),
    /// A value that is not a number.
    #[error("weight {name}: `{value}` is not a number")]
    NotANumber {
        /// The weight.
        name: String,
        /// What was given.
        value: String,
    },
    /// A name that is no weight.
    #[error("no weight is called `{0}` (the names: Weights::NAMES)")]
    Unknown(String),
}

/// Number of tunable weights ([`Weights::NAMES`]).
pub const WEIGHT_COUNT: usize = 25;

impl Weights {
    /// The names of the weights, in [`Weights::to_array`] order (`run0`…`run4` are the
    /// entries of [`Weights::run`]).
    pub const NAMES: [&'static str; WEIGHT_COUNT] = [
        "run0",
        "run1",
        "run2",
        "run3",
        "run4",
        "ready",
        "free",
        "crowd",
        "crowd_at",
        "pocket",
        "dead",
        "walled",
        "landing_line",
        "landing",
        "complete",
        "center",
        "ready3",
        "regions",
        "lonely",
        "plan1",
        "plan2",
        "plan3",
        "plan_decay",
        "mixed3",
        "mixed4",
    ];

    /// Every weight, in [`Weights::NAMES`] order.
    #[must_use]
    pub fn to_array(&self) -> [f32; WEIGHT_COUNT] {
        let mut out = [0.0; WEIGHT_COUNT];
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.get(i);
        }
        out
    }

    /// The weights of an array in [`Weights::NAMES`] order.
    #[must_use]
    pub fn from_array(values: &[f32; WEIGHT_COUNT]) -> Weights {
        let mut w = Weights::default();
        for (i, &v) in values.iter().enumerate() {
            w.set_index(i, v);
        }
        w
    }

    /// The weight with index `i` in [`Weights::NAMES`] order (0 past the end).
    #[must_use]
    pub fn get(&self, i: usize) -> f32 {
        match i {
            0..=4 => self.run[i],
            5 => self.ready,
            6 => self.free,
            7 => self.crowd,
            8 => self.crowd_at,
            9 => self.pocket,
            10 => self.dead,
            11 => self.walled,
            12 => self.landing_line,
            13 => self.landing,
            14 => self.complete,
            15 => self.center,
            16 => self.ready3,
            17 => self.regions,
            18 => self.lonely,
            19 => self.plan1,
            20 => self.plan2,
            21 => self.plan3,
            22 => self.plan_decay,
            23 => self.mixed3,
            24 => self.mixed4,
            _ => 0.0,
        }
    }

    fn set_index(&mut self, i: usize, v: f32) {
        let slot = match i {
            0..=4 => &mut self.run[i],
            5 => &mut self.ready,
            6 => &mut self.free,
            7 => &mut self.crowd,
            8 => &mut self.crowd_at,
            9 => &mut self.pocket,
            10 => &mut self.dead,
            11 => &mut self.walled,
            12 => &mut self.landing_line,
            13 => &mut self.landing,
            14 => &mut self.complete,
            15 => &mut self.center,
            16 => &mut self.ready3,
            17 => &mut self.regions,
            18 => &mut self.lonely,
            19 => &mut self.plan1,
            20 => &mut self.plan2,
            21 => &mut self.plan3,
            22 => &mut self.plan_decay,
            23 => &mut self.mixed3,
            24 => &mut self.mixed4,
            _ => return,
        };
        *slot = v;
    }

    /// Sets the weight called `name` (see [`Weights::NAMES`]); false if no weight has
    /// that name.
    pub fn set(&mut self, name: &str, value: f32) -> bool {
        match Weights::NAMES.iter().position(|&n| n == name) {
            Some(i) => {
                self.set_index(i, value);
                true
            }
            None => false,
        }
    }

    /// Sets the weights a spec names (`name=value` pairs separated by commas, the form
    /// [`Weights::to_spec`] writes; an empty spec changes nothing). On an error nothing
    /// is changed.
    ///
    /// ```
    /// use banco_lines::ai::eval::{WeightSpecError, Weights};
    /// let mut w = Weights::default();
    /// w.apply_spec("plan1=0,plan2=0")?;
    /// assert_eq!(w.plan1, 0.0);
    /// assert_eq!(w.apply_spec("plan1=1,nope=2"), Err(WeightSpecError::Unknown("nope".into())));
    /// assert_eq!(w.plan1, 0.0);
    /// assert_eq!(Weights::from_spec(&Weights::default().to_spec())?, Weights::default());
    /// # Ok::<(), WeightSpecError>(())
    /// ```
    pub fn apply_spec(&mut self, spec: &str) -> Result<(), WeightSpecError> {
        let mut w = *self;
        for pair in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, value) = pair
                .split_once('=')
                .ok_or_else(|| WeightSpecError::NoValue(pair.to_string()))?;
            let v: f32 = value
                .trim()
                .parse()
                .map_err(|_| WeightSpecError::NotANumber {
                    name: name.to_string(),
                    value: value.to_string(),
                })?;
            if !w.set(name.trim(), v) {
                return Err(WeightSpecError::Unknown(name.trim().to_string()));
            }
        }
        *self = w;
        Ok(())
    }

    /// The default weights with those `spec` names changed ([`Weights::apply_spec`]).
    pub fn from_spec(spec: &str) -> Result<Weights, WeightSpecError> {
        let mut w = Weights::default();
        w.apply_spec(spec)?;
        Ok(w)
    }

    /// The weights as `name=value` pairs separated by commas (the form
    /// [`Weights::apply_spec`] reads).
    #[must_use]
    pub fn to_spec(&self) -> String {
        Weights::NAMES
            .iter()
            .enumerate()
            .map(|(i, name)| format!("{name}={}", self.get(i)))
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// The weights found by the cross-entropy method (`examples/tune.rs`; the commands, the
/// seeds and every generation's log are in `data/tuning.md`), exactly as printed, and the
/// planning weights (`plan1`…`plan_decay`) chosen by paired measurements over 400 seeded
/// games (`data/tuning.md`, fourth session; `plan1=0,plan2=0` gives the player before),
/// and the odd-ball windows (`mixed3`, `mixed4`) chosen the same way over 800 games
/// (eighth session; `mixed3=0,mixed4=0` gives the player before).
impl Default for Weights {
    fn default() -> Weights {
        Weights {
            run: [
                0.094_845_3,
                0.033_127_513,
                0.292_036_95,
                1.351_419_2,
                4.720_847_6,
            ],
            ready: 4.968_431,
            free: 2.957_072_3,
            crowd: 0.524_378_1,
            crowd_at: 27.145_357,
            pocket: 0.216_298_31,
            dead: 0.158_781_72,
            walled: 0.254_526_5,
            landing_line: 9.469_26,
            landing: 0.705_428_7,
            complete: 24.845_716,
            center: 0.103_373_19,
            ready3: 1.156_006_8,
            regions: -0.201_568_95,
            lonely: 0.094_109_99,
            plan1: 10.0,
            plan2: 2.0,
            plan3: 0.0,
            plan_decay: 0.5,
            mixed3: 0.7,
            mixed4: 2.5,
        }
    }
}

/// A board as bit sets: one per colour and the free cells, with where the announced
/// balls may land.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Masks {
    /// The cells of each colour (index 0 unused: codes are 1–7).
    pub color: [u128; 8],
    /// The free cells.
    pub empty: u128,
    /// The cells the announced balls' spots were drawn among
    /// ([`LinesGame::spot_cells`](crate::LinesGame::spot_cells)): a ball lands on its spot,
    /// or on a random free cell when a ball took it. 0 (as [`Masks::of`] leaves it): the
    /// balls land on random free cells of the board judged (the rule at landing, or the
    /// spots drawn on this very board).
    pub spots: u128,
}

impl Masks {
    /// The masks of `board`.
    #[must_use]
    pub fn of(board: &Board) -> Masks {
        let mut color = [0u128; 8];
        for (i, &v) in board.codes().iter().enumerate() {
            color[v as usize & 7] |= 1u128 << i;
        }
        Masks {
            empty: color[0],
            color,
            spots: 0,
        }
    }
}

/// The free regions of a board: disjoint cell sets, orthogonally connected.
#[derive(Clone, Copy, Debug)]
pub struct Regions {
    sets: [u128; 41],
    /// `spread` of each region: its cells and their neighbours (the balls next to it).
    near: [u128; 41],
    len: usize,
}

impl Regions {
    /// The regions of the free cells `empty`.
    #[must_use]
    pub fn of(empty: u128) -> Regions {
        let mut r = Regions {
            sets: [0; 41],
            near: [0; 41],
            len: 0,
        };
        let mut rest = empty;
        while rest != 0 {
            let seed = rest & rest.wrapping_neg();
            let region = flood(crate::board::CellSet(empty), seed).0;
            if r.len < r.sets.len() {
                r.sets[r.len] = region;
                r.near[r.len] = spread(region);
                r.len += 1;
            }
            rest &= !region;
        }
        r
    }

    /// The regions.
    #[must_use]
    pub fn sets(&self) -> &[u128] {
        &self.sets[..self.len]
    }

    /// The region holding the free cell with bit `bit`, or 0.
    #[must_use]
    pub fn containing(&self, bit: u128) -> u128 {
        self.sets()
            .iter()
            .copied()
            .find(|&s| s & bit != 0)
            .unwrap_or(0)
    }

    /// The region holding the free cell with bit `bit` and the cells next to it — where a
    /// ball that can reach `bit` stands (`bit` and its neighbours if no region holds it).
    /// Computed once per region, not per query.
    #[must_use]
    pub fn near(&self, bit: u128) -> u128 {
        self.sets()
            .iter()
            .zip(&self.near)
            .find(|(s, _)| *s & bit != 0)
            .map_or_else(|| spread(bit), |(_, &n)| n)
    }

    /// The free cells a ball whose neighbours are `neighbours` can reach.
    #[must_use]
    pub fn reach(&self, neighbours: u128) -> u128 {
        self.sets()
            .iter()
            .filter(|&&s| s & neighbours != 0)
            .fold(0, |a, &s| a | s)
    }
}

/// The whole evaluation of `board` with the default weights.
#[must_use]
pub fn evaluate(board: &Board) -> f32 {
    evaluate_with(board, &Weights::default())
}

/// The static evaluation of `board` (see the module docs).
#[must_use]
pub fn evaluate_with(board: &Board, weights: &Weights) -> f32 {
    judge(board, weights, None)
}

/// The evaluation of `board` once the balls `next` have landed on random free cells,
/// in expectation (first order: each landing judged alone), with `None` for colours not
/// yet announced (each of the seven equally likely, three balls).
#[must_use]
pub fn after_spawn(board: &Board, next: Option<&[Ball]>, weights: &Weights) -> f32 {
    judge(board, weights, Some(next.unwrap_or(&[])))
}

/// The dead balls of `board`: balls in no five-cell window whose balls are all of one
/// colour (no line can form through them where they stand; only a move or the lines
/// cleared around them bring them back). The evaluation penalises them by
/// [`Weights::dead`].
///
/// ```
/// use banco_lines::{Ball, Board, ai::eval::dead_balls};
/// let mut board = Board::empty();
/// board.set("a1".parse()?, Some(Ball::Red));
/// assert!(dead_balls(&board).is_empty());
/// // A blue ball in the corner, hemmed in by red balls on every line through it.
/// board.set("a1".parse()?, Some(Ball::Blue));
/// for c in ["b1", "a2", "b2"] {
///     board.set(c.parse()?, Some(Ball::Red));
/// }
/// assert_eq!(dead_balls(&board).len(), 1);
/// assert!(dead_balls(&board).contains("a1".parse()?));
/// # Ok::<(), banco_lines::CellError>(())
/// ```
#[must_use]
pub fn dead_balls(board: &Board) -> CellSet {
    let m = Masks::of(board);
    let codes = board.codes();
    let mut live = 0u128;
    for &mask in &WINDOW_MASKS {
        let occ = mask & !m.empty;
        if occ == 0 {
            continue;
        }
        let code = codes[occ.trailing_zeros() as usize] as usize & 7;
        if occ & !m.color[code] == 0 {
            live |= occ;
        }
    }
    let balls = !m.empty & ((1u128 << CELLS) - 1);
    CellSet(balls & !live)
}

/// How likely each free cell is to receive a given landing ball (first order: each ball
/// alone). Spots drawn among `spots` (the free cells at announcement): a free cell there
/// receives the ball when its spot is that cell (1 / |spots|) or when its spot was taken
/// and the ball falls there (the share of spots no longer free, spread over the free
/// cells); any other free cell (the one a move left, a line's) only in the second way.
/// Without spots, every free cell alike.
#[derive(Clone, Copy, Debug)]
struct LandingOdds {
    spots: u128,
    inside: f32,
    outside: f32,
}

impl LandingOdds {
    fn of(m: &Masks) -> LandingOdds {
        let free = m.empty.count_ones() as f32;
        let per_cell = if free > 0.0 { 1.0 / free } else { 0.0 };
        let drawn = m.spots.count_ones() as f32;
        if drawn == 0.0 {
            return LandingOdds {
                spots: 0,
                inside: per_cell,
                outside: per_cell,
            };
        }
        let taken = (m.spots & !m.empty).count_ones() as f32 / drawn;
        LandingOdds {
            spots: m.spots,
            inside: 1.0 / drawn + taken * per_cell,
            outside: taken * per_cell,
        }
    }

    /// The expected number of balls (of one) landing on the free cells `cells`.
    fn of_cells(&self, cells: u128) -> f32 {
        if self.spots == 0 {
            return cells.count_ones() as f32 * self.inside;
        }
        (cells & self.spots).count_ones() as f32 * self.inside
            + (cells & !self.spots).count_ones() as f32 * self.outside
    }
}

fn crowding(free: f32, weights: &Weights) -> f32 {
    if free < weights.crowd_at {
        let d = weights.crowd_at - free;
        weights.crowd * d * d
    } else {
        0.0
    }
}

/// `spawn`: `None` for the static evaluation; `Some(colours)` to add the expected effect
/// of three landing balls (an empty slice: colours unknown).
fn judge(board: &Board, weights: &Weights, spawn: Option<&[Ball]>) -> f32 {
    judge_masks(board, &Masks::of(board), weights, spawn)
}

/// [`after_spawn`] for a board whose [`Masks`] the caller already holds (the search
/// updates them move by move instead of reading the 81 cells again).
#[must_use]
pub fn after_spawn_masks(
    board: &Board,
    masks: &Masks,
    next: Option<&[Ball]>,
    weights: &Weights,
) -> f32 {
    judge_masks(board, masks, weights, Some(next.unwrap_or(&[])))
}

fn judge_masks(board: &Board, m: &Masks, weights: &Weights, spawn: Option<&[Ball]>) -> f32 {
    let empty = m.empty;
    let free_n = empty.count_ones() as f32;
    let regions = Regions::of(empty);
    let largest = regions
        .sets()
        .iter()
        .map(|s| s.count_ones())
        .max()
        .unwrap_or(0);
    let mut value = weights.free * free_n - crowding(free_n, weights);
    value -= weights.pocket * (free_n - largest as f32);
    value -= weights.regions * (regions.sets().len().saturating_sub(1)) as f32;

    // How many of the landing balls have each colour (index = code), over 3 balls.
    let mut share = [0f32; 8];
    let spawning = spawn.is_some();
    if let Some(next) = spawn {
        if next.is_empty() {
            for s in share.iter_mut().skip(1) {
                *s = 3.0 / 7.0;
            }
        } else {
            for b in next {
                share[b.index() + 1] += 1.0;
            }
        }
    }
    let total: f32 = share.iter().sum();
    let odds = LandingOdds::of(m);
    let codes = board.codes();
    let mut live = 0u128;
    let mut paired = 0u128;
    let mut expected = 0.0;
    let mut empty_windows = 0u32;
    let planning = weights.plan1 != 0.0 || weights.plan2 != 0.0 || weights.plan3 != 0.0;
    let mut plan_windows = super::plan::Windows::new();
    let mixing = weights.mixed3 != 0.0 || weights.mixed4 != 0.0;
    for (wi, &mask) in WINDOW_MASKS.iter().enumerate() {
        let occ = mask & !empty;
        if occ == 0 {
            empty_windows += 1;
            continue;
        }
        let code = codes[occ.trailing_zeros() as usize] as usize & 7;
        if occ & !m.color[code] != 0 {
            // A window of four or five balls, all of one colour but one: the odd ball
            // moved out, it is a window of three or four again.
            let n = if mixing { occ.count_ones() } else { 0 };
            if n >= 4 {
                let others = occ & !m.color[code];
                let k = others.count_ones();
                let odd = k == 1 || {
                    let c2 = codes[others.trailing_zeros() as usize] as usize & 7;
                    k == n - 1 && others & !m.color[c2] == 0
                };
                if odd {
                    value += if n == 5 {
                        weights.mixed4
                    } else {
                        weights.mixed3
                    };
                }
            }
            continue;
        }
        live |= occ;
        let k = occ.count_ones() as usize;
        if k >= 2 {
            paired |= occ;
        }
        let whole = k;
        let k = k.min(4);
        let mut v = weights.run[k];
        // The balls of this colour outside the window (the spares), and which of them
        // can reach each free cell (next to its free region): shared by the ready terms
        // and the planning term's window costs (one scan of the windows for both).
        let holes = mask & empty;
        let spares = m.color[code] & !occ;
        if k == 4 {
            // A ball of this colour outside the window next to the hole's region.
            let r = regions.near(holes) & spares;
            if r != 0 {
                v += weights.ready;
            }
            if planning && whole == 4 {
                plan_windows.add(wi, code, super::plan::window_cost(&[r]));
            }
        } else if k == 3 && (weights.ready3 != 0.0 || planning) {
            let h1 = holes & holes.wrapping_neg();
            let h2 = holes & !h1;
            let s1 = regions.near(h1) & spares;
            let s2 = regions.near(h2) & spares;
            if weights.ready3 != 0.0 && s1 != 0 && s2 != 0 && (s1 | s2).count_ones() >= 2 {
                v += weights.ready3;
            }
            if planning {
                plan_windows.add(wi, code, super::plan::window_cost(&[s1, s2]));
            }
        } else if k == 2 && planning {
            let h1 = holes & holes.wrapping_neg();
            let h2 = (holes & !h1) & (holes & !h1).wrapping_neg();
            let h3 = holes & !h1 & !h2;
            let reach = [
                regions.near(h1) & spares,
                regions.near(h2) & spares,
                regions.near(h3) & spares,
            ];
            plan_windows.add(wi, code, super::plan::window_cost(&reach));
        }
        value += v;
        if spawning {
            // Each free cell of the window receives each landing ball with the
            // probability `odds` gives it: its own colour extends the run, another
            // spoils it.
            let holes = odds.of_cells(holes);
            let same = share[code];
            let gain = if k == 4 {
                weights.landing_line
            } else {
                weights.run[k + 1] - weights.run[k]
            };
            expected += holes * (same * gain - (total - same) * v);
        }
    }
    value += weights.run[0] * empty_windows as f32;
    if planning {
        let costs = plan_windows.cheapest(m);
        value += super::plan::value(
            &costs,
            &[weights.plan1, weights.plan2, weights.plan3],
            weights.plan_decay,
        );
    }
    value += weights.landing * expected;
    let balls = !empty & ((1u128 << CELLS) - 1);
    let dead = (balls & !live).count_ones() as f32;
    value -= weights.dead * dead;
    value -= weights.lonely * (balls & live & !paired).count_ones() as f32;
    let walled = (balls & !spread(empty)).count_ones() as f32;
    if weights.center != 0.0 {
        let rings: u32 = RINGS.iter().map(|&r| (balls & r).count_ones()).sum();
        value -= weights.center * rings as f32;
    }
    value -= weights.walled * walled;
    if spawning {
        // Three fewer free cells (the lines they make are counted above).
        let after = (free_n - 3.0).max(0.0);
        value -= 3.0 * weights.free + crowding(after, weights) - crowding(free_n, weights);
    }
    value
}

#[cfg(test)]
mod tests {
    use super::{LandingOdds, Masks};
    use crate::board::{Ball, Board, Cell};

    /// A board with balls on the first `n` cells.
    fn filled(n: usize) -> Board {
        let mut board = Board::empty();
        for i in 0..n {
            if let Ok(c) = Cell::from_index(i) {
                board.set(c, Some(Ball::ALL[(i / 2) % 7]));
            }
        }
        board
    }

    #[test]
    fn a_landing_ball_falls_somewhere_once() {
        let board = filled(40);
        let mut m = Masks::of(&board);
        let classic = LandingOdds::of(&m);
        assert!((classic.of_cells(m.empty) - 1.0).abs() < 1e-5);
        // The spots were drawn among the free cells before a move from cell 0 to cell 80:
        // 0 is free now but no spot; 80 was a spot cell and is taken.
        let spots = m.empty;
        m.empty = (m.empty | 1) & !(1u128 << 80);
        m.spots = spots;
        let odds = LandingOdds::of(&m);
        assert!((odds.of_cells(m.empty) - 1.0).abs() < 1e-5);
        let (left, other) = (1u128, 1u128 << 79);
        assert!(odds.of_cells(left) < classic.of_cells(left) / 10.0);
        assert!(odds.of_cells(other) > classic.of_cells(other));
    }
}
