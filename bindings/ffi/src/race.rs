//! The Lines race through [`Match`]: propose it, play moves on our board (or taps,
//! [`Match::race_tap`], picking a ball then its target like the solo game) (each returning
//! the path the ball takes, for the animation), resign, and read both boards with the
//! scores and the time left ([`RaceState`]); the race's events arrive as
//! [`MatchEvent::Race`](crate::MatchEvent::Race) with a [`RaceUpdate`].
//!
//! ```no_run
//! # use banco_ffi::{Color, Match, RaceSettings};
//! # fn race(m: &Match) -> Result<(), banco_ffi::BancoError> {
//! m.propose_race(RaceSettings { start_balls: 5, time_limit_s: 120, preview: true }, Color::Red)?;
//! // … once MatchEvent::Race { update: RaceUpdate::Started { .. } } arrived:
//! if let Some(state) = m.race_state() {
//!     println!("{} points against {}", state.score, state.opponent_score);
//! }
//! # Ok(()) }
//! ```

use crate::error::{BancoError, guard};
use crate::lines::{LinesTap, cell_codes};
use crate::net::Match;
use crate::types::Color;
use banco_app::network::{RaceUpdate as AppUpdate, RaceView};
use banco_game::ScoreGame;
use banco_lines::{LinesGame, MoveError as LinesMoveError};
use banco_protocol::race::{RaceEnd, RaceError, RaceOptions, RaceResult};

/// What a race is played with (agreed by accepting the proposal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct RaceSettings {
    /// Balls on each board at the start: 3 or 5.
    pub start_balls: u8,
    /// Time limit in seconds, 1 to 65535: every race has one (0 is refused when
    /// proposing, and a proposal with 0 is declined as untimed). The race ends when both
    /// boards are final: full, or out of time.
    pub time_limit_s: u16,
    /// Lines 98's preview on both boards: each shows where its next balls land
    /// ([`RaceBoard::next_spots`]). Off unless given (Kotlin and Swift callers that do not
    /// name it compile unchanged); the guest sees it in the proposal (`MatchOffer.race`,
    /// `MatchState.offered_race`) before accepting.
    #[uniffi(default = false)]
    pub preview: bool,
}

impl From<RaceOptions> for RaceSettings {
    fn from(o: RaceOptions) -> Self {
        RaceSettings {
            start_balls: o.start_balls,
            time_limit_s: o.time_limit_s,
            preview: o.preview,
        }
    }
}

impl From<RaceSettings> for RaceOptions {
    fn from(s: RaceSettings) -> Self {
        RaceOptions {
            start_balls: s.start_balls,
            time_limit_s: s.time_limit_s,
            preview: s.preview,
            ..RaceOptions::default()
        }
    }
}

/// How a race ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum RaceEnding {
    /// Both boards full, or the time limit passed: the higher score wins.
    Finished,
    /// This side resigned (and lost).
    Resigned {
        /// Who.
        by: Color,
    },
    /// Both players resigned at once (their resignations crossed): a draw.
    BothResigned,
    /// This side broke the rules (an impossible move, a changed seed, a false stop, moves
    /// after its time was up); `why` says which, in words.
    Cheated {
        /// Who.
        by: Color,
        /// What it did, in words.
        why: String,
    },
    /// The race never started on one side: a part of the seed did not arrive in time (a
    /// link down at the start, or an app that walked away with the seed). Called off
    /// without a winner, scores and turns 0: on both devices once the link carries the
    /// news (an app from before this rule, on the other device, keeps its own result).
    NoSeed,
}

/// The end of a race, the same on both devices.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct RaceOutcome {
    /// Red's board's score.
    pub red_score: u32,
    /// Black's board's score.
    pub black_score: u32,
    /// Moves played on Red's board.
    pub red_turns: u32,
    /// Moves played on Black's board.
    pub black_turns: u32,
    /// The winner; `None` for a draw (equal scores, or both resigned) and for a race called
    /// off ([`RaceEnding::NoSeed`]).
    pub winner: Option<Color>,
    /// Why it ended.
    pub ending: RaceEnding,
    /// The result from our side, in words ("You won the race 120 : 80").
    pub text: String,
}

impl RaceOutcome {
    fn of(r: &RaceResult, text: String) -> RaceOutcome {
        RaceOutcome {
            red_score: r.scores[0],
            black_score: r.scores[1],
            red_turns: r.turns[0],
            black_turns: r.turns[1],
            winner: r.winner.map(Color::from),
            ending: match &r.end {
                RaceEnd::Finished => RaceEnding::Finished,
                RaceEnd::Resigned(c) => RaceEnding::Resigned { by: (*c).into() },
                RaceEnd::BothResigned => RaceEnding::BothResigned,
                RaceEnd::Cheated(c, why) => RaceEnding::Cheated {
                    by: (*c).into(),
                    why: why.to_string(),
                },
                RaceEnd::NoSeed => RaceEnding::NoSeed,
            },
            text,
        }
    }
}

