//! Standard algebraic notation (SAN): written the standard way, read the way people type.
//!
//! Written ([`SanPlus::from_move`], [`Chess::san`](crate::Chess::san)): piece letter, the
//! least disambiguation that works (file, else rank, else both), `x` for captures, the
//! square, `=Q` for promotions, `O-O` / `O-O-O` for castling (Chess960 too), and `+` or `#`.
//!
//! Read ([`San`]'s `FromStr`, then [`San::to_move`]): besides canonical SAN, `0-0` and
//! `o-o`, `e8Q`, `e8=q`, `e8/Q` and `e8(Q)`, trailing `+`, `#`, `!`, `?` and `e.p.`,
//! long forms (`Ng1f3`, `Ng1-f3`, `Qh4xe1`, `e2e4`, `e2-e4`), `:` for `x`, a missing or
//! surplus `x`, lower-case piece letters (`nf3`) and a lower-case `b` that is a pawn file
//! (`bxc3`) unless only a bishop move fits (`bc4` with a bishop that can go there and no
//! b-pawn that can). Parsing checks the syntax only; [`San::to_move`] finds the legal move
//! and says when none or several fit.
//!
//! ```
//! use banco_chess::{Chess, IllegalMove, san::San};
//! let game = Chess::from_fen("4k3/8/8/8/8/8/4K3/R6R w - - 0 1")?;
//! let mv = "Rad1".parse::<San>()?.to_move(&game)?;
//! assert_eq!(game.san(mv), "Rad1");
//! let err = "Rd1".parse::<San>()?.to_move(&game).unwrap_err();
//! assert_eq!(err.to_string(), "Rd1 is ambiguous: Rad1, Rhd1 fit; say which");
//! let game = Chess::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")?;
//! assert_eq!(game.san("0-0".parse::<San>()?.to_move(&game)?), "O-O");
//! assert!("Xe4".parse::<San>().is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::error::IllegalMove;
use crate::game::Chess;
use crate::moves::ChessMove;
use crate::role::{Promotion, Role};
use crate::square;
use banco_game::{Game, MoveList};
use core::fmt;
use core::str::FromStr;

/// A move in SAN, not yet checked against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum San {
    /// Castling, king side (`O-O`) or queen side (`O-O-O`).
    Castle {
        /// Queen side.
        long: bool,
    },
    /// Any other move.
    Normal {
        /// The moving piece.
        role: Role,
        /// The from-square's file (0..8), if given.
        file: Option<u8>,
        /// The from-square's rank (0..8), if given.
        rank: Option<u8>,
        /// Written as a capture (not checked when reading).
        capture: bool,
        /// The to-square.
        to: u8,
        /// The promotion piece, if any.
        promotion: Option<Promotion>,
    },
}

/// The check mark after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `+`
    Check,
    /// `#`
    Mate,
}

/// SAN with its check or mate mark, as written for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SanPlus {
    /// The move.
    pub san: San,
    /// `+`, `#` or nothing.
    pub suffix: Option<Suffix>,
}

/// Text that is not SAN.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseSanError {
    /// Nothing to read.
    #[error("the move is empty")]
    Empty,
    /// A letter that names no piece.
    #[error("`{ch}` in `{text}` is not a piece letter: use K, Q, R, B or N (nothing for a pawn)")]
    UnknownPiece {
        /// The text.
        text: String,
        /// The letter.
        ch: char,
    },
    /// No square at the end of the move.
    #[error("`{text}` does not end in a square like e4 (found `{found}`)")]
    BadSquare {
        /// The text.
        text: String,
        /// What stands where the square should.
        found: String,
    },
    /// A promotion to a king or pawn.
    #[error("`{text}` promotes to `{ch}`: a pawn becomes Q, R, B or N")]
    BadPromotion {
        /// The text.
        text: String,
        /// The letter.
        ch: char,
    },
    /// Something else out of place.
    #[error("`{text}` is not a move in SAN (like e4, Nf3, exd5, e8=Q or O-O)")]
    Syntax {
        /// The text.
        text: String,
    },
}

