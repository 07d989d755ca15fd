//! The best-scores table as bytes: the file the front end keeps
//! ([`LinesSession::best_scores_bytes`](super::LinesSession::best_scores_bytes)), written
//! and read back, older versions included.
//!
//! ```text
//! offset  size  field
//! 0       1     version: 6 (1 to 5 are still read, see below)
//! 1       ...   postcard: capacity varint (entries kept of each kind),
//!                         entries [ score varint, turns varint, date string, kind,
//!                                   game option<u64> (the game: a fold of its seed) ],
//!                         ended [ game u64 varint, tag u32 varint ] (the games played
//!                                   to their end, entered or not, oldest first, one
//!                                   ending each, at most 1,000; the tag tells one
//!                                   session's ending of a game from another's)
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
//! Entries are written kind by kind, each kind's best first — those shown, then up to
//! [`RESERVE`](banco_lines::best::RESERVE) kept unseen behind them (the next to move up
//! when one is taken back; a build from before them reads the table and keeps only the
//! shown ones) — and reading enters them in that order (ties keep it). Version 5 (the same
//! without `ended`) was written before the table remembered the endings that did not enter:
//! it loads remembering only its entries' games, as it did then. Version 4 (version 5
//! without `game`) was written before the entries named their game: it loads, no entry
//! knowing its game — so an ending entered then may enter once more from a save of its game
//! played again, as it could then. Version 3 (version 4 without `hints`) was written before
//! hints were counted: it loads, every entry a game without hints — which they were not all
//! (a player could ask for every move's hint then), but nothing recorded which; new games
//! with hints rank apart from them. Version 2 (version 3 without the kinds, checksummed)
//! and version 1 (version 2 without the checksum) were written before the entries recorded
//! their kind: they load, every entry of the kind [`BestKind::Earlier`] — one table of
//! "earlier games", as they were ranked then, which no new game enters. Every older table
//! is written back as version 6. A build from before version 4 refuses it as "saved by a
//! newer Banco", one of version 4 or 5 as "written by a newer Banco" (as this one does a
//! version above 6, up to [`LAST_BEST_VERSION`]: [`SaveError::BestScoresNewer`]); a damaged
//! table (cut short, a changed byte, a kind Banco does not write) is refused as damaged.

use crate::save::SaveError;
use banco_lines::best::{BestKind, BestScore, BestScores, Ending, MAX_ENDED, MAX_ENTRIES, Rules};
use banco_lines::{SpawnRule, UndoRule};
use serde::{Deserialize, Serialize};

/// The version written: each entry with its kind, hints included, and its game; the games
/// played to their end.
const BEST_VERSION: u8 = 6;
/// The first version whose table ends with a checksum.
const BEST_VERSION_CHECKSUM: u8 = 2;
/// The first version whose entries carry their kind.
const BEST_VERSION_KINDS: u8 = 3;
/// The first version whose kinds say whether the player asked for hints.
const BEST_VERSION_HINTS: u8 = 4;
/// The first version whose entries name their game.
const BEST_VERSION_GAMES: u8 = 5;
/// The first version that lists the games played to their end.
const BEST_VERSION_ENDED: u8 = 6;

/// The highest first byte read as the version of a newer table; anything above is not a
/// table at all: text begins with a tab, a line end or a printable character (9 and
/// above), Banco's other records (saved games, puzzle progress) with 0x89, as PNG files do.
const LAST_BEST_VERSION: u8 = 8;

/// The largest table read, in bytes: a full table ([`MAX_ENTRIES`] entries, each at most
/// 66 bytes with the longest date and game, and [`MAX_ENDED`] endings of at most 15 bytes)
/// is about 147 KB. (Builds before version 5 read at most 128 KiB; they refuse a table of
/// version 5 or 6 as a newer Banco's whatever its size.)
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

/// Version 6: version 5 and the games played to their end.
#[derive(Serialize, Deserialize)]
struct BestRecord6 {
    capacity: u32,
    entries: Vec<(EntryRecord, Option<u64>)>,
    ended: Vec<(u64, u32)>,
}

