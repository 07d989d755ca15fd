//! A race whose seed does not come in time on one side: that side calls the race off
//! (`RaceEnd::NoSeed`) and says so with an abort, and the other side, which may have raced
//! alone meanwhile, ends the race the same way when the abort arrives — before or after it
//! ended the race on its cut of the silent board. Both keep one result.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common::{self, S};
use crate::race::{race_move, race_over};
use crate::race_start::{accepted, one_way, started};
use banco_game::{Color, ScoreGame};
use banco_lines::SpawnRule;
use banco_protocol::message::{AbortReason, Body};
use banco_protocol::race::{
    RACE_GRACE_MS, RACE_REVEAL_MS, Race, RaceEnd, RaceEvent, RaceOptions, RaceResult,
};
use banco_protocol::seed::SeedShare;

const MINUTE: RaceOptions = RaceOptions {
    start_balls: 5,
    time_limit_s: 60,
    preview: false,
    spawn: SpawnRule::AtAnnouncement,
};

/// Black's wait for Red's value: the agreement (0) plus the longest wait.
const WAIT_MS: u64 = RACE_REVEAL_MS + RACE_GRACE_MS;

/// Red (`a`) proposed, Black (`b`) accepted at 0, and Black's value reached Red (Red's
/// time runs from 0); then the link is down until `back`, Red playing its minute
/// meanwhile, both sessions running their timers every 5 s. The results each side
/// reached while the link was down, then the link comes back.
fn red_alone_until(back: u64) -> (S, S, [Option<RaceResult>; 2]) {
    let (mut a, mut b) = accepted();
    one_way(&mut b, &mut a, 0);
    assert!(started(&mut a));
    a.link_lost(0);
    b.link_lost(0);
    let mut over = [None, None];
    for t in (5_000..back).step_by(5_000) {
        if t < 60_000 {
            race_move(&mut a, t);
        }
        a.handle_timeout(t);
        b.handle_timeout(t);
        for (slot, s) in over.iter_mut().zip([&mut a, &mut b]) {
            assert!(s.poll_transmit().is_none(), "the link is down");
            if let Some(r) = race_over(s) {
                assert!(slot.is_none(), "one end while the link is down: {r:?}");
                *slot = Some(r);
            }
        }
    }
    (a, b, over)
}

fn back(a: &mut S, b: &mut S, now: u64) -> [Option<RaceResult>; 2] {
    b.connect(now).unwrap();
    a.accept(now).unwrap();
    common::pump(a, b, now);
    [race_over(a), race_over(b)]
}

fn called_off() -> RaceResult {
    RaceResult {
        scores: [0, 0],
        turns: [0, 0],
        winner: None,
        end: RaceEnd::NoSeed,
    }
}

#[test]
fn a_reveal_held_up_past_the_wait_calls_the_race_off_on_both_sides() {
    let (mut a, mut b, over) = red_alone_until(200_000);
    // Black called the race off when its wait ran out; Red, its moves played, still waits
    // for the latest Black's start could be.
    assert_eq!(over, [None, Some(called_off())]);
    assert_eq!(a.race().unwrap().board(Color::Red).unwrap().turns(), 11);
    // The link is back: Black's abort reaches Red, which calls the race off too, its
    // minute alone not counted. Red's value, moves and stop reach Black and change nothing.
    let [ra, rb] = back(&mut a, &mut b, 200_000);
    assert_eq!(ra, Some(called_off()), "Red ends as Black did");
    assert_eq!(rb, None, "Black's result stands");
    assert_eq!(a.race().unwrap().result(), b.race().unwrap().result());
    // Both are free for a new race.
    a.propose_race(MINUTE, Color::Red, 201_000).unwrap();
}

