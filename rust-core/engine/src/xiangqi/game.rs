//! Xiangqi as an [`EngineGame`]: its bench positions, balanced openings, coordinate moves
//! (`h2e2`, files a–i and ranks 0–9 from Red's side), rule sets and the weights of tuning
//! matches.
//!
//! ```
//! use banco_engine::EngineGame;
//! use banco_xiangqi::Xiangqi;
//! let game = Xiangqi::start();
//! assert!(game.parse_move("h2e2").is_ok());
//! assert!(game.parse_move("h2h8").is_err()); // the cannon cannot pass the one on h7
//! assert_eq!(Xiangqi::OPENINGS.len(), 10);
//! assert_eq!(Xiangqi::RULE_NAMES, ["asian", "casual"]);
//! ```

use super::{XiangqiNode, XiangqiParams};
use crate::engine_game::EngineGame;
use crate::error::{EngineError, TuneError};
use banco_xiangqi::{Iccs, Move, RuleSet, Xiangqi};

/// The bench positions (FEN): openings, middle games, end games and mate puzzles.
pub const BENCH_POSITIONS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
    "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3",
    "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
    "rnbakabnr/9/1c2c4/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/2P6/P3P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4NC1/9/RNBAKAB1R b - - 1 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2B2C1/9/RN1AKABNR b - - 1 1",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 6 4",
    "1rbakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/1RBAKAB1R w - - 8 5",
    "4C4/4a4/b2ank2b/9/9/1RNR1crC1/3r1p3/3cKA3/4A4/4n4 w - - 0 1",
    "9/4a4/3k1a3/2R3r2/1N5n1/C7c/1N5n1/2R3r2/3p1p3/4K4 w - - 0 1",
    "9/9/4Nk3/3c2p2/3r2P2/3p2B2/3p2r2/4KC3/9/9 w - - 0 1",
    "9/9/3a1k3/9/1N5N1/4R4/1n5r1/9/3K1p3/9 w - - 0 1",
    "1nb1ka3/4a4/4c4/2p1C4/9/3Rcr3/P8/n3C4/4Apr2/4KA3 w - - 0 1",
    "1PP1kab2/1R2a4/4b3R/4C4/1C7/r8/9/2n6/3p1r3/4K4 w - - 0 1",
    "3aka3/3P5/7R1/4r2C1/6C2/6R2/9/3p1n3/4p4/3K5 w - - 0 1",
    "4k1b2/4CP3/4b4/4p4/4P4/9/4n4/3KB4/4r4/4n1rC1 w - - 0 1",
    "3a1k3/1C7/3a1P3/4N4/9/3n2C2/9/9/1rp1p4/3K5 w - - 0 1",
    "4kar2/4a2nn/4bc3/RN1r5/2bC5/9/4p4/9/4p4/3p1K3 w - - 0 1",
    "9/3R5/2C1k4/9/1N2P4/9/9/5n3/1r2p4/3K5 w - - 0 1",
    "9/5k3/3R5/9/2N6/9/6N2/9/1pp1p1c2/CrBK5 w - - 0 1",
    "3akab2/1C6c/N3b4/9/1N7/9/9/C8/n4p3/rc2K1p2 w - - 0 1",
    "4kab2/1N1Pa4/4b4/3N2p2/6Pn1/9/2P6/2n6/2p1Ap3/3AK2p1 w - - 0 1",
    "2ba1kbRC/2N1a4/9/4p4/4c1p2/9/9/1p2B1r2/4r1n2/3K2B2 w - - 0 1",
    "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1",
    "4k4/4a4/4b4/9/9/9/9/4B4/4A4/3RK4 w - - 0 1",
    "3ak4/4a4/4b4/p8/9/9/P8/4B4/4A4/2C1K4 w - - 0 1",
    "4k4/9/9/9/4p4/9/9/4B4/4A4/3NK4 w - - 0 1",
    "2bak4/4a4/4b4/9/2p6/9/2P6/4B4/4A4/1R2KA3 b - - 0 1",
    "r2akab2/9/2n1b1n2/p3p3p/2p3p2/9/P1P1P1P1P/2N1B1N2/4A4/R2AK1B2 w - - 0 8",
    "2bakab2/9/2n1c1n2/p1p1p1p1p/9/9/P1P1P1P1P/2N1C1N2/9/2BAKAB2 w - - 0 10",
];