/// A race event, in order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum RaceUpdate {
    /// The seed is agreed: both boards are set up and the clock runs.
    Started {
        /// The agreed settings.
        settings: RaceSettings,
        /// The colour naming our board.
        your_color: Color,
    },
    /// The opponent played a move, checked on our replica of its board.
    OpponentMoved {
        /// Its turn number (0 = first).
        turn: u32,
        /// Its score now.
        score: u32,
        /// Balls on its board now.
        balls: u32,
    },
    /// Our time is up: no more moves here.
    TimeUp,
    /// The race is over.
    Over {
        /// The result.
        outcome: RaceOutcome,
    },
}

impl From<AppUpdate> for RaceUpdate {
    fn from(u: AppUpdate) -> Self {
        match u {
            AppUpdate::Started {
                options,
                your_color,
            } => RaceUpdate::Started {
                settings: options.into(),
                your_color: your_color.into(),
            },
            AppUpdate::OpponentMoved { turn, score, balls } => {
                RaceUpdate::OpponentMoved { turn, score, balls }
            }
            AppUpdate::TimeUp => RaceUpdate::TimeUp,
            AppUpdate::Over { result, text } => RaceUpdate::Over {
                outcome: RaceOutcome::of(&result, text),
            },
        }
    }
}

/// One race board as cells: 81 colour codes row by row from a1 (0 empty, 1–7 a colour),
/// the three announced colours (with the preview, where they land), the score and the
/// moves played.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct RaceBoard {
    /// 81 cells, index = rank × 9 + file: 0 empty, 1–7 the colour's index + 1.
    pub cells: Vec<u8>,
    /// The three announced colours (0–6).
    pub next_colors: Vec<u8>,
    /// In a race with the preview ([`RaceSettings::preview`]): the cells (0–80) where the
    /// announced balls will land, in the order of `next_colors` — draw a small ball of that
    /// colour in each (a ball whose cell the move takes lands on a random free cell). Empty
    /// in a classic race; fewer than three only on a nearly full board.
    pub next_spots: Vec<u8>,
    /// The score.
    pub score: u32,
    /// Moves played.
    pub turns: u32,
    /// Balls on the board.
    pub balls: u32,
    /// The board is full.
    pub full: bool,
}

impl RaceBoard {
    fn of(g: &LinesGame) -> RaceBoard {
        let board = g.board();
        RaceBoard {
            cells: cell_codes(board),
            next_colors: g.next_colors().iter().map(|b| b.index() as u8).collect(),
            next_spots: g.next_spots().into_iter().map(u8::from).collect(),
            score: g.score(),
            turns: g.turns(),
            balls: board.ball_count() as u32,
            full: board.is_full(),
        }
    }
}

/// Everything a screen shows of a race: both boards (ours, and our replica of the
/// opponent's), the time left and the result.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct RaceState {
    /// The agreed settings.
    pub settings: RaceSettings,
    /// The colour naming our board.
    pub your_color: Color,
    /// Our board, once started.
    pub board: Option<RaceBoard>,
    /// The opponent's board as replayed here, once started.
    pub opponent: Option<RaceBoard>,
    /// Our score.
    pub score: u32,
    /// The opponent's score (computed here from its moves).
    pub opponent_score: u32,
    /// Balls on the opponent's board.
    pub opponent_balls: u32,
    /// Moves the opponent played (as received here).
    pub opponent_turns: u32,
    /// Milliseconds of our time left (`None`: no limit, or not started).
    pub time_left_ms: Option<u64>,
    /// We can move now.
    pub can_move: bool,
    /// The result, once over.
    pub outcome: Option<RaceOutcome>,
}

impl From<RaceView> for RaceState {
    fn from(v: RaceView) -> Self {
        RaceState {
            settings: v.options.into(),
            your_color: v.your_color.into(),
            board: v.board.as_ref().map(RaceBoard::of),
            opponent: v.opponent.as_ref().map(RaceBoard::of),
            score: v.score,
            opponent_score: v.opponent_score,
            opponent_balls: v.opponent_balls,
            opponent_turns: v.opponent_turns,
            time_left_ms: v.time_left_ms,
            can_move: v.can_move,
            outcome: v
                .result
                .as_ref()
                .map(|r| RaceOutcome::of(r, v.result_text.clone().unwrap_or_default())),
        }
    }
}

/// A race move played: the path the ball took (cell indices, start and destination
/// included, for the animation), the balls cleared and landed, the points.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct RaceTurn {
    /// The cells the ball passes, in order.
    pub path: Vec<u8>,
    /// Cells cleared by the move's lines.
    pub cleared: Vec<u8>,
    /// Cells where new balls landed, in order.
    pub landed: Vec<u8>,
    /// Cells cleared by lines the landing completed.
    pub cleared_by_landing: Vec<u8>,
    /// Points this turn.
    pub points: u32,
    /// The board is now full.
    pub game_over: bool,
}

impl From<banco_lines::TurnReport> for RaceTurn {
    fn from(t: banco_lines::TurnReport) -> Self {
        RaceTurn {
            path: t.path.cells().iter().map(|&c| u8::from(c)).collect(),
            cleared: t.cleared.iter().map(u8::from).collect(),
            landed: t.landed.iter().map(|&(c, _)| u8::from(c)).collect(),
            cleared_by_landing: t.cleared_by_landing.iter().map(u8::from).collect(),
            points: t.points,
            game_over: t.game_over,
        }
    }
}

