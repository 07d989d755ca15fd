//! The Lines race in a [`NetMatch`]: both players on identical boards at the same time
//! (banco-protocol's [`race`](banco_protocol::race): a seed neither side chose alone, every
//! move replayed on a replica of the sender's board). This module adds what a screen needs:
//! proposing and playing the race (moves, or taps through [`NetMatch::race_tap`]), and a [`RaceView`] — our board, the opponent's replica
//! with its live score and ball count, the time left and the result from our side.
//!
//! ```no_run
//! use banco_app::network::{HostOptions, NetEvent, NetMatch, NetObserver, RaceUpdate};
//! use banco_game::{Color, GameKind};
//! use banco_protocol::race::RaceOptions;
//! use std::sync::Arc;
//! struct Print;
//! impl NetObserver for Print {
//!     fn event(&self, e: NetEvent) {
//!         if let NetEvent::Race(RaceUpdate::OpponentMoved { score, balls, .. }) = e {
//!             println!("opponent {score} points, {balls} balls");
//!         }
//!     }
//! }
//! let options = HostOptions::new("An", "0.0.0.0:7368".parse()?, vec![GameKind::Lines])
//!     .racing(RaceOptions { start_balls: 5, time_limit_s: 120, preview: false, ..RaceOptions::default() }, Color::Red);
//! let host = NetMatch::host(options, Arc::new(Print))?;
//! // … the guest joins, both confirm the code, the guest accepts the race …
//! if let Some(race) = host.race() {
//!     if let Some((from, to)) = race.board.as_ref().and_then(|b| b.any_move()) {
//!         let turn = host.race_move(from, to)?;
//!         println!("the ball goes along {} cells", turn.path.cells().len());
//!     }
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::{NetError, NetMatch, lock};
use crate::lines_pick::{LinesPick, LinesTap};
use banco_game::{Color, ScoreGame};
use banco_lines::{Cell, LinesGame, MoveError, TurnReport};
use banco_protocol::race::{Race, RaceEnd, RaceError, RaceOptions, RaceResult};
use banco_protocol::{ActionError, Session};

/// What the race reports, in order, inside [`NetEvent::Race`](super::NetEvent::Race).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RaceUpdate {
    /// The seed is agreed: both boards are set up and the clock runs.
    Started {
        /// The agreed options.
        options: RaceOptions,
        /// The colour naming our board.
        your_color: Color,
    },
    /// The opponent played a move, checked on our replica of its board.
    OpponentMoved {
        /// Its turn number (0 = first).
        turn: u32,
        /// Its score now (computed here from its moves).
        score: u32,
        /// Balls on its board now.
        balls: u32,
    },
    /// Our time is up: we can no longer move (the race ends when the opponent's is too).
    TimeUp,
    /// The race is over.
    Over {
        /// The result, the same on both devices.
        result: RaceResult,
        /// The result from our side, in words ("You won the race 120 : 80").
        text: String,
    },
}

/// Everything a screen shows of a race.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaceView {
    /// The agreed options.
    pub options: RaceOptions,
    /// The colour naming our board.
    pub your_color: Color,
    /// Our board, once the seed is agreed.
    pub board: Option<LinesGame>,
    /// Our replica of the opponent's board (its moves replayed here), once started.
    pub opponent: Option<LinesGame>,
    /// Our score.
    pub score: u32,
    /// The opponent's score, computed from its moves.
    pub opponent_score: u32,
    /// Balls on the opponent's board.
    pub opponent_balls: u32,
    /// Moves the opponent played.
    pub opponent_turns: u32,
    /// Milliseconds of our time left (`None`: no limit, or not started).
    pub time_left_ms: Option<u64>,
    /// We can move now (started, our time not up, board not full, race not over).
    pub can_move: bool,
    /// The result, once over.
    pub result: Option<RaceResult>,
    /// The result from our side, in words, once over.
    pub result_text: Option<String>,
}

impl RaceView {
    /// The view of `race` at `now` (milliseconds of the session's clock).
    #[must_use]
    pub fn of(race: &Race, now: u64) -> RaceView {
        let me = race.me();
        let board = race.board(me).cloned();
        let opponent = race.board(me.other()).cloned();
        let result = race.result().cloned();
        RaceView {
            options: race.options(),
            your_color: me,
            score: board.as_ref().map_or(0, ScoreGame::score),
            opponent_score: opponent.as_ref().map_or(0, ScoreGame::score),
            opponent_balls: opponent
                .as_ref()
                .map_or(0, |g| g.board().ball_count() as u32),
            opponent_turns: opponent.as_ref().map_or(0, ScoreGame::turns),
            time_left_ms: race.time_left(now),
            can_move: can_move(race, now),
            result_text: result.as_ref().map(|r| race_result_text(r, me)),
            result,
            board,
            opponent,
        }
    }
}

