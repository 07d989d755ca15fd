//! The words every game shares: [`Color`], [`Outcome`] with its [`WinReason`] and
//! [`DrawReason`], and [`GameKind`].
//!
//! ```
//! use banco_game::{Color, DrawReason, GameKind, Outcome};
//! let draw = Outcome::Draw { reason: DrawReason::ThreefoldRepetition };
//! assert_eq!(draw.to_string(), "1/2-1/2 threefold repetition");
//! assert_eq!(GameKind::from_name("Chess"), Some(GameKind::Chess));
//! assert_eq!(Color::Red.other(), Color::Black);
//! ```

use core::fmt;

/// A side. In xiangqi and jieqi Red moves first; in chess [`Color::Red`] stands for White.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side that moves first (Red in xiangqi, White in chess).
    Red = 0,
    /// The side that moves second.
    Black = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];
    /// Chess name of the first side.
    pub const WHITE: Color = Color::Red;

    /// The opponent.
    #[inline]
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black: handy to index per-side tables.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `+1` for Red, `-1` for Black.
    #[inline]
    #[must_use]
    pub const fn sign(self) -> i32 {
        match self {
            Color::Red => 1,
            Color::Black => -1,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Red => "red",
            Color::Black => "black",
        })
    }
}

/// Why a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The loser is in check and has no legal move.
    Checkmate,
    /// The loser has no legal move while not in check (a loss in xiangqi).
    Stalemate,
    /// The loser kept checking through a repetition cycle.
    PerpetualCheck,
    /// The loser kept chasing an unprotected piece through a repetition cycle.
    PerpetualChase,
    /// The loser resigned.
    Resignation,
    /// The loser ran out of time.
    Timeout,
    /// The loser broke the rules of a networked match (illegal moves, desync).
    Forfeit,
    /// A record gives the result but not why (another program's `Normal` on a game whose
    /// moves show no mate): Banco does not guess a reason.
    Unknown,
}

impl WinReason {
    /// Every reason, in the order of their codes ([`Outcome::code`]).
    pub const ALL: [WinReason; 8] = [
        WinReason::Checkmate,
        WinReason::Stalemate,
        WinReason::PerpetualCheck,
        WinReason::PerpetualChase,
        WinReason::Resignation,
        WinReason::Timeout,
        WinReason::Forfeit,
        WinReason::Unknown,
    ];

    /// Reads [`WinReason::text`] back.
    #[must_use]
    pub fn from_text(text: &str) -> Option<WinReason> {
        WinReason::ALL.into_iter().find(|r| r.text() == text)
    }

    /// A few words for people and for the command line (`perpetual check`).
    #[must_use]
    pub const fn text(self) -> &'static str {
        match self {
            WinReason::Checkmate => "checkmate",
            WinReason::Stalemate => "stalemate",
            WinReason::PerpetualCheck => "perpetual check",
            WinReason::PerpetualChase => "perpetual chase",
            WinReason::Resignation => "resignation",
            WinReason::Timeout => "timeout",
            WinReason::Forfeit => "forfeit",
            WinReason::Unknown => "unknown reason",
        }
    }
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// The position repeated and neither (or both) sides were to blame (xiangqi's judge).
    Repetition,
    /// The no-capture limit was reached; the limit in plies is carried (xiangqi).
    NoCapture(u16),
    /// Neither side has material that can give mate.
    InsufficientMaterial,
    /// The players agreed.
    Agreement,
    /// No legal move and not in check, in games where that is a draw (chess).
    Stalemate,
    /// Chess: fifty moves by each side without a capture or a pawn move, claimed.
    FiftyMoveRule,
    /// Chess: seventy-five moves by each side without a capture or a pawn move (automatic).
    SeventyFiveMoveRule,
    /// Chess: the same position for the third time, claimed.
    ThreefoldRepetition,
    /// Chess: the same position for the fifth time (automatic).
    FivefoldRepetition,
}

impl DrawReason {
    /// Every reason but [`DrawReason::NoCapture`] (whose number of plies varies).
    pub const FIXED: [DrawReason; 8] = [
        DrawReason::Repetition,
        DrawReason::InsufficientMaterial,
        DrawReason::Agreement,
        DrawReason::Stalemate,
        DrawReason::FiftyMoveRule,
        DrawReason::SeventyFiveMoveRule,
        DrawReason::ThreefoldRepetition,
        DrawReason::FivefoldRepetition,
    ];

    /// Reads [`DrawReason::text`] back (`no capture in 120 plies` with its number).
    #[must_use]
    pub fn from_text(text: &str) -> Option<DrawReason> {
        if let Some(n) = text
            .strip_prefix("no capture in ")
            .and_then(|rest| rest.strip_suffix(" plies"))
        {
            return n.parse().ok().map(DrawReason::NoCapture);
        }
        DrawReason::FIXED.into_iter().find(|r| r.text() == text)
    }

