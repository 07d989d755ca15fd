//! The engine on [`DiceRace`], banco-game's tiny race with a die: a whole game plugged
//! into the engine in one small file ([`DiceNode`] for the search, [`EngineGame`] for the
//! rest), and the test bed of the chance nodes — rolling is a chance step, so the search
//! must weigh the die's outcomes.
//!
//! ```
//! use banco_engine::{Limits, Searcher, bench, toy::DiceNode};
//! use banco_game::toy::{DiceMove, DiceRace};
//! use banco_game::{Color, Game};
//! use std::sync::atomic::AtomicBool;
//! // Red needs 2 squares, Black only 1: stepping cannot win in time, rolling may (2 or 3
//! // with probability 2/3).
//! let game = DiceRace::from_state(5, 3, 4, Color::Red);
//! let mut searcher = Searcher::<DiceNode>::new(1);
//! let r = searcher.search(&game, &Default::default(), &Limits::depth(6), &AtomicBool::new(false), |_| {});
//! assert_eq!(r.best_move, Some(DiceMove::Roll));
//! // The whole bench of the game, as `banco bench` runs xiangqi's.
//! assert!(bench::run::<DiceRace>().nodes > 0);
//! ```

use crate::chance::CHANCE_CAP;
use crate::engine_game::EngineGame;
use crate::error::EngineError;
use crate::searchable::{Repetition, SearchGame, Verdict};
use banco_game::toy::{DiceMove, DiceRace, DiceRules, DiceUndo, FACES};
use banco_game::{ChanceList, Color, Game, MoveList};
use core::fmt;
use std::sync::Arc;

/// An exact evaluation of an unfinished [`DiceRace`] position for the side to move,
/// replacing the heuristic (tests compare the search with a solved race through it).
pub type DiceOracle = Arc<dyn Fn(&DiceRace) -> i32 + Send + Sync>;

/// Evaluation weights of [`DiceNode`].
#[derive(Clone)]
pub struct DiceParams {
    /// Centipawns per square of lead.
    pub per_square: i32,
    /// An evaluation to use instead of the lead, if any.
    pub oracle: Option<DiceOracle>,
}

impl Default for DiceParams {
    fn default() -> Self {
        DiceParams {
            per_square: 100,
            oracle: None,
        }
    }
}

impl fmt::Debug for DiceParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DiceParams")
            .field("per_square", &self.per_square)
            .field("oracle", &self.oracle.is_some())
            .finish()
    }
}

/// A [`DiceRace`] for the search: the race itself (its state is its whole history: there
/// are no repetition rules) and the weights.
#[derive(Clone, Debug)]
pub struct DiceNode {
    race: DiceRace,
    params: DiceParams,
}

impl DiceNode {
    /// The race.
    #[must_use]
    pub fn race(&self) -> &DiceRace {
        &self.race
    }
}

impl SearchGame for DiceNode {
    type Game = DiceRace;
    type Move = DiceMove;
    type Undo = DiceUndo;
    type NullUndo = ();
    type Params = DiceParams;
    const MOVE_INDEX_SIZE: usize = 8;

    fn from_game(game: &DiceRace, _rules: &DiceRules, params: &DiceParams) -> DiceNode {
        DiceNode {
            race: *game,
            params: params.clone(),
        }
    }

    fn side_to_move(&self) -> Color {
        self.race.side_to_move()
    }

    fn hash(&self) -> u64 {
        self.race.hash()
    }

    fn in_check(&self) -> bool {
        false
    }

    fn legal_moves(&self, out: &mut MoveList<DiceMove>) {
        self.race.legal_moves(out);
    }

    fn no_move_verdict(&self, _in_check: bool) -> Verdict {
        Verdict::of_outcome(self.race.no_move_outcome(), self.race.side_to_move())
    }

    fn awaits_chance(&self) -> bool {
        self.race.awaits_chance()
    }

    fn chance_outcomes(&self, out: &mut ChanceList<DiceMove>) {
        self.race.chance_outcomes(out);
    }

    fn legal_captures(&self, out: &mut MoveList<DiceMove>) {
        out.clear();
    }

    fn is_legal(&self, mv: DiceMove) -> bool {
        self.race.is_legal(mv)
    }

    fn make(&mut self, mv: DiceMove) -> DiceUndo {
        self.race.make_unchecked(mv)
    }

    fn unmake(&mut self, mv: DiceMove, undo: DiceUndo) {
        self.race.unmake(mv, undo);
    }

    /// Never called: without big pieces the search makes no null move.
    fn make_null(&mut self) {}

    fn unmake_null(&mut self, _undo: ()) {}

