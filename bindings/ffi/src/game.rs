//! [`Game`]: a local game of any kind (xiangqi, chess) with legal moves, play in any of the
//! game's notations, undo/redo, status, FEN and saved games; [`GameListener`] hears what
//! happens to it. Also the free functions about games: start positions, FEN checks,
//! notations, piece kinds, square names and the built-in puzzles (each answers for Lines or
//! refuses it as the crate's rules of the boundary say).

use crate::error::{BancoError, board_game, guard, notify};
use crate::types::{
    BoardShape, Color, DrawReason, GameKind, Move, Notation, Outcome, Piece, PieceKind,
    PlacedPiece, PlayedMove, Rules,
};
use banco_app::any::{AnyGame, AnyMove, AnyRules};
use banco_app::error::MoveError;
use banco_app::jieqi::{RevealDraw, revealed_kind};
use banco_app::notation as an;
use banco_app::save::SavedGame;
use banco_game::{Game as _, MatchGame as _};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Told about every change to a [`Game`]: implement it in Kotlin or Swift.
///
/// Calls come on the thread that changed the game, after the change, with no lock held: a
/// listener may call back into the game. A UI shell hops to its UI thread itself.
#[uniffi::export(with_foreign)]
pub trait GameListener: Send + Sync {
    /// Something happened.
    fn on_event(&self, event: GameEvent);
}

/// What happened to a local [`Game`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum GameEvent {
    /// A move was played (or replayed by redo).
    MovePlayed {
        /// The move.
        played: PlayedMove,
    },
    /// A move was taken back.
    MoveUndone {
        /// The move taken back.
        undone: Move,
        /// The ply count after taking it back.
        ply: u32,
    },
    /// The game ended.
    GameOver {
        /// How.
        outcome: Outcome,
        /// In words (`1-0 checkmate`).
        text: String,
    },
    /// An ending the moves do not show (a claimed draw; a resignation or time loss kept
    /// by a save or a match's copy) was withdrawn by [`Game::undo`]: the game goes on from
    /// the same position.
    EndingWithdrawn {
        /// The ply count (unchanged).
        ply: u32,
    },
    /// The whole game was replaced (a restored save).
    Reset {
        /// FEN of the position now.
        fen: String,
    },
}

/// Side to move, check, outcome and what can be done.
#[derive(Clone, Debug, PartialEq, Eq, Hash, uniffi::Record)]
pub struct GameStatus {
    /// The game.
    pub kind: GameKind,
    /// The side to move.
    pub side_to_move: Color,
    /// Plies played (half-moves; in jieqi each reveal is a ply of its own, so a step that
    /// turns a piece over counts two — number moves from [`Game::history`]).
    pub ply: u32,
    /// The side to move is in check.
    pub in_check: bool,
    /// How the game ended.
    pub outcome: Option<Outcome>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// The ending in words (`1-0 checkmate`), empty while the game goes on.
    pub result_text: String,
    /// [`Game::undo`] has something to do: a move to take back, or an ending the moves
    /// do not show to withdraw.
    pub can_undo: bool,
    /// A taken-back move can be played again.
    pub can_redo: bool,
    /// A draw the side to move may claim now (chess).
    pub claimable_draw: Option<DrawReason>,
}

/// A local game: the board, its history, and the rules that end it.
///
/// Jieqi: two players on one device. When a step turns a face-down piece over, the piece
/// it turns out to be is dealt on the device (banco-app's `RevealDraw`: the system's
/// randomness, or the seed of [`Game::with_chance_seed`]) and played with the step, so the
/// game never waits for a reveal: the step's `PlayedMove` carries `revealed` and the
/// announcement. The deal holds for the whole game: undo takes a reveal back with its
/// step, and the same step again turns up the same piece (undo cannot draw again). A save
/// keeps both sides' deals (the record's `Deal` tags, as plain text: the record names the
/// pieces still face down, so keep it where the players cannot read it — the app's own
/// storage), and the loaded game turns up the same pieces: save and load cannot draw again
/// either. A record without them (a game against the computer keeps only the player's)
/// deals what it lacks afresh.
///
/// Every method is safe to call from any thread (calls are serialised inside).
#[derive(uniffi::Object)]
pub struct Game {
    state: Mutex<State>,
    listener: Mutex<Option<Arc<dyn GameListener>>>,
}

