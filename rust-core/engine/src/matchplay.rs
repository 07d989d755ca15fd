//! Engine-versus-engine matches for any game ([`EngineGame`]): pairs of games from the
//! game's balanced openings ([`EngineGame::OPENINGS`]) with colours swapped, a W/D/L count
//! for player A and the Elo difference with its 95 % error bar and interval. `banco match`
//! uses it to tune weights, to grade the levels and to measure the engine against the plain
//! alpha-beta baseline. Chance steps are drawn from a generator seeded by the match seed,
//! so a match limited by nodes is repeatable.
//!
//! ```
//! use banco_engine::matchplay::{self, MatchOptions, PlayerSpec};
//! use banco_xiangqi::Xiangqi;
//! let a: PlayerSpec<Xiangqi> = "level=4,nodes=3000".parse().unwrap();
//! let b: PlayerSpec<Xiangqi> = "level=1".parse().unwrap();
//! let options = MatchOptions { games: 2, max_plies: 60, ..MatchOptions::default() };
//! let report = matchplay::run(&a, &b, &options, |_| {});
//! assert_eq!(report.games(), 2);
//! assert!(report.summary().contains("elo"));
//! ```
//!
//! A spec is a comma-separated list: `level=N` (1–10, default 10), `plain` (the plain
//! alpha-beta baseline), `nodes=N` and `depth=N` (caps per move), `hash=MIB`, `off=NAME+NAME`
//! and `on=NAME+NAME` (search features switched off or on, [`features`](crate::features)), and the
//! game's evaluation variants for tuning ([`EngineGame::tune`]; xiangqi:
//! `eval=material`, `pst=PERCENT`, `mobility=PERCENT`, `safety=PERCENT`,
//! `cannon=PERCENT`, `pawns=PERCENT`).

use crate::engine_game::{EngineGame, ParamsOf};
use crate::error::EngineError;
use crate::features::Features;
use crate::level::{self, Level, Rng};
use crate::limits::Limits;
use crate::plain;
use crate::search::Searcher;
use crate::searchable::SearchGame;
use banco_game::{ChanceList, Color, Outcome};
use core::fmt;
use core::str::FromStr;
use std::sync::atomic::AtomicBool;

/// Who plays.
pub struct PlayerSpec<G: EngineGame> {
    /// The text it was read from.
    pub name: String,
    /// The plain alpha-beta baseline instead of the engine.
    pub plain: bool,
    /// Playing level of the engine.
    pub level: Level,
    /// Node cap per move.
    pub nodes: Option<u64>,
    /// Depth cap per move.
    pub depth: Option<u32>,
    /// Table size in MiB.
    pub hash_mib: usize,
    /// Evaluation weights.
    pub params: ParamsOf<G>,
    /// Search features ([`features`](crate::features); `off=NAME+NAME` switches some off).
    pub features: Features,
}

impl<G: EngineGame> Clone for PlayerSpec<G> {
    fn clone(&self) -> Self {
        PlayerSpec {
            name: self.name.clone(),
            plain: self.plain,
            level: self.level,
            nodes: self.nodes,
            depth: self.depth,
            hash_mib: self.hash_mib,
            params: self.params.clone(),
            features: self.features,
        }
    }
}

impl<G: EngineGame> fmt::Debug for PlayerSpec<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PlayerSpec")
            .field("name", &self.name)
            .field("plain", &self.plain)
            .field("level", &self.level)
            .field("nodes", &self.nodes)
            .field("depth", &self.depth)
            .field("hash_mib", &self.hash_mib)
            .field("params", &self.params)
            .field("features", &self.features)
            .finish()
    }
}

