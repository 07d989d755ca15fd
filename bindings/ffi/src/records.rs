//! Game records and pictures (issue 18): [`Game::to_pgn`] / [`Game::from_pgn`] (typed
//! [`PgnImportError`] naming the first bad move by number), [`pgn_of_saved`] for any saved
//! game (a game against the computer, a networked match), and pictures of a position as SVG
//! ([`render_game_svg`], [`render_fen_svg`]) or PNG ([`render_png`], the `png` feature, on
//! by default) for "share a position".
//!
//! ```
//! use banco_ffi::{Game, GameKind};
//! let game = Game::new(GameKind::Chess).unwrap();
//! game.play_text("e4".into(), None).unwrap();
//! let pgn = game.to_pgn(vec![]).unwrap();
//! assert!(pgn.contains("1. e4 *"));
//! let back = Game::from_pgn(pgn).unwrap();
//! assert_eq!(back.fen().unwrap(), game.fen().unwrap());
//! let svg = banco_ffi::render_game_svg(game, false).unwrap();
//! assert_eq!(svg.matches("class=\"piece ").count(), 32);
//! ```

use crate::error::{BancoError, guard, panic_message};
use crate::game::Game;
use crate::types::{Color, GameKind};
use banco_app::pgn::{self, PgnError};
use banco_app::render::{self, RenderError, RenderOptions};
use banco_app::save::SavedGame;
use banco_game::Game as _;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

/// A PGN tag to write (`Event`, `White`, `Date` …).
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct PgnTag {
    /// The tag's name.
    pub name: String,
    /// Its value.
    pub value: String,
}

/// Why a PGN text cannot be opened as a game. Its cases carry fields, so the generated
/// Kotlin/Swift message lists them (`number=2, side=White, …`): show a player
/// [`pgn_import_error_text`], the text below.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, uniffi::Error)]
pub enum PgnImportError {
    /// No game in the text.
    #[error("there is no game in this PGN text")]
    Empty,
    /// Larger than any game record.
    #[error("the PGN text has {bytes} bytes, more than Banco reads")]
    TooLarge {
        /// Its size.
        bytes: u64,
    },
    /// A game longer than Banco keeps.
    #[error("the game has more than {moves} moves")]
    TooLong {
        /// The limit.
        moves: u32,
    },
    /// The text is not PGN.
    #[error("not PGN: {why}")]
    Syntax {
        /// What is wrong.
        why: String,
    },
    /// A game Banco does not read from PGN.
    #[error("the PGN is of `{variant}`, which Banco does not read from PGN")]
    UnsupportedGame {
        /// The `Variant` tag.
        variant: String,
    },
    /// The FEN tag is not a legal position.
    #[error("the FEN tag is not a legal position: {why}")]
    BadFen {
        /// Why.
        why: String,
    },
    /// The first move that is not legal (or not readable) where it stands.
    #[error("move {number} ({side}) `{text}` is not legal: {why}")]
    IllegalMove {
        /// The full-move number (1 for the first move of each side).
        number: u32,
        /// Whose move (`White`, `Red`, `Black`).
        side: String,
        /// The move as written.
        text: String,
        /// Why.
        why: String,
    },
    /// A bug in Banco (please report it).
    #[error("internal error in Banco (please report it): {why}")]
    Internal {
        /// The panic's message.
        why: String,
    },
}

impl From<PgnError> for PgnImportError {
    fn from(e: PgnError) -> Self {
        match e {
            PgnError::Empty => PgnImportError::Empty,
            PgnError::TooLarge(n) => PgnImportError::TooLarge { bytes: n as u64 },
            PgnError::TooLong(n) => PgnImportError::TooLong {
                moves: u32::try_from(n).unwrap_or(u32::MAX),
            },
            PgnError::Syntax(why) => PgnImportError::Syntax { why },
            PgnError::UnsupportedGame(variant) => PgnImportError::UnsupportedGame { variant },
            PgnError::BadFen(why) => PgnImportError::BadFen { why },
            PgnError::IllegalMove {
                number,
                side,
                text,
                why,
            } => PgnImportError::IllegalMove {
                number,
                side: side.to_owned(),
                text,
                why,
            },
        }
    }
}

