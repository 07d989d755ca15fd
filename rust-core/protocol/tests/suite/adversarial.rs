//! Adversarial peers: a man in the middle, replayed, forged, truncated and oversized
//! frames, illegal moves, wrong hashes, floods and hostile length prefixes. Every case ends
//! in a clear event or a clean close, never a panic, with bounded memory and the game
//! state untouched.
#![allow(clippy::unwrap_used)]

use crate::common;

use banco_game::{Color, Game, GameKind};
use banco_protocol::crypto::CryptoError;
use banco_protocol::frame::{FrameDecoder, FrameError, MAX_FRAME_LEN};
use banco_protocol::message::{Accept, Body, ErrorCode, MoveMsg, Propose};
use banco_protocol::sim::CountingGame;
use banco_protocol::{Event, IllegalReason, LinkDownReason, Rejection};
use common::{RawPeer, S, events, link, pump, session};

#[test]
fn a_man_in_the_middle_gets_two_different_codes() {
    // Alice dials Bob, but Mallory answers with her own key and dials Bob herself,
    // relaying everything and calling herself "Bob" to Alice and "Alice" to Bob.
    let mut alice = session("Alice", 1);
    let mut bob = session("Bob", 2);
    let mut mallory_as_bob = session("Bob", 3);
    let mut mallory_as_alice = session("Alice", 3);
    link(&mut alice, &mut mallory_as_bob, 0);
    link(&mut mallory_as_alice, &mut bob, 0);
    let code_alice = alice.peer().unwrap().code;
    let code_bob = bob.peer().unwrap().code;
    println!("alice sees {code_alice}, bob sees {code_bob}");
    assert_ne!(
        code_alice, code_bob,
        "the players see different digits and refuse"
    );
    // Each half of the relay agrees with Mallory, which is why the players must compare.
    assert_eq!(code_alice, mallory_as_bob.peer().unwrap().code);
    assert_eq!(code_bob, mallory_as_alice.peer().unwrap().code);
    // Alice refuses: the session closes and says goodbye.
    alice.reject_peer();
    assert!(alice.is_closed());
    assert!(
        events(&mut alice)
            .iter()
            .any(|e| matches!(e, Event::Closed { .. }))
    );

    // A passive relay (forwarding frames without keys of its own) changes nothing: the
    // codes match and the link works.
    let mut a = session("A", 4);
    let mut b = session("B", 5);
    link(&mut a, &mut b, 0);
    assert_eq!(a.peer().unwrap().code, b.peer().unwrap().code);
}

#[test]
fn many_middle_men_never_match_the_codes() {
    // A middle man that retries with fresh keys still faces a random six-digit code each
    // time; over 200 attempts none matches (expected 0.0002 matches).
    let mut matches = 0;
    for i in 0..200u8 {
        let mut alice = session("Alice", 1);
        let mut bob = session("Bob", 2);
        let mut m1 = S::new(
            banco_protocol::SessionConfig::new("Bob", &[GameKind::Xiangqi]),
            banco_protocol::Identity::from_secret([i; 32]),
            [i.wrapping_add(1); 32],
        );
        let mut m2 = S::new(
            banco_protocol::SessionConfig::new("Alice", &[GameKind::Xiangqi]),
            banco_protocol::Identity::from_secret([i; 32]),
            [i.wrapping_add(2); 32],
        );
        link(&mut alice, &mut m1, 0);
        link(&mut m2, &mut bob, 0);
        matches += usize::from(alice.peer().unwrap().code == bob.peer().unwrap().code);
    }
    assert_eq!(matches, 0);
}

/// A victim (black) in a game against a raw peer (red).
fn victim_with_game() -> (S, RawPeer) {
    let mut victim = session("Victim", 2);
    let mut raw = RawPeer::connect(&mut victim, banco_protocol::PROTOCOL_VERSION, 0).unwrap();
    assert!(victim.is_link_up());
    victim.confirm_peer(false).unwrap();
    raw.send(
        &mut victim,
        Body::Propose(Propose {
            game: 0,
            rules: 0,
            color: Color::Red,
            clock: None,
            fen: None,
            params: Vec::new(),
        }),
        0,
    );
    victim.accept_proposal(0).unwrap();
    assert!(
        raw.recv(&mut victim)
            .contains(&Body::Accept(Accept::default()))
    );
    events(&mut victim);
    (victim, raw)
}