    /// A few words for people and for the command line (`no capture in 120 plies`).
    #[must_use]
    pub fn text(self) -> String {
        match self {
            DrawReason::Repetition => "repetition".to_owned(),
            DrawReason::NoCapture(n) => format!("no capture in {n} plies"),
            DrawReason::InsufficientMaterial => "insufficient material".to_owned(),
            DrawReason::Agreement => "agreement".to_owned(),
            DrawReason::Stalemate => "stalemate".to_owned(),
            DrawReason::FiftyMoveRule => "fifty-move rule".to_owned(),
            DrawReason::SeventyFiveMoveRule => "seventy-five-move rule".to_owned(),
            DrawReason::ThreefoldRepetition => "threefold repetition".to_owned(),
            DrawReason::FivefoldRepetition => "fivefold repetition".to_owned(),
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One side won.
    Win {
        /// The winner.
        winner: Color,
        /// Why.
        reason: WinReason,
    },
    /// Nobody won.
    Draw {
        /// Why.
        reason: DrawReason,
    },
}

impl Outcome {
    /// The winner, if any.
    #[must_use]
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(winner),
            Outcome::Draw { .. } => None,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    #[must_use]
    pub const fn score_text(self) -> &'static str {
        match self {
            Outcome::Win {
                winner: Color::Red, ..
            } => "1-0",
            Outcome::Win {
                winner: Color::Black,
                ..
            } => "0-1",
            Outcome::Draw { .. } => "1/2-1/2",
        }
    }

    /// The reason in a few words.
    #[must_use]
    pub fn reason_text(self) -> String {
        match self {
            Outcome::Win { reason, .. } => reason.text().to_owned(),
            Outcome::Draw { reason } => reason.text(),
        }
    }
}

impl Outcome {
    /// A stable number for this outcome, the same on every device and release:
    /// `0x0100_0RWW` for a win (`R` the winner's index, `WW` the reason) and `0x02DD_NNNN`
    /// for a draw (`DD` the reason, `NNNN` a no-capture limit). Peers that must choose between two
    /// outcomes compare these codes; saved files may store them.
    #[must_use]
    pub const fn code(self) -> u32 {
        match self {
            Outcome::Win { winner, reason } => {
                let r = match reason {
                    WinReason::Checkmate => 0,
                    WinReason::Stalemate => 1,
                    WinReason::PerpetualCheck => 2,
                    WinReason::PerpetualChase => 3,
                    WinReason::Resignation => 4,
                    WinReason::Timeout => 5,
                    WinReason::Forfeit => 6,
                    WinReason::Unknown => 7,
                };
                0x0100_0000 | (winner as u32) << 8 | r
            }
            Outcome::Draw { reason } => {
                let (r, n) = match reason {
                    DrawReason::Repetition => (0, 0),
                    DrawReason::NoCapture(n) => (1, n as u32),
                    DrawReason::InsufficientMaterial => (2, 0),
                    DrawReason::Agreement => (3, 0),
                    DrawReason::Stalemate => (4, 0),
                    DrawReason::FiftyMoveRule => (5, 0),
                    DrawReason::SeventyFiveMoveRule => (6, 0),
                    DrawReason::ThreefoldRepetition => (7, 0),
                    DrawReason::FivefoldRepetition => (8, 0),
                };
                0x0200_0000 | r << 16 | n
            }
        }
    }
}

impl Outcome {
    /// The outcome of a [`Outcome::code`], if the number is one.
    #[must_use]
    pub fn from_code(code: u32) -> Option<Outcome> {
        let found = match code >> 24 {
            1 => {
                let winner = match (code >> 8) & 0xFFFF {
                    0 => Color::Red,
                    1 => Color::Black,
                    _ => return None,
                };
                let reason = *WinReason::ALL.get((code & 0xFF) as usize)?;
                Outcome::Win { winner, reason }
            }
            2 => {
                let n = (code & 0xFFFF) as u16;
                let reason = match (code >> 16) & 0xFF {
                    0 => DrawReason::Repetition,
                    1 => DrawReason::NoCapture(n),
                    2 => DrawReason::InsufficientMaterial,
                    3 => DrawReason::Agreement,
                    4 => DrawReason::Stalemate,
                    5 => DrawReason::FiftyMoveRule,
                    6 => DrawReason::SeventyFiveMoveRule,
                    7 => DrawReason::ThreefoldRepetition,
                    8 => DrawReason::FivefoldRepetition,
                    _ => return None,
                };
                Outcome::Draw { reason }
            }
            _ => return None,
        };
        // Only the canonical number of an outcome is one (no stray bits).
        (found.code() == code).then_some(found)
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.score_text(), self.reason_text())
    }
}

/// The games Banco knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Chinese chess (cờ tướng).
    Xiangqi,
    /// Hidden-piece xiangqi (cờ úp).
    Jieqi,
    /// International chess.
    Chess,
    /// Color Lines (a single-player puzzle).
    Lines,
}

impl GameKind {
    /// Every kind.
    pub const ALL: [GameKind; 4] = [
        GameKind::Xiangqi,
        GameKind::Jieqi,
        GameKind::Chess,
        GameKind::Lines,
    ];

    /// Lower-case name used on the command line, in UCI and in saved files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Xiangqi => "xiangqi",
            GameKind::Jieqi => "jieqi",
            GameKind::Chess => "chess",
            GameKind::Lines => "lines",
        }
    }

    /// The kind with this name (see [`GameKind::name`]), if any.
    #[must_use]
    pub fn from_name(name: &str) -> Option<GameKind> {
        GameKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
