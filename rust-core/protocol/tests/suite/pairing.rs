//! Pairing across restarts and strangers, sans I/O: a peer remembered days ago skips the
//! code (time passed in), a new key under a remembered name is loud, and a device nobody
//! confirmed never pins or ends the host's session.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use banco_game::GameKind;
use banco_protocol::message::Body;
use banco_protocol::sim::CountingGame;
use banco_protocol::{
    ActionError, Event, Identity, KnownPeers, LinkDownReason, Session, SessionConfig,
};
use common::{RawPeer, events, link, session};

const DAY_MS: u64 = 24 * 60 * 60 * 1000;

fn restarted(name: &str, secret: u8, known: &[u8]) -> Session<CountingGame> {
    let mut config = SessionConfig::new(name, &[GameKind::Xiangqi]);
    config.known_peers = KnownPeers::import(known).unwrap();
    Session::new(
        config,
        Identity::from_secret([secret; 32]),
        [secret ^ 0x77; 32],
    )
}

#[test]
fn a_peer_confirmed_days_ago_reconnects_without_a_code() {
    let (mut a, mut b) = (session("A", 1), session("B", 2));
    link(&mut a, &mut b, 0);
    let code = a.peer().unwrap().code;
    a.confirm_code(code, true).unwrap();
    b.confirm_code(code, true).unwrap();
    let (ka, kb) = (a.known_peers().export(), b.known_peers().export());

    // Three days later, both apps were restarted with what they stored.
    let now = 3 * DAY_MS;
    let (mut a, mut b) = (restarted("A", 1, &ka), restarted("B", 2, &kb));
    link(&mut a, &mut b, now);
    for ev in [events(&mut a), events(&mut b)] {
        assert!(
            ev.iter()
                .any(|e| matches!(e, Event::PeerVerified { known: true, .. })),
            "{ev:?}"
        );
        assert!(
            !ev.iter().any(|e| matches!(e, Event::VerifyPeer { .. })),
            "{ev:?}"
        );
    }
    assert!(a.channel().is_verified() && b.channel().is_verified());

    // Another device under B's name: a warning and a code.
    let mut a = restarted("A", 1, &ka);
    let mut impostor = session("B", 9);
    link(&mut impostor, &mut a, now + DAY_MS);
    let ev = events(&mut a);
    assert!(
        ev.iter().any(|e| matches!(e, Event::PeerKeyChanged { .. })),
        "{ev:?}"
    );
    assert!(
        ev.iter().any(|e| matches!(e, Event::VerifyPeer { .. })),
        "{ev:?}"
    );
}

#[test]
fn a_goodbye_before_pairing_ends_only_the_strangers_link() {
    let mut host = session("Host", 1);
    let mut raw = RawPeer::connect(&mut host, banco_protocol::PROTOCOL_VERSION, 0).unwrap();
    // The stranger sends a proposal (held back) and leaves.
    raw.send(&mut host, Body::DrawOffer, 1);
    raw.send(&mut host, Body::Bye, 2);
    let ev = events(&mut host);
    assert!(
        ev.contains(&Event::LinkDown {
            reason: LinkDownReason::Abandoned
        }),
        "{ev:?}"
    );
    assert!(!host.is_closed() && host.peer().is_none());
    // The real guest pairs on the same session, from a fresh stream.
    let mut guest = session("Guest", 2);
    link(&mut guest, &mut host, 3);
    assert_eq!(host.peer().unwrap().name, "Guest");
    let code = host.peer().unwrap().code;
    host.confirm_code(code, false).unwrap();
    guest.confirm_code(code, false).unwrap();
    assert!(host.channel().is_verified());
}

#[test]
fn a_mistyped_code_is_not_called_a_changed_one() {
    let (mut a, mut b) = (session("A", 1), session("B", 2));
    link(&mut a, &mut b, 0);
    let code = a.peer().unwrap().code;
    let wrong: banco_protocol::sas::Sas = format!("{:06}", (code.value() + 1) % 1_000_000)
        .parse()
        .unwrap();
    // Only one device ever connected: no code changed, the player typed another one.
    assert_eq!(a.confirm_code(wrong, false), Err(ActionError::NotTheCode));
    assert_eq!(
        ActionError::NotTheCode.to_string(),
        "this is not the code shown: compare the six digits again"
    );
    assert!(!a.channel().is_verified(), "nothing confirmed");
    a.confirm_code(code, false).unwrap();
    b.confirm_code(code, false).unwrap();
    assert!(a.channel().is_verified());
}

#[test]
fn a_rejected_code_reopens_the_host_and_a_stale_confirmation_is_refused() {
    let mut host = session("Host", 1);
    let _raw = RawPeer::connect(&mut host, banco_protocol::PROTOCOL_VERSION, 0).unwrap();
    let stale = host.peer().unwrap().code;
    host.reject_peer();
    assert!(!host.is_closed() && host.peer().is_none());
    assert!(events(&mut host).contains(&Event::LinkDown {
        reason: LinkDownReason::Rejected
    }));
    let mut guest = session("Guest", 2);
    link(&mut guest, &mut host, 5);
    let code = host.peer().unwrap().code;
    if code != stale {
        assert_eq!(
            host.confirm_code(stale, false),
            Err(ActionError::CodeChanged)
        );
    }
    host.confirm_code(code, false).unwrap();
    assert_eq!(host.peer().unwrap().key, guest.local_key());
}

