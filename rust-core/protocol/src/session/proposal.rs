//! Checking a proposal — ours before it is sent, the peer's when it arrives — and
//! building the game it names: a game both sides offer, a rule set the game knows, a start
//! position our rules engine accepts, parameters within the limit, and a clock no shorter
//! than [`MIN_CLOCK_BASE_MS`] (the clock travels in the proposal and is shown with it:
//! [`Event::Proposed`](crate::Event::Proposed) carries it in `spec.clock`).
//!
//! A proposal that passes is kept [`Prepared`] (the wire message with the start position
//! and the rules it sets up), so accepting it cannot fail any more. One that fails gives a
//! [`Refusal`]: an [`ActionError`] for our own calls, a [`DeclineReason`] for the peer.

use crate::fairdraw::{LINK_LEN, commitment, parse_commitment, uses_fair_draw};
use crate::message::{
    DeclineReason, MAX_FEN_LEN, MAX_PARAMS_LEN, MIN_CLOCK_BASE_MS, Propose, game_code,
    game_from_code,
};
use crate::session::config::MatchSpec;
use crate::session::event::ActionError;
use banco_game::{GameKind, MatchGame, SetupError};

/// How often the peer may replace its pending proposal (with another of either kind, a
/// board game or a Lines race) before our player answered it. The peer has one pending
/// proposal at a time, its latest: an honest peer never sends a second one before the
/// first is answered (its own session refuses with [`ActionError::Pending`]), so this only
/// bounds what a misbehaving one can push at the player; later proposals are declined as
/// [`DeclineReason::BUSY`] until the player answered.
pub(crate) const MAX_PROPOSAL_CHANGES: u8 = 3;

/// A proposal that was checked, with the game it sets up.
#[derive(Clone, Debug)]
pub(crate) struct Prepared<G: MatchGame> {
    /// The message as sent (start position written back by the game).
    pub(crate) msg: Propose,
    /// The game.
    pub(crate) kind: GameKind,
    /// The rule set of `msg.rules`.
    pub(crate) rules: G::Rules,
    /// The start position.
    pub(crate) start: G,
}

/// A proposal waiting for an answer.
#[derive(Clone, Debug)]
pub(crate) enum Proposal<G: MatchGame> {
    /// We proposed; the peer answers.
    Ours(Prepared<G>),
    /// The peer proposed; our player answers.
    Theirs(Prepared<G>),
}

/// Why a proposal cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The game code is unknown, or the game not offered by the checking side.
    NotOffered(Option<GameKind>),
    /// The rule-set index is unknown for the game.
    UnknownRules(GameKind, u8),
    /// The start position is not usable.
    BadPosition(String),
    /// Parameters over the wire limit.
    ParamsTooLong(usize),
    /// A game with the fair draw whose parameters carry no valid commitment.
    NoCommitment,
    /// A clock whose base time is below [`MIN_CLOCK_BASE_MS`].
    ClockTooShort(u32),
}

impl Refusal {
    /// The answer to the peer.
    pub(crate) fn decline(&self) -> DeclineReason {
        match self {
            Refusal::NotOffered(_) => DeclineReason::UNSUPPORTED_GAME,
            Refusal::UnknownRules(..) => DeclineReason::UNSUPPORTED_RULES,
            Refusal::BadPosition(_) => DeclineReason::BAD_POSITION,
            Refusal::ParamsTooLong(_) | Refusal::NoCommitment => DeclineReason::BAD_PARAMS,
            Refusal::ClockTooShort(_) => DeclineReason::CLOCK_TOO_SHORT,
        }
    }

    /// The error of our own call.
    pub(crate) fn action_error(self, game: GameKind) -> ActionError {
        match self {
            Refusal::NotOffered(kind) => ActionError::GameNotOffered(kind.unwrap_or(game)),
            Refusal::UnknownRules(game, index) => ActionError::UnknownRules { game, index },
            Refusal::BadPosition(why) => ActionError::BadPosition(why),
            Refusal::ParamsTooLong(n) => ActionError::ParamsTooLong(n),
            // Our own proposals get their commitment from the session.
            Refusal::NoCommitment => ActionError::Unsupported,
            Refusal::ClockTooShort(ms) => ActionError::ClockTooShort(ms),
        }
    }
}

/// Checks `msg` against the games this side `offers` and builds its game.
pub(crate) fn prepare<G: MatchGame>(
    msg: Propose,
    offers: &[GameKind],
) -> Result<Prepared<G>, Refusal> {
    let kind = game_from_code(msg.game)
        .filter(|k| offers.contains(k))
        .ok_or(Refusal::NotOffered(game_from_code(msg.game)))?;
    let rules = G::rules(kind, msg.rules).ok_or(Refusal::UnknownRules(kind, msg.rules))?;
    if msg.params.len() > MAX_PARAMS_LEN {
        return Err(Refusal::ParamsTooLong(msg.params.len()));
    }
    if uses_fair_draw(kind) && parse_commitment(&msg.params).is_err() {
        return Err(Refusal::NoCommitment);
    }
    if let Some(clock) = msg.clock
        && clock.base_ms < MIN_CLOCK_BASE_MS
    {
        return Err(Refusal::ClockTooShort(clock.base_ms));
    }
    if let Some(fen) = &msg.fen {
        check_fen_text(fen)?;
    }
    let start = G::setup(kind, msg.fen.as_deref()).map_err(|e| match e {
        SetupError::Unsupported(k) => Refusal::NotOffered(Some(k)),
        SetupError::BadPosition(why) => Refusal::BadPosition(why),
    })?;
    if let Some(end) = start.outcome(&rules) {
        return Err(Refusal::BadPosition(format!(
            "the game is already over there ({end})"
        )));
    }
    Ok(Prepared {
        msg,
        kind,
        rules,
        start,
    })
}

