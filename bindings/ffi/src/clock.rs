//! The clocks of a networked game, ready to show (banco-app's `network::clock`): the clock a
//! proposal offers as text for the accept prompt (`MatchState.offeredClock`, `"5:00 + 3s"`)
//! and both running clocks from this player's side (`MatchState.clockFaces`). A screen
//! only displays them, and reads `Match.state()` again after
//! [`ClockFaces::next_change_ms`] (the running clock's text changes then).

use crate::net::MatchClock;

/// One player's clock, ready to show.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct ClockFace {
    /// The remaining time as shown: `m:ss` rounded down (`h:mm:ss` from an hour), with
    /// tenths under ten seconds (`0:09.4`).
    pub text: String,
    /// The remaining time in milliseconds (0 after a loss on time).
    pub remaining_ms: u64,
    /// This clock runs now.
    pub running: bool,
    /// Less than ten seconds left: show it in warning colours.
    pub low: bool,
}

/// Both clocks of a timed game from this player's side.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct ClockFaces {
    /// This player's clock.
    pub you: ClockFace,
    /// The other player's clock.
    pub opponent: ClockFace,
    /// Milliseconds until the running clock's text changes: call `Match.state()` again
    /// then. `null`/`nil` while no clock runs.
    pub next_change_ms: Option<u64>,
}

impl From<&banco_app::network::ClockFace> for ClockFace {
    fn from(f: &banco_app::network::ClockFace) -> Self {
        ClockFace {
            text: f.text.clone(),
            remaining_ms: f.remaining_ms,
            running: f.running,
            low: f.low,
        }
    }
}

impl From<&banco_app::network::ClockFaces> for ClockFaces {
    fn from(f: &banco_app::network::ClockFaces) -> Self {
        ClockFaces {
            you: (&f.you).into(),
            opponent: (&f.opponent).into(),
            next_change_ms: f.next_change_ms,
        }
    }
}

/// A clock to offer as a clock face shows it, for the host's own choice: `"5:00 + 3s"`,
/// `"10:00"`, `"untimed"` for `null`/`nil`.
#[uniffi::export]
pub fn offer_clock_text(clock: Option<MatchClock>) -> String {
    banco_app::network::offer_clock_text(clock.map(Into::into))
}

/// A clock a settings screen offers for the matches a player hosts or proposes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct ClockPreset {
    /// Its name, to store (`"5+3"`: minutes + seconds per move): [`clock_preset`] reads it
    /// back.
    pub name: String,
    /// Its label, as a clock face shows it (`"5:00 + 3s"`).
    pub label: String,
    /// The clock it stands for.
    pub clock: MatchClock,
}

/// The clocks offered, shortest first, as (minutes, seconds added per move).
const CLOCK_PRESETS: [(u32, u32); 3] = [(5, 3), (10, 5), (15, 10)];

/// The clock presets of a settings screen (5+3, 10+5, 15+10: minutes + seconds per move);
/// "untimed", the default, is none of them.
///
/// ```
/// use banco_ffi::{clock_preset, clock_presets};
/// let names: Vec<String> = clock_presets().into_iter().map(|p| p.name).collect();
/// assert_eq!(names, ["5+3", "10+5", "15+10"]);
/// assert_eq!(clock_presets()[0].label, "5:00 + 3s");
/// assert_eq!(clock_preset("10+5".into()).map(|c| c.base_ms), Some(600_000));
/// assert_eq!(clock_preset("untimed".into()), None);
/// ```
#[uniffi::export]
pub fn clock_presets() -> Vec<ClockPreset> {
    CLOCK_PRESETS
        .iter()
        .map(|&(min, s)| {
            let clock = MatchClock {
                base_ms: min * 60_000,
                increment_ms: s * 1_000,
            };
            ClockPreset {
                name: format!("{min}+{s}"),
                label: offer_clock_text(Some(clock)),
                clock,
            }
        })
        .collect()
}

/// The clock of the preset named `name` ([`clock_presets`]); `null`/`nil` for any other
/// name (an untimed game): pass the answer as it is (`MatchOffer.clock`).
#[uniffi::export]
pub fn clock_preset(name: String) -> Option<MatchClock> {
    clock_presets()
        .into_iter()
        .find(|p| p.name == name.trim())
        .map(|p| p.clock)
}

/// A clock typed by a player, read as the terminal's `--clock` reads it:
/// `MINUTES[+SECONDS]`, the minutes each side has (a decimal, `0.5`; or seconds with an
/// `s`, `30s`) and the seconds added after each move (`"5+3"`, `"10"`, `"0.5+1"`,
/// `"30s + 2"`) — for a screen that lets a player type a clock beside the presets. Refused
/// as `InvalidArgument`, with a message that says what to type, when it is not that form,
/// shorter than 10 s, longer than 24 hours, or adds more than an hour a move.
///
/// ```
/// use banco_ffi::{MatchClock, clock_text, parse_clock};
/// let c = parse_clock("7+2".into()).unwrap();
/// assert_eq!(c, MatchClock { base_ms: 420_000, increment_ms: 2_000 });
/// assert_eq!(clock_text(c), "7+2");
/// assert_eq!(clock_text(parse_clock("0.5 + 1".into()).unwrap()), "30s+1");
/// let e = parse_clock("5s".into()).unwrap_err().to_string();
/// assert!(e.contains("at least 10s"), "{e}");
/// ```
#[uniffi::export]
pub fn parse_clock(text: String) -> Result<MatchClock, crate::BancoError> {
    crate::error::guard(|| {
        banco_app::network::parse_clock(&text)
            .map(Into::into)
            .map_err(|e| crate::BancoError::InvalidArgument(e.to_string()))
    })
}

/// A clock written as [`parse_clock`] reads it back, exactly: whole minutes as minutes
/// (`"5+3"`, `"10"`), anything else as seconds (`"30s+1"`, `"90s"`); the text to store
/// for a typed clock.
#[uniffi::export]
pub fn clock_text(clock: MatchClock) -> String {
    banco_app::network::clock_arg_text(clock.into())
}
