//! Records and enums that cross the boundary, and their conversions from the pure crates.
//! The pure crates know nothing of uniffi: every type here mirrors one of theirs. Moves are
//! square indices (`rank × width + file`, rank 0 on the first player's side) plus an
//! optional promotion piece, for every game.

use crate::error::BancoError;
use banco_app::any::{AnyGame, AnyRules};
use banco_app::board as ab;
use banco_app::notation::{self as an, MoveInfo};
use banco_app::pieces::{self as ap, PieceInfo};
use banco_game as g;
use banco_xiangqi as x;

/// A side. Red moves first; in chess Red stands for White.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum Color {
    /// The side that moves first (White in chess).
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

/// The games Banco knows.
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

/// The kinds of pieces of every board game (see [`piece_kinds`](crate::piece_kinds) for a
/// game's own).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum PieceKind {
    /// King (xiangqi general 帥/將, chess king).
    King,
    /// Xiangqi advisor (仕/士).
    Advisor,
    /// Xiangqi elephant (相/象).
    Elephant,
    /// Xiangqi horse (傌/馬).
    Horse,
    /// Rook (xiangqi chariot 俥/車, chess rook).
    Rook,
    /// Xiangqi cannon (炮/砲).
    Cannon,
    /// Pawn (xiangqi soldier 兵/卒, chess pawn).
    Pawn,
    /// Chess queen.
    Queen,
    /// Chess bishop.
    Bishop,
    /// Chess knight.
    Knight,
}

impl From<ap::PieceKind> for PieceKind {
    fn from(k: ap::PieceKind) -> Self {
        match k {
            ap::PieceKind::King => PieceKind::King,
            ap::PieceKind::Advisor => PieceKind::Advisor,
            ap::PieceKind::Elephant => PieceKind::Elephant,
            ap::PieceKind::Horse => PieceKind::Horse,
            ap::PieceKind::Rook => PieceKind::Rook,
            ap::PieceKind::Cannon => PieceKind::Cannon,
            ap::PieceKind::Pawn => PieceKind::Pawn,
            ap::PieceKind::Queen => PieceKind::Queen,
            ap::PieceKind::Bishop => PieceKind::Bishop,
            ap::PieceKind::Knight => PieceKind::Knight,
        }
    }
}

impl From<PieceKind> for ap::PieceKind {
    fn from(k: PieceKind) -> Self {
        match k {
            PieceKind::King => ap::PieceKind::King,
            PieceKind::Advisor => ap::PieceKind::Advisor,
            PieceKind::Elephant => ap::PieceKind::Elephant,
            PieceKind::Horse => ap::PieceKind::Horse,
            PieceKind::Rook => ap::PieceKind::Rook,
            PieceKind::Cannon => ap::PieceKind::Cannon,
            PieceKind::Pawn => ap::PieceKind::Pawn,
            PieceKind::Queen => ap::PieceKind::Queen,
            PieceKind::Bishop => ap::PieceKind::Bishop,
            PieceKind::Knight => ap::PieceKind::Knight,
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
    /// FEN letter, upper case for the first player (`C`, `n`, `Q`).
    pub letter: String,
    /// The glyph to draw: Chinese for xiangqi (`炮`, `馬`), a chess symbol (`♕`, `♞`).
    pub glyph: String,
    /// The kind's English name (`cannon`).
    pub name: String,
    /// A face-down jieqi piece: draw its back in its colour. Its identity is unknown to
    /// everybody until its reveal; `kind` is the kind it moves as (its home square's).
    pub face_down: bool,
}

impl From<&PieceInfo> for Piece {
    fn from(p: &PieceInfo) -> Self {
        Piece {
            color: p.color.into(),
            kind: p.kind.into(),
            letter: p.letter.to_string(),
            glyph: p.glyph.to_string(),
            name: p.kind.name().to_owned(),
            face_down: p.face_down,
        }
    }
}

/// A move of any game: from and to square indices (`rank × width + file`, rank 0 on the
/// first player's side) and, for a chess promotion, the piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct Move {
    /// From square index.
    pub from: u8,
    /// To square index.
    pub to: u8,
    /// The piece a pawn becomes (chess); `null`/`nil` otherwise.
    pub promotion: Option<PieceKind>,
}

/// A move written in one notation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct MoveText {
    /// The notation.
    pub notation: Notation,
    /// The text.
    pub text: String,
}

