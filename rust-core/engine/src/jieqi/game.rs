//! Jieqi as an [`EngineGame`]: bench positions, openings (one first step each: what
//! follows is drawn), moves in coordinates (`h2e2`) and reveals (`=R`), rule sets, the
//! plain reference weights and tuning options.
//!
//! ```
//! use banco_engine::EngineGame;
//! use banco_xiangqi::jieqi::Jieqi;
//! let mut game = Jieqi::start();
//! let mv = game.parse_move("h2e2").unwrap();
//! assert!(game.parse_move("=R").is_err()); // no reveal is pending
//! banco_game::Game::play(&mut game, mv).unwrap();
//! assert_eq!(game.move_text(game.parse_move("=R").unwrap()), "=R");
//! assert_eq!(<Jieqi as EngineGame>::NAME, "jieqi");
//! ```

use super::{JieqiNode, JieqiParams};
use crate::engine_game::EngineGame;
use crate::error::{EngineError, TuneError};
use banco_game::Game;
use banco_xiangqi::RuleSet;
use banco_xiangqi::jieqi::{Jieqi, JieqiMove, START_FEN};

/// The bench positions (FEN): the start, openings and middle games with pieces revealed
/// and face-down pieces captured (from seeded random games), and end games.
pub const BENCH_POSITIONS: &[&str] = &[
    START_FEN,
    "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X2R4/9/XXXXKXXXX b R1A2C2P5N2B2r2a2c2p5n2b2 1 1",
    "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5C1/8R/XXXXKXXX1 b R1A2C1P5N2B2r2a2c2p5n2b2 1 1",
    "1xxxkxxCx/9/a6x1/x1x1x1x1x/1p7/9/X1X1X1X1X/1X2N4/9/XXXXKX1XX w R2A2C1P5N1B2r2a1c2p4n2b2 3 3",
    "1bxxkxxxx/9/1x7/x1x1x1x1x/9/9/X1X1X1X1X/7XC/B8/1XXXKX1B1 w R2A2C1P5N1B0r1a2c2p5n2b1 3 5",
    "x1xxkxxxx/9/a8/x1x3x1x/4a4/6A2/X1X1X3X/1X1N5/7A1/1NX1KXX1X b R2A0C1P5N0B2r1a0c1p5n2b2 0 7",
    "x1xxk4/4a3n/r8/x3x1x1x/9/7P1/X1X1X1X1c/9/9/1PXXKX1NR w R1A2C2P3N0B2r1a1c0p5n0b1 0 10",
    "1pxk1xxn1/9/9/n1x1x1xbx/8P/P6N1/2X1X1XB1/9/4K4/2rX1X2X b R1A2C1P3N0B0r1a2c2p4n0b1 1 14",
    "2xxkx3/9/9/n1x5x/PP3c3/9/4r3X/N1P6/9/2XX1K3 b R0A1C2P2N1B1r0a2c0p4n0b2 1 19",
    "5kxx1/8a/Ca7/x7P/9/4b4/n5X1X/9/2A1P4/3K2XB1 b R1A0C1P3N1B1r1a0c1p4n0b0 1 24",
    "4k4/3n5/5a2n/6x1p/9/3B4p/CA7/9/4P4/2NK5 w R2A1C0P3N0B1r1a0c0p3n0b1 7 32",
    "r8/3n1k3/p8/9/9/1p4B2/7AC/6B2/3K5/5X3 b R0A0C0P3N0B0r0a0c2p3n0b1 2 40",
    "3xk4/4a4/1x7/x8/4R4/9/X8/7X1/4A4/3XK4 w R1A1C1P0N0B0r1a1c0p1n0b0 0 1",
    "4k4/9/4N4/9/9/9/9/9/4A4/3RK4 w - 0 40",
    "3ak4/4a4/4b4/p8/9/9/P8/4B4/4A4/2C1K4 w - 0 50",
    "r3k4/9/4b4/9/2p6/9/9/4B4/9/R2AK4 b - 0 40",
];

