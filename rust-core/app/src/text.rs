//! Readable game records: a text export a person can read and edit, and its import. For
//! xiangqi the tag-and-movetext export of `banco_xiangqi::record` (coordinates with WXF in
//! braces); for chess a PGN-style record (tags, SAN movetext) that chess programs read,
//! and for jieqi the same with its reveals (`h2e2=R`). Every game's record keeps its rules
//! (`Rules`, [`crate::tags::rules_tag`]) and the moves that can be redone (`Redo`, the
//! next to redo last).
//!
//! ```
//! use banco_app::{any::{AnyGame, AnyRules}, save::SavedGame, text};
//! use banco_game::{Game, GameKind, MatchGame};
//! let mut game = AnyGame::new(GameKind::Xiangqi)?;
//! let mv = banco_app::notation::parse_move(&game, "h2e2", None)?;
//! game.play(mv)?;
//! let saved = SavedGame::of(&game, AnyRules::usual(GameKind::Xiangqi));
//! let t = text::export(&saved)?;
//! assert!(t.contains("1. h2e2 {C2.5}"));
//! assert_eq!(text::import(&t)?.moves, saved.moves);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::any::{AnyGame, AnyRules};
use crate::save::{SaveError, SavedGame};
use banco_game::{Game, GameKind, MatchGame};
use banco_xiangqi::record::GameRecord;
use banco_xiangqi::{Move, fen};

/// The readable export of a saved game.
pub fn export(saved: &SavedGame) -> Result<String, SaveError> {
    let (game, rules) = saved.restore()?;
    match (&game, rules) {
        (AnyGame::Xiangqi(g), AnyRules::Xiangqi(r)) => {
            let mut rec = GameRecord::new(g, r);
            rec.redo = saved
                .redo
                .iter()
                .filter_map(|&c| Move::from_wire(c))
                .collect();
            rec.tags.clone_from(&saved.tags);
            if let Some(p) = saved.player {
                // Named as for the other games (`Red`, `Black`); reading takes any case.
                rec.tags
                    .extend(crate::tags::player_level_tags(GameKind::Xiangqi, p));
            }
            if let Some(ending) = saved.ending {
                rec.tags
                    .extend(crate::tags::ending_tags(ending, &saved.tags));
            }
            Ok(rec.to_text())
        }
        (AnyGame::Chess(_) | AnyGame::Jieqi(_), _) => Ok(chess_text(saved, &game)),
        (AnyGame::Xiangqi(_), _) => Err(SaveError::Damaged("chess rules on a xiangqi game".into())),
    }
}

/// Quotes a PGN tag value.
fn quote(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

fn chess_text(saved: &SavedGame, game: &AnyGame) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let result = saved
        .ending
        .or_else(|| game.outcome(&saved.rules))
        .map_or("*", |o| o.score_text());
    let kind = game.kind();
    let _ = writeln!(s, "[Game \"{}\"]", kind.name());
    if let Some((k, v)) = crate::tags::rules_tag(saved.rules) {
        let _ = writeln!(s, "[{k} \"{}\"]", quote(&v));
    }
    for (k, v) in &saved.tags {
        let key: String = k.chars().filter(char::is_ascii_alphanumeric).collect();
        if !key.is_empty() && !crate::tags::is_own(&key) && key != "Redo" {
            let _ = writeln!(s, "[{key} \"{}\"]", quote(v));
        }
    }
    if let Some(redo) = redo_text(saved, game) {
        let _ = writeln!(s, "[Redo \"{redo}\"]");
    }
    let start = game.restarted();
    let usual_start = match kind {
        GameKind::Jieqi => banco_xiangqi::jieqi::START_FEN,
        _ => banco_chess::fen::START_FEN,
    };
    if saved.start_fen != usual_start {
        let _ = writeln!(s, "[SetUp \"1\"]");
        let _ = writeln!(s, "[FEN \"{}\"]", quote(&saved.start_fen));
    }
    if let Some(p) = saved.player {
        for (k, v) in crate::tags::player_level_tags(kind, p) {
            let _ = writeln!(s, "[{k} \"{v}\"]");
        }
    }
    let _ = writeln!(s, "[Result \"{result}\"]");
    if let Some(ending) = saved.ending {
        for (k, v) in crate::tags::ending_tags(ending, &saved.tags) {
            if k != "Result" {
                let _ = writeln!(s, "[{k} \"{}\"]", quote(&v));
            }
        }
    }
    let _ = writeln!(s);
    let mut number: u32 = saved
        .start_fen
        .split_whitespace()
        .nth(5)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let mut replay = start;
    let mut line = String::new();
    for (i, mv) in game.history().into_iter().enumerate() {
        if replay.awaits_chance() {
            // A jieqi reveal, joined to its step: `h2e2=R`.
            let text = crate::notation::write_move(&replay, mv, crate::notation::Notation::San);
            line.truncate(line.trim_end().len());
            let _ = write!(line, "{text} ");
            if replay.play(mv).is_err() {
                break;
            }
            continue;
        }
        let white = replay.side_to_move() == banco_game::Color::Red;
        if white {
            let _ = write!(line, "{number}. ");
        } else if i == 0 {
            let _ = write!(line, "{number}... ");
        }
        let _ = write!(
            line,
            "{} ",
            crate::notation::write_move(&replay, mv, crate::notation::Notation::San)
        );
        if replay.play(mv).is_err() {
            break;
        }
        if !white {
            number += 1;
        }
        if line.len() > 72 {
            let _ = writeln!(s, "{}", line.trim_end());
            line.clear();
        }
    }
    let _ = writeln!(s, "{line}{result}");
    s
}

