//! Texel tuning of the xiangqi evaluation: every weight of [`XiangqiParams`] fitted by
//! logistic regression on game results, and written back as the generated source file
//! [`weights`](super::weights) that the engine's default evaluation is.
//!
//! ## Method
//!
//! 1. **Positions** ([`texel_gen`](super::texel_gen)): self-play games of the engine at a
//!    fixed node count per move, each from the start position with a few random sane
//!    opening moves drawn from a seeded generator (game `g` of a run with seed `s` uses
//!    seed `s + g`, so a run can be repeated and extended exactly). Every position after
//!    the opening that is not in check is resolved by a capture-only quiescence search,
//!    and the quiet position at the end of its principal variation is kept (again only
//!    when not in check), labelled with the game's result from Red's side (1, ½, 0).
//!    Positions seen twice are kept once. Sparring games (the logs of
//!    `tests/strength/xiangqi_match.py --log`: Banco against ElephantEye or Fairy-Stockfish)
//!    become the same `FEN;result` lines through `texel import`: every position after the
//!    first 8 plies resolved the same way and labelled with that game's result.
//! 2. **The model**: the evaluation is linear in its weights once the position is fixed
//!    (material, piece-square tables, mobility, king safety, cannons on the king's file,
//!    connected pawns, tempo; since the second round also rooks on open and half-open
//!    files, rook pins against the king, the open king file per enemy rook, attackers
//!    against missing guards and the rook, horse and cannon pairs; since the third round
//!    the side to move's threatened pieces by band and two or more of them;
//!    middle-game weights scaled by the phase, end-game weights by its complement). [`Sample::of`] turns a position into the sparse coefficient vector
//!    of Red's evaluation (`eval = Σ wᵢ·cᵢ·phase factor`), so one pass over the data set
//!    evaluates it under any weights without a board. The piece-square tables are fitted
//!    left-right symmetric (50 cells per kind and phase, 700 weights); the whole model has
//!    [`WEIGHTS`] weights. A test checks that the model reproduces [`evaluate`] to the
//!    centipawn.
//! 3. **The fit**: first the scale `K` of the sigmoid `σ(e) = 1 / (1 + 10^(−K·e/400))`
//!    that minimises the mean squared error of `σ(eval)` against the results under the
//!    starting weights (golden-section search), then every weight by full-batch gradient
//!    descent (Adam) on that error, `K` fixed. Weights met in fewer than
//!    [`FitOptions::min_count`] positions keep their starting value (the data say nothing
//!    about them), and a ridge penalty [`FitOptions::l2`] keeps the weights the data cannot
//!    tell apart near their start. One block of 1,000 positions in ten (positions in file
//!    order, so mostly whole games) is held out and its error reported, so overfitting
//!    shows.
//! 4. **The output**: the weights rounded to centipawns and written by [`rust_source`] as
//!    `weights.rs` (the tool overwrites it; a test checks that the file is exactly what
//!    the writer produces from the constant it defines).
//!
//! The tool is the `texel` example (`cargo run --release -p banco-engine --example texel
//! -- gen|import|fit ...`) driven by `tests/tune/texel.sh`. On this project's shared two-core
//! machine a run of an hour yields about a million positions (the shipped weights: 1.8
//! million in one fit, below); the generator appends to its file and continues
//! from a given game number, so a longer (nightly) run only adds games.
//!
//! ## The weights shipped now: the fourth round (issue #17)
//!
//! One fit over every position of the third and fourth rounds' self-play and the sparring
//! games of the third round's weights, from the third round's weights (threat weights held
//! at 0):
//!
//! ```text
//! $T gen --out sp4-0.txt --games 3400 --first 0      --seed 70000 --nodes 5000   # 360,941 lines
//! $T gen --out sp4-1.txt --games 3520 --first 100000 --seed 70000 --nodes 5000   # 373,818 lines
//! # sha256 e6063deb665d3c4a4694bed7b0b79d91dad291afde3e30451777baa12a964415  sp4-0.txt
//! #        07d32a9cb6c198376035f2cb57434815e6d02b520d22316d5c7034c658b4a82e  sp4-1.txt
//! $T import --log e200-r3.jsonl,threads100.jsonl,threads100b.jsonl,e100-r3.jsonl,e1000-r3.jsonl \
//!     --out sparring4.txt                                                         # 51,371 lines
//! $T fit --data sp3-0.txt,sp3-1.txt,sp4-0.txt,sp4-1.txt,sparring4.txt \
//!     --out rust-core/engine/src/xiangqi/weights.rs --start tuned --epochs 600 --freeze-threats
//! ```
//!
//! The self-play was played by the third round's weights (two generators, 17:04–18:24 UTC
//! on the shared machine, stopped at game boundaries; 6,920 games). The sparring logs are
//! the 478 games logged with the third round's weights on 2026-12-02 (`tests/strength/`:
//! ElephantEye at 100 ms, 200 ms and 1 s emulated, 2 threads against 1; their first
//! games only for the matches still running at the import). Positions met twice are kept
//! once over all files: **1,787,558 positions** (178,000 held out), with the third
//! round's data (`sp3-*`, below).
//!
//! **Fit**: K = 0.5200, 600 epochs (the error settles within 100); mean squared error,
//! training 0.086861 → 0.086233, held out 0.085669 → 0.085236. The largest moves: cannon
//! end game 260 → 218, horse middle game 524 → 564 and end game 276 → 247, horse pair
//! middle game 8 → −15, cannon middle game 605 → 625, rook middle game 1,018 → 1,037.
//!
//! **Games** against the third round's weights (`eval=prev`), as for the third round
//! (balanced openings plus 4 random plies, colours swapped, `S` = 1–4, two halves at once):
//!
//! | nodes | games | W-D-L | Elo | command (`target/release/examples/match`) |
//! |-------|-------|-------|-----|-------------------------------------------|
//! | 10,000 vs 10,000 | 800 | 345-178-277 | **+30 ± 21** | `level=10,nodes=10000 level=10,nodes=10000,eval=prev 200 0 300 S 4` |
//!
//! (The first 400, seeds 1 and 2: 175-82-143, +28 ± 31, inside its error bar, so 400
//! more were played.) Bench signature 1,221,904 (was 1,242,237), with every search feature
//! off 1,344,019 (was 1,488,899).
//!
//! ## The third round (issue #17; `eval=prev`, [`weights_prev`](super::weights_prev))
//!
//! **Threat terms** ([`threats`](super::threats)): the side to move's pieces attacked by a
//! less valuable enemy piece, and those attacked by nothing less valuable and not defended
//! (hanging), per piece by band (rook; horse or cannon; advisor, elephant or pawn), and
//! two or more such pieces (it can save one, not two); middle and end game each: 14
//! weights. Only the side to move's pieces count: its own captures are what quiescence
//! just resolved. Finding them costs one attack map of the enemy's pieces per evaluation
//! (and the own side's when a piece is attacked by nothing less valuable); with the
//! weights at 0 the evaluation skips them (`banco bench` signature unchanged, 1,320,014).
//!
//! **Data**: self-play of the second round's weights, regenerated exactly by
//!
//! ```text
//! $T gen --out sp3-0.txt --games 4840 --first 0      --seed 60000 --nodes 5000   # 507,570 lines
//! $T gen --out sp3-1.txt --games 4890 --first 100000 --seed 60000 --nodes 5000   # 500,010 lines
//! # sha256 5b7430a89551d6ebd5385224010eb04f79873a833568d725997de32c16445a2d  sp3-0.txt
//! #        a7e4069ec5805edf50bbb7fe0e180f78480b728478bd8c828887a938f33903bb  sp3-1.txt
//! $T fit --data sp3-0.txt,sp3-1.txt --out rust-core/engine/src/xiangqi/weights.rs \
//!     --start tuned --epochs 600 [--freeze-threats]
//! ```
//!
//! (two generators at once, 13:44–14:40 UTC on the shared machine; 9,730 games). Positions
//! met twice are kept once: 1,005,759 positions, 100,000 held out. The second round's
//! data (and its sparring positions) were not on the machine this time: the fit starts
//! from the second round's weights and moves on the new self-play only.
//!
//! **Fit** (K = 0.4951 for both, 600 epochs, step 1, ridge 1e-8; mean squared error,
//! training and held out, from the second round's weights):
//!
//! | fit | training | held out |
//! |-----|----------|----------|
//! | (a) with the threat terms | 0.087575 → 0.085562 | 0.088665 → 0.087030 |
//! | (b) threat weights held at 0 (`--freeze-threats`) | 0.087575 → 0.085702 | 0.088665 → 0.087192 |
//!
//! The threat weights of (a), side to move, middle / end game: attacked by a less valuable
//! piece −18/−6 (rook), −14/−6 (horse, cannon), −14/+13 (advisor, elephant, pawn); hanging
//! −1/0, −34/−21, 0/−20; two or more threatened −22/0. Both fits moved the same other
//! weights alike (horse +66 middle game / −48 end game, cannon end game −41, ...).
//!
//! **Games** against the second round's weights (`eval=prev`), balanced openings plus 4
//! random plies, colours swapped, two halves of 200 games at once (seeds 1 and 2, the
//! four processes together), W-D-L of the new weights, Elo ± 95 %. The threats cost CPU
//! time (one attack map per evaluation: 0.81 times the nodes per CPU second of the
//! second round's weights in the `bench` example), so (a) played with 8,100 nodes against
//! 10,000; (b) costs nothing and played at equal nodes:
//!
//! | fit | nodes | games | W-D-L | Elo | command (`target/release/examples/match`, `S` = 1, 2) |
//! |-----|-------|-------|-------|-----|-------------------------------------------------------|
//! | (a) threats | 8,100 vs 10,000 | 400 | 184-80-136 | +42 ± 31 | `level=10,nodes=8100 level=10,nodes=10000,eval=prev 200 0 300 S 4` |
//! | (b) data only | 10,000 vs 10,000 | 400 | 212-64-124 | **+78 ± 32** | `level=10,nodes=10000 level=10,nodes=10000,eval=prev 200 0 300 S 4` |
//!
//! (b) won more and was shipped (now `weights_prev.rs`), its threat weights 0, so the
//! evaluation skips the threats and costs what the second round's did. The threat terms
//! stay in the model and the tool (0 here): their small held-out gain (0.087030 against
//! 0.087192) did not pay for about a fifth fewer nodes; a cheaper way to find them
//! (attack maps kept up by make/unmake) or the threats' use in the search (move ordering,
//! pruning) are the ways on. Bench signature 1,242,237 (was 1,320,014), with every search
//! feature off 1,488,899 (was 1,671,049).
//!
//! ## The second round (issue #17)
//!
//! **Data** (kept outside the repository, in `/work/scratch/texel/` on the project machine;
//! regenerated exactly by these commands, `T=target/release/examples/texel`):
//!
//! ```text
//! $T gen --out sp5k-a.txt --games 1730 --first 0      --seed 50000 --nodes 5000   # 195,854 lines
//! $T gen --out sp5k-b.txt --games 1800 --first 100000 --seed 50000 --nodes 5000   # 198,838 lines
//! $T import --log LOGS --out sparring.txt                                          # 78,248 lines
//! $T fit --data sp5k-a.txt,sp5k-b.txt,sparring.txt --out rust-core/engine/src/xiangqi/weights.rs \
//!     --start tuned --epochs 600
//! ```
//!
//! The self-play games were played by the first round's weights (8 random opening plies,
//! 300 plies at most, adjudicated at ±700 for eight plies), two generators at once, about
//! 37 minutes on the shared machine. `LOGS` are the 1,028 logged sparring games of
//! 2026-12-01/02 (`runs17/{base100,base100-distinct,base100b,base100j,base200,e100-distinct,e100k}.jsonl`
//! and `runs/{ee100,ee200,fsf100,fsf200,fsfnodes,threads200}.jsonl`: Banco against
//! ElephantEye and Fairy-Stockfish, some games logged twice — their positions count once).
//! Positions met twice are kept once over all files: 472,737 positions (47,000 held out).
//!
//! **Fit**: K = 0.4221; 600 epochs of Adam (step 1, ridge 1e-8; 300 epochs gave a held-out
//! error of 0.092685, a ridge of 1e-7 0.093408, step 2 the same as step 1), starting from
//! the first round's weights with the new terms at 0. Mean squared error: training
//! 0.090870 → 0.086719, held out 0.094594 → 0.092664. A first fit on the first 225,000
//! positions (held out 0.0898 → 0.0851) already won 102-25-73 (+51 ± 46) at 2,000 nodes.
//! The new terms came out as: rook on an open file +33 middle game, half-open ±3, rook
//! pin +10/+16, open king file 6 per enemy rook, 13 per attacker per missing guard,
//! pairs of rooks +31/+13, horses +28/+23, cannons +28/−13.
//!
//! **Games**: the second round's weights (`level=10,nodes=N`) against the first round's
//! (`level=10,nodes=N,eval=prev` then), balanced openings plus 4 random plies, colours swapped,
//! two halves of 200 games at once (seeds 1 and 2), W-D-L of the new weights, Elo ± 95 %:
//!
//! | nodes per move | games | W-D-L       | Elo       | command (`target/release/examples/match`)                          |
//! |----------------|-------|-------------|-----------|---------------------------------------------------------------------|
//! | 10,000         | 400   | 217-44-139  | +69 ± 33  | `level=10,nodes=10000 level=10,nodes=10000,eval=prev 200 0 300 S 4` |
//! | 2,000          | 400   | 190-66-144  | +40 ± 31  | `level=10,nodes=2000 level=10,nodes=2000,eval=prev 200 0 300 S 4`   |
//!
//! The evaluation costs a little more per node (the new terms: about 8 % more CPU time for
//! the same bench tree, `banco bench` nodes/s in `tests/strength/README.md`), small beside
//! the gain at equal nodes.
//!
//! ## The first round (main before issue #17's second round)
//!
//! 1,280 self-play games (seed 1, 2,000 nodes per move, 8 random opening plies) gave
//! 128,990 distinct quiet positions; K = 0.427; the held-out error fell from 0.1024
//! (hand-set weights) to 0.0969. The ridge (1e-8), step (1 cp) and epochs (300) were chosen
//! on the held-out error of the first 93,000 positions: without the ridge the training
//! error kept falling while the held-out error rose (0.0948 against 0.0925 with it) —
//! single squares of the tables drifted by hundreds of centipawns. Against the hand-set
//! weights (`eval=hand`): 194-59-147, +41 ± 32 over 400 games at 2,000 nodes; 95-23-82,
//! +23 ± 46 over 200 games at 5,000 nodes. Those weights were `weights_prev.rs` (the
//! reference of the second round's matches) until the third round put the second round's
//! there; the git history keeps them.
//!
//! ```
//! use banco_engine::xiangqi::texel::{Sample, to_vector, model_eval};
//! use banco_engine::xiangqi::eval::{evaluate, XiangqiParams};
//! use banco_xiangqi::Position;
//! let pos = Position::startpos();
//! let params = XiangqiParams::default();
//! let w = to_vector(&params);
//! let sample = Sample::of(&pos, 0.5);
//! // Red to move: Red's evaluation is the side to move's.
//! assert!((model_eval(&w, &sample) - f64::from(evaluate(&pos, &params))).abs() <= 1.0);
//! ```

