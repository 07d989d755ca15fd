// Game: every method, the listener, errors with readable messages, save/load, and the
// call overhead of legalMoves() (printed, not asserted).
package org.banco.tests

import org.banco.*
import java.util.concurrent.CopyOnWriteArrayList

fun sq(file: Int, rank: Int) = Square(file.toUByte(), rank.toUByte())

fun mv(from: String, to: String) = Move(parseSquare(from), parseSquare(to))

class RecordingGameListener : GameListener {
    val events = CopyOnWriteArrayList<GameEvent>()
    val threads = CopyOnWriteArrayList<String>()

    override fun onEvent(event: GameEvent) {
        events += event
        threads += Thread.currentThread().name
    }
}

fun gameTests(s: Suite) {
    s.test("free functions") {
        check(bancoVersion().isNotEmpty())
        eq(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            startFen(GameKind.XIANGQI),
        )
        eq("h2", squareName(sq(7, 2)))
        eq(sq(7, 2), parseSquare("h2"))
        eq(Rules(RepetitionRule.ASIAN, 3u, 120u), defaultRules())
        check(validateFen(startFen(GameKind.XIANGQI)).isEmpty())
        val problems = validateFen("3k5/4A4/9/9/9/9/9/9/9/4k4 w")
        eq(4, problems.size, "problems $problems")
        check(problems.contains("red has no king")) { problems.toString() }
    }

    s.test("new game, legal moves, board") {
        Game(GameKind.XIANGQI).use { g ->
            eq(GameKind.XIANGQI, g.kind())
            eq(44, g.legalMoves().size)
            eq(32, g.pieces().size)
            val cannon = g.pieceAt(sq(7, 2))!!
            eq(PieceKind.CANNON, cannon.kind)
            eq(Color.RED, cannon.color)
            eq("C", cannon.letter)
            eq("炮", cannon.glyph)
            eq(null, g.pieceAt(sq(4, 4)))
            val targets = g.legalMovesFrom(sq(7, 2)).map { squareName(it.to) }.sorted()
            eq(listOf("c2", "d2", "e2", "f2", "g2", "h1", "h3", "h4", "h5", "h6", "h9", "i2"), targets)
            check(g.isLegal(mv("h2", "e2")))
            check(!g.isLegal(mv("h2", "h8")))
            val st = g.status()
            eq(Color.RED, st.sideToMove)
            eq(0u, st.ply)
            eq("*", st.result)
            eq(null, st.outcome)
            check(!st.canUndo && !st.canRedo && !st.inCheck)
        }
    }

    s.test("play in every notation, history, undo/redo, listener") {
        Game(GameKind.XIANGQI).use { g ->
            val rec = RecordingGameListener()
            g.setListener(rec)
            val p1 = g.play(mv("h2", "e2"))
            eq("C2=5", p1.wxf)
            eq("炮二平五", p1.chinese)
            eq(1u, p1.ply)
            val p2 = g.playText("马8进7", Notation.CHINESE)
            eq("h9g7", p2.coordinate)
            val p3 = g.playText("H2+3", Notation.WXF)
            eq("h0g2", p3.coordinate)
            for (m in g.legalMoves()) {
                for (n in Notation.values()) eq(m, g.parseMove(g.moveText(m, n), n), "round trip in $n")
            }
            eq(mv("i9", "h9"), g.parseMove("i9h9", Notation.COORDINATE))
            eq(listOf("C2=5", "H8+7", "H2+3"), g.historyText(Notation.WXF))
            eq(listOf("h2e2", "h9g7", "h0g2"), g.history().map { it.coordinate })
            eq(mv("h0", "g2"), g.undo())
            check(g.status().canRedo)
            eq("h0g2", g.redo()!!.coordinate)
            eq(null, g.redo())
            eq(5, rec.events.size, "events ${rec.events}")
            val undone = rec.events[3] as GameEvent.MoveUndone
            eq(2u, undone.ply)
            check(rec.threads.all { it == Thread.currentThread().name })
            g.setListener(null)
            g.undo()
            eq(5, rec.events.size)
            val copy = g.copy()
            copy.playText("h0g2", Notation.COORDINATE)
            eq(2u, g.status().ply)
            eq(3u, copy.status().ply)
            copy.close()
        }
    }

    s.test("checkmate, outcome and game over") {
        Game.fromFen("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1").use { g ->
            val rec = RecordingGameListener()
            g.setListener(rec)
            val p = g.playText("R5=6", Notation.WXF)
            check(p.givesCheck)
            val st = g.status()
            eq("1-0", st.result)
            eq("1-0 checkmate", st.resultText)
            eq(Outcome.Win(Color.RED, WinReason.CHECKMATE), st.outcome)
            check(g.legalMoves().isEmpty())
            val over = rec.events.last() as GameEvent.GameOver
            eq("1-0 checkmate", over.text)
            val e = throws<BancoException.IllegalMove> { g.playText("d9e9", Notation.COORDINATE) }
            check(e.message!!.isNotEmpty())
        }
    }

    s.test("errors are typed and readable") {
        Game(GameKind.XIANGQI).use { g ->
            val e1 = throws<BancoException.IllegalMove> { g.play(mv("h2", "h8")) }
            eq("h2h8 is not a legal move here: a cannon cannot move like that", e1.message)
            val e2 = throws<BancoException.BadMoveText> { g.playText("C2*5", Notation.WXF) }
            check(e2.message!!.startsWith("`C2*5` is not a WXF move")) { e2.message!! }
            val e3 = throws<BancoException.BadSquare> { g.pieceAt(sq(9, 0)) }
            eq("there is no square at file 9, rank 0: files go 0-8 (a-i) and ranks 0-9", e3.message)
            eq(0u, g.status().ply)
        }
        val e4 = throws<BancoException.Unsupported> { Game(GameKind.CHESS) }
        eq("chess is not available in this version of Banco", e4.message)
        val e5 = throws<BancoException.InvalidPosition> { Game.fromFen("4k4/9/9/9/9/9/9/9/9/4K4 w") }
        eq("illegal position: the two kings face each other on an open file", e5.message)
        val e6 = throws<BancoException.InvalidArgument> { parseSquare("j0") }
        check(e6.message!!.contains("not a square")) { e6.message!! }
        val e7 = throws<BancoException.BadSave> { Game.load(byteArrayOf(1, 2, 3)) }
        eq("this saved game cannot be loaded: it is empty or cut short", e7.message)
        // Every BancoException is a kotlin.Exception, catchable in one place.
        val any: Exception = e7
        check(any is BancoException)
    }

    s.test("rules, save and load round trip") {
        Game(GameKind.XIANGQI).use { g ->
            g.setRules(Rules(RepetitionRule.CASUAL, 3u, 60u))
            eq(Rules(RepetitionRule.CASUAL, 3u, 60u), g.rules())
            for (m in listOf("h2e2", "h9g7", "h0g2", "i9h9")) g.playText(m, Notation.COORDINATE)
            val bytes = g.save()
            eq("BNCO", String(bytes.copyOfRange(0, 4)))
            check(bytes.size < 100) { "saved game takes ${bytes.size} bytes" }
            Game.load(bytes).use { back ->
                eq(g.fen(), back.fen())
                eq(g.history(), back.history())
                eq(g.rules(), back.rules())
                eq(g.startFen(), back.startFen())
            }
            Game(GameKind.XIANGQI).use { other ->
                val rec = RecordingGameListener()
                other.setListener(rec)
                other.restore(bytes)
                eq(g.fen(), other.fen())
                check(rec.events.single() is GameEvent.Reset)
            }
        }
    }

    s.test("legalMoves() call overhead (logged)") {
        Game(GameKind.XIANGQI).use { g ->
            repeat(2000) { g.legalMoves() }
            val n = 5000
            val cpu = java.lang.management.ManagementFactory.getThreadMXBean()
            val start = System.nanoTime()
            val cpu0 = cpu.currentThreadCpuTime
            var total = 0
            repeat(n) { total += g.legalMoves().size }
            val perCall = (System.nanoTime() - start) / n
            val perCallCpu = (cpu.currentThreadCpuTime - cpu0) / n
            eq(44 * n, total)
            val k0 = System.nanoTime()
            val kc0 = cpu.currentThreadCpuTime
            repeat(n) { g.kind() }
            val kindCall = (System.nanoTime() - k0) / n
            val kindCpu = (cpu.currentThreadCpuTime - kc0) / n
            // Wall time includes waiting for a core on a busy machine; the thread's CPU time
            // is the cost of the call itself (JNA marshalling + Rust).
            println("  legalMoves(): $perCall ns wall, $perCallCpu ns CPU per call (44 moves); " +
                "kind(): $kindCall ns wall, $kindCpu ns CPU (the fixed cost)")
        }
    }
}