/// The `Redo` tag's value: the moves taken back, each in the movetext's notation (SAN;
/// jieqi: coordinates, a reveal as `=R`), in the order the record keeps them (the next to
/// redo last), as xiangqi's record writes them; `None` without any.
fn redo_text(saved: &SavedGame, game: &AnyGame) -> Option<String> {
    let mut probe = game.clone();
    let mut words = Vec::new();
    for &code in saved.redo.iter().rev() {
        let mv = probe.decode_move(code)?;
        words.push(crate::notation::write_move(
            &probe,
            mv,
            crate::notation::Notation::San,
        ));
        probe.play(mv).ok()?;
    }
    words.reverse();
    (!words.is_empty()).then(|| words.join(" "))
}

/// The wire codes of a `Redo` tag's moves ([`redo_text`]) after `game`, in the record's
/// order.
fn redo_codes(game: &AnyGame, text: &str) -> Result<Vec<u16>, SaveError> {
    let mut probe = game.clone();
    let mut codes = Vec::new();
    for word in text.split_whitespace().rev() {
        let mv = crate::notation::parse_move(&probe, word, None)
            .ok()
            .filter(|&mv| probe.play(mv).is_ok())
            .ok_or_else(|| {
                SaveError::Damaged(format!("the move `{word}` to redo is not legal there"))
            })?;
        codes.push(game.encode_move(mv));
    }
    codes.reverse();
    Ok(codes)
}

/// Reads a PGN-style chess (or jieqi) record: tags, then SAN (or coordinate) moves;
/// move numbers, comments in braces, annotations and the result are skipped. Jieqi steps
/// carry their reveals (`h2e2=R`).
fn chess_import(kind: GameKind, text: &str) -> Result<SavedGame, SaveError> {
    let mut tags = Vec::new();
    let mut fen = None;
    let mut redo = None;
    let mut movetext = String::new();
    for line in text.lines().map(str::trim) {
        if let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let (key, value) = inner.split_once(' ').unwrap_or((inner, "\"\""));
            let value = value.trim().trim_matches('"').replace("\\\"", "\"");
            match key {
                "FEN" => fen = Some(value),
                "Redo" => redo = Some(value),
                "Game" | "SetUp" => {}
                _ => tags.push((key.to_owned(), value)),
            }
        } else {
            movetext.push_str(line);
            movetext.push(' ');
        }
    }
    let mut game =
        AnyGame::setup(kind, fen.as_deref()).map_err(|e| SaveError::BadPosition(e.to_string()))?;
    let mut clean = String::new();
    let mut depth = 0u32;
    for ch in movetext.chars() {
        match ch {
            '{' | '(' => depth += 1,
            '}' | ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => clean.push(ch),
            _ => {}
        }
    }
    let mut number = 0;
    for word in clean.split_whitespace() {
        // The result first: move numbers are cut off below, and `0-1` is no `-1`.
        if ["1-0", "0-1", "1/2-1/2", "½-½", "*"].contains(&word) {
            continue;
        }
        let word = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if word.is_empty() || word.starts_with('$') {
            continue;
        }
        number += 1;
        let (step, reveal) = match word.find('=') {
            Some(i) if kind == GameKind::Jieqi && i > 0 => word.split_at(i),
            _ => (word, ""),
        };
        for part in [step, reveal].into_iter().filter(|p| !p.is_empty()) {
            let mv = crate::notation::parse_move(&game, part, None)
                .map_err(|_| SaveError::IllegalMove { number })?;
            game.play(mv)
                .map_err(|_| SaveError::IllegalMove { number })?;
        }
    }
    let rules = crate::tags::rules_from_tags(kind, &tags).map_err(SaveError::Damaged)?;
    let mut saved = SavedGame::of(&game, rules);
    if let Some(text) = redo {
        saved.redo = redo_codes(&game, &text)?;
    }
    keep_tags(&mut saved, &game, tags);
    Ok(saved)
}

