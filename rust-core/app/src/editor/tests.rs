//! Tests of the position editor (xiangqi and chess; jieqi in `jieqi_tests`).

#![allow(clippy::unwrap_used)]
use super::*;

#[test]
fn the_games_listed_are_the_games_the_editor_sets_up() {
    for k in GameKind::ALL {
        let listed = games().contains(&k);
        assert_eq!(Editor::empty(k).is_ok(), listed, "{k}");
        assert_eq!(Editor::start(k).is_ok(), listed, "{k}");
    }
    assert_eq!(
        games(),
        [GameKind::Xiangqi, GameKind::Chess, GameKind::Jieqi]
    );
}

#[test]
fn an_illegal_board_is_allowed_while_editing() {
    let mut ed = Editor::start(GameKind::Xiangqi).unwrap();
    assert!(ed.problems().is_empty());
    // A third rook, an advisor out of its palace, a pawn behind its start.
    ed.place(ed.square_named("e5").unwrap(), Color::Red, PieceKind::Rook)
        .unwrap();
    ed.place(
        ed.square_named("a1").unwrap(),
        Color::Red,
        PieceKind::Advisor,
    )
    .unwrap();
    ed.place(ed.square_named("c1").unwrap(), Color::Red, PieceKind::Pawn)
        .unwrap();
    let texts: Vec<String> = ed.problems().into_iter().map(|p| p.text).collect();
    assert_eq!(
        texts,
        vec![
            "red has 3 advisors, at most 2 allowed",
            "red has 3 rooks, at most 2 allowed",
            "red has 6 pawns, at most 5 allowed",
            "the advisor on a1 is outside its palace",
            "the pawn on c1 is behind its start rank",
        ]
    );
    let view = ed.view();
    assert!(view.cells.iter().any(|c| c.problem && c.name == "a1"));
    assert!(matches!(ed.game(), Err(EditorError::Illegal(v)) if v.len() == 5));
    assert!(ed.vs_computer(Color::Red, 3).is_err());
    assert_eq!(
        ed.place(0, Color::Red, PieceKind::Queen),
        Err(EditorError::NotInPalette {
            game: "xiangqi",
            piece: "queen"
        })
    );
    assert_eq!(ed.remove(90), Err(EditorError::OffBoard(90)));
}

#[test]
fn chess_rights_and_checks() {
    let mut ed = Editor::start(GameKind::Chess).unwrap();
    assert_eq!(ed.fen(), banco_chess::fen::START_FEN);
    ed.remove(ed.square_named("h1").unwrap()).unwrap();
    let texts: Vec<String> = ed.problems().into_iter().map(|p| p.text).collect();
    assert_eq!(
        texts,
        vec!["white may castle king side (O-O) but has no rook on h1"]
    );
    ed.set_castling(Color::Red, true, false);
    assert!(ed.problems().is_empty());
    ed.set_side_to_move(Color::Black);
    ed.clear();
    assert_eq!(ed.problems().len(), 2, "no kings");
    assert_eq!(ed.fen(), "8/8/8/8/8/8/8/8 b - - 0 1");
}

#[test]
fn taps_place_and_remove_and_the_view_turns() {
    let mut ed = Editor::empty(GameKind::Xiangqi).unwrap();
    let brush = Some(Brush::Piece(Color::Red, PieceKind::King));
    // e0 is at screen column 4, bottom row 9.
    assert_eq!(ed.tap(4, 9, brush).unwrap(), EditTap::Placed(4));
    assert_eq!(ed.tap(4, 9, brush).unwrap(), EditTap::Removed(4));
    assert_eq!(ed.tap(9, 0, brush).unwrap(), EditTap::Ignored);
    ed.flip();
    // Flipped: e0 is at column 4, top row 0.
    assert_eq!(ed.tap(4, 0, brush).unwrap(), EditTap::Placed(4));
    let v = ed.view();
    assert_eq!(v.cells[4].piece.as_ref().unwrap().glyph, '帥');
    assert_eq!(v.palette.len(), 14);
}

