//! The best-scores table of a [`LinesSession`] as the front end keeps it: its bytes, read
//! back, and merged with the copy another session (another window, another process) wrote
//! meanwhile, so that sessions sharing the table lose none of each other's entries.
//!
//! ```text
//! offset  size  field
//! 0       1     version: 5 (1 to 4 are still read, see below)
//! 1       ...   postcard: capacity varint (entries kept of each kind),
//!                         entries [ score varint, turns varint, date string, kind,
//!                                   game option<u64> (the game: a fold of its seed) ]
//!                 kind: enum 0 = earlier games (rules not recorded)
//!                            1 = played { start_balls u8 (3 or 5),
//!                                         undo u8 (0 off, 1 last turn, 2 unlimited),
//!                                         preview bool,
//!                                         spawn u8 (0 at landing, 1 at announcement;
//!                                                   with the preview always 1),
//!                                         time_limit_s option<varint> (none: untimed),
//!                                         hints bool (the player asked for hints) }
//! end-4   4     CRC-32 (IEEE, little-endian) of every byte before it
//! ```
//!
//! Entries are written kind by kind, each kind's best first; reading enters them in that
//! order (ties keep it). Version 4 (the same without `game`) was written before the entries
//! named their game: it loads, no entry knowing its game — so an ending entered then may
//! enter once more from a save of its game played again, as it could then. Version 3 (version
//! 4 without `hints`) was written before hints were
//! counted: it loads, every entry a game without hints — which they were not all (a player
//! could ask for every move's hint then), but nothing recorded which; new games with hints
//! rank apart from them. Version 2 (version 3 without the kinds, checksummed) and version
//! 1 (version 2 without the checksum) were written before the entries recorded their kind:
//! they load, every entry of the kind [`BestKind::Earlier`] — one table of "earlier
//! games", as they were ranked then, which no new game enters. Every older table is written
//! back as version 5. A build from before version 4 refuses it as "saved by a newer Banco",
//! one of version 4 as "written by a newer Banco" (as this one does a version above 5, up
//! to [`LAST_BEST_VERSION`]: [`SaveError::BestScoresNewer`]); a damaged table (cut
//! short, a changed byte, a kind Banco does not write) is refused as damaged.

use super::{Clock, LinesSession};
use crate::save::SaveError;
use banco_game::ScoreGame;
use banco_lines::best::{BestChange, BestKind, BestScore, BestScores, MAX_ENTRIES, Rules, game_id};
use banco_lines::{SpawnRule, UndoRule};
use serde::{Deserialize, Serialize};

/// The version written: each entry with its kind, hints included, and its game.
const BEST_VERSION: u8 = 5;
/// The first version whose table ends with a checksum.
const BEST_VERSION_CHECKSUM: u8 = 2;
/// The first version whose entries carry their kind.
const BEST_VERSION_KINDS: u8 = 3;
/// The first version whose kinds say whether the player asked for hints.
const BEST_VERSION_HINTS: u8 = 4;
/// The first version whose entries name their game.
const BEST_VERSION_GAMES: u8 = 5;

/// The highest first byte read as the version of a newer table; anything above is not a
/// table at all: text begins with a tab, a line end or a printable character (9 and
/// above), Banco's other records (saved games, puzzle progress) with 0x89, as PNG files do.
const LAST_BEST_VERSION: u8 = 8;

/// The largest table read, in bytes: a full table ([`MAX_ENTRIES`] entries, each at most
/// 66 bytes with the longest date and game) is about 132 KB. (Builds before version 5 read
/// at most 128 KiB; they refuse a table of version 5 as a newer Banco's whatever its size.)
pub const MAX_BEST_BYTES: usize = 160 * 1024;

/// Versions 1 and 2: entries without their kind.
#[derive(Serialize, Deserialize)]
struct BestRecord2 {
    capacity: u32,
    entries: Vec<(u32, u32, String)>,
}

/// Version 5: each entry with its game.
#[derive(Serialize, Deserialize)]
struct BestRecord5 {
    capacity: u32,
    entries: Vec<(EntryRecord, Option<u64>)>,
}

impl<K: Into<KindRecord>> From<BestRecord<K>> for BestRecord5 {
    fn from(r: BestRecord<K>) -> BestRecord5 {
        let entries = r.entries.into_iter().map(|e| (e.kinded(), None)).collect();
        BestRecord5 {
            capacity: r.capacity,
            entries,
        }
    }
}

/// Versions 3 (`K` = [`KindRecord3`]) and 4 ([`KindRecord`]).
#[derive(Serialize, Deserialize)]
struct BestRecord<K = KindRecord> {
    capacity: u32,
    entries: Vec<EntryRecord<K>>,
}

#[derive(Serialize, Deserialize)]
struct EntryRecord<K = KindRecord> {
    score: u32,
    turns: u32,
    date: String,
    kind: K,
}

/// A kind as version 4 writes it (see the module docs): its own wire form, so that the
/// record does not change with [`BestKind`]'s Rust definition. Postcard writes a nested
/// record's fields in line, so `Played(rules, hints)` is the flat field list the module
/// docs show.
#[derive(Serialize, Deserialize)]
enum KindRecord {
    Earlier,
    Played(RulesRecord, bool),
}

