//! The Lines game object across the FFI: a seeded game played by its hints, the turn a
//! shell animates, undo and redo, save and load, the best scores, and refusals as typed
//! errors.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::lines::*;

/// Plays `n` turns by the hint; what they did.
fn play_hints(game: &LinesGame, n: usize) -> Vec<LinesTurn> {
    (0..n)
        .map(|_| {
            let h = game.hint().unwrap();
            game.play(h.from, h.to).unwrap()
        })
        .collect()
}

/// What a shell draws while the ball walks is Rust's: the board before the turn with
/// the moved ball lifted — a line it completes whole, no landed ball yet — by a play,
/// a tap and a redo alike.
#[test]
fn a_turn_gives_the_board_to_draw_while_the_ball_walks() {
    let game = LinesGame::new(settings(LinesUndo::LastTurn), Some(3)).unwrap();
    let mut lines = 0;
    for n in 0..80 {
        let before = game.view().cells;
        let h = game.hint().unwrap();
        let turn = if n % 2 == 0 {
            game.play(h.from, h.to).unwrap()
        } else {
            game.tap(h.from).unwrap();
            match game.tap(h.to).unwrap() {
                LinesTap::Moved { turn } => turn,
                other => panic!("{other:?}"),
            }
        };
        let mut lifted = before.clone();
        lifted[usize::from(h.from)] = 0;
        assert_eq!(turn.walk_cells, lifted, "turn {n}");
        lines += usize::from(!turn.cleared.is_empty());
        if game.is_over() {
            break;
        }
    }
    assert!(lines > 0, "the game made a line");
    game.undo().unwrap();
    let before = game.view().cells;
    let turn = game.redo().unwrap();
    let mut lifted = before;
    lifted[usize::from(turn.path[0])] = 0;
    assert_eq!(turn.walk_cells, lifted);
}

fn settings(undo: LinesUndo) -> LinesSettings {
    LinesSettings {
        start_balls: 5,
        undo,
        preview: false,
    }
}

#[test]
fn a_seeded_game_played_by_hints_to_the_end() {
    let game = LinesGame::new(settings(LinesUndo::LastTurn), Some(11)).unwrap();
    let again = LinesGame::new(settings(LinesUndo::LastTurn), Some(11)).unwrap();
    assert_eq!(game.view(), again.view(), "a seed repeats the game");
    // A whole game: a third of the default budget's time a hint, the same rules.
    game.set_hint_playouts(30).unwrap();
    let mut turns = 0;
    while let Some(h) = game.hint() {
        let before = game.view();
        assert_ne!(
            before.cells[usize::from(h.from)],
            0,
            "the hint moves a ball"
        );
        assert_eq!(before.cells[usize::from(h.to)], 0, "to an empty cell");
        let turn = game.play(h.from, h.to).unwrap();
        assert_eq!(turn.path, h.path);
        assert_eq!(turn.color + 1, before.cells[usize::from(h.from)]);
        // Consecutive path cells are orthogonal neighbours.
        for w in turn.path.windows(2) {
            let (a, b) = (i32::from(w[0]), i32::from(w[1]));
            assert!((a - b).abs() == 9 || ((a - b).abs() == 1 && a / 9 == b / 9));
        }
        assert_eq!(turn.score, before.score + turn.points);
        if turn.cleared.is_empty() && !turn.game_over {
            let landed: Vec<u8> = turn.landed.iter().map(|b| b.color).collect();
            assert_eq!(landed, before.next_colors, "the announced balls land");
        }
        turns += 1;
        assert!(turns < 2000);
    }
    let view = game.view();
    assert!(view.game_over && game.is_over());
    assert_eq!(view.balls, 81);
    assert!(view.score > 0, "hints clear lines");
    assert_eq!(game.play(0, 1), Err(LinesError::GameOver));
    assert_eq!(game.record_result("2026-12-02".into()), Some(0));
    assert_eq!(game.record_result("2026-12-02".into()), None);
    let row = &game.best_scores()[0];
    assert_eq!(
        (row.rank, row.score, row.turns),
        (0, view.score, view.turns)
    );
    assert_eq!(
        row.text,
        format!(
            "1. {} points, {} turns (2026-12-02)",
            view.score, view.turns
        )
    );
    assert!(
        view.best_kind.hints && view.hints_used > 0,
        "a game of hints"
    );
    let table = game.best_scores_bytes().unwrap();
    game.new_game(None, Some(3)).unwrap();
    // A new game is without hints until one is asked: then it shows the best score
    // of the games with hints, from the table the new game kept.
    assert_eq!(game.view().best_score, 0, "no game without hints yet");
    assert_eq!(game.view().hints_used, 0);
    game.hint().unwrap();
    assert_eq!(
        game.view().best_score,
        view.score,
        "new game keeps the table"
    );
    let other = LinesGame::new(settings(LinesUndo::Off), None).unwrap();
    other.load_best_scores(table).unwrap();
    assert_eq!(other.best_scores(), game.best_scores());
}

