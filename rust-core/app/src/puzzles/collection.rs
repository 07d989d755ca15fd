//! The bundled puzzle collections: xiangqi and chess mates in difficulty tiers, each stored
//! with the solver's proof (mate length and main line, the defender resisting longest). The
//! data is `rust-core/app/data/puzzles/{xiangqi,chess}.tsv`, compiled in; each file's header
//! names its sources (classical compositions and test positions, and for xiangqi positions
//! harvested from Banco's own games by [`harvest`](super::harvest)). `banco puzzles verify`
//! and the tests re-prove them. Jieqi has none: a forced mate cannot be proven through
//! reveals whose identities nobody knows, and Banco's solver has no jieqi arm.
//!
//! ```
//! use banco_app::puzzles::collection::{self, Tier};
//! let all = collection::xiangqi();
//! assert!(all.len() >= 200);
//! let easy: Vec<_> = all.iter().filter(|e| e.tier() == Tier::MateIn1).collect();
//! assert!(!easy.is_empty());
//! let first = &all[0];
//! assert_eq!(first.line.len() as u32, 2 * first.puzzle.mate_in - 1);
//! assert!(collection::find(&first.id).is_some());
//! let chess = collection::of_game(banco_game::GameKind::Chess);
//! assert!(chess.len() >= 10);
//! assert_eq!(collection::find(&chess[0].id), Some(&chess[0]));
//! ```

use super::{Puzzle, SolutionError, check_line};
use crate::any::{AnyGame, AnyRules};
use crate::mate;
use banco_engine::solve::SolveOptions;
use banco_game::GameKind;
use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;

/// The xiangqi collection as stored.
pub const XIANGQI_TSV: &str = include_str!("../../data/puzzles/xiangqi.tsv");

/// The chess collection as stored.
pub const CHESS_TSV: &str = include_str!("../../data/puzzles/chess.tsv");

/// A difficulty tier, by the length of the mate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Tier {
    /// Mate in one.
    MateIn1,
    /// Mate in two.
    MateIn2,
    /// Mate in three.
    MateIn3,
    /// Mate in four or five.
    MateIn4To5,
    /// Mate in six or more.
    MateIn6Plus,
}

impl Tier {
    /// Every tier, easiest first.
    pub const ALL: [Tier; 5] = [
        Tier::MateIn1,
        Tier::MateIn2,
        Tier::MateIn3,
        Tier::MateIn4To5,
        Tier::MateIn6Plus,
    ];

    /// The tier of a mate in `n`.
    #[must_use]
    pub const fn of_mate(n: u32) -> Tier {
        match n {
            0 | 1 => Tier::MateIn1,
            2 => Tier::MateIn2,
            3 => Tier::MateIn3,
            4 | 5 => Tier::MateIn4To5,
            _ => Tier::MateIn6Plus,
        }
    }

    /// A name to show (`mate in 4–5`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Tier::MateIn1 => "mate in 1",
            Tier::MateIn2 => "mate in 2",
            Tier::MateIn3 => "mate in 3",
            Tier::MateIn4To5 => "mate in 4–5",
            Tier::MateIn6Plus => "mate in 6+",
        }
    }
}

/// What a row's source says of a mate the solver could not prove the shortest within its
/// budget (its main line may end before the claimed length).
pub const NOT_SHORTEST: &str = "not proven shortest";

/// One puzzle of the collection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// A stable id (progress is kept by it).
    pub id: String,
    /// Where the position comes from.
    pub source: String,
    /// The puzzle (name, game, FEN, mate length).
    pub puzzle: Puzzle,
    /// The solver's main line in coordinates: attacker and defender moves, the defender
    /// resisting longest; it ends in mate.
    pub line: Vec<String>,
}

impl Entry {
    /// Its difficulty tier.
    #[must_use]
    pub fn tier(&self) -> Tier {
        Tier::of_mate(self.puzzle.mate_in)
    }

    /// Checks the stored line (legal, ends in mate, as long as claimed), then proves with
    /// the solver that no shorter forced mate was missed and the claimed one holds.
    pub fn verify(&self, options: &SolveOptions) -> Result<(), SolutionError> {
        check_line(&self.puzzle, &self.line)?;
        // The defender resists longest: against the shortest mate the line takes all its
        // moves. Only a mate not proven the shortest (the source says so) may end sooner.
        let found = self.line.len().div_ceil(2) as u32;
        if found < self.puzzle.mate_in && !self.source.contains(NOT_SHORTEST) {
            return Err(SolutionError::WrongLength {
                found,
                claimed: self.puzzle.mate_in,
            });
        }
        let game = AnyGame::from_fen(self.puzzle.kind, &self.puzzle.fen)
            .map_err(|e| SolutionError::Position(e.to_string()))?;
        let mut o = *options;
        o.max_mate = self.puzzle.mate_in;
        let found = mate::solve(
            &game,
            &AnyRules::usual(self.puzzle.kind),
            &o,
            &AtomicBool::new(false),
        );
        match found.mate {
            Some(n) if n == self.puzzle.mate_in => Ok(()),
            other => Err(SolutionError::NotProven {
                found: other.map_or_else(|| "no mate".to_owned(), |n| format!("mate in {n}")),
                claimed: self.puzzle.mate_in,
            }),
        }
    }
}

