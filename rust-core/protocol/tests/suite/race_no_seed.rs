//! A race whose seed does not come in time on one side: that side calls the race off
//! (`RaceEnd::NoSeed`) and says so with an abort, and the other side, which may have raced
//! alone meanwhile, ends the race the same way when the abort arrives — before or after it
//! ended the race on its cut of the silent board. Both keep one result.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common::{self, RawPeer, S, events};
use crate::race::{race_move, race_over, victim_and_racer, victim_and_racer_with};
use crate::race_start::{accepted, one_way, started};
use banco_game::{Color, GameKind, ScoreGame};
use banco_lines::SpawnRule;
use banco_protocol::Event;
use banco_protocol::message::{
    AbortReason, Body, CAP_LINES, CAP_LINES_NO_SEED, CAP_XIANGQI, Propose, game_code,
};
use banco_protocol::race::{
    RACE_GRACE_MS, RACE_LATE_MS, RACE_REVEAL_MS, Race, RaceEnd, RaceEvent, RaceOptions, RaceResult,
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

/// The raw peer pings `victim` every 5 s from `from`, its timers running, until the race
/// is over (within ten minutes): the result and when.
fn ping_until_over(victim: &mut S, raw: &mut RawPeer, from: u64) -> (RaceResult, u64) {
    let mut t = from;
    while t < 600_000 {
        t += 5_000;
        raw.send(victim, Body::Ping, t);
        victim.handle_timeout(t);
        raw.recv(victim);
        if let Some(over) = race_over(victim) {
            return (over, t);
        }
    }
    panic!("the race is not over after ten minutes")
}

/// The raw peer (Black) proposes xiangqi at `now` and `victim` accepts: a board game runs.
fn board_game_follows(victim: &mut S, raw: &mut RawPeer, now: u64) {
    let propose = Propose {
        game: game_code(GameKind::Xiangqi),
        rules: 0,
        color: Color::Black,
        clock: None,
        fen: None,
        params: Vec::new(),
    };
    raw.send(victim, Body::Propose(propose), now);
    assert!(
        events(victim)
            .iter()
            .any(|e| matches!(e, Event::Proposed(s) if s.game == GameKind::Xiangqi))
    );
    victim.accept_proposal(now).unwrap();
    raw.recv(victim);
    events(victim);
    assert!(victim.game().is_some() && victim.outcome().is_none());
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
    let (red, black) = common::seed_shares();
    let mut a = common::race_of(Color::Red, MINUTE, &red, &black);
    let mut b = common::race_of(Color::Black, MINUTE, &black, &red);
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

/// Red's race of `options`, agreed at 0, started at 100 by Black's value; with `noted`,
/// its own reveal went out as message 0 of its stream (unacknowledged).
fn red_started(options: RaceOptions, noted: bool) -> Race {
    let (red, black) = common::seed_shares();
    let mut a = common::race_of(Color::Red, options, &red, &black);
    a.heard(0);
    if noted {
        let reveal = a.reveal();
        a.note_sent(&reveal, 0);
    }
    a.on_reveal(black.value(), 100, &mut Vec::new());
    a
}

/// `a` hears the peer every 5 s from 5 s to `until`.
fn hear_until(a: &mut Race, until: u64) {
    for t in (5_000..=until).step_by(5_000) {
        a.heard(t);
    }
}

/// The peer's call-off reaches `a` at `now`: the events.
fn abort(a: &mut Race, now: u64) -> Vec<RaceEvent> {
    let mut ev = Vec::new();
    a.on_abort(now, &mut ev);
    ev
}

/// `a` hears the peer until `heard_until`, then nothing until the link is `back`, with the
/// peer's call-off: the result it reaches.
fn abort_on_return(a: &mut Race, heard_until: u64, back: u64) -> Option<RaceResult> {
    hear_until(a, heard_until);
    a.heard(back);
    over(&abort(a, back))
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
    assert_eq!(abort(&mut a, WAIT_MS + 100), []);
    assert_eq!(abort(&mut b, WAIT_MS + 100), []);
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
    assert_eq!(abort(&mut a, 2_000), []);
    assert_eq!(a.result(), None, "the race goes on");
    // Before the peer's first move an abort calls the race off, as the peer's side did:
    // what a modified client gains by it is a void, never a win.
    let mut a = red_started(MINUTE, false);
    assert_eq!(over(&abort(&mut a, 2_000)), Some(called_off()));
}

#[test]
fn an_abort_later_than_an_honest_one_can_be_is_ignored() {
    // Black had the seed at 100 and never moved; the link stayed up (a frame every 5 s).
    // Its call-off after the longest wait, the latest allowance and no outage, is no held-up
    // reveal's: the race goes on to its end (a void only while a held-up reveal explains it).
    let mut a = red_started(MINUTE, false);
    let latest = WAIT_MS + RACE_LATE_MS;
    hear_until(&mut a, latest + 5_000);
    assert_eq!(abort(&mut a, latest + 5_000), []);
    assert_eq!(a.result(), None);
    // The same abort after an outage that began before it was due is in time: the link
    // was down from 60 s to five minutes, and the abort comes with its return.
    let mut a = red_started(MINUTE, false);
    assert_eq!(abort_on_return(&mut a, 60_000, 300_000), Some(called_off()));
}

#[test]
fn a_peer_that_resigned_before_the_seed_and_then_called_off_ends_called_off() {
    // Black resigned before it had Red's value (Red counted the resignation), then its wait
    // ran out and it called the race off: Red's result follows Black's.
    let mut a = red_started(MINUTE, false);
    let mut ev = Vec::new();
    a.on_resign(0, &mut Vec::new(), &mut ev);
    assert_eq!(
        over(&ev).map(|r| r.end),
        Some(RaceEnd::Resigned(Color::Black))
    );
    assert_eq!(over(&abort(&mut a, WAIT_MS)), Some(called_off()));
}

#[test]
fn a_reveal_after_the_wait_ran_out_finds_the_race_called_off() {
    // Red accepted at 0; its timers did not run (the app asleep) until Black's value
    // arrived at 200 s, past the longest wait: the race is called off, as Red would have
    // at 150 s, and Black is told.
    let (mut victim, mut raw, share, _) = victim_and_racer_with(
        [41; 32],
        MINUTE,
        &[GameKind::Lines],
        CAP_LINES | CAP_LINES_NO_SEED,
    );
    raw.send(
        &mut victim,
        Body::SeedReveal {
            value: share.value(),
        },
        200_000,
    );
    assert_eq!(race_over(&mut victim), Some(called_off()));
    assert!(!victim.race().unwrap().is_started());
    assert!(raw.recv(&mut victim).contains(&Body::Abort {
        reason: AbortReason::NO_SEED
    }));
    // In time, the same value starts the race.
    let (mut victim, mut raw, share, _) = victim_and_racer([42; 32], MINUTE);
    let value = share.value();
    raw.send(&mut victim, Body::SeedReveal { value }, 20_000);
    assert!(victim.race().unwrap().is_started());
}

#[test]
fn an_abort_after_a_later_game_began_is_dropped_and_the_game_goes_on() {
    let caps = CAP_LINES | CAP_LINES_NO_SEED | CAP_XIANGQI;
    let offers = [GameKind::Lines, GameKind::Xiangqi];
    let (mut victim, mut raw, share, _) = victim_and_racer_with([43; 32], MINUTE, &offers, caps);
    let value = share.value();
    raw.send(&mut victim, Body::SeedReveal { value }, 1_000);
    raw.send(&mut victim, Body::Resign { ply: 0 }, 2_000);
    let over = race_over(&mut victim).expect("the peer resigned");
    assert_eq!(over.end, RaceEnd::Resigned(Color::Black));
    raw.recv(&mut victim);
    // A board game follows: the peer proposes, the victim accepts.
    board_game_follows(&mut victim, &mut raw, 3_000);
    // A call-off now belongs to no race (an honest one comes before the proposal): it is
    // dropped, neither revising the race nor ending the board game, and not answered.
    let abort = Body::Abort {
        reason: AbortReason::NO_SEED,
    };
    raw.send(&mut victim, abort, 4_000);
    let ev = events(&mut victim);
    assert!(ev.is_empty(), "{ev:?}");
    assert_eq!(victim.race().unwrap().result(), Some(&over));
    assert!(victim.game().is_some() && victim.outcome().is_none());
    let answered = raw.recv(&mut victim);
    assert!(
        answered.iter().all(|b| matches!(b, Body::Ack)),
        "{answered:?}"
    );
}

#[test]
fn a_resignation_crossing_the_call_off_is_not_answered_as_unexpected() {
    // Red accepted at 0 and called the race off when Black's value did not come (Black's
    // app pinging all along); Black, not told yet, resigned. Its resignation belongs to the
    // race called off: dropped.
    let (mut victim, mut raw, _, _) = victim_and_racer_with(
        [44; 32],
        MINUTE,
        &[GameKind::Lines],
        CAP_LINES | CAP_LINES_NO_SEED,
    );
    let (over, t) = ping_until_over(&mut victim, &mut raw, 0);
    assert!(t < WAIT_MS, "called off within the wait");
    assert_eq!(over, called_off());
    raw.send(&mut victim, Body::Resign { ply: 0 }, t + 1_000);
    let ev = events(&mut victim);
    assert!(ev.is_empty(), "{ev:?}");
    let answered = raw.recv(&mut victim);
    assert!(
        !answered.iter().any(|b| matches!(b, Body::Error { .. })),
        "{answered:?}"
    );
}

#[test]
fn in_a_short_race_a_silence_after_the_moves_were_due_still_holds_up_the_abort() {
    // A race of one second: Red started at 100 and its reveal went out (unacknowledged).
    // Black was heard until 20 s, then nothing until five minutes (the link down one way):
    // the silence began after Black's moves were due, but its abort could be held up by
    // it, and arrives with the link's return.
    let short = RaceOptions {
        time_limit_s: 1,
        ..MINUTE
    };
    let mut a = red_started(short, true);
    assert_eq!(abort_on_return(&mut a, 20_000, 300_000), Some(called_off()));
}

#[test]
fn a_peer_that_acknowledged_our_reveal_can_call_off_only_just_after() {
    // Red's reveal, acknowledged at 500: an honest Black would have queued its call-off
    // before that acknowledgement, so one 20 s later (the link up) is ignored.
    let mut a = red_started(MINUTE, true);
    a.note_acked(1, 500);
    hear_until(&mut a, 20_000);
    assert_eq!(abort(&mut a, 20_000), []);
    assert_eq!(a.result(), None);
    // Within RACE_LATE_MS of the acknowledgement (its call-off sent again after a loss),
    // it counts.
    let mut a = red_started(MINUTE, true);
    a.note_acked(1, 500);
    hear_until(&mut a, 5_000);
    assert_eq!(over(&abort(&mut a, 5_000)), Some(called_off()));
}

#[test]
fn a_board_games_resignation_after_a_race_ended_on_the_cut_reaches_the_board_game() {
    // Red (the victim) accepted at 0; Black revealed at 1 s and then played nothing, its
    // app pinging: Red ends the race on its cut of Black's board.
    let caps = CAP_LINES | CAP_LINES_NO_SEED | CAP_XIANGQI;
    let offers = [GameKind::Lines, GameKind::Xiangqi];
    let (mut victim, mut raw, share, _) = victim_and_racer_with([45; 32], MINUTE, &offers, caps);
    let value = share.value();
    raw.send(&mut victim, Body::SeedReveal { value }, 1_000);
    let (over, t) = ping_until_over(&mut victim, &mut raw, 1_000);
    assert_eq!((over.end.clone(), over.turns), (RaceEnd::Finished, [0, 0]));
    // A board game follows; the peer resigns it. The resignation is the board game's, not
    // a late one of the race's: the game ends and the race's result stands.
    board_game_follows(&mut victim, &mut raw, t + 1_000);
    raw.send(&mut victim, Body::Resign { ply: 0 }, t + 2_000);
    assert!(victim.outcome().is_some(), "the board game is over");
    assert_eq!(victim.race().unwrap().result(), Some(&over));
}