impl From<RenderError> for BancoError {
    fn from(e: RenderError) -> Self {
        match e {
            RenderError::Unsupported(k) => BancoError::Unsupported(k.to_owned()),
            RenderError::Position(why) => BancoError::InvalidPosition(why),
            RenderError::BadMove(_) => BancoError::BadMoveText(e.to_string()),
        }
    }
}

#[uniffi::export]
impl Game {
    /// A game opened from PGN (chess, or xiangqi in the xqbase dialect: ICCS, WXF or
    /// Chinese movetext, `FEN` tag). Every move is checked; the first that is not legal is
    /// reported with its number. Variations are skipped. The rules (`Rules`) and an ending
    /// the moves do not show (`Result` with `Termination`: a resignation, a time loss) are
    /// read as the command line reads them ([`pgn::import_saved`]).
    #[uniffi::constructor]
    pub fn from_pgn(text: String) -> Result<Arc<Game>, PgnImportError> {
        catch_unwind(AssertUnwindSafe(|| {
            let saved = pgn::import_saved(&text)?;
            // The moves were checked on import: a record that does not replay is a bug.
            Game::from_saved(&saved).map_err(|e| PgnImportError::Internal { why: e.to_string() })
        }))
        .unwrap_or_else(|p| {
            Err(PgnImportError::Internal {
                why: panic_message(p.as_ref()),
            })
        })
    }

    /// The game as PGN (the seven-tag roster filled with `?` where `tags` say nothing,
    /// the moves in the game's PGN notation, the result). A game against the computer
    /// ([`pgn_vs_computer_tags`], or a game opened from such a record) is written with its
    /// roster and `Human` and `Level`, so that it opens again with the player's side and
    /// the computer's level.
    pub fn to_pgn(&self, tags: Vec<PgnTag>) -> Result<String, BancoError> {
        guard(|| {
            let (game, rules, ending) = self.snapshot_ended();
            let mut saved = SavedGame::of(&game, rules);
            saved.ending = ending.filter(|_| game.outcome(&rules).is_none());
            saved.tags = tags.into_iter().map(|t| (t.name, t.value)).collect();
            saved.player = banco_app::tags::player_from_tags(&saved.tags).or(self.lock().player);
            Ok(pgn::export_saved(&saved)?)
        })
    }
}

/// The reason `error` gives, in the words the command line prints ("move 2 (White) `Ke3` is
/// not legal: …"), so that no shell writes its own wording of each case.
#[uniffi::export]
pub fn pgn_import_error_text(error: PgnImportError) -> String {
    error.to_string()
}

/// The tags naming the players of a record of `kind`, for [`Game::to_pgn`]: `first` (who
/// moves first: Red, or White in chess) and `second`, each under the tag of its side
/// (`Red`/`Black`, `White`/`Black`), so that no shell chooses the tag names; none for Lines
/// (no PGN record: a Lines game is kept by `LinesGame.save`).
#[uniffi::export]
pub fn pgn_player_tags(kind: GameKind, first: String, second: String) -> Vec<PgnTag> {
    banco_app::tags::player_tags(kind.into(), &first, &second)
        .into_iter()
        .map(|(name, value)| PgnTag { name, value })
        .collect()
}

/// The tags a shared record opens with, for [`Game::to_pgn`]: `Event` (`event`), `Date` (PGN's
/// `2026.12.05` from the ISO `date`, `2026-12-05`; PGN's unknown date `????.??.??` when `date`
/// is not one) and both players named on their sides — `me` playing `my_name` (the player on
/// this device), the other side `other_name` (the computer, or the other player of a match) —
/// so that no shell orders the players by who moved first. No players' tags for Lines.
#[uniffi::export]
pub fn pgn_record_tags(
    kind: GameKind,
    event: String,
    date: String,
    me: Color,
    my_name: String,
    other_name: String,
) -> Vec<PgnTag> {
    banco_app::tags::record_tags(kind.into(), &event, &date, me.into(), &my_name, &other_name)
        .into_iter()
        .map(|(name, value)| PgnTag { name, value })
        .collect()
}