/// Strips check marks, annotations and `e.p.`; says whether a mark was `#` or `+`.
fn strip_suffixes(text: &str) -> (&str, Option<Suffix>) {
    let mut t = text.trim();
    let mut suffix = None;
    loop {
        let before = t.len();
        if let Some(rest) = t.strip_suffix("e.p.").or_else(|| t.strip_suffix("ep")) {
            t = rest.trim_end();
        }
        if let Some(rest) = t.strip_suffix('#') {
            suffix = Some(Suffix::Mate);
            t = rest;
        } else if let Some(rest) = t.strip_suffix('+') {
            suffix = suffix.or(Some(Suffix::Check));
            t = rest;
        } else if let Some(rest) = t.strip_suffix(['!', '?']) {
            t = rest;
        }
        t = t.trim_end();
        if t.len() == before {
            return (t, suffix);
        }
    }
}

impl FromStr for San {
    type Err = ParseSanError;
    fn from_str(s: &str) -> Result<San, ParseSanError> {
        s.parse::<SanPlus>().map(|p| p.san)
    }
}

impl FromStr for SanPlus {
    type Err = ParseSanError;
    fn from_str(s: &str) -> Result<SanPlus, ParseSanError> {
        let (t, suffix) = strip_suffixes(s);
        if t.is_empty() {
            return Err(ParseSanError::Empty);
        }
        let syntax = || ParseSanError::Syntax { text: s.to_owned() };
        let castle: String = t
            .chars()
            .filter(|&c| c != '-')
            .map(|c| if matches!(c, '0' | 'o') { 'O' } else { c })
            .collect();
        match castle.as_str() {
            "OO" => {
                return Ok(SanPlus {
                    san: San::Castle { long: false },
                    suffix,
                });
            }
            "OOO" => {
                return Ok(SanPlus {
                    san: San::Castle { long: true },
                    suffix,
                });
            }
            _ => {}
        }
        let mut chars: Vec<char> = t.chars().filter(|&c| c != '-').collect();

        // Promotion: a piece letter after the rank digit, maybe after `=`, `/` or `(`.
        let mut promotion = None;
        if chars.last() == Some(&')') {
            chars.pop();
        }
        if let Some(&last) = chars.last().filter(|c| c.is_ascii_alphabetic()) {
            let mut i = chars.len() - 1;
            while i > 0 && matches!(chars[i - 1], '=' | '/' | '(') {
                i -= 1;
            }
            if i > 0 && chars[i - 1].is_ascii_digit() {
                promotion = Some(Promotion::from_char(last).ok_or_else(|| {
                    if Role::from_fen_char(last).is_some() {
                        ParseSanError::BadPromotion {
                            text: s.to_owned(),
                            ch: last,
                        }
                    } else {
                        ParseSanError::UnknownPiece {
                            text: s.to_owned(),
                            ch: last,
                        }
                    }
                })?);
                chars.truncate(i);
            }
        }

        // The destination square.
        if chars.len() < 2 {
            return Err(ParseSanError::BadSquare {
                text: s.to_owned(),
                found: chars.iter().collect(),
            });
        }
        let dest: String = chars[chars.len() - 2..].iter().collect();
        let to = square::parse(&dest).ok_or_else(|| ParseSanError::BadSquare {
            text: s.to_owned(),
            found: dest.clone(),
        })?;
        let prefix = &chars[..chars.len() - 2];

        // The piece, then file, rank and capture mark.
        let mut rest = prefix;
        let mut role = Role::Pawn;
        let mut file = None;
        if let Some((&first, tail)) = prefix.split_first() {
            match first {
                'K' | 'Q' | 'R' | 'B' | 'N' | 'P' | 'k' | 'q' | 'r' | 'n' | 'p' => {
                    role = Role::from_fen_char(first).map_or(Role::Pawn, |(_, r)| r);
                    rest = tail;
                }
                'a'..='h' => {}
                c if c.is_alphabetic() => {
                    return Err(ParseSanError::UnknownPiece {
                        text: s.to_owned(),
                        ch: c,
                    });
                }
                _ => return Err(syntax()),
            }
        }
        let mut rank = None;
        let mut capture = false;
        let mut stage = 0;
        for &c in rest {
            match c {
                'a'..='h' if stage == 0 => {
                    file = Some(c as u8 - b'a');
                    stage = 1;
                }
                '1'..='8' if stage <= 1 => {
                    rank = Some(c as u8 - b'1');
                    stage = 2;
                }
                'x' | 'X' | ':' if stage <= 2 => {
                    capture = true;
                    stage = 3;
                }
                _ => return Err(syntax()),
            }
        }
        Ok(SanPlus {
            san: San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            },
            suffix,
        })
    }
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            San::Castle { long: false } => f.write_str("O-O"),
            San::Castle { long: true } => f.write_str("O-O-O"),
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    write!(f, "{}", role.letter())?;
                }
                if let Some(file) = file {
                    write!(f, "{}", char::from(b'a' + file))?;
                }
                if let Some(rank) = rank {
                    write!(f, "{}", char::from(b'1' + rank))?;
                }
                if capture {
                    f.write_str("x")?;
                }
                f.write_str(&square::name(to))?;
                if let Some(p) = promotion {
                    write!(f, "={}", p.role().letter())?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for SanPlus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.san)?;
        match self.suffix {
            Some(Suffix::Check) => f.write_str("+"),
            Some(Suffix::Mate) => f.write_str("#"),
            None => Ok(()),
        }
    }
}

