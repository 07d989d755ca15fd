//! A solo game of Lines as a front end holds it: the game (undo as its settings allow),
//! hints from the computer player, the score, the best-scores table, and save/continue in
//! the one save format ([`crate::save::SavedLines`]).
//!
//! The best scores rank each kind of game on its own ([`BestKind`](banco_lines::best::BestKind): start balls, undo,
//! preview, spawn rule and time limit): a finished game enters the table of its kind
//! ([`LinesSession::best_kind`], [`LinesSession::best_scores_of_game`]), and
//! [`best_kind_label`] names a kind in words. A game against the clock keeps its time
//! limit in its save (the `TimeLimitMs` tag, beside `TimeLeftMs`); one saved before the
//! limit was kept enters the table of [`BestKind::Earlier`](banco_lines::best::BestKind::Earlier), its limit unknown.
//! A game in which the player asked for hints ranks only among games with hints: the
//! session counts them ([`LinesSession::hints_used`], saved with the game as the `Hints`
//! tag).
//!
//! Moves are typed as two cells (`a1 e5`, also `a1e5` or `a1-e5`), given as cell indices,
//! or made by taps ([`LinesSession::tap`]: pick a ball, then its target — see
//! [`crate::lines_pick`]); a played move returns the path to animate.
//!
//! ```
//! use banco_app::lines::LinesSession;
//! use banco_lines::Settings;
//!
//! let mut s = LinesSession::new(Settings::default(), [5; 32]);
//! let hint = s.hint().expect("a move");
//! let report = s.play(hint.mv.from, hint.mv.to)?;
//! assert_eq!(report.path.to(), hint.mv.to);
//! let bytes = s.save()?;
//! let back = LinesSession::load(&bytes)?;
//! assert_eq!(back.game().state(), s.game().state());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod best;
mod best_file;
#[cfg(test)]
mod best_props;
mod clock;
mod hints;

pub use best::{
    RANKING_NOTE_HINTED, RANKING_NOTE_PLAYED_BEFORE, RANKING_NOTE_SEED_KNOWN, best_kind_label,
    best_row_text,
};
pub use best_file::MAX_BEST_BYTES;
pub use hints::{HintJob, HintPlayoutsError};

use clock::Clock;

use crate::lines_pick::{LinesPick, LinesTap};
use crate::save::{SaveError, SavedLines};
use banco_game::ScoreGame;
use banco_lines::best::{BestChange, BestScores};
use banco_lines::{Cell, LinesGame, MoveError, Settings, State, TurnReport, UndoError};

/// Why typed text is not a Lines move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LinesInputError {
    /// Not two cells.
    #[error("`{0}` is not a move: type two cells, the ball then where it goes, like a1 e5")]
    Unreadable(String),
    /// Two cells that the rules refuse.
    #[error(transparent)]
    Move(#[from] MoveError),
}

/// A solo Lines session (see the module docs).
#[derive(Clone, Debug)]
pub struct LinesSession {
    game: LinesGame,
    best: BestScores,
    /// How hard the hint thinks ([`LinesSession::set_hint_playouts`]).
    hint_playouts: u32,
    /// The game's ending was entered in the best scores (or it was loaded finished).
    recorded: bool,
    /// The game's ending as it entered the best scores, if it did: undo taking the ending
    /// back takes it out (and the best entry kept behind the shown ones moves up).
    entered: Option<BestChange>,
    /// The game's ending as the best scores remember it ([`BestScores::end_game`]), if
    /// this session marked it: undo taking the ending back forgets it again.
    ended: Option<BestChange>,
    /// The changes of the best scores not yet written to the front end's store: made
    /// again in the stored table when other sessions changed it meanwhile
    /// ([`LinesSession::merge_best_scores`]).
    unkept: Vec<BestChange>,
    pick: LinesPick,
    /// The game ended on time ([`LinesSession::end_on_time`], or its clock ran out).
    time_up: bool,
    /// A game against the clock ([`LinesSession::start_clock`]).
    clock: Option<Clock>,
    /// The player knew the game's seed ([`LinesSession::mark_seed_known`]): not ranked.
    seed_known: bool,
    /// The hints asked in this game ([`LinesSession::hints_used`]).
    hints_used: u32,
    /// The position of the last hint counted: asked again there, a hint counts no more.
    last_hinted: Option<State>,
    /// This session's own random number, folded into the tags of its endings
    /// ([`banco_lines::best::Ending::tag`]): another session's ending of the same game
    /// never reads as this one's, however alike the two games were played.
    nonce: u32,
}

