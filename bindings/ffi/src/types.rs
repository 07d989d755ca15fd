//! Records and enums that cross the boundary, and their conversions from the pure crates.
//! The pure crates know nothing of uniffi: every type here mirrors one of theirs.

use crate::error::BancoError;
use banco_game as g;
use banco_xiangqi as x;

/// A side. Red moves first (in chess Red stands for White).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum Color {
    /// The side that moves first.
    Red,
    /// The side that moves second.
    Black,
}

impl From<g::Color> for Color {
    fn from(c: g::Color) -> Self {
        match c {
            g::Color::Red => Color::Red,
            g::Color::Black => Color::Black,
        }
    }
}

impl From<Color> for g::Color {
    fn from(c: Color) -> Self {
        match c {
            Color::Red => g::Color::Red,
            Color::Black => g::Color::Black,
        }
    }
}

/// The games Banco knows (this version plays xiangqi).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum GameKind {
    /// Chinese chess (cờ tướng).
    Xiangqi,
    /// Hidden-piece xiangqi (cờ úp).
    Jieqi,
    /// International chess.
    Chess,
    /// Color Lines.
    Lines,
}

impl From<GameKind> for g::GameKind {
    fn from(k: GameKind) -> Self {
        match k {
            GameKind::Xiangqi => g::GameKind::Xiangqi,
            GameKind::Jieqi => g::GameKind::Jieqi,
            GameKind::Chess => g::GameKind::Chess,
            GameKind::Lines => g::GameKind::Lines,
        }
    }
}

impl From<g::GameKind> for GameKind {
    fn from(k: g::GameKind) -> Self {
        match k {
            g::GameKind::Xiangqi => GameKind::Xiangqi,
            g::GameKind::Jieqi => GameKind::Jieqi,
            g::GameKind::Chess => GameKind::Chess,
            g::GameKind::Lines => GameKind::Lines,
        }
    }
}

/// The seven kinds of xiangqi pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum PieceKind {
    /// General (帥 將).
    King,
    /// Advisor (仕 士).
    Advisor,
    /// Elephant (相 象).
    Elephant,
    /// Horse (傌 馬).
    Horse,
    /// Rook / chariot (俥 車).
    Rook,
    /// Cannon (炮 砲).
    Cannon,
    /// Pawn / soldier (兵 卒).
    Pawn,
}

impl From<x::PieceKind> for PieceKind {
    fn from(k: x::PieceKind) -> Self {
        match k {
            x::PieceKind::King => PieceKind::King,
            x::PieceKind::Advisor => PieceKind::Advisor,
            x::PieceKind::Elephant => PieceKind::Elephant,
            x::PieceKind::Horse => PieceKind::Horse,
            x::PieceKind::Rook => PieceKind::Rook,
            x::PieceKind::Cannon => PieceKind::Cannon,
            x::PieceKind::Pawn => PieceKind::Pawn,
        }
    }
}

/// A piece: colour, kind, and how to draw it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Its kind.
    pub kind: PieceKind,
    /// FEN letter, upper case for Red (`C`, `n`).
    pub letter: String,
    /// Traditional Chinese glyph (`炮`, `馬`).
    pub glyph: String,
}

impl From<x::Piece> for Piece {
    fn from(p: x::Piece) -> Self {
        Piece {
            color: p.color.into(),
            kind: p.kind.into(),
            letter: p.fen_char().to_string(),
            glyph: p.chinese().to_string(),
        }
    }
}

/// A square: file 0–8 (a–i, from Red's left), rank 0–9 (from Red's side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct Square {
    /// File 0–8 (a–i).
    pub file: u8,
    /// Rank 0–9.
    pub rank: u8,
}

impl From<x::Square> for Square {
    fn from(s: x::Square) -> Self {
        Square {
            file: s.file(),
            rank: s.rank(),
        }
    }
}

