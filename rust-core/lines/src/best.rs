//! [`BestScores`]: the table of the best games, kept by the front end between games — the
//! top N of each kind of game ([`BestKind`]). The date is passed in (this crate reads no
//! clock).
//!
//! Games differ a lot in difficulty with their rules: with Lines 98's preview the same
//! player scores several times more, a game against the clock ends when its time does, a
//! game played with the computer's hints scores as the computer does. A game therefore
//! competes only with games of its own kind: each kind has its own ranking and keeps its
//! own top N, so a score made with the preview, with unlimited undo or with hints never
//! pushes a classic score out, and every entry says which rules it was played under.
//!
//! ```
//! use banco_lines::best::{BestKind, BestScores};
//! use banco_lines::{Settings, UndoRule};
//! let classic = BestKind::of(Settings::new(5, UndoRule::Off)?, None);
//! let preview = BestKind::of(Settings::default().with_preview(true), None);
//! let mut table = BestScores::new(3);
//! assert_eq!(table.record(classic, 120, 80, "2026-12-01"), Some(0));
//! assert_eq!(table.record(classic, 300, 150, "2026-12-02"), Some(0));
//! assert_eq!(table.record(classic, 120, 90, "2026-12-03"), Some(2)); // ties go after older games
//! assert_eq!(table.record(classic, 50, 30, "2026-12-04"), None); // its kind's table is full
//! // A preview game ranks among preview games only: first of its kind, no classic entry lost.
//! assert_eq!(table.record(preview, 5000, 400, "2026-12-05"), Some(0));
//! assert_eq!(table.entries_of(classic)[0].score, 300);
//! assert_eq!(table.entries_of(classic).len(), 3);
//! assert_eq!(table.kinds().collect::<Vec<_>>(), [classic, preview]);
//! assert_eq!(table.remove(classic, 0).map(|e| e.score), Some(300));
//! assert_eq!(table.entries_of(classic)[0].score, 120);
//! # Ok::<(), banco_lines::SettingsError>(())
//! ```
//!
//! Two sessions sharing a table: each brings its own changes into the other's copy.
//!
//! ```
//! use banco_lines::best::{BestKind, BestScores};
//! use banco_lines::Settings;
//! let kind = BestKind::of(Settings::default(), None);
//! let mut stored = BestScores::new(3);
//! stored.record(kind, 100, 50, "2026-12-01");
//! let (mut a, mut b) = (stored.clone(), stored.clone());
//! let (_, from_a) = a.enter(kind, Some(1), 0, 26, "2026-12-06").unwrap();
//! let (_, from_b) = b.enter(kind, Some(2), 0, 26, "2026-12-06").unwrap();
//! b.apply(&from_a); // b read the table a wrote, then made its own change again
//! assert_eq!(b.entries_of(kind).len(), 3);
//! b.apply(&from_b.inverse()); // b's ending taken back: a's entry stays
//! assert_eq!(b.entries_of(kind).len(), 2);
//! ```

use crate::game::{Settings, SpawnRule, UndoRule};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// Longest date text kept, in bytes.
pub const MAX_DATE: usize = 32;
/// The largest capacity: most entries one kind's table may show.
pub const MAX_CAPACITY: usize = 100;
/// Most entries a whole table may hold, every kind together, those kept behind the shown
/// ones ([`RESERVE`]) included: a game that would grow the table beyond it is not kept,
/// unless it is to be shown and takes the place of an entry behind the shown ones or of
/// its kind's last. Above what play shows (ten entries of each kind the settings screens
/// offer and the old spawn rule, each with and without hints: 180 kinds, 1,800 entries;
/// the reserves fill the rest), it bounds what a table read from a file — or built through
/// an API that takes any time limit — may hold.
pub const MAX_ENTRIES: usize = 2000;

