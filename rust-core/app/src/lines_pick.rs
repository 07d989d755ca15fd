//! Taps on a Lines board, as every front end handles them: a tap on a ball picks it (and
//! shows where it can go), a tap on another ball picks that one instead, a tap on the
//! picked ball puts it down, and a tap on an empty cell moves the picked ball there — or,
//! when balls wall that cell off, keeps the ball picked and says why. The solo game
//! ([`LinesSession::tap`](crate::lines::LinesSession::tap)) and the race
//! ([`NetMatch::race_tap`](crate::network::NetMatch::race_tap)) both use [`LinesPick`].
//!
//! ```
//! use banco_app::lines_pick::{LinesPick, LinesTap};
//! use banco_lines::{LinesGame, Settings};
//!
//! let mut game = LinesGame::new(Settings::default(), [5; 32]);
//! let (from, to) = game.any_move().expect("a move at the start");
//! let mut pick = LinesPick::default();
//! let play = |g: &mut LinesGame, f, t| g.play_move(f, t);
//! let tap = pick.tap(&mut game, from, play)?;
//! assert!(matches!(tap, LinesTap::Selected { cell, .. } if cell == from));
//! let tap = pick.tap(&mut game, to, play)?;
//! assert!(matches!(tap, LinesTap::Moved(report) if report.path.to() == to));
//! assert_eq!(pick.selected(), None);
//! # Ok::<(), banco_lines::MoveError>(())
//! ```

use banco_game::ScoreGame;
use banco_lines::{Cell, CellSet, LinesGame, MoveError, TurnReport};

/// What a tap did (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinesTap {
    /// A ball is picked now (the first, or another one instead): ring it and mark the
    /// cells it can reach.
    Selected {
        /// The picked ball's cell.
        cell: Cell,
        /// The empty cells it can reach.
        reachable: CellSet,
    },
    /// The picked ball was tapped again: nothing is picked now.
    Deselected,
    /// The picked ball moved: the turn, with the path to animate.
    Moved(TurnReport),
    /// No free path to the tapped cell: the ball stays picked; the error says why.
    Unreachable(MoveError),
    /// Nothing to do: an empty cell with no ball picked, or a finished game.
    Ignored,
}

/// The picked ball of one Lines board (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinesPick {
    selected: Option<Cell>,
}

impl LinesPick {
    /// The picked ball's cell.
    #[must_use]
    pub const fn selected(&self) -> Option<Cell> {
        self.selected
    }

    /// Puts the picked ball down (a new game, undo, the time is up).
    pub fn clear(&mut self) {
        self.selected = None;
    }

