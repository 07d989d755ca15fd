// Saving and sharing a networked game: the record Rust keeps of the match's game
// (Match.game(), with how it ended — a resignation, a loss on time, an agreed draw — which the
// moves do not show), kept among the player's saved matches in the key-value store, opened
// again like a shared record (GameController.openSaved), or shared as PGN with both players
// named on their sides.
package org.banco.shell

import org.banco.Color
import org.banco.Game
import org.banco.MatchState
import org.banco.SavedMatch
import org.banco.SavedMatches
import org.banco.pgnRecordTags
import org.banco.savedMatchesLimit
import java.time.LocalDate

/**
 * The matches the player saved, newest first (at most [LIMIT]), kept in [store]: Rust's
 * [SavedMatches] keeps the list (its format, the oldest dropped past [LIMIT], damaged records
 * left out), labels each record and writes the words; this only hands it the store.
 */
class MatchRecords(store: KeyValueStore) {
    private val records = SavedMatches(KeptStoreOf(store))

    /**
     * Keeps [saved] (a record from [MatchController.saved]) first; the oldest beyond [LIMIT]
     * go. The words to show (Rust's): "Saved", and which match made room if one did (never silently).
     */
    fun save(saved: ByteArray): String = records.save(saved)

    /** The saved matches, newest first, each with Rust's label; a damaged one is left out. */
    fun list(): List<SavedMatch> = records.list()

    companion object {
        /** The most matches kept (Rust's). */
        val LIMIT: Int get() = savedMatchesLimit().toInt()

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
