//! A [`LinesGame`] read back through serde is rebuilt, not trusted: its settings must be
//! playable, its start's counters within [`MAX_START_COUNT`] (a start is any position a
//! game was set up on, [`LinesGame::with_board`] or another), its moves are played again
//! from there, and the state they reach must be the one stored. Counters and undo come from
//! the replay, so data that a program or a person altered gives a [`GameDataError`] and
//! never a game whose next move overflows a counter or panics. An undo stack shorter than
//! the replay's (undo given up, as [`LinesGame::forgo_undo`] does) is kept as short: a game
//! never gets back an undo.
//!
//! ```
//! use banco_lines::{LinesGame, Settings};
//! let mut game = LinesGame::new(Settings::default(), [3; 32]);
//! let (from, to) = game.any_move().expect("a move");
//! game.play_move(from, to)?;
//! let bytes = postcard::to_allocvec(&game)?;
//! let back: LinesGame = postcard::from_bytes(&bytes)?;
//! assert_eq!(back, game);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::{LinesGame, Move, MoveError, START_BALLS, Settings, State};
use crate::spawn::Spawner;
use serde::Deserialize;

/// The most turns, points or balls drawn a stored start may hold: far past any game
/// played (a game fills its board within a few thousand turns), far below where a
/// counter could overflow.
pub const MAX_START_COUNT: u64 = 1 << 30;

/// Why a [`LinesGame`] read through serde was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameDataError {
    /// Settings no game is played with.
    #[error("the saved Lines game starts with {0} balls; a game starts with 3 or 5")]
    StartBalls(u8),
    /// A start whose turns, score or balls drawn are past [`MAX_START_COUNT`].
    #[error(
        "the saved Lines game starts after {turns} turns with {score} points and {drawn} balls drawn, past any game"
    )]
    Start {
        /// Turns before the start.
        turns: u32,
        /// Points at the start.
        score: u32,
        /// Balls drawn before the start.
        drawn: u64,
    },
    /// A move (1-based) that cannot be played where it stands.
    #[error("move {0} of the saved Lines game cannot be played: {1}")]
    Move(usize, MoveError),
    /// The state stored is not the one the moves reach, or the undo stack is not theirs.
    #[error("the saved Lines game's {0} is not the one its moves reach")]
    Mismatch(&'static str),
}

/// The fields of a [`LinesGame`] as serde reads them, before they are checked.
#[derive(Deserialize)]
pub(super) struct GameData {
    settings: Settings,
    spawner: Spawner,
    start: State,
    state: State,
    undo_stack: Vec<State>,
    moves: Vec<Move>,
    #[serde(default)]
    taken_back: Vec<Move>,
}

impl TryFrom<GameData> for LinesGame {
    type Error = GameDataError;

