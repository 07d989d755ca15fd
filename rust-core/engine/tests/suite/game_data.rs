//! Every game's engine data — the balanced openings of `banco match`, the bench positions,
//! the rule-set names of `UCI_Variant` options — checked the same way for each game: the
//! openings are legal lines whose moves read back as written, every bench FEN parses, every
//! rule name is known in any case.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers of tests

use banco_chess::Chess;
use banco_engine::EngineGame;
use banco_game::toy::DiceRace;
use banco_xiangqi::Xiangqi;

fn check_data<G: EngineGame>() {
    for (name, line) in G::OPENINGS {
        let mut game = <G as EngineGame>::start();
        for text in line.split_whitespace() {
            let mv = game
                .parse_move(text)
                .unwrap_or_else(|e| panic!("{} opening {name}: {text}: {e}", G::NAME));
            assert_eq!(game.move_text(mv), text, "{} opening {name}", G::NAME);
            assert!(game.play(mv).is_ok(), "{} opening {name}: {text}", G::NAME);
        }
        assert!(
            game.outcome(&G::Rules::default()).is_none(),
            "{name} ends the game"
        );
    }
    assert!(!G::BENCH_POSITIONS.is_empty(), "{} has no bench", G::NAME);
    for fen in G::BENCH_POSITIONS {
        assert!(
            <G as EngineGame>::from_fen(fen).is_ok(),
            "{}: {fen}",
            G::NAME
        );
    }
    for name in G::RULE_NAMES {
        assert!(G::rules_named(name).is_some(), "{}: {name}", G::NAME);
        assert!(
            G::rules_named(&name.to_uppercase()).is_some(),
            "{}: {name}",
            G::NAME
        );
    }
    assert!(G::rules_named("no such rules").is_none());
}

#[test]
fn xiangqi_data() {
    check_data::<Xiangqi>();
}

#[test]
fn chess_data() {
    check_data::<Chess>();
}

#[test]
fn dice_race_data() {
    check_data::<DiceRace>();
}

#[test]
fn jieqi_data() {
    check_data::<banco_xiangqi::jieqi::Jieqi>();
}
