//! [`Match`]: a networked game of any kind with another device over TCP (host or join),
//! with the 6-digit pairing code, proposals naming the game, undo requests, draw offers and
//! claims, resignation; [`MatchListener`] hears every event and [`Match::state`] gives the
//! ready-to-draw screen. Everything is banco-app's `NetMatch`: the board is read from the
//! session's own game (no second copy), every rule lives in Rust.
//!
//! Threads: the match runs on banco-net's driver; events reach the listener on a Rust
//! thread of the match (`banco-match-events`), so a listener may call back into the match.

use crate::clock::ClockFaces;
use crate::error::{BancoError, guard, notify};
use crate::game::{Game, check_square};
pub use crate::net_event::MatchEvent;
use crate::race::{RaceSettings, RaceState};
use crate::types::{
    BoardView, Color, DrawReason, GameKind, Move, Outcome, PieceKind, PlayedMove, Rules, TapResult,
};
use banco_app::any::{AnyGame, AnyRules};
use banco_app::network::{
    self as an, HostOptions, NetError, NetEvent, NetMatch, NetObserver, Trust,
};
use banco_game::MatchGame as _;
use std::net::SocketAddr;
use std::sync::Arc;

impl From<NetError> for BancoError {
    fn from(e: NetError) -> Self {
        match e {
            NetError::BadName | NetError::BadAddress(_) | NetError::Proposal(_) => {
                BancoError::InvalidArgument(e.to_string())
            }
            NetError::Network(m) => BancoError::Network(m),
            NetError::Move(m) => m.into(),
            NetError::Race(r) => crate::race::race_refusal(r),
            NetError::Entropy(m) => BancoError::Internal(m),
            // As `VsComputer` refuses a move in the computer's turn.
            NetError::NotYourTurn => BancoError::NotAvailable(e.to_string()),
            NetError::NoGame
            | NetError::RaceOn
            | NetError::RaceOver
            | NetError::CodeChanged
            | NetError::KeyChanged
            | NetError::ProposalChanged
            | NetError::Refused(_)
            | NetError::Closed => BancoError::Match(e.to_string()),
        }
    }
}

/// A game to propose (or proposed): the game, the proposer's colour, rules and start.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct MatchOffer {
    /// The game.
    pub game: GameKind,
    /// The colour of the side it describes (ours when proposing; ours-to-be in a proposal
    /// received).
    pub your_color: Color,
    /// The rules; `null`/`nil` for the game's usual rules.
    pub rules: Option<Rules>,
    /// A set-up start position; `null`/`nil` for the usual start.
    pub start_fen: Option<String>,
    /// The clock; `null`/`nil` for an untimed game. Shown before accepting a proposal; a
    /// base time under 10 s is refused.
    #[uniffi(default)]
    pub clock: Option<MatchClock>,
    /// For a Lines race: its start balls, time limit and preview (show them before
    /// accepting); `null`/`nil` for a board game. A Lines offer, proposed or given to
    /// [`Match::host`], is a race ([`Match::propose_race`]): this one, or without it the
    /// default race (5 balls, 300 s, no preview). A Lines offer has no rules, start
    /// position or clock, and `race` goes with Lines only (`InvalidArgument` otherwise).
    #[uniffi(default)]
    pub race: Option<RaceSettings>,
}

/// A chess clock: base time and an increment per move (Fischer), in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct MatchClock {
    /// Starting time of each side.
    pub base_ms: u32,
    /// Time added after each move.
    pub increment_ms: u32,
}

impl From<an::ClockSpec> for MatchClock {
    fn from(c: an::ClockSpec) -> Self {
        MatchClock {
            base_ms: c.base_ms,
            increment_ms: c.increment_ms,
        }
    }
}

impl From<MatchClock> for an::ClockSpec {
    fn from(c: MatchClock) -> Self {
        an::ClockSpec {
            base_ms: c.base_ms,
            increment_ms: c.increment_ms,
        }
    }
}

pub(crate) fn rules_index(offer: &MatchOffer) -> Result<u8, BancoError> {
    let Some(r) = offer.rules else { return Ok(0) };
    let rules = AnyRules::try_from(r)?;
    if rules.kind() != offer.game.into() {
        return Err(BancoError::InvalidArgument(format!(
            "those are rules of {}, not of {}",
            rules.kind(),
            banco_game::GameKind::from(offer.game)
        )));
    }
    rules.index().ok_or_else(|| {
        BancoError::InvalidArgument(
            "only the preset rules can be played over the network".to_owned(),
        )
    })
}

