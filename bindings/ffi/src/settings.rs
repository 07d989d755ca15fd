//! What a settings screen offers, from Rust so that no shell writes it: the computer's
//! levels ([`level_range`]), the rules presets of every game ([`rules_presets`],
//! [`rules_preset`]: a preset's name, stored once, gives the rules of whichever game is
//! started — xiangqi and jieqi alike) and the settings before the player chooses any
//! ([`default_settings`]).
//!
//! ```
//! use banco_ffi::{GameKind, level_range, rules_preset, rules_presets};
//! let levels = level_range();
//! assert_eq!((levels.min, levels.max), (1, 10));
//! let names: Vec<String> = rules_presets(GameKind::Xiangqi).into_iter().map(|p| p.name).collect();
//! assert_eq!(names, ["asian", "casual"]);
//! assert!(rules_preset(GameKind::Jieqi, "casual".into()).is_some());
//! assert_eq!(rules_preset(GameKind::Chess, "casual".into()), None); // its usual rules
//! ```

use crate::types::{Color, GameKind, Rules};
use banco_engine::Level;

/// The computer's levels: `min` (a beginner) to `max` (full strength); every call that
/// takes a level refuses others.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct LevelRange {
    /// The weakest level.
    pub min: u8,
    /// Full strength.
    pub max: u8,
}

/// The computer's levels (1 to 10), for a level picker.
#[uniffi::export]
pub fn level_range() -> LevelRange {
    LevelRange {
        min: Level::MIN.number(),
        max: Level::MAX.number(),
    }
}

/// A preset of a game's rules, for a settings screen.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct RulesPreset {
    /// Its name, to store (`asian`, `casual`): [`rules_preset`] reads it back for any game.
    pub name: String,
    /// Its label, to show ("Asian (perpetual check and chase lose)").
    pub label: String,
    /// The rules of this game it stands for.
    pub rules: Rules,
}

/// The rules presets of `kind`, its usual rules first: xiangqi's and jieqi's are the same
/// two (Asian and casual repetition rules); empty for chess (one set of rules) and Lines.
/// They are the rules a networked match can name.
#[uniffi::export]
pub fn rules_presets(kind: GameKind) -> Vec<RulesPreset> {
    banco_app::presets::of(kind.into())
        .into_iter()
        .map(|p| RulesPreset {
            name: p.name,
            label: p.label.to_owned(),
            rules: p.rules.into(),
        })
        .collect()
}

/// The rules of the preset named `name` (any case) in `kind`; `null`/`nil` when `kind` has
/// no such preset (chess, Lines, an unknown name): the game then has its usual rules — pass
/// the answer as it is (`VsSettings.rules`, `MatchOffer.rules`).
#[uniffi::export]
pub fn rules_preset(kind: GameKind, name: String) -> Option<Rules> {
    banco_app::presets::rules(kind.into(), &name).map(Into::into)
}

/// The settings a player has before choosing any ([`default_settings`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct DefaultSettings {
    /// The game played against the computer and proposed when hosting.
    pub game: GameKind,
    /// The computer's level (within [`level_range`]).
    pub level: u8,
    /// The player's colour against the computer (and proposed when hosting).
    pub color: Color,
    /// The rules preset's name (one of [`rules_presets`]' names).
    pub rules: String,
    /// The name records and matches give the player.
    pub player_name: String,
    /// A Lines race hosted: balls on each board at the start.
    pub race_start_balls: u8,
    /// A Lines race hosted: its time limit in minutes, 0 for none (one of
    /// `race_time_limits`).
    pub race_minutes: u16,
}

/// The settings before the player chooses any — what a settings screen shows first and what
/// a stored value that is missing or damaged falls back to — so that both phones start alike
/// (a new Lines game's own are `lines_default_options`).
#[uniffi::export]
pub fn default_settings() -> DefaultSettings {
    let d = banco_app::presets::default_settings();
    DefaultSettings {
        game: d.game.into(),
        level: d.level,
        color: d.color.into(),
        rules: d.rules,
        player_name: d.player_name,
        race_start_balls: d.race_start_balls,
        race_minutes: d.race_minutes,
    }
}
