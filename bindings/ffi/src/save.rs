//! The saved-game record: a small, versioned binary layout, stable across releases.
//!
//! ```text
//! offset  size  field
//! 0       4     magic "BNCO"
//! 4       1     version (1)
//! 5       1     game kind (0 xiangqi)
//! 6       1     repetition rule (0 Asian, 1 casual)
//! 7       1     occurrences that trigger the repetition judge (2-9)
//! 8       2     no-capture limit in plies, little endian (0 = off)
//! 10      2     length L of the start FEN in bytes, little endian (1-255)
//! 12      L     start FEN, UTF-8
//! 12+L    2     number N of moves, little endian
//! 14+L    2N    the moves, each the u16 wire code (from x 90 + to), little endian
//! ```
//!
//! Nothing may follow. Loading checks every field and replays every move through the rules:
//! a damaged or forged record is refused with a reason, never half-loaded. A change to the
//! layout bumps the version; old versions stay readable.

use crate::error::BancoError;
use banco_xiangqi::{RepetitionRule, RuleSet};

/// The first bytes of every saved game.
pub const MAGIC: &[u8; 4] = b"BNCO";
/// The version written.
pub const VERSION: u8 = 1;
/// Longest start FEN accepted.
const MAX_FEN: usize = 255;

/// A saved game before its moves are checked against the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedGame {
    /// Rules of the game.
    pub rules: RuleSet,
    /// FEN of the start position.
    pub start_fen: String,
    /// Wire codes of the moves, in order.
    pub moves: Vec<u16>,
}

impl SavedGame {
    /// The bytes of this record.
    pub fn encode(&self) -> Result<Vec<u8>, BancoError> {
        let fen = self.start_fen.as_bytes();
        if fen.is_empty() || fen.len() > MAX_FEN {
            return Err(BancoError::BadSave(format!(
                "the start position takes {} bytes, at most {MAX_FEN} fit",
                fen.len()
            )));
        }
        let count = u16::try_from(self.moves.len()).map_err(|_| {
            BancoError::BadSave(format!("{} moves are more than fit", self.moves.len()))
        })?;
        let mut out = Vec::with_capacity(14 + fen.len() + 2 * self.moves.len());
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        out.push(0);
        out.push(match self.rules.repetition {
            RepetitionRule::Asian => 0,
            RepetitionRule::Casual => 1,
        });
        out.push(self.rules.repetitions);
        out.extend_from_slice(&self.rules.no_capture_plies.to_le_bytes());
        out.extend_from_slice(&(fen.len() as u16).to_le_bytes());
        out.extend_from_slice(fen);
        out.extend_from_slice(&count.to_le_bytes());
        for m in &self.moves {
            out.extend_from_slice(&m.to_le_bytes());
        }
        Ok(out)
    }

    /// Reads a record (syntax only: the moves are checked by replaying them).
    pub fn decode(bytes: &[u8]) -> Result<SavedGame, BancoError> {
        let bad = |why: &str| BancoError::BadSave(why.to_owned());
        let mut r = Reader(bytes);
        if r.take(4).ok_or_else(|| bad("it is empty or cut short"))? != MAGIC {
            return Err(bad("it is not a Banco saved game"));
        }
        let version = r.u8().ok_or_else(|| bad("it is cut short"))?;
        if version != VERSION {
            return Err(BancoError::BadSave(format!(
                "it was saved by a newer version of Banco (format {version}, this one reads {VERSION})"
            )));
        }
        match r.u8() {
            Some(0) => {}
            Some(k) => return Err(BancoError::BadSave(format!("unknown game kind {k}"))),
            None => return Err(bad("it is cut short")),
        }
        let repetition = match r.u8() {
            Some(0) => RepetitionRule::Asian,
            Some(1) => RepetitionRule::Casual,
            Some(_) => return Err(bad("the repetition rule is unknown")),
            None => return Err(bad("it is cut short")),
        };
        let repetitions = r.u8().ok_or_else(|| bad("it is cut short"))?;
        if !(2..=9).contains(&repetitions) {
            return Err(bad("the repetition count is out of range"));
        }
        let no_capture_plies = r.u16().ok_or_else(|| bad("it is cut short"))?;
        let fen_len = usize::from(r.u16().ok_or_else(|| bad("it is cut short"))?);
        if fen_len == 0 || fen_len > MAX_FEN {
            return Err(bad("the start position has a bad length"));
        }
        let fen = r
            .take(fen_len)
            .ok_or_else(|| bad("the start position is cut short"))?;
        let start_fen = std::str::from_utf8(fen)
            .map_err(|_| bad("the start position is not text"))?
            .to_owned();
        let count = usize::from(r.u16().ok_or_else(|| bad("the move count is missing"))?);
        let mut moves = Vec::with_capacity(count.min(r.0.len() / 2));
        for _ in 0..count {
            moves.push(r.u16().ok_or_else(|| bad("the moves are cut short"))?);
        }
        if !r.0.is_empty() {
            return Err(bad("there are stray bytes after the moves"));
        }
        Ok(SavedGame {
            rules: RuleSet {
                repetition,
                repetitions,
                no_capture_plies,
            },
            start_fen,
            moves,
        })
    }
}

/// A cursor over the bytes.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.0.len() < n {
            return None;
        }
        let (head, tail) = self.0.split_at(n);
        self.0 = tail;
        Some(head)
    }

    fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }

    fn u16(&mut self) -> Option<u16> {
        self.take(2).map(|b| u16::from_le_bytes([b[0], b[1]]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_bytes() {
        let saved = SavedGame {
            rules: RuleSet::asian(),
            start_fen: "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1".to_owned(),
            moves: vec![4 * 90 + 3, 85 * 90 + 84],
        };
        let bytes = saved.encode().unwrap();
        let mut expected = b"BNCO\x01\x00\x00\x03\x78\x00\x21\x00".to_vec();
        expected.extend_from_slice(b"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
        expected.extend_from_slice(&[2, 0, 0x6b, 0x01, 0x36, 0x1e]);
        assert_eq!(bytes, expected);
        assert_eq!(SavedGame::decode(&bytes).unwrap(), saved);
    }

    #[test]
    fn every_truncation_and_extension_is_refused() {
        let saved = SavedGame {
            rules: RuleSet::casual(),
            start_fen: banco_xiangqi::fen::START_FEN.to_owned(),
            moves: vec![1, 2, 3],
        };
        let bytes = saved.encode().unwrap();
        for n in 0..bytes.len() {
            assert!(SavedGame::decode(&bytes[..n]).is_err(), "prefix {n}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(SavedGame::decode(&longer).is_err());
        let mut newer = bytes;
        newer[4] = 2;
        let msg = SavedGame::decode(&newer).unwrap_err().to_string();
        assert!(msg.contains("newer version"), "{msg}");
    }
}
