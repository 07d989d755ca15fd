//! Rust-side tests of the exported surface: game flows, listeners, and the garbage test
//! that feeds nonsense to every entry point (none may panic; guarded ones never do).

use crate::*;
use std::sync::{Arc, Mutex};

/// A xiangqi square index from file and rank.
fn sq(file: u8, rank: u8) -> u8 {
    rank * 9 + file
}

fn mv(from: (u8, u8), to: (u8, u8)) -> Move {
    Move {
        from: sq(from.0, from.1),
        to: sq(to.0, to.1),
        promotion: None,
    }
}

fn text_of(p: &PlayedMove, n: Notation) -> String {
    p.texts
        .iter()
        .find(|t| t.notation == n)
        .map(|t| t.text.clone())
        .unwrap_or_default()
}

/// A game listener that keeps every event (also for the other test modules).
#[derive(Default)]
pub(crate) struct Recorder(pub(crate) Mutex<Vec<GameEvent>>);

impl GameListener for Recorder {
    fn on_event(&self, event: GameEvent) {
        self.0.lock().unwrap().push(event);
    }
}

#[test]
fn play_undo_redo_and_notations() {
    let game = Game::new(GameKind::Xiangqi).unwrap();
    let rec = Arc::new(Recorder::default());
    game.set_listener(Some(rec.clone())).unwrap();
    assert_eq!(game.legal_moves().unwrap().len(), 44);
    let p = game.play(mv((7, 2), (4, 2))).unwrap();
    assert_eq!(
        (p.ply, text_of(&p, Notation::Wxf).as_str(), p.text.as_str()),
        (1, "C2.5", "炮二平五")
    );
    assert_eq!(p.piece.unwrap().kind, PieceKind::Cannon);
    let p = game
        .play_text("马8进7".into(), Some(Notation::Chinese))
        .unwrap();
    assert_eq!(p.coordinate, "h9g7");
    let p = game.play_text("h0g2".into(), None).unwrap();
    assert_eq!(text_of(&p, Notation::Wxf), "H2+3");
    assert_eq!(
        game.history_text(Notation::Wxf).unwrap(),
        ["C2.5", "H8+7", "H2+3"]
    );
    assert_eq!(game.undo().unwrap(), Some(mv((7, 0), (6, 2))));
    assert!(game.status().unwrap().can_redo);
    assert_eq!(game.redo().unwrap().unwrap().coordinate, "h0g2");
    assert!(!game.status().unwrap().can_redo);
    assert_eq!(game.redo().unwrap(), None);
    let events = rec.0.lock().unwrap().clone();
    assert_eq!(events.len(), 5, "{events:?}");
    assert!(matches!(events[3], GameEvent::MoveUndone { ply: 2, .. }));
}

#[test]
fn errors_read_well() {
    let game = Game::new(GameKind::Xiangqi).unwrap();
    let e = game.play(mv((7, 2), (7, 8))).unwrap_err();
    assert_eq!(
        e.to_string(),
        "h2h8 is not a legal move here: the cannon's path is blocked by black's cannon on h7 (a cannon jumps only to capture)"
    );
    let e = game
        .play_text("C2*5".into(), Some(Notation::Wxf))
        .unwrap_err();
    assert!(matches!(e, BancoError::BadMoveText(_)), "{e}");
    let e = game
        .play_text("Nf3".into(), Some(Notation::San))
        .unwrap_err();
    assert_eq!(e.to_string(), "SAN notation is not used in xiangqi");
    // Lines is no board game of these calls: it has its own object.
    let lines = BancoError::InvalidArgument("Lines is played with LinesGame".into());
    assert_eq!(Game::new(GameKind::Lines).err(), Some(lines.clone()));
    // A free function names what to call instead (`tests_lines_kind`).
    assert_eq!(
        board_shape(GameKind::Lines).err(),
        Some(BancoError::InvalidArgument(
            "boardShape is for board games, not Lines: call linesBoardSize()".into()
        ))
    );
    let e = Game::from_fen(GameKind::Xiangqi, "4k4/9/9/9/9/9/9/9/9/4K4 w".into())
        .err()
        .unwrap();
    assert_eq!(
        e.to_string(),
        "illegal position: the two kings face each other on an open file"
    );
    let problems = validate_fen(GameKind::Xiangqi, "3k5/4A4/9/9/9/9/9/9/9/4k4 w".into());
    assert_eq!(problems.len(), 4, "{problems:?}");
    assert!(validate_fen(GameKind::Xiangqi, banco_xiangqi::fen::START_FEN.into()).is_empty());
}

