//! `banco play`: a game against the computer in the terminal, any board game (xiangqi by
//! default, `--game chess`, `--game jieqi`), over banco-app's `VsComputer` — the same rules
//! of turns, undo, hints and saves as the apps. In jieqi face-down pieces are drawn as
//! `Ｘ`/`ｘ` (reversed in colour), both pools are listed under the board, and every reveal
//! is announced ("cannon h2 revealed: rook"); the identities are dealt from the system's
//! randomness, or from `--seed` (for scripts and tests: the same seed deals the same
//! pieces). Undo and `load` follow banco-app's rule ([`banco_app::jieqi`]): your own pieces
//! stay as dealt, the computer's are dealt afresh when a reveal of one is taken back.
//!
//! You type moves in any of the game's notations (xiangqi: coordinates `h2e2`, WXF `C2.5`,
//! Chinese `炮二平五`; chess: SAN `Nf3`, `O-O`, `e8=Q` or coordinates `g1f3`), and commands:
//! `undo`, `redo`, `hint`, `level N`, `save FILE`, `load FILE`, `fen`, `flip`, `board`,
//! `claim` (a draw on the board as it stands), `claim MOVE` (the draw MOVE brings about:
//! it is played and the game ends), `resign`, `new`, `help`, `quit`. With `--script FILE`, or when standard input is
//! not a terminal, the lines are read from there (each echoed after a `> ` prompt) and the
//! program ends at the end of the input.

use crate::CliError;
use crate::ui::board::{self, Style};
use crate::ui::read_command;
use banco_app::answer::{self, SearchAnswer};
use banco_app::any::AnyGame;
use banco_app::any::{AnyMove, color_name};
use banco_app::computer::{
    ActionError, ClaimWith, Job, SearchRequest, Settings, VsComputer, VsState, main_notation,
};
use banco_app::engine::AnyEngine;
use banco_app::notation::{self, MoveInfo, Notation};
use banco_app::presets;
use banco_app::puzzle_mode::{PuzzleMode, PuzzleNotice};
use banco_engine::Limits;
use banco_game::{Color, Game, GameKind, MatchGame, Outcome};
use banco_xiangqi::jieqi::JieqiMove;
use clap::Args;
use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

mod keep;
mod records;
pub(crate) use keep::{Found, Keep, KeptGame, SessionKeep, board_found, open_keep};

/// `banco play`.
#[derive(Args, Debug)]
pub(crate) struct PlayArgs {
    /// The game: xiangqi, chess, jieqi or lines.
    #[arg(long, default_value = "xiangqi")]
    game: String,
    /// Start from a set-up position (FEN); it is validated and every problem is listed.
    #[arg(long)]
    fen: Option<String>,
    /// Computer level, 1 (beginner) to 10 (full strength).
    #[arg(long, default_value_t = 5)]
    level: u8,
    /// Your colour: red/white (moves first) or black.
    #[arg(long, default_value = "red")]
    color: String,
    /// Xiangqi (and jieqi) rule set: asian (the default) or casual; chess and lines have
    /// one set of rules and take none.
    #[arg(long)]
    rules: Option<String>,
    /// Milliseconds the computer may think per move (levels below 10 stop earlier), 1 ms to
    /// a day (86,400,000).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=MAX_MOVETIME_MS))]
    movetime: u64,
    /// Seed of the computer's choices, of the balls in lines and of jieqi's face-down
    /// pieces: with a seed a jieqi game deals and reveals the same pieces every time, so
    /// whoever knows the seed knows them (default: different every game when interactive;
    /// jieqi's pieces then come from the system's randomness).
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Read moves and commands from this file instead of the keyboard.
    #[arg(long)]
    script: Option<PathBuf>,
    /// No colours.
    #[arg(long)]
    pub(crate) no_color: bool,
    /// Lines: balls on the board at the start (3 or 5).
    #[arg(long, default_value_t = 5)]
    pub(crate) balls: u8,
    /// Lines: no undo.
    #[arg(long)]
    pub(crate) no_undo: bool,
    /// Lines: Lines 98's preview — the board shows where the next balls land (a lower-case
    /// letter of the ball's colour on its cell).
    #[arg(long)]
    pub(crate) preview: bool,
    /// Lines: how hard the `hint` thinks, in playouts a move: 0 or 1 judges every move at
    /// once, 30 samples the landing for the best 8 moves, 100 (the default) for the best
    /// 16; up to 10,000 (seconds a move).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=banco_lines::ai::MAX_PLAYOUTS as i64))]
    pub(crate) hint_playouts: Option<u32>,
    /// Lines: the file of the best scores, read at the start and written after each
    /// finished game (default at the keyboard: `lines-best` in $BANCO_DATA_DIR, else
    /// $XDG_DATA_HOME/banco, else ~/.local/share/banco; none when the input is piped or a
    /// script, so that a scripted game leaves no trace).
    #[arg(long, value_name = "FILE")]
    pub(crate) best_scores: Option<PathBuf>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Go on with the game kept from the last session (see `--keep`) instead of a new one.
    #[arg(long = "continue", conflicts_with = "fen")]
    pub(crate) resume: bool,
    /// Where the game in progress is kept after every move and when you leave, for
    /// `--continue` (default at the keyboard: `last-game` in $BANCO_DATA_DIR, else
    /// $XDG_DATA_HOME/banco, else ~/.local/share/banco; none when the input is piped or a
    /// script). One session at a time keeps its game in a file (it holds `FILE.lock`); a
    /// file that is not a game record is never replaced. A Lines game is kept apart
    /// (`lines-last-game` at the keyboard).
    #[arg(long, value_name = "FILE")]
    pub(crate) keep: Option<PathBuf>,
}

