//! Move notations (xiangqi: ICCS, WXF, Chinese; chess: SAN, UCI; jieqi: coordinates; Lines:
//! two cells): any text typed in any position of a short random game is a legal move or an
//! error, never a panic; a move read is legal and written back in every notation reads to
//! the same move. Lines moves also come from their 16-bit wire code.
#![no_main]

use banco_app::any::AnyGame;
use banco_app::notation::{notations, parse_move, write_move};
use banco_game::{ChanceList, Game, GameKind};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [pick, plies, rest @ ..] = data else {
        return;
    };
    let kind = match pick % 4 {
        0 => GameKind::Xiangqi,
        1 => GameKind::Chess,
        2 => GameKind::Jieqi,
        _ => return lines(*plies, rest),
    };
    let Ok(mut game) = AnyGame::new(kind) else {
        return;
    };
    // A few plies chosen by the following bytes reach varied positions.
    let (choices, text) = rest.split_at(usize::from(*plies % 16).min(rest.len()));
    for &c in choices {
        let moves = game.legal_move_vec();
        if moves.is_empty() {
            break;
        }
        let _ = game.play(moves[usize::from(c) % moves.len()]);
    }
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let Ok(mv) = parse_move(&game, text, None) else {
        return;
    };
    // While a jieqi reveal is awaited, what is read is one of its outcomes (`=R`), not a
    // move (found by this target: `=A` after ten plies).
    let mut outcomes = ChanceList::new();
    game.chance_outcomes(&mut outcomes);
    assert!(
        game.legal_move_vec().contains(&mv)
            || (game.awaits_chance() && outcomes.as_slice().iter().any(|w| w.outcome == mv)),
        "{text:?} read as an illegal move"
    );
    if game.awaits_chance() {
        return;
    }
    for &n in notations(kind) {
        let written = write_move(&game, mv, n);
        assert_eq!(
            parse_move(&game, &written, Some(n)).ok(),
            Some(mv),
            "{written:?} in {n:?}"
        );
    }
});

/// Lines: typed text (`a1 e5`) gives two cells or an error; a wire code gives a move or an
/// error, and a move read writes back the same code.
fn lines(first: u8, rest: &[u8]) {
    if let [lo, ..] = rest {
        let code = u16::from_le_bytes([first, *lo]);
        if let Ok(mv) = banco_lines::Move::decode(code) {
            assert_eq!(mv.encode(), code);
        }
    }
    if let Ok(text) = std::str::from_utf8(rest)
        && let Ok((from, to)) = banco_app::lines::parse_move(text)
    {
        let written = format!("{from} {to}");
        assert_eq!(banco_app::lines::parse_move(&written), Ok((from, to)));
    }
}
