//! # banco-game — the shared vocabulary of Banco
//!
//! Every game in Banco (xiangqi, jieqi, chess, lines) speaks the words defined here:
//! [`Color`], [`Outcome`] with its [`WinReason`] and [`DrawReason`], [`GameKind`], the
//! fixed-capacity [`MoveList`] that move generators fill, and the [`Game`] trait that the
//! engine and the network session drive without knowing which game they play.
//!
//! ```
//! use banco_game::{Color, Outcome, WinReason};
//!
//! let result = Outcome::Win { winner: Color::Red, reason: WinReason::Checkmate };
//! assert_eq!(result.winner(), Some(Color::Red));
//! assert_eq!(result.score_text(), "1-0");
//! assert_eq!(Color::Red.other(), Color::Black);
//! ```
//!
//! ## Why the `Game` trait looks the way it does
//!
//! * **Two ways to play a move.** Callers that hold untrusted input (a UI tap, a move from
//!   the wire) use [`Game::play`], which checks legality and returns a typed error without
//!   touching the state. The search uses [`Game::make_unchecked`] / [`Game::unmake`], which
//!   trust the caller and are as fast as the game allows; the returned `Undo` token carries
//!   what unmaking needs (captured piece, previous counters), so no state is cloned per node.
//! * **Move generation into a caller's buffer.** [`Game::legal_moves`] fills a [`MoveList`]
//!   that lives on the caller's stack: no allocation per node.
//! * **Rules are a value.** Repetition and no-capture rules differ between federations and
//!   casual play, so [`Game::outcome`] takes the game's `Rules` type (for xiangqi a
//!   `RuleSet` with Asian and casual presets). Both peers of a match agree on the rules
//!   value, so both compute the same outcome.
//! * **Hidden information and chance (jieqi).** A move in jieqi may flip a hidden piece
//!   whose identity is drawn from the pool of unrevealed pieces. The trait stays a
//!   deterministic state machine: the identity of a flipped piece is part of the move value
//!   itself (the session fills it in from the fair-reveal protocol, the engine enumerates the
//!   pool and weighs each outcome). [`Game::chance_outcomes`] tells the engine, for a move,
//!   how many distinct outcomes it has (1 for every move of a perfect-information game),
//!   which is all a search needs to form chance nodes. A perfect-information game keeps the
//!   default implementation.
//! * **Wire encoding.** [`Game::encode_move`] / [`Game::decode_move`] map a move to a `u16`
//!   (for xiangqi `from × 90 + to`); decoding only checks the syntax, legality is checked
//!   against the position afterwards, like any other untrusted input.
#![forbid(unsafe_code)]

use core::fmt;

/// A side. In xiangqi and jieqi Red moves first; in chess [`Color::Red`] stands for White.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side that moves first (Red in xiangqi, White in chess).
    Red = 0,
    /// The side that moves second.
    Black = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];
    /// Chess name of the first side.
    pub const WHITE: Color = Color::Red;

    /// The opponent.
    #[inline]
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black: handy to index per-side tables.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `+1` for Red, `-1` for Black.
    #[inline]
    #[must_use]
    pub const fn sign(self) -> i32 {
        match self {
            Color::Red => 1,
            Color::Black => -1,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Red => "red",
            Color::Black => "black",
        })
    }
}

/// Why a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The loser is in check and has no legal move.
    Checkmate,
    /// The loser has no legal move while not in check (a loss in xiangqi).
    Stalemate,
    /// The loser kept checking through a repetition cycle.
    PerpetualCheck,
    /// The loser kept chasing an unprotected piece through a repetition cycle.
    PerpetualChase,
    /// The loser resigned.
    Resignation,
    /// The loser ran out of time.
    Timeout,
    /// The loser broke the rules of a networked match (illegal moves, desync).
    Forfeit,
}

impl WinReason {
    /// A few words for people and for the command line (`perpetual check`).
    #[must_use]
    pub const fn text(self) -> &'static str {
        match self {
            WinReason::Checkmate => "checkmate",
            WinReason::Stalemate => "stalemate",
            WinReason::PerpetualCheck => "perpetual check",
            WinReason::PerpetualChase => "perpetual chase",
            WinReason::Resignation => "resignation",
            WinReason::Timeout => "timeout",
            WinReason::Forfeit => "forfeit",
        }
    }
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// The position repeated and neither (or both) sides were to blame.
    Repetition,
    /// The no-capture limit was reached; the limit in plies is carried.
    NoCapture(u16),
    /// Neither side has material that can give mate.
    InsufficientMaterial,
    /// The players agreed.
    Agreement,
    /// No legal move and not in check, in games where that is a draw (chess).
    Stalemate,
}