/// What the player may claim, said under the board: a draw on the board (`claim`), and the
/// moves a draw may be claimed with (`claim MOVE`, a few named per draw).
fn claim_hint(state: &VsState) -> Option<String> {
    let on_board = state
        .claimable_draw
        .map(|reason| format!("you may claim a draw ({}): type claim", reason.text()));
    if state.claimable_with.is_empty() {
        return on_board;
    }
    let notation = main_notation(state.kind);
    let mut reasons = Vec::new();
    for c in &state.claimable_with {
        if !reasons.contains(&c.reason) {
            reasons.push(c.reason);
        }
    }
    let groups: Vec<String> = reasons
        .iter()
        .map(|&reason| {
            let moves: Vec<&ClaimWith> = state
                .claimable_with
                .iter()
                .filter(|c| c.reason == reason)
                .collect();
            const NAMED: usize = 4;
            let named: Vec<String> = moves
                .iter()
                .take(NAMED)
                .map(|c| c.mv.text(notation))
                .collect();
            let list = match moves.len() {
                1 => format!("claim {}", named.join("")),
                n if n <= NAMED => format!("claim MOVE with {}", named.join(", ")),
                n => format!(
                    "claim MOVE with {} or {} other moves",
                    named.join(", "),
                    n - NAMED
                ),
            };
            format!("{list} ({})", reason.text())
        })
        .collect();
    let with_move = groups.join("; ");
    Some(match on_board {
        Some(board) => format!("{board}, or with your next move: {with_move}"),
        None => format!("you may claim a draw with your next move: {with_move}"),
    })
}

/// The longest `--movetime` (a day, as `banco solve --time`): beyond it a level-10 search
/// would think for years.
pub(crate) const MAX_MOVETIME_MS: u64 = 86_400_000;

fn help(kind: GameKind) -> String {
    let moves = match kind {
        GameKind::Chess => "moves:     e4, Nf3, exd5, O-O, e8=Q (SAN) or e2e4, e7e8q (coordinates)",
        GameKind::Jieqi => {
            "moves:     h2e2 (coordinates; a face-down piece moves as the piece of its square)"
        }
        _ => "moves:     h2e2 (coordinates), C2.5 or C2=5 (WXF), 炮二平五 (Chinese)",
    };
    // Draws are claimed in chess only: xiangqi's repetition and 120-ply rules are judged
    // as the game goes.
    let claim = if kind == GameKind::Chess {
        "
           claim (a draw the rules allow), claim MOVE (play MOVE, claiming the draw
           it brings about: a third repetition, the fiftieth move),"
    } else {
        ""
    };
    format!(
        "{moves}
commands:  undo, redo, hint, level N (1-10), save FILE, load FILE, fen, flip, board,{claim}
           resign, new, help, quit
saves:     FILE ending in .pgn is PGN, .txt a readable text export; anything else the compact record"
    )
}

