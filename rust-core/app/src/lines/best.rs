//! The best scores of a [`LinesSession`]: a finished game's ending entered once in the
//! table of its kind, taken back by undo, and merged with the copy another session
//! (another window, another process) wrote meanwhile, so that sessions sharing the table
//! lose none of each other's entries. The table's bytes are [`super::best_file`]'s.

use super::best_file::{decode, encode};
use super::{Clock, LinesSession};
use crate::save::SaveError;
use banco_game::ScoreGame;
use banco_lines::best::{BestChange, BestKind, BestScore, BestScores, Ending, game_id};

impl LinesSession {
    /// The best scores, every kind of game.
    #[must_use]
    pub const fn best_scores(&self) -> &BestScores {
        &self.best
    }

    /// The kind of game this one is, as the best scores rank it: its settings, its time
    /// limit ([`LinesSession::start_clock`]; untimed without a clock) and whether the
    /// player asked for hints ([`LinesSession::hints_used`]: a game with hints ranks only
    /// among games with hints). A game against the clock continued from a save that did
    /// not keep its limit (saved before the limit was) is of [`BestKind::Earlier`]: its
    /// limit is not known.
    #[must_use]
    pub fn best_kind(&self) -> BestKind {
        let kind = match self.clock {
            None => BestKind::of(self.game.settings(), None),
            Some(Clock {
                limit_ms: Some(ms), ..
            }) => BestKind::of(
                self.game.settings(),
                Some(u32::try_from(ms.div_ceil(1000)).unwrap_or(u32::MAX)),
            ),
            Some(Clock { limit_ms: None, .. }) => BestKind::Earlier,
        };
        kind.with_hints(self.hints_used > 0)
    }

    /// The best scores of this game's kind ([`LinesSession::best_kind`]), best first: the
    /// table its ending enters, where [`LinesSession::record_result`]'s rank points.
    #[must_use]
    pub fn best_scores_of_game(&self) -> &[BestScore] {
        self.best.entries_of(self.best_kind())
    }

    /// Enters the finished game in the best scores of its kind
    /// ([`LinesSession::best_kind`]), once (`date` as the front end writes it); its rank
    /// among the games of its kind, or `None` if the game goes on, was entered already,
    /// did not make the table, or is not ranked: a game without a point is no record,
    /// and a game whose seed the player knew ([`LinesSession::mark_seed_known`]), or that
    /// was played to its end before ([`LinesSession::played_before`]), could have been
    /// played with its balls known. Whatever its score, ranked or not, the table
    /// remembers from now on that the game was played to its end
    /// ([`BestScores::end_game`]), so that a save of it played again never enters.
    pub fn record_result(&mut self, date: &str) -> Option<usize> {
        if !self.is_over() || self.recorded {
            return None;
        }
        self.recorded = true;
        if self.played_before() {
            return None;
        }
        let id = game_id(&self.game.seed());
        let ending = Ending {
            game: id,
            tag: ending_tag(self.game.score(), self.game.turns(), date, self.nonce),
        };
        if let Some(change) = self.best.end_game(ending) {
            self.ended = Some(change.clone());
            self.unkept.push(change);
        }
        if self.seed_known || self.game.score() == 0 {
            return None;
        }
        let kind = self.best_kind();
        let game = Some(id);
        let (rank, change) =
            self.best
                .enter(kind, game, self.game.score(), self.game.turns(), date)?;
        // Kept behind the shown entries, it is entered too: undo takes it out.
        self.entered = Some(change.clone());
        self.unkept.push(change);
        rank
    }

