//! The one saved-game format of Banco, for every game and every front end (command line,
//! Kotlin, Swift): game, rules, start position, moves (chance outcomes are moves too), the
//! moves that can be redone, an ending the moves do not show (resignation, agreement), and
//! who played the computer at which level.
//!
//! ```text
//! offset  size  field
//! 0       8     magic 89 42 41 4E 43 4F 0D 0A ("\x89BANCO\r\n": binary, its own)
//! 8       1     format version: 5, written for every game since the checksum came, but
//!               6 for a Lines game whose spots are drawn at announcement (rules
//!               variant 4); the older ones are still read (1 a board game; 2 a Lines
//!               game, so that a build from before Lines said "saved by a newer Banco"
//!               instead of "damaged"; 3 a Lines game with turns taken back; 4 a Lines
//!               game with Lines 98's preview)
//! 9       ...   postcard encoding of the record below
//! end-4   4     (version 5 and later) CRC-32 (IEEE, little-endian) of every byte before
//!               it, magic and version included; nothing may follow
//!
//! record: game   u8        wire code of the game (0 xiangqi, 1 jieqi, 2 chess, 3 lines)
//!         rules  enum      0 = xiangqi and jieqi { repetition u8 (0 Asian, 1 casual),
//!                                        repetitions u8, no_capture_plies varint }
//!                          1 = chess { auto_claim bool }
//!                          2 = lines { start_balls u8 (3 or 5), undo u8 (0 off, 1 last
//!                                      turn, 2 unlimited) }
//!                          3 = lines with the preview { start_balls u8, undo u8, as 2 }
//!                          4 = lines with hidden spots { start_balls u8, undo u8, as 2 }
//!         start  string    FEN of the start position (lines: the spawn seed, 64 hex digits)
//!         moves  [u16]     the game's wire codes, in order (varints)
//!         redo   [u16]     taken-back moves, the next to redo LAST
//!         ending option<u32>  Outcome::code of an ending the moves do not show
//!         player option<{ color u8, level u8 }>  the person against the computer
//!         tags   [(string, string)]  free-form (names, date; jieqi's `Deal`)
//! ```
//!
//! The high first byte and the CR-LF of the magic catch a file mangled by a text-mode
//! transfer. The checksum catches the damage the rules cannot: a flipped bit that turns a
//! move into another legal one, or the resigning side into the other, is refused with
//! "its checksum does not match" (a CRC-32 catches every single-bit flip and every burst
//! of up to 32 bits). It is a new version rather than a tag because free tags travel: an
//! older build rewriting a record keeps them (dating it, a `.txt` export and its import),
//! so a checksum tag gone stale would have a sound file refused, and its exports would
//! show the tag. Format 5 is refused by older builds with "saved by a newer Banco". A
//! record of version 1 to 4 has no checksum and is read as before (so a flipped version
//! byte reads as a newer version, or as an older one whose record is followed by 4 stray
//! bytes: refused either way). Loading refuses oversize input, checks every field and
//! replays every move through the rules: a damaged or forged file is refused with a
//! reason, never half-loaded. The two older formats that both began with `BNCO` (the
//! command line's and the bindings', version 1) are still read, and no longer written.
//!
//! A jieqi game is a board game like the others: its moves include the reveals (wire
//! codes 8100 + kind), so loading replays the identities drawn during the game, exactly
//! as they came out. A game against the computer also keeps the player's own deal (the
//! pieces still face down) in a `Deal` tag, so that loading cannot draw them again; the
//! computer's are never saved ([`crate::jieqi`] says why). A tag needs no new version:
//! older builds read it as a free tag, and records without it still load.
//!
//! A Lines game is stored in the same record: its settings as the rules, its seed as the
//! start, its moves (`from × 81 + to`), and as `redo` the turns taken back since the last
//! move (so that a game whose one undo was spent loads without it). Loading replays them
//! through the rules, so the score, the board, the balls to come and the undo left are
//! exactly the saved game's. A game with Lines 98's preview is saved with the rules
//! variant 3 (before the checksum, with format version 4); its spots come back with the
//! replay. A classic game (no preview) whose balls' cells are drawn when they are
//! announced ([`banco_lines::SpawnRule::AtAnnouncement`], every game begun since
//! 2026-12-06) is saved with the rules variant 4 under format version 6, so that an older
//! build says "saved by a newer Banco" rather than replaying it with the wrong spawns;
//! variant 2 is a game of the rule before ([`banco_lines::SpawnRule::AtLanding`]), which
//! still loads and replays as it always did. Read it with
//! [`SavedLines::decode`] (or [`decode_any`]); [`SavedGame::decode`] refuses it with
//! [`SaveError::LinesGame`].
//!
//! ```
//! use banco_app::any::{AnyGame, AnyRules};
//! use banco_app::save::SavedGame;
//! use banco_game::{Game, GameKind};
//! let mut game = AnyGame::new(GameKind::Xiangqi)?;
//! let mv = game.legal_move_vec()[0];
//! game.play(mv)?;
//! let saved = SavedGame::of(&game, AnyRules::usual(GameKind::Xiangqi));
//! let bytes = saved.encode()?;
//! assert!(bytes.starts_with(b"\x89BANCO\r\n"));
//! let back = SavedGame::decode(&bytes)?;
//! let (restored, _rules) = back.restore()?;
//! assert_eq!(restored.history(), vec![mv]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::any::{AnyGame, AnyMove, AnyRules};
use banco_game::{Color, Game, GameKind, MatchGame, Outcome};
use banco_xiangqi::{RepetitionRule, RuleSet};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// The first bytes of every saved game.
pub const MAGIC: [u8; 8] = *b"\x89BANCO\r\n";
/// True when `bytes` begin as a Banco saved game: this format ([`MAGIC`], a Lines game's
/// too) or the older `BNCO` one. Text records (PGN, Banco's `.txt`) are not.
#[must_use]
pub fn is_save(bytes: &[u8]) -> bool {
    bytes.starts_with(&MAGIC) || bytes.starts_with(b"BNCO")
}