#[test]
fn a_race_ended_on_the_cut_is_called_off_when_the_abort_arrives() {
    // The link stays down past Red's cut of Black's board (the latest Black's start could
    // be, plus its minute and the grace period): Red ends the race alone, on time.
    let cut_at = WAIT_MS + 60_000 + RACE_GRACE_MS;
    let (mut a, mut b, over) = red_alone_until(cut_at + 20_000);
    let [Some(alone), Some(black)] = over else {
        panic!("both ended while the link was down: {over:?}")
    };
    assert_eq!(black, called_off());
    assert_eq!(
        (alone.end.clone(), alone.turns),
        (RaceEnd::Finished, [11, 0])
    );
    // Once the link is back, Black's abort revises Red's result: one result on both sides.
    let [ra, rb] = back(&mut a, &mut b, cut_at + 20_000);
    assert_eq!(ra, Some(called_off()));
    assert_eq!(rb, None, "Red's cut changes nothing on Black's side");
    assert_eq!(a.race().unwrap().result(), Some(&called_off()));
}

/// Two races between `red` and `black`, agreed at 0, before either value arrived.
fn awaiting() -> (Race, Race, SeedShare, SeedShare) {
    let session = [5; 8];
    let red = SeedShare::new([31; 32], session, Color::Red);
    let black = SeedShare::new([32; 32], session, Color::Black);
    let mut a = Race::new(Color::Red, MINUTE, red.clone(), black.commitment().to_vec());
    let mut b = Race::new(
        Color::Black,
        MINUTE,
        black.clone(),
        red.commitment().to_vec(),
    );
    a.heard(0);
    b.accepted(0);
    (a, b, red, black)
}

fn over(ev: &[RaceEvent]) -> Option<RaceResult> {
    ev.iter().rev().find_map(|e| match e {
        RaceEvent::Over(r) => Some(r.clone()),
        _ => None,
    })
}

#[test]
fn both_values_held_up_both_sides_call_off_and_the_aborts_change_nothing() {
    let (mut a, mut b, _, _) = awaiting();
    let mut sent = [Vec::new(), Vec::new()];
    let (mut ea, mut eb) = (Vec::new(), Vec::new());
    a.tick(WAIT_MS, &mut sent[0], &mut ea);
    b.tick(WAIT_MS, &mut sent[1], &mut eb);
    for (s, ev) in sent.iter().zip([&ea, &eb]) {
        assert_eq!(over(ev), Some(called_off()));
        assert_eq!(
            s,
            &[Body::Abort {
                reason: AbortReason::NO_SEED
            }]
        );
    }
    let (mut ea, mut eb) = (Vec::new(), Vec::new());
    a.on_abort(&mut ea);
    b.on_abort(&mut eb);
    assert!(ea.is_empty() && eb.is_empty(), "{ea:?} {eb:?}");
    assert_eq!(a.result(), b.result());
}

#[test]
fn an_abort_from_a_peer_that_moved_is_ignored_and_one_before_its_first_move_voids() {
    let (mut a, mut b, red, black) = awaiting();
    let mut ev = Vec::new();
    a.on_reveal(black.value(), 100, &mut ev);
    b.on_reveal(red.value(), 100, &mut ev);
    // Black plays a move, which Red replays: Black knew the seed, so its abort is no
    // honest one (an honest side calls off only without the seed) and is ignored.
    let (from, to) = b.board(Color::Black).unwrap().any_move().unwrap();
    let mut send = Vec::new();
    b.play(from, to, 1_000, &mut send, &mut ev).unwrap();
    let Some(Body::RaceMove { turn, from, to }) = send.pop() else {
        panic!("a move to send")
    };
    a.on_move(turn, from, to, 1_100, &mut ev);
    let mut ev = Vec::new();
    a.on_abort(&mut ev);
    assert!(ev.is_empty(), "{ev:?}");
    assert_eq!(a.result(), None, "the race goes on");
    // Before the peer's first move an abort calls the race off, as the peer's side did:
    // what a modified client gains by it is a void, never a win.
    let (mut a, _, _, black) = awaiting();
    a.on_reveal(black.value(), 100, &mut Vec::new());
    let mut ev = Vec::new();
    a.on_abort(&mut ev);
    assert_eq!(over(&ev), Some(called_off()));
}
