//! [`VsComputer`]: a game against the computer for the shells (documented on the type).

use crate::error::{BancoError, guard, notify};
use crate::game::{check_square, legal, move_of};
use crate::puzzle_mode::PuzzleStatus;
use crate::types::{
    BoardView, Color, DrawReason, GameKind, Move, Outcome, PieceKind, PlayedMove, Rules, TapResult,
};
use banco_app::any::AnyRules;
use banco_app::computer::{self as ac, Settings};
use banco_app::runner::{Observer, Runner};
use banco_engine::Limits;
use std::sync::{Arc, Mutex, PoisonError};

/// How a game against the computer is set up.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct VsSettings {
    /// The game.
    pub kind: GameKind,
    /// The player's colour.
    pub human: Color,
    /// The computer's level, 1 (beginner) to 10 (full strength); others are refused.
    pub level: u8,
    /// The rules; `null`/`nil` for the game's usual rules.
    pub rules: Option<Rules>,
    /// Longest time the computer thinks per move, in milliseconds (1 to 3,600,000).
    pub movetime_ms: u64,
    /// A set-up start position; `null`/`nil` for the usual start.
    pub fen: Option<String>,
    /// Jieqi: seed of the reveals' draws (tests, reproducible games); `null`/`nil` (the
    /// default) draws them from the system's randomness.
    #[uniffi(default = None)]
    pub chance_seed: Option<u64>,
}

/// A built-in puzzle: the side to move mates in `mate_in` moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct Puzzle {
    /// A short name.
    pub name: String,
    /// The game.
    pub kind: GameKind,
    /// The position; the side to move is the solver.
    pub fen: String,
    /// Mate in at most this many moves.
    pub mate_in: u32,
}

/// Everything a screen shows of a game against the computer.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct VsState {
    /// The game.
    pub kind: GameKind,
    /// The board, ready to draw.
    pub board: BoardView,
    /// The side to move.
    pub side_to_move: Color,
    /// The player's colour.
    pub human: Color,
    /// The computer's level.
    pub level: u8,
    /// The computer is thinking about its move.
    pub thinking: bool,
    /// A hint is being looked for.
    pub hinting: bool,
    /// Undo has something to take back: the player's last move (and the reply), or the
    /// player's resignation or claimed draw.
    pub can_undo: bool,
    /// Taken-back moves can be played again.
    pub can_redo: bool,
    /// The player has moved (or redone a move) since this game was started, resumed or
    /// opened here — not the computer's first move, not the moves a resumed record brought.
    /// Keep the game as "the game to continue" from then on, so that a new game started by
    /// mistake, or a record opened to look at, does not replace it.
    pub player_moved: bool,
    /// The side to move is in check.
    pub in_check: bool,
    /// It is the player's turn and the game goes on.
    pub your_turn: bool,
    /// How the game ended.
    pub outcome: Option<Outcome>,
    /// The end from the player's side ("You won: checkmate").
    pub result: Option<String>,
    /// A draw the player may claim now (chess), with [`VsComputer::claim_draw`].
    pub claimable_draw: Option<DrawReason>,
    /// The player's moves a draw may be claimed with ([`VsComputer::claim_draw_with`]):
    /// each would make the position stand for the third time or complete fifty moves
    /// without a capture or a pawn move (chess; empty when it is not the player's turn).
    /// A screen offers "claim a draw with Ka2" for each (a fifty-move claim fits most
    /// moves: offer it with the move the player makes next).
    pub claimable_with: Vec<ClaimableMove>,
    /// Who claimed the draw that ended the game: the player, or the computer, which claims
    /// when its search finds its position no better than a draw (`null`/`nil` for any
    /// other end, and for a claim in a game continued from a record).
    pub draw_claimed_by: Option<Color>,
    /// The moves so far in the game's main notation (Chinese, SAN).
    pub moves: Vec<String>,
    /// The same moves as the move list shows them, a full move a line, numbered from the
    /// position (`7... Kd8` when the second player moved first in a puzzle or set-up).
    pub move_list: Vec<String>,
    /// The last move (for its sound: check, capture).
    pub last_move: Option<PlayedMove>,
    /// The hint found.
    pub hint: Option<PlayedMove>,
    /// The try, in puzzle mode (see [`PuzzleStatus`]).
    pub puzzle: Option<PuzzleStatus>,
    /// The position as FEN.
    pub fen: String,
}

