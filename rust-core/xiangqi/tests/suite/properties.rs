//! Property tests: make/unmake restores position and hash, the incremental hash equals a
//! hash computed from scratch, FEN round-trips, legality agrees with move generation, and
//! setup validation reports each defect with the right kind.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use banco_game::{Color, Game, MoveList};
use banco_xiangqi::{
    Move, Piece, PieceKind, Position, Problem, Setup, Square, Xiangqi, fen, perft,
};
use proptest::prelude::*;

/// Plays `choices` as indices into the legal moves, returning the positions met on the way.
fn random_walk(choices: &[u8]) -> Vec<Position> {
    biased_walk(choices, |_, _| false)
}

/// Like [`random_walk`], but an odd choice plays a move that `prefer` likes when there is
/// one (the index is then the choice halved).
fn biased_walk<C: Copy + Into<usize>>(
    choices: &[C],
    prefer: impl Fn(&Position, Move) -> bool,
) -> Vec<Position> {
    let mut pos = Position::startpos();
    let mut out = vec![pos.clone()];
    let mut moves = MoveList::new();
    for &c in choices {
        pos.generate_legal(&mut moves);
        if moves.is_empty() {
            break;
        }
        let c: usize = c.into();
        let mut liked = moves.clone();
        liked.retain(|&m| prefer(&pos, m));
        let mv = if c % 2 == 1 && !liked.is_empty() {
            liked.as_slice()[c / 2 % liked.len()]
        } else {
            moves.as_slice()[c % moves.len()]
        };
        pos.make(mv);
        out.push(pos.clone());
    }
    out
}

/// A walk that often checks, so that many positions on the way are in check.
fn checking_walk(choices: &[u8]) -> Vec<Position> {
    biased_walk(choices, |pos, m| pos.clone().gives_check(m))
}

