//! A Lines race against a scripted forger (`sim::race_against_forger`): a few scripts
//! written out end as they must, and random scripts — any mix of honest and forged race
//! messages, losses, our moves and time — leave the victim consistent.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use banco_game::Color;
use banco_protocol::race::{RaceEnd, RaceFault};
use banco_protocol::seed::SeedError;
use banco_protocol::sim::{ForgerReport, race_against_forger};
use proptest::prelude::*;

/// Options byte: 5 balls, the given limit index (0: none, 1: 1 s, 2: 30 s, 3: an hour).
const fn opts(limit: u8) -> u8 {
    limit << 1
}

/// A script: options, the peer's seed byte, then the steps.
fn script(options: u8, steps: &[[u8; 3]]) -> Vec<u8> {
    let mut out = vec![options, 7];
    out.extend(steps.iter().flatten());
    out
}

/// The peer reveals the value it committed to.
const REVEAL: [u8; 3] = [0, 0, 0];
/// The peer plays a legal move of its board.
const PEER_MOVE: [u8; 3] = [2, 3, 5];
/// The victim plays a legal move of its own board.
const OUR_MOVE: [u8; 3] = [8, 2, 9];

/// Sixty rounds of a legal move of the peer, one of ours and `time(round)`, after the
/// honest reveal: both boards fill and the race is finished on them.
fn honest_race_to_the_end(time: impl Fn(u8) -> [u8; 3]) -> ForgerReport {
    let mut steps = vec![REVEAL];
    for i in 0..60u8 {
        steps.extend([
            [2, i, i.wrapping_mul(7)],
            [8, i.wrapping_mul(3), i],
            time(i),
        ]);
    }
    let report = race_against_forger(&script(opts(3), &steps)).unwrap();
    let result = report.result.clone().expect("both boards filled");
    assert_eq!(result.end, RaceEnd::Finished);
    assert_eq!(result.turns, [report.our_turns, report.peer_turns]);
    assert!(
        report.peer_turns > 20 && report.our_turns > 20,
        "{report:?}"
    );
    report
}

#[test]
fn an_honest_race_fills_both_boards_and_the_result_counts_them() {
    let report = honest_race_to_the_end(|_| [11, 5, 0]);
    assert_eq!(report.resumed, 0);
}

#[test]
fn an_impossible_move_is_caught_and_not_counted() {
    let mut steps = vec![REVEAL, PEER_MOVE, OUR_MOVE];
    // A ball to its own cell: no ball there, or the cell is taken; a legal move after it.
    steps.extend([[3, 40, 40], PEER_MOVE]);
    let report = race_against_forger(&script(opts(3), &steps)).unwrap();
    let result = report.result.clone().expect("the cheat ends the race");
    assert!(
        matches!(
            result.end,
            RaceEnd::Cheated(Color::Black, RaceFault::ImpossibleMove { turn: 1, .. })
        ),
        "{result:?}"
    );
    assert_eq!(result.winner, Some(Color::Red));
    assert_eq!(report.peer_turns, 1, "only the legal move counts");
}

#[test]
fn a_reveal_other_than_the_commitment_is_caught() {
    let report = race_against_forger(&script(opts(3), &[[1, 8, 0], PEER_MOVE])).unwrap();
    let result = report
        .result
        .clone()
        .expect("the false reveal ends the race");
    assert_eq!(
        result.end,
        RaceEnd::Cheated(Color::Black, RaceFault::Seed(SeedError::Mismatch))
    );
    assert_eq!(report.peer_turns, 0);
}

#[test]
fn a_move_before_the_reveal_is_caught() {
    let report = race_against_forger(&script(opts(3), &[[3, 10, 11], REVEAL])).unwrap();
    let result = report.result.clone().expect("the early move ends the race");
    assert_eq!(
        result.end,
        RaceEnd::Cheated(Color::Black, RaceFault::MoveBeforeSeed)
    );
}

#[test]
fn our_resignation_gives_the_peer_the_race() {
    // We resign, then try to move; the peer stops after its one move (a stop numbered
    // `a − 2` past its next turn): the race is over.
    let steps = [REVEAL, PEER_MOVE, OUR_MOVE, [9, 0, 0], OUR_MOVE];
    let report = race_against_forger(&script(opts(3), &steps)).unwrap();
    assert_eq!(report.result, None, "the peer has not stopped yet");
    let report =
        race_against_forger(&script(opts(3), &[&steps[..], &[[4, 2, 0]]].concat())).unwrap();
    let result = report.result.clone().expect("resigned");
    assert_eq!(result.end, RaceEnd::Resigned(Color::Red));
    assert_eq!(result.winner, Some(Color::Black));
    assert_eq!(report.our_turns, 1, "no move after resigning");
}

