//! Experiment (thirteenth session, `data/tuning.md`): an n-tuple value for Lines learned
//! by TD(0) over afterstates at the scale of 2048's networks (Szubert & Jaśkowski 2014),
//! with a reward of one per move survived, judged by the greedy player it makes.
//!
//! The value of the board after our move (before the announced balls land) is a sum of
//! table entries:
//!
//! * each of the 140 five-cell windows: empty; pure (one colour) by the 5-bit mask of its
//!   balls × how many of the announced balls have that colour (0, 1, 2+) × (with
//!   `--reach`) whether a hole of a window of 3+ balls opens on a free region bordered by
//!   a ball of its colour outside the window (judged on the board before the move, so the
//!   same for every move of a turn); mixed by its free cells. One table per window, or
//!   (`--sym`) one per class of windows under the 8 symmetries of the board (24 classes);
//! * free cells of the afterstate (0–81), and each colour's ball count (0–15+).
//!
//! A move changes the windows through its two cells only and a window's state updates in
//! O(1), so judging every legal move of a turn costs about 0.1 ms. `--tc` gives
//! each entry its own rate by temporal coherence (Beal & Smith: |Σ errors| / Σ |errors|);
//! `--lambda L` learns from the λ-returns of each whole game instead of online TD(0).
//! `--rates LEVEL,WINDOWS`: the free-cells entry moves by LEVEL × the error, the window
//! entries together (and the colour counts together) by WINDOWS × the error.
//! Training games are the real game ([`LinesGame`]) from seed 1,000,000 on; the start is
//! a shaped table (pure windows by their balls × `--start-runs`, free cells ×
//! `--start-level`), since from zero the player never completes a line.
//!
//! ```text
//! cargo build --release -p banco-lines --example ntuple
//! target/release/examples/ntuple train --games 150000 --rates 0.02,0.005 --report 5000 \
//!     --save /tmp/P2.bin
//! target/release/examples/ntuple measure --games 100 --seed 1 --load /tmp/P2.bin
//! ```
//!
//! `train` prints `after G games N median_score M mean_score A median_turns T ms_per_move
//! X secs S` every `--report` (1000) games (the bench's line over the last N games;
//! `ms_per_move` with the learning) and saves the tables (`--save`; `--load` starts from saved
//! ones, `--seed` moves the training seeds); `measure` plays the bench's games
//! (`banco bench lines --games G --seed S` spawns) greedily and prints the bench's summary
//! line (`ms_per_move`: the greedy judgement of every legal move, one thread); `--show
//! 30,60` prints the board at those turns.
#![allow(clippy::expect_used, clippy::needless_range_loop, clippy::float_cmp)]

use banco_lines::ai::eval::{Regions, WINDOW_CELLS, WINDOW_MASKS, WINDOWS};
use banco_lines::ai::features::Share;
use banco_lines::ai::search::SampleRng;
use banco_lines::ai::summary::Summary;
use banco_lines::board::{Ball, Board, CELLS, Cell, SIZE};
use banco_lines::game::{LinesGame, Settings};
use banco_lines::lines::lines_through;
use banco_lines::path::spread;
use banco_lines::spawn::Spawner;
use std::io::Write;
use std::time::Instant;

/// Five-cell windows on the board.
const NW: usize = WINDOWS;
/// Entries of one window table: empty, 31 masks × 3 announced × 2 reach, 5 mixed.
const PER_WIN: usize = 1 + 31 * 3 * 2 + 5;
const MIXED: usize = 1 + 31 * 3 * 2;
const LEVEL_OFF: usize = NW * PER_WIN;
const COUNT_OFF: usize = LEVEL_OFF + CELLS + 1;
const NFEAT: usize = COUNT_OFF + 16;

/// What the tables look at (saved with them).
#[derive(Clone, Copy, Default)]
struct Shape {
    sym: bool,
    reach: bool,
}