impl<G: EngineGame> FromStr for PlayerSpec<G> {
    type Err = EngineError;
    fn from_str(text: &str) -> Result<PlayerSpec<G>, EngineError> {
        let bad = |reason: &str| EngineError::BadSpec {
            spec: text.to_owned(),
            reason: reason.to_owned(),
        };
        let mut spec = PlayerSpec {
            name: text.to_owned(),
            plain: false,
            level: Level::MAX,
            nodes: None,
            depth: None,
            hash_mib: 16,
            params: ParamsOf::<G>::default(),
            features: Features::DEFAULT,
        };
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part.split_once('=').unwrap_or((part, ""));
            let num = || {
                value
                    .parse::<i64>()
                    .map_err(|_| bad(&format!("`{value}` is not a number")))
            };
            let key = key.to_ascii_lowercase();
            match key.as_str() {
                "plain" | "alphabeta" => spec.plain = true,
                "level" | "l" => {
                    spec.level = Level::new(u8::try_from(num()?).unwrap_or(0))
                        .map_err(|e| bad(&e.to_string()))?;
                }
                "nodes" => {
                    spec.nodes =
                        Some(u64::try_from(num()?).map_err(|_| bad("nodes must be positive"))?);
                }
                "depth" => {
                    spec.depth =
                        Some(u32::try_from(num()?).map_err(|_| bad("depth must be positive"))?);
                }
                "off" => {
                    spec.features = spec
                        .features
                        .without(value)
                        .map_err(|e| bad(&e.to_string()))?;
                }
                "on" => {
                    spec.features = spec.features.with(value).map_err(|e| bad(&e.to_string()))?;
                }
                "hash" => {
                    spec.hash_mib = usize::try_from(num()?)
                        .map_err(|_| bad("hash must be positive"))?
                        .clamp(1, 4096);
                }
                other => {
                    if let Ok(n) = other.trim_start_matches('l').parse::<u8>() {
                        spec.level = Level::new(n).map_err(|e| bad(&e.to_string()))?;
                    } else {
                        G::tune(&mut spec.params, other, value).map_err(|e| bad(&e.to_string()))?;
                    }
                }
            }
        }
        Ok(spec)
    }
}

/// How a match is played, under rules of type `R` (the game's rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchOptions<R> {
    /// Number of games (pairs over the openings, colours swapped).
    pub games: u32,
    /// Time per move in milliseconds (`None`: the players' node and depth caps, or 20,000
    /// nodes for a player without caps — deterministic).
    pub movetime_ms: Option<u64>,
    /// Games still going after this many plies are adjudicated on material.
    pub max_plies: u32,
    /// Seed of the levels' choices, of the chance steps and of the random openings.
    pub seed: u64,
    /// Random moves played after the book opening, the same for both games of a pair
    /// (drawn from the seed and the pair's number; a line whose short search, 1,000
    /// nodes, gives the side to move more than ±1.5 pawns is drawn again, up to 16
    /// times). With 0 there are as many distinct games as twice the openings, so a
    /// deterministic match longer than that repeats itself; a few random plies make every
    /// pair new.
    pub random_plies: u32,
    /// Rules.
    pub rules: R,
}

impl<R: Default> Default for MatchOptions<R> {
    fn default() -> Self {
        MatchOptions {
            games: 20,
            movetime_ms: None,
            max_plies: 300,
            seed: 1,
            random_plies: 0,
            rules: R::default(),
        }
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Game number from 0.
    pub index: u32,
    /// Opening name.
    pub opening: &'static str,
    /// True if A had the first move (Red in xiangqi, White in chess).
    pub a_first: bool,
    /// The result (adjudicated games are drawn or won "by material").
    pub outcome: Option<Outcome>,
    /// Score of A: 1, ½ or 0.
    pub a_score: f64,
    /// Plies played.
    pub plies: u32,
    /// How it ended, in words.
    pub reason: String,
}

/// The result of a match, from A's side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchReport {
    /// Games A won.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Games A lost.
    pub losses: u32,
}

impl MatchReport {
    /// Games played.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// A's score fraction.
    #[must_use]
    pub fn score(&self) -> f64 {
        let n = self.games().max(1);
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(n)
    }

    /// Elo difference A − B and its 95 % error bar: half the width of
    /// [`MatchReport::elo_interval`] with the scores clamped half a game from 0 and 1, so a
    /// one-sided result (all wins, say) gets a finite point and bar (12-0-0: +545 ± 90);
    /// the interval tells the truth about such a result.
    #[must_use]
    pub fn elo(&self) -> (f64, f64) {
        let n = f64::from(self.games().max(1));
        let elo_of = |s: f64| elo_of_score(s.clamp(0.5 / n, 1.0 - 0.5 / n));
        let (s, se) = (self.score(), self.score_error());
        let e = elo_of(s);
        let err = (elo_of(s + 1.96 * se) - elo_of(s - 1.96 * se)) / 2.0;
        (e, err)
    }