/// Parses `--game`.
pub(crate) fn parse_game(name: &str) -> Result<GameKind, CliError> {
    match GameKind::from_name(name) {
        Some(k) if <AnyGame as MatchGame>::kinds().contains(&k) => Ok(k),
        _ => Err(CliError::input(format!(
            "unknown game `{name}`: use {}",
            <AnyGame as MatchGame>::kinds()
                .iter()
                .map(|k| k.name())
                .collect::<Vec<_>>()
                .join(" or ")
        ))),
    }
}

/// Parses a colour: red/white/w/r or black/b.
pub(crate) fn parse_color(text: &str) -> Result<Color, CliError> {
    match text.to_ascii_lowercase().as_str() {
        "red" | "r" | "white" | "w" => Ok(Color::Red),
        "black" | "b" => Ok(Color::Black),
        other => Err(CliError::input(format!(
            "unknown colour `{other}`: use red (white in chess) or black"
        ))),
    }
}

struct Session {
    vs: VsComputer,
    /// A puzzle try as it started and the computer's time per move: `new` starts it afresh.
    puzzle_start: Option<(PuzzleMode, u64)>,
    settings: Settings,
    style: Style,
    engine: AnyEngine,
    announced: bool,
    echo: bool,
    /// Where the game in progress is kept (`--keep`, `--continue`).
    keep: Option<Keep>,
}

enum Flow {
    Continue,
    Quit,
}

pub(crate) fn play(args: &PlayArgs) -> Result<(), CliError> {
    if GameKind::from_name(&args.game) == Some(GameKind::Lines) {
        refuse_foreign(
            &[
                ("--fen", args.fen.is_some()),
                ("--level", args.level != 5),
                ("--color", args.color != "red"),
                ("--rules", args.rules.is_some()),
                ("--movetime", args.movetime != 1000),
                ("--hash", args.hash != 16),
            ],
            "for the board games, not Lines (Lines takes --seed, --balls, --no-undo, --preview, --best-scores, --keep, --continue)",
        )?;
        let input: Box<dyn BufRead> = match &args.script {
            Some(path) => Box::new(std::io::BufReader::new(std::fs::File::open(path).map_err(
                |e| CliError::input(format!("cannot read script {}: {e}", path.display())),
            )?)),
            None => Box::new(std::io::stdin().lock()),
        };
        let interactive = args.script.is_none() && std::io::stdin().is_terminal();
        return crate::cmd_lines::play(args, input, interactive);
    }
    // Every game `play` takes, Lines included (the board games' parser does not know it).
    let kind = parse_game(&args.game).map_err(|_| {
        let mut names: Vec<&str> = <AnyGame as MatchGame>::kinds()
            .iter()
            .map(|k| k.name())
            .collect();
        names.push(GameKind::Lines.name());
        CliError::input(format!(
            "unknown game `{}`: use {}",
            args.game,
            names.join(" or ")
        ))
    })?;
    refuse_foreign(
        &[
            ("--balls", args.balls != 5),
            ("--no-undo", args.no_undo),
            ("--preview", args.preview),
            ("--hint-playouts", args.hint_playouts.is_some()),
            ("--best-scores", args.best_scores.is_some()),
        ],
        "for Lines only: add --game lines",
    )?;
    let human = parse_color(&args.color)?;
    let mut settings = Settings::new(kind, human, args.level).map_err(CliError::input)?;
    // The rule sets the phones offer (banco_app's presets); the usual ones without --rules.
    if let Some(name) = &args.rules {
        settings.rules = presets::find(kind, name).map_err(|e| match e {
            presets::PresetError::NoChoice { .. } => CliError::input(format!("--rules {e}")),
            presets::PresetError::Unknown { .. } => CliError::input(e.to_string()),
        })?;
    }
    settings.fen.clone_from(&args.fen);
    if let Some(f) = &args.fen {
        crate::ui::note_fen(kind, f);
    }
    settings.movetime_ms = args.movetime.max(1);
    let input: Box<dyn BufRead> = match &args.script {
        Some(path) => Box::new(std::io::BufReader::new(std::fs::File::open(path).map_err(
            |e| CliError::input(format!("cannot read script {}: {e}", path.display())),
        )?)),
        None => Box::new(std::io::stdin().lock()),
    };
    let interactive = args.script.is_none() && std::io::stdin().is_terminal();
    settings.seed = args.seed.unwrap_or_else(|| {
        if interactive {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        } else {
            0x5EED
        }
    });
    // Jieqi's reveals: from the system's randomness, unless a seed makes the game repeat.
    settings.chance_seed = args.seed;
    let SessionKeep {
        mut keep,
        notice: no_data_dir,
        kept,
    } = open_keep(KeptGame::Board, args, interactive)?;
    let vs = match (&kept, &keep) {
        (Some(bytes), Some(k)) => VsComputer::resume(bytes, &settings)
            .map_err(|e| CliError::input(format!("cannot continue {}: {e}", k.path().display())))?,
        _ => VsComputer::new(settings.clone()).map_err(|e| match e {
            ActionError::Setup(why) => CliError::input(why),
            other => CliError::input(other),
        })?,
    };
    let kind = vs.game().kind();
    let example = match kind {
        GameKind::Chess => "e4, Nf3, e2e4",
        GameKind::Jieqi => "h2e2",
        _ => "h2e2, C2.5, 炮二平五",
    };
    outln!(
        "Banco {kind} — {}. Type a move ({example}) or `help`.",
        side_and_level(&vs)
    );
    if let Some(notice) = no_data_dir {
        outln!("{notice}");
    }
    if args.resume {
        if let Some(keep) = &mut keep {
            keep.tell_off();
        }
        match vs.outcome() {
            Some(outcome) => outln!(
                "the kept game of {} is over ({outcome}): here it is for review (undo takes moves back, new starts a game)",
                moves_text(vs.game())
            ),
            None => outln!("continuing the kept game: {}", moves_text(vs.game())),
        }
        not_applied_with_continue(args, &vs);
    } else if let Some(keep) = &mut keep {
        keep.tell_off();
        keep.announce_waiting(&|b| board_found(b, &settings));
    }
    play_session(
        vs,
        settings,
        Style::detect(args.no_color),
        args.hash,
        !interactive,
        input,
        keep,
    )
}

