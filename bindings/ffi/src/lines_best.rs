//! Lines' best scores for a screen: each kind of game ranked on its own ([`LinesBestKind`]:
//! start balls, undo, preview, the spawn rule of older saves, time limit, hints), each kind
//! named in words by Rust ([`LinesBestKind::label`]) so that no shell writes that text. A
//! game in which the player asked for a hint ([`LinesGame::hint`],
//! [`LinesGame::hint_job`]; counted in `view().hints_used`) ranks only among games with
//! hints.
//!
//! A screen shows [`LinesGame::best_scores_of_game`] — the table the game on screen enters,
//! where [`LinesGame::record_result`]'s rank points — under the heading
//! `view().best_kind.label`, and may list every kind's with [`LinesGame::best_tables`].
//!
//! ```
//! use banco_ffi::{LinesGame, LinesSettings, LinesUndo};
//! let game = LinesGame::new(LinesSettings { start_balls: 5, undo: LinesUndo::Off, preview: false }, Some(7))?;
//! game.start_clock(180_000, 0);
//! let kind = game.best_kind();
//! assert_eq!((kind.start_balls, kind.undo, kind.time_limit_s), (5, LinesUndo::Off, 180));
//! assert_eq!(kind.label, "classic, 5 balls, no undo, 3 min limit");
//! assert!(game.best_scores_of_game().is_empty());
//! # Ok::<(), banco_ffi::LinesError>(())
//! ```

use crate::lines::{LinesBestScore, LinesGame, LinesUndo};
use banco_app::lines::{best_kind_label, best_row_text};
use banco_lines::SpawnRule;
use banco_lines::best::{BestKind, BestScore};

/// The kind of game a best score was made in: entries compete only with entries of the
/// same kind. `label` names it in words; the other fields are for a shell that filters or
/// groups (read them only when `earlier` is false).
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct LinesBestKind {
    /// True for games whose rules were not recorded: the entries of a table written before
    /// Banco recorded each entry's kind (all ranked together then), and a game against the
    /// clock saved before its time limit was saved. The fields below then say nothing
    /// (`start_balls` 0, no undo, no preview, untimed, no hints).
    pub earlier: bool,
    /// Balls at the start: 3 or 5.
    pub start_balls: u8,
    /// How far undo went.
    pub undo: LinesUndo,
    /// Lines 98's preview.
    pub preview: bool,
    /// The balls landed by the rule of games saved before 2026-12-06 (their cell drawn
    /// when they landed): a continued old game.
    pub older_landing_rule: bool,
    /// The time limit in seconds; 0 for an untimed game.
    pub time_limit_s: u32,
    /// The player asked the computer for hints: a hinted game ranks only among hinted
    /// games.
    pub hints: bool,
    /// The kind in words, for a heading: "classic, 5 balls, undo of the last turn,
    /// untimed", "with preview, 3 balls, unlimited undo, 3 min limit", "classic, 5 balls,
    /// no undo, untimed, with hints", "earlier games (rules not recorded)".
    pub label: String,
}

/// One kind's best scores ([`LinesGame::best_tables`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct LinesBestTable {
    /// The kind of game.
    pub kind: LinesBestKind,
    /// Its entries, best first.
    pub entries: Vec<LinesBestScore>,
}

/// `kind` for the shells.
pub(crate) fn kind_of(kind: BestKind) -> LinesBestKind {
    let label = best_kind_label(kind);
    match kind.rules() {
        Some(r) => LinesBestKind {
            earlier: false,
            start_balls: r.start_balls,
            undo: r.undo.into(),
            preview: r.preview,
            older_landing_rule: r.spawn == SpawnRule::AtLanding,
            time_limit_s: r.time_limit_s.unwrap_or(0),
            hints: r.hints,
            label,
        },
        None => LinesBestKind {
            earlier: true,
            start_balls: 0,
            undo: LinesUndo::Off,
            preview: false,
            older_landing_rule: false,
            time_limit_s: 0,
            hints: false,
            label,
        },
    }
}

/// One kind's `entries` as rows, each with its rank in its kind.
fn rows(entries: &[BestScore]) -> Vec<LinesBestScore> {
    entries
        .iter()
        .enumerate()
        .map(|(rank, e)| LinesBestScore {
            rank: u32::try_from(rank).unwrap_or(u32::MAX),
            score: e.score,
            turns: e.turns,
            date: e.date.clone(),
            text: best_row_text(rank, e),
            kind: kind_of(e.kind),
        })
        .collect()
}