fn good_move(game: &CountingGame, mv: u8) -> MoveMsg {
    let mut after = game.clone();
    after.play(mv).unwrap();
    MoveMsg {
        ply: game.ply() as u8,
        mv: u16::from(mv),
        hash: after.hash() as u32,
        clock: 0,
    }
}

#[test]
fn illegal_moves_and_wrong_hashes_are_refused_and_not_applied() {
    let (mut v, mut raw) = victim_with_game();
    let start = v.game().unwrap().clone();
    let cases: Vec<(MoveMsg, Event<u8>)> = vec![
        (
            MoveMsg {
                mv: 9,
                ..good_move(&start, 1)
            },
            Event::PeerIllegalMove {
                ply: 0,
                code: 9,
                reason: IllegalReason::Undecodable,
            },
        ),
        (
            MoveMsg {
                ply: 5,
                ..good_move(&start, 1)
            },
            Event::PeerIllegalMove {
                ply: 0,
                code: 1,
                reason: IllegalReason::WrongPly,
            },
        ),
        (
            MoveMsg {
                hash: 0xdead_beef,
                ..good_move(&start, 2)
            },
            Event::Desync {
                ply: 0,
                local: good_move(&start, 2).hash,
                remote: 0xdead_beef,
            },
        ),
    ];
    for (msg, want) in cases {
        raw.send(&mut v, Body::Move(msg), 1);
        let ev = events(&mut v);
        assert!(ev.contains(&want), "{ev:?}");
        assert_eq!(v.game(), Some(&start), "state untouched");
        // The refusal asks the peer to resynchronise to our position (sequenced, so it
        // arrives even though the refused move was acknowledged).
        assert!(raw.recv(&mut v).contains(&Body::Resync {
            ply: 0,
            hash: start.hash() as u32
        }));
    }
    // A legal move with the right hash goes through; a second red move is out of turn.
    raw.send(&mut v, Body::Move(good_move(&start, 3)), 2);
    assert_eq!(v.ply(), Some(1));
    let after = v.game().unwrap().clone();
    raw.send(
        &mut v,
        Body::Move(MoveMsg {
            ply: 1,
            ..good_move(&after, 1)
        }),
        3,
    );
    assert!(events(&mut v).iter().any(|e| matches!(
        e,
        Event::PeerIllegalMove {
            reason: IllegalReason::NotTheirTurn,
            ..
        }
    )));
    assert_eq!(v.game(), Some(&after));
}

#[test]
fn replayed_forged_truncated_and_oversized_frames_are_dropped() {
    let (mut v, mut raw) = victim_with_game();
    let start = v.game().unwrap().clone();
    let frame = raw.send(&mut v, Body::Move(good_move(&start, 2)), 1);
    assert_eq!(v.ply(), Some(1));
    let after = v.game().unwrap().clone();
    events(&mut v);

    let rejected = |v: &mut S, bytes: &[u8]| {
        v.handle_datagram(bytes, 2);
        let ev = events(v);
        assert_eq!(v.game(), Some(&after), "state untouched");
        ev.into_iter()
            .find_map(|e| match e {
                Event::FrameRejected { reason } => Some(reason),
                _ => None,
            })
            .unwrap()
    };
    // Replay of the move frame.
    assert_eq!(
        rejected(&mut v, &frame),
        Rejection::Crypto(CryptoError::Replayed {
            nonce: frame[0].into()
        })
    );
    // Forged: one bit flipped in a fresh frame.
    let mut forged = raw.link.transport.seal(&[0x00, 0x0b]).unwrap();
    let last = forged.len() - 1;
    forged[last] ^= 0x40;
    assert_eq!(
        rejected(&mut v, &forged),
        Rejection::Crypto(CryptoError::Forged)
    );
    // Truncated.
    assert!(matches!(
        rejected(&mut v, &forged[..8]),
        Rejection::Crypto(CryptoError::Truncated { .. })
    ));
    assert!(matches!(
        rejected(&mut v, &[]),
        Rejection::Crypto(CryptoError::Truncated { .. })
    ));
    // Oversized: refused before decryption.
    assert_eq!(
        rejected(&mut v, &vec![0u8; MAX_FRAME_LEN + 1]),
        Rejection::Oversized(MAX_FRAME_LEN + 1)
    );
    // Garbage that decrypts (the raw peer has the keys) but is not a message.
    let junk = raw.link.transport.seal(&[0x00, 0x7f, 0x7f]).unwrap();
    assert!(matches!(rejected(&mut v, &junk), Rejection::Wire(_)));
    assert!(v.is_link_up(), "the link stays up");
    // And the stream still works afterwards.
    raw.send(&mut v, Body::Ping, 3);
    assert!(raw.recv(&mut v).contains(&Body::Pong));
}