/// What a race called off for want of a seed says, on both sides ([`RaceEnd::NoSeed`]).
pub const NO_SEED_TEXT: &str = "The race was called off: the seed was not agreed in time (the link, or the other device), so it has no result";

/// True while our side of `race` can move at `now`: started, not done, time left.
fn can_move(race: &Race, now: u64) -> bool {
    race.is_started() && !race.is_done(race.me()) && race.time_left(now).is_none_or(|t| t > 0)
}

/// A race result from `me`'s side, in words: `"You won the race 120 : 80"`, `"You lost
/// the race: you resigned (40 : 60)"`, `"The race is a draw 50 : 50"`, `"You won the race:
/// the other player cheated (…)"`, `"The race was called off: …"` (the seed was not
/// agreed in time). Scores are ours first.
#[must_use]
pub fn race_result_text(result: &RaceResult, me: Color) -> String {
    let (mine, theirs) = (result.scores[me.index()], result.scores[me.other().index()]);
    let verdict = match result.winner {
        Some(w) if w == me => "You won the race",
        Some(_) => "You lost the race",
        None => "The race is a draw",
    };
    match &result.end {
        RaceEnd::NoSeed => NO_SEED_TEXT.to_owned(),
        RaceEnd::BothResigned => format!("{verdict}: you both resigned ({mine} : {theirs})"),
        _ if result.winner.is_none() => format!("{verdict} {mine} : {theirs}"),
        RaceEnd::Finished => format!("{verdict} {mine} : {theirs}"),
        RaceEnd::Resigned(c) if *c == me => format!("{verdict}: you resigned ({mine} : {theirs})"),
        RaceEnd::Resigned(_) => {
            format!("{verdict}: the other player resigned ({mine} : {theirs})")
        }
        RaceEnd::Cheated(c, why) if *c == me => {
            format!("{verdict}: the other device refused your moves ({why})")
        }
        RaceEnd::Cheated(_, why) => format!("{verdict}: the other player cheated ({why})"),
    }
}

fn refused(e: impl ToString) -> NetError {
    NetError::Refused(e.to_string())
}

/// Cell `index` of a race board (0..81), or the refusal of a solo game's move to it.
fn cell_at(index: u8) -> Result<Cell, NetError> {
    let index = usize::from(index);
    Cell::from_index(index)
        .map_err(|_| NetError::Race(RaceError::Move(MoveError::OutOfRange(index))))
}

impl NetMatch {
    fn with_session<R>(
        &self,
        f: impl FnOnce(&mut Session<crate::any::AnyGame>, u64) -> R,
    ) -> Result<R, NetError> {
        self.with_driver(|d| d.with_session(f))
    }

    /// Proposes a Lines race with `options`, our board named `color` (the other player
    /// accepts it like any proposal, [`NetMatch::accept_proposal`]).
    pub fn propose_race(&self, options: RaceOptions, color: Color) -> Result<(), NetError> {
        self.with_session(|s, now| s.propose_race(options, color, now))?
            .map_err(|e: ActionError| refused(e))
    }

    /// Proposes the race just run (or running) anew: the same options, our board named as
    /// before; once accepted both boards start from a new seed. What
    /// [`NetMatch::propose_rematch`] does after a race. Refused before any race, and while
    /// one is on.
    pub fn propose_race_again(&self) -> Result<(), NetError> {
        let race = self.race().ok_or(NetError::NoGame)?;
        self.propose_race(race.options, race.your_color)
    }

    /// Plays a move on our race board and sends it; the report carries the path the ball
    /// takes (for the animation), the cleared balls and the landed ones.
    pub fn race_move(&self, from: Cell, to: Cell) -> Result<TurnReport, NetError> {
        let report = self.send_race_move(from, to)?;
        lock(&self.race_pick).pick.clear();
        Ok(report)
    }

    fn send_race_move(&self, from: Cell, to: Cell) -> Result<TurnReport, NetError> {
        Ok(self.with_session(|s, now| s.race_move(from, to, now))??)
    }

