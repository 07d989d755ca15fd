// The position editor screen (cờ thế set-up): holds Rust's Editor and the brush chosen from
// the palette. Every rule is in Rust — which pieces a game has, where they may stand, the
// live list of problems, the FEN, the mate search of "solve from here". This controller only
// keeps the brush, hops the slow solve and picture off the UI thread and back, and hands a legal position
// to the game screen ("play from here").
package org.banco.shell

import org.banco.BancoException
import org.banco.CapturedCount
import org.banco.Color
import org.banco.Editor
import org.banco.EditorSolution
import org.banco.EditorTap
import org.banco.EditorView
import org.banco.Game
import org.banco.GameKind
import org.banco.Piece
import org.banco.PieceKind
import org.banco.editorGames

class EditorController(
    private val ui: UiDispatcher,
    /** Runs "solve from here" and a picture's PNG off the UI thread (a plain thread unless a test says otherwise). */
    private val background: (() -> Unit) -> Unit = { block -> Thread(block, "banco-solve").apply { isDaemon = true }.start() },
) {
    /** Where the editor starts from. */
    enum class From { EMPTY, START }

    data class State(
        /** Everything to draw, from Rust; null before [open]. */
        val view: EditorView? = null,
        /** The piece a tap places; null: a tap removes. */
        val brush: Piece? = null,
        /** "Solve from here" is looking for a mate. */
        val solving: Boolean = false,
        /** What the last solve found, for the position it was asked for. */
        val solution: EditorSolution? = null,
        /** A refused action, to show once. */
        val message: String? = null,
    ) {
        /** The position can be played and solved (Rust lists no problem). */
        val playable: Boolean get() = view != null && view.problems.isEmpty()

        /**
         * Jieqi: [color]'s pool of unrevealed pieces as Rust derives it from the board and the
         * pieces marked captured, as a shelf ("Red: 14 hidden  俥×1 …"); null in other games.
         */
        fun pool(color: Color): PoolShelf? = view?.let { v -> v.pools.firstOrNull { it.color == color }?.let { shelfOf(it) } }

        /** Jieqi: [color]'s pieces marked captured face up, a counter per kind (empty in other games). */
        fun captured(color: Color): List<CapturedCount> = view?.captured?.filter { it.piece.color == color }.orEmpty()
    }

    val state = Observable(State())

    private var editor: Editor? = null

    /** An editor of [kind] on an empty board or the start position; false if refused. */
    fun open(kind: GameKind, from: From = From.START): Boolean = replace {
        if (from == From.EMPTY) Editor.empty(kind) else Editor.start(kind)
    }

    /** An editor on the position of a game (the game on screen, an opened record). */
    fun openGame(game: Game): Boolean = replace { Editor.fromGame(game) }

    /**
     * "Set up from this position": an editor on the current position of the game saved as
     * [saved] ([GameController.saved], [MatchController.saved]): Rust's Editor.fromGame.
     */
    fun openSaved(saved: ByteArray): Boolean = replace { Game.load(saved).use { Editor.fromGame(it) } }

    /** An editor on a FEN of [kind] (it may be illegal: its problems are listed). */
    fun openFen(kind: GameKind, fen: String): Boolean = replace { Editor.fromFen(kind, fen) }

    /** The brush for the next taps: a piece of the palette, or null to remove. */
    fun chooseBrush(piece: Piece?) {
        val palette = state.value.view?.palette ?: return
        if (piece != null && piece !in palette) return
        state.value = state.value.copy(brush = piece)
    }

    /** A tap on a screen cell: places the brush's piece (or removes it when it stands there). */
    fun tap(column: Int, row: Int): EditorTap? {
        if (column !in 0..255 || row !in 0..255) return null
        val brush = state.value.brush
        return act { it.tap(column.toUByte(), row.toUByte(), brush?.color, brush?.kind, brush?.faceDown ?: false) }
    }

    /** Puts a piece of the palette (a jieqi face-down one too) on the square named [square] ("e1"). */
    fun place(square: String, piece: Piece) {
        act { ed -> squareOf(ed, square)?.let { ed.place(it, piece.color, piece.kind, piece.faceDown) } }
    }

    /** Empties the square named [square]. */
    fun remove(square: String) {
        act { ed -> squareOf(ed, square)?.let { ed.remove(it) } }
    }

    /**
     * Jieqi: marks [count] of [color]'s pieces of [kind] captured face up, which takes them
     * out of its pool (Rust refuses the king, more than a side has, and other games).
     */
    fun setCaptured(color: Color, kind: PieceKind, count: Int) {
        if (count !in 0..255) return
        act { it.setCaptured(color, kind, count.toUByte()) }
    }

    /** Jieqi: the − (by -1) or + (by 1) of a captured face-up counter of [State.captured]; none below zero. */
    fun changeCaptured(counter: CapturedCount, by: Int) =
        setCaptured(counter.piece.color, counter.piece.kind, counter.count.toInt() + by)

    fun clear() = act { it.clear() }
    fun resetToStart() = act { it.resetToStart() }
    fun flip() = act { it.flip() }
    fun setSideToMove(side: Color) = act { it.setSideToMove(side) }

    /** Chess castling: allows or forbids one ([kingSide] false: queen side). */
    fun setCastling(color: Color, kingSide: Boolean, allowed: Boolean) = act { it.setCastling(color, kingSide, allowed) }

    /**
     * Chess en passant: the square a pawn just passed over ("e3"), or null (or blank) for
     * none; a square no pawn passed over is among Rust's problems, and xiangqi refuses any.
     */
    fun setEnPassant(square: String?) {
        val name = square?.trim()?.takeIf { it.isNotEmpty() }
        act { ed -> if (name == null) ed.setEnPassant(null) else squareOf(ed, name)?.let { ed.setEnPassant(it) } }
    }

    /**
     * Solve from here: a forced mate for the side to move within [maxMate] moves, looked for
     * off the UI thread; [State.solution] shows it (dropped if the board changed meanwhile).
     */
    fun solve(maxMate: Int = 5) {
        val ed = editor ?: return
        val fen = state.value.view?.fen ?: return
        if (state.value.solving) return
        state.value = state.value.copy(solving = true, solution = null)
        background {
            val found = try {
                Result.success(ed.solve(maxMate.coerceIn(0, 255).toUInt()))
            } catch (e: BancoException) {
                Result.failure(e)
            }
            ui.post {
                if (editor !== ed) return@post
                val now = state.value
                val stale = now.view?.fen != fen
                state.value = now.copy(
                    solving = false,
                    solution = found.getOrNull()?.takeIf { !stale },
                    message = found.exceptionOrNull()?.let(::readable) ?: now.message,
                )
            }
        }
    }

    /**
     * Play from here against the computer: the player takes the side to move, at the level of
     * [settings]. False (with every problem as the message) while the position is illegal.
     */
    fun playFromHere(game: GameController, settings: Settings): Boolean {
        val ed = editor ?: return false
        val (kind, fen, side) = try {
            ed.toGame().use { g -> Triple(g.kind(), g.fen(), g.status().sideToMove) }
        } catch (e: BancoException) {
            state.value = state.value.copy(message = readable(e))
            return false
        }
        return game.newGame(settings.copy(game = kind, color = side), fen)
    }

    /** The board as it stands (legal or not), as a picture to share. */
    fun picture(scale: Float = 2f): Picture? = act { ed -> Picture.ofSvg(ed.renderSvg(), scale, "position") }

    /**
     * The board as it stands, as a picture to share, its PNG drawn off the UI thread: [done]
     * on the UI thread (a failure becomes the message).
     */
    fun pictureLater(scale: Float = 2f, done: (Picture) -> Unit) {
        val svg = act { it.renderSvg() } ?: return
        background {
            val made = runCatching { Picture.ofSvg(svg, scale, "position") }
            ui.post {
                made.onSuccess(done).onFailure { state.value = state.value.copy(message = readable(it)) }
            }
        }
    }

    /** The message was shown. */
    fun clearMessage() {
        state.value = state.value.copy(message = null)
    }

    /** Leaving the screen: a solve still running is stopped. */
    fun close() {
        editor?.let { ed -> runCatching { ed.stopSolve() } }
        editor?.destroy()
        editor = null
        state.value = State()
    }

    private fun replace(make: () -> Editor): Boolean {
        val ed = try {
            make()
        } catch (e: BancoException) {
            state.value = state.value.copy(message = readable(e))
            return false
        }
        editor?.destroy()
        editor = ed
        state.value = State(view = ed.view())
        return true
    }

    /** Runs an edit; the new view is shown, a refusal becomes the message. */
    private fun <T> act(block: (Editor) -> T): T? {
        val ed = editor ?: return null
        return try {
            val r = block(ed)
            val view = ed.view()
            val keep = state.value.solution.takeIf { view.fen == state.value.view?.fen }
            state.value = state.value.copy(view = view, solution = keep)
            r
        } catch (e: BancoException) {
            state.value = state.value.copy(message = readable(e))
            null
        }
    }

    private fun squareOf(ed: Editor, name: String): UByte? {
        val sq = ed.view().cells.firstOrNull { it.name == name }?.square
        if (sq == null) state.value = state.value.copy(message = "There is no square $name on this board")
        return sq
    }

    companion object {
        /** The games the editor sets up (Rust's: xiangqi, chess and jieqi), in Rust's order. */
        fun games(): List<GameKind> = editorGames()
    }
}
