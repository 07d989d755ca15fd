//! The computer player's look-ahead: it sees only the board and the announced colours
//! (never the game's own random source), its successive halving spends the budget it is
//! given, deterministically, and plays legal moves.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use banco_game::ScoreGame;
use banco_lines::spawn::Spawner;
use banco_lines::{Board, LinesGame, Move, Settings, State, ai};

/// A seed other than `seed` whose first three colours are the same (about one seed in
/// 343 qualifies).
fn twin_seed(seed: u64) -> u64 {
    let colors = |s: u64| {
        let sp = Spawner::new(Spawner::seed_from_u64(s));
        [sp.color(0), sp.color(1), sp.color(2)]
    };
    let want = colors(seed);
    (seed + 1..seed + 100_000)
        .find(|&s| colors(s) == want)
        .unwrap()
}

#[test]
fn the_computer_never_sees_the_future_spawns() {
    // Boards from a played game; on each, two games with the same board and the same
    // announced colours but different random sources (so different landings to come).
    let mut played = LinesGame::new(Settings::default(), Spawner::seed_from_u64(31));
    let mut boards: Vec<Board> = Vec::new();
    for _ in 0..12 {
        boards.push(*played.board());
        let h = ai::hint(&played, &ai::Budget::fast(), 1).unwrap();
        played.play(h.mv).unwrap();
    }
    let (a, b) = (40, twin_seed(40));
    let full = ai::Budget::from_playouts(12);
    let cheap = ai::Budget {
        shortlist: 6,
        ..ai::Budget::from_playouts(40)
    };
    for budget in [full, cheap] {
        let mut futures_differ = false;
        for &board in &boards {
            let mut ga =
                LinesGame::with_board(Settings::default(), Spawner::seed_from_u64(a), board);
            let mut gb =
                LinesGame::with_board(Settings::default(), Spawner::seed_from_u64(b), board);
            assert_eq!(ga.next_colors(), gb.next_colors());
            let ha = ai::hint(&ga, &budget, 77).unwrap();
            let hb = ai::hint(&gb, &budget, 77).unwrap();
            assert_eq!(
                ha, hb,
                "the move depends on the game's hidden seed: {budget:?}"
            );
            let (ra, rb) = (ga.play(ha.mv).unwrap(), gb.play(hb.mv).unwrap());
            futures_differ |= ra.landed != rb.landed;
        }
        assert!(futures_differ, "the two games must have different futures");
    }
}

#[test]
fn budgets_stop_at_the_largest() {
    let top = ai::Budget::from_playouts(ai::MAX_PLAYOUTS);
    assert_eq!(ai::Budget::from_playouts(usize::MAX), top);
    assert_eq!(ai::Budget::from_playouts(u32::MAX as usize), top);
    assert!(top.playouts() <= ai::MAX_PLAYOUTS);
}

/// Bounding a budget ([`ai::Budget::bounded`], which every search applies) changes no
/// budget the levels and `from_playouts` give: it only caps hand-built ones.
#[test]
fn every_given_budget_is_within_the_bounds() {
    for p in (1..=ai::MAX_PLAYOUTS).step_by(7).chain([ai::MAX_PLAYOUTS]) {
        let b = ai::Budget::from_playouts(p);
        assert_eq!(b.bounded(), b, "from_playouts({p})");
    }
    for b in [ai::Budget::fast(), ai::Budget::hint()] {
        assert_eq!(b.bounded(), b);
    }
}

#[test]
fn budgets_spend_about_the_playouts_they_are_given() {
    assert_eq!(ai::Budget::from_playouts(1), ai::Budget::fast());
    assert_eq!(ai::Budget::fast().playouts(), 1);
    for p in 2..3000 {
        let b = ai::Budget::from_playouts(p);
        assert!(b.replies && b.depth == 0, "{b:?}");
        let spent = b.playouts();
        assert!(
            spent <= p && spent * 2 >= p,
            "{p} playouts: {b:?} spends {spent}"
        );
    }
    // Full playouts below `CHEAP_FROM`, cheap ones (a shortlist of replies) from there on.
    let b = ai::Budget::from_playouts(10);
    assert_eq!((b.candidates, b.samples, b.shortlist), (2, 5, 0));
    let b = ai::Budget::from_playouts(ai::CHEAP_FROM - 1);
    assert_eq!(b.shortlist, 0);
    let b = ai::Budget::from_playouts(30);
    assert_eq!(
        (b.candidates, b.samples, b.shortlist),
        (8, 40, ai::SHORTLIST)
    );
    let b = ai::Budget::from_playouts(100);
    assert_eq!(
        (b.candidates, b.samples, b.shortlist),
        (16, 66, ai::SHORTLIST)
    );
}