proptest! {
    #![proptest_config(banco_game::testing::proptest_config(Some(64), 0x50))]

    #[test]
    fn make_unmake_restores(choices in proptest::collection::vec(any::<u8>(), 0..80)) {
        for pos in random_walk(&choices) {
            prop_assert_eq!(pos.hash(), pos.compute_hash());
            let mut scratch = pos.clone();
            for &mv in &pos.legal_moves() {
                let undo = scratch.make(mv);
                prop_assert_eq!(scratch.hash(), scratch.compute_hash());
                prop_assert!(!scratch.is_check_on(pos.side_to_move()), "{mv} leaves the king in check");
                scratch.unmake(mv, undo);
                prop_assert_eq!(&scratch, &pos);
                prop_assert_eq!(scratch.hash(), pos.hash());
            }
        }
    }

    #[test]
    fn fen_round_trip(choices in proptest::collection::vec(any::<u8>(), 0..80)) {
        for pos in random_walk(&choices) {
            let text = fen::to_fen(&pos);
            let back = fen::parse(&text).unwrap();
            prop_assert_eq!(&back, &pos);
            prop_assert_eq!(back.hash(), pos.hash());
            prop_assert_eq!(fen::to_fen(&back), text);
        }
    }

    #[test]
    fn legality_agrees_with_generation(choices in proptest::collection::vec(any::<u8>(), 0..60), code in 0u16..8100) {
        let walk = random_walk(&choices);
        let pos = walk.last().unwrap();
        let legal = pos.legal_moves();
        if let Some(mv) = Move::from_wire(code) {
            prop_assert_eq!(pos.is_legal(mv), legal.contains(&mv));
        }
        for &mv in &legal {
            prop_assert!(pos.is_legal(mv));
            prop_assert_eq!(Move::from_wire(mv.to_wire()), Some(mv));
        }
    }

    #[test]
    fn pseudo_legality_agrees_with_generation(choices in proptest::collection::vec(any::<u8>(), 0..80)) {
        let walk = random_walk(&choices);
        let pos = walk.last().unwrap();
        let (mut all, mut caps, mut quiets) = (MoveList::new(), MoveList::new(), MoveList::new());
        pos.generate_pseudo(&mut all);
        pos.generate_pseudo_captures(&mut caps);
        pos.generate_pseudo_quiets(&mut quiets);
        // Captures and quiet moves split the pseudo-legal moves.
        prop_assert_eq!(caps.len() + quiets.len(), all.len());
        prop_assert!(caps.iter().all(|m| pos.piece_at(m.to()).is_some() && all.contains(m)));
        // No capture twice (with the counts above: every capture exactly once).
        let mut codes: Vec<u16> = caps.iter().map(|m| m.to_wire()).collect();
        codes.sort_unstable();
        codes.dedup();
        prop_assert_eq!(codes.len(), caps.len());
        prop_assert!(quiets.iter().all(|m| pos.piece_at(m.to()).is_none() && all.contains(m)));
        // The direct test agrees with generation for every from/to pair.
        for from in Square::all() {
            for to in Square::all() {
                let mv = Move::new(from, to);
                prop_assert_eq!(pos.is_pseudo_legal(mv), all.contains(&mv), "{} in {:?}", mv, pos);
            }
        }
    }

    #[test]
    fn check_after_a_move_agrees_with_the_full_test(choices in proptest::collection::vec(any::<u8>(), 0..120)) {
        for mut pos in checking_walk(&choices) {
            for &mv in &pos.clone().legal_moves() {
                let expected = pos.hash_after(mv);
                let undo = pos.make(mv);
                prop_assert_eq!(pos.hash(), expected);
                prop_assert_eq!(pos.in_check_after(mv), pos.in_check(), "{} then {:?}", mv, pos);
                pos.unmake(mv, undo);
            }
        }
    }

    #[test]
    fn evasion_test_agrees_with_the_full_test(choices in proptest::collection::vec(any::<u8>(), 0..160)) {
        let mut all = MoveList::new();
        for pos in checking_walk(&choices) {
            let checkers = pos.checkers();
            prop_assert_eq!(checkers.is_empty(), !pos.in_check(), "{:?}", pos);
            pos.generate_pseudo(&mut all);
            for &mv in &all {
                prop_assert_eq!(
                    pos.evasion_is_legal(mv, &checkers),
                    pos.pseudo_move_is_legal(mv, pos.in_check()),
                    "{} in {:?}", mv, pos
                );
            }
            // The candidates keep every legal move.
            let mut candidates = all.clone();
            pos.retain_evasion_candidates(&mut candidates, &checkers);
            for &mv in &all {
                if pos.pseudo_move_is_legal(mv, pos.in_check()) {
                    prop_assert!(candidates.contains(&mv), "{} dropped in {:?}", mv, pos);
                }
            }
        }
    }

    #[test]
    fn attacks_agree_with_captures(choices in proptest::collection::vec(any::<u8>(), 0..160)) {
        // A square holding a piece other than a king is attacked by the other side exactly
        // when that side has a pseudo-legal move onto it: advisors and elephants included.
        let mut moves = MoveList::new();
        for pos in random_walk(&choices) {
            for by in [Color::Red, Color::Black] {
                let mut mover = pos.clone();
                if mover.side_to_move() != by {
                    mover.make_null();
                }
                mover.generate_pseudo(&mut moves);
                for (sq, piece) in pos.pieces() {
                    if piece.color == by || piece.kind == PieceKind::King {
                        continue;
                    }
                    let capture = moves.iter().any(|m| m.to() == sq);
                    prop_assert_eq!(pos.is_attacked(sq, by), capture, "{} by {:?} in {}", sq, by, fen::to_fen(&pos));
                }
            }
        }
    }

    #[test]
    fn fen_parser_never_panics(text in "\\PC{0,120}") {
        let _ = fen::parse(&text);
    }

    #[test]
    fn fen_parser_survives_mutations(pos in 0usize..80, ch in proptest::char::any()) {
        let mut text: Vec<char> = fen::START_FEN.chars().collect();
        if pos < text.len() {
            text[pos] = ch;
        }
        let text: String = text.into_iter().collect();
        if let Ok(p) = fen::parse(&text) {
            prop_assert_eq!(p.hash(), p.compute_hash());
        }
    }
}

#[test]
fn play_rejects_illegal_and_changes_nothing() {
    let mut game = Xiangqi::new();
    let before = game.fen();
    for code in 0..8100u16 {
        if let Some(mv) = Move::from_wire(code)
            && !game.position().is_legal(mv)
        {
            assert!(game.play(mv).is_err());
        }
    }
    assert_eq!(game.fen(), before);
    assert_eq!(game.ply(), 0);
}

