// Garbage to every entry point: each call either returns or throws the BancoException its
// documentation names — never an Internal (a Rust panic), never a crash of the JVM.
package org.banco.tests

import org.banco.*

val garbageStrings: List<String> = listOf(
    "", " ", "\u0000", "h2", "h2e2e2", "z9z9", "C2=", "C2=0", "C0=5", "C2=99", "+-=", "13=2",
    "炮", "炮二平", "炮十平五", "前前炮平五", "🐉🐉🐉🐉", "h2\u0301e2", "\uFEFFh2e2", "9/9/9",
    "e9", "Nf9", "O-O-O-O", "e8=K", "exd9", "Qxh4##", "a7a8x", "0000", "--",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
    "kkkkkkkkk/9/9/9/9/9/9/9/9/KKKKKKKKK w - - -1 0",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
    "8/8/8/8/8/8/8/8 w - - 0 1", "K7/8/8/8/8/8/8/k7 w Q - 0 1",
    "x".repeat(100_000), "/".repeat(1000), "1".repeat(500),
)

val garbageSquares: List<UByte> = listOf(0, 63, 64, 89, 90, 99, 200, 255).map { it.toUByte() }

val everyKind = GameKind.entries
val playable = listOf(GameKind.XIANGQI, GameKind.CHESS, GameKind.JIEQI)

private val BAD_TEXT = arrayOf(BancoException.BadMoveText::class.java, BancoException.IllegalMove::class.java)
private val BAD_MOVE = arrayOf(BancoException.BadSquare::class.java, BancoException.IllegalMove::class.java)

fun garbageBytes(kind: GameKind): List<ByteArray> {
    val good = Game(kind).use { g ->
        g.playText(if (kind == GameKind.CHESS) "e4" else "h2e2", null)
        g.save()
    }
    val out = mutableListOf(
        ByteArray(0), ByteArray(3), "BNCO".toByteArray(), ByteArray(64) { -1 },
        byteArrayOf(66, 78, 67, 79, 1, 0, 0, 3, 120, 0, -1, -1),
    )
    for (i in good.indices) out += good.copyOf().also { it[i] = (it[i].toInt() xor 0x5a).toByte() }
    out += good.copyOf(good.size - 1)
    out += good + byteArrayOf(0)
    return out
}

