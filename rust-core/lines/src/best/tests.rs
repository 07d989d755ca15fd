//! Tests of [`super`]: the tables of each kind, the entries kept behind the shown ones,
//! the endings remembered, and changes made again in another copy.

#![allow(clippy::unwrap_used)]

use super::*;

#[test]
fn an_entry_keeps_its_game_through_a_change_made_in_another_copy() {
    let k = BestKind::of(Settings::default(), None);
    let mut a = BestScores::new(3);
    let mut b = a.clone();
    let (_, change) = a.enter(k, Some(game_id(&[9; 32])), 40, 12, "d").unwrap();
    assert!(a.has_game(game_id(&[9; 32])) && !a.has_game(game_id(&[8; 32])));
    b.apply(&change);
    assert!(b.has_game(game_id(&[9; 32])), "the copy knows the game too");
    b.apply(&change.inverse());
    assert!(!b.has_game(game_id(&[9; 32])) && b.is_empty());
    // An entry of an older table knows no game.
    b.record(k, 50, 10, "e");
    assert!(b.entries().all(|e| e.game.is_none()));
}

fn scores(t: &BestScores, kind: BestKind) -> Vec<u32> {
    t.entries_of(kind).iter().map(|e| e.score).collect()
}

const fn classic() -> BestKind {
    BestKind::of(
        Settings {
            start_balls: 5,
            undo: UndoRule::Off,
            preview: false,
            spawn: SpawnRule::AtAnnouncement,
        },
        None,
    )
}

fn preview() -> BestKind {
    BestKind::of(Settings::default().with_preview(true), None)
}

/// An entry that pushed the last one out of a full table, taken back: the pushed-out
/// entry, kept behind the shown ones, comes back; the same change made in a copy that
/// another session changed keeps that session's entries — entries of other kinds
/// untouched throughout.
#[test]
fn a_change_is_taken_back_and_made_in_another_copy() {
    let k = classic();
    let mut t = BestScores::new(2);
    t.record(k, 100, 10, "a");
    t.record(k, 50, 10, "b");
    t.record(preview(), 10, 10, "p");
    let (rank, change) = t.enter(k, Some(7), 70, 10, "c").unwrap();
    assert_eq!(rank, Some(1));
    assert_eq!(scores(&t, k), [100, 70]);
    t.apply(&change.inverse());
    assert_eq!(scores(&t, k), [100, 50]);
    let (rank, _) = t.enter(k, None, 10, 1, "d").unwrap();
    assert_eq!(rank, None, "kept behind the shown ones");
    assert_eq!(scores(&t, k), [100, 50]);
    // Another copy that gained an entry meanwhile.
    let mut other = BestScores::new(3);
    other.record(k, 100, 10, "a");
    other.record(k, 80, 10, "x");
    other.apply(&change);
    assert_eq!(scores(&other, k), [100, 80, 70]);
    other.apply(&change.inverse());
    assert_eq!(
        scores(&other, k),
        [100, 80],
        "only its own entry out: 50 was never here"
    );
    assert_eq!(scores(&t, preview()), [10]);
    assert!(other.entries_of(preview()).is_empty());
}

