//! Text on the wire, shared by UCI and UCCI: input lines read as bytes (a byte that is not
//! UTF-8 spoils its line only), the numbers of a `go` command (a limit given but not a
//! number is taken at its least, never dropped), and xiangqi ranks written from 1 (UCI's
//! `XiangqiRanks 1-10`).
//!
//! The module is private; its tests below show each rule at work.

use std::io::BufRead;
use std::str::FromStr;

/// Reads the next line of `input` (without its end), decoding it lossily: a byte that is
/// not UTF-8 becomes U+FFFD, so a command in another encoding (a GBK path from a Chinese
/// GUI) is read as far as it can be and the session goes on. `None` at the end of the
/// input.
pub(crate) fn read_line<R: BufRead>(
    input: &mut R,
    buf: &mut Vec<u8>,
) -> std::io::Result<Option<String>> {
    buf.clear();
    if input.read_until(b'\n', buf)? == 0 {
        return Ok(None);
    }
    while matches!(buf.last(), Some(b'\n' | b'\r')) {
        buf.pop();
    }
    Ok(Some(String::from_utf8_lossy(buf).into_owned()))
}

/// The value after `key` in `args`: `Ok(None)` when `key` is absent, `Err` with the text
/// found (or `nothing`) when it is there but its value does not parse.
pub(crate) fn value_after<T: FromStr>(args: &[&str], key: &str) -> Result<Option<T>, String> {
    let Some(i) = args.iter().position(|&t| t == key) else {
        return Ok(None);
    };
    match args.get(i + 1) {
        Some(v) => v.parse().map(Some).map_err(|_| (*v).to_owned()),
        None => Err("nothing".to_owned()),
    }
}

/// The limits of a `go` command being read, and what was wrong with them.
#[derive(Debug, Default)]
pub(crate) struct GoReader {
    /// One line (without `info string`) per limit that was not a number.
    pub(crate) notes: Vec<String>,
}

impl GoReader {
    /// The count after `key` (`depth`, `nodes`, `movetime`, …): absent, or a whole number;
    /// anything else (`-5`, `1.5`, `abc`, nothing) is noted and read as `least`, so the
    /// search stays bounded.
    pub(crate) fn count(&mut self, args: &[&str], key: &str, least: u64) -> Option<u64> {
        self.number(args, key, least)
    }

    /// [`GoReader::count`] for a depth (`u32`); `depth infinite` (UCCI) is no depth.
    pub(crate) fn depth(&mut self, args: &[&str], key: &str) -> Option<u32> {
        if args
            .iter()
            .position(|&t| t == key)
            .and_then(|i| args.get(i + 1))
            == Some(&"infinite")
        {
            return None;
        }
        self.number(args, key, 1)
    }

    /// Notes every word of `args` that is not a word of the dialect's `go`: `valued` take
    /// the token after them, `flags` stand alone, and `list` (UCI's `searchmoves`) takes
    /// every token up to the next known word. A misspelt limit (`movetme 300`) would
    /// otherwise leave a search without end and nothing said.
    pub(crate) fn unknown_words(
        &mut self,
        args: &[&str],
        valued: &[&str],
        flags: &[&str],
        list: Option<&str>,
    ) {
        let known = |t: &&str| valued.contains(t) || flags.contains(t) || Some(*t) == list;
        let mut i = 0;
        while let Some(&t) = args.get(i) {
            if valued.contains(&t) {
                i += 2;
            } else if flags.contains(&t) {
                i += 1;
            } else if Some(t) == list {
                i += 1;
                while args.get(i).is_some_and(|t| !known(t)) {
                    i += 1;
                }
            } else {
                self.notes
                    .push(format!("go: `{t}` is not a word of go here; ignored"));
                i += 1;
            }
        }
    }

    fn number<T: FromStr + Copy + std::fmt::Display>(
        &mut self,
        args: &[&str],
        key: &str,
        least: T,
    ) -> Option<T> {
        match value_after(args, key) {
            Ok(v) => v,
            Err(bad) => {
                self.notes.push(format!(
                    "go {key} `{bad}` is not a whole number: read as {key} {least}"
                ));
                Some(least)
            }
        }
    }
}

