//! What a host proposes by itself once the guest is verified (`HostOptions::proposing`,
//! `HostOptions::racing`), checked when the match is hosted.

use super::{HostOptions, NetError};
use crate::any::AnyGame;
use banco_game::{Color, GameKind};
use banco_protocol::MatchSpec;
use banco_protocol::race::RaceOptions;

/// What a host proposes once the guest is verified.
#[derive(Clone, Debug)]
pub(super) enum AutoPropose {
    Game(MatchSpec),
    Race(RaceOptions, Color),
}

impl AutoPropose {
    /// Refuses a proposal the session would refuse once a guest is verified (the game
    /// not among `offers`, a bad start position, a clock under the minimum, a race of 4
    /// balls…): a host whose proposal cannot be made fails at once instead of pairing and
    /// then proposing nothing.
    pub(super) fn check(auto: Option<&AutoPropose>, offers: &[GameKind]) -> Result<(), NetError> {
        let checked = match auto {
            None => Ok(()),
            Some(AutoPropose::Game(spec)) => {
                banco_protocol::check_proposal::<AnyGame>(spec, offers)
            }
            Some(AutoPropose::Race(options, _)) => {
                if offers.contains(&GameKind::Lines) {
                    options.check()
                } else {
                    Err(banco_protocol::ActionError::GameNotOffered(GameKind::Lines))
                }
            }
        };
        checked.map_err(|e| NetError::Proposal(e.to_string()))
    }

    pub(super) fn of(options: &HostOptions) -> Option<AutoPropose> {
        let (game, color) = options.propose?;
        if game == GameKind::Lines {
            return Some(AutoPropose::Race(options.race, color));
        }
        let mut spec = MatchSpec::new(game, color);
        spec.rules = options.rules;
        spec.start_fen.clone_from(&options.start_fen);
        spec.clock = options.clock;
        Some(AutoPropose::Game(spec))
    }
}