    fn try_from(data: GameData) -> Result<LinesGame, GameDataError> {
        let settings = data.settings;
        if !START_BALLS.contains(&settings.start_balls) {
            return Err(GameDataError::StartBalls(settings.start_balls));
        }
        // As a new game takes them: the preview draws its spots at announcement.
        let settings = settings.playable();
        let start = data.start;
        let counts = [u64::from(start.turns), u64::from(start.score), start.drawn];
        if counts.iter().any(|&n| n > MAX_START_COUNT) {
            return Err(GameDataError::Start {
                turns: start.turns,
                score: start.score,
                drawn: start.drawn,
            });
        }
        // Replayed as a save is resumed: the turns taken back must each be playable again.
        let mut game = LinesGame::from_start(settings, data.spawner, start)
            .resumed(&data.moves, &data.taken_back)
            .map_err(|(n, e)| GameDataError::Move(n, e))?;
        if game.state != data.state {
            return Err(GameDataError::Mismatch("state"));
        }
        // Live play can only have given undo up: keep the stored stack's length, which
        // must be the tail of the replay's.
        let keep = data.undo_stack.len();
        let Some(skip) = game.undo_stack.len().checked_sub(keep) else {
            return Err(GameDataError::Mismatch("undo stack"));
        };
        if game.undo_stack.get(skip..) != Some(&data.undo_stack[..]) {
            return Err(GameDataError::Mismatch("undo stack"));
        }
        game.undo_stack.drain(..skip);
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::{GameData, GameDataError};
    use crate::board::{Ball, Board, Cell};
    use crate::game::{LinesGame, MoveError, Settings, UndoError, UndoRule};

    fn data_of(game: &LinesGame) -> GameData {
        GameData {
            settings: game.settings,
            spawner: game.spawner,
            start: game.start,
            state: game.state,
            undo_stack: game.undo_stack.clone(),
            moves: game.moves.clone(),
            taken_back: game.taken_back.clone(),
        }
    }

    fn played(settings: Settings, turns: usize) -> LinesGame {
        let mut game = LinesGame::new(settings, [21; 32]);
        for _ in 0..turns {
            let Some((from, to)) = game.any_move() else {
                break;
            };
            game.play_move(from, to).unwrap();
        }
        game
    }

    #[test]
    fn games_come_back_as_they_were() {
        let unlimited = Settings {
            undo: UndoRule::Unlimited,
            ..Settings::default()
        };
        let mut undone = played(unlimited, 30);
        undone.try_undo().unwrap();
        undone.try_undo().unwrap();
        let mut spent = played(Settings::default(), 30);
        spent.try_undo().unwrap();
        let mut given_up = played(unlimited, 20);
        given_up.forgo_undo();
        let (from, to) = given_up.any_move().unwrap();
        given_up.play_move(from, to).unwrap();
        let mut board = Board::empty();
        board.set(Cell::from_index(40).unwrap(), Some(Ball::Red));
        let set_up = LinesGame::with_board(Settings::default(), [2; 32], board);
        for game in [
            played(Settings::default(), 40),
            undone,
            spent,
            given_up,
            set_up,
        ] {
            let back = LinesGame::try_from(data_of(&game)).unwrap();
            assert_eq!(back, game);
        }
    }

    #[test]
    fn a_spent_undo_stays_spent_and_a_given_up_undo_stays_given_up() {
        let mut spent = played(Settings::default(), 30);
        spent.try_undo().unwrap();
        let mut back = LinesGame::try_from(data_of(&spent)).unwrap();
        assert_eq!(back.try_undo(), Err(UndoError::Spent));
        let mut given_up = played(Settings::default(), 30);
        given_up.forgo_undo();
        let mut back = LinesGame::try_from(data_of(&given_up)).unwrap();
        assert_eq!(back.try_undo(), Err(UndoError::Nothing));
    }

    #[test]
    fn settings_are_taken_as_a_new_game_takes_them() {
        let game = played(Settings::default().with_preview(true), 10);
        let mut d = data_of(&game);
        d.settings.spawn = crate::game::SpawnRule::AtLanding;
        let back = LinesGame::try_from(d).unwrap();
        assert_eq!(back.settings(), game.settings());
        assert_eq!(back, game);
    }

    #[test]
    fn altered_data_is_refused() {
        let game = played(Settings::default(), 40);
        let mut d = data_of(&game);
        d.state.turns = u32::MAX;
        assert_eq!(
            LinesGame::try_from(d).err(),
            Some(GameDataError::Mismatch("state"))
        );
        let mut d = data_of(&game);
        d.state.score += 10;
        assert_eq!(
            LinesGame::try_from(d).err(),
            Some(GameDataError::Mismatch("state"))
        );
        let mut d = data_of(&game);
        d.settings.start_balls = 4;
        assert_eq!(
            LinesGame::try_from(d).err(),
            Some(GameDataError::StartBalls(4))
        );
        let mut d = data_of(&game);
        d.start.drawn = u64::MAX;
        d.state.drawn = u64::MAX;
        assert!(matches!(
            LinesGame::try_from(d).err(),
            Some(GameDataError::Start {
                drawn: u64::MAX,
                ..
            })
        ));
        // Another start than the seed's: the moves do not reach the state stored.
        let mut d = data_of(&game);
        d.start.score = 1;
        assert!(LinesGame::try_from(d).is_err());
        let mut d = data_of(&game);
        let empty = Cell::all()
            .find(|&c| game.start.board.is_empty_cell(c))
            .unwrap();
        d.moves[0].from = empty;
        assert_eq!(
            LinesGame::try_from(d).err(),
            Some(GameDataError::Move(1, MoveError::EmptySource(empty)))
        );
        // An undo stack the moves did not leave (one more state than the last turn's).
        let mut d = data_of(&game);
        d.undo_stack.insert(0, game.start);
        assert_eq!(
            LinesGame::try_from(d).err(),
            Some(GameDataError::Mismatch("undo stack"))
        );
        let mut d = data_of(&game);
        d.undo_stack[0].score += 1;
        assert_eq!(
            LinesGame::try_from(d).err(),
            Some(GameDataError::Mismatch("undo stack"))
        );
        // A turn taken back that cannot be played again.
        let game = played(Settings::default(), 10);
        assert!(!game.state.board.is_full());
        let mut d = data_of(&game);
        let now_empty = Cell::all()
            .find(|&c| game.state.board.is_empty_cell(c))
            .unwrap();
        d.taken_back.push(crate::game::Move {
            from: now_empty,
            to: now_empty,
        });
        assert_eq!(
            LinesGame::try_from(d).err(),
            Some(GameDataError::Move(11, MoveError::EmptySource(now_empty)))
        );
    }
}