/// Capacity is per kind: a full kind does not stop another; scores of other kinds never
/// push an entry out; the whole table stops growing at MAX_ENTRIES.
#[test]
fn each_kind_keeps_its_own_top_and_the_whole_table_is_bounded() {
    let mut t = BestScores::new(2);
    for s in [10, 20, 30] {
        t.record(classic(), s, 1, "");
    }
    assert_eq!(t.record(preview(), 1, 1, ""), Some(0));
    assert_eq!(t.record(preview(), 1000, 1, ""), Some(0));
    assert_eq!(
        scores(&t, classic()),
        [30, 20],
        "the preview scores push nothing out"
    );
    assert_eq!(t.rank_of(classic(), 25), Some(1));
    assert_eq!(t.rank_of(BestKind::Earlier, 0), Some(0));
    assert_eq!(t.len(), 4);
    // Every time limit is a kind: fill the table with them.
    let mut big = BestScores::new(MAX_CAPACITY);
    let mut limit = 0;
    while big.len() < MAX_ENTRIES {
        limit += 1;
        let kind = BestKind::of(Settings::default(), Some(limit));
        for s in 0..7 {
            big.record(kind, s, 1, "");
        }
    }
    assert_eq!(big.len(), MAX_ENTRIES);
    let new = BestKind::of(Settings::default(), Some(limit + 1));
    assert_eq!(big.record(new, 99, 1, ""), None, "no room for a new entry");
    assert_eq!(big.rank_of(new, 99), None);
    assert_eq!(big.len(), MAX_ENTRIES);
    // Not even in a kind with room; but a kind full of its capacity still takes a
    // better game in place of its last.
    let mut full = BestScores::new(1);
    let mut limit = 0;
    while full.len() < MAX_ENTRIES {
        limit += 1;
        full.record(BestKind::of(Settings::default(), Some(limit)), 5, 1, "");
    }
    let kind = BestKind::of(Settings::default(), Some(1));
    assert_eq!(full.record(kind, 9, 1, ""), Some(0));
    assert_eq!(scores(&full, kind), [9]);
    assert_eq!(
        full.kept_entries().count(),
        MAX_ENTRIES,
        "5 not kept behind"
    );
    // Kept behind the shown ones, entries give way to a shown one at MAX_ENTRIES (the
    // longest reserve's last first), never to one that would only be kept behind.
    let mut kept = BestScores::new(1);
    let mut limit = 0;
    while kept.kept_entries().count() < MAX_ENTRIES {
        limit += 1;
        for s in 0..3 {
            kept.record(BestKind::of(Settings::default(), Some(limit)), s, 1, "");
        }
    }
    let shown = kept.len();
    let new = BestKind::of(Settings::default(), Some(limit + 1));
    assert_eq!(kept.record(new, 7, 1, ""), Some(0));
    assert_eq!(kept.len(), shown + 1);
    assert_eq!(kept.kept_entries().count(), MAX_ENTRIES);
    let first = BestKind::of(Settings::default(), Some(1));
    let before = kept.clone();
    assert_eq!(kept.record(first, 1, 1, ""), None, "behind the shown 2");
    assert_eq!(kept, before, "not kept: no room");
}

#[test]
fn kinds_read_the_rules_that_change_the_game() {
    let odd = Settings {
        start_balls: 4,
        ..Settings::default()
    };
    assert_eq!(
        BestKind::of(odd, None),
        BestKind::of(Settings::default(), None),
        "as played: 5 balls"
    );
    let old_preview = Settings::default()
        .with_spawn(SpawnRule::AtLanding)
        .with_preview(true);
    assert_eq!(
        Rules::of(old_preview, None).spawn,
        SpawnRule::AtAnnouncement
    );
    let rules = Rules::of(Settings::new(3, UndoRule::Unlimited).unwrap(), Some(60));
    assert_eq!(
        (
            rules.start_balls,
            rules.undo,
            rules.preview,
            rules.time_limit_s
        ),
        (3, UndoRule::Unlimited, false, Some(60))
    );
    assert_eq!(BestKind::Played(rules).rules(), Some(rules));
    assert_eq!(BestKind::Earlier.rules(), None);
    assert!(!rules.hints, "a game is without hints unless said");
    assert!(rules.with_hints(true).hints);
    // The order of a list of tables: the games with hints after all the others.
    let hinted = |kind: BestKind| kind.with_hints(true);
    let mut kinds = [
        BestKind::Earlier,
        hinted(classic()),
        BestKind::of(Settings::default(), Some(60)),
        hinted(BestKind::of(Settings::default(), Some(30))),
        preview(),
        BestKind::of(Settings::default(), None),
        classic(),
        BestKind::of(Settings::default(), Some(30)),
    ];
    kinds.sort();
    assert_eq!(
        kinds,
        [
            classic(),
            BestKind::of(Settings::default(), None),
            preview(),
            BestKind::of(Settings::default(), Some(30)),
            BestKind::of(Settings::default(), Some(60)),
            hinted(classic()),
            hinted(BestKind::of(Settings::default(), Some(30))),
            BestKind::Earlier,
        ]
    );
}

