// The puzzle screen: Banco's bundled collection by tier, one puzzle at a time on the game
// screen's controller, and the player's progress kept in the key-value store. Rust has every
// rule: the proven mates and their tiers, the computer's longest defence, when a puzzle is
// solved or a move lets the king escape, the hints (the proven mate's next move), the progress
// record. This controller records what happened and takes a wrong move back with a word.
package org.banco.shell

import org.banco.BancoException
import org.banco.CollectionPuzzle
import org.banco.PuzzleProgress
import org.banco.PuzzleRecord
import org.banco.PuzzleTier
import org.banco.PuzzleTierInfo
import org.banco.collectionPuzzle
import org.banco.collectionPuzzles
import org.banco.puzzleTiers
import java.util.Base64

class PuzzleController(
    private val game: GameController,
    private val store: KeyValueStore,
) {
    /** A tier as the list shows it. */
    data class TierRow(val info: PuzzleTierInfo, val solved: Int)

    data class State(
        /** The puzzle on the board; null while choosing. */
        val current: CollectionPuzzle? = null,
        /** It was solved in this try. */
        val solved: Boolean = false,
        /** Wrong moves taken back in this try. */
        val wrongMoves: Int = 0,
        /** A word to show once (a wrong move taken back, a damaged record). */
        val message: String? = null,
    )

    val state = Observable(State())

    private val progress: PuzzleProgress = load()
    /** A failed try is being taken back (one undo per wrong move). */
    private var retracting = false
    /** The number of moves on the board when the last hint was counted. */
    private var hintedAt = -1
    private var unobserve: (() -> Unit)? = null

    /** The tiers, easiest first, with how many of each the player has solved. */
    fun tiers(): List<TierRow> {
        val solved = progress.tiers().associate { it.tier to it.solved.toInt() }
        return puzzleTiers().map { TierRow(it, solved[it.tier] ?: 0) }
    }

    /** The puzzles of [tier], easiest first, with what each took so far. */
    fun puzzles(tier: PuzzleTier): List<Pair<CollectionPuzzle, PuzzleRecord>> =
        collectionPuzzles(tier).map { it to progress.record(it.id) }

    /** What puzzle [id] took so far (all zero if never tried). */
    fun record(id: String): PuzzleRecord = progress.record(id)

    /** Starts puzzle [id] on the game screen's controller; false (with a message) if refused. */
    fun start(id: String, settings: Settings): Boolean {
        val p = collectionPuzzle(id)
        if (p == null) {
            say("There is no puzzle $id")
            return false
        }
        if (unobserve == null) unobserve = game.state.observe(::onGame)
        retracting = false
        hintedAt = -1
        state.value = State(current = p)
        if (!game.startPuzzle(p.puzzle, settings)) {
            state.value = State(message = game.state.value.message)
            return false
        }
        progress.attempted(p.id)
        save()
        return true
    }

    /** The first puzzle not solved yet, easiest first; false when every one is solved. */
    fun startNext(settings: Settings): Boolean {
        val next = progress.nextUnsolved()
        if (next == null) {
            say("Every puzzle is solved!")
            return false
        }
        return start(next.id, settings)
    }

    /** A hint: Rust shows the mate's next move on the board (the record counts it). */
    fun hint() {
        if (state.value.current == null || game.state.value.vs?.yourTurn != true) return
        game.hint()
    }

    /** The message was shown. */
    fun clearMessage() {
        state.value = state.value.copy(message = null)
    }

    /** Leaving the puzzle screen (the game screen's controller stops its computer). */
    fun close() {
        unobserve?.invoke()
        unobserve = null
        game.close()
        state.value = State()
    }

    /** Every state of the board: a solve is recorded, a failed try is taken back. */
    private fun onGame(s: GameController.State) {
        val p = state.value.current ?: return
        val vs = s.vs ?: return
        val status = vs.puzzle ?: return
        if (status.name != p.puzzle.name) return
        // A hint asked for here or on the game screen counts once per position.
        if (vs.hint != null && hintedAt != vs.moves.size) {
            hintedAt = vs.moves.size
            progress.hintUsed(p.id)
            save()
        }
        if (status.solved && !state.value.solved) {
            progress.solved(p.id)
            save()
            state.value = state.value.copy(solved = true, message = "Solved: ${p.puzzle.name}")
        } else if (status.failed && !retracting && !vs.thinking) {
            retracting = true
            state.value = state.value.copy(
                wrongMoves = state.value.wrongMoves + 1,
                message = "Not that move: the king escapes after ${vs.lastMove?.text ?: "the reply"}. Try another.",
            )
            game.undo()
        } else if (!status.failed) {
            retracting = false
        }
    }

    private fun say(text: String) {
        state.value = state.value.copy(message = text)
    }

    private fun save() {
        val bytes = runCatching { progress.save() }.getOrNull() ?: return
        store.putString(K_PROGRESS, Base64.getEncoder().encodeToString(bytes))
    }

    /** The stored progress; a damaged record starts afresh (and says so). */
    private fun load(): PuzzleProgress {
        val text = store.getString(K_PROGRESS) ?: return PuzzleProgress()
        return try {
            PuzzleProgress.load(Base64.getDecoder().decode(text))
        } catch (e: BancoException) {
            state.value = state.value.copy(message = "Your puzzle record could not be read and starts afresh: ${readable(e)}")
            PuzzleProgress()
        } catch (e: IllegalArgumentException) {
            state.value = state.value.copy(message = "Your puzzle record could not be read and starts afresh")
            PuzzleProgress()
        }
    }

    companion object {
        const val K_PROGRESS = "puzzles.progress"
    }
}