#[test]
fn typed_errors_change_nothing() {
    let game = LinesGame::new(settings(LinesUndo::LastTurn), Some(5)).unwrap();
    let view = game.view();
    let empty = view.cells.iter().position(|&c| c == 0).unwrap() as u8;
    let balls: Vec<u8> = (0..81u8)
        .filter(|&i| view.cells[usize::from(i)] != 0)
        .collect();
    assert!(
        matches!(game.play(empty, empty), Err(LinesError::EmptySource(m)) if m.contains("no ball"))
    );
    assert!(matches!(
        game.play(balls[0], balls[1]),
        Err(LinesError::Occupied(_))
    ));
    assert_eq!(game.play(81, 0), Err(LinesError::OffBoard(81)));
    assert!(matches!(
        game.play_text("zz".into()),
        Err(LinesError::Unreadable(_))
    ));
    assert_eq!(game.undo(), Err(LinesError::NothingToUndo));
    assert!(matches!(
        LinesGame::new(
            LinesSettings {
                start_balls: 4,
                undo: LinesUndo::Off,
                preview: false,
            },
            None
        ),
        Err(LinesError::BadSettings(_))
    ));
    assert!(matches!(
        LinesGame::load(vec![1, 2, 3]),
        Err(LinesError::BadSave(_))
    ));
    assert_eq!(game.view(), view);
    // A ball walled in: on a nearly full board, find a move with no path.
    let walled = LinesGame::new(settings(LinesUndo::Off), Some(5)).unwrap();
    let mut found = false;
    'play: for _ in 0..200 {
        let v = walled.view();
        for from in 0..81u8 {
            if v.cells[usize::from(from)] == 0 {
                continue;
            }
            let reach = walled.reachable(from).unwrap();
            for to in 0..81u8 {
                if v.cells[usize::from(to)] == 0 && !reach.contains(&to) {
                    assert!(matches!(walled.play(from, to), Err(LinesError::NoPath(_))));
                    assert_eq!(walled.view(), v);
                    found = true;
                    break 'play;
                }
            }
        }
        let Some(h) = walled.hint() else { break };
        walled.play(h.from, h.to).unwrap();
    }
    assert!(found, "some game position walls a cell off");
    assert_eq!(walled.undo(), Err(LinesError::UndoDisabled));
}

#[test]
fn taps_pick_repick_deselect_refuse_and_move() {
    let game = LinesGame::new(settings(LinesUndo::LastTurn), Some(9)).unwrap();
    let view = game.view();
    let balls: Vec<u8> = (0..81u8)
        .filter(|&i| view.cells[usize::from(i)] != 0)
        .collect();
    let empty = (0..81u8)
        .find(|&i| view.cells[usize::from(i)] == 0)
        .unwrap();
    assert_eq!(game.tap(empty), Ok(LinesTap::Ignored), "nothing picked");
    assert_eq!(game.tap(81), Err(LinesError::OffBoard(81)));
    let LinesTap::Selected { cell, reachable } = game.tap(balls[0]).unwrap() else {
        panic!("picked");
    };
    assert_eq!(cell, balls[0]);
    assert_eq!(reachable, game.reachable(balls[0]).unwrap());
    assert!(
        matches!(game.tap(balls[1]).unwrap(), LinesTap::Selected { cell, .. } if cell == balls[1])
    );
    assert_eq!(game.selected(), Some(balls[1]));
    assert_eq!(game.tap(balls[1]), Ok(LinesTap::Deselected));
    assert_eq!(game.selected(), None);
    game.tap(balls[1]).unwrap();
    game.clear_selection();
    assert_eq!(game.selected(), None);
    let h = game.hint().unwrap();
    game.tap(h.from).unwrap();
    let LinesTap::Moved { turn } = game.tap(h.to).unwrap() else {
        panic!("moved");
    };
    assert_eq!(turn.path, h.path);
    assert_eq!(turn.color + 1, view.cells[usize::from(h.from)]);
    assert_eq!(turn.score, game.score());
    assert_eq!(game.selected(), None);
    // A walled-off cell: the ball stays picked and the message says why.
    let walled = LinesGame::new(settings(LinesUndo::Off), Some(5)).unwrap();
    for _ in 0..200 {
        let v = walled.view();
        let found = (0..81u8)
            .filter(|&f| v.cells[usize::from(f)] != 0)
            .find_map(|f| {
                let reach = walled.reachable(f).unwrap();
                (0..81u8)
                    .find(|&t| v.cells[usize::from(t)] == 0 && !reach.contains(&t))
                    .map(|t| (f, t))
            });
        if let Some((f, t)) = found {
            walled.tap(f).unwrap();
            let LinesTap::Unreachable { message } = walled.tap(t).unwrap() else {
                panic!("unreachable");
            };
            assert!(message.contains("no free path"), "{message}");
            assert_eq!(walled.selected(), Some(f));
            assert_eq!(walled.view(), v);
            return;
        }
        let h = walled.hint().unwrap();
        walled.play(h.from, h.to).unwrap();
    }
    panic!("some position walls a cell off");
}

