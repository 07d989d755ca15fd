//! A draw is offered after one's own move (FIDE 9.1.2.2; review revP, finding 7): an
//! offer on one's own turn is held and sent right after the next move, an offer arriving
//! while its sender is to move is ignored, the peer's move ends our offer, and an accepted
//! draw stands whatever the offerer sends after it.
#![allow(clippy::unwrap_used, clippy::panic)]

use crate::common;
use crate::hardening::{move_msg, victim_against_raw};

use banco_game::{Color, DrawReason, Outcome};
use banco_protocol::message::Body;
use banco_protocol::{ActionError, Event};
use common::{events, playing, pump};

fn agreed() -> Option<Outcome> {
    Some(Outcome::Draw {
        reason: DrawReason::Agreement,
    })
}

#[test]
fn an_offer_on_the_peers_own_turn_is_not_shown_and_an_accepted_draw_stands() {
    // The reviewer's scenario: red (the peer) is to move and offers a draw. Before the
    // fix black saw the offer and accepted; red, having seen the "yes", voided it with a
    // move from the accepted position 3 s later.
    let (mut v, mut raw) = victim_against_raw(None, None);
    raw.send(&mut v, Body::DrawOffer, 1_000);
    assert!(events(&mut v).is_empty(), "an offer on its own turn");
    assert_eq!(v.reply_draw(true, 1_100), Err(ActionError::NothingToAnswer));
    assert_eq!(v.outcome(), None);
    // Red moves, then offers: that offer is shown, and black accepts it.
    let g = v.game().unwrap().clone();
    raw.send(&mut v, Body::Move(move_msg(&g, 1, 0)), 2_000);
    raw.send(&mut v, Body::DrawOffer, 2_000);
    assert!(events(&mut v).contains(&Event::DrawOffered));
    v.reply_draw(true, 2_100).unwrap();
    assert!(raw.recv(&mut v).contains(&Body::DrawReply {
        accept: true,
        ply: 1
    }));
    assert_eq!((v.outcome(), v.ply()), (agreed(), Some(1)));
    events(&mut v);
    // Red sends a "move" from the accepted position: ignored like any move after the end.
    let g = v.game().unwrap().clone();
    raw.send(&mut v, Body::Move(move_msg(&g, 2, 0)), 5_100);
    assert!(events(&mut v).is_empty());
    assert_eq!((v.outcome(), v.ply()), (agreed(), Some(1)));
}

#[test]
fn an_offer_on_our_turn_is_held_and_sent_right_after_our_move() {
    let (mut v, mut raw) = victim_against_raw(None, None);
    let g = v.game().unwrap().clone();
    raw.send(&mut v, Body::Move(move_msg(&g, 1, 0)), 1_000);
    raw.recv(&mut v);
    events(&mut v);
    // Black's turn: the offer waits for black's move.
    assert!(!v.draw_offer_held());
    v.offer_draw(1_100).unwrap();
    assert!(v.draw_offer_held());
    assert!(v.snapshot(1_100).unwrap().draw_offer_held);
    assert!(
        !raw.recv(&mut v).contains(&Body::DrawOffer),
        "sent before the move"
    );
    assert_eq!(v.offer_draw(1_200), Err(ActionError::Pending));
    v.play(2, 1_300).unwrap();
    assert!(!v.draw_offer_held());
    let sent = raw.recv(&mut v);
    let at = |wanted: fn(&Body) -> bool| sent.iter().position(wanted);
    let mv = at(|b| matches!(b, Body::Move(_)));
    let offer = at(|b| matches!(b, Body::DrawOffer));
    assert!(mv.is_some() && offer > mv, "{sent:?}");
    // It stands now, on red's turn.
    assert_eq!(v.offer_draw(1_400), Err(ActionError::Pending));
    // Red accepts it in its position after black's move: a draw.
    raw.send(
        &mut v,
        Body::DrawReply {
            accept: true,
            ply: 2,
        },
        1_500,
    );
    assert_eq!((v.outcome(), v.ply()), (agreed(), Some(2)));
}

#[test]
fn a_held_offer_goes_with_the_move_and_the_peer_accepts_it() {
    let (mut a, mut b) = playing(Color::Red, None);
    a.offer_draw(1).unwrap();
    pump(&mut a, &mut b, 1);
    assert!(!events(&mut b).contains(&Event::DrawOffered));
    a.play(1, 2).unwrap();
    pump(&mut a, &mut b, 2);
    let eb = events(&mut b);
    let played = eb
        .iter()
        .position(|e| matches!(e, Event::MovePlayed { .. }));
    let offered = eb.iter().position(|e| *e == Event::DrawOffered);
    assert!(played.is_some() && offered > played, "{eb:?}");
    b.reply_draw(true, 3).unwrap();
    pump(&mut a, &mut b, 3);
    assert_eq!((a.outcome(), b.outcome()), (agreed(), agreed()));
    assert_eq!((a.ply(), b.ply()), (Some(1), Some(1)));
}