/// The format version of board games before the checksum (still read).
pub const VERSION: u8 = 1;
/// The format version of Lines games before the checksum (still read).
pub const VERSION_LINES: u8 = 2;
/// The format version of Lines games with turns taken back before the checksum (still
/// read).
pub const VERSION_LINES_TAKEN_BACK: u8 = 3;
/// The format version of Lines games with Lines 98's preview before the checksum (still
/// read).
pub const VERSION_LINES_PREVIEW: u8 = 4;
/// The format version written for every game but [`VERSION_SPOTS`]'s: the record is
/// followed by its CRC-32 ([`CHECKSUM_LEN`] bytes).
pub const VERSION_CHECKSUM: u8 = 5;
/// The format version of Lines games whose spots are drawn at announcement
/// ([`banco_lines::SpawnRule::AtAnnouncement`] without the preview: rules variant 4), and
/// the newest read; checksummed as [`VERSION_CHECKSUM`].
pub const VERSION_SPOTS: u8 = 6;
/// Bytes of the CRC-32 that ends a record of [`VERSION_CHECKSUM`] (and Lines' best scores
/// and puzzle progress of their own checksummed versions).
pub const CHECKSUM_LEN: usize = 4;
/// What [`SaveError::Damaged`] (and the other records' damage) says when the checksum
/// does not match.
pub const CHECKSUM_MISMATCH: &str =
    "its checksum does not match (a byte of the file was changed or corrupted)";

/// What the damage of a record cut short is called (a saved game, the puzzle progress).
pub const CUT_SHORT: &str = "the file ends before the record does (it was cut short)";