/// The tag of a saved game that keeps its clock's time left (milliseconds).
const TIME_LEFT_TAG: &str = "TimeLeftMs";
/// The tag of a saved game that keeps its clock's time limit (milliseconds): the kind of
/// game its score enters the best scores under.
const TIME_LIMIT_TAG: &str = "TimeLimitMs";
/// The tag of a saved game whose seed the player knew ([`LinesSession::mark_seed_known`]),
/// value `1`: the game stays out of the best scores when it is continued.
const SEED_KNOWN_TAG: &str = "SeedKnown";

/// Reads two cells from `text` (`a1 e5`, `a1e5`, `a1-e5`).
pub fn parse_move(text: &str) -> Result<(Cell, Cell), LinesInputError> {
    let bad = || LinesInputError::Unreadable(text.chars().take(32).collect());
    let compact: String = text
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .collect();
    if compact.len() != 4 || !compact.is_ascii() {
        return Err(bad());
    }
    let from = compact
        .get(..2)
        .ok_or_else(bad)?
        .parse()
        .map_err(|_| bad())?;
    let to = compact
        .get(2..)
        .ok_or_else(bad)?
        .parse()
        .map_err(|_| bad())?;
    Ok((from, to))
}

impl LinesSession {
    /// A new game with these settings and spawn seed, an empty best-scores table.
    #[must_use]
    pub fn new(settings: Settings, seed: [u8; 32]) -> LinesSession {
        LinesSession {
            game: LinesGame::new(settings, seed),
            best: BestScores::default(),
            hint_playouts: crate::lines_options::DEFAULT_HINT_PLAYOUTS,
            recorded: false,
            entered: None,
            ended: None,
            unkept: Vec::new(),
            pick: LinesPick::default(),
            time_up: false,
            clock: None,
            seed_known: false,
            hints_used: 0,
            last_hinted: None,
            nonce: best::session_nonce(),
        }
    }

    /// Starts a new game (same settings unless given, but the spots drawn at announcement
    /// even after a game saved under the rule before: [`banco_lines::SpawnRule`]), keeping
    /// the best scores.
    pub fn new_game(&mut self, settings: Option<Settings>, seed: [u8; 32]) {
        let settings = settings.unwrap_or_else(|| {
            self.game
                .settings()
                .with_spawn(banco_lines::SpawnRule::AtAnnouncement)
        });
        self.game = LinesGame::new(settings, seed);
        self.time_up = false;
        self.clock = None;
        self.seed_known = false;
        self.hints_used = 0;
        self.last_hinted = None;
        self.recorded = false;
        self.entered = None;
        self.ended = None;
        self.pick.clear();
    }

    /// Marks the game as one whose seed the player knew — chosen by the player (the CLI's
    /// `--seed`), or learnt elsewhere: its balls were known in advance, so it does not
    /// enter the best scores ([`LinesSession::record_result`]). The mark is saved with the
    /// game: continued, it stays out. A new game ([`LinesSession::new_game`]) starts
    /// without it.
    ///
    /// ```
    /// use banco_app::lines::LinesSession;
    /// use banco_lines::Settings;
    /// let mut s = LinesSession::new(Settings::default(), [4; 32]);
    /// s.mark_seed_known();
    /// let again = LinesSession::load(&s.save()?)?;
    /// assert!(again.seed_known());
    /// # Ok::<(), banco_app::save::SaveError>(())
    /// ```
    pub fn mark_seed_known(&mut self) {
        self.seed_known = true;
    }

    /// True when the player knew the game's seed ([`LinesSession::mark_seed_known`]): the
    /// game is not ranked.
    #[must_use]
    pub const fn seed_known(&self) -> bool {
        self.seed_known
    }

    /// The game.
    #[must_use]
    pub const fn game(&self) -> &LinesGame {
        &self.game
    }

    /// The score.
    #[must_use]
    pub fn score(&self) -> u32 {
        self.game.score()
    }

