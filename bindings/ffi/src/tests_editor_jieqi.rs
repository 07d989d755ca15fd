//! The jieqi position editor through the boundary: the palette's face-down pieces are
//! placed and tapped with `face_down`, the pools follow the board and the pieces marked
//! captured, a legal position is played, and what jieqi has not is refused with its type.
#![allow(clippy::unwrap_used)]

use crate::error::BancoError;
use crate::*;

#[test]
fn a_jieqi_position_is_set_up_tapped_and_played() {
    assert!(editor_games().contains(&GameKind::Jieqi));
    let ed = Editor::empty(GameKind::Jieqi).unwrap();
    let view = ed.view().unwrap();
    let down: Vec<Piece> = view
        .palette
        .iter()
        .filter(|p| p.face_down)
        .cloned()
        .collect();
    assert_eq!(down.len(), 2, "a face-down piece of each colour");
    assert_eq!(
        (down[1].color, down[1].letter.as_str()),
        (Color::Black, "x")
    );
    // Kings on e0 and d9; a red face-down piece on a0 by tapping (column 0, bottom row).
    ed.place(4, Color::Red, PieceKind::King, false).unwrap();
    ed.place(84, Color::Black, PieceKind::King, false).unwrap();
    let (c, k, f) = (down[0].color, down[0].kind, down[0].face_down);
    assert_eq!(
        ed.tap(0, 9, Some(c), Some(k), f).unwrap(),
        EditorTap::Placed { square: 0 }
    );
    let view = ed.view().unwrap();
    let a0 = view.cells.iter().find(|c| c.name == "a0").unwrap();
    let piece = a0.piece.clone().unwrap();
    assert!(piece.face_down);
    assert_eq!(
        piece.kind,
        PieceKind::Rook,
        "it moves as its home square's piece"
    );
    assert!(view.problems.is_empty(), "{:?}", view.problems);
    assert_eq!((view.pools[0].total, view.pools[0].face_down), (15, 1));
    assert_eq!(
        view.fen,
        "3k5/9/9/9/9/9/9/9/9/X3K4 w R2A2C2P5N2B2r2a2c2p5n2b2 0 1"
    );
    // Every red piece but one rook was captured face up: the pool keeps one rook.
    for (kind, n) in [
        (PieceKind::Advisor, 2),
        (PieceKind::Elephant, 2),
        (PieceKind::Horse, 2),
        (PieceKind::Cannon, 2),
        (PieceKind::Pawn, 5),
        (PieceKind::Rook, 1),
    ] {
        ed.set_captured(Color::Red, kind, n).unwrap();
    }
    assert_eq!(ed.captured(Color::Red, PieceKind::Pawn).unwrap(), 5);
    let view = ed.view().unwrap();
    // The view lists every kind but the king for each side, with its count and maximum.
    assert_eq!(view.captured.len(), 12);
    let red: Vec<(String, u8, u8)> = view.captured[..6]
        .iter()
        .map(|c| (c.piece.letter.clone(), c.count, c.max))
        .collect();
    assert_eq!(
        red,
        [
            ("A", 2, 2),
            ("B", 2, 2),
            ("N", 2, 2),
            ("R", 1, 2),
            ("C", 2, 2),
            ("P", 5, 5)
        ]
        .map(|(l, n, m)| (l.to_owned(), n, m))
    );
    assert!(
        view.captured[6..]
            .iter()
            .all(|c| c.piece.color == Color::Black && c.count == 0)
    );
    assert_eq!(view.pools[0].total, 1);
    assert!(view.fen.contains(" R1A0C0P0N0B0r2"), "{}", view.fen);
    let game = ed.to_game().unwrap();
    assert_eq!(
        (game.kind().unwrap(), game.fen().unwrap()),
        (GameKind::Jieqi, view.fen)
    );
    assert!(ed.render_svg().unwrap().contains("暗"));
    // A second face-down piece is one more than the pool can be.
    ed.place(1, c, k, true).unwrap();
    let problems = ed.problems().unwrap();
    assert_eq!(problems.len(), 1);
    assert!(
        problems[0]
            .text
            .starts_with("red has 2 face-down pieces but only 1")
    );
    assert!(matches!(ed.to_game(), Err(BancoError::InvalidPosition(_))));
}

#[test]
fn what_jieqi_has_not_and_other_games_have_not_is_refused() {
    let ed = Editor::start(GameKind::Jieqi).unwrap();
    assert!(matches!(ed.solve(3), Err(BancoError::Unsupported(m)) if m.contains("no mate solver")));
    assert!(matches!(
        ed.set_captured(Color::Red, PieceKind::King, 1),
        Err(BancoError::InvalidArgument(_))
    ));
    assert!(matches!(
        ed.set_castling(Color::Red, true, true),
        Err(BancoError::InvalidArgument(_))
    ));
    let xq = Editor::start(GameKind::Xiangqi).unwrap();
    assert!(xq.view().unwrap().palette.iter().all(|p| !p.face_down));
    assert!(xq.view().unwrap().pools.is_empty());
    assert!(xq.view().unwrap().captured.is_empty());
    assert!(matches!(
        xq.place(0, Color::Red, PieceKind::Rook, true),
        Err(BancoError::InvalidArgument(m)) if m == "xiangqi has no face-down piece"
    ));
    assert!(matches!(
        xq.set_captured(Color::Red, PieceKind::Rook, 1),
        Err(BancoError::InvalidArgument(_))
    ));
}
