//! Move notations of every game: coordinates for all (ICCS `h2e2` for xiangqi, UCI `e2e4`
//! for chess), WXF and Chinese for xiangqi, SAN for chess; reading what a person types and
//! writing a move in each, and [`describe`] for a move with all its names.
//!
//! Jieqi is written in coordinates only (a face-down piece has no name for WXF or
//! Chinese): a step `h2e2`, a reveal `=R` (the identity drawn), and in move lists a step
//! with the reveal that followed it, `h2e2=R`. [`describe_last`] describes the last step
//! with what it revealed and announces it ("cannon h2 revealed: rook").
//!
//! ```
//! use banco_app::{any::AnyGame, notation::{self, Notation}};
//! use banco_game::GameKind;
//! let game = AnyGame::new(GameKind::Xiangqi)?;
//! let mv = notation::parse_move(&game, "炮二平五", None)?;
//! assert_eq!(notation::write_move(&game, mv, Notation::Wxf), "C2.5");
//! assert_eq!(notation::write_move(&game, mv, Notation::Coordinate), "h2e2");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::any::{AnyGame, AnyMove};
use crate::error::MoveError;
use crate::pieces::{PieceInfo, PieceKind};
use banco_game::{Color, Game, GameKind, MatchGame as _};
use banco_xiangqi::notation::{MoveTextError, parse_any};
use banco_xiangqi::{Chinese, Iccs, Wxf};

/// A way to write moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// From and to squares: ICCS `h2e2` (xiangqi), UCI `e2e4`, `e7e8q` (chess).
    Coordinate,
    /// WXF, `C2.5` (xiangqi).
    Wxf,
    /// Chinese, `炮二平五` (xiangqi).
    Chinese,
    /// Standard algebraic notation, `Nf3`, `exd5`, `O-O` (chess).
    San,
}

impl Notation {
    /// Lower-case name (`coordinate`, `wxf`, `chinese`, `san`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Coordinate => "coordinate",
            Notation::Wxf => "WXF",
            Notation::Chinese => "Chinese",
            Notation::San => "SAN",
        }
    }
}

/// The notations of a game, the one to show moves in first; none for Lines, whose moves
/// (`a1e5`) banco-lines reads itself.
#[must_use]
pub fn notations(kind: GameKind) -> &'static [Notation] {
    match kind {
        GameKind::Xiangqi => &[Notation::Chinese, Notation::Wxf, Notation::Coordinate],
        GameKind::Jieqi => &[Notation::Coordinate],
        GameKind::Chess => &[Notation::San, Notation::Coordinate],
        GameKind::Lines => &[],
    }
}

fn hint(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Chess => "SAN (e4, Nf3, O-O, e8=Q) or coordinates (e2e4, e7e8q)",
        GameKind::Jieqi => "coordinates (h2e2)",
        _ => "coordinates (h2e2), WXF (C2.5, H8+7) or Chinese (炮二平五)",
    }
}

fn wrong(game: &AnyGame, notation: Notation) -> MoveError {
    MoveError::WrongNotation {
        notation: notation.name(),
        game: game.kind().name(),
    }
}

