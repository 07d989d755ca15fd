//! Draws claimed against the computer through the boundary: with the player's move
//! (FIDE 9.2.1.1, 9.3.1: `claim_draw_with`, `VsState::claimable_with`), refused with nothing
//! changed, withdrawn by undo, and claimed by the computer (`VsState::draw_claimed_by`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::computer::{VsComputer, VsSettings, VsState};
use crate::error::BancoError;
use crate::tests::{States, wait_for};
use crate::types::{Color, DrawReason, GameKind, Move, Outcome};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};

/// A chess game against the computer from `fen`, the player White; its states.
fn chess(fen: &str) -> (Arc<VsComputer>, Receiver<VsState>) {
    let (tx, rx) = channel();
    let settings = VsSettings {
        kind: GameKind::Chess,
        human: Color::Red,
        level: 1,
        rules: None,
        movetime_ms: 50,
        fen: Some(fen.to_owned()),
        chance_seed: None,
    };
    let vs = VsComputer::new(settings, Arc::new(States(Mutex::new(tx)))).unwrap();
    (vs, rx)
}

const FIFTY: Outcome = Outcome::Draw {
    reason: DrawReason::FiftyMoveRule,
};

/// The rook's move d3-d1 (a1 = 0).
const RD1: Move = Move {
    from: 19,
    to: 3,
    promotion: None,
};

#[test]
fn the_player_claims_with_the_hundredth_ply() {
    let (vs, rx) = chess("8/8/4k3/8/8/3RK3/8/8 w - - 99 80");
    let s = wait_for(&rx, |s| s.your_turn);
    assert_eq!(s.claimable_draw, None);
    assert_eq!(s.board.river_after_row, None, "chess has no river");
    let rd1 = s
        .claimable_with
        .iter()
        .find(|c| c.mv.text == "Rd1")
        .expect("Rd1 claims");
    assert_eq!(rd1.mv.played, RD1);
    assert_eq!(rd1.reason, DrawReason::FiftyMoveRule);
    let played = vs.claim_draw_with(RD1).unwrap();
    assert_eq!(played.text, "Rd1");
    let s = vs.state().unwrap();
    assert_eq!(s.outcome, Some(FIFTY));
    assert_eq!(s.draw_claimed_by, Some(Color::Red));
    assert_eq!(s.moves, ["Rd1"]);
    assert!(!s.thinking && s.claimable_with.is_empty());
    // Undo takes back the claim and its move.
    vs.undo().unwrap();
    let s = vs.state().unwrap();
    assert_eq!((s.outcome, s.moves.len(), s.your_turn), (None, 0, true));
    vs.end().unwrap();
}

#[test]
fn a_claim_with_a_move_that_makes_no_draw_changes_nothing() {
    let (vs, rx) = chess("8/8/4k3/8/8/3RK3/8/8 w - - 97 80");
    let s = wait_for(&rx, |s| s.your_turn);
    assert!(s.claimable_with.is_empty());
    assert!(matches!(
        vs.claim_draw_with(RD1),
        Err(BancoError::NotAvailable(why)) if why.starts_with("there is no draw to claim with Rd1")
    ));
    let illegal = Move {
        from: 19,
        to: 20,
        promotion: None,
    };
    assert!(matches!(
        vs.claim_draw_with(illegal),
        Err(BancoError::IllegalMove(_))
    ));
    assert_eq!(vs.state().unwrap(), s);
    vs.end().unwrap();
}

#[test]
fn the_computer_claims_the_draw_its_reply_completes() {
    // A lone king: its reply is the hundredth ply, and it claims.
    let (vs, rx) = chess("8/8/4k3/8/8/3RK3/8/8 w - - 98 80");
    wait_for(&rx, |s| s.your_turn);
    vs.play_text("Rd2".into()).unwrap();
    let s = wait_for(&rx, |s| s.outcome.is_some());
    assert_eq!(s.outcome, Some(FIFTY));
    assert_eq!(s.draw_claimed_by, Some(Color::Black));
    assert_eq!(s.moves.len(), 2);
    // Undo takes back the player's move with the claim.
    vs.undo().unwrap();
    let s = vs.state().unwrap();
    assert_eq!((s.outcome, s.moves.len(), s.your_turn), (None, 0, true));
    vs.end().unwrap();
}
