//! What a [`Session`](crate::Session) reports ([`Event`]), what its
//! [`Channel`](crate::Channel) reports ([`ChannelEvent`]), and the errors of their calls.

use crate::crypto::{CryptoError, PublicKey};
use crate::message::{
    AbortReason, DeclineReason, ErrorCode, MAX_PARAMS_LEN, MIN_CLOCK_BASE_MS, WireError,
};
use crate::sas::Sas;
use crate::session::config::MatchSpec;
use banco_game::{Color, GameKind, Outcome};

/// Something the application should know about, from [`Session::poll_event`](crate::Session::poll_event).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event<M> {
    /// A link finished its handshake and resume exchange; `resumed` is false on the first
    /// link of the session.
    LinkUp {
        /// True when this link continues a session after a reconnect.
        resumed: bool,
    },
    /// The link is gone (the driver should make a new one to continue the match).
    LinkDown {
        /// Why.
        reason: LinkDownReason,
    },
    /// Show `code` and ask the player whether the other phone shows the same digits, then
    /// call [`Session::confirm_peer`](crate::Session::confirm_peer) or
    /// [`Session::reject_peer`](crate::Session::reject_peer). Nothing of the game happens
    /// before.
    VerifyPeer {
        /// The six digits.
        code: Sas,
        /// The name the peer announced.
        name: String,
        /// The peer's static key.
        key: PublicKey,
    },
    /// The peer is trusted: confirmed now, or `known` from the remembered peers.
    PeerVerified {
        /// The peer's name.
        name: String,
        /// The peer's static key.
        key: PublicKey,
        /// True when the key was already remembered (no code was shown).
        known: bool,
    },
    /// WARNING: a remembered name came with a different key. Either the other player
    /// reinstalled the app, or someone is impersonating them. The code must be compared.
    PeerKeyChanged {
        /// The name.
        name: String,
        /// The remembered key.
        old: PublicKey,
        /// The key presented now.
        new: PublicKey,
    },
    /// The peer proposes a game (checked: a game we offer, known rules, a start position
    /// our rules engine accepts); answer with
    /// [`Session::accept_proposal`](crate::Session::accept_proposal) or
    /// [`Session::decline_proposal`](crate::Session::decline_proposal). `spec.peer_params`
    /// holds the proposer's parameters.
    Proposed(MatchSpec),
    /// The peer declined our proposal (or, with [`DeclineReason::CROSSED`], its proposal
    /// crossed ours and stands instead).
    ProposalDeclined {
        /// Why.
        reason: DeclineReason,
    },
    /// A game started (`spec.local_color` is our side; both sides' parameters are in the
    /// spec). Read the position with [`Session::game`](crate::Session::game).
    MatchStarted(MatchSpec),
    /// A move was played, by either side, and validated by our own rules engine.
    MovePlayed {
        /// Ply index of the move (0 for the first move of the game).
        ply: u32,
        /// The move.
        mv: M,
        /// Who played it.
        by: Color,
    },
    /// A chance step (jieqi: the identity of a revealed piece) was settled by the fair draw
    /// ([`crate::fairdraw`]): `outcome` was drawn from both sides' links and applied to the
    /// position like a move, at index `ply` of the move list. Both sides draw the same.
    ChanceDrawn {
        /// Ply index of the outcome in the move list.
        ply: u32,
        /// The outcome, a value of the game's move type.
        outcome: M,
        /// The chance step of the match (1 for the first), the index of the links used.
        step: u32,
    },
    /// The peer asks to take back moves until the position has `to_ply` moves; answer with
    /// [`Session::reply_undo`](crate::Session::reply_undo).
    UndoRequested {
        /// Target ply count.
        to_ply: u32,
    },
    /// The peer declined our undo request.
    UndoDeclined,
    /// The position was set to the one with `to_ply` moves: after an accepted undo, or when
    /// a message ending the game crossed a move on the wire and the game ends on the
    /// sender's position (redraw the board from [`Session::game`](crate::Session::game)).
    Undone {
        /// Ply count after the undo.
        to_ply: u32,
    },
    /// The peer offers a draw; answer with [`Session::reply_draw`](crate::Session::reply_draw).
    DrawOffered,
    /// Our draw offer is no longer standing: the peer declined it, or moved (before our
    /// offer reached it, then it ignores the offer).
    DrawDeclined,
    /// The peer's draw offer is gone (the peer moved, or we accepted its undo, which
    /// leaves it to move): close the prompt.
    DrawOfferWithdrawn,
    /// The game ended. Both sides compute the same outcome at the same ply.
    GameOver {
        /// The result.
        outcome: Outcome,
        /// Ply count of the final position.
        ply: u32,
    },
    /// The peer sent a move our rules engine refuses; it was not applied.
    PeerIllegalMove {
        /// Ply index the move claimed.
        ply: u32,
        /// The wire code of the move.
        code: u16,
        /// Why it was refused.
        reason: IllegalReason,
    },
    /// The peer claimed a draw that our position does not allow (not its turn, another
    /// position, or no draw to claim there); nothing changed and the game goes on.
    FalseDrawClaim {
        /// Ply count the claim named.
        ply: u32,
    },
    /// The peer's position hash after a legal move differs from ours; the move was not
    /// applied.
    Desync {
        /// Ply index of the move.
        ply: u32,
        /// Low 32 bits of our hash after the move.
        local: u32,
        /// The hash the peer sent.
        remote: u32,
    },
    /// The peer refused our latest move(s) (illegal in its position, or a different
    /// position hash) and asked to resynchronise: our position was set back to `to_ply`
    /// moves, where both sides agree; play again (redraw from
    /// [`Session::game`](crate::Session::game)).
    MoveRefused {
        /// Ply count after the set-back.
        to_ply: u32,
    },
    /// The game was abandoned without a result: the two sides could not agree on the
    /// position. Both sides report it; a new game can be proposed.
    MatchAborted {
        /// Why.
        reason: AbortReason,
        /// True when the peer abandoned it (we were told), false when this side did.
        by_peer: bool,
    },
    /// The peer reported an error about one of our messages.
    PeerError {
        /// What went wrong.
        code: ErrorCode,
    },
    /// An incoming frame was dropped. Reported at most a few times in a row (bounded).
    FrameRejected {
        /// Why.
        reason: Rejection,
    },
    /// The session is over; nothing more will happen.
    Closed {
        /// Why.
        reason: CloseReason,
    },
    /// Something happened in the Lines race ([`race`](crate::race)).
    Race(crate::race::RaceEvent),
}

