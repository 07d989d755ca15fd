// The solo Lines screen's controller beyond play: the buttons' states, and the hint thought about off the UI thread (it
// arrives through the UI dispatcher; one overtaken by a move, an undo or a new game is dropped).
package org.banco.shell.tests

import org.banco.LinesGame
import org.banco.LinesSettings
import org.banco.LinesTap
import org.banco.LinesUndo
import org.banco.shell.LinesController
import org.banco.shell.MemoryStore

fun linesSoloTests(s: Suite) {
    s.test("Lines buttons: Undo and Redo on exactly when Rust allows them, Hint off while it thinks") {
        val jobs = ArrayDeque<() -> Unit>()
        val c = LinesController(InlineUi, MemoryStore(), background = { jobs.addLast(it) })
        check(c.newGame(startBalls = 5, undo = LinesUndo.LAST_TURN, seed = 7))
        fun buttons() = c.state.value.let { listOf(it.canUndo, it.canRedo, it.canHint) }
        eq(listOf(false, false, true), buttons(), "at the start: nothing to take back")
        val (f, t) = neighbourMove(c.state.value.view!!.cells)!!
        check(c.play(f, t) != null)
        eq(listOf(true, false, true), buttons(), "after a move: Undo")
        c.undo()
        eq(listOf(false, true, true), buttons(), "the last turn taken back: Redo, no second undo")
        c.redo()
        eq(listOf(true, false, true), buttons(), "played again: Undo")
        c.hint()
        eq(listOf(true, false, false), buttons(), "Hint off while it thinks")
        jobs.removeFirst()()
        eq(listOf(true, false, true), buttons(), "the hint came")
        check(c.newGame(startBalls = 5, undo = LinesUndo.OFF, seed = 7))
        val (f2, t2) = neighbourMove(c.state.value.view!!.cells)!!
        check(c.play(f2, t2) != null)
        eq(listOf(false, false, true), buttons(), "undo off: never Undo")
    }

    s.test("Lines hint off the UI thread: it arrives through the UI dispatcher and names a legal move") {
        val ui = TestUi()
        try {
            val c = ui.call { LinesController(ui, MemoryStore()) }
            ui.call {
                check(c.newGame(startBalls = 5, seed = 13))
                c.hint()
                check(c.state.value.hinting && !c.state.value.canHint && c.state.value.hint == null) { "thinking: ${c.state.value}" }
            }
            val st = ui.await(c.state, "the hint") { it.hint != null }
            check(!st.hinting && st.canHint) { "done thinking: $st" }
            val h = st.hint!!
            // The same hint Rust gives for the position, and a move the game takes.
            val same = LinesGame(LinesSettings(5u, LinesUndo.LAST_TURN, false), 13uL).use { it.hint()!! }
            eq(same.text, h.text)
            ui.call {
                val picked = c.tap(h.from.toInt())
                eq(null, picked)
                check(h.to.toInt() in c.state.value.reachable) { "the target is reachable" }
                val turn = c.tap(h.to.toInt()) ?: throw AssertionError("refused: ${c.state.value.message}")
                eq(h.path.toList(), turn.path.toList(), "the path shown is the path played")
                eq(null, c.state.value.hint, "a move clears the hint")
            }
        } finally {
            ui.shutdown()
        }
    }

    s.test("Lines hint: one overtaken by a move, an undo or a new game is dropped when it comes") {
        // The hint's thinking waits in a queue that the test runs when it chooses.
        val jobs = ArrayDeque<() -> Unit>()
        val c = LinesController(InlineUi, MemoryStore(), background = { jobs.addLast(it) })
        check(c.newGame(startBalls = 5, undo = LinesUndo.UNLIMITED, seed = 17))
        c.hint()
        check(c.state.value.hinting) { "thinking" }
        c.hint()
        eq(1, jobs.size, "one hint at a time")
        // A move while it thinks: the answer, for the position before, is dropped.
        val (f, t) = neighbourMove(c.state.value.view!!.cells)!!
        check(c.play(f, t) != null)
        check(!c.state.value.hinting) { "the move ends the wait" }
        jobs.removeFirst()()
        eq(null, c.state.value.hint, "the late hint is dropped")
        // Undo, then new game, while a hint thinks: dropped too.
        c.hint()
        c.undo()
        jobs.removeFirst()()
        eq(null, c.state.value.hint, "dropped after an undo")
        c.hint()
        check(c.newGame(startBalls = 3, seed = 18))
        jobs.removeFirst()()
        eq(null, c.state.value.hint, "dropped after a new game")
        // Asked in the position on screen, it shows, and it is a legal move there.
        c.hint()
        jobs.removeFirst()()
        val h = c.state.value.hint ?: throw AssertionError("the hint of this position shows")
        check(!c.state.value.hinting)
        eq(0, jobs.size)
        val tap = LinesGame(LinesSettings(3u, LinesUndo.LAST_TURN, false), 18uL).use { g ->
            g.tap(h.from)
            g.tap(h.to)
        }
        check(tap is LinesTap.Moved) { "the hint plays: $tap" }
        check(c.play(h.from.toInt(), h.to.toInt()) != null)
    }
}
