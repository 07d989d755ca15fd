// The puzzle screen: Banco's bundled collection by tier, one puzzle at a time on the game
// screen's controller, and the player's record kept in the key-value store. Rust has every
// rule (banco-app's puzzle mode): the proven mates and their tiers, the computer's longest
// defence, a wrong move taken back and counted, hints counted once per position, the record
// updated by the try itself and written to the store ([PuzzleProgress.openKept]), and the notices' words
// ([puzzleNoticeText]). This controller forwards.
package org.banco.shell

import org.banco.CollectionPuzzle
import org.banco.GameKind
import org.banco.PuzzleNotice
import org.banco.PuzzleProgress
import org.banco.PuzzleRecord
import org.banco.PuzzleStatus
import org.banco.PuzzleTier
import org.banco.PuzzleTierInfo
import org.banco.collectionPuzzle
import org.banco.collectionPuzzlesOf
import org.banco.puzzleGames
import org.banco.puzzleNoticeText
import org.banco.puzzleTiersOf

class PuzzleController(
    private val game: GameController,
    store: KeyValueStore,
) {
    /** A tier as the list shows it. */
    data class TierRow(val info: PuzzleTierInfo, val solved: Int)

    data class State(
        /** The puzzle on the board; null while choosing. */
        val current: CollectionPuzzle? = null,
        /** Rust's notice to show once (a wrong move taken back, solved, a damaged record). */
        val notice: PuzzleNotice? = null,
        /** A refused start, to show once. */
        val message: String? = null,
    )

    val state = Observable(State())

    /**
     * The record in the store at [K_PROGRESS], read and written by Rust: a record it could
     * not read starts afresh, its text set aside first at [K_PROGRESS_DAMAGED] (as the
     * CLI's `.damaged` copy); a newer Banco's is never written over.
     */
    private val progress = PuzzleProgress.openKept(KeptStoreOf(store), K_PROGRESS)
    private var unobserve: (() -> Unit)? = null
    /** The notice shown last, with the wrong moves then: a late state repeating it is not shown twice. */
    private var shown: Pair<PuzzleNotice, UInt>? = null

    init {
        state.value = State(notice = progress.takeNotice())
    }

    /** The games with a puzzle collection (Rust's: xiangqi and chess), in Rust's order. */
    fun games(): List<GameKind> = puzzleGames()

    /** The tiers of [kind]'s collection, easiest first, with how many of each the player has solved. */
    fun tiers(kind: GameKind = GameKind.XIANGQI): List<TierRow> {
        val solved = progress.tiersOf(kind).associate { it.tier to it.solved.toInt() }
        return puzzleTiersOf(kind).map { TierRow(it, solved[it.tier] ?: 0) }
    }

    /** The puzzles of [kind]'s [tier], easiest first, with what each took so far. */
    fun puzzles(tier: PuzzleTier, kind: GameKind = GameKind.XIANGQI): List<Pair<CollectionPuzzle, PuzzleRecord>> =
        collectionPuzzlesOf(kind, tier).map { it to progress.record(it.id) }

    /** What puzzle [id] took so far (all zero if never tried). */
    fun record(id: String): PuzzleRecord = progress.record(id)

    /** Starts puzzle [id] on the game screen's controller; false (with a message) if refused. */
    fun start(id: String, settings: Settings): Boolean {
        val p = collectionPuzzle(id) ?: return refuse("There is no puzzle $id")
        if (unobserve == null) unobserve = game.state.observe { s -> s.vs?.puzzle?.let(::show) }
        shown = null
        state.value = State(current = p)
        if (!game.tryPuzzle(id, progress, settings)) return refuse(game.state.value.message ?: "The puzzle could not start")
        return true
    }

    /** The first puzzle of [kind] not solved yet, easiest first; false when every one is solved. */
    fun startNext(settings: Settings, kind: GameKind = GameKind.XIANGQI): Boolean {
        val next = progress.nextUnsolvedOf(kind) ?: return refuse("Every ${kind.label} puzzle is solved!")
        return start(next.id, settings)
    }

    /**
     * After a puzzle (the "Next puzzle" of the game screen): the first unsolved puzzle of the
     * same game; never an ordinary game, so the game to continue stays as it was.
     */
    fun next(settings: Settings): Boolean = startNext(settings, state.value.current?.puzzle?.kind ?: GameKind.XIANGQI)

    /** A puzzle of the collection is on the game screen's controller. */
    val playing: Boolean get() = state.value.current != null && game.state.value.vs?.puzzle != null

    /** A hint: Rust shows the mate's next move on the board and counts it. */
    fun hint() = game.hint()

    /** The notice (or message) was shown. */
    fun clearMessage() {
        if (state.value.notice != null && game.state.value.vs?.puzzle?.notice != null) game.clearPuzzleNotice()
        state.value = state.value.copy(notice = null, message = null)
    }

    /** Leaving the puzzle screen (the game screen's controller stops its computer). */
    fun close() {
        unobserve?.invoke()
        unobserve = null
        game.close()
        state.value = State()
    }

    private fun show(status: PuzzleStatus) {
        val notice = status.notice ?: return
        if (state.value.current?.id != status.id || shown == notice to status.wrongMoves) return
        shown = notice to status.wrongMoves
        state.value = state.value.copy(notice = notice)
    }

    private fun refuse(text: String): Boolean {
        state.value = state.value.copy(current = null, message = text)
        return false
    }

    companion object {
        const val K_PROGRESS = "puzzles.progress"

        /** A record Rust could not read, set aside (by Rust) before it is written over. */
        const val K_PROGRESS_DAMAGED = "puzzles.progress.damaged"
    }
}

/** Rust's puzzle notice in Rust's words ("Not that move: … Try another.", "Solved! Clean."). */
fun PuzzleNotice.words(): String = puzzleNoticeText(this)
