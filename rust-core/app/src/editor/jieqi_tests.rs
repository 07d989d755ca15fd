//! Tests of the jieqi position editor: round trips, every problem, refusals, play from
//! here, and random boards.

#![allow(clippy::unwrap_used)]
use super::*;
use crate::jieqi::RevealDraw;
use banco_game::MoveList;
use banco_xiangqi::jieqi::START_FEN;
use proptest::prelude::*;

const J: GameKind = GameKind::Jieqi;

/// Black's revealed rook from i9 was captured (its pool keeps one rook), Black's pawn c6
/// was captured face down (its pool keeps it), Red's h2 was revealed a cannon on e2.
const MIDGAME: &str =
    "xxxxkxxx1/9/1x5x1/x3x1x1x/9/9/X1X1X1X1X/1X2C4/9/XXXXKXXXX b R2A2C1P5N2B2r1a2c2p5n2b2 0 1";

fn sq(ed: &Editor, name: &str) -> u8 {
    ed.square_named(name).unwrap()
}

fn texts(ed: &Editor) -> Vec<String> {
    ed.problems().into_iter().map(|p| p.text).collect()
}

/// Kings on e0 and d9 (not facing), nothing else.
fn kings() -> Editor {
    let mut ed = Editor::empty(J).unwrap();
    ed.place(sq(&ed, "e0"), Color::Red, PieceKind::King)
        .unwrap();
    ed.place(sq(&ed, "d9"), Color::Black, PieceKind::King)
        .unwrap();
    ed
}

#[test]
fn the_start_reads_and_writes_as_the_jieqi_start() {
    let ed = Editor::start(J).unwrap();
    assert_eq!(ed.fen(), START_FEN);
    assert!(ed.problems().is_empty());
    let b0 = ed.piece_at(sq(&ed, "b0")).unwrap();
    assert!(b0.face_down);
    assert_eq!(
        (b0.kind, b0.letter, b0.glyph),
        (PieceKind::Horse, 'X', '暗')
    );
    let view = ed.view();
    assert_eq!(view.pools.len(), 2);
    assert_eq!((view.pools[1].total, view.pools[1].face_down), (15, 15));
    // Seven kinds and the face-down piece, for each side.
    assert_eq!(view.palette.len(), 16);
    let down: Vec<_> = view.palette.iter().filter(|p| p.face_down).collect();
    assert_eq!(down.len(), 2);
    assert_eq!((down[0].color, down[0].letter), (Color::Red, 'X'));
    assert_eq!((down[1].color, down[1].letter), (Color::Black, 'x'));
    assert_eq!(Brush::of(down[1]), Brush::FaceDown(Color::Black));
    assert_eq!(ed.game().unwrap().fen(), START_FEN);
}

#[test]
fn a_midgame_fen_round_trips_with_its_pools() {
    let ed = Editor::from_fen(J, MIDGAME).unwrap();
    assert_eq!(ed.fen(), MIDGAME);
    assert!(ed.problems().is_empty(), "{:?}", texts(&ed));
    assert_eq!(ed.side_to_move(), Color::Black);
    assert_eq!(ed.captured(Color::Black, PieceKind::Rook), 1);
    assert_eq!(ed.captured(Color::Black, PieceKind::Pawn), 0);
    assert_eq!(ed.captured(Color::Red, PieceKind::Cannon), 0);
    let black = &ed.pools()[1];
    // 14 unrevealed, 13 of them face down: the pawn captured face down stays in the pool.
    assert_eq!((black.total, black.face_down), (14, 13));
    assert_eq!(ed.game().unwrap().fen(), MIDGAME);
    // Taking the red cannon off puts it back into Red's pool (captured face down).
    let mut ed = ed;
    ed.remove(sq(&ed, "e2")).unwrap();
    assert_eq!(ed.pool(Color::Red).total(), 15);
    // Marked captured face up, it stays out.
    ed.set_captured(Color::Red, PieceKind::Cannon, 1).unwrap();
    assert_eq!(ed.pool(Color::Red).total(), 14);
    assert!(ed.fen().contains(" R2A2C1P5N2B2r1"), "{}", ed.fen());
}

#[test]
fn a_played_game_round_trips_through_the_editor() {
    let mut game = AnyGame::new(J).unwrap();
    let mut draw = RevealDraw::seeded(11);
    let mut seed = 0x2545_F491_4F6C_DD1D_u64;
    for _ in 0..40 {
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mv = moves.as_slice()[(seed % moves.len() as u64) as usize];
        game.play(mv).unwrap();
        draw.settle(&mut game);
    }
    let ed = Editor::from_game(&game).unwrap();
    // The editor keeps no clocks: the board, side and pools are the game's.
    let fields = |f: &str| f.split(' ').take(3).collect::<Vec<_>>().join(" ");
    assert_eq!(fields(&ed.fen()), fields(&game.fen()));
    assert!(ed.problems().is_empty(), "{:?}", texts(&ed));
    assert_eq!(fields(&ed.game().unwrap().fen()), fields(&game.fen()));
}