/// `--game`, `--level`, `--color` and `--rules` given with `--continue`, when they differ
/// from the kept game's: the kept game's apply, and the player is told so (a default given
/// again cannot be told from none: only the others are named).
fn not_applied_with_continue(args: &PlayArgs, vs: &VsComputer) {
    let kind = vs.game().kind();
    let state = vs.state();
    let mut given = Vec::new();
    if args.game != "xiangqi" && GameKind::from_name(&args.game) != Some(kind) {
        given.push(format!("--game {}", args.game));
    }
    if args.level != 5 && args.level != state.level {
        given.push(format!("--level {}", args.level));
    }
    if args.color != "red" && parse_color(&args.color).ok() != Some(vs.human()) {
        given.push(format!("--color {}", args.color));
    }
    if let Some(rules) = &args.rules {
        given.push(format!("--rules {rules}"));
    }
    if given.is_empty() {
        return;
    }
    outln!(
        "{} {} not apply with --continue: the kept game is {kind}, you play {} at level {} (`level N` changes the level)",
        given.join(", "),
        if given.len() == 1 { "does" } else { "do" },
        color_name(kind, vs.human()).to_lowercase(),
        state.level
    );
}

/// Refuses the options of another game than the one played rather than ignoring them
/// silently (a default given again cannot be told from none): `options` are the options'
/// names and whether each was given, `why` ends the message.
fn refuse_foreign(options: &[(&str, bool)], why: &str) -> Result<(), CliError> {
    let given: Vec<&str> = options
        .iter()
        .filter_map(|&(name, given)| given.then_some(name))
        .collect();
    if given.is_empty() {
        return Ok(());
    }
    Err(CliError::input(format!(
        "{} {} {why}",
        given.join(", "),
        if given.len() == 1 { "is" } else { "are" }
    )))
}