fun garbageTests(s: Suite) {
    s.test("garbage to every Game entry point and free function") {
        for (k in everyKind) {
            if (k in playable) {
                Game(k).close()
                startFen(k)
                boardShape(k)
            } else {
                // Lines: played with LinesGame, refused by the board-game calls.
                refused("new $k", BancoException.InvalidArgument::class.java) { Game(k) }
                refused("startFen $k", BancoException.InvalidArgument::class.java) { startFen(k) }
                refused("boardShape $k", BancoException.InvalidArgument::class.java) { boardShape(k) }
            }
            notations(k)
            pieceKinds(k)
            if (k in playable) colorName(k, Color.RED)
            else refused("colorName $k", BancoException.InvalidArgument::class.java) { colorName(k, Color.RED) }
            val names = if (k in playable) boardShape(k).squareNames.toSet() else emptySet()
            for (t in garbageStrings) {
                // validateFen and fromFen agree: no problems listed, or InvalidPosition.
                val problems = validateFen(k, t)
                if (k in playable && problems.isEmpty()) {
                    Game.fromFen(k, t).close()
                } else {
                    check(problems.isNotEmpty()) { "validateFen $k: no problem with `${t.take(40)}`" }
                    refused("fromFen $k `${t.take(20)}`", BancoException.InvalidPosition::class.java, BancoException.InvalidArgument::class.java) {
                        Game.fromFen(k, t)
                    }
                }
                if (t.trim().lowercase() !in names) {
                    refused("parseSquare $k `${t.take(20)}`", BancoException.InvalidArgument::class.java, BancoException.Unsupported::class.java) {
                        parseSquare(k, t)
                    }
                }
            }
            for (a in garbageSquares) {
                mayRefuse("squareName $k $a", BancoException.BadSquare::class.java, BancoException.InvalidArgument::class.java) { squareName(k, a) }
            }
        }
        for (k in playable) {
            Game(k).use { g ->
                val before = g.fen()
                for (t in garbageStrings) {
                    for (n in listOf(null) + Notation.entries) {
                        refused("playText `${t.take(20)}` $n", *BAD_TEXT) { g.playText(t, n) }
                        refused("parseMove `${t.take(20)}` $n", *BAD_TEXT) { g.parseMove(t, n) }
                    }
                }
                for (a in garbageSquares) {
                    mayRefuse("pieceAt", BancoException.BadSquare::class.java) { g.pieceAt(a) }
                    mayRefuse("legalMovesFrom", BancoException.BadSquare::class.java) { g.legalMovesFrom(a) }
                    for (b in garbageSquares) {
                        for (p in listOf(null, PieceKind.QUEEN, PieceKind.CANNON)) {
                            val m = Move(a, b, p)
                            check(!g.isLegal(m)) { "$m is legal?" }
                            refused("play $m", *BAD_MOVE) { g.play(m) }
                            for (n in Notation.entries) refused("moveText $m $n", *BAD_MOVE) { g.moveText(m, n) }
                        }
                    }
                }
                // A flipped byte may still give a valid record (another limit, another legal
                // move): each load must end with a game or BadSave; the first five never load.
                for ((i, b) in garbageBytes(k).withIndex()) {
                    if (i < 5) {
                        refused("load #$i", BancoException.BadSave::class.java) { Game.load(b) }
                        refused("restore #$i", BancoException.BadSave::class.java) { g.restore(b) }
                    } else {
                        mayRefuse("load #$i", BancoException.BadSave::class.java, BancoException.NewerSave::class.java) { Game.load(b).close() }
                    }
                }
                for (r in listOf(0, 1, 10, 255)) {
                    refused("setRules $r", BancoException.InvalidArgument::class.java) {
                        g.setRules(Rules.Xiangqi(RepetitionRule.ASIAN, r.toUByte(), UShort.MAX_VALUE))
                    }
                }
                refused("setRules of another game", BancoException.InvalidArgument::class.java) {
                    g.setRules(if (k == GameKind.CHESS) defaultRules(GameKind.XIANGQI)!! else Rules.Chess(true))
                }
                refused("claimDraw", BancoException.NotAvailable::class.java) { g.claimDraw() }
                repeat(3) {
                    eq(null, g.undo())
                    eq(null, g.redo())
                }
                eq(before, g.fen(), "the game is untouched")
                eq(0u, g.status().ply)
            }
        }
        for (bad in listOf(
            Outcome.Draw(DrawReason.NoCapture(0u)),
            Outcome.Win(Color.BLACK, WinReason.FORFEIT),
            Outcome.Win(Color.RED, WinReason.PERPETUAL_CHASE),
        )) {
            for (k in everyKind) for (me in listOf(null, Color.RED, Color.BLACK)) {
                if (k in playable) check(resultText(k, bad, me).isNotEmpty())
                else refused("resultText $k", BancoException.InvalidArgument::class.java) { resultText(k, bad, me) }
            }
        }
    }

    s.test("garbage to VsComputer") {
        val l = QueueVsListener()
        for (k in playable) {
            VsComputer(vsSettings(k, movetimeMs = 20), l).use { vs ->
                val before = vs.state().fen
                for (t in garbageStrings) refused("vs playText `${t.take(20)}`", *BAD_TEXT) { vs.playText(t) }
                for (a in garbageSquares) {
                    for (b in garbageSquares) {
                        eq(TapResult.Ignored, vs.tap(a, b), "tap $a $b: off the board or the other side's piece")
                        refused("vs play", *BAD_MOVE) { vs.play(Move(a, b, PieceKind.CANNON)) }
                    }
                    mayRefuse("vs legalMovesFrom $a", BancoException.BadSquare::class.java) { vs.legalMovesFrom(a) }
                }
                for (p in PieceKind.entries) eq(TapResult.Ignored, vs.choosePromotion(p), "no promotion pending")
                repeat(2) { vs.clearSelection() }
                refused("vs redo", BancoException.NotAvailable::class.java) { vs.redo() }
                refused("vs undo", BancoException.NotAvailable::class.java) { vs.undo() }
                refused("vs claimDraw", BancoException.NotAvailable::class.java) { vs.claimDraw() }
                eq(before, vs.state().fen, "nothing was played")
                vs.end()
                vs.end()
                for ((what, call) in listOf<Pair<String, () -> Unit>>(
                    "state" to { vs.state() }, "tap" to { vs.tap(0u, 0u) }, "undo" to { vs.undo() },
                    "hint" to { vs.hint() }, "save" to { vs.save() }, "flip" to { vs.flip() },
                    "setLevel" to { vs.setLevel(3u) }, "resign" to { vs.resign() },
                    "clearSelection" to { vs.clearSelection() }, "playText" to { vs.playText("e4") },
                    "clearNotice" to { vs.clearNotice() },
                )) {
                    refused("closed $what", BancoException.NotAvailable::class.java) { call() }
                }
            }
            for ((i, b) in garbageBytes(k).withIndex()) {
                if (i < 5) {
                    refused("resume #$i", BancoException.BadSave::class.java) { VsComputer.resume(b, vsSettings(k), l) }
                } else {
                    mayRefuse("resume #$i", BancoException.BadSave::class.java, BancoException.NewerSave::class.java, BancoException.InvalidArgument::class.java) {
                        VsComputer.resume(b, vsSettings(k), l).use { it.end() }
                    }
                }
            }
        }
        for (t in garbageStrings) {
            refused("puzzle `${t.take(20)}`", BancoException.InvalidPosition::class.java, BancoException.InvalidArgument::class.java) {
                VsComputer.puzzle(Puzzle("x", GameKind.XIANGQI, t.ifEmpty { "x" }, 1u), 10u, l)
            }
        }
        val progress = PuzzleProgress()
        for (t in garbageStrings) {
            refused("tryPuzzle `${t.take(20)}`", BancoException.InvalidArgument::class.java) { VsComputer.tryPuzzle(t, progress, 10u, l) }
            eq(PuzzleRecord(false, 0u, 0u), progress.record(t), "a refused try records nothing")
        }
    }

    s.test("a throwing listener does not break the game") {
        Game(GameKind.XIANGQI).use { g ->
            g.setListener(object : GameListener {
                override fun onEvent(event: GameEvent): Unit = throw IllegalStateException("listener bug")
            })
            g.playText("h2e2", Notation.COORDINATE)
            g.undo()
            eq(0u, g.status().ply)
        }
        val vs = VsComputer(vsSettings(GameKind.CHESS), object : VsListener {
            override fun onState(state: VsState): Unit = throw IllegalStateException("listener bug")
        })
        vs.playText("e4")
        val deadline = System.nanoTime() + 30_000_000_000L
        while (vs.state().moves.size < 2 && System.nanoTime() < deadline) Thread.sleep(10)
        eq(2, vs.state().moves.size, "the computer still answers")
        vs.end()
        vs.destroy()
    }
}