/// Where a match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum MatchPhase {
    /// Connecting (guest) or setting up the link.
    Connecting,
    /// Host: listening, waiting for a guest.
    Listening,
    /// Both devices show the code: ask the player to compare and confirm.
    Verify,
    /// Code confirmed here; waiting for the other side.
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

impl From<an::Phase> for MatchPhase {
    fn from(p: an::Phase) -> Self {
        match p {
            an::Phase::Connecting => MatchPhase::Connecting,
            an::Phase::Listening => MatchPhase::Listening,
            an::Phase::Verify => MatchPhase::Verify,
            an::Phase::Waiting => MatchPhase::Waiting,
            an::Phase::Proposed => MatchPhase::Proposed,
            an::Phase::Playing => MatchPhase::Playing,
            an::Phase::Over => MatchPhase::Over,
            an::Phase::Closed => MatchPhase::Closed,
        }
    }
}

pub(crate) fn offer_of(p: &an::ProposalView) -> MatchOffer {
    MatchOffer {
        game: p.game.into(),
        your_color: p.your_color.into(),
        rules: AnyGame::rules(p.game, p.rules).map(Rules::from),
        start_fen: p.start_fen.clone(),
        clock: p.clock.map(MatchClock::from),
        race: p.race.map(RaceSettings::from),
    }
}

/// Everything a screen shows of a networked match.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct MatchState {
    /// Where the match stands.
    pub phase: MatchPhase,
    /// A game (or a race) may be proposed now, by either side: paired with none on or
    /// proposed, or after a game or race ended — show the "propose" control.
    pub can_propose: bool,
    /// Where the host listens (`address:port`); empty for a guest. A host listening on
    /// every interface shows `0.0.0.0:7368` here, which nobody can dial: show `reachable`.
    pub address: String,
    /// The addresses a guest can type to reach this host (join by address), best first:
    /// where it listens, or when it listens on every interface (`0.0.0.0:7368`) the
    /// device's LAN addresses with the port — IPv4 first, no loopback unless there is
    /// nothing else, no IPv6 link-local (its scope is the guest's). Show the first one.
    /// Empty for a guest, a host over Bluetooth only, or once the match is left.
    pub reachable: Vec<String>,
    /// The six digits to compare, once the link is up.
    pub code: Option<String>,
    /// The other player's name.
    pub peer_name: Option<String>,
    /// The games the other player offers.
    pub peer_games: Vec<GameKind>,
    /// The games this side offers.
    pub offers: Vec<GameKind>,
    /// A proposal to answer (`your_color` is the colour this side would play).
    pub proposal: Option<MatchOffer>,
    /// The number of `proposal` (set with it): the accept button calls
    /// `acceptOffer(proposalId)`, which accepts this proposal and no other.
    pub proposal_id: Option<u64>,
    /// The game being (or last) played.
    pub kind: Option<GameKind>,
    /// This side's colour in it.
    pub your_color: Option<Color>,
    /// The board, ready to draw, once a game started.
    pub board: Option<BoardView>,
    /// The side to move.
    pub side_to_move: Option<Color>,
    /// It is this player's turn (and the link is up).
    pub your_turn: bool,
    /// The side to move is in check.
    pub in_check: bool,
    /// Shown over the board while the link is down.
    pub banner: Option<String>,
    /// The other player asks to take back to this ply.
    pub undo_request: Option<u32>,
    /// The other player offers a draw.
    pub draw_offered: bool,
    /// This player offered a draw on its own turn: it goes with its next move (FIDE
    /// 9.1.2.2) — show "your draw offer goes with your next move".
    pub draw_offer_held: bool,
    /// A draw this player may claim now (chess).
    pub claimable_draw: Option<DrawReason>,
    /// A one-off notice.
    pub notice: Option<String>,
    /// A remembered player came with a different key (a reinstall, or someone posing as
    /// them), in Rust's words: show it in a dialog the player must close, then call
    /// `clearKeyWarning`; not a passing notice.
    pub key_warning: Option<String>,
    /// Host: too many devices showed a code nobody confirmed and no connection is taken
    /// now: ask the player, then call `reopen` (listen again) or `leave`.
    pub host_paused: bool,
    /// How the game ended.
    pub outcome: Option<Outcome>,
    /// The end from this player's side, of a board game or a Lines race.
    pub result: Option<String>,
    /// Why the match closed.
    pub closed_reason: Option<String>,
    /// The moves so far in the game's main notation.
    pub moves: Vec<String>,
    /// The same moves as the move list shows them, numbered from the position; empty
    /// before a game.
    pub move_list: Vec<String>,
    /// The last move.
    pub last_move: Option<PlayedMove>,
    /// Remaining milliseconds of `[first, second]` player in timed games.
    pub clocks: Option<Vec<u64>>,
    /// Both clocks ready to show from this player's side, in timed games; read the state
    /// again after `next_change_ms`.
    pub clock_faces: Option<ClockFaces>,
    /// The clock of the proposal to answer, for the accept prompt (`"5:00 + 3s"`,
    /// `"untimed"`); `null`/`nil` without a proposal.
    pub offered_clock: Option<String>,
    /// The options of the Lines race proposed, for the accept prompt (`"5 balls, 300 s,
    /// preview"`); `null`/`nil` without a proposal or for a board game.
    pub offered_race: Option<String>,
    /// The proposal to answer described for the accept prompt, a line each (the same words
    /// on every screen; the title, who proposes which game, is the screen's): a race's
    /// options (`"Race: 5 balls, 300 s, preview"`), or the colour this side would play (and
    /// that it moves first), the rules preset, a set-up start with its FEN and the clock
    /// (`"You play Black\nRules: Casual (only perpetual check loses)\nFrom a set-up
    /// position: FEN\nClock: 5:00 + 3s"`); `null`/`nil` without a proposal.
    pub offered_terms: Option<String>,
    /// The set-up start position of the proposal to answer, ready to draw in the accept
    /// dialog from the side this player would play (a jieqi position with its pools), so
    /// that the player sees the position before accepting it (its FEN is
    /// `proposal.startFen`, and `offeredTerms` names it too); `null`/`nil` without a
    /// proposal or for the usual start.
    pub offered_board: Option<BoardView>,
    /// The position as FEN.
    pub fen: Option<String>,
    /// The Lines race (running or over), once one was accepted: our board, the
    /// opponent's score and ball count, the time left and the result (the same as
    /// [`Match::race_state`]).
    pub race: Option<RaceState>,
}