/// A game with hints ranks among games with hints only: its high score pushes no
/// entry of the same rules without hints out, nor ranks above them.
#[test]
fn hinted_games_rank_apart() {
    let plain = classic();
    let hinted = classic().with_hints(true);
    let mut t = BestScores::new(2);
    t.record(plain, 100, 10, "a");
    t.record(plain, 90, 10, "b");
    assert_eq!(t.rank_of(plain, 5000), Some(0));
    assert_eq!(t.record(hinted, 5000, 400, "c"), Some(0));
    assert_eq!(scores(&t, plain), [100, 90], "nothing pushed out");
    assert_eq!(scores(&t, hinted), [5000]);
    assert_eq!(
        t.entries_of(hinted)[0].kind.rules().map(|r| r.hints),
        Some(true)
    );
    assert_eq!(t.kinds().collect::<Vec<_>>(), [plain, hinted]);
}

/// The endings remembered: each game once, oldest forgotten past [`MAX_ENDED`], made
/// again in another copy by `apply` (once, however often), taken back by the inverse
/// (that very ending only).
#[test]
fn endings_are_remembered_once_and_bounded() {
    let end = |game: u64| Ending { game, tag: 3 };
    let mut t = BestScores::new(10);
    for g in 0..MAX_ENDED as u64 + 5 {
        assert!(t.end_game(end(g)).is_some());
    }
    assert_eq!(t.ended_games().len(), MAX_ENDED);
    assert!(!t.has_game(4) && t.has_game(5), "the five oldest forgotten");
    assert_eq!(t.ended_games().last(), Some(&end(MAX_ENDED as u64 + 4)));
    assert!(t.end_game(end(5)).is_none(), "remembered already");
    let mut copy = BestScores::new(10);
    let change = copy.end_game(end(99)).unwrap();
    let mut other = BestScores::new(10);
    other.apply(&change);
    other.apply(&change);
    assert_eq!(other.ended_games(), [end(99)]);
    assert!(other.has_game(99) && !other.has_entry_of(99));
    // Another session's ending of the same game stays: only this one is taken back.
    other.apply(&BestChange::EndTakenBack {
        ending: Ending { game: 99, tag: 4 },
        forgotten: None,
    });
    assert!(other.remembers(end(99)));
    other.apply(&change.inverse());
    assert!(!other.has_game(99) && other.ended_games().is_empty());
    assert_eq!(change.inverse().inverse(), change);
    // A full list made full again by `apply` forgets its oldest too, and says so.
    let made = t.apply(&BestChange::Ended {
        ending: end(1 << 40),
        forgotten: None,
    });
    assert_eq!(t.ended_games().len(), MAX_ENDED);
    assert!(!t.has_game(5) && t.has_game(6) && t.has_game(1 << 40));
    assert_eq!(
        made,
        BestChange::Ended {
            ending: end(1 << 40),
            forgotten: Some(end(5))
        }
    );
}