/// The windows ([`WINDOW_CELLS`]): the windows through each cell, their tables.
struct Geo {
    /// The windows through a cell and the cell's place in each.
    through: Vec<Vec<(u16, u8)>>,
    /// The table a window reads (its symmetry class with `sym`, else its own).
    table: [usize; NW],
    /// Whether the window's cells run backwards against its class's representative.
    rev: [bool; NW],
    /// Every cell, by index.
    cell: Vec<Cell>,
    reach: bool,
}

impl Geo {
    fn new(shape: Shape) -> Geo {
        let cells = &WINDOW_CELLS;
        let mut through = vec![Vec::new(); CELLS];
        for (i, w) in cells.iter().enumerate() {
            for (k, &c) in w.iter().enumerate() {
                through[c as usize].push((i as u16, k as u8));
            }
        }
        let mut table = [0usize; NW];
        let mut rev = [false; NW];
        for i in 0..NW {
            table[i] = i;
            if !shape.sym {
                continue;
            }
            for g in 0..8 {
                let image: Vec<u8> = cells[i].iter().map(|&c| symmetric(c, g)).collect();
                for (j, w) in cells.iter().enumerate() {
                    let forward = w.iter().zip(&image).all(|(a, b)| a == b);
                    let backward = w.iter().rev().zip(&image).all(|(a, b)| a == b);
                    if (forward || backward) && j < table[i] {
                        table[i] = j;
                        rev[i] = !forward;
                    }
                }
            }
        }
        Geo {
            through,
            table,
            rev,
            cell: Cell::all().collect(),
            reach: shape.reach,
        }
    }
}

/// Cell `c` under symmetry `g` of the square (bit 2: transpose, bits 0–1: mirror).
fn symmetric(c: u8, g: u8) -> u8 {
    let (f, r) = (c as usize % SIZE, c as usize / SIZE);
    let (f, r) = if g & 4 != 0 { (r, f) } else { (f, r) };
    let f = if g & 1 != 0 { SIZE - 1 - f } else { f };
    let r = if g & 2 != 0 { SIZE - 1 - r } else { r };
    (r * SIZE + f) as u8
}

/// A window's content: its colour (code, 0 none), the mask of its balls, whether two
/// colours share it, its free cells.
#[derive(Clone, Copy, Default)]
struct Win {
    colour: u8,
    mask: u8,
    mixed: bool,
    free: u8,
}

impl Win {
    const EMPTY: Win = Win {
        colour: 0,
        mask: 0,
        mixed: false,
        free: 5,
    };

    /// The window with a ball of `colour` put on its place `k`.
    fn add(self, k: u8, colour: u8) -> Win {
        let mut w = self;
        w.free -= 1;
        if w.mixed {
        } else if w.mask == 0 {
            w.colour = colour;
            w.mask = 1 << k;
        } else if w.colour == colour {
            w.mask |= 1 << k;
        } else {
            w.mixed = true;
        }
        w
    }

    fn full(self) -> bool {
        !self.mixed && self.mask == 31
    }

    /// The entry window `w` in this state reads.
    fn slot(self, geo: &Geo, w: usize, ann: &[u8; 8], ctx: &Ctx) -> usize {
        let base = geo.table[w] * PER_WIN;
        if self.mixed {
            return base + MIXED + self.free as usize;
        }
        if self.mask == 0 {
            return base;
        }
        let reach = ctx.reach(geo, w, self);
        let mask = if geo.rev[w] {
            self.mask.reverse_bits() >> 3
        } else {
            self.mask
        };
        base + 1
            + ((mask as usize - 1) * 3 + ann[self.colour as usize] as usize) * 2
            + usize::from(reach)
    }
}

/// The free regions of the board before our move: the region each cell opens on (a
/// ball's cell: one of a free neighbour's) and the balls of each colour bordering each.
#[derive(Clone)]
struct Ctx {
    region_of: [u8; CELLS],
    border: Vec<[u128; 8]>,
}