    /// A tap on `cell` of `game`; a move is played with `play` (on `game` itself, or the
    /// race's move that also sends it). A move `play` refuses returns its error and keeps
    /// the ball picked.
    pub fn tap<E>(
        &mut self,
        game: &mut LinesGame,
        cell: Cell,
        play: impl FnOnce(&mut LinesGame, Cell, Cell) -> Result<TurnReport, E>,
    ) -> Result<LinesTap, E> {
        if game.is_over() {
            self.selected = None;
            return Ok(LinesTap::Ignored);
        }
        if !game.board().is_empty_cell(cell) {
            if self.selected == Some(cell) {
                self.selected = None;
                return Ok(LinesTap::Deselected);
            }
            self.selected = Some(cell);
            return Ok(LinesTap::Selected {
                cell,
                reachable: game.reachable(cell),
            });
        }
        let Some(from) = self.selected.filter(|&c| !game.board().is_empty_cell(c)) else {
            self.selected = None;
            return Ok(LinesTap::Ignored);
        };
        if let Err(e) = game.check_move(from, cell) {
            return Ok(LinesTap::Unreachable(e));
        }
        let report = play(game, from, cell)?;
        self.selected = None;
        Ok(LinesTap::Moved(report))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use banco_lines::{Board, Settings};
    use std::convert::Infallible;

    fn cell(name: &str) -> Cell {
        name.parse().unwrap()
    }

    /// A game whose board is `balls` (cell name, colour letter) and nothing else.
    fn game_with(balls: &[(&str, char)]) -> LinesGame {
        let mut board = Board::default();
        for &(c, b) in balls {
            board.set(cell(c), banco_lines::Ball::from_letter(b));
        }
        LinesGame::with_board(Settings::default(), [1; 32], board)
    }

    fn tap(pick: &mut LinesPick, game: &mut LinesGame, c: &str) -> LinesTap {
        pick.tap(game, cell(c), |g, f, t| {
            Ok::<_, Infallible>(g.play_move(f, t).unwrap())
        })
        .unwrap()
    }

    #[test]
    fn pick_repick_deselect_and_move() {
        let mut game = game_with(&[("a1", 'r'), ("e5", 'g')]);
        let mut pick = LinesPick::default();
        assert_eq!(tap(&mut pick, &mut game, "c3"), LinesTap::Ignored);
        assert_eq!(pick.selected(), None);
        let LinesTap::Selected { cell: c, reachable } = tap(&mut pick, &mut game, "a1") else {
            panic!("a ball is picked");
        };
        assert_eq!(c, cell("a1"));
        assert_eq!(reachable, game.reachable(cell("a1")));
        assert!(reachable.contains(cell("i9")));
        // Another ball picks that one instead.
        assert!(matches!(
            tap(&mut pick, &mut game, "e5"),
            LinesTap::Selected { cell: c, .. } if c == cell("e5")
        ));
        // The picked ball again: put down.
        assert_eq!(tap(&mut pick, &mut game, "e5"), LinesTap::Deselected);
        assert_eq!(pick.selected(), None);
        assert_eq!(tap(&mut pick, &mut game, "b2"), LinesTap::Ignored);
        // Pick, then an empty cell: the ball moves along its path.
        tap(&mut pick, &mut game, "a1");
        let LinesTap::Moved(report) = tap(&mut pick, &mut game, "a3") else {
            panic!("moved");
        };
        assert_eq!(report.path.cells().first(), Some(&cell("a1")));
        assert_eq!(report.path.to(), cell("a3"));
        assert_eq!(pick.selected(), None);
        assert!(game.board().is_empty_cell(cell("a1")));
    }

    #[test]
    fn a_walled_off_cell_keeps_the_ball_picked() {
        // a1 is boxed in by b1 and a2; c3 is empty but out of reach.
        let mut game = game_with(&[("a1", 'r'), ("b1", 'g'), ("a2", 'b')]);
        let mut pick = LinesPick::default();
        tap(&mut pick, &mut game, "a1");
        let before = game.clone();
        assert_eq!(
            tap(&mut pick, &mut game, "c3"),
            LinesTap::Unreachable(MoveError::NoPath {
                from: cell("a1"),
                to: cell("c3")
            })
        );
        assert_eq!(pick.selected(), Some(cell("a1")), "still picked");
        assert_eq!(game, before, "nothing moved");
        assert_eq!(
            MoveError::NoPath {
                from: cell("a1"),
                to: cell("c3")
            }
            .to_string(),
            "no free path from a1 to c3: balls block the way"
        );
    }

    #[test]
    fn a_refused_play_keeps_the_pick_and_a_finished_game_ignores_taps() {
        let mut game = game_with(&[("a1", 'r')]);
        let mut pick = LinesPick::default();
        pick.tap(&mut game, cell("a1"), |_, _, _| Err("unused"))
            .unwrap();
        assert_eq!(
            pick.tap(&mut game, cell("b1"), |_, _, _| Err("time is up")),
            Err("time is up")
        );
        assert_eq!(pick.selected(), Some(cell("a1")));
        // A full board: the game is over, every tap is ignored and the pick dropped.
        let full: Vec<(String, char)> = Cell::all()
            .map(|c| (c.to_string(), if u8::from(c) % 2 == 0 { 'r' } else { 'g' }))
            .collect();
        let names: Vec<(&str, char)> = full.iter().map(|(c, b)| (c.as_str(), *b)).collect();
        let mut over = game_with(&names);
        assert!(over.is_over());
        assert_eq!(
            pick.tap(&mut over, cell("a1"), |_, _, _| Err("unused")),
            Ok(LinesTap::Ignored)
        );
        assert_eq!(pick.selected(), None);
    }
}
