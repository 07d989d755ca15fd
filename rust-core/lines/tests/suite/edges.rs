//! The crate's public functions at the edges of what their arguments allow: no panic, no
//! endless loop, no search longer than the largest budget, whatever an embedder passes.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use banco_lines::ai::eval::{Masks, Weights};
use banco_lines::ai::rollout::{self, Policy};
use banco_lines::ai::search::{self, SampleRng};
use banco_lines::ai::{self, Budget, MAX_PLAYOUTS, plan};
use banco_lines::{Ball, Board, CELLS, Cell, CellSet, LinesGame, Settings, lines, score};

#[test]
fn a_run_without_a_direction_is_the_cell_alone_and_far_steps_leave_the_board() {
    let mut board = Board::empty();
    let e5 = Cell::from_index(40).unwrap();
    board.set(e5, Some(Ball::Red));
    let code = board.code(40);
    assert_eq!(lines::run_length(&board, e5, code, 0, 0), 1);
    for (df, dr) in [
        (isize::MAX, 0),
        (isize::MIN, 1),
        (0, isize::MIN),
        (isize::MIN, isize::MAX),
    ] {
        assert_eq!(
            lines::run_length(&board, e5, code, df, dr),
            1,
            "({df}, {dr})"
        );
        assert_eq!(e5.offset(df, dr), None);
    }
}

#[test]
fn a_cell_index_past_the_board_holds_no_ball() {
    let board = *LinesGame::new(Settings::default(), [5; 32]).board();
    for index in [CELLS, CELLS + 1, 127, usize::MAX] {
        assert_eq!(board.code(index), 0, "index {index}");
    }
}

#[test]
fn points_past_the_board_count_as_the_whole_board() {
    assert_eq!(score::points(usize::MAX), score::points(CELLS));
    assert_eq!(score::points(1 << 40), score::points(CELLS));
    assert!((5..CELLS).all(|n| score::points(n) < score::points(n + 1)));
}

#[test]
fn window_plans_take_any_cost_and_index() {
    // A window has five cells; a longer slice saturates instead of overflowing.
    assert!(plan::window_cost(&[0; 300]) > plan::MAX_COST);
    assert!(plan::window_cost(&[1; 300]) > plan::MAX_COST);
    let board = *LinesGame::new(Settings::default(), [5; 32]).board();
    let masks = Masks::of(&board);
    let mut windows = plan::Windows::new();
    for wi in [200, 255, 256, usize::MAX] {
        windows.add(wi, 1, 0); // no such window: ignored
    }
    assert_eq!(
        windows.cheapest(&masks),
        [[0; plan::MAX_PER_COLOR]; Ball::COUNT]
    );
    // A cost past MAX_COST counts nothing.
    let costs = [[plan::MAX_COST + 1, 0, 0]; Ball::COUNT];
    assert!(plan::value(&costs, &[1.0; plan::MAX_COST as usize], 0.5).abs() < f32::EPSILON);
}

/// A policy whose worths are no numbers still moves balls only to free cells (it used to
/// send the ball to a1, over the ball standing there).
#[test]
fn a_policy_of_no_numbers_never_overwrites_a_ball() {
    let policy = Policy {
        window: [f32::NAN; 5],
        noise: f32::NAN,
    };
    let game = LinesGame::new(Settings::default(), [9; 32]);
    let mut board = *game.board();
    let a1 = Cell::from_index(0).unwrap();
    if board.get(a1).is_none() {
        board.set(a1, Some(Ball::Red)); // the cell the old code sent the ball to
    }
    let next = game.next_colors();
    let mut rng = SampleRng::new(3);
    for _ in 0..200 {
        let before = board.ball_count();
        let Some(step) = rollout::step(&mut board, &next, &policy, &mut rng) else {
            break;
        };
        if step.points == 0 {
            assert_eq!(board.ball_count(), before + 3.min(CELLS - before));
        }
    }
}

/// Spot bits beyond the board's cells change nothing: they are no cells.
#[test]
fn spot_bits_beyond_the_board_do_not_change_the_choice() {
    let game = LinesGame::new(Settings::default(), [4; 32]);
    let (board, next, spots) = (game.board(), game.next_colors(), game.spot_cells());
    let w = Weights::default();
    let noisy = CellSet(spots.0 | 1 << 100 | 1 << 127);
    let budget = Budget::from_playouts(12);
    assert_eq!(
        search::best_move_in(board, spots, &next, &budget, 7, &w),
        search::best_move_in(board, noisy, &next, &budget, 7, &w),
    );
}

/// Every kind of hand-built budget, however large its fields, plays about
/// [`MAX_PLAYOUTS`] playouts at most.
#[test]
fn a_hand_built_budget_of_any_kind_is_bounded() {
    for replies in [false, true] {
        for shortlist in [0, 1, usize::MAX] {
            for depth in [0, 1, usize::MAX] {
                for candidates in [2, 5, usize::MAX] {
                    let b = Budget {
                        candidates,
                        samples: usize::MAX,
                        replies,
                        shortlist,
                        depth,
                        threads: usize::MAX,
                    };
                    assert!(b.playouts() <= 2 * MAX_PLAYOUTS, "{b:?}: {}", b.playouts());
                    assert!(b.bounded().samples >= 1, "{b:?}");
                }
            }
        }
    }
    assert_eq!(ai::Budget::fast().bounded(), ai::Budget::fast());
}
