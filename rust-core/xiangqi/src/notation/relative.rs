//! What the WXF and Chinese notations share: a move told from the mover's seat.
//!
//! Both name a piece kind, say which piece of that kind moves ([`Origin`]: its file, or its
//! place among like pieces on one file), a [`Direction`] (forward, backward, sideways) and a
//! number: for sideways moves and for the diagonal movers (advisor, elephant, horse) the
//! destination file; for the straight movers (king, rook, cannon, pawn) going forward or
//! backward the count of ranks. Files are numbered 1–9 from the mover's right: for Red file
//! `i` is 1 and `a` is 9, for Black file `a` is 1 and `i` is 9. "Front" is nearer the
//! opponent.
//!
//! This module resolves such a description against a position ([`resolve`]) and measures a
//! move in these terms ([`motion`], [`column()`], [`tandem_files`]) for the writers.

use super::{IllegalMove, taken_by_own};
use crate::moves::Move;
use crate::piece::PieceKind;
use crate::position::Position;
use crate::square::Square;
use banco_game::{Color, MoveList};

/// Which way a piece goes, seen from the mover's seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Towards the opponent (WXF `+`, Chinese 进).
    Forward,
    /// Towards the own side (WXF `-`, Chinese 退).
    Backward,
    /// Along the rank (WXF `=` or `.`, Chinese 平).
    Sideways,
}

/// A place among like pieces standing on one file, counted from the front (the piece
/// nearest the opponent).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// The front piece (WXF `+`, Chinese 前).
    Front,
    /// The middle one of three (Chinese 中).
    Middle,
    /// The rear piece (WXF `-`, Chinese 后/後).
    Rear,
    /// The n-th from the front, 1-based (WXF `13=2`'s `1`, Chinese 一 二 三 四 五).
    Nth(u8),
}

/// Which piece of the named kind moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// The piece on this file, 1–9 from the mover's right.
    File(u8),
    /// One of several like pieces on a file: its place, and the file (1–9 from the mover's
    /// right) when the notation gives it (when only one file holds several, it need not).
    Tandem {
        /// Place on the file, from the front.
        place: Place,
        /// The file, if written.
        file: Option<u8>,
    },
}

/// The board file (0–8, `a`–`i`) of file number `n` (1–9) counted from `color`'s right.
pub(crate) fn board_file(color: Color, n: u8) -> u8 {
    match color {
        Color::Red => 9u8.saturating_sub(n),
        Color::Black => n.saturating_sub(1),
    }
}

/// The number (1–9) of board file `file` (0–8) counted from `color`'s right.
pub(crate) fn file_number(color: Color, file: u8) -> u8 {
    match color {
        Color::Red => 9u8.saturating_sub(file),
        Color::Black => file + 1,
    }
}

/// Does the kind move diagonally (so that its number is a destination file)?
pub(crate) fn is_diagonal(kind: PieceKind) -> bool {
    matches!(
        kind,
        PieceKind::Advisor | PieceKind::Elephant | PieceKind::Horse
    )
}

/// The squares of `color`'s pieces of `kind` on board file `file`, front first.
pub(crate) fn column(pos: &Position, color: Color, kind: PieceKind, file: u8) -> Vec<Square> {
    let mut squares: Vec<Square> = (0..10u8)
        .filter_map(|rank| Square::new(file, rank))
        .filter(|&sq| {
            pos.piece_at(sq)
                .is_some_and(|p| p.color == color && p.kind == kind)
        })
        .collect();
    if color == Color::Red {
        squares.reverse();
    }
    squares
}

/// How many files hold two or more of `color`'s pieces of `kind`.
pub(crate) fn tandem_files(pos: &Position, color: Color, kind: PieceKind) -> usize {
    (0..9u8)
        .filter(|&f| column(pos, color, kind, f).len() >= 2)
        .count()
}

/// The direction and number of `mv` made by `color`'s piece of `kind`.
pub(crate) fn motion(color: Color, kind: PieceKind, mv: Move) -> (Direction, u8) {
    let (from, to) = (mv.from(), mv.to());
    let up = i32::from(to.rank()) - i32::from(from.rank());
    let direction = match up * color.sign() {
        0 => Direction::Sideways,
        d if d > 0 => Direction::Forward,
        _ => Direction::Backward,
    };
    let number = if direction == Direction::Sideways || is_diagonal(kind) {
        file_number(color, to.file())
    } else {
        up.unsigned_abs() as u8
    };
    (direction, number)
}

/// Does `origin` designate the piece on `from`, one of `color`'s pieces of `kind`?
fn origin_fits(
    pos: &Position,
    color: Color,
    kind: PieceKind,
    origin: Origin,
    from: Square,
) -> bool {
    match origin {
        Origin::File(n) => from.file() == board_file(color, n),
        Origin::Tandem { place, file } => {
            if file.is_some_and(|n| from.file() != board_file(color, n)) {
                return false;
            }
            let col = column(pos, color, kind, from.file());
            let Some(i) = col.iter().position(|&s| s == from) else {
                return false;
            };
            let k = col.len();
            k >= 2
                && match place {
                    Place::Front => i == 0,
                    Place::Middle => k == 3 && i == 1,
                    Place::Rear => i + 1 == k,
                    Place::Nth(n) => i + 1 == usize::from(n),
                }
        }
    }
}