#[test]
fn mate_ends_the_game() {
    let game = Game::from_fen(
        GameKind::Xiangqi,
        "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1".into(),
    )
    .unwrap();
    let rec = Arc::new(Recorder::default());
    game.set_listener(Some(rec.clone())).unwrap();
    game.play_text("R5=6".into(), Some(Notation::Wxf)).unwrap();
    let st = game.status().unwrap();
    assert_eq!(st.result, "1-0");
    assert_eq!(st.result_text, "1-0 checkmate");
    assert_eq!(
        st.outcome,
        Some(Outcome::Win {
            winner: Color::Red,
            reason: WinReason::Checkmate
        })
    );
    assert!(game.legal_moves().unwrap().is_empty());
    // Moves after the end are refused as such, not as illegal moves.
    let after = game.play(mv((3, 9), (4, 9))).unwrap_err();
    assert!(matches!(after, BancoError::GameOver(_)), "{after}");
    let e = game.undo().and_then(|_| game.redo()).unwrap();
    assert!(e.is_some());
    assert!(matches!(
        rec.0.lock().unwrap().last(),
        Some(GameEvent::GameOver { .. })
    ));
}

#[test]
fn save_and_load_round_trip() {
    let game = Game::new(GameKind::Xiangqi).unwrap();
    game.set_rules(Rules::Xiangqi {
        repetition: RepetitionRule::Casual,
        repetitions: 3,
        no_capture_plies: 60,
    })
    .unwrap();
    for m in ["h2e2", "h9g7", "h0g2", "i9h9"] {
        game.play_text(m.into(), Some(Notation::Coordinate))
            .unwrap();
    }
    let bytes = game.save().unwrap();
    let back = Game::load(bytes.clone()).unwrap();
    assert_eq!(back.fen().unwrap(), game.fen().unwrap());
    assert_eq!(back.history().unwrap(), game.history().unwrap());
    assert_eq!(back.rules().unwrap(), game.rules().unwrap());
    // A move changed into an illegal one (and the checksum written again, as a forger
    // would) is refused with its number.
    let mut record = banco_app::save::SavedGame::decode(&bytes).unwrap();
    record.moves[3] = 1; // i9h9 → code 1 (a0 to b0): not legal
    let forged = record.encode().unwrap();
    let e = Game::load(forged).err().unwrap();
    assert_eq!(
        e.to_string(),
        "this saved game cannot be loaded: move 4 is not legal in its position"
    );
}