    /// True once the board is full, or the time is up ([`LinesSession::end_on_time`]).
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.game.is_over() || self.time_up
    }

    fn check_time(&self) -> Result<(), MoveError> {
        if self.time_up {
            Err(MoveError::TimeUp)
        } else {
            Ok(())
        }
    }

    /// Plays one move (the picked ball, if any, is put down).
    pub fn play(&mut self, from: Cell, to: Cell) -> Result<TurnReport, MoveError> {
        self.check_time()?;
        let report = self.game.play_move(from, to)?;
        self.pick.clear();
        Ok(report)
    }

    /// Plays a move given as cell indices.
    pub fn play_indices(&mut self, from: usize, to: usize) -> Result<TurnReport, MoveError> {
        self.check_time()?;
        let report = self.game.play_indices(from, to)?;
        self.pick.clear();
        Ok(report)
    }

    /// Plays a typed move (`a1 e5`).
    pub fn play_text(&mut self, text: &str) -> Result<TurnReport, LinesInputError> {
        let (from, to) = parse_move(text)?;
        Ok(self.play(from, to)?)
    }

    /// A tap on `cell`: picks a ball, picks another, puts it down, or moves the picked
    /// ball there (see [`crate::lines_pick`]).
    pub fn tap(&mut self, cell: Cell) -> LinesTap {
        if self.time_up {
            return LinesTap::Ignored;
        }
        let play = |g: &mut LinesGame, f, t| g.play_move(f, t);
        self.pick
            .tap(&mut self.game, cell, play)
            .unwrap_or_else(LinesTap::Unreachable)
    }

    /// The picked ball's cell.
    #[must_use]
    pub const fn selected(&self) -> Option<Cell> {
        self.pick.selected()
    }

    /// Puts the picked ball down (the time is up, the screen is left).
    pub fn clear_selection(&mut self) {
        self.pick.clear();
    }

    /// Takes the last turn back (as the settings allow); the same balls will come again.
    /// Taking back the last turn of a finished game takes its ending out of the best
    /// scores too: the game is entered once, with the ending it finally has.
    pub fn undo(&mut self) -> Result<(), UndoError> {
        if self.time_up {
            return Err(UndoError::TimeUp);
        }
        self.game.try_undo()?;
        self.pick.clear();
        // Only a finished game is entered, and undo leaves no game finished.
        for change in [self.entered.take(), self.ended.take()]
            .into_iter()
            .flatten()
        {
            let back = self.best.apply(&change.inverse());
            self.unkept.push(back);
        }
        self.recorded = false;
        Ok(())
    }

    /// Plays the last turn taken back again (the same balls land): its report, or `None`
    /// if no turn was taken back since the last move.
    pub fn redo(&mut self) -> Option<TurnReport> {
        if self.time_up {
            return None;
        }
        let report = self.game.redo()?;
        self.pick.clear();
        Some(report)
    }

    /// The saved game (the one save format), with its clock's time left as last counted,
    /// its time limit, and the hints asked ([`LinesSession::hints_used`]).
    pub fn save(&self) -> Result<Vec<u8>, SaveError> {
        let mut saved = SavedLines::of(&self.game);
        if self.seed_known {
            saved.tags.push((SEED_KNOWN_TAG.to_owned(), "1".to_owned()));
        }
        if self.hints_used > 0 {
            saved
                .tags
                .push((hints::HINTS_TAG.to_owned(), self.hints_used.to_string()));
        }
        if let Some(c) = self.clock {
            saved
                .tags
                .push((TIME_LEFT_TAG.to_owned(), c.left_ms.to_string()));
            if let Some(limit) = c.limit_ms {
                saved
                    .tags
                    .push((TIME_LIMIT_TAG.to_owned(), limit.to_string()));
            }
        }
        saved.encode()
    }

    /// A session continuing a saved game (empty best scores: load them with
    /// [`LinesSession::load_best_scores`]). A finished game loads finished: no undo, and
    /// it is not entered in the best scores again.
    pub fn load(bytes: &[u8]) -> Result<LinesSession, SaveError> {
        let Restored {
            game,
            clock,
            seed_known,
            hints_used,
        } = restore(bytes)?;
        // A game whose time ran out is over too: it stays over, and was entered already.
        let time_up = out_of_time(clock);
        Ok(LinesSession {
            seed_known,
            hints_used,
            last_hinted: None,
            recorded: game.is_over() || time_up,
            game,
            best: BestScores::default(),
            hint_playouts: crate::lines_options::DEFAULT_HINT_PLAYOUTS,
            entered: None,
            ended: None,
            unkept: Vec::new(),
            pick: LinesPick::default(),
            time_up,
            clock,
            nonce: best::session_nonce(),
        })
    }

    /// Replaces the current game by a saved one, keeping the best scores (a finished game
    /// loads finished, as with [`LinesSession::load`]).
    pub fn continue_saved(&mut self, bytes: &[u8]) -> Result<(), SaveError> {
        let r = restore(bytes)?;
        (self.game, self.clock, self.seed_known) = (r.game, r.clock, r.seed_known);
        self.hints_used = r.hints_used;
        self.last_hinted = None;
        self.time_up = out_of_time(self.clock);
        self.recorded = self.game.is_over() || self.time_up;
        self.entered = None;
        self.ended = None;
        self.pick.clear();
        Ok(())
    }
}

/// Reads `bytes` as [`LinesSession::continue_saved`] and
/// [`LinesSession::load_best_scores`] would, keeping nothing: for [`crate::kept`], which
/// judges a kept record before a front end uses it or writes over it.
pub(crate) fn check_saved(bytes: &[u8]) -> Result<(), SaveError> {
    restore(bytes).map(|_| ())
}

