//! Game records in PGN, for every board game: chess PGN (the seven-tag roster, `SetUp`/
//! `FEN`, `[Variant "Chess960"]` with X-FEN or Shredder-FEN castling rights, SAN movetext,
//! comments, NAGs, the result) and the xiangqi dialect of xqbase-style
//! databases (`[Game "Chinese Chess"]`, `[Red]`/`[Black]`, `[FEN]`, `[Format "ICCS"]`,
//! movetext in ICCS `H2-E2`, or in coordinates, WXF `C2.5` or Chinese `炮二平五`).
//!
//! Import ([`import`], [`import_all`] for a database, [`import_saved`] straight to a saved
//! game) checks every move against the position and reports the first bad one by its move
//! number; variations are skipped with
//! a note ([`PgnGame::notes`]). Export ([`export`]) writes any game's moves with its
//! result, names and date ([`Headers`]) — a game against the computer or a networked one;
//! [`export_saved`] writes a saved game.
//!
//! ```
//! use banco_app::any::AnyGame;
//! use banco_app::pgn::{self, Headers};
//! use banco_game::{Game, GameKind};
//! let mut game = AnyGame::new(GameKind::Xiangqi)?;
//! for m in ["h2e2", "h9g7"] {
//!     let mv = banco_app::notation::parse_move(&game, m, None)?;
//!     game.play(mv)?;
//! }
//! let mut headers = Headers::default();
//! headers.red = "Lan".into();
//! let text = pgn::export(&game, &headers)?;
//! assert!(text.contains("[Game \"Chinese Chess\"]"));
//! assert!(text.contains("1. H2-E2 H9-G7 *"));
//! let back = pgn::import(&text)?;
//! assert_eq!(back.moves, game.history());
//! assert_eq!(back.tag("Red"), Some("Lan"));
//!
//! let err = pgn::import("[Event \"x\"]\n\n1. e4 e5 2. Ke3 *").unwrap_err();
//! assert!(err.to_string().starts_with("move 2 (White) `Ke3` is not legal"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod read;
mod write;

pub use read::MAX_BYTES;
pub use write::{export, export_saved};

use crate::any::{AnyGame, AnyMove, AnyRules};
use crate::save::SavedGame;
use banco_game::{Game, GameKind, Outcome};

/// Why a PGN text cannot be read (nothing is half-read).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    /// No game in the text.
    #[error("there is no game in this PGN text")]
    Empty,
    /// Larger than any game record.
    #[error("the PGN text has {0} bytes, more than Banco reads ({MAX_BYTES})")]
    TooLarge(usize),
    /// A game longer than Banco keeps.
    #[error("the game has more than {0} moves")]
    TooLong(usize),
    /// The text is not PGN.
    #[error("not PGN: {0}")]
    Syntax(String),
    /// A game Banco does not read from PGN.
    #[error("the PGN is of `{0}`, which Banco does not read from PGN")]
    UnsupportedGame(String),
    /// The FEN tag is not a legal position.
    #[error("the FEN tag is not a legal position: {0}")]
    BadFen(String),
    /// A move that is not legal (or not readable) where it stands.
    #[error("move {number} ({side}) `{text}` is not legal: {why}")]
    IllegalMove {
        /// The full-move number.
        number: u32,
        /// Whose move (`White`, `Red`, `Black`).
        side: &'static str,
        /// The move as written.
        text: String,
        /// Why.
        why: String,
    },
}

/// The result field of a PGN game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PgnResult {
    /// `1-0`: White (chess) or Red (xiangqi) won.
    FirstWins,
    /// `0-1`: Black won.
    SecondWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unknown or still going on.
    Unknown,
}

impl PgnResult {
    /// The PGN text.
    #[must_use]
    pub const fn text(self) -> &'static str {
        match self {
            PgnResult::FirstWins => "1-0",
            PgnResult::SecondWins => "0-1",
            PgnResult::Draw => "1/2-1/2",
            PgnResult::Unknown => "*",
        }
    }

    /// Reads `1-0`, `0-1`, `1/2-1/2` (or `½-½`) and `*`.
    #[must_use]
    pub fn from_text(t: &str) -> Option<PgnResult> {
        match t {
            "1-0" => Some(PgnResult::FirstWins),
            "0-1" => Some(PgnResult::SecondWins),
            "1/2-1/2" | "½-½" => Some(PgnResult::Draw),
            "*" => Some(PgnResult::Unknown),
            _ => None,
        }
    }

    /// The result of an outcome (`*` for none).
    #[must_use]
    pub fn of(outcome: Option<Outcome>) -> PgnResult {
        match outcome {
            None => PgnResult::Unknown,
            Some(o) => PgnResult::from_text(o.score_text()).unwrap_or(PgnResult::Unknown),
        }
    }
}