#[derive(Clone)]
pub(crate) struct State {
    pub(crate) game: AnyGame,
    pub(crate) rules: AnyRules,
    /// Moves taken back, the next one to redo last.
    redo: Vec<AnyMove>,
    /// An ending the moves do not show (a claimed draw).
    ending: Option<banco_game::Outcome>,
    /// Jieqi: the source of the reveals, made when first needed (or seeded at the start).
    reveals: Option<RevealDraw>,
    /// The player against the computer of the record this game was opened from (a game
    /// saved by `VsComputer`, or shared as PGN), kept by [`Game::save`] so that the game
    /// goes on with the same side and level.
    pub(crate) player: Option<banco_app::save::Player>,
}

impl State {
    fn new(game: AnyGame, rules: AnyRules, reveals: Option<RevealDraw>) -> State {
        State {
            game,
            rules,
            redo: Vec::new(),
            ending: None,
            reveals,
            player: None,
        }
    }

    fn outcome(&self) -> Option<banco_game::Outcome> {
        self.ending.or_else(|| self.game.outcome(&self.rules))
    }

    /// Makes the reveals' source of a jieqi game if it has none yet (the system's
    /// randomness), before a move that may need it: so that a move is never played
    /// without its reveal.
    fn ready_reveals(&mut self) -> Result<(), BancoError> {
        if self.reveals.is_none() && self.game.kind() == banco_game::GameKind::Jieqi {
            let draw = RevealDraw::from_os().map_err(|e| BancoError::Internal(e.to_string()))?;
            self.reveals = Some(draw);
        }
        Ok(())
    }

    /// Plays the reveal a jieqi step awaits: the one taken back by undo when the same
    /// step was played again (redo), else the piece dealt to that square. The reveal
    /// played, if any.
    fn settle(&mut self) -> Result<Option<AnyMove>, BancoError> {
        if !self.game.awaits_chance() {
            return Ok(None);
        }
        self.ready_reveals()?;
        let last = self
            .reveals
            .as_mut()
            .and_then(|d| d.settle_redo(&mut self.game, &mut self.redo));
        if self.game.awaits_chance() {
            return Err(BancoError::Internal(
                "no reveal could be dealt for the face-down piece".into(),
            ));
        }
        Ok(last)
    }
}

/// The reveals' source of a jieqi game loaded from `saved` (`game`, its `redo` moves
/// taken back): the system's randomness holding the deals the record keeps, checked
/// against every reveal of the line with the redo moves played. `None` for other games.
fn kept_deals(
    saved: &SavedGame,
    game: &AnyGame,
    redo: &[AnyMove],
) -> Result<Option<RevealDraw>, BancoError> {
    if game.kind() != banco_game::GameKind::Jieqi {
        return Ok(None);
    }
    let line = banco_app::jieqi::line_with_redo(game, redo);
    let mut draw = RevealDraw::from_os().map_err(|e| BancoError::Internal(e.to_string()))?;
    draw.keep_deals(&line, &saved.tags)
        .map_err(|e| BancoError::from(banco_app::save::SaveError::Damaged(e.to_string())))?;
    Ok(Some(draw))
}

/// Converts a move of the boundary into a legal move of `game`.
pub(crate) fn legal(game: &AnyGame, mv: Move) -> Result<AnyMove, BancoError> {
    check_square(game, mv.from)?;
    check_square(game, mv.to)?;
    Ok(game.move_from_parts(mv.from, mv.to, mv.promotion.map(Into::into))?)
}

/// A move of `game` for the boundary.
pub(crate) fn move_of(game: &AnyGame, mv: AnyMove) -> Move {
    let (from, to, p) = game.move_parts(mv);
    Move {
        from,
        to,
        promotion: p.map(PieceKind::from),
    }
}