impl From<&an::NetState> for MatchState {
    fn from(s: &an::NetState) -> Self {
        let kinds = |v: &[banco_game::GameKind]| v.iter().map(|&k| k.into()).collect();
        MatchState {
            phase: s.phase.into(),
            can_propose: s.can_propose,
            address: s.address.clone(),
            reachable: s.reachable.clone(),
            code: s.code.clone(),
            peer_name: s.peer_name.clone(),
            peer_games: kinds(&s.peer_games),
            offers: kinds(&s.offers),
            proposal: s.proposal.as_ref().map(offer_of),
            proposal_id: s.proposal.as_ref().map(|p| p.id),
            kind: s.kind.map(Into::into),
            your_color: s.your_color.map(Into::into),
            board: s.board.as_ref().map(BoardView::from),
            side_to_move: s.side_to_move.map(Into::into),
            your_turn: s.your_turn,
            in_check: s.in_check,
            banner: s.banner.clone(),
            undo_request: s.undo_request,
            draw_offered: s.draw_offered,
            draw_offer_held: s.draw_offer_held,
            claimable_draw: s.claimable_draw.map(Into::into),
            notice: s.notice.clone(),
            key_warning: s.key_warning.clone(),
            host_paused: s.host_paused,
            outcome: s.outcome.map(Into::into),
            result: s.result.clone(),
            closed_reason: s.closed_reason.clone(),
            moves: s.moves.clone(),
            move_list: s.move_list.clone(),
            last_move: s.last_move.as_ref().map(PlayedMove::from),
            clocks: s.clocks.map(|c| c.to_vec()),
            clock_faces: s.clock_faces.as_ref().map(ClockFaces::from),
            offered_clock: s.offered_clock.clone(),
            offered_race: s.offered_race.clone(),
            offered_terms: s.offered_terms.clone(),
            offered_board: s.offered_board.as_ref().map(BoardView::from),
            fen: s.fen.clone(),
            race: s.race.clone().map(RaceState::from),
        }
    }
}

/// Hears every [`MatchEvent`] of a [`Match`], on a Rust-owned thread: a UI shell hops to
/// its UI thread. A listener may call the match back.
#[uniffi::export(with_foreign)]
pub trait MatchListener: Send + Sync {
    /// Something happened.
    fn on_event(&self, event: MatchEvent);
}