/// What a [`Channel`](crate::Channel) reports: the link and pairing part of [`Event`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChannelEvent {
    /// See [`Event::LinkUp`].
    LinkUp {
        /// True when this link continues a session after a reconnect.
        resumed: bool,
    },
    /// See [`Event::LinkDown`].
    LinkDown {
        /// Why.
        reason: LinkDownReason,
    },
    /// See [`Event::VerifyPeer`].
    VerifyPeer {
        /// The six digits.
        code: Sas,
        /// The name the peer announced.
        name: String,
        /// The peer's static key.
        key: PublicKey,
    },
    /// See [`Event::PeerVerified`].
    PeerVerified {
        /// The peer's name.
        name: String,
        /// The peer's static key.
        key: PublicKey,
        /// True when the key was already remembered.
        known: bool,
    },
    /// See [`Event::PeerKeyChanged`].
    PeerKeyChanged {
        /// The name.
        name: String,
        /// The remembered key.
        old: PublicKey,
        /// The key presented now.
        new: PublicKey,
    },
    /// See [`Event::PeerError`].
    PeerError {
        /// What went wrong.
        code: ErrorCode,
    },
    /// See [`Event::FrameRejected`].
    FrameRejected {
        /// Why.
        reason: Rejection,
    },
    /// See [`Event::Closed`].
    Closed {
        /// Why.
        reason: CloseReason,
    },
}

impl<M> From<ChannelEvent> for Event<M> {
    fn from(e: ChannelEvent) -> Event<M> {
        match e {
            ChannelEvent::LinkUp { resumed } => Event::LinkUp { resumed },
            ChannelEvent::LinkDown { reason } => Event::LinkDown { reason },
            ChannelEvent::VerifyPeer { code, name, key } => Event::VerifyPeer { code, name, key },
            ChannelEvent::PeerVerified { name, key, known } => {
                Event::PeerVerified { name, key, known }
            }
            ChannelEvent::PeerKeyChanged { name, old, new } => {
                Event::PeerKeyChanged { name, old, new }
            }
            ChannelEvent::PeerError { code } => Event::PeerError { code },
            ChannelEvent::FrameRejected { reason } => Event::FrameRejected { reason },
            ChannelEvent::Closed { reason } => Event::Closed { reason },
        }
    }
}

