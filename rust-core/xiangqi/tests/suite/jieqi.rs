//! Jieqi rules from constructed positions (every kind face down and revealed, the palace
//! limit of a face-down advisor, captures of face-down pieces), FEN errors and round
//! trips, and property tests of the chance step (weights sum to the pool; make/unmake of
//! steps and reveals restores everything, the hash included).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use banco_game::{ChanceList, Color, Game, MoveList, Outcome, WinReason};
use banco_xiangqi::jieqi::{
    Jieqi, JieqiFenError, JieqiMove, JieqiPosition, START_FEN, moves::REVEAL_BASE,
};
use banco_xiangqi::{PieceKind, RuleSet, Square};
use proptest::prelude::*;

fn pos(fen: &str) -> JieqiPosition {
    JieqiPosition::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The destinations of the legal steps from `from`, sorted.
fn targets(p: &JieqiPosition, from: &str) -> Vec<String> {
    let from: Square = from.parse().unwrap();
    let mut out: Vec<String> = p
        .legal_moves()
        .iter()
        .filter_map(|m| m.step())
        .filter(|m| m.from() == from)
        .map(|m| m.to().to_string())
        .collect();
    out.sort();
    out
}

fn sq(names: &str) -> Vec<String> {
    let mut v: Vec<String> = names.split_whitespace().map(str::to_owned).collect();
    v.sort();
    v
}

#[test]
fn face_down_pieces_move_as_their_home_square() {
    let start = JieqiPosition::startpos();
    assert_eq!(start.fen(), START_FEN);
    assert_eq!(targets(&start, "a0"), sq("a1 a2")); // rook
    assert_eq!(targets(&start, "b0"), sq("a2 c2")); // horse
    assert_eq!(targets(&start, "c0"), sq("a2 e2")); // elephant
    assert_eq!(targets(&start, "d0"), sq("e1")); // advisor
    assert_eq!(targets(&start, "e3"), sq("e4")); // pawn
    // cannon: up to b6, across to a2 and c2..g2, and the capture of b9 over b7.
    assert_eq!(
        targets(&start, "b2"),
        sq("b1 b3 b4 b5 b6 b9 a2 c2 d2 e2 f2 g2")
    );
    assert_eq!(start.legal_moves().len(), 44);
}

#[test]
fn face_down_advisor_stays_in_the_palace_revealed_one_does_not() {
    // A face-down advisor on d0 with e1 taken has no move at all (c1 is outside).
    let p = pos("3k5/9/9/9/9/9/9/9/4P4/3XK4 w A1P1 0 1");
    assert_eq!(targets(&p, "d0"), Vec::<String>::new());
    // Revealed, the same advisor steps out of the palace to c1.
    let p = pos("3k5/9/9/9/9/9/9/9/4P4/3AK4 w - 0 1");
    assert_eq!(targets(&p, "d0"), sq("c1"));
    // A revealed advisor in the middle of the board has its four diagonal steps.
    let p = pos("4k4/9/9/9/4A4/9/9/9/9/3K5 w - 0 1");
    assert_eq!(targets(&p, "e5"), sq("d4 f4 d6 f6"));
}

#[test]
fn face_down_advisor_guards_only_its_palace() {
    // A black rook on c1 next to the face-down advisor on d0: out of its reach.
    let c1: Square = "c1".parse().unwrap();
    let e1: Square = "e1".parse().unwrap();
    let p = pos("3k5/9/9/9/9/9/9/9/2r1P4/3XK4 w A1P1 0 1");
    assert!(!p.is_attacked(c1, Color::Red));
    assert!(p.is_attacked(e1, Color::Red), "e1 stays guarded");
    // Revealed, the same advisor reaches c1.
    let p = pos("3k5/9/9/9/9/9/9/9/2r1P4/3AK4 w - 0 1");
    assert!(p.is_attacked(c1, Color::Red));
    // A king along an open file attacks the other king only: not the pawn on d7.
    let p = pos("4k4/9/3p5/9/9/9/9/9/9/3K5 w - 0 1");
    assert!(!p.is_attacked("d7".parse().unwrap(), Color::Red));
    assert!(p.is_attacked("d1".parse().unwrap(), Color::Red));
}

#[test]
fn revealed_elephant_crosses_the_river_face_down_one_does_not() {
    let p = pos("4k4/9/9/9/9/4B4/9/9/9/3K5 w - 0 1");
    assert_eq!(targets(&p, "e4"), sq("c2 g2 c6 g6"));
    // The eye blocks as in xiangqi.
    let p = pos("4k4/9/9/9/9/4B4/5p3/9/9/3K5 w - 0 1");
    assert_eq!(targets(&p, "e4"), sq("c6 g6 c2"));
    // Face down on g0: only a2-like targets of its own half (e2, i2).
    let p = pos("3k5/9/9/9/9/9/9/9/9/4K1X2 w B1 0 1");
    assert_eq!(targets(&p, "g0"), sq("e2 i2"));
}

#[test]
fn revealed_rook_horse_cannon_pawn_move_as_in_xiangqi() {
    let p = pos("5k3/9/9/9/9/4R4/9/9/9/3K5 w - 0 1");
    assert_eq!(targets(&p, "e4").len(), 17);
    let p = pos("5k3/9/9/9/9/4N4/9/9/9/3K5 w - 0 1");
    assert_eq!(targets(&p, "e4").len(), 8);
    let p = pos("5k3/9/9/9/9/4N4/4P4/9/9/3K5 w - 0 1");
    assert_eq!(targets(&p, "e4"), sq("c3 g3 c5 g5 d6 f6")); // the leg e3 is blocked
    // A cannon captures over exactly one screen.
    let p = pos("3k5/9/9/4p4/9/4C4/9/9/9/5K3 w - 0 1");
    assert!(!targets(&p, "e4").contains(&"e9".to_owned()));
    let p = pos("4r4/3k5/9/4p4/9/4C4/9/9/9/5K3 w - 0 1");
    assert!(targets(&p, "e4").contains(&"e9".to_owned()));
    // A pawn revealed on its own back rank walks forward only; across the river also sideways.
    let p = pos("5k3/9/9/9/9/9/9/9/9/P2K5 w - 0 1");
    assert_eq!(targets(&p, "a0"), sq("a1"));
    let p = pos("5k3/9/9/4P4/9/9/9/9/9/3K5 w - 0 1");
    assert_eq!(targets(&p, "e6"), sq("d6 f6 e7"));
}

#[test]
fn revealed_advisors_and_elephants_give_check() {
    let p = pos("4k4/3A5/9/9/9/9/9/9/9/3K5 b - 0 1");
    assert!(p.in_check());
    let p = pos("4k4/9/2B6/9/9/9/9/9/9/3K5 b - 0 1");
    assert!(p.in_check());
    // Blocked eye: no check.
    let p = pos("4k4/3p5/2B6/9/9/9/9/9/9/3K5 b - 0 1");
    assert!(!p.in_check());
    // The side that just moved may not be in check.
    assert_eq!(
        JieqiPosition::from_fen("4k4/3A5/9/9/9/9/9/9/9/3K5 w - 0 1").unwrap_err(),
        JieqiFenError::CheckNotToMove(Color::Black)
    );
    // Kings facing each other are named as such, whoever is to move.
    for side in ["w", "b"] {
        assert_eq!(
            JieqiPosition::from_fen(&format!("4k4/9/9/9/9/9/9/9/9/4K4 {side} - 0 1")).unwrap_err(),
            JieqiFenError::KingsFacing
        );
    }
    assert!(JieqiPosition::from_fen("4k4/9/9/9/4p4/9/9/9/9/4K4 w - 0 1").is_ok());
    // A mate by a revealed advisor and rook deep in the black palace.
    let mut g = Jieqi::from_fen("3k5/9/4A4/9/9/9/9/9/9/4K3R w - 0 1").unwrap();
    g.play("i0i9".parse().unwrap()).unwrap();
    assert_eq!(
        g.outcome(&RuleSet::default()),
        Some(Outcome::Win {
            winner: Color::Red,
            reason: WinReason::Checkmate
        })
    );
}

#[test]
fn face_down_capture_keeps_the_victim_in_its_pool() {
    // A red rook takes the face-down black piece on i9: nobody learns what it was.
    let mut g = Jieqi::from_fen("4k3x/9/9/9/9/9/9/9/8R/3K5 w r1 7 1").unwrap();
    let before = g.position().clone();
    g.play("i1i9".parse().unwrap()).unwrap();
    assert!(!g.awaits_chance());
    let p = g.position();
    assert_eq!(p.pool(Color::Black).count(PieceKind::Rook), 1);
    assert_eq!(p.hidden_count(Color::Black), 0);
    assert_eq!(p.halfmoves(), 0);
    assert_eq!(
        p.fen(),
        "4k3R/9/9/9/9/9/9/9/9/3K5 b R0A0C0P0N0B0r1a0c0p0n0b0 0 1"
    );
    // The FEN reads back: a pool larger than the face-down count is legal.
    assert_eq!(&pos(&p.fen()), p);
    g.undo_move().unwrap();
    assert_eq!(g.position(), &before);
    assert_eq!(g.position().hash(), before.hash());
}

#[test]
fn face_down_piece_capturing_is_revealed_after() {
    // From the start, the face-down cannon on b2 takes the face-down horse on b9.
    let mut g = Jieqi::new();
    g.play("b2b9".parse().unwrap()).unwrap();
    assert!(g.awaits_chance());
    assert_eq!(g.position().pending(), Some("b9".parse().unwrap()));
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    assert!(list.is_empty());
    assert_eq!(g.outcome(&RuleSet::default()), None);
    // A step is refused while the reveal is pending; a kind not in the pool too.
    assert!(g.play("h2e2".parse().unwrap()).is_err());
    g.play(JieqiMove::Reveal(PieceKind::Cannon)).unwrap();
    assert!(g.play(JieqiMove::Reveal(PieceKind::Cannon)).is_err());
    assert_eq!(
        g.position()
            .piece_at("b9".parse().unwrap())
            .map(|p| (p.kind, p.hidden)),
        Some((PieceKind::Cannon, false))
    );
    assert_eq!(g.position().pool(Color::Red).count(PieceKind::Cannon), 1);
    assert_eq!(g.position().pool(Color::Black).total(), 15);
    assert_eq!(g.ply(), 2);
    // A reveal of a kind the pool no longer has is refused.
    let mut g = Jieqi::from_fen("3k5/9/9/9/9/9/9/9/9/3XK4 w A1 0 1").unwrap();
    g.play("d0e1".parse().unwrap()).unwrap();
    assert!(g.play(JieqiMove::Reveal(PieceKind::Rook)).is_err());
    assert!(g.play(JieqiMove::Reveal(PieceKind::Advisor)).is_ok());
}

#[test]
fn fen_errors_name_the_problem() {
    let err = |f: &str| JieqiPosition::from_fen(f).unwrap_err().to_string();
    assert_eq!(
        err("3k5/9/9/9/4X4/9/9/9/9/4K4 w R1 0 1"),
        "the face-down piece on e5 is not on a home square of red"
    );
    assert_eq!(
        err("3k4X/9/9/9/9/9/9/9/9/4K4 w R1 0 1"),
        "the face-down piece on i9 is not on a home square of red"
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/XXXXKXXXX w R2 0 1"),
        "red has 8 face-down pieces but only 2 in its pool"
    );
    assert_eq!(
        err("3k5/9/9/9/9/9/9/9/9/R3K3R w R1 0 1"),
        "red has 3 rooks face up and in its pool, at most 2"
    );
    assert_eq!(
        err("9/9/9/9/9/9/9/9/9/4K4 w - 0 1"),
        "black has 0 kings, expected 1"
    );
    assert!(err("4k4/9/9/9/9/9/9/9/9/4K4 w R2Q 0 1").starts_with("FEN pool `R2Q`"));
    assert!(err("4k4/9/9/9/9/9/9/9/9/4K4 w K1 0 1").starts_with("FEN pool"));
    assert!(err("4k4/9/9/9/9/9/9/9/9/4K4 w R1R1 0 1").starts_with("FEN pool"));
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/4K5 w - 0 1"),
        "FEN rank 0 has 10 files, expected 9"
    );
    assert_eq!(err(""), "FEN is empty");
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/4K4 x - 0 1"),
        "FEN side to move is `x`, expected w (or r) for Red or b for Black"
    );
    // The xiangqi layout with an unused `-` field reads too.
    assert_eq!(
        pos("3k5/9/9/9/9/9/9/9/9/4K4 b - - 3 9").fen(),
        "3k5/9/9/9/9/9/9/9/9/4K4 b R0A0C0P0N0B0r0a0c0p0n0b0 3 9"
    );
}

