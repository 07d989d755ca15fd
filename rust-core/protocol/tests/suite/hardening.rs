//! Issue 16, items 5–7, at the session level: clocks a peer cannot cheat, stale draw
//! offers, and refused moves that resynchronise or abandon the game instead of stalling.
#![allow(clippy::unwrap_used, clippy::panic)]

use crate::common;

use banco_game::{
    Color, DrawReason, Game, GameKind, MatchGame, MoveList, Outcome, SetupError, WinReason,
};
use banco_protocol::message::{
    AbortReason, Accept, Body, ClockSpec, DeclineReason, ErrorCode, MAX_REFUSALS,
    MIN_CLOCK_BASE_MS, MoveMsg, Propose,
};
use banco_protocol::sim::{CountingGame, CountingRules};
use banco_protocol::{ActionError, Event, Identity, MatchSpec, Session, SessionConfig};
use common::{RawPeer, S, events, play_in_turn, playing, pump, run_next_timer, session};

fn clock(base_ms: u32) -> Option<ClockSpec> {
    Some(ClockSpec {
        base_ms,
        increment_ms: 0,
    })
}

/// A victim (black) in a game against a raw peer (red) that acknowledged everything at
/// time 0, so the victim measured a round trip of 0 ms.
pub(crate) fn victim_against_raw(clock: Option<ClockSpec>, fen: Option<&str>) -> (S, RawPeer) {
    let mut victim = session("Victim", 2);
    let mut raw = RawPeer::connect(&mut victim, banco_protocol::PROTOCOL_VERSION, 0).unwrap();
    victim.confirm_peer(false).unwrap();
    raw.send(
        &mut victim,
        Body::Propose(Propose {
            game: 0,
            rules: 0,
            color: Color::Red,
            clock,
            fen: fen.map(str::to_owned),
            params: Vec::new(),
        }),
        0,
    );
    let asked = events(&mut victim);
    assert!(
        asked
            .iter()
            .any(|e| matches!(e, Event::Proposed(s) if s.clock == clock)),
        "{asked:?}"
    );
    victim.accept_proposal(0).unwrap();
    assert!(
        raw.recv(&mut victim)
            .contains(&Body::Accept(Accept::default()))
    );
    raw.send(&mut victim, Body::Ack, 0);
    assert_eq!(victim.channel().rtt(), Some(0));
    events(&mut victim);
    (victim, raw)
}

pub(crate) fn move_msg(game: &CountingGame, mv: u8, clock_units: u32) -> MoveMsg {
    let mut after = game.clone();
    after.play(mv).unwrap();
    MoveMsg {
        ply: game.ply() as u8,
        mv: u16::from(mv),
        hash: after.hash() as u32,
        clock: clock_units,
    }
}

// ----- 5. clocks ---------------------------------------------------------------------------

#[test]
fn the_offered_clock_is_shown_and_one_below_the_minimum_is_declined() {
    // Our own proposal of a 100 ms clock is refused before it is sent.
    let (mut a, mut b) = playing(Color::Red, None);
    a.resign(1).unwrap();
    pump(&mut a, &mut b, 1);
    let short = MatchSpec {
        clock: clock(100),
        ..MatchSpec::new(GameKind::Xiangqi, Color::Red)
    };
    assert_eq!(a.propose(short, 2), Err(ActionError::ClockTooShort(100)));
    assert!(
        ActionError::ClockTooShort(100)
            .to_string()
            .contains("minimum of 10000 ms")
    );

    // A peer offering one is declined with its own reason, and never asks our player.
    let mut victim = session("Victim", 2);
    let mut raw = RawPeer::connect(&mut victim, banco_protocol::PROTOCOL_VERSION, 0).unwrap();
    victim.confirm_peer(false).unwrap();
    events(&mut victim);
    raw.send(
        &mut victim,
        Body::Propose(Propose {
            game: 0,
            rules: 0,
            color: Color::Red,
            clock: clock(MIN_CLOCK_BASE_MS - 1),
            fen: None,
            params: Vec::new(),
        }),
        1,
    );
    assert!(raw.recv(&mut victim).contains(&Body::Decline {
        reason: DeclineReason::CLOCK_TOO_SHORT
    }));
    assert!(
        !events(&mut victim)
            .iter()
            .any(|e| matches!(e, Event::Proposed(_)))
    );
    assert_eq!(
        DeclineReason::CLOCK_TOO_SHORT.text(),
        "the clock is shorter than the minimum of 10 seconds"
    );

    // The minimum itself is played, and the accept prompt carries the clock.
    let (victim, _raw) = victim_against_raw(clock(MIN_CLOCK_BASE_MS), None);
    assert_eq!(victim.match_spec().unwrap().clock, clock(MIN_CLOCK_BASE_MS));
}