/// Why a link went down.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LinkDownReason {
    /// The handshake or the resume exchange did not complete in time.
    #[error("the connection could not be set up in time")]
    HandshakeTimeout,
    /// Nothing was heard from the peer for too long.
    #[error("the other device stopped answering")]
    PeerSilent,
    /// The driver reported the link closed ([`Session::link_lost`](crate::Session::link_lost)).
    #[error("the connection was closed")]
    Closed,
    /// The peer on this link has a different key than the peer of the session.
    #[error("a different device answered on this link; refusing it")]
    WrongPeer,
    /// The peer speaks another protocol version.
    #[error(
        "the other app speaks protocol version {peer}, this app speaks {ours}; update both apps"
    )]
    Version {
        /// The peer's version.
        peer: u8,
        /// Ours.
        ours: u8,
    },
    /// The peer does not know our session (it restarted); start a new session.
    #[error("the other device does not know this match any more; start a new one")]
    UnknownSession,
    /// This app restarted and lost its match: the peer resumes a session this side never
    /// had (it heard from an earlier run of this app). That match is over; in a Lines race
    /// the peer counts it as this side's resignation.
    #[error(
        "this device restarted and no longer has its match with the other player; start a new one"
    )]
    RestartedHere,
    /// The confirmed peer came back without this match (its app restarted and lost it):
    /// the match cannot go on.
    #[error("the other player's app restarted and no longer has this match; start a new one")]
    PeerRestarted,
    /// The peer broke the protocol on this link.
    #[error("protocol violation: {0}")]
    Violation(&'static str),
    /// The device on this link left before its code was confirmed (its goodbye ends only
    /// its link, not the session).
    #[error("a device left before its code was confirmed")]
    Abandoned,
    /// The player rejected this link's code; the host waits for another device.
    #[error("the code was rejected; waiting for another device")]
    Rejected,
    /// The device that answered has another key than the player this side set out to
    /// reach, as the lobby listed it ([`SessionConfig::expected_peer`]): someone nearby
    /// may be posing as that player. Refused before any code is shown; a guest gives up.
    ///
    /// [`SessionConfig::expected_peer`]: crate::SessionConfig::expected_peer
    #[error(
        "the device that answered is not the player listed (its key is {found}, the listing said {listed}): someone nearby may be posing as them, so it was refused"
    )]
    NotTheListedPlayer {
        /// The fingerprint the listing carried.
        listed: String,
        /// The fingerprint of the key that answered.
        found: String,
    },
}

/// Why a peer's move was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalReason {
    /// No game is running.
    #[error("no game is running")]
    NoGame,
    /// It is not the peer's turn.
    #[error("not the peer's turn")]
    NotTheirTurn,
    /// The code is not a move of this game.
    #[error("not a move of this game")]
    Undecodable,
    /// The move is illegal in our position.
    #[error("illegal in this position")]
    Illegal,
    /// The move was numbered for another ply.
    #[error("numbered for another ply")]
    WrongPly,
    /// The position waits for the outcome of a chance step (a hidden piece's identity),
    /// which only the fair-reveal exchange supplies.
    #[error("the position waits for a chance outcome")]
    AwaitingChance,
}

/// Why an incoming frame was dropped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    /// Decryption refused it (replayed, reordered, truncated, forged).
    #[error(transparent)]
    Crypto(#[from] CryptoError),
    /// The decrypted bytes are not a valid message.
    #[error(transparent)]
    Wire(#[from] WireError),
    /// The frame exceeds the frame size limit.
    #[error("frame of {0} bytes exceeds the 4 KiB limit")]
    Oversized(usize),
    /// The peer sends too many frames; the excess is dropped.
    #[error("too many frames from the peer; dropping")]
    RateLimited,
    /// A frame arrived while no link is set up.
    #[error("no link is set up")]
    NoLink,
}

/// Why the session closed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CloseReason {
    /// We called [`Session::close`](crate::Session::close).
    #[error("closed by this player")]
    Local,
    /// The peer said goodbye.
    #[error("the other player left")]
    PeerLeft,
    /// The player said the codes differ.
    #[error("the codes differ: the connection may be intercepted")]
    CodeMismatch,
    /// The other player (the host) said the codes differ and turned this device away.
    #[error("the other player said the codes differ: the connection may be intercepted")]
    PeerRejectedCode,
    /// The fair draw of a chance step failed (a wrong, replayed or withheld link from the
    /// peer, or a missing commitment); the game was ended first (the peer forfeits, or
    /// loses on time for a withheld link).
    #[error("{0}")]
    UnfairDraw(crate::fairdraw::DrawFault),
}