fn refused(e: banco_app::network::NetError) -> BancoError {
    BancoError::from(e)
}

/// A refused race action as the bindings report it: a move the board refuses is refused
/// for the same reasons as a solo Lines game's (the same words), typed as a board game's
/// move is — `BadSquare` for a cell off the 9×9 board, `IllegalMove` for an empty start
/// cell, an occupied target or a walled-off one, `GameOver` once our race is done or
/// over; no race on, or its seed not agreed yet, is a `Match` refusal.
pub(crate) fn race_refusal(e: RaceError) -> BancoError {
    let text = e.to_string();
    match e {
        RaceError::Move(LinesMoveError::OutOfRange(i)) => {
            let side = banco_lines::SIZE as u8;
            crate::game::square_within(u8::try_from(i).unwrap_or(u8::MAX), side, side)
                .err()
                .unwrap_or(BancoError::IllegalMove(text))
        }
        RaceError::Move(LinesMoveError::GameOver | LinesMoveError::TimeUp)
        | RaceError::Over
        | RaceError::Done
        | RaceError::Final => BancoError::GameOver(text),
        RaceError::Move(_) => BancoError::IllegalMove(text),
        RaceError::NoRace | RaceError::NotStarted | RaceError::Session(_) => {
            BancoError::Match(text)
        }
    }
}

/// What a host proposes for a Lines race with `settings`, its board named `your_color`:
/// the Lines offer carrying the race (no rules, start position or clock), to give to
/// [`Match::host`] or [`Match::host_nearby`] with the same `offers` as a board game (the
/// race is offered with them), so that no shell builds it.
#[uniffi::export]
pub fn race_offer(settings: RaceSettings, your_color: Color) -> crate::MatchOffer {
    crate::MatchOffer {
        game: crate::GameKind::Lines,
        your_color,
        rules: None,
        start_fen: None,
        clock: None,
        race: Some(settings),
    }
}

#[uniffi::export]
impl Match {
    /// Proposes a Lines race; our board is named `color`.
    pub fn propose_race(&self, settings: RaceSettings, color: Color) -> Result<(), BancoError> {
        guard(|| {
            self.net()
                .propose_race(settings.into(), color.into())
                .map_err(refused)
        })
    }

    /// Plays a move on our race board (cell indices 0–80) and sends it. A move the board
    /// refuses is refused with the solo game's reasons, typed as a board game's move:
    /// `BadSquare` (a cell off the board), `IllegalMove` (no ball on the start cell, the
    /// target taken or walled off), `GameOver` (our race is done or over); `Match` when
    /// no race is on or it has not started.
    pub fn race_move(&self, from: u8, to: u8) -> Result<RaceTurn, BancoError> {
        guard(|| {
            self.net()
                .race_move_indices(from, to)
                .map(RaceTurn::from)
                .map_err(refused)
        })
    }

    /// A tap on cell `cell` (0–80) of our race board: picks a ball, picks another, puts
    /// the picked one down, or moves it and sends the move (see [`LinesTap`]); ignored
    /// while we cannot move.
    pub fn race_tap(&self, cell: u8) -> Result<LinesTap, BancoError> {
        guard(|| {
            let net = self.net();
            let before = net
                .race()
                .and_then(|r| r.board)
                .map(|g| *g.board())
                .unwrap_or_default();
            let tap = net.race_tap(cell).map_err(refused)?;
            let score = net.race().map_or(0, |r| r.score);
            Ok(LinesTap::of(tap, &before, score))
        })
    }

    /// The picked ball on our race board.
    pub fn race_selected(&self) -> Option<u8> {
        self.net().race_selected().map(u8::from)
    }

    /// Resigns the race (we lose).
    pub fn race_resign(&self) -> Result<(), BancoError> {
        guard(|| self.net().race_resign().map_err(refused))
    }

    /// The race as a screen shows it, once one was accepted.
    pub fn race_state(&self) -> Option<RaceState> {
        self.net().race().map(RaceState::from)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn the_race_settings_carry_the_preview_and_the_board_its_spots() {
        let settings = RaceSettings {
            start_balls: 5,
            time_limit_s: 60,
            preview: true,
        };
        let options = RaceOptions::from(settings);
        assert!(options.preview);
        assert_eq!(RaceSettings::from(options), settings);
        let mut game = LinesGame::new(options.settings(), [4; 32]);
        for _ in 0..5 {
            let board = RaceBoard::of(&game);
            let spots: Vec<u8> = game.next_spots().into_iter().map(u8::from).collect();
            assert_eq!(board.next_spots, spots);
            assert_eq!(board.next_spots.len(), board.next_colors.len());
            let mv = banco_lines::ai::greedy_move(&game).unwrap();
            game.play(mv).unwrap();
        }
        let classic = RaceOptions::from(RaceSettings {
            preview: false,
            ..settings
        });
        let board = RaceBoard::of(&LinesGame::new(classic.settings(), [4; 32]));
        assert!(board.next_spots.is_empty(), "no spots in a classic race");
    }
}