#[test]
fn a_peer_claiming_no_thinking_time_is_charged_the_time_measured_here() {
    let (mut v, mut raw) = victim_against_raw(clock(60_000), None);
    let start = v.game().unwrap().clone();
    // Red thinks 30 s and claims 0 ms.
    raw.send(&mut v, Body::Move(move_msg(&start, 1, 0)), 30_000);
    assert_eq!(v.ply(), Some(1));
    // Charged 30 s minus the 0 ms round trip and one 100 ms unit for rounding.
    assert_eq!(v.clocks(30_000), Some([60_000 - 29_900, 60_000]));

    // An honest claim stands: black's clock was not touched, and between two honest
    // sessions both show the same clocks.
    let (mut a, mut b) = playing(Color::Red, clock(60_000));
    a.play(1, 2_340).unwrap();
    pump(&mut a, &mut b, 2_340);
    assert_eq!(a.clocks(2_340), b.clocks(2_340));
    assert_eq!(b.clocks(2_340), Some([57_700, 60_000]));
}

#[test]
fn a_peer_that_never_moves_nor_flags_loses_on_time_measured_here() {
    let (mut v, mut raw) = victim_against_raw(clock(10_000), None);
    // Red's time as measured here, plus the allowance for the round trip and rounding
    // (keepalives come first).
    let mut now = 0;
    while v.outcome().is_none() {
        now = v.poll_timeout().unwrap();
        v.handle_timeout(now);
        if v.outcome().is_none() {
            raw.recv(&mut v);
        }
    }
    assert_eq!(now, 10_100);
    let black_wins = Some(Outcome::Win {
        winner: Color::Black,
        reason: WinReason::Timeout,
    });
    assert_eq!(v.outcome(), black_wins);
    assert!(raw.recv(&mut v).contains(&Body::TimeForfeit { ply: 0 }));
    // A move arriving afterwards changes nothing.
    let start = v.game().unwrap().clone();
    raw.send(&mut v, Body::Move(move_msg(&start, 1, 0)), 10_200);
    assert_eq!((v.ply(), v.outcome()), (Some(0), black_wins));
}

#[test]
fn a_move_arriving_after_the_measured_flag_is_taken_back_on_both_sides() {
    let (mut a, mut b) = playing(Color::Red, clock(10_000));
    // Red moves after 9 s by its own clock, but the frame reaches black only after
    // black's measurement of red's time ran out.
    a.play(2, 9_000).unwrap();
    let held: Vec<_> = std::iter::from_fn(|| a.poll_transmit()).collect();
    b.handle_timeout(b.poll_timeout().unwrap());
    assert_eq!(b.ply(), Some(0));
    for f in &held {
        b.handle_datagram(f, 10_500);
    }
    pump(&mut a, &mut b, 10_500);
    let black_wins = Some(Outcome::Win {
        winner: Color::Black,
        reason: WinReason::Timeout,
    });
    assert_eq!((a.outcome(), b.outcome()), (black_wins, black_wins));
    assert_eq!((a.ply(), b.ply()), (Some(0), Some(0)));
    assert!(events(&mut a).contains(&Event::Undone { to_ply: 0 }));
}