/// Entries each kind keeps unseen behind its best [`BestScores::capacity`]: when an entry
/// is taken back (its game's last turn undone, in this session or in another that shares
/// the table, [`BestChange::Withdrawn`]), the best of them moves up in its place, so that
/// no session's undo loses an entry another session's game pushed out meanwhile. They
/// count against [`MAX_ENTRIES`], and give way there to an entry that is shown.
pub const RESERVE: usize = 10;

/// Most games a table remembers as played to their end ([`BestScores::ended_games`]),
/// whether or not they entered: past it the oldest is forgotten. A thousand endings are
/// years of play for most players, and 10 KB of table at most.
pub const MAX_ENDED: usize = 1000;

/// The rules of a game that change how hard it is, as its entry in the best scores keeps
/// them ([`BestKind::Played`]). What is left out does not change the game a player plays:
/// the seed (every game draws its own), the hint's budget, the date.
///
/// * `start_balls` — 3 or 5 balls on the board at the start: two more balls to clear.
/// * `undo` — no undo, the last turn, or any turn back: taking back a bad move (and
///   having seen where the balls landed) makes a game easier.
/// * `preview` — Lines 98's preview shows where the next balls land: the same player
///   scores several times more (the hint's median goes from about 1,300 to about six
///   thousand, `data/tuning.md`).
/// * `spawn` — where a ball lands is drawn when it lands ([`SpawnRule::AtLanding`], games
///   saved before 2026-12-06) or when it is announced ([`SpawnRule::AtAnnouncement`], every
///   new game): measurably easier for the same player (`data/tuning.md`, "The spawn rule").
///   A game with the preview always draws at announcement.
/// * `time_limit_s` — a game against the clock ends when its time is up: the limit, in
///   seconds, decides how far it goes; `None` for an untimed game.
/// * `hints` — the player asked the computer for hints: a hinted game ranks only among
///   hinted games (the hint is the computer player, whose median is about 1,300 points,
///   far above most players': `data/tuning.md`).
///
/// Ordered as a list of tables shows them: games without hints before games with them,
/// then untimed before timed (shorter limits first), without the preview before with it,
/// the strictest undo first, 5 start balls before 3, the spawns at announcement before
/// those at landing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rules {
    /// Balls at the start: 3 or 5.
    pub start_balls: u8,
    /// How far undo goes.
    pub undo: UndoRule,
    /// Lines 98's preview.
    pub preview: bool,
    /// When a ball's cell is drawn.
    pub spawn: SpawnRule,
    /// The time limit in seconds; `None` for an untimed game.
    pub time_limit_s: Option<u32>,
    /// The player asked the computer for hints: a hinted game ranks only among hinted
    /// games.
    pub hints: bool,
}

impl Rules {
    /// The rules of a game of `settings` (as a game plays them: a start other than 3 balls
    /// is 5, the preview draws at announcement) with the time limit `time_limit_s`, played
    /// without hints ([`Rules::with_hints`]).
    #[must_use]
    pub const fn of(settings: Settings, time_limit_s: Option<u32>) -> Rules {
        let played = settings.playable();
        Rules {
            start_balls: played.start_balls,
            undo: played.undo,
            preview: played.preview,
            spawn: played.spawn,
            time_limit_s,
            hints: false,
        }
    }

    /// These rules, played with hints (`hints` true) or without.
    #[must_use]
    pub const fn with_hints(self, hints: bool) -> Rules {
        Rules { hints, ..self }
    }

    /// The key of the order documented on the type.
    const fn order_key(&self) -> (bool, bool, u32, bool, u8, bool, bool) {
        let undo = match self.undo {
            UndoRule::Off => 0,
            UndoRule::LastTurn => 1,
            UndoRule::Unlimited => 2,
        };
        let timed = self.time_limit_s.is_some();
        let limit = match self.time_limit_s {
            Some(s) => s,
            None => 0,
        };
        (
            self.hints,
            timed,
            limit,
            self.preview,
            undo,
            self.start_balls != 5,
            matches!(self.spawn, SpawnRule::AtLanding),
        )
    }
}