#[test]
fn a_game_ended_on_time_stops_and_enters_the_best_scores() {
    let game = LinesGame::new(settings(LinesUndo::Unlimited), Some(4)).unwrap();
    while game.score() == 0 {
        play_hints(&game, 1);
    }
    assert_eq!(game.record_result("2026-12-05".into()), None, "still going");
    game.start_clock(60_000, 1_000);
    assert_eq!(game.tick(21_000), Some(40_000));
    // Kept with the game, stopped when it comes back, going on from there.
    let kept = LinesGame::load(game.save().unwrap()).unwrap();
    kept.resume_clock(500_000);
    assert_eq!(kept.tick(510_000), Some(30_000));
    let v = game.view();
    assert_eq!(game.tick(61_000), Some(0));
    let after = game.view();
    assert!(after.game_over && game.is_over());
    assert!(!after.can_undo && !after.can_redo);
    assert_eq!(after.cells, v.cells, "it ends where it stands");
    assert_eq!(game.hint(), None);
    assert_eq!(game.play(0, 1), Err(LinesError::TimeUp));
    assert_eq!(game.undo(), Err(LinesError::TimeUp));
    assert_eq!(game.redo(), None);
    assert_eq!(game.record_result("2026-12-05".into()), Some(0));
    assert_eq!(game.best_scores()[0].score, v.score);
    assert_eq!(game.record_result("2026-12-05".into()), None, "once");
    // A new game plays again; ended on time without a point, it is no record.
    game.new_game(None, Some(5)).unwrap();
    assert!(!game.is_over() && game.hint().is_some());
    game.start_clock(60_000, 0);
    assert_eq!(game.tick(60_000), Some(0));
    assert!(game.is_over() && game.score() == 0);
    assert_eq!(game.record_result("2026-12-05".into()), None, "no points");
}

#[test]
fn too_many_hint_playouts_are_refused() {
    let game = LinesGame::new(settings(LinesUndo::Off), Some(3)).unwrap();
    let hint = game.hint();
    assert!(matches!(
        game.set_hint_playouts(u32::MAX),
        Err(LinesError::BadSettings(_))
    ));
    assert_eq!(game.hint(), hint, "the hint keeps its budget");
    game.set_hint_playouts(1).unwrap();
    assert!(game.hint().is_some());
}

#[test]
fn redo_plays_the_turns_taken_back_again() {
    let game = LinesGame::new(settings(LinesUndo::Unlimited), Some(8)).unwrap();
    let start = game.view();
    assert!(!start.can_redo);
    assert_eq!(game.redo(), None, "nothing taken back");
    let turns = play_hints(&game, 3);
    let end = game.view();
    for _ in 0..3 {
        game.undo().unwrap();
    }
    assert_eq!(game.view().cells, start.cells);
    assert!(game.view().can_redo);
    // Kept through save and load.
    let saved = game.save().unwrap();
    let back = LinesGame::load(saved).unwrap();
    assert!(back.view().can_redo);
    for (i, turn) in turns.iter().enumerate() {
        assert_eq!(game.redo().as_ref(), Some(turn), "turn {i} again");
        assert_eq!(
            back.redo().as_ref(),
            Some(turn),
            "turn {i} again after loading"
        );
    }
    assert_eq!(game.view(), end);
    assert_eq!(game.redo(), None);
    // A new move forgets what was taken back.
    game.undo().unwrap();
    let h = game.hint().unwrap();
    let other = game.reachable(h.from).unwrap();
    let to = other.into_iter().find(|&c| c != h.to).unwrap();
    game.play(h.from, to).unwrap();
    assert!(!game.view().can_redo);
    assert_eq!(game.redo(), None);
}

#[test]
fn undo_and_save_load_give_the_same_future() {
    let game = LinesGame::new(settings(LinesUndo::Unlimited), Some(21)).unwrap();
    play_hints(&game, 12);
    let before = game.view();
    let h = game.hint().unwrap();
    let first = game.play(h.from, h.to).unwrap();
    game.undo().unwrap();
    assert_eq!(
        game.view(),
        LinesView {
            can_redo: true,
            hints_used: before.hints_used + 1,
            ..before
        },
        "the position before, the hint seen there counted"
    );
    assert_eq!(
        game.play(h.from, h.to).unwrap(),
        first,
        "undo cannot fish for balls"
    );
    let saved = game.save().unwrap();
    let back = LinesGame::load(saved.clone()).unwrap();
    assert_eq!(back.view(), game.view());
    for _ in 0..20 {
        let Some(h) = game.hint() else { break };
        assert_eq!(back.hint(), Some(h.clone()));
        assert_eq!(
            back.play(h.from, h.to).unwrap(),
            game.play(h.from, h.to).unwrap()
        );
    }
    let third = LinesGame::new(settings(LinesUndo::Off), Some(1)).unwrap();
    third.restore(saved).unwrap();
    assert_eq!(third.view().turns, 13);
}