    /// What a screen says beside the score of how this game ranks, or `None` for a game
    /// that enters the best scores of its kind as usual: played to its end before (a save
    /// of it, or the same seed: it does not enter), its seed known (not ranked), or played
    /// with hints (it ranks among games with hints).
    ///
    /// ```
    /// use banco_app::lines::LinesSession;
    /// use banco_lines::Settings;
    /// let mut s = LinesSession::new(Settings::default(), [3; 32]);
    /// assert_eq!(s.ranking_note(), None);
    /// s.mark_seed_known();
    /// assert!(s.ranking_note().is_some_and(|n| n.contains("not ranked")));
    /// ```
    #[must_use]
    pub fn ranking_note(&self) -> Option<&'static str> {
        if self.played_before() {
            Some(RANKING_NOTE_PLAYED_BEFORE)
        } else if self.seed_known() {
            Some(RANKING_NOTE_SEED_KNOWN)
        } else if self.hints_used() > 0 {
            Some(RANKING_NOTE_HINTED)
        } else {
            None
        }
    }

    /// True when the best scores remember an ending of this very game that this session
    /// did not record — an entry of it, or its ending however it scored
    /// ([`BestScores::has_game`]): the game was played to its end before (from a save of
    /// it, or the same seed), so its balls were known this time. Its ending does not enter
    /// again ([`LinesSession::record_result`]).
    #[must_use]
    pub fn played_before(&self) -> bool {
        self.entered.is_none()
            && self.ended.is_none()
            && self.best.has_game(game_id(&self.game.seed()))
    }

    /// The best-scores table as bytes for the front end to keep.
    pub fn best_scores_bytes(&self) -> Result<Vec<u8>, SaveError> {
        encode(&self.best)
    }

    /// Loads a best-scores table written by [`LinesSession::best_scores_bytes`] (in place
    /// of this session's, changes not yet kept included).
    pub fn load_best_scores(&mut self, bytes: &[u8]) -> Result<(), SaveError> {
        self.best = decode(bytes)?;
        // This game's ending, if the loaded table holds it, is still this game's: undo
        // takes it out, and the game is not "played before".
        let kept = match &self.entered {
            Some(BestChange::Entered(entry)) => self.best.holds(entry),
            _ => false,
        };
        if !kept {
            self.entered = None;
        }
        if let Some(BestChange::Ended { ending, .. }) = &self.ended
            && !self.best.remembers(*ending)
        {
            self.ended = None;
        }
        self.unkept.clear();
        Ok(())
    }

    /// Before writing the table to a store that other sessions write too: `stored`, the
    /// table as the store holds it now (read just before, under the front end's lock),
    /// becomes this session's, with this session's changes not yet kept made in it again
    /// (an ending entered, or taken back by undo). Then write
    /// [`LinesSession::best_scores_bytes`] and call [`LinesSession::best_scores_kept`].
    /// A table that cannot be read changes nothing (do not write then: the other
    /// sessions' entries would be lost).
    ///
    /// An ending of this session of a game whose ending the stored table holds already,
    /// from another session (which played the same save to its end first), is dropped with
    /// its entry and with what undo took back of them: a game enters once, and this
    /// session's game is played before from then on ([`LinesSession::played_before`]).
    /// This session's own changes written already (the store read again before the write
    /// was marked kept) are there once.
    pub fn merge_best_scores(&mut self, stored: &[u8]) -> Result<(), SaveError> {
        let mut table = decode(stored)?;
        let mut unkept = Vec::with_capacity(self.unkept.len());
        // Games whose ending came from another session first: this session's changes of
        // them are dropped.
        let mut ended_elsewhere: Vec<u64> = Vec::new();
        for change in self.unkept.drain(..) {
            let elsewhere = |game: Option<u64>| game.is_some_and(|g| ended_elsewhere.contains(&g));
            match &change {
                BestChange::Ended { ending, .. } if table.remembers(*ending) => {
                    // Written already: there once.
                    unkept.push(change);
                    continue;
                }
                BestChange::Ended { ending, .. } if table.has_game(ending.game) => {
                    ended_elsewhere.push(ending.game);
                    if self.ended.as_ref() == Some(&change) {
                        // Played before, elsewhere: so said from now on.
                        self.ended = None;
                        self.entered = None;
                    }
                    continue;
                }
                // Its entry was dropped: taking it back could take out the other session's
                // entry of the game, were it equal. (Its ending's take-back needs no such
                // care: it takes out only this session's own ending, never there, and so
                // brings back nothing that ending made this session's copy forget.)
                BestChange::Withdrawn(entry) if elsewhere(entry.game) => continue,
                BestChange::Entered(entry) => {
                    if table.holds(entry) {
                        // Written already (the store was read again before the write was
                        // marked kept): there once.
                        unkept.push(change);
                        continue;
                    }
                    if elsewhere(entry.game) || entry.game.is_some_and(|g| table.has_entry_of(g)) {
                        if self.entered.as_ref() == Some(&change) {
                            // Played before, elsewhere: so said from now on.
                            self.entered = None;
                            self.ended = None;
                        }
                        continue;
                    }
                }
                _ => {}
            }
            // Made again here, an ending may make this copy forget another ending than this
            // session's copy did (an entry is made alike): undo takes back the change as
            // made here.
            let made = table.apply(&change);
            if self.ended.as_ref() == Some(&change) {
                self.ended = Some(made.clone());
            }
            unkept.push(made);
        }
        self.unkept = unkept;
        self.best = table;
        Ok(())
    }

    /// The rank (0 = best) of this game's entry among the games of its kind as the table
    /// stands now — after a merge with another session's table, which may have moved it or
    /// dropped it (the game was played to its end there first) — or `None` if it has none.
    #[must_use]
    pub fn entered_rank(&self) -> Option<usize> {
        let Some(BestChange::Entered(entry)) = &self.entered else {
            return None;
        };
        self.best
            .entries_of(entry.kind)
            .iter()
            .position(|e| e == entry)
    }

    /// True when the best scores changed since they were last kept
    /// ([`LinesSession::best_scores_kept`]): an ending entered or remembered, or taken
    /// back by undo. A front end that writes the table only when it changed asks this
    /// after [`LinesSession::record_result`] and undo — an ending that did not enter is a
    /// change too (the table remembers it: [`LinesSession::played_before`]).
    #[must_use]
    pub fn best_scores_unkept(&self) -> bool {
        !self.unkept.is_empty()
    }

    /// The table was written to the store: its changes are kept.
    pub fn best_scores_kept(&mut self) {
        self.unkept.clear();
    }
}

/// [`LinesSession::ranking_note`] of a game played to its end before.
pub const RANKING_NOTE_PLAYED_BEFORE: &str =
    "played to its end before, its balls known: this game does not enter the best scores";
