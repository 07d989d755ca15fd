//! The Lines race with Lines 98's preview ([`RaceOptions::preview`]): a classic race's
//! option bytes unchanged, a flags byte for the preview (unknown flags refused); both boards
//! and both replicas show the spots and land the balls on them, over the faulty link too;
//! a peer whose balls landed off their spots is caught by its next impossible move.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use banco_game::{Color, GameKind, ScoreGame};
use banco_lines::{LinesGame, SpawnRule, ai};
use banco_protocol::message::{
    Accept, Body, CAP_LINES, CAP_LINES_PREVIEW, DeclineReason, Envelope, Propose, caps_of,
    game_code,
};
use banco_protocol::race::{
    RACE_FLAG_PREVIEW, Race, RaceEnd, RaceEvent, RaceFault, RaceOptions, RaceParamsError,
    parse_proposal_params, proposal_params,
};
use banco_protocol::seed::SeedShare;
use banco_protocol::sim::{RaceSim, play_race};
use banco_protocol::{ActionError, Event, PROTOCOL_VERSION};
use common::{RawPeer, events, session_offering};

const PREVIEW: RaceOptions = RaceOptions {
    start_balls: 5,
    time_limit_s: 300,
    preview: true,
    spawn: SpawnRule::AtLanding,
};

const CLASSIC: RaceOptions = RaceOptions {
    preview: false,
    ..PREVIEW
};

#[test]
fn a_classic_race_keeps_three_option_bytes_and_the_preview_adds_a_flags_byte() {
    assert_eq!(
        CLASSIC.encode(),
        [5, 0x2c, 0x01],
        "a classic race's bytes unchanged"
    );
    assert_eq!(PREVIEW.encode(), [5, 0x2c, 0x01, RACE_FLAG_PREVIEW]);
    assert_eq!(RACE_FLAG_PREVIEW, 1);
    assert_eq!(RaceOptions::decode(&[5, 0x2c, 0x01]), Ok(CLASSIC));
    assert_eq!(RaceOptions::decode(&[5, 0x2c, 0x01, 0]), Ok(CLASSIC));
    assert_eq!(RaceOptions::decode(&[5, 0x2c, 0x01, 1]), Ok(PREVIEW));
    for bad in [
        &[5, 0x2c, 0x01, 4][..],
        &[5, 0x2c, 0x01, 7],
        &[5, 0x2c, 0x01, 0x80],
        &[5, 0x2c, 0x01, 1, 0],
        &[4, 0x2c, 0x01, 1],
        &[5, 0x2c],
    ] {
        assert_eq!(
            RaceOptions::decode(bad),
            Err(RaceParamsError::BadOptions),
            "{bad:?}"
        );
    }
    let share = SeedShare::new([1; 32], [2; 8], Color::Red);
    let classic = proposal_params(&share.commitment(), CLASSIC);
    let preview = proposal_params(&share.commitment(), PREVIEW);
    assert_eq!((classic.len(), preview.len()), (36, 37));
    assert_eq!(parse_proposal_params(&classic), Ok(CLASSIC));
    assert_eq!(parse_proposal_params(&preview), Ok(PREVIEW));
    assert!(PREVIEW.settings().preview && !CLASSIC.settings().preview);
    assert!(PREVIEW.check().is_ok());
    // The proposal in an envelope: one byte more than a classic race's 44.
    let propose = Envelope::new(
        0,
        0,
        Body::Propose(Propose {
            game: game_code(GameKind::Lines),
            rules: 0,
            color: Color::Red,
            clock: None,
            fen: None,
            params: preview,
        }),
    );
    let bytes = propose.encode();
    assert_eq!(bytes.len(), 45);
    assert_eq!(&bytes[41..], [5, 0x2c, 0x01, 1]);
    assert_eq!(Envelope::decode(&bytes).unwrap(), propose);
}