#[cfg(doc)]
use super::eval::evaluate;
use super::eval::{PHASE_MAX, PHASE_WEIGHT, XiangqiParams, relative};
use super::features::{EvalFeatures, eval_features};
pub use super::texel_io::{SamplesError, const_source, parse_samples, rust_source};
use super::threats::threats_of;
use banco_game::Color;
use banco_xiangqi::{PieceKind, Position};

/// Material weights: `MATERIAL + 2·kind` (middle game), `+ 1` (end game).
const MATERIAL: usize = 0;
/// Piece-square cells: `PST + 2·(50·kind + 5·rank + min(file, 8 − file))`, `+ 1` end game.
const PST: usize = MATERIAL + 14;
const ROOK_MOB: usize = PST + 7 * 50 * 2;
const HORSE_MOB: usize = ROOK_MOB + 2;
const MISSING_ADVISOR: usize = HORSE_MOB + 9;
const MISSING_ELEPHANT: usize = MISSING_ADVISOR + 2;
const CANNON_MG: usize = MISSING_ELEPHANT + 2;
const CANNON_EG: usize = CANNON_MG + 3;
const CONNECTED: usize = CANNON_EG + 3;
const ATTACK: usize = CONNECTED + 1;
const TEMPO: usize = ATTACK + 1;
/// Rook on an open file, half-open file, pinning: `(mg, eg)` pairs.
const ROOK_OPEN: usize = TEMPO + 1;
const ROOK_HALF: usize = ROOK_OPEN + 2;
const ROOK_PIN: usize = ROOK_HALF + 2;
const OPEN_KING: usize = ROOK_PIN + 2;
const ATTACK_GUARDS: usize = OPEN_KING + 1;
/// Rook, horse, cannon pairs: `(mg, eg)` each.
const PAIRS: usize = ATTACK_GUARDS + 1;
/// The side to move's pieces attacked by a less valuable piece: `THREAT_LOWER + 2·band`,
/// `+ 1` end game.
const THREAT_LOWER: usize = PAIRS + 6;
/// Its hanging pieces, laid out like [`THREAT_LOWER`].
const THREAT_HANGING: usize = THREAT_LOWER + 6;
/// Two or more of its pieces threatened: `(mg, eg)`.
const THREAT_MULTIPLE: usize = THREAT_HANGING + 6;
/// Number of weights in the model.
pub const WEIGHTS: usize = THREAT_MULTIPLE + 2;

