//! The Lines 98 preview through the bindings: a seeded game shows where its next balls
//! land, they land there, and the spots survive save and load; the view carries them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::{LinesGame, LinesSettings, LinesUndo};

#[test]
fn a_preview_game_lands_its_balls_on_the_spots_shown() {
    let settings = LinesSettings {
        start_balls: 5,
        undo: LinesUndo::LastTurn,
        preview: true,
    };
    let game = LinesGame::new(settings, Some(7)).unwrap();
    assert_eq!(game.view().settings, settings);
    let mut landed_on_spots = 0;
    for _ in 0..20 {
        let (spots, next) = (game.next_spots(), game.view().next_colors);
        assert_eq!(spots.len(), 3);
        // The hint; when its move takes no spot, the balls land on the spots shown.
        let hint = game.hint().unwrap();
        let turn = game.play(hint.from, hint.to).unwrap();
        if turn.cleared.is_empty() && !spots.contains(&hint.to) {
            let cells: Vec<u8> = turn.landed.iter().map(|b| b.cell).collect();
            let colors: Vec<u8> = turn.landed.iter().map(|b| b.color).collect();
            assert_eq!(cells, spots);
            assert_eq!(colors, next);
            landed_on_spots += 1;
        }
        if game.is_over() {
            break;
        }
    }
    assert!(landed_on_spots > 5);
    let back = LinesGame::load(game.save().unwrap()).unwrap();
    assert_eq!(back.next_spots(), game.next_spots());
    assert_eq!(back.view(), game.view());
    // Without the preview: no spots.
    let classic = LinesGame::new(
        LinesSettings {
            preview: false,
            ..settings
        },
        Some(7),
    )
    .unwrap();
    assert!(classic.next_spots().is_empty());
}

#[test]
fn the_view_carries_the_spots_the_balls_land_on() {
    let settings = LinesSettings {
        start_balls: 3,
        undo: LinesUndo::Off,
        preview: true,
    };
    let game = LinesGame::new(settings, Some(11)).unwrap();
    let mut landed_on_spots = 0;
    for _ in 0..15 {
        let view = game.view();
        assert_eq!(view.next_spots, game.next_spots());
        assert_eq!(view.next_spots.len(), view.next_colors.len());
        let hint = game.hint().unwrap();
        let turn = game.play(hint.from, hint.to).unwrap();
        if turn.cleared.is_empty() && !view.next_spots.contains(&hint.to) {
            let landed: Vec<(u8, u8)> = turn.landed.iter().map(|b| (b.cell, b.color)).collect();
            let shown: Vec<(u8, u8)> = view
                .next_spots
                .iter()
                .copied()
                .zip(view.next_colors.iter().copied())
                .collect();
            assert_eq!(landed, shown, "each ball lands on its spot in the view");
            landed_on_spots += 1;
        }
        if game.is_over() {
            break;
        }
    }
    assert!(landed_on_spots > 5);
    let classic = LinesGame::new(
        LinesSettings {
            preview: false,
            ..settings
        },
        Some(11),
    )
    .unwrap();
    assert!(
        classic.view().next_spots.is_empty(),
        "no spots in a classic game"
    );
}
