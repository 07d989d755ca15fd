//! [`NetMatch`]: a networked match of any game with another device, as every front end
//! runs it — host or join, the six-digit code to compare, proposals (the game, who plays
//! which side, the start position), moves from taps or text, undo requests, draw offers and
//! claims, resignation, the banner while the link is down, and the result from the player's
//! side. The board and the moves are read from the session's own game (banco-protocol
//! checks every move with its rules); this module keeps only what a screen needs besides:
//! the phase, the code, notices, the selection.
//!
//! Threads: the session runs on banco-net's driver; its events are handed to a thread of
//! this module (`banco-match-events`) which updates the screen state, enriches the event
//! (a move with its notations, read from the session at that ply) and tells the
//! [`NetObserver`] — so an observer may call the match back. A host that was given a game
//! proposes it from there once the guest's code is confirmed.
//!
//! ```no_run
//! use banco_app::network::{NetMatch, NetEvent, NetObserver, HostOptions};
//! use banco_game::{Color, GameKind};
//! use std::sync::Arc;
//! struct Print;
//! impl NetObserver for Print {
//!     fn event(&self, e: NetEvent) { println!("{e:?}"); }
//! }
//! let options = HostOptions::new("An", "0.0.0.0:7368".parse()?, vec![GameKind::Xiangqi, GameKind::Chess])
//!     .proposing(GameKind::Chess, Color::Red);
//! let host = NetMatch::host(options, Arc::new(Print))?;
//! // … the guest joins; both confirm the code; the host's proposal is accepted …
//! let state = host.state();
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::any::{AnyGame, AnyMove};
use crate::board::{BoardModel, BoardView};
use crate::notation::{self, MoveInfo};
use crate::result::result_text;
use crate::save::SavedGame;
use banco_game::{Color, DrawReason, Game, GameKind, MatchGame, Outcome};
use banco_net::discovery::{Advertisement, DiscoveryConfig, PeerInfo};
use banco_net::driver::{Connector, Dialer, Driver, DriverConfig, DriverError, DriverEvent};
use banco_net::{Advertise, Host, host};
pub use banco_protocol::message::ClockSpec;
use banco_protocol::race::RaceOptions;
use banco_protocol::{
    Event, Identity, KnownPeers, MatchSnapshot, MatchSpec, Session, SessionConfig,
};
use std::net::SocketAddr;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

pub use leave::LEAVE_DELIVERY;

mod auto_propose;
pub mod ble_status;
mod clock;
mod error;
mod events;
mod hosting;
mod leave;
pub mod nearby;
mod offer;
mod play;
mod race;
mod state;
mod trust;
use auto_propose::AutoPropose;
pub use clock::{
    ClockFace, ClockFaces, ClockTextError, LOW_TIME_MS, MAX_CLOCK_BASE_MS, MAX_CLOCK_INCREMENT_MS,
    clock_arg_text, clock_faces, clock_text, duration_text, offer_clock_text, parse_clock,
    remaining_text,
};
pub use error::NetError;
use events::spawn_events;
pub use events::{NetEvent, NetObserver};
pub use hosting::{Hosting, NotOpen};
pub use race::{RaceUpdate, RaceView, race_result_text};
pub use trust::{Trust, TrustError};

/// Where a match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Connecting (guest) or the link is being set up.
    Connecting,
    /// Host: listening, waiting for a guest.
    Listening,
    /// Both devices show the code: ask the player to compare and confirm.
    Verify,
    /// Code confirmed here; waiting for the other side (its confirmation, a proposal).
    Waiting,
    /// The other player proposes a game: accept or decline.
    Proposed,
    /// A game is on.
    Playing,
    /// The game is over (another may be proposed).
    Over,
    /// The match is over for good.
    Closed,
}

/// A game proposed by the other player, to accept or decline.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ProposalView {
    /// This proposal's number in the match (1 for the first shown, then counting up; a
    /// proposal repeated unchanged keeps its number): accept exactly this one with
    /// [`NetMatch::accept_offer`].
    pub id: u64,
    /// The game.
    pub game: GameKind,
    /// The colour this side would play.
    pub your_color: Color,
    /// Wire index of the rules (0 the usual ones).
    pub rules: u8,
    /// A set-up start position, if not the usual start.
    pub start_fen: Option<String>,
    /// The clock offered (base and increment per move), or `None` for an untimed game:
    /// show it before the player accepts.
    pub clock: Option<ClockSpec>,
    /// For a Lines race: its start balls and time limit (show them before accepting).
    pub race: Option<RaceOptions>,
}

impl ProposalView {
    /// The offered clock in words, for the accept prompt: `"untimed"`, `"clock 5 min + 3 s
    /// per move"`, `"clock 10 s"`.
    pub fn clock_text(&self) -> String {
        clock_text(self.clock)
    }
}