impl TryFrom<Square> for x::Square {
    type Error = BancoError;
    fn try_from(s: Square) -> Result<Self, BancoError> {
        x::Square::new(s.file, s.rank).ok_or(BancoError::BadSquare {
            file: s.file,
            rank: s.rank,
        })
    }
}

/// A move from one square to another (legal or not: that depends on a position).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct Move {
    /// Where the piece stands.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
}

impl From<x::Move> for Move {
    fn from(m: x::Move) -> Self {
        Move {
            from: m.from().into(),
            to: m.to().into(),
        }
    }
}

impl TryFrom<Move> for x::Move {
    type Error = BancoError;
    fn try_from(m: Move) -> Result<Self, BancoError> {
        let from = x::Square::try_from(m.from)?;
        let to = x::Square::try_from(m.to)?;
        if from == to {
            return Err(BancoError::IllegalMove(format!(
                "{from}{to} is not a move: the piece has to go somewhere"
            )));
        }
        Ok(x::Move::new(from, to))
    }
}

/// The notations moves are written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum Notation {
    /// Coordinates (ICCS / UCI): `h2e2`.
    Coordinate,
    /// WXF: `C2=5`, `H8+7`, `C+=5`.
    Wxf,
    /// Chinese: `炮二平五`, `马8进7`.
    Chinese,
}

/// A move that has been played, written in every notation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct PlayedMove {
    /// Ply number of the move: 1 for the first move of the game.
    pub ply: u32,
    /// The move.
    pub played: Move,
    /// The piece that moved.
    pub piece: Piece,
    /// The piece it captured, if any.
    pub captured: Option<Piece>,
    /// True if the move gave check.
    pub gives_check: bool,
    /// In coordinates (`h2e2`).
    pub coordinate: String,
    /// In WXF (`C2=5`).
    pub wxf: String,
    /// In Chinese (`炮二平五`).
    pub chinese: String,
}

/// A piece on its square.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct PlacedPiece {
    /// Where.
    pub square: Square,
    /// What.
    pub piece: Piece,
}

/// Why a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum WinReason {
    /// The loser is in check with no legal move.
    Checkmate,
    /// The loser has no legal move (a loss in xiangqi).
    Stalemate,
    /// The loser kept checking through a repetition.
    PerpetualCheck,
    /// The loser kept chasing through a repetition.
    PerpetualChase,
    /// The loser resigned.
    Resignation,
    /// The loser ran out of time.
    Timeout,
    /// The loser broke the rules of a networked match.
    Forfeit,
}

