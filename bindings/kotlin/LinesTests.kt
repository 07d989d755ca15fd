// Lines: a whole seeded game played through LinesGame by its hints (the path to animate,
// the announced balls landing, typed refusals, undo, best scores, save → load giving the
// same future balls), a Lines 98 preview game whose balls land on the spots shown (and in
// its view), a Lines race between two Match objects over loopback, played to the end (both
// boards full) with the race in each side's MatchState, and a race with the preview.
package org.banco.tests

import org.banco.*

/** What a Lines view shows, comparable (its byte arrays as lists). */
fun LinesView.key(): List<Any> = listOf(cells.toList(), nextColors.toList(), score, turns, balls, gameOver)

/** What a Lines turn did, comparable. */
fun LinesTurn.key(): List<Any> = listOf(path.toList(), color, cleared.toList(), landed, clearedByLanding.toList(), points, score, gameOver)

/** A legal move on a race board given as cells (0 empty): a ball and an empty neighbour. */
fun raceMoveOn(cells: ByteArray): Pair<UByte, UByte>? {
    for (from in 0 until 81) {
        if (cells[from].toInt() == 0) continue
        val (f, r) = from % 9 to from / 9
        for ((df, dr) in listOf(1 to 0, -1 to 0, 0 to 1, 0 to -1)) {
            val (nf, nr) = f + df to r + dr
            if (nf !in 0..8 || nr !in 0..8) continue
            val n = nr * 9 + nf
            if (cells[n].toInt() == 0) return from.toUByte() to n.toUByte()
        }
    }
    return null
}

