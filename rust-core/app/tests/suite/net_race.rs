//! Two `NetMatch`es race at Lines over loopback TCP: the host proposes the race, the guest
//! sees its options before accepting, both play at once, each sees the other's score and
//! ball count live from its replica, and a resignation ends the race alike on both sides.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common::{observer, wait};
use banco_app::lines_pick::LinesTap;
use banco_app::network::{HostOptions, NetEvent, NetMatch, Phase, RaceUpdate, RaceView};
use banco_game::{Color, GameKind, ScoreGame};
use banco_lines::ai;
use banco_protocol::race::{RaceEnd, RaceOptions};
use std::sync::mpsc::Receiver;

/// Plays the greedy move by `race_move`, or by two taps (pick the ball, then its target).
fn play_greedy(m: &NetMatch, by_taps: bool) -> u32 {
    let view = m.race().unwrap();
    let game = view.board.unwrap();
    let mv = ai::greedy_move(&game).unwrap();
    let turn = if by_taps {
        let picked = m.race_tap(u8::from(mv.from)).unwrap();
        assert!(matches!(picked, LinesTap::Selected { cell, .. } if cell == mv.from));
        assert_eq!(m.race_selected(), Some(mv.from));
        let LinesTap::Moved(turn) = m.race_tap(u8::from(mv.to)).unwrap() else {
            panic!("the picked ball moves");
        };
        assert_eq!(m.race_selected(), None);
        turn
    } else {
        m.race_move(mv.from, mv.to).unwrap()
    };
    // The path to animate runs from the ball to its destination.
    assert_eq!(turn.path.cells().first(), Some(&mv.from));
    assert_eq!(turn.path.cells().last(), Some(&mv.to));
    game.turns() + 1
}

/// A host racing with `options` and a guest that paired, saw the race's options and
/// accepted: both told the race started, with their colours (the host Red).
fn started_race(
    options: RaceOptions,
) -> (NetMatch, Receiver<NetEvent>, NetMatch, Receiver<NetEvent>) {
    let (host_obs, host_rx) = observer();
    let mut host_options = HostOptions::new("Host", "127.0.0.1:0".parse().unwrap(), vec![])
        .racing(options, Color::Red);
    host_options.advertise = false;
    let host = NetMatch::host(host_options, host_obs).unwrap();
    let (guest_obs, guest_rx) = observer();
    let guest = NetMatch::join("Guest", &host.state().address, &[], None, guest_obs).unwrap();
    let code = |rx: &Receiver<NetEvent>| match wait(rx, "code", |e| {
        matches!(e, NetEvent::VerifyCode { .. })
    }) {
        NetEvent::VerifyCode { code, .. } => code,
        _ => unreachable!(),
    };
    let (a, b) = (code(&host_rx), code(&guest_rx));
    host.confirm_code(&a).unwrap();
    guest.confirm_code(&b).unwrap();

    // The guest sees the race's options before it accepts.
    wait(&guest_rx, "proposal", |e| {
        matches!(e, NetEvent::Proposed(_))
    });
    let p = guest.state().proposal.unwrap();
    assert_eq!((p.game, p.race), (GameKind::Lines, Some(options)));
    // In words for the accept prompt, the preview included.
    assert_eq!(guest.state().offered_race, Some(options.to_string()));
    assert_eq!(
        guest.state().offered_terms,
        Some(format!("Race: {options}"))
    );
    assert!(guest.state().peer_games.contains(&GameKind::Lines));
    assert!(guest.race().is_none(), "no race before accepting");
    guest.accept_proposal().unwrap();
    for (rx, color) in [(&host_rx, Color::Red), (&guest_rx, Color::Black)] {
        let e = wait(rx, "start", |e| {
            matches!(e, NetEvent::Race(RaceUpdate::Started { .. }))
        });
        assert_eq!(
            e,
            NetEvent::Race(RaceUpdate::Started {
                options,
                your_color: color
            })
        );
    }
    (host, host_rx, guest, guest_rx)
}