#[test]
fn play_and_solve_from_here() {
    let game = AnyGame::from_fen(
        GameKind::Xiangqi,
        "9/9/4Nk3/3c2p2/3r2P2/3p2B2/3p2r2/4KC3/9/9 w - - 0 1",
    )
    .unwrap();
    let ed = Editor::from_game(&game).unwrap();
    let found = ed.solve(6).unwrap();
    assert_eq!(found.mate, Some(5));
    assert_eq!(found.line.len(), 9);
    let vs = ed.vs_computer(Color::Red, 2).unwrap();
    assert_eq!(vs.state().fen, game.fen());
    let p = ed.proposal(Color::Black).unwrap();
    assert_eq!(p.start_fen, game.fen());
}

/// The last two fields of a FEN: the half-move clock and the full-move number.
fn counters(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    fields[fields.len() - 2..].join(" ")
}

#[test]
fn the_move_counters_are_kept_and_an_edit_restarts_the_clock() {
    for (kind, fen, square) in [
        (
            GameKind::Xiangqi,
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 12 40",
            "e5",
        ),
        (
            GameKind::Chess,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 12 40",
            "e4",
        ),
        (
            GameKind::Jieqi,
            "xxxxkxxx1/9/1x5x1/x3x1x1x/9/9/X1X1X1X1X/1X2C4/9/XXXXKXXXX w R2A2C1P5N2B2r1a2c2p5n2b2 12 40",
            "e5",
        ),
    ] {
        // Loaded and exported unchanged: the counters as they were, in the game too.
        let mut ed = Editor::from_fen(kind, fen).unwrap();
        assert_eq!(ed.fen(), fen, "{kind}");
        assert_eq!((ed.halfmoves(), ed.fullmoves()), (12, 40), "{kind}");
        assert_eq!(counters(&ed.valid_fen().unwrap()), "12 40", "{kind}");
        // Choosing the side already to move, or removing from an empty square, is no edit.
        ed.set_side_to_move(Color::Red);
        let empty = ed.square_named(square).unwrap();
        ed.remove(empty).unwrap();
        assert_eq!(counters(&ed.fen()), "12 40", "{kind}");
        // An edit restarts the clock; the move number stays.
        ed.place(empty, Color::Red, PieceKind::Rook).unwrap();
        assert_eq!(counters(&ed.fen()), "0 40", "{kind}");
        ed.remove(empty).unwrap();
        assert_eq!(counters(&ed.valid_fen().unwrap()), "0 40", "{kind}");
        // A side-to-move change too: the second player's move 40.
        let mut ed = Editor::from_fen(kind, fen).unwrap();
        ed.set_side_to_move(Color::Black);
        assert_eq!(counters(&ed.fen()), "0 40", "{kind}");
        assert!(ed.fen().contains(" b "), "{kind}: {}", ed.fen());
        // Cleared: no clock, the move number stays; the start resets both.
        let mut ed = Editor::from_fen(kind, fen).unwrap();
        ed.clear();
        assert_eq!(counters(&ed.fen()), "0 40", "{kind}");
        ed.reset_to_start().unwrap();
        assert_eq!(counters(&ed.fen()), "0 1", "{kind}");
    }
}

#[test]
fn chess_rights_and_jieqi_captures_are_edits() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 7 30";
    let mut ed = Editor::from_fen(GameKind::Chess, fen).unwrap();
    ed.set_castling(Color::Red, true, true);
    assert_eq!(counters(&ed.fen()), "7 30");
    ed.set_castling(Color::Red, true, false);
    assert_eq!(counters(&ed.fen()), "0 30");
    let fen =
        "xxxxkxxx1/9/1x5x1/x3x1x1x/9/9/X1X1X1X1X/1X2C4/9/XXXXKXXXX b R2A2C1P5N2B2r1a2c2p5n2b2 5 9";
    let mut ed = Editor::from_fen(GameKind::Jieqi, fen).unwrap();
    ed.set_captured(Color::Red, PieceKind::Rook, 1).unwrap();
    assert_eq!(counters(&ed.fen()), "0 9", "{}", ed.fen());
}