#[test]
fn a_player_whose_app_restarted_ends_the_match_on_both_sides() {
    // A (who dialled) and B play; A's app restarts with its identity but without the match
    // and dials B again.
    let (mut a, mut b) = common::playing(banco_game::Color::Red, None);
    common::play_in_turn(&mut a, &mut b, &[1, 2, 3]);
    a.link_lost(10);
    b.link_lost(10);
    events(&mut b);
    let both = <CountingGame as banco_game::MatchGame>::kinds();
    let mut again = common::session_seeded("A", 1, 7, both);
    again.connect(20).unwrap();
    b.accept(20).unwrap();
    common::pump(&mut again, &mut b, 20);
    // B knows the key (confirmed) and hears a fresh start: the match cannot go on.
    let ev = events(&mut b);
    assert!(
        ev.contains(&Event::LinkDown {
            reason: LinkDownReason::PeerRestarted
        }),
        "{ev:?}"
    );
    assert!(!again.is_link_up() && !b.is_link_up());
}

#[test]
fn a_new_app_does_not_take_up_a_session_its_peer_heard_from() {
    // The other way round: B's app restarted; A (whose match lives) dials it. B's fresh
    // session hears A resume a session it never had: it is no session of B's.
    let (mut a, mut b) = common::playing(banco_game::Color::Red, None);
    common::play_in_turn(&mut a, &mut b, &[1, 2, 3]);
    a.link_lost(10);
    events(&mut a);
    let both = <CountingGame as banco_game::MatchGame>::kinds();
    let mut again = common::session_seeded("B", 2, 9, both);
    a.connect(20).unwrap();
    again.accept(20).unwrap();
    common::pump(&mut a, &mut again, 20);
    let (ev_a, ev_b) = (events(&mut a), events(&mut again));
    let down = |ev: &[Event<u8>], r: LinkDownReason| ev.contains(&Event::LinkDown { reason: r });
    // Both sides know why: B's own `Resume` (no session) still reaches A.
    assert!(
        down(&ev_a, LinkDownReason::PeerRestarted) && down(&ev_b, LinkDownReason::RestartedHere),
        "{ev_a:?} {ev_b:?}"
    );
    assert!(!a.is_link_up() && !again.is_link_up());
}

#[test]
fn a_guest_whose_code_the_host_rejected_is_told_and_stops() {
    let (mut guest, mut host) = (session("Guest", 2), session("Host", 1));
    link(&mut guest, &mut host, 0);
    host.reject_peer();
    common::pump(&mut guest, &mut host, 1);
    let ev = events(&mut guest);
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::Closed {
                reason: banco_protocol::CloseReason::PeerRejectedCode
            }
        )),
        "{ev:?}"
    );
    assert!(guest.is_closed());
    // The host only forgot that device and waits for another.
    assert!(!host.is_closed() && host.peer().is_none());
}

/// The usual order: the guest's player answers first. The host's "no" still ends the
/// guest's attempt (it would otherwise dial again and ask the host to compare codes it
/// never shows), and the key its "yes" remembered is forgotten (review revB D2).
#[test]
fn a_guest_that_confirmed_first_stops_when_the_host_rejects_and_forgets_the_key() {
    let (mut guest, mut host) = (session("Guest", 2), session("Host", 1));
    link(&mut guest, &mut host, 0);
    let code = guest.peer().unwrap().code;
    guest.confirm_code(code, true).unwrap();
    assert!(guest.known_peers().get("Host").is_some());
    common::pump(&mut guest, &mut host, 1);
    events(&mut guest);
    host.reject_peer();
    common::pump(&mut guest, &mut host, 2);
    let ev = events(&mut guest);
    assert!(
        ev.contains(&Event::Closed {
            reason: banco_protocol::CloseReason::PeerRejectedCode
        }),
        "{ev:?}"
    );
    assert!(guest.is_closed());
    assert!(guest.known_peers().is_empty(), "{:?}", guest.known_peers());
    // Nothing goes on: the guest cannot dial again, the host waits for another device.
    assert_eq!(guest.connect(3), Err(ActionError::Closed));
    assert!(!host.is_closed() && host.peer().is_none());
}

/// A guest that set out to reach the player listed with `fingerprint`.
fn expecting(fingerprint: &str) -> Session<CountingGame> {
    let mut config = SessionConfig::new("Guest", &[GameKind::Xiangqi]);
    config.expected_peer = Some(fingerprint.to_owned());
    Session::new(config, Identity::from_secret([9; 32]), [0x99; 32])
}

#[test]
fn a_host_with_another_key_than_the_listing_is_refused_before_any_code() {
    let an = Identity::from_secret([1; 32]).public().fingerprint();
    // As mDNS carries it: 16 hex digits, no separators.
    let listed = an.replace('-', "");
    let mut guest = expecting(&listed);
    let mut impostor = session("An", 2);
    guest.connect(0).unwrap();
    impostor.accept(0).unwrap();
    common::pump(&mut guest, &mut impostor, 0);
    let ev = events(&mut guest);
    assert!(
        ev.contains(&Event::LinkDown {
            reason: LinkDownReason::NotTheListedPlayer {
                listed: an.clone(),
                found: Identity::from_secret([2; 32]).public().fingerprint(),
            }
        }),
        "{ev:?}"
    );
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::VerifyPeer { .. } | Event::LinkUp { .. })),
        "{ev:?}"
    );
    assert!(guest.peer().is_none() && !guest.is_link_up());

    // The real host, with the listed key, links up and shows its code.
    let mut guest = expecting(&listed);
    let mut real = session("An", 1);
    link(&mut guest, &mut real, 0);
    assert!(guest.peer().is_some());
}
