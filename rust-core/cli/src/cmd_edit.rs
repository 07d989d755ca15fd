//! `banco edit`: the position editor in the terminal, over banco-app's `Editor` — place and
//! remove pieces (in jieqi face-down ones too, and the pieces captured face up that its
//! pools leave out), side to move, castling and en passant (chess), flip; every problem of
//! the position is listed after each change; `play` starts a game against the computer from
//! the position, `solve` proves a mate. Commands come from the keyboard or, when standard
//! input is not a terminal, from a script (each echoed after the prompt).

use crate::CliError;
use crate::cmd_play::{parse_color, parse_game};
use crate::ui::board::{self, Style};
use crate::ui::read_command;
use banco_app::board::{BoardView, CellView};
use banco_app::computer::{Settings, VsComputer};
use banco_app::editor::{Brush, Editor, EditorView};
use banco_app::pieces::{PieceKind, piece_kinds};
use banco_game::{Color, GameKind};
use std::collections::BTreeSet;
use std::io::IsTerminal;

/// `banco edit`.
#[derive(clap::Args, Debug)]
pub(crate) struct EditArgs {
    /// The game: xiangqi, chess or jieqi.
    #[arg(long, default_value = "xiangqi")]
    game: String,
    /// Start from this position (any board, legal or not); default the start position.
    #[arg(long)]
    fen: Option<String>,
    /// Start from an empty board.
    #[arg(long)]
    empty: bool,
    /// No colours.
    #[arg(long)]
    no_color: bool,
    /// Where the game played from the position (`play`) is kept after every move, as
    /// `banco play` keeps its game, for `banco play --continue` (default at the keyboard:
    /// `last-game` in the data directory, as `banco play`'s; none when the input is piped).
    #[arg(long, value_name = "FILE")]
    keep: Option<std::path::PathBuf>,
}

const HELP: &str = "commands:
  place PIECE SQUARE   a piece by FEN letter (R rook of the first player, c cannon of the
                       second; xiangqi KABNRCP, chess KQRBNP), `red rook`, or as the board
                       draws it (俥, 車, ♕), on a square (e2); jieqi: X (x) or `red
                       face-down` for a face-down piece, which moves as its square's piece
  remove SQUARE        clear      start      side w|b      flip
  castle KQkq|-        ep SQUARE|-   (chess)
  captured COLOR PIECE N  (jieqi) N of COLOR's PIECE were captured face up: its pool,
                       otherwise every piece not face up on the board, leaves them out
  fen                  the position as FEN     check   every problem of the position
  play [LEVEL] [COLOR] play the computer from here (level 1-10, your colour, in either order; default 5, the side to move)
  solve [MAX]          prove a forced mate for the side to move (up to MAX moves, default 9)
  board, help, quit";

/// How a command that takes words is said, for one given with too few or too many.
fn usage(word: &str) -> Option<&'static str> {
    Some(match word {
        "place" | "put" => "`place PIECE SQUARE`, like `place R e1` or `place red rook e1`",
        "remove" | "rm" => "`remove SQUARE`, like `remove e1`",
        "side" => "`side w` or `side b`",
        "castle" => "`castle KQkq` (the rights kept, any of the letters) or `castle -`",
        "ep" => "`ep SQUARE` (like `ep d6`) or `ep -`",
        "solve" => "`solve` or `solve MAX` (moves, like `solve 5`)",
        "captured" => "`captured COLOR PIECE N`, like `captured black rook 1`",
        _ => return None,
    })
}

/// The editor's board as the terminal board view draws it.
fn board_view(v: &EditorView) -> BoardView {
    BoardView {
        kind: v.kind,
        width: v.width,
        height: v.height,
        flipped: v.flipped,
        on_lines: v.kind != GameKind::Chess,
        lines: Vec::new(),
        river_after_row: banco_app::board::river_after_row(v.kind, v.height),
        promotion: None,
        cells: v
            .cells
            .iter()
            .map(|c| CellView {
                column: c.column,
                row: c.row,
                square: c.square,
                name: c.name.clone(),
                piece: c.piece.clone(),
                selected: false,
                target: false,
                last_move: c.problem,
                hint: false,
                check: false,
                dark: c.dark,
            })
            .collect(),
        pool_sides: banco_app::jieqi::pool_sides(&v.pools, v.flipped),
        pools: v.pools.clone(),
    }
}

