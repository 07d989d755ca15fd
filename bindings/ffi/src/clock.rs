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