fun linesTests(s: Suite) {
    s.test("Lines taps: pick, pick another, put down, a walled-off cell, move") {
        val game = LinesGame(LinesSettings(5u, LinesUndo.OFF), 5uL)
        val view = game.view()
        val balls = view.cells.indices.filter { view.cells[it].toInt() != 0 }.map { it.toUByte() }
        val empty = view.cells.indexOfFirst { it.toInt() == 0 }.toUByte()
        eq(LinesTap.Ignored, game.tap(empty), "an empty cell with nothing picked")
        throws<LinesException.OffBoard> { game.tap(81u) }
        val picked = game.tap(balls[0]) as LinesTap.Selected
        eq(balls[0], picked.cell)
        eq(game.reachable(balls[0]).toList(), picked.reachable.toList())
        eq(balls[1], (game.tap(balls[1]) as LinesTap.Selected).cell, "another ball picks that one")
        eq(balls[1], game.selected())
        eq(LinesTap.Deselected, game.tap(balls[1]))
        eq(null, game.selected())
        game.tap(balls[0])
        game.clearSelection()
        eq(null, game.selected())
        // Play by hints until some ball cannot reach some empty cell: that tap keeps the pick.
        var walled = false
        for (i in 0 until 200) {
            val v = game.view()
            val cells = v.cells
            val pair = (0 until 81).filter { cells[it].toInt() != 0 }.firstNotNullOfOrNull { f ->
                val reach = game.reachable(f.toUByte()).toSet()
                (0 until 81).firstOrNull { cells[it].toInt() == 0 && it.toByte() !in reach }?.let { f to it }
            }
            if (pair != null) {
                game.tap(pair.first.toUByte())
                val t = game.tap(pair.second.toUByte()) as LinesTap.Unreachable
                check(t.message.contains("no free path")) { t.message }
                eq(pair.first.toUByte(), game.selected(), "still picked")
                eq(v.key(), game.view().key(), "nothing moved")
                walled = true
                break
            }
            val h = game.hint() ?: break
            game.tap(h.from)
            val moved = game.tap(h.to) as LinesTap.Moved
            eq(h.path.toList(), moved.turn.path.toList())
            eq(v.cells[h.from.toInt()].toInt() - 1, moved.turn.color.toInt())
            eq(null, game.selected())
        }
        check(walled) { "some position walls a cell off" }
    }

    s.test("a seeded Lines game played by its hints to the end, save and load") {
        val settings = LinesSettings(5u, LinesUndo.LAST_TURN)
        val game = LinesGame(settings, 42uL)
        eq(LinesGame(settings, 42uL).view().key(), game.view().key(), "a seed repeats the game")
        var view = game.view()
        eq(81, view.cells.size)
        eq(5u, view.balls)
        eq(3, view.nextColors.size)
        eq("red", linesColorName(0u))
        eq("i9", linesCellName(80u))

        // Refusals are typed and change nothing.
        val empty = view.cells.indexOfFirst { it.toInt() == 0 }.toUByte()
        val balls = view.cells.indices.filter { view.cells[it].toInt() != 0 }.map { it.toUByte() }
        throws<LinesException.EmptySource> { game.play(empty, empty) }
        throws<LinesException.Occupied> { game.play(balls[0], balls[1]) }
        throws<LinesException.OffBoard> { game.play(81u, 0u) }
        throws<LinesException.Unreadable> { game.playText("a1") }
        throws<LinesException.NothingToUndo> { game.undo() }
        throws<LinesException.BadSettings> { LinesGame(LinesSettings(4u, LinesUndo.OFF), null) }
        // The hint's budget: more than 10,000 playouts is refused, the budget stays.
        throws<LinesException.BadSettings> { game.setHintPlayouts(10_001u) }
        game.setHintPlayouts(1u)
        game.setHintPlayouts(30u)
        eq(view.key(), game.view().key(), "refusals change nothing")
        eq(view.score, game.score())

        var saved: ByteArray? = null
        var savedAt = 0
        val afterSave = mutableListOf<LinesTurn>()
        var turns = 0
        // 3000: a bound on a runaway loop, not a prediction (the hint's games last about 120–1,500 turns).
        while (turns < 3000) {
            val hint = game.hint() ?: break
            check(hint.reason.isNotBlank()) { "a hint says why" }
            val before = game.view()
            check(before.cells[hint.from.toInt()].toInt() != 0) { "the hint moves a ball" }
            val turn = game.play(hint.from, hint.to)
            eq(hint.path.toList(), turn.path.toList(), "the path shown is the path played")
            eq(hint.from, turn.path.first().toUByte())
            eq(hint.to, turn.path.last().toUByte())
            for (i in 1 until turn.path.size) {
                val (a, b) = turn.path[i - 1].toInt() to turn.path[i].toInt()
                check(kotlin.math.abs(a - b) == 9 || (kotlin.math.abs(a - b) == 1 && a / 9 == b / 9)) {
                    "the ball steps to a neighbour: $a → $b"
                }
            }
            eq(before.score + turn.points, turn.score, "points add up")
            if (turn.cleared.isEmpty()) {
                // As many as there are empty cells for (the last turn too); a full board's
                // last ball may complete a line.
                val room = minOf(3, before.cells.count { it.toInt() == 0 })
                eq(before.nextColors.take(room).map { it.toUByte() }, turn.landed.map { it.color }, "the announced balls land")
            }
            turns++
            if (saved != null && afterSave.size < 15) afterSave += turn
            if (turns == 10) {
                // Undo gives back the position, and the same balls come again.
                game.undo()
                eq(before.key(), game.view().key(), "undo gives the position back")
                eq(turn.key(), game.play(hint.from, hint.to).key(), "undo cannot fish for balls")
            }
            if (turns == 15) {
                // Redo plays the turn taken back again, once.
                game.undo()
                check(game.view().canRedo) { "a turn taken back can be played again" }
                eq(turn.key(), game.redo()?.key(), "redo lands the same balls")
                eq(null, game.redo())
                check(!game.view().canRedo)
            }
            if (turns == 20) {
                saved = game.save()
                savedAt = turns
            }
        }
        view = game.view()
        check(view.gameOver && game.isOver()) { "the board filled up in $turns turns" }
        eq(81u, view.balls)
        check(view.score > 0u) { "hints clear lines" }
        throws<LinesException.GameOver> { game.play(0u, 1u) }
        eq(null, game.hint())
        eq(0u, game.recordResult("2026-12-02"))
        eq(view.score, game.bestScores().first().score)

        // Save → load: the same game and the same future balls.
        val back = LinesGame.load(saved!!)
        eq(savedAt.toUInt(), back.view().turns)
        val replay = LinesGame(settings, 42uL)
        val table = game.bestScoresBytes()
        replay.loadBestScores(table)
        eq(game.bestScores(), replay.bestScores())
        // The loaded game, played the same moves, lands the same balls. Its seed known (a shared
        // challenge), it is not ranked.
        check(!back.view().seedKnown)
        back.markSeedKnown()
        check(back.view().seedKnown)
        for (t in afterSave) {
            eq(t.key(), back.play(t.path.first().toUByte(), t.path.last().toUByte()).key(), "the same future after loading")
        }
        back.startClock(1_000uL, 0uL)
        eq(0uL, back.tick(1_000uL), "ended on time")
        check(back.isOver() && back.view().score > 0u) { "over, with points" }
        eq(null, back.recordResult("2026-12-02"), "a game of a known seed is not ranked")
        throws<LinesException.BadSave> { LinesGame.load(byteArrayOf(1, 2, 3)) }
        val newer = game.save().also { it[8] = 200.toByte() }
        val e = throws<LinesException.NewerSave> { LinesGame.load(newer) }
        check(e.message!!.contains("update the app")) { e.message!! }
        val newerTable = table.copyOf().also { it[0] = 7 }
        throws<LinesException.NewerSave> { replay.loadBestScores(newerTable) }
    }

    s.test("a seeded Lines 98 preview game lands its next balls on the spots shown") {
        val settings = LinesSettings(5u, LinesUndo.LAST_TURN, true)
        val game = LinesGame(settings, 7uL)
        eq(true, game.view().settings.preview)
        eq(0, LinesGame(LinesSettings(5u, LinesUndo.LAST_TURN), 7uL).nextSpots().size, "no spots without the preview")
        var onSpots = 0
        for (i in 0 until 20) {
            val spots = game.nextSpots().toList()
            val next = game.view().nextColors.toList()
            eq(3, spots.size, "three spots")
            val h = game.hint() ?: break
            val turn = game.play(h.from, h.to)
            // A move that takes no spot and makes no line: the balls land on the spots shown.
            if (turn.cleared.isEmpty() && h.to.toByte() !in spots) {
                eq(spots, turn.landed.map { it.cell.toByte() }, "the balls land on the spots shown")
                eq(next, turn.landed.map { it.color.toByte() }, "in the colours announced")
                onSpots++
            }
            if (game.isOver()) break
        }
        check(onSpots > 5) { "only $onSpots landings on spots" }
        val back = LinesGame.load(game.save())
        eq(game.nextSpots().toList(), back.nextSpots().toList(), "the spots survive save and load")
        eq(true, back.view().settings.preview)
    }

    s.test("a Lines 98 preview game's view carries the spots its balls land on") {
        val game = LinesGame(LinesSettings(3u, LinesUndo.OFF, true), 11uL)
        eq(0, LinesGame(LinesSettings(3u, LinesUndo.OFF), 11uL).view().nextSpots.size, "no spots in a classic view")
        var onSpots = 0
        for (i in 0 until 15) {
            val view = game.view()
            val spots = view.nextSpots.toList()
            eq(game.nextSpots().toList(), spots, "the view's spots are nextSpots()")
            val h = game.hint() ?: break
            val turn = game.play(h.from, h.to)
            if (turn.cleared.isEmpty() && h.to.toByte() !in spots) {
                eq(spots.zip(view.nextColors.toList()), turn.landed.map { it.cell.toByte() to it.color.toByte() }, "each ball on its spot")
                onSpots++
            }
            if (game.isOver()) break
        }
        check(onSpots > 5) { "only $onSpots landings on spots" }
    }

    s.test("a Lines race between two Match objects over loopback, to the end") {
        val hostEvents = QueueMatchListener("host")
        val guestEvents = QueueMatchListener("guest")
        val host = Match.host("An", "127.0.0.1:0", false, boardGames() + GameKind.LINES, null, hostEvents)
        val address = hostEvents.next<MatchEvent.Listening>().address
        val guest = Match.join("Binh", address, guestEvents)
        try {
            host.confirmCode(hostEvents.next<MatchEvent.VerifyCode>().code)
            guest.confirmCode(guestEvents.next<MatchEvent.VerifyCode>().code)
            eq(null, host.raceState())
            host.proposeRace(RaceSettings(3u, 3600u), Color.RED)
            guestEvents.next<MatchEvent.Proposed>()
            guest.acceptProposal()
            for ((events, color) in listOf(hostEvents to Color.RED, guestEvents to Color.BLACK)) {
                var e: MatchEvent.Race
                do {
                    e = events.next<MatchEvent.Race>()
                } while (e.update !is RaceUpdate.Started)
                eq(RaceUpdate.Started(RaceSettings(3u, 3600u), color), e.update)
            }
            val hs = host.state()
            eq(GameKind.LINES, hs.kind)
            val race = hs.race!!
            eq(Color.RED, race.yourColor)
            eq(race.board!!.cells.toList(), guest.state().race!!.board!!.cells.toList(), "one seed, the same board on both sides")
            // An hour's race: its clock runs from the start (every race has a time limit).
            check(race.timeLeftMs.let { it != null && it in 3_000_000uL..3_600_000uL }) { "time left ${race.timeLeftMs}" }

            // Both sides play until their boards are full.
            val sides = listOf(host, guest)
            var moves = 0
            while (sides.any { it.state().race!!.canMove }) {
                for (m in sides) {
                    val r = m.state().race!!
                    if (!r.canMove) continue
                    val (from, to) = raceMoveOn(r.board!!.cells) ?: continue
                    if (m === guest) {
                        // The guest plays by taps: pick the ball, then its target.
                        check(m.raceTap(from) is LinesTap.Selected) { "a tap on a ball picks it" }
                        eq(from, m.raceSelected())
                        val moved = m.raceTap(to) as? LinesTap.Moved ?: throw AssertionError("the picked ball moves")
                        eq(from, moved.turn.path.first().toUByte())
                        eq(r.board!!.cells[from.toInt()].toInt() - 1, moved.turn.color.toInt())
                        eq(null, m.raceSelected())
                    } else {
                        val turn = m.raceMove(from, to)
                        eq(from, turn.path.first().toUByte())
                        eq(to, turn.path.last().toUByte())
                    }
                    moves++
                }
                check(moves < 1000) { "the boards fill up" }
            }
            fun over(events: QueueMatchListener): RaceOutcome {
                while (true) {
                    val u = events.next<MatchEvent.Race>().update
                    if (u is RaceUpdate.Over) return u.outcome
                }
            }
            val ho = over(hostEvents)
            val go = over(guestEvents)
            eq(RaceEnding.Finished, ho.ending)
            eq(ho.copy(text = ""), go.copy(text = ""), "both sides agree on the result")
            val h = host.state().race!!
            val g = guest.state().race!!
            check(h.board!!.full && g.board!!.full) { "both boards full" }
            eq(h.score, g.opponentScore, "the guest's replica scores the host's board")
            eq(g.score, h.opponentScore)
            eq(h.board!!.cells.toList(), g.opponent!!.cells.toList(), "the replica is the board")
            eq(ho.redScore, h.score)
            eq(ho.blackScore, g.score)
            eq(ho, h.outcome)
            eq(go, g.outcome)
            check(ho.text.startsWith("You") || ho.text.startsWith("The race")) { ho.text }
            throws<BancoException> { host.raceMove(0u, 1u) }
            eq(LinesTap.Ignored, host.raceTap(0u), "no taps after the end")
        } finally {
            guest.leave()
            host.leave()
        }
    }

    s.test("a Lines race with Lines 98's preview: the guest learns it, both show the host's spots, the balls land there") {
        val hostEvents = QueueMatchListener("host")
        val guestEvents = QueueMatchListener("guest")
        val host = Match.host("An", "127.0.0.1:0", false, boardGames() + GameKind.LINES, null, hostEvents)
        val address = hostEvents.next<MatchEvent.Listening>().address
        val guest = Match.join("Binh", address, guestEvents)
        try {
            host.confirmCode(hostEvents.next<MatchEvent.VerifyCode>().code)
            guest.confirmCode(guestEvents.next<MatchEvent.VerifyCode>().code)
            val settings = RaceSettings(5u, 3600u, true)
            host.proposeRace(settings, Color.RED)
            val offer = guestEvents.next<MatchEvent.Proposed>().offer
            eq(settings, offer.race, "the guest sees the race's options, the preview included, before accepting")
            eq(settings, guest.state().proposal?.race, "and in the match state")
            eq("5 balls, 60 min, preview", guest.state().offeredRace, "in words for the accept prompt")
            guest.acceptProposal()
            for ((events, color) in listOf(hostEvents to Color.RED, guestEvents to Color.BLACK)) {
                var e: MatchEvent.Race
                do {
                    e = events.next<MatchEvent.Race>()
                } while (e.update !is RaceUpdate.Started)
                eq(RaceUpdate.Started(settings, color), e.update, "both start the race with its options")
            }
            var onSpots = 0
            for (i in 0 until 8) {
                val board = host.raceState()!!.board!!
                val spots = board.nextSpots.toList()
                eq(3, spots.size, "our board shows its spots")
                val (from, to) = raceMoveOn(board.cells)!!
                val turn = host.raceMove(from, to)
                if (turn.cleared.isEmpty() && to.toByte() !in spots) {
                    eq(spots, turn.landed.toList(), "the balls land on the spots shown")
                    onSpots++
                }
                var u: RaceUpdate
                do {
                    u = guestEvents.next<MatchEvent.Race>().update
                } while (!(u is RaceUpdate.OpponentMoved && u.turn == i.toUInt()))
                val mine = host.raceState()!!.board!!
                val replica = guest.raceState()!!.opponent!!
                eq(mine.cells.toList(), replica.cells.toList(), "the replica lands the balls as our board does")
                eq(mine.nextSpots.toList(), replica.nextSpots.toList(), "and shows the same spots")
            }
            check(onSpots > 3) { "only $onSpots landings on spots" }
        } finally {
            guest.leave()
            host.leave()
        }
    }
}