pub(crate) fn check_square(game: &AnyGame, index: u8) -> Result<(), BancoError> {
    square_within(index, game.width(), game.height()).map(|_| ())
}

/// `index` if it is a square of a `width`×`height` board; otherwise
/// [`BancoError::BadSquare`], the one refusal of a square off the board.
pub(crate) fn square_within(index: u8, width: u8, height: u8) -> Result<u8, BancoError> {
    let squares = u16::from(width) * u16::from(height);
    if u16::from(index) < squares {
        Ok(index)
    } else {
        Err(BancoError::BadSquare {
            index,
            width,
            height,
            last: squares.saturating_sub(1),
        })
    }
}

impl Game {
    /// The game a saved record describes: its moves replayed, its rules, the moves to redo
    /// and an ending the moves do not show.
    pub(crate) fn from_saved(saved: &SavedGame) -> Result<Arc<Game>, BancoError> {
        let (game, rules) = saved.restore()?;
        let redo = saved.redo_moves(&game);
        let reveals = kept_deals(saved, &game, &redo)?;
        let mut state = State::new(game, rules, reveals);
        state.redo = redo;
        state.ending = saved.ending;
        state.player = saved.player;
        Game::of(state)
    }

    pub(crate) fn from_any(game: AnyGame, rules: AnyRules) -> Result<Arc<Game>, BancoError> {
        Game::of(State::new(game, rules, None))
    }

    /// The game of `state`, a reveal it awaits played first (a jieqi game saved or set up
    /// just after a step).
    fn of(mut state: State) -> Result<Arc<Game>, BancoError> {
        state.settle()?;
        Ok(Arc::new(Game {
            state: Mutex::new(state),
            listener: Mutex::new(None),
        }))
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A copy of the game and its rules (for the engine).
    pub(crate) fn snapshot(&self) -> (AnyGame, AnyRules) {
        let s = self.lock();
        (s.game.clone(), s.rules)
    }

    /// A copy of the game, its rules and its ending, read together: the ending the moves
    /// show, or one they do not (a claimed draw).
    pub(crate) fn snapshot_ended(&self) -> (AnyGame, AnyRules, Option<banco_game::Outcome>) {
        let s = self.lock();
        (s.game.clone(), s.rules, s.outcome())
    }

    fn emit(&self, events: Vec<GameEvent>) {
        let listener = self
            .listener
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        if let Some(l) = listener {
            for e in events {
                notify(|| l.on_event(e));
            }
        }
    }

    /// Plays a legal move and reports it.
    fn play_checked(&self, mv: AnyMove) -> Result<PlayedMove, BancoError> {
        let (played, events) = {
            let mut s = self.lock();
            if let Some(o) = s.outcome() {
                return Err(BancoError::GameOver(o.to_string()));
            }
            s.ready_reveals()?;
            let mut played = PlayedMove::from(&an::describe(&s.game, mv));
            s.game.play(mv)?;
            if s.redo.last() == Some(&mv) {
                s.redo.pop();
            } else {
                s.redo.clear();
            }
            if s.settle()?.is_some() {
                // The step turned a piece over: describe it with what it revealed.
                if let Some(info) = an::describe_last(&s.game) {
                    played = PlayedMove::from(&info);
                }
            }
            let mut events = vec![GameEvent::MovePlayed {
                played: played.clone(),
            }];
            events.extend(game_over_event(&s));
            (played, events)
        };
        self.emit(events);
        Ok(played)
    }
}

/// `notation` if `game` is written in it (see [`notations`]), else refused as
/// [`Game::play_text`] refuses it.
fn notation_of(game: &AnyGame, notation: Notation) -> Result<an::Notation, BancoError> {
    let n = an::Notation::from(notation);
    if an::notations(game.kind()).contains(&n) {
        Ok(n)
    } else {
        Err(MoveError::WrongNotation {
            notation: n.name(),
            game: game.kind().name(),
        }
        .into())
    }
}

/// A game that is over takes no more moves: say so before looking at the move.
fn ensure_on(s: &State) -> Result<(), BancoError> {
    match s.outcome() {
        Some(o) => Err(BancoError::GameOver(o.to_string())),
        None => Ok(()),
    }
}

fn game_over_event(s: &State) -> Option<GameEvent> {
    s.outcome().map(|o| GameEvent::GameOver {
        outcome: o.into(),
        text: o.to_string(),
    })
}

#[uniffi::export]
impl Game {
    /// A new game of `kind` from its start position, under its usual rules.
    #[uniffi::constructor]
    pub fn new(kind: GameKind) -> Result<Arc<Game>, BancoError> {
        guard(|| {
            let kind = kind.into();
            Game::from_any(AnyGame::new(kind)?, AnyRules::usual(kind))
        })
    }

