//! The Lines 98 preview ([`Settings::preview`]): the announced balls' landing cells are
//! drawn when they are announced and shown; each ball lands on its spot unless the
//! player's move took it. A game without the preview lands exactly as before.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use banco_game::ScoreGame;
use banco_lines::spawn::Spawner;
use banco_lines::{Board, Cell, LinesGame, Move, NEXT, Settings, SpawnRule, ai};

/// FNV-1a over every landing (cell, colour), every start board and every final score of
/// five greedy games, seeds 1–5, under `settings`: a fingerprint of their spawns.
fn fingerprint(settings: Settings) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |v: u64| {
        for b in v.to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x100_0000_01b3);
        }
    };
    for seed in 1..=5 {
        let mut game = LinesGame::new(settings, Spawner::seed_from_u64(seed));
        for &code in game.board().codes() {
            eat(u64::from(code));
        }
        while let Some(m) = ai::greedy_move(&game) {
            let r = game.play(m).unwrap();
            for &(c, b) in &r.landed {
                eat(c.index() as u64 * 8 + b.index() as u64);
            }
        }
        eat(u64::from(game.score()));
        eat(u64::from(game.turns()));
    }
    h
}

#[test]
fn a_classic_game_of_the_rule_before_lands_as_it_always_did() {
    // Recorded before the preview existed (the spawns at landing, every game's until
    // 2026-12-06, which a game saved then still plays).
    let legacy = Settings::default().with_spawn(SpawnRule::AtLanding);
    assert_eq!(fingerprint(legacy), 7_627_788_881_502_673_791);
    // A new game draws its spots at announcement: other cells.
    assert_ne!(fingerprint(Settings::default()), fingerprint(legacy));
}

fn preview() -> Settings {
    Settings::default().with_preview(true)
}

/// A move of `game` onto its `k`-th spot, if some ball can reach it.
fn move_onto_spot(game: &LinesGame, k: usize) -> Option<Move> {
    let spot = *game.next_spots().get(k)?;
    Cell::all()
        .filter(|&c| !game.board().is_empty_cell(c))
        .find(|&c| game.reachable(c).contains(spot))
        .map(|from| Move { from, to: spot })
}

/// Plays `turns` turns of `game`, every third turn onto a spot when one can be reached
/// (the spot of ball `turn % 3`), otherwise the greedy move; checks every turn's landing
/// against the spots shown before it.
fn play_checked(game: &mut LinesGame, turns: u32) -> u32 {
    let mut taken = 0;
    for turn in 0..turns {
        if game.is_over() {
            break;
        }
        let spots = game.next_spots();
        let colors = game.next_colors();
        // The spots: distinct free cells, as many as there are balls and free cells.
        assert_eq!(spots.len(), game.board().empty_count().min(NEXT));
        for (i, &s) in spots.iter().enumerate() {
            assert!(game.board().is_empty_cell(s), "spot {s} holds a ball");
            assert!(!spots[..i].contains(&s), "spot {s} twice");
        }
        let onto = (turn % 3 == 2)
            .then(|| move_onto_spot(game, (turn / 3 % 3) as usize))
            .flatten();
        let Some(mv) = onto.or_else(|| ai::greedy_move(game)) else {
            break;
        };
        let r = game.play(mv).unwrap();
        if !r.cleared.is_empty() {
            assert!(r.landed.is_empty());
            assert_eq!(game.next_spots(), spots, "a line keeps the spots");
            continue;
        }
        for (k, &(cell, ball)) in r.landed.iter().take(NEXT).enumerate() {
            assert_eq!(ball, colors[k]);
            if spots[k] == mv.to {
                taken += 1;
                assert_ne!(cell, spots[k], "the moved ball stands on that spot");
                assert!(
                    !spots[k + 1..].contains(&cell),
                    "a displaced ball takes no later ball's spot"
                );
            } else {
                assert_eq!(cell, spots[k], "ball {k} lands on its spot");
            }
        }
    }
    taken
}

#[test]
fn the_balls_land_on_the_spots_shown_unless_the_move_took_one() {
    let mut taken = 0;
    for seed in 1..=6 {
        let mut game = LinesGame::new(preview(), Spawner::seed_from_u64(seed));
        taken += play_checked(&mut game, 400);
    }
    assert!(
        taken >= 20,
        "only {taken} spots taken: the test must take some"
    );
}

#[test]
fn a_ball_whose_spot_was_taken_lands_at_random_the_same_way_each_time() {
    let mut landings = std::collections::BTreeSet::new();
    for seed in 1..=30 {
        let game = LinesGame::new(preview(), Spawner::seed_from_u64(seed));
        let Some(mv) = move_onto_spot(&game, 0) else {
            continue;
        };
        let (mut a, mut b) = (game.clone(), game.clone());
        let (ra, rb) = (a.play(mv).unwrap(), b.play(mv).unwrap());
        assert_eq!(ra, rb);
        assert_eq!(a.next_spots(), b.next_spots());
        if let Some(&(cell, _)) = ra.landed.first() {
            assert_ne!(cell, mv.to);
            landings.insert(cell.index());
        }
    }
    assert!(
        landings.len() > 5,
        "the displaced balls land on random cells"
    );
}

#[test]
fn replay_resume_undo_and_serde_bring_the_same_spots_back() {
    let mut game = LinesGame::new(preview(), Spawner::seed_from_u64(77));
    play_checked(&mut game, 20);
    assert!(!game.is_over());
    let replayed = LinesGame::replay(preview(), game.seed(), game.moves()).unwrap();
    assert_eq!(replayed, game);
    assert_eq!(replayed.next_spots(), game.next_spots());
    let bytes = postcard::to_allocvec(&game).unwrap();
    let loaded: LinesGame = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(loaded, game);
    // Undo, then the same move: the same spots before it, the same landing after it.
    let mv = move_onto_spot(&game, 1)
        .or_else(|| ai::greedy_move(&game))
        .unwrap();
    let before = game.clone();
    let first = game.play(mv).unwrap();
    let spots_after = game.next_spots();
    assert!(game.undo());
    assert_eq!(game.next_spots(), before.next_spots());
    assert_eq!(game.state(), before.state());
    assert_eq!(game.play(mv).unwrap(), first);
    assert_eq!(game.next_spots(), spots_after);
    // Resumed with the turn taken back, then redone.
    assert!(game.undo());
    let resumed =
        LinesGame::resume(preview(), game.seed(), game.moves(), game.taken_back()).unwrap();
    assert_eq!(resumed.next_spots(), before.next_spots());
    assert_eq!(game.redo(), Some(first));
    assert_eq!(game.next_spots(), spots_after);
}

#[test]
fn the_preview_changes_where_balls_land_not_what_comes() {
    // The same seed: the same start board and the same colours; spots only with the
    // preview.
    for seed in 1..=10 {
        let s = Spawner::seed_from_u64(seed);
        let (classic, shown) = (
            LinesGame::new(Settings::default(), s),
            LinesGame::new(preview(), s),
        );
        assert_eq!(classic.board(), shown.board());
        assert_eq!(classic.next_colors(), shown.next_colors());
        assert!(classic.next_spots().is_empty());
        assert_eq!(shown.next_spots().len(), NEXT);
    }
    // A board set up by hand gets its spots too.
    let game = LinesGame::with_board(preview(), [4; 32], Board::empty());
    assert_eq!(game.next_spots().len(), NEXT);
}