/// True for the weights of the threat terms (the third round's; `texel fit
/// --freeze-threats` holds them at their start).
#[must_use]
pub fn is_threat_weight(i: usize) -> bool {
    (THREAT_LOWER..WEIGHTS).contains(&i)
}

/// How a weight enters the evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Middle game: scaled by phase / max.
    Mg,
    /// End game: scaled by 1 − phase / max.
    Eg,
    /// Both alike.
    Both,
}

fn phase_of(i: usize) -> Phase {
    match i {
        _ if i < ROOK_MOB => {
            if i.is_multiple_of(2) {
                Phase::Mg
            } else {
                Phase::Eg
            }
        }
        ROOK_MOB | MISSING_ADVISOR | ATTACK | OPEN_KING | ATTACK_GUARDS => Phase::Mg,
        _ if (ROOK_OPEN..OPEN_KING).contains(&i) => {
            if (i - ROOK_OPEN).is_multiple_of(2) {
                Phase::Mg
            } else {
                Phase::Eg
            }
        }
        _ if i >= PAIRS => {
            if (i - PAIRS).is_multiple_of(2) {
                Phase::Mg
            } else {
                Phase::Eg
            }
        }
        _ if (MISSING_ADVISOR..CANNON_EG).contains(&i) => Phase::Mg,
        _ if (CANNON_EG..CONNECTED).contains(&i) => Phase::Eg,
        _ if i == ROOK_MOB + 1 => Phase::Eg,
        _ => Phase::Both,
    }
}

