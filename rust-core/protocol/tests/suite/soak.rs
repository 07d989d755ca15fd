//! Soak runs in the test suite: whole games through the fault-injecting simulator.
//! The long run is `banco soak --games N --seed S`.

use banco_game::GameKind;
use banco_protocol::Timing;
use banco_protocol::sim::{
    CountingGame, FaultPlan, SoakConfig, SoakReport, game_seeds, play_game, random_move, run_soak,
    run_soak_custom, run_soak_with,
};
use banco_xiangqi::Xiangqi;

#[test]
fn counting_games_on_a_rough_link() {
    let report = run_soak(1000, 2026);
    println!("{report}  ({report:?})");
    assert!(report.is_clean(), "{report}");
    assert_eq!(report.games, 1000);
    assert!(
        report.disconnects > 50,
        "the plan should cut links: {report:?}"
    );
    assert!(
        report.undos > 10,
        "undo requests should be accepted sometimes: {report:?}"
    );
    assert!(
        report.timeouts > 0,
        "clocks should flag sometimes: {report:?}"
    );
    assert!(
        report.agreed_draws > 0,
        "draws should be agreed sometimes: {report:?}"
    );
    assert!(
        report.resignations > 0,
        "resignations should happen: {report:?}"
    );
}

#[test]
fn counting_games_on_a_very_bad_link() {
    let faults = FaultPlan {
        drop: 200,
        duplicate: 100,
        reorder: 200,
        latency_ms: 80,
        reorder_ms: 800,
        disconnect: 20,
    };
    let config = SoakConfig {
        faults,
        ..SoakConfig::new(200, 99)
    };
    let report = run_soak_with::<CountingGame>(&config);
    println!(
        "{report}  (moves {}, disconnects {}, frames {})",
        report.moves, report.disconnects, report.frames
    );
    assert!(report.is_clean(), "{report}");
}

#[test]
fn a_flag_judged_across_an_accepted_undo_ends_both_sides_alike() {
    // Found by the very bad link once its channel kept frames in order: the peer asks to
    // undo its move, we accept (back to its turn), and its flag for us falls in the
    // position before the undo while our acceptance is on its way. The forfeit names the
    // position we took back: we must go forward to it and lose on time, not abandon.
    // The seed was found with every message acknowledged at once; a delayed
    // acknowledgement shifts the measured round trip and with it the flag. Any change of
    // the link's timing moves the game elsewhere: the seed was found again when the
    // reliable stream began to retransmit on repeated acknowledgements (its trace, with
    // BANCO_SIM_TRACE=1: Black asks to undo its move, Red accepts; Black's flag for Red
    // falls in the position before the undo; Red goes forward to it and loses on time).
    let config = SoakConfig {
        timing: Timing {
            ack_delay_ms: 0,
            ..Timing::default()
        },
        faults: FaultPlan {
            drop: 200,
            duplicate: 100,
            reorder: 200,
            latency_ms: 80,
            reorder_ms: 800,
            disconnect: 20,
        },
        ..SoakConfig::new(1, 99)
    };
    let report = play_game::<CountingGame>(
        &config,
        6_405_833_616_277_813_432,
        &mut random_move::<CountingGame>,
    );
    assert!(report.is_clean(), "{report:?}");
    assert_eq!((report.undos, report.timeouts), (2, 1), "{report:?}");
}

#[test]
fn xiangqi_random_games_on_a_rough_link() {
    let config = SoakConfig {
        max_plies: 160,
        ..SoakConfig::new(150, 7)
    };
    let report = run_soak_with::<Xiangqi>(&config);
    println!(
        "{report}  (moves {}, disconnects {}, frames {}, undos {})",
        report.moves, report.disconnects, report.frames, report.undos
    );
    assert!(report.is_clean(), "{report}");
    assert!(report.moves > 150 * 50, "games should be long: {report:?}");
}