/// Everything a screen shows of a networked match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetState {
    /// Where the match stands.
    pub phase: Phase,
    /// A game (or a race) may be proposed now, by either side: paired with none on or
    /// proposed, or after a game or race ended — the screen's "propose" control.
    pub can_propose: bool,
    /// Where the host listens (`address:port`); empty for a guest.
    pub address: String,
    /// The addresses a guest can type to reach this host, best first: where it listens,
    /// or when it listens on every interface (`0.0.0.0:7368`) this machine's LAN addresses
    /// with the port (IPv4 first, [`banco_net::reachable`]). Show the first (join by
    /// address); empty for a guest, a host over Bluetooth only, or once the match is left.
    pub reachable: Vec<String>,
    /// The six digits to compare, once the link is up.
    pub code: Option<String>,
    /// The other player's name.
    pub peer_name: Option<String>,
    /// The games the other player offers.
    pub peer_games: Vec<GameKind>,
    /// The games this side offers.
    pub offers: Vec<GameKind>,
    /// A proposal to answer.
    pub proposal: Option<ProposalView>,
    /// The game being (or last) played.
    pub kind: Option<GameKind>,
    /// This side's colour in it.
    pub your_color: Option<Color>,
    /// The board, ready to draw, once a game started.
    pub board: Option<BoardView>,
    /// The side to move.
    pub side_to_move: Option<Color>,
    /// It is this player's turn and the game goes on (and the link is up).
    pub your_turn: bool,
    /// The side to move is in check.
    pub in_check: bool,
    /// Shown over the board while the link is down ("Reconnecting…").
    pub banner: Option<String>,
    /// The other player asks to take back to this ply: answer it.
    pub undo_request: Option<u32>,
    /// The other player offers a draw: answer it.
    pub draw_offered: bool,
    /// This player offered a draw on its own turn: the offer goes with its next move
    /// (FIDE 9.1.2.2; [`NetMatch::offer_draw`]) — say so ("your draw offer goes with your
    /// next move").
    pub draw_offer_held: bool,
    /// A draw this player may claim now (chess).
    pub claimable_draw: Option<DrawReason>,
    /// A one-off notice (a declined offer, a misbehaving peer).
    pub notice: Option<String>,
    /// A remembered player came with a different key (a reinstall, or someone posing as
    /// them): a warning to show until the player closes it ([`NetMatch::clear_key_warning`]),
    /// not a passing notice.
    pub key_warning: Option<String>,
    /// Host: too many devices showed a code nobody confirmed and new devices are turned
    /// away (for a minute, [`NetEvent::HostReopened`]): ask the player whether to take them
    /// again at once ([`NetMatch::reopen`]) or leave.
    pub host_paused: bool,
    /// How the game ended.
    pub outcome: Option<Outcome>,
    /// The end from this player's side, of a board game or a Lines race.
    pub result: Option<String>,
    /// Why the match closed.
    pub closed_reason: Option<String>,
    /// The moves so far, in the game's main notation.
    pub moves: Vec<String>,
    /// The same moves as a move list shows them, numbered from the position
    /// ([`crate::notation::numbered_lines`]); empty before a game.
    pub move_list: Vec<String>,
    /// The last move.
    pub last_move: Option<MoveInfo>,
    /// Remaining time of `[first, second]` player in milliseconds, in timed games.
    pub clocks: Option<[u64; 2]>,
    /// Both clocks ready to show from this player's side, in timed games (see
    /// [`ClockFaces::next_change_ms`] for when to read the state again).
    pub clock_faces: Option<ClockFaces>,
    /// The clock of the proposal to answer, for the accept prompt (`"5:00 + 3s"`,
    /// `"untimed"`); `None` without a proposal.
    pub offered_clock: Option<String>,
    /// The options of the race proposed, for the accept prompt (`"5 balls, 5 min,
    /// preview"`); `None` without a proposal or for a board game.
    pub offered_race: Option<String>,
    /// The proposal to answer described for the accept prompt, a line each
    /// ([`ProposalView::terms`]): a race's options, or the colour, rules, set-up start and
    /// clock of a board game; `None` without a proposal.
    pub offered_terms: Option<String>,
    /// The set-up start position of the proposal to answer, ready to draw in the accept
    /// dialog ([`ProposalView::start_board`]; its FEN is the proposal's `start_fen`);
    /// `None` without a proposal or for the usual start.
    pub offered_board: Option<BoardView>,
    /// The game's position as FEN.
    pub fen: Option<String>,
    /// The Lines race (running or over) once one was accepted: our board, the opponent's
    /// score and ball count, the time left, the result — the same as [`NetMatch::race`].
    pub race: Option<RaceView>,
}

