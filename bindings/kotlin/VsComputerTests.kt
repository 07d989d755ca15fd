// VsComputer: a whole game against the computer through the boundary — taps into moves, the
// computer's answer on a Rust thread, undo/redo by whole turns (also while it thinks), hints,
// levels, flip, clearSelection, resignation, claimed draws (also with a move), puzzles, save/resume, end; xiangqi
// and chess
// (chess tests do not depend on the computer's strength).
package org.banco.tests

import org.banco.*
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.TimeUnit

class QueueVsListener : VsListener {
    val states = LinkedBlockingQueue<VsState>()
    @Volatile var last: VsState? = null
    @Volatile var thread: String = ""

    override fun onState(state: VsState) {
        thread = Thread.currentThread().name
        last = state
        states += state
    }

    /** The next state that satisfies [want], skipping others (30 s at most). */
    fun await(what: String, want: (VsState) -> Boolean): VsState {
        val deadline = System.nanoTime() + 30_000_000_000L
        while (true) {
            val left = deadline - System.nanoTime()
            val s = states.poll(maxOf(left, 0L), TimeUnit.NANOSECONDS)
                ?: throw AssertionError("no state with $what in 30 s; last: $last")
            if (want(s)) return s
        }
    }
}

fun vsSettings(kind: GameKind, human: Color = Color.RED, level: Int = 1, movetimeMs: Long = 50, fen: String? = null, rules: Rules? = null) =
    VsSettings(kind, human, level.toUByte(), rules, movetimeMs.toULong(), fen)

/** The cell of the square named [name] on a ready-to-draw board. */
fun BoardView.cell(name: String): Cell = cells.single { it.name == name }

/** Taps the cell showing square [name]. */
fun VsComputer.tapSquare(board: BoardView, name: String): TapResult {
    val c = board.cell(name)
    return tap(c.column, c.row)
}