/// A piece from `R`, `c`, `red rook`, `black cannon`, or a glyph the board draws (`車`,
/// `傌`, `♕`; xiangqi and jieqi also take the simplified forms of the board's characters:
/// `帅`, `将`, `马`, `车`, `伡`, `㐷`); in jieqi a face-down piece from `X`, `x` or
/// `red face-down`.
fn parse_piece(kind: GameKind, words: &[&str]) -> Option<Brush> {
    if kind == GameKind::Jieqi {
        match words {
            ["X"] => return Some(Brush::FaceDown(Color::Red)),
            ["x"] => return Some(Brush::FaceDown(Color::Black)),
            [color, down] if is_face_down(down) => {
                return parse_color(color).ok().map(Brush::FaceDown);
            }
            _ => {}
        }
    }
    parse_kind(kind, words).map(Brush::from)
}

/// A word for a face-down piece.
fn is_face_down(word: &str) -> bool {
    matches!(
        word.to_ascii_lowercase().as_str(),
        "face-down" | "facedown" | "hidden" | "down"
    )
}

/// A face-up piece (see [`parse_piece`]).
fn parse_kind(kind: GameKind, words: &[&str]) -> Option<(Color, PieceKind)> {
    let xiangqi = matches!(kind, GameKind::Xiangqi | GameKind::Jieqi);
    match words {
        [letter] if letter.chars().count() == 1 => {
            let ch = letter.chars().next()?;
            if let Some(piece) = piece_of_glyph(kind, ch) {
                return Some(piece);
            }
            let color = if ch.is_ascii_uppercase() {
                Color::Red
            } else {
                Color::Black
            };
            let want = ch.to_ascii_lowercase();
            let alias = match (xiangqi, want) {
                (true, 'h') => 'n',
                (true, 'e') => 'b',
                (_, c) => c,
            };
            piece_kinds(kind).iter().find_map(|&k| {
                let info = banco_app::pieces::piece_info(kind, Color::Black, k)?;
                (info.letter == alias).then_some((color, k))
            })
        }
        [color, name] => {
            let color = parse_color(color).ok()?;
            let name = name.to_ascii_lowercase();
            piece_kinds(kind)
                .iter()
                .find(|k| k.name() == name || (name == "chariot" && **k == PieceKind::Rook))
                .map(|&k| (color, k))
        }
        _ => None,
    }
}

/// The piece a board glyph stands for: the glyphs `banco` draws, and in xiangqi the
/// simplified forms of its characters (the simplified form of a character means what the
/// character means: `马` is `馬`, black's horse).
fn piece_of_glyph(kind: GameKind, ch: char) -> Option<(Color, PieceKind)> {
    let xiangqi = matches!(kind, GameKind::Xiangqi | GameKind::Jieqi);
    let ch = match (xiangqi, ch) {
        (true, '帅') => '帥',
        (true, '将') => '將',
        (true, '马') => '馬',
        (true, '车') => '車',
        (true, '伡') => '俥',
        (true, '㐷') => '傌',
        (_, c) => c,
    };
    [Color::Red, Color::Black].into_iter().find_map(|color| {
        piece_kinds(kind).iter().find_map(|&k| {
            let info = banco_app::pieces::piece_info(kind, color, k)?;
            (info.glyph == ch).then_some((color, k))
        })
    })
}

/// What the loop does after a command.
enum Flow {
    Continue,
    Quit,
    /// Play the computer from the position (the editor ends).
    Play(Box<VsComputer>, Settings),
}

struct EditSession {
    ed: Editor,
    style: Style,
}

pub(crate) fn edit_cmd(args: &EditArgs) -> Result<(), CliError> {
    let kind = parse_game(&args.game)?;
    let ed = match (&args.fen, args.empty) {
        (Some(f), _) => {
            crate::ui::note_fen(kind, f);
            Editor::from_fen(kind, f)
        }
        (None, true) => Editor::empty(kind),
        (None, false) => Editor::start(kind),
    }
    .map_err(CliError::input)?;
    let interactive = std::io::stdin().is_terminal();
    let mut s = EditSession {
        ed,
        style: Style::detect(args.no_color),
    };
    outln!("Banco position editor ({kind}). `help` lists the commands.");
    s.show();
    let mut input = std::io::stdin().lock();
    let mut line = String::new();
    loop {
        let Some(text) = read_command(&mut input, "edit> ", &mut line, !interactive)? else {
            return Ok(());
        };
        match s.command(text) {
            Flow::Continue => {}
            Flow::Quit => return Ok(()),
            Flow::Play(vs, settings) => {
                // Kept as `banco play` keeps its game: a new game, so a game kept earlier
                // waits until the player's first move.
                let keep =
                    crate::cmd_play::keep_new_game(args.keep.as_deref(), interactive, &settings);
                return crate::cmd_play::play_session(
                    *vs,
                    settings,
                    s.style,
                    16,
                    !interactive,
                    Box::new(&mut input),
                    keep,
                );
            }
        }
    }
}

impl EditSession {
    fn kind(&self) -> GameKind {
        self.ed.kind()
    }

