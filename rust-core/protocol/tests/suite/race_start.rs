//! A race whose start is held up by an outage: one side's seed value reaches the other
//! two minutes late, so the two clocks start two minutes apart. Each side takes the
//! other's start from its acknowledgement of our reveal, so neither cuts the other's board
//! before its stop, and both end on one result. A peer heard from all along cannot claim
//! a late start by holding back that acknowledgement.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common::{self, S, events};
use crate::race::{race_move, race_over, victim_and_racer};
use banco_game::{Color, GameKind};
use banco_lines::SpawnRule;
use banco_protocol::Event;
use banco_protocol::message::Body;
use banco_protocol::race::{RACE_GRACE_MS, RACE_LATE_MS, RaceEnd, RaceEvent, RaceOptions};

const MINUTE: RaceOptions = RaceOptions {
    start_balls: 5,
    time_limit_s: 60,
    preview: false,
    spawn: SpawnRule::AtAnnouncement,
};

/// How long the link is down at the start: past the grace period, within the wait for a
/// reveal ([`banco_protocol::race::RACE_REVEAL_MS`] plus up to the grace period).
const OUTAGE_MS: u64 = 130_000;

/// Two sessions offering Lines, linked, codes confirmed; Red (`a`) proposed a minute's
/// race and Black (`b`) accepted it at 0. Black's acceptance and value are not sent yet.
fn accepted() -> (S, S) {
    let mut a = common::session_offering("A", 1, &[GameKind::Lines]);
    let mut b = common::session_offering("B", 2, &[GameKind::Lines]);
    common::link(&mut a, &mut b, 0);
    a.confirm_peer(false).unwrap();
    b.confirm_peer(false).unwrap();
    a.propose_race(MINUTE, Color::Red, 0).unwrap();
    common::pump(&mut a, &mut b, 0);
    b.accept_proposal(0).unwrap();
    (a, b)
}

/// Carries `from`'s frames to `to` only.
fn one_way(from: &mut S, to: &mut S, now: u64) {
    while let Some(f) = from.poll_transmit() {
        to.handle_datagram(&f, now);
    }
}

fn started(s: &mut S) -> bool {
    events(s)
        .iter()
        .any(|e| matches!(e, Event::Race(RaceEvent::Started { .. })))
}

/// The link is down from 1 s to `OUTAGE_MS`; then it comes back and everything queued
/// gets through.
fn outage(a: &mut S, b: &mut S) {
    a.link_lost(1_000);
    b.link_lost(1_000);
    b.connect(OUTAGE_MS).unwrap();
    a.accept(OUTAGE_MS).unwrap();
    common::pump(a, b, OUTAGE_MS);
}

/// `s` plays a move every 5 s of its minute from `start`, the link carrying each at once.
fn play_minute(s: &mut S, other: &mut S, start: u64) {
    for t in (start + 5_000..start + 60_000).step_by(5_000) {
        race_move(s, t);
        common::pump(s, other, t);
    }
}

/// Runs both sessions' timers, the link up, until both have ended the race; both results.
fn run_to_the_end(a: &mut S, b: &mut S) -> [banco_protocol::race::RaceResult; 2] {
    let mut over = [None, None];
    for _ in 0..1_000 {
        let now = common::run_next_timer(a, b);
        common::pump(a, b, now);
        for (slot, s) in over.iter_mut().zip([&mut *a, &mut *b]) {
            if let Some(r) = race_over(s) {
                *slot = Some(r);
            }
        }
        if let [Some(x), Some(y)] = &over {
            return [x.clone(), y.clone()];
        }
    }
    panic!("the race never ended: {over:?}");
}

#[test]
fn a_proposers_reveal_held_up_past_the_grace_period_still_ends_alike() {
    let (mut a, mut b) = accepted();
    // Black's acceptance and value reach Red: Red's time runs from 0. Red's value is lost
    // with the link, so Black's time starts only when the link is back.
    one_way(&mut b, &mut a, 0);
    assert!(started(&mut a));
    while a.poll_transmit().is_some() {}
    play_minute(&mut a, &mut b, 0);
    a.handle_timeout(60_000);
    assert!(events(&mut a).contains(&Event::Race(RaceEvent::TimeUp)));
    outage(&mut a, &mut b);
    assert!(started(&mut b), "Black's time starts at {OUTAGE_MS} ms");
    play_minute(&mut b, &mut a, OUTAGE_MS);
    let [ra, rb] = run_to_the_end(&mut a, &mut b);
    // Red took Black as starting when its acknowledgement came: no cut before its stop.
    assert_eq!(ra, rb, "both sides agree");
    assert_eq!(ra.end, RaceEnd::Finished);
    assert_eq!(ra.turns, [11, 11]);
}

#[test]
fn an_acceptance_held_up_past_the_grace_period_still_ends_alike() {
    let (mut a, mut b) = accepted();
    // Black's acceptance and value are lost with the link: Red starts only when they
    // arrive, and Black when Red's value answers them.
    while b.poll_transmit().is_some() {}
    b.handle_timeout(60_000);
    assert!(race_over(&mut b).is_none(), "Black waits for the reveal");
    outage(&mut a, &mut b);
    assert!(started(&mut a) && started(&mut b));
    for t in (OUTAGE_MS + 5_000..OUTAGE_MS + 60_000).step_by(5_000) {
        race_move(&mut a, t);
        race_move(&mut b, t);
        common::pump(&mut a, &mut b, t);
    }
    let [ra, rb] = run_to_the_end(&mut a, &mut b);
    // Black took Red as starting when Red acknowledged its value, not at its acceptance.
    assert_eq!(ra, rb, "both sides agree");
    assert_eq!(ra.end, RaceEnd::Finished);
    assert_eq!(ra.turns, [11, 11]);
}

#[test]
fn a_peer_heard_from_all_along_cannot_claim_a_late_start() {
    // The victim (Red) accepted at 0; the raw peer (Black) revealed at 5 s and pinged every
    // 5 s, holding back its acknowledgement of Red's value until 100 s. It had our value
    // within a round trip: its start is taken no later than the race's agreement plus
    // RACE_LATE_MS, whatever its acknowledgement says. (A peer silent that long is an
    // outage, as far as we can tell: the two tests above take it as starting late.)
    let (mut victim, mut raw, share, _) = victim_and_racer([31; 32], MINUTE);
    raw.unack(1);
    let reveal = Body::SeedReveal {
        value: share.value(),
    };
    raw.send(&mut victim, reveal, 5_000);
    assert!(started(&mut victim));
    let mut t = 5_000;
    while t < 100_000 {
        t += 5_000;
        raw.send(&mut victim, Body::Ping, t);
        victim.handle_timeout(t);
        while victim.poll_transmit().is_some() {}
    }
    raw.ack_again(1);
    raw.send(&mut victim, Body::Ping, 100_000);
    assert!(race_over(&mut victim).is_none());
    assert_eq!(
        victim.race().unwrap().deadline(),
        Some(RACE_LATE_MS + 60_000 + RACE_GRACE_MS),
        "the peer's cut is due at most RACE_LATE_MS after the acceptance's limit and grace"
    );
}

#[test]
fn without_an_outage_each_side_takes_the_other_as_starting_with_it() {
    let (mut a, mut b) = common::racing(MINUTE);
    for s in [&mut a, &mut b] {
        s.handle_timeout(60_000);
        assert_eq!(
            s.race().unwrap().deadline(),
            Some(60_000 + RACE_GRACE_MS),
            "the peer's cut is due a grace period after both limits"
        );
    }
}