impl Ctx {
    fn of(board: &Board, regions: &Regions, on: bool) -> Ctx {
        let mut ctx = Ctx {
            region_of: [u8::MAX; CELLS],
            border: Vec::new(),
        };
        if !on {
            return ctx;
        }
        for &region in regions.sets() {
            let id = ctx.border.len() as u8;
            let mut border = [0u128; 8];
            let mut edge = spread(region) & !board.empties().0;
            while edge != 0 {
                let c = edge.trailing_zeros() as usize;
                edge &= edge - 1;
                border[board.code(c) as usize] |= 1 << c;
            }
            ctx.border.push(border);
            let mut cells = region | spread(region);
            while cells != 0 {
                let c = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                if ctx.region_of[c] == u8::MAX || board.code(c) == 0 {
                    ctx.region_of[c] = id;
                }
            }
        }
        ctx
    }

    /// Whether a hole of pure window `w` (3+ balls) opens on a region bordered by a ball
    /// of its colour outside the window.
    fn reach(&self, geo: &Geo, w: usize, win: Win) -> bool {
        if !geo.reach || win.mask.count_ones() < 3 {
            return false;
        }
        (0..5).any(|k| {
            let hole = WINDOW_CELLS[w][k] as usize;
            let r = self.region_of[hole];
            win.mask & (1 << k) == 0
                && r != u8::MAX
                && self.border[r as usize][win.colour as usize] & !WINDOW_MASKS[w] != 0
        })
    }
}

/// A board with its windows' states and counts, updated cell by cell.
#[derive(Clone)]
struct Pos {
    board: Board,
    wins: [Win; NW],
    count: [u8; 8],
    free: usize,
}

impl Pos {
    fn new(board: Board) -> Pos {
        let mut p = Pos {
            board,
            wins: [Win::EMPTY; NW],
            count: [0; 8],
            free: board.empty_count(),
        };
        for (i, w) in WINDOW_CELLS.iter().enumerate() {
            for (k, &c) in w.iter().enumerate() {
                let v = board.code(c as usize);
                if v != 0 {
                    p.wins[i] = p.wins[i].add(k as u8, v);
                }
            }
        }
        for i in 0..CELLS {
            p.count[board.code(i) as usize] += 1;
        }
        p
    }

    fn set(&mut self, geo: &Geo, c: usize, v: u8) {
        let old = self.board.code(c);
        self.board.set(
            geo.cell[c],
            if v == 0 {
                None
            } else {
                Ball::from_index(v as usize - 1)
            },
        );
        self.count[old as usize] -= 1;
        self.count[v as usize] += 1;
        self.free = self.board.empty_count();
        for &(w, _) in &geo.through[c] {
            let w = w as usize;
            let mut win = Win::EMPTY;
            for (k, &cc) in WINDOW_CELLS[w].iter().enumerate() {
                let x = self.board.code(cc as usize);
                if x != 0 {
                    win = win.add(k as u8, x);
                }
            }
            self.wins[w] = win;
        }
    }

    /// Plays `from` → `to` and clears the lines it completes.
    fn play(&mut self, geo: &Geo, from: usize, to: usize) {
        let v = self.board.code(from);
        self.set(geo, from, 0);
        self.set(geo, to, v);
        let mut cleared = lines_through(&self.board, geo.cell[to]).0;
        while cleared != 0 {
            let c = cleared.trailing_zeros() as usize;
            cleared &= cleared - 1;
            self.set(geo, c, 0);
        }
    }
}

/// The tables, and the temporal-coherence sums when `--tc`.
struct Net {
    shape: Shape,
    w: Vec<f32>,
    tc: Option<(Vec<f32>, Vec<f32>)>,
}

impl Net {
    /// Pure windows worth `runs` × (0.5, 1.5, 4, 10) by their balls, each free cell `level`.
    fn shaped(shape: Shape, runs: f32, level: f32) -> Net {
        let by_balls = [0.0, 0.5, 1.5, 4.0, 10.0, 0.0];
        let mut w = vec![0.0f32; NFEAT];
        for t in 0..NW {
            for mask in 1..32usize {
                for a in 0..6 {
                    w[t * PER_WIN + 1 + (mask - 1) * 6 + a] =
                        runs * by_balls[mask.count_ones() as usize];
                }
            }
        }
        for f in 0..=CELLS {
            w[LEVEL_OFF + f] = level * f as f32;
        }
        Net { shape, w, tc: None }
    }