fn legal(game: &Chess) -> MoveList<ChessMove> {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    moves
}

fn role_at(game: &Chess, sq: u8) -> Option<Role> {
    game.piece_at(sq).map(|(_, r)| r)
}

impl San {
    /// The SAN of `mv` in `game`, without check mark (see [`SanPlus::from_move`]).
    #[must_use]
    pub fn from_move(game: &Chess, mv: ChessMove) -> San {
        if game.is_castling(mv) {
            return San::Castle {
                long: mv.to() < mv.from(),
            };
        }
        let role = role_at(game, mv.from()).unwrap_or(Role::Pawn);
        let capture = game.is_capture(mv);
        let (mut file, mut rank) = (None, None);
        if role == Role::Pawn {
            if capture {
                file = Some(square::file(mv.from()));
            }
        } else if role != Role::King {
            let rivals: Vec<u8> = legal(game)
                .iter()
                .filter(|m| {
                    m.to() == mv.to()
                        && m.from() != mv.from()
                        && role_at(game, m.from()) == Some(role)
                        && !game.is_castling(**m)
                })
                .map(|m| m.from())
                .collect();
            if !rivals.is_empty() {
                let (ff, fr) = (square::file(mv.from()), square::rank(mv.from()));
                if rivals.iter().all(|&r| square::file(r) != ff) {
                    file = Some(ff);
                } else if rivals.iter().all(|&r| square::rank(r) != fr) {
                    rank = Some(fr);
                } else {
                    file = Some(ff);
                    rank = Some(fr);
                }
            }
        }
        San::Normal {
            role,
            file,
            rank,
            capture,
            to: mv.to(),
            promotion: mv.promotion(),
        }
    }