pub(crate) struct Relay(pub(crate) Arc<dyn MatchListener>);

impl NetObserver for Relay {
    fn event(&self, event: NetEvent) {
        let e = MatchEvent::from(event);
        notify(|| self.0.on_event(e));
    }
}

/// A networked game with another device. Create it with [`Match::host`] or
/// [`Match::join`]; every call is safe from any thread.
#[derive(uniffi::Object)]
pub struct Match {
    pub(crate) inner: NetMatch,
}

impl Match {
    /// The app's match, for the race methods (module `race`).
    pub(crate) fn net(&self) -> &NetMatch {
        &self.inner
    }
}

pub(crate) fn trust_of(bytes: Option<Vec<u8>>) -> Result<Option<Trust>, BancoError> {
    bytes
        .map(|b| Trust::import(&b))
        .transpose()
        .map_err(|e| BancoError::InvalidArgument(e.to_string()))
}

/// A new device identity (from the system's randomness) that remembers nobody yet: store
/// the bytes privately and pass them to [`Match::host`] / [`Match::join`].
#[uniffi::export]
pub fn new_trust() -> Result<Vec<u8>, BancoError> {
    guard(|| {
        Trust::generate()
            .map(|t| t.export())
            .map_err(|e| BancoError::Internal(e.to_string()))
    })
}

/// The fingerprint of the identity in stored `trust` bytes (to show "this device is …").
#[uniffi::export]
pub fn trust_fingerprint(trust: Vec<u8>) -> Result<String, BancoError> {
    guard(|| {
        Ok(trust_of(Some(trust))?
            .map(|t| t.public_key().fingerprint())
            .unwrap_or_default())
    })
}

/// A player's name as every match and lobby sends it — control, bidirectional and
/// invisible characters removed, white space collapsed and trimmed, cut to 32 characters
/// (the rule of [`Match::host`], [`Match::join`] and [`crate::Lobby::advertise`]) — for a
/// settings screen to keep and show; `null`/`nil` when nothing printable is left (keep the
/// previous name then).
#[uniffi::export]
pub fn player_display_name(raw: String) -> Option<String> {
    banco_app::network::player_name(&raw).ok()
}

pub(crate) fn kinds(v: &[GameKind]) -> Vec<banco_game::GameKind> {
    v.iter().map(|&k| k.into()).collect()
}

/// The race an offer makes: `None` for a board game. A Lines offer is always a race — its
/// `race`, or the default race (5 balls, 300 s, no preview) when it has none, as
/// [`Match::host`] and [`Match::propose`] both read it — and has no rules, start position
/// or clock of its own; `race` on another game is refused.
fn race_of(offer: &MatchOffer) -> Result<Option<RaceSettings>, BancoError> {
    match offer {
        MatchOffer {
            game: GameKind::Lines,
            rules: None,
            start_fen: None,
            clock: None,
            race,
            ..
        } => Ok(Some(race.unwrap_or_else(|| {
            banco_protocol::race::RaceOptions::default().into()
        }))),
        MatchOffer {
            game: GameKind::Lines,
            ..
        } => Err(BancoError::InvalidArgument(
            "a Lines offer is a race: leave its rules, start position and clock unset, and set \
             `race` (or call proposeRace)"
                .to_owned(),
        )),
        MatchOffer { race: None, .. } => Ok(None),
        MatchOffer { game, .. } => Err(BancoError::InvalidArgument(format!(
            "a race is a Lines game, not {}: set `game` to Lines, or leave `race` unset",
            banco_game::GameKind::from(*game)
        ))),
    }
}

/// The options of [`Match::host`] and [`Match::host_nearby`].
pub(crate) fn host_options(
    player_name: &str,
    listen_address: &str,
    advertise: bool,
    offers: &[GameKind],
    proposal: Option<&MatchOffer>,
    trust: Option<Vec<u8>>,
) -> Result<HostOptions, BancoError> {
    let listen: SocketAddr = listen_address.trim().parse().map_err(|_| {
        BancoError::InvalidArgument(format!(
            "`{listen_address}` is not an address to listen on, like 0.0.0.0:7368"
        ))
    })?;
    let mut options = HostOptions::new(player_name, listen, kinds(offers));
    options.advertise = advertise;
    options.trust = trust_of(trust)?;
    match proposal {
        Some(p) => proposing(options, p),
        None => Ok(options),
    }
}

