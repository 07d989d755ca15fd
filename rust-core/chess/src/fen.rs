//! FEN: read with actionable errors, written in the form other programs expect.
//!
//! Read: the six standard fields — placement from rank 8 down, side to move (`w`/`b`),
//! castling rights, en-passant square, half-move clock, move number. Missing trailing
//! fields default to `w - - 0 1` (so an EPD-style four-field string reads). Castling
//! rights may be standard (`KQkq`), X-FEN (`K`/`Q` the outermost rook on that side, a file
//! letter otherwise) or Shredder-FEN (`HAha`, the rooks' files), so Chess960 positions
//! read. The position is checked beyond what cozy-chess checks, and every problem has its
//! own message: a rank with the wrong number of files, an unknown letter, a bad castling
//! field or en-passant square, a side with no king or two, pawns on the back rank, more
//! than 16 pieces or 8 pawns a side, the side not to move in check, three or more checkers.
//! The half-move clock may exceed 100 (the 75-move rule counts to 150).
//!
//! Written: standard castling letters (`KQkq`) in standard chess and Shredder-FEN file
//! letters (`HAha`) in Chess960 (castling rights given by rook files, or that need them,
//! make a game Chess960); the en-passant square only when an en-passant capture is
//! legal (as Stockfish writes it), so equal positions have equal FENs.
//!
//! ```
//! use banco_chess::{Chess, fen::FenError};
//! let game = Chess::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")?;
//! // No black pawn can take on e3, so the square is not written back.
//! assert_eq!(game.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
//!
//! let err = Chess::from_fen("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap_err();
//! assert_eq!(err.to_string(), "FEN rank 7 has 9 files, expected 8");
//! let err = Chess::from_fen("4k3/8/8/8/8/8/8/4K2R w Kk - 0 1").unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "FEN castling field `Kk`: black has no rook on rank 8 to the king's right for k"
//! );
//! # Ok::<(), FenError>(())
//! ```

use crate::role::{Role, color_to_cozy};
use crate::square;
use banco_game::Color;
use cozy_chess::{
    BitBoard, Board, BoardBuilder, CastleRights, File, Piece, Rank, Square, get_bishop_moves,
    get_king_moves, get_knight_moves, get_line_rays, get_pawn_attacks, get_rook_moves,
};

/// The standard start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// What is wrong with a FEN string. Ranks are numbered 1–8 as on the board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Nothing but white space.
    #[error("FEN is empty")]
    Empty,
    /// More than six fields.
    #[error(
        "FEN has {0} fields, expected at most 6 (placement, side, castling, en passant, half-move clock, move number)"
    )]
    TooManyFields(usize),
    /// The placement does not have eight ranks.
    #[error("FEN has {0} ranks, expected 8 separated by /")]
    RankCount(usize),
    /// A rank does not add up to eight files.
    #[error("FEN rank {rank} has {files} files, expected 8")]
    FileCount {
        /// Rank 1–8.
        rank: u8,
        /// Files counted.
        files: usize,
    },
    /// A character that is neither a piece letter nor a digit 1–8.
    #[error(
        "FEN rank {rank} has `{ch}`, which is not a piece letter (KQRBNP, lower case for black) or a digit 1-8"
    )]
    UnknownPiece {
        /// Rank 1–8.
        rank: u8,
        /// The character.
        ch: char,
    },
    /// The side-to-move field is not `w` or `b`.
    #[error("FEN side to move is `{0}`, expected w or b")]
    BadSide(String),
    /// A side has no king or more than one.
    #[error("FEN has {count} {side} kings, expected exactly one")]
    KingCount {
        /// `white` or `black`.
        side: &'static str,
        /// Kings found.
        count: u32,
    },
    /// A pawn on rank 1 or 8.
    #[error("FEN has a pawn on {0}; pawns never stand on rank 1 or 8")]
    PawnOnBackRank(String),
    /// More pieces or pawns than a game can have.
    #[error("FEN gives {side} {count} {what}, at most {max} are possible")]
    TooMany {
        /// `white` or `black`.
        side: &'static str,
        /// `pieces` or `pawns`.
        what: &'static str,
        /// How many.
        count: u32,
        /// The most a legal game allows.
        max: u32,
    },
    /// The castling field is wrong.
    #[error("FEN castling field `{field}`: {reason}")]
    BadCastling {
        /// The field as written.
        field: String,
        /// What is wrong, in words.
        reason: String,
    },
    /// The en-passant field is wrong.
    #[error("FEN en-passant field `{field}`: {reason}")]
    BadEnPassant {
        /// The field as written.
        field: String,
        /// What is wrong, in words.
        reason: String,
    },
    /// A counter is not a number in range.
    #[error("FEN {field} is `{value}`, expected a whole number from 0 to 65535")]
    BadCounter {
        /// `half-move clock` or `move number`.
        field: &'static str,
        /// What was there.
        value: String,
    },
    /// The side that just moved is in check.
    #[error(
        "FEN puts {checked} in check with {mover} to move; the side not to move cannot be in check"
    )]
    OpponentInCheck {
        /// The side in check.
        checked: &'static str,
        /// The side to move.
        mover: &'static str,
    },
    /// Three or more pieces give check.
    #[error("FEN has {side} in check from {count} pieces; no move gives more than two checks")]
    TooManyCheckers {
        /// The side in check.
        side: &'static str,
        /// Checkers.
        count: u32,
    },
    /// Two pieces give check from opposite sides of the king on one line.
    #[error(
        "FEN has {side} in check from {first} and {second}, on one line through the king; no move gives both checks"
    )]
    AlignedCheckers {
        /// The side in check.
        side: &'static str,
        /// The checkers' squares (`c6`).
        first: String,
        /// The other.
        second: String,
    },
    /// cozy-chess refused the position for a reason not covered above.
    #[error("FEN position is not possible: {0}")]
    Impossible(String),
}

