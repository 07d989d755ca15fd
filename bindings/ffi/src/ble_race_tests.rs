//! A whole Lines race over the BLE foreign traits (the doubles of `ble_tests`): hosted
//! nearby with a Lines offer carrying the race's settings, joined over Bluetooth, played
//! by both sides — with a cut of the link and a resume in the middle — and resigned. After
//! every exchange both ends see the same boards: our board on one is the replica of the
//! opponent's board on the other (cells, score, balls), and the result is the same.

use super::*;
use crate::race::{RaceEnding, RaceOutcome, RaceSettings, RaceState, RaceUpdate};
use std::sync::mpsc::Receiver;

const SETTINGS: RaceSettings = RaceSettings {
    start_balls: 5,
    time_limit_s: 3_600,
    preview: true,
};

fn race_offer() -> MatchOffer {
    MatchOffer {
        game: GameKind::Lines,
        your_color: Color::Red,
        rules: None,
        start_fen: None,
        clock: None,
        race: Some(SETTINGS),
    }
}

/// Both sides confirm the code; the guest sees the race proposed with `SETTINGS` (in the
/// event and, in words, in its state), accepts, and both are told the race started.
fn pair_and_accept(
    host: &Match,
    host_rx: &Receiver<MatchEvent>,
    guest: &Match,
    guest_rx: &Receiver<MatchEvent>,
) {
    let code = |e: &MatchEvent| match e {
        MatchEvent::VerifyCode { code, .. } => Some(code.clone()),
        _ => None,
    };
    let (hc, gc) = (next(host_rx, code), next(guest_rx, code));
    assert_eq!(hc, gc, "the same code over Bluetooth");
    host.confirm_code(hc).unwrap();
    guest.confirm_code(gc).unwrap();
    let offer = next(guest_rx, |e| match e {
        MatchEvent::Proposed { offer, .. } => Some(offer.clone()),
        _ => None,
    });
    assert_eq!((offer.game, offer.race), (GameKind::Lines, Some(SETTINGS)));
    assert_eq!(
        guest.state().unwrap().offered_race.as_deref(),
        Some("5 balls, 60 min, preview")
    );
    assert_eq!(
        guest.state().unwrap().offered_terms.as_deref(),
        Some("Race: 5 balls, 60 min, preview")
    );
    guest.accept_proposal().unwrap();
    for (rx, color) in [(host_rx, Color::Red), (guest_rx, Color::Black)] {
        let (settings, your_color) = next(rx, |e| match e {
            MatchEvent::Race {
                update:
                    RaceUpdate::Started {
                        settings,
                        your_color,
                    },
            } => Some((*settings, *your_color)),
            _ => None,
        });
        assert_eq!((settings, your_color), (SETTINGS, color));
    }
}

/// The turn number of the opponent's next move `rx` hears.
fn opponent_moved(rx: &Receiver<MatchEvent>) -> u32 {
    next(rx, |e| match e {
        MatchEvent::Race {
            update: RaceUpdate::OpponentMoved { turn, .. },
        } => Some(*turn),
        _ => None,
    })
}

/// Plays the assistant's move on `m`'s race board (any move the board allows).
fn play_greedy(m: &Match) {
    let board = m.net().race().and_then(|r| r.board).unwrap();
    let mv = banco_lines::ai::greedy_move(&board).unwrap();
    let turn = m.race_move(u8::from(mv.from), u8::from(mv.to)).unwrap();
    assert_eq!(turn.path.first(), Some(&u8::from(mv.from)));
}

/// Each side's board is the other side's replica of it: cells, announced balls and their
/// spots, score, turns and ball count; and the scores and ball counts the screen shows.
fn same_boards(h: &RaceState, g: &RaceState) {
    assert_eq!(
        h.board, g.opponent,
        "the host's board is the guest's replica"
    );
    assert_eq!(
        g.board, h.opponent,
        "the guest's board is the host's replica"
    );
    let (hb, gb) = (h.board.as_ref().unwrap(), g.board.as_ref().unwrap());
    assert_eq!((h.score, g.opponent_score), (hb.score, hb.score));
    assert_eq!((g.score, h.opponent_score), (gb.score, gb.score));
    assert_eq!((h.opponent_balls, g.opponent_balls), (gb.balls, hb.balls));
    assert_eq!((h.opponent_turns, g.opponent_turns), (gb.turns, hb.turns));
}

fn race_of(m: &Match) -> RaceState {
    m.race_state().unwrap()
}