/// Reads a move typed by a person, in `notation` or (with `None`) in any notation of the
/// game, and resolves it against the current position.
pub fn parse_move(
    game: &AnyGame,
    text: &str,
    notation: Option<Notation>,
) -> Result<AnyMove, MoveError> {
    let text = text.trim();
    let unreadable = || MoveError::Unreadable {
        text: text.chars().take(64).collect(),
        hint: hint(game.kind()),
    };
    if text.len() > 64 {
        return Err(unreadable());
    }
    let illegal = |e: &dyn std::fmt::Display| MoveError::Illegal(e.to_string());
    match game {
        AnyGame::Xiangqi(g) => {
            let pos = g.position();
            let mv = match notation {
                None => parse_any(pos, text).map_err(|e| match e {
                    MoveTextError::Unreadable(_) => unreadable(),
                    MoveTextError::Illegal(i) => illegal(&i),
                })?,
                Some(Notation::Coordinate) => text
                    .parse::<Iccs>()
                    .map_err(|_| unreadable())?
                    .to_move(pos)
                    .map_err(|e| illegal(&e))?,
                Some(Notation::Wxf) => text
                    .parse::<Wxf>()
                    .map_err(|_| unreadable())?
                    .to_move(pos)
                    .map_err(|e| illegal(&e))?,
                Some(Notation::Chinese) => text
                    .parse::<Chinese>()
                    .map_err(|_| unreadable())?
                    .to_move(pos)
                    .map_err(|e| illegal(&e))?,
                Some(n @ Notation::San) => return Err(wrong(game, n)),
            };
            Ok(AnyMove::Xiangqi(mv))
        }
        AnyGame::Chess(g) => {
            let mv = match notation {
                None => g.parse_move(text).map_err(|e| match e {
                    banco_chess::MoveTextError::Unreadable(_) => unreadable(),
                    banco_chess::MoveTextError::Illegal(i) => illegal(&i),
                })?,
                Some(Notation::Coordinate) => text
                    .parse::<banco_chess::uci::Uci>()
                    .map_err(|_| unreadable())?
                    .to_move(g)
                    .map_err(|e| illegal(&e))?,
                Some(Notation::San) => text
                    .parse::<banco_chess::san::San>()
                    .map_err(|_| unreadable())?
                    .to_move(g)
                    .map_err(|e| illegal(&e))?,
                Some(n @ (Notation::Wxf | Notation::Chinese)) => return Err(wrong(game, n)),
            };
            Ok(AnyMove::Chess(mv))
        }
        AnyGame::Jieqi(g) => {
            if let Some(n @ (Notation::Wxf | Notation::Chinese | Notation::San)) = notation {
                return Err(wrong(game, n));
            }
            let mv: banco_xiangqi::jieqi::JieqiMove = text.parse().map_err(|_| unreadable())?;
            if g.is_legal(mv) {
                return Ok(AnyMove::Jieqi(mv));
            }
            let pos = g.position();
            let own = mv
                .step()
                .and_then(|step| Some((step.to(), pos.piece_at(step.to())?)))
                .filter(|(_, p)| p.color == pos.side_to_move());
            Err(MoveError::Illegal(match own {
                Some((to, p)) => {
                    let what = if p.hidden {
                        "face-down piece"
                    } else {
                        p.kind.name()
                    };
                    format!("{mv} is not a legal move here: {to} is taken by your own {what}")
                }
                None => format!("{mv} is not a legal move in this position"),
            }))
        }
    }
}

/// A legal move written in `notation` as played from the current position (a notation
/// that is not the game's gives coordinates).
#[must_use]
pub fn write_move(game: &AnyGame, mv: AnyMove, notation: Notation) -> String {
    match (game, mv) {
        (AnyGame::Xiangqi(g), AnyMove::Xiangqi(m)) => match notation {
            Notation::Wxf => Wxf::from_move(g.position(), m).to_string(),
            Notation::Chinese => Chinese::from_move(g.position(), m).to_string(),
            Notation::Coordinate | Notation::San => m.to_string(),
        },
        (AnyGame::Chess(g), AnyMove::Chess(m)) => match notation {
            Notation::San => g.san(m),
            _ => g.uci(m),
        },
        (_, m) => m.to_string(),
    }
}

/// A move with everything a front end shows about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveInfo {
    /// The move.
    pub mv: AnyMove,
    /// Ply count after the move (1 for the first move of the game). A jieqi step described
    /// with the reveal that followed it ([`describe_last`]) counts the reveal too, as the
    /// game's record and its ply count do: the first step that turns a piece over is 2.
    pub ply: u32,
    /// Who played it.
    pub by: Color,
    /// From square index.
    pub from: u8,
    /// To square index.
    pub to: u8,
    /// Promotion piece, if any.
    pub promotion: Option<PieceKind>,
    /// The piece that moved.
    pub piece: Option<PieceInfo>,
    /// The piece captured, if any.
    pub captured: Option<PieceInfo>,
    /// True if the move gives check.
    pub gives_check: bool,
    /// The move in each of the game's notations, in [`notations`] order.
    pub texts: Vec<(Notation, String)>,
    /// Jieqi: the identity a face-down piece turned out to be when this step (or this
    /// reveal) turned it over; `None` before the reveal and in other games.
    pub revealed: Option<PieceInfo>,
    /// Jieqi: the reveal in words, "cannon h2 revealed: rook" (the kind the piece moved
    /// as, the square it left, what it is).
    pub announcement: Option<String>,
}

impl MoveInfo {
    /// The move in `notation` (coordinates if the game does not use it).
    #[must_use]
    pub fn text(&self, notation: Notation) -> String {
        self.texts
            .iter()
            .find(|(n, _)| *n == notation)
            .map_or_else(|| self.mv.to_string(), |(_, t)| t.clone())
    }

