//! `banco play --game lines` (Color Lines in the terminal over banco-app's
//! `LinesSession`) and `banco bench lines` (the computer player over seeded games; last
//! line `games N median_score M mean_score A median_turns T ms_per_move X`).
//!
//! The board is drawn with a letter per colour (R G B Y P C O, `.` for an empty cell) and,
//! on a terminal, ANSI colours; the cells of the last path are marked. With Lines 98's
//! preview (`--preview`) the cell where each announced ball will land shows its letter in
//! lower case, and the line of the next colours names the cells (`next Rc5 Gd7 Ba1`). Moves are typed as
//! two cells (`a1 e5`); commands: `hint`, `undo`, `redo`, `save FILE`, `load FILE`, `new`,
//! `board`, `best`, `best all`, `help`, `quit`. The best scores are kept in a file between
//! sessions (`--best-scores FILE`; by default, at the keyboard, `lines-best` in the data
//! directory). Each kind of game is ranked on its own (start balls, undo, preview, spawn
//! rule, hints: [`banco_lines::best::BestKind`]): `best` shows the table of the game on the
//! board, headed by its kind in words, `best all` every kind's, and the game-over line
//! gives the rank among games of its kind. A game in which the player asked for a `hint`
//! ranks among games played with hints (said at its first hint, and when such a game is
//! continued or loaded).
//! The game in progress is kept as `banco play` keeps a board game ([`crate::cmd_play::Keep`]):
//! after every move, at the keyboard in `lines-last-game` of the data directory or in
//! `--keep FILE`, and `--continue` goes on with it.

use crate::CliError;
use crate::cmd_play::{Found, Keep, KeptGame, PlayArgs, SessionKeep, open_keep};
use crate::ui::board::Style;
use crate::ui::read_command;
use banco_app::files::{lock_beside, read_limited, write_atomic, write_record};
use banco_app::lines::{
    LinesSession, RANKING_NOTE_HINTED, RANKING_NOTE_PLAYED_BEFORE, RANKING_NOTE_SEED_KNOWN,
    best_kind_label,
};
use banco_app::save;
use banco_game::ScoreGame;
use banco_lines::ai::{self, Budget, Player};
use banco_lines::best::BestScore;
use banco_lines::spawn::Spawner;
use banco_lines::{Ball, Board, Cell, CellSet, LinesGame, SIZE, Settings, TurnReport, UndoRule};
use std::fmt::Write as _;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::time::Instant;

const HELP: &str = "moves:     two cells, the ball then where it goes: a1 e5
commands:  hint, undo, redo, save FILE, load FILE, new, board, help, quit
           best (the best scores of this kind of game), best all (of every kind)";

/// Said once at the start of a session with `--seed`: its games are not ranked.
const NOT_RANKED: &str = "a game with a chosen seed is not ranked: its balls are known in advance (the best scores are for games without --seed)";
/// Said once at the start of a session from a script or a pipe without `--seed` that keeps
/// best scores: its new games have the fixed seed (the same balls every run).
const FIXED_SEED: &str = "games begun from a script or a pipe without --seed have a fixed seed (the same balls every run) and do not enter the best scores; a loaded game enters as usual";
/// Said of a game continued or loaded that was saved against the clock.
const UNTIMED: &str = "this game was saved against the clock; the terminal keeps no time: it goes on untimed and ranks among untimed games";
/// The best-scores file's name in the data directory.
const BEST_FILE: &str = "lines-best";
/// The largest best-scores file read.
const BEST_MAX_BYTES: u64 = banco_app::lines::MAX_BEST_BYTES as u64;

fn ansi(ball: Ball) -> &'static str {
    match ball {
        Ball::Red => "\x1b[1;31m",
        Ball::Green => "\x1b[1;32m",
        Ball::Blue => "\x1b[1;34m",
        Ball::Yellow => "\x1b[1;33m",
        Ball::Purple => "\x1b[1;35m",
        Ball::Cyan => "\x1b[1;36m",
        Ball::Orange => "\x1b[38;5;208m",
    }
}

fn ball_text(ball: Ball, style: Style) -> String {
    if style.color {
        format!("{}{}\x1b[0m", ansi(ball), ball.letter())
    } else {
        ball.letter().to_string()
    }
}

