//! [`Match`]: a networked xiangqi game over TCP (host or join), with the 6-digit pairing
//! code, undo requests, draw offers and resignation; [`MatchListener`] hears every event.
//! [`Lobby`]: advertise and browse Banco hosts on the LAN (mDNS); [`LobbyListener`].
//!
//! Threads: the match session runs on banco-net's driver thread; events are handed to a
//! second Rust thread (`banco-match-events`) that calls the listener, so a listener may call
//! back into the match (confirm the code, accept a proposal, play) without deadlock.

use crate::error::{BancoError, guard, notify};
use crate::game::{Game, legal};
use crate::types::{Color, Move, Notation, Outcome, PlayedMove, RepetitionRule, Rules};
use banco_app::any::{AnyGame, AnyMove, AnyRules};
use banco_app::notation as an;
use banco_game::Game as _;
use banco_game::GameKind;
use banco_net::discovery::{Advertisement, DiscoveryConfig};
use banco_net::driver::{Dialer, Driver, DriverConfig, DriverError, DriverEvent};
use banco_net::{Advertise, Host, host};
use banco_protocol::{Event, Identity, MatchSpec, Session, SessionConfig};
use banco_xiangqi::{self as x, RuleSet, Xiangqi};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// Where the driver of a match lives once it runs.
type DriverSlot = Arc<Mutex<Option<Driver<Xiangqi>>>>;

/// The games a match of this build offers (and the LAN advertisements list).
pub(crate) const OFFERS: &[GameKind] = &[GameKind::Xiangqi];

/// The rule sets a match can use, by wire index.
const RULES: [RuleSet; 2] = x::MATCH_RULES;

/// What happens in a [`Match`], in order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum MatchEvent {
    /// The host listens here, waiting for a guest.
    Listening {
        /// `address:port`.
        address: String,
    },
    /// A connection is up; the encrypted pairing starts.
    Connected {
        /// The other side's address.
        peer: String,
    },
    /// Show `code` and ask the player whether the other phone shows the same six digits;
    /// then call `confirmCode` or `rejectCode`.
    VerifyCode {
        /// Six digits.
        code: String,
        /// The name the other player gave.
        peer_name: String,
    },
    /// The other player is trusted.
    PeerVerified {
        /// Their name.
        peer_name: String,
    },
    /// WARNING: a remembered player came with a different key; compare the code carefully.
    PeerKeyChanged {
        /// Their name.
        peer_name: String,
    },
    /// The host proposes a game (guest side): call `acceptProposal` or `declineProposal`.
    Proposed {
        /// The colour this side would play.
        your_color: Color,
        /// The rules.
        rules: Rules,
    },
    /// The guest declined the proposal.
    ProposalDeclined {
        /// Why.
        reason: String,
    },
    /// The game started.
    Started {
        /// The colour this side plays.
        your_color: Color,
        /// The rules.
        rules: Rules,
        /// FEN of the start position.
        fen: String,
    },
    /// A move was played (by either side) and checked by this side's rules.
    MovePlayed {
        /// The move in every notation.
        played: PlayedMove,
        /// Who played it.
        by: Color,
        /// True if this side played it.
        mine: bool,
    },
    /// The other player asks to take back moves: call `replyUndo`.
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
        /// FEN of the position now.
        fen: String,
    },
    /// The other player offers a draw: call `replyDraw`.
    DrawOffered,
    /// The other player declined our draw offer.
    DrawDeclined,
    /// The game is over.
    GameOver {
        /// How.
        outcome: Outcome,
        /// In words (`1-0 checkmate`).
        text: String,
    },
    /// The connection dropped; the match tries to reconnect and resume.
    Disconnected {
        /// Why.
        reason: String,
    },
    /// A reconnect attempt failed; the next one comes later.
    Reconnecting {
        /// Failed attempts in a row.
        attempt: u32,
        /// Milliseconds before the next attempt.
        delay_ms: u64,
    },
    /// The other side misbehaved (illegal move, different board, protocol error); nothing
    /// was applied.
    PeerProblem {
        /// What happened.
        message: String,
    },
    /// The match is over for good (closed by either side, or given up).
    Closed {
        /// Why.
        reason: String,
    },
}