/// A full list of endings: taking back the newest brings back the oldest it made the
/// table forget, first again, in this copy and in a copy that another session changed
/// meanwhile — there, the one that copy forgot.
#[test]
fn an_ending_taken_back_brings_back_the_ending_it_made_the_table_forget() {
    let end = |game: u64| Ending { game, tag: 3 };
    let mut full = BestScores::new(10);
    for g in 0..MAX_ENDED as u64 {
        full.end_game(end(g));
    }
    let before = full.clone();
    let mut t = full.clone();
    let change = t.end_game(end(5000)).unwrap();
    assert!(!t.has_game(0));
    assert_eq!(
        change,
        BestChange::Ended {
            ending: end(5000),
            forgotten: Some(end(0))
        }
    );
    let back = t.apply(&change.inverse());
    assert_eq!(t, before, "the very list again, oldest first");
    assert_eq!(back, change.inverse());
    // Taken back twice: the forgotten ending is there once.
    assert_eq!(
        t.apply(&change.inverse()),
        BestChange::EndTakenBack {
            ending: end(5000),
            forgotten: None
        }
    );
    assert_eq!(t, before);
    // Another session ended a game meanwhile (the store forgot game 0 for it): this
    // session's ending, made again there, forgets game 1; taking it back as made there
    // brings back game 1, not game 0, which the other session's ending pushed out.
    let mut stored = full.clone();
    stored.end_game(end(6000));
    let made = stored.apply(&change);
    assert_eq!(
        made,
        BestChange::Ended {
            ending: end(5000),
            forgotten: Some(end(1))
        }
    );
    stored.apply(&made.inverse());
    assert!(!stored.has_game(0) && stored.has_game(1) && stored.has_game(6000));
    assert_eq!(stored.ended_games().first(), Some(&end(1)));
    assert_eq!(stored.ended_games().len(), MAX_ENDED);
    // Taken back from a copy where it was never made (a merge dropped it): that copy
    // forgot nothing for it, and nothing comes back.
    let mut elsewhere = BestScores::new(10);
    elsewhere.end_game(end(7));
    assert_eq!(
        elsewhere.apply(&change.inverse()),
        BestChange::EndTakenBack {
            ending: end(5000),
            forgotten: None
        }
    );
    assert_eq!(elsewhere.ended_games(), [end(7)]);
    // An ending of the forgotten game remembered meanwhile keeps it out: one per game.
    let mut t = full;
    let change = t.end_game(end(5000)).unwrap();
    t.apply(&BestChange::EndTakenBack {
        ending: end(1),
        forgotten: None,
    });
    t.end_game(Ending { game: 0, tag: 9 });
    t.apply(&change.inverse());
    assert!(t.remembers(Ending { game: 0, tag: 9 }) && !t.remembers(end(0)));
}

/// Entries kept behind the shown ones move up when one is taken back, whichever
/// session's entering pushed them out and in whatever order the sessions take theirs
/// back; they give way to shown entries at [`MAX_ENTRIES`].
#[test]
fn the_entries_behind_the_shown_ones_move_up_when_one_is_taken_back() {
    let k = BestKind::of(Settings::default(), None);
    let mut stored = BestScores::new(1);
    stored.record(k, 5, 1, "x");
    // Two sessions enter 10 and 20 in their copies, then in the store one after the
    // other: 5 and 10 are kept behind 20.
    let (mut a, mut b) = (stored.clone(), stored.clone());
    let (rank, from_a) = a.enter(k, Some(1), 10, 1, "a").unwrap();
    assert_eq!(rank, Some(0));
    let (_, from_b) = b.enter(k, Some(2), 20, 1, "b").unwrap();
    stored.apply(&from_a);
    stored.apply(&from_b);
    assert_eq!(scores(&stored, k), [20]);
    assert_eq!(stored.len(), 1);
    assert_eq!(stored.kept_entries().count(), 3);
    assert!(stored.holds(&BestScore::new(k, None, 5, 1, "x")));
    // a takes 10 back (behind the shown one), then b takes 20 back: 5 is shown again.
    stored.apply(&from_a.inverse());
    assert_eq!(scores(&stored, k), [20]);
    stored.apply(&from_b.inverse());
    assert_eq!(scores(&stored, k), [5]);
    assert_eq!(stored.kept_entries().count(), 1);
    // An entry below the shown ones is kept, not shown; below the reserve, not kept.
    let mut t = BestScores::new(1);
    for s in 0..=RESERVE as u32 {
        t.record(k, 100 + s, 1, "");
    }
    let (rank, _) = t.enter(k, None, 101, 1, "").unwrap();
    assert_eq!(rank, None, "kept behind");
    assert_eq!(t.enter(k, None, 1, 1, ""), None, "below them all");
    assert_eq!(t.kept_entries().count(), 1 + RESERVE);
    assert_eq!(t.remove(k, 0).map(|e| e.score), Some(100 + RESERVE as u32));
    assert_eq!(t.remove(k, 1), None, "only shown ranks");
    assert_eq!(scores(&t, k), [100 + RESERVE as u32 - 1]);
}

