//! The match on top of the channel: offered games, proposals that name the game, rules,
//! start position and parameters, precise declines, crossed proposals, claimed draws, the
//! tie-break between crossing game-ending messages, and games with a chance step.
#![allow(clippy::unwrap_used)]

use crate::common;

use banco_game::toy::{DiceMove, DiceRace, DiceRules};
use banco_game::{
    ChanceList, Color, DrawReason, Game, GameKind, MatchGame, MoveList, Outcome, SetupError,
    WinReason,
};
use banco_protocol::fairdraw::{HashChain, commitment, draw_ticket};
use banco_protocol::message::{
    Body, CAP_CHESS, CAP_XIANGQI, DeclineReason, ErrorCode, MAX_PARAMS_LEN, MoveMsg, Propose,
    game_code,
};
use banco_protocol::sim::CountingGame;
use banco_protocol::{
    ActionError, Event, Identity, IllegalReason, MatchSpec, PROTOCOL_VERSION, Session,
    SessionConfig,
};
use common::{RawPeer, events, link, playing_spec, pump, session, session_offering};

const BOTH: &[GameKind] = &[GameKind::Xiangqi, GameKind::Chess];

fn spec(game: GameKind, color: Color) -> MatchSpec {
    MatchSpec::new(game, color)
}

fn proposed<M>(ev: &[Event<M>]) -> Option<&MatchSpec> {
    ev.iter().find_map(|e| match e {
        Event::Proposed(s) => Some(s),
        _ => None,
    })
}

fn started<M>(ev: &[Event<M>]) -> Option<&MatchSpec> {
    ev.iter().find_map(|e| match e {
        Event::MatchStarted(s) => Some(s),
        _ => None,
    })
}

/// Two confirmed sessions: `a` offers `a_offers`, `b` offers `b_offers`.
fn paired(
    a_offers: &[GameKind],
    b_offers: &[GameKind],
) -> (Session<CountingGame>, Session<CountingGame>) {
    let mut a = session_offering("Host", 1, a_offers);
    let mut b = session_offering("Guest", 2, b_offers);
    link(&mut a, &mut b, 0);
    a.confirm_peer(false).unwrap();
    b.confirm_peer(false).unwrap();
    events(&mut a);
    events(&mut b);
    (a, b)
}

#[test]
fn the_guest_sees_both_offered_games_and_proposes_the_second() {
    let (mut host, mut guest) = paired(BOTH, BOTH);
    assert_eq!(host.offers(), BOTH);
    let seen = guest.peer().unwrap();
    assert_eq!(seen.caps, CAP_XIANGQI | CAP_CHESS);
    assert_eq!(seen.offers(), BOTH);

    guest
        .propose(spec(GameKind::Chess, Color::Black), 1)
        .unwrap();
    assert_eq!(
        guest.pending_proposal().map(|(s, ours)| (s.game, ours)),
        Some((GameKind::Chess, true))
    );
    pump(&mut host, &mut guest, 1);
    let ev = events(&mut host);
    let asked = proposed(&ev).unwrap();
    assert_eq!(
        (asked.game, asked.local_color),
        (GameKind::Chess, Color::Red)
    );
    host.accept_proposal(2).unwrap();
    pump(&mut host, &mut guest, 2);
    assert_eq!(host.game().unwrap().kind(), GameKind::Chess);
    assert_eq!(guest.game().unwrap().kind(), GameKind::Chess);
    assert_eq!(
        started(&events(&mut guest)).map(|s| s.game),
        Some(GameKind::Chess)
    );
    host.play(3, 3).unwrap();
    pump(&mut host, &mut guest, 3);
    assert_eq!(guest.moves(), Some(&[3u8][..]));
    assert_eq!(guest.game(), host.game());
}

#[test]
fn a_session_offers_only_games_its_type_can_be() {
    let config = SessionConfig::new("A", &[GameKind::Jieqi, GameKind::Chess, GameKind::Chess]);
    let s: Session<CountingGame> = Session::new(config, Identity::from_secret([1; 32]), [1; 32]);
    assert_eq!(s.offers(), &[GameKind::Chess]);
    assert_eq!(s.channel().caps(), CAP_CHESS);
}

