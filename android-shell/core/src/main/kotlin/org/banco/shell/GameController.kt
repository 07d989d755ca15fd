// A game against the computer: holds Rust's VsComputer, hops its states to the UI thread,
// keeps the game to continue in the key-value store, plays sounds, and shows the promotion
// picker when a tap asks for it. Every rule (turns, the computer's searches, undo by whole
// turns also while it thinks, hints, results, puzzles, levels) is in Rust.
package org.banco.shell

import org.banco.BancoException
import org.banco.ClaimableMove
import org.banco.GameKeeper
import org.banco.KeptKind
import org.banco.KeptSlot
import org.banco.PieceKind
import org.banco.PromotionChoice
import org.banco.Puzzle
import org.banco.PuzzleProgress
import org.banco.TapResult
import org.banco.VsComputer
import org.banco.VsListener
import org.banco.VsState

class GameController(
    private val ui: UiDispatcher,
    private val store: KeyValueStore,
    private val sound: SoundPlayer = SoundPlayer.SILENT,
    /** The computer's longest think per move. */
    private val movetimeMs: Long = 1000,
    /** Jieqi: seed of the reveals' draws (tests); null draws them from the system's randomness. */
    private val chanceSeed: Long? = null,
) {
    data class State(
        /** Rust's state, drawn as it is; null before the first game. */
        val vs: VsState? = null,
        /** A problem to show once (a refused action, a damaged saved game). */
        val message: String? = null,
        /** The computer is stopped while the screen is away ([pause]). */
        val paused: Boolean = false,
    ) {
        /** Jieqi: the last move's reveal in Rust's words ("cannon h2 revealed: rook"), until the next move. */
        val announcement: String? get() = vs?.lastMove?.announcement

        /** A pawn reaches the last rank: offer these pieces, then call [choosePromotion]. */
        val promotion: PromotionChoice? get() = vs?.board?.promotion

        /**
         * Chess: the player's moves a draw may be claimed with (FIDE 9.2.1.1), Rust's list:
         * offer "Claim a draw with Rd1" for each, then call [claimDrawWith]; empty otherwise.
         */
        val claimableWith: List<ClaimableMove> get() = vs?.claimableWith.orEmpty()
    }

    val state = Observable(State())

    private var vs: VsComputer? = null
    private var settings = Settings()
    private var puzzle = false
    private var cues = SoundCues()

    /**
     * The game to continue in [store], under Rust's policy: a damaged one is set aside, one
     * saved by a newer Banco is kept and never written over (its notice says to update the app).
     */
    private val kept = KeptSlot(KeptStoreOf(store), K_CONTINUE, KeptKind.GAME)

    /**
     * Rust's [GameKeeper]: when the game on screen becomes the game to continue (a new game
     * at the player's first move) and when it is written to [kept].
     */
    private val keeper = GameKeeper(kept)

    /**
     * A new game of [settings] (from [fen], a set-up position, if given); false if refused.
     * The game to continue stays until the player's first move in this one.
     */
    fun newGame(settings: Settings, fen: String? = null): Boolean = refused(
        start(settings, puzzle = false, keep = false) { l -> VsComputer(settings.vsSettings(movetimeMs, fen, chanceSeed), l) },
    )

    /** A puzzle: the player mates in time against the computer at full strength. */
    fun startPuzzle(p: Puzzle, settings: Settings): Boolean = refused(
        start(settings, puzzle = true, keep = false) { l -> VsComputer.puzzle(p, movetimeMs.toULong(), l) },
    )

    /** A try at the collection's puzzle [id] in Rust's puzzle mode, recorded in [progress]. */
    fun tryPuzzle(id: String, progress: PuzzleProgress, settings: Settings): Boolean = refused(
        start(settings, puzzle = true, keep = false) { l -> VsComputer.tryPuzzle(id, progress, movetimeMs.toULong(), l) },
    )

    /** The puzzle's notice (`vs.puzzle.notice`) was shown. */
    fun clearPuzzleNotice() = act { it.clearNotice() }

    /**
     * A game opened from a shared record ([GameShare.open]): the player goes on as [settings]
     * say; it becomes the game to continue at the player's first move.
     */
    fun openSaved(bytes: ByteArray, settings: Settings): Boolean = refused(
        start(settings, puzzle = false, keep = false) { l -> VsComputer.resume(bytes, settings.vsSettings(movetimeMs), l) },
    )

    /** The game on screen in the one save format, to share it ([GameShare.pgn]); null if none. */
    fun saved(): ByteArray? = vs?.let { runCatching { it.save() }.getOrNull() }

    /** True if there is a game to continue. */
    fun canContinue(): Boolean = kept.isPresent()

    /**
     * Continues the saved game; false (with a message) if there is none or it cannot be
     * opened. Rust's policy ([KeptSlot]) reads it: a damaged record is set aside; one saved
     * by a newer Banco is kept (the message says to update the app), and so is one refused
     * for any other reason.
     */
    fun continueGame(settings: Settings): Boolean {
        val read = try {
            kept.read()
        } catch (e: BancoException) {
            return cannotContinue(readable(e))
        }
        val bytes = read.bytes
        if (bytes == null) {
            read.notice?.let { state.value = state.value.copy(message = it) }
            return false
        }
        return resumeFrom(bytes, settings, fromStore = true)
    }

    /** Continues [bytes]; [fromStore]: they are the store's (kept to continue from the start). */
    private fun resumeFrom(bytes: ByteArray, settings: Settings, fromStore: Boolean): Boolean {
        val failure = start(settings, puzzle = false, keep = fromStore) { l ->
            VsComputer.resume(bytes, settings.vsSettings(movetimeMs, chanceSeed = chanceSeed), l)
        } ?: return true
        return cannotContinue(readable(failure))
    }

    /** False, saying why the game could not be continued. */
    private fun cannotContinue(why: String): Boolean {
        state.value = state.value.copy(message = "The saved game could not be continued: $why")
        return false
    }

    /** A tap on a screen cell (column from the left, row from the top): what it did, null if refused. */
    fun tap(column: Int, row: Int): TapResult? {
        if (column !in 0..255 || row !in 0..255) return null
        var result: TapResult? = null
        act { v ->
            result = v.tap(column.toUByte(), row.toUByte())
        }
        return result
    }

    /** The piece chosen in the promotion picker. */
    fun choosePromotion(kind: PieceKind) = act { it.choosePromotion(kind) }

    /** The promotion picker was dismissed: nothing is played and the pawn is deselected. */
    fun cancelPromotion() = act { it.clearSelection() }

    fun undo() = act { it.undo() }
    fun redo() = act { it.redo() }
    fun hint() = act { it.hint() }
    fun resign() = act { it.resign() }
    fun claimDraw() = act { it.claimDraw() }

    /**
     * Claims a draw with [claim]'s move, one of [State.claimableWith]: Rust plays the move and
     * ends the game drawn (undo takes both back); a refusal becomes the message, nothing played.
     */
    fun claimDrawWith(claim: ClaimableMove) = act { it.claimDrawWith(claim.mv.played) }

    fun flip() = act { it.flip() }

    /** The computer's level from now on, in this game (Rust refuses one outside [computerLevels]); kept with the game. */
    fun setLevel(level: Int) = act { it.setLevel(level.coerceIn(0, 255).toUByte()) }

    /**
     * Leaving the screen: the computer stops (its late answer is dropped); the game stays
     * saved (a new game without the player's move yet is held here, not in the store).
     */
    fun pause() {
        // A puzzle is short, a finished game has nothing to stop: both stay as they are.
        if (puzzle || state.value.vs?.outcome != null) return
        val v = vs ?: return
        keeper.pause(v)?.let { state.value = state.value.copy(message = it) }
        vs = null
        v.destroy()
        state.value = state.value.copy(paused = true)
    }

    /** Back on the screen: the paused game goes on (the computer thinks again if it was its turn). */
    fun resume() {
        if (!state.value.paused) return
        state.value = state.value.copy(paused = false)
        val held = keeper.takeHeld()
        if (held != null) resumeFrom(held, settings, fromStore = false) else continueGame(settings)
    }

    /** The message was shown. */
    fun clearMessage() {
        state.value = state.value.copy(message = null)
    }

    fun setSound(on: Boolean) {
        settings = settings.copy(sound = on)
    }

    /** Ends the game on screen (the computer stops; a game to continue stays saved). */
    fun close() {
        val v = vs ?: return
        vs = null
        v.destroy()
    }

    /**
     * Replaces the game by the one [open] makes, [keep]ing it to continue from the start (a
     * continued game) or from the player's first move; what Rust refused it with, if it did.
     */
    private fun start(settings: Settings, puzzle: Boolean, keep: Boolean, open: (VsListener) -> VsComputer): BancoException? {
        close()
        this.settings = settings
        this.puzzle = puzzle
        cues = SoundCues()
        val listener = Relay()
        val v = try {
            open(listener)
        } catch (e: BancoException) {
            return e
        }
        listener.owner = v
        vs = v
        val first = runCatching { v.state() }.getOrNull()
        val failed = runCatching { keeper.begin(v, keep, puzzle) }.getOrNull()
        state.value = State(vs = first, message = failed)
        return null
    }

    /** False, with the reason as the message, when a game was refused. */
    private fun refused(failure: BancoException?): Boolean {
        if (failure != null) state.value = state.value.copy(message = readable(failure))
        return failure == null
    }

    /** Runs an action; a refusal becomes the message. */
    private fun act(block: (VsComputer) -> Unit) {
        val v = vs ?: return
        try {
            block(v)
        } catch (e: BancoException) {
            state.value = state.value.copy(message = readable(e))
        }
    }

    /** A new state of the game on screen (states of a replaced game are dropped). */
    private fun show(owner: VsComputer, s: VsState) {
        if (owner !== vs) return
        val sounds = cues.next(s.lastMove, s.outcome != null)
        if (settings.sound) sounds.forEach(sound::play)
        // Rust's keeper writes the game to continue when what its save holds changed.
        val failed = keeper.observe(owner, s)
        state.value = state.value.copy(vs = s, message = failed ?: state.value.message)
    }

    /** VsListener: Rust's notifier thread; hop to the UI thread. */
    private inner class Relay : VsListener {
        @Volatile var owner: VsComputer? = null
        override fun onState(state: VsState) = ui.post { owner?.let { show(it, state) } }
    }

    companion object {
        /** Where the game to continue is kept (Base64); a damaged one is set aside at `game.continue.damaged`. */
        const val K_CONTINUE = "game.continue"
    }
}
