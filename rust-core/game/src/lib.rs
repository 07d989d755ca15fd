//! # banco-game — the shared vocabulary of Banco
//!
//! Every game in Banco (xiangqi, jieqi, chess, lines) speaks the words defined here:
//! [`Color`], [`Outcome`] with its [`WinReason`] and [`DrawReason`], [`GameKind`], the
//! [`MoveList`] that move generators fill (capacity per game), and the [`Game`] trait that
//! the engine and the network session drive without knowing which game they play, with its
//! chance step for hidden information ([`Game::awaits_chance`]) and [`MatchGame`] for games
//! a networked match can be proposed in. [`toy::DiceRace`] is a tiny game with a chance
//! step for tests.
//!
//! ```
//! use banco_game::{Color, Outcome, WinReason};
//!
//! let result = Outcome::Win { winner: Color::Red, reason: WinReason::Checkmate };
//! assert_eq!(result.winner(), Some(Color::Red));
//! assert_eq!(result.score_text(), "1-0");
//! assert_eq!(Color::Red.other(), Color::Black);
//! ```
//!
//! See the [`game`] module for why the trait looks the way it does. Lines, a one-player
//! score game, implements the smaller [`ScoreGame`] of the [`solo`] module instead.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod game;
pub mod movelist;
pub mod solo;
#[cfg(feature = "testing")]
pub mod testing;
pub mod toy;
pub mod vocab;

pub use game::{Game, MatchGame, SetupError};
pub use movelist::{
    ChanceList, ListCapacity, ListFull, MAX_CHANCE_OUTCOMES, MoveList, Weighted, capacity,
};
pub use solo::ScoreGame;
pub use vocab::{Color, DrawReason, GameKind, Outcome, WinReason};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colors() {
        assert_eq!(Color::Red.other(), Color::Black);
        assert_eq!(Color::Black.index(), 1);
        assert_eq!(Color::Black.sign(), -1);
    }

    #[test]
    fn outcome_texts() {
        let d = Outcome::Draw {
            reason: DrawReason::NoCapture(120),
        };
        assert_eq!(d.to_string(), "1/2-1/2 no capture in 120 plies");
        let w = Outcome::Win {
            winner: Color::Black,
            reason: WinReason::PerpetualCheck,
        };
        assert_eq!(w.to_string(), "0-1 perpetual check");
    }

    #[test]
    fn outcome_codes_are_distinct_and_stable() {
        let mut all = Vec::new();
        for winner in Color::ALL {
            for reason in WinReason::ALL {
                all.push(Outcome::Win { winner, reason });
            }
        }
        for reason in [DrawReason::NoCapture(120), DrawReason::NoCapture(60)]
            .into_iter()
            .chain(DrawReason::FIXED)
        {
            all.push(Outcome::Draw { reason });
        }
        let mut codes: Vec<u32> = all.iter().map(|o| o.code()).collect();
        for o in &all {
            assert_eq!(Outcome::from_code(o.code()), Some(*o));
            // The words read back too.
            let why = o.reason_text();
            match *o {
                Outcome::Win { reason, .. } => assert_eq!(WinReason::from_text(&why), Some(reason)),
                Outcome::Draw { reason } => assert_eq!(DrawReason::from_text(&why), Some(reason)),
            }
        }
        // The first number past the reasons (7, an unknown reason, came last) is none.
        assert_eq!(
            Outcome::from_code(0x0100_0007),
            Some(Outcome::Win {
                winner: Color::Red,
                reason: WinReason::Unknown
            })
        );
        assert_eq!(Outcome::from_code(0x0100_0008), None);
        assert_eq!(Outcome::from_code(0x0300_0000), None);
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), all.len());
        // Frozen values: peers compare them.
        assert_eq!(
            Outcome::Win {
                winner: Color::Black,
                reason: WinReason::Resignation
            }
            .code(),
            0x0100_0104
        );
        assert_eq!(
            Outcome::Draw {
                reason: DrawReason::NoCapture(120)
            }
            .code(),
            0x0201_0078
        );
    }

    #[test]
    fn kinds_by_name() {
        for k in GameKind::ALL {
            assert_eq!(GameKind::from_name(k.name()), Some(k));
        }
        assert_eq!(GameKind::from_name("go"), None);
    }
}
