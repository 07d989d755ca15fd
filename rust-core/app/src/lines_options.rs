//! What a settings screen offers for a new solo game of Lines, so that no front end writes
//! it: the undo rules ([`UNDO_CHOICES`], each with a name to store and a label to show),
//! the time limits ([`TIME_LIMITS_S`], 0 for an untimed game, each with its label
//! [`time_limit_label`]) and the default time limit (the other defaults are
//! [`banco_lines::Settings`]'s). The start balls are the rules' own
//! ([`banco_lines::game::START_BALLS`]). A game continued keeps the settings it was saved
//! with (its undo rule, start balls and time left are in the save): these apply to the
//! next new game.
//!
//! ```
//! use banco_app::lines_options::{self, UNDO_CHOICES};
//! use banco_lines::UndoRule;
//! let names: Vec<&str> = UNDO_CHOICES.iter().map(|c| c.name).collect();
//! assert_eq!(names, ["off", "last-turn", "unlimited"]);
//! assert_eq!(lines_options::undo_named("LAST-TURN"), Some(UndoRule::LastTurn));
//! assert_eq!(lines_options::time_limit_label(180), "3 min");
//! assert_eq!(lines_options::time_limit_label(0), "no limit");
//! assert!(lines_options::TIME_LIMITS_S.contains(&lines_options::DEFAULT_TIME_LIMIT_S));
//! ```

use banco_lines::UndoRule;

/// An undo rule a settings screen offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UndoChoice {
    /// The rule.
    pub rule: UndoRule,
    /// Its name, to store (`off`, `last-turn`, `unlimited`): [`undo_named`] reads it back.
    pub name: &'static str,
    /// Its label, to show.
    pub label: &'static str,
}

/// The undo rules a new game may have, the strictest first.
pub const UNDO_CHOICES: [UndoChoice; 3] = [
    UndoChoice {
        rule: UndoRule::Off,
        name: "off",
        label: "No undo",
    },
    UndoChoice {
        rule: UndoRule::LastTurn,
        name: "last-turn",
        label: "Undo the last turn (Lines 98)",
    },
    UndoChoice {
        rule: UndoRule::Unlimited,
        name: "unlimited",
        label: "Undo any turn",
    },
];

/// The time limits a new game may have, in seconds; 0 is an untimed game (it ends when the
/// board is full).
pub const TIME_LIMITS_S: [u32; 5] = [60, 180, 300, 600, 0];

/// The time limits a Lines race may be proposed with, in seconds (each side's own clock),
/// 2 minutes to an hour. Every race has one: an untimed race could be held hostage by a
/// player who stops moving ([`banco_protocol::race::RaceOptions::time_limit_s`]), so the
/// long ones take its place. The default race's, 5 minutes
/// ([`banco_protocol::race::RaceOptions`]'s default), is among them.
pub const RACE_TIME_LIMITS_S: [u32; 5] = [120, 300, 600, 1_800, 3_600];

/// The time limit of a new game unless the player chose another: 3 minutes.
pub const DEFAULT_TIME_LIMIT_S: u32 = 180;

/// The undo rule named `name` (any case, as [`UndoChoice::name`]); `None` for another.
#[must_use]
pub fn undo_named(name: &str) -> Option<UndoRule> {
    let name = name.trim();
    UNDO_CHOICES
        .iter()
        .find(|c| c.name.eq_ignore_ascii_case(name))
        .map(|c| c.rule)
}

/// How a time limit of `seconds` reads ("3 min", "1 min 30 s", "no limit" for 0: the
/// words of [`banco_protocol::race::limit_text`], which the race's terms use too).
#[must_use]
pub fn time_limit_label(seconds: u32) -> String {
    match seconds {
        0 => "no limit".to_owned(),
        s => banco_protocol::race::limit_text(s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_race_is_one_a_settings_screen_offers() {
        let default = banco_protocol::race::RaceOptions::default().time_limit_s;
        assert!(RACE_TIME_LIMITS_S.contains(&u32::from(default)));
        assert_eq!(
            RACE_TIME_LIMITS_S.map(time_limit_label),
            ["2 min", "5 min", "10 min", "30 min", "60 min"]
        );
        // Every race offered can be proposed: none is untimed.
        for s in RACE_TIME_LIMITS_S {
            let options = banco_protocol::race::RaceOptions {
                time_limit_s: u16::try_from(s).unwrap_or(0),
                ..Default::default()
            };
            assert_eq!(options.check(), Ok(()), "{s} s");
        }
    }

    #[test]
    fn every_rule_once_named_and_read_back() {
        for c in UNDO_CHOICES {
            assert_eq!(undo_named(c.name), Some(c.rule));
            assert_eq!(
                undo_named(&format!(" {} ", c.name.to_uppercase())),
                Some(c.rule)
            );
            assert_eq!(UNDO_CHOICES.iter().filter(|o| o.rule == c.rule).count(), 1);
        }
        let usual = banco_lines::Settings::default().undo;
        assert!(UNDO_CHOICES.iter().any(|c| c.rule == usual));
        assert_eq!(undo_named("sometimes"), None);
        assert_eq!(time_limit_label(90), "1 min 30 s");
        assert_eq!(time_limit_label(30), "30 s");
        assert_eq!(time_limit_label(600), "10 min");
        assert_eq!(TIME_LIMITS_S.iter().filter(|&&s| s == 0).count(), 1);
    }
}
