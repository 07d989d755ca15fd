//! Rust-side tests of refusals at the boundary: each bad input gets the error that names
//! it (whose turn it is, a square off the board, a notation of another game, a setting of
//! another game, a time out of range) and changes nothing.

use crate::*;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

struct States(Mutex<Sender<VsState>>);

impl VsListener for States {
    fn on_state(&self, state: VsState) {
        let _ = self.0.lock().unwrap().send(state);
    }
}

fn vs(kind: GameKind, human: Color, fen: Option<&str>) -> (Arc<VsComputer>, Receiver<VsState>) {
    let (tx, rx) = mpsc::channel();
    let settings = VsSettings {
        kind,
        human,
        level: 1,
        rules: None,
        movetime_ms: 50,
        fen: fen.map(str::to_owned),
        chance_seed: None,
    };
    let vs = VsComputer::new(settings, Arc::new(States(Mutex::new(tx)))).unwrap();
    (vs, rx)
}

fn mv(from: u8, to: u8) -> Move {
    Move {
        from,
        to,
        promotion: None,
    }
}

#[test]
fn a_move_on_the_computers_turn_hears_whose_turn_it_is() {
    // The player is Black: Red (the computer) moves first.
    let (vs, _rx) = vs(GameKind::Xiangqi, Color::Black, None);
    let turn = BancoError::NotAvailable("it is the computer's turn".into());
    // h7e7: Black's cannon, a move of the player's own; h2e2: Red's.
    assert_eq!(vs.play(mv(70, 67)).err(), Some(turn.clone()));
    assert_eq!(vs.play_text("h7e7".into()).err(), Some(turn.clone()));
    assert_eq!(vs.play_text("炮8平5".into()).err(), Some(turn.clone()));
    assert_eq!(vs.play_text("zz".into()).err(), Some(turn));
    vs.end().unwrap();
}

/// Not the player's turn is one refusal for an embedder: `NotAvailable` in a match as
/// against the computer (a match used to say `Match`), whatever the move.
#[test]
fn a_move_in_the_other_players_turn_is_the_same_refusal_in_a_match() {
    let offer = MatchOffer {
        game: GameKind::Xiangqi,
        your_color: Color::Red,
        rules: None,
        start_fen: None,
        clock: None,
        race: None,
    };
    let ((host, _host_rx), (guest, _guest_rx)) = crate::tests_match::started(offer);
    let turn = BancoError::NotAvailable("it is not your turn".into());
    // The guest is Black: h7e7 is its own cannon's move, h2e2 Red's.
    assert_eq!(guest.play(mv(70, 67)).err(), Some(turn.clone()));
    assert_eq!(guest.play_text("h7e7".into()).err(), Some(turn.clone()));
    assert_eq!(guest.play_text("zz".into()).err(), Some(turn));
    assert!(host.play_text("h2e2".into()).is_ok());
    host.leave().unwrap();
    guest.leave().unwrap();
}

#[test]
fn a_square_off_the_board_is_a_bad_square_everywhere() {
    let (vs, rx) = vs(GameKind::Xiangqi, Color::Red, None);
    rx.recv_timeout(Duration::from_secs(30)).unwrap();
    assert!(matches!(
        vs.legal_moves_from(200),
        Err(BancoError::BadSquare { index: 200, .. })
    ));
    assert!(matches!(
        vs.play(mv(200, 0)),
        Err(BancoError::BadSquare { index: 200, .. })
    ));
    assert_eq!(vs.legal_moves_from(25).unwrap().len(), 12);
    vs.end().unwrap();
}

#[test]
fn a_thinking_time_out_of_range_is_refused_for_puzzles_too() {
    let (tx, _rx) = mpsc::channel();
    let l: Arc<dyn VsListener> = Arc::new(States(Mutex::new(tx)));
    let p = builtin_puzzles().remove(0);
    for ms in [0, 3_600_001] {
        assert!(
            matches!(
                VsComputer::puzzle(p.clone(), ms, l.clone()),
                Err(BancoError::InvalidArgument(m)) if m.contains("1 ms to 1 hour")
            ),
            "{ms}"
        );
        let progress = PuzzleProgress::new();
        let id2 = collection_puzzles(None).remove(0).id;
        assert!(
            matches!(
                VsComputer::try_puzzle(id2.clone(), progress.clone(), ms, l.clone()),
                Err(BancoError::InvalidArgument(m)) if m.contains("1 ms to 1 hour")
            ),
            "{ms}"
        );
        assert_eq!(
            progress.record(id2.clone()).unwrap().attempts,
            0,
            "nothing recorded"
        );
    }
}

