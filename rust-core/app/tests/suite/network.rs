//! Two `NetMatch`es over loopback TCP: a host offering xiangqi and chess that proposes
//! chess, a guest that sees the offer, codes confirmed on both sides, moves from text and
//! from taps, a draw offer declined, a resignation — both ending with the same outcome and
//! reading their boards from their own sessions.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common::{observer, wait};
use banco_app::board::Tap;
use banco_app::network::{ClockSpec, HostOptions, NetError, NetEvent, NetMatch, Phase, Trust};
use banco_game::{Color, GameKind};
use banco_protocol::race::RaceOptions;
use std::sync::mpsc::Receiver;

#[test]
fn a_chess_match_over_loopback() {
    let (host_obs, host_rx) = observer();
    let mut options = HostOptions::new(
        "Host",
        "127.0.0.1:0".parse().unwrap(),
        vec![GameKind::Xiangqi, GameKind::Chess],
    )
    .proposing(GameKind::Chess, Color::Red);
    options.advertise = false;
    options.clock = Some(ClockSpec {
        base_ms: 300_000,
        increment_ms: 3_000,
    });
    let host = NetMatch::host(options, host_obs).unwrap();
    let address = host.state().address;
    assert_eq!(host.state().phase, Phase::Listening);

    let (guest_obs, guest_rx) = observer();
    let guest = NetMatch::join("Guest", &address, &[], None, guest_obs).unwrap();

    let code = |rx: &Receiver<NetEvent>| match wait(rx, "code", |e| {
        matches!(e, NetEvent::VerifyCode { .. })
    }) {
        NetEvent::VerifyCode { code, .. } => code,
        _ => unreachable!(),
    };
    let (a, b) = (code(&host_rx), code(&guest_rx));
    assert_eq!(a, b, "both sides show the same six digits");
    assert_eq!(guest.state().phase, Phase::Verify);
    assert!(host.confirm_code("not six digits").is_err());
    host.confirm_code(&a).unwrap();
    guest.confirm_code(&b).unwrap();

    // The host proposes chess once the guest is verified; the guest sees both offers.
    wait(&guest_rx, "proposal", |e| {
        matches!(e, NetEvent::Proposed(_))
    });
    let s = guest.state();
    assert_eq!(s.phase, Phase::Proposed);
    assert_eq!(s.peer_games, vec![GameKind::Xiangqi, GameKind::Chess]);
    let p = s.proposal.unwrap();
    assert_eq!((p.game, p.your_color), (GameKind::Chess, Color::Black));
    // The offered clock is shown before accepting.
    assert_eq!(p.clock_text(), "clock 5 min + 3 s per move");
    assert_eq!(s.offered_clock.as_deref(), Some("5:00 + 3s"));
    // The whole proposal in words, as both shells' accept prompts show it.
    assert_eq!(
        s.offered_terms.as_deref(),
        Some("You play Black\nClock: 5:00 + 3s")
    );
    assert_eq!(s.clock_faces, None, "no clocks before the game");
    guest.accept_proposal().unwrap();
    wait(&host_rx, "start", |e| matches!(e, NetEvent::Started { .. }));
    wait(&guest_rx, "start", |e| {
        matches!(e, NetEvent::Started { .. })
    });

    // White (the host) plays by text, Black by two taps: e7 is column 4, row 1 from the top
    // of the flipped board's… the guest's board is flipped: e7 is column 3, row 6.
    host.play_text("e4").unwrap();
    wait(&guest_rx, "move", |e| {
        matches!(e, NetEvent::MovePlayed { .. })
    });
    // The clocks from each side: White's stopped at its move (plus 3 s), Black's runs.
    let (gs, hs) = (guest.state(), host.state());
    assert!(gs.your_turn);
    assert_eq!(gs.offered_clock, None, "the prompt is gone once playing");
    assert_eq!(gs.offered_terms, None);
    let (gf, hf) = (gs.clock_faces.unwrap(), hs.clock_faces.unwrap());
    assert!(gf.you.running && !gf.opponent.running, "{gf:?}");
    assert!(hf.opponent.running && !hf.you.running, "{hf:?}");
    assert_eq!(gf.opponent.remaining_ms, gs.clocks.unwrap()[0]);
    assert_eq!(
        gf.opponent.remaining_ms, hf.you.remaining_ms,
        "White's clock stands still"
    );
    assert!(gf.opponent.remaining_ms > 300_000 - 1_000 && !gf.you.low);
    assert!(
        gf.next_change_ms
            .is_some_and(|ms| (1..=1_000).contains(&ms))
    );
    assert!(matches!(guest.tap(3, 6).unwrap(), Tap::Selected { .. }));
    assert!(matches!(guest.tap(3, 4).unwrap(), Tap::Move(_)));
    let NetEvent::MovePlayed { played, mine } = wait(&host_rx, "reply", |e| {
        matches!(e, NetEvent::MovePlayed { mine: false, .. })
    }) else {
        unreachable!()
    };
    assert!(!mine);
    assert_eq!(played.main_text(), "e5");
    assert!(
        host.play_text("e5").is_err(),
        "e5 is occupied: refused here"
    );
    host.play_text("Nf3").unwrap();
    // The host's move (Black's own e5 may still be queued before it).
    wait(&guest_rx, "Nf3", |e| {
        matches!(e, NetEvent::MovePlayed { mine: false, .. })
    });

    // A draw offer on Black's own turn goes with its next move (FIDE 9.1.2.2), and is
    // declined; then a resignation.
    guest.offer_draw().unwrap();
    let gs = guest.state();
    assert!(gs.draw_offer_held);
    assert_eq!(
        gs.notice.as_deref(),
        Some(banco_app::network::DRAW_OFFER_HELD)
    );
    assert!(guest.offer_draw().is_err(), "one offer a move");
    assert!(!host.state().draw_offered);
    guest.play_text("Nc6").unwrap();
    let after_move = wait(&host_rx, "offer", |e| {
        matches!(
            e,
            NetEvent::DrawOffered | NetEvent::MovePlayed { mine: false, .. }
        )
    });
    assert!(
        matches!(after_move, NetEvent::MovePlayed { .. }),
        "{after_move:?}"
    );
    wait(&host_rx, "offer", |e| matches!(e, NetEvent::DrawOffered));
    assert!(host.state().draw_offered);
    assert!(!guest.state().draw_offer_held);
    host.reply_draw(false).unwrap();
    wait(&guest_rx, "decline", |e| {
        matches!(e, NetEvent::DrawDeclined)
    });
    guest.resign().unwrap();
    let over = |rx: &Receiver<NetEvent>| match wait(rx, "game over", |e| {
        matches!(e, NetEvent::GameOver { .. })
    }) {
        NetEvent::GameOver { outcome, text } => (outcome, text),
        _ => unreachable!(),
    };
    let (ho, ht) = over(&host_rx);
    let (go, gt) = over(&guest_rx);
    assert_eq!(ho, go);
    assert_eq!(ht, "You won: resignation");
    assert_eq!(gt, "You lost: resignation");
    let (hs, gs) = (host.state(), guest.state());
    assert_eq!(hs.fen, gs.fen);
    assert_eq!(hs.moves, vec!["e4", "e5", "Nf3", "Nc6"]);
    assert_eq!(hs.phase, Phase::Over);
    let faces = hs.clock_faces.unwrap();
    assert!(!faces.you.running && !faces.opponent.running && faces.next_change_ms.is_none());
    assert!(hs.board.unwrap().cells.iter().any(|c| c.last_move));
    guest.leave();
    wait(&host_rx, "close", |e| matches!(e, NetEvent::Closed { .. }));
    host.leave();
    // A match left refuses moves as closed (not "not your turn", not the old game's end).
    assert!(matches!(host.play_text("a3"), Err(NetError::Closed)));
    assert!(matches!(guest.play_text("a6"), Err(NetError::Closed)));
}

