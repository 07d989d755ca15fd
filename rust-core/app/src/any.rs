//! [`AnyGame`]: the one dispatch over the board games. Everything above the rules — the
//! computer opponent, the board model, saves, networked matches, the command line and the
//! bindings — holds an `AnyGame` and never a game type of its own, so a new game is one
//! more arm here (and its rules crate and engine module), not another copy of the
//! xiangqi path.
//!
//! `AnyGame` implements [`banco_game::Game`] and [`banco_game::MatchGame`], so a network
//! session (`Session<AnyGame>`) plays any game a proposal names. Moves are [`AnyMove`]s;
//! front ends see them as square indices plus an optional promotion
//! ([`AnyGame::move_parts`], [`AnyGame::move_from_parts`]). A square index is
//! `rank × width + file`, rank 0 on the first player's side.
//!
//! ```
//! use banco_app::any::AnyGame;
//! use banco_game::{Game, GameKind};
//! let mut game = AnyGame::new(GameKind::Xiangqi)?;
//! assert_eq!((game.width(), game.height()), (9, 10));
//! let mv = game.move_from_parts(7 + 2 * 9, 4 + 2 * 9, None)?; // h2e2
//! game.play(mv)?;
//! assert_eq!(game.ply(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::error::MoveError;
use crate::pieces::{PieceInfo, PieceKind};
use banco_chess::{self as c, Chess, ChessMove, ChessRules};
use banco_game::{
    ChanceList, Color, DrawReason, Game, GameKind, MatchGame, MoveList, Outcome, SetupError,
};
use banco_xiangqi::jieqi::{self as j, Jieqi, JieqiMove};
use banco_xiangqi::{self as x, RuleSet, Xiangqi};
use core::fmt;

/// A game of any kind Banco plays on a board.
// Games are not moved around in hot loops (searches use each game's own type), so the size
// of the largest arm costs nothing that a box would save.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// Xiangqi.
    Xiangqi(Xiangqi),
    /// Chess.
    Chess(Chess),
    /// Jieqi (xiangqi with face-down pieces; a reveal is a chance step).
    Jieqi(Jieqi),
}

/// A move of an [`AnyGame`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyMove {
    /// A xiangqi move.
    Xiangqi(x::Move),
    /// A chess move (castling as the king taking its rook).
    Chess(ChessMove),
    /// A jieqi step, or the identity drawn for the face-down piece that just moved.
    Jieqi(JieqiMove),
}

impl Default for AnyMove {
    fn default() -> Self {
        AnyMove::Xiangqi(x::Move::default())
    }
}

banco_game::list_capacity!(AnyMove, 256);

impl fmt::Display for AnyMove {
    /// Coordinates (`h2e2`, `e7e8q`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyMove::Xiangqi(m) => write!(f, "{m}"),
            AnyMove::Chess(m) => write!(f, "{m}"),
            AnyMove::Jieqi(m) => write!(f, "{m}"),
        }
    }
}

/// The rules of an [`AnyGame`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyRules {
    /// Xiangqi rules (repetition judge, no-capture limit).
    Xiangqi(RuleSet),
    /// Chess rules (whether claimable draws end the game at once).
    Chess(ChessRules),
    /// Jieqi rules (xiangqi's rule sets and repetition judge, see `banco_xiangqi::jieqi::chase`).
    Jieqi(RuleSet),
}

impl Default for AnyRules {
    fn default() -> Self {
        AnyRules::Xiangqi(RuleSet::default())
    }
}

impl AnyRules {
    /// The usual rules of `kind` (wire index 0).
    #[must_use]
    pub fn usual(kind: GameKind) -> AnyRules {
        <AnyGame as MatchGame>::rules(kind, 0).unwrap_or_default()
    }

