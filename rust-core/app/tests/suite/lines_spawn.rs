//! Lines' spawn rule in saved games: a game saved before the spots were drawn at
//! announcement (`tests/data/lines/legacy-spawn.banco`, written by the build before the
//! rule, with its continuation `legacy-spawn.tsv` as that build played it) loads and plays
//! on exactly as it did; a new game is saved with its rule, which an older build refuses as
//! newer; and loading to an earlier turn cannot choose where the balls land either.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use banco_app::lines::LinesSession;
use banco_app::save::{self, SaveError, SavedLines};
use banco_lines::{Cell, Settings, SpawnRule, UndoRule};

const LEGACY: &[u8] = include_bytes!("../../../../tests/data/lines/legacy-spawn.banco");
const CONTINUATION: &str = include_str!("../../../../tests/data/lines/legacy-spawn.tsv");

/// The continuation's rows: the move, then what landed (`Rf7 Ce8 …`) and the score.
fn rows() -> Vec<((Cell, Cell), String, u32)> {
    CONTINUATION
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let mut f = l.split('\t');
            let mv = banco_app::lines::parse_move(f.next().unwrap()).unwrap();
            let landed = f.next().unwrap().to_owned();
            let score = f.next().unwrap().parse().unwrap();
            (mv, landed, score)
        })
        .collect()
}

fn landed_text(report: &banco_lines::TurnReport) -> String {
    report
        .landed
        .iter()
        .map(|(c, b)| format!("{}{c}", b.letter()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// (c) The old save continues exactly as the build that wrote it continued it.
#[test]
fn a_game_saved_before_the_rule_plays_on_as_it_did() {
    assert_eq!(LEGACY[8], save::VERSION_CHECKSUM);
    let saved = SavedLines::decode(LEGACY).unwrap();
    assert_eq!(saved.settings.spawn, SpawnRule::AtLanding);
    assert!(!saved.settings.preview);
    // Saved again, it is the same record (an older build still reads it).
    assert_eq!(saved.encode().unwrap(), LEGACY);
    let mut s = LinesSession::load(LEGACY).unwrap();
    assert_eq!(s.game().settings().spawn, SpawnRule::AtLanding);
    assert_eq!(s.save().unwrap(), LEGACY);
    let rows = rows();
    assert!(rows.len() >= 10);
    for (turn, ((from, to), landed, score)) in rows.iter().enumerate() {
        let r = s.play(*from, *to).unwrap();
        assert_eq!(&landed_text(&r), landed, "turn {turn} of the continuation");
        assert_eq!(s.score(), *score, "turn {turn}");
    }
    // The same moves under the new rule land elsewhere: the record's rule is what kept
    // the continuation.
    // (Here the saved moves themselves do not replay: the balls landed elsewhere.)
    let mut new_rule = saved.clone();
    new_rule.settings = new_rule.settings.with_spawn(SpawnRule::AtAnnouncement);
    let differs = LinesSession::load(&new_rule.encode().unwrap()).map_or(true, |mut n| {
        rows.iter().any(|((from, to), landed, _)| {
            n.play(*from, *to)
                .map_or(true, |r| &landed_text(&r) != landed)
        })
    });
    assert!(differs);
    // A new game after it draws its spots at announcement.
    s.new_game(None, [1; 32]);
    assert_eq!(s.game().settings().spawn, SpawnRule::AtAnnouncement);
}

/// A new game is saved with its rule (format 6, which an older build refuses as newer)
/// and loads with it; the rule before keeps its record.
#[test]
fn a_new_game_saves_its_rule() {
    for undo in [UndoRule::Off, UndoRule::LastTurn, UndoRule::Unlimited] {
        let settings = Settings::new(3, undo).unwrap();
        let mut s = LinesSession::new(settings, [0x42; 32]);
        let (f, t) = s.game().any_move().unwrap();
        s.play(f, t).unwrap();
        let bytes = s.save().unwrap();
        assert_eq!(bytes[8], save::VERSION_SPOTS);
        let back = LinesSession::load(&bytes).unwrap();
        assert_eq!(back.game().settings(), settings);
        assert_eq!(back.game().state(), s.game().state());
        let legacy = LinesSession::new(settings.with_spawn(SpawnRule::AtLanding), [0x42; 32]);
        let bytes = legacy.save().unwrap();
        assert_eq!(bytes[8], save::VERSION_CHECKSUM);
        assert_eq!(
            LinesSession::load(&bytes).unwrap().game().settings().spawn,
            SpawnRule::AtLanding
        );
    }
    let mut newer = LinesSession::new(Settings::default(), [1; 32])
        .save()
        .unwrap();
    newer[8] = save::VERSION_SPOTS + 1;
    assert_eq!(
        LinesSession::load(&newer).err(),
        Some(SaveError::NewerVersion(save::VERSION_SPOTS + 1))
    );
}

/// With undo off, `save` and `load` are an undo too: loading the earlier turn and playing
/// another move brings the balls to the same cells wherever their spots were left free.
#[test]
fn loading_an_earlier_turn_cannot_choose_the_landing() {
    let settings = Settings::new(5, UndoRule::Off).unwrap();
    let mut s = LinesSession::new(settings, [0x17; 32]);
    for _ in 0..12 {
        let mv = banco_lines::ai::greedy_move(s.game()).unwrap();
        s.play(mv.from, mv.to).unwrap();
    }
    let bytes = s.save().unwrap();
    let spots: Vec<Cell> = s.game().state().spots.iter().map_while(|&c| c).collect();
    let mut seen = std::collections::BTreeSet::new();
    for from in Cell::all().filter(|&c| !s.game().board().is_empty_cell(c)) {
        for to in s
            .game()
            .reachable(from)
            .iter()
            .filter(|t| !spots.contains(t))
        {
            let mut again = LinesSession::load(&bytes).unwrap();
            let r = again.play(from, to).unwrap();
            if r.cleared.is_empty() {
                seen.insert(landed_text(&r));
            }
        }
    }
    assert_eq!(seen.len(), 1, "{seen:?}");
}
