//! The checksum of the saved records: every single-bit flip of a saved game (each kind),
//! of Lines' best scores and of the puzzle progress is refused, and the records written
//! before the checksum still load.
#![allow(clippy::unwrap_used, clippy::panic)]

use crate::save_props::saved;
use banco_app::lines::LinesSession;
use banco_app::puzzles::progress::{Progress, ProgressError};
use banco_app::save::{self, SavedGame, SavedLines};
use banco_game::{Color, GameKind, Outcome, WinReason};
use banco_lines::{Settings, SpawnRule, UndoRule, ai};

/// Every copy of `bytes` with one bit flipped, with the byte's index.
fn flips(bytes: &[u8]) -> impl Iterator<Item = (usize, Vec<u8>)> + '_ {
    (0..bytes.len() * 8).map(move |n| {
        let mut b = bytes.to_vec();
        b[n / 8] ^= 1 << (n % 8);
        (n / 8, b)
    })
}

/// Asserts that `decode` refuses every single-bit flip of `bytes`, and says "checksum"
/// for every flip after the first `header` bytes (magic and version: those say "not a
/// save", "newer" or a damage of the older format without a checksum) — or "cut short"
/// for a flip that makes the record announce more than the file holds (a length).
fn every_flip_refused<T: std::fmt::Debug, E: std::fmt::Display>(
    what: &str,
    bytes: &[u8],
    header: usize,
    decode: impl Fn(&[u8]) -> Result<T, E>,
) {
    decode(bytes).unwrap_or_else(|e| panic!("{what}: the sound record loads: {e}"));
    for (at, b) in flips(bytes) {
        match decode(&b) {
            Ok(v) => panic!("{what}: a flip in byte {at} loads: {v:?}"),
            Err(e) if at >= header => assert!(
                e.to_string().contains(save::CHECKSUM_MISMATCH)
                    || e.to_string().contains(save::CUT_SHORT),
                "{what}: byte {at}: {e}"
            ),
            Err(_) => {}
        }
    }
}

#[test]
fn every_bit_flip_of_a_saved_board_game_is_refused() {
    let picks: Vec<u16> = (0..40u16).map(|i| i.wrapping_mul(7919)).collect();
    for kind in [GameKind::Xiangqi, GameKind::Chess, GameKind::Jieqi] {
        let tags = [("Red".to_owned(), "Lan".to_owned())];
        let mut s = saved(kind, &picks, 2, &tags);
        s.ending = Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Resignation,
        });
        s.player = Some(save::Player { color: 0, level: 3 });
        let bytes = s.encode().unwrap();
        assert_eq!(bytes[8], save::VERSION_CHECKSUM);
        every_flip_refused(&kind.to_string(), &bytes, 9, SavedGame::decode);
    }
}

#[test]
fn every_bit_flip_of_a_saved_lines_game_is_refused() {
    for (preview, spawn, version) in [
        (false, SpawnRule::AtAnnouncement, save::VERSION_SPOTS),
        (false, SpawnRule::AtLanding, save::VERSION_CHECKSUM),
        (true, SpawnRule::AtAnnouncement, save::VERSION_CHECKSUM),
    ] {
        let settings = Settings::new(3, UndoRule::Unlimited)
            .unwrap()
            .with_spawn(spawn)
            .with_preview(preview);
        let mut s = LinesSession::new(settings, [0x5C; 32]);
        for _ in 0..25 {
            let m = ai::greedy_move(s.game()).unwrap();
            s.play(m.from, m.to).unwrap();
        }
        s.undo().unwrap();
        let bytes = s.save().unwrap();
        assert_eq!(bytes[8], version);
        every_flip_refused("lines", &bytes, 9, SavedLines::decode);
        every_flip_refused("lines", &bytes, 9, LinesSession::load);
    }
}

/// The reviewer's finished xiangqi game (H2-E2 B9-C7, Red resigned; player Red at level
/// 1), as a build before the checksum wrote it.
const FIN_V1: [u8; 99] = [
    0x89, 0x42, 0x41, 0x4e, 0x43, 0x4f, 0x0d, 0x0a, 0x01, 0x00, 0x00, 0x00, 0x03, 0x78, 0x45, 0x72,
    0x6e, 0x62, 0x61, 0x6b, 0x61, 0x62, 0x6e, 0x72, 0x2f, 0x39, 0x2f, 0x31, 0x63, 0x35, 0x63, 0x31,
    0x2f, 0x70, 0x31, 0x70, 0x31, 0x70, 0x31, 0x70, 0x31, 0x70, 0x2f, 0x39, 0x2f, 0x39, 0x2f, 0x50,
    0x31, 0x50, 0x31, 0x50, 0x31, 0x50, 0x31, 0x50, 0x2f, 0x31, 0x43, 0x35, 0x43, 0x31, 0x2f, 0x39,
    0x2f, 0x52, 0x4e, 0x42, 0x41, 0x4b, 0x41, 0x42, 0x4e, 0x52, 0x20, 0x77, 0x20, 0x2d, 0x20, 0x2d,
    0x20, 0x30, 0x20, 0x31, 0x02, 0xe0, 0x11, 0x95, 0x3a, 0x00, 0x01, 0x84, 0x82, 0x80, 0x08, 0x01,
    0x00, 0x01, 0x00,
];

