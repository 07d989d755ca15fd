//! What happens in a match ([`NetEvent`], heard in order by a [`NetObserver`]) and the
//! match's event thread: driver events become [`NetEvent`]s (a move enriched with its
//! notations, read from the session at that ply), update the screen state, and reach the
//! [`NetObserver`]; a host proposes its game from here once the code is confirmed.

use super::*;

/// What happens in a match, in order (the state after it is [`NetMatch::state`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetEvent {
    /// The host listens here.
    Listening {
        /// `address:port`.
        address: String,
    },
    /// A link is up; the encrypted pairing starts.
    Connected {
        /// The other side's address.
        peer: String,
    },
    /// Show the code; ask the player whether the other device shows the same six digits.
    VerifyCode {
        /// Six digits.
        code: String,
        /// The other player's name.
        peer_name: String,
    },
    /// The other player is trusted.
    PeerVerified {
        /// Their name.
        peer_name: String,
    },
    /// WARNING: a remembered player came with a different key.
    PeerKeyChanged {
        /// Their name.
        peer_name: String,
    },
    /// Host: a device tried to connect and was turned away or gave up before it became the
    /// match's link (a failed or slow handshake, too many attempts from its address, not the
    /// paired device). The match is not affected; show it, an attacker's tries stay visible.
    AttemptAborted {
        /// The device's address.
        peer: String,
        /// Why.
        reason: String,
    },
    /// Host: several devices showed a code nobody confirmed (the player rejected them or
    /// saw them unanswered); the host turns new devices away, telling them why, for a
    /// minute. Ask the player whether to take them again at once ([`NetMatch::reopen`]).
    HostPaused {
        /// Codes shown without a confirmation.
        attempts: u32,
    },
    /// Host: after [`NetEvent::HostPaused`], the host takes devices again by itself (the
    /// cool-down passed): close the question.
    HostReopened,
    /// The other player proposes a game.
    Proposed(ProposalView),
    /// The Lines race moved on (started, the opponent moved, our time is up, over).
    Race(RaceUpdate),
    /// The other player declined our proposal.
    ProposalDeclined {
        /// Why, in words.
        reason: String,
    },
    /// A game started.
    Started {
        /// The game.
        game: GameKind,
        /// This side's colour.
        your_color: Color,
        /// The start position.
        fen: String,
    },
    /// A move was played (by either side) and checked by this side's rules.
    MovePlayed {
        /// The move, described.
        played: MoveInfo,
        /// True if this side played it.
        mine: bool,
    },
    /// Jieqi: a face-down piece was turned over and its identity drawn fairly by both
    /// devices together (banco-protocol's fair draw); neither could know or choose it.
    PieceRevealed {
        /// The reveal, described: [`MoveInfo::revealed`] is the piece drawn and
        /// [`MoveInfo::announcement`] says it in words ("cannon h2 revealed: rook").
        revealed: MoveInfo,
        /// True if the piece is this side's.
        mine: bool,
        /// The draw's number in the match (1 for the first).
        draw: u32,
    },
    /// The other player asks to take back moves.
    UndoRequested {
        /// The ply count after the undo.
        to_ply: u32,
    },
    /// The other player declined our undo request.
    UndoDeclined,
    /// Moves were taken back.
    Undone {
        /// The ply count now.
        to_ply: u32,
    },
    /// The other player offers a draw.
    DrawOffered,
    /// The other player declined our draw offer (or moved before it arrived).
    DrawDeclined,
    /// The other player's draw offer is gone (it moved, or took its move back): close the
    /// prompt.
    DrawOfferWithdrawn,
    /// The other device refused our last move (its rules or position disagree): the
    /// board was set back to `to_ply` moves; play again.
    MoveRefused {
        /// The ply count now.
        to_ply: u32,
    },
    /// The game was abandoned without a result: the devices could not agree on the
    /// position (or the clocks), or the other player left it (`by_peer`, with the reason
    /// `AbortReason::ABANDONED`'s text). Another game may be proposed.
    GameAborted {
        /// Why, in words.
        reason: String,
        /// True when the other device abandoned it.
        by_peer: bool,
    },
    /// The game is over.
    GameOver {
        /// How.
        outcome: Outcome,
        /// From this side's view ("You won: checkmate").
        text: String,
    },
    /// The link dropped; the match reconnects and resumes.
    Disconnected {
        /// Why.
        reason: String,
    },
    /// A new link to the same peer finished its handshake and the session resumed on it:
    /// the connection is back (a mere [`NetEvent::Connected`] is not: the handshake may
    /// still fail, the device may be a stranger, and on a host it may come before the old
    /// link is known dead).
    Resumed,
    /// An attempt to connect (or reconnect) failed; the next one comes later.
    Reconnecting {
        /// Failed attempts in a row.
        attempt: u32,
        /// Milliseconds before the next attempt.
        delay_ms: u64,
        /// Why the attempt failed, in words ("connection refused").
        reason: String,
    },
    /// The other side misbehaved; nothing was applied.
    PeerProblem {
        /// What happened.
        message: String,
    },
    /// The match is over for good.
    Closed {
        /// Why.
        reason: String,
    },
}