    /// Plays a move given by cell indices (0..81, row by row from a1); a cell off the
    /// board is refused as a solo game refuses it ([`MoveError::OutOfRange`]).
    pub fn race_move_indices(&self, from: u8, to: u8) -> Result<TurnReport, NetError> {
        self.race_move(cell_at(from)?, cell_at(to)?)
    }

    /// A tap on cell `cell` (0..81) of our race board: picks a ball, picks another, puts
    /// it down, or moves the picked ball there and sends the move (see
    /// [`crate::lines_pick`]). Ignored while we cannot move.
    pub fn race_tap(&self, cell: u8) -> Result<LinesTap, NetError> {
        let cell = cell_at(cell)?;
        let mut pick = lock(&self.race_pick);
        let Some(mut board) = self.race().filter(|r| r.can_move).and_then(|r| r.board) else {
            pick.pick.clear();
            return Ok(LinesTap::Ignored);
        };
        pick.follow(board.seed());
        pick.pick.tap(&mut board, cell, |_, from, to| {
            self.send_race_move(from, to)
        })
    }

    /// The picked ball on our race board: none once we cannot move, nor in a race other
    /// than the one it was picked in.
    #[must_use]
    pub fn race_selected(&self) -> Option<Cell> {
        // Read in place: a shell asks at every refresh, and a view would copy both boards.
        let seed = lock(&self.driver)
            .as_ref()?
            .read_session(|s, now| {
                let race = s.race().filter(|r| can_move(r, now))?;
                race.board(race.me()).map(LinesGame::seed)
            })
            .ok()
            .flatten()?;
        let mut pick = lock(&self.race_pick);
        pick.follow(seed);
        pick.pick.selected()
    }

    /// Resigns the race (we lose); refused once our time is up or our board is full.
    pub fn race_resign(&self) -> Result<(), NetError> {
        Ok(self.with_session(|s, now| s.race_resign(now))??)
    }

    /// The race (running or over) as a screen shows it, once one was accepted.
    #[must_use]
    pub fn race(&self) -> Option<RaceView> {
        lock(&self.driver)
            .as_ref()?
            .read_session(|s, now| s.race().map(|r| RaceView::of(r, now)))
            .ok()
            .flatten()
    }
}

/// The picked ball on our race board, and the race it was picked in (by its seed): a
/// ball picked when a race ended is not carried into the next one.
#[derive(Debug, Default)]
pub(super) struct RacePick {
    seed: Option<[u8; 32]>,
    pick: LinesPick,
}

impl RacePick {
    /// Puts the picked ball down if it was picked in a race other than the one of `seed`.
    fn follow(&mut self, seed: [u8; 32]) {
        if self.seed != Some(seed) {
            self.seed = Some(seed);
            self.pick.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_protocol::race::RaceFault;

    #[test]
    fn results_in_words_from_each_side() {
        let r = RaceResult {
            scores: [120, 80],
            turns: [40, 38],
            winner: Some(Color::Red),
            end: RaceEnd::Finished,
        };
        assert_eq!(
            race_result_text(&r, Color::Red),
            "You won the race 120 : 80"
        );
        assert_eq!(
            race_result_text(&r, Color::Black),
            "You lost the race 80 : 120"
        );
        let resigned = RaceResult {
            end: RaceEnd::Resigned(Color::Black),
            ..r.clone()
        };
        assert_eq!(
            race_result_text(&resigned, Color::Black),
            "You lost the race: you resigned (80 : 120)"
        );
        let draw = RaceResult {
            scores: [50, 50],
            winner: None,
            ..r.clone()
        };
        assert_eq!(
            race_result_text(&draw, Color::Red),
            "The race is a draw 50 : 50"
        );
        let late = RaceResult {
            end: RaceEnd::Cheated(
                Color::Black,
                RaceFault::MoveAfterTimeUp {
                    turn: 14,
                    late_s: 15,
                },
            ),
            ..r
        };
        assert_eq!(
            race_result_text(&late, Color::Red),
            "You won the race: the other player cheated (the other player kept moving after the time was up: its move 14 came 15 s after its time limit)"
        );
        // Called off for want of a seed: the same words on both sides, the boards aside.
        let called_off = RaceResult {
            scores: [120, 0],
            turns: [30, 0],
            winner: None,
            end: RaceEnd::NoSeed,
        };
        for me in Color::ALL {
            assert_eq!(race_result_text(&called_off, me), NO_SEED_TEXT);
        }
    }
}