#[test]
fn each_problem_is_named() {
    // Kings: missing, two, out of the palace, facing.
    let mut ed = Editor::empty(J).unwrap();
    assert_eq!(texts(&ed), ["red has no king", "black has no king"]);
    ed.place(sq(&ed, "e0"), Color::Red, PieceKind::King)
        .unwrap();
    ed.place(sq(&ed, "e4"), Color::Black, PieceKind::King)
        .unwrap();
    ed.place(sq(&ed, "d9"), Color::Black, PieceKind::King)
        .unwrap();
    assert_eq!(
        texts(&ed),
        [
            "black has 2 kings, at most 1 allowed",
            "the king on e4 is outside its palace",
            "the two kings face each other on an open file",
        ]
    );
    assert!(ed.view().cells.iter().any(|c| c.problem && c.name == "e4"));
    let mut ed = kings();
    assert!(ed.problems().is_empty());

    // Face-down pieces off their side's home squares: nowhere home, Black's home, the king's.
    for name in ["e5", "a9", "e0"] {
        let mut ed = kings();
        if name == "e0" {
            ed.place(sq(&ed, "e1"), Color::Red, PieceKind::King)
                .unwrap();
        }
        ed.place_face_down(sq(&ed, name), Color::Red).unwrap();
        assert_eq!(
            texts(&ed),
            [format!(
                "the face-down piece on {name} is not on a home square of red (a face-down \
                 piece stands only where its side's pieces start, the king's square excepted)"
            )],
        );
        assert_eq!(ed.problems()[0].square, Some(sq(&ed, name)));
    }

    // Too many of a kind face up, on the board or captured.
    for name in ["a4", "b4", "c4"] {
        ed.place(sq(&ed, name), Color::Red, PieceKind::Rook)
            .unwrap();
    }
    assert_eq!(
        texts(&ed),
        ["red has 3 rooks face up (3 on the board, 0 marked captured), at most 2 allowed"]
    );
    ed.remove(sq(&ed, "c4")).unwrap();
    ed.set_captured(Color::Red, PieceKind::Rook, 1).unwrap();
    assert_eq!(
        texts(&ed),
        ["red has 3 rooks face up (2 on the board, 1 marked captured), at most 2 allowed"]
    );
    assert!(matches!(
        ed.jieqi_problems()[..],
        [JieqiProblem::TooMany {
            face_up: 2,
            captured: 1,
            ..
        }]
    ));

    // More face-down pieces than unrevealed ones.
    let mut ed = Editor::start(J).unwrap();
    ed.place(sq(&ed, "e4"), Color::Red, PieceKind::Pawn)
        .unwrap();
    assert_eq!(
        texts(&ed),
        [
            "red has 15 face-down pieces but only 14 unrevealed (its 15 pieces less 1 face \
             up and 0 captured face up): remove face-down pieces or pieces marked captured"
        ]
    );

    // The side not to move in check.
    let mut ed = kings();
    ed.place(sq(&ed, "d5"), Color::Red, PieceKind::Rook)
        .unwrap();
    assert_eq!(texts(&ed), ["black is in check but it is not black's turn"]);
    ed.set_side_to_move(Color::Black);
    assert!(ed.problems().is_empty());
    // A face-down piece blocks the kings' file like any piece.
    let mut ed = Editor::empty(J).unwrap();
    ed.place(sq(&ed, "e0"), Color::Red, PieceKind::King)
        .unwrap();
    ed.place(sq(&ed, "e9"), Color::Black, PieceKind::King)
        .unwrap();
    ed.place_face_down(sq(&ed, "e3"), Color::Red).unwrap();
    assert!(ed.problems().is_empty(), "{:?}", texts(&ed));
    assert!(ed.game().is_ok());
}