/// An announced ball on the cell where it will land: its letter in lower case.
fn spot_text(ball: Ball, style: Style) -> String {
    let letter = ball.letter().to_ascii_lowercase();
    if style.color {
        format!("{}{letter}\x1b[0m", ansi(ball))
    } else {
        letter.to_string()
    }
}

/// The board (rank 9 on top), with the cells of `path` marked `*` (or highlighted) and
/// the announced balls of `spots` on the empty cells where they will land (Lines 98's
/// preview; none in a classic game): the colour's letter in lower case.
pub(crate) fn render_with_spots(
    board: &Board,
    path: CellSet,
    spots: &[(Cell, Ball)],
    style: Style,
) -> String {
    let mut out = String::new();
    for rank in (0..SIZE).rev() {
        let _ = write!(out, "{} ", rank + 1);
        for file in 0..SIZE {
            let Some(cell) = banco_lines::Cell::new(file, rank) else {
                continue;
            };
            let on_path = path.contains(cell);
            let spot = spots.iter().find(|&&(c, _)| c == cell).map(|&(_, b)| b);
            let text = match (board.get(cell), spot) {
                (Some(b), _) => ball_text(b, style),
                (None, Some(b)) => spot_text(b, style),
                (None, None) => ".".to_owned(),
            };
            match (on_path, style.color) {
                (true, true) => {
                    let _ = write!(out, "\x1b[43m{text}\x1b[0m ");
                }
                (true, false) => {
                    let _ = write!(out, "{text}*");
                }
                _ => {
                    let _ = write!(out, "{text} ");
                }
            }
        }
        out.push('\n');
    }
    out.push_str("  a b c d e f g h i\n");
    out
}

struct Session {
    lines: LinesSession,
    style: Style,
    last_path: CellSet,
    echo: bool,
    seed: u64,
    /// The session's new games enter the best scores: not with a chosen `--seed`, which
    /// makes every spawn known in advance (each such game is marked
    /// [`LinesSession::mark_seed_known`], a mark its save keeps).
    ranked: bool,
    /// The session's new games have the fixed seed of a session from a script or a pipe
    /// without `--seed` (0x5EED, then one more each `new`): their balls are the same every
    /// run, so, as with a chosen seed, each is marked and not ranked. A game loaded or
    /// continued keeps its own ranking.
    fixed_seed: bool,
    /// Where the best scores are kept (`None`: this session only).
    best_file: Option<PathBuf>,
    /// Where the game in progress is kept (`--keep`, `--continue`).
    keep: Option<Keep>,
}

fn seed_bytes(seed: u64) -> [u8; 32] {
    Spawner::seed_from_u64(seed)
}

/// `banco play --game lines`.
pub(crate) fn play(
    args: &PlayArgs,
    input: Box<dyn BufRead>,
    interactive: bool,
) -> Result<(), CliError> {
    let seed = args.seed.unwrap_or_else(|| {
        if interactive {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        } else {
            0x5EED
        }
    });
    let settings = Settings::new(
        args.balls,
        if args.no_undo {
            UndoRule::Off
        } else {
            UndoRule::LastTurn
        },
    )
    .map_err(CliError::input)?
    .with_preview(args.preview);
    let SessionKeep {
        mut keep,
        notice,
        kept,
    } = open_keep(KeptGame::Lines, args, interactive)?;
    let mut lines = LinesSession::new(settings, seed_bytes(seed));
    if let Some(playouts) = args.hint_playouts {
        // Any game's hint, a kept one's too (the strength is not part of a game).
        lines.set_hint_playouts(playouts).map_err(CliError::input)?;
    }
    let mut continued = false;
    if let (Some(bytes), Some(k)) = (&kept, &keep) {
        lines
            .continue_saved(bytes)
            .map_err(|e| CliError::input(format!("cannot continue {}: {e}", k.path().display())))?;
        continued = true;
    }
    let untimed = lines.play_untimed();
    let fixed_seed = args.seed.is_none() && !interactive;
    if args.seed.is_some() || (fixed_seed && !continued) {
        // Every game of a session with a chosen seed is unranked, and stays so when kept;
        // so is a new game of the fixed seed.
        lines.mark_seed_known();
    }
    outln!("Banco lines — line up five of a colour. Type a move (a1 e5) or `help`.");
    if let Some(notice) = notice {
        outln!("{notice}");
    }
    if let Some(keep) = &mut keep {
        keep.tell_off();
        if kept.is_some() {
            let game = lines.game();
            if lines.is_over() {
                outln!(
                    "the kept game of {} is over: here it is for review (new starts a game)",
                    turns_text(game)
                );
            } else {
                outln!("continuing the kept game: {}", turns_text(game));
                if untimed {
                    outln!("{UNTIMED}");
                }
                if let Some(note) = ranking_note(&lines, args.seed.is_none()) {
                    outln!("{note}");
                }
            }
            let given: Vec<&str> = [
                ("--balls", args.balls != 5),
                ("--no-undo", args.no_undo),
                ("--preview", args.preview),
            ]
            .iter()
            .filter_map(|&(name, on)| on.then_some(name))
            .collect();
            if !given.is_empty() {
                outln!(
                    "{} {} not apply with --continue: the kept game has its own settings",
                    given.join(", "),
                    if given.len() == 1 { "does" } else { "do" }
                );
            }
        } else {
            keep.announce_waiting(&lines_found);
        }
        if let Ok(bytes) = lines.save() {
            keep.start(bytes);
        }
    }
    let mut session = Session {
        lines,
        style: Style::detect(args.no_color),
        last_path: CellSet::EMPTY,
        echo: !interactive,
        seed,
        ranked: args.seed.is_none(),
        fixed_seed,
        best_file: None,
        keep,
    };
    if !session.ranked {
        outln!("{NOT_RANKED}");
    }
    let best_file = match &args.best_scores {
        Some(file) => Some(file.clone()),
        None if interactive => crate::ui::data_dir(None).map(|d| d.join(BEST_FILE)),
        None => None,
    };
    if let Some(file) = best_file {
        if fixed_seed {
            outln!("{FIXED_SEED}");
        }
        session.open_best(file);
    }
    session.show();
    let result = session.run(input);
    session.keep_game(true);
    result
}

