// Engine: a whole game against the AI (results through EngineListener on the engine
// thread), think, hint with score and PV, stop, puzzles, chess (a legal move: the chess
// engine's strength is not tested here), bad arguments.
package org.banco.tests

import org.banco.*
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.TimeUnit

class QueueEngineListener : EngineListener {
    val results = LinkedBlockingQueue<SearchReport>()
    val progress = LinkedBlockingQueue<SearchReport>()
    val puzzles = LinkedBlockingQueue<PuzzleSolution>()
    val failures = LinkedBlockingQueue<String>()
    @Volatile var thread: String = ""

    override fun onProgress(report: SearchReport) {
        progress += report
    }

    override fun onResult(report: SearchReport) {
        thread = Thread.currentThread().name
        results += report
    }

    override fun onPuzzleSolved(solution: PuzzleSolution) {
        puzzles += solution
    }

    override fun onFailed(searchId: ULong, message: String) {
        failures += "$searchId: $message"
    }

    fun result(): SearchReport =
        results.poll(60, TimeUnit.SECONDS) ?: throw AssertionError("no engine result in 60 s (failures: $failures)")
}

fun engineTests(s: Suite) {
    s.test("a whole game against the AI") {
        Engine(16u).use { engine ->
            Game(GameKind.XIANGQI).use { g ->
                val listener = QueueEngineListener()
                var aiMoves = 0
                while (g.status().outcome == null && g.status().ply < 400u) {
                    if (g.status().sideToMove == Color.RED) {
                        // The "player": the first legal move, every time.
                        g.play(g.legalMoves().first())
                    } else {
                        val id = engine.bestMove(g, 4u, listener)
                        val r = listener.result()
                        eq(id, r.searchId, "search id")
                        val best = r.bestMove ?: throw AssertionError("no move from the AI")
                        g.play(best.played)
                        aiMoves++
                    }
                }
                val st = g.status()
                check(st.outcome != null) { "the game did not end: ${g.fen()}" }
                // Results come on the engine's thread (JNA names it Thread-N), not on ours.
                check(listener.thread != Thread.currentThread().name) { "listener ran on ${listener.thread}" }
                println("  game over after ${st.ply} plies (${aiMoves} AI moves): ${st.resultText}")
                throws<BancoException.GameOver> { engine.bestMove(g, 3u, listener) }
            }
        }
    }

    s.test("think, hint with score and PV, stop") {
        Engine(8u).use { engine ->
            Game.fromFen(GameKind.XIANGQI, XQ_MATE_IN_ONE).use { g ->
                // Threads: the device's recommendation by default; two threads find it too.
                eq(recommendedThreads(), engine.threads())
                check(recommendedThreads() in 1u..4u) { "recommended ${recommendedThreads()}" }
                engine.setThreads(2u)
                eq(2u, engine.threads())
                val r = engine.think(g, 10u, 500u)
                eq("e1d1", r.bestMove?.coordinate)
                eq(EngineScore.Mate(1), r.score)
                val listener = QueueEngineListener()
                engine.hint(g, 300u, listener)
                val hint = listener.result()
                eq("e1d1", hint.bestMove?.coordinate)
                eq("车五平六", hint.bestMove?.text)
                check(hint.pv.isNotEmpty() && hint.pvText.first() == "车五平六") { hint.toString() }
                check(listener.progress.isNotEmpty()) { "no progress reports" }
            }
            Game(GameKind.XIANGQI).use { g ->
                val listener = QueueEngineListener()
                engine.bestMoveTimed(g, 60_000u, listener)
                Thread.sleep(200)
                check(engine.isSearching())
                engine.stop()
                val r = listener.result()
                check(r.stopped) { "not marked stopped" }
                check(r.bestMove != null)
                val deadline = System.currentTimeMillis() + 5000
                while (engine.isSearching() && System.currentTimeMillis() < deadline) Thread.sleep(10)
                check(!engine.isSearching())
                engine.clear()
            }
        }
    }

    s.test("puzzle solving") {
        Engine(8u).use { engine ->
            Game.fromFen(GameKind.XIANGQI, XQ_MATE_IN_ONE).use { g ->
                val listener = QueueEngineListener()
                engine.solvePuzzle(g, 3u, 5000u, listener)
                val sol = listener.puzzles.poll(30, TimeUnit.SECONDS) ?: throw AssertionError("no solution")
                eq(1u, sol.mateIn)
                eq(listOf("车五平六"), sol.lineText)
                eq(listOf(mv("e1", "d1")), sol.line)
                check(!sol.aborted && sol.nodes > 0u)
            }
        }
    }

    s.test("chess: the engine answers with a legal move") {
        Engine(8u).use { engine ->
            Game(GameKind.CHESS).use { g ->
                val r = engine.think(g, 3u, 500u)
                val best = r.bestMove ?: throw AssertionError("no move")
                check(g.isLegal(best.played)) { "$best" }
                check(r.pvText.isEmpty() || r.pvText.first() == best.text) { "$r" }
                val listener = QueueEngineListener()
                val id = engine.bestMove(g, 1u, listener)
                val played = listener.result()
                eq(id, played.searchId)
                check(g.isLegal(played.bestMove!!.played))
                engine.hint(g, 200u, listener)
                check(g.isLegal(listener.result().bestMove!!.played))
            }
            // The mate solver takes chess as the editor's does; jieqi is refused.
            Game.fromFen(GameKind.CHESS, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").use { g ->
                val listener = QueueEngineListener()
                engine.solvePuzzle(g, 2u, 5000u, listener)
                val sol = listener.puzzles.poll(30, TimeUnit.SECONDS) ?: throw AssertionError("no solution")
                eq(1u, sol.mateIn)
                eq(listOf("Ra8#"), sol.lineText)
            }
            Game(GameKind.JIEQI).use { g ->
                refused("solvePuzzle jieqi", BancoException.Unsupported::class.java) {
                    engine.solvePuzzle(g, 2u, 100u, QueueEngineListener())
                }
            }
            Game(GameKind.CHESS).use { g ->
                for (m in listOf("f3", "e5", "g4", "Qh4")) g.playText(m, null)
                refused("bestMove after mate", BancoException.GameOver::class.java) { engine.think(g, 3u, 100u) }
            }
        }
    }

    s.test("engine errors and garbage") {
        throws<BancoException.InvalidArgument> { Engine(0u) }
        throws<BancoException.InvalidArgument> { Engine(UInt.MAX_VALUE) }
        throws<BancoException.InvalidArgument> { Engine(257u) } // more than a phone can spare
        Engine(1u).use { engine ->
            Game(GameKind.XIANGQI).use { g ->
                val listener = QueueEngineListener()
                for (lvl in listOf(0, 11, 255)) {
                    val e = throws<BancoException.InvalidArgument> { engine.bestMove(g, lvl.toUByte(), listener) }
                    check(e.message!!.contains("levels go from 1")) { e.message!! }
                    throws<BancoException.InvalidArgument> { engine.think(g, lvl.toUByte(), 100u) }
                }
                for (t in listOf(0UL, ULong.MAX_VALUE)) {
                    throws<BancoException.InvalidArgument> { engine.bestMoveTimed(g, t, listener) }
                    throws<BancoException.InvalidArgument> { engine.hint(g, t, listener) }
                    throws<BancoException.InvalidArgument> { engine.solvePuzzle(g, 3u, t, listener) }
                }
                for (t in listOf(0u, 65u, UInt.MAX_VALUE)) {
                    throws<BancoException.InvalidArgument> { engine.setThreads(t) }
                }
                for (m in listOf(0u, 61u, UInt.MAX_VALUE)) {
                    throws<BancoException.InvalidArgument> { engine.solvePuzzle(g, m, 100u, listener) }
                }
                engine.stop()
                eq(false, engine.isSearching())
                check(listener.failures.isEmpty())
            }
        }
    }
}
