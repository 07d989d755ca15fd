// Saving and sharing a networked game: the record Rust keeps of the match's game
// (Match.game(), with how it ended — a resignation, a loss on time, an agreed draw — which the
// moves do not show), kept among the player's saved matches in the key-value store, opened
// again like a shared record (GameController.openSaved), or shared as PGN with both players
// named on their sides.
package org.banco.shell

import org.banco.Color
import org.banco.Game
import org.banco.savedGameSummary
import org.banco.MatchState
import org.banco.pgnRecordTags
import java.time.LocalDate
import java.util.Base64

/** The matches the player saved, newest first (at most [LIMIT]), kept in [store]. */
class MatchRecords(private val store: KeyValueStore) {
    /** A saved match: its label for a list (Rust's "Chess · 0-1 resignation · 12 plies") and its record. */
    class Entry(val label: String, val saved: ByteArray)

    /**
     * Keeps [saved] (a record from [MatchController.saved]) first; the oldest beyond [LIMIT]
     * go. The words to show: "Saved", and which match made room if one did (never silently).
     */
    fun save(saved: ByteArray): String {
        val old = raw()
        val kept = listOf(saved) + old.take(LIMIT - 1)
        store.putString(KEY, kept.joinToString(",") { Base64.getEncoder().encodeToString(it) })
        val dropped = old.drop(LIMIT - 1).map { runCatching { savedGameSummary(it) }.getOrElse { "a damaged record" } }
        return if (dropped.isEmpty()) "Saved (Saved matches)" else "Saved (Saved matches); $LIMIT are kept, so the oldest went: ${dropped.joinToString("; ")}"
    }

    /** The saved matches, newest first; a damaged one is left out. */
    fun list(): List<Entry> = raw().mapNotNull { bytes ->
        // Rust writes the label (its ending, its plies in the singular or plural).
        runCatching { Entry(savedGameSummary(bytes), bytes) }.getOrNull()
    }

    private fun raw(): List<ByteArray> = store.getString(KEY)?.split(',')?.filter { it.isNotEmpty() }
        ?.mapNotNull { runCatching { Base64.getDecoder().decode(it) }.getOrNull() } ?: emptyList()

    companion object {
        private const val KEY = "match.records"
        /** The most matches kept. */
        const val LIMIT = 20

        /**
         * The PGN of a match's record [saved] ([MatchController.saved]) as of state [s]: this
         * player ([playerName]) and the other one named on their sides, the date of [date].
         */
        fun pgn(saved: ByteArray, s: MatchState, playerName: String, date: LocalDate): String =
            Game.load(saved).use { g ->
                // Rust names the players on their sides and writes PGN's date.
                g.toPgn(pgnRecordTags(g.kind(), "Banco match", date.toString(), s.yourColor ?: Color.RED, playerName, s.peerName ?: "Opponent"))
            }
    }
}