#[test]
fn refusals_are_typed() {
    let mut xq = Editor::empty(GameKind::Xiangqi).unwrap();
    assert_eq!(
        xq.place_face_down(0, Color::Red),
        Err(EditorError::NotInPalette {
            game: "xiangqi",
            piece: "face-down piece"
        })
    );
    assert_eq!(
        xq.set_captured(Color::Red, PieceKind::Rook, 1),
        Err(EditorError::NoPools("xiangqi"))
    );
    assert!(xq.pools().is_empty());
    let mut ed = Editor::start(J).unwrap();
    assert_eq!(
        ed.set_captured(Color::Red, PieceKind::King, 1),
        Err(EditorError::KingCaptured)
    );
    assert_eq!(
        ed.set_captured(Color::Red, PieceKind::Pawn, 6)
            .unwrap_err()
            .to_string(),
        "a side has 5 pawns: 6 cannot have been captured"
    );
    assert_eq!(
        ed.set_captured(Color::Red, PieceKind::Queen, 1),
        Err(EditorError::NotInPalette {
            game: "jieqi",
            piece: "queen"
        })
    );
    assert_eq!(
        ed.place_face_down(90, Color::Red),
        Err(EditorError::OffBoard(90))
    );
    assert_eq!(
        ed.solve(3).unwrap_err().to_string(),
        "jieqi has no mate solver: no mate can be proven through pieces still face down"
    );
    assert!(matches!(
        Editor::from_fen(J, "xxxx/9 w"),
        Err(EditorError::Fen(t)) if t == "FEN has 2 ranks, expected 10"
    ));
    assert!(matches!(
        Editor::from_fen(J, "4k4/9/9/9/9/9/9/9/9/4K4 w R9Z 0 1"),
        Err(EditorError::Fen(t)) if t.starts_with("FEN pool `R9Z`")
    ));
    // Syntax is all a FEN needs: a face-down piece off home and a pool too big are read
    // (the kinds the pools leave out count as captured face up; nine rooks are two).
    let odd = Editor::from_fen(J, "4k4/9/9/9/4X4/9/9/9/9/4K4 w R9 0 1").unwrap();
    assert_eq!(odd.problems().len(), 1);
    assert_eq!(
        odd.fen(),
        "4k4/9/9/9/4X4/9/9/9/9/4K4 w R2A0C0P0N0B0r0a0c0p0n0b0 0 1"
    );
    assert_eq!(odd.captured(Color::Black, PieceKind::Pawn), 5);
}

#[test]
fn taps_place_and_remove_face_down_pieces() {
    let mut ed = kings();
    let down = Some(Brush::FaceDown(Color::Red));
    // a0 is at screen column 0, bottom row 9.
    assert_eq!(ed.tap(0, 9, down).unwrap(), EditTap::Placed(0));
    let a0 = ed.piece_at(0).unwrap();
    assert!(a0.face_down && a0.kind == PieceKind::Rook);
    // A face-up piece of the same colour is another brush: it replaces the face-down one.
    let rook = Some(Brush::Piece(Color::Red, PieceKind::Rook));
    assert_eq!(ed.tap(0, 9, rook).unwrap(), EditTap::Placed(0));
    assert!(!ed.piece_at(0).unwrap().face_down);
    assert_eq!(ed.tap(0, 9, down).unwrap(), EditTap::Placed(0));
    assert_eq!(ed.tap(0, 9, down).unwrap(), EditTap::Removed(0));
    assert_eq!(ed.piece_at(0), None);
    ed.set_captured(Color::Black, PieceKind::Horse, 2).unwrap();
    ed.clear();
    assert_eq!(ed.captured(Color::Black, PieceKind::Horse), 0);
}

#[test]
fn play_from_a_jieqi_position() {
    let ed = Editor::from_fen(J, MIDGAME).unwrap();
    let vs = ed.vs_computer(Color::Red, 1).unwrap();
    assert_eq!(vs.state().fen, MIDGAME);
    let p = ed.proposal(Color::Black).unwrap();
    assert_eq!((p.game, p.start_fen.as_str()), (J, MIDGAME));
    let mut bad = ed.clone();
    bad.place_face_down(sq(&bad, "e5"), Color::Black).unwrap();
    assert!(matches!(bad.vs_computer(Color::Red, 1), Err(EditorError::Illegal(v)) if v.len() == 1));
    assert!(bad.proposal(Color::Red).is_err());
}

/// One random edit: a face-up piece, a face-down piece, a removal or a captured count.
#[derive(Clone, Debug)]
enum Edit {
    Up(u8, bool, usize),
    Down(u8, bool),
    Remove(u8),
    Captured(bool, usize, u8),
}