impl From<&ac::VsState> for VsState {
    fn from(s: &ac::VsState) -> Self {
        VsState {
            kind: s.kind.into(),
            board: BoardView::from(&s.board),
            side_to_move: s.side_to_move.into(),
            human: s.human.into(),
            level: s.level,
            thinking: s.thinking,
            hinting: s.hinting,
            can_undo: s.can_undo,
            can_redo: s.can_redo,
            player_moved: s.player_moved,
            in_check: s.in_check,
            your_turn: s.your_turn,
            outcome: s.outcome.map(Outcome::from),
            result: s.result.clone(),
            claimable_draw: s.claimable_draw.map(DrawReason::from),
            claimable_with: s
                .claimable_with
                .iter()
                .map(|c| ClaimableMove {
                    mv: PlayedMove::from(&c.mv),
                    reason: c.reason.into(),
                })
                .collect(),
            draw_claimed_by: s.draw_claimed_by.map(Color::from),
            moves: s.moves.clone(),
            move_list: s.move_list.clone(),
            last_move: s.last_move.as_ref().map(PlayedMove::from),
            hint: s.hint.as_ref().map(PlayedMove::from),
            puzzle: s.puzzle.as_ref().map(PuzzleStatus::from),
            fen: s.fen.clone(),
        }
    }
}

/// A move of the player's that a draw may be claimed with ([`VsState::claimable_with`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct ClaimableMove {
    /// The move, described as the claim would play it (`played` is what
    /// [`VsComputer::claim_draw_with`] takes).
    pub mv: PlayedMove,
    /// The draw it brings about.
    pub reason: DrawReason,
}

/// Hears every new state of a [`VsComputer`], in order, on a Rust-owned thread: a UI
/// shell hops to its UI thread.
#[uniffi::export(with_foreign)]
pub trait VsListener: Send + Sync {
    /// The game changed (a move, the computer's answer, undo, a hint, the end).
    fn on_state(&self, state: VsState);
}

struct Relay(Arc<dyn VsListener>);

impl Observer for Relay {
    fn changed(&self, state: ac::VsState) {
        let s = VsState::from(&state);
        notify(|| self.0.on_state(s));
    }
}

/// A game against the computer, every rule of it in Rust (banco-app's `VsComputer` with its
/// runner): whose turn it is, the computer's searches on a Rust thread (a late answer to an
/// overtaken search is dropped), undo/redo by whole turns (also while the computer thinks), hints,
/// resignation, claimed draws, puzzles, the record to continue later, and the result from the
/// player's side. The shell draws [`VsState`] and forwards taps; [`VsListener`] hears every new
/// state.
///
/// Safe to use from any thread; dropping it (or [`VsComputer::end`]) stops the computer.
/// The computer's threads hold the listener: a listener that keeps a strong reference to
/// its `VsComputer` makes a cycle that is never dropped (two threads and the engine's table
/// per game). Hold the game weakly from the listener (Swift `weak var`, Kotlin
/// `WeakReference`), or call [`VsComputer::end`] when the screen closes.
#[derive(uniffi::Object)]
pub struct VsComputer {
    runner: Mutex<Option<Runner>>,
}

fn settings_of(s: &VsSettings) -> Result<Settings, BancoError> {
    let kind = s.kind.into();
    if kind == banco_game::GameKind::Lines {
        return Err(crate::error::lines_elsewhere());
    }
    let mut settings = Settings::new(kind, s.human.into(), s.level)?;
    if let Some(r) = s.rules {
        let rules = AnyRules::try_from(r)?;
        if rules.kind() != kind {
            return Err(BancoError::InvalidArgument(format!(
                "those are rules of {}, not of {kind}",
                rules.kind()
            )));
        }
        settings.rules = rules;
    }
    settings.movetime_ms = check_movetime(s.movetime_ms)?;
    settings.fen.clone_from(&s.fen);
    settings.seed = random_seed();
    settings.chance_seed = s.chance_seed;
    Ok(settings)
}

/// A thinking time per move in milliseconds, refused outside 1 ms to 1 hour (never clamped
/// silently).
pub(crate) fn check_movetime(ms: u64) -> Result<u64, BancoError> {
    if (1..=3_600_000).contains(&ms) {
        Ok(ms)
    } else {
        Err(BancoError::InvalidArgument(format!(
            "a thinking time of {ms} ms is out of range (1 ms to 1 hour)"
        )))
    }
}

fn random_seed() -> u64 {
    let mut b = [0u8; 8];
    if getrandom::fill(&mut b).is_err() {
        return 0x5EED;
    }
    u64::from_le_bytes(b)
}

impl VsComputer {
    pub(crate) fn start(vs: ac::VsComputer, listener: Arc<dyn VsListener>) -> Arc<VsComputer> {
        let runner = Runner::new(vs, 16, Limits::default(), Arc::new(Relay(listener)));
        // Level 10 only: the levels below search on one thread (banco_engine::level), so
        // their node caps and moves are the ladder's on every phone.
        runner.set_threads(banco_engine::smp::default_threads());
        Arc::new(VsComputer {
            runner: Mutex::new(Some(runner)),
        })
    }

