//! [`MoveList`]: the fixed-capacity move buffer that generators fill, with a capacity chosen
//! per game through [`ListCapacity`], and [`ChanceList`] for the weighted outcomes of a
//! chance step.
//!
//! ```
//! use banco_game::MoveList;
//! let mut list = MoveList::<u16>::new();
//! list.push(7);
//! list.push(9);
//! assert_eq!(list.as_slice(), &[7, 9]);
//! list.retain(|m| *m > 8);
//! assert_eq!(list.len(), 1);
//! assert!(!list.overflowed());
//! ```
//!
//! ## Capacity per game, and overflow nobody can miss
//!
//! A game's move type names the array its lists use ([`ListCapacity`], usually through
//! [`list_capacity!`](crate::list_capacity)): xiangqi needs 128 (at most 119 pseudo-legal
//! moves with the standard piece counts), chess 256 (at most 218 legal moves). Each game
//! proves its bound in its own tests. Should a list ever fill up anyway, the move that does
//! not fit is not silently lost: the list remembers it ([`MoveList::overflowed`], sticky
//! until [`MoveList::clear`]), [`MoveList::try_push`] reports it as an error, and debug
//! builds stop at the push.

use core::fmt;

/// The storage of a [`MoveList`] of this move type: an array whose length is the game's
/// capacity. Implement it with [`list_capacity!`](crate::list_capacity).
pub trait ListCapacity: Copy + Default {
    /// The array (`[Self; N]`).
    type Array: Copy + AsRef<[Self]> + AsMut<[Self]>;
    /// The array filled with `Self::default()`.
    fn empty_array() -> Self::Array;
}

/// Declares the capacity of the move lists of a move type:
/// `banco_game::list_capacity!(MyMove, 128);`.
#[macro_export]
macro_rules! list_capacity {
    ($ty:ty, $n:expr) => {
        impl $crate::ListCapacity for $ty {
            type Array = [$ty; $n];
            #[inline]
            fn empty_array() -> Self::Array {
                [<$ty as ::core::default::Default>::default(); $n]
            }
        }
    };
}

list_capacity!(u8, 256);
list_capacity!(u16, 256);
list_capacity!(u32, 256);

/// Capacity of a [`MoveList`] of the move type `M`.
#[must_use]
pub fn capacity<M: ListCapacity>() -> usize {
    M::empty_array().as_ref().len()
}

/// A list that was full when a move was pushed (see [`MoveList::try_push`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListFull {
    /// The capacity that was reached.
    pub capacity: usize,
}

impl fmt::Display for ListFull {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the move list is full ({} moves)", self.capacity)
    }
}

impl std::error::Error for ListFull {}

/// A fixed-capacity list of moves living on the stack; move generators fill it so the
/// search never allocates per node. See the module docs for capacity and overflow.
#[derive(Clone)]
pub struct MoveList<M: ListCapacity> {
    len: usize,
    overflow: bool,
    moves: M::Array,
}

impl<M: ListCapacity> MoveList<M> {
    /// An empty list.
    #[inline]
    #[must_use]
    pub fn new() -> Self {
        MoveList {
            len: 0,
            overflow: false,
            moves: M::empty_array(),
        }
    }

    /// The most moves this list holds.
    #[inline]
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.moves.as_ref().len()
    }

    /// Appends a move. On a full list the move is dropped and the list marked
    /// [overflowed](MoveList::overflowed) (debug builds stop here): capacities are chosen
    /// above every game's proven maximum, so this is a bug in a generator, never input.
    #[inline]
    pub fn push(&mut self, mv: M) {
        if let Some(slot) = self.moves.as_mut().get_mut(self.len) {
            *slot = mv;
            self.len += 1;
        } else {
            self.overflow = true;
            debug_assert!(false, "move list overflow at {} moves", self.len);
        }
    }

    /// Appends a move, or says that the list is full (and marks it overflowed).
    pub fn try_push(&mut self, mv: M) -> Result<(), ListFull> {
        if self.len < self.capacity() {
            self.push(mv);
            Ok(())
        } else {
            self.overflow = true;
            Err(ListFull {
                capacity: self.capacity(),
            })
        }
    }

    /// True if a push found the list full since it was last cleared: the list then lacks
    /// moves and must not be trusted.
    #[inline]
    #[must_use]
    pub fn overflowed(&self) -> bool {
        self.overflow
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

    /// Removes every move (and the overflow mark).
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
        self.overflow = false;
    }

    /// The moves as a slice.
    #[inline]
    #[must_use]
    pub fn as_slice(&self) -> &[M] {
        self.moves.as_ref().get(..self.len).unwrap_or(&[])
    }

    /// The moves as a mutable slice (for sorting by score).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [M] {
        let len = self.len;
        self.moves.as_mut().get_mut(..len).unwrap_or(&mut [])
    }

    /// Keeps only the moves for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&M) -> bool) {
        let len = self.len;
        let moves = self.moves.as_mut();
        let mut w = 0;
        for r in 0..len {
            let m = moves[r];
            if keep(&m) {
                moves[w] = m;
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
        let moves = self.moves.as_mut();
        let m = moves[index];
        self.len -= 1;
        moves[index] = moves[self.len];
        Some(m)
    }

    /// Iterator over the moves.
    pub fn iter(&self) -> core::slice::Iter<'_, M> {
        self.as_slice().iter()
    }
}