#[test]
fn local_proposals_are_checked_like_the_peer_would() {
    let (mut a, mut b) = paired(BOTH, &[GameKind::Xiangqi]);
    let mut s = spec(GameKind::Chess, Color::Red);
    assert_eq!(
        a.propose(s.clone(), 1),
        Err(ActionError::PeerDoesNotOffer(GameKind::Chess))
    );
    assert_eq!(
        b.propose(s.clone(), 1),
        Err(ActionError::GameNotOffered(GameKind::Chess))
    );
    s.game = GameKind::Xiangqi;
    s.rules = 9;
    assert_eq!(
        a.propose(s.clone(), 1),
        Err(ActionError::UnknownRules {
            game: GameKind::Xiangqi,
            index: 9
        })
    );
    s.rules = 0;
    s.start_fen = Some("twelve".into());
    assert!(matches!(
        a.propose(s.clone(), 1),
        Err(ActionError::BadPosition(_))
    ));
    s.start_fen = Some("60".into());
    let err = a.propose(s.clone(), 1).unwrap_err();
    println!("{err}");
    assert!(matches!(err, ActionError::BadPosition(ref why) if why.contains("over")));
    s.start_fen = None;
    s.local_params = vec![0; MAX_PARAMS_LEN + 1];
    assert_eq!(
        a.propose(s.clone(), 1),
        Err(ActionError::ParamsTooLong(MAX_PARAMS_LEN + 1))
    );
    assert!(a.pending_proposal().is_none(), "nothing was sent");
    pump(&mut a, &mut b, 1);
    assert!(events(&mut b).is_empty());
}

/// The raw peer (red, offering nothing) proposes `p` to a victim offering xiangqi only;
/// returns the victim's answer.
fn answer_to(p: Propose) -> (Vec<Body>, Vec<Event<u8>>) {
    let mut victim = session("Victim", 2);
    let mut raw = RawPeer::connect(&mut victim, PROTOCOL_VERSION, 0).unwrap();
    victim.confirm_peer(false).unwrap();
    raw.recv(&mut victim);
    events(&mut victim);
    raw.send(&mut victim, Body::Propose(p), 1);
    let answer = raw.recv(&mut victim);
    let ev = events(&mut victim);
    assert!(victim.game().is_none());
    (answer, ev)
}

fn propose(game: u8, rules: u8, fen: Option<&str>) -> Propose {
    Propose {
        game,
        rules,
        color: Color::Red,
        clock: None,
        fen: fen.map(str::to_owned),
        params: Vec::new(),
    }
}

#[test]
fn proposals_the_receiver_cannot_play_are_declined_with_the_exact_reason() {
    let cases = [
        (
            "game not offered",
            propose(game_code(GameKind::Chess), 0, None),
            DeclineReason::UNSUPPORTED_GAME,
        ),
        (
            "unknown game code",
            propose(200, 0, None),
            DeclineReason::UNSUPPORTED_GAME,
        ),
        (
            "unknown rules",
            propose(0, 7, None),
            DeclineReason::UNSUPPORTED_RULES,
        ),
        (
            "unreadable FEN",
            propose(0, 0, Some("rnbakabnr")),
            DeclineReason::BAD_POSITION,
        ),
        (
            "control characters",
            propose(0, 0, Some("1\n2")),
            DeclineReason::BAD_POSITION,
        ),
        (
            "a finished game",
            propose(0, 0, Some("59/59")),
            DeclineReason::BAD_POSITION,
        ),
    ];
    for (what, p, want) in cases {
        let (answer, ev) = answer_to(p);
        assert!(
            answer.contains(&Body::Decline { reason: want }),
            "{what}: {answer:?}"
        );
        assert!(proposed(&ev).is_none(), "{what}: not shown to the player");
        println!("{what}: {}", want.text());
    }
    // A good one is shown.
    let (answer, ev) = answer_to(propose(0, 0, Some("41")));
    assert!(!answer.iter().any(|b| matches!(b, Body::Decline { .. })));
    assert_eq!(
        proposed(&ev).and_then(|s| s.start_fen.clone()),
        Some("41".into())
    );
}