/// A kind as version 3 wrote it: version 4's without `hints` (every game read as one
/// without hints).
#[derive(Serialize, Deserialize)]
enum KindRecord3 {
    Earlier,
    Played(RulesRecord),
}

/// The rules of a kind on the wire, as versions 3 and 4 write them (hints apart).
#[derive(Serialize, Deserialize)]
struct RulesRecord {
    start_balls: u8,
    undo: u8,
    preview: bool,
    spawn: u8,
    time_limit_s: Option<u32>,
}

impl<K: Into<KindRecord>> EntryRecord<K> {
    /// The entry with its kind as version 4 writes it.
    fn kinded(self) -> EntryRecord {
        EntryRecord {
            score: self.score,
            turns: self.turns,
            date: self.date,
            kind: self.kind.into(),
        }
    }
}

impl From<KindRecord3> for KindRecord {
    fn from(kind: KindRecord3) -> KindRecord {
        match kind {
            KindRecord3::Earlier => KindRecord::Earlier,
            KindRecord3::Played(rules) => KindRecord::Played(rules, false),
        }
    }
}

impl From<BestKind> for KindRecord {
    fn from(kind: BestKind) -> KindRecord {
        match kind {
            BestKind::Earlier => KindRecord::Earlier,
            BestKind::Played(r) => KindRecord::Played(
                RulesRecord {
                    start_balls: r.start_balls,
                    undo: match r.undo {
                        UndoRule::Off => 0,
                        UndoRule::LastTurn => 1,
                        UndoRule::Unlimited => 2,
                    },
                    preview: r.preview,
                    spawn: match r.spawn {
                        SpawnRule::AtLanding => 0,
                        SpawnRule::AtAnnouncement => 1,
                    },
                    time_limit_s: r.time_limit_s,
                },
                r.hints,
            ),
        }
    }
}

impl KindRecord {
    /// The kind, or what is wrong with it: a kind Banco does not write.
    fn kind(self) -> Result<BestKind, String> {
        let KindRecord::Played(
            RulesRecord {
                start_balls,
                undo,
                preview,
                spawn,
                time_limit_s,
            },
            hints,
        ) = self
        else {
            return Ok(BestKind::Earlier);
        };
        let undo = match undo {
            0 => UndoRule::Off,
            1 => UndoRule::LastTurn,
            2 => UndoRule::Unlimited,
            u => {
                return Err(format!(
                    "an entry has undo rule {u}, which Banco does not write"
                ));
            }
        };
        let spawn = match (spawn, preview) {
            (1, _) => SpawnRule::AtAnnouncement,
            (0, false) => SpawnRule::AtLanding,
            _ => {
                return Err(format!(
                    "an entry has spawn rule {spawn}, which Banco does not write"
                ));
            }
        };
        if !banco_lines::game::START_BALLS.contains(&start_balls) {
            return Err(format!(
                "an entry started with {start_balls} balls (3 or 5)"
            ));
        }
        Ok(BestKind::Played(Rules {
            start_balls,
            undo,
            preview,
            spawn,
            time_limit_s,
            hints,
        }))
    }
}

impl From<&BestScores> for BestRecord5 {
    fn from(b: &BestScores) -> BestRecord5 {
        BestRecord5 {
            capacity: u32::try_from(b.capacity()).unwrap_or(u32::MAX),
            entries: b
                .entries()
                .map(|e: &BestScore| {
                    let entry = EntryRecord {
                        score: e.score,
                        turns: e.turns,
                        date: e.date.clone(),
                        kind: e.kind.into(),
                    };
                    (entry, e.game)
                })
                .collect(),
        }
    }
}

/// A table written by [`LinesSession::best_scores_bytes`] (or by a build before the kinds:
/// see the module docs).
pub(crate) fn decode(bytes: &[u8]) -> Result<BestScores, SaveError> {
    // An empty file holds no table (a file created and never written): said as such, not
    // as "not a saved game".
    let (&version, body) = bytes
        .split_first()
        .ok_or_else(|| SaveError::BestScoresDamaged("the file is empty".into()))?;
    // A table begins with its small version number.
    if version == 0 || version > LAST_BEST_VERSION {
        return Err(SaveError::NotBestScores);
    }
    if version > BEST_VERSION {
        return Err(SaveError::BestScoresNewer(version));
    }
    if bytes.len() > MAX_BEST_BYTES {
        return Err(SaveError::BestScoresTooLarge(bytes.len()));
    }
    let body = if version >= BEST_VERSION_CHECKSUM {
        let checked = crate::save::unseal(bytes)
            .ok_or_else(|| SaveError::BestScoresDamaged(crate::save::CHECKSUM_MISMATCH.into()))?;
        checked.get(1..).unwrap_or_default()
    } else {
        body
    };
    if version < BEST_VERSION_KINDS {
        let record: BestRecord2 = read_record(body)?;
        if record.entries.len() > MAX_ENTRIES {
            return Err(too_many(record.entries.len()));
        }
        let mut table = BestScores::new(record.capacity as usize);
        for (score, turns, date) in record.entries {
            table.record(BestKind::Earlier, score, turns, &date);
        }
        return Ok(table);
    }
    if version < BEST_VERSION_HINTS {
        fill(read_record::<BestRecord<KindRecord3>>(body)?.into())
    } else if version < BEST_VERSION_GAMES {
        fill(read_record::<BestRecord>(body)?.into())
    } else {
        fill(read_record::<BestRecord5>(body)?)
    }
}

