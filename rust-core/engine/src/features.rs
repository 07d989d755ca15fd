//! Search features that can be switched on and off one by one, so that each can be
//! measured against the search without it (`banco match A B` with `off=NAME+NAME` or
//! `on=NAME+NAME` in a spec). [`Features::DEFAULT`] holds the features whose gain was
//! measured (see each field); [`Features::NONE`] is the search before any of them (its
//! bench node count is the signature that search had).
//!
//! ```
//! use banco_engine::features::Features;
//! let f = Features::ALL.without("cont+capture").unwrap();
//! assert!(!f.cont_history && !f.capture_history && f.history_lmr);
//! assert_eq!(Features::ALL.without("all").unwrap(), Features::NONE);
//! assert_eq!(Features::NONE.with("all").unwrap(), Features::ALL);
//! assert!(Features::ALL.without("nonsense").is_err());
//! ```

/// Which of the switchable search features are on. See the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Continuation histories (the moves one and two plies back) in quiet-move ordering
    /// (`cont`).
    pub cont_history: bool,
    /// Capture history in capture ordering (`capture`).
    pub capture_history: bool,
    /// History scores adjust late-move reductions (`hlmr`).
    pub history_lmr: bool,
    /// Correction history: the static evaluation corrected by the search's recent
    /// verdicts on positions sharing a key such as the pawn structure (`corr`).
    pub correction: bool,
    /// Futility pruning: quiet moves skipped at low depth when the static evaluation plus
    /// a margin growing with depth cannot reach alpha (`fut`). Off: +10 ± 30 Elo over 400
    /// games at 2,000 nodes per move, +4 ± 22 over 634 at 10,000: no gain.
    pub futility: bool,
    /// Static-exchange pruning of captures in the main search at low depth: those losing
    /// more than a depth-scaled amount (`see`). Off: −33 ± 30 Elo over 400 games at 2,000
    /// nodes per move (xiangqi's sacrifices on defended squares are often right).
    pub see_pruning: bool,
    /// Static-exchange pruning of quiet moves in the main search at low depth: those that
    /// put a piece where it is lost (`seeq`). Off: with `see`, −38 ± 30 Elo over 400 games
    /// at 2,000 nodes per move.
    pub see_quiets: bool,
    /// Quiescence skips captures by the full static exchange evaluation instead of the
    /// first-sight test (`qsee`). On: +33 ± 29 Elo over 400 games at 2,000 nodes per move,
    /// +22 ± 32 over 300 at 8,000.
    pub qsearch_see: bool,
    /// Singular extensions: the table move is extended when every other move fails well
    /// below its score, with multi-cut and negative extensions (`se`). Off: +3 ± 31 Elo
    /// over 400 games at 2,000 nodes per move, −3 ± 57 over 106 at 10,000: no measured gain.
    pub singular: bool,
    /// ProbCut: a capture whose reduced search beats beta by a margin cuts the node
    /// (`probcut`). Off: −4 ± 30 Elo over 400 games at 2,000 nodes per move, −3 ± 28 over 400 at
    /// 10,000.
    pub probcut: bool,
    /// Check extensions outside principal-variation nodes only for checks that do not
    /// lose material by static exchange (`chkx`); off, every check is extended. Off: −14 ±
    /// 83 Elo over 50 games at 10,000 nodes per move (stopped for time: no trend).
    pub safe_check_ext: bool,
}

impl Features {
    /// Every feature on.
    pub const ALL: Features = Features {
        cont_history: true,
        capture_history: true,
        history_lmr: true,
        correction: true,
        futility: true,
        see_pruning: true,
        see_quiets: true,
        qsearch_see: true,
        singular: true,
        probcut: true,
        safe_check_ext: true,
    };
    /// The features in use unless a caller says otherwise: those whose gain was measured
    /// at fixed nodes against the search without them.
    pub const DEFAULT: Features = Features {
        cont_history: false,
        capture_history: false,
        history_lmr: false,
        correction: true,
        futility: false,
        see_pruning: false,
        see_quiets: false,
        qsearch_see: true,
        singular: false,
        probcut: false,
        safe_check_ext: false,
    };
    /// Every feature off: the search as it was before them.
    pub const NONE: Features = Features {
        cont_history: false,
        capture_history: false,
        history_lmr: false,
        correction: false,
        futility: false,
        see_pruning: false,
        see_quiets: false,
        qsearch_see: false,
        singular: false,
        probcut: false,
        safe_check_ext: false,
    };
    /// The names of the features, as `off=` takes them.
    pub const NAMES: &'static [&'static str] = &[
        "cont", "capture", "hlmr", "corr", "fut", "see", "seeq", "qsee", "se", "probcut", "chkx",
    ];

    fn flag(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "cont" => &mut self.cont_history,
            "capture" => &mut self.capture_history,
            "hlmr" => &mut self.history_lmr,
            "corr" => &mut self.correction,
            "fut" => &mut self.futility,
            "see" => &mut self.see_pruning,
            "seeq" => &mut self.see_quiets,
            "qsee" => &mut self.qsearch_see,
            "se" => &mut self.singular,
            "probcut" => &mut self.probcut,
            "chkx" => &mut self.safe_check_ext,
            _ => return None,
        })
    }
}

impl Default for Features {
    fn default() -> Self {
        Features::DEFAULT
    }
}

/// A search feature name that is not one of [`Features::NAMES`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown search feature `{name}` (known: {known}, all)", known = Features::NAMES.join(", "))]
pub struct UnknownFeature {
    /// The name given.
    pub name: String,
}

impl Features {
    /// These features with those named in `names` (joined by `+`; `all` for every one)
    /// switched to `on`.
    fn switch(mut self, names: &str, on: bool) -> Result<Features, UnknownFeature> {
        for name in names.split('+').map(str::trim).filter(|n| !n.is_empty()) {
            if name.eq_ignore_ascii_case("all") {
                self = if on { Features::ALL } else { Features::NONE };
                continue;
            }
            let flag = self
                .flag(&name.to_ascii_lowercase())
                .ok_or_else(|| UnknownFeature {
                    name: name.to_owned(),
                })?;
            *flag = on;
        }
        Ok(self)
    }

    /// These features with the named ones (`cont+capture`, `all`) switched off.
    pub fn without(self, names: &str) -> Result<Features, UnknownFeature> {
        self.switch(names, false)
    }

    /// These features with the named ones (`cont+capture`, `all`) switched on.
    pub fn with(self, names: &str) -> Result<Features, UnknownFeature> {
        self.switch(names, true)
    }
}