/// `out` followed by the CRC-32 of its bytes (little-endian).
pub(crate) fn seal(mut out: Vec<u8>) -> Vec<u8> {
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// The bytes before the CRC-32 that ends `bytes`, or `None` when it does not match them
/// (or `bytes` is too short to hold one).
pub(crate) fn unseal(bytes: &[u8]) -> Option<&[u8]> {
    let (data, crc) = bytes.split_at_checked(bytes.len().checked_sub(CHECKSUM_LEN)?)?;
    (crc32fast::hash(data).to_le_bytes().as_slice() == crc).then_some(data)
}

/// Largest saved game read (a real game is far smaller).
pub const MAX_BYTES: usize = 1 << 20;
/// Most moves (played plus redo) in a saved game.
pub const MAX_MOVES: usize = 20_000;
/// Most turns (played plus taken back) in a saved Lines game: two bytes each, well within
/// [`MAX_BYTES`] — a game of a player far beyond the best scores known still fits.
pub const MAX_LINES_MOVES: usize = 200_000;
/// Longest start FEN.
pub const MAX_FEN: usize = 512;
/// Most tags, and the longest name or value of one in bytes.
pub const MAX_TAGS: usize = 32;
/// Longest tag name or value, in bytes.
pub const MAX_TAG_LEN: usize = 256;

/// What a player is told to update to read a record of a newer Banco: set once by a front
/// end that is not an app ([`set_update_name`]).
static UPDATE_NAME: std::sync::OnceLock<&'static str> = std::sync::OnceLock::new();

/// Names what the player updates to read a newer Banco's record, in every message that says
/// so ([`SaveError::NewerVersion`], the puzzle progress's): "the app" unless a front end
/// sets another name once, as it starts (the command line: `banco`). Later calls change
/// nothing.
pub fn set_update_name(name: &'static str) {
    let _ = UPDATE_NAME.set(name);
}

/// What the player updates to read a newer Banco's record ([`set_update_name`]).
#[must_use]
pub fn update_name() -> &'static str {
    UPDATE_NAME.get().copied().unwrap_or("the app")
}

/// Why a saved game cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SaveError {
    /// The bytes are not a Banco saved game at all.
    #[error("this is not a Banco saved game")]
    NotASave,
    /// The file holds nothing (no tag, no move): not a game, not even an empty one.
    #[error("the file is empty: it holds no saved game")]
    Empty,
    /// The file was saved by a newer version of Banco.
    #[error(
        "this game was saved by a newer Banco (format {0}); update {app} to open it",
        app = update_name()
    )]
    NewerVersion(u8),
    /// The file is larger than any saved game.
    #[error("the file has {0} bytes, more than a saved game can have")]
    TooLarge(usize),
    /// A field is damaged.
    #[error("the saved game is damaged: {0}")]
    Damaged(String),
    /// The game is not played by this build.
    #[error("the saved game is of {0}, which this version does not play")]
    UnsupportedGame(String),
    /// The start position is not legal.
    #[error("the saved start position is not legal: {0}")]
    BadPosition(String),
    /// A move does not fit its position.
    #[error("move {number} is not legal in its position")]
    IllegalMove {
        /// 1-based number of the move in the record.
        number: usize,
    },
    /// The record is too big to write.
    #[error("the game is too long to save ({0})")]
    TooLong(String),
    /// A Lines game was opened as a board game.
    #[error("this is a saved Lines game: open it from Lines")]
    LinesGame,
    /// A board game was opened as a Lines game.
    #[error("this is a saved {0} game, not Lines")]
    NotLines(String),
    /// Something else (a text file, a saved game or another Banco record) was given where
    /// Lines' best-scores table was expected.
    #[error("this is not a file of Lines' best scores")]
    NotBestScores,
    /// Lines' best-scores table is cut short or corrupted.
    #[error("the best scores are damaged: {0}")]
    BestScoresDamaged(String),
    /// Lines' best-scores table was written by a newer version of Banco: not damaged.
    #[error(
        "the best scores were written by a newer Banco (format {0}); update {app} to add to them",
        app = update_name()
    )]
    BestScoresNewer(u8),
    /// Lines' best-scores file is larger than any table.
    #[error("the best-scores file has {0} bytes, more than a table of best scores can have")]
    BestScoresTooLarge(usize),
    /// A game that PGN does not record (jieqi: no reader takes its reveals).
    #[error(
        "{0} games have no PGN form that other programs read: save as .txt or the compact record"
    )]
    NoPgn(String),
}