    fn value(&self, geo: &Geo, p: &Pos, ann: &[u8; 8], ctx: &Ctx) -> f32 {
        let mut v = self.w[LEVEL_OFF + p.free];
        for i in 0..NW {
            v += self.w[p.wins[i].slot(geo, i, ann, ctx)];
        }
        for c in 1..8 {
            v += self.w[COUNT_OFF + (p.count[c] as usize).min(15)];
        }
        v
    }

    /// Moves the value of `p` by `err`: the free-cells entry by `rates.0` × `err`, the
    /// windows' entries together by `rates.1` × `err`, the colour counts' too.
    fn update(
        &mut self,
        geo: &Geo,
        p: &Pos,
        ann: &[u8; 8],
        ctx: &Ctx,
        err: f32,
        rates: (f32, f32),
    ) {
        let dw = rates.1 * err / NW as f32;
        for i in 0..NW {
            self.bump(p.wins[i].slot(geo, i, ann, ctx), dw, err);
        }
        self.bump(LEVEL_OFF + p.free, rates.0 * err, err);
        let dc = rates.1 * err / 7.0;
        for c in 1..8 {
            self.bump(COUNT_OFF + (p.count[c] as usize).min(15), dc, err);
        }
    }

    fn bump(&mut self, i: usize, step: f32, err: f32) {
        match &mut self.tc {
            None => self.w[i] += step,
            Some((sum, size)) => {
                let rate = if size[i] > 0.0 {
                    sum[i].abs() / size[i]
                } else {
                    1.0
                };
                self.w[i] += rate * step;
                sum[i] += err;
                size[i] += err.abs();
            }
        }
    }

    fn save(&self, path: &str) {
        let mut bytes = b"NTUP".to_vec();
        bytes.push(u8::from(self.shape.sym) | u8::from(self.shape.reach) << 1);
        for x in &self.w {
            bytes.extend_from_slice(&x.to_le_bytes());
        }
        let mut f = std::fs::File::create(path).expect("create the tables' file");
        f.write_all(&bytes).expect("write the tables");
    }