/// Ways to write moves; [`notations`](crate::notations) lists a game's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum Notation {
    /// From and to squares: `h2e2` (xiangqi ICCS), `e2e4`, `e7e8q` (chess UCI).
    Coordinate,
    /// WXF, `C2.5` (xiangqi).
    Wxf,
    /// Chinese, `炮二平五` (xiangqi).
    Chinese,
    /// Standard algebraic notation, `Nf3`, `O-O` (chess).
    San,
}

impl From<Notation> for an::Notation {
    fn from(n: Notation) -> Self {
        match n {
            Notation::Coordinate => an::Notation::Coordinate,
            Notation::Wxf => an::Notation::Wxf,
            Notation::Chinese => an::Notation::Chinese,
            Notation::San => an::Notation::San,
        }
    }
}

impl From<an::Notation> for Notation {
    fn from(n: an::Notation) -> Self {
        match n {
            an::Notation::Coordinate => Notation::Coordinate,
            an::Notation::Wxf => Notation::Wxf,
            an::Notation::Chinese => Notation::Chinese,
            an::Notation::San => Notation::San,
        }
    }
}

/// A move as played, with everything a front end shows about it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct PlayedMove {
    /// Ply count after the move (1 for the first move; in jieqi a reveal is a ply of its
    /// own, so a step that turns a piece over ends one ply later: the step and its reveal).
    pub ply: u32,
    /// The move.
    pub played: Move,
    /// Who played it.
    pub by: Color,
    /// The piece that moved.
    pub piece: Option<Piece>,
    /// The piece captured, if any.
    pub captured: Option<Piece>,
    /// True if it gives check.
    pub gives_check: bool,
    /// In coordinates (`h2e2`, `e2e4`).
    pub coordinate: String,
    /// In the game's main notation (Chinese for xiangqi, SAN for chess).
    pub text: String,
    /// In every notation of the game.
    pub texts: Vec<MoveText>,
    /// Jieqi: the piece a face-down piece turned out to be when this move turned it over.
    pub revealed: Option<Piece>,
    /// Jieqi: the reveal in words ("cannon h2 revealed: rook").
    pub announcement: Option<String>,
}

impl From<&MoveInfo> for PlayedMove {
    fn from(m: &MoveInfo) -> Self {
        PlayedMove {
            ply: m.ply,
            played: Move {
                from: m.from,
                to: m.to,
                promotion: m.promotion.map(PieceKind::from),
            },
            by: m.by.into(),
            piece: m.piece.as_ref().map(Piece::from),
            captured: m.captured.as_ref().map(Piece::from),
            gives_check: m.gives_check,
            revealed: m.revealed.as_ref().map(Piece::from),
            announcement: m.announcement.clone(),
            coordinate: m.text(an::Notation::Coordinate),
            text: m.main_text(),
            texts: m
                .texts
                .iter()
                .map(|(n, t)| MoveText {
                    notation: (*n).into(),
                    text: t.clone(),
                })
                .collect(),
        }
    }
}

/// A piece on its square.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct PlacedPiece {
    /// The square index.
    pub square: u8,
    /// The piece.
    pub piece: Piece,
}

/// The shape of a game's board.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct BoardShape {
    /// The game.
    pub kind: GameKind,
    /// Files (9 for xiangqi, 8 for chess).
    pub width: u8,
    /// Ranks (10 for xiangqi, 8 for chess).
    pub height: u8,
    /// The square names by index (`a0` … `i9`, `a1` … `h8`).
    pub square_names: Vec<String>,
}

impl From<&AnyGame> for BoardShape {
    fn from(g: &AnyGame) -> Self {
        BoardShape {
            kind: g::Game::kind(g).into(),
            width: g.width(),
            height: g.height(),
            square_names: (0..g.squares()).map(|i| g.square_name(i)).collect(),
        }
    }
}

/// One cell of the board as the screen shows it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct Cell {
    /// Screen column, 0 at the left.
    pub column: u8,
    /// Screen row, 0 at the top.
    pub row: u8,
    /// The square index.
    pub square: u8,
    /// The square's name (`e2`).
    pub name: String,
    /// The piece on it.
    pub piece: Option<Piece>,
    /// The selected piece stands here.
    pub selected: bool,
    /// The selected piece may move here.
    pub target: bool,
    /// The last move started or ended here.
    pub last_move: bool,
    /// The hint's move starts or ends here.
    pub hint: bool,
    /// The king in check stands here.
    pub check: bool,
    /// A dark square of a checkered (chess) board.
    pub dark: bool,
}

