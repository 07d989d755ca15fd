// Lines through the shell's controllers: a seeded solo game played by taps (pick, target,
// the ball's walk along its path) to the end, against the clock, kept and continued; a game
// with Lines 98's preview (its spots drawn, the balls landing there); and a race between two
// match controllers over loopback, played by taps until both boards are full.
package org.banco.shell.tests

import org.banco.Color
import org.banco.LinesBestScore
import org.banco.LinesGame
import org.banco.LinesHint
import org.banco.LinesSettings
import org.banco.LinesUndo
import org.banco.MatchPhase as Phase
import org.banco.RaceEnding
import org.banco.RaceSettings
import org.banco.shell.BallRun
import org.banco.shell.KeyValueStore
import org.banco.shell.LinesController
import org.banco.shell.LobbyModel
import org.banco.shell.MatchController
import org.banco.shell.MemoryStore
import org.banco.shell.Settings
import org.banco.shell.UiDispatcher
import org.banco.shell.spotBalls

/** A ball with an empty neighbour on [cells] (0 empty): a move that is always legal. */
fun neighbourMove(cells: ByteArray): Pair<Int, Int>? {
    for (from in 0 until 81) {
        if (cells[from].toInt() == 0) continue
        for ((df, dr) in listOf(1 to 0, -1 to 0, 0 to 1, 0 to -1)) {
            val (f, r) = from % 9 + df to from / 9 + dr
            if (f in 0..8 && r in 0..8 && cells[r * 9 + f].toInt() == 0) return from to r * 9 + f
        }
    }
    return null
}

/** Runs what a controller posts at once, on the calling thread. */
object InlineUi : UiDispatcher {
    override fun post(block: () -> Unit) = block()
}

/** A controller whose hint thinks at once on the calling thread (the tests that play by hints). */
fun inlineLines(store: KeyValueStore = MemoryStore(), now: (() -> Long)? = null): LinesController =
    if (now == null) LinesController(InlineUi, store, background = { it() }) else LinesController(InlineUi, store, now, background = { it() })

/**
 * Plays [c]'s game — new with [seed] and [startBalls], no preview — until it has a point (a game
 * without one is no record), each move the hint of a twin game of the same seed: [c]'s own game
 * asks no hint, so it ranks among games without hints. Its turns then.
 */
fun playUntilScored(c: LinesController, seed: Long, startBalls: Int = 5): UInt {
    LinesGame(LinesSettings(startBalls.toUByte(), LinesUndo.OFF, false), seed.toULong()).use { twin ->
        twin.setHintPlayouts(1u)
        while (c.state.value.view!!.score == 0u) {
            eq(twin.view().cells.toList(), c.state.value.view!!.cells.toList(), "the twin plays the same game")
            val h = twin.hint()!!
            twin.play(h.from, h.to)
            check(c.play(h.from.toInt(), h.to.toInt()) != null)
        }
    }
    return c.state.value.view!!.turns
}

/** The hint of an [inlineLines] controller, thought about at once. */
fun LinesController.hintNow(): LinesHint {
    hint()
    return state.value.hint ?: throw AssertionError("no hint: ${state.value}")
}