#[test]
fn a_seeded_race_hosted_nearby_is_played_over_bluetooth_with_a_cut() {
    let air = Air::with_mtu(23);
    let (host, host_rx) = host_nearby_over(&air, "An", Some(race_offer()));
    assert_eq!(
        host.hosting().unwrap().open_on,
        vec![NearbyTransport::Lan, NearbyTransport::Ble]
    );
    let guest_radio = BleGuest::new(Arc::new(PipeCentral(Arc::clone(&air)))).unwrap();
    let peer = scan_for_host(&guest_radio);
    assert_eq!(peer.name, "An");
    assert!(peer.games.contains(&GameKind::Lines), "{:?}", peer.games);
    let (guest_events, guest_rx) = listener();
    let guest = Match::join_ble(
        "Binh".into(),
        Arc::clone(&guest_radio),
        peer.device,
        guest_events,
        None,
    )
    .unwrap();
    pair_and_accept(&host, &host_rx, &guest, &guest_rx);

    // One seed made by both sides: the same start board, preview spots included.
    let (h, g) = (race_of(&host), race_of(&guest));
    assert_eq!(h.board, g.board);
    assert_eq!(h.board.as_ref().unwrap().balls, 5);
    assert_eq!(h.board.as_ref().unwrap().next_spots.len(), 3);
    same_boards(&h, &g);
    assert!(h.can_move && g.can_move);

    // Both play in turn; each move reaches the other side's replica.
    let rounds = 12;
    for round in 0..rounds {
        if round == 6 {
            // The guest's adapter goes off mid-race: the host plays on meanwhile; back on,
            // the link is made again and the move made during the cut arrives once.
            air.guest().on_adapter_state(BleAdapterState::Off);
            air.host().on_unsubscribed(GUEST_CENTRAL.into());
            next(&guest_rx, |e| {
                matches!(e, MatchEvent::Disconnected { .. }).then_some(())
            });
            play_greedy(&host);
            air.guest().on_adapter_state(BleAdapterState::On);
            next(&guest_rx, |e| {
                matches!(e, MatchEvent::Resumed).then_some(())
            });
        } else {
            play_greedy(&host);
        }
        assert_eq!(opponent_moved(&guest_rx), round);
        play_greedy(&guest);
        assert_eq!(opponent_moved(&host_rx), round);
        same_boards(&race_of(&host), &race_of(&guest));
    }
    let (h, g) = (race_of(&host), race_of(&guest));
    assert_eq!((h.opponent_turns, g.opponent_turns), (rounds, rounds));

    // The guest resigns: the same result on both ends, from each side's point of view.
    guest.race_resign().unwrap();
    let over = |rx: &Receiver<MatchEvent>| {
        next(rx, |e| match e {
            MatchEvent::Race {
                update: RaceUpdate::Over { outcome },
            } => Some(outcome.clone()),
            _ => None,
        })
    };
    let (ho, go) = (over(&host_rx), over(&guest_rx));
    assert_eq!(ho.ending, RaceEnding::Resigned { by: Color::Black });
    assert_eq!(ho.winner, Some(Color::Red));
    assert_eq!((ho.red_turns, ho.black_turns), (rounds, rounds));
    assert_eq!(
        (ho.red_score, ho.black_score),
        (h.score, g.score),
        "the scores of the boards"
    );
    assert_eq!(
        RaceOutcome {
            text: String::new(),
            ..ho.clone()
        },
        RaceOutcome {
            text: String::new(),
            ..go.clone()
        }
    );
    assert!(ho.text.starts_with("You won the race"), "{}", ho.text);
    assert!(go.text.starts_with("You lost the race"), "{}", go.text);
    let (h, g) = (race_of(&host), race_of(&guest));
    same_boards(&h, &g);
    assert_eq!((h.outcome, g.outcome), (Some(ho), Some(go)));
    assert!(!h.can_move && !g.can_move);
    guest.leave().unwrap();
    host.leave().unwrap();
}

/// A Lines offer given to [`Match::host_ble`] is the race it describes (it was proposed as
/// the default race, its settings dropped).
#[test]
fn a_race_hosted_over_bluetooth_alone_keeps_its_settings() {
    let air = Air::with_mtu(185);
    let (host_events, host_rx) = listener();
    let host = Match::host_ble(
        "An".into(),
        Arc::new(PipePeripheral(Arc::clone(&air))),
        vec![],
        Some(race_offer()),
        host_events,
        None,
    )
    .unwrap();
    let guest_radio = BleGuest::new(Arc::new(PipeCentral(Arc::clone(&air)))).unwrap();
    let peer = scan_for_host(&guest_radio);
    let (guest_events, guest_rx) = listener();
    let guest =
        Match::join_ble("Binh".into(), guest_radio, peer.device, guest_events, None).unwrap();
    pair_and_accept(&host, &host_rx, &guest, &guest_rx);
    assert_eq!(race_of(&host).settings, SETTINGS);
    assert_eq!(race_of(&guest).settings, SETTINGS);
    guest.leave().unwrap();
    host.leave().unwrap();
}
