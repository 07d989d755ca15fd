//! The clock of a game against the clock: the front end passes the time in (milliseconds
//! of a monotonic clock) and the session counts it, ends the game on time, and keeps the
//! time left in the save.
//!
//! ```
//! use banco_app::lines::LinesSession;
//! use banco_lines::Settings;
//!
//! let mut s = LinesSession::new(Settings::default(), [5; 32]);
//! s.start_clock(60_000, 1_000);
//! assert_eq!(s.tick(31_000), Some(30_000));
//! assert_eq!(s.tick(61_000), Some(0));
//! assert!(s.is_over() && s.is_time_up());
//! ```

use super::LinesSession;
use banco_game::ScoreGame;

/// The clock of a game against the clock: its time limit (`None`: a game saved before the
/// limit was saved), the time left when last counted, and since when it runs (`None`:
/// stopped, e.g. a continued game until its screen shows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Clock {
    pub(super) limit_ms: Option<u64>,
    pub(super) left_ms: u64,
    pub(super) running_since: Option<u64>,
    /// Stopped by a full board, not paused: the first [`LinesSession::tick`] after an
    /// undo that frees the board starts it again.
    pub(super) held: bool,
}

impl LinesSession {
    /// The game was played against the clock and its time ran out: it ends where it
    /// stands (no move, undo, redo or hint any more; nothing picked) and may enter the
    /// best scores ([`LinesSession::record_result`]). Clocks are the front end's: the game
    /// has none.
    pub fn end_on_time(&mut self) {
        self.time_up = true;
        self.pick.clear();
        if let Some(c) = &mut self.clock {
            c.left_ms = 0;
            c.running_since = None;
            c.held = false;
        }
    }

    /// Plays this game against the clock: `limit_ms` from `now` (milliseconds of a
    /// monotonic clock the front end passes in, here and to every clock call). The limit
    /// is part of the game's kind in the best scores ([`LinesSession::best_kind`]).
    pub fn start_clock(&mut self, limit_ms: u64, now: u64) {
        self.clock = Some(Clock {
            limit_ms: Some(limit_ms),
            left_ms: limit_ms,
            running_since: (!self.is_over()).then_some(now),
            held: self.held_by_board(),
        });
    }

    /// True when a full board, not the time, ended the game: its clock stands until an
    /// undo frees the board.
    fn held_by_board(&self) -> bool {
        self.game.is_over() && !self.time_up
    }

    /// Counts the clock at `now`: the time left (`None` without a clock). When it reaches
    /// 0 the game ends on time ([`LinesSession::end_on_time`]); a full board stops it, and
    /// an undo that frees the board starts it again from this call.
    pub fn tick(&mut self, now: u64) -> Option<u64> {
        let over = self.game.is_over();
        let c = self.clock.as_mut()?;
        if let Some(since) = c.running_since {
            c.left_ms = c.left_ms.saturating_sub(now.saturating_sub(since));
            c.running_since = (!over).then_some(now);
            c.held = over;
        } else if c.held && !over {
            // The board the clock stopped on was freed by an undo.
            c.running_since = Some(now);
            c.held = false;
        }
        let left = c.left_ms;
        if left == 0 && !self.time_up && !over {
            self.end_on_time();
        }
        Some(left)
    }

    /// Stops the clock at `now` (the game's screen is left); [`LinesSession::resume_clock`]
    /// starts it again. A saved game keeps the time left as last counted.
    pub fn pause_clock(&mut self, now: u64) {
        self.tick(now);
        if let Some(c) = &mut self.clock {
            c.running_since = None;
            c.held = false;
        }
    }

    /// Starts a stopped clock at `now` (a continued game, back on screen).
    pub fn resume_clock(&mut self, now: u64) {
        let playing = !self.is_over();
        let held = self.held_by_board();
        if let Some(c) = self.clock.as_mut().filter(|c| c.running_since.is_none()) {
            c.running_since = playing.then_some(now);
            c.held = held;
        }
    }

    /// Plays on without the clock, for a front end that keeps no time (the terminal) given
    /// a game saved against the clock: from now on the game is untimed, and it ranks among
    /// untimed games ([`LinesSession::best_kind`]) — no advantage over them, whose players
    /// had all the time they wanted. True if the game had a clock; a finished game keeps
    /// it (over on time, or full, it is of the kind it was entered under).
    pub fn play_untimed(&mut self) -> bool {
        if self.is_over() || self.clock.is_none() {
            return false;
        }
        self.clock = None;
        true
    }

    /// True once [`LinesSession::end_on_time`] ended the game.
    #[must_use]
    pub const fn is_time_up(&self) -> bool {
        self.time_up
    }
}