/// A row of a collection file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("puzzle file line {line}: {why}")]
pub struct CollectionError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub why: String,
}

/// Reads a collection file: `#` comment lines, a header row, then tab-separated rows of
/// id, source, FEN, mate length and the main line (coordinates separated by spaces).
pub fn parse(kind: GameKind, text: &str) -> Result<Vec<Entry>, CollectionError> {
    let mut out = Vec::new();
    let mut header = false;
    for (i, row) in text.lines().enumerate() {
        let err = |why: String| CollectionError { line: i + 1, why };
        if row.trim().is_empty() || row.starts_with('#') {
            continue;
        }
        if !header {
            header = true;
            if row.starts_with("id\t") {
                continue;
            }
        }
        let f: Vec<&str> = row.split('\t').collect();
        let [id, source, fen, mate_in, line] = f[..] else {
            return Err(err(format!("{} fields, expected 5", f.len())));
        };
        let mate_in: u32 = mate_in
            .parse()
            .map_err(|_| err(format!("mate length `{mate_in}` is not a number")))?;
        out.push(Entry {
            id: id.to_owned(),
            source: source.to_owned(),
            puzzle: Puzzle {
                name: format!("{} #{id}", Tier::of_mate(mate_in).name()),
                kind,
                fen: fen.to_owned(),
                mate_in,
            },
            line: line.split_whitespace().map(str::to_owned).collect(),
        });
    }
    Ok(out)
}

/// A collection file read and sorted easiest first (empty if it cannot be read: the
/// tests read every bundled file whole).
fn sorted(kind: GameKind, text: &str) -> Vec<Entry> {
    let mut v = parse(kind, text).unwrap_or_default();
    v.sort_by_key(|e| (e.puzzle.mate_in, e.line.len()));
    v
}

/// The bundled xiangqi collection, easiest tier first.
#[must_use]
pub fn xiangqi() -> &'static [Entry] {
    static ALL: OnceLock<Vec<Entry>> = OnceLock::new();
    ALL.get_or_init(|| sorted(GameKind::Xiangqi, XIANGQI_TSV))
}

/// The bundled chess collection, easiest tier first.
#[must_use]
pub fn chess() -> &'static [Entry] {
    static ALL: OnceLock<Vec<Entry>> = OnceLock::new();
    ALL.get_or_init(|| sorted(GameKind::Chess, CHESS_TSV))
}

/// The collection of a game, easiest tier first (empty for a game without puzzles).
#[must_use]
pub fn of_game(kind: GameKind) -> &'static [Entry] {
    match kind {
        GameKind::Xiangqi => xiangqi(),
        GameKind::Chess => chess(),
        _ => &[],
    }
}

/// The games with a puzzle collection (xiangqi and chess), in the order of
/// [`AnyGame::kinds`](banco_game::MatchGame::kinds): a screen's list of them.
///
/// ```
/// use banco_game::GameKind;
/// assert_eq!(banco_app::puzzles::collection::games(), [GameKind::Xiangqi, GameKind::Chess]);
/// ```
#[must_use]
pub fn games() -> Vec<GameKind> {
    <AnyGame as banco_game::MatchGame>::kinds()
        .iter()
        .copied()
        .filter(|&k| !of_game(k).is_empty())
        .collect()
}

/// The puzzles of one tier of the xiangqi collection.
#[must_use]
pub fn tier(tier: Tier) -> Vec<&'static Entry> {
    xiangqi().iter().filter(|e| e.tier() == tier).collect()
}

