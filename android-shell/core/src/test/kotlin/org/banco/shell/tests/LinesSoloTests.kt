// The solo Lines screen's controller beyond play: the options of a new game from Settings
// (start balls, undo rule, time limit or none — a continued game keeps its own), the buttons'
// states, the whole best-scores table, and the hint thought about off the UI thread (it
// arrives through the UI dispatcher; one overtaken by a move, an undo or a new game is dropped).
package org.banco.shell.tests

import org.banco.LinesGame
import org.banco.LinesSettings
import org.banco.LinesTap
import org.banco.LinesUndo
import org.banco.linesDefaultOptions
import org.banco.shell.LinesController
import org.banco.shell.MemoryStore
import org.banco.shell.Settings

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

    s.test("Lines options: Settings keep the start balls, undo and time limit, and a new game takes them") {
        val store = MemoryStore()
        val d = Settings()
        val defaults = linesDefaultOptions()
        eq(listOf(defaults.startBalls.toInt(), defaults.timeLimitS.toInt()), listOf(d.linesStartBalls, d.linesTimeLimitS), "Rust's defaults")
        eq(defaults.undo, d.linesUndo)
        eq(listOf(3, 5), Settings.LINES_START_BALLS, "Rust's start balls")
        check(Settings.LINES_TIME_LIMITS.any { it.seconds == 0u && it.label == "no limit" }) { "an untimed game is offered" }
        eq(LinesUndo.entries.toSet(), Settings.LINES_UNDO.map { it.undo }.toSet(), "every undo rule offered")
        val chosen = Settings(linesStartBalls = 3, linesUndo = LinesUndo.OFF, linesTimeLimitS = 0, linesPreview = true)
        chosen.save(store)
        eq("off", store.getString("settings.linesUndo"), "the undo rule stored by Rust's name")
        eq(chosen, Settings.load(store), "kept")
        // Damaged or out-of-range values fall back to the defaults.
        store.putString("settings.linesStartBalls", "4")
        store.putString("settings.linesUndo", "sometimes")
        store.putString("settings.linesTimeLimitS", "17")
        val damaged = Settings.load(store)
        eq(listOf(d.linesStartBalls, d.linesTimeLimitS), listOf(damaged.linesStartBalls, damaged.linesTimeLimitS))
        eq(d.linesUndo, damaged.linesUndo)

        // An untimed game of 3 balls without undo: the Undo button stays off.
        var clock = 0L
        val c = inlineLines(store, now = { clock })
        check(c.newGame(chosen, seed = 7))
        var st = c.state.value
        eq(3u, st.view!!.balls)
        eq(LinesSettings(3u, LinesUndo.OFF, true), st.view!!.settings)
        eq(null, st.timeLeftMs, "untimed")
        check(!st.canUndo && !st.canRedo && st.canHint) { "$st" }
        val (f, t) = neighbourMove(st.view!!.cells)!!
        check(c.play(f, t) != null)
        clock += 3_600_000
        c.tick()
        st = c.state.value
        check(!st.canUndo && !st.over && st.timeLeftMs == null) { "no undo, no clock: $st" }

        // Undo of the last turn, 60 seconds: Undo on after a move, then Redo.
        val timed = chosen.copy(linesStartBalls = 5, linesUndo = LinesUndo.LAST_TURN, linesTimeLimitS = 60, linesPreview = false)
        check(c.newGame(timed, seed = 7))
        eq(60_000L, c.state.value.timeLeftMs)
        val (f2, t2) = neighbourMove(c.state.value.view!!.cells)!!
        check(c.play(f2, t2) != null)
        check(c.state.value.canUndo && !c.state.value.canRedo) { "Undo on after a move" }
        c.undo()
        check(!c.state.value.canUndo && c.state.value.canRedo) { "only the last turn: Undo off, Redo on" }
        c.redo()
        check(c.state.value.canUndo && !c.state.value.canRedo) { "played again, the last turn can be taken back again" }

        // Continued later with other settings chosen meanwhile: the game keeps its own.
        Settings(linesStartBalls = 3, linesUndo = LinesUndo.UNLIMITED, linesTimeLimitS = 600).save(store)
        val later = inlineLines(store, now = { clock })
        check(later.continueGame())
        eq(LinesSettings(5u, LinesUndo.LAST_TURN, false), later.state.value.view!!.settings, "the saved game's settings")
        eq(60_000L, later.state.value.timeLeftMs, "and its own clock")
        check(later.newGame(Settings.load(store), seed = 7))
        eq(LinesSettings(3u, LinesUndo.UNLIMITED, false), later.state.value.view!!.settings, "a new game takes the settings")
        eq(600_000L, later.state.value.timeLeftMs)
    }

    s.test("Lines hint strength: Settings keep it, a damaged one is the default, and the hint thinks as hard as chosen") {
        val store = MemoryStore()
        val d = Settings()
        eq(linesDefaultOptions().hintPlayouts.toInt(), d.linesHintPlayouts, "Rust's default")
        val offered = Settings.LINES_HINTS.map { it.playouts.toInt() }
        eq(offered.sorted(), offered, "the quickest first")
        check(d.linesHintPlayouts in offered) { "the default is offered: $offered" }
        val quick = offered.first()
        Settings(linesHintPlayouts = quick).save(store)
        eq(quick, Settings.load(store).linesHintPlayouts, "kept")
        store.putString("settings.linesHintPlayouts", "77")
        eq(d.linesHintPlayouts, Settings.load(store).linesHintPlayouts, "one not offered: the default")

        // A seed whose first hint differs between the quickest strength and the default.
        fun hintOf(seed: Long, playouts: Int): String =
            LinesGame(LinesSettings(5u, LinesUndo.LAST_TURN, false), seed.toULong()).use {
                it.setHintPlayouts(playouts.toUInt())
                it.hint()!!.text
            }
        val seed = (1L..40L).firstOrNull { hintOf(it, quick) != hintOf(it, d.linesHintPlayouts) }
            ?: throw AssertionError("no seed among 1–40 where the strengths differ")
        val c = inlineLines(store)
        check(c.newGame(Settings(linesHintPlayouts = quick), seed = seed))
        eq(quick, c.hintPlayouts)
        eq(hintOf(seed, quick), c.hintNow().text, "the quick hint")
        check(c.newGame(Settings(), seed = seed))
        eq(hintOf(seed, d.linesHintPlayouts), c.hintNow().text, "the default hint")
        // Past what Rust allows: refused with its message, the strength unchanged.
        check(!c.setHintPlayouts(1_000_000)) { "refused" }
        check(c.state.value.message?.contains("playouts") == true) { "the message: ${c.state.value.message}" }
        eq(d.linesHintPlayouts, c.hintPlayouts)
        // Set during a game (before its first hint): the hint thinks as now chosen.
        check(c.newGame(Settings(), seed = seed))
        check(c.setHintPlayouts(quick))
        eq(hintOf(seed, quick), c.hintNow().text, "set during the game")

        // A controller whose store holds best scores makes its game at once (to load them):
        // with the default strength, as one that makes it later.
        var clock = 0L
        val ranked = MemoryStore()
        val first = inlineLines(ranked, now = { clock })
        check(first.newGame(startBalls = 5, timeLimitS = 60, seed = 21))
        playUntilScored(first, seed = 21)
        clock += 60_000
        first.tick()
        check(first.state.value.best.isNotEmpty()) { "a best score kept" }
        val later = inlineLines(ranked)
        eq(d.linesHintPlayouts, later.hintPlayouts)
        check(later.newGame(startBalls = 5, seed = seed))
        eq(hintOf(seed, d.linesHintPlayouts), later.hintNow().text, "the default hint")
    }

    s.test("Lines clock: a move made after the time ran out is refused, the clock counted first") {
        var clock = 0L
        val c = inlineLines(MemoryStore(), now = { clock })
        check(c.newGame(startBalls = 5, timeLimitS = 60, seed = 31))
        val h = c.hintNow()
        clock += 61_000
        check(c.play(h.from.toInt(), h.to.toInt()) == null) { "no move once the time is up" }
        check(c.state.value.timeUp) { "time up" }
        eq(0u, c.state.value.view!!.turns, "nothing played")
    }

    s.test("Lines best scores: every row with its rank, score, turns and text; the last game's at its rank") {
        var clock = 0L
        val store = MemoryStore()
        val c = inlineLines(store, now = { clock })
        // Three seeded games played to their first points, ended on time: the ties go after the
        // older games.
        for (game in 0 until 3) {
            check(c.newGame(startBalls = 5, timeLimitS = 60, seed = 21L + game))
            playUntilScored(c, seed = 21L + game)
            clock += 60_000
            c.tick()
            check(c.state.value.timeUp) { "time up" }
        }
        val st = c.state.value
        eq(3, st.best.size)
        eq(listOf(0u, 1u, 2u), st.best.map { it.rank })
        val rank = st.rank!!
        val row = st.best[rank]
        eq(listOf(st.view!!.score, st.view!!.turns), listOf(row.score, row.turns), "the last game's row")
        check(st.best.all { it.score > 0u }) { "only games with points are ranked" }
        check(st.best.zipWithNext().all { (a, b) -> a.score >= b.score }) { "best first: ${st.best}" }
        // The last game goes after every older game of its score (a tie ranks below).
        eq(st.best.count { it.score >= row.score } - 1, rank, "a tie goes after the older games")
        for (r in st.best) {
            val points = if (r.score == 1u) "point" else "points"
            val turns = if (r.turns == 1u) "turn" else "turns"
            check(r.text.startsWith("${r.rank.toInt() + 1}. ${r.score} $points, ${r.turns} $turns (")) { r.text }
            check(r.text.endsWith("(${r.date})") && r.date.isNotEmpty()) { r.text }
        }
        // Kept between launches, the same rows for a game of the same kind (5 balls, 1 min).
        eq(st.best, inlineLines(store).also { it.newGame(startBalls = 5, timeLimitS = 60, seed = 1) }.state.value.best)
        eq("classic, 5 balls, undo of the last turn, 1 min limit", st.view!!.bestKind.label)
        // An untimed game is of another kind: its own table.
        eq(emptyList<org.banco.LinesBestScore>(), inlineLines(store).also { it.newGame(seed = 1) }.state.value.best)
    }

    s.test("Lines shared challenge: a game of a known seed is kept and continued marked, and never ranked") {
        var clock = 0L
        val store = MemoryStore()
        val c = inlineLines(store, now = { clock })
        check(c.newGame(startBalls = 5, timeLimitS = 60, seed = 31, seedKnown = true))
        eq(true, c.state.value.view!!.seedKnown, "marked")
        eq(true, c.state.value.view!!.rankingNote?.contains("not ranked"), "Rust's note for the screen")
        playUntilScored(c, seed = 31)
        // The kept game comes back marked in the next launch, and ends there on time with points.
        val later = inlineLines(store, now = { clock })
        check(later.continueGame())
        eq(true, later.state.value.view!!.seedKnown, "the kept game keeps the mark")
        check(later.state.value.view!!.score > 0u)
        clock += 60_000
        later.tick()
        check(later.state.value.timeUp) { "time up" }
        eq(emptyList<org.banco.LinesBestScore>(), later.state.value.best, "not ranked")
        eq(null, later.state.value.rank)
        // Another seed without the mark is an ordinary game: ranked. (Seed 31 again would
        // not be: the table remembers that game as played to its end, its balls known.)
        check(later.newGame(startBalls = 5, timeLimitS = 60, seed = 32))
        eq(false, later.state.value.view!!.seedKnown, "a new game is not marked")
        eq(null, later.state.value.view!!.rankingNote, "an ordinary game: no note")
        playUntilScored(later, seed = 32)
        clock += 60_000
        later.tick()
        eq(1, later.state.value.best.size, "ranked")
        eq(0, later.state.value.rank)
    }

    s.test("Lines hint off the UI thread: it arrives through the UI dispatcher and names a legal move") {
        val ui = TestUi()
        try {
            val c = ui.call { LinesController(ui, MemoryStore()) }
            ui.call {
                check(c.newGame(startBalls = 5, seed = 13))
                c.hint()
                check(c.state.value.hinting && !c.state.value.canHint && c.state.value.hint == null) { "thinking: ${c.state.value}" }
                // Asking counts at once: the game now ranks among games with hints.
                eq(1u, c.state.value.view!!.hintsUsed)
                check(c.state.value.view!!.bestKind.hints) { "the kind: ${c.state.value.view!!.bestKind}" }
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

    s.test("Lines best scores that do not load: a newer table is kept untouched, a damaged one set aside") {
        // A finished game: played to its first points, then the time runs out.
        fun finishOne(c: LinesController, clock: LongArray) {
            check(c.newGame(startBalls = 5, timeLimitS = 60, seed = 3))
            playUntilScored(c, seed = 3)
            clock[0] += 61_000
            c.tick()
            check(c.state.value.timeUp)
        }
        val clock = longArrayOf(1_000L)
        val good = MemoryStore()
        finishOne(inlineLines(good, now = { clock[0] }), clock)
        val table = java.util.Base64.getDecoder().decode(good.getString(LinesController.K_BEST)!!)
        // A newer Banco's table (version 7): Rust's reason shown once, the table never written.
        val newerText = java.util.Base64.getEncoder().encodeToString(table.copyOf().also { it[0] = 7 })
        val store = MemoryStore()
        store.putString(LinesController.K_BEST, newerText)
        val c = inlineLines(store, now = { clock[0] })
        val m = c.state.value.message
        check(m != null && m.contains("update the app") && m.contains("not kept")) { "$m" }
        finishOne(c, clock)
        eq(m, c.state.value.message, "shown until cleared, also across a new game")
        c.clearMessage()
        check(c.newGame(seed = 4))
        eq(null, c.state.value.message, "once")
        eq(newerText, store.getString(LinesController.K_BEST), "the newer table is not overwritten")
        // A damaged table: set aside, then new scores are kept.
        val damaged = MemoryStore()
        val bad = java.util.Base64.getEncoder().encodeToString(byteArrayOf(1, -1, -1, -1, -1, -1))
        damaged.putString(LinesController.K_BEST, bad)
        val d = inlineLines(damaged, now = { clock[0] })
        check(d.state.value.message?.contains("set aside") == true) { "${d.state.value.message}" }
        eq(bad, damaged.getString(LinesController.K_BEST_DAMAGED))
        finishOne(d, clock)
        val kept = java.util.Base64.getDecoder().decode(damaged.getString(LinesController.K_BEST)!!)
        eq(1, LinesGame(LinesSettings(5u, LinesUndo.LAST_TURN, false), 1uL).use { g -> g.loadBestScores(kept); g.bestScores().size })
        check(damaged.getString(LinesController.K_BEST_DAMAGED) != null) { "the damaged bytes stay aside" }
    }

    s.test("Lines game to continue: a new game keeps it until its first turn; a newer Banco's is kept") {
        val store = MemoryStore()
        val c = inlineLines(store)
        check(c.newGame(seed = 5))
        val (f, t) = neighbourMove(c.state.value.view!!.cells)!!
        check(c.play(f, t) != null)
        val kept = store.getString(LinesController.K_CONTINUE)
        check(kept != null)
        val again = inlineLines(store)
        check(again.newGame(seed = 6))
        again.pause()
        again.resume()
        eq(kept, store.getString(LinesController.K_CONTINUE), "no turn in the new game: the old one stays")
        val (f2, t2) = neighbourMove(again.state.value.view!!.cells)!!
        check(again.play(f2, t2) != null)
        check(store.getString(LinesController.K_CONTINUE) != kept) { "the new game is kept from its first turn" }
        // Saved by a newer Banco: refused with Rust's reason, and kept.
        val newer = java.util.Base64.getDecoder().decode(kept).also { it[8] = 200.toByte() }
        val text = java.util.Base64.getEncoder().encodeToString(newer)
        store.putString(LinesController.K_CONTINUE, text)
        val later = inlineLines(store)
        check(!later.continueGame())
        check(later.state.value.message?.contains("update the app") == true) { "${later.state.value.message}" }
        eq(text, store.getString(LinesController.K_CONTINUE))
        // Damaged: dropped.
        store.putString(LinesController.K_CONTINUE, java.util.Base64.getEncoder().encodeToString(byteArrayOf(1, 2, 3)))
        check(!later.continueGame())
        check(!later.canContinue())
    }
}