fn host_with(trust: Trust) -> (NetMatch, Receiver<NetEvent>) {
    let (obs, rx) = observer();
    let mut options = HostOptions::new("Host", "127.0.0.1:0".parse().unwrap(), vec![]);
    options.advertise = false;
    options.trust = Some(trust);
    (NetMatch::host(options, obs).unwrap(), rx)
}

fn join_with(address: &str, trust: Trust) -> (NetMatch, Receiver<NetEvent>) {
    let (obs, rx) = observer();
    (
        NetMatch::join("Guest", address, &[], Some(trust), obs).unwrap(),
        rx,
    )
}

/// Waits for the pairing's end: `true` if a code had to be compared first.
fn verified(rx: &Receiver<NetEvent>, m: &NetMatch) -> bool {
    let mut asked = false;
    loop {
        match wait(rx, "verification", |e| {
            matches!(
                e,
                NetEvent::VerifyCode { .. } | NetEvent::PeerVerified { .. }
            )
        }) {
            NetEvent::VerifyCode { code, .. } => {
                asked = true;
                m.confirm_code(&code).unwrap();
            }
            _ => return asked,
        }
    }
}

#[test]
fn a_remembered_guest_reconnects_after_a_restart_without_a_code_and_a_new_key_is_loud() {
    // First meeting: codes compared and confirmed; both sides store their trust.
    let (host, host_rx) = host_with(Trust::generate().unwrap());
    let (guest, guest_rx) = join_with(&host.state().address, Trust::generate().unwrap());
    assert!(verified(&host_rx, &host) && verified(&guest_rx, &guest));
    let (host_bytes, guest_bytes) = (host.trust().export(), guest.trust().export());
    assert_eq!(host.trust().known_peers().len(), 1);
    guest.leave();
    host.leave();
    // A trust exported after leaving (an app storing it when the match ends) still
    // remembers the other player: leaving empties nothing.
    assert_eq!(guest.trust().known_peers().len(), 1);
    assert_eq!(host.trust().export(), host_bytes);
    assert_eq!(guest.trust().export(), guest_bytes);

    // Days later, both apps restarted from the stored bytes: no code to compare.
    let (host, host_rx) = host_with(Trust::import(&host_bytes).unwrap());
    let (guest, guest_rx) = join_with(&host.state().address, Trust::import(&guest_bytes).unwrap());
    assert!(
        !verified(&host_rx, &host),
        "the host asked for a code again"
    );
    assert!(
        !verified(&guest_rx, &guest),
        "the guest asked for a code again"
    );
    guest.leave();
    host.leave();

    // Someone else under the guest's name (or the guest reinstalled): loud, and a code.
    let (host, host_rx) = host_with(Trust::import(&host_bytes).unwrap());
    let (other, _other_rx) = join_with(&host.state().address, Trust::generate().unwrap());
    wait(
        &host_rx,
        "key warning",
        |e| matches!(e, NetEvent::PeerKeyChanged { peer_name } if peer_name == "Guest"),
    );
    let NetEvent::VerifyCode { code, .. } = wait(&host_rx, "code", |e| {
        matches!(e, NetEvent::VerifyCode { .. })
    }) else {
        unreachable!()
    };
    // An unattended front end (the CLI's `--yes`) never confirms that one: only a person
    // who compared the code may (before, `--yes` confirmed it and replaced the key).
    assert!(matches!(
        host.confirm_code_unattended(&code, true),
        Err(NetError::KeyChanged)
    ));
    assert_eq!(host.trust().export(), host_bytes, "the guest's key is kept");
    // The warning stays in the state until the player closes it; it is not a passing notice.
    let warned = host.state();
    let warning = warned.key_warning.unwrap_or_default();
    assert!(
        warning.contains("Guest") && warning.contains("different key"),
        "{warning:?}"
    );
    assert_eq!(warned.notice, None);
    host.clear_key_warning();
    assert_eq!(host.state().key_warning, None);
    other.leave();
    host.leave();
}

