//! `banco play`: xiangqi against the computer in the terminal.
//!
//! You type moves in coordinates (`h2e2`), WXF (`C2.5`, `C2=5`) or Chinese (`炮二平五`), and
//! commands: `undo`, `redo`, `hint`, `level N`, `save FILE`, `load FILE`, `fen`, `flip`,
//! `board`, `resign`, `new`, `help`, `quit`. With `--script FILE`, or when standard input is
//! not a terminal, the lines are read from there (each echoed after a `> ` prompt) and the
//! program ends at the end of the input.

use crate::CliError;
use crate::ui::board::{self, Style};
use crate::ui::files::write_atomic;
use banco_engine::{Level, Limits, XiangqiSearcher, level};
use banco_game::{Color, Game, Outcome, WinReason};
use banco_xiangqi::notation::{Chinese, MoveTextError, Wxf, parse_any};
use banco_xiangqi::record::{GameRecord, MAGIC};
use banco_xiangqi::{Move, Position, RuleSet, Xiangqi, fen};
use clap::Args;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// `banco play`.
#[derive(Args, Debug)]
pub(crate) struct PlayArgs {
    /// Start from a set-up position (FEN); it is validated and every problem is listed.
    #[arg(long)]
    fen: Option<String>,
    /// Computer level, 1 (beginner) to 10 (full strength).
    #[arg(long, default_value_t = 5)]
    level: u8,
    /// Your colour: red (moves first) or black.
    #[arg(long, default_value = "red")]
    color: String,
    /// Rule set: asian or casual.
    #[arg(long, default_value = "asian")]
    rules: String,
    /// Milliseconds the computer may think per move (levels below 10 stop earlier).
    #[arg(long, default_value_t = 1000)]
    movetime: u64,
    /// Seed of the computer's choices (default: different every game when interactive).
    #[arg(long)]
    seed: Option<u64>,
    /// Read moves and commands from this file instead of the keyboard.
    #[arg(long)]
    script: Option<PathBuf>,
    /// No colours.
    #[arg(long)]
    no_color: bool,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
}

const HELP: &str = "\
moves:     h2e2 (coordinates), C2.5 or C2=5 (WXF), 炮二平五 (Chinese)
commands:  undo, redo, hint, level N (1-10), save FILE, load FILE, fen, flip, board,
           resign, new, help, quit
saves:     FILE ending in .txt is a readable text export; anything else the compact record";

struct Session {
    game: Xiangqi,
    start: Position,
    rules: RuleSet,
    human: Color,
    level: Level,
    redo: Vec<Move>,
    resigned: Option<Color>,
    announced: bool,
    style: Style,
    searcher: XiangqiSearcher,
    seed: u64,
    movetime: u64,
    echo: bool,
}

enum Flow {
    Continue,
    Quit,
}

pub(crate) fn play(args: &PlayArgs) -> Result<(), CliError> {
    let rules = RuleSet::from_name(&args.rules).ok_or_else(|| {
        CliError::input(format!(
            "unknown rule set `{}`: use asian or casual",
            args.rules
        ))
    })?;
    let human = match args.color.to_ascii_lowercase().as_str() {
        "red" | "r" | "white" | "w" => Color::Red,
        "black" | "b" => Color::Black,
        other => {
            return Err(CliError::input(format!(
                "unknown colour `{other}`: use red or black"
            )));
        }
    };
    let level = Level::new(args.level).map_err(CliError::input)?;
    let start = match &args.fen {
        Some(text) => fen::parse(text).map_err(|e| CliError::input(format!("bad FEN: {e}")))?,
        None => Position::startpos(),
    };
    let input: Box<dyn BufRead> = match &args.script {
        Some(path) => Box::new(std::io::BufReader::new(std::fs::File::open(path).map_err(
            |e| CliError::input(format!("cannot read script {}: {e}", path.display())),
        )?)),
        None => Box::new(std::io::stdin().lock()),
    };
    let interactive = args.script.is_none() && std::io::stdin().is_terminal();
    let seed = args.seed.unwrap_or_else(|| {
        if interactive {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        } else {
            0x5EED
        }
    });
    let mut session = Session {
        game: Xiangqi::from_position(start.clone()),
        start,
        rules,
        human,
        level,
        redo: Vec::new(),
        resigned: None,
        announced: false,
        style: Style {
            flipped: human == Color::Black,
            ..Style::detect(args.no_color)
        },
        searcher: XiangqiSearcher::new(args.hash.clamp(1, 1024)),
        seed,
        movetime: args.movetime.max(1),
        echo: !interactive,
    };
    println!(
        "Banco xiangqi — you play {} against level {}. Type a move (h2e2, C2.5, 炮二平五) or `help`.",
        session.human,
        session.level.number()
    );
    session.show();
    session.run(input)
}