    /// A finished race (quiescence evaluates without looking for moves) is a sure loss for
    /// the side to move; otherwise the oracle, or the lead.
    fn evaluate(&self) -> i32 {
        if self.race.outcome(&DiceRules).is_some() {
            return -CHANCE_CAP;
        }
        if let Some(oracle) = &self.params.oracle {
            return oracle(&self.race);
        }
        let me = self.race.side_to_move();
        let lead = i32::from(self.race.square(me)) - i32::from(self.race.square(me.other()));
        lead * self.params.per_square
    }

    fn capture_key(&self, _mv: DiceMove) -> Option<i32> {
        None
    }

    fn capture_value(&self, _mv: DiceMove) -> i32 {
        0
    }

    fn see_ok(&self, _mv: DiceMove) -> bool {
        true
    }

    /// `Step` is the default move and a real one: "no move" is a face the die does not
    /// have.
    fn no_move() -> DiceMove {
        DiceMove::Rolled(u8::MAX)
    }

    fn tt_code(mv: DiceMove) -> u16 {
        match mv {
            DiceMove::Step => 1,
            DiceMove::Roll => 2,
            DiceMove::Rolled(k) => 16 + u16::from(k),
        }
    }

    fn from_tt_code(code: u16) -> Option<DiceMove> {
        match code {
            1 => Some(DiceMove::Step),
            2 => Some(DiceMove::Roll),
            16..=19 => Some(DiceMove::Rolled((code - 16) as u8)),
            _ => None,
        }
    }

    fn move_index(mv: DiceMove) -> usize {
        match mv {
            DiceMove::Step => 0,
            DiceMove::Roll => 1,
            DiceMove::Rolled(k) => 2 + usize::from(k.min(5)),
        }
    }

    fn repetition(&mut self) -> Option<Repetition> {
        None
    }

    fn rule_draw(&self) -> bool {
        false
    }

    fn has_big_pieces(&self) -> bool {
        false
    }
}

impl EngineGame for DiceRace {
    type Node = DiceNode;

    const NAME: &'static str = "dice-race";
    const BENCH_POSITIONS: &'static [&'static str] = &["8 0 0 r", "8 5 3 b", "12 4 7 r"];
    const BENCH_DEPTH: u32 = 8;
    const OPENINGS: &'static [(&'static str, &'static str)] =
        &[("start", ""), ("one step each", "step step")];
    const RULE_NAMES: &'static [&'static str] = &["standard"];

    fn start() -> DiceRace {
        DiceRace::new(8)
    }

    /// `TARGET RED BLACK SIDE`, e.g. `8 0 0 r` (side `r` or `b`).
    fn from_fen(fen: &str) -> Result<DiceRace, EngineError> {
        let bad = |why: &str| EngineError::BadPosition(format!("`{fen}`: {why}"));
        let f: Vec<&str> = fen.split_whitespace().collect();
        let [target, red, black, side] = f.as_slice() else {
            return Err(bad("expected `TARGET RED BLACK SIDE`"));
        };
        let num = |t: &str| {
            t.parse::<u8>()
                .map_err(|_| bad(&format!("`{t}` is not a square")))
        };
        let side = match *side {
            "r" => Color::Red,
            "b" => Color::Black,
            _ => return Err(bad("the side is `r` or `b`")),
        };
        Ok(DiceRace::from_state(
            num(target)?,
            num(red)?,
            num(black)?,
            side,
        ))
    }

    /// `step`, `roll`, or a die's face `d0`, `d2`, `d3`.
    fn parse_move(&self, text: &str) -> Result<DiceMove, EngineError> {
        let mv = match text {
            "step" => DiceMove::Step,
            "roll" => DiceMove::Roll,
            _ => match text.strip_prefix('d').and_then(|k| k.parse::<u8>().ok()) {
                Some(k) if FACES.contains(&k) => DiceMove::Rolled(k),
                _ => return Err(EngineError::BadMove(format!("`{text}` is not a move"))),
            },
        };
        if self.is_legal(mv) {
            Ok(mv)
        } else {
            Err(EngineError::BadMove(format!("{text} is not possible here")))
        }
    }

    fn move_text(&self, mv: DiceMove) -> String {
        match mv {
            DiceMove::Step => "step".to_owned(),
            DiceMove::Roll => "roll".to_owned(),
            DiceMove::Rolled(k) => format!("d{k}"),
        }
    }

    fn rules_named(name: &str) -> Option<DiceRules> {
        name.eq_ignore_ascii_case("standard").then_some(DiceRules)
    }

    fn plain_params() -> DiceParams {
        DiceParams::default()
    }
}
