//! Two [`Match`]es over loopback TCP through the boundary, and the helpers the match tests
//! share (a listener that forwards events to a channel, a wait for the first event that
//! matches).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::net::{Match, MatchEvent, MatchListener, MatchOffer, MatchPhase};
use crate::types::{Color, GameKind, Outcome, WinReason};
use crate::{BancoError, Game, PgnTag, RaceSettings};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// Forwards every event of a match to a channel.
pub(crate) struct Events(Mutex<Sender<MatchEvent>>);

impl MatchListener for Events {
    fn on_event(&self, event: MatchEvent) {
        let _ = self
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .send(event);
    }
}

/// A listener and the receiving end of its events.
pub(crate) fn listener() -> (Arc<Events>, Receiver<MatchEvent>) {
    let (tx, rx) = mpsc::channel();
    (Arc::new(Events(Mutex::new(tx))), rx)
}

/// The first event `pick` takes (others are skipped); panics after 20 s.
pub(crate) fn next<T>(
    rx: &Receiver<MatchEvent>,
    mut pick: impl FnMut(&MatchEvent) -> Option<T>,
) -> T {
    loop {
        let e = rx
            .recv_timeout(Duration::from_secs(20))
            .expect("an event in time");
        if let Some(t) = pick(&e) {
            return t;
        }
    }
}

type Side = (Arc<Match>, Receiver<MatchEvent>);

/// A host (proposing `offer`, if any) and a guest on loopback, codes confirmed.
pub(crate) fn paired(offer: Option<MatchOffer>) -> (Side, Side) {
    paired_offering(vec![], offer)
}

/// A host (offering `offers`, empty: every game; proposing `offer`) and a guest joining it
/// on loopback, nothing confirmed yet.
fn connected(offers: Vec<GameKind>, offer: Option<MatchOffer>) -> (Side, Side) {
    let (host_events, host_rx) = listener();
    let host = Match::host(
        "An".into(),
        "127.0.0.1:0".into(),
        false,
        offers,
        offer,
        host_events,
        None,
    )
    .unwrap();
    let (guest_events, guest_rx) = listener();
    let guest = Match::join("Binh".into(), host.address().unwrap(), guest_events, None).unwrap();
    ((host, host_rx), (guest, guest_rx))
}

/// The code a `VerifyCode` event shows.
fn code(e: &MatchEvent) -> Option<String> {
    match e {
        MatchEvent::VerifyCode { code, .. } => Some(code.clone()),
        _ => None,
    }
}

/// [`paired`], the host offering `offers` (empty: every game).
fn paired_offering(offers: Vec<GameKind>, offer: Option<MatchOffer>) -> (Side, Side) {
    let ((host, host_rx), (guest, guest_rx)) = connected(offers, offer);
    host.confirm_code(next(&host_rx, code)).unwrap();
    guest.confirm_code(next(&guest_rx, code)).unwrap();
    let verified = |e: &MatchEvent| matches!(e, MatchEvent::PeerVerified { .. }).then_some(());
    next(&host_rx, verified);
    next(&guest_rx, verified);
    ((host, host_rx), (guest, guest_rx))
}

/// [`paired`], the host proposing `offer` and the guest accepting: the game started on
/// both sides.
pub(crate) fn started(offer: MatchOffer) -> (Side, Side) {
    let ((host, host_rx), (guest, guest_rx)) = paired(Some(offer));
    let id = next(&guest_rx, proposed_id);
    guest.accept_offer(id).unwrap();
    let begun = |e: &MatchEvent| matches!(e, MatchEvent::Started { .. }).then_some(());
    next(&host_rx, begun);
    next(&guest_rx, begun);
    ((host, host_rx), (guest, guest_rx))
}

fn proposed(e: &MatchEvent) -> Option<MatchOffer> {
    match e {
        MatchEvent::Proposed { offer, .. } => Some(offer.clone()),
        _ => None,
    }
}

fn proposed_id(e: &MatchEvent) -> Option<u64> {
    match e {
        MatchEvent::Proposed { id, .. } => Some(*id),
        _ => None,
    }
}