/// A read FEN: the board, the full half-move clock (cozy-chess keeps at most 100) and
/// whether it is Chess960 (see [`parse`]).
#[derive(Clone, Debug)]
pub(crate) struct ParsedFen {
    pub(crate) board: Board,
    pub(crate) halfmoves: u16,
    pub(crate) chess960: bool,
}

/// `white` or `black`.
#[must_use]
pub(crate) const fn side_name(color: Color) -> &'static str {
    match color {
        Color::Red => "white",
        Color::Black => "black",
    }
}

pub(crate) type Placement = [Option<(Color, Role)>; 64];

pub(crate) fn parse_placement(text: &str) -> Result<Placement, FenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    let mut board: Placement = [None; 64];
    for (i, row) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut files = 0usize;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10).filter(|d| (1..=8).contains(d)) {
                files += d as usize;
            } else if let Some(piece) = Role::from_fen_char(ch) {
                if let Some(sq) = square::at(files as u8, rank).filter(|_| files < 8) {
                    board[usize::from(sq)] = Some(piece);
                }
                files += 1;
            } else {
                return Err(FenError::UnknownPiece { rank: rank + 1, ch });
            }
        }
        if files != 8 {
            return Err(FenError::FileCount {
                rank: rank + 1,
                files,
            });
        }
    }
    Ok(board)
}

fn bits(board: &Placement, want: impl Fn(Color, Role) -> bool) -> BitBoard {
    let mut b = BitBoard::EMPTY;
    for (i, p) in board.iter().enumerate() {
        if p.is_some_and(|(c, r)| want(c, r)) {
            b |= Square::ALL[i].bitboard();
        }
    }
    b
}

/// The pieces of `by` attacking `target` on `board`.
pub(crate) fn attackers(board: &Placement, target: Square, by: Color) -> BitBoard {
    let occupied = bits(board, |_, _| true);
    let of = |r: Role| bits(board, |c, rr| c == by && rr == r);
    let diag = of(Role::Bishop) | of(Role::Queen);
    let line = of(Role::Rook) | of(Role::Queen);
    (get_knight_moves(target) & of(Role::Knight))
        | (get_king_moves(target) & of(Role::King))
        | (get_pawn_attacks(target, color_to_cozy(by.other())) & of(Role::Pawn))
        | (get_bishop_moves(target, occupied) & diag)
        | (get_rook_moves(target, occupied) & line)
}