/// A remembered device that announces another name is shown under the name the player
/// knows it by (before: under whatever name it picked, as a known, verified player); and
/// an unattended confirmation remembers nobody.
#[test]
fn a_remembered_device_under_a_new_name_is_shown_under_the_remembered_one() {
    let (host, host_rx) = host_with(Trust::generate().unwrap());
    let (guest, guest_rx) = join_with(&host.state().address, Trust::generate().unwrap());
    assert!(verified(&host_rx, &host) && verified(&guest_rx, &guest));
    let (host_bytes, guest_bytes) = (host.trust().export(), guest.trust().export());
    guest.leave();
    host.leave();
    let (host, host_rx) = host_with(Trust::import(&host_bytes).unwrap());
    let (obs, _renamed_rx) = observer();
    let renamed = NetMatch::join(
        "Mallory",
        &host.state().address,
        &[],
        Some(Trust::import(&guest_bytes).unwrap()),
        obs,
    )
    .unwrap();
    let shown = wait(&host_rx, "verification", |e| {
        matches!(
            e,
            NetEvent::VerifyCode { .. } | NetEvent::PeerVerified { .. }
        )
    });
    assert_eq!(
        shown,
        NetEvent::PeerVerified {
            peer_name: "Guest".into()
        }
    );
    assert_eq!(host.state().peer_name.as_deref(), Some("Guest"));
    renamed.leave();
    host.leave();
    // A stranger confirmed unattended (without `remember`) is not remembered.
    let (host, host_rx) = host_with(Trust::generate().unwrap());
    let (guest, guest_rx) = join_with(&host.state().address, Trust::generate().unwrap());
    let NetEvent::VerifyCode { code, .. } = wait(&host_rx, "code", |e| {
        matches!(e, NetEvent::VerifyCode { .. })
    }) else {
        unreachable!()
    };
    host.confirm_code_unattended(&code, false).unwrap();
    assert!(verified(&guest_rx, &guest));
    wait(&host_rx, "verified", |e| {
        matches!(e, NetEvent::PeerVerified { .. })
    });
    assert!(host.trust().known_peers().is_empty());
    guest.leave();
    host.leave();
}

