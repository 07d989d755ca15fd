//! [`NetError`]: why a networked match refused an action or could not start.

use crate::error::MoveError;
use banco_net::driver::DriverError;

/// Why a networked match refused an action or could not start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// A player name with nothing to show ([`player_name`](super::player_name)).
    #[error("a player name cannot be empty: type the name the other player will see")]
    BadName,
    /// An address that cannot be used.
    #[error("`{0}` is not an address, like 192.168.1.20:7368")]
    BadAddress(String),
    /// The network refused (port in use, unreachable host, discovery failed).
    #[error("network problem: {0}")]
    Network(String),
    /// The move could not be read or is not legal.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// No game is being played yet.
    #[error("the game has not started yet")]
    NoGame,
    /// It is the other player's turn.
    #[error("it is not your turn")]
    NotYourTurn,
    /// The session refused (not verified yet, a proposal pending, the game over, …).
    #[error("{0}")]
    Refused(String),
    /// The match is closed.
    #[error("the match is closed")]
    Closed,
    /// The proposal a host was given cannot be made (checked before anyone connects).
    #[error("the game to propose cannot be played: {0}")]
    Proposal(String),
    /// No randomness from the system for the keys.
    #[error("no randomness from the system: {0}")]
    Entropy(String),
    /// The code confirmed is not the one to compare any more (another device connected
    /// meanwhile): compare the new code.
    #[error("the code changed (another device connected): compare the new code")]
    CodeChanged,
    /// An unattended confirmation ([`NetMatch::confirm_code_unattended`](super::NetMatch::confirm_code_unattended)) of a device that
    /// presents another key than the remembered player of its name: only a person who
    /// compared the code may confirm it.
    #[error(
        "that device presents a different key than the player of that name had: only a person who compared the code may confirm it"
    )]
    KeyChanged,
    /// The proposal accepted is not the one pending any more (the other player replaced
    /// it, [`NetMatch::accept_offer`](super::NetMatch::accept_offer)): nothing was accepted; show the new one.
    #[error("the other player changed the proposal: look again")]
    ProposalChanged,
    /// A Lines race is on: its moves go through [`NetMatch::race_move`](super::NetMatch::race_move) or
    /// [`NetMatch::race_tap`](super::NetMatch::race_tap), not the board-game calls.
    #[error("a Lines race is on: play it on the race board")]
    RaceOn,
    /// The Lines race is over and no board game was started since: propose one.
    #[error("the Lines race is over: propose a game to play one on the board")]
    RaceOver,
    /// A race action was refused: the move is not legal on our board (the same reasons as
    /// a solo Lines game's), the race is over or not started, or no race is on.
    #[error(transparent)]
    Race(#[from] banco_protocol::race::RaceError),
}

impl From<DriverError> for NetError {
    fn from(e: DriverError) -> Self {
        match e {
            DriverError::Stopped => NetError::Closed,
            DriverError::Action(banco_protocol::ActionError::CodeChanged) => NetError::CodeChanged,
            DriverError::Action(banco_protocol::ActionError::ProposalChanged) => {
                NetError::ProposalChanged
            }
            other => NetError::Refused(other.to_string()),
        }
    }
}