/// The table a record of version 3 to 5 lists.
fn fill(record: BestRecord5) -> Result<BestScores, SaveError> {
    if record.entries.len() > MAX_ENTRIES {
        return Err(too_many(record.entries.len()));
    }
    let mut table = BestScores::new(record.capacity as usize);
    for (e, game) in record.entries {
        let kind = e.kind.kind().map_err(SaveError::BestScoresDamaged)?;
        table.record_game(kind, game, e.score, e.turns, &e.date);
    }
    Ok(table)
}

/// A table that lists `n` entries, more than any holds.
fn too_many(n: usize) -> SaveError {
    SaveError::BestScoresDamaged(format!(
        "it lists {n} entries, more than a table holds ({MAX_ENTRIES})"
    ))
}

/// The record `body` holds, and nothing after it: a table of version 3 whose version byte
/// was changed to 1 (no checksum) would otherwise read as a table of version 1 followed by
/// stray bytes.
fn read_record<'a, T: Deserialize<'a>>(body: &'a [u8]) -> Result<T, SaveError> {
    let (record, extra) = postcard::take_from_bytes(body)
        .map_err(|e| SaveError::BestScoresDamaged(crate::save::damage_of(&e)))?;
    if extra.is_empty() {
        Ok(record)
    } else {
        Err(SaveError::BestScoresDamaged(format!(
            "{} stray bytes at the end",
            extra.len()
        )))
    }
}

/// `table` as [`LinesSession::best_scores_bytes`] writes it.
pub(crate) fn encode(table: &BestScores) -> Result<Vec<u8>, SaveError> {
    postcard::to_extend(&BestRecord5::from(table), vec![BEST_VERSION])
        .map(crate::save::seal)
        .map_err(|e| SaveError::TooLong(e.to_string()))
}

impl LinesSession {
    /// The best scores, every kind of game.
    #[must_use]
    pub const fn best_scores(&self) -> &BestScores {
        &self.best
    }

    /// The kind of game this one is, as the best scores rank it: its settings, its time
    /// limit ([`LinesSession::start_clock`]; untimed without a clock) and whether the
    /// player asked for hints ([`LinesSession::hints_used`]: a game with hints ranks only
    /// among games with hints). A game against the clock continued from a save that did
    /// not keep its limit (saved before the limit was) is of [`BestKind::Earlier`]: its
    /// limit is not known.
    #[must_use]
    pub fn best_kind(&self) -> BestKind {
        let kind = match self.clock {
            None => BestKind::of(self.game.settings(), None),
            Some(Clock {
                limit_ms: Some(ms), ..
            }) => BestKind::of(
                self.game.settings(),
                Some(u32::try_from(ms.div_ceil(1000)).unwrap_or(u32::MAX)),
            ),
            Some(Clock { limit_ms: None, .. }) => BestKind::Earlier,
        };
        kind.with_hints(self.hints_used > 0)
    }

    /// The best scores of this game's kind ([`LinesSession::best_kind`]), best first: the
    /// table its ending enters, where [`LinesSession::record_result`]'s rank points.
    #[must_use]
    pub fn best_scores_of_game(&self) -> &[BestScore] {
        self.best.entries_of(self.best_kind())
    }

    /// Enters the finished game in the best scores of its kind
    /// ([`LinesSession::best_kind`]), once (`date` as the front end writes it); its rank
    /// among the games of its kind, or `None` if the game goes on, was entered already,
    /// did not make the table, or is not ranked: a game without a point is no record,
    /// and a game whose seed the player knew ([`LinesSession::mark_seed_known`]), or that
    /// was played to its end before ([`LinesSession::played_before`]), could have been
    /// played with its balls known.
    pub fn record_result(&mut self, date: &str) -> Option<usize> {
        if !self.is_over() || self.recorded || self.seed_known || self.game.score() == 0 {
            return None;
        }
        self.recorded = true;
        if self.played_before() {
            return None;
        }
        let kind = self.best_kind();
        let game = Some(game_id(&self.game.seed()));
        let (rank, change) =
            self.best
                .enter(kind, game, self.game.score(), self.game.turns(), date)?;
        self.entered = Some(change.clone());
        self.unkept.push(change);
        Some(rank)
    }

    /// True when the best scores hold an ending of this very game that this session did
    /// not enter: the game was played to its end before, from a save of it, so its balls
    /// were known this time. Its ending does not enter again
    /// ([`LinesSession::record_result`]).
    #[must_use]
    pub fn played_before(&self) -> bool {
        self.entered.is_none() && self.best.has_game(game_id(&self.game.seed()))
    }