/// Hears every [`MatchEvent`] of a [`Match`], on a Rust-owned thread: a UI shell hops to
/// its UI thread. A listener may call the match back.
#[uniffi::export(with_foreign)]
pub trait MatchListener: Send + Sync {
    /// Something happened.
    fn on_event(&self, event: MatchEvent);
}

/// A match's own view of the game, kept from the events.
struct Mirror {
    game: Xiangqi,
    rules: RuleSet,
    color: Option<banco_game::Color>,
    code: Option<String>,
}

/// A networked xiangqi game with another phone. Create it with [`Match::host`] or
/// [`Match::join`]; every call is safe from any thread.
#[derive(uniffi::Object)]
pub struct Match {
    driver: DriverSlot,
    mirror: Arc<Mutex<Mirror>>,
    events: Sender<MatchEvent>,
    closed: Arc<AtomicBool>,
    /// The host's listener and advertisement, kept alive for reconnects.
    hosting: Arc<Mutex<Option<Host>>>,
    address: String,
}

fn random32() -> Result<[u8; 32], BancoError> {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b)
        .map_err(|e| BancoError::Internal(format!("no randomness from the system: {e}")))?;
    Ok(b)
}

fn new_session(name: &str) -> Result<Session<Xiangqi>, BancoError> {
    let name = name.trim();
    if name.is_empty() || name.len() > 64 {
        return Err(BancoError::InvalidArgument(
            "a player name must have 1 to 64 bytes".to_owned(),
        ));
    }
    let config = SessionConfig::new(name, OFFERS);
    let identity = Identity::from_secret(random32()?);
    Ok(Session::new(config, identity, random32()?))
}

fn rules_of(index: u8) -> RuleSet {
    RULES.get(usize::from(index)).copied().unwrap_or_default()
}

fn rules_index(r: RepetitionRule) -> u8 {
    match r {
        RepetitionRule::Asian => 0,
        RepetitionRule::Casual => 1,
    }
}

fn driver_error(e: DriverError) -> BancoError {
    BancoError::Match(e.to_string())
}

/// Calls the listener for every queued event, in order, on its own thread. The host also
/// proposes the game from here once the guest is verified (never from the driver thread,
/// whose calls would wait on themselves).
fn start_dispatch(
    listener: Arc<dyn MatchListener>,
    rx: Receiver<MatchEvent>,
    closed: Arc<AtomicBool>,
    propose: Option<(MatchSpec, DriverSlot)>,
) {
    let _ = std::thread::Builder::new()
        .name("banco-match-events".into())
        .spawn(move || {
            loop {
                match rx.recv_timeout(Duration::from_millis(200)) {
                    Ok(e) => {
                        let last = matches!(e, MatchEvent::Closed { .. });
                        let verified = matches!(e, MatchEvent::PeerVerified { .. });
                        notify(|| listener.on_event(e));
                        if let (true, Some((spec, driver))) = (verified, &propose) {
                            let d = driver.lock().unwrap_or_else(PoisonError::into_inner);
                            if let Some(d) = d.as_ref() {
                                let _ = d.propose(spec.clone());
                            }
                        }
                        if last {
                            break;
                        }
                    }
                    Err(RecvTimeoutError::Timeout) if closed.load(Ordering::Relaxed) => break,
                    Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Disconnected) => break,
                }
            }
        });
}

