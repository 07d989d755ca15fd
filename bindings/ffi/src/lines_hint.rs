//! The Lines hint for a screen: [`LinesHint`] (the move, its path and why) and
//! [`LinesHintJob`], the hint of one position to think about on a worker thread while the
//! game goes on — the screen asks [`LinesGame::hint_job`] on its UI thread (quick: a
//! copy of the position), runs the job elsewhere (Monte Carlo playouts, slow on a phone), and
//! shows the answer back on its UI thread unless the position changed meanwhile.
//!
//! [`LinesGame`]'s hint methods are here. Asking counts (`view().hints_used`, once per
//! position): a game with hints ranks only among games with hints.
//!
//! ```
//! use banco_ffi::{LinesGame, LinesSettings, LinesUndo};
//! let game = LinesGame::new(LinesSettings { start_balls: 5, undo: LinesUndo::Off, preview: false }, Some(3))?;
//! let job = game.hint_job().expect("a move at the start");
//! let hint = std::thread::spawn(move || job.run()).join().unwrap().expect("a hint");
//! assert_eq!(game.hint(), Some(hint.clone()));
//! assert!(game.play(hint.from, hint.to).is_ok());
//! # Ok::<(), banco_ffi::LinesError>(())
//! ```

use crate::lines::{LinesError, LinesGame, guard};
use banco_app::lines::HintJob;
use std::sync::Arc;

/// The computer's suggestion. Kotlin: `path` is a `ByteArray`, compared with
/// `contentEquals` (see the `lines` module docs).
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct LinesHint {
    /// The ball to move.
    pub from: u8,
    /// Where to.
    pub to: u8,
    /// The path it would take (for showing the suggestion).
    pub path: Vec<u8>,
    /// Why, in words ("completes a line of 5 red (10 points)").
    pub reason: String,
    /// The move in text (`"a1 e5"`).
    pub text: String,
}

/// The hint of the position a [`crate::LinesGame`] had when [`crate::LinesGame::hint_job`]
/// was asked: [`LinesHintJob::run`] thinks, on any thread, without touching the game (which
/// goes on meanwhile). Its answer is for that position only: a screen drops it if a move,
/// undo, new game or load came since.
#[derive(uniffi::Object)]
pub struct LinesHintJob {
    job: HintJob,
}

impl LinesHintJob {
    pub(crate) const fn new(job: HintJob) -> LinesHintJob {
        LinesHintJob { job }
    }

    pub(crate) const fn job(&self) -> &HintJob {
        &self.job
    }
}

#[uniffi::export]
impl LinesHintJob {
    /// Thinks (slow: call it off the UI thread): the suggestion for the position the job was
    /// asked in, the same as [`crate::LinesGame::hint`] gave there; `null`/`nil` if there is
    /// no move (and should the hint ever fail inside Banco: a missing hint harms no game).
    pub fn run(&self) -> Option<LinesHint> {
        guard(|| {
            let game = self.job.game();
            Ok(self.job.run().and_then(|h| {
                let path = game.check_move(h.mv.from, h.mv.to).ok()?;
                Some(LinesHint {
                    from: u8::from(h.mv.from),
                    to: u8::from(h.mv.to),
                    path: path.cells().iter().map(|&c| u8::from(c)).collect(),
                    reason: h.reason.to_string(),
                    text: h.mv.to_string(),
                })
            }))
        })
        .ok()
        .flatten()
    }

    /// The turns played in the position the job was asked in (a screen may show it beside
    /// the answer, or compare it with the game's).
    pub fn turns(&self) -> u32 {
        banco_game::ScoreGame::turns(self.job.game())
    }
}

#[uniffi::export]
impl LinesGame {
    /// The computer's suggestion with its reason; `null`/`nil` once the game is over (and,
    /// should the hint ever fail inside Banco, then too: a missing hint harms no game).
    /// Asking twice gives the same hint. Asking counts (`view().hints_used`, once per
    /// position): the game then ranks among games with hints. It thinks on the calling thread (Monte Carlo
    /// playouts: tens of milliseconds on a desktop core, more on a phone) without holding
    /// the game, which other threads may use meanwhile; a screen takes a
    /// [`LinesGame::hint_job`] to a worker thread instead.
    pub fn hint(&self) -> Option<LinesHint> {
        self.hint_job()?.run()
    }

    /// The hint of the position as it stands, to think about on a worker thread
    /// ([`LinesHintJob::run`]) while the game goes on; `null`/`nil` once the game is over.
    /// Quick: it copies the position. Asking counts, as [`LinesGame::hint`] does.
    pub fn hint_job(&self) -> Option<Arc<LinesHintJob>> {
        let job = self.lock().hint_job()?;
        Some(Arc::new(LinesHintJob::new(job)))
    }

    /// True while `job`'s answer (asked by [`LinesGame::hint_job`]) is for the position on
    /// the board: false once a move, an undo, a new game, a load or the game's end left it —
    /// a late hint to drop, not to show.
    pub fn hint_is_current(&self, job: Arc<LinesHintJob>) -> bool {
        self.lock().is_current(job.job())
    }

    /// How hard the hint thinks: playouts per move, about a millisecond and a half each on a
    /// desktop core, spread over up to four cores (0 or 1: a quick judgement of every move;
    /// 30: Monte Carlo samples of the landing for the best 8 moves, the better half kept
    /// each round; 100, the default: the best 16, three times the time, and stronger:
    /// median 1,288 against 1,173 over 300 seeded games). More than 10,000 (seconds a move)
    /// is refused with `BadSettings`, and the hint keeps its budget. A settings screen offers
    /// [`crate::lines_hint_choices`]. The strength stays with this object: a new game, a
    /// restored one and every hint job asked later think as set.
    pub fn set_hint_playouts(&self, playouts: u32) -> Result<(), LinesError> {
        self.lock()
            .set_hint_playouts(playouts)
            .map_err(|e| LinesError::BadSettings(e.to_string()))
    }

    /// How hard the hint thinks, in playouts a move ([`LinesGame::set_hint_playouts`]; 100
    /// unless set).
    pub fn hint_playouts(&self) -> u32 {
        self.lock().hint_playouts()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use crate::{LinesGame, LinesSettings, LinesUndo};

    #[test]
    fn a_job_keeps_its_position_while_the_game_goes_on() {
        let settings = LinesSettings {
            start_balls: 5,
            undo: LinesUndo::Unlimited,
            preview: false,
        };
        let game = LinesGame::new(settings, Some(12)).unwrap();
        let job = game.hint_job().unwrap();
        let asked = game.hint().unwrap();
        let turn = game.play(asked.from, asked.to).unwrap();
        assert_eq!(job.turns(), 0);
        assert_eq!(game.view().turns, 1);
        // On another thread, after the move: the hint of the position it was asked in.
        let late = std::thread::spawn(move || job.run()).join().unwrap();
        assert_eq!(late, Some(asked.clone()));
        assert_eq!(turn.path, asked.path);
        game.undo().unwrap();
        assert_eq!(game.hint(), Some(asked), "the same position, the same hint");
        // Over on time: no job.
        game.start_clock(1, 0);
        game.tick(10);
        assert!(game.hint_job().is_none());
    }
}