    pub(crate) fn with<R>(
        &self,
        f: impl FnOnce(&mut ac::VsComputer) -> Result<R, ac::ActionError>,
    ) -> Result<R, BancoError> {
        let guard = self.runner.lock().unwrap_or_else(PoisonError::into_inner);
        let runner = guard
            .as_ref()
            .ok_or_else(|| BancoError::NotAvailable("this game is closed".to_owned()))?;
        Ok(runner.act(f)?)
    }

    fn read<R>(&self, f: impl FnOnce(&ac::VsComputer) -> R) -> Result<R, BancoError> {
        let guard = self.runner.lock().unwrap_or_else(PoisonError::into_inner);
        let runner = guard
            .as_ref()
            .ok_or_else(|| BancoError::NotAvailable("this game is closed".to_owned()))?;
        Ok(runner.read(f))
    }
}

#[uniffi::export]
impl VsComputer {
    /// A new game; `listener` hears its first state at once.
    #[uniffi::constructor]
    pub fn new(
        settings: VsSettings,
        listener: Arc<dyn VsListener>,
    ) -> Result<Arc<VsComputer>, BancoError> {
        guard(|| {
            let vs = ac::VsComputer::new(settings_of(&settings)?)?;
            Ok(VsComputer::start(vs, listener))
        })
    }

    /// Continues a game saved by [`VsComputer::save`] (or any Banco saved game; the
    /// settings give the colour and level when the file does not).
    #[uniffi::constructor]
    pub fn resume(
        saved: Vec<u8>,
        settings: VsSettings,
        listener: Arc<dyn VsListener>,
    ) -> Result<Arc<VsComputer>, BancoError> {
        guard(|| {
            let vs = ac::VsComputer::resume(&saved, &settings_of(&settings)?)?;
            Ok(VsComputer::start(vs, listener))
        })
    }

    /// A puzzle from elsewhere (not recorded): the player mates in time against the computer
    /// at full strength, in puzzle mode ([`PuzzleStatus`]); a collection puzzle is
    /// played with [`VsComputer::try_puzzle`]. `movetime_ms` must be 1 ms to 1 hour
    /// (other times are refused with `InvalidArgument`), but in puzzle mode it does not
    /// limit the computer: see [`PuzzleStatus`] for how long its replies take.
    #[uniffi::constructor]
    pub fn puzzle(
        puzzle: Puzzle,
        movetime_ms: u64,
        listener: Arc<dyn VsListener>,
    ) -> Result<Arc<VsComputer>, BancoError> {
        guard(|| {
            if puzzle.kind == GameKind::Lines {
                return Err(crate::error::lines_elsewhere());
            }
            let p = banco_app::puzzles::Puzzle {
                name: puzzle.name,
                kind: puzzle.kind.into(),
                fen: puzzle.fen,
                mate_in: puzzle.mate_in,
            };
            let vs = ac::VsComputer::puzzle(&p, check_movetime(movetime_ms)?)?;
            Ok(VsComputer::start(vs, listener))
        })
    }

    /// The state now.
    pub fn state(&self) -> Result<VsState, BancoError> {
        guard(|| self.read(|vs| VsState::from(&vs.state())))
    }

    /// A tap on a screen cell (column from the left, row from the top).
    pub fn tap(&self, column: u8, row: u8) -> Result<TapResult, BancoError> {
        guard(|| {
            self.with(|vs| {
                let before = vs.game().clone();
                vs.tap(column, row).map(|t| TapResult::of(&t, &before))
            })
        })
    }

    /// The promotion piece, after a tap answered `ChoosePromotion`.
    pub fn choose_promotion(&self, piece: PieceKind) -> Result<TapResult, BancoError> {
        guard(|| {
            self.with(|vs| {
                let before = vs.game().clone();
                vs.choose_promotion(piece.into())
                    .map(|t| TapResult::of(&t, &before))
            })
        })
    }

    /// Plays the player's move; in the computer's turn refused with `NotAvailable` ("it is
    /// the computer's turn", as `Match::play` in the other player's), before the move is
    /// checked.
    pub fn play(&self, mv: Move) -> Result<PlayedMove, BancoError> {
        guard(|| {
            // Whose turn it is before what is wrong with the move.
            let m = self.read(|vs| {
                vs.ready_to_move()?;
                legal(vs.game(), mv)
            })??;
            let info = self.with(|vs| vs.play(m))?;
            Ok(PlayedMove::from(&info))
        })
    }