#[test]
fn the_side_that_lost_on_time_shows_no_time_left_on_both_sides() {
    // Black's own session flags black (red's measurement allows for the round trip).
    let (mut a, mut b) = playing(Color::Red, clock(10_000));
    a.play(1, 2_000).unwrap();
    pump(&mut a, &mut b, 2_000);
    let running = |s: &S, t| s.snapshot(t).unwrap().running_clock;
    assert_eq!(
        (running(&a, 2_000), running(&b, 2_000)),
        (Some(Color::Black), Some(Color::Black))
    );
    let mut now = 2_000;
    while b.outcome().is_none() {
        now = run_next_timer(&mut a, &mut b);
        pump(&mut a, &mut b, now);
    }
    assert_eq!(a.outcome(), b.outcome());
    // Red's clock stopped at its move (2 s spent), black's shows 0, then and later.
    for t in [now, now + 5_000] {
        assert_eq!(a.clocks(t), Some([8_000, 0]), "red's view at {t}");
        assert_eq!(b.clocks(t), Some([8_000, 0]), "black's view at {t}");
        assert_eq!(
            (running(&a, t), running(&b, t)),
            (None, None),
            "no clock runs"
        );
    }

    // A peer that never moves: its flag falls by the time measured here.
    let (mut v, mut raw) = victim_against_raw(clock(10_000), None);
    let mut now = 0;
    while v.outcome().is_none() {
        now = v.poll_timeout().unwrap();
        v.handle_timeout(now);
        if v.outcome().is_none() {
            raw.recv(&mut v);
        }
    }
    assert_eq!(v.clocks(now), Some([0, 10_000]));
    assert_eq!(v.snapshot(now).unwrap().clocks, Some([0, 10_000]));

    // The flag crossed the loser's move: taken back, and the loser's clock shows 0.
    let (mut a, mut b) = playing(Color::Red, clock(10_000));
    a.play(2, 9_000).unwrap();
    let held: Vec<_> = std::iter::from_fn(|| a.poll_transmit()).collect();
    b.handle_timeout(b.poll_timeout().unwrap());
    for f in &held {
        b.handle_datagram(f, 10_500);
    }
    pump(&mut a, &mut b, 10_500);
    assert_eq!(a.clocks(10_500), Some([0, 10_000]));
    assert_eq!(b.clocks(10_500), Some([0, 10_000]));
}

/// A forfeit no crossing can explain is a false claim: the forger loses the game rather
/// than void it, and this device is not said to have abandoned (review revB D6).
#[test]
fn a_forfeit_naming_a_position_where_we_were_not_to_move_loses_the_game_for_the_forger() {
    let forfeit = Some(Outcome::Win {
        winner: Color::Black,
        reason: WinReason::Forfeit,
    });
    // Timed, at the start on red's (the raw peer's) turn: a forfeit of black's time is a
    // lie. Untimed, on black's own turn: there is no clock to run out.
    for (spec, moved) in [(clock(60_000), false), (None, true)] {
        let (mut v, mut raw) = victim_against_raw(spec, None);
        if moved {
            let start = v.game().unwrap().clone();
            raw.send(&mut v, Body::Move(move_msg(&start, 1, 0)), 3);
        }
        raw.send(
            &mut v,
            Body::TimeForfeit {
                ply: u32::from(moved),
            },
            5,
        );
        assert_eq!(v.outcome(), forfeit);
        assert_eq!(v.aborted(), None);
        let ev = events(&mut v);
        assert!(
            !ev.iter().any(|e| matches!(e, Event::MatchAborted { .. })),
            "{ev:?}"
        );
        assert!(raw.recv(&mut v).contains(&Body::Error {
            code: ErrorCode::UNEXPECTED
        }));
    }
    // With our move still on its way, a crossing nobody foresaw cannot be ruled out: the
    // game is abandoned instead.
    let (mut v, mut raw) = victim_against_raw(clock(60_000), None);
    let start = v.game().unwrap().clone();
    raw.send(&mut v, Body::Move(move_msg(&start, 1, 0)), 1_000);
    v.play(1, 2_000).unwrap();
    raw.send(&mut v, Body::TimeForfeit { ply: 2 }, 2_100);
    assert_eq!(v.outcome(), None);
    assert_eq!(v.aborted(), Some(AbortReason::CLOCKS_DIFFER));
    assert!(raw.recv(&mut v).contains(&Body::Abort {
        reason: AbortReason::CLOCKS_DIFFER
    }));
}

/// Runs both sessions' timers, delivering nothing (the link is out), until both games
/// are over: `held` gathers what each sent meanwhile (red's, then black's); returns the time.
fn both_flag_offline(a: &mut S, b: &mut S, held: &mut [Vec<Vec<u8>>; 2], mut now: u64) -> u64 {
    while a.outcome().is_none() || b.outcome().is_none() {
        now = run_next_timer(a, b);
        let [to_b, to_a] = held;
        to_b.extend(std::iter::from_fn(|| a.poll_transmit()));
        to_a.extend(std::iter::from_fn(|| b.poll_transmit()));
    }
    now
}