/// Where a new game of `settings` started elsewhere (`banco edit`'s `play`) is kept, as
/// `banco play` keeps its games: the file `named`, else at the keyboard (`interactive`) the
/// data directory's `last-game`; the player is told what waits there, or why the game is
/// not kept.
pub(crate) fn keep_new_game(
    named: Option<&std::path::Path>,
    interactive: bool,
    settings: &Settings,
) -> Option<Keep> {
    let mut keep = match keep::session_keep(
        KeptGame::Board,
        named,
        interactive,
        crate::ui::data_dir(None),
    ) {
        Ok(keep) => keep?,
        Err(notice) => {
            outln!("{notice}");
            return None;
        }
    };
    keep.tell_off();
    keep.announce_waiting(&|b| board_found(b, settings));
    Some(keep)
}

/// Plays `vs` in the terminal until the input ends or `quit` (also "play from here" of
/// `banco edit`).
pub(crate) fn play_session(
    vs: VsComputer,
    settings: Settings,
    style: Style,
    hash_mib: usize,
    echo: bool,
    input: Box<dyn BufRead + '_>,
    keep: Option<Keep>,
) -> Result<(), CliError> {
    let mut session = Session::new(vs, settings, style, hash_mib, echo);
    session.keep = keep;
    if let (Some(keep), Ok(bytes)) = (&mut session.keep, session.vs.save()) {
        keep.start(bytes);
    }
    session.play(input)
}

/// Plays a puzzle try (`banco puzzles play`): `mode` is the try as it starts, before
/// [`VsComputer::start_puzzle`], so that `new` can start it afresh.
pub(crate) fn puzzle_session(
    mode: PuzzleMode,
    movetime_ms: u64,
    settings: Settings,
    style: Style,
    echo: bool,
    input: Box<dyn BufRead + '_>,
) -> Result<(), CliError> {
    let vs = VsComputer::start_puzzle(mode.clone(), movetime_ms).map_err(CliError::input)?;
    let mut session = Session::new(vs, settings, style, 16, echo);
    session.puzzle_start = Some((mode, movetime_ms));
    session.play(input)
}

impl Session {
    /// A session of `vs`, nothing kept and no puzzle to start again.
    fn new(vs: VsComputer, settings: Settings, style: Style, hash_mib: usize, echo: bool) -> Self {
        Session {
            vs,
            puzzle_start: None,
            settings,
            style,
            engine: AnyEngine::new(hash_mib),
            announced: false,
            echo,
            keep: None,
        }
    }

    /// Shows the board and plays until the input ends or `quit`; the game is kept (if
    /// `keep` says where) as the session ends.
    fn play(&mut self, input: Box<dyn BufRead + '_>) -> Result<(), CliError> {
        self.show();
        let result = self.run(input);
        self.keep_game(true);
        result
    }

    fn kind(&self) -> GameKind {
        self.vs.game().kind()
    }

    fn show(&self) {
        let view = self.vs.state().board;
        out!("{}", board::render_view(&view, self.style));
        out!("{}", board::render_pools(&view));
        if self.vs.outcome().is_none() {
            let side = self.vs.game().side_to_move();
            let name = color_name(self.kind(), side);
            match self.kind() {
                GameKind::Xiangqi => outln!(
                    "{name} ({}) to move",
                    if side == Color::Red { "帥" } else { "將" }
                ),
                _ => outln!("{name} to move"),
            }
            // The goal on the player's turn; on the defender's only when the last move is
            // known to fail ("no mate with your last move"): "mate in N more moves" there
            // would promise a mate the defence may yet show slipped (then taken back).
            if let Some(p) = &self.vs.state().puzzle
                && !p.solved
                && (side == self.vs.human() || p.moves_left == 0)
            {
                outln!(
                    "puzzle {}: {} (hints {}, wrong moves {})",
                    p.name,
                    p.goal(),
                    p.hints_used,
                    p.wrong_moves
                );
            }
            // The rules let the player end the game now, or with the next move: say so
            // (chess's threefold repetition and fifty-move rule are claimed, not automatic).
            if let Some(hint) = claim_hint(&self.vs.state()) {
                outln!("{hint}");
            }
        }
    }

