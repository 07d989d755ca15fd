//! Correction history of [`Searcher`]: how far the static evaluation of positions like
//! this one (by the game's correction key) was from what the search found, learnt as the
//! search goes and added to the evaluation.

#[allow(clippy::wildcard_imports)] // the parent's search types, as if written there
use super::*;

impl<S: SearchGame> Searcher<S> {
    /// The slot of the node's correction-history entry, if it has one.
    #[inline]
    fn correction_slot(&self, node: &S) -> Option<usize> {
        if !self.features.correction {
            return None;
        }
        let key = node.correction_key()?;
        Some(node.side_to_move().index() * CORRECTION_SIZE + (key as usize) % CORRECTION_SIZE)
    }

    /// The correction of the node's static evaluation, in centipawns.
    #[inline]
    pub(super) fn correction(&self, node: &S) -> i32 {
        self.correction_slot(node)
            .and_then(|i| self.corrections.get(i))
            .map_or(0, |&c| c / CORRECTION_GRAIN)
    }

    /// Moves the node's correction toward `error` (search result minus raw static
    /// evaluation), the more the deeper the search.
    #[inline]
    pub(super) fn update_correction(&mut self, node: &S, error: i32, depth: i32) {
        if let Some(c) = self
            .correction_slot(node)
            .and_then(|i| self.corrections.get_mut(i))
        {
            let target = error.clamp(-256, 256) * CORRECTION_GRAIN;
            let weight = (depth + 1).min(16);
            *c = ((*c * (256 - weight) + target * weight) / 256)
                .clamp(-CORRECTION_MAX, CORRECTION_MAX);
        }
    }
}
