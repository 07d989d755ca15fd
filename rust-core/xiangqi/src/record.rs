//! Saved games: a compact, versioned binary record (postcard) and a readable text export.
//!
//! ```
//! use banco_xiangqi::{record::GameRecord, RuleSet, Xiangqi};
//! use banco_game::Game;
//! let mut game = Xiangqi::new();
//! for mv in ["h2e2", "h9g7", "h0g2"] {
//!     game.play(mv.parse().unwrap()).unwrap();
//! }
//! let record = GameRecord::new(&game, RuleSet::asian());
//! let bytes = record.to_bytes();
//! assert!(bytes.len() < 20); // magic, version, rules, 3 moves
//! let back = GameRecord::from_bytes(&bytes).unwrap();
//! assert_eq!(back.replay().unwrap().fen(), game.fen());
//! let text = record.to_text();
//! assert!(text.contains("1. h2e2 {C2.5} h9g7 {H8+7}"));
//! assert_eq!(GameRecord::from_text(&text).unwrap(), back);
//! assert!(GameRecord::from_bytes(b"garbage").is_err());
//! ```
//!
//! ## Binary layout (version 1)
//!
//! `B N C O` (magic), one version byte, then the postcard encoding of: game kind (`u8`,
//! 0 = xiangqi), rules (`u8` repetition rule 0 Asian / 1 casual, `u8` repetitions, varint
//! no-capture plies), the start FEN (`Option<String>`, `None` for the start position), the
//! moves played (varint `u16` wire codes, `from × 90 + to`), the moves that were taken back
//! and may be redone, and free-form tags (name/value string pairs). Decoding validates the
//! FEN and every move, so a record that loads is a legal game.

use crate::fen::{self, FenError};
use crate::game::Xiangqi;
use crate::moves::Move;
use crate::notation::{Iccs, Wxf};
use crate::position::Position;
use crate::rules::{RepetitionRule, RuleSet};
use banco_game::Game;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// First bytes of a binary record.
pub const MAGIC: [u8; 4] = *b"BNCO";
/// Current binary version.
pub const VERSION: u8 = 1;
/// Largest record accepted (a game is never near this).
pub const MAX_RECORD_BYTES: usize = 256 * 1024;

/// A saved game: rules, start position, the moves played and those that can be redone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The rule set the game is played under.
    pub rules: RuleSet,
    /// Where the game started.
    pub start: Position,
    /// Moves played, in order.
    pub moves: Vec<Move>,
    /// Moves taken back, most recently undone LAST (redo pops from the end).
    pub redo: Vec<Move>,
    /// Free-form tags (players, level, date, …).
    pub tags: Vec<(String, String)>,
}

/// Why a record could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Not a Banco saved game.
    #[error("not a Banco saved game (the file does not start with BNCO)")]
    NotARecord,
    /// Saved by a newer Banco.
    #[error(
        "saved game version {0} is newer than this Banco reads (version {VERSION}); update Banco"
    )]
    NewerVersion(u8),
    /// Larger than any real game.
    #[error("saved game is {0} bytes, more than the {MAX_RECORD_BYTES} a game can take")]
    TooLarge(usize),
    /// The bytes are damaged.
    #[error("saved game is damaged: {0}")]
    Corrupt(String),
    /// A game kind this build does not know.
    #[error("saved game is of an unknown game kind {0}")]
    UnknownKind(u8),
    /// The start position is not valid.
    #[error("saved game has a bad start position: {0}")]
    Fen(#[from] FenError),
    /// A move does not fit the game.
    #[error("saved game move {index} ({text}) is not legal there")]
    IllegalMove {
        /// 1-based index of the move.
        index: usize,
        /// The move as written.
        text: String,
    },
    /// The text export is malformed.
    #[error("saved game text, line {line}: {what}")]
    Text {
        /// 1-based line.
        line: usize,
        /// What is wrong.
        what: String,
    },
}

#[derive(Serialize, Deserialize)]
struct Wire {
    kind: u8,
    rules: (u8, u8, u16),
    start_fen: Option<String>,
    moves: Vec<u16>,
    redo: Vec<u16>,
    tags: Vec<(String, String)>,
}

fn rules_code(r: RuleSet) -> (u8, u8, u16) {
    let rep = match r.repetition {
        RepetitionRule::Asian => 0,
        RepetitionRule::Casual => 1,
    };
    (rep, r.repetitions, r.no_capture_plies)
}