/// The tags of a shared record of a game against the computer, for [`Game::to_pgn`]:
/// `Event` (`Banco game`), `Date` (PGN's `2026.12.05` from the ISO `date`; `????.??.??` when
/// `date` is not one), the player named `player_name` (`Player` when blank) on the side
/// `human` and the computer (`Banco level N`) on the other, and `Human` and `Level` — so that
/// the record opens again (`Game.fromPgn`, the command line's `pgn import`) with the
/// player's side and the computer's level, and no shell writes the roster.
#[uniffi::export]
pub fn pgn_vs_computer_tags(
    kind: GameKind,
    date: String,
    human: Color,
    player_name: String,
    level: u8,
) -> Vec<PgnTag> {
    banco_app::tags::vs_computer_tags(kind.into(), &date, human.into(), &player_name, level)
        .into_iter()
        .map(|(name, value)| PgnTag { name, value })
        .collect()
}

/// The file name to share a record of `kind` by: the game and the ISO day `date` (the
/// player's local day), `banco-xiangqi-2026-12-02.pgn` (`banco-xiangqi.pgn` when `date` is
/// not an ISO day), so that both phones name their files alike.
#[uniffi::export]
pub fn pgn_file_name(kind: GameKind, date: String) -> String {
    banco_app::tags::record_file_name(kind.into(), &date)
}

/// How a saved game (`Game.save()`, a match's `Match.game()`) reads in a list of saved games:
/// its game, how it ended (with an ending the moves do not show, a resignation say) or
/// `unfinished`, and its plies (`Chess · 0-1 resignation · 12 plies`, `1 ply`), so that no
/// shell writes the label or its plural.
#[uniffi::export]
pub fn saved_game_summary(bytes: Vec<u8>) -> Result<String, BancoError> {
    guard(|| {
        let (game, _, outcome) = Game::from_saved(&SavedGame::decode(&bytes)?)?.snapshot_ended();
        Ok(banco_app::result::saved_summary(
            game.kind(),
            outcome,
            game.ply(),
        ))
    })
}

/// The PGN of any saved game's bytes (`VsComputer.save()`, `Game.save()`).
#[uniffi::export]
pub fn pgn_of_saved(bytes: Vec<u8>) -> Result<String, BancoError> {
    guard(|| Ok(pgn::export_saved(&SavedGame::decode(&bytes)?)?))
}

/// The SVG picture of a game's position, its last move and a checked king marked.
#[uniffi::export]
pub fn render_game_svg(game: Arc<Game>, flipped: bool) -> Result<String, BancoError> {
    guard(|| {
        let (g, _) = game.snapshot();
        Ok(render::svg(
            &g,
            &RenderOptions {
                flipped,
                last_move: None,
            },
        ))
    })
}

/// The SVG picture of a position: a FEN of `kind` (for Lines, a Lines position string like
/// `9/9/9/9/2RRRR3/9/9/9/8B GBY 40`), the last move in coordinates (`h2e2`) marked.
#[uniffi::export]
pub fn render_fen_svg(
    kind: GameKind,
    fen: String,
    last_move: Option<String>,
    flipped: bool,
) -> Result<String, BancoError> {
    guard(|| {
        Ok(render::svg_of_fen(
            kind.into(),
            &fen,
            last_move.as_deref(),
            flipped,
        )?)
    })
}