    /// The move in the game's main notation (Chinese for xiangqi, SAN for chess).
    #[must_use]
    pub fn main_text(&self) -> String {
        self.texts
            .first()
            .map_or_else(|| self.mv.to_string(), |(_, t)| t.clone())
    }
}

/// Describes a legal move as played from the current position of `game`. A jieqi reveal
/// (the game awaits it) is described on the square of the piece it turns over, with
/// [`MoveInfo::revealed`] and the announcement.
#[must_use]
pub fn describe(game: &AnyGame, mv: AnyMove) -> MoveInfo {
    let (from, to, promotion) = game.move_parts(mv);
    let mut after = game.clone();
    let gives_check = after.play(mv).is_ok() && after.in_check();
    let reveal = reveal_kind(mv);
    // While a reveal is pending the side to move is already the other one.
    let by = if game.awaits_chance() {
        game.side_to_move().other()
    } else {
        game.side_to_move()
    };
    let mut info = MoveInfo {
        mv,
        ply: game.ply() + 1,
        by,
        from,
        to,
        promotion,
        piece: game.piece_at(from),
        captured: if reveal.is_some() {
            None
        } else {
            captured(game, mv)
        },
        gives_check,
        texts: notations(game.kind())
            .iter()
            .map(|&n| (n, write_move(game, mv, n)))
            .collect(),
        revealed: None,
        announcement: None,
    };
    if let Some(kind) = reveal {
        // The step that moved the piece: the last move of the game.
        let left = game
            .history()
            .last()
            .map_or(from, |&step| game.move_parts(step).0);
        set_revealed(game, &mut info, left, kind);
    }
    info
}

use crate::jieqi::revealed_kind as reveal_kind;

/// Fills in what a face-down piece of `info.by` that left square `left` turned out to be.
fn set_revealed(game: &AnyGame, info: &mut MoveInfo, left: u8, kind: PieceKind) {
    let revealed = crate::pieces::piece_info(game.kind(), info.by, kind);
    let moved_as = info.piece.as_ref().map_or("piece", |p| p.kind.name());
    info.announcement = Some(format!(
        "{moved_as} {} revealed: {}",
        game.square_name(left),
        kind.name()
    ));
    info.revealed = revealed;
}

/// The last move of `game`, described from the position before it; in jieqi the last
/// step with the reveal that followed it ([`MoveInfo::revealed`], the announcement,
/// `gives_check` after the reveal, and [`MoveInfo::ply`] counting the reveal: `game`'s
/// ply), or a pending step as it stands. `None` at the start.
#[must_use]
pub fn describe_last(game: &AnyGame) -> Option<MoveInfo> {
    let mut before = game.clone();
    let last = before.undo_move()?;
    let Some(kind) = reveal_kind(last) else {
        return Some(describe(&before, last));
    };
    let step = before.undo_move()?;
    let mut info = describe(&before, step);
    let from = info.from;
    set_revealed(game, &mut info, from, kind);
    info.gives_check = game.in_check();
    // The step and its reveal are two plies of the record: the step ends after both.
    info.ply = game.ply();
    Some(info)
}

fn captured(game: &AnyGame, mv: AnyMove) -> Option<PieceInfo> {
    let (_, to, _) = game.move_parts(mv);
    game.piece_at(to).filter(|p| p.color != game.side_to_move())
}

/// The moves of a game from its start, in `notation`; in jieqi a reveal is joined to the
/// step before it (`h2e2=R`), so that the list alternates between the players.
#[must_use]
pub fn history_text(game: &AnyGame, notation: Notation) -> Vec<String> {
    let mut replay = game.restarted();
    let mut out: Vec<String> = Vec::new();
    for mv in game.history() {
        let text = write_move(&replay, mv, notation);
        match (reveal_kind(mv), out.last_mut()) {
            (Some(_), Some(step)) => step.push_str(&text),
            _ => out.push(text),
        }
        if replay.play(mv).is_err() {
            break;
        }
    }
    out
}

/// The full-move number of the move about to be played in `game` (its FEN's, at least 1).
pub fn move_number(game: &AnyGame) -> u32 {
    game.fen()
        .split_whitespace()
        .nth(5)
        .and_then(|n| n.parse::<u32>().ok())
        .unwrap_or(1)
        .max(1)
}

