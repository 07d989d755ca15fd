// The game against the AI: a scripted game through taps, the end of a game, undo/redo by
// whole turns, leaving while the AI thinks, hints, save and continue, puzzles.
package org.banco.shell.tests

import org.banco.Color
import org.banco.Engine
import org.banco.EngineListener
import org.banco.Game
import org.banco.PuzzleSolution
import org.banco.SearchReport
import org.banco.Square
import org.banco.shell.ContinueRecord
import org.banco.shell.GameController
import org.banco.shell.MemoryStore
import org.banco.shell.Puzzles
import org.banco.shell.Settings
import org.banco.shell.Sound
import org.banco.shell.SoundPlayer
import org.banco.shell.square
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.TimeUnit

/** A controller on its own UI thread, with an engine, a store and a sound log. */
class GameFixture(val store: MemoryStore = MemoryStore()) : AutoCloseable {
    val ui = TestUi()
    val engine = Engine(16u)
    val sounds = CopyOnWriteArrayList<Sound>()
    val c = GameController(ui, engine, store, SoundPlayer { sounds += it })

    fun state() = ui.call { c.state.value }

    /** Waits until it is the player's turn (or the game is over) with nothing thinking. */
    fun awaitMyTurn(ply: Int): GameController.State =
        ui.await(c.state, "the player's turn at ply $ply") {
            !it.thinking && it.status?.ply?.toInt() == ply && (it.myTurn || it.result != null)
        }

    /** Taps [from] then [to], as a finger would. */
    fun tapMove(from: Square, to: Square) {
        ui.call { c.tap(from) }
        ui.call { c.tap(to) }
    }

    /** Taps [from]-[to] if it is legal now, else the first legal move (the AI's replies vary). */
    fun tapScripted(from: String, to: String): org.banco.Move {
        val legal = ui.call { Game.fromFen(c.fen()!!).use { it.legalMoves() } }
        val move = legal.firstOrNull { it.from == square(from) && it.to == square(to) } ?: legal.first()
        tapMove(move.from, move.to)
        return move
    }

    override fun close() {
        ui.call { c.close() }
        ui.shutdown()
        engine.close()
    }
}

