//! Sessions sharing one best-scores store, against a model: whatever order several
//! sessions enter their endings, take them back by undo and write the store in, the store
//! they leave holds the best entries of the endings that stand (entered and not taken
//! back) and of the entries it held before, and remembers exactly the games whose endings
//! stand.

#![allow(clippy::unwrap_used)]

use super::LinesSession;
use super::best_file::{decode, encode};
use banco_lines::best::{BestKind, BestScores, game_id};
use banco_lines::{Settings, ai};
use proptest::prelude::*;
use std::sync::OnceLock;

/// Finished games of distinct scores (greedy play from seeds 1 on): the sessions' games.
fn finished() -> &'static [LinesSession] {
    static GAMES: OnceLock<Vec<LinesSession>> = OnceLock::new();
    GAMES.get_or_init(|| {
        let mut games: Vec<LinesSession> = Vec::new();
        for seed in 1..=40u8 {
            let mut s = LinesSession::new(Settings::default(), [seed; 32]);
            while let Some(m) = ai::greedy_move(s.game()) {
                if s.play(m.from, m.to).is_err() {
                    break;
                }
            }
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

fn finish(s: &mut LinesSession) {
    while let Some(m) = ai::greedy_move(s.game()) {
        if s.play(m.from, m.to).is_err() {
            break;
        }
    }
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
        // The model: whose ending stands.
        let mut stands = vec![false; sessions];
        let write = |s: &mut LinesSession, store: &mut Vec<u8>| {
            s.merge_best_scores(store).unwrap();
            *store = s.best_scores_bytes().unwrap();
            s.best_scores_kept();
        };
        for (who, op) in script {
            let Some(s) = live.get_mut(who) else { continue };
            match op {
                Op::Record => {
                    finish(s);
                    s.record_result("2026-12-07");
                    stands[who] = s.is_over();
                }
                Op::Undo => {
                    if s.undo().is_ok() {
                        stands[who] = false;
                    }
                }
                Op::Write => write(s, &mut store),
            }
        }
        for s in &mut live {
            write(s, &mut store);
        }
        let end = decode(&store).unwrap();
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
}
