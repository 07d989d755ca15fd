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
use banco_game::{GameKind, MatchGame};
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

/// The rules of the preset `name` (any case) in `kind`; `None` when `kind` has no such
/// preset (a game has then its usual rules).
#[must_use]
pub fn rules(kind: GameKind, name: &str) -> Option<AnyRules> {
    let name = name.trim();
    of(kind)
        .into_iter()
        .find(|p| p.name.eq_ignore_ascii_case(name))
        .map(|p| p.rules)
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

#[cfg(test)]
mod tests {
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
    }
}
