//! The value of the Banco service's read-only **info** characteristic: what a lobby shows about
//! a host before a match (display name, games offered, protocol version, key fingerprint) —
//! the same facts, keys and encoding as the mDNS TXT record of the LAN advertisement.
//!
//! The value is a DNS-SD TXT record body (RFC 6763 §6): a sequence of `length, "key=value"`
//! strings, each at most 255 bytes, keys as in [`discovery::peer`](crate::discovery::peer)
//! (`name`, `games`, `v`, `fp`). Unknown keys are ignored and the first of a repeated key wins,
//! so later versions can add keys. A whole value is at most [`MAX_INFO_BYTES`] (the largest ATT
//! attribute); the central reads it with one ATT Read plus Read Blob requests as the MTU needs.
//!
//! Nothing a peer sends is trusted: [`decode_info`] validates every field and refuses the
//! whole value on the first problem (an [`InfoError`] a lobby can log and skip):
//! * the display name must pass [`check_display_name`] — not empty, at most
//!   [`MAX_NAME_BYTES`] bytes, no control, bidirectional-override, zero-width or other
//!   invisible formatting characters (they would let a peer impersonate another one in a
//!   list, or reorder the text around it);
//! * the protocol version is a decimal `u16`;
//! * the fingerprint is at most 16 lower-case hex digits;
//! * games this build does not know are skipped (a newer peer may offer more).
//!
//! [`check_display_name`] is the one name validator of banco-net: the LAN lobby's TXT parser
//! should call it too, so a name refused over Bluetooth is refused over Wi-Fi.
//!
//! ```
//! use banco_game::GameKind;
//! use banco_net::ble::info::{decode_info, encode_info};
//! use banco_net::discovery::Advertisement;
//!
//! let ad = Advertisement::new("Alice", vec![GameKind::Xiangqi, GameKind::Jieqi], 1, "a1b2-c3d4");
//! let value = encode_info(&ad);
//! assert_eq!(&value[..11], b"\x0aname=Alice");
//! let seen = decode_info(&value)?;
//! assert_eq!(seen.name, "Alice");
//! assert_eq!(seen.games, vec![GameKind::Xiangqi, GameKind::Jieqi]);
//! assert_eq!(seen.fingerprint, "a1b2c3d4");
//! // A name that would flip the text around it is refused.
//! let evil = Advertisement::new("Bob\u{202e}", vec![], 1, "");
//! assert!(decode_info(&encode_raw(&evil)).is_err());
//! # fn encode_raw(ad: &Advertisement) -> Vec<u8> {
//! #     let entry = format!("name={}", ad.name);
//! #     let mut v = vec![entry.len() as u8];
//! #     v.extend_from_slice(entry.as_bytes());
//! #     v
//! # }
//! # Ok::<(), banco_net::ble::info::InfoError>(())
//! ```

use banco_game::GameKind;

use crate::discovery::Advertisement;
use crate::discovery::peer::{TXT_FINGERPRINT, TXT_GAMES, TXT_NAME, TXT_VERSION};

pub use crate::discovery::MAX_NAME_BYTES;

/// Largest info value: the largest ATT attribute value.
pub const MAX_INFO_BYTES: usize = 512;
/// Most games one peer may list (more is refused as garbage).
pub const MAX_GAMES: usize = 16;
/// Longest fingerprint kept, in hex digits.
pub const MAX_FINGERPRINT_DIGITS: usize = 16;

/// Why an info value (or a display name) was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InfoError {
    /// The value is longer than an ATT attribute can be.
    #[error("info value of {len} bytes exceeds {MAX_INFO_BYTES} bytes")]
    TooLong {
        /// Its length.
        len: usize,
    },
    /// A TXT string's length byte runs past the end of the value.
    #[error("info entry at byte {at} runs past the end of the value")]
    Truncated {
        /// Offset of the length byte.
        at: usize,
    },
    /// A TXT string is not UTF-8.
    #[error("info entry at byte {at} is not UTF-8")]
    NotUtf8 {
        /// Offset of the length byte.
        at: usize,
    },
    /// No `name` key.
    #[error("info has no display name")]
    NoName,
    /// The display name is refused.
    #[error("display name refused: {0}")]
    BadName(#[from] NameError),
    /// The `v` key is not a decimal `u16`, or missing.
    #[error("protocol version {0:?} is not a number from 0 to 65535")]
    BadVersion(String),
    /// The `fp` key is not at most 16 hex digits.
    #[error("key fingerprint {0:?} is not at most 16 hex digits")]
    BadFingerprint(String),
    /// The `games` key lists more than [`MAX_GAMES`] entries.
    #[error("more than {MAX_GAMES} games listed")]
    TooManyGames,
}

