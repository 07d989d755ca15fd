//! The Lines race in `banco host --game lines` / `banco join`: our board as in `banco play
//! --game lines` (with `--preview`, the next balls' spots as in `banco play --game lines
//! --preview`: lower-case letters on the board, `next Rc5 Gd7 Ba1`), a line with the
//! opponent's live score and ball count, and at the end the last line `result R-B scores
//! RED:BLACK turns RED:BLACK end END` — the same on both sides (R-B as in the board games:
//! 1-0 when the first board wins, 1/2-1/2 for equal scores, `*` and `end no-seed` for a
//! race called off because the seed was not agreed in time: the side that called it off
//! tells the other once the link is back, so a `banco` that exits first leaves the other
//! side with the result it reached alone).
//!
//! With `--ai` the computer plays our board as fast as `--movetime` allows (a move every
//! `movetime` milliseconds at most).

use super::{HostArgs, Table, report, shown};
use crate::CliError;
use crate::cmd_lines::{print_turn, render_with_spots, spots_of};
use banco_app::lines::parse_move;
use banco_app::network::{RaceUpdate, RaceView};
use banco_game::{Color, GameKind};
use banco_lines::CellSet;
use banco_lines::ai::{self, Budget};
use banco_protocol::race::{RaceEnd, RaceResult};
use std::time::{Duration, Instant};

/// `host`'s race options (`--balls`, `--race-secs`, `--preview`) refused for a board game
/// rather than ignored (a default given again cannot be told from none), as `banco play`
/// refuses Lines' options.
pub(super) fn refuse_race_options(args: &HostArgs, game: GameKind) -> Result<(), CliError> {
    let given = [
        ("--balls", args.balls != super::RACE_BALLS),
        ("--race-secs", args.race_secs != super::RACE_SECS),
        ("--preview", args.preview),
    ];
    match given.iter().find(|(_, given)| *given) {
        Some((flag, _)) if game != GameKind::Lines => Err(CliError::input(format!(
            "{flag} is a rule of the Lines race (--game lines), not of {game}"
        ))),
        _ => Ok(()),
    }
}

/// The last line of a race, the same on both sides.
pub(super) fn result_line(r: &RaceResult) -> String {
    let score = match r.winner {
        Some(Color::Red) => "1-0",
        Some(Color::Black) => "0-1",
        None if r.end == RaceEnd::NoSeed => "*",
        None => "1/2-1/2",
    };
    let end = match &r.end {
        RaceEnd::Finished => "finished".to_owned(),
        RaceEnd::BothResigned => "resigned-both".to_owned(),
        RaceEnd::NoSeed => "no-seed".to_owned(),
        RaceEnd::Resigned(c) => format!(
            "resigned-{}",
            if *c == Color::Red { "red" } else { "black" }
        ),
        RaceEnd::Cheated(c, _) => {
            format!("cheated-{}", if *c == Color::Red { "red" } else { "black" })
        }
    };
    format!(
        "result {score} scores {}:{} turns {}:{} end {end}",
        r.scores[0], r.scores[1], r.turns[0], r.turns[1]
    )
}

impl Table {
    /// Prints our race board, the next colours, our score and the opponent's line.
    pub(super) fn show_race(&self, path: CellSet) {
        let Some(v) = self.m.race() else { return };
        let Some(board) = &v.board else { return };
        let spots = spots_of(board);
        out!(
            "{}",
            render_with_spots(board.board(), path, &spots, self.style)
        );
        outln!("{}", status_line(&v));
        if v.can_move && self.ai.is_none() {
            outln!("your move (a1 e5), or resign, board, quit:");
        }
    }

    /// A race event.
    pub(super) fn on_race(&mut self, u: RaceUpdate) {
        match u {
            RaceUpdate::Started {
                options,
                your_color,
            } => {
                outln!(
                    "the race starts ({}): your board is {}",
                    options,
                    if your_color == Color::Red {
                        "red"
                    } else {
                        "black"
                    }
                );
                if let Some(path) = &self.save_at_end {
                    // A guest learns that it races only from the proposal (`host` and
                    // `join --game lines` refuse `--save` at the start).
                    outln!("--save {path}: a race has no record to save; nothing is written");
                }
                self.racing = true;
                self.show_race(CellSet::EMPTY);
                self.next_race_move = Some(Instant::now());
            }
            RaceUpdate::OpponentMoved { turn, score, balls } => {
                outln!("they: move {} score {score} balls {balls}", turn + 1);
            }
            RaceUpdate::TimeUp => {
                outln!("your time is up; waiting for the other player's");
                self.next_race_move = None;
            }
            RaceUpdate::Over { result, text } => {
                self.over = true;
                self.racing = false;
                self.next_race_move = None;
                outln!("race over: {}", shown(&text));
                outln!("{}", result_line(&result));
                self.finish_by = Some(Instant::now() + super::FINISH_GRACE);
            }
        }
    }