fn edit() -> impl Strategy<Value = Edit> {
    // Squares past the board (90..100) test the refusals.
    prop_oneof![
        (0u8..100, any::<bool>(), 0usize..7).prop_map(|(s, c, k)| Edit::Up(s, c, k)),
        (0u8..100, any::<bool>()).prop_map(|(s, c)| Edit::Down(s, c)),
        // Face-down pieces mostly on home squares, as a real position has them.
        (0usize..30, any::<bool>()).prop_map(|(i, c)| {
            let home = [0u8, 1, 2, 3, 5, 6, 7, 8, 19, 25, 27, 29, 31, 33, 35];
            let s = home[i % 15];
            Edit::Down(if c { 89 - s } else { s }, c)
        }),
        (0u8..100).prop_map(Edit::Remove),
        (any::<bool>(), 0usize..7, 0u8..7).prop_map(|(c, k, n)| Edit::Captured(c, k, n)),
    ]
}

fn color(black: bool) -> Color {
    if black { Color::Black } else { Color::Red }
}

proptest! {
    #![proptest_config(banco_game::testing::proptest_config(Some(400), 0x31EC))]

    /// Random edits never panic; the FEN reads back to the same editor; a position without
    /// problems is one a jieqi game accepts, and one a game accepts has no problem unless
    /// pieces were marked captured beyond what the board leaves.
    #[test]
    fn random_boards_never_panic_and_playable_means_accepted(
        red_king in 0usize..9,
        black_king in 0usize..9,
        black_to_move in any::<bool>(),
        edits in proptest::collection::vec(edit(), 0..24),
    ) {
        let palace = [3u8, 4, 5, 12, 13, 14, 21, 22, 23];
        let mut ed = Editor::empty(J).unwrap();
        ed.place(palace[red_king], Color::Red, PieceKind::King).unwrap();
        ed.place(89 - palace[black_king], Color::Black, PieceKind::King).unwrap();
        ed.set_side_to_move(color(black_to_move));
        let kinds = piece_kinds(J);
        let mut marked = false;
        for e in edits {
            let r = match e {
                Edit::Up(s, c, k) => ed.place(s, color(c), kinds[k % kinds.len()]),
                Edit::Down(s, c) => ed.place_face_down(s, color(c)),
                Edit::Remove(s) => ed.remove(s).map(|_| ()),
                Edit::Captured(c, k, n) => {
                    let r = ed.set_captured(color(c), kinds[k % kinds.len()], n);
                    marked |= r.is_ok() && n > 0;
                    r
                }
            };
            prop_assert!(r.is_ok() || matches!(r, Err(EditorError::OffBoard(_) | EditorError::CapturedCount { .. } | EditorError::KingCaptured)), "{r:?}");
        }
        let fen = ed.fen();
        let back = Editor::from_fen(J, &fen).unwrap();
        prop_assert_eq!(back.fen(), fen.clone());
        let _ = ed.view();
        let problems = ed.problems();
        let accepted = AnyGame::from_fen(J, &fen);
        if problems.is_empty() {
            prop_assert!(accepted.is_ok(), "{fen}: {:?}", accepted.err());
            prop_assert!(ed.game().is_ok());
        } else if !marked {
            prop_assert!(accepted.is_err(), "{fen}: {problems:?}");
        }
        prop_assert!(!problems.iter().any(|p| p.text.is_empty()));
    }
}

#[test]
fn the_view_lists_the_captured_counts_of_every_kind_but_the_king() {
    let mut ed = Editor::from_fen(J, MIDGAME).unwrap();
    let view = ed.view();
    // Six kinds a side, Red's first, in the pools' order.
    assert_eq!(view.captured.len(), 12);
    assert!(
        view.captured
            .iter()
            .all(|c| c.piece.kind != PieceKind::King)
    );
    assert_eq!(
        view.captured
            .iter()
            .map(|c| (c.piece.color, c.piece.letter, c.count, c.max))
            .take(6)
            .collect::<Vec<_>>(),
        [
            (Color::Red, 'A', 0, 2),
            (Color::Red, 'B', 0, 2),
            (Color::Red, 'N', 0, 2),
            (Color::Red, 'R', 0, 2),
            (Color::Red, 'C', 0, 2),
            (Color::Red, 'P', 0, 5),
        ]
    );
    // Black's revealed rook captured: the FEN's pool says so.
    let rook = |v: &EditorView| {
        v.captured
            .iter()
            .find(|c| c.piece.color == Color::Black && c.piece.kind == PieceKind::Rook)
            .map(|c| c.count)
    };
    assert_eq!(rook(&view), Some(1));
    ed.set_captured(Color::Black, PieceKind::Rook, 0).unwrap();
    assert_eq!(rook(&ed.view()), Some(0));
    assert_eq!(ed.view().pools[1].total, view.pools[1].total + 1);
    assert!(
        Editor::start(GameKind::Xiangqi)
            .unwrap()
            .view()
            .captured
            .is_empty()
    );
}
