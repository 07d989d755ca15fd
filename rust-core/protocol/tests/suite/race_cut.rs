//! A timed race whose link is down past the grace period on both sides: each side first
//! ends the race on what it received, and once the link is back the cuts (`RaceCut`) make
//! both sides count the same boards and agree on the result. A cut that counts more moves
//! than were played is caught; a cut before our own time is up waits for it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;
use banco_game::{Color, ScoreGame};
use banco_lines::SpawnRule;
use banco_protocol::message::Body;
use banco_protocol::race::{
    RACE_GRACE_MS, Race, RaceEnd, RaceEvent, RaceFault, RaceOptions, RaceResult,
};

const TIMED: RaceOptions = RaceOptions {
    start_balls: 5,
    time_limit_s: 1,
    preview: false,
    spawn: SpawnRule::AtAnnouncement,
};

fn pair(options: RaceOptions) -> (Race, Race) {
    let (a, b, _) = crate::common::started_races(options, [21; 32], [22; 32], [3; 8]);
    (a, b)
}

/// Plays one move on `r`'s own board at `now`; the message to send.
fn play(r: &mut Race, now: u64) -> Body {
    let (from, to) = r.board(r.me()).unwrap().any_move().unwrap();
    let mut send = Vec::new();
    r.play(from, to, now, &mut send, &mut Vec::new()).unwrap();
    send.pop().unwrap()
}

/// Delivers `msgs` to `r` at `now`; the events.
fn deliver(r: &mut Race, msgs: &[Body], now: u64) -> Vec<RaceEvent> {
    let mut ev = Vec::new();
    for m in msgs {
        match *m {
            Body::RaceMove { turn, from, to } => r.on_move(turn, from, to, now, &mut ev),
            Body::RaceStop { turns } => r.on_stop(turns, &mut ev),
            Body::RaceCut { turns } => r.on_cut(turns, now, &mut ev),
            Body::Resign { ply } => r.on_resign(ply, &mut Vec::new(), &mut ev),
            ref other => panic!("unexpected {other:?}"),
        }
    }
    ev
}

fn last_over(ev: &[RaceEvent]) -> Option<RaceResult> {
    ev.iter().rev().find_map(|e| match e {
        RaceEvent::Over(r) => Some(r.clone()),
        _ => None,
    })
}

#[test]
fn a_link_down_past_the_grace_period_ends_with_one_result_once_it_is_back() {
    let (mut a, mut b) = pair(TIMED);
    // Two moves each, delivered.
    for t in 0..2 {
        let ma = play(&mut a, 10 + t);
        let mb = play(&mut b, 10 + t);
        deliver(&mut b, &[ma], 20 + t);
        deliver(&mut a, &[mb], 20 + t);
    }
    // The link goes down: Red plays one more move, Black two; nothing arrives.
    let mut to_b = vec![play(&mut a, 500)];
    let mut to_a = vec![play(&mut b, 500), play(&mut b, 600)];
    // Both times run out; then both grace periods.
    for (r, out) in [(&mut a, &mut to_b), (&mut b, &mut to_a)] {
        let (mut send, mut ev) = (Vec::new(), Vec::new());
        r.tick(1_000, &mut send, &mut ev);
        assert!(ev.contains(&RaceEvent::TimeUp));
        r.tick(1_000 + RACE_GRACE_MS, &mut send, &mut ev);
        assert_eq!(
            send.last(),
            Some(&Body::RaceCut { turns: 2 }),
            "each cut the other at 2"
        );
        out.extend(send);
        assert!(
            last_over(&ev).is_some(),
            "each ends the race on what it has"
        );
    }
    // Each side's first result counts its own unseen moves: they differ.
    let (ra, rb) = (a.result().unwrap().clone(), b.result().unwrap().clone());
    assert_eq!((ra.turns, rb.turns), ([3, 2], [2, 4]));

    // The link is back: the queued messages arrive in order; the cuts settle it.
    let eb = deliver(&mut b, &to_b, 200_000);
    let ea = deliver(&mut a, &to_a, 200_000);
    let (ra, rb) = (last_over(&ea).unwrap(), last_over(&eb).unwrap());
    assert_eq!(ra, rb, "both sides agree");
    assert_eq!(ra.turns, [2, 2]);
    assert_eq!(ra.end, RaceEnd::Finished);
    assert_eq!(a.result(), Some(&ra));
    for c in Color::ALL {
        assert_eq!(a.board(c), b.board(c), "the same {c:?} board on both sides");
    }
    assert_eq!(ra.scores, Color::ALL.map(|c| a.board(c).unwrap().score()));
}