#[test]
fn a_race_over_loopback_ends_alike_on_both_sides() {
    let options = RaceOptions {
        start_balls: 3,
        time_limit_s: 600,
        preview: false,
        ..RaceOptions::default()
    };
    let (host, host_rx, guest, guest_rx) = started_race(options);
    assert_eq!(host.state().phase, Phase::Playing);
    let (h, g) = (host.race().unwrap(), guest.race().unwrap());
    // One seed, made by both: the same start board on both sides, and each side's replica
    // of the other's board is the other's own.
    assert_eq!(h.board, g.board);
    assert_eq!(h.opponent, g.board);
    assert!(h.can_move && g.can_move);
    assert!(h.time_left_ms.is_some_and(|t| t <= 600_000 && t > 590_000));
    assert_eq!(h.board.as_ref().unwrap().board().ball_count(), 3);

    // Both play at once; each sees the other's moves with its score and ball count.
    for _ in 0..4 {
        let ht = play_greedy(&host, false);
        let gt = play_greedy(&guest, true);
        let e = wait(&guest_rx, "host move", |e| {
            matches!(e, NetEvent::Race(RaceUpdate::OpponentMoved { .. }))
        });
        let NetEvent::Race(RaceUpdate::OpponentMoved { turn, .. }) = e else {
            unreachable!()
        };
        assert_eq!(turn + 1, ht);
        let e = wait(&host_rx, "guest move", |e| {
            matches!(e, NetEvent::Race(RaceUpdate::OpponentMoved { .. }))
        });
        let NetEvent::Race(RaceUpdate::OpponentMoved { turn, score, balls }) = e else {
            unreachable!()
        };
        assert_eq!(turn + 1, gt);
        let g: RaceView = guest.race().unwrap();
        let mine = g.board.as_ref().unwrap();
        if mine.turns() == turn + 1 {
            assert_eq!(score, mine.score());
            assert_eq!(balls as usize, mine.board().ball_count());
        }
    }
    let (h, g) = (host.race().unwrap(), guest.race().unwrap());
    assert_eq!(
        h.opponent, g.board,
        "the host's replica is the guest's board"
    );
    assert_eq!(g.opponent, h.board, "and the other way round");
    assert_eq!((h.opponent_turns, g.opponent_turns), (4, 4));
    // The race is in the match state too, not only in the events.
    let state = host.state();
    let in_state = state.race.clone().unwrap();
    // (Everything but the time left, which runs on.)
    assert_eq!(
        RaceView {
            time_left_ms: h.time_left_ms,
            ..in_state
        },
        h
    );
    assert_eq!(state.kind, Some(GameKind::Lines));
    assert_eq!(state.your_color, Some(Color::Red));
    assert_eq!(
        guest.state().race.map(|r| r.opponent_score),
        Some(g.opponent_score)
    );
    assert_eq!(h.opponent_score, g.score);
    assert_eq!(
        h.opponent_balls as usize,
        g.board.as_ref().unwrap().board().ball_count()
    );

    // The guest resigns: both sides end with the same result, the host winning.
    guest.race_resign().unwrap();
    let over = |rx: &Receiver<NetEvent>| match wait(rx, "end", |e| {
        matches!(e, NetEvent::Race(RaceUpdate::Over { .. }))
    }) {
        NetEvent::Race(RaceUpdate::Over { result, text }) => (result, text),
        _ => unreachable!(),
    };
    let (hr, ht) = over(&host_rx);
    let (gr, gt) = over(&guest_rx);
    assert_eq!(hr, gr);
    assert_eq!(hr.end, RaceEnd::Resigned(Color::Black));
    assert_eq!(hr.winner, Some(Color::Red));
    assert_eq!(hr.turns, [4, 4]);
    assert!(
        ht.starts_with("You won the race: the other player resigned"),
        "{ht}"
    );
    assert!(gt.starts_with("You lost the race: you resigned"), "{gt}");
    let (h, g) = (host.race().unwrap(), guest.race().unwrap());
    assert!(!h.can_move && !g.can_move);
    assert_eq!(h.result_text.as_deref(), Some(ht.as_str()));
    assert_eq!(host.state().phase, Phase::Over);
    assert_eq!(host.state().race.and_then(|r| r.result), Some(hr.clone()));
    let (from, to) = h.board.as_ref().unwrap().any_move().unwrap();
    assert!(host.race_move(from, to).is_err(), "no move after the end");
    assert_eq!(host.race_tap(u8::from(from)).unwrap(), LinesTap::Ignored);
    assert!(host.race_tap(81).is_err(), "off the board");
}

/// Leaving a race in progress resigns it (`NetMatch::leave`, as an app's Leave button or a
/// dropped match does): the other player wins the race, not only "the other player left".
#[test]
fn leaving_a_race_in_progress_resigns_it() {
    let (host, host_rx, guest, _guest_rx) = started_race(RaceOptions::default());
    // A burst of moves: more than the stream's window of 8 unacknowledged messages, so
    // the resignation queues behind them (leaving said goodbye before it went out).
    for _ in 0..12 {
        play_greedy(&guest, false);
    }
    guest.leave();
    let NetEvent::Race(RaceUpdate::Over { result, text }) = wait(&host_rx, "end", |e| {
        matches!(e, NetEvent::Race(RaceUpdate::Over { .. }))
    }) else {
        unreachable!()
    };
    assert_eq!(result.end, RaceEnd::Resigned(Color::Black));
    assert!(
        text.starts_with("You won the race: the other player resigned"),
        "{text}"
    );
    wait(&host_rx, "close", |e| matches!(e, NetEvent::Closed { .. }));
    host.leave();
}

/// Both sides are told the race ended.
fn race_over(host_rx: &Receiver<NetEvent>, guest_rx: &Receiver<NetEvent>) {
    for rx in [host_rx, guest_rx] {
        wait(rx, "end", |e| {
            matches!(e, NetEvent::Race(RaceUpdate::Over { .. }))
        });
    }
}

