//! A search no longer wanted stops: a hint overtaken by a move, an undo or a new game is
//! stopped at once (its stop flag raised, far short of its node budget) and its answer
//! dropped. The budgets are node counts: a hint that were not stopped would search for
//! minutes, and the wait for the computer's reply (which the engine thread runs only after
//! the hint) would give up.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
use super::*;
use crate::computer::{Job, Settings};
use banco_game::{Color, GameKind};
use std::time::Duration;

/// A hint's node budget: minutes of search.
const HINT_NODES: u64 = 1 << 40;

struct Tx(Mutex<mpsc::Sender<VsState>>);

impl Observer for Tx {
    fn changed(&self, state: VsState) {
        if let Ok(t) = self.0.lock() {
            let _ = t.send(state);
        }
    }
}

fn runner(human: Color) -> (Runner, Receiver<VsState>) {
    let (tx, rx) = mpsc::channel();
    let vs = VsComputer::new(Settings::new(GameKind::Xiangqi, human, 1).unwrap()).unwrap();
    let r = Runner::new(
        vs,
        1,
        Limits::nodes(HINT_NODES),
        Arc::new(Tx(Mutex::new(tx))),
    );
    (r, rx)
}

/// Waits for a state with `moves` moves where the computer is not thinking.
fn settled(rx: &Receiver<VsState>, moves: usize) -> VsState {
    loop {
        let s = rx
            .recv_timeout(Duration::from_secs(120))
            .expect("the computer never answered: the hint before it was not stopped");
        if s.moves.len() == moves && !s.thinking && !s.hinting {
            return s;
        }
    }
}

/// The hint started on the engine thread (it takes the job at once; a hint stopped before
/// it started is never searched, which the checks below allow too).
fn ask_hint(r: &Runner) -> u64 {
    r.act(VsComputer::hint).unwrap();
    let id = r.read(VsComputer::pending_search).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    id
}

/// The hint `id` was stopped short of its budget (or never started), and is not shown.
fn assert_stopped(r: &Runner, id: u64, state: &VsState) {
    let finished = lock(&r.inner).finished.clone();
    let hint: Vec<&Finished> = finished.iter().filter(|f| f.id == id).collect();
    for f in &hint {
        assert_eq!(f.job, Job::Hint);
        assert!(f.stopped, "{f:?}");
        assert!(f.nodes.is_some_and(|n| n < HINT_NODES / 1000), "{f:?}");
    }
    assert!(hint.len() <= 1, "{finished:?}");
    assert!(state.hint.is_none() && !state.hinting, "{state:?}");
}

#[test]
fn a_move_stops_the_hint() {
    let (r, rx) = runner(Color::Red);
    let id = ask_hint(&r);
    r.act(|vs| vs.play_text("h2e2")).unwrap();
    let s = settled(&rx, 2);
    assert_stopped(&r, id, &s);
}

#[test]
fn an_undo_stops_the_hint() {
    let (r, rx) = runner(Color::Red);
    r.act(|vs| vs.play_text("h2e2")).unwrap();
    settled(&rx, 2);
    let id = ask_hint(&r);
    r.act(VsComputer::undo).unwrap();
    // The engine thread is free again: a move after the undo is answered.
    r.act(|vs| vs.play_text("b2e2")).unwrap();
    let s = settled(&rx, 2);
    assert_eq!(
        s.moves.first().map(String::as_str),
        Some("炮八平五"),
        "{s:?}"
    );
    assert_stopped(&r, id, &s);
}

#[test]
fn a_new_game_stops_the_hint_and_drops_its_answer() {
    // The old game's first search is the hint; the new game's first is the computer's
    // move: the two must not be taken for each other.
    let (r, rx) = runner(Color::Red);
    let id = ask_hint(&r);
    let new = VsComputer::new(Settings::new(GameKind::Xiangqi, Color::Black, 1).unwrap()).unwrap();
    r.replace(new);
    let s = settled(&rx, 1);
    assert_stopped(&r, id, &s);
    // The computer's move is its own search's, not the old hint.
    let finished = lock(&r.inner).finished.clone();
    let played = finished
        .iter()
        .filter(|f| f.job == Job::Move && !f.stopped)
        .count();
    assert_eq!(played, 1, "{finished:?}");
}
