//! The peer's proposals: one pending at a time, board game or race, the latest replacing
//! the one before, so the answer always goes to the proposal shown; an accept bound to the
//! proposal shown; a peer that keeps replacing its proposal is cut off.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use banco_game::{Color, GameKind};
use banco_lines::SpawnRule;
use banco_protocol::message::{
    Accept, Body, CAP_LINES, CAP_XIANGQI, ClockSpec, DeclineReason, Propose, game_code,
};
use banco_protocol::race::{RaceOptions, proposal_params};
use banco_protocol::seed::SeedShare;
use banco_protocol::{ActionError, Event, MatchSpec, PROTOCOL_VERSION};
use common::{RawPeer, S, events, session_offering};

const OPTIONS: RaceOptions = RaceOptions {
    start_balls: 5,
    time_limit_s: 600,
    preview: false,
    spawn: SpawnRule::AtAnnouncement,
};

/// A victim (offering xiangqi and Lines) paired with a raw peer.
fn victim() -> (S, RawPeer) {
    let mut victim = session_offering("V", 3, &[GameKind::Xiangqi, GameKind::Lines]);
    let raw = RawPeer::connect_offering(&mut victim, PROTOCOL_VERSION, CAP_XIANGQI | CAP_LINES, 0)
        .unwrap();
    victim.confirm_peer(false).unwrap();
    events(&mut victim);
    (victim, raw)
}

fn race(victim: &S) -> Body {
    let session = victim.session_id().unwrap();
    let share = SeedShare::new([9; 32], session, Color::Black);
    Body::Propose(Propose {
        game: game_code(GameKind::Lines),
        rules: 0,
        color: Color::Black,
        clock: None,
        fen: None,
        params: proposal_params(&share.commitment(), OPTIONS),
    })
}

/// Xiangqi where the peer plays `color`, with a clock of `minutes`.
fn xiangqi(color: Color, minutes: u32) -> Body {
    Body::Propose(Propose {
        game: game_code(GameKind::Xiangqi),
        rules: 0,
        color,
        clock: Some(ClockSpec {
            base_ms: minutes * 60_000,
            increment_ms: 0,
        }),
        fen: None,
        params: Vec::new(),
    })
}

/// The specs of the proposals shown to the player.
fn shown(victim: &mut S) -> Vec<MatchSpec> {
    events(victim)
        .into_iter()
        .filter_map(|e| match e {
            Event::Proposed(s) => Some(s),
            _ => None,
        })
        .collect()
}

#[test]
fn a_board_proposal_after_a_race_replaces_it_and_accept_starts_the_board_game() {
    let (mut v, mut raw) = victim();
    let r = race(&v);
    raw.send(&mut v, r, 1);
    raw.send(&mut v, xiangqi(Color::Red, 5), 2);
    let seen = shown(&mut v);
    assert_eq!(seen.len(), 2);
    let last = seen.last().unwrap();
    assert_eq!(last.game, GameKind::Xiangqi, "the screen shows xiangqi");
    assert_eq!(v.pending_race(), None, "the race was replaced");
    assert_eq!(v.pending_proposal(), Some((last.clone(), false)));
    raw.recv(&mut v);

    v.accept_proposal(3).unwrap();
    assert_eq!(v.match_spec().unwrap().game, GameKind::Xiangqi);
    assert_eq!(v.match_spec().unwrap().local_color, Color::Black);
    assert!(v.race().is_none(), "no race started");
    let sent = raw.recv(&mut v);
    assert!(
        sent.contains(&Body::Accept(Accept::default())),
        "the xiangqi accept, no race commitment: {sent:?}"
    );
    assert!(!sent.iter().any(|b| matches!(b, Body::SeedReveal { .. })));
}