#[test]
fn a_start_position_starts_both_sides_there() {
    let spec = MatchSpec {
        start_fen: Some("33".into()),
        ..spec(GameKind::Xiangqi, Color::Black)
    };
    let (mut a, mut b) = playing_spec(spec);
    // The position as the game writes it back, the same text on both sides.
    let want = Some("33/60".to_owned());
    assert_eq!(a.match_spec().unwrap().start_fen, want);
    assert_eq!(b.match_spec().unwrap().start_fen, want);
    assert_eq!(a.game().unwrap().total(), 33);
    assert_eq!(a.game(), b.game());
    assert_eq!(b.game().unwrap().start_fen(), "33/60");
    b.play(3, 1).unwrap(); // b is red
    pump(&mut a, &mut b, 1);
    assert_eq!(a.game().unwrap().fen(), "36/60");
    assert_eq!(a.ply(), Some(1));
}

#[test]
fn parameters_travel_both_ways() {
    let (mut a, mut b) = paired(BOTH, BOTH);
    let spec = MatchSpec {
        local_params: vec![1, 2, 3],
        ..spec(GameKind::Xiangqi, Color::Red)
    };
    a.propose(spec, 1).unwrap();
    pump(&mut a, &mut b, 1);
    let ev = events(&mut b);
    assert_eq!(proposed(&ev).unwrap().peer_params, vec![1, 2, 3]);
    assert_eq!(
        b.accept_proposal_with(vec![0; MAX_PARAMS_LEN + 1], 2),
        Err(ActionError::ParamsTooLong(MAX_PARAMS_LEN + 1))
    );
    b.accept_proposal_with(vec![9; 32], 2).unwrap();
    pump(&mut a, &mut b, 2);
    let sa = a.match_spec().unwrap().clone();
    let sb = b.match_spec().unwrap().clone();
    assert_eq!(
        (sa.local_params.as_slice(), sa.peer_params.as_slice()),
        (&[1, 2, 3][..], &[9; 32][..])
    );
    assert_eq!(
        (sb.local_params.as_slice(), sb.peer_params.as_slice()),
        (&[9; 32][..], &[1, 2, 3][..])
    );
    assert_eq!(started(&events(&mut a)), Some(&sa));
}

#[test]
fn crossed_proposals_of_different_games_settle_on_the_smaller_key() {
    let (mut a, mut b) = paired(BOTH, BOTH);
    a.propose(spec(GameKind::Xiangqi, Color::Red), 1).unwrap();
    b.propose(spec(GameKind::Chess, Color::Red), 1).unwrap();
    pump(&mut a, &mut b, 1);
    let (ea, eb) = (events(&mut a), events(&mut b));
    let a_stands = a.local_key() < b.local_key();
    let (answerer, ev_answerer, ev_other, game) = if a_stands {
        (&mut b, &eb, &ea, GameKind::Xiangqi)
    } else {
        (&mut a, &ea, &eb, GameKind::Chess)
    };
    assert_eq!(proposed(ev_answerer).map(|s| s.game), Some(game));
    assert!(
        ev_answerer.contains(&Event::ProposalDeclined {
            reason: DeclineReason::CROSSED
        }),
        "the superseded proposal is answered: {ev_answerer:?}"
    );
    assert!(proposed(ev_other).is_none());
    answerer.accept_proposal(2).unwrap();
    pump(&mut a, &mut b, 2);
    assert_eq!(a.game().unwrap().kind(), game);
    assert_eq!(b.game().unwrap().kind(), game);
    assert_ne!(
        a.match_spec().unwrap().local_color,
        b.match_spec().unwrap().local_color
    );
}

/// A game with claimable draws (counting rules 1: on every ten), `a` red.
fn claims_game() -> (Session<CountingGame>, Session<CountingGame>) {
    playing_spec(MatchSpec {
        rules: 1,
        ..spec(GameKind::Chess, Color::Red)
    })
}

#[test]
fn a_claimed_draw_ends_both_sides_alike() {
    let (mut a, mut b) = claims_game();
    assert_eq!(a.claim_draw(1), Err(ActionError::NoDrawToClaim));
    // 3 + 3 + 3 + 1 = 10 after four plies: red is to move again and may claim.
    for (i, mv) in [3u8, 3, 3, 1].into_iter().enumerate() {
        let t = i as u64 + 2;
        if i % 2 == 0 {
            a.play(mv, t).unwrap();
        } else {
            b.play(mv, t).unwrap();
        }
        pump(&mut a, &mut b, t);
    }
    assert_eq!(a.claimable_draw(), Some(DrawReason::FiftyMoveRule));
    assert_eq!(b.claimable_draw(), None, "not black's turn");
    assert_eq!(b.claim_draw(9), Err(ActionError::NotYourTurn));
    assert_eq!(
        a.snapshot(9).unwrap().claimable_draw,
        Some(DrawReason::FiftyMoveRule)
    );
    a.claim_draw(10).unwrap();
    pump(&mut a, &mut b, 10);
    let draw = Outcome::Draw {
        reason: DrawReason::FiftyMoveRule,
    };
    assert_eq!((a.outcome(), b.outcome()), (Some(draw), Some(draw)));
    assert!(events(&mut b).contains(&Event::GameOver {
        outcome: draw,
        ply: 4
    }));
    assert_eq!(a.play(1, 11), Err(ActionError::GameOver));
}