#[test]
fn the_time_limit_ends_the_race_on_the_scores() {
    // 51 s pass, over the 30 s limit: we stop, and wait for the peer's stop.
    let steps = [
        REVEAL,
        PEER_MOVE,
        OUR_MOVE,
        OUR_MOVE,
        [11, 0, 1],
        [11, 0, 1],
    ];
    let report = race_against_forger(&script(opts(2), &steps)).unwrap();
    assert_eq!(report.result, None, "the peer's stop is still due");
    let stopped =
        race_against_forger(&script(opts(2), &[&steps[..], &[[4, 2, 0]]].concat())).unwrap();
    // Or, without it, its board is taken where it is once the grace period is over.
    let cut = race_against_forger(&script(opts(2), &[&steps[..], &[[11, 0, 5]]].concat())).unwrap();
    for report in [stopped, cut] {
        let result = report.result.clone().expect("the race is over");
        assert_eq!(result.end, RaceEnd::Finished);
        assert_eq!(result.turns, [2, 1]);
    }
}

#[test]
fn an_untimed_race_is_declined() {
    let report = race_against_forger(&script(opts(0), &[REVEAL, PEER_MOVE, OUR_MOVE])).unwrap();
    assert_eq!(
        (report.peer_turns, report.our_turns, report.result),
        (0, 0, None)
    );
}

/// Time passes (`a` × 100 ms), then the link is cut and the peer dials again.
const fn redial(a: u8) -> [u8; 3] {
    [11 + 60, a, 0]
}

#[test]
fn a_race_cut_and_redialled_goes_on_to_its_end() {
    let report = honest_race_to_the_end(|i| match i {
        // A long silence takes the link down before the peer dials again.
        30 => [11 + 192, 255, 1],
        _ if i % 5 == 0 => redial(5),
        _ => [11, 5, 0],
    });
    assert_eq!(report.resumed, 12, "every cut was resumed");
}

#[test]
fn a_peer_that_flooded_the_link_is_resumed_when_it_dials_again() {
    // 150 reveals again at one instant spend the victim's inbound limit (a burst of 100
    // frames): the rest are dropped. The peer cuts and dials again; by the time a phone
    // has dialled, the limit has room for the handshake and the resume (found by the
    // `race_messages` fuzz target, whose forger had dialled again within the instant).
    let mut steps = vec![REVEAL];
    steps.extend(std::iter::repeat_n(REVEAL, 150));
    steps.extend([redial(0), PEER_MOVE]);
    let report = race_against_forger(&script(opts(3), &steps)).unwrap();
    assert_eq!(
        (report.resumed, report.peer_turns, report.result),
        (1, 1, None),
        "the race goes on over the new link"
    );
}

#[test]
fn a_stream_rewritten_across_a_cut_is_judged_as_sent() {
    // The peer's second move goes out past a lost number: the victim holds it, out of
    // order, and waits for the lost one.
    let steps = [REVEAL, PEER_MOVE, [10, 0, 0], PEER_MOVE];
    let stuck = race_against_forger(&script(opts(3), &steps)).unwrap();
    assert_eq!(
        (stuck.peer_turns, stuck.result),
        (1, None),
        "the move past the gap waits"
    );
    // Dialling again, the peer goes on from the victim's resume: its next move takes the
    // lost number, and the move held since before the cut, numbered for the same turn,
    // then comes one turn late.
    let steps = [&steps[..], &[redial(1), PEER_MOVE]].concat();
    let report = race_against_forger(&script(opts(3), &steps)).unwrap();
    assert_eq!((report.peer_turns, report.resumed), (2, 1));
    let result = report.result.expect("the stream is judged as sent");
    assert_eq!(
        result.end,
        RaceEnd::Cheated(
            Color::Black,
            RaceFault::WrongTurn {
                expected: 2,
                got: 1
            }
        )
    );
}

/// A step: mostly honest play and time, with every kind of forgery mixed in.
fn step() -> impl Strategy<Value = [u8; 3]> {
    let op = prop_oneof![
        3 => Just(2u8),
        3 => Just(8u8),
        2 => Just(11u8),
        // Time with the peer silent (top bit): a long silence takes the link down.
        1 => Just(11u8 + 132),
        // Time, then the link is cut and the peer dials again (bit 6), silent or not.
        1 => Just(11u8 + 60),
        1 => Just(11u8 + 192),
        1 => Just(0u8),
        1 => (0u8..=255).prop_map(|o| o - o % 12 + 1),
        1 => (0u8..=255).prop_map(|o| o - o % 12 + 3),
        1 => prop_oneof![Just(4u8), Just(5), Just(6), Just(7), Just(9), Just(10)],
    ];
    (op, any::<u8>(), any::<u8>()).prop_map(|(op, a, b)| [op, a, b])
}

proptest! {
    #![proptest_config(banco_game::testing::proptest_config(None, 0xF0_4632))]

    #[test]
    fn random_scripts_leave_the_victim_consistent(
        options in any::<u8>(),
        seed in any::<u8>(),
        steps in proptest::collection::vec(step(), 0..160),
    ) {
        let mut bytes = vec![options, seed];
        bytes.extend(steps.iter().flatten());
        if let Err(fault) = race_against_forger(&bytes) {
            prop_assert!(false, "{}", fault);
        }
    }

    #[test]
    fn random_bytes_leave_the_victim_consistent(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        if let Err(fault) = race_against_forger(&bytes) {
            prop_assert!(false, "{}", fault);
        }
    }
}