    /// How long the event loop may wait before the computer's next race move.
    pub(super) fn race_wait(&self) -> Option<Duration> {
        self.next_race_move
            .filter(|_| self.ai.is_some() && self.racing)
            .map(|t| t.saturating_duration_since(Instant::now()))
    }

    /// The computer plays our next race move if it is time.
    pub(super) fn maybe_ai_race_move(&mut self) {
        if self.ai.is_none() || !self.racing || self.over {
            return;
        }
        if self.next_race_move.is_none_or(|t| Instant::now() < t) {
            return;
        }
        self.next_race_move = Some(Instant::now() + Duration::from_millis(self.movetime));
        let Some(v) = self.m.race() else { return };
        let Some(game) = v.board.as_ref().filter(|_| v.can_move) else {
            return;
        };
        let budget = Budget::hint();
        let seed = u64::from(banco_game::ScoreGame::turns(game));
        let Some(mv) = ai::hint(game, &budget, seed)
            .map(|h| h.mv)
            .or_else(|| ai::greedy_move(game))
        else {
            self.next_race_move = None;
            return;
        };
        match self.m.race_move(mv.from, mv.to) {
            Ok(turn) => {
                outln!("you play {} {} (+{})", mv.from, mv.to, turn.points);
                self.show_race(path_set(&turn));
            }
            Err(e) => outln!("could not play {} {}: {e}", mv.from, mv.to),
        }
    }

    /// A line typed during the race; true if it was a race command.
    pub(super) fn on_race_line(&mut self, text: &str) -> bool {
        if !self.racing {
            return false;
        }
        let lower = text.to_ascii_lowercase();
        match lower.split_whitespace().next().unwrap_or("") {
            "board" => self.show_race(CellSet::EMPTY),
            "resign" => report(self.m.race_resign()),
            "hint" | "undo" | "redo" => {
                outln!("no hint or undo in a race: both players race on their own boards");
            }
            "save" | "load" => {
                outln!("a race is not saved: it is played to its end (or resigned) in one sitting");
            }
            _ => match parse_move(text) {
                Ok((from, to)) => match self.m.race_move(from, to) {
                    Ok(turn) => {
                        let path = print_turn(&turn);
                        self.show_race(path);
                    }
                    Err(e) => outln!("{e}"),
                },
                Err(e) => outln!("{e}"),
            },
        }
        true
    }
}

fn path_set(turn: &banco_lines::TurnReport) -> CellSet {
    let mut set = CellSet::EMPTY;
    for &c in turn.path.cells() {
        set.insert(c);
    }
    set
}

fn status_line(v: &RaceView) -> String {
    let next = v
        .board
        .as_ref()
        .map(|g| {
            let spots = g.next_spots();
            g.next_colors()
                .iter()
                .enumerate()
                .map(|(k, b)| match spots.get(k) {
                    Some(cell) => format!("{}{cell}", b.letter()),
                    None => b.letter().to_string(),
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default();
    let time = v
        .time_left_ms
        .map_or_else(String::new, |t| format!("  time {} s", t.div_ceil(1000)));
    format!(
        "score {}  next {next}{time}  |  opponent score {} balls {} moves {}",
        v.score, v.opponent_score, v.opponent_balls, v.opponent_turns
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_line_names_the_winner_scores_and_end() {
        let r = RaceResult {
            scores: [40, 90],
            turns: [30, 31],
            winner: Some(Color::Black),
            end: RaceEnd::Resigned(Color::Red),
        };
        assert_eq!(
            result_line(&r),
            "result 0-1 scores 40:90 turns 30:31 end resigned-red"
        );
        // A race called off for want of a seed has no result, as PGN writes it.
        let off = RaceResult {
            scores: [0, 0],
            turns: [0, 0],
            winner: None,
            end: RaceEnd::NoSeed,
        };
        assert_eq!(
            result_line(&off),
            "result * scores 0:0 turns 0:0 end no-seed"
        );
    }
}