/// The name of weight `i` (for reports).
#[must_use]
pub fn weight_name(i: usize) -> String {
    const KINDS: [&str; 7] = [
        "king", "advisor", "elephant", "horse", "rook", "cannon", "pawn",
    ];
    let mg = |j: usize| if j.is_multiple_of(2) { "mg" } else { "eg" };
    match i {
        _ if i < PST => format!("material {} {}", KINDS[i / 2], mg(i)),
        _ if i < ROOK_MOB => {
            let c = (i - PST) / 2;
            format!(
                "pst {} file {} rank {} {}",
                KINDS[c / 50],
                c % 5,
                c % 50 / 5,
                mg(i - PST)
            )
        }
        _ if i < HORSE_MOB => format!("rook mobility {}", mg(i - ROOK_MOB)),
        _ if i < MISSING_ADVISOR => format!("horse mobility {}", i - HORSE_MOB),
        _ if i < MISSING_ELEPHANT => format!("missing advisor {}", i - MISSING_ADVISOR),
        _ if i < CANNON_MG => format!("missing elephant {}", i - MISSING_ELEPHANT),
        _ if i < CANNON_EG => format!("cannon file mg {}", i - CANNON_MG),
        _ if i < CONNECTED => format!("cannon file eg {}", i - CANNON_EG),
        CONNECTED => "connected pawns".to_owned(),
        ATTACK => "attack".to_owned(),
        TEMPO => "tempo".to_owned(),
        _ if i < ROOK_HALF => format!("rook open file {}", mg(i - ROOK_OPEN)),
        _ if i < ROOK_PIN => format!("rook half-open file {}", mg(i - ROOK_HALF)),
        _ if i < OPEN_KING => format!("rook pin {}", mg(i - ROOK_PIN)),
        OPEN_KING => "open king file".to_owned(),
        ATTACK_GUARDS => "attack x missing guards".to_owned(),
        _ if i >= THREAT_MULTIPLE => format!("multiple threats {}", mg(i - THREAT_MULTIPLE)),
        _ if i >= THREAT_LOWER => {
            let (what, at) = if i >= THREAT_HANGING {
                ("hanging", i - THREAT_HANGING)
            } else {
                ("attacked by lower", i - THREAT_LOWER)
            };
            let band = ["rook", "horse/cannon", "minor/pawn"][at / 2];
            format!("{what} {band} {}", mg(at))
        }
        _ => format!(
            "{} pair {}",
            ["rook", "horse", "cannon"][((i - PAIRS) / 2).min(2)],
            mg(i - PAIRS)
        ),
    }
}

/// The table cell of a square index seen from its piece's side (mirrored left-right).
#[inline]
fn cell(rel: usize) -> usize {
    let (f, r) = (rel % 9, rel / 9);
    5 * r + f.min(8 - f)
}