/// A win on time for `c`.
fn timeout_win(c: Color) -> Option<Outcome> {
    Some(Outcome::Win {
        winner: c,
        reason: WinReason::Timeout,
    })
}

/// The link comes back after [`both_flag_offline`]: each side gets what the other sent
/// (`a`, red, first when `red_hears_first`); then both sides must show `end` at `ply`
/// with the same moves and clocks.
fn reconnect_and_agree(
    (a, b): (&mut S, &mut S),
    held: &[Vec<Vec<u8>>; 2],
    now: u64,
    red_hears_first: bool,
    (end, ply): (Option<Outcome>, Option<u32>),
    case: &str,
) {
    let [to_b, to_a] = held;
    for step in 0..2u64 {
        let t = now + 100 * (step + 1);
        let (side, frames) = if (step == 0) == red_hears_first {
            (&mut *a, to_a)
        } else {
            (&mut *b, to_b)
        };
        for f in frames {
            side.handle_datagram(f, t);
        }
    }
    pump(a, b, now + 300);
    assert_eq!((a.outcome(), b.outcome()), (end, end), "{case}");
    assert_eq!((a.ply(), b.ply()), (ply, ply), "{case}");
    assert_eq!(a.moves(), b.moves(), "{case}");
    assert_eq!(a.clocks(now + 300), b.clocks(now + 300), "{case}");
}

#[test]
fn flags_on_both_sides_of_an_accepted_undo_end_both_sides_alike() {
    // Found by the xiangqi soak (`banco soak --game xiangqi --seed 20261204`, game 3213):
    // black asks to take back its move, red accepts, and the link goes out before the
    // acceptance arrives. Black's clock runs out on both sides: black's own session flags
    // black where it stands (two plies ahead), red's measurement flags black in the
    // undo's position. Each side ignored the other's end once its own game was over, and
    // the two records kept different moves under the same result. With black's request
    // made on red's turn (`on_reds_turn`; the soak with seed 1, game 6935, once the first
    // case was mended) black's session flags red instead, and each side took the other's
    // end: the results swapped. Black's end stands on both sides: black never saw the
    // acceptance before its game ended.
    for on_reds_turn in [false, true] {
        for red_hears_first in [true, false] {
            let case = format!("on red's turn: {on_reds_turn}, red hears first: {red_hears_first}");
            let (mut a, mut b) = playing(Color::Red, clock(10_000));
            let times: &[u64] = if on_reds_turn {
                &[1_000, 2_000]
            } else {
                &[1_000, 2_000, 3_000]
            };
            play_in_turn(&mut a, &mut b, times);
            let black_at = b.ply();
            b.request_undo(3_100).unwrap();
            pump(&mut a, &mut b, 3_100);
            assert!(events(&mut a).contains(&Event::UndoRequested { to_ply: 1 }));
            a.reply_undo(true, 3_200).unwrap();
            assert_eq!(a.ply(), Some(1));
            let mut held = [Vec::new(), Vec::new()];
            held[0].extend(std::iter::from_fn(|| a.poll_transmit()));
            let now = both_flag_offline(&mut a, &mut b, &mut held, 3_200);
            let blacks_end = timeout_win(if on_reds_turn {
                Color::Black
            } else {
                Color::Red
            });
            assert_eq!(a.outcome(), timeout_win(Color::Red), "{case}");
            assert_eq!((b.outcome(), b.ply()), (blacks_end, black_at), "{case}");
            let end = (blacks_end, black_at);
            reconnect_and_agree((&mut a, &mut b), &held, now, red_hears_first, end, &case);
        }
    }
}

