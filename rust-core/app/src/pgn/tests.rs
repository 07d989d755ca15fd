#![allow(clippy::unwrap_used)]
use super::*;
use crate::notation::parse_move;
use banco_game::{MatchGame, WinReason};
use proptest::prelude::*;

/// A game of `plies` seeded random legal moves.
fn random_game(kind: GameKind, seed: u64, plies: usize) -> AnyGame {
    let mut g = AnyGame::new(kind).unwrap();
    let mut s = seed | 1;
    for _ in 0..plies {
        let moves = g.legal_move_vec();
        if moves.is_empty() || g.outcome(&AnyRules::usual(kind)).is_some() {
            break;
        }
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        g.play(moves[(s % moves.len() as u64) as usize]).unwrap();
    }
    g
}

#[test]
fn a_chess_game_with_everything() {
    let text = r#"[Event "Casual"]
[Site "?"]
[Date "2026.12.01"]
[Round "1"]
[White "A"]
[Black "B \"the quick\""]
[Result "1-0"]

% an escape line
1. e4 {king's pawn} e5 2. Nf3!? Nc6 (2... d6 3. d4 (3. Bc4)) 3. Bb5 $1 a6
; a rest-of-line comment
4. Ba4 Nf6 5. O-O 1-0
"#;
    let g = import(text).unwrap();
    assert_eq!(g.kind, GameKind::Chess);
    assert_eq!(g.moves.len(), 9);
    assert_eq!(g.tag("Black"), Some("B \"the quick\""));
    assert_eq!(g.result, PgnResult::FirstWins);
    assert_eq!(g.comments[0], (1, "king's pawn".to_owned()));
    assert_eq!(g.nags, vec![(3, Nag(5)), (5, Nag(1))]);
    assert_eq!(
        g.notes,
        vec!["1 variation skipped: only the main line is read"]
    );
    // Not a mate on the board: the result is kept as the ending of the saved game.
    let saved = g.to_saved().unwrap();
    assert!(saved.ending.is_some());
    let mut headers = Headers::from_tags(&g.tags);
    headers.comments = g.comments.clone();
    headers.nags = g.nags.clone();
    headers.ending = saved.ending;
    let again = export(&g.game().unwrap(), &headers).unwrap();
    assert!(again.starts_with("[Event \"Casual\"]\n[Site \"?\"]\n[Date \"2026.12.01\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B \\\"the quick\\\"\"]\n[Result \"1-0\"]\n\n"), "{again}");
    assert!(
        again.ends_with(
            "1. e4 {king's pawn} 1... e5 2. Nf3 $5 Nc6 3. Bb5 $1 a6 {a rest-of-line comment}\n4. Ba4 Nf6 5. O-O 1-0\n"
        ),
        "{again}"
    );
    let back = import(&again).unwrap();
    assert_eq!(back.moves, g.moves);
    assert_eq!(back.comments, g.comments);
    assert_eq!(back.nags, g.nags);
}

/// A Chess960 game as python-chess writes it (`Variant`, X-FEN castling rights, O-O and
/// O-O-O in the movetext): read as chess, castled as Chess960 castles, and written back with
/// its `Variant` tag (and Shredder-FEN rights), which reads back the same.
#[test]
fn a_chess960_game_reads_and_writes_back() {
    let text = r#"[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "*"]
[FEN "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1"]
[SetUp "1"]
[Variant "Chess960"]

1. O-O O-O-O 2. d4 d5 *
"#;
    let g = import(text).unwrap();
    assert_eq!(g.kind, GameKind::Chess);
    let game = g.game().unwrap();
    // The kings castled onto g1 and c8, the rooks onto f1 and d8.
    assert_eq!(
        game.fen(),
        "2kr2r1/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/1R3RK1 w - - 0 3"
    );
    let again = export(&game, &Headers::from_tags(&g.tags)).unwrap();
    assert!(again.contains("[Variant \"Chess960\"]\n"), "{again}");
    assert!(
        again.contains("[FEN \"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1\"]"),
        "{again}"
    );
    assert!(again.ends_with("1. O-O O-O-O 2. d4 d5 *\n"), "{again}");
    assert_eq!(import(&again).unwrap().moves, g.moves);
    // A standard game has no Variant tag.
    let standard = export(&random_game(GameKind::Chess, 5, 20), &Headers::default()).unwrap();
    assert!(!standard.contains("[Variant"), "{standard}");
}

#[test]
fn xqbase_dialects_read() {
    let iccs = "[Game \"Chinese Chess\"]\n[Red \"R\"]\n[Black \"B\"]\n[Result \"*\"]\n[Format \"ICCS\"]\n\n1. H2-E2 H9-G7 2. H0-G2 I9-H9 *\n";
    let wxf = "[Game \"Chinese Chess\"]\n[Format \"WXF\"]\n\n1. C2.5 H8+7 2. H2+3 R9.8 *\n";
    let chinese = "[Game \"Chinese Chess\"]\n[Format \"Chinese\"]\n\n1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ *\n";
    let a = import(iccs).unwrap();
    assert_eq!(a.kind, GameKind::Xiangqi);
    assert_eq!(a.moves.len(), 4);
    assert_eq!(import(wxf).unwrap().moves, a.moves);
    assert_eq!(import(chinese).unwrap().moves, a.moves);
    // A set-up position, Black to move.
    let fen = "3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 0 1";
    let t = format!("[Game \"Chinese Chess\"]\n[FEN \"{fen}\"]\n\n1... D9-D8 2. E1-E2 *\n");
    let g = import(&t).unwrap();
    assert_eq!(g.start_fen.as_deref(), Some(fen));
    assert_eq!(g.moves.len(), 2);
}

#[test]
fn the_first_bad_move_is_reported() {
    let e = import("[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7 2. h0g2 x1y2 *").unwrap_err();
    assert_eq!(
        e.to_string(),
        "move 2 (Black) `x1y2` is not legal: `x1y2` is not a move: write coordinates (h2e2), WXF (C2.5, H8+7) or Chinese (炮二平五)"
    );
    let e = import("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# Kxf7 1-0").unwrap_err();
    assert!(
        matches!(
            e,
            PgnError::IllegalMove {
                number: 4,
                side: "Black",
                ..
            }
        ),
        "{e}"
    );
    assert!(matches!(
        import("[FEN \"8/8 w\"]\n\n*"),
        Err(PgnError::BadFen(_))
    ));
    assert!(matches!(import("1. e4 (e5"), Err(PgnError::Syntax(_))));
    assert_eq!(import("   \n"), Err(PgnError::Empty));
}

#[test]
fn a_database_reads_game_by_game() {
    let db = "[Event \"1\"]\n\n1. e4 e5 *\n\n[Event \"2\"]\n\n1. e4 Ke7?? 2. Ke2 *\n\n[Event \"3\"]\n\n1. d4 *\n";
    let all = import_all(db);
    assert_eq!(all.len(), 3);
    assert!(all[0].is_ok() && all[2].is_ok());
    assert!(all[1].is_err());
}

#[test]
fn a_saved_game_exports_with_its_players() {
    let g = random_game(GameKind::Xiangqi, 7, 20);
    let mut saved = SavedGame::of(&g, AnyRules::usual(GameKind::Xiangqi));
    saved.player = Some(crate::save::Player { color: 1, level: 4 });
    saved.tags.push(("Date".into(), "2026.12.01".into()));
    let text = export_saved(&saved).unwrap();
    assert!(text.contains("[Red \"Banco level 4\"]"), "{text}");
    assert!(text.contains("[Black \"Player\"]"));
    assert!(text.contains("[Date \"2026.12.01\"]"));
    assert_eq!(import(&text).unwrap().moves, g.history());
}

/// A game against the computer shared as the phones share it (the player's own name, the
/// tags of `tags::vs_computer_tags`) reads back with the player's side and level, keeps the
/// player's name, and writes the same roster again; so does what the phones shared before
/// (`Banco (level N)`, no `Human` or `Level`).
#[test]
fn a_game_against_the_computer_reads_back_with_its_player() {
    let g = random_game(GameKind::Chess, 3, 6);
    let mut shared = SavedGame::of(&g, AnyRules::usual(GameKind::Chess));
    shared.tags = crate::tags::vs_computer_tags(
        GameKind::Chess,
        "2026-12-06",
        banco_game::Color::Black,
        "An",
        3,
    );
    shared.player = crate::tags::player_from_tags(&shared.tags);
    let text = export_saved(&shared).unwrap();
    for tag in [
        "[White \"Banco level 3\"]",
        "[Black \"An\"]",
        "[Human \"Black\"]",
        "[Level \"3\"]",
    ] {
        assert!(text.contains(tag), "{tag} in {text}");
    }
    assert_eq!(text.matches("[Human ").count(), 1, "{text}");
    let back = import_saved(&text).unwrap();
    let me = Some(crate::save::Player { color: 1, level: 3 });
    assert_eq!(back.player, me);
    assert_eq!(export_saved(&back).unwrap(), text, "written again the same");
    let older = "[Event \"Banco game\"]\n[Date \"2026.12.06\"]\n[White \"An\"]\n\
                 [Black \"Banco (level 3)\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 *\n";
    let back = import_saved(older).unwrap();
    assert_eq!(
        back.player,
        Some(crate::save::Player { color: 0, level: 3 })
    );
    let again = export_saved(&back).unwrap();
    assert!(
        again.contains("[White \"An\"]") && again.contains("[Level \"3\"]"),
        "{again}"
    );
}

#[test]
fn a_mate_sets_the_result() {
    let mut g =
        AnyGame::from_fen(GameKind::Xiangqi, "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1").unwrap();
    let mv = parse_move(&g, "e1d1", None).unwrap();
    g.play(mv).unwrap();
    let text = export(&g, &Headers::default()).unwrap();
    assert!(text.contains("[Result \"1-0\"]"));
    assert!(text.contains("[FEN \"3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1\"]"));
    assert!(text.trim_end().ends_with("1. E1-D1 1-0"), "{text}");
}

/// A result the moves contradict is not believed: the mate's result is kept, with a note
/// (the record's 1/2-1/2 used to be listed, and exported as 0-1).
#[test]
fn a_result_the_moves_contradict_is_noted_and_the_moves_win() {
    let g = import("[Result \"1/2-1/2\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n").unwrap();
    assert_eq!(g.result, PgnResult::SecondWins);
    assert_eq!(
        g.notes,
        ["the record says 1/2-1/2, but the moves end the game 0-1 (checkmate): 0-1 kept"]
    );
    // `*` after a mate is the mate's result, without a note.
    let g = import("1. f3 e5 2. g4 Qh4# *\n").unwrap();
    assert_eq!((g.result, g.notes.len()), (PgnResult::SecondWins, 0));
    // A result the moves do not show (a resignation) stays the record's.
    let g = import("[Result \"1-0\"]\n\n1. e4 e5 1-0\n").unwrap();
    assert_eq!((g.result, g.notes.len()), (PgnResult::FirstWins, 0));
}

proptest! {
    #![proptest_config(banco_game::testing::proptest_config(Some(48), 0x189))]

    #[test]
    fn random_games_round_trip(seed in any::<u64>(), plies in 0usize..80, chess in any::<bool>()) {
        let kind = if chess { GameKind::Chess } else { GameKind::Xiangqi };
        let g = random_game(kind, seed, plies);
        let text = export(&g, &Headers::default()).unwrap();
        let back = import(&text).unwrap();
        prop_assert_eq!(back.kind, kind);
        prop_assert_eq!(&back.moves, &g.history());
        prop_assert_eq!(back.result, PgnResult::of(g.outcome(&AnyRules::usual(kind))));
    }

    #[test]
    fn random_text_never_panics(text in "(\\[[A-Za-z]{0,6} \"[^\"]{0,10}\"\\]\n){0,3}[ -~{}();$.*0-9a-hKQRBNOx+#=!?-]{0,120}") {
        let _ = import(&text);
        let _ = import_all(&text);
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = import(&String::from_utf8_lossy(&bytes));
    }
}

/// A jieqi game has no PGN form any reader takes (Banco's refuses jieqi PGN): writing one
/// is refused with a reason, not written as a file that cannot be read back.
#[test]
fn a_jieqi_game_is_not_written_as_pgn() {
    let mut game = AnyGame::new(GameKind::Jieqi).unwrap();
    let step = game.move_from_parts(25, 22, None).unwrap(); // h2e2
    game.play(step).unwrap();
    let reveal = crate::jieqi::RevealDraw::seeded(1).draw(&game).unwrap();
    game.play(reveal).unwrap();
    let no_pgn = crate::save::SaveError::NoPgn("jieqi".to_owned());
    assert_eq!(export(&game, &Headers::default()), Err(no_pgn));
    let saved = SavedGame::of(&game, AnyRules::usual(GameKind::Jieqi));
    let err = export_saved(&saved).unwrap_err();
    assert_eq!(err, crate::save::SaveError::NoPgn("jieqi".to_owned()));
    assert!(err.to_string().contains(".txt"), "{err}");
}

#[test]
fn files_as_other_programs_write_them() {
    // A byte-order mark, CRLF line ends, a comment over lines with a line that starts
    // with `[` (wrapped [%clk …] commands), `e.p.` written apart, and a time forfeit.
    let text = "\u{feff}[Event \"x\"]\r\n[Result \"0-1\"]\r\n[Termination \"Time forfeit\"]\r\n\r\n\
        1. e4 a6 2. e5 d5 3. exd6 e.p. {A long comment\r\n[%clk 0:01:00] inside} Qxd6 0-1\r\n";
    let games = import_all(text);
    assert_eq!(games.len(), 1, "{games:?}");
    let g = games[0].as_ref().unwrap();
    assert_eq!(g.tag("Event"), Some("x"));
    assert_eq!(g.moves.len(), 6);
    assert_eq!(g.comments.len(), 1);
    assert!(
        g.comments[0].1.contains("[%clk 0:01:00]"),
        "{:?}",
        g.comments
    );
    let saved = g.to_saved().unwrap();
    assert_eq!(
        saved.ending,
        Some(Outcome::Win {
            winner: banco_game::Color::Black,
            reason: banco_game::WinReason::Timeout
        })
    );
    // The next game still starts at its tags.
    let two = format!("{text}\n[Event \"y\"]\n\n1. d4 *\n");
    let games = import_all(&two);
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("y"));
}

