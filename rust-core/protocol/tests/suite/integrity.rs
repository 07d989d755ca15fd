//! Game integrity against a cheating peer (review revP, findings 2, 4-6): what a peer
//! claims about our clock, a finished result, our moves or our answers is checked
//! against what this side measured, and against what the peer's acknowledgements prove
//! it had received.
#![allow(clippy::unwrap_used, clippy::panic)]

use crate::common;
use crate::hardening::{move_msg, victim_against_raw};

use banco_game::{Color, Outcome, WinReason};
use banco_protocol::message::{AbortReason, Body, ClockSpec, ErrorCode, MAX_REFUSALS};
use banco_protocol::{ActionError, Event};
use common::events;

const TEN_MINUTES: Option<ClockSpec> = Some(ClockSpec {
    base_ms: 600_000,
    increment_ms: 0,
});

fn red_wins_on_time() -> Option<Outcome> {
    Some(Outcome::Win {
        winner: Color::Red,
        reason: WinReason::Timeout,
    })
}

#[test]
fn a_forfeit_early_in_our_turn_is_refused_and_a_real_flag_still_falls() {
    let (mut v, mut raw) = victim_against_raw(TEN_MINUTES, None);
    let g = v.game().unwrap().clone();
    raw.send(&mut v, Body::Move(move_msg(&g, 1, 10)), 1_000);
    raw.recv(&mut v);
    events(&mut v);
    // Half a second into black's ten minutes: a forged forfeit.
    raw.send(&mut v, Body::TimeForfeit { ply: 1 }, 1_500);
    assert_eq!(v.outcome(), None);
    assert_eq!(v.aborted(), None);
    assert!(events(&mut v).is_empty());
    assert!(raw.recv(&mut v).contains(&Body::Error {
        code: ErrorCode::UNEXPECTED
    }));
    // Our clock keeps running: 0.5 s spent, and it is still our turn.
    assert_eq!(v.clocks(1_500), Some([599_000, 599_500]));
    // Nine minutes later the claim is still false.
    raw.send(&mut v, Body::TimeForfeit { ply: 1 }, 541_000);
    assert_eq!(v.outcome(), None);
    // Once our own time is (nearly) gone, the peer's measurement decides.
    raw.send(&mut v, Body::TimeForfeit { ply: 1 }, 599_000);
    assert_eq!(v.outcome(), red_wins_on_time());
}

#[test]
fn a_forfeit_cannot_take_back_our_mate() {
    // 56 of 60: black mates with a 3 after red's 1.
    let (mut v, mut raw) = victim_against_raw(TEN_MINUTES, Some("56"));
    let g = v.game().unwrap().clone();
    raw.send(&mut v, Body::Move(move_msg(&g, 1, 10)), 1_000);
    raw.recv(&mut v);
    events(&mut v);
    v.play(3, 3_000).unwrap();
    let mate = Some(Outcome::Win {
        winner: Color::Black,
        reason: WinReason::Checkmate,
    });
    assert_eq!(v.outcome(), mate);
    raw.recv(&mut v);
    events(&mut v);
    // The forfeit names the position before the mate, in an envelope that acknowledges
    // the mating move: refused.
    raw.send(&mut v, Body::TimeForfeit { ply: 1 }, 3_050);
    assert_eq!((v.outcome(), v.ply()), (mate, Some(2)));
    assert!(events(&mut v).is_empty());
    // Neither much later: the acknowledgement showed when the mate reached the peer.
    raw.send(&mut v, Body::TimeForfeit { ply: 1 }, 700_000);
    assert_eq!((v.outcome(), v.ply()), (mate, Some(2)));
}

#[test]
fn an_abort_after_the_result_changes_nothing() {
    let (mut v, mut raw) = victim_against_raw(TEN_MINUTES, None);
    raw.send(&mut v, Body::Resign { ply: 0 }, 1_000);
    let won = Some(Outcome::Win {
        winner: Color::Black,
        reason: WinReason::Resignation,
    });
    assert_eq!(v.outcome(), won);
    events(&mut v);
    raw.send(
        &mut v,
        Body::Abort {
            reason: AbortReason::CLOCKS_DIFFER,
        },
        1_100,
    );
    assert_eq!((v.outcome(), v.aborted()), (won, None));
    assert!(events(&mut v).is_empty());
    let snap = v.snapshot(1_200).unwrap();
    assert_eq!((snap.outcome, snap.aborted), (won, None));
}

