//! Moves from what people and UIs give: two squares and maybe a promotion piece
//! ([`Chess::move_from_squares`], [`Chess::targets_from`], [`Chess::needs_promotion`]), or
//! text in UCI or SAN ([`Chess::parse_move`]), and the text of a move ([`Chess::uci`],
//! [`Chess::san`]).
//!
//! Castling may be given either way: the king's two-square step (`e1`→`g1`) or the king
//! taking its own rook (`e1`→`h1`); both give the canonical king-takes-rook move (see
//! [`ChessMove`]). In Chess960 the two-square form is read as castling only when it is not
//! a plain king move; the king-takes-rook form is never ambiguous.
//!
//! ```
//! use banco_chess::{Chess, ChessMove, square};
//! let game = Chess::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1")?;
//! let e1 = square::parse("e1").unwrap();
//! let g1 = square::parse("g1").unwrap();
//! let h1 = square::parse("h1").unwrap();
//! let castle = game.move_from_squares(e1, g1, None)?;
//! assert_eq!(castle, ChessMove::new(e1, h1, None));
//! assert_eq!(game.move_from_squares(e1, h1, None)?, castle);
//! assert_eq!(game.uci(castle), "e1g1");
//! assert_eq!(game.san(castle), "O-O");
//! // A UI highlights g1 for the castling king (in Chess960 it would be the rook's square).
//! assert!(game.targets_from(e1).contains(&g1));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::error::IllegalMove;
use crate::game::Chess;
use crate::moves::ChessMove;
use crate::role::{Promotion, Role, color_from_cozy};
use crate::san::{ParseSanError, San};
use crate::square;
use crate::uci::Uci;
use banco_game::{Game, MoveList};
use cozy_chess::{
    BitBoard, File, Piece, Rank, Square, get_bishop_moves, get_king_moves, get_knight_moves,
    get_pawn_attacks, get_pawn_quiets, get_rook_moves,
};

/// Text that is not a move here: unreadable in every notation tried, or readable but not
/// legal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    /// Neither UCI nor SAN (the SAN error says why, as SAN is the more forgiving).
    #[error("{0}")]
    Unreadable(ParseSanError),
    /// Readable, but no legal move matches.
    #[error("{0}")]
    Illegal(IllegalMove),
}

impl Chess {
    /// The square a castling king lands on: g- or c-file of its first rank.
    fn castle_king_square(&self, mv: ChessMove) -> Option<u8> {
        if !self.is_castling(mv) {
            return None;
        }
        let file = if mv.to() > mv.from() { 6 } else { 2 };
        square::at(file, square::rank(mv.from()))
    }

    /// The canonical form of `mv`: castling given as the king's two-square step becomes king
    /// takes rook (when that castling is legal and the step is not a plain king move);
    /// everything else is returned as it is.
    #[must_use]
    pub fn normalize_castling(&self, mv: ChessMove) -> ChessMove {
        let board = self.board();
        let side = board.side_to_move();
        let back = Rank::First.relative_to(side);
        let to = square::to_cozy(mv.to());
        if mv.promotion().is_some()
            || board.king(side) != square::to_cozy(mv.from())
            || to.rank() != back
            || board.is_legal(mv.to_cozy())
        {
            return mv;
        }
        let rights = board.castle_rights(side);
        for (rook, king_file) in [(rights.short, File::G), (rights.long, File::C)] {
            if let Some(rook) = rook.filter(|_| to.file() == king_file) {
                let castle =
                    ChessMove::new(mv.from(), square::from_cozy(Square::new(rook, back)), None);
                if board.is_legal(castle.to_cozy()) {
                    return castle;
                }
            }
        }
        mv
    }

    /// True if a pawn on `from` may move to `to` here only by promoting (the UI then asks
    /// which piece).
    #[must_use]
    pub fn needs_promotion(&self, from: u8, to: u8) -> bool {
        from < 64 && to < 64 && self.is_legal(ChessMove::new(from, to, Some(Promotion::Queen)))
    }