/// A raw peer (Black) proposes a race with `options_bytes` after its commitment to a
/// session of `victim`: what the victim answered, and the victim.
fn propose_raw(options_bytes: &[u8]) -> (common::S, RawPeer, SeedShare, Vec<Body>) {
    let mut victim = session_offering("V", 3, &[GameKind::Lines]);
    let mut raw = RawPeer::connect_offering(&mut victim, PROTOCOL_VERSION, CAP_LINES, 0).unwrap();
    victim.confirm_peer(false).unwrap();
    let share = SeedShare::new([21; 32], victim.session_id().unwrap(), Color::Black);
    let mut params = share.commitment().to_vec();
    params.extend_from_slice(options_bytes);
    let p = Propose {
        game: game_code(GameKind::Lines),
        rules: 0,
        color: Color::Black,
        clock: None,
        fen: None,
        params,
    };
    raw.send(&mut victim, Body::Propose(p), 0);
    let sent = raw.recv(&mut victim);
    (victim, raw, share, sent)
}

#[test]
fn a_proposal_with_the_preview_reaches_the_acceptor_and_an_unknown_flag_is_declined() {
    let (victim, ..) = propose_raw(&PREVIEW.encode());
    assert_eq!(victim.pending_race(), Some(PREVIEW));
    let (victim, ..) = propose_raw(&[5, 0x2c, 0x01]);
    assert_eq!(victim.pending_race(), Some(CLASSIC));
    for flags in [4, 0xfe, 0xff] {
        let (victim, _, _, sent) = propose_raw(&[5, 0x2c, 0x01, flags]);
        assert!(
            sent.contains(&Body::Decline {
                reason: DeclineReason::BAD_PARAMS
            }),
            "flags {flags}: {sent:?}"
        );
        assert_eq!(victim.pending_race(), None);
    }
}

/// Two races from one pair of seed shares, started.
fn pair(options: RaceOptions) -> (Race, Race) {
    let (a, b, events) = common::started_races(options, [1; 32], [2; 32], [7; 8]);
    assert!(
        events
            .iter()
            .all(|e| matches!(e, RaceEvent::Started { options: o } if *o == options))
    );
    (a, b)
}

/// `mover` plays `turns` greedy moves, each replayed by `other`; both must hold the same
/// board after each. Returns how many turns landed their balls on the spots shown.
fn play_replayed(mover: &mut Race, other: &mut Race, turns: u32) -> u32 {
    let me = mover.me();
    let mut on_spots = 0;
    for turn in 0..turns {
        let game = mover.board(me).unwrap();
        let Some(mv) = ai::greedy_move(game) else {
            break;
        };
        let (spots, colors) = (game.next_spots(), game.next_colors());
        assert_eq!(spots.len(), 3, "the spots are shown on our board");
        assert_eq!(
            other.board(me).unwrap().next_spots(),
            spots,
            "and on the replica"
        );
        let (mut send, mut events) = (Vec::new(), Vec::new());
        let report = mover
            .play(mv.from, mv.to, 10, &mut send, &mut events)
            .unwrap();
        if report.cleared.is_empty() && !spots.contains(&mv.to) {
            let landed: Vec<_> = report.landed.iter().map(|&(c, _)| c).collect();
            let landed_colors: Vec<_> = report.landed.iter().map(|&(_, b)| b).collect();
            assert_eq!(landed, spots, "turn {turn}: the balls land on their spots");
            assert_eq!(landed_colors, colors);
            on_spots += 1;
        }
        let Some(Body::RaceMove { turn: t, from, to }) = send.pop() else {
            panic!("the move is sent")
        };
        other.on_move(t, from, to, 20, &mut events);
        assert!(
            matches!(events.last(), Some(RaceEvent::OpponentMoved { turn: n, .. }) if *n == turn),
            "{events:?}"
        );
        assert_eq!(mover.board(me), other.board(me), "turn {turn}");
    }
    on_spots
}

#[test]
fn both_boards_and_both_replicas_land_the_balls_on_the_spots() {
    let (mut a, mut b) = pair(PREVIEW);
    for race in [&a, &b] {
        for color in Color::ALL {
            assert!(race.board(color).unwrap().settings().preview);
        }
    }
    assert!(play_replayed(&mut a, &mut b, 25) > 10);
    assert!(play_replayed(&mut b, &mut a, 25) > 10);
    // The same seeds without the preview land elsewhere: the option is what made the spots.
    let (classic, _) = pair(CLASSIC);
    assert!(classic.board(Color::Red).unwrap().next_spots().is_empty());
}