    /// The legal move this names in `game`.
    pub fn to_move(self, game: &Chess) -> Result<ChessMove, IllegalMove> {
        let text = self.to_string();
        let moves = legal(game);
        let (role, file, rank, to, promotion) = match self {
            San::Normal {
                role,
                file,
                rank,
                to,
                promotion,
                ..
            } => (role, file, rank, to, promotion),
            San::Castle { long } => {
                return moves
                    .iter()
                    .copied()
                    .find(|&m| game.is_castling(m) && (m.to() < m.from()) == long)
                    .ok_or_else(|| IllegalMove::NoSuchMove {
                        text,
                        reason: format!(
                            "castling {}-side is not possible now",
                            if long { "queen" } else { "king" }
                        ),
                    });
            }
        };
        let fits = |m: &ChessMove, role: Role, file: Option<u8>, promo: bool| {
            m.to() == to
                && role_at(game, m.from()) == Some(role)
                && !game.is_castling(*m)
                && file.is_none_or(|f| square::file(m.from()) == f)
                && rank.is_none_or(|r| square::rank(m.from()) == r)
                && (!promo || m.promotion() == promotion)
        };
        let mut found: Vec<ChessMove> = moves
            .iter()
            .copied()
            .filter(|m| fits(m, role, file, true))
            .collect();
        if role == Role::Pawn && file.is_none() && found.len() > 1 {
            // A pawn move without a file is a push.
            found.retain(|m| square::file(m.from()) == square::file(to));
        }
        if found.is_empty() && role == Role::Pawn && file == Some(1) && rank.is_none() {
            // `bc4`: a lower-case bishop.
            found = moves
                .iter()
                .copied()
                .filter(|m| fits(m, Role::Bishop, None, true))
                .collect();
        }
        match found.as_slice() {
            [one] => Ok(*one),
            [] => {
                let any_promo = moves.iter().any(|m| fits(m, role, file, false));
                Err(match promotion {
                    None if any_promo => IllegalMove::PromotionNeeded { text },
                    Some(_) if any_promo => IllegalMove::NotAPromotion { text },
                    _ => IllegalMove::NoSuchMove {
                        reason: castling_reason(game, moves.iter().copied(), role, to)
                            .or_else(|| pinned_reason(game, role, file, rank, to))
                            .unwrap_or_else(|| {
                                format!("no {} can go to {}", role.name(), square::name(to))
                            }),
                        text,
                    },
                })
            }
            many => Err(IllegalMove::Ambiguous {
                text,
                candidates: many
                    .iter()
                    .map(|&m| San::from_move(game, m).to_string())
                    .collect(),
            }),
        }
    }
}

/// When a king move to `to` is a legal castling written as a king move (`Kc1`, `Kg1`, or
/// in Chess960 `Kxg1` onto its own rook): how to write it.
fn castling_reason(
    game: &Chess,
    mut moves: impl Iterator<Item = ChessMove>,
    role: Role,
    to: u8,
) -> Option<String> {
    if role != Role::King {
        return None;
    }
    moves.find_map(|m| {
        let long = m.to() < m.from();
        let lands = square::rank(m.from()) * 8 + if long { 2 } else { 6 };
        (game.is_castling(m) && (m.to() == to || lands == to)).then(|| {
            format!(
                "castling is written {} (or {} as a coordinate move)",
                if long { "O-O-O" } else { "O-O" },
                crate::uci::Uci::from_move(game, m)
            )
        })
    })
}

/// When a piece of the mover's `role` (on `file`/`rank` if named) could reach `to` but
/// only by leaving its king in check: why, as the coordinate move says it ("the knight on
/// e4 cannot go to d2: it would leave your king in check").
fn pinned_reason(
    game: &Chess,
    role: Role,
    file: Option<u8>,
    rank: Option<u8>,
    to: u8,
) -> Option<String> {
    let side = game.side_to_move();
    (0..64u8)
        .filter(|&from| {
            game.piece_at(from) == Some((side, role))
                && file.is_none_or(|f| square::file(from) == f)
                && rank.is_none_or(|r| square::rank(from) == r)
        })
        .find_map(|from| {
            let why = game.why_illegal(from, to);
            (why.contains("king is in check") || why.contains("leave your king in check")).then(
                || {
                    format!(
                        "the {} on {} cannot go to {}: {why}",
                        role.name(),
                        square::name(from),
                        square::name(to)
                    )
                },
            )
        })
}

