//! The spawn rule of a race ([`RaceOptions::spawn`], [`CAP_LINES_SPOTS`]): two builds that
//! know it race with the spots drawn at announcement; with a peer that does not (an older
//! build's greeting) the race is proposed at landing, in the 3 option bytes that build
//! reads, and both sides play it alike; a proposal without the flag (an older proposer's)
//! is raced at landing.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use banco_game::{Color, GameKind, ScoreGame};
use banco_lines::{LinesGame, SpawnRule, ai};
use banco_protocol::message::{
    Accept, Body, CAP_LINES, CAP_LINES_PREVIEW, CAP_LINES_SPOTS, Propose, caps_of,
};
use banco_protocol::race::{
    RACE_FLAG_PREVIEW, RACE_FLAG_SPOTS, RaceEvent, RaceOptions, parse_proposal_params,
};
use banco_protocol::seed::SeedShare;
use banco_protocol::sim::{RaceSim, play_race};
use banco_protocol::{Event, PROTOCOL_VERSION};
use common::{RawPeer, events, session_offering};

const NEW: RaceOptions = RaceOptions {
    start_balls: 5,
    time_limit_s: 3_600,
    preview: false,
    spawn: SpawnRule::AtAnnouncement,
};

const OLD: RaceOptions = RaceOptions {
    spawn: SpawnRule::AtLanding,
    ..NEW
};

#[test]
fn the_rule_travels_in_the_flags_byte() {
    assert_eq!(RACE_FLAG_SPOTS, 2);
    // 5 balls, 3,600 s (little-endian), then the flags.
    assert_eq!(OLD.encode(), [5, 16, 14], "what every build reads");
    assert_eq!(NEW.encode(), [5, 16, 14, RACE_FLAG_SPOTS]);
    assert_eq!(RaceOptions::decode(&[5, 16, 14]), Ok(OLD));
    assert_eq!(RaceOptions::decode(&[5, 16, 14, 2]), Ok(NEW));
    let both = RaceOptions::decode(&[5, 16, 14, RACE_FLAG_PREVIEW | RACE_FLAG_SPOTS]).unwrap();
    assert!(both.preview && both.spawn == SpawnRule::AtAnnouncement);
    assert_eq!(NEW.settings().spawn, SpawnRule::AtAnnouncement);
    assert_eq!(OLD.settings().spawn, SpawnRule::AtLanding);
    assert_eq!(RaceOptions::default().spawn, SpawnRule::AtAnnouncement);
    // Every build that offers Lines announces the bit.
    assert_eq!(
        caps_of(&[GameKind::Lines]) & CAP_LINES_SPOTS,
        CAP_LINES_SPOTS
    );
}

/// Two sessions of this build: the race is at announcement on both sides, and both
/// sides' boards land the balls on the (hidden) spots.
#[test]
fn two_builds_that_know_it_race_at_announcement() {
    let mut a = session_offering("A", 1, &[GameKind::Lines]);
    let mut b = session_offering("B", 2, &[GameKind::Lines]);
    common::link(&mut a, &mut b, 0);
    a.confirm_peer(false).unwrap();
    b.confirm_peer(false).unwrap();
    a.propose_race(NEW, Color::Red, 0).unwrap();
    common::pump(&mut a, &mut b, 0);
    assert_eq!(b.pending_race(), Some(NEW));
    b.accept_proposal(0).unwrap();
    common::pump(&mut a, &mut b, 0);
    for s in [&mut a, &mut b] {
        assert!(events(s).contains(&Event::Race(RaceEvent::Started { options: NEW })));
        let race = s.race().unwrap();
        assert_eq!(race.options().spawn, SpawnRule::AtAnnouncement);
        for c in Color::ALL {
            let board = race.board(c).unwrap();
            assert_eq!(board.settings().spawn, SpawnRule::AtAnnouncement);
            assert!(board.next_spots().is_empty(), "the spots stay hidden");
        }
    }
    for t in 1..=20u64 {
        for s in [&mut a, &mut b] {
            let race = s.race().unwrap();
            let board = race.board(race.me()).unwrap();
            let spots: Vec<_> = board.state().spots.iter().map_while(|&c| c).collect();
            let mv = ai::greedy_move(board).unwrap();
            let r = s.race_move(mv.from, mv.to, t * 100).unwrap();
            if r.cleared.is_empty() && !spots.contains(&mv.to) {
                let landed: Vec<_> = r.landed.iter().map(|&(c, _)| c).collect();
                assert_eq!(landed, spots);
            }
        }
        common::pump(&mut a, &mut b, t * 100);
    }
    for c in Color::ALL {
        let (ra, rb) = (a.race().unwrap(), b.race().unwrap());
        assert_eq!(ra.board(c), rb.board(c), "{c:?}: both replicas in step");
        assert_eq!(ra.board(c).unwrap().turns(), 20);
    }
    assert!(a.race().unwrap().result().is_none() && b.race().unwrap().result().is_none());
}

