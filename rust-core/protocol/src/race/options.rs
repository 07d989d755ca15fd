//! The options a race is proposed with, and the proposal's and acceptance's parameters.
//!
//! ```
//! use banco_game::Color;
//! use banco_protocol::race::{RaceOptions, parse_proposal_params, proposal_params};
//! use banco_protocol::seed::SeedShare;
//! let share = SeedShare::new([1; 32], [7; 8], Color::Red);
//! let options = RaceOptions { start_balls: 3, time_limit_s: 120, ..RaceOptions::default() };
//! let params = proposal_params(&share.commitment(), options);
//! assert_eq!(params.len(), 33 + 4); // the commitment, 3 option bytes and the flags byte
//! assert_eq!(parse_proposal_params(&params)?, options);
//! # Ok::<(), banco_protocol::race::RaceParamsError>(())
//! ```

use crate::seed::{SEED_COMMITMENT_LEN, SeedError, parse_seed_commitment};
use banco_lines::{Settings, SpawnRule, UndoRule};

/// Bytes of a classic race's [`RaceOptions`] in the proposal's parameters, after the seed
/// commitment (a race with a flag set adds one flags byte).
pub const RACE_OPTIONS_LEN: usize = 3;

/// The flags byte's bit for [`RaceOptions::preview`] (a flags byte with a bit this build
/// does not know is refused, [`RaceParamsError::BadOptions`]).
pub const RACE_FLAG_PREVIEW: u8 = 1;

/// The flags byte's bit for [`RaceOptions::spawn`] =
/// [`SpawnRule::AtAnnouncement`] (without it, [`SpawnRule::AtLanding`]: what a build from
/// before the rule plays). Only proposed to a peer that announced
/// [`CAP_LINES_SPOTS`](crate::message::CAP_LINES_SPOTS): an older build refuses the bit.
pub const RACE_FLAG_SPOTS: u8 = 2;

/// What the proposer sets for a race (agreed by accepting the proposal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RaceOptions {
    /// Balls on each board at the start: 3 or 5.
    pub start_balls: u8,
    /// Time limit in seconds, 1 or more: every race has one. A race without one (0, which
    /// older apps proposed) could be held hostage — a player who stops moving would never
    /// be ended, and the other could get no result — so it is refused when proposing
    /// ([`ActionError::RaceUntimed`](crate::ActionError::RaceUntimed)) and declined when
    /// proposed ([`DeclineReason::RACE_UNTIMED`](crate::message::DeclineReason::RACE_UNTIMED)).
    pub time_limit_s: u16,
    /// Lines 98's preview on both boards: each shows where its next balls land
    /// ([`LinesGame::next_spots`](banco_lines::LinesGame::next_spots)). The spots come from the shared seed, so the replica of
    /// the peer's board lands its balls exactly as the peer's own board does. Off by default.
    pub preview: bool,
    /// When a ball's cell is drawn, on both boards ([`SpawnRule`]): at announcement by
    /// default; [`Session::propose_race`](crate::Session::propose_race) falls back to
    /// [`SpawnRule::AtLanding`] for a peer without
    /// [`CAP_LINES_SPOTS`](crate::message::CAP_LINES_SPOTS), and a proposal without
    /// [`RACE_FLAG_SPOTS`] (an older build's) is raced at landing.
    pub spawn: SpawnRule,
}

impl Default for RaceOptions {
    fn default() -> Self {
        RaceOptions {
            start_balls: 5,
            time_limit_s: 300,
            preview: false,
            spawn: SpawnRule::AtAnnouncement,
        }
    }
}

/// Why race parameters are refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RaceParamsError {
    /// No valid seed commitment first.
    #[error("{0}")]
    Seed(#[from] SeedError),
    /// The options after the commitment are missing, too long, or out of range.
    #[error(
        "the race options are not valid (3 or 5 start balls, a time limit, then a flags byte of 1 and 2 if any)"
    )]
    BadOptions,
}

/// A time limit of `seconds` in words, as every Lines screen says it: whole minutes as
/// minutes, under a minute in seconds, else both.
///
/// ```
/// use banco_protocol::race::limit_text;
/// assert_eq!(limit_text(45), "45 s");
/// assert_eq!(limit_text(3600), "60 min");
/// assert_eq!(limit_text(90), "1 min 30 s");
/// ```
#[must_use]
pub fn limit_text(seconds: u32) -> String {
    match seconds {
        s if s < 60 => format!("{s} s"),
        s if s % 60 == 0 => format!("{} min", s / 60),
        s => format!("{} min {} s", s / 60, s % 60),
    }
}

/// The options as a player reads them before accepting.
///
/// ```
/// use banco_protocol::race::RaceOptions;
/// let o = RaceOptions { start_balls: 3, time_limit_s: 0, ..RaceOptions::default() };
/// assert_eq!(o.to_string(), "3 balls, no time limit"); // an older app's proposal, declined
/// let o = RaceOptions { start_balls: 5, time_limit_s: 60, preview: true, ..RaceOptions::default() };
/// assert_eq!(o.to_string(), "5 balls, 1 min, preview");
/// let o = RaceOptions { start_balls: 5, time_limit_s: 3600, ..RaceOptions::default() };
/// assert_eq!(o.to_string(), "5 balls, 60 min");
/// let o = RaceOptions { start_balls: 5, time_limit_s: 150, ..RaceOptions::default() };
/// assert_eq!(o.to_string(), "5 balls, 2 min 30 s");
/// ```
impl core::fmt::Display for RaceOptions {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} balls, ", self.start_balls)?;
        match self.time_limit_s {
            0 => f.write_str("no time limit")?,
            t => f.write_str(&limit_text(u32::from(t)))?,
        }
        if self.preview {
            f.write_str(", preview")?;
        }
        Ok(())
    }
}