#[test]
fn an_abort_we_cannot_corroborate_is_the_opponent_leaving() {
    let (mut v, mut raw) = victim_against_raw(TEN_MINUTES, None);
    let g = v.game().unwrap().clone();
    raw.send(&mut v, Body::Move(move_msg(&g, 1, 10)), 1_000);
    raw.recv(&mut v);
    events(&mut v);
    // No refusal was exchanged: "the positions differ" is not believed.
    raw.send(
        &mut v,
        Body::Abort {
            reason: AbortReason::POSITIONS_DIFFER,
        },
        1_100,
    );
    assert_eq!(v.aborted(), Some(AbortReason::ABANDONED));
    assert_eq!(
        events(&mut v),
        vec![Event::MatchAborted {
            reason: AbortReason::ABANDONED,
            by_peer: true
        }]
    );
    assert_eq!(
        AbortReason::ABANDONED.to_string(),
        "the other player left the game"
    );
}

/// The victim (black) answers red's first move; returns the position after red's move.
fn after_reds_first(
    v: &mut common::S,
    raw: &mut common::RawPeer,
) -> banco_protocol::sim::CountingGame {
    let g = v.game().unwrap().clone();
    raw.send(v, Body::Move(move_msg(&g, 1, 10)), 1_000);
    raw.recv(v);
    events(v);
    v.game().unwrap().clone()
}

#[test]
fn a_resync_after_the_peer_took_our_move_in_is_refused() {
    let (mut v, mut raw) = victim_against_raw(TEN_MINUTES, None);
    let at1 = after_reds_first(&mut v, &mut raw);
    v.play(1, 2_000).unwrap();
    raw.recv(&mut v);
    events(&mut v);
    // The peer acknowledges our move on its own, then "refuses" it.
    raw.send(&mut v, Body::Ack, 2_050);
    raw.send(
        &mut v,
        Body::Resync {
            ply: 1,
            hash: banco_game::Game::hash(&at1) as u32,
        },
        2_100,
    );
    assert_eq!((v.ply(), v.aborted()), (Some(2), None));
    assert!(events(&mut v).is_empty());
    assert!(raw.recv(&mut v).contains(&Body::Error {
        code: ErrorCode::UNEXPECTED
    }));
}

#[test]
fn the_peer_refusing_our_moves_too_often_is_reported_as_the_peer_abandoning() {
    let (mut v, mut raw) = victim_against_raw(TEN_MINUTES, None);
    let at1 = after_reds_first(&mut v, &mut raw);
    let mut last = Vec::new();
    for round in 0..=u64::from(MAX_REFUSALS) {
        let t = 2_000 + round * 1_000;
        v.play(1, t).unwrap();
        raw.recv(&mut v);
        let hash = banco_game::Game::hash(&at1) as u32;
        raw.send(&mut v, Body::Resync { ply: 1, hash }, t + 100);
        last = events(&mut v);
    }
    assert!(
        last.contains(&Event::MatchAborted {
            reason: AbortReason::TOO_MANY_REFUSALS,
            by_peer: true
        }),
        "{last:?}"
    );
}

#[test]
fn one_draw_offer_and_one_undo_request_per_move() {
    let (mut v, mut raw) = victim_against_raw(TEN_MINUTES, None);
    let g = v.game().unwrap().clone();
    raw.send(&mut v, Body::Move(move_msg(&g, 1, 10)), 1_000);
    raw.recv(&mut v);
    events(&mut v);
    // The peer offers, we decline, it offers again at once: not shown again.
    raw.send(&mut v, Body::DrawOffer, 1_100);
    assert_eq!(events(&mut v), vec![Event::DrawOffered]);
    v.reply_draw(false, 1_200).unwrap();
    raw.send(&mut v, Body::DrawOffer, 1_300);
    assert!(events(&mut v).is_empty());
    assert_eq!(v.reply_draw(true, 1_400), Err(ActionError::NothingToAnswer));
    // The same for its undo request: the second is declined at once.
    raw.send(&mut v, Body::UndoRequest { ply: 0 }, 1_500);
    assert_eq!(events(&mut v), vec![Event::UndoRequested { to_ply: 0 }]);
    v.reply_undo(false, 1_600).unwrap();
    raw.recv(&mut v);
    raw.send(&mut v, Body::UndoRequest { ply: 0 }, 1_700);
    assert!(events(&mut v).is_empty());
    assert!(
        raw.recv(&mut v)
            .contains(&Body::UndoReply { accept: false })
    );
    // Our side keeps the same rule: an offer on our turn goes with our move.
    v.offer_draw(1_800).unwrap();
    v.play(1, 1_850).unwrap();
    assert!(raw.recv(&mut v).contains(&Body::DrawOffer));
    raw.send(
        &mut v,
        Body::DrawReply {
            accept: false,
            ply: 2,
        },
        1_900,
    );
    assert_eq!(v.offer_draw(2_000), Err(ActionError::AskedThisMove));
    let g = v.game().unwrap().clone();
    raw.send(&mut v, Body::Move(move_msg(&g, 1, 10)), 2_200);
    assert_eq!(v.offer_draw(2_300), Ok(()));
}
