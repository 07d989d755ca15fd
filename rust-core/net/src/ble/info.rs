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
//! * the display name is **cleaned**, by the one rule of every peer name (greetings, mDNS TXT
//!   records, this characteristic):
//!   [`clean_name`](banco_protocol::name::clean_name) removes control,
//!   bidirectional-override, zero-width and other invisible characters (they would let a
//!   peer impersonate another one in a list, or reorder the text around it), collapses white
//!   space and cuts it; then it is cut to [`MAX_NAME_BYTES`] as a host's own name is
//!   ([`advertised_name`]), so a name read is written back the same; a name is only a label,
//!   so it is cleaned rather than refused (a value without a `name` key is refused);
//! * the protocol version is a decimal `u16`;
//! * the fingerprint is at most 16 lower-case hex digits;
//! * games this build does not know are skipped (a newer peer may offer more).
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
//! // A name that would flip the text around it is cleaned, as on the LAN.
//! let evil = Advertisement::new("Bob\u{202e}", vec![], 1, "");
//! assert_eq!(decode_info(&encode_raw(&evil))?.name, "Bob");
//! # fn encode_raw(ad: &Advertisement) -> Vec<u8> {
//! #     let mut v = Vec::new();
//! #     for entry in [format!("name={}", ad.name), "v=1".to_owned()] {
//! #         v.push(entry.len() as u8);
//! #         v.extend_from_slice(entry.as_bytes());
//! #     }
//! #     v
//! # }
//! # Ok::<(), banco_net::ble::info::InfoError>(())
//! ```

use banco_game::GameKind;

use crate::discovery::peer::{TXT_FINGERPRINT, TXT_GAMES, TXT_NAME, TXT_VERSION};
use crate::discovery::{Advertisement, advertised_name};

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

/// The info value a host publishes: the TXT entries of [`Advertisement::txt`] (name
/// cleaned and cut to [`MAX_NAME_BYTES`], fingerprint cleaned), so what a host sends
/// decodes to the same name.
pub fn encode_info(ad: &Advertisement) -> Vec<u8> {
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
    let name = advertised_name(get(TXT_NAME).ok_or(InfoError::NoName)?);
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
        &name,
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
        let cases: [(&[&str], InfoError); 4] = [
            (&["v=1"], InfoError::NoName),
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
    fn names_are_cleaned_by_the_rule_of_every_peer_name() {
        for (sent, shown) in [
            ("", banco_protocol::name::UNNAMED),
            ("a\u{7}b", "ab"),
            ("\u{2067}x", "x"),
            ("\u{feff}x", "x"),
            ("  An \u{202e}kcab ", "An kcab"),
            (
                "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            ),
            // 32 characters but 96 bytes: cut to the 40 bytes a host publishes.
            (&"象".repeat(32), &"象".repeat(13)),
        ] {
            let entry = format!("name={sent}");
            let ad = decode_info(&raw(&[&entry, "v=1"])).unwrap();
            assert_eq!(ad.name, shown, "{sent:?}");
            // The same rule as an mDNS TXT record and as a host's own name.
            assert_eq!(ad.name, advertised_name(sent));
        }
    }

    #[test]
    fn a_long_name_read_is_written_back_the_same() {
        // Found by the fuzz target ble_info (2026-12-04): a received name was cut to 32
        // characters only, 90 bytes here, and written back cut to 40 bytes, so an
        // advertisement read did not write back the value it was read from.
        let name = "0* /* / )nAmE=堠=\u{51f92}AmE=堠=\u{51f92}=\u{51fa0}==mE=1";
        let ad = decode_info(&raw(&[&format!("name={name}"), "v=2"])).unwrap();
        assert!(ad.name.len() <= MAX_NAME_BYTES, "{:?}", ad.name);
        assert_eq!(decode_info(&encode_info(&ad)).unwrap(), ad);
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
            #![proptest_config(banco_game::testing::proptest_config(None, 0xB1E))]

            #[test]
            fn decoding_garbage_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
                let _ = decode_info(&bytes);
            }

            #[test]
            fn what_is_read_is_written_back_the_same(name in "\\PC{0,40}", v in any::<u16>()) {
                // Every such value is valid (the entry stays under 255 bytes): it must read.
                let value = raw(&[&format!("name={name}"), &format!("v={v}")]);
                let ad = decode_info(&value)
                    .map_err(|e| TestCaseError::fail(format!("{e:?} from {name:?}")))?;
                prop_assert!(ad.name.len() <= MAX_NAME_BYTES);
                prop_assert_eq!(decode_info(&encode_info(&ad)), Ok(ad));
            }

            #[test]
            fn what_a_host_encodes_decodes(name in "\\PC{0,60}", fp in "[0-9a-f-]{0,24}", v in any::<u16>(),
                                           games in proptest::sample::subsequence(GameKind::ALL.to_vec(), 0..=4)) {
                let ad = Advertisement::new(&name, games.clone(), v, &fp);
                match decode_info(&encode_info(&ad)) {
                    Ok(back) => {
                        prop_assert!(banco_protocol::name::is_clean(&back.name));
                        prop_assert_eq!(&back.name, &ad.display_name());
                        prop_assert_eq!(back.games, games);
                        prop_assert_eq!(back.protocol_version, v);
                        prop_assert!(back.fingerprint.len() <= MAX_FINGERPRINT_DIGITS);
                    }
                    Err(e) => prop_assert!(false, "{:?} from {:?}", e, name),
                }
            }
        }
    }
}