fn rules_from_code((rep, repetitions, plies): (u8, u8, u16)) -> Result<RuleSet, RecordError> {
    let repetition = match rep {
        0 => RepetitionRule::Asian,
        1 => RepetitionRule::Casual,
        other => {
            return Err(RecordError::Corrupt(format!(
                "unknown repetition rule {other}"
            )));
        }
    };
    if repetitions < 2 {
        return Err(RecordError::Corrupt(format!(
            "repetition count {repetitions} below 2"
        )));
    }
    Ok(RuleSet {
        repetition,
        repetitions,
        no_capture_plies: plies,
    })
}

impl GameRecord {
    /// The record of a game (its redo list empty).
    #[must_use]
    pub fn new(game: &Xiangqi, rules: RuleSet) -> GameRecord {
        GameRecord {
            rules,
            start: game.start_position().clone(),
            moves: game.moves().collect(),
            redo: Vec::new(),
            tags: Vec::new(),
        }
    }

    /// Replays the moves from the start position.
    pub fn replay(&self) -> Result<Xiangqi, RecordError> {
        let mut game = Xiangqi::from_position(self.start.clone());
        for (i, &mv) in self.moves.iter().enumerate() {
            game.play(mv).map_err(|_| RecordError::IllegalMove {
                index: i + 1,
                text: mv.to_string(),
            })?;
        }
        // The redo moves must be playable in turn after the played ones.
        let mut scratch = game.clone();
        for (i, &mv) in self.redo.iter().rev().enumerate() {
            scratch.play(mv).map_err(|_| RecordError::IllegalMove {
                index: self.moves.len() + i + 1,
                text: mv.to_string(),
            })?;
        }
        Ok(game)
    }