    fn show(&self) {
        let view = self.ed.view();
        let board = board_view(&view);
        out!("{}", board::render_view(&board, self.style));
        out!("{}", board::render_pools(&board));
        if self.kind() == GameKind::Jieqi {
            self.captured_line();
        }
        outln!(
            "{} to move",
            banco_app::any::color_name(self.kind(), view.side_to_move)
        );
        self.problems();
    }

    fn problems(&self) {
        let problems = self.ed.problems();
        if problems.is_empty() {
            outln!("legal position: {}", self.ed.fen());
        } else {
            outln!("{} problem(s):", problems.len());
            for p in problems {
                outln!("  - {}", p.text);
            }
        }
    }

    fn square(&self, name: &str) -> Option<u8> {
        let sq = self.ed.square_named(name);
        if sq.is_none() {
            outln!("`{name}` is not a square of this board (like e2)");
        }
        sq
    }

    /// Runs one command.
    fn command(&mut self, text: &str) -> Flow {
        let words: Vec<&str> = text.split_whitespace().collect();
        let Some((&first, rest)) = words.split_first() else {
            return Flow::Continue;
        };
        let word = first.to_ascii_lowercase();
        let changed = match (word.as_str(), rest) {
            ("quit" | "exit" | "q", _) => return Flow::Quit,
            ("help" | "?", _) => {
                outln!("{HELP}");
                false
            }
            ("board", _) => {
                self.show();
                false
            }
            ("fen", _) => {
                outln!("{}", self.ed.fen());
                false
            }
            ("check", _) => {
                self.problems();
                false
            }
            ("place" | "put", [piece @ .., sq]) if !piece.is_empty() => self.place(piece, sq),
            ("remove" | "rm", [sq]) => match self.square(sq).map(|s| self.ed.remove(s)) {
                Some(Ok(Some(_))) => true,
                Some(Ok(None)) => {
                    outln!("{sq} is empty");
                    false
                }
                _ => false,
            },
            ("clear", _) => {
                self.ed.clear();
                true
            }
            ("start", _) => self.ed.reset_to_start().is_ok(),
            ("side", [c]) => match parse_color(c) {
                Ok(c) => {
                    self.ed.set_side_to_move(c);
                    true
                }
                Err(CliError::Input(e) | CliError::Failure(e)) => {
                    outln!("{e}");
                    false
                }
            },
            ("flip", _) => {
                self.ed.flip();
                true
            }
            ("castle" | "ep", _) if self.kind() != GameKind::Chess => {
                outln!(
                    "`{word}` is for chess only: {} has no castling or en passant",
                    self.kind()
                );
                false
            }
            ("castle", [rights]) => {
                let letters_ok = !rights.is_empty()
                    && rights.chars().all(|c| "KQkq".contains(c))
                    && rights.chars().collect::<BTreeSet<_>>().len() == rights.len();
                if *rights != "-" && !letters_ok {
                    outln!(
                        "castling rights are `-` or letters of `KQkq` (K, Q: white king and queen side; k, q: black's), each once, not `{rights}`"
                    );
                    false
                } else {
                    for (color, king_side, letter) in [
                        (Color::Red, true, 'K'),
                        (Color::Red, false, 'Q'),
                        (Color::Black, true, 'k'),
                        (Color::Black, false, 'q'),
                    ] {
                        self.ed
                            .set_castling(color, king_side, rights.contains(letter));
                    }
                    true
                }
            }
            ("ep", [sq]) => {
                // A square that does not parse changes nothing (it was reported).
                let square = if *sq == "-" {
                    Some(None)
                } else {
                    self.square(sq).map(Some)
                };
                square.is_some_and(|s| self.ed.set_en_passant(s).is_ok())
            }
            ("play", args) => {
                if let Some((vs, settings)) = self.play(args) {
                    return Flow::Play(Box::new(vs), settings);
                }
                false
            }
            ("captured", [color, piece @ .., n]) if !piece.is_empty() => {
                self.captured(color, piece, n)
            }
            ("solve", []) => {
                self.solve(9);
                false
            }
            ("solve", [max]) => {
                match max.parse() {
                    Ok(n) if n >= 1 => self.solve(n),
                    _ => outln!("`{max}` is not a number of moves: say `solve` or `solve 5`"),
                }
                false
            }
            (other, _) => {
                // A command given the wrong number of words is told how it is said.
                match usage(other) {
                    Some(how) => outln!("say {how}"),
                    None => outln!("unknown command `{text}`; `help` lists the commands"),
                }
                false
            }
        };
        if changed {
            self.show();
        }
        Flow::Continue
    }

