//! The state a screen shows of a networked match ([`NetState`]): built from the match's
//! own view (phase, code, questions, board model) and the session's snapshot of the game;
//! and the board game a board-game action acts on, or why there is none.

use super::{
    NetError, NetMatch, NetState, Phase, ProposalView, View, clock_faces, lock, offer_clock_text,
};
use crate::any::{AnyGame, color_name};
use crate::board::{BoardModel, BoardView};
use crate::computer::main_notation;
use crate::notation;
use crate::result::result_text;
use banco_game::{Color, Game, GameKind, MatchGame};
use banco_protocol::MatchSnapshot;

impl NetMatch {
    /// The state now (the board is read from the session). The game on or last played is
    /// shown: a Lines race hides the board game played before it (its board and result),
    /// a board game the race before it.
    #[must_use]
    pub fn state(&self) -> NetState {
        // The view first, then the session: an event reaches the view after the session
        // changed, so the snapshot is at least as new as the view (never a game shown over
        // without its result).
        let v = lock(&self.view).clone();
        let snap = self.snapshot().filter(|_| !v.raced);
        let peer = lock(&self.driver).as_ref().and_then(|d| {
            d.with_session(|s, _| s.peer().map(|p| p.caps))
                .ok()
                .flatten()
        });
        let mut state = state_of(&v, snap.as_ref(), &self.address, &self.offers, peer);
        // A race accepted before any board game, or started after the last one.
        state.race = self.race().filter(|_| v.raced || v.spec.is_none());
        state.reachable = lock(&self.hosting)
            .as_ref()
            .map(|h| h.reachable().iter().map(ToString::to_string).collect())
            .unwrap_or_default();
        if let Some(race) = &state.race
            && state.kind.is_none()
        {
            state.kind = Some(GameKind::Lines);
            state.your_color = Some(race.your_color);
            state.result.clone_from(&race.result_text);
        }
        state
    }
}

impl NetMatch {
    /// The board game's snapshot for a board-game action; without one, refused with
    /// [`NetError::RaceOn`] when a Lines race was accepted (its moves go elsewhere) or
    /// [`NetError::RaceOver`] once it ended, else with [`NetError::NoGame`].
    pub(super) fn board_snapshot(&self) -> Result<MatchSnapshot<AnyGame>, NetError> {
        self.snapshot().ok_or_else(|| {
            let race_over = lock(&self.driver).as_ref().and_then(|d| {
                d.read_session(|s, _| s.race().map(|r| r.result().is_some()))
                    .ok()
                    .flatten()
            });
            match race_over {
                Some(false) => NetError::RaceOn,
                Some(true) => NetError::RaceOver,
                None => NetError::NoGame,
            }
        })
    }

    /// The board game as the session holds it, for a board-game action: refused as
    /// [`NetMatch::tap`] refuses it before a game ([`NetError::NoGame`], or
    /// [`NetError::RaceOn`] during a race, [`NetError::RaceOver`] after it).
    pub fn board_game(&self) -> Result<AnyGame, NetError> {
        self.board_snapshot().map(|s| s.game)
    }
}

impl ProposalView {
    /// The proposal described for the accept prompt, a line each (the title, who proposes
    /// which game, is the screen's): a race's options, `"Race: 5 balls, 5 min, preview"`;
    /// for a board game the colour this side would play (and that it moves first), the
    /// rules preset, a set-up start and the clock: `"You play Red (you move first)\nRules:
    /// Asian (perpetual check and chase lose)\nFrom a set-up position: FEN\nClock: 5:00 + 3s"`
    /// (the board of that position: [`ProposalView::start_board`]).
    #[must_use]
    pub fn terms(&self) -> String {
        if let Some(race) = self.race {
            return format!("Race: {race}");
        }
        // The first player moves first, unless the set-up position says otherwise.
        let first = self
            .start_fen
            .as_deref()
            .and_then(|fen| AnyGame::from_fen(self.game, fen).ok())
            .map_or(Color::Red, |g| g.side_to_move());
        let mut lines = vec![format!(
            "You play {}{}",
            color_name(self.game, self.your_color),
            if self.your_color == first {
                " (you move first)"
            } else {
                ""
            }
        )];
        let rules = AnyGame::rules(self.game, self.rules);
        if let Some(preset) = crate::presets::of(self.game)
            .into_iter()
            .find(|p| Some(p.rules) == rules)
        {
            lines.push(format!("Rules: {}", preset.label));
        }
        if let Some(fen) = &self.start_fen {
            lines.push(format!("From a set-up position: {fen}"));
        }
        lines.push(format!("Clock: {}", offer_clock_text(self.clock)));
        lines.join("\n")
    }
}

impl ProposalView {
    /// The set-up start position of the proposal, ready to draw from the side this player
    /// would play (its pieces at the bottom; a jieqi position with its pools), so that the
    /// player sees it before accepting; `None` for the usual start, a race, or a position
    /// the game cannot read (the session declines that one).
    #[must_use]
    pub fn start_board(&self) -> Option<BoardView> {
        let fen = self.start_fen.as_deref().filter(|_| self.race.is_none())?;
        let game = AnyGame::from_fen(self.game, fen).ok()?;
        Some(BoardModel::new(self.your_color == Color::Black).view(&game))
    }
}