/// How to host a match.
#[derive(Clone, Debug)]
pub struct HostOptions {
    /// The host's display name.
    pub name: String,
    /// Where to listen (`0.0.0.0:7368`; port 0 picks a free one).
    pub listen: SocketAddr,
    /// Advertise on the LAN with mDNS.
    pub advertise: bool,
    /// The games offered (the guest sees them in the lobby and after connecting).
    pub offers: Vec<GameKind>,
    /// The game the host proposes once the guest is verified, and the host's colour.
    pub propose: Option<(GameKind, Color)>,
    /// Rules index of the proposal (0 the usual rules).
    pub rules: u8,
    /// A set-up start position for the proposal.
    pub start_fen: Option<String>,
    /// The clock of the proposal (`None`: untimed).
    pub clock: Option<ClockSpec>,
    /// The options of a proposed Lines race (`propose` with [`GameKind::Lines`]).
    pub race: RaceOptions,
    /// The device identity and remembered peers ([`Trust`]); `None` makes a new identity
    /// for this match only.
    pub trust: Option<Trust>,
}

impl HostOptions {
    /// Hosting `offers` on `listen` under `name`, advertised, proposing nothing.
    #[must_use]
    pub fn new(name: &str, listen: SocketAddr, offers: Vec<GameKind>) -> HostOptions {
        HostOptions {
            name: name.to_owned(),
            listen,
            advertise: true,
            offers,
            propose: None,
            rules: 0,
            start_fen: None,
            clock: None,
            race: RaceOptions::default(),
            trust: None,
        }
    }

    /// Proposes a Lines race with `options`, the host's board named `color`, once the
    /// guest is verified. The race is offered too: Lines joins a list of `offers` without it
    /// (the board games a host offers), so that a shell passes the same list whatever it
    /// proposes; an empty list already offers every game.
    #[must_use]
    pub fn racing(mut self, options: RaceOptions, color: Color) -> HostOptions {
        if !self.offers.is_empty() && !self.offers.contains(&GameKind::Lines) {
            self.offers.push(GameKind::Lines);
        }
        self.propose = Some((GameKind::Lines, color));
        self.race = options;
        self
    }

    /// Proposes `game` with the host playing `color` once the guest is verified.
    #[must_use]
    pub fn proposing(mut self, game: GameKind, color: Color) -> HostOptions {
        self.propose = Some((game, color));
        self
    }
}

/// The notice of a draw offered on one's own turn ([`NetMatch::offer_draw`]): it goes
/// with the player's next move (FIDE 9.1.2.2).
pub const DRAW_OFFER_HELD: &str = "Your draw offer goes with your next move";

/// The part of the state that the session does not keep.
#[derive(Clone, Default)]
struct View {
    phase: Option<Phase>,
    code: Option<String>,
    peer_name: Option<String>,
    proposal: Option<ProposalView>,
    /// The session's spec of `proposal`, to accept exactly it.
    offer: Option<MatchSpec>,
    /// The proposals shown so far (the last one's [`ProposalView::id`]).
    offers_shown: u64,
    banner: Option<String>,
    undo_request: Option<u32>,
    draw_offered: bool,
    notice: Option<String>,
    key_warning: Option<String>,
    /// A [`NetEvent::PeerKeyChanged`] came: the next code is of a device whose key changed.
    key_change_next: bool,
    /// The code on screen is of a device whose key changed (see
    /// [`NetMatch::confirm_code_unattended`]).
    code_key_changed: bool,
    host_paused: bool,
    closed_reason: Option<String>,
    board: BoardModel,
    /// The spec of the board game on (or last played), once one started.
    spec: Option<MatchSpec>,
    /// The game on (or last played) is a Lines race, not the board game of `spec`.
    raced: bool,
    /// This side hosts (it keeps listening before a guest is paired).
    host: bool,
}

type DriverSlot = Arc<Mutex<Option<Driver<AnyGame>>>>;

/// A networked match (see the module docs). Every call is safe from any thread; dropping
/// it leaves the match.
pub struct NetMatch {
    driver: DriverSlot,
    /// The session's last snapshot, kept when the match is left.
    last: Mutex<Option<MatchSnapshot<AnyGame>>>,
    /// The players remembered when the match was left, for [`NetMatch::trust`] after it.
    last_known: Mutex<Option<KnownPeers>>,
    view: Arc<Mutex<View>>,
    events: Sender<Item>,
    hosting: Mutex<Option<Host>>,
    address: String,
    offers: Vec<GameKind>,
    identity: Identity,
    /// The picked ball on our race board.
    race_pick: Mutex<race::RacePick>,
    /// A host: where it takes guests.
    open: Option<Hosting>,
    /// How long a resignation left behind is given to be delivered ([`NetMatch::set_leave_delivery`]).
    leave_delivery: Mutex<Duration>,
}