    /// A game of `kind` from its start position, or from `fen` when given, whose jieqi
    /// reveals repeat: they are dealt from `chance_seed` instead of the system's
    /// randomness (tests, reproducible games; other games are as with [`Game::new`]).
    #[uniffi::constructor]
    pub fn with_chance_seed(
        kind: GameKind,
        fen: Option<String>,
        chance_seed: u64,
    ) -> Result<Arc<Game>, BancoError> {
        guard(|| {
            let kind = kind.into();
            let game = match fen {
                Some(fen) => AnyGame::from_fen(kind, &fen)?,
                None => AnyGame::new(kind)?,
            };
            let reveals = RevealDraw::seeded(chance_seed);
            Game::of(State::new(game, AnyRules::usual(kind), Some(reveals)))
        })
    }

    /// A game of `kind` from a set-up position. A FEN that is not a legal position is
    /// refused with every problem listed (see also [`validate_fen`]).
    #[uniffi::constructor]
    pub fn from_fen(kind: GameKind, fen: String) -> Result<Arc<Game>, BancoError> {
        guard(|| {
            let kind = kind.into();
            Game::from_any(AnyGame::from_fen(kind, &fen)?, AnyRules::usual(kind))
        })
    }

    /// A game from the bytes of [`Game::save`] (or of any Banco saved game). A game against
    /// the computer keeps its player's side and level: saved again, it goes on as it was
    /// (`VsComputer.resume`).
    #[uniffi::constructor]
    pub fn load(bytes: Vec<u8>) -> Result<Arc<Game>, BancoError> {
        guard(|| Game::from_saved(&SavedGame::decode(&bytes)?))
    }

    /// A separate copy of this game (same position, history and rules; no listener).
    pub fn copy(&self) -> Result<Arc<Game>, BancoError> {
        guard(|| {
            Ok(Arc::new(Game {
                state: Mutex::new(self.lock().clone()),
                listener: Mutex::new(None),
            }))
        })
    }

    /// Which game this is.
    pub fn kind(&self) -> Result<GameKind, BancoError> {
        guard(|| Ok(self.lock().game.kind().into()))
    }

    /// The board's size and square names.
    pub fn shape(&self) -> Result<BoardShape, BancoError> {
        guard(|| Ok(BoardShape::from(&self.lock().game)))
    }

    /// The rules that end the game.
    pub fn rules(&self) -> Result<Rules, BancoError> {
        guard(|| Ok(self.lock().rules.into()))
    }

    /// Changes the rules; rules of another game are refused.
    pub fn set_rules(&self, rules: Rules) -> Result<(), BancoError> {
        guard(|| {
            let rules = AnyRules::try_from(rules)?;
            let mut s = self.lock();
            if rules.kind() != s.game.kind() {
                return Err(BancoError::InvalidArgument(format!(
                    "those are rules of {}, not of {}",
                    rules.kind(),
                    s.game.kind()
                )));
            }
            s.rules = rules;
            Ok(())
        })
    }

    /// Sets (or with `null`/`nil` removes) the listener.
    pub fn set_listener(&self, listener: Option<Arc<dyn GameListener>>) -> Result<(), BancoError> {
        guard(|| {
            *self.listener.lock().unwrap_or_else(PoisonError::into_inner) = listener;
            Ok(())
        })
    }

    /// FEN of the current position.
    pub fn fen(&self) -> Result<String, BancoError> {
        guard(|| Ok(self.lock().game.fen()))
    }

