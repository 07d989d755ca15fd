//! Readable game records: a text export a person can read and edit, and its import. For
//! xiangqi the tag-and-movetext export of `banco_xiangqi::record` (coordinates with WXF in
//! braces).
//!
//! ```
//! use banco_app::{any::{AnyGame, AnyRules}, save::SavedGame, text};
//! use banco_game::{Game, GameKind};
//! let mut game = AnyGame::new(GameKind::Xiangqi)?;
//! let mv = banco_app::notation::parse_move(&game, "h2e2", None)?;
//! game.play(mv)?;
//! let saved = SavedGame::of(&game, AnyRules::usual(GameKind::Xiangqi));
//! let t = text::export(&saved)?;
//! assert!(t.contains("1. h2e2 {C2=5}"));
//! assert_eq!(text::import(&t)?.moves, saved.moves);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::any::{AnyGame, AnyRules};
use crate::save::{SaveError, SavedGame};
use banco_game::{Game, GameKind};
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
                rec.tags.push(("Human".to_owned(), p.color().to_string()));
                rec.tags.push(("Level".to_owned(), p.level.to_string()));
            }
            Ok(rec.to_text())
        }
    }
}

/// Reads a readable export (any game's) back into a saved game, every move checked.
pub fn import(text: &str) -> Result<SavedGame, SaveError> {
    let rec = GameRecord::from_text(text).map_err(|e| SaveError::Damaged(e.to_string()))?;
    let tag = |name: &str| {
        rec.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    let player = match (
        tag("Human"),
        tag("Level").and_then(|l| l.parse::<u8>().ok()),
    ) {
        (Some(c), Some(level)) if (1..=10).contains(&level) => Some(crate::save::Player {
            color: u8::from(c.eq_ignore_ascii_case("black")),
            level,
        }),
        _ => None,
    };
    let game = AnyGame::from_fen(GameKind::Xiangqi, &fen::to_fen(&rec.start))
        .map_err(|e| SaveError::BadPosition(e.to_string()))?;
    Ok(SavedGame {
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
        player,
        tags: rec
            .tags
            .into_iter()
            .filter(|(k, _)| !k.eq_ignore_ascii_case("Human") && !k.eq_ignore_ascii_case("Level"))
            .collect(),
    })
}