/// A PNG of an SVG picture made by the functions above, `scale` times its size (0.25 to
/// 8; 2 for a sharp picture to share). The text is drawn with glyph outlines built into the
/// library: no font is read from the phone.
#[cfg(feature = "png")]
#[uniffi::export]
pub fn render_png(svg: String, scale: f32) -> Result<Vec<u8>, BancoError> {
    use banco_app::render::png::{PngError, png_of_svg};
    guard(|| {
        png_of_svg(&svg, scale).map_err(|e| match e {
            PngError::Scale(_)
            | PngError::Svg(_)
            | PngError::MissingGlyph(_)
            | PngError::UnsupportedText(_)
            | PngError::TooLarge { .. } => BancoError::InvalidArgument(e.to_string()),
            PngError::Encode(_) => BancoError::Internal(e.to_string()),
        })
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_first_bad_move_is_named_by_number() {
        let e = Game::from_pgn("1. e4 e5 2. Ke3 Nc6 *".into())
            .err()
            .unwrap();
        assert!(
            matches!(&e, PgnImportError::IllegalMove { number: 2, side, text, .. } if side == "White" && text == "Ke3"),
            "{e:?}"
        );
        assert_eq!(
            Game::from_pgn(String::new()).err(),
            Some(PgnImportError::Empty)
        );
        let xq = Game::new(GameKind::Xiangqi).unwrap();
        xq.play_text("C2=5".into(), None).unwrap();
        let pgn = xq
            .to_pgn(vec![PgnTag {
                name: "Red".into(),
                value: "Alice".into(),
            }])
            .unwrap();
        assert!(pgn.contains("[Red \"Alice\"]"), "{pgn}");
        assert_eq!(
            Game::from_pgn(pgn).unwrap().fen().unwrap(),
            xq.fen().unwrap()
        );
        // The xqbase dialect: ICCS movetext.
        assert!(
            pgn_of_saved(xq.save().unwrap())
                .unwrap()
                .contains("1. H2-E2")
        );
        assert!(matches!(
            pgn_of_saved(vec![1, 2, 3]),
            Err(BancoError::BadSave(_))
        ));
    }

    /// A game against the computer shared as the phones share it and opened again, by the
    /// command line (`pgn import`) and by the phones (`Game.fromPgn`, then
    /// `VsComputer.resume` of its save): the player's side and the computer's level come
    /// back, from the roster the phones wrote before `pgn_vs_computer_tags` too.
    #[test]
    fn a_shared_game_against_the_computer_opens_with_its_side_and_level() {
        use banco_app::computer::{self as ac, Settings};
        use banco_app::save::Player;
        let g = Game::new(GameKind::Chess).unwrap();
        for m in ["e4", "e5", "Nf3"] {
            g.play_text(m.into(), None).unwrap();
        }
        let (day, me) = ("2026-12-06".to_owned(), "An".to_owned());
        let shared = g
            .to_pgn(pgn_vs_computer_tags(
                GameKind::Chess,
                day.clone(),
                Color::Black,
                me.clone(),
                3,
            ))
            .unwrap();
        for tag in [
            "[White \"Banco level 3\"]",
            "[Black \"An\"]",
            "[Human \"Black\"]",
            "[Level \"3\"]",
            "[Date \"2026.12.06\"]",
        ] {
            assert!(shared.contains(tag), "{tag} in {shared}");
        }
        // What the phones shared before: their own roster, without `Human` and `Level`.
        let older = g
            .to_pgn(pgn_record_tags(
                GameKind::Chess,
                "Banco game".into(),
                day,
                Color::Black,
                me,
                "Banco (level 3)".into(),
            ))
            .unwrap();
        let player = Some(Player { color: 1, level: 3 });
        for pgn in [shared, older] {
            assert_eq!(pgn::import_saved(&pgn).unwrap().player, player, "{pgn}");
            let bytes = Game::from_pgn(pgn.clone()).unwrap().save().unwrap();
            assert_eq!(SavedGame::decode(&bytes).unwrap().player, player);
            // The settings on screen say White at level 7: the record says otherwise.
            let fallback =
                Settings::new(banco_game::GameKind::Chess, banco_game::Color::Red, 7).unwrap();
            let state = ac::VsComputer::resume(&bytes, &fallback).unwrap().state();
            assert_eq!((state.human, state.level), (banco_game::Color::Black, 3));
            // Opened and shared again, the game still names its player and level.
            let again = Game::load(bytes).unwrap().to_pgn(vec![]).unwrap();
            assert!(again.contains("[Human \"Black\"]") && again.contains("[Level \"3\"]"));
        }
    }

    #[test]
    fn pictures_through_the_boundary() {
        let svg = render_fen_svg(
            GameKind::Lines,
            "9/9/9/9/2RRRR3/9/9/9/8B GBY 40".into(),
            Some("i5i1".into()),
            false,
        )
        .unwrap();
        assert_eq!(svg.matches("class=\"ball ").count(), 5);
        assert!(matches!(
            render_fen_svg(GameKind::Chess, "x".into(), None, false),
            Err(BancoError::InvalidPosition(_))
        ));
        #[cfg(feature = "png")]
        {
            let png = render_png(svg, 1.0).unwrap();
            assert_eq!(
                banco_app::render::png::png_size(&png),
                Some((2 * 36 + 9 * 56, 76 + 9 * 56 + 36))
            );
            assert!(matches!(
                render_png("<svg".into(), 1.0),
                Err(BancoError::InvalidArgument(_))
            ));
            let spans = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"9\" height=\"9\"><text>a<tspan>b</tspan></text></svg>";
            assert!(matches!(
                render_png(spans.into(), 1.0),
                Err(BancoError::InvalidArgument(m)) if m.contains("<tspan>")
            ));
        }
    }

    /// Nonsense to every entry point of issue 18: refused with a readable error, never an
    /// internal one (a caught panic).
    #[test]
    fn garbage_to_records_editor_and_puzzles() {
        use crate::{Color, Editor, PieceKind, PuzzleProgress, collection_puzzle};
        let strings = [
            "",
            "x",
            "9/9/9/9/9/9/9/9/9/9/9 w",
            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0 extra",
            "[Variant \"jieqi\"]\n1. a0a1 *",
            "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w\"]\n1. h2e2 *",
            "\u{0}\u{ffff}漢",
            "99999999999999999999",
            "9/9/9/9/9/9/9/9/9 RGBYPCOR 4294967296",
            "炮二平五",
            // A picture asking for 400 GB of pixels: refused, not an aborted process.
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="10000" height="10000000"/>"#,
        ];
        let internal = |r: &Result<String, BancoError>| matches!(r, Err(BancoError::Internal(_)));
        for text in strings {
            if let Err(PgnImportError::Internal { why }) = Game::from_pgn(text.into()) {
                panic!("from_pgn({text:?}): {why}");
            }
            for kind in [
                GameKind::Xiangqi,
                GameKind::Jieqi,
                GameKind::Chess,
                GameKind::Lines,
            ] {
                let r = render_fen_svg(kind, text.into(), Some(text.into()), true);
                assert!(!internal(&r), "render_fen_svg({kind:?}, {text:?}): {r:?}");
                let e = Editor::from_fen(kind, text.into());
                assert!(!matches!(e, Err(BancoError::Internal(_))), "{text:?}");
            }
            #[cfg(feature = "png")]
            for scale in [f32::NAN, -1.0, 0.0, 1e9, 1.0] {
                let r = render_png(text.into(), scale);
                assert!(
                    !matches!(r, Err(BancoError::Internal(_))),
                    "{text:?} {scale}"
                );
            }
            assert!(!matches!(
                PuzzleProgress::load(text.as_bytes().to_vec()),
                Err(BancoError::Internal(_))
            ));
            assert_eq!(collection_puzzle(text.into()), None);
        }
        let ed = Editor::empty(GameKind::Chess).unwrap();
        for sq in [64, 90, 255] {
            // Off the board: `BadSquare`, as every other call refuses such a square.
            assert!(matches!(
                ed.place(sq, Color::Red, PieceKind::Queen, false),
                Err(BancoError::BadSquare { .. })
            ));
            assert!(ed.remove(sq).is_err());
            assert!(ed.set_en_passant(Some(sq)).is_err());
            assert_eq!(
                ed.tap(sq, sq, None, None, false).unwrap(),
                crate::EditorTap::Ignored
            );
        }
        assert!(matches!(
            ed.tap(0, 0, Some(Color::Red), None, false),
            Err(BancoError::InvalidArgument(_))
        ));
        for n in [0, crate::MAX_SOLVE + 1, u32::MAX] {
            assert!(matches!(ed.solve(n), Err(BancoError::InvalidArgument(_))));
        }
    }
}