#[test]
fn a_host_whose_proposal_cannot_be_made_fails_at_once() {
    let base = || {
        let mut o = HostOptions::new(
            "Host",
            "127.0.0.1:0".parse().unwrap(),
            vec![GameKind::Xiangqi, GameKind::Chess],
        );
        o.advertise = false;
        o
    };
    let refused = |options: HostOptions, why: &str| {
        let (obs, _rx) = observer();
        match NetMatch::host(options, obs) {
            Err(NetError::Proposal(text)) => assert!(text.contains(why), "{text}"),
            Err(other) => panic!("{why}: {other:?}"),
            Ok(m) => {
                m.leave();
                panic!("{why}: hosted");
            }
        }
    };
    let mut garbage = base().proposing(GameKind::Chess, Color::Red);
    garbage.start_fen = Some("garbage".to_owned());
    refused(garbage, "bad start position");
    refused(
        base().proposing(GameKind::Jieqi, Color::Red),
        "jieqi is not among the games",
    );
    let mut short = base().proposing(GameKind::Chess, Color::Red);
    short.clock = Some(ClockSpec {
        base_ms: 100,
        increment_ms: 0,
    });
    refused(short, "shorter than the minimum");
    let four = banco_protocol::race::RaceOptions {
        start_balls: 4,
        time_limit_s: 0,
        preview: false,
        ..RaceOptions::default()
    };
    let mut race =
        HostOptions::new("Host", "127.0.0.1:0".parse().unwrap(), vec![]).racing(four, Color::Red);
    race.advertise = false;
    refused(race, "3 or 5 balls, not 4");
    // A good proposal hosts.
    let (obs, _rx) = observer();
    NetMatch::host(base().proposing(GameKind::Chess, Color::Black), obs)
        .unwrap()
        .leave();
}

#[test]
fn a_proposal_the_guest_cannot_take_is_reported_not_left_waiting() {
    // The host proposes chess; the guest plays xiangqi only: the host hears why nothing
    // was proposed (it used to wait for ever, with no event and no notice).
    let options = HostOptions::new(
        "Host",
        "127.0.0.1:0".parse().unwrap(),
        vec![GameKind::Xiangqi, GameKind::Chess],
    )
    .proposing(GameKind::Chess, Color::Red);
    declined_at_once(options, "the other player does not offer chess");
}

/// A host racing meets a guest that does not offer Lines: the host is told its proposal
/// was declined, and why (the race's automatic proposal dropped the session's refusal,
/// and the host waited for ever).
#[test]
fn a_race_the_guest_cannot_take_is_reported_not_left_waiting() {
    let options = HostOptions::new("Host", "127.0.0.1:0".parse().unwrap(), vec![])
        .racing(RaceOptions::default(), Color::Red);
    declined_at_once(options, "the other player does not offer lines");
}