impl DrawReason {
    /// A few words for people and for the command line (`no capture in 120 plies`).
    #[must_use]
    pub fn text(self) -> String {
        match self {
            DrawReason::Repetition => "repetition".to_owned(),
            DrawReason::NoCapture(n) => format!("no capture in {n} plies"),
            DrawReason::InsufficientMaterial => "insufficient material".to_owned(),
            DrawReason::Agreement => "agreement".to_owned(),
            DrawReason::Stalemate => "stalemate".to_owned(),
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One side won.
    Win {
        /// The winner.
        winner: Color,
        /// Why.
        reason: WinReason,
    },
    /// Nobody won.
    Draw {
        /// Why.
        reason: DrawReason,
    },
}

impl Outcome {
    /// The winner, if any.
    #[must_use]
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(winner),
            Outcome::Draw { .. } => None,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    #[must_use]
    pub const fn score_text(self) -> &'static str {
        match self {
            Outcome::Win {
                winner: Color::Red, ..
            } => "1-0",
            Outcome::Win {
                winner: Color::Black,
                ..
            } => "0-1",
            Outcome::Draw { .. } => "1/2-1/2",
        }
    }

    /// The reason in a few words.
    #[must_use]
    pub fn reason_text(self) -> String {
        match self {
            Outcome::Win { reason, .. } => reason.text().to_owned(),
            Outcome::Draw { reason } => reason.text(),
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.score_text(), self.reason_text())
    }
}

/// The games Banco knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Chinese chess (cờ tướng).
    Xiangqi,
    /// Hidden-piece xiangqi (cờ úp).
    Jieqi,
    /// International chess.
    Chess,
    /// Color Lines (a single-player puzzle).
    Lines,
}

impl GameKind {
    /// Every kind.
    pub const ALL: [GameKind; 4] = [
        GameKind::Xiangqi,
        GameKind::Jieqi,
        GameKind::Chess,
        GameKind::Lines,
    ];

    /// Lower-case name used on the command line, in UCI and in saved files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Xiangqi => "xiangqi",
            GameKind::Jieqi => "jieqi",
            GameKind::Chess => "chess",
            GameKind::Lines => "lines",
        }
    }

    /// The kind with this name (see [`GameKind::name`]), if any.
    #[must_use]
    pub fn from_name(name: &str) -> Option<GameKind> {
        GameKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Capacity of a [`MoveList`]: above the most legal moves any supported game can have
/// (218 in chess; well under 200 in xiangqi).
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of moves living on the stack; move generators fill it so the
/// search never allocates per node.
///
/// ```
/// use banco_game::MoveList;
/// let mut list = MoveList::<u16>::new();
/// list.push(7);
/// list.push(9);
/// assert_eq!(list.as_slice(), &[7, 9]);
/// list.retain(|m| *m > 8);
/// assert_eq!(list.len(), 1);
/// ```
#[derive(Clone)]
pub struct MoveList<M> {
    len: usize,
    moves: [M; MAX_MOVES],
}

impl<M: Copy + Default> MoveList<M> {
    /// An empty list.
    #[inline]
    #[must_use]
    pub fn new() -> Self {
        MoveList {
            len: 0,
            moves: [M::default(); MAX_MOVES],
        }
    }
}

impl<M: Copy + Default> Default for MoveList<M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Copy> MoveList<M> {
    /// Appends a move. A full list ignores further moves; [`MAX_MOVES`] is chosen so that no
    /// legal position of a supported game reaches it.
    #[inline]
    pub fn push(&mut self, mv: M) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = mv;
            self.len += 1;
        }
    }

    /// Number of moves.
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there is no move.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves as a slice.
    #[inline]
    #[must_use]
    pub fn as_slice(&self) -> &[M] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for sorting by score).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [M] {
        &mut self.moves[..self.len]
    }

    /// Keeps only the moves for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&M) -> bool) {
        let mut w = 0;
        for r in 0..self.len {
            let m = self.moves[r];
            if keep(&m) {
                self.moves[w] = m;
                w += 1;
            }
        }
        self.len = w;
    }

    /// Removes the move at `index` by swapping the last one into its place.
    pub fn swap_remove(&mut self, index: usize) -> Option<M> {
        if index >= self.len {
            return None;
        }
        let m = self.moves[index];
        self.len -= 1;
        self.moves[index] = self.moves[self.len];
        Some(m)
    }

    /// Iterator over the moves.
    pub fn iter(&self) -> core::slice::Iter<'_, M> {
        self.as_slice().iter()
    }
}