/// The weights of `p` as the model's vector (the piece-square tables with their scale
/// applied; the left half of each table stands for both halves).
#[must_use]
pub fn to_vector(p: &XiangqiParams) -> Vec<f64> {
    let mut w = vec![0.0; WEIGHTS];
    for k in 0..7 {
        w[MATERIAL + 2 * k] = f64::from(p.material_mg[k]);
        w[MATERIAL + 2 * k + 1] = f64::from(p.material_eg[k]);
        for r in 0..10 {
            for f in 0..5 {
                let (m, e) = p.pst[k][9 * r + f];
                let c = PST + 2 * (50 * k + 5 * r + f);
                w[c] = f64::from(m * p.pst_scale / 100);
                w[c + 1] = f64::from(e * p.pst_scale / 100);
            }
        }
    }
    w[ROOK_MOB] = f64::from(p.rook_mobility.0);
    w[ROOK_MOB + 1] = f64::from(p.rook_mobility.1);
    for (i, &h) in p.horse_mobility.iter().enumerate() {
        w[HORSE_MOB + i] = f64::from(h);
    }
    w[MISSING_ADVISOR] = f64::from(p.missing_advisor.0);
    w[MISSING_ADVISOR + 1] = f64::from(p.missing_advisor.1);
    w[MISSING_ELEPHANT] = f64::from(p.missing_elephant.0);
    w[MISSING_ELEPHANT + 1] = f64::from(p.missing_elephant.1);
    for i in 0..3 {
        w[CANNON_MG + i] = f64::from(p.cannon_file[i]);
        w[CANNON_EG + i] = f64::from(p.cannon_file_eg[i]);
    }
    w[CONNECTED] = f64::from(p.connected_pawns);
    w[ATTACK] = f64::from(p.attack);
    w[TEMPO] = f64::from(p.tempo);
    for (i, (m, e)) in [p.rook_open_file, p.rook_half_open_file, p.rook_pin]
        .into_iter()
        .chain(p.pairs)
        .enumerate()
    {
        let at = if i < 3 {
            ROOK_OPEN + 2 * i
        } else {
            PAIRS + 2 * (i - 3)
        };
        w[at] = f64::from(m);
        w[at + 1] = f64::from(e);
    }
    w[OPEN_KING] = f64::from(p.open_king_file);
    w[ATTACK_GUARDS] = f64::from(p.attack_guards);
    for band in 0..3 {
        for (at, (m, e)) in [
            (THREAT_LOWER, p.threat_lower[band]),
            (THREAT_HANGING, p.threat_hanging[band]),
        ] {
            w[at + 2 * band] = f64::from(m);
            w[at + 2 * band + 1] = f64::from(e);
        }
    }
    w[THREAT_MULTIPLE] = f64::from(p.threat_multiple.0);
    w[THREAT_MULTIPLE + 1] = f64::from(p.threat_multiple.1);
    w
}

/// The weights of the vector `w` rounded to centipawns (piece-square scale 100 %, the
/// tables mirrored left-right, positional terms on).
#[must_use]
pub fn from_vector(w: &[f64]) -> XiangqiParams {
    let at = |i: usize| w.get(i).map_or(0, |&x| x.round() as i32);
    let mut p = XiangqiParams::hand();
    for k in 0..7 {
        p.material_mg[k] = at(MATERIAL + 2 * k);
        p.material_eg[k] = at(MATERIAL + 2 * k + 1);
        for s in 0..90 {
            let c = PST + 2 * (50 * k + cell(s));
            p.pst[k][s] = (at(c), at(c + 1));
        }
    }
    p.pst_scale = 100;
    p.rook_mobility = (at(ROOK_MOB), at(ROOK_MOB + 1));
    p.horse_mobility = core::array::from_fn(|i| at(HORSE_MOB + i));
    p.missing_advisor = (at(MISSING_ADVISOR), at(MISSING_ADVISOR + 1));
    p.missing_elephant = (at(MISSING_ELEPHANT), at(MISSING_ELEPHANT + 1));
    p.cannon_file = core::array::from_fn(|i| at(CANNON_MG + i));
    p.cannon_file_eg = core::array::from_fn(|i| at(CANNON_EG + i));
    p.connected_pawns = at(CONNECTED);
    p.attack = at(ATTACK);
    p.tempo = at(TEMPO);
    let pair = |i: usize| (at(i), at(i + 1));
    p.rook_open_file = pair(ROOK_OPEN);
    p.rook_half_open_file = pair(ROOK_HALF);
    p.rook_pin = pair(ROOK_PIN);
    p.open_king_file = at(OPEN_KING);
    p.attack_guards = at(ATTACK_GUARDS);
    p.pairs = core::array::from_fn(|i| pair(PAIRS + 2 * i));
    p.threat_lower = core::array::from_fn(|b| pair(THREAT_LOWER + 2 * b));
    p.threat_hanging = core::array::from_fn(|b| pair(THREAT_HANGING + 2 * b));
    p.threat_multiple = pair(THREAT_MULTIPLE);
    p.material_only = false;
    p
}

/// One labelled position as the model sees it: the sparse coefficients of Red's
/// evaluation, the middle-game share of the phase and the result.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// `(weight, coefficient)`, each weight at most once, no zero coefficients.
    pub coefs: Vec<(u16, i16)>,
    /// Phase / maximum phase (1 at the start, 0 with no rook, horse or cannon left).
    pub mg: f32,
    /// Red's result: 1 won, 0.5 drawn, 0 lost.
    pub result: f32,
}