/// Reads `bytes` as [`LinesSession::load_best_scores`] would, keeping nothing (see
/// [`check_saved`]).
pub(crate) fn check_best_scores(bytes: &[u8]) -> Result<(), SaveError> {
    best_file::decode(bytes).map(|_| ())
}

/// True for a saved clock with no time left (the game ended on time).
fn out_of_time(clock: Option<Clock>) -> bool {
    clock.is_some_and(|c| c.left_ms == 0)
}

/// A saved game as [`restore`] reads it.
struct Restored {
    game: LinesGame,
    clock: Option<Clock>,
    seed_known: bool,
    hints_used: u32,
}

/// A saved game, replayed; a finished one without its undo (its ending was entered in the
/// best scores when it happened, and is not to be played again). Its clock, if it had one,
/// comes back stopped ([`LinesSession::resume_clock`]). A tag that is not a number (the
/// clock's, the seed mark, the hints) is damage ([`number_tag`]).
fn restore(bytes: &[u8]) -> Result<Restored, SaveError> {
    let saved = SavedLines::decode(bytes)?;
    let mut game = saved.restore()?;
    if game.is_over() {
        game.forgo_undo();
    }
    let ms = |name: &str| number_tag::<u64>(&saved.tags, name, "a time in milliseconds");
    let clock = match ms(TIME_LEFT_TAG)? {
        Some(left_ms) => Some(Clock {
            limit_ms: ms(TIME_LIMIT_TAG)?,
            left_ms,
            running_since: None,
            held: false,
        }),
        None => None,
    };
    Ok(Restored {
        hints_used: hints::hints_of(&saved.tags)?,
        game,
        clock,
        seed_known: flag_tag(&saved.tags, SEED_KNOWN_TAG)?,
    })
}

/// Longest part of a damaged tag's value a message quotes, in characters.
const QUOTED: usize = 24;

/// The value of the tag `name` among a saved game's `tags` as a number (`None`: no such
/// tag). A value that is not one is damage, said with `what` the tag should hold ("its
/// TimeLeftMs tag is `soon`, not a time in milliseconds"), not a tag read as absent: a
/// clock, a mark or a count that cannot be read must not change how the game is ranked.
fn number_tag<T: std::str::FromStr>(
    tags: &[(String, String)],
    name: &str,
    what: &str,
) -> Result<Option<T>, SaveError> {
    let Some(value) = tag_value(tags, name) else {
        return Ok(None);
    };
    value
        .parse()
        .map(Some)
        .map_err(|_| tag_damage(name, value, what))
}

/// The mark `name` among a saved game's `tags`: present as `1` (the only value a save
/// writes) or absent. Any other value is damage, as a number tag's is: `0` or `2` read as
/// either answer could rank a game whose seed the player knew, or unrank one.
fn flag_tag(tags: &[(String, String)], name: &str) -> Result<bool, SaveError> {
    match tag_value(tags, name) {
        None => Ok(false),
        Some("1") => Ok(true),
        Some(value) => Err(tag_damage(name, value, "1")),
    }
}

