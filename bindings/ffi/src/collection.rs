//! The bundled puzzle collections for the shells: over 200 xiangqi mates in difficulty
//! tiers, each with its proven length and main line ([`puzzle_tiers`],
//! [`collection_puzzles`], [`collection_puzzle`]), chess mates in the same format
//! ([`puzzle_tiers_of`], [`collection_puzzles_of`] with the game), and [`PuzzleProgress`],
//! the player's record (solved, tries, hints), kept in the shell's
//! [`PuzzleStore`] ([`PuzzleProgress::open`]). A puzzle of the
//! collection is played with [`VsComputer::try_puzzle`](crate::VsComputer::try_puzzle),
//! which updates the record itself (see the `puzzle_mode` module); its hints are the proven
//! mate's next move ([`VsComputer::hint`](crate::VsComputer::hint)).
//!
//! ```
//! use banco_ffi::{collection_puzzles, puzzle_tiers, PuzzleProgress, PuzzleTier};
//! let tiers = puzzle_tiers();
//! assert_eq!(tiers[0].tier, PuzzleTier::MateIn1);
//! assert!(tiers.iter().map(|t| t.count).sum::<u32>() >= 200);
//! let first = &collection_puzzles(Some(PuzzleTier::MateIn1))[0];
//! let progress = PuzzleProgress::new();
//! assert!(!progress.is_solved(first.id.clone()).unwrap());
//! let back = PuzzleProgress::load(progress.save().unwrap()).unwrap();
//! assert_eq!(back.next_unsolved().unwrap().map(|p| p.id), Some(first.id.clone()));
//! let chess = banco_ffi::collection_puzzles_of(banco_ffi::GameKind::Chess, None);
//! assert!(chess.len() >= 10);
//! ```

use crate::computer::Puzzle;
use crate::error::{BancoError, guard};
use crate::puzzle_mode::{PuzzleNotice, PuzzleStore, StoreRelay};
use crate::types::GameKind;
use banco_app::puzzles::collection::{self as pc, Entry, Tier};
use banco_app::puzzles::progress::{Progress, ProgressError, SharedProgress};
use std::sync::{Arc, Mutex, PoisonError};

/// A difficulty tier, by the length of the mate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum PuzzleTier {
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

impl From<Tier> for PuzzleTier {
    fn from(t: Tier) -> Self {
        match t {
            Tier::MateIn1 => PuzzleTier::MateIn1,
            Tier::MateIn2 => PuzzleTier::MateIn2,
            Tier::MateIn3 => PuzzleTier::MateIn3,
            Tier::MateIn4To5 => PuzzleTier::MateIn4To5,
            Tier::MateIn6Plus => PuzzleTier::MateIn6Plus,
        }
    }
}

impl From<PuzzleTier> for Tier {
    fn from(t: PuzzleTier) -> Self {
        match t {
            PuzzleTier::MateIn1 => Tier::MateIn1,
            PuzzleTier::MateIn2 => Tier::MateIn2,
            PuzzleTier::MateIn3 => Tier::MateIn3,
            PuzzleTier::MateIn4To5 => Tier::MateIn4To5,
            PuzzleTier::MateIn6Plus => Tier::MateIn6Plus,
        }
    }
}

/// A tier of the collection.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct PuzzleTierInfo {
    /// The tier.
    pub tier: PuzzleTier,
    /// Its name to show (`mate in 4–5`).
    pub name: String,
    /// Puzzles in it.
    pub count: u32,
}

/// One puzzle of the collection.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct CollectionPuzzle {
    /// Its stable id (progress is kept by it).
    pub id: String,
    /// Where the position comes from.
    pub source: String,
    /// Its tier.
    pub tier: PuzzleTier,
    /// What [`VsComputer::puzzle`](crate::VsComputer::puzzle) plays.
    pub puzzle: Puzzle,
    /// The proven main line in coordinates (the defender resisting longest): the answer.
    pub solution: Vec<String>,
}

fn of_entry(e: &Entry) -> CollectionPuzzle {
    CollectionPuzzle {
        id: e.id.clone(),
        source: e.source.clone(),
        tier: e.tier().into(),
        puzzle: Puzzle {
            name: e.puzzle.name.clone(),
            kind: GameKind::from(e.puzzle.kind),
            fen: e.puzzle.fen.clone(),
            mate_in: e.puzzle.mate_in,
        },
        solution: e.line.clone(),
    }
}