impl RaceOptions {
    /// The option bytes: start balls, then the time limit (little-endian seconds) — a
    /// classic race's 3 bytes, unchanged since races began — then, when a flag is set, a
    /// flags byte ([`RACE_FLAG_PREVIEW`], [`RACE_FLAG_SPOTS`]).
    ///
    /// ```
    /// use banco_lines::SpawnRule;
    /// use banco_protocol::race::RaceOptions;
    /// let legacy = RaceOptions { spawn: SpawnRule::AtLanding, ..RaceOptions::default() };
    /// assert_eq!(legacy.encode(), [5, 44, 1]);
    /// assert_eq!(RaceOptions::default().encode(), [5, 44, 1, 2]);
    /// assert_eq!(RaceOptions::decode(&[5, 44, 1])?, legacy);
    /// # Ok::<(), banco_protocol::race::RaceParamsError>(())
    /// ```
    #[must_use]
    pub fn encode(self) -> Vec<u8> {
        let t = self.time_limit_s.to_le_bytes();
        let mut out = vec![self.start_balls, t[0], t[1]];
        let mut flags = 0;
        if self.preview {
            flags |= RACE_FLAG_PREVIEW;
        }
        if self.spawn == SpawnRule::AtAnnouncement {
            flags |= RACE_FLAG_SPOTS;
        }
        if flags != 0 {
            out.push(flags);
        }
        out
    }

    /// The options of 3 bytes (a race at landing without the preview, as every race
    /// before the flags), or 4 with a flags byte of [`RACE_FLAG_PREVIEW`] and
    /// [`RACE_FLAG_SPOTS`]; fails ([`RaceParamsError::BadOptions`]) on another length, a
    /// start other than 3 or 5 balls, or a flag this build does not know.
    pub fn decode(bytes: &[u8]) -> Result<RaceOptions, RaceParamsError> {
        let (balls, lo, hi, flags) = match *bytes {
            [balls, lo, hi] => (balls, lo, hi, 0),
            [balls, lo, hi, flags] => (balls, lo, hi, flags),
            _ => return Err(RaceParamsError::BadOptions),
        };
        if !matches!(balls, 3 | 5) || flags & !(RACE_FLAG_PREVIEW | RACE_FLAG_SPOTS) != 0 {
            return Err(RaceParamsError::BadOptions);
        }
        Ok(RaceOptions {
            start_balls: balls,
            time_limit_s: u16::from_le_bytes([lo, hi]),
            preview: flags & RACE_FLAG_PREVIEW != 0,
            spawn: if flags & RACE_FLAG_SPOTS != 0 {
                SpawnRule::AtAnnouncement
            } else {
                SpawnRule::AtLanding
            },
        })
    }

    /// Checks that a race can be played with these options, as
    /// [`Session::propose_race`](crate::Session::propose_race) does (a host checks its
    /// automatic proposal with it before any peer connects).
    ///
    /// # Errors
    /// [`ActionError::RaceStartBalls`](crate::ActionError::RaceStartBalls) for a start
    /// other than 3 or 5 balls; [`ActionError::RaceUntimed`](crate::ActionError::RaceUntimed)
    /// without a time limit (every race has one: see [`RaceOptions::time_limit_s`]).
    pub fn check(self) -> Result<(), crate::ActionError> {
        RaceOptions::decode(&self.encode())
            .map_err(|_| crate::ActionError::RaceStartBalls(self.start_balls))?;
        if self.time_limit_s == 0 {
            return Err(crate::ActionError::RaceUntimed);
        }
        Ok(())
    }

    /// The settings of both boards (no undo in a race; Lines 98's preview if agreed; the
    /// agreed spawn rule).
    pub fn settings(self) -> Settings {
        Settings {
            start_balls: self.start_balls,
            undo: UndoRule::Off,
            preview: self.preview,
            spawn: self.spawn,
        }
    }
}

/// The proposal parameters of a race: our commitment, then the options.
#[must_use]
pub fn proposal_params(commitment: &[u8; SEED_COMMITMENT_LEN], options: RaceOptions) -> Vec<u8> {
    let mut out = commitment.to_vec();
    out.extend_from_slice(&options.encode());
    out
}

/// The options of a race proposal's parameters (after checking the commitment's form).
pub fn parse_proposal_params(params: &[u8]) -> Result<RaceOptions, RaceParamsError> {
    let (_, rest) = parse_seed_commitment(params)?;
    RaceOptions::decode(rest)
}

/// Checks the parameters of a race acceptance: exactly a seed commitment.
pub fn check_accept_params(params: &[u8]) -> Result<(), RaceParamsError> {
    match parse_seed_commitment(params)? {
        (_, []) => Ok(()),
        _ => Err(RaceParamsError::BadOptions),
    }
}
