//! `banco puzzles`: the puzzle collection's tools.
//!
//! * `harvest` — the computer plays itself and every forced mate found at the end of a game
//!   is printed as a collection row (`id, source, FEN, mate, line`);
//! * `prove` — reads `source<TAB>FEN` rows (a classical collection) and prints the rows the
//!   solver proves, with their mate length and main line;
//! * `verify` — re-proves a collection file (the bundled one by default), all of it or a
//!   seeded sample; last line `verified N failed F`;
//! * `list` — the bundled collection by tier, with what the kept progress marks solved;
//! * `play [ID]` — a try at a puzzle of the collection (the next unsolved one by default;
//!   `next` goes on to the following unsolved one) in puzzle mode: the computer defends
//!   longest, `hint` shows the proven move, a move that lets the mate slip is taken back
//!   with the computer's escape shown, and the progress is kept (`--progress FILE`; at the
//!   keyboard `puzzles-progress` in the data directory).
//!
//! `prove`, `verify`, `list` and `play` take `--game xiangqi|chess` (xiangqi by default).

use crate::CliError;
use crate::ui::board::Style;
use banco_app::any::AnyGame;
use banco_app::computer::Settings;
use banco_app::files::{read_limited, set_aside, write_atomic};
use banco_app::mate;
use banco_app::puzzle_mode::PuzzleMode;
use banco_app::puzzles::collection::{self, Tier};
use banco_app::puzzles::harvest::{self, HarvestOptions};
use banco_app::puzzles::progress::{self, Progress, ProgressError, ProgressStore, SharedProgress};
use banco_game::{Game, GameKind};
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// `banco puzzles`.
#[derive(clap::Args, Debug)]
pub(crate) struct PuzzlesArgs {
    #[command(subcommand)]
    action: Action,
}

#[derive(clap::Subcommand, Debug)]
enum Action {
    /// Play the computer against itself and print the forced mates found as rows.
    Harvest {
        /// Games to play.
        #[arg(long, default_value_t = 20)]
        games: u32,
        /// Seed of the first game.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Lowest level of the players.
        #[arg(long, default_value_t = 3)]
        min_level: u8,
        /// Highest level of the players.
        #[arg(long, default_value_t = 6)]
        max_level: u8,
        /// Longest mate looked for (1 to 100).
        #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u32).range(1..=100))]
        max_mate: u32,
    },
    /// Prove `source<TAB>FEN` rows from a file and print the proven ones as rows.
    Prove {
        /// The file (a header row starting with `source` is skipped).
        file: PathBuf,
        /// Longest mate looked for (1 to 100).
        #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u32).range(1..=100))]
        max_mate: u32,
        /// Prefix of the ids.
        #[arg(long, default_value = "c")]
        prefix: String,
        /// The game of the positions: xiangqi or chess.
        #[arg(long, default_value = "xiangqi")]
        game: String,
    },
    /// Re-prove every puzzle of a collection file (or a seeded sample).
    Verify {
        /// The collection file (default: the bundled collection).
        #[arg(long)]
        file: Option<PathBuf>,
        /// Check only this many puzzles, drawn with `--seed`.
        #[arg(long)]
        sample: Option<usize>,
        /// Seed of the sample.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The game of the collection: xiangqi or chess.
        #[arg(long, default_value = "xiangqi")]
        game: String,
    },
    /// Try a puzzle of the collection against the computer (the next unsolved one by
    /// default): `hint`, `undo`, `quit` as in `banco play`, `new` to start it afresh, `next`
    /// for the next unsolved one; the progress is kept.
    Play {
        /// The puzzle's id (`banco puzzles list --tier N` shows them).
        id: Option<String>,
        /// The game of the collection: xiangqi or chess.
        #[arg(long, default_value = "xiangqi")]
        game: String,
        /// Where the progress is kept (default at the keyboard: `puzzles-progress` in
        /// $BANCO_DATA_DIR, else $XDG_DATA_HOME/banco, else ~/.local/share/banco; none when
        /// the input is piped, so that a scripted try leaves no trace).
        #[arg(long, value_name = "FILE")]
        progress: Option<PathBuf>,
        /// Milliseconds the computer may think per move, 1 ms to a day.
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=crate::cmd_play::MAX_MOVETIME_MS))]
        movetime: u64,
        /// No colours.
        #[arg(long)]
        no_color: bool,
    },
    /// The bundled collection: count per tier, or the puzzles of one tier, with what the
    /// kept progress marks solved (read only).
    List {
        /// Mate length of the tier to list (1, 2, 3, 4 for 4–5, 6 for 6+).
        #[arg(long)]
        tier: Option<u32>,
        /// The game of the collection: xiangqi or chess.
        #[arg(long, default_value = "xiangqi")]
        game: String,
        /// The progress file of `banco puzzles play` to read (default: `puzzles-progress`
        /// in $BANCO_DATA_DIR, else $XDG_DATA_HOME/banco, else ~/.local/share/banco).
        #[arg(long, value_name = "FILE")]
        progress: Option<PathBuf>,
    },
}

