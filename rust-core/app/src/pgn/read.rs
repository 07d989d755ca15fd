//! Reading PGN: the tag pairs, then the movetext split into tokens (move numbers, moves,
//! comments, NAGs and suffix annotations, variations, the result), each move resolved
//! against the position so the first bad one is reported by its move number.

use super::{Nag, PgnError, PgnGame, PgnResult};
use crate::any::AnyGame;
use crate::notation;
use banco_game::{Game, GameKind, MatchGame};

/// Largest PGN text read (a database of many games is read game by game).
pub const MAX_BYTES: usize = 4 << 20;
/// Most plies in one game.
const MAX_PLIES: usize = 5_000;

/// One piece of movetext.
#[derive(Debug, PartialEq, Eq)]
enum Token<'a> {
    Move(&'a str),
    Comment(String),
    Nag(u8),
    Open,
    Close,
    Result(PgnResult),
}

fn tokens(text: &str) -> Result<Vec<Token<'_>>, PgnError> {
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        let Some(c) = rest.chars().next() else {
            return Ok(out);
        };
        match c {
            '{' => {
                let end = rest.find('}').ok_or(PgnError::Syntax(
                    "a comment opened with { is never closed".into(),
                ))?;
                out.push(Token::Comment(rest[1..end].trim().to_owned()));
                rest = &rest[end + 1..];
            }
            ';' => {
                let end = rest.find('\n').unwrap_or(rest.len());
                out.push(Token::Comment(rest[1..end].trim().to_owned()));
                rest = &rest[end..];
            }
            '(' => {
                out.push(Token::Open);
                rest = &rest[1..];
            }
            ')' => {
                out.push(Token::Close);
                rest = &rest[1..];
            }
            '}' => {
                return Err(PgnError::Syntax(
                    "a `}` closes a comment that was never opened".into(),
                ));
            }
            '$' => {
                let digits: String = rest[1..].chars().take_while(char::is_ascii_digit).collect();
                let n = digits.parse::<u8>().map_err(|_| {
                    PgnError::Syntax(format!("`${digits}` is not an annotation (NAG) 0-255"))
                })?;
                out.push(Token::Nag(n));
                rest = &rest[1 + digits.len()..];
            }
            _ => {
                let end = rest
                    .find(|ch: char| ch.is_whitespace() || "{}();$".contains(ch))
                    .unwrap_or(rest.len());
                let end = end.max(c.len_utf8());
                let word = &rest[..end];
                rest = &rest[end..];
                push_word(word, &mut out);
            }
        }
    }
}

/// A word of movetext: a result, a move number, or a move with suffix annotations.
fn push_word<'a>(word: &'a str, out: &mut Vec<Token<'a>>) {
    if let Some(r) = PgnResult::from_text(word) {
        out.push(Token::Result(r));
        return;
    }
    // A move number (`12.`, `12...`) may be glued to the move (`12.e4`).
    let after_number = word.trim_start_matches(|c: char| c.is_ascii_digit());
    let word = if after_number.starts_with('.') {
        after_number.trim_start_matches('.')
    } else {
        word
    };
    // `e.p.` (or `ep`) written apart after an en-passant capture says nothing more.
    if word.is_empty() || word.eq_ignore_ascii_case("e.p.") || word.eq_ignore_ascii_case("ep") {
        return;
    }
    let body = word.trim_end_matches(['!', '?']);
    let suffix = &word[body.len()..];
    if !body.is_empty() {
        out.push(Token::Move(body));
    }
    if let Some(n) = Nag::from_suffix(suffix) {
        out.push(Token::Nag(n.0));
    }
}

/// Reads a tag line `[Name "value"]`.
fn tag(line: &str) -> Result<(String, String), PgnError> {
    let bad = || PgnError::Syntax(format!("`{}` is not a tag like [Event \"…\"]", cut(line)));
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.trim_end().strip_suffix(']'))
        .ok_or_else(bad)?;
    let (name, value) = inner.split_once(char::is_whitespace).ok_or_else(bad)?;
    let value = value.trim();
    let value = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or_else(bad)?;
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(bad());
    }
    Ok((name.to_owned(), out))
}

