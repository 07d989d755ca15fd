//! The chess node's own Zobrist keys: a 64-bit key per piece on each square, per set of
//! castling rights, per en-passant file and for Black to move, XORed together. cozy-chess
//! hashes its boards too, but its keys are private; with its own, the node can tell the
//! key after a move before playing it ([`key_after`]), so the search fetches the child's
//! table entry early.
//!
//! Positions are keyed FIDE-style: the en-passant file counts only when a pawn of the side
//! to move stands ready to take (pins aside), so transpositions meet.
//!
//! ```
//! use banco_engine::chess::zobrist::{key, key_after};
//! use banco_chess::Chess;
//! use banco_game::Game;
//! let mut game = Chess::new();
//! let mv = game.parse_move("e4").unwrap();
//! let predicted = key_after(game.board(), key(game.board()), mv);
//! game.play(mv).unwrap();
//! assert_eq!(predicted, key(game.board()));
//! ```

use super::see;
use banco_chess::ChessMove;
use banco_chess::cozy_chess::{Board, Color, File, Piece, Rank, Square, get_pawn_attacks};

/// The keys (see the module docs).
struct Keys {
    /// `[colour × 6 + piece][square]`.
    piece: [[u64; 64]; 12],
    /// By castling rights: bit 0 White short, 1 White long, 2 Black short, 3 Black long.
    castle: [u64; 16],
    /// By en-passant file.
    ep: [u64; 8],
    /// Black to move.
    side: u64,
}

/// SplitMix64 step, at compile time.
const fn next(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

static KEYS: Keys = {
    let mut k = Keys {
        piece: [[0; 64]; 12],
        castle: [0; 16],
        ep: [0; 8],
        side: 0,
    };
    let mut state = 0x0B4C_0C4E_5500_0001_u64;
    let mut p = 0;
    while p < 12 {
        let mut sq = 0;
        while sq < 64 {
            let (s, v) = next(state);
            state = s;
            k.piece[p][sq] = v;
            sq += 1;
        }
        p += 1;
    }
    // Castling keys combine one key per right, so that clearing a right is one XOR.
    let mut rights = [0u64; 4];
    let mut i = 0;
    while i < 4 {
        let (s, v) = next(state);
        state = s;
        rights[i] = v;
        i += 1;
    }
    let mut mask = 0;
    while mask < 16 {
        let mut v = 0;
        let mut b = 0;
        while b < 4 {
            if mask & (1 << b) != 0 {
                v ^= rights[b];
            }
            b += 1;
        }
        k.castle[mask] = v;
        mask += 1;
    }
    let mut f = 0;
    while f < 8 {
        let (s, v) = next(state);
        state = s;
        k.ep[f] = v;
        f += 1;
    }
    k.side = next(state).1;
    k
};

#[inline(always)]
fn color_index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

#[inline(always)]
fn piece_key(color: Color, piece: Piece, sq: Square) -> u64 {
    KEYS.piece[color_index(color) * 6 + piece as usize][sq as usize]
}

/// The castling rights of `board` as four bits (see [`Keys::castle`]).
#[inline]
fn rights(board: &Board) -> usize {
    let mut r = 0;
    for (i, c) in [Color::White, Color::Black].into_iter().enumerate() {
        let cr = board.castle_rights(c);
        if cr.short.is_some() {
            r |= 1 << (2 * i);
        }
        if cr.long.is_some() {
            r |= 2 << (2 * i);
        }
    }
    r
}

/// The castling rights lost when a piece leaves or lands on `sq` (a rook's home square
/// with rights attached).
#[inline]
fn rights_lost_on(board: &Board, sq: Square) -> usize {
    let mut lost = 0;
    for (i, c) in [Color::White, Color::Black].into_iter().enumerate() {
        let back = Rank::First.relative_to(c);
        if sq.rank() != back {
            continue;
        }
        let cr = board.castle_rights(c);
        if cr.short == Some(sq.file()) {
            lost |= 1 << (2 * i);
        }
        if cr.long == Some(sq.file()) {
            lost |= 2 << (2 * i);
        }
    }
    lost
}

/// The en-passant file that counts in the key of `board` (see the module docs).
#[inline]
fn ep_file(board: &Board) -> Option<File> {
    let file = board.en_passant()?;
    let us = board.side_to_move();
    let to = Square::new(file, Rank::Sixth.relative_to(us));
    let ready = get_pawn_attacks(to, !us) & board.colored_pieces(us, Piece::Pawn);
    (!ready.is_empty()).then_some(file)
}

/// The key of `board`, from scratch.
#[must_use]
pub fn key(board: &Board) -> u64 {
    let mut k = 0;
    for c in [Color::White, Color::Black] {
        for p in Piece::ALL {
            for sq in board.colored_pieces(c, p) {
                k ^= piece_key(c, p, sq);
            }
        }
    }
    if board.side_to_move() == Color::Black {
        k ^= KEYS.side;
    }
    k ^= KEYS.castle[rights(board)];
    if let Some(f) = ep_file(board) {
        k ^= KEYS.ep[f as usize];
    }
    k
}

/// The key after the null move from `board`, whose key is `key`.
#[must_use]
pub fn key_after_null(board: &Board, key: u64) -> u64 {
    let mut k = key ^ KEYS.side;
    if let Some(f) = ep_file(board) {
        k ^= KEYS.ep[f as usize];
    }
    k
}

/// The key after the legal move `mv` from `board`, whose key is `key`, without playing it.
#[must_use]
pub fn key_after(board: &Board, key: u64, mv: ChessMove) -> u64 {
    let us = board.side_to_move();
    let them = !us;
    let (from, to) = (see::square(mv.from()), see::square(mv.to()));
    let Some(moved) = board.piece_on(from) else {
        return key;
    };
    let mut k = key ^ KEYS.side;
    if let Some(f) = ep_file(board) {
        k ^= KEYS.ep[f as usize];
    }
    let before = rights(board);
    let own_rights = 3 << (2 * color_index(us));
    let after = if board.colors(us).has(to) {
        // Castling, as the king taking its own rook.
        let (king_file, rook_file) = if to.file() > from.file() {
            (File::G, File::F)
        } else {
            (File::C, File::D)
        };
        k ^= piece_key(us, Piece::King, from)
            ^ piece_key(us, Piece::King, Square::new(king_file, from.rank()))
            ^ piece_key(us, Piece::Rook, to)
            ^ piece_key(us, Piece::Rook, Square::new(rook_file, from.rank()));
        before & !own_rights
    } else {
        if let Some((victim, at)) = see::victim(board, mv) {
            k ^= piece_key(them, victim, at);
        }
        let placed = mv.to_cozy().promotion.unwrap_or(moved);
        k ^= piece_key(us, moved, from) ^ piece_key(us, placed, to);
        let mut after = before & !rights_lost_on(board, from) & !rights_lost_on(board, to);
        if moved == Piece::King {
            after &= !own_rights;
        }
        if moved == Piece::Pawn && (from.rank() as i8 - to.rank() as i8).abs() == 2 {
            // A double step: the file counts when an enemy pawn stands beside the target.
            let passed = Square::new(from.file(), Rank::Third.relative_to(us));
            if !(get_pawn_attacks(passed, us) & board.colored_pieces(them, Piece::Pawn)).is_empty()
            {
                k ^= KEYS.ep[from.file() as usize];
            }
        }
        after
    };
    k ^ KEYS.castle[before] ^ KEYS.castle[after]
}
