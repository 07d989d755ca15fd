//! Cheating peers in the fair draw ([`banco_protocol::fairdraw`]): a wrong, foreign or
//! replayed link is caught every time, and a link held back — withheld for good, behind a
//! gap kept open in the stream, or only while the withholder thinks — costs the
//! withholder its own time.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;
use crate::fairdraw::{S, cards, closed, drawn, playing};

use banco_game::{ChanceList, Color, Game, GameKind, Outcome, WinReason};
use banco_protocol::fairdraw::{DrawFault, HashChain, LINK_LEN, commitment, draw_ticket};
use banco_protocol::message::{Body, ClockSpec, MoveMsg, Propose, game_code};
use banco_protocol::sim::{CardMove, HiddenCards};
use banco_protocol::{CloseReason, Event, PROTOCOL_VERSION};
use common::{RawPeer, events};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// A victim (red) and a hand-driven black peer with its own chain (`secret`), in a game
/// the peer proposed with `clock`. Returns the victim, the peer, the peer's chain and the
/// session id.
pub(crate) fn victim_and_cheater(
    secret: u8,
    clock: Option<ClockSpec>,
) -> (S, RawPeer, HashChain, [u8; 8]) {
    let mut victim = cards("V", 3);
    let mut raw = RawPeer::connect(&mut victim, PROTOCOL_VERSION, 0).unwrap();
    victim.confirm_peer(false).unwrap();
    let session = victim.session_id().unwrap();
    let chain = HashChain::new([secret; 32], session, Color::Black);
    let p = Propose {
        game: game_code(GameKind::Jieqi),
        rules: 0,
        color: Color::Black,
        clock,
        fen: None,
        params: commitment(&chain.head()).to_vec(),
    };
    raw.send(&mut victim, Body::Propose(p), 0);
    victim.accept_proposal(0).unwrap();
    raw.recv(&mut victim);
    events(&mut victim);
    (victim, raw, chain, session)
}

/// The victim flips; returns its released link.
fn victim_flips(victim: &mut S, raw: &mut RawPeer, now: u64) -> [u8; LINK_LEN] {
    victim.play(CardMove::Flip, now).unwrap();
    raw.recv(victim)
        .into_iter()
        .find_map(|b| match b {
            Body::Reveal { link } => Some(link),
            _ => None,
        })
        .expect("a link goes out with the move")
}

/// The session ended the match: `withholder` held its link of step 1 back past its time.
fn assert_caught_against(victim: &mut S, withholder: Color) {
    let ev = events(victim);
    assert_eq!(
        closed(&ev),
        Some(CloseReason::UnfairDraw(DrawFault::Withheld { step: 1 })),
        "{ev:?}"
    );
    let over = Outcome::Win {
        winner: withholder.other(),
        reason: WinReason::Timeout,
    };
    assert_eq!(victim.outcome(), Some(over));
    assert!(victim.is_closed());
}

fn assert_caught(victim: &mut S, fault: DrawFault, reason: WinReason) {
    let ev = events(victim);
    assert_eq!(
        closed(&ev),
        Some(CloseReason::UnfairDraw(fault)),
        "the match ends with the fault: {ev:?}"
    );
    let over = Outcome::Win {
        winner: Color::Red,
        reason,
    };
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::GameOver { outcome, .. } if *outcome == over)),
        "{ev:?}"
    );
    assert_eq!(victim.outcome(), Some(over));
    assert!(victim.is_closed());
    assert!(drawn(&ev).is_empty(), "nothing was drawn from a bad link");
}

#[test]
fn a_wrong_link_is_caught_every_time() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    for _ in 0..25 {
        let (mut victim, mut raw, _chain, _) = victim_and_cheater(7, None);
        victim_flips(&mut victim, &mut raw, 1);
        let mut forged = [0u8; LINK_LEN];
        rng.fill_bytes(&mut forged);
        raw.send(&mut victim, Body::Reveal { link: forged }, 2);
        assert_caught(
            &mut victim,
            DrawFault::WrongLink { index: 1 },
            WinReason::Forfeit,
        );
        assert_eq!(victim.ply(), Some(1), "the flip stays undecided");
    }
}

#[test]
fn links_from_another_chain_than_the_committed_one_are_caught() {
    // The cheater commits to one chain, then reveals from another (say one it picked
    // after seeing the victim's link): the first link gives it away.
    for other in [8u8, 9, 10] {
        let (mut victim, mut raw, _committed, session) = victim_and_cheater(7, None);
        victim_flips(&mut victim, &mut raw, 1);
        let switched = HashChain::new([other; 32], session, Color::Black);
        raw.send(
            &mut victim,
            Body::Reveal {
                link: switched.link(1).unwrap(),
            },
            2,
        );
        assert_caught(
            &mut victim,
            DrawFault::WrongLink { index: 1 },
            WinReason::Forfeit,
        );
    }
}

