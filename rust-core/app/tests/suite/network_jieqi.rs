//! Two `NetMatch`es play jieqi over loopback TCP: the host proposes it, both sides commit
//! to their hash chains, and every reveal is drawn by the fair draw of banco-protocol —
//! both devices announce the same piece for every draw ([`NetEvent::PieceRevealed`]),
//! nobody may move while a draw is being settled, and both end on the same position.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common::{observer, wait};
use banco_app::network::{HostOptions, NetEvent, NetMatch, Phase};
use banco_app::notation::MoveInfo;
use banco_game::{Color, Game, GameKind};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// The reveals announced on one side, in order: (draw number, mine, the reveal).
fn reveals(rx: &Receiver<NetEvent>, n: usize) -> Vec<(u32, bool, MoveInfo)> {
    (0..n)
        .map(|_| {
            match wait(rx, "reveal", |e| {
                matches!(e, NetEvent::PieceRevealed { .. })
            }) {
                NetEvent::PieceRevealed {
                    revealed,
                    mine,
                    draw,
                } => (draw, mine, revealed),
                _ => unreachable!(),
            }
        })
        .collect()
}

fn until(what: &str, ok: impl Fn() -> bool) {
    let start = Instant::now();
    while !ok() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no {what} within 20 s"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_jieqi_match_over_loopback_draws_every_reveal_fairly() {
    let (host_obs, host_rx) = observer();
    let mut options = HostOptions::new(
        "Host",
        "127.0.0.1:0".parse().unwrap(),
        vec![GameKind::Xiangqi, GameKind::Jieqi],
    )
    .proposing(GameKind::Jieqi, Color::Red);
    options.advertise = false;
    let host = NetMatch::host(options, host_obs).unwrap();
    let address = host.state().address;
    let (guest_obs, guest_rx) = observer();
    let guest = NetMatch::join("Guest", &address, &[], None, guest_obs).unwrap();
    let code = |rx: &Receiver<NetEvent>| match wait(rx, "code", |e| {
        matches!(e, NetEvent::VerifyCode { .. })
    }) {
        NetEvent::VerifyCode { code, .. } => code,
        _ => unreachable!(),
    };
    let (a, b) = (code(&host_rx), code(&guest_rx));
    host.confirm_code(&a).unwrap();
    guest.confirm_code(&b).unwrap();
    wait(&guest_rx, "proposal", |e| {
        matches!(e, NetEvent::Proposed(_))
    });
    let p = guest.state().proposal.unwrap();
    assert_eq!((p.game, p.your_color), (GameKind::Jieqi, Color::Black));
    guest.accept_proposal().unwrap();
    wait(&host_rx, "start", |e| matches!(e, NetEvent::Started { .. }));
    wait(&guest_rx, "start", |e| {
        matches!(e, NetEvent::Started { .. })
    });
    let s = guest.state();
    let board = s.board.unwrap();
    assert_eq!(
        board
            .cells
            .iter()
            .filter(|c| c.piece.as_ref().is_some_and(|p| p.face_down))
            .count(),
        30
    );
    assert_eq!(board.pools.len(), 2);

    // Red's cannon step: nobody moves until the draw is settled, then both announce it.
    host.play_text("h2e2").unwrap();
    assert!(!host.state().your_turn);
    let h = reveals(&host_rx, 1);
    let g = reveals(&guest_rx, 1);
    assert_eq!(h[0].0, 1);
    assert!(h[0].1 && !g[0].1, "the host's piece");
    assert_eq!(h[0].2.revealed, g[0].2.revealed);
    let text = h[0].2.announcement.clone().unwrap();
    assert!(text.starts_with("cannon h2 revealed: "), "{text}");
    until("the guest's turn", || guest.state().your_turn);
    assert_eq!(guest.state().last_move.unwrap().announcement, Some(text));

    // Five more steps, each side its first legal move; every step of a face-down piece is
    // revealed alike on both devices.
    let mut expected = 1;
    for i in 0..5 {
        let side = if i % 2 == 0 { &guest } else { &host };
        until("a turn", || side.state().your_turn);
        let game = side.game().unwrap();
        let mv = game.legal_move_vec()[0];
        let hidden = game.piece_at(game.move_parts(mv).0).unwrap().face_down;
        let (from, to, _) = game.move_parts(mv);
        side.play_squares(from, to, None).unwrap();
        if hidden {
            expected += 1;
            let h = reveals(&host_rx, 1);
            let g = reveals(&guest_rx, 1);
            assert_eq!((h[0].0, g[0].0), (expected, expected));
            assert_eq!(h[0].2.revealed, g[0].2.revealed);
            assert_eq!(h[0].1, !g[0].1);
        }
    }
    until("the same position", || {
        let (hs, gs) = (host.state(), guest.state());
        hs.moves.len() == 6 && hs.fen == gs.fen && hs.moves == gs.moves
    });
    let hg = host.game().unwrap();
    assert!(!hg.awaits_chance());
    assert_eq!(hg.history(), guest.game().unwrap().history());
    let pools = host.state().board.unwrap().pools;
    assert_eq!(30 - pools[0].total - pools[1].total, expected);
    assert_eq!(host.state().phase, Phase::Playing);
    guest.leave();
    wait(&host_rx, "close", |e| matches!(e, NetEvent::Closed { .. }));
}