impl Ord for Rules {
    fn cmp(&self, other: &Rules) -> Ordering {
        self.order_key()
            .cmp(&other.order_key())
            // Rules the key does not tell apart (odd start balls built field by field).
            .then(self.start_balls.cmp(&other.start_balls))
    }
}

impl PartialOrd for Rules {
    fn partial_cmp(&self, other: &Rules) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The kind of game an entry of the best scores was made in: entries compete only with
/// entries of the same kind. Ordered as a list of tables shows them ([`Rules`]' order),
/// the earlier games last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum BestKind {
    /// A game played under these rules.
    Played(Rules),
    /// A game whose rules were not recorded: the entries of a table written before Banco
    /// recorded each entry's kind (they were all ranked together then, whatever their
    /// rules), and a game against the clock saved before its time limit was saved.
    Earlier,
}

impl BestKind {
    /// The kind of a game of `settings` with the time limit `time_limit_s` (`None`:
    /// untimed).
    #[must_use]
    pub const fn of(settings: Settings, time_limit_s: Option<u32>) -> BestKind {
        BestKind::Played(Rules::of(settings, time_limit_s))
    }

    /// This kind, played with hints (`hints` true) or without ([`Rules::hints`]); the
    /// earlier games stay what they are (their rules were not recorded).
    ///
    /// ```
    /// use banco_lines::best::BestKind;
    /// use banco_lines::Settings;
    /// let plain = BestKind::of(Settings::default(), None);
    /// let hinted = plain.with_hints(true);
    /// assert_ne!(plain, hinted);
    /// assert!(plain < hinted, "games without hints are listed first");
    /// assert_eq!(hinted.with_hints(false), plain);
    /// assert_eq!(BestKind::Earlier.with_hints(true), BestKind::Earlier);
    /// ```
    #[must_use]
    pub const fn with_hints(self, hints: bool) -> BestKind {
        match self {
            BestKind::Played(r) => BestKind::Played(r.with_hints(hints)),
            BestKind::Earlier => BestKind::Earlier,
        }
    }

    /// The rules, unless they were not recorded ([`BestKind::Earlier`]).
    #[must_use]
    pub const fn rules(self) -> Option<Rules> {
        match self {
            BestKind::Played(r) => Some(r),
            BestKind::Earlier => None,
        }
    }
}

/// One finished game in the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BestScore {
    /// Final score.
    pub score: u32,
    /// Turns played.
    pub turns: u32,
    /// When it was played, as the front end wrote it (e.g. `2026-12-01`).
    pub date: String,
    /// The kind of game it was.
    pub kind: BestKind,
    /// The game it was ([`game_id`] of its seed): a game's ending enters the table once,
    /// so a game saved and played again from its save (its balls then known) does not
    /// enter a second time. `None` for an entry from a table that did not record it.
    pub game: Option<u64>,
}

impl BestScore {
    /// The entry of a game: its date cut to [`MAX_DATE`] bytes (at a character's end).
    fn new(kind: BestKind, game: Option<u64>, score: u32, turns: u32, date: &str) -> BestScore {
        let mut end = date.len().min(MAX_DATE);
        while !date.is_char_boundary(end) {
            end -= 1;
        }
        BestScore {
            score,
            turns,
            date: date.get(..end).unwrap_or_default().to_owned(),
            kind,
            game,
        }
    }
}

/// The game a seed makes, as the best scores tell games apart: the seed's 32 bytes folded
/// into 8 (two games with different seeds are told apart but for one chance in 2⁶⁴).
///
/// ```
/// use banco_lines::best::game_id;
/// assert_eq!(game_id(&[0; 32]), 0);
/// assert_ne!(game_id(&[1; 32]), game_id(&[2; 32]));
/// ```
#[must_use]
pub fn game_id(seed: &[u8; 32]) -> u64 {
    seed.chunks_exact(8).fold(0, |acc, chunk| {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        acc.rotate_left(17) ^ u64::from_le_bytes(word)
    })
}

