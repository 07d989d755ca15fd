//! Sessions sharing one best-scores store, against a model: whatever order several
//! sessions enter their endings, take them back by undo and write the store in, the store
//! they leave holds the best entries of the endings that stand (entered and not taken
//! back) and of the entries it held before, and remembers exactly the games whose endings
//! stand. Sessions that continued one save and play it to the same end never enter it
//! twice. In both, what each session holds as its own agrees with the store.

#![allow(clippy::unwrap_used)]

use super::LinesSession;
use super::best::tests::{finish, saved_midway};
use super::best_file::{decode, encode};
use banco_lines::Settings;
use banco_lines::best::{BestChange, BestKind, BestScores, game_id};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use std::sync::OnceLock;

/// Finished games of distinct scores (greedy play from seeds 1 on): the sessions' games.
fn finished() -> &'static [LinesSession] {
    static GAMES: OnceLock<Vec<LinesSession>> = OnceLock::new();
    GAMES.get_or_init(|| {
        let mut games: Vec<LinesSession> = Vec::new();
        for seed in 1..=40u8 {
            let mut s = LinesSession::new(Settings::default(), [seed; 32]);
            finish(&mut s);
            let score = s.score();
            if score > 0 && games.iter().all(|g| g.score() != score) {
                games.push(s);
            }
            if games.len() == 4 {
                break;
            }
        }
        games
    })
}

/// What a session does next.
#[derive(Clone, Copy, Debug)]
enum Op {
    /// Plays its game to its end (the same ending again after an undo) and enters it.
    Record,
    /// Takes its last turn back (its ending too, if it was entered).
    Undo,
    /// Merges the store into its table and writes it back.
    Write,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![Just(Op::Record), Just(Op::Undo), Just(Op::Write)]
}

/// Plays `script` (a session that is not there does nothing), then every session writes
/// once more: whose ending stands at the end (entered, not taken back since).
fn run(live: &mut [LinesSession], script: &[(usize, Op)], store: &mut Vec<u8>) -> Vec<bool> {
    let mut stands = vec![false; live.len()];
    let write = |s: &mut LinesSession, store: &mut Vec<u8>| {
        s.merge_best_scores(store).unwrap();
        *store = s.best_scores_bytes().unwrap();
        s.best_scores_kept();
    };
    for &(who, op) in script {
        let (Some(s), Some(st)) = (live.get_mut(who), stands.get_mut(who)) else {
            continue;
        };
        match op {
            Op::Record => {
                finish(s);
                s.record_result("2026-12-07");
                *st = s.is_over();
            }
            Op::Undo => {
                if s.undo().is_ok() {
                    *st = false;
                }
            }
            Op::Write => write(s, store),
        }
    }
    for s in live.iter_mut() {
        write(s, store);
    }
    stands
}

/// A game played from a save of it by several sessions (each continued the save: its own
/// session, its own random number), all to the same end.
fn twins(n: usize) -> Vec<LinesSession> {
    static TWIN: OnceLock<LinesSession> = OnceLock::new();
    let twin = TWIN.get_or_init(|| {
        let (_, save) = saved_midway(77);
        let mut twin = LinesSession::load(&save).unwrap();
        finish(&mut twin);
        twin
    });
    (0..n)
        .map(|_| {
            let mut t = twin.clone();
            t.nonce = super::best::session_nonce();
            t
        })
        .collect()
}