/// The puzzle with this id, in any game's collection.
#[must_use]
pub fn find(id: &str) -> Option<&'static Entry> {
    xiangqi().iter().chain(chess()).find(|e| e.id == id)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_games_listed_are_the_games_with_puzzles() {
        for k in GameKind::ALL {
            assert_eq!(games().contains(&k), !of_game(k).is_empty(), "{k}");
        }
        assert_eq!(games(), [GameKind::Xiangqi, GameKind::Chess]);
    }

    #[test]
    fn the_bundled_file_reads_whole() {
        let all = parse(GameKind::Xiangqi, XIANGQI_TSV).unwrap();
        assert!(all.len() >= 200, "{} puzzles", all.len());
        let mut ids: Vec<&str> = all.iter().map(|e| e.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), all.len(), "ids are unique");
        let mut positions: Vec<&str> = all.iter().map(|e| e.puzzle.fen.as_str()).collect();
        positions.sort_unstable();
        positions.dedup();
        assert_eq!(positions.len(), all.len(), "positions are unique");
        assert!(
            all.iter().all(|e| e.puzzle.fen.contains(" w ")),
            "Red to move"
        );
        for t in Tier::ALL {
            assert!(!tier(t).is_empty(), "tier {} is empty", t.name());
        }
    }

    /// A seeded sample of the collection, proven again (the whole file: `banco puzzles
    /// verify`, run by tests/nightly.sh).
    #[test]
    fn a_seeded_sample_verifies() {
        let all = xiangqi();
        let mut s: u64 = 0x5EED_2026;
        let mut failures = Vec::new();
        for _ in 0..12 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let e = &all[(s % all.len() as u64) as usize];
            if let Err(why) = e.verify(&mate::options(e.puzzle.mate_in)) {
                failures.push(format!("{}: {why}", e.id));
            }
        }
        assert!(failures.is_empty(), "{failures:?}");
    }

    /// The long classical compositions (适情雅趣, issue 17: mates with many quiet moves)
    /// are proven again within the verify budget, the 26-move one among them.
    #[test]
    fn the_long_compositions_verify() {
        let long: Vec<&Entry> = xiangqi()
            .iter()
            .filter(|e| e.id.starts_with("sq"))
            .collect();
        assert!(long.len() >= 5, "{} compositions", long.len());
        let longest = long.iter().map(|e| e.puzzle.mate_in).max();
        assert_eq!(longest, Some(26));
        let mut failures = Vec::new();
        for e in long {
            assert!(e.puzzle.mate_in >= 11, "{} is short", e.id);
            if let Err(why) = e.verify(&mate::options(e.puzzle.mate_in)) {
                failures.push(format!("{}: {why}", e.id));
            }
        }
        assert!(failures.is_empty(), "{failures:?}");
    }

    /// Every stored chess solution: read whole, ids apart from xiangqi's, each line legal and
    /// ending in mate, and the solver proves each claimed length (no shorter mate missed).
    #[test]
    fn every_chess_solution_verifies() {
        let all = parse(GameKind::Chess, CHESS_TSV).unwrap();
        assert!(all.len() >= 10, "{} chess puzzles", all.len());
        assert_eq!(all.len(), chess().len());
        let mut failures = Vec::new();
        for e in chess() {
            assert_eq!(find(&e.id), Some(e), "{} is found by its id", e.id);
            if let Err(why) = e.verify(&mate::options(e.puzzle.mate_in)) {
                failures.push(format!("{}: {why}", e.id));
            }
        }
        assert!(failures.is_empty(), "{failures:?}");
        assert!(of_game(GameKind::Jieqi).is_empty() && of_game(GameKind::Lines).is_empty());
        for t in [Tier::MateIn1, Tier::MateIn2, Tier::MateIn3] {
            assert!(chess().iter().any(|e| e.tier() == t), "{}", t.name());
        }
    }

    /// Every stored line is legal, mates, and (unless the source says the mate is not
    /// proven the shortest) takes every move of the claimed mate: Black resists longest.
    #[test]
    fn every_line_takes_the_whole_mate() {
        let mut short = Vec::new();
        for e in xiangqi().iter().chain(chess()) {
            check_line(&e.puzzle, &e.line).unwrap_or_else(|why| panic!("{}: {why}", e.id));
            let full = 2 * e.puzzle.mate_in as usize - 1;
            if e.line.len() < full && !e.source.contains(NOT_SHORTEST) {
                short.push(format!("{}: {} of {full} plies", e.id, e.line.len()));
            }
        }
        assert!(short.is_empty(), "{short:?}");
    }

    #[test]
    fn a_line_where_black_does_not_resist_is_caught() {
        // sp1018-59 as it was once stored: after g4e5 Black's g5i7 allows mate at once,
        // while c4d4 holds out for the whole mate in 4.
        let mut e = find("sp1018-59").unwrap().clone();
        e.line = ["g4e5", "g5i7", "e5d7"].map(str::to_owned).to_vec();
        assert_eq!(
            e.verify(&mate::options(e.puzzle.mate_in)),
            Err(SolutionError::WrongLength {
                found: 2,
                claimed: 4
            })
        );
    }

    #[test]
    fn a_wrong_solution_is_caught() {
        let mut e = xiangqi()[0].clone();
        e.line.pop();
        assert!(e.verify(&mate::options(e.puzzle.mate_in)).is_err());
        // A claim one move too long: the line alone shows it, and past that check (a
        // source that allows a short line) the solver proves the shorter mate.
        let mut e = xiangqi()[0].clone();
        e.puzzle.mate_in += 1;
        assert!(matches!(
            e.verify(&mate::options(e.puzzle.mate_in)),
            Err(SolutionError::WrongLength { .. })
        ));
        e.source = format!("{}, {NOT_SHORTEST}", e.source);
        assert!(matches!(
            e.verify(&mate::options(e.puzzle.mate_in)),
            Err(SolutionError::NotProven { .. })
        ));
    }

    #[test]
    fn bad_rows_name_their_line() {
        let e = parse(GameKind::Xiangqi, "id\tsource\tfen\tmate_in\tline\nx\ty\n").unwrap_err();
        assert_eq!(e.to_string(), "puzzle file line 2: 2 fields, expected 5");
        let e = parse(GameKind::Xiangqi, "a\tb\tc\tfive\td\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "puzzle file line 1: mate length `five` is not a number"
        );
    }
}