    /// FEN of the position the game started from.
    pub fn start_fen(&self) -> Result<String, BancoError> {
        guard(|| Ok(self.lock().game.start_fen()))
    }

    /// Side to move, check, outcome and undo/redo availability.
    pub fn status(&self) -> Result<GameStatus, BancoError> {
        guard(|| {
            let s = self.lock();
            let outcome = s.outcome();
            Ok(GameStatus {
                kind: s.game.kind().into(),
                side_to_move: s.game.side_to_move().into(),
                ply: s.game.ply(),
                in_check: s.game.in_check(),
                outcome: outcome.map(Outcome::from),
                result: outcome.map_or("*", |o| o.score_text()).to_owned(),
                result_text: outcome.map(|o| o.to_string()).unwrap_or_default(),
                can_undo: s.game.ply() > 0 || s.ending.is_some(),
                can_redo: !s.redo.is_empty(),
                claimable_draw: if outcome.is_none() {
                    s.game.claimable_draw(&s.rules).map(DrawReason::from)
                } else {
                    None
                },
            })
        })
    }

    /// Every piece on the board with its square.
    pub fn pieces(&self) -> Result<Vec<PlacedPiece>, BancoError> {
        guard(|| {
            let s = self.lock();
            Ok((0..s.game.squares())
                .filter_map(|sq| {
                    s.game.piece_at(sq).map(|p| PlacedPiece {
                        square: sq,
                        piece: Piece::from(&p),
                    })
                })
                .collect())
        })
    }

    /// The piece on `square`, if any.
    pub fn piece_at(&self, square: u8) -> Result<Option<Piece>, BancoError> {
        guard(|| {
            let s = self.lock();
            check_square(&s.game, square)?;
            Ok(s.game.piece_at(square).as_ref().map(Piece::from))
        })
    }

    /// Every legal move (none once the game is over by mate or stalemate).
    pub fn legal_moves(&self) -> Result<Vec<Move>, BancoError> {
        guard(|| {
            let s = self.lock();
            Ok(s.game
                .legal_move_vec()
                .into_iter()
                .map(|m| move_of(&s.game, m))
                .collect())
        })
    }

    /// The legal moves of the piece on `square` (for highlighting targets after a tap).
    pub fn legal_moves_from(&self, square: u8) -> Result<Vec<Move>, BancoError> {
        guard(|| {
            let s = self.lock();
            check_square(&s.game, square)?;
            Ok(s.game
                .legal_move_vec()
                .into_iter()
                .map(|m| move_of(&s.game, m))
                .filter(|m| m.from == square)
                .collect())
        })
    }

    /// True if `mv` is legal now.
    pub fn is_legal(&self, mv: Move) -> Result<bool, BancoError> {
        guard(|| Ok(legal(&self.lock().game, mv).is_ok()))
    }

    /// Plays a move; an illegal move is refused with the reason and changes nothing.
    pub fn play(&self, mv: Move) -> Result<PlayedMove, BancoError> {
        guard(|| {
            let m = {
                let s = self.lock();
                ensure_on(&s)?;
                legal(&s.game, mv)?
            };
            self.play_checked(m)
        })
    }

    /// Plays a move written in `notation`, or in any notation of the game when `null`/`nil`
    /// (`h2e2`, `C2=5`, `炮二平五`; `e4`, `Nf3`, `e2e4`).
    pub fn play_text(
        &self,
        text: String,
        notation: Option<Notation>,
    ) -> Result<PlayedMove, BancoError> {
        guard(|| {
            let m = {
                let s = self.lock();
                ensure_on(&s)?;
                an::parse_move(&s.game, &text, notation.map(Into::into))?
            };
            self.play_checked(m)
        })
    }

    /// The legal move that `text` names (in `notation`, or any), without playing it.
    pub fn parse_move(&self, text: String, notation: Option<Notation>) -> Result<Move, BancoError> {
        guard(|| {
            let s = self.lock();
            let m = an::parse_move(&s.game, &text, notation.map(Into::into))?;
            Ok(move_of(&s.game, m))
        })
    }