/// Why a display name was refused by [`check_display_name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NameError {
    /// Empty, or only spaces.
    #[error("the name is empty")]
    Empty,
    /// Longer than [`MAX_NAME_BYTES`] bytes of UTF-8.
    #[error("the name has {len} bytes, at most {MAX_NAME_BYTES} are allowed")]
    TooLong {
        /// Its length in bytes.
        len: usize,
    },
    /// Contains a character that is invisible or changes how text around it is shown.
    #[error("the name contains the invisible or control character U+{code:04X}")]
    Forbidden {
        /// The character's code point.
        code: u32,
    },
}

/// True for characters a display name may not contain: control characters (C0, DEL, C1),
/// bidirectional marks, embeddings, overrides and isolates, zero-width and other invisible
/// format characters (soft hyphen, word joiner, invisible operators, BOM, interlinear
/// annotation, tags), and the line/paragraph separators.
pub fn is_forbidden_in_name(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'                   // soft hyphen
            | '\u{034F}'                 // combining grapheme joiner
            | '\u{061C}'                 // Arabic letter mark
            | '\u{115F}' | '\u{1160}'    // Hangul fillers
            | '\u{17B4}' | '\u{17B5}'    // Khmer inherent vowels
            | '\u{180E}'                 // Mongolian vowel separator
            | '\u{200B}'..='\u{200F}'    // zero-width space/joiners, LRM, RLM
            | '\u{2028}'..='\u{202E}'    // separators, embeddings, overrides
            | '\u{2060}'..='\u{206F}'    // word joiner, invisible operators, isolates
            | '\u{3164}'                 // Hangul filler
            | '\u{FE00}'..='\u{FE0F}'    // variation selectors
            | '\u{FEFF}'                 // zero-width no-break space (BOM)
            | '\u{FFA0}'                 // halfwidth Hangul filler
            | '\u{FFF9}'..='\u{FFFB}'    // interlinear annotation
            | '\u{1D173}'..='\u{1D17A}'  // musical format characters
            | '\u{E0000}'..='\u{E0FFF}' // tags and variation selectors supplement
        )
}

/// Checks a display name received from a peer (or typed by the user before it is sent):
/// 1 to [`MAX_NAME_BYTES`] bytes, not blank, nothing [`is_forbidden_in_name`].
///
/// ```
/// use banco_net::ble::info::{NameError, check_display_name};
///
/// assert_eq!(check_display_name("Lão Tướng"), Ok(()));
/// assert_eq!(check_display_name("  "), Err(NameError::Empty));
/// assert_eq!(check_display_name("Al\u{200b}ice"), Err(NameError::Forbidden { code: 0x200b }));
/// ```
pub fn check_display_name(name: &str) -> Result<(), NameError> {
    if name.len() > MAX_NAME_BYTES {
        return Err(NameError::TooLong { len: name.len() });
    }
    if let Some(c) = name.chars().find(|&c| is_forbidden_in_name(c)) {
        return Err(NameError::Forbidden { code: u32::from(c) });
    }
    if name.trim().is_empty() {
        return Err(NameError::Empty);
    }
    Ok(())
}