/// Errors of the calls a local player makes (play, propose, offers…). The state is
/// unchanged when one is returned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The session is closed.
    #[error("the session is closed")]
    Closed,
    /// The peer's code was not confirmed yet.
    #[error("confirm the other player's code first")]
    NotVerified,
    /// There is nothing to confirm.
    #[error("there is no code to confirm")]
    NothingToConfirm,
    /// The code confirmed is not the code to compare any more (a newer connection showed
    /// another one): compare the new code.
    #[error("the code changed (another connection): compare the new code")]
    CodeChanged,
    /// The code confirmed is none that was shown on this channel (mistyped): compare the
    /// six digits again.
    #[error("this is not the code shown: compare the six digits again")]
    NotTheCode,
    /// No game is running.
    #[error("no game is running")]
    NoGame,
    /// A game is running.
    #[error("a game is already running")]
    GameRunning,
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// It is the other player's turn.
    #[error("it is not your turn")]
    NotYourTurn,
    /// The move is illegal here.
    #[error("illegal move")]
    IllegalMove,
    /// Our clock ran out (the session flags and reports the loss).
    #[error("your time ran out")]
    OutOfTime,
    /// A proposal or request of ours is waiting for an answer.
    #[error("waiting for the other player's answer")]
    Pending,
    /// A draw offer or undo request was already made since our last move: one per move
    /// (the other player declined it, or it is still waiting).
    #[error("you already asked once since your last move: play a move first")]
    AskedThisMove,
    /// There is no offer or request to answer.
    #[error("there is nothing to answer")]
    NothingToAnswer,
    /// The other player replaced its proposal since the one the player was shown
    /// ([`Session::accept_shown`](crate::Session::accept_shown)): nothing was accepted.
    #[error("the other player changed the proposal: look again")]
    ProposalChanged,
    /// There is no move of ours to take back.
    #[error("there is no move to take back")]
    NothingToUndo,
    /// The rules allow no draw claim here (or it is not our turn to claim).
    #[error("there is no draw to claim in this position")]
    NoDrawToClaim,
    /// The position waits for the outcome of a chance step; no move can be played yet.
    #[error("the position waits for a hidden piece to be revealed")]
    AwaitingChance,
    /// This side does not offer the game (see `SessionConfig::offers`).
    #[error("{0} is not among the games this side offers")]
    GameNotOffered(GameKind),
    /// The peer does not offer the game (see `PeerInfo::offers`).
    #[error("the other player does not offer {0}")]
    PeerDoesNotOffer(GameKind),
    /// A race with Lines 98's preview proposed to a peer whose app does not know it (no
    /// [`CAP_LINES_PREVIEW`](crate::message::CAP_LINES_PREVIEW) in its greeting).
    #[error(
        "the other player's app does not know Lines 98's preview: it must be updated, or race without the preview"
    )]
    PeerLacksPreview,
    /// The rule-set index is unknown for the game.
    #[error("{game} has no rule set number {index}")]
    UnknownRules {
        /// The game.
        game: GameKind,
        /// The index.
        index: u8,
    },
    /// The start position cannot start a game.
    #[error("bad start position: {0}")]
    BadPosition(String),
    /// The clock's base time is below the minimum.
    #[error("a clock of {0} ms is shorter than the minimum of {MIN_CLOCK_BASE_MS} ms")]
    ClockTooShort(u32),
    /// The game was abandoned without a result.
    #[error("the game was abandoned: {0}")]
    Aborted(AbortReason),
    /// Per-game parameters above the wire limit.
    #[error("game parameters of {0} bytes are longer than the limit of {MAX_PARAMS_LEN}")]
    ParamsTooLong(usize),
    /// Race options the race cannot be played with (a start other than 3 or 5 balls).
    #[error("a race starts with 3 or 5 balls, not {0}")]
    RaceStartBalls(u8),
    /// A race proposed without a time limit: every race has one (a player who stopped
    /// moving could otherwise keep the other from a result for ever).
    #[error("a race needs a time limit (2 minutes to an hour, say)")]
    RaceUntimed,
    /// The request is not supported (a link-level body given to `Channel::send`, or a
    /// missing cryptographic primitive in this build).
    #[error("this is not supported")]
    Unsupported,
    /// Too many messages wait for the peer; try again once it catches up.
    #[error(
        "too many messages are waiting for the other device (is the link down?): try again once they have gone through"
    )]
    QueueFull,
}
