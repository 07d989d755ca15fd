//! [`Game`]: a local game (this version: xiangqi) with legal moves, play in any notation,
//! undo/redo, status, FEN and saved games; [`GameListener`] hears what happens to it.

use crate::error::{BancoError, guard, notify};
use crate::save::SavedGame;
use crate::types::{
    GameEvent, GameKind, GameStatus, Move, Notation, Outcome, Piece, PlacedPiece, PlayedMove,
    Rules, Square,
};
use banco_game::Game as _;
use banco_game::MoveList;
use banco_xiangqi::{self as x, Chinese, Iccs, Position, RuleSet, Wxf, Xiangqi, fen};
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

/// A local game: the board, its history, and the rules that end it.
///
/// Every method is safe to call from any thread (calls are serialised inside).
#[derive(uniffi::Object)]
pub struct Game {
    state: Mutex<State>,
    listener: Mutex<Option<Arc<dyn GameListener>>>,
}

#[derive(Clone)]
pub(crate) struct State {
    pub(crate) game: Xiangqi,
    pub(crate) rules: RuleSet,
    /// Moves taken back, the next one to redo last.
    redo: Vec<x::Move>,
}

impl Game {
    fn with_state(state: State) -> Arc<Game> {
        Arc::new(Game {
            state: Mutex::new(state),
            listener: Mutex::new(None),
        })
    }