/// The file letter, rank, file letter and rank of a coordinate move (`h2e2`, `b3b10`).
fn squares(text: &str) -> Option<(char, u32, char, u32)> {
    let is_file = |c: char| ('a'..='i').contains(&c);
    let f1 = text.chars().next().filter(|&c| is_file(c))?;
    let rest = &text[1..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let r1: u32 = rest.get(..digits).filter(|d| !d.is_empty())?.parse().ok()?;
    let rest = &rest[digits..];
    let f2 = rest.chars().next().filter(|&c| is_file(c))?;
    let tail = &rest[1..];
    if tail.is_empty() || !tail.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((f1, r1, f2, tail.parse().ok()?))
}

/// `h2e2` (ranks 0–9) written with ranks 1–10 (`h3e3`); other text unchanged.
pub(crate) fn ranks_to_one(text: &str) -> String {
    match squares(text) {
        Some((f1, r1 @ 0..=9, f2, r2 @ 0..=9)) => format!("{f1}{}{f2}{}", r1 + 1, r2 + 1),
        _ => text.to_owned(),
    }
}

/// `h3e3` or `b3b10` (ranks 1–10) written with ranks 0–9 (`h2e2`, `b2b9`); other text
/// unchanged (the game then refuses it, naming it as the interface sent it).
pub(crate) fn ranks_from_one(text: &str) -> String {
    match squares(text) {
        Some((f1, r1 @ 1..=10, f2, r2 @ 1..=10)) => format!("{f1}{}{f2}{}", r1 - 1, r2 - 1),
        _ => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// `printf 'ucci\nsetoption bookfiles C:\\象棋\\b.dat\nisready\n' | iconv -t gbk`
    /// ended the engine (`line?` on a line that is not UTF-8): every line is read now.
    #[test]
    fn a_line_that_is_not_utf8_is_read_lossily() {
        let mut input: &[u8] =
            b"ucci\nsetoption bookfiles C:\\\xcf\xf3\xc6\xe5\\b.dat\n\xff\r\nisready";
        let mut buf = Vec::new();
        let mut lines = Vec::new();
        while let Some(l) = read_line(&mut input, &mut buf).unwrap() {
            lines.push(l);
        }
        assert_eq!(lines.len(), 4, "{lines:?}");
        assert!(
            lines[1].starts_with("setoption bookfiles C:\\"),
            "{lines:?}"
        );
        assert_eq!(lines[2], "\u{fffd}");
        assert_eq!(lines[3], "isready");
    }

    #[test]
    fn a_limit_that_is_not_a_number_is_taken_at_its_least() {
        let mut r = GoReader::default();
        assert_eq!(r.depth(&["depth", "7"], "depth"), Some(7));
        assert_eq!(r.depth(&["nodes", "7"], "depth"), None);
        assert_eq!(r.depth(&["depth", "infinite"], "depth"), None);
        assert!(r.notes.is_empty());
        assert_eq!(r.depth(&["depth", "-3"], "depth"), Some(1));
        assert_eq!(r.depth(&["depth", "1.5"], "depth"), Some(1));
        assert_eq!(r.depth(&["depth"], "depth"), Some(1));
        assert_eq!(r.count(&["movetime", "-5"], "movetime", 0), Some(0));
        assert_eq!(r.count(&["nodes", "x"], "nodes", 1), Some(1));
        assert_eq!(r.notes.len(), 5, "{:?}", r.notes);
        assert_eq!(
            r.notes[0],
            "go depth `-3` is not a whole number: read as depth 1"
        );
        assert!(r.notes[2].contains("`nothing`"), "{:?}", r.notes);
    }

    #[test]
    fn ranks_from_zero_and_from_one() {
        assert_eq!(ranks_to_one("h2e2"), "h3e3");
        assert_eq!(ranks_to_one("b2b9"), "b3b10");
        assert_eq!(ranks_to_one("a0a9"), "a1a10");
        assert_eq!(ranks_from_one("h3e3"), "h2e2");
        assert_eq!(ranks_from_one("b3b10"), "b2b9");
        assert_eq!(ranks_from_one("i10i1"), "i9i0");
        // Not a move on ranks 1–10 (or 0–9): left for the game to refuse.
        for text in [
            "h0e0", "b3b11", "=R", "0000", "h3e", "j3e3", "h3e3x", "e2e4q", "",
        ] {
            assert_eq!(ranks_from_one(text), text);
        }
        assert_eq!(ranks_to_one("=R"), "=R");
        assert_eq!(ranks_to_one("b3b10"), "b3b10");
    }
}