impl<M: Copy + PartialEq> MoveList<M> {
    /// True when the list holds `mv`.
    #[must_use]
    pub fn contains(&self, mv: &M) -> bool {
        self.as_slice().contains(mv)
    }
}

impl<M: Copy + fmt::Debug> fmt::Debug for MoveList<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a, M: Copy> IntoIterator for &'a MoveList<M> {
    type Item = &'a M;
    type IntoIter = core::slice::Iter<'a, M>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// A game as the engine and the match session see it: a deterministic state machine with
/// legal-move generation, checked and unchecked play, an outcome under a rule set, a 64-bit
/// hash and a `u16` wire encoding of moves. See the crate docs for the design.
pub trait Game: Clone + Send + 'static {
    /// A move. Small and `Copy`; `Default` gives a null value used to fill buffers.
    type Move: Copy + Eq + Default + fmt::Debug + Send + Sync + 'static;
    /// What [`Game::make_unchecked`] returns so that [`Game::unmake`] can restore the state.
    type Undo: Copy + fmt::Debug;
    /// The rule set that decides outcomes (repetition, no-capture limits, …).
    type Rules: Copy + Default + fmt::Debug + PartialEq + Send + Sync + 'static;
    /// The error of [`Game::play`].
    type PlayError: std::error::Error + Send + Sync + 'static;

    /// Which game this is.
    fn kind(&self) -> GameKind;

    /// The side to move.
    fn side_to_move(&self) -> Color;

    /// Replaces the contents of `moves` with every legal move.
    fn legal_moves(&self, moves: &mut MoveList<Self::Move>);

    /// True if `mv` is legal here.
    fn is_legal(&self, mv: Self::Move) -> bool;

    /// Plays a move after checking it is legal; on error the state is unchanged.
    fn play(&mut self, mv: Self::Move) -> Result<(), Self::PlayError>;

    /// Plays a move known to be legal (for example one from [`Game::legal_moves`]).
    /// Playing an illegal move this way leaves the state unspecified but never panics.
    fn make_unchecked(&mut self, mv: Self::Move) -> Self::Undo;

    /// Takes back the move made by the matching [`Game::make_unchecked`].
    fn unmake(&mut self, mv: Self::Move, undo: Self::Undo);

    /// True if the side to move is in check.
    fn in_check(&self) -> bool;

    /// How the game has ended under `rules`, or `None` while it goes on. Takes the whole
    /// history into account (repetitions, no-capture counters).
    fn outcome(&self, rules: &Self::Rules) -> Option<Outcome>;

    /// 64-bit hash of the position (pieces and side to move; not the history).
    fn hash(&self) -> u64;

    /// Number of moves played since the start position of this game.
    fn ply(&self) -> u32;

    /// Encodes a move for the wire.
    fn encode_move(mv: Self::Move) -> u16;

    /// Decodes a wire move; `None` if the value is not a move of this game at all. The
    /// result still has to be checked for legality.
    fn decode_move(code: u16) -> Option<Self::Move>;

    /// Number of distinct chance outcomes of `mv` (for hidden-piece games); 1 by default.
    fn chance_outcomes(&self, _mv: Self::Move) -> u32 {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colors() {
        assert_eq!(Color::Red.other(), Color::Black);
        assert_eq!(Color::Black.index(), 1);
        assert_eq!(Color::Black.sign(), -1);
    }

    #[test]
    fn outcome_texts() {
        let d = Outcome::Draw {
            reason: DrawReason::NoCapture(120),
        };
        assert_eq!(d.to_string(), "1/2-1/2 no capture in 120 plies");
        let w = Outcome::Win {
            winner: Color::Black,
            reason: WinReason::PerpetualCheck,
        };
        assert_eq!(w.to_string(), "0-1 perpetual check");
    }

    #[test]
    fn kinds_by_name() {
        for k in GameKind::ALL {
            assert_eq!(GameKind::from_name(k.name()), Some(k));
        }
        assert_eq!(GameKind::from_name("go"), None);
    }

    #[test]
    fn move_list_limits() {
        let mut l = MoveList::<u8>::new();
        for i in 0..300u32 {
            l.push(i as u8);
        }
        assert_eq!(l.len(), MAX_MOVES);
        assert_eq!(l.swap_remove(0), Some(0));
        assert_eq!(l.swap_remove(1000), None);
        l.clear();
        assert!(l.is_empty());
    }
}
