// Jieqi reveals announced: Rust describes the last move with what it turned over
// (PlayedMove.announcement, "cannon h2 revealed: rook"); the game and match screens show it
// from the move that revealed until the next move. Shared by GameController and MatchController.
package org.banco.shell

import org.banco.PlayedMove

/** Follows the last move of each state; [text] is the reveal to show, null when none. */
class RevealAnnouncer {
    private var ply: UInt = 0u

    /** The announcement of the last move when it revealed a piece; kept while no move is played. */
    var text: String? = null
        private set

    /**
     * The state's [last] move: a new one (a higher ply) says its reveal or clears the last;
     * the same one described again with its reveal (a match learns the draw after the step)
     * says it; a taken-back one (a lower ply) clears it. Returns [text].
     */
    fun next(last: PlayedMove?): String? {
        val p = last?.ply ?: 0u
        val said = last?.announcement
        when {
            p < ply -> text = null
            p > ply -> text = said
            said != null -> text = said
        }
        ply = p
        return text
    }
}
