// Lines (Color Lines) on the phone: a solo game against the clock through Rust's LinesGame,
// and the ball's walk along its path ([BallRun]) that the view paints frame by frame, shared
// with the race screen. Every rule (taps picking a ball then its target, paths, lines,
// scores, the balls that land, undo, hints, the best scores, the saved game) is in Rust;
// this keeps the time limit and storage, and runs the hint's thinking off the UI thread (a
// late hint, for a position left since, is dropped).
package org.banco.shell

import org.banco.BancoException
import org.banco.KeptKind
import org.banco.KeptSlot
import org.banco.LinesException
import org.banco.LinesGame
import org.banco.LinesHint
import org.banco.LinesHintJob
import org.banco.LinesKeeper
import org.banco.LinesSettings
import org.banco.LinesTap
import org.banco.LinesTurn
import org.banco.LinesUndo
import org.banco.LinesView
import org.banco.LinesBestScore
import org.banco.RaceBoard
import org.banco.linesBoardSize

/** The cells of a Lines board, solo or race (Rust's size: 0 until 81, index rank × side + file). */
val linesCells: IntRange get() = 0 until linesBoardSize().cells.toInt()

/** Cells along a side of a Lines board (Rust's: 9). */
val linesSide: Int get() = linesBoardSize().side.toInt()

/**
 * With Lines 98's preview: each announced ball as (cell, colour), its cell where it will
 * land, to draw as a small ball of its colour there; empty in a classic game. [spots] and
 * [colors] are Rust's `nextSpots` and `nextColors` (the same order).
 */
fun spotBalls(spots: ByteArray, colors: ByteArray): List<Pair<Int, Int>> =
    spots.zip(colors) { cell, color -> (cell.toInt() and 0xFF) to (color.toInt() and 0xFF) }

/** The spots of this solo board (see [spotBalls]). */
val LinesView.spotBalls: List<Pair<Int, Int>> get() = spotBalls(nextSpots, nextColors)

/** The spots of this race board, in a race with the preview (see [spotBalls]). */
val RaceBoard.spotBalls: List<Pair<Int, Int>> get() = spotBalls(nextSpots, nextColors)

/**
 * The moved ball's walk: [path] is every cell it passes, start and target included, in
 * order; [walk] is the board Rust gives to draw meanwhile ([LinesTurn.walkCells]: before the
 * turn, the ball lifted off its start). The view draws [cellsAt] and the ball on [cellAt]
 * of the time since the move.
 */
data class BallRun(val path: List<Int>, val color: Int, val walk: List<Int> = emptyList(), val stepMs: Long = STEP_MS) {
    /** The walk of [turn], as Rust reports it. */
    constructor(turn: LinesTurn) : this(turn.path.map { it.toInt() }, turn.color.toInt(), turn.walkCells.map { it.toInt() })

    /** How long the walk takes. */
    val durationMs: Long get() = stepMs * (path.size - 1).coerceAtLeast(0)

    /** The cell the ball is on [elapsedMs] after the move (its target once done). */
    fun cellAt(elapsedMs: Long): Int = path[(elapsedMs.coerceAtLeast(0) / stepMs).toInt().coerceAtMost(path.size - 1)]

    fun isDone(elapsedMs: Long): Boolean = elapsedMs >= durationMs

    /** The cells to draw [elapsedMs] after the move: Rust's [walk] while the ball walks, then [after] (the board now). */
    fun cellsAt(elapsedMs: Long, after: List<Int>): List<Int> = if (isDone(elapsedMs) || walk.isEmpty()) after else walk

    companion object {
        const val STEP_MS = 45L
    }
}

/**
 * A solo game of Lines; like every controller, used on the UI thread only (its calls are
 * quick; the hint thinks on [background] and comes back through [ui]).
 */