/// Green can complete the bottom rank (a1–d1) with the ball on i9.
fn ready_green_line() -> Board {
    "
        ........G
        ..R......
        .....B...
        .........
        .Y.......
        ......C..
        .........
        ...P.....
        GGGG....."
        .parse()
        .unwrap()
}

#[test]
fn successive_halving_is_deterministic_and_takes_a_ready_line() {
    // Green can complete the bottom rank with the ball on i9. No green is announced
    // (purple, purple, red), so waiting for a longer line cannot pay.
    let board = ready_green_line();
    let game = LinesGame::with_board(Settings::default(), [5; 32], board);
    assert!(!game.next_colors().contains(&banco_lines::Ball::Green));
    let cheap = |playouts, shortlist| ai::Budget {
        shortlist,
        ..ai::Budget::from_playouts(playouts)
    };
    for budget in [4, 20, 60]
        .map(ai::Budget::from_playouts)
        .into_iter()
        .chain([cheap(20, 1), cheap(200, 8)])
    {
        let playouts = budget.playouts();
        let h1 = ai::hint(&game, &budget, 9).unwrap();
        let h2 = ai::hint(&game, &budget, 9).unwrap();
        assert_eq!(h1, h2);
        assert_eq!(h1.mv.to.to_string(), "e1", "{playouts}: {h1:?}");
        assert!(matches!(h1.reason, ai::Reason::Completes { .. }));
    }
    // A whole short game with the look-ahead plays legal moves only.
    let start = LinesGame::new(Settings::default(), Spawner::seed_from_u64(5));
    let played = ai::play_out(
        start.clone(),
        ai::Player::Computer(ai::Budget::from_playouts(6)),
        2,
        15,
    );
    assert_eq!(played.turns, 15);
    // The same with cheap playouts (a shortlist of replies), twice: the same game.
    let player = ai::Player::Computer(cheap(60, 5));
    let played = ai::play_out(start.clone(), player, 2, 15);
    assert_eq!(played.turns, 15);
    assert_eq!(played, ai::play_out(start, player, 2, 15));
}

#[test]
fn threads_change_neither_the_move_nor_its_value() {
    // Stage two's samples spread over threads are the same samples, gathered in the same
    // order: every thread count gives the same hint, value included, move after move.
    let mut game = LinesGame::new(Settings::default(), Spawner::seed_from_u64(12));
    for turn in 0..25 {
        let budget = ai::Budget::from_playouts(if turn % 2 == 0 { 24 } else { 100 });
        let one = ai::hint(&game, &budget, turn).unwrap();
        for threads in [0, 2, 3, 8, usize::MAX] {
            let many = ai::hint(&game, &budget.with_threads(threads), turn).unwrap();
            assert_eq!(one, many, "turn {turn}, {threads} threads");
        }
        assert_eq!(budget.with_threads(0).threads, 1);
        game.play(one.mv).unwrap();
    }
}

#[test]
fn the_evaluation_gathers_the_planning_windows_as_the_planning_scan_does() {
    // The evaluation collects the planning term's windows during its own scan of the
    // windows; its planning part must equal the stand-alone `plan::cheapest`, whatever
    // the ready terms' weights.
    use banco_lines::ai::eval::{Masks, Regions, Weights, evaluate_with};
    use banco_lines::ai::plan;
    let mut game = LinesGame::new(Settings::default(), Spawner::seed_from_u64(8));
    let mut boards = 0;
    while !game.is_over() && boards < 120 {
        let board = *game.board();
        for ready3 in [0.0, 1.0] {
            let with = Weights {
                ready3,
                ..Weights::default()
            };
            let without = Weights {
                plan1: 0.0,
                plan2: 0.0,
                plan3: 0.0,
                ..with
            };
            let m = Masks::of(&board);
            let costs = plan::cheapest(&m, &Regions::of(m.empty));
            let want = plan::value(
                &costs,
                &[with.plan1, with.plan2, with.plan3],
                with.plan_decay,
            );
            let got = evaluate_with(&board, &with) - evaluate_with(&board, &without);
            assert!((got - want).abs() < 1e-3, "{got} vs {want} on\n{board}");
        }
        boards += 1;
        let h = ai::hint(&game, &ai::Budget::fast(), 3).unwrap();
        game.play(h.mv).unwrap();
    }
    assert!(boards >= 60, "{boards}");
}