/// The best scores of each kind of game, highest first; equal scores keep the older game
/// first. Each kind shows at most [`BestScores::capacity`] entries and keeps up to
/// [`RESERVE`] more unseen behind them (the next to move up when one is taken back); the
/// whole table keeps at most [`MAX_ENTRIES`]. The table also remembers the games played to
/// their end ([`BestScores::end_game`]), those that did not make it included: a game's
/// ending enters once, and a save of it played again (its balls then known) never enters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestScores {
    capacity: usize,
    /// Each kind's entries, best first, the shown ones ([`BestScores::capacity`]) and
    /// those kept behind them ([`RESERVE`]); no kind without entries.
    tables: BTreeMap<BestKind, Vec<BestScore>>,
    /// The endings of games played to their end, oldest first, one per game, at most
    /// [`MAX_ENDED`].
    ended: Vec<Ending>,
}

/// A game remembered as played to its end ([`BestScores::end_game`]): the game and which
/// ending of it this was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ending {
    /// The game ([`game_id`]).
    pub game: u64,
    /// Which ending of the game: a number the session that played it makes (say a fold of
    /// its score, turns and date), so that two copies of the table merged tell one
    /// session's ending of a game from another's ([`BestScores::remembers`]).
    pub tag: u32,
}

impl Default for BestScores {
    fn default() -> BestScores {
        BestScores::new(10)
    }
}

impl BestScores {
    /// An empty table showing `capacity` entries of each kind (1 to [`MAX_CAPACITY`]).
    #[must_use]
    pub fn new(capacity: usize) -> BestScores {
        BestScores {
            capacity: capacity.clamp(1, MAX_CAPACITY),
            tables: BTreeMap::new(),
            ended: Vec::new(),
        }
    }

    /// The entries of `kind` the table shows, best first (empty if it has none): at most
    /// [`BestScores::capacity`].
    #[must_use]
    pub fn entries_of(&self, kind: BestKind) -> &[BestScore] {
        let kept = self.kept_of(kind);
        kept.get(..kept.len().min(self.capacity))
            .unwrap_or_default()
    }

    /// Every entry of `kind` kept, best first: those shown, then those behind them.
    fn kept_of(&self, kind: BestKind) -> &[BestScore] {
        self.tables.get(&kind).map_or(&[], Vec::as_slice)
    }

