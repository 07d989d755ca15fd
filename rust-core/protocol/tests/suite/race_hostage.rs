//! Nobody can keep a race from its result: every race has a time limit (an untimed one is
//! refused, and declined from an older app); a racer plays on while the link is down,
//! however many moves wait for it; and a player who leaves before the end, or whose app
//! comes back without the race, has resigned.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use banco_game::{Color, GameKind, ScoreGame};
use banco_lines::ai;
use banco_protocol::message::{Body, CAP_LINES, DeclineReason, Propose, game_code};
use banco_protocol::race::{RaceEnd, RaceEvent, RaceOptions, RaceResult, proposal_params};
use banco_protocol::seed::SeedShare;
use banco_protocol::{ActionError, Event, LinkDownReason, PROTOCOL_VERSION};
use common::{RawPeer, S, events, session_offering, session_seeded};

const HOUR: RaceOptions = RaceOptions {
    start_balls: 5,
    time_limit_s: 3_600,
    preview: false,
    spawn: banco_lines::SpawnRule::AtAnnouncement,
};

/// Plays `s`'s next race move (the quick hint's, so the board lasts) at `now`.
fn race_move(s: &mut S, now: u64) -> Result<(), banco_protocol::race::RaceError> {
    let race = s.race().unwrap();
    let board = race.board(race.me()).unwrap();
    let mv = ai::hint(board, &ai::Budget::fast(), u64::from(board.turns()))
        .map(|h| h.mv)
        .expect("a move on a board not full");
    s.race_move(mv.from, mv.to, now).map(|_| ())
}

fn race_over(ev: &[Event<u8>]) -> Option<RaceResult> {
    ev.iter().find_map(|e| match e {
        Event::Race(RaceEvent::Over(r)) => Some(r.clone()),
        _ => None,
    })
}

#[test]
fn an_untimed_race_is_refused_and_an_older_apps_one_declined() {
    let untimed = RaceOptions {
        time_limit_s: 0,
        ..HOUR
    };
    let mut a = session_offering("A", 1, &[GameKind::Lines]);
    let mut b = session_offering("B", 2, &[GameKind::Lines]);
    common::link(&mut a, &mut b, 0);
    a.confirm_peer(false).unwrap();
    b.confirm_peer(false).unwrap();
    assert_eq!(untimed.check(), Err(ActionError::RaceUntimed));
    assert_eq!(
        a.propose_race(untimed, Color::Red, 0),
        Err(ActionError::RaceUntimed)
    );
    assert_eq!(a.pending_race(), None);

    // An older app proposes one anyway: declined, with the reason, never shown to accept.
    let mut victim = session_offering("V", 3, &[GameKind::Lines]);
    let mut raw = RawPeer::connect_offering(&mut victim, PROTOCOL_VERSION, CAP_LINES, 0).unwrap();
    victim.confirm_peer(false).unwrap();
    events(&mut victim);
    let share = SeedShare::new([4; 32], victim.session_id().unwrap(), Color::Black);
    let p = Propose {
        game: game_code(GameKind::Lines),
        rules: 0,
        color: Color::Black,
        clock: None,
        fen: None,
        params: proposal_params(&share.commitment(), untimed),
    };
    raw.send(&mut victim, Body::Propose(p), 0);
    let sent = raw.recv(&mut victim);
    assert!(
        sent.contains(&Body::Decline {
            reason: DeclineReason::RACE_UNTIMED
        }),
        "{sent:?}"
    );
    assert!(
        !events(&mut victim)
            .iter()
            .any(|e| matches!(e, Event::Proposed(_)))
    );
    assert_eq!(victim.pending_race(), None);
    assert!(DeclineReason::RACE_UNTIMED.text().contains("time limit"));
}

#[test]
fn a_racer_plays_hundreds_of_moves_while_the_link_is_down_and_all_count_once_it_is_back() {
    let (mut a, mut b) = common::racing(HOUR);
    race_move(&mut a, 1_000).unwrap();
    common::pump(&mut a, &mut b, 1_000);
    a.link_lost(2_000);
    b.link_lost(2_000);
    // Up to 240 moves on A's board during the outage (its own board: none is refused),
    // far beyond the 64 messages other actions may leave waiting; fewer only if the
    // board fills first.
    let mut now = 2_000;
    let mut played = 0;
    for n in 0..240 {
        let race = a.race().unwrap();
        if race.board(race.me()).unwrap().is_over() {
            break;
        }
        now += 100;
        race_move(&mut a, now).unwrap_or_else(|e| panic!("move {n} in the outage: {e}"));
        played += 1;
    }
    // Twice the 64 waiting messages other actions may leave: how far beyond depends on
    // how long the computer's game on this seed lasts (147 moves at cb397ee).
    assert!(
        played > 2 * 64,
        "only {played} moves before the board filled"
    );
    assert!(a.unacked() >= played, "{} moves wait", a.unacked());
    // Other actions still know the usual limit: nothing else piles up behind the race.
    events(&mut a);
    events(&mut b);
    // The link is back: every move arrives, in order, and is checked on B's replica.
    now += 10_000;
    b.connect(now).unwrap();
    a.accept(now).unwrap();
    common::pump(&mut a, &mut b, now);
    // A window of messages at a time, as fast as the receiver's rate limit lets frames in.
    for _ in 0..600 {
        if a.unacked() == 0 {
            break;
        }
        now += 100;
        a.handle_timeout(now);
        b.handle_timeout(now);
        common::pump(&mut a, &mut b, now);
    }
    assert_eq!(a.unacked(), 0);
    let moved = events(&mut b)
        .iter()
        .filter(|e| matches!(e, Event::Race(RaceEvent::OpponentMoved { .. })))
        .count();
    assert_eq!(moved, played);
    let (ra, rb) = (a.race().unwrap(), b.race().unwrap());
    assert_eq!(ra.board(Color::Red).unwrap().turns(), played as u32 + 1);
    assert_eq!(
        ra.board(Color::Red),
        rb.board(Color::Red),
        "B's replica is A's board"
    );
    assert!(
        ra.result().is_none() && rb.result().is_none(),
        "the race goes on"
    );
}

