//! Lines' best scores across the changes of their format: a table of version 2
//! (`tests/data/lines/best-scores-v2.bin`, written by the build before the kinds, its
//! entries listed in `best-scores-v2.tsv`) loads, every entry one of the earlier games;
//! new games rank apart from them. A table of version 3 (`best-scores-v3.bin`, written by
//! the build before hints were counted, its entries in `best-scores-v3.tsv`) loads with
//! every kind as written, none with hints; a game with hints ranks apart from them. Both
//! are written back as version 4 and read again.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use banco_app::lines::{LinesSession, best_kind_label};
use banco_app::save::SaveError;
use banco_lines::best::BestKind;
use banco_lines::{Settings, ai};

const V2: &[u8] = include_bytes!("../../../../tests/data/lines/best-scores-v2.bin");
const V2_ENTRIES: &str = include_str!("../../../../tests/data/lines/best-scores-v2.tsv");
const V3: &[u8] = include_bytes!("../../../../tests/data/lines/best-scores-v3.bin");
const V3_ENTRIES: &str = include_str!("../../../../tests/data/lines/best-scores-v3.tsv");

/// The entries the fixture lists: score, turns, date.
fn listed() -> Vec<(u32, u32, String)> {
    V2_ENTRIES
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let mut f = l.split('\t');
            let score = f.next().unwrap().parse().unwrap();
            let turns = f.next().unwrap().parse().unwrap();
            (score, turns, f.next().unwrap_or_default().to_owned())
        })
        .collect()
}

fn finish(s: &mut LinesSession) {
    while let Some(m) = banco_lines::ai::greedy_move(s.game()) {
        s.play(m.from, m.to).unwrap();
    }
}

#[test]
fn a_table_written_before_the_kinds_loads_as_earlier_games() {
    assert_eq!(V2[0], 2, "the fixture is of version 2");
    let mut s = LinesSession::new(Settings::default(), [1; 32]);
    s.load_best_scores(V2).unwrap();
    let table = s.best_scores();
    assert_eq!(table.capacity(), 10);
    assert_eq!(table.kinds().collect::<Vec<_>>(), [BestKind::Earlier]);
    let earlier: Vec<(u32, u32, String)> = table
        .entries_of(BestKind::Earlier)
        .iter()
        .map(|e| (e.score, e.turns, e.date.clone()))
        .collect();
    assert_eq!(
        earlier,
        listed(),
        "every entry, in its order, ties included"
    );
    assert_eq!(
        best_kind_label(BestKind::Earlier),
        "earlier games (rules not recorded)"
    );
    // A new game does not rank among them: first of its own kind, the earlier games kept.
    assert!(s.best_scores_of_game().is_empty());
    finish(&mut s);
    assert_eq!(s.record_result("2026-12-07"), Some(0));
    assert_eq!(s.best_scores_of_game().len(), 1);
    assert_eq!(s.best_scores().entries_of(BestKind::Earlier).len(), 6);
    // Written back as version 6 and read again, with both kinds.
    let bytes = s.best_scores_bytes().unwrap();
    assert_eq!(bytes[0], 6);
    let mut back = LinesSession::new(Settings::default(), [2; 32]);
    back.load_best_scores(&bytes).unwrap();
    assert_eq!(back.best_scores(), s.best_scores());
    // Merging this session's entry into the old table as another session left it: both.
    let mut other = LinesSession::new(Settings::default(), [3; 32]);
    other.load_best_scores(V2).unwrap();
    finish(&mut other);
    assert_eq!(other.record_result("2026-12-08"), Some(0));
    other.merge_best_scores(V2).unwrap();
    assert_eq!(other.best_scores().len(), 7);
}

#[test]
fn a_table_of_version_2_damaged_is_refused_as_damaged() {
    let mut s = LinesSession::new(Settings::default(), [1; 32]);
    let mut changed = V2.to_vec();
    changed[5] ^= 0x10;
    assert!(matches!(
        s.load_best_scores(&changed),
        Err(SaveError::BestScoresDamaged(_))
    ));
    let mut newer = V2.to_vec();
    newer[0] = 7;
    assert_eq!(
        s.load_best_scores(&newer),
        Err(SaveError::BestScoresNewer(7))
    );
}

/// The rows the v3 fixture lists: kind label, score, turns, date.
fn listed_v3() -> Vec<(String, u32, u32, String)> {
    V3_ENTRIES
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let mut f = l.split('\t');
            let label = f.next().unwrap().to_owned();
            let score = f.next().unwrap().parse().unwrap();
            let turns = f.next().unwrap().parse().unwrap();
            (label, score, turns, f.next().unwrap_or_default().to_owned())
        })
        .collect()
}