/// Our own proposal of `spec`: checked like the peer will check it, with the start
/// position written back by the game (so both sides hold the same text).
pub(crate) fn prepare_ours<G: MatchGame>(
    spec: &MatchSpec,
    offers: &[GameKind],
) -> Result<Prepared<G>, ActionError> {
    let msg = Propose {
        game: game_code(spec.game),
        rules: spec.rules,
        color: spec.local_color,
        clock: spec.clock,
        fen: spec.start_fen.clone(),
        params: spec.local_params.clone(),
    };
    let mut prepared = prepare::<G>(msg, offers).map_err(|r| r.action_error(spec.game))?;
    if prepared.msg.fen.is_some() {
        let fen = prepared.start.fen();
        check_fen_text(&fen).map_err(|r| r.action_error(spec.game))?;
        prepared.msg.fen = Some(fen);
    }
    Ok(prepared)
}

/// Checks a proposal of `spec` by a side offering `offers` as [`Session::propose`] will
/// when it is sent (the game offered, its rule set, the clock, the start position, the
/// parameters' length), before any peer is connected: a host checks its automatic
/// proposal with it, so that a bad one is refused when the match is hosted rather than
/// dropped after pairing. Whether the peer offers the game is known only then.
///
/// [`Session::propose`]: crate::Session::propose
///
/// # Errors
/// The [`ActionError`] that [`Session::propose`] would give.
pub fn check_proposal<G: MatchGame>(
    spec: &MatchSpec,
    offers: &[GameKind],
) -> Result<(), ActionError> {
    if !offers.contains(&spec.game) {
        return Err(ActionError::GameNotOffered(spec.game));
    }
    let mut spec = spec.clone();
    if uses_fair_draw(spec.game) {
        // The session puts its commitment first; any commitment stands in for it here.
        let mut params = commitment(&[0; LINK_LEN]).to_vec();
        if params.len() + spec.local_params.len() > MAX_PARAMS_LEN {
            return Err(ActionError::ParamsTooLong(
                params.len() + spec.local_params.len(),
            ));
        }
        params.append(&mut spec.local_params);
        spec.local_params = params;
    }
    prepare_ours::<G>(&spec, offers).map(|_| ())
}

/// A start position must be short printable ASCII: it is shown to people and parsed by
/// every game's FEN reader.
fn check_fen_text(fen: &str) -> Result<(), Refusal> {
    if fen.len() > MAX_FEN_LEN {
        return Err(Refusal::BadPosition(format!(
            "the position has {} bytes, more than the limit of {MAX_FEN_LEN}",
            fen.len()
        )));
    }
    if let Some(bad) = fen.chars().find(|c| !(' '..='~').contains(c)) {
        return Err(Refusal::BadPosition(format!(
            "the position contains the character {bad:?}"
        )));
    }
    if fen.trim().is_empty() {
        return Err(Refusal::BadPosition("the position is empty".to_owned()));
    }
    Ok(())
}

/// The game of a prepared proposal seen from the local side.
pub(crate) fn spec_of<G: MatchGame>(
    p: &Prepared<G>,
    ours: bool,
    local_params: Vec<u8>,
    peer_params: Vec<u8>,
) -> MatchSpec {
    MatchSpec {
        game: p.kind,
        rules: p.msg.rules,
        local_color: if ours {
            p.msg.color
        } else {
            p.msg.color.other()
        },
        clock: p.msg.clock,
        start_fen: p.msg.fen.clone(),
        local_params,
        peer_params,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::CountingGame;
    use banco_game::Color;

    fn msg(game: u8, rules: u8, fen: Option<&str>) -> Propose {
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
    fn each_problem_has_its_reason() {
        let offers = [GameKind::Xiangqi];
        let check = |m| prepare::<CountingGame>(m, &offers).map(|p| p.kind);
        assert_eq!(check(msg(0, 0, None)), Ok(GameKind::Xiangqi));
        assert_eq!(check(msg(9, 0, None)), Err(Refusal::NotOffered(None)));
        assert_eq!(
            check(msg(2, 0, None)),
            Err(Refusal::NotOffered(Some(GameKind::Chess)))
        );
        assert_eq!(
            check(msg(0, 7, None)),
            Err(Refusal::UnknownRules(GameKind::Xiangqi, 7))
        );
        assert!(matches!(
            check(msg(0, 0, Some("zz"))),
            Err(Refusal::BadPosition(_))
        ));
        assert!(matches!(
            check(msg(0, 0, Some("12\u{202e}"))),
            Err(Refusal::BadPosition(_))
        ));
        assert!(matches!(
            check(msg(0, 0, Some("60"))),
            Err(Refusal::BadPosition(why)) if why.contains("already over")
        ));
        assert_eq!(
            Refusal::BadPosition(String::new()).decline(),
            DeclineReason::BAD_POSITION
        );
    }
}