#[test]
fn a_notation_of_another_game_is_refused_when_writing_too() {
    let game = Game::new(GameKind::Xiangqi).unwrap();
    game.play(mv(25, 22)).unwrap();
    let wrong = BancoError::BadMoveText("SAN notation is not used in xiangqi".into());
    assert_eq!(
        game.move_text(mv(70, 67), Notation::San).err(),
        Some(wrong.clone())
    );
    assert_eq!(game.history_text(Notation::San).err(), Some(wrong));
    assert_eq!(game.history_text(Notation::Wxf).unwrap(), ["C2.5"]);
    let chess = Game::new(GameKind::Chess).unwrap();
    assert!(matches!(
        chess.history_text(Notation::Chinese),
        Err(BancoError::BadMoveText(m)) if m == "Chinese notation is not used in chess"
    ));
}

#[test]
fn castling_and_en_passant_are_chess_settings_only() {
    let ed = Editor::start(GameKind::Xiangqi).unwrap();
    let before = ed.view().unwrap();
    assert_eq!(
        ed.set_castling(Color::Red, true, false).err(),
        Some(BancoError::InvalidArgument(
            "xiangqi has no castling".into()
        ))
    );
    assert_eq!(
        ed.set_en_passant(Some(40)).err(),
        Some(BancoError::InvalidArgument(
            "xiangqi has no en passant".into()
        ))
    );
    assert_eq!(ed.view().unwrap(), before);
    let chess = Editor::start(GameKind::Chess).unwrap();
    chess.set_castling(Color::Red, true, false).unwrap();
    chess.set_en_passant(None).unwrap();
}

#[test]
fn a_promotion_piece_not_offered_is_refused_and_the_choice_stays() {
    let (vs, rx) = vs(
        GameKind::Chess,
        Color::Red,
        Some("7k/P7/8/8/8/8/8/K7 w - - 0 1"),
    );
    rx.recv_timeout(Duration::from_secs(30)).unwrap();
    // a7 (column 0, row 1 from the top) to a8 (row 0).
    assert_eq!(vs.tap(0, 1).unwrap(), TapResult::Selected { square: 48 });
    assert!(matches!(
        vs.tap(0, 0).unwrap(),
        TapResult::ChoosePromotion { .. }
    ));
    let e = vs.choose_promotion(PieceKind::Pawn).unwrap_err();
    assert_eq!(
        e,
        BancoError::InvalidArgument(
            "a pawn cannot become a pawn: choose knight, bishop, rook or queen".into()
        )
    );
    let s = vs.state().unwrap();
    assert!(s.board.promotion.is_some(), "still asked");
    assert!(s.moves.is_empty());
    assert!(matches!(
        vs.choose_promotion(PieceKind::Queen).unwrap(),
        TapResult::Moved { .. }
    ));
    vs.end().unwrap();
}

#[test]
fn lines_is_refused_by_the_board_game_calls_with_one_error() {
    let lines = BancoError::InvalidArgument("Lines is played with LinesGame".into());
    let (tx, _rx) = mpsc::channel();
    let settings = VsSettings {
        kind: GameKind::Lines,
        human: Color::Red,
        level: 1,
        rules: None,
        movetime_ms: 50,
        fen: None,
        chance_seed: None,
    };
    assert_eq!(
        VsComputer::new(settings, Arc::new(States(Mutex::new(tx)))).err(),
        Some(lines.clone())
    );
    assert_eq!(Game::new(GameKind::Lines).err(), Some(lines.clone()));
    assert_eq!(
        Game::from_fen(GameKind::Lines, "9/9".into()).err(),
        Some(lines.clone())
    );
    // The free functions about games answer for Lines or refuse it naming what to call
    // instead: `tests_lines_kind`.
    assert_eq!(Editor::empty(GameKind::Lines).err(), Some(lines.clone()));
    let puzzle = Puzzle {
        name: "lines?".into(),
        kind: GameKind::Lines,
        fen: "9/9".into(),
        mate_in: 1,
    };
    let (tx, _rx) = mpsc::channel();
    assert_eq!(
        VsComputer::puzzle(puzzle, 100, Arc::new(States(Mutex::new(tx)))).err(),
        Some(lines)
    );
}

#[test]
fn the_editor_refuses_a_square_off_the_board_as_every_call_does() {
    let ed = Editor::empty(GameKind::Xiangqi).unwrap();
    assert!(matches!(
        ed.place(90, Color::Red, PieceKind::Rook, false),
        Err(BancoError::BadSquare {
            index: 90,
            width: 9,
            height: 10,
            last: 89
        })
    ));
    assert!(matches!(
        ed.remove(200),
        Err(BancoError::BadSquare { index: 200, .. })
    ));
    assert!(ed.place(89, Color::Red, PieceKind::Rook, false).is_ok());
}
