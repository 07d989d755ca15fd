// A Lines race hosted nearby through the lobby, as a board game is: the host's LobbyModel
// opens it on the LAN and over the Bluetooth double (NearbyTests' Air, PipePeripheral,
// PipeCentral), the guest finds it in the nearby list (a Lines host, over Bluetooth), joins,
// sees the race's options and accepts, and both controllers race by taps; after every
// exchange each side's race state shows the other's board as it is (the race screen's
// opponent board, score and balls), and a resignation ends the race alike on both sides.
// Then "race again": the same race anew, from a new seed on both sides.
package org.banco.shell.tests

import org.banco.Color
import org.banco.GameKind
import org.banco.boardGames
import org.banco.MatchPhase as Phase
import org.banco.NearbyLobby
import org.banco.NearbyTransport
import org.banco.RaceBoard
import org.banco.RaceEnding
import org.banco.RaceSettings
import org.banco.RaceState
import org.banco.shell.LobbyModel
import org.banco.shell.MatchController
import org.banco.shell.Settings

/** The same board (a ByteArray field: compared by content): cells, score, moves and balls. */
fun sameBoard(a: RaceBoard?, b: RaceBoard?): Boolean =
    a != null && b != null && a.cells.contentEquals(b.cells) && a.score == b.score && a.turns == b.turns && a.balls == b.balls

/** Plays a move on [c]'s race board by two taps (the ball, then a free neighbour). */
fun TestUi.raceByTaps(c: MatchController) = call {
    val r = c.state.value.race!!
    check(r.canMove) { "the race is on: $r" }
    val (from, to) = neighbourMove(r.board!!.cells) ?: throw AssertionError("no move on ${r.board}")
    eq(null, c.raceTap(from), "a tap on a ball picks it")
    c.raceTap(to) ?: throw AssertionError("refused: ${c.state.value.notice}")
    Unit
}

/** Waits until each side's race shows the other's board as it is, and returns both races. */
fun awaitMirrored(hostUi: TestUi, host: MatchController, guestUi: TestUi, guest: MatchController): Pair<RaceState, RaceState> {
    val deadline = System.nanoTime() + 30_000_000_000
    while (true) {
        val h = hostUi.call { host.state.value.race!! }
        val g = guestUi.call { guest.state.value.race!! }
        if (sameBoard(h.board, g.opponent) && sameBoard(g.board, h.opponent)) {
            eq(h.board!!.score, g.opponentScore, "the score the guest shows")
            eq(h.board!!.balls, g.opponentBalls, "the balls the guest shows")
            eq(g.board!!.score, h.opponentScore, "the score the host shows")
            eq(g.board!!.balls, h.opponentBalls, "the balls the host shows")
            return h to g
        }
        if (System.nanoTime() > deadline) throw AssertionError("the boards never mirrored: $h / $g")
        Thread.sleep(10)
    }
}

