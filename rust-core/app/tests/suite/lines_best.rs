//! Lines' best scores across the change that gave every entry its kind of game: a table of
//! version 2 (`tests/data/lines/best-scores-v2.bin`, written by the build before the kinds,
//! its entries listed in `best-scores-v2.tsv`) loads, every entry one of the earlier games;
//! new games rank apart from them; the table is written back as version 3 and read again.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use banco_app::lines::{LinesSession, best_kind_label};
use banco_app::save::SaveError;
use banco_lines::Settings;
use banco_lines::best::BestKind;

const V2: &[u8] = include_bytes!("../../../../tests/data/lines/best-scores-v2.bin");
const V2_ENTRIES: &str = include_str!("../../../../tests/data/lines/best-scores-v2.tsv");

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
    // Written back as version 3 and read again, with both kinds.
    let bytes = s.best_scores_bytes().unwrap();
    assert_eq!(bytes[0], 3);
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
    newer[0] = 4;
    assert_eq!(s.load_best_scores(&newer), Err(SaveError::NewerVersion(4)));
}