impl From<BestRecord5> for BestRecord6 {
    fn from(r: BestRecord5) -> BestRecord6 {
        BestRecord6 {
            capacity: r.capacity,
            entries: r.entries,
            ended: Vec::new(),
        }
    }
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

impl From<&BestScores> for BestRecord6 {
    fn from(b: &BestScores) -> BestRecord6 {
        BestRecord6 {
            capacity: u32::try_from(b.capacity()).unwrap_or(u32::MAX),
            entries: b
                .kept_entries()
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
            ended: b.ended_games().iter().map(|e| (e.game, e.tag)).collect(),
        }
    }
}

/// A table written by
/// [`LinesSession::best_scores_bytes`](super::LinesSession::best_scores_bytes) (or by a
/// build before the kinds: see the module docs).
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
        fill(BestRecord5::from(read_record::<BestRecord<KindRecord3>>(body)?).into())
    } else if version < BEST_VERSION_GAMES {
        fill(BestRecord5::from(read_record::<BestRecord>(body)?).into())
    } else if version < BEST_VERSION_ENDED {
        fill(read_record::<BestRecord5>(body)?.into())
    } else {
        fill(read_record::<BestRecord6>(body)?)
    }
}

/// The table a record of version 3 to 6 lists.
fn fill(record: BestRecord6) -> Result<BestScores, SaveError> {
    if record.entries.len() > MAX_ENTRIES {
        return Err(too_many(record.entries.len()));
    }
    if record.ended.len() > MAX_ENDED {
        return Err(SaveError::BestScoresDamaged(format!(
            "it lists {} games played to their end, more than a table keeps ({MAX_ENDED})",
            record.ended.len()
        )));
    }
    let mut table = BestScores::new(record.capacity as usize);
    for (e, game) in record.entries {
        let kind = e.kind.kind().map_err(SaveError::BestScoresDamaged)?;
        table.record_game(kind, game, e.score, e.turns, &e.date);
    }
    for (game, tag) in record.ended {
        // A game listed twice is remembered once.
        let _ = table.end_game(Ending { game, tag });
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

/// `table` as
/// [`LinesSession::best_scores_bytes`](super::LinesSession::best_scores_bytes) writes it.
pub(crate) fn encode(table: &BestScores) -> Result<Vec<u8>, SaveError> {
    postcard::to_extend(&BestRecord6::from(table), vec![BEST_VERSION])
        .map(crate::save::seal)
        .map_err(|e| SaveError::TooLong(e.to_string()))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use banco_lines::Settings;
    use proptest::prelude::*;

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
        assert_eq!(good[0], 6);
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
        newer[0] = 7;
        assert_eq!(decode(&newer), Err(SaveError::BestScoresNewer(7)));
        // More games played to their end than a table keeps: damaged.
        let over = BestRecord6 {
            capacity: 10,
            entries: Vec::new(),
            ended: (0..=MAX_ENDED as u64).map(|g| (g, 0)).collect(),
        };
        let bytes = crate::save::seal(postcard::to_extend(&over, vec![6]).unwrap());
        assert!(
            matches!(decode(&bytes), Err(SaveError::BestScoresDamaged(e)) if e.contains("played to their end")),
        );
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
        for game in 0..MAX_ENDED as u64 {
            table.end_game(Ending {
                game: u64::MAX - game,
                tag: u32::MAX,
            });
        }
        assert_eq!(table.ended_games().len(), MAX_ENDED);
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

    /// `table` as version 5 wrote it (the games played to their end left out).
    fn encode_v5(table: &BestScores) -> Vec<u8> {
        let r = BestRecord6::from(table);
        let record = BestRecord5 {
            capacity: r.capacity,
            entries: r.entries,
        };
        crate::save::seal(postcard::to_extend(&record, vec![5]).unwrap())
    }

    /// `table` as version 4 wrote it (its entries' games left out).
    fn encode_v4(table: &BestScores) -> Vec<u8> {
        let record = BestRecord::<KindRecord> {
            capacity: u32::try_from(table.capacity()).unwrap(),
            entries: BestRecord6::from(table)
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
                .kept_entries()
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
            ended in proptest::collection::vec((any::<u64>(), any::<u32>()), 0..40),
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
            // Version 5 reads back as it was written: no game remembered but its entries'.
            let v5 = decode(&encode_v5(&table)).unwrap();
            prop_assert_eq!(&v5, &table);
            for &(game, tag) in &ended {
                table.end_game(Ending { game, tag });
            }
            prop_assert!(ended.iter().all(|&(g, _)| table.has_game(g)));
            let bytes = encode(&table).unwrap();
            prop_assert_eq!(bytes[0], 6);
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
