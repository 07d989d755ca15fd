// A game against the on-device AI: taps, the AI's turn on the engine thread (cancelled when
// the player leaves), undo/redo by whole turns, hints, and the game to continue, saved after
// every move.
package org.banco.shell

import org.banco.BancoException
import org.banco.Color
import org.banco.Engine
import org.banco.EngineListener
import org.banco.Game
import org.banco.GameKind
import org.banco.GameStatus
import org.banco.Move
import org.banco.Notation
import org.banco.Outcome
import org.banco.PlayedMove
import org.banco.PuzzleSolution
import org.banco.SearchReport
import java.util.Base64

class GameController(
    private val ui: UiDispatcher,
    private val engine: Engine,
    private val store: KeyValueStore,
    private val sound: SoundPlayer = SoundPlayer.SILENT,
) {
    data class State(
        val board: BoardModel = BoardModel(),
        val status: GameStatus? = null,
        val humanColor: Color = Color.RED,
        val level: Int = 3,
        /** The AI is looking for its move. */
        val thinking: Boolean = false,
        /** A hint is being looked for. */
        val hinting: Boolean = false,
        val canUndo: Boolean = false,
        val canRedo: Boolean = false,
        /** The result from the player's side ("You won: checkmate"), once the game is over. */
        val result: String? = null,
        /** The moves so far in Chinese notation. */
        val moves: List<String> = emptyList(),
        /** A problem to show once (an engine failure, a damaged saved game). */
        val message: String? = null,
    ) {
        val myTurn: Boolean
            get() = status != null && result == null && !thinking && status.sideToMove == humanColor
    }

    val state = Observable(State())

    private var game: Game? = null
    private var settings = Settings()
    private var aiSearch: ULong? = null
    private var hintSearch: ULong? = null

    /** The engine's reports, hopped to the UI thread and matched to the search they answer. */
    private val listener = object : EngineListener {
        override fun onProgress(report: SearchReport) {}
        override fun onResult(report: SearchReport) = ui.post { onEngineResult(report) }
        override fun onPuzzleSolved(solution: PuzzleSolution) {}
        override fun onFailed(searchId: ULong, message: String) = ui.post {
            if (searchId == aiSearch || searchId == hintSearch) {
                aiSearch = null
                hintSearch = null
                publish(message = "The AI failed: $message")
            }
        }
    }

    /** A new game from the start position (or from [fen], for puzzles). */
    fun newGame(settings: Settings, fen: String? = null) {
        cancelSearches()
        this.settings = settings
        val g = if (fen == null) Game(GameKind.XIANGQI) else Game.fromFen(fen)
        g.setRules(settings.rules.rules())
        replace(g)
        runCatching { engine.clear() }
        afterChange(lastMove = null)
    }

    /** True if there is a game to continue. */
    fun canContinue(): Boolean = store.getString(K_CONTINUE) != null

    /** Continues the saved game; false (with a message) if there is none or it is damaged. */
    fun continueGame(base: Settings): Boolean {
        val text = store.getString(K_CONTINUE) ?: return false
        cancelSearches()
        return try {
            val record = ContinueRecord.decode(text)
            settings = base.copy(color = record.humanColor, level = record.level)
            val g = Game.load(record.game)
            replace(g)
            afterChange(lastMove = g.history().lastOrNull()?.played)
            true
        } catch (e: Exception) {
            store.putString(K_CONTINUE, null)
            publish(message = "The saved game could not be continued: ${readable(e)}")
            false
        }
    }

    /** A tap on a square of the board. */
    fun tap(square: org.banco.Square) {
        val g = game ?: return
        val s = state.value
        val mover = if (s.myTurn) s.humanColor else null
        val (board, result) = s.board.tap(square, mover) { g.legalMovesFrom(it) }
        state.value = s.copy(board = board)
        if (result is TapResult.Chosen) play(result.move)
    }

    /** Plays the player's move, then lets the AI answer. */
    fun play(move: Move) {
        val g = game ?: return
        if (!state.value.myTurn) return
        val played = try {
            g.play(move)
        } catch (e: BancoException) {
            publish(message = readable(e))
            return
        }
        cancelSearches()
        moved(played)
    }

    /** Takes back moves until it is the player's turn again (the AI's reply and the player's move). */
    fun undo() {
        val g = game ?: return
        if (!state.value.canUndo && !state.value.thinking) return
        cancelSearches()
        var undone = false
        while (g.status().canUndo) {
            g.undo() ?: break
            undone = true
            if (g.status().sideToMove == settings.color) break
        }
        if (undone) afterChange(lastMove = g.history().lastOrNull()?.played)
    }

    /** Plays again what undo took back, up to the player's next turn. */
    fun redo() {
        val g = game ?: return
        if (state.value.thinking) return
        var last: PlayedMove? = null
        while (g.status().canRedo) {
            last = g.redo() ?: break
            if (g.status().sideToMove == settings.color) break
        }
        if (last != null) afterChange(lastMove = last.played)
    }

    /** Looks for the best move for the player and highlights it. */
    fun hint(movetimeMs: Long = 1000) {
        val g = game ?: return
        if (!state.value.myTurn || hintSearch != null) return
        hintSearch = engine.hint(g, movetimeMs.toULong(), listener)
        publish()
    }

    /** Leaving the screen: stops the AI (its late answer is ignored). The game stays saved. */
    fun close() {
        cancelSearches()
        publish()
    }

    /** Back on the screen: if the AI's turn was cancelled by [close], it thinks again. */
    fun resume() {
        val g = game ?: return
        val status = g.status()
        if (aiSearch == null && status.outcome == null && status.sideToMove != settings.color) {
            aiSearch = engine.bestMove(g, settings.level.toUByte(), listener)
            publish()
        }
    }

    /** The message was shown. */
    fun clearMessage() {
        state.value = state.value.copy(message = null)
    }

    fun setSound(on: Boolean) {
        settings = settings.copy(sound = on)
    }

    /** The current game's FEN (for sharing, and tests). */
    fun fen(): String? = game?.fen()

    private fun replace(g: Game) {
        game?.close()
        game = g
    }

    private fun cancelSearches() {
        if (aiSearch != null || hintSearch != null) runCatching { engine.stop() }
        aiSearch = null
        hintSearch = null
    }

    private fun moved(played: PlayedMove) {
        if (settings.sound) sound.play(soundOf(played))
        afterChange(lastMove = played.played)
    }

    private fun onEngineResult(report: SearchReport) {
        val g = game ?: return
        when (report.searchId) {
            aiSearch -> {
                aiSearch = null
                val best = report.bestMove
                if (best == null) {
                    publish(message = "The AI found no move")
                    return
                }
                val played = try {
                    g.play(best.played)
                } catch (e: BancoException) {
                    publish(message = readable(e))
                    return
                }
                moved(played)
            }
            hintSearch -> {
                hintSearch = null
                val s = state.value
                state.value = s.copy(board = s.board.copy(hint = report.bestMove?.played), hinting = false)
            }
            else -> {} // a search that was cancelled: ignore its late answer
        }
    }

    /** After any change of the game: save it, refresh the state, and start the AI if it is its turn. */
    private fun afterChange(lastMove: Move?) {
        val g = game ?: return
        val status = g.status()
        if (status.outcome == null) {
            store.putString(K_CONTINUE, ContinueRecord(settings.color, settings.level, g.save()).encode())
        } else {
            store.putString(K_CONTINUE, null)
            if (settings.sound) sound.play(Sound.GAME_OVER)
        }
        if (status.outcome == null && status.sideToMove != settings.color) {
            aiSearch = engine.bestMove(g, settings.level.toUByte(), listener)
        }
        val flipped = settings.color == Color.BLACK
        state.value = state.value.copy(board = BoardModel.of(g, flipped, lastMove))
        publish()
    }

    private fun publish(message: String? = null) {
        val g = game
        if (g == null) {
            state.value = state.value.copy(message = message)
            return
        }
        val status = g.status()
        val ply = status.ply.toInt()
        // Against the AI, undo goes back to the player's turn: nothing to undo before their first move.
        val firstHumanPly = if (settings.color == Color.RED) 1 else 2
        state.value = state.value.copy(
            status = status,
            humanColor = settings.color,
            level = settings.level,
            thinking = aiSearch != null,
            hinting = hintSearch != null,
            canUndo = ply >= firstHumanPly,
            canRedo = status.canRedo && aiSearch == null,
            result = status.outcome?.let { resultText(it, settings.color, status.resultText) },
            moves = g.historyText(Notation.CHINESE),
            message = message,
        )
    }

    companion object {
        const val K_CONTINUE = "game.continue"
    }
}

