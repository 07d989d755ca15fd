//! The match state machine end to end: pairing, known peers, proposals, moves, undo,
//! draw, resignation, clocks, keepalive and reconnects.

use crate::common;

use banco_game::{Color, DrawReason, Game, GameKind, Outcome, WinReason};
use banco_protocol::message::{ClockSpec, DeclineReason};
use banco_protocol::{ActionError, Event, KnownPeers, LinkDownReason, MatchSpec};
use common::{events, link, playing, pump, run_next_timer, session};

fn spec(color: Color) -> MatchSpec {
    MatchSpec::new(GameKind::Xiangqi, color)
}

#[test]
fn both_sides_show_the_same_code_and_wait_for_it() {
    let mut a = session("A", 1);
    let mut b = session("B", 2);
    link(&mut a, &mut b, 0);
    let ea = events(&mut a);
    let eb = events(&mut b);
    let code = |ev: &[Event<u8>]| {
        ev.iter().find_map(|e| match e {
            Event::VerifyPeer { code, .. } => Some(*code),
            _ => None,
        })
    };
    assert_eq!(code(&ea), code(&eb));
    assert!(code(&ea).is_some());
    assert_eq!(ea[0], Event::LinkUp { resumed: false });
    // Nothing of the game before the code is confirmed.
    assert_eq!(
        a.propose(spec(Color::Red), 0),
        Err(ActionError::NotVerified)
    );
    a.confirm_peer(false).unwrap();
    assert_eq!(a.confirm_peer(false), Err(ActionError::NothingToConfirm));
    a.propose(spec(Color::Red), 0).unwrap();
    pump(&mut a, &mut b, 0);
    // b holds the proposal until its player confirms too.
    assert!(
        !events(&mut b)
            .iter()
            .any(|e| matches!(e, Event::Proposed(_)))
    );
    b.confirm_peer(false).unwrap();
    let eb = events(&mut b);
    assert!(eb.contains(&Event::Proposed(spec(Color::Black))), "{eb:?}");
}

#[test]
fn remembered_peers_skip_the_code_and_changed_keys_are_loud() {
    let mut a = session("A", 1);
    let mut b = session("B", 2);
    link(&mut a, &mut b, 0);
    a.confirm_peer(true).unwrap();
    let saved = a.known_peers().export();

    // A new session of A that remembers B: no code on A's side.
    let mut cfg = banco_protocol::SessionConfig::new("A", &[GameKind::Xiangqi]);
    cfg.known_peers = KnownPeers::import(&saved).unwrap();
    let mut a2 = banco_protocol::Session::new(
        cfg.clone(),
        banco_protocol::Identity::from_secret([1; 32]),
        [9; 32],
    );
    let mut b2 = session("B", 2);
    link(&mut a2, &mut b2, 0);
    let ea = events(&mut a2);
    assert!(
        ea.iter()
            .any(|e| matches!(e, Event::PeerVerified { known: true, .. })),
        "{ea:?}"
    );
    assert!(!ea.iter().any(|e| matches!(e, Event::VerifyPeer { .. })));
    assert!(a2.propose(spec(Color::Red), 0).is_ok());

    // Someone else calling itself "B": the change is reported and the code is asked.
    let mut a3 = banco_protocol::Session::new(
        cfg,
        banco_protocol::Identity::from_secret([1; 32]),
        [10; 32],
    );
    let mut impostor = session("B", 66);
    link(&mut a3, &mut impostor, 0);
    let ea = events(&mut a3);
    assert!(
        ea.iter()
            .any(|e| matches!(e, Event::PeerKeyChanged { name, .. } if name == "B")),
        "{ea:?}"
    );
    assert!(ea.iter().any(|e| matches!(e, Event::VerifyPeer { .. })));
    assert_eq!(
        a3.propose(spec(Color::Red), 0),
        Err(ActionError::NotVerified)
    );
}

#[test]
fn a_whole_game_ends_the_same_on_both_sides() {
    let (mut a, mut b) = playing(Color::Red, None);
    let mut t = 0;
    while a.outcome().is_none() {
        t += 10;
        let (mover, other) = if a.game().unwrap().side_to_move() == Color::Red {
            (&mut a, &mut b)
        } else {
            (&mut b, &mut a)
        };
        mover.play(3, t).or_else(|_| mover.play(1, t)).unwrap();
        pump(mover, other, t);
    }
    assert_eq!(a.outcome(), b.outcome());
    assert_eq!(a.moves(), b.moves());
    assert_eq!(a.game().unwrap().hash(), b.game().unwrap().hash());
    assert!(matches!(
        a.outcome(),
        Some(Outcome::Win {
            reason: WinReason::Checkmate,
            ..
        })
    ));
    assert_eq!(a.play(1, t), Err(ActionError::GameOver));
    assert_eq!(a.unacked(), 0);
    // A rematch can be proposed once the game is over.
    a.propose(spec(Color::Black), t).unwrap();
    pump(&mut a, &mut b, t);
    b.accept_proposal(t).unwrap();
    pump(&mut a, &mut b, t);
    assert_eq!(b.ply(), Some(0));
    assert_eq!(b.match_spec().unwrap().local_color, Color::Red);
}