#[uniffi::export]
impl LinesGame {
    /// The kind of game on screen, as the best scores rank it (its settings and its time
    /// limit, [`LinesGame::start_clock`]); also `view().best_kind`.
    pub fn best_kind(&self) -> LinesBestKind {
        kind_of(self.lock().best_kind())
    }

    /// The best scores of the game's kind ([`LinesGame::best_kind`]), highest first, each
    /// with its rank and its row's text: the table its ending enters.
    pub fn best_scores_of_game(&self) -> Vec<LinesBestScore> {
        rows(self.lock().best_scores_of_game())
    }

    /// Every kind's best scores, one table a kind that has entries: games without hints
    /// before games with them, then untimed before timed (shorter limits first), without
    /// the preview before with it, the strictest undo first; the earlier games last.
    pub fn best_tables(&self) -> Vec<LinesBestTable> {
        let s = self.lock();
        let table = s.best_scores();
        table
            .kinds()
            .map(|kind| LinesBestTable {
                kind: kind_of(kind),
                entries: rows(table.entries_of(kind)),
            })
            .collect()
    }

    /// Every entry of the best scores, kind by kind ([`LinesGame::best_tables`]' order),
    /// each with its rank in its kind, its kind and its row's text. A screen shows one
    /// kind's: [`LinesGame::best_scores_of_game`].
    pub fn best_scores(&self) -> Vec<LinesBestScore> {
        let s = self.lock();
        let table = s.best_scores();
        table
            .kinds()
            .flat_map(|kind| rows(table.entries_of(kind)))
            .collect()
    }

