//! [`VsComputer`]'s tests: turns and searches, undo and redo, hints, resignation,
//! levels, saves and taps.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use super::*;

fn xq(human: Color) -> VsComputer {
    VsComputer::new(Settings::new(GameKind::Xiangqi, human, 3).unwrap()).unwrap()
}

/// Answers the computer's search with its first legal move.
fn answer(vs: &mut VsComputer) -> u64 {
    let r = vs.search_request().expect("a search");
    let mv = r.game.legal_move_vec()[0];
    assert!(vs.search_done(r.id, Some(mv)));
    r.id
}

#[test]
fn turns_searches_and_late_answers() {
    let mut vs = xq(Color::Red);
    assert!(vs.search_request().is_none());
    vs.play_text("h2e2").unwrap();
    assert!(vs.state().thinking);
    assert_eq!(vs.play_text("h7e7"), Err(ActionError::NotYourTurn));
    // A move of the player's own, or one the board cannot read, on the computer's
    // turn: whose turn it is, not why the move would be wrong.
    assert_eq!(vs.play_text("h0g2"), Err(ActionError::NotYourTurn));
    assert_eq!(vs.play_text("zz"), Err(ActionError::NotYourTurn));
    assert_eq!(vs.play_squares(1, 20, None), Err(ActionError::NotYourTurn));
    let first = vs.search_request().unwrap();
    // Undo while the computer thinks: allowed, the search is dropped.
    vs.undo().unwrap();
    assert!(vs.search_request().is_none());
    let mv = first.game.legal_move_vec()[0];
    assert!(
        !vs.search_done(first.id, Some(mv)),
        "a late answer is dropped"
    );
    assert_eq!(vs.game().ply(), 0);
    vs.play_text("h2e2").unwrap();
    let id = answer(&mut vs);
    assert!(!vs.search_done(id, Some(mv)), "an answer counts once");
    assert_eq!(vs.game().ply(), 2);
    assert!(vs.state().your_turn);
}

#[test]
fn undo_and_redo_by_whole_turns() {
    let mut vs = xq(Color::Black);
    assert!(!vs.can_undo());
    assert_eq!(vs.undo(), Err(ActionError::NothingToUndo));
    answer(&mut vs); // the computer opens
    assert!(
        !vs.can_undo(),
        "the computer's first move alone is not undone"
    );
    let reply = vs.game().legal_move_vec()[0];
    vs.play(reply).unwrap();
    answer(&mut vs);
    assert_eq!(vs.game().ply(), 3);
    vs.undo().unwrap();
    assert_eq!(vs.game().ply(), 1);
    assert!(vs.state().can_redo);
    vs.redo().unwrap();
    assert_eq!(vs.game().ply(), 3);
    assert!(vs.state().your_turn);
}

#[test]
fn levels_are_checked_not_clamped() {
    assert_eq!(
        Settings::new(GameKind::Xiangqi, Color::Red, 11),
        Err(ActionError::BadLevel(11))
    );
    let mut vs = xq(Color::Red);
    assert_eq!(vs.set_level(0), Err(ActionError::BadLevel(0)));
    vs.set_level(10).unwrap();
    assert_eq!(vs.state().level, 10);
}

#[test]
fn hints_resign_and_results_from_the_players_side() {
    let mut vs = xq(Color::Red);
    vs.hint().unwrap();
    let r = vs.search_request().unwrap();
    assert_eq!(r.job, Job::Hint);
    assert_eq!(r.level, Level::MAX);
    let mv = r.game.legal_move_vec()[3];
    assert!(vs.search_done(r.id, Some(mv)));
    assert_eq!(vs.state().hint.unwrap().mv, mv);
    vs.resign().unwrap();
    let s = vs.state();
    assert_eq!(s.result.as_deref(), Some("You lost: resignation"));
    assert!(vs.play(mv).is_err());
    assert_eq!(
        vs.claim_draw(),
        Err(ActionError::GameOver("You lost: resignation".into()))
    );
}