    /// The kinds that have entries, in [`BestKind`]'s order.
    pub fn kinds(&self) -> impl Iterator<Item = BestKind> + '_ {
        self.tables.keys().copied()
    }

    /// Every entry shown, kind by kind ([`BestScores::kinds`]' order), each kind's best
    /// first.
    pub fn entries(&self) -> impl Iterator<Item = &BestScore> + '_ {
        self.tables
            .values()
            .flat_map(|t| t.iter().take(self.capacity))
    }

    /// Every entry kept, those behind the shown ones ([`RESERVE`]) included, kind by kind,
    /// each kind's best first: what a copy of the table must hold to be the same table.
    pub fn kept_entries(&self) -> impl Iterator<Item = &BestScore> + '_ {
        self.tables.values().flatten()
    }

    /// True if the table keeps this very entry, shown or behind the shown ones.
    #[must_use]
    pub fn holds(&self, entry: &BestScore) -> bool {
        self.kept_of(entry.kind).contains(entry)
    }

    /// How many entries the table shows, every kind together.
    #[must_use]
    pub fn len(&self) -> usize {
        self.tables
            .values()
            .map(|t| t.len().min(self.capacity))
            .sum()
    }

    /// How many entries the table keeps, those behind the shown ones included.
    fn kept_len(&self) -> usize {
        self.tables.values().map(Vec::len).sum()
    }

    /// True when no game was entered.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// How many entries the table shows of each kind (it keeps up to [`RESERVE`] more
    /// behind them).
    #[must_use]
    pub const fn capacity(&self) -> usize {
        self.capacity
    }

    /// The rank (0 = best) among the games of `kind` a game with `score` would take, or
    /// `None` if it would not be shown (its kind's table is full of better or equal
    /// scores, or it would grow the table beyond [`MAX_ENTRIES`] with no entry behind the
    /// shown ones to give way).
    #[must_use]
    pub fn rank_of(&self, kind: BestKind, score: u32) -> Option<usize> {
        let rank = self.kept_of(kind).partition_point(|e| e.score >= score);
        (rank < self.capacity && self.has_room(kind, true)).then_some(rank)
    }

    /// True if an entry of `kind` fits: in place of its kind's last when its kind keeps
    /// all it can, in a table below [`MAX_ENTRIES`], or — an entry to be shown — in place
    /// of an entry kept behind the shown ones of any kind, or of its kind's last when its
    /// kind shows all it can.
    fn has_room(&self, kind: BestKind, shown: bool) -> bool {
        let len = self.kept_of(kind).len();
        len >= self.capacity + RESERVE
            || self.kept_len() < MAX_ENTRIES
            || (shown && (len >= self.capacity || self.has_reserve()))
    }

    /// True if some kind keeps entries behind its shown ones.
    fn has_reserve(&self) -> bool {
        self.tables.values().any(|t| t.len() > self.capacity)
    }

    /// Enters a finished game of `kind`; returns its rank among the games of its kind, or
    /// `None` if it is not shown (it may still be kept behind the shown ones).
    pub fn record(&mut self, kind: BestKind, score: u32, turns: u32, date: &str) -> Option<usize> {
        self.record_game(kind, None, score, turns, date)
    }

    /// [`BestScores::record`] of the game `game` ([`game_id`]; `None`: not known).
    pub fn record_game(
        &mut self,
        kind: BestKind,
        game: Option<u64>,
        score: u32,
        turns: u32,
        date: &str,
    ) -> Option<usize> {
        let entry = BestScore::new(kind, game, score, turns, date);
        self.keep(entry).filter(|&at| at < self.capacity)
    }

    /// Keeps `entry` where its score ranks it among its kind (after equal scores): its
    /// place among the entries kept, or `None` if it is not kept (below every entry its
    /// kind keeps, or no room: [`BestScores::has_room`]). In a table at [`MAX_ENTRIES`], an
    /// entry to be shown takes the place of the last entry behind the shown ones of the
    /// kind that keeps most of them, or else of its own kind's last.
    fn keep(&mut self, entry: BestScore) -> Option<usize> {
        let (kind, capacity) = (entry.kind, self.capacity);
        let at = self
            .kept_of(kind)
            .partition_point(|e| e.score >= entry.score);
        if at >= capacity + RESERVE || !self.has_room(kind, at < capacity) {
            return None;
        }
        let grows = self.kept_of(kind).len() < capacity + RESERVE;
        let mut drop_own_last = false;
        if grows && self.kept_len() >= MAX_ENTRIES {
            // `has_room`: the entry is shown, and there is a reserve or its kind is full.
            let longest = self
                .tables
                .values_mut()
                .filter(|t| t.len() > capacity)
                .max_by_key(|t| t.len() - capacity);
            match longest {
                Some(t) => {
                    t.pop();
                }
                None => drop_own_last = true,
            }
        }
        let table = self.tables.entry(kind).or_default();
        table.insert(at.min(table.len()), entry);
        table.truncate(capacity + RESERVE);
        if drop_own_last {
            table.pop();
        }
        Some(at)
    }

    /// Takes the first entry equal to `entry` out, if any (shown or behind the shown
    /// ones): the next moves up.
    fn take_out(&mut self, entry: &BestScore) {
        let Some(table) = self.tables.get_mut(&entry.kind) else {
            return;
        };
        if let Some(at) = table.iter().position(|e| e == entry) {
            table.remove(at);
        }
        if table.is_empty() {
            self.tables.remove(&entry.kind);
        }
    }

    /// True if the game `game` ([`game_id`]) was played to its end before: an entry of
    /// any kind is that game, or the table remembers its ending
    /// ([`BestScores::ended_games`]).
    #[must_use]
    pub fn has_game(&self, game: u64) -> bool {
        self.has_entry_of(game) || self.ended.iter().any(|e| e.game == game)
    }

    /// True if the table remembers this very ending (its game and its tag): a copy of the
    /// table that holds it was written with it.
    #[must_use]
    pub fn remembers(&self, ending: Ending) -> bool {
        self.ended.contains(&ending)
    }

    /// True if an entry of any kind is the game `game` ([`game_id`]), shown or kept
    /// behind the shown ones.
    #[must_use]
    pub fn has_entry_of(&self, game: u64) -> bool {
        self.kept_entries().any(|e| e.game == Some(game))
    }

    /// The endings remembered, oldest first: those [`BestScores::end_game`] marked,
    /// whether or not their games entered, one per game, at most [`MAX_ENDED`].
    #[must_use]
    pub fn ended_games(&self) -> &[Ending] {
        &self.ended
    }

    /// Remembers that a game was played to its end (`ending`), whatever its score: from
    /// now on [`BestScores::has_game`] says so, even once no entry of the game is left (it
    /// did not make the table, or better games pushed it out). The change made, to take it
    /// back or bring it into another copy of the table ([`BestScores::apply`]); `None` if
    /// the table remembered an ending of that game already. Past [`MAX_ENDED`] endings the
    /// oldest is forgotten, and taking this one back brings it back.
    ///
    /// ```
    /// use banco_lines::best::{BestScores, Ending};
    /// let mut table = BestScores::new(10);
    /// let ending = Ending { game: 7, tag: 1 };
    /// let change = table.end_game(ending).expect("a new ending");
    /// assert!(table.has_game(7) && table.is_empty(), "remembered, though no entry");
    /// assert_eq!(table.end_game(Ending { game: 7, tag: 2 }), None, "one per game");
    /// assert!(table.remembers(ending) && !table.remembers(Ending { game: 7, tag: 2 }));
    /// table.apply(&change.inverse());
    /// assert!(!table.has_game(7));
    /// ```
    pub fn end_game(&mut self, ending: Ending) -> Option<BestChange> {
        if self.ended.iter().any(|e| e.game == ending.game) {
            return None;
        }
        let mut forgotten = None;
        if self.ended.len() >= MAX_ENDED {
            let over = self.ended.len() + 1 - MAX_ENDED;
            forgotten = self.ended.drain(..over).next_back();
        }
        self.ended.push(ending);
        Some(BestChange::Ended { ending, forgotten })
    }

    /// Forgets `ending` (that very ending, not another of its game) and, if it was there,
    /// remembers again as the oldest the ending its remembering made the table forget, if
    /// there is room and no ending of that game is remembered meanwhile: whether it came
    /// back.
    fn forget_end(&mut self, ending: Ending, forgotten: Option<Ending>) -> bool {
        let before = self.ended.len();
        self.ended.retain(|e| *e != ending);
        if self.ended.len() == before {
            // Never made here (or taken back already): it made this copy forget nothing.
            return false;
        }
        match forgotten {
            Some(f)
                if self.ended.len() < MAX_ENDED && !self.ended.iter().any(|e| e.game == f.game) =>
            {
                self.ended.insert(0, f);
                true
            }
            _ => false,
        }
    }

    /// Takes out the entry of `kind` shown at `rank` (a finished game taken back by undo);
    /// `None` if the kind shows no such rank. The best entry behind the shown ones moves
    /// up.
    pub fn remove(&mut self, kind: BestKind, rank: usize) -> Option<BestScore> {
        let entry = self.entries_of(kind).get(rank)?.clone();
        self.take_out(&entry);
        Some(entry)
    }

    /// [`BestScores::record_game`], with what it changed: the rank among the shown entries
    /// (`None`: kept behind them) and the change, to take it back or to bring it into
    /// another copy of the table ([`BestScores::apply`]); `None` if the game is not kept.
    pub fn enter(
        &mut self,
        kind: BestKind,
        game: Option<u64>,
        score: u32,
        turns: u32,
        date: &str,
    ) -> Option<(Option<usize>, BestChange)> {
        let entry = BestScore::new(kind, game, score, turns, date);
        let at = self.keep(entry.clone())?;
        Some((
            (at < self.capacity).then_some(at),
            BestChange::Entered(entry),
        ))
    }

    /// Makes `change` in this table — the same table or another copy of it, which other
    /// sessions may have changed meanwhile: an entry entered is kept where its score ranks
    /// it among its kind; one withdrawn is taken out (the first equal entry, if any) and
    /// the best entry behind the shown ones moves up; an ending is remembered, or
    /// forgotten with the ending its remembering made the table forget coming back, if
    /// there is room.
    ///
    /// Returns the change as made here: of an ending, the ending this copy forgot, and
    /// whether it came back. Its inverse takes it back from this copy, which the change as
    /// made elsewhere may not (another copy's oldest ending may be another).
    pub fn apply(&mut self, change: &BestChange) -> BestChange {
        match change {
            BestChange::Entered(entry) => {
                self.keep(entry.clone());
                change.clone()
            }
            BestChange::Withdrawn(entry) => {
                self.take_out(entry);
                change.clone()
            }
            BestChange::Ended { ending, .. } => {
                self.end_game(*ending).unwrap_or(BestChange::Ended {
                    ending: *ending,
                    forgotten: None,
                })
            }
            BestChange::EndTakenBack { ending, forgotten } => {
                let back = self.forget_end(*ending, *forgotten);
                BestChange::EndTakenBack {
                    ending: *ending,
                    forgotten: forgotten.filter(|_| back),
                }
            }
        }
    }
}