/// Hears every [`NetEvent`], in order, on the match's own thread: a UI hops to its UI
/// thread. The observer may call the match back.
pub trait NetObserver: Send + Sync + 'static {
    /// Something happened.
    fn event(&self, event: NetEvent);
}

/// The move at index `ply` of the game, described from the position before it.
fn move_at(snap: &MatchSnapshot<AnyGame>, ply: u32) -> Option<MoveInfo> {
    let mv = *snap.moves.get(ply as usize)?;
    let mut g = snap.game.restarted();
    for &m in snap.moves.get(..ply as usize)? {
        g.play(m).ok()?;
    }
    Some(notation::describe(&g, mv))
}

pub(super) fn spawn_events(
    rx: Receiver<Item>,
    view: Arc<Mutex<View>>,
    driver: DriverSlot,
    propose: Option<AutoPropose>,
    observer: Arc<dyn NetObserver>,
) {
    let _ = std::thread::Builder::new()
        .name("banco-match-events".into())
        .spawn(move || {
            loop {
                let item = match rx.recv_timeout(Duration::from_millis(500)) {
                    Ok(item) => item,
                    Err(RecvTimeoutError::Timeout) => continue,
                    Err(RecvTimeoutError::Disconnected) => break,
                };
                let event = match item {
                    Item::Quit => break,
                    Item::Own(e) => Some(e),
                    Item::Driver(e) => translate(e, &view, &driver),
                };
                let Some(event) = event else { continue };
                if repeated(&event, &lock(&view)) {
                    continue;
                }
                apply(&event, &mut lock(&view));
                let verified = matches!(event, NetEvent::PeerVerified { .. });
                let last = matches!(event, NetEvent::Closed { .. });
                let o = Arc::clone(&observer);
                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| o.event(event)));
                if let (true, Some(auto)) = (verified, &propose) {
                    let failed = {
                        let d = lock(&driver);
                        let in_game = d.as_ref().is_some_and(|d| {
                            d.snapshot().ok().flatten().is_some()
                                || d.read_session(|s, _| s.race().is_some()).unwrap_or(false)
                        });
                        match (d.as_ref(), in_game) {
                            (Some(d), false) => match auto {
                                AutoPropose::Game(spec) => d.propose(spec.clone()),
                                AutoPropose::Race(options, color) => d
                                    .with_session(|s, now| s.propose_race(*options, *color, now))
                                    .and_then(|r| r.map_err(DriverError::Action)),
                            }
                            .err()
                            // Only the guest's games can refuse a proposal checked when
                            // hosting; a proposal of the guest's already pending (it
                            // verified first) is no failure: it is shown instead.
                            .filter(|e| {
                                matches!(
                                    e,
                                    DriverError::Action(
                                        banco_protocol::ActionError::PeerDoesNotOffer(_)
                                            | banco_protocol::ActionError::PeerLacksPreview
                                    )
                                )
                            }),
                            _ => None,
                        }
                    };
                    // The host's own proposal could not be sent (the guest does not offer
                    // that game): say so, as a declined proposal, rather than wait for
                    // ever. The driver's lock is released first: the observer may call in.
                    if let Some(e) = failed {
                        let event = NetEvent::ProposalDeclined {
                            reason: e.to_string(),
                        };
                        apply(&event, &mut lock(&view));
                        let o = Arc::clone(&observer);
                        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            o.event(event);
                        }));
                    }
                }
                if last {
                    break;
                }
            }
        });
}