/// Does the description fit `mv` (a move of the side to move)?
fn fits(pos: &Position, d: &Description, mv: Move) -> bool {
    let color = pos.side_to_move();
    pos.piece_at(mv.from())
        .is_some_and(|p| p.color == color && p.kind == d.kind)
        && motion(color, d.kind, mv) == (d.direction, d.number)
        && origin_fits(pos, color, d.kind, d.origin, mv.from())
}

/// A move described from the mover's seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Description {
    pub kind: PieceKind,
    pub origin: Origin,
    pub direction: Direction,
    pub number: u8,
}

/// Every legal move that fits the description.
pub(crate) fn candidates(pos: &Position, d: &Description) -> Vec<Move> {
    pos.legal_moves()
        .iter()
        .copied()
        .filter(|&m| fits(pos, d, m))
        .collect()
}

/// How a notation words its advice: how it names one of two like pieces on a file, and how
/// it writes forward and backward.
pub(crate) struct Wording {
    /// E.g. "+ or - (front or rear)".
    pub which: &'static str,
    /// E.g. "+ or -".
    pub forward_backward: &'static str,
}

/// Where the piece on `from` would land if it made the described step, when the step has a
/// shape the piece's kind can make at all (ignoring what stands in the way).
fn destination(color: Color, d: &Description, from: Square) -> Option<Square> {
    let along = |ranks: u8| {
        let sign = match d.direction {
            Direction::Forward => color.sign(),
            Direction::Backward => -color.sign(),
            Direction::Sideways => 0,
        };
        let rank = i32::from(from.rank()) + sign * i32::from(ranks);
        u8::try_from(rank).ok()
    };
    if d.direction == Direction::Sideways {
        return Square::new(board_file(color, d.number), from.rank());
    }
    if !is_diagonal(d.kind) {
        return Square::new(from.file(), along(d.number)?);
    }
    let file = board_file(color, d.number);
    let ranks = match (d.kind, file.abs_diff(from.file())) {
        (PieceKind::Advisor, 1) | (PieceKind::Horse, 2) => 1,
        (PieceKind::Elephant, 2) | (PieceKind::Horse, 1) => 2,
        _ => return None,
    };
    Square::new(file, along(ranks)?)
}

/// The one legal move that fits the description, or why there is none. `text` is the move as
/// written; `wording` gives the notation's own words for the advice in the message.
pub(crate) fn resolve(
    pos: &Position,
    d: &Description,
    text: &str,
    wording: &Wording,
) -> Result<Move, IllegalMove> {
    let name = d.kind.name();
    if d.direction == Direction::Sideways && is_diagonal(d.kind) {
        return Err(IllegalMove::new(
            text,
            format!(
                "a {name} never moves sideways along a rank: write {} and its destination file",
                wording.forward_backward
            ),
        ));
    }
    let hits = candidates(pos, d);
    if let [mv] = hits.as_slice() {
        return Ok(*mv);
    }
    let color = pos.side_to_move();
    if hits.len() > 1 {
        return Err(IllegalMove::new(
            text,
            format!(
                "{} {name}s fit; say which one with {}",
                hits.len(),
                wording.which
            ),
        ));
    }
    let mine: Vec<Square> = pos
        .pieces()
        .filter(|(_, p)| p.color == color && p.kind == d.kind)
        .map(|(s, _)| s)
        .collect();
    if mine.is_empty() {
        return Err(IllegalMove::new(text, format!("{color} has no {name}")));
    }
    let movers: Vec<Square> = mine
        .into_iter()
        .filter(|&s| origin_fits(pos, color, d.kind, d.origin, s))
        .collect();
    if movers.is_empty() {
        let reason = match d.origin {
            Origin::File(n) => format!("{color} has no {name} on file {n}"),
            Origin::Tandem { file: Some(n), .. } => {
                format!("no {name} of {color} stands at that place on file {n}")
            }
            Origin::Tandem { file: None, .. } => {
                format!("no {name} of {color} stands at that place on a file shared with another")
            }
        };
        return Err(IllegalMove::new(text, reason));
    }
    let mut pseudo = MoveList::new();
    pos.generate_pseudo(&mut pseudo);
    if let Some(&mv) = pseudo.iter().find(|&&m| fits(pos, d, m)) {
        Err(IllegalMove::new(text, super::why::exposes(pos, mv)))
    } else {
        let steps: Vec<(Square, Square)> = movers
            .iter()
            .filter_map(|&from| destination(color, d, from).map(|to| (from, to)))
            .collect();
        let taken = steps
            .iter()
            .find_map(|&(_, to)| taken_by_own(pos, to))
            .or_else(|| {
                steps
                    .iter()
                    .find_map(|&(from, to)| super::why::step(pos, from, to))
            });
        Err(IllegalMove::new(
            text,
            taken.unwrap_or_else(|| format!("the {name} cannot move like that")),
        ))
    }
}