/// What a player is told when the bytes of a record do not decode: the file was cut
/// short, or its bytes are corrupted (the decoder's own words, which name its internals,
/// are left out).
#[must_use]
pub fn damage_of(e: &postcard::Error) -> String {
    match e {
        postcard::Error::DeserializeUnexpectedEnd => CUT_SHORT.to_owned(),
        _ => "its bytes do not form a record (the file is corrupted)".to_owned(),
    }
}

/// The person playing the computer, kept so that "continue" resumes the same match-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Their colour (0 the first player, 1 the second).
    pub color: u8,
    /// The computer's level, 1–10.
    pub level: u8,
}

impl Player {
    /// The player's colour.
    #[must_use]
    pub fn color(&self) -> Color {
        if self.color == 0 {
            Color::Red
        } else {
            Color::Black
        }
    }
}

/// Rules as saved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum RulesRecord {
    Xiangqi {
        repetition: u8,
        repetitions: u8,
        no_capture_plies: u16,
    },
    Chess {
        auto_claim: bool,
    },
    Lines {
        start_balls: u8,
        undo: u8,
    },
    /// Lines with the preview (appended last: the other variants keep their bytes).
    LinesPreview {
        start_balls: u8,
        undo: u8,
    },
    /// Lines without the preview, spots drawn at announcement (appended last).
    LinesSpots {
        start_balls: u8,
        undo: u8,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Record {
    game: u8,
    rules: RulesRecord,
    start: String,
    moves: Vec<u16>,
    redo: Vec<u16>,
    ending: Option<u32>,
    player: Option<Player>,
    tags: Vec<(String, String)>,
}

/// A saved game, read or about to be written (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedGame {
    /// The game.
    pub kind: GameKind,
    /// Its rules.
    pub rules: AnyRules,
    /// FEN of the start position.
    pub start_fen: String,
    /// Wire codes of the moves played.
    pub moves: Vec<u16>,
    /// Wire codes of the moves taken back, the next to redo last.
    pub redo: Vec<u16>,
    /// An ending the moves do not show (resignation, agreement, timeout).
    pub ending: Option<Outcome>,
    /// The person against the computer, for "continue".
    pub player: Option<Player>,
    /// Free-form tags.
    pub tags: Vec<(String, String)>,
}

fn game_code(kind: GameKind) -> u8 {
    match kind {
        GameKind::Xiangqi => 0,
        GameKind::Jieqi => 1,
        GameKind::Chess => 2,
        GameKind::Lines => 3,
    }
}

fn game_of(code: u8) -> Option<GameKind> {
    GameKind::ALL.into_iter().find(|&k| game_code(k) == code)
}

impl SavedGame {
    /// The record of `game` under `rules` (no redo, ending, player or tags).
    #[must_use]
    pub fn of(game: &AnyGame, rules: AnyRules) -> SavedGame {
        SavedGame {
            kind: game.kind(),
            rules,
            start_fen: game.start_fen(),
            moves: game
                .history()
                .into_iter()
                .map(|m| game.encode_move(m))
                .collect(),
            redo: Vec::new(),
            ending: None,
            player: None,
            tags: Vec::new(),
        }
    }

    /// The bytes of this record.
    pub fn encode(&self) -> Result<Vec<u8>, SaveError> {
        if self.moves.len() + self.redo.len() > MAX_MOVES {
            return Err(SaveError::TooLong(format!(
                "{} moves, at most {MAX_MOVES}",
                self.moves.len() + self.redo.len()
            )));
        }
        if self.start_fen.len() > MAX_FEN {
            return Err(SaveError::TooLong("the start position".to_owned()));
        }
        let tags: Vec<(String, String)> = self
            .tags
            .iter()
            .take(MAX_TAGS)
            .map(|(k, v)| (cut(k), cut(v)))
            .collect();
        let rules = match self.rules {
            AnyRules::Xiangqi(r) | AnyRules::Jieqi(r) => RulesRecord::Xiangqi {
                repetition: match r.repetition {
                    RepetitionRule::Asian => 0,
                    RepetitionRule::Casual => 1,
                },
                repetitions: r.repetitions,
                no_capture_plies: r.no_capture_plies,
            },
            AnyRules::Chess(r) => RulesRecord::Chess {
                auto_claim: r.auto_claim,
            },
        };
        if self.kind == GameKind::Lines {
            return Err(SaveError::LinesGame);
        }
        let record = Record {
            game: game_code(self.kind),
            rules,
            start: self.start_fen.clone(),
            moves: self.moves.clone(),
            redo: self.redo.clone(),
            ending: self.ending.map(Outcome::code),
            player: self.player,
            tags,
        };
        encode_record(&record)
    }

