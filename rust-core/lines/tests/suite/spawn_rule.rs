//! The spawn rule ([`SpawnRule`]): in every new game the cell where an announced ball will
//! land (its spot) is drawn when the ball is announced and kept hidden, so every move that
//! leaves the spots free lands the balls on the same cells, and undo cannot choose among
//! landings (review finding F4: under the rule before, one position's non-scoring moves
//! gave 29 different landings). Games of the rule before ([`SpawnRule::AtLanding`]) land
//! as they always did.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use banco_game::ScoreGame;
use banco_lines::spawn::Spawner;
use banco_lines::{Ball, Cell, LinesGame, Move, NEXT, Settings, SpawnRule, UndoRule, ai};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// The game of `seed` after `turns` greedy turns.
fn played(settings: Settings, seed: u64, turns: u32) -> LinesGame {
    let mut game = LinesGame::new(settings, Spawner::seed_from_u64(seed));
    for _ in 0..turns {
        let Some(mv) = ai::greedy_move(&game) else {
            break;
        };
        game.play(mv).unwrap();
    }
    game
}

/// Every legal move of `game`.
fn legal_moves(game: &LinesGame) -> Vec<Move> {
    Cell::all()
        .filter(|&c| !game.board().is_empty_cell(c))
        .flat_map(|from| game.reachable(from).iter().map(move |to| Move { from, to }))
        .collect()
}

/// The hidden spots of `game` (the test reads the state; no view shows them).
fn hidden_spots(game: &LinesGame) -> Vec<Cell> {
    game.state().spots.iter().map_while(|&s| s).collect()
}

/// The announced balls' landings (cell and colour) of every legal move of `game` that
/// completes no line and does not end on a spot, one set entry per distinct landing.
fn landings_avoiding_spots(game: &LinesGame, spots: &[Cell]) -> BTreeSet<Vec<(Cell, Ball)>> {
    let mut seen = BTreeSet::new();
    for mv in legal_moves(game) {
        if spots.contains(&mv.to) {
            continue;
        }
        let mut g = game.clone();
        let r = g.play(mv).unwrap();
        if r.cleared.is_empty() {
            seen.insert(r.landed.iter().take(NEXT).copied().collect());
        }
    }
    seen
}

proptest! {
    #![proptest_config(banco_game::testing::proptest_config(Some(24), 0x5B07))]

    /// (a) For seeded positions, every non-scoring legal move that does not end on a spot
    /// lands the announced balls on the same cells: the spots.
    #[test]
    fn every_move_that_avoids_the_spots_lands_the_same_cells(
        seed in any::<u64>(),
        turns in 0u32..60,
    ) {
        let game = played(Settings::default(), seed, turns);
        prop_assume!(!game.is_over());
        let spots = hidden_spots(&game);
        prop_assert_eq!(spots.len(), game.board().empty_count().min(NEXT));
        let seen = landings_avoiding_spots(&game, &spots);
        prop_assert!(seen.len() <= 1, "{} different landings", seen.len());
        if let Some(landed) = seen.first() {
            let cells: Vec<Cell> = landed.iter().map(|&(c, _)| c).collect();
            prop_assert_eq!(&cells, &spots);
            let colours: Vec<Ball> = landed.iter().map(|&(_, b)| b).collect();
            prop_assert_eq!(&colours[..], &game.next_colors()[..colours.len()]);
        }
    }
}

/// [`LinesGame::spot_cells`], what a player knows of the hidden spots: the free cells when
/// the balls were announced. It holds every spot; a non-scoring turn's landing announces
/// new balls among the free cells it leaves; a scoring turn keeps the balls announced, and
/// their cells; a ball lands outside those cells only when the move took its spot; under
/// the rule before there are no spots and no such cells.
#[test]
fn the_spot_cells_are_the_free_cells_at_announcement() {
    for seed in 1..=8u64 {
        let mut game = played(Settings::default(), seed, 0);
        let mut scoring = 0;
        for _ in 0..150 {
            let Some(mv) = ai::greedy_move(&game) else {
                break;
            };
            let before = game.spot_cells();
            let spots = hidden_spots(&game);
            assert!(spots.iter().all(|&s| before.contains(s)), "seed {seed}");
            let r = game.play(mv).unwrap();
            if r.cleared.is_empty() {
                for &(c, _) in r.landed.iter().take(NEXT) {
                    assert!(
                        before.contains(c) || spots.contains(&mv.to),
                        "seed {seed}: {c} landed outside the spot cells after {mv}"
                    );
                }
                assert_eq!(game.spot_cells(), game.board().empties(), "seed {seed}");
            } else {
                scoring += 1;
                assert_eq!(
                    game.spot_cells(),
                    before,
                    "seed {seed}: the same balls wait"
                );
                // The ball that moved was there at announcement (a ball moved since made a
                // line and is gone).
                assert!(!before.contains(mv.from));
            }
            if game.is_over() {
                break;
            }
        }
        assert!(scoring > 0, "seed {seed}: no line made");
        let legacy = played(
            Settings::default().with_spawn(SpawnRule::AtLanding),
            seed,
            20,
        );
        assert!(legacy.spot_cells().is_empty());
    }
}