#[test]
fn other_chess_variants_are_refused() {
    for variant in ["King of the Hill", "Atomic", "Crazyhouse", "Three-check"] {
        let text = format!("[Variant \"{variant}\"]\n\n1. e4 e5 *\n");
        assert!(
            matches!(import(&text), Err(PgnError::UnsupportedGame(_))),
            "{variant}"
        );
    }
    for variant in ["Standard", "From Position", "Chess960"] {
        let text = format!("[Variant \"{variant}\"]\n\n1. e4 e5 *\n");
        assert_eq!(import(&text).unwrap().kind, GameKind::Chess, "{variant}");
    }
}

#[test]
fn an_imported_termination_is_written_back_as_it_was() {
    // Other programs' words survive PGN → save → PGN (and → .txt); a `Normal` decisive
    // result without mate is a result of unknown reason, not a resignation.
    let head = "[Event \"x\"]\n[White \"A\"]\n[Black \"B\"]\n";
    for (theirs, result, reason) in [
        ("Normal", "1-0", WinReason::Unknown),
        ("Time forfeit", "0-1", WinReason::Timeout),
        ("Abandoned", "1-0", WinReason::Forfeit),
    ] {
        let text = format!(
            "{head}[Result \"{result}\"]\n[Termination \"{theirs}\"]\n\n1. e4 e5 {result}\n"
        );
        let saved = import_saved(&text).unwrap();
        let o = saved.ending.unwrap();
        assert_eq!(o.score_text(), result);
        assert_eq!(
            o,
            Outcome::Win {
                winner: o.winner().unwrap(),
                reason
            },
            "{theirs}"
        );
        let bytes = saved.encode().unwrap();
        let back = SavedGame::decode(&bytes).unwrap();
        for written in [
            export_saved(&back).unwrap(),
            crate::text::export(&back).unwrap(),
        ] {
            assert_eq!(written.matches("[Termination ").count(), 1, "{written}");
            assert!(
                written.contains(&format!("[Termination \"{theirs}\"]")),
                "{written}"
            );
            assert!(
                written.contains(&format!("[Result \"{result}\"]")),
                "{written}"
            );
        }
        let again = import_saved(&export_saved(&back).unwrap()).unwrap();
        assert_eq!(again.ending, Some(o));
    }
}

#[test]
fn banco_writes_the_standards_termination_and_reads_back_its_own_reason() {
    let g = random_game(GameKind::Chess, 3, 6);
    let mut saved = SavedGame::of(&g, AnyRules::usual(GameKind::Chess));
    for (reason, word) in [
        (WinReason::Resignation, "normal"),
        (WinReason::Timeout, "time forfeit"),
        (WinReason::Forfeit, "rules infraction"),
    ] {
        let o = Outcome::Win {
            winner: banco_game::Color::Black,
            reason,
        };
        saved.ending = Some(o);
        let text = export_saved(&saved).unwrap();
        assert!(
            text.contains(&format!("[Termination \"{word}\"]")),
            "{text}"
        );
        assert!(
            text.contains(&format!("[Reason \"{}\"]", reason.text())),
            "{text}"
        );
        assert_eq!(import_saved(&text).unwrap().ending, Some(o));
        let txt = crate::text::export(&saved).unwrap();
        assert!(txt.contains(&format!("[Termination \"{word}\"]")), "{txt}");
        assert_eq!(crate::text::import(&txt).unwrap().ending, Some(o));
    }
}