/// revE #1: `acceptOffer(id)` accepts the proposal shown and no other; `acceptProposal`
/// took whatever was pending, which the other player could change after the display.
#[test]
fn an_offer_is_accepted_by_the_number_shown() {
    let chess = MatchOffer {
        game: GameKind::Chess,
        your_color: Color::Red,
        rules: None,
        start_fen: None,
        clock: None,
        race: None,
    };
    let ((host, host_rx), (guest, guest_rx)) = paired(Some(chess));
    let id = next(&guest_rx, proposed_id);
    let shown = guest.state().unwrap();
    assert_eq!(shown.proposal_id, Some(id));
    assert_eq!(shown.proposal.map(|p| p.game), Some(GameKind::Chess));
    let changed = guest.accept_offer(id + 1).unwrap_err();
    assert!(
        matches!(&changed, BancoError::Match(m) if m.contains("changed the proposal: look again")),
        "{changed:?}"
    );
    assert_eq!(guest.state().unwrap().phase, MatchPhase::Proposed);
    guest.accept_offer(id).unwrap();
    next(&host_rx, |e| {
        matches!(e, MatchEvent::Started { .. }).then_some(())
    });
    assert_eq!(guest.state().unwrap().proposal_id, None);
    host.resign().unwrap();
    next(&guest_rx, over);
    host.propose_rematch().unwrap();
    let again = next(&guest_rx, proposed_id);
    assert_ne!(again, id);
    assert!(matches!(guest.accept_offer(id), Err(BancoError::Match(_))));
    guest.accept_offer(again).unwrap();
    next(&guest_rx, |e| {
        matches!(e, MatchEvent::Started { .. }).then_some(())
    });
    // revE #2: the trust exported after leaving still remembers the host.
    let before = guest.export_trust().unwrap();
    let remembered = |b: &[u8]| {
        banco_app::network::Trust::import(b)
            .unwrap()
            .known_peers()
            .len()
    };
    assert_eq!(remembered(&before), 1);
    guest.leave().unwrap();
    assert_eq!(guest.export_trust().unwrap(), before);
}

fn over(e: &MatchEvent) -> Option<Outcome> {
    match e {
        MatchEvent::GameOver { outcome, .. } => Some(*outcome),
        _ => None,
    }
}

/// revB #1: the copy of a match's game used to be built from its moves alone, so a
/// resignation read as a game going on (`*`) in its status, its save and its PGN.
#[test]
fn a_match_game_keeps_how_it_ended() {
    let xiangqi = MatchOffer {
        game: GameKind::Xiangqi,
        your_color: Color::Red,
        rules: None,
        start_fen: None,
        clock: None,
        race: None,
    };
    let ((host, host_rx), (guest, guest_rx)) = started(xiangqi);
    assert!(!host.state().unwrap().can_propose, "a game is on");
    host.play_text("h2e2".into()).unwrap();
    next(&guest_rx, |e| {
        matches!(e, MatchEvent::MovePlayed { .. }).then_some(())
    });
    guest.resign().unwrap();
    let resigned = Outcome::Win {
        winner: Color::Red,
        reason: WinReason::Resignation,
    };
    assert_eq!(next(&host_rx, over), resigned);
    assert_eq!(next(&guest_rx, over), resigned);
    assert_eq!(host.state().unwrap().phase, MatchPhase::Over);
    for side in [&host, &guest] {
        assert!(
            side.state().unwrap().can_propose,
            "either side proposes the next game"
        );
        let game = side.game().unwrap();
        let status = game.status().unwrap();
        assert_eq!(status.outcome, Some(resigned));
        assert_eq!(status.result, "1-0");
        assert_eq!(status.ply, 1, "the moves are kept");
        let loaded = Game::load(game.save().unwrap()).unwrap();
        assert_eq!(loaded.status().unwrap().outcome, Some(resigned));
        assert_eq!(
            crate::saved_game_summary(game.save().unwrap()).unwrap(),
            "Xiangqi · 1-0 resignation · 1 ply",
            "a saved match's label keeps its ending, in the singular"
        );
        let pgn = game
            .to_pgn(vec![PgnTag {
                name: "Event".into(),
                value: "Banco match".into(),
            }])
            .unwrap();
        assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
        assert!(pgn.contains("resignation"), "{pgn}");
    }
    host.leave().unwrap();
    guest.leave().unwrap();
}