    /// The 95 % confidence interval of the Elo difference A − B, unclamped: a bound whose
    /// score passes 0 or 1 is infinite (12-0-0: from +365 to +∞).
    #[must_use]
    pub fn elo_interval(&self) -> (f64, f64) {
        let (s, se) = (self.score(), self.score_error());
        (elo_of_score(s - 1.96 * se), elo_of_score(s + 1.96 * se))
    }

    /// The standard error of the score fraction (trinomial). With one result only (all
    /// wins, say) the sample variance is 0; the variance of a score shrunk by half a game
    /// towards a draw stands in for it.
    fn score_error(&self) -> f64 {
        let n = f64::from(self.games().max(1));
        let s = self.score();
        let var = (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n;
        let shrunk = (s * n + 0.5) / (n + 1.0);
        let var = if var > 0.0 {
            var
        } else {
            shrunk * (1.0 - shrunk)
        };
        (var / n).sqrt()
    }

    /// The counts, the score, the Elo difference with its error bar ([`MatchReport::elo`])
    /// and the 95 % interval ([`MatchReport::elo_interval`]; `+inf` or `-inf` for a bound
    /// that a one-sided score does not fix).
    ///
    /// ```
    /// use banco_engine::matchplay::MatchReport;
    /// let r = MatchReport { wins: 12, draws: 5, losses: 3 };
    /// assert_eq!(r.summary(), "W 12 D 5 L 3 score 0.725 elo +168 +/- 157 [+44, +358]");
    /// let sweep = MatchReport { wins: 12, draws: 0, losses: 0 };
    /// assert_eq!(sweep.summary(), "W 12 D 0 L 0 score 1.000 elo +545 +/- 90 [+365, +inf]");
    /// ```
    #[must_use]
    pub fn summary(&self) -> String {
        let (e, err) = self.elo();
        let (lo, hi) = self.elo_interval();
        format!(
            "W {} D {} L {} score {:.3} elo {:+.0} +/- {:.0} [{lo:+.0}, {hi:+.0}]",
            self.wins,
            self.draws,
            self.losses,
            self.score(),
            e,
            err
        )
    }
}

/// The Elo difference of a score fraction: −∞ at 0 and below, +∞ at 1 and above.
fn elo_of_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// A player during one game.
struct Player<G: EngineGame> {
    spec: PlayerSpec<G>,
    searcher: Searcher<G::Node>,
}

impl<G: EngineGame> Player<G> {
    fn new(spec: &PlayerSpec<G>) -> Player<G> {
        let mut searcher = Searcher::with_params(spec.hash_mib, spec.params.clone());
        searcher.set_features(spec.features);
        Player {
            searcher,
            spec: spec.clone(),
        }
    }

    fn limits(&self, movetime_ms: Option<u64>) -> Limits {
        let mut l = movetime_ms.map_or_else(Limits::default, Limits::movetime);
        l.nodes = self.spec.nodes;
        l.depth = self.spec.depth;
        let capped = self.spec.level < Level::MAX || l.nodes.is_some() || l.depth.is_some();
        if movetime_ms.is_none() && !capped {
            l.nodes = Some(20_000);
        }
        l
    }