    fn run(&mut self, mut input: Box<dyn BufRead + '_>) -> Result<(), CliError> {
        let mut line = String::new();
        loop {
            self.puzzle_notice();
            if let Some(outcome) = self.vs.outcome() {
                if !self.announced {
                    self.announce(outcome);
                }
            } else if let Some(request) = self.vs.search_request()
                && request.job == Job::Move
            {
                self.computer_move();
                continue;
            }
            let prompt = format!(
                "{}> ",
                color_name(self.kind(), self.vs.human()).to_lowercase()
            );
            self.keep_game(false);
            let Some(text) = read_command(&mut input, &prompt, &mut line, self.echo)? else {
                return Ok(());
            };
            if let Flow::Quit = self.command(text) {
                return Ok(());
            }
        }
    }

    /// Writes the game to the `--keep` file when it changed; `leaving`: say, as the
    /// session ends, where the kept game is.
    fn keep_game(&mut self, leaving: bool) {
        let Some(keep) = &mut self.keep else {
            return;
        };
        if let Ok(bytes) = self.vs.save() {
            keep.write(bytes);
        }
        if leaving {
            keep.farewell(self.vs.game().ply(), self.vs.outcome().is_some());
        }
    }

    /// The player played on: from now on the game replaces a kept one (see [`Keep`]).
    fn played_on(&mut self) {
        if let Some(keep) = &mut self.keep {
            keep.release();
        }
    }

    /// What a puzzle try has to tell once: a wrong move taken back, or the puzzle solved.
    fn puzzle_notice(&mut self) {
        let Some(notice) = self.vs.state().puzzle.and_then(|p| p.notice) else {
            return;
        };
        let text = |m: &MoveInfo| m.text(Notation::Coordinate);
        match notice {
            PuzzleNotice::WrongMoveTakenBack { played, reply } => match reply {
                Some(r) => outln!(
                    "{} lets the mate slip ({} escapes): taken back, try again",
                    text(&played),
                    text(&r)
                ),
                None => outln!(
                    "{} ends the game without mate: taken back, try again",
                    text(&played)
                ),
            },
            PuzzleNotice::Solved {
                hints_used,
                wrong_moves,
            } => {
                // The mating move's board is already drawn, with its check.
                outln!("solved! (hints {hints_used}, wrong moves {wrong_moves})");
                outln!("`next` goes on to the next unsolved puzzle, `new` tries this one again");
                self.vs.clear_notice();
                return;
            }
        }
        self.vs.clear_notice();
        self.show();
    }

    fn announce(&mut self, outcome: Outcome) {
        self.announced = true;
        outln!(
            "game over: {}",
            banco_app::result::announcement(self.kind(), outcome)
        );
        outln!(
            "result {} fen {}",
            outcome.score_text(),
            MatchGame::fen(self.vs.game())
        );
    }