/// Turns a driver event into match events, updating the mirror (runs on the driver thread).
fn translate(event: DriverEvent<x::Move>, mirror: &Mutex<Mirror>) -> Vec<MatchEvent> {
    let mut m = mirror.lock().unwrap_or_else(PoisonError::into_inner);
    let one = |e| vec![e];
    match event {
        DriverEvent::Connected { peer } => one(MatchEvent::Connected { peer }),
        DriverEvent::Disconnected { error } => one(MatchEvent::Disconnected { reason: error }),
        DriverEvent::Reconnecting { attempt, delay, .. } => one(MatchEvent::Reconnecting {
            attempt,
            delay_ms: delay.as_millis() as u64,
        }),
        DriverEvent::GaveUp { attempts } => one(MatchEvent::Closed {
            reason: format!("the other phone could not be reached ({attempts} attempts)"),
        }),
        DriverEvent::Stopped => one(MatchEvent::Closed {
            reason: "the match stopped".to_owned(),
        }),
        DriverEvent::Session(e) => match e {
            Event::LinkUp { .. } | Event::FrameRejected { .. } => Vec::new(),
            Event::LinkDown { reason } => one(MatchEvent::Disconnected {
                reason: reason.to_string(),
            }),
            Event::VerifyPeer { code, name, .. } => {
                m.code = Some(code.to_string());
                one(MatchEvent::VerifyCode {
                    code: code.to_string(),
                    peer_name: name,
                })
            }
            Event::PeerVerified { name, .. } => one(MatchEvent::PeerVerified { peer_name: name }),
            Event::PeerKeyChanged { name, .. } => {
                one(MatchEvent::PeerKeyChanged { peer_name: name })
            }
            Event::Proposed(spec) => one(MatchEvent::Proposed {
                your_color: spec.local_color.into(),
                rules: AnyRules::Xiangqi(rules_of(spec.rules)).into(),
            }),
            Event::ProposalDeclined { reason } => one(MatchEvent::ProposalDeclined {
                reason: reason.text().to_owned(),
            }),
            Event::MatchStarted(spec) => {
                // Proposals here name no start position: the usual start.
                m.game = Xiangqi::new();
                m.rules = rules_of(spec.rules);
                m.color = Some(spec.local_color);
                one(MatchEvent::Started {
                    your_color: spec.local_color.into(),
                    rules: AnyRules::Xiangqi(m.rules).into(),
                    fen: m.game.fen(),
                })
            }
            Event::MovePlayed { mv, by, .. } => {
                let played = PlayedMove::from(&an::describe(
                    &AnyGame::Xiangqi(m.game.clone()),
                    AnyMove::Xiangqi(mv),
                ));
                let _ = m.game.play(mv);
                one(MatchEvent::MovePlayed {
                    played,
                    by: by.into(),
                    mine: Some(by) == m.color,
                })
            }
            Event::UndoRequested { to_ply } => one(MatchEvent::UndoRequested { to_ply }),
            Event::UndoDeclined => one(MatchEvent::UndoDeclined),
            Event::Undone { to_ply } => {
                while m.game.ply() > to_ply && m.game.undo_move().is_some() {}
                one(MatchEvent::Undone {
                    to_ply,
                    fen: m.game.fen(),
                })
            }
            Event::DrawOffered => one(MatchEvent::DrawOffered),
            Event::DrawDeclined => one(MatchEvent::DrawDeclined),
            Event::GameOver { outcome, .. } => one(MatchEvent::GameOver {
                outcome: outcome.into(),
                text: outcome.to_string(),
            }),
            Event::PeerIllegalMove { ply, reason, .. } => one(MatchEvent::PeerProblem {
                message: format!(
                    "the other phone sent an illegal move at ply {ply} ({reason}); ignored"
                ),
            }),
            Event::FalseDrawClaim { ply } => one(MatchEvent::PeerProblem {
                message: format!(
                    "the other phone claimed a draw at ply {ply} that the rules do not allow; ignored"
                ),
            }),
            Event::Desync { ply, .. } => one(MatchEvent::PeerProblem {
                message: format!("the other phone's board differs after ply {ply}; move ignored"),
            }),
            Event::PeerError { code } => one(MatchEvent::PeerProblem {
                message: format!("the other phone reported an error: {code:?}"),
            }),
            Event::Closed { reason } => one(MatchEvent::Closed {
                reason: reason.to_string(),
            }),
        },
    }
}

impl Match {
    fn start(
        session: Session<Xiangqi>,
        connector: impl banco_net::driver::Connector,
        hosting: Option<Host>,
        propose: Option<MatchSpec>,
        listener: Arc<dyn MatchListener>,
    ) -> Arc<Match> {
        let (tx, rx) = mpsc::channel();
        let address = hosting
            .as_ref()
            .map(|h| h.local_addr().to_string())
            .unwrap_or_default();
        if hosting.is_some() {
            let _ = tx.send(MatchEvent::Listening {
                address: address.clone(),
            });
        }
        let mirror = Arc::new(Mutex::new(Mirror {
            game: Xiangqi::new(),
            rules: RuleSet::asian(),
            color: None,
            code: None,
        }));
        let closed = Arc::new(AtomicBool::new(false));
        let driver_slot: DriverSlot = Arc::new(Mutex::new(None));
        start_dispatch(
            listener,
            rx,
            closed.clone(),
            propose.map(|spec| (spec, driver_slot.clone())),
        );
        let sink = tx.clone();
        let m2 = mirror.clone();
        let driver = Driver::spawn_with_callback(
            session,
            connector,
            DriverConfig::default(),
            move |event| {
                for e in translate(event, &m2) {
                    let _ = sink.send(e);
                }
            },
        );
        *driver_slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(driver);
        Arc::new(Match {
            driver: driver_slot,
            mirror,
            events: tx,
            closed,
            hosting: Arc::new(Mutex::new(hosting)),
            address,
        })
    }