/// The value of the tag `name` (exactly so spelt, as the save writes it) among `tags`.
fn tag_value<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// The damage of tag `name` whose `value` is not `what` it should hold, quoting at most
/// [`QUOTED`] characters of it.
fn tag_damage(name: &str, value: &str, what: &str) -> SaveError {
    let shown: String = value.chars().take(QUOTED).collect();
    let cut = if shown.len() < value.len() { "…" } else { "" };
    SaveError::Damaged(format!("its {name} tag is `{shown}{cut}`, not {what}"))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::any::{AnyGame, AnyRules};
    use crate::save::{self, AnySave, SavedGame};
    use banco_game::{Game, GameKind};
    use banco_lines::ai;
    use banco_lines::{SpawnRule, UndoRule};

    /// The settings of a game saved before the spots were drawn at announcement: what the
    /// older formats (versions 2 to 5 without variant 4) hold.
    fn legacy() -> Settings {
        Settings::default().with_spawn(SpawnRule::AtLanding)
    }

    /// `bytes` (a record of format 5) as a build before the checksum wrote it: format
    /// `version`, without the CRC-32.
    fn old_format(bytes: &[u8], version: u8) -> Vec<u8> {
        let mut old = bytes[..bytes.len() - save::CHECKSUM_LEN].to_vec();
        old[8] = version;
        old
    }

    fn play_some(s: &mut LinesSession, turns: usize) {
        for _ in 0..turns {
            let Some(m) = ai::greedy_move(s.game()) else {
                break;
            };
            s.play(m.from, m.to).unwrap();
        }
    }

    /// Plays greedy moves until the game has a point (a game without one is not ranked).
    fn play_until_scored(s: &mut LinesSession) {
        while s.score() == 0 {
            let m = ai::greedy_move(s.game()).unwrap();
            s.play(m.from, m.to).unwrap();
        }
    }

    #[test]
    fn the_clock_stands_still_while_paused_and_ends_the_game() {
        let mut s = LinesSession::new(Settings::default(), [4; 32]);
        assert_eq!(s.tick(0), None, "no clock");
        s.start_clock(60_000, 1_000);
        play_until_scored(&mut s);
        assert_eq!(s.tick(11_000), Some(50_000));
        s.pause_clock(12_000);
        assert_eq!(s.tick(500_000), Some(49_000), "paused");
        s.resume_clock(500_000);
        assert_eq!(s.tick(549_000), Some(0));
        assert!(s.is_over() && s.is_time_up());
        assert_eq!(s.record_result("2026-12-05"), Some(0));
        // A game ended without a point is no record.
        let mut none = LinesSession::new(Settings::default(), [4; 32]);
        none.start_clock(60_000, 0);
        assert_eq!(none.tick(60_000), Some(0));
        assert!(none.is_over() && none.score() == 0);
        assert_eq!(
            none.record_result("2026-12-05"),
            None,
            "no points, no record"
        );
        assert!(none.best_scores_of_game().is_empty());
        // Saved and loaded (or continued), it stays over and is not entered again.
        let bytes = s.save().unwrap();
        let table = s.best_scores_bytes().unwrap();
        let mut back = LinesSession::load(&bytes).unwrap();
        back.load_best_scores(&table).unwrap();
        let mut again = LinesSession::new(Settings::default(), [6; 32]);
        again.continue_saved(&bytes).unwrap();
        for l in [&mut back, &mut again] {
            assert!(
                l.is_over() && l.is_time_up(),
                "a game out of time loads over"
            );
            assert!(l.undo().is_err());
            let m = ai::greedy_move(l.game()).unwrap();
            assert!(
                l.play(m.from, m.to).is_err(),
                "no move after the time ran out"
            );
            assert_eq!(l.tick(900_000), Some(0));
            assert_eq!(l.record_result("2026-12-06"), None, "entered once");
        }
        // A new game has no clock until one is started.
        s.new_game(None, [5; 32]);
        assert_eq!(s.tick(600_000), None);
    }

    #[test]
    fn an_undo_that_frees_a_full_board_starts_the_clock_again() {
        let mut s = LinesSession::new(Settings::default(), [4; 32]);
        s.start_clock(3_600_000, 0);
        play_some(&mut s, 2_000);
        assert!(s.game().is_over() && !s.is_time_up(), "the board is full");
        assert_eq!(s.tick(1_000), Some(3_599_000));
        assert_eq!(
            s.tick(9_000),
            Some(3_599_000),
            "a full board stops the clock"
        );
        // The screen is left and shown again: the board is still full.
        s.pause_clock(10_000);
        s.resume_clock(20_000);
        assert_eq!(s.tick(30_000), Some(3_599_000));
        s.undo().unwrap();
        assert!(!s.is_over());
        assert_eq!(s.tick(31_000), Some(3_599_000), "runs from this tick");
        assert_eq!(s.tick(35_000), Some(3_595_000), "and runs on");
        // A paused clock is not started by a tick, undo or no undo.
        s.pause_clock(36_000);
        assert_eq!(s.tick(90_000), Some(3_594_000));
    }

    #[test]
    fn typed_moves() {
        assert_eq!(
            parse_move("a1 e5").unwrap(),
            ("a1".parse().unwrap(), "e5".parse().unwrap())
        );
        assert_eq!(parse_move("A1-E5").unwrap(), parse_move("a1e5").unwrap());
        assert!(matches!(
            parse_move("a1 j5"),
            Err(LinesInputError::Unreadable(_))
        ));
        assert!(matches!(
            parse_move("é1e5"),
            Err(LinesInputError::Unreadable(_))
        ));
        let mut s = LinesSession::new(Settings::default(), [2; 32]);
        let empty = Cell::all()
            .find(|&c| s.game().board().is_empty_cell(c))
            .unwrap();
        assert_eq!(
            s.play_text(&format!("{empty} {empty}")),
            Err(LinesInputError::Move(MoveError::EmptySource(empty)))
        );
    }

    #[test]
    fn save_load_continue_gives_the_same_game_and_future() {
        let settings = Settings {
            start_balls: 3,
            undo: UndoRule::Unlimited,
            preview: false,
            spawn: SpawnRule::AtLanding,
        };
        let mut s = LinesSession::new(settings, [7; 32]);
        play_some(&mut s, 30);
        let bytes = s.save().unwrap();
        assert!(bytes.starts_with(&save::MAGIC));
        assert_eq!(bytes[8], save::VERSION_CHECKSUM);
        let mut back = LinesSession::load(&bytes).unwrap();
        let before = LinesSession::load(&old_format(&bytes, save::VERSION_LINES)).unwrap();
        assert_eq!(
            before.game(),
            s.game(),
            "format 2 (no checksum) still loads"
        );
        assert_eq!(back.game(), s.game());
        assert!(
            back.game().can_undo(),
            "undo history is rebuilt by the replay"
        );
        play_some(&mut s, 30);
        play_some(&mut back, 30);
        assert_eq!(back.game().state(), s.game().state());
        // decode_any tells the families apart.
        assert!(matches!(
            save::decode_any(&bytes).unwrap(),
            AnySave::Lines(_)
        ));
        assert_eq!(SavedGame::decode(&bytes), Err(SaveError::LinesGame));
    }

    #[test]
    fn board_game_saves_still_load_and_are_not_lines() {
        let mut game = AnyGame::new(GameKind::Xiangqi).unwrap();
        let mv = game.legal_move_vec()[0];
        game.play(mv).unwrap();
        let bytes = SavedGame::of(&game, AnyRules::usual(GameKind::Xiangqi))
            .encode()
            .unwrap();
        assert_eq!(
            bytes[8],
            save::VERSION_CHECKSUM,
            "every game is written with the checksum"
        );
        assert!(matches!(
            save::decode_any(&bytes).unwrap(),
            AnySave::Board(_)
        ));
        assert_eq!(
            SavedLines::decode(&bytes),
            Err(SaveError::NotLines("xiangqi".to_owned()))
        );
        // A format-1 file written before Lines existed (golden bytes): magic, version 1,
        // xiangqi, Asian rules (2 repetitions, 120 plies), start FEN, one move h2e2.
        let mut old = save::MAGIC.to_vec();
        old.push(1);
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        old.extend([0, 0, 0, 3, 120, fen.len() as u8]);
        old.extend(fen.as_bytes());
        let code = game.encode_move(mv);
        old.push(1);
        old.extend(postcard::to_allocvec(&code).unwrap());
        old.extend([0, 0, 0, 0]);
        let saved = SavedGame::decode(&old).unwrap();
        assert_eq!(saved.moves, vec![code]);
        let (restored, _) = saved.restore().unwrap();
        assert_eq!(restored.history(), vec![mv]);
    }

    #[test]
    fn damaged_lines_saves_are_refused() {
        let mut s = LinesSession::new(Settings::default(), [3; 32]);
        play_some(&mut s, 10);
        let bytes = s.save().unwrap();
        // A newer format.
        let mut newer = bytes.clone();
        newer[8] = 9;
        assert_eq!(
            LinesSession::load(&newer).err(),
            Some(SaveError::NewerVersion(9))
        );
        // A move changed to one that is not legal: caught by the replay.
        let mut saved = SavedLines::decode(&bytes).unwrap();
        saved.moves[4] = banco_lines::Move {
            from: saved.moves[4].to,
            to: saved.moves[4].to,
        };
        assert_eq!(
            LinesSession::load(&saved.encode().unwrap()).err(),
            Some(SaveError::IllegalMove { number: 5 })
        );
        // Truncated.
        assert!(LinesSession::load(&bytes[..bytes.len() - 3]).is_err());
        // Every single-byte corruption is refused or loads a valid game; never a panic.
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0x5A;
            if let Ok(s) = LinesSession::load(&b) {
                assert!(s.game().turns() <= 10);
            }
        }
    }

    #[test]
    fn taps_pick_and_move_and_undo_puts_the_ball_down() {
        let mut s = LinesSession::new(Settings::default(), [6; 32]);
        let h = s.hint().unwrap();
        assert!(matches!(s.tap(h.mv.from), LinesTap::Selected { cell, .. } if cell == h.mv.from));
        assert_eq!(s.selected(), Some(h.mv.from));
        s.clear_selection();
        assert_eq!(s.selected(), None);
        assert_eq!(s.tap(h.mv.to), LinesTap::Ignored, "nothing picked");
        s.tap(h.mv.from);
        let LinesTap::Moved(report) = s.tap(h.mv.to) else {
            panic!("the picked ball moves");
        };
        assert_eq!(report.path.to(), h.mv.to);
        assert_eq!(s.game().turns(), 1);
        let ball = Cell::all()
            .find(|&c| !s.game().board().is_empty_cell(c))
            .unwrap();
        s.tap(ball);
        s.undo().unwrap();
        assert_eq!(s.selected(), None, "undo puts the ball down");
    }

    #[test]
    fn undo_hint_and_best_scores() {
        let mut s = LinesSession::new(Settings::default(), [4; 32]);
        assert_eq!(s.undo(), Err(UndoError::Nothing));
        let h = s.hint().unwrap();
        assert_eq!(s.hint(), Some(h));
        let before = s.game().clone();
        let report = s.play(h.mv.from, h.mv.to).unwrap();
        let after = s.game().state().to_owned();
        s.undo().unwrap();
        assert_eq!(s.game().state(), before.state());
        assert_eq!(s.game().moves(), before.moves());
        assert_eq!(s.game().taken_back(), &[h.mv]);
        assert_eq!(s.redo(), Some(report), "the same balls land again");
        assert_eq!(s.game().state(), &after);
        assert_eq!(s.redo(), None);
        s.undo().unwrap();
        assert_eq!(s.record_result("2026-12-01"), None, "the game goes on");
        while let Some(m) = ai::greedy_move(s.game()) {
            s.play(m.from, m.to).unwrap();
        }
        assert_eq!(s.record_result("2026-12-01"), Some(0));
        assert_eq!(s.record_result("2026-12-01"), None, "entered once");
        let bytes = s.best_scores_bytes().unwrap();
        let mut other = LinesSession::new(Settings::default(), [1; 32]);
        other.load_best_scores(&bytes).unwrap();
        assert_eq!(other.best_scores(), s.best_scores());
        assert!(other.load_best_scores(&[1, 200]).is_err());
        // Another record, or a text file, is named as such, not as a table "saved by a
        // newer Banco"; a table cut short is damaged, not a saved game.
        assert_eq!(
            other.load_best_scores(&[7, 0]),
            Err(SaveError::BestScoresNewer(7))
        );
        assert!(matches!(
            other.load_best_scores(&bytes[..bytes.len() - 1]),
            Err(SaveError::BestScoresDamaged(_))
        ));
        assert_eq!(
            other.load_best_scores(&[]).map_err(|e| e.to_string()),
            Err("the best scores are damaged: the file is empty".to_owned())
        );
        for record in [
            other.save().unwrap(),
            crate::puzzles::progress::MAGIC.to_vec(),
            b"id,score\n".to_vec(),
            b"\n".to_vec(),
            vec![0, 1],
        ] {
            assert_eq!(
                other.load_best_scores(&record),
                Err(SaveError::NotBestScores)
            );
        }
    }

    #[test]
    fn a_hint_job_thinks_about_the_position_it_was_asked_in() {
        let mut s = LinesSession::new(Settings::default(), [6; 32]);
        let job = s.hint_job().unwrap();
        assert!(s.is_current(&job));
        let asked = s.hint().unwrap();
        // The session goes on while the job waits for its thread: its answer is late.
        s.play(asked.mv.from, asked.mv.to).unwrap();
        assert_ne!(job.game().state(), s.game().state());
        assert!(!s.is_current(&job), "a move left the position");
        assert_eq!(
            job.run(),
            Some(asked),
            "the hint of the position it was asked in"
        );
        assert_eq!(s.hint_job().unwrap().run(), s.hint());
        let last = s.hint_job().unwrap();
        play_to_the_end(&mut s);
        assert!(!s.is_current(&last), "the game ended");
        assert!(s.hint_job().is_none(), "no hint once the game is over");
    }

    fn play_to_the_end(s: &mut LinesSession) {
        while let Some(m) = ai::greedy_move(s.game()) {
            s.play(m.from, m.to).unwrap();
        }
        assert!(s.is_over());
    }

    /// Settings built field by field with an odd start play 5 balls, say so, and the save
    /// loads (it used to keep the 4 and refuse to load as "damaged").
    #[test]
    fn odd_settings_are_saved_as_played() {
        let odd = Settings {
            start_balls: 4,
            ..Settings::default()
        };
        let s = LinesSession::new(odd, [3; 32]);
        assert_eq!(s.game().settings().start_balls, 5);
        let back = LinesSession::load(&s.save().unwrap()).unwrap();
        assert_eq!(back.game().board(), s.game().board());
    }

    #[test]
    fn an_undo_spent_before_saving_stays_spent() {
        let mut s = LinesSession::new(legacy(), [9; 32]);
        play_some(&mut s, 6);
        let last = *s.game().moves().last().unwrap();
        let played = s.game().state().to_owned();
        s.undo().unwrap();
        assert_eq!(s.undo(), Err(UndoError::Spent), "one turn back only");
        let bytes = s.save().unwrap();
        assert_eq!(bytes[8], save::VERSION_CHECKSUM);
        let before =
            LinesSession::load(&old_format(&bytes, save::VERSION_LINES_TAKEN_BACK)).unwrap();
        assert_eq!(before.game().taken_back(), &[last], "format 3 still loads");
        let mut back = LinesSession::load(&bytes).unwrap();
        assert_eq!(back.game().state(), s.game().state());
        assert_eq!(back.game().taken_back(), &[last]);
        assert_eq!(
            back.undo(),
            Err(UndoError::Spent),
            "still spent after loading"
        );
        back.redo().unwrap();
        assert_eq!(back.game().state(), &played);
        back.undo().unwrap();
        // A game with nothing taken back keeps its undo.
        let mut fresh = LinesSession::new(Settings::default(), [9; 32]);
        play_some(&mut fresh, 6);
        let bytes = fresh.save().unwrap();
        LinesSession::load(&bytes).unwrap().undo().unwrap();
        // Forged taken-back turns: more than the setting allows, or not playable.
        let mut forged = SavedLines::decode(&s.save().unwrap()).unwrap();
        forged.taken_back.push(last);
        assert!(matches!(
            SavedLines::decode(&forged.encode().unwrap()),
            Err(SaveError::Damaged(_))
        ));
        let mut forged = SavedLines::decode(&s.save().unwrap()).unwrap();
        forged.taken_back = vec![banco_lines::Move {
            from: last.to,
            to: last.to,
        }];
        assert_eq!(
            LinesSession::load(&forged.encode().unwrap()).err(),
            Some(SaveError::IllegalMove {
                number: forged.moves.len() + 1
            })
        );
        let mut off = SavedLines::decode(&s.save().unwrap()).unwrap();
        off.settings.undo = UndoRule::Off;
        assert!(matches!(
            SavedLines::decode(&off.encode().unwrap()),
            Err(SaveError::Damaged(_))
        ));
    }

    #[test]
    fn a_classic_lines_game_saves_the_record_it_always_did() {
        // Golden bytes of the record as it was before the preview and the checksum: magic,
        // version 2, game 3 (lines), rules variant 2 { 5 balls, undo 1 }, the seed in hex,
        // the moves as varints, no redo, ending, player or tags. They still load (a game of
        // the spawns at landing, as every game then); a save of such a game now writes the
        // same record under version 5, followed by its CRC-32.
        let mut s = LinesSession::new(legacy(), [0xA7; 32]);
        play_some(&mut s, 4);
        let mut golden = save::MAGIC.to_vec();
        golden.extend([save::VERSION_LINES, 3, 2, 5, 1, 64]);
        golden.extend("a7".repeat(32).bytes());
        golden.push(s.game().moves().len() as u8);
        for m in s.game().moves() {
            golden.extend(postcard::to_allocvec(&m.encode()).unwrap());
        }
        golden.extend([0, 0, 0, 0]);
        assert_eq!(LinesSession::load(&golden).unwrap().game(), s.game());
        let bytes = s.save().unwrap();
        assert_eq!(old_format(&bytes, save::VERSION_LINES), golden);
        assert_eq!(
            bytes[bytes.len() - save::CHECKSUM_LEN..],
            crc32fast::hash(&bytes[..bytes.len() - save::CHECKSUM_LEN]).to_le_bytes()
        );
    }

    #[test]
    fn a_preview_game_saves_and_loads_with_its_spots() {
        let settings = Settings::new(3, UndoRule::Unlimited)
            .unwrap()
            .with_preview(true);
        let mut s = LinesSession::new(settings, [0xB3; 32]);
        play_some(&mut s, 12);
        s.undo().unwrap();
        let bytes = s.save().unwrap();
        assert_eq!(bytes[8], save::VERSION_CHECKSUM);
        let back = LinesSession::load(&bytes).unwrap();
        assert_eq!(back.game().settings(), settings);
        assert_eq!(back.game().state(), s.game().state());
        assert_eq!(back.game().next_spots(), s.game().next_spots());
        assert_eq!(back.game().next_spots().len(), 3);
        assert_eq!(back.game().taken_back(), s.game().taken_back());
        // The same future: the turn taken back lands the same balls on the same cells.
        let (mut a, mut b) = (s, back);
        assert_eq!(a.redo(), b.redo());
        assert_eq!(a.game().next_spots(), b.game().next_spots());
        // A build from before the preview refuses format 4 as newer; this one reads it,
        // and a classic record marked 4 loads as classic.
        let mut classic = LinesSession::new(legacy(), [0xB3; 32]);
        play_some(&mut classic, 5);
        let old = old_format(&classic.save().unwrap(), save::VERSION_LINES);
        assert!(!SavedLines::decode(&old).unwrap().settings.preview);
        let mut marked = old.clone();
        marked[8] = save::VERSION_LINES_PREVIEW;
        assert!(
            !LinesSession::load(&marked)
                .unwrap()
                .game()
                .settings()
                .preview
        );
        marked[8] = save::VERSION_SPOTS + 1;
        assert_eq!(
            LinesSession::load(&marked).err(),
            Some(SaveError::NewerVersion(save::VERSION_SPOTS + 1))
        );
    }
}
