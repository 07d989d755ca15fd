//! Chess as an [`EngineGame`]: its bench positions, balanced openings, UCI moves (`e2e4`,
//! `e7e8q`, castling `e1g1` — the king's two-square step, as chess GUIs expect; SAN is
//! accepted on input too), rule sets and the weights of tuning matches.
//!
//! ```
//! use banco_engine::EngineGame;
//! use banco_chess::Chess;
//! let game = <Chess as EngineGame>::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
//! let castle = EngineGame::parse_move(&game, "e1g1").unwrap();
//! assert_eq!(game.move_text(castle), "e1g1");
//! assert!(EngineGame::parse_move(&game, "e1e3").is_err());
//! assert_eq!(Chess::RULE_NAMES, ["standard", "auto-claim"]);
//! ```

use super::{ChessNode, ChessParams};
use crate::engine_game::EngineGame;
use crate::error::{EngineError, TuneError};
use banco_chess::{Chess, ChessMove, ChessRules};

/// The bench positions (FEN): openings, middle games rich in tactics, end games and mates
/// (several are well-known public test positions: the perft suite's, Bratko–Kopec's, Win
/// at Chess's).
pub const BENCH_POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6",
    "rnbqkb1r/ppp2ppp/4pn2/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 2 4",
    "rnbq1rk1/ppp1ppbp/3p1np1/8/2PPP3/2N2N2/PP3PPP/R1BQKB1R w KQ - 0 6",
    "rnbqk1nr/ppp2ppp/4p3/3p4/1b1PP3/2N5/PPP2PPP/R1BQKBNR w KQkq - 2 4",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
    "r1bq1rk1/ppp2ppp/2n2n2/2bpp3/4P3/2PP1N2/PPBN1PPP/R1BQ1RK1 w - - 0 8",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
    "rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - 0 1",
    "1nk1r1r1/pp2n1pp/4p3/q2pPp1N/b1pP1P2/B1P2R2/2P1B1PP/R2Q2K1 w - - 0 1",
    "4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - - 0 1",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
    "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PP1/R3K2R w KQ - 0 1",
    "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1",
    "8/5pk1/6p1/8/3R4/6P1/r4PK1/8 w - - 0 40",
    "8/8/1p2k3/p1p5/P1P2K2/1P6/8/8 w - - 0 50",
    "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1",
    "8/8/8/2k5/8/8/2r5/K2Q4 w - - 0 1",
    "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10",
    "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1",
    "8/8/8/4k3/8/8/8/4K2Q w - - 0 1",
    "8/8/4k3/8/8/3RK3/8/8 w - - 98 120",
];

