//! Rust-side tests of a local jieqi [`Game`]: two players on one device, every reveal
//! dealt on the device and played with its step.

use crate::tests::{Recorder, States, wait_for};
use crate::*;
use std::sync::{Arc, Mutex};

/// `a0a1`: Red's face-down piece on a0 steps up.
const A0A1: Move = Move {
    from: 0,
    to: 9,
    promotion: None,
};

#[test]
fn a_step_that_turns_a_piece_over_is_played_with_its_reveal() {
    let game = Game::new(GameKind::Jieqi).unwrap();
    let rec = Arc::new(Recorder::default());
    game.set_listener(Some(rec.clone())).unwrap();
    let played = game.play(A0A1).unwrap();
    let revealed = played
        .revealed
        .clone()
        .expect("the step turned the piece over");
    assert!(!revealed.face_down);
    assert_eq!(
        played.announcement.as_deref(),
        Some(format!("rook a0 revealed: {}", revealed.name).as_str())
    );
    assert_eq!(game.piece_at(9).unwrap(), Some(revealed.clone()));
    // Black's turn, with moves to make: the game is not stuck awaiting the reveal.
    let status = game.status().unwrap();
    assert_eq!(status.side_to_move, Color::Black);
    assert_eq!(status.outcome, None);
    let moves = game.legal_moves().unwrap();
    assert!(moves.len() > 40, "{}", moves.len());
    assert!(game.play(moves[0]).is_ok());
    let events = rec.0.lock().unwrap().clone();
    assert!(
        matches!(&events[0], GameEvent::MovePlayed { played: p } if p.revealed == Some(revealed.clone())),
        "{events:?}"
    );
    // The history and its text tell each reveal with its step.
    let history = game.history().unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!(history[0].revealed, Some(revealed));
    let text = game.history_text(Notation::Coordinate).unwrap();
    assert_eq!(text.len(), 2);
    assert!(text[0].starts_with("a0a1="), "{text:?}");
}

#[test]
fn undo_takes_a_reveal_back_with_its_step_and_the_deal_holds() {
    let game = Game::with_chance_seed(GameKind::Jieqi, None, 7).unwrap();
    let start = game.fen().unwrap();
    let first = game.play(A0A1).unwrap();
    let after = game.fen().unwrap();
    assert_eq!(game.undo().unwrap(), Some(A0A1));
    assert_eq!(game.fen().unwrap(), start);
    assert_eq!(game.status().unwrap().ply, 0);
    assert!(game.status().unwrap().can_redo);
    let again = game.redo().unwrap().expect("a move to redo");
    assert_eq!(again.revealed, first.revealed);
    assert_eq!(game.fen().unwrap(), after);
    // Played again by hand after undo: the same piece (undo cannot draw again).
    game.undo().unwrap();
    assert_eq!(game.play(A0A1).unwrap().revealed, first.revealed);
    // A reveal cannot be played from outside: none is ever pending.
    let reveal = Move {
        from: 9,
        to: 9,
        promotion: None,
    };
    assert!(!game.is_legal(reveal).unwrap());
    assert!(game.play(reveal).is_err());
}

#[test]
fn a_chance_seed_repeats_the_reveals() {
    let steps = ["a0a1", "a9a8", "i0i1", "i9i8", "b2b9"];
    let reveals = |seed| {
        let game = Game::with_chance_seed(GameKind::Jieqi, None, seed).unwrap();
        steps
            .iter()
            .map(|s| game.play_text((*s).to_owned(), None).unwrap().revealed)
            .collect::<Vec<_>>()
    };
    let seven = reveals(7);
    assert!(seven.iter().all(Option::is_some), "{seven:?}");
    assert_eq!(reveals(7), seven);
    assert!(
        (8..16).any(|seed| reveals(seed) != seven),
        "another seed deals otherwise"
    );
}

#[test]
fn a_saved_jieqi_game_goes_on_after_loading() {
    let game = Game::new(GameKind::Jieqi).unwrap();
    game.play(A0A1).unwrap();
    let back = Game::load(game.save().unwrap()).unwrap();
    assert_eq!(back.fen().unwrap(), game.fen().unwrap());
    assert!(!back.legal_moves().unwrap().is_empty());
    // A record saved while a reveal was pending (as the game used to leave it) gets its
    // reveal on loading.
    let mut stuck = banco_app::any::AnyGame::new(banco_game::GameKind::Jieqi).unwrap();
    let step = stuck.move_from_parts(0, 9, None).unwrap();
    banco_game::Game::play(&mut stuck, step).unwrap();
    assert!(banco_game::Game::awaits_chance(&stuck));
    let rules = banco_app::any::AnyRules::usual(banco_game::GameKind::Jieqi);
    let bytes = banco_app::save::SavedGame::of(&stuck, rules)
        .encode()
        .unwrap();
    let loaded = Game::load(bytes).unwrap();
    assert_eq!(loaded.status().unwrap().side_to_move, Color::Black);
    assert!(!loaded.legal_moves().unwrap().is_empty());
    assert!(loaded.history().unwrap()[0].revealed.is_some());
}

