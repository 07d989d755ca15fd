// What the match screen and the game screen reach beyond one hosted game: either side
// proposes the next game from Settings, a finished match game is saved (with how it ended)
// and shared, joining by address runs off the UI thread, and the editor opens on the
// position of the game against the computer.
package org.banco.shell.tests

import org.banco.BancoException
import org.banco.Color
import org.banco.Game
import org.banco.GameKind
import org.banco.MatchPhase as Phase
import org.banco.shell.EditorController
import org.banco.shell.MatchController
import org.banco.shell.MatchRecords
import org.banco.shell.MemoryStore
import org.banco.shell.Settings
import java.net.ServerSocket
import java.time.LocalDate
import java.util.concurrent.CopyOnWriteArrayList

/** A paired match playing the host's proposal (xiangqi, host Red). */
private fun Pair2.started(): Pair<org.banco.MatchState, org.banco.MatchState> {
    val (hv, gv) = connect()
    hostUi.call { host.confirmCode(hv.code!!) }
    guestUi.call { guest.confirmCode(gv.code!!) }
    val proposed = guestUi.awaitMatch(guest, "proposal") { it.phase == Phase.PROPOSED }
    guestUi.call { guest.acceptOffer(proposed.proposalId!!) }
    return hostUi.awaitMatch(host, "host playing") { it.phase == Phase.PLAYING } to
        guestUi.awaitMatch(guest, "guest playing") { it.phase == Phase.PLAYING }
}

