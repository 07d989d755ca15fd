//! The computer's hint in a solo game ([`LinesSession::hint`], [`LinesSession::hint_job`]),
//! counted: the hint is the computer player, which scores far above most players, so a game
//! in which the player asked for one ranks only among games with hints
//! ([`banco_lines::best::Rules::hints`], [`LinesSession::best_kind`]).
//!
//! Each hint asked counts once per position: asking again before anything changed (or
//! after an undo came back to the position hinted last) shows what was seen already. Undo
//! keeps the count (the hint was seen), a new game starts at 0, and the count is saved
//! with the game (the `Hints` tag, absent when no hint was asked).
//!
//! ```
//! use banco_app::lines::LinesSession;
//! use banco_lines::Settings;
//! let mut s = LinesSession::new(Settings::default(), [5; 32]);
//! let hint = s.hint().expect("a move");
//! assert_eq!(s.hint(), Some(hint), "asked again: the same hint, counted once");
//! assert_eq!(s.hints_used(), 1);
//! let back = LinesSession::load(&s.save()?)?;
//! assert_eq!(back.hints_used(), 1);
//! assert_eq!(back.best_kind().rules().map(|r| r.hints), Some(true));
//! # Ok::<(), banco_app::save::SaveError>(())
//! ```

use super::LinesSession;
use crate::save::SaveError;
use banco_game::ScoreGame;
use banco_lines::LinesGame;
use banco_lines::ai::{self, Budget, Hint};

/// The tag of a saved game that keeps the hints asked ([`LinesSession::hints_used`]), the
/// count in decimal; absent from a game without hints, and from every game saved before
/// hints were counted.
pub(super) const HINTS_TAG: &str = "Hints";

/// A hint strength refused ([`LinesSession::set_hint_playouts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{playouts} playouts a hint is too many: at most {max} (about 100 is the default)")]
pub struct HintPlayoutsError {
    /// The playouts asked.
    pub playouts: u32,
    /// The most a hint may think ([`ai::MAX_PLAYOUTS`]).
    pub max: usize,
}

impl LinesSession {
    /// How hard the hint thinks, in playouts a move ([`Budget::from_playouts`], spread over
    /// the cores [`Budget::hint`] takes): 0 or 1 judges every move at once, 100 is the
    /// default ([`crate::lines_options::HINT_CHOICES`] are what a settings screen offers).
    /// It stays through a new game and a continued one: it is no rule of the game. More
    /// than [`ai::MAX_PLAYOUTS`] (seconds a move) is refused, the strength unchanged.
    ///
    /// ```
    /// use banco_app::lines::LinesSession;
    /// let mut s = LinesSession::new(banco_lines::Settings::default(), [1; 32]);
    /// assert_eq!(s.hint_playouts(), 100);
    /// s.set_hint_playouts(1)?;
    /// s.new_game(None, [2; 32]);
    /// assert_eq!(s.hint_playouts(), 1);
    /// assert!(s.set_hint_playouts(10_001).is_err());
    /// assert_eq!(s.hint_playouts(), 1);
    /// # Ok::<(), banco_app::lines::HintPlayoutsError>(())
    /// ```
    pub fn set_hint_playouts(&mut self, playouts: u32) -> Result<(), HintPlayoutsError> {
        let max = ai::MAX_PLAYOUTS;
        if usize::try_from(playouts).unwrap_or(usize::MAX) > max {
            return Err(HintPlayoutsError { playouts, max });
        }
        self.hint_playouts = playouts;
        Ok(())
    }

    /// How hard the hint thinks ([`LinesSession::set_hint_playouts`]).
    #[must_use]
    pub const fn hint_playouts(&self) -> u32 {
        self.hint_playouts
    }

    /// The computer's suggestion and its reason (`None` when the game is over); seeded by
    /// the turn, so asking twice gives the same hint. Counted ([`LinesSession::hints_used`],
    /// once per position): the game then ranks among games with hints. It thinks here and
    /// now: a front end that must not wait takes a [`LinesSession::hint_job`] to another
    /// thread instead.
    pub fn hint(&mut self) -> Option<Hint> {
        self.hint_job()?.run()
    }

    /// The hint of the position as it stands, to think about away from the session (a
    /// worker thread: [`HintJob::run`] gives what [`LinesSession::hint`] gives now, while
    /// the session goes on); `None` when the game is over. Asking counts, as
    /// [`LinesSession::hint`] does (whether or not the job runs: the answer is the player's
    /// to see).
    pub fn hint_job(&mut self) -> Option<HintJob> {
        if self.is_over() {
            return None;
        }
        let here = *self.game.state();
        if self.last_hinted != Some(here) {
            self.hints_used = self.hints_used.saturating_add(1);
            self.last_hinted = Some(here);
        }
        Some(HintJob {
            game: self.game.clone(),
            budget: Budget::from_playouts(
                usize::try_from(self.hint_playouts).unwrap_or(usize::MAX),
            )
            .with_threads(Budget::hint().threads),
        })
    }

