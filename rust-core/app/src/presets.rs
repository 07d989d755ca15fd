//! The rules presets a settings screen offers, for every game: the rule sets a networked
//! match can name (the wire's rules index), each with a name to store and a label to
//! show. Xiangqi and jieqi share theirs (Asian and casual repetition rules); chess has one
//! set of rules and Lines none, so they offer no choice. A shell stores the preset's name
//! and asks for the rules of the game it starts ([`rules`]), so a jieqi game gets the
//! preset chosen for xiangqi.
//!
//! ```
//! use banco_app::presets;
//! use banco_game::GameKind;
//! let names: Vec<String> = presets::of(GameKind::Jieqi).into_iter().map(|p| p.name).collect();
//! assert_eq!(names, ["asian", "casual"]);
//! let casual = presets::rules(GameKind::Jieqi, "casual").unwrap();
//! assert_eq!(casual.index(), Some(1));
//! assert!(presets::of(GameKind::Chess).is_empty());
//! assert_eq!(presets::rules(GameKind::Chess, "casual"), None);
//! ```

use crate::any::{AnyGame, AnyRules};
use banco_game::{Color, GameKind, MatchGame};
use banco_protocol::race::RaceOptions;
use banco_xiangqi::RepetitionRule;

/// A preset of a game's rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesPreset {
    /// Its name, to store (`asian`, `casual`).
    pub name: String,
    /// Its label, to show ("Asian (perpetual check and chase lose)").
    pub label: &'static str,
    /// The rules.
    pub rules: AnyRules,
}

/// The presets of `kind`, the usual rules first; empty for a game with one set of rules
/// (chess) or none (Lines).
#[must_use]
pub fn of(kind: GameKind) -> Vec<RulesPreset> {
    let sets: Vec<AnyRules> = (0..=u8::MAX)
        .map_while(|i| <AnyGame as MatchGame>::rules(kind, i))
        .collect();
    if sets.len() < 2 {
        return Vec::new();
    }
    sets.into_iter().filter_map(named).collect()
}

/// The rules of the preset `name` (any case; `axf` and `wxf` name the Asian rules, as
/// [`banco_xiangqi::RuleSet::from_name`] reads them) in `kind`; `None` when `kind` has no
/// such preset (a game has then its usual rules).
#[must_use]
pub fn rules(kind: GameKind, name: &str) -> Option<AnyRules> {
    let name = name.trim();
    let alias = banco_xiangqi::RuleSet::from_name(name);
    of(kind)
        .into_iter()
        .find(|p| {
            p.name.eq_ignore_ascii_case(name)
                || matches!(p.rules, AnyRules::Xiangqi(r) | AnyRules::Jieqi(r) if alias == Some(r))
        })
        .map(|p| p.rules)
}

/// The names of `kind`'s presets as a player reads a choice: `asian or casual` (empty for
/// a game without presets).
///
/// ```
/// use banco_game::GameKind;
/// assert_eq!(banco_app::presets::choices(GameKind::Xiangqi), "asian or casual");
/// ```
#[must_use]
pub fn choices(kind: GameKind) -> String {
    let names: Vec<String> = of(kind).into_iter().map(|p| p.name).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.concat(),
    }
}

/// Why a rule set's name chooses no rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PresetError {
    /// No preset of the game has this name.
    #[error("unknown rule set `{name}`: use {choices}")]
    Unknown {
        /// The name given.
        name: String,
        /// The names there are ([`choices`]).
        choices: String,
    },
    /// The game has one set of rules (chess) or none (Lines): there is nothing to choose.
    #[error("{name} is for xiangqi and jieqi ({choices}): {kind} has one set of rules")]
    NoChoice {
        /// The game.
        kind: GameKind,
        /// The name given.
        name: String,
        /// The names xiangqi's presets have ([`choices`]).
        choices: String,
    },
}

/// The rules of the preset `name` in `kind` ([`rules`]), or why there are none, naming the
/// presets there are (a front end's message for a rule set it was told).
///
/// # Errors
/// [`PresetError::Unknown`] for a name no preset of `kind` has;
/// [`PresetError::NoChoice`] for a game without presets.
///
/// ```
/// use banco_app::presets::{self, PresetError};
/// use banco_game::GameKind;
/// assert_eq!(presets::find(GameKind::Jieqi, "casual")?.index(), Some(1));
/// let e = presets::find(GameKind::Xiangqi, "chinese").unwrap_err();
/// assert_eq!(e.to_string(), "unknown rule set `chinese`: use asian or casual");
/// assert!(matches!(presets::find(GameKind::Chess, "asian"), Err(PresetError::NoChoice { .. })));
/// # Ok::<(), PresetError>(())
/// ```
pub fn find(kind: GameKind, name: &str) -> Result<AnyRules, PresetError> {
    if of(kind).is_empty() {
        return Err(PresetError::NoChoice {
            kind,
            name: name.to_owned(),
            choices: choices(GameKind::Xiangqi),
        });
    }
    rules(kind, name).ok_or_else(|| PresetError::Unknown {
        name: name.to_owned(),
        choices: choices(kind),
    })
}