/// Strings a fuzzer would try: empty, huge, control characters, odd Unicode, near misses.
fn garbage_strings() -> Vec<String> {
    let mut v: Vec<String> = [
        "",
        " ",
        "\0",
        "h2",
        "h2e2e2",
        "z9z9",
        "C2=",
        "C2=0",
        "C0=5",
        "C2=99",
        "+-=",
        "13=2",
        "炮",
        "炮二平",
        "炮十平五",
        "前前炮平五",
        "🐉🐉🐉🐉",
        "h2\u{301}e2",
        "\u{feff}h2e2",
        "9/9/9",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
        "kkkkkkkkk/9/9/9/9/9/9/9/9/KKKKKKKKK w - - -1 0",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 99999999999 1",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    v.push("x".repeat(100_000));
    v.push("/".repeat(1000));
    v.push("1".repeat(500));
    v
}

fn garbage_squares() -> Vec<u8> {
    vec![0, 89, 90, 99, 255, 200]
}

fn garbage_bytes() -> Vec<Vec<u8>> {
    let good = Game::new(GameKind::Xiangqi).unwrap().save().unwrap();
    let mut v = vec![
        vec![],
        vec![0; 3],
        b"BNCO".to_vec(),
        b"\x89BANCO\r\n".to_vec(),
        b"\x89BANCO\r\n\x09".to_vec(),
        vec![0xff; 64],
        b"BNCO\x01\x00\x00\x03\x78\x00\xff\xff".to_vec(),
        b"BNCO\x01\x00\x00\x03\x78\x00\x03\x00abc\x00\x00".to_vec(),
        b"BNCO\x01\x00\x00\x03\x78\x00\x02\x00\xff\xfe\x00\x00".to_vec(),
    ];
    for i in 0..good.len() {
        let mut b = good.clone();
        b[i] ^= 0x5a;
        v.push(b);
    }
    let mut many = good;
    let n = many.len();
    many[n - 2] = 0xff;
    many[n - 1] = 0xff;
    v.push(many);
    v
}

#[test]
fn garbage_to_every_entry_point() {
    let game = Game::new(GameKind::Xiangqi).unwrap();
    let kinds = [
        GameKind::Xiangqi,
        GameKind::Jieqi,
        GameKind::Chess,
        GameKind::Lines,
    ];
    for k in kinds {
        let _ = Game::new(k);
        let _ = start_fen(k);
    }
    let all_notations = [
        None,
        Some(Notation::Coordinate),
        Some(Notation::Wxf),
        Some(Notation::Chinese),
        Some(Notation::San),
    ];
    for s in garbage_strings() {
        for k in kinds {
            assert!(Game::from_fen(k, s.clone()).is_err() || s.is_empty());
            let _ = validate_fen(k, s.clone());
            let _ = parse_square(k, s.clone());
        }
        for n in all_notations {
            assert!(game.play_text(s.clone(), n).is_err(), "{s:?} {n:?}");
            assert!(game.parse_move(s.clone(), n).is_err());
        }
    }
    for a in garbage_squares() {
        for k in kinds {
            let _ = square_name(k, a);
        }
        let _ = game.piece_at(a);
        let _ = game.legal_moves_from(a);
        for b in garbage_squares() {
            for promotion in [None, Some(PieceKind::Queen), Some(PieceKind::Cannon)] {
                let m = Move {
                    from: a,
                    to: b,
                    promotion,
                };
                let _ = game.is_legal(m);
                assert!(game.play(m).is_err());
                for n in [Notation::Coordinate, Notation::Wxf, Notation::Chinese] {
                    assert!(game.move_text(m, n).is_err());
                }
            }
        }
    }
    // A flipped byte may still make a valid record (another no-capture limit, another
    // legal move): each load must only end without a panic, and the structural damage
    // (first seven records, the last one) must be refused.
    for (i, b) in garbage_bytes().into_iter().enumerate() {
        let loaded = Game::load(b.clone());
        if i < 9 {
            assert!(loaded.is_err(), "{b:?}");
        }
        // A version byte past this build's (record 4, or a flipped version) is a newer
        // Banco's record, not damage.
        if let Err(e) = loaded {
            assert!(
                matches!(e, BancoError::BadSave(_) | BancoError::NewerSave(_)),
                "{e}"
            );
        }
    }
    assert!(game.restore(vec![1, 2, 3]).is_err());
    for r in [0u8, 1, 10, 255] {
        let rules = Rules::Xiangqi {
            repetition: RepetitionRule::Asian,
            repetitions: r,
            no_capture_plies: u16::MAX,
        };
        assert!(game.set_rules(rules).is_err());
    }
    // Undo past the start, redo with nothing to redo.
    for _ in 0..3 {
        assert_eq!(game.undo().unwrap(), None);
        assert_eq!(game.redo().unwrap(), None);
    }
    // The game is untouched by all of that.
    assert_eq!(game.fen().unwrap(), banco_xiangqi::fen::START_FEN);
    assert_eq!(game.status().unwrap().ply, 0);
    let _ = (game.kind(), game.pieces(), game.start_fen(), game.copy());
    let _ = (
        game.history(),
        game.save(),
        default_rules(GameKind::Xiangqi),
        banco_version(),
    );
    assert_eq!(
        default_rules(GameKind::Lines),
        None,
        "Lines has no board-game rules"
    );
    assert!(default_rules(GameKind::Chess).is_some());
    game.set_listener(None).unwrap();
}

struct NullEngineListener;

impl EngineListener for NullEngineListener {
    fn on_progress(&self, _report: SearchReport) {}
    fn on_result(&self, _report: SearchReport) {}
    fn on_puzzle_solved(&self, _solution: PuzzleSolution) {}
    fn on_failed(&self, _search_id: u64, _message: String) {}
}

struct NullMatchListener;

impl MatchListener for NullMatchListener {
    fn on_event(&self, _event: MatchEvent) {}
}

#[test]
fn garbage_to_engine_and_match_entry_points() {
    for mib in [0, 257, 1024, u32::MAX] {
        assert!(matches!(
            Engine::new(mib),
            Err(BancoError::InvalidArgument(m)) if m.contains("out of range (1 to 256")
        ));
    }
    // The largest table a phone can spare is taken (the constructor allocates none).
    assert!(Engine::new(crate::engine::MAX_HASH_MIB).is_ok());
    let engine = Engine::new(1).unwrap();
    // Threads: the device's recommendation by default, 1–64 accepted.
    let recommended = crate::engine::recommended_threads();
    assert!((1..=4).contains(&recommended));
    assert_eq!(engine.threads().unwrap(), recommended);
    for threads in [0, 65, u32::MAX] {
        assert!(matches!(
            engine.set_threads(threads),
            Err(BancoError::InvalidArgument(_))
        ));
    }
    engine.set_threads(2).unwrap();
    assert_eq!(engine.threads().unwrap(), 2);
    let game = Game::new(GameKind::Xiangqi).unwrap();
    let l: Arc<dyn EngineListener> = Arc::new(NullEngineListener);
    for level in [0, 11, 255] {
        assert!(engine.best_move(game.clone(), level, l.clone()).is_err());
        assert!(engine.think(game.clone(), level, 10).is_err());
    }
    for ms in [0, u64::MAX] {
        assert!(engine.best_move_timed(game.clone(), ms, l.clone()).is_err());
        assert!(engine.hint(game.clone(), ms, l.clone()).is_err());
        assert!(engine.solve_puzzle(game.clone(), 3, ms, l.clone()).is_err());
    }
    for moves in [0, 61, u32::MAX] {
        assert!(
            engine
                .solve_puzzle(game.clone(), moves, 10, l.clone())
                .is_err()
        );
    }
    engine.stop().unwrap();
    assert!(!engine.is_searching().unwrap());
    let mate = Game::from_fen(
        GameKind::Xiangqi,
        "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1".into(),
    )
    .unwrap();
    let r = engine.think(mate, 10, 1000).unwrap();
    assert_eq!(r.best_move.unwrap().coordinate, "e1d1");
    assert_eq!(r.score, EngineScore::Mate { moves: 1 });

    let ml: Arc<dyn MatchListener> = Arc::new(NullMatchListener);
    for addr in ["", "x", "999.1.1.1:1", "127.0.0.1:99999", "[::1", "0.0.0.0"] {
        let r = Match::host(
            "An".into(),
            addr.into(),
            false,
            vec![GameKind::Chess],
            Some(MatchOffer {
                game: GameKind::Chess,
                your_color: Color::Red,
                rules: None,
                start_fen: None,
                clock: None,
                race: None,
            }),
            ml.clone(),
            None,
        );
        assert!(r.is_err(), "{addr}");
    }
    // An empty name is refused; a long one is cut as every peer's is (not a failure).
    for name in ["", "  "] {
        assert!(Match::join(name.into(), "127.0.0.1:1".into(), ml.clone(), None).is_err());
    }
    let nowhere = LobbyPeer {
        id: "id".into(),
        name: "Nobody".into(),
        games: vec![GameKind::Xiangqi],
        protocol_version: None,
        fingerprint: String::new(),
        host: "h".into(),
        port: 1,
        addresses: vec!["not an address".into()],
    };
    assert!(matches!(
        Match::join_peer("An".into(), nowhere, ml.clone(), None),
        Err(BancoError::Network(_))
    ));
    // Rules of another game, or custom rules, cannot be proposed.
    let offer = MatchOffer {
        game: GameKind::Chess,
        your_color: Color::Red,
        rules: default_rules(GameKind::Xiangqi),
        start_fen: None,
        clock: None,
        race: None,
    };
    assert!(matches!(
        Match::host(
            "An".into(),
            "127.0.0.1:0".into(),
            false,
            vec![],
            Some(offer.clone()),
            ml.clone(),
            None,
        ),
        Err(BancoError::InvalidArgument(_))
    ));
    // A race offer is a Lines game with nothing else: another game, or a clock, refused.
    let race = Some(RaceSettings {
        start_balls: 5,
        time_limit_s: 60,
        preview: true,
    });
    // A host on loopback, not advertised, proposing `offer`.
    let host_offering = |offer: MatchOffer| {
        Match::host(
            "An".into(),
            "127.0.0.1:0".into(),
            false,
            vec![],
            Some(offer),
            ml.clone(),
            None,
        )
    };
    for bad in [
        MatchOffer {
            race,
            rules: None,
            ..offer.clone()
        },
        MatchOffer {
            game: GameKind::Lines,
            rules: None,
            race,
            clock: Some(crate::net::MatchClock {
                base_ms: 60_000,
                increment_ms: 0,
            }),
            ..offer.clone()
        },
    ] {
        let host = host_offering(bad);
        assert!(matches!(host, Err(BancoError::InvalidArgument(_))));
    }
    let lines_race = MatchOffer {
        game: GameKind::Lines,
        rules: None,
        race,
        ..offer.clone()
    };
    let host = host_offering(lines_race.clone()).unwrap();
    assert!(matches!(
        host.propose(MatchOffer {
            game: GameKind::Chess,
            ..lines_race
        }),
        Err(BancoError::InvalidArgument(_))
    ));
    host.leave().unwrap();
    // Stored trust that is not Banco's is refused, a new one is accepted.
    assert!(matches!(
        Match::join(
            "An".into(),
            "127.0.0.1:1".into(),
            ml.clone(),
            Some(b"junk".to_vec())
        ),
        Err(BancoError::InvalidArgument(_))
    ));
    let trust = crate::new_trust().unwrap();
    assert_eq!(crate::trust_fingerprint(trust.clone()).unwrap().len(), 19);
    assert!(crate::trust_fingerprint(b"junk".to_vec()).is_err());
    let m = Match::host(
        "An".into(),
        "127.0.0.1:0".into(),
        false,
        vec![],
        None,
        ml,
        Some(trust.clone()),
    )
    .unwrap();
    assert_eq!(
        m.export_trust().unwrap(),
        trust,
        "nobody confirmed: the same bytes"
    );
    assert!(
        m.confirm_code("123456".into()).is_err(),
        "no code to confirm yet"
    );
    m.leave().unwrap();
}

pub(crate) struct States(pub(crate) Mutex<std::sync::mpsc::Sender<VsState>>);

impl VsListener for States {
    fn on_state(&self, state: VsState) {
        let _ = self.0.lock().unwrap().send(state);
    }
}

fn vs_settings(kind: GameKind, human: Color, level: u8) -> VsSettings {
    VsSettings {
        kind,
        human,
        level,
        rules: None,
        movetime_ms: 50,
        fen: None,
        chance_seed: None,
    }
}

/// Waits for a state that satisfies `want`.
pub(crate) fn wait_for(
    rx: &std::sync::mpsc::Receiver<VsState>,
    want: impl Fn(&VsState) -> bool,
) -> VsState {
    loop {
        let s = rx
            .recv_timeout(std::time::Duration::from_secs(30))
            .expect("a state within 30 s");
        if want(&s) {
            return s;
        }
    }
}

#[test]
fn a_game_against_the_computer_through_the_boundary() {
    let (tx, rx) = std::sync::mpsc::channel();
    let vs = VsComputer::new(
        vs_settings(GameKind::Xiangqi, Color::Red, 1),
        Arc::new(States(Mutex::new(tx))),
    )
    .unwrap();
    let first = wait_for(&rx, |s| s.your_turn);
    assert_eq!(first.board.cells.len(), 90);
    assert_eq!((first.board.width, first.board.height), (9, 10));
    // The river runs below the fifth row from the top (where the shells write 楚河 漢界).
    assert_eq!(first.board.river_after_row, Some(4));
    // Tap the cannon on h2 (column 7, row 7 from the top), then e2.
    assert_eq!(vs.tap(7, 7).unwrap(), TapResult::Selected { square: 25 });
    assert_eq!(vs.legal_moves_from(25).unwrap().len(), 12);
    assert!(matches!(vs.tap(4, 7).unwrap(), TapResult::Moved { .. }));
    let answered = wait_for(&rx, |s| s.moves.len() == 2 && s.your_turn);
    assert_eq!(answered.moves[0], "炮二平五");
    assert!(answered.last_move.is_some());
    vs.undo().unwrap();
    let undone = wait_for(&rx, |s| s.moves.is_empty());
    assert!(undone.can_redo && !undone.can_undo);
    assert!(matches!(
        vs.set_level(11),
        Err(BancoError::InvalidArgument(_))
    ));
    let saved = vs.save().unwrap();
    vs.end().unwrap();
    assert!(vs.undo().is_err());
    let (tx, rx) = std::sync::mpsc::channel();
    let again = VsComputer::resume(
        saved,
        vs_settings(GameKind::Xiangqi, Color::Black, 5),
        Arc::new(States(Mutex::new(tx))),
    )
    .unwrap();
    let s = wait_for(&rx, |_| true);
    assert_eq!((s.human, s.level, s.can_redo), (Color::Red, 1, true));
    again.end().unwrap();
}

#[test]
fn a_puzzle_through_the_boundary() {
    let puzzle = builtin_puzzles().into_iter().next().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let vs = VsComputer::puzzle(puzzle, 100, Arc::new(States(Mutex::new(tx)))).unwrap();
    vs.play_text("e1d1".into()).unwrap();
    let s = wait_for(&rx, |s| s.outcome.is_some());
    assert!(s.puzzle.unwrap().solved);
    assert_eq!(s.result.as_deref(), Some("You won: checkmate"));
    assert!(vs.hint().is_err());
}

#[test]
fn a_proposal_shows_its_clock() {
    use crate::net::MatchClock;
    let view = banco_app::network::ProposalView {
        id: 1,
        game: banco_game::GameKind::Chess,
        your_color: banco_game::Color::Black,
        rules: 0,
        start_fen: None,
        clock: Some(banco_app::network::ClockSpec {
            base_ms: 60_000,
            increment_ms: 1_000,
        }),
        race: None,
    };
    let offer = crate::net::offer_of(&view);
    assert_eq!(
        offer.clock,
        Some(MatchClock {
            base_ms: 60_000,
            increment_ms: 1_000
        })
    );
    let back: banco_app::network::ClockSpec = MatchClock {
        base_ms: 10_000,
        increment_ms: 0,
    }
    .into();
    assert_eq!(back.base_ms, 10_000);
}

/// A listener that calls its engine back from the engine's own thread: stop and a blocking
/// search from a progress report, clear and a new search from the result.
struct Reentrant {
    engine: Mutex<Option<Arc<Engine>>>,
    game: Arc<Game>,
    results: std::sync::mpsc::Sender<Result<(), String>>,
    again: std::sync::atomic::AtomicBool,
}

impl EngineListener for Reentrant {
    fn on_progress(&self, _report: SearchReport) {
        let e = self.engine.lock().unwrap().clone().unwrap();
        e.stop().unwrap();
        // Waits for nothing and refuses, instead of waiting for itself.
        assert!(matches!(
            e.think(self.game.clone(), 1, 10),
            Err(BancoError::NotAvailable(_))
        ));
        // The thread count is answered at once; changing it is refused, not waited for.
        assert!(e.threads().unwrap() >= 1);
        assert!(matches!(e.set_threads(2), Err(BancoError::NotAvailable(_))));
    }
    fn on_result(&self, _report: SearchReport) {
        let e = self.engine.lock().unwrap().clone().unwrap();
        let r = e.clear().map_err(|x| x.to_string());
        if !self.again.swap(true, std::sync::atomic::Ordering::SeqCst) {
            // A new search started from the result of the previous one.
            let me: Arc<dyn EngineListener> = Arc::new(NullEngineListener);
            let _ = e.best_move(self.game.clone(), 1, me).unwrap();
        }
        let _ = self.results.send(r);
    }
    fn on_puzzle_solved(&self, _solution: PuzzleSolution) {}
    fn on_failed(&self, _search_id: u64, _message: String) {}
}

#[test]
fn engine_listeners_may_call_the_engine_back_from_its_thread() {
    let engine = Engine::new(1).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let game = Game::new(GameKind::Xiangqi).unwrap();
    let l = Arc::new(Reentrant {
        engine: Mutex::new(Some(engine.clone())),
        game: game.clone(),
        results: tx,
        again: std::sync::atomic::AtomicBool::new(false),
    });
    engine.best_move_timed(game, 200, l.clone()).unwrap();
    let r = rx
        .recv_timeout(std::time::Duration::from_secs(20))
        .expect("the result, without a deadlock");
    assert_eq!(r, Ok(()));
    *l.engine.lock().unwrap() = None;
    drop(engine);
}

/// Tries to change the thread count, clear the tables and think from inside the search;
/// reports whether the result came stopped.
struct ChangesThreads {
    engine: Mutex<Option<Arc<Engine>>>,
    game: Arc<Game>,
    refused: std::sync::atomic::AtomicBool,
    results: std::sync::mpsc::Sender<bool>,
}

impl EngineListener for ChangesThreads {
    fn on_progress(&self, _report: SearchReport) {
        let e = self.engine.lock().unwrap().clone().unwrap();
        // `think` used to stop the running search before refusing.
        let refused = matches!(e.set_threads(2), Err(BancoError::NotAvailable(_)))
            && matches!(e.clear(), Err(BancoError::NotAvailable(_)))
            && matches!(
                e.think(self.game.clone(), 1, 10),
                Err(BancoError::NotAvailable(_))
            );
        self.refused
            .store(refused, std::sync::atomic::Ordering::SeqCst);
    }
    fn on_result(&self, report: SearchReport) {
        let _ = self.results.send(report.stopped);
    }
    fn on_puzzle_solved(&self, _solution: PuzzleSolution) {}
    fn on_failed(&self, _search_id: u64, _message: String) {}
}

#[test]
fn a_refused_call_from_a_listener_does_not_stop_the_search() {
    let engine = Engine::new(1).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let game = Game::new(GameKind::Xiangqi).unwrap();
    let l = Arc::new(ChangesThreads {
        engine: Mutex::new(Some(engine.clone())),
        game: game.clone(),
        refused: std::sync::atomic::AtomicBool::new(false),
        results: tx,
    });
    engine.best_move_timed(game, 300, l.clone()).unwrap();
    let stopped = rx
        .recv_timeout(std::time::Duration::from_secs(20))
        .expect("the result");
    assert!(l.refused.load(std::sync::atomic::Ordering::SeqCst));
    assert!(!stopped, "the refused calls stopped the search");
    *l.engine.lock().unwrap() = None;
}

/// Counts the results it is given.
struct Counting(std::sync::mpsc::Sender<u64>);

impl EngineListener for Counting {
    fn on_progress(&self, _report: SearchReport) {}
    fn on_result(&self, report: SearchReport) {
        let _ = self.0.send(report.search_id);
    }
    fn on_puzzle_solved(&self, _solution: PuzzleSolution) {}
    fn on_failed(&self, search_id: u64, _message: String) {
        let _ = self.0.send(search_id);
    }
}

#[test]
fn searches_started_at_once_are_all_stopped_by_stop() {
    // Four threads start hour-long searches together: each stops the one before it, the
    // last is stopped by `stop`, every result arrives and the engine is free again.
    let engine = Engine::new(1).unwrap();
    let game = Game::new(GameKind::Xiangqi).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let starters: Vec<_> = (0..4)
        .map(|_| {
            let (engine, game, tx) = (engine.clone(), game.clone(), tx.clone());
            std::thread::spawn(move || {
                engine
                    .best_move_timed(game, 3_600_000, Arc::new(Counting(tx)))
                    .unwrap()
            })
        })
        .collect();
    let mut ids: Vec<u64> = starters.into_iter().map(|t| t.join().unwrap()).collect();
    engine.stop().unwrap();
    let mut got: Vec<u64> = (0..4)
        .map(|_| {
            rx.recv_timeout(std::time::Duration::from_secs(30))
                .expect("every search reports")
        })
        .collect();
    ids.sort_unstable();
    got.sort_unstable();
    assert_eq!(got, ids);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while engine.is_searching().unwrap() {
        assert!(std::time::Instant::now() < deadline, "a search still runs");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let report = engine.think(game, 1, 50).unwrap();
    assert!(report.best_move.is_some());
}

#[test]
fn clock_faces_cross_the_boundary_as_banco_app_makes_them() {
    use crate::clock::{ClockFaces, offer_clock_text};
    use crate::net::MatchClock;
    assert_eq!(
        offer_clock_text(Some(MatchClock {
            base_ms: 300_000,
            increment_ms: 3_000
        })),
        "5:00 + 3s"
    );
    assert_eq!(offer_clock_text(None), "untimed");
    // Black's view after red lost on time: red's clock shows 0, nothing runs.
    let app = banco_app::network::clock_faces([0, 61_500], None, banco_game::Color::Black);
    let faces = ClockFaces::from(&app);
    assert_eq!(
        (faces.you.text.as_str(), faces.opponent.text.as_str()),
        ("1:01", "0:00.0")
    );
    assert!(faces.opponent.low && !faces.you.low);
    assert_eq!(faces.opponent.remaining_ms, 0);
    assert!(!faces.you.running && !faces.opponent.running);
    assert_eq!(faces.next_change_ms, None);
}

#[test]
fn a_claimed_draw_ends_the_game_for_pgn_and_engine() {
    let game = Game::new(GameKind::Chess).unwrap();
    for m in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
        game.play_text(m.to_owned(), None).unwrap();
    }
    game.claim_draw().unwrap();
    let pgn = game.to_pgn(Vec::new()).unwrap();
    assert!(pgn.trim_end().ends_with("1/2-1/2"), "{pgn}");
    assert!(pgn.contains("[Result \"1/2-1/2\"]"), "{pgn}");
    let engine = Engine::new(1).unwrap();
    assert!(matches!(
        engine.think(game.clone(), 1, 50),
        Err(BancoError::GameOver(_))
    ));
    assert!(matches!(
        engine.best_move(game, 1, Arc::new(NullEngineListener)),
        Err(BancoError::GameOver(_))
    ));
}

#[test]
fn a_jieqi_game_has_no_pgn_and_says_so() {
    let game = Game::new(GameKind::Jieqi).unwrap();
    let err = game.to_pgn(Vec::new()).unwrap_err();
    assert!(matches!(err, BancoError::Unsupported(_)), "{err:?}");
    assert!(err.to_string().contains("jieqi"), "{err}");
}

#[test]
fn a_game_from_pgn_keeps_its_rules_and_ending_as_the_command_line_reads_them() {
    // A xiangqi game under casual rules that Black won by resignation.
    let pgn = "[Game \"Chinese Chess\"]\n[Rules \"casual\"]\n[Result \"0-1\"]\n\
               [Termination \"resignation\"]\n\n1. H2-E2 H9-G7 0-1\n";
    let game = Game::from_pgn(pgn.to_owned()).unwrap();
    assert!(
        matches!(
            game.rules().unwrap(),
            Rules::Xiangqi {
                repetition: RepetitionRule::Casual,
                ..
            }
        ),
        "{:?}",
        game.rules()
    );
    let status = game.status().unwrap();
    assert_eq!(
        status.outcome,
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Resignation
        })
    );
    assert_eq!(status.result, "0-1");
    // The same record as the command line's path reads it.
    let saved = banco_app::pgn::import_saved(pgn).unwrap();
    let via_save = Game::load(saved.encode().unwrap()).unwrap();
    assert_eq!(via_save.status().unwrap(), status);
    assert_eq!(via_save.rules().unwrap(), game.rules().unwrap());
}