fn check_material(board: &Placement) -> Result<(), FenError> {
    for color in Color::ALL {
        let side = side_name(color);
        let kings = bits(board, |c, r| c == color && r == Role::King).len();
        if kings != 1 {
            return Err(FenError::KingCount { side, count: kings });
        }
        let pieces = bits(board, |c, _| c == color).len();
        if pieces > 16 {
            return Err(FenError::TooMany {
                side,
                what: "pieces",
                count: pieces,
                max: 16,
            });
        }
        let pawns = bits(board, |c, r| c == color && r == Role::Pawn).len();
        if pawns > 8 {
            return Err(FenError::TooMany {
                side,
                what: "pawns",
                count: pawns,
                max: 8,
            });
        }
    }
    let back = Rank::First.bitboard() | Rank::Eighth.bitboard();
    if let Some(sq) = (bits(board, |_, r| r == Role::Pawn) & back).next_square() {
        return Err(FenError::PawnOnBackRank(sq.to_string()));
    }
    Ok(())
}

pub(crate) fn king_square(board: &Placement, color: Color) -> Option<Square> {
    bits(board, |c, r| c == color && r == Role::King).next_square()
}

/// Two checkers on one line through `king` (on its two sides): no move gives both checks,
/// for the piece that moved would have had to uncover the other along that line, through
/// the king's own square.
pub(crate) fn aligned_checkers(checkers: BitBoard, king: Square) -> Option<(Square, Square)> {
    let mut it = checkers.into_iter();
    match (it.next(), it.next(), it.next()) {
        (Some(a), Some(b), None) if get_line_rays(a, b).has(king) => Some((a, b)),
        _ => None,
    }
}

fn check_checks(board: &Placement, turn: Color) -> Result<(), FenError> {
    let waiting = turn.other();
    if king_square(board, waiting).is_some_and(|k| !attackers(board, k, turn).is_empty()) {
        return Err(FenError::OpponentInCheck {
            checked: side_name(waiting),
            mover: side_name(turn),
        });
    }
    if let Some(k) = king_square(board, turn) {
        let checkers = attackers(board, k, waiting);
        let n = checkers.len();
        if n > 2 {
            return Err(FenError::TooManyCheckers {
                side: side_name(turn),
                count: n,
            });
        }
        if let Some((a, b)) = aligned_checkers(checkers, k) {
            return Err(FenError::AlignedCheckers {
                side: side_name(turn),
                first: a.to_string(),
                second: b.to_string(),
            });
        }
    }
    Ok(())
}

/// Reads the castling field into rights per colour (index 0 White).
fn parse_castling(field: &str, board: &Placement) -> Result<[CastleRights; 2], FenError> {
    let err = |reason: String| FenError::BadCastling {
        field: field.to_owned(),
        reason,
    };
    let mut rights = [CastleRights::EMPTY; 2];
    if field == "-" {
        return Ok(rights);
    }
    for ch in field.chars() {
        let color = if ch.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        let side = side_name(color);
        let back = if color == Color::Red { 0u8 } else { 7 };
        let rook_files: Vec<u8> = (0..8u8)
            .filter(|&f| {
                square::at(f, back)
                    .and_then(|sq| board[usize::from(sq)])
                    .is_some_and(|p| p == (color, Role::Rook))
            })
            .collect();
        let king = king_square(board, color).map(square::from_cozy);
        let king_file = match king {
            Some(k) if square::rank(k) == back => square::file(k),
            _ => {
                return Err(err(format!(
                    "{ch} needs the {side} king on rank {}, and it is not there",
                    back + 1
                )));
            }
        };
        let (short, file) = match ch.to_ascii_lowercase() {
            'k' => {
                let f = rook_files.iter().copied().filter(|&f| f > king_file).max();
                let f = f.ok_or_else(|| {
                    err(format!(
                        "{side} has no rook on rank {} to the king's right for {ch}",
                        back + 1
                    ))
                })?;
                (true, f)
            }
            'q' => {
                let f = rook_files.iter().copied().filter(|&f| f < king_file).min();
                let f = f.ok_or_else(|| {
                    err(format!(
                        "{side} has no rook on rank {} to the king's left for {ch}",
                        back + 1
                    ))
                })?;
                (false, f)
            }
            l @ 'a'..='h' => {
                let f = l as u8 - b'a';
                if !rook_files.contains(&f) {
                    return Err(err(format!(
                        "{ch} names a {side} rook on {}{}, and there is none",
                        l,
                        back + 1
                    )));
                }
                if f == king_file {
                    return Err(err(format!("{ch} names the {side} king's own file")));
                }
                (f > king_file, f)
            }
            _ => {
                return Err(err(format!(
                    "`{ch}` is not a castling letter: use K, Q, k, q, rook files (A-H, a-h) or -"
                )));
            }
        };
        let r = &mut rights[color.index()];
        let slot = if short { &mut r.short } else { &mut r.long };
        if slot.is_some() {
            let wing = if short { "king" } else { "queen" };
            return Err(err(format!("{side}'s {wing}-side right is given twice")));
        }
        *slot = Some(square::cozy_file(file));
    }
    Ok(rights)
}

