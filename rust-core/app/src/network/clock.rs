//! The clocks of a networked game, ready to show: the clock a proposal offers, in the
//! accept prompt before the player agrees to it (`"5:00 + 3s"`), and both running clocks
//! during play from this player's side (`"0:42"`; tenths under ten seconds, `"0:09.4"`),
//! which one runs, which is low, and when the running one's text next changes (so a screen
//! redraws exactly then, and sees the flag fall without a move). Front ends only display
//! these: the session keeps the time ([`banco_protocol::MatchSnapshot`]).
//!
//! ```
//! use banco_app::network::{ClockSpec, clock_faces, offer_clock_text};
//! use banco_game::Color;
//!
//! let offer = ClockSpec { base_ms: 300_000, increment_ms: 3_000 };
//! assert_eq!(offer_clock_text(Some(offer)), "5:00 + 3s");
//!
//! // Black's view: red (first) has 4:59.5 left and is to move, black has 9.45 s.
//! let faces = clock_faces([299_500, 9_450], Some(Color::Red), Color::Black);
//! assert_eq!((faces.you.text.as_str(), faces.opponent.text.as_str()), ("0:09.4", "4:59"));
//! assert!(faces.opponent.running && !faces.you.running);
//! assert!(faces.you.low && !faces.opponent.low);
//! // Red's clock shows 4:59 until it falls below 4:59.000, 501 ms from now.
//! assert_eq!(faces.next_change_ms, Some(501));
//! ```

use super::ClockSpec;
use banco_game::Color;

/// Below this much time left a clock is low ([`ClockFace::low`]) and shows tenths.
pub const LOW_TIME_MS: u64 = 10_000;

/// A clock in words: `"untimed"`, `"clock 5 min + 3 s per move"`, `"clock 10 s"`.
pub fn clock_text(clock: Option<ClockSpec>) -> String {
    fn span(ms: u32) -> String {
        match ms {
            ms if ms % 60_000 == 0 => format!("{} min", ms / 60_000),
            ms if ms % 1_000 == 0 => format!("{} s", ms / 1_000),
            ms => format!("{:.1} s", f64::from(ms) / 1_000.0),
        }
    }
    match clock {
        None => "untimed".to_owned(),
        Some(c) if c.increment_ms == 0 => format!("clock {}", span(c.base_ms)),
        Some(c) => format!(
            "clock {} + {} per move",
            span(c.base_ms),
            span(c.increment_ms)
        ),
    }
}

/// The clock a game is offered with, as a clock face shows it: `"5:00 + 3s"`, `"10:00"`
/// without increment, `"0:10 + 0.5s"`, `"untimed"` for none.
pub fn offer_clock_text(clock: Option<ClockSpec>) -> String {
    let Some(c) = clock else {
        return "untimed".to_owned();
    };
    let base = duration_text(u64::from(c.base_ms));
    let inc = c.increment_ms;
    match (inc / 1_000, inc % 1_000) {
        (0, 0) => base,
        (s, 0) => format!("{base} + {s}s"),
        (s, ms) => format!("{base} + {s}.{}s", ms / 100),
    }
}

/// A duration as `m:ss` (`h:mm:ss` from an hour), rounded down to the second.
pub fn duration_text(ms: u64) -> String {
    let s = ms / 1_000;
    let (h, m, sec) = (s / 3_600, s / 60 % 60, s % 60);
    if h > 0 {
        format!("{h}:{m:02}:{sec:02}")
    } else {
        format!("{}:{sec:02}", s / 60)
    }
}

/// A clock's remaining time: `m:ss` rounded down, with tenths under [`LOW_TIME_MS`]
/// (`"0:09.4"`).
pub fn remaining_text(ms: u64) -> String {
    if ms < LOW_TIME_MS {
        format!("0:{:02}.{}", ms / 1_000, ms / 100 % 10)
    } else {
        duration_text(ms)
    }
}

/// Milliseconds until a running clock with `ms` left shows another text, or reaches 0
/// (`None` at 0).
fn next_change(ms: u64) -> Option<u64> {
    let step = if ms < LOW_TIME_MS { 100 } else { 1_000 };
    (ms > 0).then_some((ms % step + 1).min(ms))
}

/// One player's clock, ready to show.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClockFace {
    /// The remaining time as shown ([`remaining_text`]).
    pub text: String,
    /// The remaining time in milliseconds (0 after a loss on time).
    pub remaining_ms: u64,
    /// This clock runs now.
    pub running: bool,
    /// Less than [`LOW_TIME_MS`] left: show it in warning colours.
    pub low: bool,
}

impl ClockFace {
    fn new(remaining_ms: u64, running: bool) -> Self {
        ClockFace {
            text: remaining_text(remaining_ms),
            remaining_ms,
            running,
            low: remaining_ms < LOW_TIME_MS,
        }
    }
}

