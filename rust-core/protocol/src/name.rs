//! Display names that came from another device: checked in one place, on receipt.
//!
//! A peer's name reaches screens and terminals (the greeting of the handshake, the mDNS TXT
//! record, the BLE info characteristic). A hostile name could carry terminal escape
//! sequences, bidirectional overrides or invisible characters to fake text next to the
//! pairing code ("Bob: code 123456. Same?" followed by an escape that hides the rest).
//! [`clean_name`] **cleans** rather than rejects — a name is only a label, and refusing a
//! connection over it would turn a typo into a denial of service — so:
//!
//! * control characters (C0, DEL, C1 — including ESC and CSI) are removed;
//! * bidirectional marks, embeddings, overrides and isolates are removed;
//! * zero-width and other invisible format characters (ZWSP, ZWNJ, ZWJ, word joiner, BOM,
//!   soft hyphen, invisible operators, tag characters, Hangul fillers) are removed;
//! * every run of white space (including line and paragraph separators) becomes one space,
//!   and the ends are trimmed;
//! * the result is cut to [`MAX_NAME_CHARS`] characters;
//! * a name with nothing left is [`UNNAMED`].
//!
//! The same function cleans the local name before it is sent, so what a player typed is
//! what the other side shows.
//!
//! ```
//! use banco_protocol::name::{clean_name, is_clean};
//!
//! let hostile = "Bob: code 123456. Same? [y/n]\u{1b}[2K\u{1b}[1A";
//! let shown = clean_name(hostile);
//! assert!(!shown.contains('\u{1b}'));
//! assert!(is_clean(&shown));
//! assert_eq!(clean_name("  An \u{202e}kcab\u{2066} "), "An kcab");
//! assert_eq!(clean_name("\u{200b}\u{7}"), "unnamed");
//! ```

/// Longest display name, in characters (Unicode scalar values).
pub const MAX_NAME_CHARS: usize = 32;

/// The name shown for a peer whose name had nothing printable.
pub const UNNAMED: &str = "unnamed";

/// True for characters a display name must not carry (see the [module docs](self)).
pub fn is_forbidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            // Bidirectional marks, embeddings, overrides and isolates.
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
            // Zero-width and invisible format characters.
            | '\u{00ad}' | '\u{034f}' | '\u{115f}' | '\u{1160}' | '\u{17b4}' | '\u{17b5}'
            | '\u{180b}'..='\u{180f}' | '\u{200b}'..='\u{200d}' | '\u{2060}'..='\u{2064}'
            | '\u{206a}'..='\u{206f}' | '\u{3164}' | '\u{feff}' | '\u{ffa0}'
            | '\u{fff9}'..='\u{fffb}' | '\u{e0000}'..='\u{e007f}'
        )
}

/// The name as it may be shown (see the [module docs](self)).
pub fn clean_name(raw: &str) -> String {
    printable_name(raw).unwrap_or_else(|| UNNAMED.to_owned())
}

/// The name as [`clean_name`] shows it, or `None` when nothing printable is left (where
/// `clean_name` says [`UNNAMED`]): the check of a player's own name before it is used,
/// which refuses what would be sent as nothing.
///
/// ```
/// use banco_protocol::name::printable_name;
/// assert_eq!(printable_name("  An \u{202e}"), Some("An".to_owned()));
/// assert_eq!(printable_name("\u{200b} \t"), None);
/// ```
pub fn printable_name(raw: &str) -> Option<String> {
    let mut out = String::with_capacity(raw.len().min(4 * MAX_NAME_CHARS));
    let mut chars = 0;
    let mut space = false;
    for c in raw.chars() {
        if chars >= MAX_NAME_CHARS {
            break;
        }
        if c.is_whitespace() {
            space = !out.is_empty();
            continue;
        }
        if is_forbidden(c) {
            continue;
        }
        if space {
            // Room for the space and a character after it, or the cut ends here.
            if chars + 2 > MAX_NAME_CHARS {
                break;
            }
            out.push(' ');
            chars += 1;
            space = false;
        }
        out.push(c);
        chars += 1;
    }
    (!out.is_empty()).then_some(out)
}

/// True if `name` is already what [`clean_name`] makes of it.
pub fn is_clean(name: &str) -> bool {
    clean_name(name) == name
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn escapes_bidi_and_invisible_characters_are_removed() {
        for (raw, want) in [
            ("Lan", "Lan"),
            ("Nguyễn Văn An", "Nguyễn Văn An"),
            ("象棋 大师", "象棋 大师"),
            ("\u{1b}[31mRed\u{1b}[0m", "[31mRed[0m"),
            ("a\u{9b}31mb", "a31mb"),
            ("x\ny\r\tz", "x y z"),
            ("ab\u{2028}cd\u{2029}", "ab cd"),
            ("evil\u{202e}gnp.exe", "evilgnp.exe"),
            ("i\u{2067}so\u{2069}", "iso"),
            ("z\u{200b}w\u{200d}j\u{feff}", "zwj"),
            ("tag\u{e0041}", "tag"),
            ("\u{3164}", UNNAMED),
            ("   ", UNNAMED),
            ("", UNNAMED),
        ] {
            assert_eq!(clean_name(raw), want, "{raw:?}");
            let printable = (want != UNNAMED).then(|| want.to_owned());
            assert_eq!(printable_name(raw), printable, "{raw:?}");
        }
    }

    #[test]
    fn long_names_are_cut_in_characters() {
        let long = "é".repeat(100);
        assert_eq!(clean_name(&long).chars().count(), MAX_NAME_CHARS);
        let spaced = format!("{} b", "a".repeat(MAX_NAME_CHARS - 1));
        // The space would be the last character: the cut drops it rather than end on it.
        assert_eq!(clean_name(&spaced), "a".repeat(MAX_NAME_CHARS - 1));
    }

    proptest! {
        #![proptest_config(banco_game::testing::proptest_config(None, 0x4A3E))]

        #[test]
        fn cleaned_names_are_clean_and_bounded(raw in any::<String>()) {
            let c = clean_name(&raw);
            prop_assert!(is_clean(&c));
            prop_assert!(c.chars().count() <= MAX_NAME_CHARS);
            prop_assert!(!c.chars().any(is_forbidden));
            prop_assert!(!c.starts_with(' ') && !c.ends_with(' '));
        }
    }
}