#[test]
fn flags_after_an_accepted_undo_that_took_back_a_crossing_move_end_both_sides_alike() {
    // Found by `banco soak --seed 30006` (game 4017, every game kind): black moves and
    // asks to take the move back; red's move crosses the request on the wire; red hears
    // the request and accepts, taking back both moves, and the link goes out before black
    // hears the move or the acceptance. Black's session flags red one ply past the
    // position the acceptance went back to, red's flags black there. Red ignored black's
    // end (one ply before where its acceptance went back from, not that position itself),
    // and the two sessions showed opposite results. Black never saw the acceptance before
    // its game ended: its end stands on both sides.
    for red_hears_first in [true, false] {
        let case = format!("red hears first: {red_hears_first}");
        let (mut a, mut b) = playing(Color::Red, clock(10_000));
        play_in_turn(&mut a, &mut b, &[1_000, 2_000, 3_000]);
        b.play(1, 3_100).unwrap();
        pump(&mut a, &mut b, 3_100);
        let black_at = b.ply();
        b.request_undo(3_200).unwrap();
        a.play(1, 3_200).unwrap();
        // Only black's request gets through: red's move stays on the wire.
        while let Some(f) = b.poll_transmit() {
            a.handle_datagram(&f, 3_250);
        }
        assert!(events(&mut a).contains(&Event::UndoRequested { to_ply: 3 }));
        a.reply_undo(true, 3_300).unwrap();
        assert_eq!(a.ply(), Some(3));
        let mut held = [Vec::new(), Vec::new()];
        held[0].extend(std::iter::from_fn(|| a.poll_transmit()));
        let now = both_flag_offline(&mut a, &mut b, &mut held, 3_300);
        let red = (a.outcome(), a.ply());
        assert_eq!(red, (timeout_win(Color::Red), Some(3)), "{case}");
        let black = (b.outcome(), b.ply());
        assert_eq!(black, (timeout_win(Color::Black), black_at), "{case}");
        reconnect_and_agree((&mut a, &mut b), &held, now, red_hears_first, black, &case);
    }
}

// ----- 6. draw offers ----------------------------------------------------------------------

#[test]
fn an_answer_to_an_older_offer_is_not_taken_for_the_answer_to_the_offer_after_an_undo() {
    // Found by `banco soak --game xiangqi --seed 30072` (game 1255). Red offers a draw
    // after its move; black's move crosses the offer, and black asks to take it back. Red
    // moves and offers again, then hears the request and accepts (back to before black's
    // move). Black heard the first offer only after its own move and declined it; red
    // took that answer for the answer to its second offer (the undo had lowered the
    // offer's position below the answer's), so black's acceptance of the second offer,
    // made after the undo, was ignored: black's game was drawn and red's went on. Since
    // draws are offered after one's own move, black ignores the first offer (red is to
    // move when it arrives) and red's side ends it when black's move arrives.
    let (mut a, mut b) = playing(Color::Red, None);
    play_in_turn(&mut a, &mut b, &[1, 2, 3]);
    a.offer_draw(4).unwrap();
    let mut to_b: Vec<Vec<u8>> = std::iter::from_fn(|| a.poll_transmit()).collect();
    b.play(1, 5).unwrap();
    for f in std::iter::from_fn(|| b.poll_transmit()) {
        a.handle_datagram(&f, 5);
    }
    b.request_undo(6).unwrap();
    let request: Vec<Vec<u8>> = std::iter::from_fn(|| b.poll_transmit()).collect();
    a.play(1, 7).unwrap();
    a.offer_draw(7).unwrap();
    to_b.extend(std::iter::from_fn(|| a.poll_transmit()));
    for f in &request {
        a.handle_datagram(f, 8);
    }
    let ea = events(&mut a);
    assert!(ea.contains(&Event::UndoRequested { to_ply: 3 }), "{ea:?}");
    assert!(
        ea.contains(&Event::DrawDeclined),
        "black's move ended the first offer"
    );
    a.reply_undo(true, 8).unwrap();
    assert_eq!(a.ply(), Some(3));
    to_b.extend(std::iter::from_fn(|| a.poll_transmit()));
    // Black hears everything in order; the first offer comes after its own move (red to
    // move) and is not shown; it accepts the second once the undo is done.
    let mut offers = 0;
    for f in &to_b {
        b.handle_datagram(f, 9);
        for e in events(&mut b) {
            if e == Event::DrawOffered {
                offers += 1;
                assert_eq!(b.ply(), Some(5), "the offer after red's second move");
            }
        }
        for g in std::iter::from_fn(|| b.poll_transmit()) {
            a.handle_datagram(&g, 9);
        }
    }
    assert_eq!((offers, b.ply()), (1, Some(3)));
    assert_eq!(a.outcome(), None);
    b.reply_draw(true, 10).unwrap();
    pump(&mut a, &mut b, 10);
    let draw = Some(Outcome::Draw {
        reason: DrawReason::Agreement,
    });
    assert_eq!((a.outcome(), b.outcome()), (draw, draw));
    assert_eq!((a.ply(), b.ply()), (Some(3), Some(3)));
    assert_eq!(a.moves(), b.moves());
}

