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