fn problems_of(edit: impl FnOnce(&mut Setup)) -> Vec<Problem> {
    let mut s = Setup::startpos();
    edit(&mut s);
    Position::from_setup(&s).map_or_else(|e| e.problems().to_vec(), |_| Vec::new())
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

#[test]
fn setup_defects_each_reported() {
    let red = |k| Some(Piece::new(Color::Red, k));
    let black = |k| Some(Piece::new(Color::Black, k));
    assert_eq!(problems_of(|_| {}), vec![]);
    assert!(problems_of(|s| s.put(sq("e0"), None)).contains(&Problem::MissingKing(Color::Red)));
    assert!(
        problems_of(|s| s.put(sq("d1"), black(PieceKind::King))).contains(&Problem::TooMany {
            color: Color::Black,
            kind: PieceKind::King,
            count: 2
        })
    );
    assert!(
        problems_of(|s| s.put(sq("e4"), red(PieceKind::Rook))).contains(&Problem::TooMany {
            color: Color::Red,
            kind: PieceKind::Rook,
            count: 3
        })
    );
    assert!(
        problems_of(|s| s.put(sq("e4"), red(PieceKind::Pawn))).contains(&Problem::TooMany {
            color: Color::Red,
            kind: PieceKind::Pawn,
            count: 6
        })
    );
    assert_eq!(
        problems_of(|s| {
            s.put(sq("d0"), None);
            s.put(sq("a1"), red(PieceKind::Advisor));
        }),
        vec![Problem::AdvisorOutsidePalace(sq("a1"))]
    );
    assert_eq!(
        problems_of(|s| {
            s.put(sq("c0"), None);
            s.put(sq("c1"), red(PieceKind::Elephant));
        }),
        vec![Problem::ElephantOffPoints(sq("c1"))]
    );
    assert_eq!(
        problems_of(|s| {
            s.put(sq("c9"), None);
            s.put(sq("c3"), black(PieceKind::Elephant)); // across the river
        }),
        vec![Problem::ElephantOffPoints(sq("c3"))]
    );
    assert_eq!(
        problems_of(|s| {
            s.put(sq("a3"), None);
            s.put(sq("a2"), red(PieceKind::Pawn));
        }),
        vec![Problem::PawnBehindStart(sq("a2"))]
    );
    assert_eq!(
        problems_of(|s| {
            s.put(sq("e0"), None);
            s.put(sq("d1"), red(PieceKind::King));
            s.put(sq("a0"), None);
            s.put(sq("a1"), red(PieceKind::King));
        })
        .iter()
        .filter(|p| matches!(p, Problem::KingOutsidePalace(_) | Problem::TooMany { .. }))
        .count(),
        2
    );
    // Kings facing on an open file.
    let mut s = Setup::empty();
    s.put(sq("e0"), red(PieceKind::King));
    s.put(sq("e9"), black(PieceKind::King));
    assert_eq!(
        Position::from_setup(&s).unwrap_err().problems(),
        &[Problem::KingsFacing]
    );
    // A second red king does not hide the facing pair.
    s.put(sq("d0"), red(PieceKind::King));
    let problems = Position::from_setup(&s).unwrap_err().problems().to_vec();
    assert!(problems.contains(&Problem::KingsFacing), "{problems:?}");
    s.put(sq("d0"), None);
    // The side not to move in check: a red rook attacks the black king, Red to move.
    s.put(sq("e9"), None);
    s.put(sq("d9"), black(PieceKind::King));
    s.put(sq("d5"), red(PieceKind::Rook));
    assert_eq!(
        Position::from_setup(&s).unwrap_err().problems(),
        &[Problem::OpponentInCheck(Color::Black)]
    );
    s.turn = Color::Black;
    assert!(Position::from_setup(&s).is_ok());
}

#[test]
fn several_problems_listed_together() {
    let err = fen::parse("4k4/9/9/9/9/9/9/9/R8/RRA1A4 w").unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("red has no king"), "{msg}");
    assert!(msg.contains("3 rooks"), "{msg}");
    assert!(msg.contains("advisor on c0"), "{msg}");
}