/// Jieqi itself (not the card game that stands in for it in `fairdraw`): reveals drawn
/// fairly by both sides, mates by a revealed piece, undo across reveals and jieqi's
/// repetition endings, all through cuts, drops and reordering.
#[test]
fn jieqi_random_games_on_a_rough_link() {
    let config = SoakConfig {
        game: GameKind::Jieqi,
        max_plies: 160,
        ..SoakConfig::new(60, 13)
    };
    let report = run_soak_with::<banco_xiangqi::jieqi::Jieqi>(&config);
    println!(
        "{report}  (moves {}, disconnects {}, frames {}, undos {})",
        report.moves, report.disconnects, report.frames, report.undos
    );
    assert!(report.is_clean(), "{report}");
    assert_eq!(report.games, 60);
    assert!(report.moves > 60 * 40, "games should be long: {report:?}");
    assert!(report.disconnects > 0, "the faults cut links: {report:?}");
}

#[test]
fn same_seed_same_report() {
    assert_eq!(run_soak(20, 5), run_soak(20, 5));
}

#[test]
fn a_custom_move_chooser_plays_every_move() {
    // A greedy player (always the largest step) instead of random moves.
    let mut greedy =
        |g: &CountingGame, _: u64| (1..=3u8).rev().find(|m| banco_game::Game::is_legal(g, *m));
    let config = SoakConfig::new(50, 11);
    let report = run_soak_custom(&config, &mut greedy);
    assert!(report.is_clean(), "{report}");
}

#[test]
fn a_perfect_link_never_disconnects() {
    let config = SoakConfig {
        faults: FaultPlan::NONE,
        ..SoakConfig::new(50, 3)
    };
    let report = run_soak_with::<CountingGame>(&config);
    assert!(report.is_clean(), "{report}");
    assert_eq!(report.disconnects, 0);
}

#[test]
fn claimed_draws_on_a_rough_link() {
    // Rule set 1 of the counting game lets the side to move claim a draw on every ten.
    let config = SoakConfig {
        rules: 1,
        ..SoakConfig::new(300, 12)
    };
    let report = run_soak_with::<CountingGame>(&config);
    println!("{report}  ({report:?})");
    assert!(report.is_clean(), "{report}");
    assert!(
        report.claimed_draws > 10,
        "claims should happen: {report:?}"
    );
}

#[test]
fn the_counting_game_as_chess() {
    // The same soak through the second kind a session type can be.
    let config = SoakConfig {
        game: GameKind::Chess,
        ..SoakConfig::new(100, 13)
    };
    let report = run_soak_with::<CountingGame>(&config);
    assert!(report.is_clean(), "{report}");
    assert!(report.moves > 100 * 10, "{report:?}");
}

/// The full soak of the issue (10,000 games each); run with `--ignored`.
#[test]
#[ignore = "long: about a minute; run by tests/nightly.sh ignored"]
fn full_soak() {
    let report = run_soak(10_000, 1);
    println!("counting: {report}");
    assert!(report.is_clean(), "{report}");
    let config = SoakConfig {
        max_plies: 200,
        ..SoakConfig::new(10_000, 1)
    };
    let report = run_soak_with::<Xiangqi>(&config);
    println!("xiangqi: {report}");
    assert!(report.is_clean(), "{report}");
}

#[test]
fn xiangqi_games_with_an_undo_request_across_a_voided_draw_end_alike() {
    // `banco soak --game xiangqi --seed 20261202`, games 4490 and 6943: black's undo request
    // was dropped when it accepted a draw that red's crossing move voided; black moved on
    // and red's acceptance of the undo left the two sides in different positions (one
    // refused move, then a stall until the game's deadline).
    let config = SoakConfig::new(1, 20_261_202);
    for seed in [5_194_642_390_735_515_776, 12_023_532_367_173_450_264] {
        let report = play_game::<Xiangqi>(&config, seed, &mut random_move::<Xiangqi>);
        assert!(report.is_clean(), "{seed}: {report:?}");
    }
}