/// revB #6: a Lines offer without `race` was a default race for `host` and refused by
/// `propose` (`Match("lines has no rule set number 0")`).
#[test]
fn a_lines_offer_without_race_is_the_default_race_everywhere() {
    let lines = MatchOffer {
        game: GameKind::Lines,
        your_color: Color::Red,
        rules: None,
        start_fen: None,
        clock: None,
        race: None,
    };
    let default = Some(RaceSettings {
        start_balls: 5,
        time_limit_s: 300,
        preview: false,
    });
    // Given to host: proposed once the guest is verified.
    let ((host, _host_rx), (guest, guest_rx)) = paired(Some(lines.clone()));
    assert_eq!(next(&guest_rx, proposed).race, default);
    guest.decline_proposal().unwrap();
    host.leave().unwrap();
    guest.leave().unwrap();
    // Proposed: the same race.
    let ((host, host_rx), (guest, _guest_rx)) = paired(None);
    guest.propose(lines.clone()).unwrap();
    let offer = next(&host_rx, proposed);
    assert_eq!((offer.game, offer.race), (GameKind::Lines, default));
    // What a Lines offer cannot carry is refused as a bad argument that says what to do.
    for bad in [
        MatchOffer {
            rules: crate::default_rules(GameKind::Xiangqi),
            ..lines.clone()
        },
        MatchOffer {
            start_fen: Some("x".into()),
            ..lines.clone()
        },
    ] {
        match guest.propose(bad) {
            Err(BancoError::InvalidArgument(m)) => assert!(m.contains("race"), "{m}"),
            other => panic!("{other:?}"),
        }
    }
    match guest.propose(MatchOffer {
        game: GameKind::Chess,
        race: default,
        ..lines
    }) {
        Err(BancoError::InvalidArgument(m)) => assert!(m.contains("Lines"), "{m}"),
        other => panic!("{other:?}"),
    }
    host.leave().unwrap();
    guest.leave().unwrap();
}

/// revD L4: both shells built a race's offer and hosted it with no offers (every game),
/// since a race proposed with the board games' list was refused (Lines not offered).
#[test]
fn a_race_offer_is_hosted_with_the_board_games_offers() {
    let settings = RaceSettings {
        start_balls: 3,
        time_limit_s: 120,
        preview: true,
    };
    let offer = crate::race_offer(settings, Color::Black);
    assert_eq!(
        (offer.game, offer.your_color, offer.race),
        (GameKind::Lines, Color::Black, Some(settings))
    );
    let board_games = vec![GameKind::Xiangqi, GameKind::Jieqi, GameKind::Chess];
    let ((host, _host_rx), (guest, guest_rx)) = paired_offering(board_games.clone(), Some(offer));
    let offers = host.state().unwrap().offers;
    assert!(offers.contains(&GameKind::Lines), "{offers:?}");
    assert!(board_games.iter().all(|g| offers.contains(g)), "{offers:?}");
    let asked = next(&guest_rx, proposed);
    assert_eq!(
        (asked.game, asked.your_color, asked.race),
        (GameKind::Lines, Color::Red, Some(settings)),
        "the guest is asked about the race, its board the other colour"
    );
    host.leave().unwrap();
    guest.leave().unwrap();
}

