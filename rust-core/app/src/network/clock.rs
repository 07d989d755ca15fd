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
//!
//! A clock typed by a player (`banco host --clock 5+3`) is read by [`parse_clock`]:
//! minutes (a decimal such as `0.5`, or seconds with `s`: `30s`), then optionally `+` the
//! seconds added per move, refused with a [`ClockTextError`] that says what to type;
//! [`clock_arg_text`] writes a clock back in that form.
//!
//! ```
//! use banco_app::network::{ClockSpec, ClockTextError, clock_arg_text, parse_clock};
//!
//! let c = parse_clock("0.5+1").unwrap();
//! assert_eq!(c, ClockSpec { base_ms: 30_000, increment_ms: 1_000 });
//! assert_eq!(clock_arg_text(c), "30s+1");
//! assert_eq!(parse_clock("5s"), Err(ClockTextError::TooShort { base_ms: 5_000 }));
//! ```

use super::ClockSpec;
use banco_game::Color;
use banco_protocol::message::MIN_CLOCK_BASE_MS;

/// The longest base time [`parse_clock`] takes: 24 hours (a longer clock is a typo).
pub const MAX_CLOCK_BASE_MS: u32 = 24 * 3_600_000;

/// The longest increment per move [`parse_clock`] takes: one hour.
pub const MAX_CLOCK_INCREMENT_MS: u32 = 3_600_000;

/// Why a typed clock was refused ([`parse_clock`]); the message says what to type.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClockTextError {
    /// Not `MINUTES[+SECONDS]`.
    #[error(
        "{0:?} is not a clock: write MINUTES or MINUTES+SECONDS, the minutes each side has \
         and the seconds added after each move, such as 5+3, 10 or 0.5+1 (30s+1 for \
         seconds)"
    )]
    Malformed(String),
    /// A base time below the protocol's minimum ([`MIN_CLOCK_BASE_MS`]).
    #[error(
        "a clock of {} is shorter than the minimum of 10 s: give at least 10s (or 0.17 minutes)",
        span_text(*base_ms)
    )]
    TooShort {
        /// The base time asked for, in milliseconds.
        base_ms: u32,
    },
    /// A base time over [`MAX_CLOCK_BASE_MS`].
    #[error("a clock longer than 24 hours is not offered: give at most 1440 minutes")]
    TooLong,
    /// An increment over [`MAX_CLOCK_INCREMENT_MS`].
    #[error("more than an hour added per move is not offered: give at most 3600 seconds")]
    IncrementTooLong,
}

/// Decimals a typed clock's numbers may have.
const MAX_DECIMALS: usize = 6;

/// Milliseconds of `text`, a decimal number (`12`, `0.5`, `.5`, `1.`) of units of `unit_ms`
/// milliseconds, rounded down to the millisecond; `None` for anything else (signs,
/// exponents, more than [`MAX_DECIMALS`] decimals). Saturates far above any limit.
fn decimal_ms(text: &str, unit_ms: u64) -> Option<u64> {
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && frac.is_empty())
        || !digits(whole)
        || !digits(frac)
        || frac.len() > MAX_DECIMALS
    {
        return None;
    }
    // Leading zeros cost nothing; more than 12 significant digits is past every limit.
    let whole = whole.trim_start_matches('0');
    if whole.len() > 12 {
        return Some(u64::MAX);
    }
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let scale = 10u64.pow(u32::try_from(frac.len()).ok()?);
    let frac: u64 = if frac.is_empty() {
        0
    } else {
        frac.parse().ok()?
    };
    Some(
        whole
            .saturating_mul(unit_ms)
            .saturating_add(frac.saturating_mul(unit_ms) / scale),
    )
}