#[test]
fn dead_balls_are_the_balls_the_evaluation_penalises_as_dead() {
    // `eval::dead_balls` (the diagnostics' count) and the evaluation's `dead` term must
    // agree on every board of a played game, crowded ones included.
    use banco_lines::ai::eval::{Weights, dead_balls, evaluate_with};
    let mut game = LinesGame::new(Settings::default(), Spawner::seed_from_u64(12));
    let (mut boards, mut most) = (0, 0);
    while !game.is_over() {
        let board = *game.board();
        let with = Weights::default();
        let without = Weights { dead: 0.0, ..with };
        let dead = dead_balls(&board);
        let want = -with.dead * dead.len() as f32;
        let got = evaluate_with(&board, &with) - evaluate_with(&board, &without);
        assert!((got - want).abs() < 1e-3, "{got} vs {want} on\n{board}");
        for cell in dead.iter() {
            assert!(board.get(cell).is_some(), "{cell} is dead but empty");
        }
        most = most.max(dead.len());
        boards += 1;
        let h = ai::hint(&game, &ai::Budget::fast(), 3).unwrap();
        game.play(h.mv).unwrap();
    }
    assert!(
        boards >= 30 && most >= 10,
        "{boards} boards, at most {most} dead"
    );
}

#[test]
// Exact comparisons on purpose: the same computation must give the same bits.
#[allow(clippy::float_cmp)]
fn playout_means_value_every_move_on_the_same_samples() {
    let board = ready_green_line();
    let game = LinesGame::with_board(Settings::default(), [5; 32], board);
    let next = game.next_colors();
    let weights = ai::eval::Weights::default();
    let mut all = Vec::new();
    ai::search::candidates(&board, Some(&next), &weights, &mut all);
    ai::search::prune(&mut all, 6);
    let budget = ai::Budget::hint();
    let means = ai::search::playout_means(&board, &next, &all, &budget, 12, 7, &weights);
    assert_eq!(means.len(), all.len());
    assert!(means.iter().all(|v| v.is_finite()));
    assert_eq!(
        means,
        ai::search::playout_means(&board, &next, &all, &budget, 12, 7, &weights)
    );
    // The line (i9 to e1) is worth most, and exactly: nothing lands after it, so the
    // number of samples does not change its value; the quiet moves' values do change.
    let line = all.iter().position(|c| c.points > 0).unwrap();
    let best = means.iter().copied().fold(f32::MIN, f32::max);
    assert_eq!(means[line], best);
    let more = ai::search::playout_means(&board, &next, &all, &budget, 30, 7, &weights);
    assert_eq!(more[line], means[line]);
    assert_ne!(more, means);
}

/// A board with `rank` as its bottom rank (a1 first) and nothing else.
fn bottom_rank(rank: &str) -> Board {
    format!("{}{rank}", ".........\n".repeat(8))
        .parse()
        .unwrap()
}

#[test]
fn a_window_blocked_by_one_odd_ball_counts_once_at_its_size() {
    use banco_lines::ai::eval::{Weights, evaluate_with};
    let without = Weights::from_spec("mixed3=0,mixed4=0").unwrap();
    let four = Weights::from_spec("mixed3=0,mixed4=3").unwrap();
    let three = Weights::from_spec("mixed3=2,mixed4=0").unwrap();
    let gain =
        |board: &Board, w: &Weights| evaluate_with(board, w) - evaluate_with(board, &without);
    // a1–e1 holds four reds and the blue on e1 (mixed4); b1–f1 three reds, the blue and
    // a free cell (mixed3); no other window holds four balls.
    let board = bottom_rank("RRRRB....");
    assert!((gain(&board, &four) - 3.0).abs() < 1e-3);
    assert!((gain(&board, &three) - 2.0).abs() < 1e-3);
    // The odd ball first in board order (the blue on a1) is found too.
    assert!((gain(&bottom_rank("BRRRR...."), &four) - 3.0).abs() < 1e-3);
    // Two odd balls: nothing.
    let all = Weights::from_spec("mixed3=2,mixed4=3").unwrap();
    assert!(gain(&bottom_rank("RRRBB...."), &all).abs() < 1e-3);
}