    fn command(&mut self, text: &str) -> Flow {
        let mut words = text.split_whitespace();
        let Some(word) = words.next() else {
            return Flow::Continue;
        };
        let arg = words.collect::<Vec<_>>().join(" ");
        match word.to_ascii_lowercase().as_str() {
            "quit" | "exit" | "q" => return Flow::Quit,
            "help" | "?" => {
                outln!("{}", help(self.kind()));
                if self.vs.state().puzzle.is_some() {
                    outln!(
                        "puzzle:    new starts this puzzle afresh, next goes on to the next unsolved one;\n           claim and resign do not apply"
                    );
                }
            }
            "board" => self.show(),
            "fen" => outln!("{}", MatchGame::fen(self.vs.game())),
            "flip" => {
                self.vs.flip();
                self.show();
            }
            "undo" => match self.vs.undo() {
                Ok(()) => {
                    self.announced = false;
                    self.show();
                }
                Err(_) => outln!("nothing to undo"),
            },
            "redo" => match self.vs.redo() {
                Ok(()) => self.show(),
                Err(_) => outln!("nothing to redo"),
            },
            "hint" => self.hint(),
            "level" => match arg.parse::<u8>().map(|n| self.vs.set_level(n)) {
                Ok(Ok(())) => outln!("level {arg}"),
                _ => outln!("say a level from 1 to 10, like `level 7`"),
            },
            "save" => self.save(&arg),
            "load" => self.load(&arg),
            "claim" if arg.is_empty() => match self.vs.claim_draw() {
                Ok(()) => {}
                Err(e) => outln!("{e}"),
            },
            "claim" => match self.vs.claim_draw_with_text(&arg) {
                Ok(info) => {
                    self.played_on();
                    print_move("you play", &info);
                    outln!("and claim a draw");
                }
                Err(ActionError::Move(e @ banco_app::error::MoveError::Illegal(_))) => {
                    outln!("illegal move: {e}");
                }
                Err(e) => outln!("{e}"),
            },
            "resign" => {
                if let Err(e) = self.vs.resign() {
                    outln!("{e}");
                }
            }
            "new" if self.vs.state().puzzle.is_some() => self.restart_puzzle(false),
            "next" if self.vs.state().puzzle.is_some() => self.restart_puzzle(true),
            "new" => match VsComputer::new(self.next_settings()) {
                Ok(vs) => {
                    self.settings = self.next_settings();
                    self.vs = vs;
                    self.announced = false;
                    self.engine.clear();
                    if let Some(keep) = &mut self.keep {
                        let settings = &self.settings;
                        keep.new_game(&|b| board_found(b, settings));
                    }
                    self.show();
                }
                Err(e) => outln!("{e}"),
            },
            _ => self.human_move(text),
        }
        Flow::Continue
    }

    /// `new` in a puzzle try: the same puzzle afresh (no wrong moves, no hints yet);
    /// `next`: the collection's next unsolved puzzle (banco-app's [`PuzzleMode::next`]).
    fn restart_puzzle(&mut self, next: bool) {
        let Some((mode, movetime)) = &self.puzzle_start else {
            outln!("this puzzle cannot be started again here");
            return;
        };
        let (mode, movetime) = if next {
            match mode.next() {
                Ok(m) => (m, *movetime),
                Err(e) => {
                    outln!("{e}");
                    return;
                }
            }
        } else {
            (mode.clone(), *movetime)
        };
        match VsComputer::start_puzzle(mode.clone(), movetime) {
            Ok(vs) => {
                self.vs = vs;
                self.announced = false;
                self.engine.clear();
                let p = mode.puzzle();
                let id = mode.id().unwrap_or(&p.name);
                let again = if next { "" } else { " again" };
                outln!(
                    "Puzzle {id}{again}: {} mates in {}.",
                    color_name(p.kind, self.vs.human()),
                    p.mate_in
                );
                self.puzzle_start = Some((mode, movetime));
                self.show();
            }
            Err(e) => outln!("{e}"),
        }
    }

    /// The settings of a new game: the game played now as the player has it (a level set
    /// with `level`, the colour, rules and game of a loaded file), from the start position
    /// the session was given when it is that game's.
    fn next_settings(&self) -> Settings {
        let mut settings = self.settings.clone();
        let kind = self.vs.game().kind();
        if kind != settings.kind {
            settings.kind = kind;
            settings.fen = None;
        }
        settings.human = self.vs.human();
        settings.level = self.vs.state().level;
        settings.rules = self.vs.rules();
        settings
    }

    fn human_move(&mut self, text: &str) {
        if let Some(outcome) = self.vs.outcome() {
            outln!("the game is over ({outcome}): undo, new, load or quit");
            return;
        }
        let mv = match notation::parse_move(self.vs.game(), text, None) {
            Ok(mv) => mv,
            Err(e @ banco_app::error::MoveError::Illegal(_)) => {
                outln!("illegal move: {e}");
                return;
            }
            Err(e) => {
                outln!("{e}; `help` lists the commands");
                return;
            }
        };
        match self.vs.play(mv) {
            Ok(info) => {
                self.played_on();
                print_move("you play", &info);
                self.show();
            }
            Err(e) => outln!("{e}"),
        }
    }

    /// Answers the search the game asks for (banco-app's [`answer::run`]: in a puzzle the
    /// longest defence or the proven mate's move), within the game's time per move.
    fn answer(&mut self, request: &SearchRequest) -> SearchAnswer {
        let stop = AtomicBool::new(false);
        answer::run(&mut self.engine, request, &Limits::default(), &stop)
    }