#[test]
fn wire_codes_round_trip() {
    for code in 0..=u16::MAX {
        if let Some(mv) = JieqiMove::from_wire(code) {
            assert_eq!(mv.to_wire(), code);
            assert_eq!(mv.to_string().parse::<JieqiMove>().unwrap(), mv);
        }
    }
    assert_eq!(
        JieqiMove::from_wire(REVEAL_BASE + 6),
        Some(JieqiMove::Reveal(PieceKind::Pawn))
    );
    assert_eq!(JieqiMove::from_wire(REVEAL_BASE + 7), None);
    assert!("=K".parse::<JieqiMove>().is_err());
    assert!("=".parse::<JieqiMove>().is_err());
}

#[test]
fn perpetual_check_loses() {
    // Red's rook checks from f-file squares forever while Black's king shuffles.
    let mut g = Jieqi::from_fen("9/4k4/9/9/9/9/9/9/2p6/3K1RBc1 w - 0 1").unwrap();
    for (i, mv) in "f0e0 e8f8 e0f0 f8e8 f0e0 e8f8 e0f0 f8e8"
        .split(' ')
        .enumerate()
    {
        assert_eq!(g.outcome(&RuleSet::default()), None, "before {mv}");
        g.play(mv.parse().unwrap()).unwrap();
        assert_eq!(g.occurrences(), 1 + (i + 1) / 4);
    }
    assert_eq!(
        g.outcome(&RuleSet::asian()),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::PerpetualCheck
        })
    );
}