#[test]
fn preview_races_over_a_faulty_link_end_with_equal_views() {
    let mut cuts = 0;
    for seed in 1..=4 {
        let sim = RaceSim {
            options: RaceOptions {
                start_balls: if seed % 2 == 0 { 3 } else { 5 },
                time_limit_s: 3_600,
                preview: true,
                spawn: SpawnRule::AtAnnouncement,
            },
            think_ms: if seed % 3 == 0 { 40 } else { 400 },
            ..RaceSim::new(seed)
        };
        let report = play_race(&sim);
        assert!(report.is_clean(), "seed {seed}: {report:?}");
        let result = report.results[0].clone().unwrap();
        assert_eq!(result.end, RaceEnd::Finished, "both boards full");
        assert_eq!(result.turns, report.moves);
        cuts += report.disconnects;
    }
    assert!(cuts > 0, "the rough link cut at least once");
}

#[test]
fn a_peer_whose_balls_landed_off_their_spots_is_caught_by_its_next_impossible_move() {
    let (mut victim, mut raw, share, _) = propose_raw(&PREVIEW.encode());
    victim.accept_proposal(0).unwrap();
    let sent = raw.recv(&mut victim);
    let Some(Body::Accept(Accept { params })) = sent.first().cloned() else {
        panic!("accepted: {sent:?}")
    };
    let Some(Body::SeedReveal { value }) = sent.get(1).cloned() else {
        panic!("revealed: {sent:?}")
    };
    raw.send(
        &mut victim,
        Body::SeedReveal {
            value: share.value(),
        },
        10,
    );
    events(&mut victim);
    // The cheater's board: the shared seed, its balls landing where the classic rule puts
    // them, not on the spots both boards showed.
    let seed = share.combine(&params, value).unwrap();
    let mut cheat = LinesGame::new(CLASSIC.settings(), seed);
    let mut caught = None;
    for turn in 0..40 {
        let mv = ai::greedy_move(&cheat).unwrap();
        cheat.play(mv).unwrap();
        raw.send(
            &mut victim,
            Body::RaceMove {
                turn,
                from: mv.from.into(),
                to: mv.to.into(),
            },
            20 + u64::from(turn),
        );
        if let Some(over) = events(&mut victim).into_iter().find_map(|e| match e {
            Event::Race(RaceEvent::Over(r)) => Some(r),
            _ => None,
        }) {
            caught = Some((turn, over));
            break;
        }
    }
    let (turn, over) = caught.expect("the cheater is caught");
    assert!(
        turn > 0,
        "its first move, before any ball landed, was possible"
    );
    assert!(
        matches!(&over.end, RaceEnd::Cheated(Color::Black, RaceFault::ImpossibleMove { turn: t, .. }) if *t == turn),
        "{over:?}"
    );
    assert_eq!(over.winner, Some(Color::Red));
    let replica = victim.race().unwrap().board(Color::Black).unwrap();
    assert_eq!(replica.turns(), turn, "the refused move is not played");
}

/// A preview race is not proposed to a peer whose greeting lacks `CAP_LINES_PREVIEW` (an
/// app from before the preview, which would decline options it cannot read): the
/// proposer is told why at once; a classic race is proposed as before. A peer with the
/// bit gets the preview race.
#[test]
fn a_preview_race_is_not_proposed_to_an_app_that_does_not_know_it() {
    for (caps, knows) in [(CAP_LINES, false), (CAP_LINES | CAP_LINES_PREVIEW, true)] {
        let mut host = session_offering("H", 3, &[GameKind::Lines]);
        let _raw = RawPeer::connect_offering(&mut host, PROTOCOL_VERSION, caps, 0).unwrap();
        host.confirm_peer(false).unwrap();
        let r = host.propose_race(PREVIEW, Color::Red, 0);
        if knows {
            assert_eq!(r, Ok(()));
        } else {
            assert_eq!(r, Err(ActionError::PeerLacksPreview));
            assert!(r.unwrap_err().to_string().contains("Lines 98's preview"));
            host.propose_race(CLASSIC, Color::Red, 0).unwrap();
        }
    }
    // Every build that offers Lines announces the bit.
    assert_eq!(
        caps_of(&[GameKind::Lines]) & CAP_LINES_PREVIEW,
        CAP_LINES_PREVIEW
    );
}