    /// Reads a saved game (this format or an older Banco one). Only the syntax is checked
    /// here; [`SavedGame::restore`] replays the moves. A Lines game is refused with
    /// [`SaveError::LinesGame`] (see [`SavedLines`]).
    pub fn decode(bytes: &[u8]) -> Result<SavedGame, SaveError> {
        if bytes.len() > MAX_BYTES {
            return Err(SaveError::TooLarge(bytes.len()));
        }
        if bytes.starts_with(b"BNCO") {
            return crate::legacy::decode(bytes);
        }
        let record = parse(bytes)?;
        let kind = game_of(record.game)
            .ok_or_else(|| SaveError::UnsupportedGame(format!("game number {}", record.game)))?;
        let rules = match (kind, record.rules) {
            (
                GameKind::Xiangqi,
                RulesRecord::Xiangqi {
                    repetition,
                    repetitions,
                    no_capture_plies,
                },
            ) => AnyRules::Xiangqi(xiangqi_rules(repetition, repetitions, no_capture_plies)?),
            (
                GameKind::Jieqi,
                RulesRecord::Xiangqi {
                    repetition,
                    repetitions,
                    no_capture_plies,
                },
            ) => AnyRules::Jieqi(xiangqi_rules(repetition, repetitions, no_capture_plies)?),
            (GameKind::Chess, RulesRecord::Chess { auto_claim }) => {
                AnyRules::Chess(banco_chess::ChessRules { auto_claim })
            }
            (GameKind::Lines, _) => return Err(SaveError::LinesGame),
            (k, _) => {
                return Err(SaveError::Damaged(format!(
                    "rules of another game than {k}"
                )));
            }
        };
        let ending = match record.ending {
            None => None,
            Some(code) => Some(
                Outcome::from_code(code)
                    .ok_or_else(|| SaveError::Damaged(format!("unknown ending {code:#x}")))?,
            ),
        };
        if let Some(p) = record.player
            && (p.color > 1 || !(1..=10).contains(&p.level))
        {
            return Err(SaveError::Damaged(
                "the player's colour or level".to_owned(),
            ));
        }
        Ok(SavedGame {
            kind,
            rules,
            start_fen: record.start,
            moves: record.moves,
            redo: record.redo,
            ending,
            player: record.player,
            tags: record.tags,
        })
    }

    /// Replays the record through the rules: the game with every move played, and its
    /// rules. The redo moves are checked too (they must follow on from the last move).
    pub fn restore(&self) -> Result<(AnyGame, AnyRules), SaveError> {
        let mut game = AnyGame::setup(self.kind, Some(&self.start_fen)).map_err(|e| match e {
            banco_game::SetupError::Unsupported(k) => SaveError::UnsupportedGame(k.to_string()),
            banco_game::SetupError::BadPosition(why) => SaveError::BadPosition(why),
        })?;
        for (i, &code) in self.moves.iter().enumerate() {
            play_code(&mut game, code, i + 1)?;
        }
        let mut probe = game.clone();
        for (i, &code) in self.redo.iter().rev().enumerate() {
            play_code(&mut probe, code, self.moves.len() + i + 1)?;
        }
        Ok((game, self.rules))
    }

    /// The redo moves as moves of `game` (the game [`SavedGame::restore`] returned).
    #[must_use]
    pub fn redo_moves(&self, game: &AnyGame) -> Vec<AnyMove> {
        self.redo
            .iter()
            .filter_map(|&c| game.decode_move(c))
            .collect()
    }
}