/// revB #9: a race move the board refuses came back as `Match(text)` while the solo game
/// types it; the board-game calls during a race said "the game has not started yet", and a
/// race move with no race ever proposed "waiting for the other player's seed".
#[test]
fn race_refusals_are_typed_and_say_what_is_wrong() {
    // No race proposed: a race move says so.
    let ((host, _host_rx), (guest, guest_rx)) = paired(None);
    match host.race_move(0, 1) {
        Err(BancoError::Match(m)) => assert!(m.contains("no race is on"), "{m}"),
        other => panic!("{other:?}"),
    }
    host.propose_race(
        RaceSettings {
            start_balls: 5,
            time_limit_s: 3_600,
            preview: false,
        },
        Color::Red,
    )
    .unwrap();
    next(&guest_rx, proposed);
    guest.accept_proposal().unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let board = loop {
        if let Some(board) = host
            .race_state()
            .filter(|r| r.can_move)
            .and_then(|r| r.board)
        {
            break board;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the race did not start"
        );
        std::thread::sleep(Duration::from_millis(5));
    };
    let cells: Vec<u8> = (0..81).collect();
    let ball = |c: &u8| board.cells[usize::from(*c)] != 0;
    let full: Vec<u8> = cells.iter().copied().filter(ball).collect();
    let empty: Vec<u8> = cells.iter().copied().filter(|c| !ball(c)).collect();
    // The solo game's words for the same refusals.
    for (from, to, words) in [
        (full[0], full[1], "already holds a ball"),
        (empty[0], empty[1], "there is no ball on"),
    ] {
        match host.race_move(from, to) {
            Err(BancoError::IllegalMove(m)) => assert!(m.contains(words), "{m}"),
            other => panic!("{from}->{to}: {other:?}"),
        }
    }
    assert!(matches!(
        host.race_move(full[0], 81),
        Err(BancoError::BadSquare {
            index: 81,
            width: 9,
            height: 9,
            last: 80
        })
    ));
    // The board-game calls point at the race board.
    for refused in [
        host.play(crate::types::Move {
            from: 0,
            to: 1,
            promotion: None,
        })
        .map(|_| ()),
        host.tap(0, 0).map(|_| ()),
        host.game().map(|_| ()),
    ] {
        match refused {
            Err(BancoError::Match(m)) => assert!(m.contains("race is on"), "{m}"),
            other => panic!("{other:?}"),
        }
    }
    // Once the race is over they say so, and what to do (they said "a race is on").
    guest.race_resign().unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    // Each side's view follows its own events (on the match's event thread): wait for both.
    while [&host, &guest]
        .iter()
        .any(|side| side.race_state().and_then(|r| r.outcome).is_none())
    {
        assert!(std::time::Instant::now() < deadline, "the race never ended");
        std::thread::sleep(Duration::from_millis(10));
    }
    for side in [&host, &guest] {
        match side.tap(0, 0) {
            Err(BancoError::Match(m)) => assert_eq!(
                m,
                "the Lines race is over: propose a game to play one on the board"
            ),
            other => panic!("{other:?}"),
        }
    }
    host.leave().unwrap();
    guest.leave().unwrap();
}

/// `MatchState.reachable`: a host on `0.0.0.0` lists the device's addresses with its port
/// (never `0.0.0.0`), one on a single address lists it, a guest lists none.
#[test]
fn a_host_lists_the_addresses_a_guest_can_type() {
    let host_on = |listen: &str| {
        let (events, _rx) = listener();
        Match::host(
            "An".into(),
            listen.into(),
            false,
            vec![],
            None,
            events,
            None,
        )
        .unwrap()
    };
    let every = host_on("0.0.0.0:0");
    let s = every.state().unwrap();
    let port = s.address.parse::<std::net::SocketAddr>().unwrap().port();
    assert!(!s.reachable.is_empty(), "{s:?}");
    for a in &s.reachable {
        let a: std::net::SocketAddr = a.parse().unwrap();
        assert!(!a.ip().is_unspecified() && a.port() == port, "{a}");
    }
    let one = host_on("127.0.0.1:0");
    let s = one.state().unwrap();
    assert_eq!(s.reachable, vec![s.address.clone()]);
    let (events, _rx) = listener();
    let guest = Match::join("Binh".into(), s.address, events, None).unwrap();
    assert!(guest.state().unwrap().reachable.is_empty());
}