    /// The best-scores table as bytes for the front end to keep.
    pub fn best_scores_bytes(&self) -> Result<Vec<u8>, SaveError> {
        encode(&self.best)
    }

    /// Loads a best-scores table written by [`LinesSession::best_scores_bytes`] (in place
    /// of this session's, changes not yet kept included).
    pub fn load_best_scores(&mut self, bytes: &[u8]) -> Result<(), SaveError> {
        self.best = decode(bytes)?;
        // This game's ending, if the loaded table holds it, is still this game's: undo
        // takes it out, and the game is not "played before".
        let kept = match &self.entered {
            Some(BestChange::Entered { entry, .. }) => {
                self.best.entries_of(entry.kind).contains(entry)
            }
            _ => false,
        };
        if !kept {
            self.entered = None;
        }
        self.unkept.clear();
        Ok(())
    }

    /// Before writing the table to a store that other sessions write too: `stored`, the
    /// table as the store holds it now (read just before, under the front end's lock),
    /// becomes this session's, with this session's changes not yet kept made in it again
    /// (an ending entered, or taken back by undo). Then write
    /// [`LinesSession::best_scores_bytes`] and call [`LinesSession::best_scores_kept`].
    /// A table that cannot be read changes nothing (do not write then: the other
    /// sessions' entries would be lost).
    ///
    /// An ending this session entered of a game the stored table holds already (another
    /// session sharing the table played the same save to its end first) is not entered
    /// again: a game enters once ([`LinesSession::played_before`]).
    pub fn merge_best_scores(&mut self, stored: &[u8]) -> Result<(), SaveError> {
        let mut table = decode(stored)?;
        let mut unkept = Vec::with_capacity(self.unkept.len());
        for change in self.unkept.drain(..) {
            if let BestChange::Entered { entry, .. } = &change {
                if table.entries_of(entry.kind).contains(entry) {
                    // Written already (the store was read again before the write was
                    // marked kept): there once.
                    unkept.push(change);
                    continue;
                }
                if entry.game.is_some_and(|g| table.has_game(g)) {
                    if self.entered.as_ref() == Some(&change) {
                        self.entered = None;
                    }
                    continue;
                }
            }
            table.apply(&change);
            unkept.push(change);
        }
        self.unkept = unkept;
        self.best = table;
        Ok(())
    }

    /// The table was written to the store: its changes are kept.
    pub fn best_scores_kept(&mut self) {
        self.unkept.clear();
    }
}

/// The row of the best-scores table at `rank` (0 = best) as a screen lists it:
/// `"1. 1240 points, 312 turns (2026-12-02)"` (without the date when none was written).
#[must_use]
pub fn best_row_text(rank: usize, entry: &BestScore) -> String {
    let date = if entry.date.is_empty() {
        String::new()
    } else {
        format!(" ({})", entry.date)
    };
    let plural = |n: u32| if n == 1 { "" } else { "s" };
    format!(
        "{}. {} point{}, {} turn{}{date}",
        rank + 1,
        entry.score,
        plural(entry.score),
        entry.turns,
        plural(entry.turns)
    )
}