fn named(rules: AnyRules) -> Option<RulesPreset> {
    let (AnyRules::Xiangqi(r) | AnyRules::Jieqi(r)) = rules else {
        return None;
    };
    let label = match r.repetition {
        RepetitionRule::Asian => "Asian (perpetual check and chase lose)",
        RepetitionRule::Casual => "Casual (only perpetual check loses)",
    };
    Some(RulesPreset {
        name: r.text(),
        label,
        rules,
    })
}

/// The settings a player has before choosing any: what a settings screen shows first and
/// what a stored value that is missing or damaged falls back to ([`default_settings`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefaultSettings {
    /// The game played against the computer and proposed when hosting: xiangqi.
    pub game: GameKind,
    /// The computer's level: 3, a beginner's opponent who still punishes a blunder.
    pub level: u8,
    /// The player's colour: the side that moves first.
    pub color: Color,
    /// The rules preset's name: the usual rules' ([`of`]'s first, `asian`).
    pub rules: String,
    /// The name records and matches give the player ([`crate::tags::PLAYER_NAME`]).
    pub player_name: String,
    /// A Lines race hosted: balls on each board at the start ([`RaceOptions::default`]).
    pub race_start_balls: u8,
    /// A Lines race hosted: its time limit in minutes, 0 for none ([`RaceOptions::default`]).
    pub race_minutes: u16,
}

/// The settings before the player chooses any, for every front end's settings screen, so
/// that the phones start alike ([`DefaultSettings`]; a new Lines game's own defaults are
/// [`crate::lines_options`]'s).
///
/// ```
/// use banco_game::{Color, GameKind};
/// let d = banco_app::presets::default_settings();
/// assert_eq!((d.game, d.level, d.color), (GameKind::Xiangqi, 3, Color::Red));
/// assert_eq!((d.rules.as_str(), d.player_name.as_str()), ("asian", "Player"));
/// assert_eq!((d.race_start_balls, d.race_minutes), (5, 5));
/// ```
#[must_use]
pub fn default_settings() -> DefaultSettings {
    let game = GameKind::Xiangqi;
    let race = RaceOptions::default();
    DefaultSettings {
        game,
        level: 3,
        color: Color::Red,
        rules: of(game)
            .into_iter()
            .next()
            .map(|p| p.name)
            .unwrap_or_default(),
        player_name: crate::tags::PLAYER_NAME.to_owned(),
        race_start_balls: race.start_balls,
        race_minutes: race.time_limit_s / 60,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn every_preset_is_a_rule_set_a_match_can_name() {
        for kind in GameKind::ALL {
            for (i, p) in of(kind).into_iter().enumerate() {
                assert_eq!(p.rules.index(), u8::try_from(i).ok(), "{kind} {}", p.name);
                assert_eq!(p.rules.kind(), kind);
                assert_eq!(rules(kind, &p.name.to_uppercase()), Some(p.rules));
            }
        }
        assert_eq!(of(GameKind::Xiangqi).len(), 2);
        assert!(of(GameKind::Lines).is_empty());
        assert_eq!(rules(GameKind::Xiangqi, "nonsense"), None);
        // The Asian rules' other names, as the xiangqi rules read them.
        assert_eq!(
            rules(GameKind::Jieqi, " WXF "),
            rules(GameKind::Jieqi, "asian")
        );
        assert_eq!(
            rules(GameKind::Xiangqi, "axf"),
            of(GameKind::Xiangqi).first().map(|p| p.rules)
        );
    }

    #[test]
    fn the_defaults_are_choices_the_settings_offer() {
        let d = default_settings();
        assert!(banco_engine::Level::new(d.level).is_ok());
        assert_eq!(rules(d.game, &d.rules), Some(AnyRules::usual(d.game)));
        let race = RaceOptions::default();
        assert_eq!(u32::from(d.race_minutes) * 60, u32::from(race.time_limit_s));
        assert!(crate::lines_options::RACE_TIME_LIMITS_S.contains(&u32::from(race.time_limit_s)));
    }

    #[test]
    fn a_name_that_chooses_nothing_says_what_there_is() {
        assert_eq!(choices(GameKind::Jieqi), "asian or casual");
        assert_eq!(choices(GameKind::Chess), "");
        let e = find(GameKind::Jieqi, "chinese").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown rule set `chinese`: use asian or casual"
        );
        let e = find(GameKind::Chess, "casual").unwrap_err();
        assert_eq!(
            e.to_string(),
            "casual is for xiangqi and jieqi (asian or casual): chess has one set of rules"
        );
        assert_eq!(find(GameKind::Xiangqi, "Casual").unwrap().index(), Some(1));
    }
}