    /// Marks the game as one whose seed the player can know — a shared challenge, a seed
    /// shown or typed in ([`LinesGame::new`] with a seed): knowing the seed is knowing
    /// every ball to come, so the game is not ranked ([`LinesGame::record_result`] answers
    /// `null`/`nil`). The save keeps the mark (`view().seed_known`); a new game clears it.
    pub fn mark_seed_known(&self) {
        self.lock().mark_seed_known();
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::LinesSettings;

    /// The classic settings: 5 balls, no undo, no preview.
    const CLASSIC: LinesSettings = LinesSettings {
        start_balls: 5,
        undo: LinesUndo::Off,
        preview: false,
    };

    /// One move of the greedy player (not the hint, which would make a game of hints).
    fn greedy(game: &LinesGame) -> Option<()> {
        let m = banco_lines::ai::greedy_move(game.lock().game())?;
        game.play(u8::from(m.from), u8::from(m.to)).unwrap();
        Some(())
    }

    fn finish(game: &LinesGame) {
        while greedy(game).is_some() {}
    }

    /// Greedy moves until the game has a point (a game without one is no record).
    fn until_scored(game: &LinesGame) {
        while game.score() == 0 {
            greedy(game).unwrap();
        }
    }

    /// Games of two kinds: each first of its own, the view's best score and kind those of
    /// the game on screen, every table listed.
    #[test]
    fn each_kind_has_its_table() {
        let game = LinesGame::new(CLASSIC, Some(3)).unwrap();
        finish(&game);
        let score = game.score();
        assert_eq!(game.record_result("2026-12-06".into()), Some(0));
        let kind = game.view().best_kind;
        assert_eq!(kind, game.best_kind());
        assert!(!kind.earlier && !kind.preview && !kind.older_landing_rule);
        assert_eq!(
            (kind.start_balls, kind.undo, kind.time_limit_s),
            (5, LinesUndo::Off, 0)
        );
        assert_eq!(kind.label, "classic, 5 balls, no undo, untimed");
        // A timed game of 3 balls with the preview: its own table, empty at first.
        let timed = LinesSettings {
            start_balls: 3,
            undo: LinesUndo::Unlimited,
            preview: true,
        };
        game.new_game(Some(timed), Some(4)).unwrap();
        game.start_clock(60_000, 0);
        let v = game.view();
        assert_eq!(v.best_score, 0, "no game of this kind yet");
        assert_eq!(
            v.best_kind.label,
            "with preview, 3 balls, unlimited undo, 1 min limit"
        );
        assert!(game.best_scores_of_game().is_empty());
        until_scored(&game);
        assert_eq!(game.tick(60_000), Some(0));
        assert_eq!(game.record_result("2026-12-06".into()), Some(0));
        let mine = game.best_scores_of_game();
        assert_eq!(mine.len(), 1);
        assert_eq!(mine[0].kind, game.best_kind());
        assert_eq!(game.view().best_score, mine[0].score);
        // Every table, the untimed first; every entry kind by kind.
        let tables = game.best_tables();
        assert_eq!(tables.len(), 2);
        assert_eq!(tables[0].kind, kind);
        assert_eq!(tables[0].entries[0].score, score);
        assert_eq!(tables[1].entries, mine);
        let all = game.best_scores();
        assert_eq!(all.len(), 2);
        assert_eq!(
            all.iter().map(|e| e.rank).collect::<Vec<_>>(),
            [0, 0],
            "ranks within each kind"
        );
        // A table loaded elsewhere shows the same.
        let other = LinesGame::new(CLASSIC, Some(1)).unwrap();
        other
            .load_best_scores(game.best_scores_bytes().unwrap())
            .unwrap();
        assert_eq!(other.best_tables(), tables);
        assert_eq!(other.view().best_score, score);
    }

    #[test]
    fn the_earlier_games_say_their_rules_are_not_known() {
        let kind = kind_of(BestKind::Earlier);
        assert!(kind.earlier && !kind.hints);
        assert_eq!(kind.start_balls, 0);
        assert_eq!(kind.label, "earlier games (rules not recorded)");
    }

    /// A hint asked, by either call, counts once per position in the view and makes the
    /// game one of hints: its own kind and table, apart from the same rules without hints;
    /// the count comes back with the save, and a new game starts without.
    #[test]
    fn a_game_with_hints_has_the_table_of_games_with_hints() {
        let plain = LinesGame::new(CLASSIC, Some(3)).unwrap();
        finish(&plain);
        assert_eq!(plain.record_result("2026-12-06".into()), Some(0));
        // Another game (the same one played again would not enter: it was played before).
        let game = LinesGame::new(CLASSIC, Some(4)).unwrap();
        game.load_best_scores(plain.best_scores_bytes().unwrap())
            .unwrap();
        game.set_hint_playouts(1).unwrap();
        let v = game.view();
        assert_eq!((v.hints_used, v.best_kind.hints), (0, false));
        assert_eq!(
            v.best_score,
            plain.score(),
            "the table of games without hints"
        );
        let job = game.hint_job().unwrap();
        assert_eq!(game.hint(), job.run(), "the same position: counted once");
        let v = game.view();
        assert_eq!(v.hints_used, 1);
        assert!(v.best_kind.hints && !v.best_kind.earlier);
        assert_eq!(v.best_kind, game.best_kind());
        assert_eq!(
            v.best_kind.label,
            "classic, 5 balls, no undo, untimed, with hints"
        );
        assert_eq!(v.best_score, 0, "no game with hints yet");
        let back = LinesGame::load(game.save().unwrap()).unwrap();
        assert_eq!(back.view().hints_used, 1);
        assert!(back.best_kind().hints);
        finish(&game);
        assert_eq!(game.record_result("2026-12-07".into()), Some(0));
        let tables = game.best_tables();
        assert_eq!(tables.len(), 2);
        assert!(
            !tables[0].kind.hints && tables[1].kind.hints,
            "without hints first"
        );
        assert_eq!(tables[1].entries, game.best_scores_of_game());
        assert_eq!(tables[0].entries.len(), 1, "the game without hints kept");
        game.new_game(None, Some(4)).unwrap();
        let v = game.view();
        assert_eq!((v.hints_used, v.best_kind.hints), (0, false));
        assert_eq!(v.best_score, plain.score());
    }

    /// A game whose seed the player knew is not ranked, and stays so through the save; a
    /// new game (of another seed) is ranked again.
    #[test]
    fn a_game_of_a_known_seed_is_not_ranked() {
        let game = LinesGame::new(CLASSIC, Some(8)).unwrap();
        assert!(!game.view().seed_known);
        assert_eq!(game.view().ranking_note, None);
        game.mark_seed_known();
        assert!(game.view().seed_known);
        assert!(game.view().ranking_note.unwrap().contains("not ranked"));
        let back = LinesGame::load(game.save().unwrap()).unwrap();
        assert!(back.view().seed_known, "the save keeps the mark");
        for g in [&game, &back] {
            finish(g);
            assert!(g.is_over() && g.score() > 0);
            assert_eq!(g.record_result("2026-12-06".into()), None, "not ranked");
            assert!(g.best_scores().is_empty());
        }
        // The table remembers the game played to its end: the same seed again (its balls
        // known) does not enter; a new game of another seed is ranked.
        game.new_game(None, Some(8)).unwrap();
        assert!(!game.view().seed_known, "a new game clears it");
        assert!(game.played_before());
        let note = game.view().ranking_note.unwrap();
        assert!(note.contains("played to its end before"), "{note}");
        game.new_game(None, Some(9)).unwrap();
        assert_eq!(game.view().ranking_note, None);
        finish(&game);
        assert_eq!(game.record_result("2026-12-06".into()), Some(0));
    }
}