#[test]
fn false_claims_are_refused_and_change_nothing() {
    // The raw peer plays red in a game with claimable draws.
    let mut victim = session_offering("Victim", 2, BOTH);
    let mut raw = RawPeer::connect(&mut victim, PROTOCOL_VERSION, 0).unwrap();
    victim.confirm_peer(false).unwrap();
    raw.send(&mut victim, Body::Propose(propose(0, 1, None)), 0);
    victim.accept_proposal(0).unwrap();
    raw.recv(&mut victim);
    events(&mut victim);
    let refused = |victim: &mut Session<CountingGame>, raw: &mut RawPeer, ply: u32| {
        let before = victim.game().unwrap().clone();
        raw.send(victim, Body::ClaimDraw { ply }, 1);
        assert!(events(victim).contains(&Event::FalseDrawClaim { ply }));
        assert!(raw.recv(victim).contains(&Body::Error {
            code: ErrorCode::BAD_CLAIM
        }));
        assert_eq!(victim.outcome(), None);
        assert_eq!(victim.game(), Some(&before));
    };
    // Nothing to claim at 0.
    refused(&mut victim, &mut raw, 0);
    // Red plays to 9, black to 10: now it is red's turn at ten, but the claim names ply 1.
    let g = victim.game().unwrap().clone();
    let mut after = g.clone();
    after.play(3).unwrap();
    raw.send(
        &mut victim,
        Body::Move(MoveMsg {
            ply: 0,
            mv: 3,
            hash: after.hash() as u32,
            clock: 0,
        }),
        2,
    );
    let mut t = 3;
    for mv in [3u8, 3] {
        victim.play(mv, t).unwrap();
        let g = victim.game().unwrap().clone();
        let mut next = g.clone();
        next.play(1).unwrap();
        raw.send(
            &mut victim,
            Body::Move(MoveMsg {
                ply: g.ply() as u8,
                mv: 1,
                hash: next.hash() as u32,
                clock: 0,
            }),
            t,
        );
        t += 1;
    }
    // 3 + 3 + 1 + 3 + 1 = 11: nothing to claim; black to move anyway.
    assert_eq!(victim.game().unwrap().total(), 11);
    refused(&mut victim, &mut raw, 5);
    // At ply 4 red was to move at ten: a claim then was good, not now.
    refused(&mut victim, &mut raw, 4);
    victim.play(3, t).unwrap(); // 14, red to move: still nothing to claim
    refused(&mut victim, &mut raw, 6);
    refused(&mut victim, &mut raw, 2);
    raw.recv(&mut victim);
    assert!(victim.is_link_up());
    assert_eq!(victim.ply(), Some(6));
    // The game goes on to twenty, red to move: now red's claim stands.
    let g = victim.game().unwrap().clone();
    let mut next = g.clone();
    next.play(3).unwrap();
    raw.send(
        &mut victim,
        Body::Move(MoveMsg {
            ply: 6,
            mv: 3,
            hash: next.hash() as u32,
            clock: 0,
        }),
        t + 1,
    );
    victim.play(3, t + 2).unwrap();
    assert_eq!(victim.game().unwrap().total(), 20);
    events(&mut victim);
    raw.send(&mut victim, Body::ClaimDraw { ply: 8 }, t + 3);
    let draw = Outcome::Draw {
        reason: DrawReason::FiftyMoveRule,
    };
    assert_eq!(victim.outcome(), Some(draw));
    assert!(events(&mut victim).contains(&Event::GameOver {
        outcome: draw,
        ply: 8
    }));
}