/// A move list as a player reads it, a full move a line: `1. e4 e5`, `2. Nf3`. When the
/// first move was the second player's (a puzzle, a set-up position, a PGN from a FEN), the
/// first line is `1... Nf6` (with the position's number). `after` is the position the moves
/// led to, `moves` one text a move ([`history_text`]: a jieqi reveal joined to its step).
pub fn numbered_lines(after: &AnyGame, moves: &[String]) -> Vec<String> {
    numbered_lines_at(after.side_to_move(), move_number(after), moves)
}

/// [`numbered_lines`] for a position known by its side to move and full-move number only
/// (a position that cannot be read: `Red` and the moves' count numbers from `1.`).
pub fn numbered_lines_at(side_to_move: Color, move_number: u32, moves: &[String]) -> Vec<String> {
    let black_to_move = side_to_move == Color::Black;
    // Plies from the start of the numbering (1. for the first player) to the position.
    let ply = u64::from(move_number.max(1) - 1) * 2 + u64::from(black_to_move);
    let played = u64::try_from(moves.len()).unwrap_or(u64::MAX);
    let first_black = black_to_move != (played % 2 == 1);
    // A FEN whose number is too small for the moves counts from 1.
    let mut number = if ply >= played {
        (ply - played) / 2 + 1
    } else {
        1
    };
    let mut lines = Vec::new();
    let mut rest = moves;
    if first_black && let Some((first, tail)) = moves.split_first() {
        lines.push(format!("{number}... {first}"));
        number += 1;
        rest = tail;
    }
    for pair in rest.chunks(2) {
        lines.push(format!("{number}. {}", pair.join(" ")));
        number += 1;
    }
    lines
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn texts(moves: &[&str]) -> Vec<String> {
        moves.iter().map(|m| (*m).to_owned()).collect()
    }

    #[test]
    fn numbered_lines_from_the_start_and_after_a_black_first_move() {
        let mut g = AnyGame::new(GameKind::Chess).unwrap();
        assert!(numbered_lines(&g, &[]).is_empty());
        for m in ["e2e4", "e7e5", "g1f3"] {
            let mv = parse_move(&g, m, None).unwrap();
            g.play(mv).unwrap();
        }
        assert_eq!(
            numbered_lines(&g, &texts(&["e4", "e5", "Nf3"])),
            ["1. e4 e5", "2. Nf3"]
        );
        // Black moved first, from move 7 of a set-up position.
        let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 7";
        let mut g = AnyGame::from_fen(GameKind::Chess, fen).unwrap();
        for m in ["e8d8", "e2e4", "d8c8"] {
            let mv = parse_move(&g, m, None).unwrap();
            g.play(mv).unwrap();
        }
        assert_eq!(
            numbered_lines(&g, &texts(&["Kd8", "e4", "Kc8"])),
            ["7... Kd8", "8. e4 Kc8"]
        );
        // Xiangqi: Black to move first in a puzzle numbered 1.
        let fen = "4k4/9/9/9/9/9/9/9/4A4/4K4 b - - 0 1";
        let mut g = AnyGame::from_fen(GameKind::Xiangqi, fen).unwrap();
        let mv = parse_move(&g, "e9d9", None).unwrap();
        g.play(mv).unwrap();
        assert_eq!(numbered_lines(&g, &texts(&["k5=4"])), ["1... k5=4"]);
    }

    #[test]
    fn a_move_number_too_small_for_the_moves_counts_from_one() {
        // Five moves before a position that says move 1, White to move: Black moved first.
        let g = AnyGame::new(GameKind::Chess).unwrap();
        assert_eq!(
            numbered_lines(&g, &texts(&["a", "b", "c", "d", "e"])),
            ["1... a", "2. b c", "3. d e"]
        );
    }

    #[test]
    #[allow(clippy::panic)]
    fn a_step_onto_ones_own_piece_names_it() {
        let why = |kind, text| match parse_move(&AnyGame::new(kind).unwrap(), text, None) {
            Err(MoveError::Illegal(why)) => why,
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(
            why(GameKind::Xiangqi, "K5=6"),
            "K5.6 is not a legal move here: d0 is taken by your own advisor"
        );
        assert_eq!(
            why(GameKind::Jieqi, "e0d0"),
            "e0d0 is not a legal move here: d0 is taken by your own face-down piece"
        );
        assert_eq!(
            why(GameKind::Chess, "a1a2"),
            "a1a2 is not a legal move here: your own pawn stands on a2"
        );
    }
}