/// What the event thread handles: the driver's events, and a few of its own.
enum Item {
    Driver(DriverEvent<AnyMove>),
    Own(NetEvent),
    Quit,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

fn random32() -> Result<[u8; 32], NetError> {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b).map_err(|e| NetError::Entropy(e.to_string()))?;
    Ok(b)
}

/// The one rule of a player's own display name, wherever it is sent (a match hosted or
/// joined, an advertisement): cleaned as every peer's name is
/// ([`banco_protocol::name::clean_name`]: control, bidirectional and invisible characters
/// removed, white space collapsed and trimmed) and refused with [`NetError::BadName`] when
/// nothing is left — never sent as `unnamed`. A long name is cut, not refused (32
/// characters, at most 64 bytes on the wire), so a name of 22 Chinese characters that the
/// settings took does not make every match fail.
///
/// ```
/// use banco_app::network::{NetError, player_name};
/// assert_eq!(player_name("  An  Binh "), Ok("An Binh".to_owned()));
/// assert_eq!(player_name("\u{200b} "), Err(NetError::BadName));
/// ```
pub fn player_name(raw: &str) -> Result<String, NetError> {
    banco_protocol::name::printable_name(raw).ok_or(NetError::BadName)
}

/// The fingerprint a join expects of the host: `None` for an empty one (nothing to check).
fn listed(fingerprint: Option<&str>) -> Option<String> {
    fingerprint
        .filter(|fp| !fp.trim().is_empty())
        .map(str::to_owned)
}

fn session(
    name: &str,
    offers: &[GameKind],
    trust: Option<Trust>,
) -> Result<(Session<AnyGame>, Identity), NetError> {
    session_expecting(name, offers, trust, None)
}

/// [`session`] of a guest that means to reach the player whose listing carried `expected`
/// (see [`SessionConfig::expected_peer`]).
fn session_expecting(
    name: &str,
    offers: &[GameKind],
    trust: Option<Trust>,
    expected: Option<&str>,
) -> Result<(Session<AnyGame>, Identity), NetError> {
    let name = player_name(name)?;
    // The board games of `AnyGame`, and the Lines race (played by the session itself).
    let playable = |k: &GameKind| AnyGame::kinds().contains(k) || *k == GameKind::Lines;
    let offers: Vec<GameKind> = offers.iter().copied().filter(playable).collect();
    let offers = if offers.is_empty() {
        let mut all = AnyGame::kinds().to_vec();
        all.push(GameKind::Lines);
        all
    } else {
        offers
    };
    let mut config = SessionConfig::new(&name, &offers);
    config.expected_peer = listed(expected);
    let identity = match trust {
        Some(t) => {
            config.known_peers = t.known_peers().clone();
            t.identity().clone()
        }
        None => Identity::from_secret(random32()?),
    };
    let session = Session::new(config, identity.clone(), random32()?);
    Ok((session, identity))
}

impl NetMatch {
    /// Hosts a match (see [`HostOptions`]).
    pub fn host(
        options: HostOptions,
        observer: Arc<dyn NetObserver>,
    ) -> Result<NetMatch, NetError> {
        let propose = AutoPropose::of(&options);
        let (session, identity) = session(&options.name, &options.offers, options.trust)?;
        let offers = session.offers().to_vec();
        AutoPropose::check(propose.as_ref(), &offers)?;
        let ad = options.advertise.then(|| Advertise {
            ad: Advertisement::of_session(&session),
            config: DiscoveryConfig::default(),
        });
        let hosting = host(options.listen, ad).map_err(|e| NetError::Network(e.to_string()))?;
        let acceptor = hosting.acceptor();
        let address = hosting.local_addr().to_string();
        let mut m = NetMatch::start(
            (session, identity),
            acceptor,
            Some(hosting),
            Some(address),
            propose,
            offers,
            observer,
        );
        m.open = Some(Hosting::only(nearby::Transport::Lan));
        Ok(m)
    }

    /// Joins the match hosted at `address` (`192.168.1.20:7368`, or a name:
    /// `phone.local:7368`), offering `offers` (empty: every game this build plays), with the
    /// device's [`Trust`] (`None`: a new identity for this match only). Returns at once: a
    /// name is looked up on the match's connect thread, again at every attempt (a host whose
    /// address changed is found at its new one); a failed lookup is reported as that
    /// attempt's [`NetEvent::Reconnecting`] reason (`cannot find phone.local: …`, the
    /// system's words). Only an `address` that is no `host:port` at all is refused here
    /// ([`NetError::BadAddress`]).
    pub fn join(
        name: &str,
        address: &str,
        offers: &[GameKind],
        trust: Option<Trust>,
        observer: Arc<dyn NetObserver>,
    ) -> Result<NetMatch, NetError> {
        let session = session(name, offers, trust)?;
        let offers = session.0.offers().to_vec();
        let address = address.trim();
        let dialer = banco_net::dialer(address).map_err(|e| match e {
            banco_net::NetError::BadAddress(_) => NetError::BadAddress(address.to_owned()),
            e => NetError::Network(format!("cannot reach `{address}`: {e}")),
        })?;
        Ok(NetMatch::start(
            session, dialer, None, None, None, offers, observer,
        ))
    }