#[test]
fn crossing_game_ends_settle_on_the_smaller_outcome_code() {
    // Both resign at once: two wins, the one with the smaller code (red's) stands.
    let (mut a, mut b) = playing_spec(spec(GameKind::Xiangqi, Color::Red));
    a.resign(1).unwrap();
    b.resign(1).unwrap();
    pump(&mut a, &mut b, 1);
    let red = Outcome::Win {
        winner: Color::Red,
        reason: WinReason::Resignation,
    };
    let black = Outcome::Win {
        winner: Color::Black,
        reason: WinReason::Resignation,
    };
    assert!(red.code() < black.code());
    assert_eq!((a.outcome(), b.outcome()), (Some(red), Some(red)));

    // Red claims a draw while black resigns: the win (0x01…) goes before the draw (0x02…).
    let (mut a, mut b) = claims_game();
    for (i, mv) in [3u8, 3, 3, 1].into_iter().enumerate() {
        let t = i as u64 + 2;
        let mover = if i % 2 == 0 { &mut a } else { &mut b };
        mover.play(mv, t).unwrap();
        pump(&mut a, &mut b, t);
    }
    a.claim_draw(10).unwrap();
    b.resign(10).unwrap();
    pump(&mut a, &mut b, 10);
    let red_wins = Some(Outcome::Win {
        winner: Color::Red,
        reason: WinReason::Resignation,
    });
    assert_eq!((a.outcome(), b.outcome()), (red_wins, red_wins));
    assert_eq!(a.ply(), b.ply());
}

/// [`DiceRace`] as a match game: a game with a chance step (kind jieqi).
#[derive(Clone, Debug, PartialEq)]
struct Dice(DiceRace);

impl Game for Dice {
    type Move = DiceMove;
    type Undo = <DiceRace as Game>::Undo;
    type Rules = DiceRules;
    type PlayError = <DiceRace as Game>::PlayError;
    fn kind(&self) -> GameKind {
        self.0.kind()
    }
    fn side_to_move(&self) -> Color {
        self.0.side_to_move()
    }
    fn legal_moves(&self, moves: &mut MoveList<DiceMove>) {
        self.0.legal_moves(moves);
    }
    fn is_legal(&self, mv: DiceMove) -> bool {
        self.0.is_legal(mv)
    }
    fn play(&mut self, mv: DiceMove) -> Result<(), Self::PlayError> {
        self.0.play(mv)
    }
    fn make_unchecked(&mut self, mv: DiceMove) -> Self::Undo {
        self.0.make_unchecked(mv)
    }
    fn unmake(&mut self, mv: DiceMove, undo: Self::Undo) {
        self.0.unmake(mv, undo);
    }
    fn in_check(&self) -> bool {
        false
    }
    fn no_move_outcome(&self) -> Outcome {
        self.0.no_move_outcome()
    }
    fn outcome(&self, rules: &DiceRules) -> Option<Outcome> {
        self.0.outcome(rules)
    }
    fn hash(&self) -> u64 {
        self.0.hash()
    }
    fn ply(&self) -> u32 {
        self.0.ply()
    }
    fn encode_move(&self, mv: DiceMove) -> u16 {
        self.0.encode_move(mv)
    }
    fn decode_move(&self, code: u16) -> Option<DiceMove> {
        self.0.decode_move(code)
    }
    fn awaits_chance(&self) -> bool {
        self.0.awaits_chance()
    }
    fn chance_outcomes(&self, out: &mut ChanceList<DiceMove>) {
        self.0.chance_outcomes(out);
    }
}

impl MatchGame for Dice {
    fn kinds() -> &'static [GameKind] {
        &[GameKind::Jieqi]
    }
    fn setup(kind: GameKind, fen: Option<&str>) -> Result<Dice, SetupError> {
        match (kind, fen) {
            (GameKind::Jieqi, None) => Ok(Dice(DiceRace::new(6))),
            (GameKind::Jieqi, Some(f)) => Err(SetupError::BadPosition(f.to_owned())),
            (other, _) => Err(SetupError::Unsupported(other)),
        }
    }
    fn rules(kind: GameKind, index: u8) -> Option<DiceRules> {
        (kind == GameKind::Jieqi && index == 0).then_some(DiceRules)
    }
    fn fen(&self) -> String {
        format!("{:?}", self.0)
    }
    fn start_fen(&self) -> String {
        String::new()
    }
}