/// The counts of one side that the safety term multiplies.
struct Counts {
    rooks: i32,
    horses: i32,
    cannons: i32,
    missing_advisors: i32,
    missing_elephants: i32,
    attackers: i32,
    king_file_open: i32,
}

impl Counts {
    fn of(f: &EvalFeatures) -> Counts {
        Counts {
            rooks: i32::from(f.rooks),
            horses: i32::from(f.horses),
            cannons: i32::from(f.cannons),
            missing_advisors: 2 - i32::from(f.advisors.min(2)),
            missing_elephants: 2 - i32::from(f.elephants.min(2)),
            attackers: i32::from(f.attackers),
            king_file_open: i32::from(f.king_file_open),
        }
    }
}

impl Sample {
    /// The sample of `pos` with Red's `result`.
    #[must_use]
    pub fn of(pos: &Position, result: f32) -> Sample {
        let mut acc = [0i32; WEIGHTS];
        let mut phase = 0;
        for color in Color::ALL {
            let sign = if color == Color::Red { 1 } else { -1 };
            for (sq, kind) in pos.pieces_of(color) {
                let k = kind as usize;
                phase += PHASE_WEIGHT[k];
                if kind == PieceKind::King {
                    // Kings are always there: their material is no weight.
                } else {
                    acc[MATERIAL + 2 * k] += sign;
                    acc[MATERIAL + 2 * k + 1] += sign;
                }
                let c = PST + 2 * (50 * k + cell(relative(sq.index(), color)));
                acc[c] += sign;
                acc[c + 1] += sign;
            }
        }
        let fr = eval_features(pos, Color::Red);
        let fb = eval_features(pos, Color::Black);
        for (f, sign) in [(&fr, 1), (&fb, -1)] {
            let rook_mob = i32::from(f.rook_mobility) - 6 * i32::from(f.rooks);
            acc[ROOK_MOB] += sign * rook_mob;
            acc[ROOK_MOB + 1] += sign * rook_mob;
            for &m in &f.horse_mobility[..usize::from(f.horses.min(2))] {
                acc[HORSE_MOB + usize::from(m.min(8))] += sign;
            }
            for (i, &n) in f.cannon_screens.iter().enumerate() {
                acc[CANNON_MG + i] += sign * i32::from(n);
                acc[CANNON_EG + i] += sign * i32::from(n);
            }
            acc[CONNECTED] += sign * i32::from(f.connected_pawns);
            for (at, n) in [
                (ROOK_OPEN, f.rooks_open),
                (ROOK_HALF, f.rooks_half_open),
                (ROOK_PIN, f.rook_pins),
            ] {
                acc[at] += sign * i32::from(n);
                acc[at + 1] += sign * i32::from(n);
            }
            for (i, n) in [f.rooks, f.horses, f.cannons].into_iter().enumerate() {
                if n >= 2 {
                    acc[PAIRS + 2 * i] += sign;
                    acc[PAIRS + 2 * i + 1] += sign;
                }
            }
        }
        // Safety: Red's evaluation gains Black's danger and loses its own.
        let (red, black) = (Counts::of(&fr), Counts::of(&fb));
        for (me, them, sign) in [(&black, &red, 1), (&red, &black, -1)] {
            acc[MISSING_ADVISOR] += sign * me.missing_advisors * them.rooks;
            acc[MISSING_ADVISOR + 1] += sign * me.missing_advisors * them.horses;
            acc[MISSING_ELEPHANT] += sign * me.missing_elephants * them.cannons;
            acc[MISSING_ELEPHANT + 1] += sign * me.missing_elephants * them.rooks;
            acc[ATTACK] += sign * them.attackers * them.attackers;
            acc[ATTACK_GUARDS] +=
                sign * them.attackers * (me.missing_advisors + me.missing_elephants);
            acc[OPEN_KING] += sign * me.king_file_open * them.rooks;
        }
        // Threats: the side to move's threatened pieces, for the side to move.
        let to_move = pos.side_to_move();
        let t = threats_of(pos, to_move);
        let sign = if to_move == Color::Red { 1 } else { -1 };
        for band in 0..3 {
            for (at, n) in [
                (THREAT_LOWER, t.lower[band]),
                (THREAT_HANGING, t.hanging[band]),
            ] {
                acc[at + 2 * band] += sign * i32::from(n);
                acc[at + 2 * band + 1] += sign * i32::from(n);
            }
        }
        if t.threatened() >= 2 {
            acc[THREAT_MULTIPLE] += sign;
            acc[THREAT_MULTIPLE + 1] += sign;
        }
        acc[TEMPO] = if pos.side_to_move() == Color::Red {
            1
        } else {
            -1
        };
        let coefs = acc
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c != 0)
            .map(|(i, &c)| (i as u16, c.clamp(-32_768, 32_767) as i16))
            .collect();
        Sample {
            coefs,
            mg: phase.clamp(0, PHASE_MAX) as f32 / PHASE_MAX as f32,
            result,
        }
    }
}

/// Red's evaluation of `sample` under the weights `w` (the model; equal to the engine's
/// evaluation from Red's side up to rounding).
#[must_use]
pub fn model_eval(w: &[f64], sample: &Sample) -> f64 {
    let mg = f64::from(sample.mg);
    let factor = |i: usize| match phase_of(i) {
        Phase::Mg => mg,
        Phase::Eg => 1.0 - mg,
        Phase::Both => 1.0,
    };
    sample
        .coefs
        .iter()
        .map(|&(i, c)| {
            let i = usize::from(i);
            w.get(i).copied().unwrap_or(0.0) * f64::from(c) * factor(i)
        })
        .sum()
}