    /// The game these rules belong to.
    #[must_use]
    pub fn kind(&self) -> GameKind {
        match self {
            AnyRules::Xiangqi(_) => GameKind::Xiangqi,
            AnyRules::Chess(_) => GameKind::Chess,
            AnyRules::Jieqi(_) => GameKind::Jieqi,
        }
    }

    /// The wire index of these rules among the match rule sets of their game, if listed.
    #[must_use]
    pub fn index(&self) -> Option<u8> {
        match self {
            AnyRules::Xiangqi(r) | AnyRules::Jieqi(r) => {
                x::MATCH_RULES.iter().position(|m| m == r).map(|i| i as u8)
            }
            AnyRules::Chess(r) => c::MATCH_RULES.iter().position(|m| m == r).map(|i| i as u8),
        }
    }

    /// Xiangqi (or jieqi) rules (the usual ones for rules of another game).
    pub(crate) fn xiangqi(&self) -> RuleSet {
        match self {
            AnyRules::Xiangqi(r) | AnyRules::Jieqi(r) => *r,
            AnyRules::Chess(_) => RuleSet::default(),
        }
    }

    /// Chess rules (the usual ones for rules of another game).
    pub(crate) fn chess(&self) -> ChessRules {
        match self {
            AnyRules::Chess(r) => *r,
            AnyRules::Xiangqi(_) | AnyRules::Jieqi(_) => ChessRules::default(),
        }
    }
}

/// What [`AnyGame::make_unchecked`](Game::make_unchecked) returns.
#[derive(Clone, Copy, Debug)]
pub enum AnyUndo {
    /// Of a xiangqi move.
    Xiangqi(x::XiangqiUndo),
    /// Of a chess move.
    Chess(c::ChessUndo),
    /// Of a jieqi step or reveal.
    Jieqi(j::JieqiGameUndo),
    /// The move was of another game: nothing was played.
    Nothing,
}

