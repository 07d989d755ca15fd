//! The puzzle mode for the shells: [`VsComputer::try_puzzle`] and [`PuzzleStatus`] (documented there).
//!
//! ```
//! use banco_ffi::{PuzzleProgress, PuzzleTier, VsComputer, VsListener, VsState, collection_puzzles};
//! use std::sync::Arc;
//! struct Quiet;
//! impl VsListener for Quiet {
//!     fn on_state(&self, _: VsState) {}
//! }
//! let p = &collection_puzzles(Some(PuzzleTier::MateIn1))[0];
//! let progress = PuzzleProgress::new();
//! let vs = VsComputer::try_puzzle(p.id.clone(), progress.clone(), 100, Arc::new(Quiet))?;
//! vs.play_text(p.solution[0].clone())?; // mate
//! let status = vs.state()?.puzzle.expect("a puzzle");
//! assert!(status.solved);
//! assert!(progress.is_solved(p.id.clone())?); // recorded by the try itself
//! vs.end()?;
//! # Ok::<(), banco_ffi::BancoError>(())
//! ```

use crate::VsListener;
use crate::collection::PuzzleProgress;
use crate::computer::VsComputer;
use crate::error::{BancoError, guard};
use crate::types::PlayedMove;
use banco_app::puzzle_mode::{self as pm, PuzzleMode};
use std::sync::Arc;

/// Something to tell the player once (see [`PuzzleStatus`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum PuzzleNotice {
    /// The player's move let the mate slip; it was taken back with the computer's reply.
    WrongMoveTakenBack {
        /// The wrong move.
        played: PlayedMove,
        /// The reply that escaped (null/nil when the move itself ended the game, e.g.
        /// stalemate).
        reply: Option<PlayedMove>,
    },
    /// Mated in time.
    Solved {
        /// Hints counted in this try.
        hints_used: u32,
        /// Wrong moves taken back in this try.
        wrong_moves: u32,
    },
    /// The stored record could not be read and starts afresh
    /// ([`PuzzleProgress::take_notice`]).
    RecordDamaged {
        /// Why, in words.
        why: String,
    },
}

impl From<&pm::PuzzleNotice> for PuzzleNotice {
    fn from(n: &pm::PuzzleNotice) -> Self {
        match n {
            pm::PuzzleNotice::WrongMoveTakenBack { played, reply } => {
                PuzzleNotice::WrongMoveTakenBack {
                    played: PlayedMove::from(played),
                    reply: reply.as_ref().map(PlayedMove::from),
                }
            }
            pm::PuzzleNotice::Solved {
                hints_used,
                wrong_moves,
            } => PuzzleNotice::Solved {
                hints_used: *hints_used,
                wrong_moves: *wrong_moves,
            },
        }
    }
}

/// The notice in words for the player ("Not that move: 車二進一 lets the king escape after
/// 將5平4. Try another.", "Solved! Clean.", "Solved! (1 hint, 2 wrong moves)", "Your puzzle
/// record could not be read and starts afresh: …"), so that no shell writes its own.
#[uniffi::export]
pub fn puzzle_notice_text(notice: PuzzleNotice) -> String {
    match notice {
        PuzzleNotice::WrongMoveTakenBack { played, reply } => {
            pm::wrong_move_text(&played.text, reply.as_ref().map(|r| r.text.as_str()))
        }
        PuzzleNotice::Solved {
            hints_used,
            wrong_moves,
        } => pm::solved_text(hints_used, wrong_moves),
        PuzzleNotice::RecordDamaged { why } => {
            format!("Your puzzle record could not be read and starts afresh: {why}")
        }
    }
}