#[test]
fn a_cut_on_one_side_only_still_agrees() {
    let (mut a, mut b) = pair(TIMED);
    let ma = play(&mut a, 10);
    deliver(&mut b, &[ma], 20);
    // Black's second move is lost with the link; Black's stop too. Red's stop arrives.
    let mb = play(&mut b, 30);
    let (mut send_a, mut send_b, mut ev) = (Vec::new(), Vec::new(), Vec::new());
    a.tick(1_000, &mut send_a, &mut ev);
    b.tick(1_000, &mut send_b, &mut ev);
    deliver(&mut b, &send_a, 1_010);
    assert_eq!(
        b.result().unwrap().turns,
        [1, 1],
        "Black ends the race on Red's stop"
    );
    a.tick(1_000 + RACE_GRACE_MS, &mut send_a, &mut ev);
    let first = a.result().unwrap().clone();
    assert_eq!(first.turns, [1, 0]);
    // Back: Black gets the cut (its move and stop crossed it), Red gets Black's move and stop.
    let eb = deliver(&mut b, &[Body::RaceCut { turns: 0 }], 200_000);
    let ea = deliver(&mut a, &[mb, send_b[0].clone()], 200_000);
    assert!(last_over(&ea).is_none(), "Red's result stands");
    assert_eq!(
        last_over(&eb),
        Some(first),
        "Black counts its board where Red cut it"
    );
    assert_eq!(b.board(Color::Black), a.board(Color::Black));
}

#[test]
fn false_cuts_are_caught_and_early_ones_wait() {
    // More moves than were played: cheating.
    let (mut a, _) = pair(TIMED);
    play(&mut a, 10);
    let ev = deliver(&mut a, &[Body::RaceCut { turns: 5 }], 20);
    let over = last_over(&ev).unwrap();
    assert_eq!(
        over.end,
        RaceEnd::Cheated(
            Color::Black,
            RaceFault::BadCut {
                claimed: 5,
                played: 1
            }
        )
    );
    // No time limit: no cut can be honest.
    let untimed = RaceOptions {
        time_limit_s: 0,
        ..TIMED
    };
    let (mut a, _) = pair(untimed);
    let over = last_over(&deliver(&mut a, &[Body::RaceCut { turns: 0 }], 20)).unwrap();
    assert!(matches!(
        over.end,
        RaceEnd::Cheated(Color::Black, RaceFault::BadCut { .. })
    ));
    // Long before the peer's wait for our stop could run out, a "cut" is a claim to
    // erase our moves: cheating, and our moves stand.
    let (mut a, _) = pair(TIMED);
    play(&mut a, 10);
    let over = last_over(&deliver(&mut a, &[Body::RaceCut { turns: 0 }], 20)).unwrap();
    assert!(
        matches!(
            over.end,
            RaceEnd::Cheated(Color::Black, RaceFault::EarlyCut { .. })
        ),
        "{over:?}"
    );
    assert_eq!(a.board(Color::Red).unwrap().turns(), 1);
}