#[test]
fn while_the_position_awaits_chance_no_move_is_played() {
    let dice = |name: &str, k: u8| {
        Session::<Dice>::new(
            SessionConfig::new(name, Dice::kinds()),
            Identity::from_secret([k; 32]),
            [k; 32],
        )
    };
    let (mut a, mut b) = (dice("A", 1), dice("B", 2));
    link(&mut a, &mut b, 0);
    a.confirm_peer(false).unwrap();
    b.confirm_peer(false).unwrap();
    a.propose(MatchSpec::new(GameKind::Jieqi, Color::Red), 0)
        .unwrap();
    pump(&mut a, &mut b, 0);
    b.accept_proposal(0).unwrap();
    pump(&mut a, &mut b, 0);
    // Red steps, black steps (sides alternate), red rolls: the die is in the air.
    a.play(DiceMove::Step, 1).unwrap();
    pump(&mut a, &mut b, 1);
    b.play(DiceMove::Step, 2).unwrap();
    pump(&mut a, &mut b, 2);
    a.play(DiceMove::Roll, 3).unwrap();
    // Hold the fair draw's links back: black gets red's move only, red nothing yet.
    let from_a: Vec<_> = std::iter::from_fn(|| a.poll_transmit()).collect();
    b.handle_datagram(&from_a[0], 3);
    let from_b: Vec<_> = std::iter::from_fn(|| b.poll_transmit()).collect();
    events(&mut a);
    events(&mut b);
    for s in [&a, &b] {
        let g = s.game().unwrap();
        assert!(g.awaits_chance());
        assert_eq!(g.side_to_move(), Color::Black, "black moves after the roll");
        let mut moves = MoveList::new();
        g.legal_moves(&mut moves);
        assert!(moves.is_empty());
    }
    // Black may not move yet, and no side may apply an outcome as a move.
    assert_eq!(b.play(DiceMove::Step, 4), Err(ActionError::AwaitingChance));
    assert_eq!(
        b.play(DiceMove::Rolled(3), 4),
        Err(ActionError::AwaitingChance)
    );
    assert_eq!(
        a.play(DiceMove::Rolled(3), 4),
        Err(ActionError::AwaitingChance)
    );
    assert_eq!(a.claim_draw(4), Err(ActionError::AwaitingChance));
    // The links arrive: both sides draw the same outcome.
    for f in &from_a[1..] {
        b.handle_datagram(f, 4);
    }
    for f in &from_b {
        a.handle_datagram(f, 4);
    }
    pump(&mut a, &mut b, 4);
    assert_eq!((a.ply(), b.ply()), (Some(4), Some(4)));
    assert_eq!(a.game(), b.game());
    assert!(!a.game().unwrap().awaits_chance());
    let drawn = |ev: Vec<Event<DiceMove>>| {
        ev.into_iter()
            .filter(|e| matches!(e, Event::ChanceDrawn { .. }))
            .collect::<Vec<_>>()
    };
    let da = drawn(events(&mut a));
    assert_eq!(da.len(), 1);
    assert_eq!(da, drawn(events(&mut b)));
    // Undo counts turns, not plies: red's last turn was ply 2.
    a.request_undo(5).unwrap();
    pump(&mut a, &mut b, 5);
    assert!(events(&mut b).contains(&Event::UndoRequested { to_ply: 2 }));
    b.reply_undo(false, 6).unwrap();
    pump(&mut a, &mut b, 6);
    assert_eq!((a.ply(), b.ply()), (Some(4), Some(4)));
    // Resignation still ends the game, alike on both sides.
    b.resign(7).unwrap();
    pump(&mut a, &mut b, 7);
    assert_eq!(a.outcome(), b.outcome());
    assert!(a.outcome().is_some());
}