/// A try at a puzzle, in the state of a [`VsComputer`] in puzzle mode: the puzzle mode for
/// the shells (banco-app's `puzzle_mode`), every rule of it in Rust.
/// [`VsComputer::try_puzzle`] starts a try at a puzzle of the collection with the player's
/// [`PuzzleProgress`]; this status then shows the try:
///
/// * a **wrong move is taken back at once** (the computer's escaping reply is played, then
///   both are taken back and the player is to move where they were); it counts in
///   `wrong_moves` and comes with a one-shot [`PuzzleNotice::WrongMoveTakenBack`] naming the
///   move and the reply;
/// * a **hint counts once per position** (when shown; asking again where one was shown,
///   also after a wrong move brought the player back, counts nothing more): `hints_used`;
/// * the **record** ([`PuzzleProgress`]) is updated by the try itself — the try when it
///   starts, each counted hint, the solve — and written to the shell's [`PuzzleStore`];
/// * **notices** are typed ([`PuzzleNotice`]) and shown once: they stay in the status until
///   [`VsComputer::clear_notice`] or the player's next move, hint, undo or redo;
/// * resigning and claiming a draw are refused in a puzzle (`NotAvailable`).
///
/// A shell draws the state, shows the notice and calls `clear_notice`; it counts nothing.
///
/// **Reply time.** In puzzle mode the computer does not search for `movetime_ms`: its reply
/// is the defence that delays the mate longest (or escapes it), found by proving the
/// attacker's mate after each of its legal replies, and a hint is the next move of a
/// proven mate. Each proof has a fixed budget — at most 4 million positions and 30 s
/// (banco-app's `mate::options`) — so the answer does not depend on the device, but the
/// time does: the collection's replies take up to a few hundred milliseconds on a desktop
/// and several times that on a phone (a reply is proven once per legal reply of the
/// defender). Show the computer as thinking (`VsState.thinking`) meanwhile; `end()` stops it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct PuzzleStatus {
    /// The puzzle's name.
    pub name: String,
    /// Its id in the collection; null/nil for a puzzle from elsewhere (not recorded).
    pub id: Option<String>,
    /// Mate in this many moves.
    pub mate_in: u32,
    /// Moves of the player's left to mate (0 after a last move that did not mate: the
    /// computer answers, then the move is taken back; show [`PuzzleStatus::goal`]).
    pub moves_left: u32,
    /// What the player is to do, in words, for a title: "mate in 2 more moves", "mate in
    /// 1 more move", "solved", or "no mate with your last move: it will be taken back"
    /// (never "mate in 0").
    pub goal: String,
    /// Mated in time.
    pub solved: bool,
    /// Hints counted in this try (once per position).
    pub hints_used: u32,
    /// Wrong moves taken back in this try.
    pub wrong_moves: u32,
    /// Something to show once, then call [`VsComputer::clear_notice`].
    pub notice: Option<PuzzleNotice>,
}

impl From<&pm::PuzzleStatus> for PuzzleStatus {
    fn from(p: &pm::PuzzleStatus) -> Self {
        PuzzleStatus {
            name: p.name.clone(),
            id: p.id.clone(),
            mate_in: p.mate_in,
            moves_left: p.moves_left,
            goal: p.goal(),
            solved: p.solved,
            hints_used: p.hints_used,
            wrong_moves: p.wrong_moves,
            notice: p.notice.as_ref().map(PuzzleNotice::from),
        }
    }
}

/// Where the shell keeps the puzzle record's bytes (its key-value store), implemented in
/// Kotlin/Swift.
///
/// Threads: `save` is called synchronously, on the thread of the call that changed the
/// record, with the record's lock and the game's lock held:
///
/// * the app's own thread — often its main thread — inside [`VsComputer::try_puzzle`] (the
///   try is recorded as it starts) and inside `play`, `tap` or `redo` when the move mates
///   (the solve is recorded);
/// * a Rust thread of the game (its engine thread) when a hint is shown and counted.
///
/// So store the bytes quickly and return (a key-value store's asynchronous write, as
/// Android's `SharedPreferences.apply` or `UserDefaults`): never wait for the main thread
/// in here (`DispatchQueue.main.sync`, `runBlocking(Dispatchers.Main)`: it may be the
/// caller, which would deadlock) and do no slow disk work, and do not call Banco from here.
/// `load` is called once, on the thread of [`PuzzleProgress::open`].
#[uniffi::export(with_foreign)]
pub trait PuzzleStore: Send + Sync {
    /// The bytes saved last; null/nil when nothing was saved yet. When what is stored
    /// cannot be read (the store failed), throw rather than answer null/nil: the record
    /// then opens afresh *without* the store, so that this session never writes over the
    /// player's progress, and [`PuzzleProgress::take_notice`] says so.
    fn load(&self) -> Option<Vec<u8>>;
    /// Keeps `bytes` in place of what was saved.
    fn save(&self, bytes: Vec<u8>);
}