fun vsComputerTests(s: Suite) {
    s.test("vs computer (xiangqi): taps, the computer's answer, undo/redo, hint, level, flip") {
        val l = QueueVsListener()
        val vs = VsComputer(vsSettings(GameKind.XIANGQI), l)
        try {
            val first = l.await("the player's turn") { it.yourTurn }
            eq(GameKind.XIANGQI, first.kind)
            eq(9 to 10, first.board.width.toInt() to first.board.height.toInt())
            eq(90, first.board.cells.size)
            check(!first.board.flipped && first.board.cells.none { it.dark })
            // Row by row from the top: Black's back rank first, a0 at the bottom left.
            eq("a9", first.board.cells.first().name)
            eq("a0", first.board.cells[81].name)
            eq("車", first.board.cells.first().piece?.glyph)
            check(!first.thinking && !first.canUndo && !first.canRedo && first.moves.isEmpty())
            eq(Color.RED, first.human)
            eq(1u.toUByte(), first.level)
            eq(startFen(GameKind.XIANGQI), first.fen)
            // Not on the board, an empty point, a black piece: nothing.
            eq(TapResult.Ignored, vs.tap(9u, 0u))
            eq(TapResult.Ignored, vs.tap(4u, 5u))
            eq(TapResult.Ignored, vs.tap(0u, 0u))
            eq(TapResult.Selected(25u), vs.tap(7u, 7u)) // the cannon on h2
            eq(12, vs.legalMovesFrom(25u).size)
            val selected = vs.state()
            check(selected.board.cell("h2").selected && selected.board.cell("e2").target) { "highlights" }
            eq(12, selected.board.cells.count { it.target })
            eq(TapResult.Cleared, vs.tap(4u, 5u))
            vs.tap(7u, 7u)
            vs.clearSelection()
            check(vs.state().board.cells.none { it.selected || it.target }) { "clearSelection" }
            vs.tap(7u, 7u)
            eq(TapResult.Moved(mv("h2", "e2")), vs.tap(4u, 7u))
            val answered = l.await("the computer's answer") { it.moves.size == 2 && it.yourTurn }
            eq("炮二平五", answered.moves[0])
            check(l.thread != Thread.currentThread().name) { "states come on a Rust thread" }
            val last = answered.lastMove ?: throw AssertionError("no last move")
            eq(2u, last.ply)
            eq(Color.BLACK, last.by)
            check(answered.board.cells.count { it.lastMove } == 2)
            check(answered.canUndo && !answered.canRedo)
            throws<BancoException.BadSquare> { vs.legalMovesFrom(200u) }

            vs.undo()
            val undone = l.await("undo by a whole turn") { it.moves.isEmpty() }
            check(undone.canRedo && !undone.canUndo && undone.yourTurn && !undone.thinking)
            throws<BancoException.NotAvailable> { vs.undo() }
            vs.redo()
            eq(answered.moves, l.await("redo") { it.moves.size == 2 }.moves)
            throws<BancoException.NotAvailable> { vs.redo() }

            vs.hint()
            val hinted = l.await("a hint") { it.hint != null && !it.hinting }
            check(hinted.board.cells.count { it.hint } == 2) { "the hint's squares are marked" }
            check(Game.fromFen(GameKind.XIANGQI, hinted.fen).use { it.isLegal(hinted.hint!!.played) })

            for (bad in listOf(0, 11, 255)) {
                val e = throws<BancoException.InvalidArgument> { vs.setLevel(bad.toUByte()) }
                check(e.message!!.contains("level $bad does not exist")) { e.message!! }
            }
            vs.setLevel(2u)
            vs.flip()
            val flipped = l.await("flipped") { it.board.flipped }
            eq(2u.toUByte(), flipped.level)
            eq("i0", flipped.board.cells.first().name)
            throws<BancoException.NotAvailable> { vs.claimDraw() }
        } finally {
            vs.end()
        }
        throws<BancoException.NotAvailable> { vs.state() }
        throws<BancoException.NotAvailable> { vs.tap(0u, 0u) }
        vs.destroy()
    }

    s.test("vs computer: undo while the computer thinks; its late answer is dropped") {
        val l = QueueVsListener()
        VsComputer(vsSettings(GameKind.XIANGQI, level = 10, movetimeMs = 60_000), l).use { vs ->
            l.await("the player's turn") { it.yourTurn }
            vs.playText("h2e2")
            val thinking = l.await("thinking") { it.thinking }
            check(thinking.canUndo && !thinking.yourTurn && !thinking.canRedo) { "$thinking" }
            val e = throws<BancoException.NotAvailable> { vs.playText("h9g7") }
            eq("it is the computer's turn", e.message)
            throws<BancoException.NotAvailable> { vs.hint() }
            vs.undo()
            val back = l.await("undone") { it.moves.isEmpty() }
            check(!back.thinking && back.yourTurn) { "$back" }
            Thread.sleep(300)
            eq(0, vs.state().moves.size, "no move from the dropped search")
            vs.end()
        }
    }

    s.test("vs computer: playing Black, resigning, saving and resuming") {
        val l = QueueVsListener()
        val vs = VsComputer(vsSettings(GameKind.XIANGQI, human = Color.BLACK, level = 2), l)
        val mine = l.await("the computer opened") { it.yourTurn }
        check(mine.board.flipped) { "Black plays from the bottom" }
        eq(1, mine.moves.size)
        vs.play(Game.fromFen(GameKind.XIANGQI, mine.fen).use { it.legalMoves().first() })
        val three = l.await("three moves") { it.moves.size == 3 && it.yourTurn }
        val saved = vs.save()
        vs.resign()
        val over = l.await("resigned") { it.outcome != null }
        eq(Outcome.Win(Color.RED, WinReason.RESIGNATION), over.outcome)
        eq("You lost: resignation", over.result)
        check(!over.yourTurn && over.canUndo)
        throws<BancoException.GameOver> { vs.resign() }
        throws<BancoException.GameOver> { vs.hint() }
        val stillLegal = Game.fromFen(GameKind.XIANGQI, over.fen).use { it.legalMoves().first() }
        throws<BancoException.GameOver> { vs.play(stillLegal) }
        vs.undo()
        check(l.await("undo after the end") { it.outcome == null }.yourTurn)
        vs.end()
        vs.destroy()

        val l2 = QueueVsListener()
        VsComputer.resume(saved, vsSettings(GameKind.XIANGQI, human = Color.RED, level = 7), l2).use { back ->
            val s = l2.await("resumed") { true }
            eq(three.fen, s.fen)
            eq(three.moves, s.moves)
            eq(Color.BLACK to 2u.toUByte(), s.human to s.level, "colour and level from the record")
            check(s.board.flipped && s.yourTurn && s.lastMove != null)
            back.end()
        }
        // Any saved game continues (the settings give colour and level).
        val plain = Game(GameKind.XIANGQI).use { it.playText("h2e2", null); it.save() }
        VsComputer.resume(plain, vsSettings(GameKind.XIANGQI, human = Color.RED, level = 4), QueueVsListener()).use {
            val s = it.state()
            eq(Color.RED to 4u.toUByte(), s.human to s.level)
            it.end()
        }
        throws<BancoException.BadSave> { VsComputer.resume(byteArrayOf(9, 9), vsSettings(GameKind.XIANGQI), QueueVsListener()) }
    }

    s.test("vs computer (chess): taps, a legal answer, castling, undo, save and resume") {
        val l = QueueVsListener()
        VsComputer(vsSettings(GameKind.CHESS), l).use { vs ->
            val first = l.await("the player's turn") { it.yourTurn }
            eq(GameKind.CHESS, first.kind)
            eq(8 to 8, first.board.width.toInt() to first.board.height.toInt())
            eq(64, first.board.cells.size)
            check(first.board.cell("a1").dark && !first.board.cell("h1").dark && first.board.cell("h8").dark)
            eq(32, first.board.cells.count { it.dark })
            eq("♖", first.board.cell("a1").piece?.glyph)
            eq(startFen(GameKind.CHESS), first.fen)
            eq(TapResult.Selected(sq("e2", GameKind.CHESS)), vs.tapSquare(first.board, "e2"))
            check(vs.state().board.cell("e4").target)
            eq(TapResult.Moved(cmv("e2", "e4")), vs.tapSquare(first.board, "e4"))
            val answered = l.await("a legal answer") { it.moves.size == 2 && it.yourTurn }
            eq("e4", answered.moves[0])
            val reply = answered.lastMove!!.played
            Game(GameKind.CHESS).use { g ->
                g.playText("e4", null)
                check(g.isLegal(reply)) { "the computer's move is legal" }
            }
            // Play on with the first legal move until the game ends or 30 moves each.
            var st = answered
            var n = 1
            while (st.outcome == null && n < 30) {
                val m = Game.fromFen(GameKind.CHESS, st.fen).use { it.legalMoves().first() }
                vs.play(m)
                n++
                val want = 2 * n
                st = l.await("move $n answered") { it.outcome != null || (it.moves.size == want && it.yourTurn) }
            }
            check(st.outcome != null || st.moves.size == 60) { "$st" }
            vs.undo()
            val undone = l.await("undone") { it.moves.size < st.moves.size && it.yourTurn }
            check(undone.canRedo)
            val bytes = vs.save()
            vs.end()
            VsComputer.resume(bytes, vsSettings(GameKind.CHESS), QueueVsListener()).use { back ->
                val s = back.state()
                eq(undone.fen, s.fen)
                eq(undone.moves, s.moves)
                check(s.canRedo)
                back.end()
            }
        }
        // Castling by taps: the king's two-square step.
        val lc = QueueVsListener()
        VsComputer(vsSettings(GameKind.CHESS, fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"), lc).use { vs ->
            val b = lc.await("the player's turn") { it.yourTurn }.board
            eq(TapResult.Selected(sq("e1", GameKind.CHESS)), vs.tapSquare(b, "e1"))
            eq(TapResult.Moved(cmv("e1", "g1")), vs.tapSquare(b, "g1"))
            val castled = lc.await("castled") { it.moves.isNotEmpty() }
            eq("O-O", castled.moves[0])
            eq(PieceKind.ROOK, castled.board.cell("f1").piece?.kind)
            vs.end()
        }
    }

    s.test("vs computer (chess): promotion through the picker, undo, claimed draw refused") {
        val l = QueueVsListener()
        VsComputer(vsSettings(GameKind.CHESS, fen = "k7/4P3/8/8/8/8/P7/K7 w - - 0 1"), l).use { vs ->
            val b = l.await("the player's turn") { it.yourTurn }.board
            vs.tapSquare(b, "e7")
            val ask = vs.tapSquare(b, "e8")
            check(ask is TapResult.ChoosePromotion) { "$ask" }
            ask as TapResult.ChoosePromotion
            eq(sq("e7", GameKind.CHESS) to sq("e8", GameKind.CHESS), ask.from to ask.to)
            eq(setOf(PieceKind.QUEEN, PieceKind.ROOK, PieceKind.BISHOP, PieceKind.KNIGHT), ask.choices.toSet())
            eq(0, vs.state().moves.size, "nothing played before the choice")
            eq(PromotionChoice(ask.from, ask.to, ask.choices), vs.state().board.promotion, "the picker in the state")
            // The picker dismissed: the choice goes with the selection.
            vs.clearSelection()
            eq(null, vs.state().board.promotion, "no picker after clearSelection")
            eq(TapResult.Ignored, vs.choosePromotion(PieceKind.QUEEN), "no choice pending after clearSelection")
            check(vs.state().board.cells.none { it.selected })
            vs.tapSquare(b, "e7")
            check(vs.tapSquare(b, "e8") is TapResult.ChoosePromotion)
            eq(TapResult.Moved(cmv("e7", "e8", PieceKind.KNIGHT)), vs.choosePromotion(PieceKind.KNIGHT))
            val promoted = l.await("promoted") { it.moves.isNotEmpty() }
            eq("e8=N", promoted.moves[0])
            eq("♘", promoted.board.cell("e8").piece?.glyph)
            eq(TapResult.Ignored, vs.choosePromotion(PieceKind.QUEEN), "no choice pending")
            l.await("answered") { it.moves.size == 2 && it.yourTurn }
            vs.undo()
            val back = l.await("undone") { it.moves.isEmpty() }
            eq(PieceKind.PAWN, back.board.cell("e7").piece?.kind)
            throws<BancoException.NotAvailable> { vs.claimDraw() }
            // The same move typed.
            eq("e8=Q+", vs.playText("e8=Q").text)
            vs.end()
        }
    }

    s.test("vs computer (chess): a draw claimed with a move; a claim that makes no draw changes nothing") {
        // Ninety-nine plies without a capture or a pawn move: the hundredth may be claimed.
        val l = QueueVsListener()
        VsComputer(vsSettings(GameKind.CHESS, fen = "8/8/4k3/8/8/3RK3/8/8 w - - 99 80"), l).use { vs ->
            val start = l.await("the player's turn") { it.yourTurn }
            eq(null, start.claimableDraw)
            val rd1 = start.claimableWith.single { it.mv.text == "Rd1" }
            eq(DrawReason.FiftyMoveRule, rd1.reason)
            throws<BancoException.IllegalMove> { vs.claimDrawWith(cmv("d3", "e3")) }
            eq("Rd1", vs.claimDrawWith(rd1.mv.played).text)
            val drawn = vs.state()
            eq(Outcome.Draw(DrawReason.FiftyMoveRule), drawn.outcome)
            eq(Color.RED, drawn.drawClaimedBy)
            vs.undo()
            check(vs.state().moves.isEmpty() && vs.state().outcome == null) { "undo takes back the claim and its move" }
            vs.end()
        }
        val l2 = QueueVsListener()
        VsComputer(vsSettings(GameKind.CHESS, fen = "8/8/4k3/8/8/3RK3/8/8 w - - 97 80"), l2).use { vs ->
            val start = l2.await("the player's turn") { it.yourTurn }
            check(start.claimableWith.isEmpty())
            val e = throws<BancoException.NotAvailable> { vs.claimDrawWith(cmv("d3", "d1")) }
            check(e.message!!.startsWith("there is no draw to claim with Rd1")) { e.message!! }
            eq(start, vs.state(), "a refused claim changes nothing")
            vs.end()
        }
    }

    s.test("vs computer: puzzles, bad settings") {
        val puzzle = builtinPuzzles().first { it.mateIn == 1u }
        val l = QueueVsListener()
        VsComputer.puzzle(puzzle, 100u, l).use { vs ->
            val start = l.await("the puzzle") { it.puzzle != null }
            eq(puzzle.name, start.puzzle!!.name)
            eq(1u, start.puzzle!!.movesLeft)
            eq("mate in 1 more move", start.puzzle!!.goal)
            eq(10u.toUByte(), start.level, "the computer defends at full strength")
            vs.playText("e1d1")
            val solved = l.await("mated") { it.outcome != null }
            check(solved.puzzle!!.solved)
            eq("solved", solved.puzzle!!.goal)
            eq(null, solved.puzzle!!.id, "a built-in puzzle is not recorded")
            eq("You won: checkmate", solved.result)
            throws<BancoException.GameOver> { vs.hint() }
            vs.end()
        }
        // A wrong move: answered, then taken back at once, counted, with a notice naming both.
        val l2 = QueueVsListener()
        VsComputer.puzzle(puzzle, 100u, l2).use { vs ->
            l2.await("the puzzle") { it.yourTurn }
            vs.playText("e1e2")
            // While the computer answers, the title says the move will be taken back.
            val answering = l2.await("the move that did not mate") { it.moves.size == 1 }
            eq("no mate with your last move: it will be taken back", answering.puzzle!!.goal)
            val back = l2.await("taken back") { it.puzzle?.wrongMoves == 1u }
            check(back.yourTurn && back.moves.isEmpty() && !back.canRedo) { "$back" }
            val notice = back.puzzle!!.notice as PuzzleNotice.WrongMoveTakenBack
            eq("e1e2", notice.played.coordinate)
            check(notice.reply != null)
            vs.clearNotice()
            eq(null, l2.await("cleared") { it.puzzle?.notice == null }.puzzle!!.notice)
            throws<BancoException.NotAvailable> { vs.claimDraw() }
            vs.end()
        }
        val any = QueueVsListener()
        for (bad in listOf(0, 11, 255)) {
            val e = throws<BancoException.InvalidArgument> { VsComputer(vsSettings(GameKind.XIANGQI, level = bad), any) }
            check(e.message!!.contains("level $bad does not exist")) { e.message!! }
        }
        for (ms in listOf(0L, 3_600_001L)) {
            throws<BancoException.InvalidArgument> { VsComputer(vsSettings(GameKind.CHESS, movetimeMs = ms), any) }
        }
        throws<BancoException.InvalidArgument> { VsComputer(vsSettings(GameKind.CHESS, rules = defaultRules(GameKind.XIANGQI)), any) }
        throws<BancoException.InvalidArgument> {
            VsComputer(vsSettings(GameKind.XIANGQI, rules = Rules.Xiangqi(RepetitionRule.CASUAL, 1u, 0u)), any)
        }
        throws<BancoException.InvalidPosition> { VsComputer(vsSettings(GameKind.CHESS, fen = "8/8/8/8/8/8/8/8 w - - 0 1"), any) }
        throws<BancoException.InvalidPosition> { VsComputer(vsSettings(GameKind.XIANGQI, fen = startFen(GameKind.CHESS)), any) }
        eq("Lines is played with LinesGame",
            throws<BancoException.InvalidArgument> { VsComputer(vsSettings(GameKind.LINES), any) }.message)
        throws<BancoException.InvalidPosition> {
            VsComputer.puzzle(Puzzle("bad", GameKind.XIANGQI, "not a fen", 1u), 100u, any)
        }
    }
}