#[test]
fn local_mistakes_are_errors_and_change_nothing() {
    let (mut a, mut b) = playing(Color::Red, None);
    assert_eq!(b.play(1, 0), Err(ActionError::NotYourTurn));
    assert_eq!(a.play(4, 0), Err(ActionError::IllegalMove));
    assert_eq!(a.reply_draw(true, 0), Err(ActionError::NothingToAnswer));
    assert_eq!(a.request_undo(0), Err(ActionError::NothingToUndo));
    assert_eq!(
        a.propose(spec(Color::Red), 0),
        Err(ActionError::GameRunning)
    );
    assert_eq!(a.ply(), Some(0));
    pump(&mut a, &mut b, 0);
    assert!(events(&mut b).is_empty());
}

#[test]
fn undo_accepted_and_declined() {
    let (mut a, mut b) = playing(Color::Red, None);
    a.play(2, 1).unwrap();
    pump(&mut a, &mut b, 1);
    a.request_undo(2).unwrap();
    assert_eq!(a.play(1, 2), Err(ActionError::NotYourTurn));
    pump(&mut a, &mut b, 2);
    assert!(events(&mut b).contains(&Event::UndoRequested { to_ply: 0 }));
    b.reply_undo(false, 3).unwrap();
    pump(&mut a, &mut b, 3);
    assert!(events(&mut a).contains(&Event::UndoDeclined));
    assert_eq!(a.ply(), Some(1));
    // One request per move: red asks again once it moved again.
    assert_eq!(a.request_undo(4), Err(ActionError::AskedThisMove));
    b.play(1, 4).unwrap();
    pump(&mut a, &mut b, 4);
    a.play(1, 4).unwrap();
    pump(&mut a, &mut b, 4);

    a.request_undo(4).unwrap();
    pump(&mut a, &mut b, 4);
    b.reply_undo(true, 5).unwrap();
    pump(&mut a, &mut b, 5);
    assert!(events(&mut a).contains(&Event::Undone { to_ply: 2 }));
    assert_eq!((a.ply(), b.ply()), (Some(2), Some(2)));
    assert_eq!(a.game(), b.game());
    a.play(3, 6).unwrap();
    pump(&mut a, &mut b, 6);
    assert_eq!(b.moves(), Some(&[2u8, 1, 3][..]));
}

#[test]
fn playing_answers_a_pending_request_with_no() {
    let (mut a, mut b) = playing(Color::Red, None);
    a.play(2, 1).unwrap();
    pump(&mut a, &mut b, 1);
    a.offer_draw(2).unwrap();
    pump(&mut a, &mut b, 2);
    assert!(events(&mut b).contains(&Event::DrawOffered));
    b.play(1, 3).unwrap();
    pump(&mut a, &mut b, 3);
    assert!(events(&mut a).contains(&Event::DrawDeclined));
}

#[test]
fn draw_by_agreement_and_resignation() {
    let (mut a, mut b) = playing(Color::Red, None);
    a.play(1, 1).unwrap();
    a.offer_draw(1).unwrap();
    assert_eq!(a.offer_draw(1), Err(ActionError::Pending));
    pump(&mut a, &mut b, 1);
    b.reply_draw(true, 2).unwrap();
    pump(&mut a, &mut b, 2);
    let draw = Some(Outcome::Draw {
        reason: DrawReason::Agreement,
    });
    assert_eq!((a.outcome(), b.outcome()), (draw, draw));

    let (mut a, mut b) = playing(Color::Black, None);
    b.play(1, 1).unwrap();
    pump(&mut a, &mut b, 1);
    a.resign(2).unwrap();
    pump(&mut a, &mut b, 2);
    let red_wins = Some(Outcome::Win {
        winner: Color::Red,
        reason: WinReason::Resignation,
    });
    assert_eq!((a.outcome(), b.outcome()), (red_wins, red_wins));
}