/// The reveals of `steps` played on `game` (each step's turned-up piece).
fn reveals_of(game: &Game, steps: &[&str]) -> Vec<Option<Piece>> {
    steps
        .iter()
        .map(|s| game.play_text((*s).to_owned(), None).unwrap().revealed)
        .collect()
}

#[test]
fn save_and_load_cannot_deal_the_face_down_pieces_again() {
    // Red and Black each turn a piece over; the rest stays face down.
    let steps = ["a0a1", "a9a8"];
    let later = ["i0i1", "i9i8", "b2b9", "h7h0"];
    for seed in 0..6 {
        let game = Game::with_chance_seed(GameKind::Jieqi, None, seed).unwrap();
        // Saved before any reveal, and after two.
        let fresh = game.save().unwrap();
        reveals_of(&game, &steps);
        let saved = game.save().unwrap();
        let tags = banco_app::save::SavedGame::decode(&saved).unwrap().tags;
        let deals: Vec<_> = tags.iter().filter(|(k, _)| k == "Deal").collect();
        assert_eq!(deals.len(), 2, "{tags:?}");
        assert!(deals[0].1.starts_with("red a0=") && deals[1].1.starts_with("black a6="));
        let to_come = reveals_of(&game.copy().unwrap(), &later);
        assert!(to_come.iter().all(Option::is_some), "{to_come:?}");
        // Loading (fresh randomness from the system) turns up the same pieces, each time.
        for _ in 0..3 {
            assert_eq!(
                reveals_of(&Game::load(saved.clone()).unwrap(), &later),
                to_come
            );
            let from_start = Game::load(fresh.clone()).unwrap();
            reveals_of(&from_start, &steps);
            assert_eq!(reveals_of(&from_start, &later), to_come, "seed {seed}");
        }
    }
}

#[test]
fn a_record_with_a_damaged_deal_is_refused() {
    let game = Game::with_chance_seed(GameKind::Jieqi, None, 3).unwrap();
    reveals_of(&game, &["a0a1"]);
    let mut saved = banco_app::save::SavedGame::decode(&game.save().unwrap()).unwrap();
    let red = saved.tags.iter().position(|(k, _)| k == "Deal").unwrap();
    for bad in ["", "green a0=R", "red a0=R"] {
        let mut forged = saved.clone();
        forged.tags[red].1 = bad.to_owned();
        match Game::load(forged.encode().unwrap()) {
            Err(BancoError::BadSave(text)) => assert!(text.contains("`Deal` tag"), "{text}"),
            Err(other) => panic!("{bad}: {other:?}"),
            Ok(_) => panic!("{bad}: loaded"),
        }
    }
    // The same side's deal twice.
    let black = saved.tags.iter().rposition(|(k, _)| k == "Deal").unwrap();
    saved.tags[black] = saved.tags[red].clone();
    assert!(matches!(
        Game::load(saved.encode().unwrap()),
        Err(BancoError::BadSave(text)) if text.contains("twice")
    ));
}

/// A step that turns a piece over ends after its reveal: its `ply` is the record's ply
/// (`status().ply`), as played, in the history and in a game against the computer's last
/// move (the two were one less: the step's own ply).
#[test]
fn a_step_with_its_reveal_ends_at_the_records_ply() {
    let game = Game::with_chance_seed(GameKind::Jieqi, None, 7).unwrap();
    let first = game.play_text("h2e2".into(), None).unwrap();
    assert!(first.revealed.is_some());
    assert_eq!((first.ply, game.status().unwrap().ply), (2, 2));
    let second = game.play_text("h7e7".into(), None).unwrap();
    assert!(second.revealed.is_some());
    assert_eq!((second.ply, game.status().unwrap().ply), (4, 4));
    let plies: Vec<u32> = game.history().unwrap().iter().map(|p| p.ply).collect();
    assert_eq!(plies, [2, 4]);

    let settings = VsSettings {
        kind: GameKind::Jieqi,
        human: Color::Red,
        level: 1,
        rules: None,
        movetime_ms: 20,
        fen: None,
        chance_seed: Some(7),
    };
    let (tx, rx) = std::sync::mpsc::channel();
    let vs = VsComputer::new(settings, Arc::new(States(Mutex::new(tx)))).unwrap();
    wait_for(&rx, |s| s.your_turn);
    assert_eq!(vs.play_text("h2e2".into()).unwrap().ply, 2);
    let after = wait_for(&rx, |s| s.moves.len() == 1);
    assert_eq!(after.last_move.map(|m| m.ply), Some(2));
    // The computer's answer: two plies more if it turned a piece over, else one.
    let answered = wait_for(&rx, |s| s.moves.len() == 2 && s.your_turn);
    let reply = answered.last_move.expect("the computer's move");
    let expected = if reply.revealed.is_some() { 4 } else { 3 };
    assert_eq!(reply.ply, expected, "{reply:?}");
}