/// The bytes of `record`: magic, [`VERSION_CHECKSUM`] (or [`VERSION_SPOTS`] for rules only
/// it knows), the record, its CRC-32.
fn encode_record(record: &Record) -> Result<Vec<u8>, SaveError> {
    let mut out = MAGIC.to_vec();
    out.push(match record.rules {
        RulesRecord::LinesSpots { .. } => VERSION_SPOTS,
        _ => VERSION_CHECKSUM,
    });
    let out = postcard::to_extend(record, out).map_err(|e| SaveError::TooLong(e.to_string()))?;
    Ok(seal(out))
}

/// The header and record of a saved game in this format (not the legacy ones), with the
/// checks every record passes.
fn parse(bytes: &[u8]) -> Result<Record, SaveError> {
    if bytes.len() > MAX_BYTES {
        return Err(SaveError::TooLarge(bytes.len()));
    }
    let rest = bytes.strip_prefix(&MAGIC).ok_or(SaveError::NotASave)?;
    let (&version, body) = rest.split_first().ok_or(SaveError::NotASave)?;
    if version > VERSION_SPOTS {
        return Err(SaveError::NewerVersion(version));
    }
    if version == 0 {
        return Err(SaveError::Damaged("format version 0".to_owned()));
    }
    let body = if version >= VERSION_CHECKSUM {
        let checked = unseal(bytes).ok_or_else(|| SaveError::Damaged(unsealed_damage(body)))?;
        checked.get(MAGIC.len() + 1..).unwrap_or_default()
    } else {
        body
    };
    let (record, extra): (Record, &[u8]) =
        postcard::take_from_bytes(body).map_err(|e| SaveError::Damaged(damage_of(&e)))?;
    if !extra.is_empty() {
        return Err(SaveError::Damaged(format!(
            "{} stray bytes at the end",
            extra.len()
        )));
    }
    let most = if game_of(record.game) == Some(GameKind::Lines) {
        MAX_LINES_MOVES
    } else {
        MAX_MOVES
    };
    if record.moves.len() + record.redo.len() > most {
        return Err(SaveError::Damaged("too many moves".to_owned()));
    }
    if record.start.len() > MAX_FEN || record.tags.len() > MAX_TAGS {
        return Err(SaveError::Damaged("oversized fields".to_owned()));
    }
    if record
        .tags
        .iter()
        .any(|(k, v)| k.len() > MAX_TAG_LEN || v.len() > MAX_TAG_LEN)
    {
        return Err(SaveError::Damaged("an oversized tag".to_owned()));
    }
    Ok(record)
}

/// Why `body`, a record of a checksummed version and what follows it, does not match its
/// checksum: the file was cut short when the record (read without the checksum) runs past
/// the end or leaves no room for the checksum; otherwise a byte was changed.
fn unsealed_damage(body: &[u8]) -> String {
    match postcard::take_from_bytes::<Record>(body) {
        Err(postcard::Error::DeserializeUnexpectedEnd) => CUT_SHORT.to_owned(),
        Ok((_, checksum)) if checksum.len() < CHECKSUM_LEN => CUT_SHORT.to_owned(),
        _ => CHECKSUM_MISMATCH.to_owned(),
    }
}

/// A saved game of either family, as [`decode_any`] reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnySave {
    /// A board game (xiangqi, jieqi, chess).
    Board(SavedGame),
    /// A Lines game.
    Lines(SavedLines),
}

/// Reads any saved game: a board game or a Lines game.
pub fn decode_any(bytes: &[u8]) -> Result<AnySave, SaveError> {
    match SavedGame::decode(bytes) {
        Ok(g) => Ok(AnySave::Board(g)),
        Err(SaveError::LinesGame) => SavedLines::decode(bytes).map(AnySave::Lines),
        Err(e) => Err(e),
    }
}