/// Each session's own view, written last, agrees with the store `end`: at most one
/// session owns an ending of a game, what a session holds as its ending and entry are in
/// the store, and whatever the store holds is some session's own or was there `before`.
/// (The stores here hold fewer entries than a kind keeps with its reserve, so no entry is
/// pushed out for good.)
fn agree(
    live: &[LinesSession],
    end: &BestScores,
    before: &BestScores,
) -> Result<(), TestCaseError> {
    for s in live {
        let game = game_id(&s.game().seed());
        let owners = live
            .iter()
            .filter(|o| game_id(&o.game().seed()) == game && o.ended.is_some())
            .count();
        prop_assert!(owners <= 1, "{} sessions own the game's ending", owners);
        if let Some(BestChange::Ended { ending, .. }) = &s.ended {
            prop_assert!(end.remembers(*ending), "an owner's ending is in the store");
        }
        if let Some(BestChange::Entered(entry)) = &s.entered {
            prop_assert!(end.holds(entry), "an owner's entry is in the store");
        }
    }
    for e in end.kept_entries() {
        prop_assert!(
            before.holds(e)
                || live
                    .iter()
                    .any(|s| s.entered == Some(BestChange::Entered(e.clone()))),
            "an entry no session owns: {:?}",
            e
        );
    }
    for e in end.ended_games() {
        prop_assert!(
            live.iter()
                .any(|s| matches!(s.ended, Some(BestChange::Ended { ending, .. }) if ending == *e)),
            "an ending no session owns: {:?}",
            e
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(banco_game::testing::proptest_config(None, 0xB357_5E55))]

    #[test]
    fn sessions_sharing_a_store_leave_the_best_of_what_stands(
        capacity in 1usize..=3,
        // Entries the store held before: odd scores (a game's score is even), distinct.
        before in proptest::collection::btree_set(0u32..200, 0..=4),
        sessions in 2usize..=4,
        script in proptest::collection::vec((0usize..4, op()), 0..24),
    ) {
        let games = finished();
        prop_assert_eq!(games.len(), 4, "four games of distinct scores");
        let kind = BestKind::of(Settings::default(), None);
        let mut table = BestScores::new(capacity);
        for (i, &s) in before.iter().enumerate() {
            table.record_game(kind, Some(1_000 + i as u64), 2 * s + 1, 1, "2026-01-01");
        }
        let mut store = encode(&table).unwrap();
        let mut all: Vec<u32> = table.entries_of(kind).iter().map(|e| e.score).collect();
        let mut live: Vec<LinesSession> = games[..sessions].to_vec();
        for s in &mut live {
            s.load_best_scores(&store).unwrap();
        }
        let stands = run(&mut live, &script, &mut store);
        let end = decode(&store).unwrap();
        agree(&live, &end, &table)?;
        for (s, &st) in live.iter().zip(&stands) {
            if st {
                all.push(s.score());
            }
            prop_assert_eq!(
                end.has_game(game_id(&s.game().seed())),
                st,
                "the store remembers a session's game exactly when its ending stands"
            );
        }
        all.sort_unstable_by(|a, b| b.cmp(a));
        all.truncate(capacity);
        let got: Vec<u32> = end.entries_of(kind).iter().map(|e| e.score).collect();
        prop_assert_eq!(got, all);
    }

    /// Sessions that continued one save and play it to the same end, beside a session of
    /// another game: whatever they do, the store never holds the game twice, holds no entry
    /// nor ending of a game whose sessions all took their endings back, and the other
    /// game's entry is there exactly when its ending stands.
    #[test]
    fn sessions_playing_one_save_never_enter_it_twice(
        capacity in 1usize..=3,
        n in 2usize..=3,
        script in proptest::collection::vec((0usize..4, op()), 0..32),
    ) {
        let other = finished()[0].clone();
        let mut live = twins(n);
        live.push(other);
        let mut store = encode(&BestScores::new(capacity)).unwrap();
        for s in &mut live {
            s.load_best_scores(&store).unwrap();
        }
        let stands = run(&mut live, &script, &mut store);
        let end = decode(&store).unwrap();
        let twin_game = game_id(&live[0].game().seed());
        let other_game = game_id(&live[n].game().seed());
        prop_assert_ne!(twin_game, other_game);
        agree(&live, &end, &BestScores::new(capacity))?;
        let twin_entries = end.kept_entries().filter(|e| e.game == Some(twin_game)).count();
        prop_assert!(twin_entries <= 1, "the game twice: {:?}", end);
        if !stands[..n].iter().any(|&s| s) {
            prop_assert!(!end.has_game(twin_game), "nothing of a game taken back by all");
        }
        prop_assert_eq!(end.has_game(other_game), stands[n]);
    }
}