    pub(crate) fn from_xiangqi(game: Xiangqi, rules: RuleSet) -> Arc<Game> {
        Game::with_state(State {
            game,
            rules,
            redo: Vec::new(),
        })
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A copy of the game and its rules (for the engine and the match).
    pub(crate) fn snapshot(&self) -> (Xiangqi, RuleSet) {
        let s = self.lock();
        (s.game.clone(), s.rules)
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

    /// Plays a legal-checked move and reports it.
    fn play_checked(&self, mv: x::Move) -> Result<PlayedMove, BancoError> {
        let (played, events) = {
            let mut s = self.lock();
            if let Some(o) = s.game.outcome(&s.rules) {
                return Err(BancoError::GameOver(o.to_string()));
            }
            let played = describe(s.game.position(), mv, s.game.ply() + 1);
            s.game.play(mv)?;
            if s.redo.last() == Some(&mv) {
                s.redo.pop();
            } else {
                s.redo.clear();
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

/// The game-over event, if the game is over.
fn game_over_event(s: &State) -> Option<GameEvent> {
    s.game.outcome(&s.rules).map(|o| GameEvent::GameOver {
        outcome: o.into(),
        text: o.to_string(),
    })
}

/// A legal move written in every notation, as played from `pos` at ply `ply`.
pub(crate) fn describe(pos: &Position, mv: x::Move, ply: u32) -> PlayedMove {
    let mut after = pos.clone();
    after.make(mv);
    PlayedMove {
        ply,
        played: mv.into(),
        piece: pos
            .piece_at(mv.from())
            .unwrap_or(x::Piece::new(pos.side_to_move(), x::PieceKind::Pawn))
            .into(),
        captured: pos.piece_at(mv.to()).map(Piece::from),
        gives_check: after.in_check(),
        coordinate: mv.to_string(),
        wxf: Wxf::from_move(pos, mv).to_string(),
        chinese: Chinese::from_move(pos, mv).to_string(),
    }
}

/// Resolves a move written in `notation` against `pos`.
pub(crate) fn parse_in(
    pos: &Position,
    text: &str,
    notation: Notation,
) -> Result<x::Move, BancoError> {
    if text.len() > 64 {
        return Err(BancoError::BadMoveText(
            "that text is far too long to be a move".to_owned(),
        ));
    }
    let bad = |e: &dyn std::fmt::Display| BancoError::BadMoveText(e.to_string());
    Ok(match notation {
        Notation::Coordinate => text.parse::<Iccs>().map_err(|e| bad(&e))?.to_move(pos)?,
        Notation::Wxf => text.parse::<Wxf>().map_err(|e| bad(&e))?.to_move(pos)?,
        Notation::Chinese => text.parse::<Chinese>().map_err(|e| bad(&e))?.to_move(pos)?,
    })
}

/// A legal move checked against `pos`, with a reason when it is not legal.
pub(crate) fn legal_in(pos: &Position, mv: Move) -> Result<x::Move, BancoError> {
    let m = x::Move::try_from(mv)?;
    Ok(Iccs(m).to_move(pos)?)
}

fn write_in(pos: &Position, mv: x::Move, notation: Notation) -> String {
    match notation {
        Notation::Coordinate => mv.to_string(),
        Notation::Wxf => Wxf::from_move(pos, mv).to_string(),
        Notation::Chinese => Chinese::from_move(pos, mv).to_string(),
    }
}

fn require_xiangqi(kind: GameKind) -> Result<(), BancoError> {
    match kind {
        GameKind::Xiangqi => Ok(()),
        other => Err(BancoError::Unsupported(
            banco_game::GameKind::from(other).to_string(),
        )),
    }
}

#[uniffi::export]
impl Game {
    /// A new game of `kind` from its start position, under the usual (Asian) rules.
    #[uniffi::constructor]
    pub fn new(kind: GameKind) -> Result<Arc<Game>, BancoError> {
        guard(|| {
            require_xiangqi(kind)?;
            Ok(Game::from_xiangqi(Xiangqi::new(), RuleSet::asian()))
        })
    }

    /// A xiangqi game from a set-up position. A FEN that is not a legal position is refused
    /// with every problem listed (see also [`validate_fen`]).
    #[uniffi::constructor]
    pub fn from_fen(fen: String) -> Result<Arc<Game>, BancoError> {
        guard(|| {
            Ok(Game::from_xiangqi(
                Xiangqi::from_fen(&fen)?,
                RuleSet::asian(),
            ))
        })
    }

    /// A game from the bytes of [`Game::save`].
    #[uniffi::constructor]
    pub fn load(bytes: Vec<u8>) -> Result<Arc<Game>, BancoError> {
        guard(|| {
            let saved = SavedGame::decode(&bytes)?;
            let mut game = Xiangqi::from_fen(&saved.start_fen).map_err(|e| {
                BancoError::BadSave(format!("its start position is not legal ({e})"))
            })?;
            for (i, code) in saved.moves.iter().enumerate() {
                let ok = game
                    .decode_move(*code)
                    .is_some_and(|mv| game.play(mv).is_ok());
                if !ok {
                    return Err(BancoError::BadSave(format!(
                        "move {} is not legal in its position",
                        i + 1
                    )));
                }
            }
            Ok(Game::from_xiangqi(game, saved.rules))
        })
    }

    /// A separate copy of this game (same position, history and rules; no listener).
    pub fn copy(&self) -> Result<Arc<Game>, BancoError> {
        guard(|| Ok(Game::with_state(self.lock().clone())))
    }

    /// Which game this is.
    pub fn kind(&self) -> Result<GameKind, BancoError> {
        guard(|| Ok(self.lock().game.kind().into()))
    }

    /// The rules that end the game.
    pub fn rules(&self) -> Result<Rules, BancoError> {
        guard(|| Ok(self.lock().rules.into()))
    }

    /// Changes the rules (repetition judge, no-capture limit).
    pub fn set_rules(&self, rules: Rules) -> Result<(), BancoError> {
        guard(|| {
            self.lock().rules = RuleSet::try_from(rules)?;
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
        guard(|| Ok(fen::to_fen(self.lock().game.start_position())))
    }

    /// Side to move, check, outcome and undo/redo availability.
    pub fn status(&self) -> Result<GameStatus, BancoError> {
        guard(|| {
            let s = self.lock();
            let outcome = s.game.outcome(&s.rules);
            Ok(GameStatus {
                kind: s.game.kind().into(),
                side_to_move: s.game.side_to_move().into(),
                ply: s.game.ply(),
                in_check: s.game.in_check(),
                outcome: outcome.map(Outcome::from),
                result: outcome.map_or("*", |o| o.score_text()).to_owned(),
                result_text: outcome.map(|o| o.to_string()).unwrap_or_default(),
                can_undo: s.game.ply() > 0,
                can_redo: !s.redo.is_empty(),
            })
        })
    }

    /// Every piece on the board with its square.
    pub fn pieces(&self) -> Result<Vec<PlacedPiece>, BancoError> {
        guard(|| {
            Ok(self
                .lock()
                .game
                .position()
                .pieces()
                .map(|(sq, p)| PlacedPiece {
                    square: sq.into(),
                    piece: p.into(),
                })
                .collect())
        })
    }

    /// The piece on `square`, if any.
    pub fn piece_at(&self, square: Square) -> Result<Option<Piece>, BancoError> {
        guard(|| {
            let sq = x::Square::try_from(square)?;
            Ok(self.lock().game.position().piece_at(sq).map(Piece::from))
        })
    }

    /// Every legal move (none once the game is over by mate or stalemate).
    pub fn legal_moves(&self) -> Result<Vec<Move>, BancoError> {
        guard(|| {
            let mut list = MoveList::new();
            self.lock().game.legal_moves(&mut list);
            Ok(list.iter().map(|&m| Move::from(m)).collect())
        })
    }

    /// The legal moves of the piece on `square` (for highlighting targets after a tap).
    pub fn legal_moves_from(&self, square: Square) -> Result<Vec<Move>, BancoError> {
        guard(|| {
            let sq = x::Square::try_from(square)?;
            let mut list = MoveList::new();
            self.lock().game.legal_moves(&mut list);
            Ok(list
                .iter()
                .filter(|m| m.from() == sq)
                .map(|&m| Move::from(m))
                .collect())
        })
    }

    /// True if `mv` is legal now.
    pub fn is_legal(&self, mv: Move) -> Result<bool, BancoError> {
        guard(|| {
            let m = x::Move::try_from(mv)?;
            Ok(self.lock().game.is_legal(m))
        })
    }

    /// Plays a move; an illegal move is refused with the reason and changes nothing.
    pub fn play(&self, mv: Move) -> Result<PlayedMove, BancoError> {
        guard(|| {
            let m = legal_in(self.lock().game.position(), mv)?;
            self.play_checked(m)
        })
    }

    /// Plays a move written in `notation` (`h2e2`, `C2=5`, `炮二平五`).
    pub fn play_text(&self, text: String, notation: Notation) -> Result<PlayedMove, BancoError> {
        guard(|| {
            let m = parse_in(self.lock().game.position(), &text, notation)?;
            self.play_checked(m)
        })
    }

    /// The legal move that `text` in `notation` names, without playing it.
    pub fn parse_move(&self, text: String, notation: Notation) -> Result<Move, BancoError> {
        guard(|| Ok(parse_in(self.lock().game.position(), &text, notation)?.into()))
    }

    /// A legal move written in `notation`.
    pub fn move_text(&self, mv: Move, notation: Notation) -> Result<String, BancoError> {
        guard(|| {
            let s = self.lock();
            let m = legal_in(s.game.position(), mv)?;
            Ok(write_in(s.game.position(), m, notation))
        })
    }

    /// Takes back the last move; `null`/`nil` at the start of the game.
    pub fn undo(&self) -> Result<Option<Move>, BancoError> {
        guard(|| {
            let (undone, ply) = {
                let mut s = self.lock();
                let Some(m) = s.game.undo_move() else {
                    return Ok(None);
                };
                s.redo.push(m);
                (Move::from(m), s.game.ply())
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

    /// Every move played, written in every notation.
    pub fn history(&self) -> Result<Vec<PlayedMove>, BancoError> {
        guard(|| {
            let s = self.lock();
            let mut pos = s.game.start_position().clone();
            let mut out = Vec::with_capacity(s.game.ply() as usize);
            for (i, m) in s.game.moves().enumerate() {
                out.push(describe(&pos, m, i as u32 + 1));
                pos.make(m);
            }
            Ok(out)
        })
    }

    /// Every move played, written in `notation`.
    pub fn history_text(&self, notation: Notation) -> Result<Vec<String>, BancoError> {
        guard(|| {
            let s = self.lock();
            let mut pos = s.game.start_position().clone();
            let mut out = Vec::with_capacity(s.game.ply() as usize);
            for m in s.game.moves() {
                out.push(write_in(&pos, m, notation));
                pos.make(m);
            }
            Ok(out)
        })
    }

    /// The game as bytes (start position, rules, moves): see [`Game::load`].
    pub fn save(&self) -> Result<Vec<u8>, BancoError> {
        guard(|| {
            let s = self.lock();
            SavedGame {
                rules: s.rules,
                start_fen: fen::to_fen(s.game.start_position()),
                moves: s.game.moves().map(|m| s.game.encode_move(m)).collect(),
            }
            .encode()
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

/// The problems of a FEN as a player reads them: empty if it is a legal xiangqi position.
/// A FEN that cannot be read gives one problem saying why.
#[uniffi::export]
pub fn validate_fen(fen: String) -> Vec<String> {
    guard(|| {
        Ok(match fen::parse_setup(&fen) {
            Err(e) => vec![e.to_string()],
            Ok(setup) => setup.problems().iter().map(ToString::to_string).collect(),
        })
    })
    .unwrap_or_else(|e| vec![e.to_string()])
}

/// FEN of the start position of `kind`.
#[uniffi::export]
pub fn start_fen(kind: GameKind) -> Result<String, BancoError> {
    guard(|| {
        require_xiangqi(kind)?;
        Ok(fen::START_FEN.to_owned())
    })
}

/// The name of a square (`h2`).
#[uniffi::export]
pub fn square_name(square: Square) -> Result<String, BancoError> {
    guard(|| Ok(x::Square::try_from(square)?.to_string()))
}

/// The square named `name` (`h2`).
#[uniffi::export]
pub fn parse_square(name: String) -> Result<Square, BancoError> {
    guard(|| {
        name.trim()
            .parse::<x::Square>()
            .map(Square::from)
            .map_err(|e| BancoError::InvalidArgument(e.to_string()))
    })
}

/// The usual rules: Asian repetition rules, 3 occurrences, 120 plies without capture.
#[uniffi::export]
pub fn default_rules() -> Rules {
    RuleSet::asian().into()
}

/// The version of the Banco library.
#[uniffi::export]
pub fn banco_version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}