#[test]
fn a_draw_reply_never_replaces_a_finished_result() {
    // Black (the victim) offers a draw, then wins with its move; the peer answers "yes"
    // naming the position before that move.
    let (mut v, mut raw) = victim_against_raw(None, Some("55/60"));
    let g = v.game().unwrap().clone();
    raw.send(&mut v, Body::Move(move_msg(&g, 2, 0)), 1); // 57
    v.offer_draw(2).unwrap();
    v.play(3, 3).unwrap(); // 60: black wins
    let black_wins = Some(Outcome::Win {
        winner: Color::Black,
        reason: WinReason::Checkmate,
    });
    assert_eq!(v.outcome(), black_wins);
    raw.recv(&mut v);
    raw.send(
        &mut v,
        Body::DrawReply {
            accept: true,
            ply: 1,
        },
        4,
    );
    assert_eq!((v.outcome(), v.ply()), (black_wins, Some(2)));
    raw.send(
        &mut v,
        Body::DrawReply {
            accept: true,
            ply: 2,
        },
        5,
    );
    assert_eq!((v.outcome(), v.ply()), (black_wins, Some(2)));
}

#[test]
fn only_a_one_ply_crossing_of_our_own_move_overrides_a_result() {
    // Black wins with its move at ply 3; red's resignation naming ply 1 (two plies back)
    // is ignored, one naming ply 3 (our winning move crossed it) stands.
    let setup = || {
        let (mut v, mut raw) = victim_against_raw(None, Some("53/60"));
        for (i, mv) in [2u8, 2, 2].into_iter().enumerate() {
            let t = i as u64 + 1;
            if i % 2 == 0 {
                let g = v.game().unwrap().clone();
                raw.send(&mut v, Body::Move(move_msg(&g, mv, 0)), t);
            } else {
                v.play(mv, t).unwrap();
            }
        }
        // 59, black to move: black wins with 1.
        v.play(1, 5).unwrap();
        assert!(v.outcome().is_some());
        raw.recv(&mut v);
        (v, raw)
    };
    let black_wins = Some(Outcome::Win {
        winner: Color::Black,
        reason: WinReason::Checkmate,
    });
    let (mut v, mut raw) = setup();
    raw.send(&mut v, Body::Resign { ply: 2 }, 6);
    assert_eq!((v.outcome(), v.ply()), (black_wins, Some(4)));
    raw.send(&mut v, Body::Flag { ply: 2 }, 7);
    assert_eq!((v.outcome(), v.ply()), (black_wins, Some(4)));

    let (mut v, mut raw) = setup();
    raw.send(&mut v, Body::Resign { ply: 3 }, 6);
    let resigned = Some(Outcome::Win {
        winner: Color::Black,
        reason: WinReason::Resignation,
    });
    assert_eq!((v.outcome(), v.ply()), (resigned, Some(3)));
}

#[test]
fn an_agreed_draw_stands_when_no_move_crossed_it() {
    let (mut a, mut b) = playing(Color::Red, None);
    a.play(1, 1).unwrap();
    a.offer_draw(1).unwrap();
    pump(&mut a, &mut b, 1);
    b.reply_draw(true, 2).unwrap();
    pump(&mut a, &mut b, 2);
    let draw = Some(Outcome::Draw {
        reason: DrawReason::Agreement,
    });
    assert_eq!((a.outcome(), b.outcome()), (draw, draw));
}

// ----- 7. refused moves --------------------------------------------------------------------

/// The counting game as another app version might play it: `MODE` 1 refuses the move 3,
/// `MODE` 2 hashes positions differently.
#[derive(Clone, Debug, PartialEq)]
struct Variant<const MODE: u8>(CountingGame);