impl From<g::WinReason> for WinReason {
    fn from(r: g::WinReason) -> Self {
        match r {
            g::WinReason::Checkmate => WinReason::Checkmate,
            g::WinReason::Stalemate => WinReason::Stalemate,
            g::WinReason::PerpetualCheck => WinReason::PerpetualCheck,
            g::WinReason::PerpetualChase => WinReason::PerpetualChase,
            g::WinReason::Resignation => WinReason::Resignation,
            g::WinReason::Timeout => WinReason::Timeout,
            g::WinReason::Forfeit => WinReason::Forfeit,
        }
    }
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum DrawReason {
    /// A repetition nobody is to blame for.
    Repetition,
    /// The no-capture limit was reached.
    NoCapture {
        /// The limit in plies.
        plies: u16,
    },
    /// Neither side can mate.
    InsufficientMaterial,
    /// The players agreed.
    Agreement,
    /// No legal move and not in check where that draws (chess).
    Stalemate,
    /// Chess: fifty moves without capture or pawn move, claimed.
    FiftyMoveRule,
    /// Chess: seventy-five moves without capture or pawn move.
    SeventyFiveMoveRule,
    /// Chess: the third occurrence of a position, claimed.
    ThreefoldRepetition,
    /// Chess: the fifth occurrence of a position.
    FivefoldRepetition,
}

impl From<g::DrawReason> for DrawReason {
    fn from(r: g::DrawReason) -> Self {
        match r {
            g::DrawReason::Repetition => DrawReason::Repetition,
            g::DrawReason::NoCapture(plies) => DrawReason::NoCapture { plies },
            g::DrawReason::InsufficientMaterial => DrawReason::InsufficientMaterial,
            g::DrawReason::Agreement => DrawReason::Agreement,
            g::DrawReason::Stalemate => DrawReason::Stalemate,
            g::DrawReason::FiftyMoveRule => DrawReason::FiftyMoveRule,
            g::DrawReason::SeventyFiveMoveRule => DrawReason::SeventyFiveMoveRule,
            g::DrawReason::ThreefoldRepetition => DrawReason::ThreefoldRepetition,
            g::DrawReason::FivefoldRepetition => DrawReason::FivefoldRepetition,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
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

impl From<g::Outcome> for Outcome {
    fn from(o: g::Outcome) -> Self {
        match o {
            g::Outcome::Win { winner, reason } => Outcome::Win {
                winner: winner.into(),
                reason: reason.into(),
            },
            g::Outcome::Draw { reason } => Outcome::Draw {
                reason: reason.into(),
            },
        }
    }
}

/// Where a game stands.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct GameStatus {
    /// Which game.
    pub kind: GameKind,
    /// The side to move.
    pub side_to_move: Color,
    /// Moves played since the start position.
    pub ply: u32,
    /// True if the side to move is in check.
    pub in_check: bool,
    /// The outcome once the game is over.
    pub outcome: Option<Outcome>,
    /// `*` while the game goes on, else `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The outcome in words (`1-0 checkmate`), empty while the game goes on.
    pub result_text: String,
    /// Moves that can be taken back.
    pub can_undo: bool,
    /// Moves taken back that can be played again.
    pub can_redo: bool,
}

/// Which repetitions lose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum RepetitionRule {
    /// Asian rules: perpetual check and perpetual chase lose.
    Asian,
    /// Casual rules: perpetual check loses, any other repetition draws.
    Casual,
}

/// The rules that end a game besides mate and stalemate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct Rules {
    /// Repetition rules.
    pub repetition: RepetitionRule,
    /// Occurrences of a position that trigger the judge (2–9; 3 is usual).
    pub repetitions: u8,
    /// Draw after this many plies without capture; 0 turns the rule off (120 is usual).
    pub no_capture_plies: u16,
}

impl From<x::RuleSet> for Rules {
    fn from(r: x::RuleSet) -> Self {
        Rules {
            repetition: match r.repetition {
                x::RepetitionRule::Asian => RepetitionRule::Asian,
                x::RepetitionRule::Casual => RepetitionRule::Casual,
            },
            repetitions: r.repetitions,
            no_capture_plies: r.no_capture_plies,
        }
    }
}

impl TryFrom<Rules> for x::RuleSet {
    type Error = BancoError;
    fn try_from(r: Rules) -> Result<Self, BancoError> {
        if !(2..=9).contains(&r.repetitions) {
            return Err(BancoError::InvalidArgument(format!(
                "repetitions must be 2 to 9, not {}",
                r.repetitions
            )));
        }
        Ok(x::RuleSet {
            repetition: match r.repetition {
                RepetitionRule::Asian => x::RepetitionRule::Asian,
                RepetitionRule::Casual => x::RepetitionRule::Casual,
            },
            repetitions: r.repetitions,
            no_capture_plies: r.no_capture_plies,
        })
    }
}

/// What happened to a local [`crate::Game`], as told to its [`crate::GameListener`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum GameEvent {
    /// A move was played (or replayed by redo).
    MovePlayed {
        /// The move.
        played: PlayedMove,
    },
    /// A move was taken back.
    MoveUndone {
        /// The move taken back.
        undone: Move,
        /// The ply count after taking it back.
        ply: u32,
    },
    /// The game ended.
    GameOver {
        /// How.
        outcome: Outcome,
        /// In words (`1-0 checkmate`).
        text: String,
    },
    /// The game was replaced (loaded, reset).
    Reset {
        /// FEN of the new current position.
        fen: String,
    },
}
