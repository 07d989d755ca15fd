//! Lines in the free functions about games (the crate's rules of the boundary): each answers
//! for Lines when Lines has an answer, its own or none, and refuses it with
//! `InvalidArgument` naming what to call instead where only a board game has one. They used
//! to answer nonsense: `colorName(LINES, BLACK)` "Black", `resultText(LINES, checkmate)`
//! "Red won: checkmate", `notations(LINES)` `[COORDINATE]`. And the lists of games the
//! free functions give: the editor's and the puzzles', which the shells used to write.
#![allow(clippy::unwrap_used)]

use crate::*;

const LINES: GameKind = GameKind::Lines;

/// `r` is the refusal of Lines by `function`, naming `instead`.
#[track_caller]
fn refused<T: std::fmt::Debug>(r: Result<T, BancoError>, function: &str, instead: &str) {
    match r {
        Err(BancoError::InvalidArgument(m)) => {
            assert!(
                m.starts_with(&format!("{function} is for board games, not Lines: "))
                    && m.contains(instead),
                "{m}"
            );
        }
        other => panic!("{function}(LINES): {other:?}"),
    }
}

#[test]
fn lines_is_answered_or_refused_by_every_free_function_about_games() {
    // Refused: only a board game has one; the message names what to call.
    refused(start_fen(LINES), "startFen", "LinesGame");
    refused(board_shape(LINES), "boardShape", "linesBoardSize()");
    refused(square_name(LINES, 0), "squareName", "linesCellName");
    refused(
        parse_square(LINES, "a1".into()),
        "parseSquare",
        "linesCellName",
    );
    for c in [Color::Red, Color::Black] {
        refused(color_name(LINES, c), "colorName", "linesColorName");
    }
    let mate = Outcome::Win {
        winner: Color::Red,
        reason: WinReason::Checkmate,
    };
    for me in [None, Some(Color::Red), Some(Color::Black)] {
        refused(
            result_text(LINES, mate, me),
            "resultText",
            "RaceOutcome.text",
        );
    }
    // Lines' own answers.
    assert_eq!(
        validate_fen(LINES, "9/9/9/9/2RRRR3/9/9/9/8B GBY 40".into()),
        Vec::<String>::new()
    );
    let problems = validate_fen(LINES, "9/9/9".into());
    assert_eq!(
        problems,
        ["a Lines position has 9 ranks separated by /, not 3"]
    );
    assert!(render_fen_svg(LINES, "9/9/9/9/4R4/9/9/9/9".into(), None, false).is_ok());
    // None of these: empty, or null.
    assert_eq!(notations(LINES), []);
    assert_eq!(piece_kinds(LINES), []);
    assert_eq!(default_rules(LINES), None);
    assert_eq!(rules_presets(LINES), []);
    assert_eq!(rules_preset(LINES, "casual".into()), None);
    assert_eq!(pgn_player_tags(LINES, "An".into(), "Binh".into()), []);
    let tags = pgn_record_tags(
        LINES,
        "E".into(),
        "2026-12-05".into(),
        Color::Red,
        "An".into(),
        "Binh".into(),
    );
    assert_eq!(
        tags.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
        ["Event", "Date"]
    );
    assert_eq!(puzzle_tiers_of(LINES), []);
    assert_eq!(collection_puzzles_of(LINES, None), []);
}

#[test]
fn the_board_games_keep_their_answers() {
    for k in board_games() {
        assert!(start_fen(k).is_ok() && board_shape(k).is_ok());
        assert!(!notations(k).is_empty() && !piece_kinds(k).is_empty());
        assert_eq!(pgn_player_tags(k, "An".into(), "Binh".into()).len(), 2);
        assert_eq!(validate_fen(k, start_fen(k).unwrap()), Vec::<String>::new());
        assert_eq!(parse_square(k, square_name(k, 0).unwrap()).unwrap(), 0);
    }
    assert_eq!(color_name(GameKind::Chess, Color::Red).unwrap(), "White");
    let mate = Outcome::Win {
        winner: Color::Black,
        reason: WinReason::Checkmate,
    };
    assert_eq!(
        result_text(GameKind::Chess, mate, None).unwrap(),
        "Black won: checkmate"
    );
}

#[test]
fn the_editor_and_puzzle_games_are_the_ones_that_open() {
    for k in [GameKind::Xiangqi, GameKind::Chess, GameKind::Jieqi, LINES] {
        assert_eq!(
            editor_games().contains(&k),
            Editor::start(k).is_ok(),
            "{k:?}"
        );
        assert_eq!(
            puzzle_games().contains(&k),
            !puzzle_tiers_of(k).is_empty(),
            "{k:?}"
        );
    }
    assert_eq!(
        editor_games(),
        [GameKind::Xiangqi, GameKind::Chess, GameKind::Jieqi]
    );
    assert_eq!(puzzle_games(), [GameKind::Xiangqi, GameKind::Chess]);
}