    /// The binary record.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let start_fen = (self.start != Position::startpos()).then(|| fen::to_fen(&self.start));
        let wire = Wire {
            kind: 0,
            rules: rules_code(self.rules),
            start_fen,
            moves: self.moves.iter().map(|m| m.to_wire()).collect(),
            redo: self.redo.iter().map(|m| m.to_wire()).collect(),
            tags: self.tags.clone(),
        };
        let mut out = MAGIC.to_vec();
        out.push(VERSION);
        // Serialising plain vectors and strings into a Vec cannot fail.
        out.extend(postcard::to_allocvec(&wire).unwrap_or_default());
        out
    }

    /// Reads a binary record and checks that it is a legal game.
    pub fn from_bytes(bytes: &[u8]) -> Result<GameRecord, RecordError> {
        if bytes.len() > MAX_RECORD_BYTES {
            return Err(RecordError::TooLarge(bytes.len()));
        }
        let rest = bytes.strip_prefix(&MAGIC).ok_or(RecordError::NotARecord)?;
        let (&version, body) = rest.split_first().ok_or(RecordError::NotARecord)?;
        if version > VERSION {
            return Err(RecordError::NewerVersion(version));
        }
        if version == 0 {
            return Err(RecordError::Corrupt("version 0".to_owned()));
        }
        let (wire, extra): (Wire, &[u8]) =
            postcard::take_from_bytes(body).map_err(|e| RecordError::Corrupt(e.to_string()))?;
        if !extra.is_empty() {
            return Err(RecordError::Corrupt(format!(
                "{} stray bytes at the end",
                extra.len()
            )));
        }
        if wire.kind != 0 {
            return Err(RecordError::UnknownKind(wire.kind));
        }
        let start = match &wire.start_fen {
            Some(text) => fen::parse(text)?,
            None => Position::startpos(),
        };
        let decode = |codes: &[u16], offset: usize| -> Result<Vec<Move>, RecordError> {
            codes
                .iter()
                .enumerate()
                .map(|(i, &c)| {
                    Move::from_wire(c).ok_or(RecordError::IllegalMove {
                        index: offset + i + 1,
                        text: format!("code {c}"),
                    })
                })
                .collect()
        };
        let record = GameRecord {
            rules: rules_from_code(wire.rules)?,
            start,
            moves: decode(&wire.moves, 0)?,
            redo: decode(&wire.redo, wire.moves.len())?,
            tags: wire.tags,
        };
        record.replay()?;
        Ok(record)
    }

    /// A readable export: tag lines, then numbered moves in coordinates with WXF in braces.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "[Game \"xiangqi\"]");
        let _ = writeln!(s, "[Rules \"{}\"]", self.rules.text());
        if self.start != Position::startpos() {
            let _ = writeln!(s, "[FEN \"{}\"]", fen::to_fen(&self.start));
        }
        for (k, v) in &self.tags {
            let _ = writeln!(
                s,
                "[{} \"{}\"]",
                k.replace(['[', ']', '"', ' '], "_"),
                v.replace('"', "'")
            );
        }
        if !self.redo.is_empty() {
            let redo: Vec<String> = self.redo.iter().map(ToString::to_string).collect();
            let _ = writeln!(s, "[Redo \"{}\"]", redo.join(" "));
        }
        let mut pos = self.start.clone();
        let mut number = u32::from(pos.fullmoves());
        let mut line = String::new();
        for (i, &mv) in self.moves.iter().enumerate() {
            if i == 0 || pos.side_to_move() == banco_game::Color::Red {
                if !line.is_empty() {
                    line.push(' ');
                }
                let dots = if pos.side_to_move() == banco_game::Color::Red {
                    "."
                } else {
                    "..."
                };
                let _ = write!(line, "{number}{dots}");
            }
            let wxf = Wxf::from_move(&pos, mv);
            let _ = write!(line, " {mv} {{{wxf}}}");
            if pos.side_to_move() == banco_game::Color::Black {
                number += 1;
            }
            pos.make(mv);
            if line.len() > 72 {
                let _ = writeln!(s, "{line}");
                line.clear();
            }
        }
        if !line.is_empty() {
            let _ = writeln!(s, "{line}");
        }
        s
    }

    /// Reads a text export (as written by [`GameRecord::to_text`]; moves in coordinates,
    /// `{…}` comments and move numbers ignored) and checks that it is a legal game.
    pub fn from_text(text: &str) -> Result<GameRecord, RecordError> {
        let mut rules = RuleSet::asian();
        let mut start = Position::startpos();
        let mut tags = Vec::new();
        let mut redo_text = String::new();
        let mut moves = Vec::new();
        for (n, raw) in text.lines().enumerate() {
            let line_no = n + 1;
            let err = |what: String| RecordError::Text {
                line: line_no,
                what,
            };
            let line = raw.trim();
            if line.is_empty() {
                continue;
            }
            if let Some(inner) = line.strip_prefix('[') {
                let inner = inner
                    .strip_suffix(']')
                    .ok_or_else(|| err("a tag line must end with ]".to_owned()))?;
                let (key, value) = inner
                    .split_once(' ')
                    .ok_or_else(|| err("a tag needs a name and a quoted value".to_owned()))?;
                let value = value.trim().trim_matches('"').to_owned();
                match key {
                    "Game" if value != "xiangqi" => {
                        return Err(err(format!("game `{value}` is not xiangqi")));
                    }
                    "Game" => {}
                    "Rules" => {
                        rules = RuleSet::parse_text(&value)
                            .ok_or_else(|| err(format!("unknown rules `{value}`")))?;
                    }
                    "FEN" => start = fen::parse(&value)?,
                    "Redo" => redo_text = value,
                    _ => tags.push((key.to_owned(), value)),
                }
                continue;
            }
            let mut rest = line;
            while !rest.is_empty() {
                rest = rest.trim_start();
                if let Some(after) = rest.strip_prefix('{') {
                    let end = after
                        .find('}')
                        .ok_or_else(|| err("unclosed {".to_owned()))?;
                    rest = &after[end + 1..];
                    continue;
                }
                let end = rest
                    .find(|c: char| c.is_whitespace() || c == '{')
                    .unwrap_or(rest.len());
                let word = &rest[..end];
                rest = &rest[end..];
                if word.is_empty()
                    || word
                        .trim_end_matches('.')
                        .chars()
                        .all(|c| c.is_ascii_digit())
                {
                    continue;
                }
                let iccs: Iccs = word
                    .parse()
                    .map_err(|e: crate::ParseIccsError| err(e.to_string()))?;
                moves.push(iccs.0);
            }
        }
        let redo = redo_text
            .split_whitespace()
            .map(|w| w.parse::<Iccs>().map(|i| i.0))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| RecordError::Text {
                line: 0,
                what: e.to_string(),
            })?;
        let record = GameRecord {
            rules,
            start,
            moves,
            redo,
            tags,
        };
        record.replay()?;
        Ok(record)
    }
}