#[test]
fn a_replayed_link_is_caught() {
    let (mut victim, mut raw, chain, session) = victim_and_cheater(7, None);
    let red1 = victim_flips(&mut victim, &mut raw, 1);
    raw.send(
        &mut victim,
        Body::Reveal {
            link: chain.link(1).unwrap(),
        },
        2,
    );
    // The honest first draw: what the published formula gives.
    let mut pool = ChanceList::new();
    let mut flipped = HiddenCards::new();
    flipped.play(CardMove::Flip).unwrap();
    flipped.chance_outcomes(&mut pool);
    let ticket = draw_ticket(session, 1, 1, &red1, &chain.link(1).unwrap(), 15);
    let card = pool.pick(ticket).unwrap();
    assert_eq!(drawn(&events(&mut victim)), vec![(1, card, 1)]);
    // Black flips, then sends its first link again for the second step.
    let mut after = *victim.game().unwrap();
    after.play(CardMove::Flip).unwrap();
    raw.send(
        &mut victim,
        Body::Move(MoveMsg {
            ply: 2,
            mv: after.encode_move(CardMove::Flip),
            hash: after.hash() as u32,
            clock: 0,
        }),
        3,
    );
    assert!(victim.game().unwrap().awaits_chance());
    raw.send(
        &mut victim,
        Body::Reveal {
            link: chain.link(1).unwrap(),
        },
        4,
    );
    assert_caught(
        &mut victim,
        DrawFault::ReplayedLink { index: 2 },
        WinReason::Forfeit,
    );
}

#[test]
fn a_link_cut_during_a_step_ends_the_game_on_time_without_spinning() {
    let clock = Some(ClockSpec {
        base_ms: 10_000,
        increment_ms: 0,
    });
    let (mut a, mut b) = playing(clock);
    // Red flips; black gets the move but not red's link, and the link goes down.
    a.play(CardMove::Flip, 100).unwrap();
    let frames: Vec<_> = std::iter::from_fn(|| a.poll_transmit()).collect();
    b.handle_datagram(&frames[0], 110);
    assert!(b.game().unwrap().awaits_chance());
    while b.poll_transmit().is_some() {}
    b.link_lost(200);
    events(&mut b);
    // Black's timers, run as the driver runs them: a deadline in the past that does not
    // move is fired again 1 ms later.
    let (mut now, mut fired) = (200u64, 0u32);
    while let Some(d) = b.poll_timeout() {
        now = if d <= now { now + 1 } else { d };
        b.handle_timeout(now);
        fired += 1;
        assert!(fired < 10_000, "the timers spin at {now} ms");
    }
    // Red's time left (it took 0.1 s over the flip) plus the grace after the step began:
    // red loses on time, link or not.
    assert_eq!(now, 110 + 9_900 + 120_000);
    assert_caught_against(&mut b, Color::Red);
}

/// A 10 s game: red (the victim) passes at once, black (the raw peer) flips at 1 s, and the
/// victim releases its link for that flip — black now knows the piece drawn.
fn black_flipped_with_red_link_released() -> (S, RawPeer) {
    let clock = ClockSpec {
        base_ms: 10_000,
        increment_ms: 0,
    };
    let (mut victim, mut raw, _chain, _) = victim_and_cheater(7, Some(clock));
    victim.play(CardMove::Pass, 0).unwrap();
    raw.recv(&mut victim);
    let mut after = *victim.game().unwrap();
    after.play(CardMove::Flip).unwrap();
    raw.send(
        &mut victim,
        Body::Move(MoveMsg {
            ply: 1,
            mv: after.encode_move(CardMove::Flip),
            hash: after.hash() as u32,
            clock: 0,
        }),
        1_000,
    );
    assert!(
        raw.recv(&mut victim)
            .iter()
            .any(|b| matches!(b, Body::Reveal { .. })),
        "the victim released its link"
    );
    events(&mut victim);
    (victim, raw)
}