    fn load(path: &str) -> Net {
        let bytes = std::fs::read(path).expect("read the tables");
        assert!(
            bytes.len() == 5 + 4 * NFEAT && bytes.starts_with(b"NTUP"),
            "not an ntuple file"
        );
        let shape = Shape {
            sym: bytes[4] & 1 != 0,
            reach: bytes[4] & 2 != 0,
        };
        let w = bytes[5..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Net { shape, w, tc: None }
    }
}

/// How many of the announced balls have each colour code (0, 1, 2+).
fn announced(next: &[Ball; 3]) -> [u8; 8] {
    match Share::of(Some(next)) {
        Share::Known(counts) => counts.map(|n| n.min(2)),
        Share::Unknown => [0; 8],
    }
}

/// The greedy choice: the move whose afterstate is worth most.
struct Choice {
    from: usize,
    to: usize,
    after: Pos,
    ctx: Ctx,
}

fn choose(geo: &Geo, net: &Net, p: &Pos, ann: &[u8; 8], rng: &mut SampleRng) -> Option<Choice> {
    let regions = Regions::of(p.board.empties().0);
    let ctx = Ctx::of(&p.board, &regions, geo.reach);
    let now: Vec<f32> = (0..NW)
        .map(|i| net.w[p.wins[i].slot(geo, i, ann, &ctx)])
        .collect();
    let base = net.value(geo, p, ann, &ctx);
    // (value, from, to), ties broken at random
    let mut best: Option<(f32, usize, usize)> = None;
    let mut ties = 0u64;
    let mut consider = |v: f32, a: usize, b: usize, rng: &mut SampleRng| match best {
        Some((bv, ..)) if v < bv => {}
        Some((bv, ..)) if v == bv => {
            ties += 1;
            if rng.below(ties as usize + 1) == 0 {
                best = Some((v, a, b));
            }
        }
        _ => {
            ties = 0;
            best = Some((v, a, b));
        }
    };
    let mut work = p.clone();
    for a in 0..CELLS {
        let colour = p.board.code(a);
        if colour == 0 {
            continue;
        }
        let targets = regions.reach(spread(1u128 << a));
        if targets == 0 {
            continue;
        }
        work.set(geo, a, 0);
        let lifted: f32 = geo.through[a]
            .iter()
            .map(|&(w, _)| {
                net.w[work.wins[w as usize].slot(geo, w as usize, ann, &ctx)] - now[w as usize]
            })
            .sum();
        let mut t = targets;
        while t != 0 {
            let b = t.trailing_zeros() as usize;
            t &= t - 1;
            let mut d = lifted;
            let mut line = false;
            for &(w, k) in &geo.through[b] {
                let (w, old) = (w as usize, work.wins[w as usize]);
                let new = old.add(k, colour);
                line |= new.full();
                d += net.w[new.slot(geo, w, ann, &ctx)] - net.w[old.slot(geo, w, ann, &ctx)];
            }
            let v = if line {
                // a line: judged whole (nothing lands; the colours stay announced)
                let mut q = p.clone();
                q.play(geo, a, b);
                net.value(geo, &q, ann, &ctx)
            } else {
                base + d
            };
            consider(v, a, b, rng);
        }
        work.set(geo, a, colour);
    }
    let (v, from, to) = best?;
    let mut after = p.clone();
    after.play(geo, from, to);
    if cfg!(debug_assertions) {
        // the increments must agree with judging the afterstate whole
        let whole = net.value(geo, &Pos::new(after.board), ann, &ctx);
        assert!(
            (whole - v).abs() <= 1e-3 * (1.0 + whole.abs()),
            "increment {v} whole {whole}"
        );
    }
    Some(Choice {
        from,
        to,
        after,
        ctx,
    })
}

/// How a game learns: the rates, and λ (0: online TD(0) after every move; above 0: the
/// λ-returns of the whole game, computed backwards when it ends, one update per move).
#[derive(Clone, Copy)]
struct Learn {
    rates: (f32, f32),
    lambda: f32,
}

/// Plays one game of `seed` greedily, learning when `learn` is given; returns the game.
fn play(geo: &Geo, net: &mut Net, seed: u64, learn: Option<Learn>, show: &[u32]) -> LinesGame {
    let mut game = LinesGame::new(Settings::default(), Spawner::seed_from_u64(seed));
    let mut rng = SampleRng::new(seed);
    let mut prev: Option<(Pos, [u8; 8], Ctx)> = None;
    let mut trail: Vec<(Pos, [u8; 8], Ctx)> = Vec::new();
    while !game.board().is_full() {
        let p = Pos::new(*game.board());
        let ann = announced(&game.next_colors());
        let Some(c) = choose(geo, net, &p, &ann, &mut rng) else {
            break;
        };
        if show.contains(&game.state().turns) {
            print_board(&game, c.from, c.to);
        }
        let played = game.play_move(geo.cell[c.from], geo.cell[c.to]);
        assert!(played.is_ok(), "the chosen move is legal");
        match learn {
            Some(l) if l.lambda == 0.0 => {
                let v = net.value(geo, &c.after, &ann, &c.ctx);
                if let Some((pp, pa, pc)) = prev.take() {
                    let err = 1.0 + v - net.value(geo, &pp, &pa, &pc);
                    net.update(geo, &pp, &pa, &pc, err, l.rates);
                }
                prev = Some((c.after, ann, c.ctx));
            }
            Some(_) => trail.push((c.after, ann, c.ctx)),
            None => {}
        }
    }
    match learn {
        Some(l) if l.lambda == 0.0 => {
            if let Some((pp, pa, pc)) = prev {
                let err = -net.value(geo, &pp, &pa, &pc);
                net.update(geo, &pp, &pa, &pc, err, l.rates);
            }
        }
        Some(l) => {
            let values: Vec<f32> = trail
                .iter()
                .map(|(p, a, c)| net.value(geo, p, a, c))
                .collect();
            let mut ret = 0.0f32;
            for t in (0..trail.len()).rev() {
                if t + 1 < trail.len() {
                    ret = 1.0 + (1.0 - l.lambda) * values[t + 1] + l.lambda * ret;
                }
                let (p, a, c) = &trail[t];
                let err = ret - net.value(geo, p, a, c);
                net.update(geo, p, a, c, err, l.rates);
            }
        }
        None => {}
    }
    game
}

fn print_board(game: &LinesGame, from: usize, to: usize) {
    println!(
        "turn {} next {:?} move {from}->{to}\n{}",
        game.state().turns,
        game.next_colors(),
        game.board()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opt = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
    };
    let num = |name: &str, d: f64| opt(name).map_or(d, |v| v.parse().expect("a number"));
    let flag = |name: &str| args.iter().any(|a| a == name);
    let games = num("--games", 1000.0) as u64;
    let show: Vec<u32> = opt("--show").map_or_else(Vec::new, |s| {
        s.split(',').map(|t| t.parse().expect("a turn")).collect()
    });
    match args.first().map(String::as_str) {
        Some("train") => {
            let shape = Shape {
                sym: flag("--sym"),
                reach: flag("--reach"),
            };
            let mut net = opt("--load").map_or_else(
                || {
                    Net::shaped(
                        shape,
                        num("--start-runs", 0.1) as f32,
                        num("--start-level", 1.0) as f32,
                    )
                },
                |f| Net::load(f),
            );
            if flag("--tc") {
                net.tc = Some((vec![0.0; NFEAT], vec![0.0; NFEAT]));
            }
            let rates: Vec<f32> = opt("--rates")
                .map_or("0.1,0.1", String::as_str)
                .split(',')
                .map(|r| r.parse().expect("a rate"))
                .collect();
            let rates = (rates[0], *rates.get(1).unwrap_or(&rates[0]));
            let geo = Geo::new(net.shape);
            let lambda = num("--lambda", 0.0) as f32;
            let seed = num("--seed", 1_000_000.0) as u64;
            let report = num("--report", 1000.0) as u64;
            let save = opt("--save").map_or("/tmp/ntuple.bin", String::as_str);
            let (t0, mut block) = (Instant::now(), Instant::now());
            let mut results = Vec::new();
            for g in 0..games {
                let game = play(&geo, &mut net, seed + g, Some(Learn { rates, lambda }), &[]);
                results.push((game.state().score, game.state().turns));
                if (g + 1) % report == 0 || g + 1 == games {
                    let ms = block.elapsed().as_secs_f64() * 1000.0;
                    let secs = t0.elapsed().as_secs_f64();
                    println!(
                        "after {} {} secs {secs:.0}",
                        g + 1,
                        Summary::of(&results, ms)
                    );
                    results.clear();
                    block = Instant::now();
                    net.save(save);
                }
            }
            if games == 0 {
                net.save(save);
            }
        }
        Some("measure") => {
            let mut net = Net::load(opt("--load").expect("--load FILE"));
            let geo = Geo::new(net.shape);
            let seed = num("--seed", 1.0) as u64;
            let start = Instant::now();
            let mut results = Vec::new();
            for s in seed..seed + games {
                let game = play(&geo, &mut net, s, None, &show);
                let (score, turns) = (game.state().score, game.state().turns);
                println!("game {s} score {score} turns {turns}");
                results.push((score, turns));
            }
            let ms = start.elapsed().as_secs_f64() * 1000.0;
            println!("{}", Summary::of(&results, ms));
        }
        _ => eprintln!(
            "usage: ntuple train|measure [--games N] [--seed S] ... (see the example's docs)"
        ),
    }
}