#[test]
fn a_resignation_crossing_a_move_ends_both_sides_on_the_same_position() {
    let (mut a, mut b) = playing(Color::Red, None);
    a.play(1, 1).unwrap();
    pump(&mut a, &mut b, 1);
    // Black moves while red resigns; the frames cross.
    b.play(2, 2).unwrap();
    a.resign(2).unwrap();
    pump(&mut a, &mut b, 2);
    assert_eq!(a.outcome(), b.outcome());
    assert_eq!(a.moves(), b.moves());
    assert_eq!(a.ply(), Some(1));
}

#[test]
fn crossing_proposals_settle_on_one() {
    let mut a = session("A", 1);
    let mut b = session("B", 2);
    link(&mut a, &mut b, 0);
    a.confirm_peer(false).unwrap();
    b.confirm_peer(false).unwrap();
    a.propose(spec(Color::Red), 0).unwrap();
    b.propose(spec(Color::Red), 0).unwrap();
    pump(&mut a, &mut b, 0);
    let asked_a = events(&mut a)
        .iter()
        .any(|e| matches!(e, Event::Proposed(_)));
    let asked_b = events(&mut b)
        .iter()
        .any(|e| matches!(e, Event::Proposed(_)));
    assert!(asked_a ^ asked_b, "exactly one side answers");
    let (answer, other) = if asked_a {
        (&mut a, &mut b)
    } else {
        (&mut b, &mut a)
    };
    answer.decline_proposal(1).unwrap();
    pump(answer, other, 1);
    assert!(events(other).contains(&Event::ProposalDeclined {
        reason: DeclineReason::DECLINED
    }));
}

#[test]
fn clocks_run_and_flag() {
    let clock = Some(ClockSpec {
        base_ms: 10_000,
        increment_ms: 500,
    });
    let (mut a, mut b) = playing(Color::Red, clock);
    a.play(1, 250).unwrap(); // 200 ms counted (100 ms units), +500
    pump(&mut a, &mut b, 250);
    assert_eq!(a.clocks(250), Some([10_300, 10_000]));
    assert_eq!(b.clocks(250), Some([10_300, 10_000]));
    // Black never moves: black's session flags itself when its time is up (before red's
    // measurement of black's time, which allows for the round trip, runs out).
    let mut now = 250;
    while b.outcome().is_none() {
        now = run_next_timer(&mut a, &mut b);
        pump(&mut a, &mut b, now);
    }
    assert_eq!(now, 10_250);
    let red_wins = Some(Outcome::Win {
        winner: Color::Red,
        reason: WinReason::Timeout,
    });
    assert_eq!((a.outcome(), b.outcome()), (red_wins, red_wins));
}

#[test]
fn moves_made_while_disconnected_arrive_after_resume() {
    let (mut a, mut b) = playing(Color::Red, None);
    a.play(2, 1).unwrap();
    // The frame is lost with the link.
    while a.poll_transmit().is_some() {}
    a.link_lost(2);
    b.link_lost(2);
    assert!(events(&mut a).contains(&Event::LinkDown {
        reason: LinkDownReason::Closed
    }));
    assert_eq!(b.ply(), Some(0));
    // A new link, dialled the other way round this time.
    b.connect(3).unwrap();
    a.accept(3).unwrap();
    pump(&mut a, &mut b, 3);
    let eb = events(&mut b);
    assert!(eb.contains(&Event::LinkUp { resumed: true }), "{eb:?}");
    assert!(
        eb.contains(&Event::MovePlayed {
            ply: 0,
            mv: 2,
            by: Color::Red
        }),
        "{eb:?}"
    );
    assert!(!eb.iter().any(|e| matches!(e, Event::VerifyPeer { .. })));
    assert_eq!(b.ply(), Some(1));
}

#[test]
fn keepalive_and_dead_peer() {
    let (mut a, mut b) = playing(Color::Red, None);
    let t = a.poll_timeout().unwrap();
    assert_eq!(t, 5_000, "keepalive first");
    a.handle_timeout(t);
    pump(&mut a, &mut b, t);
    assert!(a.is_link_up());
    // b goes silent.
    a.handle_timeout(5_000 + 20_000);
    assert!(events(&mut a).contains(&Event::LinkDown {
        reason: LinkDownReason::PeerSilent
    }));
    assert!(!a.is_link_up());
}

#[test]
fn handshake_timeout() {
    let mut a = session("A", 1);
    a.connect(0).unwrap();
    assert!(a.poll_transmit().is_some());
    assert_eq!(a.poll_timeout(), Some(10_000));
    a.handle_timeout(10_000);
    assert!(events(&mut a).contains(&Event::LinkDown {
        reason: LinkDownReason::HandshakeTimeout
    }));
}

