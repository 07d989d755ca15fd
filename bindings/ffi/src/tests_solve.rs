//! The mate solver through the boundary: the engine's and the editor's solve the same
//! games (revB #5), and "solve from here" can be stopped.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::engine::{Engine, EngineListener, PuzzleSolution, SearchReport};
use crate::error::BancoError;
use crate::types::GameKind;
use crate::{Editor, Game};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Hands the solver's answers to a channel.
struct Solutions(Mutex<Sender<PuzzleSolution>>);

impl EngineListener for Solutions {
    fn on_progress(&self, _report: SearchReport) {}
    fn on_result(&self, _report: SearchReport) {}
    fn on_puzzle_solved(&self, solution: PuzzleSolution) {
        let _ = self.0.lock().unwrap().send(solution);
    }
    fn on_failed(&self, _search_id: u64, message: String) {
        panic!("{message}");
    }
}

const BACK_RANK: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";

/// The engine's solver used to refuse chess ("not available in this version") while the
/// editor's solved it.
#[test]
fn the_engine_solves_chess_as_the_editor_does() {
    let engine = Engine::new(1).unwrap();
    let (tx, rx) = mpsc::channel();
    let listener = Arc::new(Solutions(Mutex::new(tx)));
    let game = Game::from_fen(GameKind::Chess, BACK_RANK.into()).unwrap();
    let id = engine
        .solve_puzzle(game, 3, 10_000, listener.clone())
        .unwrap();
    let solved = rx.recv_timeout(Duration::from_secs(30)).unwrap();
    assert_eq!(solved.search_id, id);
    assert_eq!(solved.mate_in, Some(1));
    assert_eq!(solved.line_text.first().map(String::as_str), Some("Ra8#"));
    let by_editor = Editor::from_fen(GameKind::Chess, BACK_RANK.into())
        .unwrap()
        .solve(3)
        .unwrap();
    assert_eq!(by_editor.mate, solved.mate_in);
    assert_eq!(by_editor.line.first().map(String::as_str), Some("a1a8"));
    // Jieqi has no solver: refused, and said why.
    let jieqi = Game::new(GameKind::Jieqi).unwrap();
    match engine.solve_puzzle(jieqi, 3, 1_000, listener) {
        Err(BancoError::Unsupported(m)) => assert!(m.contains("face down"), "{m}"),
        other => panic!("{other:?}"),
    }
}

/// "Solve from here" used to run to its budget (4 million positions) with nothing to
/// stop it when the screen closed.
#[test]
fn solve_from_here_stops_when_asked() {
    let editor = Editor::start(GameKind::Xiangqi).unwrap();
    let done = Arc::new(AtomicBool::new(false));
    let stopper = {
        let (editor, done) = (Arc::clone(&editor), Arc::clone(&done));
        std::thread::spawn(move || {
            while !done.load(Ordering::SeqCst) {
                editor.stop_solve().unwrap();
                std::thread::sleep(Duration::from_millis(1));
            }
        })
    };
    let found = editor.solve(9).unwrap();
    done.store(true, Ordering::SeqCst);
    stopper.join().unwrap();
    assert!(found.aborted && found.mate.is_none(), "{found:?}");
    assert!(
        found.nodes < 4_000_000,
        "stopped before its budget: {found:?}"
    );
    // Stopping with no solve running does nothing; the next solve runs whole.
    editor.stop_solve().unwrap();
    let mate = Editor::from_fen(GameKind::Chess, BACK_RANK.into()).unwrap();
    mate.stop_solve().unwrap();
    assert_eq!(mate.solve(3).unwrap().mate, Some(1));
}