/// The board, ready to draw: cells row by row from the top left.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct BoardView {
    /// The game.
    pub kind: GameKind,
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    /// True when the second player's side is at the bottom.
    pub flipped: bool,
    /// Pieces stand on the intersections of `lines` (xiangqi); otherwise in squares coloured
    /// by each cell's `dark` (chess).
    pub on_lines: bool,
    /// The board's lines between cell centres (xiangqi: ranks, files broken by the river,
    /// palace diagonals; chess: none).
    pub lines: Vec<BoardLine>,
    /// Xiangqi and jieqi: the river runs between this screen row and the next (write
    /// 楚河 漢界 there); `null`/`nil` for chess. The same either way up.
    #[uniffi(default = None)]
    pub river_after_row: Option<u8>,
    /// The promotion picker to show (asked for by a tap, not yet answered or dismissed).
    pub promotion: Option<PromotionChoice>,
    /// Every cell, `width × height`, row by row from the top.
    pub cells: Vec<Cell>,
    /// Jieqi: both sides' pools, first player first (empty in other games).
    pub pools: Vec<crate::jieqi::Pool>,
    /// Jieqi: the pools to show beside the board, each next to its own side (`top` above
    /// the board, `bottom` below it, as the board is turned), kinds all revealed left out;
    /// `null`/`nil` in other games.
    pub pool_sides: Option<crate::jieqi::PoolSides>,
}

/// A promotion waiting for the player's choice: show the pieces, then call
/// `choosePromotion` (or `clearSelection` when the picker is dismissed).
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct PromotionChoice {
    /// From square.
    pub from: u8,
    /// To square.
    pub to: u8,
    /// The pieces to offer.
    pub choices: Vec<PieceKind>,
}

/// A line to draw between the centres of two cells (screen columns and rows).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct BoardLine {
    /// Column of one end.
    pub from_column: u8,
    /// Row of one end.
    pub from_row: u8,
    /// Column of the other end.
    pub to_column: u8,
    /// Row of the other end.
    pub to_row: u8,
}

impl From<&ab::BoardView> for BoardView {
    fn from(v: &ab::BoardView) -> Self {
        BoardView {
            kind: v.kind.into(),
            width: v.width,
            height: v.height,
            flipped: v.flipped,
            on_lines: v.on_lines,
            lines: v
                .lines
                .iter()
                .map(|l| BoardLine {
                    from_column: l.from_column,
                    from_row: l.from_row,
                    to_column: l.to_column,
                    to_row: l.to_row,
                })
                .collect(),
            river_after_row: v.river_after_row,
            promotion: v.promotion.as_ref().map(|p| PromotionChoice {
                from: p.from,
                to: p.to,
                choices: p.choices.iter().map(|&k| k.into()).collect(),
            }),
            cells: v
                .cells
                .iter()
                .map(|c| Cell {
                    column: c.column,
                    row: c.row,
                    square: c.square,
                    name: c.name.clone(),
                    piece: c.piece.as_ref().map(Piece::from),
                    selected: c.selected,
                    target: c.target,
                    last_move: c.last_move,
                    hint: c.hint,
                    check: c.check,
                    dark: c.dark,
                })
                .collect(),
            pools: v.pools.iter().map(crate::jieqi::Pool::from).collect(),
            pool_sides: v.pool_sides.as_ref().map(crate::jieqi::PoolSides::from),
        }
    }
}

/// What a tap on the board did.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum TapResult {
    /// Nothing (not the player's turn, an empty square).
    Ignored,
    /// A piece was selected; its targets are highlighted.
    Selected {
        /// Its square.
        square: u8,
    },
    /// The selection was cleared.
    Cleared,
    /// A move was made.
    Moved {
        /// The move.
        played: Move,
    },
    /// A pawn reaches the last rank: show the choices, then call `choosePromotion`.
    ChoosePromotion {
        /// From square.
        from: u8,
        /// To square.
        to: u8,
        /// The pieces to offer.
        choices: Vec<PieceKind>,
    },
}

impl TapResult {
    pub(crate) fn of(tap: &ab::Tap, game: &AnyGame) -> TapResult {
        match tap {
            ab::Tap::Ignored => TapResult::Ignored,
            ab::Tap::Selected { square } => TapResult::Selected { square: *square },
            ab::Tap::Cleared => TapResult::Cleared,
            ab::Tap::Move(mv) => {
                let (from, to, p) = game.move_parts(*mv);
                TapResult::Moved {
                    played: Move {
                        from,
                        to,
                        promotion: p.map(PieceKind::from),
                    },
                }
            }
            ab::Tap::ChoosePromotion { from, to, choices } => TapResult::ChoosePromotion {
                from: *from,
                to: *to,
                choices: choices.iter().map(|&k| k.into()).collect(),
            },
        }
    }
}