    fn with_driver(
        &self,
        f: impl FnOnce(&Driver<Xiangqi>) -> Result<(), DriverError>,
    ) -> Result<(), BancoError> {
        let d = self.driver.lock().unwrap_or_else(PoisonError::into_inner);
        match d.as_ref() {
            Some(d) => f(d).map_err(driver_error),
            None => Err(BancoError::Match("the match is closed".to_owned())),
        }
    }

    fn play_checked(&self, mv: x::Move) -> Result<(), BancoError> {
        self.with_driver(|d| d.play(mv))
    }

    fn my_turn_position(&self) -> Result<AnyGame, BancoError> {
        let m = self.mirror.lock().unwrap_or_else(PoisonError::into_inner);
        match m.color {
            None => Err(BancoError::Match("the game has not started yet".to_owned())),
            Some(c) if c != m.game.side_to_move() => {
                Err(BancoError::Match("it is not your turn".to_owned()))
            }
            Some(_) => Ok(AnyGame::Xiangqi(m.game.clone())),
        }
    }
}

#[uniffi::export]
impl Match {
    /// Hosts a match: listens on `listen_address` (`0.0.0.0:7368`; port 0 picks a free one),
    /// advertises it on the LAN if `advertise`, and proposes a game where the host plays
    /// `host_color` under `repetition` rules once a guest has confirmed the code.
    #[uniffi::constructor]
    pub fn host(
        player_name: String,
        listen_address: String,
        advertise: bool,
        host_color: Color,
        repetition: RepetitionRule,
        listener: Arc<dyn MatchListener>,
    ) -> Result<Arc<Match>, BancoError> {
        guard(|| {
            let addr: SocketAddr = listen_address.trim().parse().map_err(|_| {
                BancoError::InvalidArgument(format!(
                    "`{listen_address}` is not an address to listen on, like 0.0.0.0:7368"
                ))
            })?;
            let session = new_session(&player_name)?;
            // The advertisement lists exactly the games the session offers.
            let ad = advertise.then(|| Advertise {
                ad: Advertisement::of_session(&session),
                config: DiscoveryConfig::default(),
            });
            let hosting = host(addr, ad).map_err(|e| BancoError::Network(e.to_string()))?;
            let spec = MatchSpec {
                rules: rules_index(repetition),
                ..MatchSpec::new(GameKind::Xiangqi, host_color.into())
            };
            let acceptor = hosting.acceptor();
            Ok(Match::start(
                session,
                acceptor,
                Some(hosting),
                Some(spec),
                listener,
            ))
        })
    }

    /// Joins the match hosted at `address` (`192.168.1.20:7368`).
    #[uniffi::constructor]
    pub fn join(
        player_name: String,
        address: String,
        listener: Arc<dyn MatchListener>,
    ) -> Result<Arc<Match>, BancoError> {
        guard(|| {
            let session = new_session(&player_name)?;
            let dialer = banco_net::dialer(address.trim())
                .map_err(|e| BancoError::Network(format!("cannot reach `{address}`: {e}")))?;
            Ok(Match::start(session, dialer, None, None, listener))
        })
    }

    /// Joins a host found by a [`crate::Lobby`].
    #[uniffi::constructor]
    pub fn join_peer(
        player_name: String,
        peer: crate::lobby::LobbyPeer,
        listener: Arc<dyn MatchListener>,
    ) -> Result<Arc<Match>, BancoError> {
        guard(|| {
            let session = new_session(&player_name)?;
            let addrs: Vec<SocketAddr> = peer
                .addresses
                .iter()
                .filter_map(|a| a.parse().ok())
                .collect();
            if addrs.is_empty() {
                return Err(BancoError::Network(format!(
                    "{} has no address to connect to",
                    peer.name
                )));
            }
            Ok(Match::start(
                session,
                Dialer::new(addrs),
                None,
                None,
                listener,
            ))
        })
    }