    /// Joins a host found on the LAN. The record's key fingerprint is checked against the
    /// key the host proves in the handshake: the record is unauthenticated (anyone on the
    /// network can publish one with a copied fingerprint), so a device with another key is
    /// refused before any code is shown and the match closes, saying so
    /// ([`LinkDownReason::NotTheListedPlayer`]). A record without a fingerprint is not
    /// checked (the code comparison still is).
    ///
    /// [`LinkDownReason::NotTheListedPlayer`]: banco_protocol::LinkDownReason::NotTheListedPlayer
    pub fn join_peer(
        name: &str,
        peer: &PeerInfo,
        offers: &[GameKind],
        trust: Option<Trust>,
        observer: Arc<dyn NetObserver>,
    ) -> Result<NetMatch, NetError> {
        let session = session_expecting(name, offers, trust, Some(&peer.fingerprint))?;
        let offers = session.0.offers().to_vec();
        if peer.addresses.is_empty() {
            return Err(NetError::Network(format!(
                "{} has no address to connect to",
                peer.name
            )));
        }
        let dialer = Dialer::to_peer(peer);
        Ok(NetMatch::start(
            session, dialer, None, None, None, offers, observer,
        ))
    }

    /// Hosts a match over links that `listen` makes from the host's advertisement (its
    /// name, games, protocol version and key fingerprint): Bluetooth LE (banco-net's
    /// `BlePeripheral`), or any other transport. `options.listen` and `options.advertise` are
    /// not used; `address` is what [`NetState::address`] shows (`Bluetooth LE`).
    pub fn host_with<C: Connector>(
        options: HostOptions,
        address: &str,
        listen: impl FnOnce(&Advertisement) -> Result<C, String>,
        observer: Arc<dyn NetObserver>,
    ) -> Result<NetMatch, NetError> {
        let propose = AutoPropose::of(&options);
        let (session, identity) = session(&options.name, &options.offers, options.trust)?;
        let offers = session.offers().to_vec();
        AutoPropose::check(propose.as_ref(), &offers)?;
        let connector = listen(&Advertisement::of_session(&session)).map_err(NetError::Network)?;
        let mut m = NetMatch::start(
            (session, identity),
            connector,
            None,
            Some(address.to_owned()),
            propose,
            offers,
            observer,
        );
        m.open = Some(Hosting::only(nearby::Transport::Ble));
        Ok(m)
    }

    /// Joins a match over links from `connector` (Bluetooth LE: banco-net's `BleDialer`),
    /// offering `offers` (empty: every game this build plays), with the device's [`Trust`]
    /// (`None`: a new identity for this match only). `listed` is the key fingerprint the
    /// host was listed with (its Bluetooth info), checked in the handshake as in
    /// [`NetMatch::join_peer`]; `None` or empty checks nothing.
    pub fn join_with(
        name: &str,
        connector: impl Connector,
        listed: Option<&str>,
        offers: &[GameKind],
        trust: Option<Trust>,
        observer: Arc<dyn NetObserver>,
    ) -> Result<NetMatch, NetError> {
        let session = session_expecting(name, offers, trust, listed)?;
        let offers = session.0.offers().to_vec();
        Ok(NetMatch::start(
            session, connector, None, None, None, offers, observer,
        ))
    }

    fn start(
        (session, identity): (Session<AnyGame>, Identity),
        connector: impl Connector,
        hosting: Option<Host>,
        listening: Option<String>,
        propose: Option<AutoPropose>,
        offers: Vec<GameKind>,
        observer: Arc<dyn NetObserver>,
    ) -> NetMatch {
        let (tx, rx) = mpsc::channel();
        let hosts = listening.is_some();
        let address = listening.unwrap_or_default();
        let view = Arc::new(Mutex::new(View {
            phase: Some(if hosts {
                Phase::Listening
            } else {
                Phase::Connecting
            }),
            host: hosts,
            ..View::default()
        }));
        if hosts {
            let _ = tx.send(Item::Own(NetEvent::Listening {
                address: address.clone(),
            }));
        }
        let driver: DriverSlot = Arc::new(Mutex::new(None));
        spawn_events(
            rx,
            Arc::clone(&view),
            Arc::clone(&driver),
            propose,
            observer,
        );
        let sink = tx.clone();
        let d =
            Driver::spawn_with_callback(session, connector, DriverConfig::default(), move |e| {
                let _ = sink.send(Item::Driver(e));
            });
        *lock(&driver) = Some(d);
        NetMatch {
            driver,
            last: Mutex::new(None),
            last_known: Mutex::new(None),
            view,
            events: tx,
            hosting: Mutex::new(hosting),
            address,
            offers,
            identity,
            race_pick: Mutex::default(),
            leave_delivery: Mutex::new(LEAVE_DELIVERY),
            open: None,
        }
    }