impl<const MODE: u8> Game for Variant<MODE> {
    type Move = u8;
    type Undo = ();
    type Rules = CountingRules;
    type PlayError = <CountingGame as Game>::PlayError;
    fn kind(&self) -> GameKind {
        self.0.kind()
    }
    fn side_to_move(&self) -> Color {
        self.0.side_to_move()
    }
    fn legal_moves(&self, moves: &mut MoveList<u8>) {
        self.0.legal_moves(moves);
        if MODE == 1 {
            moves.retain(|m| *m != 3);
        }
    }
    fn is_legal(&self, mv: u8) -> bool {
        self.0.is_legal(mv) && !(MODE == 1 && mv == 3)
    }
    fn play(&mut self, mv: u8) -> Result<(), Self::PlayError> {
        self.0.play(mv)
    }
    fn make_unchecked(&mut self, mv: u8) {
        self.0.make_unchecked(mv);
    }
    fn unmake(&mut self, mv: u8, (): ()) {
        self.0.unmake(mv, ());
    }
    fn in_check(&self) -> bool {
        false
    }
    fn no_move_outcome(&self) -> Outcome {
        self.0.no_move_outcome()
    }
    fn outcome(&self, rules: &CountingRules) -> Option<Outcome> {
        self.0.outcome(rules)
    }
    fn hash(&self) -> u64 {
        if MODE == 2 {
            !self.0.hash()
        } else {
            self.0.hash()
        }
    }
    fn ply(&self) -> u32 {
        self.0.ply()
    }
    fn encode_move(&self, mv: u8) -> u16 {
        self.0.encode_move(mv)
    }
    fn decode_move(&self, code: u16) -> Option<u8> {
        self.0.decode_move(code)
    }
}

impl<const MODE: u8> MatchGame for Variant<MODE> {
    fn kinds() -> &'static [GameKind] {
        CountingGame::kinds()
    }
    fn setup(kind: GameKind, fen: Option<&str>) -> Result<Self, SetupError> {
        CountingGame::setup(kind, fen).map(Variant)
    }
    fn rules(kind: GameKind, index: u8) -> Option<CountingRules> {
        CountingGame::rules(kind, index)
    }
    fn fen(&self) -> String {
        self.0.fen()
    }
    fn start_fen(&self) -> String {
        self.0.start_fen()
    }
}

/// Carries frames both ways between sessions of two different game types.
fn pump2<A: MatchGame, B: MatchGame>(a: &mut Session<A>, b: &mut Session<B>, now: u64) {
    for _ in 0..1000 {
        let mut moved = false;
        while let Some(f) = a.poll_transmit() {
            b.handle_datagram(&f, now);
            moved = true;
        }
        while let Some(f) = b.poll_transmit() {
            a.handle_datagram(&f, now);
            moved = true;
        }
        if !moved {
            return;
        }
    }
    panic!("sessions never went quiet");
}

fn events2<G: MatchGame>(s: &mut Session<G>) -> Vec<Event<G::Move>> {
    std::iter::from_fn(|| s.poll_event()).collect()
}

/// Red plays the counting game, black the variant `MODE`; a game of xiangqi started.
fn mismatched<const MODE: u8>() -> (S, Session<Variant<MODE>>) {
    let mut a: S = Session::new(
        SessionConfig::new("A", &[GameKind::Xiangqi]),
        Identity::from_secret([1; 32]),
        [1; 32],
    );
    let mut b: Session<Variant<MODE>> = Session::new(
        SessionConfig::new("B", &[GameKind::Xiangqi]),
        Identity::from_secret([2; 32]),
        [2; 32],
    );
    a.connect(0).unwrap();
    b.accept(0).unwrap();
    pump2(&mut a, &mut b, 0);
    a.confirm_peer(false).unwrap();
    b.confirm_peer(false).unwrap();
    a.propose(MatchSpec::new(GameKind::Xiangqi, Color::Red), 0)
        .unwrap();
    pump2(&mut a, &mut b, 0);
    b.accept_proposal(0).unwrap();
    pump2(&mut a, &mut b, 0);
    events2(&mut a);
    events2(&mut b);
    (a, b)
}

#[test]
fn a_refused_move_is_taken_back_and_played_again_instead_of_stalling() {
    let (mut a, mut b) = mismatched::<1>();
    a.play(3, 1).unwrap();
    pump2(&mut a, &mut b, 1);
    assert!(events2(&mut b).iter().any(|e| matches!(
        e,
        Event::PeerIllegalMove {
            ply: 0,
            code: 3,
            ..
        }
    )));
    assert!(events2(&mut a).contains(&Event::MoveRefused { to_ply: 0 }));
    assert_eq!((a.ply(), b.ply()), (Some(0), Some(0)));
    // Red plays again; the game goes on in step.
    a.play(1, 2).unwrap();
    pump2(&mut a, &mut b, 2);
    b.play(2, 3).unwrap();
    pump2(&mut a, &mut b, 3);
    assert_eq!(a.moves(), Some(&[1u8, 2][..]));
    assert_eq!(b.moves(), Some(&[1u8, 2][..]));
}