    /// True while `job`'s answer is for the position as it stands: false once a move, an
    /// undo, a new game, a load or the game's end left that position (a late hint, to drop).
    #[must_use]
    pub fn is_current(&self, job: &HintJob) -> bool {
        !self.is_over() && self.game == job.game
    }

    /// The hints asked in this game, each position counted once ([`LinesSession::hint`],
    /// [`LinesSession::hint_job`]): 0 for a game the player played alone. Kept by undo and
    /// by the save, 0 again in a new game. A game with hints ranks only among games with
    /// hints ([`LinesSession::best_kind`]).
    #[must_use]
    pub const fn hints_used(&self) -> u32 {
        self.hints_used
    }
}

/// A hint to think about away from its session ([`LinesSession::hint_job`]): a copy of the
/// game as it stood when it was asked, and the hint's budget.
#[derive(Clone, Debug)]
pub struct HintJob {
    game: LinesGame,
    budget: Budget,
}

impl HintJob {
    /// The game as it stood when the hint was asked.
    #[must_use]
    pub const fn game(&self) -> &LinesGame {
        &self.game
    }

    /// Thinks (slow: Monte Carlo playouts): the suggestion for that position, seeded by its
    /// turn as [`LinesSession::hint`] is.
    #[must_use]
    pub fn run(&self) -> Option<Hint> {
        ai::hint(&self.game, &self.budget, u64::from(self.game.turns()))
    }
}