/// A driver event as a match event (`None` for what a screen does not show).
fn translate(
    event: DriverEvent<AnyMove>,
    view: &Mutex<View>,
    driver: &Mutex<Option<Driver<AnyGame>>>,
) -> Option<NetEvent> {
    let snapshot = || {
        lock(driver)
            .as_ref()
            .and_then(|d| d.snapshot().ok().flatten())
    };
    Some(match event {
        DriverEvent::Connected { peer } => NetEvent::Connected { peer },
        DriverEvent::Disconnected { error } => NetEvent::Disconnected { reason: error },
        DriverEvent::Reconnecting {
            attempt,
            delay,
            error,
        } => NetEvent::Reconnecting {
            attempt,
            delay_ms: delay.as_millis() as u64,
            reason: error,
        },
        DriverEvent::GaveUp { attempts, reason } => NetEvent::Closed {
            reason: reason.unwrap_or_else(|| {
                format!("the other device could not be reached ({attempts} attempts)")
            }),
        },
        DriverEvent::Stopped => NetEvent::Closed {
            reason: "the match stopped".to_owned(),
        },
        DriverEvent::AttemptAborted { peer, reason } => NetEvent::AttemptAborted { peer, reason },
        DriverEvent::AttemptsExhausted { attempts } => NetEvent::HostPaused { attempts },
        DriverEvent::Reopened => NetEvent::HostReopened,
        DriverEvent::Session(e) => match e {
            Event::LinkUp { resumed: true } => NetEvent::Resumed,
            Event::LinkUp { resumed: false } | Event::FrameRejected { .. } => return None,
            Event::LinkDown { reason } => NetEvent::Disconnected {
                reason: reason.to_string(),
            },
            Event::VerifyPeer { code, name, .. } => NetEvent::VerifyCode {
                code: code.to_string(),
                peer_name: name,
            },
            // A remembered key is shown under the name the player knows it by, whatever
            // name the device announces now (a trusted device cannot pass for another
            // player by renaming itself).
            Event::PeerVerified { name, key, .. } => NetEvent::PeerVerified {
                peer_name: lock(driver)
                    .as_ref()
                    .and_then(|d| {
                        d.read_session(|s, _| s.known_peers().name_of(&key).map(str::to_owned))
                            .ok()
                            .flatten()
                    })
                    .unwrap_or(name),
            },
            Event::PeerKeyChanged { name, .. } => NetEvent::PeerKeyChanged { peer_name: name },
            // Numbered for the accept; a repeat of the proposal shown is not shown again.
            Event::Proposed(spec) => return super::offer::proposed(spec, view),
            Event::ProposalDeclined { reason } => NetEvent::ProposalDeclined {
                reason: reason.text().to_owned(),
            },
            Event::MatchStarted(spec) => {
                let fen = snapshot()
                    .map(|s| s.game.start_fen())
                    .or_else(|| spec.start_fen.clone())
                    .unwrap_or_default();
                lock(view).spec = Some(spec.clone());
                NetEvent::Started {
                    game: spec.game,
                    your_color: spec.local_color,
                    fen,
                }
            }
            Event::MovePlayed { ply, by, .. } => {
                let snap = snapshot()?;
                let played = move_at(&snap, ply)?;
                NetEvent::MovePlayed {
                    played,
                    mine: by == snap.spec.local_color,
                }
            }
            Event::UndoRequested { to_ply } => NetEvent::UndoRequested { to_ply },
            Event::UndoDeclined => NetEvent::UndoDeclined,
            Event::Undone { to_ply } => NetEvent::Undone { to_ply },
            Event::DrawOffered => NetEvent::DrawOffered,
            Event::DrawDeclined => NetEvent::DrawDeclined,
            Event::DrawOfferWithdrawn => NetEvent::DrawOfferWithdrawn,
            Event::MoveRefused { to_ply } => NetEvent::MoveRefused { to_ply },
            Event::MatchAborted { reason, by_peer } => NetEvent::GameAborted {
                reason: reason.text().to_owned(),
                by_peer,
            },
            Event::GameOver { outcome, .. } => {
                let (kind, me) = lock(view)
                    .spec
                    .as_ref()
                    .map_or((GameKind::Xiangqi, None), |s| (s.game, Some(s.local_color)));
                NetEvent::GameOver {
                    outcome,
                    text: result_text(kind, outcome, me),
                }
            }
            Event::PeerIllegalMove { ply, reason, .. } => NetEvent::PeerProblem {
                message: format!(
                    "the other device sent an illegal move at ply {ply} ({reason}); ignored"
                ),
            },
            Event::FalseDrawClaim { ply } => NetEvent::PeerProblem {
                message: format!(
                    "the other device claimed a draw the rules do not allow at ply {ply}; the game goes on"
                ),
            },
            Event::Desync { ply, .. } => NetEvent::PeerProblem {
                message: format!("the other device's board differs after ply {ply}; move ignored"),
            },
            Event::PeerError { code } => NetEvent::PeerProblem {
                message: format!("the other device reported an error: {}", code.text()),
            },
            Event::Closed { reason } => NetEvent::Closed {
                reason: reason.to_string(),
            },
            // A jieqi reveal settled by the fair draw: the identity, described, and the
            // announcement (the outcome is already in the snapshot's moves).
            Event::ChanceDrawn { ply, step, .. } => {
                let snap = snapshot()?;
                let revealed = move_at(&snap, ply)?;
                NetEvent::PieceRevealed {
                    mine: revealed.by == snap.spec.local_color,
                    revealed,
                    draw: step,
                }
            }
            Event::Race(e) => NetEvent::Race(race_update(e, driver)?),
        },
    })
}

