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
use banco_protocol::race::{
    RACE_GRACE_MS, RACE_LATE_MS, RACE_REVEAL_MS, Race, RaceEnd, RaceEvent, RaceFault, RaceOptions,
};
use banco_protocol::seed::SeedShare;

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
pub(crate) fn accepted() -> (S, S) {
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
pub(crate) fn one_way(from: &mut S, to: &mut S, now: u64) {
    while let Some(f) = from.poll_transmit() {
        to.handle_datagram(&f, now);
    }
}

pub(crate) fn started(s: &mut S) -> bool {
    events(s)
        .iter()
        .any(|e| matches!(e, Event::Race(RaceEvent::Started { .. })))
}

/// The link is down from 0 to `OUTAGE_MS`: both sessions run their timers every 5 s
/// meanwhile (`before` runs first at each step: a player's moves); then the link comes back
/// and everything queued gets through.
fn outage(a: &mut S, b: &mut S, mut before: impl FnMut(&mut S, &mut S, u64)) {
    a.link_lost(0);
    b.link_lost(0);
    for t in (5_000..OUTAGE_MS).step_by(5_000) {
        before(a, b, t);
        a.handle_timeout(t);
        b.handle_timeout(t);
        for s in [&mut *a, &mut *b] {
            assert!(s.poll_transmit().is_none(), "the link is down");
            assert!(race_over(s).is_none(), "nobody gives up within the wait");
        }
    }
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
pub(crate) fn run_to_the_end(a: &mut S, b: &mut S) -> [banco_protocol::race::RaceResult; 2] {
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
    // Black's acceptance and value reach Red: Red's time runs from 0. Then the link goes
    // down before Red's value gets out: Black's time starts only when the link is back.
    one_way(&mut b, &mut a, 0);
    assert!(started(&mut a));
    outage(&mut a, &mut b, |a, _, t| {
        // Red plays its minute meanwhile: its moves wait for the link.
        if t < 60_000 {
            race_move(a, t);
        }
    });
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
    // Black's acceptance and value wait for the link: Red starts only when they arrive,
    // and Black when Red's value answers them.
    outage(&mut a, &mut b, |_, _, _| {});
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

// ----- the bounds on the peer's start, on one side's race -----------------------------

/// Red's and Black's shares of one session's seed.
fn shares() -> (SeedShare, SeedShare) {
    let session = [4; 8];
    (
        SeedShare::new([41; 32], session, Color::Red),
        SeedShare::new([42; 32], session, Color::Black),
    )
}

/// Black's race, having accepted Red's proposal of `seconds` at 0 and queued its value as
/// message 0 of its stream.
fn acceptor(seconds: u16) -> (Race, SeedShare) {
    let (red, black) = shares();
    let options = RaceOptions {
        time_limit_s: seconds,
        ..MINUTE
    };
    let mut b = Race::new(Color::Black, options, black, red.commitment().to_vec());
    b.accepted(0);
    b.note_sent(&b.reveal(), 0);
    (b, red)
}

/// `b` hears its peer every 5 s from `from` to `to` (pings: a link up).
fn pings(b: &mut Race, from: u64, to: u64) {
    for t in (from..=to).step_by(5_000) {
        b.heard(t);
    }
}

#[test]
fn an_outage_that_held_up_the_start_is_not_counted_again_for_the_moves() {
    // Red has Black's value at 0, falls silent until 139 s, then reveals and acknowledges:
    // it is taken as starting at 139 s, so its two-minute limit is at 259 s. That outage
    // is made up for by the later limit: a move at 270 s, the link up since, is late.
    let (mut b, red) = acceptor(120);
    b.heard(139_000);
    b.on_reveal(red.value(), 139_000, &mut Vec::new());
    b.note_acked(1, 139_000);
    pings(&mut b, 144_000, 269_000);
    assert_eq!(first_move_at(&mut b, 270_000), late_by(Color::Red, 11));
}

/// The peer's first move, any legal one, arriving at `now` (heard then): how the race
/// ended on it, if it did.
fn first_move_at(r: &mut Race, now: u64) -> Option<RaceEnd> {
    let peer = r.me().other();
    let (from, to) = r.board(peer).unwrap().any_move().unwrap();
    let mut ev = Vec::new();
    r.heard(now);
    r.on_move(0, u8::from(from), u8::from(to), now, &mut ev);
    ev.into_iter().find_map(|e| match e {
        RaceEvent::Over(r) => Some(r.end),
        _ => None,
    })
}

/// The end of a race whose `peer` moved `late_s` seconds after its time was up.
fn late_by(peer: Color, late_s: u64) -> Option<RaceEnd> {
    Some(RaceEnd::Cheated(
        peer,
        RaceFault::MoveAfterTimeUp { turn: 0, late_s },
    ))
}

#[test]
fn an_outage_that_held_up_both_starts_is_counted_once_on_the_proposers_side_too() {
    // Red proposed; Black's acceptance arrived at 0, its value only at 100 s (silent
    // meanwhile): Red starts at 100 s, and Black's acknowledgement of Red's value, in the
    // same envelope, says Black started by then. Black's two minutes end at 220 s: a move
    // at 231 s, the link up since, is late — the outage is not counted again.
    let (red, black) = shares();
    let options = RaceOptions {
        time_limit_s: 120,
        ..MINUTE
    };
    let mut a = Race::new(Color::Red, options, red, black.commitment().to_vec());
    a.heard(0);
    a.note_sent(&a.reveal(), 0);
    a.heard(100_000);
    a.on_reveal(black.value(), 100_000, &mut Vec::new());
    a.note_acked(1, 100_000);
    pings(&mut a, 105_000, 230_000);
    assert_eq!(first_move_at(&mut a, 231_000), late_by(Color::Black, 11));
}

#[test]
fn an_outage_later_in_the_race_cannot_move_the_peers_start() {
    // Red plays from 5 s on but never acknowledges Black's value; silent from 100 s, it
    // acknowledges it at 239 s. Its first move showed it had started by 5 s: its cut stays
    // due at 5 + 120 + 120 s.
    let (mut b, red) = acceptor(120);
    b.heard(1_000);
    b.on_reveal(red.value(), 1_000, &mut Vec::new());
    b.heard(5_000);
    let (from, to) = b.board(Color::Red).unwrap().any_move().unwrap();
    b.on_move(0, u8::from(from), u8::from(to), 5_000, &mut Vec::new());
    pings(&mut b, 10_000, 100_000);
    b.tick(121_000, &mut Vec::new(), &mut Vec::new());
    assert!(b.is_done(Color::Black), "our time is up");
    let due = 5_000 + 2 * RACE_GRACE_MS;
    assert_eq!(b.deadline(), Some(due));
    b.heard(239_000);
    b.note_acked(1, 239_000);
    assert_eq!(
        b.deadline(),
        Some(due),
        "the late acknowledgement changes nothing"
    );
    // Without a move, the outage after the reveal was due does not count either: the
    // start is bounded by the agreement plus RACE_LATE_MS.
    let (mut b, red) = acceptor(120);
    b.heard(1_000);
    b.on_reveal(red.value(), 1_000, &mut Vec::new());
    pings(&mut b, 5_000, 100_000);
    b.heard(239_000);
    b.note_acked(1, 239_000);
    b.tick(121_000, &mut Vec::new(), &mut Vec::new());
    assert_eq!(b.deadline(), Some(RACE_LATE_MS + 120_000 + RACE_GRACE_MS));
}

#[test]
fn in_a_short_race_the_cut_waits_for_a_start_held_up_longer_than_the_race() {
    // Red (the proposer) starts at 0 in a 20 s race; the link is down from then on, its
    // value not acknowledged. Black may start as late as its wait for a reveal allows: Red
    // cuts it no sooner than that wait, Black's 20 s and the grace period.
    let (red, black) = shares();
    let options = RaceOptions {
        time_limit_s: 20,
        ..MINUTE
    };
    let mut a = Race::new(Color::Red, options, red, black.commitment().to_vec());
    a.heard(0);
    a.note_sent(&a.reveal(), 0);
    a.on_reveal(black.value(), 0, &mut Vec::new());
    a.tick(20_000, &mut Vec::new(), &mut Vec::new());
    let latest = RACE_REVEAL_MS + RACE_GRACE_MS + 20_000 + RACE_GRACE_MS;
    assert_eq!(a.deadline(), Some(latest));
    let mut send = Vec::new();
    a.tick(140_000, &mut send, &mut Vec::new());
    assert!(
        send.is_empty() && !a.is_done(Color::Black),
        "no cut at 140 s"
    );
    // The link is back at 145 s with Black's acknowledgement: it started then.
    a.heard(145_000);
    a.note_acked(1, 145_000);
    assert_eq!(a.deadline(), Some(145_000 + 20_000 + RACE_GRACE_MS));
}