#[test]
fn a_cut_after_a_race_ended_without_the_seed_changes_nothing() {
    // Black's race, accepted at 0, before Red's reveal (the seed not known yet).
    let awaiting = || {
        let (red, black) = common::seed_shares();
        let mut b = common::race_of(Color::Black, TIMED, &black, &red);
        b.accepted(0);
        b
    };
    // Red never revealed, so Black called the race off (NoSeed). A cut Red sends later must
    // not end it again under another reason.
    let mut b = awaiting();
    let mut ev = Vec::new();
    b.tick(10_000_000, &mut Vec::new(), &mut ev);
    let over = last_over(&ev).expect("ended without the seed");
    assert_eq!(over.end, RaceEnd::NoSeed);
    let ev = deliver(&mut b, &[Body::RaceCut { turns: 0 }], 10_001_000);
    assert!(ev.is_empty(), "{ev:?}");
    assert_eq!(b.result(), Some(&over));
    // Nor after the peer resigned before the seed was known.
    let mut resigned = awaiting();
    let ev = deliver(&mut resigned, &[Body::Resign { ply: 0 }], 500);
    let over = last_over(&ev).expect("the peer resigned");
    assert_eq!(over.end, RaceEnd::Resigned(Color::Red));
    let ev = deliver(&mut resigned, &[Body::RaceCut { turns: 0 }], 200_000);
    assert!(ev.is_empty(), "{ev:?}");
    assert_eq!(resigned.result(), Some(&over));
    // Before the race ended, a cut without the seed is a cheat, as before.
    let mut early = awaiting();
    let ev = deliver(&mut early, &[Body::RaceCut { turns: 0 }], 1_000);
    assert_eq!(
        last_over(&ev).map(|r| r.end),
        Some(RaceEnd::Cheated(Color::Red, RaceFault::MoveBeforeSeed))
    );
}

#[test]
fn a_proposer_holding_its_reveal_spends_its_own_time() {
    // Black accepted at 0 (its value went with the acceptance, so Red knew the seed from
    // then, and its transport acknowledged Black's value at once); Red revealed only 100 s
    // later, in a 60 s race. Red's time and grace run from that acknowledgement: by 181 s on
    // Black's clock Red is taken as stopped.
    let options = RaceOptions {
        start_balls: 5,
        time_limit_s: 60,
        preview: false,
        ..RaceOptions::default()
    };
    let (red, black) = common::seed_shares();
    let acceptor = |revealed_at: u64| {
        let mut b = common::race_of(Color::Black, options, &black, &red);
        b.accepted(0);
        b.note_sent(&b.reveal(), 0);
        b.note_acked(1, 1_000);
        b.on_reveal(red.value(), revealed_at, &mut Vec::new());
        b
    };
    let mut late = acceptor(100_000);
    // Our own minute runs from the reveal; Red's grace ends first here.
    assert_eq!(late.deadline(), Some(160_000));
    let mut send = Vec::new();
    late.tick(181_000, &mut send, &mut Vec::new());
    assert!(
        late.is_done(Color::Red),
        "Red's time ran from the acceptance"
    );
    assert!(send.contains(&Body::RaceCut { turns: 0 }), "{send:?}");
    // A proposer that revealed at once keeps its whole grace.
    let mut prompt = acceptor(1_050);
    let mut send = Vec::new();
    prompt.tick(180_000, &mut send, &mut Vec::new());
    assert!(!prompt.is_done(Color::Red));
    assert!(
        !send.iter().any(|b| matches!(b, Body::RaceCut { .. })),
        "{send:?}"
    );
}

#[test]
fn resignations_that_cross_draw_the_race_on_both_sides() {
    for options in [
        TIMED,
        RaceOptions {
            start_balls: 5,
            time_limit_s: 0,
            preview: false,
            ..RaceOptions::default()
        },
    ] {
        let (mut a, mut b) = pair(options);
        let ma = play(&mut a, 10);
        deliver(&mut b, &[ma], 20);
        // Both resign before either resignation arrives.
        let (mut sa, mut sb) = (Vec::new(), Vec::new());
        a.resign(&mut sa, &mut Vec::new()).unwrap();
        b.resign(&mut sb, &mut Vec::new()).unwrap();
        let ra = last_over(&deliver(&mut a, &sb, 30)).expect("red's race ends");
        let rb = last_over(&deliver(&mut b, &sa, 30)).expect("black's race ends");
        assert_eq!(ra, rb);
        assert_eq!(ra.end, RaceEnd::BothResigned);
        assert_eq!(ra.winner, None);
        assert_eq!(ra.turns, [1, 0]);
        if options.time_limit_s > 0 {
            // A cut that drops Red's move, sent late (Black never acknowledged the move):
            // the counts may change, the draw does not.
            let late = 1_000 + RACE_GRACE_MS;
            let ev = deliver(&mut a, &[Body::RaceCut { turns: 0 }], late);
            let after = last_over(&ev).expect("counted again");
            assert_eq!((after.end, after.winner), (RaceEnd::BothResigned, None));
            assert_eq!(after.turns, [0, 0]);
        }
    }
}