/// `options` proposing `offer` once a guest confirmed the code: a board game with its
/// rules, start and clock, or a Lines offer's race with its settings — for every way of
/// hosting ([`Match::host`], [`Match::host_nearby`], [`Match::host_ble`]).
pub(crate) fn proposing(
    mut options: HostOptions,
    offer: &MatchOffer,
) -> Result<HostOptions, BancoError> {
    if let Some(race) = race_of(offer)? {
        return Ok(options.racing(race.into(), offer.your_color.into()));
    }
    options.rules = rules_index(offer)?;
    options.propose = Some((offer.game.into(), offer.your_color.into()));
    options.start_fen.clone_from(&offer.start_fen);
    options.clock = offer.clock.map(Into::into);
    Ok(options)
}

#[uniffi::export]
impl Match {
    /// Hosts a match: listens on `listen_address` (`0.0.0.0:7368`; port 0 picks a free one),
    /// advertises it on the LAN if `advertise` with the games `offers` (empty: every game),
    /// and, with `proposal`, proposes that game once a guest has confirmed the code.
    /// `trust` is the device identity and remembered players the app stored (from
    /// [`Match::export_trust`] or [`new_trust`]); without it the match uses a throwaway
    /// identity and nobody is remembered.
    ///
    /// `player_name` (here, in every `join` and in [`crate::Lobby::advertise`]: one rule) is
    /// cleaned of control and invisible characters and cut to 32 characters; a name with
    /// nothing left (`""`, spaces, invisible characters) is refused with `InvalidArgument`.
    #[uniffi::constructor(default(trust = None))]
    pub fn host(
        player_name: String,
        listen_address: String,
        advertise: bool,
        offers: Vec<GameKind>,
        proposal: Option<MatchOffer>,
        listener: Arc<dyn MatchListener>,
        trust: Option<Vec<u8>>,
    ) -> Result<Arc<Match>, BancoError> {
        guard(|| {
            let options = host_options(
                &player_name,
                &listen_address,
                advertise,
                &offers,
                proposal.as_ref(),
                trust,
            )?;
            let inner = NetMatch::host(options, Arc::new(Relay(listener)))?;
            Ok(Arc::new(Match { inner }))
        })
    }

    /// Joins the match hosted at `address` (`192.168.1.20:7368`, or a name such as
    /// `phone.local:7368`), with the stored `trust` (see [`Match::host`]). Returns at once,
    /// whatever the address: it never waits for the network or a name lookup (a name is
    /// looked up on a Rust thread, again at every attempt, so a host whose address changed
    /// is found at its new one). A name that cannot be looked up comes back as the
    /// `Reconnecting` event's reason (`cannot find phone.local: …`, the system's words),
    /// and after the first attempts fail, `Closed`. Only an `address` that is no `host:port`
    /// at all is refused here (`InvalidArgument`).
    #[uniffi::constructor(default(trust = None))]
    pub fn join(
        player_name: String,
        address: String,
        listener: Arc<dyn MatchListener>,
        trust: Option<Vec<u8>>,
    ) -> Result<Arc<Match>, BancoError> {
        guard(|| {
            let trust = trust_of(trust)?;
            let relay = Arc::new(Relay(listener));
            let inner = NetMatch::join(&player_name, &address, &[], trust, relay)?;
            Ok(Arc::new(Match { inner }))
        })
    }

    /// Joins a host found by a [`crate::Lobby`], with the stored `trust` (see
    /// [`Match::host`]). The peer's `fingerprint` is checked against the key the host
    /// proves in the handshake: a LAN record is unauthenticated (anyone on the network can
    /// copy a fingerprint into a record of their own), so a device with another key is
    /// refused before any code is shown, and the match ends with `Closed` saying that it
    /// is not the player listed. An empty fingerprint is not checked.
    #[uniffi::constructor(default(trust = None))]
    pub fn join_peer(
        player_name: String,
        peer: crate::lobby::LobbyPeer,
        listener: Arc<dyn MatchListener>,
        trust: Option<Vec<u8>>,
    ) -> Result<Arc<Match>, BancoError> {
        guard(|| {
            let info = peer.to_info()?;
            let trust = trust_of(trust)?;
            let relay = Arc::new(Relay(listener));
            let inner = NetMatch::join_peer(&player_name, &info, &[], trust, relay)?;
            Ok(Arc::new(Match { inner }))
        })
    }

