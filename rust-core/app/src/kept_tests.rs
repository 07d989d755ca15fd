//! The kept-record policy, branch by branch, for each kind of slot.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use crate::any::{AnyGame, AnyRules};
use crate::lines::LinesSession;
use crate::save::SavedGame;
use banco_game::Game;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// A store in memory that counts its writes (the kept records' tests' platform store).
#[derive(Default)]
pub(crate) struct Memory {
    map: Mutex<BTreeMap<String, String>>,
    writes: Mutex<u32>,
}

impl KeptStore for Memory {
    fn get(&self, key: &str) -> Option<String> {
        self.map.lock().unwrap().get(key).cloned()
    }
    fn put(&self, key: &str, value: &str) {
        *self.writes.lock().unwrap() += 1;
        self.map.lock().unwrap().insert(key.into(), value.into());
    }
    fn remove(&self, key: &str) {
        *self.writes.lock().unwrap() += 1;
        self.map.lock().unwrap().remove(key);
    }
}

impl Memory {
    fn with(key: &str, text: &str) -> Arc<Memory> {
        let m = Memory::default();
        m.map.lock().unwrap().insert(key.into(), text.into());
        Arc::new(m)
    }
    fn writes(&self) -> u32 {
        *self.writes.lock().unwrap()
    }
    fn snapshot(&self) -> BTreeMap<String, String> {
        self.map.lock().unwrap().clone()
    }
}

fn game_bytes() -> Vec<u8> {
    let mut game = AnyGame::new(GameKind::Xiangqi).unwrap();
    let mv = game.legal_move_vec()[0];
    game.play(mv).unwrap();
    SavedGame::of(&game, AnyRules::usual(GameKind::Xiangqi))
        .encode()
        .unwrap()
}

/// A saved game with a format byte from the future (as the shells' tests make one).
fn newer(mut bytes: Vec<u8>) -> Vec<u8> {
    bytes[8] = 200;
    bytes
}

fn lines() -> LinesSession {
    LinesSession::new(banco_lines::Settings::default(), [5; 32])
}

/// Every kind with a sound record of it.
fn kinds() -> Vec<(KeptKind, Vec<u8>)> {
    vec![
        (KeptKind::Game, game_bytes()),
        (KeptKind::LinesGame, lines().save().unwrap()),
        (
            KeptKind::LinesBestScores,
            lines().best_scores_bytes().unwrap(),
        ),
    ]
}

#[test]
fn base64_is_the_apps_base64() {
    assert_eq!(base64::encode(b""), "");
    assert_eq!(base64::encode(b"M"), "TQ==");
    assert_eq!(base64::encode(b"Ma"), "TWE=");
    assert_eq!(base64::encode(b"Man"), "TWFu");
    assert_eq!(base64::encode(&[0xFB, 0xFF]), "+/8=");
    for n in 0..40u8 {
        let bytes: Vec<u8> = (0..n).map(|i| i.wrapping_mul(37) ^ 0xA5).collect();
        assert_eq!(base64::decode(&base64::encode(&bytes)), Some(bytes));
    }
    assert_eq!(
        base64::decode("TWE"),
        Some(b"Ma".to_vec()),
        "padding is optional"
    );
    // (A partly padded group, `TQ=`, reads as its bytes: whatever they are, the record's
    // own checks judge them.)
    for bad in ["%%% not base64", "T", "TWE==", "TW=E", "TWFu\n"] {
        assert_eq!(base64::decode(bad), None, "{bad:?}");
    }
}

#[test]
fn an_absent_record_reads_as_nothing_and_the_first_write_keeps_it() {
    for (kind, bytes) in kinds() {
        let store = Arc::new(Memory::default());
        let mut slot = KeptSlot::new(store.clone(), "k", kind);
        assert!(!slot.is_present());
        assert_eq!(slot.read(), Kept::default());
        assert_eq!(store.writes(), 0, "reading nothing writes nothing");
        slot.write(&bytes).unwrap();
        assert!(slot.is_present());
        assert_eq!(store.get("k"), Some(base64::encode(&bytes)));
        assert_eq!(store.get("k.damaged"), None);
    }
}