    fn computer_move(&mut self) {
        let Some(request) = self.vs.search_request() else {
            return;
        };
        eprint!("banco (level {}) is thinking…\r", request.level.number());
        let found = self.answer(&request);
        eprint!("{:60}\r", "");
        let ply = self.vs.game().ply();
        if self.vs.answer_done(request.id, &found) {
            // The move with what it revealed, if it turned a jieqi piece over; in a puzzle
            // the reply to a wrong move is taken back with it at once, so it is described
            // on the position it was played in, not read from the board. A draw the
            // computer claimed on the board comes without a move.
            let stands = self.vs.game().ply() > ply;
            let claimed = self.vs.state().draw_claimed_by == Some(self.vs.human().other());
            let played = if stands {
                notation::describe_last(self.vs.game())
            } else if claimed {
                None
            } else {
                found
                    .best_move()
                    .map(|m| notation::describe(&request.game, m))
            };
            if let Some(info) = played {
                print_move("banco plays", &info);
                if let SearchAnswer::Engine(result) = &found {
                    outln!(
                        "  (depth {}, {} nodes, score {} for banco)",
                        result.depth,
                        result.nodes,
                        result.score
                    );
                }
            }
            if let (true, Some(Outcome::Draw { reason })) = (claimed, self.vs.outcome()) {
                outln!("banco claims a draw ({})", reason.text());
            }
            // Taken back: the puzzle's notice follows, with the board as it is now.
            if stands {
                self.show();
            }
        }
    }

    fn hint(&mut self) {
        if let Err(e) = self.vs.hint() {
            outln!("{e}");
            return;
        }
        let Some(request) = self.vs.search_request() else {
            return;
        };
        let found = self.answer(&request);
        self.vs.answer_done(request.id, &found);
        // The hint as banco-app settles it (a puzzle's is its proven mate's move).
        let Some(hint) = self.vs.state().hint else {
            outln!("no hint found within the search budget");
            return;
        };
        print_move("hint:", &hint);
        if let SearchAnswer::Engine(result) = &found {
            let pv: Vec<String> = result.pv.iter().map(ToString::to_string).collect();
            outln!("  score {} pv {}", result.score, pv.join(" "));
        }
    }
}

/// `who e2e4 (e4)`: coordinates first, then the game's other notations (xiangqi: WXF,
/// then Chinese).
pub(crate) fn print_move(who: &str, info: &MoveInfo) {
    let others: Vec<String> = info
        .texts
        .iter()
        .filter(|(n, _)| *n != Notation::Coordinate)
        .map(|(_, t)| t.clone())
        .rev()
        .collect();
    if others.is_empty() {
        outln!("{who} {}", info.text(Notation::Coordinate));
    } else {
        outln!(
            "{who} {} ({})",
            info.text(Notation::Coordinate),
            others.join(" ")
        );
    }
    if let Some(text) = &info.announcement {
        outln!("  {text}");
    }
}

/// The moves a game has had, as players count them — a move of each side is one move:
/// `1 move (2 plies)`, `2 moves (3 plies)`, `no moves`; a jieqi reveal is part of the step
/// that turned the piece over, not a ply of its own. Every count of a game's moves the
/// terminal prints says it this way.
pub(crate) fn moves_text(game: &AnyGame) -> String {
    let plies = game
        .history()
        .iter()
        .filter(|m| !matches!(m, AnyMove::Jieqi(JieqiMove::Reveal(_))))
        .count();
    let moves = plies.div_ceil(2);
    match plies {
        0 => "no moves".to_owned(),
        _ => format!(
            "{moves} move{} ({plies} pl{})",
            if moves == 1 { "" } else { "s" },
            if plies == 1 { "y" } else { "ies" }
        ),
    }
}

/// `you play red against level 8`: the player's side and the computer's level in effect.
pub(crate) fn side_and_level(vs: &VsComputer) -> String {
    format!(
        "you play {} against level {}",
        color_name(vs.game().kind(), vs.human()).to_lowercase(),
        vs.state().level
    )
}
