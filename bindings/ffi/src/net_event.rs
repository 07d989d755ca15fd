//! [`MatchEvent`]: what happens in a [`Match`](crate::Match), in order, as banco-app's
//! `NetEvent` says it, for the shells' listeners.

use crate::net::{MatchOffer, offer_of};
use crate::types::{Color, GameKind, Outcome, PlayedMove};
use banco_app::network::NetEvent;

/// What happens in a [`Match`](crate::Match), in order; [`Match::state`](crate::Match::state) has the screen after it.
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
    /// Show `code` and ask the player whether the other device shows the same six digits;
    /// then call `confirmCode(code)` or `rejectCode`. Show the code apart from the name.
    VerifyCode {
        /// Six digits.
        code: String,
        /// The name the other player gave, cleaned on receipt (no control, escape, bidi or
        /// invisible characters; at most 32 characters).
        peer_name: String,
    },
    /// The other player is trusted.
    PeerVerified {
        /// Their name.
        peer_name: String,
    },
    /// WARNING: a remembered player came with a different key: either they reinstalled the
    /// app or someone impersonates them. Show it loudly; compare the code carefully.
    PeerKeyChanged {
        /// Their name.
        peer_name: String,
    },
    /// Host: a device's connection was turned away or gave up before pairing (failed or
    /// slow handshake, too many attempts from its address, not the paired device). The
    /// match is not affected; show it so repeated tries stay visible.
    AttemptAborted {
        /// The device's address.
        peer: String,
        /// Why.
        reason: String,
    },
    /// Host: several devices showed a code nobody confirmed, and the host turns new
    /// devices away for a minute: ask the player whether to `reopen` at once (or `leave`).
    HostPaused {
        /// Codes shown without a confirmation.
        attempts: u32,
    },
    /// Host: after `HostPaused`, the host takes devices again by itself (the cool-down
    /// passed): close the question (`MatchState.hostPaused` is false again).
    HostReopened,
    /// The other player proposes a game: call `acceptOffer(id)` or `declineProposal`. A
    /// proposal repeated unchanged is not announced again.
    Proposed {
        /// The game, with the colour this side would play.
        offer: MatchOffer,
        /// Its number, to accept exactly it (`MatchState.proposalId` too).
        id: u64,
    },
    /// The other player declined our proposal.
    ProposalDeclined {
        /// Why.
        reason: String,
    },
    /// A game started.
    Started {
        /// The game.
        game: GameKind,
        /// The colour this side plays.
        your_color: Color,
        /// FEN of the start position.
        fen: String,
    },
    /// A move was played (by either side) and checked by this side's rules. In jieqi a step
    /// that turns a piece over comes before its reveal is drawn: its `ply` is the step's own,
    /// `PieceRevealed` follows with the reveal's, and `MatchState.last_move` then describes
    /// the step with its reveal (the record's ply, as [`Game`](crate::Game) does).
    MovePlayed {
        /// The move, described (for its sound: check, capture).
        played: PlayedMove,
        /// True if this side played it.
        mine: bool,
    },
    /// Jieqi: a face-down piece was turned over; both devices drew its identity together
    /// (the fair draw), neither could know or choose it.
    PieceRevealed {
        /// The reveal: `revealed` is the piece, `announcement` says it in words.
        revealed: PlayedMove,
        /// True if the piece is this side's.
        mine: bool,
        /// The draw's number in the match (1 for the first).
        draw: u32,
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
    },
    /// The other player offers a draw: call `replyDraw`.
    DrawOffered,
    /// The other player declined our draw offer (or moved before it arrived).
    DrawDeclined,
    /// The other player's draw offer is gone (it moved, or took its move back): close
    /// the prompt.
    DrawOfferWithdrawn,
    /// The other device refused our last move: the board was set back; play again.
    MoveRefused {
        /// The ply count now.
        to_ply: u32,
    },
    /// The game was abandoned without a result (the devices disagree on the position or
    /// the clocks, or the other player left it: `by_peer`); another game may be proposed.
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
        /// From this side ("You won: checkmate").
        text: String,
    },
    /// The connection dropped; the match tries to reconnect and resume.
    Disconnected {
        /// Why.
        reason: String,
    },
    /// The connection is back: a new link to the same device finished its handshake and
    /// the match resumed on it (clear the "reconnecting" banner).
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
    /// The Lines race moved on (module `race`).
    Race {
        /// What happened.
        update: crate::race::RaceUpdate,
    },
}

impl From<NetEvent> for MatchEvent {
    fn from(e: NetEvent) -> Self {
        match e {
            NetEvent::Listening { address } => MatchEvent::Listening { address },
            NetEvent::Connected { peer } => MatchEvent::Connected { peer },
            NetEvent::VerifyCode { code, peer_name } => MatchEvent::VerifyCode { code, peer_name },
            NetEvent::PeerVerified { peer_name } => MatchEvent::PeerVerified { peer_name },
            NetEvent::PeerKeyChanged { peer_name } => MatchEvent::PeerKeyChanged { peer_name },
            NetEvent::AttemptAborted { peer, reason } => {
                MatchEvent::AttemptAborted { peer, reason }
            }
            NetEvent::HostPaused { attempts } => MatchEvent::HostPaused { attempts },
            NetEvent::HostReopened => MatchEvent::HostReopened,
            NetEvent::Proposed(p) => MatchEvent::Proposed {
                offer: offer_of(&p),
                id: p.id,
            },
            NetEvent::ProposalDeclined { reason } => MatchEvent::ProposalDeclined { reason },
            NetEvent::Started {
                game,
                your_color,
                fen,
            } => MatchEvent::Started {
                game: game.into(),
                your_color: your_color.into(),
                fen,
            },
            NetEvent::MovePlayed { played, mine } => MatchEvent::MovePlayed {
                played: PlayedMove::from(&played),
                mine,
            },
            NetEvent::PieceRevealed {
                revealed,
                mine,
                draw,
            } => MatchEvent::PieceRevealed {
                revealed: PlayedMove::from(&revealed),
                mine,
                draw,
            },
            NetEvent::UndoRequested { to_ply } => MatchEvent::UndoRequested { to_ply },
            NetEvent::UndoDeclined => MatchEvent::UndoDeclined,
            NetEvent::Undone { to_ply } => MatchEvent::Undone { to_ply },
            NetEvent::DrawOffered => MatchEvent::DrawOffered,
            NetEvent::DrawDeclined => MatchEvent::DrawDeclined,
            NetEvent::DrawOfferWithdrawn => MatchEvent::DrawOfferWithdrawn,
            NetEvent::MoveRefused { to_ply } => MatchEvent::MoveRefused { to_ply },
            NetEvent::GameAborted { reason, by_peer } => {
                MatchEvent::GameAborted { reason, by_peer }
            }
            NetEvent::GameOver { outcome, text } => MatchEvent::GameOver {
                outcome: outcome.into(),
                text,
            },
            NetEvent::Disconnected { reason } => MatchEvent::Disconnected { reason },
            NetEvent::Resumed => MatchEvent::Resumed,
            NetEvent::Reconnecting {
                attempt,
                delay_ms,
                reason,
            } => MatchEvent::Reconnecting {
                attempt,
                delay_ms,
                reason,
            },
            NetEvent::PeerProblem { message } => MatchEvent::PeerProblem { message },
            NetEvent::Closed { reason } => MatchEvent::Closed { reason },
            NetEvent::Race(u) => MatchEvent::Race { update: u.into() },
        }
    }
}