/// A numeric annotation glyph (`$1`; `!` is 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Nag(pub u8);

impl Nag {
    /// The NAG of a suffix annotation.
    #[must_use]
    pub fn from_suffix(s: &str) -> Option<Nag> {
        Some(Nag(match s {
            "!" => 1,
            "?" => 2,
            "!!" => 3,
            "??" => 4,
            "!?" => 5,
            "?!" => 6,
            _ => return None,
        }))
    }
}

/// Names, date and the rest of the tags of an export.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Headers {
    /// Event (`?` when unknown).
    pub event: String,
    /// Site.
    pub site: String,
    /// Date as `YYYY.MM.DD` (`????.??.??` when unknown).
    pub date: String,
    /// Round.
    pub round: String,
    /// The first player (Red in xiangqi, White in chess).
    pub red: String,
    /// The second player.
    pub black: String,
    /// An ending the moves do not show (resignation, agreed draw, time); by default the
    /// result is read off the position.
    pub ending: Option<Outcome>,
    /// More tags, written after the roster.
    pub extra: Vec<(String, String)>,
    /// Comments: after the given number of plies (0 before the first move).
    pub comments: Vec<(usize, String)>,
    /// Annotations: after the given number of plies.
    pub nags: Vec<(usize, Nag)>,
}

impl Default for Headers {
    fn default() -> Self {
        Headers {
            event: "?".into(),
            site: "?".into(),
            date: "????.??.??".into(),
            round: "?".into(),
            red: "?".into(),
            black: "?".into(),
            ending: None,
            extra: Vec::new(),
            comments: Vec::new(),
            nags: Vec::new(),
        }
    }
}

impl Headers {
    /// Headers from free-form tags (a saved game's): `Event`, `Site`, `Date`, `Round`,
    /// `White`/`Red`, `Black` fill the roster, the rest are extra tags.
    #[must_use]
    pub fn from_tags(tags: &[(String, String)]) -> Headers {
        let mut h = Headers::default();
        for (k, v) in tags {
            match k.to_ascii_lowercase().as_str() {
                "event" => h.event.clone_from(v),
                "site" => h.site.clone_from(v),
                "date" => h.date.clone_from(v),
                "round" => h.round.clone_from(v),
                "white" | "red" => h.red.clone_from(v),
                "black" => h.black.clone_from(v),
                "result" | "fen" | "setup" | "game" | "variant" | "format" => {}
                _ => h.extra.push((k.clone(), v.clone())),
            }
        }
        h
    }
}

/// A game read from PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// The game.
    pub kind: GameKind,
    /// Every tag but `FEN`/`SetUp`, in the order read.
    pub tags: Vec<(String, String)>,
    /// The start position when the record set one up (`FEN` tag), as Banco writes it.
    pub start_fen: Option<String>,
    /// The main line, every move checked.
    pub moves: Vec<AnyMove>,
    /// Comments of the main line, after the given number of plies.
    pub comments: Vec<(usize, String)>,
    /// Annotations of the main line, after the given number of plies.
    pub nags: Vec<(usize, Nag)>,
    /// The result in the movetext (or the `Result` tag).
    pub result: PgnResult,
    /// What was left out (variations).
    pub notes: Vec<String>,
}

impl PgnGame {
    /// The value of a tag (name case-insensitive).
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The game with its moves played.
    pub fn game(&self) -> Result<AnyGame, PgnError> {
        let mut g = match &self.start_fen {
            Some(f) => AnyGame::from_fen(self.kind, f),
            None => AnyGame::new(self.kind),
        }
        .map_err(|e| PgnError::BadFen(e.to_string()))?;
        for &mv in &self.moves {
            g.play(mv).map_err(|e| PgnError::IllegalMove {
                number: g.ply() / 2 + 1,
                side: crate::any::color_name(self.kind, g.side_to_move()),
                text: mv.to_string(),
                why: e.to_string(),
            })?;
        }
        Ok(g)
    }