    /// `place PIECE SQUARE`; true when the piece was placed. A piece followed by more than
    /// one word is reported as too many words, not as an unknown piece.
    fn place(&mut self, piece: &[&str], sq: &str) -> bool {
        // `place red rook`: a whole piece and no square.
        let whole: Vec<&str> = piece.iter().copied().chain([sq]).collect();
        if self.ed.square_named(sq).is_none() && parse_piece(self.kind(), &whole).is_some() {
            outln!(
                "`place` needs a square after the piece, like `place {} e5`",
                whole.join(" ")
            );
            return false;
        }
        let Some(brush) = parse_piece(self.kind(), piece) else {
            let starts_with_piece =
                (1..piece.len().min(3)).any(|n| parse_piece(self.kind(), &piece[..n]).is_some());
            if starts_with_piece {
                outln!(
                    "`place` takes a piece and one square, like `place R e5` or `place red rook e5`: too many words in `place {} {sq}`",
                    piece.join(" ")
                );
            } else {
                outln!("`{}` is not a piece of {}", piece.join(" "), self.kind());
            }
            return false;
        };
        let Some(s) = self.square(sq) else {
            return false;
        };
        match self.ed.put(s, brush) {
            Ok(()) => true,
            Err(e) => {
                outln!("{e}");
                false
            }
        }
    }

    /// Jieqi: the pieces marked captured face up, if any.
    fn captured_line(&self) {
        let marked: Vec<String> = Color::ALL
            .into_iter()
            .flat_map(|color| {
                piece_kinds(self.kind()).iter().filter_map(move |&k| {
                    let n = self.ed.captured(color, k);
                    (n > 0).then(|| {
                        let side = banco_app::any::color_name(self.kind(), color).to_lowercase();
                        format!("{side} {} {n}", k.name())
                    })
                })
            })
            .collect();
        if !marked.is_empty() {
            outln!("captured face up: {}", marked.join(", "));
        }
    }

    /// `captured COLOR PIECE N` (jieqi); true when the count was set.
    fn captured(&mut self, color: &str, piece: &[&str], n: &str) -> bool {
        let Ok(side) = parse_color(color) else {
            outln!("`{color}` is not a colour: say `captured black rook 1`");
            return false;
        };
        // `rook`, or a letter or glyph (its case or colour is the colour's word's).
        let mut words = vec![color];
        words.extend_from_slice(piece);
        let named = parse_kind(self.kind(), &words).or_else(|| parse_kind(self.kind(), piece));
        let Some((_, kind)) = named else {
            outln!("`{}` is not a piece of {}", piece.join(" "), self.kind());
            return false;
        };
        let Ok(n) = n.parse::<u8>() else {
            outln!("`{n}` is not a number of pieces: say `captured black rook 1`");
            return false;
        };
        match self.ed.set_captured(side, kind, n) {
            Ok(()) => true,
            Err(e) => {
                outln!("{e}");
                false
            }
        }
    }

    /// `play [LEVEL] [COLOR]`, in either order; a word that is neither is reported.
    fn play(&self, args: &[&str]) -> Option<(VsComputer, Settings)> {
        let (mut level, mut human) = (None, None);
        for arg in args {
            if let (None, Ok(n)) = (level, arg.parse::<u8>()) {
                level = Some(n);
            } else if let (None, Ok(c)) = (human, parse_color(arg)) {
                human = Some(c);
            } else {
                outln!(
                    "`{arg}` is not a level (1-10) or a colour: say `play`, `play 7` or `play 7 {}`",
                    banco_app::any::color_name(self.kind(), Color::Black).to_lowercase()
                );
                return None;
            }
        }
        let level = level.unwrap_or(5);
        let human = human.unwrap_or(self.ed.side_to_move());
        let started = self.ed.vs_computer(human, level).and_then(|vs| {
            let mut settings = Settings::new(self.kind(), human, level)
                .map_err(|e| banco_app::editor::EditorError::Setup(e.to_string()))?;
            settings.fen = Some(vs.state().fen);
            Ok((vs, settings))
        });
        match started {
            Ok(pair) => {
                outln!(
                    "play from here: you are {} against level {level}",
                    banco_app::any::color_name(self.kind(), human).to_lowercase()
                );
                Some(pair)
            }
            Err(e) => {
                outln!("cannot play from here: {e}");
                None
            }
        }
    }

    fn solve(&self, max: u32) {
        match self.ed.solve(max) {
            Ok(found) => match found.mate {
                Some(n) => {
                    let line: Vec<String> = found.line.iter().map(ToString::to_string).collect();
                    outln!("mate in {n}: {}", line.join(" "));
                }
                None if found.aborted => outln!("no mate found within the search budget"),
                None => outln!("no mate in {max} or fewer"),
            },
            Err(e) => outln!("cannot solve: {e}"),
        }
    }
}
