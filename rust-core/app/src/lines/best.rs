//! The best-scores table of a [`LinesSession`] as the front end keeps it: its bytes, read
//! back, and merged with the copy another session (another window, another process) wrote
//! meanwhile, so that sessions sharing the table lose none of each other's entries.

use super::LinesSession;
use crate::save::SaveError;
use banco_lines::best::BestScores;
use serde::{Deserialize, Serialize};

/// The best-scores table's saved form: a version byte, postcard, then (from this version
/// on) the CRC-32 of the bytes before it ([`crate::save::seal`]). Version 1 (no checksum)
/// is still read; a build that reads only version 1 says "saved by a newer Banco".
const BEST_VERSION: u8 = 2;
/// The first version whose table ends with a checksum.
const BEST_VERSION_CHECKSUM: u8 = 2;

/// The highest first byte read as the version of a newer table; anything above is not a
/// table at all: text begins with a tab, a line end or a printable character (9 and
/// above), Banco's other records (saved games, puzzle progress) with 0x89, as PNG files do.
const LAST_BEST_VERSION: u8 = 8;

#[derive(Serialize, Deserialize)]
struct BestRecord {
    capacity: u32,
    entries: Vec<(u32, u32, String)>,
}

impl From<&BestScores> for BestRecord {
    fn from(b: &BestScores) -> BestRecord {
        BestRecord {
            capacity: b.capacity() as u32,
            entries: b
                .entries()
                .iter()
                .map(|e| (e.score, e.turns, e.date.clone()))
                .collect(),
        }
    }
}

/// A table written by [`LinesSession::best_scores_bytes`].
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
        return Err(SaveError::NewerVersion(version));
    }
    if bytes.len() > crate::save::MAX_BYTES {
        return Err(SaveError::TooLarge(bytes.len()));
    }
    let body = if version >= BEST_VERSION_CHECKSUM {
        let checked = crate::save::unseal(bytes)
            .ok_or_else(|| SaveError::BestScoresDamaged(crate::save::CHECKSUM_MISMATCH.into()))?;
        checked.get(1..).unwrap_or_default()
    } else {
        body
    };
    let record: BestRecord = postcard::from_bytes(body)
        .map_err(|e| SaveError::BestScoresDamaged(crate::save::damage_of(&e)))?;
    let mut table = BestScores::new(record.capacity as usize);
    for e in record.entries {
        table.record(e.0, e.1, &e.2);
    }
    Ok(table)
}

impl LinesSession {
    /// The best-scores table as bytes for the front end to keep.
    pub fn best_scores_bytes(&self) -> Result<Vec<u8>, SaveError> {
        postcard::to_extend(&BestRecord::from(&self.best), vec![BEST_VERSION])
            .map(crate::save::seal)
            .map_err(|e| SaveError::TooLong(e.to_string()))
    }

    /// Loads a best-scores table written by [`LinesSession::best_scores_bytes`] (in place
    /// of this session's, changes not yet kept included).
    pub fn load_best_scores(&mut self, bytes: &[u8]) -> Result<(), SaveError> {
        self.best = decode(bytes)?;
        self.entered = None;
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
    pub fn merge_best_scores(&mut self, stored: &[u8]) -> Result<(), SaveError> {
        let mut table = decode(stored)?;
        for change in &self.unkept {
            table.apply(change);
        }
        self.best = table;
        Ok(())
    }

    /// The table was written to the store: its changes are kept.
    pub fn best_scores_kept(&mut self) {
        self.unkept.clear();
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use banco_lines::Settings;
    use banco_lines::ai;

    fn finish(s: &mut LinesSession) {
        while let Some(m) = ai::greedy_move(s.game()) {
            s.play(m.from, m.to).unwrap();
        }
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
        assert_eq!(decode(&store).unwrap().entries().len(), 2);
        assert_eq!(b.best_scores().entries().len(), 2, "b shows a's entry too");
        // a takes its ending back: b's entry stays.
        a.undo().unwrap();
        keep(&mut a, &mut store);
        let table = decode(&store).unwrap();
        assert_eq!(table.entries().len(), 1);
        assert_eq!(table.entries()[0].score, b.score());
        // A store that cannot be read is not merged (nothing to write over).
        assert_eq!(
            a.merge_best_scores(b"id,score\n"),
            Err(SaveError::NotBestScores)
        );
    }
}