/// A peer without the bit (an older build, which reads only the preview's flag) is
/// proposed the race at landing, in bytes it reads, and plays it alike: its own board
/// (the older build's game, at landing) and our replica of it stay in step.
#[test]
fn a_peer_without_the_bit_races_at_landing_in_step() {
    let mut host = session_offering("H", 3, &[GameKind::Lines]);
    let old_caps = CAP_LINES | CAP_LINES_PREVIEW;
    let mut raw = RawPeer::connect_offering(&mut host, PROTOCOL_VERSION, old_caps, 0).unwrap();
    host.confirm_peer(false).unwrap();
    raw.recv(&mut host);
    host.propose_race(NEW, Color::Red, 0).unwrap();
    assert_eq!(host.pending_race(), Some(OLD));
    let propose = raw
        .recv(&mut host)
        .into_iter()
        .find_map(|b| match b {
            Body::Propose(p) => Some(p),
            _ => None,
        })
        .expect("the proposal");
    // The options are the 3 bytes an older build reads (no flag it would refuse).
    assert_eq!(&propose.params[propose.params.len() - 3..], OLD.encode());
    assert_eq!(parse_proposal_params(&propose.params), Ok(OLD));
    // The older build accepts and reveals; the host reveals its value.
    let ours = SeedShare::new([9; 32], host.session_id().unwrap(), Color::Black);
    raw.send(
        &mut host,
        Body::Accept(Accept {
            params: ours.commitment().to_vec(),
        }),
        0,
    );
    let host_value = raw
        .recv(&mut host)
        .into_iter()
        .find_map(|b| match b {
            Body::SeedReveal { value } => Some(value),
            _ => None,
        })
        .expect("the host's reveal");
    raw.send(
        &mut host,
        Body::SeedReveal {
            value: ours.value(),
        },
        0,
    );
    let seed = ours.combine(&propose.params, host_value).unwrap();
    let race = host.race().unwrap();
    assert_eq!(race.options(), OLD);
    // The older build's own board: its game at landing (it has no other rule).
    let mut board = LinesGame::new(OLD.settings(), seed);
    assert_eq!(Some(&board), race.board(Color::Black));
    for turn in 0..30u32 {
        let mv = ai::greedy_move(&board).unwrap();
        board.play(mv).unwrap();
        raw.send(
            &mut host,
            Body::RaceMove {
                turn,
                from: mv.from.index() as u8,
                to: mv.to.index() as u8,
            },
            u64::from(turn) * 100 + 100,
        );
    }
    let replica = host.race().unwrap().board(Color::Black).unwrap();
    assert_eq!(replica, &board, "the replica lands as the older build does");
    assert!(host.race().unwrap().result().is_none(), "no cheat seen");
    let evs = events(&mut host);
    assert_eq!(
        evs.iter()
            .filter(|e| matches!(e, Event::Race(RaceEvent::OpponentMoved { .. })))
            .count(),
        30
    );
}

/// An older build's proposal (3 option bytes) is raced at landing by this build.
#[test]
fn an_older_proposer_is_raced_at_landing() {
    let mut victim = session_offering("V", 3, &[GameKind::Lines]);
    let mut raw = RawPeer::connect_offering(&mut victim, PROTOCOL_VERSION, CAP_LINES, 0).unwrap();
    victim.confirm_peer(false).unwrap();
    let share = SeedShare::new([21; 32], victim.session_id().unwrap(), Color::Black);
    let mut params = share.commitment().to_vec();
    params.extend_from_slice(&OLD.encode());
    raw.send(
        &mut victim,
        Body::Propose(Propose {
            game: banco_protocol::message::game_code(GameKind::Lines),
            rules: 0,
            color: Color::Black,
            clock: None,
            fen: None,
            params,
        }),
        0,
    );
    assert_eq!(victim.pending_race(), Some(OLD));
}

/// Whole races between two sessions of this build over the faulty link, at announcement:
/// equal boards and equal results on both sides.
#[test]
fn races_at_announcement_over_a_faulty_link_stay_in_step() {
    for seed in 1..=3 {
        let report = play_race(&RaceSim {
            options: NEW,
            ..RaceSim::new(seed)
        });
        assert!(report.is_clean(), "seed {seed}: {report:?}");
    }
}