impl Session {
    fn outcome(&self) -> Option<Outcome> {
        if let Some(loser) = self.resigned {
            return Some(Outcome::Win {
                winner: loser.other(),
                reason: WinReason::Resignation,
            });
        }
        self.game.outcome(&self.rules)
    }

    fn last_move(&self) -> Option<Move> {
        self.game.moves().last()
    }

    fn show(&self) {
        print!(
            "{}",
            board::render(self.game.position(), self.last_move(), self.style)
        );
        if self.outcome().is_none() {
            println!("{}", board::turn_line(self.game.position()));
        }
    }

    fn run(&mut self, mut input: Box<dyn BufRead>) -> Result<(), CliError> {
        let mut line = String::new();
        loop {
            if let Some(outcome) = self.outcome() {
                if !self.announced {
                    self.announce(outcome);
                }
            } else if self.game.side_to_move() != self.human {
                self.computer_move();
                continue;
            }
            print!("{}> ", self.human);
            let _ = std::io::stdout().flush();
            line.clear();
            let read = input
                .read_line(&mut line)
                .map_err(|e| CliError::input(e.to_string()))?;
            if read == 0 {
                println!();
                return Ok(());
            }
            let text = line.trim();
            if self.echo {
                println!("{text}");
            }
            if let Flow::Quit = self.command(text) {
                return Ok(());
            }
        }
    }

    fn announce(&mut self, outcome: Outcome) {
        self.announced = true;
        let words = match outcome.winner() {
            Some(w) => format!("{w} wins by {}", outcome.reason_text()),
            None => format!("draw by {}", outcome.reason_text()),
        };
        println!("game over: {words}");
        println!("result {} fen {}", outcome.score_text(), self.game.fen());
    }

    fn command(&mut self, text: &str) -> Flow {
        let mut words = text.split_whitespace();
        let Some(word) = words.next() else {
            return Flow::Continue;
        };
        let arg = words.collect::<Vec<_>>().join(" ");
        match word.to_ascii_lowercase().as_str() {
            "quit" | "exit" | "q" => return Flow::Quit,
            "help" | "?" => println!("{HELP}"),
            "board" => self.show(),
            "fen" => println!("{}", self.game.fen()),
            "flip" => {
                self.style.flipped = !self.style.flipped;
                self.show();
            }
            "undo" => self.undo(),
            "redo" => self.redo(),
            "hint" => self.hint(),
            "level" => match arg.parse::<u8>().ok().and_then(|n| Level::new(n).ok()) {
                Some(l) => {
                    self.level = l;
                    println!("level {}", l.number());
                }
                None => println!("say a level from 1 to 10, like `level 7`"),
            },
            "save" => self.save(&arg),
            "load" => self.load(&arg),
            "resign" => {
                if self.outcome().is_some() {
                    println!("the game is already over");
                } else {
                    self.resigned = Some(self.human);
                }
            }
            "new" => {
                self.game = Xiangqi::from_position(self.start.clone());
                self.redo.clear();
                self.resigned = None;
                self.announced = false;
                self.show();
            }
            _ => self.human_move(text),
        }
        Flow::Continue
    }

    fn human_move(&mut self, text: &str) {
        if let Some(outcome) = self.outcome() {
            println!("the game is over ({outcome}): undo, new, load or quit");
            return;
        }
        match parse_any(self.game.position(), text) {
            Ok(mv) => {
                self.print_move("you play", mv);
                if self.game.play(mv).is_ok() {
                    self.redo.clear();
                    self.show();
                }
            }
            Err(e @ MoveTextError::Unreadable(_)) => println!("{e}; `help` lists the commands"),
            Err(e @ MoveTextError::Illegal(_)) => println!("illegal move: {e}"),
        }
    }