fn cut(s: &str) -> String {
    s.chars().take(60).collect()
}

/// The game a PGN's tags name: xiangqi when `Game`/`Variant` say Chinese chess or xiangqi
/// or the FEN has ten ranks; chess otherwise (Chess960 included).
fn kind_of(tags: &[(String, String)]) -> Result<GameKind, PgnError> {
    let get = |n: &str| {
        tags.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(n))
            .map(|(_, v)| v.to_ascii_lowercase())
    };
    for name in ["Variant", "Game"] {
        if let Some(v) = get(name) {
            if v.contains("xiangqi") || v.contains("chinese") {
                return Ok(GameKind::Xiangqi);
            }
            if v.contains("960") || v.contains("fischer") {
                // Chess960 is chess: its castling is read from the FEN (X-FEN or
                // Shredder-FEN), and O-O / O-O-O in the movetext as in any chess game.
                return Ok(GameKind::Chess);
            }
            if v.contains("jieqi") || v.contains("lines") {
                return Err(PgnError::UnsupportedGame(v));
            }
            // Any other variant (atomic, crazyhouse, king of the hill…) has rules of its
            // own: read as chess it would be wrong, so it is refused.
            let plain: String = v.chars().filter(char::is_ascii_alphanumeric).collect();
            let standard = [
                "",
                "standard",
                "chess",
                "normal",
                "fromposition",
                "westernchess",
            ];
            if name == "Variant" && !standard.contains(&plain.as_str()) {
                return Err(PgnError::UnsupportedGame(v));
            }
        }
    }
    if get("FEN").is_some_and(|f| f.split('/').count() == 10) {
        return Ok(GameKind::Xiangqi);
    }
    Ok(GameKind::Chess)
}

/// Normalises an xqbase ICCS move (`H2-E2`) to coordinates (`h2e2`).
fn iccs(word: &str) -> Option<String> {
    let b = word.as_bytes();
    (b.len() == 5
        && b[2] == b'-'
        && b[0].is_ascii_alphabetic()
        && b[3].is_ascii_alphabetic()
        && b[1].is_ascii_digit()
        && b[4].is_ascii_digit())
    .then(|| format!("{}{}", &word[..2], &word[3..]).to_ascii_lowercase())
}

/// Splits a text into games: each starts with its tags; movetext runs to the next tag
/// block.
pub(super) fn split_games(text: &str) -> Vec<String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut games = Vec::new();
    let mut cur = String::new();
    let mut in_moves = false;
    // Inside a `{…}` comment, which may run over lines and hold anything but `}` (a line
    // starting with `[` there is no tag).
    let mut in_comment = false;
    for line in text.lines() {
        let t = line.trim_start();
        if !in_comment {
            if t.starts_with('%') {
                continue; // an escape line
            }
            if t.starts_with('[') && in_moves {
                games.push(std::mem::take(&mut cur));
                in_moves = false;
            }
            if !t.starts_with('[') && !t.is_empty() {
                in_moves = true;
            }
        }
        if in_moves {
            in_comment = comment_open_after(line, in_comment);
        }
        cur.push_str(line);
        cur.push('\n');
    }
    if !cur.trim().is_empty() {
        games.push(cur);
    }
    games
}

/// Whether a `{…}` comment is still open at the end of a movetext `line` that starts
/// inside one when `open`: braces pair up, and a `;` outside a comment hides the rest of
/// the line.
fn comment_open_after(line: &str, mut open: bool) -> bool {
    for c in line.chars() {
        match (open, c) {
            (true, '}') => open = false,
            (false, '{') => open = true,
            (false, ';') => break,
            _ => {}
        }
    }
    open
}