/// Why a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum WinReason {
    /// Checkmate.
    Checkmate,
    /// No legal move, not in check (a loss in xiangqi).
    Stalemate,
    /// Perpetual check.
    PerpetualCheck,
    /// Perpetual chase.
    PerpetualChase,
    /// Resignation.
    Resignation,
    /// Out of time.
    Timeout,
    /// Broke the rules of a networked match.
    Forfeit,
    /// A record gives the result but not why.
    Unknown,
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
            g::WinReason::Unknown => WinReason::Unknown,
        }
    }
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum DrawReason {
    /// A repetition nobody is to blame for (xiangqi).
    Repetition,
    /// The no-capture limit was reached (xiangqi).
    NoCapture {
        /// The limit in plies.
        plies: u16,
    },
    /// Neither side can mate.
    InsufficientMaterial,
    /// The players agreed.
    Agreement,
    /// No legal move and not in check (chess).
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

/// Xiangqi's repetition rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum RepetitionRule {
    /// Asian rules: perpetual check and perpetual chase lose.
    Asian,
    /// Casual rules: perpetual check loses, any other repetition draws.
    Casual,
}

/// The rules that end a game besides mate: one variant per game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum Rules {
    /// Xiangqi.
    Xiangqi {
        /// Repetition rules.
        repetition: RepetitionRule,
        /// Occurrences of a position that trigger the judge (2–9; 3 is usual).
        repetitions: u8,
        /// Draw after this many plies without capture; 0 turns the rule off (120 usual).
        no_capture_plies: u16,
    },
    /// Chess (FIDE: fivefold repetition and 75 moves end the game; threefold and fifty
    /// moves may be claimed).
    Chess {
        /// Claimable draws end the game at once (for engine matches).
        auto_claim: bool,
    },
    /// Jieqi: xiangqi's rule sets (perpetual check loses; under Asian rules perpetual chase too).
    Jieqi {
        /// Repetition rules.
        repetition: RepetitionRule,
        /// Occurrences of a position that trigger the judge (2–9; 3 is usual).
        repetitions: u8,
        /// Draw after this many plies without capture; 0 turns the rule off (120 usual).
        no_capture_plies: u16,
    },
}

fn repetition_rule(r: x::RepetitionRule) -> RepetitionRule {
    match r {
        x::RepetitionRule::Asian => RepetitionRule::Asian,
        x::RepetitionRule::Casual => RepetitionRule::Casual,
    }
}

/// A xiangqi rule set from its parts, the repetition count checked.
fn rule_set(
    repetition: RepetitionRule,
    repetitions: u8,
    no_capture_plies: u16,
) -> Result<x::RuleSet, BancoError> {
    if !(2..=9).contains(&repetitions) {
        return Err(BancoError::InvalidArgument(format!(
            "repetitions must be 2 to 9, not {repetitions}"
        )));
    }
    Ok(x::RuleSet {
        repetition: match repetition {
            RepetitionRule::Asian => x::RepetitionRule::Asian,
            RepetitionRule::Casual => x::RepetitionRule::Casual,
        },
        repetitions,
        no_capture_plies,
    })
}

impl From<AnyRules> for Rules {
    fn from(r: AnyRules) -> Self {
        match r {
            AnyRules::Xiangqi(r) => Rules::Xiangqi {
                repetition: repetition_rule(r.repetition),
                repetitions: r.repetitions,
                no_capture_plies: r.no_capture_plies,
            },
            AnyRules::Jieqi(r) => Rules::Jieqi {
                repetition: repetition_rule(r.repetition),
                repetitions: r.repetitions,
                no_capture_plies: r.no_capture_plies,
            },
            AnyRules::Chess(r) => Rules::Chess {
                auto_claim: r.auto_claim,
            },
        }
    }
}

impl TryFrom<Rules> for AnyRules {
    type Error = BancoError;
    fn try_from(r: Rules) -> Result<Self, BancoError> {
        match r {
            Rules::Xiangqi {
                repetition,
                repetitions,
                no_capture_plies,
            } => Ok(AnyRules::Xiangqi(rule_set(
                repetition,
                repetitions,
                no_capture_plies,
            )?)),
            Rules::Jieqi {
                repetition,
                repetitions,
                no_capture_plies,
            } => Ok(AnyRules::Jieqi(rule_set(
                repetition,
                repetitions,
                no_capture_plies,
            )?)),
            Rules::Chess { auto_claim } => {
                Ok(AnyRules::Chess(banco_chess::ChessRules { auto_claim }))
            }
        }
    }
}