/// banco-app's store over the shell's.
pub(crate) struct StoreRelay(pub(crate) Arc<dyn PuzzleStore>);

impl banco_app::puzzles::progress::ProgressStore for StoreRelay {
    fn load(&self) -> Result<Option<Vec<u8>>, String> {
        // A shell's `load` that throws reaches Rust as a panic: the stored bytes could not
        // be read, which is not "nothing stored" (the record would be written over).
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.0.load())).map_err(
            |payload| {
                format!(
                    "the app's store failed: {}",
                    crate::error::panic_message(payload.as_ref())
                )
            },
        )
    }

    fn save(&self, bytes: Vec<u8>) {
        crate::error::notify(|| self.0.save(bytes));
    }
}

#[uniffi::export]
impl VsComputer {
    /// A try at the collection's puzzle `id` in puzzle mode (see [`PuzzleStatus`], also
    /// for how long the computer's replies take: `movetime_ms` does not limit them), recorded
    /// in `progress`; an unknown id, or a thinking time `movetime_ms` outside 1 ms to 1 hour,
    /// is refused (`InvalidArgument`) and records nothing.
    #[uniffi::constructor]
    pub fn try_puzzle(
        id: String,
        progress: Arc<PuzzleProgress>,
        movetime_ms: u64,
        listener: Arc<dyn VsListener>,
    ) -> Result<Arc<VsComputer>, BancoError> {
        guard(|| {
            let movetime_ms = crate::computer::check_movetime(movetime_ms)?;
            let mode = PuzzleMode::from_collection(&id, progress.shared())
                .map_err(|e| BancoError::InvalidArgument(e.to_string()))?;
            let vs = banco_app::computer::VsComputer::start_puzzle(mode, movetime_ms)?;
            Ok(VsComputer::start(vs, listener))
        })
    }

