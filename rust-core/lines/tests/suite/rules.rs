//! Rules of Lines: paths against a brute-force reference, lines in every direction,
//! scoring, seeded replays, undo and save/continue giving the same spawns, random input.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use banco_game::ScoreGame;
use banco_lines::best::{BestKind, BestScores};
use banco_lines::spawn::Spawner;
use banco_lines::{
    Ball, Board, CELLS, Cell, CellSet, LinesGame, Move, MoveError, Settings, UndoError, UndoRule,
    ai, lines, path, score,
};
use proptest::prelude::*;

fn cell(s: &str) -> Cell {
    s.parse().unwrap()
}

/// Brute force: distances from `from` by repeated relaxation over the whole board.
fn reference_distance(board: &Board, from: Cell, to: Cell) -> Option<usize> {
    let mut dist = [usize::MAX; CELLS];
    dist[from.index()] = 0;
    loop {
        let mut changed = false;
        for c in Cell::all() {
            if c != from && !board.is_empty_cell(c) {
                continue;
            }
            if dist[c.index()] == usize::MAX {
                continue;
            }
            for (df, dr) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                if let Some(n) = c.offset(df, dr)
                    && board.is_empty_cell(n)
                    && dist[n.index()] > dist[c.index()] + 1
                {
                    dist[n.index()] = dist[c.index()] + 1;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    (dist[to.index()] != usize::MAX).then(|| dist[to.index()])
}

fn board_from(codes: &[u8]) -> Board {
    Board::from_codes(codes).unwrap()
}

proptest! {
    #![proptest_config(banco_game::testing::proptest_config(None, 0x11E5))]

    #[test]
    fn path_matches_reference(
        codes in proptest::collection::vec(prop_oneof![3 => Just(0u8), 2 => 1u8..=7], CELLS),
        from in 0usize..CELLS,
        to in 0usize..CELLS,
    ) {
        let mut board = board_from(&codes);
        let from = Cell::from_index(from).unwrap();
        let to = Cell::from_index(to).unwrap();
        prop_assume!(from != to);
        board.set(from, Some(Ball::Red));
        board.set(to, None);
        let found = path::shortest_path(&board, from, to);
        let reference = reference_distance(&board, from, to);
        prop_assert_eq!(found.is_some(), reference.is_some());
        if let Some(p) = found {
            prop_assert_eq!(Some(p.steps()), reference);
            let cells = p.cells();
            prop_assert_eq!(cells[0], from);
            prop_assert_eq!(*cells.last().unwrap(), to);
            for pair in cells.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                prop_assert_eq!(a.file().abs_diff(b.file()) + a.rank().abs_diff(b.rank()), 1);
                prop_assert!(board.is_empty_cell(b));
            }
            prop_assert!(path::reachable(&board, from).contains(to));
        } else {
            prop_assert!(!path::reachable(&board, from).contains(to));
        }
    }

    /// Serde data of a game with bytes changed: refused, or a game (its moves replayed
    /// from its start to the state it says) that plays on without a panic.
    #[test]
    fn altered_serde_games_never_panic(
        seed in any::<u64>(),
        changes in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..4),
    ) {
        let settings = Settings { undo: UndoRule::Unlimited, ..Settings::default() };
        let mut game = LinesGame::new(settings, Spawner::seed_from_u64(seed));
        for _ in 0..20 {
            let Some((f, t)) = game.any_move() else { break };
            game.play_move(f, t).unwrap();
        }
        let mut bytes = postcard::to_allocvec(&game).unwrap();
        for (at, byte) in changes {
            let n = bytes.len();
            bytes[at % n] = byte;
        }
        if let Ok(mut back) = postcard::from_bytes::<LinesGame>(&bytes) {
            for _ in 0..5 {
                let Some((f, t)) = back.any_move() else { break };
                prop_assert!(back.play_move(f, t).is_ok());
                let _ = back.try_undo();
                let _ = back.redo();
            }
            let _ = back.next_colors();
        }
    }

    #[test]
    fn random_input_never_panics(
        seed in any::<u64>(),
        moves in proptest::collection::vec((0usize..100, 0usize..100), 0..60),
        undo_every in 1usize..7,
    ) {
        let settings = Settings { start_balls: 3, undo: UndoRule::Unlimited, preview: false, ..Settings::default() };
        let mut game = LinesGame::new(settings, Spawner::seed_from_u64(seed));
        for (i, (f, t)) in moves.into_iter().enumerate() {
            let before = game.clone();
            let result = game.play_indices(f, t);
            if let Ok(report) = &result {
                prop_assert_eq!(report.path.from().index(), f);
                prop_assert_eq!(report.path.to().index(), t);
            } else {
                prop_assert_eq!(&game, &before, "a refused move changed the game");
            }
            if i % undo_every == 0 {
                let _ = game.try_undo();
            }
            let _ = Move::decode((f * 131 + t) as u16);
        }
    }

    #[test]
    fn wire_codes_round_trip(f in 0usize..CELLS, t in 0usize..CELLS) {
        let mv = Move { from: Cell::from_index(f).unwrap(), to: Cell::from_index(t).unwrap() };
        prop_assert_eq!(Move::decode(mv.encode()), Ok(mv));
    }
}

#[test]
fn move_errors() {
    let board: Board = "
        .........
        .........
        .........
        .........
        .........
        .........
        .R.......
        RB.......
        BR......."
        .parse()
        .unwrap();
    let mut game = LinesGame::with_board(Settings::default(), [0; 32], board);
    let (a1, e5, c3) = (cell("a1"), cell("e5"), cell("c3"));
    assert_eq!(game.play_move(c3, e5), Err(MoveError::EmptySource(c3)));
    assert_eq!(
        game.play_move(a1, cell("b1")),
        Err(MoveError::Occupied(cell("b1")))
    );
    assert_eq!(game.play_indices(81, 0), Err(MoveError::OutOfRange(81)));
    assert_eq!(
        game.play_move(a1, e5),
        Err(MoveError::NoPath { from: a1, to: e5 })
    );
    assert_eq!(game.turns(), 0);
    // No path: a1 is walled in by a2 and b1.
    assert!(path::shortest_path(&board, cell("a1"), cell("e5")).is_none());
    assert!(path::reachable(&board, cell("a1")).is_empty());
    assert_eq!(
        MoveError::NoPath {
            from: cell("a1"),
            to: cell("e5")
        }
        .to_string(),
        "no free path from a1 to e5: balls block the way"
    );
    assert_eq!(
        MoveError::EmptySource(cell("c3")).to_string(),
        "there is no ball on c3: pick a ball to move"
    );
}

#[test]
fn no_path_is_reported_by_the_game() {
    // Find a seeded game and a move with no path by playing until one exists.
    for seed in 0..200u64 {
        let game = LinesGame::new(Settings::default(), Spawner::seed_from_u64(seed));
        let mut g = game.clone();
        for _ in 0..40 {
            let Some(m) = ai::greedy_move(&g) else { break };
            g.play(m).unwrap();
            for from in Cell::all().filter(|&c| !g.board().is_empty_cell(c)) {
                let reach = g.reachable(from);
                if let Some(to) =
                    Cell::all().find(|&c| g.board().is_empty_cell(c) && !reach.contains(c))
                {
                    assert_eq!(g.check_move(from, to), Err(MoveError::NoPath { from, to }));
                    return;
                }
            }
        }
    }
    panic!("no blocked move found in 200 games");
}

#[test]
fn lines_in_all_four_directions_and_crossing() {
    let cases = [
        // rank
        (["a5", "b5", "c5", "d5", "e5"], "c5"),
        // file
        (["d1", "d2", "d3", "d4", "d5"], "d1"),
        // diagonal
        (["a1", "b2", "c3", "d4", "e5"], "e5"),
        // anti-diagonal
        (["a9", "b8", "c7", "d6", "e5"], "b8"),
    ];
    for (cells, probe) in cases {
        let mut board = Board::empty();
        for c in cells {
            board.set(cell(c), Some(Ball::Blue));
        }
        let found = lines::lines_through(&board, cell(probe));
        assert_eq!(found.len(), 5, "{cells:?}");
        // Four of them are not a line.
        board.set(cell(cells[0]), Some(Ball::Red));
        assert!(lines::lines_through(&board, cell(probe)).is_empty());
    }
    // A star: all four directions through e5 at once, 4 × 4 + 1 = 17 balls.
    let mut board = Board::empty();
    for (df, dr) in lines::DIRECTIONS {
        for k in -2isize..=2 {
            board.set(
                cell("e5").offset(df * k, dr * k).unwrap(),
                Some(Ball::Green),
            );
        }
    }
    assert_eq!(lines::lines_through(&board, cell("e5")).len(), 17);
    // A run of 7 counts whole; another colour does not join.
    let mut board = Board::empty();
    for f in 0..7 {
        board.set(Cell::new(f, 0).unwrap(), Some(Ball::Cyan));
    }
    board.set(Cell::new(7, 0).unwrap(), Some(Ball::Red));
    assert_eq!(lines::lines_through(&board, cell("a1")).len(), 7);
}

#[test]
fn a_move_that_completes_two_crossing_lines_scores_them_together() {
    let board: Board = "
        B........
        .........
        .........
        ....R....
        ....R....
        RRRR.....
        ....R....
        ....R....
        .....R..."
        .parse()
        .unwrap();
    let mut game = LinesGame::with_board(Settings::default(), [4; 32], board);
    let r = game.play_move(cell("f1"), cell("e4")).unwrap();
    assert_eq!(r.cleared.len(), 9);
    assert_eq!(r.points, 42);
    assert!(r.landed.is_empty(), "no balls land after a line");
    assert_eq!(game.score(), 42);
    assert_eq!(game.board().ball_count(), 1);
    // The path the ball took is a shortest one: f1 to e4 is 4 steps.
    assert_eq!(r.path.steps(), 4);
    // A move that empties the board brings the announced balls at once.
    let board: Board = "
        .........
        .........
        .........
        .........
        .........
        .........
        .........
        .........
        RRRR....R"
        .parse()
        .unwrap();
    let mut game = LinesGame::with_board(Settings::default(), [4; 32], board);
    let r = game.play_move(cell("i1"), cell("e1")).unwrap();
    assert_eq!((r.points, r.landed.len()), (10, 3));
    assert_eq!(game.board().ball_count(), 3);
}

/// With one empty cell left after the move, only the first announced ball lands; when it
/// completes a line the line goes and the game goes on with fewer than three balls landed.
#[test]
fn the_last_empty_cell_takes_one_ball_and_its_line_keeps_the_game_going() {
    let seed = [9; 32];
    let next = LinesGame::with_board(Settings::default(), seed, Board::empty()).next_colors()[0];
    let other = Ball::ALL.into_iter().find(|&b| b != next).unwrap();
    // No two neighbours share a colour in this pattern, so it holds no line.
    let mut board = Board::empty();
    for c in Cell::all() {
        board.set(c, Ball::from_index((c.file() + 2 * c.rank()) % Ball::COUNT));
    }
    // a1–d1 wait for a fifth ball of the announced colour at e1, whose ball steps to f1.
    for f in ["a1", "b1", "c1", "d1"] {
        board.set(cell(f), Some(next));
    }
    board.set(cell("e1"), Some(other));
    board.set(cell("f1"), None);
    assert_eq!(board.empty_count(), 1);
    let mut game = LinesGame::with_board(Settings::default(), seed, board);
    let r = game.play_move(cell("e1"), cell("f1")).unwrap();
    assert!(r.cleared.is_empty());
    assert_eq!(r.landed, vec![(cell("e1"), next)]);
    assert_eq!(r.cleared_by_landing.len(), 5);
    assert_eq!(r.points, 10);
    assert!(!r.game_over);
    assert_eq!(game.board().ball_count(), 76);
}

#[test]
fn scoring_table() {
    let expected = [
        (0, 0),
        (4, 0),
        (5, 10),
        (6, 12),
        (7, 18),
        (8, 28),
        (9, 42),
        (10, 82),
        (11, 108),
        (12, 138),
        (13, 172),
        (14, 210),
        (15, 274),
        (16, 300),
        (20, 466),
    ];
    for (n, p) in expected {
        assert_eq!(score::points(n), p, "{n} balls");
    }
    for n in 5..40 {
        assert!(score::points(n + 1) > score::points(n), "{n}");
        // More than proportional: from 7 balls on, more per ball than a line of five.
        if n >= 7 {
            assert!(score::points(n) * 5 > score::points(5) * n as u32, "{n}");
        }
    }
}

fn play_greedy(game: &mut LinesGame, turns: u32) {
    for _ in 0..turns {
        let Some(m) = ai::greedy_move(game) else {
            break;
        };
        game.play(m).unwrap();
    }
}

#[test]
fn a_seeded_game_replays_identically() {
    let mut a = LinesGame::new(Settings::default(), Spawner::seed_from_u64(77));
    play_greedy(&mut a, 60);
    let b = LinesGame::replay(Settings::default(), a.seed(), a.moves()).unwrap();
    assert_eq!(a.state(), b.state());
    assert_eq!(a.next_colors(), b.next_colors());
    let c = LinesGame::new(Settings::default(), Spawner::seed_from_u64(78));
    assert_ne!(
        LinesGame::new(Settings::default(), Spawner::seed_from_u64(77)).board(),
        c.board()
    );
}

#[test]
fn undo_restores_the_same_spawns() {
    let mut game = LinesGame::new(Settings::default(), Spawner::seed_from_u64(5));
    play_greedy(&mut game, 10);
    let m = ai::greedy_move(&game).unwrap();
    let before = game.clone();
    let first = game.play(m).unwrap();
    assert!(game.undo());
    assert_eq!(game.state(), before.state());
    assert_eq!(game.next_colors(), before.next_colors());
    let again = game.play(m).unwrap();
    assert_eq!(
        first, again,
        "the same move after undo must bring the same balls"
    );
    // Last-turn undo: only one step.
    assert!(game.undo());
    assert_eq!(game.try_undo(), Err(UndoError::Spent));
    // Undo off.
    let mut off = LinesGame::new(
        Settings {
            start_balls: 5,
            undo: UndoRule::Off,
            preview: false,
            ..Settings::default()
        },
        [1; 32],
    );
    let (f, t) = off.any_move().unwrap();
    off.play_move(f, t).unwrap();
    assert_eq!(off.try_undo(), Err(UndoError::Disabled));
    assert!(!off.can_undo());
}

#[test]
fn unlimited_undo_goes_back_to_the_start() {
    let settings = Settings {
        start_balls: 3,
        undo: UndoRule::Unlimited,
        preview: false,
        ..Settings::default()
    };
    let mut game = LinesGame::new(settings, [9; 32]);
    assert_eq!(game.board().ball_count(), 3);
    let start = game.clone();
    play_greedy(&mut game, 15);
    let played = game.clone();
    while game.undo() {}
    assert_eq!(game.state(), start.state());
    assert!(game.moves().is_empty());
    assert_eq!(game.taken_back().len(), played.moves().len());
    // Redo plays every turn again, with the same balls, back to where undo started.
    while game.redo().is_some() {}
    assert_eq!(game, played);
    // A game resumed with turns taken back (as a save stores it) redoes them too; a new
    // move forgets them.
    while game.undo() {}
    for _ in 0..5 {
        game.redo().unwrap();
    }
    let resumed = LinesGame::resume(settings, [9; 32], game.moves(), game.taken_back()).unwrap();
    assert_eq!(resumed, game);
    assert!(resumed.can_undo(), "unlimited undo is never spent");
    let (f, t) = game.any_move().unwrap();
    game.play_move(f, t).unwrap();
    assert!(game.taken_back().is_empty());
}

#[test]
fn save_load_continue_gives_the_same_future() {
    let mut game = LinesGame::new(Settings::default(), Spawner::seed_from_u64(11));
    play_greedy(&mut game, 25);
    // Through serde (postcard) …
    let bytes = postcard::to_allocvec(&game).unwrap();
    let mut loaded: LinesGame = postcard::from_bytes(&bytes).unwrap();
    // … and through a replay of the moves.
    let mut replayed = LinesGame::replay(game.settings(), game.seed(), game.moves()).unwrap();
    play_greedy(&mut game, 25);
    play_greedy(&mut loaded, 25);
    play_greedy(&mut replayed, 25);
    assert_eq!(game.state(), loaded.state());
    assert_eq!(game.state(), replayed.state());
    assert_eq!(game.moves(), replayed.moves());
}

#[test]
fn damaged_serde_boards_are_refused() {
    let bytes = postcard::to_allocvec(&Board::empty()).unwrap();
    let mut bad = bytes.clone();
    bad[5] = 9; // not a colour
    assert!(postcard::from_bytes::<Board>(&bad).is_err());
    assert!(postcard::from_bytes::<Board>(&bytes[..40]).is_err());
    assert_eq!(
        postcard::from_bytes::<Board>(&bytes).unwrap(),
        Board::empty()
    );
}

#[test]
fn the_game_ends_when_the_board_is_full() {
    let mut game = LinesGame::new(Settings::default(), Spawner::seed_from_u64(3));
    let mut reports = 0;
    while let Some(m) = ai::greedy_move(&game) {
        let r = game.play(m).unwrap();
        reports += 1;
        assert_eq!(r.game_over, game.is_over());
        assert!(reports < 2000);
    }
    assert!(game.board().is_full());
    assert_eq!(game.any_move(), None);
    let (f, t) = (Cell::from_index(0).unwrap(), Cell::from_index(1).unwrap());
    assert_eq!(game.play_move(f, t), Err(MoveError::GameOver));
}

#[test]
fn landing_reports_the_announced_colours() {
    let mut game = LinesGame::new(Settings::default(), Spawner::seed_from_u64(21));
    for _ in 0..30 {
        let next = game.next_colors();
        let balls = game.board().ball_count();
        let m = ai::greedy_move(&game).unwrap();
        let r = game.play(m).unwrap();
        if r.cleared.is_empty() {
            let colours: Vec<Ball> = r.landed.iter().map(|&(_, b)| b).collect();
            assert_eq!(colours, next);
            assert_eq!(
                game.board().ball_count(),
                balls + 3 - r.cleared_by_landing.len()
            );
        } else {
            assert!(r.landed.is_empty());
            assert_eq!(game.next_colors(), next);
            assert!(r.points >= 10);
        }
    }
}

#[test]
fn settings_are_checked() {
    assert!(Settings::new(4, UndoRule::Off).is_err());
    assert_eq!(
        Settings::new(3, UndoRule::Off).unwrap().start_balls,
        3,
        "three balls is a setting"
    );
}

#[test]
fn best_scores_table() {
    let k = BestKind::of(Settings::default(), None);
    let mut t = BestScores::new(2);
    assert_eq!(t.record(k, 10, 5, "d1"), Some(0));
    assert_eq!(t.record(k, 30, 9, "d2"), Some(0));
    assert_eq!(t.record(k, 20, 7, "d3"), Some(1));
    assert_eq!(t.entries_of(k).len(), 2);
    assert_eq!(t.entries_of(k)[1].date, "d3");
    assert_eq!(t.entries_of(k)[1].kind, k);
    assert_eq!(t.rank_of(k, 5), None);
    // Another kind has its own ranks.
    let timed = BestKind::of(Settings::default(), Some(60));
    assert_eq!(t.rank_of(timed, 5), Some(0));
    assert_eq!(t.record(timed, 5, 2, "d4"), Some(0));
    assert_eq!(t.entries().count(), 3);
}

#[test]
fn the_computer_beats_the_greedy_player() {
    let games = 6u64;
    let (mut computer, mut greedy) = (0u32, 0u32);
    for seed in 0..games {
        let game = LinesGame::new(Settings::default(), Spawner::seed_from_u64(1000 + seed));
        computer += ai::play_out(
            game.clone(),
            ai::Player::Computer(ai::Budget::fast()),
            seed,
            400,
        )
        .score;
        greedy += ai::play_out(game, ai::Player::Greedy, seed, 400).score;
    }
    assert!(
        computer > greedy * 4,
        "computer {computer} against greedy {greedy} over {games} games"
    );
}

#[test]
fn hints_are_deterministic_and_explained() {
    let mut game = LinesGame::new(Settings::default(), Spawner::seed_from_u64(8));
    for _ in 0..20 {
        let h1 = ai::hint(&game, &ai::Budget::fast(), 4).unwrap();
        let h2 = ai::hint(&game, &ai::Budget::fast(), 4).unwrap();
        assert_eq!(h1, h2);
        let r = game.play(h1.mv).unwrap();
        if let ai::Reason::Completes { points, .. } = h1.reason {
            assert_eq!(r.points, points);
            assert!(h1.reason.to_string().starts_with("completes "));
        }
    }
}

#[test]
fn the_hint_counts_crossing_lines_and_says_when_the_board_fills() {
    // i9 to e5 completes the row a5–e5 and the file e1–e5: two lines, nine balls.
    let board: Board = "
        ........R
        .........
        .........
        .........
        RRRR.....
        ....R....
        ....R....
        ....R....
        ....R...."
        .parse()
        .unwrap();
    let game = LinesGame::with_board(Settings::default(), [5; 32], board);
    let h = ai::hint(&game, &ai::Budget::fast(), 1).unwrap();
    assert_eq!((h.mv.from, h.mv.to), (cell("i9"), cell("e5")));
    assert_eq!(
        h.reason,
        ai::Reason::Completes {
            lines: 2,
            balls: 9,
            color: Ball::Red,
            points: 42
        }
    );
    assert_eq!(
        h.reason.to_string(),
        "completes 2 lines at once: 9 red balls (42 points)"
    );

    // A full board but two cells, every five cells in a row of five colours: no move
    // builds anything, and the landing fills the board — not "keeps it open".
    let rows: Vec<String> = (0..9)
        .rev()
        .map(|rank| {
            (0..9)
                .map(|file| match (file, rank) {
                    (0, 0) | (8, 8) => '.',
                    _ => ['R', 'G', 'B', 'Y', 'P', 'C', 'O'][(file + 3 * rank) % 7],
                })
                .collect()
        })
        .collect();
    let board: Board = rows.join("\n").parse().unwrap();
    let game = LinesGame::with_board(Settings::default(), [5; 32], board);
    let h = ai::hint(&game, &ai::Budget::fast(), 1).unwrap();
    assert!(
        matches!(h.reason, ai::Reason::Fills { free: 2, .. }),
        "{:?}",
        h.reason
    );
    assert!(
        h.reason
            .to_string()
            .contains("with 2 free cells left, the balls that land fill"),
        "{}",
        h.reason
    );
}

#[test]
fn the_hint_names_the_line_it_builds() {
    let board: Board = "
        ........R
        .........
        .........
        .........
        .........
        .........
        .........
        .........
        RRR......"
        .parse()
        .unwrap();
    let game = LinesGame::with_board(Settings::default(), [5; 32], board);
    let h = ai::hint(&game, &ai::Budget::fast(), 1).unwrap();
    assert_eq!(h.mv.from, cell("i9"));
    assert!([cell("d1"), cell("e1")].contains(&h.mv.to), "{:?}", h.mv);
    assert_eq!(
        h.reason,
        ai::Reason::Builds {
            length: 4,
            color: Ball::Red,
            start: cell("a1"),
            end: cell("e1"),
        }
    );
    assert_eq!(
        h.reason.to_string(),
        "builds a line of red: 4 of 5 on a1 to e1"
    );
}

#[test]
fn a_run_of_three_counts_as_ready_only_when_two_balls_can_fill_it() {
    use banco_lines::ai::eval::{Weights, evaluate_with};
    let open: Board = "
        .........
        .........
        ........R
        .........
        ........R
        .........
        .........
        .........
        RRR......"
        .parse()
        .unwrap();
    let walled: Board = "
        ......BRR
        .......BB
        .........
        .........
        .........
        .........
        .........
        .........
        RRR......"
        .parse()
        .unwrap();
    let without = Weights {
        ready3: 0.0,
        ..Weights::default()
    };
    let with = Weights {
        ready3: 1.0,
        ..Weights::default()
    };
    let gain = |b: &Board| evaluate_with(b, &with) - evaluate_with(b, &without);
    assert!((gain(&open) - 1.0).abs() < 1e-4, "{}", gain(&open));
    assert!(gain(&walled).abs() < 1e-4, "{}", gain(&walled));
}

#[test]
#[allow(clippy::float_cmp)] // the values must come back bit for bit
fn weights_read_back_by_name_and_as_an_array() {
    use banco_lines::ai::eval::{WEIGHT_COUNT, WeightSpecError, Weights};
    let mut w = Weights::default();
    for (i, name) in Weights::NAMES.iter().enumerate() {
        assert!(w.set(name, i as f32 + 0.5), "{name}");
    }
    assert!(!w.set("no_such_weight", 1.0));
    let a = w.to_array();
    assert_eq!(a.len(), WEIGHT_COUNT);
    assert!(a.iter().enumerate().all(|(i, &v)| v == i as f32 + 0.5));
    assert_eq!(Weights::from_array(&a), w);
    assert_eq!(Weights::from_spec(&w.to_spec()), Ok(w));
    // A bad spec is a typed error and changes nothing.
    let mut same = w;
    for (spec, err) in [
        ("run1=2,plan1", WeightSpecError::NoValue("plan1".into())),
        (
            "run1=2,plan1=x",
            WeightSpecError::NotANumber {
                name: "plan1".into(),
                value: "x".into(),
            },
        ),
        ("run1=2,nope=1", WeightSpecError::Unknown("nope".into())),
    ] {
        assert_eq!(same.apply_spec(spec), Err(err), "{spec}");
        assert_eq!(same, w, "{spec}");
    }
    assert_eq!(same.apply_spec(" plan1 = 3 ,"), Ok(()));
    assert_eq!(same.plan1, 3.0);
    assert_eq!(w.run[3], 3.5, "run0..run4 are the entries of run");
}

#[test]
fn landing_samples_fill_empty_cells_only_and_repeat_for_a_seed() {
    use banco_lines::ai::search::{SampleRng, land_random};
    let mut board = Board::empty();
    for i in 0..70 {
        board.set(Cell::from_index(i).unwrap(), Some(Ball::ALL[i % 7]));
    }
    let balls = [Ball::Red, Ball::Blue, Ball::Green];
    let mut a = board;
    let mut b = board;
    land_random(&mut a, &balls, &mut SampleRng::new(5));
    land_random(&mut b, &balls, &mut SampleRng::new(5));
    assert_eq!(a, b);
    assert_eq!(a.ball_count(), 73);
    for i in 0..70 {
        let c = Cell::from_index(i).unwrap();
        assert_eq!(a.get(c), board.get(c), "a ball landed on {c}");
    }
    // Full but for two cells: both fill, the third ball has nowhere to go.
    let mut nearly = Board::empty();
    for i in 0..79 {
        nearly.set(Cell::from_index(i).unwrap(), Some(Ball::ALL[(i / 2) % 7]));
    }
    land_random(&mut nearly, &balls, &mut SampleRng::new(9));
    assert!(nearly.is_full());
}

/// Stage two's landings when the spots were drawn among known cells: the spots come from
/// those cells alone (boards that differ elsewhere see the same ones), a ball lands on its
/// spot when it is free, else on a free cell that is no later ball's spot.
#[test]
fn landing_samples_with_spots_land_on_them_unless_taken() {
    use banco_lines::ai::search::{SampleRng, land_random, land_spots};
    let mut board = Board::empty();
    for i in 0..60 {
        board.set(Cell::from_index(i).unwrap(), Some(Ball::ALL[(i / 3) % 7]));
    }
    let spot_cells = CellSet(((1u128 << 70) - 1) & !((1u128 << 60) - 1));
    let balls = [Ball::Red, Ball::Blue, Ball::Green];
    for seed in 0..200u64 {
        let mut a = board;
        land_spots(&mut a, spot_cells, &balls, &mut SampleRng::new(seed));
        let landed = CellSet(a.empties().0 ^ board.empties().0);
        assert_eq!(landed.len(), 3, "seed {seed}");
        assert!(
            landed.iter().all(|c| spot_cells.contains(c)),
            "seed {seed}: {landed:?}"
        );
        // A board whose cells 70-80 changed: the same spots.
        let mut b = board;
        b.set(Cell::from_index(75).unwrap(), Some(Ball::Purple));
        land_spots(&mut b, spot_cells, &balls, &mut SampleRng::new(seed));
        assert_eq!(CellSet(b.empties().0 ^ board.empties().0).len(), 4);
        for c in landed.iter() {
            assert_eq!(a.get(c), b.get(c), "seed {seed}: {c}");
        }
        // Every spot cell but one taken: at most one ball on its spot, the others elsewhere.
        let mut c = board;
        for i in 61..70 {
            c.set(Cell::from_index(i).unwrap(), Some(Ball::Purple));
        }
        land_spots(&mut c, spot_cells, &balls, &mut SampleRng::new(seed));
        assert_eq!(c.ball_count(), board.ball_count() + 9 + 3, "seed {seed}");
    }
    // No spot cells: the classic landing.
    let (mut x, mut y) = (board, board);
    land_spots(&mut x, CellSet::EMPTY, &balls, &mut SampleRng::new(4));
    land_random(&mut y, &balls, &mut SampleRng::new(4));
    assert_eq!(x, y);
}

/// The search with no spot cells is the search of the rule at landing; with the cells of a
/// game of the new rule it judges the cell a move leaves as taking no ball, and still plays
/// a legal move, deterministically.
#[test]
fn the_search_knows_where_the_spots_may_be() {
    use banco_lines::ai::eval::Weights;
    let w = Weights::default();
    let mut differs = 0;
    for seed in 1..=12u64 {
        let game = LinesGame::new(Settings::default(), Spawner::seed_from_u64(seed));
        let (board, next) = (game.board(), game.next_colors());
        for budget in [ai::Budget::from_playouts(1), ai::Budget::fast()] {
            let classic = ai::search::best_move_with(board, &next, &budget, seed, &w).unwrap();
            let none = ai::search::best_move_in(board, CellSet::EMPTY, &next, &budget, seed, &w);
            assert_eq!(Some(classic), none);
            let spots = game.spot_cells();
            let here = ai::search::best_move_in(board, spots, &next, &budget, seed, &w).unwrap();
            let again = ai::search::best_move_in(board, spots, &next, &budget, seed, &w);
            assert_eq!(Some(here), again);
            assert!(game.check_move(here.0.from, here.0.to).is_ok());
            differs += usize::from((here.1 - classic.1).abs() > 1e-3);
        }
    }
    assert!(differs > 0, "the spot cells change the values");
}

#[test]
fn rollouts_are_deterministic_for_a_seed_and_play_legal_moves() {
    let game = LinesGame::new(Settings::default(), Spawner::seed_from_u64(21));
    let budget = ai::Budget {
        candidates: 2,
        samples: 2,
        replies: false,
        depth: 2,
        threads: 1,
        shortlist: 0,
    };
    let a = ai::search::best_move(game.board(), &game.next_colors(), &budget, 3).unwrap();
    let b = ai::search::best_move(game.board(), &game.next_colors(), &budget, 3).unwrap();
    assert_eq!(a, b);
    let threads = budget.with_threads(2);
    let c = ai::search::best_move(game.board(), &game.next_colors(), &threads, 3).unwrap();
    assert_eq!(a, c);
    assert!(game.check_move(a.0.from, a.0.to).is_ok());
    let played = ai::play_out(game, ai::Player::Computer(budget), 3, 10);
    assert_eq!(played.turns, 10);
}

/// A spot set with bits beyond the board's 81 cells (which `CellSet` can hold) lands its
/// balls all the same: the extra bits are no cells to draw (they used to keep the draw
/// looping for ever).
#[test]
fn landing_samples_ignore_spot_bits_beyond_the_board() {
    use banco_lines::ai::search::{SampleRng, land_spots};
    let spots = CellSet(1 << 60 | 1 << 100 | 1 << 127);
    let balls = [Ball::Red, Ball::Blue, Ball::Green];
    for seed in 0..50u64 {
        let mut board = Board::empty();
        land_spots(&mut board, spots, &balls, &mut SampleRng::new(seed));
        assert_eq!(board.ball_count(), 3, "seed {seed}");
        assert_eq!(board.get(Cell::from_index(60).unwrap()), Some(Ball::Red));
    }
}