fun gameTests(s: Suite) {
    s.test("a scripted game against the AI, played by taps") {
        GameFixture().use { f ->
            f.ui.call { f.c.newGame(Settings(level = 1, color = Color.RED)) }
            var st = f.awaitMyTurn(0)
            check(!st.board.flipped && st.canUndo.not())
            val script = listOf("h2" to "e2", "h0" to "g2", "i0" to "h0", "b0" to "c2", "a0" to "a1")
            for ((i, step) in script.withIndex()) {
                val legal = f.ui.call { Game.fromFen(f.c.fen()!!).use { it.legalMoves() } }
                val move = legal.firstOrNull { it.from == square(step.first) && it.to == square(step.second) } ?: legal.first()
                f.tapMove(move.from, move.to)
                val after = f.state()
                check(after.thinking || after.result != null || after.status?.ply?.toInt() == 2 * (i + 1)) {
                    "the AI thinks after the player's move: $after"
                }
                // Taps while the AI thinks select nothing.
                val (thinking, selected) = f.ui.call {
                    val thinking = f.c.state.value.thinking
                    f.c.tap(square("a3"))
                    thinking to f.c.state.value.board.selected
                }
                check(!thinking || selected == null) { "selection while the AI thinks" }
                if (selected != null) f.ui.call { f.c.tap(square("a3")) } // the AI was quick: clear it
                st = f.awaitMyTurn(2 * (i + 1))
                if (st.result != null) break
                eq(2 * (i + 1), st.moves.size, "moves listed")
                check(st.board.lastMove != null && st.board.lastMove != move) { "the AI's move is the last move" }
                check(st.canUndo)
            }
            check(f.sounds.isNotEmpty() && f.sounds.all { it != Sound.GAME_OVER }) { "${f.sounds}" }
            check(f.ui.call { f.c.canContinue() }) { "the game is saved after every move" }
        }
    }

    s.test("the game ends: mate in one by taps, result shown, saved game cleared") {
        GameFixture().use { f ->
            f.ui.call { f.c.newGame(Settings(level = 1), fen = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1") }
            f.awaitMyTurn(0)
            f.tapMove(square("e1"), square("d1"))
            val st = f.ui.await(f.c.state, "game over") { it.result != null }
            eq("You won: checkmate", st.result)
            check(!st.myTurn && !st.thinking)
            check(!f.ui.call { f.c.canContinue() }) { "a finished game is not offered to continue" }
            eq(Sound.GAME_OVER, f.sounds.last())
        }
    }

    s.test("undo and redo by whole turns; undo while the AI thinks") {
        GameFixture().use { f ->
            f.ui.call { f.c.newGame(Settings(level = 1, sound = false)) }
            f.awaitMyTurn(0)
            f.tapMove(square("h2"), square("e2"))
            f.awaitMyTurn(2)
            f.tapScripted("h0", "g2")
            val four = f.awaitMyTurn(4)
            val fen4 = f.ui.call { f.c.fen() }
            f.ui.call { f.c.undo() }
            var st = f.state()
            eq(2u, st.status?.ply, "undo takes back the AI's reply and the player's move")
            check(st.canRedo && st.myTurn && !st.thinking) { "$st" }
            f.ui.call { f.c.redo() }
            st = f.state()
            eq(4u, st.status?.ply, "redo replays both")
            eq(fen4, f.ui.call { f.c.fen() })
            eq(four.board.lastMove, st.board.lastMove)
            check(!st.thinking && !st.canRedo)
            f.ui.call { f.c.undo() }
            f.ui.call { f.c.undo() }
            st = f.state()
            eq(0u, st.status?.ply)
            check(!st.canUndo)
            f.ui.call { f.c.undo() } // nothing left: no change
            eq(0u, f.state().status?.ply)
            check(f.sounds.isEmpty()) { "sound off" }

            // Undo while the AI thinks takes back the player's move and cancels the search.
            f.ui.call { f.c.newGame(Settings(level = 10)) }
            f.awaitMyTurn(0)
            f.tapMove(square("h2"), square("e2"))
            check(f.state().thinking)
            f.ui.call { f.c.undo() }
            st = f.state()
            check(!st.thinking && st.myTurn) { "$st" }
            eq(0u, st.status?.ply)
            Thread.sleep(300)
            eq(0u, f.state().status?.ply, "the cancelled search's move is not played")
        }
    }

    s.test("leaving while the AI thinks stops it; its late answer is ignored") {
        GameFixture().use { f ->
            f.ui.call { f.c.newGame(Settings(level = 10)) }
            f.awaitMyTurn(0)
            f.tapMove(square("b2"), square("e2"))
            check(f.state().thinking)
            check(f.engine.isSearching())
            f.ui.call { f.c.close() }
            check(!f.state().thinking)
            val deadline = System.nanoTime() + 3_000_000_000
            while (f.engine.isSearching() && System.nanoTime() < deadline) Thread.sleep(10)
            check(!f.engine.isSearching()) { "the engine stopped" }
            Thread.sleep(200)
            eq(1u, f.state().status?.ply, "no AI move after leaving")
            // Coming back: the AI takes its turn again.
            f.ui.call { f.c.resume() }
            check(f.state().thinking)
            f.ui.call { f.c.close() }
            f.ui.call { f.c.newGame(Settings(level = 1)) }
            f.awaitMyTurn(0)
            f.tapMove(square("b2"), square("e2"))
            f.ui.call { f.c.close() }
            f.ui.call { f.c.resume() }
            f.awaitMyTurn(2)
        }
    }

    s.test("a hint for the player") {
        GameFixture().use { f ->
            f.ui.call { f.c.newGame(Settings(level = 1)) }
            f.awaitMyTurn(0)
            f.ui.call { f.c.hint(300) }
            check(f.state().hinting)
            val st = f.ui.await(f.c.state, "the hint") { !it.hinting }
            val hint = st.board.hint ?: throw AssertionError("no hint: $st")
            check(f.ui.call { Game.fromFen(f.c.fen()!!).use { it.isLegal(hint) } })
            f.tapMove(hint.from, hint.to)
            eq(null, f.state().board.hint, "the hint goes once a move is played")
        }
    }

    s.test("save and continue: another controller continues the game") {
        val store = MemoryStore()
        val fen: String?
        GameFixture(store).use { f ->
            f.ui.call { f.c.newGame(Settings(level = 2, color = Color.BLACK)) }
            val st = f.awaitMyTurn(1)
            check(st.board.flipped) { "Black plays from the bottom" }
            f.tapScripted("h9", "g7")
            f.awaitMyTurn(3)
            fen = f.ui.call { f.c.fen() }
        }
        GameFixture(store).use { f ->
            check(f.ui.call { f.c.canContinue() })
            check(f.ui.call { f.c.continueGame(Settings()) })
            val st = f.awaitMyTurn(3)
            eq(fen, f.ui.call { f.c.fen() }, "same position")
            eq(Color.BLACK, st.humanColor)
            eq(2, st.level)
            check(st.board.flipped && st.board.lastMove != null && st.canUndo)
            eq(3, st.moves.size)
        }
        // A damaged record is refused with a message and dropped.
        store.putString(GameController.K_CONTINUE, ContinueRecord(Color.RED, 3, byteArrayOf(1, 2, 3)).encode())
        GameFixture(store).use { f ->
            check(!f.ui.call { f.c.continueGame(Settings()) })
            check(f.state().message?.contains("could not be continued") == true) { "${f.state().message}" }
            check(!f.ui.call { f.c.canContinue() })
        }
        store.putString(GameController.K_CONTINUE, "%%% not base64")
        GameFixture(store).use { f -> check(!f.ui.call { f.c.continueGame(Settings()) }) }
    }

    s.test("puzzles: each is a legal position with the mate it promises") {
        Engine(16u).use { engine ->
            for (p in Puzzles.all) {
                Game.fromFen(p.fen).use { g ->
                    val answers = LinkedBlockingQueue<PuzzleSolution>()
                    engine.solvePuzzle(g, p.mateIn.toUInt(), 20_000u, object : EngineListener {
                        override fun onProgress(report: SearchReport) {}
                        override fun onResult(report: SearchReport) {}
                        override fun onPuzzleSolved(solution: PuzzleSolution) { answers += solution }
                        override fun onFailed(searchId: ULong, message: String) {}
                    })
                    val solution = answers.poll(30, TimeUnit.SECONDS) ?: throw AssertionError("${p.name}: no answer")
                    val mate = solution.mateIn ?: throw AssertionError("${p.name}: no mate found ($solution)")
                    check(mate.toInt() <= p.mateIn) { "${p.name}: mate in $mate, promised ${p.mateIn}" }
                }
            }
        }
    }
}