#[test]
fn a_sound_record_reads_back_and_is_replaced_by_a_write() {
    for (kind, bytes) in kinds() {
        let store = Memory::with("k", &base64::encode(&bytes));
        let mut slot = KeptSlot::new(store.clone(), "k", kind);
        assert_eq!(
            slot.read(),
            Kept {
                bytes: Some(bytes.clone()),
                notice: None
            },
            "{kind:?}"
        );
        assert_eq!(store.writes(), 0);
        slot.write(b"new").unwrap();
        assert_eq!(store.get("k").as_deref(), Some("bmV3"));
        slot.clear().unwrap();
        assert_eq!(store.snapshot(), BTreeMap::new());
    }
}

#[test]
fn a_damaged_record_is_set_aside_then_the_slot_takes_new_bytes() {
    for (kind, _) in kinds() {
        for damaged in [base64::encode(&[1, 2, 3]), "%%% not base64".to_owned()] {
            let store = Memory::with("k", &damaged);
            let mut slot = KeptSlot::new(store.clone(), "k", kind);
            let kept = slot.read();
            assert_eq!(kept.bytes, None);
            let notice = kept.notice.unwrap();
            assert!(
                matches!(&notice, KeptNotice::SetAside { set_aside_at, .. } if set_aside_at == "k.damaged"),
                "{notice:?}"
            );
            let text = notice.text();
            match kind {
                KeptKind::Game | KeptKind::LinesGame => {
                    assert!(
                        text.starts_with("The saved game could not be continued: "),
                        "{text}"
                    );
                }
                KeptKind::LinesBestScores => assert!(text.contains("set aside"), "{text}"),
            }
            assert_eq!(store.get("k.damaged"), Some(damaged.clone()));
            assert!(!slot.is_present(), "emptied: nothing to continue");
            assert!(!slot.is_locked());
            // The next write is this session's; the damaged text stays aside.
            slot.write(b"new").unwrap();
            assert_eq!(store.get("k").as_deref(), Some("bmV3"));
            assert_eq!(store.get("k.damaged"), Some(damaged));
        }
    }
}

#[test]
fn another_kind_of_record_is_set_aside_as_damage() {
    let lines_game = base64::encode(&lines().save().unwrap());
    let store = Memory::with("k", &lines_game);
    let kept = KeptSlot::new(store.clone(), "k", KeptKind::Game).read();
    assert!(kept.notice.unwrap().text().contains("open it from Lines"));
    assert_eq!(store.get("k.damaged"), Some(lines_game));
    let game = base64::encode(&game_bytes());
    let store = Memory::with("k", &game);
    let kept = KeptSlot::new(store.clone(), "k", KeptKind::LinesBestScores).read();
    assert!(matches!(kept.notice, Some(KeptNotice::SetAside { .. })));
    assert_eq!(store.get("k.damaged"), Some(game));
}

#[test]
fn a_newer_bancos_record_locks_the_slot_and_is_never_written() {
    let mut best = lines().best_scores_bytes().unwrap();
    best[0] = 7;
    for (kind, bytes) in [
        (KeptKind::Game, newer(game_bytes())),
        (KeptKind::LinesGame, newer(lines().save().unwrap())),
        (KeptKind::LinesBestScores, best),
    ] {
        let text = base64::encode(&bytes);
        let store = Memory::with("k", &text);
        let mut slot = KeptSlot::new(store.clone(), "k", kind);
        let kept = slot.read();
        assert_eq!(kept.bytes, None);
        let notice = kept.notice.unwrap();
        assert!(
            matches!(notice, KeptNotice::Locked { .. }),
            "{kind:?}: {notice:?}"
        );
        let words = notice.text();
        assert!(words.contains("update the app"), "{words}");
        if kind == KeptKind::LinesBestScores {
            assert!(words.contains("not kept"), "{words}");
        }
        assert!(slot.is_locked() && slot.is_present(), "still offered");
        assert!(matches!(slot.write(b"new"), Err(KeptError::Locked { .. })));
        assert!(slot.clear().is_err());
        // Read again: the same, and still nothing written.
        assert!(matches!(
            slot.read().notice,
            Some(KeptNotice::Locked { .. })
        ));
        assert_eq!(store.writes(), 0, "{kind:?}");
        assert_eq!(store.get("k"), Some(text));
        // Replaced by someone else with damaged text: the next read judges that.
        store.put("k", "AQID");
        assert!(matches!(
            slot.read().notice,
            Some(KeptNotice::SetAside { .. })
        ));
        assert!(!slot.is_locked());
        slot.write(b"new").unwrap();
        assert_eq!(store.get("k").as_deref(), Some("bmV3"));
    }
}