#[test]
fn a_peer_move_while_awaiting_chance_is_refused() {
    // A hand-driven peer plays black; the victim (red) rolls, then the peer moves anyway.
    let mut victim = Session::<Dice>::new(
        SessionConfig::new("V", Dice::kinds()),
        Identity::from_secret([2; 32]),
        [2; 32],
    );
    let mut raw = RawPeer::connect(&mut victim, PROTOCOL_VERSION, 0).unwrap();
    victim.confirm_peer(false).unwrap();
    // The peer's hash chain for the fair draw, committed to in its proposal.
    let session = victim.session_id().unwrap();
    let chain = HashChain::new([5; 32], session, Color::Black);
    let p = Propose {
        game: game_code(GameKind::Jieqi),
        color: Color::Black,
        params: commitment(&chain.head()).to_vec(),
        ..propose(0, 0, None)
    };
    raw.send(&mut victim, Body::Propose(p), 0);
    victim.accept_proposal(0).unwrap();
    victim.play(DiceMove::Roll, 1).unwrap();
    let sent = raw.recv(&mut victim);
    let red_link = sent
        .iter()
        .find_map(|b| match b {
            Body::Reveal { link } => Some(*link),
            _ => None,
        })
        .expect("the victim released its first link with its move");
    events(&mut victim);
    let before = victim.game().unwrap().clone();
    assert!(before.awaits_chance());
    let mut after = before.clone();
    after.make_unchecked(DiceMove::Step); // what a careless peer would compute
    for code in [1u16, 16 + 3] {
        raw.send(
            &mut victim,
            Body::Move(MoveMsg {
                ply: 1,
                mv: code,
                hash: after.hash() as u32,
                clock: 0,
            }),
            2,
        );
        let ev = events(&mut victim);
        assert!(
            ev.contains(&Event::PeerIllegalMove {
                ply: 1,
                code,
                reason: IllegalReason::AwaitingChance
            }),
            "{ev:?}"
        );
        assert!(raw.recv(&mut victim).contains(&Body::Resync {
            ply: 1,
            hash: before.hash() as u32
        }));
        assert_eq!(victim.game(), Some(&before));
    }
    // The peer's first link settles the roll: the victim draws exactly what the
    // published formula gives, and sends nothing else.
    raw.send(
        &mut victim,
        Body::Reveal {
            link: chain.link(1).unwrap(),
        },
        3,
    );
    let mut faces = ChanceList::new();
    before.chance_outcomes(&mut faces);
    let ticket = draw_ticket(
        session,
        1,
        1,
        &red_link,
        &chain.link(1).unwrap(),
        faces.total_weight(),
    );
    let expected = faces.pick(ticket).unwrap();
    assert!(events(&mut victim).contains(&Event::ChanceDrawn {
        ply: 1,
        outcome: expected,
        step: 1
    }));
    assert_eq!(victim.ply(), Some(2));
    assert_eq!(victim.moves().unwrap()[1], expected);
    assert!(
        raw.recv(&mut victim).iter().all(|b| matches!(b, Body::Ack)),
        "nothing else was sent"
    );
}

#[test]
fn a_xiangqi_match_from_a_fen() {
    use banco_xiangqi::{RuleSet, Xiangqi};
    let xq = |name: &str, k: u8| {
        Session::<Xiangqi>::new(
            SessionConfig::new(name, Xiangqi::kinds()),
            Identity::from_secret([k; 32]),
            [k; 32],
        )
    };
    let (mut a, mut b) = (xq("A", 1), xq("B", 2));
    link(&mut a, &mut b, 0);
    a.confirm_peer(false).unwrap();
    b.confirm_peer(false).unwrap();
    let mut spec = MatchSpec {
        rules: 2,
        start_fen: Some("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1".into()),
        ..MatchSpec::new(GameKind::Xiangqi, Color::Red)
    };
    assert_eq!(
        a.propose(spec.clone(), 1),
        Err(ActionError::UnknownRules {
            game: GameKind::Xiangqi,
            index: 2
        })
    );
    spec.rules = 1; // casual
    a.propose(spec, 1).unwrap();
    pump(&mut a, &mut b, 1);
    b.accept_proposal(2).unwrap();
    pump(&mut a, &mut b, 2);
    let (ga, gb) = (a.game().unwrap(), b.game().unwrap());
    assert_eq!(ga.fen(), gb.fen());
    assert_eq!(
        gb.start_fen(),
        a.match_spec().unwrap().start_fen.clone().unwrap()
    );
    assert_eq!(b.rules(), Some(&RuleSet::casual()));
    // Red's rook checks along the d-file; black's session validates it.
    let mut moves = MoveList::new();
    ga.legal_moves(&mut moves);
    let mv = moves.as_slice()[0];
    a.play(mv, 3).unwrap();
    pump(&mut a, &mut b, 3);
    assert_eq!(b.moves(), Some(&[mv][..]));
    assert_eq!(a.game().unwrap().hash(), b.game().unwrap().hash());
}
