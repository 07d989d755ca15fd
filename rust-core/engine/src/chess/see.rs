//! The chess piece values of the search and the static exchange evaluation (SEE): how a
//! capture is ordered (most valuable victim, least valuable attacker) and what a sequence
//! of captures on one square wins, found with bitboards — every attacker of the square,
//! the least valuable one first on each side, and the sliders that were hidden behind a
//! piece that has just captured (x-rays) joining in. Pins are not considered; a king only
//! captures onto a square the other side no longer attacks.
//!
//! ```
//! use banco_engine::chess::see::{see, PAWN};
//! use banco_chess::Chess;
//! use banco_game::Game;
//! // The rook takes a pawn defended by a pawn: it wins the pawn and loses the rook.
//! let game = Chess::from_fen("4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1").unwrap();
//! let mv = game.parse_move("Rxd5").unwrap();
//! assert_eq!(see(game.board(), mv), PAWN - 500);
//! ```

use banco_chess::ChessMove;
use banco_chess::attacks;
use banco_chess::cozy_chess::{
    BitBoard, Board, Color, Piece, Square, get_king_moves, get_knight_moves, get_pawn_attacks,
};

/// Exchange value of a pawn.
pub const PAWN: i32 = 100;

/// Exchange values by cozy-chess piece order (pawn, knight, bishop, rook, queen, king).
pub const VALUES: [i32; 6] = [PAWN, 320, 330, 500, 950, 20_000];

/// Exchange value of a piece.
#[inline(always)]
#[must_use]
pub const fn value(piece: Piece) -> i32 {
    VALUES[piece as usize]
}

/// The square of a move end (`0..64`, a1 = 0).
#[inline(always)]
pub(crate) fn square(index: u8) -> Square {
    Square::index(usize::from(index & 63))
}

/// The index (`0..64`, a1 = 0) of a cozy-chess square.
#[inline(always)]
pub(crate) fn index(sq: Square) -> u8 {
    sq as u8
}

/// What `mv` captures on `board`: the piece and the square it stands on (en passant: the
/// pawn beside the target square); `None` for a move that captures nothing (castling, a
/// king taking its own rook, captures nothing either).
#[inline]
#[must_use]
pub fn victim(board: &Board, mv: ChessMove) -> Option<(Piece, Square)> {
    let (from, to) = (square(mv.from()), square(mv.to()));
    let them = board.colors(!board.side_to_move());
    if them.has(to) {
        return board.piece_on(to).map(|p| (p, to));
    }
    if board.pieces(Piece::Pawn).has(from) && from.file() != to.file() {
        // En passant: the captured pawn stands beside the target, on the from-rank.
        return Some((Piece::Pawn, Square::new(to.file(), from.rank())));
    }
    None
}

/// Every piece of either colour that attacks `sq` with `occupied` as the blockers.
#[inline]
fn attackers(board: &Board, sq: Square, occupied: BitBoard) -> BitBoard {
    let bishops = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let rooks = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    (get_pawn_attacks(sq, Color::White) & board.colored_pieces(Color::Black, Piece::Pawn))
        | (get_pawn_attacks(sq, Color::Black) & board.colored_pieces(Color::White, Piece::Pawn))
        | (get_knight_moves(sq) & board.pieces(Piece::Knight))
        | (attacks::bishop_moves(sq, occupied) & bishops)
        | (attacks::rook_moves(sq, occupied) & rooks)
        | (get_king_moves(sq) & board.pieces(Piece::King))
}

/// The least valuable piece among `set` and one square holding it.
#[inline]
fn least_valuable(board: &Board, set: BitBoard) -> Option<(Piece, BitBoard)> {
    Piece::ALL.into_iter().find_map(|p| {
        let b = set & board.pieces(p);
        b.next_square().map(|s| (p, s.bitboard()))
    })
}