fn parse_en_passant(
    field: &str,
    board: &Placement,
    turn: Color,
) -> Result<Option<Square>, FenError> {
    if field == "-" {
        return Ok(None);
    }
    let err = |reason: String| FenError::BadEnPassant {
        field: field.to_owned(),
        reason,
    };
    let sq = square::parse(field).ok_or_else(|| err("not a square like e3 or -".to_owned()))?;
    let (want_rank, step): (u8, i8) = if turn == Color::Red { (5, -1) } else { (2, 1) };
    if square::rank(sq) != want_rank {
        return Err(err(format!(
            "with {} to move an en-passant square is on rank {}",
            side_name(turn),
            want_rank + 1
        )));
    }
    let file = square::file(sq);
    let pawn_sq = square::at(file, (want_rank as i8 + step) as u8);
    let from_sq = square::at(file, (want_rank as i8 - step) as u8);
    let mover = turn.other();
    let at = |s: Option<u8>| s.and_then(|s| board[usize::from(s)]);
    if at(pawn_sq) != Some((mover, Role::Pawn)) {
        return Err(err(format!(
            "no {} pawn on {} that could just have moved two squares",
            side_name(mover),
            pawn_sq.map(square::name).unwrap_or_default()
        )));
    }
    if at(Some(sq)).is_some() || at(from_sq).is_some() {
        return Err(err(format!(
            "{} and {} must be empty after a two-square pawn move",
            square::name(sq),
            from_sq.map(square::name).unwrap_or_default()
        )));
    }
    Ok(Some(square::to_cozy(sq)))
}

fn parse_counter(field: &'static str, value: &str) -> Result<u16, FenError> {
    value.parse().map_err(|_| FenError::BadCounter {
        field,
        value: value.to_owned(),
    })
}

/// Reads and validates a FEN. It is Chess960 when the castling rights are given by rook
/// files (Shredder-FEN) or need Chess960 (a king off the e-file or a castling rook off the
/// a/h-files).
pub(crate) fn parse(text: &str) -> Result<ParsedFen, FenError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() > 6 {
        return Err(FenError::TooManyFields(fields.len()));
    }
    let placement = parse_placement(fields.first().ok_or(FenError::Empty)?)?;
    let turn = match fields.get(1).copied() {
        None | Some("w" | "W") => Color::Red,
        Some("b" | "B") => Color::Black,
        Some(other) => return Err(FenError::BadSide(other.to_owned())),
    };
    check_material(&placement)?;
    let castling = parse_castling(fields.get(2).copied().unwrap_or("-"), &placement)?;
    let ep = parse_en_passant(fields.get(3).copied().unwrap_or("-"), &placement, turn)?;
    let halfmoves = match fields.get(4) {
        Some(v) => parse_counter("half-move clock", v)?,
        None => 0,
    };
    let fullmoves = match fields.get(5) {
        Some(v) => parse_counter("move number", v)?.max(1),
        None => 1,
    };
    check_checks(&placement, turn)?;

    let mut builder = BoardBuilder::empty();
    for (i, p) in placement.iter().enumerate() {
        *builder.square_mut(Square::ALL[i]) = p.map(|(c, r)| (r.to_cozy(), color_to_cozy(c)));
    }
    builder.side_to_move = color_to_cozy(turn);
    builder.castle_rights = castling;
    builder.en_passant = ep;
    builder.halfmove_clock = halfmoves.min(100) as u8;
    builder.fullmove_number = fullmoves;
    let board = builder.build().map_err(|e| match e {
        cozy_chess::BoardBuilderError::InvalidEnPassant => FenError::BadEnPassant {
            field: fields.get(3).copied().unwrap_or("-").to_owned(),
            reason: "no two-square pawn move could have led to the checks in this position"
                .to_owned(),
        },
        other => FenError::Impossible(other.to_string()),
    })?;
    let shredder = fields
        .get(2)
        .is_some_and(|f| f.chars().any(|c| !matches!(c, 'K' | 'Q' | 'k' | 'q' | '-')));
    let chess960 = shredder || needs_chess960(&board);
    Ok(ParsedFen {
        board,
        halfmoves,
        chess960,
    })
}