/// Both clocks of a timed game from this player's side.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClockFaces {
    /// This player's clock.
    pub you: ClockFace,
    /// The other player's clock.
    pub opponent: ClockFace,
    /// Milliseconds until the running clock's text changes: read the state again then
    /// (`None` while no clock runs, or when the running one reached 0).
    pub next_change_ms: Option<u64>,
}

/// The clock faces of `[first, second]` player's remaining times (red or white first),
/// with `running` the side whose clock runs, seen by the player of `me`.
pub fn clock_faces(clocks: [u64; 2], running: Option<Color>, me: Color) -> ClockFaces {
    let [first, second] = clocks;
    let (mine, theirs) = match me {
        Color::Red => (first, second),
        Color::Black => (second, first),
    };
    let next_change_ms = running.and_then(|side| {
        let [first, second] = clocks;
        next_change(if side == Color::Red { first } else { second })
    });
    ClockFaces {
        you: ClockFace::new(mine, running == Some(me)),
        opponent: ClockFace::new(theirs, running == Some(me.other())),
        next_change_ms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_in_words() {
        let c = |base_ms, increment_ms| {
            clock_text(Some(ClockSpec {
                base_ms,
                increment_ms,
            }))
        };
        assert_eq!(clock_text(None), "untimed");
        assert_eq!(c(10_000, 0), "clock 10 s");
        assert_eq!(c(300_000, 3_000), "clock 5 min + 3 s per move");
        assert_eq!(c(100, 0), "clock 0.1 s");
    }

    #[test]
    fn offered_clocks_as_a_clock_shows_them() {
        let c = |base_ms, increment_ms| {
            offer_clock_text(Some(ClockSpec {
                base_ms,
                increment_ms,
            }))
        };
        assert_eq!(offer_clock_text(None), "untimed");
        assert_eq!(c(300_000, 3_000), "5:00 + 3s");
        assert_eq!(c(600_000, 0), "10:00");
        assert_eq!(c(10_000, 500), "0:10 + 0.5s");
        assert_eq!(c(5_400_000, 30_000), "1:30:00 + 30s");
        assert_eq!(c(60_000, 1_250), "1:00 + 1.2s");
    }

    #[test]
    fn remaining_time_rounds_down_with_tenths_when_low() {
        let cases = [
            (42_999, "0:42"),
            (300_000, "5:00"),
            (299_999, "4:59"),
            (3_600_000, "1:00:00"),
            (3_599_999, "59:59"),
            (10_000, "0:10"),
            (9_999, "0:09.9"),
            (100, "0:00.1"),
            (99, "0:00.0"),
            (0, "0:00.0"),
        ];
        for (ms, text) in cases {
            assert_eq!(remaining_text(ms), text, "{ms} ms");
        }
    }

    #[test]
    fn faces_from_either_side() {
        // Red (first) has 5 min, black 9.95 s and is to move.
        let red = clock_faces([300_000, 9_950], Some(Color::Black), Color::Red);
        let black = clock_faces([300_000, 9_950], Some(Color::Black), Color::Black);
        assert_eq!(
            (red.you.text.as_str(), red.opponent.text.as_str()),
            ("5:00", "0:09.9")
        );
        assert_eq!(red.you, black.opponent);
        assert_eq!(red.opponent, black.you);
        assert!(black.you.running && black.you.low && black.you.remaining_ms == 9_950);
        assert!(!red.you.running && !red.you.low);
        // Black's text changes when it falls below 9.9 s: in 51 ms, on both devices.
        assert_eq!(
            (red.next_change_ms, black.next_change_ms),
            (Some(51), Some(51))
        );
    }

    #[test]
    fn the_next_change_is_exactly_when_the_running_text_changes() {
        // Under a tenth the text stays "0:00.0": the next change is the clock reaching 0.
        assert_eq!((next_change(1), next_change(99)), (Some(1), Some(99)));
        for ms in [100, 101, 9_999, 10_000, 10_001, 42_999, 300_000] {
            let wait = next_change(ms).unwrap();
            assert_ne!(
                remaining_text(ms - wait),
                remaining_text(ms),
                "{ms} - {wait}"
            );
            assert_eq!(
                remaining_text(ms - (wait - 1)),
                remaining_text(ms),
                "{ms}: not before"
            );
        }
        assert_eq!(next_change(0), None);
        // Nothing runs: nothing changes.
        let over = clock_faces([8_000, 0], None, Color::Black);
        assert_eq!(over.next_change_ms, None);
        assert!(!over.you.running && !over.opponent.running);
        assert_eq!(over.you.text, "0:00.0");
    }
}
