//! Save errors a shell acts on without reading their text (revS #3): a record of a newer
//! Banco is `NewerSave` (keep it, update the app), one of another game `WrongGame`, and only
//! damage is `BadSave` — for games, computer games, Lines games, best scores and puzzle
//! progress alike.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::tests::States;
use crate::*;
use std::sync::{Arc, Mutex};

/// `bytes` as a newer Banco would write them: the format version (after the 8-byte magic)
/// past this build's.
fn newer(mut bytes: Vec<u8>) -> Vec<u8> {
    bytes[8] = 200;
    bytes
}

/// `bytes` cut short in the middle of the record.
fn cut(bytes: &[u8]) -> Vec<u8> {
    bytes[..bytes.len() - 3].to_vec()
}

fn lines_settings() -> LinesSettings {
    LinesSettings {
        start_balls: 5,
        undo: LinesUndo::LastTurn,
        preview: false,
    }
}

#[track_caller]
fn newer_save<T>(r: Result<T, BancoError>) {
    match r.map(|_| ()) {
        Err(BancoError::NewerSave(m)) => assert!(m.contains("update the app"), "{m}"),
        other => panic!("expected NewerSave, got {other:?}"),
    }
}

#[test]
fn a_board_game_of_a_newer_banco_is_newer_save_and_damage_is_bad_save() {
    let game = Game::new(GameKind::Xiangqi).unwrap();
    game.play_text("h2e2".into(), None).unwrap();
    let good = game.save().unwrap();
    newer_save(Game::load(newer(good.clone())));
    let other = Game::new(GameKind::Chess).unwrap();
    newer_save(other.restore(newer(good.clone())));
    assert_eq!(
        other.kind().unwrap(),
        GameKind::Chess,
        "a refused restore changes nothing"
    );
    assert!(matches!(
        Game::load(cut(&good)).map(|_| ()),
        Err(BancoError::BadSave(_))
    ));
    // The computer's game: the shells' game to continue.
    let (tx, _rx) = std::sync::mpsc::channel();
    let settings = VsSettings {
        kind: GameKind::Xiangqi,
        human: Color::Red,
        level: 1,
        rules: None,
        movetime_ms: 50,
        fen: None,
        chance_seed: None,
    };
    let l = Arc::new(States(Mutex::new(tx)));
    newer_save(VsComputer::resume(
        newer(good.clone()),
        settings.clone(),
        l.clone(),
    ));
    assert!(matches!(
        VsComputer::resume(cut(&good), settings.clone(), l.clone()).map(|_| ()),
        Err(BancoError::BadSave(_))
    ));
    // A sound Lines game opened as a board game: neither damaged nor newer.
    let lines = LinesGame::new(lines_settings(), Some(3)).unwrap();
    match VsComputer::resume(lines.save().unwrap(), settings, l).map(|_| ()) {
        Err(BancoError::WrongGame(m)) => assert!(m.contains("Lines"), "{m}"),
        other => panic!("expected WrongGame, got {other:?}"),
    }
}

#[test]
fn lines_games_and_best_scores_of_a_newer_banco_are_newer_save() {
    let game = LinesGame::new(lines_settings(), Some(3)).unwrap();
    let h = game.hint().unwrap();
    game.play(h.from, h.to).unwrap();
    let good = game.save().unwrap();
    match LinesGame::load(newer(good.clone())) {
        Err(LinesError::NewerSave(m)) => assert!(m.contains("update the app"), "{m}"),
        other => panic!("expected NewerSave, got {:?}", other.map(|_| ())),
    }
    match game.restore(newer(good.clone())) {
        Err(LinesError::NewerSave(m)) => assert!(m.contains("update the app"), "{m}"),
        other => panic!("expected NewerSave, got {other:?}"),
    }
    match LinesGame::load(cut(&good)) {
        Err(LinesError::BadSave(m)) => {
            assert!(
                m.starts_with("this saved Lines game cannot be loaded: "),
                "{m}"
            );
        }
        other => panic!("expected BadSave, got {:?}", other.map(|_| ())),
    }
    let board = Game::new(GameKind::Chess).unwrap().save().unwrap();
    assert!(matches!(
        LinesGame::load(board),
        Err(LinesError::WrongGame(_))
    ));
    // Best scores: the table's first byte is its version; 7 is a newer table's.
    let mut table = game.best_scores_bytes().unwrap();
    table[0] = 7;
    // Each says it is the table, not a saved game.
    match game.load_best_scores(table.clone()) {
        Err(LinesError::NewerSave(m)) => {
            assert!(
                m.contains("update the app") && m.contains("best scores"),
                "{m}"
            );
            assert!(!m.contains("game"), "{m}");
        }
        other => panic!("expected NewerSave, got {other:?}"),
    }
    let damaged: Vec<u8> = vec![1, 0xff, 0xff, 0xff, 0xff, 0xff];
    match game.load_best_scores(damaged) {
        Err(LinesError::BadSave(m)) => {
            assert!(m.starts_with("the best scores are damaged"), "{m}");
        }
        other => panic!("expected BadSave, got {other:?}"),
    }
    let mut huge = game.best_scores_bytes().unwrap();
    huge.resize(200 * 1024, 0);
    match game.load_best_scores(huge) {
        Err(LinesError::BadSave(m)) => assert!(m.contains("table of best scores"), "{m}"),
        other => panic!("expected BadSave, got {other:?}"),
    }
    assert!(matches!(
        game.load_best_scores(good),
        Err(LinesError::WrongGame(_))
    ));
}

#[test]
fn puzzle_progress_of_a_newer_banco_is_newer_save() {
    let good = PuzzleProgress::new().save().unwrap();
    newer_save(PuzzleProgress::load(newer(good.clone())));
    assert!(matches!(
        PuzzleProgress::load(vec![9, 9]).map(|_| ()),
        Err(BancoError::BadSave(_))
    ));
}