#[test]
fn xiangqi_games_with_flags_across_an_accepted_undo_end_alike() {
    // `banco soak --game xiangqi`: the peer that asked to undo and the one that accepted
    // both ended the game on time while the acceptance (or the move after it) was on its
    // way. Seed 20261204 game 3213: the asker's own flag two plies ahead, the accepter's
    // in the undo's position (same result, different records). Seed 1 game 6935 (after a
    // first mend): the asker flagged the accepter, the accepter the asker, and each took
    // the other's end (results swapped). Seed 1 game 4947 and seed 20261202 game 8454: the
    // asker saw the acceptance and moved on (or the accepter moved after its own undo was
    // accepted), and an end named in that new position was taken for the position the
    // undo had left. Seed 30006 game 4017 and seed 30010 game 4203: the accepter's move
    // crossed the request, the acceptance took back both moves, and the asker's flag fell
    // one ply before the position the acceptance went back from.
    let games = [
        (20_261_204, 12_349_618_088_409_972_676),
        (1, 10_493_950_778_536_994_712),
        (1, 17_735_943_242_769_460_479),
        (20_261_202, 17_126_733_113_414_906_507),
        (30_006, 7_754_205_884_710_199_700),
        (30_010, 4_983_730_652_416_980_923),
    ];
    for (run, seed) in games {
        let config = SoakConfig::new(1, run);
        let report = play_game::<Xiangqi>(&config, seed, &mut random_move::<Xiangqi>);
        assert!(report.is_clean(), "{seed}: {report:?}");
        assert_eq!(report.timeouts, 1, "{seed}: {report:?}");
    }
}

#[test]
fn xiangqi_games_with_draw_answers_across_an_accepted_undo_end_alike() {
    // `banco soak --game xiangqi --seed 30072`, game 1255: an answer to an older draw
    // offer, sent after the peer's move crossed it, was taken for the answer to the next
    // offer once an accepted undo had set the offerer back; the peer's acceptance of that
    // next offer was ignored, and the game stalled (over on one side only).
    // The older offer now ends with the move that crossed it (draws are offered after
    // one's own move), and the game goes on differently: its cleanness is left to check;
    // `hardening::an_answer_to_an_older_offer_...` keeps the sequence.
    let config = SoakConfig::new(1, 30_072);
    let seed = 15_096_454_253_088_274_303;
    let report = play_game::<Xiangqi>(&config, seed, &mut random_move::<Xiangqi>);
    assert!(report.is_clean(), "{seed}: {report:?}");
}

/// `banco soak --game xiangqi --games N --seed S` game by game, to find the games of a run
/// that went wrong: `BANCO_SOAK_GAMES` games (default 10,000) from `BANCO_SEED` (default
/// 1), starting at game `BANCO_SOAK_FIRST` (default 0); each unclean game is printed with
/// its number and seed, for a regression test built with [`play_game`].
#[test]
#[ignore = "long: 10,000 xiangqi soak games; run by tests/nightly.sh ignored, and by hand with BANCO_SEED/BANCO_SOAK_FIRST to replay a banco soak run"]
fn replay_a_xiangqi_soak() {
    let var = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (games, seed, first) = (
        var("BANCO_SOAK_GAMES", 10_000),
        var("BANCO_SEED", 1),
        var("BANCO_SOAK_FIRST", 0),
    );
    let config = SoakConfig::new(1, seed);
    let mut total = SoakReport::default();
    let seeds = game_seeds(seed).enumerate().skip(first as usize);
    for (i, game_seed) in seeds.take(games as usize) {
        let r = play_game::<Xiangqi>(&config, game_seed, &mut random_move::<Xiangqi>);
        if !r.is_clean() {
            println!("game {i} (seed {game_seed}): {r:?}");
        }
        total.add(&r);
    }
    println!("xiangqi: {total}");
    assert!(total.is_clean(), "{total}");
}