#[test]
fn a_ping_flood_is_rate_limited_with_bounded_memory() {
    let (mut v, mut raw) = victim_with_game();
    let before = v.game().unwrap().clone();
    let mut pongs = 0;
    for i in 0..20_000u64 {
        raw.send(&mut v, Body::Ping, 1 + i / 1000); // 1000 pings per millisecond
        pongs += raw
            .recv(&mut v)
            .iter()
            .filter(|b| **b == Body::Pong)
            .count();
    }
    let ev = events(&mut v);
    let stats = v.stats();
    println!(
        "flood: {} frames, {} rate limited, {pongs} pongs, {} events",
        stats.frames_received,
        stats.rate_limited,
        ev.len()
    );
    assert!(stats.rate_limited > 19_000);
    assert!(pongs < 200);
    assert!(ev.len() < 100, "reports are bounded");
    assert!(ev.contains(&Event::FrameRejected {
        reason: Rejection::RateLimited
    }));
    assert_eq!(v.game(), Some(&before));
    // Once the flood stops, the peer is heard again.
    raw.send(&mut v, Body::Ping, 10_000);
    assert!(raw.recv(&mut v).contains(&Body::Pong));
}

#[test]
fn a_flood_of_sequenced_messages_before_confirmation_is_bounded() {
    let mut v = session("Victim", 2);
    let mut raw = RawPeer::connect(&mut v, banco_protocol::PROTOCOL_VERSION, 0).unwrap();
    // Not confirmed yet: the victim holds messages back, but only a bounded number (the
    // rest is not acknowledged, so an honest peer would send it again later).
    let p = Propose {
        game: 0,
        rules: 0,
        color: Color::Red,
        clock: None,
        fen: None,
        params: Vec::new(),
    };
    for i in 0..500u64 {
        raw.send(&mut v, Body::Propose(p.clone()), i * 30);
    }
    raw.recv(&mut v);
    events(&mut v);
    v.confirm_peer(false).unwrap();
    let proposed = events(&mut v)
        .iter()
        .filter(|e| matches!(e, Event::Proposed(_)))
        .count();
    println!("held back and delivered after confirmation: {proposed}");
    assert!((1..=32).contains(&proposed));
    assert!(v.game().is_none());
}

#[test]
fn a_version_one_peer_is_refused_with_the_version_error() {
    let mut v = session("Victim", 2);
    assert!(RawPeer::connect(&mut v, 1, 0).is_none());
    let ev = events(&mut v);
    assert!(
        ev.contains(&Event::LinkDown {
            reason: LinkDownReason::Version {
                peer: 1,
                ours: banco_protocol::PROTOCOL_VERSION
            }
        }),
        "{ev:?}"
    );
    assert!(v.peer().is_none(), "nothing of the peer is taken");
}

#[test]
fn another_protocol_version_is_refused_clearly() {
    let mut v = session("Victim", 2);
    assert!(RawPeer::connect(&mut v, 99, 0).is_none());
    let ev = events(&mut v);
    let reason = LinkDownReason::Version {
        peer: 99,
        ours: banco_protocol::PROTOCOL_VERSION,
    };
    assert!(
        ev.contains(&Event::LinkDown {
            reason: reason.clone()
        }),
        "{ev:?}"
    );
    println!("{reason}");
    assert!(reason.to_string().contains("update both apps"));
}

#[test]
fn a_four_gib_length_prefix_is_a_clear_error() {
    let mut d = FrameDecoder::new();
    let mut input: &[u8] = &[0x80, 0x80, 0x80, 0x80, 0x10, 1, 2, 3];
    let err = d.decode(&mut input).unwrap_err();
    assert_eq!(
        err,
        FrameError::TooLarge {
            len: 1 << 32,
            max: MAX_FRAME_LEN
        }
    );
    println!("{err}");
    assert_eq!(d.buffered(), 0);
    assert_eq!(input, &[1, 2, 3], "nothing read past the prefix");
}