/// Reads one game.
pub(super) fn read_game(text: &str) -> Result<PgnGame, PgnError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut tags = Vec::new();
    let mut movetext = String::new();
    let mut in_comment = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('[') && movetext.trim().is_empty() {
            tags.push(tag(t)?);
        } else if in_comment || !t.starts_with('%') {
            in_comment = comment_open_after(line, in_comment);
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    if tags.is_empty() && movetext.trim().is_empty() {
        return Err(PgnError::Empty);
    }
    let kind = kind_of(&tags)?;
    let fen = tags
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("FEN"))
        .map(|(_, v)| v.clone());
    let mut game = match &fen {
        Some(f) => AnyGame::from_fen(kind, f),
        None => AnyGame::new(kind),
    }
    .map_err(|e| PgnError::BadFen(e.to_string()))?;
    let start_fen = game.fen();
    let mut out = PgnGame {
        kind,
        tags: tags
            .into_iter()
            .filter(|(k, _)| !["FEN", "SetUp"].iter().any(|n| k.eq_ignore_ascii_case(n)))
            .collect(),
        start_fen: fen.map(|_| start_fen),
        moves: Vec::new(),
        comments: Vec::new(),
        nags: Vec::new(),
        result: PgnResult::Unknown,
        notes: Vec::new(),
    };
    let mut depth = 0usize;
    let mut skipped = 0usize;
    for token in tokens(&movetext)? {
        match token {
            Token::Open => {
                depth += 1;
                if depth == 1 {
                    skipped += 1;
                }
            }
            Token::Close => {
                depth = depth.checked_sub(1).ok_or_else(|| {
                    PgnError::Syntax("a `)` closes a variation that was never opened".into())
                })?;
            }
            _ if depth > 0 => {}
            Token::Comment(c) => out.comments.push((out.moves.len(), c)),
            Token::Nag(n) => out.nags.push((out.moves.len(), Nag(n))),
            Token::Result(r) => out.result = r,
            Token::Move(word) => {
                if out.moves.len() >= MAX_PLIES {
                    return Err(PgnError::TooLong(MAX_PLIES));
                }
                let normal = iccs(word);
                let text = normal.as_deref().unwrap_or(word);
                let number = crate::notation::move_number(&game);
                let side = game.side_to_move();
                let illegal = |why: String| PgnError::IllegalMove {
                    number,
                    side: crate::any::color_name(kind, side),
                    text: cut(word),
                    why,
                };
                if game.outcome(&crate::any::AnyRules::usual(kind)).is_some()
                    && game.legal_move_vec().is_empty()
                {
                    return Err(illegal("the game is already over".into()));
                }
                let mv =
                    notation::parse_move(&game, text, None).map_err(|e| illegal(e.to_string()))?;
                game.play(mv).map_err(|e| illegal(e.to_string()))?;
                out.moves.push(mv);
            }
        }
    }
    if depth > 0 {
        return Err(PgnError::Syntax("a variation `(` is never closed".into()));
    }
    if skipped > 0 {
        out.notes.push(format!(
            "{skipped} variation{} skipped: only the main line is read",
            if skipped == 1 { "" } else { "s" }
        ));
    }
    if out.result == PgnResult::Unknown
        && let Some(r) = out.tag("Result").and_then(PgnResult::from_text)
    {
        out.result = r;
    }
    // A game the moves end (mate, stalemate, a rule's draw) has the result they show; a
    // record that says otherwise is noted, not believed.
    if let Some(end) = game.outcome(&crate::any::AnyRules::usual(kind))
        && PgnResult::of(Some(end)) != out.result
    {
        let shown = PgnResult::of(Some(end));
        if out.result != PgnResult::Unknown {
            out.notes.push(format!(
                "the record says {}, but the moves end the game {} ({}): {} kept",
                out.result.text(),
                end.score_text(),
                end.reason_text(),
                end.score_text()
            ));
        }
        out.result = shown;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn movetext_tokens() {
        let t = tokens("1.e4 e5!? {good} 2. Nf3 (2. f4 exf4) $1 ; rest\n 1-0").unwrap();
        assert_eq!(
            t,
            vec![
                Token::Move("e4"),
                Token::Move("e5"),
                Token::Nag(5),
                Token::Comment("good".into()),
                Token::Move("Nf3"),
                Token::Open,
                Token::Move("f4"),
                Token::Move("exf4"),
                Token::Close,
                Token::Nag(1),
                Token::Comment("rest".into()),
                Token::Result(PgnResult::FirstWins),
            ]
        );
        assert!(tokens("{ never closed").is_err());
        assert_eq!(iccs("H2-E2").as_deref(), Some("h2e2"));
        assert_eq!(iccs("Nf3"), None);
    }
}