    fn with_driver<R>(
        &self,
        f: impl FnOnce(&Driver<AnyGame>) -> Result<R, DriverError>,
    ) -> Result<R, NetError> {
        let d = lock(&self.driver);
        let d = d.as_ref().ok_or(NetError::Closed)?;
        Ok(f(d)?)
    }

    fn snapshot(&self) -> Option<MatchSnapshot<AnyGame>> {
        let live = lock(&self.driver)
            .as_ref()
            .and_then(|d| d.snapshot().ok().flatten());
        live.or_else(|| lock(&self.last).clone())
    }

    /// A copy of the game as the session holds it (position and history), once started.
    #[must_use]
    pub fn game(&self) -> Option<AnyGame> {
        self.snapshot().map(|s| s.game)
    }

    /// The rules of the game on, once started.
    #[must_use]
    pub fn rules(&self) -> Option<crate::any::AnyRules> {
        let s = self.snapshot()?;
        AnyGame::rules(s.spec.game, s.spec.rules)
    }

    /// The game on (or last played) as a record, once started: its moves and rules, and
    /// its ending when the moves do not show it — a resignation, a loss on time, an agreed
    /// draw, a forfeit — all read from one snapshot of the session. No players' names or
    /// other tags.
    #[must_use]
    pub fn saved(&self) -> Option<SavedGame> {
        let s = self.snapshot()?;
        let rules = AnyGame::rules(s.spec.game, s.spec.rules)
            .unwrap_or_else(|| crate::any::AnyRules::usual(s.game.kind()));
        let mut saved = SavedGame::of(&s.game, rules);
        saved.ending = s.outcome.filter(|&o| s.game.outcome(&rules) != Some(o));
        Some(saved)
    }

    /// Proposes a game (either side may; the other accepts or declines).
    pub fn propose(
        &self,
        game: GameKind,
        your_color: Color,
        rules: u8,
        start_fen: Option<String>,
    ) -> Result<(), NetError> {
        self.propose_timed(game, your_color, rules, start_fen, None)
    }

    /// Proposes a game with a clock (`None`: untimed). A base time below
    /// [`MIN_CLOCK_BASE_MS`](banco_protocol::message::MIN_CLOCK_BASE_MS) is refused.
    pub fn propose_timed(
        &self,
        game: GameKind,
        your_color: Color,
        rules: u8,
        start_fen: Option<String>,
        clock: Option<ClockSpec>,
    ) -> Result<(), NetError> {
        let mut spec = MatchSpec::new(game, your_color);
        spec.rules = rules;
        spec.start_fen = start_fen;
        spec.clock = clock;
        self.with_driver(|d| d.propose(spec))
    }

    /// Proposes the game just played again: a board game with the colours swapped (same
    /// game, rules, start position and clock), a Lines race anew with the same options
    /// ([`NetMatch::propose_race_again`]): "another game" and "race again" on every screen.
    /// Refused before any game was played.
    pub fn propose_rematch(&self) -> Result<(), NetError> {
        let (raced, spec) = {
            let v = lock(&self.view);
            (v.raced, v.spec.clone())
        };
        if raced {
            return self.propose_race_again();
        }
        let spec = spec.ok_or(NetError::NoGame)?;
        self.propose_timed(
            spec.game,
            spec.local_color.other(),
            spec.rules,
            spec.start_fen,
            spec.clock,
        )
    }

    /// The player says both devices show `code` (the six digits they compared). Refused
    /// with [`NetError::CodeChanged`] when another device connected meanwhile and a new code
    /// is to be compared, so a confirmation never applies to a code nobody saw. The peer is
    /// remembered: store [`NetMatch::trust`] to skip the code next time.
    pub fn confirm_code(&self, code: &str) -> Result<(), NetError> {
        self.confirm(code, true)
    }