/// A race three moves in on each side, its link lost; then B's app is killed and started
/// again (same key, no match) and linked to A again, B dialling or A dialling it: A's
/// events, A and the new B.
fn b_restarted_mid_race(b_dials: bool) -> (Vec<Event<u8>>, S, S) {
    let (mut a, mut b) = common::racing(HOUR);
    for t in [1_000, 2_000, 3_000] {
        race_move(&mut a, t).unwrap();
        race_move(&mut b, t).unwrap();
        common::pump(&mut a, &mut b, t);
    }
    events(&mut a);
    a.link_lost(4_000);
    b.link_lost(4_000);
    events(&mut a);
    let mut again = session_seeded("B", 2, 77, &[GameKind::Lines]);
    if b_dials {
        again.connect(8_000).unwrap();
        a.accept(8_000).unwrap();
        common::pump(&mut again, &mut a, 8_000);
    } else {
        a.connect(8_000).unwrap();
        again.accept(8_000).unwrap();
        common::pump(&mut a, &mut again, 8_000);
    }
    (events(&mut a), a, again)
}

/// After [`b_restarted_mid_race`]: A's race ends at once with B's resignation, told
/// before the link goes down, and the restarted B has no race.
fn assert_b_resigned(b_dials: bool) {
    let (ev, a, again) = b_restarted_mid_race(b_dials);
    let over = race_over(&ev).expect("A's race ends with a result");
    assert_eq!(over.end, RaceEnd::Resigned(Color::Black));
    assert_eq!(over.winner, Some(Color::Red));
    assert_eq!(over.turns, [3, 3]);
    let (over_at, down_at) = (
        ev.iter()
            .position(|e| matches!(e, Event::Race(RaceEvent::Over(_))))
            .unwrap(),
        ev.iter()
            .position(|e| {
                *e == Event::LinkDown {
                    reason: LinkDownReason::PeerRestarted,
                }
            })
            .expect("the match ends"),
    );
    assert!(over_at < down_at, "the result comes first: {ev:?}");
    assert_eq!(a.race().unwrap().result(), Some(&over));
    // The restarted side has no race.
    assert!(again.race().is_none());
}

#[test]
fn a_player_whose_app_restarted_without_the_race_has_resigned() {
    assert_b_resigned(true);
}

/// The same when the side that restarted is the one listening and the other dials it
/// again: the dialler finishes its handshake first and sends its `Resume` at once, so the
/// restarted side may read it before sending its own, which alone says it has no session
/// (a driver that reads both frames before sending, as `pump` does). That `Resume` still
/// goes out: the dialler learns of the restart and its race ends at once as a resignation,
/// not at the peer's limit and grace on the scores.
#[test]
fn a_restarted_listener_redialled_has_resigned_too() {
    assert_b_resigned(false);
}

#[test]
fn leaving_before_the_end_forfeits_the_race_even_with_a_full_board() {
    // B leaves mid-race: it resigned.
    let (mut a, mut b) = common::racing(HOUR);
    race_move(&mut a, 1_000).unwrap();
    race_move(&mut b, 1_000).unwrap();
    common::pump(&mut a, &mut b, 1_000);
    events(&mut a);
    b.close(2_000);
    common::pump(&mut a, &mut b, 2_000);
    let over = race_over(&events(&mut a)).expect("a result, not a void race");
    assert_eq!(over.end, RaceEnd::Resigned(Color::Black));
    assert_eq!(over.winner, Some(Color::Red));

    // A's board is full (it can play no more, nor resign) while B idles: A need not
    // wait for the hour, but leaving forfeits — B gets the result, and the win.
    let (mut a, mut b) = common::racing(HOUR);
    let mut now = 1_000;
    while !a.race().unwrap().is_done(Color::Red) {
        let race = a.race().unwrap();
        let (from, to) = race.board(Color::Red).unwrap().any_move().unwrap();
        a.race_move(from, to, now).unwrap();
        now += 100;
    }
    common::pump(&mut a, &mut b, now);
    assert!(
        a.race().unwrap().result().is_none(),
        "B's board is not full"
    );
    assert_eq!(
        a.race_resign(now),
        Err(banco_protocol::race::RaceError::Final)
    );
    events(&mut b);
    a.close(now);
    common::pump(&mut a, &mut b, now);
    let over = race_over(&events(&mut b)).expect("B gets a result");
    assert_eq!(over.end, RaceEnd::Resigned(Color::Red));
    assert_eq!(over.winner, Some(Color::Black));
    assert_eq!(
        over.turns[0],
        a.race().unwrap().board(Color::Red).unwrap().turns()
    );
}