/// A host with `options` (its automatic proposal) meets a guest that offers xiangqi
/// only: once paired, the host hears its proposal declined for `reason`, as an event
/// and as the match's notice.
fn declined_at_once(mut options: HostOptions, reason: &str) {
    let (host_obs, host_rx) = observer();
    options.advertise = false;
    let host = NetMatch::host(options, host_obs).unwrap();
    let (guest_obs, guest_rx) = observer();
    let guest = NetMatch::join(
        "Guest",
        &host.state().address,
        &[GameKind::Xiangqi],
        None,
        guest_obs,
    )
    .unwrap();
    assert!(verified(&host_rx, &host) && verified(&guest_rx, &guest));
    match wait(&host_rx, "declined", |e| {
        matches!(e, NetEvent::ProposalDeclined { .. })
    }) {
        NetEvent::ProposalDeclined { reason: r } => assert_eq!(r, reason),
        _ => unreachable!(),
    }
    assert_eq!(
        host.state().notice,
        Some(format!("The game was declined: {reason}"))
    );
    guest.leave();
    host.leave();
}

/// Leaving a game in progress resigns it, whatever front end calls `leave` (the CLI's
/// `quit` did; an app's Leave button or a dropped `NetMatch` left the other player with
/// "the other player left" and no result).
#[test]
fn leaving_a_game_in_progress_resigns_it() {
    let (host_obs, host_rx) = observer();
    let mut options = HostOptions::new(
        "Host",
        "127.0.0.1:0".parse().unwrap(),
        vec![GameKind::Xiangqi],
    )
    .proposing(GameKind::Xiangqi, Color::Red);
    options.advertise = false;
    let host = NetMatch::host(options, host_obs).unwrap();
    let (guest_obs, guest_rx) = observer();
    let guest = NetMatch::join("Guest", &host.state().address, &[], None, guest_obs).unwrap();
    assert!(verified(&host_rx, &host) && verified(&guest_rx, &guest));
    wait(&guest_rx, "proposal", |e| {
        matches!(e, NetEvent::Proposed(_))
    });
    assert!(!guest.resign_in_progress(), "a proposal is not a game");
    guest.accept_proposal().unwrap();
    wait(&host_rx, "start", |e| matches!(e, NetEvent::Started { .. }));
    host.play_text("h2e2").unwrap();
    wait(&guest_rx, "move", |e| {
        matches!(e, NetEvent::MovePlayed { .. })
    });
    guest.leave();
    let NetEvent::GameOver { text, .. } = wait(&host_rx, "game over", |e| {
        matches!(e, NetEvent::GameOver { .. })
    }) else {
        unreachable!()
    };
    assert_eq!(text, "You won: resignation");
    wait(&host_rx, "close", |e| matches!(e, NetEvent::Closed { .. }));
    assert_eq!(host.state().phase, Phase::Closed);
    assert!(!host.resign_in_progress(), "nothing left to resign");
    host.leave();
}

/// A host listening on every interface says where a guest can reach it: the machine's
/// addresses with the bound port (`0.0.0.0` is nothing to dial), and a guest dialling the
/// first one pairs; a host on one address is reached there; a guest, and a host that left,
/// list nothing.
#[test]
fn a_host_on_every_interface_lists_where_a_guest_can_dial() {
    let (host_obs, host_rx) = observer();
    let mut options = HostOptions::new("Host", "0.0.0.0:0".parse().unwrap(), vec![]);
    options.advertise = false;
    let host = NetMatch::host(options, host_obs).unwrap();
    let s = host.state();
    let port = s.address.parse::<std::net::SocketAddr>().unwrap().port();
    assert!(!s.reachable.is_empty(), "{s:?}");
    for a in &s.reachable {
        let a: std::net::SocketAddr = a.parse().unwrap();
        assert_eq!(a.port(), port);
        assert!(!a.ip().is_unspecified(), "{a}");
    }
    let (guest_obs, guest_rx) = observer();
    let guest = NetMatch::join("Guest", &s.reachable[0], &[], None, guest_obs).unwrap();
    for rx in [&host_rx, &guest_rx] {
        wait(rx, "code", |e| matches!(e, NetEvent::VerifyCode { .. }));
    }
    assert!(
        guest.state().reachable.is_empty(),
        "a guest takes no guests"
    );
    host.leave();
    assert!(host.state().reachable.is_empty(), "left: nobody can come");

    let (obs, _rx) = observer();
    let mut options = HostOptions::new("Host", "127.0.0.1:0".parse().unwrap(), vec![]);
    options.advertise = false;
    let one = NetMatch::host(options, obs).unwrap();
    let s = one.state();
    assert_eq!(s.reachable, vec![s.address]);
}