/// A kind of game in words, as a heading over its best scores: `"classic, 5 balls, undo of
/// the last turn, untimed"`, `"with preview, 3 balls, unlimited undo, 3 min limit"`; a
/// game of the spawn rule of older saves says so (`", older landing rule"`), a game in
/// which the player asked for hints too (`", with hints"`, last), and the entries of a
/// table written before the kinds read `"earlier games (rules not recorded)"`.
#[must_use]
pub fn best_kind_label(kind: BestKind) -> String {
    let Some(r) = kind.rules() else {
        return "earlier games (rules not recorded)".to_owned();
    };
    let undo = match r.undo {
        banco_lines::UndoRule::Off => "no undo",
        banco_lines::UndoRule::LastTurn => "undo of the last turn",
        banco_lines::UndoRule::Unlimited => "unlimited undo",
    };
    let time = match r.time_limit_s {
        None => "untimed".to_owned(),
        Some(0) => "0 s limit".to_owned(),
        Some(s) => format!("{} limit", crate::lines_options::time_limit_label(s)),
    };
    format!(
        "{}, {} balls, {undo}, {time}{}{}",
        if r.preview { "with preview" } else { "classic" },
        r.start_balls,
        match r.spawn {
            banco_lines::SpawnRule::AtLanding => ", older landing rule",
            banco_lines::SpawnRule::AtAnnouncement => "",
        },
        if r.hints { ", with hints" } else { "" }
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use banco_lines::ai;
    use banco_lines::{Settings, UndoError};
    use proptest::prelude::*;

    fn finish(s: &mut LinesSession) {
        while let Some(m) = ai::greedy_move(s.game()) {
            s.play(m.from, m.to).unwrap();
        }
    }

    /// A game whose seed the player knew is not ranked, nor once saved and continued, in
    /// another session or the same; a new game starts ranked.
    #[test]
    fn a_game_of_a_known_seed_is_not_ranked() {
        let mut s = LinesSession::new(Settings::default(), [3; 32]);
        s.mark_seed_known();
        let m = ai::greedy_move(s.game()).unwrap();
        s.play(m.from, m.to).unwrap();
        let saved = s.save().unwrap();
        let mut loaded = LinesSession::load(&saved).unwrap();
        assert!(loaded.seed_known());
        finish(&mut loaded);
        assert!(loaded.score() > 0);
        assert_eq!(loaded.record_result("2026-12-06"), None);
        assert!(loaded.best_scores().kinds().next().is_none());
        let mut other = LinesSession::new(Settings::default(), [3; 32]);
        other.continue_saved(&saved).unwrap();
        finish(&mut other);
        assert_eq!(other.record_result("2026-12-06"), None);
        // The same game unmarked enters the table; a new game drops the mark.
        let mut plain = LinesSession::new(Settings::default(), [3; 32]);
        finish(&mut plain);
        assert_eq!(plain.record_result("2026-12-06"), Some(0));
        other.new_game(None, [5; 32]);
        assert!(!other.seed_known());
    }

    /// Two sessions read the same table; each finishes a game and writes after merging
    /// with what the store holds: both entries are there, and an ending taken back by one
    /// leaves the other's entry.
    #[test]
    fn two_sessions_keep_each_others_entries() {
        let mut store = LinesSession::new(Settings::default(), [1; 32])
            .best_scores_bytes()
            .unwrap();
        let mut a = LinesSession::new(Settings::default(), [2; 32]);
        let mut b = LinesSession::new(Settings::default(), [3; 32]);
        a.load_best_scores(&store).unwrap();
        b.load_best_scores(&store).unwrap();
        finish(&mut a);
        finish(&mut b);
        let keep = |s: &mut LinesSession, store: &mut Vec<u8>| {
            s.merge_best_scores(store).unwrap();
            *store = s.best_scores_bytes().unwrap();
            s.best_scores_kept();
        };
        assert!(a.record_result("2026-12-06").is_some());
        keep(&mut a, &mut store);
        assert!(b.record_result("2026-12-06").is_some());
        keep(&mut b, &mut store);
        assert_eq!(decode(&store).unwrap().len(), 2);
        assert_eq!(b.best_scores_of_game().len(), 2, "b shows a's entry too");
        // a takes its ending back: b's entry stays.
        a.undo().unwrap();
        keep(&mut a, &mut store);
        let table = decode(&store).unwrap();
        assert_eq!(table.len(), 1);
        assert_eq!(table.entries_of(b.best_kind())[0].score, b.score());
        // A store that cannot be read is not merged (nothing to write over).
        assert_eq!(
            a.merge_best_scores(b"id,score\n"),
            Err(SaveError::NotBestScores)
        );
    }

    #[test]
    fn best_rows_read_rank_score_turns_and_date() {
        let kind = BestKind::of(Settings::default(), None);
        let mut table = BestScores::new(3);
        table.record(kind, 120, 80, "2026-12-01");
        table.record(kind, 300, 150, "");
        table.record(kind, 1, 1, "2026-12-03");
        let rows: Vec<String> = table
            .entries_of(kind)
            .iter()
            .enumerate()
            .map(|(i, e)| best_row_text(i, e))
            .collect();
        assert_eq!(
            rows,
            [
                "1. 300 points, 150 turns",
                "2. 120 points, 80 turns (2026-12-01)",
                "3. 1 point, 1 turn (2026-12-03)"
            ]
        );
    }

    #[test]
    fn an_ending_taken_back_leaves_the_best_scores() {
        let mut s = LinesSession::new(Settings::default(), [8; 32]);
        s.best.record(s.best_kind(), 1_000_000, 1, "2026-01-01");
        finish(&mut s);
        assert_eq!(s.record_result("2026-12-05"), Some(1));
        s.undo().unwrap();
        assert_eq!(s.best_scores_of_game().len(), 1, "the ending is taken out");
        assert_eq!(s.best_scores_of_game()[0].score, 1_000_000);
        finish(&mut s);
        assert_eq!(
            s.record_result("2026-12-05"),
            Some(1),
            "the new ending goes in"
        );
        assert_eq!(s.record_result("2026-12-05"), None);
        assert_eq!(s.best_scores_of_game().len(), 2, "one entry for the game");
        // The same with an ending that did not make the table: the next one is entered.
        let mut full = LinesSession::new(Settings::default(), [8; 32]);
        full.best = BestScores::new(1);
        full.best
            .record(full.best_kind(), 1_000_000, 1, "2026-01-01");
        finish(&mut full);
        assert_eq!(full.record_result("2026-12-05"), None);
        full.undo().unwrap();
        assert_eq!(full.best_scores_of_game().len(), 1);
        assert!(!full.recorded, "the next ending will be judged again");
        // An ending that pushed the last entry out of a full table: undo puts it back.
        let mut pushed = LinesSession::new(Settings::default(), [8; 32]);
        pushed.best = BestScores::new(2);
        pushed
            .best
            .record(pushed.best_kind(), 1_000_000, 1, "2026-01-01");
        pushed.best.record(pushed.best_kind(), 1, 2, "2026-01-02");
        let before = pushed.best_scores().clone();
        finish(&mut pushed);
        assert_eq!(pushed.record_result("2026-12-05"), Some(1));
        assert_eq!(pushed.best_scores_of_game()[1].date, "2026-12-05");
        pushed.undo().unwrap();
        assert_eq!(
            pushed.best_scores(),
            &before,
            "the entry pushed out is back"
        );
        // A finished game loads finished: no undo, not entered again.
        let bytes = s.save().unwrap();
        let mut back = LinesSession::load(&bytes).unwrap();
        assert!(back.is_over());
        assert_eq!(
            (back.score(), back.game().turns()),
            (s.score(), s.game().turns())
        );
        assert_eq!(back.undo(), Err(UndoError::Nothing));
        assert_eq!(back.record_result("2026-12-06"), None);
        let mut other = LinesSession::new(Settings::default(), [1; 32]);
        other.continue_saved(&bytes).unwrap();
        assert_eq!(other.undo(), Err(UndoError::Nothing));
        assert_eq!(other.record_result("2026-12-06"), None);
    }

    /// A game against the clock ranks among games of its limit: the limit is saved with
    /// the game and comes back with it; a save of a timed game without its limit (written
    /// before the limit was saved) enters the earlier games' table.
    #[test]
    fn a_timed_game_enters_the_table_of_its_kind() {
        let mut s = LinesSession::new(Settings::default(), [8; 32]);
        let untimed = s.best_kind();
        assert_eq!(untimed, BestKind::of(Settings::default(), None));
        s.start_clock(180_000, 0);
        let timed = s.best_kind();
        assert_eq!(timed, BestKind::of(Settings::default(), Some(180)));
        // An untimed game's entry of a high score: no competitor of the timed game.
        s.best.record(untimed, 1_000_000, 1, "2026-01-01");
        s.tick(1_000);
        let saved = s.save().unwrap();
        finish(&mut s);
        assert_eq!(s.record_result("2026-12-06"), Some(0), "first of its kind");
        assert_eq!(s.best_scores_of_game().len(), 1);
        assert_eq!(s.best_scores_of_game()[0].kind, timed);
        assert_eq!(s.best_scores().entries_of(untimed).len(), 1);
        // Continued from its save: the same kind.
        let mut back = LinesSession::load(&saved).unwrap();
        assert_eq!(back.best_kind(), timed);
        back.new_game(None, [1; 32]);
        assert_eq!(
            back.best_kind(),
            untimed,
            "a new game is untimed until its clock starts"
        );
        // Saved before the limit was: the limit is not known.
        let mut record = crate::save::SavedLines::decode(&saved).unwrap();
        record
            .tags
            .retain(|(k, _)| k != super::super::TIME_LIMIT_TAG);
        assert_eq!(record.tags.len(), 1, "the time left stays");
        let mut older = LinesSession::load(&record.encode().unwrap()).unwrap();
        assert_eq!(older.best_kind(), BestKind::Earlier);
        finish(&mut older);
        assert_eq!(older.record_result("2026-12-06"), Some(0));
        assert_eq!(older.best_scores().entries_of(BestKind::Earlier).len(), 1);
        // Odd limits: a part of a second counts as a second.
        let mut odd = LinesSession::new(Settings::default(), [8; 32]);
        odd.start_clock(1_500, 0);
        assert_eq!(odd.best_kind(), BestKind::of(Settings::default(), Some(2)));
    }

    /// Games of other rules do not push each other out, and the ranks are within a kind.
    #[test]
    fn settings_that_change_the_game_are_ranked_apart() {
        let settings = [
            Settings::default(),
            Settings::default().with_preview(true),
            Settings::new(3, banco_lines::UndoRule::Off).unwrap(),
            Settings::default().with_spawn(banco_lines::SpawnRule::AtLanding),
        ];
        let mut s = LinesSession::new(Settings::default(), [1; 32]);
        s.best = BestScores::new(1);
        for (i, &settings) in settings.iter().enumerate() {
            s.new_game(Some(settings), [9 + i as u8; 32]);
            finish(&mut s);
            assert_eq!(s.record_result("2026-12-06"), Some(0), "game {i}");
        }
        assert_eq!(s.best_scores().len(), 4, "one entry of each kind");
        assert_eq!(s.best_scores().kinds().count(), 4);
        for e in s.best_scores().entries() {
            assert_eq!(s.best_scores().entries_of(e.kind), std::slice::from_ref(e));
        }
    }

    #[test]
    fn a_kind_reads_in_plain_words() {
        let label = |settings: Settings, limit| best_kind_label(BestKind::of(settings, limit));
        assert_eq!(
            label(Settings::default(), None),
            "classic, 5 balls, undo of the last turn, untimed"
        );
        assert_eq!(
            label(
                Settings::new(3, banco_lines::UndoRule::Unlimited)
                    .unwrap()
                    .with_preview(true),
                Some(180)
            ),
            "with preview, 3 balls, unlimited undo, 3 min limit"
        );
        assert_eq!(
            label(
                Settings::new(5, banco_lines::UndoRule::Off)
                    .unwrap()
                    .with_spawn(banco_lines::SpawnRule::AtLanding),
                Some(90)
            ),
            "classic, 5 balls, no undo, 1 min 30 s limit, older landing rule"
        );
        assert_eq!(
            label(Settings::default(), Some(0)),
            "classic, 5 balls, undo of the last turn, 0 s limit"
        );
        let hinted = |settings: Settings, limit| {
            best_kind_label(BestKind::of(settings, limit).with_hints(true))
        };
        assert_eq!(
            hinted(Settings::default(), None),
            "classic, 5 balls, undo of the last turn, untimed, with hints"
        );
        assert_eq!(
            hinted(
                Settings::default().with_spawn(banco_lines::SpawnRule::AtLanding),
                Some(60)
            ),
            "classic, 5 balls, undo of the last turn, 1 min limit, older landing rule, with hints"
        );
        assert_eq!(
            best_kind_label(BestKind::Earlier),
            "earlier games (rules not recorded)"
        );
    }

    /// A table of version `version` holding one entry of `kind` (as that version writes
    /// kinds).
    fn forged<K: Serialize>(version: u8, kind: K) -> Vec<u8> {
        let record = BestRecord {
            capacity: 10,
            entries: vec![EntryRecord {
                score: 1,
                turns: 1,
                date: String::new(),
                kind,
            }],
        };
        crate::save::seal(postcard::to_extend(&record, vec![version]).unwrap())
    }

    /// A kind Banco does not write, or more entries than a table holds: damaged; in a table
    /// of version 3 as in one of version 4.
    #[test]
    fn a_table_of_kinds_banco_does_not_write_is_damaged() {
        let kind = BestKind::of(Settings::default(), None);
        let mut table = BestScores::new(10);
        table.record(kind, 10, 5, "2026-12-06");
        let good = encode(&table).unwrap();
        assert_eq!(good[0], 5);
        assert_eq!(decode(&good).unwrap(), table);
        let rules = |start_balls, undo, preview, spawn| RulesRecord {
            start_balls,
            undo,
            preview,
            spawn,
            time_limit_s: None,
        };
        let played = |start_balls, undo, preview, spawn, hints| {
            KindRecord::Played(rules(start_balls, undo, preview, spawn), hints)
        };
        let played3 = |start_balls, undo, preview, spawn| {
            KindRecord3::Played(rules(start_balls, undo, preview, spawn))
        };
        assert!(decode(&forged(4, played(5, 1, true, 1, true))).is_ok());
        assert!(decode(&forged(4, KindRecord::Earlier)).is_ok());
        assert!(decode(&forged(3, played3(5, 1, true, 1))).is_ok());
        assert!(decode(&forged(3, KindRecord3::Earlier)).is_ok());
        for (bad, bad3) in [
            (played(4, 1, false, 1, false), played3(4, 1, false, 1)),
            (played(5, 3, false, 1, true), played3(5, 3, false, 1)),
            (played(5, 1, false, 2, false), played3(5, 1, false, 2)),
            (played(5, 1, true, 0, true), played3(5, 1, true, 0)),
        ] {
            for bytes in [forged(4, bad), forged(3, bad3)] {
                assert!(
                    matches!(decode(&bytes), Err(SaveError::BestScoresDamaged(_))),
                    "refused"
                );
            }
        }
        // A hints byte other than 0 or 1: damaged.
        let mut two = forged(4, played(5, 1, false, 1, true));
        let at = two.len() - crate::save::CHECKSUM_LEN - 1;
        assert_eq!(two[at], 1, "the last byte before the checksum is `hints`");
        two[at] = 2;
        let two = crate::save::seal(two[..two.len() - crate::save::CHECKSUM_LEN].to_vec());
        assert!(matches!(decode(&two), Err(SaveError::BestScoresDamaged(_))));
        let many = BestRecord {
            capacity: 10,
            entries: (0..=MAX_ENTRIES as u32)
                .map(|i| EntryRecord {
                    score: 1,
                    turns: 1,
                    date: String::new(),
                    kind: KindRecord::Played(
                        RulesRecord {
                            start_balls: 5,
                            undo: 0,
                            preview: false,
                            spawn: 1,
                            time_limit_s: Some(i),
                        },
                        true,
                    ),
                })
                .collect(),
        };
        let bytes = crate::save::seal(postcard::to_extend(&many, vec![4]).unwrap());
        assert!(
            matches!(decode(&bytes), Err(SaveError::BestScoresDamaged(e)) if e.contains(&format!("{} entries", MAX_ENTRIES + 1))),
        );
        // Read as version 1 (no checksum), the record is followed by stray bytes.
        let mut one = good.clone();
        one[0] = 1;
        assert!(
            matches!(decode(&one), Err(SaveError::BestScoresDamaged(e)) if e.contains("stray")),
        );
        // A newer version is named as such.
        let mut newer = good.clone();
        newer[0] = 6;
        assert_eq!(decode(&newer), Err(SaveError::BestScoresNewer(6)));
    }

    /// The largest table Banco writes (every entry of the longest date and a kind of the
    /// longest form, its game the longest number) is read back: within MAX_BEST_BYTES.
    #[test]
    fn a_full_table_fits_the_size_read() {
        let mut table = BestScores::new(banco_lines::best::MAX_CAPACITY);
        let date = "é".repeat(16);
        let mut limit = u32::MAX;
        while table.len() < MAX_ENTRIES {
            let kind =
                BestKind::of(Settings::default().with_preview(true), Some(limit)).with_hints(true);
            table.record_game(kind, Some(u64::MAX), u32::MAX, u32::MAX, &date);
            limit -= 1;
        }
        let bytes = encode(&table).unwrap();
        assert!(bytes.len() <= MAX_BEST_BYTES, "{} bytes", bytes.len());
        assert_eq!(decode(&bytes).unwrap(), table);
    }

    fn any_kind() -> impl Strategy<Value = BestKind> {
        let played = (
            prop_oneof![Just(3u8), Just(5u8)],
            0u8..3,
            any::<bool>(),
            any::<bool>(),
            proptest::option::of(any::<u32>()),
            any::<bool>(),
        )
            .prop_map(|(balls, undo, preview, landing, limit, hints)| {
                let undo = [
                    banco_lines::UndoRule::Off,
                    banco_lines::UndoRule::LastTurn,
                    banco_lines::UndoRule::Unlimited,
                ][usize::from(undo)];
                let mut settings = Settings::new(balls, undo).unwrap_or_default();
                if landing {
                    settings = settings.with_spawn(banco_lines::SpawnRule::AtLanding);
                }
                BestKind::of(settings.with_preview(preview), limit).with_hints(hints)
            });
        prop_oneof![1 => Just(BestKind::Earlier), 6 => played]
    }

    /// `table` as version 4 wrote it (its entries' games left out).
    fn encode_v4(table: &BestScores) -> Vec<u8> {
        let record = BestRecord::<KindRecord> {
            capacity: u32::try_from(table.capacity()).unwrap(),
            entries: BestRecord5::from(table)
                .entries
                .into_iter()
                .map(|(e, _)| e)
                .collect(),
        };
        crate::save::seal(postcard::to_extend(&record, vec![4]).unwrap())
    }

    /// `table` as version 3 wrote it (no kind with hints in it).
    fn encode_v3(table: &BestScores) -> Vec<u8> {
        let record = BestRecord {
            capacity: u32::try_from(table.capacity()).unwrap(),
            entries: table
                .entries()
                .map(|e| EntryRecord {
                    score: e.score,
                    turns: e.turns,
                    date: e.date.clone(),
                    kind: match e.kind.into() {
                        KindRecord::Earlier => KindRecord3::Earlier,
                        KindRecord::Played(rules, false) => KindRecord3::Played(rules),
                        KindRecord::Played(_, true) => panic!("no hints in version 3"),
                    },
                })
                .collect(),
        };
        crate::save::seal(postcard::to_extend(&record, vec![3]).unwrap())
    }

    proptest! {
        #![proptest_config(banco_game::testing::proptest_config(Some(64), 0xBE57))]

        /// Any table, entries of any kinds, is written and read back as it was.
        #[test]
        fn a_table_of_kinds_is_read_back_as_written(
            capacity in 1usize..12,
            games in proptest::collection::vec(
                (any_kind(), any::<u32>(), any::<u32>(), "\\PC{0,40}", any::<Option<u64>>()),
                0..60,
            ),
            // A few kinds shared by many games: full tables, ties.
            shared in proptest::collection::vec((0usize..3, 0u32..20), 0..60),
        ) {
            // The same games, the same games without their game (as version 4 holds them),
            // and without hints either (as version 3 holds them).
            let mut table = BestScores::new(capacity);
            let mut nameless = BestScores::new(capacity);
            let mut plain = BestScores::new(capacity);
            let kinds: Vec<BestKind> = games.iter().map(|g| g.0).collect();
            for (kind, score, turns, date, game) in &games {
                table.record_game(*kind, *game, *score, *turns, date);
                nameless.record(*kind, *score, *turns, date);
                plain.record(kind.with_hints(false), *score, *turns, date);
            }
            for (k, score) in shared {
                if let Some(&kind) = kinds.get(k) {
                    table.record(kind, score, 1, "tie");
                    nameless.record(kind, score, 1, "tie");
                    plain.record(kind.with_hints(false), score, 1, "tie");
                }
            }
            let bytes = encode(&table).unwrap();
            prop_assert_eq!(bytes[0], 5);
            let back = decode(&bytes).unwrap();
            prop_assert_eq!(&back, &table);
            prop_assert_eq!(encode(&back).unwrap(), bytes);
            // Version 4 reads back as it was written: no entry knows its game.
            prop_assert_eq!(&decode(&encode_v4(&table)).unwrap(), &nameless);
            // Version 3 reads back as it was written: every kind without hints.
            let v3 = decode(&encode_v3(&plain)).unwrap();
            prop_assert_eq!(&v3, &plain);
            prop_assert!(v3.kinds().all(|k| k.rules().is_none_or(|r| !r.hints)));
        }
    }
}