/// Reads a clock typed by a player: `MINUTES[+SECONDS]`, the base time each side has in
/// minutes (a decimal, `0.5`; or in seconds with an `s`, `30s`) and the seconds added after
/// each move (a decimal, `1.5`), spaces allowed around the numbers: `"5+3"`, `"10"`,
/// `"0.5+1"`, `"30s + 2"`. Refused when it is not that form, when the base time is below
/// the protocol's minimum ([`MIN_CLOCK_BASE_MS`], 10 s), over [`MAX_CLOCK_BASE_MS`], or the
/// increment over [`MAX_CLOCK_INCREMENT_MS`]. Never panics.
pub fn parse_clock(text: &str) -> Result<ClockSpec, ClockTextError> {
    let malformed = || ClockTextError::Malformed(text.to_owned());
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let base = base.trim();
    let base_ms = match base.strip_suffix('s') {
        Some(secs) => decimal_ms(secs.trim_end(), 1_000),
        None => decimal_ms(base, 60_000),
    }
    .ok_or_else(malformed)?;
    let inc = inc.trim();
    let increment_ms =
        decimal_ms(inc.strip_suffix('s').unwrap_or(inc).trim_end(), 1_000).ok_or_else(malformed)?;
    let base_ms = u32::try_from(base_ms)
        .ok()
        .filter(|&ms| ms <= MAX_CLOCK_BASE_MS)
        .ok_or(ClockTextError::TooLong)?;
    if base_ms < MIN_CLOCK_BASE_MS {
        return Err(ClockTextError::TooShort { base_ms });
    }
    let increment_ms = u32::try_from(increment_ms)
        .ok()
        .filter(|&ms| ms <= MAX_CLOCK_INCREMENT_MS)
        .ok_or(ClockTextError::IncrementTooLong)?;
    Ok(ClockSpec {
        base_ms,
        increment_ms,
    })
}

/// `ms` milliseconds as a decimal of `unit_ms` units with no trailing zeros: `"30"`,
/// `"1.5"`, `"0.001"` (exact when `unit_ms` is 1,000 or divides `ms`).
fn decimal_text(ms: u32, unit_ms: u32) -> String {
    let (whole, rest) = (ms / unit_ms, ms % unit_ms);
    if rest == 0 {
        return whole.to_string();
    }
    let frac = format!("{rest:03}");
    format!("{whole}.{}", frac.trim_end_matches('0'))
}

/// A clock in the form [`parse_clock`] reads, exactly: whole minutes as minutes (`"5+3"`,
/// `"10"`), other base times in seconds (`"30s+1"`, `"10.5s"`), the increment in seconds
/// (`"+0.25"`), none when it is 0.
pub fn clock_arg_text(clock: ClockSpec) -> String {
    let base = if clock.base_ms.is_multiple_of(60_000) {
        (clock.base_ms / 60_000).to_string()
    } else {
        format!("{}s", decimal_text(clock.base_ms, 1_000))
    };
    if clock.increment_ms == 0 {
        base
    } else {
        format!("{base}+{}", decimal_text(clock.increment_ms, 1_000))
    }
}

/// A span of time in words: `"5 min"`, `"30 s"`, `"0.5 s"`.
fn span_text(ms: u32) -> String {
    match ms {
        ms if ms % 60_000 == 0 => format!("{} min", ms / 60_000),
        ms if ms % 1_000 == 0 => format!("{} s", ms / 1_000),
        ms => format!("{:.1} s", f64::from(ms) / 1_000.0),
    }
}

/// Below this much time left a clock is low ([`ClockFace::low`]) and shows tenths.
pub const LOW_TIME_MS: u64 = 10_000;