/// How far a Lines game was played: `12 turns (score 40)`.
fn turns_text(game: &LinesGame) -> String {
    let turns = game.turns();
    format!(
        "{turns} turn{} (score {})",
        if turns == 1 { "" } else { "s" },
        game.score()
    )
}

/// A Lines game found in the keep file (a sound record), as a new game tells of it.
fn lines_found(bytes: &[u8]) -> Result<Found, String> {
    let kept = LinesSession::load(bytes).map_err(|e| e.to_string())?;
    Ok(if kept.game().turns() == 0 {
        Found::Unplayed
    } else {
        Found::Played {
            text: turns_text(kept.game()),
            finished: kept.is_over(),
        }
    })
}

/// With the preview: each announced ball on the cell where it will land (empty without).
pub(crate) fn spots_of(game: &LinesGame) -> Vec<(Cell, Ball)> {
    game.next_spots()
        .into_iter()
        .zip(game.next_colors())
        .collect()
}

impl Session {
    fn show(&self) {
        let game = self.lines.game();
        let spots = spots_of(game);
        out!(
            "{}",
            render_with_spots(game.board(), self.last_path, &spots, self.style)
        );
        let next: Vec<String> = game
            .next_colors()
            .iter()
            .enumerate()
            .map(|(k, &b)| {
                let text = ball_text(b, self.style);
                match spots.get(k) {
                    Some((cell, _)) => format!("{text}{cell}"),
                    None => text,
                }
            })
            .collect();
        if self.lines.is_over() {
            let why = if self.lines.is_time_up() {
                "the time is up"
            } else {
                "the board is full"
            };
            outln!("score {}  in {} turns  {why}", game.score(), game.turns());
        } else {
            outln!(
                "score {}  turn {}  next {}",
                game.score(),
                game.turns() + 1,
                next.join(" ")
            );
        }
    }