    /// Plays a move the player typed, in any of the game's notations; in the computer's
    /// turn refused with `NotAvailable` ("it is the computer's turn"), before the text is
    /// read.
    pub fn play_text(&self, text: String) -> Result<PlayedMove, BancoError> {
        guard(|| Ok(PlayedMove::from(&self.with(|vs| vs.play_text(&text))?)))
    }

    /// Takes back the player's last move (and the computer's reply, or its claimed draw),
    /// also while the computer thinks; after the player resigned or claimed a draw,
    /// withdraws that ending alone (the moves stay and the game goes on), a draw claimed
    /// with a move together with that move.
    pub fn undo(&self) -> Result<(), BancoError> {
        guard(|| self.with(ac::VsComputer::undo))
    }

    /// Plays again what undo took back, up to the player's next turn.
    pub fn redo(&self) -> Result<(), BancoError> {
        guard(|| self.with(ac::VsComputer::redo))
    }

    /// Looks for a hint; the state shows it when found.
    pub fn hint(&self) -> Result<(), BancoError> {
        guard(|| self.with(ac::VsComputer::hint))
    }

    /// The player resigns (refused in a puzzle).
    pub fn resign(&self) -> Result<(), BancoError> {
        guard(|| self.with(ac::VsComputer::resign))
    }

    /// The player claims a draw the rules allow on the board as it stands (chess; refused
    /// in a puzzle).
    pub fn claim_draw(&self) -> Result<(), BancoError> {
        guard(|| self.with(ac::VsComputer::claim_draw))
    }

    /// The player claims a draw with the move `mv` (FIDE Laws 9.2.1.1 and 9.3.1): when
    /// playing it makes the position stand for the third time or completes fifty moves
    /// without a capture or a pawn move ([`VsState::claimable_with`]), the move is played
    /// and the game ends drawn (undo takes back both). Otherwise nothing changes:
    /// `NotAvailable` for a move that brings no draw about or that ends the game by itself
    /// (play it instead), on the computer's turn, in a puzzle; `IllegalMove` for an illegal
    /// move; `GameOver` after the end.
    pub fn claim_draw_with(&self, mv: Move) -> Result<PlayedMove, BancoError> {
        guard(|| {
            let m = self.read(|vs| {
                vs.ready_to_move()?;
                legal(vs.game(), mv)
            })??;
            let info = self.with(|vs| vs.claim_draw_with(m))?;
            Ok(PlayedMove::from(&info))
        })
    }

    /// Changes the computer's level (1–10; anything else is refused).
    pub fn set_level(&self, level: u8) -> Result<(), BancoError> {
        guard(|| self.with(|vs| vs.set_level(level)))
    }

    /// Clears the selection (and a pending promotion choice the player dismissed).
    pub fn clear_selection(&self) -> Result<(), BancoError> {
        guard(|| {
            self.with(|vs| {
                vs.clear_selection();
                Ok(())
            })
        })
    }

    /// Turns the board around.
    pub fn flip(&self) -> Result<(), BancoError> {
        guard(|| {
            self.with(|vs| {
                vs.flip();
                Ok(())
            })
        })
    }

    /// The legal moves of the player's piece on `square` (empty when it is not their turn).
    pub fn legal_moves_from(&self, square: u8) -> Result<Vec<Move>, BancoError> {
        guard(|| {
            self.read(|vs| {
                let g = vs.game();
                check_square(g, square)?;
                if !vs.your_turn() {
                    return Ok(Vec::new());
                }
                Ok(g.legal_move_vec()
                    .into_iter()
                    .map(|m| move_of(g, m))
                    .filter(|m| m.from == square)
                    .collect())
            })?
        })
    }

    /// The record to continue this game later (Banco's one saved-game format).
    pub fn save(&self) -> Result<Vec<u8>, BancoError> {
        guard(|| self.read(ac::VsComputer::save)?.map_err(BancoError::from))
    }

    /// Stops the computer and ends this game (further calls fail). Named `end` because
    /// Kotlin's generated objects already have a `close()` that frees the Rust object.
    pub fn end(&self) -> Result<(), BancoError> {
        guard(|| {
            self.runner
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take();
            Ok(())
        })
    }
}

/// The puzzles that come with Banco.
#[uniffi::export]
pub fn builtin_puzzles() -> Vec<Puzzle> {
    banco_app::puzzles::builtin()
        .into_iter()
        .map(|p| Puzzle {
            name: p.name,
            kind: p.kind.into(),
            fen: p.fen,
            mate_in: p.mate_in,
        })
        .collect()
}