/// Balanced openings (UCI moves from the start position), each played with both colours.
pub const OPENINGS: &[(&str, &str)] = &[
    ("Italian", "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5"),
    ("Ruy Lopez", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6"),
    ("Scotch", "e2e4 e7e5 g1f3 b8c6 d2d4 e5d4 f3d4"),
    ("Petrov", "e2e4 e7e5 g1f3 g8f6"),
    ("Four Knights", "e2e4 e7e5 g1f3 b8c6 b1c3 g8f6"),
    ("Vienna", "e2e4 e7e5 b1c3 g8f6"),
    (
        "Sicilian Najdorf",
        "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6",
    ),
    (
        "Sicilian Classical",
        "e2e4 c7c5 g1f3 b8c6 d2d4 c5d4 f3d4 g8f6",
    ),
    ("Sicilian Alapin", "e2e4 c7c5 c2c3 g8f6"),
    ("French Classical", "e2e4 e7e6 d2d4 d7d5 b1c3 g8f6"),
    ("French Advance", "e2e4 e7e6 d2d4 d7d5 e4e5 c7c5"),
    ("Caro-Kann", "e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4 c8f5"),
    ("Scandinavian", "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5"),
    ("Pirc", "e2e4 d7d6 d2d4 g8f6 b1c3 g7g6"),
    ("Alekhine", "e2e4 g8f6 e4e5 f6d5 d2d4 d7d6"),
    ("Queen's Gambit Declined", "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6"),
    ("Queen's Gambit Accepted", "d2d4 d7d5 c2c4 d5c4 g1f3 g8f6"),
    ("Slav", "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6"),
    ("Semi-Slav", "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6 b1c3 e7e6"),
    ("King's Indian", "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6"),
    ("Nimzo-Indian", "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4"),
    ("Queen's Indian", "d2d4 g8f6 c2c4 e7e6 g1f3 b7b6"),
    ("Grunfeld", "d2d4 g8f6 c2c4 g7g6 b1c3 d7d5"),
    ("Catalan", "d2d4 g8f6 c2c4 e7e6 g2g3 d7d5 f1g2 f8e7"),
    ("Benoni", "d2d4 g8f6 c2c4 c7c5 d4d5 e7e6"),
    ("Dutch", "d2d4 f7f5 g2g3 g8f6 f1g2 e7e6"),
    ("London", "d2d4 d7d5 c1f4 g8f6 e2e3 e7e6"),
    ("Torre", "d2d4 g8f6 g1f3 e7e6 c1g5 c7c5"),
    ("English", "c2c4 e7e5 b1c3 g8f6 g1f3 b8c6"),
    ("Symmetrical English", "c2c4 c7c5 g1f3 g8f6 b1c3 b8c6"),
    ("Reti", "g1f3 d7d5 c2c4 e7e6 g2g3 g8f6"),
    ("Bird", "f2f4 d7d5 g1f3 g8f6 e2e3 g7g6"),
];

fn scale(v: i32, pct: i32) -> i32 {
    v * pct / 100
}

fn scale_pair(v: (i32, i32), pct: i32) -> (i32, i32) {
    (scale(v.0, pct), scale(v.1, pct))
}

impl EngineGame for Chess {
    type Node = ChessNode;

    const NAME: &'static str = "chess";
    const BENCH_POSITIONS: &'static [&'static str] = BENCH_POSITIONS;
    const BENCH_DEPTH: u32 = 11;
    const OPENINGS: &'static [(&'static str, &'static str)] = OPENINGS;
    const RULE_NAMES: &'static [&'static str] = &["standard", "auto-claim"];

    fn start() -> Chess {
        Chess::new()
    }

    fn from_fen(fen: &str) -> Result<Chess, EngineError> {
        Chess::from_fen(fen).map_err(|e| EngineError::BadPosition(e.to_string()))
    }

    /// UCI (`e2e4`, `e7e8q`, castling `e1g1` or `e1h1`); SAN (`Nf3`) is read too.
    fn parse_move(&self, text: &str) -> Result<ChessMove, EngineError> {
        Chess::parse_move(self, text).map_err(|e| EngineError::BadMove(e.to_string()))
    }

    fn move_text(&self, mv: ChessMove) -> String {
        self.uci(mv)
    }

    /// Chess960 notation from now on (turning it off is ignored where the position needs it).
    fn set_chess960(&mut self, on: bool) {
        Chess::set_chess960(self, on);
    }

    /// `standard` (draws by the 50-move rule and threefold repetition are claimed by the
    /// players) or `auto-claim` (they end the game at once, as in engine matches).
    fn rules_named(name: &str) -> Option<ChessRules> {
        match name.to_ascii_lowercase().as_str() {
            "standard" | "fide" => Some(ChessRules::STANDARD),
            "auto-claim" | "autoclaim" => Some(ChessRules::AUTO_CLAIM),
            _ => None,
        }
    }

    /// Material and centre (the seed program's evaluation).
    fn plain_params() -> ChessParams {
        ChessParams::plain()
    }

    /// `eval=plain|default`, and terms in percent of their defaults: `pst`, `mobility`,
    /// `pawns` (passed, isolated, doubled, defended, phalanx), `passed`, `king` (shield and
    /// attack), `shield`, `attack`, `threats`, `rooks` (open files), `pair` (bishop pair),
    /// `tempo`.
    fn tune(p: &mut ChessParams, key: &str, value: &str) -> Result<(), TuneError> {
        let pct = || TuneError::number(key, value);
        match key {
            "eval" => {
                *p = match value {
                    "plain" | "material" => ChessParams::plain(),
                    "default" => ChessParams::default(),
                    _ => return Err(TuneError::unknown_value(key, value)),
                }
            }
            "pst" => p.pst_scale = pct()?,
            "mobility" => {
                let pct = pct()?;
                p.mobility = p.mobility.map(|m| scale_pair(m, pct));
            }
            "pawns" => {
                let pct = pct()?;
                p.passed = p.passed.map(|m| scale_pair(m, pct));
                p.isolated = scale_pair(p.isolated, pct);
                p.doubled = scale_pair(p.doubled, pct);
                p.defended_pawn = scale_pair(p.defended_pawn, pct);
                p.phalanx = scale_pair(p.phalanx, pct);
            }
            "passed" => {
                let pct = pct()?;
                p.passed = p.passed.map(|m| scale_pair(m, pct));
                p.passed_king = scale(p.passed_king, pct);
            }
            "king" => {
                let pct = pct()?;
                p.shield = p.shield.map(|v| scale(v, pct));
                p.king_attack = scale(p.king_attack, pct);
            }
            "shield" => {
                let pct = pct()?;
                p.shield = p.shield.map(|v| scale(v, pct));
            }
            "attack" => p.king_attack = scale(p.king_attack, pct()?),
            "threats" => {
                let pct = pct()?;
                p.pawn_threat = scale_pair(p.pawn_threat, pct);
                p.hanging = scale_pair(p.hanging, pct);
            }
            "rooks" => {
                let pct = pct()?;
                p.rook_open = scale_pair(p.rook_open, pct);
                p.rook_half_open = scale_pair(p.rook_half_open, pct);
            }
            "pair" => p.bishop_pair = scale_pair(p.bishop_pair, pct()?),
            "tempo" => p.tempo = scale(p.tempo, pct()?),
            _ => return Err(TuneError::UnknownOption(key.to_owned())),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_chess960_writes_castling_as_the_king_taking_its_rook() {
        let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
        let mut game = <Chess as EngineGame>::from_fen(fen).unwrap();
        let castle = EngineGame::parse_move(&game, "e1g1").unwrap();
        assert_eq!(game.move_text(castle), "e1g1");
        EngineGame::set_chess960(&mut game, true);
        assert_eq!(game.move_text(castle), "e1h1");
        assert_eq!(EngineGame::parse_move(&game, "e1h1").unwrap(), castle);
        EngineGame::set_chess960(&mut game, false);
        assert_eq!(game.move_text(castle), "e1g1");
        // A position that needs Chess960 keeps it (king on b1, rooks on a1 and c1).
        let mut c960 = <Chess as EngineGame>::from_fen("7k/8/8/8/8/8/8/RKR5 w CA - 0 1").unwrap();
        EngineGame::set_chess960(&mut c960, false);
        assert!(c960.is_chess960());
    }

    #[test]
    fn tuning_options() {
        let mut p = ChessParams::default();
        Chess::tune(&mut p, "pst", "50").unwrap();
        assert_eq!(p.pst_scale, 50);
        Chess::tune(&mut p, "king", "0").unwrap();
        assert_eq!(p.king_attack, 0);
        Chess::tune(&mut p, "eval", "plain").unwrap();
        assert!(p.plain);
        assert!(Chess::tune(&mut p, "bogus", "1").is_err());
        assert!(Chess::tune(&mut p, "mobility", "x").is_err());
        assert_eq!(
            Chess::rules_named("Auto-Claim"),
            Some(ChessRules::AUTO_CLAIM)
        );
        assert_eq!(Chess::rules_named("asian"), None);
    }
}