    fn confirm(&self, code: &str, remember: bool) -> Result<(), NetError> {
        let code: banco_protocol::sas::Sas = code
            .parse()
            .map_err(|e: banco_protocol::sas::BadCode| NetError::Refused(e.to_string()))?;
        self.with_driver(|d| d.confirm_peer(code, remember))?;
        let mut v = lock(&self.view);
        if v.phase == Some(Phase::Verify) {
            v.phase = Some(Phase::Waiting);
        }
        Ok(())
    }

    /// Confirms `code` for a front end that nobody watches (the CLI's `--yes`, a bot):
    /// as [`NetMatch::confirm_code`], but the peer is remembered only if `remember` (an
    /// unattended confirmation proves nothing about the device: by default it never adds
    /// nor replaces a trusted key), and a device whose key changed
    /// ([`NetEvent::PeerKeyChanged`]: a remembered name with another key) is refused with
    /// [`NetError::KeyChanged`]: only a person who compared the code may confirm that one.
    pub fn confirm_code_unattended(&self, code: &str, remember: bool) -> Result<(), NetError> {
        if lock(&self.view).code_key_changed {
            return Err(NetError::KeyChanged);
        }
        self.confirm(code, remember)
    }

    /// The player says the codes differ. A host forgets that device and waits for another
    /// one; a guest leaves the match.
    pub fn reject_code(&self) -> Result<(), NetError> {
        self.with_driver(Driver::reject_peer)?;
        let mut v = lock(&self.view);
        v.code = None;
        v.peer_name = None;
        if v.phase == Some(Phase::Verify) && !self.address.is_empty() {
            v.phase = Some(Phase::Listening);
        }
        Ok(())
    }

    /// Host: takes connections again after [`NetEvent::HostPaused`].
    pub fn reopen(&self) -> Result<(), NetError> {
        self.with_driver(Driver::reopen)?;
        let mut v = lock(&self.view);
        v.host_paused = false;
        if v.phase == Some(Phase::Verify) || v.phase == Some(Phase::Connecting) {
            v.phase = Some(Phase::Listening);
        }
        Ok(())
    }

    /// The device identity and the peers remembered now (after a confirmation, the new
    /// one too): store it ([`Trust::export`]) and pass it to the next match. After
    /// [`NetMatch::leave`], the peers remembered when the match was left: leaving never
    /// empties the list a caller stores.
    #[must_use]
    pub fn trust(&self) -> Trust {
        let live = lock(&self.driver)
            .as_ref()
            .and_then(|d| d.read_session(|s, _| s.known_peers().clone()).ok());
        let known = live
            .or_else(|| lock(&self.last_known).clone())
            .unwrap_or_default();
        Trust::new(self.identity.clone(), known)
    }

    /// Asks the other player to take back our last move.
    pub fn request_undo(&self) -> Result<(), NetError> {
        self.with_driver(Driver::request_undo)
    }

    /// Answers the other player's undo request.
    pub fn reply_undo(&self, accept: bool) -> Result<(), NetError> {
        self.with_driver(|d| d.reply_undo(accept))?;
        lock(&self.view).undo_request = None;
        Ok(())
    }

    /// Offers a draw. A draw is offered after one's own move (FIDE 9.1.2.2): on the other
    /// player's turn the offer goes at once; on this player's turn it is held and goes
    /// right after its next move ([`NetState::draw_offer_held`]). An offer on the other
    /// player's own turn never reaches this player's prompt. A held offer sets the notice
    /// [`DRAW_OFFER_HELD`], so both shells say it without a text of their own.
    pub fn offer_draw(&self) -> Result<(), NetError> {
        self.with_driver(Driver::offer_draw)?;
        if self.snapshot().is_some_and(|s| s.draw_offer_held) {
            lock(&self.view).notice = Some(DRAW_OFFER_HELD.to_owned());
        }
        Ok(())
    }

    /// Answers the other player's draw offer.
    pub fn reply_draw(&self, accept: bool) -> Result<(), NetError> {
        self.with_driver(|d| d.reply_draw(accept))?;
        lock(&self.view).draw_offered = false;
        Ok(())
    }

    /// Claims a draw the rules allow (chess: threefold repetition, fifty moves).
    pub fn claim_draw(&self) -> Result<(), NetError> {
        self.with_driver(Driver::claim_draw)
    }

    /// Resigns the game.
    pub fn resign(&self) -> Result<(), NetError> {
        self.with_driver(Driver::resign)
    }

    /// Clears the selection and a pending promotion choice.
    pub fn clear_selection(&self) {
        lock(&self.view).board.clear_selection();
    }

    /// Turns the board around.
    pub fn flip(&self) {
        let mut v = lock(&self.view);
        let f = v.board.flipped();
        v.board.set_flipped(!f);
    }

    /// The notice was shown.
    pub fn clear_notice(&self) {
        lock(&self.view).notice = None;
    }

    /// The changed-key warning was read and closed.
    pub fn clear_key_warning(&self) {
        lock(&self.view).key_warning = None;
    }