/// The tiers of the xiangqi collection, easiest first, with their sizes.
#[uniffi::export]
pub fn puzzle_tiers() -> Vec<PuzzleTierInfo> {
    puzzle_tiers_of(GameKind::Xiangqi)
}

/// The games with a puzzle collection (xiangqi, chess), for a puzzle screen's list of
/// games: no shell writes it.
#[uniffi::export]
pub fn puzzle_games() -> Vec<GameKind> {
    pc::games().into_iter().map(Into::into).collect()
}

/// The tiers of `kind`'s collection that hold puzzles, easiest first, with their sizes
/// (chess: mates in 1 to 3; none for jieqi and Lines).
#[uniffi::export]
pub fn puzzle_tiers_of(kind: GameKind) -> Vec<PuzzleTierInfo> {
    let all = pc::of_game(kind.into());
    Tier::ALL
        .iter()
        .map(|&t| PuzzleTierInfo {
            tier: t.into(),
            name: t.name().to_owned(),
            count: u32::try_from(all.iter().filter(|e| e.tier() == t).count()).unwrap_or(u32::MAX),
        })
        .filter(|t| t.count > 0)
        .collect()
}

/// The xiangqi puzzles of a tier (every puzzle when `tier` is null/nil), easiest first.
#[uniffi::export]
pub fn collection_puzzles(tier: Option<PuzzleTier>) -> Vec<CollectionPuzzle> {
    collection_puzzles_of(GameKind::Xiangqi, tier)
}

/// The puzzles of `kind`'s collection of a tier (all when `tier` is null/nil), easiest first.
#[uniffi::export]
pub fn collection_puzzles_of(kind: GameKind, tier: Option<PuzzleTier>) -> Vec<CollectionPuzzle> {
    pc::of_game(kind.into())
        .iter()
        .filter(|e| tier.is_none_or(|t| e.tier() == Tier::from(t)))
        .map(of_entry)
        .collect()
}

/// The puzzle with this id.
#[uniffi::export]
pub fn collection_puzzle(id: String) -> Option<CollectionPuzzle> {
    pc::find(&id).map(of_entry)
}

/// What one puzzle took.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct PuzzleRecord {
    /// Solved at least once.
    pub solved: bool,
    /// Tries started.
    pub attempts: u32,
    /// Hints asked for.
    pub hints: u32,
}

/// Solved and total puzzles of a tier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct TierProgress {
    /// The tier.
    pub tier: PuzzleTier,
    /// Puzzles solved.
    pub solved: u32,
    /// Puzzles in the tier.
    pub total: u32,
}

impl From<ProgressError> for BancoError {
    fn from(e: ProgressError) -> Self {
        match e {
            ProgressError::NewerVersion(_) => BancoError::NewerSave(e.to_string()),
            _ => BancoError::BadSave(e.to_string()),
        }
    }
}

/// The player's progress through the collection — per puzzle: solved, tries, hints — kept
/// in the shell's [`PuzzleStore`] ([`PuzzleProgress::open`]): one
/// record shared with the puzzle being tried
/// ([`VsComputer::try_puzzle`](crate::VsComputer::try_puzzle)), which updates it.
#[derive(uniffi::Object)]
pub struct PuzzleProgress {
    shared: Arc<SharedProgress>,
    /// Why the stored record could not be read, until the shell takes it.
    notice: Mutex<Option<PuzzleNotice>>,
}

impl PuzzleProgress {
    fn of(shared: Arc<SharedProgress>, notice: Option<PuzzleNotice>) -> Arc<PuzzleProgress> {
        Arc::new(PuzzleProgress {
            shared,
            notice: Mutex::new(notice),
        })
    }

    /// The record a try writes into.
    pub(crate) fn shared(&self) -> Arc<SharedProgress> {
        Arc::clone(&self.shared)
    }

    fn read<R>(&self, f: impl FnOnce(&Progress) -> R) -> R {
        self.shared.read(f)
    }
}

#[uniffi::export]
impl PuzzleProgress {
    /// No puzzle tried yet, kept nowhere (tests, a guest).
    #[uniffi::constructor]
    pub fn new() -> Arc<PuzzleProgress> {
        PuzzleProgress::of(SharedProgress::new(Progress::default(), None), None)
    }