class LinesController(
    private val ui: UiDispatcher,
    private val store: KeyValueStore,
    /** Milliseconds of a monotonic clock (passed in: the tests run their own). */
    private val now: () -> Long = { System.nanoTime() / 1_000_000 },
    /** Runs the hint's thinking off the UI thread (a plain thread unless a test says otherwise). */
    private val background: (() -> Unit) -> Unit = { block -> Thread(block, "banco-lines-hint").apply { isDaemon = true }.start() },
) {
    data class State(
        /** Rust's board, drawn as it is; null before the first game. */
        val view: LinesView? = null,
        /** The picked ball, ringed. */
        val selected: Int? = null,
        /** Where the picked ball can go (lightly marked). */
        val reachable: List<Int> = emptyList(),
        /** The last move's walk, to animate; the board already shows the turn's end. */
        val run: BallRun? = null,
        /** The last turn (cleared lines, landed balls, points) for the effects. */
        val lastTurn: LinesTurn? = null,
        /** The suggestion to show (the move and why), for the position on screen. */
        val hint: LinesHint? = null,
        /** The hint is being thought about (off the UI thread): show it, keep the Hint button off. */
        val hinting: Boolean = false,
        /** Time left against the clock; null without a limit. */
        val timeLeftMs: Long? = null,
        /** The time is up: the game is over at this score. */
        val timeUp: Boolean = false,
        /** The best scores of this game's kind (`view.bestKind.label` names it), best first: each row's rank, score, turns, date and text (Rust's). */
        val best: List<LinesBestScore> = emptyList(),
        /** The rank the last game took in the best scores (0 = best). */
        val rank: Int? = null,
        /** A problem to show once (a refused move, a damaged saved game). */
        val message: String? = null,
    ) {
        val over: Boolean get() = timeUp || view?.gameOver == true

        /** The Undo button is on: Rust says a turn can be taken back now (as the settings allow, the time not up). */
        val canUndo: Boolean get() = view?.canUndo == true

        /** The Redo button is on: a turn taken back can be played again now. */
        val canRedo: Boolean get() = view?.canRedo == true

        /** The Hint button is on: a game goes on and no hint is being thought about. */
        val canHint: Boolean get() = view != null && !over && !hinting
    }

    val state = Observable(State())
    private var game: LinesGame? = null

    /** The game to continue in the store, under Rust's policy (see [continueGame]). */
    private val keptGame = KeptSlot(KeptStoreOf(store), K_CONTINUE, KeptKind.LINES_GAME)

    /**
     * Rust's [LinesKeeper]: when the game on screen becomes the game to continue (a new game
     * at its first turn, so that one started by mistake and left at once does not replace
     * the game kept) and when it is written to [keptGame].
     */
    private val keeper = LinesKeeper(keptGame)

    /**
     * The best scores kept between games, under Rust's policy: a damaged table is set aside
     * (at [K_BEST_DAMAGED]) before a new one replaces it; a newer Banco's is never written
     * over, and this session's scores are not kept.
     */
    private val keptBest = KeptSlot(KeptStoreOf(store), K_BEST, KeptKind.LINES_BEST_SCORES)

    /** Why the kept best scores did not load (Rust's words), until the message is shown ([clearMessage]). */
    private var notice: String? = null

    init {
        // The best scores kept between games.
        val best = try {
            keptBest.read()
        } catch (e: BancoException) {
            null
        }
        best?.bytes?.let { bytes -> runCatching { scratch().loadBestScores(bytes) } }
        notice = best?.notice
        notice?.let { state.value = State(message = it) }
    }

    /** The one game object, made on first use: its best scores and hint strength stay through new and continued games. */
    private fun scratch(): LinesGame = game ?: LinesGame(LinesSettings(5u, LinesUndo.LAST_TURN), null).also { game = it }

    /** How hard the hint thinks (playouts a move: one of [Settings.LINES_HINTS]); Rust's, 100 until set. */
    val hintPlayouts: Int get() = scratch().hintPlayouts().toInt()

    /**
     * Sets how hard the hint thinks, for this game and the next ones (a settings screen's
     * choice, [Settings.linesHintPlayouts]); false with a message if Rust refuses it (more
     * than it allows), the strength unchanged.
     */
    fun setHintPlayouts(playouts: Int): Boolean {
        if (playouts < 0) return false.also { state.value = state.value.copy(message = "A hint cannot think $playouts playouts a move") }
        try {
            scratch().setHintPlayouts(playouts.toUInt())
        } catch (e: LinesException) {
            state.value = state.value.copy(message = readable(e))
            return false
        }
        return true
    }

    /**
     * A new game with the Lines options of [settings] (start balls, undo, time limit — 0:
     * untimed — the preview, and the hint's strength); [seed] repeats a game, and [seedKnown] keeps it out of the
     * best scores (see the other [newGame]). False, with a message, if refused.
     */
    fun newGame(settings: Settings, seed: Long? = null, seedKnown: Boolean = false): Boolean =
        setHintPlayouts(settings.linesHintPlayouts) &&
            newGame(
                startBalls = settings.linesStartBalls,
                undo = settings.linesUndo,
                timeLimitS = settings.linesTimeLimitS,
                seed = seed,
                preview = settings.linesPreview,
                seedKnown = seedKnown,
            )

    /**
     * A new game with [startBalls] (3 or 5) and [undo], against the clock if [timeLimitS] > 0,
     * with Lines 98's preview if [preview] (the view's `nextSpots`, drawn with [spotBalls]);
     * [seed] repeats a game (tests, a shared challenge). A game whose seed the player may know
     * — a shared challenge, a replay of a seed — passes [seedKnown]: its balls can be known in
     * advance, so it never enters the best scores (Rust's `markSeedKnown`, kept in its save
     * and shown as the view's `seedKnown`). False, with a message, if refused.
     */
    fun newGame(
        startBalls: Int = 5,
        undo: LinesUndo = LinesUndo.LAST_TURN,
        timeLimitS: Int = 0,
        seed: Long? = null,
        preview: Boolean = false,
        seedKnown: Boolean = false,
    ): Boolean {
        val settings = LinesSettings(startBalls.coerceIn(0, 255).toUByte(), undo, preview)
        try {
            scratch().newGame(settings, seed?.toULong())
        } catch (e: LinesException) {
            state.value = state.value.copy(message = readable(e))
            return false
        }
        if (seedKnown) game!!.markSeedKnown()
        // The clock is Rust's (time passed in): it ends the game, and the save keeps it.
        if (timeLimitS > 0) game!!.startClock((timeLimitS * 1000L).toULong(), now().toULong())
        keeper.begin(false)
        state.value = State(best = game!!.bestScoresOfGame(), message = notice)
        refresh(run = null, turn = null)
        return true
    }

    /** True if a game was kept to continue. */
    fun canContinue(): Boolean = keptGame.isPresent()

    /**
     * Continues the kept game, against the clock with the time it had left when it was kept
     * (the clock stands still while the game is off screen); false with a message if it
     * cannot be opened. Rust's policy ([KeptSlot]) reads it: a damaged game is set aside;
     * one saved by a newer Banco is kept (the message says to update the app).
     */
    fun continueGame(): Boolean {
        val failure = try {
            val read = keptGame.read()
            val bytes = read.bytes
            if (bytes == null) {
                read.notice?.let { state.value = state.value.copy(message = it) }
                return false
            }
            scratch().restore(bytes)
            null
        } catch (e: BancoException) {
            e
        } catch (e: LinesException) {
            e
        }
        if (failure != null) {
            state.value = state.value.copy(message = "The saved game could not be continued: ${readable(failure)}")
            return false
        }
        keeper.begin(true)
        scratch().resumeClock(now().toULong())
        state.value = state.value.copy(best = scratch().bestScoresOfGame(), rank = null)
        refresh(run = null, turn = null)
        return true
    }

    /**
     * A tap on board cell [cell] (index rank × [linesSide] + file from a1): Rust picks the ball, picks
     * another, puts it down or moves it (the turn, returned); a cell out of reach is the message.
     */
    fun tap(cell: Int): LinesTurn? {
        val g = game ?: return null
        tick()
        if (state.value.over || cell !in linesCells) return null
        return when (val t = g.tap(cell.toUByte())) {
            is LinesTap.Moved -> {
                refresh(BallRun(t.turn), t.turn)
                t.turn
            }
            is LinesTap.Selected -> {
                state.value = state.value.copy(selected = t.cell.toInt(), reachable = t.reachable.map { it.toInt() })
                null
            }
            is LinesTap.Unreachable -> {
                state.value = state.value.copy(message = t.message)
                null
            }
            LinesTap.Deselected, LinesTap.Ignored -> {
                state.value = state.value.copy(selected = null, reachable = emptyList())
                null
            }
        }
    }

    /** Plays [from] → [to]; a refusal (no path, …) becomes the message and keeps the pick. */
    fun play(from: Int, to: Int): LinesTurn? {
        val g = game ?: return null
        // The clock first: a move after the time ran out is refused, not counted.
        tick()
        if (state.value.over || from !in linesCells || to !in linesCells) return null
        val turn = try {
            g.play(from.toUByte(), to.toUByte())
        } catch (e: LinesException) {
            state.value = state.value.copy(message = readable(e))
            return null
        }
        refresh(BallRun(turn), turn)
        return turn
    }

    /**
     * Takes the last turn back (as the settings allow). Taking back the end of a full board
     * takes its entry out of the best scores too (Rust does; the kept table follows).
     */
    fun undo() {
        val g = game ?: return
        if (state.value.timeUp) return
        val ended = state.value.view?.gameOver == true
        try {
            g.undo()
        } catch (e: LinesException) {
            state.value = state.value.copy(message = readable(e))
            return
        }
        if (ended) {
            keepBest(g)
            state.value = state.value.copy(best = g.bestScoresOfGame(), rank = null)
        }
        refresh(run = null, turn = null)
    }

    /** Plays the last turn taken back again (the same balls land); null when there is none. */
    fun redo(): LinesTurn? {
        val g = game ?: return null
        if (state.value.timeUp) return null
        val turn = g.redo() ?: return null
        refresh(BallRun(turn), turn)
        return turn
    }

    /**
     * Asks for the computer's suggestion and its reason: Rust thinks on [background]
     * ([State.hinting] meanwhile) and the hint shows in [State.hint] — unless the position
     * changed since (a move, undo, redo, new game, continue or the time up), when it is dropped.
     */
    fun hint() {
        val g = game ?: return
        if (!state.value.canHint) return
        val job: LinesHintJob = g.hintJob() ?: return
        // Asking counts (Rust's): the view, the kind's table and the kept game say so now.
        state.value = state.value.copy(view = g.view(), best = g.bestScoresOfGame(), hinting = true, hint = null)
        keep(g)
        background {
            val h = job.run()
            ui.post {
                // A late answer, for a position left since (Rust's judgement): dropped.
                val current = game?.hintIsCurrent(job) == true
                job.destroy()
                if (current) state.value = state.value.copy(hint = h, hinting = false)
            }
        }
    }

    /**
     * The app went to the background (a call, another app): the clock stands still and the
     * game is kept, so the time away is not lost. [resume] starts it again.
     */
    fun pause() {
        val g = game ?: return
        if (state.value.over) return
        g.pauseClock(now().toULong())
        keeper.pause(g)?.let { state.value = state.value.copy(message = it) }
    }

    /** The app is back in the foreground: the clock runs again from the time it had. */
    fun resume() {
        val g = game ?: return
        if (state.value.over) return
        g.resumeClock(now().toULong())
        refresh(run = null, turn = null)
    }

    /** Runs the clock: call about once a second while the game screen shows. */
    fun tick() {
        val g = game ?: return
        val left = g.tick(now().toULong())?.toLong() ?: return
        if (left == 0L && !state.value.timeUp) {
            // Rust ended the game where it stands; its score then enters the best scores.
            state.value = state.value.copy(
                view = g.view(), timeLeftMs = 0, timeUp = true, selected = null, reachable = emptyList(), hint = null,
                hinting = false,
            )
            finish()
        } else if (!state.value.over) {
            // Kept with each move and on pause, not every second.
            state.value = state.value.copy(timeLeftMs = left)
        }
    }

    /** The message was shown. */
    fun clearMessage() {
        if (state.value.message == notice) notice = null
        state.value = state.value.copy(message = null)
    }

    private fun refresh(run: BallRun?, turn: LinesTurn?) {
        val g = game ?: return
        val left = g.tick(now().toULong())?.toLong()
        val view = g.view()
        state.value = state.value.copy(
            view = view, selected = null, reachable = emptyList(), run = run, lastTurn = turn, hint = null,
            hinting = false, timeLeftMs = left, timeUp = left == 0L,
        )
        if (view.gameOver) finish() else keep(g)
    }

    /** Rust's keeper writes the game (its clock's time left with it) once it is the game to continue. */
    private fun keep(g: LinesGame) {
        keeper.observe(g)?.let { state.value = state.value.copy(message = it) }
    }

    /** The game ended (board full or time up): into the best scores, nothing to continue (Rust's keeper empties it). */
    private fun finish() {
        val g = game ?: return
        keep(g)
        val rank = g.recordResult(java.time.LocalDate.now().toString())?.toInt()
        keepBest(g)
        state.value = state.value.copy(best = g.bestScoresOfGame(), rank = rank ?: state.value.rank)
    }

    /** Writes the best scores (Rust's policy refuses when the kept table is a newer Banco's). */
    private fun keepBest(g: LinesGame) {
        runCatching { g.bestScoresBytes() }.getOrNull()?.let { runCatching { keptBest.write(it) } }
    }

    companion object {
        const val K_CONTINUE = "lines.continue"
        const val K_BEST = "lines.best"

        /** A kept best-scores table that did not decode, set aside (by Rust's policy) before a new one is kept. */
        const val K_BEST_DAMAGED = "lines.best.damaged"
    }
}