    /// The device identity and the players remembered now, to store privately (it holds
    /// the secret key) and pass to the next match: after `PeerVerified` it includes the
    /// player just confirmed, so the next match with them skips the code.
    pub fn export_trust(&self) -> Result<Vec<u8>, BancoError> {
        guard(|| Ok(self.inner.trust().export()))
    }

    /// Host: takes connections again after `HostPaused`.
    pub fn reopen(&self) -> Result<(), BancoError> {
        guard(|| Ok(self.inner.reopen()?))
    }

    /// Where the host listens (`address:port`); empty for a guest.
    pub fn address(&self) -> Result<String, BancoError> {
        guard(|| Ok(self.inner.state().address))
    }

    /// The six-digit code to compare with the other device, once the connection is up.
    pub fn code(&self) -> Result<Option<String>, BancoError> {
        guard(|| Ok(self.inner.state().code))
    }

    /// Everything to draw now.
    pub fn state(&self) -> Result<MatchState, BancoError> {
        guard(|| Ok(MatchState::from(&self.inner.state())))
    }

    /// The player says both devices show `code`, the six digits they were shown. Refused
    /// (a `Match` error) when another device connected meanwhile and a newer code is to be
    /// compared: a confirmation never applies to a code the player did not see. The player
    /// is remembered (see [`Match::export_trust`]).
    pub fn confirm_code(&self, code: String) -> Result<(), BancoError> {
        guard(|| Ok(self.inner.confirm_code(&code)?))
    }

    /// The player says the codes differ: a host turns that device away and waits for
    /// another; a guest leaves the match.
    pub fn reject_code(&self) -> Result<(), BancoError> {
        guard(|| Ok(self.inner.reject_code()?))
    }

    /// Proposes the game just played again: a board game with the colours swapped (same
    /// game, rules, start and clock), a Lines race anew with the same options (a new seed
    /// once accepted): the "another game" and "race again" buttons. Refused before any game.
    pub fn propose_rematch(&self) -> Result<(), BancoError> {
        guard(|| Ok(self.inner.propose_rematch()?))
    }

    /// Proposes a game (either side may, once the code is confirmed).
    pub fn propose(&self, offer: MatchOffer) -> Result<(), BancoError> {
        if let Some(race) = race_of(&offer)? {
            return self.propose_race(race, offer.your_color);
        }
        guard(|| {
            let rules = rules_index(&offer)?;
            Ok(self.inner.propose_timed(
                offer.game.into(),
                offer.your_color.into(),
                rules,
                offer.start_fen,
                offer.clock.map(Into::into),
            )?)
        })
    }

    /// Accepts whichever proposal of the other player's is pending now (the latest it
    /// sent, which may not be the one on screen yet): prefer [`Match::accept_offer`].
    pub fn accept_proposal(&self) -> Result<(), BancoError> {
        guard(|| Ok(self.inner.accept_proposal()?))
    }

    /// Accepts the other player's proposal number `id` (`MatchState.proposalId`, the
    /// `Proposed` event's `id`), the one the player saw, and no other: when the other
    /// player replaced it since (another game, colour, clock or start), refused with a
    /// `Match` error ("the other player changed the proposal: look again") and nothing
    /// is accepted; show the new proposal and ask again.
    pub fn accept_offer(&self, id: u64) -> Result<(), BancoError> {
        guard(|| Ok(self.inner.accept_offer(id)?))
    }

    /// Declines the other player's proposal.
    pub fn decline_proposal(&self) -> Result<(), BancoError> {
        guard(|| Ok(self.inner.decline_proposal()?))
    }

    /// A tap on a screen cell of the board (column from the left, row from the top).
    pub fn tap(&self, column: u8, row: u8) -> Result<TapResult, BancoError> {
        guard(|| {
            let before = self.inner_game()?;
            let tap = self.inner.tap(column, row)?;
            Ok(TapResult::of(&tap, &before))
        })
    }

    /// The promotion piece, after a tap answered `ChoosePromotion`.
    pub fn choose_promotion(&self, piece: PieceKind) -> Result<TapResult, BancoError> {
        guard(|| {
            let before = self.inner_game()?;
            let tap = self.inner.choose_promotion(piece.into())?;
            Ok(TapResult::of(&tap, &before))
        })
    }