/// True if some castling right of `board` cannot be written in standard notation: its
/// king is not on the e-file or its rook is not on the a- or h-file.
pub(crate) fn needs_chess960(board: &Board) -> bool {
    [cozy_chess::Color::White, cozy_chess::Color::Black]
        .into_iter()
        .any(|c| {
            let r = board.castle_rights(c);
            let any = r.short.is_some() || r.long.is_some();
            any && (board.king(c).file() != File::E
                || r.short.is_some_and(|f| f != File::H)
                || r.long.is_some_and(|f| f != File::A))
        })
}

/// The en-passant file of `board` if an en-passant capture is legal there (the square
/// matters for repetitions and FEN only then).
#[must_use]
pub(crate) fn capturable_ep(board: &Board) -> Option<File> {
    let file = board.en_passant()?;
    let color = board.side_to_move();
    let to = Square::new(file, Rank::Sixth.relative_to(color));
    let pawns = board.colored_pieces(color, Piece::Pawn);
    (get_pawn_attacks(to, !color) & pawns)
        .into_iter()
        .any(|from| {
            board.is_legal(cozy_chess::Move {
                from,
                to,
                promotion: None,
            })
        })
        .then_some(file)
}

/// The FEN of `board` with the half-move clock `halfmoves` (see the module docs).
#[must_use]
pub(crate) fn write(board: &Board, halfmoves: u16, chess960: bool) -> String {
    let mut s = String::with_capacity(90);
    for rank in (0..8u8).rev() {
        let mut empty = 0u8;
        for file in 0..8u8 {
            let sq = Square::new(square::cozy_file(file), square::cozy_rank(rank));
            match (board.piece_on(sq), board.color_on(sq)) {
                (Some(p), Some(c)) => {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push(Role::from_cozy(p).fen_char(crate::role::color_from_cozy(c)));
                }
                _ => empty += 1,
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s.push(' ');
    s.push(if board.side_to_move() == cozy_chess::Color::White {
        'w'
    } else {
        'b'
    });
    s.push(' ');
    let mut any = false;
    for c in [cozy_chess::Color::White, cozy_chess::Color::Black] {
        let r = board.castle_rights(c);
        for (file, letter) in [(r.short, 'k'), (r.long, 'q')] {
            if let Some(f) = file {
                let ch = if chess960 {
                    char::from(b'a' + f as u8)
                } else {
                    letter
                };
                s.push(if c == cozy_chess::Color::White {
                    ch.to_ascii_uppercase()
                } else {
                    ch
                });
                any = true;
            }
        }
    }
    if !any {
        s.push('-');
    }
    s.push(' ');
    match capturable_ep(board) {
        Some(f) => {
            let rank = Rank::Sixth.relative_to(board.side_to_move());
            s.push_str(&Square::new(f, rank).to_string());
        }
        None => s.push('-'),
    }
    s.push(' ');
    s.push_str(&halfmoves.to_string());
    s.push(' ');
    s.push_str(&board.fullmove_number().to_string());
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse(text).map(|_| ()).unwrap_err().to_string()
    }

    #[test]
    fn start_round_trips() {
        let p = parse(START_FEN).unwrap();
        assert!(!p.chess960);
        assert_eq!(write(&p.board, p.halfmoves, false), START_FEN);
        assert_eq!(p.board, Board::default());
    }

    #[test]
    fn short_fens_default_the_rest() {
        let p = parse("4k3/8/8/8/8/8/8/4K3").unwrap();
        assert_eq!(
            write(&p.board, p.halfmoves, false),
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
        );
        let p = parse("4k3/8/8/8/8/8/8/4K3 b - - 140 90").unwrap();
        assert_eq!(p.halfmoves, 140);
        assert_eq!(p.board.halfmove_clock(), 100);
    }

    #[test]
    fn messages() {
        assert_eq!(err(""), "FEN is empty");
        assert_eq!(
            err("8/8/8/8/8/8/8 w - - 0 1"),
            "FEN has 7 ranks, expected 8 separated by /"
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K4 w - - 0 1"),
            "FEN rank 1 has 9 files, expected 8"
        );
        assert_eq!(
            err("4k3/8/8/8/3X4/8/8/4K3 w - - 0 1"),
            "FEN rank 4 has `X`, which is not a piece letter (KQRBNP, lower case for black) or a digit 1-8"
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 x - - 0 1"),
            "FEN side to move is `x`, expected w or b"
        );
        assert_eq!(
            err("8/8/8/8/8/8/8/4K3 w - - 0 1"),
            "FEN has 0 black kings, expected exactly one"
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/3KK3 w - - 0 1"),
            "FEN has 2 white kings, expected exactly one"
        );
        assert_eq!(
            err("4k2P/8/8/8/8/8/8/4K3 w - - 0 1"),
            "FEN has a pawn on h8; pawns never stand on rank 1 or 8"
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/P3K3 w - - 0 1"),
            "FEN has a pawn on a1; pawns never stand on rank 1 or 8"
        );
        assert_eq!(
            err("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1"),
            "FEN gives white 9 pawns, at most 8 are possible"
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K2R w X - 0 1"),
            "FEN castling field `X`: `X` is not a castling letter: use K, Q, k, q, rook files (A-H, a-h) or -"
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/4K3/7R w K - 0 1"),
            "FEN castling field `K`: K needs the white king on rank 1, and it is not there"
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K2R w KK - 0 1"),
            "FEN castling field `KK`: white's king-side right is given twice"
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K2R w G - 0 1"),
            "FEN castling field `G`: G names a white rook on g1, and there is none"
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K2R w - e6 0 1"),
            "FEN en-passant field `e6`: no black pawn on e5 that could just have moved two squares"
        );
        assert_eq!(
            err("4k3/8/8/8/4P3/8/8/4K3 b - e4 0 1"),
            "FEN en-passant field `e4`: with black to move an en-passant square is on rank 3"
        );
        assert_eq!(
            err("4k3/8/8/8/4P3/8/4B3/4K3 b - e3 0 1"),
            "FEN en-passant field `e3`: e3 and e2 must be empty after a two-square pawn move"
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 w - zz 0 1"),
            "FEN en-passant field `zz`: not a square like e3 or -"
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 w - - x 1"),
            "FEN half-move clock is `x`, expected a whole number from 0 to 65535"
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K2R b - - 0 1 extra"),
            "FEN has 7 fields, expected at most 6 (placement, side, castling, en passant, half-move clock, move number)"
        );
        assert_eq!(
            err("4k2R/8/8/8/8/8/8/4K3 w - - 0 1"),
            "FEN puts black in check with white to move; the side not to move cannot be in check"
        );
        assert_eq!(
            err("4k3/8/5N2/8/2pP4/8/8/4K3 b - d3 0 1"),
            "FEN en-passant field `d3`: no two-square pawn move could have led to the checks in this position"
        );
        assert_eq!(
            err("4k3/8/8/8/1b6/3n4/8/r3K3 w - - 0 1"),
            "FEN has white in check from 3 pieces; no move gives more than two checks"
        );
        // A rook above and a queen below the king on its file: no last move gives both.
        assert_eq!(
            err("4k3/8/2r5/2K5/8/8/8/2q5 w - - 0 1"),
            "FEN has white in check from c1 and c6, on one line through the king; no move gives both checks"
        );
        // Two checks on two lines are a discovered double check: fine.
        assert!(parse("4k3/8/2r5/2K5/8/4b3/8/8 w - - 0 1").is_ok());
    }

    #[test]
    fn shredder_and_x_fen_castling() {
        // A Chess960 start: king on b1, rooks on a1 and c1.
        let fen = "rkrnbbqn/pppppppp/8/8/8/8/PPPPPPPP/RKRNBBQN w CAca - 0 1";
        let p = parse(fen).unwrap();
        assert!(p.chess960);
        assert_eq!(write(&p.board, 0, true), fen);
        // The same rights in X-FEN.
        let x = parse("rkrnbbqn/pppppppp/8/8/8/8/PPPPPPPP/RKRNBBQN w KQkq - 0 1").unwrap();
        assert_eq!(x.board, p.board);
        // Rook files mark Chess960, even for the standard setup (Chess960 number 518).
        let s = parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1").unwrap();
        assert!(s.chess960);
        assert_eq!(s.board, Board::default());
        assert!(!parse(START_FEN).unwrap().chess960);
    }
}