/// After a race, "race again" (`propose_rematch`) proposes the same race anew: the same
/// options and boards' colours, a new seed once accepted. A board game after a race hides
/// the race (and its rematch is that board game), and a race after a board game hides the
/// board game: the state shows the game on or last played.
#[test]
fn a_race_is_run_again_with_its_options_and_a_new_seed() {
    let options = RaceOptions {
        start_balls: 3,
        time_limit_s: 3_600,
        preview: true,
        ..RaceOptions::default()
    };
    let (host, host_rx, guest, guest_rx) = started_race(options);
    let first = host.race().unwrap().board.unwrap();
    play_greedy(&host, false);
    play_greedy(&guest, false);
    // The host has a ball picked when the race ends.
    let (from, _) = host.race().unwrap().board.unwrap().any_move().unwrap();
    assert!(matches!(
        host.race_tap(u8::from(from)).unwrap(),
        LinesTap::Selected { .. }
    ));
    guest.race_resign().unwrap();
    race_over(&host_rx, &guest_rx);
    assert_eq!(host.race_selected(), None, "no pick once the race is over");
    // The race's end is the match's result.
    let over = host.state();
    assert_eq!(
        (over.phase, over.kind),
        (Phase::Over, Some(GameKind::Lines))
    );
    assert_eq!(over.result, host.race().unwrap().result_text);
    assert!(
        over.result
            .as_deref()
            .is_some_and(|t| t.starts_with("You won the race")),
        "{over:?}"
    );

    // The guest asks for the race again: the host sees the same options, its board Red.
    guest.propose_rematch().unwrap();
    let NetEvent::Proposed(p) = wait(&host_rx, "race again", |e| {
        matches!(e, NetEvent::Proposed(_))
    }) else {
        unreachable!()
    };
    assert_eq!(
        (p.game, p.race, p.your_color),
        (GameKind::Lines, Some(options), Color::Red)
    );
    host.accept_proposal().unwrap();
    for (rx, color) in [(&host_rx, Color::Red), (&guest_rx, Color::Black)] {
        let e = wait(rx, "started again", |e| {
            matches!(e, NetEvent::Race(RaceUpdate::Started { .. }))
        });
        assert_eq!(
            e,
            NetEvent::Race(RaceUpdate::Started {
                options,
                your_color: color
            })
        );
    }
    let (h, g) = (host.race().unwrap(), guest.race().unwrap());
    assert_eq!(h.board, g.board, "one new seed for both");
    assert_ne!(
        h.board.as_ref(),
        Some(&first),
        "a new seed, not the last race's"
    );
    assert_eq!(h.board.as_ref().unwrap().turns(), 0);
    assert!(h.can_move && g.can_move && h.result.is_none());
    // The ball picked in the last race is not picked in this one: a tap on an empty cell
    // moves nothing.
    assert_eq!(host.race_selected(), None);
    let empty = (0..81u8)
        .find(|&c| {
            let cell = banco_lines::Cell::try_from(c).unwrap();
            h.board.as_ref().unwrap().board().is_empty_cell(cell)
        })
        .unwrap();
    assert_eq!(host.race_tap(empty).unwrap(), LinesTap::Ignored);
    let again = host.state();
    assert_eq!((again.phase, again.result), (Phase::Playing, None));

    // After this race, a board game: it hides the race; its rematch is that game.
    host.race_resign().unwrap();
    race_over(&host_rx, &guest_rx);
    guest.propose(GameKind::Chess, Color::Red, 0, None).unwrap();
    wait(&host_rx, "chess", |e| matches!(e, NetEvent::Proposed(_)));
    host.accept_proposal().unwrap();
    for rx in [&host_rx, &guest_rx] {
        wait(rx, "chess started", |e| {
            matches!(e, NetEvent::Started { .. })
        });
    }
    let chess = host.state();
    assert_eq!(
        (chess.kind, chess.your_color),
        (Some(GameKind::Chess), Some(Color::Black))
    );
    assert!(chess.race.is_none() && chess.board.is_some());
    host.resign().unwrap();
    wait(&guest_rx, "chess over", |e| {
        matches!(e, NetEvent::GameOver { .. })
    });
    guest.propose_rematch().unwrap();
    let NetEvent::Proposed(p) = wait(&host_rx, "another chess game", |e| {
        matches!(e, NetEvent::Proposed(_))
    }) else {
        unreachable!()
    };
    assert_eq!(
        (p.game, p.your_color, p.race),
        (GameKind::Chess, Color::Red, None)
    );
    host.decline_proposal().unwrap();
    wait(&guest_rx, "declined", |e| {
        matches!(e, NetEvent::ProposalDeclined { .. })
    });

    // And a race after the board game hides the board game.
    host.propose_race(options, Color::Red).unwrap();
    wait(&guest_rx, "a race", |e| matches!(e, NetEvent::Proposed(_)));
    guest.accept_proposal().unwrap();
    wait(&host_rx, "race started", |e| {
        matches!(e, NetEvent::Race(RaceUpdate::Started { .. }))
    });
    let racing = host.state();
    assert_eq!(
        (racing.kind, racing.phase),
        (Some(GameKind::Lines), Phase::Playing)
    );
    assert!(
        racing
            .race
            .is_some_and(|r| r.board.is_some_and(|b| b != first))
    );
    assert_eq!(
        (racing.board, racing.result, racing.outcome),
        (None, None, None)
    );
    host.leave();
    guest.leave();
}