#[test]
fn a_refused_winning_move_keeps_the_win_and_abandons_the_game() {
    let (mut a, mut b) = mismatched::<1>();
    // 27 twos and 3 ones: 57 after 30 moves, Red to move; Red's 3 reaches the target (a
    // win by Red's rules), which Black's rules call illegal.
    let moves = std::iter::repeat_n(2u8, 27).chain([1, 1, 1]);
    for (t, mv) in (1u64..).zip(moves) {
        if t % 2 == 1 {
            a.play(mv, t).unwrap();
        } else {
            b.play(mv, t).unwrap();
        }
        pump2(&mut a, &mut b, t);
    }
    events2(&mut a);
    events2(&mut b);
    a.play(3, 100).unwrap();
    let win = Some(Outcome::Win {
        winner: Color::Red,
        reason: WinReason::Checkmate,
    });
    assert_eq!(a.outcome(), win);
    pump2(&mut a, &mut b, 101);
    // Red's win stands; the game is abandoned on both sides, not played again.
    assert_eq!(a.outcome(), win);
    assert!(!events2(&mut a).contains(&Event::MoveRefused { to_ply: 30 }));
    let reason = Some(AbortReason::POSITIONS_DIFFER);
    assert_eq!((a.aborted(), b.aborted()), (reason, reason));
    assert_eq!(b.outcome(), None);
}

#[test]
fn moves_refused_again_and_again_abandon_the_game_on_both_sides() {
    let (mut a, mut b) = mismatched::<1>();
    for t in 0..=u64::from(MAX_REFUSALS) {
        assert_eq!(a.aborted(), None);
        a.play(3, t + 1).unwrap();
        pump2(&mut a, &mut b, t + 1);
    }
    let reason = AbortReason::TOO_MANY_REFUSALS;
    assert_eq!((a.aborted(), b.aborted()), (Some(reason), Some(reason)));
    assert_eq!((a.outcome(), b.outcome()), (None, None));
    assert!(events2(&mut a).contains(&Event::MatchAborted {
        reason,
        by_peer: true
    }));
    assert!(events2(&mut b).contains(&Event::MatchAborted {
        reason,
        by_peer: false
    }));
    assert_eq!(a.play(1, 9), Err(ActionError::Aborted(reason)));
    // A new game can be proposed.
    a.propose(MatchSpec::new(GameKind::Xiangqi, Color::Black), 10)
        .unwrap();
}

#[test]
fn positions_that_cannot_be_reconciled_abandon_the_game_with_a_clear_reason() {
    let (mut a, mut b) = mismatched::<2>();
    a.play(1, 1).unwrap();
    pump2(&mut a, &mut b, 1);
    let eb = events2(&mut b);
    assert!(
        eb.iter().any(|e| matches!(e, Event::Desync { ply: 0, .. })),
        "{eb:?}"
    );
    let reason = AbortReason::POSITIONS_DIFFER;
    assert!(eb.contains(&Event::MatchAborted {
        reason,
        by_peer: true
    }));
    assert!(events2(&mut a).contains(&Event::MatchAborted {
        reason,
        by_peer: false
    }));
    assert_eq!((a.aborted(), b.aborted()), (Some(reason), Some(reason)));
    assert_eq!(
        ActionError::Aborted(reason).to_string(),
        "the game was abandoned: the two devices disagree on the position"
    );
}

#[test]
fn a_resync_cannot_take_back_the_peers_own_moves() {
    // A hostile peer asks to go back over moves that were not ours: the game is abandoned,
    // never rewritten.
    let (mut v, mut raw) = victim_against_raw(None, None);
    let g = v.game().unwrap().clone();
    raw.send(&mut v, Body::Move(move_msg(&g, 1, 0)), 1);
    v.play(1, 2).unwrap();
    raw.recv(&mut v);
    let start_hash = CountingGame::default().hash() as u32;
    raw.send(
        &mut v,
        Body::Resync {
            ply: 0,
            hash: start_hash,
        },
        3,
    );
    assert_eq!(v.ply(), Some(2));
    assert_eq!(v.aborted(), Some(AbortReason::POSITIONS_DIFFER));
}