/// One rule for a player's own name: a match hosted or joined and a lobby's advertisement
/// clean it alike and refuse alike a name with nothing to show (the lobby used to advertise
/// one as "unnamed").
#[test]
fn a_player_name_is_refused_or_cleaned_alike_everywhere() {
    let refused = BancoError::InvalidArgument(
        "a player name cannot be empty: type the name the other player will see".into(),
    );
    let lobby = crate::Lobby::new(vec![]).unwrap();
    for blank in ["", "   ", "\u{200b}\u{7}"] {
        let (events, _rx) = listener();
        let host = Match::host(
            blank.into(),
            "127.0.0.1:0".into(),
            false,
            vec![],
            None,
            events.clone(),
            None,
        );
        assert_eq!(host.err(), Some(refused.clone()), "host {blank:?}");
        let join = Match::join(blank.into(), "127.0.0.1:1".into(), events, None);
        assert_eq!(join.err(), Some(refused.clone()), "join {blank:?}");
        let ad = lobby.advertise(blank.into(), 7368);
        assert_eq!(ad.err(), Some(refused.clone()), "advertise {blank:?}");
        // A settings screen is told the same: nothing to keep.
        assert_eq!(crate::net::player_display_name(blank.into()), None);
    }
    // What a settings screen keeps is what the matches send.
    assert_eq!(
        crate::net::player_display_name("  An \u{202e}  Binh ".into()).as_deref(),
        Some("An Binh")
    );
    assert_eq!(
        crate::net::player_display_name("龍".repeat(40)).map(|n| n.chars().count()),
        Some(32)
    );
    let id = lobby.advertise("  An \u{202e} ".into(), 7368).unwrap();
    assert!(id.starts_with("An."), "{id}");
    lobby.withdraw(id).unwrap();
    lobby.stop().unwrap();
    let (events, _rx) = listener();
    let host = Match::host(
        "  An \u{202e} ".into(),
        "127.0.0.1:0".into(),
        false,
        vec![],
        None,
        events,
        None,
    )
    .unwrap();
    host.leave().unwrap();
}

/// A guest whose player confirmed the code first, and whose host's player then says the
/// codes differ, ends the match (no reconnecting to a host that turned it away), and its
/// trust to store — what a shell saves on `Closed` — no longer remembers that host.
#[test]
fn a_guest_rejected_after_confirming_closes_and_forgets_the_host() {
    let ((host, host_rx), (guest, guest_rx)) = connected(vec![], None);
    let before = guest.export_trust().unwrap();
    guest.confirm_code(next(&guest_rx, code)).unwrap();
    next(&host_rx, code);
    host.reject_code().unwrap();
    next(&guest_rx, |e| {
        matches!(e, MatchEvent::Closed { .. }).then_some(())
    });
    assert_eq!(
        guest.export_trust().unwrap(),
        before,
        "the host is not remembered"
    );
}

/// revB D5: a proposal from a set-up position shows the position before the guest accepts
/// (a lone red king against a full black army was accepted sight unseen): the state draws
/// it from the guest's side (`offeredBoard`), and the terms name its FEN.
#[test]
fn a_set_up_start_is_shown_before_it_is_accepted() {
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/9/9/4K4 w - - 0 1";
    let offer = MatchOffer {
        game: GameKind::Xiangqi,
        your_color: Color::Black,
        rules: None,
        start_fen: Some(fen.into()),
        clock: None,
        race: None,
    };
    let ((_host, _host_rx), (guest, guest_rx)) = paired(Some(offer));
    next(&guest_rx, proposed_id);
    let shown = guest.state().unwrap();
    assert_eq!(
        shown.proposal.and_then(|p| p.start_fen).as_deref(),
        Some(fen)
    );
    let board = shown.offered_board.expect("the proposed position is drawn");
    // The guest plays red: red at the bottom, one red piece against sixteen.
    assert!(!board.flipped);
    let pieces = |c: Color| {
        board
            .cells
            .iter()
            .filter(|cell| cell.piece.as_ref().is_some_and(|p| p.color == c))
            .count()
    };
    assert_eq!((pieces(Color::Red), pieces(Color::Black)), (1, 16));
    let terms = shown.offered_terms.unwrap();
    assert!(
        terms.contains(&format!("From a set-up position: {fen}")),
        "{terms}"
    );
}