    /// A legal move written in `notation`; a notation of another game is refused
    /// (`BadMoveText`), as [`Game::play_text`] refuses it.
    pub fn move_text(&self, mv: Move, notation: Notation) -> Result<String, BancoError> {
        guard(|| {
            let s = self.lock();
            let m = legal(&s.game, mv)?;
            let notation = notation_of(&s.game, notation)?;
            Ok(an::write_move(&s.game, m, notation))
        })
    }

    /// Claims a draw the rules allow now (chess: threefold repetition, fifty moves).
    pub fn claim_draw(&self) -> Result<Outcome, BancoError> {
        guard(|| {
            let (draw, events) = {
                let mut s = self.lock();
                if let Some(o) = s.outcome() {
                    return Err(BancoError::GameOver(o.to_string()));
                }
                let reason = s.game.claimable_draw(&s.rules).ok_or_else(|| {
                    BancoError::NotAvailable("there is no draw to claim in this position".into())
                })?;
                let draw = banco_game::Outcome::Draw { reason };
                s.ending = Some(draw);
                (draw, game_over_event(&s).into_iter().collect::<Vec<_>>())
            };
            // The draw set, not the status read again: a listener may have withdrawn it
            // already (listeners may call back into the game).
            self.emit(events);
            Ok(draw.into())
        })
    }

    /// Takes back the last move; `null`/`nil` at the start of the game. A game that ended
    /// in a way its moves do not show — a claimed draw, or a resignation or time loss kept
    /// by a save or by [`crate::Match::game`] — has only that ending withdrawn (as
    /// `VsComputer.undo` does): no move is taken back, `null`/`nil` is returned and the
    /// listener hears [`GameEvent::EndingWithdrawn`]; the next undo takes back a move.
    pub fn undo(&self) -> Result<Option<Move>, BancoError> {
        guard(|| {
            let (undone, ply) = {
                let mut s = self.lock();
                if s.ending.take().is_some() {
                    let ply = s.game.ply();
                    drop(s);
                    self.emit(vec![GameEvent::EndingWithdrawn { ply }]);
                    return Ok(None);
                }
                let Some(mut m) = s.game.undo_move() else {
                    return Ok(None);
                };
                s.redo.push(m);
                // Jieqi: a reveal goes back with the step that made it.
                while s.game.awaits_chance() {
                    let Some(step) = s.game.undo_move() else {
                        break;
                    };
                    s.redo.push(step);
                    m = step;
                }
                (move_of(&s.game, m), s.game.ply())
            };
            self.emit(vec![GameEvent::MoveUndone { undone, ply }]);
            Ok(Some(undone))
        })
    }

    /// Plays again the last move taken back; `null`/`nil` if there is none.
    pub fn redo(&self) -> Result<Option<PlayedMove>, BancoError> {
        guard(|| {
            let Some(m) = self.lock().redo.last().copied() else {
                return Ok(None);
            };
            self.play_checked(m).map(Some)
        })
    }

    /// Every move played, described.
    pub fn history(&self) -> Result<Vec<PlayedMove>, BancoError> {
        guard(|| {
            let s = self.lock();
            let mut replay = s.game.restarted();
            let mut out = Vec::with_capacity(s.game.ply() as usize);
            for m in s.game.history() {
                let info = an::describe(&replay, m);
                if replay.play(m).is_err() {
                    break;
                }
                if revealed_kind(m).is_some() {
                    // Jieqi: the reveal is told with the step that made it.
                    if let (Some(step), Some(joined)) = (out.last_mut(), an::describe_last(&replay))
                    {
                        *step = PlayedMove::from(&joined);
                        continue;
                    }
                }
                out.push(PlayedMove::from(&info));
            }
            Ok(out)
        })
    }

    /// Every move played, written in `notation`; a notation of another game is refused
    /// (`BadMoveText`).
    pub fn history_text(&self, notation: Notation) -> Result<Vec<String>, BancoError> {
        guard(|| {
            let s = self.lock();
            let notation = notation_of(&s.game, notation)?;
            Ok(an::history_text(&s.game, notation))
        })
    }