    /// Plays a move (checked here first, then by both sides' rules); a square index off
    /// the board is refused with `BadSquare`, a move in the other player's turn with
    /// `NotAvailable` ("it is not your turn", as `VsComputer::play` in the computer's).
    pub fn play(&self, mv: Move) -> Result<PlayedMove, BancoError> {
        guard(|| {
            if let Some(g) = self.inner.game() {
                check_square(&g, mv.from)?;
                check_square(&g, mv.to)?;
            }
            let info = self
                .inner
                .play_squares(mv.from, mv.to, mv.promotion.map(Into::into))?;
            Ok(PlayedMove::from(&info))
        })
    }

    /// Plays a move written in any of the game's notations; in the other player's turn
    /// refused with `NotAvailable` ("it is not your turn"), before the text is read.
    pub fn play_text(&self, text: String) -> Result<PlayedMove, BancoError> {
        guard(|| Ok(PlayedMove::from(&self.inner.play_text(&text)?)))
    }

    /// Asks the other player to take back our last move.
    pub fn request_undo(&self) -> Result<(), BancoError> {
        guard(|| Ok(self.inner.request_undo()?))
    }

    /// Answers the other player's undo request.
    pub fn reply_undo(&self, accept: bool) -> Result<(), BancoError> {
        guard(|| Ok(self.inner.reply_undo(accept)?))
    }

    /// Offers a draw.
    pub fn offer_draw(&self) -> Result<(), BancoError> {
        guard(|| Ok(self.inner.offer_draw()?))
    }

    /// Answers the other player's draw offer.
    pub fn reply_draw(&self, accept: bool) -> Result<(), BancoError> {
        guard(|| Ok(self.inner.reply_draw(accept)?))
    }

    /// Claims a draw the rules allow (chess: threefold repetition, fifty moves).
    pub fn claim_draw(&self) -> Result<(), BancoError> {
        guard(|| Ok(self.inner.claim_draw()?))
    }

    /// Resigns the game.
    pub fn resign(&self) -> Result<(), BancoError> {
        guard(|| Ok(self.inner.resign()?))
    }

    /// Clears the selection (and a pending promotion choice the player dismissed).
    pub fn clear_selection(&self) -> Result<(), BancoError> {
        guard(|| {
            self.inner.clear_selection();
            Ok(())
        })
    }

    /// Turns the board around.
    pub fn flip(&self) -> Result<(), BancoError> {
        guard(|| {
            self.inner.flip();
            Ok(())
        })
    }

    /// The notice in the state was shown.
    pub fn clear_notice(&self) -> Result<(), BancoError> {
        guard(|| {
            self.inner.clear_notice();
            Ok(())
        })
    }

    /// The state's changed-key warning was read and closed.
    pub fn clear_key_warning(&self) -> Result<(), BancoError> {
        guard(|| {
            self.inner.clear_key_warning();
            Ok(())
        })
    }

    /// The colour this side plays, once a game started.
    pub fn your_color(&self) -> Result<Option<Color>, BancoError> {
        guard(|| Ok(self.inner.state().your_color.map(Into::into)))
    }

    /// A copy of the game as the session has it (for analysis, or a saved record), with
    /// its rules and how it ended: a resignation, a loss on time, an agreed draw or a
    /// forfeit — endings the moves do not show — are kept, so the copy's `status()`, its
    /// `save()` and its PGN's `Result` say them.
    pub fn game(&self) -> Result<Arc<Game>, BancoError> {
        guard(|| {
            // Refused before a board game (or during a race) as every board call is.
            self.inner.board_game()?;
            let saved = self.inner.saved().ok_or(NetError::NoGame)?;
            Game::from_saved(&saved)
        })
    }

    /// Leaves the match (telling the other device) and stops its threads. A game or Lines
    /// race in progress is resigned first: the other player wins by resignation.
    ///
    /// Returns at once, so it may be called on the UI thread (and releasing the last
    /// reference to the match leaves it the same way): the match is left for the app — later
    /// moves, proposals and answers are refused (`state()` still shows the last position) —
    /// while Rust delivers the resignation
    /// in the background, keeping the link until the other device acknowledged it (at most
    /// 3 s; a host's listening port is free again after that). Calling it twice is harmless.
    pub fn leave(&self) -> Result<(), BancoError> {
        guard(|| {
            self.inner.leave();
            Ok(())
        })
    }
}

impl Match {
    fn inner_game(&self) -> Result<AnyGame, BancoError> {
        Ok(self.inner.board_game()?)
    }
}