fun nearbyRaceTests(s: Suite) {
    s.test("nearby race: hosted through the lobby on the LAN and Bluetooth, found and joined over Bluetooth, raced by taps, resigned") {
        val air = Air()
        val hostUi = TestUi()
        val guestUi = TestUi()
        val lobbies = NearbyLobbies(air, hostUi, guestUi)
        val (hostLobby, guestLobby) = lobbies.host to lobbies.guest
        // The race of the host's Settings: 3 balls, an hour, Lines 98's preview.
        val settings = Settings(playerName = "An", raceStartBalls = 3, raceMinutes = 60, linesPreview = true)
        val host = hostUi.call { hostLobby.host(settings, "127.0.0.1:0", advertise = false, race = true) }
        var guestOrNull: MatchController? = null
        try {
            val listening = hostUi.await(host.state, "listening") { it.phase == Phase.LISTENING }
            eq(listOf(NearbyTransport.LAN, NearbyTransport.BLE), listening.openOn, "a race is open over Bluetooth too")
            eq(null, listening.bluetooth)
            // Rust's race offer hosted with the board games, which Rust offers the race with.
            eq(boardGames() + GameKind.LINES, listening.match?.offers, "the board games and the race")

            // The guest's list shows a Lines host, over Bluetooth; joining it is joining the race.
            guestUi.call { guestLobby.start { NearbyLobby(listOf(), false, it) } }
            val an = guestUi.await(guestLobby.state, "the race host listed") { it.players.isNotEmpty() }.players.single()
            eq(listOf(NearbyTransport.BLE), an.transports)
            check("Lines" in LobbyModel.gamesText(an)) { LobbyModel.gamesText(an) }
            val guest = guestUi.call { guestLobby.join(an, Settings(playerName = "Binh")) }
            guestOrNull = guest
            guestUi.call { guestLobby.stop() }
            val code = hostUi.awaitMatch(host, "host code") { it.phase == Phase.VERIFY }.code!!
            eq(code, guestUi.awaitMatch(guest, "guest code") { it.phase == Phase.VERIFY }.code)
            hostUi.call { host.confirmCode(code) }
            guestUi.call { guest.confirmCode(code) }
            val proposed = guestUi.awaitMatch(guest, "the race proposed") { it.phase == Phase.PROPOSED }
            eq(RaceSettings(3u, 3600u, true), proposed.proposal?.race, "the race of the host's settings")
            eq("3 balls, 60 min, preview", proposed.offeredRace)
            eq("Race: 3 balls, 60 min, preview", proposed.offeredTerms, "the accept prompt's words")
            guestUi.call { guest.acceptOffer(guest.state.value.match!!.proposalId!!) }
            hostUi.await(host.state, "host racing") { it.race?.board != null }
            guestUi.await(guest.state, "guest racing") { it.race?.board != null }
            val (h0, g0) = awaitMirrored(hostUi, host, guestUi, guest)
            eq(Color.RED, h0.yourColor)
            eq(Color.BLACK, g0.yourColor)
            check(sameBoard(h0.board, g0.board)) { "one seed, the same boards" }
            eq(3u, h0.board!!.balls)
            eq(3, h0.board!!.nextSpots.size, "the preview's spots")

            // Both race by taps, each move checked on the other side's replica.
            for (round in 1..8) {
                hostUi.raceByTaps(host)
                guestUi.raceByTaps(guest)
                val (h, g) = awaitMirrored(hostUi, host, guestUi, guest)
                eq(round.toUInt(), h.opponentTurns)
                eq(round.toUInt(), g.opponentTurns)
            }

            // The guest resigns: the same result on both sides, from each side's point of view.
            guestUi.call { guest.raceResign() }
            val h = hostUi.await(host.state, "host result") { it.race?.outcome != null }.race!!
            val g = guestUi.await(guest.state, "guest result") { it.race?.outcome != null }.race!!
            eq(RaceEnding.Resigned(Color.BLACK), h.outcome!!.ending)
            eq(h.outcome!!.copy(text = ""), g.outcome!!.copy(text = ""), "both sides agree")
            check(h.outcome!!.text.startsWith("You won the race")) { h.outcome!!.text }
            check(g.outcome!!.text.startsWith("You lost the race")) { g.outcome!!.text }
            check(!h.canMove && !g.canMove)
            awaitMirrored(hostUi, host, guestUi, guest)
            // The race's end is the match's result too (the match screen's "Game over").
            eq(Phase.OVER, hostUi.match(host).match!!.phase)
            eq(h.outcome!!.text, hostUi.match(host).match!!.result)

            // Race again (the race screen's button, Rust's rematch): the guest's prompt shows the
            // same race, its board Black again; accepted, both race from a new seed.
            hostUi.call { host.proposeRematch() }
            val again = guestUi.awaitMatch(guest, "the race proposed again") { it.phase == Phase.PROPOSED }
            eq(RaceSettings(3u, 3600u, true), again.proposal?.race, "the same options")
            eq(Color.BLACK, again.proposal?.yourColor)
            eq("Race: 3 balls, 60 min, preview", again.offeredTerms, "the race screen's accept prompt")
            guestUi.call { guest.acceptOffer(guest.state.value.match!!.proposalId!!) }
            val started = { st: MatchController.State -> st.race?.let { it.outcome == null && it.board != null } == true }
            hostUi.await(host.state, "host racing again", pred = started)
            guestUi.await(guest.state, "guest racing again", pred = started)
            val (h2, g2) = awaitMirrored(hostUi, host, guestUi, guest)
            check(sameBoard(h2.board, g2.board)) { "one new seed for both" }
            check(!h2.board!!.cells.contentEquals(h0.board!!.cells)) { "a new seed, not the last race's" }
            eq(0u, h2.board!!.turns)
            check(h2.canMove && g2.canMove)
            eq(Phase.PLAYING, hostUi.match(host).match!!.phase)
            eq(null, hostUi.match(host).match!!.result)
            hostUi.raceByTaps(host)
            eq(1u, guestUi.await(guest.state, "a move of the new race") { it.race?.opponentTurns == 1u }.race!!.opponentTurns)
        } finally {
            guestOrNull?.let { g -> guestUi.call { g.leave() } }
            hostUi.call { host.leave() }
            guestUi.shutdown()
            hostUi.shutdown()
        }
    }
}