    /// Where the host listens (`address:port`); empty for a guest.
    pub fn address(&self) -> Result<String, BancoError> {
        guard(|| Ok(self.address.clone()))
    }

    /// The six-digit code to compare with the other phone, once the connection is up.
    pub fn code(&self) -> Result<Option<String>, BancoError> {
        guard(|| {
            Ok(self
                .mirror
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .code
                .clone())
        })
    }

    /// The player says both phones show the same code.
    pub fn confirm_code(&self) -> Result<(), BancoError> {
        guard(|| self.with_driver(|d| d.confirm_peer(false)))
    }

    /// The player says the codes differ: the match ends.
    pub fn reject_code(&self) -> Result<(), BancoError> {
        guard(|| self.with_driver(|d| d.reject_peer()))
    }

    /// Accepts the host's proposal (guest).
    pub fn accept_proposal(&self) -> Result<(), BancoError> {
        guard(|| self.with_driver(|d| d.accept_proposal()))
    }

    /// Declines the host's proposal (guest).
    pub fn decline_proposal(&self) -> Result<(), BancoError> {
        guard(|| self.with_driver(|d| d.decline_proposal()))
    }

    /// Plays a move (checked here first, then by both sides' rules).
    pub fn play(&self, mv: Move) -> Result<(), BancoError> {
        guard(|| {
            let pos = self.my_turn_position()?;
            let AnyMove::Xiangqi(m) = legal(&pos, mv)? else {
                return Err(BancoError::Unsupported("chess over the network".into()));
            };
            self.play_checked(m)
        })
    }

    /// Plays a move written in `notation`.
    pub fn play_text(&self, text: String, notation: Notation) -> Result<(), BancoError> {
        guard(|| {
            let pos = self.my_turn_position()?;
            let AnyMove::Xiangqi(m) = an::parse_move(&pos, &text, Some(notation.into()))? else {
                return Err(BancoError::Unsupported("chess over the network".into()));
            };
            self.play_checked(m)
        })
    }

    /// Asks the other player to take back the last move.
    pub fn request_undo(&self) -> Result<(), BancoError> {
        guard(|| self.with_driver(|d| d.request_undo()))
    }

    /// Answers the other player's undo request.
    pub fn reply_undo(&self, accept: bool) -> Result<(), BancoError> {
        guard(|| self.with_driver(|d| d.reply_undo(accept)))
    }

    /// Offers a draw.
    pub fn offer_draw(&self) -> Result<(), BancoError> {
        guard(|| self.with_driver(|d| d.offer_draw()))
    }

    /// Answers the other player's draw offer.
    pub fn reply_draw(&self, accept: bool) -> Result<(), BancoError> {
        guard(|| self.with_driver(|d| d.reply_draw(accept)))
    }

    /// Resigns the game.
    pub fn resign(&self) -> Result<(), BancoError> {
        guard(|| self.with_driver(|d| d.resign()))
    }

    /// The colour this side plays, once the game started.
    pub fn your_color(&self) -> Result<Option<Color>, BancoError> {
        guard(|| {
            Ok(self
                .mirror
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .color
                .map(Color::from))
        })
    }

    /// A copy of the game as this side sees it (for drawing the board, or for the engine).
    pub fn game(&self) -> Result<Arc<Game>, BancoError> {
        guard(|| {
            let m = self.mirror.lock().unwrap_or_else(PoisonError::into_inner);
            Ok(Game::from_any(
                AnyGame::Xiangqi(m.game.clone()),
                AnyRules::Xiangqi(m.rules),
            ))
        })
    }

    /// Leaves the match (telling the other phone) and stops its threads.
    pub fn leave(&self) -> Result<(), BancoError> {
        guard(|| {
            let driver = self
                .driver
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take();
            if let Some(d) = driver {
                let _ = d.close();
                d.shutdown();
                let _ = self.events.send(MatchEvent::Closed {
                    reason: "closed by this player".to_owned(),
                });
            }
            self.closed.store(true, Ordering::Relaxed);
            self.hosting
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take();
            Ok(())
        })
    }
}

impl Drop for Match {
    fn drop(&mut self) {
        let _ = self.leave();
    }
}