fun linesTests(s: Suite) {
    s.test("Lines 98 preview: a new game with it shows each next ball on its spot, and the balls land there") {
        val c = inlineLines()
        check(c.newGame(startBalls = 3, undo = LinesUndo.OFF, seed = 11, preview = true))
        eq(true, c.state.value.view!!.settings.preview)
        var onSpots = 0
        for (i in 0 until 15) {
            val view = c.state.value.view!!
            val shown = view.spotBalls
            eq(3, shown.size, "three announced balls, each on its spot")
            eq(view.nextColors.map { it.toInt() }, shown.map { it.second }, "in the announced colours")
            val h = c.hintNow()
            val turn = c.play(h.from.toInt(), h.to.toInt())!!
            if (turn.cleared.isEmpty() && shown.none { it.first == h.to.toInt() }) {
                eq(shown, turn.landed.map { it.cell.toInt() to it.color.toInt() }, "the balls land where they were drawn")
                onSpots++
            }
            if (c.state.value.over) break
        }
        check(onSpots > 5) { "only $onSpots landings on spots" }
        check(c.newGame(startBalls = 3, undo = LinesUndo.OFF, seed = 11))
        eq(emptyList<Pair<Int, Int>>(), c.state.value.view!!.spotBalls, "off by default: no spots")
        eq(false, c.state.value.view!!.settings.preview)
    }

    s.test("Lines: a seeded game played by taps to the end, kept and continued") {
        val store = MemoryStore()
        val c = inlineLines(store)
        check(c.newGame(startBalls = 5, undo = LinesUndo.LAST_TURN, seed = 9))
        var st = c.state.value
        eq(5u, st.view!!.balls)
        eq(null, st.timeLeftMs, "no clock unless asked")
        var turns = 0
        var kept: String? = null
        // 3000: a bound on a runaway loop, not a prediction (the hint's games last about 110–1,600 turns).
        while (!c.state.value.over && turns < 3000) {
            val h = c.hintNow()
            check(h.reason.isNotBlank()) { "the hint says why" }
            if (turns == 0) {
                // The picked ball tapped again is put down (Rust decides).
                c.tap(h.from.toInt())
                eq(null, c.tap(h.from.toInt()))
                eq(null, c.state.value.selected)
                eq(emptyList<Int>(), c.state.value.reachable)
            }
            eq(null, c.tap(h.from.toInt()), "a tap on a ball picks it")
            st = c.state.value
            eq(h.from.toInt(), st.selected)
            check(h.to.toInt() in st.reachable) { "the target is marked reachable" }
            val before = st.view!!.cells.map { it.toInt() }
            val turn = c.tap(h.to.toInt())!!
            st = c.state.value
            eq(null, st.selected)
            val run = st.run!!
            // While the ball walks, the board before the turn, the ball lifted off its cell
            // (a line it completes stays whole, landed balls wait); then the turn's end.
            val after = st.view!!.cells.map { it.toInt() }
            eq(before.toMutableList().also { it[h.from.toInt()] = 0 }, run.cellsAt(0, after), "the board while it walks")
            eq(after, run.cellsAt(run.durationMs, after), "the board once it arrived")
            eq(turn.path.map { it.toInt() }, run.path, "the controller animates the path Rust gave")
            eq(h.from.toInt(), run.cellAt(0))
            eq(h.to.toInt(), run.cellAt(run.durationMs))
            eq(run.durationMs, BallRun.STEP_MS * (run.path.size - 1))
            if (run.path.size > 2) eq(run.path[1], run.cellAt(BallRun.STEP_MS), "one cell per step")
            check(!run.isDone(0) || run.path.size == 1)
            eq(turn.score, st.view!!.score)
            turns++
            if (turns == 5) kept = store.getString(LinesController.K_CONTINUE)
        }
        st = c.state.value
        check(st.view!!.gameOver) { "the board filled up in $turns turns" }
        eq(0, st.rank, "the first game tops the best scores")
        eq(st.view!!.score, st.best.first().score)
        // The table's row at the game's rank: its rank, score, turns and Rust's text.
        val row = st.best[st.rank!!]
        eq(listOf(0u, st.view!!.score, st.view!!.turns), listOf(row.rank, row.score, row.turns))
        check(row.text.startsWith("1. ${row.score} points, ${row.turns} turns (")) { row.text }
        eq(null, store.getString(LinesController.K_CONTINUE), "a finished game is not kept")
        eq(null, c.tap(0), "no move after the end")

        // Taking the end back takes it out of the best scores (kept ones too); redo ends
        // the game again, entered once.
        val ending = st.view!!
        c.undo()
        check(!c.state.value.over && c.state.value.view!!.canRedo) { "the last turn is taken back" }
        eq(emptyList<LinesBestScore>(), c.state.value.best, "the ending is taken out")
        eq(null, c.state.value.rank)
        check(inlineLines(store).also { it.newGame(seed = 1) }.state.value.best.isEmpty()) { "the kept table follows" }
        eq(ending.score, c.redo()!!.score, "the same balls land again")
        check(c.state.value.over)
        eq(null, c.redo())
        eq(0, c.state.value.rank)
        eq(1, c.state.value.best.size, "one entry a game")
        st = c.state.value

        // A refused move keeps the board and says why.
        val d = inlineLines(store)
        check(d.newGame(seed = 9))
        // The game above was played with hints: it ranks in the table of games with hints,
        // which a game without them does not show; asking for a hint shows it.
        check(st.view!!.bestKind.hints && !d.state.value.view!!.bestKind.hints) { "the kinds" }
        eq(emptyList<LinesBestScore>(), d.state.value.best, "no game without hints yet")
        d.hintNow()
        eq(st.view!!.score, d.state.value.best.first().score, "the best scores are kept between games")
        val v = d.state.value.view!!
        val balls = v.cells.indices.filter { v.cells[it].toInt() != 0 }
        eq(null, d.play(v.cells.indexOfFirst { it.toInt() == 0 }, v.cells.indexOfLast { it.toInt() == 0 }))
        check(d.state.value.message!!.contains("no ball")) { d.state.value.message!! }
        eq(null, d.play(balls[0], balls[1]))
        eq(v, d.state.value.view)

        // The kept game after 5 turns continues there.
        store.putString(LinesController.K_CONTINUE, kept)
        check(d.continueGame())
        eq(5u, d.state.value.view!!.turns)
    }

    s.test("Lines against the clock: the time runs out and the game stops") {
        var clock = 1_000L
        val store = MemoryStore()
        val c = inlineLines(store, now = { clock })
        check(c.newGame(startBalls = 3, timeLimitS = 60, seed = 4))
        eq(60_000L, c.state.value.timeLeftMs)
        clock += 20_000
        c.tick()
        eq(40_000L, c.state.value.timeLeftMs)
        // The app in the background for 10 minutes (a phone call): no time is counted.
        c.pause()
        clock += 600_000
        c.tick()
        eq(40_000L, c.state.value.timeLeftMs, "paused in the background")
        c.resume()
        clock += 1_000
        c.tick()
        eq(39_000L, c.state.value.timeLeftMs, "running again")
        val turns = playUntilScored(c, seed = 4, startBalls = 3)
        // Left and continued later: the clock stood still meanwhile and goes on from 39 s.
        clock += 500_000
        val again = inlineLines(store, now = { clock })
        check(again.continueGame())
        eq(39_000L, again.state.value.timeLeftMs, "the time it had left")
        clock += 40_000
        again.tick()
        check(again.state.value.timeUp && again.state.value.over) { "time up" }
        check(again.state.value.view!!.gameOver) { "Rust ended the game" }
        val (f2, t2) = neighbourMove(again.state.value.view!!.cells)!!
        eq(null, again.play(f2, t2), "no move once the time is up")
        eq(turns, again.state.value.view!!.turns)
        // The score ended on time enters the best scores; nothing is left to continue.
        eq(0, again.state.value.rank)
        eq(again.state.value.view!!.score, again.state.value.best.first().score)
        check(!again.canContinue())
        check(!c.newGame(startBalls = 4)) { "4 start balls are refused" }
        check(c.state.value.message != null)
    }

    s.test("Lines race between two controllers over loopback, to the end") {
        val hostUi = TestUi()
        val guestUi = TestUi()
        // The race of the host's Settings (3 balls, an hour), hosted as a board game is
        // (the lobby's host, here without Bluetooth) on a port that is taken: on a free one
        // instead, as a board game's host does.
        val settings = Settings(playerName = "An", raceStartBalls = 3, raceMinutes = 60)
        eq(RaceSettings(3u, 3600u, false), settings.raceSettings())
        val taken = java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))
        val host = hostUi.call {
            MatchController.onFreePortIfTaken("127.0.0.1:${taken.localPort}") {
                LobbyModel(hostUi).host(settings, it, advertise = false, race = true)
            }
        }
        var guestOrNull: MatchController? = null
        try {
            val address = hostUi.awaitMatch(host, "listening") { it.phase == Phase.LISTENING }.address
            check(!address.endsWith(":${taken.localPort}")) { "hosted on the taken port: $address" }
            taken.close()
            val guest = guestUi.call { MatchController.join(guestUi, "Binh", address) }
            guestOrNull = guest
            val hv = hostUi.awaitMatch(host, "host code") { it.phase == Phase.VERIFY }
            guestUi.awaitMatch(guest, "guest code") { it.phase == Phase.VERIFY }
            hostUi.call { host.confirmCode(hv.code!!) }
            guestUi.call { guest.confirmCode(hv.code!!) }
            guestUi.awaitMatch(guest, "the race proposed") { it.phase == Phase.PROPOSED }
            guestUi.call { guest.acceptOffer(guest.state.value.match!!.proposalId!!) }
            val h0 = hostUi.awaitMatch(host, "host started") { it.race?.board != null }.race!!
            val g0 = guestUi.awaitMatch(guest, "guest started") { it.race?.board != null }.race!!
            eq(Color.RED, h0.yourColor)
            eq(Color.BLACK, g0.yourColor)
            eq(h0.board!!.cells.toList(), g0.board!!.cells.toList(), "one seed, the same boards")

            // Both play by taps until their boards are full.
            var moves = 0
            val sides = listOf(hostUi to host, guestUi to guest)
            while (sides.any { (ui, c) -> ui.call { c.state.value.race?.canMove == true } }) {
                for ((ui, c) in sides) {
                    ui.call {
                        val r = c.state.value.race!!
                        if (!r.canMove) return@call
                        val (from, to) = neighbourMove(r.board!!.cells) ?: return@call
                        val before = r.board!!.cells.map { it.toInt() }
                        eq(null, c.raceTap(from), "a tap on a ball picks it")
                        eq(from, c.raceSelected.value)
                        val turn = c.raceTap(to) ?: throw AssertionError("refused: ${c.state.value.notice}")
                        val run = c.raceRun.value!!
                        eq(turn.path.map { it.toInt() }, run.path)
                        eq(before.toMutableList().also { it[from] = 0 }, run.cellsAt(0, emptyList()), "our board while the ball walks")
                        eq(to, run.cellAt(run.durationMs))
                        eq(null, c.raceSelected.value)
                        moves++
                        Unit
                    }
                }
                check(moves < 1000) { "the boards fill up" }
            }
            val h = hostUi.awaitMatch(host, "host result") { it.race?.outcome != null }.race!!
            val g = guestUi.awaitMatch(guest, "guest result") { it.race?.outcome != null }.race!!
            eq(RaceEnding.Finished, h.outcome!!.ending)
            eq(h.outcome!!.copy(text = ""), g.outcome!!.copy(text = ""), "both sides agree")
            eq(h.score, g.opponentScore)
            eq(g.score, h.opponentScore)
            check(h.board!!.full && g.board!!.full)
        } finally {
            guestOrNull?.let { g -> guestUi.call { g.leave() } }
            hostUi.call { host.leave() }
            hostUi.shutdown()
            guestUi.shutdown()
        }
    }
}
