// The free functions and Game (xiangqi): every method, the listener, errors with readable
// messages, save/load, and the call overhead of legalMoves() (printed, not asserted).
// Chess has its own file (ChessTests.kt).
package org.banco.tests

import org.banco.*
import java.util.concurrent.CopyOnWriteArrayList

/** The square index of [name] in [kind] (`h2` → 25 in xiangqi, `e4` → 28 in chess). */
fun sq(name: String, kind: GameKind = GameKind.XIANGQI): UByte = parseSquare(kind, name)

/** A move between two named squares. */
fun mv(from: String, to: String, kind: GameKind = GameKind.XIANGQI, promotion: PieceKind? = null) =
    Move(sq(from, kind), sq(to, kind), promotion)

fun name(square: UByte, kind: GameKind = GameKind.XIANGQI): String = squareName(kind, square)

class RecordingGameListener : GameListener {
    val events = CopyOnWriteArrayList<GameEvent>()
    val threads = CopyOnWriteArrayList<String>()

    override fun onEvent(event: GameEvent) {
        events += event
        threads += Thread.currentThread().name
    }
}

const val XQ_MATE_IN_ONE = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"

fun gameTests(s: Suite) {
    s.test("free functions") {
        check(bancoVersion().isNotEmpty())
        eq(listOf(GameKind.XIANGQI, GameKind.CHESS, GameKind.JIEQI), boardGames())
        eq(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            startFen(GameKind.XIANGQI),
        )
        eq("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", startFen(GameKind.CHESS))
        eq(Notation.CHINESE, notations(GameKind.XIANGQI).first(), "xiangqi's main notation")
        eq(setOf(Notation.CHINESE, Notation.WXF, Notation.COORDINATE), notations(GameKind.XIANGQI).toSet())
        eq(Notation.SAN, notations(GameKind.CHESS).first(), "chess's main notation")
        eq(setOf(Notation.SAN, Notation.COORDINATE), notations(GameKind.CHESS).toSet())
        eq(7, pieceKinds(GameKind.XIANGQI).size)
        eq(
            setOf(PieceKind.KING, PieceKind.QUEEN, PieceKind.ROOK, PieceKind.BISHOP, PieceKind.KNIGHT, PieceKind.PAWN),
            pieceKinds(GameKind.CHESS).toSet(),
        )
        val xs = boardShape(GameKind.XIANGQI)
        eq(9 to 10, xs.width.toInt() to xs.height.toInt())
        eq(90, xs.squareNames.size)
        eq("h2", xs.squareNames[25])
        val cs = boardShape(GameKind.CHESS)
        eq(8 to 8, cs.width.toInt() to cs.height.toInt())
        eq(listOf("a1", "b1"), cs.squareNames.take(2))
        eq("h8", cs.squareNames.last())
        eq(Rules.Xiangqi(RepetitionRule.ASIAN, 3u, 120u), defaultRules(GameKind.XIANGQI))
        eq(Rules.Chess(false), defaultRules(GameKind.CHESS))
        eq("Red", colorName(GameKind.XIANGQI, Color.RED))
        eq("White", colorName(GameKind.CHESS, Color.RED))
        eq("Black", colorName(GameKind.CHESS, Color.BLACK))
        val mate = Outcome.Win(Color.BLACK, WinReason.CHECKMATE)
        eq("You lost: checkmate", resultText(GameKind.CHESS, mate, Color.RED))
        eq("You won: checkmate", resultText(GameKind.CHESS, mate, Color.BLACK))
        eq("Black won: checkmate", resultText(GameKind.CHESS, mate, null))
        check(resultText(GameKind.CHESS, Outcome.Draw(DrawReason.Stalemate), Color.RED).startsWith("Draw: ")) { "draw text" }
        eq("h2", squareName(GameKind.XIANGQI, 25u))
        eq(25u.toUByte(), parseSquare(GameKind.XIANGQI, "h2"))
        eq(28u.toUByte(), parseSquare(GameKind.CHESS, "e4"))
        eq("e4", squareName(GameKind.CHESS, 28u))
        check(validateFen(GameKind.XIANGQI, startFen(GameKind.XIANGQI)).isEmpty())
        check(validateFen(GameKind.CHESS, startFen(GameKind.CHESS)).isEmpty())
        val problems = validateFen(GameKind.XIANGQI, "3k5/4A4/9/9/9/9/9/9/9/4k4 w")
        check(problems.size >= 2) { "problems $problems" }
        check(problems.contains("red has no king")) { problems.toString() }
        check(validateFen(GameKind.CHESS, "8/8/8/8/8/8/8/8 w - - 0 1").isNotEmpty()) { "no kings in chess" }
        val puzzles = builtinPuzzles()
        check(puzzles.size >= 4 && puzzles.all { it.mateIn >= 1u }) { "$puzzles" }
        for (p in puzzles) check(validateFen(p.kind, p.fen).isEmpty()) { "${p.name}: ${validateFen(p.kind, p.fen)}" }
    }

    s.test("xiangqi: new game, legal moves, board") {
        Game(GameKind.XIANGQI).use { g ->
            eq(GameKind.XIANGQI, g.kind())
            eq(boardShape(GameKind.XIANGQI), g.shape())
            eq(44, g.legalMoves().size)
            eq(32, g.pieces().size)
            val cannon = g.pieceAt(sq("h2"))!!
            eq(PieceKind.CANNON, cannon.kind)
            eq(Color.RED, cannon.color)
            eq("C", cannon.letter)
            eq("炮", cannon.glyph)
            eq("cannon", cannon.name)
            eq("將", g.pieceAt(sq("e9"))?.glyph)
            eq(null, g.pieceAt(sq("e4")))
            val targets = g.legalMovesFrom(sq("h2")).map { name(it.to) }.sorted()
            eq(listOf("c2", "d2", "e2", "f2", "g2", "h1", "h3", "h4", "h5", "h6", "h9", "i2"), targets)
            check(g.legalMoves().all { it.promotion == null })
            check(g.isLegal(mv("h2", "e2")))
            check(!g.isLegal(mv("h2", "h8")))
            val st = g.status()
            eq(GameKind.XIANGQI, st.kind)
            eq(Color.RED, st.sideToMove)
            eq(0u, st.ply)
            eq("*", st.result)
            eq("", st.resultText)
            eq(null, st.outcome)
            eq(null, st.claimableDraw)
            check(!st.canUndo && !st.canRedo && !st.inCheck)
            eq(startFen(GameKind.XIANGQI), g.fen())
            eq(g.fen(), g.startFen())
        }
    }

    s.test("xiangqi: play in every notation, history, undo/redo, listener") {
        Game(GameKind.XIANGQI).use { g ->
            val rec = RecordingGameListener()
            g.setListener(rec)
            val p1 = g.play(mv("h2", "e2"))
            eq("h2e2", p1.coordinate)
            eq("炮二平五", p1.text, "main notation")
            eq("C2.5", p1.texts.single { it.notation == Notation.WXF }.text)
            eq(3, p1.texts.size)
            eq(1u, p1.ply)
            eq(Color.RED, p1.by)
            eq(PieceKind.CANNON, p1.piece?.kind)
            eq(null, p1.captured)
            val p2 = g.playText("马8进7", Notation.CHINESE)
            eq("h9g7", p2.coordinate)
            val p3 = g.playText("H2+3", Notation.WXF)
            eq("h0g2", p3.coordinate)
            eq("i9h9", g.playText("i9h9", null).coordinate, "any notation")
            g.undo()
            for (m in g.legalMoves()) {
                for (n in notations(GameKind.XIANGQI)) eq(m, g.parseMove(g.moveText(m, n), n), "round trip in $n")
            }
            eq(mv("i9", "h9"), g.parseMove("i9h9", Notation.COORDINATE))
            eq(mv("i9", "h9"), g.parseMove("车9平8", null))
            eq(listOf("C2.5", "H8+7", "H2+3"), g.historyText(Notation.WXF))
            eq(listOf("h2e2", "h9g7", "h0g2"), g.history().map { it.coordinate })
            eq(listOf(1u, 2u, 3u), g.history().map { it.ply })
            eq(mv("h0", "g2"), g.undo())
            check(g.status().canRedo)
            eq("h0g2", g.redo()!!.coordinate)
            eq("i9h9", g.redo()!!.coordinate, "redo replays in order")
            eq(null, g.redo())
            // play ×4, undo ×2, redo ×2
            eq(8, rec.events.size, "events ${rec.events}")
            val undone = rec.events[5] as GameEvent.MoveUndone
            eq(2u, undone.ply)
            eq(mv("h0", "g2"), undone.undone)
            eq("h0g2", (rec.events[6] as GameEvent.MovePlayed).played.coordinate)
            check(rec.threads.all { it == Thread.currentThread().name })
            g.setListener(null)
            g.undo()
            eq(8, rec.events.size)
            val copy = g.copy()
            copy.playText("i9h9", Notation.COORDINATE)
            eq(3u, g.status().ply)
            eq(4u, copy.status().ply)
            copy.close()
        }
    }

    s.test("xiangqi: checkmate, outcome and game over") {
        Game.fromFen(GameKind.XIANGQI, XQ_MATE_IN_ONE).use { g ->
            val rec = RecordingGameListener()
            g.setListener(rec)
            val p = g.playText("R5=6", Notation.WXF)
            check(p.givesCheck)
            val st = g.status()
            eq("1-0", st.result)
            eq("1-0 checkmate", st.resultText)
            eq(Outcome.Win(Color.RED, WinReason.CHECKMATE), st.outcome)
            check(st.inCheck)
            check(g.legalMoves().isEmpty())
            val over = rec.events.last() as GameEvent.GameOver
            eq("1-0 checkmate", over.text)
            eq(st.outcome, over.outcome)
            // After the end a move is refused as such, before it is even read.
            val e = throws<BancoException.GameOver> { g.playText("d9e9", Notation.COORDINATE) }
            check(e.message!!.contains("checkmate")) { e.message!! }
            throws<BancoException.GameOver> { g.playText("nonsense", null) }
            throws<BancoException.GameOver> { g.play(mv("d9", "e9")) }
            throws<BancoException.GameOver> { g.claimDraw() }
            eq("You won: checkmate", resultText(GameKind.XIANGQI, st.outcome!!, Color.RED))
        }
    }

    s.test("xiangqi: errors are typed and readable") {
        Game(GameKind.XIANGQI).use { g ->
            val e1 = throws<BancoException.IllegalMove> { g.play(mv("h2", "h8")) }
            check(e1.message!!.contains("h2h8")) { e1.message!! }
            val e2 = throws<BancoException.BadMoveText> { g.playText("C2*5", Notation.WXF) }
            check(e2.message!!.contains("C2*5")) { e2.message!! }
            val e3 = throws<BancoException.BadSquare> { g.pieceAt(90u) }
            eq("there is no square 90 on a 9x10 board: squares go 0 to 89", e3.message)
            throws<BancoException.BadSquare> { g.legalMovesFrom(200u) }
            throws<BancoException.BadSquare> { g.play(Move(25u, 90u, null)) }
            val e4 = throws<BancoException.NotAvailable> { g.claimDraw() }
            check(e4.message!!.contains("no draw to claim")) { e4.message!! }
            throws<BancoException.IllegalMove> { g.moveText(mv("h2", "h8"), Notation.WXF) }
            val e5 = throws<BancoException.InvalidArgument> { g.setRules(Rules.Chess(false)) }
            check(e5.message!!.contains("rules of chess")) { e5.message!! }
            eq(0u, g.status().ply)
        }
        for (k in listOf(GameKind.LINES)) {
            val e = throws<BancoException.InvalidArgument> { Game(k) }
            eq("Lines is played with LinesGame", e.message)
            throws<BancoException.InvalidArgument> { startFen(k) }
            throws<BancoException.InvalidArgument> { boardShape(k) }
            // The free functions answer for Lines or refuse it, naming what to call instead.
            val c = throws<BancoException.InvalidArgument> { colorName(k, Color.BLACK) }
            eq("colorName is for board games, not Lines: a ball's colour is linesColorName(color)", c.message)
            throws<BancoException.InvalidArgument> { resultText(k, Outcome.Win(Color.RED, WinReason.CHECKMATE), null) }
            throws<BancoException.InvalidArgument> { squareName(k, 0u) }
            throws<BancoException.InvalidArgument> { parseSquare(k, "a1") }
            eq(listOf<Notation>(), notations(k))
            eq(listOf<String>(), validateFen(k, "9/9/9/9/2RRRR3/9/9/9/8B GBY 40"))
            eq(listOf<PgnTag>(), pgnPlayerTags(k, "An", "Binh"))
        }
        val e6 = throws<BancoException.InvalidPosition> { Game.fromFen(GameKind.XIANGQI, "4k4/9/9/9/9/9/9/9/9/4K4 w") }
        check(e6.message!!.contains("kings face each other")) { e6.message!! }
        val e7 = throws<BancoException.InvalidArgument> { parseSquare(GameKind.XIANGQI, "j0") }
        check(e7.message!!.contains("not a square")) { e7.message!! }
        throws<BancoException.BadSquare> { squareName(GameKind.CHESS, 64u) }
        val e8 = throws<BancoException.BadSave> { Game.load(byteArrayOf(1, 2, 3)) }
        check(e8.message!!.startsWith("this saved game cannot be loaded: ")) { e8.message!! }
        // A newer Banco's save is not damage (a shell keeps it and says to update the app),
        // a Lines game is not a board game's: each its own case.
        val newer = Game(GameKind.XIANGQI).use { it.save() }.also { it[8] = 200.toByte() }
        val e9 = throws<BancoException.NewerSave> { Game.load(newer) }
        check(e9.message!!.contains("update the app")) { e9.message!! }
        val lines = LinesGame(LinesSettings(5u, LinesUndo.LAST_TURN, false), 3uL).use { it.save() }
        throws<BancoException.WrongGame> { Game.load(lines) }
        // Every BancoException is a kotlin.Exception, catchable in one place.
        val any: Exception = e8
        check(any is BancoException)
    }

    s.test("xiangqi: rules, save and load round trip") {
        Game(GameKind.XIANGQI).use { g ->
            val casual = Rules.Xiangqi(RepetitionRule.CASUAL, 3u, 60u)
            g.setRules(casual)
            eq(casual, g.rules())
            for (m in listOf("h2e2", "h9g7", "h0g2", "i9h9", "i0h0")) g.playText(m, Notation.COORDINATE)
            g.undo()
            val bytes = g.save()
            check(bytes.size < 120) { "saved game takes ${bytes.size} bytes" }
            Game.load(bytes).use { back ->
                eq(g.fen(), back.fen())
                eq(g.history(), back.history())
                eq(g.rules(), back.rules())
                eq(g.startFen(), back.startFen())
                check(back.status().canRedo) { "the move taken back is kept" }
                eq("i0h0", back.redo()?.coordinate)
            }
            Game(GameKind.XIANGQI).use { other ->
                val rec = RecordingGameListener()
                other.setListener(rec)
                other.restore(bytes)
                eq(g.fen(), other.fen())
                eq(g.fen(), (rec.events.single() as GameEvent.Reset).fen)
            }
        }
    }

    s.test("what a shell asks Rust instead of writing it: levels, presets, Lines size, tags, notices") {
        eq(LevelRange(1u, 10u), levelRange())
        eq(listOf("asian", "casual"), rulesPresets(GameKind.XIANGQI).map { it.name })
        eq(rulesPresets(GameKind.XIANGQI).map { it.label }, rulesPresets(GameKind.JIEQI).map { it.label })
        eq(emptyList<RulesPreset>(), rulesPresets(GameKind.CHESS))
        eq(RepetitionRule.CASUAL, (rulesPreset(GameKind.JIEQI, "Casual") as Rules.Jieqi).repetition)
        eq(null, rulesPreset(GameKind.CHESS, "casual"))
        eq(LinesBoardSize(9u, 81u), linesBoardSize())
        eq(listOf(PgnTag("White", "An"), PgnTag("Black", "Binh")), pgnPlayerTags(GameKind.CHESS, "An", "Binh"))
        eq("Red", pgnPlayerTags(GameKind.JIEQI, "An", "Binh").first().name)
        eq("Solved! Clean.", puzzleNoticeText(PuzzleNotice.Solved(0u, 0u)))
        eq("Solved! (1 hint, 2 wrong moves)", puzzleNoticeText(PuzzleNotice.Solved(1u, 2u)))
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