    /// The squares a UI should highlight for the piece on `from`, sorted: each legal
    /// destination once (promotions once per square); a castling king's landing square
    /// (g1, c1, …) in standard chess and the castling rook's square in Chess960.
    #[must_use]
    pub fn targets_from(&self, from: u8) -> Vec<u8> {
        let mut out = Vec::new();
        if from >= 64 {
            return out;
        }
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        for &mv in moves.iter().filter(|m| m.from() == from) {
            let to = match self.castle_king_square(mv) {
                Some(king_to) if !self.is_chess960() => king_to,
                _ => mv.to(),
            };
            out.push(to);
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The legal move from `from` to `to` with the given promotion piece, for UIs and
    /// bindings: castling may be given as the king's two-square step or as king takes rook.
    /// The error says when a promotion piece is missing or not wanted, and otherwise why
    /// the move is not legal.
    pub fn move_from_squares(
        &self,
        from: u8,
        to: u8,
        promotion: Option<Promotion>,
    ) -> Result<ChessMove, IllegalMove> {
        let given = ChessMove::new(from, to, promotion);
        let text = given.to_string();
        if from >= 64 || to >= 64 {
            return Err(IllegalMove::NoSuchMove {
                text: format!("{from}-{to}"),
                reason: "squares are numbered 0 to 63".to_owned(),
            });
        }
        let mv = self.normalize_castling(given);
        if self.is_legal(mv) {
            return Ok(mv);
        }
        match promotion {
            None if self.needs_promotion(from, to) => {
                return Err(IllegalMove::PromotionNeeded { text });
            }
            Some(_) if self.is_legal(self.normalize_castling(ChessMove::new(from, to, None))) => {
                return Err(IllegalMove::NotAPromotion { text });
            }
            _ => {}
        }
        Err(IllegalMove::NoSuchMove {
            reason: self.why_illegal(from, to),
            text,
        })
    }

    /// Words for why no legal move goes from `from` to `to`.
    pub(crate) fn why_illegal(&self, from: u8, to: u8) -> String {
        let board = self.board();
        let (f, t) = (square::to_cozy(from), square::to_cozy(to));
        let side = board.side_to_move();
        let Some((color, role)) = self.piece_at(from) else {
            return format!("there is no piece on {f}");
        };
        if color != color_from_cozy(side) {
            return format!(
                "the {} on {f} is not yours: {} is to move",
                role.name(),
                crate::fen::side_name(color_from_cozy(side))
            );
        }
        if from == to {
            return "a move must leave its square".to_owned();
        }
        let occupied = board.occupied();
        let own = board.colors(side);
        let castle_like = role == Role::King
            && f.rank() == Rank::First.relative_to(side)
            && t.rank() == f.rank()
            && (own.has(t) || (f.file() as i8 - t.file() as i8).abs() == 2);
        if castle_like {
            return "castling is not possible now (the right is lost, a square between is \
                    occupied or attacked, or the king is in check)"
                .to_owned();
        }
        if own.has(t) {
            return format!("your own {} stands on {t}", self.piece_name(to));
        }
        let reach: BitBoard = match board.piece_on(f) {
            Some(Piece::Knight) => get_knight_moves(f),
            Some(Piece::Bishop) => get_bishop_moves(f, occupied),
            Some(Piece::Rook) => get_rook_moves(f, occupied),
            Some(Piece::Queen) => get_bishop_moves(f, occupied) | get_rook_moves(f, occupied),
            Some(Piece::King) => get_king_moves(f),
            Some(Piece::Pawn) => {
                let ep = board.en_passant().map_or(BitBoard::EMPTY, |file| {
                    Square::new(file, Rank::Sixth.relative_to(side)).bitboard()
                });
                get_pawn_quiets(f, side, occupied)
                    | (get_pawn_attacks(f, side) & (board.colors(!side) | ep))
            }
            None => BitBoard::EMPTY,
        };
        if !reach.has(t) {
            return format!("a {} cannot go from {f} to {t}", role.name());
        }
        if self.in_check() {
            "your king is in check and this move does not end it".to_owned()
        } else {
            "it would leave your king in check".to_owned()
        }
    }

    fn piece_name(&self, sq: u8) -> &'static str {
        self.piece_at(sq).map_or("piece", |(_, r)| r.name())
    }

    /// The move in UCI: `e2e4`, `e7e8q`; castling `e1g1` in standard chess and king takes
    /// rook (`e1h1`) in Chess960.
    #[must_use]
    pub fn uci(&self, mv: ChessMove) -> String {
        Uci::from_move(self, mv).to_string()
    }

    /// The move in SAN with its check or mate suffix: `Nf3`, `exd5`, `e8=Q+`, `O-O#`.
    #[must_use]
    pub fn san(&self, mv: ChessMove) -> String {
        crate::san::SanPlus::from_move(self, mv).to_string()
    }

    /// A move from text in UCI (`e2e4`, `e1g1`, `e1h1`) or SAN (`Nf3`, `exd5`, `O-O`, and
    /// the variants people type, see [`crate::san`]).
    pub fn parse_move(&self, text: &str) -> Result<ChessMove, MoveTextError> {
        let san = text.parse::<San>();
        if let Ok(uci) = text.parse::<Uci>() {
            // `B1c3` reads as coordinates too. An upper-case `B` names a bishop (UCI writes
            // squares in lower case, and it is how `san` writes a bishop move told apart
            // by its rank, `B5b6`): the SAN reading wins when it is legal. Otherwise the
            // coordinates win, and the SAN reading only when it alone is legal.
            let san_move = || san.as_ref().ok().and_then(|s| s.to_move(self).ok());
            if text.trim_start().starts_with('B')
                && let Some(mv) = san_move()
            {
                return Ok(mv);
            }
            return uci
                .to_move(self)
                .or_else(|e| san_move().ok_or(MoveTextError::Illegal(e)));
        }
        san.map_err(MoveTextError::Unreadable)?
            .to_move(self)
            .map_err(MoveTextError::Illegal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> u8 {
        square::parse(name).unwrap()
    }

    #[test]
    fn reasons() {
        let g = Chess::new();
        let why = |from: &str, to: &str| {
            g.move_from_squares(sq(from), sq(to), None)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            why("e3", "e4"),
            "e3e4 is not a legal move here: there is no piece on e3"
        );
        assert_eq!(
            why("e7", "e5"),
            "e7e5 is not a legal move here: the pawn on e7 is not yours: white is to move"
        );
        assert_eq!(
            why("g1", "g3"),
            "g1g3 is not a legal move here: a knight cannot go from g1 to g3"
        );
        assert_eq!(
            why("a1", "a2"),
            "a1a2 is not a legal move here: your own pawn stands on a2"
        );
        assert_eq!(
            why("e1", "g1"),
            "e1g1 is not a legal move here: castling is not possible now (the right is lost, \
             a square between is occupied or attacked, or the king is in check)"
        );
        let pinned = Chess::from_fen("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1").unwrap();
        assert_eq!(
            pinned
                .move_from_squares(sq("e2"), sq("c3"), None)
                .unwrap_err()
                .to_string(),
            "e2c3 is not a legal move here: it would leave your king in check"
        );
        assert!(matches!(
            g.move_from_squares(sq("e2"), sq("e4"), Some(Promotion::Queen)),
            Err(IllegalMove::NotAPromotion { .. })
        ));
        assert!(g.move_from_squares(64, 0, None).is_err());
    }

    #[test]
    fn san_that_also_reads_as_coordinates() {
        // `B1c3` is SAN for the bishop on rank 1 and coordinates for b1-c3.
        let g = Chess::from_fen("4k3/8/8/8/8/8/8/B3K3 w - - 0 1").unwrap();
        assert_eq!(
            g.parse_move("B1c3"),
            Ok(ChessMove::new(sq("a1"), sq("c3"), None))
        );
        assert!(matches!(
            g.parse_move("b1c3"),
            Err(MoveTextError::Illegal(IllegalMove::NoSuchMove { .. }))
        ));
    }

    #[test]
    fn a_bishop_told_apart_by_its_rank_is_not_read_as_a_pawn_push() {
        // Found by the property tests with 20,000 cases: bishops on c5 and c7 both reach
        // b6, so `san` writes `B5b6`, which also reads as coordinates b5-b6, a legal pawn
        // push here. The upper-case B is the bishop; the lower-case text is the pawn.
        let g = Chess::from_fen("3nk2r/1pB2ppp/2pp3N/bPBPP3/B1P3nN/2qb4/P5PP/Q1R1R1K1 w k - 5 16")
            .unwrap();
        let bishop = ChessMove::new(sq("c5"), sq("b6"), None);
        assert_eq!(g.san(bishop), "B5b6");
        assert_eq!(g.parse_move("B5b6"), Ok(bishop));
        assert_eq!(g.parse_move(" B5b6"), Ok(bishop));
        assert_eq!(
            g.parse_move("b5b6"),
            Ok(ChessMove::new(sq("b5"), sq("b6"), None))
        );
        // Upper-case coordinates that are no SAN still read as coordinates.
        assert_eq!(
            g.parse_move("A2A3"),
            Ok(ChessMove::new(sq("a2"), sq("a3"), None))
        );
    }

    #[test]
    fn promotion_and_targets() {
        let g = Chess::from_fen("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert!(g.needs_promotion(sq("a7"), sq("a8")));
        assert!(g.needs_promotion(sq("a7"), sq("b8")));
        assert!(!g.needs_promotion(sq("e1"), sq("e2")));
        assert_eq!(g.targets_from(sq("a7")), vec![sq("a8"), sq("b8")]);
        assert_eq!(
            g.move_from_squares(sq("a7"), sq("b8"), Some(Promotion::Knight)),
            Ok(ChessMove::new(sq("a7"), sq("b8"), Some(Promotion::Knight)))
        );
    }

    #[test]
    fn chess960_targets_and_plain_king_steps() {
        // King f1, rook h1: castling short lands the king on g1, where a plain step goes too.
        let g = Chess::from_fen("5k1r/8/8/8/8/8/8/5K1R w Hh - 0 1").unwrap();
        assert!(g.is_chess960());
        let targets = g.targets_from(sq("f1"));
        assert!(targets.contains(&sq("h1")), "{targets:?}");
        assert!(targets.contains(&sq("g1")));
        // f1g1 is the plain step; f1h1 castles.
        assert_eq!(
            g.move_from_squares(sq("f1"), sq("g1"), None),
            Ok(ChessMove::new(sq("f1"), sq("g1"), None))
        );
        let castle = g.move_from_squares(sq("f1"), sq("h1"), None).unwrap();
        assert!(g.is_castling(castle));
        assert_eq!(g.uci(castle), "f1h1");
        assert_eq!(g.san(castle), "O-O+"); // the rook lands on f1, facing the king on f8
    }
}
