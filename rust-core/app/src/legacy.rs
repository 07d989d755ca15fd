//! The two older save formats, read so that no player loses a game: both began with
//! `BNCO` and version 1 — the command line's (postcard, `banco_xiangqi::record`) and the
//! bindings' (a fixed little-endian layout). Neither is written any more.

use crate::any::AnyRules;
use crate::save::{Player, SaveError, SavedGame, xiangqi_rules};
use banco_game::GameKind;
use banco_xiangqi::fen;
use banco_xiangqi::record::GameRecord;

/// Reads a `BNCO` file of either older format.
///
/// The game read is then checked exactly like a save of the current format (it is
/// written in that format and read back), so an old save that loads can always be saved
/// again and reloaded: the older readers checked less (the fuzz target `saved_game` found
/// a command-line record with a repetition count of 85 that loaded but could not be
/// reloaded once saved).
pub(crate) fn decode(bytes: &[u8]) -> Result<SavedGame, SaveError> {
    let saved = match GameRecord::from_bytes(bytes) {
        Ok(r) => from_record(&r),
        Err(first) => bindings_v1(bytes).map_err(|second| {
            SaveError::Damaged(format!(
                "an older Banco save that cannot be read ({first}; {second})"
            ))
        })?,
    };
    SavedGame::decode(&saved.encode()?)
}

fn from_record(r: &GameRecord) -> SavedGame {
    let tag = |name: &str| {
        r.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    };
    let player = match (
        tag("Human"),
        tag("Level").and_then(|l| l.parse::<u8>().ok()),
    ) {
        (Some(c), Some(level)) if (1..=10).contains(&level) => Some(Player {
            color: u8::from(c.eq_ignore_ascii_case("black")),
            level,
        }),
        _ => None,
    };
    SavedGame {
        kind: GameKind::Xiangqi,
        rules: AnyRules::Xiangqi(r.rules),
        start_fen: fen::to_fen(&r.start),
        moves: r.moves.iter().map(|m| m.to_wire()).collect(),
        redo: r.redo.iter().map(|m| m.to_wire()).collect(),
        ending: None,
        player,
        tags: r
            .tags
            .iter()
            .filter(|(k, _)| !k.eq_ignore_ascii_case("Human") && !k.eq_ignore_ascii_case("Level"))
            .cloned()
            .collect(),
    }
}

/// The bindings' version-1 layout: magic, version 1, game 0, repetition rule, repetitions,
/// no-capture limit (u16 LE), FEN length (u16 LE) and FEN, move count (u16 LE), moves.
fn bindings_v1(bytes: &[u8]) -> Result<SavedGame, String> {
    let mut r = Reader(bytes);
    if r.take(4) != Some(b"BNCO".as_slice()) {
        return Err("not a BNCO file".to_owned());
    }
    let head = r.take(4).ok_or("cut short")?;
    let [version, game, repetition, repetitions] = [head[0], head[1], head[2], head[3]];
    if version != 1 || game != 0 {
        return Err(format!("version {version} game {game}"));
    }
    let no_capture = r.u16().ok_or("cut short")?;
    let rules = xiangqi_rules(repetition, repetitions, no_capture).map_err(|e| e.to_string())?;
    let fen_len = usize::from(r.u16().ok_or("cut short")?);
    let fen = std::str::from_utf8(r.take(fen_len).ok_or("cut short")?)
        .map_err(|_| "the start position is not text")?
        .to_owned();
    let count = usize::from(r.u16().ok_or("cut short")?);
    let moves = (0..count)
        .map(|_| r.u16().ok_or("cut short"))
        .collect::<Result<Vec<u16>, _>>()?;
    if !r.0.is_empty() {
        return Err(format!("{} stray bytes", r.0.len()));
    }
    Ok(SavedGame {
        kind: GameKind::Xiangqi,
        rules: AnyRules::Xiangqi(rules),
        start_fen: fen,
        moves,
        redo: Vec::new(),
        ending: None,
        player: None,
        tags: Vec::new(),
    })
}

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

    fn u16(&mut self) -> Option<u16> {
        self.take(2).map(|b| u16::from_le_bytes([b[0], b[1]]))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use banco_game::{Color, Game};
    use banco_xiangqi::{RuleSet, Xiangqi};

    #[test]
    fn reads_the_command_lines_old_records() {
        let mut g = Xiangqi::new();
        for m in ["h2e2", "h9g7"] {
            g.play(m.parse().unwrap()).unwrap();
        }
        let mut rec = GameRecord::new(&g, RuleSet::casual());
        rec.tags.push(("Human".into(), "black".into()));
        rec.tags.push(("Level".into(), "7".into()));
        let saved = SavedGame::decode(&rec.to_bytes()).unwrap();
        assert_eq!(saved.player.unwrap().color(), Color::Black);
        assert_eq!(saved.player.unwrap().level, 7);
        let (game, rules) = saved.restore().unwrap();
        assert_eq!(game.ply(), 2);
        assert_eq!(rules, AnyRules::Xiangqi(RuleSet::casual()));
    }

    #[test]
    fn reads_the_bindings_old_layout() {
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        let mut b = b"BNCO".to_vec();
        b.extend([1, 0, 0, 3]);
        b.extend(120u16.to_le_bytes());
        b.extend((fen.len() as u16).to_le_bytes());
        b.extend(fen.as_bytes());
        b.extend(1u16.to_le_bytes());
        // h2e2: from h2 (25) to e2 (22), wire from * 90 + to
        b.extend((25u16 * 90 + 22).to_le_bytes());
        let saved = SavedGame::decode(&b).unwrap();
        let (game, _) = saved.restore().unwrap();
        assert_eq!(game.ply(), 1);
        b.push(0);
        assert!(matches!(SavedGame::decode(&b), Err(SaveError::Damaged(_))));
    }
}