#[test]
fn fen_errors_say_where() {
    let cases = [
        ("", "FEN is empty"),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9",
            "FEN has 9 ranks, expected 10",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",
            "FEN rank 0 has 8 files, expected 9",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1X1P/1C5C1/9/RNBAKABNR w",
            "FEN rank 3 has `X`",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
            "FEN side to move is `x`",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - z 1",
            "half-move clock is `z`",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 99999 1",
            "half-move clock is `99999`, expected a whole number from 0 to 65535",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 -3",
            "move number is `-3`, expected a whole number from 0 to 65535",
        ),
    ];
    for (text, want) in cases {
        let msg = fen::parse(text).unwrap_err().to_string();
        assert!(msg.contains(want), "{text:?}: {msg}");
    }
    // h/e aliases.
    let aliased =
        fen::parse("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1")
            .unwrap();
    assert_eq!(aliased, Position::startpos());
}

#[test]
fn divide_sums_to_perft() {
    let mut pos = Position::startpos();
    let total: u64 = perft::divide(&mut pos, 3).iter().map(|(_, n)| n).sum();
    assert_eq!(total, 79666);
}

mod records {
    use super::*;
    use banco_xiangqi::RuleSet;
    use banco_xiangqi::record::{GameRecord, RecordError};

    fn game_from(choices: &[u8]) -> Xiangqi {
        let mut game = Xiangqi::new();
        let mut moves = MoveList::new();
        for &c in choices {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            game.play(moves.as_slice()[c as usize % moves.len()])
                .unwrap();
        }
        game
    }

    proptest! {
        #![proptest_config(banco_game::testing::proptest_config(Some(64), 0x382))]

        #[test]
        fn round_trips(choices in proptest::collection::vec(any::<u8>(), 0..120), undo in 0usize..5) {
            let mut game = game_from(&choices);
            let mut redo = Vec::new();
            for _ in 0..undo {
                if let Some(mv) = game.undo_move() {
                    redo.push(mv);
                }
            }
            let mut record = GameRecord::new(&game, RuleSet::casual());
            record.redo = redo;
            record.tags.push(("Red".into(), "Lan \"the\" player".into()));
            let bytes = record.to_bytes();
            let back = GameRecord::from_bytes(&bytes).unwrap();
            prop_assert_eq!(&back, &record);
            prop_assert_eq!(back.replay().unwrap().fen(), game.fen());
            let text = record.to_text();
            let from_text = GameRecord::from_text(&text).unwrap();
            prop_assert_eq!(from_text.moves, record.moves);
            prop_assert_eq!(from_text.redo, back.redo);
            prop_assert_eq!(from_text.rules, RuleSet::casual());
        }

        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = GameRecord::from_bytes(&bytes);
            let mut with_magic = b"BNCO\x01".to_vec();
            with_magic.extend(&bytes);
            let _ = GameRecord::from_bytes(&with_magic);
        }

        #[test]
        fn flipped_bytes_are_errors_or_legal_games(choices in proptest::collection::vec(any::<u8>(), 1..40), at in any::<usize>(), bit in 0u8..8) {
            let bytes = GameRecord::new(&game_from(&choices), RuleSet::asian()).to_bytes();
            let mut bad = bytes.clone();
            let i = at % bad.len();
            bad[i] ^= 1 << bit;
            if let Ok(record) = GameRecord::from_bytes(&bad) {
                prop_assert!(record.replay().is_ok());
            }
        }

        #[test]
        fn random_text_never_panics(text in "\\PC{0,200}") {
            let _ = GameRecord::from_text(&text);
        }
    }

    #[test]
    fn errors_are_readable() {
        assert_eq!(
            GameRecord::from_bytes(b"PK\x03\x04").unwrap_err(),
            RecordError::NotARecord
        );
        assert_eq!(
            GameRecord::from_bytes(b"BNCO\x09").unwrap_err(),
            RecordError::NewerVersion(9)
        );
        let mut record = GameRecord::new(&Xiangqi::new(), RuleSet::asian());
        record.moves.push("h2h8".parse().unwrap());
        let err = GameRecord::from_bytes(&record.to_bytes()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "saved game move 1 (h2h8) is not legal there"
        );
    }
}