/// The hints a saved game's `tags` count: 0 without the [`HINTS_TAG`]; a value that is not
/// a count is damage, not 0 (a game whose hints cannot be read must not rank among games
/// without them).
pub(super) fn hints_of(tags: &[(String, String)]) -> Result<u32, SaveError> {
    Ok(super::number_tag(tags, HINTS_TAG, "a number of hints")?.unwrap_or(0))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::save::SavedLines;
    use banco_lines::Settings;
    use banco_lines::best::BestKind;

    fn greedy(s: &mut LinesSession) {
        let m = ai::greedy_move(s.game()).unwrap();
        s.play(m.from, m.to).unwrap();
    }

    /// `bytes` with its tags changed by `change`.
    fn retagged(bytes: &[u8], change: impl FnOnce(&mut Vec<(String, String)>)) -> Vec<u8> {
        let mut saved = SavedLines::decode(bytes).unwrap();
        change(&mut saved.tags);
        saved.encode().unwrap()
    }

    /// Each position's hint counts once, by either call; a move makes a new position; undo
    /// keeps the count, and a position hinted last counts no more when undo comes back to
    /// it; a finished game's hint (none) counts nothing.
    #[test]
    fn each_position_hinted_counts_once() {
        let mut s = LinesSession::new(Settings::default(), [4; 32]);
        assert_eq!(s.hints_used(), 0);
        let job = s.hint_job().unwrap();
        assert_eq!(s.hints_used(), 1, "a job asked counts");
        assert_eq!(s.hint(), job.run());
        s.hint_job().unwrap();
        assert_eq!(s.hints_used(), 1, "the same position: once");
        greedy(&mut s);
        s.hint().unwrap();
        assert_eq!(s.hints_used(), 2, "a new position");
        s.undo().unwrap();
        assert_eq!(s.hints_used(), 2, "undo keeps the hints seen");
        s.hint().unwrap();
        assert_eq!(s.hints_used(), 3, "back where the first hint was: counted");
        greedy(&mut s);
        s.undo().unwrap();
        s.hint().unwrap();
        assert_eq!(s.hints_used(), 3, "the position hinted last: seen already");
        while ai::greedy_move(s.game()).is_some() {
            greedy(&mut s);
        }
        assert!(s.hint().is_none() && s.hint_job().is_none());
        assert_eq!(s.hints_used(), 3, "no hint of a finished game");
    }

    /// The count is saved and comes back with `load` and `continue_saved`; a new game
    /// starts at 0 and a game without hints saves no tag.
    #[test]
    fn the_count_travels_with_the_save_and_a_new_game_resets_it() {
        let mut s = LinesSession::new(Settings::default(), [6; 32]);
        let plain = s.save().unwrap();
        assert!(SavedLines::decode(&plain).unwrap().tags.is_empty());
        s.hint();
        greedy(&mut s);
        s.hint();
        let bytes = s.save().unwrap();
        let tags = SavedLines::decode(&bytes).unwrap().tags;
        assert_eq!(tags, [(HINTS_TAG.to_owned(), "2".to_owned())]);
        let mut back = LinesSession::load(&bytes).unwrap();
        assert_eq!(back.hints_used(), 2);
        let mut other = LinesSession::new(Settings::default(), [1; 32]);
        other.continue_saved(&bytes).unwrap();
        assert_eq!(other.hints_used(), 2);
        other.continue_saved(&plain).unwrap();
        assert_eq!(other.hints_used(), 0, "the game continued has none");
        back.new_game(None, [2; 32]);
        assert_eq!(back.hints_used(), 0);
        back.hint();
        assert_eq!(back.hints_used(), 1, "the new game's first position counts");
    }

    /// A finished game with hints enters the table of its rules with hints: a lower score
    /// of the same rules without hints keeps its place and its rank; undo keeps the kind
    /// (the hint was seen); saved and continued, the game keeps it; a new game is without.
    #[test]
    fn a_game_with_hints_ranks_among_games_with_hints() {
        let mut s = LinesSession::new(Settings::default(), [8; 32]);
        let plain = BestKind::of(Settings::default(), None);
        assert_eq!(s.best_kind(), plain);
        s.best.record(plain, 1, 1, "2026-01-01");
        s.hint().unwrap();
        let hinted = s.best_kind();
        assert_eq!(hinted, plain.with_hints(true));
        assert!(s.best_scores_of_game().is_empty(), "no game with hints yet");
        let saved = s.save().unwrap();
        while ai::greedy_move(s.game()).is_some() {
            greedy(&mut s);
        }
        assert!(s.score() > 1);
        assert_eq!(s.record_result("2026-12-07"), Some(0), "first of its kind");
        assert_eq!(s.best_scores().entries_of(plain).len(), 1);
        assert_eq!(s.best_scores().entries_of(plain)[0].score, 1);
        assert_eq!(s.best_scores().entries_of(hinted)[0].score, s.score());
        assert_eq!(s.best_scores().entries_of(hinted)[0].kind, hinted);
        s.undo().unwrap();
        assert_eq!(s.best_kind(), hinted, "undo keeps the hints seen");
        assert!(
            s.best_scores().entries_of(hinted).is_empty(),
            "the ending taken back"
        );
        let mut back = LinesSession::load(&saved).unwrap();
        assert_eq!(back.best_kind(), hinted);
        back.new_game(None, [9; 32]);
        assert_eq!(back.best_kind(), plain);
        back.start_clock(60_000, 0);
        back.hint().unwrap();
        assert_eq!(
            back.best_kind(),
            BestKind::of(Settings::default(), Some(60)).with_hints(true)
        );
    }

    /// A `Hints` tag that is not a count is refused as damage, by `load` and by
    /// `continue_saved` (which then keeps the game it had), and by the kept-record check.
    #[test]
    fn a_hints_tag_that_is_not_a_count_is_damage() {
        let mut s = LinesSession::new(Settings::default(), [7; 32]);
        s.hint();
        let bytes = s.save().unwrap();
        let set = |value: &str| {
            let value = value.to_owned();
            retagged(&bytes, move |tags| tags[0].1 = value)
        };
        for bad in ["", "two", "-1", "1.5", "4294967296", " 3"] {
            let err = LinesSession::load(&set(bad)).err();
            assert!(
                matches!(&err, Some(SaveError::Damaged(m)) if m.contains("Hints tag")),
                "{bad:?}: {err:?}"
            );
        }
        assert_eq!(
            LinesSession::load(&set("many"))
                .err()
                .map(|e| e.to_string()),
            Some(
                "the saved game is damaged: its Hints tag is `many`, not a number of hints".into()
            )
        );
        let long = LinesSession::load(&set(&"x".repeat(100))).err().unwrap();
        assert!(
            long.to_string()
                .contains(&format!("`{}…`", "x".repeat(super::super::QUOTED)))
        );
        let mut other = LinesSession::new(Settings::default(), [1; 32]);
        let before = other.game().clone();
        assert!(other.continue_saved(&set("lots")).is_err());
        assert_eq!(other.game(), &before, "nothing changed");
        assert!(super::super::check_saved(&set("lots")).is_err());
        assert_eq!(LinesSession::load(&set("7")).unwrap().hints_used(), 7);
        assert_eq!(LinesSession::load(&set("0")).unwrap().hints_used(), 0);
    }

    /// The clock's tags and the seed mark that are not numbers are refused as damage too,
    /// each named: read as absent, a clock would be lost (an untimed game's table) or a
    /// game whose seed the player knew ranked.
    #[test]
    fn the_other_tags_that_are_not_numbers_are_damage() {
        let mut s = LinesSession::new(Settings::default(), [7; 32]);
        s.mark_seed_known();
        s.start_clock(60_000, 0);
        s.tick(1_000);
        let bytes = s.save().unwrap();
        let back = LinesSession::load(&bytes).unwrap();
        assert!(back.seed_known());
        for (tag, what, value) in [
            ("TimeLeftMs", "a time in milliseconds", "soon"),
            ("TimeLimitMs", "a time in milliseconds", "soon"),
            ("SeedKnown", "1", "soon"),
            // The mark is `1` or absent: another number is no answer either way.
            ("SeedKnown", "1", "0"),
            ("SeedKnown", "1", "2"),
            ("SeedKnown", "1", "300"),
        ] {
            let bad = retagged(&bytes, |tags| {
                tags.iter_mut().find(|(k, _)| k == tag).unwrap().1 = value.into();
            });
            assert_eq!(
                LinesSession::load(&bad).err().map(|e| e.to_string()),
                Some(format!(
                    "the saved game is damaged: its {tag} tag is `{value}`, not {what}"
                )),
            );
        }
    }
}
