// Issue 18 through the boundary: PGN out and in (the first bad move named by number), the
// position editor (palette, taps with a brush, problems, flip, solve, play from here), the
// puzzle collection (tiers, a puzzle played to mate, progress saved and loaded), pictures
// (SVG pieces where they stand, PNG bytes of the right size).
package org.banco.tests

import org.banco.*

/** Width and height from a PNG's header. */
fun pngSize(bytes: ByteArray): Pair<Int, Int> {
    eq(listOf(0x89, 'P'.code, 'N'.code, 'G'.code), bytes.take(4).map { it.toInt() and 0xff }, "PNG magic")
    fun word(at: Int) = (0 until 4).fold(0) { acc, i -> (acc shl 8) or (bytes[at + i].toInt() and 0xff) }
    return word(16) to word(20)
}

fun recordsTests(s: Suite) {
    s.test("records: PGN out and back in, xiangqi and chess") {
        Game(GameKind.XIANGQI).use { g ->
            g.playText("C2=5", Notation.WXF)
            g.playText("h9g7", null)
            g.playText("馬二進三", null)
            val pgn = g.toPgn(listOf(PgnTag("Red", "Alice"), PgnTag("Black", "Bob")))
            check(pgn.contains("[Red \"Alice\"]") && pgn.contains("[Black \"Bob\"]")) { pgn }
            Game.fromPgn(pgn).use { back ->
                eq(g.fen(), back.fen())
                eq(g.historyText(Notation.COORDINATE), back.historyText(Notation.COORDINATE))
            }
        }
        Game(GameKind.CHESS).use { g ->
            for (m in listOf("e4", "e5", "Nf3")) g.playText(m, Notation.SAN)
            val pgn = g.toPgn(listOf())
            check(pgn.contains("1. e4 e5 2. Nf3 *")) { pgn }
            Game.fromPgn(pgn).use { eq(g.fen(), it.fen()) }
        }
    }

    s.test("records: a bad PGN names its first bad move by number") {
        val e = throws<PgnImportException.IllegalMove> { Game.fromPgn("1. e4 e5 2. Ke3 Nc6 *") }
        eq(2u, e.number)
        eq("White", e.side)
        eq("Ke3", e.text)
        check(e.why.contains("Ke3 is not a legal move")) { e.why }
        throws<PgnImportException.Empty> { Game.fromPgn("") }
        throws<PgnImportException.BadFen> { Game.fromPgn("[FEN \"x\"]\n[SetUp \"1\"]\n\n1. e4 *") }
        // A game against the computer saved, then written as PGN.
        Game(GameKind.CHESS).use { g ->
            g.playText("d4", null)
            check(pgnOfSaved(g.save()).contains("1. d4 *"))
        }
        throws<BancoException.BadSave> { pgnOfSaved(byteArrayOf(1, 2, 3)) }
    }

    s.test("records: the editor — palette, brush taps, problems, flip, FEN") {
        Editor.empty(GameKind.XIANGQI).use { ed ->
            val v = ed.view()
            eq(90, v.cells.size)
            eq(14, v.palette.size)
            check(v.problems.isNotEmpty()) { "an empty board has no kings" }
            // Tap the bottom centre (e0) with the red king, then d9 with the black king.
            eq(EditorTap.Placed(sq("e0")), ed.tap(4u, 9u, Color.RED, PieceKind.KING))
            eq(EditorTap.Placed(sq("d9")), ed.tap(3u, 0u, Color.BLACK, PieceKind.KING))
            ed.place(sq("e1"), Color.RED, PieceKind.ROOK)
            eq(listOf<EditorProblem>(), ed.problems())
            eq("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1", ed.fen())
            // A red advisor outside its palace is a problem about its square.
            ed.place(sq("a0"), Color.RED, PieceKind.ADVISOR)
            val bad = ed.view()
            check(bad.problems.any { it.square == sq("a0") }) { "${bad.problems}" }
            check(bad.cells.single { it.name == "a0" }.problem)
            refused("to_game while illegal", BancoException.InvalidPosition::class.java) { ed.toGame() }
            // Tapping the same piece again removes it.
            eq(EditorTap.Removed(sq("a0")), ed.tap(0u, 9u, Color.RED, PieceKind.ADVISOR))
            ed.flip()
            val flipped = ed.view()
            check(flipped.flipped)
            eq("e0", flipped.cells.single { it.column.toInt() == 4 && it.row.toInt() == 0 }.name)
            val solution = ed.solve(3u)
            eq(1u, solution.mate)
            eq(listOf("e1d1"), solution.line)
            refused("solve 0", BancoException.InvalidArgument::class.java) { ed.solve(0u) }
            // Stopping with no solve running does nothing: the next one runs whole.
            ed.stopSolve()
            eq(1u, ed.solve(3u).mate)
            ed.toGame().use { g -> eq(ed.fen(), g.fen()) }
            check(ed.renderSvg().contains(">帥</text>"))
            refused("a chess piece in xiangqi", BancoException.InvalidArgument::class.java) {
                ed.place(sq("a1"), Color.RED, PieceKind.QUEEN)
            }
        }
        // Jieqi: the palette's face-down pieces are tapped and placed with their faceDown.
        check(GameKind.JIEQI in editorGames())
        Editor.empty(GameKind.JIEQI).use { ed ->
            val down = ed.view().palette.filter { it.faceDown }
            eq(listOf(Color.RED, Color.BLACK), down.map { it.color })
            ed.place(sq("e0"), Color.RED, PieceKind.KING)
            ed.place(sq("d9"), Color.BLACK, PieceKind.KING)
            eq(EditorTap.Placed(sq("a0")), ed.tap(0u, 9u, down[0].color, down[0].kind, down[0].faceDown))
            ed.place(sq("b7"), down[1].color, down[1].kind, down[1].faceDown)
            eq(listOf<EditorProblem>(), ed.problems())
            eq("3k5/9/1x7/9/9/9/9/9/9/X3K4 w R2A2C2P5N2B2r2a2c2p5n2b2 0 1", ed.fen())
            check(ed.view().cells.single { it.name == "a0" }.piece!!.faceDown)
            ed.setCaptured(Color.BLACK, PieceKind.ROOK, 1u)
            eq(listOf(15u, 14u), ed.view().pools.map { it.total })
            refused("solve in jieqi", BancoException.Unsupported::class.java) { ed.solve(3u) }
            ed.toGame().use { g -> eq(ed.fen(), g.fen()) }
        }
        Editor.start(GameKind.CHESS).use { ed ->
            ed.remove(sq("h1", GameKind.CHESS))
            check(ed.problems().any { it.text.contains("no rook on h1") }) { "${ed.problems()}" }
            ed.setCastling(Color.RED, true, false)
            eq(listOf<EditorProblem>(), ed.problems())
            check(!ed.view().castling.whiteKingSide && ed.view().castling.whiteQueenSide)
        }
        // The en-passant square of a pawn that just made its double step.
        Editor.fromFen(GameKind.CHESS, "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3").use { ed ->
            ed.setEnPassant(sq("d6", GameKind.CHESS))
            check(ed.fen().contains(" KQkq d6 ")) { ed.fen() }
            ed.setEnPassant(null)
            check(ed.fen().contains(" KQkq - ")) { ed.fen() }
            refused("a square off the board", BancoException.InvalidArgument::class.java) { ed.setEnPassant(200u) }
        }
        // Lines is played with LinesGame: refused as every board-game call refuses it.
        refused("a Lines editor", BancoException.InvalidArgument::class.java) { Editor.empty(GameKind.LINES) }
    }

    s.test("records: play from here against the computer") {
        Editor.fromFen(GameKind.XIANGQI, "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1").use { ed ->
            val l = QueueVsListener()
            ed.playVsComputer(Color.RED, 1u, 50u, l).use { vs ->
                val first = l.await("the player's turn") { it.yourTurn }
                eq(ed.fen(), first.fen)
                vs.playText("e1d1")
                eq("You won: checkmate", l.await("mate") { it.outcome != null }.result)
                vs.end()
            }
        }
    }

    s.test("records: the puzzle collection, a puzzle solved in puzzle mode, progress kept") {
        val tiers = puzzleTiers()
        eq(PuzzleTier.MATE_IN1, tiers.first().tier)
        check(tiers.sumOf { it.count.toInt() } >= 200) { "$tiers" }
        val ones = collectionPuzzles(PuzzleTier.MATE_IN1)
        eq(tiers.first().count.toInt(), ones.size)
        check(ones.all { it.puzzle.mateIn == 1u && it.solution.isNotEmpty() })
        val all = collectionPuzzles(null)
        eq(tiers.sumOf { it.count.toInt() }, all.size)
        val p = ones.first()
        eq(p, collectionPuzzle(p.id))
        eq(null, collectionPuzzle("no such id"))
        // The record in the shell's store, written by the try itself.
        val store = MemoryPuzzleStore()
        val progress = PuzzleProgress.open(store)
        eq(null, progress.takeNotice())
        refused("an unknown puzzle", BancoException.InvalidArgument::class.java) {
            VsComputer.tryPuzzle("no such id", progress, 100u, QueueVsListener())
        }
        eq(null, store.bytes, "a refused try records nothing")
        val l = QueueVsListener()
        VsComputer.tryPuzzle(p.id, progress, 100u, l).use { vs ->
            val start = l.await("the puzzle") { it.yourTurn }
            eq(p.id, start.puzzle!!.id)
            eq(PuzzleRecord(false, 1u, 0u), progress.record(p.id), "the try is recorded when it starts")
            vs.hint()
            val hinted = l.await("a hint") { it.hint != null }
            eq(p.solution.first(), hinted.hint!!.coordinate, "the hint is the proven mate's move")
            eq(1u, hinted.puzzle!!.hintsUsed)
            vs.hint() // the same position: counted once
            l.await("the second hint") { it.hint != null && !it.hinting }
            refused("resign a puzzle", BancoException.NotAvailable::class.java) { vs.resign() }
            vs.playText(p.solution.first())
            val mated = l.await("mated") { it.outcome != null }
            check(mated.puzzle!!.solved)
            eq(PuzzleNotice.Solved(1u, 0u), mated.puzzle!!.notice)
            vs.clearNotice()
            eq(null, vs.state().puzzle!!.notice)
            vs.end()
        }
        val back = PuzzleProgress.load(progress.save())
        check(back.isSolved(p.id))
        eq(PuzzleRecord(true, 1u, 1u), back.record(p.id))
        eq(PuzzleRecord(true, 1u, 1u), PuzzleProgress.open(store).record(p.id), "the store has it")
        eq(1u, back.tiers().first().solved)
        check(back.nextUnsolved()!!.id != p.id)
        // The same by game: xiangqi's as above; chess has its own collection; jieqi none.
        eq(back.tiers(), back.tiersOf(GameKind.XIANGQI))
        eq(back.nextUnsolved(), back.nextUnsolvedOf(GameKind.XIANGQI))
        eq(puzzleTiers(), puzzleTiersOf(GameKind.XIANGQI))
        val chessTiers = puzzleTiersOf(GameKind.CHESS)
        check(chessTiers.isNotEmpty()) { "chess has puzzles" }
        eq(chessTiers.sumOf { it.count.toInt() }, collectionPuzzlesOf(GameKind.CHESS, null).size)
        eq(GameKind.CHESS, back.nextUnsolvedOf(GameKind.CHESS)!!.puzzle.kind)
        eq(chessTiers.size, back.tiersOf(GameKind.CHESS).size)
        eq(listOf<PuzzleTierInfo>(), puzzleTiersOf(GameKind.JIEQI))
        eq(null, back.nextUnsolvedOf(GameKind.JIEQI))
        // A damaged record starts afresh and says so, once.
        store.bytes = byteArrayOf(1, 2, 3)
        val fresh = PuzzleProgress.open(store)
        check(fresh.takeNotice() is PuzzleNotice.RecordDamaged)
        eq(null, fresh.takeNotice())
        check(!fresh.isSolved(p.id))
        refused("garbage progress", BancoException.BadSave::class.java) { PuzzleProgress.load(byteArrayOf(9, 9)) }
    }

    s.test("records: pictures — SVG pieces in place, PNG of the right size") {
        val svg = renderFenSvg(GameKind.XIANGQI, startFen(GameKind.XIANGQI), "h2e2", false)
        eq(32, Regex("class=\"piece ").findAll(svg).count())
        check(svg.contains("data-square=\"e0\" transform=\"translate(304 604)\"")) { "e0 at the bottom centre" }
        val lines = renderFenSvg(GameKind.LINES, "9/9/9/9/2RRRR3/9/9/9/8B GBY 40", null, false)
        eq(5, Regex("class=\"ball ").findAll(lines).count())
        refused("a bad Lines position", BancoException.InvalidPosition::class.java) {
            renderFenSvg(GameKind.LINES, "9/9", null, false)
        }
        Game(GameKind.CHESS).use { g ->
            g.playText("e4", null)
            val chess = renderGameSvg(g, true)
            check(chess.contains("data-from=\"e2\" data-to=\"e4\"")) { "the last move is marked" }
            val png = renderPng(chess, 2.0f)
            eq(1120 to 1120, pngSize(png))
            check(png.size > 5_000) { "a real picture: ${png.size} bytes" }
        }
        refused("scale 0", BancoException.InvalidArgument::class.java) { renderPng(svg, 0.0f) }
    }
}

/** The shell's store of the puzzle record, in memory. */
class MemoryPuzzleStore : PuzzleStore {
    @Volatile var bytes: ByteArray? = null
    override fun load(): ByteArray? = bytes
    override fun save(bytes: ByteArray) {
        this.bytes = bytes
    }
}