/// [`LinesSession::ranking_note`] of a game whose seed the player knew.
pub const RANKING_NOTE_SEED_KNOWN: &str = "a known seed: this game is not ranked";
/// [`LinesSession::ranking_note`] of a game played with hints.
pub const RANKING_NOTE_HINTED: &str = "hints used: this game ranks among games played with hints";

/// The tag of a session's ending of a game ([`Ending::tag`]): a fold (FNV-1a) of its
/// score, turns, the date the front end wrote and the session's own random number
/// ([`session_nonce`]). Two sessions' endings of one game tell apart however alike they
/// were played; a session's own ending taken back by undo and played again alike on the
/// same day is the same ending.
fn ending_tag(score: u32, turns: u32, date: &str, nonce: u32) -> u32 {
    let bytes = score
        .to_le_bytes()
        .into_iter()
        .chain(turns.to_le_bytes())
        .chain(nonce.to_le_bytes())
        .chain(date.bytes());
    bytes.fold(0x811C_9DC5, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// A random number for a new session (from the standard library's randomly keyed
/// hasher: the operating system's randomness, no clock), which tells its endings from
/// another session's.
pub(super) fn session_nonce() -> u32 {
    use std::hash::{BuildHasher, RandomState};
    let n = RandomState::new().hash_one(0x6C69_6E65_u32);
    // Both halves folded: the tag is 32 bits.
    (n ^ (n >> 32)) as u32
}

/// The row of the best-scores table at `rank` (0 = best) as a screen lists it:
/// `"1. 1240 points, 312 turns (2026-12-02)"` (without the date when none was written).
#[must_use]
pub fn best_row_text(rank: usize, entry: &BestScore) -> String {
    let date = if entry.date.is_empty() {
        String::new()
    } else {
        format!(" ({})", entry.date)
    };
    let plural = |n: u32| if n == 1 { "" } else { "s" };
    format!(
        "{}. {} point{}, {} turn{}{date}",
        rank + 1,
        entry.score,
        plural(entry.score),
        entry.turns,
        plural(entry.turns)
    )
}

/// A kind of game in words, as a heading over its best scores: `"classic, 5 balls, undo of
/// the last turn, untimed"`, `"with preview, 3 balls, unlimited undo, 3 min limit"`; a
/// game of the spawn rule of older saves says so (`", older landing rule"`), a game in
/// which the player asked for hints too (`", with hints"`, last), and the entries of a
/// table written before the kinds read `"earlier games (rules not recorded)"`.
#[must_use]
pub fn best_kind_label(kind: BestKind) -> String {
    let Some(r) = kind.rules() else {
        return "earlier games (rules not recorded)".to_owned();
    };
    let undo = match r.undo {
        banco_lines::UndoRule::Off => "no undo",
        banco_lines::UndoRule::LastTurn => "undo of the last turn",
        banco_lines::UndoRule::Unlimited => "unlimited undo",
    };
    let time = match r.time_limit_s {
        None => "untimed".to_owned(),
        Some(0) => "0 s limit".to_owned(),
        Some(s) => format!("{} limit", crate::lines_options::time_limit_label(s)),
    };
    format!(
        "{}, {} balls, {undo}, {time}{}{}",
        if r.preview { "with preview" } else { "classic" },
        r.start_balls,
        match r.spawn {
            banco_lines::SpawnRule::AtLanding => ", older landing rule",
            banco_lines::SpawnRule::AtAnnouncement => "",
        },
        if r.hints { ", with hints" } else { "" }
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
pub(super) mod tests {
    use super::*;
    use banco_lines::ai;
    use banco_lines::best::{MAX_ENDED, RESERVE};
    use banco_lines::{Settings, UndoError};

    /// Plays the session's game to its end with the greedy move.
    pub(in crate::lines) fn finish(s: &mut LinesSession) {
        while let Some(m) = ai::greedy_move(s.game()) {
            s.play(m.from, m.to).unwrap();
        }
    }

    /// A game whose seed the player knew is not ranked, nor once saved and continued, in
    /// another session or the same; a new game starts ranked.
    #[test]
    fn a_game_of_a_known_seed_is_not_ranked() {
        let mut s = LinesSession::new(Settings::default(), [3; 32]);
        s.mark_seed_known();
        let m = ai::greedy_move(s.game()).unwrap();
        s.play(m.from, m.to).unwrap();
        let saved = s.save().unwrap();
        let mut loaded = LinesSession::load(&saved).unwrap();
        assert!(loaded.seed_known());
        finish(&mut loaded);
        assert!(loaded.score() > 0);
        assert_eq!(loaded.record_result("2026-12-06"), None);
        assert!(loaded.best_scores().kinds().next().is_none());
        let mut other = LinesSession::new(Settings::default(), [3; 32]);
        other.continue_saved(&saved).unwrap();
        finish(&mut other);
        assert_eq!(other.record_result("2026-12-06"), None);
        // The same game unmarked enters the table; a new game drops the mark.
        let mut plain = LinesSession::new(Settings::default(), [3; 32]);
        finish(&mut plain);
        assert_eq!(plain.record_result("2026-12-06"), Some(0));
        other.new_game(None, [5; 32]);
        assert!(!other.seed_known());
    }

    /// Two sessions read the same table; each finishes a game and writes after merging
    /// with what the store holds: both entries are there, and an ending taken back by one
    /// leaves the other's entry.
    #[test]
    fn two_sessions_keep_each_others_entries() {
        let mut store = LinesSession::new(Settings::default(), [1; 32])
            .best_scores_bytes()
            .unwrap();
        let mut a = LinesSession::new(Settings::default(), [2; 32]);
        let mut b = LinesSession::new(Settings::default(), [3; 32]);
        a.load_best_scores(&store).unwrap();
        b.load_best_scores(&store).unwrap();
        finish(&mut a);
        finish(&mut b);
        let keep = |s: &mut LinesSession, store: &mut Vec<u8>| {
            s.merge_best_scores(store).unwrap();
            *store = s.best_scores_bytes().unwrap();
            s.best_scores_kept();
        };
        assert!(a.record_result("2026-12-06").is_some());
        keep(&mut a, &mut store);
        assert!(b.record_result("2026-12-06").is_some());
        keep(&mut b, &mut store);
        assert_eq!(decode(&store).unwrap().len(), 2);
        assert_eq!(b.best_scores_of_game().len(), 2, "b shows a's entry too");
        // a takes its ending back: b's entry stays.
        a.undo().unwrap();
        keep(&mut a, &mut store);
        let table = decode(&store).unwrap();
        assert_eq!(table.len(), 1);
        assert_eq!(table.entries_of(b.best_kind())[0].score, b.score());
        // A store that cannot be read is not merged (nothing to write over).
        assert_eq!(
            a.merge_best_scores(b"id,score\n"),
            Err(SaveError::NotBestScores)
        );
    }

    /// Two sessions play one save to its end alike (same moves, same score and turns, same
    /// day): the second to write finds the first's ending, not its own, so its game was
    /// played before, and its undo takes nothing of the first's. (When the tag was of the
    /// score, turns and date only, the second took the first's ending and entry for its own,
    /// and its undo took them out.)
    #[test]
    fn two_sessions_playing_one_save_alike_are_told_apart() {
        let (_, save) = saved_midway(23);
        let mut a = LinesSession::load(&save).unwrap();
        let mut b = LinesSession::load(&save).unwrap();
        finish(&mut a);
        finish(&mut b);
        assert_eq!((a.score(), a.game().turns()), (b.score(), b.game().turns()));
        assert_eq!(a.record_result("2026-12-07"), Some(0));
        assert_eq!(b.record_result("2026-12-07"), Some(0));
        let a_table = a.best_scores().clone();
        b.merge_best_scores(&encode(&a_table).unwrap()).unwrap();
        assert!(b.played_before(), "a's ending came first");
        assert_eq!(b.entered_rank(), None);
        assert_eq!(b.best_scores(), &a_table);
        b.undo().unwrap();
        assert_eq!(b.best_scores(), &a_table, "b's undo took nothing of a's");
        // One session's own ending, taken back and played again alike, is the same ending.
        a.undo().unwrap();
        finish(&mut a);
        assert_eq!(a.record_result("2026-12-07"), Some(0));
        assert_eq!(a.best_scores(), &a_table);
    }

    /// A full table: one session's ending pushes out the last entry of its copy, another
    /// session's entry has taken that place in the store meanwhile. Merged, written, then
    /// taken back by undo, it leaves the other session's entry shown again — not the
    /// entry its own copy lost, which the other session had pushed out already. (When a
    /// change carried the entry it pushed out, that entry came back and the other
    /// session's was lost.)
    #[test]
    fn undo_after_a_merge_shows_again_what_the_ending_pushed_out_of_the_store() {
        let mut a = LinesSession::new(Settings::default(), [2; 32]);
        let mut b = LinesSession::new(Settings::default(), [3; 32]);
        finish(&mut a);
        finish(&mut b);
        assert_ne!(a.score(), b.score());
        let (mut hi, mut lo) = if a.score() > b.score() {
            (a, b)
        } else {
            (b, a)
        };
        let kind = hi.best_kind();
        let mut stored = BestScores::new(2);
        stored.record(kind, 1_000_000, 1, "2026-01-01");
        stored.record(kind, 1, 1, "2026-01-01");
        let mut store = encode(&stored).unwrap();
        hi.load_best_scores(&store).unwrap();
        lo.load_best_scores(&store).unwrap();
        let keep = |s: &mut LinesSession, store: &mut Vec<u8>| {
            s.merge_best_scores(store).unwrap();
            *store = s.best_scores_bytes().unwrap();
            s.best_scores_kept();
        };
        let scores = |store: &[u8]| {
            let t = decode(store).unwrap();
            t.entries_of(kind)
                .iter()
                .map(|e| e.score)
                .collect::<Vec<_>>()
        };
        assert_eq!(lo.record_result("2026-12-07"), Some(1));
        keep(&mut lo, &mut store);
        assert_eq!(
            hi.record_result("2026-12-07"),
            Some(1),
            "its copy's 1 pushed out"
        );
        keep(&mut hi, &mut store);
        assert_eq!(scores(&store), [1_000_000, hi.score()]);
        hi.undo().unwrap();
        keep(&mut hi, &mut store);
        assert_eq!(
            scores(&store),
            [1_000_000, lo.score()],
            "lo's entry is back"
        );
        lo.merge_best_scores(&store).unwrap();
        assert_eq!(lo.entered_rank(), Some(1));
    }

    #[test]
    fn best_rows_read_rank_score_turns_and_date() {
        let kind = BestKind::of(Settings::default(), None);
        let mut table = BestScores::new(3);
        table.record(kind, 120, 80, "2026-12-01");
        table.record(kind, 300, 150, "");
        table.record(kind, 1, 1, "2026-12-03");
        let rows: Vec<String> = table
            .entries_of(kind)
            .iter()
            .enumerate()
            .map(|(i, e)| best_row_text(i, e))
            .collect();
        assert_eq!(
            rows,
            [
                "1. 300 points, 150 turns",
                "2. 120 points, 80 turns (2026-12-01)",
                "3. 1 point, 1 turn (2026-12-03)"
            ]
        );
    }

    #[test]
    fn an_ending_taken_back_leaves_the_best_scores() {
        let mut s = LinesSession::new(Settings::default(), [8; 32]);
        s.best.record(s.best_kind(), 1_000_000, 1, "2026-01-01");
        finish(&mut s);
        assert_eq!(s.record_result("2026-12-05"), Some(1));
        s.undo().unwrap();
        assert_eq!(s.best_scores_of_game().len(), 1, "the ending is taken out");
        assert_eq!(s.best_scores_of_game()[0].score, 1_000_000);
        finish(&mut s);
        assert_eq!(
            s.record_result("2026-12-05"),
            Some(1),
            "the new ending goes in"
        );
        assert_eq!(s.record_result("2026-12-05"), None);
        assert_eq!(s.best_scores_of_game().len(), 2, "one entry for the game");
        // The same with an ending that did not make the table: the next one is entered.
        let mut full = LinesSession::new(Settings::default(), [8; 32]);
        full.best = BestScores::new(1);
        full.best
            .record(full.best_kind(), 1_000_000, 1, "2026-01-01");
        finish(&mut full);
        assert_eq!(full.record_result("2026-12-05"), None);
        full.undo().unwrap();
        assert_eq!(full.best_scores_of_game().len(), 1);
        assert!(!full.recorded, "the next ending will be judged again");
        // An ending that pushed the last entry out of a full table: undo puts it back.
        let mut pushed = LinesSession::new(Settings::default(), [8; 32]);
        pushed.best = BestScores::new(2);
        pushed
            .best
            .record(pushed.best_kind(), 1_000_000, 1, "2026-01-01");
        pushed.best.record(pushed.best_kind(), 1, 2, "2026-01-02");
        let before = pushed.best_scores().clone();
        finish(&mut pushed);
        assert_eq!(pushed.record_result("2026-12-05"), Some(1));
        assert_eq!(pushed.best_scores_of_game()[1].date, "2026-12-05");
        pushed.undo().unwrap();
        assert_eq!(
            pushed.best_scores(),
            &before,
            "the entry pushed out is back"
        );
        // A finished game loads finished: no undo, not entered again.
        let bytes = s.save().unwrap();
        let mut back = LinesSession::load(&bytes).unwrap();
        assert!(back.is_over());
        assert_eq!(
            (back.score(), back.game().turns()),
            (s.score(), s.game().turns())
        );
        assert_eq!(back.undo(), Err(UndoError::Nothing));
        assert_eq!(back.record_result("2026-12-06"), None);
        let mut other = LinesSession::new(Settings::default(), [1; 32]);
        other.continue_saved(&bytes).unwrap();
        assert_eq!(other.undo(), Err(UndoError::Nothing));
        assert_eq!(other.record_result("2026-12-06"), None);
    }

    /// A game against the clock ranks among games of its limit: the limit is saved with
    /// the game and comes back with it; a save of a timed game without its limit (written
    /// before the limit was saved) enters the earlier games' table.
    #[test]
    fn a_timed_game_enters_the_table_of_its_kind() {
        let mut s = LinesSession::new(Settings::default(), [8; 32]);
        let untimed = s.best_kind();
        assert_eq!(untimed, BestKind::of(Settings::default(), None));
        s.start_clock(180_000, 0);
        let timed = s.best_kind();
        assert_eq!(timed, BestKind::of(Settings::default(), Some(180)));
        // An untimed game's entry of a high score: no competitor of the timed game.
        s.best.record(untimed, 1_000_000, 1, "2026-01-01");
        s.tick(1_000);
        let saved = s.save().unwrap();
        finish(&mut s);
        assert_eq!(s.record_result("2026-12-06"), Some(0), "first of its kind");
        assert_eq!(s.best_scores_of_game().len(), 1);
        assert_eq!(s.best_scores_of_game()[0].kind, timed);
        assert_eq!(s.best_scores().entries_of(untimed).len(), 1);
        // Continued from its save: the same kind.
        let mut back = LinesSession::load(&saved).unwrap();
        assert_eq!(back.best_kind(), timed);
        back.new_game(None, [1; 32]);
        assert_eq!(
            back.best_kind(),
            untimed,
            "a new game is untimed until its clock starts"
        );
        // Saved before the limit was: the limit is not known.
        let mut record = crate::save::SavedLines::decode(&saved).unwrap();
        record
            .tags
            .retain(|(k, _)| k != super::super::TIME_LIMIT_TAG);
        assert_eq!(record.tags.len(), 1, "the time left stays");
        let mut older = LinesSession::load(&record.encode().unwrap()).unwrap();
        assert_eq!(older.best_kind(), BestKind::Earlier);
        finish(&mut older);
        assert_eq!(older.record_result("2026-12-06"), Some(0));
        assert_eq!(older.best_scores().entries_of(BestKind::Earlier).len(), 1);
        // Odd limits: a part of a second counts as a second.
        let mut odd = LinesSession::new(Settings::default(), [8; 32]);
        odd.start_clock(1_500, 0);
        assert_eq!(odd.best_kind(), BestKind::of(Settings::default(), Some(2)));
    }

    /// Games of other rules do not push each other out, and the ranks are within a kind.
    #[test]
    fn settings_that_change_the_game_are_ranked_apart() {
        let settings = [
            Settings::default(),
            Settings::default().with_preview(true),
            Settings::new(3, banco_lines::UndoRule::Off).unwrap(),
            Settings::default().with_spawn(banco_lines::SpawnRule::AtLanding),
        ];
        let mut s = LinesSession::new(Settings::default(), [1; 32]);
        s.best = BestScores::new(1);
        for (i, &settings) in settings.iter().enumerate() {
            s.new_game(Some(settings), [9 + i as u8; 32]);
            finish(&mut s);
            assert_eq!(s.record_result("2026-12-06"), Some(0), "game {i}");
        }
        assert_eq!(s.best_scores().len(), 4, "one entry of each kind");
        assert_eq!(s.best_scores().kinds().count(), 4);
        for e in s.best_scores().entries() {
            assert_eq!(s.best_scores().entries_of(e.kind), std::slice::from_ref(e));
        }
    }

    #[test]
    fn a_kind_reads_in_plain_words() {
        let label = |settings: Settings, limit| best_kind_label(BestKind::of(settings, limit));
        assert_eq!(
            label(Settings::default(), None),
            "classic, 5 balls, undo of the last turn, untimed"
        );
        assert_eq!(
            label(
                Settings::new(3, banco_lines::UndoRule::Unlimited)
                    .unwrap()
                    .with_preview(true),
                Some(180)
            ),
            "with preview, 3 balls, unlimited undo, 3 min limit"
        );
        assert_eq!(
            label(
                Settings::new(5, banco_lines::UndoRule::Off)
                    .unwrap()
                    .with_spawn(banco_lines::SpawnRule::AtLanding),
                Some(90)
            ),
            "classic, 5 balls, no undo, 1 min 30 s limit, older landing rule"
        );
        assert_eq!(
            label(Settings::default(), Some(0)),
            "classic, 5 balls, undo of the last turn, 0 s limit"
        );
        let hinted = |settings: Settings, limit| {
            best_kind_label(BestKind::of(settings, limit).with_hints(true))
        };
        assert_eq!(
            hinted(Settings::default(), None),
            "classic, 5 balls, undo of the last turn, untimed, with hints"
        );
        assert_eq!(
            hinted(
                Settings::default().with_spawn(banco_lines::SpawnRule::AtLanding),
                Some(60)
            ),
            "classic, 5 balls, undo of the last turn, 1 min limit, older landing rule, with hints"
        );
        assert_eq!(
            best_kind_label(BestKind::Earlier),
            "earlier games (rules not recorded)"
        );
    }

    /// Twenty greedy turns of the game of `seed`, and its save then.
    pub(in crate::lines) fn saved_midway(seed: u8) -> (LinesSession, Vec<u8>) {
        let mut s = LinesSession::new(Settings::default(), [seed; 32]);
        for _ in 0..20 {
            let m = ai::greedy_move(s.game()).unwrap();
            s.play(m.from, m.to).unwrap();
        }
        let save = s.save().unwrap();
        (s, save)
    }

    /// The table remembers a game played to its end even when no entry of it is left: an
    /// ending that did not make a full table, and one that entered and was pushed out by
    /// better games later. A save of either, continued, is a game played before and never
    /// enters. (Before the table kept the endings, both entered from their saves.)
    #[test]
    fn an_ending_that_left_no_entry_is_still_played_before() {
        // Did not make the table: a table of one place, held by better games, and as many
        // kept behind it as it keeps.
        let (mut s, save) = saved_midway(16);
        let kind = s.best_kind();
        s.best = BestScores::new(1);
        for i in 0..=RESERVE as u32 {
            s.best.record(kind, 1_000_000 + i, 1, "2026-01-01");
        }
        finish(&mut s);
        assert_eq!(s.record_result("2026-12-07"), None, "below the table");
        assert!(!s.played_before(), "its own ending");
        let table = s.best_scores_bytes().unwrap();
        let mut again = LinesSession::load(&save).unwrap();
        again.load_best_scores(&table).unwrap();
        assert!(again.played_before(), "said as soon as it is continued");
        // Its better game gone, it still does not enter.
        let mut roomy = LinesSession::load(&save).unwrap();
        roomy.load_best_scores(&table).unwrap();
        let kind = roomy.best_kind();
        while roomy.best.remove(kind, 0).is_some() {}
        assert!(roomy.best_scores().is_empty());
        finish(&mut roomy);
        assert_eq!(roomy.record_result("2026-12-08"), None);

        // Entered, then pushed out of its kind's table by better games.
        let (mut p, save) = saved_midway(17);
        p.best = BestScores::new(1);
        finish(&mut p);
        assert_eq!(p.record_result("2026-12-07"), Some(0));
        p.new_game(None, [18; 32]);
        let kind = p.best_kind();
        let mut pushed = p.best_scores().clone();
        for i in 0..=RESERVE as u32 {
            pushed.record(kind, 1_000_000 + i, 1, "2026-12-08");
        }
        assert!(
            !pushed.has_entry_of(game_id(&[17; 32])),
            "the game's entry pushed out"
        );
        let mut again = LinesSession::load(&save).unwrap();
        again.load_best_scores(&encode(&pushed).unwrap()).unwrap();
        assert!(again.played_before());
        finish(&mut again);
        assert_eq!(again.record_result("2026-12-09"), None);
    }

    /// A store that remembers all the endings it can: a session's ending, made again there
    /// after another session's, makes it forget another ending than the session's own copy
    /// did; the session's undo brings back the one forgotten in the store.
    #[test]
    fn undo_after_a_merge_brings_back_the_ending_the_store_forgot() {
        let end = |game: u64| Ending { game, tag: 1 };
        let mut full = BestScores::new(10);
        for g in 0..MAX_ENDED as u64 {
            full.end_game(end(g));
        }
        let (mut s, _) = saved_midway(24);
        s.load_best_scores(&encode(&full).unwrap()).unwrap();
        finish(&mut s);
        s.record_result("2026-12-07");
        assert!(!s.best_scores().has_game(0), "its copy forgot game 0");
        // Meanwhile another session's ending made the store forget game 0.
        let mut stored = full;
        stored.end_game(end(5000));
        s.merge_best_scores(&encode(&stored).unwrap()).unwrap();
        assert!(
            !s.best_scores().has_game(1),
            "made again there, it forgot game 1"
        );
        s.undo().unwrap();
        let table = s.best_scores();
        assert!(table.has_game(1) && !table.has_game(0) && table.has_game(5000));
        assert_eq!(table.ended_games().len(), MAX_ENDED);
    }

    /// Undo of a finished game's last turn forgets its ending with its entry: the table is as
    /// before, and the game's next ending is judged afresh.
    #[test]
    fn undo_forgets_the_ending_too() {
        let (mut s, _) = saved_midway(19);
        let before = s.best_scores().clone();
        finish(&mut s);
        assert!(s.record_result("2026-12-07").is_some());
        assert_eq!(s.best_scores().ended_games().len(), 1);
        s.undo().unwrap();
        assert_eq!(s.best_scores(), &before);
        assert!(!s.played_before());
        finish(&mut s);
        assert!(s.record_result("2026-12-07").is_some());
    }

    /// Two sessions sharing a table play the same save to its end; the first to write scored
    /// too little to enter. The second, merging, finds the game's ending remembered and does
    /// not enter it (before, only an entry of the game stopped it). Merging twice before the
    /// write is marked kept leaves a session's own entry in.
    #[test]
    fn an_ending_remembered_elsewhere_is_not_entered_on_merge() {
        let (s, save) = saved_midway(20);
        let mut full = BestScores::new(1);
        full.record(s.best_kind(), 1_000_000, 1, "2026-01-01");
        let stored = encode(&full).unwrap();
        let mut a = LinesSession::load(&save).unwrap();
        a.load_best_scores(&stored).unwrap();
        finish(&mut a);
        assert_eq!(a.record_result("2026-12-07"), None, "below the table");
        a.merge_best_scores(&stored).unwrap();
        let stored = a.best_scores_bytes().unwrap();
        a.best_scores_kept();

        // b read the table when it had a free place (no better game yet).
        let mut b = LinesSession::load(&save).unwrap();
        finish(&mut b);
        assert_eq!(b.record_result("2026-12-08"), Some(0));
        assert_eq!(b.entered_rank(), Some(0));
        b.merge_best_scores(&stored).unwrap();
        assert!(b.played_before());
        assert_eq!(b.entered_rank(), None, "its entry dropped");
        assert_eq!(b.best_scores().len(), 1, "only the better game");

        // A session's own ending and entry, merged twice before the write is kept: once.
        let (mut c, _) = saved_midway(21);
        finish(&mut c);
        assert_eq!(c.record_result("2026-12-07"), Some(0));
        let empty = encode(&BestScores::default()).unwrap();
        c.merge_best_scores(&empty).unwrap();
        let written = c.best_scores_bytes().unwrap();
        c.merge_best_scores(&written).unwrap();
        assert_eq!(c.best_scores().len(), 1);
        assert!(!c.played_before());
        assert_eq!(c.best_scores().ended_games().len(), 1);
    }

    /// Review findings: an ending that did not enter, found remembered from another session
    /// on merge, makes the game played before here, and undo here then leaves the other
    /// session's ending (and entry) alone.
    #[test]
    fn an_ending_elsewhere_first_survives_this_sessions_undo() {
        let (_, save) = saved_midway(22);
        let mut b = LinesSession::load(&save).unwrap();
        finish(&mut b);
        assert_eq!(b.record_result("2026-12-07"), Some(0));
        let b_table = b.best_scores().clone();
        let stored = encode(&b_table).unwrap();
        // A plays the same save to its end below a table of one better game.
        let mut a = LinesSession::load(&save).unwrap();
        a.best = BestScores::new(1);
        a.best.record(a.best_kind(), 1_000_000, 1, "2026-01-01");
        finish(&mut a);
        assert_eq!(a.record_result("2026-12-08"), None);
        a.merge_best_scores(&stored).unwrap();
        assert!(a.played_before(), "B's ending came first");
        assert_eq!(a.best_scores(), &b_table, "nothing of A's ending");
        let written = a.best_scores_bytes().unwrap();
        a.best_scores_kept();
        a.undo().unwrap();
        a.merge_best_scores(&written).unwrap();
        assert_eq!(a.best_scores(), &b_table, "A's undo took nothing of B's");
        // The same with the undo before the merge.
        let mut c = LinesSession::load(&save).unwrap();
        finish(&mut c);
        assert_eq!(c.record_result("2026-12-09"), Some(0));
        c.undo().unwrap();
        finish(&mut c);
        c.merge_best_scores(&stored).unwrap();
        assert_eq!(c.best_scores(), &b_table, "C's undo took nothing of B's");
        // D's ending had pushed another game's entry out of its own table, then was taken
        // back: merged where that entry stands, it is not brought back a second time.
        let other = |t: &mut BestScores, kind| t.record_game(kind, Some(5), 1, 9, "2026-01-01");
        let mut both = b_table.clone();
        other(&mut both, b.best_kind());
        let mut d = LinesSession::load(&save).unwrap();
        let kind = d.best_kind();
        d.best = BestScores::new(1);
        other(&mut d.best, kind);
        finish(&mut d);
        assert_eq!(
            d.record_result("2026-12-10"),
            Some(0),
            "pushes the other game out"
        );
        d.undo().unwrap();
        d.merge_best_scores(&encode(&both).unwrap()).unwrap();
        assert_eq!(d.best_scores(), &both, "the other game's entry once");
    }

    /// Review findings: merged, written, not marked kept, then undone and played again
    /// and merged with what was written: the session's own ending, not another's — its
    /// new entry goes in and the game is not played before.
    #[test]
    fn an_own_ending_written_before_undo_and_replay_is_not_taken_for_anothers() {
        let (mut s, _) = saved_midway(23);
        finish(&mut s);
        assert_eq!(s.record_result("2026-12-07"), Some(0));
        s.merge_best_scores(&encode(&BestScores::default()).unwrap())
            .unwrap();
        let written = s.best_scores_bytes().unwrap();
        s.undo().unwrap();
        assert!(s.best_scores().is_empty());
        finish(&mut s);
        assert_eq!(s.record_result("2026-12-08"), Some(0));
        s.merge_best_scores(&written).unwrap();
        assert!(!s.played_before());
        assert_eq!(s.best_scores().len(), 1);
        assert_eq!(s.best_scores_of_game()[0].date, "2026-12-08");
        assert_eq!(s.best_scores().ended_games().len(), 1);
    }

    /// The note a screen shows of how the game ranks: played before, then a known seed,
    /// then hints; none for an ordinary game.
    #[test]
    fn the_ranking_note_says_why_a_game_does_not_rank_as_usual() {
        let (mut s, save) = saved_midway(24);
        assert_eq!(s.ranking_note(), None);
        finish(&mut s);
        assert!(s.record_result("2026-12-07").is_some());
        assert_eq!(s.ranking_note(), None, "its own ending");
        let mut again = LinesSession::load(&save).unwrap();
        again
            .load_best_scores(&s.best_scores_bytes().unwrap())
            .unwrap();
        assert_eq!(again.ranking_note(), Some(RANKING_NOTE_PLAYED_BEFORE));
        again.mark_seed_known();
        assert_eq!(
            again.ranking_note(),
            Some(RANKING_NOTE_PLAYED_BEFORE),
            "the stronger reason"
        );
        let mut hinted = LinesSession::new(Settings::default(), [25; 32]);
        assert!(hinted.hint().is_some());
        assert_eq!(hinted.ranking_note(), Some(RANKING_NOTE_HINTED));
        hinted.mark_seed_known();
        assert_eq!(hinted.ranking_note(), Some(RANKING_NOTE_SEED_KNOWN));
    }

    /// The rank a front end shows is the entry's place in the table as written: a better
    /// game another session entered meanwhile moves it down.
    #[test]
    fn the_entered_rank_follows_the_merged_table() {
        let (mut s, _) = saved_midway(26);
        finish(&mut s);
        assert_eq!(s.record_result("2026-12-07"), Some(0));
        assert_eq!(s.entered_rank(), Some(0));
        let mut stored = BestScores::default();
        stored.record_game(s.best_kind(), Some(7), 1_000_000, 1, "2026-12-07");
        s.merge_best_scores(&encode(&stored).unwrap()).unwrap();
        assert_eq!(s.entered_rank(), Some(1));
        s.undo().unwrap();
        assert_eq!(s.entered_rank(), None);
    }
}