#[test]
fn undo_withdraws_a_resignation_and_keeps_the_moves() {
    let mut vs = xq(Color::Red);
    // Resigned at the start: undo still has the resignation to take back.
    vs.resign().unwrap();
    assert!(vs.can_undo());
    vs.undo().unwrap();
    assert_eq!(vs.outcome(), None);
    assert_eq!(vs.game().ply(), 0);
    // After a move pair: the position just before the resignation, the game live again.
    vs.play_text("h2e2").unwrap();
    answer(&mut vs);
    let before = banco_game::MatchGame::fen(vs.game());
    vs.resign().unwrap();
    vs.undo().unwrap();
    assert_eq!(vs.outcome(), None);
    assert_eq!(banco_game::MatchGame::fen(vs.game()), before);
    assert!(vs.your_turn() && vs.search_request().is_none());
    // A second undo takes back the moves as usual.
    vs.undo().unwrap();
    assert_eq!(vs.game().ply(), 0);
    // A claimed draw (chess, fifty moves) is withdrawn the same way.
    let mut settings = Settings::new(GameKind::Chess, Color::Red, 3).unwrap();
    settings.fen = Some("4k3/8/8/8/8/8/8/R3K3 w - - 100 80".into());
    let mut vs = VsComputer::new(settings).unwrap();
    vs.claim_draw().unwrap();
    assert!(vs.outcome().is_some());
    vs.undo().unwrap();
    assert_eq!(vs.outcome(), None);
    assert_eq!(vs.game().ply(), 0);
}

#[test]
fn save_and_continue() {
    let mut vs = xq(Color::Black);
    answer(&mut vs);
    let mv = vs.game().legal_move_vec()[1];
    vs.play(mv).unwrap();
    answer(&mut vs);
    vs.undo().unwrap();
    let bytes = vs.save().unwrap();
    let fallback = Settings::new(GameKind::Xiangqi, Color::Red, 5).unwrap();
    let back = VsComputer::resume(&bytes, &fallback).unwrap();
    assert_eq!(back.human(), Color::Black);
    assert_eq!(back.state().level, 3);
    assert_eq!(back.game().history(), vs.game().history());
    assert!(back.can_redo());
    assert!(VsComputer::resume(b"nonsense", &fallback).is_err());
}

#[test]
fn taps_play_moves() {
    let mut vs = xq(Color::Red);
    assert_eq!(vs.tap(7, 7).unwrap(), Tap::Selected { square: 25 });
    assert!(matches!(vs.tap(4, 7).unwrap(), Tap::Move(_)));
    assert_eq!(vs.game().ply(), 1);
    // Not the player's turn now: taps do nothing.
    assert_eq!(vs.tap(0, 9).unwrap(), Tap::Ignored);
}

/// The state's move list is numbered from the position: a chess game set up with Black to
/// move at move 7 starts `7... Kd8`, not `1. Kd8`; from the start position `1. C2.5 …`.
#[test]
fn the_move_list_is_numbered_from_the_position() {
    let mut settings = Settings::new(GameKind::Chess, Color::Black, 1).unwrap();
    settings.fen = Some("4k3/8/8/8/8/8/4P3/4K3 b - - 0 7".to_owned());
    let mut vs = VsComputer::new(settings).unwrap();
    assert!(vs.state().move_list.is_empty());
    vs.play_text("Kd8").unwrap();
    let r = vs.search_request().expect("White answers");
    let e4 = crate::notation::parse_move(&r.game, "e4", None).unwrap();
    assert!(vs.search_done(r.id, Some(e4)));
    let s = vs.state();
    assert_eq!(s.moves, ["Kd8", "e4"]);
    assert_eq!(s.move_list, ["7... Kd8", "8. e4"]);

    let mut vs = xq(Color::Red);
    vs.play_text("h2e2").unwrap();
    let first = &vs.state().move_list;
    assert_eq!(first.len(), 1);
    assert!(first[0].starts_with("1. "), "{first:?}");
}

#[test]
fn player_moved_counts_only_the_players_moves_on_this_object() {
    let mut vs = xq(Color::Black);
    assert!(!vs.state().player_moved);
    answer(&mut vs); // the computer opens
    assert!(
        !vs.state().player_moved,
        "the computer's move is not the player's"
    );
    let reply = vs.game().legal_move_vec()[0];
    vs.play(reply).unwrap();
    assert!(vs.state().player_moved);
    answer(&mut vs);
    // The same game resumed: its moves came with the record, none was played here yet.
    let bytes = vs.save().unwrap();
    let mut resumed = VsComputer::resume(
        &bytes,
        &Settings::new(GameKind::Xiangqi, Color::Red, 3).unwrap(),
    )
    .unwrap();
    assert!(resumed.can_undo(), "the record's moves can be taken back");
    assert!(
        !resumed.state().player_moved,
        "but the player has not moved here"
    );
    resumed.undo().unwrap();
    assert!(!resumed.state().player_moved, "taking back is not a move");
    resumed.redo().unwrap();
    assert!(
        resumed.state().player_moved,
        "a redone move is the player's"
    );
}