/// Openings: one first step each (both colours play each twice); the reveal that
/// follows and the rest of the game are the match's own.
pub const OPENINGS: &[(&str, &str)] = &[
    ("central cannon", "h2e2"),
    ("left central cannon", "b2e2"),
    ("horse", "h0g2"),
    ("third pawn", "c3c4"),
    ("central pawn", "e3e4"),
    ("rook lift", "a0a1"),
    ("elephant", "c0e2"),
    ("advisor", "d0e1"),
    ("cannon to the corner", "b2b1"),
    ("seventh pawn", "g3g4"),
];

impl EngineGame for Jieqi {
    type Node = JieqiNode;

    const NAME: &'static str = "jieqi";
    const BENCH_POSITIONS: &'static [&'static str] = BENCH_POSITIONS;
    const BENCH_DEPTH: u32 = 2;
    const OPENINGS: &'static [(&'static str, &'static str)] = OPENINGS;
    const RULE_NAMES: &'static [&'static str] = &["asian", "casual"];
    const RANKS_FROM_ZERO: bool = true;

    fn start() -> Jieqi {
        Jieqi::new()
    }

    fn from_fen(fen: &str) -> Result<Jieqi, EngineError> {
        Jieqi::from_fen(fen).map_err(|e| EngineError::BadPosition(e.to_string()))
    }

    /// A step in coordinates (`h2e2`) or, while a reveal is pending, `=R` (also a bare
    /// `R`).
    fn parse_move(&self, text: &str) -> Result<JieqiMove, EngineError> {
        let t = text.trim();
        let mv = if t.len() == 1 {
            format!("={t}").parse::<JieqiMove>()
        } else {
            t.parse::<JieqiMove>()
        }
        .map_err(|e| EngineError::BadMove(e.to_string()))?;
        if self.is_legal(mv) {
            Ok(mv)
        } else {
            Err(EngineError::BadMove(format!(
                "{mv} is not legal in this position"
            )))
        }
    }

    fn move_text(&self, mv: JieqiMove) -> String {
        mv.to_string()
    }

    fn rules_named(name: &str) -> Option<RuleSet> {
        RuleSet::from_name(name)
    }

    /// Material only, face-down pieces at one fixed value.
    fn plain_params() -> JieqiParams {
        JieqiParams::plain()
    }

    /// `eval=plain|default`; `hidden=PERCENT` (a face-down piece's share of its pool's
    /// mean), `mobility=PERCENT`, `safety=PERCENT`, `advisor=VALUE`, `elephant=VALUE`.
    fn tune(p: &mut JieqiParams, key: &str, value: &str) -> Result<(), TuneError> {
        let pct = |value: &str| TuneError::number(key, value);
        match key {
            "eval" => {
                *p = match value {
                    "plain" => JieqiParams::plain(),
                    "default" => JieqiParams::default(),
                    _ => return Err(TuneError::unknown_value(key, value)),
                }
            }
            "hidden" => p.hidden_pct = pct(value)?,
            "mobility" => {
                let s = pct(value)?;
                p.rook_mobility = p.rook_mobility * s / 100;
                p.horse_mobility = p.horse_mobility * s / 100;
                p.cannon_mobility = p.cannon_mobility * s / 100;
                p.hidden_mobility = p.hidden_mobility * s / 100;
            }
            "safety" => {
                let s = pct(value)?;
                p.rook_vs_guards = p.rook_vs_guards * s / 100;
                p.two_rooks_vs_guards = p.two_rooks_vs_guards * s / 100;
            }
            "advisor" => p.material[1] = pct(value)?,
            "elephant" => p.material[2] = pct(value)?,
            _ => return Err(TuneError::UnknownOption(key.to_owned())),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_and_openings_are_legal() {
        for fen in BENCH_POSITIONS {
            Jieqi::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        }
        for (name, line) in OPENINGS {
            let game = Jieqi::start();
            assert!(game.parse_move(line).is_ok(), "{name}");
        }
    }

    #[test]
    fn tuning_options() {
        let mut p = JieqiParams::default();
        Jieqi::tune(&mut p, "hidden", "90").unwrap();
        assert_eq!(p.hidden_pct, 90);
        Jieqi::tune(&mut p, "eval", "plain").unwrap();
        assert!(p.plain);
        assert!(Jieqi::tune(&mut p, "bogus", "1").is_err());
        assert!(Jieqi::tune(&mut p, "safety", "x").is_err());
    }
}
