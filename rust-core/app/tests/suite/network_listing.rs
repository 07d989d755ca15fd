//! Joining a host found in a lobby checks the key the listing advertised: a stranger who
//! copied a remembered host's (public) fingerprint into an mDNS record of its own is refused
//! in the handshake, before any code is shown, and the match closes saying so; the real
//! host still joins without a code.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common::{observer, wait};
use banco_app::network::{HostOptions, NetEvent, NetMatch, Trust};
use banco_game::GameKind;
use banco_net::discovery::PeerInfo;
use std::sync::mpsc::Receiver;

fn host(name: &str, trust: Trust) -> (NetMatch, Receiver<NetEvent>) {
    let (obs, rx) = observer();
    let mut options = HostOptions::new(name, "127.0.0.1:0".parse().unwrap(), vec![]);
    options.advertise = false;
    options.trust = Some(trust);
    (NetMatch::host(options, obs).unwrap(), rx)
}

/// The mDNS record of `name` at `address` claiming the key `fingerprint`, as discovery
/// hands it over (16 hex digits, no separators).
fn record(name: &str, address: &str, fingerprint: &str) -> PeerInfo {
    PeerInfo {
        id: format!("{name}._banco._tcp.local."),
        name: name.to_owned(),
        games: vec![GameKind::Xiangqi],
        protocol_version: Some(u16::from(banco_protocol::PROTOCOL_VERSION)),
        fingerprint: fingerprint.replace('-', ""),
        host: "banco.local.".to_owned(),
        port: 0,
        addresses: vec![address.parse().unwrap()],
    }
}

fn fingerprint(m: &NetMatch) -> String {
    m.trust().identity().public().fingerprint()
}

/// Pairs `guest` with whoever it reached, confirming any code; true if a code was shown.
fn paired(rx: &Receiver<NetEvent>, m: &NetMatch) -> bool {
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
fn a_record_with_a_copied_fingerprint_is_refused_and_the_real_host_still_joins() {
    // The guest met An once and remembers An's key.
    let (an, an_rx) = host("An", Trust::generate().unwrap());
    let an_fp = fingerprint(&an);
    let real = record("An", &an.state().address, &an_fp);
    let (obs, guest_rx) = observer();
    let guest =
        NetMatch::join_peer("Guest", &real, &[], Some(Trust::generate().unwrap()), obs).unwrap();
    assert!(paired(&an_rx, &an) && paired(&guest_rx, &guest));
    let (remembered, an_trust) = (guest.trust().export(), an.trust().export());
    guest.leave();
    an.leave();

    // A stranger on the LAN publishes a record with An's fingerprint and its own address.
    let (evil, evil_rx) = host("An", Trust::generate().unwrap());
    assert_ne!(fingerprint(&evil), an_fp);
    let forged = record("An", &evil.state().address, &an_fp);
    let (obs, rx) = observer();
    let trust = Trust::import(&remembered).unwrap();
    let fooled = NetMatch::join_peer("Guest", &forged, &[], Some(trust), obs).unwrap();
    let NetEvent::Closed { reason } = wait(&rx, "the refusal", |e| {
        matches!(
            e,
            NetEvent::Closed { .. } | NetEvent::VerifyCode { .. } | NetEvent::PeerVerified { .. }
        )
    }) else {
        panic!("a code or a verification for an impostor")
    };
    assert!(reason.contains("not the player listed"), "{reason}");
    assert!(reason.contains(&an_fp), "{reason}");
    assert!(fooled.state().code.is_none(), "no code is ever shown");
    // The impostor never got a confirmed peer either.
    assert!(
        evil_rx
            .try_iter()
            .all(|e| !matches!(e, NetEvent::PeerVerified { .. })),
    );
    fooled.leave();
    evil.leave();

    // An hosts again: its real record still joins, without a code (An is remembered).
    let (an, _an_rx) = host("An", Trust::import(&an_trust).unwrap());
    let real = record("An", &an.state().address, &an_fp);
    let (obs, rx) = observer();
    let trust = Trust::import(&remembered).unwrap();
    let guest = NetMatch::join_peer("Guest", &real, &[], Some(trust), obs).unwrap();
    assert!(!paired(&rx, &guest), "a remembered host asks for no code");
    guest.leave();
    an.leave();
}

/// A guest joining the host listed with `fingerprint` by the `records` in order of
/// preference, one route each (as a phone's LAN record and its Bluetooth device).
fn join_by(records: &[&PeerInfo], fingerprint: &str) -> (NetMatch, Receiver<NetEvent>) {
    use banco_net::driver::{AnyOf, Connector, Dialer};
    let routes: Vec<Box<dyn Connector>> = records
        .iter()
        .map(|r| Box::new(Dialer::to_peer(r)) as Box<dyn Connector>)
        .collect();
    let (obs, rx) = observer();
    let guest = NetMatch::join_with(
        "Guest",
        AnyOf::new(routes).unwrap(),
        Some(fingerprint),
        &[],
        Some(Trust::generate().unwrap()),
        obs,
    )
    .unwrap();
    (guest, rx)
}

#[test]
fn a_guest_with_a_second_route_leaves_the_impostor_for_the_real_host() {
    // An is reachable by a second route (Bluetooth on a phone; here a second address); a
    // stranger's LAN record copies An's fingerprint and comes first.
    let (an, an_rx) = host("An", Trust::generate().unwrap());
    let an_fp = fingerprint(&an);
    let (evil, evil_rx) = host("An", Trust::generate().unwrap());
    let forged = record("An", &evil.state().address, &an_fp);
    let real = record("An", &an.state().address, &an_fp);
    let (guest, rx) = join_by(&[&forged, &real], &an_fp);
    assert!(paired(&an_rx, &an) && paired(&rx, &guest));
    assert!(
        evil_rx
            .try_iter()
            .all(|e| !matches!(e, NetEvent::PeerVerified { .. })),
        "the impostor never pairs"
    );
    guest.leave();
    an.leave();
    evil.leave();

    // A first route that cannot be reached at all passes the turn too.
    let (an, an_rx) = host("An", Trust::generate().unwrap());
    let an_fp = fingerprint(&an);
    let real = record("An", &an.state().address, &an_fp);
    let dead = record("An", "127.0.0.1:1", &an_fp);
    let (guest, rx) = join_by(&[&dead, &real], &an_fp);
    assert!(paired(&an_rx, &an) && paired(&rx, &guest));
    guest.leave();
    an.leave();
}
