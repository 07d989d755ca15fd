//! Writing PGN: the seven-tag roster (Red/Black for xiangqi, as xqbase writes it), the
//! start position when it is not the usual one, the movetext (SAN for chess, ICCS
//! `H2-E2` for xiangqi) wrapped at 79 columns, comments, NAGs and the result.

use super::{Headers, PgnResult};
use crate::any::{AnyGame, AnyRules};
use crate::notation::{self, Notation};
use crate::save::{SaveError, SavedGame};
use banco_chess::Chess;
use banco_game::{Color, Game, GameKind, MatchGame};
use std::fmt::Write as _;

fn quote(v: &str) -> String {
    let clean: String = v.chars().filter(|c| !c.is_control()).collect();
    clean.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A tag name as PGN allows it (letters, digits, `_`), or `None` if nothing is left.
fn tag_name(k: &str) -> Option<String> {
    let n: String = k
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!n.is_empty()).then_some(n)
}

/// The move in the record's notation.
fn move_text(game: &AnyGame, mv: crate::any::AnyMove) -> String {
    if game.kind() == GameKind::Chess {
        return notation::write_move(game, mv, Notation::San);
    }
    let c = notation::write_move(game, mv, Notation::Coordinate).to_ascii_uppercase();
    if c.len() == 4 {
        format!("{}-{}", &c[..2], &c[2..])
    } else {
        c
    }
}

/// Comments must not close themselves early.
fn comment(c: &str) -> String {
    c.replace('}', ")").replace(['\r', '\n'], " ")
}

/// The PGN of `game` from its start position with its moves, result and `headers`.
/// Xiangqi and chess only: a jieqi game is refused with [`SaveError::NoPgn`] (no PGN
/// reader, Banco's included, takes its reveals; its text export keeps them).
pub fn export(game: &AnyGame, headers: &Headers) -> Result<String, SaveError> {
    let kind = game.kind();
    if kind == GameKind::Jieqi {
        return Err(SaveError::NoPgn(kind.to_string()));
    }
    let rules = AnyRules::usual(kind);
    let result = PgnResult::of(headers.ending.or_else(|| game.outcome(&rules)));
    let mut s = String::new();
    let (first, second) = (
        crate::tags::side_tag(kind, Color::Red),
        crate::tags::side_tag(kind, Color::Black),
    );
    if kind == GameKind::Xiangqi {
        let _ = writeln!(s, "[Game \"Chinese Chess\"]");
    }
    for (name, value) in [
        ("Event", &headers.event),
        ("Site", &headers.site),
        ("Date", &headers.date),
        ("Round", &headers.round),
        (first, &headers.red),
        (second, &headers.black),
    ] {
        let _ = writeln!(s, "[{name} \"{}\"]", quote(value));
    }
    let _ = writeln!(s, "[Result \"{}\"]", result.text());
    if game.as_chess().is_some_and(Chess::is_chess960) {
        // Readers need it to take the FEN's castling rights by rook files.
        let _ = writeln!(s, "[Variant \"Chess960\"]");
    }
    let start = game.restarted();
    let start_fen = start.fen();
    let usual = AnyGame::new(kind).map(|g| g.fen()).ok();
    if usual.as_deref() != Some(start_fen.as_str()) {
        if kind == GameKind::Chess {
            let _ = writeln!(s, "[SetUp \"1\"]");
        }
        let _ = writeln!(s, "[FEN \"{}\"]", quote(&start_fen));
    }
    if kind == GameKind::Xiangqi {
        let _ = writeln!(s, "[Format \"ICCS\"]");
    }
    for (k, v) in &headers.extra {
        if let Some(k) = tag_name(k) {
            let _ = writeln!(s, "[{k} \"{}\"]", quote(v));
        }
    }
    s.push('\n');

    let mut words: Vec<String> = Vec::new();
    let mut replay = start;
    let mut number: u32 = start_fen
        .split_whitespace()
        .nth(5)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1)
        .max(1);
    let extras = |ply: usize, words: &mut Vec<String>| {
        for (_, n) in headers.nags.iter().filter(|(p, _)| *p == ply) {
            words.push(format!("${}", n.0));
        }
        for (_, c) in headers.comments.iter().filter(|(p, _)| *p == ply) {
            words.push(format!("{{{}}}", comment(c)));
        }
    };
    extras(0, &mut words);
    let mut after_comment = headers.comments.iter().any(|(p, _)| *p == 0);
    for (i, mv) in game.history().into_iter().enumerate() {
        let red = replay.side_to_move() == Color::Red;
        if red {
            words.push(format!("{number}."));
        } else if i == 0 || after_comment {
            words.push(format!("{number}..."));
        }
        words.push(move_text(&replay, mv));
        if replay.play(mv).is_err() {
            break;
        }
        if !red {
            number += 1;
        }
        extras(i + 1, &mut words);
        after_comment = headers.comments.iter().any(|(p, _)| *p == i + 1);
    }
    words.push(result.text().to_owned());
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            s.push_str(&line);
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    s.push_str(&line);
    s.push('\n');
    Ok(s)
}

/// The PGN of a saved game (its tags give the names and date); see [`export`].
pub fn export_saved(saved: &SavedGame) -> Result<String, SaveError> {
    let (game, _rules) = saved.restore()?;
    let mut headers = Headers::from_tags(&saved.tags);
    headers.ending = saved.ending;
    // What the roster and the result do not say: the rules, and why the game ended.
    headers.extra.retain(|(k, _)| !crate::tags::is_own(k));
    headers.extra.extend(crate::tags::rules_tag(saved.rules));
    if let Some(ending) = saved.ending {
        let written = crate::tags::ending_tags(ending, &saved.tags);
        headers
            .extra
            .extend(written.into_iter().filter(|(k, _)| k != "Result"));
    }
    if let Some(p) = saved.player {
        // The roster of a game against the computer, with `Human` and `Level`, as every
        // front end writes it: the player keeps the name the record gives their side. A
        // record with its own roster (a database game played on) keeps its players.
        let own = crate::tags::has_own_roster(&saved.tags);
        let kind = game.kind();
        let side = |color| crate::tags::side_tag(kind, color);
        let (first, second) = (side(Color::Red), side(Color::Black));
        let name = if p.color() == Color::Red {
            &headers.red
        } else {
            &headers.black
        };
        for (k, v) in crate::tags::player_roster(kind, p, name) {
            if own && (k == first || k == second) {
                continue;
            }
            if k == first {
                headers.red = v;
            } else if k == second {
                headers.black = v;
            } else {
                headers.extra.push((k, v));
            }
        }
    }
    export(&game, &headers)
}