    /// Reads the best scores from `file` (none yet if it does not exist) and keeps them
    /// there; a file that cannot be read is left alone and the scores kept for this
    /// session only.
    fn open_best(&mut self, file: PathBuf) {
        match read_limited(&file, BEST_MAX_BYTES) {
            Ok(bytes) => {
                if let Err(e) = self.lines.load_best_scores(&bytes) {
                    outln!(
                        "the best scores in {} cannot be read ({e}): this session's are not kept",
                        file.display()
                    );
                    return;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                outln!(
                    "cannot read the best scores in {} ({e}): this session's are not kept",
                    file.display()
                );
                return;
            }
        }
        self.best_file = Some(file);
    }

    /// Writes the best scores to their file, if they have one: under the file's lock, the
    /// table as the file holds it now (another session may have written it since) with
    /// this session's changes made in it again, so that no session loses another's entries.
    fn keep_best(&mut self) {
        let Some(file) = self.best_file.clone() else {
            return;
        };
        if let Err(e) = self.merge_and_write_best(&file) {
            outln!("cannot keep the best scores in {}: {e}", file.display());
        }
    }

    fn merge_and_write_best(&mut self, file: &Path) -> Result<(), String> {
        if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        }
        let _lock = lock_beside(file).map_err(|e| e.to_string())?;
        match read_limited(file, BEST_MAX_BYTES) {
            Ok(bytes) => self.lines.merge_best_scores(&bytes).map_err(|e| {
                format!("the file no longer holds a table ({e}); it is left as it is")
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(format!("cannot read it again ({e}); it is left as it is")),
        }
        let bytes = self.lines.best_scores_bytes().map_err(|e| e.to_string())?;
        write_atomic(file, &bytes).map_err(|e| e.to_string())?;
        self.lines.best_scores_kept();
        Ok(())
    }

    fn run(&mut self, mut input: Box<dyn BufRead>) -> Result<(), CliError> {
        let mut line = String::new();
        loop {
            self.keep_game(false);
            let Some(text) = read_command(&mut input, "lines> ", &mut line, self.echo)? else {
                return Ok(());
            };
            if !self.command(text) {
                return Ok(());
            }
        }
    }

    /// Writes the game to its keep file when it changed; `leaving`: say, as the session
    /// ends, where the kept game is.
    fn keep_game(&mut self, leaving: bool) {
        let Some(keep) = &mut self.keep else {
            return;
        };
        if let Ok(bytes) = self.lines.save() {
            keep.write(bytes);
        }
        if leaving {
            let game = self.lines.game();
            keep.farewell(game.turns(), self.lines.is_over());
        }
    }

    /// The player played on (a move, a redo, a `load`): from now on the game replaces a
    /// kept one (see [`Keep`]).
    fn played_on(&mut self) {
        if let Some(keep) = &mut self.keep {
            keep.release();
        }
    }

    /// Runs one line; false to quit.
    fn command(&mut self, text: &str) -> bool {
        let mut words = text.split_whitespace();
        let Some(word) = words.next() else {
            return true;
        };
        let arg = words.collect::<Vec<_>>().join(" ");
        match word.to_ascii_lowercase().as_str() {
            "quit" | "exit" | "q" => return false,
            "help" | "?" => outln!("{HELP}"),
            "board" => self.show(),
            "best" => self.best(&arg),
            "hint" => self.hint(),
            "undo" => {
                let before = self.lines.best_scores().clone();
                match self.lines.undo() {
                    Ok(()) => {
                        self.last_path = CellSet::EMPTY;
                        if self.lines.best_scores().entries().ne(before.entries()) {
                            outln!("the game goes on; its ending is out of the best scores");
                        }
                        if self.lines.best_scores_unkept() {
                            self.keep_best();
                        }
                        self.show();
                    }
                    Err(e) => outln!("{e}"),
                }
            }
            "redo" => match self.lines.redo() {
                Some(report) => {
                    self.played_on();
                    self.after_move(&report);
                }
                None => outln!("there is no turn to redo"),
            },
            "new" => {
                self.seed = self.seed.wrapping_add(1);
                self.lines.new_game(None, seed_bytes(self.seed));
                if !self.ranked || self.fixed_seed {
                    self.lines.mark_seed_known();
                }
                if let Some(keep) = &mut self.keep {
                    keep.new_game(&lines_found);
                }
                self.last_path = CellSet::EMPTY;
                self.show();
            }
            "save" => self.save(&arg),
            "load" => self.load(&arg),
            _ => match self.lines.play_text(text) {
                Ok(report) => {
                    self.played_on();
                    self.after_move(&report);
                }
                Err(e) => outln!("{e}"),
            },
        }
        true
    }

    /// `hint`: the computer's suggestion; the game's first says where the game ranks now.
    fn hint(&mut self) {
        let first = self.lines.hints_used() == 0;
        match self.lines.hint() {
            Some(h) => {
                outln!("hint: {} — {}", h.mv, h.reason);
                if first && !self.lines.seed_known() {
                    outln!("({RANKING_NOTE_HINTED})");
                }
            }
            None => outln!("the game is over"),
        }
    }

    fn after_move(&mut self, r: &TurnReport) {
        self.last_path = print_turn(r);
        self.show();
        if r.game_over {
            let date = crate::ui::today();
            // A game without a point is no record, and a game of a chosen seed is not
            // ranked (the session marks it, and a continued game keeps the mark).
            self.lines.record_result(&date);
            // Entered, or remembered as played to its end: the table changed.
            if self.lines.best_scores_unkept() {
                self.keep_best();
            }
            // The rank in the table as written: another session's entries may have moved
            // it, or dropped it (the game played to its end there first).
            match self.lines.entered_rank() {
                Some(rank) => outln!(
                    "game over: score {} in {} turns — best score #{} ({})",
                    self.lines.score(),
                    self.lines.game().turns(),
                    rank + 1,
                    best_kind_label(self.lines.best_kind())
                ),
                None if self.lines.played_before() => outln!(
                    "game over: score {} in {} turns — {RANKING_NOTE_PLAYED_BEFORE}",
                    self.lines.score(),
                    self.lines.game().turns()
                ),
                None => outln!(
                    "game over: score {} in {} turns",
                    self.lines.score(),
                    self.lines.game().turns()
                ),
            }
            outln!("type `new` for another game or `quit`");
        }
    }

    /// `best` (`arg` empty): the table of this game's kind; `best all`: every kind's.
    fn best(&self, arg: &str) {
        let table = self.lines.best_scores();
        match arg.to_ascii_lowercase().as_str() {
            "" => {
                let kind = self.lines.best_kind();
                outln!("best scores — {}", best_kind_label(kind));
                let entries = self.lines.best_scores_of_game();
                if entries.is_empty() {
                    outln!("no finished game of this kind yet");
                    if !table.is_empty() {
                        outln!("(`best all` shows the other kinds of game)");
                    }
                }
                print_best(entries);
            }
            "all" => {
                if table.is_empty() {
                    outln!("no finished game yet");
                }
                for kind in table.kinds() {
                    outln!("best scores — {}", best_kind_label(kind));
                    print_best(table.entries_of(kind));
                }
            }
            _ => outln!("`best` shows this kind of game's best scores, `best all` every kind's"),
        }
    }

    fn save(&self, path: &str) {
        if path.is_empty() {
            outln!("save where? save FILE");
            return;
        }
        let file = crate::ui::expand_home(path);
        if crate::cmd_records::is_export_name(&file) {
            // Those names are the board games' readable exports; Lines has none.
            outln!(
                "cannot save: a Lines game has no readable export (.txt, .pgn), only Banco's save format: use another name, like `save lines.banco`"
            );
            return;
        }
        let result = self
            .lines
            .save()
            .map_err(|e| e.to_string())
            .and_then(|bytes| write_record(&file, &bytes).map_err(|e| e.to_string()));
        match result {
            Ok(()) => outln!("saved to {path}"),
            Err(e) => outln!("cannot save to {path}: {e}"),
        }
    }

    fn load(&mut self, path: &str) {
        if path.is_empty() {
            outln!("load what? load FILE");
            return;
        }
        let bytes = match read_limited(&crate::ui::expand_home(path), save::MAX_BYTES as u64) {
            Ok(b) => b,
            Err(e) => {
                outln!("cannot read {path}: {e}");
                return;
            }
        };
        match self.lines.continue_saved(&bytes) {
            Ok(()) => {
                if !self.ranked {
                    self.lines.mark_seed_known();
                }
                let untimed = self.lines.play_untimed();
                self.played_on();
                self.last_path = CellSet::EMPTY;
                outln!("loaded {path}");
                if untimed {
                    outln!("{UNTIMED}");
                }
                if self.lines.played_before() && !self.lines.is_over() {
                    outln!("{RANKING_NOTE_PLAYED_BEFORE}");
                }
                if let Some(note) = ranking_note(&self.lines, self.ranked) {
                    outln!("{note}");
                }
                self.show();
            }
            Err(e) => outln!("cannot load {path}: {e}"),
        }
    }
}

/// What a continued or loaded game in play says of how it ranks (banco-app's notes, as the
/// screens show them): its seed known (a chosen seed, or a script's fixed one), not at all
/// (said only in a `ranked` session: one with `--seed` said so at its start); played with
/// hints, among games with hints.
fn ranking_note(lines: &LinesSession, ranked: bool) -> Option<String> {
    if lines.is_over() {
        None
    } else if lines.seed_known() {
        ranked.then(|| RANKING_NOTE_SEED_KNOWN.to_owned())
    } else {
        (lines.hints_used() > 0).then(|| format!("({RANKING_NOTE_HINTED})"))
    }
}

/// The rows of one kind's best scores, best first: rank, score, turns, date.
fn print_best(entries: &[BestScore]) {
    for (i, e) in entries.iter().enumerate() {
        outln!(
            "{:>2}. {:>6}  {:>5} turns  {}",
            i + 1,
            e.score,
            e.turns,
            e.date
        );
    }
}

/// `banco bench lines`: the computer player over `games` seeded games.
pub(crate) fn bench(
    games: u32,
    seed: u64,
    budget: usize,
    max_turns: u32,
    greedy: bool,
    threads: usize,
    preview: bool,
) -> Result<(), CliError> {
    if games == 0 {
        return Err(CliError::input("--games must be at least 1"));
    }
    let player = if greedy {
        Player::Greedy
    } else {
        Player::Computer(Budget::from_playouts(budget).with_threads(threads))
    };
    if let Player::Computer(b) = player {
        outln!(
            "budget {budget} playouts: {} candidates × {} samples, halved each round \
             ({} playouts at most), replies judged: {}, {} thread(s)",
            b.candidates,
            b.samples,
            b.playouts(),
            match (b.replies, b.shortlist) {
                (false, _) => "lines only".to_string(),
                (true, 0) => "all".to_string(),
                (true, k) => format!("the {k} best and the lines"),
            },
            b.threads
        );
    }
    if preview {
        outln!("Lines 98's preview: the computer knows where the next balls land");
    }
    let settings = Settings::default().with_preview(preview);
    let start = Instant::now();
    let mut results = Vec::new();
    let mut unfinished = 0;
    for g in 0..u64::from(games) {
        let game_seed = seed.wrapping_add(g);
        let game = LinesGame::new(settings, Spawner::seed_from_u64(game_seed));
        let r = ai::play_out(game, player, game_seed, max_turns);
        if !r.finished {
            unfinished += 1;
        }
        outln!(
            "game {} seed {game_seed} score {} turns {}{}",
            g + 1,
            r.score,
            r.turns,
            if r.finished { "" } else { " (turn limit)" }
        );
        results.push((r.score, r.turns));
    }
    if unfinished > 0 {
        let games = if unfinished == 1 { "game" } else { "games" };
        outln!("{unfinished} {games} stopped at the turn limit {max_turns}");
    }
    outln!(
        "{}",
        ai::summary::Summary::of(&results, start.elapsed().as_secs_f64() * 1000.0)
    );
    Ok(())
}

/// Prints what a turn did, as solo play and a race show it after each move: `path a1 …`,
/// the line it made (`line of 5 balls: +10`) and the balls that landed (`landed Rf7 Ce8
/// Rh2`, with the line they made); returns the path's cells (the board marks them).
pub(crate) fn print_turn(r: &TurnReport) -> CellSet {
    let mut path = CellSet::EMPTY;
    for &c in r.path.cells() {
        path.insert(c);
    }
    let steps: Vec<String> = r.path.cells().iter().map(|c| c.to_string()).collect();
    outln!("path {}", steps.join(" "));
    let by_move = banco_lines::score::points(r.cleared.len());
    if !r.cleared.is_empty() {
        outln!("line of {} balls: +{by_move}", r.cleared.len());
    }
    if !r.landed.is_empty() {
        let landed: Vec<String> = r
            .landed
            .iter()
            .map(|(c, b)| format!("{}{c}", b.letter()))
            .collect();
        out!("landed {}", landed.join(" "));
        if !r.cleared_by_landing.is_empty() {
            // The balls the landing's lines removed, from their points: a cell a later
            // ball landed on again (the line had emptied the board) is not reported
            // cleared, but its ball counted.
            let by_landing = r.points.saturating_sub(by_move);
            let balls = (5..=banco_lines::CELLS)
                .find(|&n| banco_lines::score::points(n) == by_landing)
                .unwrap_or(r.cleared_by_landing.len());
            out!(" (line of {balls} balls: +{by_landing})");
        }
        outln!();
    }
    path
}
