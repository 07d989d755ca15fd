//! The state a screen shows of a networked match ([`NetState`]): built from the match's
//! own view (phase, code, questions, board model) and the session's snapshot of the game.

use super::{NetState, Phase, View, clock_faces, offer_clock_text};
use crate::any::AnyGame;
use crate::computer::main_notation;
use crate::notation;
use crate::result::result_text;
use banco_game::{Game, GameKind, MatchGame};
use banco_protocol::MatchSnapshot;

/// The state of the match from its view `v`, its snapshot (none before a game), the
/// address it listens on or joined, the games this side offers and the peer's capability
/// bits (once known).
pub(super) fn state_of(
    v: &View,
    snap: Option<&MatchSnapshot<AnyGame>>,
    address: &str,
    offers: &[GameKind],
    peer_caps: Option<u32>,
) -> NetState {
    let peer_games = peer_caps
        .map(banco_protocol::message::offered_games)
        .unwrap_or_default();
    let mut s = NetState {
        phase: v.phase.unwrap_or(Phase::Connecting),
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