impl<M: ListCapacity> Default for MoveList<M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: ListCapacity + PartialEq> MoveList<M> {
    /// True when the list holds `mv`.
    #[must_use]
    pub fn contains(&self, mv: &M) -> bool {
        self.as_slice().contains(mv)
    }
}

impl<M: ListCapacity + fmt::Debug> fmt::Debug for MoveList<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a, M: ListCapacity> IntoIterator for &'a MoveList<M> {
    type Item = &'a M;
    type IntoIter = core::slice::Iter<'a, M>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// One outcome of a chance step and its integer weight (its probability is the weight over
/// the sum of the weights of the list).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Weighted<M> {
    /// The outcome, as a value of the game's move type.
    pub outcome: M,
    /// Its weight, at least 1.
    pub weight: u32,
}

/// Most outcomes a chance step may have.
pub const MAX_CHANCE_OUTCOMES: usize = 32;

/// The weighted outcomes of a chance step, filled by [`Game::chance_outcomes`](crate::Game::chance_outcomes).
///
/// ```
/// use banco_game::ChanceList;
/// let mut list = ChanceList::<u8>::new();
/// list.push(3, 2);
/// list.push(4, 6);
/// assert_eq!(list.total_weight(), 8);
/// assert_eq!(list.pick(0), Some(3));
/// assert_eq!(list.pick(2), Some(4));
/// assert_eq!(list.pick(8), None);
/// ```
#[derive(Clone)]
pub struct ChanceList<M> {
    len: usize,
    items: [Weighted<M>; MAX_CHANCE_OUTCOMES],
}

impl<M: Copy + Default> ChanceList<M> {
    /// An empty list.
    #[must_use]
    pub fn new() -> Self {
        ChanceList {
            len: 0,
            items: [Weighted::default(); MAX_CHANCE_OUTCOMES],
        }
    }

    /// Adds an outcome with its weight; weight 0 and a full list are ignored (no game has
    /// more than [`MAX_CHANCE_OUTCOMES`] distinct outcomes).
    pub fn push(&mut self, outcome: M, weight: u32) {
        if weight == 0 {
            return;
        }
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = Weighted { outcome, weight };
            self.len += 1;
        } else {
            debug_assert!(false, "chance list overflow");
        }
    }

    /// Removes every outcome.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The outcomes.
    #[must_use]
    pub fn as_slice(&self) -> &[Weighted<M>] {
        self.items.get(..self.len).unwrap_or(&[])
    }

    /// Number of outcomes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there is no outcome.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Sum of the weights.
    #[must_use]
    pub fn total_weight(&self) -> u64 {
        self.as_slice().iter().map(|w| u64::from(w.weight)).sum()
    }

    /// The outcome at `ticket` in `0..total_weight()` (each outcome owns as many tickets
    /// as its weight, in list order): a uniform ticket draws an outcome fairly.
    #[must_use]
    pub fn pick(&self, mut ticket: u64) -> Option<M> {
        for w in self.as_slice() {
            let weight = u64::from(w.weight);
            if ticket < weight {
                return Some(w.outcome);
            }
            ticket -= weight;
        }
        None
    }
}

impl<M: Copy + Default> Default for ChanceList<M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: fmt::Debug> fmt::Debug for ChanceList<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.items.iter().take(self.len))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Default, Debug, PartialEq)]
    struct Tiny(u8);
    list_capacity!(Tiny, 4);

    #[test]
    fn overflow_is_remembered_and_reported() {
        let mut l = MoveList::<Tiny>::new();
        assert_eq!(l.capacity(), 4);
        for i in 0..4 {
            assert_eq!(l.try_push(Tiny(i)), Ok(()));
        }
        assert_eq!(l.try_push(Tiny(9)), Err(ListFull { capacity: 4 }));
        assert!(l.overflowed());
        assert_eq!(l.len(), 4);
        l.clear();
        assert!(!l.overflowed());
        assert_eq!(capacity::<Tiny>(), 4);
    }

    #[test]
    fn list_operations() {
        let mut l = MoveList::<u8>::new();
        for i in 0..10u8 {
            l.push(i);
        }
        assert_eq!(l.swap_remove(0), Some(0));
        assert_eq!(l.swap_remove(1000), None);
        l.retain(|m| m % 2 == 1);
        assert_eq!(l.len(), 5);
        assert!(l.contains(&9));
        l.clear();
        assert!(l.is_empty());
    }

    #[test]
    fn chance_picks_by_weight() {
        let mut c = ChanceList::<u8>::new();
        c.push(1, 1);
        c.push(2, 0);
        c.push(3, 3);
        assert_eq!(c.len(), 2);
        let picks: Vec<_> = (0..4).map(|t| c.pick(t)).collect();
        assert_eq!(picks, vec![Some(1), Some(3), Some(3), Some(3)]);
    }
}