    fn choose(&mut self, game: &G, options: &MatchOptions<G::Rules>, seed: u64) -> Option<G::Move> {
        let limits = self.limits(options.movetime_ms);
        let stop = AtomicBool::new(false);
        if self.spec.plain {
            return plain::search(game, &options.rules, &limits, &stop).best_move;
        }
        level::play(
            &mut self.searcher,
            game,
            &options.rules,
            self.spec.level,
            &limits,
            seed,
            &stop,
        )
        .best_move
    }
}

/// Plays one game from `opening`; returns the record from A's side.
fn play_game<G: EngineGame>(
    a: &PlayerSpec<G>,
    b: &PlayerSpec<G>,
    index: u32,
    options: &MatchOptions<G::Rules>,
) -> GameRecord {
    let (name, line) = G::OPENINGS
        .get((index / 2) as usize % G::OPENINGS.len().max(1))
        .copied()
        .unwrap_or(("start position", ""));
    let a_first = index.is_multiple_of(2);
    let mut game = opening::<G>(line, index / 2, options);
    let mut players = if a_first {
        [Player::new(a), Player::new(b)]
    } else {
        [Player::new(b), Player::new(a)]
    };
    let a_color = if a_first { Color::Red } else { Color::Black };
    let seed = options
        .seed
        .wrapping_mul(0x2545_F491_4F6C_DD1D)
        .wrapping_add(u64::from(index));
    let mut luck = Rng::new(seed ^ 0x0123_4567_89AB_CDEF);
    let record =
        |outcome: Option<Outcome>, winner: Option<Color>, plies: u32, reason: String| GameRecord {
            index,
            opening: name,
            a_first,
            outcome,
            a_score: match winner {
                Some(c) if c == a_color => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            },
            plies,
            reason,
        };
    let mut outcomes = ChanceList::new();
    loop {
        if game.awaits_chance() {
            game.chance_outcomes(&mut outcomes);
            let ticket = luck.next_u64() % outcomes.total_weight().max(1);
            let drawn = outcomes.pick(ticket).filter(|&o| game.play(o).is_ok());
            if drawn.is_none() {
                return record(None, None, game.ply(), "no chance outcome".to_owned());
            }
            continue;
        }
        if let Some(o) = game.outcome(&options.rules) {
            return record(Some(o), o.winner(), game.ply(), o.to_string());
        }
        if game.ply() >= options.max_plies {
            let v = material(&game, &options.rules);
            let winner = if v >= 300 {
                Some(Color::Red)
            } else if v <= -300 {
                Some(Color::Black)
            } else {
                None
            };
            return record(
                None,
                winner,
                game.ply(),
                format!("adjudicated on material ({v:+})"),
            );
        }
        let side = game.side_to_move().index();
        let Some(mv) = players[side].choose(&game, options, seed ^ u64::from(game.ply())) else {
            return record(
                None,
                Some(game.side_to_move().other()),
                game.ply(),
                "no move".to_owned(),
            );
        };
        let text = game.move_text(mv);
        if game.play(mv).is_err() {
            return record(
                None,
                Some(game.side_to_move().other()),
                game.ply(),
                format!("illegal move {text}"),
            );
        }
    }
}

/// The start of pair `pair`: the book `line`, then `options.random_plies` random moves
/// (see [`MatchOptions::random_plies`]).
fn opening<G: EngineGame>(line: &str, pair: u32, options: &MatchOptions<G::Rules>) -> G {
    let mut book = G::start();
    for text in line.split_whitespace() {
        if let Ok(mv) = book.parse_move(text) {
            let _ = book.play(mv);
        }
    }
    if options.random_plies == 0 {
        return book;
    }
    let mut rng = Rng::new(
        options
            .seed
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(u64::from(pair) ^ 0x5EED),
    );
    let mut searcher = Searcher::<G::Node>::new(1);
    let stop = AtomicBool::new(false);
    let mut fallback = None;
    for _ in 0..16 {
        let mut game = book.clone();
        let mut moves = banco_game::MoveList::new();
        for _ in 0..options.random_plies {
            if game.awaits_chance() || game.outcome(&options.rules).is_some() {
                break;
            }
            game.legal_moves(&mut moves);
            let n = moves.len() as u64;
            let Some(&mv) = moves.as_slice().get((rng.next_u64() % n.max(1)) as usize) else {
                break;
            };
            if game.play(mv).is_err() {
                break;
            }
        }
        if game.outcome(&options.rules).is_some() {
            continue;
        }
        let r = searcher.search(&game, &options.rules, &Limits::nodes(1_000), &stop, |_| {});
        if r.value.abs() <= 150 {
            return game;
        }
        fallback.get_or_insert(game);
    }
    fallback.unwrap_or(book)
}

/// The plain reference evaluation of `game` for the first player (Red, White).
fn material<G: EngineGame>(game: &G, rules: &G::Rules) -> i32 {
    let v = G::Node::from_game(game, rules, &G::plain_params()).evaluate();
    if game.side_to_move() == Color::Red {
        v
    } else {
        -v
    }
}

/// Plays `options.games` games between A and B; `on_game` hears about each.
pub fn run<G: EngineGame>(
    a: &PlayerSpec<G>,
    b: &PlayerSpec<G>,
    options: &MatchOptions<G::Rules>,
    mut on_game: impl FnMut(&GameRecord),
) -> MatchReport {
    let mut report = MatchReport::default();
    for index in 0..options.games {
        let g = play_game(a, b, index, options);
        if g.a_score > 0.75 {
            report.wins += 1;
        } else if g.a_score < 0.25 {
            report.losses += 1;
        } else {
            report.draws += 1;
        }
        on_game(&g);
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_xiangqi::{RuleSet, Xiangqi};

    #[test]
    fn specs() {
        let s: PlayerSpec<Xiangqi> = "level=5,nodes=1000,eval=material".parse().unwrap();
        assert_eq!(s.level.number(), 5);
        assert_eq!(s.nodes, Some(1000));
        assert!(s.params.material_only);
        assert!("plain".parse::<PlayerSpec<Xiangqi>>().unwrap().plain);
        assert!("level=11".parse::<PlayerSpec<Xiangqi>>().is_err());
        assert!("bogus=1".parse::<PlayerSpec<Xiangqi>>().is_err());
        assert_eq!(
            "L3".parse::<PlayerSpec<Xiangqi>>().unwrap().level.number(),
            3
        );
    }

    #[test]
    fn random_openings_differ_by_pair_and_repeat() {
        let options = MatchOptions {
            random_plies: 4,
            ..MatchOptions::default()
        };
        let line = Xiangqi::OPENINGS[0].1;
        let a = opening::<Xiangqi>(line, 0, &options);
        let b = opening::<Xiangqi>(line, 1, &options);
        assert_eq!(a.moves().len(), 8);
        assert_ne!(a.fen(), b.fen());
        assert_eq!(a.fen(), opening::<Xiangqi>(line, 0, &options).fen());
        let none = MatchOptions::<RuleSet>::default();
        assert_eq!(opening::<Xiangqi>(line, 3, &none).moves().len(), 4);
    }

    #[test]
    fn elo_maths() {
        let r = MatchReport {
            wins: 15,
            draws: 0,
            losses: 5,
        };
        let (e, err) = r.elo();
        assert!((e - 190.8).abs() < 1.0, "{e}");
        assert!(err > 50.0 && err < 400.0);
        let even = MatchReport {
            wins: 5,
            draws: 10,
            losses: 5,
        };
        assert!(even.elo().0.abs() < 1e-9);
        let (lo, hi) = even.elo_interval();
        assert!((lo + hi).abs() < 1e-9 && hi > 0.0);
    }

    /// A one-sided score was printed `elo +545 +/- 90`, hiding how far down its lower
    /// bound goes and that it has no upper one: the summary keeps that part (scripts and
    /// docs read it) and adds the 95 % interval.
    #[test]
    fn a_one_sided_score_shows_its_interval() {
        let sweep = MatchReport {
            wins: 12,
            draws: 0,
            losses: 0,
        };
        assert_eq!(
            sweep.summary(),
            "W 12 D 0 L 0 score 1.000 elo +545 +/- 90 [+365, +inf]"
        );
        let lost = MatchReport {
            wins: 0,
            draws: 1,
            losses: 11,
        };
        let (lo, hi) = lost.elo_interval();
        assert!(lo == f64::NEG_INFINITY && hi < -200.0, "{lo} {hi}");
        assert!(lost.summary().ends_with(&format!("[-inf, {hi:+.0}]")));
        // An ordinary score: finite and around the point, wider on the far side.
        let r = MatchReport {
            wins: 15,
            draws: 0,
            losses: 5,
        };
        let (e, _) = r.elo();
        let (lo, hi) = r.elo_interval();
        assert!(lo < e && e < hi && hi - e > e - lo, "{lo} {e} {hi}");
    }
}