#[test]
fn an_offer_crossed_by_the_peers_move_ends_cleanly_on_both_sides() {
    let (mut a, mut b) = playing(Color::Red, None);
    a.play(1, 1).unwrap();
    pump(&mut a, &mut b, 1);
    events(&mut a);
    events(&mut b);
    // Black's turn: red offers at once, but black moves before the offer arrives.
    a.offer_draw(2).unwrap();
    assert!(!a.draw_offer_held());
    let offer: Vec<Vec<u8>> = std::iter::from_fn(|| a.poll_transmit()).collect();
    b.play(1, 3).unwrap();
    for f in std::iter::from_fn(|| b.poll_transmit()).collect::<Vec<_>>() {
        a.handle_datagram(&f, 4);
    }
    // Black's move ended red's offer: no stale offer stands on red's side.
    assert!(events(&mut a).contains(&Event::DrawDeclined));
    // The offer reaches black after its move, red to move: not shown.
    for f in &offer {
        b.handle_datagram(f, 5);
    }
    assert!(!events(&mut b).contains(&Event::DrawOffered));
    assert_eq!(b.reply_draw(true, 6), Err(ActionError::NothingToAnswer));
    pump(&mut a, &mut b, 6);
    // Red, to move, may offer again (held for its move), and black sees it after the move.
    assert_eq!(a.offer_draw(7), Ok(()));
    a.play(1, 8).unwrap();
    pump(&mut a, &mut b, 8);
    assert!(events(&mut b).contains(&Event::DrawOffered));
    assert_eq!((a.outcome(), b.outcome()), (None, None));
    assert_eq!(a.moves(), b.moves());
}

#[test]
fn an_accepted_undo_ends_the_askers_offer_on_both_sides() {
    // Red moves, offers, and asks to take its move back: once black accepts the undo red
    // is to move again, and its offer is gone on both sides (black could otherwise accept
    // it while red moves, and the sides would end apart).
    let (mut a, mut b) = playing(Color::Red, None);
    a.play(1, 1).unwrap();
    a.offer_draw(1).unwrap();
    a.request_undo(1).unwrap();
    pump(&mut a, &mut b, 1);
    let eb = events(&mut b);
    assert!(eb.contains(&Event::DrawOffered), "{eb:?}");
    assert!(eb.contains(&Event::UndoRequested { to_ply: 0 }), "{eb:?}");
    b.reply_undo(true, 2).unwrap();
    assert!(events(&mut b).contains(&Event::DrawOfferWithdrawn));
    assert_eq!(b.reply_draw(true, 2), Err(ActionError::NothingToAnswer));
    pump(&mut a, &mut b, 2);
    assert_eq!((a.ply(), b.ply()), (Some(0), Some(0)));
    // Red's offer no longer stands: a new one is held for red's next move.
    assert_eq!(a.offer_draw(3), Ok(()));
    assert!(a.draw_offer_held());
    assert_eq!((a.outcome(), b.outcome()), (None, None));
}

#[test]
fn a_held_offer_waits_across_the_peers_accepted_undo() {
    // Red holds an offer on its turn; black asks to take back its move and red accepts
    // (black to move again). The offer stays held for red's next move.
    let (mut a, mut b) = playing(Color::Red, None);
    common::play_in_turn(&mut a, &mut b, &[1, 2]);
    a.offer_draw(3).unwrap();
    b.request_undo(3).unwrap();
    pump(&mut a, &mut b, 3);
    assert!(events(&mut a).contains(&Event::UndoRequested { to_ply: 1 }));
    a.reply_undo(true, 4).unwrap();
    pump(&mut a, &mut b, 4);
    assert!(a.draw_offer_held());
    assert!(!events(&mut b).contains(&Event::DrawOffered));
    b.play(2, 5).unwrap();
    pump(&mut a, &mut b, 5);
    a.play(1, 6).unwrap();
    pump(&mut a, &mut b, 6);
    assert!(!a.draw_offer_held());
    assert!(events(&mut b).contains(&Event::DrawOffered));
    assert_eq!(a.moves(), b.moves());
}