/// `game` with its hidden seed replaced by another that announces the same colours: the
/// same board, colours and spots shown, another future.
fn with_other_seed(game: &LinesGame) -> LinesGame {
    let drawn = game.state().drawn;
    let to = (1..100_000)
        .map(Spawner::seed_from_u64)
        .find(|&s| {
            let sp = Spawner::new(s);
            s != game.seed()
                && (0..3).all(|k| sp.color(drawn + k) == game.next_colors()[k as usize])
        })
        .unwrap();
    // A game stored as set up on this state (no move before it) with the other seed: the
    // fields of `LinesGame` in its serde order.
    #[derive(serde::Serialize)]
    struct SetUp<'a> {
        settings: Settings,
        spawner: Spawner,
        start: &'a State,
        state: &'a State,
        undo_stack: Vec<State>,
        moves: Vec<Move>,
        taken_back: Vec<Move>,
    }
    let stored = SetUp {
        settings: game.settings(),
        spawner: Spawner::new(to),
        start: game.state(),
        state: game.state(),
        undo_stack: Vec::new(),
        moves: Vec::new(),
        taken_back: Vec::new(),
    };
    let bytes = postcard::to_allocvec(&stored).unwrap();
    let other: LinesGame = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(other.seed(), to);
    other
}

#[test]
fn with_the_preview_the_computer_sees_the_spots_but_never_the_seed() {
    let settings = Settings::default().with_preview(true);
    let mut played = LinesGame::new(settings, [0xA5; 32]);
    let mut futures_differ = false;
    for turn in 0..40 {
        let twin = with_other_seed(&played);
        assert_eq!(twin.state(), played.state());
        assert_eq!(twin.next_colors(), played.next_colors());
        assert_eq!(twin.next_spots(), played.next_spots());
        for budget in [ai::Budget::fast(), ai::Budget::from_playouts(30)] {
            let (a, b) = (ai::hint(&played, &budget, 9), ai::hint(&twin, &budget, 9));
            assert_eq!(
                a, b,
                "the move depends on the game's hidden seed: turn {turn}"
            );
        }
        let mv = ai::hint(&played, &ai::Budget::fast(), 9).unwrap().mv;
        let mut twin = twin;
        twin.play(mv).unwrap();
        played.play(mv).unwrap();
        futures_differ |=
            twin.next_colors() != played.next_colors() || twin.next_spots() != played.next_spots();
        if played.is_over() {
            break;
        }
    }
    assert!(futures_differ, "the two games must have different futures");
}

#[test]
#[allow(clippy::float_cmp)] // the same computation, bit for bit
fn with_the_preview_the_search_judges_the_known_landing() {
    use banco_lines::ai::{eval, preview};
    let game = LinesGame::new(Settings::default().with_preview(true), [3; 32]);
    let (next, spots) = (game.next_colors(), game.next_spots());
    let budget = ai::Budget::fast();
    let (c, v) = preview::best_move(game.board(), &next, &spots, &budget).unwrap();
    // A quiet move: worth the board its balls leave on their spots (or, its spot taken,
    // that ball's expectation).
    if c.points == 0 {
        let mut after = *game.board();
        banco_lines::ai::search::apply(&mut after, &c);
        let w = eval::Weights::default();
        assert_eq!(v, preview::landing_value(&after, &next, &spots, &w));
        if !spots.contains(&c.to) {
            for (&s, &b) in spots.iter().zip(&next) {
                after.set(s, Some(b));
            }
            assert_eq!(v, eval::evaluate_with(&after, &w));
        }
    }
    // Every move of stage one's CANDIDATES best was judged: none beats the one chosen.
    let mut cands = Vec::new();
    let w = eval::Weights::default();
    ai::search::candidates(game.board(), Some(&next), &w, &mut cands);
    ai::search::prune(&mut cands, preview::CANDIDATES);
    for other in cands.iter().filter(|o| o.points == 0) {
        let mut after = *game.board();
        ai::search::apply(&mut after, other);
        assert!(preview::landing_value(&after, &next, &spots, &w) <= v);
    }
}
