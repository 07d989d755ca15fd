//! What a settings screen offers for a new solo game of Lines, so that no front end writes
//! it: the undo rules ([`UNDO_CHOICES`], each with a name to store and a label to show),
//! the time limits ([`TIME_LIMITS_S`], 0 for an untimed game, each with its label
//! [`time_limit_label`]) and the default time limit (the other defaults are
//! [`banco_lines::Settings`]'s), and how hard the hint thinks ([`HINT_CHOICES`], the
//! default [`DEFAULT_HINT_PLAYOUTS`], a stored value read back by [`hint_playouts_or_default`]).
//! The start balls are the rules' own
//! ([`banco_lines::game::START_BALLS`]). A game continued keeps the settings it was saved
//! with (its undo rule, start balls and time left are in the save): these apply to the
//! next new game — all but the hint's strength, no rule of the game, which applies to every
//! game.
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
//! let strengths: Vec<u32> = lines_options::HINT_CHOICES.iter().map(|c| c.playouts).collect();
//! assert_eq!(strengths, [1, 30, 100]);
//! assert_eq!(lines_options::hint_playouts_or_default(30), 30);
//! assert_eq!(lines_options::hint_playouts_or_default(77), lines_options::DEFAULT_HINT_PLAYOUTS);
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

/// A strength of the hint a settings screen offers: the playouts it spends a move (the
/// FFI's `LinesGame::set_hint_playouts`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HintChoice {
    /// Playouts a move ([`banco_lines::ai::Budget::from_playouts`]).
    pub playouts: u32,
    /// Its label, to show.
    pub label: &'static str,
}

/// The hint's strengths, the quickest first. Budget 300 and above are not offered: over the
/// seeded games of `banco bench lines` they were measured no stronger than budget 100 at
/// three times the wait (`banco-lines`' `data/tuning.md`).
pub const HINT_CHOICES: [HintChoice; 3] = [
    HintChoice {
        playouts: 1,
        label: "Quick: every move judged at once",
    },
    HintChoice {
        playouts: 30,
        label: "Careful: the landing sampled for the best 8 moves",
    },
    HintChoice {
        playouts: DEFAULT_HINT_PLAYOUTS,
        label: "Strong: the best 16 moves, about three times longer",
    },
];

/// The hint's strength unless the player chose another: the apps' hint
/// ([`banco_lines::ai::HINT_PLAYOUTS`]).
#[allow(clippy::cast_possible_truncation)] // 100
pub const DEFAULT_HINT_PLAYOUTS: u32 = banco_lines::ai::HINT_PLAYOUTS as u32;

/// `playouts` if it is one of [`HINT_CHOICES`], else [`DEFAULT_HINT_PLAYOUTS`] (a stored
/// setting that is damaged, or from a Banco that offered others).
#[must_use]
pub fn hint_playouts_or_default(playouts: u32) -> u32 {
    if HINT_CHOICES.iter().any(|c| c.playouts == playouts) {
        playouts
    } else {
        DEFAULT_HINT_PLAYOUTS
    }
}

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
    fn the_hint_strengths_rise_and_hold_the_apps_hint() {
        assert!(
            HINT_CHOICES
                .windows(2)
                .all(|w| w[0].playouts < w[1].playouts)
        );
        let apps = banco_lines::ai::Budget::hint();
        let default = banco_lines::ai::Budget::from_playouts(DEFAULT_HINT_PLAYOUTS as usize);
        assert_eq!(default.with_threads(apps.threads), apps);
        for c in HINT_CHOICES {
            assert_eq!(hint_playouts_or_default(c.playouts), c.playouts);
            assert!(c.playouts as usize <= banco_lines::ai::MAX_PLAYOUTS);
        }
        for other in [0, 2, 99, 300, u32::MAX] {
            assert_eq!(hint_playouts_or_default(other), DEFAULT_HINT_PLAYOUTS);
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