/// The samples in a flat layout for fast passes: coefficients already multiplied by
/// their phase factor.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    starts: Vec<u32>,
    index: Vec<u16>,
    coef: Vec<f32>,
    result: Vec<f32>,
}

impl Dataset {
    /// Adds one sample.
    pub fn push(&mut self, s: &Sample) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        for &(i, c) in &s.coefs {
            let f = match phase_of(usize::from(i)) {
                Phase::Mg => s.mg,
                Phase::Eg => 1.0 - s.mg,
                Phase::Both => 1.0,
            };
            let v = f32::from(c) * f;
            if v != 0.0 {
                self.index.push(i);
                self.coef.push(v);
            }
        }
        self.starts.push(self.index.len() as u32);
        self.result.push(s.result);
    }

    /// Number of samples.
    #[must_use]
    pub fn len(&self) -> usize {
        self.result.len()
    }

    /// True without samples.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.result.is_empty()
    }

    fn range(&self, n: usize) -> core::ops::Range<usize> {
        self.starts[n] as usize..self.starts[n + 1] as usize
    }

    fn eval(&self, w: &[f64], n: usize) -> f64 {
        let r = self.range(n);
        self.index[r.clone()]
            .iter()
            .zip(&self.coef[r])
            .map(|(&i, &c)| w[usize::from(i)] * f64::from(c))
            .sum()
    }

    /// Mean squared error of `σ(eval)` against the results under `w` and scale `k`.
    #[must_use]
    pub fn mse(&self, w: &[f64], k: f64) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        let total: f64 = (0..self.len())
            .map(|n| (sigmoid(self.eval(w, n), k) - f64::from(self.result[n])).powi(2))
            .sum();
        total / self.len() as f64
    }

    /// Gradient of [`mse`](Dataset::mse) by the weights (into `grad`, zeroed first).
    fn gradient(&self, w: &[f64], k: f64, grad: &mut [f64]) {
        grad.fill(0.0);
        let c = k * core::f64::consts::LN_10 / 400.0;
        for n in 0..self.len() {
            let s = sigmoid(self.eval(w, n), k);
            let d = 2.0 * (s - f64::from(self.result[n])) * s * (1.0 - s) * c;
            let r = self.range(n);
            for (&i, &coef) in self.index[r.clone()].iter().zip(&self.coef[r]) {
                grad[usize::from(i)] += d * f64::from(coef);
            }
        }
        let n = self.len().max(1) as f64;
        for g in grad.iter_mut() {
            *g /= n;
        }
    }

    /// In how many samples each weight appears.
    #[must_use]
    pub fn counts(&self) -> Vec<u32> {
        let mut counts = vec![0u32; WEIGHTS];
        for &i in &self.index {
            counts[usize::from(i)] += 1;
        }
        counts
    }
}

/// `1 / (1 + 10^(−k·e/400))`.
#[inline]
#[must_use]
pub fn sigmoid(e: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// The `K` in 0.05–5 that minimises the error of `w` on `data` (golden-section search).
#[must_use]
pub fn fit_k(data: &Dataset, w: &[f64]) -> f64 {
    let (mut a, mut b) = (0.05f64, 5.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (data.mse(w, c), data.mse(w, d));
    while b - a > 1e-4 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = data.mse(w, c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = data.mse(w, d);
        }
    }
    f64::midpoint(a, b)
}

/// How the weights are fitted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitOptions {
    /// Full passes of gradient descent.
    pub epochs: u32,
    /// Adam step size in centipawns.
    pub rate: f64,
    /// Weights met in fewer samples keep their starting value.
    pub min_count: u32,
    /// Ridge penalty: `l2 · Σ (w − w_start)²` (per centipawn²) is added to the error, so
    /// that weights the data barely tell apart (a kind's material against its table, the
    /// few squares of a guard) stay near their start instead of drifting apart.
    pub l2: f64,
    /// Holds the threat weights ([`is_threat_weight`]) at their start: a fit of the
    /// other weights alone, the reference of a fit with the threats.
    pub freeze_threats: bool,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            epochs: 300,
            rate: 1.0,
            min_count: 1000,
            l2: 1e-8,
            freeze_threats: false,
        }
    }
}