#[test]
fn a_withheld_link_stalls_only_the_withholder_whose_time_runs_out() {
    let (mut victim, mut raw) = black_flipped_with_red_link_released();
    // Red moves next, but its clock does not run while black's link is missing: black's does.
    let [red, black] = victim.clocks(6_000).unwrap();
    assert_eq!((red, black), (10_000, 5_000));
    let snap = victim.snapshot(6_000).unwrap();
    assert_eq!(
        snap.running_clock,
        Some(Color::Black),
        "the peer's, not red's"
    );
    // Past red's own time: nothing happens to red.
    for t in (2_000..=12_000).step_by(1_000) {
        victim.handle_timeout(t);
        while victim.poll_transmit().is_some() {}
    }
    // The withholder keeps its link alive (pings) but sends no link.
    for t in (13_000..=130_000).step_by(3_000) {
        raw.send(&mut victim, Body::Ping, t);
        victim.handle_timeout(t);
        while victim.poll_transmit().is_some() {}
    }
    assert_eq!(victim.outcome(), None);
    assert!(!victim.is_closed());
    // Black's time plus the grace after the step began: black loses on time.
    let deadline = 1_000 + 10_000 + 120_000;
    raw.send(&mut victim, Body::Ping, deadline - 1);
    victim.handle_timeout(deadline - 1);
    assert_eq!(victim.outcome(), None);
    assert!(victim.poll_timeout().unwrap() <= deadline);
    victim.handle_timeout(deadline);
    assert_caught(
        &mut victim,
        DrawFault::Withheld { step: 1 },
        WinReason::Timeout,
    );
}

/// A withholder cannot escape its clock by leaving a gap in its stream for good (one
/// sequence number never sent, later messages and pings still coming): a gap restarts the
/// wait, as a link on its way would, but never past one grace after the step began.
#[test]
fn a_gap_kept_open_in_the_stream_does_not_stall_the_withheld_wait_for_ever() {
    let (mut victim, mut raw) = black_flipped_with_red_link_released();
    // The withholder knows the outcome now. It never sends the sequence number its link
    // would take, but sends a later message and keeps the link alive.
    raw.skip_seq();
    raw.send(&mut victim, Body::DrawOffer, 1_500);
    // The latest deadline: the wait restarted one grace after the step began, then black's
    // time and the grace again.
    let latest = 1_000 + 120_000 + 10_000 + 120_000;
    let mut t = 2_000;
    while victim.outcome().is_none() && t <= 3_600_000 {
        raw.send(&mut victim, Body::Ping, t);
        victim.handle_timeout(t);
        while victim.poll_transmit().is_some() {}
        t += 1_000;
    }
    assert!(
        t <= latest + 1_000,
        "the withholder was still not caught at {t} ms"
    );
    assert_caught(
        &mut victim,
        DrawFault::Withheld { step: 1 },
        WinReason::Timeout,
    );
}

/// The next mover cannot think for free by holding its link back: once it has our link
/// (and so the card) its turn runs here from when its own link was due, whatever time its
/// move claims; past its time it loses (review revB D1b).
#[test]
fn a_link_held_back_by_the_next_mover_is_charged_to_its_clock() {
    for held in [100_000, 125_000] {
        let clock = ClockSpec {
            base_ms: 120_000,
            increment_ms: 0,
        };
        let (mut victim, mut raw, chain, _) = victim_and_cheater(7, Some(clock));
        // Both pass once (the peer's game has begun when the victim flips: its first
        // move is measured from the victim's `Accept`, see the module `clock`).
        victim.play(CardMove::Pass, 0).unwrap();
        raw.recv(&mut victim);
        let mut after = *victim.game().unwrap();
        after.play(CardMove::Pass).unwrap();
        let pass = MoveMsg {
            ply: 1,
            mv: after.encode_move(CardMove::Pass),
            hash: after.hash() as u32,
            clock: 0,
        };
        raw.send(&mut victim, Body::Move(pass), 0);
        victim_flips(&mut victim, &mut raw, 0);
        // Black knows the card and thinks with its link held back, keeping the link alive.
        for t in (1_000..held).step_by(1_000) {
            raw.send(&mut victim, Body::Ping, t);
            victim.handle_timeout(t);
            while victim.poll_transmit().is_some() {}
        }
        let link = chain.link(1).unwrap();
        raw.send(&mut victim, Body::Reveal { link }, held);
        let mut after = *victim.game().unwrap();
        let ply = after.ply() as u8;
        after.play(CardMove::Pass).unwrap();
        let mv = MoveMsg {
            ply,
            mv: after.encode_move(CardMove::Pass),
            hash: after.hash() as u32,
            clock: 0,
        };
        raw.send(&mut victim, Body::Move(mv), held + 10);
        if held < 120_000 {
            assert_eq!(victim.outcome(), None);
            // Charged from one round-trip allowance (at most 1.1 s) after the step began,
            // less one more for the move's way back.
            let [red, black] = victim.clocks(held + 10).unwrap();
            assert_eq!(red, 120_000);
            assert!(
                (20_000..=22_200).contains(&black),
                "black has {black} ms left"
            );
        } else {
            let over = Outcome::Win {
                winner: Color::Red,
                reason: WinReason::Timeout,
            };
            assert_eq!(victim.outcome(), Some(over));
            let sent = raw.recv(&mut victim);
            assert!(
                sent.iter().any(|b| matches!(b, Body::TimeForfeit { .. })),
                "{sent:?}"
            );
        }
    }
}