/** The result from [me]'s side: "You won: checkmate", "You lost: …", "Draw: …". */
fun resultText(outcome: Outcome, me: Color?, words: String): String {
    val why = words.substringAfter(' ', words)
    return when (outcome) {
        is Outcome.Win -> when {
            me == null -> "${if (outcome.winner == Color.RED) "Red" else "Black"} won: $why"
            outcome.winner == me -> "You won: $why"
            else -> "You lost: $why"
        }
        is Outcome.Draw -> "Draw: $why"
    }
}

/** The game to continue: the player's colour and level, then `Game.save()` bytes, as Base64. */
data class ContinueRecord(val humanColor: Color, val level: Int, val game: ByteArray) {
    fun encode(): String {
        val head = byteArrayOf(1, if (humanColor == Color.RED) 0 else 1, level.toByte())
        return Base64.getEncoder().encodeToString(head + game)
    }

    companion object {
        fun decode(text: String): ContinueRecord {
            val bytes = try {
                Base64.getDecoder().decode(text)
            } catch (e: IllegalArgumentException) {
                throw IllegalArgumentException("it is not readable")
            }
            require(bytes.size > 3 && bytes[0] == 1.toByte()) { "it is from another version" }
            val color = when (bytes[1].toInt()) {
                0 -> Color.RED
                1 -> Color.BLACK
                else -> throw IllegalArgumentException("its colour is unknown")
            }
            val level = bytes[2].toInt()
            require(level in 1..10) { "its level is out of range" }
            return ContinueRecord(color, level, bytes.copyOfRange(3, bytes.size))
        }
    }

    override fun equals(other: Any?): Boolean =
        other is ContinueRecord && other.humanColor == humanColor && other.level == level && other.game.contentEquals(game)

    override fun hashCode(): Int = (humanColor.hashCode() * 31 + level) * 31 + game.contentHashCode()
}