    /// What [`PgnGame::to_saved`] leaves out, in words for the player: the comments and
    /// annotations (`$1`, `!?`) of the main line, which Banco's saved game does not hold
    /// ("2 comments and 1 annotation not kept: a Banco saved game keeps the moves, not the
    /// comments"); `None` when the record has none.
    ///
    /// ```
    /// let g = banco_app::pgn::import("1. e4 {best by test} e5 2. Nf3 $1 {a} *")?;
    /// assert_eq!(
    ///     g.left_out_of_save().as_deref(),
    ///     Some("2 comments and 1 annotation not kept: a Banco saved game keeps the moves, not the comments")
    /// );
    /// assert_eq!(banco_app::pgn::import("1. e4 e5 *")?.left_out_of_save(), None);
    /// # Ok::<(), banco_app::pgn::PgnError>(())
    /// ```
    #[must_use]
    pub fn left_out_of_save(&self) -> Option<String> {
        let count = |n: usize, one: &str| match n {
            0 => None,
            1 => Some(format!("1 {one}")),
            n => Some(format!("{n} {one}s")),
        };
        let parts: Vec<String> = [
            count(self.comments.len(), "comment"),
            count(self.nags.len(), "annotation"),
        ]
        .into_iter()
        .flatten()
        .collect();
        if parts.is_empty() {
            return None;
        }
        Some(format!(
            "{} not kept: a Banco saved game keeps the moves, not the comments",
            parts.join(" and ")
        ))
    }

    /// The record in the one save format: the free tags kept; the rules (`Rules`, xiangqi;
    /// usual rules when it names none Banco knows) and the player against the computer
    /// ([`crate::tags::player_from_tags`]) read back; a result the moves do not show becomes
    /// the ending, its reason read from `Reason` or `Termination`
    /// ([`crate::tags::ending_from_tags`]; the record's `Termination` stays a free tag, to
    /// be written back as it was).
    pub fn to_saved(&self) -> Result<SavedGame, PgnError> {
        let game = self.game()?;
        let rules = crate::tags::rules_from_tags(self.kind, &self.tags)
            .unwrap_or_else(|_| AnyRules::usual(self.kind));
        let mut saved = SavedGame::of(&game, rules);
        saved.tags = self
            .tags
            .iter()
            .filter(|(k, _)| !crate::tags::is_own(k))
            .take(crate::save::MAX_TAGS)
            .map(|(k, v)| (cap(k), cap(v)))
            .collect();
        saved.player = crate::tags::player_from_tags(&self.tags);
        if game.outcome(&rules).is_none() {
            let mut ending = vec![("Result".to_owned(), self.result.text().to_owned())];
            ending.extend(
                self.tags
                    .iter()
                    .filter(|(k, _)| !k.eq_ignore_ascii_case("Result"))
                    .cloned(),
            );
            saved.ending = crate::tags::ending_from_tags(&ending);
        }
        Ok(saved)
    }
}

/// A tag name or value cut to what the save format keeps.
fn cap(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if out.len() + c.len_utf8() > crate::save::MAX_TAG_LEN {
            break;
        }
        out.push(c);
    }
    out
}

/// Reads the first game of a PGN text.
pub fn import(text: &str) -> Result<PgnGame, PgnError> {
    if text.len() > MAX_BYTES {
        return Err(PgnError::TooLarge(text.len()));
    }
    let games = read::split_games(text);
    let first = games.first().ok_or(PgnError::Empty)?;
    read::read_game(first)
}

/// Reads the first game of a PGN text as a saved game ([`import`], then
/// [`PgnGame::to_saved`]: the rules, the player and an ending the moves do not show read
/// back): the one way from PGN to a game every front end takes.
pub fn import_saved(text: &str) -> Result<SavedGame, PgnError> {
    import(text)?.to_saved()
}

/// How many games a PGN text holds, as [`import_all`] splits it (without reading them): a
/// database has several, a game record one.
#[must_use]
pub fn count_games(text: &str) -> usize {
    read::split_games(text).len()
}

/// Reads every game of a PGN database, each on its own (a bad game does not stop the
/// others).
#[must_use]
pub fn import_all(text: &str) -> Vec<Result<PgnGame, PgnError>> {
    if text.len() > MAX_BYTES {
        return vec![Err(PgnError::TooLarge(text.len()))];
    }
    read::split_games(text)
        .iter()
        .map(|g| read::read_game(g))
        .collect()
}

#[cfg(test)]
mod tests;