#[test]
fn a_race_after_a_board_proposal_replaces_it_and_decline_leaves_nothing_pending() {
    let (mut v, mut raw) = victim();
    raw.send(&mut v, xiangqi(Color::Red, 5), 1);
    let r = race(&v);
    raw.send(&mut v, r, 2);
    let seen = shown(&mut v);
    assert_eq!(seen.last().unwrap().game, GameKind::Lines);
    assert_eq!(v.pending_race(), Some(OPTIONS));
    assert_eq!(v.pending_proposal().unwrap().0.game, GameKind::Lines);
    raw.recv(&mut v);

    v.decline_proposal(3).unwrap();
    assert_eq!(v.pending_proposal(), None, "no hidden board proposal left");
    assert_eq!(v.accept_proposal(4), Err(ActionError::NothingToAnswer));
    assert!(v.match_spec().is_none() && v.race().is_none());

    // Accepting the race shown the same way starts the race, not the xiangqi before it.
    let (mut v, mut raw) = victim();
    raw.send(&mut v, xiangqi(Color::Red, 5), 1);
    let r = race(&v);
    raw.send(&mut v, r, 2);
    let race_spec = shown(&mut v).pop().unwrap();
    v.accept_shown(&race_spec, Vec::new(), 3).unwrap();
    assert!(v.race().is_some() && v.match_spec().is_none());
}

#[test]
fn the_bound_accept_refuses_a_proposal_changed_since_it_was_shown() {
    let (mut v, mut raw) = victim();
    raw.send(&mut v, xiangqi(Color::Black, 5), 1);
    let first = shown(&mut v).pop().unwrap();
    assert_eq!(first.local_color, Color::Red);
    raw.recv(&mut v);
    // Between the display and the tap, the peer takes Red and a 1-minute clock.
    raw.send(&mut v, xiangqi(Color::Red, 1), 2);
    assert_eq!(
        v.accept_shown(&first, Vec::new(), 3),
        Err(ActionError::ProposalChanged)
    );
    assert!(v.match_spec().is_none(), "nothing was accepted");
    assert!(
        !raw.recv(&mut v)
            .iter()
            .any(|b| matches!(b, Body::Accept(_)))
    );
    assert!(
        ActionError::ProposalChanged
            .to_string()
            .contains("changed the proposal")
    );
    // The new one, once shown, is accepted as shown.
    let second = shown(&mut v).pop().unwrap();
    v.accept_shown(&second, Vec::new(), 4).unwrap();
    assert_eq!(v.match_spec().unwrap().local_color, Color::Black);
    assert_eq!(v.match_spec().unwrap().clock.unwrap().base_ms, 60_000);
    // Nothing to answer any more.
    assert_eq!(
        v.accept_shown(&second, Vec::new(), 5),
        Err(ActionError::NothingToAnswer)
    );
}

#[test]
fn a_peer_replacing_its_proposal_in_a_loop_reaches_the_player_a_bounded_number_of_times() {
    let (mut v, mut raw) = victim();
    let mut sent = Vec::new();
    for i in 0..40u32 {
        let color = if i % 2 == 0 { Color::Red } else { Color::Black };
        let body = if i % 5 == 4 {
            race(&v)
        } else {
            xiangqi(color, 1 + i)
        };
        raw.send(&mut v, body, u64::from(i));
        sent.extend(raw.recv(&mut v));
    }
    let seen = shown(&mut v);
    assert_eq!(seen.len(), 4, "the first and three replacements: {seen:?}");
    let busy = sent
        .iter()
        .filter(|b| {
            **b == Body::Decline {
                reason: DeclineReason::BUSY,
            }
        })
        .count();
    assert_eq!(busy, 36, "the rest declined as busy");
    // The pending proposal is still the last one shown.
    assert_eq!(v.pending_proposal(), Some((seen[3].clone(), false)));

    // Once the player answered, the peer may propose again.
    v.decline_proposal(50).unwrap();
    raw.send(&mut v, xiangqi(Color::Red, 7), 51);
    assert_eq!(shown(&mut v).len(), 1);
}