/// A saved Lines game: settings, seed and moves (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedLines {
    /// The settings (start balls, undo, preview, the spawn rule).
    pub settings: banco_lines::Settings,
    /// The spawn seed.
    pub seed: [u8; 32],
    /// The moves played.
    pub moves: Vec<banco_lines::Move>,
    /// The turns taken back since the last move, the next to redo last
    /// ([`banco_lines::LinesGame::taken_back`]).
    pub taken_back: Vec<banco_lines::Move>,
    /// Free-form tags.
    pub tags: Vec<(String, String)>,
}

impl SavedLines {
    /// The record of `game`.
    #[must_use]
    pub fn of(game: &banco_lines::LinesGame) -> SavedLines {
        SavedLines {
            settings: game.settings(),
            seed: game.seed(),
            moves: game.moves().to_vec(),
            taken_back: game.taken_back().to_vec(),
            tags: Vec::new(),
        }
    }

    /// The bytes of this record.
    pub fn encode(&self) -> Result<Vec<u8>, SaveError> {
        if self.moves.len() + self.taken_back.len() > MAX_LINES_MOVES {
            return Err(SaveError::TooLong(format!(
                "{} moves, at most {MAX_LINES_MOVES}",
                self.moves.len() + self.taken_back.len()
            )));
        }
        let undo = match self.settings.undo {
            banco_lines::UndoRule::Off => 0,
            banco_lines::UndoRule::LastTurn => 1,
            banco_lines::UndoRule::Unlimited => 2,
        };
        let start_balls = self.settings.start_balls;
        let record = Record {
            game: game_code(GameKind::Lines),
            rules: match (self.settings.preview, self.settings.spawn) {
                (true, _) => RulesRecord::LinesPreview { start_balls, undo },
                (false, banco_lines::SpawnRule::AtAnnouncement) => {
                    RulesRecord::LinesSpots { start_balls, undo }
                }
                (false, banco_lines::SpawnRule::AtLanding) => {
                    RulesRecord::Lines { start_balls, undo }
                }
            },
            start: self.seed.iter().fold(String::new(), |mut s, b| {
                let _ = write!(s, "{b:02x}");
                s
            }),
            moves: self.moves.iter().map(|m| m.encode()).collect(),
            redo: self.taken_back.iter().map(|m| m.encode()).collect(),
            ending: None,
            player: None,
            tags: self
                .tags
                .iter()
                .take(MAX_TAGS)
                .map(|(k, v)| (cut(k), cut(v)))
                .collect(),
        };
        encode_record(&record)
    }

    /// Reads a saved Lines game (syntax only; [`SavedLines::restore`] replays it).
    pub fn decode(bytes: &[u8]) -> Result<SavedLines, SaveError> {
        if bytes.starts_with(b"BNCO") {
            return Err(SaveError::NotLines("older board".to_owned()));
        }
        let record = parse(bytes)?;
        let kind = game_of(record.game)
            .ok_or_else(|| SaveError::UnsupportedGame(format!("game number {}", record.game)))?;
        let (start_balls, undo, preview, spawn) = match record.rules {
            RulesRecord::Lines { start_balls, undo } => {
                (start_balls, undo, false, banco_lines::SpawnRule::AtLanding)
            }
            RulesRecord::LinesPreview { start_balls, undo } => (
                start_balls,
                undo,
                true,
                banco_lines::SpawnRule::AtAnnouncement,
            ),
            RulesRecord::LinesSpots { start_balls, undo } => (
                start_balls,
                undo,
                false,
                banco_lines::SpawnRule::AtAnnouncement,
            ),
            _ => {
                return Err(if kind == GameKind::Lines {
                    SaveError::Damaged("rules of another game than lines".to_owned())
                } else {
                    SaveError::NotLines(kind.to_string())
                });
            }
        };
        if kind != GameKind::Lines {
            return Err(SaveError::Damaged(format!("Lines rules in a {kind} game")));
        }
        let undo = match undo {
            0 => banco_lines::UndoRule::Off,
            1 => banco_lines::UndoRule::LastTurn,
            2 => banco_lines::UndoRule::Unlimited,
            other => return Err(SaveError::Damaged(format!("undo setting {other}"))),
        };
        let settings = banco_lines::Settings::new(start_balls, undo)
            .map_err(|e| SaveError::Damaged(e.to_string()))?
            .with_spawn(spawn)
            .with_preview(preview);
        let seed = parse_seed(&record.start)
            .ok_or_else(|| SaveError::BadPosition("the seed is not 64 hex digits".to_owned()))?;
        if record.ending.is_some() || record.player.is_some() {
            return Err(SaveError::Damaged(
                "board-game fields in a Lines game".to_owned(),
            ));
        }
        let most_taken_back = match undo {
            banco_lines::UndoRule::Off => 0,
            banco_lines::UndoRule::LastTurn => 1,
            banco_lines::UndoRule::Unlimited => usize::MAX,
        };
        if record.redo.len() > most_taken_back {
            return Err(SaveError::Damaged(format!(
                "{} turns taken back where the undo setting allows {most_taken_back}",
                record.redo.len()
            )));
        }
        let decode = |codes: &[u16], first: usize| {
            codes
                .iter()
                .enumerate()
                .map(|(i, &c)| {
                    banco_lines::Move::decode(c).map_err(|_| SaveError::IllegalMove {
                        number: first + i + 1,
                    })
                })
                .collect::<Result<Vec<_>, _>>()
        };
        let moves = decode(&record.moves, 0)?;
        let taken_back = decode(&record.redo, moves.len())?;
        Ok(SavedLines {
            settings,
            seed,
            moves,
            taken_back,
            tags: record.tags,
        })
    }