/// The state of the match from its view `v`, its snapshot (none before a game), the
/// address it listens on or joined, the games this side offers and the peer's capability
/// bits (once known).
fn state_of(
    v: &View,
    snap: Option<&MatchSnapshot<AnyGame>>,
    address: &str,
    offers: &[GameKind],
    peer_caps: Option<u32>,
) -> NetState {
    let peer_games = peer_caps
        .map(banco_protocol::message::offered_games)
        .unwrap_or_default();
    let phase = v.phase.unwrap_or(Phase::Connecting);
    let mut s = NetState {
        phase,
        can_propose: matches!(phase, Phase::Waiting | Phase::Over),
        address: address.to_owned(),
        // Filled by `NetMatch::state` from the listener.
        reachable: Vec::new(),
        code: v.code.clone(),
        peer_name: v.peer_name.clone(),
        peer_games,
        offers: offers.to_vec(),
        proposal: v.proposal.clone(),
        kind: None,
        your_color: None,
        board: None,
        side_to_move: None,
        your_turn: false,
        in_check: false,
        banner: v.banner.clone(),
        undo_request: v.undo_request,
        draw_offered: v.draw_offered,
        draw_offer_held: false,
        claimable_draw: None,
        notice: v.notice.clone(),
        key_warning: v.key_warning.clone(),
        host_paused: v.host_paused,
        outcome: None,
        result: None,
        closed_reason: v.closed_reason.clone(),
        moves: Vec::new(),
        move_list: Vec::new(),
        last_move: None,
        clocks: None,
        clock_faces: None,
        offered_clock: v
            .proposal
            .as_ref()
            .filter(|_| v.phase == Some(Phase::Proposed))
            .map(|p| offer_clock_text(p.clock)),
        offered_race: v
            .proposal
            .as_ref()
            .filter(|_| v.phase == Some(Phase::Proposed))
            .and_then(|p| p.race)
            .map(|o| o.to_string()),
        offered_terms: v
            .proposal
            .as_ref()
            .filter(|_| v.phase == Some(Phase::Proposed))
            .map(ProposalView::terms),
        offered_board: v
            .proposal
            .as_ref()
            .filter(|_| v.phase == Some(Phase::Proposed))
            .and_then(ProposalView::start_board),
        fen: None,
        race: None,
    };
    let Some(snap) = snap else {
        return s;
    };
    let g = &snap.game;
    let me = snap.spec.local_color;
    let mut board = v.board.clone();
    let last = g.history().last().copied();
    board.set_last_move(g, last);
    s.kind = Some(g.kind());
    s.your_color = Some(me);
    s.board = Some(board.view(g));
    s.side_to_move = Some(g.side_to_move());
    s.in_check = g.in_check();
    s.outcome = snap.outcome;
    s.draw_offer_held = snap.draw_offer_held;
    s.result = snap
        .outcome
        .map(|o| result_text(g.kind(), o, Some(me)))
        .or_else(|| snap.aborted.map(|r| format!("Game abandoned: {r}")));
    s.your_turn = snap.outcome.is_none()
        && snap.aborted.is_none()
        && !g.awaits_chance()
        && g.side_to_move() == me
        && v.banner.is_none()
        && matches!(v.phase, Some(Phase::Playing));
    s.claimable_draw = if s.your_turn {
        snap.claimable_draw
    } else {
        None
    };
    s.moves = notation::history_text(g, main_notation(g.kind()));
    s.move_list = notation::numbered_lines(g, &s.moves);
    s.last_move = notation::describe_last(g);
    s.clocks = snap.clocks;
    // A closed match keeps its last snapshot: nothing runs there any more.
    let running = snap
        .running_clock
        .filter(|_| v.phase != Some(Phase::Closed));
    s.clock_faces = snap.clocks.map(|c| clock_faces(c, running, me));
    s.fen = Some(MatchGame::fen(g));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::ClockSpec;
    use banco_protocol::race::RaceOptions;

    fn proposal(game: GameKind, your_color: Color) -> ProposalView {
        ProposalView {
            id: 1,
            game,
            your_color,
            rules: 0,
            start_fen: None,
            clock: None,
            race: None,
        }
    }

    #[test]
    fn a_proposal_in_words_for_the_accept_prompt() {
        let xiangqi = ProposalView {
            rules: 1,
            clock: Some(ClockSpec {
                base_ms: 300_000,
                increment_ms: 3_000,
            }),
            ..proposal(GameKind::Xiangqi, Color::Black)
        };
        assert_eq!(
            xiangqi.terms(),
            "You play Black\nRules: Casual (only perpetual check loses)\nClock: 5:00 + 3s"
        );
        assert_eq!(
            proposal(GameKind::Jieqi, Color::Red).terms(),
            "You play Red (you move first)\nRules: Asian (perpetual check and chase lose)\nClock: untimed"
        );
        // Chess has one set of rules: none named.
        assert_eq!(
            proposal(GameKind::Chess, Color::Red).terms(),
            "You play White (you move first)\nClock: untimed"
        );
        // A set-up position says who moves first.
        let black_to_move = ProposalView {
            start_fen: Some("4k3/8/8/8/8/8/8/4K2R b K - 0 1".to_owned()),
            ..proposal(GameKind::Chess, Color::Black)
        };
        assert_eq!(
            black_to_move.terms(),
            "You play Black (you move first)\nFrom a set-up position: 4k3/8/8/8/8/8/8/4K2R b K - 0 1\nClock: untimed"
        );
        // revB D5: the position itself, drawn from the side this player would play.
        let board = black_to_move.start_board().unwrap();
        assert!(board.flipped && board.kind == GameKind::Chess);
        let pieces = board.cells.iter().filter(|c| c.piece.is_some()).count();
        assert_eq!(pieces, 3);
        assert_eq!(proposal(GameKind::Chess, Color::Black).start_board(), None);
        let race = ProposalView {
            race: Some(RaceOptions {
                start_balls: 5,
                time_limit_s: 300,
                preview: true,
                ..RaceOptions::default()
            }),
            ..proposal(GameKind::Lines, Color::Black)
        };
        assert_eq!(race.terms(), "Race: 5 balls, 5 min, preview");
    }
}