    /// The record kept in the shell's key-value `store` at `key` (Base64), written back
    /// after every change — the shells' record, read and written by Rust: text that does
    /// not read whole is first copied aside at `KEY.damaged` (banco-app's `kept` policy),
    /// a newer Banco's record is never written over, and [`PuzzleProgress::take_notice`]
    /// says why. Never fails: a store that throws opens the record afresh without it.
    #[uniffi::constructor]
    pub fn open_kept(store: Arc<dyn crate::KeptStore>, key: String) -> Arc<PuzzleProgress> {
        let opened = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            banco_app::kept::open_progress(crate::kept::relay(store), &key)
        }));
        let (shared, damage) = opened.unwrap_or_else(|payload| {
            let why = format!(
                "the app's store failed: {}",
                crate::error::panic_message(payload.as_ref())
            );
            (
                SharedProgress::new(Progress::default(), None),
                Some(ProgressError::Unreadable(why)),
            )
        });
        let notice = damage.map(|e| PuzzleNotice::RecordDamaged { why: e.to_string() });
        PuzzleProgress::of(shared, notice)
    }

    /// The record kept in the shell's `store`, written back after every change. Never
    /// fails: a damaged record starts afresh and [`PuzzleProgress::take_notice`] says so.
    #[uniffi::constructor]
    pub fn open(store: Arc<dyn PuzzleStore>) -> Arc<PuzzleProgress> {
        let (shared, damage) = SharedProgress::open(Arc::new(StoreRelay(store)));
        let notice = damage.map(|e| PuzzleNotice::RecordDamaged { why: e.to_string() });
        PuzzleProgress::of(shared, notice)
    }

    /// The progress saved by [`PuzzleProgress::save`], kept nowhere.
    #[uniffi::constructor]
    pub fn load(bytes: Vec<u8>) -> Result<Arc<PuzzleProgress>, BancoError> {
        guard(|| {
            let record = Progress::decode(&bytes)?;
            Ok(PuzzleProgress::of(SharedProgress::new(record, None), None))
        })
    }

    /// The progress as bytes (to export it; [`PuzzleProgress::open`] stores it by itself).
    pub fn save(&self) -> Result<Vec<u8>, BancoError> {
        guard(|| Ok(self.read(Progress::encode)?))
    }

    /// A notice to show once ([`PuzzleNotice::RecordDamaged`]), taken: the next call
    /// answers null/nil.
    pub fn take_notice(&self) -> Option<PuzzleNotice> {
        self.notice
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }

    /// True if puzzle `id` was solved.
    pub fn is_solved(&self, id: String) -> Result<bool, BancoError> {
        guard(|| Ok(self.read(|p| p.is_solved(&id))))
    }

    /// What puzzle `id` took (all zero if never tried).
    pub fn record(&self, id: String) -> Result<PuzzleRecord, BancoError> {
        guard(|| {
            let r = self.read(|p| p.record(&id)).unwrap_or_default();
            Ok(PuzzleRecord {
                solved: r.solved,
                attempts: r.attempts,
                hints: r.hints,
            })
        })
    }

    /// Solved and total puzzles of every tier of the xiangqi collection, easiest first.
    pub fn tiers(&self) -> Result<Vec<TierProgress>, BancoError> {
        self.tiers_of(GameKind::Xiangqi)
    }

    /// Solved and total puzzles of every tier of `kind`'s collection that holds puzzles.
    pub fn tiers_of(&self, kind: GameKind) -> Result<Vec<TierProgress>, BancoError> {
        guard(|| {
            let all = pc::of_game(kind.into());
            Ok(self.read(|p| {
                Tier::ALL
                    .iter()
                    .filter(|&&t| all.iter().any(|e| e.tier() == t))
                    .map(|&t| {
                        let (solved, total) = p.tier_count(all, t);
                        TierProgress {
                            tier: t.into(),
                            solved: u32::try_from(solved).unwrap_or(u32::MAX),
                            total: u32::try_from(total).unwrap_or(u32::MAX),
                        }
                    })
                    .collect()
            }))
        })
    }

    /// The first xiangqi puzzle not solved yet, easiest first (none when all are solved).
    pub fn next_unsolved(&self) -> Result<Option<CollectionPuzzle>, BancoError> {
        self.next_unsolved_of(GameKind::Xiangqi)
    }

    /// The first puzzle of `kind`'s collection not solved yet, easiest first.
    pub fn next_unsolved_of(&self, kind: GameKind) -> Result<Option<CollectionPuzzle>, BancoError> {
        guard(|| Ok(self.read(|p| p.next_unsolved(pc::of_game(kind.into())).map(of_entry))))
    }
}