    /// Replays the moves: the game exactly as saved (board, score, balls to come, the
    /// turns taken back and the undo left).
    pub fn restore(&self) -> Result<banco_lines::LinesGame, SaveError> {
        banco_lines::LinesGame::resume(self.settings, self.seed, &self.moves, &self.taken_back)
            .map_err(|(number, _)| SaveError::IllegalMove { number })
    }
}

fn parse_seed(text: &str) -> Option<[u8; 32]> {
    let bytes = text.as_bytes();
    if bytes.len() != 64 {
        return None;
    }
    if !bytes.iter().all(u8::is_ascii_hexdigit) {
        return None; // `from_str_radix` alone would take "+f"
    }
    let mut seed = [0u8; 32];
    for (i, pair) in bytes.chunks(2).enumerate() {
        let hex = core::str::from_utf8(pair).ok()?;
        seed[i] = u8::from_str_radix(hex, 16).ok()?;
    }
    Some(seed)
}

fn play_code(game: &mut AnyGame, code: u16, number: usize) -> Result<(), SaveError> {
    let mv = game
        .decode_move(code)
        .ok_or(SaveError::IllegalMove { number })?;
    game.play(mv).map_err(|_| SaveError::IllegalMove { number })
}

pub(crate) fn xiangqi_rules(
    repetition: u8,
    repetitions: u8,
    no_capture_plies: u16,
) -> Result<RuleSet, SaveError> {
    let repetition = match repetition {
        0 => RepetitionRule::Asian,
        1 => RepetitionRule::Casual,
        other => return Err(SaveError::Damaged(format!("repetition rule {other}"))),
    };
    if !(2..=9).contains(&repetitions) {
        return Err(SaveError::Damaged(format!(
            "repetition count {repetitions}"
        )));
    }
    Ok(RuleSet {
        repetition,
        repetitions,
        no_capture_plies,
    })
}

fn cut(s: &str) -> String {
    let mut end = s.len().min(MAX_TAG_LEN);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s.get(..end).unwrap_or_default().to_owned()
}

#[cfg(test)]
mod tests {
    use super::parse_seed;

    #[test]
    fn a_seed_is_exactly_64_hex_digits() {
        let hex = "0f".repeat(32);
        assert_eq!(parse_seed(&hex), Some([0x0f; 32]));
        // `u8::from_str_radix` alone takes a sign: "+f" is no pair of hex digits.
        assert_eq!(parse_seed(&format!("+f{}", &hex[2..])), None);
        assert_eq!(parse_seed(&hex[2..]), None);
        assert_eq!(parse_seed(&format!("{}zz", &hex[2..])), None);
    }
}