/// Where a piece of `color` and `kind` may stand at all (the region it never leaves).
pub(crate) fn in_region(color: Color, kind: PieceKind, sq: Square) -> bool {
    let own_half = match color {
        Color::Red => sq.rank() <= 4,
        Color::Black => sq.rank() >= 5,
    };
    let palace = own_half && (3..=5).contains(&sq.file()) && matches!(sq.rank(), 0..=2 | 7..=9);
    match kind {
        PieceKind::King | PieceKind::Advisor => palace,
        PieceKind::Elephant => own_half,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen;
    use crate::notation::{Chinese, Wxf};
    use rand_chacha::ChaCha8Rng;
    use rand_core::{RngCore, SeedableRng};

    /// Every legal move of `pos`, written in WXF and in Chinese, reads back as itself.
    fn assert_round_trips(pos: &Position) -> usize {
        let moves = pos.legal_moves();
        for &mv in &moves {
            let wxf = Wxf::from_move(pos, mv).to_string();
            let back = wxf.parse::<Wxf>().map(|w| w.to_move(pos));
            assert_eq!(back, Ok(Ok(mv)), "{pos:?} {mv}: WXF {wxf}");
            let chinese = Chinese::from_move(pos, mv).to_string();
            let back = chinese.parse::<Chinese>().map(|c| c.to_move(pos));
            assert_eq!(back, Ok(Ok(mv)), "{pos:?} {mv}: Chinese {chinese}");
        }
        moves.len()
    }

    /// Random games from `start`: every legal move of every position round-trips.
    fn random_games(start: &Position, seed: u64, games: usize, plies: usize) -> usize {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut checked = 0;
        for _ in 0..games {
            let mut pos = start.clone();
            for _ in 0..plies {
                checked += assert_round_trips(&pos);
                let moves = pos.legal_moves();
                let Some(&mv) = moves
                    .as_slice()
                    .get(rng.next_u32() as usize % moves.len().max(1))
                else {
                    break;
                };
                pos.make(mv);
            }
        }
        checked
    }

    #[test]
    fn round_trip_in_random_games_from_the_start() {
        let checked = random_games(&Position::startpos(), 0x0B4C_0001, 40, 200);
        println!("{checked} moves round-trip in WXF and Chinese");
        assert!(checked > 100_000, "only {checked} moves checked");
    }

    #[test]
    fn round_trip_in_random_games_from_tandem_positions() {
        let mut checked = 0;
        // Pawns three and more on a file, in tandem on several files, doubled rooks,
        // cannons, horses, advisors and elephants on one file.
        for fen in [
            "6P2/4C1P2/4k1P2/6P2/6P2/9/9/4C1R2/9/3K5 w - - 0 1",
            "7h1/3k3h1/9/9/9/1p7/1p2p4/8p/5K3/4p4 b - - 0 1",
            "9/4k4/9/p1P1p4/p1P1p4/P1p1P4/2P6/4B4/4A4/2BAK4 w - - 0 1",
            "2bak4/9/3a5/1R7/1Rb4c1/7c1/4P4/2HA5/2H6/3AK4 w - - 0 1",
            "2bak4/9/3a5/1R7/1Rb4c1/7c1/4P4/2HA5/2H6/3AK4 b - - 0 1",
            "4ka3/4a4/4b4/9/9/1p1p5/1p1p1p3/4B4/3KA4/3A2B2 b - - 0 1",
        ] {
            let pos = fen::parse(fen).unwrap();
            checked += random_games(&pos, 7, 6, 60);
        }
        println!("{checked} moves round-trip in WXF and Chinese");
    }

    #[test]
    fn files_from_the_right() {
        assert_eq!(board_file(Color::Red, 1), 8);
        assert_eq!(board_file(Color::Red, 9), 0);
        assert_eq!(board_file(Color::Black, 1), 0);
        for f in 0..9 {
            for c in Color::ALL {
                assert_eq!(board_file(c, file_number(c, f)), f);
            }
        }
    }

    #[test]
    fn motion_of_moves() {
        let mv = |s: &str| s.parse::<Move>().unwrap();
        assert_eq!(
            motion(Color::Red, PieceKind::Cannon, mv("h2e2")),
            (Direction::Sideways, 5)
        );
        assert_eq!(
            motion(Color::Red, PieceKind::Horse, mv("h0g2")),
            (Direction::Forward, 3)
        );
        assert_eq!(
            motion(Color::Black, PieceKind::Horse, mv("h9g7")),
            (Direction::Forward, 7)
        );
        assert_eq!(
            motion(Color::Black, PieceKind::Rook, mv("a9a5")),
            (Direction::Forward, 4)
        );
        assert_eq!(
            motion(Color::Red, PieceKind::Rook, mv("a9a5")),
            (Direction::Backward, 4)
        );
    }
}