pub(crate) fn puzzles_cmd(args: &PuzzlesArgs) -> Result<(), CliError> {
    match &args.action {
        Action::Harvest {
            games,
            seed,
            min_level,
            max_level,
            max_mate,
        } => {
            let mut o = HarvestOptions::new(GameKind::Xiangqi, *games, *seed);
            o.levels = (*min_level, *max_level);
            o.max_mate = *max_mate;
            let found = harvest::harvest(&o, |c| {
                let w: Vec<&str> = c.source.split_whitespace().collect();
                let (seed, ply) = (w.get(3).unwrap_or(&"0"), w.get(5).unwrap_or(&"0"));
                outln!(
                    "sp{seed}-{ply}\t{}\t{}\t{}\t{}",
                    c.source,
                    c.fen,
                    c.mate_in,
                    c.line.join(" ")
                );
                let _ = std::io::stdout().flush();
            });
            eprintln!("harvested {} from {games} games", found.len());
            Ok(())
        }
        Action::Prove {
            file,
            max_mate,
            prefix,
            game,
        } => prove(puzzle_game(game)?, file, *max_mate, prefix),
        Action::Verify {
            file,
            sample,
            seed,
            game,
        } => verify(puzzle_game(game)?, file.as_ref(), *sample, *seed),
        Action::Play {
            id,
            game,
            progress,
            movetime,
            no_color,
        } => play(
            id.as_deref(),
            puzzle_game(game)?,
            progress.as_ref(),
            *movetime,
            *no_color,
        ),
        Action::List {
            tier,
            game,
            progress,
        } => list(puzzle_game(game)?, *tier, progress.as_ref()),
    }
}

/// `banco puzzles list`: per tier the count and how many are solved, then `total N`; or
/// with a tier its puzzles, `ID<TAB>MATE<TAB>FEN`, a fourth column `solved` on the solved
/// ones. The progress is only read.
fn list(
    kind: GameKind,
    tier: Option<u32>,
    progress_file: Option<&PathBuf>,
) -> Result<(), CliError> {
    let tier = tier.map(tier_named).transpose()?;
    let all = collection::of_game(kind);
    let file = progress_file
        .cloned()
        .or_else(|| crate::ui::data_dir(None).map(|d| d.join(PROGRESS_FILE)));
    // Read as `puzzles play` reads it (a record followed by stray bytes is kept); opening
    // writes nothing, and nothing here changes the record.
    let progress = match file {
        Some(f) => {
            let (shared, damage) = SharedProgress::open(Arc::new(FileStore(f.clone())));
            match damage {
                None => {}
                Some(ProgressError::Unreadable(why)) => {
                    outln!("cannot read the puzzle progress in {} ({why})", f.display());
                }
                Some(e) => outln!(
                    "the progress in {} could not be read whole ({e})",
                    f.display()
                ),
            }
            shared.read(Progress::clone)
        }
        None => Progress::default(),
    };
    match tier {
        None => {
            for t in Tier::ALL {
                let (solved, total) = progress.tier_count(all, t);
                outln!("{:12} {total:4}  solved {solved}", t.name());
            }
            outln!("total {}", all.len());
        }
        Some(t) => {
            for e in all.iter().filter(|e| e.tier() == t) {
                let mark = if progress.is_solved(&e.id) {
                    "\tsolved"
                } else {
                    ""
                };
                outln!("{}\t{}\t{}{mark}", e.id, e.puzzle.mate_in, e.puzzle.fen);
            }
        }
    }
    Ok(())
}