/// A race event as the screen's update (our colour read from the session).
fn race_update(
    e: banco_protocol::race::RaceEvent,
    driver: &Mutex<Option<Driver<AnyGame>>>,
) -> Option<RaceUpdate> {
    use banco_protocol::race::RaceEvent;
    let me = || {
        lock(driver)
            .as_ref()?
            .read_session(|s, _| s.race().map(banco_protocol::race::Race::me))
            .ok()
            .flatten()
    };
    Some(match e {
        RaceEvent::Started { options } => RaceUpdate::Started {
            options,
            your_color: me()?,
        },
        RaceEvent::OpponentMoved { turn, score, balls } => {
            RaceUpdate::OpponentMoved { turn, score, balls }
        }
        RaceEvent::TimeUp => RaceUpdate::TimeUp,
        RaceEvent::Over(result) => RaceUpdate::Over {
            text: race_result_text(&result, me()?),
            result,
        },
    })
}

/// True for an event that would only repeat what the screen shows already (a peer that
/// offers a draw again and again, or sends the same error frame in a loop): such events are
/// collapsed into the first, so a peer cannot flood the UI.
///
/// A proposal repeated unchanged is collapsed before it becomes an event (it keeps its
/// number, `offer::proposed`); one changed again and again is cut off by the session.
fn repeated(e: &NetEvent, v: &View) -> bool {
    match e {
        NetEvent::DrawOffered => v.draw_offered,
        NetEvent::PeerProblem { message } => v.notice.as_deref() == Some(message.as_str()),
        // The driver and the session both report a lost link: the second says nothing new
        // while the "connection lost" banner is up (until `Resumed`).
        NetEvent::Disconnected { .. } => v
            .banner
            .as_deref()
            .is_some_and(|b| b.starts_with(LOST_BANNER)),
        _ => false,
    }
}

/// The banner of a lost link (then "… Reconnecting (attempt N)…").
const LOST_BANNER: &str = "Connection lost.";

/// Updates the screen state from an event.
/// What the player is told when a game ends without a result: the opponent leaving is
/// the opponent's doing (no technical fault blamed), a disagreement the other device
/// reported is the other device's, our own is the game's.
fn abandoned_notice(reason: &str, by_peer: bool) -> String {
    if by_peer && reason == banco_protocol::message::AbortReason::ABANDONED.text() {
        "The other player left the game: no result".into()
    } else if by_peer {
        format!("The other device abandoned the game: {reason}")
    } else {
        format!("The game was abandoned: {reason}")
    }
}