    fn print_move(&self, who: &str, mv: Move) {
        let pos = self.game.position();
        println!(
            "{who} {mv} ({} {})",
            Wxf::from_move(pos, mv),
            Chinese::from_move(pos, mv)
        );
    }

    fn computer_move(&mut self) {
        eprint!("banco (level {}) is thinking…\r", self.level.number());
        let stop = AtomicBool::new(false);
        let seed = self.seed ^ u64::from(self.game.ply());
        let result = level::play(
            &mut self.searcher,
            &self.game,
            &self.rules,
            self.level,
            &Limits::movetime(self.movetime),
            seed,
            &stop,
        );
        eprint!("{:60}\r", "");
        match result.best_move {
            Some(mv) => {
                self.print_move("banco plays", mv);
                println!(
                    "  (depth {}, {} nodes, score {} for banco)",
                    result.depth, result.nodes, result.score
                );
                let _ = self.game.play(mv);
                self.show();
            }
            None => {
                // No legal move: the outcome check reports mate or stalemate.
                self.announced = false;
            }
        }
    }

    fn undo(&mut self) {
        if self.game.ply() == 0 {
            println!("nothing to undo");
            return;
        }
        self.resigned = None;
        self.announced = false;
        while let Some(mv) = self.game.undo_move() {
            self.redo.push(mv);
            if self.game.side_to_move() == self.human || self.game.ply() == 0 {
                break;
            }
        }
        self.show();
    }

    fn redo(&mut self) {
        let Some(mv) = self.redo.pop() else {
            println!("nothing to redo");
            return;
        };
        if self.game.play(mv).is_err() {
            self.redo.clear();
            println!("cannot redo {mv} here");
            return;
        }
        if self.game.side_to_move() != self.human {
            if let Some(reply) = self.redo.pop() {
                if self.game.play(reply).is_err() {
                    self.redo.clear();
                }
            }
        }
        self.show();
    }

    fn hint(&mut self) {
        if self.outcome().is_some() {
            println!("the game is over");
            return;
        }
        let stop = AtomicBool::new(false);
        let result = self.searcher.search(
            &self.game,
            &self.rules,
            &Limits::movetime(self.movetime),
            &stop,
            |_| {},
        );
        if let Some(mv) = result.best_move {
            let pv: Vec<String> = result.pv.iter().map(ToString::to_string).collect();
            self.print_move("hint:", mv);
            println!("  score {} pv {}", result.score, pv.join(" "));
        }
    }

    fn save(&self, path: &str) {
        if path.is_empty() {
            println!("say where: `save mygame.banco` (or mygame.txt for text)");
            return;
        }
        let mut record = GameRecord::new(&self.game, self.rules);
        record.redo.clone_from(&self.redo);
        record
            .tags
            .push(("Level".to_owned(), self.level.number().to_string()));
        record
            .tags
            .push(("Human".to_owned(), self.human.to_string()));
        let path = Path::new(path);
        let bytes = if is_text_path(path) {
            record.to_text().into_bytes()
        } else {
            record.to_bytes()
        };
        match write_atomic(path, &bytes) {
            Ok(()) => println!("saved {} ({} bytes)", path.display(), bytes.len()),
            Err(e) => println!("could not save {}: {e}", path.display()),
        }
    }

    fn load(&mut self, path: &str) {
        if path.is_empty() {
            println!("say which file: `load mygame.banco`");
            return;
        }
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                println!("could not read {path}: {e}");
                return;
            }
        };
        let record = if bytes.starts_with(&MAGIC) {
            GameRecord::from_bytes(&bytes)
        } else {
            GameRecord::from_text(&String::from_utf8_lossy(&bytes))
        };
        match record.and_then(|r| r.replay().map(|g| (r, g))) {
            Ok((record, game)) => {
                self.start = record.start.clone();
                self.game = game;
                self.rules = record.rules;
                self.redo = record.redo;
                self.resigned = None;
                self.announced = false;
                println!("loaded {path}: {} moves", self.game.ply());
                self.show();
            }
            Err(e) => println!("could not load {path}: {e}"),
        }
    }
}

fn is_text_path(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("txt") || e.eq_ignore_ascii_case("pgn"))
}