/// The accept names the proposal shown (its number): a number not shown yet, or one
/// replaced by a later proposal, accepts nothing.
#[test]
fn a_proposal_is_accepted_by_the_number_shown() {
    let (host_obs, host_rx) = observer();
    let mut options = HostOptions::new(
        "Host",
        "127.0.0.1:0".parse().unwrap(),
        vec![GameKind::Xiangqi],
    )
    .proposing(GameKind::Xiangqi, Color::Red);
    options.advertise = false;
    let host = NetMatch::host(options, host_obs).unwrap();
    let (guest_obs, guest_rx) = observer();
    let guest = NetMatch::join("Guest", &host.state().address, &[], None, guest_obs).unwrap();
    assert!(verified(&host_rx, &host) && verified(&guest_rx, &guest));
    let NetEvent::Proposed(first) = wait(&guest_rx, "proposal", |e| {
        matches!(e, NetEvent::Proposed(_))
    }) else {
        unreachable!()
    };
    assert_eq!(guest.state().proposal.map(|p| p.id), Some(first.id));
    assert_eq!(
        guest.accept_offer(first.id + 1),
        Err(NetError::ProposalChanged)
    );
    assert_eq!(guest.state().phase, Phase::Proposed, "nothing accepted");
    guest.accept_offer(first.id).unwrap();
    wait(&host_rx, "start", |e| matches!(e, NetEvent::Started { .. }));
    host.resign().unwrap();
    wait(&guest_rx, "game over", |e| {
        matches!(e, NetEvent::GameOver { .. })
    });

    // The next proposal has a new number; the old one does not accept it.
    host.propose_rematch().unwrap();
    let NetEvent::Proposed(second) = wait(&guest_rx, "second proposal", |e| {
        matches!(e, NetEvent::Proposed(_))
    }) else {
        unreachable!()
    };
    assert_ne!(second.id, first.id);
    assert_eq!(guest.accept_offer(first.id), Err(NetError::ProposalChanged));
    guest.decline_proposal().unwrap();
    assert!(matches!(
        guest.accept_offer(second.id),
        Err(NetError::Refused(_))
    ));
    guest.leave();
    host.leave();
}

#[test]
fn a_join_by_name_returns_at_once_and_a_failed_lookup_keeps_the_systems_reason() {
    // `.invalid` never resolves (RFC 6761): no network is needed for the lookup to fail.
    // The lookup happens on the match's own thread: `join` returns a match, not an error.
    let (obs, rx) = observer();
    let guest = NetMatch::join("Guest", "nonexistent.invalid:7368", &[], None, obs)
        .expect("the caller does not wait for the lookup");
    assert_eq!(guest.state().phase, Phase::Connecting);
    let NetEvent::Reconnecting { reason, .. } = wait(&rx, "the failed lookup", |e| {
        matches!(e, NetEvent::Reconnecting { .. })
    }) else {
        unreachable!()
    };
    assert!(
        reason.starts_with("cannot find nonexistent.invalid: "),
        "{reason}"
    );
    guest.leave();
    // Not `host:port` at all: refused at once, as an address.
    let (obs, _rx) = observer();
    assert!(matches!(
        NetMatch::join("Guest", "no port here", &[], None, obs),
        Err(NetError::BadAddress(_))
    ));
    // A name that resolves is dialled (looked up on the connect thread too).
    let (host_obs, host_rx) = observer();
    let mut options = HostOptions::new("Host", "127.0.0.1:0".parse().unwrap(), vec![]);
    options.advertise = false;
    let host = NetMatch::host(options, host_obs).unwrap();
    let port = host.state().address.rsplit_once(':').unwrap().1.to_owned();
    let (obs, rx) = observer();
    let guest = NetMatch::join("Guest", &format!("localhost:{port}"), &[], None, obs).unwrap();
    wait(&rx, "a code", |e| matches!(e, NetEvent::VerifyCode { .. }));
    wait(&host_rx, "a code", |e| {
        matches!(e, NetEvent::VerifyCode { .. })
    });
    guest.leave();
    host.leave();
}