fn apply(e: &NetEvent, v: &mut View) {
    let playing = matches!(v.phase, Some(Phase::Playing | Phase::Over));
    match e {
        NetEvent::Listening { .. } => v.phase = Some(Phase::Listening),
        NetEvent::Connected { .. } => {
            // The banner stays until the session is back on the new link (`Resumed`).
            if !playing && matches!(v.phase, None | Some(Phase::Listening | Phase::Connecting)) {
                // A host keeps listening: a stranger's connection does not take the screen
                // away from a code being compared.
                v.phase = Some(Phase::Connecting);
            }
        }
        NetEvent::AttemptAborted { peer, reason } => {
            v.notice = Some(format!(
                "A connection from {peer} was turned away: {reason}"
            ));
        }
        NetEvent::HostPaused { attempts } => {
            v.host_paused = true;
            v.notice = Some(format!(
                "{attempts} devices showed a code nobody confirmed; new devices are turned away for a minute (a remembered player still comes in), or until you reopen"
            ));
        }
        NetEvent::HostReopened => {
            v.host_paused = false;
            v.notice = Some("New devices are taken again".into());
        }
        NetEvent::VerifyCode { code, peer_name } => {
            v.code_key_changed = std::mem::take(&mut v.key_change_next);
            v.phase = Some(Phase::Verify);
            v.code = Some(code.clone());
            v.peer_name = Some(peer_name.clone());
        }
        NetEvent::PeerVerified { peer_name } => {
            v.host_paused = false;
            v.peer_name = Some(peer_name.clone());
            if playing {
                v.banner = None;
            } else {
                v.phase = Some(Phase::Waiting);
            }
        }
        NetEvent::PeerKeyChanged { peer_name } => {
            // The code that follows is this device's.
            v.key_change_next = true;
            v.key_warning = Some(format!(
                "Warning: {peer_name} comes with a different key than last time. Compare the code carefully."
            ));
        }
        NetEvent::Proposed(p) => {
            v.phase = Some(Phase::Proposed);
            v.proposal = Some(p.clone());
        }
        NetEvent::ProposalDeclined { reason } => {
            v.notice = Some(format!("The game was declined: {reason}"));
        }
        NetEvent::Started { your_color, .. } => {
            v.phase = Some(Phase::Playing);
            super::offer::clear(v);
            v.banner = None;
            v.board = BoardModel::new(*your_color == Color::Black);
            v.raced = false;
        }
        NetEvent::Race(RaceUpdate::Started { .. }) => {
            v.phase = Some(Phase::Playing);
            super::offer::clear(v);
            v.banner = None;
            v.raced = true;
        }
        NetEvent::Race(RaceUpdate::Over { .. }) => {
            // The race and its result are what the screen shows, also a race that ended
            // before it started (called off: the seed was not agreed in time)
            // after a board game; not over a board game started since (a race result
            // revised by a late cut).
            if v.raced || v.phase != Some(Phase::Playing) {
                v.raced = true;
                v.phase = Some(Phase::Over);
            }
        }
        NetEvent::Race(_) => {}
        NetEvent::MovePlayed { .. } => {
            v.banner = None;
            v.draw_offered = false;
            v.board.clear_selection();
        }
        NetEvent::PieceRevealed { .. } => v.board.clear_selection(),
        NetEvent::UndoRequested { to_ply } => v.undo_request = Some(*to_ply),
        NetEvent::UndoDeclined => v.notice = Some("The other player declined to take back".into()),
        NetEvent::Undone { .. } => {
            v.undo_request = None;
            v.board.clear_selection();
        }
        NetEvent::DrawOffered => v.draw_offered = true,
        NetEvent::DrawDeclined => v.notice = Some("The other player declined the draw".into()),
        NetEvent::DrawOfferWithdrawn => v.draw_offered = false,
        NetEvent::MoveRefused { .. } => {
            v.board.clear_selection();
            v.notice = Some("The other device refused your move; play again".into());
        }
        NetEvent::GameAborted { reason, by_peer } => {
            v.phase = Some(Phase::Over);
            v.undo_request = None;
            v.draw_offered = false;
            v.board.clear_selection();
            v.notice = Some(abandoned_notice(reason, *by_peer));
        }
        NetEvent::GameOver { .. } => {
            v.phase = Some(Phase::Over);
            v.undo_request = None;
            v.draw_offered = false;
            v.board.clear_selection();
        }
        NetEvent::Disconnected { .. } if v.host && !playing && v.phase != Some(Phase::Waiting) => {
            // Before pairing a host only lost a candidate: it listens on.
            v.phase = Some(Phase::Listening);
            v.code = None;
            v.peer_name = None;
        }
        NetEvent::Disconnected { .. } => {
            v.banner = Some(format!("{LOST_BANNER} Reconnecting…"));
        }
        NetEvent::Resumed => v.banner = None,
        // No other device met yet: say why, not "lost".
        NetEvent::Reconnecting {
            attempt, reason, ..
        } if v.peer_name.is_none() => {
            let what = if v.host {
                "Cannot take connections"
            } else {
                "Cannot reach the other device"
            };
            v.banner = Some(format!(
                "{what} ({reason}). Trying again (attempt {attempt})…"
            ));
        }
        NetEvent::Reconnecting { attempt, .. } => {
            v.banner = Some(format!("{LOST_BANNER} Reconnecting (attempt {attempt})…"));
        }
        NetEvent::PeerProblem { message } => v.notice = Some(message.clone()),
        NetEvent::Closed { reason } => {
            v.phase = Some(Phase::Closed);
            v.banner = None;
            if v.closed_reason.is_none() {
                v.closed_reason = Some(reason.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_opponent_leaving_the_game_is_blamed_on_the_opponent() {
        let mut v = View::default();
        let left = banco_protocol::message::AbortReason::ABANDONED
            .text()
            .to_owned();
        apply(
            &NetEvent::GameAborted {
                reason: left,
                by_peer: true,
            },
            &mut v,
        );
        assert_eq!(
            v.notice.as_deref(),
            Some("The other player left the game: no result")
        );
        apply(
            &NetEvent::GameAborted {
                reason: "too many moves were refused by the other device".into(),
                by_peer: false,
            },
            &mut v,
        );
        assert_eq!(
            v.notice.as_deref(),
            Some("The game was abandoned: too many moves were refused by the other device")
        );
    }

    #[test]
    fn repeated_offers_and_errors_collapse_into_one_event() {
        let mut v = View::default();
        let offer = NetEvent::DrawOffered;
        let problem = NetEvent::PeerProblem {
            message: "the other device reported an error: malformed".into(),
        };
        let mut shown = 0;
        for e in [&offer, &problem, &offer, &problem, &offer, &problem] {
            if !repeated(e, &v) {
                shown += 1;
                apply(e, &mut v);
            }
        }
        assert_eq!(shown, 2);
        // Once answered (or shown and cleared), a new offer is an event again.
        v.draw_offered = false;
        v.notice = None;
        assert!(!repeated(&offer, &v) && !repeated(&problem, &v));
    }

    #[test]
    fn a_lost_link_is_reported_once_until_it_is_back() {
        let mut v = View {
            phase: Some(Phase::Playing),
            peer_name: Some("Binh".into()),
            ..View::default()
        };
        let lost = |reason: &str| NetEvent::Disconnected {
            reason: reason.into(),
        };
        let mut shown = 0;
        // The driver's report, then the session's, then a reconnect attempt's failure.
        for e in [lost("link closed"), lost("the connection was closed")] {
            if !repeated(&e, &v) {
                shown += 1;
                apply(&e, &mut v);
            }
        }
        assert_eq!(shown, 1);
        apply(
            &NetEvent::Reconnecting {
                attempt: 1,
                delay_ms: 100,
                reason: "refused".into(),
            },
            &mut v,
        );
        assert!(repeated(&lost("link closed"), &v));
        apply(&NetEvent::Resumed, &mut v);
        assert!(!repeated(&lost("link closed"), &v), "a new loss is news");
    }

    #[test]
    fn a_race_that_ends_before_it_starts_is_shown_over_the_board_game_before_it() {
        use banco_protocol::race::{RaceEnd, RaceResult};
        // A board game was played; then a race was accepted whose seed never came.
        let mut v = View {
            phase: Some(Phase::Over),
            spec: Some(MatchSpec::new(GameKind::Xiangqi, Color::Red)),
            ..View::default()
        };
        let over = NetEvent::Race(RaceUpdate::Over {
            result: RaceResult {
                scores: [0, 0],
                turns: [0, 0],
                winner: None,
                end: RaceEnd::NoSeed,
            },
            text: String::new(),
        });
        apply(&over, &mut v);
        assert!(v.raced, "the race's result is the one shown");
        assert_eq!(v.phase, Some(Phase::Over));
        // A board game started since is not ended by a late race result.
        v.phase = Some(Phase::Playing);
        v.raced = false;
        apply(&over, &mut v);
        assert_eq!((v.phase, v.raced), (Some(Phase::Playing), false));
    }

    #[test]
    fn a_paused_host_says_so_until_a_player_pairs() {
        let mut v = View {
            phase: Some(Phase::Listening),
            host: true,
            ..View::default()
        };
        apply(&NetEvent::HostPaused { attempts: 5 }, &mut v);
        assert!(v.host_paused && v.notice.is_some());
        apply(
            &NetEvent::PeerVerified {
                peer_name: "Binh".into(),
            },
            &mut v,
        );
        assert!(!v.host_paused, "a paired player ends the pause");
        apply(&NetEvent::HostPaused { attempts: 5 }, &mut v);
        apply(&NetEvent::HostReopened, &mut v);
        assert!(!v.host_paused, "so does the end of the cool-down");
    }

    #[test]
    fn the_banner_stays_until_the_session_resumes_whatever_the_order_of_link_events() {
        let lost = || NetEvent::Disconnected {
            reason: "the connection was closed".into(),
        };
        let connected = || NetEvent::Connected {
            peer: "tcp 127.0.0.1:40000".into(),
        };
        // A host may hear of the guest's new connection before its old link's end; a
        // stranger may connect while the guest is away; a handshake may fail.
        for order in [
            vec![connected(), lost()],
            vec![lost(), connected()],
            vec![lost(), connected(), lost()],
        ] {
            let mut v = View {
                phase: Some(Phase::Playing),
                host: true,
                ..View::default()
            };
            for e in &order {
                apply(e, &mut v);
            }
            assert!(v.banner.is_some(), "{order:?}");
            apply(&NetEvent::Resumed, &mut v);
            assert_eq!(v.banner, None, "{order:?}");
            assert_eq!(v.phase, Some(Phase::Playing));
        }
    }

    #[test]
    fn a_guest_that_never_reached_the_host_is_told_why_not_that_the_link_was_lost() {
        let failed = |attempt| NetEvent::Reconnecting {
            attempt,
            delay_ms: 100,
            reason: "connection refused".into(),
        };
        let mut v = View::default();
        apply(&failed(1), &mut v);
        assert_eq!(
            v.banner.as_deref(),
            Some("Cannot reach the other device (connection refused). Trying again (attempt 1)…")
        );
        // Once the other device was met, a failed attempt is a lost connection.
        apply(
            &NetEvent::PeerVerified {
                peer_name: "Lan".into(),
            },
            &mut v,
        );
        apply(&failed(2), &mut v);
        assert_eq!(
            v.banner.as_deref(),
            Some("Connection lost. Reconnecting (attempt 2)…")
        );
        // A host that met nobody yet cannot take connections.
        let mut v = View {
            host: true,
            ..View::default()
        };
        apply(&failed(1), &mut v);
        assert_eq!(
            v.banner.as_deref(),
            Some("Cannot take connections (connection refused). Trying again (attempt 1)…")
        );
    }

    #[test]
    fn only_a_resumed_link_is_the_connection_back() {
        let view = Mutex::new(View::default());
        let driver = Mutex::new(None);
        let up = |resumed| {
            translate(
                DriverEvent::Session(Event::LinkUp { resumed }),
                &view,
                &driver,
            )
        };
        assert!(matches!(up(true), Some(NetEvent::Resumed)));
        // The first link of a session: the pairing's own events follow.
        assert!(up(false).is_none());
    }
}
