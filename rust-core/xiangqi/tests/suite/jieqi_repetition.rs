//! Jieqi repetitions judged as in xiangqi, from constructed positions: a perpetual chase by
//! revealed pieces loses (Asian rules) or draws (casual rules), a face-down piece standing
//! still chases as the piece it moves as and is chased when unprotected (even on a pawn's
//! home square, where a known pawn would be exempt), and a protected one is not.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use banco_game::{Color, DrawReason, Game, Outcome, WinReason};
use banco_xiangqi::RuleSet;
use banco_xiangqi::jieqi::Jieqi;

/// Plays `moves` from `fen`, checking that nothing ends the game before the last one.
fn play(fen: &str, moves: &str) -> Jieqi {
    let mut g = Jieqi::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for mv in moves.split(' ') {
        assert_eq!(g.outcome(&RuleSet::asian()), None, "{fen}: before {mv}");
        g.play(mv.parse().unwrap())
            .unwrap_or_else(|e| panic!("{fen}: {mv}: {e}"));
    }
    assert_eq!(g.occurrences(), 3, "{fen}");
    g
}

const RED_CHASES: Option<Outcome> = Some(Outcome::Win {
    winner: Color::Black,
    reason: WinReason::PerpetualChase,
});

const REPETITION_DRAW: Option<Outcome> = Some(Outcome::Draw {
    reason: DrawReason::Repetition,
});

/// Red's rook steps i3-h3 and back, Black's king f9-f8 and back, twice.
const ROOK_STEPS: &str = "i3h3 f9f8 h3i3 f8f9 i3h3 f9f8 h3i3 f8f9";

/// Red's rook steps f6-f5 and back, Black's king d9-d8 and back, twice.
const RANK_STEPS: &str = "f6f5 d9d8 f5f6 d8d9 f6f5 d9d8 f5f6 d8d9";

#[test]
fn perpetual_chase_by_revealed_pieces_loses() {
    // From i3 the rook attacks the unprotected horse on i7; from h3 it uncovers the rook on
    // i0, which then does: a new attack with every red move.
    let g = play("5k3/9/8n/9/9/9/8R/9/9/3K4R w - 0 1", ROOK_STEPS);
    assert_eq!(g.outcome(&RuleSet::asian()), RED_CHASES);
    assert_eq!(g.outcome(&RuleSet::casual()), REPETITION_DRAW);
}

#[test]
fn a_face_down_piece_chases_as_the_piece_it_moves_as() {
    // The same with a face-down piece on i0 (a rook's home square: it moves as a rook).
    let g = play("5k3/9/8n/9/9/9/8R/9/9/3K4X w R 0 1", ROOK_STEPS);
    assert_eq!(g.outcome(&RuleSet::asian()), RED_CHASES);
    // A protected horse is not chased (the elephant on g9 would take back on i7).
    let g = play("5kb2/9/8n/9/9/9/8R/9/9/3K4X w R 0 1", ROOK_STEPS);
    assert_eq!(g.outcome(&RuleSet::asian()), REPETITION_DRAW);
}

#[test]
fn an_unprotected_face_down_piece_is_chased_even_on_a_pawn_square() {
    // The rook on f6 attacks a6 along the rank; stepping to f5 it uncovers the rook on i6.
    let g = play("3k5/9/9/x4R2R/9/9/9/9/9/5K3 w r 0 1", RANK_STEPS);
    assert_eq!(g.outcome(&RuleSet::asian()), RED_CHASES);
    assert_eq!(g.outcome(&RuleSet::casual()), REPETITION_DRAW);
    // A known pawn on its own half is exempt: a draw.
    let g = play("3k5/9/9/p4R2R/9/9/9/9/9/5K3 w - 0 1", RANK_STEPS);
    assert_eq!(g.outcome(&RuleSet::asian()), REPETITION_DRAW);
    // A known horse there is chased.
    let g = play("3k5/9/9/n4R2R/9/9/9/9/9/5K3 w - 0 1", RANK_STEPS);
    assert_eq!(g.outcome(&RuleSet::asian()), RED_CHASES);
}

#[test]
fn a_protected_face_down_piece_is_not_chased() {
    // Black's rook on a9 would take back on a6.
    let g = play("r2k5/9/9/x4R2R/9/9/9/9/9/5K3 w r 0 1", RANK_STEPS);
    assert_eq!(g.outcome(&RuleSet::asian()), REPETITION_DRAW);
}

#[test]
fn perpetual_check_is_judged_before_chase() {
    // Red's rook checks from the f file forever while Black's king shuffles.
    let g = play(
        "9/4k4/9/9/9/9/9/9/2p6/3K1RBc1 w - 0 1",
        "f0e0 e8f8 e0f0 f8e8 f0e0 e8f8 e0f0 f8e8",
    );
    assert_eq!(
        g.outcome(&RuleSet::asian()),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::PerpetualCheck
        })
    );
}

#[test]
fn answering_a_check_or_leaving_a_pin_is_not_a_chase() {
    // Black's rook attacks Red's unprotected pawn on h6 all along; Red's rook takes turns
    // checking from e4 and pinning from d4, and Black's king steps aside each time. The king
    // moves make the capture legal again but do not make the attack new: a draw, as in
    // xiangqi (a row of `tests/data/rules/repetition.tsv`; a face-down red piece stands on
    // i0 so that the position is a jieqi one).
    let g = play(
        "4k4/9/9/3r3P1/9/3R5/9/9/9/5K2X w R 0 1",
        "d4e4 e9d9 e4d4 d9e9 d4e4 e9d9 e4d4 d9e9",
    );
    assert_eq!(g.outcome(&RuleSet::asian()), REPETITION_DRAW);
}

#[test]
fn pinning_the_protector_of_an_attacked_piece_chases_it() {
    // As in xiangqi (a row of `tests/data/rules/repetition.tsv`): Red's rook on g9 attacks
    // the advisor on d9 all along; the other rook attacks it from c9 while Black's rook is
    // away, and from c8 pins Black's rook (back on d8, its protector) to the king. Red chases with every move (a face-down red piece on
    // a3 makes it a jieqi position).
    let g = play(
        "3a2R2/2Rr1k3/2ra4N/3N5/8C/6B2/X8/3AB4/3K5/9 b P 0 1",
        "d8e8 c8c9 e8d8 c9c8 d8e8 c8c9 e8d8 c9c8",
    );
    assert_eq!(g.outcome(&RuleSet::asian()), RED_CHASES);
}