#[test]
fn a_table_written_before_hints_were_counted_loads_without_hints() {
    assert_eq!(V3[0], 3, "the fixture is of version 3");
    let mut s = LinesSession::new(Settings::default(), [1; 32]);
    s.load_best_scores(V3).unwrap();
    let table = s.best_scores().clone();
    assert_eq!(table.capacity(), 10);
    let rows: Vec<(String, u32, u32, String)> = table
        .entries()
        .map(|e| (best_kind_label(e.kind), e.score, e.turns, e.date.clone()))
        .collect();
    assert_eq!(rows, listed_v3(), "every entry of every kind, in its order");
    assert_eq!(
        table.kinds().count(),
        6,
        "five kinds of game and the earlier games"
    );
    assert!(
        table.kinds().all(|k| k.rules().is_none_or(|r| !r.hints)),
        "none with hints"
    );
    let usual = BestKind::of(Settings::default(), None);
    assert_eq!(
        table
            .entries_of(usual)
            .iter()
            .map(|e| e.score)
            .collect::<Vec<_>>(),
        [60, 40, 40]
    );
    // A game with hints of the usual rules: first of its own kind, the usual games kept.
    assert_eq!(s.best_scores_of_game().len(), 3);
    s.hint().unwrap();
    assert!(s.best_scores_of_game().is_empty());
    while let Some(m) = banco_lines::ai::greedy_move(s.game()) {
        s.play(m.from, m.to).unwrap();
    }
    assert_eq!(s.record_result("2026-12-20"), Some(0));
    assert_eq!(s.best_scores().entries_of(usual), table.entries_of(usual));
    assert_eq!(s.best_scores().len(), table.len() + 1);
    let hinted = usual.with_hints(true);
    assert_eq!(s.best_scores().entries_of(hinted).len(), 1);
    assert_eq!(
        best_kind_label(hinted),
        "classic, 5 balls, undo of the last turn, untimed, with hints"
    );
    // Written back as version 6 and read again; merged into the old table another
    // session left: its entries and this one.
    let bytes = s.best_scores_bytes().unwrap();
    assert_eq!(bytes[0], 6);
    let mut back = LinesSession::new(Settings::default(), [2; 32]);
    back.load_best_scores(&bytes).unwrap();
    assert_eq!(back.best_scores(), s.best_scores());
    s.merge_best_scores(V3).unwrap();
    assert_eq!(back.best_scores(), s.best_scores());
    // Damaged, it is refused as damaged.
    let mut changed = V3.to_vec();
    changed[9] ^= 0x10;
    assert!(matches!(
        s.load_best_scores(&changed),
        Err(SaveError::BestScoresDamaged(_))
    ));
}

/// A game saved, played to its end (entered), then played again from its save — its
/// balls known by then — does not enter again, in another session sharing the table or
/// in the same one: each entry names its game. Its own ending taken back and played
/// again still enters, once.
#[test]
fn a_game_played_again_from_its_save_enters_once() {
    let mut s = LinesSession::new(Settings::default(), [12; 32]);
    for _ in 0..20 {
        let m = ai::greedy_move(s.game()).unwrap();
        s.play(m.from, m.to).unwrap();
    }
    let save = s.save().unwrap();
    assert!(!s.played_before());
    finish(&mut s);
    assert!(s.record_result("2026-12-07").is_some());
    assert!(!s.played_before(), "its own ending");
    let table = s.best_scores_bytes().unwrap();

    let mut again = LinesSession::load(&save).unwrap();
    again.load_best_scores(&table).unwrap();
    assert!(again.played_before(), "said as soon as it is continued");
    finish(&mut again);
    assert_eq!(again.record_result("2026-12-08"), None);
    assert_eq!(again.best_scores().len(), 1);

    s.continue_saved(&save).unwrap();
    assert!(s.played_before());
    finish(&mut s);
    assert_eq!(s.record_result("2026-12-08"), None);
    assert_eq!(s.best_scores().len(), 1);

    // Another game enters; its ending taken back and played again enters once more.
    s.new_game(None, [13; 32]);
    finish(&mut s);
    assert!(s.record_result("2026-12-09").is_some());
    s.undo().unwrap();
    assert!(!s.played_before(), "its entry went with the undo");
    finish(&mut s);
    assert!(s.record_result("2026-12-09").is_some());
    assert_eq!(s.best_scores().len(), 2);
}

/// Two sessions sharing a table each play the same save to its end: the second to write
/// finds the game in the stored table and does not enter it again. A session that reads
/// the table back after entering its own ending keeps it as its own: undo takes it out.
#[test]
fn a_game_enters_once_across_sessions_sharing_a_table() {
    let mut s = LinesSession::new(Settings::default(), [14; 32]);
    for _ in 0..20 {
        let m = ai::greedy_move(s.game()).unwrap();
        s.play(m.from, m.to).unwrap();
    }
    let save = s.save().unwrap();
    let stored = s.best_scores_bytes().unwrap();
    let (mut a, mut b) = (
        LinesSession::load(&save).unwrap(),
        LinesSession::load(&save).unwrap(),
    );
    for (x, date) in [(&mut a, "2026-12-07"), (&mut b, "2026-12-08")] {
        x.load_best_scores(&stored).unwrap();
        finish(x);
        assert!(x.record_result(date).is_some(), "neither knew");
    }
    a.merge_best_scores(&stored).unwrap();
    let stored = a.best_scores_bytes().unwrap();
    a.best_scores_kept();
    b.merge_best_scores(&stored).unwrap();
    assert_eq!(b.best_scores().len(), 1, "the game once");
    assert!(b.played_before());

    // Entered, written and read back: still this session's ending.
    let mut c = LinesSession::new(Settings::default(), [15; 32]);
    finish(&mut c);
    assert!(c.record_result("2026-12-07").is_some());
    let bytes = c.best_scores_bytes().unwrap();
    c.load_best_scores(&bytes).unwrap();
    assert!(!c.played_before());
    c.undo().unwrap();
    assert!(c.best_scores().is_empty(), "undo took it out");
}