#[test]
fn a_write_without_a_read_judges_the_slot_first() {
    // Damaged: set aside before the write replaces it.
    let damaged = base64::encode(&[1, 2, 3]);
    let store = Memory::with("k", &damaged);
    let mut slot = KeptSlot::new(store.clone(), "k", KeptKind::Game);
    slot.write(b"new").unwrap();
    assert_eq!(store.get("k.damaged"), Some(damaged.clone()));
    assert_eq!(store.get("k").as_deref(), Some("bmV3"));
    // Cleared without a read: set aside too.
    let store = Memory::with("k", &damaged);
    KeptSlot::new(store.clone(), "k", KeptKind::LinesGame)
        .clear()
        .unwrap();
    assert_eq!(store.get("k.damaged"), Some(damaged));
    assert_eq!(store.get("k"), None);
    // A newer Banco's: the write is refused and nothing changes.
    let text = base64::encode(&newer(game_bytes()));
    let store = Memory::with("k", &text);
    let mut slot = KeptSlot::new(store.clone(), "k", KeptKind::Game);
    let err = slot.write(b"new").unwrap_err();
    assert!(err.to_string().contains("update the app"), "{err}");
    assert!(slot.clear().is_err());
    assert_eq!(store.writes(), 0);
    // A sound one: replaced, and only judged once.
    let store = Memory::with("k", &base64::encode(&game_bytes()));
    let mut slot = KeptSlot::new(store.clone(), "k", KeptKind::Game);
    slot.write(b"one").unwrap();
    store.put("k", "%%% written by another session");
    slot.write(b"two").unwrap();
    assert_eq!(
        store.get("k.damaged"),
        None,
        "this session's slot is not judged again"
    );
}

#[test]
fn puzzle_progress_sets_damaged_text_aside_and_never_writes_a_newer_record() {
    use crate::puzzles::progress::Progress;
    let mut sound = Progress::default();
    sound.solved("x1");
    let sound = sound.encode().unwrap();
    // Sound: read, nothing set aside, changes written back as Base64.
    let store = Memory::with("p", &base64::encode(&sound));
    let (progress, damage) = open_progress(store.clone(), "p");
    assert_eq!(damage, None);
    assert!(progress.read(|p| p.is_solved("x1")));
    progress.update(|p| p.solved("x2"));
    let back = Progress::decode(&base64::decode(&store.get("p").unwrap()).unwrap()).unwrap();
    assert!(back.is_solved("x1") && back.is_solved("x2"));
    assert_eq!(store.get("p.damaged"), None);
    // Damaged (and not Base64): set aside before the first change writes over it.
    let store = Memory::with("p", "not base64!");
    let (progress, damage) = open_progress(store.clone(), "p");
    assert!(
        matches!(
            damage,
            Some(ProgressError::Damaged(_) | ProgressError::NotProgress)
        ),
        "{damage:?}"
    );
    assert_eq!(store.get("p.damaged").as_deref(), Some("not base64!"));
    progress.update(|p| p.solved("x1"));
    assert_ne!(store.get("p").as_deref(), Some("not base64!"));
    assert_eq!(store.get("p.damaged").as_deref(), Some("not base64!"));
    // A newer Banco's: kept as it is, this session's progress not written.
    let mut newer = sound.clone();
    newer[crate::puzzles::progress::MAGIC.len()] = 200;
    let text = base64::encode(&newer);
    let store = Memory::with("p", &text);
    let (progress, damage) = open_progress(store.clone(), "p");
    assert!(
        matches!(damage, Some(ProgressError::NewerVersion(200))),
        "{damage:?}"
    );
    progress.update(|p| p.solved("x3"));
    assert_eq!(store.get("p"), Some(text));
    // Nothing kept: nothing to say, nothing set aside.
    let store = Arc::new(Memory::default());
    assert_eq!(open_progress(store.clone(), "p").1, None);
    assert_eq!(store.writes(), 0);
}