/// Why [`AnyGame::play`](Game::play) refused a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnyPlayError {
    /// A xiangqi move that is not legal, or the game is over.
    #[error(transparent)]
    Xiangqi(#[from] x::PlayError),
    /// A chess move that is not legal.
    #[error(transparent)]
    Chess(#[from] c::PlayError),
    /// A jieqi step that is not legal, or a reveal that is not possible.
    #[error(transparent)]
    Jieqi(#[from] j::JieqiPlayError),
    /// A move of another game.
    #[error("that is a move of another game")]
    WrongGame,
}

impl AnyGame {
    /// A game of `kind` from its start position.
    pub fn new(kind: GameKind) -> Result<AnyGame, SetupError> {
        <AnyGame as MatchGame>::setup(kind, None)
    }

    /// A game of `kind` from a FEN.
    pub fn from_fen(kind: GameKind, fen: &str) -> Result<AnyGame, SetupError> {
        <AnyGame as MatchGame>::setup(kind, Some(fen))
    }

    /// Board width in files.
    #[must_use]
    pub fn width(&self) -> u8 {
        match self {
            AnyGame::Xiangqi(_) | AnyGame::Jieqi(_) => 9,
            AnyGame::Chess(_) => 8,
        }
    }

    /// Board height in ranks.
    #[must_use]
    pub fn height(&self) -> u8 {
        match self {
            AnyGame::Xiangqi(_) | AnyGame::Jieqi(_) => 10,
            AnyGame::Chess(_) => 8,
        }
    }

    /// Number of squares.
    #[must_use]
    pub fn squares(&self) -> u8 {
        self.width() * self.height()
    }

    /// The name of a square (`h2`, `e4`), or `?` off the board.
    #[must_use]
    pub fn square_name(&self, index: u8) -> String {
        match self {
            AnyGame::Xiangqi(_) | AnyGame::Jieqi(_) => {
                x::Square::from_index(index).map_or_else(|| "?".to_owned(), |s| s.to_string())
            }
            AnyGame::Chess(_) if index < 64 => c::square::name(index),
            AnyGame::Chess(_) => "?".to_owned(),
        }
    }

    /// The piece on a square. A face-down jieqi piece shows its colour only
    /// ([`PieceInfo::face_down`]): nobody knows its identity before its reveal.
    #[must_use]
    pub fn piece_at(&self, index: u8) -> Option<PieceInfo> {
        match self {
            AnyGame::Xiangqi(g) => x::Square::from_index(index)
                .and_then(|s| g.position().piece_at(s))
                .map(PieceInfo::xiangqi),
            AnyGame::Chess(g) => g
                .piece_at(index)
                .map(|(color, role)| PieceInfo::chess(color, role)),
            AnyGame::Jieqi(g) => x::Square::from_index(index)
                .and_then(|s| g.position().piece_at(s))
                .map(PieceInfo::jieqi),
        }
    }

    /// How a colour is called in this game (`Red`, `White`).
    #[must_use]
    pub fn color_name(&self, color: Color) -> &'static str {
        color_name(self.kind(), color)
    }

    /// The square of the king of the side to move when it is in check.
    #[must_use]
    pub fn checked_king(&self) -> Option<u8> {
        if !self.in_check() {
            return None;
        }
        match self {
            AnyGame::Xiangqi(g) => {
                let pos = g.position();
                Some(pos.king_square(pos.side_to_move()).index())
            }
            AnyGame::Chess(g) => {
                let side = g.side_to_move();
                (0..64).find(|&sq| g.piece_at(sq) == Some((side, c::Role::King)))
            }
            AnyGame::Jieqi(g) => {
                let pos = g.position();
                Some(pos.king_square(pos.side_to_move()).index())
            }
        }
    }

    /// Every legal move, in a vector.
    #[must_use]
    pub fn legal_move_vec(&self) -> Vec<AnyMove> {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.as_slice().to_vec()
    }

    /// From, to and promotion of a move, as square indices. A jieqi reveal stands on the
    /// square of the piece it turns over (from = to): the pending one, or after the reveal
    /// the destination of the last step.
    #[must_use]
    pub fn move_parts(&self, mv: AnyMove) -> (u8, u8, Option<PieceKind>) {
        match (self, mv) {
            (_, AnyMove::Xiangqi(m) | AnyMove::Jieqi(JieqiMove::Step(m))) => {
                (m.from().index(), m.to().index(), None)
            }
            (_, AnyMove::Jieqi(JieqiMove::Reveal(_))) => {
                let sq = self.reveal_square().unwrap_or_default();
                (sq, sq, None)
            }
            (AnyGame::Chess(g), AnyMove::Chess(m)) => {
                // A castling king is shown landing on the g- or c-file in standard chess.
                let to = if g.is_castling(m) && !g.is_chess960() {
                    let file = if m.to() > m.from() { 6 } else { 2 };
                    c::square::at(file, c::square::rank(m.from())).unwrap_or(m.to())
                } else {
                    m.to()
                };
                (m.from(), to, m.promotion().map(promotion_kind))
            }
            (_, AnyMove::Chess(m)) => (m.from(), m.to(), m.promotion().map(promotion_kind)),
        }
    }

    /// The legal move from `from` to `to` (with the promotion piece, where one is needed),
    /// with a reason when there is none.
    pub fn move_from_parts(
        &self,
        from: u8,
        to: u8,
        promotion: Option<PieceKind>,
    ) -> Result<AnyMove, MoveError> {
        let name = |i| self.square_name(i);
        match self {
            AnyGame::Xiangqi(g) => {
                if promotion.is_some() {
                    return Err(MoveError::Illegal(format!(
                        "{}{}: xiangqi has no promotions",
                        name(from),
                        name(to)
                    )));
                }
                let (Some(f), Some(t)) = (x::Square::from_index(from), x::Square::from_index(to))
                else {
                    return Err(MoveError::OffBoard);
                };
                x::Iccs(x::Move::new(f, t))
                    .to_move(g.position())
                    .map(AnyMove::Xiangqi)
                    .map_err(|e| MoveError::Illegal(e.to_string()))
            }
            AnyGame::Jieqi(g) => {
                if promotion.is_some() {
                    return Err(MoveError::Illegal(format!(
                        "{}{}: jieqi has no promotions",
                        name(from),
                        name(to)
                    )));
                }
                let (Some(f), Some(t)) = (x::Square::from_index(from), x::Square::from_index(to))
                else {
                    return Err(MoveError::OffBoard);
                };
                let mv = JieqiMove::Step(x::Move::new(f, t));
                if g.is_legal(mv) {
                    Ok(AnyMove::Jieqi(mv))
                } else {
                    Err(MoveError::Illegal(format!(
                        "{mv} is not a legal move in this position"
                    )))
                }
            }
            AnyGame::Chess(g) => {
                if from >= 64 || to >= 64 {
                    return Err(MoveError::OffBoard);
                }
                let promotion = match promotion {
                    None => None,
                    Some(k) => Some(kind_promotion(k).ok_or_else(|| {
                        MoveError::Illegal(format!(
                            "{}{}: a pawn cannot become a {}",
                            name(from),
                            name(to),
                            k.name()
                        ))
                    })?),
                };
                g.move_from_squares(from, to, promotion)
                    .map(AnyMove::Chess)
                    .map_err(|e| MoveError::Illegal(e.to_string()))
            }
        }
    }

    /// The squares a piece on `from` can move to (what a board highlights).
    #[must_use]
    pub fn targets_from(&self, from: u8) -> Vec<u8> {
        if let AnyGame::Chess(g) = self {
            return g.targets_from(from);
        }
        let mut out: Vec<u8> = self
            .legal_move_vec()
            .into_iter()
            .map(|m| self.move_parts(m))
            .filter(|&(f, t, _)| f == from && t != from)
            .map(|(_, t, _)| t)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The promotion pieces to choose from for a move `from` → `to`, empty when the move
    /// needs no choice.
    #[must_use]
    pub fn promotion_choices(&self, from: u8, to: u8) -> Vec<PieceKind> {
        let mut out: Vec<PieceKind> = self
            .legal_move_vec()
            .into_iter()
            .map(|m| self.move_parts(m))
            .filter(|&(f, t, p)| f == from && t == to && p.is_some())
            .filter_map(|(_, _, p)| p)
            .collect();
        out.dedup();
        out
    }

    /// The moves played since the start position.
    #[must_use]
    pub fn history(&self) -> Vec<AnyMove> {
        match self {
            AnyGame::Xiangqi(g) => g.moves().map(AnyMove::Xiangqi).collect(),
            AnyGame::Chess(g) => g.moves().map(AnyMove::Chess).collect(),
            AnyGame::Jieqi(g) => g.moves().map(AnyMove::Jieqi).collect(),
        }
    }

    /// Takes back the last move; `None` at the start position.
    pub fn undo_move(&mut self) -> Option<AnyMove> {
        match self {
            AnyGame::Xiangqi(g) => g.undo_move().map(AnyMove::Xiangqi),
            AnyGame::Chess(g) => g.undo_move().map(AnyMove::Chess),
            AnyGame::Jieqi(g) => g.undo_move().map(AnyMove::Jieqi),
        }
    }

    /// A position from the game's start FEN with no moves played.
    #[must_use]
    pub fn restarted(&self) -> AnyGame {
        match self {
            AnyGame::Xiangqi(g) => {
                AnyGame::Xiangqi(Xiangqi::from_position(g.start_position().clone()))
            }
            AnyGame::Chess(g) => {
                AnyGame::Chess(Chess::from_fen(&g.start_fen()).unwrap_or_else(|_| {
                    Chess::from_board(g.start_board().clone(), 0, g.is_chess960())
                }))
            }
            AnyGame::Jieqi(g) => AnyGame::Jieqi(Jieqi::from_position(g.start_position().clone())),
        }
    }

    /// The xiangqi game, if this is one.
    #[must_use]
    pub fn as_xiangqi(&self) -> Option<&Xiangqi> {
        match self {
            AnyGame::Xiangqi(g) => Some(g),
            AnyGame::Chess(_) | AnyGame::Jieqi(_) => None,
        }
    }

    /// The chess game, if this is one.
    #[must_use]
    pub fn as_chess(&self) -> Option<&Chess> {
        match self {
            AnyGame::Chess(g) => Some(g),
            AnyGame::Xiangqi(_) | AnyGame::Jieqi(_) => None,
        }
    }

    /// The jieqi game, if this is one.
    #[must_use]
    pub fn as_jieqi(&self) -> Option<&Jieqi> {
        match self {
            AnyGame::Jieqi(g) => Some(g),
            AnyGame::Xiangqi(_) | AnyGame::Chess(_) => None,
        }
    }

    /// The square of the jieqi piece being (or last) turned over: the pending reveal's, or
    /// the destination of the last step when the last move was a reveal.
    fn reveal_square(&self) -> Option<u8> {
        let g = self.as_jieqi()?;
        if let Some(sq) = g.position().pending() {
            return Some(sq.index());
        }
        let n = g.moves().len();
        let mut last_two = g.moves().skip(n.saturating_sub(2));
        match (last_two.next(), last_two.next()) {
            (Some(JieqiMove::Step(m)), Some(JieqiMove::Reveal(_))) => Some(m.to().index()),
            _ => None,
        }
    }
}

/// The piece kind of a chess promotion.
#[must_use]
pub fn promotion_kind(p: c::Promotion) -> PieceKind {
    match p {
        c::Promotion::Knight => PieceKind::Knight,
        c::Promotion::Bishop => PieceKind::Bishop,
        c::Promotion::Rook => PieceKind::Rook,
        c::Promotion::Queen => PieceKind::Queen,
    }
}

/// The chess promotion to a piece kind, if a pawn may become one.
#[must_use]
pub fn kind_promotion(k: PieceKind) -> Option<c::Promotion> {
    match k {
        PieceKind::Knight => Some(c::Promotion::Knight),
        PieceKind::Bishop => Some(c::Promotion::Bishop),
        PieceKind::Rook => Some(c::Promotion::Rook),
        PieceKind::Queen => Some(c::Promotion::Queen),
        _ => None,
    }
}

/// Every problem of a FEN of `kind` as a player reads it: empty when it is a legal
/// position (a position editor shows these live). For Lines, the problem of a Lines
/// position string ([`crate::render::lines`]), as a picture of one reads it.
#[must_use]
pub fn fen_problems(kind: GameKind, fen: &str) -> Vec<String> {
    match kind {
        GameKind::Lines => match crate::render::lines::LinesPicture::parse(fen) {
            Err(e) => vec![e.to_string()],
            Ok(_) => Vec::new(),
        },
        GameKind::Xiangqi => match x::fen::parse_setup(fen) {
            Err(e) => vec![e.to_string()],
            Ok(setup) => setup.problems().iter().map(ToString::to_string).collect(),
        },
        other => match AnyGame::from_fen(other, fen) {
            Ok(_) => Vec::new(),
            Err(e) => vec![e.to_string()],
        },
    }
}

/// How a colour is called in a game: Red/Black in xiangqi and jieqi, White/Black in chess.
#[must_use]
pub fn color_name(kind: GameKind, color: Color) -> &'static str {
    match (kind, color) {
        (GameKind::Chess, Color::Red) => "White",
        (_, Color::Red) => "Red",
        (_, Color::Black) => "Black",
    }
}

impl Game for AnyGame {
    type Move = AnyMove;
    type Undo = AnyUndo;
    type Rules = AnyRules;
    type PlayError = AnyPlayError;

    fn kind(&self) -> GameKind {
        match self {
            AnyGame::Xiangqi(_) => GameKind::Xiangqi,
            AnyGame::Chess(_) => GameKind::Chess,
            AnyGame::Jieqi(_) => GameKind::Jieqi,
        }
    }

    fn side_to_move(&self) -> Color {
        match self {
            AnyGame::Xiangqi(g) => g.side_to_move(),
            AnyGame::Chess(g) => g.side_to_move(),
            AnyGame::Jieqi(g) => g.side_to_move(),
        }
    }

    fn legal_moves(&self, moves: &mut MoveList<AnyMove>) {
        moves.clear();
        match self {
            AnyGame::Xiangqi(g) => {
                let mut own = MoveList::new();
                g.legal_moves(&mut own);
                for &m in &own {
                    moves.push(AnyMove::Xiangqi(m));
                }
            }
            AnyGame::Chess(g) => {
                let mut own = MoveList::new();
                g.legal_moves(&mut own);
                for &m in &own {
                    moves.push(AnyMove::Chess(m));
                }
            }
            AnyGame::Jieqi(g) => {
                let mut own = MoveList::new();
                g.legal_moves(&mut own);
                for &m in &own {
                    moves.push(AnyMove::Jieqi(m));
                }
            }
        }
    }

    fn is_legal(&self, mv: AnyMove) -> bool {
        match (self, mv) {
            (AnyGame::Xiangqi(g), AnyMove::Xiangqi(m)) => g.is_legal(m),
            (AnyGame::Chess(g), AnyMove::Chess(m)) => g.is_legal(m),
            (AnyGame::Jieqi(g), AnyMove::Jieqi(m)) => g.is_legal(m),
            _ => false,
        }
    }

    fn play(&mut self, mv: AnyMove) -> Result<(), AnyPlayError> {
        match (self, mv) {
            (AnyGame::Xiangqi(g), AnyMove::Xiangqi(m)) => Ok(g.play(m)?),
            (AnyGame::Chess(g), AnyMove::Chess(m)) => Ok(g.play(m)?),
            (AnyGame::Jieqi(g), AnyMove::Jieqi(m)) => Ok(g.play(m)?),
            _ => Err(AnyPlayError::WrongGame),
        }
    }

    fn make_unchecked(&mut self, mv: AnyMove) -> AnyUndo {
        match (self, mv) {
            (AnyGame::Xiangqi(g), AnyMove::Xiangqi(m)) => AnyUndo::Xiangqi(g.make_unchecked(m)),
            (AnyGame::Chess(g), AnyMove::Chess(m)) => AnyUndo::Chess(g.make_unchecked(m)),
            (AnyGame::Jieqi(g), AnyMove::Jieqi(m)) => AnyUndo::Jieqi(g.make_unchecked(m)),
            _ => AnyUndo::Nothing,
        }
    }

    fn unmake(&mut self, mv: AnyMove, undo: AnyUndo) {
        match (self, mv, undo) {
            (AnyGame::Xiangqi(g), AnyMove::Xiangqi(m), AnyUndo::Xiangqi(u)) => g.unmake(m, u),
            (AnyGame::Chess(g), AnyMove::Chess(m), AnyUndo::Chess(u)) => g.unmake(m, u),
            (AnyGame::Jieqi(g), AnyMove::Jieqi(m), AnyUndo::Jieqi(u)) => g.unmake(m, u),
            _ => {}
        }
    }

    fn in_check(&self) -> bool {
        match self {
            AnyGame::Xiangqi(g) => g.in_check(),
            AnyGame::Chess(g) => g.in_check(),
            AnyGame::Jieqi(g) => g.in_check(),
        }
    }

    fn no_move_outcome(&self) -> Outcome {
        match self {
            AnyGame::Xiangqi(g) => g.no_move_outcome(),
            AnyGame::Chess(g) => g.no_move_outcome(),
            AnyGame::Jieqi(g) => g.no_move_outcome(),
        }
    }

    fn outcome(&self, rules: &AnyRules) -> Option<Outcome> {
        match self {
            AnyGame::Xiangqi(g) => g.outcome(&rules.xiangqi()),
            AnyGame::Chess(g) => g.outcome(&rules.chess()),
            AnyGame::Jieqi(g) => g.outcome(&rules.xiangqi()),
        }
    }

    fn claimable_draw(&self, rules: &AnyRules) -> Option<DrawReason> {
        match self {
            AnyGame::Xiangqi(g) => g.claimable_draw(&rules.xiangqi()),
            AnyGame::Chess(g) => g.claimable_draw(&rules.chess()),
            AnyGame::Jieqi(g) => g.claimable_draw(&rules.xiangqi()),
        }
    }

    fn claimable_draw_with(&self, mv: AnyMove, rules: &AnyRules) -> Option<DrawReason> {
        match (self, mv) {
            (AnyGame::Xiangqi(g), AnyMove::Xiangqi(m)) => {
                g.claimable_draw_with(m, &rules.xiangqi())
            }
            (AnyGame::Chess(g), AnyMove::Chess(m)) => g.claimable_draw_with(m, &rules.chess()),
            (AnyGame::Jieqi(g), AnyMove::Jieqi(m)) => g.claimable_draw_with(m, &rules.xiangqi()),
            _ => None,
        }
    }

    fn hash(&self) -> u64 {
        match self {
            AnyGame::Xiangqi(g) => g.hash(),
            AnyGame::Chess(g) => g.hash(),
            AnyGame::Jieqi(g) => g.hash(),
        }
    }

    fn ply(&self) -> u32 {
        match self {
            AnyGame::Xiangqi(g) => g.ply(),
            AnyGame::Chess(g) => g.ply(),
            AnyGame::Jieqi(g) => g.ply(),
        }
    }

    fn encode_move(&self, mv: AnyMove) -> u16 {
        match (self, mv) {
            (AnyGame::Xiangqi(g), AnyMove::Xiangqi(m)) => g.encode_move(m),
            (AnyGame::Chess(g), AnyMove::Chess(m)) => g.encode_move(m),
            (AnyGame::Jieqi(g), AnyMove::Jieqi(m)) => g.encode_move(m),
            // A move of another game has no code here; an invalid code is refused by the
            // peer like any bad move.
            _ => u16::MAX,
        }
    }

    fn decode_move(&self, code: u16) -> Option<AnyMove> {
        match self {
            AnyGame::Xiangqi(g) => g.decode_move(code).map(AnyMove::Xiangqi),
            AnyGame::Chess(g) => g.decode_move(code).map(AnyMove::Chess),
            AnyGame::Jieqi(g) => g.decode_move(code).map(AnyMove::Jieqi),
        }
    }

    fn awaits_chance(&self) -> bool {
        match self {
            AnyGame::Xiangqi(g) => g.awaits_chance(),
            AnyGame::Chess(g) => g.awaits_chance(),
            AnyGame::Jieqi(g) => g.awaits_chance(),
        }
    }

    fn chance_outcomes(&self, out: &mut ChanceList<AnyMove>) {
        out.clear();
        match self {
            AnyGame::Xiangqi(_) | AnyGame::Chess(_) => {}
            AnyGame::Jieqi(g) => {
                let mut own = ChanceList::new();
                g.chance_outcomes(&mut own);
                for w in own.as_slice() {
                    out.push(AnyMove::Jieqi(w.outcome), w.weight);
                }
            }
        }
    }
}

impl MatchGame for AnyGame {
    fn kinds() -> &'static [GameKind] {
        &[GameKind::Xiangqi, GameKind::Chess, GameKind::Jieqi]
    }

    fn setup(kind: GameKind, fen: Option<&str>) -> Result<AnyGame, SetupError> {
        match kind {
            GameKind::Xiangqi => Xiangqi::setup(kind, fen).map(AnyGame::Xiangqi),
            GameKind::Chess => Chess::setup(kind, fen).map(AnyGame::Chess),
            GameKind::Jieqi => Jieqi::setup(kind, fen).map(AnyGame::Jieqi),
            other @ GameKind::Lines => Err(SetupError::Unsupported(other)),
        }
    }

    fn rules(kind: GameKind, index: u8) -> Option<AnyRules> {
        match kind {
            GameKind::Xiangqi => Xiangqi::rules(kind, index).map(AnyRules::Xiangqi),
            GameKind::Chess => Chess::rules(kind, index).map(AnyRules::Chess),
            GameKind::Jieqi => Jieqi::rules(kind, index).map(AnyRules::Jieqi),
            GameKind::Lines => None,
        }
    }

    fn fen(&self) -> String {
        match self {
            AnyGame::Xiangqi(g) => MatchGame::fen(g),
            AnyGame::Chess(g) => MatchGame::fen(g),
            AnyGame::Jieqi(g) => MatchGame::fen(g),
        }
    }

    fn start_fen(&self) -> String {
        match self {
            AnyGame::Xiangqi(g) => g.start_fen(),
            AnyGame::Chess(g) => MatchGame::start_fen(g),
            AnyGame::Jieqi(g) => MatchGame::start_fen(g),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn xiangqi_through_the_dispatch() {
        let mut g = AnyGame::new(GameKind::Xiangqi).unwrap();
        assert_eq!(g.legal_move_vec().len(), 44);
        let h2 = 7 + 2 * 9;
        assert_eq!(g.targets_from(h2).len(), 12);
        let mv = g.move_from_parts(h2, 4 + 2 * 9, None).unwrap();
        assert_eq!(g.move_parts(mv), (h2, 22, None));
        let code = g.encode_move(mv);
        assert_eq!(g.decode_move(code), Some(mv));
        g.play(mv).unwrap();
        assert!(g.move_from_parts(h2, 22, None).is_err());
        assert_eq!(g.history(), vec![mv]);
        assert_eq!(g.undo_move(), Some(mv));
        assert_eq!(g.ply(), 0);
        assert_eq!(g.color_name(Color::Red), "Red");
        assert!(AnyGame::new(GameKind::Lines).is_err());
    }

    #[test]
    fn chess_through_the_dispatch() {
        let mut g =
            AnyGame::from_fen(GameKind::Chess, "r3k3/1P6/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        assert_eq!((g.width(), g.height()), (8, 8));
        assert_eq!(g.color_name(Color::Red), "White");
        let e1 = 4;
        let g1 = 6;
        assert!(g.targets_from(e1).contains(&g1));
        let castle = g.move_from_parts(e1, g1, None).unwrap();
        assert_eq!(g.move_parts(castle), (e1, g1, None), "the king lands on g1");
        let b7 = 49;
        let b8 = 57;
        let a8 = 56;
        assert_eq!(
            g.promotion_choices(b7, b8).len(),
            4,
            "queen, rook, bishop and knight"
        );
        assert!(g.move_from_parts(b7, b8, Some(PieceKind::Cannon)).is_err());
        let promo = g.move_from_parts(b7, a8, Some(PieceKind::Queen)).unwrap();
        assert_eq!(g.move_parts(promo).2, Some(PieceKind::Queen));
        g.play(promo).unwrap();
        assert!(g.in_check());
        assert_eq!(g.checked_king(), Some(60));
        assert_eq!(g.piece_at(a8).unwrap().glyph, '♕');
        let code = g.encode_move(castle);
        assert_eq!(g.decode_move(code), Some(castle));
        assert_eq!(
            g.encode_move(AnyMove::Xiangqi(x::Move::default())),
            u16::MAX
        );
        assert!(!g.is_legal(AnyMove::Xiangqi(x::Move::default())));
    }
}