/// A change of a [`BestScores`] table, as [`BestScores::enter`] and [`BestScores::end_game`]
/// report it: kept to be taken
/// back ([`BestChange::inverse`]) or made again in a copy of the table that another
/// session changed ([`BestScores::apply`]), so that sessions sharing a table lose none of
/// each other's entries. The entries carry their kind: the change is made in their kind's
/// table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BestChange {
    /// A finished game entered: its entry, shown or kept behind the shown ones.
    Entered(BestScore),
    /// A game's entry taken back out (its ending taken back by undo): the best entry
    /// behind the shown ones moves up in its place.
    Withdrawn(BestScore),
    /// A game remembered as played to its end ([`BestScores::end_game`]); made in a copy
    /// that remembers an ending of the game already, it changes nothing.
    Ended {
        /// The ending.
        ending: Ending,
        /// The oldest ending the table forgot to make room ([`MAX_ENDED`]).
        forgotten: Option<Ending>,
    },
    /// That ending forgotten again (taken back by undo); only that very ending is taken
    /// out, not another of the same game.
    EndTakenBack {
        /// The ending.
        ending: Ending,
        /// The ending its remembering made the table forget: it comes back as the oldest.
        forgotten: Option<Ending>,
    },
}

impl BestChange {
    /// The change that undoes this one.
    #[must_use]
    pub fn inverse(&self) -> BestChange {
        match self.clone() {
            BestChange::Entered(entry) => BestChange::Withdrawn(entry),
            BestChange::Withdrawn(entry) => BestChange::Entered(entry),
            BestChange::Ended { ending, forgotten } => {
                BestChange::EndTakenBack { ending, forgotten }
            }
            BestChange::EndTakenBack { ending, forgotten } => {
                BestChange::Ended { ending, forgotten }
            }
        }
    }
}

#[cfg(test)]
mod tests;
