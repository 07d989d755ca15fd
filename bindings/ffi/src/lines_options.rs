//! What a settings screen offers for a new solo game of Lines, from Rust so that no shell
//! writes it (banco-app's `lines_options`): the undo rules ([`lines_undo_choices`], each
//! with a name to store, read back by [`lines_undo_named`]) and the time limits
//! ([`lines_time_limits`], 0 for an untimed game), the hint's strengths
//! ([`lines_hint_choices`], for `LinesGame::set_hint_playouts`), with their labels and the
//! defaults ([`lines_default_options`]). The start balls are [`crate::lines_start_balls`]. A
//! continued game keeps the settings it was saved with: these are for the next new game —
//! all but the hint's strength, which is no rule of the game and applies to every game.
//!
//! ```
//! use banco_ffi::{LinesUndo, lines_default_options, lines_hint_choices, lines_time_limits, lines_undo_choices, lines_undo_named};
//! let names: Vec<String> = lines_undo_choices().into_iter().map(|c| c.name).collect();
//! assert_eq!(names, ["off", "last-turn", "unlimited"]);
//! assert_eq!(lines_undo_named("unlimited".into()), Some(LinesUndo::Unlimited));
//! let limits = lines_time_limits();
//! assert!(limits.iter().any(|l| l.seconds == 0 && l.label == "no limit"));
//! let d = lines_default_options();
//! assert_eq!((d.start_balls, d.undo, d.time_limit_s), (5, LinesUndo::LastTurn, 180));
//! assert!(lines_hint_choices().iter().any(|c| c.playouts == d.hint_playouts));
//! ```

use crate::LinesUndo;
use banco_app::lines_options as options;

/// An undo rule a settings screen offers.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct LinesUndoChoice {
    /// The rule.
    pub undo: LinesUndo,
    /// Its name, to store (`off`, `last-turn`, `unlimited`): [`lines_undo_named`] reads it
    /// back.
    pub name: String,
    /// Its label, to show ("Undo the last turn (Lines 98)").
    pub label: String,
}

/// A time limit a settings screen offers.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct LinesTimeLimit {
    /// Seconds; 0 is an untimed game (it ends when the board is full).
    pub seconds: u32,
    /// Its label, to show ("3 min", "no limit").
    pub label: String,
}

/// A strength of the hint a settings screen offers.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct LinesHintChoice {
    /// Playouts a move, for `LinesGame::set_hint_playouts` (and to store).
    pub playouts: u32,
    /// Its label, to show ("Quick: every move judged at once").
    pub label: String,
}

/// A new game's options unless the player chose others.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct LinesOptions {
    /// Balls at the start (one of [`crate::lines_start_balls`]).
    pub start_balls: u8,
    /// How far undo goes.
    pub undo: LinesUndo,
    /// The time limit in seconds (one of [`lines_time_limits`]; 0: untimed).
    pub time_limit_s: u32,
    /// The hint's playouts a move (one of [`lines_hint_choices`]): every game's, a continued
    /// one's too.
    pub hint_playouts: u32,
}

/// The undo rules a new Lines game may have, the strictest first.
#[uniffi::export]
pub fn lines_undo_choices() -> Vec<LinesUndoChoice> {
    options::UNDO_CHOICES
        .iter()
        .map(|c| LinesUndoChoice {
            undo: c.rule.into(),
            name: c.name.to_owned(),
            label: c.label.to_owned(),
        })
        .collect()
}

/// The undo rule stored as `name` (any case, a [`LinesUndoChoice::name`]); `null`/`nil` for
/// another (a damaged setting: use the default).
#[uniffi::export]
pub fn lines_undo_named(name: String) -> Option<LinesUndo> {
    options::undo_named(&name).map(Into::into)
}

/// The time limits a new Lines game may have, with their labels; 0 is an untimed game.
#[uniffi::export]
pub fn lines_time_limits() -> Vec<LinesTimeLimit> {
    labelled(&options::TIME_LIMITS_S)
}

/// Each of `limits` (seconds) with its label.
fn labelled(limits: &[u32]) -> Vec<LinesTimeLimit> {
    limits
        .iter()
        .map(|&seconds| LinesTimeLimit {
            seconds,
            label: options::time_limit_label(seconds),
        })
        .collect()
}

/// The time limits a Lines race may be proposed with, each with its label ("5 min"), for a
/// settings screen: every race has one (2 to 60 minutes), and the default race's (5
/// minutes) is among them.
#[uniffi::export]
pub fn race_time_limits() -> Vec<LinesTimeLimit> {
    labelled(&options::RACE_TIME_LIMITS_S)
}

/// A new Lines game's options unless the player chose others: 5 balls, undo of the last
/// turn, 3 minutes.
#[uniffi::export]
pub fn lines_default_options() -> LinesOptions {
    let rules = banco_lines::Settings::default();
    LinesOptions {
        start_balls: rules.start_balls,
        undo: rules.undo.into(),
        time_limit_s: options::DEFAULT_TIME_LIMIT_S,
        hint_playouts: options::DEFAULT_HINT_PLAYOUTS,
    }
}

/// The hint's strengths, the quickest first (stronger ones were measured no better).
#[uniffi::export]
pub fn lines_hint_choices() -> Vec<LinesHintChoice> {
    options::HINT_CHOICES
        .iter()
        .map(|c| LinesHintChoice {
            playouts: c.playouts,
            label: c.label.to_owned(),
        })
        .collect()
}

/// `playouts` if a settings screen offers it ([`lines_hint_choices`]), else the default: a
/// stored strength read back.
#[uniffi::export]
pub fn lines_hint_playouts_or_default(playouts: u32) -> u32 {
    options::hint_playouts_or_default(playouts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_among_the_choices() {
        let d = lines_default_options();
        assert!(crate::lines_start_balls().contains(&d.start_balls));
        assert!(lines_undo_choices().iter().any(|c| c.undo == d.undo));
        assert!(
            lines_time_limits()
                .iter()
                .any(|l| l.seconds == d.time_limit_s)
        );
        for c in lines_undo_choices() {
            assert_eq!(lines_undo_named(c.name.to_uppercase()), Some(c.undo));
        }
        assert_eq!(lines_undo_named("never".into()), None);
        assert!(
            lines_hint_choices()
                .iter()
                .any(|c| c.playouts == d.hint_playouts)
        );
        assert_eq!(lines_hint_playouts_or_default(7), d.hint_playouts);
    }
}