    /// The number of unacknowledged messages (a front end that leaves right after the
    /// last move waits until it is 0 so the peer surely got it).
    #[must_use]
    pub fn unacked(&self) -> usize {
        lock(&self.driver)
            .as_ref()
            .and_then(|d| d.read_session(|s, _| s.unacked()).ok())
            .unwrap_or(0)
    }

    /// True once the match is over for good.
    #[must_use]
    pub fn is_closed(&self) -> bool {
        lock(&self.view).phase == Some(Phase::Closed)
    }

    /// Resigns the game or the Lines race in progress, if one is (true if it did): what
    /// leaving does first ([`NetMatch::leave`]). A game over, a proposal still open or no
    /// game at all: nothing is done.
    pub fn resign_in_progress(&self) -> bool {
        // The phase alone (not the whole state), the view's lock released before resigning.
        let playing = lock(&self.view).phase == Some(Phase::Playing);
        playing && (self.resign().is_ok() || self.race_resign().is_ok())
    }

    /// Leaves the match (telling the other device) and stops its threads; returns at once
    /// (a UI thread may call it, and dropping the match calls it). A game or race in
    /// progress is resigned first ([`NetMatch::resign_in_progress`]), so the other player
    /// gets a result — a win by resignation — and not only "the other player left". A race
    /// whose board is final here (full, or its time up) can no longer be resigned, but
    /// leaving it still forfeits it: the other device ends the race as our resignation
    /// when our goodbye arrives ([`Race::on_peer_gone`](banco_protocol::race::Race::on_peer_gone)).
    ///
    /// The match is left for the caller when this returns: later calls are refused as
    /// closed and the observer has heard (or is about to hear) `Closed`. But while the link
    /// is up, the resignation and what was queued before it (a burst of race moves may
    /// wait behind the stream's window) are still delivered in the background: a thread of
    /// its own (`banco-match-leave`) keeps the link until the other device acknowledged
    /// them, at most [`LEAVE_DELIVERY`], then says goodbye; a host's listening port is
    /// released then. With the link down the resignation cannot be delivered: the other
    /// device sees the link lost. With nothing to deliver the match is closed before this
    /// returns. A process that exits right after leaving cuts the delivery short (wait for
    /// [`NetMatch::unacked`] to reach 0 first, as the command line does).
    pub fn leave(&self) {
        let resigned = self.resign_in_progress();
        let driver = lock(&self.driver).take();
        let hosting = lock(&self.hosting).take();
        if let Some(d) = &driver {
            if let Ok(Some(snap)) = d.snapshot() {
                *lock(&self.last) = Some(snap);
            }
            if let Ok(known) = d.read_session(|s, _| s.known_peers().clone()) {
                *lock(&self.last_known) = Some(known);
            }
            let _ = self.events.send(Item::Own(NetEvent::Closed {
                reason: "closed by this player".to_owned(),
            }));
        }
        let _ = self.events.send(Item::Quit);
        let delivery = *lock(&self.leave_delivery);
        leave::finish(driver, hosting, resigned, delivery);
    }

    /// Sets how long a match left with a resignation to deliver keeps its link up, in the
    /// background, for the other device to acknowledge it ([`LEAVE_DELIVERY`] unless set):
    /// longer for a link known to be slow, zero to say goodbye at once. [`NetMatch::leave`]
    /// never waits for it.
    ///
    /// ```
    /// # fn f(m: &banco_app::network::NetMatch) {
    /// m.set_leave_delivery(std::time::Duration::from_secs(10));
    /// # }
    /// ```
    pub fn set_leave_delivery(&self, limit: Duration) {
        *lock(&self.leave_delivery) = limit;
    }
}

impl Drop for NetMatch {
    fn drop(&mut self) {
        self.leave();
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_long_name_is_cut_not_refused_and_an_empty_one_is_refused() {
        // 22 Chinese characters are 66 bytes: the settings accept them, and so does a match.
        let long = "漢".repeat(22);
        let (s, _) = session(&long, &[], None).unwrap();
        assert!(
            s.name().len() <= 64 && s.name().starts_with("漢漢"),
            "{}",
            s.name()
        );
        let (s, _) = session(&"🎲".repeat(40), &[], None).unwrap();
        assert!(s.name().len() <= 64);
        assert!(matches!(session("   ", &[], None), Err(NetError::BadName)));
        // Nothing printable is nothing: refused, not sent as "unnamed".
        assert!(matches!(
            session("\u{200b}\u{7}", &[], None),
            Err(NetError::BadName)
        ));
        let (s, _) = session("  An \u{202e} Binh ", &[], None).unwrap();
        assert_eq!(s.name(), "An Binh");
    }
}