/// Balanced openings (coordinate moves from the start position), each played twice.
pub const OPENINGS: &[(&str, &str)] = &[
    ("central cannon vs screen horses", "h2e2 h9g7 h0g2 b9c7"),
    ("same-direction cannons", "h2e2 h7e7 h0g2 h9g7"),
    ("opposite-direction cannons", "h2e2 b7e7 h0g2 b9c7"),
    ("elephant opening", "c0e2 h7e7 h0g2 h9g7"),
    ("pawn opening", "c3c4 g6g5 b0c2 h9g7"),
    ("horse opening", "h0g2 c6c5 c3c4 b9c7"),
    ("cross-palace cannon", "b2f2 h9g7 h0g2 b9c7"),
    ("central cannon vs turtle", "h2e2 h9g7 h0g2 g6g5"),
    ("left central cannon", "b2e2 b9c7 b0c2 h9g7"),
    ("edge cannon", "h2i2 h9g7 h0g2 b9c7"),
];

fn scale(v: i32, pct: i32) -> i32 {
    v * pct / 100
}

impl EngineGame for Xiangqi {
    type Node = XiangqiNode;

    const NAME: &'static str = "xiangqi";
    const BENCH_POSITIONS: &'static [&'static str] = BENCH_POSITIONS;
    const BENCH_DEPTH: u32 = 9;
    const OPENINGS: &'static [(&'static str, &'static str)] = OPENINGS;
    const RULE_NAMES: &'static [&'static str] = &["asian", "casual"];
    const RANKS_FROM_ZERO: bool = true;

    fn start() -> Xiangqi {
        Xiangqi::new()
    }

    fn from_fen(fen: &str) -> Result<Xiangqi, EngineError> {
        Xiangqi::from_fen(fen).map_err(|e| EngineError::BadPosition(e.to_string()))
    }

    fn parse_move(&self, text: &str) -> Result<Move, EngineError> {
        text.parse::<Iccs>()
            .map_err(|e| EngineError::BadMove(e.to_string()))?
            .to_move(self.position())
            .map_err(|e| EngineError::BadMove(e.to_string()))
    }

    fn move_text(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn rules_named(name: &str) -> Option<RuleSet> {
        RuleSet::from_name(name)
    }

    /// Material only, with the seed apps' values.
    fn plain_params() -> XiangqiParams {
        XiangqiParams::material_only()
    }

    /// `eval=material|default|tuned|hand|prev` (`default` and `tuned` are the tuned
    /// weights, `hand` the hand-set ones the tuner first started from, `prev` those of the
    /// previous tuning round), and the positional terms in percent of their defaults:
    /// `pst`, `mobility`, `safety`, `cannon`, `pawns`.
    fn tune(p: &mut XiangqiParams, key: &str, value: &str) -> Result<(), TuneError> {
        let pct = || TuneError::number(key, value);
        match key {
            "eval" => {
                *p = match value {
                    "material" => XiangqiParams::material_only(),
                    "default" | "tuned" => XiangqiParams::default(),
                    "hand" => XiangqiParams::hand(),
                    "prev" => XiangqiParams::previous(),
                    _ => return Err(TuneError::unknown_value(key, value)),
                }
            }
            "pst" => p.pst_scale = pct()?,
            "mobility" => {
                let pct = pct()?;
                p.rook_mobility = (scale(p.rook_mobility.0, pct), scale(p.rook_mobility.1, pct));
                p.horse_mobility = p.horse_mobility.map(|v| scale(v, pct));
            }
            "safety" => {
                let pct = pct()?;
                p.missing_advisor = (
                    scale(p.missing_advisor.0, pct),
                    scale(p.missing_advisor.1, pct),
                );
                p.missing_elephant = (
                    scale(p.missing_elephant.0, pct),
                    scale(p.missing_elephant.1, pct),
                );
                p.attack = scale(p.attack, pct);
            }
            "cannon" => {
                let pct = pct()?;
                p.cannon_file = p.cannon_file.map(|v| scale(v, pct));
                p.cannon_file_eg = p.cannon_file_eg.map(|v| scale(v, pct));
            }
            "pawns" => {
                let pct = pct()?;
                p.connected_pawns = scale(p.connected_pawns, pct);
            }
            _ => return Err(TuneError::UnknownOption(key.to_owned())),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuning_options() {
        let mut p = XiangqiParams::default();
        Xiangqi::tune(&mut p, "pst", "50").unwrap();
        assert_eq!(p.pst_scale, 50);
        Xiangqi::tune(&mut p, "eval", "hand").unwrap();
        assert_eq!(p, XiangqiParams::hand());
        Xiangqi::tune(&mut p, "eval", "prev").unwrap();
        assert_eq!(p, XiangqiParams::previous());
        Xiangqi::tune(&mut p, "eval", "material").unwrap();
        assert!(p.material_only);
        assert!(Xiangqi::tune(&mut p, "bogus", "1").is_err());
        assert!(Xiangqi::tune(&mut p, "safety", "x").is_err());
    }
}