/// The tags of a record read back into `saved`: the player, an ending the moves do not
/// show, and the free tags ([`crate::tags`]).
fn keep_tags(saved: &mut SavedGame, game: &AnyGame, tags: Vec<(String, String)>) {
    saved.player = crate::tags::player_from_tags(&tags);
    if game.outcome(&saved.rules).is_none() {
        saved.ending = crate::tags::ending_from_tags(&tags);
    }
    saved.tags = tags
        .into_iter()
        .filter(|(k, _)| !crate::tags::is_own(k))
        .collect();
}

/// Reads a readable export (any game's) back into a saved game, every move checked.
pub fn import(text: &str) -> Result<SavedGame, SaveError> {
    // A byte-order mark, as an editor (Windows Notepad) may add when saving the file back.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // An empty file (or one of blank lines) is no record: read as one it would be a new
    // game, and loading it would replace the game in progress with nothing.
    if text.trim().is_empty() {
        return Err(SaveError::Empty);
    }
    if text
        .lines()
        .any(|l| l.trim().eq_ignore_ascii_case("[Game \"jieqi\"]"))
    {
        return chess_import(GameKind::Jieqi, text);
    }
    let xiangqi = text
        .lines()
        .any(|l| l.trim().eq_ignore_ascii_case("[Game \"xiangqi\"]"));
    if !xiangqi
        && text.lines().any(|l| {
            l.trim().eq_ignore_ascii_case("[Game \"chess\"]") || l.trim().starts_with("[Event ")
        })
    {
        return chess_import(GameKind::Chess, text);
    }
    // Without a tag, a first line that is not a move is no record at all (a note, a
    // list): "not a saved game", not a damaged one with a xiangqi move expected.
    let tagged = text.lines().any(|l| l.trim_start().starts_with('['));
    let rec = GameRecord::from_text(text).map_err(|e| match e {
        banco_xiangqi::record::RecordError::Text { line: 1, .. } if !tagged => SaveError::NotASave,
        e => SaveError::Damaged(e.to_string()),
    })?;
    let game = AnyGame::from_fen(GameKind::Xiangqi, &fen::to_fen(&rec.start))
        .map_err(|e| SaveError::BadPosition(e.to_string()))?;
    let mut played = game.clone();
    for &m in &rec.moves {
        played
            .play(crate::any::AnyMove::Xiangqi(m))
            .map_err(|e| SaveError::Damaged(e.to_string()))?;
    }
    let mut saved = SavedGame {
        kind: GameKind::Xiangqi,
        rules: AnyRules::Xiangqi(rec.rules),
        start_fen: fen::to_fen(&rec.start),
        moves: rec
            .moves
            .iter()
            .map(|&m| game.encode_move(crate::any::AnyMove::Xiangqi(m)))
            .collect(),
        redo: rec.redo.iter().map(|m| m.to_wire()).collect(),
        ending: None,
        player: None,
        tags: Vec::new(),
    };
    keep_tags(&mut saved, &played, rec.tags);
    Ok(saved)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// `moves` played from the start of `kind`, the last `taken_back` of them taken back.
    fn saved_with_redo(
        kind: GameKind,
        rules: AnyRules,
        moves: &[&str],
        taken_back: usize,
    ) -> SavedGame {
        let mut game = AnyGame::new(kind).unwrap();
        for m in moves {
            let mv = crate::notation::parse_move(&game, m, None).unwrap();
            game.play(mv).unwrap();
        }
        let mut redo = Vec::new();
        for _ in 0..taken_back {
            let mv = game.undo_move().unwrap();
            redo.push(game.encode_move(mv));
        }
        let mut saved = SavedGame::of(&game, rules);
        saved.redo = redo;
        saved
    }

    #[test]
    fn an_empty_file_is_no_game() {
        for text in ["", "\n", "  \r\n\t\n"] {
            assert_eq!(import(text).unwrap_err(), SaveError::Empty, "{text:?}");
        }
    }

    /// A file of notes is not a game: it said "damaged" and asked for a xiangqi move.
    #[test]
    fn a_text_that_is_no_record_is_not_a_saved_game() {
        assert_eq!(
            import("my notes\nbuy milk\n").unwrap_err(),
            SaveError::NotASave
        );
        // A record's own faults stay "damaged".
        let bad = import("[Game \"xiangqi\"]\nnot a move\n").unwrap_err();
        assert!(matches!(bad, SaveError::Damaged(_)), "{bad:?}");
    }

    #[test]
    fn chess_and_jieqi_records_keep_their_rules_and_redo() {
        let mut casual = banco_xiangqi::RuleSet::casual();
        casual.no_capture_plies = 100;
        let jieqi = saved_with_redo(
            GameKind::Jieqi,
            AnyRules::Jieqi(casual),
            &["h2e2", "=R", "a6a5", "=P", "i3i4", "=C"],
            3,
        );
        let chess = saved_with_redo(
            GameKind::Chess,
            AnyRules::usual(GameKind::Chess),
            &["e4", "e5", "Nf3", "Nc6", "Bb5"],
            2,
        );
        let auto = saved_with_redo(
            GameKind::Chess,
            AnyRules::Chess(banco_chess::ChessRules::AUTO_CLAIM),
            &["d4", "d5"],
            1,
        );
        for (saved, rules, redo) in [
            (
                &jieqi,
                Some("casual repetitions=3 no-capture=100"),
                "=C i3i4 =P",
            ),
            (&chess, None, "Bb5 Nc6"),
            (&auto, Some("auto-claim"), "d5"),
        ] {
            let t = export(saved).unwrap();
            if let Some(r) = rules {
                assert!(t.contains(&format!("[Rules \"{r}\"]")), "{t}");
            } else {
                assert!(!t.contains("[Rules"), "{t}");
            }
            assert!(t.contains(&format!("[Redo \"{redo}\"]")), "{t}");
            let back = import(&t).unwrap();
            assert_eq!(back, *saved, "{t}");
        }
    }

    /// Every game names the player's colour the same way (`Red`, `White`, `Black`); a
    /// record of an older Banco (`red`) still reads; a byte-order mark (an editor's) is
    /// read past.
    #[test]
    fn the_players_colour_is_named_alike_and_a_bom_is_read_past() {
        for (kind, rules, moves, named) in [
            (
                GameKind::Xiangqi,
                AnyRules::usual(GameKind::Xiangqi),
                &["h2e2"][..],
                "Black",
            ),
            (
                GameKind::Jieqi,
                AnyRules::usual(GameKind::Jieqi),
                &["h2e2", "=R"][..],
                "Black",
            ),
            (
                GameKind::Chess,
                AnyRules::usual(GameKind::Chess),
                &["e4"][..],
                "Black",
            ),
        ] {
            let mut saved = saved_with_redo(kind, rules, moves, 0);
            saved.player = Some(crate::save::Player { color: 1, level: 3 });
            let t = export(&saved).unwrap();
            assert!(t.contains(&format!("[Human \"{named}\"]")), "{t}");
            assert_eq!(import(&format!("\u{feff}{t}")).unwrap(), saved, "{t}");
            let older = t.replace(&format!("[Human \"{named}\"]"), "[Human \"black\"]");
            assert_eq!(import(&older).unwrap(), saved, "{older}");
        }
    }

    #[test]
    fn bad_rules_or_redo_are_refused() {
        let t = "[Game \"jieqi\"]\n[Rules \"chinese\"]\n\n1. h2e2=R *\n";
        assert!(
            matches!(import(t), Err(SaveError::Damaged(why)) if why.contains("unknown rules `chinese`"))
        );
        let t = "[Game \"chess\"]\n[Redo \"Nc6 Ke3\"]\n\n1. e4 e5 *\n";
        assert!(matches!(import(t), Err(SaveError::Damaged(why)) if why.contains("`Ke3`")));
    }
}