impl SanPlus {
    /// The SAN of `mv` in `game` with `+` or `#` (no mark for an illegal move).
    #[must_use]
    pub fn from_move(game: &Chess, mv: ChessMove) -> SanPlus {
        let san = San::from_move(game, mv);
        let mut suffix = None;
        if game.is_legal(mv) {
            let mut after = game.board().clone();
            after.play_unchecked(mv.to_cozy());
            if !after.checkers().is_empty() {
                suffix = Some(if after.generate_moves(|_| true) {
                    Suffix::Check
                } else {
                    Suffix::Mate
                });
            }
        }
        SanPlus { san, suffix }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(fen: &str, text: &str) -> Result<String, String> {
        let game = Chess::from_fen(fen).unwrap();
        let san: San = text.parse().map_err(|e: ParseSanError| e.to_string())?;
        san.to_move(&game)
            .map(|m| game.san(m))
            .map_err(|e| e.to_string())
    }

    const START: &str = crate::fen::START_FEN;

    #[test]
    fn what_people_type() {
        let ok = |fen: &str, text: &str, want: &str| {
            assert_eq!(resolve(fen, text), Ok(want.to_owned()), "{text}");
        };
        ok(START, "e4", "e4");
        ok(START, "Nf3", "Nf3");
        ok(START, "nf3", "Nf3");
        ok(START, "Ng1f3", "Nf3");
        ok(START, "Ng1-f3", "Nf3");
        ok(START, "e2e4", "e4");
        ok(START, "e2-e4!?", "e4");
        ok(START, "Pe4", "e4");
        let sicilian = "rnbqkbnr/pp1ppppp/8/2p5/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2";
        ok(sicilian, "dxc5", "dxc5");
        ok(sicilian, "d:c5", "dxc5");
        ok(sicilian, "dc5", "dxc5");
        ok(sicilian, "d5", "d5");
        let promo = "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1";
        ok(promo, "a8=Q", "a8=Q");
        ok(promo, "a8Q", "a8=Q");
        ok(promo, "a8q", "a8=Q");
        ok(promo, "a8(N)", "a8=N");
        ok(promo, "axb8=R+", "axb8=R+");
        ok(promo, "ab8/B", "axb8=B");
        let castles = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        ok(castles, "O-O", "O-O");
        ok(castles, "0-0", "O-O");
        ok(castles, "o-o-o", "O-O-O");
        ok(castles, "O-O-O+", "O-O-O");
        // Lower-case b: a pawn when a pawn fits, else a bishop.
        let bs = "4k3/8/8/8/8/2p5/1P6/4KB2 w - - 0 1";
        ok(bs, "bxc3", "bxc3");
        ok(bs, "bc3", "bxc3");
        ok(bs, "bc4", "Bc4");
        ok(bs, "Bc4", "Bc4");
        // Long forms with both squares.
        let queens = "4k3/8/8/8/7Q/8/8/K6Q w - - 0 1";
        ok(queens, "Qh4xe1", "Q4e1+");
        ok(queens, "Qh4e1", "Q4e1+");
        ok(queens, "Q1e1", "Q1e1+");
    }

    #[test]
    fn errors() {
        let err = |fen: &str, text: &str, want: &str| {
            assert_eq!(resolve(fen, text), Err(want.to_owned()), "{text}");
        };
        err(START, "", "the move is empty");
        err(
            START,
            "Xe4",
            "`X` in `Xe4` is not a piece letter: use K, Q, R, B or N (nothing for a pawn)",
        );
        err(
            START,
            "Ne9",
            "`Ne9` does not end in a square like e4 (found `e9`)",
        );
        err(
            START,
            "e8=K",
            "`e8=K` promotes to `K`: a pawn becomes Q, R, B or N",
        );
        err(
            START,
            "Nxxf3",
            "`Nxxf3` is not a move in SAN (like e4, Nf3, exd5, e8=Q or O-O)",
        );
        err(
            START,
            "Nf4",
            "Nf4 is not a legal move here: no knight can go to f4",
        );
        err(
            START,
            "O-O",
            "O-O is not a legal move here: castling king-side is not possible now",
        );
        // Castling written as a king move is told how castling is written (it read
        // "castling is not possible now" while O-O-O was legal).
        let both = "7k/7p/8/8/8/8/8/R3K2R w KQ - 0 1";
        err(
            both,
            "Kc1",
            "Kc1 is not a legal move here: castling is written O-O-O (or e1c1 as a coordinate move)",
        );
        err(
            both,
            "Kg1",
            "Kg1 is not a legal move here: castling is written O-O (or e1g1 as a coordinate move)",
        );
        let c960 = "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w GBgb - 0 1";
        for text in ["Kg1", "Kxg1"] {
            let msg = resolve(c960, text).unwrap_err();
            assert!(msg.contains("castling is written O-O (or "), "{msg}");
        }
        // Without the rights, the coordinate move's reason.
        err(
            "7k/7p/8/8/8/8/8/R3K2R w - - 0 1",
            "Kc1",
            "Kc1 is not a legal move here: the king on e1 cannot go to c1: castling is not possible now (the right is lost, a square between is occupied or attacked, or the king is in check)",
        );
        // A pinned piece is named with the reason, as the coordinate move gives it.
        err(
            "k3r3/8/8/8/2N1N3/8/8/4K3 w - - 0 1",
            "Ned2",
            "Ned2 is not a legal move here: the knight on e4 cannot go to d2: it would leave your king in check",
        );
        err(
            "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",
            "exd6",
            "exd6 is not a legal move here: the pawn on e5 cannot go to d6: it would leave your king in check",
        );
        let promo = "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1";
        err(
            promo,
            "a8",
            "a8 promotes a pawn: choose the new piece (queen, rook, bishop or knight)",
        );
        err(
            START,
            "e4=Q",
            "e4=Q is not a promotion: leave the promotion piece out",
        );
        let knights = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
        err(
            knights,
            "Nd2",
            "Nd2 is ambiguous: Nbd2, Nfd2 fit; say which",
        );
    }

    #[test]
    fn disambiguation_written() {
        let game = |fen: &str| Chess::from_fen(fen).unwrap();
        let write = |g: &Chess, uci: &str| g.san(g.parse_move(uci).unwrap());
        // By file.
        let g = game("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
        assert_eq!(write(&g, "b1d2"), "Nbd2");
        // By rank.
        let g = game("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
        assert_eq!(write(&g, "a1a3"), "R1a3");
        assert_eq!(write(&g, "a5a3"), "R5a3");
        // By both: queens on a1, a3 and c1 all reach b2? a1 and c1 share rank 1, a1 and a3
        // share file a.
        let g = game("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
        assert_eq!(write(&g, "a1b2"), "Qa1b2");
        assert_eq!(write(&g, "a3b2"), "Q3b2");
        assert_eq!(write(&g, "c1b2"), "Qcb2");
        // Pinned rivals do not count.
        let g = game("4k3/4r3/8/4N3/8/8/8/2N1K3 w - - 0 1");
        assert_eq!(write(&g, "c1d3"), "Nd3");
        // Checks and mates.
        let g = game("6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1");
        assert_eq!(write(&g, "a1a8"), "Ra8#");
        assert_eq!(write(&g, "e1c1"), "O-O-O");
        let g = game("6k1/8/8/8/8/8/8/R3K3 w Q - 0 1");
        assert_eq!(write(&g, "a1a8"), "Ra8+");
        // En passant.
        let g = game("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
        assert_eq!(write(&g, "e5d6"), "exd6");
        assert_eq!(
            resolve("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "exd6 e.p."),
            Ok("exd6".into())
        );
    }
}