/// The tier `--tier N` names: 1, 2, 3, 4 (mates in 4–5) or 6 (6 and more); anything else
/// is refused.
fn tier_named(n: u32) -> Result<Tier, CliError> {
    match n {
        1 => Ok(Tier::MateIn1),
        2 => Ok(Tier::MateIn2),
        3 => Ok(Tier::MateIn3),
        4 => Ok(Tier::MateIn4To5),
        6 => Ok(Tier::MateIn6Plus),
        _ => Err(CliError::input(format!(
            "no tier {n}: the tiers are 1, 2, 3, 4 (mates in 4–5) and 6 (mates in 6 or more)"
        ))),
    }
}

/// The progress file of `banco puzzles play`, written after every change.
struct FileStore(PathBuf);

impl ProgressStore for FileStore {
    /// No file yet is nothing stored; any other failure (permissions, a disk error, a
    /// file larger than a record may be) is one, so that nothing overwrites the file.
    fn load(&self) -> Result<Option<Vec<u8>>, String> {
        match read_limited(&self.0, progress::MAX_BYTES as u64) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e.to_string()),
        }
    }

    fn save(&self, bytes: Vec<u8>) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        if let Err(e) = write_atomic(&self.0, &bytes) {
            outln!("could not keep the progress in {}: {e}", self.0.display());
        }
    }
}

/// `banco puzzles play`.
fn play(
    id: Option<&str>,
    kind: GameKind,
    progress_file: Option<&PathBuf>,
    movetime: u64,
    no_color: bool,
) -> Result<(), CliError> {
    let interactive = std::io::stdin().is_terminal();
    let file = match progress_file {
        Some(f) => Some(f.clone()),
        None if interactive => crate::ui::data_dir(None).map(|d| d.join(PROGRESS_FILE)),
        None => None,
    };
    let progress = match file {
        Some(f) => {
            let (p, damage) = SharedProgress::open(Arc::new(FileStore(f.clone())));
            match damage {
                None => {}
                Some(ProgressError::Unreadable(why)) => {
                    outln!(
                        "cannot read the puzzle progress in {} ({why}): it is left as it is, and this session's progress is not kept",
                        f.display()
                    );
                }
                Some(e @ ProgressError::NewerVersion(_)) => {
                    outln!("{e}: it is left as it is, and this session's progress is not kept");
                }
                Some(e) => {
                    // Nothing is lost: the damaged bytes are set aside before anything
                    // writes the file again.
                    match set_aside(&f) {
                        Ok(aside) => outln!(
                            "the progress in {} could not be read whole ({e}); a copy of it is kept in {}",
                            f.display(),
                            aside.display()
                        ),
                        Err(err) => {
                            return Err(CliError::input(format!(
                                "the progress in {} could not be read whole ({e}), and setting it aside failed ({err}): move it away yourself, or pass --progress FILE",
                                f.display(),
                            )));
                        }
                    }
                }
            }
            p
        }
        None => SharedProgress::new(Progress::default(), None),
    };
    let all = collection::of_game(kind);
    let entry = if let Some(id) = id {
        collection::find(id)
            .filter(|e| e.puzzle.kind == kind)
            .ok_or_else(|| {
                CliError::input(format!(
                    "no {kind} puzzle `{id}`: `banco puzzles list --game {kind} --tier N` shows them"
                ))
            })?
    } else {
        let Some(e) = progress.read(|p| p.next_unsolved(all)) else {
            outln!("every {kind} puzzle of the collection is solved");
            return Ok(());
        };
        e
    };
    let mode = PuzzleMode::from_collection(&entry.id, progress).map_err(CliError::input)?;
    let human = AnyGame::from_fen(kind, &mode.puzzle().fen)
        .map_err(CliError::input)?
        .side_to_move();
    let settings = Settings::new(kind, human, 10).map_err(CliError::input)?;
    outln!(
        "Puzzle {} ({}): {} mates in {}. Type a move, `hint` or `quit`.",
        entry.id,
        entry.tier().name(),
        banco_app::any::color_name(kind, human),
        entry.puzzle.mate_in
    );
    let input: Box<dyn BufRead> = Box::new(std::io::stdin().lock());
    crate::cmd_play::puzzle_session(
        mode,
        movetime.max(1),
        settings,
        Style::detect(no_color),
        !interactive,
        input,
    )
}