/// The material the side to move wins by playing `mv` (a legal move) and then trading on
/// its target square for as long as trading pays, both sides choosing best (see the
/// module docs). A quiet move scores 0 or less (less when the piece can be taken for
/// free); a promotion counts the piece gained.
#[must_use]
pub fn see(board: &Board, mv: ChessMove) -> i32 {
    let (from, to) = (square(mv.from()), square(mv.to()));
    let Some(mover) = board.piece_on(from) else {
        return 0;
    };
    if board.colors(board.side_to_move()).has(to) {
        return 0; // castling
    }
    let mut occupied = board.occupied() ^ from.bitboard();
    let mut gain = [0i32; 40];
    gain[0] = match victim(board, mv) {
        Some((p, at)) => {
            occupied &= !at.bitboard();
            value(p)
        }
        None => 0,
    };
    let mut on_square = value(mover);
    if let Some(p) = mv.to_cozy().promotion {
        let promoted = value(p);
        gain[0] += promoted - PAWN;
        on_square = promoted;
    }
    let bishops = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let rooks = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    let mut all = attackers(board, to, occupied) & occupied;
    let mut side = !board.side_to_move();
    let mut moved = mover;
    let mut d = 0;
    loop {
        d += 1;
        // Speculative: the piece now on the square is taken in turn.
        gain[d] = on_square - gain[d - 1];
        if d + 1 >= gain.len() {
            break;
        }
        // Sliders behind the piece that just captured join in.
        if matches!(moved, Piece::Pawn | Piece::Bishop | Piece::Queen) {
            all |= attacks::bishop_moves(to, occupied) & bishops;
        }
        if matches!(moved, Piece::Rook | Piece::Queen) {
            all |= attacks::rook_moves(to, occupied) & rooks;
        }
        all &= occupied;
        let Some((p, at)) = least_valuable(board, all & board.colors(side)) else {
            break;
        };
        if p == Piece::King && !(all & board.colors(!side)).is_empty() {
            break; // the king cannot take a defended piece
        }
        occupied ^= at;
        on_square = value(p);
        moved = p;
        side = !side;
    }
    while d > 1 {
        d -= 1;
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
    }
    gain[0]
}

/// True when `mv` does not lose material by exchange ([`see`] ≥ 0); quick for a capture
/// of a piece worth at least the capturer.
#[inline]
#[must_use]
pub fn see_ok(board: &Board, mv: ChessMove) -> bool {
    if mv.promotion().is_none()
        && let (Some((v, _)), Some(m)) = (victim(board, mv), board.piece_on(square(mv.from())))
        && value(v) >= value(m)
    {
        return true;
    }
    see(board, mv) >= 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_chess::Chess;

    fn see_of(fen: &str, mv: &str) -> i32 {
        let game = Chess::from_fen(fen).unwrap();
        let mv = game.parse_move(mv).unwrap();
        see(game.board(), mv)
    }

    #[test]
    fn exchange_table() {
        // (position, move, expected SEE)
        let cases: &[(&str, &str, i32)] = &[
            // An undefended pawn.
            (
                "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1",
                "Rxe5",
                100,
            ),
            // Knight takes a pawn defended by a pawn and x-rayed twice: loses the knight.
            (
                "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
                "Nxe5",
                100 - 320,
            ),
            // Pawn takes a defended knight: wins knight for pawn.
            ("4k3/8/5p2/4n3/3P4/8/8/4K3 w - - 0 1", "dxe5", 320 - 100),
            // Rook takes a rook defended by a rook, backed by a rook (battery).
            ("3r3k/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "Rxd7", 500),
            // The same without the battery: even trade.
            ("3r3k/3r4/8/8/8/8/3R4/4K3 w - - 0 1", "Rxd7", 0),
            // With the king next to the square, the battery only breaks even.
            ("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "Rxd7", 0),
            // Queen takes a pawn defended by a bishop: loses the queen for a pawn.
            ("4k3/8/8/3p4/2b5/8/8/3QK3 w - - 0 1", "Qxd5", 100 - 950),
            // An undefended pawn taken by a bishop from afar.
            ("4k3/8/8/3p4/8/1B6/8/4K3 w - - 0 1", "Bxd5", 100),
            // En passant.
            ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6", 100),
            // A quiet move onto an attacked square loses the piece.
            ("4k3/8/8/3p4/8/8/8/1N2K3 w - - 0 1", "Nc3", 0),
            ("4k3/8/3p4/8/8/8/8/1N2K3 w - - 0 1", "Nc3", 0),
            ("4k3/8/8/3p4/8/8/1N6/4K3 w - - 0 1", "Nc4", -320),
            // The king may not recapture a piece the bishop defends...
            ("8/8/4k3/3p4/8/1B6/8/3RK3 w - - 0 1", "Rxd5", 100),
            // ... but without the bishop it does.
            ("8/8/4k3/3p4/8/8/8/3RK3 w - - 0 1", "Rxd5", 100 - 500),
            // Promotion with capture.
            (
                "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
                "axb8=Q",
                500 + 950 - 100,
            ),
            // Promotion onto a defended square: the queen is lost, the pawn was too.
            ("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8=Q", 850 - 950),
        ];
        for &(fen, mv, want) in cases {
            assert_eq!(see_of(fen, mv), want, "{fen} {mv}");
        }
    }

    #[test]
    fn quick_test_agrees() {
        let game = Chess::from_fen("4k3/8/5p2/4n3/3P4/8/8/4K3 w - - 0 1").unwrap();
        let mv = game.parse_move("dxe5").unwrap();
        assert!(see_ok(game.board(), mv));
        let game = Chess::from_fen("4k3/8/8/3p4/2b5/8/8/3QK3 w - - 0 1").unwrap();
        assert!(!see_ok(game.board(), game.parse_move("Qxd5").unwrap()));
    }
}