    /// The game as bytes in Banco's one saved-game format: see [`Game::load`].
    pub fn save(&self) -> Result<Vec<u8>, BancoError> {
        guard(|| {
            let mut s = self.lock();
            let mut saved = SavedGame::of(&s.game, s.rules);
            saved.redo = s.redo.iter().map(|&m| s.game.encode_move(m)).collect();
            saved.ending = s.ending;
            saved.player = s.player;
            // Jieqi: both sides' deals, made now if need be, so that loading cannot deal
            // the face-down pieces again (see `Game`).
            if s.game.kind() == banco_game::GameKind::Jieqi {
                s.ready_reveals()?;
                let State { game, reveals, .. } = &mut *s;
                if let Some(draw) = reveals.as_mut() {
                    draw.deal(game);
                    for side in banco_game::Color::ALL {
                        saved.tags.extend(draw.deal_tag(game, side));
                    }
                }
            }
            Ok(saved.encode()?)
        })
    }

    /// Replaces this game by the saved one (the listener stays and hears `Reset`).
    pub fn restore(&self, bytes: Vec<u8>) -> Result<(), BancoError> {
        guard(|| {
            let loaded = Game::load(bytes)?;
            let state = loaded.lock().clone();
            let fen = state.game.fen();
            *self.lock() = state;
            self.emit(vec![GameEvent::Reset { fen }]);
            Ok(())
        })
    }
}

/// The problems of a FEN of `kind` as a player reads them: empty if it is a legal position.
/// For Lines, the problems of a Lines position string as [`crate::render_fen_svg`] reads
/// it (`9/9/9/9/2RRRR3/9/9/9/8B GBY 40`).
#[uniffi::export]
pub fn validate_fen(kind: GameKind, fen: String) -> Vec<String> {
    guard(|| Ok(banco_app::any::fen_problems(kind.into(), &fen)))
        .unwrap_or_else(|e| vec![e.to_string()])
}

/// FEN of the start position of `kind`; Lines, which has no set start (a `LinesGame` deals
/// its first balls), is refused with `InvalidArgument`.
#[uniffi::export]
pub fn start_fen(kind: GameKind) -> Result<String, BancoError> {
    guard(|| {
        let kind = board_game(
            kind,
            "startFen",
            "a LinesGame deals its own start (LinesGame(settings, seed))",
        )?;
        Ok(AnyGame::new(kind)?.fen())
    })
}

/// The games this build plays on a board.
#[uniffi::export]
pub fn board_games() -> Vec<GameKind> {
    <AnyGame as banco_game::MatchGame>::kinds()
        .iter()
        .map(|&k| k.into())
        .collect()
}

/// The notations of a game, its main one first; none for Lines (`LinesGame.playText`
/// reads its moves, `a1e5`).
#[uniffi::export]
pub fn notations(kind: GameKind) -> Vec<Notation> {
    an::notations(kind.into())
        .iter()
        .map(|&n| n.into())
        .collect()
}

/// The kinds of pieces of a game (a palette for a position editor); none for Lines (balls,
/// not pieces).
#[uniffi::export]
pub fn piece_kinds(kind: GameKind) -> Vec<PieceKind> {
    banco_app::pieces::piece_kinds(kind.into())
        .iter()
        .map(|&k| k.into())
        .collect()
}

/// The board of a game: its size and square names; Lines is refused with
/// `InvalidArgument` (its board is `linesBoardSize()`).
#[uniffi::export]
pub fn board_shape(kind: GameKind) -> Result<BoardShape, BancoError> {
    guard(|| {
        let kind = board_game(kind, "boardShape", "call linesBoardSize()")?;
        Ok(BoardShape::from(&AnyGame::new(kind)?))
    })
}

/// The usual rules of a board game; `null`/`nil` for Lines, which has none of these
/// (its settings are [`crate::lines::LinesSettings`]).
#[uniffi::export]
pub fn default_rules(kind: GameKind) -> Option<Rules> {
    let kind: banco_game::GameKind = kind.into();
    (kind != banco_game::GameKind::Lines).then(|| AnyRules::usual(kind).into())
}

/// How a side is called in a board game (`Red`, `White`); Lines, whose colours are its
/// balls' (`linesColorName`), is refused with `InvalidArgument`.
#[uniffi::export]
pub fn color_name(kind: GameKind, color: Color) -> Result<String, BancoError> {
    guard(|| {
        let kind = board_game(
            kind,
            "colorName",
            "a ball's colour is linesColorName(color)",
        )?;
        Ok(banco_app::any::color_name(kind, color.into()).to_owned())
    })
}

/// The end of a board game as a player reads it ("You won: checkmate"); `me` is
/// `null`/`nil` for an onlooker ("White won: resignation"). Lines is refused with
/// `InvalidArgument`: a race's end is `RaceOutcome.text`, a solo game's its score.
#[uniffi::export]
pub fn result_text(
    kind: GameKind,
    outcome: Outcome,
    me: Option<Color>,
) -> Result<String, BancoError> {
    guard(|| {
        let kind = board_game(
            kind,
            "resultText",
            "a race's end is RaceOutcome.text, a solo game's its score",
        )?;
        let o = outcome_back(outcome);
        Ok(banco_app::result::result_text(kind, o, me.map(Into::into)))
    })
}

fn outcome_back(o: Outcome) -> banco_game::Outcome {
    use crate::types::{DrawReason as D, WinReason as W};
    use banco_game::{DrawReason as GD, Outcome as GO, WinReason as GW};
    match o {
        Outcome::Win { winner, reason } => GO::Win {
            winner: winner.into(),
            reason: match reason {
                W::Checkmate => GW::Checkmate,
                W::Stalemate => GW::Stalemate,
                W::PerpetualCheck => GW::PerpetualCheck,
                W::PerpetualChase => GW::PerpetualChase,
                W::Resignation => GW::Resignation,
                W::Timeout => GW::Timeout,
                W::Forfeit => GW::Forfeit,
                W::Unknown => GW::Unknown,
            },
        },
        Outcome::Draw { reason } => GO::Draw {
            reason: match reason {
                D::Repetition => GD::Repetition,
                D::NoCapture { plies } => GD::NoCapture(plies),
                D::InsufficientMaterial => GD::InsufficientMaterial,
                D::Agreement => GD::Agreement,
                D::Stalemate => GD::Stalemate,
                D::FiftyMoveRule => GD::FiftyMoveRule,
                D::SeventyFiveMoveRule => GD::SeventyFiveMoveRule,
                D::ThreefoldRepetition => GD::ThreefoldRepetition,
                D::FivefoldRepetition => GD::FivefoldRepetition,
            },
        },
    }
}

/// The name of square `index` in a board game (`h2`, `e4`); Lines is refused with
/// `InvalidArgument` (its cells are named by `linesCellName`).
#[uniffi::export]
pub fn square_name(kind: GameKind, index: u8) -> Result<String, BancoError> {
    guard(|| {
        let kind = board_game(kind, "squareName", "call linesCellName(cell)")?;
        let g = AnyGame::new(kind)?;
        check_square(&g, index)?;
        Ok(g.square_name(index))
    })
}

/// The index of the square named `name` in a board game (`h2` → 25 in xiangqi); Lines is
/// refused with `InvalidArgument` (its cells are named by `linesCellName`, its moves read
/// by `LinesGame.playText`).
#[uniffi::export]
pub fn parse_square(kind: GameKind, name: String) -> Result<u8, BancoError> {
    guard(|| {
        let kind = board_game(
            kind,
            "parseSquare",
            "cells are named by linesCellName(cell), moves read by LinesGame.playText",
        )?;
        let g = AnyGame::new(kind)?;
        let name = name.trim().to_ascii_lowercase();
        (0..g.squares())
            .find(|&i| g.square_name(i) == name)
            .ok_or_else(|| {
                BancoError::InvalidArgument(format!("`{name}` is not a square of {kind}"))
            })
    })
}

/// The version of the Banco library.
#[uniffi::export]
pub fn banco_version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}