/// The reviewer's two flips that loaded as another game (byte 85 bit 0: another first
/// move; byte 92 bit 1: the resignation Black's) are refused in the checksummed format.
/// Their own files (format 1, no checksum) still load, as every file of the older format
/// does: nothing in them tells the damage apart.
#[test]
fn the_reviewers_flips_are_refused_once_saved_with_the_checksum() {
    let old = SavedGame::decode(&FIN_V1).unwrap();
    assert_eq!(old.moves.len(), 2);
    assert!(old.ending.is_some());
    old.restore().unwrap();
    let bytes = old.encode().unwrap();
    assert_eq!(bytes[8], save::VERSION_CHECKSUM);
    assert_eq!(&bytes[9..bytes.len() - save::CHECKSUM_LEN], &FIN_V1[9..]);
    assert_eq!(SavedGame::decode(&bytes).unwrap(), old);
    for (at, bit) in [(85, 0), (92, 1)] {
        let mut v1 = FIN_V1;
        v1[at] ^= 1 << bit;
        let loaded = SavedGame::decode(&v1).unwrap();
        assert_ne!(loaded, old, "format 1: another game");
        let mut v5 = bytes.clone();
        v5[at] ^= 1 << bit;
        let e = SavedGame::decode(&v5).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the saved game is damaged: its checksum does not match (a byte of the file was changed or corrupted)"
        );
    }
    // Cut short or lengthened: refused too.
    assert!(SavedGame::decode(&bytes[..bytes.len() - 1]).is_err());
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(SavedGame::decode(&longer).is_err());
}

/// A saved game cut short anywhere after its header — in its record or its checksum — is
/// said to be cut short, not to have a byte changed (review revC F6.2); a changed byte that
/// leaves the length whole still says "checksum".
#[test]
fn a_saved_game_cut_short_is_called_cut_short() {
    let picks: Vec<u16> = (0..30u16).map(|i| i.wrapping_mul(7919)).collect();
    let bytes = saved(GameKind::Xiangqi, &picks, 2, &[]).encode().unwrap();
    for len in save::MAGIC.len() + 1..bytes.len() {
        let e = SavedGame::decode(&bytes[..len]).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("the saved game is damaged: {}", save::CUT_SHORT),
            "cut to {len} of {} bytes",
            bytes.len()
        );
    }
    let mut changed = bytes.clone();
    *changed.last_mut().unwrap() ^= 1;
    let e = SavedGame::decode(&changed).unwrap_err();
    assert!(e.to_string().contains(save::CHECKSUM_MISMATCH), "{e}");
}

#[test]
fn every_bit_flip_of_the_best_scores_is_refused_and_old_tables_load() {
    let mut s = LinesSession::new(Settings::default(), [3; 32]);
    while let Some(m) = ai::greedy_move(s.game()) {
        s.play(m.from, m.to).unwrap();
    }
    assert_eq!(s.record_result("2026-12-06"), Some(0));
    let bytes = s.best_scores_bytes().unwrap();
    let load = |b: &[u8]| {
        let mut s = LinesSession::new(Settings::default(), [4; 32]);
        s.load_best_scores(b).map(|()| s.best_scores().clone())
    };
    every_flip_refused("best scores", &bytes, 1, load);
    // A table of version 1 (no checksum): capacity 10, one entry (score 7, 30 turns).
    let mut old = vec![1, 10, 1, 7, 30, 10];
    old.extend(b"2026-12-01");
    let old = load(&old).unwrap();
    assert_eq!(
        old.entries_of(banco_lines::best::BestKind::Earlier)[0].score,
        7
    );
}

#[test]
fn every_bit_flip_of_the_puzzle_progress_is_refused_and_old_records_load() {
    let mut p = Progress::default();
    p.attempted("sp-1");
    p.hint_used("sp-1");
    p.solved("sp-1");
    p.attempted("sp-2");
    let bytes = p.encode().unwrap();
    // A flip in the record may also say that the bytes do not form one.
    every_flip_refused("progress", &bytes, usize::MAX, Progress::decode);
    assert!(matches!(
        Progress::decode(&bytes[..bytes.len() - 1]),
        Err(ProgressError::Damaged(_))
    ));
    // A record of version 1 (no checksum): sp-1 solved, 1 try, no hint.
    let mut old = b"\x89BANCP\r\n".to_vec();
    old.extend([1, 1, 4]);
    old.extend(b"sp-1");
    old.extend([1, 1, 0]);
    let back = Progress::decode(&old).unwrap();
    assert!(back.is_solved("sp-1"));
    assert_eq!(back.record("sp-1").map(|r| r.attempts), Some(1));
}

/// A Lines game far longer than a board game's limit is saved and read back (its turns
/// are two bytes each: a player beyond the best known scores plays thousands of turns);
/// past the Lines limit it is refused with the count, not cut.
#[test]
fn a_very_long_lines_game_is_saved_and_read_back() {
    use banco_lines::Move;
    use save::{MAX_LINES_MOVES, MAX_MOVES};
    let turn = Move {
        from: "a1".parse().unwrap(),
        to: "b2".parse().unwrap(),
    };
    let mut record = SavedLines {
        settings: Settings::default(),
        seed: [7; 32],
        moves: vec![turn; MAX_MOVES + 5_000],
        taken_back: Vec::new(),
        tags: Vec::new(),
    };
    let bytes = record.encode().unwrap();
    assert!(bytes.len() <= save::MAX_BYTES);
    let back = SavedLines::decode(&bytes).unwrap();
    assert_eq!(back.moves.len(), MAX_MOVES + 5_000);
    record.moves = vec![turn; MAX_LINES_MOVES + 1];
    let e = record.encode().unwrap_err().to_string();
    assert!(e.contains(&format!("{}", MAX_LINES_MOVES + 1)), "{e}");
}
