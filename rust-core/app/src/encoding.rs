//! The text of a game record file: UTF-8, or — when its bytes are not UTF-8 — GB18030, the
//! Chinese encoding that includes GBK and GB2312, in which xqbase-style xiangqi PGN files
//! (xqbase.com, XQ Wizard) are usually written. Every reader of a record file (`banco pgn
//! import`, `load`, a file a front end opens) decodes it here, so that a GBK file's Chinese
//! names and movetext read as written instead of as broken UTF-8.
//!
//! ```
//! use banco_app::encoding::decode_text;
//! // 炮二平五 in GBK.
//! let gbk = [0xC5, 0xDA, 0xB6, 0xFE, 0xC6, 0xBD, 0xCE, 0xE5];
//! assert_eq!(decode_text(&gbk)?, "炮二平五");
//! assert_eq!(decode_text("炮二平五".as_bytes())?, "炮二平五");
//! assert!(decode_text(&[0xFF, 0xFF]).is_err());
//! # Ok::<(), banco_app::encoding::NotText>(())
//! ```

use std::borrow::Cow;

/// Bytes that are neither UTF-8 nor GB18030 text (a binary file, or a text in another
/// encoding).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the file is neither UTF-8 nor GBK text")]
pub struct NotText;

/// The text of `bytes`: as UTF-8 when they are UTF-8 (a byte-order mark stays, for the
/// readers that skip it), else as GB18030 (GBK, GB2312); borrowed when nothing had to be
/// converted.
///
/// # Errors
/// [`NotText`] when the bytes are neither.
pub fn decode_text(bytes: &[u8]) -> Result<Cow<'_, str>, NotText> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Ok(Cow::Borrowed(text));
    }
    encoding_rs::GB18030
        .decode_without_bom_handling_and_without_replacement(bytes)
        .ok_or(NotText)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// A GBK-encoded xiangqi PGN of xqbase's style (Chinese names and movetext) reads as
    /// the same PGN in UTF-8 does: names and moves as written.
    #[test]
    fn a_gbk_xiangqi_pgn_reads_as_its_utf8_twin() {
        let utf8 = "[Game \"Chinese Chess\"]\n[Event \"全国象棋个人赛\"]\n[Red \"胡荣华\"]\n[Black \"杨官璘\"]\n[Format \"Chinese\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\n";
        let (gbk, _, unmappable) = encoding_rs::GBK.encode(utf8);
        assert!(!unmappable);
        assert!(
            std::str::from_utf8(&gbk).is_err(),
            "the fixture is not UTF-8"
        );
        let text = decode_text(&gbk).unwrap();
        assert_eq!(text, utf8);
        let game = crate::pgn::import(&text).unwrap();
        assert_eq!(game.tag("Red"), Some("胡荣华"));
        assert_eq!(game.tag("Event"), Some("全国象棋个人赛"));
        assert_eq!(game.moves, crate::pgn::import(utf8).unwrap().moves);
        assert_eq!(game.moves.len(), 4);
        // UTF-8 is taken as it is (not converted).
        assert!(matches!(
            decode_text(utf8.as_bytes()).unwrap(),
            Cow::Borrowed(_)
        ));
        // Neither: said so.
        assert_eq!(
            decode_text(b"[Event \"\xff\xfe\x80\"]")
                .unwrap_err()
                .to_string(),
            "the file is neither UTF-8 nor GBK text"
        );
    }
}