/// The info value a host publishes: the TXT entries of
/// [`Advertisement::txt`] (name already cut to [`MAX_NAME_BYTES`], fingerprint cleaned).
/// Forbidden characters are removed from the name first, so what a host sends always passes
/// [`decode_info`].
pub fn encode_info(ad: &Advertisement) -> Vec<u8> {
    let cleaned: String = ad
        .name
        .chars()
        .filter(|&c| !is_forbidden_in_name(c))
        .collect();
    let ad = Advertisement {
        name: cleaned,
        ..ad.clone()
    };
    let mut out = Vec::new();
    for (key, value) in ad.txt() {
        let entry = format!("{key}={value}");
        // Every entry is short (name ≤ 40 bytes, fingerprint ≤ 16, four game names), so the
        // 255-byte limit of a TXT string and the 512-byte attribute are never reached.
        let Ok(len) = u8::try_from(entry.len()) else {
            continue;
        };
        if out.len() + 1 + entry.len() > MAX_INFO_BYTES {
            break;
        }
        out.push(len);
        out.extend_from_slice(entry.as_bytes());
    }
    out
}

/// Splits a TXT record body into its `key=value` strings.
fn entries(value: &[u8]) -> Result<Vec<(&str, &str)>, InfoError> {
    let mut out: Vec<(&str, &str)> = Vec::new();
    let mut at = 0;
    while let Some(&len) = value.get(at) {
        let body = value
            .get(at + 1..at + 1 + usize::from(len))
            .ok_or(InfoError::Truncated { at })?;
        let text = std::str::from_utf8(body).map_err(|_| InfoError::NotUtf8 { at })?;
        let (key, val) = text.split_once('=').unwrap_or((text, ""));
        // RFC 6763 §6.4: keys are case-insensitive, a repeated key is ignored.
        if !key.is_empty() && !out.iter().any(|(k, _)| k.eq_ignore_ascii_case(key)) {
            out.push((key, val));
        }
        at += 1 + usize::from(len);
    }
    Ok(out)
}