/// Fits `w` on `data` with scale `k` by Adam on the mean squared error; `on_epoch`
/// hears the epoch number and the training error every 25 epochs. The weights of the
/// king's material (not a weight: kings never leave) stay put, like rare weights.
pub fn fit(
    data: &Dataset,
    w: &mut [f64],
    k: f64,
    options: &FitOptions,
    mut on_epoch: impl FnMut(u32, f64),
) {
    let counts = data.counts();
    let frozen: Vec<bool> = counts
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            c < options.min_count
                || i == MATERIAL
                || i == MATERIAL + 1
                || (options.freeze_threats && is_threat_weight(i))
        })
        .collect();
    let start = w.to_vec();
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-12f64);
    let mut m = vec![0.0; w.len()];
    let mut v = vec![0.0; w.len()];
    let mut grad = vec![0.0; w.len()];
    for epoch in 1..=options.epochs {
        data.gradient(w, k, &mut grad);
        // The step shrinks to a tenth over the run.
        let rate = options.rate * (1.0 - 0.9 * f64::from(epoch - 1) / f64::from(options.epochs));
        let t = f64::from(epoch) as i32;
        for i in 0..w.len() {
            if frozen[i] {
                continue;
            }
            let g = grad[i] + 2.0 * options.l2 * (w[i] - start[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(t));
            let vh = v[i] / (1.0 - b2.powi(t));
            w[i] -= rate * mh / (vh.sqrt() + eps);
        }
        if epoch % 25 == 0 || epoch == options.epochs {
            on_epoch(epoch, data.mse(w, k));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Rng;
    use crate::xiangqi::eval::evaluate;

    fn random_positions(n: usize, seed: u64) -> Vec<Position> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        while out.len() < n {
            let mut pos = Position::startpos();
            for _ in 0..150 {
                out.push(pos.clone());
                let Some(mv) = crate::xiangqi::random_move(&pos, &mut rng, 3) else {
                    break;
                };
                pos.make(mv);
            }
        }
        out
    }

    #[test]
    fn the_model_is_the_evaluation() {
        // Every term weighted (the second round's terms too, whatever the shipped weights).
        let every_term = XiangqiParams {
            rook_open_file: (17, -9),
            rook_half_open_file: (-7, 13),
            rook_pin: (31, 11),
            open_king_file: 23,
            attack_guards: 5,
            pairs: [(19, -11), (-13, 29), (37, -5)],
            threat_lower: [(-41, -23), (-37, -19), (-17, -29)],
            threat_hanging: [(-43, -47), (-53, -61), (-19, -23)],
            threat_multiple: (-67, -43),
            connected_pawns: 12,
            tempo: 9,
            ..XiangqiParams::default()
        };
        for params in [XiangqiParams::default(), XiangqiParams::hand(), every_term] {
            let w = to_vector(&params);
            for pos in random_positions(3000, 7) {
                let red = f64::from(evaluate(&pos, &params))
                    * if pos.side_to_move() == Color::Red {
                        1.0
                    } else {
                        -1.0
                    };
                let model = model_eval(&w, &Sample::of(&pos, 0.5));
                assert!(
                    (model - red).abs() <= 1.5,
                    "{pos:?}: model {model}, engine {red}"
                );
                let mut data = Dataset::default();
                data.push(&Sample::of(&pos, 0.5));
                assert!((data.eval(&w, 0) - model).abs() < 1e-2);
            }
        }
    }

    #[test]
    fn vectors_round_trip() {
        let p = XiangqiParams::default();
        assert_eq!(from_vector(&to_vector(&p)), p);
        let h = XiangqiParams::hand();
        assert_eq!(from_vector(&to_vector(&h)), h);
    }

    #[test]
    fn the_fit_recovers_a_known_piece_value() {
        // Results drawn from a model where the rook is worth 1,300, not 900: the fit
        // must move the rook's material up, and lower the error.
        let truth = {
            let mut p = XiangqiParams::hand();
            p.material_mg[4] = 1300;
            p.material_eg[4] = 1300;
            to_vector(&p)
        };
        let mut rng = Rng::new(3);
        let mut data = Dataset::default();
        for pos in random_positions(6000, 11) {
            let mut s = Sample::of(&pos, 0.0);
            let p = sigmoid(model_eval(&truth, &s), 1.0);
            s.result = if rng.next_f64() < p { 1.0 } else { 0.0 };
            data.push(&s);
        }
        let mut w = to_vector(&XiangqiParams::hand());
        let before = data.mse(&w, 1.0);
        let options = FitOptions {
            epochs: 150,
            rate: 8.0,
            min_count: 50,
            l2: 0.0,
            freeze_threats: false,
        };
        fit(&data, &mut w, 1.0, &options, |_, _| {});
        assert!(data.mse(&w, 1.0) < before);
        let rook = f64::midpoint(w[MATERIAL + 8], w[MATERIAL + 9]);
        assert!(rook > 1050.0, "rook {rook}");
        let k = fit_k(&data, &truth);
        assert!((0.5..2.0).contains(&k), "k {k}");
    }

    #[test]
    fn every_weight_has_a_name_and_a_phase() {
        assert_eq!(weight_name(MATERIAL + 8), "material rook mg");
        assert_eq!(weight_name(TEMPO), "tempo");
        assert_eq!(phase_of(CANNON_EG), Phase::Eg);
        assert_eq!(phase_of(CANNON_MG + 2), Phase::Mg);
        assert_eq!(phase_of(ROOK_MOB + 1), Phase::Eg);
        assert_eq!(phase_of(HORSE_MOB + 3), Phase::Both);
        assert_eq!(phase_of(MISSING_ELEPHANT + 1), Phase::Mg);
        assert_eq!(phase_of(ROOK_OPEN), Phase::Mg);
        assert_eq!(phase_of(ROOK_PIN + 1), Phase::Eg);
        assert_eq!(
            (phase_of(OPEN_KING), phase_of(ATTACK_GUARDS)),
            (Phase::Mg, Phase::Mg)
        );
        assert_eq!(phase_of(PAIRS + 5), Phase::Eg);
        assert_eq!(
            (phase_of(THREAT_LOWER), phase_of(THREAT_HANGING + 5)),
            (Phase::Mg, Phase::Eg)
        );
        assert_eq!(phase_of(THREAT_MULTIPLE + 1), Phase::Eg);
        assert_eq!(weight_name(THREAT_HANGING + 5), "hanging minor/pawn eg");
        assert_eq!(weight_name(THREAT_MULTIPLE), "multiple threats mg");
        assert!(is_threat_weight(WEIGHTS - 1) && !is_threat_weight(PAIRS + 5));
        assert_eq!(weight_name(PAIRS + 5), "cannon pair eg");
        assert_eq!(weight_name(ROOK_HALF), "rook half-open file mg");
        let names: std::collections::HashSet<_> = (0..WEIGHTS).map(weight_name).collect();
        assert_eq!(names.len(), WEIGHTS);
    }
}