#[test]
fn bye_closes_both() {
    let (mut a, mut b) = playing(Color::Red, None);
    a.close(1);
    pump(&mut a, &mut b, 1);
    assert!(b.is_closed());
    assert!(
        events(&mut b)
            .iter()
            .any(|e| matches!(e, Event::Closed { .. }))
    );
    assert_eq!(a.play(1, 2), Err(ActionError::Closed));
}

#[test]
fn closing_right_after_a_move_still_delivers_the_move() {
    let (mut a, mut b) = playing(Color::Red, None);
    let _ = events(&mut a);
    let _ = events(&mut b);
    // A plays and closes before its driver got round to sending anything.
    a.play(3, 10).or_else(|_| a.play(1, 10)).unwrap();
    a.close(10);
    let mut frames = Vec::new();
    while let Some(f) = a.poll_transmit() {
        frames.push(f);
    }
    for f in &frames {
        b.handle_datagram(f, 20);
    }
    let seen = events(&mut b);
    assert!(
        seen.iter().any(|e| matches!(e, Event::MovePlayed { .. })),
        "{seen:?}"
    );
    assert!(
        seen.iter().any(|e| matches!(e, Event::Closed { .. })),
        "{seen:?}"
    );
    assert_eq!(b.ply(), Some(1));
}

/// With the default timers a received message is acknowledged by the next frame we send
/// (a move answered at once costs one frame each way), or on its own once
/// `ack_delay_ms` passed without one.
#[test]
fn delayed_acknowledgements() {
    use banco_game::MatchGame;
    use banco_protocol::sim::CountingGame;
    use banco_protocol::{Identity, Session, SessionConfig, Timing};
    let delay = Timing::default().ack_delay_ms;
    assert!(delay > 0 && delay * 10 <= Timing::default().rto_ms);
    let make = |name: &str, k: u8| {
        Session::<CountingGame>::new(
            SessionConfig::new(name, CountingGame::kinds()),
            Identity::from_secret([k; 32]),
            [k; 32],
        )
    };
    let (mut a, mut b) = (make("A", 1), make("B", 2));
    link(&mut a, &mut b, 0);
    a.confirm_peer(false).unwrap();
    b.confirm_peer(false).unwrap();
    a.propose(spec(Color::Red), 0).unwrap();
    pump(&mut a, &mut b, 0);
    b.accept_proposal(0).unwrap();
    pump(&mut a, &mut b, 0);
    // Settle what the set-up left owed.
    for s in [&mut a, &mut b] {
        if let Some(t) = s.poll_timeout().filter(|&t| t <= delay) {
            s.handle_timeout(t);
        }
    }
    pump(&mut a, &mut b, delay);
    assert_eq!((a.unacked(), b.unacked()), (0, 0));
    events(&mut a);
    events(&mut b);

    let t = 1_000;
    a.play(1, t).unwrap();
    let sent: Vec<_> = std::iter::from_fn(|| a.poll_transmit()).collect();
    assert_eq!(sent.len(), 1, "one frame for the move");
    b.handle_datagram(&sent[0], t);
    assert_eq!(b.poll_transmit(), None, "the acknowledgement waits");
    assert_eq!(b.poll_timeout(), Some(t + delay));
    // The answer within the delay carries the acknowledgement: one frame back.
    b.play(2, t + 1).unwrap();
    let back: Vec<_> = std::iter::from_fn(|| b.poll_transmit()).collect();
    assert_eq!(
        back.len(),
        1,
        "one frame for the answer and the acknowledgement"
    );
    assert!(b.poll_timeout() > Some(t + delay), "nothing owed any more");
    a.handle_datagram(&back[0], t + 1);
    assert_eq!(a.unacked(), 0, "the answer acknowledged the move");
    assert_eq!(a.ply(), Some(2));
    // Nothing to carry A's acknowledgement: it goes on its own once due, not before.
    assert_eq!(a.poll_transmit(), None);
    assert_eq!(a.poll_timeout(), Some(t + 1 + delay));
    a.handle_timeout(t + 1 + delay);
    let ack: Vec<_> = std::iter::from_fn(|| a.poll_transmit()).collect();
    assert_eq!(ack.len(), 1);
    b.handle_datagram(&ack[0], t + 1 + delay);
    assert_eq!(b.unacked(), 0);
    assert!(a.poll_timeout() > Some(t + 1 + delay));
}