/// A clock in words: `"untimed"`, `"clock 5 min + 3 s per move"`, `"clock 10 s"`.
pub fn clock_text(clock: Option<ClockSpec>) -> String {
    let span = span_text;
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
    use proptest::prelude::*;

    #[test]
    fn typed_clocks() {
        let ok = |text: &str, base_ms, increment_ms| {
            assert_eq!(
                parse_clock(text),
                Ok(ClockSpec {
                    base_ms,
                    increment_ms
                }),
                "{text}"
            );
        };
        ok("5+3", 300_000, 3_000);
        ok("10", 600_000, 0);
        ok("0.5+1", 30_000, 1_000);
        ok(" 30s + 2.5 ", 30_000, 2_500);
        ok(".5", 30_000, 0);
        ok("10s", 10_000, 0);
        ok("1440+3600", MAX_CLOCK_BASE_MS, MAX_CLOCK_INCREMENT_MS);
        ok("0.1667", 10_002, 0);
        ok("5+0s", 300_000, 0);
        for bad in [
            "",
            "+",
            "5+",
            "-5",
            "5+-1",
            "1e3",
            "five",
            "5:00",
            "5++3",
            "0.1234567",
            "5 3",
            ".",
        ] {
            assert_eq!(
                parse_clock(bad),
                Err(ClockTextError::Malformed(bad.to_owned())),
                "{bad:?}"
            );
        }
        assert_eq!(
            parse_clock("0.1+5"),
            Err(ClockTextError::TooShort { base_ms: 6_000 })
        );
        assert_eq!(
            parse_clock("9.999s"),
            Err(ClockTextError::TooShort { base_ms: 9_999 })
        );
        assert_eq!(parse_clock("1441"), Err(ClockTextError::TooLong));
        assert_eq!(
            parse_clock("99999999999999999999"),
            Err(ClockTextError::TooLong)
        );
        assert_eq!(parse_clock("5+3601"), Err(ClockTextError::IncrementTooLong));
        // The messages say what to type.
        let short = parse_clock("0.1").unwrap_err().to_string();
        assert!(short.contains("6 s") && short.contains("10s"), "{short}");
        let bad = parse_clock("5:00").unwrap_err().to_string();
        assert!(bad.contains("\"5:00\"") && bad.contains("5+3"), "{bad}");
    }

    #[test]
    fn typed_clocks_written_back() {
        let c = |base_ms, increment_ms| ClockSpec {
            base_ms,
            increment_ms,
        };
        assert_eq!(clock_arg_text(c(300_000, 3_000)), "5+3");
        assert_eq!(clock_arg_text(c(600_000, 0)), "10");
        assert_eq!(clock_arg_text(c(30_000, 1_000)), "30s+1");
        assert_eq!(clock_arg_text(c(10_250, 500)), "10.25s+0.5");
        assert_eq!(clock_arg_text(c(10_001, 1)), "10.001s+0.001");
    }

    proptest! {
        #![proptest_config(banco_game::testing::proptest_config(None, 0xC10C))]

        /// Anything typed is read or refused, never a panic; what is read is a clock the
        /// protocol plays, written back to the same clock.
        #[test]
        fn any_text_is_read_or_refused(text in ".{0,24}") {
            if let Ok(c) = parse_clock(&text) {
                prop_assert!((MIN_CLOCK_BASE_MS..=MAX_CLOCK_BASE_MS).contains(&c.base_ms));
                prop_assert!(c.increment_ms <= MAX_CLOCK_INCREMENT_MS);
                prop_assert_eq!(parse_clock(&clock_arg_text(c)), Ok(c));
            }
        }

        /// Clock-like text (digits, dots, `s`, `+`, spaces) never panics either.
        #[test]
        fn clock_like_text_is_read_or_refused(text in "[0-9. s+]{0,16}") {
            if let Ok(c) = parse_clock(&text) {
                prop_assert_eq!(parse_clock(&clock_arg_text(c)), Ok(c));
            }
        }

        /// Every clock the protocol plays (within the limits) is written and read back.
        #[test]
        fn clocks_round_trip(
            base_ms in MIN_CLOCK_BASE_MS..=MAX_CLOCK_BASE_MS,
            increment_ms in 0..=MAX_CLOCK_INCREMENT_MS,
        ) {
            let c = ClockSpec { base_ms, increment_ms };
            prop_assert_eq!(parse_clock(&clock_arg_text(c)), Ok(c));
        }
    }

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