#[test]
fn frames_from_the_wrong_key_or_link_are_rejected() {
    // Frames of an old link are useless on a new one (new keys).
    let mut a = session("A", 1);
    let mut b = session("B", 2);
    link(&mut a, &mut b, 0);
    a.handle_timeout(5_000); // a keepalive ping, never delivered
    let old = a.poll_transmit().unwrap();
    a.link_lost(6_000);
    b.link_lost(6_000);
    link(&mut a, &mut b, 6_000);
    events(&mut b);
    b.handle_datagram(&old, 6_001);
    assert!(matches!(
        events(&mut b).as_slice(),
        [Event::FrameRejected {
            reason: Rejection::Crypto(CryptoError::Forged)
        }]
    ));
    pump(&mut a, &mut b, 6_002);
    assert!(a.is_link_up() && b.is_link_up());
}

#[test]
fn another_device_on_a_reconnect_is_refused() {
    let mut a = session("A", 1);
    let mut v = session("Victim", 2);
    link(&mut a, &mut v, 0);
    v.confirm_peer(true).unwrap();
    v.link_lost(1);
    events(&mut v);
    // Someone else dials the session of A and B.
    assert!(RawPeer::connect(&mut v, banco_protocol::PROTOCOL_VERSION, 2).is_none());
    let ev = events(&mut v);
    assert!(
        ev.iter().any(|e| matches!(e, Event::PeerKeyChanged { .. })),
        "{ev:?}"
    );
    assert!(
        ev.contains(&Event::LinkDown {
            reason: LinkDownReason::WrongPeer
        }),
        "{ev:?}"
    );
    // The real peer still gets in.
    link(&mut a, &mut v, 3);
}

#[test]
fn a_peer_cannot_end_the_game_in_a_draw_or_rewrite_it_alone() {
    let (mut v, mut raw) = victim_with_game();
    raw.send(
        &mut v,
        Body::DrawReply {
            accept: true,
            ply: 0,
        },
        1,
    );
    assert_eq!(
        v.outcome(),
        None,
        "no offer of ours: the acceptance is ignored"
    );
    raw.send(&mut v, Body::UndoReply { accept: true }, 2);
    assert_eq!(v.ply(), Some(0));
    // Red and black play five plies, then red resigns claiming an old position.
    for ply in 0..5u8 {
        if ply % 2 == 0 {
            let g = v.game().unwrap().clone();
            raw.send(&mut v, Body::Move(good_move(&g, 3)), u64::from(ply) + 3);
        } else {
            v.play(3, u64::from(ply) + 3).unwrap();
        }
    }
    assert_eq!(v.ply(), Some(5));
    raw.send(&mut v, Body::Resign { ply: 0 }, 8);
    assert_eq!(v.ply(), Some(5), "only moves in flight can be set back");
    assert!(v.outcome().is_some());
}

#[test]
fn peer_errors_and_unsupported_messages_are_reported() {
    let (mut v, mut raw) = victim_with_game();
    raw.send(
        &mut v,
        Body::Error {
            code: ErrorCode::RATE_LIMITED,
        },
        1,
    );
    assert!(events(&mut v).contains(&Event::PeerError {
        code: ErrorCode::RATE_LIMITED
    }));
    raw.send(&mut v, Body::Reveal { link: [1; 10] }, 2);
    // A reveal in a game without chance steps makes no sense: refused, nothing changes.
    assert!(raw.recv(&mut v).contains(&Body::Error {
        code: ErrorCode::UNEXPECTED
    }));
    raw.send(&mut v, Body::Accept(Accept::default()), 3);
    assert!(raw.recv(&mut v).contains(&Body::Error {
        code: ErrorCode::UNEXPECTED
    }));
    assert_eq!(v.peer().unwrap().caps, 0);
    assert!(v.is_link_up());
}

#[test]
fn requests_flooded_without_acknowledgement_keep_the_outbox_bounded() {
    let (mut v, mut raw) = victim_with_game();
    let p = Propose {
        game: 0,
        rules: 0,
        color: Color::Red,
        clock: None,
        fen: None,
        params: Vec::new(),
    };
    for i in 0..1_000u64 {
        // Every proposal during a game is declined; the flooder never acknowledges.
        raw.send(&mut v, Body::Propose(p.clone()), i * 25);
        while v.poll_transmit().is_some() {}
    }
    println!("unacknowledged replies kept: {}", v.unacked());
    assert!(v.unacked() <= 80);
    assert_eq!(v.ply(), Some(0));
}