/// Reads and validates an info value received from a peer. See the [module docs](self).
pub fn decode_info(value: &[u8]) -> Result<Advertisement, InfoError> {
    if value.len() > MAX_INFO_BYTES {
        return Err(InfoError::TooLong { len: value.len() });
    }
    let entries = entries(value)?;
    let get = |key: &str| {
        entries
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|&(_, v)| v)
    };
    let name = get(TXT_NAME).ok_or(InfoError::NoName)?;
    check_display_name(name)?;
    let version = get(TXT_VERSION).unwrap_or_default();
    let protocol_version = version
        .parse::<u16>()
        .map_err(|_| InfoError::BadVersion(version.chars().take(16).collect()))?;
    let fp = get(TXT_FINGERPRINT).unwrap_or_default();
    if fp.len() > MAX_FINGERPRINT_DIGITS || !fp.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(InfoError::BadFingerprint(fp.chars().take(20).collect()));
    }
    let listed: Vec<&str> = get(TXT_GAMES)
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|g| !g.is_empty())
        .collect();
    if listed.len() > MAX_GAMES {
        return Err(InfoError::TooManyGames);
    }
    let mut games: Vec<GameKind> = Vec::new();
    for kind in listed.into_iter().filter_map(GameKind::from_name) {
        if !games.contains(&kind) {
            games.push(kind);
        }
    }
    Ok(Advertisement::new(
        name,
        games,
        protocol_version,
        &fp.to_ascii_lowercase(),
    ))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn raw(entries: &[&str]) -> Vec<u8> {
        let mut v = Vec::new();
        for e in entries {
            v.push(e.len() as u8);
            v.extend_from_slice(e.as_bytes());
        }
        v
    }

    #[test]
    fn round_trip_of_every_game_and_a_long_name() {
        let ad = Advertisement::new(
            "Nguyễn Văn A — câu lạc bộ cờ tướng Hà Nội",
            GameKind::ALL.to_vec(),
            65535,
            "0123-4567-89ab-cdef",
        );
        let value = encode_info(&ad);
        assert!(value.len() <= MAX_INFO_BYTES);
        let back = decode_info(&value).unwrap();
        assert_eq!(back.name, ad.display_name());
        assert!(back.name.len() <= MAX_NAME_BYTES);
        assert_eq!(back.games, GameKind::ALL.to_vec());
        assert_eq!(back.protocol_version, 65535);
        assert_eq!(back.fingerprint, "0123456789abcdef");
    }

    #[test]
    fn the_host_cleans_its_own_name() {
        let ad = Advertisement::new("Al\u{200d}ice\u{202e}", vec![GameKind::Chess], 1, "");
        let back = decode_info(&encode_info(&ad)).unwrap();
        assert_eq!(back.name, "Alice");
        assert_eq!(back.fingerprint, "");
    }

    #[test]
    fn refuses_bad_fields() {
        let ok = ["name=A", "v=1", "fp=ab", "games=xiangqi"];
        assert!(decode_info(&raw(&ok)).is_ok());
        let cases: [(&[&str], InfoError); 9] = [
            (&["v=1"], InfoError::NoName),
            (&["name=", "v=1"], InfoError::BadName(NameError::Empty)),
            (
                &["name=a\u{7}b", "v=1"],
                InfoError::BadName(NameError::Forbidden { code: 7 }),
            ),
            (
                &["name=\u{2067}x", "v=1"],
                InfoError::BadName(NameError::Forbidden { code: 0x2067 }),
            ),
            (
                &["name=\u{feff}x", "v=1"],
                InfoError::BadName(NameError::Forbidden { code: 0xfeff }),
            ),
            (
                &["name=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "v=1"],
                InfoError::BadName(NameError::TooLong { len: 41 }),
            ),
            (
                &["name=A", "v=70000"],
                InfoError::BadVersion("70000".into()),
            ),
            (
                &["name=A", "v=1", "fp=xyz"],
                InfoError::BadFingerprint("xyz".into()),
            ),
            (
                &["name=A", "v=1", "games=a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q"],
                InfoError::TooManyGames,
            ),
        ];
        for (entries, want) in cases {
            assert_eq!(decode_info(&raw(entries)), Err(want), "{entries:?}");
        }
        assert_eq!(
            decode_info(&[5, b'n', b'a']),
            Err(InfoError::Truncated { at: 0 })
        );
        assert_eq!(
            decode_info(&[2, 0xff, 0xfe]),
            Err(InfoError::NotUtf8 { at: 0 })
        );
        assert_eq!(decode_info(&[0; 513]), Err(InfoError::TooLong { len: 513 }));
    }

    #[test]
    fn first_key_wins_unknown_keys_and_games_are_skipped() {
        let v = raw(&[
            "",
            "NAME=Bob",
            "name=Mallory",
            "future=1",
            "flag",
            "v=2",
            "games=go, chess,chess,xiangqi",
        ]);
        let ad = decode_info(&v).unwrap();
        assert_eq!(ad.name, "Bob");
        assert_eq!(ad.protocol_version, 2);
        assert_eq!(ad.games, vec![GameKind::Chess, GameKind::Xiangqi]);
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn decoding_garbage_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
                let _ = decode_info(&bytes);
            }

            #[test]
            fn what_a_host_encodes_decodes(name in "\\PC{0,60}", fp in "[0-9a-f-]{0,24}", v in any::<u16>(),
                                           games in proptest::sample::subsequence(GameKind::ALL.to_vec(), 0..=4)) {
                let ad = Advertisement::new(&name, games.clone(), v, &fp);
                let cleaned: String = name.chars().filter(|&c| !is_forbidden_in_name(c)).collect();
                match decode_info(&encode_info(&ad)) {
                    Ok(back) => {
                        prop_assert!(check_display_name(&back.name).is_ok());
                        prop_assert_eq!(back.games, games);
                        prop_assert_eq!(back.protocol_version, v);
                        prop_assert!(back.fingerprint.len() <= MAX_FINGERPRINT_DIGITS);
                    }
                    // Only a name that is blank once cleaned… which display_name turns into
                    // "banco", so this never happens.
                    Err(e) => prop_assert!(false, "{:?} from {:?} ({:?})", e, name, cleaned),
                }
            }

            #[test]
            fn accepted_names_have_no_forbidden_characters(name in "\\PC{0,50}|[\\u{0}-\\u{3000}]{0,10}") {
                if check_display_name(&name).is_ok() {
                    prop_assert!(!name.chars().any(is_forbidden_in_name));
                    prop_assert!(name.len() <= MAX_NAME_BYTES && !name.trim().is_empty());
                }
            }
        }
    }
}