/// Plays `choices` from the start (steps by index, reveals by index into the outcomes),
/// returning the game.
fn walk(choices: &[u16]) -> Jieqi {
    let mut g = Jieqi::new();
    let mut moves = MoveList::new();
    let mut outcomes = ChanceList::new();
    for &c in choices {
        if g.awaits_chance() {
            g.chance_outcomes(&mut outcomes);
            let o = outcomes.as_slice()[usize::from(c) % outcomes.len()].outcome;
            g.play(o).unwrap();
            continue;
        }
        g.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        g.play(moves.as_slice()[usize::from(c) % moves.len()])
            .unwrap();
    }
    g
}

proptest! {
    #![proptest_config(banco_game::testing::proptest_config(Some(64), 0x299))]

    #[test]
    fn chance_step_weights_and_unmake(choices in proptest::collection::vec(any::<u16>(), 0..120)) {
        let mut g = walk(&choices);
        let p = g.position().clone();
        prop_assert_eq!(p.hash(), p.compute_hash());
        if g.awaits_chance() {
            let mut outcomes = ChanceList::new();
            g.chance_outcomes(&mut outcomes);
            let mover = g.side_to_move().other();
            prop_assert_eq!(outcomes.total_weight(), u64::from(p.pool(mover).total()));
            prop_assert_eq!(outcomes.len() as u32, p.pool(mover).kinds());
            for w in outcomes.as_slice() {
                prop_assert!(g.is_legal(w.outcome));
                let undo = g.make_unchecked(w.outcome);
                prop_assert_eq!(g.hash(), g.position().compute_hash());
                prop_assert!(!g.awaits_chance());
                g.unmake(w.outcome, undo);
                prop_assert_eq!(g.position(), &p);
                prop_assert_eq!(g.hash(), p.hash());
            }
        } else {
            // FEN round trip of every settled position.
            let back = JieqiPosition::from_fen(&p.fen()).unwrap();
            prop_assert_eq!(&back, &p);
            prop_assert_eq!(back.hash(), p.hash());
            let mut moves = MoveList::new();
            g.legal_moves(&mut moves);
            for &mv in &moves {
                prop_assert!(g.is_legal(mv));
                prop_assert_eq!(g.decode_move(g.encode_move(mv)), Some(mv));
                let undo = g.make_unchecked(mv);
                prop_assert_eq!(g.hash(), g.position().compute_hash());
                prop_assert_eq!(g.awaits_chance(), p.moves_hidden(mv));
                g.unmake(mv, undo);
                prop_assert_eq!(g.position(), &p);
                prop_assert_eq!(g.hash(), p.hash());
            }
        }
    }

    #[test]
    fn attacks_agree_with_captures(choices in proptest::collection::vec(any::<u16>(), 0..160)) {
        // A square holding a piece other than a king is attacked by the other side exactly
        // when that side has a pseudo-legal step onto it (face-down pieces as they move).
        let mut g = walk(&choices);
        if g.awaits_chance() {
            // A reveal pending: turn the piece over (its first kind) to settle the position.
            let mut outcomes = ChanceList::new();
            g.chance_outcomes(&mut outcomes);
            g.play(outcomes.as_slice()[0].outcome).unwrap();
        }
        let p = g.position();
        let mut moves = MoveList::new();
        for by in [Color::Red, Color::Black] {
            let mut mover = p.clone();
            if mover.side_to_move() != by {
                mover.make_null();
            }
            mover.generate_pseudo(&mut moves);
            for (sq, piece) in p.pieces() {
                if piece.color == by || piece.kind == PieceKind::King {
                    continue;
                }
                let capture = moves.iter().filter_map(|m| m.step()).any(|m| m.to() == sq);
                prop_assert_eq!(p.is_attacked(sq, by), capture, "{} by {:?} in {}", sq, by, p.fen());
            }
        }
    }

    #[test]
    fn fen_never_panics(text in "[xXkKrRaAcCpPnNbB1-9/ wb0-9-]{0,120}") {
        if let Ok(p) = JieqiPosition::from_fen(&text) {
            let back = JieqiPosition::from_fen(&p.fen()).unwrap();
            prop_assert_eq!(back, p);
        }
    }

    #[test]
    fn mutated_start_fen_never_panics(i in 0usize..START_FEN.len(), c in any::<char>()) {
        let mut text: Vec<char> = START_FEN.chars().collect();
        if let Some(slot) = text.get_mut(i) {
            *slot = c;
        }
        let text: String = text.into_iter().collect();
        if let Ok(p) = JieqiPosition::from_fen(&text) {
            prop_assert_eq!(JieqiPosition::from_fen(&p.fen()).unwrap(), p);
        }
    }
}