/// What the rule fixes: under the rule before, one position's moves landed the balls on
/// many different cells (which undo let a player choose among).
#[test]
fn the_rule_before_landed_where_the_move_decided() {
    let legacy = Settings::default().with_spawn(SpawnRule::AtLanding);
    let game = played(legacy, 7, 30);
    assert!(hidden_spots(&game).is_empty(), "no spots at landing");
    assert!(landings_avoiding_spots(&game, &[]).len() > 5);
    let game = played(Settings::default(), 7, 30);
    assert_eq!(
        landings_avoiding_spots(&game, &hidden_spots(&game)).len(),
        1
    );
}

/// (b) Move, undo, another move: the balls land on the same cells wherever their spots
/// were left free — taken back again and again (last-turn undo re-arms after each move),
/// and with unlimited undo.
#[test]
fn undo_then_another_move_lands_on_the_same_cells() {
    for undo in [UndoRule::LastTurn, UndoRule::Unlimited] {
        for seed in 1..=6u64 {
            let settings = Settings::new(5, undo).unwrap();
            let mut game = played(settings, seed, 10 + 3 * seed as u32);
            let spots = hidden_spots(&game);
            let colours = game.next_colors();
            let mut tries = 0;
            for mv in legal_moves(&game).into_iter().step_by(7) {
                let r = game.play(mv).unwrap();
                assert!(game.undo(), "seed {seed}: the turn is taken back");
                if !r.cleared.is_empty() {
                    continue;
                }
                tries += 1;
                // Every ball whose spot the move left free landed there, in its colour.
                for (k, &spot) in spots.iter().enumerate() {
                    if spot != mv.to {
                        assert!(
                            r.landed.contains(&(spot, colours[k])),
                            "seed {seed}, {undo:?}: {mv} landed {:?}, spot {spot}",
                            r.landed
                        );
                    }
                }
            }
            assert!(tries > 10, "seed {seed}: {tries} tries");
            assert_eq!(hidden_spots(&game), spots, "undo brings the same spots");
        }
    }
}

/// The spots are hidden without the preview: no view shows them, and the computer's hint
/// judges the position by what a player knows — the board, the colours, the cells the
/// spots were drawn among ([`LinesGame::spot_cells`], public) and
/// [`LinesGame::next_spots`] — never by the hidden spots themselves: two games that differ
/// only there get the same hint.
#[test]
fn the_hidden_spots_are_shown_nowhere_and_the_hint_ignores_them() {
    for seed in 1..=4u64 {
        let game = played(Settings::default(), seed, 20);
        assert_eq!(hidden_spots(&game).len(), NEXT);
        assert!(game.next_spots().is_empty());
        let shown = LinesGame::with_board(
            Settings::default().with_preview(true),
            game.seed(),
            *game.board(),
        );
        let hidden = LinesGame::with_board(Settings::default(), game.seed(), *game.board());
        let none = LinesGame::with_board(
            Settings::default().with_spawn(SpawnRule::AtLanding),
            game.seed(),
            *game.board(),
        );
        assert_eq!(shown.next_spots(), hidden_spots(&hidden));
        assert!(hidden.next_spots().is_empty() && hidden_spots(&none).is_empty());
        // Another seed announcing the same colours on the same board: other spots, drawn
        // among the same cells.
        let twin = (0..5_000u64)
            .map(|k| {
                let other = Spawner::seed_from_u64(seed * 1_000_003 + k);
                LinesGame::with_board(Settings::default(), other, *game.board())
            })
            .find(|g| {
                g.next_colors() == hidden.next_colors() && hidden_spots(g) != hidden_spots(&hidden)
            })
            .expect("a seed announcing the same colours on other spots");
        assert_eq!(twin.spot_cells(), hidden.spot_cells());
        assert_eq!(hidden.spot_cells(), game.board().empties());
        let budget = ai::Budget::fast();
        assert_eq!(
            ai::hint(&hidden, &budget, seed),
            ai::hint(&twin, &budget, seed),
            "seed {seed}"
        );
    }
}