    /// The puzzle's notice was shown (it leaves the status; nothing else changes).
    pub fn clear_notice(&self) -> Result<(), BancoError> {
        guard(|| {
            self.with(|vs| {
                vs.clear_notice();
                Ok(())
            })
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::{PuzzleTier, VsState, collection_puzzles};
    use std::sync::Mutex;
    use std::sync::mpsc::{Receiver, Sender, channel};

    struct States(Mutex<Sender<VsState>>);
    impl VsListener for States {
        fn on_state(&self, state: VsState) {
            let _ = self.0.lock().unwrap().send(state);
        }
    }

    fn wait_for(rx: &Receiver<VsState>, want: impl Fn(&VsState) -> bool) -> VsState {
        loop {
            let s = rx
                .recv_timeout(std::time::Duration::from_secs(30))
                .expect("a state within 30 s");
            if want(&s) {
                return s;
            }
        }
    }

    #[derive(Default)]
    struct Memory(Mutex<Option<Vec<u8>>>, Mutex<u32>);
    impl PuzzleStore for Memory {
        fn load(&self) -> Option<Vec<u8>> {
            self.0.lock().unwrap().clone()
        }
        fn save(&self, bytes: Vec<u8>) {
            *self.1.lock().unwrap() += 1;
            *self.0.lock().unwrap() = Some(bytes);
        }
    }

    /// A shell's store whose `load` throws (a panic on the Rust side), and counts saves.
    #[derive(Default)]
    struct Throwing(Mutex<u32>);
    impl PuzzleStore for Throwing {
        fn load(&self) -> Option<Vec<u8>> {
            std::panic::panic_any("the store is locked".to_owned())
        }
        fn save(&self, _bytes: Vec<u8>) {
            *self.0.lock().unwrap() += 1;
        }
    }

    /// A store that throws in `load` is not "nothing stored": the record opens afresh
    /// without the store, says why once, and nothing this session does writes over it.
    #[test]
    fn a_store_that_throws_in_load_is_never_written() {
        let store = Arc::new(Throwing::default());
        let progress = PuzzleProgress::open(store.clone());
        let notice = progress.take_notice().unwrap();
        let text = puzzle_notice_text(notice);
        assert!(text.contains("cannot be read"), "{text}");
        assert!(text.contains("the store is locked"), "{text}");
        progress.shared().update(|p| p.solved("sp1019-173"));
        assert!(progress.is_solved("sp1019-173".into()).unwrap());
        assert_eq!(
            *store.0.lock().unwrap(),
            0,
            "nothing written over the record"
        );
    }

    #[test]
    fn a_try_through_the_boundary_keeps_its_own_record() {
        let store = Arc::new(Memory::default());
        let progress = PuzzleProgress::open(store.clone());
        assert_eq!(progress.take_notice(), None);
        // An unknown id: refused, nothing recorded or stored.
        let (tx, rx) = channel();
        let l = Arc::new(States(Mutex::new(tx)));
        assert!(matches!(
            VsComputer::try_puzzle("no such id".into(), progress.clone(), 100, l.clone()),
            Err(BancoError::InvalidArgument(_))
        ));
        assert_eq!(*store.1.lock().unwrap(), 0);
        let p = &collection_puzzles(Some(PuzzleTier::MateIn1))[0];
        let vs = VsComputer::try_puzzle(p.id.clone(), progress.clone(), 100, l).unwrap();
        assert_eq!(progress.record(p.id.clone()).unwrap().attempts, 1);
        // A wrong move: answered, taken back, counted, named.
        let start = wait_for(&rx, |s| s.your_turn);
        let g = crate::Game::from_fen(crate::GameKind::Xiangqi, p.puzzle.fen.clone()).unwrap();
        let wrong = (g.legal_moves().unwrap().into_iter())
            .find(|&m| {
                let t = g.copy().unwrap();
                t.play(m).unwrap();
                t.status().unwrap().outcome.is_none()
            })
            .unwrap();
        let played = vs.play(wrong).unwrap();
        let back = wait_for(&rx, |s| {
            s.puzzle.as_ref().is_some_and(|p| p.wrong_moves == 1)
        });
        assert_eq!(
            (back.fen.clone(), back.your_turn),
            (start.fen.clone(), true)
        );
        match back.puzzle.unwrap().notice {
            Some(PuzzleNotice::WrongMoveTakenBack { played: m, reply }) => {
                assert_eq!(m.coordinate, played.coordinate);
                assert!(reply.is_some());
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(vs.resign(), Err(BancoError::NotAvailable(_))));
        vs.clear_notice().unwrap();
        assert_eq!(vs.state().unwrap().puzzle.unwrap().notice, None);
        vs.play_text(p.solution[0].clone()).unwrap();
        let status = vs.state().unwrap().puzzle.unwrap();
        assert!(status.solved);
        assert_eq!(
            status.notice,
            Some(PuzzleNotice::Solved {
                hints_used: 0,
                wrong_moves: 1
            })
        );
        vs.end().unwrap();
        // The store holds what the try recorded; a damaged one starts afresh, once told.
        let again = PuzzleProgress::open(store.clone());
        assert!(again.is_solved(p.id.clone()).unwrap());
        store.save(vec![1, 2, 3]);
        let fresh = PuzzleProgress::open(store.clone());
        assert!(matches!(
            fresh.take_notice(),
            Some(PuzzleNotice::RecordDamaged { .. })
        ));
        assert_eq!(fresh.take_notice(), None);
        assert!(!fresh.is_solved(p.id.clone()).unwrap());
    }
}