/// The progress file's name in the data directory.
const PROGRESS_FILE: &str = "puzzles-progress";

/// A game that has puzzles: xiangqi or chess.
fn puzzle_game(name: &str) -> Result<GameKind, CliError> {
    match GameKind::from_name(name) {
        Some(k @ (GameKind::Xiangqi | GameKind::Chess)) => Ok(k),
        _ => Err(CliError::input(format!(
            "no puzzles for `{name}`: use xiangqi or chess (a forced mate cannot be proven through jieqi's reveals)"
        ))),
    }
}

fn prove(kind: GameKind, file: &PathBuf, max_mate: u32, prefix: &str) -> Result<(), CliError> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", file.display())))?;
    let rules = banco_app::any::AnyRules::usual(kind);
    let stop = std::sync::atomic::AtomicBool::new(false);
    for (i, row) in text.lines().enumerate() {
        let f: Vec<&str> = row.split('\t').collect();
        let (Some(source), Some(fen)) = (f.first(), f.get(1)) else {
            continue;
        };
        if *source == "source" || *source == "name" {
            continue;
        }
        let Ok(game) = AnyGame::from_fen(kind, fen) else {
            eprintln!("line {}: bad FEN", i + 1);
            continue;
        };
        let mut o = mate::options(max_mate);
        o.node_limit = Some(40_000_000);
        let found = mate::solve(&game, &rules, &o, &stop);
        let line = found
            .mate
            .and_then(|n| mate::main_line(&game, &rules, n, &o, &stop))
            .and_then(|l| banco_app::puzzles::line_text(&game, &l));
        match (found.mate, line) {
            (Some(n), Some(line)) => outln!(
                "{prefix}{}\t{source}\t{}\t{n}\t{}",
                i + 1,
                banco_game::MatchGame::fen(&game),
                line.join(" ")
            ),
            _ => eprintln!("line {}: not proven ({} nodes)", i + 1, found.nodes),
        }
    }
    Ok(())
}

fn verify(
    kind: GameKind,
    file: Option<&PathBuf>,
    sample: Option<usize>,
    seed: u64,
) -> Result<(), CliError> {
    let entries = match file {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))?;
            collection::parse(kind, &text).map_err(CliError::input)?
        }
        None => collection::of_game(kind).to_vec(),
    };
    let picked: Vec<&collection::Entry> = match sample {
        Some(n) => sample_of(&entries, n, seed),
        None => entries.iter().collect(),
    };
    let start = Instant::now();
    let mut failed = 0;
    for e in &picked {
        if let Err(why) = e.verify(&mate::options(e.puzzle.mate_in)) {
            failed += 1;
            outln!("{}: {why}", e.id);
        }
    }
    outln!("time {:.1} s", start.elapsed().as_secs_f64());
    outln!("verified {} failed {failed}", picked.len() - failed);
    if failed > 0 {
        return Err(CliError::Failure(format!(
            "{failed} puzzles did not verify"
        )));
    }
    Ok(())
}

/// `n` entries drawn without repetition by a seeded generator.
pub(crate) fn sample_of<T>(all: &[T], n: usize, seed: u64) -> Vec<&T> {
    let mut idx: Vec<usize> = (0..all.len()).collect();
    let mut s = seed | 1;
    for i in (1..idx.len()).rev() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        idx.swap(i, (s % (i as u64 + 1)) as usize);
    }
    idx.into_iter().take(n).map(|i| &all[i]).collect()
}