/// What a random session does to one table.
#[derive(Clone, Debug)]
enum TableOp {
    /// A game of the kind at this index ends with this score.
    Enter(usize, u32),
    /// The change of the entered game at this index (modulo their count) is taken back.
    Withdraw(usize),
    /// The entry shown at this rank of the kind at this index is taken out.
    Remove(usize, usize),
}

fn table_op() -> impl proptest::strategy::Strategy<Value = TableOp> {
    use proptest::prelude::*;
    prop_oneof![
        3 => (0usize..3, 0u32..40).prop_map(|(k, s)| TableOp::Enter(k, s)),
        1 => any::<usize>().prop_map(TableOp::Withdraw),
        1 => (0usize..3, 0usize..5).prop_map(|(k, r)| TableOp::Remove(k, r)),
    ]
}

proptest::proptest! {
    #![proptest_config(banco_game::testing::proptest_config(None, 0xB35E_7AB1))]

    /// Whatever is entered, taken back and taken out, every kind keeps its entries best
    /// first, at most its capacity and reserve, shows the first of them, and — while no
    /// entry was ever pushed beyond the reserve — shows the best of the entries that stand.
    #[test]
    fn a_table_shows_the_best_of_what_stands(
        capacity in 1usize..=4,
        ops in proptest::collection::vec(table_op(), 0..80),
    ) {
        let kinds = [classic(), preview(), BestKind::Earlier];
        let mut t = BestScores::new(capacity);
        let mut entered: Vec<BestChange> = Vec::new();
        // The model: each kind's standing entries (game, score), and whether one may have
        // been pushed beyond the reserve.
        let mut stand: Vec<Vec<(u64, u32)>> = vec![Vec::new(); 3];
        let mut dropped = [false; 3];
        for (i, op) in ops.into_iter().enumerate() {
            match op {
                TableOp::Enter(k, score) => {
                    let kind = kinds[k];
                    dropped[k] |= t.kept_entries().filter(|e| e.kind == kind).count()
                        >= capacity + RESERVE;
                    let Some((rank, change)) = t.enter(kind, Some(i as u64), score, 1, "") else {
                        proptest::prop_assert!(dropped[k], "not kept with room");
                        continue;
                    };
                    if let Some(r) = rank {
                        proptest::prop_assert_eq!(t.entries_of(kind)[r].game, Some(i as u64));
                    }
                    stand[k].push((i as u64, score));
                    entered.push(change);
                }
                TableOp::Withdraw(j) => {
                    if entered.is_empty() {
                        continue;
                    }
                    let change = entered[j % entered.len()].clone();
                    t.apply(&change.inverse());
                    if let BestChange::Entered(e) = change {
                        let k = kinds.iter().position(|&kd| kd == e.kind).unwrap();
                        stand[k].retain(|&(g, _)| Some(g) != e.game);
                    }
                }
                TableOp::Remove(k, r) => {
                    if let Some(e) = t.remove(kinds[k], r) {
                        stand[k].retain(|&(g, _)| Some(g) != e.game);
                    }
                }
            }
        }
        let mut shown = 0;
        for (k, &kind) in kinds.iter().enumerate() {
            let kept: Vec<&BestScore> = t.kept_entries().filter(|e| e.kind == kind).collect();
            proptest::prop_assert!(kept.len() <= capacity + RESERVE);
            proptest::prop_assert!(kept.windows(2).all(|w| w[0].score >= w[1].score));
            let first: Vec<&BestScore> = kept.iter().copied().take(capacity).collect();
            proptest::prop_assert_eq!(t.entries_of(kind).iter().collect::<Vec<_>>(), first);
            shown += t.entries_of(kind).len();
            if !dropped[k] {
                let mut best: Vec<u32> = stand[k].iter().map(|&(_, s)| s).collect();
                best.sort_unstable_by(|a, b| b.cmp(a));
                best.truncate(capacity);
                proptest::prop_assert_eq!(scores(&t, kind), best);
            }
        }
        proptest::prop_assert_eq!(t.len(), shown);
        proptest::prop_assert_eq!(t.is_empty(), shown == 0);
    }
}