fun matchMoreTests(s: Suite) {
    s.test("after a game the guest proposes chess from its Settings (with a clock), the host accepts, chess starts on both") {
        Pair2(Settings(playerName = "An", color = Color.RED)).use { p ->
            p.started()
            p.hostUi.tap(p.host, "h2")
            p.hostUi.tap(p.host, "e2")
            p.guestUi.awaitMatch(p.guest, "the host's move") { it.moves.size == 1 }
            p.hostUi.call { p.host.resign() }
            val over = p.guestUi.awaitMatch(p.guest, "game over") { it.phase == Phase.OVER }
            p.hostUi.awaitMatch(p.host, "game over") { it.phase == Phase.OVER }
            check(over.canPropose) { "Rust shows the propose control after a game" }
            // The guest wants chess, White, 10+5.
            val guestSettings = Settings(game = GameKind.CHESS, color = Color.RED, playerName = "Binh", clock = "10+5")
            p.guestUi.call { p.guest.propose(guestSettings) }
            val asked = p.hostUi.awaitMatch(p.host, "the guest's proposal") { it.phase == Phase.PROPOSED }
            eq(GameKind.CHESS, asked.proposal?.game, "the host is asked about chess")
            eq("You play Black\nClock: 10:00 + 5s", asked.offeredTerms, "in Rust's words")
            // Play accepts the proposal shown (its number) and no other: another number is
            // refused in Rust's words, nothing accepted.
            val id = asked.proposalId!!
            p.hostUi.call { p.host.acceptOffer(id + 1u) }
            val refused = p.hostUi.call { p.host.state.value }
            check(refused.error?.contains("changed the proposal: look again") == true) { "$refused" }
            eq(Phase.PROPOSED, refused.match?.phase, "nothing accepted")
            p.hostUi.call { p.host.acceptOffer(id) }
            val hs = p.hostUi.awaitMatch(p.host, "chess on the host") { it.phase == Phase.PLAYING }
            val gs = p.guestUi.awaitMatch(p.guest, "chess on the guest") { it.phase == Phase.PLAYING }
            eq(GameKind.CHESS, hs.kind)
            eq(GameKind.CHESS, gs.kind)
            eq(Color.RED, gs.yourColor, "the guest plays White as proposed")
            eq(Color.BLACK, hs.yourColor)
            check(gs.yourTurn && !hs.yourTurn && gs.moves.isEmpty()) { "$gs / $hs" }
            eq("10:00", hs.clockFaces?.you?.text, "the proposal's clock on the host")
            eq("10:00", gs.clockFaces?.opponent?.text, "and on the guest")
        }
    }

    s.test("a match game ended by resignation is saved with its result, listed, opened and shared as PGN") {
        Pair2(Settings(playerName = "An", color = Color.RED)).use { p ->
            eq(null, p.hostUi.call { p.host.saved() }, "no record before a game")
            p.hostUi.call { p.host.clearNotice() }
            p.started()
            p.hostUi.tap(p.host, "h2")
            p.hostUi.tap(p.host, "e2")
            p.guestUi.awaitMatch(p.guest, "the host's move") { it.moves.size == 1 }
            val running = p.guestUi.call { p.guest.saved() } ?: throw AssertionError("a running game has a record")
            eq("*", Game.load(running).use { it.status().result }, "a running game's record goes on")
            p.guestUi.call { p.guest.resign() }
            val over = p.hostUi.awaitMatch(p.host, "over") { it.phase == Phase.OVER }
            val saved = p.hostUi.call { p.host.saved() } ?: throw AssertionError("a finished game has a record")
            val status = Game.load(saved).use { it.status() }
            eq("1-0", status.result, "Red (the host) won by resignation")
            check(status.resultText.contains("resign")) { status.resultText }
            val records = MatchRecords(MemoryStore())
            eq("Saved (Saved matches)", records.save(saved))
            val listed = records.list().single()
            // Past the limit the oldest makes room, and the words say which (not silently).
            val more = MatchRecords(MemoryStore())
            repeat(MatchRecords.LIMIT) { check(!more.save(saved).contains("oldest")) }
            val full = more.save(saved)
            check(full.contains("oldest went: Xiangqi · 1-0 resignation · 1 ply")) { full }
            eq(MatchRecords.LIMIT, more.list().size)
            // A list this shell saved before Rust kept it (Base64 joined by commas) reads as it
            // was; its damaged record is left out of the list.
            val old = MemoryStore()
            val b64 = java.util.Base64.getEncoder()
            old.putString("match.records", listOf(saved, byteArrayOf(1, 2, 3), running).joinToString(",") { b64.encodeToString(it) })
            val oldList = MatchRecords(old).list()
            eq(listOf("Xiangqi · 1-0 resignation · 1 ply", "Xiangqi · unfinished · 1 ply"), oldList.map { it.label })
            check(oldList[1].saved.contentEquals(running))
            eq("Xiangqi · 1-0 resignation · 1 ply", listed.label, "Rust's label, in the singular")
            // Opened as "Saved matches" opens it: the game with its move and its ending.
            GameFixture().use { f ->
                check(f.ui.call { f.c.openSaved(listed.saved, Settings(level = 1)) }) { "${f.state()}" }
                val reopened = f.awaitTurn(1)
                eq(GameKind.XIANGQI, reopened.kind)
                eq(1, reopened.moves.size, "the match's move")
                eq(over.outcome, reopened.outcome, "the resignation is kept")
            }
            val date = LocalDate.of(2026, 12, 5)
            val pgn = MatchRecords.pgn(saved, over, "An", date)
            check("[Result \"1-0\"]" in pgn) { pgn }
            check("[Red \"An\"]" in pgn && "[Black \"Binh\"]" in pgn) { pgn }
            check("[Date \"2026.12.05\"]" in pgn) { pgn }
            // From the guest's side: the local player (Binh) plays Black.
            val guestOver = p.guestUi.awaitMatch(p.guest, "over") { it.phase == Phase.OVER }
            eq(Color.BLACK, guestOver.yourColor)
            val guestSaved = p.guestUi.call { p.guest.saved() } ?: throw AssertionError("the guest's record")
            val guestPgn = MatchRecords.pgn(guestSaved, guestOver, "Binh", date)
            check("[Red \"An\"]" in guestPgn && "[Black \"Binh\"]" in guestPgn) { guestPgn }
            check("[Result \"1-0\"]" in guestPgn) { guestPgn }
        }
    }

    s.test("join by address runs off the UI thread: the controller or the error comes through the dispatcher") {
        val ui = TestUi()
        try {
            // A closed loopback port: nobody listens there.
            val port = ServerSocket(0).use { it.localPort }
            val pending = CopyOnWriteArrayList<() -> Unit>()
            val results = CopyOnWriteArrayList<Pair<Result<MatchController>, Thread>>()
            fun next(what: String): Pair<Result<MatchController>, Thread> {
                val deadline = System.nanoTime() + 30_000_000_000
                while (results.isEmpty()) {
                    check(System.nanoTime() < deadline) { "timed out waiting for $what" }
                    Thread.sleep(10)
                }
                return results.removeAt(0)
            }
            fun join(address: String) = ui.call {
                MatchController.joinInBackground(ui, "Binh", address, background = { pending += it }) {
                    results += it to Thread.currentThread()
                }
            }
            join("127.0.0.1:$port")
            eq(1, pending.size, "the join waits for the worker")
            eq(0, results.size, "the caller is not blocked: nothing came back yet")
            Thread(pending.removeAt(0)).start()
            val (made, thread) = next("the controller")
            eq(ui.uiThread, thread, "delivered on the UI thread")
            val c = made.getOrThrow()
            try {
                ui.await(c.state, "the refusal shown") { it.match?.banner?.startsWith("Cannot reach the other device") == true }
            } finally {
                ui.call { c.leave() }
            }
            // An address that is no address: the error, through the dispatcher too.
            join("not an address")
            Thread(pending.removeAt(0)).start()
            val (failed, failedOn) = next("the error")
            eq(ui.uiThread, failedOn, "the error on the UI thread")
            check(failed.exceptionOrNull() is BancoException) { "$failed" }
        } finally {
            ui.shutdown()
        }
    }

    s.test("join by address cancelled (the player left first): its end is ignored (the match it made is left)") {
        val ui = TestUi()
        val host = MatchController.host(ui, Settings(playerName = "An"), "127.0.0.1:0", advertise = false)
        try {
            val address = ui.await(host.state, "listening") { it.match?.phase == Phase.LISTENING }.match!!.address
            val pending = CopyOnWriteArrayList<() -> Unit>()
            val results = CopyOnWriteArrayList<Result<MatchController>>()
            val join = ui.call {
                MatchController.joinInBackground(ui, "Binh", address, background = { pending += it }) { results += it }
            }
            // The player leaves before the worker has joined; then the join finishes.
            ui.call { join.cancel() }
            pending.removeAt(0)()
            ui.call { } // what the worker posted has run
            eq(0, results.size, "no match screen for a join the player left")
            // A join not cancelled comes through as before.
            val again = ui.call {
                MatchController.joinInBackground(ui, "Binh", address, background = { pending += it }) { results += it }
            }
            pending.removeAt(0)()
            ui.call { }
            eq(1, results.size, "the join's controller")
            check(!again.cancelled)
            ui.call { results[0].getOrThrow().leave() }
        } finally {
            ui.call { host.leave() }
            ui.shutdown()
        }
    }

    s.test("set up from this position: the editor opens on the game's current position") {
        GameFixture().use { f ->
            check(f.ui.call { f.c.newGame(Settings(game = GameKind.CHESS, level = 1, color = Color.RED)) })
            f.awaitTurn(0)
            f.tapScripted("e2", "e4")
            f.awaitTurn(2)
            f.tapScripted("g1", "f3")
            val st = f.awaitTurn(4)
            val ed = EditorController(f.ui)
            val saved = f.ui.call { f.c.saved() } ?: throw AssertionError("a game on screen")
            check(f.ui.call { ed.openSaved(saved) })
            // The position (board, side to move, castling, en passant); the editor sets up a
            // position, so its move counters start again ("0 1").
            fun position(fen: String?) = fen?.split(' ')?.take(4)
            eq(position(st.fen), position(f.ui.call { ed.state.value.view?.fen }), "the editor's FEN is the game's")
            check(st.fen.split(' ').take(4) != "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -".split(' ')) { "moves were played" }
            f.ui.call { ed.close() }
        }
    }

    s.test("editor: chess castling rights and the en-passant square, checked by Rust") {
        GameFixture().use { f ->
            val ed = EditorController(f.ui)
            val afterE4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
            check(f.ui.call { ed.openFen(GameKind.CHESS, afterE4) })
            fun fen() = f.ui.call { ed.state.value.view!!.fen }
            f.ui.call { ed.setEnPassant("e3") }
            check(fen().contains(" b KQkq e3 ")) { fen() }
            f.ui.call { ed.setCastling(Color.RED, kingSide = true, allowed = false) }
            check(fen().contains(" b Qkq e3 ")) { fen() }
            eq(emptyList<String>(), f.ui.call { ed.state.value.view!!.problems.map { it.text } }, "e3 is right")
            f.ui.call { ed.setEnPassant("d3") }
            check(fen().contains(" d3 ")) { fen() }
            val problems = f.ui.call { ed.state.value.view!!.problems }
            check(problems.isNotEmpty()) { "no pawn passed over d3: Rust lists the problem" }
            f.ui.call { ed.setEnPassant("z9") }
            check(f.ui.call { ed.state.value.message } != null) { "no such square: refused" }
            f.ui.call { ed.clearMessage() }
            f.ui.call { ed.setEnPassant("") }
            check(fen().contains(" b Qkq - ")) { fen() }
            f.ui.call { ed.close() }
        }
    }
}
